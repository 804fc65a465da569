//! The per-block lockstep harness: a block's native rust-hdl model against its own
//! generated Verilog under Verilator, cycle by cycle, on random inputs.
//!
//! Every block whose Verilog is written by hand (`Verilog::Custom`) keeps a plain-Rust
//! twin in its `update()`. This harness proves the two equal block by block, not only
//! through the whole design: it takes several instances of one block (drawn with random
//! parameters by the block's test), emits each alone under its own module prefix, wraps
//! them in one top so that a single Verilator build serves them all, and drives every
//! input of every instance with fresh random words each cycle (or as the block's test
//! draws them, when its inputs have rules). A block without a clock (combinational) runs
//! inside [`Combinational`](super::ports::Combinational). Every output of every
//! instance must be equal in both engines twice a cycle: with the inputs applied, before
//! the rising edge (combinational outputs see this cycle's inputs and state), and after
//! the edge; a mismatch names the sample, the instance, the cycle, the port and the seed.
//!
//! ```text
//!  seed -> stimulus --+--> instance 0..k (native, rust-hdl) --> outputs --+--> compare
//!                     +--> <name>_all (Verilator: instances 0..k) -------+
//! ```
use std::fmt::Write as _;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use pmugen_sim::ports::Engine;
use pmugen_sim::verilator::{PortList, Sampling, VerilatorEngine, WordsCodec};

use super::ports::Ports;
use super::{apply, edge};

/// Cycles sent to Verilator at a time.
const BATCH: usize = 512;

/// How an input is driven: `(rng, port name, width) -> words`.
pub type Stimulus = dyn Fn(&mut ChaCha8Rng, &str, usize) -> Vec<u64>;

/// How one instance's inputs are driven in one cycle: `(rng, instance index, its
/// inputs as (name, width)) -> words per input, in that order`. For inputs that
/// depend on each other or on the instance (a strobe and its data, an address and
/// what is written there, a register the block only reads).
pub type CycleStimulus = dyn Fn(&mut ChaCha8Rng, usize, &PortList) -> Vec<Vec<u64>>;

/// Random words for a `width`-bit port: every bit a coin flip, except `reset`, which
/// is asserted in about one cycle in 64 so that the state between resets matters.
pub fn random_input(rng: &mut ChaCha8Rng, name: &str, width: usize) -> Vec<u64> {
    if name == "reset" {
        return vec![rng.gen_ratio(1, 64) as u64];
    }
    (0..width.div_ceil(64)).map(|_| rng.gen()).collect()
}

/// One lockstep run: a test name (the prefix of every module), a seed and a length.
pub struct Lockstep {
    name: String,
    seed: u64,
    cycles: usize,
    stimulus: Box<CycleStimulus>,
    /// Planted bugs: (instance, text of its Verilog, what replaces it).
    planted: Vec<(usize, String, String)>,
}

/// One instance's ports, checked against its Verilog: (name, width) per direction.
struct Instance {
    description: String,
    /// The module has a `clock` input (a combinational block has none).
    clocked: bool,
    inputs: PortList,
    outputs: PortList,
}

impl Lockstep {
    /// A run named `name` (a Verilog identifier) from `seed`, 2,000 cycles, inputs from
    /// [`random_input`].
    pub fn new(name: &str, seed: u64) -> Self {
        Self {
            name: name.to_string(),
            seed,
            cycles: 2_000,
            stimulus: Box::new(per_port(random_input)),
            planted: Vec::new(),
        }
    }

    /// Run `cycles` cycles.
    pub fn cycles(mut self, cycles: usize) -> Self {
        self.cycles = cycles;
        self
    }

    /// Drive the inputs with `stimulus` (a block whose inputs have rules, such as a
    /// one-hot strobe, draws them here; [`random_input`] for the others).
    pub fn stimulus(mut self, stimulus: impl Fn(&mut ChaCha8Rng, &str, usize) -> Vec<u64> + 'static) -> Self {
        self.stimulus = Box::new(per_port(stimulus));
        self
    }

    /// Drive each instance's inputs with `stimulus`, all of one instance's inputs of a
    /// cycle at once (see [`CycleStimulus`]).
    pub fn cycle_stimulus(
        mut self,
        stimulus: impl Fn(&mut ChaCha8Rng, usize, &PortList) -> Vec<Vec<u64>> + 'static,
    ) -> Self {
        self.stimulus = Box::new(stimulus);
        self
    }

    /// Plant a bug in instance `instance`'s Verilog: its one occurrence of `from`
    /// becomes `to` (see [`Lockstep::caught`]).
    pub fn plant(mut self, instance: usize, from: &str, to: &str) -> Self {
        self.planted.push((instance, from.to_string(), to.to_string()));
        self
    }

    /// Run `instances` with their planted bugs, all cycles, and return for each
    /// instance the first difference between its native model and its Verilog, if
    /// any: a planted bug is caught when its instance differs (an instance without one
    /// must not).
    pub fn caught<B: Ports>(&self, instances: Vec<(String, B)>) -> Vec<Option<String>> {
        let mut first: Vec<Option<String>> = vec![None; instances.len()];
        self.run_with(
            instances,
            |_, _| {},
            |instance, difference| {
                first[instance].get_or_insert(difference);
            },
        );
        first
    }

    /// Run `instances` (each with a description of its parameters) in lockstep with
    /// their Verilog; panics at the first difference.
    pub fn run<B: Ports>(&self, instances: Vec<(String, B)>) {
        self.run_observed(instances, |_, _| {});
    }

    /// [`run`](Self::run), and `observe(instance index, instance)` of every native
    /// instance in every cycle with the inputs applied, before the edge (its outputs
    /// settled, the first sample the harness compares): to check the native model
    /// against a third model too, in the same lockstep.
    pub fn run_observed<B: Ports>(&self, instances: Vec<(String, B)>, observe: impl FnMut(usize, &mut B)) {
        self.run_with(instances, observe, |_, difference| panic!("{difference}"));
    }

    /// The run: `differ(instance, what differed)` at every cycle in which an
    /// instance's native outputs and its Verilog's differ.
    fn run_with<B: Ports>(
        &self,
        mut instances: Vec<(String, B)>,
        mut observe: impl FnMut(usize, &mut B),
        mut differ: impl FnMut(usize, String),
    ) {
        assert!(!instances.is_empty(), "lockstep {}: no instances", self.name);
        println!(
            "lockstep {}: seed {:#x}, {} cycles, {} instances",
            self.name,
            self.seed,
            self.cycles,
            instances.len()
        );
        let (verilog, checked) = self.verilog(&mut instances);
        let inputs: PortList = checked.iter().enumerate().flat_map(|(i, c)| prefixed(i, &c.inputs)).collect();
        let outputs: PortList = checked.iter().enumerate().flat_map(|(i, c)| prefixed(i, &c.outputs)).collect();
        let top = format!("{}_all", self.name);
        let codec = WordsCodec { inputs: inputs.clone(), outputs };
        let mut verilator = VerilatorEngine::start_sampling(&verilog, &top, codec, None, Sampling::BeforeAndAfterEdge)
            .unwrap_or_else(|e| panic!("lockstep {}: {e}", self.name));
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut cycle = 0;
        while cycle < self.cycles {
            let batch = BATCH.min(self.cycles - cycle);
            let mut records = Vec::with_capacity(batch);
            let mut native = Vec::with_capacity(batch);
            for _ in 0..batch {
                let record: Vec<Vec<u64>> =
                    checked.iter().enumerate().flat_map(|(i, instance)| self.drive(&mut rng, i, instance)).collect();
                native.push(step_native(&mut instances, &checked, &record, &mut observe));
                records.push(record.concat());
            }
            let mut answers = Vec::with_capacity(batch);
            verilator.step_batch(&records, &mut answers);
            for (offset, (expected, answer)) in native.iter().zip(&answers).enumerate() {
                if expected != answer {
                    for (instance, difference) in
                        self.report(&checked, cycle + offset, &records[offset], expected, answer)
                    {
                        differ(instance, difference);
                    }
                }
            }
            cycle += batch;
        }
    }

    /// The words of every input of instance `index` for one cycle, each cut to its
    /// port's width.
    fn drive(&self, rng: &mut ChaCha8Rng, index: usize, instance: &Instance) -> Vec<Vec<u64>> {
        let mut values = (self.stimulus)(rng, index, &instance.inputs);
        assert_eq!(values.len(), instance.inputs.len(), "lockstep {}: one value per input", self.name);
        for (words, (_, width)) in values.iter_mut().zip(&instance.inputs) {
            words.resize(width.div_ceil(64), 0);
            if !width.is_multiple_of(64) {
                *words.last_mut().expect("one word at least") &= (1u64 << (width % 64)) - 1;
            }
        }
        values
    }

    /// Every instance's Verilog under its own prefix, and a top `<name>_all` that
    /// instantiates them with their ports renamed `i<k>__<port>`.
    fn verilog<B: Ports>(&self, instances: &mut [(String, B)]) -> (String, Vec<Instance>) {
        let mut text = String::new();
        let mut checked = Vec::new();
        for (i, (description, uut)) in instances.iter_mut().enumerate() {
            let top = format!("{}_{i}", self.name);
            let mut verilog = crate::emit::verilog(uut, &top, &[]).unwrap_or_else(|e| panic!("{description}: {e}"));
            for (_, from, to) in self.planted.iter().filter(|(instance, _, _)| *instance == i) {
                assert_eq!(
                    verilog.matches(from.as_str()).count(),
                    1,
                    "{description}: `{from}` is not once in its Verilog"
                );
                verilog = verilog.replace(from.as_str(), to);
            }
            let module = crate::emit::module_ports(&verilog, &top).unwrap_or_else(|e| panic!("{description}: {e}"));
            checked.push(check_ports(description, uut, &module));
            text.push_str(&verilog);
        }
        let mut ports = vec!["clock".to_string()];
        let mut body = String::new();
        for (i, instance) in checked.iter().enumerate() {
            let _ = writeln!(body, "{}_{i} instance_{i}(", self.name);
            let mut connections: Vec<String> =
                instance.clocked.then(|| "    .clock(clock)".to_string()).into_iter().collect();
            for ((name, width), input) in
                instance.inputs.iter().map(|p| (p, true)).chain(instance.outputs.iter().map(|p| (p, false)))
            {
                let outer = format!("i{i}__{name}");
                let range = if *width > 1 { format!("[{}:0] ", width - 1) } else { String::new() };
                ports.push(format!("{} wire {range}{outer}", if input { "input" } else { "output" }));
                connections.push(format!("    .{name}({outer})"));
            }
            let _ = writeln!(body, "{}\n);", connections.join(",\n"));
        }
        let _ = write!(text, "module {}_all(\n    input wire clock", self.name);
        for port in &ports[1..] {
            let _ = write!(text, ",\n    {port}");
        }
        let _ = writeln!(text, "\n);\n{body}endmodule");
        (text, checked)
    }

    /// What differed in `cycle`, per instance that differed: the outputs, when, and
    /// the inputs of the cycle.
    fn report(
        &self,
        instances: &[Instance],
        cycle: usize,
        inputs: &[u64],
        native: &[u64],
        verilator: &[u64],
    ) -> Vec<(usize, String)> {
        let mut at = 0;
        let mut differences: Vec<(usize, String)> = Vec::new();
        for when in ["with the inputs applied, before the edge", "after the edge"] {
            for (i, instance) in instances.iter().enumerate() {
                for (name, width) in &instance.outputs {
                    let words = width.div_ceil(64);
                    let (n, v) = (&native[at..at + words], &verilator[at..at + words]);
                    if n != v {
                        differences.push((
                            i,
                            format!(
                                "{when}: instance {i} ({}): {name} native {n:x?}, Verilog {v:x?}",
                                instance.description
                            ),
                        ));
                    }
                    at += words;
                }
            }
        }
        let all: Vec<&str> = differences.iter().map(|(_, text)| text.as_str()).collect();
        let text = format!(
            "lockstep {} (seed {:#x}): the native model and the Verilog differ in cycle {cycle}:\n  {}\ninputs of that cycle (words, every instance): {inputs:x?}",
            self.name,
            self.seed,
            all.join("\n  ")
        );
        let mut instances: Vec<usize> = differences.iter().map(|(i, _)| *i).collect();
        instances.sort_unstable();
        instances.dedup();
        instances.into_iter().map(|i| (i, text.clone())).collect()
    }
}

/// A [`Stimulus`] as a [`CycleStimulus`]: each input drawn on its own, by its name.
fn per_port(
    stimulus: impl Fn(&mut ChaCha8Rng, &str, usize) -> Vec<u64> + 'static,
) -> impl Fn(&mut ChaCha8Rng, usize, &PortList) -> Vec<Vec<u64>> {
    move |rng, _, inputs| inputs.iter().map(|(name, width)| stimulus(rng, name, *width)).collect()
}

/// `ports` as the wrapper names them.
fn prefixed(instance: usize, ports: &PortList) -> PortList {
    ports.iter().map(|(name, width)| (format!("i{instance}__{name}"), *width)).collect()
}

/// The block's declared ports against its Verilog module's: the same names and widths,
/// each once; the directions come from the Verilog.
fn check_ports<B: Ports>(description: &str, uut: &mut B, module: &[(String, bool, usize)]) -> Instance {
    let mut declared: Vec<(String, usize)> = uut.ports().into_iter().map(|(name, port)| (name, port.width())).collect();
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    for (name, input, width) in module.iter().filter(|(name, _, _)| name != "clock") {
        let Some(index) = declared.iter().position(|(declared, _)| declared == name) else {
            panic!("{description}: the Verilog port {name} is not in the block's port list (Ports::ports)");
        };
        let (_, declared_width) = declared.remove(index);
        assert_eq!(
            declared_width, *width,
            "{description}: port {name} is {declared_width} bits natively, {width} in the Verilog"
        );
        if *input { &mut inputs } else { &mut outputs }.push((name.clone(), *width));
    }
    assert!(declared.is_empty(), "{description}: {declared:?} are not ports of the Verilog module");
    let clocked = module.iter().any(|(name, input, _)| name == "clock" && *input);
    Instance { description: description.to_string(), clocked, inputs, outputs }
}

/// The outputs of every instance, in the wrapper's order.
fn read_outputs<B: Ports>(instances: &mut [(String, B)], checked: &[Instance], words: &mut Vec<u64>) {
    for ((_, uut), instance) in instances.iter_mut().zip(checked) {
        let ports = uut.ports();
        for (name, width) in &instance.outputs {
            let (_, port) = ports.iter().find(|(declared, _)| declared == name).expect("checked port");
            let mut value = port.read();
            value.resize(width.div_ceil(64), 0);
            words.extend(value);
        }
    }
}

/// One cycle of every instance natively, sampled as the Verilator harness samples it
/// ([`Sampling::BeforeAndAfterEdge`]): drive the inputs (clock low) and read the
/// outputs, then the rising edge and read them again.
fn step_native<B: Ports>(
    instances: &mut [(String, B)],
    checked: &[Instance],
    record: &[Vec<u64>],
    observe: &mut impl FnMut(usize, &mut B),
) -> Vec<u64> {
    let mut next_input = 0;
    for ((_, uut), instance) in instances.iter_mut().zip(checked) {
        let count = instance.inputs.len();
        let values = &record[next_input..next_input + count];
        next_input += count;
        apply(
            uut,
            |u| u.clock(),
            |u| {
                let mut ports = u.ports();
                for ((name, _), value) in instance.inputs.iter().zip(values) {
                    let (_, port) = ports.iter_mut().find(|(declared, _)| declared == name).expect("checked port");
                    port.drive(value);
                }
            },
        );
    }
    let mut words = Vec::new();
    read_outputs(instances, checked, &mut words);
    for (i, (_, uut)) in instances.iter_mut().enumerate() {
        observe(i, uut);
    }
    for (_, uut) in instances.iter_mut() {
        edge(uut, |u| u.clock());
    }
    read_outputs(instances, checked, &mut words);
    words
}
