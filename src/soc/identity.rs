//! Which simulated system a command describes (docs/soc.md §2): `--cpu`,
//! `--profile-entries E` and `--sink-words S`, which `soc`, `soc build` and `soc run`
//! take alike, and the
//! note that says which system a firmware was built for. `soc build` writes the
//! runtime's `soc_system.h` for the system of its flags; the runtime's start.S puts its
//! `SOC_SYSTEM` string into the ELF's section `.pmugen_soc` (not loaded), from which
//! `soc run` takes the system when no flag names it, and refuses flags that name
//! another one.
use anyhow::{bail, Result};
use clap::Args;

use super::config::SocConfig;
use super::cpu::Cpu;
use crate::design::Artifact;
use pmugen_hdl::params::{NotPowerOfTwo, Parameter};
use pmugen_hdl::pmu::params::check_profile_entries;

/// S: words of the simulated system's trace sink.
pub const SINK_WORDS: Parameter = Parameter { flag: "--sink-words", name: "S", min: 1024, max: 1 << 24 };

/// The ELF section that holds the note.
const SECTION: &str = ".pmugen_soc";

/// The sizes of the simulated system, as `soc`, `soc build` and `soc run` take them.
#[derive(Args, Clone, Debug, Default)]
pub struct SystemArgs {
    /// The CPU: picorv32 (the reference), serv or ibex (docs/soc.md §2.9) [default:
    /// picorv32]. `soc run` takes it from the firmware's ELF when not given.
    #[arg(long, value_name = "CPU", value_parser = super::command::parse_cpu)]
    pub cpu: Option<Cpu>,
    /// Entries E of the PMU's profile table: 0 (none) or a power of 2 in 16..=4096
    /// [default: 1024]. `soc run` takes it from the firmware's ELF when not given; with
    /// --board, only systems with this table are tried (default: 256, then none).
    #[arg(long, value_name = "E")]
    pub profile_entries: Option<u64>,
    /// Words S of the trace sink: a power of 2 in 1024..=16777216 [default: 1048576].
    /// `soc run` takes it from the firmware's ELF when not given.
    #[arg(long, value_name = "S")]
    pub sink_words: Option<u64>,
}

impl SystemArgs {
    /// The system the flags describe, the others' values from `base`; refused naming
    /// the flag.
    pub fn config(&self, base: &SocConfig) -> Result<SocConfig> {
        let mut config = *base;
        if let Some(cpu) = self.cpu {
            config.cpu = cpu;
        }
        if let Some(entries) = self.profile_entries {
            config.profile_entries = check_profile_entries(entries)?;
        }
        if let Some(words) = self.sink_words {
            config.sink_words = check_sink_words(words)?;
        }
        config.checked()
    }

    /// The system a firmware runs on: the flags' values, else those of the firmware's
    /// `note` (from [`read_note`]), else the reference system's. A flag that contradicts
    /// the note is refused, naming both.
    pub fn for_firmware(&self, note: Option<&str>, firmware: &str) -> Result<SocConfig> {
        let Some(note) = note else { return self.config(&SocConfig::REFERENCE) };
        let built = parse_note(note).map_err(|why| anyhow::anyhow!("firmware {firmware}: {why}"))?;
        if let Some(cpu) = self.cpu.filter(|cpu| *cpu != built.cpu) {
            bail!(
                "--cpu {cpu}: firmware {firmware} was built for the system with {} (its runtime says so); run it \
                 without --cpu, or rebuild it with `pmugen soc build ... --cpu {cpu}`",
                flags(&built)
            );
        }
        for (flag, given, value) in [
            ("--profile-entries", self.profile_entries, built.profile_entries),
            ("--sink-words", self.sink_words, built.sink_words),
        ] {
            if given.is_some_and(|given| given != value as u64) {
                bail!(
                    "{flag} {}: firmware {firmware} was built for the system with {} (its runtime says so); run it \
                     without {flag}, or rebuild it with `pmugen soc build ... {flag} {}`",
                    given.unwrap_or_default(),
                    flags(&built),
                    given.unwrap_or_default()
                );
            }
        }
        let given = SystemArgs {
            cpu: Some(built.cpu),
            profile_entries: Some(built.profile_entries as u64),
            sink_words: Some(built.sink_words as u64),
        };
        given.config(&SocConfig::REFERENCE)
    }
}

/// S checked: in 1024..=2^24 and a power of 2, refused naming `--sink-words`.
pub fn check_sink_words(value: u64) -> Result<usize> {
    let words = SINK_WORDS.check(value)?;
    if !words.is_power_of_two() {
        let (flag, name, min, max) = (SINK_WORDS.flag, SINK_WORDS.name, SINK_WORDS.min, SINK_WORDS.max);
        bail!(NotPowerOfTwo { flag, name, value, min, max });
    }
    Ok(words)
}

/// The flags that select `config`'s system.
pub fn flags(config: &SocConfig) -> String {
    format!(
        "--cpu {} --profile-entries {} --sink-words {}",
        config.cpu.name(),
        config.profile_entries,
        config.sink_words
    )
}

/// `runtime/soc_system.h`: the system's sizes for C and for start.S, which keeps
/// `SOC_SYSTEM` in the ELF.
pub fn header(config: &SocConfig) -> Artifact {
    let text = format!(
        "/* soc_system.h: the system this runtime was generated for (docs/soc.md §2.4), by pmugen {}.\n \
         * start.S keeps SOC_SYSTEM in the ELF's section {SECTION}, from which `pmugen soc run` takes\n \
         * the system to run the firmware on. Do not edit; `pmugen soc build` rewrites it. */\n\
         #ifndef PMUGEN_SOC_SYSTEM_H\n#define PMUGEN_SOC_SYSTEM_H\n\
         #define SOC_PROFILE_ENTRIES {} /* E: entries of the PMU's profile table (0: none) */\n\
         #define SOC_SINK_WORDS {} /* S: words the trace sink holds */\n\
         #define SOC_SYSTEM \"pmugen_soc {}\"\n#endif\n",
        env!("CARGO_PKG_VERSION"),
        config.profile_entries,
        config.sink_words,
        flags(config)
    );
    Artifact { name: "runtime/soc_system.h".into(), text }
}

/// The system a note names: its CPU, E and S.
fn parse_note(note: &str) -> Result<SocConfig, String> {
    let mut words = note.split_whitespace();
    let mut config = SocConfig::REFERENCE;
    if words.next() != Some("pmugen_soc") {
        return Err(format!("its {SECTION} section (\"{note}\") is not a note of pmugen's runtime"));
    }
    let unknown = |flag: &str| format!("its {SECTION} section (\"{note}\") names an unknown value of `{flag}`");
    while let Some(flag) = words.next() {
        let value = words.next().unwrap_or_default();
        let number = || value.parse::<usize>().map_err(|_| unknown(flag));
        match flag {
            "--cpu" => config.cpu = value.parse().map_err(|_: String| unknown(flag))?,
            "--profile-entries" => config.profile_entries = number()?,
            "--sink-words" => config.sink_words = number()?,
            _ => return Err(format!("its {SECTION} section (\"{note}\") names an unknown size `{flag}`")),
        }
    }
    Ok(config)
}

/// The note of an RV32 ELF's section `.pmugen_soc` (up to its first NUL), or None
/// when it has none (not built against pmugen's runtime) or is not an ELF.
pub fn read_note(bytes: &[u8]) -> Option<String> {
    use object::{Object, ObjectSection};
    let file = object::read::elf::ElfFile32::<object::endian::LittleEndian>::parse(bytes).ok()?;
    let text = file.section_by_name(SECTION)?.data().ok()?;
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    Some(String::from_utf8_lossy(&text[..end]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_the_system_and_contradicting_flags_are_refused() {
        let note = "pmugen_soc --cpu serv --profile-entries 256 --sink-words 4096";
        let none = SystemArgs::default();
        let config = none.for_firmware(Some(note), "f.elf").unwrap();
        assert_eq!((config.cpu, config.profile_entries, config.sink_words), (Cpu::Serv, 256, 4096));
        let same = SystemArgs { profile_entries: Some(256), ..Default::default() };
        assert_eq!(same.for_firmware(Some(note), "f.elf").unwrap(), config);
        let other = SystemArgs { profile_entries: Some(0), ..Default::default() };
        let e = other.for_firmware(Some(note), "f.elf").unwrap_err().to_string();
        assert!(
            e.starts_with(
                "--profile-entries 0: firmware f.elf was built for the system with --cpu serv --profile-entries 256"
            ),
            "{e}"
        );
        let ibex = SystemArgs { cpu: Some(Cpu::Ibex), ..Default::default() };
        let e = ibex.for_firmware(Some(note), "f.elf").unwrap_err().to_string();
        assert!(e.starts_with("--cpu ibex: firmware f.elf was built for the system with --cpu serv"), "{e}");
        assert_eq!(none.for_firmware(None, "f.hex").unwrap(), SocConfig::REFERENCE);
        let e = none.for_firmware(Some("pmugen_soc --cores 2"), "f.elf").unwrap_err().to_string();
        assert!(e.contains("unknown size `--cores`"), "{e}");
    }

    #[test]
    fn sink_words_and_profile_entries_are_refused_naming_the_flag() {
        for (words, text) in
            [(3000, "not a power of 2"), (512, "out of range 1024..=16777216"), (1 << 25, "out of range")]
        {
            let e = SystemArgs { sink_words: Some(words), ..Default::default() };
            let e = e.config(&SocConfig::REFERENCE).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--sink-words (S) = {words}")) && e.contains(text), "{e}");
        }
        let e = SystemArgs { profile_entries: Some(100), ..Default::default() };
        let e = e.config(&SocConfig::REFERENCE).unwrap_err().to_string();
        assert!(e.starts_with("--profile-entries (E) = 100"), "{e}");
    }
}
