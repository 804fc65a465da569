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

/// E: entries of the PMU's profile table (0, or a power of 2 in this range).
pub const PROFILE_ENTRIES: Parameter = Parameter { flag: "--profile-entries", name: "E", min: 16, max: 4096 };

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
        write!(f, "{} ({}) = {} is out of range {}..={}", self.flag, self.name, self.value, self.min, self.max)
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
        write!(
            f,
            "{} ({}) = {} is not a power of 2; allowed: a power of 2 in {}..={}",
            self.flag, self.name, self.value, self.min, self.max
        )
    }
}

impl std::error::Error for NotPowerOfTwo {}

/// How the monitor's order matcher is built (docs/monitor.md §7.1). Both give the
/// same cycle behaviour; they differ in area, Fmax and which budget items they show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Matcher {
    /// Seed 000's structure: one comparator and one 2:1 multiplexer per pair of events,
    /// the comparator results computed from ORDER's next value and registered.
    #[default]
    Patent,
    /// Per ORDER write, 2N comparators of the written value against every field fill a
    /// registered N*(N-1) matrix of "a must come before m" (the smaller one from N = 16 on).
    Compact,
}

impl Matcher {
    /// Both structures, the default first.
    pub const ALL: [Matcher; 2] = [Matcher::Patent, Matcher::Compact];

    /// The value of `--matcher` that selects it.
    pub fn flag_value(self) -> &'static str {
        match self {
            Matcher::Patent => "patent",
            Matcher::Compact => "compact",
        }
    }
}

impl std::str::FromStr for Matcher {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Matcher::ALL
            .into_iter()
            .find(|m| m.flag_value() == text)
            .ok_or_else(|| format!("--matcher = {text:?} is not a matcher; allowed: patent, compact"))
    }
}

/// Whether the monitor sends the serial frame (docs/monitor.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SerialOutput {
    /// The frame shifter is built; `ser_*` send frames while CTRL.SERIAL_EN is 1.
    #[default]
    Frame,
    /// No shifter (`--no-serial`): `ser_*` are constant 0 and CTRL.SERIAL_EN has no effect.
    Absent,
}

/// Build options of a monitor: they change the structure, never the register map or
/// the ports (the top name says which were chosen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MonitorOptions {
    /// The order matcher's structure.
    pub matcher: Matcher,
    /// With or without the serial frame.
    pub serial: SerialOutput,
}

impl MonitorOptions {
    /// Every combination, the default first.
    pub fn all() -> Vec<MonitorOptions> {
        let mut all = Vec::new();
        for matcher in Matcher::ALL {
            for serial in [SerialOutput::Frame, SerialOutput::Absent] {
                all.push(MonitorOptions { matcher, serial });
            }
        }
        all
    }

    /// What the top name adds for these options: `_compact`, `_noserial`, or both.
    pub fn suffix(&self) -> String {
        let mut suffix = String::new();
        if self.matcher == Matcher::Compact {
            suffix.push_str("_compact");
        }
        if self.serial == SerialOutput::Absent {
            suffix.push_str("_noserial");
        }
        suffix
    }

    /// The CLI flags that select these options (empty for the default).
    pub fn flags(&self) -> String {
        let mut flags = String::new();
        if self.matcher != Matcher::default() {
            flags.push_str(&format!(" --matcher {}", self.matcher.flag_value()));
        }
        if self.serial == SerialOutput::Absent {
            flags.push_str(" --no-serial");
        }
        flags
    }
}

/// Checked parameters of an event-order monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonitorParams {
    /// N, number of events (2..=32).
    pub events: usize,
    /// W, order width (2..=8).
    pub order_width: usize,
    /// Structure options (matcher, serial frame).
    pub options: MonitorOptions,
}

impl MonitorParams {
    /// Check both parameters against docs/monitor.md §1 (default options).
    pub fn new(events: u64, order_width: u64) -> Result<Self, OutOfRange> {
        Ok(Self {
            events: EVENTS.check(events)?,
            order_width: ORDER_WIDTH.check(order_width)?,
            options: MonitorOptions::default(),
        })
    }

    /// The same parameters with `options`.
    pub fn with(self, options: MonitorOptions) -> Self {
        Self { options, ..self }
    }

    /// The design's top-module name, `event_order_monitor_n{N}_w{W}` followed by the
    /// options' suffix (`_compact`, `_noserial`); every other module starts with it.
    pub fn top_name(&self) -> String {
        format!("event_order_monitor_n{}_w{}{}", self.events, self.order_width, self.options.suffix())
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
        assert_eq!(MonitorParams::new(8, 1).unwrap_err().to_string(), "--order-width (W) = 1 is out of range 2..=8");
        assert_eq!(MonitorParams::new(8, 9).unwrap_err().to_string(), "--order-width (W) = 9 is out of range 2..=8");
        assert_eq!(MonitorParams::new(8, 3).unwrap().top_name(), "event_order_monitor_n8_w3");
    }

    #[test]
    fn options_name_the_top_and_reject_unknown_matchers() {
        let compact = MonitorOptions { matcher: Matcher::Compact, serial: SerialOutput::Absent };
        assert_eq!(
            MonitorParams::new(8, 3).unwrap().with(compact).top_name(),
            "event_order_monitor_n8_w3_compact_noserial"
        );
        assert_eq!(compact.flags(), " --matcher compact --no-serial");
        assert_eq!("compact".parse::<Matcher>(), Ok(Matcher::Compact));
        assert_eq!(
            "fast".parse::<Matcher>().unwrap_err(),
            "--matcher = \"fast\" is not a matcher; allowed: patent, compact"
        );
    }
}
