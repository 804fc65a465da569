use pmugen_hdl::monitor::top::EventOrderMonitor;
fn main() {
    let mut m = EventOrderMonitor::<8, 3>::new();
    let v = pmugen_hdl::emit::verilog(&mut m, "event_order_monitor_n8_w3", &[]).unwrap();
    std::fs::write("/tmp/m83.v", &v).unwrap();
    println!("{}", v.len());
}
