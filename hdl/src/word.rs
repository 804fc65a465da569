//! Signals of at most 64 bits whose width is chosen at run time, for `#[hdl_gen]` blocks.
//!
//! rust-hdl's `Signal<D, Bits<N>>`, `DFF<Bits<N>>` and `Constant<Bits<N>>` fix the width
//! in the type, so a block sized by the monitor's N and W would be compiled once per
//! (N, W). The `#[hdl_gen]` macro itself does not care about types: its Verilog is built
//! from the field paths of the kernel, and widths come from each atom at run time
//! (`Atom::bits`). [`WordSignal`], [`WordDff`] and [`WordConstant`] are the three with a
//! run-time width: a kernel written against them (`self.q.next = self.d.val() | ...`)
//! compiles once, emits the same Verilog as the const-generic types of that width, and
//! simulates on one `u64` ([`Word`]).
//!
//! Reading follows rust-hdl's `Signal`: `val()` is the value latched at the last delta
//! cycle, whatever the direction. [`crate::dyn_signal::DynSignal`] is the other
//! run-time-width signal, for hand-written blocks and ports wider than 64 bits.
use std::ops::{Add, BitAnd, BitOr, BitXor, Not};

use rust_hdl::core::ast::VerilogLiteral;
use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::core::constraint::PinConstraint;
use rust_hdl::core::signal::get_signal_id;
use rust_hdl::core::synth::VCDValue;
use rust_hdl::core::type_descriptor::{TypeDescriptor, TypeKind};
use rust_hdl::prelude::*;
use std::marker::PhantomData;

use crate::dyn_signal::low_mask;

/// A value of 1..=64 bits; the width travels with it, bits above it are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    value: u64,
    width: u8,
}

impl Word {
    /// `value` (bits above `width` dropped) as a `width`-bit word.
    pub fn new(width: usize, value: u64) -> Self {
        assert!((1..=64).contains(&width), "Word: width {width} is out of range 1..=64");
        Self { value: value & low_mask(width), width: width as u8 }
    }

    /// A `width`-bit zero.
    pub fn zero(width: usize) -> Self {
        Self::new(width, 0)
    }

    /// The value.
    pub fn value(self) -> u64 {
        self.value
    }

    /// The width in bits.
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Bit `index` (0 beyond the width, as a Verilog bit select of a wider index
    /// would be out of range).
    pub fn get_bit(self, index: usize) -> bool {
        index < 64 && self.value >> index & 1 == 1
    }

    /// The value as an index (rust-hdl's `Bits::index`).
    pub fn index(self) -> usize {
        self.value as usize
    }

    /// The value as a Verilog literal of its width.
    pub fn literal(self) -> VerilogLiteral {
        literal(self.width(), self.value)
    }

    fn same_width(self, other: Word, op: &str) -> usize {
        debug_assert_eq!(self.width, other.width, "Word {op}: {} and {} bits", self.width, other.width);
        self.width()
    }
}

impl BitAnd for Word {
    type Output = Word;
    fn bitand(self, other: Word) -> Word {
        Word::new(self.same_width(other, "&"), self.value & other.value)
    }
}

impl BitOr for Word {
    type Output = Word;
    fn bitor(self, other: Word) -> Word {
        Word::new(self.same_width(other, "|"), self.value | other.value)
    }
}

impl BitXor for Word {
    type Output = Word;
    fn bitxor(self, other: Word) -> Word {
        Word::new(self.same_width(other, "^"), self.value ^ other.value)
    }
}

impl Not for Word {
    type Output = Word;
    fn not(self) -> Word {
        Word::new(self.width(), !self.value)
    }
}

impl Add for Word {
    type Output = Word;
    /// Modulo 2^width, as a Verilog sum assigned to a signal of that width.
    fn add(self, other: Word) -> Word {
        Word::new(self.same_width(other, "+"), self.value.wrapping_add(other.value))
    }
}

/// A Verilog literal of `width` bits (rust-hdl builds literals of a width only from a
/// `Bits<N>` of that width, so the 64 widths are listed once here).
pub fn literal(width: usize, value: u64) -> VerilogLiteral {
    macro_rules! by_width {
        ($($n:literal)*) => {
            match width {
                $($n => VerilogLiteral::from(Bits::<$n>::from(value & low_mask($n))),)*
                _ => panic!("literal: width {width} is out of range 1..=64"),
            }
        };
    }
    by_width!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
              33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64)
}

fn descriptor(width: usize) -> TypeDescriptor {
    TypeDescriptor { name: format!("Bits::<{width}>"), kind: TypeKind::Bits(width) }
}

fn vcd(word: Word) -> VCDValue {
    let bit = |index: usize| {
        if word.get_bit(index) {
            vcd::Value::V1
        } else {
            vcd::Value::V0
        }
    };
    if word.width() == 1 {
        VCDValue::Single(bit(0))
    } else {
        VCDValue::Vector((0..word.width()).rev().map(bit).collect())
    }
}

/// A signal of 1..=64 bits, its width fixed when it is made; `next` and `val()` as
/// rust-hdl's `Signal`.
#[derive(Clone, Debug)]
pub struct WordSignal<D: Direction> {
    /// The value being driven in this delta cycle.
    pub next: Word,
    val: Word,
    changed: bool,
    claimed: bool,
    id: usize,
    dir: PhantomData<D>,
}

impl<D: Direction> WordSignal<D> {
    /// A `width`-bit signal, initially 0.
    pub fn new(width: usize) -> Self {
        Self {
            next: Word::zero(width),
            val: Word::zero(width),
            changed: false,
            claimed: false,
            id: get_signal_id(),
            dir: PhantomData,
        }
    }

    /// The value latched at the last delta cycle.
    pub fn val(&self) -> Word {
        self.val
    }

    /// Its width in bits.
    pub fn width(&self) -> usize {
        self.val.width()
    }
}

impl<D: Direction> WordSignal<D> {
    fn type_descriptor(&self) -> TypeDescriptor {
        descriptor(self.width())
    }

    fn vcd_value(&self) -> VCDValue {
        vcd(self.val)
    }

    fn latch_changed(&mut self) -> bool {
        debug_assert_eq!(
            self.next.width, self.val.width,
            "a {}-bit signal driven with {} bits",
            self.val.width, self.next.width
        );
        let changed = self.val != self.next;
        self.val = self.next;
        changed
    }
}

crate::dyn_signal::run_time_signal!(WordSignal);

/// A constant of 1..=64 bits (a `localparam` in the Verilog).
#[derive(Clone, Copy, Debug)]
pub struct WordConstant {
    value: Word,
    id: usize,
}

impl WordConstant {
    /// `value` as a `width`-bit constant.
    pub fn new(width: usize, value: u64) -> Self {
        Self { value: Word::new(width, value), id: get_signal_id() }
    }

    /// The value (usable in `#[hdl_gen]` kernels).
    pub fn val(&self) -> Word {
        self.value
    }
}

impl Atom for WordConstant {
    fn bits(&self) -> usize {
        self.value.width()
    }
    fn connected(&self) -> bool {
        true
    }
    fn changed(&self) -> bool {
        false
    }
    fn kind(&self) -> AtomKind {
        AtomKind::Constant
    }
    fn descriptor(&self) -> TypeDescriptor {
        descriptor(self.value.width())
    }
    fn vcd(&self) -> VCDValue {
        vcd(self.value)
    }
    fn id(&self) -> usize {
        self.id
    }
    fn verilog(&self) -> VerilogLiteral {
        self.value.literal()
    }
    fn constraints(&self) -> Vec<PinConstraint> {
        Vec::new()
    }
}

impl Logic for WordConstant {
    fn update(&mut self) {}
    fn connect(&mut self) {}
}

impl Block for WordConstant {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        probe.visit_atom(name, self);
    }
}

/// A D flip-flop of 1..=64 bits, initially 0: rust-hdl's `DFF` with a run-time width
/// (same ports, same Verilog; `dff_setup!` works on it).
#[derive(LogicBlock)]
pub struct WordDff {
    /// Next value.
    pub d: WordSignal<In>,
    /// Current value.
    pub q: WordSignal<Out>,
    /// Clock: `q` takes `d` at its rising edge.
    pub clock: Signal<In, Clock>,
}

impl WordDff {
    /// A `width`-bit flip-flop.
    pub fn new(width: usize) -> Self {
        Self { d: WordSignal::new(width), q: WordSignal::new(width), clock: Default::default() }
    }
}

impl Logic for WordDff {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val();
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        // rust-hdl's DFF text, so that a design keeps its Verilog byte for byte.
        crate::custom::hand_written::<Self>(format!(
            "\
initial begin
   q = {:x};
end

always @(posedge clock) begin
   q <= d;
end
      ",
            Word::zero(self.q.width()).literal()
        ))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Port, Ports};
    use rand::{Rng, SeedableRng};

    impl Ports for WordDff {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; d, q)
        }
    }

    /// `WordDff` at random widths over 1..=64, the corners 1 and 64 included.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1305;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let widths = [1, 64].into_iter().chain((0..3).map(|_| rng.gen_range(1..=64)));
        let instances = widths.map(|width| (format!("{width}-bit WordDff"), WordDff::new(width))).collect();
        Lockstep::new("word_dff", seed).cycles(2_000).run(instances);
    }

    #[test]
    fn words_keep_their_width() {
        let a = Word::new(5, 0xFF);
        assert_eq!((a.value(), a.width()), (0x1F, 5));
        assert_eq!((!Word::new(5, 0b00110)).value(), 0b11001);
        assert_eq!((a + Word::new(5, 1)).value(), 0, "sums wrap at the width");
        assert_eq!((Word::new(8, 0xF0) & Word::new(8, 0x3C)).value(), 0x30);
        assert!(a.get_bit(4) && !a.get_bit(5) && !a.get_bit(70));
        assert_eq!(format!("{}", literal(8, 0x12)), format!("{}", VerilogLiteral::from(Bits::<8>::from(0x12))));
        assert_eq!(format!("{:x}", literal(3, 5)), "3'h5");
    }
}
