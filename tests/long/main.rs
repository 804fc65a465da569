//! Every test that runs for more than a few seconds: long random co-simulations
//! (native model, Verilator and reference model in lockstep, also behind each bus),
//! syntheses and place-and-route runs (budget reports, bitstreams), lint and yosys on
//! many configurations, FuseSoC runs, and the commands that build Verilator models of
//! several sizes. They are in one binary so that they run side by side, one per core,
//! instead of one binary after another. A module whose subject also has short tests
//! has a namesake with them in tests/designs, tests/outputs or tests/cli.
#[path = "../common/mod.rs"]
mod common;

mod board_build;
mod budget;
mod bus32_cosim;
mod bus_cosim;
mod bus_wrappers;
mod cli;
mod cores;
mod cosim;
mod cosim_options;
mod families;
mod frictions;
mod fusesoc;
mod litex;
mod pmu_configs;
mod pmu_cosim;
mod profile;
mod prove;
mod rvfi;
mod soc;
mod soc_adapter;
mod soc_board;
mod soc_cpus;
mod soc_examples;
mod sweep;
mod verilog_validity;
