//! Firmware images for the reference SoC (docs/soc.md §2.5): an ELF (RV32, little
//! endian) or a `$readmemh` word file, checked and turned into the RAM's 32-bit words,
//! and the hex file the simulation loads (`+firmware=PATH`). pmugen converts an ELF
//! itself (with the `object` crate), from its loadable segments, so running needs no
//! cross binutils.
use anyhow::{bail, Context, Result};
use object::elf;
use object::endian::LittleEndian;
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use std::fmt::Write as _;
use std::path::Path;

use super::map;

/// The RAM image of the firmware file `path` (an ELF or a hex word file), checked:
/// a missing, empty or malformed file, an ELF that is not RV32 or does not fit in RAM,
/// is refused naming the file and the value.
pub fn load(path: &Path) -> Result<Vec<u32>> {
    let bytes = std::fs::read(path).with_context(|| format!("firmware {}: cannot read it", path.display()))?;
    if bytes.is_empty() {
        bail!("firmware {}: the file is empty (give an ELF or a $readmemh hex file of 32-bit words)", path.display());
    }
    let name = path.display().to_string();
    if bytes.starts_with(b"\x7fELF") {
        from_elf(&bytes, &name)
    } else {
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!("firmware {name}: neither an ELF nor a text hex file (it holds bytes that are not UTF-8)")
        })?;
        from_hex(&text, &name)
    }
}

/// The RAM words of the loadable segments of an RV32 ELF (physical addresses).
pub fn from_elf(bytes: &[u8], name: &str) -> Result<Vec<u32>> {
    match bytes.get(4) {
        Some(1) => {}
        Some(2) => bail!(
            "firmware {name}: a 64-bit ELF (ELFCLASS64); the SoC's PicoRV32 is RV32: build with -march=rv32i \
             -mabi=ilp32 (pmugen soc build does)"
        ),
        other => bail!("firmware {name}: ELF class {other:?} is neither 32- nor 64-bit"),
    }
    if bytes.get(5) != Some(&1) {
        bail!("firmware {name}: a big-endian ELF; RISC-V is little endian");
    }
    let truncated = || anyhow::anyhow!("firmware {name}: a truncated ELF");
    let file = ElfFile32::<LittleEndian>::parse(bytes)
        .map_err(|e| anyhow::anyhow!("firmware {name}: a truncated or malformed ELF ({e})"))?;
    let machine = file.elf_header().e_machine(LittleEndian);
    if machine != elf::EM_RISCV {
        bail!("firmware {name}: ELF machine {machine} is not RISC-V ({})", elf::EM_RISCV);
    }
    let mut image = vec![0u8; map::RAM_BYTES as usize];
    let mut end = 0usize;
    for (index, segment) in file.elf_program_headers().iter().enumerate() {
        if segment.p_type(LittleEndian) != elf::PT_LOAD {
            continue;
        }
        let (address, memory_size) = (segment.p_paddr(LittleEndian), segment.p_memsz(LittleEndian));
        let segment_end = address as u64 + memory_size as u64;
        if segment_end > map::RAM_BYTES as u64 {
            bail!(
                "firmware {name}: segment {index} at {address:#010x} of {memory_size} bytes ends at {segment_end:#x}, \
                 beyond the 64 KiB RAM (0x0-0xffff)"
            );
        }
        let data = segment.data(LittleEndian, bytes).map_err(|()| truncated())?;
        image[address as usize..address as usize + data.len()].copy_from_slice(data);
        end = end.max(address as usize + data.len());
    }
    if end == 0 {
        bail!("firmware {name}: the ELF has no loadable bytes");
    }
    Ok(image[..end.div_ceil(4) * 4].chunks(4).map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes"))).collect())
}

/// The RAM words of a `$readmemh` file of 32-bit words: hex words of up to 8 digits
/// separated by white space, `//` comments, `@ADDRESS` (a word address) to move on.
pub fn from_hex(text: &str, name: &str) -> Result<Vec<u32>> {
    let mut image = Vec::new();
    let mut address = 0usize;
    let mut words = 0usize;
    for (number, line) in text.lines().enumerate() {
        let line_number = number + 1;
        let code = line.split("//").next().unwrap_or("");
        for token in code.split_whitespace() {
            let bad = |why: &str| anyhow::anyhow!("firmware {name}:{line_number}: \"{token}\": {why}");
            if let Some(target) = token.strip_prefix('@') {
                address = usize::from_str_radix(target, 16).map_err(|_| bad("not a hex word address"))?;
                continue;
            }
            if token.len() > 8 {
                return Err(bad("more than 8 hex digits (the RAM's words are 32 bits)"));
            }
            let word = u32::from_str_radix(token, 16).map_err(|_| bad("not a hex number"))?;
            if address >= map::RAM_WORDS {
                return Err(bad(&format!(
                    "word address {address:#x} is beyond the 64 KiB RAM ({:#x} words)",
                    map::RAM_WORDS
                )));
            }
            if image.len() <= address {
                image.resize(address + 1, 0);
            }
            image[address] = word;
            address += 1;
            words += 1;
        }
    }
    if words == 0 {
        bail!("firmware {name}: no words (a $readmemh file holds 32-bit hex words, one per line)");
    }
    Ok(image)
}

/// The image as the RAM loads it: one 8-digit hex word per line.
pub fn hex(words: &[u32]) -> String {
    let mut text = String::with_capacity(words.len() * 9);
    for word in words {
        let _ = writeln!(text, "{word:08x}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_files_are_read_with_addresses_and_comments() {
        let words = from_hex("// image\n00000013 deadbeef\n@4\n1 // the fifth word\n", "f.hex").unwrap();
        assert_eq!(words, vec![0x13, 0xdead_beef, 0, 0, 1]);
        assert_eq!(hex(&words[..2]), "00000013\ndeadbeef\n");
    }

    #[test]
    fn bad_hex_names_the_file_and_line() {
        let err = from_hex("00000013\n0000xyz\n", "f.hex").unwrap_err().to_string();
        assert_eq!(err, "firmware f.hex:2: \"0000xyz\": not a hex number");
        let err = from_hex("123456789\n", "f.hex").unwrap_err().to_string();
        assert!(err.starts_with("firmware f.hex:1: \"123456789\": more than 8 hex digits"), "{err}");
        let err = from_hex("@4000\n1\n", "f.hex").unwrap_err().to_string();
        assert!(err.contains("beyond the 64 KiB RAM"), "{err}");
        let err = from_hex("// nothing\n\n", "f.hex").unwrap_err().to_string();
        assert!(err.contains("no words"), "{err}");
    }

    /// A minimal ELF (version 1) with one PT_LOAD program header.
    fn elf(class: u8, machine: u16, address: u32, data: &[u8], memory_size: u32) -> Vec<u8> {
        let mut bytes = vec![0u8; 84];
        bytes[..4].copy_from_slice(b"\x7fELF");
        bytes[4] = class;
        bytes[5] = 1;
        bytes[6] = 1;
        bytes[18..20].copy_from_slice(&machine.to_le_bytes());
        bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
        bytes[40..42].copy_from_slice(&52u16.to_le_bytes());
        bytes[28..32].copy_from_slice(&52u32.to_le_bytes());
        bytes[42..44].copy_from_slice(&32u16.to_le_bytes());
        bytes[44..46].copy_from_slice(&1u16.to_le_bytes());
        let header = [1, 84, address, address, data.len() as u32, memory_size];
        for (i, value) in header.iter().enumerate() {
            bytes[52 + 4 * i..56 + 4 * i].copy_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(data);
        bytes
    }

    #[test]
    fn elf_segments_become_words() {
        let words = from_elf(&elf(1, 243, 8, &[0x13, 0, 0, 0, 0xef], 5), "f.elf").unwrap();
        assert_eq!(words, vec![0, 0, 0x13, 0xef]);
    }

    #[test]
    fn elfs_that_cannot_run_are_refused_naming_the_value() {
        let err = from_elf(&elf(2, 243, 0, &[1, 2, 3, 4], 4), "f.elf").unwrap_err().to_string();
        assert!(err.contains("64-bit ELF"), "{err}");
        let err = from_elf(&elf(1, 62, 0, &[1, 2, 3, 4], 4), "f.elf").unwrap_err().to_string();
        assert!(err.contains("ELF machine 62 is not RISC-V"), "{err}");
        let err = from_elf(&elf(1, 243, 0xfff0, &[1, 2, 3, 4], 0x20), "f.elf").unwrap_err().to_string();
        assert!(err.contains("at 0x0000fff0 of 32 bytes ends at 0x10010, beyond the 64 KiB RAM"), "{err}");
        // A cut file is refused, in its segment's bytes or in its headers.
        let whole = elf(1, 243, 0, &[1, 2, 3, 4], 4);
        let err = from_elf(&whole[..86], "f.elf").unwrap_err().to_string();
        assert_eq!(err, "firmware f.elf: a truncated ELF");
        let err = from_elf(&whole[..60], "f.elf").unwrap_err().to_string();
        assert!(err.starts_with("firmware f.elf: a truncated or malformed ELF ("), "{err}");
    }
}
