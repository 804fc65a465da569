//! `pmugen plan`: measure more events than a core has counters by spreading them over
//! the cores of a machine whose cores each have one generated PMU, then merge the
//! counts read back (docs/pmu.md §14, after seed 003 [0046]–[0056]).
//!
//! The plan is data: per run and core, the register writes a driver performs through
//! the PMU's register port and the reads after the run. Its JSON form is the contract
//! with drivers (`Plan` below is that schema); `--merge` reads the counts back in the
//! RESULTS schema of [`results`]. `simulate` runs a plan on simulated PMUs.
pub mod assign;
pub mod command;
mod lookup;
pub mod merge;
pub mod program;
pub mod results;
pub mod simulate;
pub mod table;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use assign::{Placement, Regime};
use pmugen_hdl::pmu::event_table::Event;
use pmugen_hdl::pmu::params::PmuParams;

/// The `format` of a plan file.
pub const PLAN_FORMAT: &str = "pmugen-plan/1";

/// A whole plan: what was asked, and per run the program of every core used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// The PMU every core has.
    pub pmu: PmuSummary,
    /// C, the cores available.
    pub cores: usize,
    /// What every counter counts.
    pub counting: Modes,
    /// The events, in the order given.
    pub events: Vec<PlannedEvent>,
    /// The runs; all events of one run are counted at the same time.
    pub runs: Vec<Run>,
}

/// The PMU's parameters as far as a driver needs them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PmuSummary {
    pub top: String,
    pub threads: usize,
    pub counters: usize,
    pub counter_width: usize,
    pub event_table: String,
}

/// The EVTSEL mode bits every planned counter gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modes {
    /// USR: count in ring 3.
    pub usr: bool,
    /// OS: count in ring 0.
    pub os: bool,
    /// ANY: count every thread's occurrences, not only thread 0's.
    pub all_threads: bool,
}

/// One event of the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedEvent {
    /// `EventName`.
    pub name: String,
    /// `EventCode`.
    pub code: u8,
    /// `UMask`.
    pub umask: u8,
    /// `Scope`: `thread` or `core`.
    pub scope: String,
    /// The counters its `Counter` key allows, ascending.
    pub counters: Vec<usize>,
    /// The PERF_EVTSEL value that selects it with the plan's modes.
    pub evtsel: u64,
}

/// One run: every core used runs the workload once with its counters programmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// Index from 0.
    pub run: usize,
    /// Which rule placed the events of this run.
    pub regime: Regime,
    /// How the slots were found.
    pub placement: Placement,
    /// The cores used, ascending.
    pub cores: Vec<program::CoreProgram>,
}

impl Plan {
    /// Plan the events `names` of `params`'s table over `cores` cores; with `rounds`,
    /// over the fewest runs when one run cannot hold them.
    pub fn new(params: &PmuParams, names: &[String], cores: usize, modes: Modes, rounds: bool) -> Result<Plan> {
        if cores == 0 {
            bail!("--cores (C) = 0 is out of range: at least 1 core");
        }
        let chosen = lookup::events(&params.table, names)?;
        let allowed: Vec<Vec<usize>> =
            chosen.iter().map(|e| e.counters.clone().unwrap_or_else(|| (0..params.counters).collect())).collect();
        let events: Vec<PlannedEvent> =
            chosen.iter().zip(&allowed).map(|(e, counters)| planned_event(e, counters.clone(), modes)).collect();
        let runs = match assign::assign_run(&allowed, cores, params.counters) {
            Ok(assignment) => vec![program::run(0, &assignment, &(0..chosen.len()).collect::<Vec<_>>(), &events)],
            Err(_) if rounds => assign::split_runs(&allowed, cores, params.counters)
                .iter()
                .enumerate()
                .map(|(run, group)| {
                    let group_allowed: Vec<Vec<usize>> = group.iter().map(|&e| allowed[e].clone()).collect();
                    let assignment =
                        assign::assign_run(&group_allowed, cores, params.counters).expect("each run of the split fits");
                    program::run(run, &assignment, group, &events)
                })
                .collect(),
            Err(offending) => bail!(
                "cannot plan {} on {} of {} in one run: {}; add cores, remove events, \
                 or give --rounds to split them over several runs",
                plural(chosen.len(), "event"),
                plural(cores, "core"),
                plural(params.counters, "counter"),
                describe(&offending, &chosen, cores, params.counters)
            ),
        };
        let pmu = PmuSummary {
            top: params.top_name(),
            threads: params.threads,
            counters: params.counters,
            counter_width: params.counter_width,
            event_table: params.table.stem.clone(),
        };
        Ok(Plan { format: PLAN_FORMAT.into(), pmu, cores, counting: modes, events, runs })
    }

    /// The plan as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data") + "\n"
    }

    /// A plan file written by `pmugen plan` (`source` names it in errors).
    pub fn from_json(text: &str, source: &str) -> Result<Plan> {
        let plan: Plan = serde_json::from_str(text).map_err(|e| {
            anyhow::anyhow!("{source}: not a plan written by `pmugen plan` ({e}); the schema is in docs/pmu.md §14.3")
        })?;
        if plan.format != PLAN_FORMAT {
            bail!("{source}: format is '{}', expected '{PLAN_FORMAT}'", plan.format);
        }
        Ok(plan)
    }
}

/// "counter 0 is the only counter allowed for 3 events (A, B, C) but it offers 2 (core,
/// counter) slots", or, when every counter is full, how many slots are missing.
fn describe(offending: &[assign::Oversubscribed], events: &[&Event], cores: usize, counters: usize) -> String {
    let parts: Vec<String> = offending
        .iter()
        .map(|o| {
            if o.counters.len() == counters {
                let n = o.events.len();
                let (cores, counters) = (plural(cores, "core"), plural(counters, "counter"));
                return format!(
                    "the {n} events need {n} (core, counter) slots but {cores} x {counters} offer {}",
                    o.slots
                );
            }
            let counters: Vec<String> = o.counters.iter().map(|i| i.to_string()).collect();
            let names: Vec<&str> = o.events.iter().map(|&e| events[e].name.as_str()).collect();
            let (which, verb) = match counters.len() {
                1 => (format!("counter {}", counters[0]), "is the only counter"),
                _ => (format!("counters {}", counters.join(", ")), "are the only counters"),
            };
            let offer = if o.counters.len() == 1 { "it offers" } else { "they offer" };
            format!(
                "{which} {verb} allowed for {} ({}) but {offer} {} (core, counter) slot{}",
                plural(o.events.len(), "event"),
                names.join(", "),
                o.slots,
                if o.slots == 1 { "" } else { "s" }
            )
        })
        .collect();
    parts.join("; ")
}

/// "1 core", "3 cores".
fn plural(count: usize, noun: &str) -> String {
    format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
}

fn planned_event(event: &Event, counters: Vec<usize>, modes: Modes) -> PlannedEvent {
    PlannedEvent {
        name: event.name.clone(),
        code: event.code,
        umask: event.umask,
        scope: event.scope.as_str().into(),
        counters,
        evtsel: program::event_select(event.code, event.umask, modes),
    }
}
