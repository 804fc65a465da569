//! The register map of the event-order monitor (docs/monitor.md §5): the one table that the
//! register port's decoder and read mux, the Markdown register table and the C header
//! are generated from.
//!
//! Addresses are 8-bit word addresses. Per-event registers (`ORDER[e]`, `BEFORE[m]`)
//! occupy `base + e` for `e < N`. The monitor has no privilege: every register is in
//! one bank, and unlisted addresses read 0 and ignore writes.
use crate::regmap::{export::TableStyle, Bank, UserAccess};
pub use crate::regmap::{field, Access, Copies, Field, Register as GenericRegister, Reset, Width};

/// A monitor register.
pub type Register = GenericRegister<Source>;

/// The monitor's parameters by name: `"N"` events, `"W"` order bits.
pub fn params(events: usize, order_width: usize) -> impl Fn(&str) -> usize {
    move |name| match name {
        "N" => events,
        "W" => order_width,
        other => panic!("the monitor has no parameter {other}"),
    }
}

/// How the monitor's table is presented: 32-bit registers, no privilege.
pub const STYLE: TableStyle = TableStyle { data_bits: 32, privileged: false, gate_names: &[] };

/// Per-event copies: `base + e`, `e < N`.
const PER_EVENT: Copies = Copies::Indexed { count: "N", index: "e" };

// One argument per column of the register table.
#[allow(clippy::too_many_arguments)]
const fn register(
    name: &'static str,
    addr: u8,
    copies: Copies,
    access: Access,
    reset: Reset,
    source: Source,
    fields: &'static [Field],
    doc: &'static str,
) -> Register {
    Register { name, addr, copies, access, user: UserAccess::Denied, bank: Bank::Single, reset, source, fields, doc }
}

/// Where a register's read value comes from; the register port's read mux is
/// generated from this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The constant [`id_value`].
    Identity,
    /// The CTRL flip-flops in the register port.
    Control,
    /// Write-only strobes: reads 0.
    Command,
    /// One port input per field, named like the field in lower case.
    Flags,
    /// The match counter.
    Counter,
    /// The event register.
    EventRegister,
    /// Order register e.
    OrderRegister,
    /// Context record row m (bit m reads 0).
    RecordRow,
}

/// `ID` magic in bits [31:16]: "OM" for event-order monitor.
pub const ID_MAGIC: u32 = 0x4F4D;

pub const ID: Register = register(
    "ID",
    0x00,
    Copies::One,
    Access::ReadOnly,
    Reset::Described("N, W, 0x4F4D"),
    Source::Identity,
    &[
        field("N", 0, Width::Bits(8), "number of event inputs"),
        field("W", 8, Width::Bits(8), "order width in bits"),
        field("MAGIC", 16, Width::Bits(16), "0x4F4D"),
    ],
    "identification: parameters and magic number",
);

pub const CTRL_ENABLE: Field = field("ENABLE", 0, Width::Bits(1), "record occurrences (gates only the recording)");
pub const CTRL_AUTO_REARM: Field =
    field("AUTO_REARM", 1, Width::Bits(1), "every match clears the record; count every match");
pub const CTRL_START_SEL: Field = field("START_SEL", 2, Width::Bits(2), "which start line opens the window");
pub const CTRL_STOP_SEL: Field = field("STOP_SEL", 4, Width::Bits(2), "which stop line closes the window");
pub const CTRL_SERIAL_EN: Field = field("SERIAL_EN", 6, Width::Bits(1), "send serial frames back to back");

/// CTRL after reset: AUTO_REARM.
pub const CTRL_RESET: u32 = 0x2;

pub const CTRL: Register = register(
    "CTRL",
    0x01,
    Copies::One,
    Access::ReadWrite,
    Reset::Value(CTRL_RESET as u64),
    Source::Control,
    &[CTRL_ENABLE, CTRL_AUTO_REARM, CTRL_START_SEL, CTRL_STOP_SEL, CTRL_SERIAL_EN],
    "control; writes take effect from the next cycle",
);

pub const CMD_CLEAR_RECORD: Field = field("CLEAR_RECORD", 0, Width::Bits(1), "clear event register and record");
pub const CMD_CLEAR_COUNT: Field = field("CLEAR_COUNT", 1, Width::Bits(1), "zero COUNT and OVERFLOW");
pub const CMD_OPEN_WINDOW: Field = field("OPEN_WINDOW", 2, Width::Bits(1), "open the counting window");
pub const CMD_CLOSE_WINDOW: Field =
    field("CLOSE_WINDOW", 3, Width::Bits(1), "close the counting window (wins over open)");

pub const CMD: Register = register(
    "CMD",
    0x02,
    Copies::One,
    Access::WriteReadsZero,
    Reset::Value(0),
    Source::Command,
    &[CMD_CLEAR_RECORD, CMD_CLEAR_COUNT, CMD_OPEN_WINDOW, CMD_CLOSE_WINDOW],
    "commands: write 1 to act, in the cycle of the write",
);

pub const STATUS_WINDOW: Field =
    field("WINDOW", 0, Width::Bits(1), "window open (same flip-flop as the `window` port)");
pub const STATUS_MATCHED: Field =
    field("MATCHED", 1, Width::Bits(1), "match flag (same flip-flop as the `matched` port)");
pub const STATUS_OVERFLOW: Field = field("OVERFLOW", 2, Width::Bits(1), "COUNT wrapped; sticky until CLEAR_COUNT");

pub const STATUS: Register = register(
    "STATUS",
    0x03,
    Copies::One,
    Access::ReadOnly,
    Reset::Value(0),
    Source::Flags,
    &[STATUS_WINDOW, STATUS_MATCHED, STATUS_OVERFLOW],
    "status flags",
);

pub const COUNT: Register = register(
    "COUNT",
    0x04,
    Copies::One,
    Access::ReadOnly,
    Reset::Value(0),
    Source::Counter,
    &[field("COUNT", 0, Width::Bits(32), "counted matches, wraps to 0")],
    "match counter",
);

pub const EVENTS: Register = register(
    "EVENTS",
    0x05,
    Copies::One,
    Access::ReadOnly,
    Reset::Value(0),
    Source::EventRegister,
    &[field("EVENTS", 0, Width::Param("N"), "bit e: event e occurred in this sequence")],
    "event register",
);

pub const ORDER: Register = register(
    "ORDER",
    0x10,
    PER_EVENT,
    Access::ReadWrite,
    Reset::Value(0),
    Source::OrderRegister,
    &[field("ORDER", 0, Width::Param("W"), "order of event e, 0 = don't care")],
    "order register of event e; writes never touch the record",
);

pub const BEFORE: Register = register(
    "BEFORE",
    0x40,
    PER_EVENT,
    Access::ReadOnly,
    Reset::Value(0),
    Source::RecordRow,
    &[field("BEFORE", 0, Width::Param("N"), "bit a: flag (a before e); bit e reads 0")],
    "context record row of event e: bit a = flag (a before e), bit e reads 0",
);

/// Every register, in address order.
pub const REGISTERS: &[Register] = &[ID, CTRL, CMD, STATUS, COUNT, EVENTS, ORDER, BEFORE];

/// The monitor checks no access itself, so a bus slave checks the table: the word
/// addresses that may be read and written for N = `events` (docs/bus.md §2).
pub fn bus_access_check(events: usize, order_width: usize) -> crate::bus::AccessCheck {
    let lookup = params(events, order_width);
    let addresses = |allowed: fn(&Register) -> bool| {
        REGISTERS.iter().filter(|r| allowed(r)).map(|r| r.addresses(&lookup)).collect()
    };
    crate::bus::AccessCheck::ByTable {
        readable: addresses(|r| r.access.reads()),
        writable: addresses(|r| r.access.writes()),
    }
}

/// The value of `ID` for a design with `events` events and `order_width` order bits.
pub fn id_value(events: usize, order_width: usize) -> u32 {
    (ID_MAGIC << 16) | ((order_width as u32) << 8) | events as u32
}

/// The register at word address `addr` in a design with `events` events, with its
/// copy index, if any.
pub fn decode(addr: u32, events: usize) -> Option<(&'static Register, usize)> {
    crate::regmap::decode(REGISTERS, addr, &params(events, 2))
}

/// The value of a fixed-width `field` in a register word.
pub fn extract(field: &Field, word: u32) -> u32 {
    field.extract(word as u64, &params(32, 8)) as u32
}

/// The mask of `field` in a design with `events` events and `order_width` order bits.
pub fn mask(field: &Field, events: usize, order_width: usize) -> u32 {
    field.mask(&params(events, order_width)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent_for_every_configuration() {
        for events in 2..=32 {
            for order_width in 2..=8 {
                crate::regmap::check_table(REGISTERS, 32, &params(events, order_width)).unwrap();
            }
        }
    }

    #[test]
    fn id_packs_parameters_and_magic() {
        assert_eq!(id_value(8, 3), 0x4F4D_0308);
        assert_eq!(decode(0x47, 8).map(|(r, i)| (r.name, i)), Some(("BEFORE", 7)));
        assert!(decode(0x48, 8).is_none());
    }
}
