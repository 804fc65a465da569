//! pmugen: generate, simulate and report synthesizable performance-monitoring
//! hardware. The CLI in `main.rs` is a thin layer over these modules.
pub mod bench;
pub mod build;
pub mod design;
pub mod flags;
pub mod generate;
pub mod host;
pub mod native;
pub mod plan;
pub mod profile;
pub mod prove;
pub mod report;
pub mod simulate;
pub mod soc;
pub mod staging;
pub mod sweep;
pub mod toolchain;
pub mod trace;
pub mod vcd;
