//! docs/report.md §8.5 quotes the committed PMU sweep (`generated/pmu_sweep.json`) and
//! its area model (`generated/pmu_sweep_model.json`): the table of LUTs at D = 256 and
//! each family's formula and errors are those files' figures.
use serde_json::Value;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// `n` with thousands separated by commas, as the docs write it.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

#[test]
fn the_pmu_sweep_figures_in_the_docs_are_the_committed_results() {
    let docs = read("docs/report.md");
    let records: Vec<Value> = serde_json::from_str(&read("generated/pmu_sweep.json")).unwrap();
    assert_eq!(records.len(), 162, "81 configurations on iCE40 and ECP5");
    assert!(records.iter().all(|r| r["status"] == "ok"), "every job of the committed sweep succeeded");
    let luts = |t: &str, k: &str, cw: &str, family: &str| {
        let p = |r: &Value, name: &str, value: &str| r["parameters"][name] == value;
        let record = records
            .iter()
            .find(|r| r["family"] == family && p(r, "T", t) && p(r, "K", k) && p(r, "CW", cw) && p(r, "D", "256"));
        grouped(record.unwrap()["luts"].as_u64().unwrap())
    };
    for t in ["1", "2", "4"] {
        for k in ["1", "2", "4"] {
            let [ice40, ecp5] = ["ice40", "ecp5"].map(|f| ["16", "40", "64"].map(|cw| luts(t, k, cw, f)).join(" / "));
            let row = format!("| {t} | {k} | {ice40} | {ecp5} |");
            assert!(docs.contains(&row), "docs/report.md §8.5 lacks the row {row}");
        }
    }
    let model: Vec<Value> = serde_json::from_str(&read("generated/pmu_sweep_model.json")).unwrap();
    let model_md = read("generated/pmu_sweep_model.md");
    for fit in &model {
        let title = if fit["family"] == "ice40" { "iCE40" } else { "ECP5" };
        let row = model_md.lines().find(|l| l.starts_with(&format!("| {title} |"))).unwrap();
        let formula = row.split(" | ").nth(1).unwrap();
        let errors = [&fit["max_relative_error"], &fit["mean_relative_error"]]
            .map(|e| format!("{:.1} %", e.as_f64().unwrap() * 100.0))
            .join(" | ");
        let quoted = format!("| {title} | {formula} | {errors} |");
        assert!(docs.contains(&quoted), "docs/report.md §8.5 lacks the model row {quoted}");
    }
}
