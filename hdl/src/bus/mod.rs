//! Standard bus slaves around a design's register port (docs/bus.md): an AXI4-Lite
//! slave or a Wishbone B4 classic slave, generated as Verilog next to the design.
//! One bus transaction is one register-port cycle.
//!
//! [`BusLayout`] is the byte-address layout both buses share; the register
//! descriptions (C header, SystemRDL, IP-XACT) use it too. The PMU's 64-bit registers
//! can also sit behind a 32-bit slave (`--bus-width 32`, docs/bus.md §8), where each
//! register is two bus words and the slave keeps the holding words of `halves.rs`.
pub mod axi4lite;
pub mod halves;
mod layout;
pub mod register_access;
pub mod wishbone;

pub use layout::BusLayout;
pub use register_access::{AccessCheck, Port, WrappedDesign};

/// The interface a generated top offers for its registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bus {
    /// The design's own register port (`reg_*`), word addresses.
    Bare,
    /// An AXI4-Lite slave (`s_axil_*`), top `<top>_axil`.
    Axi4Lite,
    /// A Wishbone B4 classic slave (`wb_*`), top `<top>_wb`.
    Wishbone,
    /// A 32-bit AXI4-Lite slave in front of 64-bit registers (the PMU with
    /// `--bus-width 32`), top `<top>_axil32`.
    Axi4Lite32,
    /// A 32-bit Wishbone B4 classic slave in front of 64-bit registers, top `<top>_wb32`.
    Wishbone32,
}

/// The values `--bus-width` takes.
pub const BUS_WIDTHS: [usize; 2] = [32, 64];

impl Bus {
    /// Every interface each design has, bare first (the slaves whose data width is
    /// the register width).
    pub const ALL: [Bus; 3] = [Bus::Bare, Bus::Axi4Lite, Bus::Wishbone];
    /// The 32-bit slaves in front of 64-bit registers (`--bus-width 32`, the PMU only).
    pub const NARROW: [Bus; 2] = [Bus::Axi4Lite32, Bus::Wishbone32];

    /// The value of `--bus` that selects it (with `--bus-width 32` for the narrow ones).
    pub fn flag_value(self) -> &'static str {
        match self.protocol() {
            Bus::Axi4Lite => "axi4lite",
            Bus::Wishbone => "wishbone",
            _ => "none",
        }
    }
    /// The command-line arguments that select it: `--bus axi4lite`, and
    /// `--bus-width 32` after it for a narrow slave.
    pub fn arguments(self) -> String {
        match self.narrow_width() {
            Some(width) => format!("--bus {} --bus-width {width}", self.flag_value()),
            None => format!("--bus {}", self.flag_value()),
        }
    }
    /// The protocol: [`Bus::Axi4Lite`] or [`Bus::Wishbone`] for either data width.
    pub fn protocol(self) -> Bus {
        match self {
            Bus::Axi4Lite32 => Bus::Axi4Lite,
            Bus::Wishbone32 => Bus::Wishbone,
            bus => bus,
        }
    }
    /// The bus data width when it is narrower than the registers (32), else `None`.
    pub fn narrow_width(self) -> Option<usize> {
        matches!(self, Bus::Axi4Lite32 | Bus::Wishbone32).then_some(32)
    }
    /// The same protocol with `--bus-width width`: 64 keeps the register width, 32
    /// gives the narrow slave. Refused for the bare port and other widths.
    pub fn with_width(self, width: usize) -> Result<Bus, String> {
        let allowed = "32 (the PMU's 64-bit registers as two 32-bit words) or 64 (the default)";
        match (self.protocol(), width) {
            (Bus::Bare, _) => Err(format!(
                "--bus-width {width} applies to a bus slave: add --bus axi4lite or --bus wishbone (--bus-width takes \
                 {allowed})"
            )),
            (protocol, 64) => Ok(protocol),
            (Bus::Axi4Lite, 32) => Ok(Bus::Axi4Lite32),
            (Bus::Wishbone, 32) => Ok(Bus::Wishbone32),
            _ => Err(format!("--bus-width {width} is not a bus width; allowed: {allowed}")),
        }
    }
    /// What the wrapped top's name adds to the bare top's name.
    pub fn suffix(self) -> &'static str {
        match self {
            Bus::Bare => "",
            Bus::Axi4Lite => "_axil",
            Bus::Wishbone => "_wb",
            Bus::Axi4Lite32 => "_axil32",
            Bus::Wishbone32 => "_wb32",
        }
    }
    /// The top module's name for the bare design `top`.
    pub fn top_name(self, top: &str) -> String {
        format!("{top}{}", self.suffix())
    }
    /// The bus's name in documents.
    pub fn title(self) -> &'static str {
        match self {
            Bus::Bare => "register port",
            Bus::Axi4Lite => "AXI4-Lite",
            Bus::Wishbone => "Wishbone B4 classic",
            Bus::Axi4Lite32 => "32-bit AXI4-Lite",
            Bus::Wishbone32 => "32-bit Wishbone B4 classic",
        }
    }
}

impl std::str::FromStr for Bus {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Bus::ALL
            .into_iter()
            .find(|bus| bus.flag_value() == text)
            .ok_or_else(|| format!("'{text}' is not a bus; allowed: none, axi4lite, wishbone"))
    }
}

/// The slave module of `bus` around `design` (nothing for the bare port).
pub fn slave_verilog(bus: Bus, design: &WrappedDesign) -> String {
    match bus.protocol() {
        Bus::Axi4Lite => axi4lite::verilog(design),
        Bus::Wishbone => wishbone::verilog(design),
        _ => String::new(),
    }
}

/// The model of the slave's top around `design` on `bus`: the design's ports but the
/// register port, then the bus's, and the design as its instance `core`; `core` is the
/// model of the design under its module name.
pub fn slave_model(bus: Bus, design: &WrappedDesign, core: crate::model::DesignModel) -> crate::model::DesignModel {
    use crate::model::PortModel;
    let bus_ports = match bus.protocol() {
        Bus::Axi4Lite => axi4lite::ports(design),
        Bus::Wishbone => wishbone::ports(design),
        _ => Vec::new(),
    };
    let ports = design
        .passthrough()
        .chain(&bus_ports)
        .map(
            |(name, input, width)| {
                if *input {
                    PortModel::input(name, *width)
                } else {
                    PortModel::output(name, *width)
                }
            },
        )
        .collect();
    let mut model = crate::model::DesignModel::leaf(&design.top, ports);
    model.modules.get_mut(&design.top).expect("its top").instances.push(("core".to_string(), core.top.clone()));
    model.modules.extend(core.modules);
    model
}

/// Test support: small designs wrapped in a slave, linted and checked with yosys.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::monitor::regmap::bus_access_check;
    use crate::monitor::top::EventOrderMonitor;
    use crate::pmu::params::PmuParams;
    use crate::pmu::top::Pmu;

    /// `bus` around the monitor at N=4, W=2 (not on a narrow bus, which is the PMU's
    /// only) and around a one-thread PMU; each file must lint with Verilator -Wall,
    /// pass yosys, and name every module after its top.
    pub fn assert_slaves_are_valid(bus: Bus, slave: fn(&WrappedDesign) -> String) {
        let monitor_top = bus.top_name("m4");
        let monitor = crate::emit::verilog(
            &mut EventOrderMonitor::new(crate::params::MonitorParams::new(4, 2).expect("in range")),
            &format!("{monitor_top}__core"),
            &[],
        );
        let pmu_top = bus.top_name("p1");
        let pmu = crate::emit::verilog(
            &mut Pmu::new(&PmuParams::with_default_table(1, 2, 16)),
            &format!("{pmu_top}__core"),
            &[],
        );
        let pmu_layout = BusLayout::pmu(1).on(bus).expect("the PMU has every bus");
        let mut cases = vec![(pmu_top, pmu, pmu_layout, AccessCheck::ByDesign)];
        if bus.narrow_width().is_none() {
            cases.push((monitor_top, monitor, BusLayout::MONITOR, bus_access_check(4, 2)));
        }
        for (top, core_verilog, layout, check) in cases {
            let core_verilog = core_verilog.expect("rust-hdl accepts the design");
            let core = format!("{top}__core");
            let ports = crate::emit::module_ports(&core_verilog, &core).expect("the core's ports");
            let design = WrappedDesign::new(&top, &core, ports, layout, check).expect("a wrappable design");
            let verilog = core_verilog + &slave(&design);
            for module in crate::emit::module_names(&verilog) {
                assert!(module.starts_with(&top), "module {module} does not start with {top}");
            }
            pmugen_sim::tools::verilator_lint(&verilog, &top).unwrap_or_else(|e| panic!("{e}"));
            pmugen_sim::tools::yosys_check(&verilog, &top).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_names_parse_back() {
        for bus in Bus::ALL {
            assert_eq!(bus.flag_value().parse::<Bus>(), Ok(bus));
        }
        let error = "axi".parse::<Bus>().unwrap_err();
        assert!(error.contains("'axi'") && error.contains("axi4lite"), "{error}");
        for bus in Bus::NARROW {
            assert_eq!(bus.flag_value().parse::<Bus>().unwrap().with_width(32), Ok(bus));
            assert_eq!(bus.with_width(64), Ok(bus.protocol()));
            assert!(bus.arguments().ends_with("--bus-width 32"), "{}", bus.arguments());
        }
    }

    #[test]
    fn bus_widths_other_than_32_and_64_or_without_a_bus_are_refused() {
        for width in [0, 16, 48, 128] {
            let error = Bus::Axi4Lite.with_width(width).unwrap_err();
            assert!(error.contains(&format!("--bus-width {width}")) && error.contains("32") && error.contains("64"));
        }
        let error = Bus::Bare.with_width(32).unwrap_err();
        assert!(error.contains("--bus-width") && error.contains("--bus axi4lite"), "{error}");
        let names: Vec<String> = Bus::NARROW.iter().map(|bus| bus.top_name("p")).collect();
        assert_eq!(names, ["p_axil32", "p_wb32"]);
    }
}
