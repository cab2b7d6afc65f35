//! Statistics used to judge Monte-Carlo results: Wilson intervals, normal
//! quantiles, chi-square tail probabilities.
//!
//! All functions are pure and deterministic; the distribution functions come
//! from `statrs`.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// The two-sided 95% normal quantile, 1.959963984540054.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A confidence interval `[low, high]` for a proportion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end, in `[0, 1]`.
    pub low: f64,
    /// Upper end, in `[0, 1]`.
    pub high: f64,
}

/// The Wilson score interval for `successes` out of `trials` at normal
/// quantile `z` (use [`Z95`] for 95%).
///
/// Chosen over the Wald interval because it stays inside `[0, 1]` and keeps
/// close to its nominal coverage for proportions near 0 or 1, which card
/// games produce (a Prisoner's-patience win is about 4 in 100,000).
/// `trials == 0` gives the uninformative `[0, 1]`.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half_width = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At p = 0 and p = 1 the ends are exactly 0 and 1; computed, they would
    // miss by a rounding error.
    Interval {
        low: if successes == 0 {
            0.0
        } else {
            (centre - half_width).max(0.0)
        },
        high: if successes >= trials {
            1.0
        } else {
            (centre + half_width).min(1.0)
        },
    }
}

/// The upper tail probability `P(X >= x)` of a chi-square variable with
/// `degrees_of_freedom` degrees of freedom (the p-value of a chi-square test).
///
/// `degrees_of_freedom == 0` (nothing to test) gives 1.
pub fn chi_square_p_value(statistic: f64, degrees_of_freedom: usize) -> f64 {
    if degrees_of_freedom == 0 || statistic <= 0.0 {
        return 1.0;
    }
    // Degrees of freedom are positive here, so construction cannot fail.
    match ChiSquared::new(degrees_of_freedom as f64) {
        Ok(chi) => chi.sf(statistic),
        Err(_) => f64::NAN,
    }
}

/// The two-sided p-value of a standard normal score `z`: `P(|Z| >= |z|)`.
pub fn two_sided_normal_p_value(z: f64) -> f64 {
    2.0 * standard_normal().sf(z.abs())
}

/// The standard normal quantile for lower-tail probability `p` in `(0, 1)`.
pub fn normal_quantile(p: f64) -> f64 {
    standard_normal().inverse_cdf(p)
}

fn standard_normal() -> Normal {
    // Mean 0 and standard deviation 1 are valid parameters.
    Normal::standard()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_a_textbook_value() {
        // Newcombe (1998), example: 81 of 263 gives [0.2553, 0.3662].
        let interval = wilson_interval(81, 263, Z95);
        assert!((interval.low - 0.2553).abs() < 5e-5, "{interval:?}");
        assert!((interval.high - 0.3662).abs() < 5e-5, "{interval:?}");
    }

    #[test]
    fn wilson_interval_stays_inside_the_unit_interval() {
        let none = wilson_interval(0, 10, Z95);
        assert_eq!(none.low, 0.0);
        assert!(none.high > 0.0 && none.high < 0.35);
        let all = wilson_interval(10, 10, Z95);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.65);
    }

    #[test]
    fn chi_square_p_value_matches_tables() {
        // The 5% critical value for 6 degrees of freedom is 12.5916.
        assert!((chi_square_p_value(12.5916, 6) - 0.05).abs() < 1e-5);
        assert_eq!(chi_square_p_value(3.0, 0), 1.0);
    }

    #[test]
    fn normal_quantile_inverts_the_two_sided_p_value() {
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-9);
        assert!((two_sided_normal_p_value(Z95) - 0.05).abs() < 1e-9);
    }
}
