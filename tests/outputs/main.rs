//! The generated files and the tools that read them: the committed outputs are up to
//! date, the docs' tables and templates match the generated ones, the bus wrappers,
//! register descriptions, timing diagrams, cocotb bench and Icarus example work with
//! the generated Verilog, and the C drivers build and make the register map's
//! accesses. Every test here takes at most a few seconds; lint and synthesis of many
//! configurations, FuseSoC runs and bitstreams are in tests/long.
//! One binary for all of them: the crate graph is linked once and the tests share the
//! cores.
#[path = "../common/mod.rs"]
mod common;

mod board_build;
mod bus_wrappers;
mod c_driver;
mod cocotb;
mod generated;
mod icarus_example;
mod litex;
mod readme;
mod register_descriptions;
mod rvfi;
mod sweep_docs;
mod timing_diagrams;
