//! Random stimulus for the PMU, reproducible from a seed.
//!
//! Every cycle drives event counts (mostly 0 or 1, sometimes up to the field's
//! maximum, which can exceed PerCycleMax), rare kernel and pm_mark changes per thread
//! (so shadows save and restore, and freezes start and end), and a register access:
//! reads that sweep every address (defined or not) from every thread number (T and
//! above too) in both rings, and writes weighted towards useful settings: event selects
//! naming table events (with every mode, CMASK, INV, E, ANY and INT), counters set
//! just below 2^CW (so overflows and pmi happen), overflow clears, shadows, the
//! control registers, ring-3 SPFLT writes, and writes to unlisted addresses. Some
//! cycles read and write the same address; resets are rare.
//!
//! For the trace unit: block ends per thread (sparse, or in bursts of one per cycle),
//! block addresses, pids from a small set that changes now and then, TRACE_CTRL
//! (mostly enabled, sometimes filtered, sometimes naming a thread >= T), TRACE_PID and
//! TRACE_DROPPED writes, and `trace_ready` in phases: always ready, random, or held low
//! long enough to fill the queue and drop records.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ports::pmu::{set_bits, EventScope, PmuConfig, PmuInputs};

/// The addresses the stimulus reads and writes (§6 of the register map).
mod addr {
    pub const TSC: u8 = 0x10;
    pub const CNTR: u8 = 0x20;
    pub const EVTSEL: u8 = 0x28;
    pub const SPFLT_CONTROL: u8 = 0x2C;
    pub const OVF_CTRL: u8 = 0x2E;
    pub const GLOBAL_CTRL: u8 = 0x2F;
    pub const SHADOW: u8 = 0x30;
    pub const SHADOW_CTRL: u8 = 0x38;
    pub const FREEZE_CTRL: u8 = 0x39;
    pub const USER_ACCESS: u8 = 0x3E;
    pub const SPFLT: u8 = 0x3F;
    pub const TRACE_CTRL: u8 = 0x40;
    pub const TRACE_PID: u8 = 0x41;
    pub const TRACE_DROPPED: u8 = 0x42;
    pub const PROFILE_CTRL: u8 = 0x43;
    pub const PROFILE_EVICTED: u8 = 0x44;
}

/// How `trace_ready` behaves for a while.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReadyPhase {
    Always,
    Random,
    Stalled,
}

/// The stimulus stream of one PMU configuration.
pub struct PmuStimulus {
    rng: ChaCha8Rng,
    config: PmuConfig,
    /// (scope, lsb, width) of each event's field, table order.
    fields: Vec<(EventScope, usize, usize)>,
    thread_width: usize,
    kernel: u8,
    pm_mark: u8,
    read_cursor: usize,
    pids: [u32; 4],
    ready_phase: ReadyPhase,
    phase_left: usize,
    burst_left: usize,
}

impl PmuStimulus {
    /// Stimulus for `config` from `seed`.
    pub fn new(config: &PmuConfig, seed: u64) -> Self {
        // §2 packing, recomputed here: table order, LSB first, per scope.
        let (mut thread_at, mut core_at) = (0, 0);
        let mut fields = Vec::new();
        for event in &config.events {
            let width = (u8::BITS - event.per_cycle_max.max(1).leading_zeros()) as usize;
            let at = if event.scope == EventScope::Thread { &mut thread_at } else { &mut core_at };
            fields.push((event.scope, *at, width));
            *at += width;
        }
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            config: config.clone(),
            fields,
            thread_width: thread_at,
            kernel: 0,
            pm_mark: 0,
            read_cursor: 0,
            pids: [1, 2, 1, 3],
            ready_phase: ReadyPhase::Always,
            phase_left: 0,
            burst_left: 0,
        }
    }

    fn event_count(&mut self, width: usize) -> u64 {
        match self.rng.gen_range(0..100) {
            0..=54 => 0,
            55..=89 => 1,
            _ => self.rng.gen_range(0..1u64 << width),
        }
    }

    fn drive_events(&mut self, inputs: &mut PmuInputs) {
        for index in 0..self.fields.len() {
            let (scope, lsb, width) = self.fields[index];
            match scope {
                EventScope::Thread => {
                    for thread in 0..self.config.threads {
                        let value = self.event_count(width);
                        set_bits(&mut inputs.events, thread * self.thread_width + lsb, width, value);
                    }
                }
                EventScope::Core => {
                    let value = self.event_count(width);
                    set_bits(&mut inputs.core_events, lsb, width, value);
                }
            }
        }
    }

    /// An EVTSEL value: mostly a table event, enabled, in some ring.
    fn event_select(&mut self) -> u64 {
        let rng = &mut self.rng;
        let code = if rng.gen_bool(0.9) {
            let event = &self.config.events[rng.gen_range(0..self.config.events.len())];
            (event.umask as u64) << 8 | event.code as u64
        } else {
            rng.gen::<u64>() & 0xFFFF
        };
        let flag = |rng: &mut ChaCha8Rng, bit: u32, p: f64| (rng.gen_bool(p) as u64) << bit;
        let cmask = match rng.gen_range(0..10) {
            0..=6 => 0,
            7..=8 => rng.gen_range(1..4),
            _ => rng.gen::<u64>() & 0xFF,
        };
        let junk = rng.gen::<u64>() & 0xFFFF_FFFF_0008_0000; // bit 19 and bits 63:32 are ignored
        code | flag(rng, 16, 0.7)
            | flag(rng, 17, 0.6)
            | flag(rng, 18, 0.15)
            | flag(rng, 20, 0.5)
            | flag(rng, 21, 0.25)
            | flag(rng, 22, 0.9)
            | flag(rng, 23, 0.2)
            | cmask << 24
            | junk
    }

    /// A pid from a small set, so that filters match and processes recur.
    fn some_pid(&mut self) -> u32 {
        if self.rng.gen_bool(0.9) {
            self.rng.gen_range(1..5)
        } else {
            self.rng.gen()
        }
    }

    /// A TRACE_CTRL value: mostly enabled, sometimes filtered, any thread number.
    fn trace_control(&mut self) -> u64 {
        let rng = &mut self.rng;
        let thread = if rng.gen_bool(0.9) { rng.gen_range(0..self.config.threads as u64) } else { rng.gen_range(0..4) };
        let junk = rng.gen::<u64>() & !0x33;
        rng.gen_bool(0.6) as u64 | (rng.gen_bool(0.3) as u64) << 1 | thread << 4 | junk
    }

    /// A block address: any, or with a profile table mostly one of a few, so that the
    /// table's entries are hit, collide and are evicted.
    fn block_address(&mut self) -> u64 {
        if self.config.profile_entries != 0 && self.rng.gen_bool(0.8) {
            return [0x400, 0x402, 0x480, 0x4_0400, 0x1000, 0x1_1000, 0x20, 0xFFFE][self.rng.gen_range(0..8)];
        }
        self.rng.gen()
    }

    /// The trace inputs of one cycle: block ends, addresses, pids, and `trace_ready`.
    fn drive_trace(&mut self, inputs: &mut PmuInputs) {
        let depth = self.config.trace_depth;
        if self.burst_left == 0 && self.rng.gen_ratio(1, 400) {
            self.burst_left = self.rng.gen_range(1..3 * depth.min(256));
        }
        let burst = self.burst_left > 0;
        self.burst_left = self.burst_left.saturating_sub(1);
        let address_mask = u64::MAX >> (64 - self.config.address_width);
        for thread in 0..self.config.threads {
            if self.rng.gen_ratio(1, 300) {
                self.pids[thread] = self.some_pid();
            }
            // Sparse block ends outside bursts: each one restarts the traced counters,
            // which must still reach their overflow often enough.
            let ends = if burst { self.rng.gen_bool(0.9) } else { self.rng.gen_ratio(1, 30) };
            inputs.bb_end |= (ends as u8) << thread;
            inputs.bb_addr[thread] = self.block_address() & address_mask;
            inputs.pid[thread] = self.pids[thread];
        }
        if self.phase_left == 0 {
            (self.ready_phase, self.phase_left) = match self.rng.gen_range(0..10) {
                0..=4 => (ReadyPhase::Always, self.rng.gen_range(1..400)),
                5..=7 => (ReadyPhase::Random, self.rng.gen_range(1..400)),
                _ => (ReadyPhase::Stalled, self.rng.gen_range(1..4 * depth.min(512) + 8)),
            };
        }
        self.phase_left -= 1;
        inputs.trace_ready = match self.ready_phase {
            ReadyPhase::Always => true,
            ReadyPhase::Random => self.rng.gen_bool(0.5),
            ReadyPhase::Stalled => false,
        };
    }

    /// A register write: (address, data).
    fn write(&mut self) -> (u8, u64) {
        let k = self.config.counters as u8;
        let counter_top = if self.config.counter_width == 64 { u64::MAX } else { (1 << self.config.counter_width) - 1 };
        let rng = &mut self.rng;
        let index = rng.gen_range(0..k + 1).min(k - 1 + rng.gen_bool(0.05) as u8); // sometimes i = K
        match rng.gen_range(0..110) {
            0..=29 => (addr::EVTSEL + index, self.event_select()),
            30..=44 => {
                let value = if rng.gen_bool(0.6) { counter_top - rng.gen_range(0..64) } else { rng.gen() };
                (addr::CNTR + index, value)
            }
            45..=54 => (addr::GLOBAL_CTRL, if rng.gen_bool(0.8) { u64::MAX } else { rng.gen() }),
            55..=63 => (addr::OVF_CTRL, rng.gen()),
            64..=67 => {
                (addr::SHADOW + index, if rng.gen_bool(0.5) { counter_top - rng.gen_range(0..64) } else { rng.gen() })
            }
            68..=72 => (addr::SHADOW_CTRL, rng.gen()),
            73..=76 => (addr::FREEZE_CTRL, rng.gen::<u64>() & !1 | rng.gen_bool(0.3) as u64),
            77..=80 => (addr::USER_ACCESS, if rng.gen_bool(0.6) { 7 } else { rng.gen() }),
            81..=85 => (addr::SPFLT_CONTROL, rng.gen()),
            86..=91 => (addr::SPFLT, rng.gen()),
            92..=93 => (addr::TSC, if rng.gen_bool(0.5) { u64::MAX - rng.gen_range(0..16) } else { rng.gen() }),
            94..=99 => (addr::TRACE_CTRL, self.trace_control()),
            100..=102 => {
                let high = rng.gen::<u64>() << 32;
                (addr::TRACE_PID, self.some_pid() as u64 | high)
            }
            103..=105 => (addr::TRACE_DROPPED, rng.gen()),
            // With a profile table (docs/pmu.md §15): summarizing mostly, flushes now and then.
            106..=107 if self.config.profile_entries != 0 => {
                (addr::PROFILE_CTRL, [1, 1, 1, 3, 0, 2][rng.gen_range(0..6)])
            }
            108 if self.config.profile_entries != 0 => (addr::PROFILE_EVICTED, rng.gen()),
            _ => (rng.gen(), rng.gen()),
        }
    }

    /// The next read address: mostly a defined register of this configuration
    /// (where the values change), sometimes the next address of a sweep over all 256.
    fn next_read_address(&mut self) -> u8 {
        let k = self.config.counters as u8;
        if self.rng.gen_bool(0.15) {
            self.read_cursor = (self.read_cursor + 1) % 256;
            return self.read_cursor as u8;
        }
        let defined = [
            0x00,
            addr::TSC,
            addr::SPFLT_CONTROL,
            0x2D,
            addr::OVF_CTRL,
            addr::GLOBAL_CTRL,
            addr::SHADOW_CTRL,
            addr::FREEZE_CTRL,
            addr::USER_ACCESS,
            addr::TRACE_CTRL,
            addr::TRACE_PID,
            addr::TRACE_DROPPED,
        ];
        if self.config.profile_entries != 0 && self.rng.gen_ratio(1, 8) {
            return [addr::PROFILE_CTRL, addr::PROFILE_EVICTED][self.rng.gen_range(0..2)];
        }
        match self.rng.gen_range(0..4) {
            0 => addr::CNTR + self.rng.gen_range(0..k),
            1 => addr::EVTSEL + self.rng.gen_range(0..k),
            2 => addr::SHADOW + self.rng.gen_range(0..k),
            _ => defined[self.rng.gen_range(0..defined.len())],
        }
    }

    /// The next cycle's inputs.
    pub fn next_inputs(&mut self) -> PmuInputs {
        let threads = self.config.threads;
        let mut inputs = PmuInputs::default();
        self.drive_events(&mut inputs);
        for thread in 0..threads {
            if self.rng.gen_ratio(1, 40) {
                self.kernel ^= 1 << thread;
            }
            if self.rng.gen_ratio(1, 60) {
                self.pm_mark ^= 1 << thread;
            }
        }
        inputs.kernel = self.kernel;
        inputs.pm_mark = self.pm_mark;
        self.drive_trace(&mut inputs);
        // Mostly a thread that exists, sometimes one that does not (denied).
        inputs.reg_thread =
            if self.rng.gen_bool(0.95) { self.rng.gen_range(0..threads as u8) } else { self.rng.gen_range(0..4) };
        inputs.reg_priv = self.rng.gen_bool(0.85);
        inputs.reg_wdata = self.rng.gen();
        match self.rng.gen_range(0..100) {
            0..=39 => {
                inputs.reg_read = true;
                inputs.reg_addr = self.next_read_address();
            }
            40..=61 => {
                (inputs.reg_addr, inputs.reg_wdata) = self.write();
                inputs.reg_write = true;
                inputs.reg_priv = self.rng.gen_bool(0.9) || inputs.reg_addr == addr::SPFLT && self.rng.gen_bool(0.5);
            }
            62..=66 => {
                (inputs.reg_addr, inputs.reg_wdata) = self.write();
                inputs.reg_write = true;
                inputs.reg_read = true;
            }
            _ => inputs.reg_addr = self.rng.gen(),
        }
        inputs.reset = self.rng.gen_ratio(1, 5000);
        inputs
    }
}

impl Iterator for PmuStimulus {
    type Item = PmuInputs;
    fn next(&mut self) -> Option<PmuInputs> {
        Some(self.next_inputs())
    }
}
