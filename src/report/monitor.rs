//! The monitor's budget (docs/monitor.md §7): context record N*(N-1) and order
//! register W*N flip-flops, N*(N-1)/2 order comparators and pair multiplexers.
use anyhow::Result;
use serde_json::Value;

use pmugen_hdl::params::MonitorParams;

use super::ice40::{Device, HX8K};
use super::netlist::{self, CoarseCounts, Groups};
use super::{BudgetLine, Subject};
use crate::design::{self, Artifact};

/// The monitor's flip-flop groups.
pub const GROUPS: Groups = &[
    ("event_edges.*", "edge-detector history"),
    ("trigger.start_edges.*", "edge-detector history"),
    ("trigger.stop_edges.*", "edge-detector history"),
    ("event_register.*", "event register"),
    ("record.*", "context record"),
    ("order.*", "order register"),
    ("counter.count_reg*", "match counter"),
    ("counter.wrapped*", "match counter"),
    ("counter.match_flag*", "window and match flags"),
    ("trigger.state*", "window and match flags"),
    ("port.ctrl_q", "control"),
    ("port.rdata_q", "read-data register"),
    ("serial.*", "serial shifter"),
];

impl Subject for MonitorParams {
    fn top_name(&self) -> String {
        MonitorParams::top_name(self)
    }
    fn files(&self) -> Result<Vec<Artifact>, String> {
        design::monitor(*self).artifacts()
    }
    fn parameters(&self) -> Vec<(&'static str, String)> {
        vec![("N", self.events.to_string()), ("W", self.order_width.to_string())]
    }
    fn budget_source(&self) -> &'static str {
        "docs/monitor.md §7"
    }
    fn groups(&self) -> Groups {
        GROUPS
    }
    fn budget(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<BudgetLine>> {
        let (n, w) = (self.events, self.order_width);
        let (comparators, pair_muxes, _) = netlist::pair_select(netlist, top, counts, "order register")?;
        Ok(vec![
            BudgetLine::new("context record flip-flops", "N*(N-1)", n * (n - 1), counts.group("context record")),
            BudgetLine::new("order register flip-flops", "W*N", w * n, counts.group("order register")),
            BudgetLine::new("order comparators", "N*(N-1)/2", n * (n - 1) / 2, comparators),
            BudgetLine::new("pair multiplexers", "N*(N-1)/2", n * (n - 1) / 2, pair_muxes),
        ])
    }
    fn notes(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<(String, usize)>> {
        let (_, _, tie_tests) = netlist::pair_select(netlist, top, counts, "order register")?;
        Ok(vec![("Tie tests (`order[a] != order[b]`, part of the pair select)".to_string(), tie_tests)])
    }
    fn devices(&self) -> &'static [Device] {
        &[HX8K]
    }
}
