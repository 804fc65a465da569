//! Exports of a register table: the Markdown table of the docs (symbolic, for any
//! parameters, or for one configuration) and the C header `pmugen generate` writes
//! next to the Verilog.
//!
//! The bare register port takes word addresses; a bus wrapper (docs/bus.md) takes byte
//! addresses laid out by a [`BusLayout`], so the bus variants of the header and the
//! table are written from an [`Interface`]: the table together with the facts a
//! description needs beyond it (the bus, the configuration's ID values, what the
//! hardware does with each field). The SystemRDL and IP-XACT exporters take the same
//! [`Interface`], so every description of one top agrees on addresses, resets and
//! access rules.
use std::fmt::Write;

use super::interface::BUS_DOCS;
pub use super::interface::{Hardware, Interface};
use super::{Bank, Copies, Params, Register, Reset, Width};
use crate::bus::BusLayout;

/// How a design's table is presented.
#[derive(Clone, Copy, Debug)]
pub struct TableStyle {
    /// Register width in bits (32 or 64).
    pub data_bits: usize,
    /// The design checks privilege: show ring 0 / ring 3 and bank columns.
    pub privileged: bool,
    /// Names of the USER_ACCESS gate bits, bit 0 first (privileged designs).
    pub gate_names: &'static [&'static str],
}

fn address_text<S>(register: &Register<S>) -> String {
    match register.copies {
        Copies::One => format!("0x{:02X}", register.addr),
        Copies::Indexed { index, .. } => format!("0x{:02X}+{index}", register.addr),
    }
}

fn name_text<S>(register: &Register<S>) -> String {
    match register.copies {
        Copies::One => register.name.to_string(),
        Copies::Indexed { index, .. } => format!("{}[{index}]", register.name),
    }
}

fn bit_range(lsb: usize, width: Width, params: Option<Params>) -> String {
    match (width, params) {
        (Width::Bits(1), _) => format!("[{lsb}]"),
        (Width::Param(name), None) if lsb == 0 => format!("[{name}-1:0]"),
        (Width::Param(name), None) => format!("[{lsb}+{name}-1:{lsb}]"),
        (width, params) => {
            let bits = width.bits(params.unwrap_or(&|_| 0));
            if bits == 1 {
                format!("[{lsb}]")
            } else {
                format!("[{}:{lsb}]", lsb + bits - 1)
            }
        }
    }
}

fn fields_text<S>(register: &Register<S>, params: Option<Params>) -> String {
    let fields: Vec<String> =
        register.fields.iter().map(|f| format!("{} {}", bit_range(f.lsb, f.width, params), f.name)).collect();
    fields.join(", ")
}

fn reset_text(reset: Reset) -> String {
    match reset {
        Reset::Value(value) => format!("0x{value:X}"),
        Reset::Described(text) => text.to_string(),
        Reset::None => "–".to_string(),
    }
}

/// The rows of a register table, with the first column's heading and text given.
fn table_rows<S>(
    table: &[Register<S>],
    style: &TableStyle,
    params: Option<Params>,
    address_heading: &str,
    address: &dyn Fn(&Register<S>) -> String,
) -> String {
    let mut md = if style.privileged {
        format!(
            "| {address_heading} | name | ring 0 | ring 3 | bank | reset | fields | description |\n\
             |---|---|---|---|---|---|---|---|\n"
        )
    } else {
        format!("| {address_heading} | name | access | reset | fields | description |\n|---|---|---|---|---|---|\n")
    };
    for register in table {
        let (addr, name, fields) = (address(register), name_text(register), fields_text(register, params));
        let (access, reset, doc) = (register.access.short(), reset_text(register.reset), register.doc);
        if style.privileged {
            let bank = match register.bank {
                Bank::Shared => "shared",
                _ => "thread",
            };
            let user = register.user.short(style.gate_names);
            let _ = writeln!(md, "| {addr} | {name} | {access} | {user} | {bank} | {reset} | {fields} | {doc} |");
        } else {
            let _ = writeln!(md, "| {addr} | {name} | {access} | {reset} | {fields} | {doc} |");
        }
    }
    md
}

/// The register table as Markdown: symbolic widths and indices with `params` = None
/// (the docs), or the widths of one configuration.
pub fn markdown_table<S>(table: &[Register<S>], style: &TableStyle, params: Option<Params>) -> String {
    table_rows(table, style, params, "addr", &address_text)
}

/// Hex digits of a byte address in a window of `address_bits`.
fn address_digits(layout: &BusLayout) -> usize {
    layout.address_bits.div_ceil(4)
}

/// The register map of one configuration behind a bus, as Markdown: byte offsets
/// (in a thread's bank, for a design with banks) instead of word addresses.
pub fn bus_markdown<S>(interface: &Interface<S>) -> String {
    let top = interface.top_name();
    let digits = address_digits(&interface.layout);
    let bytes = interface.layout.bytes();
    let offset = |register: &Register<S>| match register.copies {
        Copies::One => format!("0x{:0digits$X}", interface.offset(register)),
        Copies::Indexed { index, .. } => format!("0x{:0digits$X}+{bytes}{index}", interface.offset(register)),
    };
    let heading = if interface.banked() { "offset in bank" } else { "offset" };
    let mut md = format!(
        "# Registers of {top}\n\n{} Generated by pmugen {} from {}.\n\n",
        interface.overview(),
        env!("CARGO_PKG_VERSION"),
        interface.source
    );
    md.push_str(&table_rows(interface.table, interface.style, Some(interface.params), heading, &offset));
    md
}

/// The start of a C header: what it describes, its origin, the include guard and the
/// `defines` (parameters and identification values).
fn c_header_start(describes: &str, source: &str, prefix: &str, defines: &[(String, u64)]) -> String {
    let guard = format!("{prefix}_REGS_H");
    let mut h = String::new();
    let _ = writeln!(h, "/* Register map of {describes}.");
    let _ = writeln!(h, " * Generated by pmugen {} from {source}; do not edit. */", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(h, "#ifndef {guard}\n#define {guard}\n");
    for (name, value) in defines {
        // Parameters and codes fit 32 bits; only 64-bit identification values need `ull`.
        if *value > u32::MAX as u64 {
            let _ = writeln!(h, "#define {prefix}_{name} 0x{value:016X}ull");
        } else {
            let _ = writeln!(h, "#define {prefix}_{name} 0x{value:08X}u");
        }
    }
    h.push('\n');
    h
}

/// A register's field shifts and masks, after its address line.
fn c_field_defines<S>(h: &mut String, name: &str, register: &Register<S>, style: &TableStyle, params: Params) {
    let suffix = if style.data_bits > 32 { "ull" } else { "u" };
    let hex_digits = style.data_bits / 4;
    for field in register.fields {
        let _ = writeln!(h, "#define {name}_{}_SHIFT {}u", field.name, field.lsb);
        let _ = writeln!(h, "#define {name}_{}_MASK 0x{:0hex_digits$X}{suffix}", field.name, field.mask(params));
    }
}

fn c_header_end(prefix: &str) -> String {
    format!("\n#endif /* {prefix}_REGS_H */\n")
}

/// A C header with every register's address and every field's shift and mask for
/// one configuration. `summary` names the parameters, `source` the register table's
/// file, `defines` are extra `(name, value)` constants (parameters, ID values).
pub fn c_header<S>(
    table: &[Register<S>],
    style: &TableStyle,
    top: &str,
    summary: &str,
    source: &str,
    defines: &[(String, u64)],
    params: Params,
) -> String {
    let prefix = top.to_uppercase();
    let mut h = c_header_start(&format!("{top} ({summary})"), source, &prefix, defines);
    for register in table {
        let name = format!("{prefix}_{}", register.name);
        match register.copies {
            Copies::One => {
                let _ = writeln!(h, "#define {name}_ADDR 0x{:02X}u /* {} */", register.addr, register.doc);
            }
            Copies::Indexed { index, count } => {
                let _ = writeln!(
                    h,
                    "#define {name}_ADDR({index}) (0x{:02X}u + ({index})) /* {}; {index} < {} */",
                    register.addr,
                    register.doc,
                    params(count)
                );
            }
        }
        c_field_defines(&mut h, &name, register, style, params);
    }
    h.push_str(&c_header_end(&prefix));
    h
}

/// The C header of a bus-wrapped top: every register's byte address on the bus (a
/// macro of the thread `t` for a design with thread banks) and every field's shift and
/// mask. `defines` are the design's constants; the window's address bits and the bank
/// stride follow them.
pub fn bus_c_header<S>(interface: &Interface<S>, defines: &[(String, u64)]) -> String {
    let (layout, params) = (&interface.layout, interface.params);
    let top = interface.top_name();
    let prefix = top.to_uppercase();
    let mut all_defines = defines.to_vec();
    all_defines.push(("BUS_ADDRESS_BITS".to_string(), layout.address_bits as u64));
    if interface.banked() {
        all_defines.push(("THREAD_STRIDE".to_string(), interface.bank_stride() as u64));
    }
    let describes = format!("{top} ({}), {} byte addresses ({BUS_DOCS})", interface.summary, interface.bus.title());
    let mut h = c_header_start(&describes, interface.source, &prefix, &all_defines);
    let digits = address_digits(layout);
    let bytes = layout.bytes();
    let (stride, threads) = (interface.bank_stride(), interface.banks());
    for register in interface.table {
        let name = format!("{prefix}_{}", register.name);
        let offset = interface.offset(register);
        let shared = if register.bank == Bank::Shared { "; shared by every bank" } else { "" };
        let doc = register.doc;
        let line = match (interface.banked(), register.copies) {
            (false, Copies::One) => format!("#define {name}_ADDR 0x{offset:0digits$X}u /* {doc} */"),
            (false, Copies::Indexed { index, count }) => format!(
                "#define {name}_ADDR({index}) (0x{offset:0digits$X}u + {bytes}u*({index})) /* {doc}; {index} < {} */",
                params(count)
            ),
            (true, Copies::One) => format!(
                "#define {name}_ADDR(t) (0x{offset:0digits$X}u + 0x{stride:X}u*(t)) /* {doc}; t < {threads}{shared} */"
            ),
            (true, Copies::Indexed { index, count }) => format!(
                "#define {name}_ADDR(t, {index}) (0x{offset:0digits$X}u + 0x{stride:X}u*(t) + {bytes}u*({index})) \
                 /* {doc}; t < {threads}, {index} < {}{shared} */",
                params(count)
            ),
        };
        let _ = writeln!(h, "{line}");
        c_field_defines(&mut h, &name, register, interface.style, params);
    }
    h.push_str(&c_header_end(&prefix));
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::Bus;
    use crate::monitor::regmap as monitor;
    use crate::monitor::regmap_export::with_interface as monitor_interface;
    use crate::pmu::params::PmuParams;
    use crate::pmu::regmap as pmu;
    use crate::pmu::regmap_export::with_interface as pmu_interface;

    #[test]
    fn constant_resets_split_per_field() {
        monitor_interface("event_order_monitor_n8_w3", 8, 3, Bus::Bare, |interface| {
            let ctrl = &monitor::CTRL;
            let Reset::Value(value) = ctrl.reset else { panic!("CTRL has a constant reset") };
            let rebuilt =
                ctrl.fields.iter().fold(0, |word, field| word | interface.reset(ctrl, field).unwrap() << field.lsb);
            assert_eq!(rebuilt, value);
            let id = &monitor::ID;
            let rebuilt =
                id.fields.iter().fold(0, |word, field| word | interface.reset(id, field).unwrap() << field.lsb);
            assert_eq!(rebuilt, monitor::id_value(8, 3) as u64);
        });
    }

    #[test]
    fn banks_exist_only_on_a_bus() {
        let params = PmuParams::with_default_table(4, 2, 40);
        for bus in Bus::ALL {
            pmu_interface(&params, bus, |interface| {
                assert_eq!(interface.banked(), bus != Bus::Bare);
                assert_eq!(interface.banks(), if bus == Bus::Bare { 1 } else { params.threads });
                let overview = interface.overview();
                assert!(overview.contains(bus.title()) || bus == Bus::Bare, "{overview}");
                assert!(overview.contains("docs/pmu.md"));
            });
        }
        monitor_interface("event_order_monitor_n8_w3", 8, 3, Bus::Axi4Lite, |interface| {
            assert!(!interface.banked());
            assert_eq!(interface.bank_bytes(), 1 << interface.layout.address_bits);
        });
    }

    #[test]
    fn notes_say_what_the_table_implies() {
        let params = PmuParams::with_default_table(2, 2, 40);
        pmu_interface(&params, Bus::Wishbone, |interface| {
            assert!(interface.register_description(&pmu::SPFLT).contains("a read is denied (ERR)"));
            assert!(interface.register_description(&pmu::PERF_GLOBAL_OVF_CTRL).contains("a read returns 0"));
            assert!(interface.register_description(&pmu::TSC).contains("the same in every thread's bank"));
            assert!(interface.register_description(&pmu::PMU_ID).contains("Ring 3: every access is denied."));
        });
        monitor_interface("event_order_monitor_n8_w3", 8, 3, Bus::Bare, |interface| {
            assert!(interface.register_description(&monitor::STATUS).contains("writes are ignored"));
            assert!(!interface.register_description(&monitor::STATUS).contains("Ring 3"));
        });
    }
}
