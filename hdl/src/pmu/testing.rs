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

/// A random event table for `counters` counters: 1..=12 events with distinct codes,
/// thread- and core-scope mixed (sometimes all of one scope), PerCycleMax from 1 up to
/// 255, and now and then a `Counter` key.
pub fn random_table(rng: &mut impl rand::Rng, counters: usize) -> EventTable {
    let events = rng.gen_range(1..=12);
    let scope_mix = rng.gen_range(0..4); // 0: all thread, 1: all core, else mixed
    let mut codes = std::collections::BTreeSet::new();
    let mut rows = Vec::new();
    for e in 0..events {
        let (code, umask) = loop {
            let pair = (rng.gen::<u8>(), [0x00, 0x10, 0x20, rng.gen::<u8>()][rng.gen_range(0..4)]);
            if codes.insert(pair) {
                break pair;
            }
        };
        let per_cycle_max = match rng.gen_range(0..6) {
            0..=2 => 1,
            3 => rng.gen_range(2..=3),
            4 => rng.gen_range(4..=127),
            _ => rng.gen_range(128..=255),
        };
        let core = match scope_mix {
            0 => false,
            1 => true,
            _ => rng.gen_bool(0.4),
        };
        let mut row = format!(
            r#"{{"EventName": "E{e}", "EventCode": "0x{code:02X}", "UMask": "0x{umask:02X}", "PerCycleMax": {per_cycle_max}, "Scope": "{}""#,
            if core { "core" } else { "thread" }
        );
        if rng.gen_ratio(1, 4) {
            row += &format!(r#", "Counter": "{}""#, rng.gen_range(0..counters));
        }
        rows.push(row + "}");
    }
    let json = format!("[{}]", rows.join(",\n"));
    EventTable::from_json(&json, "random.json", "random", counters).expect("a valid random table")
}

/// Random PMU parameters within their full ranges (T, K, CW, a random table, D, AW),
/// biased towards the small and the extreme values.
pub fn random_params(rng: &mut impl rand::Rng) -> PmuParams {
    let threads = rng.gen_range(1..=4u64);
    let counters = rng.gen_range(1..=4u64);
    let counter_width =
        *[16, 17, 32, 40, 48, 63, 64, rng.gen_range(16..=64)].get(rng.gen_range(0..8)).expect("in range");
    let table = if rng.gen_ratio(1, 4) { EventTable::default_table() } else { random_table(rng, counters as usize) };
    let depth = 1u64 << rng.gen_range(1..=10);
    let address_width = *[16, 32, 48, rng.gen_range(16..=48)].get(rng.gen_range(0..4)).expect("in range");
    let profile_entries = if rng.gen_ratio(1, 3) { [16, 32, 64, 1024][rng.gen_range(0..4)] } else { 0 };
    PmuParams::new(threads, counters, counter_width, table)
        .and_then(|params| params.with_trace(depth, address_width))
        .and_then(|params| params.with_profile(profile_entries))
        .expect("random parameters are in range")
}

/// A short description of `params` for lockstep reports.
pub fn describe(params: &PmuParams) -> String {
    let table = &params.table;
    let core = table.events.iter().filter(|e| e.scope == super::event_table::Scope::Core).count();
    let widest = table.events.iter().map(|e| e.per_cycle_max).max().unwrap_or(0);
    format!(
        "T={} K={} CW={} D={} AW={} E={}, table {} ({} events, {core} core-scope, PerCycleMax up to {widest})",
        params.threads,
        params.counters,
        params.counter_width,
        params.trace_depth,
        params.address_width,
        params.profile_entries,
        table.stem,
        table.events.len()
    )
}
