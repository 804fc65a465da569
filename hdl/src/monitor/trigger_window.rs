//! Start/stop trigger selection [17] and the counting window (docs/monitor.md §3.5).
//!
//! Each of the 4 start and 4 stop lines has its own rising-edge detector; the
//! selection (CTRL.START_SEL / STOP_SEL) comes after it, so changing the selection
//! never fakes an edge. The window opens on the selected start edge or
//! CMD.OPEN_WINDOW and closes on the selected stop edge or CMD.CLOSE_WINDOW;
//! closing wins. Seed 000 [0022]: "4-bit monitor start and stop signals ... any of
//! the 4 bits is selected as the trigger".
//!
//! Latency: the new state applies from the next cycle (`window` is registered).
//!
//! ```text
//!  start[4] -> rise -> [START_SEL] -+-> open  --> | state |--> window
//!  stop[4]  -> rise -> [STOP_SEL]  -+-> close --> |  FF   |
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::rise_detector::{RiseDetector, RiseTwin};
use crate::flip_flops::{within, FlipFlops};
use crate::word::WordSignal;

/// Number of start lines and of stop lines (docs/monitor.md §4).
pub const TRIGGER_LINES: usize = 4;

/// Window state with selectable start and stop triggers.
#[derive(LogicBlock)]
pub struct TriggerWindow {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: window closed, edge history 0.
    pub reset: Signal<In, Bit>,
    /// Start-trigger lines.
    pub start: WordSignal<In>,
    /// Stop-trigger lines.
    pub stop: WordSignal<In>,
    /// Which start line opens the window (CTRL.START_SEL).
    pub start_sel: Signal<In, Bits<2>>,
    /// Which stop line closes the window (CTRL.STOP_SEL).
    pub stop_sel: Signal<In, Bits<2>>,
    /// Open the window at this edge (CMD.OPEN_WINDOW).
    pub open_cmd: Signal<In, Bit>,
    /// Close the window at this edge (CMD.CLOSE_WINDOW); wins over any open.
    pub close_cmd: Signal<In, Bit>,
    /// The window is open during this cycle (registered).
    pub window: Signal<Out, Bit>,
    start_edges: RiseDetector,
    stop_edges: RiseDetector,
    state: DFF<Bit>,
    opened: Constant<Bit>,
    closed: Constant<Bit>,
}

impl TriggerWindow {
    /// A closed window.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: WordSignal::new(TRIGGER_LINES),
            stop: WordSignal::new(TRIGGER_LINES),
            start_sel: Default::default(),
            stop_sel: Default::default(),
            open_cmd: Default::default(),
            close_cmd: Default::default(),
            window: Default::default(),
            start_edges: RiseDetector::new(TRIGGER_LINES),
            stop_edges: RiseDetector::new(TRIGGER_LINES),
            state: Default::default(),
            opened: Constant::new(true),
            closed: Constant::new(false),
        }
    }
}

impl Default for TriggerWindow {
    fn default() -> Self {
        Self::new()
    }
}

impl TriggerWindow {
    /// The registers: both edge detectors' history and the window state.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let mut registers: Vec<FlipFlops> = within("start_edges", self.start_edges.flip_flops())
            .chain(within("stop_edges", self.stop_edges.flip_flops()))
            .collect();
        registers.push(FlipFlops::new("state.q", 1, 0, groups::WINDOW_AND_MATCH));
        registers
    }
}

impl Logic for TriggerWindow {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        self.start_edges.clock.next = self.clock.val();
        self.start_edges.reset.next = self.reset.val();
        self.start_edges.lines.next = self.start.val();
        self.stop_edges.clock.next = self.clock.val();
        self.stop_edges.reset.next = self.reset.val();
        self.stop_edges.lines.next = self.stop.val();
        self.window.next = self.state.q.val();
        if self.start_edges.rise.val().get_bit(self.start_sel.val().index()) | self.open_cmd.val() {
            self.state.d.next = self.opened.val();
        }
        if self.stop_edges.rise.val().get_bit(self.stop_sel.val().index()) | self.close_cmd.val() {
            self.state.d.next = self.closed.val();
        }
        if self.reset.val() {
            self.state.d.next = self.closed.val();
        }
    }
}

/// The window in plain Rust: its twin in the monitor's native simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowTwin {
    /// The start lines' edge detector.
    pub start_edges: RiseTwin,
    /// The stop lines' edge detector.
    pub stop_edges: RiseTwin,
    /// The window is open.
    pub open: bool,
}

/// One cycle's inputs of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowInputs {
    /// Start lines.
    pub start: u64,
    /// Stop lines.
    pub stop: u64,
    /// CTRL.START_SEL.
    pub start_sel: usize,
    /// CTRL.STOP_SEL.
    pub stop_sel: usize,
    /// CMD.OPEN_WINDOW.
    pub open: bool,
    /// CMD.CLOSE_WINDOW.
    pub close: bool,
    /// Reset.
    pub reset: bool,
}

impl WindowTwin {
    /// The rising edge: opening on the selected start edge or the command, closing
    /// (which wins) on the selected stop edge or the command.
    pub fn edge(&mut self, inputs: &WindowInputs) {
        let started = self.start_edges.rise(inputs.start) >> inputs.start_sel & 1 == 1 || inputs.open;
        let stopped = self.stop_edges.rise(inputs.stop) >> inputs.stop_sel & 1 == 1 || inputs.close;
        self.open = !inputs.reset && !stopped && (started || self.open);
        self.start_edges.edge(inputs.start, inputs.reset);
        self.stop_edges.edge(inputs.stop, inputs.reset);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, bits_of, cycle};
    use crate::word::Word;
    use pmugen_sim::reference::window::WindowModel;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut TriggerWindow::new(), "trigger_window");
    }

    #[test]
    fn window_matches_reference() {
        let seed = 0x5eed_0006;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = TriggerWindow::new();
        uut.connect_all();
        let mut model = WindowModel::default();
        let (mut start, mut stop) = (0u8, 0u8);
        for step in 0..5_000 {
            if rng.gen_bool(0.2) {
                start ^= 1 << rng.gen_range(0..4);
            }
            if rng.gen_bool(0.2) {
                stop ^= 1 << rng.gen_range(0..4);
            }
            let (start_sel, stop_sel) = (rng.gen_range(0..4u32), rng.gen_range(0..4u32));
            let (open, close, reset) = (rng.gen_ratio(1, 20), rng.gen_ratio(1, 20), rng.gen_ratio(1, 200));
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.start.next = Word::new(TRIGGER_LINES, start as u64);
                    u.stop.next = Word::new(TRIGGER_LINES, stop as u64);
                    u.start_sel.next = bits_of(start_sel as u64);
                    u.stop_sel.next = bits_of(stop_sel as u64);
                    u.open_cmd.next = open;
                    u.close_cmd.next = close;
                    u.reset.next = reset;
                },
            );
            if reset {
                model = WindowModel::default();
            } else {
                model.step(start, stop, start_sel, stop_sel, open, close);
            }
            assert_eq!(uut.window.val(), model.open, "step {step} seed {seed:#x}");
        }
    }

    /// The twin is the block: the window after each edge.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1405;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = TriggerWindow::new();
        uut.connect_all();
        let mut model = WindowTwin::default();
        for step in 0..5_000 {
            let inputs = WindowInputs {
                start: rng.gen_range(0..16),
                stop: rng.gen_range(0..16),
                start_sel: rng.gen_range(0..4),
                stop_sel: rng.gen_range(0..4),
                open: rng.gen_ratio(1, 10),
                close: rng.gen_ratio(1, 10),
                reset: rng.gen_ratio(1, 100),
            };
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.start.next = Word::new(TRIGGER_LINES, inputs.start);
                    u.stop.next = Word::new(TRIGGER_LINES, inputs.stop);
                    u.start_sel.next = bits_of(inputs.start_sel as u64);
                    u.stop_sel.next = bits_of(inputs.stop_sel as u64);
                    u.open_cmd.next = inputs.open;
                    u.close_cmd.next = inputs.close;
                    u.reset.next = inputs.reset;
                },
            );
            model.edge(&inputs);
            assert_eq!(uut.window.val(), model.open, "step {step}, seed {seed:#x}");
        }
    }
}
