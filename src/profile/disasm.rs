//! The annotated disassembly of `profile` (docs/soc.md §4.4): the firmware's code as
//! `riscv64-unknown-elf-objdump -d` prints it, with each traced block's executions and
//! counter totals beside its first instruction and a `|` beside the block's other
//! instructions. A block runs from its address to the first instruction that ends a
//! block (a branch, JAL, JALR, ECALL, EBREAK, xRET or WFI, also in compressed form);
//! the blocks of a trace are the same, because the PMU's RVFI adapter ends them there.
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::Path;

use super::Row;

/// The disassembler.
pub const OBJDUMP: &str = "riscv64-unknown-elf-objdump";

/// The output of `objdump -d` for `elf`.
pub fn objdump(elf: &Path) -> Result<String> {
    pmugen_sim::tools::require(&[OBJDUMP]).map_err(anyhow::Error::msg)?;
    let output = std::process::Command::new(OBJDUMP)
        .arg("-d")
        .arg(elf)
        .output()
        .with_context(|| format!("running {OBJDUMP}"))?;
    if !output.status.success() {
        bail!("{OBJDUMP} -d {} failed:\n{}", elf.display(), String::from_utf8_lossy(&output.stderr));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// An instruction line of objdump: its address and instruction word (16 or 32 bits).
fn instruction(line: &str) -> Option<(u64, u32, usize)> {
    let (address, rest) = line.trim_start().split_once(':')?;
    let address = u64::from_str_radix(address, 16).ok()?;
    let raw = rest.trim_start_matches('\t').split('\t').next()?.trim();
    let digits = raw.replace(' ', "");
    let word = u32::from_str_radix(&digits, 16).ok()?;
    Some((address, word, digits.len() / 2))
}

/// Whether the instruction `word` of `bytes` bytes ends a block (as the adapter's rule).
pub fn ends_block(word: u32, bytes: usize) -> bool {
    if bytes == 2 {
        let (quadrant, funct3) = (word & 3, (word >> 13) & 7);
        let (rs1, rs2) = ((word >> 7) & 0x1F, (word >> 2) & 0x1F);
        return match quadrant {
            // C.JAL (RV32), C.J, C.BEQZ, C.BNEZ.
            1 => matches!(funct3, 1 | 5 | 6 | 7),
            // C.JR, C.JALR (rs1 != 0, rs2 = 0) and C.EBREAK (rs1 = rs2 = 0, bit 12 set).
            2 => funct3 == 4 && rs2 == 0 && (rs1 != 0 || word & 0x1000 != 0),
            _ => false,
        };
    }
    match word & 0x7F {
        0x63 | 0x6F | 0x67 => true,
        0x73 => (word >> 12) & 7 == 0,
        _ => false,
    }
}

/// `listing` (objdump's output) with the counts of `blocks` (one process's, or every
/// process's summed by address) beside their instructions.
pub fn annotate(listing: &str, blocks: &[Row], names: &[String]) -> String {
    let mut by_address: BTreeMap<u64, (u64, Vec<u128>)> = BTreeMap::new();
    for block in blocks {
        let entry = by_address.entry(block.address).or_insert_with(|| (0, vec![0; block.totals.len()]));
        entry.0 += block.executions;
        entry.1.iter_mut().zip(&block.totals).for_each(|(sum, t)| *sum += t);
    }
    let mut header: Vec<String> = vec!["executions".into()];
    header.extend(names.iter().cloned());
    // (the count cells, or None for a line that is not an instruction; the line)
    let mut rows: Vec<(Option<Vec<String>>, &str)> = Vec::new();
    let mut inside = false;
    for line in listing.lines() {
        let Some((address, word, bytes)) = instruction(line) else {
            inside = false;
            rows.push((None, line));
            continue;
        };
        let mut cells = vec![String::new(); header.len()];
        if let Some((executions, totals)) = by_address.get(&address) {
            cells[0] = executions.to_string();
            totals.iter().enumerate().for_each(|(i, t)| cells[i + 1] = t.to_string());
            inside = true;
        } else if inside {
            cells[0] = "|".into();
        }
        rows.push((Some(cells), line));
        if ends_block(word, bytes) {
            inside = false;
        }
    }
    let mut width: Vec<usize> = header.iter().map(String::len).collect();
    for cells in rows.iter().filter_map(|(cells, _)| cells.as_ref()) {
        width.iter_mut().zip(cells).for_each(|(w, c)| *w = (*w).max(c.len()));
    }
    let columns =
        |cells: &[String]| -> String { cells.iter().zip(&width).map(|(c, w)| format!("{c:>w$}  ")).collect() };
    let mut text = columns(&header) + "\n";
    for (cells, line) in rows {
        match cells {
            Some(cells) => text += &format!("{}{line}\n", columns(&cells)),
            None => text += &format!("{line}\n"),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ends_follow_the_adapter_rule() {
        // beq, jal, jalr, ecall, ebreak, mret, wfi end a block; add, lw, csrrs do not.
        for word in [0x0000_0463, 0x0080_006F, 0x0000_8067, 0x0000_0073, 0x0010_0073, 0x3020_0073, 0x1050_0073] {
            assert!(ends_block(word, 4), "{word:#010x}");
        }
        for word in [0x0000_0033, 0x0000_2003, 0xC020_2073] {
            assert!(!ends_block(word, 4), "{word:#010x}");
        }
        // c.j, c.beqz, c.jr ra, c.ebreak end one; c.addi, c.mv do not.
        for word in [0xA001, 0xC001, 0x8082, 0x9002] {
            assert!(ends_block(word, 2), "{word:#06x}");
        }
        for word in [0x0505, 0x852E] {
            assert!(!ends_block(word, 2), "{word:#06x}");
        }
    }

    #[test]
    fn counts_go_beside_their_block() {
        let listing = "00000100 <f>:\n     100:\t00000013          \tnop\n     104:\t00000463          \tbeqz\tzero,10c\n     108:\t00000013          \tnop\n";
        let block = Row {
            process: None,
            address: 0x100,
            place: super::super::Place::Function("f".into(), 0),
            blocks: 1,
            executions: 3,
            totals: vec![6],
        };
        let text = annotate(listing, &[block], &["INSTRET".into()]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("executions") && lines[0].contains("INSTRET"), "{text}");
        assert!(lines[2].contains(" 3 ") && lines[2].contains(" 6 ") && lines[2].ends_with("nop"), "{text}");
        assert!(lines[3].trim_start().starts_with('|'), "{text}");
        assert!(!lines[4].contains('|'), "the block ended at the branch: {text}");
    }
}
