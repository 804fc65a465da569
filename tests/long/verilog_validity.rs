//! Generated Verilog of the whole monitor: Verilator lint (-Wall, DECLFILENAME
//! waived), yosys `hierarchy -check; proc; check -assert`, module names prefixed with
//! the top name, and exactly the ports of docs/monitor.md §4.
use pmugen::design;
use pmugen_hdl::emit::module_names;
use pmugen_hdl::params::MonitorParams;
use pmugen_sim::tools::{verilator_lint, yosys_check};

/// (name, direction, width) of every top port, from the top module's declarations.
fn top_ports(verilog: &str, top: &str) -> Vec<(String, String, usize)> {
    let start = verilog.find(&format!("module {top}(")).expect("top module");
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").unwrap()];
    body.lines()
        .map(str::trim)
        .filter(|line| line.starts_with("input ") || line.starts_with("output "))
        .map(|line| {
            let words: Vec<&str> = line.trim_end_matches(';').split_whitespace().collect();
            let width = words
                .iter()
                .find(|w| w.starts_with('['))
                .map(|w| {
                    w.trim_matches(|c| c == '[' || c == ']').split(':').next().unwrap().parse::<usize>().unwrap() + 1
                })
                .unwrap_or(1);
            (words.last().unwrap().to_string(), words[0].to_string(), width)
        })
        .collect()
}

fn check(events: usize, order_width: usize) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    let top = params.top_name();
    let verilog = design::monitor(params).verilog().unwrap();
    for module in module_names(&verilog) {
        assert!(module.starts_with(&top), "module {module} does not start with {top}");
    }
    let mut ports = top_ports(&verilog, &top);
    ports.sort();
    let mut expected: Vec<(String, String, usize)> = [
        ("clock", "input", 1),
        ("reset", "input", 1),
        ("events", "input", events),
        ("start", "input", 4),
        ("stop", "input", 4),
        ("reg_addr", "input", 8),
        ("reg_wdata", "input", 32),
        ("reg_write", "input", 1),
        ("reg_rdata", "output", 32),
        ("matched", "output", 1),
        ("window", "output", 1),
        ("ser_data", "output", 1),
        ("ser_valid", "output", 1),
        ("ser_last", "output", 1),
    ]
    .iter()
    .map(|(n, d, w)| (n.to_string(), d.to_string(), *w))
    .collect();
    expected.sort();
    assert_eq!(ports, expected, "{top}: ports of docs/monitor.md §4");
    verilator_lint(&verilog, &top).unwrap_or_else(|e| panic!("{e}"));
    yosys_check(&verilog, &top).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn n2_w2() {
    check(2, 2);
}

#[test]
fn n8_w3() {
    check(8, 3);
}

#[test]
fn n17_w5() {
    check(17, 5);
}

#[test]
fn n32_w8() {
    check(32, 8);
}

#[test]
fn two_designs_share_no_module_name() {
    let a = design::monitor(MonitorParams::new(8, 3).unwrap()).verilog().unwrap();
    let b = design::monitor(MonitorParams::new(8, 4).unwrap()).verilog().unwrap();
    let names_a = module_names(&a);
    assert!(module_names(&b).iter().all(|name| !names_a.contains(name)));
}
