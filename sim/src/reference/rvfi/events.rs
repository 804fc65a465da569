//! The RISC-V event table (docs/soc.md) as data: its 14 events in table order, each
//! with its name and what it counts, and a set of events as one bit per event (bit i =
//! the table's event i, the order of the event inputs).

/// One event of the RISC-V event table, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// CYCLES.
    Cycles,
    /// INSTRET.
    Instret,
    /// STALL_CYCLES.
    StallCycles,
    /// LOAD.
    Load,
    /// STORE.
    Store,
    /// BRANCH.
    Branch,
    /// BRANCH_TAKEN.
    BranchTaken,
    /// JUMP.
    Jump,
    /// CALL.
    Call,
    /// RETURN.
    Return,
    /// TRAP.
    Trap,
    /// INTERRUPT.
    Interrupt,
    /// SYSTEM.
    System,
    /// MULDIV.
    Muldiv,
}

/// The number of events in the table.
pub const EVENT_COUNT: usize = 14;

/// One row of the table: the event, its `EventName` and what it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventInfo {
    /// The event.
    pub event: Event,
    /// Its `EventName`.
    pub name: &'static str,
    /// What it counts, in one sentence.
    pub description: &'static str,
}

/// The table, in table order.
pub const EVENTS: [EventInfo; EVENT_COUNT] = [
    EventInfo { event: Event::Cycles, name: "CYCLES", description: "Every clock cycle." },
    EventInfo {
        event: Event::Instret,
        name: "INSTRET",
        description: "Cycles in which an instruction retires, trapping instructions included.",
    },
    EventInfo {
        event: Event::StallCycles,
        name: "STALL_CYCLES",
        description: "Cycles in which no instruction retires.",
    },
    EventInfo { event: Event::Load, name: "LOAD", description: "Retired instructions that read memory." },
    EventInfo { event: Event::Store, name: "STORE", description: "Retired instructions that write memory." },
    EventInfo { event: Event::Branch, name: "BRANCH", description: "Retired conditional branches, taken or not." },
    EventInfo {
        event: Event::BranchTaken,
        name: "BRANCH_TAKEN",
        description: "Retired conditional branches whose next instruction is not the one that follows them.",
    },
    EventInfo { event: Event::Jump, name: "JUMP", description: "Retired unconditional jumps (JAL and JALR)." },
    EventInfo { event: Event::Call, name: "CALL", description: "Retired jumps that link in ra or t0 (x1 or x5)." },
    EventInfo {
        event: Event::Return,
        name: "RETURN",
        description: "Retired register jumps through ra or t0 (x1 or x5) that link nothing.",
    },
    EventInfo { event: Event::Trap, name: "TRAP", description: "Retired instructions that trap." },
    EventInfo {
        event: Event::Interrupt,
        name: "INTERRUPT",
        description: "Retired first instructions of a trap or interrupt handler.",
    },
    EventInfo {
        event: Event::System,
        name: "SYSTEM",
        description:
            "Retired system instructions: environment calls, breakpoints, returns from traps, CSR accesses and WFI.",
    },
    EventInfo { event: Event::Muldiv, name: "MULDIV", description: "Retired integer multiplications and divisions." },
];

impl Event {
    /// Every event, in table order.
    pub const ALL: [Event; EVENT_COUNT] = [
        Event::Cycles,
        Event::Instret,
        Event::StallCycles,
        Event::Load,
        Event::Store,
        Event::Branch,
        Event::BranchTaken,
        Event::Jump,
        Event::Call,
        Event::Return,
        Event::Trap,
        Event::Interrupt,
        Event::System,
        Event::Muldiv,
    ];

    /// The event's position in the table (its bit in an [`EventSet`]).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The event's `EventName`.
    pub fn name(self) -> &'static str {
        EVENTS[self.index()].name
    }

    /// What the event counts.
    pub fn description(self) -> &'static str {
        EVENTS[self.index()].description
    }

    /// The event named `name` (exact `EventName`), if the table has it.
    pub fn from_name(name: &str) -> Option<Event> {
        EVENTS.iter().find(|info| info.name == name).map(|info| info.event)
    }
}

/// A set of events: bit i is the table's event i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EventSet(u16);

impl EventSet {
    /// No event.
    pub const EMPTY: EventSet = EventSet(0);

    /// The set whose bit i is bit i of `bits` (bits above the table are dropped).
    pub fn from_bits(bits: u16) -> Self {
        EventSet(bits & ((1 << EVENT_COUNT) - 1))
    }

    /// Bit i = the table's event i is in the set.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The set with `event` added.
    pub fn with(self, event: Event) -> Self {
        EventSet(self.0 | 1 << event.index())
    }

    /// The set with `event` added when `present`.
    pub fn with_if(self, event: Event, present: bool) -> Self {
        if present {
            self.with(event)
        } else {
            self
        }
    }

    /// `event` is in the set.
    pub fn contains(self, event: Event) -> bool {
        self.0 >> event.index() & 1 == 1
    }

    /// The events in the set, in table order.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        Event::ALL.into_iter().filter(move |&event| self.contains(event))
    }
}
