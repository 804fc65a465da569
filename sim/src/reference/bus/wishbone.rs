//! The Wishbone B4 classic slave around a design's register port (docs/bus.md), cycle by
//! cycle.
//!
//! A cycle with `wb_cyc & wb_stb` while `wb_ack` and `wb_err` are both 0 (and reset 0)
//! presents its access to the register port in that cycle; `wb_ack`, or `wb_err` for
//! an access that is refused (misaligned, partial `wb_sel` on a write) or denied, is 1
//! during the next cycle only (registered). In that acknowledge cycle the master still
//! holds STB for the same access, which is not taken again. `wb_dat_r` is the read
//! data during the ACK cycle of an allowed read and 0 in every other cycle. The
//! PMU's privilege is `wb_priv`. On a 32-bit PMU window (docs/bus.md, 32-bit PMU
//! slaves) the shared front end keeps the holding words, so a +4 write answers ACK
//! without a register-port cycle and a read answers with one 32-bit half of its
//! register (`halves.rs`).
use super::front_end::FrontEnd;
use super::{BusAccess, HoldingWords, RegisterTarget, Response};
use crate::ports::bus::{WishboneInputs, WishboneOutputs, WrappedInputs, WrappedOutputs};
use crate::ports::Engine;

/// The reference Wishbone slave: a bus front end in front of `T`'s reference model.
#[derive(Clone, Debug)]
pub struct WishboneSlave<T> {
    front: FrontEnd<T>,
    /// The response shown during the current cycle (`wb_ack` or `wb_err` is 1).
    acknowledging: Option<Response>,
}

impl<T: RegisterTarget> WishboneSlave<T> {
    /// The slave around `target`, just after reset.
    pub fn new(target: T) -> Self {
        Self { front: FrontEnd::new(target), acknowledging: None }
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

    /// One rising edge with `inputs`; returns the outputs during the next cycle.
    pub fn step(
        &mut self,
        inputs: &WrappedInputs<T::Inputs, WishboneInputs>,
    ) -> WrappedOutputs<T::Outputs, WishboneOutputs> {
        let bus = &inputs.bus;
        let reset = T::in_reset(&inputs.design);
        let strobed = bus.cyc && bus.stb && self.acknowledging.is_none() && !reset;
        let accepted = strobed.then_some(BusAccess {
            write: bus.we,
            address: bus.adr,
            data: bus.dat_w,
            strobes: bus.sel,
            privileged: bus.privileged,
        });
        let (design, response) = self.front.step(&inputs.design, accepted.as_ref());
        self.acknowledging = response;
        let outputs = match response {
            Some(response) => WishboneOutputs { dat_r: response.data, ack: !response.error, err: response.error },
            None => WishboneOutputs::default(),
        };
        WrappedOutputs { design, bus: outputs }
    }
}

impl<T: RegisterTarget> Engine<WrappedInputs<T::Inputs, WishboneInputs>, WrappedOutputs<T::Outputs, WishboneOutputs>>
    for WishboneSlave<T>
{
    fn name(&self) -> &'static str {
        "reference"
    }
    fn step(
        &mut self,
        inputs: &WrappedInputs<T::Inputs, WishboneInputs>,
    ) -> WrappedOutputs<T::Outputs, WishboneOutputs> {
        WishboneSlave::step(self, inputs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MonitorTarget, PmuTarget};
    use super::*;
    use crate::ports::bus::BusShape;
    use crate::ports::pmu::{EventScope, EventSpec, PmuConfig};
    use crate::reference::monitor::addr;

    struct Bench<T: RegisterTarget> {
        slave: WishboneSlave<T>,
        design: T::Inputs,
        bus: WishboneInputs,
    }

    impl<T: RegisterTarget> Bench<T>
    where
        T::Inputs: Default,
    {
        fn new(target: T) -> Self {
            Self { slave: WishboneSlave::new(target), design: T::Inputs::default(), bus: WishboneInputs::default() }
        }
        fn cycle(&mut self) -> WishboneOutputs {
            let inputs = WrappedInputs { design: self.design.clone(), bus: self.bus };
            self.slave.step(&inputs).bus
        }
        fn strobe(&mut self, we: bool, adr: u32, dat_w: u64, sel: u8) {
            self.bus = WishboneInputs { cyc: true, stb: true, we, adr, dat_w, sel, privileged: true };
        }
        /// A complete access as a classic master does it: strobe until the ACK or ERR
        /// cycle, through it, then drop the strobe. Returns the acknowledge cycle's outputs.
        fn access(&mut self, we: bool, adr: u32, dat_w: u64, sel: u8) -> WishboneOutputs {
            self.strobe(we, adr, dat_w, sel);
            let answer = self.cycle();
            assert!(answer.ack || answer.err, "an idle slave answers in the next cycle");
            assert!(!self.cycle().ack, "the held strobe of the acknowledge cycle is not taken");
            self.bus.stb = false;
            self.bus.cyc = false;
            answer
        }
    }

    fn monitor() -> Bench<MonitorTarget> {
        Bench::new(MonitorTarget::new(2, 2))
    }

    const CTRL: u32 = 4 * addr::CTRL as u32;

    #[test]
    fn ack_lasts_one_cycle_and_a_held_strobe_is_taken_every_other_cycle() {
        let mut bench = monitor();
        bench.strobe(false, 0, 0, 0xF);
        let acks: Vec<bool> = (0..6).map(|_| bench.cycle().ack).collect();
        assert_eq!(acks, [true, false, true, false, true, false]);
    }

    #[test]
    fn dat_r_shows_read_data_only_in_the_ack_cycle_of_an_allowed_read() {
        let mut bench = monitor();
        let id = 0x4F4D_0202;
        bench.strobe(false, 0, 0, 0);
        let answer = bench.cycle();
        assert_eq!((answer.ack, answer.err, answer.dat_r), (true, false, id), "reads ignore wb_sel");
        let held = bench.cycle();
        assert_eq!((held.ack, held.dat_r), (false, 0));
        bench.bus.stb = false;
        assert_eq!(bench.cycle(), WishboneOutputs::default());

        let write = bench.access(true, CTRL, 0x41, 0xF);
        assert_eq!((write.ack, write.dat_r), (true, 0), "a write's ACK carries no data");
        let unlisted = bench.access(false, 4 * 0x12, 0, 0xF);
        assert_eq!((unlisted.err, unlisted.ack, unlisted.dat_r), (true, false, 0), "ORDER[2] does not exist for N = 2");
        let misaligned = bench.access(false, 1, 0, 0xF);
        assert_eq!((misaligned.err, misaligned.dat_r), (true, 0));
        assert!(bench.access(true, 0, 1, 0xF).err, "ID is read-only");
        assert!(bench.access(false, 4 * addr::CMD as u32, 0, 0xF).ack, "CMD may be read");
    }

    #[test]
    fn a_write_with_partial_sel_answers_err_and_writes_nothing() {
        let mut bench = monitor();
        assert!(bench.access(true, CTRL, 0x41, 0x7).err);
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x2);
        assert!(bench.access(true, CTRL, 0x41, 0xF).ack);
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x41);
    }

    #[test]
    fn strobe_and_cycle_are_both_needed() {
        let mut bench = monitor();
        bench.bus =
            WishboneInputs { cyc: true, stb: false, we: true, adr: CTRL, dat_w: 0x41, sel: 0xF, privileged: false };
        assert_eq!(bench.cycle(), WishboneOutputs::default());
        bench.bus.cyc = false;
        bench.bus.stb = true;
        assert_eq!(bench.cycle(), WishboneOutputs::default());
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x2);
    }

    #[test]
    fn reset_takes_nothing_and_clears_the_acknowledge() {
        let mut bench = monitor();
        bench.design.reset = true;
        bench.strobe(true, CTRL, 0x41, 0xF);
        assert_eq!(bench.cycle(), WishboneOutputs::default());
        bench.design.reset = false;
        assert!(bench.cycle().ack, "taken after reset");
        bench.design.reset = true;
        assert_eq!(bench.cycle(), WishboneOutputs::default());
        assert_eq!(bench.slave.target().model().read(addr::CTRL), 0x2);
    }

    #[test]
    fn pmu_privilege_is_wb_priv_and_its_faults_answer_err() {
        let event =
            EventSpec { name: "CYCLES".into(), code: 0x2A, umask: 0, per_cycle_max: 1, scope: EventScope::Thread };
        let config = PmuConfig {
            threads: 1,
            counters: 2,
            counter_width: 16,
            events: vec![event],
            trace_depth: 4,
            address_width: 16,
            profile_entries: 0,
        };
        let mut bench = Bench::new(PmuTarget::new(config));
        let evtsel = BusShape::PMU.byte_address(0, 0x28);
        bench.strobe(true, evtsel, 0x40_002A, 0xFF);
        bench.bus.privileged = false;
        assert!(bench.cycle().err, "ring 3 may not write EVTSEL");
        bench.cycle();
        bench.bus.stb = false;
        bench.cycle();
        assert_eq!(bench.slave.target().model().evtsel(0, 0), 0);
        assert!(bench.access(true, evtsel, 0x40_002A, 0xFF).ack);
        assert_eq!(bench.access(false, evtsel, 0, 0).dat_r, 0x40_002A);
        let other_thread = bench.access(false, BusShape::PMU.byte_address(1, 0x28), 0, 0);
        assert_eq!((other_thread.err, other_thread.dat_r), (true, 0), "thread 1 of T = 1");
    }
}
