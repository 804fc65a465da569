//! One generated top's registers as one interface (bare port, AXI4-Lite, Wishbone)
//! presents them: the table, the configuration, the bus's byte-address layout and
//! what the table leaves to the design. Every description of one top (C header and
//! Markdown on a bus, SystemRDL, IP-XACT) is written from an [`Interface`], so they
//! agree on addresses, resets and access rules.
use std::fmt::Write;

use super::export::TableStyle;
use super::{Access, Bank, Copies, Field, Params, Register, Reset, UserAccess};
use crate::bus::{Bus, BusLayout};

/// What the hardware does with a field, beyond what software may do (the table's
/// [`Access`]): SystemRDL's `hw` property and IP-XACT's `volatile` follow from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hardware {
    /// A constant of the configuration (identification fields).
    Constant,
    /// A setting or command that the hardware only reads.
    Reads,
    /// A value the hardware changes or supplies (counters, status, the accessing thread).
    Updates,
}

/// One generated top's registers as one interface presents them: the design's table
/// and configuration, the bus and its byte-address layout, and what the table leaves
/// to the design (the value of ID registers, what the hardware does with each field).
pub struct Interface<'a, S: 'static> {
    /// The register table.
    pub table: &'static [Register<S>],
    /// The design's presentation (data width, privilege, USER_ACCESS gate names).
    pub style: &'a TableStyle,
    /// The configuration's parameters.
    pub params: Params<'a>,
    /// The bare design's top module name.
    pub top: &'a str,
    /// The interface the generated top offers.
    pub bus: Bus,
    /// Where the registers sit in a bus window.
    pub layout: BusLayout,
    /// The design's short name (`monitor`, `pmu`): the IP-XACT library.
    pub library: &'a str,
    /// The design's name in sentences (`event-order monitor`).
    pub title: &'a str,
    /// The configuration in words (`N=8, W=3`).
    pub summary: &'a str,
    /// The register table's source file.
    pub source: &'a str,
    /// The document that gives the registers' semantics (`docs/monitor.md`).
    pub docs: &'a str,
    /// The value of a register whose reset the table describes in words (ID registers).
    pub identity: &'a dyn Fn(&Register<S>) -> u64,
    /// What the hardware does with a field of a register.
    pub hardware: &'a dyn Fn(&Register<S>, &Field) -> Hardware,
}

/// Where a bus wrapper's address layout is documented.
pub(crate) const BUS_DOCS: &str = "docs/bus.md";

impl<S> Interface<'_, S> {
    /// The generated top's name: `<top>`, `<top>_axil` or `<top>_wb`.
    pub fn top_name(&self) -> String {
        self.bus.top_name(self.top)
    }
    /// The registers this configuration has, in table order (a register of a feature
    /// the configuration leaves out is not described at all).
    pub fn registers(&self) -> impl Iterator<Item = &'static Register<S>> + '_ {
        self.table.iter().filter(|register| register.present(self.params))
    }
    /// Whether the description lists one bank per thread: on a bus the address selects
    /// the bank; on the bare port `reg_thread` does, so it lists one bank.
    pub fn banked(&self) -> bool {
        self.bus != Bus::Bare && self.layout.thread_stride.is_some()
    }
    /// The number of thread banks the description lists.
    pub fn banks(&self) -> usize {
        if self.banked() {
            self.layout.threads
        } else {
            1
        }
    }
    /// Bytes between thread banks (0 without banks).
    pub fn bank_stride(&self) -> u32 {
        self.layout.thread_stride.unwrap_or(0)
    }
    /// Bytes one bank (or the whole register space, without banks) spans: the bank
    /// stride, or the 256 register addresses of the 8-bit register port.
    pub fn bank_bytes(&self) -> u32 {
        if self.banked() {
            self.bank_stride()
        } else {
            256 * self.layout.bytes()
        }
    }
    /// The byte offset of `register` (its copy 0) in its bank. On the bare port it is
    /// the word address times the register's bytes, as the description's addresses are
    /// byte addresses there too.
    pub fn offset(&self, register: &Register<S>) -> u32 {
        self.layout.byte_address(register.addr as u32, 0)
    }
    /// A field's value after reset: its part of a constant reset, the configuration's
    /// value for an identification field, none for a write-only register or a field
    /// the hardware supplies at each access.
    pub fn reset(&self, register: &Register<S>, field: &Field) -> Option<u64> {
        match register.reset {
            Reset::Value(value) => Some(field.extract(value, self.params)),
            Reset::None => None,
            Reset::Described(_) => ((self.hardware)(register, field) == Hardware::Constant)
                .then(|| field.extract((self.identity)(register), self.params)),
        }
    }
    /// A field's width in bits in this configuration.
    pub fn width(&self, field: &Field) -> usize {
        field.width.bits(self.params)
    }
    /// What unprivileged (ring 3) code may do with `register`, in words.
    pub fn ring3(&self, register: &Register<S>) -> String {
        let gate = |bit: u8| self.style.gate_names.get(bit as usize).copied().unwrap_or("?");
        match register.user {
            UserAccess::Denied => "denied".to_string(),
            UserAccess::ReadIf(bit) => format!("read while USER_ACCESS.{} is 1", gate(bit)),
            UserAccess::WriteIf(bit) => format!("write while USER_ACCESS.{} is 1", gate(bit)),
        }
    }
    /// How this interface answers an access the table does not allow.
    fn denial(&self) -> &'static str {
        match self.bus.protocol() {
            Bus::Axi4Lite => "SLVERR",
            Bus::Wishbone => "ERR",
            _ => "reg_fault",
        }
    }
    /// Where an access's privilege comes from on this interface.
    fn privilege_source(&self) -> &'static str {
        match self.bus.protocol() {
            Bus::Axi4Lite => "AxPROT[0]",
            Bus::Wishbone => "wb_priv",
            _ => "reg_priv",
        }
    }
    /// Each register is two bus words (a 32-bit slave in front of 64-bit registers).
    pub fn splits_registers(&self) -> bool {
        self.layout.splits_registers()
    }
    /// How software reads and writes a register that is two bus words (docs/bus.md
    /// §6); empty when each register is one bus word.
    pub fn word_rules(&self) -> String {
        if !self.splits_registers() {
            return String::new();
        }
        let (bus, register) = (self.layout.bus_bits, self.layout.data_bits);
        let high = self.layout.bus_bytes();
        format!(
            "Each {register}-bit register is two {bus}-bit words: bits [{}:0] at its address (+0) and bits \
             [{}:{bus}] at +{high}. Read a register low word first: a +0 read holds bits [{}:{bus}] of that same \
             read, and the +{high} read right after it returns them, so the two words are one value even while \
             the register counts. Write a register high word first: a +{high} write is held and changes nothing; \
             the +0 write of the same register right after it writes both words at once (alone, a +0 write \
             writes {{0, data}}: one write is enough for a register of {bus} bits or fewer). A +{high} write is \
             acknowledged whatever its privilege: the +0 write's privilege and the register's rules decide \
             whether the pair is written.",
            bus - 1,
            register - 1,
            register - 1
        )
    }
    /// What a description says about a whole top: the design, the interface, how
    /// addresses, banks and privilege work on it, and where the semantics are.
    pub fn overview(&self) -> String {
        let (bytes, data_bits) = (self.layout.bytes(), self.layout.data_bits);
        let mut text = format!("Registers of the {} ({}), {data_bits} bits each", self.title, self.summary);
        if self.bus == Bus::Bare {
            let _ = write!(
                text,
                ", on its own register port. Addresses here are byte addresses: the register port takes the word \
                 address (byte address / {bytes}) on reg_addr."
            );
            if self.layout.thread_stride.is_some() {
                let _ = write!(text, " reg_thread selects the accessing thread's bank.");
            }
        } else {
            let _ = write!(
                text,
                ", behind its {} slave ({BUS_DOCS}): byte addresses in a window of {} address bits, {}-bit \
                 accesses only (address bits [{}:0] are 0).",
                self.bus.title(),
                self.layout.address_bits,
                self.layout.bus_bits,
                self.layout.offset_bits() - 1
            );
            if self.splits_registers() {
                let _ = write!(text, " {}", self.word_rules());
            }
            if self.banked() {
                let _ = write!(
                    text,
                    " Thread t's bank is at t * 0x{:X}: the address selects the bank, so any master reaches every \
                     bank; give unprivileged masters only their own thread's window.",
                    self.bank_stride()
                );
            }
        }
        if self.style.privileged {
            let _ = write!(
                text,
                " The privilege comes from {} (1 = ring 0); an access the register's ring 0 or ring 3 rule does not \
                 allow is denied ({}).",
                self.privilege_source(),
                self.denial()
            );
        }
        let _ = write!(text, " Semantics: {}.", self.docs);
        text
    }
    /// What a register's description adds to its table line: its access rule, its
    /// copies, whether every bank shares it, what ring 3 may do.
    pub fn notes(&self, register: &Register<S>) -> Vec<String> {
        let mut notes = Vec::new();
        match (register.access, self.style.privileged) {
            (Access::ReadOnly, true) => notes.push(format!("Read only: a write is denied ({}).", self.denial())),
            (Access::ReadOnly, false) => notes.push("Read only: writes are ignored.".to_string()),
            (Access::ReadWrite, _) => {}
            (Access::WriteReadsZero, _) => notes.push("Command register: a read returns 0.".to_string()),
            (Access::WriteOnly, true) => notes.push(format!("Write only: a read is denied ({}).", self.denial())),
            (Access::WriteOnly, false) => notes.push("Write only: a read returns 0.".to_string()),
        }
        if let Copies::Indexed { count, index } = register.copies {
            let copies = (self.params)(count);
            notes.push(format!("{copies} copies ({count}): {}[{index}] for {index} < {copies}.", register.name));
        }
        if register.bank == Bank::Shared {
            if self.banked() {
                notes.push("Shared: one register for the core, the same in every thread's bank.".to_string());
            } else {
                notes.push("Shared: one register for the core, whichever thread reg_thread names.".to_string());
            }
        }
        if self.style.privileged {
            notes.push(match register.user {
                UserAccess::Denied => "Ring 3: every access is denied.".to_string(),
                _ => format!("Ring 3: {}; any other ring-3 access is denied.", self.ring3(register)),
            });
        }
        notes
    }
    /// A register's description: its line of the table and its [`Interface::notes`].
    pub fn register_description(&self, register: &Register<S>) -> String {
        std::iter::once(format!("{}.", register.doc)).chain(self.notes(register)).collect::<Vec<_>>().join(" ")
    }
    /// A field's description: its line of the table, and why it has no reset value
    /// when the hardware supplies it in an identification register.
    pub fn field_description(&self, register: &Register<S>, field: &Field) -> String {
        let varies = matches!(register.reset, Reset::Described(_)) && self.reset(register, field).is_none();
        if varies {
            format!("{}. Not a constant: supplied at each access, no reset value.", field.doc)
        } else {
            format!("{}.", field.doc)
        }
    }
}
