//! UART bit timing from a clock frequency and a baud rate.
use std::fmt;

/// Clock cycles per UART bit, checked for what the UART blocks can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitTiming {
    /// Clock cycles per bit (rounded to the nearest).
    pub clocks_per_bit: u64,
}

/// Why a clock/baud pair cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTiming(pub String);

impl fmt::Display for BadTiming {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadTiming {}

/// Fewest clocks per bit: the receiver samples in the middle of a bit.
pub const MIN_CLOCKS_PER_BIT: u64 = 8;
/// Most clocks per bit: the bit timer is 16 bits wide.
pub const MAX_CLOCKS_PER_BIT: u64 = 65_535;
/// Largest baud-rate error allowed, in per mille (8N1 tolerates about 4% in total).
pub const MAX_ERROR_PER_MILLE: u64 = 20;

impl BitTiming {
    /// The timing for `clock_hz` and `baud`, or an error naming the values and the
    /// allowed range.
    pub fn new(clock_hz: u64, baud: u64) -> Result<Self, BadTiming> {
        if baud == 0 {
            return Err(BadTiming("baud rate 0 is out of range (must be > 0)".to_string()));
        }
        let clocks_per_bit = (clock_hz + baud / 2) / baud;
        if !(MIN_CLOCKS_PER_BIT..=MAX_CLOCKS_PER_BIT).contains(&clocks_per_bit) {
            return Err(BadTiming(format!(
                "clock {clock_hz} Hz / baud {baud} = {clocks_per_bit} clocks per bit is out of range \
                 {MIN_CLOCKS_PER_BIT}..={MAX_CLOCKS_PER_BIT}"
            )));
        }
        let actual = clock_hz / clocks_per_bit;
        let error_per_mille = actual.abs_diff(baud) * 1000 / baud;
        if error_per_mille > MAX_ERROR_PER_MILLE {
            return Err(BadTiming(format!(
                "clock {clock_hz} Hz gives {actual} baud instead of {baud} ({error_per_mille} per mille off, \
                 at most {MAX_ERROR_PER_MILLE} allowed)"
            )));
        }
        Ok(Self { clocks_per_bit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_rates_and_their_limits() {
        assert_eq!(BitTiming::new(12_000_000, 115_200).unwrap().clocks_per_bit, 104);
        assert_eq!(BitTiming::new(100_000_000, 115_200).unwrap().clocks_per_bit, 868);
        let err = BitTiming::new(12_000_000, 3_000_000).unwrap_err().to_string();
        assert_eq!(err, "clock 12000000 Hz / baud 3000000 = 4 clocks per bit is out of range 8..=65535");
        assert!(BitTiming::new(12_000_000, 100).unwrap_err().to_string().contains("120000 clocks per bit"));
        assert!(BitTiming::new(12_000_000, 0).is_err());
        assert_eq!(BitTiming::new(1_000_000, 111_111).unwrap().clocks_per_bit, 9);
        let err = BitTiming::new(1_000_000, 95_000).unwrap_err().to_string();
        assert_eq!(err, "clock 1000000 Hz gives 90909 baud instead of 95000 (43 per mille off, at most 20 allowed)");
    }
}
