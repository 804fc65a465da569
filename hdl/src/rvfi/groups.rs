//! The RVFI adapter's flip-flop groups as a resource report lists them (docs/soc.md §1.4).

/// The registered event vectors, 14 bits per hart.
pub const EVENTS: &str = "adapter events";
/// The registered `kernel` per hart: the kernel value of the last retirement.
pub const KERNEL: &str = "adapter kernel";
/// The handler rule's "inside the handler" flag per hart.
pub const HANDLER: &str = "adapter handler flag";
/// Each hart's block start address and its "start pending" flag.
pub const BLOCK_START: &str = "adapter block start";
/// The registered `bb_end` and `bb_addr` per hart.
pub const BLOCK_END: &str = "adapter block end";

/// The core reader's state per hart (SERV: the last retirement trapped).
pub const READER: &str = "adapter core reader";

/// Every group, in report order.
pub const ALL: [&str; 6] = [EVENTS, KERNEL, HANDLER, BLOCK_START, BLOCK_END, READER];
