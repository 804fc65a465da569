//! `pmugen trace decode`: decode a captured trace stream (src/trace/input.rs) and write
//! the trace of blocks and the per-block totals as CSV, printing both as tables
//! (docs/pmu.md §13.6).
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

use super::input::StreamArgs;
use super::{totals, totals_csv, totals_table, trace_csv, trace_table};
use crate::design::Artifact;

/// `pmugen trace decode` arguments.
#[derive(Args, Clone, Debug)]
pub struct DecodeArgs {
    #[command(flatten)]
    pub input: StreamArgs,
    /// Where trace.csv and totals.csv go.
    #[arg(long, value_name = "DIR", default_value = "target/pmugen/trace")]
    pub out: PathBuf,
}

/// Decode, print the tables, write the CSVs; nothing is written when anything fails.
pub fn run(args: &DecodeArgs) -> Result<()> {
    let stream = args.input.load()?;
    let (format, names) = (&stream.format, &stream.names);
    let block_totals = totals(&stream.records);
    let artifacts = [
        Artifact { name: "trace.csv".into(), text: trace_csv(&stream.records, format, names) },
        Artifact { name: "totals.csv".into(), text: totals_csv(&block_totals, format, names) },
    ];
    crate::generate::write_artifacts(&artifacts, &args.out)?;
    print!("{}", stream.summary());
    println!("\nTrace of blocks\n\n{}", trace_table(&stream.records, format, names));
    println!("\nPer-block totals\n\n{}", totals_table(&block_totals, format, names));
    println!("wrote {} and {}", args.out.join("trace.csv").display(), args.out.join("totals.csv").display());
    Ok(())
}
