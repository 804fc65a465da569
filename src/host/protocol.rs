//! The host side of the board's byte protocol (hdl/src/board/host_link.rs): command
//! encoding, answer and frame decoding, and the readable forms of a frame.
use pmugen_hdl::board::host_link::bytes;

/// Bytes of a register write command.
pub fn write_command(addr: u8, value: u32) -> Vec<u8> {
    let mut command = vec![bytes::WRITE, addr];
    command.extend_from_slice(&value.to_le_bytes());
    command
}

/// Bytes of a register read command.
pub fn read_command(addr: u8) -> Vec<u8> {
    vec![bytes::READ, addr]
}

/// A message from the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A write was done.
    Ack,
    /// The value of a read.
    Data(u32),
    /// One serial frame, packed LSB first.
    Frame(Vec<u8>),
}

#[derive(Clone, Debug)]
enum State {
    Idle,
    Sync,
    Data(Vec<u8>),
    Frame(Vec<u8>),
}

/// Splits the board's byte stream into messages.
#[derive(Clone, Debug)]
pub struct Decoder {
    frame_bytes: usize,
    state: State,
}

impl Decoder {
    /// A decoder for frames of `frame_bytes` bytes.
    pub fn new(frame_bytes: usize) -> Self {
        Self { frame_bytes, state: State::Idle }
    }

    /// Feed one byte; returns a message when one is complete.
    pub fn feed(&mut self, byte: u8) -> Option<Message> {
        let state = std::mem::replace(&mut self.state, State::Idle);
        match state {
            State::Idle => match byte {
                bytes::ACK => return Some(Message::Ack),
                bytes::DATA => self.state = State::Data(Vec::new()),
                b if b == bytes::SYNC[0] => self.state = State::Sync,
                _ => {}
            },
            State::Sync if byte == bytes::SYNC[1] => self.state = State::Frame(Vec::new()),
            State::Sync => return self.feed(byte),
            State::Data(mut data) => {
                data.push(byte);
                if data.len() == 4 {
                    return Some(Message::Data(u32::from_le_bytes([data[0], data[1], data[2], data[3]])));
                }
                self.state = State::Data(data);
            }
            State::Frame(mut frame) => {
                frame.push(byte);
                if frame.len() == self.frame_bytes {
                    return Some(Message::Frame(frame));
                }
                self.state = State::Frame(frame);
            }
        }
        None
    }
}

/// A decoded frame: the record and COUNT (docs/monitor.md §6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameView {
    /// `before[a][m]`: event a occurred before event m.
    pub before: Vec<Vec<bool>>,
    /// COUNT.
    pub count: u32,
}

/// Decode a packed frame of an N-event monitor.
pub fn decode_frame(frame: &[u8], events: usize) -> FrameView {
    let bit = |i: usize| frame[i / 8] >> (i % 8) & 1 == 1;
    let mut before = vec![vec![false; events]; events];
    // The record comes first, m outer and a inner (a != m), then COUNT.
    let flags = (0..events).flat_map(|m| (0..events).filter(move |&a| a != m).map(move |a| (a, m)));
    for (index, (a, m)) in flags.enumerate() {
        before[a][m] = bit(index);
    }
    let record_bits = events * (events - 1);
    let count = (0..32).fold(0u32, |acc, j| acc << 1 | bit(record_bits + j) as u32);
    FrameView { before, count }
}

impl FrameView {
    /// The before-matrix as a table (patent numbering E1..EN), then the count.
    pub fn table(&self) -> String {
        let n = self.before.len();
        let mut text = String::from("a before m |");
        for m in 0..n {
            text.push_str(&format!(" E{:<2}", m + 1));
        }
        text.push('\n');
        for (a, row) in self.before.iter().enumerate() {
            text.push_str(&format!("{:>10} |", format!("E{}", a + 1)));
            for (m, &flag) in row.iter().enumerate() {
                text.push_str(if a == m {
                    "  - "
                } else if flag {
                    "  1 "
                } else {
                    "  . "
                });
            }
            text.push('\n');
        }
        text.push_str(&format!("COUNT = {}\n", self.count));
        text
    }
}
