//! pmugen-hdl: synthesizable performance-monitoring blocks written with rust-hdl.
//!
//! `monitor/` holds the event-order monitor of SPEC part A, one block per file; the
//! folder reads like the block diagram in `monitor/top.rs`.
pub mod board;
pub mod custom;
pub mod emit;
pub mod monitor;
pub mod params;
#[cfg(test)]
pub mod testing;
