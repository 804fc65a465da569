//! `pmugen soc run` refuses a firmware it cannot run before it builds or writes
//! anything, naming the file (and the line of a bad hex word); `soc build` refuses a
//! missing source. The runs themselves are in tests/long/soc.rs.
use crate::common::cli::{pmugen, scratch};

/// `soc run FIRMWARE --out OUT`: refused with a message containing every `needles`,
/// and OUT not created.
fn refused(name: &str, contents: Option<&[u8]>, needles: &[&str]) {
    let work = scratch(&format!("soc-refused-{name}"));
    std::fs::create_dir_all(&work).unwrap();
    let firmware = work.join(name);
    if let Some(bytes) = contents {
        std::fs::write(&firmware, bytes).unwrap();
    }
    let out = work.join("out");
    let trace = work.join("trace.hex");
    let (ok, text) = pmugen(&[
        "soc",
        "run",
        firmware.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(!ok, "{name}: {text}");
    assert!(text.contains(&firmware.display().to_string()), "{name}: names the file: {text}");
    for needle in needles {
        assert!(text.contains(needle), "{name}: {needle:?} in {text}");
    }
    assert!(!out.exists() && !trace.exists(), "{name}: nothing written");
}

#[test]
fn missing_empty_and_malformed_firmware_is_refused_naming_it() {
    refused("absent.elf", None, &["cannot read it"]);
    refused("empty.hex", Some(b""), &["the file is empty"]);
    refused("words.hex", Some(b"00000013\n0000006f\nnot-hex\n"), &[":3: \"not-hex\": not a hex number"]);
    refused("wide.hex", Some(b"000000013\n"), &[":1: \"000000013\": more than 8 hex digits"]);
    refused("comments.hex", Some(b"// nothing but a comment\n"), &["no words"]);
    refused("big.hex", Some(b"@4000\n00000013\n"), &["beyond the 64 KiB RAM"]);
}

#[test]
fn elfs_that_are_not_rv32_or_do_not_fit_are_refused_naming_the_value() {
    let mut elf64 = b"\x7fELF\x02\x01\x01".to_vec();
    elf64.resize(64, 0);
    refused("rv64.elf", Some(&elf64), &["64-bit ELF (ELFCLASS64)", "-march=rv32i"]);
    // An ELF32 header for x86 (machine 3).
    let mut x86 = b"\x7fELF\x01\x01\x01".to_vec();
    x86.resize(52, 0);
    x86[18] = 3;
    refused("x86.elf", Some(&x86), &["ELF machine 3 is not RISC-V"]);
}

#[test]
fn soc_build_refuses_a_missing_source() {
    let out = scratch("soc-build-missing");
    let (ok, text) = pmugen(&["soc", "build", "no-such-file.c", "--out", out.to_str().unwrap()]);
    assert!(!ok, "{text}");
    assert!(text.contains("no-such-file.c: no such C source file"), "{text}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn soc_board_refuses_what_it_cannot_build_writing_nothing() {
    let out = scratch("soc-board-refused");
    let dir = out.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["soc", "--board", "arty", "--out", dir], "arty"),
        (&["soc", "--board", "hx8k", "--profile-entries", "8", "--out", dir], "--profile-entries (E) = 8"),
        (&["soc", "--no-fmax", "--out", dir], "--board"),
        (&["soc", "--board", "hx8k", "--counters", "3", "--out", dir], "--counters 3"),
        (&["soc", "--board", "hx8k", "--counters", "4", "--no-monitor", "--out", dir], "--counters 4"),
    ];
    for (args, needle) in cases {
        let (ok, text) = pmugen(args);
        assert!(!ok && text.contains(needle), "{args:?}: {text}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

#[test]
fn sizes_that_are_not_allowed_are_refused_naming_the_flag_on_every_soc_command() {
    let work = scratch("soc-sizes");
    std::fs::create_dir_all(&work).unwrap();
    let source = work.join("main.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let out = work.join("out");
    let (source, dir) = (source.to_str().unwrap(), out.to_str().unwrap());
    let cases: [(&[&str], &str); 5] = [
        (
            &["--sink-words", "3000"],
            "--sink-words (S) = 3000 is not a power of 2; allowed: a power of 2 in 1024..=16777216",
        ),
        (&["--sink-words", "512"], "--sink-words (S) = 512 is out of range 1024..=16777216"),
        (&["--sink-words", "33554432"], "--sink-words (S) = 33554432 is out of range"),
        (&["--profile-entries", "8"], "--profile-entries (E) = 8 is not allowed: 0 (no profile table) or a power of 2"),
        (&["--profile-entries", "3000"], "--profile-entries (E) = 3000 is not allowed"),
    ];
    for (flags, message) in cases {
        for command in [&["soc"][..], &["soc", "build", source], &["soc", "run", source]] {
            let (ok, text) = pmugen(&[command, flags, &["--out", dir]].concat());
            assert!(!ok && text.contains(message), "{command:?} {flags:?}: {text}");
            assert!(!out.exists(), "{command:?} {flags:?}: nothing written");
        }
    }
    let (ok, text) = pmugen(&["soc", "--board", "hx8k", "--sink-words", "2048", "--out", dir]);
    assert!(!ok && text.contains("--sink-words sizes the simulated system"), "{text}");
}

#[test]
fn soc_build_takes_a_projects_flags_and_refuses_bad_ones_writing_nothing() {
    let work = scratch("soc-build-flags");
    let (include, lib) = (work.join("include"), work.join("lib"));
    std::fs::create_dir_all(&include).unwrap();
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(include.join("twice.h"), "unsigned twice(unsigned x);\n").unwrap();
    std::fs::write(lib.join("twice.c"), "#include \"twice.h\"\nunsigned twice(unsigned x) { return 2 * x; }\n")
        .unwrap();
    let main =
        "#include \"soc.h\"\n#include \"twice.h\"\n#if !defined(ANSWER) || !defined(FAST)\n#error flags\n#endif\n\
                int main(void) { return (int)twice(ANSWER); }\n";
    std::fs::write(work.join("main.c"), main).unwrap();
    let out = work.join("out");
    let (main, twice) = (work.join("main.c"), lib.join("twice.c"));
    let sources = [main.to_str().unwrap(), twice.to_str().unwrap(), "--out", out.to_str().unwrap()];
    let include = include.to_str().unwrap();
    let refusals: [(&[&str], &str); 5] = [
        (&["-I", "no/such/dir"], "-I no/such/dir: no such directory"),
        (&["-I", include, "-D9LIVES"], "-D 9LIVES: `9LIVES` is not a C macro name"),
        (&["-I", include, "-O4"], "-O 4: not an optimisation level; give one of 0, 1, 2, 3, s, g, z"),
        (&["-I", include, "--cflags", "-T my.ld"], "--cflags: `-T`"),
        (&["-I", include, "-DANSWER=21", "-DFAST"], ""),
    ];
    for (flags, message) in refusals {
        let (ok, text) = pmugen(&[&["soc", "build"][..], &sources, flags].concat());
        if message.is_empty() {
            assert!(ok, "{flags:?}: {text}");
            assert!(out.join("main.elf").is_file() && out.join("runtime/soc.mk").is_file(), "{text}");
        } else {
            assert!(!ok && text.contains(message), "{flags:?}: {text}");
            assert!(!out.exists(), "{flags:?}: nothing written");
        }
    }
    // `soc run` takes the system from the firmware's note, and refuses flags naming another.
    let elf = out.join("main.elf");
    let (ok, text) =
        pmugen(&["soc", "run", elf.to_str().unwrap(), "--profile-entries", "0", "--out", out.to_str().unwrap()]);
    assert!(
        !ok && text.contains("--profile-entries 0: firmware")
            && text
                .contains("was built for the system with --cpu picorv32 --profile-entries 1024 --sink-words 1048576"),
        "{text}"
    );
}
