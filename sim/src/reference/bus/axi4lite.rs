//! The AXI4-Lite slave around a design's register port (docs/bus.md), cycle by cycle.
//!
//! One transaction at a time. In an idle cycle (no transaction in progress, reset 0)
//! AW and W are taken together when both are valid, AWREADY = WREADY = 1 in that same
//! cycle (combinational), and the write is presented to the register port in that
//! cycle; otherwise a valid AR is taken the same way (ARREADY = 1): a write and a read
//! both pending, the write goes first. From the next cycle on BVALID (RVALID) is 1
//! with BRESP (RRESP, RDATA) held until the cycle in which BREADY (RREADY) is 1, which
//! ends the transaction; the READY outputs stay 0 until the cycle after that handshake,
//! so at best one transaction takes two cycles. Reset (synchronous) accepts nothing
//! and clears the response.
//!
//! Outputs are given as the Verilator harness samples them: after the edge, with the
//! cycle's inputs still applied. The READY outputs are therefore the state after the
//! edge combined with the inputs of the cycle (ports/bus.rs).
//!
//! The data width is the design's [`crate::ports::bus::BusShape`]: on a 32-bit PMU
//! window (docs/bus.md, 32-bit PMU slaves) the shared front end keeps the holding
//! words, so a +4 write answers OKAY without a register-port cycle and a read answers
//! with one 32-bit half of its register (`halves.rs`).
use super::front_end::FrontEnd;
use super::{BusAccess, HoldingWords, RegisterTarget, Response};
use crate::ports::bus::{AxiLiteInputs, AxiLiteOutputs, WrappedInputs, WrappedOutputs, RESP_OKAY, RESP_SLVERR};
use crate::ports::Engine;

/// Where the slave is between two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No transaction in progress: the next valid request is taken.
    Idle,
    /// A transaction was taken; its response is offered until the master takes it.
    Responding(Response),
}

/// The reference AXI4-Lite slave: a bus front end in front of `T`'s reference model.
#[derive(Clone, Debug)]
pub struct AxiLiteSlave<T> {
    front: FrontEnd<T>,
    phase: Phase,
}

impl<T: RegisterTarget> AxiLiteSlave<T> {
    /// The slave around `target`, just after reset.
    pub fn new(target: T) -> Self {
        Self { front: FrontEnd::new(target), phase: Phase::Idle }
    }

    /// The design behind the slave.
    pub fn target(&self) -> &T {
        self.front.target()
    }

    /// The holding words of a 32-bit PMU slave (docs/bus.md, 32-bit PMU slaves);
    /// always empty on a window whose registers are one bus word.
    pub fn holding(&self) -> &HoldingWords {
        self.front.holding()
    }

    /// One rising edge with `inputs`; returns the outputs as sampled after it.
    pub fn step(
        &mut self,
        inputs: &WrappedInputs<T::Inputs, AxiLiteInputs>,
    ) -> WrappedOutputs<T::Outputs, AxiLiteOutputs> {
        let bus = &inputs.bus;
        let reset = T::in_reset(&inputs.design);
        let accepted = if reset || self.phase != Phase::Idle { None } else { Self::request(bus) };
        let (design, response) = self.front.step(&inputs.design, accepted.as_ref());
        self.phase = match (response, self.phase) {
            _ if reset => Phase::Idle,
            (Some(response), _) => Phase::Responding(response),
            // The handshake cycle ends the transaction.
            (None, Phase::Responding(response)) if Self::response_taken(bus, &response) => Phase::Idle,
            (None, phase) => phase,
        };
        WrappedOutputs { design, bus: self.sampled_outputs(bus, reset) }
    }

    /// The request an idle slave takes from `bus`: the write when AW and W are both
    /// valid, else the read when AR is valid (docs/bus.md: the write goes first).
    fn request(bus: &AxiLiteInputs) -> Option<BusAccess> {
        if bus.awvalid && bus.wvalid {
            Some(BusAccess {
                write: true,
                address: bus.awaddr,
                data: bus.wdata,
                strobes: bus.wstrb,
                privileged: bus.awprot & 1 == 1,
            })
        } else if bus.arvalid {
            Some(BusAccess { write: false, address: bus.araddr, data: 0, strobes: 0, privileged: bus.arprot & 1 == 1 })
        } else {
            None
        }
    }

    fn response_taken(bus: &AxiLiteInputs, response: &Response) -> bool {
        if response.write {
            bus.bready
        } else {
            bus.rready
        }
    }

    /// The bus outputs after the edge: registered responses, and READY outputs from
    /// the new phase and the cycle's (still applied) inputs.
    fn sampled_outputs(&self, bus: &AxiLiteInputs, reset: bool) -> AxiLiteOutputs {
        let idle = !reset && self.phase == Phase::Idle;
        let write_offered = bus.awvalid && bus.wvalid;
        let resp = |response: &Response| if response.error { RESP_SLVERR } else { RESP_OKAY };
        let mut outputs = AxiLiteOutputs {
            awready: idle && write_offered,
            wready: idle && write_offered,
            arready: idle && bus.arvalid && !write_offered,
            ..Default::default()
        };
        if let Phase::Responding(response) = &self.phase {
            if response.write {
                outputs.bvalid = true;
                outputs.bresp = resp(response);
            } else {
                outputs.rvalid = true;
                outputs.rresp = resp(response);
                outputs.rdata = response.data;
            }
        }
        outputs
    }
}

impl<T: RegisterTarget> Engine<WrappedInputs<T::Inputs, AxiLiteInputs>, WrappedOutputs<T::Outputs, AxiLiteOutputs>>
    for AxiLiteSlave<T>
{
    fn name(&self) -> &'static str {
        "reference"
    }
    fn step(&mut self, inputs: &WrappedInputs<T::Inputs, AxiLiteInputs>) -> WrappedOutputs<T::Outputs, AxiLiteOutputs> {
        AxiLiteSlave::step(self, inputs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MonitorTarget, PmuTarget};
    use super::*;
    use crate::ports::bus::BusShape;
    use crate::ports::pmu::{EventScope, EventSpec, PmuConfig};
    use crate::reference::monitor::addr;

    /// A master driving the slave by hand: set `bus` (and `design`), then `cycle`.
    struct Bench<T: RegisterTarget> {
        slave: AxiLiteSlave<T>,
        design: T::Inputs,
        bus: AxiLiteInputs,
    }

    impl<T: RegisterTarget> Bench<T>
    where
        T::Inputs: Default,
    {
        fn new(target: T) -> Self {
            Self { slave: AxiLiteSlave::new(target), design: T::Inputs::default(), bus: AxiLiteInputs::default() }
        }
        fn shape(&self) -> BusShape {
            self.slave.target().shape()
        }
        /// One edge; returns the bus outputs as sampled after it.
        fn cycle(&mut self) -> AxiLiteOutputs {
            let inputs = WrappedInputs { design: self.design.clone(), bus: self.bus };
            self.slave.step(&inputs).bus
        }
        fn offer_write(&mut self, address: u32, data: u64, strobes: u8) {
            let (awaddr, wdata, wstrb) = (address, data, strobes);
            self.bus = AxiLiteInputs { awaddr, wdata, wstrb, awvalid: true, wvalid: true, awprot: 1, ..self.bus };
        }
        fn offer_read(&mut self, address: u32) {
            self.bus = AxiLiteInputs { araddr: address, arvalid: true, arprot: 1, ..self.bus };
        }
        /// A complete write with BREADY high: its BRESP.
        fn write(&mut self, address: u32, data: u64) -> u8 {
            let strobes = self.shape().all_strobes();
            self.write_with_strobes(address, data, strobes)
        }
        fn write_with_strobes(&mut self, address: u32, data: u64, strobes: u8) -> u8 {
            self.offer_write(address, data, strobes);
            self.bus.bready = true;
            let taken = self.cycle();
            assert!(taken.bvalid, "the write is taken in the cycle it is offered");
            self.bus.awvalid = false;
            self.bus.wvalid = false;
            assert!(!self.cycle().bvalid, "BREADY was high: the response is taken");
            taken.bresp
        }
        /// A complete read with RREADY high: (RRESP, RDATA).
        fn read(&mut self, address: u32) -> (u8, u64) {
            self.offer_read(address);
            self.bus.rready = true;
            let taken = self.cycle();
            assert!(taken.rvalid, "the read is taken in the cycle it is offered");
            self.bus.arvalid = false;
            assert!(!self.cycle().rvalid, "RREADY was high: the response is taken");
            (taken.rresp, taken.rdata)
        }
    }

    fn monitor() -> Bench<MonitorTarget> {
        Bench::new(MonitorTarget::new(8, 3))
    }

    /// Two threads, two 16-bit counters, one event.
    fn pmu() -> Bench<PmuTarget> {
        let event =
            EventSpec { name: "CYCLES".into(), code: 0x2A, umask: 0, per_cycle_max: 1, scope: EventScope::Thread };
        let config = PmuConfig {
            threads: 2,
            counters: 2,
            counter_width: 16,
            events: vec![event],
            trace_depth: 4,
            address_width: 16,
            profile_entries: 0,
        };
        Bench::new(PmuTarget::new(config))
    }

    const CTRL: u32 = 4 * addr::CTRL as u32;

    #[test]
    fn a_write_goes_before_a_read_offered_in_the_same_cycle() {
        let mut bench = monitor();
        bench.offer_write(CTRL, 0x41, 0xF);
        bench.offer_read(CTRL);
        let first = bench.cycle();
        assert!(first.bvalid && !first.rvalid, "the write is taken, the read waits");
        assert!(!first.arready && !first.awready, "busy after the edge: nothing else is taken");
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x41, "the write acted at its edge");

        // The master saw the write taken; the read stays offered.
        bench.bus.awvalid = false;
        bench.bus.wvalid = false;
        assert!(bench.cycle().bvalid, "BVALID holds while BREADY is 0");
        assert!(bench.cycle().bvalid, "BVALID holds while BREADY is 0");
        bench.bus.bready = true;
        let handshake = bench.cycle();
        assert!(!handshake.bvalid && !handshake.rvalid, "the handshake cycle takes nothing new");
        assert!(handshake.arready, "idle after the handshake edge with AR valid: ARREADY (as sampled)");
        let read = bench.cycle();
        assert!(read.rvalid && read.rresp == RESP_OKAY);
        assert_eq!(read.rdata, 0x41, "the read came after the write");
    }

    #[test]
    fn ready_needs_both_write_channels_valid() {
        let mut bench = monitor();
        bench.bus = AxiLiteInputs { awaddr: CTRL, awvalid: true, wstrb: 0xF, ..Default::default() };
        for _ in 0..3 {
            let out = bench.cycle();
            assert!(!out.awready && !out.wready && !out.bvalid, "AW alone is not taken");
        }
        bench.bus = AxiLiteInputs { wdata: 5, wstrb: 0xF, wvalid: true, ..Default::default() };
        let out = bench.cycle();
        assert!(!out.awready && !out.wready && !out.bvalid, "W alone is not taken");
        bench.bus.awvalid = true;
        bench.bus.awaddr = CTRL;
        assert!(bench.cycle().bvalid, "taken once both are valid");
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 5);
    }

    #[test]
    fn partial_strobes_answer_slverr_and_write_nothing() {
        let mut bench = monitor();
        for strobes in [0x0, 0x1, 0x7, 0xE] {
            assert_eq!(bench.write_with_strobes(CTRL, 0x41, strobes), RESP_SLVERR, "WSTRB {strobes:#x}");
            assert_eq!(bench.read(CTRL), (RESP_OKAY, 0x2), "CTRL keeps its reset value");
        }
        assert_eq!(bench.write(CTRL, 0x41), RESP_OKAY);
        assert_eq!(bench.read(CTRL), (RESP_OKAY, 0x41));

        let mut bench = pmu();
        let evtsel = BusShape::PMU.byte_address(0, 0x28);
        assert_eq!(bench.write_with_strobes(evtsel, 0x40_002A, 0x7F), RESP_SLVERR);
        assert_eq!(bench.slave.target().model().evtsel(0, 0), 0);
    }

    #[test]
    fn read_data_holds_until_rready_and_the_next_read_waits_a_cycle() {
        let mut bench = pmu();
        let tsc = BusShape::PMU.byte_address(0, 0x10);
        bench.cycle();
        let tsc_during_accept = bench.slave.target().model().tsc();
        bench.offer_read(tsc);
        let taken = bench.cycle();
        assert!(taken.rvalid && taken.rresp == RESP_OKAY);
        assert_eq!(taken.rdata, tsc_during_accept, "the TSC's value during the accept cycle");
        // AR stays valid all along: a new read is taken only after the handshake cycle.
        for _ in 0..5 {
            let held = bench.cycle();
            assert!(held.rvalid && !held.arready);
            assert_eq!(held.rdata, taken.rdata, "RDATA holds while the TSC runs on");
        }
        bench.bus.rready = true;
        assert!(!bench.cycle().rvalid, "the handshake cycle ends the read");
        let next = bench.cycle();
        assert!(next.rvalid && next.rdata > taken.rdata, "the next read is taken in the cycle after");
        assert!(!bench.cycle().rvalid);
        assert!(bench.cycle().rvalid, "with RREADY and ARVALID always high: one read per two cycles");
    }

    #[test]
    fn misaligned_unlisted_and_read_only_accesses_answer_slverr_and_do_nothing() {
        let mut bench = monitor();
        assert_eq!(bench.write(CTRL | 1, 0x41), RESP_SLVERR, "misaligned write");
        assert_eq!(bench.read(CTRL), (RESP_OKAY, 0x2));
        assert_eq!(bench.read(CTRL | 2), (RESP_SLVERR, 0), "misaligned read reads 0");
        assert_eq!(bench.read(4 * 0x06), (RESP_SLVERR, 0), "unlisted register");
        assert_eq!(bench.read(4 * 0x18), (RESP_SLVERR, 0), "ORDER[8] does not exist for N = 8");
        assert_eq!(bench.read(4 * 0x17), (RESP_OKAY, 0), "ORDER[7] exists");
        assert_eq!(bench.read(4 * addr::CMD as u32), (RESP_OKAY, 0), "CMD reads 0");
        assert_eq!(bench.write(0, 1), RESP_SLVERR, "ID is read-only");
        assert_eq!(bench.read(0).0, RESP_OKAY);
        assert_eq!(bench.write(4 * addr::COUNT as u32, 1), RESP_SLVERR, "COUNT is read-only");
    }

    #[test]
    fn pmu_privilege_comes_from_axprot_and_its_faults_answer_slverr() {
        let mut bench = pmu();
        let evtsel = BusShape::PMU.byte_address(1, 0x28);
        bench.offer_write(evtsel, 0x40_002A, 0xFF);
        bench.bus.awprot = 0b110;
        bench.bus.bready = true;
        assert_eq!(bench.cycle().bresp, RESP_SLVERR, "ring 3 may not write EVTSEL");
        bench.bus.awvalid = false;
        bench.bus.wvalid = false;
        bench.cycle();
        assert_eq!(bench.slave.target().model().evtsel(1, 0), 0);
        assert_eq!(bench.write(evtsel, 0x40_002A), RESP_OKAY);
        assert_eq!(bench.slave.target().model().evtsel(1, 0), 0x40_002A, "thread 1's bank from address bit 11");

        bench.offer_read(evtsel);
        bench.bus.arprot = 0;
        bench.bus.rready = true;
        let denied = bench.cycle();
        assert_eq!((denied.rresp, denied.rdata), (RESP_SLVERR, 0), "ring 3 may not read EVTSEL");
        bench.bus.arvalid = false;
        bench.cycle();
        assert_eq!(bench.read(evtsel), (RESP_OKAY, 0x40_002A));
        assert_eq!(bench.read(BusShape::PMU.byte_address(2, 0x00)).0, RESP_SLVERR, "thread 2 of T = 2");
    }

    #[test]
    fn reset_cancels_the_response_and_takes_nothing() {
        let mut bench = monitor();
        bench.offer_write(CTRL, 0x41, 0xF);
        assert!(bench.cycle().bvalid);
        bench.design.reset = true;
        bench.bus.arvalid = true;
        let during = bench.cycle();
        assert!(!during.bvalid && !during.awready && !during.arready, "nothing offered or taken at reset");
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x2);
        bench.design.reset = false;
        let after = bench.cycle();
        assert!(after.bvalid && !after.rvalid, "idle after reset: the write still offered goes first");
    }
}
