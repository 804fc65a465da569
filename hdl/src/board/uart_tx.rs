//! UART transmitter, 8N1: start bit, 8 data bits LSB first, stop bit.
//!
//! Latency: a byte taken at edge k (`send` high while `ready`) starts its start bit
//! in cycle k+1; each bit lasts `clocks_per_bit` cycles; `ready` rises again after
//! the stop bit. `tx` comes straight from a flip-flop and is high (idle) after
//! power-up and reset.
//!
//! ```text
//!  data[8], send --> | shifter, phase, timer | --> tx, ready
//! ```
use rust_hdl::prelude::*;

use super::baud::BitTiming;

/// 8N1 UART transmitter.
#[derive(LogicBlock)]
pub struct UartTx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: idle line, nothing to send.
    pub reset: Signal<In, Bit>,
    /// The byte to send; taken at an edge where `send` and `ready` are high.
    pub data: Signal<In, Bits<8>>,
    /// Send `data`.
    pub send: Signal<In, Bit>,
    /// The serial line (idle high).
    pub tx: Signal<Out, Bit>,
    /// The transmitter takes a byte at the next edge.
    pub ready: Signal<Out, Bit>,
    shifter: DFF<Bits<8>>,
    /// 0 idle, 10 start bit, 9..=2 data bits 0..=7, 1 stop bit.
    phase: DFF<Bits<4>>,
    timer: DFF<Bits<16>>,
    /// The line is low (stored inverted so the power-up value 0 is an idle line).
    line_low: DFF<Bit>,
    period_minus_one: Constant<Bits<16>>,
    timer_zero: Constant<Bits<16>>,
    timer_one: Constant<Bits<16>>,
    idle: Constant<Bits<4>>,
    phase_one: Constant<Bits<4>>,
    last_data_bit: Constant<Bits<4>>,
    start_bit: Constant<Bits<4>>,
    low: Constant<Bit>,
    high: Constant<Bit>,
}

impl UartTx {
    /// A transmitter with the given bit timing.
    pub fn new(timing: BitTiming) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            send: Default::default(),
            tx: Default::default(),
            ready: Default::default(),
            shifter: Default::default(),
            phase: Default::default(),
            timer: Default::default(),
            line_low: Default::default(),
            period_minus_one: Constant::new((timing.clocks_per_bit - 1).to_bits()),
            timer_zero: Constant::new(0.into()),
            timer_one: Constant::new(1.into()),
            idle: Constant::new(0.into()),
            phase_one: Constant::new(1.into()),
            last_data_bit: Constant::new(2.into()),
            start_bit: Constant::new(10.into()),
            low: Constant::new(true),
            high: Constant::new(false),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shifter, phase, timer, line_low);
        self.tx.next = !self.line_low.q.val();
        self.ready.next = self.phase.q.val() == self.idle.val();
        if self.phase.q.val() == self.idle.val() {
            if self.send.val() {
                self.shifter.d.next = self.data.val();
                self.phase.d.next = self.start_bit.val();
                self.timer.d.next = self.period_minus_one.val();
                self.line_low.d.next = self.low.val();
            }
        } else if self.timer.q.val() != self.timer_zero.val() {
            self.timer.d.next = self.timer.q.val() - self.timer_one.val();
        } else {
            self.timer.d.next = self.period_minus_one.val();
            self.phase.d.next = self.phase.q.val() - self.phase_one.val();
            if self.phase.q.val() == self.last_data_bit.val() {
                self.line_low.d.next = self.high.val();
            } else if self.phase.q.val() == self.phase_one.val() {
                self.line_low.d.next = self.high.val();
                self.timer.d.next = self.timer_zero.val();
            } else {
                self.line_low.d.next = !self.shifter.q.val().get_bit(0);
                self.shifter.d.next = self.shifter.q.val() >> 1;
            }
        }
        if self.reset.val() {
            self.phase.d.next = self.idle.val();
            self.timer.d.next = self.timer_zero.val();
            self.line_low.d.next = self.high.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, bits_of, edge};
    use pmugen_sim::reference::uart::encode;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut UartTx::new(BitTiming::new(12_000_000, 115_200).unwrap()), "uart_tx");
    }

    #[test]
    fn line_matches_the_8n1_waveform_cycle_by_cycle() {
        let seed = 0x5eed_0011;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let timing = BitTiming { clocks_per_bit: 9 };
        let mut uut = UartTx::new(timing);
        uut.connect_all();
        apply(&mut uut, |u| &mut u.clock, |_| {});
        assert!(uut.tx.val() && uut.ready.val(), "idle high and ready after power-up");
        for byte_index in 0..200 {
            let byte: u8 = rng.gen();
            let gap = rng.gen_range(0..5);
            for _ in 0..gap {
                apply(&mut uut, |u| &mut u.clock, |u| u.send.next = false);
                assert!(uut.tx.val() && uut.ready.val(), "idle between bytes");
                edge(&mut uut, |u| &mut u.clock);
            }
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.data.next = bits_of(byte as u64);
                    u.send.next = true;
                },
            );
            assert!(uut.ready.val());
            edge(&mut uut, |u| &mut u.clock);
            for (clock, level) in encode(byte, 9).into_iter().enumerate() {
                apply(&mut uut, |u| &mut u.clock, |u| u.send.next = false);
                assert_eq!(uut.tx.val(), level, "byte #{byte_index} {byte:#04x}, clock {clock}, seed {seed:#x}");
                assert!(!uut.ready.val() || clock == 9 * 10 - 1, "busy while sending, clock {clock}");
                edge(&mut uut, |u| &mut u.clock);
            }
        }
    }
}
