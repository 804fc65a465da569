//! The profile table of docs/pmu.md §15 as a block of its own, written from §15 alone:
//! it sits between the trace queue (§13.4) and the trace ports, passes records through
//! (SUMMARIZE = 0) or sums them per (thread, pid, block address) into E entries
//! (SUMMARIZE = 1), and sends an entry as a summary record (§15.3) when its place is
//! needed, when an addition would wrap, or on a flush. The [`ReferencePmu`] builds one
//! when E > 0; a test of the hardware block runs one on its own in lockstep with it.
//!
//! # Interface
//! - [`ProfileTable::new`]`(E, T, K, CW, AW)`: the table at power-on, which is as just
//!   after a reset edge: clearing for E cycles. [`ProfileTable::reset`] is a reset edge
//!   (the entries keep stale contents until the clearing invalidates them).
//! - [`ProfileTable::cycle`]`(queue, trace_ready) -> (trace, ready)`: during a cycle in
//!   which the queue presents `queue` (a [`StreamWord`]: valid, data, last) and the trace
//!   consumer gives `trace_ready`, the table shows `trace` on the trace ports and gives
//!   the queue `ready`. `trace` never depends on `trace_ready`.
//! - [`ProfileTable::edge`]`(queue, trace_ready, records_after_edge, write)`: the rising
//!   edge that ends that cycle, with the same `queue` and `trace_ready`;
//!   `records_after_edge` is the queue's occupancy after this edge (its handshake with
//!   `ready` done and this edge's record, if any, joined: a flush's *pending*), and
//!   `write` an allowed write of PROFILE_CTRL (with its data) or PROFILE_EVICTED at it.
//! - [`ProfileTable::read`]`(register)`: PROFILE_CTRL or PROFILE_EVICTED during a cycle.
//!
//! One cycle in lockstep: `let word = queue.presented(); let (trace, ready) =
//! table.cycle(word, trace_ready);` then at the edge the queue's handshake with `ready`,
//! the queue takes this edge's record, and `table.edge(word, trace_ready,
//! queue.occupancy(), write)`.
//!
//! # Choices where §15 leaves the behaviour open (docs/pmu.md §15.6)
//! - FLUSH = 1 written in the cycle at whose edge a flush ends is ignored (FLUSH reads 1
//!   during that cycle).
//! - Records waiting in the queue when SUMMARIZE changes are judged by the new value when
//!   their first word reaches the idle table, and keep the NEW_PROCESS they were made
//!   with.
//! - The pid word of a NEW_PROCESS record sets the current pid from its bits [31:0]; the
//!   entry read when a record's first word moves is the one updated (nothing else
//!   writes the entries in between); a record's first word is never its last (a §13
//!   record has at least 2 words), so idle always goes on to *passing* or *taking*.
//!
//! [`ReferencePmu`]: super::ReferencePmu
mod advance;
mod control;
mod entry;
mod index;
mod state;
mod summary;
mod table;

pub use super::trace_queue::StreamWord;
pub use control::{ProfileRegister, ProfileWrite};
pub use entry::{Entry, Key, EXECUTIONS_BITS};
pub use index::index;
pub use state::{SendCause, State};
pub use summary::{summary_length, summary_word, EXECUTIONS_SHIFT, SUMMARY_BIT};
pub use table::{ProfileGeometry, ProfileTable};
