//! docs/monitor.md §3.5: the counting window with selectable start/stop edges.

/// Window state and the edge-detector history of the trigger lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowModel {
    /// The window is open during this cycle.
    pub open: bool,
    /// Last cycle's start lines.
    pub start_prev: u8,
    /// Last cycle's stop lines.
    pub stop_prev: u8,
}

impl WindowModel {
    /// One edge. Every line has its own edge detector; the selection comes after
    /// it. Closing wins over opening.
    pub fn step(&mut self, start: u8, stop: u8, start_sel: u32, stop_sel: u32, open_cmd: bool, close_cmd: bool) {
        let start_edge = (start & !self.start_prev) >> start_sel & 1 == 1;
        let stop_edge = (stop & !self.stop_prev) >> stop_sel & 1 == 1;
        if stop_edge || close_cmd {
            self.open = false;
        } else if start_edge || open_cmd {
            self.open = true;
        }
        self.start_prev = start & 0xF;
        self.stop_prev = stop & 0xF;
    }
}
