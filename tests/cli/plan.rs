//! The batch planner's assignment rules (docs/pmu.md §14.1), checked against the rules
//! as the docs state them and against an exhaustive search for an assignment: every
//! regime for E = 1..8 events on C = 1..32 cores, with and without `Counter`
//! restrictions (random, from a printed seed), the greedy order failing where a
//! matching succeeds, impossible sets, and the split into the fewest runs.
use pmugen::plan::assign::{assign_run, split_runs, Placement, Regime, Slot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Whether some assignment of every event to its own (core, counter) slot on an
/// allowed counter exists. Cores are interchangeable, so it is enough to give each
/// event a counter used by at most C events (searched exhaustively).
fn assignment_exists(allowed: &[Vec<usize>], cores: usize, counters: usize) -> bool {
    fn place(allowed: &[Vec<usize>], used: &mut [usize], cores: usize) -> bool {
        let Some((first, rest)) = allowed.split_first() else { return true };
        for &i in first {
            if used[i] < cores {
                used[i] += 1;
                if place(rest, used, cores) {
                    return true;
                }
                used[i] -= 1;
            }
        }
        false
    }
    place(allowed, &mut vec![0; counters], cores)
}

/// The greedy order as the docs state it: event e to core e mod C, lowest allowed free
/// counter, else the next core cyclically; None when an event finds no slot.
fn docs_greedy(allowed: &[Vec<usize>], cores: usize, counters: usize) -> Option<Vec<Slot>> {
    let mut free = vec![vec![true; counters]; cores];
    let mut slots = Vec::new();
    for (event, counters_allowed) in allowed.iter().enumerate() {
        let (core, counter) = (0..cores)
            .map(|k| (event + k) % cores)
            .find_map(|core| counters_allowed.iter().find(|&&i| free[core][i]).map(|&i| (core, i)))?;
        free[core][counter] = false;
        slots.push(Slot { core, counter, event });
    }
    slots.sort();
    Some(slots)
}

fn random_allowed(rng: &mut ChaCha8Rng, events: usize, counters: usize, restrict: bool) -> Vec<Vec<usize>> {
    (0..events)
        .map(|_| {
            if !restrict || rng.gen_bool(0.3) {
                return (0..counters).collect();
            }
            let mask = rng.gen_range(1..1usize << counters);
            (0..counters).filter(|i| mask >> i & 1 == 1).collect()
        })
        .collect()
}

/// Check one case against the docs' rules; returns whether it could be planned.
fn check_case(allowed: &[Vec<usize>], cores: usize, counters: usize) -> bool {
    let events = allowed.len();
    let context = format!("E = {events}, C = {cores}, K = {counters}, allowed {allowed:?}");
    let outcome = assign_run(allowed, cores, counters);
    if cores >= events {
        let run = outcome.unwrap_or_else(|_| panic!("{context}: refused"));
        let used = if cores >= 3 * events { 3 * events } else { cores };
        let regime = if cores >= 3 * events { Regime::Triplicate } else { Regime::Spread };
        assert_eq!(run.regime, regime, "{context}");
        let expected: Vec<Slot> =
            (0..used).map(|c| Slot { core: c, counter: allowed[c % events][0], event: c % events }).collect();
        assert_eq!(run.slots, expected, "{context}");
        return true;
    }
    match outcome {
        Ok(run) => {
            assert_eq!(run.regime, Regime::Packed, "{context}");
            let mut seen_events: Vec<usize> = run.slots.iter().map(|s| s.event).collect();
            seen_events.sort();
            assert_eq!(seen_events, (0..events).collect::<Vec<_>>(), "{context}: every event exactly once");
            let mut seen_slots: Vec<(usize, usize)> = run.slots.iter().map(|s| (s.core, s.counter)).collect();
            seen_slots.dedup();
            assert_eq!(seen_slots.len(), events, "{context}: one event per slot");
            for slot in &run.slots {
                assert!(slot.core < cores && allowed[slot.event].contains(&slot.counter), "{context}: {slot:?}");
            }
            match docs_greedy(allowed, cores, counters) {
                Some(greedy) => {
                    assert_eq!(run.placement, Placement::Greedy, "{context}");
                    assert_eq!(run.slots, greedy, "{context}: the greedy order decides when it places every event");
                }
                None => assert_eq!(run.placement, Placement::Matching, "{context}"),
            }
            true
        }
        Err(offending) => {
            assert!(!assignment_exists(allowed, cores, counters), "{context}: refused but an assignment exists");
            assert!(!offending.is_empty(), "{context}: nothing named");
            for o in &offending {
                let confined = allowed.iter().filter(|a| a.iter().all(|i| o.counters.contains(i))).count();
                assert!(confined > cores * o.counters.len(), "{context}: {o:?} is not oversubscribed");
                assert_eq!(o.slots, cores * o.counters.len());
            }
            false
        }
    }
}

#[test]
fn every_regime_for_1_to_8_events_on_1_to_32_cores() {
    let seed = 2026;
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut planned, mut refused) = (0, 0);
    for events in 1..=8 {
        for cores in 1..=32 {
            for counters in [1, 2, 4] {
                for restrict in [false, true] {
                    for _ in 0..3 {
                        let allowed = random_allowed(&mut rng, events, counters, restrict);
                        if check_case(&allowed, cores, counters) {
                            planned += 1;
                        } else {
                            refused += 1;
                        }
                    }
                }
            }
        }
    }
    println!("{planned} planned, {refused} refused");
    assert!(planned > 1000 && refused > 50, "both outcomes exercised");
}

#[test]
fn the_matching_places_what_the_greedy_order_cannot() {
    // Greedy: A -> core 0 counter 0, B -> core 1 counter 0, C (counter 0 only) finds no
    // slot; moving A to counter 1 makes room.
    let allowed = vec![vec![0, 1], vec![0, 1], vec![0], vec![1]];
    assert!(docs_greedy(&allowed, 2, 2).is_none());
    let run = assign_run(&allowed, 2, 2).expect("a matching exists");
    assert_eq!(run.placement, Placement::Matching);
    assert!(check_case(&allowed, 2, 2));
    let random_seed = 77;
    println!("seed {random_seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(random_seed);
    let mut matched = 0;
    for _ in 0..3000 {
        let (cores, counters) = (rng.gen_range(1..=4), rng.gen_range(2..=4));
        let events = rng.gen_range(cores + 1..=cores * counters);
        let allowed = random_allowed(&mut rng, events, counters, true);
        if check_case(&allowed, cores, counters) && docs_greedy(&allowed, cores, counters).is_none() {
            matched += 1;
        }
    }
    assert!(matched >= 20, "only {matched} cases needed the matching");
}

#[test]
fn an_impossible_set_names_the_oversubscribed_counters() {
    // Three events can only use counter 0, and two cores give it two slots.
    let allowed = vec![vec![0], vec![0], vec![0], vec![0, 1]];
    let offending = assign_run(&allowed, 2, 2).unwrap_err();
    assert_eq!(offending.len(), 1);
    assert_eq!(offending[0].counters, vec![0]);
    assert_eq!(offending[0].events, vec![0, 1, 2]);
    assert_eq!(offending[0].slots, 2);
    // Too many events for every slot: all counters are named.
    let offending = assign_run(&vec![vec![0, 1]; 5], 2, 2).unwrap_err();
    assert_eq!(offending[0].counters, vec![0, 1]);
}

#[test]
fn rounds_split_into_the_fewest_runs_that_each_can_be_planned() {
    let seed = 31;
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut first_fits = 0;
    for _ in 0..300 {
        let (cores, counters) = (rng.gen_range(1..=3), rng.gen_range(1..=2));
        let events = rng.gen_range(1..=6);
        let allowed = random_allowed(&mut rng, events, counters, true);
        let runs = split_runs(&allowed, cores, counters);
        let context = format!("C = {cores}, K = {counters}, allowed {allowed:?}: runs {runs:?}");
        let mut all: Vec<usize> = runs.iter().flatten().copied().collect();
        all.sort();
        assert_eq!(all, (0..events).collect::<Vec<_>>(), "{context}: every event in exactly one run");
        for run in &runs {
            assert!(run.windows(2).all(|w| w[0] < w[1]), "{context}: events keep their order");
            let group: Vec<Vec<usize>> = run.iter().map(|&e| allowed[e].clone()).collect();
            assert!(assign_run(&group, cores, counters).is_ok(), "{context}: a run cannot be planned");
        }
        assert!(!fits_in(&allowed, cores, counters, runs.len() - 1), "{context}: fewer runs would do");
        let first_fit = docs_first_fit(&allowed, cores, counters);
        if first_fit.len() == runs.len() {
            assert_eq!(runs, first_fit, "{context}: the first events go to the first run");
            first_fits += 1;
        }
    }
    assert!(first_fits > 200, "only {first_fits} cases were split by first fit");
}

/// The docs' split: each event in order joins the first run that can hold it.
fn docs_first_fit(allowed: &[Vec<usize>], cores: usize, counters: usize) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for event in 0..allowed.len() {
        let holds = |run: &Vec<usize>| {
            let group: Vec<Vec<usize>> = run.iter().chain([&event]).map(|&e| allowed[e].clone()).collect();
            assignment_exists(&group, cores, counters)
        };
        match runs.iter().position(holds) {
            Some(run) => runs[run].push(event),
            None => runs.push(vec![event]),
        }
    }
    runs
}

/// Whether the events fit `runs` runs: some split of them into `runs` groups that each
/// have an assignment (exhaustive).
fn fits_in(allowed: &[Vec<usize>], cores: usize, counters: usize, runs: usize) -> bool {
    if runs == 0 {
        return allowed.is_empty();
    }
    let events = allowed.len();
    (0..runs.pow(events as u32)).any(|code| {
        (0..runs).all(|run| {
            let group: Vec<Vec<usize>> =
                (0..events).filter(|e| code / runs.pow(*e as u32) % runs == run).map(|e| allowed[e].clone()).collect();
            assignment_exists(&group, cores, counters)
        })
    })
}
