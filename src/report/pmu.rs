//! The PMU's budget (docs/pmu.md §8): exactly T*K*CW counter, T*K*31 event-select,
//! 64 TSC, T*K*CW shadow, T*K global-control and T*K overflow-status flip-flops;
//! every other flip-flop in a named group. Placed on the HX8K and the UP5K.
use anyhow::Result;
use serde_json::Value;

use super::netlist::CoarseCounts;
use super::{BudgetLine, Subject};
use crate::design::pmu::PmuDesign;
use crate::design::{Artifact, Design};
use pmugen_hdl::flip_flops::FlipFlops;
use pmugen_hdl::pmu::groups;
use pmugen_hdl::pmu::top::Pmu;

impl Subject for PmuDesign {
    fn top_name(&self) -> String {
        Design::top_name(self)
    }
    fn model(&self) -> pmugen_hdl::model::DesignModel {
        Design::model(self)
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
            ("E", p.profile_entries.to_string()),
        ]
        .into_iter()
        .filter(|(name, value)| *name != "E" || value != "0")
        .collect()
    }
    fn budget_source(&self) -> &'static str {
        "docs/pmu.md §8"
    }
    fn flip_flops(&self) -> Vec<FlipFlops> {
        Pmu::new(&self.params).flip_flops()
    }
    fn groups(&self) -> &'static [&'static str] {
        if self.params.profile_entries == 0 {
            &groups::ALL
        } else {
            &groups::ALL_WITH_PROFILE
        }
    }
    fn budget(&self, _top: &str, counts: &CoarseCounts, _netlist: &Value) -> Result<Vec<BudgetLine>> {
        let p = &self.params;
        let (tk, cw) = (p.threads * p.counters, p.counter_width);
        Ok(vec![
            BudgetLine::new(groups::GENERAL_COUNTERS, "T*K*CW", tk * cw, counts.group(groups::GENERAL_COUNTERS)),
            BudgetLine::new(groups::EVENT_SELECTS, "T*K*31", tk * 31, counts.group(groups::EVENT_SELECTS)),
            BudgetLine::new(groups::TSC, "64", 64, counts.group(groups::TSC)),
            BudgetLine::new(groups::SHADOWS, "T*K*CW", tk * cw, counts.group(groups::SHADOWS)),
            BudgetLine::new(groups::GLOBAL_CONTROL, "T*K", tk, counts.group(groups::GLOBAL_CONTROL)),
            BudgetLine::new(groups::OVERFLOW_STATUS, "T*K", tk, counts.group(groups::OVERFLOW_STATUS)),
        ])
    }
    fn notes(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<(String, usize)>> {
        let trace_flip_flops = groups::TRACE.iter().map(|group| counts.group(group)).sum();
        // The RAMs: the memory cells of the coarse netlist (a read register is part of
        // its RAM's read port, `memory -nomap`), the queue's and the profile table's told
        // apart by their widths.
        let memories: Vec<(usize, usize)> = netlist["modules"][top]["cells"]
            .as_object()
            .map(|cells| {
                cells
                    .values()
                    .filter(|cell| cell["type"].as_str().is_some_and(|t| t.starts_with("$mem")))
                    .map(|cell| (parameter(&cell["parameters"]["WIDTH"]), parameter(&cell["parameters"]["SIZE"])))
                    .collect()
            })
            .unwrap_or_default();
        let p = &self.params;
        let ram_bits = |width: usize| memories.iter().filter(|m| m.0 == width).map(|m| m.0 * m.1).sum::<usize>();
        let mut notes = vec![
            ("trace unit flip-flops (the trace groups below)".to_string(), trace_flip_flops),
            (
                format!("trace queue RAM bits (D = {} records of {} bits)", p.trace_depth, self.record_bits()),
                ram_bits(self.record_bits()),
            ),
        ];
        if p.profile_entries != 0 {
            let profile_flip_flops = groups::PROFILE.iter().map(|group| counts.group(group)).sum();
            let entry_bits = self.entry_bits();
            notes.push(("profile table flip-flops (the profile groups below)".to_string(), profile_flip_flops));
            notes.push((
                format!("profile table RAM bits (E = {} entries of {entry_bits} bits)", p.profile_entries),
                ram_bits(entry_bits),
            ));
        }
        Ok(notes)
    }
    fn parts(&self) -> Vec<(String, String)> {
        let top = Design::top_name(self);
        let mut parts = vec!["trace_control", "trace_record", "trace_queue"];
        if self.params.profile_entries != 0 {
            parts.push("profile");
        }
        parts.iter().map(|part| (part.replace('_', " "), format!("{top}__{part}"))).collect()
    }
    fn blocks(&self) -> Vec<(String, String)> {
        let top = Design::top_name(self);
        let p = &self.params;
        let (per_counter, per_thread) = (p.threads * p.counters, p.threads);
        [
            ("counter and shadow", "counters__0", per_counter),
            ("event sampler", "samplers__0", per_counter),
            ("event select", "selects__0", per_counter),
            ("global control", "controls__0", per_thread),
            ("shadow control", "shadow_controls__0", per_thread),
            ("ANY sums", "any_sums", 1),
            ("event decoder", "decoder", 1),
            ("register port", "port", 1),
            ("TSC", "tsc", 1),
        ]
        .into_iter()
        .chain((p.profile_entries > 0).then_some(("profile table", "profile", 1)))
        .map(|(label, module, copies)| {
            let label = if copies > 1 { format!("{label} (each of {copies})") } else { label.to_string() };
            (label, format!("{top}__{module}"))
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use pmugen_hdl::pmu::params::PmuParams;

    /// Every part and block the report synthesizes alone is a module of the generated
    /// Verilog, with one copy and with several, with and without a profile table: a
    /// renamed block fails here rather than after minutes of synthesis.
    #[test]
    fn every_part_and_block_is_a_module_of_the_verilog() {
        for (threads, counters, entries) in [(1, 1, 0), (4, 2, 0), (2, 2, 16)] {
            let params = PmuParams::with_default_table(threads, counters, 40).with_profile(entries).unwrap();
            let design = PmuDesign::new(params);
            let verilog = design.verilog().expect("the PMU's Verilog");
            let blocks = design.blocks();
            let expected = if entries > 0 { 10 } else { 9 };
            assert_eq!(blocks.len(), expected, "T={threads}, K={counters}, E={entries}: {blocks:?}");
            for (label, module) in design.parts().into_iter().chain(blocks) {
                assert!(verilog.contains(&format!("module {module}(")), "{label}: no module {module} in the Verilog");
            }
        }
    }
}
