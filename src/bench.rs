//! `pmugen bench`: cycles per second of the native rust-hdl model and of the
//! Verilator model on the same pre-generated stimulus, one engine at a time, for
//! any design.
use std::time::Instant;

use pmugen_sim::ports::Engine;

use crate::design::Design;

/// One benchmark row.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The configuration's parameter values, one per table column.
    pub configuration: Vec<String>,
    /// Native rust-hdl model, cycles per second.
    pub native: f64,
    /// Verilator model (through the batch pipe), cycles per second.
    pub verilator: f64,
}

fn rate<I, O>(engine: &mut dyn Engine<I, O>, inputs: &[I]) -> f64 {
    let mut outputs = Vec::with_capacity(inputs.len());
    let started = Instant::now();
    for chunk in inputs.chunks(4096) {
        engine.step_batch(chunk, &mut outputs);
        outputs.clear();
    }
    inputs.len() as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

/// Measure `cycles` cycles of each engine of `design` (Verilator build not timed).
pub fn measure<I, O>(
    design: &dyn Design<I, O>,
    configuration: Vec<String>,
    cycles: u64,
    seed: u64,
) -> Result<BenchRow, String> {
    let inputs: Vec<I> = design.stimulus(seed).take(cycles as usize).collect();
    let mut verilator = design.verilator(None)?;
    let verilator_rate = rate(verilator.as_mut(), &inputs);
    let native_rate = rate(design.native(None).as_mut(), &inputs);
    Ok(BenchRow { configuration, native: native_rate, verilator: verilator_rate })
}

/// The rows as a Markdown table with the parameter columns `columns`.
pub fn markdown(columns: &[&str], rows: &[BenchRow], cycles: u64) -> String {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut text = format!("{cycles} cycles of seeded random stimulus per engine, {cores} cores, release build\n\n");
    text.push_str(&format!("| {} | native (rust-hdl) | Verilator | Verilator / native |\n", columns.join(" | ")));
    text.push_str(&format!("|{}---:|---:|---:|\n", "---:|".repeat(columns.len())));
    for row in rows {
        text.push_str(&format!(
            "| {} | {:.2} M cycles/s | {:.2} M cycles/s | {:.1}x |\n",
            row.configuration.join(" | "),
            row.native / 1e6,
            row.verilator / 1e6,
            row.verilator / row.native
        ));
    }
    text
}
