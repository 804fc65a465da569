//! What both bus slaves share: the wrapped design's instance, its pass-through ports,
//! and the step from one taken bus access to one register-port cycle (docs/bus.md §2).
//!
//! Latency: none. The access is decoded combinationally in the cycle the slave takes
//! it and reaches the design's register port in that same cycle; the design answers
//! (`reg_rdata`, `reg_fault`) after that cycle's edge, when the slave responds.
//!
//! An access the design never sees is refused here: a byte offset that is not 0, a
//! write whose strobes are not all ones, and, for a design without its own access
//! check (the monitor), an address not in its register table or a write to a
//! register that cannot be written. A design with its own check (the PMU) gets the
//! privilege from the bus and reports denials on `reg_fault`.
//!
//! On a bus narrower than the registers (the PMU behind a 32-bit slave) each register
//! is two bus words, and the holding words of `halves.rs` sit between the bus access
//! and the register port, for both buses alike.
use std::fmt::Write;
use std::ops::Range;

use super::{halves, BusLayout};

/// A port of a module: (name, input?, width).
pub type Port = (String, bool, usize);

/// Who decides whether an access is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessCheck {
    /// The design checks every access itself and answers `reg_fault` (the PMU); the
    /// privilege comes from AxPROT[0] or `wb_priv`, the thread from the address.
    ByDesign,
    /// The slave checks against the register table (the monitor, which has no
    /// privilege): word addresses that may be read, and that may be written.
    ByTable {
        /// Readable word addresses.
        readable: Vec<Range<u32>>,
        /// Writable word addresses.
        writable: Vec<Range<u32>>,
    },
}

/// The design a bus slave wraps.
#[derive(Clone, Debug)]
pub struct WrappedDesign {
    /// The wrapped top's module name (`<top>_axil`, `<top>_wb`).
    pub top: String,
    /// The design's module name inside the same file (`<top>_axil__core`).
    pub core: String,
    /// The design's ports as declared, `clock` and `reset` included.
    pub ports: Vec<Port>,
    /// Byte-address layout and data width.
    pub layout: BusLayout,
    /// Who checks access.
    pub check: AccessCheck,
}

impl WrappedDesign {
    /// A wrapped design; refused when the design lacks a register-port signal the
    /// check needs or its data width differs from the layout's.
    pub fn new(top: &str, core: &str, ports: Vec<Port>, layout: BusLayout, check: AccessCheck) -> Result<Self, String> {
        let mut needed = vec!["clock", "reset", "reg_addr", "reg_wdata", "reg_write", "reg_rdata"];
        if check == AccessCheck::ByDesign {
            needed.extend(["reg_thread", "reg_priv", "reg_read", "reg_fault"]);
        }
        for name in needed {
            if !ports.iter().any(|p| p.0 == name) {
                return Err(format!("{core} has no port {name}, which the {top} bus slave drives"));
            }
        }
        if layout.splits_registers() && check != AccessCheck::ByDesign {
            return Err(format!("{core}: a bus narrower than the registers needs a design that checks access itself"));
        }
        let width = |name: &str| ports.iter().find(|p| p.0 == name).map_or(0, |p| p.2);
        // The thread is the address above the bank's 256 registers (docs/bus.md §1).
        let thread_bits = layout.address_bits - 8 - layout.register_shift();
        if check == AccessCheck::ByDesign && width("reg_thread") != thread_bits {
            return Err(format!(
                "{core} has a {}-bit reg_thread; the bus layout has {thread_bits}",
                width("reg_thread")
            ));
        }
        let data = width("reg_rdata");
        if data != layout.data_bits {
            return Err(format!("{core} has {data}-bit reg_rdata; the bus layout has {} bits", layout.data_bits));
        }
        Ok(Self { top: top.to_string(), core: core.to_string(), ports, layout, check })
    }

    /// The design's ports the wrapped top keeps as they are (all but `reg_*`).
    pub fn passthrough(&self) -> impl Iterator<Item = &Port> {
        self.ports.iter().filter(|p| !p.0.starts_with("reg_"))
    }

    /// `module <top>(...);` and every port's declaration, `bus` after the design's own.
    pub fn module_header(&self, bus: &[Port]) -> String {
        let names: Vec<&str> = self.passthrough().chain(bus).map(|p| p.0.as_str()).collect();
        let mut v = format!("module {}({});\n", self.top, names.join(","));
        for (name, input, width) in self.passthrough().chain(bus) {
            let kind = if *input { "input wire" } else { "output wire" };
            let range = if *width > 1 { format!("[{}:0] ", width - 1) } else { String::new() };
            let _ = writeln!(v, "    {kind}  {range}{name};");
        }
        v
    }

    /// The wire that holds a read's answer, bus-wide, in the cycle after the access
    /// was taken: the design's `reg_rdata`, or on a narrow bus its half or the read
    /// holding word (0 when the design denied the read).
    pub fn read_answer(&self) -> &'static str {
        if self.layout.splits_registers() {
            halves::ANSWER
        } else {
            "design_rdata"
        }
    }

    /// Decode of the access in the slave's wires `take_write`, `take_read`,
    /// `access_address`, `access_wdata`, `access_strobes`, `access_privileged` into
    /// the design's register port, the design's instance, `refused` (1 when the slave
    /// refuses the access it takes this cycle), `design_fault` (the design's denial
    /// of the previous cycle's access, after the edge) and the read answer
    /// ([`WrappedDesign::read_answer`]). A slave takes no access in the cycle after
    /// one it took (its response cycle), which the holding words rely on.
    pub fn access_logic(&self) -> String {
        let layout = &self.layout;
        let (offset, shift) = (layout.offset_bits(), layout.register_shift());
        let strobes = layout.bus_bits / 8;
        let mut v = String::new();
        let _ = writeln!(v, "    // One taken access is one register-port cycle (docs/bus.md §2).");
        let _ = writeln!(v, "    wire aligned = access_address[{}:0] == {offset}'d0;", offset - 1);
        let _ = writeln!(v, "    wire [7:0] access_register = access_address[{}:{shift}];", shift + 7);
        let _ = writeln!(v, "    wire full_strobes = access_strobes == {strobes}'h{:x};", (1u32 << strobes) - 1);
        let allowed = match &self.check {
            AccessCheck::ByDesign => "1'b1".to_string(),
            AccessCheck::ByTable { readable, writable } => {
                let _ = writeln!(v, "    // The register table, for a design that does not check access itself.");
                let _ = writeln!(v, "    wire readable = {};", ranges_test("access_register", readable));
                let _ = writeln!(v, "    wire writable = {};", ranges_test("access_register", writable));
                "(take_write ? writable : readable)".to_string()
            }
        };
        let _ = writeln!(v, "    wire write_complete = !take_write || full_strobes;");
        let _ = writeln!(v, "    wire accepted = aligned && write_complete && {allowed};");
        let _ = writeln!(v, "    wire refused = (take_write || take_read) && !accepted;");
        let _ = writeln!(v, "    wire [{}:0] design_rdata;", layout.data_bits - 1);
        // A held +4 write on a narrow bus makes no register-port cycle.
        let (wdata, write) = if layout.splits_registers() {
            (halves::PORT_WDATA, format!("take_write && accepted && !{}", halves::HIGH_WORD))
        } else {
            ("access_wdata", "take_write && accepted".to_string())
        };
        let mut connections = vec![
            ".reg_addr(access_register)".to_string(),
            format!(".reg_wdata({wdata})"),
            format!(".reg_write({write})"),
            ".reg_rdata(design_rdata)".to_string(),
        ];
        match self.check {
            AccessCheck::ByDesign => {
                let (high, low) = (layout.address_bits - 1, shift + 8);
                let _ = writeln!(v, "    wire design_fault;");
                connections.extend([
                    format!(".reg_thread(access_address[{high}:{low}])"),
                    ".reg_priv(access_privileged)".to_string(),
                    ".reg_read(take_read && accepted)".to_string(),
                    ".reg_fault(design_fault)".to_string(),
                ]);
            }
            AccessCheck::ByTable { .. } => {
                let _ = writeln!(v, "    wire design_fault = 1'b0;");
            }
        }
        if layout.splits_registers() {
            v.push_str(&halves::verilog(layout));
        }
        connections.extend(self.passthrough().map(|(name, _, _)| format!(".{name}({name})")));
        let _ = writeln!(v, "    {} core(\n        {}\n    );", self.core, connections.join(",\n        "));
        v
    }
}

/// A Verilog expression that is 1 when `signal` (8 bits) is in one of `ranges`
/// (adjacent ranges merged: one comparison per run of registers).
fn ranges_test(signal: &str, ranges: &[Range<u32>]) -> String {
    let mut sorted: Vec<Range<u32>> = ranges.iter().filter(|r| !r.is_empty()).cloned().collect();
    sorted.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<u32>> = Vec::new();
    for range in sorted {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    let tests: Vec<String> = merged
        .iter()
        .map(|r| match (r.start, r.end - 1) {
            (first, last) if first == last => format!("({signal} == 8'h{first:02x})"),
            (0, last) => format!("({signal} <= 8'h{last:02x})"),
            (first, 0xFF) => format!("({signal} >= 8'h{first:02x})"),
            (first, last) => format!("({signal} >= 8'h{first:02x} && {signal} <= 8'h{last:02x})"),
        })
        .collect();
    if tests.is_empty() {
        "1'b0".to_string()
    } else {
        tests.join(" || ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_become_comparisons_without_constant_results() {
        let text = ranges_test("r", &[0x10..0x18, 0x20..0x21, 0xF0..0x100, 5..5]);
        assert_eq!(text, "(r >= 8'h10 && r <= 8'h17) || (r == 8'h20) || (r >= 8'hf0)");
        // Adjacent and overlapping ranges become one comparison.
        assert_eq!(ranges_test("r", &[0..1, 1..2, 2..6, 4..5]), "(r <= 8'h05)");
        assert_eq!(ranges_test("r", &[]), "1'b0");
    }

    #[test]
    fn a_design_without_the_needed_ports_is_refused() {
        let ports = vec![("clock".to_string(), true, 1), ("reset".to_string(), true, 1)];
        let error =
            WrappedDesign::new("t_axil", "t_axil__core", ports, BusLayout::MONITOR, AccessCheck::ByDesign).unwrap_err();
        assert!(error.contains("reg_addr"), "{error}");
    }
}
