//! The C drivers (`<top>_driver.h`, docs/pmu.md §12.7, docs/monitor.md §12), built with
//! the real compilers: every committed driver of the default designs and the drivers
//! of other configurations and of the PMU's 32-bit layout compile warning-free for
//! rv32i (`riscv64-unknown-elf-gcc`) and for the host, all in one file together with
//! the register headers and every function called; on the host each driver runs
//! against a simulated register window that logs its accesses (model.c), and
//! [`scenarios`] compares the byte offsets, widths, order and values with the
//! register tables. The docs' examples are extracted and built the same way.
mod calls;
mod examples;
mod scenarios;
mod script;

use std::path::{Path, PathBuf};

use pmugen::design::{self, pmu::PmuDesign, Artifact, Design, DriverInterface};
use pmugen_hdl::bus::Bus;
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::regmap::driver::Reach;

/// The cross compiler's flags: rv32i, freestanding, every warning an error.
pub const RV32: &[&str] = &[
    "-march=rv32i",
    "-mabi=ilp32",
    "-std=c99",
    "-ffreestanding",
    "-nostdlib",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
];
/// The host compiler's flags.
pub const HOST: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

/// Which design a driver drives.
#[derive(Clone, Debug)]
pub enum Kind {
    Pmu(PmuParams),
    Monitor { events: usize, order_width: usize },
}

/// One driver: the file and what it was generated for.
pub struct Driver {
    pub file: Artifact,
    pub kind: Kind,
    pub reach: Reach,
}

impl Driver {
    /// The prefix of its functions and types.
    pub fn prefix(&self) -> String {
        self.file.name.trim_end_matches("_driver.h").to_string()
    }
}

pub fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The interface the PMU's 32-bit bus slaves (`--bus axi4lite|wishbone --bus-width 32`)
/// give their driver: the call their `generate` makes.
fn pmu32(design: &PmuDesign, bus: Bus) -> Artifact {
    let top = format!("{}32", bus.top_name(&design.top_name()));
    let (title, flags) =
        (format!("its 32-bit {} slave", bus.title()), format!("--bus {} --bus-width 32", bus.flag_value()));
    design.c_driver(&DriverInterface { top: &top, reach: Reach::Bus { data_bits: 32 }, title: &title, flags: &flags })
}

fn reach_of(bus: Bus, data_bits: usize) -> Reach {
    if bus == Bus::Bare {
        Reach::Port
    } else {
        Reach::Bus { data_bits }
    }
}

/// Every driver under test: the committed ones of the default designs (generated/,
/// kept current by tests/outputs/generated.rs), then other configurations and the
/// PMU's 32-bit layout, generated here.
pub fn drivers() -> Vec<Driver> {
    let mut drivers = Vec::new();
    let monitors: [(usize, usize, bool); 3] = [(8, 3, true), (2, 2, false), (32, 5, false)];
    for (events, order_width, committed) in monitors {
        let design = design::monitor(MonitorParams::new(events as u64, order_width as u64).unwrap());
        for bus in Bus::ALL {
            let mut file = design::bus::c_driver(design.as_ref(), bus);
            if committed {
                file.text = std::fs::read_to_string(repository("generated").join(&file.name)).unwrap();
            }
            drivers.push(Driver { file, kind: Kind::Monitor { events, order_width }, reach: reach_of(bus, 32) });
        }
    }
    for (threads, counters, counter_width, committed) in [(4, 2, 40, true), (1, 1, 16, false), (3, 4, 64, false)] {
        let params = PmuParams::with_default_table(threads, counters, counter_width);
        let design = PmuDesign::new(params.clone());
        for bus in Bus::ALL {
            let mut file = design::bus::c_driver(&design, bus);
            if committed {
                file.text = std::fs::read_to_string(repository("generated").join(&file.name)).unwrap();
            }
            drivers.push(Driver { file, kind: Kind::Pmu(params.clone()), reach: reach_of(bus, 64) });
        }
        for bus in [Bus::Axi4Lite, Bus::Wishbone] {
            let file = pmu32(&design, bus);
            drivers.push(Driver { file, kind: Kind::Pmu(params.clone()), reach: Reach::Bus { data_bits: 32 } });
        }
    }
    drivers
}

/// A fresh directory holding `drivers` and the default designs' register headers.
pub fn workspace(name: &str, drivers: &[Driver]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for driver in drivers {
        std::fs::write(dir.join(&driver.file.name), &driver.file.text).unwrap();
    }
    for entry in std::fs::read_dir(repository("generated")).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with("_regs.h") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(dir.join("model.c"), include_str!("model.c")).unwrap();
    dir
}

/// Run `tool args` in `dir`; a missing tool or a failure (warnings are errors) panics
/// with its output and, for a missing tool, the install line.
pub fn run(tool: &str, args: &[&str], dir: &Path) -> String {
    pmugen_sim::tools::require(&[tool]).unwrap_or_else(|e| panic!("{e}"));
    let (ok, output) = pmugen_sim::tools::run_tool(tool, args, dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(ok, "`{tool} {}` failed in {}:\n{output}", args.join(" "), dir.display());
    output
}

/// Compile `source` (in `dir`) for rv32i and for the host.
pub fn compile_both(dir: &Path, source: &str) {
    run("riscv64-unknown-elf-gcc", &[RV32, &["-c", source, "-o", "rv32.o"]].concat(), dir);
    run("gcc", &[HOST, &["-c", source, "-o", "host.o"]].concat(), dir);
}

/// Run a program built in `dir`; it must exit with 0. Returns its output.
pub fn execute(dir: &Path, program: &str) -> String {
    let output = std::process::Command::new(dir.join(program)).current_dir(dir).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{program} failed in {}:\n{text}", dir.display());
    text
}
