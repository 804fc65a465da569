//! UART receiver, 8N1, sampling each bit in its middle.
//!
//! `rx` must already be synchronous (see `synchronizer.rs`). A low level starts a
//! byte; the start bit is checked again half a bit later (shorter glitches are
//! ignored); a byte whose stop bit is low (framing error) is dropped.
//!
//! Latency: `valid` pulses for one cycle right after the middle of the stop bit,
//! with the byte on `data`.
//!
//! ```text
//!  rx --> | phase, timer, shifter | --> data[8], valid
//! ```
use rust_hdl::prelude::*;

use super::baud::BitTiming;

/// 8N1 UART receiver.
#[derive(LogicBlock)]
pub struct UartRx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: wait for a start bit.
    pub reset: Signal<In, Bit>,
    /// The serial line, synchronous to `clock` (idle high).
    pub rx: Signal<In, Bit>,
    /// The last byte received.
    pub data: Signal<Out, Bits<8>>,
    /// One-cycle strobe: `data` holds a new byte.
    pub valid: Signal<Out, Bit>,
    shifter: DFF<Bits<8>>,
    /// 0 idle, 10 start bit, 9..=2 data bits 0..=7, 1 stop bit.
    phase: DFF<Bits<4>>,
    timer: DFF<Bits<16>>,
    strobe: DFF<Bit>,
    period_minus_one: Constant<Bits<16>>,
    half_period_minus_one: Constant<Bits<16>>,
    timer_zero: Constant<Bits<16>>,
    timer_one: Constant<Bits<16>>,
    idle: Constant<Bits<4>>,
    phase_one: Constant<Bits<4>>,
    start_bit: Constant<Bits<4>>,
    msb: Constant<Bits<8>>,
    set: Constant<Bit>,
    cleared: Constant<Bit>,
}

impl UartRx {
    /// A receiver with the given bit timing.
    pub fn new(timing: BitTiming) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            shifter: Default::default(),
            phase: Default::default(),
            timer: Default::default(),
            strobe: Default::default(),
            period_minus_one: Constant::new((timing.clocks_per_bit - 1).to_bits()),
            half_period_minus_one: Constant::new((timing.clocks_per_bit / 2 - 1).to_bits()),
            timer_zero: Constant::new(0.into()),
            timer_one: Constant::new(1.into()),
            idle: Constant::new(0.into()),
            phase_one: Constant::new(1.into()),
            start_bit: Constant::new(10.into()),
            msb: Constant::new(0x80.into()),
            set: Constant::new(true),
            cleared: Constant::new(false),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shifter, phase, timer, strobe);
        self.data.next = self.shifter.q.val();
        self.valid.next = self.strobe.q.val();
        self.strobe.d.next = self.cleared.val();
        if self.phase.q.val() == self.idle.val() {
            if !self.rx.val() {
                self.phase.d.next = self.start_bit.val();
                self.timer.d.next = self.half_period_minus_one.val();
            }
        } else if self.timer.q.val() != self.timer_zero.val() {
            self.timer.d.next = self.timer.q.val() - self.timer_one.val();
        } else {
            self.timer.d.next = self.period_minus_one.val();
            self.phase.d.next = self.phase.q.val() - self.phase_one.val();
            if self.phase.q.val() == self.start_bit.val() {
                if self.rx.val() {
                    self.phase.d.next = self.idle.val();
                }
            } else if self.phase.q.val() == self.phase_one.val() {
                if self.rx.val() {
                    self.strobe.d.next = self.set.val();
                }
            } else if self.rx.val() {
                self.shifter.d.next = (self.shifter.q.val() >> 1) | self.msb.val();
            } else {
                self.shifter.d.next = self.shifter.q.val() >> 1;
            }
        }
        if self.reset.val() {
            self.phase.d.next = self.idle.val();
            self.strobe.d.next = self.cleared.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::uart_tx::UartTx;
    use crate::testing::{apply, assert_valid_verilog, bits_of, cycle, edge, value_of};
    use pmugen_sim::reference::uart::encode;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut UartRx::new(BitTiming::new(12_000_000, 115_200).unwrap()), "uart_rx");
    }

    /// Feed `line` (one level per clock); return the bytes received.
    fn receive(uut: &mut UartRx, line: &[bool]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for &level in line {
            cycle(uut, |u| &mut u.clock, |u| u.rx.next = level);
            if uut.valid.val() {
                bytes.push(value_of(uut.data.val()) as u8);
            }
        }
        bytes
    }

    #[test]
    fn receives_8n1_bytes_rejects_glitches_and_framing_errors() {
        let seed = 0x5eed_0012;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = UartRx::new(BitTiming { clocks_per_bit: 10 });
        uut.connect_all();
        let mut line = vec![true; 4];
        let mut expected = Vec::new();
        for _ in 0..300 {
            match rng.gen_range(0..10) {
                0 => line.extend([false, false, true, true, true, true, true]), // glitch < half a bit
                1 => {
                    let mut bad = encode(rng.gen(), 10);
                    bad[95..].iter_mut().for_each(|level| *level = false); // low stop bit
                    line.extend(bad);
                    line.extend([true; 12]);
                }
                _ => {
                    let byte: u8 = rng.gen();
                    expected.push(byte);
                    line.extend(encode(byte, 10));
                }
            }
            line.extend(std::iter::repeat_n(true, rng.gen_range(0..6)));
        }
        assert_eq!(receive(&mut uut, &line), expected, "seed {seed:#x}");
    }

    #[test]
    fn loopback_from_the_transmitter() {
        let timing = BitTiming::new(12_000_000, 115_200).unwrap();
        let mut tx = UartTx::new(timing);
        let mut rx = UartRx::new(timing);
        tx.connect_all();
        rx.connect_all();
        let message = b"pmugen \x00\xff";
        let (mut sent, mut received) = (0, Vec::new());
        for _ in 0..message.len() * 11 * 104 + 200 {
            let send = sent < message.len();
            apply(
                &mut tx,
                |u| &mut u.clock,
                |u| {
                    u.send.next = send;
                    u.data.next = bits_of(*message.get(sent).unwrap_or(&0) as u64);
                },
            );
            // The byte is taken at this edge when `send` and `ready` are both high.
            if send && tx.ready.val() {
                sent += 1;
            }
            edge(&mut tx, |u| &mut u.clock);
            let level = tx.tx.val();
            cycle(&mut rx, |u| &mut u.clock, |u| u.rx.next = level);
            if rx.valid.val() {
                received.push(value_of(rx.data.val()) as u8);
            }
        }
        assert_eq!(received, message.to_vec());
    }
}
