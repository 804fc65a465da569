//! A block's ports as the lockstep harness sees them: a value in 64-bit words that it
//! can drive (inputs) or read (outputs), whatever signal type the block uses.
use rust_hdl::prelude::*;

use crate::dyn_signal::DynSignal;
use crate::word::{Word, WordSignal};

/// One port of a block under test.
pub trait Port {
    /// Its width in bits.
    fn width(&self) -> usize;
    /// Drive it with `words` (least significant first; bits above the width ignored).
    fn drive(&mut self, words: &[u64]);
    /// Its value as words, least significant first.
    fn read(&self) -> Vec<u64>;
}

/// `Port` for rust-hdl's signals of one direction (`val()` exists per direction).
macro_rules! signal_port {
    ($direction:ty) => {
        impl Port for Signal<$direction, Bit> {
            fn width(&self) -> usize {
                1
            }
            fn drive(&mut self, words: &[u64]) {
                self.next = words[0] & 1 == 1;
            }
            fn read(&self) -> Vec<u64> {
                vec![self.val() as u64]
            }
        }

        impl<const N: usize> Port for Signal<$direction, Bits<N>> {
            fn width(&self) -> usize {
                N
            }
            fn drive(&mut self, words: &[u64]) {
                assert!(N <= 64, "a Bits<{N}> port is wider than one word");
                self.next = words[0].to_bits();
            }
            fn read(&self) -> Vec<u64> {
                vec![self.val().to_u64()]
            }
        }
    };
}

signal_port!(In);
signal_port!(Out);

impl<D: Direction> Port for WordSignal<D> {
    fn width(&self) -> usize {
        WordSignal::width(self)
    }
    fn drive(&mut self, words: &[u64]) {
        self.next = Word::new(WordSignal::width(self), words[0]);
    }
    fn read(&self) -> Vec<u64> {
        vec![self.val().value()]
    }
}

impl<D: Direction> Port for DynSignal<D> {
    fn width(&self) -> usize {
        DynSignal::width(self)
    }
    fn drive(&mut self, words: &[u64]) {
        self.set_words(words);
    }
    fn read(&self) -> Vec<u64> {
        self.words().to_vec()
    }
}

/// The ports of a block by their Verilog names, for [`super::lockstep`]. Every port but
/// `clock` is listed once; the harness checks the list against the block's Verilog.
pub trait Ports: Block {
    /// The `clock` input.
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    /// Every other port, named as in the generated Verilog (a `Vec` element `x[i]`
    /// is `x__i`).
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)>;
}

/// The list of `ports`: `name` for a single port, `name__i` for the elements of a
/// `Vec` (rust-hdl's naming, with `$` written `__`), and the `optional` ports
/// ([`crate::optional::Optional`]) that the instance has.
#[macro_export]
macro_rules! port_list {
    ($uut:expr; $($name:ident),* $(,)? ; optional $($optional:ident),* $(,)?) => {{
        let uut = $uut;
        let mut ports: Vec<(String, &mut dyn $crate::testing::ports::Port)> =
            vec![$((stringify!($name).to_string(), &mut uut.$name as &mut dyn $crate::testing::ports::Port)),*];
        $(if let Some(port) = uut.$optional.0.as_mut() {
            ports.push((stringify!($optional).to_string(), port));
        })*
        ports
    }};
    ($uut:expr; $($name:ident),* $(,)? ; vec $($vec:ident),* $(,)?) => {{
        let uut = $uut;
        #[allow(unused_mut)]
        let mut ports: Vec<(String, &mut dyn $crate::testing::ports::Port)> =
            vec![$((stringify!($name).to_string(), &mut uut.$name as &mut dyn $crate::testing::ports::Port)),*];
        $(for (i, port) in uut.$vec.iter_mut().enumerate() {
            ports.push((format!("{}__{i}", stringify!($vec)), port));
        })*
        ports
    }};
    ($uut:expr; $($name:ident),* $(,)?) => {
        $crate::port_list!($uut; $($name),* ; vec)
    };
}

/// The ports of a block without a clock (combinational), every one listed once and
/// named as in its Verilog; [`Combinational`] makes it a [`Ports`] block.
pub trait CombinationalPorts: Block {
    /// Every port, as for [`Ports::ports`].
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)>;
}

/// A combinational block under the lockstep harness: the block itself (its Verilog is
/// the block's own, without a `clock` port, so the harness's wrapper connects none)
/// and a clock that only the native loop drives and nothing reads.
pub struct Combinational<B> {
    /// The block under test.
    pub block: B,
    clock: Signal<In, Clock>,
}

impl<B> Combinational<B> {
    /// `block` with an unread clock.
    pub fn new(block: B) -> Self {
        Self { block, clock: Default::default() }
    }
}

/// No logic of its own: the block's updates, and its Verilog, come through [`Block`].
impl<B: Block> Logic for Combinational<B> {
    fn update(&mut self) {}
}

impl<B: Block> Block for Combinational<B> {
    fn connect_all(&mut self) {
        self.block.connect_all();
    }

    fn update_all(&mut self) {
        self.block.update_all();
    }

    fn has_changed(&self) -> bool {
        self.block.has_changed()
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        self.block.accept(name, probe);
    }
}

impl<B: CombinationalPorts> Ports for Combinational<B> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        self.block.ports()
    }
}
