//! The PMU reference model (§ numbers refer to docs/pmu.md; "docs/pmu.md" to the product
//! specification, whose part D describes tracing): the core (§1-§9: counting, TSC,
//! register port and its privilege rules), shadow counters (§10), the freeze (§11) and
//! counter-level tracing (§13: block-end restarts, trace records, the queue of D
//! records and its stream; registers 0x40-0x42 shared by all banks; PMU_ID's AW and
//! log2 D fields) and, when E > 0, the profile table of §15 between the queue and the
//! trace ports (`profile`, a block of its own; registers 0x43-0x44 shared by all banks;
//! PMU_ID's log2 E field), cycle by cycle, in plain Rust and written from the documented
//! behaviour alone: register addresses and fields come from §6 and §6 here, not
//! from the hardware's tables, so the two cross-check. Each counter's V_i (the value it
//! would take at an edge without a write or a restart) is computed on its own (`edge`)
//! and is what a trace record carries.
//!
//! # Choices the specification leaves open (docs/pmu.md §12.6)
//! - Bits the hardware ports do not have are ignored: only the 2 bits of `reg_thread`
//!   (§5), bits t < T of `kernel` and `pm_mark`, and the event fields of §2's layout.
//! - A cycle with neither `reg_read` nor `reg_write` never faults, whatever `reg_thread`
//!   and `reg_addr` hold; `reg_wdata` matters only with an allowed write.
//! - The privilege checks of a cycle use USER_ACCESS of the accessing bank as it is
//!   during that cycle (a write to it acts from the next cycle, §7).
//! - §10's save and restore depend only on the mode change and SHADOW_CTRL: they also
//!   happen with EN = 0, PERF_GLOBAL_CTRL[i] = 0, while frozen or with a select that
//!   names no event (a restore then gives SHADOW + 0).
//! - A save at the edge of a PERF_CNTR[i] write stores the counter as it was during
//!   that cycle (the old value), not the written one.
//! - The count c is the full sum of the fields (up to T*255 with ANY), neither
//!   truncated nor saturated; CMASK compares with it, and with E = 0, CMASK = 0 the
//!   whole sum is added.
//! - §4.5's previous-condition flip-flop takes cond at every edge whatever E is,
//!   including edges where the counter is written or restored; so setting E while the
//!   condition already holds counts nothing until it drops and rises again. A select
//!   naming no event has cond = 0.
//! - SPFLT keeps SPFLT_CTRL[K-1:0] and uses only wdata[0]; ring 0 may also set or clear
//!   USER_PREF by writing PERF_SPFLT_CONTROL[63].
//! - PMU_ID[41:40] is `reg_thread`; as reg_thread >= T is denied, it is always < T.
//! - The TSC reads 0 during the cycle after a reset edge and counts from there.
//! - `layout::field_width(0)` is 1 (0 is no valid PerCycleMax); `layout::set_event`
//!   drops value bits above the field's width, as the port would.
//! - Tracing (docs/pmu.md D): a block end at the edge of a TRACE_CTRL write is judged with the
//!   old TRACE_CTRL and its NEW_PROCESS with the memory from before the write, and its
//!   pid is not remembered: the next block end has no previous one. A THREAD field of
//!   T or more reads back as written and makes no block ends. TRACE_DROPPED ignores
//!   the write data (any allowed write clears it).
//! - A block end at a kernel entry with SAVE_ON_ENTRY: SHADOW takes the counter as it
//!   was during the cycle (the restart changes only what the counter takes).
//! - Word 0 holds the address in [AW-1:0] (§13.5's [47:0], zero-extended): bits of
//!   `bb_addr` above AW and the elements of threads t >= T do not exist in hardware.
//! - trace_ready matters only in a cycle where trace_valid is 1; at a reset edge
//!   nothing moves and the queue is emptied.
//! - Profile table (§15): without one (E = 0) 0x43 and 0x44 are unlisted addresses and
//!   PMU_ID[46:42] is 0. A PROFILE_CTRL write changes SUMMARIZE when its bit 0 differs
//!   from SUMMARIZE during the write's cycle; the block end acting at that edge is
//!   judged with the old previous pid, as at a TRACE_CTRL write. A reset keeps the
//!   entries' stale contents, which the E cycles of clearing invalidate before any
//!   record or flush can reach them. The table's own choices are in its header.
mod access;
pub mod addr;
mod bank;
mod block_end;
mod counting;
mod edge;
mod engine;
pub mod evtsel;
mod input_stage;
pub mod layout;
mod port;
pub mod profile;
mod registers;
mod shadow;
#[cfg(test)]
mod tests;
mod trace;
mod trace_output;
mod trace_queue;

pub use engine::ReferencePmu;
pub use layout::{field_width, input_layout, set_event, FieldPosition, InputLayout};
