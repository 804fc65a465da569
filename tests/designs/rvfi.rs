//! The `_rvfi` PMU against docs/soc.md §1.4's timing of a retirement, on the reference
//! (the reference adapter in front of the reference PMU), native and Verilator engines.
use crate::common::rvfi::pmu;
use pmugen::design::Design;
use pmugen::simulate::EngineChoice;
use pmugen_hdl::rvfi::params::RvfiOptions;
use pmugen_sim::ports::pmu::PmuInputs;
use pmugen_sim::ports::rvfi::WithRvfi;
use pmugen_sim::reference::rvfi::Retirement;

/// docs/soc.md §1.4's diagram: a taken branch retires in cycle k; the adapter shows
/// BRANCH_TAKEN in cycle k+1, the PMU counts it at edge k+2, PERF_CNTR0 holds it from
/// cycle k+3; a read in cycle k+2 still returns 0, a read in cycle k+3 returns 1.
/// On the reference, native and Verilator engines.
#[test]
fn a_retirement_is_counted_as_the_docs_draw_it() {
    let design = pmu(1, 2, RvfiOptions::default());
    let idle = || WithRvfi {
        retirements: vec![Retirement::default()],
        inputs: PmuInputs {
            pm_mark: 1,
            trace_ready: true,
            events: vec![0],
            core_events: vec![0],
            ..Default::default()
        },
    };
    let access = |write: bool, address: u8, data: u64| {
        let mut cycle = idle();
        let inputs = &mut cycle.inputs;
        (inputs.reg_priv, inputs.reg_addr, inputs.reg_wdata) = (true, address, data);
        (inputs.reg_write, inputs.reg_read) = (write, !write);
        cycle
    };
    let mut cycles = vec![WithRvfi { inputs: PmuInputs { reset: true, ..idle().inputs }, ..idle() }];
    cycles.push(access(true, 0x28, 0x41_0007)); // PERF_EVTSEL0: EN, USR, BRANCH_TAKEN
    cycles.push(access(true, 0x2F, 1)); // PERF_GLOBAL_CTRL: counter 0
    cycles.extend([idle(), idle()]);
    let k = cycles.len();
    let branch = Retirement { valid: true, insn: 0x0000_0463, pc_rdata: 0x100, pc_wdata: 0x108, ..Default::default() };
    cycles.push(WithRvfi { retirements: vec![branch], ..idle() }); // cycle k: beq x0, x0, +8 (taken), user mode
    cycles.push(idle()); // k+1
    cycles.push(access(false, 0x20, 0)); // k+2: read PERF_CNTR0
    cycles.push(access(false, 0x20, 0)); // k+3: read it again
    cycles.push(idle()); // k+4
    let mut engines = EngineChoice::All.engines(&design).unwrap();
    engines.insert(0, design.reference());
    for engine in &mut engines {
        // outputs[i]: the outputs during cycle i + 1.
        let rdata: Vec<u64> = cycles.iter().map(|cycle| engine.step(cycle).reg_rdata).collect();
        assert_eq!((rdata[k + 2], rdata[k + 3]), (0, 1), "{}: reg_rdata during cycles k+3, k+4", engine.name());
    }
}
