//! The FuseSoC core written next to each generated design (`<top>.core`) works with
//! FuseSoC itself: the default designs' `lint` (Verilator) and `sim` (Icarus, the
//! generated smoke test bench reads the identification register) targets pass, and
//! so does the monitor's `synth` target (yosys synth_ice40). The same holds for the
//! default designs behind each bus (`generate --bus`), whose test bench reads over it,
//! and for the default PMU behind its 32-bit slaves, whose test bench reads the
//! identification register as its two words.

use crate::common::cli::{pmugen, scratch, venv};
use std::path::Path;
use std::process::Command;

fn run(dir: &Path, target: &str, core: &str) -> String {
    let output = Command::new(venv("fusesoc"))
        .args(["--cores-root", ".", "run", "--target", target, core])
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "fusesoc run --target {target} {core} failed:\n{text}");
    text
}

#[test]
fn the_bus_wrapped_default_designs_cores_lint_and_simulate_with_fusesoc() {
    for (design, top) in [("monitor", "event_order_monitor_n8_w3"), ("pmu", "pmu_knc_t4_k2_c40")] {
        let dir = scratch(&format!("fusesoc-bus-{design}"));
        for (bus, suffix) in [("axi4lite", "_axil"), ("wishbone", "_wb")] {
            let (ok, text) = pmugen(&["generate", design, "--bus", bus, "--out", &dir.to_string_lossy()]);
            assert!(ok, "{text}");
            let top = format!("{top}{suffix}");
            let core = format!("pmugen:{design}:{top}");
            run(&dir, "lint", &core);
            // The smoke test bench reads the identification register over the bus.
            let text = run(&dir, "sim", &core);
            assert!(text.contains(&format!("PASS: {top} identifies itself as")), "{text}");
        }
    }
}

#[test]
fn the_32_bit_pmu_cores_lint_and_simulate_with_fusesoc() {
    let dir = scratch("fusesoc-bus32-pmu");
    for (bus, suffix) in [("axi4lite", "_axil32"), ("wishbone", "_wb32")] {
        let args = ["generate", "pmu", "--bus", bus, "--bus-width", "32", "--out", &dir.to_string_lossy()];
        let (ok, text) = pmugen(&args);
        assert!(ok, "{text}");
        let top = format!("pmu_knc_t4_k2_c40{suffix}");
        let core = format!("pmugen:pmu:{top}");
        run(&dir, "lint", &core);
        // +0 then +4: the high word, magic 0x504D at its top, is the last word read.
        let text = run(&dir, "sim", &core);
        assert!(text.contains(&format!("PASS: {top} identifies itself as 504d")), "{text}");
    }
}

#[test]
fn the_default_designs_cores_lint_simulate_and_synthesize_with_fusesoc() {
    for (design, top, targets) in [
        ("monitor", "event_order_monitor_n8_w3", &["lint", "sim", "synth"][..]),
        ("pmu", "pmu_knc_t4_k2_c40", &["lint", "sim"][..]),
    ] {
        let dir = scratch(&format!("fusesoc-{design}"));
        let (ok, text) = pmugen(&["generate", design, "--out", &dir.to_string_lossy()]);
        assert!(ok, "{text}");
        let core = format!("pmugen:{design}:{top}");
        for target in targets {
            let text = run(&dir, target, &core);
            if *target == "sim" {
                assert!(text.contains(&format!("PASS: {top} identifies itself as")), "{text}");
            }
        }
    }
}
