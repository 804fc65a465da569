//! The adapter's 14 events by name (docs/soc.md §1.1), in the order of its event
//! vector (bit i of a hart's vector is `EVENTS[i]`, the order of `hdl/events/riscv.json`),
//! and the checks of what names them: an event table used with `--rvfi` and the
//! monitor's `--rvfi-events` list.
use serde_json::Value;

use crate::pmu::event_table::{EventTable, Scope, TableError};

/// The number of events the adapter derives per hart.
pub const EVENT_COUNT: usize = 14;

/// The events, in the order of a hart's event vector.
pub const EVENTS: [&str; EVENT_COUNT] = [
    "CYCLES",
    "INSTRET",
    "STALL_CYCLES",
    "LOAD",
    "STORE",
    "BRANCH",
    "BRANCH_TAKEN",
    "JUMP",
    "CALL",
    "RETURN",
    "TRAP",
    "INTERRUPT",
    "SYSTEM",
    "MULDIV",
];

/// The bit of the event named `name`.
pub fn bit_of(name: &str) -> Option<usize> {
    EVENTS.iter().position(|event| *event == name)
}

/// "CYCLES, INSTRET, ...": every event name, for messages.
pub fn known() -> String {
    EVENTS.join(", ")
}

/// The RISC-V table (`hdl/events/riscv.json`) as Markdown, as docs/soc.md embeds it:
/// each event's bit in a hart's vector, codes and description.
pub fn markdown_table() -> String {
    let mut md = String::from("| bit | EventName | EventCode | UMask | BriefDescription |\n|---:|---|---|---|---|\n");
    for (bit, event) in EventTable::riscv_table().events.iter().enumerate() {
        md += &format!(
            "| {bit} | {} | 0x{:02X} | 0x{:02X} | {} |\n",
            event.name,
            event.code,
            event.umask,
            event.brief.replace('|', "\\|")
        );
    }
    md
}

/// For a PMU table used with `--rvfi` (`source` names it in errors): the adapter's bit
/// for each table event, in table order. Refused naming the event: a name the adapter
/// does not produce, and a core-scope event (a retirement belongs to one hart).
pub fn table_bits(table: &EventTable, source: &str) -> Result<Vec<usize>, TableError> {
    let error = |index: usize, key: &'static str, detail: String| TableError {
        source: source.to_string(),
        event: Some(index),
        name: Some(table.events[index].name.clone()),
        keys: vec![key.to_string()],
        detail,
    };
    let mut bits = Vec::with_capacity(table.events.len());
    for (index, event) in table.events.iter().enumerate() {
        let Some(bit) = bit_of(&event.name) else {
            let value = Value::String(event.name.clone());
            let near = close(&event.name).map_or(String::new(), |near| format!("did you mean {near}? "));
            return Err(error(
                index,
                "EventName",
                format!(
                    "= {value} is not an event the RVFI adapter produces ({near}with --rvfi the known events are {})",
                    known()
                ),
            ));
        };
        if event.scope == Scope::Core {
            return Err(error(
                index,
                "Scope",
                "= \"core\" is refused with --rvfi: a retirement belongs to one hart, so every RVFI event has \
                 Scope \"thread\""
                    .to_string(),
            ));
        }
        bits.push(bit);
    }
    Ok(bits)
}

/// `--rvfi-events`: the adapter's bit for each of `names`, which must be exactly
/// `count` (the monitor's N) known event names.
pub fn chosen_bits(names: &[String], count: usize) -> Result<Vec<usize>, String> {
    if names.len() != count {
        return Err(format!(
            "--rvfi-events names {} event{}, but --events (N) = {count}: give exactly {count} names, one per \
             event line (known: {})",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            known()
        ));
    }
    names
        .iter()
        .map(|name| {
            bit_of(name).ok_or_else(|| {
                format!(
                    "--rvfi-events: '{name}' is not an RVFI event; did you mean {}? (known: {})",
                    closest(name),
                    known()
                )
            })
        })
        .collect()
}

/// The known event nearest to `name` by edit distance (case ignored), the first of a tie.
pub fn closest(name: &str) -> &'static str {
    let name = name.to_ascii_uppercase();
    EVENTS.iter().min_by_key(|event| edit_distance(&name, event)).expect("fourteen events")
}

/// The known event nearest to `name` if it is near: at most a third of its letters
/// differ (a typo, not another event).
fn close(name: &str) -> Option<&'static str> {
    let near = closest(name);
    (edit_distance(&name.to_ascii_uppercase(), near) * 3 <= name.len().max(3)).then_some(near)
}

/// Levenshtein distance: insertions, deletions and substitutions of one character.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_riscv_tables_in_its_order() {
        let table = EventTable::riscv_table();
        let names: Vec<&str> = table.events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, EVENTS);
        assert_eq!(table_bits(&table, "riscv.json"), Ok((0..EVENT_COUNT).collect()));
        for (event, name) in pmugen_sim::reference::rvfi::Event::ALL.iter().zip(EVENTS) {
            assert_eq!(event.name(), name, "the reference model's order");
        }
    }

    #[test]
    fn tables_with_other_events_or_core_scope_are_refused_naming_the_event() {
        let table = |rows: &str| EventTable::from_json(&format!("[{rows}]"), "mine.json", "mine", 4).unwrap();
        let subset = table(
            r#"{"EventName": "BRANCH_TAKEN", "EventCode": "0x40", "UMask": "0x00"},
               {"EventName": "CYCLES", "EventCode": "0x41", "UMask": "0x00"}"#,
        );
        assert_eq!(table_bits(&subset, "mine.json"), Ok(vec![6, 0]));
        let unknown = table(r#"{"EventName": "BRANCHES", "EventCode": "0x40", "UMask": "0x00"}"#);
        let message = table_bits(&unknown, "mine.json").unwrap_err().to_string();
        assert!(
            message.starts_with(
                r#"event table mine.json: event 0 (BRANCHES): key "EventName" = "BRANCHES" is not an event the RVFI adapter produces (did you mean BRANCH?"#
            ),
            "{message}"
        );
        assert!(message.ends_with("SYSTEM, MULDIV)"), "{message}");
        // A name that is no typo of a known one gets no suggestion.
        let other = table(r#"{"EventName": "DATA_READ", "EventCode": "0x40", "UMask": "0x00"}"#);
        let message = table_bits(&other, "mine.json").unwrap_err().to_string();
        assert!(message.contains(r#"produces (with --rvfi the known events are CYCLES"#), "{message}");
        let core = table(r#"{"EventName": "LOAD", "EventCode": "0x40", "UMask": "0x00", "Scope": "core"}"#);
        let message = table_bits(&core, "mine.json").unwrap_err().to_string();
        assert!(message.contains(r#"event 0 (LOAD): key "Scope" = "core" is refused with --rvfi"#), "{message}");
    }

    #[test]
    fn monitor_names_are_counted_and_unknown_ones_get_the_closest() {
        let names = |text: &str| text.split(',').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(chosen_bits(&names("CALL,RETURN,CALL"), 3), Ok(vec![8, 9, 8]));
        let message = chosen_bits(&names("CALL,RETURN"), 3).unwrap_err();
        assert!(message.starts_with("--rvfi-events names 2 events, but --events (N) = 3: give exactly 3"), "{message}");
        let message = chosen_bits(&names("CALL,RETRUN"), 2).unwrap_err();
        assert!(message.starts_with("--rvfi-events: 'RETRUN' is not an RVFI event; did you mean RETURN?"), "{message}");
        assert_eq!(closest("instret"), "INSTRET");
        assert_eq!(closest("STALL_CYCLE"), "STALL_CYCLES");
        assert_eq!((edit_distance("", "AB"), edit_distance("KITTEN", "SITTING")), (2, 3));
    }
}
