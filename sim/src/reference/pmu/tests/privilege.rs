//! §5-§6: the privilege table, exhaustively. For every address, ring 0 and ring 3,
//! USER_ACCESS 0..=7, and a read, a write or both in one cycle: the fault bit, the read
//! data (0 when denied) and the state (unchanged by a denied write, compared with an
//! idle cycle). The allowed set is written out here from the §6 table on its own.
use super::super::ReferencePmu;
use super::{knc_config, Bench};
use crate::ports::pmu::PmuInputs;

const THREADS: usize = 2;
const COUNTERS: usize = 3;
const THREAD: usize = 1;
const WDATA: u64 = 0xA5A5_5A5A_F0F0_0F0F;

/// §6 by address (K = 3): (ring-0 read, ring-0 write, ring-3 read, ring-3 write).
fn table_allows(address: u8, user_access: u64) -> (bool, bool, bool, bool) {
    let indexed = |base: u8| (base..base + COUNTERS as u8).contains(&address);
    let ring0_rw = indexed(0x20)
        || indexed(0x28)
        || indexed(0x30)
        || [0x10, 0x2C, 0x2E, 0x2F, 0x38, 0x39, 0x3E, 0x40, 0x41, 0x42].contains(&address);
    let ring0_read = ring0_rw || address == 0x00 || address == 0x2D;
    let ring0_write = ring0_rw || address == 0x3F;
    let ring3_read = (address == 0x10 && user_access & 1 != 0) || (indexed(0x20) && user_access & 2 != 0);
    let ring3_write = address == 0x3F && user_access & 4 != 0;
    (ring0_read, ring0_write, ring3_read, ring3_write)
}

/// A PMU with some state in bank 1, USER_ACCESS = `user_access` there, and the shared
/// TRACE_CTRL (TRACE_EN, THREAD 2 >= T: no block ends) and TRACE_PID, the latter
/// written through bank 0.
fn prepared(user_access: u64) -> ReferencePmu {
    let mut bench = Bench::new(knc_config(THREADS, COUNTERS, 40));
    bench.write(THREAD, 0x21, 0x12_3456_789A);
    bench.write(THREAD, 0x2A, 0x0042_0016);
    bench.write(THREAD, 0x32, 0x77);
    bench.write(THREAD, 0x38, 0x0105);
    bench.write(THREAD, 0x40, 0x21);
    bench.write(0, 0x41, 0x9876_5432);
    bench.write(THREAD, 0x3E, user_access);
    bench.pmu
}

/// What a ring-0 read of `address` in bank 1 returns with `pmu`'s state (§6).
fn expected_read(pmu: &ReferencePmu, address: u8, user_access: u64) -> u64 {
    match address {
        0x00 => {
            let (aw, log2_d) = (32, 8);
            0x504D << 48
                | (THREAD as u64) << 40
                | log2_d << 32
                | aw << 24
                | 40 << 16
                | (COUNTERS as u64) << 8
                | THREADS as u64
        }
        0x40 => 0x21,
        0x41 => 0x9876_5432,
        0x10 => pmu.tsc(),
        0x21 => 0x12_3456_789A,
        0x2A => 0x0042_0016,
        0x32 => 0x77,
        0x38 => 0x0105,
        0x3E => user_access,
        _ => 0,
    }
}

fn access(pmu: &mut ReferencePmu, thread: u8, address: u8, privileged: bool, read: bool, write: bool) -> (u64, bool) {
    let inputs = PmuInputs {
        reg_thread: thread,
        reg_priv: privileged,
        reg_addr: address,
        reg_wdata: WDATA,
        reg_read: read,
        reg_write: write,
        ..PmuInputs::default()
    };
    let outputs = pmu.step(&inputs);
    (outputs.reg_rdata, outputs.reg_fault)
}

/// `pmu` and `idle` after one more idle cycle (which clears the port outputs) are equal.
fn same_state(mut pmu: ReferencePmu, mut idle: ReferencePmu) -> bool {
    pmu.step(&PmuInputs::default());
    idle.step(&PmuInputs::default());
    pmu == idle
}

#[test]
fn every_address_privilege_and_user_access_follows_the_table() {
    for user_access in 0..=7u64 {
        let start = prepared(user_access);
        let mut idle = start.clone();
        idle.step(&PmuInputs::default());
        for address in 0..=255u8 {
            let (ring0_read, ring0_write, ring3_read, ring3_write) = table_allows(address, user_access);
            for privileged in [true, false] {
                let (read_ok, write_ok) =
                    if privileged { (ring0_read, ring0_write) } else { (ring3_read, ring3_write) };
                for (read, write) in [(true, false), (false, true), (true, true)] {
                    let case = format!("ua {user_access} addr {address:#04x} priv {privileged} r {read} w {write}");
                    let mut pmu = start.clone();
                    let (rdata, fault) = access(&mut pmu, THREAD as u8, address, privileged, read, write);
                    assert_eq!(fault, (read && !read_ok) || (write && !write_ok), "{case}: fault");
                    let read_value = expected_read(&start, address, user_access);
                    assert_eq!(rdata, if read && read_ok { read_value } else { 0 }, "{case}: rdata");
                    if !(write && write_ok) {
                        assert!(same_state(pmu, idle.clone()), "{case}: state changed");
                    }
                }
            }
        }
    }
}

#[test]
fn a_bank_at_or_above_t_is_denied_whatever_the_access() {
    let start = prepared(7);
    let mut idle = start.clone();
    idle.step(&PmuInputs::default());
    for thread in THREADS as u8..4 {
        for address in 0..=255u8 {
            for privileged in [true, false] {
                for (read, write) in [(true, false), (false, true), (true, true)] {
                    let mut pmu = start.clone();
                    let (rdata, fault) = access(&mut pmu, thread, address, privileged, read, write);
                    assert_eq!((rdata, fault), (0, true), "thread {thread} addr {address:#04x}");
                    assert!(same_state(pmu, idle.clone()), "thread {thread} addr {address:#04x}: state changed");
                }
            }
        }
    }
}

#[test]
fn no_access_never_faults() {
    let mut pmu = prepared(0);
    for (thread, address) in [(3, 0x00), (1, 0xFF), (0, 0x3F), (1, 0x40)] {
        assert_eq!(access(&mut pmu, thread, address, false, false, false), (0, false));
    }
}

#[test]
fn a_read_and_a_write_together_are_checked_separately() {
    // Ring 3 with RDTSC: the read is allowed and sees the TSC before the edge, the
    // write is denied (fault) and the TSC just counts.
    let mut pmu = prepared(7);
    let tsc = pmu.tsc();
    assert_eq!(access(&mut pmu, THREAD as u8, 0x10, false, true, true), (tsc, true));
    assert_eq!(pmu.tsc(), tsc + 1);
    // Ring 0 on a counter: the read sees the value before the write, which acts.
    assert_eq!(access(&mut pmu, THREAD as u8, 0x21, true, true, true), (0x12_3456_789A, false));
    assert_eq!(pmu.counter(THREAD, 1), WDATA & 0xFF_FFFF_FFFF);
    // Ring 0 on SPFLT: the read is denied, the write still sets USER_PREF.
    assert_eq!(access(&mut pmu, THREAD as u8, 0x3F, true, true, true), (0, true));
    assert_eq!(access(&mut pmu, THREAD as u8, 0x2C, true, true, false), (1 << 63, false));
}
