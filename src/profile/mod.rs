//! `pmugen profile`: a captured counter-level trace turned into the profile a software
//! engineer reads (docs/soc.md §4): per block (address, `function+offset` from the
//! firmware's symbols, executions, each counter's total under its event name), per
//! function (the sums over its blocks), as tables sorted by a chosen event, CSV, and
//! a disassembly with each block's counts beside its instructions.
pub mod bench;
pub mod command;
pub mod disasm;
pub mod elf;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::trace::{render, BlockTotal, Line};
use elf::Symbols;

/// Where a block is: in a function (with the offset from its symbol), in the
/// executable sections before any symbol, or outside them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// `function+offset`.
    Function(String, u64),
    /// In an executable section, before its first symbol.
    NoSymbol,
    /// Outside the ELF's executable sections (another program, or a wrong ELF).
    OutsideText,
}

impl Place {
    /// The function's name, or what stands for it.
    pub fn function(&self) -> &str {
        match self {
            Place::Function(name, _) => name,
            Place::NoSymbol => "(no symbol)",
            Place::OutsideText => "(outside text)",
        }
    }

    /// `function+0xoffset`, or what stands for it.
    pub fn text(&self) -> String {
        match self {
            Place::Function(name, 0) => name.clone(),
            Place::Function(name, offset) => format!("{name}+{offset:#x}"),
            other => other.function().to_string(),
        }
    }
}

/// One row of the profile: a block, or a function's sum over its blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The process (None before any NEW_PROCESS record).
    pub process: Option<u32>,
    /// The block's address (a function row: its first block's).
    pub address: u64,
    /// Where it is.
    pub place: Place,
    /// Blocks summed (1 for a block row).
    pub blocks: usize,
    /// Executions (records) summed.
    pub executions: u64,
    /// Each counter's total.
    pub totals: Vec<u128>,
}

/// What the tables are sorted by, largest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// The number of executions.
    Executions,
    /// Counter i's total.
    Counter(usize),
}

/// A profile: the counters' names, the blocks and the functions.
#[derive(Clone, Debug)]
pub struct Profile {
    /// One name per counter.
    pub names: Vec<String>,
    /// Every block, sorted.
    pub blocks: Vec<Row>,
    /// Every function, sorted.
    pub functions: Vec<Row>,
}

impl Profile {
    /// The profile of a trace's per-block totals with the firmware's `symbols`.
    pub fn new(totals: &[BlockTotal], symbols: &Symbols, names: Vec<String>, key: SortKey) -> Profile {
        let blocks: Vec<Row> = totals
            .iter()
            .map(|t| Row {
                process: t.process,
                address: t.address,
                place: match symbols.locate(t.address) {
                    Some((symbol, offset)) => Place::Function(symbol.name.clone(), offset),
                    None if symbols.in_text(t.address) => Place::NoSymbol,
                    None => Place::OutsideText,
                },
                blocks: 1,
                executions: t.executions as u64,
                totals: t.totals.clone(),
            })
            .collect();
        let mut functions: BTreeMap<(Option<u32>, String), Row> = BTreeMap::new();
        for block in &blocks {
            let key = (block.process, block.place.function().to_string());
            let row = functions.entry(key).or_insert_with(|| Row {
                place: match &block.place {
                    Place::Function(name, _) => Place::Function(name.clone(), 0),
                    other => other.clone(),
                },
                blocks: 0,
                executions: 0,
                totals: vec![0; block.totals.len()],
                ..block.clone()
            });
            row.address = row.address.min(block.address);
            row.blocks += 1;
            row.executions += block.executions;
            row.totals.iter_mut().zip(&block.totals).for_each(|(sum, v)| *sum += v);
        }
        let mut profile = Profile { names, blocks, functions: functions.into_values().collect() };
        for rows in [&mut profile.blocks, &mut profile.functions] {
            rows.sort_by(|a, b| {
                value(b, key).cmp(&value(a, key)).then((a.process, a.address).cmp(&(b.process, b.address)))
            });
        }
        profile
    }

    /// The per-block CSV: `pid,address,function,offset,executions,<event>...`.
    pub fn blocks_csv(&self) -> String {
        self.csv("pid,address,function,offset,executions", &self.blocks, |row| {
            let offset = match &row.place {
                Place::Function(_, offset) => format!("{offset:#x}"),
                _ => String::new(),
            };
            format!("0x{:08x},{},{offset},{}", row.address, row.place.function(), row.executions)
        })
    }

    /// The per-function CSV: `pid,function,address,blocks,executions,<event>...`.
    pub fn functions_csv(&self) -> String {
        self.csv("pid,function,address,blocks,executions", &self.functions, |row| {
            format!("{},0x{:08x},{},{}", row.place.function(), row.address, row.blocks, row.executions)
        })
    }

    fn csv(&self, header: &str, rows: &[Row], cells: impl Fn(&Row) -> String) -> String {
        let mut text = format!("{header},{}\n", self.names.join(","));
        for row in rows {
            let totals: Vec<String> = row.totals.iter().map(|t| t.to_string()).collect();
            writeln!(text, "{},{},{}", pid(row.process, ""), cells(row), totals.join(",")).unwrap();
        }
        text
    }

    /// The per-function table (every function).
    pub fn functions_table(&self) -> String {
        self.table(&["pid", "function", "blocks", "executions"], &self.functions, usize::MAX, |row| {
            vec![row.place.function().to_string(), row.blocks.to_string(), row.executions.to_string()]
        })
    }

    /// The per-block table: the first `top` blocks.
    pub fn blocks_table(&self, top: usize) -> String {
        self.table(&["pid", "address", "block", "executions"], &self.blocks, top, |row| {
            vec![format!("0x{:08x}", row.address), row.place.text(), row.executions.to_string()]
        })
    }

    fn table(&self, header: &[&str], rows: &[Row], top: usize, cells: impl Fn(&Row) -> Vec<String>) -> String {
        let mut head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        head.extend(self.names.iter().cloned());
        let mut lines: Vec<Line> = rows
            .iter()
            .take(top)
            .map(|row| {
                let mut line = vec![pid(row.process, "-")];
                line.extend(cells(row));
                line.extend(row.totals.iter().map(|t| t.to_string()));
                Line::Cells(line)
            })
            .collect();
        if rows.len() > top {
            lines.push(Line::Note(format!("... and {} more (all of them in the CSV)", rows.len() - top)));
        }
        render(head, lines)
    }
}

fn value(row: &Row, key: SortKey) -> u128 {
    match key {
        SortKey::Executions => row.executions as u128,
        SortKey::Counter(i) => row.totals.get(i).copied().unwrap_or(0),
    }
}

fn pid(process: Option<u32>, unknown: &str) -> String {
    process.map_or(unknown.to_string(), |p| p.to_string())
}
