//! The registry of hand-written blocks: every kind of block whose Verilog is written by
//! hand (its `Logic::hdl` goes through `crate::custom::hand_written`) with the test that
//! runs it in lockstep with its own Verilog (`testing/lockstep.rs`).
//!
//! The list is checked by the compiler and by the designs themselves: an entry names
//! its test function by path, so a test that is renamed or removed does not compile;
//! and [`every_hand_written_block_has_a_lockstep_test`] emits every design the crate
//! builds, collects the kinds of hand-written block they contain, and requires each to
//! be listed here (and each entry to be emitted by some design). A new block kind
//! cannot ship without a lockstep test.
use std::collections::BTreeSet;

use crate::custom::hand_written_blocks;

/// A hand-written block kind and its lockstep test.
pub struct Tested {
    /// The block's type name (`std::any::type_name`).
    pub block: &'static str,
    /// Its test against its own Verilog.
    pub test: fn(),
}

/// `Block => test function` pairs.
macro_rules! tested {
    ($($block:ty => $test:path),* $(,)?) => {
        vec![$(Tested { block: std::any::type_name::<$block>(), test: $test }),*]
    };
}

/// Every hand-written block kind with its lockstep test.
pub fn registry() -> Vec<Tested> {
    use crate::{board, monitor, pmu, rvfi, word};
    tested![
        board::word_join::WordJoin => board::word_join::tests::native_twin_equals_its_verilog,
        word::WordDff => word::tests::native_twin_equals_its_verilog,
        monitor::register_port::RegisterPort => monitor::register_port::tests::native_twin_equals_its_verilog,
        monitor::order_matcher::OrderMatcher => monitor::order_matcher::tests::native_twin_equals_its_verilog,
        monitor::serial_frame::SerialFrame => monitor::serial_frame::tests::native_twin_equals_its_verilog,
        pmu::input_stage::InputStage => pmu::input_stage::tests::native_twin_equals_its_verilog,
        pmu::event_sums::EventSums => pmu::event_sums::tests::native_twin_equals_its_verilog,
        pmu::event_decoder::EventDecoder => pmu::event_decoder::tests::native_twin_equals_its_verilog,
        pmu::event_select::EventSelect => pmu::event_select::tests::native_twin_equals_its_verilog,
        pmu::event_sampler::EventSampler => pmu::event_sampler::tests::native_twin_equals_its_verilog,
        pmu::counter::Counter => pmu::counter::tests::native_twin_equals_its_verilog,
        pmu::global_control::GlobalControl => pmu::global_control::tests::native_twin_equals_its_verilog,
        pmu::shadow_control::ShadowControl => pmu::shadow_control::tests::native_twin_equals_its_verilog,
        pmu::tsc::TimeStampCounter => pmu::tsc::tests::native_twin_equals_its_verilog,
        pmu::register_port::RegisterPort => pmu::register_port::tests::native_twin_equals_its_verilog,
        pmu::trace::control::TraceControl => pmu::trace::control::tests::native_twin_equals_its_verilog,
        pmu::trace::record::TraceRecord => pmu::trace::record::tests::native_twin_equals_its_verilog,
        pmu::trace::queue::TraceQueue => pmu::trace::queue::tests::native_twin_equals_its_verilog,
        pmu::profile::table::ProfileTable => pmu::profile::tests::native_twin_equals_its_verilog,
        pmu::top::Pmu => pmu::top::tests::native_twin_equals_its_verilog,
        rvfi::reader::CoreReader => rvfi::reader::tests::native_twin_equals_its_verilog,
        rvfi::classifier::RetirementClassifier => rvfi::classifier::tests::native_twin_equals_its_verilog,
        rvfi::kernel::KernelTracker => rvfi::kernel::tests::native_twin_equals_its_verilog,
        rvfi::blocks::BlockTracker => rvfi::blocks::tests::native_twin_equals_its_verilog,
        rvfi::adapter::RvfiAdapter => rvfi::adapter::tests::native_twin_equals_its_verilog,
        rvfi::pmu_top::RvfiPmu => rvfi::pmu_top::tests::native_twin_equals_its_verilog,
        rvfi::monitor_top::RvfiMonitor => rvfi::monitor_top::tests::native_twin_equals_its_verilog,
    ]
}

/// The hand-written block kinds of every design the crate builds: the PMU with a
/// profile table, the monitor with each matcher and without its frame, the RVFI tops
/// on every core, and the monitor's board top.
fn emitted_kinds() -> BTreeSet<&'static str> {
    use crate::board::board_top::{frame_bytes, BoardTop, Polarity};
    use crate::params::{Matcher, MonitorOptions, MonitorParams, SerialOutput};
    use crate::pmu::params::PmuParams;
    use crate::rvfi::params::{Core, RvfiOptions, Xlen};
    hand_written_blocks(|| {
        let emit =
            |block: &mut dyn FnMut() -> Result<String, crate::emit::EmitError>| block().expect("the design emits");
        let pmu = PmuParams::with_default_table(2, 2, 24).with_profile(16).unwrap();
        emit(&mut || crate::emit::verilog(&mut crate::pmu::top::Pmu::new(&pmu), "p", &[]));
        for (matcher, serial) in [(Matcher::Patent, SerialOutput::Frame), (Matcher::Compact, SerialOutput::Absent)] {
            let params = MonitorParams { events: 4, order_width: 2, options: MonitorOptions { matcher, serial } };
            emit(&mut || crate::emit::verilog(&mut crate::monitor::top::EventOrderMonitor::new(params), "m", &[]));
        }
        let riscv = PmuParams::new(1, 2, 24, crate::pmu::event_table::EventTable::riscv_table()).unwrap();
        for core in [Core::Generic, Core::Picorv32, Core::Serv, Core::Ibex] {
            let options = RvfiOptions::for_core(core, Xlen::Rv32);
            emit(&mut || crate::emit::verilog(&mut crate::rvfi::pmu_top::RvfiPmu::new(&riscv, options), "r", &[]));
            let monitor = MonitorParams::new(3, 2).unwrap();
            let top = &mut crate::rvfi::monitor_top::RvfiMonitor::new(monitor, options, &[0, 1, 2]);
            emit(&mut || crate::emit::verilog(top, "rm", &[]));
        }
        let timing = crate::board::baud::BitTiming::new(12_000_000, 115_200).unwrap();
        let board = &mut BoardTop::<8, 3, { frame_bytes(8) }>::new(timing, Polarity::ActiveLow, Polarity::ActiveHigh);
        emit(&mut || crate::emit::verilog(board, "b", &[]));
    })
}

/// Every hand-written block that a design emits has its lockstep test listed, and
/// every listed block is emitted by some design (no stale entry).
#[test]
fn every_hand_written_block_has_a_lockstep_test() {
    let listed: BTreeSet<&str> = registry().iter().map(|tested| tested.block).collect();
    let emitted = emitted_kinds();
    let untested: Vec<&&str> = emitted.difference(&listed).collect();
    assert!(untested.is_empty(), "hand-written blocks without a lockstep test in testing/registry.rs: {untested:?}");
    let stale: Vec<&&str> = listed.difference(&emitted).collect();
    assert!(stale.is_empty(), "listed in testing/registry.rs but emitted by no design: {stale:?}");
}
