//! The designs pmugen generates, behind one interface: what `generate` writes, and
//! the engines `simulate`, `bench` and the tests run in lockstep (reference model,
//! native rust-hdl model, Verilator model of the generated file).
pub mod any;
pub mod bus;
pub mod fusesoc;
pub mod litex;
pub mod monitor;
pub mod pmu;
pub mod rvfi;

use std::fs::File;
use std::path::Path;

use pmugen_hdl::bus::{AccessCheck, BusLayout};
use pmugen_hdl::regmap::driver::Reach;
use pmugen_sim::ports::Engine;

pub use monitor::monitor;

/// One generated file: its name (in the output directory) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// File name, e.g. `pmu_knc_t4_k2_c40.v`.
    pub name: String,
    /// The file's contents.
    pub text: String,
}

/// One configuration of a design, with inputs `I` and outputs `O` per cycle.
pub trait Design<I, O> {
    /// Which design it is: `monitor` or `pmu` (the FuseSoC library, the CLI's subcommand).
    fn kind(&self) -> &'static str;
    /// The top module's name (every other module name starts with it).
    fn top_name(&self) -> String;
    /// The comment lines every generated file of the design starts with.
    fn header(&self) -> Vec<String>;
    /// The design's Verilog with top module `top` (every module name starts with
    /// it) after the comment lines `header`.
    fn verilog_as(&self, top: &str, header: &[String]) -> Result<String, String>;
    /// The generated Verilog of the design, header included; `generate` writes it
    /// followed by the FuseSoC smoke test bench (inside `` `ifdef PMUGEN_SMOKE_TEST``).
    fn verilog(&self) -> Result<String, String> {
        self.verilog_as(&self.top_name(), &self.header())
    }
    /// The typed model of [`Design::verilog_as`]'s output with top module `top`: its
    /// modules, their ports and instances (what every tool that needs the design's
    /// structure reads, instead of reading the Verilog back).
    fn model_as(&self, top: &str) -> pmugen_hdl::model::DesignModel;
    /// The model of the generated design.
    fn model(&self) -> pmugen_hdl::model::DesignModel {
        self.model_as(&self.top_name())
    }
    /// Where the registers sit on a bus, and who checks access (docs/bus.md).
    fn bus_layout(&self) -> (BusLayout, AccessCheck);
    /// The design's own tables beside its register descriptions (the PMU's event
    /// inputs and event codes), written with the bare and with every wrapped design.
    fn tables(&self) -> Vec<Artifact> {
        Vec::new()
    }
    /// How the smoke test bench identifies the design.
    fn identity(&self) -> fusesoc::IdentityRead;
    /// The register descriptions of the interface `bus` (SystemRDL, IP-XACT, and for
    /// a bus its C header and Markdown table).
    fn register_descriptions(&self, bus: pmugen_hdl::bus::Bus) -> Vec<Artifact>;
    /// `<top>_driver.h`: the C driver of the design on `interface` (docs/pmu.md §12.7,
    /// docs/monitor.md §12).
    fn c_driver(&self, interface: &DriverInterface) -> Artifact;
    /// Everything `generate` writes: the Verilog first, then headers and tables.
    fn artifacts(&self) -> Result<Vec<Artifact>, String>;
    /// A fresh native (rust-hdl) model, optionally writing a VCD waveform.
    fn native(&self, vcd: Option<File>) -> Box<dyn Engine<I, O>>;
    /// The generated Verilog compiled with Verilator (cached), optionally with a VCD.
    fn verilator(&self, vcd: Option<&Path>) -> Result<Box<dyn Engine<I, O>>, String>;
    /// The reference model, written from the design's documentation.
    fn reference(&self) -> Box<dyn Engine<I, O>>;
    /// Seeded random stimulus.
    fn stimulus(&self, seed: u64) -> Box<dyn Iterator<Item = I>>;
    /// The `pmugen` arguments that select this configuration, e.g. `monitor --events 8 --order-width 3`.
    fn arguments(&self) -> String;
    /// The command that regenerates this configuration's files into `out` (the one
    /// every generated file's header gives).
    fn regenerate_command(&self, out: &str) -> String {
        regenerate_command(&self.arguments(), out)
    }
}

/// One interface of a generated top as its C driver reaches it.
#[derive(Clone, Copy, Debug)]
pub struct DriverInterface<'a> {
    /// The generated top: `<top>`, `<top>_axil`, `<top>_wb`, ...
    pub top: &'a str,
    /// How the driver reaches the registers: the bare port, or a bus of 32 or 64 bits.
    pub reach: Reach,
    /// The interface in words, for the driver's first comment (`the AXI4-Lite slave`).
    pub title: &'a str,
    /// The `generate` flags that select the interface: none for the bare port,
    /// `--bus axi4lite`, ...
    pub flags: &'a str,
}

impl DriverInterface<'_> {
    /// The file's name, `<top>_driver.h`.
    pub fn file_name(&self) -> String {
        format!("{}_driver.h", self.top)
    }
    /// The lines the driver opens with: what it drives (`what`: the design and its
    /// parameters), where it comes from (`source`), where its functions are documented
    /// (`docs`), and the command (`arguments` of the design) that regenerates it.
    pub fn comment(&self, what: &str, source: &str, docs: &str, arguments: &str) -> Vec<String> {
        let arguments = format!("{arguments} {}", self.flags);
        vec![
            format!("{}: C driver of {} ({what}) through {}.", self.file_name(), self.top, self.title),
            format!(
                "Header-only C99 for freestanding code: no libc, no allocation, no state but the handle you hold.                  Generated by pmugen {} from {source}.",
                env!("CARGO_PKG_VERSION")
            ),
            format!("Functions and an example: {docs}; the register map: {}_regs.md.", self.top),
            do_not_edit(arguments.trim_end()),
        ]
    }
}

/// `pmugen generate <arguments> --out <out>`: the one way the project writes a
/// regenerate command (headers of generated files, test messages, docs).
pub fn regenerate_command(arguments: &str, out: &str) -> String {
    format!("pmugen generate {arguments} --out {out}")
}

/// The last line of every generated file's header.
pub fn do_not_edit(arguments: &str) -> String {
    format!("Do not edit; regenerate with `{}`.", regenerate_command(arguments, "<the directory of this file>"))
}
