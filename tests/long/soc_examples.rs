//! The example firmware of examples/soc (docs/soc.md §3) on the reference SoC under
//! Verilator: each runs to exit 0, and every count it prints is recomputed from the
//! run's retirement log (`pmugen soc run --rvfi-log`) by the independent checker,
//! `summarize_log` of pmugen-sim's RVFI reference (the RISC-V event table and the
//! `handler` kernel rule), over the window the firmware measured; the monitor's match
//! count by pmugen-sim's reference monitor fed with the same retirements.
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use crate::common::cli::pmugen;
use pmugen_sim::ports::monitor::MonitorInputs;
use pmugen_sim::reference::monitor::{addr, cmd, ctrl};
use pmugen_sim::reference::rvfi::{
    parse_log, summarize_core_log, Core, Event, HartRules, KernelRule, Retirement, RingCounts, Xlen,
};
use pmugen_sim::reference::ReferenceMonitor;

/// A retired ECALL (PicoRV32 raises IRQ 1 for it: a system call of the tiny kernel).
const ECALL: u32 = 0x0000_0073;
/// `rdinstret rd` (csrrs rd, instret, x0) whatever rd is: the word without rd.
const RDINSTRET: (u32, u32) = (0xFFFF_F07F, 0xC020_2073);

/// The SoC's directory, generated once (with every example built) per test binary.
pub(crate) fn soc_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::common::cli::scratch("soc_examples");
        let (ok, text) = pmugen(&["soc", "--out", dir.to_str().unwrap()]);
        assert!(ok, "pmugen soc failed:\n{text}");
        dir
    })
}

/// One example's run: its console's `name=value` lines, its retirement log and symbols.
pub(crate) struct Run {
    pub(crate) name: String,
    pub(crate) console: String,
    values: BTreeMap<String, String>,
    /// One element per cycle from cycle 0, idle cycles included.
    pub(crate) log: Vec<Retirement>,
    pub(crate) symbols: BTreeMap<String, (u64, u64)>,
    /// The ELF that ran.
    pub(crate) elf: PathBuf,
    /// The trace words the run captured.
    pub(crate) trace: PathBuf,
}

impl Run {
    /// The printed text of `key`.
    pub(crate) fn text(&self, key: &str) -> &str {
        self.values.get(key).unwrap_or_else(|| panic!("{}: no `{key}=` line in\n{}", self.name, self.console))
    }

    /// The printed value of `key` as a number.
    pub(crate) fn value(&self, key: &str) -> u64 {
        let text =
            self.values.get(key).unwrap_or_else(|| panic!("{}: no `{key}=` line in\n{}", self.name, self.console));
        text.parse().unwrap_or_else(|_| panic!("{}: `{key}={text}` is not a number", self.name))
    }

    /// The address range [start, end) of function `name` (its ELF symbol).
    fn function(&self, name: &str) -> (u64, u64) {
        *self.symbols.get(name).unwrap_or_else(|| panic!("{}: no symbol {name}", self.name))
    }

    /// For every call of function `name`, the index in the log of the first store retired
    /// from its entry on: the tiny kernel's windows open and close with such a store.
    pub(crate) fn first_stores_of(&self, name: &str) -> Vec<usize> {
        let (entry, _) = self.function(name);
        let mut stores = Vec::new();
        for (i, _) in self.log.iter().enumerate().filter(|(_, r)| r.valid && r.pc_rdata == entry) {
            let store = (i..self.log.len()).find(|&j| self.log[j].valid && self.log[j].mem_wmask != 0);
            stores.push(store.unwrap_or_else(|| panic!("{}: {name} called in cycle {i} stores nothing", self.name)));
        }
        stores
    }

    /// The windows [open, close) of the log between the first stores of `open` and `close`,
    /// paired in order.
    fn windows(&self, open: &str, close: &str) -> Vec<(usize, usize)> {
        let (opens, closes) = (self.first_stores_of(open), self.first_stores_of(close));
        assert_eq!(opens.len(), closes.len(), "{}: {open} and {close} are not called in pairs", self.name);
        let windows: Vec<_> = opens.into_iter().zip(closes).collect();
        assert!(windows.iter().all(|(a, b)| a < b), "{}: a window closes before it opens: {windows:?}", self.name);
        windows
    }

    /// The events of log[from..to] per ring, by the checker: the difference of the
    /// summaries of two prefixes, so that each retirement's ring follows the kernel rule
    /// from reset on.
    fn counts(&self, from: usize, to: usize) -> RingCounts {
        let summary = |end: usize| {
            summarize_core_log(&self.log[..end], Xlen::Rv32, KernelRule::Handler, Core::Picorv32, 32).counts
        };
        let (before, through) = (summary(from), summary(to));
        let mut counts = RingCounts::default();
        for i in 0..counts.user.len() {
            counts.user[i] = through.user[i] - before.user[i];
            counts.kernel[i] = through.kernel[i] - before.kernel[i];
        }
        counts
    }

    /// The cycles of the retirements whose word is `insn` under `mask`.
    fn retirements_of(&self, (mask, insn): (u32, u32)) -> Vec<usize> {
        (0..self.log.len()).filter(|&i| self.log[i].valid && self.log[i].insn & mask == insn).collect()
    }

    /// The retirements in the cycles from..to.
    fn retired(&self, from: usize, to: usize) -> u64 {
        self.log[from..to].iter().filter(|r| r.valid).count() as u64
    }
}

/// Runs examples/soc/`name`.c: it must exit 0.
pub(crate) fn run(name: &str) -> Run {
    let elf = soc_dir().join("examples").join(format!("{name}.elf"));
    run_elf(name, &elf)
}

/// Runs the firmware `elf` (called `name`) on the SoC of [`soc_dir`]: it must exit 0.
pub(crate) fn run_elf(name: &str, elf: &std::path::Path) -> Run {
    run_elf_in(name, elf, soc_dir(), "picorv32")
}

/// Runs the firmware `elf` (called `name`) on the SoC on `cpu` generated in `dir`: it
/// must exit 0.
pub(crate) fn run_elf_in(name: &str, elf: &std::path::Path, dir: &std::path::Path, cpu: &str) -> Run {
    // One Verilator model build at a time on this machine; later runs use its cache.
    static SERIAL: Mutex<()> = Mutex::new(());
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let log_path = dir.join(format!("{name}.rvfi"));
    let trace = dir.join(format!("{name}.hex"));
    let args = [
        "soc",
        "run",
        elf.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--rvfi-log",
        log_path.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--cpu",
        cpu,
    ];
    let (ok, console) = pmugen(&args);
    assert!(ok, "{name} did not exit 0:\n{console}");
    let values = console
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim().to_string(), value.trim().to_string()))
        .collect();
    let log = parse_log(&std::fs::read_to_string(&log_path).unwrap(), log_path.to_str().unwrap()).unwrap();
    Run { name: name.to_string(), console, values, log, symbols: symbols(elf), elf: elf.to_path_buf(), trace }
}

/// The ELF's function symbols: name -> [address, address + size).
fn symbols(elf: &std::path::Path) -> BTreeMap<String, (u64, u64)> {
    let output = Command::new("riscv64-unknown-elf-nm").args(["-S", elf.to_str().unwrap()]).output().unwrap();
    assert!(output.status.success(), "nm {}", elf.display());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [address, size, "t" | "T", name] => {
                let start = u64::from_str_radix(address, 16).ok()?;
                Some((name.to_string(), (start, start + u64::from_str_radix(size, 16).ok()?)))
            }
            _ => None,
        })
        .collect()
}

/// The generic checks of every example: each printed `w<n>.<EVENT>.<ring>[.<what>]=<count>`
/// equals the checker's count of EVENT in ring `user`, `kernel` or `all` over the n-th
/// window of the tiny kernel (kernel_pmu_start to kernel_pmu_stop); a printed `rdinstret`
/// equals the retirements between the two `rdinstret` instructions (PicoRV32's counter
/// read by the first counts it, not the second); a printed `syscalls` (by the kernel's
/// last system call before the exit's) equals the ECALLs of the log but the runtime's
/// exit. Returns how many counts were checked.
fn check_counts(run: &Run) -> usize {
    let mut checked = 0;
    let windows = if run.values.keys().any(|k| k.starts_with('w')) {
        run.windows("kernel_pmu_start", "kernel_pmu_stop")
    } else {
        Vec::new()
    };
    for (key, _) in run.values.iter().filter(|(k, _)| k.starts_with('w')) {
        let parts: Vec<&str> = key.split('.').collect();
        let window: usize = parts[0][1..].parse().unwrap_or_else(|_| panic!("{}: window of {key}", run.name));
        let event = Event::from_name(parts[1]).unwrap_or_else(|| panic!("{}: event of {key}", run.name));
        let (from, to) = windows[window - 1];
        let counts = run.counts(from, to);
        let expected = match parts[2] {
            "user" => counts.user[event.index()],
            "kernel" => counts.kernel[event.index()],
            "all" => counts.total(event),
            ring => panic!("{}: ring {ring} of {key}", run.name),
        };
        assert_eq!(run.value(key), expected, "{}: {key} against the retirement log", run.name);
        checked += 1;
    }
    if run.values.contains_key("rdinstret") {
        let reads = run.retirements_of(RDINSTRET);
        assert_eq!(reads.len(), 2, "{}: two rdinstret", run.name);
        assert_eq!(run.value("rdinstret"), run.retired(reads[0], reads[1]), "{}: rdinstret", run.name);
        checked += 1;
    }
    if run.values.contains_key("syscalls") {
        // The runtime's exit is a system call after the print (SYS_EXIT, in runtime_exit).
        let (exit, exit_end) = run.function("runtime_exit");
        let calls = run.retirements_of((u32::MAX, ECALL));
        let ecalls = calls.iter().filter(|&&i| !(exit..exit_end).contains(&run.log[i].pc_rdata)).count() as u64;
        assert_eq!(calls.len() as u64, ecalls + 1, "{}: one exit system call", run.name);
        assert_eq!(run.value("syscalls"), ecalls, "{}: system calls against the ECALLs retired", run.name);
        checked += 1;
    }
    checked
}

/// Runs `name`, checks its counts generically and its self-checks, and returns the run
/// for its own checks with the number of counts checked.
fn example(name: &str) -> (Run, usize) {
    let run = run(name);
    let checked = check_counts(&run);
    let failed: Vec<_> = run.values.iter().filter(|(k, v)| k.starts_with("check.") && *v != "1").collect();
    assert!(failed.is_empty(), "{name}: self-checks failed: {failed:?}");
    (run, checked)
}

#[test]
fn kernel_example() {
    let (run, checked) = example("kernel");
    assert_eq!(checked, 6, "four window counts, rdinstret, syscalls:\n{}", run.console);
    // Ticks: at least the handler entries that no ECALL caused (a tick that arrives
    // with a system call shares its entry).
    let retired: Vec<&Retirement> = run.log.iter().filter(|r| r.valid).collect();
    let entries_without_ecall = retired.windows(2).filter(|pair| pair[1].intr && pair[0].insn != ECALL).count();
    assert!(entries_without_ecall > 0);
    assert!(run.value("ticks") >= entries_without_ecall as u64, "{}", run.console);
    assert_eq!(run.value("ring3.read"), run.value("w1.INSTRET.user"));
    assert_eq!(run.value("ring3.write_faults"), 1);
    assert_eq!(run.value("ring3.evtsel_after"), run.value("ring3.evtsel_before"));
    assert_eq!(run.value("ring3.locked_faults"), 2);
}

#[test]
fn first_example() {
    // docs/soc.md §2.4's first program: three user-mode counts of a loop of ten passes.
    let (run, checked) = example("first");
    assert_eq!(checked, 3, "INSTRET, BRANCH, BRANCH_TAKEN:\n{}", run.console);
    assert_eq!(run.value("sum"), 45);
    // Ten passes of the loop: at least ten conditional branches, each counted.
    assert!(run.value("w1.BRANCH.user") >= 10, "{}", run.console);
}

#[test]
fn shadows_example() {
    let (run, checked) = example("shadows");
    assert_eq!(checked, 7, "five window counts, rdinstret, syscalls:\n{}", run.console);
    // The shadowed counter is the process's count: ring 3's, the kernel's left out.
    let process = run.value("w1.INSTRET.user.process");
    assert_eq!(process, run.value("w1.INSTRET.user.usr_only"));
    assert_eq!(run.value("w1.INSTRET.all.both_rings") - process, run.value("w1.INSTRET.kernel.os_only"));
    assert!(run.value("w1.INSTRET.kernel.difference") > 0);
}

#[test]
fn overflow_example() {
    let (run, checked) = example("overflow");
    assert_eq!(checked, 1, "the window's loads:\n{}", run.console);
    assert_eq!(run.value("overflows"), run.value("expected_overflows"));
    assert_eq!(run.value("remainder"), run.value("expected_remainder"));
    // The checker's loads of ring 3 in the window, split as the counter's period does.
    let (from, to) = run.windows("kernel_pmu_start", "kernel_pmu_stop")[0];
    let loads = run.counts(from, to).user[Event::Load.index()];
    let period = run.value("period");
    assert_eq!(run.value("overflows"), loads / period);
    assert_eq!(run.value("remainder"), loads % period);
}

/// docs/soc.md §3.4 derives the instructions of overflow.c's `loads` from its
/// disassembly: a loop of lw, addi, bnez run LOADS times and a `ret`. The same
/// derivation from objdump, against the retirements at those addresses.
#[test]
fn overflow_loop_derivation() {
    let (run, _) = example("overflow");
    let elf = soc_dir().join("examples").join("overflow.elf");
    let output = Command::new("riscv64-unknown-elf-objdump").args(["-d", elf.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    // (address, mnemonic, operands) of each instruction of `loads`.
    let body: Vec<(u64, String, String)> = text
        .split("<loads>:\n")
        .nth(1)
        .expect("loads in the disassembly")
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').map(str::trim).collect();
            let address = u64::from_str_radix(fields[0].trim_end_matches(':'), 16).unwrap();
            (address, fields[2].to_string(), fields.get(3).unwrap_or(&"").to_string())
        })
        .collect();
    // The backward branch closes the loop: from its target through it, once a round;
    // every other instruction once a call.
    let (branch, _, operands) = body.iter().find(|(_, m, _)| m == "bnez").expect("the loop's bnez");
    let target =
        u64::from_str_radix(operands.split(',').nth(1).unwrap().split_whitespace().next().unwrap(), 16).unwrap();
    let loop_length = body.iter().filter(|(a, _, _)| (target..=*branch).contains(a)).count() as u64;
    let once = body.len() as u64 - loop_length;
    assert_eq!((loop_length, once), (3, 1), "docs/soc.md §3.4's reading of the disassembly: {body:?}");
    let (start, end) = run.function("loads");
    let retired = run.log.iter().filter(|r| r.valid && (start..end).contains(&r.pc_rdata)).count() as u64;
    let loads = run.value("w1.LOAD.user.total");
    assert_eq!(retired, loop_length * loads + once);
}

#[test]
fn order_example() {
    let (run, _) = example("order");
    // The reference monitor, programmed as the firmware printed it, fed cycle by cycle
    // with the events of the retirements inside the window (the stores that open and
    // close it left out: the order has no STORE, so their place in time does not matter).
    let mut monitor = ReferenceMonitor::new(8, 3);
    let write = |monitor: &mut ReferenceMonitor, reg_addr: u8, reg_wdata: u32| {
        monitor.step(&MonitorInputs { reg_addr, reg_wdata, reg_write: true, ..MonitorInputs::default() });
    };
    let mut constrained = 0;
    for e in 1..=8u8 {
        if let Some(order) = run.values.get(&format!("order.E{e}")) {
            write(&mut monitor, addr::ORDER + e - 1, order.parse().unwrap());
            constrained += 1;
        }
    }
    assert!(constrained >= 2, "order.c printed its order: {}", run.console);
    write(&mut monitor, addr::CTRL, ctrl::ENABLE | ctrl::AUTO_REARM);
    write(&mut monitor, addr::CMD, cmd::CLEAR_RECORD | cmd::CLEAR_COUNT | cmd::OPEN_WINDOW);
    let (open, close) = run.windows("monitor_open", "monitor_close")[0];
    let lines = [
        Event::Instret,
        Event::Load,
        Event::Store,
        Event::Branch,
        Event::BranchTaken,
        Event::Jump,
        Event::Call,
        Event::Return,
    ];
    let mut rules = HartRules::for_core(Xlen::Rv32, KernelRule::Handler, Core::Picorv32);
    for (i, r) in run.log.iter().enumerate() {
        let events = rules.cycle(r).events;
        if i > open && i < close {
            let bits = lines.iter().enumerate().filter(|(_, e)| events.contains(**e)).fold(0, |b, (k, _)| b | 1 << k);
            monitor.step(&MonitorInputs { events: bits, ..MonitorInputs::default() });
        }
    }
    assert!(monitor.count() > 0);
    assert_eq!(run.value("order.matches"), monitor.count() as u64, "order.c's COUNT against the log");
    assert_eq!(run.value("order.irqs"), 1);
}
