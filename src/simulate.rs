//! `pmugen simulate`: run engines in lockstep with the reference model on one seeded
//! stimulus and compare every output every cycle, for any design.
use std::fmt::Debug;
use std::time::{Duration, Instant};

use pmugen_sim::ports::{Engine, Signals};

use crate::design::Design;

/// The first difference between engines.
#[derive(Clone, Debug)]
pub struct Mismatch<I> {
    /// Cycle index (0-based) of the edge after which the outputs differ.
    pub cycle: u64,
    /// The output signal that differs.
    pub signal: &'static str,
    /// (engine, value) for every engine, the reference first.
    pub values: Vec<(&'static str, u64)>,
    /// The inputs of that cycle.
    pub inputs: I,
}

/// Totals of a lockstep run.
#[derive(Clone, Debug)]
pub struct RunSummary<I> {
    /// Cycles simulated.
    pub cycles: u64,
    /// For every output signal, the cycles in which the reference drove it non-zero:
    /// shows what the stimulus reached (matches, frames, interrupts, faults, reads).
    pub active: Vec<(&'static str, u64)>,
    /// Wall time spent in each engine (same order as the engines).
    pub engine_time: Vec<(&'static str, Duration)>,
    /// The first mismatch, if any (the run stops there).
    pub mismatch: Option<Mismatch<I>>,
}

impl<I> RunSummary<I> {
    /// Cycles per second of engine `name`.
    pub fn rate(&self, name: &str) -> Option<f64> {
        self.engine_time
            .iter()
            .find(|(engine, _)| *engine == name)
            .map(|(_, time)| self.cycles as f64 / time.as_secs_f64().max(1e-9))
    }

    /// Cycles in which the reference drove output `signal` non-zero.
    pub fn active(&self, signal: &str) -> u64 {
        self.active.iter().find(|(name, _)| *name == signal).map_or(0, |(_, count)| *count)
    }
}

/// Cycles per batch: engines behind a pipe answer a batch at once.
const BATCH: u64 = 2048;

/// Which simulation engines run next to the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineChoice {
    /// The rust-hdl model, natively.
    Native,
    /// The generated Verilog compiled with Verilator.
    Verilator,
    /// Both, in lockstep with the reference model.
    All,
}

impl EngineChoice {
    /// Whether the native model runs.
    pub fn native(self) -> bool {
        matches!(self, EngineChoice::Native | EngineChoice::All)
    }

    /// Whether the Verilator model runs.
    pub fn verilator(self) -> bool {
        matches!(self, EngineChoice::Verilator | EngineChoice::All)
    }

    /// Fresh engines of `design` (no waveform).
    pub fn engines<I, O>(self, design: &dyn Design<I, O>) -> Result<Vec<Box<dyn Engine<I, O>>>, String> {
        let mut engines = Vec::new();
        if self.native() {
            engines.push(design.native(None));
        }
        if self.verilator() {
            engines.push(design.verilator(None)?);
        }
        Ok(engines)
    }
}

/// Run the design's reference model and `engines` on `cycles` cycles of the stimulus
/// of `seed`, stopping at the first difference.
pub fn lockstep<I: Clone + Debug, O: Signals + Clone>(
    design: &dyn Design<I, O>,
    engines: &mut [Box<dyn Engine<I, O>>],
    cycles: u64,
    seed: u64,
) -> RunSummary<I> {
    let mut reference = design.reference();
    lockstep_on(reference.as_mut(), engines, &mut *design.stimulus(seed), cycles, &mut |_, _| ())
}

/// Run `reference` and `engines` on `cycles` cycles of `inputs`, stopping at the first
/// difference; `observe` sees every cycle's inputs and the reference's outputs.
pub fn lockstep_on<I: Clone + Debug, O: Signals + Clone>(
    reference: &mut dyn Engine<I, O>,
    engines: &mut [Box<dyn Engine<I, O>>],
    inputs: &mut dyn Iterator<Item = I>,
    cycles: u64,
    observe: &mut dyn FnMut(&I, &O),
) -> RunSummary<I> {
    let mut summary = RunSummary {
        cycles: 0,
        active: Vec::new(),
        engine_time: engines.iter().map(|e| (e.name(), Duration::ZERO)).collect(),
        mismatch: None,
    };
    let mut engine_outputs: Vec<Vec<O>> = vec![Vec::new(); engines.len()];
    let mut done = 0;
    while done < cycles {
        let batch: Vec<I> = (&mut *inputs).take(BATCH.min(cycles - done) as usize).collect();
        if batch.is_empty() {
            break;
        }
        for ((engine, (_, time)), out) in
            engines.iter_mut().zip(summary.engine_time.iter_mut()).zip(&mut engine_outputs)
        {
            out.clear();
            let started = Instant::now();
            engine.step_batch(&batch, out);
            *time += started.elapsed();
        }
        for (k, inputs) in batch.iter().enumerate() {
            let cycle = done + k as u64;
            let output = reference.step(inputs);
            observe(inputs, &output);
            let expected = output.signals();
            summary.cycles = cycle + 1;
            if summary.active.is_empty() {
                summary.active = expected.iter().map(|(name, _)| (*name, 0)).collect();
            }
            for ((_, count), (_, value)) in summary.active.iter_mut().zip(&expected) {
                *count += (*value != 0) as u64;
            }
            let actual: Vec<Vec<(&'static str, u64)>> = engine_outputs.iter().map(|out| out[k].signals()).collect();
            let differs = (0..expected.len()).find(|&i| actual.iter().any(|signals| signals[i].1 != expected[i].1));
            if let Some(index) = differs {
                let mut values = vec![("reference", expected[index].1)];
                values.extend(engines.iter().zip(&actual).map(|(engine, signals)| (engine.name(), signals[index].1)));
                summary.mismatch = Some(Mismatch { cycle, signal: expected[index].0, values, inputs: inputs.clone() });
                return summary;
            }
        }
        done += batch.len() as u64;
    }
    summary
}
