//! The events a plan names, looked up in the PMU's event table: an unknown name is
//! refused with the closest known one, a repeated one is refused.
use anyhow::{bail, Result};

use pmugen_hdl::pmu::event_table::{Event, EventTable};

/// The table events named in `names`, in that order: unknown and repeated names are
/// refused (an unknown one with the closest known name).
pub fn events<'a>(table: &'a EventTable, names: &[String]) -> Result<Vec<&'a Event>> {
    if names.is_empty() {
        bail!("--events: give one or more event names separated by commas, e.g. --events {}", table.events[0].name);
    }
    if let Some(position) = names.iter().position(|n| n.trim().is_empty()) {
        bail!("--events: name {} of the list is empty (two commas in a row, or one at an end)", position + 1);
    }
    let mut chosen: Vec<&Event> = Vec::new();
    for name in names {
        let wanted = name.trim().to_ascii_uppercase();
        let Some(event) = table.events.iter().find(|e| e.name == wanted) else {
            let (distance, closest) = table
                .events
                .iter()
                .map(|e| (edit_distance(&e.name, &wanted), &e.name))
                .min()
                .expect("a table has events");
            let hint = if distance * 3 <= wanted.len() {
                format!("the closest is '{closest}'")
            } else {
                "the names are in the generated <top>_events.json or docs/pmu.md §2.4".to_string()
            };
            bail!("--events: no event '{name}' in the event table '{}'; {hint}", table.stem);
        };
        if chosen.iter().any(|e| e.name == event.name) {
            bail!("--events: '{}' is listed twice; each event is planned once", event.name);
        }
        chosen.push(event);
    }
    Ok(chosen)
}

/// Levenshtein distance, for suggesting the closest event name.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + (ca != cb) as usize).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
