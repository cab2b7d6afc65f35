//! Precision targets (`--until-halfwidth X [--for OUTCOME]`): whether the
//! counts so far pin every watched outcome down to within X.
//!
//! The test is the one the reports print: the 95% Wilson interval of each
//! outcome's count, whose half-width is (high - low) / 2. A runner that
//! adds chunks in order and asks [`Watch::widest`] after each one stops at the same chunk on any machine.

use crate::distribution::CountDistribution;
use crate::stats::{Z95, wilson_interval};

/// A precision target: every watched outcome's 95% interval narrower than
/// `half_width` either side.
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionTarget {
    /// The largest half-width allowed, as a proportion (0.0005 is 0.05
    /// percentage points).
    pub half_width: f64,
    /// The outcome watched: a label (in every distribution that has it),
    /// `KEY/LABEL` (in one), or `None` for every outcome.
    pub outcome: Option<String>,
}

/// The outcome whose interval is widest, and its half-width.
#[derive(Clone, Debug, PartialEq)]
pub struct Widest {
    /// `KEY/LABEL` of the outcome.
    pub outcome: String,
    /// Its 95% interval's half-width, as a proportion.
    pub half_width: f64,
}

impl PrecisionTarget {
    /// The outcomes the target watches among `possible` (every outcome a
    /// run can report: the distributions of a tally of all ones, say), or
    /// an error that lists the outcomes there are.
    pub fn watch(&self, possible: &[CountDistribution]) -> Result<Watch, String> {
        let Some(name) = &self.outcome else {
            return Ok(Watch {
                half_width: self.half_width,
                outcomes: None,
            });
        };
        let watched: Vec<(String, String)> = possible
            .iter()
            .flat_map(|d| d.outcomes.iter().map(move |label| (&d.key, label)))
            .filter(|(key, label)| {
                name == *label
                    || name
                        .strip_prefix(key.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                        == Some(label.as_str())
            })
            .map(|(key, label)| (key.clone(), label.clone()))
            .collect();
        if !watched.is_empty() {
            return Ok(Watch {
                half_width: self.half_width,
                outcomes: Some(watched),
            });
        }
        let labels: Vec<String> = if possible.len() == 1 {
            possible[0].outcomes.clone()
        } else {
            possible
                .iter()
                .flat_map(|d| d.outcomes.iter().map(|label| format!("{}/{label}", d.key)))
                .collect()
        };
        let shown = labels
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if labels.len() > 12 { ", ..." } else { "" };
        Err(format!(
            "names no outcome of this run; its outcomes are {shown}{more}"
        ))
    }
}

/// A precision target resolved against a run's outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Watch {
    half_width: f64,
    /// `(key, label)` of each outcome watched, or `None` for every one.
    outcomes: Option<Vec<(String, String)>>,
}

impl Watch {
    /// The largest half-width allowed.
    pub fn half_width(&self) -> f64 {
        self.half_width
    }

    /// The watched outcome with the widest 95% interval in
    /// `distributions` (the counts so far). A watched outcome absent from
    /// its distribution (one cut at its last nonzero bin) counts as 0.
    pub fn widest(&self, distributions: &[CountDistribution]) -> Widest {
        let mut widest = Widest {
            outcome: String::new(),
            half_width: -1.0,
        };
        let mut consider = |key: &str, label: &str, count: u64, trials: u64| {
            let interval = wilson_interval(count, trials, Z95);
            let half_width = (interval.high - interval.low) / 2.0;
            if half_width > widest.half_width {
                widest = Widest {
                    outcome: format!("{key}/{label}"),
                    half_width,
                };
            }
        };
        for d in distributions {
            let trials = d.trials();
            match &self.outcomes {
                None => {
                    for (label, &count) in d.outcomes.iter().zip(&d.counts) {
                        consider(&d.key, label, count, trials);
                    }
                }
                Some(watched) => {
                    for (_, label) in watched.iter().filter(|(key, _)| *key == d.key) {
                        let count = d
                            .outcomes
                            .iter()
                            .position(|l| l == label)
                            .map_or(0, |i| d.counts[i]);
                        consider(&d.key, label, count, trials);
                    }
                }
            }
        }
        widest
    }

    /// Whether `widest` meets the target: strictly narrower than it.
    pub fn is_met_by(&self, widest: &Widest) -> bool {
        (0.0..self.half_width).contains(&widest.half_width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distribution(key: &str, counts: &[u64]) -> CountDistribution {
        CountDistribution {
            key: key.into(),
            outcomes: (0..counts.len()).map(|i| i.to_string()).collect(),
            counts: counts.to_vec(),
        }
    }

    #[test]
    fn the_widest_interval_is_that_of_the_proportion_nearest_a_half() {
        let ds = [distribution("k", &[100, 500, 400])];
        let target = PrecisionTarget {
            half_width: 0.01,
            outcome: None,
        }
        .watch(&ds)
        .unwrap();
        let widest = target.widest(&ds);
        assert_eq!(widest.outcome, "k/1");
        let interval = wilson_interval(500, 1000, Z95);
        assert_eq!(widest.half_width, (interval.high - interval.low) / 2.0);
        // About 1.96 sqrt(0.25 / 1000) = 0.031.
        assert!((widest.half_width - 0.031).abs() < 0.001);
        assert!(!target.is_met_by(&widest));
        let loose = PrecisionTarget {
            half_width: 0.04,
            outcome: None,
        }
        .watch(&ds)
        .unwrap();
        assert!(loose.is_met_by(&widest));
    }

    #[test]
    fn a_named_outcome_is_watched_in_every_distribution_or_in_one() {
        let ds = [
            distribution("a", &[990, 10]),
            distribution("b", &[500, 500]),
        ];
        let watch = |outcome: &str| {
            PrecisionTarget {
                half_width: 0.01,
                outcome: Some(outcome.into()),
            }
            .watch(&ds)
        };
        assert_eq!(watch("1").unwrap().widest(&ds).outcome, "b/1");
        assert_eq!(watch("a/1").unwrap().widest(&ds).outcome, "a/1");
        let error = watch("won").unwrap_err();
        assert!(error.contains("a/0, a/1, b/0, b/1"), "{error}");
    }

    #[test]
    fn an_outcome_missing_from_a_cut_distribution_counts_as_zero() {
        let possible = [distribution("k", &[1, 1, 1, 1])];
        let target = PrecisionTarget {
            half_width: 0.01,
            outcome: Some("k/3".into()),
        }
        .watch(&possible)
        .unwrap();
        let widest = target.widest(&[distribution("k", &[600, 400])]);
        let interval = wilson_interval(0, 1000, Z95);
        assert_eq!(widest.half_width, interval.high / 2.0);
    }
}
