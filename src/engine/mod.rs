//! The game-agnostic engines, and the traits through which games plug into
//! them: the parallel Monte-Carlo runner and its precision targets
//! ([`montecarlo`], [`precision`]), the memoised enumerator over what is
//! left in the deck ([`sequential`]), the exhaustive enumerator of every
//! arrangement ([`arrangements`]), the exact distribution of arrangements
//! after the naive shuffle ([`naive_shuffle`]), a run cut into parts
//! ([`shard`]), and [`ArrangementCounts`], the common result of the exact
//! engines.
//!
//! Architecture invariants (to be checked by a test over the imports): this
//! folder imports only the ground floor (`cards`, `rng`, `distribution`,
//! `stats`, `error`), never a game, a renderer or the command line; it does
//! no I/O (progress goes through [`Progress`]). Exact engines count with
//! integers in their inner loops and check every operation for overflow.
//! Monte-Carlo counts depend only on (seed, stream, trials, chunk size),
//! never on the number of threads.

pub mod arrangements;
pub mod montecarlo;
pub mod naive_shuffle;
pub mod precision;
pub mod sequential;
pub mod shard;
pub mod traits;

pub use shard::Shard;
pub use traits::{NoProgress, Player, Progress, SequentialGame, Simulation};

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;

use crate::distribution::ExactDistribution;

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
