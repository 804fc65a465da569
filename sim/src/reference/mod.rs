//! Reference models written from the design documentation alone (the monitor's is
//! docs/monitor.md), in plain Rust, with no knowledge of the hardware blocks: one
//! model per block family, and the whole monitor composed of them following the cycle
//! rules of docs/monitor.md §3.
pub mod behind_rvfi;
pub mod bus;
pub mod counter;
pub mod frame;
pub mod monitor;
pub mod order;
pub mod pmu;
pub mod record;
pub mod rvfi;
pub mod uart;
pub mod window;

pub use monitor::ReferenceMonitor;
pub use order::order_matches;
pub use pmu::ReferencePmu;
