//! `pmugen bench`: cycles per second of the native rust-hdl model and of the
//! Verilator model on the same pre-generated stimulus, one engine at a time.
use std::time::Instant;

use pmugen_hdl::params::MonitorParams;
use pmugen_sim::ports::{MonitorEngine, MonitorInputs};
use pmugen_sim::stimulus::RandomStimulus;

use crate::design;

/// The configurations the benchmark measures.
pub const CONFIGURATIONS: [(usize, usize); 4] = [(4, 3), (8, 3), (16, 4), (32, 5)];

/// One benchmark row.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The configuration.
    pub params: MonitorParams,
    /// Native rust-hdl model, cycles per second.
    pub native: f64,
    /// Verilator model (through the batch pipe), cycles per second.
    pub verilator: f64,
}

fn rate(engine: &mut MonitorEngine, inputs: &[MonitorInputs]) -> f64 {
    let mut outputs = Vec::with_capacity(inputs.len());
    let started = Instant::now();
    for chunk in inputs.chunks(4096) {
        engine.step_batch(chunk, &mut outputs);
    }
    inputs.len() as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

/// Measure `cycles` cycles of each engine for `params` (Verilator build not timed).
pub fn measure(params: MonitorParams, cycles: u64, seed: u64) -> Result<BenchRow, String> {
    let mut stimulus = RandomStimulus::new(params.events, params.order_width, seed);
    let inputs: Vec<MonitorInputs> = (0..cycles).map(|_| stimulus.next_inputs()).collect();
    let design = design::monitor(params);
    let mut verilator = design.verilator(None)?;
    let verilator_rate = rate(verilator.as_mut(), &inputs);
    let native_rate = rate(design.native().as_mut(), &inputs);
    Ok(BenchRow { params, native: native_rate, verilator: verilator_rate })
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[BenchRow], cycles: u64) -> String {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut text = format!(
        "{cycles} cycles of seeded random stimulus per engine, {cores} cores, release build\n\n\
         | N | W | native (rust-hdl) | Verilator | Verilator / native |\n|---:|---:|---:|---:|---:|\n"
    );
    for row in rows {
        text.push_str(&format!(
            "| {} | {} | {:.2} M cycles/s | {:.2} M cycles/s | {:.1}x |\n",
            row.params.events,
            row.params.order_width,
            row.native / 1e6,
            row.verilator / 1e6,
            row.verilator / row.native
        ));
    }
    text
}
