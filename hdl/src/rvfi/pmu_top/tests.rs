//! The `_rvfi` PMU against its own Verilog (lockstep, T = 1 and 2) and against the
//! reference models: the reference adapter's outputs fed into the reference PMU, on
//! random retirement streams with software that counts the RISC-V events.
use std::cell::RefCell;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

use super::program::RegisterProgram;
use super::RvfiPmu;
use crate::pmu::event_table::EventTable;
use crate::pmu::params::PmuParams;
use crate::rvfi::params::{KernelRule, RvfiOptions, Xlen};
use crate::rvfi::port::{self, HartSignals};
use crate::rvfi::testing::{by_name_words, named, reference_rule, reference_xlen, rvfi_ports, signals, CoreStream};
use crate::testing::lockstep::Lockstep;
use crate::testing::ports::{Port, Ports};
use crate::testing::{assert_valid_verilog, cycle};
use pmugen_sim::ports::pmu::PmuInputs;
use pmugen_sim::reference::rvfi::{Event, ReferenceAdapter};
use pmugen_sim::reference::ReferencePmu;

impl Ports for RvfiPmu {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        let Self { reset, rvfi, pm_mark, pid, pmi, reg_thread, reg_priv, reg_addr, reg_wdata, reg_write, .. } = self;
        let mut ports = rvfi_ports(rvfi);
        ports.extend(named([("reset", reset as &mut dyn Port), ("pm_mark", pm_mark), ("pid", pid), ("pmi", pmi)]));
        ports.extend(named([("reg_thread", reg_thread as &mut dyn Port), ("reg_priv", reg_priv)]));
        ports.extend(named([
            ("reg_addr", reg_addr as &mut dyn Port),
            ("reg_wdata", reg_wdata),
            ("reg_write", reg_write),
        ]));
        let Self { reg_read, reg_rdata, reg_fault, trace_data, trace_valid, trace_ready, trace_last, .. } = self;
        ports.extend(named([
            ("reg_read", reg_read as &mut dyn Port),
            ("reg_rdata", reg_rdata),
            ("reg_fault", reg_fault),
        ]));
        ports.extend(named([("trace_data", trace_data as &mut dyn Port), ("trace_valid", trace_valid)]));
        ports.extend(named([("trace_ready", trace_ready as &mut dyn Port), ("trace_last", trace_last)]));
        ports
    }
}

/// A table of some RISC-V events, in another order, one of them two bits wide.
fn subset_table() -> EventTable {
    let json = r#"[{"EventName": "CALL", "EventCode": "0x10", "UMask": "0x00"},
                   {"EventName": "INSTRET", "EventCode": "0x11", "UMask": "0x01", "PerCycleMax": 2},
                   {"EventName": "BRANCH_TAKEN", "EventCode": "0x12", "UMask": "0x00"}]"#;
    EventTable::from_json(json, "subset.json", "subset", 4).expect("a valid table")
}

/// The PMU of (T, K, CW, AW) with `table`.
fn params(t: u64, k: u64, cw: u64, aw: u64, table: EventTable) -> PmuParams {
    PmuParams::new(t, k, cw, table).and_then(|p| p.with_trace(4, aw)).expect("valid parameters")
}

#[test]
fn verilog_is_valid() {
    let riscv = PmuParams::new(1, 2, 40, EventTable::riscv_table()).expect("valid parameters");
    assert_valid_verilog(&mut RvfiPmu::new(&riscv, RvfiOptions::default()), "pmu_riscv_t1_k2_c40_rvfi");
    let options = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, ..RvfiOptions::default() };
    let subset = params(3, 1, 16, 48, subset_table());
    assert_valid_verilog(&mut RvfiPmu::new(&subset, options), "pmu_subset_t3_k1_c16_rvfi");
}

/// One retirement stream and one register program per instance, as port words.
struct Stimulus {
    stream: CoreStream,
    program: RegisterProgram,
    options: RvfiOptions,
}

impl Stimulus {
    fn inputs(&mut self, inputs: &pmugen_sim::verilator::PortList) -> Vec<Vec<u64>> {
        let harts: Vec<HartSignals> = self.stream.next_cycle().iter().map(signals).collect();
        let program = self.program.next_inputs();
        let mut values: Vec<(String, Vec<u64>)> =
            port::NAMES.iter().map(|name| name.to_string()).zip(port::pack(&harts, self.options.xlen)).collect();
        let pid = (0..harts.len()).fold(vec![0u64; 2], |mut words, t| {
            words[t / 2] |= (program.pid[t] as u64) << (32 * (t % 2));
            words
        });
        for (name, value) in [
            ("reset", program.reset as u64),
            ("pm_mark", program.pm_mark as u64),
            ("reg_thread", program.reg_thread as u64),
            ("reg_priv", program.reg_priv as u64),
            ("reg_addr", program.reg_addr as u64),
            ("reg_wdata", program.reg_wdata),
            ("reg_write", program.reg_write as u64),
            ("reg_read", program.reg_read as u64),
            ("trace_ready", program.trace_ready as u64),
        ] {
            values.push((name.to_string(), vec![value]));
        }
        values.push(("pid".to_string(), pid));
        by_name_words(inputs, values)
    }
}

/// The whole `_rvfi` PMU at T = 1 (RISC-V table, RV32, mode rule) and T = 2 (a subset
/// table, RV64, handler rule), on retirement streams and counting software.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_5501;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let configurations = [
        (params(1, 2, 24, 32, EventTable::riscv_table()), RvfiOptions::default()),
        (
            params(2, 3, 40, 20, subset_table()),
            RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, ..RvfiOptions::default() },
        ),
    ];
    let stimuli: Vec<Stimulus> = configurations
        .iter()
        .map(|(p, options)| Stimulus {
            stream: CoreStream::new(p.threads, options.xlen, options.kernel_rule, true, rng.gen(), 100),
            program: RegisterProgram::new(p, rng.gen(), true),
            options: *options,
        })
        .collect();
    let instances = configurations
        .iter()
        .map(|(p, options)| {
            (
                format!("{} XLEN={} {}", super::top_name(p, *options), options.xlen, options.kernel_rule),
                RvfiPmu::new(p, *options),
            )
        })
        .collect();
    let stimuli = RefCell::new(stimuli);
    Lockstep::new("pmu_rvfi", seed)
        .cycle_stimulus(move |_, instance, inputs| stimuli.borrow_mut()[instance].inputs(inputs))
        .cycles(6_000)
        .run(instances);
}

/// The reference adapter's outputs as the reference PMU's event side, every output of
/// the `_rvfi` PMU equal to the reference PMU's in every cycle (the counters read back
/// through the register port among them); the counts read are not all 0.
#[test]
fn counts_equal_the_reference_adapter_into_the_reference_pmu() {
    let seed = 0x5eed_5502;
    println!("seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for (harts, xlen, rule) in [(1, Xlen::Rv32, KernelRule::Mode), (2, Xlen::Rv64, KernelRule::Handler)] {
        let table = EventTable::riscv_table();
        let events: Vec<Event> =
            table.events.iter().map(|e| Event::from_name(&e.name).expect("a RISC-V event")).collect();
        let p = params(harts, 4, 32, 32, table);
        let options = RvfiOptions { xlen, kernel_rule: rule, ..RvfiOptions::default() };
        let mut uut = RvfiPmu::new(&p, options);
        uut.connect_all();
        let mut adapter = ReferenceAdapter::new(harts as usize, reference_xlen(xlen), reference_rule(rule), 32);
        let mut pmu = ReferencePmu::new(p.port_config());
        let mut stream = CoreStream::new(harts as usize, xlen, rule, true, rng.gen(), 0);
        let mut program = RegisterProgram::new(&p, rng.gen(), false);
        let mut nonzero_reads = 0;
        for step in 0..5_000 {
            let retirements = stream.next_cycle();
            let mut inputs: PmuInputs = program.next_inputs();
            adapter.step(&retirements).drive_pmu_inputs(&events, &mut inputs);
            if inputs.reset {
                adapter.reset();
            }
            let packed = port::pack(&retirements.iter().map(signals).collect::<Vec<_>>(), xlen);
            cycle(&mut uut, |u| &mut u.clock, |u| drive(u, &inputs, &packed));
            let expected = pmu.step(&inputs);
            let context = format!("cycle {step}, T={harts} XLEN={xlen} {rule}, seed {seed:#x}, inputs {inputs:x?}");
            assert_eq!(uut.pmi.get() as u8, expected.pmi, "pmi, {context}");
            assert_eq!(uut.reg_rdata.get(), expected.reg_rdata, "reg_rdata, {context}");
            assert_eq!(uut.reg_fault.val(), expected.reg_fault, "reg_fault, {context}");
            assert_eq!(uut.trace_valid.val(), expected.trace_valid, "trace_valid, {context}");
            assert_eq!(uut.trace_data.get(), expected.trace_data, "trace_data, {context}");
            assert_eq!(uut.trace_last.val(), expected.trace_last, "trace_last, {context}");
            nonzero_reads += (expected.reg_rdata > 16) as u32;
        }
        assert!(nonzero_reads > 1_000, "T={harts}: only {nonzero_reads} reads of counts above 16");
    }
}

/// Drive the `_rvfi` PMU's ports: the retirements and the register program.
fn drive(u: &mut RvfiPmu, inputs: &PmuInputs, packed: &[Vec<u64>; 9]) {
    u.rvfi.drive(packed, false);
    u.reset.next = inputs.reset;
    u.pm_mark.set(inputs.pm_mark as u64);
    let pid = (0..4).fold(vec![0u64; 2], |mut words, t| {
        words[t / 2] |= (inputs.pid[t] as u64) << (32 * (t % 2));
        words
    });
    u.pid.set_words(&pid);
    u.reg_thread.next = (inputs.reg_thread as u64).to_bits();
    u.reg_priv.next = inputs.reg_priv;
    u.reg_addr.next = (inputs.reg_addr as u64).to_bits();
    u.reg_wdata.set(inputs.reg_wdata);
    u.reg_write.next = inputs.reg_write;
    u.reg_read.next = inputs.reg_read;
    u.trace_ready.next = inputs.trace_ready;
}
