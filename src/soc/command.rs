//! The `pmugen soc` command line (docs/soc.md §2): generate the reference SoC (and
//! build the example firmware), `soc build` C firmware, `soc run` a firmware image.
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

use super::cflags::CompileArgs;
use super::config::SocConfig;
use super::cpu::Cpu;
use super::identity::{self, SystemArgs};
use super::{compile, firmware, run, system_for};
use pmugen_hdl::pmu::params::check_profile_entries;

/// The example firmware of examples/soc/*.c, embedded (listed by build.rs).
const EXAMPLES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/soc_examples.rs"));

/// The default output directory.
pub const DEFAULT_OUT: &str = "target/pmugen/soc";

/// `pmugen soc [--out DIR]` and its actions.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SocArgs {
    #[command(subcommand)]
    pub action: Option<SocAction>,
    /// Output directory: the SoC's Verilog, drivers, runtime and example firmware
    /// (default target/pmugen/soc; with --board, target/pmugen/soc-<board>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Build the SoC for a board instead (docs/soc.md §5): the largest configuration
    /// that fits, with the firmware board.c, its bitstream and an area report.
    #[arg(long, value_enum, value_name = "BOARD")]
    pub board: Option<crate::build::BoardName>,
    /// With --board: the yosys and nextpnr, current (the pinned YoWASP packages, the
    /// default) or debian.
    #[arg(long, value_enum, value_name = "TOOLS", default_value = "current", requires = "board")]
    pub toolchain: crate::toolchain::Toolchain,
    /// With --board: place only (no routing, no Fmax, no bitstream, no per-part report).
    #[arg(long, requires = "board")]
    pub no_fmax: bool,
    /// With --board: build only the system with this many PMU counters (1, 2 or 4)
    /// instead of trying from the largest down.
    #[arg(long, value_name = "K", requires = "board", value_parser = clap::value_parser!(u8).range(1..=4))]
    pub counters: Option<u8>,
    /// With --board and --counters: without the monitor.
    #[arg(long, requires = "counters")]
    pub no_monitor: bool,
    /// With --board: simulate the system (the largest, or the largest that --counters and
    /// --profile-entries leave) with its firmware under Verilator instead of building it,
    /// printing what the UART sends.
    #[arg(long, requires = "board")]
    pub simulate: bool,
    #[command(flatten)]
    pub system: SystemArgs,
}

/// What `pmugen soc` does besides generating.
#[derive(Subcommand, Debug)]
pub enum SocAction {
    /// Compile C firmware for the SoC (rv32i, freestanding) against the runtime and the
    /// PMU's and monitor's drivers: DIR/NAME.elf and DIR/NAME.hex.
    #[command(after_help = "Example:\n  pmugen soc build examples/soc/first.c --out target/pmugen/soc\n  \
                            pmugen soc run target/pmugen/soc/first.elf\n  \
                            pmugen soc build src/main.c lib/stats.c -I include -DSAMPLES=40 -O2 --out build")]
    Build(BuildArgs),
    /// Run a firmware image (ELF or $readmemh hex) on the SoC under Verilator until it
    /// exits: the console on stdout, the firmware's exit code as pmugen's.
    #[command(
        after_help = "Example:\n  pmugen soc run target/pmugen/soc/examples/count.elf --rvfi-log target/count.rvfi\n  \
                            pmugen trace decode target/pmugen/soc/trace.hex --design target/pmugen/soc/pmu_riscv_t1_k4_c40_p1024_rvfi_picorv32_design.json"
    )]
    Run(RunArgs),
}

/// `pmugen soc build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The C (.c) and assembly (.S, .s) sources of one program, in any folders.
    #[arg(value_name = "SOURCE", required = true)]
    pub sources: Vec<PathBuf>,
    /// Output directory (the drivers, the runtime with soc.mk and the PMU's description are written there too).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// The program's name (default: the first source's file stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    #[command(flatten)]
    pub flags: CompileArgs,
    #[command(flatten)]
    pub system: SystemArgs,
}

/// `pmugen soc run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The firmware: an RV32 ELF or a $readmemh file of 32-bit hex words.
    #[arg(value_name = "FIRMWARE")]
    pub firmware: PathBuf,
    /// Output directory: the Verilator model's cache (DIR/verilator), the PMU's
    /// description (for --design) and the default trace file.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// The captured trace words, every word the sink took, one 64-bit hex word per line
    /// (default DIR/trace.hex).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Write the retirement log: one line per retired instruction (docs/soc.md §2.5).
    #[arg(long, value_name = "FILE")]
    pub rvfi_log: Option<PathBuf>,
    /// Stop with an error after this many cycles without an exit (writing the trace and
    /// the log up to there).
    #[arg(long, value_name = "N", default_value = "200000000", value_parser = crate::flags::parse_cycles)]
    pub max_cycles: u64,
    #[command(flatten)]
    pub system: SystemArgs,
}

/// `--cpu`.
pub fn parse_cpu(text: &str) -> Result<Cpu, String> {
    text.parse()
}

/// Run `pmugen soc ...`; returns the process's exit code.
pub fn main(args: SocArgs) -> Result<i32> {
    if let Some(name) = args.board {
        if args.system.cpu == Some(Cpu::Ibex) {
            bail!(
                "--cpu ibex: the board flow reads Verilog-2005 (PicoRV32, SERV); Ibex is SystemVerilog with a \
                 latch-based clock gate, simulated only (docs/soc.md §2.9)"
            );
        }
        if args.system.sink_words.is_some() {
            bail!(
                "--sink-words sizes the simulated system; a board system's sink is the smallest of block RAM \
                 (docs/soc.md §5.2)"
            );
        }
        let board = crate::build::board(name.name())?;
        if board.family != crate::report::family::Family::Ice40 {
            anyhow::bail!(
                "--board {}: the system-on-chip's board flow covers the iCE40 boards (icebreaker, hx8k); \
                 `pmugen build --board {}` builds the monitor's board top for it",
                board.name,
                board.name
            );
        }
        let out = args.out.unwrap_or_else(|| PathBuf::from(format!("{DEFAULT_OUT}-{}", board.name)));
        let selection = super::board::candidates::Selection {
            counters: args.counters.map(|k| (k as usize, !args.no_monitor)),
            profile_entries: args.system.profile_entries.map(check_profile_entries).transpose()?,
        };
        if args.simulate {
            print!(
                "{}",
                super::board::simulate::simulate(
                    &board,
                    &out.join("simulation"),
                    selection,
                    50_000_000,
                    args.system.cpu.unwrap_or_default()
                )?
            );
            return Ok(0);
        }
        let summary = super::board::build(
            &board,
            &out,
            !args.no_fmax,
            selection,
            args.toolchain,
            args.system.cpu.unwrap_or_default(),
        )?;
        print!("{}", summary.markdown);
        println!("wrote {}", out.display());
        return Ok(0);
    }
    match args.action {
        None => {
            let config = args.system.config(&SocConfig::REFERENCE)?;
            generate(&args.out.unwrap_or_else(|| PathBuf::from(DEFAULT_OUT)), &config).map(|()| 0)
        }
        Some(SocAction::Build(build)) => {
            let name = match &build.name {
                Some(name) => name.clone(),
                None => build.sources[0].file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            };
            if name.is_empty() || name.contains(['/', '\\']) {
                bail!("--name '{name}': give a plain file name");
            }
            compile::check_sources(&build.sources)?;
            build.flags.check()?;
            let config = build.system.config(&SocConfig::REFERENCE)?;
            // The drivers and the runtime beside the program, as `pmugen soc` writes them.
            compile::write_files(&super::firmware_files(&config)?, &build.out)?;
            let built = compile::build_with(&build.sources, &build.out, &build.out, &name, config.cpu, &build.flags)?;
            println!("wrote {} and {} ({} bytes)", built.elf.display(), built.hex.display(), built.bytes);
            Ok(0)
        }
        Some(SocAction::Run(run)) => run_firmware(&run),
    }
}

/// Output directory check, as `generate` does it.
fn output_dir(out: &Path) -> Result<()> {
    crate::generate::output_dir(out, "--out")
}

/// `pmugen soc`: the SoC's files, then the example firmware.
fn generate(out: &Path, config: &SocConfig) -> Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("--out {}: is a file, not a directory", out.display());
    }
    let system = system_for(config)?;
    output_dir(out)?;
    compile::write_files(&system.files, out)?;
    println!(
        "wrote {} (and {} more files: the PMU, the monitor, {}, drivers, runtime)",
        out.join("pmugen_soc.v").display(),
        system.files.len() - 1,
        config.cpu
    );
    let examples = out.join("examples");
    let sources = examples.join("src");
    for (name, text) in EXAMPLES {
        compile::write_files(
            &[crate::design::Artifact { name: format!("{name}.c"), text: text.to_string() }],
            &sources,
        )?;
        let built = compile::build(&[sources.join(format!("{name}.c"))], out, &examples, name, config.cpu)?;
        println!("wrote {} ({} bytes)", built.elf.display(), built.bytes);
    }
    Ok(())
}

/// A path given for a file that is a directory is refused naming its flag.
fn file_flag(flag: &str, path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{flag} {}: is a directory; give a file name", path.display());
    }
    Ok(())
}

/// `pmugen soc run`.
fn run_firmware(args: &RunArgs) -> Result<i32> {
    // Everything the user gave is checked before anything is written.
    args.system.config(&SocConfig::REFERENCE)?;
    let image = firmware::load(&args.firmware)?;
    let note = std::fs::read(&args.firmware).ok().and_then(|bytes| identity::read_note(&bytes));
    let config = args.system.for_firmware(note.as_deref(), &args.firmware.display().to_string())?;
    let trace = args.trace.clone().unwrap_or_else(|| args.out.join("trace.hex"));
    file_flag("--trace", &trace)?;
    if let Some(log) = &args.rvfi_log {
        file_flag("--rvfi-log", log)?;
    }
    if args.out.exists() && !args.out.is_dir() {
        bail!("--out {}: is a file, not a directory", args.out.display());
    }
    let system = system_for(&config)?;
    output_dir(&args.out)?;
    // The PMU's description beside the model, for `trace decode` and `profile` (--design).
    compile::write_files(
        &system.files.iter().filter(|f| f.name.ends_with(".json")).cloned().collect::<Vec<_>>(),
        &args.out,
    )?;
    let exe = run::model(&system, &args.out)?;
    let files = run::RunFiles { trace, rvfi_log: args.rvfi_log.clone() };
    let summary = run::run(
        &exe,
        &image,
        &args.out,
        &files,
        &super::pmu_info(&config)?,
        args.max_cycles,
        &args.firmware.display().to_string(),
    )?;
    let rate = summary.cycles as f64 / summary.seconds.max(1e-9);
    let mut written = vec![files.trace.display().to_string()];
    let record = super::programmed::record_path(&files.trace);
    written.extend(record.is_file().then(|| record.display().to_string()));
    written.extend(files.rvfi_log.iter().map(|p| p.display().to_string()));
    let written = written.join(", ");
    let words = summary.trace_words;
    match summary.outcome {
        run::Outcome::Exit(code) => {
            eprintln!(
                "soc: exit code {code} after {} cycles, {} instructions, {words} trace words ({:.2} M cycles/s); wrote \
                 {written}",
                summary.cycles,
                summary.retired,
                rate / 1e6,
            );
            // A process exit code has 8 bits: a larger code is reported as 255.
            Ok(if code > 255 { 255 } else { code as i32 })
        }
        run::Outcome::Trap { pc } => bail!(
            "{}: PicoRV32 stopped (its trap output) at cycle {} after the instruction at {pc:#010x}: an illegal \
             instruction, EBREAK/ECALL or a misaligned access while IRQ 1 or 2 was masked or being handled; wrote \
             what the run made up to there ({words} trace words): {written}",
            args.firmware.display(),
            summary.cycles
        ),
        run::Outcome::Limit => bail!(
            "{}: no exit within --max-cycles {} ({} instructions retired); raise it with --max-cycles N, or make the \
             firmware store to the exit register (0x10000004); wrote what the run made up to the limit ({words} trace \
             words): {written}",
            args.firmware.display(),
            args.max_cycles,
            summary.retired
        ),
    }
}
