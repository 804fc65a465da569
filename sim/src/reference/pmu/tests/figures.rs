//! §10: seed 002's Fig. 6 and Fig. 7 with the exact numbers the specification spells
//! out. One counter (counter 0 of thread 1) counts CODE_READ in every mode with both
//! SHADOW_CTRL bits set; counter 1 counts the same event without shadow control.
//! Events and kernel changes act one cycle late (§4): every phase ends with one quiet
//! cycle so its last events are counted before the check.
use super::super::{addr, evtsel};
use super::{knc_config, select, Bench};
use crate::ports::pmu::PmuConfig;

const THREAD: usize = 1;

struct Figure {
    bench: Bench,
    event: usize,
    kernel: bool,
}

impl Figure {
    /// The setup of both figures: thread 1 in user mode, SHADOW written 0.
    fn new() -> Self {
        let config: PmuConfig = knc_config(2, 2, 40);
        let event = super::event_index(&config, "CODE_READ");
        let every_mode = evtsel::USR | evtsel::OS | evtsel::EN;
        let mut bench = Bench::new(config.clone());
        bench.write(THREAD, addr::PERF_EVTSEL, select(&config, "CODE_READ", every_mode));
        bench.write(THREAD, addr::PERF_EVTSEL + 1, select(&config, "CODE_READ", every_mode));
        bench.write(THREAD, addr::PERF_GLOBAL_CTRL, 0b11);
        bench.write(THREAD, addr::SHADOW_CTRL, 1 | 1 << addr::RESTORE_ON_EXIT_SHIFT);
        bench.write(THREAD, addr::SHADOW, 0);
        Self { bench, event, kernel: false }
    }

    /// `events` cycles with one event each, in the current mode.
    fn events(&mut self, events: usize) {
        for _ in 0..events {
            self.bench.set_event(self.event, THREAD, 1);
            self.bench.tick();
        }
        self.bench.clear_events();
        self.bench.tick();
    }

    /// A cycle that changes the mode, with no events, then one quiet cycle.
    fn mode(&mut self, kernel: bool) {
        assert_ne!(kernel, self.kernel);
        self.kernel = kernel;
        self.bench.set_kernel(THREAD, kernel);
        self.bench.tick();
        self.bench.tick();
    }

    /// Counter 0 and SHADOW[0], from the model and through the register port.
    fn expect(&mut self, counter: u64, shadow: u64) {
        assert_eq!((self.bench.pmu.counter(THREAD, 0), self.bench.pmu.shadow(THREAD, 0)), (counter, shadow));
        assert_eq!(self.bench.read(THREAD, addr::PERF_CNTR), counter);
        assert_eq!(self.bench.read(THREAD, addr::SHADOW), shadow);
    }

    /// Both figures up to the two kernel events after t3.
    fn through_second_kernel_visit(&mut self) {
        self.expect(0, 0);
        self.mode(true); // t1: entry saves the counter (0)
        self.expect(0, 0);
        self.events(2);
        self.expect(2, 0);
        self.mode(false); // t2: exit restores SHADOW (0)
        self.expect(0, 0);
        self.events(3);
        self.expect(3, 0);
        self.mode(true); // t3: entry saves 3
        self.expect(3, 3);
        self.events(2);
        self.expect(5, 3);
    }
}

#[test]
fn fig6_process_count_is_6_rather_than_12() {
    let mut figure = Figure::new();
    figure.through_second_kernel_visit();
    figure.mode(false); // t4: exit restores 3
    figure.expect(3, 3);
    figure.events(3);
    figure.expect(6, 3);
    figure.mode(true); // t5: entry saves 6
    figure.expect(6, 6);
    assert_eq!(figure.bench.read(THREAD, addr::SHADOW), 6, "the process's count");
    assert_eq!(figure.bench.pmu.counter(THREAD, 1), 10, "the counter without shadows counts every event");
    assert_eq!(figure.bench.pmu.counter(0, 0), 0, "thread 0 is untouched");
}

#[test]
fn fig7_interrupt_routine_is_taken_out_of_the_process_count() {
    let mut figure = Figure::new();
    figure.through_second_kernel_visit();
    let kept = figure.bench.read(THREAD, addr::SHADOW);
    assert_eq!(kept, 3, "the OS reads SHADOW and keeps it");
    figure.mode(false); // t4: exit into the user-mode interrupt routine
    figure.expect(3, 3);
    figure.events(3);
    figure.expect(6, 3);
    figure.mode(true); // t5: entry saves 6
    figure.expect(6, 6);
    figure.events(2);
    figure.expect(8, 6);
    figure.bench.write(THREAD, addr::SHADOW, kept);
    figure.expect(8, 3);
    figure.mode(false); // t6: exit restores process I's count
    figure.expect(3, 3);
}
