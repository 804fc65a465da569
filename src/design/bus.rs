//! A design behind a standard bus (docs/bus.md): what `generate --bus` writes.
//!
//! The wrapped file holds the design under the module name `<bus top>__core` (so
//! every module name starts with the wrapped top's name, and the bare and wrapped
//! files of one design can live in one project) followed by the bus slave
//! `<bus top>`, then the FuseSoC smoke test bench.
use pmugen_hdl::bus::{self, Bus, WrappedDesign};

use pmugen_hdl::regmap::driver::Reach;

use pmugen_hdl::model::DesignModel;

use super::{fusesoc, Artifact, Design, DriverInterface};

/// Every file `generate` writes for `design` on the interface `bus`.
pub fn artifacts<I, O>(design: &dyn Design<I, O>, bus: Bus) -> Result<Vec<Artifact>, String> {
    if bus == Bus::Bare {
        return design.artifacts();
    }
    let top = bus.top_name(&design.top_name());
    let verilog = verilog(design, bus)?;
    let testbench = fusesoc::testbench(&top, &model(design, bus)?.port_list(), &design.identity(), bus);
    let mut artifacts = vec![
        Artifact { name: format!("{top}.v"), text: verilog + &testbench },
        Artifact { name: format!("{top}.core"), text: fusesoc::core(&top, design.kind(), "docs/bus.md") },
    ];
    artifacts.extend(design.register_descriptions(bus));
    artifacts.push(c_driver(design, bus));
    artifacts.extend(design.tables());
    Ok(artifacts)
}

/// `<top>_driver.h`, the C driver of `design` on `bus`: through the bare register port,
/// or memory-mapped at the bus's data width.
pub fn c_driver<I, O>(design: &dyn Design<I, O>, bus: Bus) -> Artifact {
    let top = bus.top_name(&design.top_name());
    if bus == Bus::Bare {
        return design.c_driver(&DriverInterface {
            top: &top,
            reach: Reach::Port,
            title: "the bare register port",
            flags: "",
        });
    }
    let data_bits = data_bits(design, bus);
    let flags = bus.arguments();
    let title = format!("its {data_bits}-bit {} slave", bus.title());
    design.c_driver(&DriverInterface { top: &top, reach: Reach::Bus { data_bits }, title: &title, flags: &flags })
}

/// The data width of `design`'s slave on `bus` (not bare): a narrow slave reaches the
/// registers a word at a time (docs/bus.md §8), a full one a register per word.
pub fn data_bits<I, O>(design: &dyn Design<I, O>, bus: Bus) -> usize {
    bus.narrow_width().unwrap_or(design.bus_layout().0.data_bits)
}

/// The Verilog of `design` behind `bus`: the design as `<bus top>__core`, then the
/// slave `<bus top>`.
pub fn verilog<I, O>(design: &dyn Design<I, O>, bus: Bus) -> Result<String, String> {
    if bus == Bus::Bare {
        return design.verilog();
    }
    verilog_named(design, bus, &bus.top_name(&design.top_name()))
}

/// The Verilog of `design` behind `bus` (not bare) with top module `top`, every other
/// module name starting with it: for a system that holds the design under its own
/// prefix (docs/soc.md §2).
pub fn verilog_named<I, O>(design: &dyn Design<I, O>, bus: Bus, top: &str) -> Result<String, String> {
    // Checked before the design is emitted: a narrow bus needs registers wider than it.
    let wrapped = wrapped(design, bus, top)?;
    let core_verilog = design.verilog_as(&wrapped.core, &header(design, bus))?;
    Ok(core_verilog + &bus::slave_verilog(bus, &wrapped))
}

/// `design` as the core of the slave `top` on `bus` (not bare), from the design's model.
fn wrapped<I, O>(design: &dyn Design<I, O>, bus: Bus, top: &str) -> Result<WrappedDesign, String> {
    let (layout, check) = design.bus_layout();
    let layout = layout.on(bus)?;
    let core = format!("{top}__core");
    WrappedDesign::new(top, &core, design.model_as(&core).port_list(), layout, check)
}

/// The model of `design` on `bus`: the design's own, or the slave's top with the
/// design as its core.
pub fn model<I, O>(design: &dyn Design<I, O>, bus: Bus) -> Result<DesignModel, String> {
    if bus == Bus::Bare {
        return Ok(design.model());
    }
    let top = bus.top_name(&design.top_name());
    let wrapped = wrapped(design, bus, &top)?;
    Ok(bus::slave_model(bus, &wrapped, design.model_as(&wrapped.core)))
}

/// The design's header, for the wrapped file: its name and bus first, the regenerate
/// command with `--bus` (and `--bus-width 32` for a narrow bus).
fn header<I, O>(design: &dyn Design<I, O>, bus: Bus) -> Vec<String> {
    let bare = design.top_name();
    let top = bus.top_name(&bare);
    let mut lines = design.header();
    if let Some(first) = lines.first_mut() {
        let what = first.strip_prefix(&format!("{bare}.v: ")).unwrap_or(first).to_string();
        *first = format!("{top}.v: {} slave (docs/bus.md) around {bare}, {what}", bus.title());
    }
    for line in &mut lines {
        *line = line
            .replace(" --out <", &format!(" {} --out <", bus.arguments()))
            .replace(&format!("{bare}_regs.md"), &format!("{top}_regs.md"));
    }
    lines
}
