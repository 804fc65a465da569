//! Hand cases for each rule of docs/monitor.md §3 (and §5/§6), each run on the native
//! rust-hdl model and on the reference model against hand-written expectations.
use crate::common::{addr, benches, cmd, ctrl, Bench};

const START_SEL_1: u32 = 1 << 2;
const STOP_SEL_2: u32 = 2 << 4;

fn open_window(bench: &mut Bench) {
    bench.write(addr::CMD, cmd::OPEN_WINDOW);
}

#[test]
fn simultaneous_first_occurrences_do_not_order_each_other() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE);
        b.inputs.events = 0b0011;
        b.step();
        b.inputs.events = 0;
        b.step();
        assert_eq!((b.before(0), b.before(1)), (0, 0), "{who}: E0/E1 together are unordered");
        assert_eq!(b.read(addr::EVENTS), 0b0011, "{who}");
        b.occur(2);
        assert_eq!(b.before(2), 0b0011, "{who}: both came before E2");
        // An earlier occurrence still orders a before m when a occurs again with m.
        b.write(addr::CMD, cmd::CLEAR_RECORD);
        b.occur(0);
        b.inputs.events = 0b0011;
        b.step();
        b.inputs.events = 0;
        b.step();
        assert_eq!(b.before(1), 0b0001, "{who}: (0 before 1) from the earlier E0");
        assert_eq!(b.before(0), 0, "{who}: E1 was new, so not (1 before 0)");
    }
}

#[test]
fn a_line_held_high_is_one_occurrence() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE);
        b.raise(0);
        b.steps(10);
        b.occur(1);
        assert_eq!(b.before(1), 0b0001, "{who}");
        assert_eq!(b.before(0), 0, "{who}: E0 held high did not occur again");
        b.write(addr::CMD, cmd::CLEAR_RECORD);
        b.steps(5);
        assert_eq!(b.read(addr::EVENTS), 0, "{who}: still high after the clear is no occurrence");
        b.lower(0);
        b.raise(0);
        assert_eq!(b.read(addr::EVENTS), 0b0001, "{who}: a new rising edge is");
    }
}

#[test]
fn equal_orders_leave_the_pair_unconstrained() {
    for mut b in benches(4, 3) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM);
        b.set_orders(&[(0, 1), (1, 1), (2, 2)]);
        open_window(&mut b);
        b.occur(1);
        b.occur(0);
        assert!(b.occur(2).matched, "{who}: E1, E0, E2 matches");
        b.occur(0);
        b.occur(1);
        assert!(b.occur(2).matched, "{who}: E0, E1, E2 matches too");
        assert_eq!(b.count(), 2, "{who}");
    }
}

#[test]
fn no_constrained_pair_never_matches() {
    let settings: [&[(usize, u32)]; 3] = [&[], &[(0, 3), (1, 3), (2, 3), (3, 3)], &[(2, 1)]];
    for orders in settings {
        for mut b in benches(4, 2) {
            let who = b.name();
            b.write(addr::CTRL, ctrl::ENABLE);
            b.set_orders(orders);
            open_window(&mut b);
            for step in 0..60 {
                let out = b.occur(step * 7 % 4);
                assert!(!out.matched, "{who}: orders {orders:?} matched at step {step}");
            }
            assert_eq!(b.count(), 0, "{who}: orders {orders:?}");
        }
    }
}

#[test]
fn auto_rearm_counts_every_match_and_starts_a_new_sequence() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM);
        b.set_orders(&[(0, 1), (1, 2)]);
        open_window(&mut b);
        b.occur(0);
        assert!(b.raise(1).matched, "{who}: E0 then E1 matches");
        // The very next cycle belongs to the next sequence: E0 rises, E1 stays high.
        b.inputs.events = 0b0011;
        b.step();
        assert_eq!(b.read(addr::EVENTS), 0b0001, "{who}: record cleared in the match cycle, E0 recorded after");
        assert_eq!(b.before(1), 0, "{who}");
        b.inputs.events = 0;
        b.step();
        assert!(b.occur(1).matched, "{who}: the new sequence E0, E1 matches again");
        assert_eq!(b.count(), 2, "{who}");
        assert_eq!(b.read(addr::EVENTS), 0, "{who}");
    }
}

#[test]
fn without_auto_rearm_only_the_rising_edge_of_the_match_counts() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE);
        b.set_orders(&[(0, 1), (1, 2)]);
        open_window(&mut b);
        b.occur(0);
        assert!(b.occur(1).matched, "{who}");
        b.steps(5);
        assert!(b.out.matched, "{who}: the record keeps the match");
        b.occur(0);
        b.occur(1);
        assert_eq!(b.count(), 1, "{who}: a held match counts once");
        b.write(addr::CMD, cmd::CLEAR_RECORD);
        assert!(!b.step().matched, "{who}: CLEAR_RECORD drops the match");
        b.occur(0);
        b.occur(1);
        assert_eq!(b.count(), 2, "{who}");
        // CLEAR_RECORD in the completing cycle: the match still counts, the record clears.
        b.write(addr::CMD, cmd::CLEAR_RECORD);
        b.occur(0);
        b.inputs.events = 0b0010;
        let out = b.write(addr::CMD, cmd::CLEAR_RECORD);
        assert!(out.matched, "{who}");
        b.inputs.events = 0;
        assert_eq!(b.count(), 3, "{who}");
        assert_eq!(b.read(addr::EVENTS), 0, "{who}");
    }
}

#[test]
fn start_and_stop_edges_gate_counting() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM | START_SEL_1 | STOP_SEL_2);
        b.set_orders(&[(0, 1), (1, 2)]);
        b.occur(0);
        assert!(b.occur(1).matched, "{who}");
        assert_eq!(b.count(), 0, "{who}: window closed after reset");
        b.inputs.start = 0b0001;
        assert!(!b.step().window, "{who}: start[0] is not selected");
        // Start edge in the completing cycle: the window opens, that match is not counted.
        b.occur(0);
        b.inputs.start = 0b0011;
        let out = b.raise(1);
        assert!(out.matched && out.window, "{who}");
        b.lower(1);
        assert_eq!(b.count(), 0, "{who}: match in the start-edge cycle is not counted");
        b.occur(0);
        b.occur(1);
        assert_eq!(b.count(), 1, "{who}");
        // Stop edge in the completing cycle: that match is counted, then closed.
        b.occur(0);
        b.inputs.stop = 0b0100;
        let out = b.raise(1);
        assert!(out.matched && !out.window, "{who}");
        b.lower(1);
        assert_eq!(b.count(), 2, "{who}: match in the stop-edge cycle is counted");
        b.occur(0);
        b.occur(1);
        assert_eq!(b.count(), 2, "{who}: closed");
        // The window reopens on a new start edge; COUNT accumulates.
        b.inputs.start = 0;
        b.step();
        b.inputs.start = 0b0010;
        assert!(b.step().window, "{who}: reopened");
        b.occur(0);
        b.occur(1);
        assert_eq!(b.count(), 3, "{who}");
        // Start and stop edges together: closing wins.
        b.inputs.start = 0;
        b.inputs.stop = 0;
        b.step();
        b.inputs.start = 0b0010;
        b.inputs.stop = 0b0100;
        assert!(!b.step().window, "{who}: close wins");
        b.inputs.start = 0;
        b.inputs.stop = 0;
        b.step();
        b.inputs.start = 0b0010;
        b.inputs.stop = 0b0100;
        assert!(!b.step().window, "{who}: stays closed");
    }
}

#[test]
fn commands_act_at_their_own_edge() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM);
        b.set_orders(&[(0, 1), (1, 2)]);
        assert!(b.write(addr::CMD, cmd::OPEN_WINDOW).window, "{who}");
        assert_eq!(b.read(addr::STATUS) & 1, 1, "{who}: STATUS.WINDOW");
        assert!(!b.write(addr::CMD, cmd::CLOSE_WINDOW).window, "{who}");
        b.write(addr::CMD, cmd::OPEN_WINDOW);
        assert!(!b.write(addr::CMD, cmd::OPEN_WINDOW | cmd::CLOSE_WINDOW).window, "{who}: close wins");
        b.write(addr::CMD, cmd::OPEN_WINDOW);
        for _ in 0..2 {
            b.occur(0);
            b.occur(1);
        }
        assert_eq!(b.count(), 2, "{who}");
        b.write(addr::CMD, cmd::CLEAR_COUNT);
        assert_eq!(b.count(), 0, "{who}: CLEAR_COUNT");
        // CLEAR_COUNT in a counted match's cycle: no increment, the re-arm still happens.
        b.occur(0);
        b.inputs.events = 0b0010;
        assert!(b.write(addr::CMD, cmd::CLEAR_COUNT).matched, "{who}");
        b.inputs.events = 0;
        assert_eq!(b.count(), 0, "{who}");
        assert_eq!(b.read(addr::EVENTS), 0, "{who}: re-armed");
        assert_eq!(b.read(addr::CMD), 0, "{who}: CMD reads 0");
    }
}

#[test]
fn reset_in_the_middle_of_a_sequence_returns_every_register() {
    for mut b in benches(5, 3) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::SERIAL_EN | START_SEL_1);
        b.set_orders(&[(0, 1), (1, 2), (3, 4)]);
        open_window(&mut b);
        b.occur(0);
        b.occur(1);
        b.occur(3);
        assert!(b.count() > 0 && b.out.ser_valid, "{who}: mid-sequence, counting and sending");
        b.occur(4);
        let out = b.reset();
        assert_eq!(out, Default::default(), "{who}: outputs after reset");
        let expected = [
            (addr::ID, 0x4F4D_0305),
            (addr::CTRL, ctrl::RESET),
            (addr::STATUS, 0),
            (addr::COUNT, 0),
            (addr::EVENTS, 0),
        ];
        for (address, value) in expected {
            assert_eq!(b.read(address), value, "{who}: register {address:#04x} after reset");
        }
        for e in 0..5u8 {
            assert_eq!(b.read(addr::ORDER + e), 0, "{who}: ORDER[{e}]");
            assert_eq!(b.read(addr::BEFORE + e), 0, "{who}: BEFORE[{e}]");
        }
        assert!(!b.out.ser_valid, "{who}: no frame after reset");
        // Reset wins over a write in the same cycle.
        b.inputs.reset = true;
        b.write(addr::CTRL, ctrl::ENABLE);
        assert_eq!(b.read(addr::CTRL), ctrl::RESET, "{who}: reset wins");
    }
}

#[test]
fn reserved_addresses_and_bits_beyond_fields() {
    for mut b in benches(8, 3) {
        let who = b.name();
        b.write(addr::CTRL, 0xFFFF_FFFF);
        assert_eq!(b.read(addr::CTRL), 0x7F, "{who}: CTRL keeps its 7 bits");
        b.write(addr::CTRL, ctrl::ENABLE);
        b.write(addr::ORDER + 2, 0xFFFF_FFF5);
        assert_eq!(b.read(addr::ORDER + 2), 5, "{who}: ORDER keeps W bits");
        b.occur(1);
        b.occur(2);
        let readable: Vec<u8> =
            [0x00, 0x01, 0x03, 0x04, 0x05].into_iter().chain(0x10..0x18).chain(0x40..0x48).collect();
        let before: Vec<u32> = readable.iter().map(|&a| b.read(a)).collect();
        for address in [0x00, 0x03, 0x04, 0x05, 0x06, 0x0F, 0x18, 0x3F, 0x40, 0x42, 0x48, 0x80, 0xFF] {
            b.write(address, 0xFFFF_FFFF);
        }
        let after: Vec<u32> = readable.iter().map(|&a| b.read(a)).collect();
        assert_eq!(before, after, "{who}: writes to read-only and unlisted addresses change nothing");
        for address in [0x02, 0x06, 0x0F, 0x18, 0x3F, 0x48, 0x80, 0xFF] {
            assert_eq!(b.read(address), 0, "{who}: {address:#04x} reads 0");
        }
        assert_eq!(b.read(addr::ID), 0x4F4D_0308, "{who}: ID");
        assert_eq!(b.before(2), 0b0000_0010, "{who}: (1 before 2), bit 2 reads 0");
    }
}

#[test]
fn serial_frame_sends_record_then_count_msb_first() {
    for mut b in benches(3, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE);
        b.set_orders(&[(0, 1), (1, 2)]);
        open_window(&mut b);
        b.occur(0);
        b.occur(2);
        b.occur(1); // flags (0<2), (0<1), (2<1); match counted once
        assert_eq!(b.count(), 1, "{who}");
        // m-major: m=0: a=1,2 | m=1: a=0,2 | m=2: a=0,1 | COUNT[31..0]
        let mut expected = vec![false, false, true, true, true, false];
        expected.extend((0..32).rev().map(|j| 1u32 >> j & 1 == 1));
        let out = b.write(addr::CTRL, ctrl::ENABLE | ctrl::SERIAL_EN);
        assert!(!out.ser_valid, "{who}: SERIAL_EN applies from the next cycle");
        for frame in 0..2 {
            for (i, bit) in expected.iter().enumerate() {
                let out = b.step();
                assert!(out.ser_valid, "{who}: frame {frame} bit {i} valid");
                assert_eq!(out.ser_data, *bit, "{who}: frame {frame} bit {i}");
                assert_eq!(out.ser_last, i == expected.len() - 1, "{who}: frame {frame} bit {i} last");
            }
        }
        // Clearing SERIAL_EN lets the current frame finish.
        let out = b.write(addr::CTRL, ctrl::ENABLE);
        assert!(out.ser_valid, "{who}");
        let mut sent = 1;
        while b.step().ser_valid {
            sent += 1;
        }
        assert_eq!(sent, expected.len(), "{who}: the frame in flight completes");
        assert!(!b.out.ser_data && !b.out.ser_last, "{who}: idle outputs are 0");
        b.steps(3);
        assert!(!b.out.ser_valid, "{who}: no new frame");
    }
}

#[test]
fn outputs_and_status_are_registered_copies() {
    for mut b in benches(4, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE);
        b.set_orders(&[(0, 1), (1, 2)]);
        b.occur(0);
        let out = b.raise(1);
        assert!(out.matched, "{who}");
        // STATUS read during the next cycle shows the same flip-flops.
        let status = b.read(addr::STATUS);
        assert_eq!(status >> 1 & 1, b.out.matched as u32, "{who}: STATUS.MATCHED = matched");
        assert_eq!(status & 1, b.out.window as u32, "{who}: STATUS.WINDOW = window");
        // Read data shows the register during the cycle of the read: COUNT before the
        // increment of that same edge.
        b.write(addr::CMD, cmd::OPEN_WINDOW | cmd::CLEAR_RECORD);
        b.lower(1);
        b.occur(0);
        b.inputs.events = 0b0010;
        assert_eq!(b.read(addr::COUNT), 0, "{who}: old value in the counting cycle");
        assert_eq!(b.read(addr::COUNT), 1, "{who}");
    }
}

#[test]
fn matching_is_pairwise_across_occurrences() {
    // docs/monitor.md's example: order E0 < E1 < E2; E1, E0, E2, E1 matches at the last E1.
    for mut b in benches(3, 2) {
        let who = b.name();
        b.write(addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM);
        b.set_orders(&[(0, 1), (1, 2), (2, 3)]);
        for (step, event) in [1, 0, 2, 1].into_iter().enumerate() {
            assert_eq!(b.occur(event).matched, step == 3, "{who}: step {step}");
        }
    }
}
