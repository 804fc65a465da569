//! Running the real tools (yosys, Verilator, nextpnr-ice40), with an error that
//! names a missing tool and how to install it, plus the validity checks of
//! generated Verilog: Verilator lint (`-Wall`, only DECLFILENAME waived: one file
//! holds all modules of a design) and yosys `hierarchy -check; proc; check -assert`.
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How to install the tools on Debian.
pub const INSTALL_HINT: &str =
    "install with `apt-get update && apt-get install -y yosys verilator iverilog nextpnr-ice40 fpga-icestorm make g++ \
     gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf` (or run scripts/install-tools.sh)";

/// Why a tool could not check or build what it was given. pmugen's own crates match on
/// it ([`ToolError::Missing`] is an installation problem, [`ToolError::Refused`] a
/// finding about the design); the message names the tool and what to do.
#[derive(Debug)]
pub enum ToolError {
    /// These tools are not on PATH.
    Missing(Vec<String>),
    /// The tool is there but could not be started or waited for.
    Run {
        /// The tool.
        tool: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file the tool reads could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The tool ran and refused its input, e.g. a lint warning or a failed build.
    Refused {
        /// The check, e.g. "verilator lint of event_order_monitor_n8_w3".
        what: String,
        /// The tool's output.
        output: String,
    },
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolError::Missing(tools) => write!(f, "`{}` not found on PATH; {INSTALL_HINT}", tools.join("`, `")),
            ToolError::Run { tool, source } => write!(f, "could not run `{tool}`: {source}"),
            ToolError::Write { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            ToolError::Refused { what, output } => write!(f, "{what} failed:\n{output}"),
        }
    }
}

/// For the callers whose own errors are still messages.
impl From<ToolError> for String {
    fn from(error: ToolError) -> String {
        error.to_string()
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolError::Run { source, .. } | ToolError::Write { source, .. } => Some(source),
            ToolError::Missing(_) | ToolError::Refused { .. } => None,
        }
    }
}

/// Is `tool` an executable on PATH?
pub fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
        .unwrap_or(false)
}

/// The Verilator flags that compile a model's C++ through ccache when it is on PATH:
/// Verilator's own runtime (the same for every model) is then compiled once, not once
/// per model. Without ccache, none.
pub fn objcache_flags() -> &'static [&'static str] {
    if on_path("ccache") {
        &["-MAKEFLAGS", "OBJCACHE=ccache"]
    } else {
        &[]
    }
}

/// Check that every tool in `tools` is on PATH before anything is written; the
/// error names the missing ones and how to install them.
pub fn require(tools: &[&str]) -> Result<(), ToolError> {
    let missing: Vec<String> = tools.iter().filter(|tool| !on_path(tool)).map(|tool| tool.to_string()).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(ToolError::Missing(missing))
    }
}

/// Run `tool args...`, returning (success, stdout+stderr), or an error naming the
/// missing tool and how to install it.
pub fn run_tool(tool: &str, args: &[&str], dir: &Path) -> Result<(bool, String), ToolError> {
    run_tool_within(tool, args, dir, None).map(|run| (run.success, run.output))
}

/// How a tool run ended.
#[derive(Clone, Debug)]
pub struct ToolRun {
    /// The tool exited with status 0.
    pub success: bool,
    /// Its stdout and stderr.
    pub output: String,
    /// It was stopped because it ran longer than the time limit.
    pub timed_out: bool,
}

/// Run `tool args...` like [`run_tool`], stopping it after `limit` if one is given
/// (nextpnr's router can search for a very long time on a nearly full device).
pub fn run_tool_within(tool: &str, args: &[&str], dir: &Path, limit: Option<Duration>) -> Result<ToolRun, ToolError> {
    // A step that runs long (synthesis and placement of large designs, a Verilator
    // build) says every 15 s that it is still running, so a silent terminal never
    // looks like a hang.
    let (done, ticks) = std::sync::mpsc::channel::<()>();
    let name = tool.to_string();
    let ticker = std::thread::spawn(move || {
        let mut seconds = 0;
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(Duration::from_secs(15)) {
            seconds += 15;
            eprintln!("  ... {name} still running ({seconds} s)");
        }
    });
    let result = run_until(tool, args, dir, limit);
    let _ = done.send(());
    let _ = ticker.join();
    result.map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            ToolError::Missing(vec![tool.to_string()])
        } else {
            ToolError::Run { tool: tool.to_string(), source }
        }
    })
}

fn run_until(tool: &str, args: &[&str], dir: &Path, limit: Option<Duration>) -> std::io::Result<ToolRun> {
    let mut child =
        Command::new(tool).args(args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    // Drain both pipes while waiting, so a chatty tool never blocks on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let (status, timed_out) = loop {
        if let Some(status) = child.try_wait()? {
            break (Some(status), false);
        }
        if limit.is_some_and(|limit| started.elapsed() > limit) {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    log_time(tool, args, dir, started.elapsed());
    let mut output = String::from_utf8_lossy(&stdout.join().unwrap_or_default()).into_owned();
    output.push_str(&String::from_utf8_lossy(&stderr.join().unwrap_or_default()));
    Ok(ToolRun { success: status.is_some_and(|s| s.success()), output, timed_out })
}

/// With `PMUGEN_TOOL_TIMES=<file>`, one line per tool run is appended to the file:
/// seconds, the running thread's name (a test's name under `cargo test`), the command
/// and its directory, tab-separated; docs/development.md §4 sums them per test.
fn log_time(tool: &str, args: &[&str], dir: &Path, elapsed: Duration) {
    let Some(file) = std::env::var_os("PMUGEN_TOOL_TIMES").filter(|file| !file.is_empty()) else {
        return;
    };
    let thread = std::thread::current().name().unwrap_or("main").to_string();
    let line = format!("{:.1}\t{thread}\t{tool} {}\t{}\n", elapsed.as_secs_f64(), args.join(" "), dir.display());
    // One write per line: parallel tests append whole lines.
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .and_then(|mut log| std::io::Write::write_all(&mut log, line.as_bytes()));
    if let Err(error) = appended {
        eprintln!("PMUGEN_TOOL_TIMES: cannot append to {}: {error}", Path::new(&file).display());
    }
}

/// Where pmugen keeps what it can rebuild (compiled Verilator models, the tools'
/// scratch files): `$PMUGEN_CACHE`, else `$XDG_CACHE_HOME/pmugen`, else
/// `~/.cache/pmugen`, else `pmugen-cache` in the system's temporary directory. Never
/// inside the installed source tree.
pub fn cache_dir() -> PathBuf {
    let non_empty = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    if let Some(dir) = non_empty("PMUGEN_CACHE") {
        return dir;
    }
    if let Some(dir) = non_empty("XDG_CACHE_HOME") {
        return dir.join("pmugen");
    }
    match non_empty("HOME") {
        Some(home) => home.join(".cache").join("pmugen"),
        None => std::env::temp_dir().join("pmugen-cache"),
    }
}

/// A fresh scratch directory for `what` under the cache directory (removed by the
/// tool runs that use it).
pub fn scratch_dir(what: &str) -> PathBuf {
    let root = cache_dir().join("scratch");
    let dir = root.join(format!("{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {} (set PMUGEN_CACHE to a writable directory): {e}", dir.display()));
    dir
}

/// Lint `verilog` (top module `top`) with `verilator --lint-only -Wall`.
pub fn verilator_lint(verilog: &str, top: &str) -> Result<(), ToolError> {
    let dir = scratch_dir(&format!("lint-{}", sanitize(top)));
    let file = dir.join(format!("{}.v", sanitize(top)));
    write(&file, verilog)?;
    let file = file.to_string_lossy().into_owned();
    let (ok, text) =
        run_tool("verilator", &["--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module", top, &file], &dir)?;
    let _ = std::fs::remove_dir_all(&dir);
    if ok && !text.contains("%Warning") {
        Ok(())
    } else {
        Err(ToolError::Refused { what: format!("verilator lint of {top}"), output: text })
    }
}

/// Check `verilog` with yosys: `hierarchy -check -top top; proc; check -assert`.
pub fn yosys_check(verilog: &str, top: &str) -> Result<(), ToolError> {
    let dir = scratch_dir(&format!("yosys-{}", sanitize(top)));
    let file = dir.join("design.v");
    write(&file, verilog)?;
    let script = format!("read_verilog design.v; hierarchy -check -top {top}; proc; check -assert");
    let (ok, text) = run_tool("yosys", &["-q", "-p", &script], &dir)?;
    let _ = std::fs::remove_dir_all(&dir);
    if ok {
        Ok(())
    } else {
        Err(ToolError::Refused { what: format!("yosys check of {top}"), output: text })
    }
}

/// Write `text` to `path` for a tool to read.
pub fn write(path: &Path, text: &str) -> Result<(), ToolError> {
    std::fs::write(path, text).map_err(|source| ToolError::Write { path: path.to_path_buf(), source })
}

/// `name` with the characters a file name should not have replaced by `_`.
pub fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tools_are_named_with_the_install_line() {
        let err = require(&["sh", "pmugen-no-such-tool"]).unwrap_err();
        assert!(matches!(&err, ToolError::Missing(tools) if tools == &["pmugen-no-such-tool"]), "{err:?}");
        let err = err.to_string();
        assert!(err.starts_with("`pmugen-no-such-tool` not found on PATH; install with `apt-get update"), "{err}");
        assert!(require(&["sh"]).is_ok());
        let err = run_tool("pmugen-no-such-tool", &[], Path::new(".")).unwrap_err();
        assert!(matches!(&err, ToolError::Missing(tools) if tools == &["pmugen-no-such-tool"]), "{err:?}");
        assert!(err.to_string().contains("not found on PATH") && err.to_string().contains("apt-get install"));
    }

    #[test]
    fn a_tool_past_its_time_limit_is_stopped_and_output_is_kept() {
        let dir = Path::new(".");
        let quick =
            run_tool_within("sh", &["-c", "echo out; echo err >&2"], dir, Some(Duration::from_secs(30))).unwrap();
        assert!(quick.success && !quick.timed_out, "{quick:?}");
        assert!(quick.output.contains("out") && quick.output.contains("err"), "{quick:?}");
        let started = Instant::now();
        let slow =
            run_tool_within("sh", &["-c", "echo started; exec sleep 30"], dir, Some(Duration::from_secs(1))).unwrap();
        assert!(slow.timed_out && !slow.success, "{slow:?}");
        assert!(slow.output.contains("started"), "{slow:?}");
        assert!(started.elapsed() < Duration::from_secs(20), "stopped after {:?}", started.elapsed());
    }
}
