//! The `pmugen` binary: bad input gets a clear error, a non-zero exit, and writes nothing.
//! Here the commands that build Verilator models of several sizes (`bench`, `simulate
//! --engine all`); the rest is in tests/cli/cli.rs.

use crate::common::cli::pmugen;

#[test]
fn bench_reports_both_engines_for_four_sizes() {
    let (ok, text) = pmugen(&["bench", "monitor", "--cycles", "3000"]);
    assert!(ok, "{text}");
    assert!(text.contains("| N | W | native (rust-hdl) | Verilator | Verilator / native |"), "{text}");
    for row in ["| 4 | 3 |", "| 8 | 3 |", "| 16 | 4 |", "| 32 | 5 |"] {
        assert!(text.contains(row), "{row} missing:\n{text}");
    }
    assert!(text.contains("cores"), "{text}");
}

#[test]
fn simulate_and_bench_take_the_pmu() {
    let (ok, text) =
        pmugen(&["simulate", "pmu", "--threads", "2", "--counters", "1", "--cycles", "3000", "--engine", "all"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("simulate pmu_knc_t2_k1_c40: 3000 cycles, seed 1, engines reference + native + verilator"),
        "{text}"
    );
    assert!(text.contains("mismatches:      0") && text.contains("reg_rdata"), "{text}");
    let (ok, text) = pmugen(&["bench", "pmu", "--cycles", "2000"]);
    assert!(ok, "{text}");
    assert!(text.contains("| T | K | CW | native (rust-hdl) | Verilator | Verilator / native |"), "{text}");
    for row in ["| 1 | 2 | 40 |", "| 4 | 2 | 40 |", "| 4 | 4 | 64 |"] {
        assert!(text.contains(row), "{row} missing:\n{text}");
    }
}
