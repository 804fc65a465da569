//! The `pmugen profile` command line (docs/soc.md §4.4): decode the trace as `trace
//! decode` does, name the blocks from the ELF, print the per-function table and the
//! top blocks sorted by an event, write blocks.csv, functions.csv and annotated.txt.
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

use super::elf::Symbols;
use super::{disasm, Profile, SortKey};
use crate::design::Artifact;
use crate::trace::input::StreamArgs;
use crate::trace::{column_names, totals};

/// `pmugen profile` arguments.
#[derive(Args, Clone, Debug)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub input: StreamArgs,
    /// The firmware that ran (an ELF with its symbols): names each block `function+offset`.
    #[arg(long, value_name = "FILE")]
    pub elf: PathBuf,
    /// Sort the tables by this counter's event (one of the counters' names), or by
    /// `executions` (default: the first counter).
    #[arg(long, value_name = "EVENT")]
    pub sort: Option<String>,
    /// How many blocks the block table shows (the CSV has all of them).
    #[arg(long, value_name = "N", default_value = "20")]
    pub top: usize,
    /// Where blocks.csv, functions.csv and annotated.txt go.
    #[arg(long, value_name = "DIR", default_value = "target/pmugen/profile")]
    pub out: PathBuf,
}

/// `--sort` as a key into `names`.
fn sort_key(sort: Option<&str>, names: &[String]) -> Result<SortKey> {
    match sort {
        None => Ok(SortKey::Counter(0)),
        Some(name) if name.eq_ignore_ascii_case("executions") => Ok(SortKey::Executions),
        Some(name) => match names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
            Some(i) => Ok(SortKey::Counter(i)),
            None => bail!(
                "--sort {name}: not a counter of this trace; give one of executions, {} (name the counters with \
                 --events, or with the record `pmugen soc run` writes beside the trace)",
                names.join(", ")
            ),
        },
    }
}

/// Profile, print, write; nothing is written when anything fails.
pub fn run(args: &ProfileArgs) -> Result<()> {
    let elf_name = args.elf.display().to_string();
    let bytes = std::fs::read(&args.elf).with_context(|| format!("--elf {elf_name}: cannot read it"))?;
    let symbols = Symbols::from_elf(&bytes, &elf_name)?;
    let stream = args.input.load()?;
    if let Some(ran) = &stream.firmware {
        let image = crate::soc::firmware::from_elf(&bytes, &elf_name)?;
        if crate::soc::programmed::image_hash(&image) != ran.hash {
            bail!(
                "--elf {elf_name}: not the firmware this trace was captured from: `soc run` ran {} (its record beside \
                 the trace says so); give that ELF",
                ran.name
            );
        }
    }
    let names = column_names(&stream.names, &stream.format, "counter");
    let key = sort_key(args.sort.as_deref(), &names)?;
    let profile = Profile::new(&totals(&stream.records), &symbols, names.clone(), key);
    let listing = disasm::objdump(&args.elf)?;
    let annotated = format!(
        "# {} annotated with the trace {} (docs/soc.md §4.4): each block's executions and counter totals\n\
         # beside its first instruction, `|` beside the rest of the block; disassembly by {}.\n{}",
        elf_name,
        args.input.stream.display(),
        disasm::OBJDUMP,
        disasm::annotate(&listing, &profile.blocks, &names)
    );
    let artifacts = [
        Artifact { name: "blocks.csv".into(), text: profile.blocks_csv() },
        Artifact { name: "functions.csv".into(), text: profile.functions_csv() },
        Artifact { name: "annotated.txt".into(), text: annotated },
    ];
    crate::generate::write_artifacts(&artifacts, &args.out)?;
    print!("{}", stream.summary());
    if symbols.is_empty() {
        println!("--elf {elf_name}: no code symbols (a stripped ELF?): blocks are named by address only");
    }
    let by = match key {
        SortKey::Executions => "executions".to_string(),
        SortKey::Counter(i) => names[i].clone(),
    };
    println!("\nFunctions, by {by}\n\n{}", profile.functions_table());
    println!("\nBlocks, by {by}\n\n{}", profile.blocks_table(args.top));
    let written: Vec<String> = artifacts.iter().map(|a| args.out.join(&a.name).display().to_string()).collect();
    println!("wrote {}", written.join(", "));
    Ok(())
}
