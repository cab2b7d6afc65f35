//! Distributions over named outcomes: the values that flow from the engines
//! to the comparison module and the reports.

use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::stats::{self, Interval};

/// An exact probability distribution over named outcomes.
///
/// Guarantee: `probabilities` are exact reduced rationals, one per outcome,
/// in the order of `outcomes`; for a complete distribution they sum to
/// exactly 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactDistribution {
    /// What this distribution is of, e.g. `upcard=2`.
    pub key: String,
    /// Outcome labels, e.g. `bust`, `17`, ..., `natural`.
    pub outcomes: Vec<String>,
    /// One exact probability per outcome.
    pub probabilities: Vec<BigRational>,
}

impl ExactDistribution {
    /// The probabilities as `f64`, for display and statistics only.
    pub fn values(&self) -> Vec<f64> {
        self.probabilities.iter().map(rational_to_f64).collect()
    }
}

/// Monte-Carlo counts over named outcomes.
///
/// Guarantee: `counts[i]` is the number of trials whose outcome was
/// `outcomes[i]`; the number of trials is their sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountDistribution {
    /// What this distribution is of, e.g. `upcard=2`.
    pub key: String,
    /// Outcome labels.
    pub outcomes: Vec<String>,
    /// One count per outcome.
    pub counts: Vec<u64>,
}

impl CountDistribution {
    /// The number of trials behind the counts.
    pub fn trials(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Each outcome's share of the trials (NaN for every outcome when
    /// there are none).
    pub fn proportions(&self) -> Vec<f64> {
        let trials = self.trials();
        self.counts
            .iter()
            .map(|&count| count as f64 / trials as f64)
            .collect()
    }

    /// Each outcome's 95% Wilson interval.
    pub fn intervals95(&self) -> Vec<Interval> {
        let trials = self.trials();
        self.counts
            .iter()
            .map(|&count| stats::wilson_interval(count, trials, stats::Z95))
            .collect()
    }
}

/// The `name=value` pairs of a distribution key, in order: `upcard=2`
/// gives `[("upcard", "2")]`, `decks=2 upcard=A` two pairs. A key that is
/// a plain label (`cards-left`, `rounds per shoe`), where some
/// space-separated part has no `=` or an empty name, gives none.
///
/// Guarantee: for a key with pairs, joining `name=value` with single
/// spaces gives the key again (a value is what follows its part's first
/// `=`), so the pairs say all the key says.
pub fn key_params(key: &str) -> Vec<(&str, &str)> {
    if key.is_empty() {
        return Vec::new();
    }
    key.split(' ')
        .map(|part| part.split_once('=').filter(|(name, _)| !name.is_empty()))
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// Parses a published table of counts: CSV with a header row, then rows
/// `outcome,count` (e.g. `cards_left,count` then `0,7057`). Every label in
/// `outcomes` must appear exactly once; the counts come back in the order
/// of `outcomes`. Blank lines are skipped; thousands separators are not
/// allowed (`7,057` would be two fields).
///
/// Errors are one-line messages naming the line; the caller adds the file.
pub fn parse_count_table(text: &str, outcomes: &[String]) -> Result<Vec<u64>, String> {
    let mut counts: Vec<Option<u64>> = vec![None; outcomes.len()];
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty());
    if lines.next().is_none() {
        return Err("empty file: expected a header row, then rows `outcome,count`".into());
    }
    for (number, line) in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [label, count] = fields[..] else {
            return Err(format!(
                "line {number}: expected two fields `outcome,count`, found {}",
                fields.len()
            ));
        };
        let index = outcomes.iter().position(|o| o == label).ok_or_else(|| {
            format!(
                "line {number}: unknown outcome {label:?}; expected one of {}",
                outcomes.join(", ")
            )
        })?;
        let count: u64 = count
            .parse()
            .map_err(|_| format!("line {number}: count {count:?} is not a whole number"))?;
        if counts[index].replace(count).is_some() {
            return Err(format!("line {number}: outcome {label} appears twice"));
        }
    }
    counts
        .into_iter()
        .zip(outcomes)
        .map(|(count, label)| count.ok_or_else(|| format!("no row for outcome {label}")))
        .collect()
}

/// Converts an exact rational to the nearest `f64` (display only),
/// correctly rounded (num-rational's conversion, which works for numerators
/// and denominators far beyond `f64` range).
pub fn rational_to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn key_params_splits_pairs_and_leaves_labels_whole() {
        assert_eq!(key_params("upcard=2"), [("upcard", "2")]);
        assert_eq!(
            key_params("decks=2 upcard=A"),
            [("decks", "2"), ("upcard", "A")]
        );
        assert_eq!(key_params("K=unlimited"), [("K", "unlimited")]);
        for label in [
            "",
            "cards-left",
            "rounds per shoe",
            "x=1 y",
            "=1",
            "P(win), a=b",
        ] {
            assert_eq!(key_params(label), [], "{label:?}");
        }
    }

    proptest! {
        /// Pairs joined into a key come back as they were.
        #[test]
        fn key_params_gives_back_the_pairs_a_key_was_made_of(
            pairs in prop::collection::vec(("[A-Za-z_][A-Za-z0-9_-]{0,6}", "[A-Za-z0-9=.+-]{0,6}"), 1..5)
        ) {
            let key = pairs
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect::<Vec<_>>()
                .join(" ");
            let expected: Vec<(&str, &str)> =
                pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            prop_assert_eq!(key_params(&key), expected);
        }

        /// A key with a part lacking `=` is a label: no pairs.
        #[test]
        fn a_key_with_a_bare_word_has_no_pairs(
            before in "([a-z]=[0-9] ){0,3}",
            word in "[a-z()-]{1,8}",
        ) {
            let key = format!("{before}{word}");
            prop_assert!(key_params(&key).is_empty(), "{}", key);
        }
    }

    #[test]
    fn proportions_and_intervals_are_each_outcomes_share_of_the_trials() {
        let counts = CountDistribution {
            key: "k".into(),
            outcomes: vec!["a".into(), "b".into()],
            counts: vec![1, 3],
        };
        assert_eq!(counts.proportions(), [0.25, 0.75]);
        let intervals = counts.intervals95();
        assert_eq!(intervals[0], stats::wilson_interval(1, 4, stats::Z95));
        assert!(intervals[1].low < 0.75 && 0.75 < intervals[1].high);
    }

    #[test]
    fn count_tables_parse_and_name_their_errors() {
        let outcomes: Vec<String> = ["0", "2", "4"].map(String::from).to_vec();
        let check = |text: &str| parse_count_table(text, &outcomes);
        assert_eq!(check("left,count\n4,3\n0,1\n\n2,2\n"), Ok(vec![1, 2, 3]));
        assert_eq!(
            check(""),
            Err("empty file: expected a header row, then rows `outcome,count`".into())
        );
        assert!(
            check("h\n0,1\n2,2")
                .unwrap_err()
                .contains("no row for outcome 4")
        );
        assert!(
            check("h\n0,1\n0,2\n4,1\n2,1")
                .unwrap_err()
                .starts_with("line 3: outcome 0 appears twice")
        );
        assert!(
            check("h\n6,1")
                .unwrap_err()
                .starts_with("line 2: unknown outcome \"6\"")
        );
        assert!(
            check("h\n0,7,057")
                .unwrap_err()
                .starts_with("line 2: expected two fields")
        );
        assert!(check("h\n0,x").unwrap_err().contains("not a whole number"));
    }
}
