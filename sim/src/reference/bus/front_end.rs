//! The part of a bus slave that both buses share (docs/bus.md §2): it takes the access
//! that the bus protocol accepted in a cycle, turns it into that cycle's register-port
//! signals, steps the design's reference model one edge and makes the access's
//! response from the design's registered `reg_rdata` / `reg_fault`. On a 32-bit PMU
//! window it also keeps the holding words (docs/bus.md, 32-bit PMU slaves; see
//! `halves.rs`): a +4 write is held without a register-port cycle, a +0 write carries
//! {held word, data}, and a read answers with its half or the holding word.
use super::halves::{Half, HoldingWords, RegisterId};
use super::{decode, BusAccess, PortAccess, Refusal, RegisterTarget, Response};

/// What the front end does with one accepted bus access.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// Refused by the bus rules (misaligned, partial strobes): no register-port cycle
    /// and no change of holding state.
    Refused,
    /// A +4 write: held and acknowledged, no register-port cycle.
    Held,
    /// A register-port access (with a +0 write's 64-bit data), unless the wrapper
    /// denies it (`refusal`); `half` is the bus word it serves on a 32-bit PMU window.
    Access { port: PortAccess, half: Option<Half>, refusal: Option<Refusal> },
}

/// The design behind a slave and what the slave remembers between accesses.
#[derive(Clone, Debug)]
pub(crate) struct FrontEnd<T> {
    target: T,
    holding: HoldingWords,
}

impl<T: RegisterTarget> FrontEnd<T> {
    /// The front end of `target`, just after reset.
    pub(crate) fn new(target: T) -> Self {
        Self { target, holding: HoldingWords::default() }
    }

    /// The design behind the slave.
    pub(crate) fn target(&self) -> &T {
        &self.target
    }

    /// The holding words (empty unless the window splits registers).
    pub(crate) fn holding(&self) -> &HoldingWords {
        &self.holding
    }

    /// One edge of the design with `design_inputs` and, if the bus accepted a
    /// transaction in this cycle, its register-port cycle (else an idle port). Returns
    /// the design's visible outputs and the accepted transaction's response.
    pub(crate) fn step(
        &mut self,
        design_inputs: &T::Inputs,
        accepted: Option<&BusAccess>,
    ) -> (T::Outputs, Option<Response>) {
        let plan = accepted.map(|access| self.plan(access));
        let driven = match &plan {
            Some(Plan::Access { port, refusal: None, .. }) => Some(port),
            _ => None,
        };
        let mut inputs = design_inputs.clone();
        T::drive(&mut inputs, driven);
        let mut outputs = self.target.step(&inputs);
        let response = accepted.zip(plan).map(|(access, plan)| self.respond(access.write, plan, &outputs));
        if T::in_reset(design_inputs) {
            self.holding = HoldingWords::default();
        }
        T::hide_register_port(&mut outputs);
        (outputs, response)
    }

    /// Before the edge: what `access` does. A write to a half of a register goes
    /// through the holding words here, as it decides the register-port write.
    fn plan(&mut self, access: &BusAccess) -> Plan {
        let shape = self.target.shape();
        let Ok(mut port) = decode(&shape, access) else { return Plan::Refused };
        let half = Half::of(&shape, access.address);
        if let Some(half) = half.filter(|_| port.write) {
            match self.holding.write(half, RegisterId::of(&port), port.data as u32) {
                Some(data) => port.data = data,
                None => return Plan::Held,
            }
        }
        let refusal = self.target.wrapper_denies(&port).then_some(Refusal::Denied);
        Plan::Access { port, half, refusal }
    }

    /// After the edge: the response of the access planned as `plan`. A refused or
    /// denied access answers an error and reads 0 (docs/bus.md §2); an allowed read
    /// returns the design's registered reg_rdata, or on a 32-bit PMU window its half
    /// or the holding word. A read of a half goes through the holding words here, with
    /// the data its register-port read returned (0 when denied).
    fn respond(&mut self, write: bool, plan: Plan, outputs: &T::Outputs) -> Response {
        let (error, data) = match plan {
            Plan::Refused => (true, 0),
            Plan::Held => (false, 0),
            Plan::Access { port, half, refusal } => {
                let error = refusal.is_some() || T::faulted(outputs);
                let port_data = if write || error { 0 } else { T::read_data(outputs) };
                let data = match half.filter(|_| !write) {
                    Some(half) => self.holding.read(half, RegisterId::of(&port), port_data) as u64,
                    None => port_data,
                };
                (error, if error { 0 } else { data })
            }
        };
        Response { write, error, data }
    }
}
