//! A published blackjack simulation's claim (RULES.md section 6): the
//! house edge someone's simulator reports, the number of rounds it came
//! from, and optionally its win, loss and push rates, as a user writes them
//! down to have deckodds check them (`deckodds blackjack table compare
//! --published FILE`; the rules and penetration are the command's own).
//!
//! The file is one `key = value` per line:
//!
//! ```text
//! # Some simulator, 6 decks, S17, DAS, 3:2, 75% penetration
//! source = the simulator's web page, table 2
//! house-edge-percent = 0.55
//! rounds = 1e9
//! win-percent = 42.4
//! loss-percent = 49.1
//! push-percent = 8.5
//! ```
//!
//! Blank lines and lines starting with `#` are ignored; a number may be
//! followed by a `#` comment too, while `source` keeps the rest of its
//! line, `#` included (a citation may hold one). Keys are case-insensitive,
//! and `_` may stand for `-`.

use super::simulation::TableSummary;
use crate::compare::{MeanAgreement, mean_agreement};
use crate::error::{Error, Result};

/// What a published blackjack simulation claims, per round of one unit bet.
///
/// Guarantees for a value built by [`PublishedClaim::parse`]: every number
/// is finite; `house_edge_percent` is in `-800..=800` (no round wins or
/// loses more than 8 units: four hands, each doubled); `rounds >= 1`; each
/// rate given is in `0..=100`, the rates given add up to at most 100.5, and
/// when all three are given to 100 within 0.5; `source`, when given, is
/// non-empty text on one line.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedClaim {
    /// Where the figures come from (free text, the citation).
    pub source: Option<String>,
    /// The claimed house edge, in percent of the initial bet: minus the
    /// mean value per round (0.55 means the player loses 0.0055 units a
    /// round on average).
    pub house_edge_percent: f64,
    /// The number of rounds the claim's figures came from: with it, the
    /// claim's own sampling error.
    pub rounds: u64,
    /// The percentage of rounds the player won (net result above zero).
    pub win_percent: Option<f64>,
    /// The percentage of rounds the player lost (net result below zero).
    pub loss_percent: Option<f64>,
    /// The percentage of rounds that pushed (net result zero).
    pub push_percent: Option<f64>,
}

/// A key of the claim file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Source,
    HouseEdgePercent,
    Rounds,
    WinPercent,
    LossPercent,
    PushPercent,
}

/// Every key, in the order [`PublishedClaim::to_text`] writes them.
const KEYS: [Key; 6] = [
    Key::Source,
    Key::HouseEdgePercent,
    Key::Rounds,
    Key::WinPercent,
    Key::LossPercent,
    Key::PushPercent,
];

impl Key {
    fn name(self) -> &'static str {
        match self {
            Key::Source => "source",
            Key::HouseEdgePercent => "house-edge-percent",
            Key::Rounds => "rounds",
            Key::WinPercent => "win-percent",
            Key::LossPercent => "loss-percent",
            Key::PushPercent => "push-percent",
        }
    }

    /// The key `text` names (any case, `_` for `-`).
    fn parse(text: &str) -> Option<Key> {
        let normal = text.trim().to_ascii_lowercase().replace('_', "-");
        KEYS.into_iter().find(|key| key.name() == normal)
    }
}

/// The largest house edge a claim may state, in percent: a round stakes at
/// most 8 units (four hands, each doubled), so its value per unit bet lies
/// in `-8..=8`.
const MAX_HOUSE_EDGE_PERCENT: f64 = 800.0;

/// How far from 100 the three rates may add up to: published rates are
/// rounded, to a tenth or so each.
const RATE_SUM_TOLERANCE: f64 = 0.5;

impl PublishedClaim {
    /// Parses a claim file's text (see the module documentation).
    ///
    /// Errors are [`Error::InvalidValue`] on one line naming the line
    /// number and the key (`line 3: rounds 0: must be ...`), or the key
    /// alone for a required key no line gives; the caller adds the file
    /// name. Refused: a line without `=`, an unknown or repeated key, a
    /// value that is not a number or not finite or out of range, rates
    /// that do not add up (see [`PublishedClaim`]), a missing
    /// `house-edge-percent` or `rounds`, an empty `source`.
    pub fn parse(text: &str) -> Result<PublishedClaim> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut source = None;
        let mut house_edge_percent = None;
        let mut rounds = None;
        let mut rates: [Option<(usize, f64)>; 3] = [None; 3];
        // The line each key was given on, in KEYS order.
        let mut seen: [Option<usize>; KEYS.len()] = [None; KEYS.len()];
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let content = line.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            let Some((key_text, value)) = content.split_once('=') else {
                return Err(Error::invalid(
                    &format!("line {number}"),
                    content,
                    format!("must be `key = value`, with a key among {}", key_list()),
                ));
            };
            let key_text = key_text.trim();
            let key = Key::parse(key_text).ok_or_else(|| {
                Error::invalid(
                    &format!("line {number}: key"),
                    key_text,
                    format!("must be one of {}", key_list()),
                )
            })?;
            let at = format!("line {number}: {}", key.name());
            let slot = KEYS.iter().position(|k| *k == key).unwrap_or_default();
            if let Some(first) = seen[slot].replace(number) {
                return Err(Error::invalid(
                    &at,
                    value.trim(),
                    format!("repeats line {first}; give each key once"),
                ));
            }
            // A citation keeps its `#`; a number may carry a comment.
            let value = match key {
                Key::Source => value.trim(),
                _ => value.split('#').next().unwrap_or_default().trim(),
            };
            match key {
                Key::Source => {
                    if value.is_empty() {
                        return Err(Error::invalid(
                            &at,
                            value,
                            "must be the citation's text; leave the line out if there is none",
                        ));
                    }
                    source = Some(value.to_string());
                }
                Key::HouseEdgePercent => {
                    let edge = parse_percent(value).map_err(|why| {
                        Error::invalid(&at, value, format!("{why} (e.g. 0.55 or -0.12)"))
                    })?;
                    if edge.abs() > MAX_HOUSE_EDGE_PERCENT {
                        return Err(Error::invalid(
                            &at,
                            value,
                            "must be in -800..=800 percent: no round wins or loses more than 8 units",
                        ));
                    }
                    house_edge_percent = Some(edge);
                }
                Key::Rounds => {
                    rounds = Some(parse_rounds(value).ok_or_else(|| {
                        Error::invalid(
                            &at,
                            value,
                            "must be a whole number of at least 1 (e.g. 1000000, 1_000_000, 1e9 or 2.5e9)",
                        )
                    })?);
                }
                Key::WinPercent | Key::LossPercent | Key::PushPercent => {
                    let rate = parse_percent(value)
                        .and_then(|rate| {
                            if (0.0..=100.0).contains(&rate) {
                                Ok(rate)
                            } else {
                                Err("must be a percentage in 0..=100")
                            }
                        })
                        .map_err(|why| Error::invalid(&at, value, why))?;
                    let rate_slot = match key {
                        Key::WinPercent => 0,
                        Key::LossPercent => 1,
                        _ => 2,
                    };
                    rates[rate_slot] = Some((number, rate));
                }
            }
        }
        let missing = |key: Key, example: &str| {
            Error::invalid(
                key.name(),
                "missing",
                format!(
                    "no line gives it; a claim needs `{} = {example}`",
                    key.name()
                ),
            )
        };
        let claim = PublishedClaim {
            source,
            house_edge_percent: house_edge_percent
                .ok_or_else(|| missing(Key::HouseEdgePercent, "0.55"))?,
            rounds: rounds.ok_or_else(|| missing(Key::Rounds, "1e9"))?,
            win_percent: rates[0].map(|(_, rate)| rate),
            loss_percent: rates[1].map(|(_, rate)| rate),
            push_percent: rates[2].map(|(_, rate)| rate),
        };
        check_rate_sum(&rates)?;
        Ok(claim)
    }

    /// The claim as a file [`PublishedClaim::parse`] reads back to an equal
    /// claim: one `key = value` line each, the optional keys only when
    /// given, numbers in Rust's shortest form that reads back exactly. A
    /// source holding a line break (which `parse` never gives) has it
    /// written as a space.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let mut line = |key: Key, value: String| {
            text.push_str(key.name());
            text.push_str(" = ");
            text.push_str(&value);
            text.push('\n');
        };
        if let Some(source) = &self.source {
            line(Key::Source, source.replace(['\n', '\r'], " "));
        }
        line(Key::HouseEdgePercent, self.house_edge_percent.to_string());
        line(Key::Rounds, self.rounds.to_string());
        let rates = [
            (Key::WinPercent, self.win_percent),
            (Key::LossPercent, self.loss_percent),
            (Key::PushPercent, self.push_percent),
        ];
        for (key, rate) in rates {
            if let Some(rate) = rate {
                line(key, rate.to_string());
            }
        }
        text
    }
}

/// The keys, for refusals.
fn key_list() -> String {
    KEYS.map(Key::name).join(", ")
}

/// A finite real number, with an optional `%` after it.
fn parse_percent(text: &str) -> Result<f64, &'static str> {
    let number = text.strip_suffix('%').unwrap_or(text).trim_end();
    match number.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        Ok(_) => Err("must be a finite number"),
        Err(_) => Err("must be a number"),
    }
}

/// A whole number of at least 1: digits with `_` between them if wished,
/// and an optional decimal point and power of ten, provided the value is
/// whole (`1000000`, `1_000_000`, `1e9`, `2.5e9`). `None` if not, or if
/// above `u64::MAX`.
///
/// The command line's `cli::values::parse_count` reads the same forms but
/// lives above this layer; this one also takes a decimal mantissa, as
/// publications write "2.5 billion rounds".
fn parse_rounds(text: &str) -> Option<u64> {
    let cleaned = text.replace('_', "");
    let (mantissa, exponent) = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<u32>().ok()?),
        None => (cleaned.as_str(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // Trailing zeros after the point change nothing; the other fraction
    // digits must be absorbed by the power of ten.
    let fraction = fraction.trim_end_matches('0');
    let digits: u64 = format!("{whole}{fraction}").parse().ok()?;
    let scale = i64::from(exponent) - fraction.len() as i64;
    let value = if scale >= 0 {
        10u64
            .checked_pow(u32::try_from(scale).ok()?)
            .and_then(|power| power.checked_mul(digits))?
    } else {
        let power = 10u64.checked_pow(u32::try_from(-scale).ok()?)?;
        if !digits.is_multiple_of(power) {
            return None;
        }
        digits / power
    };
    (value >= 1).then_some(value)
}

/// Refuses win, loss and push rates (each with the line it was given on)
/// that add up to more than 100, or, all three given, to other than 100,
/// beyond the rounding tolerance.
fn check_rate_sum(rates: &[Option<(usize, f64)>; 3]) -> Result<()> {
    let given: Vec<(Key, usize, f64)> = [Key::WinPercent, Key::LossPercent, Key::PushPercent]
        .into_iter()
        .zip(rates)
        .filter_map(|(key, rate)| rate.map(|(line, rate)| (key, line, rate)))
        .collect();
    let sum: f64 = given.iter().map(|(_, _, rate)| rate).sum();
    let too_much = sum > 100.0 + RATE_SUM_TOLERANCE;
    let too_little = given.len() == 3 && sum < 100.0 - RATE_SUM_TOLERANCE;
    if !(too_much || too_little) {
        return Ok(());
    }
    let lines: Vec<String> = given.iter().map(|(_, line, _)| line.to_string()).collect();
    let keys: Vec<&str> = given.iter().map(|(key, _, _)| key.name()).collect();
    let terms: Vec<String> = given.iter().map(|(_, _, rate)| rate.to_string()).collect();
    // Rates written as fractions of 1 (0.424) add up to about 1.
    let fractions = given.len() == 3 && (1.0 - sum).abs() <= 0.05;
    let allowed = if fractions {
        "must add up to 100: these look like fractions of 1 where percentages are expected (write 42.4 for 0.424)"
    } else if too_little {
        "must add up to 100 within 0.5 (win, loss and push cover every round)"
    } else {
        "must add up to at most 100 (within 0.5 for rounding)"
    };
    Err(Error::invalid(
        &format!("lines {}: {}", lines.join(", "), keys.join(" + ")),
        format!("{} = {}", terms.join(" + "), round_for_display(sum)),
        allowed,
    ))
}

/// `value` to six decimals at most, for a message: a sum of decimal rates
/// shows as `99.1`, not `99.10000000000001`.
fn round_for_display(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

/// A published claim checked against two references at its own sample
/// size: the exact value of a round off the top, and deckodds' simulation
/// of the same rules, dealing and strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimCheck {
    /// The claim.
    pub claim: PublishedClaim,
    /// The claim's standard error per round, in units: the simulated
    /// standard deviation of a round over the square root of the claim's
    /// rounds (a claim states no spread; rounds taken as independent).
    pub standard_error: f64,
    /// The claimed mean (minus the house edge) against the exact value off
    /// the top, with the claim's standard error.
    pub against_exact: MeanAgreement,
    /// The claimed mean against the simulated mean, with both standard
    /// errors; each test at `level / tests` (Bonferroni over this test
    /// and the rate tests).
    pub against_simulation: MeanAgreement,
    /// Each claimed rate against the simulated one.
    pub rates: Vec<RateCheck>,
}

/// A claimed win, loss or push rate against the simulated one.
#[derive(Clone, Debug, PartialEq)]
pub struct RateCheck {
    /// `win`, `loss` or `push`.
    pub name: &'static str,
    /// The rates as fractions (claimed as `mean`, simulated as `exact`),
    /// with the standard error of their difference (binomial, both
    /// samples).
    pub agreement: MeanAgreement,
}

impl ClaimCheck {
    /// Checks `claim` against `exact` (the value of a round off the top, in
    /// units) and the simulation `summary`, at significance `level` (family-
    /// wise over the tests against the simulation).
    pub fn new(
        claim: &PublishedClaim,
        summary: &TableSummary,
        exact: f64,
        level: f64,
    ) -> Result<ClaimCheck> {
        let mean = -claim.house_edge_percent / 100.0;
        let rounds = claim.rounds as f64;
        let standard_error = summary.standard_deviation / rounds.sqrt();
        let against_exact = mean_agreement(mean, standard_error, exact, level)?;
        let simulated_rounds = summary.n_rounds as f64;
        let rates: Vec<(&'static str, f64, u64)> = [
            ("win", claim.win_percent, summary.wins),
            ("loss", claim.loss_percent, summary.losses),
            ("push", claim.push_percent, summary.pushes),
        ]
        .into_iter()
        .filter_map(|(name, claimed, count)| Some((name, claimed? / 100.0, count)))
        .collect();
        let tests = 1 + rates.len();
        let each = level / tests as f64;
        let against_simulation = mean_agreement(
            mean,
            standard_error.hypot(summary.standard_error),
            summary.mean,
            each,
        )?;
        let rates = rates
            .into_iter()
            .map(|(name, claimed, count)| {
                let simulated = count as f64 / simulated_rounds;
                let variance = simulated * (1.0 - simulated);
                let standard_error = (variance / rounds + variance / simulated_rounds).sqrt();
                Ok(RateCheck {
                    name,
                    agreement: mean_agreement(claimed, standard_error, simulated, each)?,
                })
            })
            .collect::<Result<Vec<RateCheck>>>()?;
        Ok(ClaimCheck {
            claim: claim.clone(),
            standard_error,
            against_exact,
            against_simulation,
            rates,
        })
    }

    /// Whether the claim is consistent with deckodds' simulation of the
    /// same game: its mean and every rate it gives.
    pub fn consistent_with_simulation(&self) -> bool {
        self.against_simulation.agrees && self.rates.iter().all(|rate| rate.agreement.agrees)
    }

    /// Whether the claimed mean is consistent with the exact value off the
    /// top.
    pub fn consistent_with_exact(&self) -> bool {
        self.against_exact.agrees
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn refusal(text: &str) -> String {
        PublishedClaim::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_full_claim_with_comments_and_blank_lines() {
        let text = "\u{feff}# A simulator's figures\n\
                    \n\
                    Source = Some page, table #2  \n\
                    house_edge_percent = 0.55   # six decks\n\
                    rounds = 2.5e9\r\n\
                    win-percent = 42.4%\n\
                    loss-percent=49.1\n\
                    \tpush-percent = 8.5\n";
        let claim = PublishedClaim::parse(text).unwrap();
        assert_eq!(
            claim,
            PublishedClaim {
                source: Some("Some page, table #2".to_string()),
                house_edge_percent: 0.55,
                rounds: 2_500_000_000,
                win_percent: Some(42.4),
                loss_percent: Some(49.1),
                push_percent: Some(8.5),
            }
        );
    }

    #[test]
    fn only_the_house_edge_and_rounds_are_required() {
        let claim =
            PublishedClaim::parse("rounds = 1_000_000\nhouse-edge-percent = -0.12").unwrap();
        assert_eq!(claim.rounds, 1_000_000);
        assert_eq!(claim.house_edge_percent, -0.12);
        assert_eq!(claim.source, None);
        assert_eq!(
            (claim.win_percent, claim.loss_percent, claim.push_percent),
            (None, None, None)
        );
    }

    #[test]
    fn rounds_accept_the_ways_counts_are_written() {
        let cases = [
            ("1000000", Some(1_000_000)),
            ("1_000_000", Some(1_000_000)),
            ("1e9", Some(1_000_000_000)),
            ("25E2", Some(2_500)),
            ("2.5e9", Some(2_500_000_000)),
            ("1.50e1", Some(15)),
            ("1000.000", Some(1_000)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("1e20", None),
            ("1.5", None),
            ("1.25e1", None),
            ("0", None),
            ("0e5", None),
            ("-5", None),
            ("+5", None),
            ("1e-3", None),
            (".5e1", None),
            ("", None),
            ("e9", None),
            ("1 000", None),
            ("ten", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_rounds(text), expected, "{text:?}");
        }
    }

    #[test]
    fn refusals_name_the_line_and_the_key() {
        let base = "house-edge-percent = 0.5\nrounds = 1e6\n";
        let cases = [
            (
                "house-edge-percent 0.5\nrounds = 1",
                "line 1 house-edge-percent 0.5: must be `key = value`",
            ),
            (
                "edge = 0.5",
                "line 1: key edge: must be one of source, house-edge-percent, rounds,",
            ),
            (
                "rounds = 5\nrounds = 6",
                "line 2: rounds 6: repeats line 1; give each key once",
            ),
            (
                "\n\nrounds = 0",
                "line 3: rounds 0: must be a whole number of at least 1",
            ),
            ("rounds = 1.5", "line 1: rounds 1.5: must be a whole number"),
            (
                "house-edge-percent = abc",
                "line 1: house-edge-percent abc: must be a number",
            ),
            (
                "house-edge-percent = ",
                "line 1: house-edge-percent : must be a number",
            ),
            (
                "house-edge-percent = NaN",
                "line 1: house-edge-percent NaN: must be a finite number",
            ),
            (
                "house-edge-percent = inf",
                "line 1: house-edge-percent inf: must be a finite number",
            ),
            (
                "house-edge-percent = 1e400",
                "line 1: house-edge-percent 1e400: must be a finite number",
            ),
            (
                "house-edge-percent = 801",
                "line 1: house-edge-percent 801: must be in -800..=800",
            ),
            (
                "win-percent = 100.5",
                "line 1: win-percent 100.5: must be a percentage in 0..=100",
            ),
            (
                "push-percent = -1",
                "line 1: push-percent -1: must be a percentage in 0..=100",
            ),
            (
                "loss-percent = x",
                "line 1: loss-percent x: must be a number",
            ),
            (
                "source =   ",
                "line 1: source : must be the citation's text",
            ),
        ];
        for (extra, expected) in cases {
            // The faulty lines come first, so their numbers are as written.
            let message = refusal(&format!("{extra}\n{base}"));
            assert!(message.starts_with(expected), "{extra:?}: {message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn a_missing_required_key_is_named() {
        assert_eq!(
            refusal("rounds = 5"),
            "house-edge-percent missing: no line gives it; a claim needs `house-edge-percent = 0.55`"
        );
        assert!(refusal("house-edge-percent = 0.5").starts_with("rounds missing:"));
        assert!(refusal("").starts_with("house-edge-percent missing:"));
    }

    #[test]
    fn rates_must_add_up() {
        let base = "house-edge-percent = 0.5\nrounds = 1e6\n";
        let parse = |rates: &str| PublishedClaim::parse(&format!("{base}{rates}"));
        // Within the rounding tolerance of 100, either way, inclusive.
        assert!(parse("win-percent = 42\nloss-percent = 49\npush-percent = 8.5").is_ok());
        assert!(parse("win-percent = 42\nloss-percent = 49\npush-percent = 9.5").is_ok());
        let short = parse("win-percent = 42\nloss-percent = 49\npush-percent = 8.4")
            .unwrap_err()
            .to_string();
        assert_eq!(
            short,
            "lines 3, 4, 5: win-percent + loss-percent + push-percent 42 + 49 + 8.4 = 99.4: \
             must add up to 100 within 0.5 (win, loss and push cover every round)"
        );
        let over = parse("push-percent = 9.6\nloss-percent = 49\nwin-percent = 42")
            .unwrap_err()
            .to_string();
        assert!(over.starts_with("lines 5, 4, 3: win-percent + loss-percent + push-percent 42 + 49 + 9.6 = 100.6: must add up to at most 100"), "{over}");
        // Two rates alone may leave room for the third, not exceed 100.
        assert!(parse("win-percent = 42\nloss-percent = 49").is_ok());
        let two = parse("win-percent = 52\nloss-percent = 49")
            .unwrap_err()
            .to_string();
        assert!(
            two.starts_with("lines 3, 4: win-percent + loss-percent 52 + 49 = 101:"),
            "{two}"
        );
        // Fractions of 1 where percentages belong are named as such.
        let fractions = parse("win-percent = 0.424\nloss-percent = 0.491\npush-percent = 0.085")
            .unwrap_err()
            .to_string();
        assert!(
            fractions.ends_with(
                "these look like fractions of 1 where percentages are expected (write 42.4 for 0.424)"
            ),
            "{fractions}"
        );
    }

    #[test]
    fn to_text_writes_what_parse_reads() {
        let claim = PublishedClaim {
            source: Some("a # citation".to_string()),
            house_edge_percent: 0.1 + 0.2,
            rounds: 7,
            win_percent: None,
            loss_percent: Some(50.0),
            push_percent: None,
        };
        let text = claim.to_text();
        assert_eq!(
            text,
            "source = a # citation\nhouse-edge-percent = 0.30000000000000004\nrounds = 7\nloss-percent = 50\n"
        );
        assert_eq!(PublishedClaim::parse(&text).unwrap(), claim);
    }

    /// A claim such as `parse` gives: finite numbers in range, rates that
    /// add up, a one-line source with no spaces at its ends.
    fn valid_claim() -> impl Strategy<Value = PublishedClaim> {
        let rate = || proptest::option::of(0.0..=50.0f64);
        (
            proptest::option::of("[A-Za-z0-9#=%,.:/ ]{0,30}[A-Za-z0-9#]"),
            -800.0..=800.0f64,
            1..=u64::MAX,
            (rate(), rate(), proptest::bool::ANY),
        )
            .prop_map(|(source, edge, rounds, (win, loss, push))| {
                // A push rate, when given, makes the three add up to 100.
                let push = push.then(|| 100.0 - win.unwrap_or(0.0) - loss.unwrap_or(0.0));
                PublishedClaim {
                    source: source.map(|s| s.trim().to_string()),
                    house_edge_percent: edge,
                    rounds,
                    win_percent: win,
                    loss_percent: loss,
                    push_percent: push,
                }
            })
    }

    proptest! {
        /// Every valid claim reads back from its text unchanged.
        #[test]
        fn valid_claims_round_trip(claim in valid_claim()) {
            let text = claim.to_text();
            prop_assert_eq!(PublishedClaim::parse(&text).unwrap(), claim);
        }

        /// Any text is a claim or a one-line refusal, never a panic.
        #[test]
        fn any_text_parses_or_is_refused_in_one_line(
            text in "(([a-z_-]{0,20}|rounds|house-edge-percent|win-percent|source)[ =]{0,2}[-+0-9.eE_%#a-z ]{0,12}\n?){0,8}"
        ) {
            match PublishedClaim::parse(&text) {
                Ok(claim) => {
                    prop_assert!(claim.house_edge_percent.is_finite());
                    prop_assert!(claim.rounds >= 1);
                }
                Err(error) => prop_assert!(!error.to_string().contains('\n')),
            }
        }

        /// Arbitrary bytes as text never panic either.
        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            if let Err(error) = PublishedClaim::parse(&text) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }
    }
}
