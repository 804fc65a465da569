//! A random program for docs/pmu.md §15.5's accounting (the accounting test prints its
//! seed): a PMU with T = 2, K = 2, CW = 16, AW = 16, E = 16 and D records whose counters
//! count every cycle; block ends of both threads at addresses from a small set and pids
//! 1..=3; trace_ready with stalls of a few cycles; now and then a TRACE_CTRL write
//! (traced thread, PID_FILTER), a TRACE_PID write, a flush, a counter written near 2^16,
//! or SUMMARIZE toggled. The model's record log keeps every record made, whether it was
//! dropped, and SUMMARIZE when it was made.
use super::super::super::addr::{self, trace_ctrl};
use super::super::trace::start_counting;
use super::super::{knc_config, Bench};
use super::{FLUSH, SUMMARIZE};
use crate::ports::pmu::PmuConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(super) const ADDRESS_WIDTH: usize = 16;

/// The driver's program around a SUMMARIZE toggle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Tracing,
    /// TRACE_EN cleared; waiting for the queue to empty.
    Draining,
    /// SUMMARIZE toggled; TRACE_EN comes back next.
    Resuming,
}

pub(super) struct Driver {
    pub(super) bench: Bench,
    rng: ChaCha8Rng,
    /// Toggle SUMMARIZE only with TRACE_EN = 0 and the queue empty.
    safe: bool,
    /// SUMMARIZE and TRACE_CTRL as last written.
    summarize: bool,
    control: u64,
    phase: Phase,
    /// Cycles spent draining so far.
    draining: usize,
    addresses: Vec<u64>,
    block_rate: f64,
    /// Every record made: its words, whether it was dropped, SUMMARIZE when made.
    pub(super) made: Vec<(Vec<u64>, bool, bool)>,
}

impl Driver {
    pub(super) fn new(seed: u64, depth: usize, safe: bool) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let config =
            PmuConfig { trace_depth: depth, address_width: ADDRESS_WIDTH, profile_entries: 16, ..knc_config(2, 2, 16) };
        let mut bench = Bench::new(config);
        start_counting(&mut bench);
        bench.pmu.log_trace_records();
        let addresses = (0..24).map(|_| rng.gen_range(0..1 << ADDRESS_WIDTH)).collect();
        let block_rate = rng.gen_range(0.05..0.3);
        let mut driver = Self {
            bench,
            rng,
            safe,
            summarize: false,
            control: 0,
            phase: Phase::Tracing,
            draining: 0,
            addresses,
            block_rate,
            made: vec![],
        };
        driver.step(Some((addr::TRACE_CTRL as u16, trace_ctrl::TRACE_EN)));
        driver
    }

    /// One cycle with new random event-side inputs and `write` (ring 0; bank 0, or bank
    /// 1 for an address with 0x100 added).
    fn step(&mut self, write: Option<(u16, u64)>) {
        let rng = &mut self.rng;
        let inputs = &mut self.bench.inputs;
        inputs.bb_end = (0..2).fold(0, |bits, thread| bits | (rng.gen_bool(self.block_rate) as u8) << thread);
        for thread in 0..2 {
            inputs.bb_addr[thread] = self.addresses[rng.gen_range(0..self.addresses.len())];
            if rng.gen_bool(0.03) {
                inputs.pid[thread] = rng.gen_range(1..=3);
            }
        }
        self.vary_ready();
        match write {
            Some((banked, data)) => {
                let address = banked as u8;
                match address {
                    addr::TRACE_CTRL => self.control = data,
                    addr::PROFILE_CTRL => self.summarize = data & SUMMARIZE != 0,
                    _ => {}
                }
                self.bench.write((banked >> 8) as usize, address, data);
            }
            None => {
                self.bench.tick();
            }
        }
        let summarize = self.summarize;
        self.made.extend(
            self.bench.pmu.take_trace_records().into_iter().map(|(words, dropped)| (words, dropped, summarize)),
        );
    }

    /// trace_ready for the next cycle: stalls of a few cycles now and then.
    fn vary_ready(&mut self) {
        let ready = &mut self.bench.inputs.trace_ready;
        *ready = if *ready { self.rng.gen_bool(0.95) } else { self.rng.gen_bool(0.2) };
    }

    /// One cycle of the random program.
    pub(super) fn cycle(&mut self) {
        let toggled = (!self.summarize as u64) * SUMMARIZE;
        let write = match self.phase {
            Phase::Draining if self.bench.pmu.trace_occupancy() == 0 => {
                (self.phase, self.draining) = (Phase::Resuming, 0);
                Some((addr::PROFILE_CTRL as u16, toggled))
            }
            Phase::Draining => {
                self.draining += 1;
                assert!(self.draining < 1000, "the queue did not drain with TRACE_EN = 0");
                None
            }
            Phase::Resuming => {
                self.phase = Phase::Tracing;
                Some((addr::TRACE_CTRL as u16, self.control | trace_ctrl::TRACE_EN))
            }
            Phase::Tracing => self.random_write(toggled),
        };
        self.step(write);
    }

    fn random_write(&mut self, toggled: u64) -> Option<(u16, u64)> {
        let rng = &mut self.rng;
        let roll: f64 = rng.gen();
        let filter = rng.gen_bool(0.3) as u64 * trace_ctrl::PID_FILTER;
        Some(match roll {
            r if r < 0.01 => (addr::TRACE_CTRL as u16, trace_ctrl::TRACE_EN | filter | rng.gen_range(0..2) << 4),
            r if r < 0.02 => (addr::TRACE_PID as u16, rng.gen_range(1..=3)),
            r if r < 0.025 => (addr::PROFILE_CTRL as u16, FLUSH | self.summarize as u64),
            r if r < 0.035 => (
                rng.gen_range(0..2) << 8 | (addr::PERF_CNTR + rng.gen_range(0..2)) as u16,
                0xFF00 | rng.gen_range(0..0x100),
            ),
            r if r < 0.038 && self.safe => {
                self.phase = Phase::Draining;
                (addr::TRACE_CTRL as u16, self.control & !trace_ctrl::TRACE_EN)
            }
            r if r < 0.038 => (addr::PROFILE_CTRL as u16, toggled),
            _ => return None,
        })
    }

    /// PROFILE_CTRL.FLUSH, read through the port (one cycle).
    fn flushing(&mut self) -> bool {
        self.vary_ready();
        self.bench.read(0, addr::PROFILE_CTRL) & FLUSH != 0
    }

    /// Clear TRACE_EN, then flush (once any flush under way has ended) and wait for its end.
    pub(super) fn finish(&mut self) {
        self.step(Some((addr::TRACE_CTRL as u16, 0)));
        self.wait_for_the_flush();
        self.step(Some((addr::PROFILE_CTRL as u16, FLUSH | self.summarize as u64)));
        self.wait_for_the_flush();
        assert_eq!(self.bench.pmu.trace_occupancy(), 0);
    }

    /// Cycles until FLUSH reads 0: at most a walk of E entries, each sent (K + 2 words)
    /// under stalls, after D records.
    fn wait_for_the_flush(&mut self) {
        for _ in 0..5000 {
            if !self.flushing() {
                return;
            }
        }
        panic!("the flush did not end");
    }
}
