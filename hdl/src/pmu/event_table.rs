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
    /// The key(s) at fault (two for a duplicate (EventCode, UMask) pair).
    pub keys: Vec<&'static str>,
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

impl EventTable {
    /// Seed 001 Table 1-6 (§2.4), stem "knc".
    pub fn default_table() -> EventTable {
        Self::from_json(KNC_JSON, "knc.json", "knc", 4).expect("events/knc.json is a valid event table")
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
            let event = parse_event(item, source, index, counters)?;
            // Duplicates are reported at the later event, naming the earlier one.
            if let Some(first) = events.iter().position(|e| e.name == event.name) {
                return Err(TableError {
                    source: source.to_string(),
                    event: Some(index),
                    name: None,
                    keys: vec!["EventName"],
                    detail: format!("= \"{}\" is also the name of event {first} (expected unique names)", event.name),
                });
            }
            if let Some(first) = events.iter().position(|e| (e.code, e.umask) == (event.code, event.umask)) {
                return Err(TableError {
                    source: source.to_string(),
                    event: Some(index),
                    name: Some(event.name.clone()),
                    keys: vec!["EventCode", "UMask"],
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

/// perf's `Counter` spelling, "0,1".
fn counter_text(list: &[usize]) -> String {
    list.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

/// "an object", "a string", ...: a JSON value's kind, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Builds the errors of one event; `name` is filled in once `EventName` checked out.
struct At<'a> {
    source: &'a str,
    index: usize,
    name: Option<&'a str>,
}

impl At<'_> {
    fn error(&self, key: &'static str, detail: String) -> TableError {
        TableError {
            source: self.source.to_string(),
            event: Some(self.index),
            name: self.name.map(str::to_string),
            keys: vec![key],
            detail,
        }
    }

    /// `= <value as JSON> <problem>`: the value exactly as the file spells it.
    fn bad(&self, key: &'static str, value: &Value, problem: &str) -> TableError {
        self.error(key, format!("= {value} {problem}"))
    }
}

const HEX_EXPECTED: &str = "is not a hex byte (expected \"0x00\"..\"0xFF\")";

/// One array element to an `Event`: required keys, types and ranges (§2); uniqueness
/// across events is the caller's job.
fn parse_event(item: &Value, source: &str, index: usize, counters: usize) -> Result<Event, TableError> {
    let mut at = At { source, index, name: None };
    let Value::Object(map) = item else {
        return Err(TableError {
            source: source.to_string(),
            event: Some(index),
            name: None,
            keys: vec![],
            detail: format!("is {}, not an object (expected one object per event)", kind(item)),
        });
    };
    let name = match map.get("EventName") {
        None => return Err(at.error("EventName", "is missing (expected a name of A-Z, 0-9 and _)".into())),
        Some(Value::String(s)) if is_event_name(s) => s.as_str(),
        Some(v) => return Err(at.bad("EventName", v, "is not a valid event name (expected [A-Z0-9_]+)")),
    };
    at.name = Some(name);
    let byte = |key: &'static str| match map.get(key) {
        None => Err(at.error(key, "is missing (expected a hex string \"0x00\"..\"0xFF\")".into())),
        Some(v) => parse_hex(v).ok_or_else(|| at.bad(key, v, HEX_EXPECTED)),
    };
    let code = byte("EventCode")?;
    let umask = byte("UMask")?;
    let brief = match map.get("BriefDescription") {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => return Err(at.bad("BriefDescription", v, "is not a string")),
    };
    let per_cycle_max = match map.get("PerCycleMax") {
        None => 1,
        Some(v) => parse_per_cycle_max(v).map_err(|problem| at.bad("PerCycleMax", v, problem))?,
    };
    let scope = match map.get("Scope") {
        None => Scope::Thread,
        Some(Value::String(s)) if s == "thread" => Scope::Thread,
        Some(Value::String(s)) if s == "core" => Scope::Core,
        Some(v) => return Err(at.bad("Scope", v, "is not a scope (expected \"thread\" or \"core\")")),
    };
    let counter_list = match map.get("Counter") {
        None => None,
        Some(v) => {
            let list = parse_counters(v).map_err(|problem| at.bad("Counter", v, &problem))?;
            check_counter_range(&list, v, source, index, name, counters)?;
            Some(list)
        }
    };
    Ok(Event { name: name.to_string(), code, umask, brief, counters: counter_list, per_cycle_max, scope })
}

fn is_event_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// "0x" and 1-2 hex digits, as a JSON string; anything else (numbers, "0x100", "2A")
/// is refused rather than guessed at.
fn parse_hex(value: &Value) -> Option<u8> {
    let digits = value.as_str()?.strip_prefix("0x")?;
    if (1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        u8::from_str_radix(digits, 16).ok()
    } else {
        None
    }
}

/// A JSON integer or a decimal string (some perf tools quote every value), 1..=255.
fn parse_per_cycle_max(value: &Value) -> Result<u8, &'static str> {
    const RANGE: &str = "is out of range 1..=255";
    const NOT_INTEGER: &str = "is not an integer (expected 1..=255)";
    let number = match value {
        // 2.0 and 1e3 are integers too; `as` saturates, which keeps huge ones out of range.
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .or_else(|| n.as_f64().filter(|x| x.fract() == 0.0).map(|x| x as i128)),
        Value::String(s) => s.trim().parse::<i128>().ok(),
        _ => None,
    };
    match number {
        Some(n) if (1..=255).contains(&n) => Ok(n as u8),
        Some(_) => Err(RANGE),
        None if matches!(value, Value::String(s) if !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit())) => {
            Err(RANGE)
        }
        None => Err(NOT_INTEGER),
    }
}

/// perf's "0,1" string, a JSON array of integers or one integer; sorted, repeats dropped (it is a set).
fn parse_counters(value: &Value) -> Result<Vec<usize>, String> {
    let entries: Vec<Result<usize, String>> = match value {
        Value::String(s) => s.split(',').map(|e| e.trim().parse::<usize>().map_err(|_| format!("\"{e}\""))).collect(),
        Value::Array(items) => {
            items.iter().map(|e| e.as_u64().map(|n| n as usize).ok_or_else(|| e.to_string())).collect()
        }
        Value::Number(_) => vec![value.as_u64().map(|n| n as usize).ok_or_else(|| value.to_string())],
        _ => return Err("is not a counter list (expected a string such as \"0,1\" or an array of integers)".into()),
    };
    let mut list = Vec::with_capacity(entries.len());
    for entry in entries {
        let index = entry
            .map_err(|bad| format!("has entry {bad} that is not a counter index (expected a list such as \"0,1\")"))?;
        list.push(index);
    }
    if list.is_empty() {
        return Err("lists no counters (expected at least one counter index such as \"0\")".into());
    }
    list.sort_unstable();
    list.dedup();
    Ok(list)
}

/// Refuse a `Counter` index >= K (§2): the planner (C.2) would place the event on a
/// counter the hardware does not have.
fn check_counter_range(
    list: &[usize],
    value: &Value,
    source: &str,
    index: usize,
    name: &str,
    counters: usize,
) -> Result<(), TableError> {
    match list.iter().find(|&&c| c >= counters) {
        None => Ok(()),
        Some(bad) => Err(At { source, index, name: Some(name) }.bad(
            "Counter",
            value,
            &format!(
                "names counter {bad}, but --counters (K) = {counters} allows only 0..={}",
                counters.saturating_sub(1)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message for a table whose events are `body` (a JSON array's inside).
    fn refusal(body: &str) -> String {
        EventTable::from_json(&format!("[{body}]"), "events/foo.json", "foo", 2).unwrap_err().to_string()
    }

    const OK0: &str = r#"{"EventName": "DATA_READ", "EventCode": "0x00", "UMask": "0x00"}"#;

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

    #[test]
    fn refuses_duplicate_name() {
        assert_eq!(
            refusal(&format!(r#"{OK0}, {{"EventName": "DATA_READ", "EventCode": "0x01", "UMask": "0x00"}}"#)),
            r#"event table events/foo.json: event 1: key "EventName" = "DATA_READ" is also the name of event 0 (expected unique names)"#
        );
    }

    #[test]
    fn refuses_bad_name() {
        assert_eq!(
            refusal(r#"{"EventName": "data-read", "EventCode": "0x00", "UMask": "0x00"}"#),
            r#"event table events/foo.json: event 0: key "EventName" = "data-read" is not a valid event name (expected [A-Z0-9_]+)"#
        );
        assert_eq!(
            refusal(r#"{"EventName": "", "EventCode": "0x00", "UMask": "0x00"}"#),
            r#"event table events/foo.json: event 0: key "EventName" = "" is not a valid event name (expected [A-Z0-9_]+)"#
        );
    }

    #[test]
    fn refuses_duplicate_code_and_umask() {
        assert_eq!(
            refusal(&format!(r#"{OK0}, {OK0}"#).replacen("DATA_READ", "FIRST", 1)),
            r#"event table events/foo.json: event 1 (DATA_READ): keys "EventCode", "UMask" = "0x00", "0x00" are also those of event 0 (FIRST) (expected each (EventCode, UMask) pair once)"#
        );
    }

    #[test]
    fn refuses_bad_hex() {
        let expected = |value: &str| {
            format!(
                r#"event table events/foo.json: event 0 (DATA_READ): key "EventCode" = {value} is not a hex byte (expected "0x00".."0xFF")"#
            )
        };
        for value in [r#""0x1G""#, r#""0x100""#, r#""2A""#, r#""0x""#, "42", "null"] {
            assert_eq!(refusal(&OK0.replace(r#""0x00", "UMask""#, &format!(r#"{value}, "UMask""#))), expected(value));
        }
        assert_eq!(
            refusal(&OK0.replace(r#""UMask": "0x00""#, r#""UMask": "0X10""#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "UMask" = "0X10" is not a hex byte (expected "0x00".."0xFF")"#
        );
    }

    #[test]
    fn refuses_missing_keys() {
        assert_eq!(
            refusal(r#"{"EventCode": "0x00", "UMask": "0x00"}"#),
            r#"event table events/foo.json: event 0: key "EventName" is missing (expected a name of A-Z, 0-9 and _)"#
        );
        assert_eq!(
            refusal(&format!(r#"{OK0}, {{"EventName": "B", "UMask": "0x00"}}"#)),
            r#"event table events/foo.json: event 1 (B): key "EventCode" is missing (expected a hex string "0x00".."0xFF")"#
        );
        assert_eq!(
            refusal(r#"{"EventName": "B", "EventCode": "0x00"}"#),
            r#"event table events/foo.json: event 0 (B): key "UMask" is missing (expected a hex string "0x00".."0xFF")"#
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "BriefDescription": 7}"#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "BriefDescription" = 7 is not a string"#
        );
    }

    #[test]
    fn refuses_per_cycle_max_out_of_range_or_not_integer() {
        let with = |value: &str| refusal(&OK0.replace('}', &format!(r#", "PerCycleMax": {value}}}"#)));
        let prefix = r#"event table events/foo.json: event 0 (DATA_READ): key "PerCycleMax" = "#;
        for value in ["0", "256", "-1", r#""256""#, r#""0""#, r#""99999999999999999999999999999999999999999""#] {
            assert_eq!(with(value), format!("{prefix}{value} is out of range 1..=255"));
        }
        // serde_json reads 1e3 and integers beyond 64 bits as floats, shown in its spelling.
        assert_eq!(with("1e3"), format!("{prefix}1000.0 is out of range 1..=255"));
        assert_eq!(with("18446744073709551616"), format!("{prefix}1.8446744073709552e+19 is out of range 1..=255"));
        for value in ["1.5", r#""two""#, "true", "[2]"] {
            assert_eq!(with(value), format!("{prefix}{value} is not an integer (expected 1..=255)"));
        }
        assert_eq!(
            EventTable::from_json(&format!("[{}]", OK0.replace('}', r#", "PerCycleMax": "255"}"#)), "f", "f", 2)
                .unwrap()
                .events[0]
                .per_cycle_max,
            255
        );
        assert_eq!(
            EventTable::from_json(&format!("[{}]", OK0.replace('}', r#", "PerCycleMax": 2.0}"#)), "f", "f", 2)
                .unwrap()
                .events[0]
                .per_cycle_max,
            2
        );
    }

    #[test]
    fn refuses_unknown_scope() {
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Scope": "socket"}"#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "Scope" = "socket" is not a scope (expected "thread" or "core")"#
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Scope": "Core"}"#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "Scope" = "Core" is not a scope (expected "thread" or "core")"#
        );
    }

    #[test]
    fn refuses_counter_index_at_or_above_k() {
        let prefix = r#"event table events/foo.json: event 0 (DATA_READ): key "Counter" = "#;
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Counter": "0,2"}"#)),
            format!(r#"{prefix}"0,2" names counter 2, but --counters (K) = 2 allows only 0..=1"#)
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Counter": [3, 0]}"#)),
            format!("{prefix}[3,0] names counter 3, but --counters (K) = 2 allows only 0..=1")
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Counter": "0,x"}"#)),
            format!(r#"{prefix}"0,x" has entry "x" that is not a counter index (expected a list such as "0,1")"#)
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Counter": [0, "1"]}"#)),
            format!(r#"{prefix}[0,"1"] has entry "1" that is not a counter index (expected a list such as "0,1")"#)
        );
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Counter": []}"#)),
            format!(r#"{prefix}[] lists no counters (expected at least one counter index such as "0")"#)
        );
        // A table read with K = 4 and then used with K = 2.
        let text =
            format!("[{OK0}, {}]", r#"{"EventName": "B", "EventCode": "0x01", "UMask": "0x00", "Counter": "3"}"#);
        let table = EventTable::from_json(&text, "events/foo.json", "foo", 4).unwrap();
        assert_eq!(table.check_counters(4), Ok(()));
        assert_eq!(
            table.check_counters(2).unwrap_err().to_string(),
            r#"event table foo: event 1 (B): key "Counter" = "3" names counter 3, but --counters (K) = 2 allows only 0..=1"#
        );
    }

    #[test]
    fn refuses_bad_shapes() {
        let file = |text: &str| EventTable::from_json(text, "events/foo.json", "foo", 2).unwrap_err().to_string();
        assert_eq!(
            file("[]"),
            "event table events/foo.json: has no events (expected a JSON array of at least one event object)"
        );
        assert_eq!(
            file(&format!(r#"{{"events": [{OK0}]}}"#)),
            "event table events/foo.json: the top level is an object, not an array (expected a JSON array of event objects)"
        );
        assert_eq!(
            file(&format!(r#"[{OK0}, "DATA_WRITE"]"#)),
            "event table events/foo.json: event 1 is a string, not an object (expected one object per event)"
        );
        assert_eq!(
            file("[{\"EventName\": \"A\",\n  \"EventCode\": 0x00}]"),
            "event table events/foo.json: not JSON: expected `,` or `}` at line 2 column 17"
        );
    }

    #[test]
    fn refuses_missing_file_and_bad_stem() {
        let missing = Path::new("/nonexistent/dir/foo.json");
        assert_eq!(
            EventTable::from_file(missing, 2).unwrap_err().to_string(),
            "event table /nonexistent/dir/foo.json: cannot read the file: No such file or directory (os error 2) \
             (--event-table expects a JSON file)"
        );
        let dir = std::env::temp_dir().join(format!("pmugen-event-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("my-table.json");
        std::fs::write(&bad, format!("[{OK0}]")).unwrap();
        assert_eq!(
            EventTable::from_file(&bad, 2).unwrap_err().to_string(),
            format!(
                "event table {}: file stem \"my-table\" is not a module name (expected letters, digits and _ starting \
                 with a letter, as it becomes part of the top module name pmu_<stem>_...; rename the --event-table file)",
                bad.display()
            )
        );
        let good = dir.join("My_Table2.json");
        std::fs::write(&good, format!("[{OK0}]")).unwrap();
        assert_eq!(EventTable::from_file(&good, 2).unwrap().stem, "my_table2");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(is_module_stem("knc") && is_module_stem("a_1") && !is_module_stem("1a") && !is_module_stem("_a"));
        assert!(!is_module_stem("") && !is_module_stem("a.b"));
    }
}
