//! The holding words of a 32-bit slave in front of the PMU's 64-bit registers
//! (docs/bus.md, 32-bit PMU slaves): register `a` of thread `t` is two bus words,
//! bits [31:0] at byte `t*0x800 + 8a` ("+0") and bits [63:32] at +4.
//!
//! - Reads. Every +0 or +4 read makes one register-port read of the whole register,
//!   with its privilege check and its own response. A +0 read returns [31:0] and
//!   latches [63:32] into the holding word; a +4 read returns the holding word if the
//!   previous read on the bus was +0 of that register (same thread and address), else
//!   the live [63:32] of its own register-port read. A counter read as +0 then +4 is
//!   one consistent 64-bit value.
//! - Writes. A +4 write is held and changes nothing; it is acknowledged unless it is
//!   misaligned or its strobes are not all ones. A +0 write performs one register-port
//!   write of {held word, data} if the previous write on the bus was +4 of that
//!   register, else {0, data}: a 32-bit register takes one write, a 64-bit one is
//!   written high word first.
//! - Misaligned and strobe-refused accesses change no holding state.
//!
//! Where the text leaves room, this model reads it as follows:
//! - Reads and writes have separate histories ("the previous read", "the previous
//!   write"): a write between the two reads, or a read between the two writes,
//!   changes neither.
//! - Every other access the slave takes is "the previous read/write on the bus",
//!   denied ones included, since only misaligned and strobe-refused accesses are
//!   excluded. A denied read made its register-port read, which returns 0 (docs/bus.md
//!   §2: a denied read returns 0), so a denied +0 read latches 0: a +4 read of that
//!   register right after it answers 0 (OKAY if the +4 read itself is allowed). A
//!   denied read of another register or of a +4 ends the latch (the next +4 reads
//!   live). A denied +0 write uses up the held word: repeating the +0 write alone
//!   writes {0, data}.
//! - The one register-port write of a +4/+0 pair is the +0 write's access: its
//!   privilege is the +0 write's (AxPROT[0] / `wb_priv` of that access), the check
//!   and the response are the +0's. The +4 write's own privilege is not kept; it is
//!   acknowledged whatever it reaches (a bank t >= T, an unlisted or read-only
//!   register), which the +0 write's check then decides.
//! - Reset clears both histories: after a reset no read or write came before.
use super::PortAccess;
use crate::ports::bus::BusShape;

/// The 32-bit half of a 64-bit register that one bus word reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// Bits [31:0], at the register's byte address ("+0").
    Low,
    /// Bits [63:32], at the register's byte address + 4 ("+4").
    High,
}

impl Half {
    /// The half that byte `address` reaches on a bus of `shape`, or `None` when each
    /// register is one bus word. Address bit 2 selects it on 32-bit data.
    pub fn of(shape: &BusShape, address: u32) -> Option<Half> {
        let high = address & (1 << shape.offset_bits()) != 0;
        shape.splits_registers().then_some(if high { Half::High } else { Half::Low })
    }
}

/// "That register": a thread bank and a register address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterId {
    /// The thread bank, address bits [12:11].
    pub thread: u8,
    /// The register address, address bits [10:3].
    pub register: u8,
}

impl RegisterId {
    /// The register that `port` reaches.
    pub fn of(port: &PortAccess) -> Self {
        Self { thread: port.thread, register: port.register }
    }
}

/// A 32-bit word kept for one register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldWord {
    /// The register it belongs to.
    pub register: RegisterId,
    /// The word.
    pub word: u32,
}

/// What a 32-bit PMU slave remembers between bus accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HoldingWords {
    latched_read: Option<HeldWord>,
    held_write: Option<HeldWord>,
}

impl HoldingWords {
    /// The read holding word while the previous read on the bus was a +0 read: its
    /// register and the [63:32] its register-port read returned (0 if it was denied).
    pub fn latched_read(&self) -> Option<HeldWord> {
        self.latched_read
    }
    /// The held high word while the previous write on the bus was a +4 write: its
    /// register and data.
    pub fn held_write(&self) -> Option<HeldWord> {
        self.held_write
    }
    /// A read of `half` of `register` whose register-port read returned `port_data`
    /// (0 when denied): the bus word it returns. It becomes the previous read.
    pub fn read(&mut self, half: Half, register: RegisterId, port_data: u64) -> u32 {
        let (low, high) = (port_data as u32, (port_data >> 32) as u32);
        match half {
            Half::Low => {
                self.latched_read = Some(HeldWord { register, word: high });
                low
            }
            Half::High => match self.latched_read.take() {
                Some(latched) if latched.register == register => latched.word,
                _ => high,
            },
        }
    }
    /// A write of `data` to `half` of `register` (aligned, all strobes): the 64-bit
    /// register-port write it performs, or `None` for a +4 write, which is held. It
    /// becomes the previous write.
    pub fn write(&mut self, half: Half, register: RegisterId, data: u32) -> Option<u64> {
        match half {
            Half::High => {
                self.held_write = Some(HeldWord { register, word: data });
                None
            }
            Half::Low => {
                let held = self.held_write.take().filter(|held| held.register == register);
                Some((held.map_or(0, |held| held.word) as u64) << 32 | data as u64)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVTSEL: RegisterId = RegisterId { thread: 0, register: 0x28 };
    const TSC: RegisterId = RegisterId { thread: 0, register: 0x10 };
    const TSC_OF_THREAD_1: RegisterId = RegisterId { thread: 1, register: 0x10 };

    #[test]
    fn the_high_word_of_a_read_pair_is_the_one_latched_by_its_low_word() {
        let mut holding = HoldingWords::default();
        assert_eq!(holding.read(Half::High, TSC, 0x7_0000_0001), 7, "no +0 before: live");
        assert_eq!(holding.read(Half::Low, TSC, 0x7_FFFF_FFFF), 0xFFFF_FFFF);
        assert_eq!(holding.latched_read(), Some(HeldWord { register: TSC, word: 7 }));
        assert_eq!(holding.read(Half::High, TSC, 0x8_0000_0005), 7, "latched");
        assert_eq!(holding.read(Half::High, TSC, 0x8_0000_0005), 8, "the previous read was +4: live");
    }

    #[test]
    fn a_read_of_another_register_or_thread_ends_the_latch() {
        let mut holding = HoldingWords::default();
        holding.read(Half::Low, TSC, 0x7_0000_0000);
        holding.read(Half::Low, TSC_OF_THREAD_1, 0x9_0000_0000);
        assert_eq!(holding.read(Half::High, TSC, 0x8_0000_0000), 8, "same address, another thread in between");
        holding.read(Half::Low, TSC, 0x7_0000_0000);
        assert_eq!(holding.read(Half::High, EVTSEL, 0), 0, "+4 of another register reads live");
        assert_eq!(holding.read(Half::High, TSC, 0x8_0000_0000), 8);
    }

    #[test]
    fn a_denied_low_read_latches_the_zero_its_port_read_returned() {
        let mut holding = HoldingWords::default();
        assert_eq!(holding.read(Half::Low, TSC, 0), 0);
        assert_eq!(holding.read(Half::High, TSC, 0x8_0000_0000), 0);
    }

    #[test]
    fn a_low_write_takes_the_high_word_held_for_its_register_only() {
        let mut holding = HoldingWords::default();
        assert_eq!(holding.write(Half::Low, TSC, 5), Some(5), "alone: {{0, data}}");
        assert_eq!(holding.write(Half::High, TSC, 0xAB), None, "held");
        assert_eq!(holding.held_write(), Some(HeldWord { register: TSC, word: 0xAB }));
        assert_eq!(holding.write(Half::Low, TSC, 1), Some(0xAB_0000_0001));
        assert_eq!(holding.write(Half::Low, TSC, 2), Some(2), "the held word was used up");
        holding.write(Half::High, TSC, 0xAB);
        assert_eq!(holding.write(Half::Low, TSC_OF_THREAD_1, 3), Some(3), "another thread's register");
        assert_eq!(holding.held_write(), None);
    }

    #[test]
    fn the_half_comes_from_address_bit_2_on_a_splitting_shape_only() {
        assert_eq!(Half::of(&BusShape::PMU32, 0x810), Some(Half::Low));
        assert_eq!(Half::of(&BusShape::PMU32, 0x814), Some(Half::High));
        assert_eq!(Half::of(&BusShape::PMU, 0x810), None);
        assert_eq!(Half::of(&BusShape::MONITOR, 0x14), None);
    }
}
