//! A register-level client of the board over any byte transport (a serial port or
//! the simulated board).
use anyhow::{bail, Result};
use std::collections::VecDeque;

use super::protocol::{read_command, write_command, Decoder, Message};

/// A byte pipe to the board.
pub trait Transport {
    /// Send bytes to the board.
    fn send(&mut self, bytes: &[u8]) -> Result<()>;
    /// The next byte from the board (errors after the transport's timeout).
    fn receive(&mut self) -> Result<u8>;
}

/// Register reads and writes, and frames, over a transport.
pub struct Client<T: Transport> {
    /// The transport.
    pub transport: T,
    decoder: Decoder,
    frames: VecDeque<Vec<u8>>,
}

impl<T: Transport> Client<T> {
    /// A client for a board whose frames have `frame_bytes` bytes.
    pub fn new(transport: T, frame_bytes: usize) -> Self {
        Self { transport, decoder: Decoder::new(frame_bytes), frames: VecDeque::new() }
    }

    /// The next answer; frames that arrive meanwhile are kept for [`Client::frame`].
    fn answer(&mut self) -> Result<Message> {
        loop {
            let byte = self.transport.receive()?;
            match self.decoder.feed(byte) {
                Some(Message::Frame(frame)) => self.frames.push_back(frame),
                Some(message) => return Ok(message),
                None => {}
            }
        }
    }

    /// Write a register.
    pub fn write(&mut self, addr: u8, value: u32) -> Result<()> {
        self.transport.send(&write_command(addr, value))?;
        match self.answer()? {
            Message::Ack => Ok(()),
            other => bail!("write of register 0x{addr:02x}: expected an acknowledge, got {other:?}"),
        }
    }

    /// Read a register.
    pub fn read(&mut self, addr: u8) -> Result<u32> {
        self.transport.send(&read_command(addr))?;
        match self.answer()? {
            Message::Data(value) => Ok(value),
            other => bail!("read of register 0x{addr:02x}: expected data, got {other:?}"),
        }
    }

    /// The next serial frame (packed bytes).
    pub fn frame(&mut self) -> Result<Vec<u8>> {
        loop {
            if let Some(frame) = self.frames.pop_front() {
                return Ok(frame);
            }
            let byte = self.transport.receive()?;
            if let Some(Message::Frame(frame)) = self.decoder.feed(byte) {
                return Ok(frame);
            }
        }
    }
}
