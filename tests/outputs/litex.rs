//! `generate --litex` (docs/litex.md): the LiteX module imports with LiteX alone (an
//! isolated Python of the project's environment, run outside the project, with nothing
//! but the generated directory on its path) and behaves as documented on a LiteX SoC
//! that is elaborated, not built: the slave's region, the unconnected inputs' values,
//! refused input names and origins, PicoRV32's RVFI port exported once for two
//! designs, refused for a design of two harts and for another CPU; and the snippet of
//! docs/litex.md §8 (the monitor on VexRiscv's bus handshakes), as written there.
use std::path::Path;
use std::process::Command;

use crate::common::cli::{pmugen, scratch, venv};

/// Run by an isolated Python in the generated directory; prints "ok" at the end.
const CHECKS: &str = r#"
import importlib, sys
sys.path.insert(0, ".")
from litex.tools.litex_sim import SimSoC

def soc():
    return SimSoC(cpu_type="picorv32", uart_name="sim", integrated_rom_size=0x8000, integrated_main_ram_size=0x1000)

def refused(call, *words):
    try:
        call()
    except ValueError as error:
        assert all(word in str(error) for word in words), (str(error), words)
        return
    raise AssertionError("not refused: %s" % (words,))

bare = importlib.import_module("pmu_knc_t4_k2_c40_wb32_litex")
pmu = importlib.import_module("pmu_riscv_t1_k4_c40_rvfi_picorv32_wb32_litex")
monitor = importlib.import_module("event_order_monitor_n2_w2_rvfi_picorv32_e89_wb_litex")
wide = importlib.import_module("pmu_riscv_t2_k2_c40_rvfi_wb32_litex")

s = soc()
core = bare.add_to_soc(s, "pmu", 0x9000_0000)
region = s.bus.regions["pmu"]
assert (region.origin, region.size, region.cached) == (0x9000_0000, 0x2000, False), region
assert "pmu" in s.bus.slaves
assert hasattr(core, "pmi") and hasattr(core, "trace_data")
params = next(iter(core._fragment.specials)).items
values = {item.name: item.expr for item in params}
assert values["wb_priv"].value == 1 and values["pm_mark"].value == 0xF, values  # four threads
assert values["pid"].value == 0, values
assert any(source[0].endswith("pmu_knc_t4_k2_c40_wb32.v") for source in s.platform.sources)
refused(lambda: bare.add_to_soc(s, "pmu2", 0x9100_0000, event=1), "has no input event", "pm_mark")
refused(lambda: bare.add_to_soc(s, "pmu3", 0x9100_1000), "0x91001000", "not a multiple")

s = soc()
first = pmu.picorv32_rvfi(s)
assert sorted(first) == sorted(name for name, _ in pmu.RVFI), first
again = monitor.picorv32_rvfi(s)
assert all(again[name] is first[name] for name in again), "a second design gets the same signals"
names = [source[0].rsplit("/", 1)[-1] for source in s.platform.sources]
defines = [name for name in names if name.endswith("_riscv_formal.vh")]
assert len(defines) == 1 and names.index(defines[0]) < names.index("picorv32.v"), names
assert all(("o_" + name) in s.cpu.cpu_params for name in first)
pmu.add_to_soc(s, "pmu", 0x9000_0000, **first)
monitor.add_to_soc(s, "monitor", 0x9100_0000, **again)
assert s.bus.regions["monitor"].size == 0x400

refused(lambda: wide.picorv32_rvfi(soc()), "rvfi_valid", "2 bits", "--threads 1")

# docs/litex.md §8, as written there, on LiteX's VexRiscv.
from migen import Cat
soc = SimSoC(cpu_type="vexriscv", uart_name="sim", integrated_rom_size=0x8000, integrated_main_ram_size=0x1000)
refused(lambda: pmu.picorv32_rvfi(soc), "the SoC's CPU is vexriscv, not picorv32")
exec(open("docs_litex_snippet.py").read())
assert len(events) == 4 and soc.bus.regions["monitor"].origin == 0x9100_0000
soc.finalize()
print("ok")
"#;

#[test]
fn the_litex_module_imports_with_litex_alone_and_adds_the_design_as_documented() {
    let dir = scratch("litex-module");
    let out = dir.to_string_lossy().into_owned();
    let commands: [&[&str]; 5] = [
        &["pmu", "--bus", "wishbone", "--bus-width", "32"],
        &[
            "pmu",
            "--threads",
            "1",
            "--counters",
            "4",
            "--rvfi",
            "--core",
            "picorv32",
            "--bus",
            "wishbone",
            "--bus-width",
            "32",
        ],
        &[
            "monitor",
            "--events",
            "2",
            "--order-width",
            "2",
            "--rvfi",
            "--core",
            "picorv32",
            "--rvfi-events",
            "CALL,RETURN",
            "--bus",
            "wishbone",
        ],
        &["pmu", "--threads", "2", "--counters", "2", "--rvfi", "--bus", "wishbone", "--bus-width", "32"],
        &["monitor", "--events", "4", "--order-width", "2", "--bus", "wishbone"],
    ];
    for args in commands {
        let mut full = vec!["generate"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--litex", "--out", &out]);
        let (ok, text) = pmugen(&full);
        assert!(ok, "{full:?}: {text}");
    }
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/litex.md")).unwrap();
    let snippet = docs
        .split("```python\n")
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains("soc.cpu.ibus"))
        .expect("docs/litex.md has the VexRiscv snippet");
    std::fs::write(dir.join("docs_litex_snippet.py"), snippet).unwrap();
    // -I: no PYTHONPATH, no user site, not the working directory's parent project.
    let output = Command::new(venv("python")).args(["-I", "-c", CHECKS]).current_dir(&dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let text = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.trim_end().ends_with("ok"), "{text}");
}

#[test]
fn litex_is_refused_without_a_32_bit_wishbone_slave_naming_the_flag_and_writes_nothing() {
    let cases: [(&[&str], &str); 4] = [
        (&["monitor"], "--litex needs --bus wishbone (LiteX's SoC bus is Wishbone; given no --bus)"),
        (
            &["monitor", "--bus", "axi4lite"],
            "--litex needs --bus wishbone (LiteX's SoC bus is Wishbone; given --bus axi4lite)",
        ),
        (&["pmu", "--bus", "wishbone"], "--litex needs --bus-width 32 for the PMU"),
        (&["pmu", "--bus", "axi4lite", "--bus-width", "32"], "given --bus axi4lite"),
    ];
    for (index, (args, message)) in cases.iter().enumerate() {
        let out = scratch(&format!("litex-refused-{index}"));
        let out_text = out.to_string_lossy().into_owned();
        let mut full = vec!["generate"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--litex", "--out", &out_text]);
        let (ok, text) = pmugen(&full);
        assert!(!ok && text.contains(message), "{full:?}: expected `{message}` in:\n{text}");
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
}
