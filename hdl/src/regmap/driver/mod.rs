//! The C driver `<top>_driver.h` of one generated top, written from its register
//! table: a header-only C99 driver (freestanding, no allocation, no state outside the
//! handle the caller holds) whose every address, field position and mask comes from
//! the table.
//!
//! The driver has three layers. [`access`] reaches one register: through a volatile
//! pointer at `base + offset` on a bus (a 64-bit register split into two 32-bit
//! accesses on a 32-bit bus), or through two functions the user provides on the bare
//! register port. [`registers`] gives one read and one write function per register,
//! named after it, the field constants, and the identification check. The design's
//! own module (`pmu::driver`, `monitor::driver`) adds the few functions that combine
//! registers (program a counter, start, stop, acknowledge an overflow).
//!
//! Every C name starts with the top's name (`pmu_knc_t4_k2_c40_axil_...` for functions
//! and types, `PMU_KNC_T4_K2_C40_AXIL_...` for constants), so the drivers of several
//! tops, and their `<top>_regs.h`, can be included in one file: the driver's constants
//! never take a name the register header defines.
pub mod access;
pub mod registers;

use std::fmt::Write;

use super::interface::Interface;
use super::Register;

/// How a driver reaches the registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The bare register port: every access calls `<prefix>_port_read` or
    /// `<prefix>_port_write`, which the user defines (the glue to `reg_*`).
    Port,
    /// Memory-mapped behind a bus slave with `data_bits` (32 or 64) of data: register
    /// `a` of bank `t` at byte `t * stride + a * register bytes` from the base.
    Bus {
        /// The bus's data width: 32 or 64, at most the register width.
        data_bits: usize,
    },
}

/// What a driver is written from: the registers, the top it drives and how.
pub struct Target<'a, S: 'static> {
    /// The registers as the design describes them: the table, its register width
    /// (`style.data_bits`), the configuration, the bank stride (`layout`), the
    /// identification value, the design's name (`library`) and docs.
    pub registers: &'a Interface<'a, S>,
    /// The identification register, decoded by `<prefix>_id` and checked by `<prefix>_probe`.
    pub identity: &'a Register<S>,
    /// The generated top the driver is for (bare or wrapped): it names the file and
    /// prefixes every C name.
    pub top: &'a str,
    /// How the driver reaches the registers.
    pub reach: Reach,
    /// The lines the file's first comment starts with: what the file is, where it
    /// comes from, the command that regenerates it.
    pub comment: &'a [String],
}

impl<S> Target<'_, S> {
    /// Panics on a combination no interface has: a bus narrower than 32 bits or
    /// wider than the registers, or a register width other than 32 or 64.
    pub fn check(&self) {
        let register_bits = self.register_bits();
        assert!(matches!(register_bits, 32 | 64), "{register_bits}-bit registers: no C driver");
        if let Reach::Bus { data_bits } = self.reach {
            assert!(
                matches!(data_bits, 32 | 64) && data_bits <= register_bits,
                "a {data_bits}-bit bus to {register_bits}-bit registers: no C driver"
            );
        }
    }
    /// The width of every register: 32 (monitor) or 64 (PMU).
    pub fn register_bits(&self) -> usize {
        self.registers.style.data_bits
    }
    /// Whether the design has one register bank per thread (the handle holds the thread).
    pub fn banked(&self) -> bool {
        self.registers.layout.thread_stride.is_some()
    }
    /// The prefix of functions and types: the top's name in lower case.
    pub fn prefix(&self) -> String {
        self.top.to_lowercase()
    }
    /// The prefix of constants: the top's name in upper case.
    pub fn upper(&self) -> String {
        self.top.to_uppercase()
    }
    /// The handle type, `<prefix>_t`.
    pub fn handle(&self) -> String {
        format!("{}_t", self.prefix())
    }
    /// The handle parameter's name in every function: the design's short name.
    pub fn this(&self) -> &str {
        self.registers.library
    }
    /// The C type of a register value: `uint32_t` or `uint64_t`.
    pub fn value_type(&self) -> &'static str {
        c_type(self.register_bits())
    }
    /// A constant of the register width in C: `0x...u` or `0x...ull`.
    pub fn literal(&self, value: u64) -> String {
        literal(value, self.register_bits())
    }
    /// The name of a register's read or write function (`verb`): `<prefix>_<reg>_<verb>`.
    pub fn function(&self, register: &Register<S>, verb: &str) -> String {
        format!("{}_{}_{verb}", self.prefix(), register.name.to_lowercase())
    }
    /// The name of a field's constant (or macro): `<PREFIX>_<REG>_<FIELD>`.
    pub fn constant(&self, register: &Register<S>, field: &super::Field) -> String {
        format!("{}_{}_{}", self.upper(), register.name, field.name)
    }
}

/// `uint32_t` or `uint64_t`.
pub fn c_type(bits: usize) -> &'static str {
    if bits > 32 {
        "uint64_t"
    } else {
        "uint32_t"
    }
}

/// `value` as a C constant of a `bits`-wide type: `0x1Fu` or `0x1Full`.
pub fn literal(value: u64, bits: usize) -> String {
    if bits > 32 {
        format!("0x{value:X}ull")
    } else {
        format!("0x{value:X}u")
    }
}

/// Text for inside a C comment: no `*/` can end it early.
pub fn comment_text(text: &str) -> String {
    text.replace("*/", "* /")
}

/// A C block comment of `lines`, each wrapped to fit 100 columns (the continuation of
/// an indented line indented two more); one line when it fits.
pub fn block_comment(lines: &[String]) -> String {
    let mut wrapped = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        let mut current = " ".repeat(indent);
        for word in comment_text(line).split_whitespace() {
            if !current.trim().is_empty() && current.len() + word.len() + 4 > 100 {
                // Prose runs on flush; a list item's continuation is indented under it.
                let hanging = if indent > 0 { indent + 2 } else { 0 };
                wrapped.push(std::mem::replace(&mut current, " ".repeat(hanging)));
            }
            if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        wrapped.push(current);
    }
    if let [only] = wrapped.as_slice() {
        if only.len() + 6 <= 100 {
            return format!("/* {only} */\n");
        }
    }
    let mut c = String::new();
    for (i, line) in wrapped.iter().enumerate() {
        let lead = if i == 0 { "/*" } else { " *" };
        let _ = writeln!(c, "{}", format!("{lead} {line}").trim_end());
    }
    c.push_str(" */\n");
    c
}

/// A C function: `doc` as its comment (none if empty), then `static inline
/// <signature>` and `body`, one statement a line.
pub fn function(doc: &str, signature: &str, body: &[String]) -> String {
    let mut c = if doc.is_empty() { String::new() } else { block_comment(&[doc.to_string()]) };
    let _ = writeln!(c, "static inline {signature}\n{{");
    for line in body {
        let _ = writeln!(c, "    {line}");
    }
    c.push_str("}\n\n");
    c
}

/// The driver's text around the design's `body`: the opening comment (the target's
/// lines, then `api`, a summary of the functions), the include guard and includes,
/// the access layer and the register functions, then `body`.
pub fn header<S>(target: &Target<S>, api: &[String], constants: &str, body: &str) -> String {
    target.check();
    let guard = format!("{}_DRIVER_H", target.upper());
    let mut lines = target.comment.to_vec();
    lines.push(String::new());
    lines.extend(access::description(target));
    lines.push(String::new());
    lines.extend(api.iter().cloned());
    let mut h = block_comment(&lines);
    let _ = writeln!(h, "#ifndef {guard}\n#define {guard}\n\n#include <stdbool.h>\n#include <stdint.h>\n");
    h.push_str(&access::hooks(target));
    h.push_str(&registers::configuration(target));
    h.push_str(constants);
    h.push_str(&registers::field_constants(target));
    h.push_str(&access::layer(target));
    h.push_str(&registers::accessors(target));
    h.push_str(&registers::identification(target));
    h.push_str(body);
    let _ = writeln!(h, "#endif /* {guard} */");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_wrap_and_cannot_close_early() {
        let text = block_comment(&["a */ b".to_string(), "word ".repeat(40), "  indented ".repeat(20)]);
        assert!(text.starts_with("/* a * / b\n * word"), "{text}");
        assert!(text.contains("\n *   indented") && text.contains("\n *     indented"), "{text}");
        assert_eq!(block_comment(&["short".to_string()]), "/* short */\n");
        assert!(text.lines().all(|line| line.len() <= 100), "{text}");
        assert_eq!(text.matches("*/").count(), 1);
    }

    #[test]
    fn literals_follow_the_register_width() {
        assert_eq!(literal(0x1F, 32), "0x1Fu");
        assert_eq!(literal(1 << 63, 64), "0x8000000000000000ull");
        assert_eq!(c_type(40), "uint64_t");
    }
}
