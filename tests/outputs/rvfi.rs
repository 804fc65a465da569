//! The `_rvfi` tops' files (`generate ... --rvfi`, docs/soc.md §1.5): their ports are the
//! bare design's minus what the adapter drives, plus the RVFI signals; they lint, pass
//! yosys, name every module after the top, and declare every flip-flop they have.
use crate::common::cli::scratch;
use crate::common::rvfi::{monitor, pmu};
use pmugen::design::pmu::PmuDesign;
use pmugen::design::{self, Design};
use pmugen_hdl::emit::{module_names, module_ports};
use pmugen_hdl::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};
use pmugen_sim::tools::{verilator_lint, yosys_check};

/// The RVFI ports of `harts` harts of `xlen`, in the top's order.
fn rvfi_ports(harts: usize, xlen: usize) -> Vec<(String, bool, usize)> {
    let widths = [1, 32, 1, 1, 2, xlen, xlen, xlen / 8, xlen / 8];
    let names = pmugen_sim::ports::rvfi::RVFI_PORTS;
    names.iter().zip(widths).map(|(name, width)| (name.to_string(), true, harts * width)).collect()
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
    assert!(top.starts_with(&format!("{}_rvfi", bare.0)), "{top}");
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
    let handler64 = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, ..RvfiOptions::default() };
    let serv = RvfiOptions::for_core(Core::Serv, Xlen::Rv32);
    let driven = ["events", "core_events", "kernel", "bb_end", "bb_addr"];
    for (threads, counters, options, xlen) in
        [(1, 4, RvfiOptions::default(), 32), (4, 2, handler64, 64), (2, 1, serv, 32)]
    {
        let design = pmu(threads, counters, options);
        let bare = PmuDesign::new(design.pmu.params.clone());
        check_ports_and_tools(&design, (&bare.top_name(), bare.verilog().unwrap()), &driven, threads, xlen);
    }
    let ibex64 = RvfiOptions::for_core(Core::Ibex, Xlen::Rv64);
    let design = monitor(4, "CALL,RETURN,CALL,BRANCH_TAKEN", ibex64);
    let bare = design::monitor(design.params);
    check_ports_and_tools(&design, (&bare.top_name(), bare.verilog().unwrap()), &["events"], 1, 64);
}

/// Every flip-flop of a synthesized `_rvfi` top belongs to a register its blocks
/// declare (`flip_flops()`, the resource report's groups), the adapter's in the
/// adapter's groups: T*(14 + 1 + 1 + AW) for its register stage, and SERV's reader flag.
#[test]
fn rvfi_tops_declare_every_flip_flop_of_their_netlist() {
    use pmugen::report::netlist::analyse;
    use pmugen_hdl::rvfi::groups;
    let handler64 = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, core: Core::Serv };
    let design = pmu(2, 1, handler64);
    let top = design.top_name();
    let dir = scratch("rvfi-netlist");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{top}.v")), design.verilog().unwrap()).unwrap();
    let script =
        include_str!("../../scripts/yosys/budget.ys").replace("{file}", &format!("{top}.v")).replace("{top}", &top);
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
    assert_eq!(counts.group(groups::READER), 2);
}

/// Every option that changes an `_rvfi` top's Verilog is in its name (docs/soc.md §1.5):
/// the PMUs of every core, both kernel rules and both XLENs, and monitors of other
/// events, have pairwise different module names, and two that differ only in their
/// kernel rule lint together in one file.
#[test]
fn rvfi_configurations_have_module_names_of_their_own() {
    let mut designs: Vec<(String, String)> = Vec::new();
    for core in Core::ALL {
        for kernel_rule in [KernelRule::Mode, KernelRule::Handler] {
            for xlen in [Xlen::Rv32, Xlen::Rv64] {
                let design = pmu(1, 1, RvfiOptions { xlen, kernel_rule, core });
                designs.push((design.top_name(), design.verilog().unwrap()));
            }
        }
    }
    for (names, core) in [("CALL,RETURN", Core::Generic), ("RETURN,CALL", Core::Generic), ("CALL,RETURN", Core::Serv)] {
        let design = monitor(2, names, RvfiOptions::for_core(core, Xlen::Rv32));
        designs.push((design.top_name(), design.verilog().unwrap()));
    }
    let mut seen = std::collections::BTreeMap::new();
    for (top, verilog) in &designs {
        for module in module_names(verilog) {
            assert!(
                seen.insert(module.clone(), top.clone()).is_none(),
                "module {module} of {top} is also {}'s",
                seen[&module]
            );
        }
    }
    assert_eq!(designs[0].0, "pmu_riscv_t1_k1_c40_rvfi");
    assert_eq!(designs[3].0, "pmu_riscv_t1_k1_c40_rvfi_handler_x64");
    assert_eq!(designs[designs.len() - 1].0, "event_order_monitor_n2_w3_rvfi_serv_e89");
    // Both in one file: a module defined twice would be an error.
    let both = format!("{}\n{}", designs[0].1, designs[2].1);
    yosys_check(&both, &designs[2].0).unwrap_or_else(|e| panic!("the two PMUs in one design: {e}"));
}
