//! Support for blocks whose Verilog is written by hand (`Verilog::Custom`).
//!
//! `#[hdl_gen]` cannot express a reduction over N*(N-1)/2 pairs without a chain of
//! signals (slow to simulate natively) and cannot change widths without 32-bit
//! literals (Verilator WIDTH warnings). Such blocks write their Verilog text from
//! Rust and keep an equivalent plain-Rust `update()`; the Verilator co-simulation
//! proves the two agree.
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Write;

thread_local! {
    /// The hand-written block kinds emitted while [`hand_written_blocks`] watches.
    static EMITTED: RefCell<Option<BTreeSet<&'static str>>> = const { RefCell::new(None) };
}

/// The Verilog of a hand-written block of kind `B` (its `Logic::hdl`): `text`, as
/// `Verilog::Custom`. Every hand-written block goes through here, so that the block
/// registry can tell which kinds a design emits (`testing::registry`: each kind has a
/// lockstep test against its own Verilog).
pub fn hand_written<B: ?Sized>(text: String) -> Verilog {
    EMITTED.with(|emitted| {
        if let Some(kinds) = emitted.borrow_mut().as_mut() {
            kinds.insert(std::any::type_name::<B>());
        }
    });
    Verilog::Custom(text)
}

/// The kinds of hand-written block that `emit` emits (their type names).
pub fn hand_written_blocks(emit: impl FnOnce()) -> BTreeSet<&'static str> {
    EMITTED.with(|emitted| *emitted.borrow_mut() = Some(BTreeSet::new()));
    emit();
    EMITTED.with(|emitted| emitted.borrow_mut().take().unwrap_or_default())
}

/// Plain-Rust state inside a custom block: invisible to the netlist and probes.
#[derive(Clone, Debug, Default)]
pub struct Internal<T>(pub T);

impl<T> Logic for Internal<T> {
    fn update(&mut self) {}
    fn connect(&mut self) {}
}

impl<T> Block for Internal<T> {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, _name: &str, _probe: &mut dyn Probe) {}
}

/// `expr` (of `width` bits) zero-extended to 32 bits, without a width mismatch.
pub fn zero_extend_32(expr: &str, width: usize) -> String {
    assert!((1..=32).contains(&width), "zero_extend_32: width {width} is out of range 1..=32");
    if width == 32 {
        expr.to_string()
    } else {
        format!("{{{}'h0, {expr}}}", 32 - width)
    }
}

/// A row `signal` of `n` bits with bit `skip` replaced by a constant 0.
pub fn row_without_bit(signal: &str, n: usize, skip: usize) -> String {
    let mut parts = Vec::new();
    if skip + 1 < n {
        parts.push(format!("{signal}[{}:{}]", n - 1, skip + 1));
    }
    parts.push("1'b0".to_string());
    if skip > 0 {
        parts.push(format!("{signal}[{}:0]", skip - 1));
    }
    format!("{{{}}}", parts.join(", "))
}

/// A `wire unused_<what> = ^{...};` sink: Verilator's lint does not report signals
/// named `*unused*`, so bits that are read by nothing are listed here on purpose.
pub fn unused_sink(what: &str, bits: &[String]) -> String {
    let mut text = String::new();
    if !bits.is_empty() {
        let _ = writeln!(text, "wire unused_{what} = ^{{{}}};", bits.join(", "));
    }
    text
}

/// The unused sink for the diagonal bits `rows$m[m]` of N record rows: bit m of
/// row m is never set (no event occurs before itself), so no block reads it.
pub fn unused_diagonal(rows: &str, n: usize) -> String {
    let diagonal: Vec<String> = (0..n).map(|m| format!("{rows}${m}[{m}]")).collect();
    unused_sink("diagonal", &diagonal)
}

/// Number of bits needed to hold `value`.
pub fn bits_for(value: usize) -> usize {
    (usize::BITS - value.max(1).leading_zeros()) as usize
}

/// Append one formatted line to a Verilog text (`String`).
#[macro_export]
macro_rules! verilog {
    ($text:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($text, $($arg)*);
    }};
}

/// The declaration range of a `width`-bit signal: `""` for one bit, else `"[w-1:0] "`.
pub fn range(width: usize) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

/// A sized hexadecimal literal, `w'hv`.
pub fn literal(width: usize, value: u64) -> String {
    format!("{width}'h{value:x}")
}

/// Bits `lsb..lsb+width` of `signal` (a `total`-bit signal), as a Verilog expression.
pub fn slice(signal: &str, lsb: usize, width: usize, total: usize) -> String {
    if lsb == 0 && width == total {
        signal.to_string()
    } else if width == 1 {
        format!("{signal}[{lsb}]")
    } else {
        format!("{signal}[{}:{lsb}]", lsb + width - 1)
    }
}

/// `expr` (of `from` bits) zero-extended to `to` bits.
pub fn zero_extend(expr: &str, from: usize, to: usize) -> String {
    assert!(from <= to, "zero_extend: {from} bits do not fit {to}");
    if from == to {
        expr.to_string()
    } else {
        format!("{{{}'h0, {expr}}}", to - from)
    }
}

/// A register `name` of `width` bits with its power-on value (`initial`), so that
/// FPGAs that load initial values start in the reset state.
pub fn register_declaration(name: &str, width: usize, reset: u64) -> String {
    format!("reg {}{name};\ninitial {name} = {};\n", range(width), literal(width, reset))
}
