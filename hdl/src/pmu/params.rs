//! The PMU's parameters: T threads, K counters per thread, CW-bit counters and the
//! event table, checked together (a table's `Counter` key must fit K).
use std::fmt;

use super::event_key::EventKey;
use super::event_table::{EventTable, InputLayout, Scope, TableError};
use crate::custom::bits_for;
use crate::params::{OutOfRange, COUNTERS, COUNTER_WIDTH, THREADS};

/// Checked parameters of one PMU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmuParams {
    /// T, hardware threads (1..=4).
    pub threads: usize,
    /// K, counters per thread (1..=4).
    pub counters: usize,
    /// CW, bits per counter (16..=64).
    pub counter_width: usize,
    /// The event table.
    pub table: EventTable,
}

/// Why a parameter set is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PmuParamError {
    /// A number outside its range.
    Range(OutOfRange),
    /// The event table does not fit (a `Counter` index >= K).
    Table(TableError),
}

impl fmt::Display for PmuParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PmuParamError::Range(err) => err.fmt(f),
            PmuParamError::Table(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for PmuParamError {}

impl PmuParams {
    /// Check T, K and CW against their ranges and the table against K.
    pub fn new(threads: u64, counters: u64, counter_width: u64, table: EventTable) -> Result<Self, PmuParamError> {
        let threads = THREADS.check(threads).map_err(PmuParamError::Range)?;
        let counters = COUNTERS.check(counters).map_err(PmuParamError::Range)?;
        let counter_width = COUNTER_WIDTH.check(counter_width).map_err(PmuParamError::Range)?;
        table.check_counters(counters).map_err(PmuParamError::Table)?;
        Ok(Self { threads, counters, counter_width, table })
    }

    /// The default table at (T, K, CW); panics outside the ranges (tests).
    pub fn with_default_table(threads: usize, counters: usize, counter_width: usize) -> Self {
        Self::new(threads as u64, counters as u64, counter_width as u64, EventTable::default_table())
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// The top-module name `pmu_<table>_t<T>_k<K>_c<CW>`; every other module of the
    /// design starts with it.
    pub fn top_name(&self) -> String {
        format!("pmu_{}_t{}_k{}_c{}", self.table.stem, self.threads, self.counters, self.counter_width)
    }

    /// Where each event's field sits in `events` and `core_events`.
    pub fn layout(&self) -> InputLayout {
        self.table.layout()
    }

    /// Width of the `events` port: max(T*TEW, 1).
    pub fn events_width(&self) -> usize {
        self.layout().events_port_width(self.threads)
    }

    /// Width of the `core_events` port: max(CEW, 1).
    pub fn core_events_width(&self) -> usize {
        self.layout().core_port_width()
    }

    /// Bits of a counter's per-cycle count c: the largest value a selected event can
    /// give, a thread event summed over all T threads with ANY.
    pub fn count_width(&self) -> usize {
        let largest = self
            .table
            .events
            .iter()
            .map(|event| {
                let field_max = (1usize << event.field_width()) - 1;
                match event.scope {
                    Scope::Thread => field_max * self.threads,
                    Scope::Core => field_max,
                }
            })
            .max()
            .unwrap_or(1);
        bits_for(largest)
    }

    /// How selects name their event internally (code bits or table position).
    pub fn event_key(&self) -> EventKey {
        EventKey::for_table(&self.table)
    }

    /// Bits of an event key.
    pub fn event_index_width(&self) -> usize {
        self.event_key().width()
    }

    /// The parameters by name for the register table: `"T"`, `"K"`, `"CW"`.
    pub fn lookup(&self) -> impl Fn(&str) -> usize + '_ {
        move |name| match name {
            "T" => self.threads,
            "K" => self.counters,
            "CW" => self.counter_width,
            other => panic!("the PMU has no parameter {other}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_top_name_and_widths() {
        let table = EventTable::default_table();
        let err = PmuParams::new(5, 2, 40, table.clone()).unwrap_err().to_string();
        assert_eq!(err, "--threads (T) = 5 is out of range 1..=4");
        let err = PmuParams::new(4, 0, 40, table.clone()).unwrap_err().to_string();
        assert_eq!(err, "--counters (K) = 0 is out of range 1..=4");
        let err = PmuParams::new(4, 2, 65, table.clone()).unwrap_err().to_string();
        assert_eq!(err, "--counter-width (CW) = 65 is out of range 16..=64");
        let params = PmuParams::new(4, 2, 40, table).unwrap();
        assert_eq!(params.top_name(), "pmu_knc_t4_k2_c40");
        assert_eq!((params.events_width(), params.core_events_width()), (200, 19));
        // VPU_ELEMENTS_ACTIVE: 5-bit field, 31 per thread, 124 over four threads.
        assert_eq!(params.count_width(), 7);
        assert_eq!(params.event_index_width(), 8, "EVENT[6:0] and UMASK bit 5");
    }
}
