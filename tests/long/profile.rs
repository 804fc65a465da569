//! `pmugen profile` on real programs (docs/soc.md §4): the example firmware profile.c
//! and processes.c run on the reference SoC, and their profiles (blocks.csv and
//! functions.csv) must equal what the independent checker, `summarize_log` of
//! pmugen-sim's RVFI reference, computes from the run's retirement log with the block
//! rule: every user block that ended while tracing was on, with the user events of the
//! cycles since the previous block end, kept or dropped by PID_FILTER and zeroed by
//! FREEZE_UNMARKED as the program set them up, summed per (pid, block) and per
//! (pid, function) by the functions' `nm` ranges. profile.c sums its records in the
//! PMU's profile table; the same program drained by the CPU gives the same tables.
//! processes.c's trace mixes block records (phase 1) and summary records (phase 2). A
//! third firmware stops draining a 1024-word sink: exactly the records beyond the sink's
//! and the queue's capacity are dropped.
use std::collections::BTreeMap;

use crate::common::cli::{pmugen, scratch};
use crate::soc_examples::{run, run_elf, soc_dir, Run};
use pmugen_sim::reference::rvfi::{summarize_core_log, Block, Core, Event, KernelRule, Xlen};

/// The events the firmware program, in counter order.
const EVENTS: [Event; 4] = [Event::Instret, Event::Load, Event::Store, Event::BranchTaken];

/// The reference SoC's PMU description.
fn design() -> String {
    let top = pmugen::design::Design::top_name(&pmugen::soc::pmu(pmugen::soc::cpu::Cpu::Picorv32).unwrap());
    soc_dir().join(format!("{top}_design.json")).to_str().unwrap().to_string()
}

/// How the checker reads the SoC's CPU: its RVFI reader and kernel rule.
#[derive(Clone, Copy)]
pub(crate) struct Reading {
    /// The core's reader (docs/soc.md §1.7).
    pub(crate) core: Core,
    /// The kernel rule of the SoC's PMU.
    pub(crate) rule: KernelRule,
}

/// PicoRV32's.
const PICORV32: Reading = Reading { core: Core::Picorv32, rule: KernelRule::Handler };

/// Per (pid, key): executions and the four totals.
pub(crate) type Totals = BTreeMap<(u32, String), (u64, Vec<u64>)>;

/// How tracing was set up in one window (a pair of TRACE_CTRL writes).
#[derive(Clone, Copy)]
pub(crate) struct Setup {
    /// TRACE_PID with PID_FILTER.
    pub(crate) filter: Option<u32>,
    /// FREEZE_UNMARKED.
    pub(crate) freeze: bool,
}

/// The checker's profile of `run`: its windows of tracing (`setups`, in order) and its
/// process switches (`pids` and `marks`, one per switch of the kernel, in order).
/// Returns the per-block totals (key: the block's address as `0x%08x`), the per-function
/// totals (key: the `nm` name) and the blocks that a timer interrupt split (a handler
/// entry, or on SERV an instruction reported as stopped, inside the block).
pub(crate) fn expected(
    run: &Run,
    reading: Reading,
    setups: &[Setup],
    pids: &[u32],
    marks: &[bool],
) -> (Totals, Totals, usize) {
    let ctrl = run.first_stores_of("kernel_trace_ctrl");
    assert_eq!(ctrl.len(), 2 * setups.len(), "{}: TRACE_CTRL writes {ctrl:?}", run.name);
    let switches = run.first_stores_of("kernel_process");
    assert!(switches.len() >= pids.len(), "{}: {} switches for {pids:?}", run.name, switches.len());
    let summary = summarize_core_log(&run.log, Xlen::Rv32, reading.rule, reading.core, 32);
    let (mut blocks, mut functions, mut split) = (Totals::new(), Totals::new(), 0);
    for block in &summary.blocks {
        let Some(window) =
            (0..setups.len()).find(|&w| ctrl[2 * w] < block.end_cycle && block.end_cycle < ctrl[2 * w + 1])
        else {
            continue;
        };
        let setup = setups[window];
        // The process in effect: the last switch before the block's end (pid 0, marked, from reset).
        let last = switches.iter().take(pids.len()).rposition(|&s| s < block.end_cycle);
        let (pid, marked) = last.map_or((0, true), |i| (pids[i], marks[i]));
        if setup.filter.is_some_and(|only| only != pid) {
            continue;
        }
        let counts: Vec<u64> =
            EVENTS.iter().map(|&e| if setup.freeze && !marked { 0 } else { block.counts.user[e.index()] }).collect();
        let function = function_of(run, block);
        for (map, key) in [(&mut blocks, format!("0x{:08x}", block.address)), (&mut functions, function)] {
            let entry = map.entry((pid, key)).or_insert((0, vec![0; EVENTS.len()]));
            entry.0 += 1;
            entry.1.iter_mut().zip(&counts).for_each(|(sum, c)| *sum += c);
        }
        let first = block.retirements[0];
        let entered = |r: &pmugen_sim::reference::rvfi::Retirement| r.intr || (r.trap && r.insn != 0x0000_0073);
        split += (first..block.end_cycle).any(|i| run.log[i].valid && entered(&run.log[i])) as usize;
    }
    (blocks, functions, split)
}

/// The function (by `nm`) whose range holds the block; of nested ones (libgcc's
/// `__udivsi3` inside `__divsi3`) the innermost, of aliases the shortest name.
fn function_of(run: &Run, block: &Block) -> String {
    let holding = run.symbols.iter().filter(|(_, &(start, end))| (start..end).contains(&block.start));
    let found = holding.max_by(|(a, (a_start, _)), (b, (b_start, _))| {
        (a_start, std::cmp::Reverse(a.len()), std::cmp::Reverse(*a)).cmp(&(
            b_start,
            std::cmp::Reverse(b.len()),
            std::cmp::Reverse(*b),
        ))
    });
    found
        .map(|(name, _)| name.clone())
        .unwrap_or_else(|| panic!("{}: block {:#x} in no function", run.name, block.start))
}

/// Reads a profile CSV: per (pid, the `key` column): executions and the four totals.
fn read_csv(text: &str, key: &str) -> Totals {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column =
        |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name} in {header:?}"));
    let (pid, key, executions) = (column("pid"), column(key), column("executions"));
    let events: Vec<usize> = ["INSTRET", "LOAD", "STORE", "BRANCH_TAKEN"].iter().map(|e| column(e)).collect();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let totals = events.iter().map(|&i| cells[i].parse().unwrap()).collect();
            ((cells[pid].parse().unwrap(), cells[key].to_string()), (cells[executions].parse().unwrap(), totals))
        })
        .collect()
}

/// `pmugen profile` of the run's trace on the reference SoC.
fn profile(run: &Run) -> (String, Totals, Totals) {
    profile_with(run, &design())
}

/// `pmugen profile` of the run's trace with the PMU description `design`, named by the
/// record `soc run` wrote; returns its output and its block and function totals.
pub(crate) fn profile_with(run: &Run, design: &str) -> (String, Totals, Totals) {
    let out = scratch(&format!("profile-{}", run.name));
    let (ok, text) = pmugen(&[
        "profile",
        run.trace.to_str().unwrap(),
        "--elf",
        run.elf.to_str().unwrap(),
        "--design",
        design,
        "--sort",
        "BRANCH_TAKEN",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let annotated = read("annotated.txt");
    assert!(annotated.contains("executions") && annotated.contains("<main>:"), "{annotated}");
    (text, read_csv(&read("blocks.csv"), "address"), read_csv(&read("functions.csv"), "function"))
}

/// `pmugen trace decode` of the run's trace: its per-block totals (totals.csv).
fn decoded_totals(run: &Run) -> String {
    let out = scratch(&format!("decoded-{}", run.name));
    let (ok, text) = pmugen(&[
        "trace",
        "decode",
        run.trace.to_str().unwrap(),
        "--design",
        &design(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    std::fs::read_to_string(out.join("totals.csv")).unwrap()
}

/// profile.c built to send every record to the sink, drained by the kernel's tick
/// (-DPROFILE_MODE=1: only a datum differs, the instructions and their addresses are
/// those of the summarizing build), run.
fn drained_profile_run() -> Run {
    let work = scratch("profile-drained");
    std::fs::create_dir_all(&work).unwrap();
    let source = soc_dir().join("examples/src/profile.c");
    let args = ["soc", "build", source.to_str().unwrap(), "-DPROFILE_MODE=1", "--name", "profile-drained"];
    let (ok, text) = pmugen(&[&args[..], &["--out", work.to_str().unwrap()]].concat());
    assert!(ok, "{text}");
    run_elf("profile-drained", &work.join("profile-drained.elf"))
}

/// The words of the run's trace file.
fn words(run: &Run) -> u64 {
    std::fs::read_to_string(&run.trace).unwrap().lines().count() as u64
}

#[test]
fn the_profile_of_the_workload_equals_the_checkers_summed_or_drained() {
    // profile.c sums its records in the PMU's profile table, the kernel's exit flushes it.
    let summed = run("profile");
    assert_eq!(summed.value("trace_dropped"), 0);
    let (text, blocks, functions) = profile(&summed);
    let (want_blocks, want_functions, _) =
        expected(&summed, PICORV32, &[Setup { filter: None, freeze: true }], &[], &[]);
    assert_eq!(blocks, want_blocks, "{}: blocks against the checker", summed.name);
    assert_eq!(functions, want_functions, "{}: functions against the checker", summed.name);
    for name in ["workload_sort", "checksum", "interpret", "matrix_product", "__mulsi3"] {
        assert!(functions.keys().any(|(_, f)| f.starts_with(name)), "{name} profiled: {functions:?}");
    }
    assert!(text.contains("Functions, by BRANCH_TAKEN") && text.contains("event names from"), "{text}");
    let summaries = format!("0 block records and {} summary records", blocks.len() + summed.value("evicted") as usize);
    assert!(text.contains(&summaries), "every record summed, one summary per block and eviction: {text}");
    // The same program with every record in the trace, drained by the kernel's tick:
    // the same tables, from many more words.
    let drained = drained_profile_run();
    assert_eq!(drained.value("trace_dropped"), 0);
    let (_, drained_blocks, drained_functions) = profile(&drained);
    assert_eq!((&drained_blocks, &drained_functions), (&blocks, &functions), "drained against summed");
    assert_eq!(decoded_totals(&drained), decoded_totals(&summed), "trace decode's totals, drained against summed");
    let (_, _, split) = expected(&drained, PICORV32, &[Setup { filter: None, freeze: true }], &[], &[]);
    assert!(split > 0, "a timer tick (the sink's drain) fell inside a traced block");
    let executions: u64 = blocks.values().map(|(n, _)| n).sum();
    assert_eq!(words(&drained), executions * 5 + 1, "one record of 5 words per execution, the first with a pid");
    assert!(words(&summed) * 4 < words(&drained), "{} words summed, {} drained", words(&summed), words(&drained));
    // Every word the sink took was drained by the kernel (at the end, or on its ticks).
    for run in [&summed, &drained] {
        assert_eq!(run.value("trace_words"), words(run), "{}", run.name);
    }
    // The profiled section ran at full speed with the table, many times slower drained.
    assert!(drained.value("cycles") > 5 * summed.value("cycles"), "{}", drained.console);
}

#[test]
fn pid_filtering_and_freezing_shape_the_profile_as_the_checker_says() {
    let run = run("processes");
    let digits = |key: &str| run.text(key).bytes().map(|b| (b - b'0') as u32).collect::<Vec<u32>>();
    let (pids, marks) = (digits("schedule"), digits("marks"));
    let marks: Vec<bool> = marks.iter().map(|&m| m == 1).collect();
    let setups = [Setup { filter: Some(1), freeze: false }, Setup { filter: None, freeze: true }];
    let (text, blocks, functions) = profile(&run);
    // Phase 1's records pass, phase 2's are summed per process and block.
    let kinds = text.lines().next().unwrap().split(": ").nth(1).unwrap_or_default();
    assert!(!kinds.starts_with("0 block") && !kinds.contains(" and 0 summary"), "{text}");
    let (want_blocks, want_functions, split) = expected(&run, PICORV32, &setups, &pids, &marks);
    assert_eq!(blocks, want_blocks, "{}: blocks against the checker", run.name);
    assert_eq!(functions, want_functions, "{}: functions against the checker", run.name);
    assert!(split > 0, "a timer tick fell inside a traced block");
    // Process 2 ran unmarked and frozen in phase 2 and was filtered out in phase 1:
    // its blocks are there, with nothing counted.
    let frozen: Vec<_> = functions.iter().filter(|((pid, _), _)| *pid == 2).collect();
    assert!(!frozen.is_empty() && frozen.iter().all(|(_, (_, totals))| totals.iter().all(|&t| t == 0)), "{frozen:?}");
    assert!(functions.keys().any(|(pid, f)| *pid == 1 && f == "process_sum"), "{functions:?}");
    // The board's path: the words the kernel printed are the words the sink took.
    let mut printed = Vec::new();
    let mut inside = false;
    for line in run.console.lines() {
        match line {
            "trace-begin" => inside = true,
            "trace-end" => inside = false,
            word if inside => printed.push(word.to_string()),
            _ => {}
        }
    }
    let captured: Vec<String> = std::fs::read_to_string(&run.trace).unwrap().lines().map(str::to_string).collect();
    assert_eq!(printed, captured, "the console's hex dump against the captured words");
}

/// Traces a loop of many blocks without draining the sink until tracing is off.
const OVERRUN: &str = r#"#include "kernel.h"
__attribute__((noinline)) static uint32_t blocks(uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += i ^ (s >> 3);
    return s;
}
int main(void)
{
    sys_pmu_program(0, EV(INSTRET), EVTSEL(USR));
    sys_pmu_start(1);
    sys_trace(TRACE_CTRL(TRACE_EN), 0, 0);
    uint32_t s = blocks(700);
    put_value("dropped", sys_trace(0, 0, 0));
    put_value("sum", s);
    return 0;
}
"#;

#[test]
fn a_full_sink_drops_exactly_the_records_beyond_its_and_the_queues_capacity() {
    let work = scratch("profile-overrun");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("overrun.c"), OVERRUN).unwrap();
    // The smallest sink: the firmware's note makes `soc run` use that system.
    let source = work.join("overrun.c");
    let (ok, text) =
        pmugen(&["soc", "build", source.to_str().unwrap(), "--sink-words", "1024", "--out", work.to_str().unwrap()]);
    assert!(ok, "{text}");
    let run = run_elf("overrun", &work.join("overrun.elf"));
    let ctrl = run.first_stores_of("kernel_trace_ctrl");
    let summary = summarize_core_log(&run.log, Xlen::Rv32, PICORV32.rule, PICORV32.core, 32);
    let traced: Vec<&Block> =
        summary.blocks.iter().filter(|b| ctrl[0] < b.end_cycle && b.end_cycle < ctrl[1]).collect();
    // The sink holds 1024 words: whole records of 6 words (the first, with its pid
    // word) and 5; the rest of a record that did not fit waits in the queue, which holds
    // D records. Every record after those is dropped while nothing drains the sink.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(design()).unwrap()).unwrap();
    let depth = json["trace_depth"].as_u64().unwrap() as usize;
    let in_sink = 1 + (1024 - 6) / 5;
    let kept = in_sink + depth;
    assert!(traced.len() > kept + 100, "the loop must overrun: {} blocks", traced.len());
    assert_eq!(run.value("dropped"), (traced.len() - kept) as u64, "TRACE_DROPPED");
    let decoded = work.join("decoded");
    let (ok, text) = pmugen(&[
        "trace",
        "decode",
        run.trace.to_str().unwrap(),
        "--design",
        &design(),
        "--out",
        decoded.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let csv = std::fs::read_to_string(decoded.join("trace.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert!(header.ends_with(&["INSTRET", "counter1", "counter2", "counter3"]), "{csv}");
    let (address, instret) = (2, header.len() - 4);
    let records: Vec<(String, u64)> = lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (cells[address].to_string(), cells[instret].parse().unwrap())
        })
        .collect();
    let first: Vec<(String, u64)> = traced
        .iter()
        .take(kept)
        .map(|b| (format!("0x{:08x}", b.address), b.counts.user[Event::Instret.index()]))
        .collect();
    assert_eq!(records, first, "the records kept are the first {kept} the PMU made");
}

/// The C program of docs/soc.md §4.8, as the docs give it.
fn docs_program() -> String {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/soc.md")).unwrap();
    let section = &docs[docs.find("### 4.8 Your own program").expect("§4.8")..];
    let start = section.find("```c\n").expect("a C block") + 5;
    section[start..start + section[start..].find("```").unwrap()].to_string()
}

#[test]
fn the_docs_own_program_finds_the_function_with_the_most_taken_branches() {
    let work = scratch("profile-docs");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("my.c"), docs_program()).unwrap();
    let (ok, text) = pmugen(&["soc", "build", work.join("my.c").to_str().unwrap(), "--out", work.to_str().unwrap()]);
    assert!(ok, "{text}");
    let run = run_elf("my", &work.join("my.elf"));
    assert_eq!(run.value("dropped"), 0);
    let (_, _, functions) = profile(&run);
    let (want_blocks, want_functions, _) = expected(&run, PICORV32, &[Setup { filter: None, freeze: false }], &[], &[]);
    assert_eq!(functions, want_functions, "functions against the checker");
    assert!(!want_blocks.is_empty());
    let branches = |name: &str| functions.iter().find(|((_, f), _)| f == name).map(|(_, (_, t))| t[3]).unwrap();
    let top = functions.iter().max_by_key(|(_, (_, t))| t[3]).map(|((_, f), _)| f.clone()).unwrap();
    assert_eq!(top, "count_odd", "the docs' answer (count_odd {} vs fill {})", branches("count_odd"), branches("fill"));
}
