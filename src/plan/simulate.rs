//! A plan run end to end on simulated PMUs (docs/pmu.md §14.6): one PMU per core used,
//! each fed the same seeded workload, programmed with the plan's register writes
//! through its register port (ring 0, bank 0), stopped, and read back through the
//! port. Every PMU runs as the reference model in lockstep with the chosen engines
//! (native rust-hdl model, Verilator model of the generated Verilog), so a count is
//! only accepted when all of them agree.
use anyhow::{bail, Result};
use std::collections::BTreeMap;

use super::merge::Merge;
use super::results::{Reading, ResultsFile, RESULTS_FORMAT};
use super::Plan;
use crate::design::pmu::PmuDesign;
use crate::design::Design;
use crate::simulate::{lockstep_on, EngineChoice};
use pmugen_sim::ports::pmu::{PmuInputs, PmuOutputs};
use pmugen_sim::stimulus::{Counting, Workload};

/// Idle cycles between programming and the workload, and after it: the event inputs
/// reach the counters one cycle late (docs/pmu.md §4) and writes act from the next cycle.
const QUIET: usize = 2;

/// How to run a plan.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Cycles of the workload (every run runs all of it).
    pub cycles: usize,
    /// The workload's seed.
    pub seed: u64,
    /// The engines next to the reference model.
    pub engine: EngineChoice,
    /// A core whose event inputs are stuck at 0.
    pub stuck_core: Option<usize>,
}

/// What the simulated machine gave back.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The counts read back, in the RESULTS schema.
    pub results: ResultsFile,
    /// Per event of the plan, its true count in the workload.
    pub truth: Vec<u64>,
}

/// One cycle of the register port: a ring-0 access in bank 0.
fn access(address: u8, value: u64, write: bool) -> PmuInputs {
    PmuInputs {
        reg_priv: true,
        reg_addr: address,
        reg_wdata: value,
        reg_write: write,
        reg_read: !write,
        ..PmuInputs::default()
    }
}

/// Run `plan` on PMUs of `design`; `progress` hears about each core.
pub fn run(design: &PmuDesign, plan: &Plan, options: &Options, progress: &mut dyn FnMut(String)) -> Result<Outcome> {
    if plan.pmu.top != design.top_name() {
        bail!(
            "the plan is for {}, the PMU flags give {}; plan and run with the same flags",
            plan.pmu.top,
            design.top_name()
        );
    }
    if let Some(core) = options.stuck_core.filter(|&core| core >= plan.cores) {
        bail!("--stuck-core {core} is not a core of the plan (0..={})", plan.cores - 1);
    }
    let config = design.params.port_config();
    let workload = Workload::random(&config, options.cycles, options.seed);
    let counting = Counting { usr: plan.counting.usr, os: plan.counting.os, all_threads: plan.counting.all_threads };
    let truth: Vec<u64> = plan
        .events
        .iter()
        .map(|event| {
            workload
                .true_count(config.events.iter().position(|e| e.name == event.name).expect("a table event"), counting)
        })
        .collect();
    if let Some((event, count)) = plan
        .events
        .iter()
        .zip(&truth)
        .find(|(_, &count)| config.counter_width < 64 && count >> config.counter_width != 0)
    {
        bail!(
            "--cycles {}: {} occurs {count} times, more than a {}-bit counter holds; use fewer cycles",
            options.cycles,
            event.name,
            config.counter_width
        );
    }
    let cores: Vec<usize> = {
        let mut cores: Vec<usize> = plan.runs.iter().flat_map(|r| r.cores.iter().map(|c| c.core)).collect();
        cores.sort();
        cores.dedup();
        cores
    };
    let mut results = Vec::new();
    for (n, &core) in cores.iter().enumerate() {
        progress(format!("core {core} ({} of {})", n + 1, cores.len()));
        let mut inputs = vec![PmuInputs { reset: true, ..PmuInputs::default() }];
        let mut reads = BTreeMap::new();
        for run in &plan.runs {
            let Some(program) = run.cores.iter().find(|c| c.core == core) else { continue };
            inputs.extend(program.writes.iter().map(|w| access(w.address, w.value, true)));
            inputs.extend(std::iter::repeat_n(PmuInputs::default(), QUIET));
            inputs.extend((0..workload.len()).map(|cycle| workload.inputs(cycle, options.stuck_core == Some(core))));
            inputs.extend(std::iter::repeat_n(PmuInputs::default(), QUIET));
            inputs.extend(program.stop.iter().map(|w| access(w.address, w.value, true)));
            for read in &program.reads {
                reads.insert(inputs.len(), (run.run, read.counter, read.event.clone()));
                inputs.push(access(read.address, 0, false));
            }
        }
        let counts = run_core(design, options.engine, &inputs, core)?;
        for (cycle, (run, counter, event)) in reads {
            results.push(Reading { run, core, counter, count: counts[cycle], event: Some(event) });
        }
    }
    results.sort_by_key(|r| (r.run, r.core, r.counter));
    Ok(Outcome { results: ResultsFile { format: Some(RESULTS_FORMAT.into()), results }, truth })
}

/// Step one core's PMU through `inputs`; returns `reg_rdata` after every cycle.
fn run_core(design: &PmuDesign, engine: EngineChoice, inputs: &[PmuInputs], core: usize) -> Result<Vec<u64>> {
    let mut engines = engine.engines(design).map_err(anyhow::Error::msg)?;
    let mut reference = design.reference();
    let mut rdata = Vec::with_capacity(inputs.len());
    let mut fault = None;
    let mut observe = |input: &PmuInputs, output: &PmuOutputs| {
        if output.reg_fault && fault.is_none() {
            fault = Some((rdata.len(), input.reg_addr));
        }
        rdata.push(output.reg_rdata);
    };
    let summary =
        lockstep_on(reference.as_mut(), &mut engines, &mut inputs.iter().cloned(), inputs.len() as u64, &mut observe);
    if let Some(mismatch) = summary.mismatch {
        let values: Vec<String> =
            mismatch.values.iter().map(|(engine, value)| format!("{engine} {value:#x}")).collect();
        bail!(
            "core {core}: cycle {}: {} differs between engines: {}",
            mismatch.cycle,
            mismatch.signal,
            values.join(", ")
        );
    }
    if let Some((cycle, address)) = fault {
        bail!("core {core}: cycle {cycle}: the access to register {address:#04x} was denied (reg_fault)");
    }
    Ok(rdata)
}

/// One event's check against the workload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRow {
    pub event: String,
    /// The workload's true count.
    pub truth: u64,
    /// The merged count.
    pub merged: u64,
    /// Replicas on cores whose inputs work.
    pub healthy_replicas: usize,
    /// Whether the merged count is what it must be: the true count when a working core
    /// counted the event, else 0.
    pub expected: bool,
}

/// Compare the merge with the workload's true counts.
pub fn check(merge: &Merge, truth: &[u64], stuck_core: Option<usize>) -> Vec<CheckRow> {
    merge
        .events
        .iter()
        .zip(truth)
        .map(|(event, &truth)| {
            let healthy_replicas = event.replicas.iter().filter(|r| Some(r.core) != stuck_core).count();
            let must_be = if healthy_replicas > 0 { truth } else { 0 };
            CheckRow {
                event: event.event.clone(),
                truth,
                merged: event.count,
                healthy_replicas,
                expected: event.count == must_be,
            }
        })
        .collect()
}

/// The check as a Markdown table.
pub fn check_markdown(rows: &[CheckRow]) -> String {
    let mut text =
        String::from("| event | true count | merged | replicas on working cores | check |\n|---|---:|---:|---:|---|\n");
    for row in rows {
        let verdict = match (row.expected, row.healthy_replicas) {
            (true, 0) => "lost: every replica on the stuck core",
            (true, _) => "ok",
            (false, _) => "WRONG",
        };
        text += &format!("| {} | {} | {} | {} | {verdict} |\n", row.event, row.truth, row.merged, row.healthy_replicas);
    }
    text
}
