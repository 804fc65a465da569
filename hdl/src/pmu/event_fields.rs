//! Where each table event's count is found, for the samplers: the event's field in
//! `events` (per thread) or `core_events`, and for ANY its sum over all threads (from
//! [`super::event_sums`]). Shared by the per-counter sampler and the write sampler,
//! natively and as Verilog expressions, so both select exactly alike.
use super::event_table::Scope;
use super::params::PmuParams;
use crate::custom::{slice, zero_extend};
use crate::dyn_signal::{word_field, DynSignal};

/// One event's field: scope, position in its port (per thread), width, and for a
/// thread event the position and width of its ANY sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventField {
    /// Thread or core scope.
    pub scope: Scope,
    /// LSB in one thread's slice of `events`, or in `core_events`.
    pub lsb: usize,
    /// IW.
    pub width: usize,
    /// LSB of the ANY sum in the sums vector (thread events).
    pub sum_lsb: usize,
    /// Width of the ANY sum.
    pub sum_width: usize,
}

/// The event fields of one PMU configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventFields {
    /// One per table event, table order.
    pub fields: Vec<EventField>,
    /// Event names (for comments in the Verilog).
    pub names: Vec<String>,
    /// T.
    pub threads: usize,
    /// TEW: one thread's slice of `events`.
    pub thread_width: usize,
    /// Width of the sums vector.
    pub sums_width: usize,
    /// Width of a count c.
    pub count_width: usize,
    /// Each event's key (see `event_key.rs`), table order.
    pub keys: Vec<u64>,
    /// Bits of a key.
    pub key_width: usize,
    /// The table position of each key value (`usize::MAX` for none).
    positions: Vec<usize>,
}

impl EventFields {
    /// The fields of `params`' event table.
    pub fn new(params: &PmuParams) -> Self {
        let layout = params.layout();
        let mut sum_at = 0;
        let fields = layout
            .fields
            .iter()
            .map(|f| {
                let sum_width = match f.scope {
                    Scope::Thread => crate::custom::bits_for(params.threads * ((1usize << f.width) - 1)),
                    Scope::Core => 0,
                };
                sum_at += sum_width;
                EventField { scope: f.scope, lsb: f.lsb, width: f.width, sum_lsb: sum_at - sum_width, sum_width }
            })
            .collect();
        let key = params.event_key();
        let keys: Vec<u64> = params
            .table
            .events
            .iter()
            .enumerate()
            .map(|(position, e)| key.of((e.umask as u16) << 8 | e.code as u16, position))
            .collect();
        let mut positions = vec![usize::MAX; 1 << key.width()];
        for (position, k) in keys.iter().enumerate() {
            positions[*k as usize] = position;
        }
        Self {
            fields,
            keys,
            key_width: key.width(),
            positions,
            names: params.table.events.iter().map(|e| e.name.clone()).collect(),
            threads: params.threads,
            thread_width: layout.thread_width,
            sums_width: sum_at.max(1),
            count_width: params.count_width(),
        }
    }

    /// The table position of the event with key `key`, if any.
    pub fn position(&self, key: u64) -> Option<usize> {
        self.positions.get(key as usize).copied().filter(|&p| p != usize::MAX)
    }

    /// Any thread-scope event in the table?
    pub fn has_thread_events(&self) -> bool {
        self.fields.iter().any(|f| f.scope == Scope::Thread)
    }

    /// Any core-scope event in the table?
    pub fn has_core_events(&self) -> bool {
        self.fields.iter().any(|f| f.scope == Scope::Core)
    }

    /// c of the event with key `key` for `thread` (ANY: the sum over threads; core
    /// events ignore ANY), from the words of `events`, `core_events` and the sums; 0
    /// for a key that names no event (such a select never counts). With one thread the
    /// sum is the own field, read from `events` as the Verilog of [`Self::expression`]
    /// does: the sums are not read.
    pub fn count(&self, key: u64, thread: usize, any: bool, events: &[u64], core: &[u64], sums: &[u64]) -> u64 {
        let Some(f) = self.position(key).map(|position| self.fields[position]) else {
            return 0;
        };
        match (f.scope, any && self.threads > 1) {
            (Scope::Core, _) => word_field(core, f.lsb, f.width),
            (Scope::Thread, true) => word_field(sums, f.sum_lsb, f.sum_width),
            (Scope::Thread, false) => word_field(events, thread * self.thread_width + f.lsb, f.width),
        }
    }

    /// The ANY sums of `events`: per thread event, its fields summed over the threads.
    pub fn sums(&self, events: &[u64], sums: &mut DynSignal<rust_hdl::prelude::Out>) {
        for f in self.fields.iter().filter(|f| f.scope == Scope::Thread) {
            let total = (0..self.threads).map(|t| word_field(events, t * self.thread_width + f.lsb, f.width)).sum();
            sums.set_field(f.sum_lsb, f.sum_width, total);
        }
    }

    /// The Verilog expression of c for event `index` (table position), own field of
    /// thread `thread` (a number), or with `any_sum` its ANY sum; `events`/`core`/`sums`
    /// name the ports of the given widths. With one thread the sum is the own field.
    pub fn expression(&self, index: usize, thread: usize, any_sum: bool, ports: &Ports) -> String {
        let f = self.fields[index];
        let total = self.count_width;
        match (f.scope, any_sum && self.threads > 1) {
            (Scope::Core, _) => zero_extend(&slice(ports.core, f.lsb, f.width, ports.core_width), f.width, total),
            (Scope::Thread, true) => {
                zero_extend(&slice(ports.sums, f.sum_lsb, f.sum_width, self.sums_width), f.sum_width, total)
            }
            (Scope::Thread, false) => {
                let at = thread * self.thread_width + f.lsb;
                zero_extend(&slice(ports.events, at, f.width, ports.events_width), f.width, total)
            }
        }
    }
}

/// The names and widths of the event ports in a block's Verilog.
#[derive(Clone, Copy, Debug)]
pub struct Ports<'a> {
    /// `events` (raw, all threads).
    pub events: &'a str,
    /// Its width.
    pub events_width: usize,
    /// `core_events`.
    pub core: &'a str,
    /// Its width.
    pub core_width: usize,
    /// The ANY sums.
    pub sums: &'a str,
}
