//! Whole-design behaviour: the monitor, the PMU and the batch planner against
//! hand-written expectations and against the reference models, on the native rust-hdl
//! models and on the generated Verilog under Verilator. Every test here takes at most
//! a few seconds; the long random co-simulations are in tests/long. One binary for all
//! of them: the crate graph is linked once and the tests share the cores.
#[path = "../common/mod.rs"]
mod common;

mod cosim;
mod differential;
mod host_link;
mod plan_e2e;
mod pmu_precedence;
mod pmu_privilege;
mod pmu_seed001;
mod pmu_seed001_cmask;
mod pmu_seed001_pmi;
mod pmu_seed002;
mod pmu_smoke;
mod pmu_trace;
mod rvfi;
mod spec_rules;
mod worked_example;
