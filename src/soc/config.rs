//! What a reference SoC holds (docs/soc.md §2 and §5): the simulated reference system
//! of `pmugen soc` (PicoRV32, a T=1/K=4 PMU with D=256 and a profile table of E = 1024
//! entries, the N=8 monitor, 64 KiB of RAM, a trace sink of 2^20 words; E and the sink
//! chosen by `--profile-entries` and `--sink-words`), and the smaller systems that
//! `pmugen soc --board` fits into an FPGA, with the same memory map and firmware
//! interface.
use anyhow::{bail, Result};

use super::cpu::Cpu;
use super::map;
use pmugen_hdl::pmu::params::check_profile_entries;
use pmugen_sim::ports::pmu::DEFAULT_TRACE_DEPTH;

/// Where the RAM's contents come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RamKind {
    /// Inferred RAM; in simulation loaded from `+firmware=PATH`, on a board initialised
    /// with the firmware in the bitstream (block RAM).
    Plain,
    /// The iCE40 UP5K's single-port RAM (two SB_SPRAM256KA, 64 KiB), which a bitstream
    /// cannot initialise: a boot ROM of `boot_words` words in block RAM holds the
    /// firmware, copied into the SPRAM while the CPU waits in reset.
    Spram {
        /// Words of the boot ROM (the largest firmware image).
        boot_words: usize,
    },
}

/// The sizes of one SoC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocConfig {
    /// The PMU's counters K (T = 1, CW = 40 always).
    pub counters: usize,
    /// The PMU's trace queue depth D in records.
    pub trace_depth: usize,
    /// Entries E of the PMU's profile table (0: none; docs/pmu.md §15).
    pub profile_entries: usize,
    /// Whether the N=8, W=3 monitor is there (its window answers ERR when not).
    pub monitor: bool,
    /// RAM words (32-bit): a power of 2, at most 16384 (64 KiB).
    pub ram_words: usize,
    /// How the RAM is built.
    pub ram: RamKind,
    /// Trace sink words (64-bit): a power of 2, at most 2^24.
    pub sink_words: usize,
    /// Built for a board: the firmware is in the bitstream, and the console waits for the
    /// board's UART (an input `console_ready`).
    pub board: bool,
    /// The CPU.
    pub cpu: Cpu,
}

impl SocConfig {
    /// The simulated reference SoC (docs/soc.md §2).
    pub const REFERENCE: SocConfig = SocConfig {
        counters: 4,
        trace_depth: DEFAULT_TRACE_DEPTH,
        profile_entries: 1024,
        monitor: true,
        ram_words: map::RAM_WORDS,
        ram: RamKind::Plain,
        sink_words: 1 << 20,
        board: false,
        cpu: Cpu::Picorv32,
    };

    /// The simulated reference SoC on `cpu`.
    pub fn reference(cpu: Cpu) -> SocConfig {
        SocConfig { cpu, ..SocConfig::REFERENCE }
    }

    /// The sizes checked.
    pub fn checked(self) -> Result<SocConfig> {
        if !(1..=4).contains(&self.counters) {
            bail!("K = {}: the SoC's PMU has 1..=4 counters", self.counters);
        }
        for (what, value, max) in [
            ("RAM words", self.ram_words, map::RAM_WORDS),
            ("trace sink words", self.sink_words, 1 << 24),
            ("trace depth", self.trace_depth, 1024),
        ] {
            if !value.is_power_of_two() || value < 2 || value > max {
                bail!("{what} {value}: a power of 2 in 2..={max}");
            }
        }
        check_profile_entries(self.profile_entries as u64)?;
        if let RamKind::Spram { boot_words } = self.ram {
            if self.ram_words != map::RAM_WORDS || !boot_words.is_power_of_two() || boot_words > self.ram_words {
                bail!("SPRAM RAM: {} words with a boot ROM of {boot_words}", self.ram_words);
            }
        }
        Ok(self)
    }

    /// The largest firmware image in bytes.
    pub fn image_bytes(&self) -> usize {
        match self.ram {
            RamKind::Plain => self.ram_words * 4,
            RamKind::Spram { boot_words } => boot_words * 4,
        }
    }

    /// RAM bytes.
    pub fn ram_bytes(&self) -> usize {
        self.ram_words * 4
    }

    /// One line for reports: `PMU K=2, D=32, monitor N=8, RAM 64 KiB (SPRAM, 4 KiB boot ROM), sink 256 words`
    /// (`, E=<entries>` after D with a profile table).
    pub fn describe(&self) -> String {
        let ram = match self.ram {
            RamKind::Plain => format!("RAM {} KiB", self.ram_bytes() / 1024),
            RamKind::Spram { boot_words } => {
                format!("RAM {} KiB in SPRAM ({} KiB boot ROM)", self.ram_bytes() / 1024, boot_words * 4 / 1024)
            }
        };
        let monitor = if self.monitor { "monitor N=8" } else { "no monitor" };
        let table = match self.profile_entries {
            0 => String::new(),
            entries => format!(", E={entries}"),
        };
        let cpu = if self.cpu == Cpu::Picorv32 { String::new() } else { format!("{}, ", self.cpu) };
        format!(
            "{cpu}PMU K={}, D={}{table}, {monitor}, {ram}, sink {} words",
            self.counters, self.trace_depth, self.sink_words
        )
    }
}
