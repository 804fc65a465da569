//! The architectural truth of a core's run, from its own retirement log alone, by
//! hindsight and the compiler's disassembly, not by the adapter's rules: which
//! retirements were executions (an instruction reported as trapping and then run again
//! after its handler returned to it was stopped by an interrupt, not executed), each
//! execution's instruction class from `objdump` (mnemonics, not encodings), its ring
//! (SERV: inside the trap handler's code, between `vectors` and `__kernel_end`; Ibex: its
//! privilege mode), handler entries as executions at a vector-table entry, and each
//! cycle's ring as the last execution's (user before the first), over the cycles whose
//! events the PMU counted.
use std::collections::HashMap;
use std::path::Path;

use pmugen_sim::tools::run_tool;

/// One line of the log.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    /// The cycle.
    pub cycle: u64,
    /// rvfi_pc_rdata.
    pub pc: u32,
    /// rvfi_pc_wdata.
    pub next: u32,
    /// rvfi_insn.
    pub insn: u32,
    /// rvfi_mode.
    pub mode: u32,
    /// rvfi_trap.
    pub trap: bool,
    /// rvfi_intr.
    pub intr: bool,
    /// rvfi_mem_rmask.
    pub rmask: u32,
}

/// The log's lines.
pub fn parse(log: &str) -> Vec<Line> {
    log.lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let hex = |i: usize| u32::from_str_radix(f[i], 16).unwrap();
            Line {
                cycle: f[0].parse().unwrap(),
                pc: hex(1),
                next: hex(2),
                insn: hex(3),
                mode: hex(4),
                trap: f[5] == "1",
                intr: f[6] == "1",
                rmask: hex(7),
            }
        })
        .collect()
}

/// Each instruction of the ELF's text: address -> (mnemonic, operands), by
/// `objdump -d -M no-aliases,numeric`.
pub fn disassembly(elf: &Path) -> HashMap<u32, (String, String)> {
    let dir = elf.parent().unwrap();
    let elf = elf.to_str().unwrap();
    let (ok, text) = run_tool("riscv64-unknown-elf-objdump", &["-d", "-M", "no-aliases,numeric", elf], dir).unwrap();
    assert!(ok, "{text}");
    let mut code = HashMap::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        if parts.len() >= 3 {
            if let Ok(address) = u32::from_str_radix(parts[0].trim().trim_end_matches(':'), 16) {
                let operands = parts.get(3).map_or("", |o| o.split('#').next().unwrap().trim());
                code.insert(address, (parts[2].trim().to_string(), operands.to_string()));
            }
        }
    }
    code
}

/// The addresses of the symbols `vectors` and `__kernel_end`: the trap handler's code.
pub fn handler_code(elf: &Path) -> (u32, u32) {
    let dir = elf.parent().unwrap();
    let elf = elf.to_str().unwrap();
    let (ok, symbols) = run_tool("riscv64-unknown-elf-nm", &[elf], dir).unwrap();
    assert!(ok, "{symbols}");
    let symbol = |name: &str| {
        let line = symbols.lines().find(|l| l.ends_with(&format!(" {name}"))).expect(name);
        u32::from_str_radix(line.split_whitespace().next().unwrap(), 16).unwrap()
    };
    (symbol("vectors"), symbol("__kernel_end"))
}

/// How the ring of an execution is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingBy {
    /// Inside the handler's code: [vectors, __kernel_end).
    HandlerCode,
    /// Its privilege mode (not U).
    Mode,
}

/// The retirements that were executions: not those reported as trapping that the core
/// ran again when their handler returned (the retirement after the next MRET is at
/// their address).
pub fn executed(lines: &[Line]) -> Vec<bool> {
    const MRET: u32 = 0x3020_0073;
    (0..lines.len())
        .map(|i| {
            if !lines[i].trap {
                return true;
            }
            let back = lines[i + 1..].iter().position(|l| l.insn == MRET).and_then(|j| lines.get(i + 1 + j + 1));
            back.is_none_or(|after| after.pc != lines[i].pc)
        })
        .collect()
}

/// The events (bit i = the RISC-V table's event i, docs/soc.md §1.1) of one execution.
fn events(line: &Line, mnemonic: &str, operands: &str, entry: bool) -> u16 {
    let ops: Vec<&str> = operands.split(',').collect();
    let links = |register: &str| register == "x1" || register == "x5";
    let is = |names: &[&str]| names.contains(&mnemonic);
    let length = if line.insn & 3 == 3 { 4 } else { 2 };
    let branch = is(&["beq", "bne", "blt", "bge", "bltu", "bgeu", "c.beqz", "c.bnez"]);
    let jump = is(&["jal", "jalr", "c.j", "c.jal", "c.jr", "c.jalr"]);
    let call = is(&["c.jal", "c.jalr"]) || (is(&["jal", "jalr"]) && links(ops[0]));
    let rs1 = |operand: &str| operand.split('(').nth(1).map(|r| r.trim_end_matches(')').to_string());
    let ret = (mnemonic == "c.jr" && links(ops[0]))
        || (mnemonic == "jalr" && ops[0] == "x0" && rs1(ops.get(1).unwrap_or(&"")).is_some_and(|r| links(&r)));
    let exception = line.trap || is(&["ecall", "ebreak", "c.ebreak"]);
    let bits = [
        true,
        true,
        false,
        is(&["lb", "lh", "lw", "lbu", "lhu", "c.lw", "c.lwsp"]),
        is(&["sb", "sh", "sw", "c.sw", "c.swsp"]),
        branch,
        branch && line.next != line.pc.wrapping_add(length),
        jump,
        call,
        ret,
        exception,
        entry,
        is(&["ecall", "ebreak", "c.ebreak", "mret", "wfi"]) || mnemonic.starts_with("csrr"),
        is(&["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]),
    ];
    bits.iter().enumerate().fold(0, |all, (i, &bit)| all | (bit as u16) << i)
}

/// The counts of the 14 events per ring ([user, kernel]) that counters started by a
/// write in cycle `window.0` and stopped by one in cycle `window.1` hold: a setting
/// written in cycle k governs the PMU's inputs of cycle k and later (docs/pmu.md §7.1),
/// which are the retirements of cycle k-1 (docs/soc.md §1.4), so the cycles counted are
/// `window.0 - 1 .. window.1 - 1`.
pub fn counts(lines: &[Line], elf: &Path, ring_by: RingBy, window: (u64, u64)) -> Vec<[u64; 2]> {
    let window = (window.0 - 1, window.1 - 1);
    let (code, (vectors, kernel_end)) = (disassembly(elf), handler_code(elf));
    let executed = executed(lines);
    let mut by_cycle = HashMap::new();
    for (line, _) in lines.iter().zip(&executed).filter(|(_, &run)| run) {
        by_cycle.insert(line.cycle, *line);
    }
    let mut counts = vec![[0u64; 2]; 14];
    let mut ring = 0;
    let first = lines.first().map_or(u64::MAX, |l| l.cycle);
    for cycle in first.min(window.0)..window.1 {
        let mut bits = 1u16 | 1 << 2; // CYCLES, STALL_CYCLES
        if let Some(line) = by_cycle.get(&cycle) {
            let (mnemonic, operands) =
                code.get(&line.pc).unwrap_or_else(|| panic!("no instruction at {:#x} in the ELF", line.pc));
            ring = match ring_by {
                RingBy::HandlerCode => (vectors..kernel_end).contains(&line.pc) as usize,
                RingBy::Mode => (line.mode != 0) as usize,
            };
            let entry = (vectors..vectors + 128).contains(&line.pc);
            bits = events(line, mnemonic, operands, entry);
        }
        if cycle >= window.0 {
            for (i, count) in counts.iter_mut().enumerate() {
                count[ring] += (bits >> i & 1) as u64;
            }
        }
    }
    counts
}
