//! §6: the register addresses of one thread's bank (seed 001's MSR numbers), written
//! here from the specification's register map so the model cross-checks the hardware's
//! own table, with the trace registers (0x40-0x42, §6 and §13) and the profile table's
//! (0x43-0x44, §15.1; in the map only when E > 0).

/// PMU_ID: read-only description of the PMU (§6 fields).
pub const PMU_ID: u8 = 0x00;
/// TSC: the core's 64-bit time-stamp counter, shared by all banks.
pub const TSC: u8 = 0x10;
/// PERF_CNTR[i] is at `PERF_CNTR + i` for i < K.
pub const PERF_CNTR: u8 = 0x20;
/// PERF_EVTSEL[i] is at `PERF_EVTSEL + i` for i < K.
pub const PERF_EVTSEL: u8 = 0x28;
/// PERF_SPFLT_CONTROL: [K-1:0] SPFLT_CTRL, [63] USER_PREF.
pub const PERF_SPFLT_CONTROL: u8 = 0x2C;
/// PERF_GLOBAL_STATUS: [K-1:0] sticky overflow bits, read-only.
pub const PERF_GLOBAL_STATUS: u8 = 0x2D;
/// PERF_GLOBAL_OVF_CTRL: [K-1:0] write 1 to clear a status bit; reads 0.
pub const PERF_GLOBAL_OVF_CTRL: u8 = 0x2E;
/// PERF_GLOBAL_CTRL: [K-1:0] counter enables.
pub const PERF_GLOBAL_CTRL: u8 = 0x2F;
/// SHADOW[i] is at `SHADOW + i` for i < K (§10).
pub const SHADOW: u8 = 0x30;
/// SHADOW_CTRL: [K-1:0] SAVE_ON_ENTRY, [8+K-1:8] RESTORE_ON_EXIT (§10).
pub const SHADOW_CTRL: u8 = 0x38;
/// FREEZE_CTRL: [0] FREEZE_UNMARKED (§11).
pub const FREEZE_CTRL: u8 = 0x39;
/// USER_ACCESS: [0] RDTSC, [1] RDPMC, [2] SPFLT allowed in ring 3; resets to 0x7.
pub const USER_ACCESS: u8 = 0x3E;
/// SPFLT: write-only; wdata[0] becomes USER_PREF (the SPFLT instruction).
pub const SPFLT: u8 = 0x3F;

/// TRACE_CTRL: [0] TRACE_EN, [1] PID_FILTER, [5:4] THREAD; shared by all banks.
pub const TRACE_CTRL: u8 = 0x40;
/// TRACE_PID: [31:0] the traced process id; shared by all banks.
pub const TRACE_PID: u8 = 0x41;
/// TRACE_DROPPED: [31:0] records dropped (saturating); any write clears it; shared.
pub const TRACE_DROPPED: u8 = 0x42;
/// PROFILE_CTRL: [0] SUMMARIZE, [1] FLUSH; shared; only with a profile table (§15.1).
pub const PROFILE_CTRL: u8 = 0x43;
/// PROFILE_EVICTED: [31:0] entries sent other than by a flush (saturating); any write
/// clears it; shared; only with a profile table (§15.1).
pub const PROFILE_EVICTED: u8 = 0x44;

/// SHADOW_CTRL's RESTORE_ON_EXIT field starts at this bit (§6).
pub const RESTORE_ON_EXIT_SHIFT: u32 = 8;
/// PERF_SPFLT_CONTROL's USER_PREF bit (§6).
pub const USER_PREF_BIT: u32 = 63;
/// PMU_ID's constant signature in [63:48] (§6).
pub const PMU_ID_SIGNATURE: u64 = 0x504D;
/// PMU_ID's AW field starts at this bit (§6).
pub const PMU_ID_AW_SHIFT: u32 = 24;
/// PMU_ID's log2 D field starts at this bit (§6).
pub const PMU_ID_LOG2_D_SHIFT: u32 = 32;
/// PMU_ID's log2 E field, [46:42], starts at this bit (§15.1; 0 without a table).
pub const PMU_ID_LOG2_E_SHIFT: u32 = 42;
/// PROFILE_CTRL fields (§15.1).
pub mod profile_ctrl {
    /// SUMMARIZE, bit 0: records are summed into the table instead of sent.
    pub const SUMMARIZE: u64 = 1 << 0;
    /// FLUSH, bit 1: a write of 1 starts a flush; reads 1 while one is under way.
    pub const FLUSH: u64 = 1 << 1;
    /// The bits a write keeps.
    pub const WRITABLE: u64 = SUMMARIZE | FLUSH;
}
/// TRACE_CTRL fields (§6, §13).
pub mod trace_ctrl {
    /// TRACE_EN, bit 0: block ends of the traced thread restart its counters and make records.
    pub const TRACE_EN: u64 = 1 << 0;
    /// PID_FILTER, bit 1: only block ends with pid[THREAD] = TRACE_PID make records.
    pub const PID_FILTER: u64 = 1 << 1;
    /// THREAD, bits [5:4]: the traced thread.
    pub const THREAD_SHIFT: u32 = 4;
    /// The bits a write keeps.
    pub const WRITABLE: u64 = TRACE_EN | PID_FILTER | 0b11 << THREAD_SHIFT;
}
/// USER_ACCESS bits (§5, §6).
pub mod user_access {
    /// Ring 3 may read the TSC (RDTSC).
    pub const RDTSC: u64 = 1 << 0;
    /// Ring 3 may read the general counters (RDPMC).
    pub const RDPMC: u64 = 1 << 1;
    /// Ring 3 may write SPFLT (the SPFLT instruction).
    pub const SPFLT: u64 = 1 << 2;
    /// USER_ACCESS after reset: the manual's behaviour, everything allowed.
    pub const RESET: u64 = 0x7;
}
