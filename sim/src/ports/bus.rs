//! The ports of a design wrapped in a standard bus slave (docs/bus.md): the AXI4-Lite
//! (`s_axil_*`) and Wishbone B4 classic (`wb_*`) signals as plain values, a wrapped
//! top's inputs and outputs (the bare design's ports without its register port, plus
//! the bus), and the Verilator port codec of a wrapped top. A bus window's widths are
//! a run-time [`BusShape`]: the PMU sits behind a 64-bit slave or, for 32-bit CPUs,
//! behind a 32-bit one whose words are the halves of its 64-bit registers (docs/bus.md,
//! 32-bit PMU slaves).
//!
//! Outputs are what the Verilator harness samples: after the cycle's rising edge, with
//! that cycle's inputs still applied (sim/verilator/harness.cpp). A combinational
//! output such as AWREADY therefore shows the slave's state after the edge combined
//! with the inputs of the cycle.
use std::fmt::Debug;
use std::marker::PhantomData;

use super::Signals;
use crate::ports::port_list;
use crate::verilator::{PortCodec, PortList};

/// The name prefix of a bare design's register port, which a bus wrapper replaces.
const REGISTER_PORT_PREFIX: &str = "reg_";

/// AXI4-Lite BRESP/RRESP value OKAY.
pub const RESP_OKAY: u8 = 0b00;
/// AXI4-Lite BRESP/RRESP value SLVERR.
pub const RESP_SLVERR: u8 = 0b10;

/// The widths of one design's bus window (docs/bus.md) and whether it has a privilege.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusShape {
    /// Data width in bits: 32 (monitor, 32-bit PMU slaves) or 64 (PMU).
    pub data_bits: usize,
    /// Byte-address width: 10 (monitor) or 13 (PMU).
    pub address_bits: usize,
    /// The design has a privilege input (the PMU's `reg_priv`, hence `wb_priv`).
    pub privileged: bool,
    /// Register width in bits: 32 (monitor) or 64 (PMU). When it is wider than
    /// `data_bits`, each register is two bus words: bits [31:0] at its byte address and
    /// bits [63:32] at +4 (docs/bus.md, 32-bit PMU slaves).
    pub register_bits: usize,
}

impl BusShape {
    /// The monitor: 32-bit registers, register `a` at byte address `4a`, 10 address bits.
    pub const MONITOR: BusShape = BusShape { data_bits: 32, address_bits: 10, privileged: false, register_bits: 32 };
    /// The PMU: 64-bit registers, register `a` of thread `t` at `t*0x800 + 8a`, 13 address bits.
    pub const PMU: BusShape = BusShape { data_bits: 64, address_bits: 13, privileged: true, register_bits: 64 };
    /// The PMU on a 32-bit bus (`--bus-width 32`): register `a` of thread `t` at
    /// `t*0x800 + 8a` (bits [31:0]) and `+4` (bits [63:32]), 13 address bits.
    pub const PMU32: BusShape = BusShape { data_bits: 32, address_bits: 13, privileged: true, register_bits: 64 };

    /// Bits of WSTRB / `wb_sel`: one per data byte.
    pub fn strobe_bits(&self) -> usize {
        self.data_bits / 8
    }
    /// WSTRB / `wb_sel` with every byte selected.
    pub fn all_strobes(&self) -> u8 {
        ((1u16 << self.strobe_bits()) - 1) as u8
    }
    /// The low address bits that address a byte inside a bus word, which must be 0:
    /// 2 for 32-bit data, 3 for 64-bit data.
    pub fn offset_bits(&self) -> u32 {
        (self.strobe_bits() as u32).trailing_zeros()
    }
    /// The low address bits below the register address: 2 (monitor) or 3 (PMU, on
    /// either data width).
    pub fn register_shift(&self) -> u32 {
        ((self.register_bits / 8) as u32).trailing_zeros()
    }
    /// Each register is two bus words (the 32-bit PMU slaves).
    pub fn splits_registers(&self) -> bool {
        self.register_bits > self.data_bits
    }
    /// The data bits the bus carries.
    pub fn data_mask(&self) -> u64 {
        u64::MAX >> (64 - self.data_bits)
    }
    /// The address bits the bus carries.
    pub fn address_mask(&self) -> u32 {
        (1 << self.address_bits) - 1
    }
    /// The byte address of register `register` in thread `thread`'s bank (docs/bus.md §1;
    /// the monitor has one bank and ignores `thread`).
    pub fn byte_address(&self, thread: u8, register: u8) -> u32 {
        let bank = if self.privileged { (thread as u32 & 3) << 11 } else { 0 };
        bank | (register as u32) << self.register_shift()
    }
}

/// The AXI4-Lite signals a master drives in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxiLiteInputs {
    /// `s_axil_awaddr`: write byte address.
    pub awaddr: u32,
    /// `s_axil_awprot`: bit 0 = privileged.
    pub awprot: u8,
    /// `s_axil_awvalid`.
    pub awvalid: bool,
    /// `s_axil_wdata`.
    pub wdata: u64,
    /// `s_axil_wstrb`: one bit per data byte.
    pub wstrb: u8,
    /// `s_axil_wvalid`.
    pub wvalid: bool,
    /// `s_axil_bready`.
    pub bready: bool,
    /// `s_axil_araddr`: read byte address.
    pub araddr: u32,
    /// `s_axil_arprot`: bit 0 = privileged.
    pub arprot: u8,
    /// `s_axil_arvalid`.
    pub arvalid: bool,
    /// `s_axil_rready`.
    pub rready: bool,
}

/// The AXI4-Lite signals the slave drives, as the harness samples them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxiLiteOutputs {
    /// `s_axil_awready` (combinational).
    pub awready: bool,
    /// `s_axil_wready` (combinational).
    pub wready: bool,
    /// `s_axil_bresp`: [`RESP_OKAY`] or [`RESP_SLVERR`].
    pub bresp: u8,
    /// `s_axil_bvalid`.
    pub bvalid: bool,
    /// `s_axil_arready` (combinational).
    pub arready: bool,
    /// `s_axil_rdata`.
    pub rdata: u64,
    /// `s_axil_rresp`: [`RESP_OKAY`] or [`RESP_SLVERR`].
    pub rresp: u8,
    /// `s_axil_rvalid`.
    pub rvalid: bool,
}

impl Signals for AxiLiteOutputs {
    /// Every output port, as driven: outside a response BRESP, RRESP and RDATA are 0
    /// (docs/bus.md §3), so they are compared in every cycle.
    fn signals(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("s_axil_awready", self.awready as u64),
            ("s_axil_wready", self.wready as u64),
            ("s_axil_bresp", self.bresp as u64),
            ("s_axil_bvalid", self.bvalid as u64),
            ("s_axil_arready", self.arready as u64),
            ("s_axil_rdata", self.rdata),
            ("s_axil_rresp", self.rresp as u64),
            ("s_axil_rvalid", self.rvalid as u64),
        ]
    }
}

/// The Wishbone signals a master drives in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WishboneInputs {
    /// `wb_cyc`.
    pub cyc: bool,
    /// `wb_stb`.
    pub stb: bool,
    /// `wb_we`: 1 = write.
    pub we: bool,
    /// `wb_adr`: byte address.
    pub adr: u32,
    /// `wb_dat_w`: write data.
    pub dat_w: u64,
    /// `wb_sel`: one bit per data byte.
    pub sel: u8,
    /// `wb_priv` (PMU only): 1 = privileged.
    pub privileged: bool,
}

/// The Wishbone signals the slave drives, as the harness samples them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WishboneOutputs {
    /// `wb_dat_r`: read data in the ACK cycle of a read, else 0.
    pub dat_r: u64,
    /// `wb_ack`.
    pub ack: bool,
    /// `wb_err`.
    pub err: bool,
}

impl Signals for WishboneOutputs {
    fn signals(&self) -> Vec<(&'static str, u64)> {
        vec![("wb_dat_r", self.dat_r), ("wb_ack", self.ack as u64), ("wb_err", self.err as u64)]
    }
}

/// A standard bus: its signal types and how they map to Verilog ports.
pub trait BusPorts {
    /// What the master drives in one cycle.
    type Inputs: Clone + Copy + Debug + Default + PartialEq;
    /// What the slave drives, as sampled.
    type Outputs: Clone + Copy + Debug + Default + PartialEq + Signals;
    /// The suffix of the wrapped top's name (docs/bus.md).
    const SUFFIX: &'static str;
    /// The bus's input ports (name, width) for a window of `shape`.
    fn input_ports(shape: &BusShape) -> Vec<(&'static str, usize)>;
    /// The bus's output ports (name, width).
    fn output_ports(shape: &BusShape) -> Vec<(&'static str, usize)>;
    /// Append one cycle's input words, in [`BusPorts::input_ports`] order.
    fn encode(shape: &BusShape, inputs: &Self::Inputs, words: &mut Vec<u64>);
    /// One cycle's outputs from their words, in [`BusPorts::output_ports`] order.
    fn decode(shape: &BusShape, words: &[u64]) -> Self::Outputs;
}

/// The AXI4-Lite slave's ports (marker for [`BusPorts`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Axi4Lite;

/// The Wishbone B4 classic slave's ports (marker for [`BusPorts`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wishbone;

impl BusPorts for Axi4Lite {
    type Inputs = AxiLiteInputs;
    type Outputs = AxiLiteOutputs;
    const SUFFIX: &'static str = "_axil";

    fn input_ports(shape: &BusShape) -> Vec<(&'static str, usize)> {
        let (address, data, strobes) = (shape.address_bits, shape.data_bits, shape.strobe_bits());
        vec![
            ("s_axil_awaddr", address),
            ("s_axil_awprot", 3),
            ("s_axil_awvalid", 1),
            ("s_axil_wdata", data),
            ("s_axil_wstrb", strobes),
            ("s_axil_wvalid", 1),
            ("s_axil_bready", 1),
            ("s_axil_araddr", address),
            ("s_axil_arprot", 3),
            ("s_axil_arvalid", 1),
            ("s_axil_rready", 1),
        ]
    }
    fn output_ports(shape: &BusShape) -> Vec<(&'static str, usize)> {
        vec![
            ("s_axil_awready", 1),
            ("s_axil_wready", 1),
            ("s_axil_bresp", 2),
            ("s_axil_bvalid", 1),
            ("s_axil_arready", 1),
            ("s_axil_rdata", shape.data_bits),
            ("s_axil_rresp", 2),
            ("s_axil_rvalid", 1),
        ]
    }
    fn encode(shape: &BusShape, inputs: &AxiLiteInputs, words: &mut Vec<u64>) {
        let address = shape.address_mask() as u64;
        words.extend([
            inputs.awaddr as u64 & address,
            inputs.awprot as u64 & 7,
            inputs.awvalid as u64,
            inputs.wdata & shape.data_mask(),
            inputs.wstrb as u64 & shape.all_strobes() as u64,
            inputs.wvalid as u64,
            inputs.bready as u64,
            inputs.araddr as u64 & address,
            inputs.arprot as u64 & 7,
            inputs.arvalid as u64,
            inputs.rready as u64,
        ]);
    }
    fn decode(_shape: &BusShape, words: &[u64]) -> AxiLiteOutputs {
        AxiLiteOutputs {
            awready: words[0] != 0,
            wready: words[1] != 0,
            bresp: words[2] as u8,
            bvalid: words[3] != 0,
            arready: words[4] != 0,
            rdata: words[5],
            rresp: words[6] as u8,
            rvalid: words[7] != 0,
        }
    }
}

impl BusPorts for Wishbone {
    type Inputs = WishboneInputs;
    type Outputs = WishboneOutputs;
    const SUFFIX: &'static str = "_wb";

    fn input_ports(shape: &BusShape) -> Vec<(&'static str, usize)> {
        let mut ports = vec![
            ("wb_cyc", 1),
            ("wb_stb", 1),
            ("wb_we", 1),
            ("wb_adr", shape.address_bits),
            ("wb_dat_w", shape.data_bits),
            ("wb_sel", shape.strobe_bits()),
        ];
        if shape.privileged {
            ports.push(("wb_priv", 1));
        }
        ports
    }
    fn output_ports(shape: &BusShape) -> Vec<(&'static str, usize)> {
        vec![("wb_dat_r", shape.data_bits), ("wb_ack", 1), ("wb_err", 1)]
    }
    fn encode(shape: &BusShape, inputs: &WishboneInputs, words: &mut Vec<u64>) {
        words.extend([
            inputs.cyc as u64,
            inputs.stb as u64,
            inputs.we as u64,
            inputs.adr as u64 & shape.address_mask() as u64,
            inputs.dat_w & shape.data_mask(),
            inputs.sel as u64 & shape.all_strobes() as u64,
        ]);
        if shape.privileged {
            words.push(inputs.privileged as u64);
        }
    }
    fn decode(_shape: &BusShape, words: &[u64]) -> WishboneOutputs {
        WishboneOutputs { dat_r: words[0], ack: words[1] != 0, err: words[2] != 0 }
    }
}

/// One cycle of a wrapped top's inputs: the bare design's inputs, whose register-port
/// fields (`reg_*`) the wrapped top does not have and which are therefore ignored, and
/// the bus master's signals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrappedInputs<D, B> {
    /// The design's own inputs (`clock` aside); `reg_*` fields are ignored.
    pub design: D,
    /// The bus signals.
    pub bus: B,
}

/// A wrapped top's outputs after one edge: the bare design's outputs without its
/// register port (`reg_*` read 0), and the bus slave's signals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrappedOutputs<D, B> {
    /// The design's own outputs; `reg_*` fields are 0.
    pub design: D,
    /// The bus signals.
    pub bus: B,
}

impl<D: Signals, B: Signals> Signals for WrappedOutputs<D, B> {
    fn signals(&self) -> Vec<(&'static str, u64)> {
        let design = self.design.signals().into_iter().filter(|(name, _)| !name.starts_with(REGISTER_PORT_PREFIX));
        design.chain(self.bus.signals()).collect()
    }
}

/// A port of the bare design's record: its words, and whether the wrapped top keeps it.
#[derive(Clone, Copy, Debug)]
struct RecordSlot {
    words: usize,
    kept: bool,
}

fn record_slots(ports: &[(String, usize)]) -> Vec<RecordSlot> {
    ports
        .iter()
        .map(|(name, width)| RecordSlot { words: width.div_ceil(64), kept: !name.starts_with(REGISTER_PORT_PREFIX) })
        .collect()
}

/// The Verilator ports of a wrapped top: the bare design's codec `C` without the
/// register port, then bus `B`'s ports.
#[derive(Clone, Debug)]
pub struct WrappedCodec<C, B> {
    design: C,
    shape: BusShape,
    design_inputs: Vec<RecordSlot>,
    design_outputs: Vec<RecordSlot>,
    bus: PhantomData<B>,
}

impl<C, B: BusPorts> WrappedCodec<C, B> {
    /// The codec of the top that wraps the design of `design` in bus `B` of `shape`.
    pub fn new<I, O>(design: C, shape: BusShape) -> Self
    where
        C: PortCodec<I, O>,
    {
        let design_inputs = record_slots(&design.inputs());
        let design_outputs = record_slots(&design.outputs());
        Self { design, shape, design_inputs, design_outputs, bus: PhantomData }
    }
}

impl<I, O, C, B> PortCodec<WrappedInputs<I, B::Inputs>, WrappedOutputs<O, B::Outputs>> for WrappedCodec<C, B>
where
    C: PortCodec<I, O>,
    B: BusPorts,
{
    fn inputs(&self) -> PortList {
        let design = self.design.inputs().into_iter().filter(|(name, _)| !name.starts_with(REGISTER_PORT_PREFIX));
        design.chain(port_list(&B::input_ports(&self.shape))).collect()
    }
    fn outputs(&self) -> PortList {
        let design = self.design.outputs().into_iter().filter(|(name, _)| !name.starts_with(REGISTER_PORT_PREFIX));
        design.chain(port_list(&B::output_ports(&self.shape))).collect()
    }
    fn encode(&self, inputs: &WrappedInputs<I, B::Inputs>, words: &mut Vec<u64>) {
        let mut bare = Vec::new();
        self.design.encode(&inputs.design, &mut bare);
        let mut at = 0;
        for slot in &self.design_inputs {
            if slot.kept {
                words.extend_from_slice(&bare[at..at + slot.words]);
            }
            at += slot.words;
        }
        B::encode(&self.shape, &inputs.bus, words);
    }
    fn decode(&self, words: &[u64]) -> WrappedOutputs<O, B::Outputs> {
        // Rebuild the bare design's record with 0 for the register port's outputs.
        let mut bare = Vec::new();
        let mut at = 0;
        for slot in &self.design_outputs {
            if slot.kept {
                bare.extend_from_slice(&words[at..at + slot.words]);
                at += slot.words;
            } else {
                bare.resize(bare.len() + slot.words, 0);
            }
        }
        WrappedOutputs { design: self.design.decode(&bare), bus: B::decode(&self.shape, &words[at..]) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::monitor::{MonitorCodec, MonitorInputs, MonitorOutputs};

    #[test]
    fn the_wrapped_monitor_drops_the_register_port_and_adds_the_bus() {
        type Inputs = WrappedInputs<MonitorInputs, AxiLiteInputs>;
        type Outputs = WrappedOutputs<MonitorOutputs, AxiLiteOutputs>;
        let codec: WrappedCodec<_, Axi4Lite> = WrappedCodec::new(MonitorCodec { events: 8 }, BusShape::MONITOR);
        let inputs = PortCodec::<Inputs, Outputs>::inputs(&codec);
        let names: Vec<&str> = inputs.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(&names[..4], ["reset", "events", "start", "stop"]);
        assert!(!names.iter().any(|name| name.starts_with("reg_")));
        assert!(inputs.contains(&("s_axil_awaddr".into(), 10)) && inputs.contains(&("s_axil_wstrb".into(), 4)));

        let wrapped = WrappedInputs {
            design: MonitorInputs {
                reset: true,
                events: 0xA5,
                start: 3,
                stop: 4,
                reg_addr: 9,
                reg_wdata: 7,
                reg_write: true,
            },
            bus: AxiLiteInputs { awaddr: 0xFFFF, wstrb: 0xFF, rready: true, ..Default::default() },
        };
        let mut words = Vec::new();
        codec.encode(&wrapped, &mut words);
        assert_eq!(words[..4], [1, 0xA5, 3, 4]);
        assert_eq!(words[4], 0x3FF, "awaddr cut to 10 bits");
        assert_eq!(words[8], 0xF, "wstrb cut to 4 bits");
        assert_eq!(words.len(), 4 + 11);

        let record = [1, 0, 1, 1, 1, /* bus */ 1, 1, 2, 1, 0, 0xDEAD, 2, 1];
        let out = codec.decode(&record);
        let design =
            MonitorOutputs { matched: true, ser_data: true, ser_valid: true, ser_last: true, ..Default::default() };
        assert_eq!(out.design, design, "reg_rdata is not a port of the wrapped top");
        assert_eq!(out.bus.rdata, 0xDEAD);
        assert!(out.bus.awready && out.bus.bvalid && out.bus.rvalid && !out.bus.arready);
    }

    #[test]
    fn byte_addresses_follow_the_documented_layout() {
        assert_eq!(BusShape::MONITOR.byte_address(3, 0x10), 0x40);
        assert_eq!(BusShape::PMU.byte_address(3, 0x20), 3 * 0x800 + 0x100);
        assert_eq!((BusShape::MONITOR.offset_bits(), BusShape::PMU.offset_bits()), (2, 3));
        assert_eq!((BusShape::MONITOR.all_strobes(), BusShape::PMU.all_strobes()), (0xF, 0xFF));
        let pmu32 = BusShape::PMU32;
        assert_eq!(pmu32.byte_address(3, 0x20), BusShape::PMU.byte_address(3, 0x20), "same layout on 32-bit data");
        assert_eq!((pmu32.offset_bits(), pmu32.register_shift(), pmu32.all_strobes()), (2, 3, 0xF));
        assert!(pmu32.splits_registers() && !BusShape::PMU.splits_registers() && !BusShape::MONITOR.splits_registers());
    }

    #[test]
    fn response_payloads_are_compared_as_driven_even_outside_a_response() {
        // docs/bus.md §3: outside a response the slave drives 0, so a stale payload
        // while VALID is 0 is a difference, not a don't-care.
        let idle = AxiLiteOutputs { bresp: 2, rdata: 5, rresp: 2, ..Default::default() };
        let signals = idle.signals();
        assert!(signals.contains(&("s_axil_bresp", 2)) && signals.contains(&("s_axil_rdata", 5)));
        assert!(signals.contains(&("s_axil_rresp", 2)));
    }
}
