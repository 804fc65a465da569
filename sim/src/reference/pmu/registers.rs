//! §6: which register an address names in a PMU with K counters per thread, and which
//! bits of each register exist (bits not listed read 0 and ignore writes).
use super::addr;
use super::evtsel;

/// A register of the §6 table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Register {
    PmuId,
    Tsc,
    Counter(usize),
    EventSelect(usize),
    SpfltControl,
    GlobalStatus,
    GlobalOvfCtrl,
    GlobalCtrl,
    Shadow(usize),
    ShadowCtrl,
    FreezeCtrl,
    UserAccess,
    Spflt,
    /// Part D: shared by all banks, like the TSC.
    TraceCtrl,
    TracePid,
    TraceDropped,
    /// §15.1: shared by all banks; only with a profile table.
    ProfileCtrl,
    ProfileEvicted,
}

impl Register {
    /// The register at `address` with `counters` (K) counters per bank, or None for an
    /// address the table does not list (§5: such an access is denied). 0x20+i, 0x28+i
    /// and 0x30+i exist only for i < K; 0x43 and 0x44 only with a profile table.
    pub(super) fn decode(address: u8, counters: usize, profile: bool) -> Option<Register> {
        let indexed = |base: u8| {
            let index = address.wrapping_sub(base) as usize;
            (address >= base && index < counters).then_some(index)
        };
        if let Some(i) = indexed(addr::PERF_CNTR) {
            return Some(Register::Counter(i));
        }
        if let Some(i) = indexed(addr::PERF_EVTSEL) {
            return Some(Register::EventSelect(i));
        }
        if let Some(i) = indexed(addr::SHADOW) {
            return Some(Register::Shadow(i));
        }
        match address {
            addr::PMU_ID => Some(Register::PmuId),
            addr::TSC => Some(Register::Tsc),
            addr::PERF_SPFLT_CONTROL => Some(Register::SpfltControl),
            addr::PERF_GLOBAL_STATUS => Some(Register::GlobalStatus),
            addr::PERF_GLOBAL_OVF_CTRL => Some(Register::GlobalOvfCtrl),
            addr::PERF_GLOBAL_CTRL => Some(Register::GlobalCtrl),
            addr::SHADOW_CTRL => Some(Register::ShadowCtrl),
            addr::FREEZE_CTRL => Some(Register::FreezeCtrl),
            addr::USER_ACCESS => Some(Register::UserAccess),
            addr::SPFLT => Some(Register::Spflt),
            addr::TRACE_CTRL => Some(Register::TraceCtrl),
            addr::TRACE_PID => Some(Register::TracePid),
            addr::TRACE_DROPPED => Some(Register::TraceDropped),
            addr::PROFILE_CTRL if profile => Some(Register::ProfileCtrl),
            addr::PROFILE_EVICTED if profile => Some(Register::ProfileEvicted),
            _ => None,
        }
    }

    /// A register of the trace unit (§13) or its profile table (§15): one for the whole
    /// core, whatever bank the access selects.
    pub(super) fn is_trace(self) -> bool {
        matches!(
            self,
            Register::TraceCtrl
                | Register::TracePid
                | Register::TraceDropped
                | Register::ProfileCtrl
                | Register::ProfileEvicted
        )
    }
}

/// The widths that decide which bits of a register exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RegisterWidths {
    /// K.
    pub(super) counters: usize,
    /// CW.
    pub(super) counter_width: usize,
}

impl RegisterWidths {
    /// [K-1:0]: one bit per counter.
    pub(super) fn per_counter(&self) -> u64 {
        (1u64 << self.counters) - 1
    }

    /// [CW-1:0].
    pub(super) fn counter_value(&self) -> u64 {
        if self.counter_width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.counter_width) - 1
        }
    }

    /// The bits of `register` that a write keeps (§6 fields).
    pub(super) fn writable(&self, register: Register) -> u64 {
        let per_counter = self.per_counter();
        match register {
            // TRACE_DROPPED and PROFILE_EVICTED: any write clears them, whatever the data.
            Register::PmuId | Register::GlobalStatus | Register::TraceDropped | Register::ProfileEvicted => 0,
            Register::Tsc => u64::MAX,
            Register::Counter(_) | Register::Shadow(_) => self.counter_value(),
            Register::EventSelect(_) => evtsel::WRITABLE,
            Register::SpfltControl => per_counter | 1 << addr::USER_PREF_BIT,
            Register::GlobalOvfCtrl | Register::GlobalCtrl => per_counter,
            Register::ShadowCtrl => per_counter | per_counter << addr::RESTORE_ON_EXIT_SHIFT,
            Register::FreezeCtrl | Register::Spflt => 1,
            Register::UserAccess => addr::user_access::RESET,
            Register::TraceCtrl => addr::trace_ctrl::WRITABLE,
            Register::TracePid => 0xFFFF_FFFF,
            Register::ProfileCtrl => addr::profile_ctrl::WRITABLE,
        }
    }
}
