//! Co-simulation of the bus-wrapped designs (docs/bus.md): the Verilog that `pmugen
//! generate ... --bus axi4lite|wishbone` writes runs under Verilator in lockstep with
//! the reference bus slaves of pmugen-sim (sim/src/reference/bus/), which wrap the
//! designs' reference models and were written from the specification alone. Random
//! bus masters (sim/src/stimulus/bus.rs) drive the bus while the designs' own random
//! stimulus drives every other port; every output is compared after every edge.
//!
//! The seed is fixed and printed; `PMUGEN_SEED=<decimal or 0x hex>` runs another one.
//! The PMU behind its 32-bit slaves (`--bus-width 32`) is in bus32_cosim.rs, on the
//! same harness.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::Instant;

use crate::common::cli::{pmugen, scratch};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::ports::bus::{
    Axi4Lite, AxiLiteInputs, AxiLiteOutputs, BusPorts, BusShape, Wishbone, WishboneInputs, WishboneOutputs,
    WrappedCodec, WrappedInputs, WrappedOutputs, RESP_OKAY,
};
use pmugen_sim::ports::monitor::MonitorCodec;
use pmugen_sim::ports::pmu::{PmuCodec, PmuInputs, PmuOutputs};
use pmugen_sim::ports::{Engine, MonitorInputs, MonitorOutputs, Signals};
use pmugen_sim::reference::bus::{AxiLiteSlave, MonitorTarget, PmuTarget, WishboneSlave};
use pmugen_sim::stimulus::bus::{AxiLiteMaster, BusMaster, BusStimulus, DesignStimulus, WishboneMaster};
use pmugen_sim::stimulus::{PmuStimulus, RandomStimulus};
use pmugen_sim::verilator::{PortCodec, VerilatorEngine};

/// The seed when `PMUGEN_SEED` is not set.
const DEFAULT_SEED: u64 = 0xB05E1;
/// Cycles per configuration and bus.
const CYCLES: usize = 25_000;
/// Cycles sent to Verilator at once.
const BATCH: usize = 1024;
/// Inputs shown before a mismatch.
const SHOWN_INPUTS: usize = 4;

pub(crate) fn seed() -> u64 {
    let Ok(text) = std::env::var("PMUGEN_SEED") else { return DEFAULT_SEED };
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.unwrap_or_else(|_| panic!("PMUGEN_SEED={text} is not a number"))
}

/// `pmugen generate <design_args> <bus_args> --out DIR`: the wrapped top's Verilog.
pub(crate) fn generate(design_args: &[&str], top: &str, bus_args: &[&str]) -> String {
    let out = scratch(&format!("bus-cosim-{top}"));
    let out_arg = out.to_str().expect("UTF-8 path");
    let mut args = vec!["generate"];
    args.extend(design_args);
    args.extend(bus_args);
    args.extend(["--out", out_arg]);
    let (ok, log) = pmugen(&args);
    assert!(ok, "pmugen {}:\n{log}", args.join(" "));
    let path = out.join(format!("{top}.v"));
    let verilog = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(verilog.contains(&format!("module {top}(")), "{} has no module {top}", path.display());
    verilog
}

/// One bus transaction's response, as the outputs after an edge show it, with the
/// access it answers (still offered in that cycle).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Answer {
    pub write: bool,
    pub address: u32,
    pub strobes: u8,
    pub privileged: bool,
    /// OKAY / ACK (else SLVERR / ERR).
    pub ok: bool,
    /// Read data.
    pub data: u64,
}

/// What a run reached, counted on the reference's outputs.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Cycles in which each output was non-zero.
    active: BTreeMap<&'static str, usize>,
    writes_okay: usize,
    writes_refused: usize,
    reads_okay: usize,
    reads_refused: usize,
    /// OKAY reads whose data was not 0.
    reads_with_data: usize,
    /// Writes taken while a read was offered too (AXI4-Lite).
    writes_before_reads: usize,
}

impl Tally {
    fn active(&self, signal: &str) -> usize {
        self.active.get(signal).copied().unwrap_or(0)
    }

    fn count(&mut self, answer: &Answer, read_offered: bool) {
        match (answer.write, answer.ok) {
            (true, true) => self.writes_okay += 1,
            (true, false) => self.writes_refused += 1,
            (false, true) => {
                self.reads_okay += 1;
                self.reads_with_data += (answer.data != 0) as usize;
            }
            (false, false) => self.reads_refused += 1,
        }
        self.writes_before_reads += (answer.write && read_offered) as usize;
    }

    /// The bus transactions and coverage every configuration must reach.
    pub(crate) fn assert_covers(&self, label: &str, design_signals: &[&str]) {
        println!("{label}: {self:?}");
        let floors = [
            ("OKAY writes", self.writes_okay, 300),
            ("refused writes", self.writes_refused, 30),
            ("OKAY reads", self.reads_okay, 600),
            ("refused reads", self.reads_refused, 30),
            ("OKAY reads with data", self.reads_with_data, 200),
        ];
        for (what, count, floor) in floors {
            assert!(count >= floor, "{label}: only {count} {what} (at least {floor} expected)");
        }
        for signal in design_signals {
            assert!(self.active(signal) > 0, "{label}: {signal} never became 1");
        }
    }
}

/// A bus under test: its `--bus` value and how its responses show in one cycle's
/// inputs and outputs.
pub(crate) trait TestedBus: BusPorts {
    const FLAG: &'static str;
    /// The response that rose at this edge, if any.
    fn answer(inputs: &Self::Inputs, previous: &Self::Outputs, outputs: &Self::Outputs) -> Option<Answer>;
    /// A read is offered in this cycle (AXI4-Lite's AR beside a write).
    fn read_offered(inputs: &Self::Inputs) -> bool;
}

impl TestedBus for Axi4Lite {
    const FLAG: &'static str = "axi4lite";
    fn answer(inputs: &AxiLiteInputs, previous: &AxiLiteOutputs, outputs: &AxiLiteOutputs) -> Option<Answer> {
        // A response that rises was taken at this edge, from this cycle's request.
        if outputs.bvalid && !previous.bvalid {
            Some(Answer {
                write: true,
                address: inputs.awaddr,
                strobes: inputs.wstrb,
                privileged: inputs.awprot & 1 == 1,
                ok: outputs.bresp == RESP_OKAY,
                data: 0,
            })
        } else if outputs.rvalid && !previous.rvalid {
            Some(Answer {
                write: false,
                address: inputs.araddr,
                strobes: 0,
                privileged: inputs.arprot & 1 == 1,
                ok: outputs.rresp == RESP_OKAY,
                data: outputs.rdata,
            })
        } else {
            None
        }
    }
    fn read_offered(inputs: &AxiLiteInputs) -> bool {
        inputs.arvalid
    }
}

impl TestedBus for Wishbone {
    const FLAG: &'static str = "wishbone";
    fn answer(inputs: &WishboneInputs, _previous: &WishboneOutputs, outputs: &WishboneOutputs) -> Option<Answer> {
        // The master still offers the access in its ACK or ERR cycle.
        (outputs.ack || outputs.err).then_some(Answer {
            write: inputs.we,
            address: inputs.adr,
            strobes: inputs.sel,
            privileged: inputs.privileged,
            ok: outputs.ack,
            data: outputs.dat_r,
        })
    }
    fn read_offered(_inputs: &WishboneInputs) -> bool {
        false
    }
}

/// Run the reference slave `model` and the Verilator model of `verilog` (top `top`)
/// in lockstep for [`CYCLES`] cycles of `stimulus`; panic at the first output that
/// differs with the seed, the cycle, the port, both values and the last inputs.
/// `observe` sees the model after each edge and the response that rose at it.
pub(crate) fn cosimulate<DI, DO, C, B, S, M, E>(
    top: &str,
    verilog: &str,
    codec: WrappedCodec<C, B>,
    mut model: E,
    mut stimulus: BusStimulus<S, M>,
    seed: u64,
    mut observe: impl FnMut(&E, Option<&Answer>),
) -> Tally
where
    DI: Clone + Debug,
    DO: Clone + Debug + Default + Signals,
    C: PortCodec<DI, DO>,
    B: TestedBus,
    S: DesignStimulus<Inputs = DI>,
    M: BusMaster<Inputs = B::Inputs, Outputs = B::Outputs>,
    E: Engine<WrappedInputs<DI, B::Inputs>, WrappedOutputs<DO, B::Outputs>>,
    WrappedCodec<C, B>: PortCodec<WrappedInputs<DI, B::Inputs>, WrappedOutputs<DO, B::Outputs>>,
{
    println!("{top}: {CYCLES} cycles, seed {seed:#x} (PMUGEN_SEED overrides it)");
    let started = Instant::now();
    let mut verilator = VerilatorEngine::start(verilog, top, codec, None).unwrap_or_else(|e| panic!("{e}"));
    let built = started.elapsed();
    let mut tally = Tally::default();
    let mut history: Vec<WrappedInputs<DI, B::Inputs>> = Vec::with_capacity(CYCLES);
    let mut last = WrappedOutputs::<DO, B::Outputs>::default();
    let mut actual = Vec::with_capacity(BATCH);
    let mut expected = Vec::with_capacity(BATCH);
    while history.len() < CYCLES {
        let first = history.len();
        expected.clear();
        for _ in 0..BATCH.min(CYCLES - first) {
            let inputs = stimulus.next_inputs(&last.bus);
            let outputs = model.step(&inputs);
            let answer = B::answer(&inputs.bus, &last.bus, &outputs.bus);
            if let Some(answer) = &answer {
                tally.count(answer, B::read_offered(&inputs.bus));
            }
            observe(&model, answer.as_ref());
            for (name, value) in outputs.signals() {
                *tally.active.entry(name).or_default() += (value != 0) as usize;
            }
            history.push(inputs);
            expected.push(outputs.clone());
            last = outputs;
        }
        actual.clear();
        verilator.step_batch(&history[first..], &mut actual);
        for (offset, (want, got)) in expected.iter().zip(&actual).enumerate() {
            let cycle = first + offset;
            for ((name, reference), (_, hardware)) in want.signals().into_iter().zip(got.signals()) {
                if reference != hardware {
                    let shown: Vec<String> = history[cycle.saturating_sub(SHOWN_INPUTS - 1)..=cycle]
                        .iter()
                        .enumerate()
                        .map(|(i, inputs)| {
                            format!("  cycle {}: {inputs:?}", cycle.saturating_sub(SHOWN_INPUTS - 1) + i)
                        })
                        .collect();
                    panic!(
                        "{top} seed {seed:#x}: after the edge of cycle {cycle}, port {name} is {hardware:#x} in \
                         Verilator but {reference:#x} in the reference model\nlast inputs:\n{}\nreference outputs: \
                         {want:?}\nVerilator outputs: {got:?}",
                        shown.join("\n")
                    );
                }
            }
        }
    }
    println!("{top}: no difference; Verilator model ready in {built:.1?}, whole run {:.1?}", started.elapsed());
    tally
}

/// The monitor of N = `events`, W = `order_width`, wrapped in bus `B`.
fn monitor<B, M, E>(events: usize, order_width: usize, slave: impl FnOnce(MonitorTarget) -> E) -> Tally
where
    B: TestedBus,
    M: BusMaster<Inputs = B::Inputs, Outputs = B::Outputs>,
    E: Engine<WrappedInputs<MonitorInputs, B::Inputs>, WrappedOutputs<MonitorOutputs, B::Outputs>>,
{
    let top = MonitorParams::new(events as u64, order_width as u64).unwrap().top_name() + B::SUFFIX;
    let (n, w) = (events.to_string(), order_width.to_string());
    let verilog = generate(&["monitor", "--events", &n, "--order-width", &w], &top, &["--bus", B::FLAG]);
    let seed = seed();
    let codec = WrappedCodec::<_, B>::new(MonitorCodec { events }, BusShape::MONITOR);
    let stimulus = BusStimulus::<_, M>::new(RandomStimulus::new(events, order_width, seed), seed);
    let model = slave(MonitorTarget::new(events, order_width));
    let tally = cosimulate(&top, &verilog, codec, model, stimulus, seed, |_, _| {});
    tally.assert_covers(&top, &["matched", "window", "ser_last"]);
    tally
}

/// The PMU of T threads, K counters of CW bits (default event table, D, AW), wrapped in bus `B`.
fn pmu<B, M, E>(threads: usize, counters: usize, counter_width: usize, slave: impl FnOnce(PmuTarget) -> E) -> Tally
where
    B: TestedBus,
    M: BusMaster<Inputs = B::Inputs, Outputs = B::Outputs>,
    E: Engine<WrappedInputs<PmuInputs, B::Inputs>, WrappedOutputs<PmuOutputs, B::Outputs>>,
{
    let params = PmuParams::with_default_table(threads, counters, counter_width);
    let top = params.top_name() + B::SUFFIX;
    let (t, k, cw) = (threads.to_string(), counters.to_string(), counter_width.to_string());
    let design_args = ["pmu", "--threads", &t, "--counters", &k, "--counter-width", &cw];
    let verilog = generate(&design_args, &top, &["--bus", B::FLAG]);
    let seed = seed();
    let config = params.port_config();
    let codec = WrappedCodec::<_, B>::new(PmuCodec::new(&config), BusShape::PMU);
    let stimulus = BusStimulus::<_, M>::new(PmuStimulus::new(&config, seed), seed);
    let tally = cosimulate(&top, &verilog, codec, slave(PmuTarget::new(config)), stimulus, seed, |_, _| {});
    tally.assert_covers(&top, &["pmi", "trace_valid"]);
    tally
}

fn assert_writes_went_before_reads(tally: &Tally) {
    assert!(tally.writes_before_reads >= 20, "only {} writes taken over an offered read", tally.writes_before_reads);
}

#[test]
fn monitor_n2_w2_axi4lite() {
    let tally = monitor::<Axi4Lite, AxiLiteMaster, _>(2, 2, AxiLiteSlave::new);
    assert_writes_went_before_reads(&tally);
}

#[test]
fn monitor_n8_w3_axi4lite() {
    let tally = monitor::<Axi4Lite, AxiLiteMaster, _>(8, 3, AxiLiteSlave::new);
    assert_writes_went_before_reads(&tally);
}

#[test]
fn monitor_n2_w2_wishbone() {
    monitor::<Wishbone, WishboneMaster, _>(2, 2, WishboneSlave::new);
}

#[test]
fn monitor_n8_w3_wishbone() {
    monitor::<Wishbone, WishboneMaster, _>(8, 3, WishboneSlave::new);
}

#[test]
fn pmu_t1_k2_c16_axi4lite() {
    let tally = pmu::<Axi4Lite, AxiLiteMaster, _>(1, 2, 16, AxiLiteSlave::new);
    assert_writes_went_before_reads(&tally);
}

#[test]
fn pmu_t4_k2_c40_axi4lite() {
    let tally = pmu::<Axi4Lite, AxiLiteMaster, _>(4, 2, 40, AxiLiteSlave::new);
    assert_writes_went_before_reads(&tally);
}

#[test]
fn pmu_t1_k2_c16_wishbone() {
    pmu::<Wishbone, WishboneMaster, _>(1, 2, 16, WishboneSlave::new);
}

#[test]
fn pmu_t4_k2_c40_wishbone() {
    pmu::<Wishbone, WishboneMaster, _>(4, 2, 40, WishboneSlave::new);
}
