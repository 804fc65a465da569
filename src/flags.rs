//! Number flags shared by the subcommands: a value out of range and a value that is not
//! a number get different messages, both naming the flag and the allowed range.

/// A whole number of `flag` in `range`: out of range and not a number are told apart.
pub fn parse_whole(flag: &str, text: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    let (min, max) = (range.start(), range.end());
    match text.trim().parse::<i128>() {
        Ok(value) if value >= *min as i128 && value <= *max as i128 => Ok(value as u64),
        Ok(value) => Err(format!("{flag} = {value} is out of range {min}..={max}")),
        Err(_) => Err(format!("{flag} = '{text}' is not a whole number; allowed range {min}..={max}")),
    }
}

/// `--cycles`.
pub fn parse_cycles(text: &str) -> Result<u64, String> {
    parse_whole("--cycles", text, 1..=10_000_000_000)
}

/// `--seed`.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    parse_whole("--seed", text, 0..=u64::MAX)
}
