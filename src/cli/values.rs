//! The parsers of the command line's plain values: counts, seeds,
//! significance levels, thread counts, durations, small whole numbers. One
//! function per kind of value; clap calls them (`value_parser`) so that a
//! command receives typed values, and a bad value is refused before
//! anything runs. The values of the library's own types are parsed by
//! those types (`Decks::parse`, `Shuffle::parse`, `Shard::parse`, ...).
//!
//! Each returns the value or an [`Error::InvalidValue`] naming the kind of
//! value (`count`, `seed`, ...): the command line puts the flag in its
//! place (see [`super::value_error`]), so the user reads `--trials 0: must
//! be ...`.

use std::ops::RangeInclusive;
use std::str::FromStr;
use std::time::Duration;

use crate::error::{Error, Result};

/// A count such as `1000000`, `1_000_000` or `1e6` (`25E2`), at least 1:
/// trials, hands, games, nodes.
pub fn parse_count(text: &str) -> Result<u64> {
    let invalid = || {
        Error::invalid(
            "count",
            text,
            "must be a whole number of at least 1 (e.g. 1000000, 1_000_000 or 1e6)",
        )
    };
    let cleaned = text.trim().replace('_', "");
    let value = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let mantissa: u64 = mantissa.parse().map_err(|_| invalid())?;
            let exponent: u32 = exponent.parse().map_err(|_| invalid())?;
            10u64
                .checked_pow(exponent)
                .and_then(|power| power.checked_mul(mantissa))
                .ok_or_else(invalid)?
        }
        None => cleaned.parse().map_err(|_| invalid())?,
    };
    if value == 0 {
        return Err(invalid());
    }
    Ok(value)
}

/// A count as [`parse_count`] reads it, or `0`: a number of things that
/// may be none (`--replicates 0` skips them).
pub fn parse_count_or_zero(text: &str) -> Result<u64> {
    match text.trim() {
        "0" => Ok(0),
        _ => parse_count(text),
    }
}

/// A seed: any unsigned 64-bit integer (`_` may group digits).
pub fn parse_seed(text: &str) -> Result<u64> {
    text.trim().replace('_', "").parse().map_err(|_| {
        Error::invalid(
            "seed",
            text,
            "must be a whole number 0..=18446744073709551615",
        )
    })
}

/// `text` as a number (Rust's syntax for `T`, spaces around it allowed)
/// for which `valid` holds; otherwise an error naming `parameter` and
/// saying `allowed`.
fn number<T: FromStr>(
    text: &str,
    valid: impl FnOnce(&T) -> bool,
    parameter: &str,
    allowed: &str,
) -> Result<T> {
    text.trim()
        .parse::<T>()
        .ok()
        .filter(valid)
        .ok_or_else(|| Error::invalid(parameter, text, allowed))
}

/// A significance level, strictly between 0 and 1.
pub fn parse_level(text: &str) -> Result<f64> {
    number(
        text,
        |level| *level > 0.0 && *level < 1.0,
        "level",
        "must be a probability between 0 and 1, e.g. 0.001",
    )
}

/// The number of worker threads: 1..=1024.
pub fn parse_threads(text: &str) -> Result<usize> {
    number(
        text,
        |n| (1..=1024).contains(n),
        "threads",
        "must be 1..=1024",
    )
}

/// The precision target's half-width: a proportion in (0, 0.5], or
/// percentage points with `%` (`0.05%` is 0.0005).
pub fn parse_half_width(text: &str) -> Result<f64> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(percent) => (percent, 0.01),
        None => (text, 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|x| x * scale)
        .filter(|x| *x > 0.0 && *x <= 0.5)
        .ok_or_else(|| {
            Error::invalid(
                "half_width",
                text,
                "must be a proportion in (0, 0.5], such as 0.0005, or percentage points, such as 0.05%",
            )
        })
}

/// Seconds between checkpoints: 0..=86400, fractions allowed.
pub fn parse_seconds(text: &str) -> Result<Duration> {
    let seconds = number(
        text,
        |s| (0.0..=86_400.0).contains(s),
        "seconds",
        "must be seconds, 0..=86400",
    )?;
    Ok(Duration::from_secs_f64(seconds))
}

/// Decimal places of percentages: 0..=12.
pub fn parse_digits(text: &str) -> Result<usize> {
    number(text, |digits| *digits <= 12, "digits", "must be 0..=12")
}

/// A number of cards, 0 or more (`--after`, `--cards-seen`), which the
/// shoe then checks against its size.
pub fn parse_cards(text: &str) -> Result<u32> {
    number(
        text,
        |_| true,
        "cards",
        "must be a whole number of cards, 0 or more",
    )
}

/// A whole number of 0..=255 (a deck's suits, ranks or copies, a
/// Klondike rule), which the game then checks against its own bounds;
/// `allowed` says what those are, for the error.
pub fn parse_byte(text: &str, allowed: &str) -> Result<u8> {
    number(text, |_| true, "number", allowed)
}

/// A clap value parser of [`parse_byte`] saying `allowed`.
pub fn byte(allowed: &'static str) -> impl Fn(&str) -> Result<u8> + Clone + Send + Sync + 'static {
    move |text| parse_byte(text, allowed)
}

/// A clap value parser of a whole number in `range`, checked here: for
/// options whose bounds are the whole rule (Idiot's Delight's suits and
/// ranks).
pub fn whole_number_in(
    range: RangeInclusive<u8>,
) -> impl Fn(&str) -> Result<u8> + Clone + Send + Sync + 'static {
    move |text| {
        let allowed = format!("must be a whole number {}..={}", range.start(), range.end());
        number(text, |n| range.contains(n), "number", &allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_in_every_spelling() {
        assert_eq!(parse_count("1000000").unwrap(), 1_000_000);
        assert_eq!(parse_count("1_000_000").unwrap(), 1_000_000);
        assert_eq!(parse_count("1e6").unwrap(), 1_000_000);
        assert_eq!(parse_count("25E2").unwrap(), 2_500);
        for bad in ["0", "-1", "x", "1e99", "1.5", ""] {
            let message = parse_count(bad).unwrap_err().to_string();
            assert!(message.starts_with(&format!("count {bad}:")), "{message}");
        }
        assert_eq!(parse_count_or_zero("0").unwrap(), 0);
        assert_eq!(parse_count_or_zero("1e2").unwrap(), 100);
        assert!(parse_count_or_zero("-1").is_err());
    }

    #[test]
    fn plain_values_parse_within_their_bounds() {
        assert_eq!(parse_seed("18_446_744_073_709_551_615").unwrap(), u64::MAX);
        assert!(parse_seed("-1").is_err());
        assert_eq!(parse_level("0.001").unwrap(), 0.001);
        for bad in ["0", "1", "-0.5", "NaN", "x"] {
            assert!(parse_level(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_threads("1024").unwrap(), 1024);
        assert!(parse_threads("0").is_err() && parse_threads("1025").is_err());
        assert_eq!(parse_half_width("0.05%").unwrap(), 0.0005);
        assert_eq!(parse_half_width("0.5").unwrap(), 0.5);
        for bad in ["0", "60%", "0.6", "x", "NaN"] {
            assert!(parse_half_width(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_seconds("2.5").unwrap(), Duration::from_millis(2500));
        assert!(parse_seconds("-1").is_err() && parse_seconds("86401").is_err());
        assert_eq!(parse_digits("12").unwrap(), 12);
        assert!(parse_digits("13").is_err());
        assert_eq!(byte("must be 1 or 3")("3").unwrap(), 3);
        let message = byte("must be 1 or 3")("300").unwrap_err().to_string();
        assert_eq!(message, "number 300: must be 1 or 3");
        let suits = whole_number_in(1..=16);
        assert_eq!(suits("16").unwrap(), 16);
        let message = suits("0").unwrap_err().to_string();
        assert_eq!(message, "number 0: must be a whole number 1..=16");
    }
}
