//! Merging the counts of a run plan (docs/pmu.md §14.5, seed 003 [0056]): per event the
//! maximum over the counters that counted it (a core whose count is low or 0 loses to
//! its replicas), the spread between replicas, and a flag for events counted as zero
//! or below a threshold, which point at a test program that does not exercise them.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::results::{planned_reads, SlotKey};
use super::Plan;

/// The `format` of a merge file.
pub const MERGE_FORMAT: &str = "pmugen-merge/1";

/// The merged counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merge {
    /// Always [`MERGE_FORMAT`].
    pub format: String,
    /// `--low`: counts below it are flagged `low`.
    pub low: u64,
    /// One entry per event of the plan, in the plan's order.
    pub events: Vec<MergedEvent>,
}

/// One event's merged count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedEvent {
    pub event: String,
    /// The maximum over the replicas: the event's count.
    pub count: u64,
    /// The smallest replica.
    pub min: u64,
    /// count - min.
    pub spread: u64,
    /// `zero`, `low` (below `--low`) or `ok`.
    pub flag: Flag,
    /// Every counter that counted it.
    pub replicas: Vec<Replica>,
}

/// One counter's count of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replica {
    pub run: usize,
    pub core: usize,
    pub counter: usize,
    pub count: u64,
}

/// What the merged count says about the test program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Counted as 0.
    Zero,
    /// Above 0 but below `--low`.
    Low,
    /// At least `--low`.
    Ok,
}

/// Merge `counts` (checked against `plan` by [`super::results::read`]).
pub fn merge(plan: &Plan, counts: &BTreeMap<SlotKey, u64>, low: u64) -> Merge {
    let reads = planned_reads(plan);
    let events = plan
        .events
        .iter()
        .map(|event| {
            let replicas: Vec<Replica> = reads
                .iter()
                .filter(|(_, name)| **name == event.name)
                .map(|(&(run, core, counter), _)| Replica { run, core, counter, count: counts[&(run, core, counter)] })
                .collect();
            let count = replicas.iter().map(|r| r.count).max().unwrap_or(0);
            let min = replicas.iter().map(|r| r.count).min().unwrap_or(0);
            let flag = match count {
                0 => Flag::Zero,
                c if c < low => Flag::Low,
                _ => Flag::Ok,
            };
            MergedEvent { event: event.name.clone(), count, min, spread: count - min, flag, replicas }
        })
        .collect();
    Merge { format: MERGE_FORMAT.into(), low, events }
}

impl Merge {
    /// The merge as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data") + "\n"
    }

    /// A Markdown table: event, count, replicas, min, spread, flag.
    pub fn markdown(&self) -> String {
        let mut text =
            String::from("| event | count (max) | replicas | min | spread | flag |\n|---|---:|---:|---:|---:|---|\n");
        for event in &self.events {
            let flag = match event.flag {
                Flag::Zero => "zero".to_string(),
                Flag::Low => format!("low (< {})", self.low),
                Flag::Ok => "ok".to_string(),
            };
            text += &format!(
                "| {} | {} | {} | {} | {} | {flag} |\n",
                event.event,
                event.count,
                event.replicas.len(),
                event.min,
                event.spread
            );
        }
        text
    }
}
