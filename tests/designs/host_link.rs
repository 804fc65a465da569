//! The host protocol against the simulated board top: bytes go through the
//! simulated UART (8N1 line levels), the synchronizers, the host link and the
//! monitor's register port, and frames come back as framed bytes.
use pmugen::host::client::Client;
use pmugen::host::names::{parse_orders, register_address};
use pmugen::host::protocol::decode_frame;
use pmugen::host::simulated::SimulatedBoard;
use pmugen_hdl::board::board_top::frame_bytes;
use pmugen_hdl::params::MonitorParams;
use pmugen_sim::reference::monitor::{addr, cmd, ctrl};

const N: usize = 4;
const W: usize = 2;
const B: usize = frame_bytes(N);
/// A fast UART for simulation (the board uses 12 MHz / 115200 = 104).
const CLOCKS_PER_BIT: u64 = 16;

type Board = SimulatedBoard<N, W, B>;

fn client() -> Client<Board> {
    Client::new(Board::new(CLOCKS_PER_BIT), B)
}

/// One occurrence of event `e` on the pins (held for a few cycles, then released).
fn pulse(client: &mut Client<Board>, e: usize) {
    client.transport.event_pins |= 1 << e;
    client.transport.run(8);
    client.transport.event_pins &= !(1 << e);
    client.transport.run(8);
}

#[test]
fn register_reads_and_writes_over_the_wire() {
    let mut c = client();
    assert_eq!(c.read(addr::ID).unwrap(), 0x4F4D_0204);
    assert_eq!(c.read(addr::CTRL).unwrap(), ctrl::RESET);
    c.write(addr::CTRL, 0xDEAD_BE45).unwrap();
    assert_eq!(c.read(addr::CTRL).unwrap(), 0xDEAD_BE45 & ctrl::MASK);
    // A stray byte where a command is expected is ignored.
    use pmugen::host::client::Transport;
    c.transport.send(&[0x00, 0x13]).unwrap();
    c.write(register_address("ORDER[3]", N).unwrap(), 0x1234_5673).unwrap();
    assert_eq!(c.read(0x13).unwrap(), 3);
    assert_eq!(c.read(register_address("0x80", N).unwrap()).unwrap(), 0);
}

#[test]
fn patent_order_counts_and_frames_decode_through_the_link() {
    let params = MonitorParams { events: N, order_width: W, options: Default::default() };
    let mut c = client();
    c.write(addr::CTRL, ctrl::ENABLE).unwrap();
    for (e, order) in parse_orders("E2=1,E1=2,E4=3", params).unwrap() {
        c.write(addr::ORDER + e as u8, order).unwrap();
    }
    c.write(addr::CMD, cmd::OPEN_WINDOW).unwrap();
    for e in [1, 0, 3] {
        pulse(&mut c, e);
    }
    assert_eq!(c.transport.leds(), (true, true), "LEDs show matched and window");
    assert_eq!(c.read(addr::COUNT).unwrap(), 1);
    let rows: Vec<u32> = (0..N as u8).map(|m| c.read(addr::BEFORE + m).unwrap()).collect();
    assert_eq!(rows, vec![0b0010, 0, 0, 0b0011], "E2<E1, E1<E4, E2<E4");
    c.write(addr::CTRL, ctrl::ENABLE | ctrl::SERIAL_EN).unwrap();
    for _ in 0..2 {
        let frame = decode_frame(&c.frame().unwrap(), N);
        assert_eq!(frame.count, 1);
        for (m, row) in rows.iter().enumerate() {
            for a in 0..N {
                assert_eq!(frame.before[a][m], row >> a & 1 == 1, "frame flag ({a} before {m})");
            }
        }
        assert!(frame.table().contains("COUNT = 1"));
    }
    // Register access still works while frames stream.
    assert_eq!(c.read(addr::COUNT).unwrap(), 1);
}
