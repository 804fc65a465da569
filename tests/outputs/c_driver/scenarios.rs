//! Each driver's functions run on the host against model.c, which logs every access,
//! and the log is compared with the one [`Script`] expects from the register tables.
//! The model applies the 32-bit layout's holding-word rules and lets a counter run
//! during a read, so a read or write in the wrong order also gives a wrong value.
use pmugen_hdl::monitor::regmap as monitor;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::pmu::regmap::{self as pmu, evtsel, trace_ctrl};
use pmugen_hdl::regmap::driver::Reach;

use super::script::{low_mask, Script};
use super::{Driver, Kind, HOST};

fn pmu_script<'a>(driver: &Driver, params: &'a PmuParams) -> Script<'a> {
    let (p, up) = (driver.prefix(), driver.prefix().to_uppercase());
    let (t, i, k) = (params.threads.min(3) - 1, params.counters.min(2) - 1, params.counters);
    let (k_mask, cw_mask, bit) = (low_mask(k), low_mask(params.counter_width), 1u64 << i);
    let mut s = Script::new(driver, Box::new(params.lookup()), Some(t));
    s.scenario("probe");
    s.poke(&pmu::PMU_ID, 0, pmu::id_value(params, t));
    s.code(&format!("model_result({p}_probe(&h));"));
    s.read(&pmu::PMU_ID, 0);
    s.value(1);
    s.scenario("program");
    s.poke(&pmu::PERF_GLOBAL_CTRL, 0, k_mask);
    s.code(&format!(
        "{p}_program(&h, {i}u, {up}_EV_INSTRUCTIONS_EXECUTED, {up}_PERF_EVTSEL_USR | {up}_PERF_EVTSEL_CMASK(2));"
    ));
    s.read(&pmu::PERF_GLOBAL_CTRL, 0);
    s.write(&pmu::PERF_GLOBAL_CTRL, 0, k_mask & !bit);
    s.write(&pmu::PERF_CNTR, i, 0);
    let event = params.table.events.iter().find(|e| e.name == "INSTRUCTIONS_EXECUTED").unwrap();
    let code = (event.umask as u64) << evtsel::UMASK.lsb | event.code as u64;
    s.write(
        &pmu::PERF_EVTSEL,
        i,
        code | evtsel::USR.mask(&params.lookup()) | 2 << evtsel::CMASK.lsb | evtsel::EN.mask(&params.lookup()),
    );
    s.scenario("start");
    s.code(&format!("{p}_start(&h, 1u << {i});"));
    s.read(&pmu::PERF_GLOBAL_CTRL, 0);
    s.write(&pmu::PERF_GLOBAL_CTRL, 0, k_mask);
    s.scenario("counter_read");
    let running = 0x7F_FFFF_FFFF & cw_mask;
    s.poke(&pmu::PERF_CNTR, i, running);
    let offset = s.offset(pmu::PERF_CNTR.addr as u32 + i as u32);
    s.code(&format!("model_tick_offset = 0x{offset:X}u;"));
    s.code(&format!("model_result({p}_perf_cntr_read(&h, {i}u));"));
    s.code("model_tick_offset = MODEL_NONE;");
    s.read(&pmu::PERF_CNTR, i);
    s.value(running);
    s.scenario("counter_write");
    s.code(&format!("{p}_perf_cntr_write(&h, {i}u, UINT64_MAX);\n    model_result({p}_perf_cntr_read(&h, {i}u));"));
    s.write(&pmu::PERF_CNTR, i, u64::MAX);
    s.read(&pmu::PERF_CNTR, i);
    s.value(cw_mask);
    s.scenario("tsc");
    s.code(&format!("{p}_tsc_write(&h, 0x0123456789ABCDEFull);\n    model_result({p}_tsc_read(&h));"));
    s.write(&pmu::TSC, 0, 0x0123_4567_89AB_CDEF);
    s.read(&pmu::TSC, 0);
    s.value(0x0123_4567_89AB_CDEF);
    s.scenario("overflow");
    s.poke(&pmu::PERF_GLOBAL_STATUS, 0, bit);
    s.code(&format!("model_result({p}_overflow_ack(&h));"));
    s.read(&pmu::PERF_GLOBAL_STATUS, 0);
    s.write(&pmu::PERF_GLOBAL_OVF_CTRL, 0, bit);
    s.value(bit);
    s.scenario("spflt_control");
    s.code(&format!(
        "{p}_perf_spflt_control_write(&h, {up}_PERF_SPFLT_CONTROL_SPFLT_CTRL(1u << {i}) | {up}_PERF_SPFLT_CONTROL_USER_PREF);\n    \
         model_result({p}_perf_spflt_control_read(&h));"
    ));
    s.write(&pmu::PERF_SPFLT_CONTROL, 0, bit | 1 << pmu::USER_PREF_BIT);
    s.read(&pmu::PERF_SPFLT_CONTROL, 0);
    s.value(bit | 1 << pmu::USER_PREF_BIT);
    s.scenario("trace");
    s.code(&format!("{p}_trace_ctrl_write(&h, {up}_TRACE_CTRL_TRACE_EN | {up}_TRACE_CTRL_THREAD({t}u));"));
    s.code(&format!("{p}_trace_dropped_write(&h, 0);"));
    s.write(&pmu::TRACE_CTRL, 0, trace_ctrl::TRACE_EN.mask(&params.lookup()) | (t as u64) << trace_ctrl::THREAD.lsb);
    s.write(&pmu::TRACE_DROPPED, 0, 0);
    s.scenario("out_of_range");
    s.code(&format!("{p}_perf_cntr_write(&h, {k}u, 1);\n    model_result({p}_perf_cntr_read(&h, {k}u));"));
    s.value(0);
    s
}

fn monitor_script(driver: &Driver, events: usize, order_width: usize) -> Script<'static> {
    let (p, up) = (driver.prefix(), driver.prefix().to_uppercase());
    let mut s = Script::new(driver, Box::new(monitor::params(events, order_width)), None);
    s.scenario("probe");
    s.poke(&monitor::ID, 0, monitor::id_value(events, order_width) as u64);
    s.code(&format!("model_result({p}_probe(&h));"));
    s.read(&monitor::ID, 0);
    s.value(1);
    s.scenario("order");
    let last = events - 1;
    s.code(&format!("{p}_order_write(&h, {last}u, 0xFFu);\n    model_result({p}_order_read(&h, {last}u));"));
    s.write(&monitor::ORDER, last, 0xFF);
    s.read(&monitor::ORDER, last);
    s.value(low_mask(order_width));
    s.scenario("start");
    s.code(&format!("{p}_start(&h, {up}_CTRL_ENABLE | {up}_CTRL_START_SEL(1));"));
    s.write(&monitor::CTRL, 0, 1 | 1 << monitor::CTRL_START_SEL.lsb);
    s.write(&monitor::CMD, 0, 0x7);
    s.scenario("stop");
    s.poke(&monitor::COUNT, 0, 5);
    s.code(&format!("model_result({p}_stop(&h));"));
    s.write(&monitor::CMD, 0, 1 << monitor::CMD_CLOSE_WINDOW.lsb);
    s.read(&monitor::COUNT, 0);
    s.value(5);
    s.scenario("before");
    s.poke(&monitor::BEFORE, 1, 1);
    s.code(&format!("model_result({p}_before_read(&h, 1u));"));
    s.read(&monitor::BEFORE, 1);
    s.value(1);
    s.scenario("out_of_range");
    s.code(&format!("{p}_order_write(&h, {events}u, 1);\n    model_result({p}_order_read(&h, {events}u));"));
    s.value(0);
    s
}

/// The user's side of a bare-port driver: port functions that call the model.
fn port_functions(driver: &Driver) -> String {
    let p = driver.prefix();
    match driver.kind {
        Kind::Pmu(_) => format!(
            "uint64_t {p}_port_read(void *port, unsigned thread, unsigned addr)\n{{\n    (void)port;\n    return \
             model_port_read(thread, addr, 8);\n}}\nvoid {p}_port_write(void *port, unsigned thread, unsigned addr, \
             uint64_t value)\n{{\n    (void)port;\n    model_port_write(thread, addr, 8, value);\n}}\n"
        ),
        Kind::Monitor { .. } => format!(
            "uint32_t {p}_port_read(void *port, unsigned addr)\n{{\n    (void)port;\n    return \
             (uint32_t)model_port_read(0, addr, 4);\n}}\nvoid {p}_port_write(void *port, unsigned addr, uint32_t \
             value)\n{{\n    (void)port;\n    model_port_write(0, addr, 4, value);\n}}\n"
        ),
    }
}

#[test]
fn every_driver_makes_the_accesses_of_the_register_map_in_order() {
    let drivers = super::drivers();
    let dir = super::workspace("c-driver-scenarios", &drivers);
    let (mut c, mut main, mut expected) = (String::from("#include \"model.c\"\n"), String::new(), Vec::new());
    for (n, driver) in drivers.iter().enumerate() {
        let script = match &driver.kind {
            Kind::Pmu(params) => pmu_script(driver, params),
            Kind::Monitor { events, order_width } => monitor_script(driver, *events, *order_width),
        };
        c.push_str(&format!("#include \"{}\"\n", driver.file.name));
        if driver.reach == Reach::Port {
            c.push_str(&port_functions(driver));
        }
        c.push_str(&format!("static void run_{n}(void)\n{{\n{}}}\n\n", script.c));
        main.push_str(&format!("    printf(\"## {}\\n\");\n    run_{n}();\n", driver.file.name));
        expected.push((driver.file.name.clone(), script.expected));
    }
    c.push_str(&format!("int main(void)\n{{\n{main}    return 0;\n}}\n"));
    std::fs::write(dir.join("scenarios.c"), c).unwrap();
    super::run("gcc", &[HOST, &["scenarios.c", "-o", "scenarios"]].concat(), &dir);
    let output = super::execute(&dir, "scenarios");
    let sections: Vec<&str> = output.split("## ").skip(1).collect();
    assert_eq!(sections.len(), expected.len(), "{output}");
    for (section, (name, lines)) in sections.iter().zip(&expected) {
        let (heading, log) = section.split_once('\n').unwrap();
        assert_eq!(heading, name);
        assert_eq!(log.trim_end(), lines.join("\n"), "{name}: the accesses differ from the register map's");
    }
    // The 32-bit layout spelled out for the default PMU: counter 1 of thread 2 is
    // programmed with PERF_GLOBAL_CTRL (0x2F) at 2*0x800 + 8*0x2F, PERF_CNTR[1] high word
    // first, and PERF_EVTSEL[1] (fields in [31:0]) in one write at 2*0x800 + 8*0x29; a
    // running counter reads +0 before +4 and gives the value of the +0 read's cycle.
    let axil32 = sections.iter().find(|s| s.starts_with("pmu_knc_t4_k2_c40_axil32_driver.h")).unwrap();
    assert!(axil32
        .contains("# program\nR4 0x1178\nW4 0x1178 0x1\nW4 0x110c 0x0\nW4 0x1108 0x0\nW4 0x1148 0x2410016\n# start"));
    assert!(axil32.contains("# counter_read\nR4 0x1108\nR4 0x110c\n= 0x7fffffffff\n"));
}
