//! The two designs as [`RegisterTarget`]s of a bus slave (docs/bus.md §2): the monitor,
//! which has no fault output, so the wrapper itself denies accesses outside its register
//! table (docs/monitor.md §5); and the PMU, which denies on its own and reports it on
//! `reg_fault` (docs/pmu.md §5), behind a 64-bit or a 32-bit slave.
use super::{PortAccess, RegisterTarget};
use crate::ports::bus::BusShape;
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};
use crate::ports::{MonitorInputs, MonitorOutputs};
use crate::reference::monitor::addr as monitor_addr;
use crate::reference::{ReferenceMonitor, ReferencePmu};

/// The event-order monitor behind a bus (docs/monitor.md): no privilege, no fault output.
#[derive(Clone, Debug)]
pub struct MonitorTarget {
    model: ReferenceMonitor,
    events: usize,
}

impl MonitorTarget {
    /// The monitor for N = `events`, W = `order_width`, just after reset.
    pub fn new(events: usize, order_width: usize) -> Self {
        Self { model: ReferenceMonitor::new(events, order_width), events }
    }
    /// The monitor's reference model (for inspecting its state).
    pub fn model(&self) -> &ReferenceMonitor {
        &self.model
    }
}

impl RegisterTarget for MonitorTarget {
    type Inputs = MonitorInputs;
    type Outputs = MonitorOutputs;

    fn shape(&self) -> BusShape {
        BusShape::MONITOR
    }
    fn in_reset(inputs: &MonitorInputs) -> bool {
        inputs.reset
    }
    /// docs/monitor.md §5 for this N: ID, CTRL, CMD, STATUS, COUNT, EVENTS, ORDER[e] and
    /// BEFORE[m] (e, m < N) exist; only CTRL, CMD and ORDER[e] may be written (CMD
    /// reads 0 and its read is allowed).
    fn wrapper_denies(&self, access: &PortAccess) -> bool {
        let n = self.events as u8;
        let register = access.register;
        let is_order = (monitor_addr::ORDER..monitor_addr::ORDER + n).contains(&register);
        let is_before = (monitor_addr::BEFORE..monitor_addr::BEFORE + n).contains(&register);
        let listed = register <= monitor_addr::EVENTS || is_order || is_before;
        let writable = register == monitor_addr::CTRL || register == monitor_addr::CMD || is_order;
        !listed || access.write && !writable
    }
    fn drive(inputs: &mut MonitorInputs, access: Option<&PortAccess>) {
        // The monitor's reads have no strobe; an idle port reads address 0, which
        // nobody sees (reg_rdata is internal to the wrapped top).
        inputs.reg_addr = access.map_or(0, |access| access.register);
        inputs.reg_wdata = access.map_or(0, |access| access.data as u32);
        inputs.reg_write = access.is_some_and(|access| access.write);
    }
    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        self.model.step(inputs)
    }
    fn faulted(_outputs: &MonitorOutputs) -> bool {
        false
    }
    fn read_data(outputs: &MonitorOutputs) -> u64 {
        outputs.reg_rdata as u64
    }
    fn hide_register_port(outputs: &mut MonitorOutputs) {
        outputs.reg_rdata = 0;
    }
}

/// The PMU behind a bus (docs/pmu.md): privilege from the bus, denials from the PMU.
#[derive(Clone, Debug)]
pub struct PmuTarget {
    model: ReferencePmu,
    shape: BusShape,
}

impl PmuTarget {
    /// The PMU of `config` behind a 64-bit slave, just after reset.
    pub fn new(config: PmuConfig) -> Self {
        Self::with_bus_width(config, 64)
    }
    /// The PMU of `config` behind a slave of `bus_width` data bits (`--bus-width`):
    /// 64, or 32 for the 32-bit PMU slaves (docs/bus.md, 32-bit PMU slaves), just after
    /// reset. Panics on another width.
    pub fn with_bus_width(config: PmuConfig, bus_width: usize) -> Self {
        let shape = match bus_width {
            64 => BusShape::PMU,
            32 => BusShape::PMU32,
            _ => panic!("the PMU's bus is 32 or 64 bits wide, not {bus_width}"),
        };
        Self { model: ReferencePmu::new(config), shape }
    }
    /// The PMU's reference model (for inspecting its state).
    pub fn model(&self) -> &ReferencePmu {
        &self.model
    }
}

impl RegisterTarget for PmuTarget {
    type Inputs = PmuInputs;
    type Outputs = PmuOutputs;

    fn shape(&self) -> BusShape {
        self.shape
    }
    fn in_reset(inputs: &PmuInputs) -> bool {
        inputs.reset
    }
    /// The PMU checks every access itself (docs/pmu.md §5), threads >= T included.
    fn wrapper_denies(&self, _access: &PortAccess) -> bool {
        false
    }
    fn drive(inputs: &mut PmuInputs, access: Option<&PortAccess>) {
        inputs.reg_thread = access.map_or(0, |access| access.thread);
        inputs.reg_priv = access.is_some_and(|access| access.privileged);
        inputs.reg_addr = access.map_or(0, |access| access.register);
        inputs.reg_wdata = access.map_or(0, |access| access.data);
        inputs.reg_write = access.is_some_and(|access| access.write);
        inputs.reg_read = access.is_some_and(|access| !access.write);
    }
    fn step(&mut self, inputs: &PmuInputs) -> PmuOutputs {
        self.model.step(inputs)
    }
    fn faulted(outputs: &PmuOutputs) -> bool {
        outputs.reg_fault
    }
    fn read_data(outputs: &PmuOutputs) -> u64 {
        outputs.reg_rdata
    }
    fn hide_register_port(outputs: &mut PmuOutputs) {
        outputs.reg_rdata = 0;
        outputs.reg_fault = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monitor_wrapper_denies_what_its_register_table_lacks() {
        let target = MonitorTarget::new(2, 2);
        let access = |write, register| PortAccess { write, thread: 0, register, data: 0, privileged: false };
        for register in [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x11, 0x40, 0x41] {
            assert!(!target.wrapper_denies(&access(false, register)), "read {register:#x}");
        }
        for register in [0x06, 0x0F, 0x12, 0x42, 0xFF] {
            assert!(target.wrapper_denies(&access(false, register)), "read {register:#x}");
        }
        for register in [0x01, 0x02, 0x10, 0x11] {
            assert!(!target.wrapper_denies(&access(true, register)), "write {register:#x}");
        }
        for register in [0x00, 0x03, 0x04, 0x05, 0x40, 0x12] {
            assert!(target.wrapper_denies(&access(true, register)), "write {register:#x}");
        }
    }

    #[test]
    fn the_pmu_target_takes_the_bus_width_of_its_slave() {
        let config = crate::reference::bus::tests::small_pmu_config(1, 16);
        assert_eq!(PmuTarget::new(config.clone()).shape(), BusShape::PMU);
        assert_eq!(PmuTarget::with_bus_width(config, 32).shape(), BusShape::PMU32);
    }
}
