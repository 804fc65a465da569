//! A port or child block that a configuration may leave out entirely.
//!
//! rust-hdl emits every field of a block as a port or child module. A feature that a
//! parameter switches off (the PMU's profile table at E = 0, docs/pmu.md §15) must
//! not leave even an unused port behind: "not one gate more" is checked on the
//! generated text. An absent [`Optional`] is invisible to the netlist, the probes and
//! the simulation; a present one is exactly its inner signal or block, under the
//! field's own name.
use rust_hdl::prelude::*;

/// `Some(inner)`: the field is `inner`; `None`: the field does not exist.
#[derive(Clone, Debug, Default)]
pub struct Optional<T>(pub Option<T>);

impl<T> Optional<T> {
    /// `inner` when `present`, else nothing.
    pub fn when(present: bool, inner: impl FnOnce() -> T) -> Self {
        Self(present.then(inner))
    }

    /// The inner signal or block; panics when absent (a caller that drives or reads
    /// it has checked the configuration).
    pub fn get(&self) -> &T {
        self.0.as_ref().expect("an optional field used where its configuration left it out")
    }

    /// The inner signal or block, mutably; panics when absent.
    pub fn get_mut(&mut self) -> &mut T {
        self.0.as_mut().expect("an optional field used where its configuration left it out")
    }

    /// Whether the field exists.
    pub fn is_present(&self) -> bool {
        self.0.is_some()
    }
}

impl<T: Logic> Logic for Optional<T> {
    fn update(&mut self) {
        if let Some(inner) = &mut self.0 {
            inner.update();
        }
    }

    fn connect(&mut self) {
        if let Some(inner) = &mut self.0 {
            inner.connect();
        }
    }
}

impl<T: Block> Block for Optional<T> {
    fn connect_all(&mut self) {
        if let Some(inner) = &mut self.0 {
            inner.connect_all();
        }
    }

    fn update_all(&mut self) {
        if let Some(inner) = &mut self.0 {
            inner.update_all();
        }
    }

    fn has_changed(&self) -> bool {
        self.0.as_ref().is_some_and(Block::has_changed)
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        if let Some(inner) = &self.0 {
            inner.accept(name, probe);
        }
    }
}

impl<D: Direction> Optional<crate::dyn_signal::DynSignal<D>> {
    /// Take the driven value at once, when present (see `DynSignal::latch`).
    pub fn latch(&mut self) {
        if let Some(signal) = &mut self.0 {
            signal.latch();
        }
    }
}
