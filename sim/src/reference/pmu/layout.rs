//! §2: the event input fields. Each event has a field of IW bits (enough for its
//! PerCycleMax); thread-scope fields are packed in table order into each thread's
//! TEW-bit slice of `events`, core-scope fields into `core_events`.
use crate::ports::pmu::{set_bits, EventScope, PmuConfig, PmuInputs};

/// §2's IW: the bits needed for `per_cycle_max` (1 bit for 1, 2 bits for 2..=3, ...,
/// 8 bits for 128..=255). 0 is not a valid PerCycleMax; it gets 1 bit like 1.
pub fn field_width(per_cycle_max: u8) -> usize {
    (u8::BITS - per_cycle_max.leading_zeros()).max(1) as usize
}

/// Where one event's field sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPosition {
    /// Which port holds it: `events` (Thread) or `core_events` (Core).
    pub scope: EventScope,
    /// Least significant bit: within one thread's TEW slice for Thread scope, within
    /// `core_events` for Core scope.
    pub lsb: usize,
    /// IW.
    pub width: usize,
}

/// The packing of every event's field (§2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// TEW: the sum of IW over the thread-scope events.
    pub thread_width: usize,
    /// CEW: the sum of IW over the core-scope events.
    pub core_width: usize,
    /// One position per event, in table order.
    pub fields: Vec<FieldPosition>,
}

impl InputLayout {
    /// Width of the `events` port: max(T*TEW, 1) (a port of width 0 is 1 bit, ignored).
    pub fn events_port_width(&self, threads: usize) -> usize {
        (threads * self.thread_width).max(1)
    }

    /// Width of the `core_events` port: max(CEW, 1).
    pub fn core_port_width(&self) -> usize {
        self.core_width.max(1)
    }

    /// Bit of the event's field within its port: thread t's slice starts at t*TEW;
    /// `thread` is ignored for a core-scope event.
    pub fn port_lsb(&self, event: usize, thread: usize) -> usize {
        let field = self.fields[event];
        match field.scope {
            EventScope::Thread => thread * self.thread_width + field.lsb,
            EventScope::Core => field.lsb,
        }
    }
}

/// The layout of `config`'s event table: fields in table order, the first event of
/// each scope at the least significant bits (§2).
pub fn input_layout(config: &PmuConfig) -> InputLayout {
    let mut thread_width = 0;
    let mut core_width = 0;
    let fields = config
        .events
        .iter()
        .map(|event| {
            let width = field_width(event.per_cycle_max);
            let next_free = match event.scope {
                EventScope::Thread => &mut thread_width,
                EventScope::Core => &mut core_width,
            };
            let lsb = *next_free;
            *next_free += width;
            FieldPosition { scope: event.scope, lsb, width }
        })
        .collect();
    InputLayout { thread_width, core_width, fields }
}

/// Test helper: put `value` into the field of table event `event` for `thread` (ignored
/// for a core-scope event). Bits above the field's width are dropped, as the port would.
pub fn set_event(inputs: &mut PmuInputs, config: &PmuConfig, event: usize, thread: usize, value: u64) {
    let layout = input_layout(config);
    let field = layout.fields[event];
    let lsb = layout.port_lsb(event, thread);
    match field.scope {
        EventScope::Thread => {
            assert!(thread < config.threads, "thread {thread} >= T = {}", config.threads);
            set_bits(&mut inputs.events, lsb, field.width, value);
        }
        EventScope::Core => set_bits(&mut inputs.core_events, lsb, field.width, value),
    }
}
