//! Evaluating blocks' Rust twins in signal order, as a parent that does not rely on
//! rust-hdl's delta cycles does (the RVFI adapter and the tops around it): an input
//! is driven and latched at once, a block is evaluated once its inputs are final, and
//! the rising edge is given to each block on its own.
use rust_hdl::prelude::*;

use crate::dyn_signal::DynSignal;

/// Drive a rust-hdl input and latch it.
pub fn put<T: Synth>(signal: &mut Signal<In, T>, value: T) {
    signal.next = value;
    signal.update_all();
}

/// Drive a run-time-width input from words (least significant first) and latch it.
pub fn put_words(signal: &mut DynSignal<In>, words: &[u64]) {
    signal.set_words(words);
    signal.latch();
}

/// Evaluate a block once with its inputs as driven (no edge).
pub fn evaluate<B: Logic>(block: &mut B) {
    block.update();
}

/// A rising edge of a block's clock, then its outputs from its new state.
pub fn clock_edge<B: Logic>(block: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    put(clock(block), Clock { clk: false });
    put(clock(block), Clock { clk: true });
    block.update();
    // Latched again, so that the edge is seen once.
    put(clock(block), Clock { clk: true });
}

/// A rising edge of a top's clock given through its whole `Block::update_all` (a top
/// that schedules its own blocks there), then its outputs from its new state.
pub fn top_edge<B: Block>(top: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    put(clock(top), Clock { clk: false });
    put(clock(top), Clock { clk: true });
    top.update_all();
}
