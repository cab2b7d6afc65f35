//! The answer a reader came for, ahead of the full table: the odds of
//! winning (or the outcome the game's question is about), picked out of a
//! report's distributions.
//!
//! A [`Headline`] is plain data, computed here from the distributions (an
//! exact probability, or a Monte-Carlo count out of its trials); the
//! terminal table renders it (`report::headline`) above the full tables.
//! Which outcome answers a game's question is the caller's to say (the
//! game's command knows that 0 cards left is Idiot's Delight's win); this
//! module only finds it and carries it, so that a headline can never
//! disagree with the table under it.

mod render;
mod versions;

pub(crate) use render::lines;
pub use versions::render_version_table;

use num_rational::BigRational;
use num_traits::Zero;

use crate::report::ReportDistribution;

/// The figures a report leads with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Headline {
    /// In display order.
    pub figures: Vec<HeadlineFigure>,
}

/// One figure of a headline.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadlineFigure {
    /// What it is, e.g. `P(win) = P(0 cards left)`.
    pub label: String,
    /// The figure.
    pub value: HeadlineValue,
    /// A word on the value where it needs one, e.g. why it is 0.
    pub note: Option<String>,
}

/// The kinds of headline figure.
#[derive(Clone, Debug, PartialEq)]
pub enum HeadlineValue {
    /// An exact probability.
    Exact(BigRational),
    /// `count` of `trials` (a Monte-Carlo estimate), shown with its 95%
    /// Wilson interval.
    Estimate { count: u64, trials: u64 },
    /// A Monte-Carlo mean with its standard error, shown with the normal
    /// 95% interval.
    Mean { estimate: f64, standard_error: f64 },
    /// One probability per distribution, labelled (the dealer's bust by
    /// upcard), on one line.
    ByKey(Vec<(String, HeadlineValue)>),
}

impl Headline {
    /// A headline of `figures`.
    pub fn of(figures: impl IntoIterator<Item = HeadlineFigure>) -> Headline {
        Headline {
            figures: figures.into_iter().collect(),
        }
    }

    /// The probability of `outcome` in each distribution of `distributions`
    /// whose key is in `keys`, in the order of `keys`, each labelled by its
    /// `(key, label)` pair. A key or outcome the distributions lack gives
    /// no figure.
    pub fn probabilities(
        distributions: &[ReportDistribution],
        keys: &[(&str, &str)],
        outcome: &str,
    ) -> Headline {
        Headline::of(keys.iter().filter_map(|&(key, label)| {
            let distribution = distributions.iter().find(|d| d.key() == key)?;
            HeadlineFigure::probability(label, distribution, outcome)
        }))
    }
}

impl HeadlineFigure {
    /// The probability of `outcome` in `distribution`, labelled `label`, or
    /// `None` if the distribution has no such outcome.
    pub fn probability(
        label: &str,
        distribution: &ReportDistribution,
        outcome: &str,
    ) -> Option<HeadlineFigure> {
        Some(HeadlineFigure {
            label: label.to_string(),
            value: value_of(distribution, outcome)?,
            note: None,
        })
    }

    /// A probability that is exactly zero by the rules (no outcome of the
    /// game gives it), with the reason.
    pub fn impossible(label: &str, reason: &str) -> HeadlineFigure {
        HeadlineFigure {
            label: label.to_string(),
            value: HeadlineValue::Exact(BigRational::zero()),
            note: Some(reason.to_string()),
        }
    }

    /// The probability of `outcome` in every one of `distributions`, on one
    /// line, each labelled by its key without a common `name=` (`upcard=2`
    /// is `2`). Distributions without the outcome are left out.
    pub fn by_key(
        label: &str,
        distributions: &[ReportDistribution],
        outcome: &str,
    ) -> HeadlineFigure {
        let keys: Vec<&str> = distributions.iter().map(ReportDistribution::key).collect();
        let common = keys
            .first()
            .and_then(|key| key.split_once('='))
            .map(|(name, _)| format!("{name}="))
            .filter(|prefix| keys.iter().all(|key| key.starts_with(prefix.as_str())));
        let values = distributions
            .iter()
            .filter_map(|distribution| {
                let key = distribution.key();
                let short = common
                    .as_deref()
                    .and_then(|prefix| key.strip_prefix(prefix))
                    .unwrap_or(key);
                Some((short.to_string(), value_of(distribution, outcome)?))
            })
            .collect();
        HeadlineFigure {
            label: label.to_string(),
            value: HeadlineValue::ByKey(values),
            note: None,
        }
    }

    /// A Monte-Carlo mean with its standard error.
    pub fn mean(label: &str, estimate: f64, standard_error: f64) -> HeadlineFigure {
        HeadlineFigure {
            label: label.to_string(),
            value: HeadlineValue::Mean {
                estimate,
                standard_error,
            },
            note: None,
        }
    }
}

/// The probability of `outcome` in `distribution`: exact, or its count out
/// of the distribution's trials. `None` if there is no such outcome.
fn value_of(distribution: &ReportDistribution, outcome: &str) -> Option<HeadlineValue> {
    let index = distribution.outcomes().iter().position(|o| o == outcome)?;
    match distribution {
        ReportDistribution::Exact(d) => d
            .probabilities
            .get(index)
            .cloned()
            .map(HeadlineValue::Exact),
        ReportDistribution::Counts(d) => {
            let count = *d.counts.get(index)?;
            // Saturating: absurd counts must not wrap into a small total.
            let trials = d.counts.iter().fold(0u64, |sum, &c| sum.saturating_add(c));
            Some(HeadlineValue::Estimate { count, trials })
        }
    }
}

/// A table of headline figures: one row per version of a game (Roll-Call's
/// four count x order versions), one column per question, each cell the
/// row's figure for that question.
///
/// Guarantee (when built by [`VersionTable::new`]): every row has one cell
/// per column, in column order; a row lacking a question's figure has
/// `None` there.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionTable {
    /// The names of the row labels' parts, e.g. `["count", "order"]`.
    pub version_names: Vec<String>,
    /// The questions, as column heads (`K=1`).
    pub columns: Vec<String>,
    /// Each version's label parts (`["continuous", "same"]`) and cells.
    pub rows: Vec<(Vec<String>, Vec<Option<HeadlineValue>>)>,
}

impl VersionTable {
    /// The table of `versions`' headlines: one column per `(head, label)`
    /// of `columns`, each cell the version's figure of that label.
    pub fn new(
        version_names: &[&str],
        columns: &[(&str, &str)],
        versions: &[(Vec<String>, Headline)],
    ) -> VersionTable {
        let rows = versions
            .iter()
            .map(|(version, headline)| {
                let cells = columns
                    .iter()
                    .map(|&(_, label)| {
                        headline
                            .figures
                            .iter()
                            .find(|f| f.label == label)
                            .map(|f| f.value.clone())
                    })
                    .collect();
                (version.clone(), cells)
            })
            .collect();
        VersionTable {
            version_names: version_names.iter().map(|n| n.to_string()).collect(),
            columns: columns.iter().map(|&(head, _)| head.to_string()).collect(),
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::{CountDistribution, ExactDistribution};
    use num_bigint::BigInt;

    fn ratio(numerator: i64, denominator: i64) -> BigRational {
        BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
    }

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn counts(key: &str, outcomes: &[&str], counts: &[u64]) -> ReportDistribution {
        ReportDistribution::Counts(CountDistribution {
            key: key.into(),
            outcomes: labels(outcomes),
            counts: counts.to_vec(),
        })
    }

    #[test]
    fn a_probability_is_the_outcome_of_the_distribution_named() {
        let distributions = vec![
            counts("K=1", &["0", "1", "2"], &[3, 5, 2]),
            counts("K=2", &["0", "1", "2"], &[7, 1, 2]),
        ];
        let headline = Headline::probabilities(
            &distributions,
            &[
                ("K=2", "P(win), K=2"),
                ("K=9", "nothing"),
                ("K=1", "P(win), K=1"),
            ],
            "0",
        );
        assert_eq!(
            headline.figures,
            [
                HeadlineFigure {
                    label: "P(win), K=2".into(),
                    value: HeadlineValue::Estimate {
                        count: 7,
                        trials: 10
                    },
                    note: None
                },
                HeadlineFigure {
                    label: "P(win), K=1".into(),
                    value: HeadlineValue::Estimate {
                        count: 3,
                        trials: 10
                    },
                    note: None
                },
            ]
        );
        assert!(HeadlineFigure::probability("x", &distributions[0], "9").is_none());
    }

    #[test]
    fn exact_probabilities_are_carried_exactly() {
        let exact = ReportDistribution::Exact(ExactDistribution {
            key: "cards-left".into(),
            outcomes: labels(&["0", "2"]),
            probabilities: vec![ratio(1, 6), ratio(5, 6)],
        });
        let figure = HeadlineFigure::probability("P(win)", &exact, "0").unwrap();
        assert_eq!(figure.value, HeadlineValue::Exact(ratio(1, 6)));
    }

    #[test]
    fn by_key_drops_the_common_name_only() {
        let distributions = vec![
            counts("upcard=2", &["bust", "17"], &[1, 3]),
            counts("upcard=A", &["bust", "17"], &[2, 2]),
        ];
        let figure = HeadlineFigure::by_key("busts", &distributions, "bust");
        let HeadlineValue::ByKey(values) = figure.value else {
            panic!("by key")
        };
        let keys: Vec<&str> = values.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["2", "A"]);
        let mixed = vec![
            counts("upcard=2", &["bust"], &[1]),
            counts("other", &["bust"], &[1]),
        ];
        let HeadlineValue::ByKey(values) = HeadlineFigure::by_key("b", &mixed, "bust").value else {
            panic!("by key")
        };
        assert_eq!(values[0].0, "upcard=2");
    }

    #[test]
    fn a_version_table_has_a_cell_per_question() {
        let figure = |label: &str, count| HeadlineFigure {
            label: label.into(),
            value: HeadlineValue::Estimate { count, trials: 10 },
            note: None,
        };
        let versions = vec![
            (
                labels(&["continuous", "same"]),
                Headline::of([figure("a", 1), figure("b", 2)]),
            ),
            (labels(&["restart", "same"]), Headline::of([figure("b", 3)])),
        ];
        let table = VersionTable::new(&["count", "order"], &[("A", "a"), ("B", "b")], &versions);
        assert_eq!(table.columns, ["A", "B"]);
        assert_eq!(table.rows[1].1[0], None);
        assert_eq!(
            table.rows[1].1[1],
            Some(HeadlineValue::Estimate {
                count: 3,
                trials: 10
            })
        );
    }
}
