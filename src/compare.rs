//! Agreement between distributions, and consistency of published tables.
//!
//! Two kinds of question are answered here:
//!
//! - **Do two distributions agree?** [`goodness_of_fit`] tests Monte-Carlo
//!   counts against exact probabilities, [`homogeneity`] tests two sets of
//!   counts against each other. Both give a chi-square statistic (bins of
//!   small expectation pooled first, see [`Agreement::pooled_bins`]), its
//!   p-value, per-outcome z-scores, the total variation distance, and a plain
//!   verdict at a stated level.
//! - **Is a published table consistent with the exact probabilities?**
//!   [`check_published`] takes a [`PublishedTable`] of rounded percentages
//!   and says, cell by cell, whether the printed figure could have come from
//!   the exact probability, either as an exact value rounded
//!   ([`SampleSize::Exact`]) or as a Monte-Carlo estimate from a stated
//!   number of hands.
//!
//! Architecture invariant: this module is pure. It does no I/O and prints
//! nothing; rendering lives in `report::comparison`. Statistics are computed
//! in `f64`, but every decision that the exact rationals can settle (is a
//! probability zero, does an exact value lie inside a rounding interval) is
//! settled with exact rational arithmetic, so it never depends on rounding.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::csv_text;
use crate::distribution::{CountDistribution, ExactDistribution, rational_to_f64};
use crate::error::{Error, Result};
use crate::stats::{chi_square_p_value, normal_quantile, two_sided_normal_p_value};

/// The significance level used when the user names none: 5%.
pub const DEFAULT_LEVEL: f64 = 0.05;

/// The smallest expected count a chi-square bin may have before it is pooled
/// with others. Five is the textbook rule (Cochran 1954) below which the
/// chi-square approximation to the statistic's distribution is unreliable.
pub const MIN_EXPECTED: f64 = 5.0;

/// Which chi-square test produced an [`Agreement`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestKind {
    /// Monte-Carlo counts against exact probabilities.
    GoodnessOfFit,
    /// Two sets of counts against each other (a 2 x k contingency table).
    Homogeneity,
}

impl TestKind {
    /// The name used in JSON and CSV: `goodness-of-fit` or `homogeneity`.
    pub fn name(self) -> &'static str {
        match self {
            TestKind::GoodnessOfFit => "goodness-of-fit",
            TestKind::Homogeneity => "homogeneity",
        }
    }
}

/// The plain answer of an agreement test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The p-value is at least the level: no evidence of disagreement.
    Agree,
    /// The p-value is below the level.
    Disagree,
}

impl Verdict {
    /// The name used in every output format: `agree` or `disagree`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Disagree => "disagree",
        }
    }
}

/// The result of testing one distribution (one key) for agreement.
///
/// Guarantees: `outcomes`, `z_scores` are in the order of the inputs'
/// outcomes; `verdict` is [`Verdict::Disagree`] exactly when
/// `p_value < level`; `p_value` is never NaN for valid input.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    /// The distribution's key, e.g. `upcard=2`.
    pub key: String,
    /// The outcome labels, shared by both inputs.
    pub outcomes: Vec<String>,
    /// Monte-Carlo trials behind the counts (for homogeneity: of sample a).
    pub trials: u64,
    /// For homogeneity, the trials of sample b; `None` for goodness of fit.
    pub trials_b: Option<u64>,
    /// Which test was run.
    pub test: TestKind,
    /// The chi-square statistic over the pooled bins. Infinite when a count
    /// fell in a bin of exact probability zero.
    pub chi_square: f64,
    /// Pooled bins with positive expectation, minus one (0 when nothing is
    /// left to test).
    pub degrees_of_freedom: usize,
    /// The upper-tail chi-square probability of `chi_square`; 0 when a count
    /// fell in a bin of probability zero, 1 when `degrees_of_freedom` is 0.
    pub p_value: f64,
    /// Groups of original bin indices that were merged because their
    /// expected count was below [`MIN_EXPECTED`]; each group sorted, groups
    /// ordered by their first index. Empty if nothing was pooled.
    ///
    /// The rule: starting from one group per bin of positive expectation,
    /// while more than one group remains and the lightest weighs less than
    /// [`MIN_EXPECTED`], merge the lightest group into the next lightest
    /// (ties to the smaller first index). So small bins merge with each
    /// other first, and a merged group still below 5 joins the next bin up
    /// in expectation; well-filled bins stay separate.
    pub pooled_bins: Vec<Vec<usize>>,
    /// One z-score per outcome, on the unpooled bins; `None` where it is
    /// undefined (the expected probability is 0 or 1).
    pub z_scores: Vec<Option<f64>>,
    /// The largest `|z|` among the defined z-scores of the outcomes the
    /// chi-square test kept whole, those in no group of `pooled_bins`;
    /// `None` if none is defined (every outcome pooled, or of expected
    /// probability 0 or 1), rather than a 0 that would read as perfect
    /// agreement. A pooled outcome's expected count is below
    /// [`MIN_EXPECTED`], where the normal approximation behind its z-score
    /// fails: one count of 2 against 0.4 expected is z = 2.5 and means
    /// nothing, and the test itself set it aside.
    pub max_abs_z: Option<f64>,
    /// The total variation distance `0.5 * sum |p_hat - p|` between the two
    /// distributions (estimates against exact, or estimate against estimate).
    pub total_variation: f64,
    /// The significance level the verdict uses.
    pub level: f64,
    /// `Disagree` iff `p_value < level`.
    pub verdict: Verdict,
}

/// Tests Monte-Carlo `counts` against `exact` probabilities with a chi-square
/// goodness-of-fit test at significance `level`.
///
/// The expected count of bin `i` is `n * p_i`. Bins with `p_i = 0` are left
/// out of the statistic; a nonzero count in such a bin is impossible under
/// the exact distribution, so it gives an immediate `Disagree` with
/// `p_value = 0` and an infinite statistic. The remaining bins are pooled as
/// described at [`Agreement::pooled_bins`], and the degrees of freedom are
/// the number of pooled bins minus one.
/// Per-outcome z-scores `(count - n p) / sqrt(n p (1 - p))` use the unpooled
/// bins.
///
/// Errors: the keys or outcome labels differ, a distribution has a
/// different number of values than labels, the exact probabilities are not
/// a distribution (negative, or not summing to exactly 1), there are no
/// trials, or `level` is not strictly between 0 and 1.
///
/// Complexity: O(k^2) in the number of outcomes k (from pooling); exact
/// arithmetic only for the zero/one tests and the sum check.
pub fn goodness_of_fit(
    exact: &ExactDistribution,
    counts: &CountDistribution,
    level: f64,
) -> Result<Agreement> {
    check_level(level)?;
    check_exact_shape(exact)?;
    check_counts_shape(counts)?;
    if exact.key != counts.key {
        return Err(Error::invalid(
            "distribution key",
            &counts.key,
            format!(
                "the counts must be of the same key as the exact distribution ({})",
                exact.key
            ),
        ));
    }
    check_same_outcomes(&exact.key, &exact.outcomes, &counts.outcomes)?;
    let trials = checked_trials(counts)?;
    if trials == 0 {
        return Err(Error::invalid(
            "trials",
            format!("0 (key {})", counts.key),
            "a goodness-of-fit test needs at least one Monte-Carlo trial",
        ));
    }

    let n = trials as f64;
    let p = exact.values();
    let zero: Vec<bool> = exact.probabilities.iter().map(Zero::is_zero).collect();
    let one: Vec<bool> = exact.probabilities.iter().map(One::is_one).collect();

    let z_scores: Vec<Option<f64>> = (0..p.len())
        .map(|i| {
            if zero[i] || one[i] {
                None
            } else {
                let expected = n * p[i];
                Some((counts.counts[i] as f64 - expected) / (expected * (1.0 - p[i])).sqrt())
            }
        })
        .collect();
    let total_variation = 0.5
        * p.iter()
            .zip(&counts.counts)
            .map(|(&p, &c)| (c as f64 / n - p).abs())
            .sum::<f64>();

    let weights: Vec<(usize, f64)> = (0..p.len())
        .filter(|&i| !zero[i])
        .map(|i| (i, n * p[i]))
        .collect();
    let groups = pool_bins(&weights);
    let degrees_of_freedom = groups.len().saturating_sub(1);

    let impossible = (0..p.len()).any(|i| zero[i] && counts.counts[i] > 0);
    let (chi_square, p_value) = if impossible {
        // A count where the exact probability is zero cannot happen if the
        // exact distribution is right, so no amount of sampling noise
        // explains it: the evidence against agreement is total.
        (f64::INFINITY, 0.0)
    } else {
        let statistic: f64 = groups
            .iter()
            .map(|group| {
                let observed: f64 = group.iter().map(|&i| counts.counts[i] as f64).sum();
                let expected: f64 = group.iter().map(|&i| n * p[i]).sum();
                (observed - expected).powi(2) / expected
            })
            .sum();
        (statistic, chi_square_p_value(statistic, degrees_of_freedom))
    };

    let pooled_bins = merged_only(groups);
    Ok(Agreement {
        key: exact.key.clone(),
        outcomes: exact.outcomes.clone(),
        trials,
        trials_b: None,
        test: TestKind::GoodnessOfFit,
        chi_square,
        degrees_of_freedom,
        p_value,
        max_abs_z: max_abs_unpooled(&z_scores, &pooled_bins),
        pooled_bins,
        z_scores,
        total_variation,
        level,
        verdict: verdict(p_value, level),
    })
}

/// Tests two sets of Monte-Carlo counts against each other with a chi-square
/// test of homogeneity (a 2 x k contingency table) at significance `level`.
///
/// The expected count of sample `r` in bin `j` is `n_r * t_j / N`, where
/// `t_j` is the bin's total over both samples and `N = n_a + n_b`. Bins with
/// `t_j = 0` carry no information and are left out. The rest are pooled by
/// the rule of [`Agreement::pooled_bins`], using as each bin's weight the
/// smaller of its two expected counts, so every pooled cell of the table
/// has expectation at least [`MIN_EXPECTED`] where that is possible. The
/// degrees of freedom are `(pooled bins - 1) * (2 - 1)`. The z-score of bin
/// `j` is the two-proportion score `(a_j/n_a - b_j/n_b) / sqrt(q (1 - q)
/// (1/n_a + 1/n_b))` with the pooled proportion `q = t_j / N`; `None` when
/// `q` is 0 or 1.
///
/// Errors: the keys or outcome labels differ, a distribution has a
/// different number of counts than labels, either sample has no trials, or
/// `level` is not strictly between 0 and 1.
pub fn homogeneity(a: &CountDistribution, b: &CountDistribution, level: f64) -> Result<Agreement> {
    check_level(level)?;
    check_counts_shape(a)?;
    check_counts_shape(b)?;
    if a.key != b.key {
        return Err(Error::invalid(
            "distribution key",
            &b.key,
            format!("both samples must be of the same key ({})", a.key),
        ));
    }
    check_same_outcomes(&a.key, &a.outcomes, &b.outcomes)?;
    let (trials_a, trials_b) = (checked_trials(a)?, checked_trials(b)?);
    if trials_a == 0 || trials_b == 0 {
        return Err(Error::invalid(
            "trials",
            format!("{trials_a} and {trials_b} (key {})", a.key),
            "a homogeneity test needs at least one trial in each sample",
        ));
    }

    let (na, nb) = (trials_a as f64, trials_b as f64);
    let total = na + nb;
    let k = a.counts.len();
    let column = |j: usize| a.counts[j] as f64 + b.counts[j] as f64;

    let z_scores: Vec<Option<f64>> = (0..k)
        .map(|j| {
            let (ca, cb) = (a.counts[j], b.counts[j]);
            // Exact integer tests: the pooled proportion is 0 or 1 exactly
            // when the column is empty or holds every trial.
            if ca == 0 && cb == 0 || ca == trials_a && cb == trials_b {
                return None;
            }
            let q = column(j) / total;
            let se = (q * (1.0 - q) * (1.0 / na + 1.0 / nb)).sqrt();
            Some((ca as f64 / na - cb as f64 / nb) / se)
        })
        .collect();
    let total_variation = 0.5
        * (0..k)
            .map(|j| (a.counts[j] as f64 / na - b.counts[j] as f64 / nb).abs())
            .sum::<f64>();

    let smaller = na.min(nb);
    let weights: Vec<(usize, f64)> = (0..k)
        .filter(|&j| a.counts[j] + b.counts[j] > 0)
        .map(|j| (j, smaller * column(j) / total))
        .collect();
    let groups = pool_bins(&weights);
    let degrees_of_freedom = groups.len().saturating_sub(1);
    let chi_square: f64 = groups
        .iter()
        .map(|group| {
            let oa: f64 = group.iter().map(|&j| a.counts[j] as f64).sum();
            let ob: f64 = group.iter().map(|&j| b.counts[j] as f64).sum();
            let t = oa + ob;
            let (ea, eb) = (na * t / total, nb * t / total);
            (oa - ea).powi(2) / ea + (ob - eb).powi(2) / eb
        })
        .sum();
    let p_value = chi_square_p_value(chi_square, degrees_of_freedom);

    let pooled_bins = merged_only(groups);
    Ok(Agreement {
        key: a.key.clone(),
        outcomes: a.outcomes.clone(),
        trials: trials_a,
        trials_b: Some(trials_b),
        test: TestKind::Homogeneity,
        chi_square,
        degrees_of_freedom,
        p_value,
        max_abs_z: max_abs_unpooled(&z_scores, &pooled_bins),
        pooled_bins,
        z_scores,
        total_variation,
        level,
        verdict: verdict(p_value, level),
    })
}

/// Runs [`goodness_of_fit`] for every exact distribution, pairing each with
/// the counts of the same key. The result is in the order of `exact`.
///
/// Errors: a key of `exact` has no counts (or the other way round), or any
/// single test fails.
pub fn goodness_of_fit_all(
    exact: &[ExactDistribution],
    counts: &[CountDistribution],
    level: f64,
) -> Result<Vec<Agreement>> {
    check_same_keys(
        exact.iter().map(|d| d.key.as_str()),
        counts.iter().map(|d| d.key.as_str()),
    )?;
    exact
        .iter()
        .map(|e| {
            let c = counts
                .iter()
                .find(|c| c.key == e.key)
                .ok_or_else(|| missing_key(&e.key))?;
            goodness_of_fit(e, c, level)
        })
        .collect()
}

/// Runs [`homogeneity`] for every distribution of `a`, pairing each with the
/// distribution of `b` of the same key. The result is in the order of `a`.
///
/// Errors: the two lists do not hold the same keys, or any single test fails.
pub fn homogeneity_all(
    a: &[CountDistribution],
    b: &[CountDistribution],
    level: f64,
) -> Result<Vec<Agreement>> {
    check_same_keys(
        a.iter().map(|d| d.key.as_str()),
        b.iter().map(|d| d.key.as_str()),
    )?;
    a.iter()
        .map(|x| {
            let y = b
                .iter()
                .find(|y| y.key == x.key)
                .ok_or_else(|| missing_key(&x.key))?;
            homogeneity(x, y, level)
        })
        .collect()
}

/// The verdict over several agreement tests (one per distribution key):
/// they agree when every one of them does.
#[derive(Clone, Debug, PartialEq)]
pub struct OverallVerdict {
    /// The tests made.
    pub tested: usize,
    /// The keys whose test disagreed, in order.
    pub disagreeing: Vec<String>,
}

impl OverallVerdict {
    /// The verdict of `agreements`.
    pub fn of(agreements: &[Agreement]) -> OverallVerdict {
        OverallVerdict {
            tested: agreements.len(),
            disagreeing: agreements
                .iter()
                .filter(|a| a.verdict == Verdict::Disagree)
                .map(|a| a.key.clone())
                .collect(),
        }
    }

    /// True when no test disagreed.
    pub fn agrees(&self) -> bool {
        self.disagreeing.is_empty()
    }
}

/// The number of trials behind `counts`, their sum, checked: counts that
/// sum past 2^64 (a damaged or forged table) are refused rather than
/// wrapped into a small total.
fn checked_trials(counts: &CountDistribution) -> Result<u64> {
    counts
        .counts
        .iter()
        .try_fold(0u64, |sum, &c| sum.checked_add(c))
        .ok_or_else(|| {
            Error::invalid(
                "counts",
                &counts.key,
                "sum past 2^64 - 1: they cannot be the counts of trials",
            )
        })
}

/// Pools bins so that every group has a total weight (expected count) of at
/// least [`MIN_EXPECTED`], or only one group is left.
///
/// The rule: start with every bin its own group; while more than one group
/// remains and the lightest group weighs less than [`MIN_EXPECTED`], merge
/// the lightest group into the next lightest. Ties go to the group with the
/// smallest first bin index, so the result is deterministic. Merging the
/// smallest expectations together disturbs the test least: the well-filled
/// bins stay separate and keep their power. The groups come back sorted,
/// ordered by their first index.
///
/// `weights` holds `(bin index, expected count)` for the bins to pool (the
/// caller leaves out bins of zero expectation).
fn pool_bins(weights: &[(usize, f64)]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(Vec<usize>, f64)> = weights.iter().map(|&(i, w)| (vec![i], w)).collect();
    while groups.len() > 1 {
        let Some(lightest) = lightest_group(&groups, None) else {
            break;
        };
        if groups[lightest].1 >= MIN_EXPECTED {
            break;
        }
        let Some(next) = lightest_group(&groups, Some(lightest)) else {
            break;
        };
        let (bins, weight) = std::mem::take(&mut groups[lightest]);
        groups[next].0.extend(bins);
        groups[next].0.sort_unstable();
        groups[next].1 += weight;
        groups.remove(lightest);
    }
    let mut result: Vec<Vec<usize>> = groups.into_iter().map(|(bins, _)| bins).collect();
    result.sort_by_key(|bins| bins.first().copied());
    result
}

/// The index of the lightest group other than `except`; ties go to the
/// group whose first bin index is smallest.
fn lightest_group(groups: &[(Vec<usize>, f64)], except: Option<usize>) -> Option<usize> {
    groups
        .iter()
        .enumerate()
        .filter(|&(g, _)| Some(g) != except)
        .min_by(|(_, x), (_, y)| {
            x.1.total_cmp(&y.1)
                .then_with(|| x.0.first().cmp(&y.0.first()))
        })
        .map(|(g, _)| g)
}

/// Keeps only the groups that actually merged two or more bins.
fn merged_only(groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    groups.into_iter().filter(|g| g.len() > 1).collect()
}

/// The largest defined `|z|` among outcomes in no group of `pooled` (see
/// [`Agreement::max_abs_z`]); `None` if there is none.
fn max_abs_unpooled(z_scores: &[Option<f64>], pooled: &[Vec<usize>]) -> Option<f64> {
    z_scores
        .iter()
        .enumerate()
        .filter(|(index, _)| !pooled.iter().flatten().any(|bin| bin == index))
        .filter_map(|(_, z)| z.map(f64::abs))
        .reduce(f64::max)
}

fn verdict(p_value: f64, level: f64) -> Verdict {
    if p_value < level {
        Verdict::Disagree
    } else {
        Verdict::Agree
    }
}

fn check_level(level: f64) -> Result<()> {
    if level.is_finite() && level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(Error::invalid(
            "level",
            level,
            "the significance level must be strictly between 0 and 1, e.g. 0.05",
        ))
    }
}

fn check_exact_shape(exact: &ExactDistribution) -> Result<()> {
    if exact.probabilities.len() != exact.outcomes.len() {
        return Err(Error::invalid(
            "exact distribution",
            &exact.key,
            format!(
                "has {} probabilities for {} outcomes; they must match",
                exact.probabilities.len(),
                exact.outcomes.len()
            ),
        ));
    }
    if let Some(i) = exact.probabilities.iter().position(Signed::is_negative) {
        return Err(Error::invalid(
            "exact distribution",
            &exact.key,
            format!("outcome {} has a negative probability", exact.outcomes[i]),
        ));
    }
    let sum: BigRational = exact.probabilities.iter().sum();
    if !sum.is_one() {
        // Expected counts that do not add up to the trials would make the
        // chi-square statistic meaningless.
        return Err(Error::invalid(
            "exact distribution",
            &exact.key,
            format!("its probabilities sum to {sum}, but a goodness-of-fit test needs exactly 1"),
        ));
    }
    Ok(())
}

fn check_counts_shape(counts: &CountDistribution) -> Result<()> {
    if counts.counts.len() != counts.outcomes.len() {
        return Err(Error::invalid(
            "counts",
            &counts.key,
            format!(
                "has {} counts for {} outcomes; they must match",
                counts.counts.len(),
                counts.outcomes.len()
            ),
        ));
    }
    Ok(())
}

fn check_same_outcomes(key: &str, left: &[String], right: &[String]) -> Result<()> {
    if left != right {
        return Err(Error::invalid(
            "outcomes",
            format!("{} (key {key})", right.join(",")),
            format!(
                "both distributions must have the same outcomes in the same order: {}",
                left.join(",")
            ),
        ));
    }
    Ok(())
}

fn check_same_keys<'a>(
    left: impl Iterator<Item = &'a str> + Clone,
    right: impl Iterator<Item = &'a str> + Clone,
) -> Result<()> {
    for key in left.clone() {
        if !right.clone().any(|k| k == key) {
            return Err(missing_key(key));
        }
    }
    for key in right {
        if !left.clone().any(|k| k == key) {
            return Err(missing_key(key));
        }
    }
    Ok(())
}

fn missing_key(key: &str) -> Error {
    Error::invalid(
        "distribution key",
        key,
        "it must appear in both inputs to be compared",
    )
}

// ---------------------------------------------------------------------------
// Published tables
// ---------------------------------------------------------------------------

/// A published table of percentages rounded to a few decimals: rows are
/// distributions (e.g. upcards), columns outcomes.
///
/// Guarantee (when made by [`PublishedTable::parse_csv`]): at least one row,
/// every row has one cell per outcome column in the header order, no
/// outcome column appears twice, and no row label appears twice.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedTable {
    /// The rows, in the order written.
    pub rows: Vec<PublishedRow>,
}

/// One row of a published table.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRow {
    /// The row label as written, e.g. `T`.
    pub label: String,
    /// The distribution key the label stands for, e.g. `upcard=10`. Several
    /// rows may share a key (the seed table lists T, J, Q, K separately).
    pub key: String,
    /// One cell per outcome column.
    pub cells: Vec<PublishedCell>,
}

/// One printed percentage.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedCell {
    /// The outcome column, e.g. `bust`.
    pub outcome: String,
    /// The number as written, without spaces or `%`, e.g. `35.02`.
    pub text: String,
    /// The exact value of `text`, e.g. 3502/100.
    pub percent: BigRational,
    /// Decimal places written (2 for `35.02`, 0 for `35`; 0 for an exact
    /// fraction).
    pub decimals: u32,
    /// Whether the figure is exact (a fraction such as `6311/17850`, as
    /// deckodds' own CSV writes it) rather than a rounded decimal: it then
    /// stands for itself alone.
    pub exact: bool,
}

impl PublishedCell {
    /// The closed rounding interval `[text - h, text + h]` with
    /// `h = 0.5 * 10^-decimals`, in percent, exactly: every true percentage
    /// that could have been printed as `text`. Both ends are included, since
    /// a value exactly halfway may round either way depending on convention.
    pub fn rounding_interval(&self) -> (BigRational, BigRational) {
        if self.exact {
            return (self.percent.clone(), self.percent.clone());
        }
        let half = BigRational::new(BigInt::one(), BigInt::from(2) * pow10(self.decimals));
        (&self.percent - &half, &self.percent + &half)
    }
}

impl PublishedTable {
    /// Parses CSV text: the header row holds the row-label column (any name)
    /// then the outcome labels; each later row holds a label then one
    /// percentage per outcome (plain decimals like `35.02` or `7`, a
    /// trailing `%` and surrounding spaces allowed, values 0..=100).
    /// Blank lines are skipped. `row_key` maps a row label to a distribution
    /// key, or `None` if the label is not recognised.
    ///
    /// deckodds' own long-form CSV is read too (a header starting `key,
    /// outcome`, one line per key and outcome): its exact `probability`
    /// fractions are exact cells, else its `percent` column is read as
    /// printed, else (a Monte-Carlo table) `count` over `trials` is an
    /// exact cell. The keys are the row labels; each key must list the
    /// outcomes of the first, once each.
    ///
    /// Errors are one-line messages naming the line and field; the caller
    /// adds the file name: a bad number, an unknown or repeated row label, a
    /// wrong column count, a duplicate or empty outcome column, an empty
    /// table.
    pub fn parse_csv(
        text: &str,
        row_key: &dyn Fn(&str) -> Option<String>,
    ) -> Result<PublishedTable, String> {
        let records =
            csv_text::records(text).map_err(|(line, why)| format!("line {line}: {why}"))?;
        let mut outcomes: Option<Vec<String>> = None;
        let mut rows: Vec<PublishedRow> = Vec::new();
        for (at, (line, record)) in records.iter().enumerate() {
            let line = *line;
            let Some(outcomes) = &outcomes else {
                if is_long_form(record) {
                    return parse_long_form(record, &records[at + 1..], row_key);
                }
                outcomes = Some(parse_header(record, line)?);
                continue;
            };
            if record.len() != outcomes.len() + 1 {
                return Err(format!(
                    "line {line}: {} fields, but the header has {} (a row label and {} outcomes)",
                    record.len(),
                    outcomes.len() + 1,
                    outcomes.len()
                ));
            }
            let label = record.get(0).unwrap_or_default().to_string();
            if label.is_empty() {
                return Err(format!("line {line}, field 1: empty row label"));
            }
            if rows.iter().any(|r| r.label == label) {
                return Err(format!(
                    "line {line}, field 1: row label \"{label}\" appears twice"
                ));
            }
            let key = row_key(&label)
                .ok_or_else(|| format!("line {line}, field 1: unknown row label \"{label}\""))?;
            let cells = outcomes
                .iter()
                .zip(record.iter().skip(1))
                .enumerate()
                .map(|(column, (outcome, field))| {
                    parse_percent(field)
                        .map_err(|why| {
                            format!(
                                "line {line}, field {} ({outcome}): \"{field}\" {why}",
                                column + 2
                            )
                        })
                        .map(|(text, percent, decimals)| PublishedCell {
                            outcome: outcome.clone(),
                            text,
                            percent,
                            decimals,
                            exact: false,
                        })
                })
                .collect::<Result<Vec<_>, String>>()?;
            rows.push(PublishedRow { label, key, cells });
        }
        if outcomes.is_none() {
            return Err("empty table: no header row".to_string());
        }
        if rows.is_empty() {
            return Err("empty table: a header but no rows".to_string());
        }
        Ok(PublishedTable { rows })
    }
}

/// Whether a header row is that of deckodds' long-form CSV (`key,outcome,
/// ...`, or `key`, the keys' parameter columns, then `outcome,...`).
fn is_long_form(header: &csv::StringRecord) -> bool {
    header.get(0) == Some("key") && header.iter().any(|h| h == "outcome")
}

/// Where a long-form table keeps its figures.
enum LongFigure {
    /// Exact fractions (`probability`, as exact reports write it).
    Fraction(usize),
    /// Printed percentages (`percent`).
    Percent(usize),
    /// Counts out of trials (`count` and `trials`, Monte-Carlo reports).
    Counts(usize, usize),
}

/// Parses the rest of a long-form table under its `header`.
fn parse_long_form(
    header: &csv::StringRecord,
    records: &[(u64, csv::StringRecord)],
    row_key: &dyn Fn(&str) -> Option<String>,
) -> Result<PublishedTable, String> {
    let column = |name: &str| header.iter().position(|h| h == name);
    // The keys' parameter columns (`upcard`, ...) stand between `key` and
    // `outcome`; the key says all they say, so they are not read. (A
    // parameter named as a column is written `key.NAME`.)
    let outcome_column = column("outcome").unwrap_or(1);
    let figure = match (
        column("probability"),
        column("percent"),
        column("count"),
        column("trials"),
    ) {
        (Some(p), _, _, _) => LongFigure::Fraction(p),
        (None, Some(p), _, _) => LongFigure::Percent(p),
        (None, None, Some(c), Some(t)) => LongFigure::Counts(c, t),
        _ => {
            return Err(
                "line 1: a long-form table (key,outcome,...) needs a probability, percent, or count and trials column"
                    .to_string(),
            );
        }
    };
    let mut rows: Vec<PublishedRow> = Vec::new();
    for (line, record) in records {
        let field = |i: usize| record.get(i).unwrap_or_default();
        let (label, outcome) = (field(0).to_string(), field(outcome_column).to_string());
        if label.is_empty() || outcome.is_empty() {
            return Err(format!("line {line}: empty key or outcome"));
        }
        let (text, percent, decimals, exact) = match figure {
            LongFigure::Fraction(i) => {
                let probability = parse_probability(field(i)).map_err(|why| {
                    format!("line {line} ({label}/{outcome}): \"{}\" {why}", field(i))
                })?;
                let hundred = BigRational::from_integer(BigInt::from(100));
                (field(i).to_string(), probability * hundred, 0, true)
            }
            LongFigure::Percent(i) => {
                let (text, percent, decimals) = parse_percent(field(i)).map_err(|why| {
                    format!("line {line} ({label}/{outcome}): \"{}\" {why}", field(i))
                })?;
                (text, percent, decimals, false)
            }
            LongFigure::Counts(c, t) => {
                let whole = |i: usize| field(i).parse::<u64>().ok();
                let (Some(count), Some(trials)) = (whole(c), whole(t)) else {
                    return Err(format!(
                        "line {line} ({label}/{outcome}): count and trials must be whole numbers"
                    ));
                };
                if trials == 0 || count > trials {
                    return Err(format!(
                        "line {line} ({label}/{outcome}): count {count} of {trials} trials is not a proportion"
                    ));
                }
                let percent = BigRational::new(BigInt::from(count) * 100, BigInt::from(trials));
                (format!("{count}/{trials}"), percent, 0, true)
            }
        };
        let cell = PublishedCell {
            outcome: outcome.clone(),
            text,
            percent,
            decimals,
            exact,
        };
        match rows.iter_mut().find(|row| row.label == label) {
            Some(row) => {
                if row.cells.iter().any(|c| c.outcome == outcome) {
                    return Err(format!("line {line}: {label}/{outcome} appears twice"));
                }
                row.cells.push(cell);
            }
            None => {
                let key = row_key(&label)
                    .ok_or_else(|| format!("line {line}, field 1: unknown key \"{label}\""))?;
                rows.push(PublishedRow {
                    label,
                    key,
                    cells: vec![cell],
                });
            }
        }
    }
    // Every key lists the first key's outcomes, in its order.
    let Some(first) = rows.first() else {
        return Err("empty table: a header but no rows".to_string());
    };
    let outcomes: Vec<String> = first.cells.iter().map(|c| c.outcome.clone()).collect();
    for row in &mut rows {
        let mut ordered = Vec::with_capacity(outcomes.len());
        for outcome in &outcomes {
            let index = row
                .cells
                .iter()
                .position(|c| &c.outcome == outcome)
                .ok_or_else(|| format!("{} has no line for outcome {outcome}", row.label))?;
            ordered.push(row.cells.swap_remove(index));
        }
        if let Some(extra) = row.cells.first() {
            return Err(format!(
                "{}/{}: the first key lists only the outcomes {}",
                row.label,
                extra.outcome,
                outcomes.join(", ")
            ));
        }
        row.cells = ordered;
    }
    Ok(PublishedTable { rows })
}

/// Parses an exact probability: a fraction `p/q` or a whole number, in
/// `[0, 1]`. The error completes the sentence "`field` ...".
fn parse_probability(field: &str) -> Result<BigRational, String> {
    // A percentage where a probability is expected is named as such.
    let percentage = || {
        field
            .trim_end_matches('%')
            .trim_end()
            .parse::<f64>()
            .is_ok_and(|value| (1.0..=100.0).contains(&value) && value != 1.0)
    };
    let like_a_percentage = "it looks like a percentage: a probability is a fraction of 1 (35.33% is 3533/10000), or name the column percent";
    let probability: BigRational = field.parse().map_err(|_| {
        if percentage() {
            format!("is not an exact probability ({like_a_percentage})")
        } else {
            "is not an exact probability (write a fraction such as 6311/17850; rounded decimals go in a percent column, in percent)".to_string()
        }
    })?;
    if probability < BigRational::zero() || probability > BigRational::one() {
        return Err(if percentage() {
            format!("is not a probability ({like_a_percentage})")
        } else {
            "is not a probability (it is outside 0..=1)".to_string()
        });
    }
    Ok(probability)
}

fn parse_header(record: &csv::StringRecord, line: u64) -> Result<Vec<String>, String> {
    if record.len() < 2 {
        return Err(format!(
            "line {line}: the header needs a row-label column and at least one outcome column"
        ));
    }
    let mut outcomes: Vec<String> = Vec::with_capacity(record.len() - 1);
    for (column, field) in record.iter().enumerate().skip(1) {
        if field.is_empty() {
            return Err(format!(
                "line {line}, field {}: empty outcome label",
                column + 1
            ));
        }
        if outcomes.iter().any(|o| o == field) {
            return Err(format!(
                "line {line}, field {}: duplicate outcome column \"{field}\"",
                column + 1
            ));
        }
        outcomes.push(field.to_string());
    }
    Ok(outcomes)
}

/// Parses a printed percentage exactly: digits, optionally a point and more
/// digits, optionally a trailing `%`. Returns the text as written (without
/// `%` and spaces), its exact value, and its number of decimals. The error
/// completes the sentence "`field` ...".
fn parse_percent(field: &str) -> Result<(String, BigRational, u32), String> {
    let number = field.strip_suffix('%').unwrap_or(field).trim_end();
    if number.is_empty() {
        return Err("is not a percentage (the field is empty)".to_string());
    }
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => (number, ""),
    };
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let has_point = number.contains('.');
    if whole.is_empty()
        || !digits_only(whole)
        || !digits_only(fraction)
        || (has_point && fraction.is_empty())
    {
        return Err(
            "is not a percentage (write digits with an optional decimal point, like 35.02)"
                .to_string(),
        );
    }
    let decimals = u32::try_from(fraction.len())
        .map_err(|_| "is not a percentage (too many decimals)".to_string())?;
    let digits: BigInt = format!("{whole}{fraction}")
        .parse()
        .map_err(|_| "is not a percentage".to_string())?;
    let percent = BigRational::new(digits, pow10(decimals));
    if percent > BigRational::from_integer(BigInt::from(100)) {
        return Err("is not a percentage (it is above 100)".to_string());
    }
    Ok((number.to_string(), percent, decimals))
}

fn pow10(exponent: u32) -> BigInt {
    num_traits::pow(BigInt::from(10), exponent as usize)
}

/// How many hands a published table's percentages stand for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleSize {
    /// The table claims exact values, only rounded for print.
    Exact,
    /// Each row is an estimate from this many hands.
    PerRow(f64),
    /// The table is an estimate from this many hands in all, split equally
    /// over its rows (the seed simulation: 100,000 hands over 13 upcards).
    Total(f64),
}

/// The verdict on a whole published table.
///
/// Guarantee: `inconsistent` lists exactly the cells whose `consistent` is
/// false, as `row label/outcome`, in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedCheck {
    /// The sample size the check assumed.
    pub sample: SampleSize,
    /// The family-wise significance level.
    pub level: f64,
    /// The Bonferroni-corrected critical `|z|`:
    /// `normal_quantile(1 - level / (2 m))` over the `m = cells_tested` cells
    /// that have a z-score (with `m` taken as 1 when no cell has one, e.g.
    /// for [`SampleSize::Exact`], where it is then unused).
    pub z_critical: f64,
    /// The number of cells with a z-score (the Bonferroni family size).
    pub cells_tested: usize,
    /// One check per published row, in table order.
    pub rows: Vec<PublishedRowCheck>,
    /// The inconsistent cells, as `row label/outcome`.
    pub inconsistent: Vec<String>,
    /// The keys of the exact distributions no published row stands for
    /// (a row left out of the table), in the order of the distributions.
    pub missing_rows: Vec<String>,
}

impl PublishedCheck {
    /// True when every cell is consistent.
    pub fn all_consistent(&self) -> bool {
        self.inconsistent.is_empty()
    }

    /// The number of cells checked.
    pub fn cells(&self) -> usize {
        self.rows.iter().map(|row| row.cells.len()).sum()
    }

    /// True when more than half of the cells are inconsistent: rather than
    /// a few bad figures, the table is more likely of another game (other
    /// rules) than the one it was checked against.
    pub fn mostly_inconsistent(&self) -> bool {
        2 * self.inconsistent.len() > self.cells()
    }

    /// True when the printed figures look like fractions of 1 (`0.3533`)
    /// where percentages (`35.33`) are expected: most cells are
    /// inconsistent, and the rounded cells sum to between a two-hundredth
    /// and a fiftieth of what their exact percentages sum to (a
    /// hundredth, give or take the rows left out and the rounding).
    pub fn looks_like_fractions(&self) -> bool {
        let (printed, exact) = self
            .rows
            .iter()
            .flat_map(|row| &row.cells)
            .filter(|cell| !cell.exact)
            .fold((0.0, 0.0), |(printed, exact), cell| {
                (printed + cell.published_percent, exact + cell.exact_percent)
            });
        self.mostly_inconsistent() && exact > 0.0 && (0.005..=0.02).contains(&(printed / exact))
    }
}

/// The check of one published row.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRowCheck {
    /// The row label as written.
    pub label: String,
    /// The distribution key it was checked against.
    pub key: String,
    /// Hands behind the row's estimates; `None` for [`SampleSize::Exact`].
    pub hands: Option<f64>,
    /// One check per cell, in column order.
    pub cells: Vec<PublishedCellCheck>,
    /// The row's chi-square goodness-of-fit statistic (see
    /// [`check_published`]); `None` for [`SampleSize::Exact`], or when the
    /// columns do not cover every outcome of positive probability.
    pub chi_square: Option<f64>,
    /// Bins of positive probability minus one, when `chi_square` is set.
    pub degrees_of_freedom: Option<usize>,
    /// The chi-square p-value, when `chi_square` is set.
    pub p_value: Option<f64>,
}

/// The check of one published cell.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedCellCheck {
    /// The outcome column.
    pub outcome: String,
    /// The number as printed.
    pub text: String,
    /// The printed figure as a percentage (as `f64`, for display).
    pub published_percent: f64,
    /// Whether the printed figure is an exact fraction (see
    /// [`PublishedCell::exact`]).
    pub exact: bool,
    /// The exact probability times 100 (as `f64`, for display).
    pub exact_percent: f64,
    /// The cell's z-score (see [`check_published`]); `None` for
    /// [`SampleSize::Exact`] and for exact probabilities 0 or 1.
    pub z: Option<f64>,
    /// Whether the printed figure is consistent with the exact probability.
    pub consistent: bool,
}

/// Checks every cell of a published table against exact probabilities.
///
/// A cell printed with `d` decimals stands for any true percentage in the
/// closed rounding interval `[text - 0.5*10^-d, text + 0.5*10^-d]`.
///
/// - [`SampleSize::Exact`]: the table claims exact values. A cell is
///   consistent iff the exact probability times 100 lies in its rounding
///   interval, decided with exact rational arithmetic (a value exactly on an
///   end is consistent). No z-scores, no chi-square.
/// - [`SampleSize::PerRow`]`(n)` or [`SampleSize::Total`]`(N)` (then
///   `n = N / rows`): each printed percentage is an estimate from `n` hands.
///   For exact `p` strictly between 0 and 1: `z = 0` if `100 p` lies inside
///   the rounding interval (decided exactly), otherwise
///   `z = (e/100 - p) / sqrt(p (1 - p) / n)` where `e` is the interval's end
///   nearest to `100 p` (positive: the table is too high). The cell is
///   consistent iff `|z| <= z_critical`, the Bonferroni-corrected quantile
///   `normal_quantile(1 - level / (2 m))` over the `m` cells that have a z,
///   so `level` is the family-wise error rate of the whole table. If `p` is
///   0 or 1 no sampling noise can move the estimate, so the cell is
///   consistent iff its rounding interval contains `100 p` exactly, and has
///   no z.
///
///   Each row also gets a chi-square goodness-of-fit statistic with
///   observed `o_i = n * published_i / 100` (real numbers) and expected
///   `e_i = n * p_i` over the bins with `p_i > 0`, `df = bins - 1`, and its
///   p-value. It is computed only when the row's columns cover every
///   outcome of positive probability, since otherwise the observed and
///   expected totals differ by construction. It is not pooled; the cell
///   z-scores are the primary test, and the row statistic is a summary.
///
/// Errors: a row's key is not among `exact`, a column's outcome is not in
/// that distribution, an outcome column repeats, the table is empty, the
/// sample size is not a positive finite number, `level` is not strictly
/// between 0 and 1, or an exact distribution is malformed.
pub fn check_published(
    exact: &[ExactDistribution],
    table: &PublishedTable,
    sample: SampleSize,
    level: f64,
) -> Result<PublishedCheck> {
    check_level(level)?;
    if table.rows.is_empty() {
        return Err(Error::invalid(
            "published table",
            "(no rows)",
            "it needs at least one row",
        ));
    }
    let hands = match sample {
        SampleSize::Exact => None,
        SampleSize::PerRow(n) => Some(check_hands("hands_per_row", n)?),
        SampleSize::Total(n) => Some(check_hands("hands", n)? / table.rows.len() as f64),
    };

    // First pass: find each cell's exact probability, decide the exact
    // interval questions, and compute z where it exists. Consistency of the
    // z cells waits until the family size is known.
    struct Pending {
        cell: PublishedCellCheck,
        /// Set when consistency was decided exactly (no z).
        decided: Option<bool>,
    }
    let hundred = BigRational::from_integer(BigInt::from(100));
    let mut pending_rows: Vec<(PublishedRowCheck, Vec<Pending>)> = Vec::new();
    for row in &table.rows {
        let dist = exact.iter().find(|d| d.key == row.key).ok_or_else(|| {
            Error::invalid(
                "published row",
                &row.label,
                format!("its key {} has no exact distribution", row.key),
            )
        })?;
        if dist.probabilities.len() != dist.outcomes.len() {
            return Err(Error::invalid(
                "exact distribution",
                &dist.key,
                "has a different number of probabilities than outcomes",
            ));
        }
        let mut cells = Vec::with_capacity(row.cells.len());
        let mut used: Vec<usize> = Vec::with_capacity(row.cells.len());
        for cell in &row.cells {
            let index = dist
                .outcomes
                .iter()
                .position(|o| *o == cell.outcome)
                .ok_or_else(|| {
                    Error::invalid(
                        "published outcome",
                        format!("{}/{}", row.label, cell.outcome),
                        format!(
                            "the distribution {} has outcomes {}",
                            dist.key,
                            dist.outcomes.join(", ")
                        ),
                    )
                })?;
            if used.contains(&index) {
                return Err(Error::invalid(
                    "published outcome",
                    format!("{}/{}", row.label, cell.outcome),
                    "each outcome may appear in only one column",
                ));
            }
            used.push(index);
            let p = &dist.probabilities[index];
            let exact_percent_q = p * &hundred;
            let (low, high) = cell.rounding_interval();
            let inside = low <= exact_percent_q && exact_percent_q <= high;
            let exact_percent = rational_to_f64(&exact_percent_q);
            let (z, decided) = match hands {
                None => (None, Some(inside)),
                Some(_) if p.is_zero() || p.is_one() => (None, Some(inside)),
                Some(_) if inside => (Some(0.0), None),
                Some(n) => {
                    let nearest = if exact_percent_q < low { low } else { high };
                    let gap = rational_to_f64(&(nearest / &hundred - p));
                    let pf = rational_to_f64(p);
                    (Some(gap / (pf * (1.0 - pf) / n).sqrt()), None)
                }
            };
            cells.push(Pending {
                cell: PublishedCellCheck {
                    outcome: cell.outcome.clone(),
                    text: cell.text.clone(),
                    published_percent: rational_to_f64(&cell.percent),
                    exact: cell.exact,
                    exact_percent,
                    z,
                    consistent: decided.unwrap_or(false),
                },
                decided,
            });
        }
        let (chi_square, degrees_of_freedom, p_value) = match hands {
            Some(n) => row_chi_square(dist, row, n, &used),
            None => (None, None, None),
        };
        pending_rows.push((
            PublishedRowCheck {
                label: row.label.clone(),
                key: row.key.clone(),
                hands,
                cells: Vec::new(),
                chi_square,
                degrees_of_freedom,
                p_value,
            },
            cells,
        ));
    }

    let cells_tested = pending_rows
        .iter()
        .flat_map(|(_, cells)| cells)
        .filter(|c| c.cell.z.is_some())
        .count();
    let z_critical = normal_quantile(1.0 - level / (2.0 * cells_tested.max(1) as f64));

    let mut rows = Vec::with_capacity(pending_rows.len());
    let mut inconsistent = Vec::new();
    for (mut row, cells) in pending_rows {
        for mut pending in cells {
            if pending.decided.is_none() {
                pending.cell.consistent = pending.cell.z.is_some_and(|z| z.abs() <= z_critical);
            }
            if !pending.cell.consistent {
                inconsistent.push(format!("{}/{}", row.label, pending.cell.outcome));
            }
            row.cells.push(pending.cell);
        }
        rows.push(row);
    }

    let missing_rows = exact
        .iter()
        .filter(|d| !table.rows.iter().any(|row| row.key == d.key))
        .map(|d| d.key.clone())
        .collect();
    Ok(PublishedCheck {
        sample,
        level,
        z_critical,
        cells_tested,
        rows,
        inconsistent,
        missing_rows,
    })
}

/// The row chi-square of [`check_published`]: `None`s unless the row's
/// columns (`used`, indices into `dist`) cover every outcome of positive
/// probability.
fn row_chi_square(
    dist: &ExactDistribution,
    row: &PublishedRow,
    n: f64,
    used: &[usize],
) -> (Option<f64>, Option<usize>, Option<f64>) {
    let covers =
        (0..dist.probabilities.len()).all(|i| dist.probabilities[i].is_zero() || used.contains(&i));
    if !covers {
        return (None, None, None);
    }
    let mut statistic = 0.0;
    let mut bins = 0usize;
    for (cell, &i) in row.cells.iter().zip(used) {
        let p = &dist.probabilities[i];
        if p.is_zero() {
            continue;
        }
        let observed = n * rational_to_f64(&cell.percent) / 100.0;
        let expected = n * rational_to_f64(p);
        statistic += (observed - expected).powi(2) / expected;
        bins += 1;
    }
    let df = bins.saturating_sub(1);
    (
        Some(statistic),
        Some(df),
        Some(chi_square_p_value(statistic, df)),
    )
}

fn check_hands(parameter: &str, hands: f64) -> Result<f64> {
    if hands.is_finite() && hands > 0.0 {
        Ok(hands)
    } else {
        Err(Error::invalid(
            parameter,
            hands,
            "the number of hands must be a positive number",
        ))
    }
}

/// A Monte-Carlo mean against the exact expectation it estimates: a
/// two-sided z test. Made by [`mean_agreement`].
///
/// Guarantees: `z = (mean - exact) / standard_error` (0 when the two are
/// equal, infinite when they differ and `standard_error` is 0); `p_value`
/// is `P(|Z| >= |z|)` for a standard normal `Z`; `z_critical` is the
/// `1 - level / 2` normal quantile; `agrees` exactly when `|z| <=
/// z_critical` (equivalently `p_value >= level`). The test reads the mean
/// as normal, which the central limit theorem makes accurate for the
/// millions of trials a Monte-Carlo comparison uses.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MeanAgreement {
    /// The exact expectation.
    pub exact: f64,
    /// The Monte-Carlo mean.
    pub mean: f64,
    /// The standard error of the Monte-Carlo mean.
    pub standard_error: f64,
    /// `(mean - exact) / standard_error`.
    pub z: f64,
    /// The two-sided p-value of `z`.
    pub p_value: f64,
    /// The significance level of the test.
    pub level: f64,
    /// The largest `|z|` that agrees at `level`: the `1 - level / 2`
    /// standard normal quantile (1.96 at 0.05; about 5.0 at 5.7e-7, the
    /// threshold the project's Monte-Carlo tests use).
    pub z_critical: f64,
    /// Whether `|z| <= z_critical`.
    pub agrees: bool,
}

/// Tests a Monte-Carlo mean (`summary_mean`, with its `standard_error`)
/// against the `exact` expectation at significance `level`: agreement
/// when `|z| <= z_critical`, the two-sided normal quantile of `level` (see
/// [`MeanAgreement`]).
///
/// Errors: `level` is not strictly between 0 and 1, the means are not
/// finite, or `standard_error` is negative or not finite.
pub fn mean_agreement(
    summary_mean: f64,
    standard_error: f64,
    exact: f64,
    level: f64,
) -> Result<MeanAgreement> {
    check_level(level)?;
    for (name, value) in [("mean", summary_mean), ("exact", exact)] {
        if !value.is_finite() {
            return Err(Error::invalid(name, value, "must be a finite number"));
        }
    }
    if !(standard_error.is_finite() && standard_error >= 0.0) {
        return Err(Error::invalid(
            "standard_error",
            standard_error,
            "must be a finite number at least 0",
        ));
    }
    let difference = summary_mean - exact;
    let z = if difference == 0.0 {
        0.0
    } else if standard_error == 0.0 {
        f64::INFINITY.copysign(difference)
    } else {
        difference / standard_error
    };
    let z_critical = normal_quantile(1.0 - level / 2.0);
    Ok(MeanAgreement {
        exact,
        mean: summary_mean,
        standard_error,
        z,
        p_value: two_sided_normal_p_value(z),
        level,
        z_critical,
        agrees: z.abs() <= z_critical,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn exact(key: &str, outcomes: &[&str], probabilities: &[(i64, i64)]) -> ExactDistribution {
        ExactDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            probabilities: probabilities.iter().map(|&(n, d)| q(n, d)).collect(),
        }
    }

    fn counts(key: &str, outcomes: &[&str], counts: &[u64]) -> CountDistribution {
        CountDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            counts: counts.to_vec(),
        }
    }

    /// 1/3, 1/6, 1/2 over a, b, c.
    fn thirds() -> ExactDistribution {
        exact("k", &["a", "b", "c"], &[(1, 3), (1, 6), (1, 2)])
    }

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    #[test]
    fn goodness_of_fit_on_a_perfect_sample_agrees_with_zero_statistic() {
        let result = goodness_of_fit(
            &thirds(),
            &counts("k", &["a", "b", "c"], &[200, 100, 300]),
            0.05,
        )
        .expect("valid input");
        assert_eq!(result.chi_square, 0.0);
        assert_eq!(result.degrees_of_freedom, 2);
        assert_eq!(result.p_value, 1.0);
        assert_eq!(result.verdict, Verdict::Agree);
        assert_eq!(result.z_scores, vec![Some(0.0), Some(0.0), Some(0.0)]);
        assert_eq!(result.total_variation, 0.0);
        assert!(result.pooled_bins.is_empty());
        assert_eq!(result.trials, 600);
        assert_eq!(result.trials_b, None);
    }

    #[test]
    fn goodness_of_fit_matches_a_hand_computation() {
        // n = 600, expected 200, 100, 300; observed 230, 90, 280.
        // chi2 = 900/200 + 100/100 + 400/300 = 4.5 + 1 + 1.3333 = 6.8333.
        let result = goodness_of_fit(
            &thirds(),
            &counts("k", &["a", "b", "c"], &[230, 90, 280]),
            0.05,
        )
        .expect("valid input");
        assert!(close(result.chi_square, 6.833_333_333, 1e-9), "{result:?}");
        assert_eq!(result.degrees_of_freedom, 2);
        // The chi-square(2) tail is exp(-x/2).
        assert!(close(
            result.p_value,
            (-6.833_333_333_f64 / 2.0).exp(),
            1e-9
        ));
        assert_eq!(result.verdict, Verdict::Disagree);
        // z_a = 30 / sqrt(600 * 1/3 * 2/3) = 30 / sqrt(133.33) = 2.598.
        let z_a = result.z_scores[0].expect("defined");
        assert!(close(z_a, 30.0 / (400.0_f64 / 3.0).sqrt(), 1e-12));
        assert!(close(result.max_abs_z.unwrap(), z_a, 1e-12));
        // TVD = 0.5 * (30 + 10 + 20) / 600 = 0.05.
        assert!(close(result.total_variation, 0.05, 1e-12));
        // At a stricter level the same data agree.
        let strict = goodness_of_fit(
            &thirds(),
            &counts("k", &["a", "b", "c"], &[230, 90, 280]),
            0.01,
        )
        .expect("valid input");
        assert_eq!(strict.verdict, Verdict::Agree);
    }

    #[test]
    fn a_count_in_a_zero_probability_bin_is_an_immediate_disagreement() {
        let d = exact("k", &["a", "b", "never"], &[(1, 2), (1, 2), (0, 1)]);
        let result = goodness_of_fit(&d, &counts("k", &["a", "b", "never"], &[50, 49, 1]), 0.05)
            .expect("valid");
        assert_eq!(result.p_value, 0.0);
        assert!(result.chi_square.is_infinite());
        assert_eq!(result.verdict, Verdict::Disagree);
        assert_eq!(result.z_scores[2], None);
        assert_eq!(result.degrees_of_freedom, 1);
    }

    #[test]
    fn zero_probability_bins_with_zero_counts_are_left_out() {
        let d = exact("k", &["a", "b", "never"], &[(1, 2), (1, 2), (0, 1)]);
        let result = goodness_of_fit(&d, &counts("k", &["a", "b", "never"], &[50, 50, 0]), 0.05)
            .expect("valid");
        assert_eq!(result.degrees_of_freedom, 1);
        assert_eq!(result.chi_square, 0.0);
        assert_eq!(result.z_scores, vec![Some(0.0), Some(0.0), None]);
        assert_eq!(result.verdict, Verdict::Agree);
    }

    #[test]
    fn a_certain_outcome_has_no_z_and_nothing_to_test() {
        let d = exact("k", &["win", "loss"], &[(1, 1), (0, 1)]);
        let result =
            goodness_of_fit(&d, &counts("k", &["win", "loss"], &[10, 0]), 0.05).expect("valid");
        assert_eq!(result.z_scores, vec![None, None]);
        assert_eq!(result.degrees_of_freedom, 0);
        assert_eq!(result.p_value, 1.0);
        // No z-score at all: no max |z| either, rather than a 0 that would
        // read as perfect agreement.
        assert_eq!(result.max_abs_z, None);
    }

    #[test]
    fn every_outcome_pooled_leaves_no_max_z() {
        // n = 4: expected 2 and 2, both below 5, pooled into one group,
        // which leaves nothing to test and no z-score the test kept whole.
        let d = exact("k", &["a", "b"], &[(1, 2), (1, 2)]);
        let result = goodness_of_fit(&d, &counts("k", &["a", "b"], &[4, 0]), 0.05).expect("valid");
        assert_eq!(result.pooled_bins, vec![vec![0, 1]]);
        assert_eq!(result.degrees_of_freedom, 0);
        assert!(
            result
                .z_scores
                .iter()
                .all(|z| z.is_some_and(|z| z.abs() > 1.9))
        );
        assert_eq!(result.max_abs_z, None);
    }

    #[test]
    fn small_expectations_are_pooled_smallest_first() {
        // n = 100: expected 1, 2, 3, 94. The lightest, {a} at 1, merges
        // into the next lightest, {b} at 2, giving {a,b} at 3. Now {a,b} and
        // {c} both weigh 3; the tie goes to {a,b} (smaller first index),
        // which merges into {c}, giving {a,b,c} at 6 >= 5.
        let d = exact(
            "k",
            &["a", "b", "c", "d"],
            &[(1, 100), (2, 100), (3, 100), (94, 100)],
        );
        let result = goodness_of_fit(
            &d,
            &counts("k", &["a", "b", "c", "d"], &[3, 2, 1, 94]),
            0.05,
        )
        .expect("valid");
        assert_eq!(result.pooled_bins, vec![vec![0, 1, 2]]);
        assert_eq!(result.degrees_of_freedom, 1);
        // Pooled: observed 6 vs expected 6, and 94 vs 94.
        assert_eq!(result.chi_square, 0.0);
        // The z-scores stay per original bin...
        assert!(result.z_scores[0].is_some_and(|z| z > 1.9));
        // ... but max |z| is over the bins the test kept whole: d alone,
        // 94 against 94.
        assert_eq!(result.z_scores[3], Some(0.0));
        assert_eq!(result.max_abs_z, Some(0.0));
    }

    #[test]
    fn pooling_stops_at_one_group() {
        let groups = pool_bins(&[(0, 1.0), (3, 2.0)]);
        assert_eq!(groups, vec![vec![0, 3]]);
        assert_eq!(
            pool_bins(&[(1, 6.0), (2, 0.5), (5, 7.0)]),
            vec![vec![1, 2], vec![5]]
        );
        assert!(pool_bins(&[]).is_empty());
    }

    #[test]
    fn goodness_of_fit_rejects_mismatched_input() {
        let good = counts("k", &["a", "b", "c"], &[1, 1, 1]);
        let renamed = counts("k", &["a", "b", "x"], &[1, 1, 1]);
        let reordered = counts("k", &["b", "a", "c"], &[1, 1, 1]);
        let other_key = counts("j", &["a", "b", "c"], &[1, 1, 1]);
        let empty = counts("k", &["a", "b", "c"], &[0, 0, 0]);
        let short = counts("k", &["a", "b", "c"], &[1, 1]);
        for bad in [&renamed, &reordered, &other_key, &empty, &short] {
            let error = goodness_of_fit(&thirds(), bad, 0.05).expect_err("must be rejected");
            assert_eq!(error.exit_code(), 2, "{error}");
        }
        assert!(goodness_of_fit(&thirds(), &good, 0.0).is_err());
        assert!(goodness_of_fit(&thirds(), &good, f64::NAN).is_err());
        let not_a_distribution = exact("k", &["a", "b", "c"], &[(1, 3), (1, 3), (1, 2)]);
        assert!(goodness_of_fit(&not_a_distribution, &good, 0.05).is_err());
        let error = goodness_of_fit(&thirds(), &renamed, 0.05).expect_err("labels differ");
        assert!(error.to_string().contains("a,b,x"), "{error}");
    }

    #[test]
    fn homogeneity_matches_a_hand_computation() {
        // a = (30, 70) of 100, b = (50, 50) of 100. Column totals 80, 120 of
        // 200; expected 40, 60 for both rows. chi2 = 2*(100/40 + 100/60) = 8.333.
        let a = counts("k", &["x", "y"], &[30, 70]);
        let b = counts("k", &["x", "y"], &[50, 50]);
        let result = homogeneity(&a, &b, 0.05).expect("valid");
        assert!(close(result.chi_square, 25.0 / 3.0, 1e-9), "{result:?}");
        assert_eq!(result.degrees_of_freedom, 1);
        assert_eq!(result.test, TestKind::Homogeneity);
        assert_eq!(result.trials, 100);
        assert_eq!(result.trials_b, Some(100));
        // Two-proportion z: (0.3 - 0.5) / sqrt(0.4*0.6*(2/100)) = -2.887;
        // with two bins z^2 equals the statistic.
        let z = result.z_scores[0].expect("defined");
        assert!(close(z, -0.2 / (0.24_f64 * 0.02).sqrt(), 1e-12));
        assert!(close(z * z, result.chi_square, 1e-9));
        assert!(close(result.total_variation, 0.2, 1e-12));
        assert_eq!(result.verdict, Verdict::Disagree);
    }

    #[test]
    fn homogeneity_leaves_out_empty_columns_and_pools_small_ones() {
        let a = counts("k", &["x", "y", "z", "w"], &[0, 2, 1, 97]);
        let b = counts("k", &["x", "y", "z", "w"], &[0, 1, 3, 96]);
        let result = homogeneity(&a, &b, 0.05).expect("valid");
        assert_eq!(result.z_scores[0], None);
        // Weights min(n)*t/N: y 1.5, z 2, w 96.5 -> y and z pool to 3.5,
        // still below 5, so they pool into w and nothing is left to test.
        assert_eq!(result.pooled_bins, vec![vec![1, 2, 3]]);
        assert_eq!(result.degrees_of_freedom, 0);
        assert_eq!(result.p_value, 1.0);
        assert_eq!(result.verdict, Verdict::Agree);
    }

    #[test]
    fn homogeneity_rejects_mismatched_input() {
        let a = counts("k", &["x", "y"], &[1, 2]);
        assert!(homogeneity(&a, &counts("k", &["x", "z"], &[1, 2]), 0.05).is_err());
        assert!(homogeneity(&a, &counts("k", &["x", "y"], &[0, 0]), 0.05).is_err());
        assert!(homogeneity(&a, &counts("j", &["x", "y"], &[1, 2]), 0.05).is_err());
    }

    #[test]
    fn all_variants_pair_by_key() {
        let e = vec![thirds(), exact("j", &["a", "b"], &[(1, 2), (1, 2)])];
        let c = vec![
            counts("j", &["a", "b"], &[5, 5]),
            counts("k", &["a", "b", "c"], &[2, 1, 3]),
        ];
        let results = goodness_of_fit_all(&e, &c, 0.05).expect("valid");
        assert_eq!(
            results.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
            ["k", "j"]
        );
        assert!(goodness_of_fit_all(&e, &c[..1], 0.05).is_err());
        let h = homogeneity_all(&c, &c, 0.05).expect("valid");
        assert!(h.iter().all(|r| r.chi_square == 0.0));
    }

    // --- published tables ---------------------------------------------

    fn row_key(label: &str) -> Option<String> {
        match label {
            "k" | "K" => Some("k".to_string()),
            "j" => Some("j".to_string()),
            _ => None,
        }
    }

    fn parse(text: &str) -> PublishedTable {
        PublishedTable::parse_csv(text, &row_key).expect("valid table")
    }

    fn parse_error(text: &str) -> String {
        PublishedTable::parse_csv(text, &row_key).expect_err("invalid table")
    }

    #[test]
    fn parse_csv_reads_exact_values_and_decimals() {
        let table = parse("up, a, b ,c\nk, 33.33 %,16.7%, 50\n\nK,0.00,1.5,7\n");
        assert_eq!(table.rows.len(), 2);
        let row = &table.rows[0];
        assert_eq!((row.label.as_str(), row.key.as_str()), ("k", "k"));
        let cell = &row.cells[0];
        assert_eq!(cell.outcome, "a");
        assert_eq!(cell.text, "33.33");
        assert_eq!(cell.percent, q(3333, 100));
        assert_eq!(cell.decimals, 2);
        assert_eq!(row.cells[1].percent, q(167, 10));
        assert_eq!(row.cells[2].outcome, "c");
        assert_eq!(row.cells[2].percent, q(50, 1));
        assert_eq!(row.cells[2].decimals, 0);
        assert_eq!(table.rows[1].key, "k");
        assert_eq!(table.rows[1].cells[0].percent, q(0, 1));
    }

    #[test]
    fn parse_csv_reports_line_and_field() {
        let cases: &[(&str, &str)] = &[
            (
                "up,a,b\nk,1.5,x\n",
                "line 2, field 3 (b): \"x\" is not a percentage",
            ),
            ("up,a,b\nk,1.5,-2\n", "line 2, field 3 (b)"),
            ("up,a,b\nk,1.5,1e3\n", "field 3"),
            ("up,a,b\nk,1.5,.5\n", "field 3"),
            ("up,a,b\nk,1.5,5.\n", "field 3"),
            ("up,a,b\nk,101,1\n", "above 100"),
            ("up,a,b\nk,1,\n", "the field is empty"),
            (
                "up,a,b\nq,1,2\n",
                "line 2, field 1: unknown row label \"q\"",
            ),
            ("up,a,b\nk,1\n", "line 2: 2 fields, but the header has 3"),
            ("up,a,b\nk,1,2,3\n", "line 2: 4 fields"),
            (
                "up,a,a\nk,1,2\n",
                "line 1, field 3: duplicate outcome column \"a\"",
            ),
            ("up,a,\nk,1,2\n", "empty outcome label"),
            ("up\nk\n", "at least one outcome column"),
            (
                "up,a,b\nk,1,2\nk,3,4\n",
                "line 3, field 1: row label \"k\" appears twice",
            ),
            ("", "empty table: no header row"),
            ("up,a,b\n\n", "empty table: a header but no rows"),
        ];
        for (text, expected) in cases {
            let message = parse_error(text);
            assert!(message.contains(expected), "{text:?}: {message}");
        }
    }

    #[test]
    fn long_form_tables_read_fractions_percentages_and_counts() {
        let fractions = parse(
            "key,outcome,probability,value,percent\nk,a,1/3,0.33,33.3\nk,b,2/3,0.67,66.7\nj,b,1,1,100\nj,a,0,0,0\n",
        );
        assert_eq!(fractions.rows.len(), 2);
        let cell = &fractions.rows[0].cells[0];
        assert_eq!((cell.outcome.as_str(), cell.text.as_str()), ("a", "1/3"));
        assert_eq!(cell.percent, q(100, 3));
        assert!(cell.exact);
        assert_eq!(cell.rounding_interval(), (q(100, 3), q(100, 3)));
        // The second key's lines come in the first key's order.
        let j: Vec<&str> = fractions.rows[1]
            .cells
            .iter()
            .map(|c| c.outcome.as_str())
            .collect();
        assert_eq!(j, ["a", "b"]);
        assert_eq!(fractions.rows[1].cells[1].percent, q(100, 1));

        // deckodds' CSV has a column per parameter of the keys between
        // `key` and `outcome` (here `n`, empty for a plain label); the
        // table is the same without them.
        let with_parameters = parse(
            "key,n,outcome,probability,value,percent\nk,1,a,1/3,0.33,33.3\nk,1,b,2/3,0.67,66.7\nj,,b,1,1,100\nj,,a,0,0,0\n",
        );
        assert_eq!(with_parameters, fractions);

        let percents = parse("key,outcome,percent\nk,a,33.33\nk,b,66.67\n");
        assert!(!percents.rows[0].cells[0].exact);
        assert_eq!(percents.rows[0].cells[0].decimals, 2);

        let counts = parse("key,outcome,count,trials,estimate\nk,a,1,4,0.25\nk,b,3,4,0.75\n");
        assert_eq!(counts.rows[0].cells[1].percent, q(75, 1));
        assert!(counts.rows[0].cells[1].exact);

        for (text, expected) in [
            (
                "key,outcome,probability\nk,a,2/3\nk,a,1/3\n",
                "line 3: k/a appears twice",
            ),
            (
                "key,outcome,probability\nk,a,x\n",
                "line 2 (k/a): \"x\" is not an exact",
            ),
            ("key,outcome,probability\nk,a,3/2\n", "outside 0..=1"),
            ("key,outcome,probability\nq,a,1\n", "unknown key \"q\""),
            (
                "key,outcome,probability\nk,a,1\nj,b,1\n",
                "j has no line for outcome a",
            ),
            (
                "key,outcome,probability\nk,a,1\nj,a,1\nj,b,0\n",
                "j/b: the first key lists only",
            ),
            ("key,outcome,count,trials\nk,a,5,4\n", "not a proportion"),
            ("key,outcome,value\nk,a,1\n", "needs a probability, percent"),
            ("key,outcome,probability\n", "a header but no rows"),
        ] {
            let message = parse_error(text);
            assert!(message.contains(expected), "{text:?}: {message}");
        }
    }

    #[test]
    fn an_exact_table_checks_its_fractions_exactly_and_names_missing_rows() {
        let table = parse("key,outcome,probability\nk,a,1/3\nk,b,1/6\nk,c,1/2\n");
        let other = ExactDistribution {
            key: "j".into(),
            ..thirds()
        };
        let check =
            check_published(&[thirds(), other], &table, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.all_consistent(), "{check:?}");
        assert_eq!(check.missing_rows, ["j"]);
        assert_eq!(check.cells(), 3);
        // A fraction off by any amount is inconsistent.
        let off = parse("key,outcome,probability\nk,a,1/3\nk,b,1/7\nk,c,1/2\n");
        let check = check_published(&[thirds()], &off, SampleSize::Exact, 0.05).expect("valid");
        assert_eq!(check.inconsistent, ["k/b"]);
        assert!(check.missing_rows.is_empty());
        assert!(!check.mostly_inconsistent());
        let wrong = parse("up,a,b,c\nk,30,20,50\n");
        let check = check_published(&[thirds()], &wrong, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.mostly_inconsistent(), "{check:?}");
        assert!(!check.looks_like_fractions());
    }

    #[test]
    fn fractions_where_percentages_belong_are_named_and_so_is_the_reverse() {
        // 1/3, 1/6, 1/2 written as fractions of 1, in a table of percents.
        let fractions = parse("up,a,b,c\nk,0.3333,0.1667,0.5\n");
        let check =
            check_published(&[thirds()], &fractions, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.looks_like_fractions(), "{check:?}");
        // As percentages, nothing to say.
        let percents = parse("up,a,b,c\nk,33.33,16.67,50\n");
        let check =
            check_published(&[thirds()], &percents, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.all_consistent() && !check.looks_like_fractions());
        // Percentages in a column of probabilities.
        for field in ["33.33", "50", "16.67%"] {
            let message = parse_error(&format!("key,outcome,probability\nk,a,{field}\n"));
            assert!(message.contains("looks like a percentage"), "{message}");
        }
        let message = parse_error("key,outcome,probability\nk,a,0.5\n");
        assert!(
            message.contains("rounded decimals go in a percent column"),
            "{message}"
        );
        assert!(!message.contains("looks like a percentage"), "{message}");
    }

    #[test]
    fn the_overall_verdict_agrees_only_when_every_test_does() {
        let d = thirds();
        let fit = goodness_of_fit(&d, &counts("k", &["a", "b", "c"], &[100, 50, 150]), 0.05)
            .expect("valid");
        let misfit =
            goodness_of_fit(&d, &counts("k", &["a", "b", "c"], &[300, 0, 0]), 0.05).expect("valid");
        assert!(OverallVerdict::of(std::slice::from_ref(&fit)).agrees());
        let both = OverallVerdict::of(&[fit, misfit]);
        assert!(!both.agrees());
        assert_eq!(
            (both.tested, both.disagreeing.clone()),
            (2, vec!["k".to_string()])
        );
        assert!(OverallVerdict::of(&[]).agrees());
    }

    #[test]
    fn counts_that_sum_past_64_bits_are_refused_not_wrapped() {
        let huge = counts("k", &["a", "b", "c"], &[u64::MAX, 2, 0]);
        let small = counts("k", &["a", "b", "c"], &[1, 1, 1]);
        let message = homogeneity(&huge, &small, 0.05).unwrap_err().to_string();
        assert!(message.contains("sum past 2^64 - 1"), "{message}");
        assert!(goodness_of_fit(&thirds(), &huge, 0.05).is_err());
    }

    #[test]
    fn rounding_interval_is_exact() {
        let table = parse("up,a\nk,35.02\n");
        let (low, high) = table.rows[0].cells[0].rounding_interval();
        assert_eq!(low, q(35015, 1000));
        assert_eq!(high, q(35025, 1000));
    }

    #[test]
    fn exact_check_accepts_correct_roundings() {
        // 1/3 = 33.333..%, 1/6 = 16.666..%, 1/2 = 50%.
        let table = parse("up,a,b,c\nk,33.33,16.67,50.00\n");
        let check = check_published(&[thirds()], &table, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.all_consistent(), "{check:?}");
        assert_eq!(check.cells_tested, 0);
        assert!(check.rows[0].cells.iter().all(|c| c.z.is_none()));
        assert_eq!(check.rows[0].chi_square, None);
        assert_eq!(check.rows[0].hands, None);
    }

    #[test]
    fn exact_check_counts_both_ends_of_the_rounding_interval_as_consistent() {
        // 1/16 = 6.25% exactly: the upper end of 6.2's interval [6.15, 6.25]
        // and the lower end of 6.3's [6.25, 6.35]. Just outside either end,
        // or a narrower interval from more decimals, is inconsistent.
        let d = exact("k", &["x", "y"], &[(1, 16), (15, 16)]);
        let consistent = |text: &str| {
            let table = parse(&format!("up,x\nk,{text}\n"));
            check_published(std::slice::from_ref(&d), &table, SampleSize::Exact, 0.05)
                .expect("valid")
                .all_consistent()
        };
        for text in ["6.2", "6.3", "6", "6.25", "6.250", "6.2500000"] {
            assert!(consistent(text), "{text}");
        }
        for text in ["6.24", "6.26", "6.1", "6.4", "7", "6.2499"] {
            assert!(!consistent(text), "{text}");
        }
    }

    #[test]
    fn exact_check_names_the_inconsistent_cells() {
        let table = parse("up,a,b,c\nk,33.33,16.66,50.01\n");
        let check = check_published(&[thirds()], &table, SampleSize::Exact, 0.05).expect("valid");
        assert_eq!(
            check.inconsistent,
            vec!["k/b".to_string(), "k/c".to_string()]
        );
        assert!(check.rows[0].cells[0].consistent);
        assert!(!check.rows[0].cells[1].consistent);
        assert!(close(
            check.rows[0].cells[1].exact_percent,
            100.0 / 6.0,
            1e-12
        ));
    }

    #[test]
    fn sampled_check_gives_zero_inside_and_signed_z_outside() {
        // n = 900 per row. p = 1/2: sd = sqrt(0.25/900) = 1/60.
        // Printed 52.00 -> interval [51.995, 52.005]; nearest end 51.995;
        // z = (0.51995 - 0.5) * 60 = 1.197.
        let table = parse("up,a,b,c\nk,33.33,16.67,52.00\n");
        let check =
            check_published(&[thirds()], &table, SampleSize::PerRow(900.0), 0.05).expect("valid");
        let cells = &check.rows[0].cells;
        assert_eq!(cells[0].z, Some(0.0));
        assert_eq!(cells[1].z, Some(0.0));
        let z = cells[2].z.expect("defined");
        assert!(close(z, 0.019_95 * 60.0, 1e-9), "{z}");
        assert_eq!(check.cells_tested, 3);
        // Bonferroni over 3 cells at 5%: quantile(1 - 0.05/6) = 2.394.
        assert!(close(
            check.z_critical,
            normal_quantile(1.0 - 0.05 / 6.0),
            1e-12
        ));
        assert!(close(check.z_critical, 2.394, 1e-3));
        assert!(check.all_consistent());

        // Printed too low gives a negative z from the upper end.
        let table = parse("up,c\nk,40\n");
        let check =
            check_published(&[thirds()], &table, SampleSize::PerRow(900.0), 0.05).expect("valid");
        let z = check.rows[0].cells[0].z.expect("defined");
        assert!(close(z, (0.405 - 0.5) * 60.0, 1e-9), "{z}");
        assert!(!check.rows[0].cells[0].consistent);
        assert_eq!(check.inconsistent, vec!["k/c".to_string()]);
        // Chi-square is not computed: the columns miss outcomes a and b.
        assert_eq!(check.rows[0].chi_square, None);
    }

    #[test]
    fn total_sample_is_split_over_rows() {
        let table = parse("up,a,b,c\nk,33.33,16.67,52.00\nj,33.33,16.67,52.00\n");
        let check = check_published(
            &[thirds(), renamed_thirds("j")],
            &table,
            SampleSize::Total(1800.0),
            0.05,
        )
        .expect("valid");
        assert_eq!(check.rows[0].hands, Some(900.0));
        assert_eq!(check.rows[1].hands, Some(900.0));
        let z = check.rows[1].cells[2].z.expect("defined");
        assert!(close(z, 0.019_95 * 60.0, 1e-9));
        assert_eq!(check.cells_tested, 6);
    }

    fn renamed_thirds(key: &str) -> ExactDistribution {
        ExactDistribution {
            key: key.to_string(),
            ..thirds()
        }
    }

    #[test]
    fn row_chi_square_uses_published_percentages_as_observed() {
        // n = 600: observed 200, 100, 312 (from 52%), expected 200, 100, 300.
        let table = parse(
            "up,a,b,c\nk,33.333333333333333333333333333334,16.666666666666666666666666666667,52\n",
        );
        let check =
            check_published(&[thirds()], &table, SampleSize::PerRow(600.0), 0.05).expect("valid");
        let row = &check.rows[0];
        assert_eq!(row.degrees_of_freedom, Some(2));
        let chi = row.chi_square.expect("computed");
        assert!(close(chi, 144.0 / 300.0, 1e-9), "{chi}");
        assert!(close(
            row.p_value.expect("computed"),
            (-chi / 2.0).exp(),
            1e-9
        ));
    }

    #[test]
    fn zero_percent_cells_are_decided_exactly() {
        let d = exact("k", &["win", "never"], &[(1, 1), (0, 1)]);
        let good = parse("up,win,never\nk,100.00,0.00\n");
        let check = check_published(
            std::slice::from_ref(&d),
            &good,
            SampleSize::PerRow(10.0),
            0.05,
        )
        .expect("valid");
        assert!(check.all_consistent());
        assert!(check.rows[0].cells.iter().all(|c| c.z.is_none()));
        assert_eq!(check.cells_tested, 0);
        // Nothing left to test in the row: one bin, zero degrees of freedom.
        assert_eq!(check.rows[0].degrees_of_freedom, Some(0));
        assert_eq!(check.rows[0].p_value, Some(1.0));

        // 0.01% where the exact probability is 0 cannot come from sampling.
        let bad = parse("up,win,never\nk,99.99,0.01\n");
        let check = check_published(&[d], &bad, SampleSize::PerRow(1e9), 0.05).expect("valid");
        assert_eq!(
            check.inconsistent,
            vec!["k/win".to_string(), "k/never".to_string()]
        );
        // A 0.004% value would print as 0.00 and is consistent with "0.00".
        let tiny = exact("k", &["rare", "common"], &[(4, 100_000), (99_996, 100_000)]);
        let table = parse("up,rare,common\nk,0.00,100.00\n");
        let check = check_published(&[tiny], &table, SampleSize::Exact, 0.05).expect("valid");
        assert!(check.all_consistent());
    }

    #[test]
    fn published_rows_and_outcomes_must_exist() {
        let table = parse("up,a,b,zzz\nk,1,2,3\n");
        let error =
            check_published(&[thirds()], &table, SampleSize::Exact, 0.05).expect_err("bad outcome");
        assert!(error.to_string().contains("k/zzz"), "{error}");
        let table = parse("up,a\nj,1\n");
        let error =
            check_published(&[thirds()], &table, SampleSize::Exact, 0.05).expect_err("no key j");
        assert!(error.to_string().contains("published row j"), "{error}");
        let table = parse("up,a\nk,1\n");
        assert!(check_published(&[thirds()], &table, SampleSize::PerRow(0.0), 0.05).is_err());
        assert!(check_published(&[thirds()], &table, SampleSize::Total(f64::NAN), 0.05).is_err());
        assert!(check_published(&[thirds()], &table, SampleSize::Exact, 1.5).is_err());
        let empty = PublishedTable { rows: Vec::new() };
        assert!(check_published(&[thirds()], &empty, SampleSize::Exact, 0.05).is_err());
    }

    // --- the blackjack seed tables (RULES.md section 5) -------------------

    /// The seed tables as shipped. The true exact probabilities come from
    /// the blackjack engine; the exact table's rounded figures stand in for
    /// them here, close enough to exercise the check at the seed's scale.
    const SEED_EXACT: &str = include_str!("../analysis/published/quiz151-exact.csv");

    const SEED_SIMULATED: &str = include_str!("../analysis/published/quiz151-simulation.csv");

    fn upcard_key(label: &str) -> Option<String> {
        match label {
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => Some(format!("upcard={label}")),
            "10" | "T" | "J" | "Q" | "K" => Some("upcard=10".to_string()),
            "A" => Some("upcard=A".to_string()),
            _ => None,
        }
    }

    fn seed_exact_distributions() -> Vec<ExactDistribution> {
        let table = PublishedTable::parse_csv(SEED_EXACT, &upcard_key).expect("seed table parses");
        table
            .rows
            .iter()
            .map(|row| ExactDistribution {
                key: row.key.clone(),
                outcomes: row.cells.iter().map(|c| c.outcome.clone()).collect(),
                probabilities: row
                    .cells
                    .iter()
                    .map(|c| &c.percent / BigRational::from_integer(BigInt::from(100)))
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn seed_simulation_is_flagged_on_the_ace_row() {
        let exact = seed_exact_distributions();
        let table =
            PublishedTable::parse_csv(SEED_SIMULATED, &upcard_key).expect("seed table parses");
        let check = check_published(&exact, &table, SampleSize::Total(100_000.0), DEFAULT_LEVEL)
            .expect("valid");
        // 13 rows x 7 columns, minus the 8 natural cells of probability 0.
        assert_eq!(check.cells_tested, 83);
        assert!(close(
            check.rows[0].hands.expect("sampled"),
            100_000.0 / 13.0,
            1e-9
        ));
        assert!(close(
            check.z_critical,
            normal_quantile(1.0 - 0.05 / 166.0),
            1e-12
        ));
        let ace_bust = &check.rows[12].cells[0];
        assert_eq!(
            (ace_bust.outcome.as_str(), ace_bust.text.as_str()),
            ("bust", "13.13")
        );
        // (0.13125 - 0.1159) / sqrt(0.1159 * 0.8841 / 7692.3) = 4.206.
        let z = ace_bust.z.expect("defined");
        assert!(close(z, 4.206, 0.001), "{z}");
        assert!(!ace_bust.consistent);
        // Against these stand-in values the ace bust is the only cell beyond
        // the Bonferroni bound (z_critical = 3.43), and the ace row's
        // chi-square is the only one that rejects.
        assert_eq!(check.inconsistent, vec!["A/bust".to_string()]);
        assert!(close(check.z_critical, 3.4305, 1e-4));
        let rejecting: Vec<&str> = check
            .rows
            .iter()
            .filter(|row| row.p_value.is_some_and(|p| p < 0.05))
            .map(|row| row.label.as_str())
            .collect();
        assert_eq!(rejecting, ["A"]);
        assert_eq!(check.rows[12].degrees_of_freedom, Some(6));
        assert_eq!(check.rows[0].degrees_of_freedom, Some(5));
        // The ten-valued rows' natural cells are close to 7.77%: consistent.
        assert!(check.rows[8..12].iter().all(|row| row.cells[6].consistent));
        // The zero-probability natural cells printed as 0.00 are consistent.
        assert!(
            check.rows[..8]
                .iter()
                .all(|row| row.cells[6].consistent && row.cells[6].z.is_none())
        );
    }

    #[test]
    fn seed_exact_table_is_consistent_with_itself() {
        let exact = seed_exact_distributions();
        let table = PublishedTable::parse_csv(SEED_EXACT, &upcard_key).expect("seed table parses");
        let check =
            check_published(&exact, &table, SampleSize::Exact, DEFAULT_LEVEL).expect("valid");
        assert!(check.all_consistent(), "{:?}", check.inconsistent);
    }

    #[test]
    fn mean_agreement_is_a_two_sided_z_test() {
        // 0.51 against 0.5 with standard error 0.004: z = 2.5, beyond 1.96.
        let off = mean_agreement(0.51, 0.004, 0.5, 0.05).expect("valid");
        assert!(close(off.z, 2.5, 1e-9), "{}", off.z);
        assert!(close(off.z_critical, 1.959_963_984_540_054, 1e-9));
        assert!(close(off.p_value, 0.012_419_330_651_552_2, 1e-9));
        assert!(!off.agrees);
        // The same difference at level 0.01 (critical 2.576) agrees.
        let loose = mean_agreement(0.51, 0.004, 0.5, 0.01).expect("valid");
        assert!(loose.agrees);
        // Below the exact value the z is negative.
        let below = mean_agreement(0.49, 0.004, 0.5, 0.05).expect("valid");
        assert!(close(below.z, -2.5, 1e-9));
        // No noise: equal means agree, any difference is infinitely far.
        assert_eq!(mean_agreement(0.5, 0.0, 0.5, 0.05).unwrap().z, 0.0);
        let certain = mean_agreement(0.5 + 1e-12, 0.0, 0.5, 0.05).unwrap();
        assert_eq!(certain.z, f64::INFINITY);
        assert!(!certain.agrees);
    }

    #[test]
    fn mean_agreement_refuses_bad_input() {
        for (mean, se, exact, level, named) in [
            (0.0, 0.1, 0.0, 0.0, "level"),
            (0.0, 0.1, 0.0, 1.0, "level"),
            (f64::NAN, 0.1, 0.0, 0.05, "mean"),
            (0.0, 0.1, f64::INFINITY, 0.05, "exact"),
            (0.0, -0.1, 0.0, 0.05, "standard_error"),
            (0.0, f64::NAN, 0.0, 0.05, "standard_error"),
        ] {
            let message = mean_agreement(mean, se, exact, level)
                .unwrap_err()
                .to_string();
            assert!(message.contains(named), "{named}: {message}");
        }
    }
}
