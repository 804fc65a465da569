//! Every driver, with the default designs' register headers, in one C file that calls
//! every function of every driver: built for rv32i and the host without a warning,
//! then run on the host over plain memory (the drivers' default volatile accesses).
use pmugen_hdl::regmap::driver::Reach;

use super::{compile_both, drivers, execute, run, workspace, Driver, Kind, HOST};

/// The C name of a `static inline` function's argument for a test call: the handle, a
/// pointer, a base address, an event, or a small number.
fn argument(parameter: &str, handle: &str, event: &str) -> String {
    let parameter = parameter.trim();
    if parameter.starts_with("const ") && parameter.contains("_t *") {
        format!("&{handle}")
    } else if parameter.starts_with("void *") {
        "window".to_string()
    } else if parameter.starts_with("uintptr_t") {
        "(uintptr_t)window".to_string()
    } else if parameter.starts_with("bool") {
        "true".to_string()
    } else if parameter.contains("_event_t") {
        event.to_string()
    } else {
        "1u".to_string()
    }
}

/// C statements that call every `static inline` function of `header` (prefix `p`),
/// opening the handle first, and count them.
fn calls(header: &str, p: &str) -> (String, usize) {
    let handle = format!("h_{p}");
    // The first enumerator of the event enum, if the driver has one.
    let mut lines = header.lines().skip_while(|line| *line != "typedef enum {");
    let event = lines.nth(1).and_then(|line| line.split_whitespace().next());
    let mut c = String::new();
    let mut count = 0;
    for signature in header.lines().filter_map(|line| line.strip_prefix("static inline ")) {
        let (head, rest) = signature.split_once('(').unwrap();
        let (result, name) = head.rsplit_once(' ').unwrap();
        let parameters = rest.trim_end_matches(')');
        let arguments: Vec<String> =
            parameters.split(',').map(|parameter| argument(parameter, &handle, event.unwrap_or("0"))).collect();
        let call = format!("{name}({})", arguments.join(", "));
        c.push_str(&match result {
            _ if name.ends_with("_open") => format!("    {result} {handle} = {call};\n"),
            "void" => format!("    {call};\n"),
            _ if result.ends_with("_id_t") => format!("    (void){call};\n"),
            _ => format!("    sink += (uint64_t){call};\n"),
        });
        count += 1;
    }
    (c, count)
}

/// The user's side of a bare-port driver: port functions over a plain array.
fn port_functions(driver: &Driver) -> String {
    let p = driver.prefix();
    match driver.kind {
        Kind::Pmu(_) => format!(
            "uint64_t {p}_port_read(void *port, unsigned thread, unsigned addr)\n{{\n    (void)port;\n    return \
             window[(thread * 0x100u + addr) % 0x400u];\n}}\nvoid {p}_port_write(void *port, unsigned thread, \
             unsigned addr, uint64_t value)\n{{\n    (void)port;\n    window[(thread * 0x100u + addr) % 0x400u] = \
             value;\n}}\n"
        ),
        Kind::Monitor { .. } => format!(
            "uint32_t {p}_port_read(void *port, unsigned addr)\n{{\n    (void)port;\n    return \
             (uint32_t)window[addr % 0x400u];\n}}\nvoid {p}_port_write(void *port, unsigned addr, uint32_t \
             value)\n{{\n    (void)port;\n    window[addr % 0x400u] = value;\n}}\n"
        ),
    }
}

#[test]
fn every_driver_compiles_for_rv32i_and_the_host_and_runs_every_function_on_plain_memory() {
    let drivers = drivers();
    let dir = workspace("c-driver-all", &drivers);
    let mut c = String::from("#include <stdint.h>\n#include <stdbool.h>\n");
    for header in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()) {
        if header.ends_with("_regs.h") {
            c.push_str(&format!("#include \"{header}\"\n"));
        }
    }
    c.push_str("\nstatic uint64_t window[0x400]; /* the register window: plain memory */\n\n");
    let mut body = String::new();
    for driver in &drivers {
        c.push_str(&format!("#include \"{}\"\n", driver.file.name));
        if driver.reach == Reach::Port {
            c.push_str(&port_functions(driver));
        }
        let (statements, count) = calls(&driver.file.text, &driver.prefix());
        assert!(count > 15, "{}: only {count} functions", driver.file.name);
        body.push_str(&format!("    {{\n{statements}    }}\n"));
    }
    c.push_str(&format!("\nint main(void)\n{{\n    uint64_t sink = 0;\n{body}    return (int)(sink & 0u);\n}}\n"));
    std::fs::write(dir.join("all.c"), c).unwrap();
    compile_both(&dir, "all.c");
    run("gcc", &[HOST, &["all.c", "-o", "all"]].concat(), &dir);
    execute(&dir, "all");
}
