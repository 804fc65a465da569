//! Co-simulation of the PMU behind its 32-bit slaves (`pmugen generate pmu --bus
//! axi4lite|wishbone --bus-width 32`, docs/bus.md §8) with the reference slaves of
//! pmugen-sim in their 32-bit form (`PmuTarget::with_bus_width(config, 32)`), on the
//! harness of bus_cosim.rs. The stimulus (sim/src/stimulus/narrow.rs) turns each
//! register access into words that make torn reads and mixed-up writes likely: +4
//! without +0, other registers and other threads' same address between the halves,
//! writes in both orders, partial strobes and misaligned accesses between halves,
//! both rings, and counters set just below a carry into bit 32.
//!
//! Besides the common coverage, each run must reach the cases of the holding words,
//! counted here from the responses alone: +4 reads right after the +0 of their
//! register (and among them some whose register's live high word had changed since,
//! so the holding word is what kept the value whole), +4 reads that are not, held +4
//! writes, +0 writes that complete a pair and +0 writes alone, and refusals between
//! the halves of a pair.

use crate::bus_cosim::{cosimulate, generate, seed, Answer, TestedBus};
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::ports::bus::{Axi4Lite, BusShape, Wishbone, WrappedCodec, WrappedInputs, WrappedOutputs};
use pmugen_sim::ports::pmu::{PmuCodec, PmuInputs, PmuOutputs};
use pmugen_sim::ports::Engine;
use pmugen_sim::reference::bus::{AxiLiteSlave, PmuTarget, WishboneSlave};
use pmugen_sim::reference::pmu::addr::{PERF_CNTR, TSC};
use pmugen_sim::reference::ReferencePmu;
use pmugen_sim::stimulus::bus::{AxiLiteMaster, BusMaster, BusStimulus, WishboneMaster};
use pmugen_sim::stimulus::NarrowPmuStimulus;

/// A reference slave around the PMU: its PMU model, to see a register's live value.
trait PmuSlave {
    fn pmu(&self) -> &ReferencePmu;
}

impl PmuSlave for AxiLiteSlave<PmuTarget> {
    fn pmu(&self) -> &ReferencePmu {
        self.target().model()
    }
}

impl PmuSlave for WishboneSlave<PmuTarget> {
    fn pmu(&self) -> &ReferencePmu {
        self.target().model()
    }
}

/// "That register" of a bus word: (thread, register address), and whether it is +4.
fn word(address: u32) -> ((u32, u32), bool) {
    ((address >> 11 & 3, address >> 3 & 0xFF), address & 4 != 0)
}

/// The holding words' cases a run reached.
#[derive(Debug, Default)]
struct HalvesTally {
    /// The register of the previous kept read if it was a +0 read, and of the previous
    /// kept write if it was a +4 write.
    last_low_read: Option<(u32, u32)>,
    last_high_write: Option<(u32, u32)>,
    paired_high_reads: usize,
    /// Paired +4 reads whose register's live high word differed from the answer.
    held_value_differs: usize,
    lone_high_reads: usize,
    held_high_writes: usize,
    pair_completing_writes: usize,
    lone_low_writes: usize,
    refused_between_halves: usize,
    ring3_okay: usize,
}

impl HalvesTally {
    fn observe(&mut self, pmu: &ReferencePmu, answer: &Answer) {
        let (register, high) = word(answer.address);
        let kept = answer.address & 3 == 0 && (!answer.write || answer.strobes & 0xF == 0xF);
        if !kept {
            let pending = self.last_low_read.is_some() || self.last_high_write.is_some();
            self.refused_between_halves += pending as usize;
            return;
        }
        self.ring3_okay += (answer.ok && !answer.privileged) as usize;
        if answer.write {
            let after_high = self.last_high_write == Some(register);
            match (high, after_high) {
                (true, _) => self.held_high_writes += answer.ok as usize,
                (false, true) => self.pair_completing_writes += 1,
                (false, false) => self.lone_low_writes += 1,
            }
            self.last_high_write = high.then_some(register);
            return;
        }
        let paired = high && self.last_low_read == Some(register);
        self.last_low_read = (!high).then_some(register);
        if !high || !answer.ok {
            return;
        }
        if !paired {
            self.lone_high_reads += 1;
            return;
        }
        self.paired_high_reads += 1;
        // The live value after the edge: the TSC has counted once since the read's
        // cycle; a counter may have counted (near enough for a tally).
        let (thread, address) = (register.0 as usize, register.1 as u8);
        let live = match address {
            TSC => Some(pmu.tsc().wrapping_sub(1)),
            a if (PERF_CNTR..PERF_CNTR + pmu.config().counters as u8).contains(&a) => {
                Some(pmu.counter(thread, (a - PERF_CNTR) as usize))
            }
            _ => None,
        };
        self.held_value_differs += live.is_some_and(|live| live >> 32 != answer.data) as usize;
    }

    fn assert_covers(&self, label: &str) {
        println!("{label}: {self:?}");
        let floors = [
            ("+4 reads right after their +0", self.paired_high_reads, 200),
            ("of them, answers the live high word would have torn", self.held_value_differs, 5),
            ("+4 reads without their +0 before", self.lone_high_reads, 100),
            ("held +4 writes", self.held_high_writes, 150),
            ("+0 writes completing a pair", self.pair_completing_writes, 100),
            ("+0 writes alone", self.lone_low_writes, 50),
            ("refusals between halves", self.refused_between_halves, 30),
            ("OKAY ring-3 accesses", self.ring3_okay, 30),
        ];
        for (what, count, floor) in floors {
            assert!(count >= floor, "{label}: only {count} {what} (at least {floor} expected)");
        }
    }
}

/// The PMU of T threads, K = 2 counters of CW bits behind the 32-bit slave of bus `B`.
fn pmu32<B, M, E>(threads: usize, counter_width: usize, slave: impl FnOnce(PmuTarget) -> E)
where
    B: TestedBus,
    M: BusMaster<Inputs = B::Inputs, Outputs = B::Outputs>,
    E: Engine<WrappedInputs<PmuInputs, B::Inputs>, WrappedOutputs<PmuOutputs, B::Outputs>> + PmuSlave,
{
    let params = PmuParams::with_default_table(threads, 2, counter_width);
    let top = format!("{}{}32", params.top_name(), B::SUFFIX);
    let (t, cw) = (threads.to_string(), counter_width.to_string());
    let design_args = ["pmu", "--threads", &t, "--counters", "2", "--counter-width", &cw];
    let verilog = generate(&design_args, &top, &["--bus", B::FLAG, "--bus-width", "32"]);
    let seed = seed();
    let config = params.port_config();
    let codec = WrappedCodec::<_, B>::new(PmuCodec::new(&config), BusShape::PMU32);
    let stimulus = BusStimulus::<_, M>::new(NarrowPmuStimulus::new(&config, seed), seed);
    let model = slave(PmuTarget::with_bus_width(config, 32));
    let mut halves = HalvesTally::default();
    let tally = cosimulate(&top, &verilog, codec, model, stimulus, seed, |model, answer| {
        if let Some(answer) = answer {
            halves.observe(model.pmu(), answer);
        }
    });
    tally.assert_covers(&top, &["pmi", "trace_valid"]);
    halves.assert_covers(&top);
}

#[test]
fn pmu_t1_k2_c40_axi4lite_32_bit() {
    pmu32::<Axi4Lite, AxiLiteMaster, _>(1, 40, AxiLiteSlave::new);
}

#[test]
fn pmu_t4_k2_c40_axi4lite_32_bit() {
    pmu32::<Axi4Lite, AxiLiteMaster, _>(4, 40, AxiLiteSlave::new);
}

#[test]
fn pmu_t1_k2_c40_wishbone_32_bit() {
    pmu32::<Wishbone, WishboneMaster, _>(1, 40, WishboneSlave::new);
}

#[test]
fn pmu_t4_k2_c40_wishbone_32_bit() {
    pmu32::<Wishbone, WishboneMaster, _>(4, 40, WishboneSlave::new);
}
