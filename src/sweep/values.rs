//! The values of one swept flag (docs/report.md §8.1): a single value, a list `2,4,8`,
//! a range `2..=8` (every whole number from 2 to 8) or lists of both (`1,4..=6`). Each
//! value is then checked by the flag's own parser; here only the shape is read, and an
//! empty range, an empty item or a value given twice is refused naming the flag.
use anyhow::{bail, Result};

/// The values `text` gives `flag`, in order.
pub fn expand(flag: &str, text: &str) -> Result<Vec<String>> {
    let mut values: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("{flag} {text}: an empty item in the list; give values as 2,4,8 or a range as 2..=8");
        }
        let expanded = match item.split_once("..") {
            Some((low, high)) => range(flag, item, low, high)?,
            None => vec![item.to_string()],
        };
        for value in expanded {
            if values.contains(&value) {
                bail!("{flag} {text}: {value} is given twice");
            }
            values.push(value);
        }
    }
    Ok(values)
}

/// The whole numbers of the range `item` (`low..=high`).
fn range(flag: &str, item: &str, low: &str, high: &str) -> Result<Vec<String>> {
    let Some(high) = high.strip_prefix('=') else {
        bail!("{flag} {item}: a range is written low..=high (both ends included), e.g. 2..=8");
    };
    let number = |end: &str| {
        end.trim().parse::<u64>().map_err(|_| anyhow::anyhow!("{flag} {item}: '{end}' is not a whole number"))
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        bail!("{flag} {item}: the range is empty ({low} is above {high}); write it low..=high");
    }
    Ok((low..=high).map(|value| value.to_string()).collect())
}

/// `--timeout`: `90s`, `30m`, `2h`, or a bare number of minutes; at least a second.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "m"),
    };
    let seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if n > 0 && seconds > 0 => Ok(std::time::Duration::from_secs(n * seconds)),
        _ => Err(format!("'{text}' is not a time: give 90s, 30m or 2h (a bare number is minutes), above 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_ranges_and_both_expand_in_order() {
        assert_eq!(expand("--threads", "4").unwrap(), ["4"]);
        assert_eq!(expand("--threads", "1,2,4").unwrap(), ["1", "2", "4"]);
        assert_eq!(expand("--counters", "2..=4").unwrap(), ["2", "3", "4"]);
        assert_eq!(expand("--events", "2, 5..=6,9").unwrap(), ["2", "5", "6", "9"]);
        assert_eq!(expand("--matcher", "patent,compact").unwrap(), ["patent", "compact"]);
    }

    #[test]
    fn timeouts_take_seconds_minutes_or_hours() {
        let seconds = |text: &str| parse_duration(text).map(|d| d.as_secs());
        assert_eq!(
            [seconds("90s"), seconds("30m"), seconds("2h"), seconds("5")],
            [Ok(90), Ok(1800), Ok(7200), Ok(300)]
        );
        assert!(seconds("0").is_err() && seconds("10x").is_err() && seconds("s").is_err());
    }

    #[test]
    fn empty_ranges_and_malformed_lists_are_refused_naming_the_flag() {
        let error = |text: &str| expand("--threads", text).unwrap_err().to_string();
        assert_eq!(error("4..=1"), "--threads 4..=1: the range is empty (4 is above 1); write it low..=high");
        assert!(error("1..4").contains("--threads 1..4: a range is written low..=high"));
        assert!(error("1,,2").contains("an empty item"));
        assert!(error("1..=x").contains("'x' is not a whole number"));
        assert_eq!(error("1..=3,2"), "--threads 1..=3,2: 2 is given twice");
    }
}
