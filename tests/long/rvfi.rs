//! The whole `_rvfi` designs (docs/soc.md) on random retirement streams beside their
//! bare designs' random stimulus: the reference adapter in front of the design's
//! reference model, the native model and the Verilator model in lockstep.
use crate::common::assert_lockstep;
use crate::common::rvfi::{monitor, pmu};
use pmugen::design::Design;
use pmugen::simulate::EngineChoice;
use pmugen_hdl::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};

#[test]
fn rvfi_pmus_equal_the_reference_adapter_into_the_reference_pmu_on_every_engine() {
    for (threads, options) in [
        (1, RvfiOptions::default()),
        (2, RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, core: Core::Serv }),
    ] {
        let design = pmu(threads, 2, options);
        let mut engines = EngineChoice::All.engines(&design).unwrap();
        let summary = assert_lockstep(&design, &mut engines, 20_000, 7, "all");
        assert!(summary.active("reg_rdata") > 1_000, "{}: few non-zero reads", design.top_name());
        assert!(summary.active("trace_last") > 10, "{}: few trace records", design.top_name());
    }
}

#[test]
fn rvfi_monitors_equal_the_reference_adapter_into_the_reference_monitor_on_every_engine() {
    let options = RvfiOptions { xlen: Xlen::Rv32, kernel_rule: KernelRule::Mode, core: Core::Ibex };
    let design = monitor(3, "CALL,RETURN,LOAD", options);
    let mut engines = EngineChoice::All.engines(&design).unwrap();
    let summary = assert_lockstep(&design, &mut engines, 20_000, 3, "all");
    assert!(summary.active("matched") > 100, "only {} matched cycles", summary.active("matched"));
}
