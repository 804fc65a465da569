//! The reference SoC on SERV and on Ibex (`pmugen soc --cpu`, docs/soc.md §2.9): the
//! example count.c and the profile example profile.c run on each, with the retirement
//! log. count.c's four counts must equal the architectural truth that the checker of
//! tests/long/cores reads from the core's own log (hindsight for the instructions SERV
//! reports as stopped by an interrupt, the compiler's disassembly for the classes, the
//! handler's span on SERV and the privilege mode on Ibex for the ring); profile.c's
//! profile must equal the reference adapter's reading of the same log, each block made
//! only of executed instructions, with a timer tick inside a traced block.
use pmugen::soc::config::SocConfig;
use std::path::{Path, PathBuf};

use crate::common::cli::{pmugen, scratch};
use crate::cores::truth::{self, Line};
use crate::profile::{expected, profile_with, Reading, Setup};
use crate::soc_examples::{run_elf_in, Run};
use pmugen_sim::reference::rvfi::{summarize_core_log, Core, KernelRule, Xlen};

const ECALL: u32 = 0x0000_0073;
const MRET: u32 = 0x3020_0073;

/// The SoC on `cpu`, generated with its examples into a scratch directory.
fn soc(cpu: &str) -> PathBuf {
    let dir = scratch(&format!("soc_cpu_{cpu}"));
    let (ok, text) = pmugen(&["soc", "--cpu", cpu, "--out", dir.to_str().unwrap()]);
    assert!(ok, "pmugen soc --cpu {cpu}:\n{text}");
    dir
}

/// The kernel of each log line: on SERV from the line after a trapping one through MRET
/// (its handler), on Ibex not user mode.
fn kernel_lines(lines: &[Line], cpu: &str) -> Vec<bool> {
    let mut inside = false;
    lines
        .iter()
        .map(|line| {
            if cpu == "ibex" {
                return line.mode != 0;
            }
            let kernel = inside;
            inside = if line.trap { true } else { inside && line.insn != MRET };
            kernel || line.insn == MRET && inside
        })
        .collect()
}

/// count.c: its printed INSTRET, LOAD, STORE and BRANCH_TAKEN equal the executed user
/// instructions, loads, stores and taken branches from the first request's return to
/// the second request's ECALL, by the checker.
fn count_is_the_truth(cpu: &str, dir: &Path) {
    let run = run_elf_in("count", &dir.join("examples/count.elf"), dir, cpu);
    let text = std::fs::read_to_string(dir.join("count.rvfi")).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let lines = truth::parse(&body);
    let executed = truth::executed(&lines);
    let kernel = kernel_lines(&lines, cpu);
    let code = truth::disassembly(&run.elf);
    let ecalls: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].insn == ECALL).collect();
    // The requests' returns (Ibex's boot code returns to user mode with MRET before them).
    let returns: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].insn == MRET && i > ecalls[0]).collect();
    assert_eq!((returns.len(), ecalls.len()), (2, 2), "{cpu}: the two requests of count.c");
    let window = (returns[0] + 1)..=ecalls[1];
    let mut counts = [0u64; 4];
    for i in window.filter(|&i| executed[i] && !kernel[i]) {
        let line = &lines[i];
        let (mnemonic, _) = &code[&line.pc];
        let is = |names: &[&str]| names.contains(&mnemonic.as_str());
        let length = if line.insn & 3 == 3 { 4 } else { 2 };
        counts[0] += 1;
        counts[1] += is(&["lb", "lh", "lw", "lbu", "lhu", "c.lw", "c.lwsp"]) as u64;
        counts[2] += is(&["sb", "sh", "sw", "c.sw", "c.swsp"]) as u64;
        let branch = is(&["beq", "bne", "blt", "bge", "bltu", "bgeu", "c.beqz", "c.bnez"]);
        counts[3] += (branch && line.next != line.pc.wrapping_add(length)) as u64;
    }
    for (name, count) in ["INSTRET", "LOAD", "STORE", "BRANCH_TAKEN"].iter().zip(counts) {
        let printed = run.console.lines().find_map(|l| l.strip_prefix(&format!("{name} "))).unwrap_or_default();
        assert_eq!(printed.trim().parse::<u64>().ok(), Some(count), "{cpu} count.c {name}:\n{}", run.console);
    }
}

/// profile.c built to send every record to the sink, drained by the kernel's timer tick
/// (`-DPROFILE_MODE=1`), so that interrupts fall inside blocks: the profile equals the
/// reference's reading of the log (with the core's reader), its blocks hold executed
/// instructions only, and a tick fell inside a block.
fn profile_is_the_logs(cpu: &str, dir: &Path, reading: Reading) {
    let source = dir.join("examples/src/profile.c");
    let out = dir.to_str().unwrap();
    let build = ["soc", "build", source.to_str().unwrap(), "-DPROFILE_MODE=1", "--cpu", cpu];
    let (ok, text) = pmugen(&[&build[..], &["--name", "profile-drained", "--out", out]].concat());
    assert!(ok, "{cpu}: {text}");
    let run: Run = run_elf_in("profile-drained", &dir.join("profile-drained.elf"), dir, cpu);
    assert_eq!(run.value("trace_dropped"), 0, "{cpu}");
    let config = SocConfig::reference(cpu.parse().unwrap());
    let top = pmugen::design::Design::top_name(&pmugen::soc::pmu_for(&config).unwrap());
    let design = dir.join(format!("{top}_design.json"));
    let (_, blocks, functions) = profile_with(&run, design.to_str().unwrap());
    let (want_blocks, want_functions, split) =
        expected(&run, reading, &[Setup { filter: None, freeze: true }], &[], &[]);
    assert_eq!(blocks, want_blocks, "{cpu} profile.c: blocks against the reference");
    assert_eq!(functions, want_functions, "{cpu} profile.c: functions against the reference");
    assert!(split > 0, "{cpu}: a timer tick fell inside a traced block");
    // The blocks are made of executions: what the core reported as stopped is in none.
    let text = std::fs::read_to_string(dir.join("profile-drained.rvfi")).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let lines = truth::parse(&body);
    let executed: std::collections::BTreeMap<u64, bool> =
        lines.iter().zip(truth::executed(&lines)).map(|(l, run)| (l.cycle, run)).collect();
    let summary = summarize_core_log(&run.log, Xlen::Rv32, reading.rule, reading.core, 32);
    let stopped = executed.values().filter(|&&run| !run).count();
    for block in &summary.blocks {
        assert!(block.retirements.iter().all(|&c| executed[&(c as u64)]), "{cpu}: block {:#x}", block.start);
    }
    if cpu == "serv" {
        assert!(stopped > 0, "SERV reported no stopped instruction in profile.c's run");
    }
}

#[test]
fn the_soc_on_serv_counts_and_profiles_what_the_program_executed() {
    let dir = soc("serv");
    count_is_the_truth("serv", &dir);
    profile_is_the_logs("serv", &dir, Reading { core: Core::Serv, rule: KernelRule::Handler });
}

#[test]
fn the_soc_on_ibex_counts_and_profiles_what_the_program_executed() {
    let dir = soc("ibex");
    count_is_the_truth("ibex", &dir);
    profile_is_the_logs("ibex", &dir, Reading { core: Core::Ibex, rule: KernelRule::Mode });
}
