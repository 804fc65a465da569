//! Register-port traffic for the `_rvfi` PMU's tests: software that sets every counter
//! of every hart counting a table event (both rings, now and then on rising edges, with
//! a CMASK or an overflow interrupt), enables them, traces one hart (if asked: its
//! counters then restart at each of its block ends), and then mostly
//! reads counters, sometimes choosing another event or setting a counter near its wrap.
//! After a reset it programs the PMU again. The event side is left 0 (the adapter's).
use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::dyn_signal::low_mask;
use crate::pmu::params::PmuParams;
use crate::pmu::regmap::{evtsel, trace_ctrl, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL, TRACE_CTRL};
use pmugen_sim::ports::pmu::PmuInputs;

/// The traffic of one PMU.
pub struct RegisterProgram {
    threads: usize,
    counters: usize,
    counter_width: usize,
    codes: Vec<(u8, u8)>,
    /// Writes still to make: (thread, address, value).
    writes: VecDeque<(usize, u8, u64)>,
    pids: [u32; 4],
    pm_mark: u8,
    trace: bool,
    rng: ChaCha8Rng,
}

impl RegisterProgram {
    /// The program for the PMU of `params`, from `seed`, tracing a hart or not.
    pub fn new(params: &PmuParams, seed: u64, trace: bool) -> Self {
        let mut program = Self {
            threads: params.threads,
            counters: params.counters,
            counter_width: params.counter_width,
            codes: params.table.events.iter().map(|e| (e.code, e.umask)).collect(),
            writes: VecDeque::new(),
            pids: [0x11, 0x22, 0x33, 0x44],
            pm_mark: low_mask(params.threads) as u8,
            trace,
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        program.set_up();
        program
    }

    /// An event select for a random table event, counting in both rings.
    fn event_select(&mut self) -> u64 {
        let (code, umask) = self.codes[self.rng.gen_range(0..self.codes.len())];
        let bit = |rng: &mut ChaCha8Rng, p: f64, field: &crate::regmap::Field| (rng.gen_bool(p) as u64) << field.lsb;
        let cmask = if self.rng.gen_ratio(1, 8) { 1 << evtsel::CMASK.lsb } else { 0 };
        code as u64
            | (umask as u64) << evtsel::UMASK.lsb
            | 1 << evtsel::USR.lsb
            | 1 << evtsel::OS.lsb
            | 1 << evtsel::EN.lsb
            | bit(&mut self.rng, 0.1, &evtsel::E)
            | bit(&mut self.rng, 0.3, &evtsel::INT)
            | cmask
    }

    /// Every counter counting, enabled; one hart traced if asked.
    fn set_up(&mut self) {
        self.writes.clear();
        for t in 0..self.threads {
            for i in 0..self.counters {
                let select = self.event_select();
                self.writes.push_back((t, PERF_EVTSEL.addr + i as u8, select));
            }
            self.writes.push_back((t, PERF_GLOBAL_CTRL.addr, low_mask(self.counters)));
        }
        if self.trace {
            let traced = self.rng.gen_range(0..self.threads) as u64;
            let value = 1 << trace_ctrl::TRACE_EN.lsb | traced << trace_ctrl::THREAD.lsb;
            self.writes.push_back((0, TRACE_CTRL.addr, value));
        }
    }

    /// The next cycle's inputs (the event side 0).
    pub fn next_inputs(&mut self) -> PmuInputs {
        let rng = &mut self.rng;
        let reset = rng.gen_ratio(1, 4_000);
        for t in 0..self.threads {
            self.pm_mark ^= (rng.gen_ratio(1, 500) as u8) << t;
            if rng.gen_ratio(1, 300) {
                self.pids[t] = rng.gen_range(1..4) * 0x11;
            }
        }
        let mut inputs = PmuInputs {
            reset,
            events: vec![0],
            core_events: vec![0],
            pm_mark: self.pm_mark,
            pid: self.pids,
            trace_ready: rng.gen_bool(0.85),
            reg_priv: rng.gen_bool(0.95),
            ..Default::default()
        };
        let counter = PERF_CNTR.addr + rng.gen_range(0..self.counters) as u8;
        let thread = rng.gen_range(0..self.threads);
        match self.writes.pop_front() {
            Some((thread, addr, value)) => {
                (inputs.reg_thread, inputs.reg_addr, inputs.reg_wdata) = (thread as u8, addr, value);
                (inputs.reg_write, inputs.reg_priv) = (true, true);
            }
            None if rng.gen_ratio(1, 40) => {
                let select = self.event_select();
                let i = self.rng.gen_range(0..self.counters) as u8;
                (inputs.reg_thread, inputs.reg_addr, inputs.reg_wdata) = (thread as u8, PERF_EVTSEL.addr + i, select);
                inputs.reg_write = true;
            }
            None if rng.gen_ratio(1, 60) => {
                let near_wrap = low_mask(self.counter_width) - rng.gen_range(0..64);
                (inputs.reg_thread, inputs.reg_addr, inputs.reg_wdata) = (thread as u8, counter, near_wrap);
                inputs.reg_write = true;
            }
            None => {
                (inputs.reg_thread, inputs.reg_addr, inputs.reg_read) = (thread as u8, counter, rng.gen_bool(0.8));
            }
        }
        if reset {
            self.set_up();
        }
        inputs
    }
}
