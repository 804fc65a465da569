//! A known workload for end-to-end runs of a batch plan (docs/pmu.md §14.6): the same
//! program runs on every core, so every core sees the same event counts and ring
//! changes. The true count of an event is a plain sum over the workload's cycles, kept
//! apart from the input packing so that it checks the packing too.
//!
//! Each event gets its own rate (some rare, some frequent) so the counts differ;
//! an occurrence is mostly 1 and sometimes up to the event's PerCycleMax. Each thread
//! changes ring now and then.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ports::pmu::{EventScope, PmuConfig, PmuInputs};
use crate::reference::pmu::layout::set_event;

/// What a counter programmed by a plan counts (docs/pmu.md §4.3, §14.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counting {
    /// EVTSEL.USR: count while thread 0 runs in ring 3.
    pub usr: bool,
    /// EVTSEL.OS: count while thread 0 runs in ring 0.
    pub os: bool,
    /// EVTSEL.ANY: count the thread-scope event of every thread, not only thread 0's.
    pub all_threads: bool,
}

/// Per-cycle event counts and rings of a workload.
#[derive(Clone, Debug)]
pub struct Workload {
    config: PmuConfig,
    /// `kernel` per cycle (bit t: thread t in ring 0).
    kernel: Vec<u8>,
    /// occurrences[cycle][event][thread]; a core-scope event uses thread 0's entry.
    occurrences: Vec<Vec<[u8; 4]>>,
}

/// Chance per cycle that an event occurs: one of these per event.
const RATES: [f64; 5] = [0.03, 0.1, 0.3, 0.6, 0.95];

impl Workload {
    /// `cycles` cycles for `config` from `seed`.
    pub fn random(config: &PmuConfig, cycles: usize, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rates: Vec<f64> = config.events.iter().map(|_| RATES[rng.gen_range(0..RATES.len())]).collect();
        let mut ring = 0u8;
        let mut kernel = Vec::with_capacity(cycles);
        let mut occurrences = Vec::with_capacity(cycles);
        for _ in 0..cycles {
            for thread in 0..config.threads {
                if rng.gen_bool(0.02) {
                    ring ^= 1 << thread;
                }
            }
            kernel.push(ring);
            let cycle = config
                .events
                .iter()
                .zip(&rates)
                .map(|(event, &rate)| {
                    let mut values = [0u8; 4];
                    let threads = if event.scope == EventScope::Thread { config.threads } else { 1 };
                    for value in values.iter_mut().take(threads) {
                        if rng.gen_bool(rate) {
                            *value = if rng.gen_bool(0.8) { 1 } else { rng.gen_range(1..=event.per_cycle_max.max(1)) };
                        }
                    }
                    values
                })
                .collect();
            occurrences.push(cycle);
        }
        Self { config: config.clone(), kernel, occurrences }
    }

    /// Number of cycles.
    pub fn len(&self) -> usize {
        self.kernel.len()
    }

    /// Whether the workload has no cycles.
    pub fn is_empty(&self) -> bool {
        self.kernel.is_empty()
    }

    /// The inputs of cycle `cycle` (register port idle). With `stuck`, every event
    /// input is 0 (a core whose event wiring is broken) while the rings still change.
    pub fn inputs(&self, cycle: usize, stuck: bool) -> PmuInputs {
        let mut inputs = PmuInputs { kernel: self.kernel[cycle], ..PmuInputs::default() };
        if stuck {
            return inputs;
        }
        for (event, values) in self.occurrences[cycle].iter().enumerate() {
            match self.config.events[event].scope {
                EventScope::Thread => {
                    for (thread, &value) in values.iter().enumerate().take(self.config.threads) {
                        set_event(&mut inputs, &self.config, event, thread, value as u64);
                    }
                }
                EventScope::Core => set_event(&mut inputs, &self.config, event, 0, values[0] as u64),
            }
        }
        inputs
    }

    /// What a counter of thread 0 programmed for table event `event` with `counting`
    /// counts over the whole workload: the occurrences in cycles whose ring (thread
    /// 0's, also for ANY and core-scope events) is selected, thread 0's alone or every
    /// thread's with ANY.
    pub fn true_count(&self, event: usize, counting: Counting) -> u64 {
        let scope = self.config.events[event].scope;
        let threads = match (scope, counting.all_threads) {
            (EventScope::Thread, true) => self.config.threads,
            _ => 1,
        };
        self.occurrences
            .iter()
            .zip(&self.kernel)
            .filter(|(_, &kernel)| if kernel & 1 == 1 { counting.os } else { counting.usr })
            .map(|(cycle, _)| cycle[event][..threads].iter().map(|&v| v as u64).sum::<u64>())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::pmu::EventSpec;

    fn config() -> PmuConfig {
        let event =
            |name: &str, per_cycle_max, scope| EventSpec { name: name.into(), code: 1, umask: 0, per_cycle_max, scope };
        PmuConfig {
            threads: 2,
            counters: 2,
            counter_width: 40,
            events: vec![
                event("A", 1, EventScope::Thread),
                event("B", 3, EventScope::Core),
                event("C", 7, EventScope::Thread),
            ],
            trace_depth: 256,
            address_width: 32,
            profile_entries: 0,
        }
    }

    #[test]
    fn rings_split_the_count_and_any_adds_the_other_threads() {
        let workload = Workload::random(&config(), 2000, 5);
        for event in 0..3 {
            let count = |usr, os, all_threads| workload.true_count(event, Counting { usr, os, all_threads });
            assert_eq!(count(true, true, false), count(true, false, false) + count(false, true, false));
            assert_eq!(count(false, false, true), 0);
            assert!(count(true, true, false) > 0, "event {event} never occurs");
        }
        let thread_any = |event| workload.true_count(event, Counting { usr: true, os: true, all_threads: true });
        let thread_own = |event| workload.true_count(event, Counting { usr: true, os: true, all_threads: false });
        assert!(thread_any(0) > thread_own(0));
        assert_eq!(thread_any(1), thread_own(1), "a core-scope event has no threads to add");
    }

    #[test]
    fn stuck_inputs_carry_no_events_but_keep_the_rings() {
        let workload = Workload::random(&config(), 50, 9);
        let busy = (0..50).find(|&c| workload.inputs(c, false).events.iter().any(|&w| w != 0)).expect("some event");
        let stuck = workload.inputs(busy, true);
        assert!(stuck.events.iter().chain(&stuck.core_events).all(|&w| w == 0));
        assert_eq!(stuck.kernel, workload.inputs(busy, false).kernel);
    }
}
