//! Reference models of the standard bus slaves that wrap each design (docs/bus.md),
//! written from the specification and the bus cycle rules alone: an AXI4-Lite slave
//! ([`AxiLiteSlave`]) and a Wishbone B4 classic slave ([`WishboneSlave`]). Each is
//! composed, as the hardware is, of a bus front end and the design's own reference
//! model behind its register port: every cycle the front end decides the register-port
//! signals (one accepted bus transaction is one register-port cycle, docs/bus.md), steps
//! the design's model one edge, and turns its registered `reg_rdata` / `reg_fault`
//! into the bus response.
//!
//! One model per bus serves every window: the data width is the run-time
//! [`BusShape`] of the design behind the slave ([`RegisterTarget::shape`]). The monitor
//! has 32-bit data, the PMU 64-bit data ([`PmuTarget::new`]) or 32-bit data
//! ([`PmuTarget::with_bus_width`]), where each 64-bit register is two bus words and the
//! front end keeps the holding words of docs/bus.md (32-bit PMU slaves), see [`halves`].
//!
//! Files: this one decodes a bus access into a register-port access (byte addresses,
//! byte-offset bits, strobes) and defines what a design behind a slave provides;
//! `front_end.rs` is the part both slaves share; `halves.rs` the holding words of the
//! 32-bit PMU slaves; `targets.rs` the two designs.
pub mod axi4lite;
mod front_end;
pub mod halves;
mod targets;
#[cfg(test)]
mod tests;
pub mod wishbone;

pub use axi4lite::AxiLiteSlave;
pub use halves::{Half, HeldWord, HoldingWords, RegisterId};
pub use targets::{MonitorTarget, PmuTarget};
pub use wishbone::WishboneSlave;

use crate::ports::bus::BusShape;
use crate::ports::Signals;

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
    /// Read data: the register's value (or its bus word) for an OKAY read, else 0.
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
/// it on its own: misaligned addresses and partial write strobes (docs/bus.md). On a
/// shape that splits registers the access reaches one half of the register
/// ([`Half::of`]) and its data is that bus word; the front end makes the register's
/// 64-bit write data from it.
pub fn decode(shape: &BusShape, access: &BusAccess) -> Result<PortAccess, Refusal> {
    let address = access.address & shape.address_mask();
    if address & ((1 << shape.offset_bits()) - 1) != 0 {
        return Err(Refusal::Misaligned);
    }
    if access.write && access.strobes & shape.all_strobes() != shape.all_strobes() {
        return Err(Refusal::PartialStrobes);
    }
    // The monitor's register a is at 4a (a = addr[9:2]); the PMU's register a of
    // thread t at t*0x800 + 8a (t = addr[12:11], a = addr[10:3]) on either data width.
    let register = (address >> shape.register_shift()) as u8;
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
