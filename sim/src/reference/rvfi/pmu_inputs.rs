//! The adapter's outputs as the PMU's event-side inputs (the RVFI adapter rules,
//! docs/soc.md): with an event table whose events are all the RISC-V table's (thread
//! scope, PerCycleMax 1, so 1 bit each), hart t's field of the table's event i is bit
//! t*TEW + i of `events` (TEW = the table's length), and `kernel`, `bb_end` and
//! `bb_addr` are hart t's bit or element t. `core_events` (no core-scope event) is 0.
use super::adapter::AdapterOutputs;
use super::events::Event;
use crate::ports::pmu::{set_bits, PmuInputs};

impl AdapterOutputs {
    /// Write the adapter's outputs into the event-side inputs of `inputs`, for a PMU
    /// whose event table is `table` (in table order). `pm_mark`, `pid`, `reset`, the
    /// register port and `trace_ready` are left as they are.
    pub fn drive_pmu_inputs(&self, table: &[Event], inputs: &mut PmuInputs) {
        let thread_width = table.len();
        inputs.events = vec![0; (self.harts.len() * thread_width).max(1).div_ceil(64)];
        inputs.core_events = vec![0];
        inputs.kernel = 0;
        inputs.bb_end = 0;
        inputs.bb_addr = [0; 4];
        for (hart, outputs) in self.harts.iter().enumerate() {
            for (field, &event) in table.iter().enumerate() {
                set_bits(&mut inputs.events, hart * thread_width + field, 1, outputs.events.contains(event) as u64);
            }
            inputs.kernel |= (outputs.kernel as u8) << hart;
            inputs.bb_end |= (outputs.bb_end as u8) << hart;
            inputs.bb_addr[hart] = outputs.bb_addr;
        }
    }
}
