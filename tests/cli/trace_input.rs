//! `trace decode` on damaged captures (docs/pmu.md §13.6): an empty dump, a hex dump
//! whose last line is cut, a dump missing its first word, a VCD cut inside a record
//! or inside a value: each refused naming the line or word and why, writing nothing;
//! with `--partial`, the complete records decoded and the rest reported, for a stream
//! cut at every word of one record, and a dump missing its start decoded from its
//! next NEW_PROCESS header. Every decode says what TRACE_DROPPED counts. Summary records
//! of the profile table (docs/pmu.md §15.3) merge into the totals; one cut or with an
//! unknown flag bit is refused naming the word.
use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::common::cli::{pmugen, scratch};

/// T = 1, K = 2, CW = 16, AW = 16.
const FORMAT: [&str; 8] = ["--threads", "1", "--counters", "2", "--counter-width", "16", "--address-width", "16"];

/// Three records: block 0x10 of process 5 (NEW_PROCESS, 4 words), then 0x20 and 0x30
/// (3 words each).
const WORDS: [u64; 10] = [0x8000_0000_0000_0010, 5, 1, 2, 0x20, 3, 4, 0x30, 5, 6];
/// The index of each record's first word, and the end.
const RECORD_STARTS: [usize; 4] = [0, 4, 7, 10];

fn hex(words: &[u64]) -> String {
    words.iter().map(|w| format!("{w:016x}\n")).collect()
}

/// A VCD of `words` moving one per cycle, `trace_last` on each record's final word.
fn vcd(words: &[u64]) -> String {
    let mut v = String::from(
        "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! clock $end\n\
         $var wire 64 \" trace_data [63:0] $end\n$var wire 1 # trace_valid $end\n\
         $var wire 1 $ trace_ready $end\n$var wire 1 % trace_last $end\n$upscope $end\n$enddefinitions $end\n\
         #0\n0!\n1$\n0#\n0%\nb0 \"\n",
    );
    for (i, w) in words.iter().enumerate() {
        let last = RECORD_STARTS.contains(&(i + 1)) as u8;
        let _ = write!(v, "#{}\n1#\n{last}%\nb{w:b} \"\n#{}\n1!\n#{}\n0!\n", 10 * i + 1, 10 * i + 5, 10 * i + 10);
    }
    let _ = write!(v, "#{}\n0#\n", 10 * words.len() + 1);
    v
}

/// `trace decode <file> FORMAT --out <file>.out [--partial]`: (ok, output, out dir).
fn decode(dir: &Path, name: &str, text: &str, partial: bool) -> (bool, String, PathBuf) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = dir.join(format!("{name}.out"));
    let (path_text, out_text) = (path.to_string_lossy().into_owned(), out.to_string_lossy().into_owned());
    let mut args = vec!["trace", "decode", &path_text, "--out", &out_text];
    args.extend(FORMAT);
    if partial {
        args.push("--partial");
    }
    let (ok, text) = pmugen(&args);
    (ok, text, out)
}

fn records_written(out: &Path) -> usize {
    std::fs::read_to_string(out.join("trace.csv")).unwrap().lines().count() - 1
}

#[test]
fn damaged_captures_are_refused_naming_line_or_word_and_partial_decodes_what_is_complete() {
    let dir = scratch("trace-input");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [("good.hex", hex(&WORDS)), ("good.vcd", vcd(&WORDS))] {
        let (ok, output, out) = decode(&dir, name, &text, false);
        assert!(ok && records_written(&out) == 3, "{name}: {output}");
        assert!(output.contains("TRACE_DROPPED counts them"), "{name}: {output}");
    }

    let mut cut_line = hex(&WORDS);
    cut_line.truncate(cut_line.len() - 10); // the last line keeps 7 digits, no newline
    let missing_first = hex(&WORDS[1..]);
    let mut cut_token = vcd(&WORDS[..5]);
    cut_token.push_str("#100\nb101");
    let refusals = [
        ("empty.hex", String::new(), "empty.hex: no words: the dump is empty"),
        ("blank.hex", "\n# nothing captured\n".to_string(), "blank.hex: no words"),
        ("cut-line.hex", cut_line.clone(), "cut-line.hex:10: the last line has no newline and 7 hex digits"),
        (
            "missing-first.hex",
            missing_first.clone(),
            "word 0 (0x0000000000000005) is not a NEW_PROCESS header nor a summary record's",
        ),
        ("cut-record.vcd", vcd(&WORDS[..8]), "word 8 (end of stream) in record 2"),
        ("cut-token.vcd", cut_token, "value without an identifier"),
        ("idle.vcd", vcd(&[]), "no words moved on the stream"),
    ];
    for (name, text, message) in &refusals {
        let (ok, output, out) = decode(&dir, name, text, false);
        assert!(!ok && output.contains(message), "{name}: expected `{message}` in:\n{output}");
        assert!(!out.exists(), "{name}: wrote {}", out.display());
    }
    let (ok, output, _) = decode(&dir, "missing-first-partial.hex", &missing_first, true);
    assert!(!ok && output.contains("no word of it is such a header"), "{output}");
    // A later process change gives --partial a place to start.
    let mut later = WORDS[1..].to_vec();
    later.extend([0x8000_0000_0000_0040, 7, 8, 9]);
    let (ok, output, out) = decode(&dir, "resync-partial.hex", &hex(&later), true);
    assert!(ok && records_written(&out) == 1, "{output}");
    assert!(output.contains("the 9 words before word 9 left out"), "{output}");
    let (ok, output, out) = decode(&dir, "cut-line-partial.hex", &cut_line, true);
    assert!(ok && records_written(&out) == 2, "{output}");
    assert!(output.contains(":10: the last line has no newline") && output.contains("left out (--partial)"));
    assert!(output.contains("the 2 words from word 7 on left out"), "{output}");

    // Cut at every word of the last record: refused without --partial; with it, the
    // two complete records and the cut one's words reported.
    let last = RECORD_STARTS[2];
    for kept in 1..WORDS.len() - last {
        let words = &WORDS[..last + kept];
        for (kind, text) in [("hex", hex(words)), ("vcd", vcd(words))] {
            let name = format!("cut-{kept}.{kind}");
            let (ok, output, out) = decode(&dir, &name, &text, false);
            let missing = format!("{kept} of 3 words present, {} missing", 3 - kept);
            assert!(!ok && output.contains(&missing), "{name}: {output}");
            assert!(!out.exists());
            let (ok, output, out) = decode(&dir, &format!("partial-{name}"), &text, true);
            assert!(ok && records_written(&out) == 2, "{name} --partial: {output}");
            let reported = format!("2 complete records decoded, the {kept} words from word {last} on left out");
            assert!(output.contains(&reported), "{name} --partial: {output}");
        }
    }
}

#[test]
fn events_name_the_counter_columns_and_are_checked_against_the_designs_table() {
    let dir = scratch("trace-events");
    std::fs::create_dir_all(&dir).unwrap();
    // The committed RISC-V PMU (T = 1, K = 4, CW = 40, AW = 32) and its events.json.
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/pmu_riscv_t1_k4_c40_rvfi_design.json");
    let design = design.to_string_lossy().into_owned();
    let stream = dir.join("stream.hex");
    std::fs::write(&stream, hex(&[0x8000_0000_0000_0100, 7, 10, 3, 2, 1, 0x104, 4, 0, 1, 0])).unwrap();
    let stream = stream.to_string_lossy().into_owned();
    let run = |events: &str, name: &str| {
        let out = dir.join(name);
        let out_text = out.to_string_lossy().into_owned();
        let (ok, text) =
            pmugen(&["trace", "decode", &stream, "--design", &design, "--events", events, "--out", &out_text]);
        (ok, text, out)
    };
    let (ok, text, out) = run("INSTRET,LOAD,STORE,BRANCH_TAKEN", "named");
    assert!(ok, "{text}");
    let trace = std::fs::read_to_string(out.join("trace.csv")).unwrap();
    let header = "record,thread,address,new_process,pid,summary,executions,INSTRET,LOAD,STORE,BRANCH_TAKEN\n";
    assert!(trace.starts_with(header), "{trace}");
    let totals = std::fs::read_to_string(out.join("totals.csv")).unwrap();
    assert!(totals.starts_with("pid,address,executions,INSTRET,LOAD,STORE,BRANCH_TAKEN\n"), "{totals}");
    assert!(text.contains("INSTRET  LOAD  STORE  BRANCH_TAKEN"), "{text}");
    let refusals = [
        ("INSTRET,LOAD", "--events INSTRET,LOAD: 2 names for K = 4 counters"),
        (
            "INSTRET,LOAD,STORE,BRANCH_TAKN",
            "`BRANCH_TAKN` is not an event of the design's table (known: CYCLES, INSTRET",
        ),
        ("INSTRET,LOAD,STORE,BRANCH TAKEN", "`BRANCH TAKEN` is not an event name"),
    ];
    for (index, (events, message)) in refusals.iter().enumerate() {
        let (ok, text, out) = run(events, &format!("refused-{index}"));
        assert!(!ok && text.contains(message), "--events {events}: expected `{message}` in:\n{text}");
        assert!(!out.exists(), "--events {events} wrote {}", out.display());
    }
}

#[test]
fn summary_records_merge_and_cut_or_flagged_ones_are_refused_naming_the_word() {
    let dir = scratch("trace-summary");
    std::fs::create_dir_all(&dir).unwrap();
    // Block 0x20 of process 5 twice as block records, then summed: 3 executions.
    let summed = [0x1000_0000_0000_0020, 3 << 32 | 5, 9, 12];
    let words = [&WORDS[..], &summed[..]].concat();
    let (ok, output, out) = decode(&dir, "mixed.hex", &hex(&words), false);
    assert!(ok && output.contains("3 block records and 1 summary records"), "{output}");
    let totals = std::fs::read_to_string(out.join("totals.csv")).unwrap();
    assert!(totals.contains("\n5,0x0020,4,12,16\n"), "{totals}");
    let mut flagged = words.clone();
    flagged[10] |= 1 << 52;
    let refusals = [
        (
            "cut-summary.hex",
            hex(&words[..13]),
            "word 13 (end of stream) in record 3: stream ends inside summary record 3",
        ),
        ("flagged.hex", hex(&flagged), "word 10 (0x1010000000000020) in record 3: header has unknown flag bits"),
    ];
    for (name, text, message) in &refusals {
        let (ok, output, out) = decode(&dir, name, text, false);
        assert!(!ok && output.contains(message), "{name}: expected `{message}` in:\n{output}");
        assert!(!out.exists(), "{name}: wrote {}", out.display());
    }
}

#[test]
fn a_missing_design_is_refused_naming_the_descriptions_beside_it() {
    let dir = scratch("trace-missing-design");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pmu_x_p1024_design.json"), "{}").unwrap();
    let stream = dir.join("stream.hex");
    std::fs::write(&stream, hex(&WORDS)).unwrap();
    let (design, out) = (dir.join("pmu_x_design.json"), dir.join("out"));
    let (ok, text) = pmugen(&[
        "trace",
        "decode",
        stream.to_str().unwrap(),
        "--design",
        design.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let holds = format!("no such file ({} holds pmu_x_p1024_design.json)", dir.display());
    assert!(!ok && text.contains(&holds) && text.contains("`soc build` and `soc run` write"), "{text}");
    assert!(!out.exists(), "nothing written");
}
