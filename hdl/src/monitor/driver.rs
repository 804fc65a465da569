//! The event-order monitor's C driver `<top>_driver.h` (docs/monitor.md §12): the
//! register layer of `regmap::driver` over the monitor's table, and a start and a
//! stop of a measurement (docs/monitor.md §9's steps 4 and 6).
use super::regmap;
use super::regmap_export::with_interface;
use crate::bus::Bus;
use crate::regmap::driver::{self, function, Reach, Target};

/// The C driver of the monitor of N = `events`, W = `order_width` as the generated top
/// `top` presents it: through the bare register port ([`Reach::Port`]) or on a 32-bit
/// bus (`Reach::Bus { data_bits: 32 }`, register `a` at byte `4a`). `comment` opens the
/// file: what it is and the command that regenerates it.
pub fn c_driver(top: &str, events: usize, order_width: usize, reach: Reach, comment: &[String]) -> String {
    with_interface(top, events, order_width, Bus::Bare, |interface| {
        let target = Target { registers: interface, identity: &regmap::ID, top, reach, comment };
        driver::header(&target, &api(&target, events), "", &functions(&target))
    })
}

/// The first comment's list of what the driver offers.
fn api(target: &Target<regmap::Source>, events: usize) -> Vec<String> {
    let (p, upper) = (target.prefix(), target.upper());
    let open = match target.reach {
        Reach::Port => "port",
        Reach::Bus { .. } => "base",
    };
    let registers: Vec<String> = regmap::REGISTERS.iter().skip(1).map(|r| r.name.to_lowercase()).collect();
    vec![
        format!("Functions (monitor: a handle; e: an event, e < N = {events}; values are uint32_t):"),
        format!(
            "  {p}_open({open}): a handle. {p}_probe(monitor): the hardware is this configuration. {p}_id(monitor): \
             ID decoded."
        ),
        format!(
            "  {p}_<register>_read(monitor[, e]), {p}_<register>_write(monitor[, e], value): every register by its \
             name in the register map: {}. Values are masked to the register's fields.",
            registers.join(", ")
        ),
        format!(
            "  {upper}_<REGISTER>_<FIELD>: a flag's mask, e.g. {upper}_CTRL_ENABLE, {upper}_CMD_OPEN_WINDOW, \
             {upper}_STATUS_OVERFLOW; {upper}_<REGISTER>_<FIELD>(n): n placed in a wider field, e.g. \
             {upper}_CTRL_START_SEL(n)."
        ),
        format!("  {p}_start(monitor, ctrl): CTRL = ctrl, then clear the record and COUNT and open the window."),
        format!("  {p}_stop(monitor): close the window; returns COUNT."),
        format!("  {p}_reg_read(monitor, addr), {p}_reg_write(monitor, addr, value): any register by its address."),
    ]
}

/// A measurement's start and stop.
fn functions(target: &Target<regmap::Source>) -> String {
    let (p, handle, this) = (target.prefix(), target.handle(), target.this());
    let cmd = |field| target.constant(&regmap::CMD, field);
    let cmd_write = target.function(&regmap::CMD, "write");
    let h = format!("const {handle} *{this}");
    let mut c = function(
        "Start a measurement: CTRL = ctrl (an OR of the CTRL constants), then one CMD write that clears the \
         record and COUNT (with OVERFLOW) and opens the window. Set ORDER first.",
        &format!("void {p}_start({h}, uint32_t ctrl)"),
        &[
            format!("{}({this}, ctrl);", target.function(&regmap::CTRL, "write")),
            format!(
                "{cmd_write}({this}, {} | {} | {});",
                cmd(&regmap::CMD_CLEAR_RECORD),
                cmd(&regmap::CMD_CLEAR_COUNT),
                cmd(&regmap::CMD_OPEN_WINDOW)
            ),
        ],
    );
    c.push_str(&function(
        "Stop a measurement: close the window; returns COUNT, which includes a match in the cycle of the close.",
        &format!("uint32_t {p}_stop({h})"),
        &[
            format!("{cmd_write}({this}, {});", cmd(&regmap::CMD_CLOSE_WINDOW)),
            format!("return {}({this});", target.function(&regmap::COUNT, "read")),
        ],
    ));
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_masks_come_from_the_table() {
        let c = c_driver("m8_axil", 8, 3, Reach::Bus { data_bits: 32 }, &["m8_axil_driver.h".to_string()]);
        assert!(c.contains("return monitor->base + 4u * (uintptr_t)addr;"), "{c}");
        assert!(c.contains("if (e >= 8u) return;\n    m8_axil_reg_write(monitor, 0x10u + e, value & 0x7u);"), "{c}");
        assert!(c.contains("#define M8_AXIL_CTRL_START_SEL(n) (((uint32_t)(n) << 2) & 0xCu)"));
        assert!(c.contains("#define M8_AXIL_CMD_OPEN_WINDOW 0x4u"));
        assert!(c.contains("M8_AXIL_CFG_N = 8,") && c.contains("M8_AXIL_CFG_MAGIC = 0x4F4D,"));
        assert!(c.contains("return (m8_axil_id_read(monitor) & 0xFFFFFFFFu) == 0x4F4D0308u;"));
        assert!(!c.contains("m8_axil_cmd_read"), "CMD reads 0: no read function");
        assert!(!c.contains("reg_read32"), "32-bit registers need no half access");
        assert_eq!(regmap::EVENTS.mask(&regmap::params(32, 3)), u32::MAX as u64);
    }

    #[test]
    fn the_bare_port_calls_the_users_functions() {
        let c = c_driver("m2", 2, 2, Reach::Port, &["m2_driver.h".to_string()]);
        assert!(c.contains("uint32_t m2_port_read(void *port, unsigned addr);"));
        assert!(c.contains("return m2_port_read(monitor->port, addr);"));
        assert!(!c.contains("PMUGEN_"));
    }
}
