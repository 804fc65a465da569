//! The PMU's budget (docs/pmu.md §8): exactly T*K*CW counter, T*K*31 event-select,
//! 64 TSC, T*K*CW shadow, T*K global-control and T*K overflow-status flip-flops;
//! every other flip-flop in a named group. Placed on the HX8K and the UP5K.
use anyhow::Result;
use serde_json::Value;

use super::ice40::{Device, HX8K, UP5K};
use super::netlist::{CoarseCounts, Groups};
use super::{BudgetLine, Subject};
use crate::design::pmu::PmuDesign;
use crate::design::{Artifact, Design};

/// The PMU's flip-flop groups, by the register nets of `hdl/src/pmu/`.
pub const GROUPS: Groups = &[
    ("counters__*.value_q", "general counters"),
    ("counters__*.shadow_q", "shadows"),
    ("counters__*.prev_condition_q", "previous condition"),
    ("selects__*.evtsel_q", "event selects"),
    ("selects__*.index_q", "decoded event select"),
    ("selects__*.known_q", "decoded event select"),
    ("tsc.count_q", "TSC"),
    ("controls__*.global_ctrl_q", "global control"),
    ("controls__*.status_q", "overflow status"),
    ("controls__*.spflt_ctrl_q", "SPFLT control"),
    ("controls__*.user_pref_q", "SPFLT control"),
    ("controls__*.freeze_q", "freeze control"),
    ("controls__*.user_access_q", "user access"),
    ("shadow_controls__*.save_on_entry_q", "shadow control"),
    ("shadow_controls__*.restore_on_exit_q", "shadow control"),
    ("shadow_controls__*.kernel_prev_q", "previous kernel mode"),
    ("inputs.*", "input stage (kernel)"),
    ("counters__*.qualified_q", "qualification"),
    ("samplers__*.count_q", "event samples"),
    ("port.rdata_q", "read data and fault"),
    ("port.fault_q", "read data and fault"),
    ("trace_control.ctrl_q", "trace control and PID"),
    ("trace_control.trace_pid_q", "trace control and PID"),
    ("trace_control.bb_end_q", "input stage (trace)"),
    ("trace_control.address_q", "input stage (trace)"),
    ("trace_control.pid_q", "input stage (trace)"),
    ("trace_control.last_pid_q", "last pid"),
    ("trace_control.has_last_q", "last pid"),
    ("trace_control.dropped_q", "dropped counter"),
    ("trace_queue.read_pointer_q", "queue pointers"),
    ("trace_queue.write_pointer_q", "queue pointers"),
    ("trace_queue.occupancy_q", "queue pointers"),
    ("trace_queue.word_q", "stream state"),
    ("trace_queue.first_q", "stream state"),
    ("trace_queue.first_from_bypass_q", "stream state"),
];

/// The trace unit's groups (its cost is reported apart, docs/pmu.md §8).
const TRACE_GROUPS: &[&str] =
    &["trace control and PID", "input stage (trace)", "last pid", "dropped counter", "queue pointers", "stream state"];

impl Subject for PmuDesign {
    fn top_name(&self) -> String {
        Design::top_name(self)
    }
    fn files(&self) -> Result<Vec<Artifact>, String> {
        self.artifacts()
    }
    fn parameters(&self) -> Vec<(&'static str, String)> {
        let p = &self.params;
        vec![
            ("T", p.threads.to_string()),
            ("K", p.counters.to_string()),
            ("CW", p.counter_width.to_string()),
            ("event table", format!("{} ({} events)", p.table.stem, p.table.events.len())),
        ]
    }
    fn budget_source(&self) -> &'static str {
        "docs/pmu.md §8"
    }
    fn groups(&self) -> Groups {
        GROUPS
    }
    fn budget(&self, _top: &str, counts: &CoarseCounts, _netlist: &Value) -> Result<Vec<BudgetLine>> {
        let p = &self.params;
        let (tk, cw) = (p.threads * p.counters, p.counter_width);
        Ok(vec![
            BudgetLine::new("general counters", "T*K*CW", tk * cw, counts.group("general counters")),
            BudgetLine::new("event selects", "T*K*31", tk * 31, counts.group("event selects")),
            BudgetLine::new("TSC", "64", 64, counts.group("TSC")),
            BudgetLine::new("shadows", "T*K*CW", tk * cw, counts.group("shadows")),
            BudgetLine::new("global control", "T*K", tk, counts.group("global control")),
            BudgetLine::new("overflow status", "T*K", tk, counts.group("overflow status")),
        ])
    }
    fn devices(&self) -> &'static [Device] {
        &[HX8K, UP5K]
    }
    fn notes(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<(String, usize)>> {
        let trace_flip_flops = TRACE_GROUPS.iter().map(|group| counts.group(group)).sum();
        // The queue's RAM: every memory cell of the coarse netlist (the read register is
        // part of the RAM's read port, `memory -nomap`).
        let ram_bits = netlist["modules"][top]["cells"]
            .as_object()
            .map(|cells| {
                cells
                    .values()
                    .filter(|cell| cell["type"].as_str().is_some_and(|t| t.starts_with("$mem")))
                    .map(|cell| parameter(&cell["parameters"]["WIDTH"]) * parameter(&cell["parameters"]["SIZE"]))
                    .sum()
            })
            .unwrap_or(0);
        Ok(vec![
            ("trace unit flip-flops (the trace groups below)".to_string(), trace_flip_flops),
            (
                format!(
                    "trace queue RAM bits (D = {} records of {} bits)",
                    self.params.trace_depth,
                    self.record_bits()
                ),
                ram_bits,
            ),
        ])
    }
    fn parts(&self) -> Vec<(String, String)> {
        let top = Design::top_name(self);
        ["trace_control", "trace_record", "trace_queue"]
            .iter()
            .map(|part| (part.replace('_', " "), format!("{top}__{part}")))
            .collect()
    }
}

/// A yosys JSON parameter (a binary string or a number).
fn parameter(value: &Value) -> usize {
    match value {
        Value::String(bits) => usize::from_str_radix(bits, 2).unwrap_or(0),
        Value::Number(number) => number.as_u64().unwrap_or(0) as usize,
        _ => 0,
    }
}
