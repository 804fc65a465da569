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
        let header_path = path.with_file_name(format!("{}_regs.h", params.top_name()));
        let header = pmugen_hdl::monitor::regmap_export::c_header(&params.top_name(), params.events, params.order_width);
        assert_eq!(
            std::fs::read_to_string(&header_path).unwrap_or_default(),
            header,
            "{} is out of date; regenerate with `scripts/regenerate.sh`",
            header_path.display()
        );
        assert!(
            committed == current,
            "{} differs from what the code generates; regenerate with `scripts/regenerate.sh` \
             (or `{}`) and commit the result",
            path.display(),
            generate::regenerate_command(params, "generated")
        );
    }
}
