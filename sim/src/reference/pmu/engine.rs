//! The whole PMU core (§4-§7, §10, §11) and its trace unit (§13, with the profile table
//! of §15 when E > 0) at one rising edge: counting from the input stage and this cycle's registers, the register port,
//! the traced thread's block end, then every flip-flop takes its next value under §7's
//! precedence.
use super::addr;
use super::bank::Bank;
use super::block_end::BlockEnd;
use super::counting::count;
use super::edge::{next_status, CounterEdge};
use super::input_stage::InputStage;
use super::layout::{input_layout, InputLayout};
use super::port::{evaluate, PortCycle};
use super::profile::{ProfileGeometry, ProfileTable};
use super::registers::{Register, RegisterWidths};
use super::shadow::ModeChange;
use super::trace::TraceUnit;
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};
use crate::ports::Engine;

/// The reference PMU: T banks of K counters, the shared TSC, the trace unit, the input
/// stage and the registered port outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencePmu {
    config: PmuConfig,
    layout: InputLayout,
    widths: RegisterWidths,
    banks: Vec<Bank>,
    tsc: u64,
    trace: TraceUnit,
    stage: InputStage,
    /// §10: the stage's `kernel` of the previous cycle (0 after reset).
    previous_kernel: u8,
    read_data: u64,
    fault: bool,
}

impl ReferencePmu {
    /// The PMU just after reset. Panics on T, K, CW, D, AW or E out of §1's and §15's
    /// ranges or an empty event table (the caller has validated them already).
    pub fn new(config: PmuConfig) -> Self {
        assert!((1..=4).contains(&config.threads), "T = {} not in 1..=4", config.threads);
        assert!((1..=4).contains(&config.counters), "K = {} not in 1..=4", config.counters);
        assert!((16..=64).contains(&config.counter_width), "CW = {} not in 16..=64", config.counter_width);
        assert!(
            (2..=1024).contains(&config.trace_depth) && config.trace_depth.is_power_of_two(),
            "D = {} not a power of 2 in 2..=1024",
            config.trace_depth
        );
        assert!((16..=48).contains(&config.address_width), "AW = {} not in 16..=48", config.address_width);
        let entries = config.profile_entries;
        assert!(
            entries == 0 || entries.is_power_of_two() && (16..=4096).contains(&entries),
            "E = {entries} is neither 0 nor a power of 2 in 16..=4096"
        );
        assert!(!config.events.is_empty(), "the event table is empty");
        let profile = (entries > 0).then_some(ProfileGeometry {
            entries,
            threads: config.threads,
            counters: config.counters,
            counter_width: config.counter_width,
            address_width: config.address_width,
        });
        let widths = RegisterWidths { counters: config.counters, counter_width: config.counter_width };
        Self {
            layout: input_layout(&config),
            widths,
            banks: vec![Bank::reset(config.counters); config.threads],
            tsc: 0,
            trace: TraceUnit::new(config.trace_depth, profile),
            stage: InputStage::cleared(config.threads, config.events.len()),
            previous_kernel: 0,
            read_data: 0,
            fault: false,
            config,
        }
    }

    /// One rising edge with `inputs` sampled at it; returns the outputs during the
    /// following cycle.
    pub fn step(&mut self, inputs: &PmuInputs) -> PmuOutputs {
        if inputs.reset {
            // §6: reset puts every register and flip-flop to its reset value and
            // empties the trace queue; the inputs sampled at the reset edge are dropped
            // (§4), and no trace word moves at it. The profile table's entries stay
            // until its clearing (§15.4).
            let mut reset = Self::new(self.config.clone());
            std::mem::swap(&mut reset.trace, &mut self.trace);
            reset.trace.reset();
            *self = reset;
            return self.outputs();
        }
        let port = evaluate(
            inputs,
            self.config.threads,
            self.config.counters,
            self.config.profile_entries > 0,
            |thread| self.banks[thread].user_access,
            |thread, register| self.read(thread, register),
        );
        let edges: Vec<Vec<CounterEdge>> = (0..self.config.threads).map(|thread| self.thread_edges(thread)).collect();
        let block_end = self.trace.block_end(&self.stage, self.config.threads);
        self.commit(&edges, &port, block_end.as_ref());
        self.commit_trace(&edges, &port, block_end.as_ref(), inputs.trace_ready);
        self.previous_kernel = self.stage.kernel_bits();
        self.stage = InputStage::sample(inputs, &self.layout, self.config.threads, self.config.address_width);
        self.read_data = port.read_data;
        self.fault = port.fault;
        self.outputs()
    }

    /// §4 and §10 for every counter of `thread`, from this cycle's state.
    fn thread_edges(&self, thread: usize) -> Vec<CounterEdge> {
        let bank = &self.banks[thread];
        let previous_kernel = self.previous_kernel >> thread & 1 == 1;
        let mode = ModeChange::new(self.stage.kernel(thread), previous_kernel);
        (0..self.config.counters)
            .map(|i| {
                let counted = count(bank, i, thread, &self.stage, &self.config.events);
                CounterEdge::new(
                    counted,
                    mode.saves(bank, i),
                    mode.restores(bank, i),
                    bank.counters[i],
                    bank.shadows[i],
                )
            })
            .collect()
    }

    /// §7: every flip-flop of the banks and the TSC takes its next value at this edge;
    /// a block end restarts its thread's counters (§13.2).
    fn commit(&mut self, edges: &[Vec<CounterEdge>], port: &PortCycle, block_end: Option<&BlockEnd>) {
        let widths = self.widths;
        for (thread, (bank, edges)) in self.banks.iter_mut().zip(edges).enumerate() {
            let write = port.write.filter(|write| write.thread == thread);
            let written = |register: Register| {
                write.filter(|write| write.register == register).map(|write| write.data & widths.writable(register))
            };
            let restart = block_end.is_some_and(|end| end.thread == thread);
            let mut overflowed = 0;
            for (i, edge) in edges.iter().enumerate() {
                let next = edge.resolve(
                    written(Register::Counter(i)),
                    restart,
                    written(Register::Shadow(i)),
                    bank.shadows[i],
                    widths.counter_width,
                );
                bank.counters[i] = next.counter;
                bank.shadows[i] = next.shadow;
                bank.previous_conditions[i] = edge.condition;
                overflowed |= (next.overflow as u64) << i;
            }
            let cleared = written(Register::GlobalOvfCtrl).unwrap_or(0);
            bank.global_status = next_status(bank.global_status, cleared, overflowed);
            if let Some(write) = write {
                bank.write_control(write.register, write.data, widths);
            }
        }
        // §7: a TSC write wins over the +1.
        self.tsc = match port.write {
            Some(write) if write.register == Register::Tsc => write.data,
            _ => self.tsc.wrapping_add(1),
        };
    }

    /// §13: the trace unit at this edge. The record carries V_i of the block end's
    /// thread: the value each counter would take without the restart and without a
    /// write to it at this edge.
    fn commit_trace(
        &mut self,
        edges: &[Vec<CounterEdge>],
        port: &PortCycle,
        block_end: Option<&BlockEnd>,
        ready: bool,
    ) {
        let counter_width = self.widths.counter_width;
        let values: Vec<u64> = block_end
            .map(|end| edges[end.thread].iter().map(|edge| edge.would_take(counter_width)).collect())
            .unwrap_or_default();
        let write = port
            .write
            .filter(|write| write.register.is_trace())
            .map(|write| (write.register, write.data & self.widths.writable(write.register)));
        self.trace.commit(block_end, &values, ready, write);
    }

    /// What a read of `register` in bank `thread` returns during this cycle.
    fn read(&self, thread: usize, register: Register) -> u64 {
        match register {
            Register::PmuId => self.pmu_id(thread),
            Register::Tsc => self.tsc,
            register if register.is_trace() => self.trace.read(register),
            _ => self.banks[thread].read(register),
        }
    }

    /// §6 PMU_ID as read by `thread`: [7:0] T, [15:8] K, [23:16] CW, [31:24] AW,
    /// [39:32] log2 D, [41:40] the accessing thread, [46:42] log2 E (0 without a
    /// table, §15.1), [63:48] 0x504D.
    fn pmu_id(&self, thread: usize) -> u64 {
        self.config.threads as u64
            | (self.config.counters as u64) << 8
            | (self.config.counter_width as u64) << 16
            | (self.config.address_width as u64) << addr::PMU_ID_AW_SHIFT
            | (self.config.trace_depth.trailing_zeros() as u64) << addr::PMU_ID_LOG2_D_SHIFT
            | (thread as u64 & 0b11) << 40
            | (self.config.profile_entries.max(1).trailing_zeros() as u64) << addr::PMU_ID_LOG2_E_SHIFT
            | addr::PMU_ID_SIGNATURE << 48
    }

    /// The registered outputs, pmi (from the registers alone, §4) and the trace stream
    /// (from the queue alone, §13.5).
    fn outputs(&self) -> PmuOutputs {
        let pmi = self.banks.iter().enumerate().fold(0u8, |pmi, (thread, bank)| pmi | (bank.pmi() as u8) << thread);
        let stream = self.trace.presented();
        PmuOutputs {
            pmi,
            reg_rdata: self.read_data,
            reg_fault: self.fault,
            trace_data: stream.data,
            trace_valid: stream.valid,
            trace_last: stream.last,
        }
    }

    /// PERF_CNTR[index] of `thread` now.
    pub fn counter(&self, thread: usize, index: usize) -> u64 {
        self.banks[thread].counters[index]
    }

    /// SHADOW[index] of `thread` now.
    pub fn shadow(&self, thread: usize, index: usize) -> u64 {
        self.banks[thread].shadows[index]
    }

    /// PERF_EVTSEL[index] of `thread` now (§6 bits only).
    pub fn evtsel(&self, thread: usize, index: usize) -> u64 {
        self.banks[thread].event_selects[index]
    }

    /// PERF_GLOBAL_STATUS of `thread` now.
    pub fn global_status(&self, thread: usize) -> u64 {
        self.banks[thread].global_status
    }

    /// The TSC now.
    pub fn tsc(&self) -> u64 {
        self.tsc
    }

    /// TRACE_CTRL now.
    pub fn trace_ctrl(&self) -> u64 {
        self.trace.read(Register::TraceCtrl)
    }

    /// TRACE_DROPPED now.
    pub fn trace_dropped(&self) -> u64 {
        self.trace.read(Register::TraceDropped)
    }

    /// Log every trace record made from now on (for checking a stream decoder).
    pub fn log_trace_records(&mut self) {
        self.trace.log_records();
    }

    /// The trace records made since the last call, each as its stream words, and
    /// whether it was dropped (the queue was full). Empty unless logging.
    pub fn take_trace_records(&mut self) -> Vec<(Vec<u64>, bool)> {
        self.trace.take_records()
    }

    /// Trace records made and not yet sent (the one on the stream included).
    pub fn trace_occupancy(&self) -> usize {
        self.trace.occupancy()
    }

    /// The profile table (§15), if E > 0.
    pub fn profile_table(&self) -> Option<&ProfileTable> {
        self.trace.profile()
    }

    /// The configuration this PMU was built from.
    pub fn config(&self) -> &PmuConfig {
        &self.config
    }
}

impl Engine<PmuInputs, PmuOutputs> for ReferencePmu {
    fn name(&self) -> &'static str {
        "reference"
    }

    fn step(&mut self, inputs: &PmuInputs) -> PmuOutputs {
        ReferencePmu::step(self, inputs)
    }
}
