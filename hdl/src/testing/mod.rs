//! Helpers for clocked block tests: a direct simulation loop (no testbench threads)
//! and the Verilog validity check every block runs.
use rust_hdl::prelude::*;

pub mod lockstep;
pub mod ports;

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

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable source folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                rust_files(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }

    /// Every block whose Verilog is written by hand (it implements `Logic::hdl`) has a
    /// lockstep test against its own Verilog, in its file or in the `tests.rs` of its
    /// folder: a new block cannot be added without one.
    #[test]
    fn every_hand_written_block_has_a_lockstep_test() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&source, &mut files);
        let mut custom = 0;
        let mut missing = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable source");
            if !text.contains("fn hdl(&self) -> Verilog") || file.ends_with("testing/mod.rs") {
                continue;
            }
            custom += 1;
            let sibling_tests = file.with_file_name("tests.rs");
            let tests = std::fs::read_to_string(&sibling_tests).unwrap_or_default();
            let tested =
                text.contains("Lockstep::new(") || (file.ends_with("mod.rs") && tests.contains("Lockstep::new("));
            if !tested {
                missing.push(file.strip_prefix(&source).unwrap_or(file).display().to_string());
            }
        }
        assert!(custom >= 18, "only {custom} hand-written blocks found: is the search still right?");
        assert!(missing.is_empty(), "hand-written blocks without a lockstep test (testing/lockstep.rs): {missing:?}");
    }
}
