//! The systems `pmugen soc --board` tries, in the order it tries them (docs/soc.md §5.2),
//! and the rule by which it skips one that cannot fit.
//!
//! The order ranks the profile table first (the board's profile over the UART needs
//! it), then the counters, then the monitor:
//!
//! ```text
//! E = 256: K=4 + monitor, K=2 + monitor, K=1 + monitor, K=2, K=1
//! E = 0:   K=4 + monitor, K=2 + monitor, K=1 + monitor, K=2, K=1
//! ```
//!
//! Only E = 256 and E = 0 are tried: on the iCE40 a table of 16 to 256 entries takes the
//! same block RAMs (one SB_RAM40_4K, 256 entries deep, per 16 bits of an entry), so where
//! 256 entries do not fit, fewer do not either; 512 entries take twice as many.
use anyhow::{bail, Result};

use super::super::config::{RamKind, SocConfig};
use super::super::cpu::Cpu;
use crate::build::Board;

/// E of the systems with a profile table: the largest that takes no more block RAMs
/// than the smallest table (docs/soc.md §5.2).
pub const TABLE_ENTRIES: usize = 256;

/// Words of every board system's trace sink: the fewest a 64-bit-wide sink of block RAM
/// can have for its four SB_RAM40_4K (256 entries deep each).
pub const SINK_WORDS: usize = 256;

/// (K, monitor) of the systems tried, in order.
const SIZES: [(usize, bool); 5] = [(4, true), (2, true), (1, true), (2, false), (1, false)];

/// What the command line pins: (K, monitor) with `--counters [--no-monitor]`, E with
/// `--profile-entries`; the search tries the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--counters K` and whether the monitor is there (`--no-monitor`).
    pub counters: Option<(usize, bool)>,
    /// `--profile-entries E` (0: no table).
    pub profile_entries: Option<usize>,
}

/// Every system tried on `board` with `cpu`, in order (this file's header). The UP5K
/// keeps 64 KiB of RAM in its SPRAM (a 4 KiB boot ROM), the HX8K 4 KiB of block RAM;
/// every system has D = 256 and a sink of [`SINK_WORDS`].
pub fn candidates(board: &Board, cpu: Cpu) -> Vec<SocConfig> {
    let (ram_words, ram) = match board.name {
        "icebreaker" => (16384, RamKind::Spram { boot_words: 1024 }),
        _ => (1024, RamKind::Plain),
    };
    let base = SocConfig {
        counters: 4,
        trace_depth: 256,
        profile_entries: 0,
        monitor: true,
        ram_words,
        ram,
        sink_words: SINK_WORDS,
        board: true,
        cpu,
    };
    [TABLE_ENTRIES, 0]
        .into_iter()
        .flat_map(|profile_entries| {
            SIZES.map(|(counters, monitor)| SocConfig { counters, monitor, profile_entries, ..base })
        })
        .collect()
}

/// The systems of `board` with `cpu` that `selection` leaves, in order; a selection that
/// leaves none is refused naming the flag.
pub fn configurations(board: &Board, selection: Selection, cpu: Cpu) -> Result<Vec<SocConfig>> {
    let mut configs = candidates(board, cpu);
    if let Some((counters, monitor)) = selection.counters {
        configs.retain(|c| (c.counters, c.monitor) == (counters, monitor));
        if configs.is_empty() {
            let monitor = if monitor { "with" } else { "without" };
            bail!(
                "--counters {counters} {monitor} the monitor: not one of the board systems (K = 4, 2 or 1 with the \
                 monitor, K = 2 or 1 without)"
            );
        }
    }
    if let Some(entries) = selection.profile_entries {
        // Every size of table can be asked for; the candidates keep their (K, monitor) order.
        configs.retain(|c| c.profile_entries == TABLE_ENTRIES);
        for config in &mut configs {
            config.profile_entries = entries;
        }
    }
    configs.into_iter().map(SocConfig::checked).collect()
}

/// The system tried before, short of block RAMs, whose memories `config` has exactly:
/// the same system with the monitor, which holds no block RAM (its state is flip-flops:
/// docs/soc.md §5.2's parts), so `config` would be short of them too and is skipped.
pub fn short_of_block_rams<'a>(config: &SocConfig, short: &'a [SocConfig]) -> Option<&'a SocConfig> {
    short.iter().find(|failed| !config.monitor && **failed == SocConfig { monitor: true, ..*config })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_with_the_table_come_first_then_the_same_sizes_without() {
        for board in crate::build::BOARDS.iter().filter(|b| ["hx8k", "icebreaker"].contains(&b.name)) {
            let list = candidates(board, Cpu::Picorv32);
            let ranked: Vec<_> = list.iter().map(|c| (c.profile_entries, c.counters, c.monitor)).collect();
            assert_eq!(ranked[0], (TABLE_ENTRIES, 4, true), "{}", board.name);
            assert_eq!(ranked[5], (0, 4, true));
            assert_eq!(ranked[..5].iter().map(|r| (r.1, r.2)).collect::<Vec<_>>(), SIZES);
            assert!(list.iter().all(|c| c.checked().is_ok() && c.sink_words == SINK_WORDS), "{}", board.name);
            assert!(list.windows(2).all(|w| w[0] != w[1]));
        }
    }

    #[test]
    fn the_flags_pin_the_counters_and_the_table() {
        let board = crate::build::board("hx8k").unwrap();
        let pinned = |counters, profile_entries| {
            let selection = Selection { counters, profile_entries };
            configurations(&board, selection, Cpu::Picorv32)
                .map(|list| list.iter().map(|c| (c.counters, c.monitor, c.profile_entries)).collect::<Vec<_>>())
        };
        assert_eq!(pinned(Some((1, true)), None).unwrap(), [(1, true, TABLE_ENTRIES), (1, true, 0)]);
        assert_eq!(pinned(Some((2, false)), Some(16)).unwrap(), [(2, false, 16)]);
        assert_eq!(pinned(None, Some(0)).unwrap().len(), 5);
        let err = pinned(Some((4, false)), None).unwrap_err().to_string();
        assert!(err.contains("--counters 4 without the monitor"), "{err}");
        let err = pinned(None, Some(8192)).unwrap_err().to_string();
        assert!(err.contains("8192"), "{err}");
    }

    #[test]
    fn only_the_same_system_without_the_monitor_is_skipped_for_block_rams() {
        let board = crate::build::board("icebreaker").unwrap();
        let list = candidates(&board, Cpu::Picorv32);
        let (k2_monitor, k1_monitor, k2, k1) = (list[1], list[2], list[3], list[4]);
        assert_eq!(short_of_block_rams(&k2, &[k1_monitor]), None);
        assert_eq!(short_of_block_rams(&k2, &[k2_monitor, k1_monitor]), Some(&k2_monitor));
        assert_eq!(short_of_block_rams(&k1, &[k2_monitor, k1_monitor]), Some(&k1_monitor));
        assert_eq!(short_of_block_rams(&k1_monitor, &[k1_monitor]), None, "the monitor is not dropped");
        let without_table = SocConfig { profile_entries: 0, ..k1 };
        assert_eq!(short_of_block_rams(&without_table, &[k1_monitor]), None);
    }
}
