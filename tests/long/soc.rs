//! The reference SoC (docs/soc.md §2) built and run under Verilator: its generated
//! Verilog lints clean and passes yosys with every module under the top's name; the
//! example count.c prints counts that the independent checker (`summarize_log`, the
//! RVFI adapter's reference model) computes from the run's own retirement log; exit
//! codes propagate; a firmware that never exits stops at `--max-cycles`, writing the
//! trace and the log it has and saying so.
//! One generated SoC and one Verilator model serve every test (built once).
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::cli::{pmugen, scratch};
use pmugen_sim::reference::rvfi::{
    parse_log, summarize_core_log, Core, Event, KernelRule, Retirement, Ring, Xlen, RETIRQ,
};

/// `pmugen soc` into a fresh directory, and the model built there by a first run of
/// count.elf with its retirement log: (directory, count's stdout).
fn soc() -> &'static (PathBuf, String) {
    static SOC: OnceLock<(PathBuf, String)> = OnceLock::new();
    SOC.get_or_init(|| {
        let dir = scratch("soc");
        let (ok, text) = pmugen(&["soc", "--out", dir.to_str().unwrap()]);
        assert!(ok, "{text}");
        let elf = dir.join("examples/count.elf");
        let log = dir.join("count.rvfi");
        let output = Command::new(env!("CARGO_BIN_EXE_pmugen"))
            .args(["soc", "run", elf.to_str().unwrap(), "--out", dir.to_str().unwrap()])
            .args(["--rvfi-log", log.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
        (dir, stdout)
    })
}

/// Every Verilog file of the SoC, in reading order (from pmugen_soc.f).
fn verilog_files(dir: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(dir.join("pmugen_soc.f")).unwrap();
    list.lines().filter(|l| l.ends_with(".v")).map(str::to_string).collect()
}

#[test]
fn generated_verilog_lints_clean_passes_yosys_and_has_the_ports_and_names() {
    let (dir, _) = soc();
    let files = verilog_files(dir);
    assert_eq!(files.last().map(String::as_str), Some("picorv32.v"), "{files:?}");
    let mut args = vec!["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-DRISCV_FORMAL", "--top-module", "pmugen_soc"];
    args.push("pmugen_soc.vlt");
    args.extend(files.iter().map(String::as_str));
    let lint = Command::new("verilator").args(&args).current_dir(dir).output().unwrap();
    let text = String::from_utf8_lossy(&lint.stderr).into_owned() + &String::from_utf8_lossy(&lint.stdout);
    assert!(lint.status.success() && !text.contains("%Warning"), "{text}");
    let script = format!(
        "read_verilog -DRISCV_FORMAL {}; hierarchy -check -top pmugen_soc; proc; check -assert",
        files.join(" ")
    );
    let yosys = Command::new("yosys").args(["-q", "-p", &script]).current_dir(dir).output().unwrap();
    assert!(yosys.status.success(), "{}", String::from_utf8_lossy(&yosys.stderr));
    // Every module of the files pmugen writes starts with the top's name.
    for file in files.iter().filter(|f| *f != "picorv32.v") {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let modules: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("module "))
            .map(|l| l.split(['(', ' ']).next().unwrap())
            .collect();
        assert!(!modules.is_empty(), "{file}");
        for module in modules {
            assert!(module.starts_with("pmugen_soc"), "{file}: module {module}");
        }
    }
    let top = std::fs::read_to_string(dir.join("pmugen_soc.v")).unwrap();
    // The ANSI port list: `input  wire [7:0]  name,` up to `);`.
    let header = top.split("module pmugen_soc (").nth(1).unwrap().split(");").next().unwrap();
    let ports: Vec<(String, bool, usize)> = header
        .lines()
        .map(|l| l.trim().trim_end_matches(','))
        .filter(|l| l.starts_with("input") || l.starts_with("output"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let width = words
                .iter()
                .find_map(|w| w.strip_prefix('['))
                .map_or(1, |range| range.trim_end_matches(":0]").parse::<usize>().unwrap() + 1);
            (words.last().unwrap().to_string(), words[0] == "input", width)
        })
        .collect();
    let expected: Vec<(&str, bool, usize)> = vec![
        ("clock", true, 1),
        ("reset", true, 1),
        ("console_valid", false, 1),
        ("console_data", false, 8),
        ("exit_valid", false, 1),
        ("exit_code", false, 32),
        ("rvfi_valid", false, 1),
        ("rvfi_insn", false, 32),
        ("rvfi_trap", false, 1),
        ("rvfi_intr", false, 1),
        ("rvfi_mode", false, 2),
        ("rvfi_pc_rdata", false, 32),
        ("rvfi_pc_wdata", false, 32),
        ("rvfi_mem_rmask", false, 4),
        ("rvfi_mem_wmask", false, 4),
        ("trace_valid", false, 1),
        ("trace_ready", false, 1),
        ("trace_data", false, 64),
        ("trace_last", false, 1),
    ];
    let got: Vec<(&str, bool, usize)> = ports.iter().map(|p| (p.0.as_str(), p.1, p.2)).collect();
    assert_eq!(got, expected);
    assert!(top.contains("regenerate with `pmugen soc --out") && top.contains("docs/soc.md"), "header");
}

/// The printed value after `name ` on a line of its own.
fn printed(stdout: &str, name: &str) -> u64 {
    let line =
        stdout.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("{name}: {stdout}"));
    line[name.len() + 1..].trim().parse().unwrap()
}

/// The cycles of handler entries (`rvfi_intr`) and of `retirq` retirements.
fn handler_spans(log: &[Retirement]) -> Vec<(usize, usize)> {
    let entries = log.iter().enumerate().filter(|(_, r)| r.valid && r.intr).map(|(c, _)| c);
    entries
        .map(|entry| {
            let exit = (entry..log.len()).find(|&c| log[c].valid && log[c].insn == RETIRQ).expect("a retirq");
            (entry, exit)
        })
        .collect()
}

#[test]
fn count_prints_what_the_independent_checker_counts_from_the_retirement_log() {
    let (dir, stdout) = soc();
    let text = std::fs::read_to_string(dir.join("count.rvfi")).unwrap();
    let log = parse_log(&text, "count.rvfi").unwrap();
    let spans = handler_spans(&log);
    assert_eq!(spans.len(), 2, "count.c makes two requests (start, stop): {spans:?}");
    // PicoRV32's departure that `--core picorv32` reads (docs/soc.md §1.7): its ECALLs
    // retire with rvfi_trap = 0, and its handler's first instruction has rvfi_intr.
    let ecalls: Vec<usize> = (0..log.len()).filter(|&c| log[c].valid && log[c].insn == 0x0000_0073).collect();
    assert_eq!(ecalls.len(), 2);
    assert!(ecalls.iter().all(|&c| !log[c].trap), "PicoRV32 reports ECALL with rvfi_trap = 0");
    assert!(log.iter().all(|r| !r.valid || r.mode == 3), "PicoRV32 reports machine mode always");
    // The counters count user events from the start request's handler to the stop
    // request's: the user retirements between the first handler's return and the
    // second handler's entry.
    let window = &log[spans[0].1 + 1..spans[1].0];
    let summary = summarize_core_log(window, Xlen::Rv32, KernelRule::Handler, Core::Picorv32, 32);
    for (name, event) in [
        ("INSTRET", Event::Instret),
        ("LOAD", Event::Load),
        ("STORE", Event::Store),
        ("BRANCH_TAKEN", Event::BranchTaken),
    ] {
        let expected = summary.counts.get(event, Ring::User);
        assert!(expected > 0, "{name}: the workload has some");
        assert_eq!(printed(stdout, name), expected, "{name}\n{stdout}");
    }
    // PicoRV32's rdinstret difference: every retirement (both rings) from the first
    // rdinstret up to the second.
    let rdinstret: Vec<usize> =
        (0..log.len()).filter(|&c| log[c].valid && log[c].insn & 0xFFFF_F07F == 0xC020_2073).collect();
    assert_eq!(rdinstret.len(), 2, "{rdinstret:?}");
    let both = summarize_core_log(&log[..rdinstret[1]], Xlen::Rv32, KernelRule::Handler, Core::Picorv32, 32);
    let before = summarize_core_log(&log[..rdinstret[0]], Xlen::Rv32, KernelRule::Handler, Core::Picorv32, 32);
    let instret = both.counts.total(Event::Instret) - before.counts.total(Event::Instret);
    assert_eq!(printed(stdout, "rdinstret"), instret, "{stdout}");
    assert!(instret > printed(stdout, "INSTRET"), "the kernel's instructions are in rdinstret's count");
}

/// Run `pmugen soc run args` in the shared SoC directory: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let (dir, _) = soc();
    let output = Command::new(env!("CARGO_BIN_EXE_pmugen"))
        .args(["soc", "run", "--out", dir.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

#[test]
fn the_firmware_exit_code_is_pmugen_s_and_a_hex_image_runs() {
    let (dir, _) = soc();
    let work = scratch("soc-exit");
    std::fs::create_dir_all(&work).unwrap();
    let source = work.join("seven.c");
    std::fs::write(&source, "#include \"soc.h\"\nint main(void) { soc_puts(\"bye\\n\"); return 7; }\n").unwrap();
    let (ok, text) = pmugen(&["soc", "build", source.to_str().unwrap(), "--out", work.to_str().unwrap()]);
    assert!(ok, "{text}");
    let hex = work.join("seven.hex");
    let (code, stdout, stderr) = run(&[hex.to_str().unwrap(), "--trace", work.join("t.hex").to_str().unwrap()]);
    assert_eq!(code, Some(7), "{stderr}");
    assert_eq!(stdout, "bye\n");
    assert!(stderr.contains("exit code 7"), "{stderr}");
    assert!(work.join("t.hex").is_file());
    assert!(dir.join("verilator").is_dir(), "the model's cache is under --out");
}

#[test]
fn firmware_that_never_exits_stops_at_max_cycles_writing_what_it_has() {
    let work = scratch("soc-forever");
    std::fs::create_dir_all(&work).unwrap();
    let hex = work.join("forever.hex");
    std::fs::write(&hex, "0000006f\n").unwrap(); // j .
    let (trace, log) = (work.join("trace.hex"), work.join("run.rvfi"));
    let (code, _, stderr) = run(&[
        hex.to_str().unwrap(),
        "--max-cycles",
        "20000",
        "--trace",
        trace.to_str().unwrap(),
        "--rvfi-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("no exit within --max-cycles 20000") && stderr.contains("raise it"), "{stderr}");
    let wrote = format!("wrote what the run made up to the limit (0 trace words): {}", trace.display());
    assert!(stderr.contains(&wrote) && stderr.contains(&log.display().to_string()), "{stderr}");
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), "", "no trace words");
    let log = parse_log(&std::fs::read_to_string(&log).unwrap(), "run.rvfi").unwrap();
    let retired = log.iter().filter(|r| r.valid).count();
    // `j .` retires every few cycles up to the limit.
    assert!(retired > 1000 && log.iter().all(|r| !r.valid || r.pc_rdata == 0), "{retired} retirements");
}

/// A firmware that traces its own blocks: the handler turns tracing on (counter 0
/// counting user INSTRET) and off, the program prints how many words the sink holds.
const TRACING: &str = r#"#include "soc_pmu.h"
#include "soc.h"
#define PMU(name) SOC_PMU(name)
uint32_t *irq(uint32_t *regs, uint32_t irqs)
{
    if (irqs & (1u << SOC_IRQ_TRAP)) {
        PMU(t) pmu = PMU(open)(SOC_PMU_BASE, 0);
        if (regs[10] == 1) {
            PMU(program)(&pmu, 0, SOC_PMU_C(EV_INSTRET), SOC_PMU_C(PERF_EVTSEL_USR));
            PMU(start)(&pmu, 1);
            PMU(trace_ctrl_write)(&pmu, SOC_PMU_C(TRACE_CTRL_TRACE_EN));
        } else {
            PMU(trace_ctrl_write)(&pmu, 0);
        }
    }
    return regs;
}
static void request(uint32_t what)
{
    register uint32_t a0 __asm__("a0") = what;
    __asm__ volatile("ecall" : "+r"(a0) : : "memory");
}
int main(void)
{
    volatile uint32_t sum = 0;
    request(1);
    for (uint32_t i = 0; i < 10; i++)
        sum += i;
    request(2);
    soc_puts("words ");
    soc_put_dec(soc_trace_available());
    soc_puts("\n");
    uint64_t word;
    uint32_t popped = 0;
    while (soc_trace_pop(&word))
        popped++;
    soc_puts("popped ");
    soc_put_dec(popped);
    soc_puts("\n");
    return soc_trace_available() == 0 && soc_faults() == 0 ? 0 : 1;
}
"#;

#[test]
fn the_trace_words_reach_the_sink_and_the_trace_file_and_decode() {
    let (dir, _) = soc();
    let work = scratch("soc-trace");
    std::fs::create_dir_all(&work).unwrap();
    let source = work.join("tracing.c");
    std::fs::write(&source, TRACING).unwrap();
    let (ok, text) = pmugen(&["soc", "build", source.to_str().unwrap(), "--out", work.to_str().unwrap()]);
    assert!(ok, "{text}");
    let trace = work.join("trace.hex");
    let (code, stdout, stderr) = run(&[work.join("tracing.elf").to_str().unwrap(), "--trace", trace.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let words = std::fs::read_to_string(&trace).unwrap().lines().count() as u64;
    assert!(words > 10, "ten loop iterations end ten blocks at least: {words} words");
    assert_eq!(printed(&stdout, "words"), words, "the sink holds every word the trace file has");
    assert_eq!(printed(&stdout, "popped"), words, "and gives each back once");
    let design = dir.join(format!(
        "{}_design.json",
        pmugen::design::Design::top_name(&pmugen::soc::pmu(pmugen::soc::cpu::Cpu::Picorv32).unwrap())
    ));
    let decoded = work.join("decoded");
    let (ok, text) = pmugen(&[
        "trace",
        "decode",
        trace.to_str().unwrap(),
        "--design",
        design.to_str().unwrap(),
        "--out",
        decoded.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let csv = std::fs::read_to_string(decoded.join("trace.csv")).unwrap();
    assert!(csv.lines().count() > 10, "{csv}");
}
