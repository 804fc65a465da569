//! Seeded random stimulus for each design (ChaCha8: the same seed gives the same
//! stimulus on every engine and every machine).
pub mod bus;
pub mod monitor;
pub mod narrow;
pub mod pmu;
mod requests;
pub mod rvfi;
pub mod workload;

pub use monitor::RandomStimulus;
pub use narrow::NarrowPmuStimulus;
pub use pmu::PmuStimulus;
pub use workload::{Counting, Workload};
