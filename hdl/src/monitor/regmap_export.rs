//! Exports of the monitor's register table (`regmap.rs`): the Markdown table in the
//! README and docs, and the C header `pmugen generate` writes next to the Verilog.
use super::regmap::{id_value, params, REGISTERS, STYLE};
use crate::regmap::export;

/// The register map as a Markdown table, for any N and W (symbolic widths).
pub fn markdown_table() -> String {
    export::markdown_table(REGISTERS, &STYLE, None)
}

/// A C header with the addresses, field positions and masks for one design.
pub fn c_header(top: &str, events: usize, order_width: usize) -> String {
    let defines = [
        ("EVENTS".to_string(), events as u64),
        ("ORDER_WIDTH".to_string(), order_width as u64),
        ("ID_VALUE".to_string(), id_value(events, order_width) as u64),
    ];
    export::c_header(
        REGISTERS,
        &STYLE,
        top,
        &format!("N={events}, W={order_width}"),
        "hdl/src/monitor/regmap.rs",
        &defines,
        &params(events, order_width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_lists_every_register_once() {
        let md = markdown_table();
        for register in REGISTERS {
            assert_eq!(md.matches(&format!("| {} |", register.name)).count() + md.matches(&format!("| {}[e] |", register.name)).count(), 1, "{}", register.name);
        }
        assert!(md.contains("| 0x01 | CTRL | RW | 0x2 | [0] ENABLE, [1] AUTO_REARM, [3:2] START_SEL, [5:4] STOP_SEL, [6] SERIAL_EN |"));
        assert!(md.contains("| 0x10+e | ORDER[e] | RW | 0x0 | [W-1:0] ORDER |"));
        assert!(md.contains("| 0x02 | CMD | W, reads 0 | 0x0 |"));
    }

    #[test]
    fn header_has_addresses_and_masks() {
        let h = c_header("event_order_monitor_n8_w3", 8, 3);
        assert!(h.contains("#define EVENT_ORDER_MONITOR_N8_W3_CTRL_ADDR 0x01u"));
        assert!(h.contains("#define EVENT_ORDER_MONITOR_N8_W3_ORDER_ADDR(e) (0x10u + (e))"));
        assert!(h.contains("#define EVENT_ORDER_MONITOR_N8_W3_CTRL_START_SEL_MASK 0x0000000Cu"));
        assert!(h.contains("#define EVENT_ORDER_MONITOR_N8_W3_ID_VALUE 0x4F4D0308u"));
    }
}
