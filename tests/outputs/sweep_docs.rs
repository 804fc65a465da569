//! docs/report.md §8.5 quotes the committed PMU sweep (`generated/pmu_sweep.json`) and
//! its area model (`generated/pmu_sweep_model.json`): the table of LUTs at D = 256 and
//! each family's formula and errors are those files' figures; likewise the profile
//! table's sweep (`generated/pmu_sweep_profile.json`) and its model.
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
    check_model(&docs, "generated/pmu_sweep_model");
}

/// Each family's formula and errors in `{stem}.md`/`.json` are quoted in docs/report.md.
fn check_model(docs: &str, stem: &str) {
    let model: Vec<Value> = serde_json::from_str(&read(&format!("{stem}.json"))).unwrap();
    let model_md = read(&format!("{stem}.md"));
    assert_eq!(model.len(), 2, "{stem}.json fits iCE40 and ECP5");
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

#[test]
fn the_profile_table_sweep_in_the_docs_is_the_committed_result() {
    let docs = read("docs/report.md");
    let records: Vec<Value> = serde_json::from_str(&read("generated/pmu_sweep_profile.json")).unwrap();
    assert_eq!(records.len(), 64, "16 configurations at 4 table sizes on iCE40 and ECP5");
    assert!(records.iter().all(|r| r["status"] == "ok"), "every job of the committed sweep succeeded");
    let field = |t: &str, k: &str, cw: &str, e: &str, family: &str, name: &str| {
        let p = |r: &Value, key: &str, value: &str| r["parameters"][key] == value;
        let record = records
            .iter()
            .find(|r| r["family"] == family && p(r, "T", t) && p(r, "K", k) && p(r, "CW", cw) && p(r, "E", e));
        record.unwrap()[name].as_u64().unwrap()
    };
    let sizes = ["0", "16", "256", "4096"];
    for t in ["1", "4"] {
        for k in ["1", "4"] {
            for (family, title) in [("ice40", "iCE40"), ("ecp5", "ECP5")] {
                let [narrow, wide] =
                    ["16", "64"].map(|cw| sizes.map(|e| grouped(field(t, k, cw, e, family, "luts"))).join(" / "));
                let rams = sizes.map(|e| field(t, k, "64", e, family, "ram_blocks").to_string()).join(" / ");
                let row = format!("| {t} | {k} | {title} | {narrow} | {wide} | {rams} |");
                assert!(docs.contains(&row), "docs/report.md §8.5 lacks the row {row}");
            }
        }
    }
    check_model(&docs, "generated/pmu_sweep_profile_model");
}
