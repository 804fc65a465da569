//! Every timing diagram in docs/timing/<name>.json (WaveJSON) is what the generated
//! Verilog does, and its committed picture generated/timing/<name>.svg is the fresh
//! WaveDrom render of it.
//!
//! For each diagram the test generates the design its "pmugen" key names, writes an
//! Icarus test bench that drives the drawn input ports column by column (every other
//! input 0, after the stated reset cycles), samples every drawn output just before the
//! rising edge that ends each cycle, and compares each with the drawing ('x' = don't
//! care). A '|' column stands for the number of cycles its "gaps" entry gives, with
//! every lane holding the value of the column before it, as WaveDrom draws it; all of
//! those cycles are simulated and checked too.

use crate::common::cli::{pmugen, scratch, venv};
use pmugen_sim::tools::run_tool;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn diagram_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("docs/timing"))
        .expect("docs/timing exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no diagrams in docs/timing");
    paths
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// A drawn value in one column: a number, or 'x' (the diagram does not say).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    Value(u64),
    DontCare,
}

/// One lane's per-column values; `gap[c]` marks the '|' columns.
#[derive(Debug, PartialEq)]
struct Wave {
    levels: Vec<Level>,
    gap: Vec<bool>,
}

/// A data label's value is its first word ("0x04 COUNT" is 4); the rest names it for
/// the reader.
fn label_value(label: &str) -> Result<u64, String> {
    let word = label.split_whitespace().next().unwrap_or("");
    let parsed = if let Some(hex) = word.strip_prefix("0x") {
        u64::from_str_radix(hex, 16)
    } else if let Some(binary) = word.strip_prefix("0b") {
        u64::from_str_radix(binary, 2)
    } else {
        word.parse()
    };
    parsed.map_err(|_| format!("data label {label:?} does not start with a number (0x.., 0b.. or decimal)"))
}

/// Expand a WaveDrom wave string into one value per column. Only the characters the
/// diagrams use are accepted; anything else (z, u, d, h, l, sub-cycles '<' '>', ...)
/// would need a meaning in the replay first, so it is refused.
fn expand_wave(wave: &str, data: &[String]) -> Result<Wave, String> {
    let mut labels = data.iter();
    let mut result = Wave { levels: Vec::new(), gap: Vec::new() };
    for (column, character) in wave.chars().enumerate() {
        let previous = result.levels.last().copied();
        let level = match character {
            '0' => Level::Value(0),
            '1' => Level::Value(1),
            'x' => Level::DontCare,
            '=' | '2'..='9' => {
                let label =
                    labels.next().ok_or_else(|| format!("column {column}: '{character}' has no data label left"))?;
                Level::Value(label_value(label)?)
            }
            '.' | '|' => previous.ok_or_else(|| format!("column {column}: '{character}' continues nothing"))?,
            other => {
                return Err(format!(
                    "column {column}: wave character '{other}' is not supported here (only . 0 1 x = 2-9 |)"
                ))
            }
        };
        result.levels.push(level);
        result.gap.push(character == '|');
    }
    if let Some(unused) = labels.next() {
        return Err(format!("data label {unused:?} is not used by any '=' of the wave"));
    }
    Ok(result)
}

/// The clock lane: 'p' (a rising edge at the start of every column, so the edge that
/// ends column k's cycle is its right border) continued by '.' or '|'.
fn expand_clock(wave: &str) -> Result<Vec<bool>, String> {
    let mut characters = wave.chars();
    if characters.next() != Some('p') {
        return Err(format!("the clock lane must start with 'p', got {wave:?}"));
    }
    let mut gap = vec![false];
    for character in characters {
        match character {
            '.' => gap.push(false),
            '|' => gap.push(true),
            other => return Err(format!("the clock lane may only continue with '.' or '|', got '{other}'")),
        }
    }
    Ok(gap)
}

struct Lane {
    name: String,
    wave: Wave,
}

/// A diagram and how to replay it.
struct Diagram {
    name: String,
    design: String,
    args: Vec<String>,
    top: String,
    reset_cycles: usize,
    lanes: Vec<Lane>,
    /// Per column: its first cycle and how many cycles it stands for.
    columns: Vec<(usize, usize)>,
}

fn only_keys(object: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(format!("{what}: key {key:?} is not supported here (only {allowed:?})")),
        None => Ok(()),
    }
}

fn string_of(value: &Value, what: &str) -> Result<String, String> {
    value.as_str().map(str::to_string).ok_or_else(|| format!("{what} must be a string"))
}

fn strings_of(value: Option<&Value>, what: &str) -> Result<Vec<String>, String> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items.iter().map(|item| string_of(item, what)).collect(),
        Some(_) => Err(format!("{what} must be an array of strings")),
    }
}

/// The lanes in drawing order; groups (["name", lane, ...]) are flattened.
fn collect_lanes(items: &[Value], lanes: &mut Vec<(String, String, Vec<String>)>) -> Result<(), String> {
    for item in items {
        match item {
            Value::Array(group) => match group.split_first() {
                Some((Value::String(_), grouped)) => collect_lanes(grouped, lanes)?,
                _ => return Err("a lane group must start with its name".into()),
            },
            Value::Object(lane) => {
                only_keys(lane, &["name", "wave", "data"], "a lane")?;
                let name = string_of(lane.get("name").unwrap_or(&Value::Null), "a lane's name")?;
                let wave = string_of(lane.get("wave").unwrap_or(&Value::Null), &format!("lane {name}: wave"))?;
                let data = strings_of(lane.get("data"), &format!("lane {name}: data"))?;
                lanes.push((name, wave, data));
            }
            _ => return Err(format!("{item} is not a lane or a lane group")),
        }
    }
    Ok(())
}

fn caption_of(source: &Map<String, Value>, key: &str, gaps: bool) -> Result<(), String> {
    let Some(Value::Object(caption)) = source.get(key) else {
        return Err(format!("\"{key}\" with a \"text\" caption is required"));
    };
    only_keys(caption, &["text", "tock"], key)?;
    if caption.get("text").and_then(Value::as_str).is_none_or(str::is_empty) {
        return Err(format!("\"{key}\".text must be a non-empty caption"));
    }
    // WaveDrom numbers the columns from "tock"; the numbers are the cycles only when
    // they start at 0 and no column stands for several cycles.
    match caption.get("tock") {
        None => Ok(()),
        Some(tock) if tock.as_u64() == Some(0) && !gaps => Ok(()),
        Some(tock) => {
            Err(format!("\"{key}\".tock = {tock}: only 0, and only in a diagram without gaps, numbers the cycles"))
        }
    }
}

impl Diagram {
    fn load(path: &Path) -> Result<Diagram, String> {
        let text = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
        let source: Value = serde_json::from_str(&text).map_err(|err| format!("not JSON: {err}"))?;
        let source = source.as_object().ok_or("not a JSON object")?;
        only_keys(source, &["pmugen", "signal", "head", "foot", "config"], "the diagram")?;
        if let Some(config) = source.get("config") {
            // hscale only widens the columns; hbounds or a skin could change what is shown.
            only_keys(config.as_object().ok_or("\"config\" must be an object")?, &["hscale"], "config")?;
        }

        let replay = source.get("pmugen").and_then(Value::as_object).ok_or("the \"pmugen\" object is missing")?;
        only_keys(replay, &["design", "args", "top", "reset_cycles", "gaps"], "pmugen")?;
        let design = string_of(replay.get("design").unwrap_or(&Value::Null), "pmugen.design")?;
        let args = strings_of(replay.get("args"), "pmugen.args")?;
        let top = string_of(replay.get("top").unwrap_or(&Value::Null), "pmugen.top")?;
        let reset_cycles =
            replay.get("reset_cycles").and_then(Value::as_u64).ok_or("pmugen.reset_cycles must be a number")?;
        let gaps: Vec<usize> = match replay.get("gaps") {
            None => Vec::new(),
            Some(Value::Array(gaps)) => gaps
                .iter()
                .map(|gap| gap.as_u64().filter(|&cycles| cycles > 0).map(|cycles| cycles as usize))
                .collect::<Option<_>>()
                .ok_or("pmugen.gaps must be positive cycle counts")?,
            Some(_) => return Err("pmugen.gaps must be an array".into()),
        };
        caption_of(source, "head", !gaps.is_empty())?;
        caption_of(source, "foot", !gaps.is_empty())?;

        let mut drawn = Vec::new();
        collect_lanes(
            source.get("signal").and_then(Value::as_array).ok_or("\"signal\" must be an array")?,
            &mut drawn,
        )?;
        let clock_lanes: Vec<&(String, String, Vec<String>)> =
            drawn.iter().filter(|(name, _, _)| name == "clock").collect();
        let [(_, clock_wave, _)] = clock_lanes[..] else {
            return Err(format!("exactly one lane must be the clock, found {}", clock_lanes.len()));
        };
        let gap_columns = expand_clock(clock_wave)?;
        let mut lanes = Vec::new();
        for (name, wave, data) in drawn.iter().filter(|(name, _, _)| name != "clock") {
            if lanes.iter().any(|lane: &Lane| &lane.name == name) {
                return Err(format!("lane {name} is drawn twice"));
            }
            let wave = expand_wave(wave, data).map_err(|err| format!("lane {name}: {err}"))?;
            if wave.gap != gap_columns {
                return Err(format!(
                    "lane {name}: its {} columns and '|' gaps do not line up with the clock's {}",
                    wave.gap.len(),
                    gap_columns.len()
                ));
            }
            lanes.push(Lane { name: name.clone(), wave });
        }
        let gap_count = gap_columns.iter().filter(|&&gap| gap).count();
        if gap_count != gaps.len() {
            return Err(format!("{gap_count} '|' columns but pmugen.gaps gives {} cycle counts", gaps.len()));
        }
        let mut gap_cycles = gaps.iter();
        let mut next_cycle = 0;
        let columns = gap_columns
            .iter()
            .map(|&gap| {
                let cycles = if gap { *gap_cycles.next().unwrap() } else { 1 };
                next_cycle += cycles;
                (next_cycle - cycles, cycles)
            })
            .collect();
        Ok(Diagram { name: stem(path), design, args, top, reset_cycles: reset_cycles as usize, lanes, columns })
    }

    fn cycles(&self) -> usize {
        self.columns.iter().map(|(_, cycles)| cycles).sum()
    }

    /// The column that draws `cycle`.
    fn column_of(&self, cycle: usize) -> usize {
        self.columns.iter().position(|&(first, cycles)| (first..first + cycles).contains(&cycle)).unwrap()
    }

    fn describe_cycle(&self, cycle: usize) -> String {
        let column = self.column_of(cycle);
        let (first, cycles) = self.columns[column];
        if cycles == 1 {
            format!("cycle {cycle} (column {column})")
        } else {
            format!("cycle {cycle} (column {column}, the '|' gap for cycles {first}..={})", first + cycles - 1)
        }
    }
}

struct Port {
    name: String,
    input: bool,
    width: usize,
}

/// The ports of module `top` as the generated Verilog declares them
/// (`input wire [7:0] events;`).
fn verilog_ports(verilog: &str, top: &str) -> Result<Vec<Port>, String> {
    let header = format!("module {top}(");
    let body = verilog.split_once(&header).ok_or_else(|| format!("no `{header}` in the generated Verilog"))?.1;
    let body = body.split("endmodule").next().unwrap();
    let mut ports = Vec::new();
    for line in body.lines() {
        let words: Vec<&str> = line.trim().trim_end_matches(';').split_whitespace().collect();
        let input = match words.first() {
            Some(&"input") => true,
            Some(&"output") => false,
            _ => continue,
        };
        let width = match words.iter().find(|word| word.starts_with('[')) {
            Some(range) => {
                let msb = range.trim_start_matches('[').split(':').next().unwrap();
                msb.parse::<usize>().map_err(|_| format!("cannot read the range of `{}`", line.trim()))? + 1
            }
            None => 1,
        };
        ports.push(Port { name: words.last().unwrap().to_string(), input, width });
    }
    Ok(ports)
}

fn verilog_literal(level: Level, width: usize) -> String {
    match level {
        Level::Value(value) => format!("{width}'h{value:x}"),
        Level::DontCare => format!("{{{width}{{1'bx}}}}"),
    }
}

/// The test bench: `reset_cycles` cycles with `reset` high and every other input 0,
/// then one block per cycle: inputs change with the clock low, outputs are printed
/// 1 ns before the rising edge that ends the cycle. Drawn 'x' inputs are driven as X,
/// so a design that depended on them would show it in its outputs.
fn testbench(diagram: &Diagram, ports: &[Port]) -> String {
    let mut bench = String::from("`timescale 1ns / 1ps\nmodule timing_tb;\n");
    for port in ports {
        let range = if port.width > 1 { format!("[{}:0] ", port.width - 1) } else { String::new() };
        if port.input {
            bench += &format!("    reg {range}{} = 0;\n", port.name);
        } else {
            bench += &format!("    wire {range}{};\n", port.name);
        }
    }
    let connections: Vec<String> = ports.iter().map(|port| format!(".{0}({0})", port.name)).collect();
    bench += &format!("    {} dut ({});\n    initial begin\n", diagram.top, connections.join(", "));
    for _ in 0..diagram.reset_cycles {
        bench += "        reset = 1; #5 clock = 1; #5 clock = 0;\n";
    }
    bench += "        reset = 0;\n";
    let width_of = |name: &str| ports.iter().find(|port| port.name == name).unwrap().width;
    let is_input = |name: &str| ports.iter().any(|port| port.name == name && port.input);
    let outputs: Vec<&Lane> = diagram.lanes.iter().filter(|lane| !is_input(&lane.name)).collect();
    let format = vec!["%h"; outputs.len()].join(" ");
    let sampled: Vec<&str> = outputs.iter().map(|lane| lane.name.as_str()).collect();
    for cycle in 0..diagram.cycles() {
        let column = diagram.column_of(cycle);
        let mut statements = Vec::new();
        for lane in diagram.lanes.iter().filter(|lane| is_input(&lane.name)) {
            statements.push(format!(
                "{} = {};",
                lane.name,
                verilog_literal(lane.wave.levels[column], width_of(&lane.name))
            ));
        }
        bench += &format!(
            "        {} #4 $display(\"cycle {cycle} {format}\", {}); #1 clock = 1; #5 clock = 0;\n",
            statements.join(" "),
            sampled.join(", ")
        );
    }
    bench += "        $finish;\n    end\nendmodule\n";
    bench
}

fn show(level: Level, width: usize) -> String {
    match level {
        Level::Value(value) if width == 1 => value.to_string(),
        Level::Value(value) => format!("0x{value:X}"),
        Level::DontCare => "x".into(),
    }
}

/// Generate the diagram's design, simulate the bench with Icarus and return every
/// difference between drawing and simulation, one line each.
fn replay(diagram: &Diagram) -> Result<Vec<String>, String> {
    let dir = scratch(&format!("timing-{}", diagram.name));
    let mut arguments = vec!["generate", diagram.design.as_str()];
    arguments.extend(diagram.args.iter().map(String::as_str));
    let out = dir.to_string_lossy().into_owned();
    arguments.extend(["--out", &out]);
    let (ok, text) = pmugen(&arguments);
    if !ok {
        return Err(format!("`pmugen {}` failed:\n{text}", arguments.join(" ")));
    }
    let verilog_file = format!("{}.v", diagram.top);
    let verilog = std::fs::read_to_string(dir.join(&verilog_file))
        .map_err(|err| format!("`pmugen {}` wrote no {verilog_file}: {err}", arguments.join(" ")))?;
    let ports = verilog_ports(&verilog, &diagram.top)?;
    for lane in &diagram.lanes {
        let port = ports.iter().find(|port| port.name == lane.name).ok_or_else(|| {
            let names: Vec<&str> = ports.iter().map(|port| port.name.as_str()).collect();
            format!("lane {} is not a port of {} (ports: {})", lane.name, diagram.top, names.join(", "))
        })?;
        for (column, level) in lane.wave.levels.iter().enumerate() {
            if let Level::Value(value) = level {
                if port.width < 64 && *value >> port.width != 0 {
                    return Err(format!(
                        "lane {} column {column}: 0x{value:X} does not fit its {} bits",
                        lane.name, port.width
                    ));
                }
            }
        }
    }
    for required in ["clock", "reset"] {
        if !ports.iter().any(|port| port.name == required && port.input) {
            return Err(format!("{} has no input `{required}`", diagram.top));
        }
    }
    let outputs: Vec<&Lane> =
        diagram.lanes.iter().filter(|lane| ports.iter().any(|p| p.name == lane.name && !p.input)).collect();
    if outputs.is_empty() {
        return Err("the diagram draws no output, so it claims nothing to check".into());
    }

    std::fs::write(dir.join("timing_tb.v"), testbench(diagram, &ports)).unwrap();
    let compile = ["-g2005", "-Wall", "-s", "timing_tb", "-o", "timing_tb.vvp", "timing_tb.v", &verilog_file];
    let rerun = format!("cd {} && iverilog {} && vvp -n timing_tb.vvp", dir.display(), compile.join(" "));
    let (ok, log) = run_tool("iverilog", &compile, &dir)?;
    if !ok {
        return Err(format!("iverilog failed ({rerun}):\n{log}"));
    }
    // The generated Verilog is checked for warnings elsewhere; the bench must add none
    // (a port width it got wrong would show here).
    let bench_warnings: Vec<&str> = log.lines().filter(|line| line.contains("timing_tb.v")).collect();
    if !bench_warnings.is_empty() {
        return Err(format!("iverilog warns about the bench ({rerun}):\n{}", bench_warnings.join("\n")));
    }
    let (ok, log) = run_tool("vvp", &["-n", "timing_tb.vvp"], &dir)?;
    if !ok {
        return Err(format!("vvp failed ({rerun}):\n{log}"));
    }

    let samples: Vec<Vec<&str>> = log
        .lines()
        .filter_map(|line| line.strip_prefix("cycle "))
        .map(|line| line.split_whitespace().skip(1).collect())
        .collect();
    if samples.len() != diagram.cycles() {
        return Err(format!(
            "the bench printed {} cycles, expected {} ({rerun}):\n{log}",
            samples.len(),
            diagram.cycles()
        ));
    }
    let mut differences = Vec::new();
    // A wrong lane through a long gap would repeat one complaint per cycle: the first
    // cycle of each (lane, column) is reported, with the count of the others.
    let mut reported: Vec<(usize, usize, usize)> = Vec::new();
    for (cycle, values) in samples.iter().enumerate() {
        let column = diagram.column_of(cycle);
        for (index, (lane, simulated)) in outputs.iter().zip(values).enumerate() {
            let drawn = lane.wave.levels[column];
            let Level::Value(expected) = drawn else { continue };
            // %h prints x or z digits for unknown bits; those never equal a drawn value.
            let value = u64::from_str_radix(simulated, 16).ok();
            if value == Some(expected) {
                continue;
            }
            if let Some(seen) = reported.iter_mut().find(|(lane, col, _)| (*lane, *col) == (index, column)) {
                seen.2 += 1;
                continue;
            }
            reported.push((index, column, 0));
            let width = ports.iter().find(|port| port.name == lane.name).unwrap().width;
            let simulated = value.map_or_else(|| simulated.to_string(), |value| show(Level::Value(value), width));
            differences.push(format!(
                "{}: {} in {}: drawn {}, simulated {simulated}",
                diagram.name,
                lane.name,
                diagram.describe_cycle(cycle),
                show(drawn, width)
            ));
        }
    }
    for (difference, (_, _, more)) in differences.iter_mut().zip(&reported) {
        if *more > 0 {
            *difference += &format!(" (and in {more} later cycles of that gap)");
        }
    }
    if !differences.is_empty() {
        differences.push(format!("  (bench and Verilog kept; rerun: {rerun})"));
    }
    Ok(differences)
}

#[test]
fn every_timing_diagram_is_what_the_generated_verilog_does() {
    let paths = diagram_paths();
    // One thread per diagram: generation and Icarus runs are independent.
    let reports: Vec<(String, Result<Vec<String>, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = paths
            .iter()
            .map(|path| scope.spawn(move || (stem(path), Diagram::load(path).and_then(|diagram| replay(&diagram)))))
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for (name, report) in reports {
        match report {
            Ok(differences) if differences.is_empty() => println!("{name}: every drawn output matches the simulation"),
            Ok(differences) => failures.extend(differences),
            Err(err) => failures.push(format!("{name} (docs/timing/{name}.json): {err}")),
        }
    }
    assert!(
        failures.is_empty(),
        "timing diagrams that the generated Verilog does not follow:\n{}",
        failures.join("\n")
    );
}

fn render(diagrams: &[PathBuf], out: &Path) {
    let output = Command::new(venv("python"))
        .arg(root().join("scripts/render_timing.py"))
        .arg("--out")
        .arg(out)
        .args(diagrams)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "scripts/render_timing.py failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_committed_svg_is_the_fresh_render_of_its_diagram() {
    let paths = diagram_paths();
    let dir = scratch("timing-render");
    render(&paths, &dir.join("svg"));
    let committed_dir = root().join("generated/timing");
    for path in &paths {
        let name = stem(path);
        let fresh = std::fs::read(dir.join("svg").join(format!("{name}.svg"))).unwrap();
        let committed = std::fs::read(committed_dir.join(format!("{name}.svg"))).unwrap_or_default();
        assert!(
            fresh == committed,
            "generated/timing/{name}.svg is not the render of docs/timing/{name}.json: \
             run `target/venv/bin/python scripts/render_timing.py` and commit the result"
        );
    }
    for entry in std::fs::read_dir(&committed_dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let source = root().join("docs/timing").join(name.replace(".svg", ".json"));
        assert!(name.ends_with(".svg") && source.exists(), "generated/timing/{name} has no diagram docs/timing/*.json");
    }

    // The replay's "pmugen" key must not change the picture: WaveDrom has to ignore it.
    let stripped_dir = dir.join("without-replay-key");
    std::fs::create_dir_all(&stripped_dir).unwrap();
    let stripped: Vec<PathBuf> = paths
        .iter()
        .map(|path| {
            let mut source: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            source.as_object_mut().unwrap().remove("pmugen");
            let copy = stripped_dir.join(path.file_name().unwrap());
            std::fs::write(&copy, serde_json::to_string_pretty(&source).unwrap()).unwrap();
            copy
        })
        .collect();
    render(&stripped, &stripped_dir.join("svg"));
    for path in &paths {
        let name = format!("{}.svg", stem(path));
        assert!(
            std::fs::read(dir.join("svg").join(&name)).unwrap()
                == std::fs::read(stripped_dir.join("svg").join(&name)).unwrap(),
            "WaveDrom draws docs/timing/{} differently without its \"pmugen\" key",
            path.display()
        );
    }
}

#[test]
fn docs_timing_md_shows_every_diagram() {
    let page = std::fs::read_to_string(root().join("docs/timing.md")).unwrap();
    for path in diagram_paths() {
        let link = format!("(../generated/timing/{}.svg)", stem(&path));
        assert!(page.contains(&link), "docs/timing.md does not embed {link}");
    }
}

#[test]
fn wave_strings_expand_to_one_value_per_column() {
    let labels = ["0x04 COUNT".to_string(), "7".to_string(), "0b10".to_string()];
    let wave = expand_wave("x=.|01=4", &labels).unwrap();
    use Level::{DontCare, Value};
    assert_eq!(wave.levels, [DontCare, Value(4), Value(4), Value(4), Value(0), Value(1), Value(7), Value(2)]);
    assert_eq!(wave.gap, [false, false, false, true, false, false, false, false]);
    assert_eq!(expand_clock("p..|.").unwrap(), [false, false, false, true, false]);
}

#[test]
fn wave_strings_the_replay_cannot_interpret_are_refused() {
    for (wave, data, complaint) in [
        ("0z1", &[][..], "'z' is not supported"),
        ("0h1", &[], "'h' is not supported"),
        ("0<1>", &[], "'<' is not supported"),
        (".01", &[], "continues nothing"),
        ("==", &["1"], "no data label left"),
        ("=", &["1", "2"], "not used by any '='"),
        ("=", &["COUNT"], "does not start with a number"),
    ] {
        let data: Vec<String> = data.iter().map(|label| label.to_string()).collect();
        let err = expand_wave(wave, &data).unwrap_err();
        assert!(err.contains(complaint), "{wave:?}: {err}");
    }
    assert!(expand_clock("P...").is_err() && expand_clock("p.0.").is_err());
}
