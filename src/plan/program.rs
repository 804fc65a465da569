//! What a driver does on one core in one run (docs/pmu.md §14.2): the register writes
//! before the run, the write that stops the counters after it, and the reads. Every
//! address and field position comes from the PMU's register table.
use serde::{Deserialize, Serialize};

use super::assign::RunAssignment;
use super::{Modes, PlannedEvent, Run};
use pmugen_hdl::pmu::regmap::{evtsel, Field, Register, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL};

/// The program of one core in one run. All accesses are ring 0, in thread 0's bank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreProgram {
    /// The core, 0..C.
    pub core: usize,
    /// The register bank (`reg_thread`): always 0.
    pub thread: usize,
    /// Before the run, in this order.
    pub writes: Vec<RegisterWrite>,
    /// After the run, before the reads: stop every counter so the reads agree.
    pub stop: Vec<RegisterWrite>,
    /// After `stop`: one read per counter used, with the event it counted.
    pub reads: Vec<RegisterRead>,
}

/// A register write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterWrite {
    /// The register's name, e.g. `PERF_EVTSEL[1]`.
    pub register: String,
    /// Its address on the register port.
    pub address: u8,
    /// The value written.
    pub value: u64,
}

/// A counter read after the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterRead {
    /// `PERF_CNTR[i]`.
    pub register: String,
    /// Its address.
    pub address: u8,
    /// i.
    pub counter: usize,
    /// The event counter i counted in this run.
    pub event: String,
}

/// `field` set to `value` in place.
fn put(field: Field, value: u64) -> u64 {
    value << field.lsb
}

/// The PERF_EVTSEL value counting (code, umask) with the plan's modes, enabled;
/// E, INT, INV and CMASK 0, so the counter adds every occurrence (docs/pmu.md §4.5).
pub fn event_select(code: u8, umask: u8, modes: Modes) -> u64 {
    put(evtsel::EVENT, code as u64)
        | put(evtsel::UMASK, umask as u64)
        | put(evtsel::USR, modes.usr as u64)
        | put(evtsel::OS, modes.os as u64)
        | put(evtsel::ANY, modes.all_threads as u64)
        | put(evtsel::EN, 1)
}

fn indexed(register: &Register, index: usize) -> (String, u8) {
    (format!("{}[{index}]", register.name), register.addr + index as u8)
}

fn write(register: &Register, index: Option<usize>, value: u64) -> RegisterWrite {
    let (register, address) = match index {
        Some(index) => indexed(register, index),
        None => (register.name.to_string(), register.addr),
    };
    RegisterWrite { register, address, value }
}

/// Run `run`'s programs: `assignment` places the events `group` (indices into
/// `events`, the run's events in order).
pub fn run(run: usize, assignment: &RunAssignment, group: &[usize], events: &[PlannedEvent]) -> Run {
    let mut cores: Vec<CoreProgram> = Vec::new();
    for slot in &assignment.slots {
        if cores.last().is_none_or(|program| program.core != slot.core) {
            cores.push(CoreProgram {
                core: slot.core,
                thread: 0,
                writes: Vec::new(),
                stop: Vec::new(),
                reads: Vec::new(),
            });
        }
        let program = cores.last_mut().expect("pushed");
        let event = &events[group[slot.event]];
        program.writes.push(write(&PERF_CNTR, Some(slot.counter), 0));
        program.writes.push(write(&PERF_EVTSEL, Some(slot.counter), event.evtsel));
        let (register, address) = indexed(&PERF_CNTR, slot.counter);
        program.reads.push(RegisterRead { register, address, counter: slot.counter, event: event.name.clone() });
    }
    for program in &mut cores {
        let enable = program.reads.iter().fold(0u64, |mask, read| mask | 1 << read.counter);
        program.writes.push(write(&PERF_GLOBAL_CTRL, None, enable));
        program.stop.push(write(&PERF_GLOBAL_CTRL, None, 0));
    }
    Run { run, regime: assignment.regime, placement: assignment.placement, cores }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_select_sets_the_asked_modes_and_enable_only() {
        let modes = Modes { usr: true, os: false, all_threads: true };
        let value = event_select(0x2A, 0x05, modes);
        assert_eq!(value, 0x2A | 0x05 << 8 | 1 << 16 | 1 << 21 | 1 << 22);
        assert_eq!(value & !evtsel::WRITABLE, 0, "only bits an EVTSEL keeps");
    }
}
