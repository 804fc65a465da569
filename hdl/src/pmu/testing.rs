//! Helpers for the PMU's block tests: small custom event tables.
use super::event_table::EventTable;
use super::params::PmuParams;

/// A table with only core-scope events (so `events` carries no field).
pub fn table_with_core_events_only(threads: usize) -> PmuParams {
    let json = r#"[
        {"EventName": "L2_MISS", "EventCode": "0x01", "UMask": "0x00", "Scope": "core", "PerCycleMax": 3},
        {"EventName": "SNOOP", "EventCode": "0x02", "UMask": "0x10", "Scope": "core"}
    ]"#;
    let table = EventTable::from_json(json, "core_only.json", "core_only", 4).expect("valid table");
    PmuParams::new(threads as u64, 2, 24, table).expect("valid parameters")
}
