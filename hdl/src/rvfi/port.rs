//! The RVFI retirement port (NRET = 1) of T harts: its nine signals, packed per hart
//! like `bb_addr` (hart t at [t*w +: w]), and one hart's values in one cycle.
use rust_hdl::prelude::*;

use super::params::Xlen;
use crate::dyn_signal::{low_mask, DynSignal};

/// The RVFI signals the adapter takes, in port order.
pub const NAMES: [&str; 9] = [
    "rvfi_valid",
    "rvfi_insn",
    "rvfi_trap",
    "rvfi_intr",
    "rvfi_mode",
    "rvfi_pc_rdata",
    "rvfi_pc_wdata",
    "rvfi_mem_rmask",
    "rvfi_mem_wmask",
];

/// Bits per hart of each signal of [`NAMES`] at `xlen`.
pub fn widths(xlen: Xlen) -> [usize; 9] {
    let (x, m) = (xlen.bits(), xlen.mask_bits());
    [1, 32, 1, 1, 2, x, x, m, m]
}

/// One hart's RVFI signals during one cycle. With `valid` = 0 no instruction retires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HartSignals {
    /// `rvfi_valid`: an instruction retires.
    pub valid: bool,
    /// `rvfi_insn`: its word (a compressed one in bits [15:0]).
    pub insn: u32,
    /// `rvfi_trap`: it traps.
    pub trap: bool,
    /// `rvfi_intr`: it is the first instruction of a trap or interrupt handler.
    pub intr: bool,
    /// `rvfi_mode`: the privilege mode it ran in (2 bits).
    pub mode: u8,
    /// `rvfi_pc_rdata`: its address (XLEN bits).
    pub pc_rdata: u64,
    /// `rvfi_pc_wdata`: the next instruction's address (XLEN bits).
    pub pc_wdata: u64,
    /// `rvfi_mem_rmask`: the bytes it read (XLEN/8 bits).
    pub mem_rmask: u8,
    /// `rvfi_mem_wmask`: the bytes it wrote (XLEN/8 bits).
    pub mem_wmask: u8,
}

impl HartSignals {
    /// The values in [`NAMES`] order, each cut to its width at `xlen`.
    pub fn fields(&self, xlen: Xlen) -> [u64; 9] {
        let values = [
            self.valid as u64,
            self.insn as u64,
            self.trap as u64,
            self.intr as u64,
            self.mode as u64,
            self.pc_rdata,
            self.pc_wdata,
            self.mem_rmask as u64,
            self.mem_wmask as u64,
        ];
        let widths = widths(xlen);
        std::array::from_fn(|i| values[i] & low_mask(widths[i]))
    }

    /// The values from fields in [`NAMES`] order.
    pub fn from_fields(fields: [u64; 9]) -> Self {
        Self {
            valid: fields[0] & 1 == 1,
            insn: fields[1] as u32,
            trap: fields[2] & 1 == 1,
            intr: fields[3] & 1 == 1,
            mode: (fields[4] & 3) as u8,
            pc_rdata: fields[5],
            pc_wdata: fields[6],
            mem_rmask: fields[7] as u8,
            mem_wmask: fields[8] as u8,
        }
    }
}

/// The packed words of each port ([`NAMES`] order) for `harts`, hart 0 first.
pub fn pack(harts: &[HartSignals], xlen: Xlen) -> [Vec<u64>; 9] {
    let widths = widths(xlen);
    std::array::from_fn(|i| {
        let mut words = vec![0u64; (harts.len() * widths[i]).div_ceil(64)];
        for (t, hart) in harts.iter().enumerate() {
            let (lsb, value) = (t * widths[i], hart.fields(xlen)[i]);
            words[lsb / 64] |= value << (lsb % 64);
            if lsb % 64 + widths[i] > 64 {
                words[lsb / 64 + 1] |= value >> (64 - lsb % 64);
            }
        }
        words
    })
}

/// The nine packed RVFI inputs of T harts, as one block whose signals keep their port
/// names (`rvfi_valid`, ...) in the scope of the block that holds it (a top, the
/// adapter).
#[derive(Clone, Debug)]
pub struct RvfiInputs {
    /// `rvfi_valid`, bit t = hart t.
    pub valid: DynSignal<In>,
    /// `rvfi_insn`, hart t at [t*32 +: 32].
    pub insn: DynSignal<In>,
    /// `rvfi_trap`, bit t = hart t.
    pub trap: DynSignal<In>,
    /// `rvfi_intr`, bit t = hart t.
    pub intr: DynSignal<In>,
    /// `rvfi_mode`, hart t at [t*2 +: 2].
    pub mode: DynSignal<In>,
    /// `rvfi_pc_rdata`, hart t at [t*XLEN +: XLEN].
    pub pc_rdata: DynSignal<In>,
    /// `rvfi_pc_wdata`, hart t at [t*XLEN +: XLEN].
    pub pc_wdata: DynSignal<In>,
    /// `rvfi_mem_rmask`, hart t at [t*XLEN/8 +: XLEN/8].
    pub mem_rmask: DynSignal<In>,
    /// `rvfi_mem_wmask`, hart t at [t*XLEN/8 +: XLEN/8].
    pub mem_wmask: DynSignal<In>,
    xlen: Xlen,
}

impl RvfiInputs {
    /// The inputs of `harts` harts of `xlen`.
    pub fn new(harts: usize, xlen: Xlen) -> Self {
        let [valid, insn, trap, intr, mode, pc_rdata, pc_wdata, mem_rmask, mem_wmask] =
            widths(xlen).map(|width| DynSignal::new(harts * width));
        Self { valid, insn, trap, intr, mode, pc_rdata, pc_wdata, mem_rmask, mem_wmask, xlen }
    }

    /// The core's XLEN.
    pub fn xlen(&self) -> Xlen {
        self.xlen
    }

    /// The signals in [`NAMES`] order.
    pub fn signals(&self) -> [&DynSignal<In>; 9] {
        [
            &self.valid,
            &self.insn,
            &self.trap,
            &self.intr,
            &self.mode,
            &self.pc_rdata,
            &self.pc_wdata,
            &self.mem_rmask,
            &self.mem_wmask,
        ]
    }

    /// The signals in [`NAMES`] order, to drive or connect them.
    pub fn signals_mut(&mut self) -> [&mut DynSignal<In>; 9] {
        [
            &mut self.valid,
            &mut self.insn,
            &mut self.trap,
            &mut self.intr,
            &mut self.mode,
            &mut self.pc_rdata,
            &mut self.pc_wdata,
            &mut self.mem_rmask,
            &mut self.mem_wmask,
        ]
    }

    /// Hart `hart`'s values.
    pub fn hart(&self, hart: usize) -> HartSignals {
        let widths = widths(self.xlen);
        let signals = self.signals();
        HartSignals::from_fields(std::array::from_fn(|i| signals[i].field(hart * widths[i], widths[i])))
    }

    /// Drive every signal from packed words ([`pack`]); with `latch`, take them at once
    /// (a parent that evaluates in signal order), else at the next delta cycle.
    pub fn drive(&mut self, words: &[Vec<u64>; 9], latch: bool) {
        for (signal, words) in self.signals_mut().into_iter().zip(words) {
            signal.set_words(words);
            if latch {
                signal.latch();
            }
        }
    }

    /// The packed words of every signal.
    pub fn words(&self) -> [Vec<u64>; 9] {
        self.signals().map(|signal| signal.words().to_vec())
    }
}

impl Logic for RvfiInputs {
    fn update(&mut self) {}
}

/// The signals appear under their port names in the scope of the block that holds them.
impl Block for RvfiInputs {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {
        self.signals_mut().into_iter().for_each(|signal| signal.update_all());
    }
    fn has_changed(&self) -> bool {
        self.signals().iter().any(|signal| signal.has_changed())
    }
    fn accept(&self, _name: &str, probe: &mut dyn Probe) {
        for (name, signal) in NAMES.iter().zip(self.signals()) {
            signal.accept(name, probe);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_across_words() {
        let harts: Vec<HartSignals> = (0..4u64)
            .map(|t| HartSignals {
                valid: t % 2 == 0,
                insn: 0x1234_5678 ^ t as u32,
                trap: t == 1,
                intr: t == 2,
                mode: t as u8,
                pc_rdata: 0xFEDC_BA98_7654_3210 ^ t,
                pc_wdata: 0x0123_4567_89AB_CDEF ^ t,
                mem_rmask: 0xF0 | t as u8,
                mem_wmask: 0x0F,
            })
            .collect();
        for xlen in [Xlen::Rv32, Xlen::Rv64] {
            let mut inputs = RvfiInputs::new(4, xlen);
            inputs.drive(&pack(&harts, xlen), true);
            for (t, expected) in harts.iter().enumerate() {
                assert_eq!(inputs.hart(t).fields(xlen), expected.fields(xlen), "hart {t} at XLEN {xlen}");
            }
        }
    }
}
