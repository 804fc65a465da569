//! One hart's random program walk: where it is (PC, privilege mode, call stack,
//! handlers under way), idle cycles, interrupts and traps into a handler, and each
//! cycle's port. What the program holds at each address and what retiring it does are
//! in program.rs and forms.rs.
use std::collections::HashMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::forms::{Access, Form};
use super::RvfiCore;
use crate::reference::rvfi::{KernelRule, Retirement, Xlen};

/// Functions per code region (user, kernel): calls go to one of them.
const FUNCTIONS: u64 = 24;

/// A call under way: where it returns and the register that holds the return address.
#[derive(Clone, Copy, Debug)]
pub(super) struct Call {
    pub(super) return_pc: u64,
    pub(super) link: u32,
}

/// A handler under way: where the code it interrupted resumes, in which mode, how many
/// more new instructions it places before its return, how many it has retired, and
/// its own calls.
#[derive(Clone, Debug)]
pub(super) struct Handler {
    pub(super) resume_pc: u64,
    pub(super) resume_mode: u8,
    pub(super) left: usize,
    pub(super) retired: usize,
    pub(super) calls: Vec<Call>,
}

/// One hart's walk.
#[derive(Clone, Debug)]
pub(super) struct HartWalk {
    pub(super) xlen: Xlen,
    pub(super) compressed: bool,
    pub(super) rule: KernelRule,
    pub(super) pc: u64,
    pub(super) mode: u8,
    pub(super) user_calls: Vec<Call>,
    pub(super) handlers: Vec<Handler>,
    /// The program placed so far: user code, kernel code.
    pub(super) program: [HashMap<u64, Form>; 2],
    /// The next retirement is a handler's first instruction.
    entering: bool,
    idle_left: usize,
    pub(super) burst_left: usize,
    vector: u64,
    pub(super) user_code: u64,
}

impl HartWalk {
    /// Hart `hart` at reset: under the mode rule it boots in M and drops to U with
    /// MRET; under the handler rule it starts in its user code, always in mode 3.
    pub(super) fn new(core: &RvfiCore, hart: usize, rng: &mut ChaCha8Rng) -> Self {
        let (kernel_code, user_base, vector_offset) = match (core.kernel_rule, core.xlen) {
            (KernelRule::Handler, _) => (0, 0x4000_0000, 0x10),
            (KernelRule::Mode, Xlen::Rv32) => (0x8000_0000, 0x1_0000, 0x100),
            (KernelRule::Mode, Xlen::Rv64) => (0xFFFF_FFFF_8000_0000, 0x40_0000_0000, 0x100),
        };
        let user_code = user_base + hart as u64 * 0x100_0000;
        let mut walk = Self {
            xlen: core.xlen,
            compressed: core.compressed,
            rule: core.kernel_rule,
            pc: user_code,
            mode: 3,
            user_calls: Vec::new(),
            handlers: Vec::new(),
            program: [HashMap::new(), HashMap::new()],
            entering: false,
            idle_left: 0,
            burst_left: 0,
            vector: kernel_code + vector_offset,
            user_code,
        };
        if core.kernel_rule == KernelRule::Mode {
            walk.pc = kernel_code;
            walk.push_handler(user_code, 0, rng);
        }
        walk
    }

    /// The next cycle's port.
    pub(super) fn next(&mut self, rng: &mut ChaCha8Rng) -> Retirement {
        if self.idle_left > 0 {
            self.idle_left -= 1;
            return Retirement::idle();
        }
        if rng.gen_ratio(1, 8) {
            self.idle_left = if rng.gen_ratio(1, 20) { rng.gen_range(4..40) } else { rng.gen_range(0..3) };
            return Retirement::idle();
        }
        let interrupt_rate = [0.01, 0.002, 0.002, 0.0][self.handlers.len().min(3)];
        if !self.entering && rng.gen_bool(interrupt_rate) {
            self.enter(self.pc, rng);
        }
        let (pc, mode, intr) = (self.pc, self.mode, std::mem::take(&mut self.entering));
        let form = self.form_here(rng);
        let (next, trap, access) = self.execute(form, rng);
        self.pc = next;
        let mut bytes = |width: u32| {
            let bytes = 1u32 << width;
            (((1u32 << bytes) - 1) << (rng.gen_range(0..self.xlen.bits() / 8 / bytes) * bytes)) as u8
        };
        let (mem_rmask, mem_wmask) = match access {
            Access::None => (0, 0),
            Access::Read(width) => (bytes(width), 0),
            Access::Write(width) => (0, bytes(width)),
        };
        let insn = form.insn();
        Retirement { valid: true, insn, trap, intr, mode, pc_rdata: pc, pc_wdata: next, mem_rmask, mem_wmask }
    }

    /// The call stack of the code under way (the innermost handler's, or the user's).
    pub(super) fn calls(&mut self) -> &mut Vec<Call> {
        match self.handlers.last_mut() {
            Some(handler) => &mut handler.calls,
            None => &mut self.user_calls,
        }
    }

    /// One of the functions of the code under way.
    pub(super) fn function(&self, rng: &mut ChaCha8Rng) -> u64 {
        let base = if self.handlers.is_empty() { self.user_code + 0x8000 } else { self.vector + 0x1000 };
        base.wrapping_add(rng.gen_range(0..FUNCTIONS) * 0x400) & self.xlen.pc_mask()
    }

    /// 2 with the C extension, else 4: the alignment of every address the walk reaches.
    pub(super) fn alignment(&self) -> u64 {
        if self.compressed {
            2
        } else {
            4
        }
    }

    /// The current PC plus `offset`, modulo 2^XLEN.
    pub(super) fn after(&self, offset: i64) -> u64 {
        self.pc.wrapping_add(offset as u64) & self.xlen.pc_mask()
    }

    fn push_handler(&mut self, resume_pc: u64, resume_mode: u8, rng: &mut ChaCha8Rng) {
        let left = rng.gen_range(0..12);
        self.handlers.push(Handler { resume_pc, resume_mode, left, retired: 0, calls: Vec::new() });
    }

    /// Enter a handler that returns to `resume`: its first instruction retires next,
    /// at the vector, in S or M (mode rule) or in mode 3 (handler rule). Returns the
    /// vector.
    pub(super) fn enter(&mut self, resume: u64, rng: &mut ChaCha8Rng) -> u64 {
        let mode = match self.rule {
            KernelRule::Mode if self.mode != 3 && rng.gen_bool(0.5) => 1,
            _ => 3,
        };
        self.push_handler(resume, self.mode, rng);
        self.mode = mode;
        self.entering = true;
        self.pc = self.vector;
        self.vector
    }
}
