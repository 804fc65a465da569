//! Register tables: each design describes its registers once, in a Rust table of
//! [`Register`]s, and everything else is generated from that table: the register
//! port's decoder, access check and read mux, the Markdown register tables of the
//! docs, the C header ([`export`]) and the C driver ([`driver`]).
//!
//! Widths and copy counts may depend on the design's parameters; they are named
//! symbolically (`"N"`, `"K"`, `"CW"`) and resolved by a [`Params`] lookup.
mod bus_export;
pub mod driver;
pub mod export;
pub mod interface;
pub mod ipxact;
pub mod read_mux;
pub mod systemrdl;

/// A design's parameter values by their names (`"N"`, `"W"`, `"T"`, `"K"`, `"CW"`).
pub type Params<'a> = &'a dyn Fn(&str) -> usize;

/// The access a register allows (to privileged code, in a design with privilege).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads allowed, writes refused (ignored, or denied where access is checked).
    ReadOnly,
    /// Reads and writes allowed.
    ReadWrite,
    /// Writes act; a read is allowed and returns 0 (command and clear registers).
    WriteReadsZero,
    /// Writes act; a read is refused (denied where access is checked).
    WriteOnly,
}

impl Access {
    /// Whether a read is allowed.
    pub fn reads(self) -> bool {
        !matches!(self, Access::WriteOnly)
    }
    /// Whether a write is allowed.
    pub fn writes(self) -> bool {
        !matches!(self, Access::ReadOnly)
    }
    /// The text of the docs table.
    pub fn short(self) -> &'static str {
        match self {
            Access::ReadOnly => "R",
            Access::ReadWrite => "RW",
            Access::WriteReadsZero => "W, reads 0",
            Access::WriteOnly => "W",
        }
    }
}

/// What unprivileged (ring 3) code may do with a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserAccess {
    /// Nothing: every access is denied.
    Denied,
    /// Read, while bit `n` of the accessing thread's USER_ACCESS register is 1.
    ReadIf(u8),
    /// Write, while bit `n` of the accessing thread's USER_ACCESS register is 1.
    WriteIf(u8),
}

impl UserAccess {
    /// The text of the docs table, naming the gate bit by `gate_names[n]`.
    pub fn short(self, gate_names: &[&str]) -> String {
        let name = |bit: u8| gate_names.get(bit as usize).copied().unwrap_or("?");
        match self {
            UserAccess::Denied => "–".to_string(),
            UserAccess::ReadIf(bit) => format!("R if USER_ACCESS.{}", name(bit)),
            UserAccess::WriteIf(bit) => format!("W if USER_ACCESS.{}", name(bit)),
        }
    }
}

/// Which copy of a register an access reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bank {
    /// The design has one set of registers.
    Single,
    /// One copy per hardware thread, selected by the accessing thread.
    PerThread,
    /// One register shared by every thread's bank.
    Shared,
}

/// How many consecutive addresses a register occupies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copies {
    /// One address.
    One,
    /// `count` addresses from `addr`, copy `index` at `addr + index`.
    Indexed {
        /// The parameter giving the number of copies (`"N"`, `"K"`).
        count: &'static str,
        /// The index's name in the docs (`"e"`, `"i"`).
        index: &'static str,
    },
    /// One address when the parameter is not 0, none otherwise: a register of a
    /// feature the configuration may leave out (the PMU's profile table, E).
    OneIf {
        /// The parameter whose value 0 leaves the register out (`"E"`).
        parameter: &'static str,
    },
}

/// A register's value after reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reset {
    /// A constant.
    Value(u64),
    /// Computed from the parameters; the text says how (ID registers).
    Described(&'static str),
    /// A write-only register holds nothing.
    None,
}

/// The width of a field: fixed, or a named parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// A fixed number of bits.
    Bits(usize),
    /// As many bits as the parameter's value.
    Param(&'static str),
}

impl Width {
    /// The width in bits.
    pub fn bits(self, params: Params) -> usize {
        match self {
            Width::Bits(bits) => bits,
            Width::Param(name) => params(name),
        }
    }
}

/// One field of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Name as the docs and the C header spell it.
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: usize,
    /// Width.
    pub width: Width,
    /// What it does.
    pub doc: &'static str,
}

/// A field (for the tables' `const` items).
pub const fn field(name: &'static str, lsb: usize, width: Width, doc: &'static str) -> Field {
    Field { name, lsb, width, doc }
}

impl Field {
    /// The field's bit mask in its register.
    pub fn mask(&self, params: Params) -> u64 {
        crate::dyn_signal::low_mask(self.width.bits(params)) << self.lsb
    }
    /// The field's value in a register word.
    pub fn extract(&self, word: u64, params: Params) -> u64 {
        (word & self.mask(params)) >> self.lsb
    }
}

/// One register (or an indexed array of them). `S` says where the design's read mux
/// finds its value.
#[derive(Clone, Copy, Debug)]
pub struct Register<S: 'static> {
    /// Name as the docs and the C header spell it.
    pub name: &'static str,
    /// Address (of copy 0).
    pub addr: u8,
    /// One address or one per index.
    pub copies: Copies,
    /// What privileged code (or any code, in a design without privilege) may do.
    pub access: Access,
    /// What unprivileged code may do.
    pub user: UserAccess,
    /// Per-thread bank, shared, or a design with one bank.
    pub bank: Bank,
    /// Value after reset.
    pub reset: Reset,
    /// Where the read value comes from.
    pub source: S,
    /// Fields, lowest first.
    pub fields: &'static [Field],
    /// One line of documentation.
    pub doc: &'static str,
}

impl<S> Register<S> {
    /// The number of copies.
    pub fn count(&self, params: Params) -> usize {
        match self.copies {
            Copies::One => 1,
            Copies::Indexed { count, .. } => params(count),
            Copies::OneIf { parameter } => usize::from(params(parameter) != 0),
        }
    }
    /// Whether the configuration has the register at all.
    pub fn present(&self, params: Params) -> bool {
        self.count(params) != 0
    }
    /// The addresses the register occupies.
    pub fn addresses(&self, params: Params) -> std::ops::Range<u32> {
        self.addr as u32..self.addr as u32 + self.count(params) as u32
    }
    /// The mask of all defined bits.
    pub fn mask(&self, params: Params) -> u64 {
        self.fields.iter().fold(0, |mask, field| mask | field.mask(params))
    }
}

/// The register at `addr` in `table`, with its copy index, if any.
pub fn decode<S>(table: &'static [Register<S>], addr: u32, params: Params) -> Option<(&'static Register<S>, usize)> {
    table.iter().find_map(|register| {
        let range = register.addresses(params);
        range.contains(&addr).then(|| (register, (addr - range.start) as usize))
    })
}

/// Check a table for overlapping addresses or fields and fields beyond `data_bits`;
/// each design's tests run it for every parameter set.
pub fn check_table<S>(table: &'static [Register<S>], data_bits: usize, params: Params) -> Result<(), String> {
    let mut taken = [false; 256];
    for register in table {
        for addr in register.addresses(params) {
            if addr > 255 || taken[addr as usize] {
                return Err(format!("{} overlaps another register at 0x{addr:02x}", register.name));
            }
            taken[addr as usize] = true;
        }
        let mut used = 0u128;
        for field in register.fields {
            let bits = field.width.bits(params);
            let mask = ((1u128 << bits) - 1) << field.lsb;
            if used & mask != 0 || field.lsb + bits > data_bits {
                return Err(format!("{}.{} overlaps or exceeds {data_bits} bits", register.name, field.name));
            }
            used |= mask;
        }
    }
    Ok(())
}
