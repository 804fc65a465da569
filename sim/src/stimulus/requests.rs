//! The register accesses a design's random stimulus asks of a bus master
//! ([`RegisterRequest`], from a [`DesignStimulus`]) and the queues they wait in for the
//! bus ([`PendingRequests`]). The monitor's stimulus sweeps the map, so only its latest
//! read waits; on a window that splits registers (the PMU behind a 32-bit slave) a
//! request names the word it reaches and may carry a spoiling of its own, and the
//! stimulus of `narrow.rs` asks for sequences of words, which wait in order: a
//! cycle's requests join the queues together or not at all.
use std::collections::VecDeque;

use super::{PmuStimulus, RandomStimulus};
use crate::ports::bus::BusShape;
use crate::ports::pmu::PmuInputs;
use crate::ports::MonitorInputs;

/// Writes waiting for the bus; later write requests are dropped while it is full.
const WRITE_QUEUE: usize = 8;

/// A register access that a design's stimulus asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterRequest {
    /// A write (else a read).
    pub write: bool,
    /// The thread bank (PMU).
    pub thread: u8,
    /// The register (word) address.
    pub register: u8,
    /// Write data.
    pub data: u64,
    /// Ring 0 (PMU).
    pub privileged: bool,
    /// The high word (+4) of the register, on a window that splits registers.
    pub high: bool,
    /// A spoiling the access must have (besides the master's random ones).
    pub spoil: Option<Spoil>,
}

impl RegisterRequest {
    /// A request of the whole register (or its low word), unspoiled.
    pub fn new(write: bool, thread: u8, register: u8, data: u64, privileged: bool) -> Self {
        Self { write, thread, register, data, privileged, high: false, spoil: None }
    }
}

/// How a request is spoiled on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spoil {
    /// Byte-offset bits set.
    Misaligned,
    /// A write whose strobes are not all ones.
    PartialStrobes,
}

/// A design's random stimulus as seen from a bus.
pub trait DesignStimulus {
    /// The bare design's inputs.
    type Inputs: Clone;
    /// The design's bus window.
    const SHAPE: BusShape;
    /// Reads waiting for the bus: 1 keeps only the latest request (a sweep of the
    /// map), more keep them in order (sequences of words).
    const READ_QUEUE: usize = 1;
    /// The next cycle's inputs (their register-port fields are not used) and the
    /// register accesses asked for in that cycle, appended to `requests`.
    fn next_cycle(&mut self, requests: &mut Vec<RegisterRequest>) -> Self::Inputs;
    /// `reset` of these inputs.
    fn in_reset(inputs: &Self::Inputs) -> bool;
}

impl DesignStimulus for RandomStimulus {
    type Inputs = MonitorInputs;
    const SHAPE: BusShape = BusShape::MONITOR;

    fn next_cycle(&mut self, requests: &mut Vec<RegisterRequest>) -> MonitorInputs {
        let inputs = self.next_inputs();
        // The monitor's stimulus writes, or else reads the next address of its sweep.
        requests.push(RegisterRequest::new(inputs.reg_write, 0, inputs.reg_addr, inputs.reg_wdata as u64, false));
        // The wrapped top has no register port: leave it idle.
        MonitorInputs { reg_addr: 0, reg_wdata: 0, reg_write: false, ..inputs }
    }
    fn in_reset(inputs: &MonitorInputs) -> bool {
        inputs.reset
    }
}

impl DesignStimulus for PmuStimulus {
    type Inputs = PmuInputs;
    const SHAPE: BusShape = BusShape::PMU;

    fn next_cycle(&mut self, requests: &mut Vec<RegisterRequest>) -> PmuInputs {
        let mut inputs = self.next_inputs();
        let request =
            |write| RegisterRequest::new(write, inputs.reg_thread, inputs.reg_addr, inputs.reg_wdata, inputs.reg_priv);
        // A cycle that reads and writes gives two requests: on the bus they may be
        // offered together, and the write must go first.
        if inputs.reg_write {
            requests.push(request(true));
        }
        if inputs.reg_read {
            requests.push(request(false));
        }
        // The wrapped top has no register port: leave it idle.
        (inputs.reg_thread, inputs.reg_priv, inputs.reg_addr, inputs.reg_wdata) = (0, false, 0, 0);
        (inputs.reg_write, inputs.reg_read) = (false, false);
        inputs
    }
    fn in_reset(inputs: &PmuInputs) -> bool {
        inputs.reset
    }
}

/// The register accesses waiting for a bus master.
#[derive(Clone, Debug)]
pub struct PendingRequests {
    writes: VecDeque<RegisterRequest>,
    reads: VecDeque<RegisterRequest>,
    read_queue: usize,
}

impl PendingRequests {
    /// Empty queues that keep `read_queue` reads (1: only the latest).
    pub fn new(read_queue: usize) -> Self {
        Self { writes: VecDeque::new(), reads: VecDeque::new(), read_queue }
    }
    pub(super) fn add(&mut self, request: RegisterRequest) {
        if request.write {
            if self.writes.len() < WRITE_QUEUE {
                self.writes.push_back(request);
            }
        } else if self.read_queue == 1 {
            self.reads.clear();
            self.reads.push_back(request);
        } else if self.reads.len() < self.read_queue {
            self.reads.push_back(request);
        }
    }
    /// One cycle's requests: with a read queue, all of them if they fit, else none
    /// (a sequence of words is not cut), otherwise one by one.
    pub(super) fn add_cycle(&mut self, requests: &[RegisterRequest]) {
        if self.read_queue > 1 {
            let writes = requests.iter().filter(|request| request.write).count();
            let reads = requests.len() - writes;
            if self.writes.len() + writes > WRITE_QUEUE || self.reads.len() + reads > self.read_queue {
                return;
            }
        }
        requests.iter().for_each(|request| self.add(*request));
    }
    pub(super) fn clear(&mut self) {
        self.writes.clear();
        self.reads.clear();
    }
    pub(super) fn take_write(&mut self) -> Option<RegisterRequest> {
        self.writes.pop_front()
    }
    pub(super) fn take_read(&mut self) -> Option<RegisterRequest> {
        self.reads.pop_front()
    }
    pub(super) fn has_write(&self) -> bool {
        !self.writes.is_empty()
    }
}

impl Default for PendingRequests {
    fn default() -> Self {
        Self::new(1)
    }
}
