//! What a first user ran into, each fixed and kept fixed: clear errors that name the
//! flag and the path, generated Verilog that drops into cocotb, Icarus, Tcl and
//! constraint files without escaping, and a `flow` that co-simulates by default and
//! checks its tools before writing anything. Here the first Verilator build (a model
//! compiled into a fresh cache every run); the rest is in tests/cli/frictions.rs.

use crate::common::cli::scratch;

/// The first build of a model says what it is doing and where the model goes; the
/// cache is `$PMUGEN_CACHE` (or the user's cache directory), never the source tree.
#[test]
fn a_first_verilator_build_says_what_it_is_doing() {
    let fresh = scratch("fresh-cache");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pmugen"))
        .args([
            "simulate",
            "monitor",
            "--events",
            "2",
            "--order-width",
            "2",
            "--cycles",
            "100",
            "--engine",
            "verilator",
        ])
        .env("PMUGEN_CACHE", &fresh)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}");
    let announced = format!(
        "building the Verilator model of event_order_monitor_n2_w2 (once; cached in {}",
        fresh.join("verilator").display()
    );
    assert!(text.contains(&announced), "{text}");
    let models = std::fs::read_dir(fresh.join("verilator")).expect("the model is in the cache").count();
    assert_eq!(models, 1, "one model in {}", fresh.display());
}
