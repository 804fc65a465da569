//! The record of what a firmware programmed (docs/soc.md §4.3): `soc run` keeps every
//! register write the PMU acknowledged and, when the firmware turned tracing on,
//! writes beside the trace file the events that the traced thread's counters counted
//! then, so that `trace decode` and `profile` name the counters without `--events`.
//!
//! The names are those in force at the last TRACE_CTRL write that set TRACE_EN. A
//! firmware that reprograms the counters while tracing makes a trace whose columns
//! change meaning; the record cannot say that, and `--events` overrides it.
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

use super::map;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::regmap::{evtsel, trace_ctrl, Field, Width, PERF_EVTSEL, TRACE_CTRL};

/// The key that says what the file is.
const WHAT: &str = "the events the firmware programmed, by pmugen soc run (docs/soc.md §4.3)";

/// Bytes between two threads' banks in the PMU's 32-bit bus layout.
const BANK_BYTES: u32 = 0x800;

/// Where the record of the trace file `trace` goes: `trace.hex` -> `trace.events.json`.
pub fn record_path(trace: &Path) -> PathBuf {
    trace.with_extension("events.json")
}

/// The record of a run from its acknowledged PMU writes (`writes`: lines of hex address
/// and data, as the simulation writes them), or None when tracing was never turned on.
/// `counters` is the PMU's K, `table` its event table, `top` its top module's name and
/// `trace_words` the length of the trace it belongs to.
pub fn record(
    writes: &str,
    counters: usize,
    table: &EventTable,
    top: &str,
    trace_words: u64,
) -> Result<Option<String>> {
    let mut select = vec![vec![0u32; counters]; 4];
    let mut traced = None;
    for (index, line) in writes.lines().enumerate() {
        let mut fields = line.split_whitespace().map(|f| u32::from_str_radix(f, 16));
        let (Some(Ok(address)), Some(Ok(data)), None) = (fields.next(), fields.next(), fields.next()) else {
            bail!(
                "the simulation's record of PMU writes, line {}: \"{line}\" is not an address and a value",
                index + 1
            );
        };
        let offset = address.wrapping_sub(map::PMU_BASE);
        // A +4 write only holds the high word; EVTSEL and TRACE_CTRL are 32-bit registers.
        if offset >= 4 * BANK_BYTES || offset % 8 != 0 {
            continue;
        }
        let (thread, register) = ((offset / BANK_BYTES) as usize, (offset % BANK_BYTES / 8) as usize);
        let first = PERF_EVTSEL.addr as usize;
        if (first..first + counters).contains(&register) {
            select[thread][register - first] = data;
        } else if register == TRACE_CTRL.addr as usize && field(data, &trace_ctrl::TRACE_EN) == 1 {
            let thread = field(data, &trace_ctrl::THREAD) as usize;
            traced = Some((thread, select[thread].clone()));
        }
    }
    let Some((thread, selects)) = traced else { return Ok(None) };
    let names: Vec<String> = selects.iter().enumerate().map(|(i, &value)| event_name(i, value, table)).collect();
    let json = serde_json::json!({
        "what": WHAT,
        "top": top,
        "thread": thread,
        "events": names,
        "evtsel": selects.iter().map(|v| format!("0x{v:08x}")).collect::<Vec<_>>(),
        "trace_words": trace_words,
    });
    Ok(Some(serde_json::to_string_pretty(&json)? + "\n"))
}

/// A fixed-width field of a 32-bit register value.
fn field(value: u32, field: &Field) -> u32 {
    let Width::Bits(width) = field.width else { unreachable!("{} has a fixed width", field.name) };
    (value >> field.lsb) & (u32::MAX >> (32 - width))
}

/// Counter `i`'s column name for the EVTSEL `value`: the table's EventName for its
/// EVENT and UMASK, `counter<i>` when it is not enabled or names no event of the table.
fn event_name(i: usize, value: u32, table: &EventTable) -> String {
    let (code, umask) = (field(value, &evtsel::EVENT) as u8, field(value, &evtsel::UMASK) as u8);
    let event = table.events.iter().find(|e| e.code == code && e.umask == umask);
    match event {
        Some(event) if field(value, &evtsel::EN) == 1 => event.name.clone(),
        _ => format!("counter{i}"),
    }
}

/// The event names of the record beside `stream` (a capture of `words` words), if there
/// is one; refused when it belongs to another capture or another design (`top`).
pub fn names_beside(stream: &Path, words: usize, top: Option<&str>) -> Result<Option<(PathBuf, Vec<String>)>> {
    let path = record_path(stream);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let name = path.display();
    let json: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{name}: not valid JSON"))?;
    if json.get("what").and_then(|w| w.as_str()) != Some(WHAT) {
        bail!("{name}: not a record of programmed events written by `pmugen soc run`; move it away or give --events");
    }
    let recorded = json.get("trace_words").and_then(|w| w.as_u64());
    if recorded != Some(words as u64) {
        bail!(
            "{name}: was written for a capture of {} words, but {} has {words}: it belongs to another run; give \
             --events, or run again",
            recorded.map_or("?".into(), |w| w.to_string()),
            stream.display()
        );
    }
    if let (Some(top), Some(recorded)) = (top, json.get("top").and_then(|t| t.as_str())) {
        if top != recorded {
            bail!("{name}: was written for the PMU {recorded}, but --design is {top}; give --events");
        }
    }
    let names = json
        .get("events")
        .and_then(|e| e.as_array())
        .map(|a| a.iter().map(|n| n.as_str().map(str::to_string)).collect::<Option<Vec<String>>>());
    match names.flatten() {
        Some(names) => Ok(Some((path, names))),
        None => bail!("{name}: key \"events\" is not a list of names"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> EventTable {
        EventTable::riscv_table()
    }

    fn code(name: &str) -> u32 {
        let event = table().events.into_iter().find(|e| e.name == name).unwrap();
        event.code as u32 | (event.umask as u32) << 8
    }

    #[test]
    fn names_come_from_the_last_trace_enable() {
        let enable = 1 << 22 | 1 << 16;
        let writes = format!(
            "20000140 {:08x}\n20000144 00000001\n20000148 {:08x}\n20000200 00000001\n20000140 {:08x}\n",
            code("LOAD") | enable,
            code("STORE"),
            code("BRANCH") | enable
        );
        let text = record(&writes, 2, &table(), "pmu_x", 7).unwrap().unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        // STORE is selected without EN: the counter counts nothing and stays unnamed;
        // the EVTSEL write after TRACE_EN does not change the record.
        assert_eq!(json["events"], serde_json::json!(["LOAD", "counter1"]));
        assert_eq!(json["trace_words"], 7);
        assert_eq!(json["thread"], 0);
        assert_eq!(record("20000148 00000001\n", 2, &table(), "pmu_x", 0).unwrap(), None, "never traced");
        let error = record("2000014 8\nzz\n", 2, &table(), "pmu_x", 0).unwrap_err().to_string();
        assert!(error.contains("line 2") && error.contains("zz"), "{error}");
    }

    #[test]
    fn a_record_of_another_capture_is_refused() {
        let dir = std::env::temp_dir().join(format!("pmugen-programmed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stream = dir.join("trace.hex");
        let text = record("20000200 00000001\n", 1, &table(), "pmu_x", 5).unwrap().unwrap();
        std::fs::write(record_path(&stream), text).unwrap();
        assert_eq!(names_beside(&stream, 5, Some("pmu_x")).unwrap().unwrap().1, vec!["counter0"]);
        let error = names_beside(&stream, 6, None).unwrap_err().to_string();
        assert!(error.contains("5 words") && error.contains("has 6"), "{error}");
        let error = names_beside(&stream, 5, Some("pmu_y")).unwrap_err().to_string();
        assert!(error.contains("pmu_x") && error.contains("pmu_y"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
