//! Host register port (docs/monitor.md §4, §5), generated from the register table in
//! [`super::regmap`]: the CTRL register, the CMD strobes, the ORDER write decode
//! and the registered read mux.
//!
//! Both the Verilog and the native `update()` are derived from the same table, so
//! the register map has one source of truth. Unlisted addresses read 0 and ignore
//! writes; bits beyond a field read 0 and are ignored on write. BEFORE reads 0 while
//! the record is cleared (`live` = 0); the rows come unmasked from the flip-flops.
//! The read mux is the shared [`crate::regmap::read_mux`]; the Verilog text is in `verilog.rs`, sized at
//! run time.
//!
//! COUNT is not in the read mux: `count` is the counter's register, which after
//! edge k holds COUNT as it was during cycle k, so a flip-flop `count_read_q` (COUNT
//! was addressed in cycle k) ORs it into `rdata` after the edge. That keeps the
//! counter's adder off the read path (docs/monitor.md §7.2).
//!
//! Latency: writes act at the edge where `write` is 1 (CTRL from the next cycle,
//! CMD strobes in that cycle). `rdata` comes from flip-flops through one OR: after
//! the edge of cycle k it shows what `addr(k)` held during cycle k. Reads have no
//! side effects.
//!
//! ```text
//!  addr, wdata, write --> | CTRL | CMD | ORDER decode |--> ctrl fields, strobes
//!  status, rows       --> | read mux --> rdata FF  |   |
//!  live               --> | (0 into the FF's reset)| OR|--> rdata
//!  count (register)   --> | count_read_q & count   |   |
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::regmap::{self, Source};
use crate::custom::Internal;
use crate::flip_flops::FlipFlops;
use crate::word::{Word, WordSignal};

#[cfg(test)]
pub(crate) mod tests;
mod verilog;

/// Register-port state: CTRL and the read-data register.
#[derive(Clone, Copy, Debug, Default)]
pub struct PortState {
    ctrl: u32,
    rdata: u32,
    /// The last edge sampled a COUNT read.
    count_read: bool,
}

impl PortState {
    /// After reset: CTRL at its reset value, nothing read.
    const RESET: Self = Self { ctrl: regmap::CTRL_RESET, rdata: 0, count_read: false };
}

/// The host register port of an N-event, W-bit monitor.
#[derive(LogicBlock)]
pub struct RegisterPort {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: CTRL to its reset value, `rdata` to 0.
    pub reset: Signal<In, Bit>,
    /// Register word address.
    pub addr: Signal<In, Bits<8>>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// Write strobe.
    pub write: Signal<In, Bit>,
    /// STATUS.WINDOW source: the registered window state.
    pub window: Signal<In, Bit>,
    /// STATUS.MATCHED source: the registered match flag.
    pub matched: Signal<In, Bit>,
    /// STATUS.OVERFLOW source: the sticky counter overflow.
    pub overflow: Signal<In, Bit>,
    /// COUNT as it was in the previous cycle (the counter's register): a COUNT read
    /// ORs it into `rdata` after the edge instead of loading it.
    pub count: Signal<In, Bits<32>>,
    /// EVENTS source: the event register.
    pub seen: WordSignal<In>,
    /// ORDER[e] source.
    pub order: Vec<WordSignal<In>>,
    /// BEFORE[m] source: record row m as held in the flip-flops (bit m is ignored).
    pub before: Vec<WordSignal<In>>,
    /// The record was not cleared at the last edge; while 0, BEFORE reads 0.
    pub live: Signal<In, Bit>,
    /// CTRL.ENABLE.
    pub enable: Signal<Out, Bit>,
    /// CTRL.AUTO_REARM.
    pub auto_rearm: Signal<Out, Bit>,
    /// CTRL.START_SEL.
    pub start_sel: Signal<Out, Bits<2>>,
    /// CTRL.STOP_SEL.
    pub stop_sel: Signal<Out, Bits<2>>,
    /// CTRL.SERIAL_EN.
    pub serial_en: Signal<Out, Bit>,
    /// CMD.CLEAR_RECORD strobe (this cycle).
    pub clear_record: Signal<Out, Bit>,
    /// CMD.CLEAR_COUNT strobe (this cycle).
    pub clear_count: Signal<Out, Bit>,
    /// CMD.OPEN_WINDOW strobe (this cycle).
    pub open_window: Signal<Out, Bit>,
    /// CMD.CLOSE_WINDOW strobe (this cycle).
    pub close_window: Signal<Out, Bit>,
    /// Bit e: ORDER[e] is written at this edge.
    pub order_write: WordSignal<Out>,
    /// The ORDER field of the write data.
    pub order_wdata: WordSignal<Out>,
    /// Registered read data (`reg_rdata`).
    pub rdata: Signal<Out, Bits<32>>,
    state: Internal<PortState>,
}

impl RegisterPort {
    /// A register port for `events` (N) events of `order_width` (W) order bits,
    /// `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new(events: usize, order_width: usize) -> Self {
        let (n, w) = (events, order_width);
        assert!((2..=32).contains(&n), "RegisterPort: N = {n} is out of range 2..=32");
        assert!((2..=8).contains(&w), "RegisterPort: W = {w} is out of range 2..=8");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            write: Default::default(),
            window: Default::default(),
            matched: Default::default(),
            overflow: Default::default(),
            count: Default::default(),
            seen: WordSignal::new(n),
            order: (0..n).map(|_| WordSignal::new(w)).collect(),
            before: (0..n).map(|_| WordSignal::new(n)).collect(),
            live: Default::default(),
            enable: Default::default(),
            auto_rearm: Default::default(),
            start_sel: Default::default(),
            stop_sel: Default::default(),
            serial_en: Default::default(),
            clear_record: Default::default(),
            clear_count: Default::default(),
            open_window: Default::default(),
            close_window: Default::default(),
            order_write: WordSignal::new(n),
            order_wdata: WordSignal::new(w),
            rdata: Default::default(),
            state: Internal(PortState::RESET),
        }
    }

    /// (N, W).
    fn shape(&self) -> (usize, usize) {
        (self.order.len(), self.order_wdata.width())
    }

    /// The value a read of `addr` returns this cycle (before the edge).
    fn read_value(&self, addr: u32) -> u32 {
        let (n, w) = self.shape();
        let Some((register, index)) = regmap::decode(addr, n) else {
            return 0;
        };
        match register.source {
            Source::Identity => regmap::id_value(n, w),
            Source::Control => self.state.0.ctrl,
            Source::Command => 0,
            Source::Flags => {
                (self.window.val() as u32) << regmap::STATUS_WINDOW.lsb
                    | (self.matched.val() as u32) << regmap::STATUS_MATCHED.lsb
                    | (self.overflow.val() as u32) << regmap::STATUS_OVERFLOW.lsb
            }
            // ORed in after the edge from the counter's register (see `update`).
            Source::Counter => 0,
            Source::EventRegister => self.seen.val().value() as u32,
            Source::OrderRegister => self.order[index].val().value() as u32,
            Source::RecordRow if !self.live.val() => 0,
            Source::RecordRow => self.before[index].val().value() as u32 & !(1u32 << index),
        }
    }
}

impl RegisterPort {
    /// The registers: CTRL, the read data and the "COUNT was read" flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("ctrl_q", verilog::ctrl_width(), regmap::CTRL_RESET as u64, groups::CONTROL),
            FlipFlops::new("rdata_q", 32, 0, groups::READ_DATA),
            FlipFlops::new("count_read_q", 1, 0, groups::READ_DATA),
        ]
    }
}

impl Logic for RegisterPort {
    fn update(&mut self) {
        let (n, w) = self.shape();
        let addr = self.addr.val().index() as u32;
        let wdata = self.wdata.val().index() as u32;
        let write = self.write.val();
        if self.clock.pos_edge() {
            if self.reset.val() {
                self.state.0 = PortState::RESET;
            } else {
                let rdata = self.read_value(addr);
                if write && addr == regmap::CTRL.addr as u32 {
                    self.state.0.ctrl = wdata & regmap::CTRL.mask(&regmap::params(n, w)) as u32;
                }
                self.state.0.rdata = rdata;
                self.state.0.count_read = addr == regmap::COUNT.addr as u32;
            }
        }
        let ctrl = self.state.0.ctrl;
        self.enable.next = regmap::extract(&regmap::CTRL_ENABLE, ctrl) != 0;
        self.auto_rearm.next = regmap::extract(&regmap::CTRL_AUTO_REARM, ctrl) != 0;
        self.start_sel.next = (regmap::extract(&regmap::CTRL_START_SEL, ctrl) as u64).to_bits();
        self.stop_sel.next = (regmap::extract(&regmap::CTRL_STOP_SEL, ctrl) as u64).to_bits();
        self.serial_en.next = regmap::extract(&regmap::CTRL_SERIAL_EN, ctrl) != 0;
        let command = if write && addr == regmap::CMD.addr as u32 { wdata } else { 0 };
        self.clear_record.next = regmap::extract(&regmap::CMD_CLEAR_RECORD, command) != 0;
        self.clear_count.next = regmap::extract(&regmap::CMD_CLEAR_COUNT, command) != 0;
        self.open_window.next = regmap::extract(&regmap::CMD_OPEN_WINDOW, command) != 0;
        self.close_window.next = regmap::extract(&regmap::CMD_CLOSE_WINDOW, command) != 0;
        let order_base = regmap::ORDER.addr as u32;
        let order_write = match addr.checked_sub(order_base) {
            Some(e) if write && (e as usize) < n => 1u64 << e,
            _ => 0,
        };
        self.order_write.next = Word::new(n, order_write);
        self.order_wdata.next = Word::new(w, wdata as u64);
        let count = if self.state.0.count_read { self.count.val().index() as u32 } else { 0 };
        self.rdata.next = ((self.state.0.rdata | count) as u64).to_bits();
    }

    fn connect(&mut self) {
        self.enable.connect();
        self.auto_rearm.connect();
        self.start_sel.connect();
        self.stop_sel.connect();
        self.serial_en.connect();
        self.clear_record.connect();
        self.clear_count.connect();
        self.open_window.connect();
        self.close_window.connect();
        self.order_write.connect();
        self.order_wdata.connect();
        self.rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        let (n, w) = self.shape();
        crate::custom::hand_written::<Self>(verilog::body(n, w))
    }
}
