//! The monitor's budget (docs/monitor.md §7): context record N*(N-1) and order
//! register W*N flip-flops, N*(N-1)/2 order comparators and pair multiplexers.
use anyhow::Result;
use serde_json::Value;

use pmugen_hdl::params::{Matcher, MonitorParams, SerialOutput};

use super::netlist::{self, CoarseCounts};
use super::{BudgetLine, Subject};
use crate::design::{self, Artifact};
use pmugen_hdl::flip_flops::FlipFlops;
use pmugen_hdl::monitor::groups;
use pmugen_hdl::monitor::top::EventOrderMonitor;

impl Subject for MonitorParams {
    fn top_name(&self) -> String {
        MonitorParams::top_name(self)
    }
    fn model(&self) -> pmugen_hdl::model::DesignModel {
        crate::design::monitor(*self).model()
    }
    fn files(&self) -> Result<Vec<Artifact>, String> {
        design::monitor(*self).artifacts()
    }
    fn parameters(&self) -> Vec<(&'static str, String)> {
        let serial = match self.options.serial {
            SerialOutput::Frame => "frame",
            SerialOutput::Absent => "none (--no-serial)",
        };
        vec![
            ("N", self.events.to_string()),
            ("W", self.order_width.to_string()),
            ("matcher", self.options.matcher.flag_value().to_string()),
            ("serial", serial.to_string()),
        ]
    }
    fn budget_source(&self) -> &'static str {
        "docs/monitor.md §7"
    }
    fn flip_flops(&self) -> Vec<FlipFlops> {
        EventOrderMonitor::new(*self).flip_flops()
    }
    fn groups(&self) -> &'static [&'static str] {
        &groups::ALL
    }
    fn budget(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<BudgetLine>> {
        let (n, w) = (self.events, self.order_width);
        let counted = netlist::pair_select(netlist, top, counts, groups::ORDER_REGISTER)?;
        let mut lines = vec![
            BudgetLine::new("context record flip-flops", "N*(N-1)", n * (n - 1), counts.group(groups::CONTEXT_RECORD)),
            BudgetLine::new("order register flip-flops", "W*N", w * n, counts.group(groups::ORDER_REGISTER)),
        ];
        lines.extend(match self.options.matcher {
            Matcher::Patent => vec![
                BudgetLine::new("order comparators", "N*(N-1)/2", n * (n - 1) / 2, counted.pair_comparators),
                BudgetLine::new("pair multiplexers", "N*(N-1)/2", n * (n - 1) / 2, counted.pair_muxes),
            ],
            Matcher::Compact => vec![
                BudgetLine::new(
                    "order comparators (written value against each field)",
                    "2*N",
                    2 * n,
                    counted.write_comparators,
                ),
                BudgetLine::new(
                    "order requirement flip-flops",
                    "N*(N-1)",
                    n * (n - 1),
                    counts.group(groups::ORDER_REQUIREMENTS),
                ),
                BudgetLine::new("pair comparators", "none", 0, counted.pair_comparators),
                BudgetLine::new("pair multiplexers", "none", 0, counted.pair_muxes),
            ],
        });
        Ok(lines)
    }
    fn statements(&self) -> Vec<String> {
        let matcher = match self.options.matcher {
            Matcher::Patent => "Patent matcher: every item of the budget is kept; each pair's three-way comparator \
                (a first, b first; neither when an order is 0 or the orders tie) reads ORDER's next value and its \
                outputs are registered (group \"registered pair select\", N*(N-1) flip-flops, loaded at ORDER \
                writes), so no comparator is on the match path."
                .to_string(),
            Matcher::Compact => "Compact matcher (`--matcher compact`): keeps the context record (N*(N-1) flip-flops) \
                and the order register (W*N flip-flops). It does not keep the N*(N-1)/2 order comparators and \
                N*(N-1)/2 pair multiplexers: 2*N comparators of the written value fill N*(N-1) order requirement \
                flip-flops at each ORDER write instead."
                .to_string(),
        };
        let mut statements = vec![matcher];
        if self.options.serial == SerialOutput::Absent {
            statements.push(
                "Built without the serial frame (`--no-serial`): no serial shifter flip-flops; ser_* are 0."
                    .to_string(),
            );
        }
        statements
    }
    fn seeds(&self) -> &'static [u64] {
        &[1, 2, 3]
    }
}
