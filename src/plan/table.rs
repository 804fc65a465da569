//! The plan as a readable Markdown document: what was asked, which counters count each
//! event, and per run the EVTSEL and PERF_GLOBAL_CTRL value of every core.
use super::assign::{Placement, Regime};
use super::Plan;

/// Why a run looks as it does, in words.
fn regime_text(regime: Regime, placement: Placement) -> &'static str {
    match (regime, placement) {
        (Regime::Triplicate, _) => "C >= 3E: the first 3E cores, every event on three cores",
        (Regime::Spread, _) => "E <= C < 3E: every core, core c counts event c mod E",
        (Regime::Packed, Placement::Matching) => {
            "C < E: several events per core; the greedy order left an event without a slot, a maximum matching placed them"
        }
        (Regime::Packed, _) => "C < E: several events per core, placed in the greedy order",
    }
}

/// The whole plan.
pub fn markdown(plan: &Plan) -> String {
    let modes = &plan.counting;
    let rings = match (modes.usr, modes.os) {
        (true, true) => "every ring (USR, OS)",
        (true, false) => "ring 3 only (USR)",
        (false, true) => "ring 0 only (OS)",
        (false, false) => "no ring",
    };
    let threads = if modes.all_threads {
        "every thread's events (ANY = 1; a core-scope event has one input for the core either way)"
    } else {
        "thread 0's events"
    };
    let p = &plan.pmu;
    let mut text = format!(
        "# Plan: {} events on {} cores, {} run{}\n\nEach core has the PMU {} (T={}, K={}, CW={}). Thread 0's counters count \
         {threads} in {rings}. Register accesses are ring 0 in bank 0 (docs/pmu.md §14).\n\n",
        plan.events.len(),
        plan.cores,
        plan.runs.len(),
        if plan.runs.len() == 1 { "" } else { "s" },
        p.top,
        p.threads,
        p.counters,
        p.counter_width,
    );
    text += "| event | code | umask | counters allowed | counted by (run/core/counter) |\n|---|---|---|---|---|\n";
    for event in &plan.events {
        let allowed: Vec<String> = event.counters.iter().map(|i| i.to_string()).collect();
        let mut by = Vec::new();
        for run in &plan.runs {
            for core in &run.cores {
                by.extend(
                    core.reads
                        .iter()
                        .filter(|r| r.event == event.name)
                        .map(|r| format!("{}/{}/{}", run.run, core.core, r.counter)),
                );
            }
        }
        text += &format!(
            "| {} | {:#04X} | {:#04X} | {} | {} |\n",
            event.name,
            event.code,
            event.umask,
            allowed.join(","),
            by.join(" ")
        );
    }
    for run in &plan.runs {
        text += &format!("\n## Run {}: {}\n\n", run.run, regime_text(run.regime, run.placement));
        text += "| core | counter | event | PERF_EVTSEL | PERF_GLOBAL_CTRL |\n|---:|---:|---|---|---|\n";
        for core in &run.cores {
            let enable = core.reads.iter().fold(0u64, |mask, read| mask | 1 << read.counter);
            for read in &core.reads {
                let evtsel = plan.events.iter().find(|e| e.name == read.event).map_or(0, |e| e.evtsel);
                text +=
                    &format!("| {} | {} | {} | {evtsel:#010x} | {enable:#x} |\n", core.core, read.counter, read.event);
            }
        }
    }
    text
}
