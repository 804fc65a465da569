//! The register port's two bundles: the register values it reads ([`Sources`]) and
//! the write strobes it drives ([`Strobes`]), one signal per kind of register with
//! every thread's (and counter's) copy side by side: copy (t, i) of a per-counter
//! register at [(t*K + i)*w +: w], copy t of a per-thread one at [t*w +: w].
//!
//! Both bundles map the register table's [`Source`] to their signals, so the read
//! mux and the strobes are generated from the table, natively and in Verilog.
use rust_hdl::prelude::*;

use super::params::PmuParams;
use super::regmap::{
    id_value, Bank, Copies, Register, Source, UserAccess, ID_THREAD, REGISTERS, RESTORE_ON_EXIT_LSB, USER_PREF_BIT,
};
use crate::custom::slice;
use crate::dyn_signal::DynSignal;
use crate::optional::Optional;
use crate::regmap::read_mux::{self, MuxShape, ReadEntry};
use crate::verilog;

/// A bundle of signals under one name (`<bundle>$<field>` in Verilog).
macro_rules! bundle {
    ($name:ident, $($field:ident),*) => {
        impl Logic for $name {
            fn update(&mut self) {}
            fn connect(&mut self) {}
        }
        impl Block for $name {
            fn connect_all(&mut self) {}
            fn update_all(&mut self) {
                $(self.$field.update_all();)*
            }
            fn has_changed(&self) -> bool {
                false $(|| self.$field.has_changed())*
            }
            fn accept(&self, name: &str, probe: &mut dyn Probe) {
                probe.visit_start_namespace(name, self);
                $(self.$field.accept(stringify!($field), probe);)*
                probe.visit_end_namespace(name, self);
            }
        }
        impl $name {
            /// Mark every signal as driven: by the port (strobes) or by the top (sources).
            pub fn connect_signals(&mut self) {
                $(self.$field.connect();)*
            }
            /// Take every driven value at once (see [`DynSignal::latch`]).
            pub fn latch(&mut self) {
                $(self.$field.latch();)*
            }
        }
    };
}

/// The registers' values as the register port reads them.
#[derive(Clone, Debug)]
pub struct Sources {
    /// TSC.
    pub tsc: DynSignal<In>,
    /// PERF_CNTR, T*K copies of CW bits.
    pub counters: DynSignal<In>,
    /// PERF_EVTSEL, T*K copies of 32 bits.
    pub evtsels: DynSignal<In>,
    /// SHADOW, T*K copies of CW bits.
    pub shadows: DynSignal<In>,
    /// PERF_GLOBAL_CTRL, T copies of K bits.
    pub global_ctrl: DynSignal<In>,
    /// PERF_GLOBAL_STATUS, T copies of K bits.
    pub status: DynSignal<In>,
    /// PERF_SPFLT_CONTROL.SPFLT_CTRL, T copies of K bits.
    pub spflt_ctrl: DynSignal<In>,
    /// PERF_SPFLT_CONTROL.USER_PREF, one bit per thread.
    pub user_pref: DynSignal<In>,
    /// SHADOW_CTRL.SAVE_ON_ENTRY, T copies of K bits.
    pub save_on_entry: DynSignal<In>,
    /// SHADOW_CTRL.RESTORE_ON_EXIT, T copies of K bits.
    pub restore_on_exit: DynSignal<In>,
    /// FREEZE_CTRL, one bit per thread.
    pub freeze: DynSignal<In>,
    /// USER_ACCESS, T copies of 3 bits.
    pub user_access: DynSignal<In>,
    /// TRACE_CTRL, 6 bits (shared).
    pub trace_ctrl: DynSignal<In>,
    /// TRACE_PID, 32 bits (shared).
    pub trace_pid: DynSignal<In>,
    /// TRACE_DROPPED, 32 bits (shared).
    pub trace_dropped: DynSignal<In>,
    /// PROFILE_CTRL: [0] SUMMARIZE, [1] FLUSH (shared; only with a profile table).
    pub profile_ctrl: Optional<DynSignal<In>>,
    /// PROFILE_EVICTED, 32 bits (shared; only with a profile table).
    pub profile_evicted: Optional<DynSignal<In>>,
    shape: (usize, usize, usize),
    identity: u64,
}

bundle!(
    Sources,
    tsc,
    counters,
    evtsels,
    shadows,
    global_ctrl,
    status,
    spflt_ctrl,
    user_pref,
    save_on_entry,
    restore_on_exit,
    freeze,
    user_access,
    trace_ctrl,
    trace_pid,
    trace_dropped,
    profile_ctrl,
    profile_evicted
);

impl Sources {
    /// The read sources of a PMU of `params`.
    pub fn new(params: &PmuParams) -> Self {
        let (t, k, cw) = (params.threads, params.counters, params.counter_width);
        Self {
            tsc: DynSignal::new(64),
            counters: DynSignal::new(t * k * cw),
            evtsels: DynSignal::new(t * k * 32),
            shadows: DynSignal::new(t * k * cw),
            global_ctrl: DynSignal::new(t * k),
            status: DynSignal::new(t * k),
            spflt_ctrl: DynSignal::new(t * k),
            user_pref: DynSignal::new(t),
            save_on_entry: DynSignal::new(t * k),
            restore_on_exit: DynSignal::new(t * k),
            freeze: DynSignal::new(t),
            user_access: DynSignal::new(t * 3),
            trace_ctrl: DynSignal::new(6),
            trace_pid: DynSignal::new(32),
            trace_dropped: DynSignal::new(32),
            profile_ctrl: Optional::when(params.profile_entries != 0, || DynSignal::new(2)),
            profile_evicted: Optional::when(params.profile_entries != 0, || DynSignal::new(32)),
            shape: (t, k, cw),
            identity: id_value(params, 0),
        }
    }

    /// The parts of a register's value: (signal, bits per copy, copy index, shift in the register).
    fn parts(
        &self,
        source: Source,
        thread: usize,
        index: usize,
    ) -> Vec<(&DynSignal<In>, &'static str, usize, usize, usize)> {
        let (_, k, cw) = self.shape;
        let per_counter = thread * k + index;
        match source {
            Source::TimeStamp => vec![(&self.tsc, "tsc", 64, 0, 0)],
            Source::Counter => vec![(&self.counters, "counters", cw, per_counter, 0)],
            Source::EventSelect => vec![(&self.evtsels, "evtsels", 32, per_counter, 0)],
            Source::Shadow => vec![(&self.shadows, "shadows", cw, per_counter, 0)],
            Source::GlobalControl => vec![(&self.global_ctrl, "global_ctrl", k, thread, 0)],
            Source::GlobalStatus => vec![(&self.status, "status", k, thread, 0)],
            Source::SpfltControl => vec![
                (&self.spflt_ctrl, "spflt_ctrl", k, thread, 0),
                (&self.user_pref, "user_pref", 1, thread, USER_PREF_BIT),
            ],
            Source::ShadowControl => vec![
                (&self.save_on_entry, "save_on_entry", k, thread, 0),
                (&self.restore_on_exit, "restore_on_exit", k, thread, RESTORE_ON_EXIT_LSB),
            ],
            Source::FreezeControl => vec![(&self.freeze, "freeze", 1, thread, 0)],
            Source::UserAccess => vec![(&self.user_access, "user_access", 3, thread, 0)],
            Source::TraceControl => vec![(&self.trace_ctrl, "trace_ctrl", 6, 0, 0)],
            Source::TracePid => vec![(&self.trace_pid, "trace_pid", 32, 0, 0)],
            Source::TraceDropped => vec![(&self.trace_dropped, "trace_dropped", 32, 0, 0)],
            Source::ProfileControl => vec![(self.profile_ctrl.get(), "profile_ctrl", 2, 0, 0)],
            Source::ProfileEvicted => vec![(self.profile_evicted.get(), "profile_evicted", 32, 0, 0)],
            Source::Identity | Source::OverflowControl | Source::Spflt => vec![],
        }
    }

    /// What a read of copy `index` of a `source` register in `thread`'s bank returns.
    pub fn value(&self, source: Source, thread: usize, index: usize) -> u64 {
        if source == Source::Identity {
            return self.identity | (thread as u64) << ID_THREAD.lsb;
        }
        self.parts(source, thread, index)
            .into_iter()
            .fold(0, |value, (signal, _, width, copy, shift)| value | signal.field(copy * width, width) << shift)
    }

    /// The read multiplexer's entries: every readable copy of every register in every
    /// bank t < T, at address `{addr, thread}` (a register's banks side by side in the
    /// low bits; only the thread bits that tell the T banks apart: an access from a
    /// thread >= T is denied, so its value does not matter), as one group.
    pub fn read_entries(&self, params: crate::regmap::Params) -> Vec<ReadEntry> {
        let threads = self.shape.0;
        let thread_bits = bank_bits(threads);
        let mut entries = Vec::new();
        for register in REGISTERS.iter().filter(|r| r.access.reads() && r.source != Source::OverflowControl) {
            for (index, addr) in register.addresses(params).enumerate() {
                for thread in 0..threads {
                    let expr = if register.source == Source::Identity {
                        format!("64'h{:x}", self.identity | (thread as u64) << ID_THREAD.lsb)
                    } else {
                        let bank = if register.bank == Bank::Shared { 0 } else { thread };
                        self.expression(register, bank, index)
                    };
                    entries.push(ReadEntry {
                        addr: (addr as usize) << thread_bits | thread,
                        group: "registers",
                        expr,
                        zero_unless: None,
                    });
                }
            }
        }
        entries
    }

    /// The Verilog read mux: `read_value` and `read_zero` by `addr` and `thread`.
    pub fn read_mux_verilog(&self, params: crate::regmap::Params) -> String {
        let thread_bits = bank_bits(self.shape.0);
        let mut v = String::new();
        let bank = if thread_bits == 0 { String::new() } else { format!(", thread[{}:0]", thread_bits - 1) };
        verilog!(v, "wire [{}:0] bank_addr = {{addr{bank}}};", 7 + thread_bits);
        let shape = MuxShape { address: "bank_addr", address_bits: 8 + thread_bits, data_bits: 64 };
        v.push_str(&read_mux::verilog(&self.read_entries(params), shape));
        v
    }

    /// The Verilog expression of copy (`thread`, `index`) of `register`, 64 bits.
    fn expression(&self, register: &Register, thread: usize, index: usize) -> String {
        let mut parts = self.parts(register.source, thread, index);
        parts.sort_by_key(|part| std::cmp::Reverse(part.4));
        let mut pieces = Vec::new();
        let mut top = 64;
        for (signal, name, width, copy, shift) in parts {
            if top > shift + width {
                pieces.push(format!("{}'h0", top - shift - width));
            }
            pieces.push(slice(&format!("sources${name}"), copy * width, width, signal.width()));
            top = shift;
        }
        if top > 0 {
            pieces.push(format!("{top}'h0"));
        }
        format!("{{{}}}", pieces.join(", "))
    }
}

/// Bits of the thread number that tell `threads` banks apart.
fn bank_bits(threads: usize) -> usize {
    crate::custom::bits_for(threads - 1).min(2) * usize::from(threads > 1)
}

/// The write strobes: one bit per register copy, raised at the edge of an allowed write.
#[derive(Clone, Debug)]
pub struct Strobes {
    /// TSC.
    pub tsc: DynSignal<Out>,
    /// PERF_CNTR (t, i) at bit t*K + i.
    pub counter: DynSignal<Out>,
    /// PERF_EVTSEL (t, i).
    pub evtsel: DynSignal<Out>,
    /// SHADOW (t, i).
    pub shadow: DynSignal<Out>,
    /// PERF_SPFLT_CONTROL of thread t.
    pub spflt_control: DynSignal<Out>,
    /// PERF_GLOBAL_OVF_CTRL of thread t.
    pub ovf_ctrl: DynSignal<Out>,
    /// PERF_GLOBAL_CTRL of thread t.
    pub global_ctrl: DynSignal<Out>,
    /// SHADOW_CTRL of thread t.
    pub shadow_ctrl: DynSignal<Out>,
    /// FREEZE_CTRL of thread t.
    pub freeze: DynSignal<Out>,
    /// USER_ACCESS of thread t.
    pub user_access: DynSignal<Out>,
    /// SPFLT of thread t.
    pub spflt: DynSignal<Out>,
    /// TRACE_CTRL (shared).
    pub trace_ctrl: DynSignal<Out>,
    /// TRACE_PID (shared).
    pub trace_pid: DynSignal<Out>,
    /// TRACE_DROPPED (shared).
    pub trace_dropped: DynSignal<Out>,
    /// PROFILE_CTRL (shared; only with a profile table).
    pub profile_ctrl: Optional<DynSignal<Out>>,
    /// PROFILE_EVICTED (shared; only with a profile table).
    pub profile_evicted: Optional<DynSignal<Out>>,
    counters: usize,
}

bundle!(
    Strobes,
    tsc,
    counter,
    evtsel,
    shadow,
    spflt_control,
    ovf_ctrl,
    global_ctrl,
    shadow_ctrl,
    freeze,
    user_access,
    spflt,
    trace_ctrl,
    trace_pid,
    trace_dropped,
    profile_ctrl,
    profile_evicted
);

impl Strobes {
    /// The strobes of a PMU of `params`.
    pub fn new(params: &PmuParams) -> Self {
        let (t, k) = (params.threads, params.counters);
        Self {
            tsc: DynSignal::new(1),
            counter: DynSignal::new(t * k),
            evtsel: DynSignal::new(t * k),
            shadow: DynSignal::new(t * k),
            spflt_control: DynSignal::new(t),
            ovf_ctrl: DynSignal::new(t),
            global_ctrl: DynSignal::new(t),
            shadow_ctrl: DynSignal::new(t),
            freeze: DynSignal::new(t),
            user_access: DynSignal::new(t),
            spflt: DynSignal::new(t),
            trace_ctrl: DynSignal::new(1),
            trace_pid: DynSignal::new(1),
            trace_dropped: DynSignal::new(1),
            profile_ctrl: Optional::when(params.profile_entries != 0, || DynSignal::new(1)),
            profile_evicted: Optional::when(params.profile_entries != 0, || DynSignal::new(1)),
            counters: k,
        }
    }

    /// The strobe of a writable register kind.
    fn of(&mut self, source: Source) -> Option<&mut DynSignal<Out>> {
        Some(match source {
            Source::TimeStamp => &mut self.tsc,
            Source::Counter => &mut self.counter,
            Source::EventSelect => &mut self.evtsel,
            Source::Shadow => &mut self.shadow,
            Source::SpfltControl => &mut self.spflt_control,
            Source::OverflowControl => &mut self.ovf_ctrl,
            Source::GlobalControl => &mut self.global_ctrl,
            Source::ShadowControl => &mut self.shadow_ctrl,
            Source::FreezeControl => &mut self.freeze,
            Source::UserAccess => &mut self.user_access,
            Source::Spflt => &mut self.spflt,
            Source::TraceControl => &mut self.trace_ctrl,
            Source::TracePid => &mut self.trace_pid,
            Source::TraceDropped => &mut self.trace_dropped,
            Source::ProfileControl => self.profile_ctrl.0.as_mut()?,
            Source::ProfileEvicted => self.profile_evicted.0.as_mut()?,
            Source::Identity | Source::GlobalStatus => return None,
        })
    }

    /// The Verilog name of a register kind's strobe (its field name).
    fn name(source: Source) -> Option<&'static str> {
        Some(match source {
            Source::TimeStamp => "tsc",
            Source::Counter => "counter",
            Source::EventSelect => "evtsel",
            Source::Shadow => "shadow",
            Source::SpfltControl => "spflt_control",
            Source::OverflowControl => "ovf_ctrl",
            Source::GlobalControl => "global_ctrl",
            Source::ShadowControl => "shadow_ctrl",
            Source::FreezeControl => "freeze",
            Source::UserAccess => "user_access",
            Source::Spflt => "spflt",
            Source::TraceControl => "trace_ctrl",
            Source::TracePid => "trace_pid",
            Source::TraceDropped => "trace_dropped",
            Source::ProfileControl => "profile_ctrl",
            Source::ProfileEvicted => "profile_evicted",
            Source::Identity | Source::GlobalStatus => return None,
        })
    }

    /// The strobe bit of copy (`thread`, `index`) of `register`.
    fn bit(&self, register: &Register, thread: usize, index: usize) -> usize {
        match (register.bank, register.copies) {
            (Bank::Shared, _) => 0,
            (_, Copies::Indexed { .. }) => thread * self.counters + index,
            (_, Copies::One | Copies::OneIf { .. }) => thread,
        }
    }

    /// Every strobe low.
    pub fn clear(&mut self) {
        for source in REGISTERS.iter().map(|r| r.source) {
            if let Some(strobe) = self.of(source) {
                strobe.set_words(&[]);
            }
        }
    }

    /// Raise the strobe of copy (`thread`, `index`) of `register`.
    pub fn raise(&mut self, register: &Register, thread: usize, index: usize) {
        let bit = self.bit(register, thread, index);
        if let Some(strobe) = self.of(register.source) {
            strobe.set_bit(bit, true);
        }
    }

    /// The Verilog strobes. Each is decoded on its own from `write`, the register's
    /// privilege rule, the address and the thread (a thread number < T names a bank,
    /// so no separate range check is needed): a shallow path into the registers'
    /// write enables and the samplers' select, instead of the generic access check.
    pub fn verilog(&self, params: crate::regmap::Params) -> String {
        let threads = params("T");
        let mut v = String::new();
        verilog!(v, "always @(*) begin");
        for register in REGISTERS.iter().filter(|r| r.access.writes() && r.present(params)) {
            let rule = match register.user {
                UserAccess::WriteIf(gate) => format!("(privileged | gates[{gate}])"),
                _ => "privileged".to_string(),
            };
            let banks = if register.bank == Bank::Shared { 1 } else { threads };
            let mut bits: Vec<(usize, String)> = Vec::new();
            for thread in 0..banks {
                for (index, addr) in register.addresses(params).enumerate() {
                    let bank = match register.bank {
                        Bank::Shared if threads < 4 => format!(" & (thread < 2'd{threads})"),
                        Bank::Shared => String::new(),
                        _ => format!(" & (thread == 2'd{thread})"),
                    };
                    bits.push((
                        self.bit(register, thread, index),
                        format!("(write & {rule} & (addr == 8'h{addr:02x}){bank})"),
                    ));
                }
            }
            bits.sort_by_key(|(bit, _)| std::cmp::Reverse(*bit));
            let terms: Vec<String> = bits.into_iter().map(|(_, term)| term).collect();
            let name = Self::name(register.source).expect("writable registers have a strobe");
            verilog!(v, "    strobes${name} = {{{}}}; // {}", terms.join(", "), register.name);
        }
        verilog!(v, "end");
        v
    }
}
