//! Test fixtures: the §2.4 event table (seed 001 Table 1-6 with PerCycleMax and
//! Scope), small custom tables and PERF_EVTSEL values.
use super::super::evtsel;
use crate::ports::pmu::{EventScope, EventSpec, PmuConfig, DEFAULT_ADDRESS_WIDTH, DEFAULT_TRACE_DEPTH};

fn event(name: &str, code: u8, umask: u8, per_cycle_max: u8, scope: EventScope) -> EventSpec {
    EventSpec { name: name.to_string(), code, umask, per_cycle_max, scope }
}

/// §2.4: the default (KNC) table. TEW = 50, CEW = 19.
pub(in super::super) fn knc_events() -> Vec<EventSpec> {
    use EventScope::{Core, Thread};
    let p54c: [(u8, &str, u8); 32] = [
        (0x00, "DATA_READ", 2),
        (0x01, "DATA_WRITE", 2),
        (0x02, "DATA_PAGE_WALK", 1),
        (0x03, "DATA_READ_MISS", 1),
        (0x04, "DATA_WRITE_MISS", 1),
        (0x06, "DATA_CACHE_LINES_WRITTEN_BACK", 1),
        (0x09, "MEMORY_ACCESSES_IN_BOTH_PIPES", 1),
        (0x0A, "BANK_CONFLICTS", 1),
        (0x0C, "CODE_READ", 1),
        (0x0D, "CODE_PAGE_WALK", 1),
        (0x0E, "CODE_CACHE_MISS", 1),
        (0x11, "L1_DATA_PF1", 1),
        (0x12, "BRANCHES", 1),
        (0x15, "PIPELINE_FLUSHES", 1),
        (0x16, "INSTRUCTIONS_EXECUTED", 2),
        (0x17, "INSTRUCTIONS_EXECUTED_V_PIPE", 1),
        (0x1C, "L1_DATA_PF1_MISS", 1),
        (0x1E, "L1_DATA_PF1_DROP", 1),
        (0x1F, "PIPELINE_AGI_STALLS", 2),
        (0x20, "L1_DATA_HIT_INFLIGHT_PF1", 1),
        (0x21, "PIPELINE_SG_AGI_STALLS", 1),
        (0x28, "DATA_READ_OR_WRITE", 2),
        (0x29, "DATA_READ_MISS_OR_WRITE_MISS", 1),
        (0x2A, "CPU_CLK_UNHALTED", 1),
        (0x2B, "BRANCHES_MISPREDICTED", 1),
        (0x2C, "MICROCODE_CYCLES", 1),
        (0x2D, "FE_STALLED", 1),
        (0x2E, "EXEC_STAGE_CYCLES", 1),
        (0x37, "L1_DATA_PF2", 1),
        (0x38, "L2_DATA_PF1_MISS", 1),
        (0x3A, "LONG_DATA_PAGE_WALK", 1),
        (0x3B, "LONG_CODE_PAGE_WALK", 1),
    ];
    let cri: [(u8, &str); 19] = [
        (0xC8, "L2_READ_HIT_E"),
        (0xC9, "L2_READ_HIT_M"),
        (0xCA, "L2_READ_HIT_S"),
        (0xCB, "L2_READ_MISS"),
        (0xCC, "L2_WRITE_HIT"),
        (0xD7, "L2_VICTIM_REQ_WITH_DATA"),
        (0xE3, "SNP_HITM_BUNIT"),
        (0xE6, "SNP_HIT_L2"),
        (0xE7, "SNP_HITM_L2"),
        (0xF0, "L2_CODE_READ_MISS_CACHE_FILL"),
        (0xF1, "L2_DATA_READ_MISS_CACHE_FILL"),
        (0xF2, "L2_DATA_WRITE_MISS_CACHE_FILL"),
        (0xF5, "L2_CODE_READ_MISS_MEM_FILL"),
        (0xF6, "L2_DATA_READ_MISS_MEM_FILL"),
        (0xF7, "L2_DATA_WRITE_MISS_MEM_FILL"),
        (0xFC, "L2_DATA_PF2"),
        (0xFD, "L2_DATA_PF2_DROP"),
        (0xFE, "L2_DATA_PF2_MISS"),
        (0xFF, "L2_DATA_HIT_INFLIGHT_PF2"),
    ];
    let vpu: [(u8, &str, u8); 8] = [
        (0x00, "VPU_DATA_READ", 1),
        (0x01, "VPU_DATA_WRITE", 1),
        (0x03, "VPU_DATA_READ_MISS", 1),
        (0x04, "VPU_DATA_WRITE_MISS", 1),
        (0x05, "VPU_STALL_REG", 1),
        (0x16, "VPU_INSTRUCTIONS_EXECUTED", 2),
        (0x17, "VPU_INSTRUCTIONS_EXECUTED_V_PIPE", 1),
        (0x18, "VPU_ELEMENTS_ACTIVE", 16),
    ];
    let mut table = Vec::new();
    table.extend(p54c.iter().map(|&(code, name, max)| event(name, code, 0x00, max, Thread)));
    table.extend(cri.iter().map(|&(code, name)| event(name, code, 0x10, 1, Core)));
    table.extend(vpu.iter().map(|&(code, name, max)| event(name, code, 0x20, max, Thread)));
    table
}

/// T threads, K counters, CW bits, the §2.4 table, the default D and AW.
pub(in super::super) fn knc_config(threads: usize, counters: usize, counter_width: usize) -> PmuConfig {
    PmuConfig {
        threads,
        counters,
        counter_width,
        events: knc_events(),
        trace_depth: DEFAULT_TRACE_DEPTH,
        address_width: DEFAULT_ADDRESS_WIDTH,
        profile_entries: 0,
    }
}

/// A small custom table: WIDE (thread, 0x01/0x00, PerCycleMax 3), L2 (core,
/// 0xC8/0x10, 1), NARROW (thread, 0x02/0x00, 1), BURST (core, 0xC9/0x10, 7).
/// TEW = 3, CEW = 4. The default D and AW.
pub(in super::super) fn custom_config(threads: usize, counters: usize, counter_width: usize) -> PmuConfig {
    let events = vec![
        event("WIDE", 0x01, 0x00, 3, EventScope::Thread),
        event("L2", 0xC8, 0x10, 1, EventScope::Core),
        event("NARROW", 0x02, 0x00, 1, EventScope::Thread),
        event("BURST", 0xC9, 0x10, 7, EventScope::Core),
    ];
    PmuConfig {
        threads,
        counters,
        counter_width,
        events,
        trace_depth: DEFAULT_TRACE_DEPTH,
        address_width: DEFAULT_ADDRESS_WIDTH,
        profile_entries: 0,
    }
}

/// The table index of the event named `name`.
pub(in super::super) fn event_index(config: &PmuConfig, name: &str) -> usize {
    config.events.iter().position(|event| event.name == name).unwrap_or_else(|| panic!("no event {name}"))
}

/// PERF_EVTSEL selecting `name` with the other fields in `fields` (USR, OS, EN, ...).
pub(in super::super) fn select(config: &PmuConfig, name: &str, fields: u64) -> u64 {
    let event = &config.events[event_index(config, name)];
    (event.code as u64) << evtsel::EVENT_SHIFT | (event.umask as u64) << evtsel::UMASK_SHIFT | fields
}
