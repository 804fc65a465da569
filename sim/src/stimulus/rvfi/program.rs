//! The walk's program: what is at each address (placed the first time the walk gets
//! there, forms.rs, and kept, user code and kernel code apart) and what retiring it
//! does: the next PC, `rvfi_trap`, the memory access, and the calls and handlers it
//! starts or ends. Two escapes keep a random program from running in circles for
//! ever: the return of the outermost handler sometimes switches to a new user program
//! (a context switch), and a handler that retires `HANDLER_WATCHDOG` instructions
//! without returning has its kernel code placed anew, so that it returns.
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::encode::ILLEGAL;
use super::forms::{length, Access, Form};
use super::walk::{Call, HartWalk};

/// The deepest call stack the walk keeps (deeper calls forget the oldest).
const MAX_CALL_DEPTH: usize = 16;
/// The most instructions a handler retires before its code is placed anew.
const HANDLER_WATCHDOG: usize = 256;

impl HartWalk {
    /// The instruction at the current PC: the one placed there before, or a new one.
    pub(super) fn form_here(&mut self, rng: &mut ChaCha8Rng) -> Form {
        if let Some(handler) = self.handlers.last_mut() {
            handler.retired += 1;
            if handler.retired > HANDLER_WATCHDOG {
                (handler.retired, handler.left) = (0, 0);
                self.program[1].clear();
            }
        }
        let region = !self.handlers.is_empty() as usize;
        if let Some(&form) = self.program[region].get(&self.pc) {
            return form;
        }
        let form = self.new_form(rng);
        self.program[region].insert(self.pc, form);
        form
    }

    fn new_form(&mut self, rng: &mut ChaCha8Rng) -> Form {
        let in_handler = !self.handlers.is_empty();
        if let Some(handler) = self.handlers.last_mut() {
            if handler.left == 0 {
                let calls_under_way = !handler.calls.is_empty();
                return if calls_under_way { self.return_form(rng) } else { self.handler_return_form(rng, self.mode) };
            }
            handler.left -= 1;
        }
        if self.burst_left > 0 {
            self.burst_left -= 1;
            return self.control_transfer(rng);
        }
        if rng.gen_ratio(1, 100) {
            self.burst_left = rng.gen_range(2..8);
        }
        match rng.gen_range(0..100) {
            0..=76 => self.straight(rng, in_handler),
            77..=95 => self.control_transfer(rng),
            _ if in_handler => self.straight(rng, in_handler),
            _ => self.exception(rng),
        }
    }

    /// Retire `form` at the current PC: the next PC, `rvfi_trap` and the access.
    pub(super) fn execute(&mut self, form: Form, rng: &mut ChaCha8Rng) -> (u64, bool, Access) {
        let fall_through = self.after(length(form.insn()) as i64);
        let next = match form {
            Form::Straight { access, .. } => return (fall_through, false, access),
            Form::Branch { offset, .. } if rng.gen_bool(if offset < 0 { 0.75 } else { 0.4 }) => self.after(offset),
            Form::Branch { .. } => fall_through,
            Form::Jump { target, .. } => target,
            Form::Call { link, target, .. } => {
                let calls = self.calls();
                if calls.len() == MAX_CALL_DEPTH {
                    calls.remove(0);
                }
                calls.push(Call { return_pc: fall_through, link });
                target.unwrap_or_else(|| self.function(rng))
            }
            Form::Tail { .. } => self.function(rng),
            Form::Return { .. } => match self.calls().pop() {
                Some(call) => call.return_pc,
                None => self.function(rng),
            },
            Form::Trap { insn, trap } => {
                let length = if insn == ILLEGAL && !self.compressed { 4 } else { length(insn) };
                let resume = self.after(length as i64);
                return (self.enter(resume, rng), trap, Access::None);
            }
            Form::HandlerReturn { .. } => {
                let handler = self.handlers.pop().expect("kernel code runs in a handler");
                self.mode = handler.resume_mode;
                if self.handlers.is_empty() && rng.gen_ratio(1, 10) {
                    self.program[0].clear();
                    self.user_calls.clear();
                    self.user_code
                } else {
                    handler.resume_pc
                }
            }
        };
        (next, false, Access::None)
    }
}
