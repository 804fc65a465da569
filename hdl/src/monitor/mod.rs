//! The event-order monitor (docs/monitor.md; seed 000: Denso JP6447320B2).
pub mod context_record;
pub mod driver;
pub mod event_register;
pub mod formal;
pub mod groups;
pub mod match_counter;
pub mod order_matcher;
pub mod order_register;
pub mod register_port;
pub mod regmap;
pub mod regmap_export;
pub mod rise_detector;
mod schedule;
pub mod serial_frame;
pub mod top;
pub mod trigger_window;
