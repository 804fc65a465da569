//! A signal whose width is chosen at run time.
//!
//! rust-hdl's `Signal<D, Bits<N>>` fixes the width in the type, so every parameter set
//! would be a separate monomorphisation. The PMU's widths come from T, K, CW and the
//! event table, which are known only when `pmugen` runs; compiling every combination
//! is out of the question. `DynSignal<D>` takes its width in `new()`: rust-hdl's
//! netlist visitor asks every atom for its width at run time (`Atom::bits`), so the
//! generated module ports get exactly that width, and the native simulation carries
//! the value in 64-bit words.
//!
//! Reading follows rust-hdl's `Signal`: an input reads the value latched at the last
//! delta cycle, an output or local reads what the block last wrote.
use rust_hdl::core::ast::VerilogLiteral;
use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::core::constraint::PinConstraint;
use rust_hdl::core::signal::get_signal_id;
use rust_hdl::core::synth::VCDValue;
use rust_hdl::core::type_descriptor::{TypeDescriptor, TypeKind};
use rust_hdl::prelude::*;
use std::marker::PhantomData;

/// A signal of `width` bits (`width` >= 1), fixed when it is made.
#[derive(Clone, Debug)]
pub struct DynSignal<D: Direction> {
    width: usize,
    next: Vec<u64>,
    val: Vec<u64>,
    changed: bool,
    claimed: bool,
    id: usize,
    dir: PhantomData<D>,
}

/// The mask of the low `width` bits of a word (`width` <= 64).
pub fn low_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Bits `lsb..lsb+width` (`width` <= 64) of little-endian words (missing words read 0).
pub fn word_field(words: &[u64], lsb: usize, width: usize) -> u64 {
    let (word, shift) = (lsb / 64, lsb % 64);
    let mut value = words.get(word).copied().unwrap_or(0) >> shift;
    if shift != 0 && shift + width > 64 {
        value |= words.get(word + 1).copied().unwrap_or(0) << (64 - shift);
    }
    value & low_mask(width)
}

impl<D: Direction> DynSignal<D> {
    /// A signal of `width` bits, initially 0.
    pub fn new(width: usize) -> Self {
        assert!(width >= 1, "DynSignal: width 0 is not a signal");
        let words = width.div_ceil(64);
        Self {
            width,
            next: vec![0; words],
            val: vec![0; words],
            changed: false,
            claimed: false,
            id: get_signal_id(),
            dir: PhantomData,
        }
    }

    /// Its width in bits.
    pub fn width(&self) -> usize {
        self.width
    }

    fn current(&self) -> &[u64] {
        match D::KIND {
            AtomKind::InputParameter | AtomKind::InOutParameter => &self.val,
            _ => &self.next,
        }
    }

    /// The value as 64-bit words, least significant first.
    pub fn words(&self) -> &[u64] {
        self.current()
    }

    /// The value of a signal of at most 64 bits.
    pub fn get(&self) -> u64 {
        debug_assert!(self.width <= 64, "DynSignal::get on a {}-bit signal", self.width);
        self.current()[0]
    }

    /// Bit `index`.
    pub fn bit(&self, index: usize) -> bool {
        debug_assert!(index < self.width);
        self.current()[index / 64] >> (index % 64) & 1 == 1
    }

    /// Bits `lsb..lsb+width` (`width` <= 64).
    pub fn field(&self, lsb: usize, width: usize) -> u64 {
        word_field(self.current(), lsb, width)
    }

    /// Drive a signal of at most 64 bits (bits beyond its width are dropped).
    pub fn set(&mut self, value: u64) {
        debug_assert!(self.width <= 64, "DynSignal::set on a {}-bit signal", self.width);
        self.next[0] = value & low_mask(self.width);
    }

    /// Drive one bit.
    pub fn set_bit(&mut self, index: usize, value: bool) {
        debug_assert!(index < self.width);
        let mask = 1u64 << (index % 64);
        if value {
            self.next[index / 64] |= mask;
        } else {
            self.next[index / 64] &= !mask;
        }
    }

    /// Drive bits `lsb..lsb+width` (`width` <= 64) with `value`.
    pub fn set_field(&mut self, lsb: usize, width: usize, value: u64) {
        debug_assert!(lsb + width <= self.width);
        let value = value & low_mask(width);
        let (word, shift) = (lsb / 64, lsb % 64);
        let mask = low_mask(width);
        self.next[word] = self.next[word] & !(mask << shift) | value << shift;
        if shift != 0 && shift + width > 64 {
            let high = 64 - shift;
            self.next[word + 1] = self.next[word + 1] & !(mask >> high) | value >> high;
        }
    }

    /// Drive the whole signal from bits `lsb..lsb+width` of `words` (its own width).
    pub fn set_from(&mut self, words: &[u64], lsb: usize) {
        for chunk in (0..self.width).step_by(64) {
            let bits = (self.width - chunk).min(64);
            self.set_field(chunk, bits, word_field(words, lsb + chunk, bits));
        }
    }

    /// Take the driven value at once (what a delta cycle would do), for a parent that
    /// evaluates its children in order instead of by delta cycles.
    pub fn latch(&mut self) {
        self.val.copy_from_slice(&self.next);
    }

    /// Drive the whole signal from words, least significant first (missing words are 0).
    pub fn set_words(&mut self, words: &[u64]) {
        let count = self.next.len();
        for (index, word) in self.next.iter_mut().enumerate() {
            *word = words.get(index).copied().unwrap_or(0);
        }
        self.next[count - 1] &= low_mask(self.width - (count - 1) * 64);
    }
}

/// `Atom`, `Logic` and `Block` of a run-time-width signal type `$signal<D>`, the same for
/// [`DynSignal`] and `WordSignal`: the type has the fields `claimed`, `changed` and `id`
/// and the inherent methods `width`, `type_descriptor`, `vcd_value` and
/// `latch_changed` (take `next` as the value; say whether it changed).
macro_rules! run_time_signal {
    ($signal:ident) => {
        impl<D: Direction> Atom for $signal<D> {
            fn bits(&self) -> usize {
                self.width()
            }
            fn connected(&self) -> bool {
                self.claimed
            }
            fn changed(&self) -> bool {
                self.changed
            }
            fn kind(&self) -> AtomKind {
                D::KIND
            }
            fn descriptor(&self) -> TypeDescriptor {
                self.type_descriptor()
            }
            fn vcd(&self) -> VCDValue {
                self.vcd_value()
            }
            fn id(&self) -> usize {
                self.id
            }
            fn verilog(&self) -> VerilogLiteral {
                // Only constants print their value; a signal is never one.
                VerilogLiteral::from(false)
            }
            fn constraints(&self) -> Vec<PinConstraint> {
                Vec::new()
            }
        }

        impl<D: Direction> Logic for $signal<D> {
            fn update(&mut self) {}
            fn connect(&mut self) {
                self.claimed = true;
            }
        }

        impl<D: Direction> Block for $signal<D> {
            fn connect_all(&mut self) {}
            fn update_all(&mut self) {
                self.changed = self.latch_changed();
            }
            fn has_changed(&self) -> bool {
                self.changed
            }
            fn accept(&self, name: &str, probe: &mut dyn Probe) {
                probe.visit_atom(name, self);
            }
        }
    };
}
pub(crate) use run_time_signal;

impl<D: Direction> DynSignal<D> {
    fn type_descriptor(&self) -> TypeDescriptor {
        TypeDescriptor { name: format!("Bits::<{}>", self.width), kind: TypeKind::Bits(self.width) }
    }

    fn vcd_value(&self) -> VCDValue {
        let bit = |index: usize| {
            if self.val[index / 64] >> (index % 64) & 1 == 1 {
                vcd::Value::V1
            } else {
                vcd::Value::V0
            }
        };
        if self.width == 1 {
            VCDValue::Single(bit(0))
        } else {
            VCDValue::Vector((0..self.width).rev().map(bit).collect())
        }
    }

    fn latch_changed(&mut self) -> bool {
        let changed = self.val != self.next;
        if changed {
            self.val.copy_from_slice(&self.next);
        }
        changed
    }
}

run_time_signal!(DynSignal);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_latch_and_fields_cross_words() {
        let mut wide = DynSignal::<In>::new(100);
        wide.set_words(&[u64::MAX, u64::MAX]);
        assert_eq!(wide.words(), &[0, 0], "an input reads the latched value");
        wide.update_all();
        assert!(wide.has_changed());
        assert_eq!(wide.words(), &[u64::MAX, (1 << 36) - 1], "bits beyond the width are dropped");
        assert_eq!(wide.field(60, 8), 0xFF);
        assert_eq!(wide.field(96, 8), 0xF);
        let mut narrow = DynSignal::<Out>::new(5);
        narrow.set(0xFF);
        assert_eq!(narrow.get(), 0x1F, "an output reads what was written");
        narrow.set_bit(0, false);
        let mut packed = DynSignal::<Out>::new(130);
        packed.set_field(60, 40, 0xAB_CDEF_0123);
        packed.set_field(120, 10, 0x3FF);
        assert_eq!((packed.field(60, 40), packed.field(120, 10), packed.field(100, 20)), (0xAB_CDEF_0123, 0x3FF, 0));
        packed.set_field(64, 8, 0);
        assert_eq!(packed.field(60, 40), 0xAB_CDEF_0003);
        assert!(!narrow.bit(0) && narrow.bit(4));
        assert_eq!(narrow.bits(), 5);
    }
}
