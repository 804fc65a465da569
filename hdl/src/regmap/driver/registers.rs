//! The driver's register layer, one part per row of the table: the configuration
//! constants (the identification register's constant fields), a constant per field
//! of the control registers, one read and one write function per register (indexed
//! registers take the index and check it), and `_id` / `_probe`.
use std::fmt::Write;

use super::{block_comment, function, Target};
use crate::regmap::{Access, Copies, Register, UserAccess, Width};

/// The constant fields of the identification register as `<PREFIX>_CFG_<FIELD>`.
pub fn configuration<S>(target: &Target<S>) -> String {
    let (upper, id) = (target.upper(), target.identity);
    let mut c = block_comment(&[format!(
        "The configuration this driver was generated for: the constant fields of {} ({}_probe checks them).",
        id.name,
        target.prefix()
    )]);
    c.push_str("enum {\n");
    for field in id.fields {
        if let Some(value) = target.registers.reset(id, field) {
            // Parameters read best in decimal, magic numbers in hex.
            let value = if value > 0xFF { format!("0x{value:X}") } else { value.to_string() };
            let _ = writeln!(c, "    {upper}_CFG_{} = {value}, /* {} */", field.name, super::comment_text(field.doc));
        }
    }
    c.push_str("};\n\n");
    c
}

/// Whether a register's fields get constants: several fields, or one flag.
fn has_field_constants<S>(register: &Register<S>) -> bool {
    register.fields.len() > 1 || matches!(register.fields, [field] if field.width == Width::Bits(1))
}

/// `<PREFIX>_<REG>_<FIELD>`: a one-bit field's mask, or a macro placing a value in a
/// wider field, for every register with several fields or one flag (not the
/// identification register: `_id` decodes it).
pub fn field_constants<S>(target: &Target<S>) -> String {
    let (params, bits, value_type) = (target.registers.params, target.register_bits(), target.value_type());
    let mut c = String::new();
    for register in target.registers.registers() {
        if register.name == target.identity.name || !has_field_constants(register) {
            continue;
        }
        let _ = writeln!(c, "/* {} fields */", register.name);
        for field in register.fields {
            let (name, mask, doc) = (target.constant(register, field), field.mask(params), field.doc);
            let doc = super::comment_text(doc);
            // A field whose width is a parameter stays a macro even when it is one bit
            // wide (SPFLT_CTRL with K = 1): the API is the same for every configuration.
            if field.width == Width::Bits(1) {
                let _ = writeln!(c, "#define {name} {} /* {doc} */", super::literal(mask, bits));
            } else {
                let _ = writeln!(
                    c,
                    "#define {name}(n) ((({value_type})(n) << {}) & {}) /* {doc} */",
                    field.lsb,
                    super::literal(mask, bits)
                );
            }
        }
        c.push('\n');
    }
    c
}

/// The bit range of a field in this configuration: `[7:0]` or `[20]`.
fn bits_text(lsb: usize, width: usize) -> String {
    if width == 1 {
        format!("[{lsb}]")
    } else {
        format!("[{}:{lsb}]", lsb + width - 1)
    }
}

/// Whether a register gets a read function: not when a read is refused or returns 0.
fn readable<S>(register: &Register<S>) -> bool {
    matches!(register.access, Access::ReadOnly | Access::ReadWrite)
}

/// What a register's comment says: name, address, what it is, its fields, who may access it.
fn register_comment<S>(target: &Target<S>, register: &Register<S>) -> String {
    let params = target.registers.params;
    let mut text = match register.copies {
        Copies::One | Copies::OneIf { .. } => format!("{} (0x{:02X}): {}.", register.name, register.addr, register.doc),
        Copies::Indexed { count, index } => {
            let out_of_range = match (readable(register), register.access.writes()) {
                (true, true) => "reads 0 and writes nothing",
                (true, false) => "reads 0",
                _ => "writes nothing",
            };
            format!(
                "{}[{index}] (0x{:02X} + {index}, {index} < {}): {}; an {index} out of range {out_of_range}.",
                register.name,
                register.addr,
                params(count),
                register.doc
            )
        }
    };
    for field in register.fields {
        let _ = write!(text, " {} {}: {}.", bits_text(field.lsb, field.width.bits(params)), field.name, field.doc);
    }
    if register.access == Access::WriteReadsZero {
        text.push_str(" Reads 0, so there is no read function.");
    }
    if target.registers.style.privileged {
        match register.user {
            UserAccess::Denied => text.push_str(" Ring 0 only."),
            _ => {
                let _ = write!(text, " Ring 3 may {} too.", target.registers.ring3(register));
            }
        }
    }
    block_comment(&[text])
}

/// One read function (readable registers) and one write function (writable ones) per
/// register; values are masked to the register's fields.
pub fn accessors<S>(target: &Target<S>) -> String {
    let (p, handle, this, value) = (target.prefix(), target.handle(), target.this(), target.value_type());
    let (params, bits) = (target.registers.params, target.register_bits());
    let mut c = String::new();
    for register in target.registers.registers() {
        let mask = register.mask(params);
        // A register whose fields fit in [31:0] takes one 32-bit access on a 32-bit bus.
        let narrow = bits == 64 && mask <= u32::MAX as u64;
        let suffix = if narrow { "32" } else { "" };
        let full = mask == crate::dyn_signal::low_mask(bits);
        let (index_param, address, guard) = match register.copies {
            Copies::One | Copies::OneIf { .. } => (String::new(), format!("0x{:02X}u", register.addr), None),
            Copies::Indexed { count, index } => (
                format!(", unsigned {index}"),
                format!("0x{:02X}u + {index}", register.addr),
                Some(format!("if ({index} >= {}u)", params(count))),
            ),
        };
        c.push_str(&register_comment(target, register));
        if readable(register) {
            let read = format!("{p}_reg_read{suffix}({this}, {address})");
            let mut body: Vec<String> = guard.iter().map(|g| format!("{g} return 0;")).collect();
            body.push(if full {
                format!("return {read};")
            } else {
                format!("return {read} & {};", target.literal(mask))
            });
            let signature =
                format!("{value} {}(const {handle} *{this}{index_param})", target.function(register, "read"));
            c.push_str(&function("", &signature, &body));
        }
        if register.access.writes() {
            let masked = if full { "value".to_string() } else { format!("value & {}", target.literal(mask)) };
            let masked = if narrow { format!("(uint32_t)({masked})") } else { masked };
            let mut body: Vec<String> = guard.iter().map(|g| format!("{g} return;")).collect();
            body.push(format!("{p}_reg_write{suffix}({this}, {address}, {masked});"));
            let signature = format!(
                "void {}(const {handle} *{this}{index_param}, {value} value)",
                target.function(register, "write")
            );
            c.push_str(&function("", &signature, &body));
        }
    }
    c
}

/// `<prefix>_id_t`, `<prefix>_id` (the identification register decoded) and
/// `<prefix>_probe` (its constant fields are this driver's configuration).
pub fn identification<S>(target: &Target<S>) -> String {
    let (p, handle, this, id) = (target.prefix(), target.handle(), target.this(), target.identity);
    let params = target.registers.params;
    let read = format!("{}({this})", target.function(id, "read"));
    let mut c = format!("/* {} decoded. */\ntypedef struct {{\n", id.name);
    for field in id.fields {
        let _ = writeln!(c, "    uint32_t {}; /* {} */", field.name.to_lowercase(), super::comment_text(field.doc));
    }
    let _ = writeln!(c, "}} {p}_id_t;\n");
    let mut body = vec![format!("{} word = {read};", target.value_type()), format!("{p}_id_t id;")];
    for field in id.fields {
        let width_mask = target.literal(crate::dyn_signal::low_mask(field.width.bits(params)));
        let shifted = if field.lsb == 0 { "word".to_string() } else { format!("(word >> {})", field.lsb) };
        body.push(format!("id.{} = (uint32_t)({shifted} & {width_mask});", field.name.to_lowercase()));
    }
    body.push("return id;".to_string());
    c.push_str(&function(
        &format!("Read and decode {}.", id.name),
        &format!("{p}_id_t {p}_id(const {handle} *{this})"),
        &body,
    ));
    let (mut mask, mut expected, mut names) = (0u64, 0u64, Vec::new());
    for field in id.fields {
        if let Some(value) = target.registers.reset(id, field) {
            mask |= field.mask(params);
            expected |= value << field.lsb;
            names.push(field.name);
        }
    }
    c.push_str(&function(
        &format!(
            "Whether the {} at this handle is the configuration of this driver: {}'s {} match. Call it once, \
             before anything else: a wrong base address or a driver of another configuration fails it.",
            target.registers.title,
            id.name,
            names.join(", ")
        ),
        &format!("bool {p}_probe(const {handle} *{this})"),
        &[format!("return ({read} & {}) == {};", target.literal(mask), target.literal(expected))],
    ));
    c
}
