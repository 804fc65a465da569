//! The register map of the event-order monitor (SPEC A.5): the one table that the
//! register port's decoder and read mux, the Markdown register table and the C header
//! are generated from.
//!
//! Addresses are 8-bit word addresses. Per-event registers (`ORDER[e]`, `BEFORE[m]`)
//! occupy `base + e` for `e < N`.

/// How the host may access a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read-only: writes are ignored.
    ReadOnly,
    /// Read-write.
    ReadWrite,
    /// Write-only strobes: reads return 0.
    WriteOnly,
}

impl Access {
    /// The short name used in the docs table ("RO", "RW", "WO").
    pub fn short(self) -> &'static str {
        match self {
            Access::ReadOnly => "RO",
            Access::ReadWrite => "RW",
            Access::WriteOnly => "WO, reads 0",
        }
    }
}

/// The width of a field, fixed or set by a design parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// A fixed number of bits.
    Bits(usize),
    /// `N` bits, one per event.
    Events,
    /// `W` bits, the order width.
    OrderWidth,
}

impl Width {
    /// The width in bits for a design with `events` events and `order_width` order bits.
    pub fn bits(self, events: usize, order_width: usize) -> usize {
        match self {
            Width::Bits(bits) => bits,
            Width::Events => events,
            Width::OrderWidth => order_width,
        }
    }
}

/// One field of a register.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Field name as in the SPEC (`ENABLE`, `START_SEL`, ...).
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: usize,
    /// Width.
    pub width: Width,
    /// What the field does.
    pub doc: &'static str,
}

/// How many copies of a register exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// One register.
    Single,
    /// One register per event, at `addr + e` for `e < N`.
    PerEvent,
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

/// One register (or one per-event register array).
#[derive(Clone, Copy, Debug)]
pub struct Register {
    /// Register name as in the SPEC.
    pub name: &'static str,
    /// Word address (of copy 0 for a per-event register).
    pub addr: u8,
    /// Single or per event.
    pub count: Count,
    /// Host access.
    pub access: Access,
    /// Reset value (ID's is computed, see [`id_value`]).
    pub reset: u32,
    /// Where reads come from.
    pub source: Source,
    /// Fields, lowest first.
    pub fields: &'static [Field],
    /// One line of documentation.
    pub doc: &'static str,
}

const fn field(name: &'static str, lsb: usize, width: Width, doc: &'static str) -> Field {
    Field { name, lsb, width, doc }
}

/// `ID` magic in bits [31:16]: "OM" for event-order monitor.
pub const ID_MAGIC: u32 = 0x4F4D;

pub const ID: Register = Register {
    name: "ID",
    addr: 0x00,
    count: Count::Single,
    access: Access::ReadOnly,
    reset: 0,
    source: Source::Identity,
    fields: &[
        field("N", 0, Width::Bits(8), "number of event inputs"),
        field("W", 8, Width::Bits(8), "order width in bits"),
        field("MAGIC", 16, Width::Bits(16), "0x4F4D"),
    ],
    doc: "identification: parameters and magic number",
};

pub const CTRL_ENABLE: Field = field("ENABLE", 0, Width::Bits(1), "record occurrences (gates only the recording)");
pub const CTRL_AUTO_REARM: Field = field("AUTO_REARM", 1, Width::Bits(1), "every match clears the record; count every match");
pub const CTRL_START_SEL: Field = field("START_SEL", 2, Width::Bits(2), "which start line opens the window");
pub const CTRL_STOP_SEL: Field = field("STOP_SEL", 4, Width::Bits(2), "which stop line closes the window");
pub const CTRL_SERIAL_EN: Field = field("SERIAL_EN", 6, Width::Bits(1), "send serial frames back to back");

pub const CTRL: Register = Register {
    name: "CTRL",
    addr: 0x01,
    count: Count::Single,
    access: Access::ReadWrite,
    reset: 0x2,
    source: Source::Control,
    fields: &[CTRL_ENABLE, CTRL_AUTO_REARM, CTRL_START_SEL, CTRL_STOP_SEL, CTRL_SERIAL_EN],
    doc: "control; writes take effect from the next cycle",
};

pub const CMD_CLEAR_RECORD: Field = field("CLEAR_RECORD", 0, Width::Bits(1), "clear event register and record");
pub const CMD_CLEAR_COUNT: Field = field("CLEAR_COUNT", 1, Width::Bits(1), "zero COUNT and OVERFLOW");
pub const CMD_OPEN_WINDOW: Field = field("OPEN_WINDOW", 2, Width::Bits(1), "open the counting window");
pub const CMD_CLOSE_WINDOW: Field = field("CLOSE_WINDOW", 3, Width::Bits(1), "close the counting window (wins over open)");

pub const CMD: Register = Register {
    name: "CMD",
    addr: 0x02,
    count: Count::Single,
    access: Access::WriteOnly,
    reset: 0,
    source: Source::Command,
    fields: &[CMD_CLEAR_RECORD, CMD_CLEAR_COUNT, CMD_OPEN_WINDOW, CMD_CLOSE_WINDOW],
    doc: "commands: write 1 to act, in the cycle of the write",
};

pub const STATUS_WINDOW: Field = field("WINDOW", 0, Width::Bits(1), "window open (same flip-flop as the `window` port)");
pub const STATUS_MATCHED: Field = field("MATCHED", 1, Width::Bits(1), "match flag (same flip-flop as the `matched` port)");
pub const STATUS_OVERFLOW: Field = field("OVERFLOW", 2, Width::Bits(1), "COUNT wrapped; sticky until CLEAR_COUNT");

pub const STATUS: Register = Register {
    name: "STATUS",
    addr: 0x03,
    count: Count::Single,
    access: Access::ReadOnly,
    reset: 0,
    source: Source::Flags,
    fields: &[STATUS_WINDOW, STATUS_MATCHED, STATUS_OVERFLOW],
    doc: "status flags",
};

pub const COUNT: Register = Register {
    name: "COUNT",
    addr: 0x04,
    count: Count::Single,
    access: Access::ReadOnly,
    reset: 0,
    source: Source::Counter,
    fields: &[field("COUNT", 0, Width::Bits(32), "counted matches, wraps to 0")],
    doc: "match counter",
};

pub const EVENTS: Register = Register {
    name: "EVENTS",
    addr: 0x05,
    count: Count::Single,
    access: Access::ReadOnly,
    reset: 0,
    source: Source::EventRegister,
    fields: &[field("EVENTS", 0, Width::Events, "bit e: event e occurred in this sequence")],
    doc: "event register",
};

pub const ORDER: Register = Register {
    name: "ORDER",
    addr: 0x10,
    count: Count::PerEvent,
    access: Access::ReadWrite,
    reset: 0,
    source: Source::OrderRegister,
    fields: &[field("ORDER", 0, Width::OrderWidth, "order of event e, 0 = don't care")],
    doc: "order register of event e; writes never touch the record",
};

pub const BEFORE: Register = Register {
    name: "BEFORE",
    addr: 0x40,
    count: Count::PerEvent,
    access: Access::ReadOnly,
    reset: 0,
    source: Source::RecordRow,
    fields: &[field("BEFORE", 0, Width::Events, "bit a: flag (a before e); bit e reads 0")],
    doc: "context record row of event e: bit a = flag (a before e), bit e reads 0",
};

/// Every register, in address order.
pub const REGISTERS: &[Register] = &[ID, CTRL, CMD, STATUS, COUNT, EVENTS, ORDER, BEFORE];

/// The value of `ID` for a design with `events` events and `order_width` order bits.
pub fn id_value(events: usize, order_width: usize) -> u32 {
    (ID_MAGIC << 16) | ((order_width as u32) << 8) | events as u32
}

impl Field {
    /// Bit mask of the field in its register.
    pub fn mask(&self, events: usize, order_width: usize) -> u32 {
        let bits = self.width.bits(events, order_width);
        let ones = if bits >= 32 { u32::MAX } else { (1u32 << bits) - 1 };
        ones << self.lsb
    }
    /// The field's value extracted from a register word.
    pub fn extract(&self, word: u32) -> u32 {
        let bits = self.width.bits(32, 32);
        let ones = if bits >= 32 { u32::MAX } else { (1u32 << bits) - 1 };
        (word >> self.lsb) & ones
    }
}

impl Register {
    /// The addresses this register occupies in a design with `events` events.
    pub fn addresses(&self, events: usize) -> std::ops::Range<u32> {
        let copies = match self.count {
            Count::Single => 1,
            Count::PerEvent => events as u32,
        };
        self.addr as u32..self.addr as u32 + copies
    }
    /// Mask of all defined bits.
    pub fn mask(&self, events: usize, order_width: usize) -> u32 {
        self.fields.iter().fold(0, |acc, f| acc | f.mask(events, order_width))
    }
}

/// The register at word address `addr`, with its copy index, if any.
pub fn decode(addr: u32, events: usize) -> Option<(&'static Register, usize)> {
    REGISTERS.iter().find_map(|reg| {
        let range = reg.addresses(events);
        range.contains(&addr).then(|| (reg, (addr - range.start) as usize))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_do_not_overlap_for_any_event_count() {
        for events in 2..=32 {
            let mut taken = [false; 256];
            for reg in REGISTERS {
                for addr in reg.addresses(events) {
                    assert!(!taken[addr as usize], "{} overlaps at 0x{addr:02x} for N={events}", reg.name);
                    taken[addr as usize] = true;
                }
            }
        }
    }

    #[test]
    fn fields_do_not_overlap_and_fit_32_bits() {
        for reg in REGISTERS {
            let mut used = 0u64;
            for f in reg.fields {
                let bits = f.width.bits(32, 8);
                let mask = ((1u64 << bits) - 1) << f.lsb;
                assert_eq!(used & mask, 0, "{}.{} overlaps", reg.name, f.name);
                assert!(f.lsb + bits <= 32, "{}.{} exceeds 32 bits", reg.name, f.name);
                used |= mask;
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
