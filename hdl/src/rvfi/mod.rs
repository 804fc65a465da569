//! The RVFI adapter (docs/soc.md §1): a RISC-V core's retirement port (RVFI, one
//! retirement per hart and cycle) turned into the event-side inputs of the PMU and the
//! monitor, for T harts, and the `_rvfi` tops that put it in front of either design.
//!
//! Per hart, three blocks derive what the retirement of the cycle gives; the adapter
//! registers all of it in one stage, so the designs behind it see the retirement of
//! cycle c in cycle c+1:
//!
//! ```text
//!             +------------------------- adapter (per hart t) -------------------------+
//!  rvfi_*[t] -+-> classifier --events[14]---------------------------> events_q [t]  --+--> events
//!             |       | ends_block, handler_return                                   |
//!             |       v                                                              |
//!             |   kernel rule <-- kernel_q[t] (last) --kernel-------> kernel_q [t]  --+--> kernel
//!             |       | kernel (this cycle)                                          |
//!             |       v                                                              |
//!             |   block tracker (start, pending) --bb_end, bb_addr--> bb_*_q [t]    --+--> bb_end, bb_addr
//!             +-----------------------------------------------------------------------+
//!  pmu_top:     rvfi_* -> adapter -> PMU (events by table name, kernel, bb_end, bb_addr)
//!  monitor_top: rvfi_* -> adapter (1 hart) -> monitor (events[k] = the k-th chosen event)
//! ```
//!
//! `classify.rs` holds the classifier's rules in plain Rust (its twin), `events.rs` the
//! event names and the checks of the tables and lists that name them, `port.rs` the
//! RVFI signals.
pub mod adapter;
pub mod blocks;
pub mod classifier;
pub mod classify;
pub mod events;
pub mod groups;
pub mod kernel;
pub mod monitor_top;
pub mod params;
pub mod pmu_top;
pub mod port;
pub mod testing;
