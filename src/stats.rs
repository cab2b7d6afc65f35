//! Statistics used to judge Monte-Carlo results: Wilson intervals, normal
//! quantiles, chi-square tail probabilities.
//!
//! All functions are pure and deterministic; the distribution functions come
//! from `statrs`.

use statrs::distribution::{ChiSquared, Continuous, ContinuousCDF, Normal};

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

/// `E[max(0, X)]` for a normal `X` of mean `mean` and standard deviation
/// `sd`: `sd phi(mean/sd) + mean Phi(mean/sd)`, the expected gain of
/// taking a bet worth `X` exactly when it is positive (Griffin's measure of
/// what knowing `X` is worth, see `count_analysis.rs`). `sd = 0` gives
/// `max(0, mean)`.
pub fn expected_positive_part(mean: f64, sd: f64) -> f64 {
    if sd <= 0.0 {
        return mean.max(0.0);
    }
    let z = mean / sd;
    let normal = standard_normal();
    sd * normal.pdf(z) + mean * normal.cdf(z)
}

/// The standard normal quantile for lower-tail probability `p` in `(0, 1)`.
pub fn normal_quantile(p: f64) -> f64 {
    standard_normal().inverse_cdf(p)
}

/// The critical value of a chi-square test at `level`: the `1 - level`
/// quantile of the chi-square distribution with `degrees_of_freedom`.
pub fn chi_square_critical(degrees_of_freedom: usize, level: f64) -> f64 {
    match ChiSquared::new(degrees_of_freedom.max(1) as f64) {
        Ok(chi) => chi.inverse_cdf(1.0 - level),
        Err(_) => f64::NAN,
    }
}

/// `P(X > x)` for a noncentral chi-square variable with `degrees_of_freedom`
/// and noncentrality `lambda`, as the Poisson mixture of central chi-square
/// tails `sum_j Poisson(j; lambda/2) P(chi2_{df+2j} > x)`. The sum runs
/// from the Poisson mode outwards until the remaining weight is below
/// 1e-12, so the result is accurate to about that.
pub fn noncentral_chi_square_sf(x: f64, degrees_of_freedom: usize, lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return chi_square_p_value(x, degrees_of_freedom);
    }
    let half = lambda / 2.0;
    let ln_weight = |j: f64| -half + j * half.ln() - statrs::function::gamma::ln_gamma(j + 1.0);
    let term = |j: u64| {
        ln_weight(j as f64).exp() * chi_square_p_value(x, degrees_of_freedom + 2 * j as usize)
    };
    let mode = half.floor() as u64;
    let (mut total, mut weight) = (0.0, 0.0);
    // Upwards from the mode, then downwards: the weights fall away on both
    // sides, so stop once the remaining mass cannot matter.
    let mut j = mode;
    loop {
        total += term(j);
        weight += ln_weight(j as f64).exp();
        j += 1;
        if ln_weight(j as f64).exp() < 1e-16 && j > mode + 10 {
            break;
        }
    }
    for j in (0..mode).rev() {
        let w = ln_weight(j as f64).exp();
        total += term(j);
        weight += w;
        if w < 1e-16 {
            break;
        }
    }
    debug_assert!(weight > 1.0 - 1e-9, "Poisson weights sum to {weight}");
    total.min(1.0)
}

/// The power of a chi-square test at `level` with `degrees_of_freedom`
/// when the statistic is noncentral with `lambda`.
pub fn chi_square_power(degrees_of_freedom: usize, lambda: f64, level: f64) -> f64 {
    noncentral_chi_square_sf(
        chi_square_critical(degrees_of_freedom, level),
        degrees_of_freedom,
        lambda,
    )
}

/// The noncentrality per trial, `delta = sum (p_i - q_i)^2 / q_i`, estimated
/// from the chi-square statistic of a two-sample homogeneity test of `n_a`
/// and `n_b` trials: the statistic's expectation is about `df + delta n_a
/// n_b / (n_a + n_b)`, so the excess over the degrees of freedom, scaled,
/// is an unbiased estimate. Clamped at 0.
pub fn noncentrality_per_trial(
    chi_square: f64,
    degrees_of_freedom: usize,
    n_a: u64,
    n_b: u64,
) -> f64 {
    let (a, b) = (n_a as f64, n_b as f64);
    ((chi_square - degrees_of_freedom as f64) * (a + b) / (a * b)).max(0.0)
}

/// The smallest number of trials `m` at which a chi-square test at `level`
/// with `degrees_of_freedom` reaches power `target`, when the noncentrality
/// grows as `delta m` (one sample against the true distribution). `None` if
/// `delta` is zero or the answer is beyond 10^15 trials.
pub fn trials_for_power(
    delta: f64,
    degrees_of_freedom: usize,
    level: f64,
    target: f64,
) -> Option<u64> {
    if delta.is_nan() || delta <= 0.0 {
        return None;
    }
    let reaches = |m: u64| chi_square_power(degrees_of_freedom, delta * m as f64, level) >= target;
    let (mut low, mut high) = (1u64, 2u64);
    while !reaches(high) {
        low = high;
        high = high
            .checked_mul(2)
            .filter(|&h| h <= 1_000_000_000_000_000)?;
    }
    // Power grows with m: bisect for the first m that reaches the target.
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if reaches(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high)
}

fn standard_normal() -> Normal {
    // Mean 0 and standard deviation 1 are valid parameters.
    Normal::standard()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `E[max(0, X)]` against its closed forms and a numerical integral.
    #[test]
    fn expected_positive_part_is_the_normal_partial_mean() {
        let root_two_pi = (2.0 * std::f64::consts::PI).sqrt();
        assert!((expected_positive_part(0.0, 2.0) - 2.0 / root_two_pi).abs() < 1e-15);
        assert_eq!(expected_positive_part(-0.3, 0.0), 0.0);
        assert_eq!(expected_positive_part(0.3, 0.0), 0.3);
        // E[max(0, X)] - E[max(0, -X)] = E[X].
        let (mean, sd) = (-0.04, 0.03);
        let difference = expected_positive_part(mean, sd) - expected_positive_part(-mean, sd);
        assert!((difference - mean).abs() < 1e-15);
        // The integral of x phi((x - mean)/sd)/sd over x > 0, by the
        // midpoint rule out to twelve standard deviations.
        let steps = 200_000;
        let width = (mean.abs() + 12.0 * sd) / f64::from(steps);
        let integral: f64 = (0..steps)
            .map(|i| {
                let x = (f64::from(i) + 0.5) * width;
                let z = (x - mean) / sd;
                x * (-0.5 * z * z).exp() / (sd * root_two_pi) * width
            })
            .sum();
        assert!(
            (expected_positive_part(mean, sd) - integral).abs() < 1e-9,
            "{integral}"
        );
    }

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

    #[test]
    fn noncentral_tail_matches_known_values() {
        // Central case: the noncentral tail is the central one.
        let central = chi_square_p_value(10.0, 4);
        assert!((noncentral_chi_square_sf(10.0, 4, 0.0) - central).abs() < 1e-15);
        // Reference values from SciPy 1.x: scipy.stats.ncx2.sf(x, df, nc).
        let tail = noncentral_chi_square_sf(10.0, 4, 5.0);
        assert!((tail - 0.361_771_140_4).abs() < 1e-9, "{tail}");
        let tail = noncentral_chi_square_sf(150.0, 10, 120.0);
        assert!((tail - 0.182_920_583_9).abs() < 1e-9, "{tail}");
    }

    #[test]
    fn power_at_the_level_is_the_level_and_grows() {
        let at_zero = chi_square_power(5, 0.0, 0.01);
        assert!((at_zero - 0.01).abs() < 1e-9, "{at_zero}");
        assert!(chi_square_power(5, 10.0, 0.01) < chi_square_power(5, 20.0, 0.01));
        let m = trials_for_power(1e-4, 5, 0.01, 0.9).unwrap();
        assert!(chi_square_power(5, 1e-4 * m as f64, 0.01) >= 0.9);
        assert!(chi_square_power(5, 1e-4 * (m - 1) as f64, 0.01) < 0.9);
        assert_eq!(trials_for_power(0.0, 5, 0.01, 0.9), None);
    }

    #[test]
    fn noncentrality_estimate_subtracts_the_degrees_of_freedom() {
        assert_eq!(noncentrality_per_trial(3.0, 5, 100, 100), 0.0);
        let delta = noncentrality_per_trial(25.0, 5, 1000, 1000);
        assert!((delta - 20.0 * 2000.0 / 1e6).abs() < 1e-12);
    }
}
