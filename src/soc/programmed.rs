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
use pmugen_hdl::pmu::regmap::{evtsel, trace_ctrl, Field, PERF_EVTSEL, TRACE_CTRL};

/// The key that says what the file is.
const WHAT: &str = "the events the firmware programmed, by pmugen soc run (docs/soc.md §4.3)";

/// Bytes between two threads' banks in the PMU's 32-bit bus layout.
const BANK_BYTES: u32 = 0x800;

/// Where the record of the trace file `trace` goes: `trace.hex` -> `trace.events.json`.
pub fn record_path(trace: &Path) -> PathBuf {
    trace.with_extension("events.json")
}

/// The firmware a run ran: its file name and the FNV-1a hash of its RAM image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Firmware {
    /// The file's name as given.
    pub name: String,
    /// [`image_hash`] of its image.
    pub hash: u64,
}

/// FNV-1a (64-bit) over the image's words, little endian: what identifies a firmware.
pub fn image_hash(image: &[u32]) -> u64 {
    image
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// The record of a run from its acknowledged PMU writes (`writes`: lines of hex address
/// and data, as the simulation writes them), or None when tracing was never turned on.
/// `counters` is the PMU's K, `table` its event table, `top` its top module's name,
/// `trace_words` the length of the trace it belongs to and `firmware` what ran.
pub fn record(
    writes: &str,
    counters: usize,
    table: &EventTable,
    top: &str,
    trace_words: u64,
    firmware: &Firmware,
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
        "firmware": firmware.name,
        "firmware_image_fnv1a64": format!("{:016x}", firmware.hash),
    });
    Ok(Some(serde_json::to_string_pretty(&json)? + "\n"))
}

/// A fixed-width field of a 32-bit register value.
fn field(value: u32, field: &Field) -> u32 {
    field.extract(value as u64, &|name| unreachable!("{} has a fixed width, not {name}", field.name)) as u32
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

/// A record read back.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// Where it is.
    pub path: PathBuf,
    /// The counters' event names.
    pub names: Vec<String>,
    /// The firmware that ran, when the record names it.
    pub firmware: Option<Firmware>,
}

/// The record beside `stream` (a capture of `words` words), if there is one; refused
/// when it belongs to another capture or another design (`top`). With `partial` a
/// capture shorter than the record's is taken as the same one, cut.
pub fn read_beside(stream: &Path, words: usize, top: Option<&str>, partial: bool) -> Result<Option<Recorded>> {
    let path = record_path(stream);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let name = path.display();
    let json: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{name}: not valid JSON"))?;
    if json.get("what").and_then(|w| w.as_str()) != Some(WHAT) {
        bail!("{name}: not a record of programmed events written by `pmugen soc run`; move it away or give --events");
    }
    let recorded = json.get("trace_words").and_then(|w| w.as_u64());
    let cut = partial && recorded.is_some_and(|r| r > words as u64);
    if recorded != Some(words as u64) && !cut {
        bail!(
            "{name}: was written for a capture of {} words, but {} has {words}: the capture was cut (decode it with \
             --partial) or the record belongs to another run (give --events, or run again)",
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
    let Some(names) = names.flatten() else { bail!("{name}: key \"events\" is not a list of names") };
    let hash = json.get("firmware_image_fnv1a64").and_then(|h| u64::from_str_radix(h.as_str()?, 16).ok());
    let firmware = match (json.get("firmware").and_then(|f| f.as_str()), hash) {
        (Some(name), Some(hash)) => Some(Firmware { name: name.to_string(), hash }),
        _ => None,
    };
    Ok(Some(Recorded { path, names, firmware }))
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
        let firmware = Firmware { name: "a.elf".into(), hash: image_hash(&[1, 2]) };
        let text = record(&writes, 2, &table(), "pmu_x", 7, &firmware).unwrap().unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        // STORE is selected without EN: the counter counts nothing and stays unnamed;
        // the EVTSEL write after TRACE_EN does not change the record.
        assert_eq!(json["events"], serde_json::json!(["LOAD", "counter1"]));
        assert_eq!(json["trace_words"], 7);
        assert_eq!(json["thread"], 0);
        assert_eq!(json["firmware_image_fnv1a64"], format!("{:016x}", firmware.hash));
        assert_ne!(image_hash(&[1, 2]), image_hash(&[2, 1]));
        assert_eq!(record("20000148 00000001\n", 2, &table(), "pmu_x", 0, &firmware).unwrap(), None, "never traced");
        let error = record("2000014 8\nzz\n", 2, &table(), "pmu_x", 0, &firmware).unwrap_err().to_string();
        assert!(error.contains("line 2") && error.contains("zz"), "{error}");
    }

    #[test]
    fn a_record_of_another_capture_is_refused() {
        let dir = std::env::temp_dir().join(format!("pmugen-programmed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stream = dir.join("trace.hex");
        let firmware = Firmware { name: "a.elf".into(), hash: 7 };
        let text = record("20000200 00000001\n", 1, &table(), "pmu_x", 5, &firmware).unwrap().unwrap();
        std::fs::write(record_path(&stream), text).unwrap();
        assert_eq!(read_beside(&stream, 5, Some("pmu_x"), false).unwrap().unwrap().names, vec!["counter0"]);
        let error = read_beside(&stream, 6, None, false).unwrap_err().to_string();
        assert!(error.contains("5 words") && error.contains("has 6") && error.contains("--partial"), "{error}");
        let recorded = read_beside(&stream, 4, None, true).unwrap().expect("a cut capture with --partial");
        assert_eq!(recorded.firmware, Some(firmware));
        assert!(read_beside(&stream, 6, None, true).is_err(), "a longer one is another run's");
        let error = read_beside(&stream, 5, Some("pmu_y"), false).unwrap_err().to_string();
        assert!(error.contains("pmu_x") && error.contains("pmu_y"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
