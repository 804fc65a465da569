//! The designs attached to a RISC-V core (`--rvfi`, docs/soc.md) as the tests build
//! them: the `_rvfi` PMU with the RISC-V table, the `_rvfi` monitor with its events.
#![allow(dead_code)]

use pmugen::design::rvfi::{RvfiMonitorDesign, RvfiPmuDesign};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::rvfi::params::RvfiOptions;

/// The `_rvfi` PMU of T threads and K counters of 40 bits, with the RISC-V table.
pub fn pmu(threads: usize, counters: usize, options: RvfiOptions) -> RvfiPmuDesign {
    let params = PmuParams::new(threads as u64, counters as u64, 40, EventTable::riscv_table()).unwrap();
    RvfiPmuDesign::new(params, options, "riscv.json").unwrap()
}

/// The `_rvfi` monitor of N events (W = 3) whose lines are `names` ("CALL,RETURN").
pub fn monitor(events: usize, names: &str, options: RvfiOptions) -> RvfiMonitorDesign {
    let names: Vec<String> = names.split(',').map(str::to_string).collect();
    RvfiMonitorDesign::new(MonitorParams::new(events as u64, 3).unwrap(), options, &names).unwrap()
}
