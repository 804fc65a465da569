fn main() {
    let params = pmugen_hdl::pmu::params::PmuParams::with_default_table(2, 2, 40);
    let mut pmu = pmugen_hdl::pmu::top::Pmu::new(&params);
    print!("{}", pmugen_hdl::emit::verilog(&mut pmu, &params.top_name(), &[]).unwrap());
}
