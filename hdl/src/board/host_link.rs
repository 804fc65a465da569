//! Host link: a byte protocol over the UART that performs register reads and writes
//! on the monitor's register port and streams captured serial frames (docs/monitor.md §6).
//!
//! Host to board: `'W' addr d0 d1 d2 d3` writes (data little endian) and is
//! answered `'K'`; `'R' addr` reads and is answered `'D' d0 d1 d2 d3`. Any other
//! byte where a command is expected is ignored. One command at a time: send the
//! next after its answer.
//! Board to host, unsolicited: `0xA5 0x5A` then the B = ceil(F/8) bytes of one
//! frame, frame bit i in bit i%8 of byte i/8, zero padded. A frame is captured
//! whole from its first bit while the buffer is free and sent between answers,
//! never interrupted; frames that arrive while one waits or is sent are dropped
//! (the UART is far slower than the frame shifter).
//!
//! Latency: a read answers with the register's value two cycles after the address
//! byte was received (the port's read data is registered).
use rust_hdl::prelude::*;

use super::word_join::WordJoin;

/// Command, answer and frame-marker bytes of the protocol.
pub mod bytes {
    /// Write command.
    pub const WRITE: u8 = b'W';
    /// Read command.
    pub const READ: u8 = b'R';
    /// Write acknowledge.
    pub const ACK: u8 = b'K';
    /// Read answer tag.
    pub const DATA: u8 = b'D';
    /// Frame sync marker, two bytes.
    pub const SYNC: [u8; 2] = [0xA5, 0x5A];
}

/// The protocol engine between the UART and the monitor, for B-byte frames.
#[derive(LogicBlock)]
pub struct HostLink<const B: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset.
    pub reset: Signal<In, Bit>,
    /// Received byte.
    pub rx_data: Signal<In, Bits<8>>,
    /// `rx_data` is a new byte.
    pub rx_valid: Signal<In, Bit>,
    /// The transmitter takes a byte at the next edge.
    pub tx_ready: Signal<In, Bit>,
    /// Byte to transmit.
    pub tx_data: Signal<Out, Bits<8>>,
    /// Transmit `tx_data`.
    pub tx_send: Signal<Out, Bit>,
    /// Monitor `reg_addr`.
    pub reg_addr: Signal<Out, Bits<8>>,
    /// Monitor `reg_wdata`.
    pub reg_wdata: Signal<Out, Bits<32>>,
    /// Monitor `reg_write`.
    pub reg_write: Signal<Out, Bit>,
    /// Monitor `reg_rdata`.
    pub reg_rdata: Signal<In, Bits<32>>,
    /// Monitor `ser_data`.
    pub ser_data: Signal<In, Bit>,
    /// Monitor `ser_valid`.
    pub ser_valid: Signal<In, Bit>,
    /// Monitor `ser_last`.
    pub ser_last: Signal<In, Bit>,
    free: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    acc_next: Signal<Local, Bits<8>>,
    command_write: DFF<Bit>,
    bytes_left: DFF<Bits<3>>,
    message: [DFF<Bits<8>>; 5],
    addr: DFF<Bits<8>>,
    write_strobe: DFF<Bit>,
    read_wait: DFF<Bits<2>>,
    reply: [DFF<Bits<8>>; 5],
    reply_left: DFF<Bits<3>>,
    frame: [DFF<Bits<8>>; B],
    acc: DFF<Bits<8>>,
    bit_count: DFF<Bits<3>>,
    mid_frame: DFF<Bit>,
    capturing: DFF<Bit>,
    padding: DFF<Bit>,
    frame_full: DFF<Bit>,
    frame_left: DFF<Bits<8>>,
    joiner: WordJoin,
    write_code: Constant<Bits<8>>,
    read_code: Constant<Bits<8>>,
    ack_code: Constant<Bits<8>>,
    data_code: Constant<Bits<8>>,
    sync_first: Constant<Bits<8>>,
    sync_second: Constant<Bits<8>>,
    msb: Constant<Bits<8>>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    five3: Constant<Bits<3>>,
    seven3: Constant<Bits<3>>,
    zero2: Constant<Bits<2>>,
    one2: Constant<Bits<2>>,
    two2: Constant<Bits<2>>,
    frame_total: Constant<Bits<8>>,
    frame_second: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    set: Constant<Bit>,
    cleared: Constant<Bit>,
}

impl<const B: usize> HostLink<B> {
    /// A link for frames of `B` bytes, `1 <= B <= 128`.
    pub fn new() -> Self {
        assert!((1..=128).contains(&B), "HostLink: B = {B} is out of range 1..=128");
        let code = |byte: u8| Constant::new((byte as u64).to_bits());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rx_data: Default::default(),
            rx_valid: Default::default(),
            tx_ready: Default::default(),
            tx_data: Default::default(),
            tx_send: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            reg_write: Default::default(),
            reg_rdata: Default::default(),
            ser_data: Default::default(),
            ser_valid: Default::default(),
            ser_last: Default::default(),
            free: Default::default(),
            take: Default::default(),
            acc_next: Default::default(),
            command_write: Default::default(),
            bytes_left: Default::default(),
            message: Default::default(),
            addr: Default::default(),
            write_strobe: Default::default(),
            read_wait: Default::default(),
            reply: Default::default(),
            reply_left: Default::default(),
            frame: std::array::from_fn(|_| Default::default()),
            acc: Default::default(),
            bit_count: Default::default(),
            mid_frame: Default::default(),
            capturing: Default::default(),
            padding: Default::default(),
            frame_full: Default::default(),
            frame_left: Default::default(),
            joiner: Default::default(),
            write_code: code(bytes::WRITE),
            read_code: code(bytes::READ),
            ack_code: code(bytes::ACK),
            data_code: code(bytes::DATA),
            sync_first: code(bytes::SYNC[0]),
            sync_second: code(bytes::SYNC[1]),
            msb: Constant::new(0x80.into()),
            zero3: Constant::new(0.into()),
            one3: Constant::new(1.into()),
            five3: Constant::new(5.into()),
            seven3: Constant::new(7.into()),
            zero2: Constant::new(0.into()),
            one2: Constant::new(1.into()),
            two2: Constant::new(2.into()),
            frame_total: Constant::new(((B + 2) as u64).to_bits()),
            frame_second: Constant::new(((B + 1) as u64).to_bits()),
            zero8: Constant::new(0.into()),
            one8: Constant::new(1.into()),
            set: Constant::new(true),
            cleared: Constant::new(false),
        }
    }
}

impl<const B: usize> Default for HostLink<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const B: usize> Logic for HostLink<B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, command_write, bytes_left, addr, write_strobe, read_wait, reply_left);
        dff_setup!(self, clock, acc, bit_count, mid_frame, capturing, padding, frame_full, frame_left);
        for i in 0..5 {
            self.message[i].clock.next = self.clock.val();
            self.message[i].d.next = self.message[i].q.val();
            self.reply[i].clock.next = self.clock.val();
            self.reply[i].d.next = self.reply[i].q.val();
        }
        for i in 0..B {
            self.frame[i].clock.next = self.clock.val();
            self.frame[i].d.next = self.frame[i].q.val();
        }
        for i in 0..4 {
            self.joiner.bytes[i].next = self.message[i + 1].q.val();
        }
        self.reg_addr.next = self.addr.q.val();
        self.reg_wdata.next = self.joiner.word.val();
        self.reg_write.next = self.write_strobe.q.val();
        self.write_strobe.d.next = self.cleared.val();
        // Commands: 'W' addr d0..d3 or 'R' addr; message[4] holds the newest byte.
        if self.rx_valid.val() {
            if self.bytes_left.q.val() == self.zero3.val() {
                if self.rx_data.val() == self.write_code.val() {
                    self.command_write.d.next = self.set.val();
                    self.bytes_left.d.next = self.five3.val();
                } else if self.rx_data.val() == self.read_code.val() {
                    self.command_write.d.next = self.cleared.val();
                    self.bytes_left.d.next = self.one3.val();
                }
            } else {
                for i in 0..4 {
                    self.message[i].d.next = self.message[i + 1].q.val();
                }
                self.message[4].d.next = self.rx_data.val();
                self.bytes_left.d.next = self.bytes_left.q.val() - self.one3.val();
                if self.bytes_left.q.val() == self.one3.val() {
                    if self.command_write.q.val() {
                        self.addr.d.next = self.message[1].q.val();
                        self.write_strobe.d.next = self.set.val();
                        self.reply[0].d.next = self.ack_code.val();
                        self.reply_left.d.next = self.one3.val();
                    } else {
                        self.addr.d.next = self.rx_data.val();
                        self.read_wait.d.next = self.two2.val();
                    }
                }
            }
        }
        // Reads: the port's read data is valid two edges after the address.
        if self.read_wait.q.val() != self.zero2.val() {
            self.read_wait.d.next = self.read_wait.q.val() - self.one2.val();
            if self.read_wait.q.val() == self.one2.val() {
                self.reply[0].d.next = self.data_code.val();
                self.reply[1].d.next = self.reg_rdata.val().get_bits::<8>(0);
                self.reply[2].d.next = self.reg_rdata.val().get_bits::<8>(8);
                self.reply[3].d.next = self.reg_rdata.val().get_bits::<8>(16);
                self.reply[4].d.next = self.reg_rdata.val().get_bits::<8>(24);
                self.reply_left.d.next = self.five3.val();
            }
        }
        // Transmit: a frame is never interrupted; answers go between frames.
        self.tx_send.next = self.cleared.val();
        self.tx_data.next = self.reply[0].q.val();
        if self.frame_left.q.val() != self.zero8.val() {
            if self.tx_ready.val() {
                self.tx_send.next = self.set.val();
                self.frame_left.d.next = self.frame_left.q.val() - self.one8.val();
                if self.frame_left.q.val() == self.frame_total.val() {
                    self.tx_data.next = self.sync_first.val();
                } else if self.frame_left.q.val() == self.frame_second.val() {
                    self.tx_data.next = self.sync_second.val();
                } else {
                    self.tx_data.next = self.frame[0].q.val();
                    for i in 0..(B - 1) {
                        self.frame[i].d.next = self.frame[i + 1].q.val();
                    }
                    if self.frame_left.q.val() == self.one8.val() {
                        self.frame_full.d.next = self.cleared.val();
                    }
                }
            }
        } else if self.reply_left.q.val() != self.zero3.val() {
            if self.tx_ready.val() {
                self.tx_send.next = self.set.val();
                for i in 0..4 {
                    self.reply[i].d.next = self.reply[i + 1].q.val();
                }
                self.reply_left.d.next = self.reply_left.q.val() - self.one3.val();
            }
        } else if self.frame_full.q.val() {
            self.frame_left.d.next = self.frame_total.val();
        }
        // Frame capture from the first bit of a frame, zero padded to whole bytes.
        self.free.next = !self.frame_full.q.val() & (self.frame_left.q.val() == self.zero8.val());
        self.take.next = (self.ser_valid.val()
            & (self.capturing.q.val() | (!self.mid_frame.q.val() & self.free.val())))
            | self.padding.q.val();
        self.mid_frame.d.next = self.ser_valid.val() & !self.ser_last.val();
        self.acc_next.next = self.acc.q.val() >> 1;
        if self.ser_data.val() & !self.padding.q.val() {
            self.acc_next.next = (self.acc.q.val() >> 1) | self.msb.val();
        }
        if self.take.val() {
            self.acc.d.next = self.acc_next.val();
            self.bit_count.d.next = self.bit_count.q.val() + self.one3.val();
            self.capturing.d.next = self.set.val();
            if self.bit_count.q.val() == self.seven3.val() {
                for i in 0..(B - 1) {
                    self.frame[i].d.next = self.frame[i + 1].q.val();
                }
                for last in (B - 1)..B {
                    self.frame[last].d.next = self.acc_next.val();
                }
                if self.ser_last.val() | self.padding.q.val() {
                    self.capturing.d.next = self.cleared.val();
                    self.padding.d.next = self.cleared.val();
                    self.frame_full.d.next = self.set.val();
                }
            } else if self.ser_last.val() & !self.padding.q.val() {
                self.padding.d.next = self.set.val();
            }
        }
        if self.reset.val() {
            self.bytes_left.d.next = self.zero3.val();
            self.write_strobe.d.next = self.cleared.val();
            self.read_wait.d.next = self.zero2.val();
            self.reply_left.d.next = self.zero3.val();
            self.bit_count.d.next = self.zero3.val();
            self.mid_frame.d.next = self.cleared.val();
            self.capturing.d.next = self.cleared.val();
            self.padding.d.next = self.cleared.val();
            self.frame_full.d.next = self.cleared.val();
            self.frame_left.d.next = self.zero8.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::assert_valid_verilog;

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut HostLink::<11>::new(), "host_link_b11");
    }
}
