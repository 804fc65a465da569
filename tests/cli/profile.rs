//! `pmugen profile` on a hand-made capture of a small firmware (docs/soc.md §4.4): each
//! block named `function+offset` from the ELF (checked against `nm`), per-function
//! sums, a block outside the text shown as such, sorting; and its refusals, each
//! naming the flag or file and writing nothing: an ELF that is not one, an unknown
//! `--sort`, a record of programmed events that belongs to another capture.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::cli::{pmugen, scratch};

/// T = 1, K = 2, CW = 40, AW = 32.
const FORMAT: [&str; 8] = ["--threads", "1", "--counters", "2", "--counter-width", "40", "--address-width", "32"];

const FIRMWARE: &str = r#"#include <stdint.h>
__attribute__((noinline)) uint32_t alpha(uint32_t x) { for (uint32_t i = 0; i < x; i++) x ^= i << 1; return x; }
__attribute__((noinline)) uint32_t beta(uint32_t x) { while (x > 3) x = (x >> 1) + alpha(x & 7); return x; }
int main(void) { return (int)beta(100); }
"#;

/// The firmware built once per test (its own directory), and its `nm` symbols.
fn firmware(dir: &Path) -> (PathBuf, BTreeMap<String, u64>) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("small.c"), FIRMWARE).unwrap();
    let (ok, text) = pmugen(&["soc", "build", dir.join("small.c").to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert!(ok, "{text}");
    let elf = dir.join("small.elf");
    let output = Command::new("riscv64-unknown-elf-nm").arg(&elf).output().unwrap();
    let symbols = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [address, "T" | "t", name] => Some((name.to_string(), u64::from_str_radix(address, 16).ok()?)),
            _ => None,
        })
        .collect();
    (elf, symbols)
}

/// Records: alpha (NEW_PROCESS, pid 7) twice, beta+8 once, one outside the text.
fn capture(symbols: &BTreeMap<String, u64>) -> String {
    let (alpha, beta) = (symbols["alpha"], symbols["beta"]);
    let words = [1 << 63 | alpha, 7, 10, 1, alpha, 20, 2, beta + 8, 5, 0, 0x00F0_0000, 3, 3];
    words.iter().map(|w| format!("{w:016x}\n")).collect()
}

/// `pmugen profile STREAM --elf ELF FORMAT --out OUT extra...`.
fn profile(stream: &Path, elf: &Path, out: &Path, extra: &[&str]) -> (bool, String) {
    let (stream, elf, out) = (stream.to_str().unwrap(), elf.to_str().unwrap(), out.to_str().unwrap());
    let mut args = vec!["profile", stream, "--elf", elf, "--out", out];
    args.extend(FORMAT);
    args.extend(extra);
    pmugen(&args)
}

#[test]
fn blocks_and_functions_are_named_from_the_elf() {
    let dir = scratch("profile-small");
    let (elf, symbols) = firmware(&dir);
    let stream = dir.join("capture.hex");
    std::fs::write(&stream, capture(&symbols)).unwrap();
    let out = dir.join("out");
    let (ok, text) = profile(&stream, &elf, &out, &["--events", "LOADS,STORES", "--sort", "executions"]);
    assert!(ok, "{text}");
    let functions = std::fs::read_to_string(out.join("functions.csv")).unwrap();
    let lines: Vec<&str> = functions.lines().collect();
    assert_eq!(lines[0], "pid,function,address,blocks,executions,LOADS,STORES");
    assert_eq!(lines[1], format!("7,alpha,0x{:08x},1,2,30,3", symbols["alpha"]), "{functions}");
    assert!(lines.contains(&format!("7,beta,0x{:08x},1,1,5,0", symbols["beta"] + 8).as_str()), "{functions}");
    assert!(lines.contains(&"7,(outside text),0x00f00000,1,1,3,3"), "shown, not dropped: {functions}");
    let blocks = std::fs::read_to_string(out.join("blocks.csv")).unwrap();
    assert!(blocks.contains(&format!("7,0x{:08x},beta,0x8,1,5,0", symbols["beta"] + 8)), "{blocks}");
    assert!(text.contains("beta+0x8") && text.contains("Functions, by executions"), "{text}");
    let annotated = std::fs::read_to_string(out.join("annotated.txt")).unwrap();
    let alpha_entry = format!("{:x}:", symbols["alpha"]);
    let line = annotated.lines().find(|l| l.contains(&alpha_entry)).unwrap_or_else(|| panic!("{annotated}"));
    assert!(line.split_whitespace().take(3).collect::<Vec<_>>() == ["2", "30", "3"], "{line}");
}

#[test]
fn bad_input_is_refused_naming_it_and_nothing_is_written() {
    let dir = scratch("profile-refusals");
    let (elf, symbols) = firmware(&dir);
    let stream = dir.join("capture.hex");
    std::fs::write(&stream, capture(&symbols)).unwrap();
    let out = dir.join("out");
    let not_elf = dir.join("small.hex");
    let cases: [(&Path, &[&str], &[&str]); 3] = [
        (&not_elf, &[], &["--elf", "not an ELF"]),
        (&elf, &["--events", "A,B", "--sort", "C"], &["--sort C", "executions, A, B"]),
        (&dir.join("missing.elf"), &[], &["--elf", "missing.elf", "cannot read"]),
    ];
    for (elf, extra, wanted) in cases {
        let (ok, text) = profile(&stream, elf, &out, extra);
        assert!(!ok && wanted.iter().all(|w| text.contains(w)), "{extra:?}: {text}");
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
    // A record of programmed events that belongs to another capture.
    let record = dir.join("capture.events.json");
    let json = serde_json::json!({
        "what": "the events the firmware programmed, by pmugen soc run (docs/soc.md §4.3)",
        "top": "pmu_riscv_t1_k2_c40_rvfi", "thread": 0, "events": ["INSTRET", "LOAD"], "trace_words": 99,
    });
    std::fs::write(&record, json.to_string()).unwrap();
    let (ok, text) = profile(&stream, &elf, &out, &[]);
    assert!(
        !ok && text.contains("capture.events.json") && text.contains("99 words") && text.contains("has 13"),
        "{text}"
    );
    assert!(!out.exists(), "nothing written");
    // A record of this capture whose firmware is another.
    let mut other = json.clone();
    other["trace_words"] = 13.into();
    other["firmware"] = "other.elf".into();
    other["firmware_image_fnv1a64"] = "0123456789abcdef".into();
    std::fs::write(&record, other.to_string()).unwrap();
    let (ok, text) = profile(&stream, &elf, &out, &[]);
    assert!(!ok && text.contains("--elf") && text.contains("other.elf"), "{text}");
    assert!(!out.exists(), "nothing written");
    // The same record for this capture names the columns, of `profile` and `trace decode`.
    std::fs::write(&record, json.to_string().replace("99", "13")).unwrap();
    let (ok, text) = profile(&stream, &elf, &out, &[]);
    assert!(ok && text.contains("event names from"), "{text}");
    assert!(std::fs::read_to_string(out.join("blocks.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .ends_with(",INSTRET,LOAD"));
    let decoded = dir.join("decoded");
    let mut args = vec!["trace", "decode", stream.to_str().unwrap(), "--out", decoded.to_str().unwrap()];
    args.extend(FORMAT);
    let (ok, text) = pmugen(&args);
    assert!(ok, "{text}");
    let totals = std::fs::read_to_string(decoded.join("totals.csv")).unwrap();
    assert_eq!(totals.lines().next(), Some("pid,address,executions,INSTRET,LOAD"), "{totals}");
}
