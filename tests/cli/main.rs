//! The command line: bad input is refused clearly and writes nothing, each command
//! writes what it says, and the batch planner's commands and files (`plan`, `merge`).
//! Every test here takes at most a few seconds; the commands that build Verilator
//! models of several sizes, or one into a fresh cache, are in tests/long. One binary
//! for all of them: the crate graph is linked once and the tests share the cores.
#[path = "../common/mod.rs"]
mod common;

mod cli;
mod frictions;
mod plan;
mod plan_cli;
mod plan_files;
mod profile;
mod soc;
mod sweep;
mod trace_input;
