//! The board top simulated natively, as a transport: host bytes become 8N1 line
//! levels on `uart_rx` clock by clock, and `uart_tx` is decoded back into bytes, so
//! the protocol runs over the real wire format.
use anyhow::{bail, Result};
use rust_hdl::prelude::*;
use std::collections::VecDeque;

use pmugen_hdl::board::baud::BitTiming;
use pmugen_hdl::board::board_top::{BoardTop, Polarity};
use pmugen_hdl::word::Word;
use pmugen_sim::reference::uart::{encode, LineDecoder};

use super::client::Transport;

/// Bytes' worth of clocks `receive` waits before giving up.
const TIMEOUT_BYTES: u64 = 400;

/// A simulated board for N events, W-bit orders and B frame bytes.
pub struct SimulatedBoard<const N: usize, const W: usize, const B: usize> {
    uut: BoardTop<N, W, B>,
    clocks_per_bit: usize,
    line_to_board: VecDeque<bool>,
    line_from_board: LineDecoder,
    received: VecDeque<u8>,
    /// Event pins driven from now on.
    pub event_pins: u32,
    /// Start pins driven from now on.
    pub start_pins: u8,
    /// Stop pins driven from now on.
    pub stop_pins: u8,
    /// Clock cycles simulated.
    pub cycles: u64,
}

impl<const N: usize, const W: usize, const B: usize> SimulatedBoard<N, W, B> {
    /// A board after power-up, with the UART at `clocks_per_bit`.
    pub fn new(clocks_per_bit: u64) -> Self {
        // Active-high reset and LEDs; `reset` stays low, so the board runs from its
        // power-up state.
        let mut uut = BoardTop::new(BitTiming { clocks_per_bit }, Polarity::ActiveHigh, Polarity::ActiveHigh);
        uut.connect_all();
        Self {
            uut,
            clocks_per_bit: clocks_per_bit as usize,
            line_to_board: VecDeque::new(),
            line_from_board: LineDecoder::new(clocks_per_bit as usize),
            received: VecDeque::new(),
            event_pins: 0,
            start_pins: 0,
            stop_pins: 0,
            cycles: 0,
        }
    }

    /// Simulate `count` clock cycles.
    pub fn run(&mut self, count: u64) {
        for _ in 0..count {
            let uut = &mut self.uut;
            uut.clock.next = Clock { clk: false };
            uut.uart_rx.next = self.line_to_board.pop_front().unwrap_or(true);
            uut.event_pins.next = Word::new(uut.event_pins.width(), self.event_pins as u64);
            uut.start_pins.next = Word::new(uut.start_pins.width(), self.start_pins as u64);
            uut.stop_pins.next = Word::new(uut.stop_pins.width(), self.stop_pins as u64);
            assert!(simulate(uut, 200), "board model did not settle");
            uut.clock.next = Clock { clk: true };
            assert!(simulate(uut, 200), "board model did not settle");
            if let Some(byte) = self.line_from_board.sample(self.uut.uart_tx.val()) {
                self.received.push_back(byte);
            }
            self.cycles += 1;
        }
    }

    /// The LEDs: (matched, window).
    pub fn leds(&self) -> (bool, bool) {
        (self.uut.led_matched.val(), self.uut.led_window.val())
    }
}

impl<const N: usize, const W: usize, const B: usize> Transport for SimulatedBoard<N, W, B> {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        for &byte in bytes {
            self.line_to_board.extend(encode(byte, self.clocks_per_bit));
            self.line_to_board.push_back(true);
        }
        Ok(())
    }

    fn receive(&mut self) -> Result<u8> {
        let limit = self.cycles + TIMEOUT_BYTES * 10 * self.clocks_per_bit as u64;
        while self.received.is_empty() {
            if self.cycles >= limit {
                bail!("the simulated board sent nothing for {TIMEOUT_BYTES} byte times");
            }
            self.run(1);
        }
        Ok(self.received.pop_front().expect("not empty"))
    }
}
