//! The committed files under `generated/` are what the current code generates, for
//! every design's default configuration, bare and behind each bus (the PMU also behind
//! its 32-bit slaves): Verilog, C headers and drivers, register descriptions, tables
//! and FuseSoC cores.
use pmugen::design::rvfi::RvfiPmuDesign;
use pmugen::design::{self, pmu::PmuDesign, Artifact, Design};
use pmugen_hdl::bus::Bus;
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::rvfi::params::RvfiOptions;

fn check(artifacts: Vec<Artifact>, regenerate: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    for artifact in artifacts {
        let path = dir.join(&artifact.name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == artifact.text,
            "{} differs from what the code generates; regenerate with `scripts/regenerate.sh` (or `{regenerate}`) \
             and commit the result",
            path.display()
        );
    }
}

#[test]
fn committed_monitor_files_are_up_to_date() {
    let params = MonitorParams::new(8, 3).unwrap();
    for bus in Bus::ALL {
        let design = design::monitor(params);
        let files = design::bus::artifacts(design.as_ref(), bus).unwrap();
        check(files, &design.regenerate_command("generated"));
    }
}

#[test]
fn committed_pmu_files_are_up_to_date() {
    let design = PmuDesign::new(PmuParams::with_default_table(4, 2, 40));
    let files = design.artifacts().unwrap();
    let names: Vec<&str> = files.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "pmu_knc_t4_k2_c40.v",
            "pmu_knc_t4_k2_c40_regs.h",
            "pmu_knc_t4_k2_c40_driver.h",
            "pmu_knc_t4_k2_c40_regs.md",
            "pmu_knc_t4_k2_c40_events.json",
            "pmu_knc_t4_k2_c40_inputs.json",
            "pmu_knc_t4_k2_c40_inputs.md",
            "pmu_knc_t4_k2_c40_design.json",
            "pmu_knc_t4_k2_c40.core",
            "pmu_knc_t4_k2_c40.rdl",
            "pmu_knc_t4_k2_c40.xml"
        ]
    );
    check(files, &design.regenerate_command("generated"));
    for bus in [Bus::Axi4Lite, Bus::Wishbone, Bus::Axi4Lite32, Bus::Wishbone32] {
        check(design::bus::artifacts(&design, bus).unwrap(), &design.regenerate_command("generated"));
    }
}

#[test]
fn committed_rvfi_pmu_files_are_up_to_date() {
    // The PMU a one-hart RISC-V core drives through RVFI (docs/soc.md), bare and behind
    // the 32-bit slaves such a core reaches it through.
    let params = PmuParams::new(1, 4, 40, EventTable::riscv_table()).unwrap();
    let design = RvfiPmuDesign::new(params, RvfiOptions::default(), "riscv.json").unwrap();
    assert_eq!(design.top_name(), "pmu_riscv_t1_k4_c40_rvfi");
    for bus in [Bus::Bare, Bus::Axi4Lite32, Bus::Wishbone32] {
        check(design::bus::artifacts(&design, bus).unwrap(), &design.regenerate_command("generated"));
    }
}
