//! 8N1 UART line behaviour, from the usual definition: idle high, one start bit
//! (low), 8 data bits LSB first, one stop bit (high), each `clocks_per_bit` clocks.

/// The line level in each clock cycle while `byte` is sent.
pub fn encode(byte: u8, clocks_per_bit: usize) -> Vec<bool> {
    let mut bits = vec![false];
    bits.extend((0..8).map(|i| byte >> i & 1 == 1));
    bits.push(true);
    bits.iter().flat_map(|&bit| std::iter::repeat_n(bit, clocks_per_bit)).collect()
}

/// Decodes a line sampled once per clock, sampling each bit in its middle.
/// Bytes whose stop bit is low (framing errors) are dropped.
#[derive(Clone, Debug)]
pub struct LineDecoder {
    clocks_per_bit: usize,
    /// Clocks since the falling edge of the start bit, while receiving.
    elapsed: Option<usize>,
    bits: Vec<bool>,
    previous: bool,
}

impl LineDecoder {
    /// A decoder for an idle line.
    pub fn new(clocks_per_bit: usize) -> Self {
        Self { clocks_per_bit, elapsed: None, bits: Vec::new(), previous: true }
    }

    /// One clock of the line; returns a byte when its stop bit is sampled.
    pub fn sample(&mut self, level: bool) -> Option<u8> {
        let falling = self.previous && !level;
        self.previous = level;
        let Some(elapsed) = self.elapsed else {
            if falling {
                self.elapsed = Some(0);
                self.bits.clear();
            }
            return None;
        };
        let elapsed = elapsed + 1;
        self.elapsed = Some(elapsed);
        if elapsed % self.clocks_per_bit != self.clocks_per_bit / 2 {
            return None;
        }
        self.bits.push(level);
        if self.bits.len() < 10 {
            return None;
        }
        self.elapsed = None;
        let byte = (0..8).fold(0u8, |acc, i| acc | (self.bits[1 + i] as u8) << i);
        (!self.bits[0] && self.bits[9]).then_some(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_reads_what_encode_writes() {
        let mut decoder = LineDecoder::new(16);
        let mut line = vec![true; 5];
        for byte in [0x00u8, 0xFF, 0xA5, 0x3C] {
            line.extend(encode(byte, 16));
            line.extend([true; 3]);
        }
        let bytes: Vec<u8> = line.iter().filter_map(|&level| decoder.sample(level)).collect();
        assert_eq!(bytes, vec![0x00, 0xFF, 0xA5, 0x3C]);
    }
}
