//! The committed Verilog under `generated/` is what the current code generates.
use pmugen::generate;
use pmugen_hdl::params::MonitorParams;

#[test]
fn committed_verilog_is_up_to_date() {
    for (events, order_width) in [(8, 3)] {
        let params = MonitorParams::new(events, order_width).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated").join(format!("{}.v", params.top_name()));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let current = generate::monitor_verilog(params).unwrap();
        assert!(
            committed == current,
            "{} differs from what the code generates; regenerate with `scripts/regenerate.sh` \
             (or `{}`) and commit the result",
            path.display(),
            generate::regenerate_command(params, "generated")
        );
    }
}
