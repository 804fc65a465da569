//! The designs attached to a RISC-V core (`generate ... --rvfi`, docs/soc.md §1): the
//! files `generate` writes for `_rvfi` tops, their ports (the bare design's minus what
//! the adapter drives, plus the RVFI signals), lint and yosys, and the whole `_rvfi`
//! designs on reference (the reference adapter in front of the reference model),
//! native and Verilator in lockstep on random retirement streams.
mod common;

use common::assert_lockstep;
use common::cli::{pmugen, scratch};
use pmugen::design::pmu::PmuDesign;
use pmugen::design::rvfi::{RvfiMonitorDesign, RvfiPmuDesign};
use pmugen::design::{self, Design};
use pmugen::simulate::EngineChoice;
use pmugen_hdl::emit::{module_names, module_ports};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::rvfi::params::{KernelRule, RvfiOptions, Xlen};
use pmugen_sim::ports::pmu::PmuInputs;
use pmugen_sim::ports::rvfi::WithRvfi;
use pmugen_sim::reference::rvfi::Retirement;
use pmugen_sim::tools::{verilator_lint, yosys_check};

/// The RVFI ports of `harts` harts of `xlen`, in the top's order.
fn rvfi_ports(harts: usize, xlen: usize) -> Vec<(String, bool, usize)> {
    let widths = [1, 32, 1, 1, 2, xlen, xlen, xlen / 8, xlen / 8];
    let names = pmugen_sim::ports::rvfi::RVFI_PORTS;
    names.iter().zip(widths).map(|(name, width)| (name.to_string(), true, harts * width)).collect()
}

fn pmu(threads: usize, counters: usize, options: RvfiOptions) -> RvfiPmuDesign {
    let params = PmuParams::new(threads as u64, counters as u64, 40, EventTable::riscv_table()).unwrap();
    RvfiPmuDesign::new(params, options, "riscv.json").unwrap()
}

fn monitor(events: usize, names: &str, options: RvfiOptions) -> RvfiMonitorDesign {
    let names: Vec<String> = names.split(',').map(str::to_string).collect();
    RvfiMonitorDesign::new(MonitorParams::new(events as u64, 3).unwrap(), options, &names).unwrap()
}

/// The `_rvfi` top's ports are the bare design's (`bare`, its Verilog), without what
/// the adapter drives, with the RVFI signals after `reset`; the file lints, passes
/// yosys and names every module after the top.
fn check_ports_and_tools<I, O>(
    design: &dyn Design<I, O>,
    bare: (&str, String),
    driven: &[&str],
    harts: usize,
    xlen: usize,
) {
    let top = design.top_name();
    assert_eq!(top, format!("{}_rvfi", bare.0));
    let verilog = design.verilog().unwrap();
    let mut expected = Vec::new();
    for port in module_ports(&bare.1, bare.0).unwrap() {
        let reset = port.0 == "reset";
        if !driven.contains(&port.0.as_str()) {
            expected.push(port);
        }
        if reset {
            expected.extend(rvfi_ports(harts, xlen));
        }
    }
    assert_eq!(module_ports(&verilog, &top).unwrap(), expected, "{top}: ports");
    for module in module_names(&verilog) {
        assert!(module.starts_with(&top), "module {module} does not start with {top}");
    }
    verilator_lint(&verilog, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
    yosys_check(&verilog, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
}

#[test]
fn rvfi_tops_have_the_documented_ports_and_lint_clean() {
    let handler64 = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler };
    let driven = ["events", "core_events", "kernel", "bb_end", "bb_addr"];
    for (threads, counters, options, xlen) in [(1, 4, RvfiOptions::default(), 32), (4, 2, handler64, 64)] {
        let design = pmu(threads, counters, options);
        let bare = PmuDesign::new(design.pmu.params.clone());
        check_ports_and_tools(&design, (&bare.top_name(), bare.verilog().unwrap()), &driven, threads, xlen);
    }
    let design = monitor(4, "CALL,RETURN,CALL,BRANCH_TAKEN", handler64);
    let bare = design::monitor(design.params);
    check_ports_and_tools(&design, (&bare.top_name(), bare.verilog().unwrap()), &["events"], 1, 64);
}

#[test]
fn rvfi_pmus_equal_the_reference_adapter_into_the_reference_pmu_on_every_engine() {
    for (threads, options) in
        [(1, RvfiOptions::default()), (2, RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler })]
    {
        let design = pmu(threads, 2, options);
        let mut engines = EngineChoice::All.engines(&design).unwrap();
        let summary = assert_lockstep(&design, &mut engines, 20_000, 7, "all");
        assert!(summary.active("reg_rdata") > 1_000, "{}: few non-zero reads", design.top_name());
        assert!(summary.active("trace_last") > 10, "{}: few trace records", design.top_name());
    }
}

#[test]
fn rvfi_monitors_equal_the_reference_adapter_into_the_reference_monitor_on_every_engine() {
    let options = RvfiOptions { xlen: Xlen::Rv32, kernel_rule: KernelRule::Mode };
    let design = monitor(3, "CALL,RETURN,BRANCH_TAKEN", options);
    let mut engines = EngineChoice::All.engines(&design).unwrap();
    let summary = assert_lockstep(&design, &mut engines, 20_000, 3, "all");
    assert!(summary.active("matched") > 100, "only {} matched cycles", summary.active("matched"));
}

#[test]
fn generate_writes_the_rvfi_files_with_the_adapter_in_the_header_and_description() {
    let out = scratch("rvfi-generate");
    let dir = out.to_str().unwrap();
    let (ok, text) = pmugen(&["generate", "pmu", "--threads", "1", "--counters", "4", "--rvfi", "--out", dir]);
    assert!(ok, "{text}");
    let top = "pmu_riscv_t1_k4_c40_rvfi";
    for suffix in [".v", "_regs.h", "_regs.md", "_events.json", "_design.json", ".core", ".rdl", ".xml"] {
        assert!(out.join(format!("{top}{suffix}")).exists(), "{top}{suffix} was not written: {text}");
    }
    let verilog = std::fs::read_to_string(out.join(format!("{top}.v"))).unwrap();
    assert!(verilog.starts_with(&format!("// {top}.v: a RISC-V core's PMU: the RVFI adapter")), "{verilog:.400}");
    assert!(verilog.contains("docs/soc.md") && verilog.contains("--rvfi --out"), "{verilog:.800}");
    let description: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("{top}_design.json"))).unwrap()).unwrap();
    assert_eq!(description["top"], top);
    assert_eq!(
        (&description["rvfi"], &description["kernel"], &description["xlen"]),
        (&true.into(), &"mode".into(), &32.into())
    );
    let header = std::fs::read_to_string(out.join(format!("{top}_regs.h"))).unwrap();
    assert!(header.contains("#define PMU_RISCV_T1_K4_C40_RVFI_EVENT_BRANCH_TAKEN"), "{header:.600}");
    // The default --rvfi PMU, and the monitor with its events on a bus.
    let (ok, text) = pmugen(&["generate", "pmu", "--rvfi", "--kernel", "handler", "--xlen", "64", "--out", dir]);
    assert!(ok && out.join("pmu_riscv_t4_k2_c40_rvfi.v").exists(), "{text}");
    let description = std::fs::read_to_string(out.join("pmu_riscv_t4_k2_c40_rvfi_design.json")).unwrap();
    assert!(description.contains(r#""kernel": "handler""#) && description.contains(r#""xlen": 64"#), "{description}");
    let args = ["generate", "monitor", "--events", "2", "--rvfi", "--rvfi-events", "CALL,RETURN", "--bus", "axi4lite"];
    let (ok, text) = pmugen(&[&args[..], &["--out", dir]].concat());
    assert!(ok && out.join("event_order_monitor_n2_w3_rvfi_axil.v").exists(), "{text}");
}

/// docs/soc.md §1.4's diagram: a taken branch retires in cycle k; the adapter shows
/// BRANCH_TAKEN in cycle k+1, the PMU counts it at edge k+2, PERF_CNTR0 holds it from
/// cycle k+3; a read in cycle k+2 still returns 0, a read in cycle k+3 returns 1.
/// On the reference, native and Verilator engines.
#[test]
fn a_retirement_is_counted_as_the_docs_draw_it() {
    let design = pmu(1, 2, RvfiOptions::default());
    let idle = || WithRvfi {
        retirements: vec![Retirement::default()],
        inputs: PmuInputs {
            pm_mark: 1,
            trace_ready: true,
            events: vec![0],
            core_events: vec![0],
            ..Default::default()
        },
    };
    let access = |write: bool, address: u8, data: u64| {
        let mut cycle = idle();
        let inputs = &mut cycle.inputs;
        (inputs.reg_priv, inputs.reg_addr, inputs.reg_wdata) = (true, address, data);
        (inputs.reg_write, inputs.reg_read) = (write, !write);
        cycle
    };
    let mut cycles = vec![WithRvfi { inputs: PmuInputs { reset: true, ..idle().inputs }, ..idle() }];
    cycles.push(access(true, 0x28, 0x41_0007)); // PERF_EVTSEL0: EN, USR, BRANCH_TAKEN
    cycles.push(access(true, 0x2F, 1)); // PERF_GLOBAL_CTRL: counter 0
    cycles.extend([idle(), idle()]);
    let k = cycles.len();
    let branch = Retirement { valid: true, insn: 0x0000_0463, pc_rdata: 0x100, pc_wdata: 0x108, ..Default::default() };
    cycles.push(WithRvfi { retirements: vec![branch], ..idle() }); // cycle k: beq x0, x0, +8 (taken), user mode
    cycles.push(idle()); // k+1
    cycles.push(access(false, 0x20, 0)); // k+2: read PERF_CNTR0
    cycles.push(access(false, 0x20, 0)); // k+3: read it again
    cycles.push(idle()); // k+4
    let mut engines = EngineChoice::All.engines(&design).unwrap();
    engines.insert(0, design.reference());
    for engine in &mut engines {
        // outputs[i]: the outputs during cycle i + 1.
        let rdata: Vec<u64> = cycles.iter().map(|cycle| engine.step(cycle).reg_rdata).collect();
        assert_eq!((rdata[k + 2], rdata[k + 3]), (0, 1), "{}: reg_rdata during cycles k+3, k+4", engine.name());
    }
}

/// Every flip-flop of a synthesized `_rvfi` top belongs to a register its blocks
/// declare (`flip_flops()`, the resource report's groups), the adapter's in the
/// adapter's groups: T*(14 + 1 + 1 + AW) for its register stage.
#[test]
fn rvfi_tops_declare_every_flip_flop_of_their_netlist() {
    use pmugen::report::netlist::analyse;
    use pmugen_hdl::rvfi::groups;
    let handler64 = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler };
    let design = pmu(2, 1, handler64);
    let top = design.top_name();
    let dir = scratch("rvfi-netlist");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{top}.v")), design.verilog().unwrap()).unwrap();
    let script =
        include_str!("../scripts/yosys/budget.ys").replace("{file}", &format!("{top}.v")).replace("{top}", &top);
    std::fs::write(dir.join("budget.ys"), script).unwrap();
    let (ok, log) = pmugen_sim::tools::run_tool("yosys", &["-q", "-s", "budget.ys"], &dir).unwrap();
    assert!(ok, "{log}");
    let netlist: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("coarse.json")).unwrap()).unwrap();
    let all: Vec<&'static str> = pmugen_hdl::pmu::groups::ALL.iter().chain(&groups::ALL).copied().collect();
    let hardware = pmugen_hdl::rvfi::pmu_top::RvfiPmu::new(&design.pmu.params, handler64);
    let counts = analyse(&netlist, &top, &hardware.flip_flops(), &all, "").unwrap_or_else(|e| panic!("{top}: {e}"));
    assert_eq!(counts.group(groups::EVENTS), 2 * 14);
    assert_eq!(counts.group(groups::KERNEL) + counts.group(groups::HANDLER), 2 * 2);
    assert_eq!(counts.group(groups::BLOCK_END), 2 * (1 + 32));
    assert_eq!(counts.group(groups::BLOCK_START), 2 * (32 + 1));
}
