//! [`BusLayout`]: where a design's registers sit in a bus window, on a bus as wide as
//! its registers or, for the PMU's 64-bit registers, on a 32-bit bus where each
//! register is two bus words (docs/bus.md §1, §8).
use super::Bus;

/// Where a design's registers sit in a bus window (byte addresses).
///
/// Register `a` of thread `t` is at `t * thread_stride + a * data_bits / 8`. The bare
/// register port instead takes the word address `a` (and the thread on its own port).
/// On a bus narrower than the registers each register is two bus words: bits [31:0]
/// at its address, bits [63:32] at +4 (docs/bus.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusLayout {
    /// Register width: 32 (monitor) or 64 (PMU).
    pub data_bits: usize,
    /// Bus data width: the register width, or 32 for the PMU behind a 32-bit slave.
    pub bus_bits: usize,
    /// Width of the byte address: the design's whole window (10 monitor, 13 PMU).
    pub address_bits: usize,
    /// Bytes between two threads' banks; `None` for a design with one bank.
    pub thread_stride: Option<u32>,
    /// Number of thread banks reachable (1 without threads).
    pub threads: usize,
}

impl BusLayout {
    /// The monitor: 32-bit registers, 256 word addresses in a 1 KiB window.
    pub const MONITOR: BusLayout =
        BusLayout { data_bits: 32, bus_bits: 32, address_bits: 10, thread_stride: None, threads: 1 };

    /// The PMU of `threads` threads: 64-bit registers, bank `t` at `t * 0x800`, 8 KiB window.
    pub fn pmu(threads: usize) -> BusLayout {
        BusLayout { data_bits: 64, bus_bits: 64, address_bits: 13, thread_stride: Some(0x800), threads }
    }
    /// The layout behind `bus`: the same addresses, with 32-bit bus words for a narrow
    /// slave. Refused when the registers are not wider than the narrow bus.
    pub fn on(self, bus: Bus) -> Result<BusLayout, String> {
        match bus.narrow_width() {
            None => Ok(BusLayout { bus_bits: self.data_bits, ..self }),
            Some(width) if self.data_bits > width => Ok(BusLayout { bus_bits: width, ..self }),
            Some(width) => Err(format!(
                "--bus-width {width} is for 64-bit registers (the PMU); these registers are {} bits wide and \
                 their bus already has {} data bits: leave --bus-width out",
                self.data_bits, self.data_bits
            )),
        }
    }
    /// Each register is two bus words (a 32-bit slave in front of 64-bit registers).
    pub fn splits_registers(&self) -> bool {
        self.bus_bits < self.data_bits
    }
    /// Bytes per register.
    pub fn bytes(&self) -> u32 {
        (self.data_bits / 8) as u32
    }
    /// Bytes per bus word.
    pub fn bus_bytes(&self) -> u32 {
        (self.bus_bits / 8) as u32
    }
    /// Low address bits that must be 0 (2 for 32-bit data, 3 for 64-bit).
    pub fn offset_bits(&self) -> usize {
        self.bus_bits.trailing_zeros() as usize - 3
    }
    /// Low address bits below the register address (2 for 32-bit registers, 3 for 64-bit).
    pub fn register_shift(&self) -> usize {
        self.data_bits.trailing_zeros() as usize - 3
    }
    /// The byte address of register (word address) `register` in bank `thread`.
    pub fn byte_address(&self, register: u32, thread: usize) -> u32 {
        self.thread_stride.unwrap_or(0) * thread as u32 + register * self.bytes()
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
    fn a_narrow_bus_keeps_the_addresses_and_splits_each_register_in_two_words() {
        let wide = BusLayout::pmu(4);
        let narrow = wide.on(Bus::Wishbone32).unwrap();
        assert_eq!(narrow.byte_address(0x20, 3), wide.byte_address(0x20, 3));
        assert_eq!((narrow.offset_bits(), narrow.register_shift(), narrow.bus_bytes()), (2, 3, 4));
        assert!(narrow.splits_registers() && !wide.splits_registers());
        assert_eq!(wide.on(Bus::Axi4Lite), Ok(wide));
        let error = BusLayout::MONITOR.on(Bus::Axi4Lite32).unwrap_err();
        assert!(error.contains("--bus-width 32") && error.contains("32 bits"), "{error}");
    }
}
