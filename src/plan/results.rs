//! The RESULTS file a driver writes after running a plan (docs/pmu.md §14.4): the count
//! read back per (run, core, counter), checked against the plan so that a count can
//! only be merged into the event its counter counted.
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::Plan;

/// The `format` of a RESULTS file (optional when reading).
pub const RESULTS_FORMAT: &str = "pmugen-results/1";

/// A RESULTS file (read by [`parse`], which names the entry in every error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultsFile {
    /// [`RESULTS_FORMAT`]; may be left out.
    pub format: Option<String>,
    /// One entry per read of the plan, in any order.
    pub results: Vec<Reading>,
}

/// One counter read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    pub run: usize,
    pub core: usize,
    pub counter: usize,
    /// The value read from PERF_CNTR[counter].
    pub count: u64,
    /// The event, as a check; may be left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// (run, core, counter).
pub type SlotKey = (usize, usize, usize);

const EXPECTED: &str = r#"expected {"format": "pmugen-results/1", "results": [{"run": 0, "core": 0, "counter": 0, "count": 1234}, ...]} (docs/pmu.md §14.4)"#;

impl ResultsFile {
    /// The readings as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data") + "\n"
    }
}

/// Parse `text` (the file `source`) and check it against `plan`: every read of the plan
/// has exactly one result, and nothing else is there. Returns the count per slot.
pub fn read(text: &str, source: &str, plan: &Plan) -> Result<BTreeMap<SlotKey, u64>> {
    let file = parse(text, source)?;
    if let Some(format) = file.format.as_deref().filter(|f| *f != RESULTS_FORMAT) {
        bail!("{source}: format is '{format}', expected '{RESULTS_FORMAT}'");
    }
    let planned = planned_reads(plan);
    let limit = if plan.pmu.counter_width >= 64 { u64::MAX } else { (1u64 << plan.pmu.counter_width) - 1 };
    let mut counts = BTreeMap::new();
    let mut first_entry = BTreeMap::new();
    for (index, reading) in file.results.iter().enumerate() {
        let at = format!(
            "{source}: results[{index}] (run {}, core {}, counter {})",
            reading.run, reading.core, reading.counter
        );
        let key = (reading.run, reading.core, reading.counter);
        let Some(event) = planned.get(&key) else { bail!("{at}: {}", not_planned(plan, key)) };
        if let Some(named) = reading.event.as_deref().filter(|named| !named.eq_ignore_ascii_case(event)) {
            bail!("{at}: names event '{named}' but the plan has that counter count '{event}'");
        }
        if reading.count > limit {
            bail!(
                "{at}: count {} does not fit a {}-bit counter (at most {limit})",
                reading.count,
                plan.pmu.counter_width
            );
        }
        if let Some(first) = first_entry.insert(key, index) {
            bail!("{at}: a second result for the counter of results[{first}]");
        }
        counts.insert(key, reading.count);
    }
    let missing: Vec<String> = planned
        .iter()
        .filter(|(key, _)| !counts.contains_key(*key))
        .map(|((run, core, counter), event)| format!("run {run} core {core} counter {counter} ({event})"))
        .collect();
    if !missing.is_empty() {
        let more = if missing.len() > 4 { format!(" and {} more", missing.len() - 4) } else { String::new() };
        bail!(
            "{source}: no result for {}{more}; every read of the plan needs one",
            missing[..missing.len().min(4)].join(", ")
        );
    }
    Ok(counts)
}

/// The file's shape: an object with `results` (and optionally `format`), each entry an
/// object with non-negative integer `run`, `core`, `counter` and `count`; errors name
/// the entry.
fn parse(text: &str, source: &str) -> Result<ResultsFile> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| anyhow!("{source}: not JSON: {e}; {EXPECTED}"))?;
    let serde_json::Value::Object(object) = &value else {
        bail!("{source}: the file is not a JSON object; {EXPECTED}")
    };
    if let Some(key) = object.keys().find(|k| !["format", "results"].contains(&k.as_str())) {
        bail!("{source}: unknown key '{key}' (allowed: format, results); {EXPECTED}");
    }
    let format = match object.get("format") {
        None => None,
        Some(serde_json::Value::String(format)) => Some(format.clone()),
        Some(other) => bail!("{source}: format is {other}, expected \"{RESULTS_FORMAT}\""),
    };
    let Some(serde_json::Value::Array(entries)) = object.get("results") else {
        bail!("{source}: no 'results' array; {EXPECTED}");
    };
    let results = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            Reading::deserialize(entry).map_err(|e| {
                anyhow!("{source}: results[{index}]: {e}; each entry is {{\"run\", \"core\", \"counter\", \"count\"}} (integers from 0; count below 2^64) and an optional \"event\"")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ResultsFile { format, results })
}

/// Every read of the plan: slot -> event name.
pub fn planned_reads(plan: &Plan) -> BTreeMap<SlotKey, String> {
    let mut reads = BTreeMap::new();
    for run in &plan.runs {
        for core in &run.cores {
            for read in &core.reads {
                reads.insert((run.run, core.core, read.counter), read.event.clone());
            }
        }
    }
    reads
}

/// Why `key` is not a read of `plan`, with what is allowed there.
fn not_planned(plan: &Plan, (run, core, counter): SlotKey) -> String {
    let list = |items: Vec<usize>| items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    let Some(planned_run) = plan.runs.iter().find(|r| r.run == run) else {
        return format!("the plan has no run {run} (runs: {})", list(plan.runs.iter().map(|r| r.run).collect()));
    };
    let Some(program) = planned_run.cores.iter().find(|c| c.core == core) else {
        return format!(
            "run {run} uses no core {core} (cores: {})",
            list(planned_run.cores.iter().map(|c| c.core).collect())
        );
    };
    format!(
        "counter {counter} is not read on core {core} in run {run} (counters read there: {})",
        list(program.reads.iter().map(|r| r.counter).collect())
    )
}
