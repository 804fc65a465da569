//! pmugen-hdl: synthesizable performance-monitoring blocks written with rust-hdl.
//!
//! `monitor/` holds the event-order monitor, `pmu/` the Knights Corner-style PMU,
//! `board/` the board top around the monitor; one block per file, each folder reads
//! like its design's block diagram (`monitor/top.rs`, `pmu/top.rs`).
pub mod board;
pub mod bus;
pub mod custom;
pub mod dyn_signal;
pub mod emit;
pub mod flip_flops;
pub mod formal;
pub mod monitor;
pub mod optional;
pub mod params;
pub mod pmu;
pub mod regmap;
pub mod rvfi;
pub mod schedule;
pub mod testing;
pub mod top_ports;
pub mod word;
