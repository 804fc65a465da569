//! The PMU's parameters: T threads, K counters per thread, CW-bit counters, the event
//! table, and the trace unit's queue depth D and address width AW, checked together (a
//! table's `Counter` key must fit K).
use std::fmt;

use super::event_key::EventKey;
use super::event_table::{EventTable, InputLayout, Scope, TableError};
use crate::custom::bits_for;
use crate::params::{
    NotPowerOfTwo, OutOfRange, Parameter, ADDRESS_WIDTH, COUNTERS, COUNTER_WIDTH, PROFILE_ENTRIES, THREADS, TRACE_DEPTH,
};
use pmugen_sim::ports::pmu::{EventScope, EventSpec, PmuConfig, DEFAULT_ADDRESS_WIDTH, DEFAULT_TRACE_DEPTH};

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
    /// D, the trace queue's depth in records (2..=1024, a power of 2).
    pub trace_depth: usize,
    /// AW, bits of a basic-block address (16..=48).
    pub address_width: usize,
    /// E, entries of the profile table (docs/pmu.md §15): 0 for none, else a power of 2
    /// in 16..=4096.
    pub profile_entries: usize,
}

/// Why a parameter set is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PmuParamError {
    /// A number outside its range.
    Range(OutOfRange),
    /// The event table does not fit (a `Counter` index >= K).
    Table(TableError),
    /// D is not a power of 2.
    PowerOfTwo(NotPowerOfTwo),
    /// E is neither 0 nor a power of 2 in 16..=4096.
    ProfileEntries(u64),
}

impl fmt::Display for PmuParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PmuParamError::Range(err) => err.fmt(f),
            PmuParamError::Table(err) => err.fmt(f),
            PmuParamError::PowerOfTwo(err) => err.fmt(f),
            PmuParamError::ProfileEntries(value) => write!(
                f,
                "{} ({}) = {value} is not allowed: 0 (no profile table) or a power of 2 in {}..={}",
                PROFILE_ENTRIES.flag, PROFILE_ENTRIES.name, PROFILE_ENTRIES.min, PROFILE_ENTRIES.max
            ),
        }
    }
}

impl std::error::Error for PmuParamError {}

/// `value`: in the range of `parameter` and a power of 2.
fn check_power_of_two(parameter: &Parameter, value: u64) -> Result<usize, PmuParamError> {
    let checked = parameter.check(value).map_err(PmuParamError::Range)?;
    if !checked.is_power_of_two() {
        let (flag, name, min, max) = (parameter.flag, parameter.name, parameter.min, parameter.max);
        return Err(PmuParamError::PowerOfTwo(NotPowerOfTwo { flag, name, value, min, max }));
    }
    Ok(checked)
}

/// D: in its range and a power of 2.
pub fn check_trace_depth(value: u64) -> Result<usize, PmuParamError> {
    check_power_of_two(&TRACE_DEPTH, value)
}

/// E: 0 (no profile table) or a power of 2 in 16..=4096.
pub fn check_profile_entries(value: u64) -> Result<usize, PmuParamError> {
    if value == 0 {
        return Ok(0);
    }
    check_power_of_two(&PROFILE_ENTRIES, value).map_err(|err| match err {
        PmuParamError::Range(range) => PmuParamError::ProfileEntries(range.value),
        PmuParamError::PowerOfTwo(power) => PmuParamError::ProfileEntries(power.value),
        other => other,
    })
}

impl PmuParams {
    /// Check T, K and CW against their ranges and the table against K; D and AW take
    /// their defaults (see [`PmuParams::with_trace`]).
    pub fn new(threads: u64, counters: u64, counter_width: u64, table: EventTable) -> Result<Self, PmuParamError> {
        let threads = THREADS.check(threads).map_err(PmuParamError::Range)?;
        let counters = COUNTERS.check(counters).map_err(PmuParamError::Range)?;
        let counter_width = COUNTER_WIDTH.check(counter_width).map_err(PmuParamError::Range)?;
        table.check_counters(counters).map_err(PmuParamError::Table)?;
        Ok(Self {
            threads,
            counters,
            counter_width,
            table,
            trace_depth: DEFAULT_TRACE_DEPTH,
            address_width: DEFAULT_ADDRESS_WIDTH,
            profile_entries: 0,
        })
    }

    /// The same PMU with trace depth D and address width AW, checked.
    pub fn with_trace(self, trace_depth: u64, address_width: u64) -> Result<Self, PmuParamError> {
        let depth = check_trace_depth(trace_depth)?;
        let address_width = ADDRESS_WIDTH.check(address_width).map_err(PmuParamError::Range)?;
        Ok(Self { trace_depth: depth, address_width, ..self })
    }

    /// The same PMU with a profile table of E entries (0: none), checked.
    pub fn with_profile(self, profile_entries: u64) -> Result<Self, PmuParamError> {
        Ok(Self { profile_entries: check_profile_entries(profile_entries)?, ..self })
    }

    /// log2 E (0 without a table): bits of a table index, and PMU_ID[46:42].
    pub fn profile_bits(&self) -> usize {
        if self.profile_entries == 0 {
            0
        } else {
            self.profile_entries.trailing_zeros() as usize
        }
    }

    /// log2 D: bits of a queue pointer.
    pub fn depth_bits(&self) -> usize {
        self.trace_depth.trailing_zeros() as usize
    }

    /// The default table at (T, K, CW); panics outside the ranges (tests).
    pub fn with_default_table(threads: usize, counters: usize, counter_width: usize) -> Self {
        Self::new(threads as u64, counters as u64, counter_width as u64, EventTable::default_table())
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// The top-module name `pmu_<table>_t<T>_k<K>_c<CW>`, with `_d<D>_a<AW>` when D or
    /// AW is not its default; every other module of the design starts with it.
    pub fn top_name(&self) -> String {
        let mut name = format!("pmu_{}_t{}_k{}_c{}", self.table.stem, self.threads, self.counters, self.counter_width);
        if (self.trace_depth, self.address_width) != (DEFAULT_TRACE_DEPTH, DEFAULT_ADDRESS_WIDTH) {
            name += &format!("_d{}_a{}", self.trace_depth, self.address_width);
        }
        if self.profile_entries != 0 {
            name += &format!("_p{}", self.profile_entries);
        }
        name
    }

    /// The ports' and reference model's view of these parameters: the table's plain
    /// values, from which the reference model computes its own input layout.
    pub fn port_config(&self) -> PmuConfig {
        PmuConfig {
            threads: self.threads,
            counters: self.counters,
            counter_width: self.counter_width,
            events: self
                .table
                .events
                .iter()
                .map(|event| EventSpec {
                    name: event.name.clone(),
                    code: event.code,
                    umask: event.umask,
                    per_cycle_max: event.per_cycle_max,
                    scope: match event.scope {
                        Scope::Thread => EventScope::Thread,
                        Scope::Core => EventScope::Core,
                    },
                })
                .collect(),
            trace_depth: self.trace_depth,
            address_width: self.address_width,
            profile_entries: self.profile_entries,
        }
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
    pub fn event_key_width(&self) -> usize {
        self.event_key().width()
    }

    /// The parameters by name for the register table: `"T"`, `"K"`, `"CW"`.
    pub fn lookup(&self) -> impl Fn(&str) -> usize + '_ {
        move |name| match name {
            "T" => self.threads,
            "K" => self.counters,
            "CW" => self.counter_width,
            "D" => self.trace_depth,
            "AW" => self.address_width,
            "E" => self.profile_entries,
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
        assert_eq!(params.event_key_width(), 8, "EVENT[6:0] and UMASK bit 5");
        let traced = params.clone().with_trace(64, 32).unwrap();
        assert_eq!(traced.top_name(), "pmu_knc_t4_k2_c40_d64_a32");
        assert_eq!(params.clone().with_trace(256, 32).unwrap().top_name(), "pmu_knc_t4_k2_c40");
        let err = params.clone().with_trace(100, 32).unwrap_err().to_string();
        assert_eq!(err, "--trace-depth (D) = 100 is not a power of 2; allowed: a power of 2 in 2..=1024");
        let err = params.clone().with_trace(2048, 32).unwrap_err().to_string();
        assert_eq!(err, "--trace-depth (D) = 2048 is out of range 2..=1024");
        let err = params.clone().with_trace(256, 49).unwrap_err().to_string();
        assert_eq!(err, "--address-width (AW) = 49 is out of range 16..=48");
        let profiled = traced.with_profile(256).unwrap();
        assert_eq!(profiled.top_name(), "pmu_knc_t4_k2_c40_d64_a32_p256");
        assert_eq!(profiled.profile_bits(), 8);
        assert_eq!(params.clone().with_profile(0).unwrap().top_name(), "pmu_knc_t4_k2_c40");
        for refused in [8, 100, 8192] {
            let err = params.clone().with_profile(refused).unwrap_err().to_string();
            assert_eq!(
                err,
                format!("--profile-entries (E) = {refused} is not allowed: 0 (no profile table) or a power of 2 in 16..=4096")
            );
        }
    }
}
