//! Design parameters and their checks: the monitor's N and W, the PMU's T, K, CW.
use std::fmt;

/// One checked parameter: flag, documented name and allowed range.
#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    /// The CLI flag that sets it.
    pub flag: &'static str,
    /// Its name in the design's docs (`N` in docs/monitor.md §1).
    pub name: &'static str,
    /// Smallest allowed value.
    pub min: u64,
    /// Largest allowed value.
    pub max: u64,
}

/// N: number of event inputs.
pub const EVENTS: Parameter = Parameter { flag: "--events", name: "N", min: 2, max: 32 };
/// W: bits per event in the order register. W=1 allows one order value only, so no
/// pair could ever be constrained.
pub const ORDER_WIDTH: Parameter = Parameter { flag: "--order-width", name: "W", min: 2, max: 8 };

/// T: hardware threads of the PMU's core.
pub const THREADS: Parameter = Parameter { flag: "--threads", name: "T", min: 1, max: 4 };
/// K: general counters per thread.
pub const COUNTERS: Parameter = Parameter { flag: "--counters", name: "K", min: 1, max: 4 };
/// CW: bits per general counter.
pub const COUNTER_WIDTH: Parameter = Parameter { flag: "--counter-width", name: "CW", min: 16, max: 64 };

/// D: trace queue depth in records (a power of 2).
pub const TRACE_DEPTH: Parameter = Parameter { flag: "--trace-depth", name: "D", min: 2, max: 1024 };
/// AW: bits of a basic-block address in a trace record.
pub const ADDRESS_WIDTH: Parameter = Parameter { flag: "--address-width", name: "AW", min: 16, max: 48 };

/// A parameter value outside its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// The flag, e.g. `--events`.
    pub flag: &'static str,
    /// The parameter, e.g. `N`.
    pub name: &'static str,
    /// The rejected value.
    pub value: u64,
    /// Allowed range.
    pub min: u64,
    /// Allowed range.
    pub max: u64,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) = {} is out of range {}..={}",
            self.flag, self.name, self.value, self.min, self.max
        )
    }
}

impl std::error::Error for OutOfRange {}

impl Parameter {
    /// `value` if it is in range, else the error that names flag, parameter, value and range.
    pub fn check(&self, value: u64) -> Result<usize, OutOfRange> {
        if (self.min..=self.max).contains(&value) {
            Ok(value as usize)
        } else {
            Err(OutOfRange { flag: self.flag, name: self.name, value, min: self.min, max: self.max })
        }
    }
}

/// A parameter that must be a power of 2 and is not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPowerOfTwo {
    /// The flag, e.g. `--trace-depth`.
    pub flag: &'static str,
    /// The parameter, e.g. `D`.
    pub name: &'static str,
    /// The rejected value.
    pub value: u64,
    /// Allowed range.
    pub min: u64,
    /// Allowed range.
    pub max: u64,
}

impl fmt::Display for NotPowerOfTwo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}) = {} is not a power of 2; allowed: a power of 2 in {}..={}", self.flag, self.name, self.value, self.min, self.max)
    }
}

impl std::error::Error for NotPowerOfTwo {}

/// Checked parameters of an event-order monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonitorParams {
    /// N, number of events (2..=32).
    pub events: usize,
    /// W, order width (2..=8).
    pub order_width: usize,
}

impl MonitorParams {
    /// Check both parameters against docs/monitor.md §1.
    pub fn new(events: u64, order_width: u64) -> Result<Self, OutOfRange> {
        Ok(Self { events: EVENTS.check(events)?, order_width: ORDER_WIDTH.check(order_width)? })
    }

    /// The design's top-module name, `event_order_monitor_n{N}_w{W}`; every other
    /// module of the design starts with it.
    pub fn top_name(&self) -> String {
        format!("event_order_monitor_n{}_w{}", self.events, self.order_width)
    }

    /// Length of a serial frame: N*(N-1) + 32.
    pub fn frame_bits(&self) -> usize {
        self.events * (self.events - 1) + 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_flag_parameter_value_and_range() {
        assert_eq!(MonitorParams::new(33, 3).unwrap_err().to_string(), "--events (N) = 33 is out of range 2..=32");
        assert_eq!(MonitorParams::new(1, 3).unwrap_err().to_string(), "--events (N) = 1 is out of range 2..=32");
        assert_eq!(
            MonitorParams::new(8, 1).unwrap_err().to_string(),
            "--order-width (W) = 1 is out of range 2..=8"
        );
        assert_eq!(
            MonitorParams::new(8, 9).unwrap_err().to_string(),
            "--order-width (W) = 9 is out of range 2..=8"
        );
        assert_eq!(MonitorParams::new(8, 3).unwrap().top_name(), "event_order_monitor_n8_w3");
    }
}
