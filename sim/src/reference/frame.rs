//! docs/monitor.md §6: the serial frame of the record and the counter.

use super::record::RecordModel;

/// Frame bits in order: record (m outer, a inner, a != m), then COUNT bit 31..0.
pub fn frame_bits(record: &RecordModel, count: u32) -> Vec<bool> {
    let n = record.events;
    let mut bits = Vec::with_capacity(n * (n - 1) + 32);
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            bits.push(record.before[a][m]);
        }
    }
    bits.extend((0..32).rev().map(|j| count >> j & 1 == 1));
    bits
}

/// The frame transmitter: which bit is on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameModel {
    /// The frame being sent (empty when idle).
    pub bits: Vec<bool>,
    /// Index of the bit on `ser_data` this cycle.
    pub position: usize,
}

impl FrameModel {
    /// Is a frame being sent this cycle?
    pub fn busy(&self) -> bool {
        !self.bits.is_empty()
    }

    /// Is this cycle the frame's last bit?
    pub fn last(&self) -> bool {
        self.busy() && self.position + 1 == self.bits.len()
    }

    /// One edge: load `next_frame()` if no frame is being sent after this edge and
    /// SERIAL_EN was set; otherwise advance.
    pub fn step(&mut self, serial_en: bool, next_frame: impl FnOnce() -> Vec<bool>) {
        let free = !self.busy() || self.last();
        if free && serial_en {
            self.bits = next_frame();
            self.position = 0;
        } else if self.last() {
            self.bits.clear();
            self.position = 0;
        } else if self.busy() {
            self.position += 1;
        }
    }

    /// (`ser_data`, `ser_valid`, `ser_last`) during this cycle.
    pub fn outputs(&self) -> (bool, bool, bool) {
        if self.busy() {
            (self.bits[self.position], true, self.last())
        } else {
            (false, false, false)
        }
    }
}
