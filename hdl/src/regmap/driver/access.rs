//! The driver's access layer: the handle, `<prefix>_open`, and `<prefix>_reg_read` /
//! `<prefix>_reg_write`, which reach one register by its address in the register map.
//! Everything above this layer is the same C for every interface of a design.
//!
//! - Bus as wide as the registers: one volatile access at `base + offset`.
//! - 32-bit bus, 64-bit registers (the PMU's 32-bit layout): bits [31:0] at +0 and
//!   [63:32] at +4. A read reads +0, then +4: the slave latches the high half at the +0
//!   read, so a 32-bit CPU gets one consistent 64-bit value of a running counter. A
//!   write writes +4, then +0: the slave holds the high half and performs one 64-bit
//!   write at +0. A register whose fields all lie in bits [31:0] takes a single access
//!   at +0 (`_reg_read32` / `_reg_write32`), as a +0 write alone writes {0, data}.
//! - Bare register port: `<prefix>_port_read` / `<prefix>_port_write`, declared here and
//!   defined by the user.
use std::fmt::Write;

use super::{function, Reach, Target};

/// What the driver's first comment says about how it reaches the registers.
pub fn description<S>(target: &Target<S>) -> Vec<String> {
    let (p, title) = (target.prefix(), target.registers.title);
    let bytes = target.register_bits() / 8;
    let bank = match target.registers.layout.thread_stride {
        Some(stride) => format!("register a of thread t at base + 0x{stride:X}*t + {bytes}*a"),
        None => format!("register a at base + {bytes}*a"),
    };
    match target.reach {
        Reach::Port => vec![format!(
            "Access: through the bare register port. Define {p}_port_read and {p}_port_write (declared below): \
             each performs one access of the register port (reg_addr = addr{}) with the privilege your glue \
             drives, and a read returns reg_rdata. {p}_open(port{}) keeps `port` and passes it to them unchanged.",
            if target.banked() { ", reg_thread = thread" } else { "" },
            if target.banked() { ", thread" } else { "" },
        )],
        Reach::Bus { data_bits } if data_bits == target.register_bits() => vec![format!(
            "Access: memory-mapped, {bank}; one {data_bits}-bit access per register through PMUGEN_READ{data_bits} \
             and PMUGEN_WRITE{data_bits} (volatile accesses unless defined before this file is included). \
             {p}_open(base{}) makes a handle.",
            if target.banked() { ", thread" } else { "" },
        )],
        Reach::Bus { data_bits } => vec![
            format!(
                "Access: memory-mapped on a {data_bits}-bit bus, {bank}: bits [31:0] at +0, [63:32] at +4, through \
                 PMUGEN_READ32 and PMUGEN_WRITE32 (volatile accesses unless defined before this file is included). \
                 {p}_open(base{}) makes a handle.",
                if target.banked() { ", thread" } else { "" },
            ),
            "A 64-bit read reads +0, then +4: the +0 read latches the high half, so the value is consistent. A \
             64-bit write writes +4, then +0: the +0 write performs one 64-bit write. A register whose fields all \
             lie in bits [31:0] takes one access at +0 (a +0 write alone writes {0, data})."
                .to_string(),
            format!(
                "Another access of the same kind (read or write) to the {title} between the two halves breaks the \
                 pair: if an interrupt handler uses the {title} too, mask interrupts around the other code's \
                 accesses."
            ),
        ],
    }
}

/// The access macros of a bus driver, each defined only if the user has not.
pub fn hooks<S>(target: &Target<S>) -> String {
    let Reach::Bus { data_bits } = target.reach else { return String::new() };
    let mut c = super::block_comment(&[format!(
        "Bus accesses: define these before including the driver to use your platform's I/O functions or add \
         fences; by default each is one volatile {data_bits}-bit access. Every pmugen driver shares them."
    )]);
    let _ = writeln!(
        c,
        "#ifndef PMUGEN_READ{data_bits}\n#define PMUGEN_READ{data_bits}(address) \
         (*(volatile uint{data_bits}_t *)(address))\n#endif"
    );
    let _ = writeln!(
        c,
        "#ifndef PMUGEN_WRITE{data_bits}\n#define PMUGEN_WRITE{data_bits}(address, value) \
         (*(volatile uint{data_bits}_t *)(address) = (uint{data_bits}_t)(value))\n#endif\n"
    );
    c
}

/// The handle type, `_open`, and the register accesses `_reg_read` and `_reg_write`
/// (plus `_reg_read32` and `_reg_write32` for 64-bit registers).
pub fn layer<S>(target: &Target<S>) -> String {
    let (p, handle, this, value) = (target.prefix(), target.handle(), target.this(), target.value_type());
    let banked = target.banked();
    let mut c = String::new();
    let (base_type, base_name, base_doc) = match target.reach {
        Reach::Port => ("void *", "port", "passed to your port functions"),
        Reach::Bus { .. } => ("uintptr_t ", "base", "the base address of the register window"),
    };
    if target.reach == Reach::Port {
        let (thread_param, thread_text) = if banked { ("unsigned thread, ", " of bank `thread`") } else { ("", "") };
        c.push_str(&super::block_comment(&[format!(
            "Defined by you: one access of the register port to register `addr`{thread_text}; the read \
             returns reg_rdata."
        )]));
        let _ = writeln!(c, "{value} {p}_port_read(void *port, {thread_param}unsigned addr);");
        let _ = writeln!(c, "void {p}_port_write(void *port, {thread_param}unsigned addr, {value} value);\n");
    }
    let title = target.registers.title;
    let _ = writeln!(c, "/* A handle: all a function needs to reach the {title}. */\ntypedef struct {{");
    let _ = writeln!(c, "    {base_type}{base_name}; /* {base_doc} */");
    if banked {
        let _ =
            writeln!(c, "    unsigned thread; /* the bank: this thread's registers (shared ones are in every bank) */");
    }
    let _ = writeln!(c, "}} {handle};\n");
    let (params, fields) = if banked {
        (format!("{base_type}{base_name}, unsigned thread"), format!("{base_name}, thread"))
    } else {
        (format!("{base_type}{base_name}"), base_name.to_string())
    };
    let bank_text = if banked { " for thread `thread`'s bank" } else { "" };
    c.push_str(&function(
        &format!("A handle{bank_text}: {base_name} is {base_doc}."),
        &format!("{handle} {p}_open({params})"),
        &[format!("{handle} {this} = {{ {fields} }};"), format!("return {this};")],
    ));
    let reg = format!("const {handle} *{this}, unsigned addr");
    match target.reach {
        Reach::Port => {
            let thread = if banked { format!("{this}->thread, ") } else { String::new() };
            c.push_str(&function(
                "Register `addr` (its address in the register map): one register-port read.",
                &format!("{value} {p}_reg_read({reg})"),
                &[format!("return {p}_port_read({this}->port, {thread}addr);")],
            ));
            c.push_str(&function(
                "Write register `addr`: one register-port write.",
                &format!("void {p}_reg_write({reg}, {value} value)"),
                &[format!("{p}_port_write({this}->port, {thread}addr, value);")],
            ));
        }
        Reach::Bus { data_bits } => c.push_str(&bus_accesses(target, data_bits)),
    }
    if target.register_bits() == 64 {
        c.push_str(&low_half(target));
    }
    c
}

/// `_address`, `_reg_read` and `_reg_write` on a bus of `data_bits`.
fn bus_accesses<S>(target: &Target<S>, data_bits: usize) -> String {
    let (p, handle, this, value) = (target.prefix(), target.handle(), target.this(), target.value_type());
    let bytes = target.register_bits() / 8;
    let bank = match target.registers.layout.thread_stride {
        Some(stride) => format!(" + 0x{stride:X}u * (uintptr_t){this}->thread"),
        None => String::new(),
    };
    let reg = format!("const {handle} *{this}, unsigned addr");
    let mut c = function(
        "The byte address of register `addr` (its address in the register map) in the handle's bank.",
        &format!("uintptr_t {p}_address({reg})"),
        &[format!("return {this}->base{bank} + {bytes}u * (uintptr_t)addr;")],
    );
    if data_bits == target.register_bits() {
        c.push_str(&function(
            &format!("Register `addr`: one {data_bits}-bit read."),
            &format!("{value} {p}_reg_read({reg})"),
            &[format!("return PMUGEN_READ{data_bits}({p}_address({this}, addr));")],
        ));
        c.push_str(&function(
            &format!("Write register `addr`: one {data_bits}-bit write."),
            &format!("void {p}_reg_write({reg}, {value} value)"),
            &[format!("PMUGEN_WRITE{data_bits}({p}_address({this}, addr), value);")],
        ));
    } else {
        c.push_str(&function(
            "Register `addr`: +0, then +4 (the slave latched the high half at the +0 read: one consistent value).",
            &format!("{value} {p}_reg_read({reg})"),
            &[
                format!("uintptr_t at = {p}_address({this}, addr);"),
                "uint32_t low = PMUGEN_READ32(at);".to_string(),
                "uint32_t high = PMUGEN_READ32(at + 4u);".to_string(),
                "return ((uint64_t)high << 32) | low;".to_string(),
            ],
        ));
        c.push_str(&function(
            "Write register `addr`: +4 (held by the slave), then +0 (one 64-bit write of both halves).",
            &format!("void {p}_reg_write({reg}, {value} value)"),
            &[
                format!("uintptr_t at = {p}_address({this}, addr);"),
                "PMUGEN_WRITE32(at + 4u, (uint32_t)(value >> 32));".to_string(),
                "PMUGEN_WRITE32(at, (uint32_t)value);".to_string(),
            ],
        ));
    }
    c
}

/// `_reg_read32` and `_reg_write32`: bits [31:0] of a 64-bit register, for the
/// registers whose fields all lie there (one access on a 32-bit bus).
fn low_half<S>(target: &Target<S>) -> String {
    let (p, handle, this) = (target.prefix(), target.handle(), target.this());
    let reg = format!("const {handle} *{this}, unsigned addr");
    let (read, write) = match target.reach {
        Reach::Bus { data_bits: 32 } => (
            format!("return PMUGEN_READ32({p}_address({this}, addr));"),
            format!("PMUGEN_WRITE32({p}_address({this}, addr), value);"),
        ),
        _ => (format!("return (uint32_t){p}_reg_read({this}, addr);"), format!("{p}_reg_write({this}, addr, value);")),
    };
    let mut c = function(
        "Bits [31:0] of register `addr`, for a register whose fields all lie there: one access at +0 on a \
         32-bit bus, a whole-register read otherwise.",
        &format!("uint32_t {p}_reg_read32({reg})"),
        &[read],
    );
    c.push_str(&function(
        "Write {0, value} to register `addr`: one access at +0 on a 32-bit bus, a whole-register write otherwise.",
        &format!("void {p}_reg_write32({reg}, uint32_t value)"),
        &[write],
    ));
    c
}
