//! §5: one cycle of the register port. The read and the write of a cycle are checked
//! separately against the §6 table; the read sees the registers before the write, and
//! the fault flags either one being denied. An access is denied when the table does not
//! allow it at its privilege, when the address is not listed, or when reg_thread >= T.
use super::access::{allowed, Access};
use super::registers::Register;
use crate::ports::pmu::PmuInputs;

/// An allowed write, applied at this edge under §7's precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PortWrite {
    /// The bank written (TSC is shared, whatever the bank).
    pub(super) thread: usize,
    pub(super) register: Register,
    /// reg_wdata as given; the register keeps only its §6 bits.
    pub(super) data: u64,
}

/// What the port does in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PortCycle {
    /// reg_rdata after this edge: the register read, or 0 (no read, or a denied one).
    pub(super) read_data: u64,
    /// reg_fault after this edge.
    pub(super) fault: bool,
    /// The write, if there was one and it is allowed.
    pub(super) write: Option<PortWrite>,
}

/// The port during this cycle. `profile`: the PMU has a profile table (its registers
/// are in the map); `user_access` gives a bank's USER_ACCESS during this cycle; `read`
/// gives a register's value during this cycle.
pub(super) fn evaluate(
    inputs: &PmuInputs,
    threads: usize,
    counters: usize,
    profile: bool,
    user_access: impl Fn(usize) -> u64,
    read: impl Fn(usize, Register) -> u64,
) -> PortCycle {
    // §5: reg_thread is a 2-bit port; higher bits of the model's u8 do not exist.
    let thread = (inputs.reg_thread & 0b11) as usize;
    let register = if thread < threads { Register::decode(inputs.reg_addr, counters, profile) } else { None };
    let permitted =
        |access: Access| register.filter(|&register| allowed(register, access, inputs.reg_priv, user_access(thread)));
    let read_register = if inputs.reg_read { permitted(Access::Read) } else { None };
    let write_register = if inputs.reg_write { permitted(Access::Write) } else { None };
    let read_denied = inputs.reg_read && read_register.is_none();
    let write_denied = inputs.reg_write && write_register.is_none();
    PortCycle {
        read_data: read_register.map_or(0, |register| read(thread, register)),
        fault: read_denied || write_denied,
        write: write_register.map(|register| PortWrite { thread, register, data: inputs.reg_wdata }),
    }
}
