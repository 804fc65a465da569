//! The reference SoC's memory map and interrupt lines (docs/soc.md §2.2): one table that
//! the interconnect's decoder, the firmware header `soc.h` and the documentation follow.
//!
//! ```text
//! 0x0000_0000 RAM 64 KiB   0x1000_0000 console/exit/PID/PM_MARK/FAULTS
//! 0x2000_0000 PMU          0x3000_0000 monitor        0x4000_0000 trace sink
//! ```

/// RAM: 64 KiB from 0 (reset PC 0, PicoRV32's IRQ vector 0x10).
pub const RAM_BASE: u32 = 0x0000_0000;
/// RAM size in bytes.
pub const RAM_BYTES: u32 = 0x1_0000;
/// RAM size in 32-bit words (the `$readmemh` image's length at most).
pub const RAM_WORDS: usize = (RAM_BYTES / 4) as usize;
/// The console, exit, PID, PM_MARK and FAULTS registers.
pub const IO_BASE: u32 = 0x1000_0000;
/// Any store writes bits [7:0] to the console.
pub const CONSOLE: u32 = IO_BASE;
/// A store ends the run with that code.
pub const EXIT: u32 = IO_BASE + 0x04;
/// The PMU's `pid` input (read/write, reset 0).
pub const PID: u32 = IO_BASE + 0x10;
/// Bit 0 drives the PMU's `pm_mark` (read/write, reset 1).
pub const PM_MARK: u32 = IO_BASE + 0x14;
/// The number of accesses answered ERR (read; a write clears).
pub const FAULTS: u32 = IO_BASE + 0x18;
/// The PMU behind its 32-bit Wishbone slave (docs/bus.md §8).
pub const PMU_BASE: u32 = 0x2000_0000;
/// The monitor behind its Wishbone slave, register a at 4a.
pub const MONITOR_BASE: u32 = 0x3000_0000;
/// The trace sink: +0 words available, +8/+12 the oldest word's halves.
pub const TRACE_BASE: u32 = 0x4000_0000;

/// PicoRV32's IRQ of the PMU's `pmi`.
pub const IRQ_PMU: u32 = 3;
/// PicoRV32's IRQ of the monitor's `matched`.
pub const IRQ_MONITOR: u32 = 4;

/// The SoC's top module; every other generated module name starts with it.
pub const TOP: &str = "pmugen_soc";
