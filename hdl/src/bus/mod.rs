//! Standard bus slaves around a design's register port (docs/bus.md): an AXI4-Lite
//! slave or a Wishbone B4 classic slave, generated as Verilog next to the design.
//! One bus transaction is one register-port cycle.
//!
//! [`BusLayout`] is the byte-address layout both buses share; the register
//! descriptions (C header, SystemRDL, IP-XACT) use it too.
pub mod axi4lite;
pub mod register_access;
pub mod wishbone;

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
}

impl Bus {
    /// Every interface, bare first.
    pub const ALL: [Bus; 3] = [Bus::Bare, Bus::Axi4Lite, Bus::Wishbone];

    /// The value of `--bus` that selects it.
    pub fn flag_value(self) -> &'static str {
        match self {
            Bus::Bare => "none",
            Bus::Axi4Lite => "axi4lite",
            Bus::Wishbone => "wishbone",
        }
    }
    /// What the wrapped top's name adds to the bare top's name.
    pub fn suffix(self) -> &'static str {
        match self {
            Bus::Bare => "",
            Bus::Axi4Lite => "_axil",
            Bus::Wishbone => "_wb",
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
    match bus {
        Bus::Bare => String::new(),
        Bus::Axi4Lite => axi4lite::verilog(design),
        Bus::Wishbone => wishbone::verilog(design),
    }
}

/// Where a design's registers sit in a bus window (byte addresses).
///
/// Register `a` of thread `t` is at `t * thread_stride + a * data_bits / 8`. The bare
/// register port instead takes the word address `a` (and the thread on its own port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusLayout {
    /// Register and bus data width: 32 (monitor) or 64 (PMU).
    pub data_bits: usize,
    /// Width of the byte address: the design's whole window (10 monitor, 13 PMU).
    pub address_bits: usize,
    /// Bytes between two threads' banks; `None` for a design with one bank.
    pub thread_stride: Option<u32>,
    /// Number of thread banks reachable (1 without threads).
    pub threads: usize,
}

impl BusLayout {
    /// The monitor: 32-bit registers, 256 word addresses in a 1 KiB window.
    pub const MONITOR: BusLayout = BusLayout { data_bits: 32, address_bits: 10, thread_stride: None, threads: 1 };

    /// The PMU of `threads` threads: 64-bit registers, bank `t` at `t * 0x800`, 8 KiB window.
    pub fn pmu(threads: usize) -> BusLayout {
        BusLayout { data_bits: 64, address_bits: 13, thread_stride: Some(0x800), threads }
    }
    /// Bytes per register.
    pub fn bytes(&self) -> u32 {
        (self.data_bits / 8) as u32
    }
    /// Low address bits that must be 0 (2 for 32-bit data, 3 for 64-bit).
    pub fn offset_bits(&self) -> usize {
        self.data_bits.trailing_zeros() as usize - 3
    }
    /// The byte address of register (word address) `register` in bank `thread`.
    pub fn byte_address(&self, register: u32, thread: usize) -> u32 {
        self.thread_stride.unwrap_or(0) * thread as u32 + register * self.bytes()
    }
}

/// Test support: small designs wrapped in a slave, linted and checked with yosys.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::monitor::regmap::bus_access_check;
    use crate::monitor::top::EventOrderMonitor;
    use crate::pmu::params::PmuParams;
    use crate::pmu::top::Pmu;

    /// `bus` around the monitor at N=4, W=2 and around a one-thread PMU; each file
    /// must lint with Verilator -Wall, pass yosys, and name every module after its top.
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
        let cases = [
            (monitor_top, monitor, BusLayout::MONITOR, bus_access_check(4, 2)),
            (pmu_top, pmu, BusLayout::pmu(1), AccessCheck::ByDesign),
        ];
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
    fn layouts_follow_the_documented_addresses() {
        assert_eq!(BusLayout::MONITOR.byte_address(0x10, 0), 0x40);
        assert_eq!(BusLayout::MONITOR.offset_bits(), 2);
        let pmu = BusLayout::pmu(4);
        assert_eq!(pmu.byte_address(0x20, 3), 3 * 0x800 + 0x100);
        assert_eq!(pmu.offset_bits(), 3);
        // The highest register of the last bank stays inside the 13-bit window.
        assert!(pmu.byte_address(0xFF, 3) < 1 << pmu.address_bits);
        assert!(BusLayout::MONITOR.byte_address(0xFF, 0) < 1 << BusLayout::MONITOR.address_bits);
    }

    #[test]
    fn bus_names_parse_back() {
        for bus in Bus::ALL {
            assert_eq!(bus.flag_value().parse::<Bus>(), Ok(bus));
        }
        let error = "axi".parse::<Bus>().unwrap_err();
        assert!(error.contains("'axi'") && error.contains("axi4lite"), "{error}");
    }
}
