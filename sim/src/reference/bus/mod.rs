//! Reference models of the standard bus slaves that wrap each design (docs/bus.md),
//! written from the specification and the bus cycle rules alone: an AXI4-Lite slave
//! ([`AxiLiteSlave`]) and a Wishbone B4 classic slave ([`WishboneSlave`]). Each is
//! composed, as the hardware is, of a bus front end and the design's own reference
//! model behind its register port: every cycle the front end decides the register-port
//! signals (one accepted bus transaction is one register-port cycle, docs/bus.md), steps
//! the design's model one edge, and turns its registered `reg_rdata` / `reg_fault`
//! into the bus response.
//!
//! This file holds what both buses share: decoding a bus access into a register-port
//! access (byte addresses, byte-offset bits, strobes) and the two designs as
//! [`RegisterTarget`]s (the monitor, which has no fault output, so the wrapper itself
//! denies accesses outside its register table, docs/monitor.md §5; and the PMU, which denies
//! on its own and reports it on `reg_fault`, docs/pmu.md §5).
pub mod axi4lite;
pub mod wishbone;

pub use axi4lite::AxiLiteSlave;
pub use wishbone::WishboneSlave;

use super::monitor::addr as monitor_addr;
use super::{ReferenceMonitor, ReferencePmu};
use crate::ports::bus::BusShape;
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};
use crate::ports::{MonitorInputs, MonitorOutputs, Signals};

/// One bus access as the master offers it (either bus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusAccess {
    /// A write (else a read).
    pub write: bool,
    /// Byte address.
    pub address: u32,
    /// Write data.
    pub data: u64,
    /// Byte strobes of a write (WSTRB / `wb_sel`); reads ignore them.
    pub strobes: u8,
    /// AxPROT[0] / `wb_priv`: 1 = privileged (the PMU's `reg_priv`).
    pub privileged: bool,
}

/// A register-port access: what one accepted bus transaction presents to the design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortAccess {
    /// A write (`reg_write`), else a read (`reg_read` on the PMU).
    pub write: bool,
    /// `reg_thread` (PMU): address bits [12:11].
    pub thread: u8,
    /// `reg_addr`: the register (word) address.
    pub register: u8,
    /// `reg_wdata`.
    pub data: u64,
    /// `reg_priv` (PMU).
    pub privileged: bool,
}

/// The response a bus transaction earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    /// The transaction was a write.
    pub write: bool,
    /// SLVERR / ERR (else OKAY / ACK).
    pub error: bool,
    /// Read data: the register's value for an OKAY read, else 0.
    pub data: u64,
}

/// Why the wrapper answers an access with an error without consulting the design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The byte-offset bits are not 0 (docs/bus.md).
    Misaligned,
    /// A write whose strobes are not all ones (docs/bus.md).
    PartialStrobes,
    /// The design's register map denies it and the design cannot say so itself
    /// (the monitor: unlisted address, or a write to a read-only register).
    Denied,
}

/// The register-port access of `access` on a bus of `shape`, or why the bus refuses
/// it on its own: misaligned addresses and partial write strobes (docs/bus.md).
pub fn decode(shape: &BusShape, access: &BusAccess) -> Result<PortAccess, Refusal> {
    let address = access.address & shape.address_mask();
    if address & ((1 << shape.offset_bits()) - 1) != 0 {
        return Err(Refusal::Misaligned);
    }
    if access.write && access.strobes & shape.all_strobes() != shape.all_strobes() {
        return Err(Refusal::PartialStrobes);
    }
    // The monitor's register a is at 4a (a = addr[9:2]); the PMU's register a of
    // thread t at t*0x800 + 8a (t = addr[12:11], a = addr[10:3]).
    let register = (address >> shape.offset_bits()) as u8;
    let thread = if shape.privileged { (address >> 11) as u8 & 3 } else { 0 };
    Ok(PortAccess {
        write: access.write,
        thread,
        register,
        data: access.data & shape.data_mask(),
        privileged: access.privileged,
    })
}

/// A design behind a bus slave: its reference model and its register port.
pub trait RegisterTarget {
    /// The bare design's inputs (their register-port fields are the slave's to set).
    type Inputs: Clone;
    /// The bare design's outputs.
    type Outputs: Clone + Signals;

    /// The design's bus window.
    fn shape(&self) -> BusShape;
    /// `reset` of these inputs.
    fn in_reset(inputs: &Self::Inputs) -> bool;
    /// Whether the wrapper itself must deny `access` (a design without a fault output).
    fn wrapper_denies(&self, access: &PortAccess) -> bool;
    /// Set the register-port fields of `inputs` to `access`, or to an idle port.
    fn drive(inputs: &mut Self::Inputs, access: Option<&PortAccess>);
    /// One edge of the design's reference model.
    fn step(&mut self, inputs: &Self::Inputs) -> Self::Outputs;
    /// After the edge of an access: whether the design denied it (`reg_fault`).
    fn faulted(outputs: &Self::Outputs) -> bool;
    /// After the edge of a read: its data (`reg_rdata`).
    fn read_data(outputs: &Self::Outputs) -> u64;
    /// The outputs the wrapped top shows: the register port's outputs are internal.
    fn hide_register_port(outputs: &mut Self::Outputs);
}

/// One edge of `target` with `design_inputs` and, if a transaction was accepted in
/// this cycle, its access on the register port (else an idle port). Returns the
/// design's visible outputs and the accepted transaction's response.
pub(crate) fn step_target<T: RegisterTarget>(
    target: &mut T,
    design_inputs: &T::Inputs,
    accepted: Option<&BusAccess>,
) -> (T::Outputs, Option<Response>) {
    let shape = target.shape();
    let decoded = accepted.map(|access| {
        decode(&shape, access)
            .and_then(|port| if target.wrapper_denies(&port) { Err(Refusal::Denied) } else { Ok(port) })
    });
    let mut inputs = design_inputs.clone();
    T::drive(&mut inputs, decoded.as_ref().and_then(|decoded| decoded.as_ref().ok()));
    let mut outputs = target.step(&inputs);
    let response = accepted.zip(decoded).map(|(access, decoded)| {
        // docs/bus.md: a refused or denied access answers an error and reads 0; the
        // read data of an allowed read is the design's registered reg_rdata.
        let error = decoded.is_err() || T::faulted(&outputs);
        let data = if access.write || error { 0 } else { T::read_data(&outputs) };
        Response { write: access.write, error, data }
    });
    T::hide_register_port(&mut outputs);
    (outputs, response)
}

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
}

impl PmuTarget {
    /// The PMU of `config`, just after reset.
    pub fn new(config: PmuConfig) -> Self {
        Self { model: ReferencePmu::new(config) }
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
        BusShape::PMU
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

    fn read(address: u32) -> BusAccess {
        BusAccess { write: false, address, data: 0, strobes: 0, privileged: true }
    }

    #[test]
    fn pmu_addresses_select_thread_and_register() {
        let port = decode(&BusShape::PMU, &read(3 * 0x800 + 8 * 0x21)).unwrap();
        assert_eq!((port.thread, port.register, port.write), (3, 0x21, false));
        assert_eq!(decode(&BusShape::PMU, &read(0x804)), Err(Refusal::Misaligned));
        assert_eq!(decode(&BusShape::MONITOR, &read(0x3FC)).unwrap().register, 0xFF);
        assert_eq!(decode(&BusShape::MONITOR, &read(0x41)), Err(Refusal::Misaligned));
    }

    #[test]
    fn reads_ignore_strobes_and_writes_need_all_of_them() {
        let write = BusAccess { write: true, address: 4, data: 1, strobes: 0xF, privileged: false };
        assert!(decode(&BusShape::MONITOR, &write).is_ok());
        assert_eq!(decode(&BusShape::MONITOR, &BusAccess { strobes: 0x7, ..write }), Err(Refusal::PartialStrobes));
        assert_eq!(
            decode(&BusShape::PMU, &BusAccess { address: 8, strobes: 0x7F, ..write }),
            Err(Refusal::PartialStrobes)
        );
        assert!(decode(&BusShape::PMU, &BusAccess { address: 8, strobes: 0xFF, ..write }).is_ok());
        assert!(decode(&BusShape::MONITOR, &BusAccess { write: false, strobes: 0, ..write }).is_ok());
    }

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
}
