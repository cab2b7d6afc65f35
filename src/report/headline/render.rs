//! Rendering of headlines (the answer a report leads with, see
//! [`crate::report::headline`]) as the lines that lead a terminal table.
//! Version tables, which embed whole reports, are rendered above
//! `report::distributions`, in `versions`.
//!
//! Percentages here are the terminal table's: `percent_decimals` places,
//! but a probability that is not zero never prints as zero.

use crate::report::headline::{Headline, HeadlineFigure, HeadlineValue};
use crate::report::table::{
    fraction_text, interval95, readable_exact_percent, readable_float_percent,
    round_up_two_significant, thousands,
};
use crate::stats::Z95;

/// The headline as lines for the terminal table: one per figure, labels
/// aligned, e.g. `P(win) = P(0 cards left): 0.69% (95% interval [0.67%,
/// 0.71%]; 6,910 of 1,000,000)`.
pub(crate) fn lines(headline: &Headline, decimals: usize) -> Vec<String> {
    let width = headline
        .figures
        .iter()
        .map(|f| f.label.chars().count() + 1)
        .max()
        .unwrap_or(0);
    headline
        .figures
        .iter()
        .map(|figure| {
            let label = format!("{}:", figure.label);
            format!("{label:<width$} {}", figure_text(figure, decimals))
        })
        .collect()
}

/// A figure's value, with its interval or exact fraction, and its note.
fn figure_text(figure: &HeadlineFigure, decimals: usize) -> String {
    let note = figure.note.as_deref();
    match &figure.value {
        HeadlineValue::Exact(p) => {
            let why = note.map_or_else(
                || format!("exactly {}", fraction_text(p)),
                |note| format!("exactly {}: {note}", fraction_text(p)),
            );
            format!("{}% ({why})", readable_exact_percent(p, decimals))
        }
        HeadlineValue::Estimate { count, trials } => {
            let interval = interval95(*count, *trials);
            let mut text = format!(
                "{}% (95% interval [{}%, {}%]; {} of {})",
                readable_float_percent(proportion(*count, *trials), decimals),
                readable_float_percent(interval.low, decimals),
                readable_float_percent(interval.high, decimals),
                thousands(*count),
                thousands(*trials)
            );
            if let Some(note) = note {
                text.push_str(&format!(" ({note})"));
            }
            text
        }
        HeadlineValue::Mean {
            estimate,
            standard_error,
        } => format!(
            "{estimate:.4} (standard error {standard_error:.4}, 95% interval [{:.4}, {:.4}])",
            estimate - Z95 * standard_error,
            estimate + Z95 * standard_error
        ),
        HeadlineValue::ByKey(values) => {
            let listed: Vec<String> = values
                .iter()
                .map(|(key, value)| format!("{key} {}%", plain_percent(value, decimals)))
                .collect();
            let mut text = listed.join(", ");
            let widest = values
                .iter()
                .filter_map(|(_, value)| half_width_points(value))
                .fold(0.0, f64::max);
            if widest > 0.0 {
                text.push_str(&format!(
                    " (95% intervals ±{} points at most)",
                    round_up_two_significant(widest)
                ));
            } else if values
                .iter()
                .all(|(_, value)| matches!(value, HeadlineValue::Exact(_)))
                && !values.is_empty()
            {
                text.push_str(" (exact)");
            }
            text
        }
    }
}

/// A value as a bare percentage, without interval or fraction.
pub(super) fn plain_percent(value: &HeadlineValue, decimals: usize) -> String {
    match value {
        HeadlineValue::Exact(p) => readable_exact_percent(p, decimals),
        HeadlineValue::Estimate { count, trials } => {
            readable_float_percent(proportion(*count, *trials), decimals)
        }
        HeadlineValue::Mean { estimate, .. } => readable_float_percent(estimate / 100.0, decimals),
        HeadlineValue::ByKey(_) => String::new(),
    }
}

/// The larger side of an estimate's 95% Wilson interval, in percentage
/// points; `None` for anything else.
fn half_width_points(value: &HeadlineValue) -> Option<f64> {
    match value {
        HeadlineValue::Estimate { count, trials } => {
            let interval = interval95(*count, *trials);
            let estimate = proportion(*count, *trials);
            Some((estimate - interval.low).max(interval.high - estimate) * 100.0)
        }
        _ => None,
    }
}

/// `count / trials`, 0 for no trials.
pub(super) fn proportion(count: u64, trials: u64) -> f64 {
    if trials == 0 {
        0.0
    } else {
        count as f64 / trials as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_rational::BigRational;

    fn q(numer: i64, denom: i64) -> BigRational {
        BigRational::new(BigInt::from(numer), BigInt::from(denom))
    }

    fn figure(label: &str, value: HeadlineValue) -> HeadlineFigure {
        HeadlineFigure {
            label: label.into(),
            value,
            note: None,
        }
    }

    #[test]
    fn figures_line_up_with_intervals_and_fractions() {
        let headline = Headline::of([
            figure("P(win), K=1", HeadlineValue::Exact(q(1, 6))),
            figure(
                "P(win), unlimited",
                HeadlineValue::Estimate {
                    count: 6_910,
                    trials: 1_000_000,
                },
            ),
        ]);
        let lines = lines(&headline, 2);
        assert_eq!(lines[0], "P(win), K=1:       16.67% (exactly 1/6)");
        let interval = interval95(6_910, 1_000_000);
        assert_eq!(
            lines[1],
            format!(
                "P(win), unlimited: 0.69% (95% interval [{:.2}%, {:.2}%]; 6,910 of 1,000,000)",
                interval.low * 100.0,
                interval.high * 100.0
            )
        );
    }

    #[test]
    fn rare_events_never_print_as_zero() {
        let rare = HeadlineValue::Estimate {
            count: 50,
            trials: 10_000_000,
        };
        let line = &lines(&Headline::of([figure("zero-strike", rare)]), 2)[0];
        assert!(line.starts_with("zero-strike: 0.00050% (95% interval [0.00038%, 0.00066%]"));
        let exact = &lines(
            &Headline::of([figure("p", HeadlineValue::Exact(q(1, 720_000)))]),
            2,
        )[0];
        assert_eq!(exact, "p: 0.00014% (exactly 1/720000)");
        let impossible = HeadlineFigure::impossible("P(win)", "an odd deck always leaves a card");
        assert_eq!(
            lines(&Headline::of([impossible]), 2)[0],
            "P(win): 0.00% (exactly 0: an odd deck always leaves a card)"
        );
    }

    #[test]
    fn by_key_is_one_line_with_its_widest_interval() {
        let values = vec![
            (
                "2".to_string(),
                HeadlineValue::Estimate {
                    count: 3533,
                    trials: 10_000,
                },
            ),
            (
                "A".to_string(),
                HeadlineValue::Estimate {
                    count: 1159,
                    trials: 10_000,
                },
            ),
        ];
        let line = &lines(
            &Headline::of([figure("dealer busts", HeadlineValue::ByKey(values))]),
            2,
        )[0];
        assert!(
            line.starts_with("dealer busts: 2 35.33%, A 11.59% (95% intervals ±0."),
            "{line}"
        );
        let exact = vec![("2".to_string(), HeadlineValue::Exact(q(1, 3)))];
        let line = &lines(
            &Headline::of([figure("busts", HeadlineValue::ByKey(exact))]),
            2,
        )[0];
        assert_eq!(line, "busts: 2 33.33% (exact)");
    }
}
