//! Tests of the bus front end: decoding byte addresses and strobes, and the 32-bit PMU
//! slaves' holding words (docs/bus.md, 32-bit PMU slaves) on both buses. Shared here: a
//! small PMU configuration and [`Master`], a master doing one whole access at a time,
//! implemented for the AXI4-Lite and the Wishbone slave so that every scenario runs on
//! both.
mod reads_32bit;
mod writes_32bit;

use super::*;
use crate::ports::bus::{AxiLiteInputs, WishboneInputs, WrappedInputs, RESP_SLVERR};
use crate::ports::pmu::{EventScope, EventSpec, PmuConfig, PmuInputs};
use crate::reference::ReferencePmu;

/// T threads, K = 2 counters of CW bits, one event, D = 4, AW = 16.
pub(crate) fn small_pmu_config(threads: usize, counter_width: usize) -> PmuConfig {
    let event = EventSpec { name: "CYCLES".into(), code: 0x2A, umask: 0, per_cycle_max: 1, scope: EventScope::Thread };
    PmuConfig {
        threads,
        counters: 2,
        counter_width,
        events: vec![event],
        trace_depth: 4,
        address_width: 16,
        profile_entries: 0,
    }
}

/// The byte offset of a register's bits [63:32] on a 32-bit PMU slave.
const HIGH: u32 = 4;

/// The +0 byte address of register `register` of thread `thread` on a 32-bit PMU slave.
fn at(thread: u8, register: u8) -> u32 {
    BusShape::PMU32.byte_address(thread, register)
}

/// A master on a 32-bit PMU slave (T = 2, K = 2, CW = 40) doing one whole access at a
/// time: it offers the access, sees it answered in the next cycle and ends it.
trait Master {
    /// The slave, just after reset.
    fn new() -> Self;
    /// One cycle without an access, with `reset` as given.
    fn idle(&mut self, reset: bool);
    /// A whole read: (error, data).
    fn read(&mut self, address: u32, privileged: bool) -> (bool, u64);
    /// A whole write: error.
    fn write_with_strobes(&mut self, address: u32, data: u64, strobes: u8, privileged: bool) -> bool;
    /// The PMU behind the slave.
    fn pmu(&self) -> &ReferencePmu;
    /// The slave's holding words.
    fn holding(&self) -> HoldingWords;

    /// A whole write with all four strobes.
    fn write(&mut self, address: u32, data: u64, privileged: bool) -> bool {
        self.write_with_strobes(address, data, 0xF, privileged)
    }
    /// `cycles` cycles without an access.
    fn wait(&mut self, cycles: usize) {
        (0..cycles).for_each(|_| self.idle(false));
    }
}

fn pmu32() -> PmuTarget {
    PmuTarget::with_bus_width(small_pmu_config(2, 40), 32)
}

/// The AXI4-Lite slave with the master's signals of the coming cycle.
struct AxiMaster(AxiLiteSlave<PmuTarget>, AxiLiteInputs);

impl AxiMaster {
    /// One edge with the held signals: (response valid, error, read data).
    fn cycle(&mut self, reset: bool) -> (bool, bool, u64) {
        let design = PmuInputs { reset, ..Default::default() };
        let out = self.0.step(&WrappedInputs { design, bus: self.1 }).bus;
        (out.bvalid || out.rvalid, out.bresp == RESP_SLVERR || out.rresp == RESP_SLVERR, out.rdata)
    }
    /// The access offered in `self.1`, taken and answered: (error, read data).
    fn transaction(&mut self) -> (bool, u64) {
        let (valid, error, data) = self.cycle(false);
        assert!(valid, "an idle slave takes the access at once");
        self.1 = AxiLiteInputs { bready: true, rready: true, ..Default::default() };
        assert!(!self.cycle(false).0, "the response was taken");
        assert!(data <= u32::MAX as u64, "32-bit read data");
        (error, data)
    }
}

impl Master for AxiMaster {
    fn new() -> Self {
        Self(AxiLiteSlave::new(pmu32()), AxiLiteInputs::default())
    }
    fn idle(&mut self, reset: bool) {
        self.1 = AxiLiteInputs { bready: true, rready: true, ..Default::default() };
        self.cycle(reset);
    }
    fn read(&mut self, araddr: u32, privileged: bool) -> (bool, u64) {
        let arprot = privileged as u8;
        self.1 = AxiLiteInputs { araddr, arprot, arvalid: true, rready: true, ..Default::default() };
        self.transaction()
    }
    fn write_with_strobes(&mut self, awaddr: u32, wdata: u64, wstrb: u8, privileged: bool) -> bool {
        let awprot = privileged as u8;
        let (awvalid, wvalid, bready) = (true, true, true);
        self.1 = AxiLiteInputs { awaddr, awprot, awvalid, wdata, wstrb, wvalid, bready, ..Default::default() };
        self.transaction().0
    }
    fn pmu(&self) -> &ReferencePmu {
        self.0.target().model()
    }
    fn holding(&self) -> HoldingWords {
        *self.0.holding()
    }
}

/// The Wishbone slave, driven as a classic master does.
struct WbMaster(WishboneSlave<PmuTarget>);

impl WbMaster {
    /// Strobe `bus` until it is answered, through the acknowledge cycle: (error, data).
    fn access(&mut self, bus: WishboneInputs) -> (bool, u64) {
        let answer = self.0.step(&WrappedInputs { design: PmuInputs::default(), bus }).bus;
        assert!(answer.ack != answer.err, "an idle slave answers in the next cycle");
        let held = self.0.step(&WrappedInputs { design: PmuInputs::default(), bus }).bus;
        assert!(!held.ack && !held.err, "the held strobe of the acknowledge cycle is not taken");
        assert!(answer.dat_r <= u32::MAX as u64, "32-bit read data");
        (answer.err, answer.dat_r)
    }
}

impl Master for WbMaster {
    fn new() -> Self {
        Self(WishboneSlave::new(pmu32()))
    }
    fn idle(&mut self, reset: bool) {
        let design = PmuInputs { reset, ..Default::default() };
        self.0.step(&WrappedInputs { design, bus: WishboneInputs::default() });
    }
    fn read(&mut self, adr: u32, privileged: bool) -> (bool, u64) {
        self.access(WishboneInputs { cyc: true, stb: true, we: false, adr, dat_w: 0, sel: 0, privileged })
    }
    fn write_with_strobes(&mut self, adr: u32, dat_w: u64, sel: u8, privileged: bool) -> bool {
        self.access(WishboneInputs { cyc: true, stb: true, we: true, adr, dat_w, sel, privileged }).0
    }
    fn pmu(&self) -> &ReferencePmu {
        self.0.target().model()
    }
    fn holding(&self) -> HoldingWords {
        *self.0.holding()
    }
}

fn read(address: u32) -> BusAccess {
    BusAccess { write: false, address, data: 0, strobes: 0, privileged: true }
}

#[test]
fn pmu_addresses_select_thread_and_register() {
    let port = decode(&BusShape::PMU, &read(3 * 0x800 + 8 * 0x21)).unwrap();
    assert_eq!((port.thread, port.register, port.write), (3, 0x21, false));
    assert_eq!(decode(&BusShape::PMU, &read(0x804)), Err(Refusal::Misaligned));
    assert_eq!(decode(&BusShape::MONITOR, &read(0x3FC)).unwrap().register, 0xFF);
    assert_eq!(decode(&BusShape::MONITOR, &read(0x41)), Err(Refusal::Misaligned));
}

#[test]
fn on_32_bit_data_both_words_reach_the_register_and_only_bits_1_0_must_be_0() {
    for address in [3 * 0x800 + 8 * 0x21, 3 * 0x800 + 8 * 0x21 + 4] {
        let port = decode(&BusShape::PMU32, &read(address)).unwrap();
        assert_eq!((port.thread, port.register), (3, 0x21), "address {address:#x}");
    }
    for address in [0x801, 0x802, 0x803, 0x805, 0x807] {
        assert_eq!(decode(&BusShape::PMU32, &read(address)), Err(Refusal::Misaligned), "address {address:#x}");
    }
    let write = BusAccess { write: true, address: 0x10, data: u64::MAX, strobes: 0xF, privileged: true };
    assert_eq!(decode(&BusShape::PMU32, &write).unwrap().data, 0xFFFF_FFFF, "32 data bits");
    assert_eq!(decode(&BusShape::PMU32, &BusAccess { strobes: 0x7, ..write }), Err(Refusal::PartialStrobes));
}

#[test]
fn reads_ignore_strobes_and_writes_need_all_of_them() {
    let write = BusAccess { write: true, address: 4, data: 1, strobes: 0xF, privileged: false };
    assert!(decode(&BusShape::MONITOR, &write).is_ok());
    assert_eq!(decode(&BusShape::MONITOR, &BusAccess { strobes: 0x7, ..write }), Err(Refusal::PartialStrobes));
    assert_eq!(decode(&BusShape::PMU, &BusAccess { address: 8, strobes: 0x7F, ..write }), Err(Refusal::PartialStrobes));
    assert!(decode(&BusShape::PMU, &BusAccess { address: 8, strobes: 0xFF, ..write }).is_ok());
    assert!(decode(&BusShape::MONITOR, &BusAccess { write: false, strobes: 0, ..write }).is_ok());
}
