//! §10: kernel entry and exit from the one-cycle-late `kernel` and its previous value
//! (0 after reset), and the save and restore they trigger per counter through the
//! thread's own SHADOW_CTRL as it is during this cycle.
use super::bank::Bank;

/// Thread t's mode change seen during this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ModeChange {
    /// kernel[t] = 1 now and was 0 in the previous cycle.
    pub(super) entry: bool,
    /// kernel[t] = 0 now and was 1 in the previous cycle.
    pub(super) exit: bool,
}

impl ModeChange {
    /// The change from the previous cycle's `kernel` to this cycle's.
    pub(super) fn new(kernel: bool, previous_kernel: bool) -> Self {
        Self { entry: kernel && !previous_kernel, exit: !kernel && previous_kernel }
    }

    /// Entry with SAVE_ON_ENTRY[i]: SHADOW[i] takes the counter as it is during this
    /// cycle. Not gated by EN, GLOBAL_CTRL, the freeze or the event match: §10 names
    /// only SHADOW_CTRL.
    pub(super) fn saves(&self, bank: &Bank, counter: usize) -> bool {
        self.entry && bank.saves_on_entry(counter)
    }

    /// Exit with RESTORE_ON_EXIT[i]: the counter takes SHADOW[i] + inc.
    pub(super) fn restores(&self, bank: &Bank, counter: usize) -> bool {
        self.exit && bank.restores_on_exit(counter)
    }
}
