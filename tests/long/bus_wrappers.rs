//! The bus-wrapped designs (`generate --bus`, docs/bus.md) follow the rules of every
//! generated file: Verilator -Wall clean, accepted by yosys, every module named after
//! the wrapped top, and exactly the documented ports: the bare design's own ports
//! without `reg_*`, then the bus's. Here lint, yosys, names and ports of every wrapped
//! design, the PMU also behind its 32-bit slaves (`--bus-width 32`); `generate --bus`
//! from the command line is in tests/outputs/bus_wrappers.rs.

use pmugen::design::rvfi::{RvfiMonitorDesign, RvfiPmuDesign};
use pmugen::design::{self, bus, pmu::PmuDesign, Design};
use pmugen_hdl::bus::Bus;
use pmugen_hdl::emit::{module_names, module_ports};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::rvfi::params::{KernelRule, RvfiOptions, Xlen};
use pmugen_sim::tools::{verilator_lint, yosys_check};

/// The bus ports in the documented order: (name, input?, width) for a window of
/// `address` bits and `data`-bit bus words.
fn bus_ports(bus: Bus, address: usize, data: usize, privilege: bool) -> Vec<(String, bool, usize)> {
    let names: Vec<(&str, bool, usize)> = match bus.protocol() {
        Bus::Axi4Lite => vec![
            ("s_axil_awaddr", true, address),
            ("s_axil_awprot", true, 3),
            ("s_axil_awvalid", true, 1),
            ("s_axil_awready", false, 1),
            ("s_axil_wdata", true, data),
            ("s_axil_wstrb", true, data / 8),
            ("s_axil_wvalid", true, 1),
            ("s_axil_wready", false, 1),
            ("s_axil_bresp", false, 2),
            ("s_axil_bvalid", false, 1),
            ("s_axil_bready", true, 1),
            ("s_axil_araddr", true, address),
            ("s_axil_arprot", true, 3),
            ("s_axil_arvalid", true, 1),
            ("s_axil_arready", false, 1),
            ("s_axil_rdata", false, data),
            ("s_axil_rresp", false, 2),
            ("s_axil_rvalid", false, 1),
            ("s_axil_rready", true, 1),
        ],
        Bus::Wishbone => {
            let mut ports = vec![
                ("wb_cyc", true, 1),
                ("wb_stb", true, 1),
                ("wb_we", true, 1),
                ("wb_adr", true, address),
                ("wb_dat_w", true, data),
                ("wb_dat_r", false, data),
                ("wb_sel", true, data / 8),
                ("wb_ack", false, 1),
                ("wb_err", false, 1),
            ];
            if privilege {
                ports.push(("wb_priv", true, 1));
            }
            ports
        }
        _ => vec![],
    };
    names.into_iter().map(|(name, input, width)| (name.to_string(), input, width)).collect()
}

/// Check one wrapped design: the file as `generate` writes it, lint, yosys, names, ports.
fn check<I, O>(design: &dyn Design<I, O>, bus: Bus, address: usize, data: usize, privilege: bool) {
    let top = bus.top_name(&design.top_name());
    let files = bus::artifacts(design, bus).unwrap();
    assert_eq!(files[0].name, format!("{top}.v"));
    let verilog = &files[0].text;
    for module in module_names(verilog) {
        assert!(module.starts_with(&top), "module {module} does not start with {top}");
    }
    let bare = design.verilog().unwrap();
    let mut expected: Vec<_> =
        module_ports(&bare, &design.top_name()).unwrap().into_iter().filter(|p| !p.0.starts_with("reg_")).collect();
    expected.extend(bus_ports(bus, address, data, privilege));
    assert_eq!(module_ports(verilog, &top).unwrap(), expected, "{top}: ports");
    verilator_lint(verilog, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
    yosys_check(verilog, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
    println!("{top}: {} modules, lint and yosys clean", module_names(verilog).len());
}

#[test]
fn wrapped_monitors_lint_clean_with_the_documented_ports() {
    // The wrapper and its 10-bit window are the same for every N (the register map's
    // 8-bit word addresses pass through it); the bare N = 32 monitor is linted by
    // verilog_validity.
    for (events, order_width) in [(2, 2), (8, 3), (16, 4)] {
        let design = design::monitor(MonitorParams::new(events, order_width).unwrap());
        for bus in [Bus::Axi4Lite, Bus::Wishbone] {
            check(design.as_ref(), bus, 10, 32, false);
        }
    }
}

#[test]
fn wrapped_pmus_lint_clean_with_the_documented_ports() {
    for threads in 1..=4 {
        let design = PmuDesign::new(PmuParams::with_default_table(threads, 2, 24));
        for bus in [Bus::Axi4Lite, Bus::Wishbone] {
            check(&design, bus, 13, 64, true);
        }
    }
}

#[test]
fn wrapped_rvfi_tops_lint_clean_with_the_documented_ports() {
    let handler64 = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, ..RvfiOptions::default() };
    for (threads, options) in [(1, RvfiOptions::default()), (2, handler64)] {
        let params = PmuParams::new(threads, 2, 24, EventTable::riscv_table()).unwrap();
        let design = RvfiPmuDesign::new(params, options, "riscv.json").unwrap();
        for bus in [Bus::Axi4Lite, Bus::Wishbone] {
            check(&design, bus, 13, 64, true);
        }
    }
    let names = ["CALL", "RETURN", "BRANCH_TAKEN"].map(String::from);
    let design = RvfiMonitorDesign::new(MonitorParams::new(3, 2).unwrap(), handler64, &names).unwrap();
    for bus in [Bus::Axi4Lite, Bus::Wishbone] {
        check(&design, bus, 10, 32, false);
    }
}

#[test]
fn pmus_behind_32_bit_slaves_lint_clean_with_the_documented_ports() {
    // The default PMU, one thread with the widest counters and every counter, and the
    // most threads with the narrowest counters: 32-bit data, the same 13-bit window.
    let configurations = [(4, 2, 40), (1, 4, 64), (4, 1, 16)];
    for (threads, counters, counter_width) in configurations {
        let design = PmuDesign::new(PmuParams::with_default_table(threads, counters, counter_width));
        for bus in Bus::NARROW {
            check(&design, bus, 13, 32, true);
        }
    }
    // The PMU of the reference system: RVFI events, 32-bit Wishbone.
    let params = PmuParams::new(1, 4, 40, EventTable::riscv_table()).unwrap();
    let handler = RvfiOptions { kernel_rule: KernelRule::Handler, ..RvfiOptions::default() };
    let design = RvfiPmuDesign::new(params, handler, "riscv.json").unwrap();
    for bus in Bus::NARROW {
        check(&design, bus, 13, 32, true);
    }
}
