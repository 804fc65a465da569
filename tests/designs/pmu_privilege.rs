//! The register port's privilege rules (§5, §6 and seed 001 Table 1-1): every address
//! 0..=255, read and write, ring 0 and ring 3, under every USER_ACCESS value 0..=7 (set
//! in ring 0 in the bank under test); the expected reg_fault, read data (0 when denied,
//! the register's value when allowed), and for every write the affected register read
//! back in ring 0 (a denied write changes nothing, an allowed one keeps §6's bits).
//! reg_thread >= T is denied for everything; a read and a write in one cycle are checked
//! separately. The trace registers (0x40-0x42) are shared by all banks, like the TSC.
//! T = 3, K = 3, CW = 36 (D = 256, AW = 32); three engines in lockstep.

use crate::common::pmu::PmuBench;

/// A bench at (T, K, CW).
fn new_bench() -> PmuBench {
    PmuBench::default_table(T, K as usize, CW as usize)
}

const T: usize = 3;
const K: u8 = 3;
const CW: u32 = 36;

// §6 addresses.
const PMU_ID: u8 = 0x00;
const TSC: u8 = 0x10;
const CNTR: u8 = 0x20;
const EVTSEL: u8 = 0x28;
const SPFLT_CONTROL: u8 = 0x2C;
const STATUS: u8 = 0x2D;
const OVF_CTRL: u8 = 0x2E;
const GLOBAL_CTRL: u8 = 0x2F;
const SHADOW: u8 = 0x30;
const SHADOW_CTRL: u8 = 0x38;
const FREEZE_CTRL: u8 = 0x39;
const USER_ACCESS: u8 = 0x3E;
const SPFLT: u8 = 0x3F;
const TRACE_CTRL: u8 = 0x40;
const TRACE_PID: u8 = 0x41;
const TRACE_DROPPED: u8 = 0x42;
/// One past the highest listed address.
const END: u8 = 0x43;

fn within(addr: u8, base: u8) -> bool {
    (base..base + K).contains(&addr)
}

/// §6 written out: [ring-0 read, ring-0 write, ring-3 read, ring-3 write] at `addr` under `ua`.
fn allowed(addr: u8, ua: u64) -> [bool; 4] {
    let rw = [true, true, false, false];
    match addr {
        PMU_ID | STATUS => [true, false, false, false],
        TSC => [true, true, ua & 1 != 0, false],
        a if within(a, CNTR) => [true, true, ua & 2 != 0, false],
        a if within(a, EVTSEL) || within(a, SHADOW) => rw,
        SPFLT_CONTROL | OVF_CTRL | GLOBAL_CTRL | SHADOW_CTRL | FREEZE_CTRL | USER_ACCESS => rw,
        TRACE_CTRL | TRACE_PID | TRACE_DROPPED => rw,
        SPFLT => [false, true, false, ua & 4 != 0],
        _ => [false; 4],
    }
}

/// The bits a write stores (§6 fields; the rest read 0).
fn mask(addr: u8) -> u64 {
    let (k, cw) = ((1u64 << K) - 1, (1u64 << CW) - 1);
    match addr {
        a if within(a, CNTR) || within(a, SHADOW) => cw,
        a if within(a, EVTSEL) => 0xFFFF_FFFF & !(1 << 19),
        SPFLT_CONTROL => 1 << 63 | k,
        GLOBAL_CTRL => k,
        SHADOW_CTRL => k << 8 | k,
        FREEZE_CTRL => 1,
        USER_ACCESS => 7,
        TRACE_CTRL => 0x33,
        TRACE_PID => 0xFFFF_FFFF,
        _ => 0, // TRACE_DROPPED: any write clears it
    }
}

/// The bench with what each register should hold: per-bank registers (the shared
/// trace registers kept equal in every bank) and the shared TSC.
struct Port {
    b: PmuBench,
    regs: [[u64; END as usize]; T],
    tsc: u64,
    tsc_cycle: u64,
}

impl Port {
    /// Reset, then distinct non-zero values in every bank (no EVTSEL with EN; no events).
    fn new() -> Self {
        let b = new_bench();
        let mut p = Port { b, regs: [[0; END as usize]; T], tsc: 0, tsc_cycle: 0 };
        assert_eq!(p.b.reset(), Default::default(), "outputs 0 after reset");
        p.tsc_cycle = p.b.cycle;
        for t in 0..T {
            let n = t as u64;
            p.regs[t][USER_ACCESS as usize] = 7; // reset value
            for i in 0..K {
                let m = n * K as u64 + i as u64 + 1;
                p.write(t, true, CNTR + i, ((n + 1) << 32) | (0x111 * m));
                p.write(t, true, EVTSEL + i, (0x11 * m) << 24 | 1 << 20 | 1 << 18 | 1 << 16);
                p.write(t, true, SHADOW + i, 0xABC << 20 | m);
            }
            p.write(t, true, SPFLT_CONTROL, (n & 1) << 63 | (n + 1));
            p.write(t, true, GLOBAL_CTRL, 0b101 ^ n);
            p.write(t, true, SHADOW_CTRL, (6 - n) << 8 | (n + 1));
            p.write(t, true, FREEZE_CTRL, n & 1);
            p.write(t, true, USER_ACCESS, [7, 0, 5][t]);
        }
        p
    }

    /// What a ring-0 read of `addr` in `bank` returns in the next cycle.
    fn value(&self, bank: usize, addr: u8) -> u64 {
        match addr {
            PMU_ID => {
                T as u64 | (K as u64) << 8 | (CW as u64) << 16 | 32 << 24 | 8 << 32 | (bank as u64) << 40 | 0x504D << 48
            }
            TSC => self.tsc.wrapping_add(self.b.cycle - self.tsc_cycle),
            a if a < END => self.regs[bank][a as usize],
            _ => 0,
        }
    }

    fn read(&mut self, bank: usize, ring0: bool, addr: u8, ok: bool) {
        let expected = if ok { self.value(bank, addr) } else { 0 };
        let got = self.b.read_as(bank as u8, ring0, addr);
        assert_eq!(got, (expected, !ok), "read of {addr:#04x}, bank {bank}, ring {}", if ring0 { 0 } else { 3 });
    }

    fn write(&mut self, bank: usize, ring0: bool, addr: u8, data: u64) {
        let ok = allowed(addr, self.regs[bank][USER_ACCESS as usize])[if ring0 { 1 } else { 3 }];
        if ok {
            match addr {
                TSC => (self.tsc, self.tsc_cycle) = (data, self.b.cycle + 1),
                SPFLT => {
                    self.regs[bank][SPFLT_CONTROL as usize] =
                        self.regs[bank][SPFLT_CONTROL as usize] & !(1 << 63) | (data & 1) << 63
                }
                TRACE_CTRL | TRACE_PID | TRACE_DROPPED => {
                    self.regs.iter_mut().for_each(|regs| regs[addr as usize] = data & mask(addr))
                }
                a => self.regs[bank][a as usize] = data & mask(a),
            }
        }
        let fault = self.b.write_as(bank as u8, ring0, addr, data);
        assert_eq!(fault, !ok, "write of {addr:#04x}, bank {bank}, ring {}", if ring0 { 0 } else { 3 });
    }

    /// Every register readable in ring 0, every bank.
    fn snapshot(&mut self) {
        for bank in 0..T {
            for addr in 0..END {
                if allowed(addr, 0)[0] {
                    self.read(bank, true, addr, true);
                }
            }
        }
    }
}

#[test]
fn every_address_ring_and_direction_under_every_user_access() {
    let mut p = Port::new();
    for ua in 0..8u64 {
        let bank = ua as usize % T;
        p.write(bank, true, USER_ACCESS, ua);
        for other in 0..T {
            let ua = p.regs[other][USER_ACCESS as usize];
            p.read(other, false, TSC, ua & 1 != 0); // each bank follows its own USER_ACCESS
        }
        for addr in 0..=255u8 {
            let [r0, _, r3, _] = allowed(addr, ua);
            p.read(bank, true, addr, r0);
            p.read(bank, false, addr, r3);
            let before = p.regs[bank];
            for ring0 in [true, false] {
                // Data that flips every stored bit (SPFLT: USER_PREF).
                let data = match addr {
                    SPFLT => !(p.regs[bank][SPFLT_CONTROL as usize] >> 63),
                    _ => !p.value(bank, addr),
                };
                p.write(bank, ring0, addr, data);
                match addr {
                    SPFLT => p.read(bank, true, SPFLT_CONTROL, true),
                    OVF_CTRL => p.read(bank, true, STATUS, true),
                    a if allowed(a, 0)[0] => p.read(bank, true, a, true),
                    _ => {}
                }
            }
            for a in 0..END {
                if p.regs[bank][a as usize] != before[a as usize] {
                    let old = before[a as usize];
                    p.write(bank, true, a, old); // put back what the allowed writes changed
                }
            }
        }
        p.snapshot(); // unlisted addresses changed nothing in any bank
    }
}

#[test]
fn a_thread_at_or_above_t_is_denied_everything() {
    let mut p = Port::new();
    (0..T).for_each(|t| p.write(t, true, USER_ACCESS, 7));
    for addr in 0..=255u8 {
        for ring0 in [true, false] {
            assert_eq!(p.b.read_as(3, ring0, addr), (0, true), "read of {addr:#04x} from thread 3");
            assert!(p.b.write_as(3, ring0, addr, !0), "write of {addr:#04x} from thread 3");
        }
    }
    p.snapshot();
}

/// One cycle with a read and a write of `addr` together: (read data, fault).
fn both(p: &mut Port, bank: u8, ring0: bool, addr: u8, data: u64) -> (u64, bool) {
    let i = &mut p.b.inputs;
    (i.reg_thread, i.reg_priv, i.reg_addr, i.reg_wdata, i.reg_read, i.reg_write) =
        (bank, ring0, addr, data, true, true);
    let out = p.b.step();
    (out.reg_rdata, out.reg_fault)
}

#[test]
fn a_read_and_a_write_in_one_cycle_are_checked_separately() {
    // USER_ACCESS: bank 0 = 7, bank 1 = 0, bank 2 = 5.
    let mut p = Port::new();
    // Both allowed: the read sees the value before the write, which acts.
    let old = p.value(1, CNTR + 1);
    assert_eq!(both(&mut p, 1, true, CNTR + 1, 42), (old, false), "ring 0 PERF_CNTR[1]");
    p.regs[1][(CNTR + 1) as usize] = 42;
    p.read(1, true, CNTR + 1, true);
    assert_eq!(both(&mut p, 0, true, OVF_CTRL, 0b111), (0, false), "ring 0 OVF_CTRL reads 0");
    // Read allowed, write denied: the read's data and reg_fault = 1; nothing written.
    let tsc = p.value(0, TSC);
    assert_eq!(both(&mut p, 0, false, TSC, 5), (tsc, true), "ring 3 RDTSC with a TSC write");
    p.read(0, true, TSC, true);
    let count = p.value(0, CNTR);
    assert_eq!(both(&mut p, 0, false, CNTR, 5), (count, true), "ring 3 RDPMC with a counter write");
    p.read(0, true, CNTR, true);
    let id = p.value(2, PMU_ID);
    assert_eq!(both(&mut p, 2, true, PMU_ID, 0), (id, true), "ring 0 PMU_ID read and write");
    // Read denied, write allowed: read data 0, reg_fault = 1, the write acts.
    assert_eq!(p.regs[2][SPFLT_CONTROL as usize] >> 63, 0);
    assert_eq!(both(&mut p, 2, false, SPFLT, 1), (0, true), "ring 3 SPFLT (USER_ACCESS[2] = 1)");
    p.regs[2][SPFLT_CONTROL as usize] |= 1 << 63;
    p.read(2, true, SPFLT_CONTROL, true);
    assert_eq!(both(&mut p, 2, true, SPFLT, 0), (0, true), "ring 0 SPFLT");
    p.regs[2][SPFLT_CONTROL as usize] &= !(1 << 63);
    p.read(2, true, SPFLT_CONTROL, true);
    // Both denied.
    assert_eq!(both(&mut p, 1, false, CNTR, 5), (0, true), "ring 3 counter access with USER_ACCESS 0");
    assert_eq!(both(&mut p, 3, true, CNTR, 5), (0, true), "thread 3");
    let out = p.b.step();
    assert_eq!((out.reg_rdata, out.reg_fault), (0, false), "a cycle without access");
    p.snapshot();
}
