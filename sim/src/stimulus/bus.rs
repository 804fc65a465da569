//! Random bus masters for the wrapped designs (docs/bus.md), reproducible from a seed.
//!
//! The design's own random stimulus ([`super::RandomStimulus`], [`super::PmuStimulus`]) drives every
//! port the wrapped top keeps (events, triggers, kernel, trace, resets) and asks for
//! register accesses (settings that make the design count and match, reads that sweep
//! the map). A bus master turns some of those requests into bus transactions:
//! writes wait in a short queue (ORDER/CTRL/EVTSEL/enables get through), a read takes
//! the latest read request. On the way each access may be spoiled as a master's
//! software could: byte-offset bits set, a random address anywhere in the window,
//! partial write strobes; AxPROT and `wb_priv` follow the request's privilege (with
//! random upper AxPROT bits), and for the monitor, which has no privilege, are random.
//!
//! The masters keep to their protocol: an AXI4-Lite master raises AWVALID and WVALID
//! independently after random delays, holds each request stable until it is taken, and
//! drives BREADY and RREADY in phases (always, random, stalled); a Wishbone classic
//! master holds CYC, STB and the access until the ACK or ERR cycle and through it.
//! Idle gaps vary, CYC sometimes stays high between accesses, and payloads not
//! marked valid carry random values. A master learns what the slave did from the
//! outputs sampled after each edge (a rising BVALID / RVALID, an ACK or ERR).
//!
//! On a window that splits registers (the PMU behind a 32-bit slave) a request names
//! the word it reaches and may carry a spoiling of its own (`requests.rs`).
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use super::requests::{DesignStimulus, PendingRequests, RegisterRequest, Spoil};
use crate::ports::bus::{AxiLiteInputs, AxiLiteOutputs, BusShape, WishboneInputs, WishboneOutputs, WrappedInputs};
use crate::reference::bus::BusAccess;

/// A bus master driven by [`PendingRequests`].
pub trait BusMaster {
    /// What it drives.
    type Inputs: Clone + Copy;
    /// What the slave drives back.
    type Outputs;
    /// A master for a window of `shape`, from `seed`.
    fn new(shape: BusShape, seed: u64) -> Self;
    /// The next cycle's signals, knowing the outputs sampled after the previous edge.
    fn next_cycle(&mut self, last: &Self::Outputs, requests: &mut PendingRequests) -> Self::Inputs;
}

/// The bus access of `request`, with its own spoiling or sometimes a random one:
/// misaligned, at a random address, or (a write) with partial strobes.
fn bus_access(rng: &mut ChaCha8Rng, shape: &BusShape, request: &RegisterRequest) -> BusAccess {
    let offset_mask = (1 << shape.offset_bits()) - 1;
    let mut address = shape.byte_address(request.thread, request.register);
    if request.high && shape.splits_registers() {
        address += shape.strobe_bits() as u32;
    }
    let all = shape.all_strobes();
    let strobes = match request.spoil {
        Some(Spoil::Misaligned) => {
            address |= rng.gen_range(1..=offset_mask);
            all
        }
        Some(Spoil::PartialStrobes) => rng.gen_range(0..all),
        None => {
            match rng.gen_range(0..100) {
                0..=3 => address |= rng.gen_range(1..=offset_mask),
                4..=5 => address = rng.gen::<u32>() & shape.address_mask(),
                _ => {}
            }
            if request.write && rng.gen_ratio(7, 100) {
                rng.gen_range(0..all)
            } else {
                all
            }
        }
    };
    let privileged = if shape.privileged { request.privileged } else { rng.gen() };
    BusAccess { write: request.write, address, data: request.data, strobes, privileged }
}

/// Cycles a channel rests between two transactions.
fn random_gap(rng: &mut ChaCha8Rng) -> u32 {
    if rng.gen_bool(0.4) {
        0
    } else {
        rng.gen_range(1..=6)
    }
}

/// Cycles before a channel raises VALID for a new request.
fn random_delay(rng: &mut ChaCha8Rng) -> u32 {
    if rng.gen_bool(0.6) {
        0
    } else {
        rng.gen_range(1..=3)
    }
}

/// How a READY input behaves for a while.
#[derive(Clone, Copy, Debug)]
enum ReadyMode {
    Always,
    Random,
    Stalled,
}

/// A master's BREADY or RREADY, in phases of random length.
#[derive(Clone, Copy, Debug)]
struct ReadyPolicy {
    mode: ReadyMode,
    left: u32,
}

impl ReadyPolicy {
    fn new() -> Self {
        Self { mode: ReadyMode::Always, left: 0 }
    }
    fn next(&mut self, rng: &mut ChaCha8Rng) -> bool {
        if self.left == 0 {
            self.mode = match rng.gen_range(0..10) {
                0..=4 => ReadyMode::Always,
                5..=8 => ReadyMode::Random,
                _ => ReadyMode::Stalled,
            };
            self.left = rng.gen_range(1..=60);
        }
        self.left -= 1;
        match self.mode {
            ReadyMode::Always => true,
            ReadyMode::Random => rng.gen(),
            ReadyMode::Stalled => false,
        }
    }
}

/// One AXI4-Lite request channel pair (AW+W or AR) of the master.
#[derive(Clone, Copy, Debug)]
enum AxiChannel {
    /// Nothing to offer for `gap` more cycles.
    Resting { gap: u32 },
    /// A request offered until taken; each VALID rises when its delay reaches 0.
    Offering { access: BusAccess, prot: u8, address_delay: u32, data_delay: u32 },
    /// Taken; waiting for the response handshake.
    Awaiting,
}

impl AxiChannel {
    /// The channel after the edge whose outputs are `response_valid` (BVALID/RVALID).
    fn observe(self, response_valid: bool, rng: &mut ChaCha8Rng) -> Self {
        match self {
            // One request at a time per channel: a VALID response now is this one's.
            AxiChannel::Offering { .. } if response_valid => AxiChannel::Awaiting,
            // The response was taken (or cleared by a reset).
            AxiChannel::Awaiting if !response_valid => AxiChannel::Resting { gap: random_gap(rng) },
            channel => channel,
        }
    }

    /// Start offering `request` if resting and due.
    fn launch(&mut self, rng: &mut ChaCha8Rng, shape: &BusShape, request: impl FnOnce() -> Option<RegisterRequest>) {
        match self {
            AxiChannel::Resting { gap } if *gap > 0 => *gap -= 1,
            AxiChannel::Resting { .. } => {
                if let Some(request) = request() {
                    let access = bus_access(rng, shape, &request);
                    // AxPROT[0] is the privilege; [2:1] (secure, instruction) are noise.
                    let prot = rng.gen::<u8>() & 0b110 | access.privileged as u8;
                    *self = AxiChannel::Offering {
                        access,
                        prot,
                        address_delay: random_delay(rng),
                        data_delay: random_delay(rng),
                    };
                }
            }
            _ => {}
        }
    }

    /// (address VALID, data VALID) this cycle; counts the delays down.
    fn valids(&mut self) -> (bool, bool) {
        match self {
            AxiChannel::Offering { address_delay, data_delay, .. } => {
                let valids = (*address_delay == 0, *data_delay == 0);
                *address_delay = address_delay.saturating_sub(1);
                *data_delay = data_delay.saturating_sub(1);
                valids
            }
            _ => (false, false),
        }
    }
}

/// A random AXI4-Lite master (one write and one read outstanding at most).
#[derive(Clone, Debug)]
pub struct AxiLiteMaster {
    rng: ChaCha8Rng,
    shape: BusShape,
    write: AxiChannel,
    read: AxiChannel,
    bready: ReadyPolicy,
    rready: ReadyPolicy,
}

impl BusMaster for AxiLiteMaster {
    type Inputs = AxiLiteInputs;
    type Outputs = AxiLiteOutputs;

    fn new(shape: BusShape, seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            shape,
            write: AxiChannel::Resting { gap: 0 },
            read: AxiChannel::Resting { gap: 0 },
            bready: ReadyPolicy::new(),
            rready: ReadyPolicy::new(),
        }
    }

    fn next_cycle(&mut self, last: &AxiLiteOutputs, requests: &mut PendingRequests) -> AxiLiteInputs {
        let rng = &mut self.rng;
        self.write = self.write.observe(last.bvalid, rng);
        self.read = self.read.observe(last.rvalid, rng);
        self.write.launch(rng, &self.shape, || requests.take_write());
        self.read.launch(rng, &self.shape, || requests.take_read());

        // Payloads not marked valid carry noise.
        let mut inputs = AxiLiteInputs {
            awaddr: rng.gen::<u32>() & self.shape.address_mask(),
            awprot: rng.gen_range(0..8),
            wdata: rng.gen(),
            wstrb: rng.gen(),
            araddr: rng.gen::<u32>() & self.shape.address_mask(),
            arprot: rng.gen_range(0..8),
            ..Default::default()
        };
        let (awvalid, wvalid) = self.write.valids();
        if let AxiChannel::Offering { access, prot, .. } = self.write {
            if awvalid {
                (inputs.awvalid, inputs.awaddr, inputs.awprot) = (true, access.address, prot);
            }
            if wvalid {
                (inputs.wvalid, inputs.wdata, inputs.wstrb) = (true, access.data, access.strobes);
            }
        }
        let (arvalid, _) = self.read.valids();
        if let AxiChannel::Offering { access, prot, .. } = self.read {
            if arvalid {
                (inputs.arvalid, inputs.araddr, inputs.arprot) = (true, access.address, prot);
            }
        }
        inputs.bready = self.bready.next(rng);
        inputs.rready = self.rready.next(rng);
        inputs
    }
}

/// Where a Wishbone classic master is.
#[derive(Clone, Copy, Debug)]
enum WishboneState {
    /// No access for `gap` more cycles; `keep_cycle`: CYC stays high meanwhile.
    Resting { gap: u32, keep_cycle: bool },
    /// CYC and STB high with `access` until the slave answers.
    Strobing(BusAccess),
    /// The ACK or ERR cycle: the access is still driven.
    Answered(BusAccess),
}

/// A random Wishbone B4 classic master.
#[derive(Clone, Debug)]
pub struct WishboneMaster {
    rng: ChaCha8Rng,
    shape: BusShape,
    state: WishboneState,
}

impl WishboneMaster {
    /// Rest one more cycle of `gap`, or start the next access when `gap` is over.
    fn rest_or_start(&mut self, gap: u32, keep_cycle: bool, requests: &mut PendingRequests) -> WishboneState {
        if gap > 0 {
            return WishboneState::Resting { gap: gap - 1, keep_cycle };
        }
        match self.next_request(requests) {
            Some(request) => WishboneState::Strobing(bus_access(&mut self.rng, &self.shape, &request)),
            None => WishboneState::Resting { gap: 0, keep_cycle },
        }
    }

    fn next_request(&mut self, requests: &mut PendingRequests) -> Option<RegisterRequest> {
        if requests.has_write() && self.rng.gen_bool(0.6) {
            requests.take_write()
        } else {
            requests.take_read().or_else(|| requests.take_write())
        }
    }
}

impl BusMaster for WishboneMaster {
    type Inputs = WishboneInputs;
    type Outputs = WishboneOutputs;

    fn new(shape: BusShape, seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            shape,
            state: WishboneState::Resting { gap: 0, keep_cycle: false },
        }
    }

    fn next_cycle(&mut self, last: &WishboneOutputs, requests: &mut PendingRequests) -> WishboneInputs {
        self.state = match self.state {
            WishboneState::Strobing(access) if last.ack || last.err => WishboneState::Answered(access),
            WishboneState::Strobing(access) => WishboneState::Strobing(access),
            // After the acknowledge cycle the next access may follow at once.
            WishboneState::Answered(_) => {
                let (gap, keep_cycle) = (random_gap(&mut self.rng), self.rng.gen_bool(0.3));
                self.rest_or_start(gap, keep_cycle, requests)
            }
            WishboneState::Resting { gap, keep_cycle } => self.rest_or_start(gap, keep_cycle, requests),
        };
        let rng = &mut self.rng;
        match self.state {
            WishboneState::Strobing(access) | WishboneState::Answered(access) => WishboneInputs {
                cyc: true,
                stb: true,
                we: access.write,
                adr: access.address,
                dat_w: access.data,
                sel: access.strobes,
                privileged: access.privileged,
            },
            WishboneState::Resting { keep_cycle, .. } => WishboneInputs {
                cyc: keep_cycle,
                // Now and then a stray STB without CYC, which the slave must ignore.
                stb: !keep_cycle && rng.gen_ratio(1, 50),
                we: rng.gen(),
                adr: rng.gen::<u32>() & self.shape.address_mask(),
                dat_w: rng.gen(),
                sel: rng.gen(),
                privileged: rng.gen(),
            },
        }
    }
}

/// The stimulus of a wrapped design: the design's own stimulus and a bus master.
pub struct BusStimulus<S, M> {
    design: S,
    master: M,
    requests: PendingRequests,
    asked: Vec<RegisterRequest>,
}

impl<S: DesignStimulus, M: BusMaster> BusStimulus<S, M> {
    /// The design's stimulus `design` with a master seeded from `seed`.
    pub fn new(design: S, seed: u64) -> Self {
        // The master's stream differs from the design's even for the same seed.
        let master = M::new(S::SHAPE, seed ^ 0xB05_5EED);
        Self { design, master, requests: PendingRequests::new(S::READ_QUEUE), asked: Vec::new() }
    }

    /// The next cycle's inputs, knowing the outputs sampled after the previous edge.
    pub fn next_inputs(&mut self, last: &M::Outputs) -> WrappedInputs<S::Inputs, M::Inputs> {
        self.asked.clear();
        let design = self.design.next_cycle(&mut self.asked);
        if S::in_reset(&design) {
            // The software restarts with the design: what it wanted before is moot.
            self.requests.clear();
        } else {
            self.requests.add_cycle(&self.asked);
        }
        let bus = self.master.next_cycle(last, &mut self.requests);
        WrappedInputs { design, bus }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::Engine;
    use crate::reference::bus::{AxiLiteSlave, MonitorTarget, WishboneSlave};
    use crate::stimulus::RandomStimulus;

    #[test]
    fn the_axi_master_gets_writes_and_reads_through_the_reference_slave() {
        let mut stimulus: BusStimulus<_, AxiLiteMaster> = BusStimulus::new(RandomStimulus::new(4, 2, 7), 7);
        let mut slave = AxiLiteSlave::new(MonitorTarget::new(4, 2));
        let mut last = AxiLiteOutputs::default();
        let (mut writes, mut reads, mut errors) = (0, 0, 0);
        for _ in 0..4000 {
            let inputs = stimulus.next_inputs(&last);
            let outputs = slave.step(&inputs).bus;
            writes += (outputs.bvalid && !last.bvalid) as u32;
            reads += (outputs.rvalid && !last.rvalid) as u32;
            errors += (outputs.bvalid && !last.bvalid && outputs.bresp != 0) as u32;
            last = outputs;
        }
        assert!(writes > 100 && reads > 300 && errors > 5, "writes {writes}, reads {reads}, refused writes {errors}");
    }

    #[test]
    fn the_wishbone_master_gets_accesses_through_the_reference_slave() {
        let mut stimulus: BusStimulus<_, WishboneMaster> = BusStimulus::new(RandomStimulus::new(4, 2, 9), 9);
        let mut slave = WishboneSlave::new(MonitorTarget::new(4, 2));
        let mut last = WishboneOutputs::default();
        let (mut acks, mut errs) = (0, 0);
        for _ in 0..4000 {
            let inputs = stimulus.next_inputs(&last);
            last = Engine::step(&mut slave, &inputs).bus;
            acks += last.ack as u32;
            errs += last.err as u32;
        }
        assert!(acks > 500 && errs > 20, "acks {acks}, errs {errs}");
    }
}
