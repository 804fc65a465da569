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
    ("counters$*.value_q", "general counters"),
    ("counters$*.shadow_q", "shadows"),
    ("counters$*.prev_condition_q", "previous condition"),
    ("selects$*.evtsel_q", "event selects"),
    ("selects$*.index_q", "decoded event select"),
    ("selects$*.known_q", "decoded event select"),
    ("tsc.count_q", "TSC"),
    ("controls$*.global_ctrl_q", "global control"),
    ("controls$*.status_q", "overflow status"),
    ("controls$*.spflt_ctrl_q", "SPFLT control"),
    ("controls$*.user_pref_q", "SPFLT control"),
    ("controls$*.freeze_q", "freeze control"),
    ("controls$*.user_access_q", "user access"),
    ("shadow_controls$*.save_on_entry_q", "shadow control"),
    ("shadow_controls$*.restore_on_exit_q", "shadow control"),
    ("shadow_controls$*.kernel_prev_q", "previous kernel mode"),
    ("inputs.*", "input stage (kernel)"),
    ("counters$*.qualified_q", "qualification"),
    ("samplers$*.count_q", "event samples"),
    ("port.rdata_q", "read data and fault"),
    ("port.fault_q", "read data and fault"),
];

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
    fn budget(&self, counts: &CoarseCounts, _netlist: &Value) -> Result<Vec<BudgetLine>> {
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
}
