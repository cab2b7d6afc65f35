//! Exact enumerators: every deal accounted for, results as exact rationals.
//!
//! Architecture invariant: enumerators apply a game's rules only through
//! the game's own functions in `crate::games`; they never restate a rule.
//! They do no I/O and use integer counting in their inner loops, checking
//! every operation for overflow.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;

use crate::distribution::ExactDistribution;

pub mod arrangements;
pub mod dealer;
pub mod first_pass;
pub mod naive_shuffle;
pub mod sequential;

/// How many equally likely arrangements (or weighted ones, for a biased
/// shuffle) lead to each outcome.
///
/// Guarantee: `counts.iter().sum() == total`, so the probabilities
/// `counts[i] / total` are exact and sum to exactly 1 for a complete
/// enumeration. A shard of an enumeration has the shard's counts and
/// total; shards add up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrangementCounts {
    /// Arrangements (or weight) per outcome bin.
    pub counts: Vec<BigUint>,
    /// All arrangements (or the total weight) enumerated.
    pub total: BigUint,
}

impl ArrangementCounts {
    /// No arrangements yet, over `n_outcomes` bins.
    pub fn zero(n_outcomes: usize) -> ArrangementCounts {
        ArrangementCounts {
            counts: vec![BigUint::ZERO; n_outcomes],
            total: BigUint::ZERO,
        }
    }

    /// Adds another shard's counts to these.
    pub fn add(&mut self, other: &ArrangementCounts) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += &other.total;
    }

    /// The exact distribution `counts[i] / total`, reduced. `total` must
    /// not be zero.
    pub fn to_distribution(&self, key: &str, outcomes: Vec<String>) -> ExactDistribution {
        let total = BigInt::from(self.total.clone());
        ExactDistribution {
            key: key.to_string(),
            outcomes,
            probabilities: self
                .counts
                .iter()
                .map(|count| BigRational::new(BigInt::from(count.clone()), total.clone()))
                .collect(),
        }
    }
}
