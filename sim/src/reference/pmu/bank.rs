//! §6: one thread's register bank (general counters, event selects, shadows and the
//! control registers) with the per-counter flip-flops of §4.5 (previous condition).
//! Values are stored with only their §6 bits, so a read returns them as they are.
use super::addr::{self, user_access};
use super::evtsel::EventSelect;
use super::registers::{Register, RegisterWidths};

/// The registers and flip-flops of thread t.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Bank {
    /// PERF_CNTR[i], [CW-1:0].
    pub(super) counters: Vec<u64>,
    /// PERF_EVTSEL[i], the §6 fields only.
    pub(super) event_selects: Vec<u64>,
    /// SHADOW[i], [CW-1:0] (§10).
    pub(super) shadows: Vec<u64>,
    /// §4.5's prev: the condition of the previous cycle, per counter.
    pub(super) previous_conditions: Vec<bool>,
    /// PERF_SPFLT_CONTROL: [K-1:0] SPFLT_CTRL, [63] USER_PREF.
    pub(super) spflt_control: u64,
    /// PERF_GLOBAL_STATUS: [K-1:0] sticky overflow bits.
    pub(super) global_status: u64,
    /// PERF_GLOBAL_CTRL: [K-1:0] counter enables.
    pub(super) global_ctrl: u64,
    /// SHADOW_CTRL: [K-1:0] SAVE_ON_ENTRY, [8+K-1:8] RESTORE_ON_EXIT.
    pub(super) shadow_ctrl: u64,
    /// FREEZE_CTRL: [0] FREEZE_UNMARKED.
    pub(super) freeze_ctrl: u64,
    /// USER_ACCESS: [2:0].
    pub(super) user_access: u64,
}

impl Bank {
    /// The bank after reset: all 0 except USER_ACCESS = 0x7 (§6).
    pub(super) fn reset(counters: usize) -> Self {
        Self {
            counters: vec![0; counters],
            event_selects: vec![0; counters],
            shadows: vec![0; counters],
            previous_conditions: vec![false; counters],
            spflt_control: 0,
            global_status: 0,
            global_ctrl: 0,
            shadow_ctrl: 0,
            freeze_ctrl: 0,
            user_access: user_access::RESET,
        }
    }

    /// PERF_EVTSEL[i] decoded.
    pub(super) fn event_select(&self, counter: usize) -> EventSelect {
        EventSelect::decode(self.event_selects[counter])
    }

    /// PERF_GLOBAL_CTRL[i].
    pub(super) fn globally_enabled(&self, counter: usize) -> bool {
        self.global_ctrl >> counter & 1 == 1
    }

    /// SPFLT_CTRL[i]: counter i obeys USER_PREF.
    pub(super) fn obeys_user_pref(&self, counter: usize) -> bool {
        self.spflt_control >> counter & 1 == 1
    }

    /// USER_PREF (PERF_SPFLT_CONTROL[63]).
    pub(super) fn user_pref(&self) -> bool {
        self.spflt_control >> addr::USER_PREF_BIT & 1 == 1
    }

    /// FREEZE_CTRL.FREEZE_UNMARKED (§11).
    pub(super) fn freeze_unmarked(&self) -> bool {
        self.freeze_ctrl & 1 == 1
    }

    /// SHADOW_CTRL.SAVE_ON_ENTRY[i] (§10).
    pub(super) fn saves_on_entry(&self, counter: usize) -> bool {
        self.shadow_ctrl >> counter & 1 == 1
    }

    /// SHADOW_CTRL.RESTORE_ON_EXIT[i] (§10).
    pub(super) fn restores_on_exit(&self, counter: usize) -> bool {
        self.shadow_ctrl >> (addr::RESTORE_ON_EXIT_SHIFT as usize + counter) & 1 == 1
    }

    /// §4: pmi of this thread = OR over i of (STATUS[i] AND EVTSEL[i].INT), from the
    /// registers alone.
    pub(super) fn pmi(&self) -> bool {
        (0..self.counters.len()).any(|i| self.global_status >> i & 1 == 1 && self.event_select(i).int)
    }

    /// What a read of a bank register returns now (PMU_ID, TSC and the trace and profile
    /// registers are not the bank's).
    /// §6/§9: PERF_GLOBAL_OVF_CTRL reads 0; SPFLT reads are denied before this.
    pub(super) fn read(&self, register: Register) -> u64 {
        match register {
            Register::Counter(i) => self.counters[i],
            Register::EventSelect(i) => self.event_selects[i],
            Register::SpfltControl => self.spflt_control,
            Register::GlobalStatus => self.global_status,
            Register::GlobalCtrl => self.global_ctrl,
            Register::Shadow(i) => self.shadows[i],
            Register::ShadowCtrl => self.shadow_ctrl,
            Register::FreezeCtrl => self.freeze_ctrl,
            Register::UserAccess => self.user_access,
            Register::PmuId
            | Register::Tsc
            | Register::GlobalOvfCtrl
            | Register::Spflt
            | Register::TraceCtrl
            | Register::TracePid
            | Register::TraceDropped
            | Register::ProfileCtrl
            | Register::ProfileEvicted => 0,
        }
    }

    /// §7: an allowed write to a control register, taking effect from the next cycle
    /// (the caller applies it after this edge's counting). Counters, shadows, status
    /// and TSC have their own precedence rules and the trace and profile registers are
    /// the trace unit's: none of them is written here.
    pub(super) fn write_control(&mut self, register: Register, data: u64, widths: RegisterWidths) {
        let kept = data & widths.writable(register);
        match register {
            Register::EventSelect(i) => self.event_selects[i] = kept,
            Register::SpfltControl => self.spflt_control = kept,
            Register::GlobalCtrl => self.global_ctrl = kept,
            Register::ShadowCtrl => self.shadow_ctrl = kept,
            Register::FreezeCtrl => self.freeze_ctrl = kept,
            Register::UserAccess => self.user_access = kept,
            Register::Spflt => {
                // §6: SPFLT sets USER_PREF from wdata[0]; SPFLT_CTRL[K-1:0] is kept.
                let user_pref = 1u64 << addr::USER_PREF_BIT;
                self.spflt_control = self.spflt_control & !user_pref | kept << addr::USER_PREF_BIT;
            }
            Register::PmuId
            | Register::Tsc
            | Register::Counter(_)
            | Register::Shadow(_)
            | Register::GlobalStatus
            | Register::GlobalOvfCtrl
            | Register::TraceCtrl
            | Register::TracePid
            | Register::TraceDropped
            | Register::ProfileCtrl
            | Register::ProfileEvicted => {}
        }
    }
}
