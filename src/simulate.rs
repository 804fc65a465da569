//! `pmugen simulate`: run engines in lockstep on one seeded stimulus and compare
//! every output every cycle.
use std::time::{Duration, Instant};

use pmugen_hdl::params::MonitorParams;
use pmugen_sim::ports::{Engine, MonitorEngine, MonitorInputs, MonitorOutputs, Signals};
use pmugen_sim::reference::ReferenceMonitor;
use pmugen_sim::stimulus::RandomStimulus;

/// The first difference between engines.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// Cycle index (0-based) of the edge after which the outputs differ.
    pub cycle: u64,
    /// The output signal that differs.
    pub signal: &'static str,
    /// (engine, value) for every engine, the reference first.
    pub values: Vec<(&'static str, u64)>,
    /// The inputs of that cycle.
    pub inputs: MonitorInputs,
}

/// Totals of a lockstep run.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// Cycles simulated.
    pub cycles: u64,
    /// Cycles with `matched` high.
    pub matched_cycles: u64,
    /// Frames completed on the serial output.
    pub frames: u64,
    /// Wall time spent in each engine (same order as the engines).
    pub engine_time: Vec<(&'static str, Duration)>,
    /// The first mismatch, if any (the run stops there).
    pub mismatch: Option<Mismatch>,
}

impl RunSummary {
    /// Cycles per second of engine `name`.
    pub fn rate(&self, name: &str) -> Option<f64> {
        self.engine_time
            .iter()
            .find(|(engine, _)| *engine == name)
            .map(|(_, time)| self.cycles as f64 / time.as_secs_f64().max(1e-9))
    }
}

/// Cycles per batch: engines behind a pipe answer a batch at once.
const BATCH: u64 = 2048;

fn first_difference(outputs: &[MonitorOutputs]) -> Option<usize> {
    let reference = outputs[0].signals();
    (0..reference.len()).find(|&i| outputs.iter().any(|o| o.signals()[i].1 != reference[i].1))
}

/// Run the reference model and `engines` on `cycles` cycles of the stimulus of
/// `seed`, stopping at the first difference.
pub fn lockstep(params: MonitorParams, engines: &mut [Box<MonitorEngine>], cycles: u64, seed: u64) -> RunSummary {
    let mut reference = ReferenceMonitor::new(params.events, params.order_width);
    let mut stimulus = RandomStimulus::new(params.events, params.order_width, seed);
    let mut summary = RunSummary {
        engine_time: engines.iter().map(|e| (e.name(), Duration::ZERO)).collect(),
        ..Default::default()
    };
    let mut engine_outputs: Vec<Vec<MonitorOutputs>> = vec![Vec::new(); engines.len()];
    let mut outputs = Vec::with_capacity(engines.len() + 1);
    let mut done = 0;
    while done < cycles {
        let batch: Vec<MonitorInputs> = (0..BATCH.min(cycles - done)).map(|_| stimulus.next_inputs()).collect();
        for ((engine, (_, time)), out) in engines.iter_mut().zip(summary.engine_time.iter_mut()).zip(&mut engine_outputs) {
            out.clear();
            let started = Instant::now();
            engine.step_batch(&batch, out);
            *time += started.elapsed();
        }
        for (k, inputs) in batch.iter().enumerate() {
            let cycle = done + k as u64;
            outputs.clear();
            outputs.push(reference.step(inputs));
            outputs.extend(engine_outputs.iter().map(|out| out[k]));
            summary.cycles = cycle + 1;
            if let Some(index) = first_difference(&outputs) {
                let names = std::iter::once("reference").chain(engines.iter().map(|e| e.name()));
                summary.mismatch = Some(Mismatch {
                    cycle,
                    signal: outputs[0].signals()[index].0,
                    values: names.zip(outputs.iter().map(|o| o.signals()[index].1)).collect(),
                    inputs: *inputs,
                });
                return summary;
            }
            summary.matched_cycles += outputs[0].matched as u64;
            summary.frames += outputs[0].ser_last as u64;
        }
        done += batch.len() as u64;
    }
    summary
}
