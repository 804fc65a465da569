//! The whole event-order monitor, cycle by cycle, as docs/monitor.md §3-§6 describe it.
//! Register addresses and fields are written here from docs/monitor.md §5 on purpose (not
//! taken from the hardware's register table), so the two cross-check.

use super::counter::CounterModel;
use super::frame::{frame_bits, FrameModel};
use super::order::order_matches;
use super::record::{rising, RecordModel};
use super::window::WindowModel;
use crate::ports::{Engine, MonitorInputs, MonitorOutputs};

/// Register addresses (docs/monitor.md §5).
pub mod addr {
    pub const ID: u8 = 0x00;
    pub const CTRL: u8 = 0x01;
    pub const CMD: u8 = 0x02;
    pub const STATUS: u8 = 0x03;
    pub const COUNT: u8 = 0x04;
    pub const EVENTS: u8 = 0x05;
    pub const ORDER: u8 = 0x10;
    pub const BEFORE: u8 = 0x40;
}

/// CTRL bits (docs/monitor.md §5).
pub mod ctrl {
    pub const ENABLE: u32 = 1 << 0;
    pub const AUTO_REARM: u32 = 1 << 1;
    pub const START_SEL_SHIFT: u32 = 2;
    pub const STOP_SEL_SHIFT: u32 = 4;
    pub const SERIAL_EN: u32 = 1 << 6;
    pub const RESET: u32 = AUTO_REARM;
    pub const MASK: u32 = 0x7F;
}

/// CMD bits (docs/monitor.md §5).
pub mod cmd {
    pub const CLEAR_RECORD: u32 = 1 << 0;
    pub const CLEAR_COUNT: u32 = 1 << 1;
    pub const OPEN_WINDOW: u32 = 1 << 2;
    pub const CLOSE_WINDOW: u32 = 1 << 3;
}

/// The reference monitor for N events and W-bit orders.
#[derive(Clone, Debug)]
pub struct ReferenceMonitor {
    events: usize,
    order_width: usize,
    events_prev: u32,
    record: RecordModel,
    orders: Vec<u32>,
    ctrl: u32,
    counter: CounterModel,
    window: WindowModel,
    frame: FrameModel,
    /// The monitor is built with the serial frame (docs/monitor.md §6, `--no-serial`).
    serial_frame: bool,
    rdata: u32,
}

impl ReferenceMonitor {
    /// A monitor just after reset.
    pub fn new(events: usize, order_width: usize) -> Self {
        assert!((2..=32).contains(&events) && (2..=8).contains(&order_width));
        Self {
            events,
            order_width,
            events_prev: 0,
            record: RecordModel::new(events),
            orders: vec![0; events],
            ctrl: ctrl::RESET,
            counter: CounterModel::new(32),
            window: WindowModel::default(),
            frame: FrameModel::default(),
            serial_frame: true,
            rdata: 0,
        }
    }

    /// The same monitor built with (`true`) or without the serial frame: without it,
    /// no frame ever starts and `ser_*` stay 0 (CTRL.SERIAL_EN has no effect).
    pub fn with_serial_frame(mut self, serial_frame: bool) -> Self {
        self.serial_frame = serial_frame;
        self
    }

    fn event_mask(&self) -> u32 {
        if self.events == 32 {
            u32::MAX
        } else {
            (1 << self.events) - 1
        }
    }

    /// The record as stored now.
    pub fn record(&self) -> &RecordModel {
        &self.record
    }

    /// COUNT now.
    pub fn count(&self) -> u32 {
        self.counter.count as u32
    }

    /// What a read of `address` returns with the current state (docs/monitor.md §5).
    pub fn read(&self, address: u8) -> u32 {
        let n = self.events as u8;
        match address {
            addr::ID => 0x4F4D << 16 | (self.order_width as u32) << 8 | self.events as u32,
            addr::CTRL => self.ctrl,
            addr::STATUS => {
                self.window.open as u32 | (self.counter.match_prev as u32) << 1 | (self.counter.overflow as u32) << 2
            }
            addr::COUNT => self.counter.count as u32,
            addr::EVENTS => self.record.seen,
            a if (addr::ORDER..addr::ORDER + n).contains(&a) => self.orders[(a - addr::ORDER) as usize],
            a if (addr::BEFORE..addr::BEFORE + n).contains(&a) => self.record.row((a - addr::BEFORE) as usize),
            _ => 0,
        }
    }

    fn outputs(&self) -> MonitorOutputs {
        let (ser_data, ser_valid, ser_last) = self.frame.outputs();
        MonitorOutputs {
            reg_rdata: self.rdata,
            matched: self.counter.match_prev,
            window: self.window.open,
            ser_data,
            ser_valid,
            ser_last,
        }
    }

    /// One rising edge with `inputs` (docs/monitor.md §3): returns the registered outputs.
    pub fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        if inputs.reset {
            *self = Self::new(self.events, self.order_width).with_serial_frame(self.serial_frame);
            return self.outputs();
        }
        let events = inputs.events & self.event_mask();
        let occurred = rising(events, self.events_prev);
        let enable = self.ctrl & ctrl::ENABLE != 0;
        let auto_rearm = self.ctrl & ctrl::AUTO_REARM != 0;
        let command = if inputs.reg_write && inputs.reg_addr == addr::CMD { inputs.reg_wdata } else { 0 };

        // docs/monitor.md §3.2: recording (gated by ENABLE); §3.3: match on the updated record.
        let updated = if enable { self.record.recorded(occurred) } else { self.record.clone() };
        let match_now = order_matches(&self.orders, |a, m| updated.before[a][m]);

        // docs/monitor.md §6: the frame loads what a read would show during this cycle.
        let serial_en = self.serial_frame && self.ctrl & ctrl::SERIAL_EN != 0;
        let (record_now, count_now) = (&self.record, self.counter.count as u32);
        self.frame.step(serial_en, || frame_bits(record_now, count_now));
        // docs/monitor.md §3.7: read data registered from this cycle's values.
        self.rdata = self.read(inputs.reg_addr);

        // docs/monitor.md §3.4: counting uses the window state of this cycle.
        self.counter.step(match_now, auto_rearm, self.window.open, command & cmd::CLEAR_COUNT != 0);
        // docs/monitor.md §3.4/§3.6: re-arm or CLEAR_RECORD replace this cycle's recording.
        let clear = (auto_rearm && match_now) || command & cmd::CLEAR_RECORD != 0;
        self.record = if clear { RecordModel::new(self.events) } else { updated };
        self.events_prev = events;

        // docs/monitor.md §3.5: window; the selection is this cycle's CTRL.
        let start_sel = self.ctrl >> ctrl::START_SEL_SHIFT & 3;
        let stop_sel = self.ctrl >> ctrl::STOP_SEL_SHIFT & 3;
        self.window.step(
            inputs.start & 0xF,
            inputs.stop & 0xF,
            start_sel,
            stop_sel,
            command & cmd::OPEN_WINDOW != 0,
            command & cmd::CLOSE_WINDOW != 0,
        );

        // docs/monitor.md §3.6: register writes take effect from the next cycle.
        if inputs.reg_write {
            let n = self.events as u8;
            match inputs.reg_addr {
                addr::CTRL => self.ctrl = inputs.reg_wdata & ctrl::MASK,
                a if (addr::ORDER..addr::ORDER + n).contains(&a) => {
                    self.orders[(a - addr::ORDER) as usize] = inputs.reg_wdata & ((1 << self.order_width) - 1)
                }
                _ => {}
            }
        }
        self.outputs()
    }
}

impl Engine<MonitorInputs, MonitorOutputs> for ReferenceMonitor {
    fn name(&self) -> &'static str {
        "reference"
    }
    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        ReferenceMonitor::step(self, inputs)
    }
}
