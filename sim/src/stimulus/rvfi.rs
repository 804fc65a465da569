//! Random RVFI retirement streams for T harts, reproducible from a seed: each hart
//! walks a small random program (rvfi/walk.rs) and retires at most one instruction per
//! cycle (NRET = 1), with real instruction words (rvfi/encode.rs) and consistent PCs
//! (each retirement's `rvfi_pc_wdata` is the next one's `rvfi_pc_rdata`, except where a
//! handler's first instruction, `rvfi_intr` = 1, takes an interrupt). The program is
//! placed as the walk first reaches each address and then kept (rvfi/forms.rs,
//! rvfi/program.rs), so loops, functions and the handler retire the same words each
//! time they run and block addresses recur.
//!
//! The walk mixes straight-line code (arithmetic, MUL/DIV, CSR reads, fences), loads
//! and stores of every width with their byte masks, branches taken and not, JAL and
//! JALR calls (linking in ra or t0) and returns through the link register, plain and
//! tail jumps, the compressed forms when the core has the C extension (C.JAL only on
//! RV32, C.ADDIW on RV64), bursts of back-to-back control transfers, ECALL, EBREAK,
//! C.EBREAK, illegal instructions and faulting loads and branches that trap into a
//! handler, asynchronous interrupts (also nested in a handler), handlers that call and
//! return and end with MRET (SRET from S mode) or, under the handler kernel rule,
//! PicoRV32's `retirq`, and idle cycles (`rvfi_valid` = 0), short and long. For the
//! mode kernel rule user code runs in U (mode 0), handlers in S (1) or M (3), and each
//! hart boots in M and drops to U with MRET; for the handler rule every instruction
//! reports mode 3, as PicoRV32 does, and user code sometimes retires a stray return.
mod encode;
mod forms;
mod program;
mod walk;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::reference::rvfi::{KernelRule, Retirement, Xlen};
use walk::HartWalk;

/// The core whose retirements are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RvfiCore {
    /// T, 1..=4 harts.
    pub harts: usize,
    /// XLEN.
    pub xlen: Xlen,
    /// The core has the C extension (compressed instructions).
    pub compressed: bool,
    /// The kernel rule the stream is made for (mode changes or handler entries).
    pub kernel_rule: KernelRule,
}

/// The retirement stream of one core.
pub struct RvfiStimulus {
    rng: ChaCha8Rng,
    core: RvfiCore,
    walks: Vec<HartWalk>,
}

impl RvfiStimulus {
    /// The stream of `core` from `seed`, starting at reset.
    pub fn new(core: RvfiCore, seed: u64) -> Self {
        assert!((1..=4).contains(&core.harts), "harts {} is out of 1..=4", core.harts);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let walks = (0..core.harts).map(|hart| HartWalk::new(&core, hart, &mut rng)).collect();
        Self { rng, core, walks }
    }

    /// The core the stream is made for.
    pub fn core(&self) -> &RvfiCore {
        &self.core
    }

    /// The next cycle's ports: one retirement (or idle port) per hart, hart 0 first.
    pub fn next_cycle(&mut self) -> Vec<Retirement> {
        self.walks.iter_mut().map(|walk| walk.next(&mut self.rng)).collect()
    }
}

impl Iterator for RvfiStimulus {
    type Item = Vec<Retirement>;
    fn next(&mut self) -> Option<Vec<Retirement>> {
        Some(self.next_cycle())
    }
}
