//! The cells and tables every renderer of the report layer shares: numbers
//! written for people (percentages rounded from the exact rational,
//! fractions, intervals, counts grouped in thousands) and a [`Grid`] (a
//! header row and body rows) written as a terminal table, a Markdown table
//! or a LaTeX tabular.
//!
//! Guarantees: pure functions of their arguments, no I/O, and never a
//! panic, whatever a rational or a label holds.

use std::fmt::Write as _;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::peaker::PriorityMax;
use tabled::settings::{Alignment, Style, Width};

use crate::distribution::rational_to_f64;
use crate::stats::{Interval, Z95, wilson_interval};

// ---------------------------------------------------------------------------
// Numbers.

/// The 95% Wilson interval of an outcome's count.
pub(super) fn interval95(count: u64, trials: u64) -> Interval {
    wilson_interval(count, trials, Z95)
}

/// The nearest `f64` to `100 r`, computed from the rational so it is the
/// correctly rounded percentage, not `value * 100` with a second rounding.
pub(super) fn rational_percent_value(r: &BigRational) -> f64 {
    if r.denom().is_zero() {
        f64::NAN
    } else {
        rational_to_f64(&(r * BigInt::from(100u32)))
    }
}

/// The nearest `f64`, or NaN for a zero denominator (which
/// `rational_to_f64` would turn into an infinity that means nothing).
pub(super) fn rational_value(r: &BigRational) -> f64 {
    if r.denom().is_zero() {
        f64::NAN
    } else {
        rational_to_f64(r)
    }
}

/// The reduced fraction `p/q` with a positive denominator, and a bare
/// integer (`"0"`, `"1"`) when the denominator is 1. Reduces again rather
/// than trusting `Display`, because a `Ratio::new_raw` value need not be
/// reduced.
pub(super) fn fraction_text(r: &BigRational) -> String {
    let (numer, denom) = (r.numer(), r.denom());
    if denom.is_zero() {
        return format!("{numer}/0");
    }
    // The denominator is non-zero, so the gcd is positive.
    let divisor = numer.gcd(denom);
    let (mut numer, mut denom) = (numer / &divisor, denom / &divisor);
    if denom.is_negative() {
        numer = -numer;
        denom = -denom;
    }
    if denom.is_one() {
        numer.to_string()
    } else {
        format!("{numer}/{denom}")
    }
}

/// Past this many decimals a rare percentage is written in scientific
/// notation (`1.2e-15`) in the terminal table.
const MAX_READABLE_DECIMALS: usize = 12;

/// Whether `text` (a written number) shows a digit other than zero.
fn shows_nonzero(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit() && c != '0')
}

/// Decimals that give `percent` (not zero) two significant digits, or
/// `None` beyond [`MAX_READABLE_DECIMALS`].
fn significant_decimals(percent: f64) -> Option<usize> {
    let magnitude = percent.abs();
    if !(magnitude.is_finite() && magnitude > 0.0) {
        return None;
    }
    // 0.00049 has its first significant digit 4 places in; one more shows
    // the second.
    let decimals = 1 - magnitude.log10().floor() as i64;
    usize::try_from(decimals.max(0))
        .ok()
        .filter(|&d| d <= MAX_READABLE_DECIMALS)
}

/// [`exact_percent`], except that a probability that is not zero never
/// prints as zero (see [`Percents::Readable`]).
pub(super) fn readable_exact_percent(r: &BigRational, decimals: usize) -> String {
    if r.denom().is_zero() {
        return "n/a".to_string();
    }
    let fixed = exact_percent(r, decimals);
    if r.is_zero() || shows_nonzero(&fixed) {
        return fixed;
    }
    let percent = rational_percent_value(r);
    match significant_decimals(percent) {
        Some(places) => exact_percent(r, places),
        None => format!("{percent:.1e}"),
    }
}

/// [`float_percent`], except that a value that is not zero never prints as
/// zero (see [`Percents::Readable`]).
pub(super) fn readable_float_percent(p: f64, decimals: usize) -> String {
    let fixed = float_percent(p, decimals);
    if p == 0.0 || !p.is_finite() || shows_nonzero(&fixed) {
        return fixed;
    }
    match significant_decimals(100.0 * p) {
        Some(places) => float_percent(p, places),
        None => format!("{:.1e}", 100.0 * p),
    }
}

/// `100 r` with `decimals` places, rounded half away from zero, computed
/// in integers from the rational.
pub(super) fn exact_percent(r: &BigRational, decimals: usize) -> String {
    let (numer, denom) = (r.numer(), r.denom());
    if denom.is_zero() {
        return "NaN".to_string();
    }
    // `decimals` is at most MAX_PERCENT_DECIMALS, so the cast is exact.
    let scale = BigInt::from(10u32).pow(decimals as u32 + 2);
    let mut scaled = numer * scale;
    let mut denom = denom.clone();
    if denom.is_negative() {
        scaled = -scaled;
        denom = -denom;
    }
    let negative = scaled.is_negative();
    // floor((2|n| + d) / 2d) is |n|/d rounded half up.
    let two_d: BigInt = &denom * 2u32;
    let rounded: BigInt = (scaled.abs() * 2u32 + &denom) / two_d;
    let digits = format!("{rounded:0>width$}", width = decimals + 1);
    let (whole, fraction) = digits.split_at(digits.len() - decimals);
    let sign = if negative && !rounded.is_zero() {
        "-"
    } else {
        ""
    };
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// `100 p` with `decimals` places.
pub(super) fn float_percent(p: f64, decimals: usize) -> String {
    format!("{:.*}", decimals, p * 100.0)
}

/// `x` rounded up to two significant digits, so a bound stays a bound and
/// still shows its size however small it is (0.0437 prints as 0.044).
pub(super) fn round_up_two_significant(x: f64) -> String {
    if !(x.is_finite() && x > 0.0) {
        return "0".to_string();
    }
    let decimals = (1 - x.log10().floor() as i32).max(0);
    let scale = 10f64.powi(decimals);
    // The small tolerance stops a product such as 4.000000000001 (float
    // noise on an exact 4) from being pushed up to 5.
    let value = (x * scale - 1e-9).ceil() / scale;
    format!("{:.*}", decimals as usize, value)
}

/// `10000000` as `10,000,000`: how every count in deckodds' output is
/// grouped.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

// ---------------------------------------------------------------------------
// Grids: the table content, independent of the format's syntax.

/// A header row plus body rows. Column 0 holds labels; every other column
/// holds numbers and is right-aligned.
pub(super) struct Grid {
    pub(super) head: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
}

impl Grid {
    fn columns(&self) -> usize {
        self.head.len()
    }
}

/// Replaces line breaks, which would break a one-line header or a table
/// row in every text format.
pub(super) fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

// ---------------------------------------------------------------------------
// Table (tabled).

pub(super) fn tabled_text(grid: &Grid) -> String {
    tabled_text_with_labels(grid, 1)
}

/// [`tabled_text`] with the first `labels` columns holding labels (left
/// aligned) and the rest numbers (right aligned).
pub(super) fn tabled_text_with_labels(grid: &Grid, labels: usize) -> String {
    built(grid, labels).to_string()
}

/// The tabled table of `grid`, its first `labels` columns left aligned.
fn built(grid: &Grid, labels: usize) -> tabled::Table {
    let mut builder = Builder::new();
    builder.push_record(grid.head.iter().map(|s| one_line(s)));
    for row in &grid.rows {
        builder.push_record(row.iter().map(|s| one_line(s)));
    }
    let mut table = builder.build();
    table.with(Style::rounded());
    table.modify(Columns::new(labels..), Alignment::right());
    table
}

/// The display width of a rendered table: its widest line, in characters.
fn text_width(text: &str) -> usize {
    text.lines()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
}

/// [`tabled_text`] fitted to `width` characters (the terminal's, when the
/// table goes to one; `None`: as wide as it is). A table wider than that
/// is cut into tables of consecutive columns, each repeating the first
/// (label) column and as many of the others as fit, so that every number
/// stays whole and in its row; a label and one column wider than `width`
/// alone are wrapped (at words, the widest cells first).
///
/// Guarantee: with `None`, or a table that fits, the text is
/// [`tabled_text`]'s exactly; otherwise every line is at most `width`
/// characters wide unless a single word is wider, and every cell of the
/// grid appears once (the labels once per table).
pub(super) fn tabled_text_fitted(grid: &Grid, width: Option<usize>) -> String {
    let whole = tabled_text(grid);
    let Some(width) = width else {
        return whole;
    };
    let columns = grid.head.len();
    if text_width(&whole) <= width || columns < 2 {
        return wrapped(grid, width);
    }
    let part = |range: &[usize]| Grid {
        head: std::iter::once(0)
            .chain(range.iter().copied())
            .map(|c| grid.head[c].clone())
            .collect(),
        rows: grid
            .rows
            .iter()
            .map(|row| {
                std::iter::once(0)
                    .chain(range.iter().copied())
                    .map(|c| row.get(c).cloned().unwrap_or_default())
                    .collect()
            })
            .collect(),
    };
    // Greedy: add columns while the part still fits.
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    for column in 1..columns {
        current.push(column);
        if current.len() > 1 && text_width(&tabled_text(&part(&current))) > width {
            current.pop();
            parts.push(std::mem::take(&mut current));
            current.push(column);
        }
    }
    parts.push(current);
    parts
        .iter()
        .map(|columns| wrapped(&part(columns), width))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `grid` as [`tabled_text`] writes it, its widest cells wrapped at words
/// until it fits `width` (as it is when it fits already).
fn wrapped(grid: &Grid, width: usize) -> String {
    let text = tabled_text(grid);
    if text_width(&text) <= width {
        return text;
    }
    let mut table = built(grid, 1);
    table.with(
        Width::wrap(width)
            .keep_words(true)
            .priority(PriorityMax::new(false)),
    );
    table.to_string()
}

// ---------------------------------------------------------------------------
// Markdown.

/// A GitHub pipe table, padded so the source reads as a table too, with
/// number columns right-aligned (`--:`).
pub(super) fn markdown_table(grid: &Grid) -> String {
    let escape_row =
        |row: &[String]| -> Vec<String> { row.iter().map(|c| markdown_escape(c)).collect() };
    let head = escape_row(&grid.head);
    let rows: Vec<Vec<String>> = grid.rows.iter().map(|r| escape_row(r)).collect();
    let mut widths: Vec<usize> = head.iter().map(|c| c.chars().count().max(3)).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &width))| {
                if i == 0 {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &width)| {
            if i == 0 {
                format!(":{}", "-".repeat(width - 1))
            } else {
                format!("{}:", "-".repeat(width - 1))
            }
        })
        .collect();
    let mut out = line(&head);
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

/// Escapes what would end a cell (`|`) and removes line breaks.
pub(super) fn markdown_escape(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

// ---------------------------------------------------------------------------
// LaTeX.

/// Tables longer than this many rows are longtables, which break across
/// pages (repeating their header) where a tabular would run off the page:
/// about the rows a page of 10-point text holds.
pub(super) const LONGTABLE_ROWS: usize = 40;

/// A booktabs tabular, or a longtable when it has more than
/// [`LONGTABLE_ROWS`] rows (its header repeated on every page). `spanner`
/// is `(first column, text)`: a title row spanning from that column to the
/// last, ruled off above the header.
pub(super) fn latex_tabular(grid: &Grid, spanner: Option<(usize, String)>) -> String {
    let columns = grid.columns();
    let spec: Vec<&str> = (0..columns)
        .map(|i| if i == 0 { "l" } else { "r" })
        .collect();
    let long = grid.rows.len() > LONGTABLE_ROWS;
    let environment = if long { "longtable" } else { "tabular" };
    let mut out = format!(
        "\\begin{{{environment}}}{{{}}}\n\\toprule\n",
        spec.join(" ")
    );
    if let Some((first, text)) = spanner.filter(|(first, _)| *first < columns) {
        let span = columns - first;
        let lead = "& ".repeat(first);
        let _ = writeln!(
            out,
            "{lead}\\multicolumn{{{span}}}{{{align}}}{{{}}} \\\\",
            latex_escape(&text),
            align = if first == 0 { "l" } else { "c" },
        );
        let trim = if first == 0 { "" } else { "(l)" };
        let _ = writeln!(out, "\\cmidrule{trim}{{{}-{columns}}}", first + 1);
    }
    out.push_str(&latex_row(&grid.head));
    out.push_str("\\midrule\n");
    if long {
        // The head repeats on every page; the bottom rule closes the last.
        out.push_str("\\endhead\n\\bottomrule\n\\endlastfoot\n");
    }
    for row in &grid.rows {
        out.push_str(&latex_row(row));
    }
    if !long {
        out.push_str("\\bottomrule\n");
    }
    let _ = writeln!(out, "\\end{{{environment}}}");
    out
}

fn latex_row(cells: &[String]) -> String {
    let escaped: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            let text = latex_escape(cell);
            // A row that starts with `[` would be read as the optional
            // argument of the previous row's `\\`.
            if i == 0 && text.starts_with('[') {
                format!("{{}}{text}")
            } else {
                text
            }
        })
        .collect();
    format!("{} \\\\\n", escaped.join(" & "))
}

/// Escapes LaTeX's special characters (and folds line breaks into spaces)
/// so that any label prints literally on one line of a table.
pub(crate) fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '|' => out.push_str("\\textbar{}"),
            '\r' | '\n' => out.push(' '),
            // An impossible cell's dash, as LaTeX writes an em dash.
            '—' => out.push_str("---"),
            '%' | '_' | '&' | '#' | '$' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use num_rational::Ratio;

    use super::*;

    #[test]
    fn a_table_wider_than_the_terminal_is_cut_into_tables_that_fit() {
        let grid = Grid {
            head: std::iter::once("upcard".to_string())
                .chain((2..=11).map(|v| format!("removed {v}")))
                .collect(),
            rows: (0..3)
                .map(|r| {
                    std::iter::once(format!("row {r}"))
                        .chain((0..10).map(|c| format!("{:.3}", -0.1 * f64::from(r * 10 + c))))
                        .collect()
                })
                .collect(),
        };
        let whole = tabled_text(&grid);
        assert_eq!(tabled_text_fitted(&grid, None), whole);
        assert_eq!(tabled_text_fitted(&grid, Some(500)), whole);
        let fitted = tabled_text_fitted(&grid, Some(60));
        assert!(text_width(&whole) > 60);
        assert!(text_width(&fitted) <= 60, "{fitted}");
        // Every cell once, whole; the labels once per table.
        let tables = fitted.matches('╭').count();
        assert!(tables >= 2, "{fitted}");
        for row in &grid.rows {
            for cell in &row[1..] {
                assert_eq!(fitted.matches(&format!(" {cell} ")).count(), 1, "{cell}");
            }
            assert_eq!(fitted.matches(&row[0]).count(), tables);
        }
        // Too narrow for a label and one column: the words wrap.
        let narrow = tabled_text_fitted(&grid, Some(18));
        assert!(text_width(&narrow) <= 18, "{narrow}");
    }

    fn q(numer: i64, denom: i64) -> BigRational {
        BigRational::new(BigInt::from(numer), BigInt::from(denom))
    }

    // -- numbers ------------------------------------------------------------

    #[test]
    fn fraction_text_is_reduced_with_bare_integers() {
        let check = |r: BigRational, expected: &str| assert_eq!(fraction_text(&r), expected);
        check(q(6311, 17850), "6311/17850");
        check(q(0, 5), "0");
        check(q(7, 7), "1");
        // Unreduced and negative-denominator values built without `new`.
        check(Ratio::new_raw(BigInt::from(2), BigInt::from(4)), "1/2");
        check(Ratio::new_raw(BigInt::from(0), BigInt::from(9)), "0");
        check(Ratio::new_raw(BigInt::from(3), BigInt::from(3)), "1");
        check(Ratio::new_raw(BigInt::from(1), BigInt::from(-3)), "-1/3");
        check(Ratio::new_raw(BigInt::from(1), BigInt::from(0)), "1/0");
    }

    #[test]
    fn exact_percent_rounds_half_away_from_zero_from_the_rational() {
        let check = |r: BigRational, decimals: usize, expected: &str| {
            assert_eq!(exact_percent(&r, decimals), expected, "{r} at {decimals}")
        };
        check(q(1, 3), 2, "33.33");
        check(q(2, 3), 2, "66.67");
        check(q(1, 8), 0, "13");
        check(q(1, 800), 1, "0.1");
        check(q(1, 1600), 2, "0.06");
        check(q(0, 1), 2, "0.00");
        check(q(1, 1), 2, "100.00");
        check(q(1, 1), 0, "100");
        check(q(-1, 3), 1, "-33.3");
        check(q(-1, 100_000), 1, "0.0");
        check(Ratio::new_raw(BigInt::from(1), BigInt::from(0)), 2, "NaN");
    }

    #[test]
    fn interval_bound_rounds_up_to_two_significant_digits() {
        let check = |x: f64, expected: &str| assert_eq!(round_up_two_significant(x), expected);
        check(0.0437, "0.044");
        check(0.04, "0.040");
        check(1.23, "1.3");
        check(12.1, "13");
        check(0.0, "0");
        check(f64::NAN, "0");
    }

    #[test]
    fn readable_percentages_keep_the_digits_asked_for_otherwise() {
        assert_eq!(readable_float_percent(0.1234, 2), "12.34");
        assert_eq!(readable_float_percent(0.00004, 2), "0.0040");
        assert_eq!(readable_float_percent(0.00004, 4), "0.0040");
        assert_eq!(readable_float_percent(0.0, 2), "0.00");
        assert_eq!(readable_float_percent(-0.000_000_5, 2), "-0.000050");
        assert_eq!(readable_float_percent(1e-20, 2), "1.0e-18");
        assert_eq!(readable_exact_percent(&q(1, 3), 2), "33.33");
        assert_eq!(readable_exact_percent(&q(1, 30_000), 2), "0.0033");
        assert_eq!(
            readable_exact_percent(&Ratio::new_raw(BigInt::from(0), BigInt::from(0)), 2),
            "n/a"
        );
    }
}
