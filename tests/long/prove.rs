//! `pmugen prove` (docs/formal.md): full proofs of the small configurations, a
//! bounded run of the defaults, and single bugs planted in copies of the generated
//! Verilog, each of which a named property must catch.
use crate::common::cli::{pmugen, scratch};

const T1K1: &[&str] = &["pmu", "--threads", "1", "--counters", "1", "--trace-depth", "2"];
const T2K2: &[&str] = &["pmu", "--threads", "2", "--counters", "2", "--trace-depth", "2"];

fn prove(design: &[&str], extra: &[&str], out: &str) -> (bool, String) {
    let dir = scratch(out);
    let mut args = vec!["prove"];
    args.extend_from_slice(design);
    args.extend_from_slice(extra);
    let dir = dir.to_string_lossy().into_owned();
    args.extend_from_slice(&["--out", &dir]);
    pmugen(&args)
}

/// Every property row of a report says `verdict`, and there are `at_least` of them.
fn all_rows(text: &str, verdict: &str, at_least: usize) {
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| instance")).collect();
    assert!(rows.len() >= at_least, "{} property rows, expected at least {at_least}:\n{text}", rows.len());
    for row in rows {
        assert!(row.contains(verdict), "not {verdict}: {row}\n{text}");
    }
}

#[test]
fn the_small_pmus_are_proved_by_induction() {
    for (design, at_least, out) in [(T1K1, 39, "prove_t1k1"), (T2K2, 78, "prove_t2k2")] {
        let (ok, text) = prove(design, &["--mode", "prove"], out);
        assert!(ok, "{text}");
        all_rows(&text, "| proved (k-induction) |", at_least);
    }
}

#[test]
fn the_narrowed_pmu_is_proved_and_its_corners_are_reached() {
    let (ok, text) = prove(T1K1, &["--narrow", "8", "--mode", "prove"], "prove_t1k1_narrow");
    assert!(ok && text.contains("pmu_knc_t1_k1_c8_d2_a32"), "{text}");
    all_rows(&text, "| proved (k-induction) |", 39);
    let (ok, text) = prove(T1K1, &["--narrow", "8", "--mode", "cover", "--depth", "12"], "prove_t1k1_cover");
    assert!(ok, "{text}");
    all_rows(&text, "| reached at step ", 7);
}

#[test]
fn the_small_monitors_are_proved_by_induction() {
    for events in ["3", "4"] {
        let (ok, text) =
            prove(&["monitor", "--events", events, "--order-width", "3"], &[], &format!("prove_n{events}"));
        assert!(ok, "{text}");
        all_rows(&text, "| proved (k-induction) |", 17);
    }
}

#[test]
fn the_rvfi_adapter_is_proved_with_both_kernel_rules() {
    for kernel in ["mode", "handler"] {
        let design = ["pmu", "--threads", "2", "--counters", "1", "--rvfi", "--kernel", kernel, "--trace-depth", "2"];
        let (ok, text) = prove(&design, &[], &format!("prove_rvfi_{kernel}"));
        assert!(ok, "{text}");
        all_rows(&text, "| proved (k-induction) |", 70);
        assert!(text.contains("| adapter.trackers__1 | block_rule | proved"), "{text}");
    }
    let monitor =
        ["monitor", "--events", "3", "--order-width", "2", "--rvfi", "--rvfi-events", "INSTRET,BRANCH_TAKEN,CALL"];
    let (ok, text) = prove(&monitor, &[], "prove_rvfi_monitor");
    assert!(ok, "{text}");
    all_rows(&text, "| proved (k-induction) |", 23);
    assert!(text.contains("| monitor | match_by_the_order_rules | proved"), "{text}");
}

#[test]
fn the_default_monitor_is_proved_and_the_default_pmu_passes_a_bounded_check() {
    let (ok, text) = prove(&["monitor"], &[], "prove_monitor_default");
    assert!(ok, "{text}");
    all_rows(&text, "| proved (k-induction) |", 17);
    let (ok, text) = prove(&["pmu"], &["--mode", "bmc", "--depth", "3"], "prove_pmu_default");
    assert!(ok, "{text}");
    all_rows(&text, "| passed to depth 3 |", 136);
}

/// The profile table's properties hold through its clearing and while records pass
/// (deeper counterexamples are the lockstep's, docs/formal.md §4).
#[test]
fn the_pmu_with_a_profile_table_passes_a_bounded_check() {
    let design = ["pmu", "--threads", "1", "--counters", "1", "--trace-depth", "2", "--profile-entries", "16"];
    let (ok, text) = prove(&design, &["--mode", "bmc", "--depth", "12"], "prove_profile");
    assert!(ok, "{text}");
    all_rows(&text, "| passed to depth 12 |", 47);
    assert!(text.contains("| profile | records_counted_once | passed"), "{text}");
}

/// One planted bug: where (a line of the generated Verilog, changed), and the
/// property that must catch it.
struct Bug {
    design: &'static [&'static str],
    top: &'static str,
    from: &'static str,
    to: &'static str,
    caught_by: &'static str,
}

const MONITOR3: &[&str] = &["monitor", "--events", "3", "--order-width", "2"];
const RVFI_HANDLER: &[&str] =
    &["pmu", "--threads", "1", "--counters", "1", "--rvfi", "--kernel", "handler", "--trace-depth", "2"];

const BUGS: &[Bug] = &[
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "status_q <= (status_q & ~cleared) | overflow;",
        to: "status_q <= (status_q | overflow) & ~cleared;",
        caught_by: "| controls__0 | overflow_beats_clear | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "value_q <= write ? wdata : (restart ? 40'h0 : sum[39:0]);",
        to: "value_q <= restart ? 40'h0 : (write ? wdata : sum[39:0]);",
        caught_by: "| counters__0 | write_wins | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "shadow_q <= shadow_write ? wdata : (save ? value_q : shadow_q);",
        to: "shadow_q <= save ? value_q : (shadow_write ? wdata : shadow_q);",
        caught_by: "| counters__0 | shadow_write_wins | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "overflow = sum[40] & ~write;",
        to: "overflow = sum[40];",
        caught_by: "| counters__0 | overflow_source | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "strobes__tsc = {(write & privileged & (addr == 8'h10) & (thread < 2'd1))};",
        to: "strobes__tsc = {(write & (addr == 8'h10) & (thread < 2'd1))};",
        caught_by: "| port | denied_write_strobes_nothing | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "if (dropped_write) dropped_q <= {31'h0, drop};",
        to: "if (dropped_write) dropped_q <= 32'h0;",
        caught_by: "| trace_control | dropped_write_then_drop | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "wire full = after_leave == 2'h2;",
        to: "wire full = occupancy_q == 2'h2;",
        caught_by: "| trace_queue | drop_only_when_full | FAILED",
    },
    Bug {
        design: T1K1,
        top: "pmu_knc_t1_k1_c40_d2_a32",
        from: "has_last_q <= ~ctrl_write & (has_last_q | block_end);",
        to: "has_last_q <= has_last_q | block_end;",
        caught_by: "| trace_control | ctrl_write_forgets_last_block | FAILED",
    },
    Bug {
        design: MONITOR3,
        top: "event_order_monitor_n3_w2",
        from: "if (match_now & (auto_rearm | ~match_flag__q) & window) begin",
        to: "if (match_now & (auto_rearm | ~match_flag__q)) begin",
        caught_by: "| counter | counted_match | FAILED",
    },
    Bug {
        design: MONITOR3,
        top: "event_order_monitor_n3_w2",
        from: "wire flag_1_0 = stored__0[1] | (recording[0] & seen[1]);",
        to: "wire flag_1_0 = stored__0[1];",
        caught_by: "| (top) | match_by_the_order_rules | FAILED",
    },
    Bug {
        design: RVFI_HANDLER,
        top: "pmu_riscv_t1_k1_c40_d2_a32_rvfi_handler",
        from: "wire handler_d = valid ? retirement_kernel & ~handler_return : handler_q;",
        to: "wire handler_d = valid ? retirement_kernel : handler_q;",
        caught_by: "| adapter.kernels__0 | handler_flag | FAILED",
    },
    Bug {
        design: RVFI_HANDLER,
        top: "pmu_riscv_t1_k1_c40_d2_a32_rvfi_handler",
        from: "wire user = valid & ~kernel;",
        to: "wire user = valid;",
        caught_by: "| adapter.trackers__0 | block_rule | FAILED",
    },
];

#[test]
fn every_planted_bug_is_caught_by_its_property() {
    let dir = scratch("prove_planted");
    std::fs::create_dir_all(&dir).unwrap();
    for (index, bug) in BUGS.iter().enumerate() {
        let out = dir.join(format!("bug{index}"));
        let mut args = vec!["generate"];
        args.extend_from_slice(bug.design);
        let out_text = out.to_string_lossy().into_owned();
        args.extend_from_slice(&["--out", &out_text]);
        let (ok, text) = pmugen(&args);
        assert!(ok, "{text}");
        let file = out.join(format!("{}.v", bug.top));
        let verilog = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            verilog.matches(bug.from).count(),
            1,
            "bug {index}: `{}` is not once in {}",
            bug.from,
            file.display()
        );
        let planted = out.join("planted.v");
        std::fs::write(&planted, verilog.replace(bug.from, bug.to)).unwrap();
        let planted = planted.to_string_lossy().into_owned();
        // Every bug here fails its property by step 6; depth 8 leaves room and stops the
        // solver before the steps that only the other properties would use.
        let (ok, text) = prove(
            bug.design,
            &["--mode", "bmc", "--depth", "8", "--verilog", &planted],
            &format!("prove_planted/run{index}"),
        );
        assert!(!ok, "bug {index} ({} -> {}) was not caught:\n{text}", bug.from, bug.to);
        assert!(text.contains(bug.caught_by), "bug {index}: expected `{}`:\n{text}", bug.caught_by);
        assert!(text.contains("Cycle by cycle") && text.contains("step   1:"), "bug {index}: no story:\n{text}");
    }
}
