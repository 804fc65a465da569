//! §5 and §6: which accesses the register map allows at each privilege. Ring 0 has
//! the table's "ring 0" column (RDMSR/WRMSR); ring 3 may only read the TSC (RDTSC), read
//! the general counters (RDPMC) and write SPFLT, each while its USER_ACCESS bit is 1.
use super::addr::user_access;
use super::registers::Register;

/// A read or a write through the register port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    Read,
    Write,
}

/// Does the §6 table allow `access` to `register` at this privilege, with the accessing
/// bank's USER_ACCESS as it is during this cycle?
pub(super) fn allowed(register: Register, access: Access, privileged: bool, user_access_bits: u64) -> bool {
    if privileged {
        ring0_allows(register, access)
    } else {
        ring3_allows(register, access, user_access_bits)
    }
}

fn ring0_allows(register: Register, access: Access) -> bool {
    match register {
        // §6: PMU_ID and PERF_GLOBAL_STATUS are read-only, SPFLT is write-only.
        Register::PmuId | Register::GlobalStatus => access == Access::Read,
        Register::Spflt => access == Access::Write,
        _ => true,
    }
}

fn ring3_allows(register: Register, access: Access, user_access_bits: u64) -> bool {
    let granted = |bit: u64| user_access_bits & bit != 0;
    match (register, access) {
        (Register::Tsc, Access::Read) => granted(user_access::RDTSC),
        (Register::Counter(_), Access::Read) => granted(user_access::RDPMC),
        (Register::Spflt, Access::Write) => granted(user_access::SPFLT),
        _ => false,
    }
}
