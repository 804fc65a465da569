//! The input of `trace decode` and `profile`: a captured trace stream (a hex word dump
//! or a VCD of the trace ports), its format (from the `<top>_design.json` that
//! `generate` writes, or from flags) and the counters' event names, read and decoded
//! into records, or refused naming the file, line or word (docs/pmu.md §13.6).
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

use super::summary::starts_capture;
use super::{decode_partial, words_from_hex, words_from_vcd, Record, TraceFormat, Word};
use pmugen_hdl::params::{ADDRESS_WIDTH, COUNTERS, COUNTER_WIDTH, THREADS};

/// The captured stream and how to read it: the arguments `trace decode` and `profile`
/// share.
#[derive(Args, Clone, Debug)]
pub struct StreamArgs {
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
    /// The event each counter counted, K names in counter order (e.g.
    /// INSTRET,LOAD,STORE,BRANCH_TAKEN): the column names of the tables and CSVs. Without
    /// it, the names `pmugen soc run` recorded beside the stream (`<stream>.events.json`),
    /// else v0.. and total0... With --design, checked against the `<top>_events.json`
    /// beside it.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub events: Vec<String>,
    /// Decode a damaged capture as far as it goes: the complete records before the
    /// first malformed word or incomplete record (and before a cut last line of a hex
    /// dump), the rest reported instead of refused.
    #[arg(long)]
    pub partial: bool,
}

impl StreamArgs {
    /// The text of `--design`, read once for the format and the event names. A missing
    /// file is refused saying which commands write one, and naming the descriptions
    /// that are in its directory.
    fn design_text(&self) -> Result<Option<String>> {
        let Some(path) = &self.design else { return Ok(None) };
        if !path.exists() {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            let mut there: Vec<String> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with("_design.json"))
                .collect();
            there.sort();
            let found = match there.is_empty() {
                true => format!("{} holds none", dir.display()),
                false => format!("{} holds {}", dir.display(), there.join(", ")),
            };
            bail!(
                "--design {}: no such file ({found}). `pmugen generate pmu` writes <top>_design.json beside the PMU's \
                 Verilog; `pmugen soc`, `soc build` and `soc run` write the SoC's PMU's into their --out directory \
                 (its name holds the PMU's sizes, e.g. pmu_riscv_t1_k4_c40_p1024_rvfi_design.json)",
                path.display()
            );
        }
        let text =
            std::fs::read_to_string(path).with_context(|| format!("--design {}: cannot read", path.display()))?;
        Ok(Some(text))
    }

    /// The stream format: from the design description (`design`, the text of
    /// `--design`), or from the flags.
    fn format(&self, design: Option<&str>) -> Result<TraceFormat> {
        if let (Some(path), Some(text)) = (&self.design, design) {
            return TraceFormat::from_design_json(text, &path.display().to_string()).map_err(|e| anyhow!(e));
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
    /// The counters' column names from `--events`: none, or K names, each an event of
    /// the design's table when `--design` has its `<top>_events.json` beside it.
    fn names(&self, format: &TraceFormat, design: Option<&str>) -> Result<Vec<String>> {
        if self.events.is_empty() {
            return Ok(Vec::new());
        }
        let given = self.events.join(",");
        if self.events.len() != format.counters {
            bail!(
                "--events {given}: {} names for K = {} counters; give one event name per counter, in counter order",
                self.events.len(),
                format.counters
            );
        }
        if let Some(bad) =
            self.events.iter().find(|n| n.is_empty() || !n.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.'))
        {
            bail!("--events {given}: `{bad}` is not an event name (letters, digits, `_` and `.`)");
        }
        let Some(known) = self.table_events(design)? else {
            return Ok(self.events.clone());
        };
        if let Some(unknown) = self.events.iter().find(|n| !known.contains(n)) {
            bail!("--events {given}: `{unknown}` is not an event of the design's table (known: {})", known.join(", "));
        }
        Ok(self.events.clone())
    }

    /// The EventNames of `<top>_events.json` beside `--design` (whose text is
    /// `design`), when it is there.
    fn table_events(&self, design: Option<&str>) -> Result<Option<Vec<String>>> {
        let (Some(path), Some(text)) = (&self.design, design) else { return Ok(None) };
        let json: serde_json::Value = serde_json::from_str(text)?;
        let Some(top) = json.get("top").and_then(|t| t.as_str()) else { return Ok(None) };
        let path = path.with_file_name(format!("{top}_events.json"));
        let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
        let table: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))?;
        let names = table.as_array().into_iter().flatten().filter_map(|e| e.get("EventName")?.as_str());
        Ok(Some(names.map(str::to_string).collect()))
    }
}

/// A stream read and decoded.
pub struct Stream {
    /// Its format.
    pub format: TraceFormat,
    /// The counters' column names (empty: v0.., total0..).
    pub names: Vec<String>,
    /// Its words.
    pub words: Vec<Word>,
    /// Its records.
    pub records: Vec<Record>,
    /// What a reader should know: what `--partial` left out, where the names came from.
    pub notes: Vec<String>,
    /// The firmware that made it, when `soc run` recorded it beside the stream.
    pub firmware: Option<crate::soc::programmed::Firmware>,
}

impl Stream {
    /// What was read, the notes, and what the stream cannot show.
    pub fn summary(&self) -> String {
        let f = &self.format;
        let summaries: Vec<&Record> = self.records.iter().filter(|r| r.summary.is_some()).collect();
        let kinds = match summaries.len() {
            0 => String::new(),
            n => format!(
                ": {} block records and {n} summary records of the profile table, summing {} executions",
                self.records.len() - n,
                summaries.iter().map(|r| r.executions()).sum::<u64>()
            ),
        };
        let mut text = format!(
            "{} words, {} records{kinds} (T = {}, K = {}, CW = {}, AW = {})\n",
            self.words.len(),
            self.records.len(),
            f.threads,
            f.counters,
            f.counter_width,
            f.address_width
        );
        self.notes.iter().for_each(|note| text += &format!("{note}\n"));
        // The queue's drops happen before the capture.
        text += "Records the PMU dropped because its queue was full are not in the stream: TRACE_DROPPED counts them \
                 (docs/pmu.md §13.4).\n";
        text
    }
}

impl StreamArgs {
    /// Read and decode the stream; refused, naming what is wrong, before anything is written.
    pub fn load(&self) -> Result<Stream> {
        let design = self.design_text()?;
        let format = self.format(design.as_deref())?;
        let mut names = self.names(&format, design.as_deref())?;
        let path = self.stream.display().to_string();
        let text = std::fs::read_to_string(&self.stream).with_context(|| format!("{path}: cannot read the stream"))?;
        let is_vcd = self.stream.extension().is_some_and(|e| e.eq_ignore_ascii_case("vcd"))
            || text.trim_start().starts_with('$');
        let (words, cut) = if is_vcd {
            (words_from_vcd(&text, &path).map_err(|e| anyhow!(e))?, None)
        } else {
            words_from_hex(&text, &path, self.partial).map_err(|e| anyhow!(e))?
        };
        if is_vcd && words.is_empty() {
            bail!("{path}: no words moved on the stream (trace_valid and trace_ready were never both 1 at a rising clock edge)");
        }
        let mut notes: Vec<String> = cut.into_iter().collect();
        let top = design.as_deref().and_then(|text| {
            serde_json::from_str::<serde_json::Value>(text).ok()?.get("top")?.as_str().map(str::to_string)
        });
        // The record of `soc run` names the counters unless --events does; a record that
        // does not fit this capture is refused only when it would be used.
        let recorded =
            match crate::soc::programmed::read_beside(&self.stream, words.len(), top.as_deref(), self.partial) {
                Ok(recorded) => recorded,
                Err(error) if names.is_empty() => return Err(error),
                Err(_) => None,
            };
        if let (true, Some(record)) = (names.is_empty(), &recorded) {
            if record.names.len() != format.counters {
                bail!(
                    "{}: names {} events for K = {} counters",
                    record.path.display(),
                    record.names.len(),
                    format.counters
                );
            }
            notes.push(format!("event names from {} (give --events to override)", record.path.display()));
            names = record.names.clone();
        }
        let records = records(&words, &format, &path, !is_vcd, self.partial, &mut notes)?;
        let firmware = recorded.and_then(|r| r.firmware);
        Ok(Stream { format, names, words, records, notes, firmware })
    }
}

/// The records of `words`: refused at the first malformed word, or with `partial`
/// decoded as far as they go, what was left out said in `notes`.
///
/// A dump without `trace_last` (`hex`) must start with a NEW_PROCESS header or a
/// summary record's header: the PMU's first record after reset or a TRACE_CTRL write
/// is one of them (docs/pmu.md §13.3, §15.3), and a dump that lost its first words
/// would otherwise decode into plausible records from the wrong words. With `partial`
/// it is decoded from the first such header, which no value or pid word can look like
/// while CW < 60 (they leave bits 63:60 at 0; only the executions word of a summary
/// record of 2^28 executions or more could).
fn records(
    words: &[Word],
    format: &TraceFormat,
    path: &str,
    hex: bool,
    partial: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<Record>> {
    let mut start = 0;
    if hex && !starts_capture(words[0].data, format) {
        let why = format!(
            "{path}: word 0 (0x{:016x}) is not a NEW_PROCESS header nor a summary record's, which the PMU's first \
             record after reset or a TRACE_CTRL write is (docs/pmu.md §13.3, §15.3): words are missing at the start \
             of the dump",
            words[0].data
        );
        let first = words.iter().position(|w| starts_capture(w.data, format));
        if !partial {
            // A malformed word says more than the missing start it may come from.
            decode_partial(words, format, 0).1.map_or(Ok(()), |error| Err(anyhow!("{path}: {error}")))?;
            match first {
                Some(first) => bail!("{why} (--partial decodes from the first such header, word {first})"),
                None => bail!("{why}, and no word of it is such a header: give the capture from its start"),
            }
        }
        let Some(first) = first else {
            bail!("{why}, and no word of it is such a header: give the capture from its start");
        };
        notes.push(format!("{why}; --partial: the {first} words before word {first} left out"));
        start = first;
    }
    let (records, error) = decode_partial(words, format, start);
    if let Some(error) = error {
        if !partial {
            bail!("{path}: {error}");
        }
        let decoded = records.last().map_or(start, |r| r.first_word + r.words(format));
        notes.push(format!(
            "{path}: {error}; --partial: {} complete records decoded, the {} words from word {decoded} on left out",
            records.len(),
            words.len() - decoded
        ));
    }
    Ok(records)
}
