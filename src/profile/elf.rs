//! The symbols of a firmware's ELF (32- or 64-bit, little endian), read by pmugen
//! itself so that `profile` names a block `function+offset` without cross binutils:
//! the code symbols (functions, and labels such as `_start`) of the executable
//! sections, and those sections' address ranges, so that a block outside them is
//! shown as such (docs/soc.md §4.4).
use anyhow::{bail, Result};
use std::ops::Range;

/// A code symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Its name.
    pub name: String,
    /// Its address.
    pub address: u64,
}

/// The code symbols and executable ranges of an ELF.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// Sorted by address; at one address a function comes before a label.
    symbols: Vec<Symbol>,
    /// The executable sections' [address, address + size).
    text: Vec<Range<u64>>,
}

const SHT_SYMTAB: u32 = 2;
const SHF_EXECINSTR: u64 = 4;
const STT_NOTYPE: u8 = 0;
const STT_FUNC: u8 = 2;
const STB_LOCAL: u64 = 0;

/// Little-endian reads of a class-dependent layout.
struct Reader<'a> {
    bytes: &'a [u8],
    wide: bool,
    name: &'a str,
}

impl Reader<'_> {
    fn get(&self, at: usize, size: usize) -> Result<u64> {
        let Some(slice) = at.checked_add(size).and_then(|end| self.bytes.get(at..end)) else {
            bail!("{}: a truncated ELF (reading {size} bytes at {at:#x})", self.name);
        };
        Ok(slice.iter().rev().fold(0, |value, &byte| value << 8 | byte as u64))
    }
    /// An address-sized field: at `narrow` in a 32-bit ELF, `wide` in a 64-bit one.
    fn addr(&self, base: usize, narrow: usize, wide: usize) -> Result<u64> {
        if self.wide {
            self.get(base + wide, 8)
        } else {
            self.get(base + narrow, 4)
        }
    }
    fn string(&self, at: usize) -> Result<String> {
        let tail = self.bytes.get(at..).unwrap_or_default();
        let Some(end) = tail.iter().position(|&b| b == 0) else { bail!("{}: a truncated ELF string table", self.name) };
        Ok(String::from_utf8_lossy(&tail[..end]).into_owned())
    }
}

impl Symbols {
    /// The symbols of the ELF `bytes` (read from the file `name`).
    pub fn from_elf(bytes: &[u8], name: &str) -> Result<Symbols> {
        if !bytes.starts_with(b"\x7fELF") {
            bail!("--elf {name}: not an ELF file (the firmware as `pmugen soc build` or the linker wrote it)");
        }
        let wide = match bytes.get(4) {
            Some(1) => false,
            Some(2) => true,
            other => bail!("--elf {name}: ELF class {other:?} is neither 32- nor 64-bit"),
        };
        if bytes.get(5) != Some(&1) {
            bail!("--elf {name}: a big-endian ELF; RISC-V is little endian");
        }
        let r = Reader { bytes, wide, name };
        let shoff = r.addr(0, 32, 40)? as usize;
        let (entsize, count) = if wide { (r.get(58, 2)?, r.get(60, 2)?) } else { (r.get(46, 2)?, r.get(48, 2)?) };
        let section = |i: usize| shoff + i * entsize as usize;
        let mut executable = vec![false; count as usize];
        let mut text = Vec::new();
        // (is a label rather than a function, is local, name length; the symbol)
        let mut found: Vec<((bool, bool, usize), Symbol)> = Vec::new();
        for (i, exec) in executable.iter_mut().enumerate() {
            let flags = r.addr(section(i), 8, 8)?;
            if flags & SHF_EXECINSTR != 0 {
                *exec = true;
                let (address, size) = (r.addr(section(i), 12, 16)?, r.addr(section(i), 20, 32)?);
                text.push(address..address + size);
            }
        }
        for i in 0..count as usize {
            if r.get(section(i) + 4, 4)? as u32 != SHT_SYMTAB {
                continue;
            }
            let (offset, size) = (r.addr(section(i), 16, 24)? as usize, r.addr(section(i), 20, 32)? as usize);
            let strings = r.addr(section(r.get(section(i) + if wide { 40 } else { 24 }, 4)? as usize), 16, 24)?;
            let step = if wide { 24 } else { 16 };
            for at in (offset..offset + size).step_by(step) {
                let (info, shndx) = if wide {
                    (r.get(at + 4, 1)?, r.get(at + 6, 2)?)
                } else {
                    (r.get(at + 12, 1)?, r.get(at + 14, 2)?)
                };
                let kind = (info & 0xF) as u8;
                if !(kind == STT_FUNC || kind == STT_NOTYPE)
                    || !executable.get(shndx as usize).copied().unwrap_or(false)
                {
                    continue;
                }
                let name = r.string(strings as usize + r.get(at, 4)? as usize)?;
                // Local labels and the RISC-V mapping symbols name no code of their own.
                if name.is_empty() || name.starts_with(".L") || name.starts_with('$') {
                    continue;
                }
                let address = if wide { r.get(at + 8, 8)? } else { r.get(at + 4, 4)? };
                let local = info >> 4 == STB_LOCAL;
                found.push(((kind != STT_FUNC, local, name.len()), Symbol { name, address }));
            }
        }
        if text.is_empty() {
            bail!("--elf {name}: the ELF has no executable section");
        }
        // Of the symbols at one address, the name kept is a function's rather than a
        // label's, a global's rather than a local's, the shortest (aliases such as
        // libgcc's `__hidden___udivsi3` are longer), then the first in order.
        found.sort_by(|(a_rank, a), (b_rank, b)| (a.address, a_rank, &a.name).cmp(&(b.address, b_rank, &b.name)));
        found.dedup_by(|(_, later), (_, earlier)| later.address == earlier.address);
        Ok(Symbols { symbols: found.into_iter().map(|(_, symbol)| symbol).collect(), text })
    }

    /// The symbol `address` is in and the offset from it, or None for an address outside
    /// the executable sections (or before their first symbol): the nearest symbol at or
    /// below it, so that a function nested in another (libgcc's `__udivsi3` inside
    /// `__divsi3`) names its own blocks.
    pub fn locate(&self, address: u64) -> Option<(&Symbol, u64)> {
        if !self.in_text(address) {
            return None;
        }
        let index = self.symbols.partition_point(|s| s.address <= address).checked_sub(1)?;
        let symbol = &self.symbols[index];
        Some((symbol, address - symbol.address))
    }

    /// The address of the symbol `name`.
    pub fn address_of(&self, name: &str) -> Option<u64> {
        self.symbols.iter().find(|s| s.name == name).map(|s| s.address)
    }

    /// Whether `address` is in an executable section.
    pub fn in_text(&self, address: u64) -> bool {
        self.text.iter().any(|range| range.contains(&address))
    }

    /// Whether the ELF has no code symbol at all (a stripped firmware).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}
