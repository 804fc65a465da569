//! The designs attached to a RISC-V core through its RVFI retirement port (`generate
//! pmu --rvfi`, `generate monitor --rvfi`; docs/soc.md §1): the bare design behind the
//! RVFI adapter, top `<bare top>_rvfi`, with the engines of the bare design's (native,
//! Verilator, the reference adapter in front of the design's reference model) and its
//! stimulus with the retirements of a random core.
pub mod monitor;
mod native;
pub mod pmu;

use pmugen_hdl::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};
use pmugen_sim::ports::rvfi::WithRvfi;
use pmugen_sim::reference::rvfi as reference;
use pmugen_sim::stimulus::rvfi::{RvfiCore, RvfiStimulus};

pub use monitor::RvfiMonitorDesign;
pub use pmu::RvfiPmuDesign;

/// The reference model's XLEN for ours.
fn reference_xlen(xlen: Xlen) -> reference::Xlen {
    match xlen {
        Xlen::Rv32 => reference::Xlen::Rv32,
        Xlen::Rv64 => reference::Xlen::Rv64,
    }
}

/// The reference model's core for ours.
pub fn reference_core_name(core: Core) -> reference::Core {
    match core {
        Core::Generic => reference::Core::Generic,
        Core::Picorv32 => reference::Core::Picorv32,
        Core::Serv => reference::Core::Serv,
        Core::Ibex => reference::Core::Ibex,
    }
}

/// The reference model's XLEN, kernel rule and core for `options`.
fn reference_core(options: RvfiOptions) -> (reference::Xlen, reference::KernelRule, reference::Core) {
    let rule = match options.kernel_rule {
        KernelRule::Mode => reference::KernelRule::Mode,
        KernelRule::Handler => reference::KernelRule::Handler,
    };
    (reference_xlen(options.xlen), rule, reference_core_name(options.core))
}

/// The stimulus of a design behind the adapter: the retirements of a random core of
/// `harts` harts with compressed code, made for the kernel rule, beside `design`'s own.
fn retirements<I: 'static>(
    harts: usize,
    options: RvfiOptions,
    seed: u64,
    design: impl Iterator<Item = I> + 'static,
) -> Box<dyn Iterator<Item = WithRvfi<I>>> {
    let (xlen, kernel_rule, _) = reference_core(options);
    // Its own seed, so that the design's stimulus is the same as without the adapter.
    let core = RvfiStimulus::new(RvfiCore { harts, xlen, compressed: true, kernel_rule }, seed ^ 0x5256_4649);
    Box::new(core.zip(design).map(|(retirements, inputs)| WithRvfi { retirements, inputs }))
}

/// The header line that says what the adapter does.
fn adapter_line(harts: usize, options: RvfiOptions, what: &str) -> String {
    let rule = match options.kernel_rule {
        KernelRule::Mode => "kernel = rvfi_mode != 0",
        KernelRule::Handler => "kernel from rvfi_intr through MRET or retirq",
    };
    format!(
        "The adapter turns the RVFI retirements of {harts} hart{} (RV{}, read as {} RVFI, {rule}) into {what}, \
         registered: a retirement in cycle c is seen in cycle c+1.",
        if harts == 1 { "" } else { "s" },
        options.xlen.bits(),
        options.core
    )
}
