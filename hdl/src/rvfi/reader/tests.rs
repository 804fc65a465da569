//! The reader's Verilog against its native twin, and the twin against the reference
//! model's reader (pmugen-sim), on retirement streams with arbitrary words mixed in.
use super::*;
use crate::dyn_signal::low_mask;
use crate::port_list;
use crate::rvfi::params::KernelRule;
use crate::rvfi::testing::{arbitrary, by_name, reference_xlen, signals, CoreStream};
use crate::testing::assert_valid_verilog;
use crate::testing::lockstep::Lockstep;
use crate::testing::ports::{Port, Ports};
use pmugen_sim::reference::rvfi as reference;
use rand::{Rng, SeedableRng};
use std::cell::RefCell;

impl Ports for CoreReader {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        port_list!(self; reset, valid, insn, trap, intr, pc_rdata, pc_wdata, mem_rmask, read_valid, read_trap,
            read_intr, read_pc_wdata, read_rmask)
    }
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
    for core in Core::ALL {
        assert_valid_verilog(&mut CoreReader::new(core, Xlen::Rv32), &format!("reader_{core}_x32"));
    }
    assert_valid_verilog(&mut CoreReader::new(Core::Ibex, Xlen::Rv64), "reader_ibex_x64");
}

/// Every core at both XLENs, one cycle in four of arbitrary words.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_5401;
    let shapes: Vec<(Core, Xlen)> =
        Core::ALL.into_iter().flat_map(|core| [(core, Xlen::Rv32), (core, Xlen::Rv64)]).collect();
    let streams: Vec<CoreStream> = shapes
        .iter()
        .enumerate()
        .map(|(i, &(core, xlen))| CoreStream::new(1, xlen, core.default_kernel_rule(), true, seed + i as u64, 4))
        .collect();
    let instances =
        shapes.iter().map(|&(core, xlen)| (format!("{core} XLEN={xlen}"), CoreReader::new(core, xlen))).collect();
    let streams = RefCell::new(streams);
    Lockstep::new("reader", seed)
        .cycle_stimulus(move |rng, instance, inputs| {
            let r = streams.borrow_mut()[instance].next_cycle()[0];
            by_name(
                inputs,
                &[
                    ("reset", rng.gen_ratio(1, 500) as u64),
                    ("valid", r.valid as u64),
                    ("insn", r.insn as u64),
                    ("trap", r.trap as u64),
                    ("intr", r.intr as u64),
                    ("pc_rdata", r.pc_rdata),
                    ("pc_wdata", r.pc_wdata),
                    ("mem_rmask", r.mem_rmask as u64),
                ],
            )
        })
        .cycles(6_000)
        .run(instances);
}

/// What the twin reads equals the reference reader's retirement, field by field where
/// a retirement remains, on every core (the reference written from docs/soc.md §1.7 by
/// other hands).
#[test]
fn twin_equals_the_reference_reader() {
    let seed = 0x5eed_5402;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for core in Core::ALL {
        for xlen in [Xlen::Rv32, Xlen::Rv64] {
            let mut stream = CoreStream::new(1, xlen, KernelRule::Handler, true, rng.gen(), 0);
            let mut after_trap = false;
            let mut model = reference::CoreReader::new(reference_core(core));
            for cycle in 0..20_000 {
                let r = if cycle % 3 == 0 { arbitrary(&mut rng) } else { stream.next_cycle()[0] };
                let s = signals(&r);
                let twin = read(core, xlen, after_trap, &s);
                if s.valid {
                    after_trap = s.trap;
                }
                let expected = model.read(&r.normalized(reference_xlen(xlen)), reference_xlen(xlen));
                let context = format!("{core} XLEN {xlen} cycle {cycle}: {r:x?}, seed {seed:#x}");
                assert_eq!(twin.valid, expected.valid, "{context}");
                if expected.valid {
                    assert_eq!(twin.trap, expected.trap, "{context}");
                    assert_eq!(twin.intr, expected.intr, "{context}");
                    assert_eq!(twin.pc_wdata & low_mask(xlen.bits()), expected.pc_wdata, "{context}");
                    assert_eq!(twin.rmask & low_mask(xlen.mask_bits()), expected.mem_rmask as u64, "{context}");
                }
            }
        }
    }
}
