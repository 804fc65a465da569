//! The register port against docs/monitor.md §5, written out by hand.
use super::*;
use crate::port_list;
use crate::testing::lockstep::{random_input, Lockstep};
use crate::testing::ports::{Port, Ports};
use crate::testing::{apply, assert_valid_verilog, bits_of, edge, value_of};
use crate::word::Word;
use pmugen_sim::reference::monitor::{addr, cmd, ctrl};
use rand::{Rng, SeedableRng};

const N: usize = 5;
const W: usize = 3;

#[test]
fn verilog_is_valid() {
    assert_valid_verilog(&mut RegisterPort::new(5, 3), "register_port_n5_w3");
    assert_valid_verilog(&mut RegisterPort::new(32, 8), "register_port_n32_w8");
}

/// docs/monitor.md §5, written out by hand: what a read of `address` returns.
fn spec_read(address: u8, ctrl_value: u32, sources: &Sources) -> u32 {
    match address {
        addr::ID => 0x4F4D_0000 | (W as u32) << 8 | N as u32,
        addr::CTRL => ctrl_value,
        addr::STATUS => sources.window as u32 | (sources.matched as u32) << 1 | (sources.overflow as u32) << 2,
        addr::COUNT => sources.count,
        addr::EVENTS => sources.seen,
        0x10..=0x14 => sources.orders[(address - 0x10) as usize],
        0x40..=0x44 if !sources.live => 0,
        0x40..=0x44 => sources.rows[(address - 0x40) as usize] & !(1 << (address - 0x40)),
        _ => 0,
    }
}

struct Sources {
    window: bool,
    matched: bool,
    overflow: bool,
    count: u32,
    seen: u32,
    orders: [u32; N],
    rows: [u32; N],
    live: bool,
}

#[test]
fn reads_writes_and_strobes_follow_the_spec() {
    let seed = 0x5eed_0009;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut uut = RegisterPort::new(N, W);
    uut.connect_all();
    let mut ctrl_value = ctrl::RESET;
    let mut expected_rdata = 0;
    // The port's `count` input is COUNT of the previous cycle.
    let mut previous_count = 0;
    for step in 0..20_000 {
        let sources = Sources {
            window: rng.gen(),
            matched: rng.gen(),
            overflow: rng.gen(),
            count: rng.gen(),
            seen: rng.gen::<u32>() & 0x1F,
            orders: std::array::from_fn(|_| rng.gen_range(0..8)),
            rows: std::array::from_fn(|_| rng.gen::<u32>() & 0x1F),
            live: rng.gen_bool(0.8),
        };
        let address = if rng.gen_bool(0.8) { rng.gen_range(0..0x48) } else { rng.gen() };
        let (wdata, write, reset) = (rng.gen::<u32>(), rng.gen_bool(0.3), rng.gen_ratio(1, 500));
        apply(
            &mut uut,
            |u| &mut u.clock,
            |u| {
                u.addr.next = bits_of(address as u64);
                u.wdata.next = bits_of(wdata as u64);
                u.write.next = write;
                u.reset.next = reset;
                u.window.next = sources.window;
                u.matched.next = sources.matched;
                u.overflow.next = sources.overflow;
                u.live.next = sources.live;
                u.count.next = bits_of(previous_count as u64);
                u.seen.next = Word::new(N, sources.seen as u64);
                for e in 0..N {
                    u.order[e].next = Word::new(W, sources.orders[e] as u64);
                    u.before[e].next = Word::new(N, sources.rows[e] as u64);
                }
            },
        );
        let context = format!("step {step}, addr {address:#04x}, seed {seed:#x}");
        // Registered read data of the previous cycle, CTRL fields as stored.
        assert_eq!(value_of(uut.rdata.val()) as u32, expected_rdata, "rdata, {context}");
        assert_eq!(uut.enable.val(), ctrl_value & ctrl::ENABLE != 0, "{context}");
        assert_eq!(uut.auto_rearm.val(), ctrl_value & ctrl::AUTO_REARM != 0, "{context}");
        assert_eq!(value_of(uut.start_sel.val()) as u32, ctrl_value >> 2 & 3, "{context}");
        assert_eq!(value_of(uut.stop_sel.val()) as u32, ctrl_value >> 4 & 3, "{context}");
        assert_eq!(uut.serial_en.val(), ctrl_value & ctrl::SERIAL_EN != 0, "{context}");
        // Strobes act in the cycle of the write.
        let command = if write && address == addr::CMD { wdata } else { 0 };
        assert_eq!(uut.clear_record.val(), command & cmd::CLEAR_RECORD != 0, "{context}");
        assert_eq!(uut.clear_count.val(), command & cmd::CLEAR_COUNT != 0, "{context}");
        assert_eq!(uut.open_window.val(), command & cmd::OPEN_WINDOW != 0, "{context}");
        assert_eq!(uut.close_window.val(), command & cmd::CLOSE_WINDOW != 0, "{context}");
        let order_write = if write && (0x10..0x15).contains(&address) { 1 << (address - 0x10) } else { 0 };
        assert_eq!(uut.order_write.val().value(), order_write, "{context}");
        assert_eq!(uut.order_wdata.val().value() as u32, wdata & 7, "{context}");
        expected_rdata = if reset { 0 } else { spec_read(address, ctrl_value, &sources) };
        previous_count = sources.count;
        if reset {
            ctrl_value = ctrl::RESET;
        } else if write && address == addr::CTRL {
            ctrl_value = wdata & ctrl::MASK;
        }
        edge(&mut uut, |u| &mut u.clock);
    }
}

impl Ports for RegisterPort {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        port_list!(self; reset, addr, wdata, write, window, matched, overflow, count, seen, live, enable, auto_rearm,
            start_sel, stop_sel, serial_en, clear_record, clear_count, open_window, close_window, order_write,
            order_wdata, rdata; vec order, before)
    }
}

/// Random N and W over their full ranges, the corners included. Addresses mostly
/// those of the register map (ORDER and BEFORE of every e < 32, so those of e >= N
/// too); bit m of record row m is 0, as the record never sets it.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_1302;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let shapes = [(2, 2), (32, 8), (rng.gen_range(2..=32), rng.gen_range(2..=8)), (rng.gen_range(2..=32), 2)];
    let instances = shapes.map(|(n, w)| (format!("N={n} W={w}"), RegisterPort::new(n, w))).into_iter().collect();
    let host_accesses = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
        "addr" if rng.gen_bool(0.85) => {
            let e = rng.gen_range(0..32u64);
            vec![*[0, 1, 2, 3, 4, 5, 0x10 + e, 0x40 + e].get(rng.gen_range(0..8)).expect("in range")]
        }
        "write" => vec![rng.gen_bool(0.3) as u64],
        _ => match name.strip_prefix("before__").map(|m| m.parse::<u64>().expect("a row index")) {
            Some(m) => vec![rng.gen::<u64>() & !(1 << m)],
            None => random_input(rng, name, width),
        },
    };
    Lockstep::new("monitor_register_port", seed).stimulus(host_accesses).cycles(3_000).run(instances);
}
