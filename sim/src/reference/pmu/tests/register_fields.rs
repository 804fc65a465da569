//! §6 fields and reset values, the TSC (§4, §7), pmi (§4) and reset (§6): bits not
//! listed read 0 and ignore writes; registered outputs show cycle k's read after edge k.
use super::super::{addr, evtsel, ReferencePmu};
use super::{event_index, knc_config, select, Bench};
use crate::ports::pmu::{PmuInputs, PmuOutputs};

#[test]
fn reset_values_and_pmu_id_per_bank() {
    let mut bench = Bench::new(knc_config(4, 2, 40));
    for thread in 0..4 {
        // AW = 32 in [31:24], log2 D = log2 256 = 8 in [39:32].
        let id = 0x504D << 48 | (thread as u64) << 40 | 8 << 32 | 32 << 24 | 40 << 16 | 2 << 8 | 4;
        assert_eq!(bench.read(thread, addr::PMU_ID), id);
        assert_eq!(bench.read(thread, addr::USER_ACCESS), 0x7);
        for address in [0x20, 0x21, 0x28, 0x29, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x38, 0x39, 0x40, 0x41, 0x42] {
            assert_eq!(bench.read(thread, address), 0, "thread {thread} {address:#04x}");
        }
    }
}

#[test]
fn writes_keep_only_the_listed_bits() {
    let cw = 24;
    let mut bench = Bench::new(knc_config(2, 3, cw));
    let cases = [
        (addr::PERF_CNTR + 2, 0xFF_FFFF),
        (addr::PERF_EVTSEL + 1, 0xFFF7_FFFF),
        (addr::PERF_SPFLT_CONTROL, 1 << 63 | 0b111),
        (addr::PERF_GLOBAL_OVF_CTRL, 0),
        (addr::PERF_GLOBAL_CTRL, 0b111),
        (addr::SHADOW + 1, 0xFF_FFFF),
        (addr::SHADOW_CTRL, 0x707),
        (addr::FREEZE_CTRL, 1),
        (addr::USER_ACCESS, 0x7),
        (addr::TSC, u64::MAX),
        (addr::TRACE_CTRL, 0x33),
        (addr::TRACE_PID, 0xFFFF_FFFF),
        (addr::TRACE_DROPPED, 0),
    ];
    for (address, kept) in cases {
        bench.write(1, address, u64::MAX);
        assert_eq!(bench.read(1, address), kept, "{address:#04x}");
    }
    bench.write(1, addr::USER_ACCESS, 0);
    assert_eq!(bench.read(1, addr::USER_ACCESS), 0);
    assert_eq!(bench.read(0, addr::USER_ACCESS), 7, "banks are per thread");
    assert_eq!(bench.pmu.evtsel(1, 1), 0xFFF7_FFFF);
}

#[test]
fn spflt_sets_user_pref_from_bit_0_only() {
    let mut bench = Bench::new(knc_config(1, 2, 40));
    bench.write(0, addr::PERF_SPFLT_CONTROL, 0b10);
    bench.write(0, addr::SPFLT, 0xFFFF_FFFF_FFFF_FFFE);
    assert_eq!(bench.read(0, addr::PERF_SPFLT_CONTROL), 0b10);
    bench.write(0, addr::SPFLT, 1);
    assert_eq!(bench.read(0, addr::PERF_SPFLT_CONTROL), 1 << 63 | 0b10);
}

#[test]
fn the_tsc_counts_every_edge_is_shared_and_a_write_wins() {
    let mut bench = Bench::new(knc_config(2, 1, 40));
    assert_eq!(bench.read(0, addr::TSC), 0, "the cycle after the reset edge");
    assert_eq!(bench.read(1, addr::TSC), 1);
    bench.write(1, addr::TSC, 1000);
    assert_eq!(bench.pmu.tsc(), 1000);
    assert_eq!(bench.read(0, addr::TSC), 1000);
    assert_eq!(bench.read(0, addr::TSC), 1001);
    bench.write(0, addr::TSC, u64::MAX);
    bench.tick();
    assert_eq!(bench.pmu.tsc(), 0, "mod 2^64");
}

#[test]
fn pmi_is_status_and_int_from_the_registers() {
    let config = knc_config(2, 2, 16);
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let mut bench = Bench::new(config.clone());
    let fields = evtsel::USR | evtsel::OS | evtsel::EN;
    bench.write(1, addr::PERF_EVTSEL + 1, select(&config, "CPU_CLK_UNHALTED", fields | evtsel::INT));
    bench.write(1, addr::PERF_EVTSEL, select(&config, "CPU_CLK_UNHALTED", fields));
    bench.write(1, addr::PERF_GLOBAL_CTRL, 0b11);
    bench.write(1, addr::PERF_CNTR, 0xFFFF);
    bench.write(1, addr::PERF_CNTR + 1, 0xFFFF);
    bench.set_event(event, 1, 1);
    // Edge 1: the event is sampled; edge 2: counted, both counters overflow.
    assert_eq!(bench.tick().pmi, 0);
    assert_eq!((bench.tick().pmi, bench.pmu.global_status(1)), (0b10, 0b11));
    // INT set after the overflow raises pmi in the cycle after the write.
    let outputs = bench.write(1, addr::PERF_EVTSEL + 1, select(&config, "CPU_CLK_UNHALTED", fields));
    assert_eq!(outputs.pmi, 0);
    let outputs = bench.write(1, addr::PERF_EVTSEL, select(&config, "CPU_CLK_UNHALTED", fields | evtsel::INT));
    assert_eq!(outputs.pmi, 0b10);
    assert_eq!(bench.write(1, addr::PERF_GLOBAL_OVF_CTRL, 0b01).pmi, 0);
}

#[test]
fn reset_puts_everything_back_and_drops_the_inputs_it_samples() {
    let config = knc_config(2, 2, 40);
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let mut bench = Bench::new(config.clone());
    bench.write(0, addr::PERF_EVTSEL, select(&config, "CPU_CLK_UNHALTED", evtsel::OS | evtsel::EN | evtsel::INT));
    bench.write(0, addr::PERF_GLOBAL_CTRL, 1);
    bench.write(0, addr::USER_ACCESS, 0);
    bench.set_event(event, 0, 1);
    bench.set_kernel(0, true);
    bench.inputs.pm_mark = 0b11;
    bench.write(0, addr::PERF_CNTR, 0xFF_FFFF_FFFF);
    let outputs = bench.tick();
    assert_eq!((outputs.pmi, bench.pmu.counter(0, 0), bench.pmu.global_status(0)), (1, 0, 1));
    let outputs = bench.cycle_with(|inputs| {
        inputs.reset = true;
        inputs.reg_read = true;
        inputs.reg_addr = addr::TSC;
        inputs.reg_priv = true;
    });
    assert_eq!(outputs, PmuOutputs::default());
    assert_eq!(bench.pmu, ReferencePmu::new(config.clone()), "nothing sampled at the reset edge remains");
    // Bank 0 exists, so a ring-0 read of TRACE_CTRL is allowed and reads its reset value.
    let after = bench.pmu.step(&PmuInputs { reg_read: true, reg_priv: true, reg_addr: 0x40, ..PmuInputs::default() });
    assert_eq!(after, PmuOutputs::default(), "0x40 is TRACE_CTRL, ring 0 RW, reset 0");
    let after = bench.pmu.step(&PmuInputs { reg_write: true, reg_addr: 0x40, ..PmuInputs::default() });
    assert_eq!(after, PmuOutputs { reg_fault: true, ..PmuOutputs::default() }, "0x40 is denied in ring 3");
}

#[test]
fn a_64_bit_counter_wraps_and_overflows() {
    let config = knc_config(1, 1, 64);
    let event = event_index(&config, "INSTRUCTIONS_EXECUTED");
    let mut bench = Bench::new(config.clone());
    bench.write(0, addr::PERF_EVTSEL, select(&config, "INSTRUCTIONS_EXECUTED", evtsel::USR | evtsel::EN));
    bench.write(0, addr::PERF_GLOBAL_CTRL, 1);
    bench.set_event(event, 0, 3);
    bench.write(0, addr::PERF_CNTR, u64::MAX - 1);
    assert_eq!(bench.read(0, addr::PERF_CNTR), u64::MAX - 1);
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.global_status(0)), (1, 1));
}
