//! The Knights Corner-style core PMU (seed 001, Intel Knights Corner) with shadow
//! counters (seed 002) and the freeze of seed 004: one block per file, wired in
//! `top.rs`. Every width comes from the run-time parameters (`PmuParams`): the blocks
//! write their own Verilog and keep a plain-Rust twin for native simulation.
//!
//! Section numbers (§) in this folder refer to docs/pmu.md, the PMU's documentation.
pub mod counter;
pub mod driver;
pub mod event_decoder;
pub mod event_fields;
pub mod event_key;
mod event_keys;
pub mod event_layout;
mod event_parse;
pub mod event_sampler;
pub mod event_select;
pub mod event_sums;
pub mod event_table;
pub mod formal;
pub mod global_control;
pub mod groups;
pub mod input_stage;
pub mod params;
pub mod port_sources;
pub mod profile;
pub mod register_port;
pub mod regmap;
pub mod regmap_export;
mod schedule;
pub mod shadow_control;
#[cfg(test)]
pub mod testing;
pub mod top;
pub mod trace;
pub mod tsc;
mod wiring;
