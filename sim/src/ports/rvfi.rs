//! A design behind the RVFI adapter (the `_rvfi` tops of docs/soc.md): its inputs are
//! the design's own minus those the adapter drives, plus the RVFI signals of T harts
//! (`rvfi_valid`, ... packed per hart: hart t at [t*w +: w]); its outputs are the
//! design's.
use crate::reference::rvfi::{Retirement, Xlen};
use crate::verilator::{PortCodec, PortList};

/// The RVFI signals, in port order.
pub const RVFI_PORTS: [&str; 9] = [
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

/// The PMU's inputs the adapter drives (docs/soc.md §1.5).
pub const PMU_DRIVEN: [&str; 5] = ["events", "core_events", "kernel", "bb_end", "bb_addr"];
/// The monitor's inputs the adapter drives.
pub const MONITOR_DRIVEN: [&str; 1] = ["events"];

/// One cycle of a design behind the adapter: each hart's retirement (hart 0 first) and
/// the design's other inputs (what the adapter drives in them is ignored).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WithRvfi<I> {
    /// One retirement (or idle port) per hart.
    pub retirements: Vec<Retirement>,
    /// The design's inputs.
    pub inputs: I,
}

/// Bits per hart of each RVFI signal at `xlen`.
pub fn rvfi_widths(xlen: Xlen) -> [usize; 9] {
    let (x, m) = (xlen.bits() as usize, xlen.bits() as usize / 8);
    [1, 32, 1, 1, 2, x, x, m, m]
}

/// The packed words of each RVFI signal for `retirements` (fields cut to their widths).
pub fn pack_rvfi(retirements: &[Retirement], xlen: Xlen) -> [Vec<u64>; 9] {
    let widths = rvfi_widths(xlen);
    std::array::from_fn(|i| {
        let mut words = vec![0u64; (retirements.len() * widths[i]).div_ceil(64)];
        for (t, r) in retirements.iter().enumerate() {
            let value = [
                r.valid as u64,
                r.insn as u64,
                r.trap as u64,
                r.intr as u64,
                r.mode as u64,
                r.pc_rdata,
                r.pc_wdata,
                r.mem_rmask as u64,
                r.mem_wmask as u64,
            ][i];
            crate::ports::pmu::set_bits(&mut words, t * widths[i], widths[i], value);
        }
        words
    })
}

/// The ports of a design behind the adapter: the design's codec without the ports the
/// adapter drives, the RVFI signals after `reset`.
#[derive(Clone, Debug)]
pub struct RvfiCodec<C> {
    /// The bare design's codec.
    pub design: C,
    /// The bare design's inputs that the adapter drives.
    pub driven: &'static [&'static str],
    /// T.
    pub harts: usize,
    /// XLEN.
    pub xlen: Xlen,
}

impl<I, O, C: PortCodec<I, O>> PortCodec<WithRvfi<I>, O> for RvfiCodec<C> {
    fn inputs(&self) -> PortList {
        let widths = rvfi_widths(self.xlen);
        let mut ports = Vec::new();
        for (name, width) in self.design.inputs() {
            if self.driven.contains(&name.as_str()) {
                continue;
            }
            let reset = name == "reset";
            ports.push((name, width));
            if reset {
                ports.extend(RVFI_PORTS.iter().zip(widths).map(|(name, width)| (name.to_string(), self.harts * width)));
            }
        }
        ports
    }
    fn outputs(&self) -> PortList {
        self.design.outputs()
    }
    fn encode(&self, inputs: &WithRvfi<I>, words: &mut Vec<u64>) {
        let mut design = Vec::new();
        self.design.encode(&inputs.inputs, &mut design);
        let mut at = 0;
        for (name, width) in self.design.inputs() {
            let port = &design[at..at + width.div_ceil(64)];
            at += width.div_ceil(64);
            if self.driven.contains(&name.as_str()) {
                continue;
            }
            words.extend_from_slice(port);
            if name == "reset" {
                for (packed, width) in pack_rvfi(&inputs.retirements, self.xlen).iter().zip(rvfi_widths(self.xlen)) {
                    words.extend((0..(self.harts * width).div_ceil(64)).map(|w| packed.get(w).copied().unwrap_or(0)));
                }
            }
        }
    }
    fn decode(&self, words: &[u64]) -> O {
        self.design.decode(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::monitor::MonitorCodec;
    use crate::ports::MonitorInputs;

    #[test]
    fn the_driven_ports_give_way_to_the_rvfi_signals_after_reset() {
        let codec =
            RvfiCodec { design: MonitorCodec { events: 3 }, driven: &MONITOR_DRIVEN, harts: 1, xlen: Xlen::Rv64 };
        let names: Vec<String> = codec.inputs().into_iter().map(|(name, _)| name).collect();
        assert_eq!(names[..3], ["reset", "rvfi_valid", "rvfi_insn"]);
        assert!(!names.contains(&"events".to_string()) && names.contains(&"reg_write".to_string()));
        let r = Retirement { valid: true, insn: 0x13, pc_rdata: u64::MAX, mem_wmask: 0xFF, ..Default::default() };
        let inputs =
            WithRvfi { retirements: vec![r], inputs: MonitorInputs { reset: true, events: 7, ..Default::default() } };
        let mut words = Vec::new();
        codec.encode(&inputs, &mut words);
        assert_eq!(words.len(), crate::verilator::record_words(&codec.inputs()));
        assert_eq!(words[..7], [1, 1, 0x13, 0, 0, 0, u64::MAX]);
        assert_eq!(words[9], 0xFF);
    }
}
