//! Four bytes to one 32-bit word, byte 0 lowest: a concatenation, which
//! `#[hdl_gen]` cannot write without 32-bit literal casts (Verilator WIDTH).
//!
//! Latency: combinational.
//!
//! ```text
//!  bytes[0..4] --> {bytes[3], bytes[2], bytes[1], bytes[0]} --> word
//! ```
use rust_hdl::prelude::*;

/// Little-endian byte-to-word join.
#[derive(LogicBlock, Default)]
pub struct WordJoin {
    /// Byte i becomes bits [8i+7:8i].
    pub bytes: [Signal<In, Bits<8>>; 4],
    /// The joined word.
    pub word: Signal<Out, Bits<32>>,
}

impl Logic for WordJoin {
    fn update(&mut self) {
        let word = self.bytes.iter().rev().fold(0u64, |acc, byte| acc << 8 | byte.val().index() as u64);
        self.word.next = word.to_bits();
    }
    fn connect(&mut self) {
        self.word.connect();
    }
    fn hdl(&self) -> Verilog {
        crate::custom::hand_written::<Self>("always @(*) word = {bytes$3, bytes$2, bytes$1, bytes$0};\n".to_string())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Combinational, CombinationalPorts, Port};
    use crate::testing::{assert_valid_verilog, bits_of, settle, value_of};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut WordJoin::default(), "word_join");
    }

    impl CombinationalPorts for WordJoin {
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; word; vec bytes)
        }
    }

    /// The join has no parameters: three copies, each on its own random bytes.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let instances = (0..3).map(|i| (format!("word join {i}"), Combinational::new(WordJoin::default()))).collect();
        Lockstep::new("word_join", 0x5eed_1304).run(instances);
    }

    #[test]
    fn byte_zero_is_lowest() {
        let mut uut = WordJoin::default();
        uut.connect_all();
        for (i, byte) in [0x78u64, 0x56, 0x34, 0x12].into_iter().enumerate() {
            uut.bytes[i].next = bits_of(byte);
        }
        settle(&mut uut);
        assert_eq!(value_of(uut.word.val()), 0x1234_5678);
    }
}
