//! How many games it takes to detect a biased shuffle: the power of the
//! chi-square homogeneity test of a biased shuffle's cards left against
//! the uniform shuffle's, estimated from two reference runs and checked by
//! independent samples of the predicted size.
//!
//! The study decides which runs to make and with which seeds; the caller
//! decides how to make them (threads, progress, shards), through the
//! `sample` function it hands [`PowerPlan::run`].

use super::IdiotsDelight;
use crate::compare::{self, Agreement};
use crate::distribution::CountDistribution;
use crate::error::Result;
use crate::rng::Shuffle;
use crate::stats;

/// A power study, as asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerPlan {
    pub game: IdiotsDelight,
    /// The biased shuffle to detect.
    pub shuffle: Shuffle,
    /// Games in each reference run.
    pub n_trials: u64,
    /// The uniform reference run's seed; the biased one's is the next, and
    /// the replicates' those after it.
    pub seed: u64,
    /// The significance level of every test.
    pub level: f64,
    /// Independent samples of the size predicted for 90% power, each
    /// tested as a user would (0: none).
    pub replicates: u64,
}

/// What a power study found.
#[derive(Clone, Debug, PartialEq)]
pub struct PowerStudy {
    pub plan: PowerPlan,
    /// The homogeneity test of the two reference runs.
    pub reference: Agreement,
    /// The estimated noncentrality per game, `sum (p_b - p_u)^2 / p_u`;
    /// 0 when the reference runs detect no bias.
    pub lambda_per_game: f64,
    /// Games for 50% power (`None`: no bias detected).
    pub games_50: Option<u64>,
    /// Games for 90% power (`None`: no bias detected).
    pub games_90: Option<u64>,
    /// Samples of `games_90` games tested like a user would.
    pub replicate_check: Option<ReplicateCheck>,
}

/// Independent samples at the predicted size, to check the prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicateCheck {
    pub replicates: u64,
    /// How many of them the test rejected at the plan's level.
    pub rejections: u64,
    /// Games in each.
    pub games: u64,
    /// The rejection rate the noncentral chi-square predicts for them.
    pub predicted: f64,
}

impl PowerPlan {
    /// Runs the study. `sample(shuffle, games, seed)` must give the
    /// Monte-Carlo counts of `games` games of the plan's game under
    /// `shuffle`, with `seed`.
    pub fn run(
        &self,
        mut sample: impl FnMut(Shuffle, u64, u64) -> Result<CountDistribution>,
    ) -> Result<PowerStudy> {
        let PowerPlan {
            shuffle,
            n_trials,
            seed,
            level,
            replicates,
            ..
        } = *self;
        let uniform = sample(Shuffle::Uniform, n_trials, seed)?;
        let biased = sample(shuffle, n_trials, seed.wrapping_add(1))?;
        let reference = compare::homogeneity(&uniform, &biased, level)?;
        // Only a bias the reference runs actually detect is extrapolated;
        // an insignificant excess is noise, and the answer is "more games
        // than these runs had".
        let lambda_per_game = if reference.p_value < level {
            stats::noncentrality_per_trial(
                reference.chi_square,
                reference.degrees_of_freedom,
                n_trials,
                n_trials,
            )
        } else {
            0.0
        };
        let df = reference.degrees_of_freedom;
        let games_for = |target: f64| stats::trials_for_power(lambda_per_game, df, level, target);
        let (games_50, games_90) = (games_for(0.5), games_for(0.9));
        let replicate_check = match games_90 {
            Some(games) if replicates > 0 => {
                // Each replicate is tested against the uniform reference
                // run (a sample too, so the check's own power is a little
                // lower than 90%: its noncentrality is delta * m * N / (m +
                // N)).
                let mut rejections = 0;
                for replicate in 0..replicates {
                    let sample = sample(shuffle, games, seed.wrapping_add(2 + replicate))?;
                    if compare::homogeneity(&uniform, &sample, level)?.p_value < level {
                        rejections += 1;
                    }
                }
                let (m, n) = (games as f64, n_trials as f64);
                let predicted =
                    stats::chi_square_power(df, lambda_per_game * m * n / (m + n), level);
                Some(ReplicateCheck {
                    replicates,
                    rejections,
                    games,
                    predicted,
                })
            }
            _ => None,
        };
        Ok(PowerStudy {
            plan: *self,
            reference,
            lambda_per_game,
            games_50,
            games_90,
            replicate_check,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards_left(counts: &[u64]) -> CountDistribution {
        CountDistribution {
            key: "cards-left".into(),
            outcomes: (0..counts.len()).map(|i| (2 * i).to_string()).collect(),
            counts: counts.to_vec(),
        }
    }

    fn plan(replicates: u64) -> PowerPlan {
        PowerPlan {
            game: IdiotsDelight::standard(),
            shuffle: Shuffle::Naive,
            n_trials: 10_000,
            seed: 40,
            level: 0.001,
            replicates,
        }
    }

    #[test]
    fn runs_the_reference_runs_then_replicates_of_the_predicted_size_with_their_seeds() {
        let mut asked = Vec::new();
        let study = plan(3)
            .run(|shuffle, games, seed| {
                asked.push((shuffle, games, seed));
                // A bias plain at 10,000 games, and each replicate as
                // biased as the reference run.
                Ok(match shuffle {
                    Shuffle::Uniform => cards_left(&[5000, 3000, 2000]),
                    _ => cards_left(&[games / 2 - games / 10, games * 3 / 10, games * 3 / 10]),
                })
            })
            .unwrap();
        assert!(study.reference.p_value < 0.001);
        assert!(study.lambda_per_game > 0.0);
        let (g50, g90) = (study.games_50.unwrap(), study.games_90.unwrap());
        assert!(g50 < g90 && g90 < 10_000, "{g50} {g90}");
        assert_eq!(
            asked,
            [
                (Shuffle::Uniform, 10_000, 40),
                (Shuffle::Naive, 10_000, 41),
                (Shuffle::Naive, g90, 42),
                (Shuffle::Naive, g90, 43),
                (Shuffle::Naive, g90, 44),
            ]
        );
        let check = study.replicate_check.unwrap();
        assert_eq!((check.replicates, check.games), (3, g90));
        assert!(check.rejections <= 3 && (0.0..=1.0).contains(&check.predicted));
    }

    #[test]
    fn a_bias_the_reference_runs_do_not_detect_is_not_extrapolated() {
        let mut calls = 0;
        let study = plan(5)
            .run(|_, _, _| {
                calls += 1;
                Ok(cards_left(&[5000, 3000, 2000]))
            })
            .unwrap();
        assert_eq!(study.lambda_per_game, 0.0);
        assert_eq!((study.games_50, study.games_90), (None, None));
        assert_eq!(study.replicate_check, None);
        assert_eq!(calls, 2, "no replicates without a predicted size");
    }
}
