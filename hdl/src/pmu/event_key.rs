//! How a counter's select names its event internally: the event key.
//!
//! The samplers multiplex the event fields by a small number. When a few bits of
//! {UMASK, EVENT} already tell every table event apart (for the Knights Corner table:
//! EVENT[6:0] and UMASK bit 5), those bits themselves are the key: a select takes
//! them straight from the written value, and no decoder sits on the path from
//! `reg_wdata` to the samplers. Otherwise the key is the event's table position, from
//! the event decoder. Either way the decoder still says whether the pair is in the
//! table; keys of pairs that are not never count, so their multiplexer value is moot.
use super::event_table::EventTable;
use crate::custom::bits_for;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The widest key taken from code bits (a 2^10-entry multiplexer with a few used).
pub const MAX_KEY_BITS: usize = 10;

/// The event key of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKey {
    /// These bits of the 16-bit code {UMASK, EVENT}, low key bit first.
    CodeBits(Vec<usize>),
    /// The table position, decoded from the code.
    Position {
        /// Bits of a position.
        width: usize,
    },
}

impl EventKey {
    /// The smallest set of code bits (up to [`MAX_KEY_BITS`]) that tells every event
    /// of `table` apart, else the table position.
    pub fn for_table(table: &EventTable) -> Self {
        // Every select, sampler and decoder of a design asks for the key, and the search
        // below tries thousands of bit subsets: each table's key is found once per process.
        static KEYS: OnceLock<Mutex<HashMap<Vec<u16>, EventKey>>> = OnceLock::new();
        let codes: Vec<u16> = table.events.iter().map(|e| (e.umask as u16) << 8 | e.code as u16).collect();
        let keys = KEYS.get_or_init(Default::default);
        if let Some(key) = keys.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&codes) {
            return key.clone();
        }
        let key = Self::search(&codes);
        keys.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(codes, key.clone());
        key
    }

    /// The key of the table whose codes are `codes`: the first injective subset of the
    /// fewest code bits, else the position.
    fn search(codes: &[u16]) -> Self {
        let least = bits_for(codes.len().saturating_sub(1)).max(1);
        for size in least..=MAX_KEY_BITS {
            if let Some(bits) = first_injective_subset(codes, size) {
                return EventKey::CodeBits(bits);
            }
        }
        EventKey::Position { width: least }
    }

    /// Bits of a key.
    pub fn width(&self) -> usize {
        match self {
            EventKey::CodeBits(bits) => bits.len(),
            EventKey::Position { width } => *width,
        }
    }

    /// The key of code `code` when it is the code of table event `position`.
    pub fn of(&self, code: u16, position: usize) -> u64 {
        match self {
            EventKey::CodeBits(bits) => gather(code, bits),
            EventKey::Position { .. } => position as u64,
        }
    }

    /// The key a write of `code` stores, given the decoder's position of it.
    pub fn of_write(&self, code: u16, decoded_position: u64) -> u64 {
        match self {
            EventKey::CodeBits(bits) => gather(code, bits),
            EventKey::Position { .. } => decoded_position,
        }
    }

    /// The Verilog expression of the key of `code` (a 16-bit signal), given the
    /// decoder's position signal `decoded`.
    pub fn expression(&self, code: &str, decoded: &str) -> String {
        match self {
            EventKey::CodeBits(bits) => {
                let parts: Vec<String> = bits.iter().rev().map(|bit| format!("{code}[{bit}]")).collect();
                if parts.len() == 1 {
                    parts[0].clone()
                } else {
                    format!("{{{}}}", parts.join(", "))
                }
            }
            EventKey::Position { .. } => decoded.to_string(),
        }
    }
}

/// The bits `bits` of `code`, packed low first.
fn gather(code: u16, bits: &[usize]) -> u64 {
    bits.iter().enumerate().fold(0, |key, (at, bit)| key | ((code >> bit & 1) as u64) << at)
}

/// The first `size`-subset of the 16 code bits under which all `codes` differ.
fn first_injective_subset(codes: &[u16], size: usize) -> Option<Vec<usize>> {
    let mut subset: Vec<usize> = (0..size).collect();
    let mut keys: Vec<u64> = Vec::with_capacity(codes.len());
    loop {
        keys.clear();
        keys.extend(codes.iter().map(|&code| gather(code, &subset)));
        keys.sort_unstable();
        if keys.windows(2).all(|pair| pair[0] != pair[1]) {
            return Some(subset);
        }
        // Next combination in lexicographic order.
        let mut at = size;
        loop {
            if at == 0 {
                return None;
            }
            at -= 1;
            if subset[at] < 16 - size + at {
                break;
            }
        }
        subset[at] += 1;
        for next in at + 1..size {
            subset[next] = subset[next - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knc_events_are_told_apart_by_eight_code_bits() {
        let key = EventKey::for_table(&EventTable::default_table());
        assert_eq!(key, EventKey::CodeBits(vec![0, 1, 2, 3, 4, 5, 6, 13]));
        assert_eq!(key.of(0x2016, 0), 0b1001_0110, "VPU_INSTRUCTIONS_EXECUTED: UMASK bit 5 and EVENT 0x16");
        assert_eq!(
            key.expression("wdata", "index"),
            "{wdata[13], wdata[6], wdata[5], wdata[4], wdata[3], wdata[2], wdata[1], wdata[0]}"
        );
    }

    #[test]
    fn keys_are_unique_and_fall_back_to_positions() {
        let json = |codes: &[u16]| {
            let events: Vec<String> = codes
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        r#"{{"EventName": "E{i}", "EventCode": "0x{:02X}", "UMask": "0x{:02X}"}}"#,
                        c & 0xFF,
                        c >> 8
                    )
                })
                .collect();
            EventTable::from_json(&format!("[{}]", events.join(",")), "t.json", "t", 4).unwrap()
        };
        let single = EventKey::for_table(&json(&[0x1234]));
        assert_eq!(single.width(), 1);
        // 2048 codes that differ in 11 bits cannot be told apart by 10 of them.
        let many: Vec<u16> = (0..2048u16).map(|i| (i & 0xFF) | (i >> 8) << 12).collect();
        assert_eq!(EventKey::for_table(&json(&many)), EventKey::Position { width: 11 });
    }
}
