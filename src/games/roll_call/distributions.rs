//! Roll-Call's counts as distributions: a tally (or an exhaustive count)
//! cut into its eight distributions (see [`Tally`]), the long tails of
//! passes and strikes cut after their last nonzero bin, or padded to a
//! common length so that two reports compare bin by bin; the first pass's
//! exact distribution; and what an exhaustive run is estimated to cost.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::first_pass::first_pass_matches;
use super::{RollCall, Tally};
use crate::distribution::{CountDistribution, ExactDistribution};
use crate::engine::ArrangementCounts;
use crate::engine::arrangements;
use crate::error::Result;

/// The key of the first pass's distribution.
pub const FIRST_PASS: &str = "first-pass-matches";

/// Bins shown of the long-tailed distributions ([`Tally::LONG_TAILED`]):
/// passes, then strikes.
pub type TailLengths = [usize; 2];

/// Seconds per arrangement of the exhaustive enumeration on the reference
/// machine (two threads), for the up-front estimate: about 110 ns of one
/// core's time per arrangement, measured on 12 x 1 (25 s) and 7 x 2 (40 s).
const EXHAUSTIVE_SECONDS_PER_ARRANGEMENT: f64 = 60e-9;

impl RollCall {
    /// The exact distributions of an exhaustive count (laid out as
    /// [`Tally::add`] fills a tally), long tails cut after their last
    /// possible value.
    pub fn exact_distributions(&self, counts: &ArrangementCounts) -> Vec<ExactDistribution> {
        Tally::new(self)
            .split(&counts.counts)
            .into_iter()
            .map(|(key, mut labels, mut part)| {
                if Tally::LONG_TAILED.contains(&key) {
                    let keep = last_nonzero(&part, &BigUint::ZERO) + 1;
                    part.truncate(keep);
                    labels.truncate(keep);
                }
                ArrangementCounts {
                    counts: part,
                    total: counts.total.clone(),
                }
                .to_distribution(key, labels)
            })
            .collect()
    }

    /// The Monte-Carlo distributions of a tally. Passes and strikes stop
    /// at their last nonzero bin, or at `lengths` when given, so that they
    /// share their bins with another report.
    pub fn count_distributions(
        &self,
        counts: &[u64],
        lengths: Option<TailLengths>,
    ) -> Vec<CountDistribution> {
        Tally::new(self)
            .split(counts)
            .into_iter()
            .map(|(key, mut labels, mut part)| {
                if let Some(tail) = Tally::LONG_TAILED.iter().position(|&k| k == key) {
                    let keep = lengths.map_or(last_nonzero(&part, &0) + 1, |lengths| lengths[tail]);
                    part.truncate(keep);
                    labels.truncate(keep);
                }
                CountDistribution {
                    key: key.into(),
                    outcomes: labels,
                    counts: part,
                }
            })
            .collect()
    }

    /// The exact distribution of matches in the first pass, by rook
    /// polynomials (any deck).
    pub fn first_pass_distribution(&self) -> Result<ExactDistribution> {
        let p = self.params();
        let counts = first_pass_matches(p.ranks, p.copies)?;
        let labels = (0..counts.counts.len()).map(|j| j.to_string()).collect();
        Ok(counts.to_distribution(FIRST_PASS, labels))
    }

    /// Estimates the exhaustive enumeration's time in seconds on the
    /// reference machine (two cores): every arrangement of the deck at the
    /// time one took there.
    pub fn exhaustive_seconds(&self) -> f64 {
        arrangements::n_arrangements(&self.exhaustive_deck())
            .to_f64()
            .unwrap_or(f64::INFINITY)
            * EXHAUSTIVE_SECONDS_PER_ARRANGEMENT
    }
}

/// How many bins of passes and of strikes distributions show, from their
/// keys and lengths.
pub fn tail_lengths<'a>(keys_and_lengths: impl Iterator<Item = (&'a str, usize)>) -> TailLengths {
    let mut lengths = [0; 2];
    for (key, len) in keys_and_lengths {
        if let Some(tail) = Tally::LONG_TAILED.iter().position(|&k| k == key) {
            lengths[tail] = len;
        }
    }
    lengths
}

/// The bins of passes and of strikes that show both `a`'s and `b`'s.
pub fn longer_tails(a: TailLengths, b: TailLengths) -> TailLengths {
    [a[0].max(b[0]), a[1].max(b[1])]
}

/// Pads the long-tailed exact distributions with zero probabilities up to
/// `lengths` bins.
pub fn pad_exact(
    distributions: Vec<ExactDistribution>,
    lengths: TailLengths,
) -> Vec<ExactDistribution> {
    distributions
        .into_iter()
        .map(|mut d| {
            if let Some(tail) = Tally::LONG_TAILED.iter().position(|&k| k == d.key) {
                let first = if d.key == "passes" { 1 } else { 0 };
                while d.outcomes.len() < lengths[tail] {
                    d.outcomes.push((first + d.outcomes.len()).to_string());
                    d.probabilities.push(BigRational::from_integer(0.into()));
                }
            }
            d
        })
        .collect()
}

fn last_nonzero<T: PartialEq>(part: &[T], zero: &T) -> usize {
    part.iter().rposition(|c| c != zero).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roll_call::{Count, PassOrder, RollCallParams};

    fn game() -> RollCall {
        RollCall::new(RollCallParams {
            ranks: 4,
            copies: 1,
            count: Count::Continuous,
            order: PassOrder::Same,
        })
        .unwrap()
    }

    #[test]
    fn long_tails_stop_at_their_last_count_or_at_the_lengths_given() {
        let game = game();
        let tally = Tally::new(&game);
        // One game: its passes and strikes are the tails' last nonzero
        // bins.
        let record = game.play(&[2, 1, 3, 4]);
        let mut counts = vec![0; tally.n_bins()];
        tally.add(&record, &mut counts);
        let cut = game.count_distributions(&counts, None);
        let lengths = tail_lengths(cut.iter().map(|d| (d.key.as_str(), d.outcomes.len())));
        assert_eq!(
            lengths,
            [usize::from(record.passes), usize::from(record.strikes) + 1]
        );
        let longer = longer_tails(lengths, [lengths[0] + 2, 1]);
        assert_eq!(longer, [lengths[0] + 2, lengths[1]]);
        let padded = game.count_distributions(&counts, Some(longer));
        let passes = padded.iter().find(|d| d.key == "passes").unwrap();
        assert_eq!(passes.outcomes.len(), lengths[0] + 2);
        assert_eq!(passes.outcomes[0], "1");
        assert_eq!(passes.counts.iter().sum::<u64>(), 1);
    }

    #[test]
    fn exact_tails_pad_with_zero_probabilities_numbered_on() {
        let exact = ExactDistribution {
            key: "passes".into(),
            outcomes: vec!["1".into(), "2".into()],
            probabilities: vec![
                BigRational::new(1.into(), 2.into()),
                BigRational::new(1.into(), 2.into()),
            ],
        };
        let padded = pad_exact(vec![exact], [4, 0]);
        assert_eq!(padded[0].outcomes, ["1", "2", "3", "4"]);
        assert_eq!(
            padded[0].probabilities[3],
            BigRational::from_integer(0.into())
        );
    }
}
