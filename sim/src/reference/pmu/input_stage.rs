//! §4's input latency: the event-side inputs (`events`, `core_events`, `kernel`,
//! `pm_mark`, and part D's `bb_end`, `bb_addr`, `pid`) act one cycle late. This stage
//! holds the values sampled at the previous edge, already split into per-event fields;
//! it is all 0 at power-on and right after a reset edge (the inputs sampled at the
//! reset edge are dropped).
use super::layout::InputLayout;
use crate::ports::pmu::{get_bits, EventScope, PmuInputs};

/// The event-side inputs as they act during the current cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct InputStage {
    /// `thread_fields[t][e]`: thread t's field of thread-scope event e (0 for core-scope).
    thread_fields: Vec<Vec<u64>>,
    /// `core_fields[e]`: core-scope event e's field (0 for thread-scope).
    core_fields: Vec<u64>,
    /// `kernel`, bits t < T only.
    kernel: u8,
    /// `pm_mark`, bits t < T only.
    pm_mark: u8,
    /// `bb_end`, bits t < T only.
    bb_end: u8,
    /// `bb_addr`: thread t's AW-bit block address (0 for t >= T).
    bb_addr: [u64; 4],
    /// `pid`: thread t's process id (0 for t >= T).
    pid: [u32; 4],
}

impl InputStage {
    /// The stage after reset: every input reads 0.
    pub(super) fn cleared(threads: usize, events: usize) -> Self {
        Self {
            thread_fields: vec![vec![0; events]; threads],
            core_fields: vec![0; events],
            kernel: 0,
            pm_mark: 0,
            bb_end: 0,
            bb_addr: [0; 4],
            pid: [0; 4],
        }
    }

    /// What the stage takes at an edge from the inputs sampled there. Bits outside the
    /// ports' widths (T bits for kernel, pm_mark and bb_end, AW bits per address, the
    /// elements of threads t >= T) do not exist in hardware: ignored.
    pub(super) fn sample(inputs: &PmuInputs, layout: &InputLayout, threads: usize, address_width: usize) -> Self {
        let thread_mask = ((1u16 << threads) - 1) as u8;
        let events = layout.fields.len();
        let mut stage = Self::cleared(threads, events);
        for (event, field) in layout.fields.iter().enumerate() {
            match field.scope {
                EventScope::Thread => {
                    for (thread, fields) in stage.thread_fields.iter_mut().enumerate() {
                        fields[event] = get_bits(&inputs.events, layout.port_lsb(event, thread), field.width);
                    }
                }
                EventScope::Core => {
                    stage.core_fields[event] = get_bits(&inputs.core_events, field.lsb, field.width);
                }
            }
        }
        stage.kernel = inputs.kernel & thread_mask;
        stage.pm_mark = inputs.pm_mark & thread_mask;
        stage.bb_end = inputs.bb_end & thread_mask;
        let address_mask = (1u64 << address_width) - 1;
        for thread in 0..threads {
            stage.bb_addr[thread] = inputs.bb_addr[thread] & address_mask;
            stage.pid[thread] = inputs.pid[thread];
        }
        stage
    }

    /// Thread `thread`'s field of thread-scope event `event`.
    pub(super) fn thread_field(&self, thread: usize, event: usize) -> u64 {
        self.thread_fields[thread][event]
    }

    /// The sum of event `event`'s fields over all T threads (ANY = 1, §4.2).
    pub(super) fn all_threads_field(&self, event: usize) -> u64 {
        self.thread_fields.iter().map(|fields| fields[event]).sum()
    }

    /// Core-scope event `event`'s field.
    pub(super) fn core_field(&self, event: usize) -> u64 {
        self.core_fields[event]
    }

    /// `kernel` as a bit vector (bit t = thread t in ring 0).
    pub(super) fn kernel_bits(&self) -> u8 {
        self.kernel
    }

    /// Thread `thread` runs in ring 0.
    pub(super) fn kernel(&self, thread: usize) -> bool {
        self.kernel >> thread & 1 == 1
    }

    /// Thread `thread` runs a marked process.
    pub(super) fn pm_mark(&self, thread: usize) -> bool {
        self.pm_mark >> thread & 1 == 1
    }

    /// Thread `thread` ends a basic block (docs/pmu.md §13.1).
    pub(super) fn bb_end(&self, thread: usize) -> bool {
        self.bb_end >> thread & 1 == 1
    }

    /// Thread `thread`'s address of the block that ends, AW bits.
    pub(super) fn bb_addr(&self, thread: usize) -> u64 {
        self.bb_addr[thread]
    }

    /// Thread `thread`'s current process id.
    pub(super) fn pid(&self, thread: usize) -> u32 {
        self.pid[thread]
    }
}
