//! The bus-wrapped designs (`generate --bus`, docs/bus.md) follow the rules of every
//! generated file: Verilator -Wall clean, accepted by yosys, every module named after
//! the wrapped top, and exactly the documented ports: the bare design's own ports
//! without `reg_*`, then the bus's. Here `generate --bus` from the command line; lint,
//! yosys, names and ports of every wrapped design are in tests/long/bus_wrappers.rs.

use crate::common::cli::{pmugen, scratch};

#[test]
fn an_unknown_bus_is_refused_naming_the_flag_and_the_choices_and_nothing_is_written() {
    let out = scratch("bus-unknown");
    for command in [&["generate", "monitor"][..], &["generate", "pmu"], &["report", "monitor"], &["report", "pmu"]] {
        let mut args = command.to_vec();
        args.extend(["--bus", "axi3", "--out", out.to_str().unwrap()]);
        let (ok, text) = pmugen(&args);
        assert!(!ok, "{args:?} accepted --bus axi3");
        for needle in ["--bus", "'axi3'", "none", "axi4lite", "wishbone"] {
            assert!(text.contains(needle), "{args:?}: the error does not name {needle}:\n{text}");
        }
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

#[test]
fn generate_with_a_bus_writes_the_wrapped_files_and_says_which() {
    let out = scratch("bus-files");
    let (ok, text) = pmugen(&["generate", "monitor", "--bus", "wishbone", "--out", out.to_str().unwrap()]);
    assert!(ok, "{text}");
    let top = "event_order_monitor_n8_w3_wb";
    for suffix in [".v", ".core", ".rdl", ".xml", "_regs.h", "_regs.md", "_driver.h"] {
        let name = format!("{top}{suffix}");
        assert!(out.join(&name).exists(), "{name} was not written");
        assert!(text.contains(&name), "the summary does not name {name}: {text}");
    }
    // Only the wrapped design's files: the bare top's Verilog is not among them.
    assert!(!out.join("event_order_monitor_n8_w3.v").exists());
}

#[test]
fn generate_with_a_32_bit_bus_writes_the_pmus_wrapped_files() {
    let out = scratch("bus32-files");
    let args = ["generate", "pmu", "--bus", "axi4lite", "--bus-width", "32", "--out", out.to_str().unwrap()];
    let (ok, text) = pmugen(&args);
    assert!(ok, "{text}");
    let top = "pmu_knc_t4_k2_c40_axil32";
    for suffix in [".v", ".core", ".rdl", ".xml", "_regs.h", "_regs.md"] {
        let name = format!("{top}{suffix}");
        assert!(out.join(&name).exists(), "{name} was not written");
        assert!(text.contains(&name), "the summary does not name {name}: {text}");
    }
    for bare in ["_events.json", "_inputs.json", "_inputs.md", "_design.json"] {
        assert!(out.join(format!("pmu_knc_t4_k2_c40{bare}")).exists(), "{bare} was not written");
    }
    assert!(!out.join("pmu_knc_t4_k2_c40_axil.v").exists());
}
