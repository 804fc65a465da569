//! The `_rvfi` monitor against its own Verilog (lockstep) and against the reference
//! adapter's chosen events fed into the reference monitor, on random retirement
//! streams with the monitor's random register traffic (orders, CTRL, window commands).
use std::cell::RefCell;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

use super::RvfiMonitor;
use crate::params::{MonitorOptions, MonitorParams, SerialOutput};
use crate::rvfi::params::{KernelRule, RvfiOptions, Xlen};
use crate::rvfi::port::{self, HartSignals};
use crate::rvfi::testing::{by_name_words, named, reference_rule, reference_xlen, rvfi_ports, signals, CoreStream};
use crate::testing::lockstep::Lockstep;
use crate::testing::ports::{Port, Ports};
use crate::testing::{assert_valid_verilog, cycle};
use pmugen_sim::ports::MonitorInputs;
use pmugen_sim::reference::rvfi::ReferenceAdapter;
use pmugen_sim::reference::ReferenceMonitor;
use pmugen_sim::stimulus::RandomStimulus;

impl Ports for RvfiMonitor {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        let Self { reset, rvfi, start, stop, reg_addr, reg_wdata, reg_write, reg_rdata, matched, window, .. } = self;
        let mut ports = rvfi_ports(rvfi);
        ports.extend(named([("reset", reset as &mut dyn Port), ("start", start), ("stop", stop)]));
        ports.extend(named([
            ("reg_addr", reg_addr as &mut dyn Port),
            ("reg_wdata", reg_wdata),
            ("reg_write", reg_write),
        ]));
        ports.extend(named([("reg_rdata", reg_rdata as &mut dyn Port), ("matched", matched), ("window", window)]));
        let Self { ser_data, ser_valid, ser_last, .. } = self;
        ports.extend(named([
            ("ser_data", ser_data as &mut dyn Port),
            ("ser_valid", ser_valid),
            ("ser_last", ser_last),
        ]));
        ports
    }
}

/// N events chosen among the frequent ones mostly (so that orders complete), with
/// repeats allowed.
fn random_choice(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let frequent = [1, 3, 4, 5, 6, 7, 8, 9];
    (0..n).map(|_| if rng.gen_ratio(4, 5) { frequent[rng.gen_range(0..8)] } else { rng.gen_range(0..14) }).collect()
}

/// A monitor of random N (2..=8) and W, sometimes without the serial frame, on a random
/// adapter.
fn random_configuration(rng: &mut ChaCha8Rng) -> (MonitorParams, RvfiOptions, Vec<usize>) {
    let serial = if rng.gen_ratio(1, 4) { SerialOutput::Absent } else { SerialOutput::Frame };
    let (n, w) = (rng.gen_range(2..=8), rng.gen_range(2..=4));
    let params = MonitorParams { events: n, order_width: w, options: MonitorOptions { serial, ..Default::default() } };
    let xlen = if rng.gen() { Xlen::Rv32 } else { Xlen::Rv64 };
    let kernel_rule = if rng.gen() { KernelRule::Mode } else { KernelRule::Handler };
    (params, RvfiOptions { xlen, kernel_rule, ..RvfiOptions::default() }, random_choice(rng, n))
}

/// The monitor's inputs besides its event lines, and the retirements, of one cycle.
fn next_cycle(stream: &mut CoreStream, traffic: &mut RandomStimulus) -> (Vec<HartSignals>, MonitorInputs) {
    (stream.next_cycle().iter().map(signals).collect(), traffic.next_inputs())
}

#[test]
fn verilog_is_valid() {
    let params = MonitorParams::new(8, 3).expect("in range");
    let options = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, ..RvfiOptions::default() };
    let chosen = [8, 9, 8, 5, 6, 1, 13, 0];
    assert_valid_verilog(&mut RvfiMonitor::new(params, options, &chosen), "monitor_n8_rvfi");
    let params = MonitorParams::new(2, 2).expect("in range");
    assert_valid_verilog(&mut RvfiMonitor::new(params, RvfiOptions::default(), &[8, 9]), "monitor_n2_rvfi");
}

/// Three monitors of random N, W, chosen events and adapter.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_5601;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let configurations: Vec<_> = (0..3).map(|_| random_configuration(&mut rng)).collect();
    let sources: Vec<(CoreStream, RandomStimulus, Xlen)> = configurations
        .iter()
        .map(|(p, options, _)| {
            let stream = CoreStream::new(1, options.xlen, options.kernel_rule, true, rng.gen(), 100);
            (stream, RandomStimulus::new(p.events, p.order_width, rng.gen()), options.xlen)
        })
        .collect();
    let instances = configurations
        .iter()
        .map(|(p, options, chosen)| {
            let description = format!(
                "{} {chosen:?} XLEN={} {}",
                super::top_name(p, *options, chosen),
                options.xlen,
                options.kernel_rule
            );
            (description, RvfiMonitor::new(*p, *options, chosen))
        })
        .collect();
    let sources = RefCell::new(sources);
    Lockstep::new("monitor_rvfi", seed)
        .cycle_stimulus(move |_, instance, inputs| {
            let (stream, traffic, xlen) = &mut sources.borrow_mut()[instance];
            let (harts, monitor) = next_cycle(stream, traffic);
            let mut values: Vec<(String, Vec<u64>)> =
                port::NAMES.iter().map(|name| name.to_string()).zip(port::pack(&harts, *xlen)).collect();
            for (name, value) in [
                ("reset", monitor.reset as u64),
                ("start", monitor.start as u64),
                ("stop", monitor.stop as u64),
                ("reg_addr", monitor.reg_addr as u64),
                ("reg_wdata", monitor.reg_wdata as u64),
                ("reg_write", monitor.reg_write as u64),
            ] {
                values.push((name.to_string(), vec![value]));
            }
            by_name_words(inputs, values)
        })
        .cycles(6_000)
        .run(instances);
}

/// Every output equal to the reference monitor's whose event lines are the reference
/// adapter's chosen events, in every cycle; orders match now and then.
#[test]
fn equals_the_reference_adapter_into_the_reference_monitor() {
    let seed = 0x5eed_5602;
    println!("seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut matches = 0;
    for _ in 0..6 {
        let (p, options, chosen) = random_configuration(&mut rng);
        let context = format!(
            "{} {chosen:?} XLEN={} {}, seed {seed:#x}",
            super::top_name(&p, options, &chosen),
            options.xlen,
            options.kernel_rule
        );
        let mut uut = RvfiMonitor::new(p, options, &chosen);
        uut.connect_all();
        let mut adapter =
            ReferenceAdapter::new(1, reference_xlen(options.xlen), reference_rule(options.kernel_rule), 16);
        let mut monitor =
            ReferenceMonitor::new(p.events, p.order_width).with_serial_frame(p.options.serial == SerialOutput::Frame);
        let mut stream = CoreStream::new(1, options.xlen, options.kernel_rule, true, rng.gen(), 0);
        let mut traffic = RandomStimulus::new(p.events, p.order_width, rng.gen());
        for step in 0..10_000 {
            let retirements = stream.next_cycle();
            let mut inputs = traffic.next_inputs();
            let events = adapter.step(&retirements).harts[0].events.bits();
            inputs.events =
                chosen.iter().enumerate().fold(0, |lines, (k, &bit)| lines | (events as u32 >> bit & 1) << k);
            if inputs.reset {
                adapter.reset();
            }
            let packed = port::pack(&[signals(&retirements[0])], options.xlen);
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.rvfi.drive(&packed, false);
                    u.reset.next = inputs.reset;
                    u.start.next = crate::word::Word::new(4, inputs.start as u64);
                    u.stop.next = crate::word::Word::new(4, inputs.stop as u64);
                    u.reg_addr.next = (inputs.reg_addr as u64).to_bits();
                    u.reg_wdata.next = (inputs.reg_wdata as u64).to_bits();
                    u.reg_write.next = inputs.reg_write;
                },
            );
            let expected = monitor.step(&inputs);
            let at = format!("cycle {step}, {context}, inputs {inputs:x?}");
            assert_eq!(uut.reg_rdata.val().index() as u32, expected.reg_rdata, "reg_rdata, {at}");
            assert_eq!(uut.matched.val(), expected.matched, "matched, {at}");
            assert_eq!(uut.window.val(), expected.window, "window, {at}");
            assert_eq!(uut.ser_data.val(), expected.ser_data, "ser_data, {at}");
            assert_eq!(uut.ser_valid.val(), expected.ser_valid, "ser_valid, {at}");
            assert_eq!(uut.ser_last.val(), expected.ser_last, "ser_last, {at}");
            matches += expected.matched as u32;
        }
    }
    assert!(matches > 20, "only {matches} cycles with a match");
}
