//! The docs' C driver examples (docs/pmu.md §12.7, docs/monitor.md §12), extracted
//! from the docs, built for rv32i and the host, and run against the model.
use pmugen_hdl::pmu::params::PmuParams;

use super::{compile_both, drivers, execute, repository, run, workspace, HOST};

/// The first ```c block after `marker` in the document `doc`.
fn example(doc: &str, marker: &str) -> String {
    let text = std::fs::read_to_string(repository(doc)).unwrap();
    let start = text.find(marker).unwrap_or_else(|| panic!("{doc} has no `{marker}`"));
    let block = &text[start..];
    let open = block.find("```c\n").unwrap_or_else(|| panic!("{doc}: no C block after `{marker}`")) + 5;
    block[open..open + block[open..].find("```").unwrap()].to_string()
}

/// Build a docs example for rv32i and the host, then run it on the host against the
/// model with `main`; returns what it printed.
fn build_and_run_example(name: &str, doc: &str, marker: &str, main: &str) -> String {
    let dir = workspace(name, &drivers());
    let text = example(doc, marker);
    std::fs::write(dir.join("example.c"), &text).unwrap();
    compile_both(&dir, "example.c");
    std::fs::write(dir.join("run.c"), format!("#include \"model.c\"\n{text}\n{main}")).unwrap();
    run("gcc", &[HOST, &["run.c", "-o", "run"]].concat(), &dir);
    execute(&dir, "run")
}

#[test]
fn the_pmu_driver_example_in_the_docs_builds_and_counts() {
    let id = pmugen_hdl::pmu::regmap::id_value(&PmuParams::with_default_table(4, 2, 40), 0);
    // The PMU counts 1234 user instructions while `work` runs: counter 0 of thread 0.
    let main = format!(
        "static void work(void) {{ model_poke(0x100, 8, 1234); }}\nint main(void)\n{{\n    model_reset(0);\n    \
         model_poke(0, 8, 0x{id:X}ull);\n    model_result(user_instructions((uintptr_t)model_window, work));\n    \
         return 0;\n}}\n"
    );
    let output = build_and_run_example("c-driver-pmu-example", "docs/pmu.md", "<!-- c-driver-example:pmu -->", &main);
    assert!(output.trim_end().ends_with("= 0x4d2"), "the example did not read the count:\n{output}");
    assert!(
        output.contains("W8 0x140 0x410016"),
        "the example did not select INSTRUCTIONS_EXECUTED in ring 3:\n{output}"
    );
}

#[test]
fn the_monitor_driver_example_in_the_docs_builds_and_counts() {
    let id = pmugen_hdl::monitor::regmap::id_value(8, 3);
    let main = format!(
        "static void work(void) {{ model_poke(0x10, 4, 2); }}\nint main(void)\n{{\n    model_reset(0);\n    \
         model_poke(0, 4, 0x{id:X}u);\n    model_result(count_sequences((uintptr_t)model_window, work));\n    \
         return 0;\n}}\n"
    );
    let output = build_and_run_example(
        "c-driver-monitor-example",
        "docs/monitor.md",
        "<!-- c-driver-example:monitor -->",
        &main,
    );
    assert!(output.trim_end().ends_with("= 0x2"), "the example did not read COUNT:\n{output}");
    for order in ["W4 0x48 0x1", "W4 0x40 0x2", "W4 0x58 0x3"] {
        assert!(output.contains(order), "the example did not write {order}:\n{output}");
    }
}
