//! Random stimulus for the event-order monitor, reproducible from a seed.
//!
//! The stream starts with a short setup (CTRL with ENABLE, a few ORDER writes, the
//! window opened) and then mixes: event toggles biased towards the ordered events
//! (so sequences complete), single and simultaneous edges, held lines, start/stop
//! toggles, ORDER/CTRL/CMD writes, writes to unlisted addresses, rare resets, and a
//! read on every other cycle that sweeps every address, defined or not.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ports::MonitorInputs;

/// The stimulus stream for one monitor configuration.
pub struct RandomStimulus {
    rng: ChaCha8Rng,
    events: usize,
    order_width: usize,
    cycle: u64,
    lines: u32,
    start: u8,
    stop: u8,
    orders: Vec<u32>,
    read_addresses: Vec<u8>,
    read_cursor: usize,
}

impl RandomStimulus {
    /// Stimulus for N = `events`, W = `order_width`, from `seed`.
    pub fn new(events: usize, order_width: usize, seed: u64) -> Self {
        let n = events as u8;
        // Every defined address, plus the unlisted neighbours of each range.
        let mut read_addresses: Vec<u8> = (0x00..=0x07).collect();
        read_addresses.extend(0x10..0x10 + n + 1);
        read_addresses.extend(0x40..0x40 + n + 1);
        read_addresses.extend([0x0F, 0x3F, 0x80, 0xFF]);
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            events,
            order_width,
            cycle: 0,
            lines: 0,
            start: 0,
            stop: 0,
            orders: vec![0; events],
            read_addresses,
            read_cursor: 0,
        }
    }

    fn event_mask(&self) -> u32 {
        if self.events == 32 {
            u32::MAX
        } else {
            (1 << self.events) - 1
        }
    }

    fn max_order(&self) -> u32 {
        (1 << self.order_width) - 1
    }

    fn write(&mut self, inputs: &mut MonitorInputs, addr: u8, data: u32) {
        inputs.reg_write = true;
        inputs.reg_addr = addr;
        inputs.reg_wdata = data;
        if (0x10..0x10 + self.events as u32).contains(&(addr as u32)) {
            self.orders[(addr - 0x10) as usize] = data & self.max_order();
        }
    }

    fn random_ctrl(&mut self) -> u32 {
        let mut ctrl = self.rng.gen::<u32>() & !0x41; // random high junk, sels, rearm
        if self.rng.gen_bool(0.85) {
            ctrl |= 0x01; // ENABLE
        }
        if self.rng.gen_bool(0.5) {
            ctrl |= 0x40; // SERIAL_EN
        }
        ctrl
    }

    fn random_order_write(&mut self, inputs: &mut MonitorInputs) {
        let event = self.rng.gen_range(0..self.events);
        let value = match self.rng.gen_range(0..10) {
            0..=2 => 0,
            3..=7 => self.rng.gen_range(1..=self.max_order().min(4)),
            _ => self.rng.gen_range(0..=self.max_order()),
        };
        let junk = self.rng.gen::<u32>() & !self.max_order();
        self.write(inputs, 0x10 + event as u8, value | junk);
    }

    fn setup(&mut self, inputs: &mut MonitorInputs) {
        match self.cycle {
            0 => {
                let ctrl = self.random_ctrl() | 0x01;
                self.write(inputs, 0x01, ctrl)
            }
            1..=3 => {
                let event = self.rng.gen_range(0..self.events);
                let value = self.cycle as u32;
                self.write(inputs, 0x10 + event as u8, value);
            }
            _ => self.write(inputs, 0x02, 0x4), // OPEN_WINDOW
        }
    }

    fn toggle_events(&mut self) {
        let ordered: Vec<usize> = (0..self.events).filter(|&e| self.orders[e] != 0).collect();
        let toggles = match self.rng.gen_range(0..100) {
            0..=49 => 0,
            50..=89 => 1,
            90..=97 => 2,
            _ => 3,
        };
        for _ in 0..toggles {
            let line = if !ordered.is_empty() && self.rng.gen_bool(0.7) {
                ordered[self.rng.gen_range(0..ordered.len())]
            } else {
                self.rng.gen_range(0..self.events)
            };
            self.lines ^= 1 << line;
        }
        self.lines &= self.event_mask();
    }

    /// The next cycle's inputs.
    pub fn next_inputs(&mut self) -> MonitorInputs {
        let mut inputs = MonitorInputs { reg_wdata: self.rng.gen(), ..Default::default() };
        if self.cycle < 5 {
            self.setup(&mut inputs);
        } else {
            self.toggle_events();
            if self.rng.gen_ratio(1, 48) {
                self.start ^= 1 << self.rng.gen_range(0..4);
            }
            if self.rng.gen_ratio(1, 64) {
                self.stop ^= 1 << self.rng.gen_range(0..4);
            }
            match self.rng.gen_range(0..1000) {
                0..=39 => self.random_order_write(&mut inputs),
                40..=51 => {
                    let ctrl = self.random_ctrl();
                    self.write(&mut inputs, 0x01, ctrl)
                }
                52..=69 => {
                    let command = self.rng.gen::<u32>() & !0xF | self.rng.gen_range(0..16);
                    self.write(&mut inputs, 0x02, command)
                }
                70..=74 => {
                    let addr = self.rng.gen();
                    let data = self.rng.gen();
                    self.write(&mut inputs, addr, data)
                }
                75..=76 => inputs.reset = true,
                _ => {}
            }
            if !inputs.reg_write {
                inputs.reg_addr = self.read_addresses[self.read_cursor];
                self.read_cursor = (self.read_cursor + 1) % self.read_addresses.len();
            }
        }
        if inputs.reset {
            self.orders.iter_mut().for_each(|o| *o = 0);
            self.cycle = 0;
        } else {
            self.cycle += 1;
        }
        inputs.events = self.lines;
        inputs.start = self.start;
        inputs.stop = self.stop;
        inputs
    }
}

impl Iterator for RandomStimulus {
    type Item = MonitorInputs;
    fn next(&mut self) -> Option<MonitorInputs> {
        Some(self.next_inputs())
    }
}
