//! From run-time parameters to a monomorphised design.
//!
//! Widths are const generics in the hardware (`EventOrderMonitor<N, W>`), so each
//! supported (N, W) is compiled once and picked here at run time.
use pmugen_hdl::monitor::top::EventOrderMonitor;
use pmugen_hdl::params::MonitorParams;
use pmugen_sim::ports::MonitorEngine;
use pmugen_sim::verilator::VerilatorMonitor;
use std::path::Path;

use crate::native::NativeMonitor;

/// One monitor configuration, behind an object-safe interface.
pub trait MonitorDesign {
    /// The Verilog of the design with its own top name, including the header.
    fn verilog(&self, header: &[String]) -> Result<String, String>;
    /// A fresh native (rust-hdl) simulation of the design.
    fn native(&self) -> Box<MonitorEngine>;
    /// A fresh native simulation that also writes a VCD waveform.
    fn native_with_vcd(&self, vcd: std::fs::File) -> Box<MonitorEngine>;
    /// The design compiled with Verilator (cached), optionally writing a VCD waveform.
    fn verilator(&self, vcd: Option<&Path>) -> Result<Box<MonitorEngine>, String> {
        let top = self.params().top_name();
        // Exactly the file `pmugen generate` writes, header included.
        let verilog = self.verilog(&crate::generate::header(self.params()))?;
        Ok(Box::new(VerilatorMonitor::start(&verilog, &top, vcd)?))
    }
    /// The design's parameters.
    fn params(&self) -> MonitorParams;
}

struct Design<const N: usize, const W: usize>;

impl<const N: usize, const W: usize> MonitorDesign for Design<N, W> {
    fn verilog(&self, header: &[String]) -> Result<String, String> {
        pmugen_hdl::emit::verilog(&mut EventOrderMonitor::<N, W>::new(), &self.params().top_name(), header)
    }
    fn native(&self) -> Box<MonitorEngine> {
        Box::new(NativeMonitor::<N, W>::new(None))
    }
    fn native_with_vcd(&self, vcd: std::fs::File) -> Box<MonitorEngine> {
        Box::new(NativeMonitor::<N, W>::new(Some(vcd)))
    }
    fn params(&self) -> MonitorParams {
        MonitorParams { events: N, order_width: W }
    }
}

macro_rules! by_order_width {
    ($n:literal, $w:expr) => {
        match $w {
            2 => Box::new(Design::<$n, 2>),
            3 => Box::new(Design::<$n, 3>),
            4 => Box::new(Design::<$n, 4>),
            5 => Box::new(Design::<$n, 5>),
            6 => Box::new(Design::<$n, 6>),
            7 => Box::new(Design::<$n, 7>),
            8 => Box::new(Design::<$n, 8>),
            _ => unreachable!("MonitorParams checked W"),
        }
    };
}

macro_rules! by_events {
    ($n:expr, $w:expr; $($lit:literal)*) => {
        match $n {
            $($lit => by_order_width!($lit, $w),)*
            _ => unreachable!("MonitorParams checked N"),
        }
    };
}

/// The design for checked parameters.
pub fn monitor(params: MonitorParams) -> Box<dyn MonitorDesign> {
    by_events!(params.events, params.order_width;
        2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}
