//! Reading one event of an event table (docs/pmu.md §2.3): each key checked, each
//! refusal naming the file, the event (index and name), the key, the bad value and
//! what is allowed.
use serde_json::Value;

use super::event_table::{Event, Scope, TableError};

/// perf's `Counter` spelling, "0,1".
pub(super) fn counter_text(list: &[usize]) -> String {
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
    fn error(&self, key: &str, detail: String) -> TableError {
        TableError {
            source: self.source.to_string(),
            event: Some(self.index),
            name: self.name.map(str::to_string),
            keys: vec![key.to_string()],
            detail,
        }
    }

    /// `= <value as JSON> <problem>`: the value exactly as the file spells it.
    fn bad(&self, key: &str, value: &Value, problem: &str) -> TableError {
        self.error(key, format!("= {value} {problem}"))
    }
}

const HEX_EXPECTED: &str = "is not a hex byte (expected \"0x00\"..\"0xFF\")";

/// The keys this parser reads: a key that differs from one of them only in case would
/// be ignored as another perf key, so it is refused.
const KNOWN_KEYS: [&str; 7] =
    ["EventName", "EventCode", "UMask", "BriefDescription", "PerCycleMax", "Scope", "Counter"];

/// One array element to an `Event`: required keys, types and ranges (§2), no key given
/// twice (`repeats`, the keys the element's object repeats) or spelled in another case;
/// uniqueness across events is the caller's job.
pub(super) fn parse_event(
    item: &Value,
    source: &str,
    index: usize,
    counters: usize,
    repeats: &[String],
) -> Result<Event, TableError> {
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
    // Named after the event when its name reads right, as the other refusals are.
    at.name = map.get("EventName").and_then(Value::as_str).filter(|s| is_event_name(s));
    if let Some(key) = repeats.first() {
        return Err(at.error(key, "is given twice in this event (expected each key once)".into()));
    }
    for key in map.keys() {
        if let Some(known) = KNOWN_KEYS.iter().find(|known| *known != key && known.eq_ignore_ascii_case(key)) {
            return Err(at.error(
                key,
                format!("differs from \"{known}\" only in case (keys are case-sensitive; expected \"{known}\")"),
            ));
        }
    }
    at.name = None;
    let name = match map.get("EventName") {
        None => return Err(at.error("EventName", "is missing (expected a name of A-Z, 0-9 and _)".into())),
        Some(Value::String(s)) if is_event_name(s) => s.as_str(),
        Some(v) => return Err(at.bad("EventName", v, "is not a valid event name (expected [A-Z0-9_]+)")),
    };
    at.name = Some(name);
    let byte = |key: &str| match map.get(key) {
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

/// Refuse a `Counter` index >= K (§2): the batch planner would place the event on a
/// counter the hardware does not have.
pub(super) fn check_counter_range(
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
    use super::super::event_table::{is_module_stem, EventTable};
    use std::path::Path;

    /// The message for a table whose events are `body` (a JSON array's inside).
    fn refusal(body: &str) -> String {
        EventTable::from_json(&format!("[{body}]"), "events/foo.json", "foo", 2).unwrap_err().to_string()
    }

    const OK0: &str = r#"{"EventName": "DATA_READ", "EventCode": "0x00", "UMask": "0x00"}"#;

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
    fn refuses_a_known_key_in_another_case() {
        let prefix = "event table events/foo.json: event 0 (DATA_READ): key ";
        for (key, known) in [("perCycleMax", "PerCycleMax"), ("scope", "Scope"), ("COUNTER", "Counter")] {
            assert_eq!(
                refusal(&OK0.replace('}', &format!(r#", "{key}": 2}}"#))),
                format!(
                    r#"{prefix}"{key}" differs from "{known}" only in case (keys are case-sensitive; expected "{known}")"#
                )
            );
        }
        // Also next to the key spelled right, and for a key every event must have.
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Scope": "core", "scope": "thread"}"#)),
            format!(r#"{prefix}"scope" differs from "Scope" only in case (keys are case-sensitive; expected "Scope")"#)
        );
        assert_eq!(
            refusal(r#"{"EventName": "B", "eventCode": "0x01", "EventCode": "0x00", "UMask": "0x00"}"#),
            r#"event table events/foo.json: event 0 (B): key "eventCode" differs from "EventCode" only in case (keys are case-sensitive; expected "EventCode")"#
        );
    }

    #[test]
    fn refuses_a_key_given_twice_in_one_event() {
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Scope": "core", "Scope": "thread"}"#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "Scope" is given twice in this event (expected each key once)"#
        );
        assert_eq!(
            refusal(&format!(
                r#"{OK0}, {{"EventName": "B", "EventCode": "0x01", "UMask": "0x00", "Counter": "0", "Counter": "1"}}"#
            )),
            r#"event table events/foo.json: event 1 (B): key "Counter" is given twice in this event (expected each key once)"#
        );
        // A repeated perf key that pmugen ignores is refused too: the table is ambiguous.
        assert_eq!(
            refusal(&OK0.replace('}', r#", "Unit": "cpu", "Unit": "cpu"}"#)),
            r#"event table events/foo.json: event 0 (DATA_READ): key "Unit" is given twice in this event (expected each key once)"#
        );
        // The same key in two events is fine.
        let two = format!(
            r#"[{OK0}, {}]"#,
            OK0.replace("DATA_READ", "B").replace(r#""0x00", "UMask""#, r#""0x01", "UMask""#)
        );
        assert!(EventTable::from_json(&two, "f", "f", 2).is_ok());
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
