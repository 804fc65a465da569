//! Which core and counter counts which event (docs/pmu.md §14.1): the three regimes of
//! seed 003 [0049]–[0054], the greedy order with a maximum bipartite matching behind
//! it, the diagnosis of what cannot be planned, and the split into the fewest runs.
//!
//! Events are given by the counters each may use (`allowed[e]`, ascending, not empty)
//! and keep their order: "event e" is the e-th event of the list.
use serde::{Deserialize, Serialize};

/// The rule that placed a run's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// C >= 3E: the first 3E cores, every event on three cores.
    Triplicate,
    /// E <= C < 3E: every core, core c counts event c mod E.
    Spread,
    /// C < E: several events per core, one per (core, counter) slot.
    Packed,
}

/// How the slots of a packed run were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Core c counts event c mod E on its lowest allowed counter.
    Rotation,
    /// The greedy order placed every event.
    Greedy,
    /// The greedy order left an event without a slot; a maximum matching placed them.
    Matching,
}

/// Event `event` is counted by counter `counter` of core `core`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub core: usize,
    pub counter: usize,
    pub event: usize,
}

/// The slots of one run, ordered by core and counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunAssignment {
    pub regime: Regime,
    pub placement: Placement,
    pub slots: Vec<Slot>,
}

/// A set of counters that more events are confined to than the cores can hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oversubscribed {
    /// The counters, ascending.
    pub counters: Vec<usize>,
    /// The events whose allowed counters all lie in `counters`.
    pub events: Vec<usize>,
    /// The slots those counters offer in one run: cores x counters.
    pub slots: usize,
}

/// The events of one run on `cores` cores of `counters` counters, or every minimal
/// counter set that makes it impossible.
pub fn assign_run(allowed: &[Vec<usize>], cores: usize, counters: usize) -> Result<RunAssignment, Vec<Oversubscribed>> {
    let events = allowed.len();
    if cores >= events {
        let used = if cores >= 3 * events { 3 * events } else { cores };
        let regime = if cores >= 3 * events { Regime::Triplicate } else { Regime::Spread };
        let slots =
            (0..used).map(|core| Slot { core, counter: allowed[core % events][0], event: core % events }).collect();
        return Ok(RunAssignment { regime, placement: Placement::Rotation, slots });
    }
    let preferences: Vec<Vec<usize>> = (0..events)
        .map(|e| {
            (0..cores)
                .map(|k| (e + k) % cores)
                .flat_map(|core| allowed[e].iter().map(move |&i| core * counters + i))
                .collect()
        })
        .collect();
    let greedy = greedy(&preferences, cores * counters);
    let placement = if greedy.iter().all(Option::is_some) { Placement::Greedy } else { Placement::Matching };
    let matched = complete_matching(&preferences, cores * counters, greedy);
    if matched.iter().any(Option::is_none) {
        return Err(oversubscribed(allowed, cores, counters));
    }
    let mut slots: Vec<Slot> = matched
        .iter()
        .enumerate()
        .map(|(event, slot)| {
            let slot = slot.expect("complete");
            Slot { core: slot / counters, counter: slot % counters, event }
        })
        .collect();
    slots.sort();
    Ok(RunAssignment { regime: Regime::Packed, placement, slots })
}

/// Each event in order takes its first free slot (its own core's lowest allowed free
/// counter, else the next core's, cyclically), or none.
fn greedy(preferences: &[Vec<usize>], slot_count: usize) -> Vec<Option<usize>> {
    let mut free = vec![true; slot_count];
    preferences
        .iter()
        .map(|slots| {
            let slot = slots.iter().copied().find(|&s| free[s])?;
            free[slot] = false;
            Some(slot)
        })
        .collect()
}

/// A maximum matching of events to slots grown from `start` by augmenting paths
/// (Kuhn): events placed in `start` keep a slot, possibly another one.
fn complete_matching(preferences: &[Vec<usize>], slot_count: usize, start: Vec<Option<usize>>) -> Vec<Option<usize>> {
    let mut owner = vec![None; slot_count];
    for (event, slot) in start.iter().enumerate() {
        if let Some(slot) = slot {
            owner[*slot] = Some(event);
        }
    }
    let mut assigned = start;
    for event in 0..preferences.len() {
        if assigned[event].is_none() {
            augment(event, preferences, &mut owner, &mut assigned, &mut vec![false; slot_count]);
        }
    }
    assigned
}

fn augment(
    event: usize,
    preferences: &[Vec<usize>],
    owner: &mut [Option<usize>],
    assigned: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &slot in &preferences[event] {
        if std::mem::replace(&mut seen[slot], true) {
            continue;
        }
        if owner[slot].is_none_or(|other| augment(other, preferences, owner, assigned, seen)) {
            owner[slot] = Some(event);
            assigned[event] = Some(slot);
            return true;
        }
    }
    false
}

/// Hall's condition, checked per counter set S (K <= 4, so at most 15 sets): the
/// events confined to S need more than the C x |S| slots S offers. Only sets without
/// a smaller offending subset are listed, fewest counters first.
pub fn oversubscribed(allowed: &[Vec<usize>], cores: usize, counters: usize) -> Vec<Oversubscribed> {
    let offending: Vec<usize> = (1..1usize << counters)
        .filter(|&set| confined(allowed, set).len() > cores * set.count_ones() as usize)
        .collect();
    let mut minimal: Vec<usize> =
        offending.iter().copied().filter(|&set| !offending.iter().any(|&sub| sub != set && sub & set == sub)).collect();
    minimal.sort_by_key(|&set| (set.count_ones(), set));
    minimal
        .into_iter()
        .map(|set| Oversubscribed {
            counters: (0..counters).filter(|i| set >> i & 1 == 1).collect(),
            events: confined(allowed, set),
            slots: cores * set.count_ones() as usize,
        })
        .collect()
}

/// The events whose allowed counters all lie in the counter set `set` (a bit mask).
fn confined(allowed: &[Vec<usize>], set: usize) -> Vec<usize> {
    (0..allowed.len()).filter(|&e| allowed[e].iter().all(|&i| set >> i & 1 == 1)).collect()
}

/// The fewest runs that hold every event: by Hall's condition over R runs, the largest
/// ceil(events confined to S / (C x |S|)) over the counter sets S.
pub fn fewest_runs(allowed: &[Vec<usize>], cores: usize, counters: usize) -> usize {
    (1..1usize << counters)
        .map(|set| confined(allowed, set).len().div_ceil(cores * set.count_ones() as usize))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The events of each run (in the given order) over the fewest runs: each event in
/// order joins the first run that can still hold it with the events already there;
/// when that first fit needs more runs than the fewest, a matching of events to the
/// slots of all runs decides (each event preferring the run of its place in the list).
pub fn split_runs(allowed: &[Vec<usize>], cores: usize, counters: usize) -> Vec<Vec<usize>> {
    let runs = fewest_runs(allowed, cores, counters);
    let mut split: Vec<Vec<usize>> = vec![Vec::new(); runs];
    let fits = |group: &[usize]| {
        let group_allowed: Vec<Vec<usize>> = group.iter().map(|&e| allowed[e].clone()).collect();
        oversubscribed(&group_allowed, cores, counters).is_empty()
    };
    let first_fit = (0..allowed.len()).all(|event| {
        let run = split.iter().position(|run| fits(&[run.as_slice(), &[event]].concat()));
        run.map(|run| split[run].push(event)).is_some()
    });
    if first_fit {
        return split.into_iter().filter(|run| !run.is_empty()).collect();
    }
    matched_split(allowed, cores, counters, runs)
}

fn matched_split(allowed: &[Vec<usize>], cores: usize, counters: usize, runs: usize) -> Vec<Vec<usize>> {
    let events = allowed.len();
    let run_slots = cores * counters;
    let preferences: Vec<Vec<usize>> = (0..events)
        .map(|e| {
            let first = e * runs / events;
            (0..runs)
                .map(|k| (first + k) % runs)
                .flat_map(|run| {
                    (0..cores)
                        .flat_map(move |core| allowed[e].iter().map(move |&i| run * run_slots + core * counters + i))
                })
                .collect()
        })
        .collect();
    let matched = complete_matching(&preferences, runs * run_slots, vec![None; events]);
    let mut split = vec![Vec::new(); runs];
    for (event, slot) in matched.into_iter().enumerate() {
        split[slot.expect("Hall's condition holds for this many runs") / run_slots].push(event);
    }
    split.retain(|run| !run.is_empty());
    split
}
