//! The adapter against its own Verilog (lockstep, random T, XLEN, rule and AW) and
//! against the reference model of the adapter rules, written from the same rules by
//! other hands (`pmugen_sim::reference::rvfi`), on random retirement streams.
use std::cell::RefCell;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

use super::RvfiAdapter;
use crate::rvfi::events::EVENT_COUNT;
use crate::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};
use crate::rvfi::port::{self, HartSignals};
use crate::rvfi::testing::{by_name_words, reference_rule, reference_xlen, signals, CoreStream};
use crate::testing::lockstep::Lockstep;
use crate::testing::{apply, assert_valid_verilog, edge};
use pmugen_sim::reference::rvfi::{self as reference, ReferenceAdapter};

/// Random adapter parameters: T, XLEN, rule, core, AW (the corners often).
fn random_shape(rng: &mut ChaCha8Rng) -> (usize, Xlen, KernelRule, Core, usize) {
    let xlen = if rng.gen() { Xlen::Rv32 } else { Xlen::Rv64 };
    let rule = if rng.gen() { KernelRule::Mode } else { KernelRule::Handler };
    let core = Core::ALL[rng.gen_range(0..4)];
    let aw = [16, 32, 48, rng.gen_range(16..=48)][rng.gen_range(0..4)];
    (rng.gen_range(1..=4), xlen, rule, core, aw)
}

/// The options of one shape.
fn options(xlen: Xlen, kernel_rule: KernelRule, core: Core) -> RvfiOptions {
    RvfiOptions { xlen, kernel_rule, core }
}

/// The reference model's core for ours.
fn reference_core(core: Core) -> reference::Core {
    match core {
        Core::Generic => reference::Core::Generic,
        Core::Picorv32 => reference::Core::Picorv32,
        Core::Serv => reference::Core::Serv,
        Core::Ibex => reference::Core::Ibex,
    }
}

#[test]
fn verilog_is_valid() {
    let mode = KernelRule::Mode;
    assert_valid_verilog(&mut RvfiAdapter::new(1, options(Xlen::Rv32, mode, Core::Generic), 32), "adapter_t1");
    let handler = KernelRule::Handler;
    assert_valid_verilog(&mut RvfiAdapter::new(4, options(Xlen::Rv64, handler, Core::Serv), 48), "adapter_t4");
    assert_valid_verilog(&mut RvfiAdapter::new(3, options(Xlen::Rv32, handler, Core::Ibex), 16), "adapter_t3");
}

/// Four adapters of random shape, each on the retirement stream of a core made for
/// its rule (a cycle of arbitrary words now and then), rare resets.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_5401;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shapes: Vec<_> = (0..4).map(|_| random_shape(&mut rng)).collect();
    let streams: Vec<(CoreStream, Xlen)> = shapes
        .iter()
        .map(|&(t, xlen, rule, _, _)| (CoreStream::new(t, xlen, rule, rng.gen_ratio(3, 4), rng.gen(), 50), xlen))
        .collect();
    let instances = shapes
        .iter()
        .map(|&(t, xlen, rule, core, aw)| {
            (format!("T={t} XLEN={xlen} {rule} {core} AW={aw}"), RvfiAdapter::new(t, options(xlen, rule, core), aw))
        })
        .collect();
    let streams = RefCell::new(streams);
    Lockstep::new("adapter", seed)
        .cycle_stimulus(move |rng, instance, inputs| {
            let (stream, xlen) = &mut streams.borrow_mut()[instance];
            let harts: Vec<HartSignals> = stream.next_cycle().iter().map(signals).collect();
            let mut values: Vec<(String, Vec<u64>)> =
                port::NAMES.iter().map(|name| name.to_string()).zip(port::pack(&harts, *xlen)).collect();
            values.push(("reset".to_string(), vec![rng.gen_ratio(1, 700) as u64]));
            by_name_words(inputs, values)
        })
        .cycles(5_000)
        .run(instances);
}

/// Every core, T = 1 and 2, both rules, both XLENs, compressed code, 10,000 cycles
/// each: every output of every hart equals the reference adapter's in every cycle
/// (rare resets).
/// The reference's `step` gives the outputs during the cycle of the retirements it takes.
#[test]
fn equals_the_reference_adapter_on_random_streams() {
    let seed = 0x5eed_5402;
    println!("seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for core in Core::ALL {
        for (harts, rule, xlen) in [(1, KernelRule::Mode, Xlen::Rv64), (2, KernelRule::Handler, Xlen::Rv32)] {
            {
                let aw = [16, 32, 48, rng.gen_range(16..=48)][rng.gen_range(0..4)];
                let context = format!("T={harts} XLEN={xlen} {rule} {core} AW={aw}, seed {seed:#x}");
                let mut stream = CoreStream::new(harts, xlen, rule, true, rng.gen(), 200);
                let (x, r, c) = (reference_xlen(xlen), reference_rule(rule), reference_core(core));
                let mut reference = ReferenceAdapter::for_core(harts, x, r, c, aw as u32);
                let mut uut = RvfiAdapter::new(harts, options(xlen, rule, core), aw);
                uut.connect_all();
                let (mut ends, mut kernel_cycles) = (0, 0);
                for step in 0..20_000 {
                    let retirements = stream.next_cycle();
                    let reset = rng.gen_ratio(1, 5_000);
                    let packed = port::pack(&retirements.iter().map(signals).collect::<Vec<_>>(), xlen);
                    apply(
                        &mut uut,
                        |u| &mut u.clock,
                        |u| {
                            u.reset.next = reset;
                            u.rvfi.drive(&packed, false);
                        },
                    );
                    // The outputs during this cycle, from the retirements of the one before.
                    let expected = reference.step(&retirements);
                    if reset {
                        // This cycle's retirements are dropped; the next cycle's outputs are 0.
                        reference.reset();
                    }
                    for (t, hart) in expected.harts.iter().enumerate() {
                        let at = format!("cycle {step}, hart {t}, {context}; retired {:x?}", retirements[t]);
                        let events = uut.events.field(t * EVENT_COUNT, EVENT_COUNT);
                        assert_eq!(events, hart.events.bits() as u64, "events, {at}");
                        assert_eq!(uut.kernel.bit(t), hart.kernel, "kernel, {at}");
                        assert_eq!(uut.bb_end.bit(t), hart.bb_end, "bb_end, {at}");
                        assert_eq!(uut.bb_addr.field(t * aw, aw), hart.bb_addr, "bb_addr, {at}");
                        ends += hart.bb_end as u32;
                        kernel_cycles += hart.kernel as u32;
                    }
                    edge(&mut uut, |u| &mut u.clock);
                }
                assert!(
                    ends > 500 && kernel_cycles > 500,
                    "{context}: {ends} block ends, {kernel_cycles} kernel cycles"
                );
            }
        }
    }
}
