//! The monitor's flip-flop groups as its resource report lists them (docs/monitor.md §7).

/// The edge detectors' previous line values.
pub const EDGE_HISTORY: &str = "edge-detector history";
/// The event register.
pub const EVENT_REGISTER: &str = "event register";
/// The event register's and the record's "cleared at the last edge" flags.
pub const CLEAR_FLAGS: &str = "clear flags";
/// The context record (budget: N*(N-1)).
pub const CONTEXT_RECORD: &str = "context record";
/// The order register (budget: W*N).
pub const ORDER_REGISTER: &str = "order register";
/// The match counter: count, overflow, pending increment, clear.
pub const MATCH_COUNTER: &str = "match counter";
/// The registered match flag and the window state.
pub const WINDOW_AND_MATCH: &str = "window and match flags";
/// The patent matcher's registered comparator outputs.
pub const PAIR_SELECT: &str = "registered pair select";
/// The compact matcher's need matrix.
pub const ORDER_REQUIREMENTS: &str = "order requirements";
/// CTRL.
pub const CONTROL: &str = "control";
/// The register port's read data.
pub const READ_DATA: &str = "read-data register";
/// The serial frame's shifter and its state.
pub const SERIAL_SHIFTER: &str = "serial shifter";

/// Every group, in report order.
pub const ALL: [&str; 12] = [
    EDGE_HISTORY,
    CLEAR_FLAGS,
    EVENT_REGISTER,
    CONTEXT_RECORD,
    ORDER_REGISTER,
    MATCH_COUNTER,
    WINDOW_AND_MATCH,
    PAIR_SELECT,
    ORDER_REQUIREMENTS,
    CONTROL,
    READ_DATA,
    SERIAL_SHIFTER,
];
