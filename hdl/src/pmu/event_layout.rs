//! Where each event's input field sits in the PMU's `events` and `core_events` ports
//! (§2), and the JSON and Markdown exports the generator writes next to the
//! Verilog so that whoever wires the ports need not recompute the packing.
//!
//! Packing rule: fields in table order, the first event at the least significant bits,
//! thread-scope and core-scope events packed separately; thread t's thread-scope fields
//! occupy `events[t*TEW +: TEW]`.
use std::fmt::Write;

use serde::Serialize;

use super::event_table::{hex, EventTable, Scope};

/// One event's field: `lsb` is within one thread's TEW slice (Thread) or within
/// `core_events` (Core).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPosition {
    /// Index of the event in the table.
    pub event: usize,
    /// Which port holds it.
    pub scope: Scope,
    /// Least significant bit, relative to thread 0 for thread scope.
    pub lsb: usize,
    /// IW, its width in bits.
    pub width: usize,
}

/// The packing of a whole table (§2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// TEW: sum of IW over the thread-scope events (may be 0).
    pub thread_width: usize,
    /// CEW: sum of IW over the core-scope events (may be 0).
    pub core_width: usize,
    /// One entry per event, in table order.
    pub fields: Vec<FieldPosition>,
}

/// The port that carries a scope's events.
pub fn port_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Thread => "events",
        Scope::Core => "core_events",
    }
}

/// `[msb:lsb]`, or `[lsb]` for one bit, as Verilog writes a part-select.
fn range_text(msb: usize, lsb: usize) -> String {
    if msb == lsb {
        format!("[{lsb}]")
    } else {
        format!("[{msb}:{lsb}]")
    }
}

impl InputLayout {
    /// Pack `table` by the §2 rule.
    pub fn new(table: &EventTable) -> InputLayout {
        let (mut thread_width, mut core_width) = (0, 0);
        let fields = table
            .events
            .iter()
            .enumerate()
            .map(|(event, e)| {
                let width = e.field_width();
                let next = match e.scope {
                    Scope::Thread => &mut thread_width,
                    Scope::Core => &mut core_width,
                };
                let lsb = *next;
                *next += width;
                FieldPosition { event, scope: e.scope, lsb, width }
            })
            .collect();
        InputLayout { thread_width, core_width, fields }
    }

    /// Width of `events`: max(T*TEW, 1), since a Verilog port cannot be 0 bits wide.
    pub fn events_port_width(&self, threads: usize) -> usize {
        (threads * self.thread_width).max(1)
    }

    /// Width of `core_events`: max(CEW, 1).
    pub fn core_port_width(&self) -> usize {
        self.core_width.max(1)
    }

    /// The absolute (msb, lsb) of `field` in its port; `thread` is ignored for core scope.
    pub fn bits(&self, field: &FieldPosition, thread: usize) -> (usize, usize) {
        let base = match field.scope {
            Scope::Thread => thread * self.thread_width,
            Scope::Core => 0,
        };
        (base + field.lsb + field.width - 1, base + field.lsb)
    }

    /// One (thread, msb, lsb) per copy of the field: T copies for thread scope, one
    /// (thread None) for core scope.
    fn copies(&self, field: &FieldPosition, threads: usize) -> Vec<(Option<usize>, usize, usize)> {
        match field.scope {
            Scope::Thread => (0..threads)
                .map(|t| {
                    let (msb, lsb) = self.bits(field, t);
                    (Some(t), msb, lsb)
                })
                .collect(),
            Scope::Core => {
                let (msb, lsb) = self.bits(field, 0);
                vec![(None, msb, lsb)]
            }
        }
    }

    /// The layout as JSON for T = `threads`: port widths, then per event its name,
    /// code, umask, scope, port, width and absolute bit range per thread.
    pub fn to_json(&self, table: &EventTable, threads: usize) -> String {
        #[derive(Serialize)]
        struct Port {
            name: &'static str,
            width: usize,
            /// False when the port is the 1-bit stand-in for a 0-bit port (§2).
            used: bool,
        }
        #[derive(Serialize)]
        struct Bits {
            #[serde(skip_serializing_if = "Option::is_none")]
            thread: Option<usize>,
            msb: usize,
            lsb: usize,
        }
        #[derive(Serialize)]
        struct Field<'a> {
            index: usize,
            name: &'a str,
            code: String,
            umask: String,
            scope: &'static str,
            port: &'static str,
            width: usize,
            per_cycle_max: u8,
            bits: Vec<Bits>,
        }
        #[derive(Serialize)]
        struct Layout<'a> {
            table: &'a str,
            threads: usize,
            thread_width: usize,
            core_width: usize,
            ports: [Port; 2],
            events: Vec<Field<'a>>,
        }
        let events = self
            .fields
            .iter()
            .map(|f| {
                let e = &table.events[f.event];
                Field {
                    index: f.event,
                    name: &e.name,
                    code: hex(e.code),
                    umask: hex(e.umask),
                    scope: f.scope.as_str(),
                    port: port_name(f.scope),
                    width: f.width,
                    per_cycle_max: e.per_cycle_max,
                    bits: self
                        .copies(f, threads)
                        .into_iter()
                        .map(|(thread, msb, lsb)| Bits { thread, msb, lsb })
                        .collect(),
                }
            })
            .collect();
        let layout = Layout {
            table: &table.stem,
            threads,
            thread_width: self.thread_width,
            core_width: self.core_width,
            ports: [
                Port { name: "events", width: self.events_port_width(threads), used: threads * self.thread_width > 0 },
                Port { name: "core_events", width: self.core_port_width(), used: self.core_width > 0 },
            ],
            events,
        };
        serde_json::to_string_pretty(&layout).expect("plain data serializes") + "\n"
    }

    /// The layout as a Markdown table for T = `threads`, with a line on each port.
    pub fn to_markdown(&self, table: &EventTable, threads: usize) -> String {
        let port_line = |name: &str, width: usize, formula: String| match width {
            0 => format!("- `{name}`: 1 bit, unused ({formula} = 0)\n"),
            1 => format!("- `{name}`: 1 bit ({formula})\n"),
            _ => format!("- `{name}` [{}:0]: {width} bits ({formula})\n", width - 1),
        };
        let mut md = format!("# Event inputs of table `{}` for T = {threads}\n\n", table.stem);
        md += &format!(
            "Generated by pmugen {} from the event table; field packing in docs/pmu.md §2. Each event's field \
             is an unsigned count of its occurrences in one cycle, least significant bit first.\n\n",
            env!("CARGO_PKG_VERSION")
        );
        md += &port_line("events", threads * self.thread_width, format!("T*TEW = {threads}*{}", self.thread_width));
        md += &port_line("core_events", self.core_width, format!("CEW = {}", self.core_width));
        md += "\n| # | event | code/umask | scope | port | bits | IW | PerCycleMax | description |\n";
        md += "|---:|---|---|---|---|---|---:|---:|---|\n";
        for f in &self.fields {
            let e = &table.events[f.event];
            let port = port_name(f.scope);
            let bits = self
                .copies(f, threads)
                .into_iter()
                .map(|(thread, msb, lsb)| match thread {
                    Some(t) => format!("{port}{} (t{t})", range_text(msb, lsb)),
                    None => format!("{port}{}", range_text(msb, lsb)),
                })
                .collect::<Vec<_>>()
                .join(", ");
            // A `|` inside a cell would end it early.
            let brief = e.brief.replace('|', "\\|");
            let _ = writeln!(
                md,
                "| {} | {} | {}/{} | {} | {port} | {bits} | {} | {} | {brief} |",
                f.event,
                e.name,
                hex(e.code),
                hex(e.umask),
                f.scope.as_str(),
                f.width,
                e.per_cycle_max
            );
        }
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn table(text: &str) -> EventTable {
        EventTable::from_json(text, "t.json", "t", 4).unwrap()
    }

    #[test]
    fn packs_in_table_order_from_bit_0_per_scope() {
        let t = table(
            r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "PerCycleMax": 3},
                {"EventName": "B", "EventCode": "0x02", "UMask": "0x00", "Scope": "core"},
                {"EventName": "C", "EventCode": "0x03", "UMask": "0x00"},
                {"EventName": "D", "EventCode": "0x04", "UMask": "0x00", "Scope": "core", "PerCycleMax": 7}]"#,
        );
        let layout = t.layout();
        let field = |event, scope, lsb, width| FieldPosition { event, scope, lsb, width };
        assert_eq!(
            layout,
            InputLayout {
                thread_width: 3,
                core_width: 4,
                fields: vec![
                    field(0, Scope::Thread, 0, 2),
                    field(1, Scope::Core, 0, 1),
                    field(2, Scope::Thread, 2, 1),
                    field(3, Scope::Core, 1, 3),
                ],
            }
        );
        assert_eq!((layout.events_port_width(3), layout.core_port_width()), (9, 4));
        // Thread t's slice starts at t*TEW; core fields ignore the thread.
        assert_eq!(layout.bits(&layout.fields[2], 2), (8, 8));
        assert_eq!(layout.bits(&layout.fields[0], 1), (4, 3));
        assert_eq!(layout.bits(&layout.fields[3], 3), (3, 1));
    }

    #[test]
    fn zero_width_ports_become_one_unused_bit() {
        let core_only = table(r#"[{"EventName": "L2", "EventCode": "0xC8", "UMask": "0x10", "Scope": "core"}]"#);
        let layout = core_only.layout();
        assert_eq!((layout.thread_width, layout.core_width), (0, 1));
        assert_eq!((layout.events_port_width(4), layout.core_port_width()), (1, 1));
        let md = layout.to_markdown(&core_only, 4);
        assert!(md.contains("- `events`: 1 bit, unused (T*TEW = 4*0 = 0)\n"), "{md}");
        let json: Value = serde_json::from_str(&layout.to_json(&core_only, 4)).unwrap();
        assert_eq!(json["ports"][0], serde_json::json!({"name": "events", "width": 1, "used": false}));

        let thread_only = table(r#"[{"EventName": "X", "EventCode": "0x00", "UMask": "0x00"}]"#);
        assert_eq!((thread_only.layout().core_width, thread_only.layout().core_port_width()), (0, 1));
    }

    #[test]
    fn default_table_exports_for_two_threads() {
        let knc = EventTable::default_table();
        let layout = knc.layout();
        assert_eq!((layout.events_port_width(2), layout.core_port_width()), (100, 19));

        let json: Value = serde_json::from_str(&layout.to_json(&knc, 2)).unwrap();
        assert_eq!((json["table"].as_str(), json["threads"].as_u64()), (Some("knc"), Some(2)));
        assert_eq!(json["ports"][0]["width"], 100);
        assert_eq!(json["ports"][1]["width"], 19);
        let events = json["events"].as_array().unwrap();
        assert_eq!(events.len(), 59);
        let by_name = |name: &str| events.iter().find(|e| e["name"] == name).unwrap().clone();
        let ie = by_name("INSTRUCTIONS_EXECUTED");
        assert_eq!(
            (
                ie["code"].as_str(),
                ie["umask"].as_str(),
                ie["scope"].as_str(),
                ie["port"].as_str(),
                ie["width"].as_u64()
            ),
            (Some("0x16"), Some("0x00"), Some("thread"), Some("events"), Some(2))
        );
        assert_eq!(
            ie["bits"],
            serde_json::json!([{"thread": 0, "msb": 17, "lsb": 16}, {"thread": 1, "msb": 67, "lsb": 66}])
        );
        let active = by_name("VPU_ELEMENTS_ACTIVE");
        assert_eq!(
            active["bits"],
            serde_json::json!([{"thread": 0, "msb": 49, "lsb": 45}, {"thread": 1, "msb": 99, "lsb": 95}])
        );
        assert_eq!(active["per_cycle_max"], 16);
        let last_core = by_name("L2_DATA_HIT_INFLIGHT_PF2");
        assert_eq!((last_core["port"].as_str(), last_core["scope"].as_str()), (Some("core_events"), Some("core")));
        assert_eq!(last_core["bits"], serde_json::json!([{"msb": 18, "lsb": 18}]));

        let md = layout.to_markdown(&knc, 2);
        assert!(md.contains("- `events` [99:0]: 100 bits (T*TEW = 2*50)\n"), "{md}");
        assert!(md.contains("- `core_events` [18:0]: 19 bits (CEW = 19)\n"), "{md}");
        assert!(md.contains(
            "| 0 | DATA_READ | 0x00/0x00 | thread | events | events[1:0] (t0), events[51:50] (t1) | 2 | 2 |"
        ));
        assert!(md.contains(
            "| 2 | DATA_PAGE_WALK | 0x02/0x00 | thread | events | events[4] (t0), events[54] (t1) | 1 | 1 |"
        ));
        assert!(md.contains(
            "| INSTRUCTIONS_EXECUTED | 0x16/0x00 | thread | events | events[17:16] (t0), events[67:66] (t1) | 2 | 2 |"
        ));
        assert!(md.contains(
            "| VPU_ELEMENTS_ACTIVE | 0x18/0x20 | thread | events | events[49:45] (t0), events[99:95] (t1) | 5 | 16 |"
        ));
        assert!(md.contains("| 32 | L2_READ_HIT_E | 0xC8/0x10 | core | core_events | core_events[0] | 1 | 1 |"));
        assert!(md.contains("| L2_DATA_HIT_INFLIGHT_PF2 | 0xFF/0x10 | core | core_events | core_events[18] | 1 | 1 |"));
        assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 1 + 59);
    }

    #[test]
    fn markdown_escapes_pipes_in_descriptions() {
        let t = table(r#"[{"EventName": "X", "EventCode": "0x00", "UMask": "0x00", "BriefDescription": "a | b"}]"#);
        assert!(t.layout().to_markdown(&t, 1).contains("| a \\| b |"));
    }
}
