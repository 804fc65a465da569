//! The symbols of a firmware's ELF (32- or 64-bit, little endian), read with the
//! `object` crate so that `profile` names a block `function+offset` without cross binutils:
//! the code symbols (functions, and labels such as `_start`) of the executable
//! sections, and those sections' address ranges, so that a block outside them is
//! shown as such (docs/soc.md §4.4).
use anyhow::{anyhow, bail, Result};
use object::{elf, Object, ObjectSection, ObjectSymbol, SectionFlags, SymbolFlags};
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

impl Symbols {
    /// The symbols of the ELF `bytes` (read from the file `name`).
    pub fn from_elf(bytes: &[u8], name: &str) -> Result<Symbols> {
        if !bytes.starts_with(b"\x7fELF") {
            bail!("--elf {name}: not an ELF file (the firmware as `pmugen soc build` or the linker wrote it)");
        }
        if !matches!(bytes.get(4), Some(1 | 2)) {
            bail!("--elf {name}: ELF class {:?} is neither 32- nor 64-bit", bytes.get(4));
        }
        if bytes.get(5) != Some(&1) {
            bail!("--elf {name}: a big-endian ELF; RISC-V is little endian");
        }
        let file =
            object::File::parse(bytes).map_err(|e| anyhow!("--elf {name}: a truncated or malformed ELF ({e})"))?;
        let mut executable = Vec::new();
        let mut text = Vec::new();
        for section in file.sections() {
            if let SectionFlags::Elf { sh_flags } = section.flags() {
                if sh_flags & u64::from(elf::SHF_EXECINSTR) != 0 {
                    executable.push(section.index());
                    text.push(section.address()..section.address() + section.size());
                }
            }
        }
        if text.is_empty() {
            bail!("--elf {name}: the ELF has no executable section");
        }
        // (is a label rather than a function, is local, name length; the symbol)
        let mut found: Vec<((bool, bool, usize), Symbol)> = Vec::new();
        for symbol in file.symbols() {
            let SymbolFlags::Elf { st_info, .. } = symbol.flags() else { continue };
            let kind = st_info & 0xF;
            let in_code = symbol.section_index().is_some_and(|index| executable.contains(&index));
            if !(kind == elf::STT_FUNC || kind == elf::STT_NOTYPE) || !in_code {
                continue;
            }
            let name = String::from_utf8_lossy(symbol.name_bytes().unwrap_or_default()).into_owned();
            // Local labels and the RISC-V mapping symbols name no code of their own.
            if name.is_empty() || name.starts_with(".L") || name.starts_with('$') {
                continue;
            }
            let local = st_info >> 4 == elf::STB_LOCAL;
            found.push(((kind != elf::STT_FUNC, local, name.len()), Symbol { name, address: symbol.address() }));
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
