//! Distributions over named outcomes: the values that flow from the engines
//! to the comparison module and the reports.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

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
}

/// Converts an exact rational to the nearest `f64` (display only).
///
/// Works for numerators and denominators far beyond `f64` range by scaling
/// both to their leading 1000 bits first.
pub fn rational_to_f64(r: &BigRational) -> f64 {
    fn shrink(n: &BigInt, shift: u64) -> f64 {
        (n >> shift).to_f64().unwrap_or(f64::NAN)
    }
    let bits = r.numer().bits().max(r.denom().bits());
    let shift = bits.saturating_sub(1000);
    shrink(r.numer(), shift) / shrink(r.denom(), shift)
}
