//! Counting rules: a counter's next value and its overflow (docs/pmu.md §7.2), the
//! shadow register (§10), the status bits against their clear (§7.4), `pmi` (§4.8),
//! when control writes take effect (§7.1), the TSC (§7.3) and the kernel-mode
//! transitions that save and restore (§10).
use crate::formal::{implies, ModuleProperties, Property};
use crate::pmu::params::PmuParams;

/// One general counter (`counters__<n>`): the precedence of write, trace restart,
/// restore and count, the overflow's source, and the shadow register.
pub(super) fn counter(params: &PmuParams) -> ModuleProperties {
    let (cw, iw) = (params.counter_width, params.count_width());
    let wdata = format!("wdata[{}:0]", cw - 1);
    let f_sum = format!("wire [{cw}:0] f_sum = {{1'b0, (restore ? shadow : value)}} + {{{}'h0, inc}};", cw + 1 - iw);
    let properties = vec![
        Property::always(
            "overflow_source",
            "docs/pmu.md §7.2: without a write the overflow comes from SHADOW + inc on a restore, else counter + inc, whether or not a trace restart stores 0; a write cannot overflow",
            format!("overflow == (f_sum[{cw}] & ~write)"),
        ),
        Property::after_edge(
            "write_wins",
            "docs/pmu.md §7.2: a write to PERF_CNTR sets the written value; the increment of that cycle is dropped",
            implies("$past(write)", &format!("value == $past({wdata})")),
        ),
        Property::after_edge(
            "restart_stores_zero",
            "docs/pmu.md §7.2 and §13.2: without a write, a trace restart stores 0",
            implies("$past(!write && restart)", &format!("value == {cw}'h0")),
        ),
        Property::after_edge(
            "restore_takes_shadow_plus_inc",
            "docs/pmu.md §10: on a kernel exit with RESTORE_ON_EXIT the counter takes SHADOW + inc, SHADOW as it was during the cycle",
            implies("$past(!write && !restart && restore)", "value == $past(shadow) + $past(inc)"),
        ),
        Property::after_edge(
            "counts_increment",
            "docs/pmu.md §4.6: otherwise the counter takes (counter + inc) mod 2^CW",
            implies("$past(!write && !restart && !restore)", "value == $past(value) + $past(inc)"),
        ),
        Property::after_edge(
            "shadow_write_wins",
            "docs/pmu.md §7.2 and §10: a SHADOW write at the edge of a save wins",
            implies("$past(shadow_write)", &format!("shadow == $past({wdata})")),
        ),
        Property::after_edge(
            "save_takes_counter",
            "docs/pmu.md §10: on a kernel entry with SAVE_ON_ENTRY, SHADOW takes the counter as it was during the cycle",
            implies("$past(!shadow_write && save)", "shadow == $past(value)"),
        ),
        Property::after_edge(
            "shadow_holds",
            "docs/pmu.md §10: SHADOW changes only by a write or a save",
            implies("$past(!shadow_write && !save)", "shadow == $past(shadow)"),
        ),
        Property::always(
            "edge_counts_once",
            "docs/pmu.md §4.5: with E = 1 a counter counts at most 1, and only on a deasserted-to-asserted transition",
            implies("evtsel[18]", "inc <= 1 && (inc == 0 || !prev_condition_q)"),
        ),
        Property::cover(
            "restore_overflows",
            "docs/pmu.md §7.2: an overflow from SHADOW + inc at a restore is reachable",
            "$past(restore && !write && overflow)",
        ),
        Property::cover(
            "restore_meets_shadow_write",
            "docs/pmu.md §7.2: a restore at the edge of a SHADOW write is reachable",
            "$past(restore && shadow_write && !write && !restart)",
        ),
    ];
    ModuleProperties { declarations: vec![f_sum], properties }
}

/// One thread's global control (`controls__<t>`): status against its clear, `pmi`,
/// and the control registers' writes.
pub(super) fn controls(params: &PmuParams) -> ModuleProperties {
    let k = params.counters;
    let bits = format!("wdata[{}:0]", k - 1);
    let properties = vec![
        Property::after_edge(
            "overflow_beats_clear",
            "docs/pmu.md §7.4: a status bit whose counter overflows at the edge of its clear stays set (no overflow is lost)",
            "($past(overflow) & ~status) == 0",
        ),
        Property::after_edge(
            "clear_clears",
            "docs/pmu.md §7.4: PERF_GLOBAL_OVF_CTRL clears the status bits written as 1",
            implies("$past(ovf_ctrl_write)", &format!("(status & $past({bits} & ~overflow)) == 0")),
        ),
        Property::after_edge(
            "status_sticky",
            "docs/pmu.md §4.6: a status bit stays set until software clears it",
            format!("($past(status) & ~status & ~$past(ovf_ctrl_write ? {bits} : {k}'h0)) == 0"),
        ),
        Property::after_edge(
            "status_set_by_overflow",
            "docs/pmu.md §4.6: a status bit is set only by its counter's overflow",
            "(status & ~$past(status) & ~$past(overflow)) == 0",
        ),
        Property::always("pmi_level", "docs/pmu.md §4.8: pmi = OR over counters of (status AND EVTSEL.INT)", "pmi == |(status & int_enable)"),
        Property::after_edge(
            "global_ctrl_write",
            "docs/pmu.md §7.1: PERF_GLOBAL_CTRL changes only by a write and takes it from the next cycle",
            format!("global_ctrl == ($past(global_ctrl_write) ? $past({bits}) : $past(global_ctrl))"),
        ),
        Property::after_edge(
            "user_access_write",
            "docs/pmu.md §7.1: USER_ACCESS changes only by a write and takes it from the next cycle",
            "user_access == ($past(user_access_write) ? $past(wdata[2:0]) : $past(user_access))",
        ),
        Property::cover(
            "overflow_at_clear",
            "docs/pmu.md §7.4: an overflow at the edge of its clear is reachable",
            format!("$past(ovf_ctrl_write && |({bits} & overflow))"),
        ),
    ];
    ModuleProperties { declarations: vec![], properties }
}

/// One counter's event select (`selects__<n>`).
pub(super) fn select() -> ModuleProperties {
    let properties = vec![Property::after_edge(
        "evtsel_write",
        "docs/pmu.md §7.1 and §6.1: a PERF_EVTSEL write takes effect from the next cycle (bit 19 is reserved and reads 0); nothing else changes it",
        "evtsel == ($past(write) ? ($past(wdata[31:0]) & 32'hfff7ffff) : $past(evtsel))",
    )];
    ModuleProperties { declarations: vec![], properties }
}

/// One thread's shadow control (`shadow_controls__<t>`): saves on kernel entries,
/// restores on exits (the kernel bit as the counters see it).
pub(super) fn shadow_control(params: &PmuParams) -> ModuleProperties {
    let k = params.counters;
    let declarations = vec![
        "reg f_kernel_prev;".to_string(),
        "initial f_kernel_prev = 1'b0;".to_string(),
        "always @(posedge clock) f_kernel_prev <= reset ? 1'b0 : kernel;".to_string(),
    ];
    let properties = vec![
        Property::always(
            "save_on_entry",
            "docs/pmu.md §10: a save happens exactly on a kernel entry (kernel 1 after 0) of a counter with SAVE_ON_ENTRY",
            format!("save == (save_on_entry & {{{k}{{kernel & ~f_kernel_prev}}}})"),
        ),
        Property::always(
            "restore_on_exit",
            "docs/pmu.md §10: a restore happens exactly on a kernel exit (kernel 0 after 1) of a counter with RESTORE_ON_EXIT",
            format!("restore == (restore_on_exit & {{{k}{{~kernel & f_kernel_prev}}}})"),
        ),
    ];
    ModuleProperties { declarations, properties }
}

/// The time-stamp counter (`tsc`).
pub(super) fn tsc() -> ModuleProperties {
    let properties = vec![Property::after_edge(
        "write_else_increment",
        "docs/pmu.md §7.3: the TSC takes a write's value, else TSC + 1 (mod 2^64), whatever PERF_GLOBAL_CTRL says",
        "value == ($past(write) ? $past(wdata) : $past(value) + 64'h1)",
    )];
    ModuleProperties { declarations: vec![], properties }
}
