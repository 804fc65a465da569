//! Parsing what a person types: order settings (`E3=1,E1=2,E7=3`, the patent's Ek is
//! event k-1) and register names (`CTRL`, `ORDER[2]`, from the register table).
use pmugen_hdl::monitor::regmap::{self, Copies};
use pmugen_hdl::params::MonitorParams;

/// `E3=1,E1=2,E7=3` as (event index, order) pairs, checked against N and W.
pub fn parse_orders(text: &str, params: MonitorParams) -> Result<Vec<(usize, u32)>, String> {
    let max_order = (1u32 << params.order_width) - 1;
    text.split(',')
        .map(|item| {
            let item = item.trim();
            let (event, order) = item
                .split_once('=')
                .ok_or_else(|| format!("order `{item}` is not of the form Ek=order (e.g. E3=1)"))?;
            let k: usize = event.trim().strip_prefix(['E', 'e']).and_then(|k| k.parse().ok()).ok_or_else(|| {
                format!("event `{event}` in `{item}` is not of the form Ek with k in 1..={}", params.events)
            })?;
            if !(1..=params.events).contains(&k) {
                return Err(format!("event E{k} in `{item}` is out of range E1..=E{}", params.events));
            }
            let order: u32 = order.trim().parse().ok().filter(|o| *o <= max_order).ok_or_else(|| {
                format!(
                    "order `{}` in `{item}` is out of range 0..={max_order} (W = {})",
                    order.trim(),
                    params.order_width
                )
            })?;
            Ok((k - 1, order))
        })
        .collect()
}

/// The word address of a register named as in docs/monitor.md §5 (`COUNT`,
/// `ORDER[3]`, `BEFORE[0]`), or a hexadecimal address (`0x04`).
pub fn register_address(name: &str, events: usize) -> Result<u8, String> {
    let name = name.trim();
    if let Some(hex) = name.strip_prefix("0x") {
        return u8::from_str_radix(hex, 16)
            .map_err(|_| format!("register address `{name}` is not a byte (0x00..=0xff)"));
    }
    let upper = name.to_uppercase();
    let (base, index) = match upper.split_once('[') {
        Some((base, rest)) => {
            let index = rest.strip_suffix(']').and_then(|i| i.parse::<usize>().ok());
            (base.to_string(), Some(index.ok_or_else(|| format!("register `{name}`: index must be a number in [..]"))?))
        }
        None => (upper.clone(), None),
    };
    let known: Vec<String> = regmap::REGISTERS
        .iter()
        .map(|r| if r.copies != Copies::One { format!("{}[e]", r.name) } else { r.name.to_string() })
        .collect();
    let register = regmap::REGISTERS
        .iter()
        .find(|r| r.name == base)
        .ok_or_else(|| format!("unknown register `{name}`; known: {}", known.join(", ")))?;
    match (register.copies, index) {
        (Copies::One | Copies::OneIf { .. }, None) => Ok(register.addr),
        (Copies::Indexed { .. }, Some(e)) if e < events => Ok(register.addr + e as u8),
        (Copies::Indexed { .. }, Some(e)) => {
            Err(format!("register `{name}`: index {e} is out of range 0..={}", events - 1))
        }
        (Copies::Indexed { .. }, None) => {
            Err(format!("register `{name}` needs an event index, e.g. {}[0]", register.name))
        }
        (Copies::One | Copies::OneIf { .. }, Some(_)) => Err(format!("register `{name}` has no index")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> MonitorParams {
        MonitorParams { events: 8, order_width: 3, options: Default::default() }
    }

    #[test]
    fn orders_use_the_patent_numbering() {
        assert_eq!(parse_orders("E3=1,E1=2,E7=3", params()).unwrap(), vec![(2, 1), (0, 2), (6, 3)]);
        assert_eq!(parse_orders("E9=1", params()).unwrap_err(), "event E9 in `E9=1` is out of range E1..=E8");
        assert_eq!(parse_orders("E1=8", params()).unwrap_err(), "order `8` in `E1=8` is out of range 0..=7 (W = 3)");
        assert!(parse_orders("E1:2", params()).unwrap_err().contains("not of the form Ek=order"));
        assert!(parse_orders("X1=2", params()).unwrap_err().contains("not of the form Ek"));
    }

    #[test]
    fn register_names_come_from_the_table() {
        assert_eq!(register_address("count", 8), Ok(0x04));
        assert_eq!(register_address("ORDER[7]", 8), Ok(0x17));
        assert_eq!(register_address("0x41", 8), Ok(0x41));
        assert!(register_address("ORDER[8]", 8).unwrap_err().contains("out of range 0..=7"));
        assert!(register_address("FOO", 8).unwrap_err().starts_with("unknown register `FOO`; known: ID, CTRL"));
        assert!(register_address("BEFORE", 8).unwrap_err().contains("needs an event index"));
    }
}
