//! Helpers for the PMU's block tests: the reference model's view of a parameter set
//! (built from the table's plain values, so the reference computes its own input
//! layout) and small custom event tables.
use pmugen_sim::ports::pmu::{EventScope, EventSpec, PmuConfig};

use super::event_table::{EventTable, Scope};
use super::params::PmuParams;

/// The reference model's configuration for `params`.
pub fn reference_config(params: &PmuParams) -> PmuConfig {
    PmuConfig {
        threads: params.threads,
        counters: params.counters,
        counter_width: params.counter_width,
        events: params
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
    }
}

/// A table with only core-scope events (so `events` carries no field).
pub fn table_with_core_events_only(threads: usize) -> PmuParams {
    let json = r#"[
        {"EventName": "L2_MISS", "EventCode": "0x01", "UMask": "0x00", "Scope": "core", "PerCycleMax": 3},
        {"EventName": "SNOOP", "EventCode": "0x02", "UMask": "0x10", "Scope": "core"}
    ]"#;
    let table = EventTable::from_json(json, "core_only.json", "core_only", 4).expect("valid table");
    PmuParams::new(threads as u64, 2, 24, table).expect("valid parameters")
}
