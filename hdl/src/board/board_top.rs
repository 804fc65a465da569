//! Board-level top: the monitor behind input synchronizers and a UART host link.
//!
//! Event, start and stop pins pass through two-flip-flop synchronizers (the same
//! two-cycle delay for all, so their order is kept, docs/monitor.md §3.7); `reset` and
//! `uart_rx` are synchronized the same way. The host reads and writes registers and
//! receives frames over `uart_rx`/`uart_tx` (protocol in `host_link.rs`). The
//! LEDs show the registered `matched` and `window` outputs.
//!
//! ```text
//!  event/start/stop pins --> sync --> EventOrderMonitor --> led_matched, led_window
//!  uart_rx --> sync --> UartRx --> HostLink <--> register port, serial frame
//!                                  HostLink --> UartTx --> uart_tx
//! ```
use rust_hdl::prelude::*;
use rust_hdl::widgets::synchronizer::BitSynchronizer;

use super::baud::BitTiming;
use super::host_link::HostLink;
use super::synchronizer::Synchronizer;
use super::uart_rx::UartRx;
use super::uart_tx::UartTx;
use crate::monitor::top::EventOrderMonitor;
use crate::monitor::trigger_window::TRIGGER_LINES;
use crate::params::MonitorParams;
use crate::word::WordSignal;

/// Active level of a board pin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Polarity {
    /// 1 means asserted (pressed, lit).
    ActiveHigh,
    /// 0 means asserted (e.g. a button to ground, an LED to VCC).
    ActiveLow,
}

impl Polarity {
    fn inverted(self) -> bool {
        self == Polarity::ActiveLow
    }
}

/// Frame bytes for N events: ceil((N*(N-1) + 32) / 8).
pub const fn frame_bytes(events: usize) -> usize {
    (events * (events - 1) + 32).div_ceil(8)
}

/// The monitor with synchronizers and a UART link, for N events, W-bit orders and
/// B = `frame_bytes(N)` frame bytes.
#[derive(LogicBlock)]
pub struct BoardTop<const N: usize, const W: usize, const B: usize> {
    /// Board clock.
    pub clock: Signal<In, Clock>,
    /// Reset button (polarity set in `new`, synchronized inside).
    pub reset: Signal<In, Bit>,
    /// Event pins.
    pub event_pins: WordSignal<In>,
    /// Start-trigger pins.
    pub start_pins: WordSignal<In>,
    /// Stop-trigger pins.
    pub stop_pins: WordSignal<In>,
    /// UART from the host.
    pub uart_rx: Signal<In, Bit>,
    /// UART to the host.
    pub uart_tx: Signal<Out, Bit>,
    /// LED: the match flag (polarity set in `new`).
    pub led_matched: Signal<Out, Bit>,
    /// LED: the window is open.
    pub led_window: Signal<Out, Bit>,
    event_sync: Synchronizer,
    start_sync: Synchronizer,
    stop_sync: Synchronizer,
    reset_sync: BitSynchronizer,
    rx_sync: BitSynchronizer,
    monitor: EventOrderMonitor,
    link: HostLink<B>,
    receiver: UartRx,
    transmitter: UartTx,
    reset_invert: Constant<Bit>,
    led_invert: Constant<Bit>,
}

impl<const N: usize, const W: usize, const B: usize> BoardTop<N, W, B> {
    /// A board top with the given UART bit timing and pin polarities; `B` must be
    /// `frame_bytes(N)`.
    pub fn new(timing: BitTiming, reset: Polarity, leds: Polarity) -> Self {
        assert_eq!(B, frame_bytes(N), "BoardTop: B = {B} must be frame_bytes(N = {N}) = {}", frame_bytes(N));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            event_pins: WordSignal::new(N),
            start_pins: WordSignal::new(TRIGGER_LINES),
            stop_pins: WordSignal::new(TRIGGER_LINES),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_matched: Default::default(),
            led_window: Default::default(),
            event_sync: Synchronizer::new(N),
            start_sync: Synchronizer::new(TRIGGER_LINES),
            stop_sync: Synchronizer::new(TRIGGER_LINES),
            reset_sync: Default::default(),
            rx_sync: Default::default(),
            monitor: EventOrderMonitor::new(
                MonitorParams::new(N as u64, W as u64).expect("BoardTop: N or W out of range"),
            ),
            link: HostLink::new(),
            receiver: UartRx::new(timing),
            transmitter: UartTx::new(timing),
            reset_invert: Constant::new(reset.inverted()),
            led_invert: Constant::new(leds.inverted()),
        }
    }
}

impl<const N: usize, const W: usize, const B: usize> Logic for BoardTop<N, W, B> {
    #[hdl_gen]
    fn update(&mut self) {
        self.event_sync.clock.next = self.clock.val();
        self.start_sync.clock.next = self.clock.val();
        self.stop_sync.clock.next = self.clock.val();
        self.reset_sync.clock.next = self.clock.val();
        self.rx_sync.clock.next = self.clock.val();
        self.monitor.clock.next = self.clock.val();
        self.link.clock.next = self.clock.val();
        self.receiver.clock.next = self.clock.val();
        self.transmitter.clock.next = self.clock.val();
        self.event_sync.pins.next = self.event_pins.val();
        self.start_sync.pins.next = self.start_pins.val();
        self.stop_sync.pins.next = self.stop_pins.val();
        self.reset_sync.sig_in.next = self.reset.val() ^ self.reset_invert.val();
        self.rx_sync.sig_in.next = self.uart_rx.val();
        self.monitor.reset.next = self.reset_sync.sig_out.val();
        self.link.reset.next = self.reset_sync.sig_out.val();
        self.receiver.reset.next = self.reset_sync.sig_out.val();
        self.transmitter.reset.next = self.reset_sync.sig_out.val();
        self.monitor.events.next = self.event_sync.lines.val();
        self.monitor.start.next = self.start_sync.lines.val();
        self.monitor.stop.next = self.stop_sync.lines.val();
        self.receiver.rx.next = self.rx_sync.sig_out.val();
        self.link.rx_data.next = self.receiver.data.val();
        self.link.rx_valid.next = self.receiver.valid.val();
        self.link.tx_ready.next = self.transmitter.ready.val();
        self.transmitter.data.next = self.link.tx_data.val();
        self.transmitter.send.next = self.link.tx_send.val();
        self.monitor.reg_addr.next = self.link.reg_addr.val();
        self.monitor.reg_wdata.next = self.link.reg_wdata.val();
        self.monitor.reg_write.next = self.link.reg_write.val();
        self.link.reg_rdata.next = self.monitor.reg_rdata.val();
        self.link.ser_data.next = self.monitor.ser_data.val();
        self.link.ser_valid.next = self.monitor.ser_valid.val();
        self.link.ser_last.next = self.monitor.ser_last.val();
        self.uart_tx.next = self.transmitter.tx.val();
        self.led_matched.next = self.monitor.matched.val() ^ self.led_invert.val();
        self.led_window.next = self.monitor.window.val() ^ self.led_invert.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::assert_valid_verilog;

    #[test]
    fn verilog_is_valid() {
        let timing = BitTiming::new(12_000_000, 115_200).unwrap();
        let (low, high) = (Polarity::ActiveLow, Polarity::ActiveHigh);
        assert_valid_verilog(&mut BoardTop::<8, 3, { frame_bytes(8) }>::new(timing, low, high), "board_n8_w3");
    }
}
