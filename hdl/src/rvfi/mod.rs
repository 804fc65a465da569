//! The RVFI adapter (docs/soc.md §1): a RISC-V core's retirement port (RVFI, one
//! retirement per hart and cycle) turned into the event-side inputs of the PMU and the
//! monitor, for T harts, and the `_rvfi` tops that put it in front of either design.
//!
//! Per hart, a reader takes the retirement as its core means it (`--core`, docs/soc.md
//! §1.7) and three blocks derive what it gives; the adapter registers all of it in one
//! stage, so the designs behind it see the retirement of cycle c in cycle c+1:
//!
//! ```text
//!             +------------------------- adapter (per hart t) -------------------------+
//!  rvfi_*[t] -+-> reader (the core's RVFI as the rules take it)                      |
//!             +-> classifier --events[14]---------------------------> events_q [t]  --+--> events
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
pub mod formal;
pub mod groups;
pub mod kernel;
pub mod monitor_top;
pub mod params;
pub mod pmu_top;
pub mod port;
pub mod reader;
pub mod testing;

/// What every `_rvfi` top has in the same form, for a top holding `adapter` and one
/// design block `$design`: `flip_flops` (the adapter's registers under `adapter`, the
/// design's under its field name), `Logic` through the top's own `wiring` module
/// (`clock_edge`, `outputs`, `connect`, `verilog`), and the scheduled `Block` of its
/// `ports`.
macro_rules! rvfi_top {
    ($top:ty, design: $design:ident, ports: [$($port:ident),+ $(,)?]) => {
        impl $top {
            /// Every register of the design with its report group (`adapter.events_q`,
            /// and the design's under the design's field name).
            pub fn flip_flops(&self) -> Vec<$crate::flip_flops::FlipFlops> {
                let mut all: Vec<_> = $crate::flip_flops::within("adapter", self.adapter.flip_flops()).collect();
                all.extend($crate::flip_flops::within(stringify!($design), self.$design.flip_flops()));
                all
            }
        }

        impl rust_hdl::prelude::Logic for $top {
            fn update(&mut self) {
                if self.clock.pos_edge() {
                    wiring::clock_edge(self);
                }
                wiring::outputs(self);
            }

            fn connect(&mut self) {
                wiring::connect(self);
            }

            fn hdl(&self) -> rust_hdl::prelude::Verilog {
                $crate::custom::hand_written::<Self>(wiring::verilog(self))
            }
        }

        // The simulation evaluates the blocks' twins in signal order (the `update`
        // named here), so a delta cycle updates the top's own ports only.
        $crate::scheduled_top!(
            $top,
            update: rust_hdl::prelude::Logic::update,
            ports: [$($port),+],
            blocks: [adapter, $design]
        );
    };
}
pub(crate) use rvfi_top;
