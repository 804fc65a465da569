//! Any one of the designs, as the command line chose it, and the commands that run on
//! every design: a command is written once, generic over the design's port types
//! ([`DesignCommand`]), and [`AnyDesign::run`] is the one place that knows the list of
//! designs. Adding a design is one variant here; adding a command is one
//! [`DesignCommand`], not one arm per design.
use anyhow::Result;
use std::fmt::Debug;

use super::monitor::MonitorDesign;
use super::pmu::PmuDesign;
use super::rvfi::monitor::RvfiMonitorDesign;
use super::rvfi::pmu::RvfiPmuDesign;
use super::Design;
use pmugen_sim::ports::Signals;

/// A command that runs on any design.
pub trait DesignCommand {
    /// What it gives back.
    type Output;
    /// Run on `design`.
    fn run<I: Clone + Debug + 'static, O: Signals + Clone + 'static>(
        self,
        design: &dyn Design<I, O>,
    ) -> Result<Self::Output>;
}

/// One design of checked parameters.
pub enum AnyDesign {
    /// The event-order monitor.
    Monitor(Box<MonitorDesign>),
    /// The monitor behind the RVFI adapter.
    RvfiMonitor(RvfiMonitorDesign),
    /// The Knights Corner-style PMU.
    Pmu(PmuDesign),
    /// The PMU behind the RVFI adapter.
    RvfiPmu(RvfiPmuDesign),
}

impl AnyDesign {
    /// Run `command` on the design.
    pub fn run<C: DesignCommand>(&self, command: C) -> Result<C::Output> {
        match self {
            AnyDesign::Monitor(design) => command.run(design.as_ref()),
            AnyDesign::RvfiMonitor(design) => command.run(design),
            AnyDesign::Pmu(design) => command.run(design),
            AnyDesign::RvfiPmu(design) => command.run(design),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pmugen_hdl::params::MonitorParams;
    use pmugen_hdl::pmu::params::PmuParams;

    /// A command that reports the design's top and kind.
    struct Names;

    impl DesignCommand for Names {
        type Output = (String, &'static str);
        fn run<I: Clone + Debug + 'static, O: Signals + Clone + 'static>(
            self,
            design: &dyn Design<I, O>,
        ) -> Result<Self::Output> {
            Ok((design.top_name(), design.kind()))
        }
    }

    #[test]
    fn each_design_runs_the_one_command() {
        let monitor = AnyDesign::Monitor(super::super::monitor(MonitorParams::new(4, 2).unwrap()));
        assert_eq!(monitor.run(Names).unwrap(), ("event_order_monitor_n4_w2".to_string(), "monitor"));
        let pmu = AnyDesign::Pmu(PmuDesign::new(PmuParams::with_default_table(1, 2, 16)));
        assert_eq!(pmu.run(Names).unwrap(), ("pmu_knc_t1_k2_c16".to_string(), "pmu"));
    }
}
