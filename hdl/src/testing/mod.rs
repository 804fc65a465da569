//! Helpers for clocked block tests: a direct simulation loop (no testbench threads)
//! and the Verilog validity check every block runs.
use rust_hdl::prelude::*;

pub mod lockstep;
pub mod ports;
#[cfg(test)]
pub mod registry;

/// Delta cycles a block may take to settle.
const MAX_DELTAS: usize = 200;

/// Let combinational logic settle; panics if it oscillates.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, MAX_DELTAS), "block did not settle within {MAX_DELTAS} deltas");
}

/// Apply inputs with `clock` low and let them settle: combinational outputs now
/// show this cycle's values.
pub fn apply<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>, set: impl FnOnce(&mut B)) {
    clock(uut).next = Clock { clk: false };
    set(uut);
    settle(uut);
}

/// The rising edge: registers take their next values.
pub fn edge<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    clock(uut).next = Clock { clk: true };
    settle(uut);
}

/// One clock cycle: [`apply`] then [`edge`].
pub fn cycle<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>, set: impl FnOnce(&mut B)) {
    apply(uut, clock, set);
    edge(uut, clock);
}

/// Emit `uut` as Verilog with top `name`, then lint it with Verilator (-Wall) and
/// check it with yosys; panics with the tool output on failure.
pub fn assert_valid_verilog<B: Block>(uut: &mut B, name: &str) -> String {
    let verilog = crate::emit::verilog(uut, name, &[]).expect("rust-hdl accepts the block");
    for module in crate::emit::module_names(&verilog) {
        assert!(module.starts_with(name), "module {module} does not start with {name}");
    }
    pmugen_sim::tools::verilator_lint(&verilog, name).unwrap_or_else(|e| panic!("{e}"));
    pmugen_sim::tools::yosys_check(&verilog, name).unwrap_or_else(|e| panic!("{e}"));
    verilog
}

/// Bits from an integer (for test stimulus).
pub fn bits_of<const N: usize>(value: u64) -> Bits<N> {
    value.to_bits()
}

/// An integer from bits.
pub fn value_of<const N: usize>(bits: Bits<N>) -> u64 {
    bits.index() as u64
}
