//! The PMU's event table (§2): a JSON array in Linux perf's pmu-events format,
//! one object per event, plus pmugen's own keys `PerCycleMax` and `Scope`.
//!
//! The table decides the event input ports of the generated top (see
//! `event_layout.rs`) and part of its module name, so everything here is checked before
//! any hardware is built; every refusal names the file, the event, the key, the bad
//! value and what is allowed. The default is seed 001 Table 1-6 (`events/knc.json`).
use std::fmt;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::event_keys::repeated_keys;
use super::event_parse::{check_counter_range, counter_text, kind, parse_event};

pub use super::event_layout::{FieldPosition, InputLayout};

/// Where an event's input comes from (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Each thread has its own input field, in the `events` port.
    Thread,
    /// One input for the whole core, in the `core_events` port, with no thread context.
    Core,
}

impl Scope {
    /// The `Scope` key's value: `"thread"` or `"core"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Thread => "thread",
            Scope::Core => "core",
        }
    }
}

/// One row of the event table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `EventName`, unique, `[A-Z0-9_]+`.
    pub name: String,
    /// `EventCode`, the event-select value software writes.
    pub code: u8,
    /// `UMask`; (code, umask) is unique in a table.
    pub umask: u8,
    /// `BriefDescription`, "" when absent.
    pub brief: String,
    /// `Counter`: the counters allowed to count it (sorted, no repeats); None = all.
    pub counters: Option<Vec<usize>>,
    /// `PerCycleMax`, 1..=255: the most occurrences in one cycle.
    pub per_cycle_max: u8,
    /// `Scope`.
    pub scope: Scope,
}

impl Event {
    /// IW of §2: the bits of this event's input field.
    pub fn field_width(&self) -> usize {
        field_width(self.per_cycle_max)
    }
}

/// IW of §2: the bits needed to hold 0..=per_cycle_max (1 bit for 1, 2 for 2..=3, ...,
/// 8 for 128..=255). Never 0, so every event keeps an input even if the table says 0.
pub fn field_width(per_cycle_max: u8) -> usize {
    ((u8::BITS - per_cycle_max.leading_zeros()) as usize).max(1)
}

/// True when `stem` can be part of a Verilog module name: letters, digits and `_`,
/// starting with a letter (§1).
pub fn is_module_stem(stem: &str) -> bool {
    let mut chars = stem.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A checked event table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventTable {
    /// Lower-case file stem, e.g. "knc"; it becomes part of the top module name.
    pub stem: String,
    /// The events in table order, which is also their packing order (§2).
    pub events: Vec<Event>,
}

/// Why an event table was refused. `Display` gives the whole message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The file (or the table's stem when no file is known).
    pub source: String,
    /// 0-based index of the event in the array, when the problem is in one event.
    pub event: Option<usize>,
    /// The event's name, when it is known and valid.
    pub name: Option<String>,
    /// The key(s) at fault, as the file spells them (two for a duplicate (EventCode,
    /// UMask) pair).
    pub keys: Vec<String>,
    /// The rest of the message: the bad value and what is allowed.
    pub detail: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event table {}: ", self.source)?;
        if let Some(index) = self.event {
            write!(f, "event {index}")?;
            if let Some(name) = &self.name {
                write!(f, " ({name})")?;
            }
            // "event 3 is a string, ..." reads as one clause when no key is at fault.
            f.write_str(if self.keys.is_empty() { " " } else { ": " })?;
        }
        let quoted: Vec<String> = self.keys.iter().map(|key| format!("\"{key}\"")).collect();
        match quoted.len() {
            0 => {}
            1 => write!(f, "key {} ", quoted[0])?,
            _ => write!(f, "keys {} ", quoted.join(", "))?,
        }
        f.write_str(&self.detail)
    }
}

impl std::error::Error for TableError {}

/// The default table's text, also what `pmugen` writes back for it.
const KNC_JSON: &str = include_str!("../../events/knc.json");

/// The RISC-V table of the RVFI adapter (docs/soc.md), the default with `--rvfi`.
const RISCV_JSON: &str = include_str!("../../events/riscv.json");

impl EventTable {
    /// Seed 001 Table 1-6 (§2.4), stem "knc".
    pub fn default_table() -> EventTable {
        Self::from_json(KNC_JSON, "knc.json", "knc", 4).expect("events/knc.json is a valid event table")
    }

    /// The RISC-V events of the RVFI adapter (docs/soc.md §1.1), stem "riscv": the
    /// default table with `--rvfi`.
    pub fn riscv_table() -> EventTable {
        Self::from_json(RISCV_JSON, "riscv.json", "riscv", 4).expect("events/riscv.json is a valid event table")
    }

    /// Read and check a table file (`--event-table`); `counters` is K, for the
    /// `Counter` check. The stem is the file name without extension, lower-cased.
    pub fn from_file(path: &Path, counters: usize) -> Result<EventTable, TableError> {
        let source = path.display().to_string();
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
        let text = std::fs::read_to_string(path).map_err(|err| TableError {
            source: source.clone(),
            event: None,
            name: None,
            keys: vec![],
            detail: format!("cannot read the file: {err} (--event-table expects a JSON file)"),
        })?;
        Self::from_json(&text, &source, &stem, counters)
    }

    /// Check a table given as text; `source` names it in errors, `stem` is its module
    /// name part, `counters` is K.
    pub fn from_json(text: &str, source: &str, stem: &str, counters: usize) -> Result<EventTable, TableError> {
        let file_error =
            |detail: String| TableError { source: source.to_string(), event: None, name: None, keys: vec![], detail };
        if !is_module_stem(stem) {
            return Err(file_error(format!(
                "file stem \"{stem}\" is not a module name (expected letters, digits and _ starting with a letter, \
                 as it becomes part of the top module name pmu_<stem>_...; rename the --event-table file)"
            )));
        }
        let json: Value = serde_json::from_str(text).map_err(|err| file_error(format!("not JSON: {err}")))?;
        // serde_json keeps the last of a repeated key; the repeats are found on their own.
        let repeated = repeated_keys(text);
        let Value::Array(items) = json else {
            return Err(file_error(format!(
                "the top level is {}, not an array (expected a JSON array of event objects)",
                kind(&json)
            )));
        };
        if items.is_empty() {
            return Err(file_error("has no events (expected a JSON array of at least one event object)".into()));
        }
        let mut events: Vec<Event> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let repeats = repeated.get(index).map_or(&[][..], Vec::as_slice);
            let event = parse_event(item, source, index, counters, repeats)?;
            // Duplicates are reported at the later event, naming the earlier one.
            if let Some(first) = events.iter().position(|e| e.name == event.name) {
                return Err(TableError {
                    source: source.to_string(),
                    event: Some(index),
                    name: None,
                    keys: vec!["EventName".to_string()],
                    detail: format!("= \"{}\" is also the name of event {first} (expected unique names)", event.name),
                });
            }
            if let Some(first) = events.iter().position(|e| (e.code, e.umask) == (event.code, event.umask)) {
                return Err(TableError {
                    source: source.to_string(),
                    event: Some(index),
                    name: Some(event.name.clone()),
                    keys: vec!["EventCode".to_string(), "UMask".to_string()],
                    detail: format!(
                        "= \"{}\", \"{}\" are also those of event {first} ({}) (expected each (EventCode, UMask) pair once)",
                        hex(event.code),
                        hex(event.umask),
                        events[first].name
                    ),
                });
            }
            events.push(event);
        }
        Ok(EventTable { stem: stem.to_string(), events })
    }

    /// Refuse a `Counter` index >= K (for when K is known only after the table was read).
    pub fn check_counters(&self, counters: usize) -> Result<(), TableError> {
        for (index, event) in self.events.iter().enumerate() {
            if let Some(list) = &event.counters {
                let value = Value::String(counter_text(list));
                check_counter_range(list, &value, &self.stem, index, &event.name, counters)?;
            }
        }
        Ok(())
    }

    /// Where each event's field sits in the `events` / `core_events` ports (§2).
    pub fn layout(&self) -> InputLayout {
        InputLayout::new(self)
    }

    /// The table as used, in perf format with `PerCycleMax` and `Scope` always written,
    /// pretty-printed with a trailing newline. `from_json` gives the same table back.
    pub fn to_perf_json(&self) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct PerfEvent<'a> {
            event_code: String,
            #[serde(rename = "UMask")]
            umask: String,
            event_name: &'a str,
            brief_description: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            counter: Option<String>,
            per_cycle_max: u8,
            scope: &'static str,
        }
        let rows: Vec<PerfEvent> = self
            .events
            .iter()
            .map(|e| PerfEvent {
                event_code: hex(e.code),
                umask: hex(e.umask),
                event_name: &e.name,
                brief_description: &e.brief,
                counter: e.counters.as_deref().map(counter_text),
                per_cycle_max: e.per_cycle_max,
                scope: e.scope.as_str(),
            })
            .collect();
        serde_json::to_string_pretty(&rows).expect("plain data serializes") + "\n"
    }
}

/// "0x2A": perf's spelling of a byte.
pub(crate) fn hex(byte: u8) -> String {
    format!("0x{byte:02X}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_table_is_seed_001_table_1_6() {
        let table = EventTable::default_table();
        assert_eq!(table.stem, "knc");
        assert_eq!(table.events.len(), 59);
        let layout = table.layout();
        assert_eq!((layout.thread_width, layout.core_width), (50, 19));
        let find = |name: &str| table.events.iter().position(|e| e.name == name).unwrap();
        let ie = find("INSTRUCTIONS_EXECUTED");
        assert_eq!((table.events[ie].code, table.events[ie].umask), (0x16, 0x00));
        // Before it: DATA_READ and DATA_WRITE (2 bits each) and 12 one-bit events.
        assert_eq!(layout.fields[ie], FieldPosition { event: ie, scope: Scope::Thread, lsb: 16, width: 2 });
        let active = find("VPU_ELEMENTS_ACTIVE");
        assert_eq!(table.events[active].field_width(), 5);
        assert_eq!(layout.fields[active].lsb, 45);
        for e in &table.events {
            assert_eq!(e.scope == Scope::Core, e.umask == 0x10, "{}", e.name);
            assert!(!e.brief.is_empty(), "{}", e.name);
        }
        assert_eq!(table.events.iter().filter(|e| e.field_width() == 2).count(), 6);
        // knc.json is written in exactly the form the generator writes tables back.
        assert_eq!(table.to_perf_json(), KNC_JSON);
    }

    #[test]
    fn riscv_table_has_fourteen_one_bit_thread_events_coded_in_order() {
        let table = EventTable::riscv_table();
        assert_eq!(table.stem, "riscv");
        assert_eq!(table.events.len(), 14);
        for (index, event) in table.events.iter().enumerate() {
            assert_eq!((event.code as usize, event.umask), (index + 1, 0), "{}", event.name);
            assert_eq!((event.per_cycle_max, event.scope), (1, Scope::Thread), "{}", event.name);
            assert!(event.brief.ends_with('.'), "{}: one sentence", event.name);
        }
        assert_eq!(table.layout().thread_width, 14);
        assert_eq!(table.to_perf_json(), RISCV_JSON, "riscv.json is written as the generator writes tables");
    }

    #[test]
    fn field_width_is_bits_for_per_cycle_max() {
        let widths: Vec<usize> = [1u8, 2, 3, 4, 16, 127, 128, 255].iter().map(|&m| field_width(m)).collect();
        assert_eq!(widths, [1, 2, 2, 3, 5, 7, 8, 8]);
    }

    #[test]
    fn optional_keys_default_and_other_perf_keys_are_ignored() {
        let text = r#"[{"EventName": "A1", "EventCode": "0x1", "UMask": "0xfF", "Unit": "cpu", "SampleAfterValue": "2000003"},
                       {"EventName": "B", "EventCode": "0x02", "UMask": "0xFF", "PerCycleMax": "3", "Scope": "core", "Counter": "1, 0,1"},
                       {"EventName": "C", "EventCode": "0x02", "UMask": "0x00", "Counter": 1}]"#;
        let table = EventTable::from_json(text, "t.json", "t", 2).unwrap();
        let a = &table.events[0];
        assert_eq!(
            (a.code, a.umask, a.brief.as_str(), a.per_cycle_max, a.scope, a.counters.clone()),
            (1, 0xFF, "", 1, Scope::Thread, None)
        );
        assert_eq!((table.events[1].per_cycle_max, table.events[1].scope), (3, Scope::Core));
        assert_eq!(table.events[1].counters, Some(vec![0, 1]));
        assert_eq!(table.events[2].counters, Some(vec![1]));
    }

    #[test]
    fn round_trip_through_perf_json() {
        let text = r#"[{"EventName": "X", "EventCode": "0x10", "UMask": "0x01", "BriefDescription": "An \"x\" | y.", "Counter": "0,1"},
                       {"EventName": "Y_2", "EventCode": "0xFF", "UMask": "0x01", "PerCycleMax": 255, "Scope": "core"}]"#;
        let table = EventTable::from_json(text, "t.json", "t", 2).unwrap();
        let again = EventTable::from_json(&table.to_perf_json(), "again.json", "t", 2).unwrap();
        assert_eq!(again, table);
        assert!(table.to_perf_json().contains("\"Counter\": \"0,1\""));
        let knc = EventTable::default_table();
        assert_eq!(EventTable::from_json(&knc.to_perf_json(), "k.json", "knc", 2).unwrap(), knc);
    }
}
