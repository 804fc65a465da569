//! docs/pmu.md §15.1: the table's two registers as the table sees them: which one a read
//! names, and an allowed write at an edge (the register port's privilege and address
//! checks are the PMU's, §5).

/// A register of the profile table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileRegister {
    /// PROFILE_CTRL (0x43): [0] SUMMARIZE, [1] FLUSH (1 while a flush is under way).
    Control,
    /// PROFILE_EVICTED (0x44): [31:0] entries sent other than by a flush, saturating.
    Evicted,
}

/// An allowed write at an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileWrite {
    /// PROFILE_CTRL with this data: SUMMARIZE takes bit 0; bit 1 = 1 starts a flush
    /// unless one is under way; other bits are ignored.
    Control(u64),
    /// PROFILE_EVICTED: cleared whatever the data.
    Evicted,
}
