//! Register port (§5-§6 of the docs' register map): the access check, the write
//! strobes and the registered read mux, all generated from the register table in
//! [`super::regmap`].
//!
//! An access is denied when its address is not in the table (including copies i >= K),
//! when the table does not allow it at the access's privilege (ring 3 only as
//! USER_ACCESS of the accessing thread allows), or when `thread` >= T. A cycle may
//! read and write the same address: each is checked on its own, the read sees the
//! value before the write, and `fault` reports either denial. A denied write writes
//! nothing; a denied read returns 0.
//!
//! The read mux is the one the monitor's port uses ([`crate::regmap::read_mux`]), on
//! the address `{addr, thread}`: a read that is denied, or of an address with no
//! readable register, resets the read-data flip-flops instead of loading a 0.
//!
//! Latency: `rdata` and `fault` are registered (after edge k they show cycle k's
//! access); the strobes are combinational, for the registers to act at this edge.
//!
//! ```text
//!  thread, privileged, addr, read, write --> [access table] --> strobes (this edge)
//!  register values --> [read mux by addr, thread] --> rdata FF, fault FF
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::params::PmuParams;
use super::port_sources::{Sources, Strobes};
use super::regmap::{self, Register, UserAccess, REGISTERS};
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The registered outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PortState {
    rdata: u64,
    fault: bool,
}

/// The PMU's register port.
#[derive(LogicBlock)]
pub struct RegisterPort {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: `rdata` and `fault` to 0.
    pub reset: Signal<In, Bit>,
    /// `reg_thread`: the accessing thread's bank.
    pub thread: Signal<In, Bits<2>>,
    /// `reg_priv`: 1 = ring 0.
    pub privileged: Signal<In, Bit>,
    /// `reg_addr`.
    pub addr: Signal<In, Bits<8>>,
    /// `reg_read`.
    pub read: Signal<In, Bit>,
    /// `reg_write`.
    pub write: Signal<In, Bit>,
    /// The registers' values, for reads and the USER_ACCESS check.
    pub sources: Sources,
    /// One strobe per writable register copy.
    pub strobes: Strobes,
    /// `reg_rdata`.
    pub rdata: DynSignal<Out>,
    /// `reg_fault`.
    pub fault: Signal<Out, Bit>,
    /// (T, K, CW, E).
    params: Internal<(usize, usize, usize, usize)>,
    state: Internal<PortState>,
}

impl RegisterPort {
    /// The register port of a PMU of `params`.
    pub fn new(params: &PmuParams) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            thread: Default::default(),
            privileged: Default::default(),
            addr: Default::default(),
            read: Default::default(),
            write: Default::default(),
            sources: Sources::new(params),
            strobes: Strobes::new(params),
            rdata: DynSignal::new(64),
            fault: Default::default(),
            params: Internal((params.threads, params.counters, params.counter_width, params.profile_entries)),
            state: Internal(PortState::default()),
        }
    }

    fn lookup(&self, name: &str) -> usize {
        let (threads, counters, counter_width, profile_entries) = self.params.0;
        match name {
            "T" => threads,
            "K" => counters,
            "CW" => counter_width,
            "E" => profile_entries,
            other => panic!("the PMU has no parameter {other}"),
        }
    }

    /// The register at `addr` and whether reading and writing it are allowed now.
    fn decode(&self) -> Option<(&'static Register, usize, bool, bool)> {
        let thread = self.thread.val().index();
        if thread >= self.params.0 .0 {
            return None;
        }
        let (register, index) = crate::regmap::decode(REGISTERS, self.addr.val().index() as u32, &|n| self.lookup(n))?;
        let privileged = self.privileged.val();
        let gates = self.sources.user_access.field(thread * 3, 3);
        let read_ok = regmap::allows(register, false, privileged, gates);
        let write_ok = regmap::allows(register, true, privileged, gates);
        Some((register, index, read_ok, write_ok))
    }
}

impl RegisterPort {
    /// The registers: read data and fault.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("rdata_q", 64, 0, groups::READ_DATA_AND_FAULT),
            FlipFlops::new("fault_q", 1, 0, groups::READ_DATA_AND_FAULT),
        ]
    }
}

impl Logic for RegisterPort {
    fn update(&mut self) {
        let (read, write) = (self.read.val(), self.write.val());
        let thread = self.thread.val().index();
        let decoded = self.decode();
        let (read_ok, write_ok) = decoded.map_or((false, false), |(_, _, r, w)| (r, w));
        if self.clock.pos_edge() {
            self.state.0 = if self.reset.val() {
                PortState::default()
            } else {
                let value = match decoded {
                    Some((register, index, true, _)) if read => self.sources.value(register.source, thread, index),
                    _ => 0,
                };
                PortState { rdata: value, fault: (read && !read_ok) || (write && !write_ok) }
            };
        }
        self.strobes.clear();
        if let Some((register, index, _, true)) = decoded.filter(|_| write) {
            self.strobes.raise(register, thread, index);
        }
        self.rdata.set(self.state.0.rdata);
        self.fault.next = self.state.0.fault;
    }

    fn connect(&mut self) {
        self.strobes.connect_signals();
        self.rdata.connect();
        self.fault.connect();
    }

    fn hdl(&self) -> Verilog {
        let params = |name: &str| self.lookup(name);
        let threads = self.params.0 .0;
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        // The accessing thread's USER_ACCESS gates and bank.
        verilog!(v, "reg [2:0] gates;\nalways @(*) begin\n    case (thread)");
        for t in 0..threads {
            verilog!(v, "        2'd{t}: gates = sources$user_access[{}:{}];", t * 3 + 2, t * 3);
        }
        verilog!(v, "        default: gates = 3'h0;\n    endcase\nend");
        let thread_ok = if threads == 4 { "1'b1".to_string() } else { format!("(thread < 2'd{threads})") };
        verilog!(v, "wire thread_ok = {thread_ok};");
        // Access table: what this address allows at this privilege.
        verilog!(v, "reg read_allowed;\nreg write_allowed;\nalways @(*) begin");
        verilog!(v, "    read_allowed = 1'b0;\n    write_allowed = 1'b0;\n    case (addr)");
        for register in REGISTERS {
            let gate = |kind: bool| match register.user {
                UserAccess::ReadIf(g) if !kind => format!(" | (~privileged & gates[{g}])"),
                UserAccess::WriteIf(g) if kind => format!(" | (~privileged & gates[{g}])"),
                _ => String::new(),
            };
            let ring0 = |allowed: bool| if allowed { "privileged" } else { "1'b0" };
            let read_rule = format!("{}{}", ring0(register.access.reads()), gate(false));
            let write_rule = format!("{}{}", ring0(register.access.writes()), gate(true));
            for addr in register.addresses(&params) {
                verilog!(
                    v,
                    "        8'h{addr:02x}: begin read_allowed = {read_rule}; write_allowed = {write_rule}; end // {}",
                    register.name
                );
            }
        }
        verilog!(v, "        default: begin read_allowed = 1'b0; write_allowed = 1'b0; end\n    endcase\nend");
        verilog!(v, "wire read_ok = read & read_allowed & thread_ok;");
        verilog!(v, "wire write_ok = write & write_allowed & thread_ok;");
        verilog!(v, "{}", self.strobes.verilog(&params));
        verilog!(v, "{}", self.sources.read_mux_verilog(&params));
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    rdata_q <= (reset | ~read_ok | read_zero) ? 64'h0 : read_value;");
        verilog!(v, "    fault_q <= ~reset & ((read & ~read_ok) | (write & ~write_ok));");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin\n    rdata = rdata_q;\n    fault = fault_q;\nend");
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use rand::{Rng, SeedableRng};

    impl Ports for RegisterPort {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            let Self { reset, thread, privileged, addr, read, write, rdata, fault, sources, strobes, .. } = self;
            let access: [(&str, &mut dyn Port); 8] = [
                ("reset", reset),
                ("thread", thread),
                ("privileged", privileged),
                ("addr", addr),
                ("read", read),
                ("write", write),
                ("rdata", rdata),
                ("fault", fault),
            ];
            let mut ports: Vec<(String, &mut dyn Port)> =
                access.into_iter().map(|(name, port)| (name.to_string(), port)).collect();
            let read_sources: [(&str, &mut dyn Port); 15] = [
                ("tsc", &mut sources.tsc),
                ("counters", &mut sources.counters),
                ("evtsels", &mut sources.evtsels),
                ("shadows", &mut sources.shadows),
                ("global_ctrl", &mut sources.global_ctrl),
                ("status", &mut sources.status),
                ("spflt_ctrl", &mut sources.spflt_ctrl),
                ("user_pref", &mut sources.user_pref),
                ("save_on_entry", &mut sources.save_on_entry),
                ("restore_on_exit", &mut sources.restore_on_exit),
                ("freeze", &mut sources.freeze),
                ("user_access", &mut sources.user_access),
                ("trace_ctrl", &mut sources.trace_ctrl),
                ("trace_pid", &mut sources.trace_pid),
                ("trace_dropped", &mut sources.trace_dropped),
            ];
            ports.extend(read_sources.into_iter().map(|(name, port)| (format!("sources__{name}"), port)));
            let write_strobes: [(&str, &mut dyn Port); 14] = [
                ("tsc", &mut strobes.tsc),
                ("counter", &mut strobes.counter),
                ("evtsel", &mut strobes.evtsel),
                ("shadow", &mut strobes.shadow),
                ("spflt_control", &mut strobes.spflt_control),
                ("ovf_ctrl", &mut strobes.ovf_ctrl),
                ("global_ctrl", &mut strobes.global_ctrl),
                ("shadow_ctrl", &mut strobes.shadow_ctrl),
                ("freeze", &mut strobes.freeze),
                ("user_access", &mut strobes.user_access),
                ("spflt", &mut strobes.spflt),
                ("trace_ctrl", &mut strobes.trace_ctrl),
                ("trace_pid", &mut strobes.trace_pid),
                ("trace_dropped", &mut strobes.trace_dropped),
            ];
            ports.extend(write_strobes.into_iter().map(|(name, port)| (format!("strobes__{name}"), port)));
            // The profile table's registers, when the instance has one.
            let optional = [
                ("sources__profile_ctrl", sources.profile_ctrl.0.as_mut().map(|p| p as &mut dyn Port)),
                ("sources__profile_evicted", sources.profile_evicted.0.as_mut().map(|p| p as &mut dyn Port)),
                ("strobes__profile_ctrl", strobes.profile_ctrl.0.as_mut().map(|p| p as &mut dyn Port)),
                ("strobes__profile_evicted", strobes.profile_evicted.0.as_mut().map(|p| p as &mut dyn Port)),
            ];
            ports.extend(optional.into_iter().filter_map(|(name, port)| Some((name.to_string(), port?))));
            ports
        }
    }

    /// Random T, K and CW. Addresses come mostly from the register map (with the copies
    /// of K = 4, so that copies i >= K of smaller instances are denied), the rest are
    /// any byte; ring 3 in a quarter of the accesses, USER_ACCESS gates as random bits.
    #[test]
    fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1203;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, RegisterPort)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), RegisterPort::new(&params))
            })
            .collect();
        // Only K sets how many addresses a register has.
        let four_counters = |name: &str| if name == "K" { 4 } else { 64 };
        let mapped: Vec<u64> =
            REGISTERS.iter().flat_map(|register| register.addresses(&four_counters)).map(u64::from).collect();
        let mapped_addresses = move |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "addr" if rng.gen_ratio(7, 8) => vec![mapped[rng.gen_range(0..mapped.len())]],
            "privileged" => vec![rng.gen_ratio(3, 4) as u64],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("register_port", seed).stimulus(mapped_addresses).cycles(4_000).run(instances);
    }
}
