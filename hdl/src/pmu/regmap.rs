//! The PMU's register map: the one table that the register port's access check,
//! write strobes and read mux, the docs' register table and the C header are
//! generated from.
//!
//! Addresses are the Knights Corner manual's MSR numbers (seed 001 §1.4.3), so a KNC
//! driver's register code carries over. Registers are 64 bits. Each hardware thread
//! has its own bank (selected by `reg_thread`); the TSC is one register shared by all
//! banks. Privileged code (ring 0) has the `access` column; unprivileged code (ring 3)
//! only what `user` allows, gated by the accessing thread's USER_ACCESS bits.
use crate::regmap::{export::TableStyle, Register as GenericRegister};
pub use crate::regmap::{field, Access, Bank, Copies, Field, Reset, UserAccess, Width};

/// A PMU register.
pub type Register = GenericRegister<Source>;

/// Where the register port finds a register's read value (and, for writable
/// registers, which write strobe it drives).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The constant identification word, with the accessing thread in [41:40].
    Identity,
    /// The time-stamp counter.
    TimeStamp,
    /// General counter i of the bank.
    Counter,
    /// Event select i of the bank.
    EventSelect,
    /// SPFLT_CTRL and USER_PREF.
    SpfltControl,
    /// The sticky overflow bits.
    GlobalStatus,
    /// The overflow clear strobes (reads 0).
    OverflowControl,
    /// The counter enables.
    GlobalControl,
    /// Shadow register i of the bank.
    Shadow,
    /// SAVE_ON_ENTRY and RESTORE_ON_EXIT.
    ShadowControl,
    /// FREEZE_UNMARKED.
    FreezeControl,
    /// The ring-3 permissions.
    UserAccess,
    /// The SPFLT instruction's write port to USER_PREF (not readable).
    Spflt,
    /// TRACE_EN, PID_FILTER and the traced thread.
    TraceControl,
    /// The traced process id.
    TracePid,
    /// The dropped-record counter (a write clears it).
    TraceDropped,
    /// The profile table's SUMMARIZE and FLUSH (docs/pmu.md §15.1).
    ProfileControl,
    /// The profile table's evicted-entry counter (a write clears it).
    ProfileEvicted,
}

/// How the PMU's table is presented: 64-bit registers, ring 0 / ring 3.
pub const STYLE: TableStyle = TableStyle { data_bits: 64, privileged: true, gate_names: &["RDTSC", "RDPMC", "SPFLT"] };

/// USER_ACCESS bit that lets ring 3 read the TSC (RDTSC).
pub const GATE_RDTSC: u8 = 0;
/// USER_ACCESS bit that lets ring 3 read the general counters (RDPMC).
pub const GATE_RDPMC: u8 = 1;
/// USER_ACCESS bit that lets ring 3 write SPFLT (the SPFLT instruction).
pub const GATE_SPFLT: u8 = 2;

/// One copy per counter: `base + i`, `i < K`.
const PER_COUNTER: Copies = Copies::Indexed { count: "K", index: "i" };

#[allow(clippy::too_many_arguments)]
const fn register(
    name: &'static str,
    addr: u8,
    copies: Copies,
    access: Access,
    user: UserAccess,
    bank: Bank,
    reset: Reset,
    source: Source,
    fields: &'static [Field],
    doc: &'static str,
) -> Register {
    Register { name, addr, copies, access, user, bank, reset, source, fields, doc }
}

const K_BITS: Width = Width::Param("K");
const CW_BITS: Width = Width::Param("CW");

/// TRACE_CTRL fields (docs/pmu.md §10).
pub mod trace_ctrl {
    use super::{field, Field, Width};
    pub const TRACE_EN: Field = field("TRACE_EN", 0, Width::Bits(1), "trace the block ends of THREAD");
    pub const PID_FILTER: Field = field("PID_FILTER", 1, Width::Bits(1), "record only blocks of process TRACE_PID");
    pub const THREAD: Field = field("THREAD", 4, Width::Bits(2), "the traced thread");
    /// Bits TRACE_CTRL keeps.
    pub const WRITABLE: u64 = 0x33;
}

/// PROFILE_CTRL fields (docs/pmu.md §15.1).
pub mod profile_ctrl {
    use super::{field, Field, Width};
    pub const SUMMARIZE: Field = field("SUMMARIZE", 0, Width::Bits(1), "sum the trace records in the profile table");
    pub const FLUSH: Field =
        field("FLUSH", 1, Width::Bits(1), "write 1 to send and empty the table; reads 1 while a flush is under way");
}

/// Present only with a profile table (E > 0).
const WITH_PROFILE: Copies = Copies::OneIf { parameter: "E" };

/// PMU_ID.LOG2_E: log2 of the profile table's entries (0 without a table).
pub const ID_LOG2_E: Field = field("LOG2_E", 42, Width::Bits(5), "log2 of the profile table's entries (0: none)");

/// PMU_ID bits [63:48]: "PM".
pub const ID_MAGIC: u64 = 0x504D;
/// PMU_ID.THREAD: the accessing thread.
pub const ID_THREAD: Field = field("THREAD", 40, Width::Bits(2), "the accessing thread (reg_thread)");

/// PERF_EVTSEL fields (seed 001 Table 1-5).
pub mod evtsel {
    use super::{field, Field, Width};
    pub const EVENT: Field = field("EVENT", 0, Width::Bits(8), "event code");
    pub const UMASK: Field = field("UMASK", 8, Width::Bits(8), "unit mask");
    pub const USR: Field = field("USR", 16, Width::Bits(1), "count in ring 3");
    pub const OS: Field = field("OS", 17, Width::Bits(1), "count in ring 0");
    pub const E: Field = field("E", 18, Width::Bits(1), "count the condition's rising edges");
    pub const INT: Field = field("INT", 20, Width::Bits(1), "raise pmi on overflow");
    pub const ANY: Field = field("ANY", 21, Width::Bits(1), "count the event of every thread");
    pub const EN: Field = field("EN", 22, Width::Bits(1), "enable (AND with PERF_GLOBAL_CTRL)");
    pub const INV: Field = field("INV", 23, Width::Bits(1), "invert the CMASK comparison");
    pub const CMASK: Field = field("CMASK", 24, Width::Bits(8), "count cycles with at least CMASK events");
    /// Bits an EVTSEL keeps (bit 19 is reserved).
    pub const WRITABLE: u64 = 0xFFF7_FFFF;
}

/// SHADOW_CTRL.RESTORE_ON_EXIT starts at bit 8.
pub const RESTORE_ON_EXIT_LSB: usize = 8;
/// PERF_SPFLT_CONTROL.USER_PREF is bit 63.
pub const USER_PREF_BIT: usize = 63;
/// USER_ACCESS after reset: every ring-3 instruction allowed, as on KNC.
pub const USER_ACCESS_RESET: u64 = 0x7;

pub const PMU_ID: Register = register(
    "PMU_ID",
    0x00,
    Copies::One,
    Access::ReadOnly,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Described("T, K, CW, AW, log2 D, thread, log2 E, 0x504D"),
    Source::Identity,
    &[
        field("T", 0, Width::Bits(8), "threads"),
        field("K", 8, Width::Bits(8), "counters per thread"),
        field("CW", 16, Width::Bits(8), "counter width"),
        field("AW", 24, Width::Bits(8), "trace address width"),
        field("LOG2_D", 32, Width::Bits(8), "log2 of the trace queue depth"),
        ID_THREAD,
        ID_LOG2_E,
        field("MAGIC", 48, Width::Bits(16), "0x504D"),
    ],
    "identification: parameters, the accessing thread, magic number",
);

pub const TSC: Register = register(
    "TSC",
    0x10,
    Copies::One,
    Access::ReadWrite,
    UserAccess::ReadIf(GATE_RDTSC),
    Bank::Shared,
    Reset::Value(0),
    Source::TimeStamp,
    &[field("TSC", 0, Width::Bits(64), "core clock cycles since reset or the last write")],
    "time-stamp counter, +1 every cycle; one register for the core",
);

pub const PERF_CNTR: Register = register(
    "PERF_CNTR",
    0x20,
    PER_COUNTER,
    Access::ReadWrite,
    UserAccess::ReadIf(GATE_RDPMC),
    Bank::PerThread,
    Reset::Value(0),
    Source::Counter,
    &[field("COUNT", 0, CW_BITS, "event count; a write sets all CW bits")],
    "general counter i",
);

pub const PERF_EVTSEL: Register = register(
    "PERF_EVTSEL",
    0x28,
    PER_COUNTER,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::EventSelect,
    &[
        evtsel::EVENT,
        evtsel::UMASK,
        evtsel::USR,
        evtsel::OS,
        evtsel::E,
        evtsel::INT,
        evtsel::ANY,
        evtsel::EN,
        evtsel::INV,
        evtsel::CMASK,
    ],
    "event select of counter i",
);

pub const PERF_SPFLT_CONTROL: Register = register(
    "PERF_SPFLT_CONTROL",
    0x2C,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::SpfltControl,
    &[
        field("SPFLT_CTRL", 0, K_BITS, "counter i counts only while USER_PREF is 1"),
        field("USER_PREF", USER_PREF_BIT, Width::Bits(1), "the user's preference, set by SPFLT"),
    ],
    "user-preference filter",
);

pub const PERF_GLOBAL_STATUS: Register = register(
    "PERF_GLOBAL_STATUS",
    0x2D,
    Copies::One,
    Access::ReadOnly,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::GlobalStatus,
    &[field("OVERFLOW", 0, K_BITS, "counter i overflowed; sticky")],
    "overflow status",
);

pub const PERF_GLOBAL_OVF_CTRL: Register = register(
    "PERF_GLOBAL_OVF_CTRL",
    0x2E,
    Copies::One,
    Access::WriteReadsZero,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::None,
    Source::OverflowControl,
    &[field("CLEAR", 0, K_BITS, "write 1 to clear overflow bit i")],
    "overflow clear; an overflow at the same edge stays set",
);

pub const PERF_GLOBAL_CTRL: Register = register(
    "PERF_GLOBAL_CTRL",
    0x2F,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::GlobalControl,
    &[field("ENABLE", 0, K_BITS, "counter i enabled (AND with EVTSEL.EN)")],
    "counter enables",
);

pub const SHADOW: Register = register(
    "SHADOW",
    0x30,
    PER_COUNTER,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::Shadow,
    &[field("SHADOW", 0, CW_BITS, "saved count of counter i")],
    "shadow of counter i: saved at kernel entry, restored at exit",
);

pub const SHADOW_CTRL: Register = register(
    "SHADOW_CTRL",
    0x38,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::ShadowControl,
    &[
        field("SAVE_ON_ENTRY", 0, K_BITS, "save counter i into SHADOW[i] at kernel entry"),
        field("RESTORE_ON_EXIT", RESTORE_ON_EXIT_LSB, K_BITS, "counter i takes SHADOW[i] + inc at kernel exit"),
    ],
    "shadow save/restore control",
);

pub const FREEZE_CTRL: Register = register(
    "FREEZE_CTRL",
    0x39,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(0),
    Source::FreezeControl,
    &[field("FREEZE_UNMARKED", 0, Width::Bits(1), "no counting while pm_mark is 0")],
    "freeze control",
);

pub const USER_ACCESS: Register = register(
    "USER_ACCESS",
    0x3E,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::PerThread,
    Reset::Value(USER_ACCESS_RESET),
    Source::UserAccess,
    &[
        field("RDTSC", 0, Width::Bits(1), "ring 3 may read TSC"),
        field("RDPMC", 1, Width::Bits(1), "ring 3 may read PERF_CNTR"),
        field("SPFLT", 2, Width::Bits(1), "ring 3 may write SPFLT"),
    ],
    "ring-3 permissions of this thread",
);

pub const SPFLT: Register = register(
    "SPFLT",
    0x3F,
    Copies::One,
    Access::WriteOnly,
    UserAccess::WriteIf(GATE_SPFLT),
    Bank::PerThread,
    Reset::None,
    Source::Spflt,
    &[field("USER_PREF", 0, Width::Bits(1), "the new USER_PREF")],
    "the SPFLT instruction: sets or clears USER_PREF",
);

pub const TRACE_CTRL: Register = register(
    "TRACE_CTRL",
    0x40,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::Shared,
    Reset::Value(0),
    Source::TraceControl,
    &[trace_ctrl::TRACE_EN, trace_ctrl::PID_FILTER, trace_ctrl::THREAD],
    "trace unit control; a write also forgets the previous block end's pid; one register for the core",
);

pub const TRACE_PID: Register = register(
    "TRACE_PID",
    0x41,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::Shared,
    Reset::Value(0),
    Source::TracePid,
    &[field("PID", 0, Width::Bits(32), "the traced process id (with PID_FILTER)")],
    "the process whose blocks are recorded with PID_FILTER; one register for the core",
);

pub const TRACE_DROPPED: Register = register(
    "TRACE_DROPPED",
    0x42,
    Copies::One,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::Shared,
    Reset::Value(0),
    Source::TraceDropped,
    &[field("DROPPED", 0, Width::Bits(32), "records dropped on a full queue, saturating; any write clears it")],
    "dropped trace records; one register for the core",
);

pub const PROFILE_CTRL: Register = register(
    "PROFILE_CTRL",
    0x43,
    WITH_PROFILE,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::Shared,
    Reset::Value(0),
    Source::ProfileControl,
    &[profile_ctrl::SUMMARIZE, profile_ctrl::FLUSH],
    "profile table control; only with a profile table (E > 0); one register for the core",
);

pub const PROFILE_EVICTED: Register = register(
    "PROFILE_EVICTED",
    0x44,
    WITH_PROFILE,
    Access::ReadWrite,
    UserAccess::Denied,
    Bank::Shared,
    Reset::Value(0),
    Source::ProfileEvicted,
    &[field("EVICTED", 0, Width::Bits(32), "entries sent other than by a flush, saturating; any write clears it")],
    "evicted profile entries; only with a profile table (E > 0); one register for the core",
);

/// Every register, in address order.
pub const REGISTERS: &[Register] = &[
    PMU_ID,
    TSC,
    PERF_CNTR,
    PERF_EVTSEL,
    PERF_SPFLT_CONTROL,
    PERF_GLOBAL_STATUS,
    PERF_GLOBAL_OVF_CTRL,
    PERF_GLOBAL_CTRL,
    SHADOW,
    SHADOW_CTRL,
    FREEZE_CTRL,
    USER_ACCESS,
    SPFLT,
    TRACE_CTRL,
    TRACE_PID,
    TRACE_DROPPED,
    PROFILE_CTRL,
    PROFILE_EVICTED,
];

/// PMU_ID of a PMU of `params`, read by `thread`.
pub fn id_value(params: &super::params::PmuParams, thread: usize) -> u64 {
    let log2_depth = params.depth_bits() as u64;
    ID_MAGIC << 48
        | (params.profile_bits() as u64) << ID_LOG2_E.lsb
        | (thread as u64) << ID_THREAD.lsb
        | log2_depth << 32
        | (params.address_width as u64) << 24
        | (params.counter_width as u64) << 16
        | (params.counters as u64) << 8
        | params.threads as u64
}

/// Does `register` allow this access? `user_access` is the accessing thread's
/// USER_ACCESS value; `privileged` is ring 0.
pub fn allows(register: &Register, write: bool, privileged: bool, user_access: u64) -> bool {
    if privileged {
        return if write { register.access.writes() } else { register.access.reads() };
    }
    match register.user {
        UserAccess::Denied => false,
        UserAccess::ReadIf(gate) => !write && user_access >> gate & 1 == 1,
        UserAccess::WriteIf(gate) => write && user_access >> gate & 1 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent_for_every_k_and_cw() {
        for counters in 1..=4 {
            for counter_width in 16..=64 {
                let params = |name: &str| match name {
                    "K" => counters,
                    "CW" => counter_width,
                    "E" => 256,
                    _ => 4,
                };
                crate::regmap::check_table(REGISTERS, 64, &params).unwrap();
            }
        }
    }

    #[test]
    fn privilege_rules_follow_the_table() {
        assert!(allows(&TSC, false, false, 0b001) && !allows(&TSC, false, false, 0b110));
        assert!(!allows(&TSC, true, false, 0b111) && allows(&TSC, true, true, 0));
        assert!(allows(&PERF_CNTR, false, false, 0b010) && !allows(&PERF_CNTR, true, false, 0b111));
        assert!(allows(&SPFLT, true, false, 0b100) && !allows(&SPFLT, false, true, 0b111));
        assert!(allows(&PERF_GLOBAL_OVF_CTRL, false, true, 0) && !allows(&PERF_GLOBAL_STATUS, true, true, 0));
        assert!(!allows(&PMU_ID, true, true, 0) && !allows(&PMU_ID, false, false, 0b111));
        let params = super::super::params::PmuParams::with_default_table(4, 2, 40);
        assert_eq!(id_value(&params, 3), 0x504D_0308_2028_0204);
        assert!(!allows(&TRACE_CTRL, false, false, 0b111) && allows(&TRACE_DROPPED, true, true, 0));
    }
}
