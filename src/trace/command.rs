//! `pmugen trace decode`: read a captured trace stream (a hex word dump or a VCD of the
//! trace ports), decode it with the PMU's format (from the `<top>_design.json` that
//! `generate` writes, or from flags), and write the trace of blocks and the per-block
//! totals as CSV, printing both as tables (docs/pmu.md §13.6).
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

use super::{
    decode, totals, totals_csv, totals_table, trace_csv, trace_table, words_from_hex, words_from_vcd, TraceFormat,
};
use crate::design::Artifact;
use pmugen_hdl::params::{ADDRESS_WIDTH, COUNTERS, COUNTER_WIDTH, THREADS};

/// `pmugen trace decode` arguments.
#[derive(Args, Clone, Debug)]
pub struct DecodeArgs {
    /// The captured stream: a VCD (`.vcd`, with clock and trace_* signals) or a hex dump (one word per line).
    #[arg(value_name = "STREAM")]
    pub stream: PathBuf,
    /// The PMU's `<top>_design.json` written by `generate` (T, K, CW, AW).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["threads", "counters", "counter_width", "address_width"])]
    pub design: Option<PathBuf>,
    /// T, without --design.
    #[arg(long, value_name = "T")]
    pub threads: Option<u64>,
    /// K, without --design.
    #[arg(long, value_name = "K")]
    pub counters: Option<u64>,
    /// CW, without --design.
    #[arg(long = "counter-width", value_name = "CW")]
    pub counter_width: Option<u64>,
    /// AW, without --design (default 32).
    #[arg(long = "address-width", value_name = "AW")]
    pub address_width: Option<u64>,
    /// Where trace.csv and totals.csv go.
    #[arg(long, value_name = "DIR", default_value = "target/pmugen/trace")]
    pub out: PathBuf,
}

impl DecodeArgs {
    /// The stream format: from the design description, or from the flags.
    fn format(&self) -> Result<TraceFormat> {
        if let Some(path) = &self.design {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("--design {}: cannot read", path.display()))?;
            return TraceFormat::from_design_json(&text, &path.display().to_string()).map_err(|e| anyhow!(e));
        }
        let (Some(threads), Some(counters), Some(counter_width)) = (self.threads, self.counters, self.counter_width)
        else {
            bail!("give --design <top>_design.json (written by `pmugen generate pmu`), or --threads, --counters and --counter-width");
        };
        Ok(TraceFormat {
            threads: THREADS.check(threads)?,
            counters: COUNTERS.check(counters)?,
            counter_width: COUNTER_WIDTH.check(counter_width)?,
            address_width: ADDRESS_WIDTH.check(self.address_width.unwrap_or(32))?,
        })
    }
}

/// Decode, print the tables, write the CSVs; nothing is written when anything fails.
pub fn run(args: &DecodeArgs) -> Result<()> {
    let format = args.format()?;
    let path = args.stream.display().to_string();
    let text = std::fs::read_to_string(&args.stream).with_context(|| format!("{path}: cannot read the stream"))?;
    let is_vcd =
        args.stream.extension().is_some_and(|e| e.eq_ignore_ascii_case("vcd")) || text.trim_start().starts_with('$');
    let words =
        if is_vcd { words_from_vcd(&text, &path) } else { words_from_hex(&text, &path) }.map_err(|e| anyhow!(e))?;
    let records = decode(&words, &format).map_err(|e| anyhow!("{path}: {e}"))?;
    let block_totals = totals(&records);
    let artifacts = [
        Artifact { name: "trace.csv".into(), text: trace_csv(&records, &format) },
        Artifact { name: "totals.csv".into(), text: totals_csv(&block_totals, &format) },
    ];
    crate::generate::write_artifacts(&artifacts, &args.out)?;
    println!(
        "{} words, {} records ({} threads, K = {}, CW = {}, AW = {})",
        words.len(),
        records.len(),
        format.threads,
        format.counters,
        format.counter_width,
        format.address_width
    );
    println!("\nTrace of blocks\n\n{}", trace_table(&records, &format));
    println!("\nPer-block totals\n\n{}", totals_table(&block_totals, &format));
    println!("wrote {} and {}", args.out.join("trace.csv").display(), args.out.join("totals.csv").display());
    Ok(())
}
