//! §6: the fields of PERF_EVTSEL[i] (seed 001 §1.4.3), as constants for building
//! register values and as a decoded view for counting (§4).

/// EVENT, bits [7:0]: the event code.
pub const EVENT_SHIFT: u32 = 0;
/// UMASK, bits [15:8]: the unit mask.
pub const UMASK_SHIFT: u32 = 8;
/// USR, bit 16: count while the thread runs in ring 3.
pub const USR: u64 = 1 << 16;
/// OS, bit 17: count while the thread runs in ring 0.
pub const OS: u64 = 1 << 17;
/// E, bit 18: count deasserted-to-asserted transitions of the condition (§4.5).
pub const E: u64 = 1 << 18;
/// INT, bit 20: the counter's overflow raises pmi (§4).
pub const INT: u64 = 1 << 20;
/// ANY, bit 21: sum the event over all threads (§4.2).
pub const ANY: u64 = 1 << 21;
/// EN, bit 22: the counter counts (ANDed with PERF_GLOBAL_CTRL).
pub const EN: u64 = 1 << 22;
/// INV, bit 23: invert the CMASK comparison (§4.4).
pub const INV: u64 = 1 << 23;
/// CMASK, bits [31:24]: count cycles with at least CMASK occurrences (§4.4).
pub const CMASK_SHIFT: u32 = 24;
/// The bits a write keeps: [31:0] except the reserved bit 19 (§6).
pub const WRITABLE: u64 = 0xFFFF_FFFF & !(1 << 19);

/// One PERF_EVTSEL value split into its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventSelect {
    /// EVENT.
    pub event: u8,
    /// UMASK.
    pub umask: u8,
    /// USR.
    pub usr: bool,
    /// OS.
    pub os: bool,
    /// E.
    pub edge: bool,
    /// INT.
    pub int: bool,
    /// ANY.
    pub any: bool,
    /// EN.
    pub en: bool,
    /// INV.
    pub inv: bool,
    /// CMASK.
    pub cmask: u8,
}

impl EventSelect {
    /// The fields of a PERF_EVTSEL register value.
    pub fn decode(value: u64) -> Self {
        Self {
            event: (value >> EVENT_SHIFT) as u8,
            umask: (value >> UMASK_SHIFT) as u8,
            usr: value & USR != 0,
            os: value & OS != 0,
            edge: value & E != 0,
            int: value & INT != 0,
            any: value & ANY != 0,
            en: value & EN != 0,
            inv: value & INV != 0,
            cmask: (value >> CMASK_SHIFT) as u8,
        }
    }
}
