//! pmugen-sim: reference models written from the design docs, stimulus generators and the
//! Verilator co-simulation harness. Nothing here depends on the hardware code.
pub mod ports;
pub mod reference;
pub mod stimulus;
pub mod tools;
pub mod verilator;
