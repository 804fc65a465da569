//! The PMU's ports as plain values: one cycle of inputs and the registered outputs
//! after that cycle's edge, plus the configuration every PMU engine is built from.
//! Shared by the reference model, the native rust-hdl model and Verilator.
//!
//! Wide ports are little-endian vectors of 64-bit words: bit `b` of the port is bit
//! `b % 64` of word `b / 64`; words beyond the port's width are 0.
use super::{Engine, Signals};

/// Where an event's input comes from (the event table's `Scope` key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventScope {
    /// Each thread has its own field in `events`.
    Thread,
    /// One field in `core_events`, with no thread context.
    Core,
}

/// One event of the event table, as far as counting needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    /// `EventName`.
    pub name: String,
    /// `EventCode`.
    pub code: u8,
    /// `UMask`.
    pub umask: u8,
    /// `PerCycleMax`, 1..=255: sets the width of the event's input field.
    pub per_cycle_max: u8,
    /// `Scope`.
    pub scope: EventScope,
}

/// The parameters of one PMU: threads, counters per thread, counter width and the
/// event table in table order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmuConfig {
    /// T, 1..=4.
    pub threads: usize,
    /// K, 1..=4.
    pub counters: usize,
    /// CW, 16..=64.
    pub counter_width: usize,
    /// The event table, in table order (at least one event).
    pub events: Vec<EventSpec>,
    /// D, the trace queue's depth in records: 2..=1024, a power of 2.
    pub trace_depth: usize,
    /// AW, bits of a basic-block address: 16..=48.
    pub address_width: usize,
    /// E, entries of the profile table (docs/pmu.md §15): 0 (no table) or a power of 2
    /// in 16..=4096.
    pub profile_entries: usize,
}

/// D when not given.
pub const DEFAULT_TRACE_DEPTH: usize = 256;
/// AW when not given.
pub const DEFAULT_ADDRESS_WIDTH: usize = 32;

/// The inputs sampled at one rising edge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PmuInputs {
    /// `reset`: synchronous, active high.
    pub reset: bool,
    /// `events`: thread t's thread-scope fields at bits [t*TEW +: TEW].
    pub events: Vec<u64>,
    /// `core_events`: the core-scope fields.
    pub core_events: Vec<u64>,
    /// `kernel`: bit t = thread t runs in ring 0.
    pub kernel: u8,
    /// `pm_mark`: bit t = thread t runs a marked process.
    pub pm_mark: u8,
    /// `bb_end`: bit t = thread t ends a basic block this cycle.
    pub bb_end: u8,
    /// `bb_addr`: thread t's block address (AW bits) in element t.
    pub bb_addr: [u64; 4],
    /// `pid`: thread t's process id in element t.
    pub pid: [u32; 4],
    /// `trace_ready`: the consumer takes the trace word this cycle.
    pub trace_ready: bool,
    /// `reg_thread`: the accessing thread (register bank), 2 bits.
    pub reg_thread: u8,
    /// `reg_priv`: 1 = ring 0.
    pub reg_priv: bool,
    /// `reg_addr`: register address.
    pub reg_addr: u8,
    /// `reg_wdata`: write data.
    pub reg_wdata: u64,
    /// `reg_write`: write this cycle.
    pub reg_write: bool,
    /// `reg_read`: read this cycle.
    pub reg_read: bool,
}

/// The outputs during the cycle after an edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PmuOutputs {
    /// `pmi`: bit t = thread t's overflow interrupt.
    pub pmi: u8,
    /// `reg_rdata`: registered read data.
    pub reg_rdata: u64,
    /// `reg_fault`: registered, 1 after a denied access.
    pub reg_fault: bool,
    /// `trace_data`: the trace stream word (0 while `trace_valid` is 0).
    pub trace_data: u64,
    /// `trace_valid`: `trace_data` holds a word.
    pub trace_valid: bool,
    /// `trace_last`: the word is the last of its record (0 while `trace_valid` is 0).
    pub trace_last: bool,
}

impl Signals for PmuOutputs {
    fn signals(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("pmi", self.pmi as u64),
            ("reg_rdata", self.reg_rdata),
            ("reg_fault", self.reg_fault as u64),
            ("trace_data", self.trace_data),
            ("trace_valid", self.trace_valid as u64),
            ("trace_last", self.trace_last as u64),
        ]
    }
}

/// The PMU's Verilog ports for the Verilator harness.
#[derive(Clone, Copy, Debug)]
pub struct PmuCodec {
    /// T.
    pub threads: usize,
    /// Width of `events`.
    pub events_width: usize,
    /// Width of `core_events`.
    pub core_events_width: usize,
    /// AW.
    pub address_width: usize,
}

impl PmuCodec {
    /// The ports of a PMU of `config`.
    pub fn new(config: &PmuConfig) -> Self {
        let width = |scope: EventScope| -> usize {
            let bits: usize = config
                .events
                .iter()
                .filter(|e| e.scope == scope)
                .map(|e| (u8::BITS - e.per_cycle_max.leading_zeros()) as usize)
                .sum();
            bits
        };
        Self {
            threads: config.threads,
            events_width: (config.threads * width(EventScope::Thread)).max(1),
            core_events_width: width(EventScope::Core).max(1),
            address_width: config.address_width,
        }
    }

    /// Fields of `width` (<= 64) bits, the first at the LSBs, as little-endian words
    /// (the per-thread ports `bb_addr` and `pid`; word by word, as this runs every cycle).
    fn push_packed(words: &mut Vec<u64>, fields: impl Iterator<Item = u64>, width: usize) {
        let (mut pending, mut bits) = (0u128, 0);
        for field in fields {
            pending |= (field as u128) << bits;
            bits += width;
            if bits >= 64 {
                words.push(pending as u64);
                (pending, bits) = (pending >> 64, bits - 64);
            }
        }
        if bits > 0 {
            words.push(pending as u64);
        }
    }

    fn push_wide(words: &mut Vec<u64>, value: &[u64], width: usize) {
        words.extend((0..width.div_ceil(64)).map(|w| value.get(w).copied().unwrap_or(0)));
    }
}

impl crate::verilator::PortCodec<PmuInputs, PmuOutputs> for PmuCodec {
    fn inputs(&self) -> crate::verilator::PortList {
        crate::ports::port_list(&[
            ("reset", 1),
            ("events", self.events_width),
            ("core_events", self.core_events_width),
            ("kernel", self.threads),
            ("pm_mark", self.threads),
            ("bb_end", self.threads),
            ("bb_addr", self.threads * self.address_width),
            ("pid", self.threads * 32),
            ("trace_ready", 1),
            ("reg_thread", 2),
            ("reg_priv", 1),
            ("reg_addr", 8),
            ("reg_wdata", 64),
            ("reg_write", 1),
            ("reg_read", 1),
        ])
    }
    fn outputs(&self) -> crate::verilator::PortList {
        crate::ports::port_list(&[
            ("pmi", self.threads),
            ("reg_rdata", 64),
            ("reg_fault", 1),
            ("trace_data", 64),
            ("trace_valid", 1),
            ("trace_last", 1),
        ])
    }
    fn encode(&self, inputs: &PmuInputs, words: &mut Vec<u64>) {
        let mask = (1u64 << self.threads) - 1;
        words.push(inputs.reset as u64);
        Self::push_wide(words, &inputs.events, self.events_width);
        Self::push_wide(words, &inputs.core_events, self.core_events_width);
        words.extend([inputs.kernel as u64 & mask, inputs.pm_mark as u64 & mask, inputs.bb_end as u64 & mask]);
        let address_mask = u64::MAX >> (64 - self.address_width);
        let threads = 0..self.threads;
        Self::push_packed(words, threads.clone().map(|t| inputs.bb_addr[t] & address_mask), self.address_width);
        Self::push_packed(words, threads.map(|t| inputs.pid[t] as u64), 32);
        words.extend([
            inputs.trace_ready as u64,
            inputs.reg_thread as u64 & 3,
            inputs.reg_priv as u64,
            inputs.reg_addr as u64,
            inputs.reg_wdata,
            inputs.reg_write as u64,
            inputs.reg_read as u64,
        ]);
    }
    fn decode(&self, words: &[u64]) -> PmuOutputs {
        PmuOutputs {
            pmi: words[0] as u8,
            reg_rdata: words[1],
            reg_fault: words[2] != 0,
            trace_data: words[3],
            trace_valid: words[4] != 0,
            trace_last: words[5] != 0,
        }
    }
}

/// A PMU simulation engine (reference, native or Verilator).
pub type PmuEngine = dyn Engine<PmuInputs, PmuOutputs>;

/// Bit `lsb..lsb+width` of a little-endian word vector (`width` <= 64; missing words read 0).
pub fn get_bits(words: &[u64], lsb: usize, width: usize) -> u64 {
    let mut value = 0u64;
    for bit in 0..width {
        let index = lsb + bit;
        let word = words.get(index / 64).copied().unwrap_or(0);
        value |= (word >> (index % 64) & 1) << bit;
    }
    value
}

/// Set bits `lsb..lsb+width` of a little-endian word vector to `value` (growing it as needed).
pub fn set_bits(words: &mut Vec<u64>, lsb: usize, width: usize, value: u64) {
    for bit in 0..width {
        let index = lsb + bit;
        if words.len() <= index / 64 {
            words.resize(index / 64 + 1, 0);
        }
        let mask = 1u64 << (index % 64);
        if value >> bit & 1 == 1 {
            words[index / 64] |= mask;
        } else {
            words[index / 64] &= !mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_fields_cross_word_boundaries() {
        let mut words = Vec::new();
        set_bits(&mut words, 60, 8, 0xA5);
        assert_eq!(words, vec![0x5 << 60, 0xA]);
        assert_eq!(get_bits(&words, 60, 8), 0xA5);
        assert_eq!(get_bits(&words, 200, 8), 0);
        set_bits(&mut words, 62, 2, 0);
        assert_eq!(get_bits(&words, 60, 8), 0xA1);
    }
}
