//! Host register port (docs/monitor.md §4, §5), generated from the register table in
//! [`super::regmap`]: the CTRL register, the CMD strobes, the ORDER write decode
//! and the registered read mux.
//!
//! Both the Verilog and the native `update()` are derived from the same table, so
//! the register map has one source of truth. Unlisted addresses read 0 and ignore
//! writes; bits beyond a field read 0 and are ignored on write. BEFORE reads 0 while
//! the record is cleared (`live` = 0); the rows come unmasked from the flip-flops.
//! The read mux is [`super::read_mux`].
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
use std::fmt::Write;

use super::read_mux::{self, ReadEntry};
use super::regmap::{self, Register, Source};
use crate::custom::{row_without_bit, unused_diagonal, zero_extend_32, Internal};

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
pub struct RegisterPort<const N: usize, const W: usize> {
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
    pub seen: Signal<In, Bits<N>>,
    /// ORDER[e] source.
    pub order: [Signal<In, Bits<W>>; N],
    /// BEFORE[m] source: record row m as held in the flip-flops (bit m is ignored).
    pub before: [Signal<In, Bits<N>>; N],
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
    pub order_write: Signal<Out, Bits<N>>,
    /// The ORDER field of the write data.
    pub order_wdata: Signal<Out, Bits<W>>,
    /// Registered read data (`reg_rdata`).
    pub rdata: Signal<Out, Bits<32>>,
    state: Internal<PortState>,
}

/// Width of the CTRL flip-flops: its fields are packed from bit 0.
fn ctrl_width() -> usize {
    64 - regmap::CTRL.mask(&regmap::params(32, 8)).leading_zeros() as usize
}

impl<const N: usize, const W: usize> RegisterPort<N, W> {
    /// A register port for `N` events of `W` order bits, `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new() -> Self {
        assert!((2..=32).contains(&N), "RegisterPort: N = {N} is out of range 2..=32");
        assert!((2..=8).contains(&W), "RegisterPort: W = {W} is out of range 2..=8");
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
            seen: Default::default(),
            order: std::array::from_fn(|_| Default::default()),
            before: std::array::from_fn(|_| Default::default()),
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
            order_write: Default::default(),
            order_wdata: Default::default(),
            rdata: Default::default(),
            state: Internal(PortState::RESET),
        }
    }

    /// The value a read of `addr` returns this cycle (before the edge).
    fn read_value(&self, addr: u32) -> u32 {
        let Some((register, index)) = regmap::decode(addr, N) else {
            return 0;
        };
        match register.source {
            Source::Identity => regmap::id_value(N, W),
            Source::Control => self.state.0.ctrl,
            Source::Command => 0,
            Source::Flags => {
                (self.window.val() as u32) << regmap::STATUS_WINDOW.lsb
                    | (self.matched.val() as u32) << regmap::STATUS_MATCHED.lsb
                    | (self.overflow.val() as u32) << regmap::STATUS_OVERFLOW.lsb
            }
            // ORed in after the edge from the counter's register (see `update`).
            Source::Counter => 0,
            Source::EventRegister => self.seen.val().index() as u32,
            Source::OrderRegister => self.order[index].val().index() as u32,
            Source::RecordRow if !self.live.val() => 0,
            Source::RecordRow => self.before[index].val().index() as u32 & !(1u32 << index),
        }
    }

    /// Every readable register copy, for the read mux: the single registers in one
    /// group, each per-event array in its own.
    fn read_entries() -> Vec<ReadEntry> {
        let params = regmap::params(N, W);
        let mut entries = Vec::new();
        for register in regmap::REGISTERS.iter().filter(|r| r.source != Source::Command) {
            let copies = register.count(&params);
            let group = match register.source {
                _ if copies == 1 => "single",
                Source::OrderRegister => "order",
                Source::RecordRow => "before",
                other => panic!("RegisterPort: no read group for the per-event {other:?}"),
            };
            let zero_unless = (register.source == Source::RecordRow).then_some("live");
            for index in 0..copies {
                let expr = Self::read_expression(register, index);
                entries.push(ReadEntry { addr: register.addr as usize + index, group, expr, zero_unless });
            }
        }
        entries
    }

    /// The Verilog expression a read of copy `index` of `register` returns.
    fn read_expression(register: &Register, index: usize) -> String {
        match register.source {
            Source::Identity => format!("32'h{:08x}", regmap::id_value(N, W)),
            Source::Control => zero_extend_32("ctrl_q", ctrl_width()),
            Source::Command => "32'h0".to_string(),
            Source::Flags => {
                let mut fields: Vec<_> = register.fields.iter().collect();
                fields.sort_by_key(|field| std::cmp::Reverse(field.lsb));
                let top = fields[0].lsb + 1;
                let bits: Vec<String> = fields.iter().map(|field| field.name.to_lowercase()).collect();
                zero_extend_32(&format!("{{{}}}", bits.join(", ")), top)
            }
            Source::Counter => "32'h0".to_string(),
            Source::EventRegister => zero_extend_32("seen", N),
            Source::OrderRegister => zero_extend_32(&format!("order${index}"), W),
            Source::RecordRow => zero_extend_32(&row_without_bit(&format!("before${index}"), N, index), N),
        }
    }
}

impl<const N: usize, const W: usize> Default for RegisterPort<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Logic for RegisterPort<N, W> {
    fn update(&mut self) {
        let addr = self.addr.val().index() as u32;
        let wdata = self.wdata.val().index() as u32;
        let write = self.write.val();
        if self.clock.pos_edge() {
            if self.reset.val() {
                self.state.0 = PortState::RESET;
            } else {
                let rdata = self.read_value(addr);
                if write && addr == regmap::CTRL.addr as u32 {
                    self.state.0.ctrl = wdata & regmap::CTRL.mask(&regmap::params(N, W)) as u32;
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
            Some(e) if write && (e as usize) < N => 1u64 << e,
            _ => 0,
        };
        self.order_write.next = order_write.to_bits();
        self.order_wdata.next = ((wdata as u64) & ((1 << W) - 1)).to_bits();
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
        let ctrl_bits = ctrl_width();
        let mut v = String::new();
        let _ = writeln!(v, "reg [{}:0] ctrl_q;", ctrl_bits - 1);
        let _ = writeln!(v, "reg [31:0] rdata_q;");
        let _ = writeln!(v, "// COUNT is read from the counter's register after the edge: it holds then");
        let _ = writeln!(v, "// what COUNT was during the read's cycle (docs/monitor.md §7.2).");
        let _ = writeln!(v, "reg count_read_q;");
        let _ = writeln!(v, "wire ctrl_write = write & (addr == 8'h{:02x});", regmap::CTRL.addr);
        let _ = writeln!(v, "wire cmd_write = write & (addr == 8'h{:02x});", regmap::CMD.addr);
        let _ = writeln!(v, "wire unused_wdata = ^wdata; // bits no register holds are ignored");
        let _ = writeln!(v, "initial begin");
        let _ = writeln!(v, "    ctrl_q = {ctrl_bits}'h{:x};", regmap::CTRL_RESET);
        let _ = writeln!(v, "    rdata_q = 32'h0;");
        let _ = writeln!(v, "    count_read_q = 1'b0;");
        let _ = writeln!(v, "end");
        let _ = writeln!(v, "always @(posedge clock) begin");
        let _ = writeln!(v, "    if (reset) ctrl_q <= {ctrl_bits}'h{:x};", regmap::CTRL_RESET);
        let _ = writeln!(v, "    else if (ctrl_write) ctrl_q <= wdata[{}:0];", ctrl_bits - 1);
        let _ = writeln!(v, "    if (reset | read_zero) rdata_q <= 32'h0;");
        let _ = writeln!(v, "    else rdata_q <= read_value;");
        let _ = writeln!(v, "    count_read_q <= ~reset & (addr == 8'h{:02x});", regmap::COUNT.addr);
        let _ = writeln!(v, "end");
        v.push_str(&read_mux::verilog(&Self::read_entries()));
        let _ = writeln!(v, "always @(*) begin");
        for field in regmap::CTRL.fields {
            let bits = field.width.bits(&regmap::params(N, W));
            let slice = if bits == 1 {
                format!("{}", field.lsb)
            } else {
                format!("{}:{}", field.lsb + bits - 1, field.lsb)
            };
            let _ = writeln!(v, "    {} = ctrl_q[{slice}];", field.name.to_lowercase());
        }
        for field in regmap::CMD.fields {
            let _ = writeln!(v, "    {} = cmd_write & wdata[{}];", field.name.to_lowercase(), field.lsb);
        }
        for e in 0..N {
            let _ = writeln!(v, "    order_write[{e}] = write & (addr == 8'h{:02x});", regmap::ORDER.addr as usize + e);
        }
        let _ = writeln!(v, "    order_wdata = wdata[{}:0];", W - 1);
        let _ = writeln!(v, "    rdata = rdata_q | ({{32{{count_read_q}}}} & count);");
        let _ = writeln!(v, "end");
        v.push_str(&unused_diagonal("before", N));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, bits_of, edge, value_of};
    use pmugen_sim::reference::monitor::{addr, cmd, ctrl};
    use rand::{Rng, SeedableRng};

    const N: usize = 5;
    const W: usize = 3;

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut RegisterPort::<5, 3>::new(), "register_port_n5_w3");
        assert_valid_verilog(&mut RegisterPort::<32, 8>::new(), "register_port_n32_w8");
    }

    /// docs/monitor.md §5, written out by hand: what a read of `address` returns.
    fn spec_read(address: u8, ctrl_value: u32, sources: &Sources) -> u32 {
        match address {
            addr::ID => 0x4F4D_0000 | (W as u32) << 8 | N as u32,
            addr::CTRL => ctrl_value,
            addr::STATUS => sources.window as u32 | (sources.matched as u32) << 1 | (sources.overflow as u32) << 2,
            addr::COUNT => sources.count,
            addr::EVENTS => sources.seen,
            0x10..=0x14 => sources.orders[(address - 0x10) as usize],
            0x40..=0x44 if !sources.live => 0,
            0x40..=0x44 => sources.rows[(address - 0x40) as usize] & !(1 << (address - 0x40)),
            _ => 0,
        }
    }

    struct Sources {
        window: bool,
        matched: bool,
        overflow: bool,
        count: u32,
        seen: u32,
        orders: [u32; N],
        rows: [u32; N],
        live: bool,
    }

    #[test]
    fn reads_writes_and_strobes_follow_the_spec() {
        let seed = 0x5eed_0009;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = RegisterPort::<N, W>::new();
        uut.connect_all();
        let mut ctrl_value = ctrl::RESET;
        let mut expected_rdata = 0;
        // The port's `count` input is COUNT of the previous cycle.
        let mut previous_count = 0;
        for step in 0..20_000 {
            let sources = Sources {
                window: rng.gen(),
                matched: rng.gen(),
                overflow: rng.gen(),
                count: rng.gen(),
                seen: rng.gen::<u32>() & 0x1F,
                orders: std::array::from_fn(|_| rng.gen_range(0..8)),
                rows: std::array::from_fn(|_| rng.gen::<u32>() & 0x1F),
                live: rng.gen_bool(0.8),
            };
            let address = if rng.gen_bool(0.8) { rng.gen_range(0..0x48) } else { rng.gen() };
            let (wdata, write, reset) = (rng.gen::<u32>(), rng.gen_bool(0.3), rng.gen_ratio(1, 500));
            apply(&mut uut, |u| &mut u.clock, |u| {
                u.addr.next = bits_of(address as u64);
                u.wdata.next = bits_of(wdata as u64);
                u.write.next = write;
                u.reset.next = reset;
                u.window.next = sources.window;
                u.matched.next = sources.matched;
                u.overflow.next = sources.overflow;
                u.live.next = sources.live;
                u.count.next = bits_of(previous_count as u64);
                u.seen.next = bits_of(sources.seen as u64);
                for e in 0..N {
                    u.order[e].next = bits_of(sources.orders[e] as u64);
                    u.before[e].next = bits_of(sources.rows[e] as u64);
                }
            });
            let context = format!("step {step}, addr {address:#04x}, seed {seed:#x}");
            // Registered read data of the previous cycle, CTRL fields as stored.
            assert_eq!(value_of(uut.rdata.val()) as u32, expected_rdata, "rdata, {context}");
            assert_eq!(uut.enable.val(), ctrl_value & ctrl::ENABLE != 0, "{context}");
            assert_eq!(uut.auto_rearm.val(), ctrl_value & ctrl::AUTO_REARM != 0, "{context}");
            assert_eq!(value_of(uut.start_sel.val()) as u32, ctrl_value >> 2 & 3, "{context}");
            assert_eq!(value_of(uut.stop_sel.val()) as u32, ctrl_value >> 4 & 3, "{context}");
            assert_eq!(uut.serial_en.val(), ctrl_value & ctrl::SERIAL_EN != 0, "{context}");
            // Strobes act in the cycle of the write.
            let command = if write && address == addr::CMD { wdata } else { 0 };
            assert_eq!(uut.clear_record.val(), command & cmd::CLEAR_RECORD != 0, "{context}");
            assert_eq!(uut.clear_count.val(), command & cmd::CLEAR_COUNT != 0, "{context}");
            assert_eq!(uut.open_window.val(), command & cmd::OPEN_WINDOW != 0, "{context}");
            assert_eq!(uut.close_window.val(), command & cmd::CLOSE_WINDOW != 0, "{context}");
            let order_write = if write && (0x10..0x15).contains(&address) { 1 << (address - 0x10) } else { 0 };
            assert_eq!(value_of(uut.order_write.val()), order_write, "{context}");
            assert_eq!(value_of(uut.order_wdata.val()) as u32, wdata & 7, "{context}");
            expected_rdata = if reset { 0 } else { spec_read(address, ctrl_value, &sources) };
            previous_count = sources.count;
            if reset {
                ctrl_value = ctrl::RESET;
            } else if write && address == addr::CTRL {
                ctrl_value = wdata & ctrl::MASK;
            }
            edge(&mut uut, |u| &mut u.clock);
        }
    }
}
