//! The retirement log file of `pmugen soc run --rvfi-log` (docs/soc.md §2.5), read
//! back into one [`Retirement`] per cycle for [`super::summarize_log`]. One line per
//! retired instruction, `#` lines are comments:
//!
//! ```text
//! # cycle pc_rdata pc_wdata insn mode trap intr mem_rmask mem_wmask
//! 812 00000010 00000014 0200a10b 3 0 1 0 0
//! ```
//!
//! `cycle` is decimal (cycle 0 is the first after reset), the rest hex; cycles rise
//! strictly, and the cycles between lines had no retirement.
use super::retirement::Retirement;

/// The log's header line, as `soc run` writes it.
pub const LOG_HEADER: &str = "# cycle pc_rdata pc_wdata insn mode trap intr mem_rmask mem_wmask";

/// One line of the log for `r` retiring in `cycle`.
pub fn log_line(cycle: u64, r: &Retirement) -> String {
    format!(
        "{cycle} {:08x} {:08x} {:08x} {} {} {} {:x} {:x}",
        r.pc_rdata, r.pc_wdata, r.insn, r.mode, r.trap as u8, r.intr as u8, r.mem_rmask, r.mem_wmask
    )
}

/// The log `text` (from the file `name`) as one retirement per cycle from cycle 0
/// through the last line's cycle; a malformed line is refused naming the file and line.
pub fn parse_log(text: &str, name: &str) -> Result<Vec<Retirement>, String> {
    let mut log = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("{name}:{}: \"{line}\": {why}", index + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(bad(&format!("{} fields, expected 9 ({})", fields.len(), &LOG_HEADER[2..])));
        }
        let cycle: usize = fields[0].parse().map_err(|_| bad("the cycle is not a decimal number"))?;
        let hex = |i: usize, what: &str, bits: u32| -> Result<u64, String> {
            let value = u64::from_str_radix(fields[i], 16).map_err(|_| bad(&format!("{what} is not a hex number")))?;
            if bits < 64 && value >> bits != 0 {
                return Err(bad(&format!("{what} {value:#x} is wider than {bits} bits")));
            }
            Ok(value)
        };
        let flag = |i: usize, what: &str| match fields[i] {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(bad(&format!("{what} is neither 0 nor 1"))),
        };
        if cycle < log.len() {
            return Err(bad(&format!("cycle {cycle} does not come after the previous line's {}", log.len() - 1)));
        }
        let retirement = Retirement {
            valid: true,
            pc_rdata: hex(1, "pc_rdata", 64)?,
            pc_wdata: hex(2, "pc_wdata", 64)?,
            insn: hex(3, "insn", 32)? as u32,
            mode: hex(4, "mode", 2)? as u8,
            trap: flag(5, "trap")?,
            intr: flag(6, "intr")?,
            mem_rmask: hex(7, "mem_rmask", 8)? as u8,
            mem_wmask: hex(8, "mem_wmask", 8)? as u8,
        };
        log.resize(cycle, Retirement::idle());
        log.push(retirement);
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_cycles_with_idle_ones_between() {
        let r = Retirement::at(0x10, 0x0400_000B).interrupted().in_mode(3).accessing(0xf, 0);
        let text = format!("{LOG_HEADER}\n{}\n\n{}\n", log_line(1, &r), log_line(4, &Retirement::at(0x14, 0x13)));
        let log = parse_log(&text, "run.rvfi").unwrap();
        assert_eq!(log.len(), 5);
        assert_eq!(log[0], Retirement::idle());
        assert_eq!(log[1], r);
        assert!(!log[2].valid && !log[3].valid);
        assert_eq!(log[4], Retirement::at(0x14, 0x13));
    }

    #[test]
    fn malformed_lines_are_refused_naming_the_line() {
        let err = parse_log("1 0 4 13 3 0 0 0\n", "r.log").unwrap_err();
        assert!(err.starts_with("r.log:1: \"1 0 4 13 3 0 0 0\": 8 fields, expected 9"), "{err}");
        let err = parse_log("# c\n1 0 4 13 3 0 2 0 0\n", "r.log").unwrap_err();
        assert_eq!(err, "r.log:2: \"1 0 4 13 3 0 2 0 0\": intr is neither 0 nor 1");
        let err = parse_log("5 0 4 13 3 0 0 0 0\n5 4 8 13 3 0 0 0 0\n", "r.log").unwrap_err();
        assert!(err.contains("r.log:2:") && err.contains("cycle 5 does not come after the previous line's 5"), "{err}");
        let err = parse_log("x 0 4 13 3 0 0 0 0\n", "r.log").unwrap_err();
        assert!(err.contains("the cycle is not a decimal number"), "{err}");
        let err = parse_log("1 0 4 1ffffffff 3 0 0 0 0\n", "r.log").unwrap_err();
        assert!(err.contains("insn 0x1ffffffff is wider than 32 bits"), "{err}");
    }
}
