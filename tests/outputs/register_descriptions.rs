//! The SystemRDL and IP-XACT register descriptions of every interface (bare port,
//! AXI4-Lite, Wishbone, and the PMU's 32-bit AXI4-Lite and Wishbone slaves) say what
//! the Rust register tables say, as the tools read them:
//! scripts/register_model.py compiles each `.rdl` with systemrdl-compiler and imports
//! each `.xml` with PeakRDL-ipxact, and prints the elaborated registers; every register
//! instance (address, name, fields with their bits, software access and reset) must
//! match the one computed here from the table, with nothing missing and nothing extra.
//! Every register is as wide as the table's (64 bits for the PMU, also behind a 32-bit
//! slave), and the SystemRDL access width and the IP-XACT block width are the bus's
//! (32 bits behind a 32-bit slave: two words per PMU register). PeakRDL renders the
//! SystemRDL as HTML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::cli::scratch;
use pmugen_hdl::bus::{Bus, BusLayout};
use pmugen_hdl::monitor::{regmap as monitor, regmap_export as monitor_export};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::pmu::{regmap as pmu, regmap_export as pmu_export};
use pmugen_hdl::regmap::{Access, Copies, Field, Params, Register, Reset};
use serde_json::Value;

/// A field as a description must give it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FieldModel {
    lsb: u64,
    msb: u64,
    name: String,
    sw: String,
    reset: Option<u64>,
}

/// A register instance as a description must give it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RegisterModel {
    name: String,
    /// Register width in bits.
    width: u64,
    fields: Vec<FieldModel>,
}

/// Every register instance of a top, by absolute byte address.
type Model = BTreeMap<u64, RegisterModel>;

/// One top's descriptions on disk with the model its table gives.
struct Case {
    label: String,
    top: String,
    rdl: PathBuf,
    xml: PathBuf,
    expected: Model,
    /// The bus data width: SystemRDL's accesswidth, IP-XACT's block width.
    bus_bits: u64,
}

fn venv_tool(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin").join(name);
    assert!(path.exists(), "{} is missing: run scripts/install-python.sh (scripts/test.sh does)", path.display());
    path
}

/// SystemRDL's name of the software access the table's `access` gives.
fn software_access(access: Access) -> &'static str {
    match access {
        Access::ReadOnly => "r",
        Access::ReadWrite => "rw",
        Access::WriteReadsZero | Access::WriteOnly => "w",
    }
}

/// The model of a table: `banks` thread banks at the layout's stride (one on the bare
/// port, where reg_thread selects the bank), each copy of each register at its byte
/// address. `identity` gives the reset of a field of an ID register, if it has one.
fn expected<S>(
    table: &[Register<S>],
    params: Params,
    layout: &BusLayout,
    banks: usize,
    identity: &dyn Fn(&Field) -> Option<u64>,
) -> Model {
    let mut model = Model::new();
    for bank in 0..banks {
        for register in table {
            for (index, word_address) in register.addresses(params).enumerate() {
                let name = match register.copies {
                    Copies::One | Copies::OneIf { .. } => register.name.to_string(),
                    Copies::Indexed { .. } => format!("{}[{index}]", register.name),
                };
                let fields = register
                    .fields
                    .iter()
                    .map(|field| FieldModel {
                        lsb: field.lsb as u64,
                        msb: (field.lsb + field.width.bits(params) - 1) as u64,
                        name: field.name.to_string(),
                        sw: software_access(register.access).to_string(),
                        reset: match register.reset {
                            Reset::Value(value) => Some(field.extract(value, params)),
                            Reset::Described(_) => identity(field),
                            Reset::None => None,
                        },
                    })
                    .collect();
                let address = layout.byte_address(word_address, bank) as u64;
                let width = layout.data_bits as u64;
                let previous = model.insert(address, RegisterModel { name, width, fields });
                assert!(previous.is_none(), "two registers at 0x{address:X}");
            }
        }
    }
    model
}

/// The monitor's model: one bank on every interface; the ID fields are constants.
fn monitor_model(events: usize, order_width: usize) -> Model {
    let params = monitor::params(events, order_width);
    let id = monitor::id_value(events, order_width) as u64;
    expected(monitor::REGISTERS, &params, &BusLayout::MONITOR, 1, &|field| Some(field.extract(id, &params)))
}

fn monitor_case(dir: &Path, events: usize, order_width: usize, bus: Bus) -> Case {
    let top = MonitorParams::new(events as u64, order_width as u64).unwrap().top_name();
    let expected = monitor_model(events, order_width);
    let files = monitor_export::descriptions(&top, events, order_width, bus);
    let label = format!("monitor N={events} W={order_width} {}", bus.flag_value());
    write_case(dir, label, bus.top_name(&top), files, expected, 32)
}

fn pmu_case(dir: &Path, params: &PmuParams, bus: Bus) -> Case {
    let lookup = params.lookup();
    // Behind a 32-bit slave the registers keep their addresses and widths.
    let layout = BusLayout::pmu(params.threads);
    // On a bus the address selects the bank, so every thread's bank is listed.
    let banks = if bus == Bus::Bare { 1 } else { params.threads };
    let id = pmu::id_value(params, 0);
    // PMU_ID.THREAD reads the accessing thread: no constant, so no reset value.
    let identity = |field: &Field| (*field != pmu::ID_THREAD).then(|| field.extract(id, &lookup));
    let expected = expected(pmu::REGISTERS, &lookup, &layout, banks, &identity);
    let files = pmu_export::descriptions(params, bus);
    let label = format!(
        "pmu T={} K={} CW={} D={} AW={} {}",
        params.threads,
        params.counters,
        params.counter_width,
        params.trace_depth,
        params.address_width,
        bus.arguments()
    );
    let bus_bits = bus.narrow_width().unwrap_or(64) as u64;
    write_case(dir, label, bus.top_name(&params.top_name()), files, expected, bus_bits)
}

fn write_case(
    dir: &Path,
    label: String,
    top: String,
    files: Vec<(String, String)>,
    expected: Model,
    bus_bits: u64,
) -> Case {
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(&name);
        std::fs::write(&path, text).unwrap();
        written.push(path);
    }
    let find = |extension: &str| {
        let name = format!("{top}.{extension}");
        written
            .iter()
            .find(|path| path.file_name().unwrap() == name.as_str())
            .cloned()
            .unwrap_or_else(|| panic!("{label}: no {name}"))
    };
    let (rdl, xml) = (find("rdl"), find("xml"));
    Case { label, top, rdl, xml, expected, bus_bits }
}

/// The elaborated models of `files` (IP-XACT with `ipxact`), by file path.
fn register_models(files: &[&Path], ipxact: bool) -> serde_json::Map<String, Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/register_model.py");
    let mut command = Command::new(venv_tool("python"));
    command.arg(script);
    if ipxact {
        command.arg("--ipxact");
    }
    let output = command.args(files).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "register_model.py failed:\n{stderr}");
    match serde_json::from_slice(&output.stdout).unwrap() {
        Value::Object(models) => models,
        other => panic!("register_model.py printed {other}"),
    }
}

/// A description's elaborated registers as a [`Model`].
fn parsed(model: &Value) -> Model {
    let number = |value: &Value| value.as_u64().unwrap_or_else(|| panic!("{value} is no number"));
    let text = |value: &Value| value.as_str().unwrap_or_else(|| panic!("{value} is no string")).to_string();
    let mut registers = Model::new();
    for register in model["registers"].as_array().unwrap() {
        let mut fields: Vec<FieldModel> = register["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|field| FieldModel {
                lsb: number(&field["lsb"]),
                msb: number(&field["msb"]),
                name: text(&field["name"]),
                sw: text(&field["sw"]),
                reset: field.get("reset").map(number),
            })
            .collect();
        fields.sort();
        let address = number(&register["address"]);
        let model = RegisterModel { name: text(&register["name"]), width: number(&register["regwidth"]), fields };
        let previous = registers.insert(address, model);
        assert!(previous.is_none(), "two registers at 0x{address:X}");
    }
    registers
}

/// Compare a description's model with the table's, both ways; the differences, if any.
fn differences(expected: &Model, actual: &Model) -> Vec<String> {
    let mut found = Vec::new();
    for (address, register) in expected {
        match actual.get(address) {
            None => found.push(format!("0x{address:X} {} missing", register.name)),
            Some(described) if described != register => {
                found.push(format!("0x{address:X}: table {register:?}, description {described:?}"))
            }
            Some(_) => {}
        }
    }
    for (address, register) in actual {
        if !expected.contains_key(address) {
            found.push(format!("0x{address:X} {} is not in the table", register.name));
        }
    }
    found
}

/// The access widths a SystemRDL model gives its registers that differ from the bus's.
fn access_widths(case: &Case, model: &Value) -> Vec<String> {
    let registers = model["registers"].as_array().unwrap();
    let wrong: Vec<String> = registers
        .iter()
        .filter(|register| register["accesswidth"].as_u64() != Some(case.bus_bits))
        .map(|register| format!("{} accesswidth {}", register["name"], register["accesswidth"]))
        .collect();
    wrong.into_iter().map(|wrong| format!("{}: SystemRDL: {wrong}, not {}", case.label, case.bus_bits)).collect()
}

/// The IP-XACT address blocks whose width is not the bus's.
fn block_widths(case: &Case) -> Vec<String> {
    let xml = std::fs::read_to_string(&case.xml).unwrap();
    let blocks: Vec<&str> = xml.split("<ipxact:addressBlock>").skip(1).collect();
    let width = format!("<ipxact:width>{}</ipxact:width>", case.bus_bits);
    let wrong = blocks.iter().filter(|block| !block.contains(&width)).count();
    (wrong > 0)
        .then(|| format!("{}: IP-XACT: {wrong} address blocks not {} bits wide", case.label, case.bus_bits))
        .into_iter()
        .collect()
}

fn check(case: &Case, format: &str, model: &Value, top_matches: impl Fn(&str) -> bool) -> Vec<String> {
    let mut problems = Vec::new();
    let top = model["top"].as_str().unwrap_or_default();
    if !top_matches(top) {
        problems.push(format!("{}: {format} top is {top}, not {}", case.label, case.top));
    }
    if let Some(warnings) = model["warnings"].as_array().filter(|warnings| !warnings.is_empty()) {
        problems.push(format!("{}: {format} warnings {warnings:?}", case.label));
    }
    let actual = parsed(model);
    let differences = differences(&case.expected, &actual);
    let fields: usize = actual.values().map(|register| register.fields.len()).sum();
    if differences.is_empty() {
        println!("{}: {format}: {} registers, {fields} fields match the table", case.label, actual.len());
    }
    problems.extend(differences.into_iter().map(|difference| format!("{}: {format}: {difference}", case.label)));
    problems
}

#[test]
fn the_comparison_finds_missing_extra_and_changed_registers() {
    let table = monitor_model(8, 3);
    assert!(differences(&table, &table).is_empty());
    let (&first, _) = table.first_key_value().unwrap();
    let (&last, last_register) = table.last_key_value().unwrap();

    let mut missing = table.clone();
    missing.remove(&first);
    let mut extra = table.clone();
    extra.insert(last + BusLayout::MONITOR.bytes() as u64, last_register.clone());
    let mut changed_reset = table.clone();
    let field = &mut changed_reset.get_mut(&first).unwrap().fields[0];
    field.reset = field.reset.map(|value| value + 1);
    let mut changed_access = table.clone();
    changed_access.get_mut(&last).unwrap().fields[0].sw = "rw1".to_string();
    let mut renamed = table.clone();
    renamed.get_mut(&last).unwrap().name.push_str("_X");
    for (what, described) in [
        ("missing", missing),
        ("extra", extra),
        ("reset", changed_reset),
        ("access", changed_access),
        ("name", renamed),
    ] {
        assert_eq!(differences(&table, &described).len(), 1, "a changed {what} is one difference");
    }
    println!("a missing, an extra, a renamed register and a changed reset and access are each found");
}

#[test]
fn systemrdl_and_ipxact_describe_every_register_of_the_table() {
    let dir = scratch("register-descriptions");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = Vec::new();
    for (events, order_width) in [(2, 2), (8, 3), (32, 5)] {
        for bus in Bus::ALL {
            cases.push(monitor_case(&dir, events, order_width, bus));
        }
    }
    let mut pmus: Vec<PmuParams> = [1, 2, 4].map(|threads| PmuParams::with_default_table(threads, 2, 40)).into();
    // The most counters, a wider counter and a non-default trace unit with a profile
    // table (its two registers, and the ID value's log2 E).
    pmus.push(PmuParams::with_default_table(2, 4, 48).with_trace(64, 24).unwrap().with_profile(16).unwrap());
    for params in &pmus {
        for bus in Bus::ALL.into_iter().chain(Bus::NARROW) {
            cases.push(pmu_case(&dir, params, bus));
        }
    }
    let rdl_files: Vec<&Path> = cases.iter().map(|case| case.rdl.as_path()).collect();
    let xml_files: Vec<&Path> = cases.iter().map(|case| case.xml.as_path()).collect();
    let (rdl_models, xml_models) = (register_models(&rdl_files, false), register_models(&xml_files, true));
    let mut problems = Vec::new();
    for case in &cases {
        let rdl = &rdl_models[case.rdl.to_str().unwrap()];
        problems.extend(check(case, "SystemRDL", rdl, |top| top == case.top));
        problems.extend(access_widths(case, rdl));
        problems.extend(block_widths(case));
        // The importer names the top after the component and its memory map.
        let xml = &xml_models[case.xml.to_str().unwrap()];
        problems.extend(check(case, "IP-XACT", xml, |top| top.starts_with(&format!("{}__", case.top))));
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    println!("{} tops compared, SystemRDL and IP-XACT each", cases.len());
}

#[test]
fn peakrdl_renders_the_systemrdl_as_html() {
    let dir = scratch("register-descriptions-html");
    std::fs::create_dir_all(&dir).unwrap();
    let monitor_top = MonitorParams::new(8, 3).unwrap().top_name();
    // With a profile table, so that every register of the table is rendered.
    let pmu_params = PmuParams::with_default_table(4, 2, 40).with_profile(256).unwrap();
    let renders = [
        (
            monitor_export::descriptions(&monitor_top, 8, 3, Bus::Bare),
            monitor::REGISTERS.iter().map(|r| r.name).collect::<Vec<_>>(),
        ),
        (pmu_export::descriptions(&pmu_params, Bus::Axi4Lite), pmu::REGISTERS.iter().map(|r| r.name).collect()),
        (pmu_export::descriptions(&pmu_params, Bus::Wishbone32), pmu::REGISTERS.iter().map(|r| r.name).collect()),
    ];
    for (files, register_names) in renders {
        let (name, text) = files.into_iter().find(|(name, _)| name.ends_with(".rdl")).unwrap();
        let rdl = dir.join(&name);
        std::fs::write(&rdl, text).unwrap();
        let html = dir.join(name.trim_end_matches(".rdl"));
        let top = name.trim_end_matches(".rdl");
        let output = Command::new(venv_tool("peakrdl"))
            .arg("html")
            .arg(&rdl)
            .arg("-o")
            .arg(&html)
            .args(["--title", &format!("{top} registers")])
            .output()
            .unwrap();
        let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success(), "peakrdl html {name} failed:\n{log}");
        // index.html is only the frame (with the title); the registers are named in the
        // pages under content/, which its scripts load.
        let index = std::fs::read_to_string(html.join("index.html")).unwrap();
        assert!(index.contains(top), "{}/index.html does not name {top}", html.display());
        let pages: String = std::fs::read_dir(html.join("content"))
            .unwrap()
            .map(|page| std::fs::read_to_string(page.unwrap().path()).unwrap())
            .collect();
        for register in &register_names {
            assert!(pages.contains(&format!(">{register}<")), "no page of {}/content names {register}", html.display());
        }
        println!(
            "peakrdl html {name}: {}/index.html ({top}) and pages naming all {} registers",
            html.display(),
            register_names.len()
        );
    }
}
