//! Rendering of comparison results: agreement tests between distributions
//! ([`render_agreements`]) and checks of published tables
//! ([`render_published_check`]), in every [`Format`].
//!
//! Architecture invariant: like the rest of `report`, these functions only
//! build strings; they compute no statistics (everything shown comes from
//! `compare`) and do no I/O. Every string they return ends with a newline.

use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::key_columns::KeyColumns;
use super::table::latex_escape;
use super::{Format, RenderOptions, RunBlocks};
use crate::compare::{
    Agreement, OverallVerdict, PublishedCellCheck, PublishedCheck, SampleSize, TestKind, Verdict,
};
use crate::contract::comparison::{
    AgreementRow, Agreements, Comparison, PublishedCell, PublishedCheck as PublishedDocument,
    PublishedRow, PublishedTag, Sample, SampleKind, TestName, VerdictName, finite,
};
use crate::contract::{self, Tag};

/// Shown where a z-score is undefined (expected probability 0 or 1).
const UNDEFINED: &str = "—";

/// Renders agreement tests, one per distribution key, in `format`.
///
/// - Table and Md: the title (Table: then the overall verdict, `verdict:
///   agree ...` or `verdict: disagree: 2 of 10 (upcard=5, upcard=A) ...`),
///   a summary table (key, trials, χ², df, p-value,
///   max |z|, TVD, verdict; max |z| is `—` where no outcome the test kept
///   whole has a z-score, and a sentence says so), the level the verdicts
///   use, any pooled bins,
///   then a table of per-outcome z-scores (rows keys, columns outcomes, two
///   decimals; `—` where undefined, blank where a key lacks the outcome).
/// - Csv: long form, one row per (key, outcome) with every number at full
///   precision; an undefined z (or max |z|) is an empty field.
/// - Json: `{"comparison", "title", "level", "rows": [...]}` with every field
///   of [`Agreement`]; `comparison` and `level` are `null` when the rows
///   mix test kinds or levels (each row carries its own); non-finite numbers
///   are `null`.
/// - Latex: a booktabs tabular of the summary, specials escaped.
///
/// The JSON carries `options.blocks` after its own keys; the other formats
/// take nothing from `options`. The result ends with a newline.
pub fn render_agreements(
    title: &str,
    agreements: &[Agreement],
    format: Format,
    options: &RenderOptions,
) -> String {
    match format {
        Format::Table | Format::Md => agreements_text(title, agreements, format),
        Format::Csv => agreements_csv(agreements),
        Format::Json => agreements_json(title, agreements, &options.blocks),
        Format::Latex => agreements_latex(title, agreements),
    }
}

/// Renders the check of a published table in `format`.
///
/// - Table and Md: the title (Table: then the verdict, `verdict:
///   consistent (all 70 cells)` or `verdict: INCONSISTENT: 61 of 70
///   cells`), a matrix (rows = row labels, columns =
///   outcomes) whose cells show the published text, `✓` when consistent or
///   `✗` when not, and the exact percentage with z beside it
///   (`13.13 ✗ (11.593, z=+4.2)`); then one chi-square line per row (sampled tables only), and a
///   closing line naming the inconsistent cells as `row/outcome` (or saying
///   all are consistent) with the level and critical |z| used; then, when
///   there are any, the exact distributions no row stands for (`Missing
///   rows: ...`) and the `notes` (what the caller advises, such as
///   checking the rules). Exact
///   percentages use `options.percent_decimals`, or the cell's own number
///   of decimals if that is more.
/// - Csv: one row per (row, outcome) with every number at full precision.
/// - Json: `{"comparison": "published-table", "title", "level", "sample",
///   "z_critical", "cells_tested", "consistent", "inconsistent", "rows"}`,
///   and `"missing_rows"` and `"notes"` when there are any, then
///   `options.blocks`.
/// - Latex: a booktabs tabular of the matrix, inconsistent cells in bold
///   with the exact percentage after them, and the row p-values.
///
/// The result ends with a newline.
pub fn render_published_check(
    title: &str,
    check: &PublishedCheck,
    notes: &[String],
    format: Format,
    options: &RenderOptions,
) -> String {
    match format {
        Format::Table | Format::Md => published_text(title, check, notes, format, options),
        Format::Csv => published_csv(check),
        Format::Json => published_json(title, check, notes, &options.blocks),
        Format::Latex => published_latex(title, check, options),
    }
}

// ---------------------------------------------------------------------------
// Agreements
// ---------------------------------------------------------------------------

fn agreements_text(title: &str, agreements: &[Agreement], format: Format) -> String {
    let mut out = Blocks::new(format);
    out.title(title);
    // The terminal leads with the answer; the Markdown files stay as they
    // were.
    if format == Format::Table && !agreements.is_empty() {
        out.text(&overall_sentence(agreements));
    }
    if agreements.is_empty() {
        out.text("(no distributions to compare)");
        return out.finish();
    }

    let header = [
        "key", "trials", "χ²", "df", "p-value", "max |z|", "TVD", "verdict",
    ];
    let rows: Vec<Vec<String>> = agreements
        .iter()
        .map(|a| {
            vec![
                a.key.clone(),
                trials_text(a),
                fixed(a.chi_square, 2),
                a.degrees_of_freedom.to_string(),
                p_value_text(a.p_value),
                a.max_abs_z
                    .map_or_else(|| UNDEFINED.to_string(), |z| fixed(z, 2)),
                fixed(a.total_variation, 4),
                a.verdict.name().to_string(),
            ]
        })
        .collect();
    out.grid(&header.map(String::from), &rows, 1..7);
    out.text(&level_sentence(agreements));
    let pooled: Vec<String> = agreements
        .iter()
        .filter(|a| !a.pooled_bins.is_empty())
        .map(|a| format!("{}: {}", a.key, pooled_groups_text(a, " ")))
        .collect();
    if !pooled.is_empty() {
        out.text(&format!(
            "Pooled because the expected count was below 5 (max |z| leaves these out): {}.",
            pooled.join("; ")
        ));
    }
    let without_z: Vec<&str> = agreements
        .iter()
        .filter(|a| a.max_abs_z.is_none())
        .map(|a| a.key.as_str())
        .collect();
    if !without_z.is_empty() {
        out.text(&format!(
            "max |z| is {UNDEFINED} for {}: no outcome the test kept whole has a z-score (each was pooled, or its expected probability is 0 or 1).",
            without_z.join(", ")
        ));
    }

    let impossible: Vec<&str> = agreements
        .iter()
        .filter(|a| a.test == TestKind::GoodnessOfFit && a.chi_square == f64::INFINITY)
        .map(|a| a.key.as_str())
        .collect();
    if !impossible.is_empty() {
        // `goodness_of_fit` sets an infinite statistic only for this case;
        // say why, since "inf" alone looks like a numerical failure.
        out.text(&format!(
            "χ² is infinite for {}: a count fell in an outcome of exact probability 0.",
            impossible.join(", ")
        ));
    }

    out.gap();
    out.text(&format!(
        "z-scores per outcome ({}):",
        match common_kind(agreements) {
            Some(TestKind::Homogeneity) => "difference of the two proportions, in standard errors",
            _ => "observed minus expected count, in standard errors",
        }
    ));
    let outcomes = union_in_order(agreements.iter().map(|a| a.outcomes.as_slice()));
    let mut z_header = vec!["key".to_string()];
    z_header.extend(outcomes.iter().cloned());
    let z_rows: Vec<Vec<String>> = agreements
        .iter()
        .map(|a| {
            let mut row = vec![a.key.clone()];
            row.extend(
                outcomes
                    .iter()
                    .map(|o| match a.outcomes.iter().position(|x| x == o) {
                        Some(i) => z_text(a.z_scores.get(i).copied().flatten(), 2),
                        None => String::new(),
                    }),
            );
            row
        })
        .collect();
    out.grid(&z_header, &z_rows, 1..z_header.len());
    out.finish()
}

fn agreements_csv(agreements: &[Agreement]) -> String {
    let header = [
        "test",
        "key",
        "outcome",
        "trials",
        "trials_b",
        "chi_square",
        "degrees_of_freedom",
        "p_value",
        "max_abs_z",
        "total_variation",
        "level",
        "verdict",
        "z",
        "pooled_with",
    ];
    // One column per parameter of the keys after `key`, as in a report's
    // CSV.
    let key_columns = KeyColumns::of(agreements.iter().map(|a| a.key.as_str()));
    let mut records = Vec::new();
    for a in agreements {
        for (i, outcome) in a.outcomes.iter().enumerate() {
            let pooled_with = a
                .pooled_bins
                .iter()
                .find(|group| group.contains(&i))
                .map(|group| group_labels(a, group).join("+"))
                .unwrap_or_default();
            let mut record = vec![a.test.name().to_string(), a.key.clone()];
            record.extend(key_columns.cells(&a.key));
            record.extend([
                outcome.clone(),
                a.trials.to_string(),
                a.trials_b.map(|n| n.to_string()).unwrap_or_default(),
                full(a.chi_square),
                a.degrees_of_freedom.to_string(),
                full(a.p_value),
                a.max_abs_z.map(full).unwrap_or_default(),
                full(a.total_variation),
                full(a.level),
                a.verdict.name().to_string(),
                a.z_scores
                    .get(i)
                    .copied()
                    .flatten()
                    .map(full)
                    .unwrap_or_default(),
                pooled_with,
            ]);
            records.push(record);
        }
    }
    let header = key_columns.spliced_header(&header, 2);
    csv_text(
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
        &records,
    )
}

/// One agreement as the contract's row (non-finite numbers `null`).
pub(super) fn agreement_row(a: &Agreement) -> AgreementRow {
    AgreementRow {
        key: a.key.clone(),
        test: test_name(a.test),
        outcomes: a.outcomes.clone(),
        trials: a.trials,
        trials_b: a.trials_b,
        chi_square: finite(a.chi_square),
        degrees_of_freedom: a.degrees_of_freedom,
        p_value: finite(a.p_value),
        pooled_bins: a.pooled_bins.clone(),
        pooled_outcomes: a
            .pooled_bins
            .iter()
            .map(|group| group_labels(a, group))
            .collect(),
        z_scores: a.z_scores.iter().map(|z| z.and_then(finite)).collect(),
        max_abs_z: a.max_abs_z.and_then(finite),
        total_variation: finite(a.total_variation),
        level: finite(a.level),
        verdict: match a.verdict {
            Verdict::Agree => VerdictName::Agree,
            Verdict::Disagree => VerdictName::Disagree,
        },
    }
}

fn agreements_json(title: &str, agreements: &[Agreement], blocks: &RunBlocks) -> String {
    let rows = agreements.iter().map(agreement_row).collect();
    json_text(&Comparison::Agreements(Agreements {
        schema: Tag::new(),
        comparison: common_kind(agreements).map(test_name),
        title: title.to_string(),
        level: common_level(agreements).and_then(finite),
        rows,
        precision: blocks.precision.clone(),
        shard: blocks.shard.clone(),
    }))
}

/// A test's name in the contract.
fn test_name(kind: TestKind) -> TestName {
    match kind {
        TestKind::GoodnessOfFit => TestName::GoodnessOfFit,
        TestKind::Homogeneity => TestName::Homogeneity,
    }
}

fn agreements_latex(title: &str, agreements: &[Agreement]) -> String {
    let mut out = latex_comment(title);
    out.push_str("\\begin{tabular}{lrrrrrrl}\n\\toprule\n");
    out.push_str(
        "Key & Trials & $\\chi^2$ & df & $p$ & max $|z|$ & TVD & Verdict \\\\\n\\midrule\n",
    );
    for a in agreements {
        let cells = [
            latex_escape(&a.key),
            latex_escape(&trials_text(a)),
            latex_number(a.chi_square, 2),
            a.degrees_of_freedom.to_string(),
            latex_p_value(a.p_value),
            a.max_abs_z
                .map_or_else(|| "---".to_string(), |z| latex_number(z, 2)),
            latex_number(a.total_variation, 4),
            a.verdict.name().to_string(),
        ];
        out.push_str(&cells.join(" & "));
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    if !agreements.is_empty() {
        out.push_str(&latex_comment(&level_sentence(agreements)));
    }
    out
}

/// The verdict over all `agreements`: `verdict: agree (all 10 at level
/// 0.001)` or `verdict: disagree: 2 of 10 (upcard=5, upcard=A) at level
/// 0.001`.
fn overall_sentence(agreements: &[Agreement]) -> String {
    let overall = OverallVerdict::of(agreements);
    let level = common_level(agreements).map_or_else(
        || "their levels".to_string(),
        |l| format!("level {}", level_text(l)),
    );
    match (overall.agrees(), overall.tested) {
        (true, 1) => format!("verdict: agree at {level}"),
        (true, n) => format!("verdict: agree (all {n} at {level})"),
        (false, 1) => format!("verdict: DISAGREE at {level}"),
        (false, n) => format!(
            "verdict: DISAGREE: {} of {n} ({}) at {level}",
            overall.disagreeing.len(),
            overall.disagreeing.join(", ")
        ),
    }
}

fn trials_text(a: &Agreement) -> String {
    match a.trials_b {
        Some(b) => format!("{} / {b}", a.trials),
        None => a.trials.to_string(),
    }
}

fn level_sentence(agreements: &[Agreement]) -> String {
    match common_level(agreements) {
        Some(level) => format!(
            "Verdicts at level {}: disagree when the p-value is below {}.",
            level_text(level),
            level_text(level)
        ),
        None => {
            let levels: Vec<String> = agreements
                .iter()
                .map(|a| format!("{} at {}", a.key, level_text(a.level)))
                .collect();
            format!(
                "Verdicts: disagree when the p-value is below the level ({}).",
                levels.join(", ")
            )
        }
    }
}

/// The pooled groups of `a` as outcome labels, e.g. `{19+20} {21+natural}`.
fn pooled_groups_text(a: &Agreement, separator: &str) -> String {
    a.pooled_bins
        .iter()
        .map(|group| format!("{{{}}}", group_labels(a, group).join("+")))
        .collect::<Vec<_>>()
        .join(separator)
}

fn group_labels(a: &Agreement, group: &[usize]) -> Vec<String> {
    group
        .iter()
        .map(|&i| a.outcomes.get(i).cloned().unwrap_or_else(|| i.to_string()))
        .collect()
}

/// The one test kind of all `agreements`, or `None` if they mix kinds or
/// there are none.
fn common_kind(agreements: &[Agreement]) -> Option<TestKind> {
    let first = agreements.first()?.test;
    agreements.iter().all(|a| a.test == first).then_some(first)
}

/// The one level of all `agreements`, or `None` if they differ or there are
/// none.
fn common_level(agreements: &[Agreement]) -> Option<f64> {
    let first = agreements.first()?.level;
    agreements.iter().all(|a| a.level == first).then_some(first)
}

// ---------------------------------------------------------------------------
// Published tables
// ---------------------------------------------------------------------------

fn published_text(
    title: &str,
    check: &PublishedCheck,
    notes: &[String],
    format: Format,
    options: &RenderOptions,
) -> String {
    let mut out = Blocks::new(format);
    out.title(title);
    if format == Format::Table {
        // The terminal leads with the answer.
        let cells = check.cells();
        out.text(&if check.all_consistent() {
            format!("verdict: consistent (all {cells} cells)")
        } else {
            format!(
                "verdict: INCONSISTENT: {} of {cells} cells",
                check.inconsistent.len()
            )
        });
    }
    out.text(&sample_sentence(check));

    let outcomes = published_outcomes(check);
    let mut header = vec!["".to_string()];
    header.extend(outcomes.iter().cloned());
    let rows: Vec<Vec<String>> = check
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![row.label.clone()];
            cells.extend(outcomes.iter().map(|o| {
                row.cells
                    .iter()
                    .find(|c| &c.outcome == o)
                    .map(|c| cell_text(c, options))
                    .unwrap_or_default()
            }));
            cells
        })
        .collect();
    out.grid(&header, &rows, 1..header.len());

    let chi_lines: Vec<String> = check
        .rows
        .iter()
        .filter_map(|row| {
            let hands = row.hands?;
            Some(
                match (row.chi_square, row.degrees_of_freedom, row.p_value) {
                    (Some(chi), Some(df), Some(p)) => format!(
                        "{}: χ² = {}, df = {df}, p = {} ({} hands)",
                        row.label,
                        fixed(chi, 2),
                        p_value_text(p),
                        hands_text(hands)
                    ),
                    _ => format!(
                        "{}: χ² not computed (the columns do not cover every outcome)",
                        row.label
                    ),
                },
            )
        })
        .collect();
    if !chi_lines.is_empty() {
        out.text(
            "Row chi-square (observed = hands × published %, over outcomes of positive probability):",
        );
        out.list(&chi_lines);
    }
    out.text(&verdict_sentence(check));
    if !check.missing_rows.is_empty() {
        out.text(&format!(
            "Missing rows: the table has none for {}, so they were not checked.",
            check.missing_rows.join(", ")
        ));
    }
    for note in notes {
        out.text(note);
    }
    out.finish()
}

fn published_csv(check: &PublishedCheck) -> String {
    let header = [
        "row",
        "key",
        "outcome",
        "text",
        "exact_percent",
        "hands",
        "z",
        "consistent",
        "row_chi_square",
        "row_degrees_of_freedom",
        "row_p_value",
        "level",
        "z_critical",
    ];
    // One column per parameter of the keys after `key`, as in a report's
    // CSV.
    let key_columns = KeyColumns::of(check.rows.iter().map(|row| row.key.as_str()));
    let mut records = Vec::new();
    for row in &check.rows {
        for cell in &row.cells {
            let mut record = vec![row.label.clone(), row.key.clone()];
            record.extend(key_columns.cells(&row.key));
            record.extend([
                cell.outcome.clone(),
                cell.text.clone(),
                full(cell.exact_percent),
                row.hands.map(full).unwrap_or_default(),
                cell.z.map(full).unwrap_or_default(),
                cell.consistent.to_string(),
                row.chi_square.map(full).unwrap_or_default(),
                row.degrees_of_freedom
                    .map(|d| d.to_string())
                    .unwrap_or_default(),
                row.p_value.map(full).unwrap_or_default(),
                full(check.level),
                full(check.z_critical),
            ]);
            records.push(record);
        }
    }
    let header = key_columns.spliced_header(&header, 2);
    csv_text(
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
        &records,
    )
}

fn published_json(
    title: &str,
    check: &PublishedCheck,
    notes: &[String],
    blocks: &RunBlocks,
) -> String {
    let sample = match check.sample {
        SampleSize::Exact => Sample {
            kind: SampleKind::Exact,
            hands: None,
        },
        SampleSize::PerRow(n) => Sample {
            kind: SampleKind::PerRow,
            hands: finite(n),
        },
        SampleSize::Total(n) => Sample {
            kind: SampleKind::Total,
            hands: finite(n),
        },
    };
    let rows = check
        .rows
        .iter()
        .map(|row| PublishedRow {
            label: row.label.clone(),
            key: row.key.clone(),
            hands: row.hands.and_then(finite),
            chi_square: row.chi_square.and_then(finite),
            degrees_of_freedom: row.degrees_of_freedom,
            p_value: row.p_value.and_then(finite),
            cells: row
                .cells
                .iter()
                .map(|cell| PublishedCell {
                    outcome: cell.outcome.clone(),
                    text: cell.text.clone(),
                    exact_percent: finite(cell.exact_percent),
                    z: cell.z.and_then(finite),
                    consistent: cell.consistent,
                })
                .collect(),
        })
        .collect();
    json_text(&Comparison::Published(PublishedDocument {
        schema: Tag::new(),
        comparison: PublishedTag::PublishedTable,
        title: title.to_string(),
        level: finite(check.level),
        sample,
        z_critical: finite(check.z_critical),
        cells_tested: check.cells_tested,
        consistent: check.all_consistent(),
        inconsistent: check.inconsistent.clone(),
        rows,
        // Only when there are any (the contract leaves empty lists out),
        // so that complete tables' files are as before.
        missing_rows: check.missing_rows.clone(),
        notes: notes.to_vec(),
        precision: blocks.precision.clone(),
        shard: blocks.shard.clone(),
    }))
}

fn published_latex(title: &str, check: &PublishedCheck, options: &RenderOptions) -> String {
    let outcomes = published_outcomes(check);
    let sampled = check.rows.iter().any(|row| row.hands.is_some());
    let mut out = latex_comment(title);
    out.push_str(&latex_comment(&sample_sentence(check)));
    out.push_str(&format!(
        "\\begin{{tabular}}{{l{}{}}}\n\\toprule\n",
        "r".repeat(outcomes.len()),
        if sampled { "r" } else { "" }
    ));
    let mut header: Vec<String> = vec![String::new()];
    header.extend(outcomes.iter().map(|o| latex_escape(o)));
    if sampled {
        header.push("$p$ ($\\chi^2$)".to_string());
    }
    out.push_str(&header.join(" & "));
    out.push_str(" \\\\\n\\midrule\n");
    for row in &check.rows {
        let mut cells = vec![latex_escape(&row.label)];
        cells.extend(
            outcomes
                .iter()
                .map(|o| match row.cells.iter().find(|c| &c.outcome == o) {
                    Some(c) if c.consistent => latex_escape(&c.text),
                    Some(c) => format!(
                        "\\textbf{{{}}}\\,({})",
                        latex_escape(&c.text),
                        fixed(c.exact_percent, shown_decimals(c, options))
                    ),
                    None => String::new(),
                }),
        );
        if sampled {
            cells.push(row.p_value.map(latex_p_value).unwrap_or_default());
        }
        out.push_str(&cells.join(" & "));
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&latex_comment(&verdict_sentence(check)));
    out
}

/// The cell as shown in the Table and Md matrix: the published figure, its
/// verdict, and beside it the exact percentage (and z, for sampled tables),
/// so the table reads side by side.
fn cell_text(cell: &PublishedCellCheck, options: &RenderOptions) -> String {
    let mark = if cell.consistent { "✓" } else { "✗" };
    let decimals = shown_decimals(cell, options);
    let exact = fixed(cell.exact_percent, decimals);
    // An exact fraction is shown as its percentage: the fraction is in the
    // file, and a column of them would not fit a screen.
    let printed = if cell.exact {
        fixed(cell.published_percent, decimals)
    } else {
        cell.text.clone()
    };
    match (cell.z, cell.exact && cell.consistent) {
        (_, true) => format!("{printed} {mark}"),
        (Some(z), false) => format!("{printed} {mark} ({exact}, z={})", z_text(Some(z), 1)),
        (None, false) => format!("{printed} {mark} ({exact})"),
    }
}

/// Decimals for an exact percentage beside a printed one: one more than the
/// printed figure has (at least `percent_decimals`), so the reader sees
/// which way the exact value rounds; for an exact fraction, two more than
/// `percent_decimals`.
fn shown_decimals(cell: &PublishedCellCheck, options: &RenderOptions) -> usize {
    if cell.exact {
        return options.percent_decimals + 2;
    }
    let printed = cell.text.split_once('.').map_or(0, |(_, f)| f.len());
    options.percent_decimals.max(printed + 1)
}

fn sample_sentence(check: &PublishedCheck) -> String {
    match check.sample {
        SampleSize::Exact => {
            "Checked as exact values: a cell is consistent when the exact percentage rounds to it."
                .to_string()
        }
        SampleSize::PerRow(n) => {
            format!("Checked as estimates from {} hands per row.", hands_text(n))
        }
        SampleSize::Total(n) => format!(
            "Checked as estimates from {} hands in all, {} per row.",
            hands_text(n),
            hands_text(n / check.rows.len().max(1) as f64)
        ),
    }
}

fn verdict_sentence(check: &PublishedCheck) -> String {
    let cells: usize = check.rows.iter().map(|row| row.cells.len()).sum();
    let criterion = match check.sample {
        SampleSize::Exact => "exact rounding check".to_string(),
        _ => format!(
            "family-wise level {}, Bonferroni over {} cells with a z-score: |z| ≤ {}",
            level_text(check.level),
            check.cells_tested,
            fixed(check.z_critical, 2)
        ),
    };
    if check.inconsistent.is_empty() {
        format!("All {cells} cells consistent ({criterion}).")
    } else {
        format!(
            "Inconsistent: {} of {cells} cells ({criterion}): {}.",
            check.inconsistent.len(),
            check.inconsistent.join(", ")
        )
    }
}

fn published_outcomes(check: &PublishedCheck) -> Vec<String> {
    let per_row: Vec<Vec<String>> = check
        .rows
        .iter()
        .map(|row| row.cells.iter().map(|c| c.outcome.clone()).collect())
        .collect();
    union_in_order(per_row.iter().map(Vec::as_slice))
}

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

/// Every label of `lists`, in first-seen order, once.
fn union_in_order<'a>(lists: impl Iterator<Item = &'a [String]>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for list in lists {
        for label in list {
            if !all.contains(label) {
                all.push(label.clone());
            }
        }
    }
    all
}

/// Text output for the Table and Md formats, built block by block: Md
/// separates blocks by a blank line (Markdown needs one around tables and
/// paragraphs), Table by a line break only, with [`Blocks::gap`] for a
/// blank line where one helps the eye.
struct Blocks {
    format: Format,
    parts: Vec<String>,
}

impl Blocks {
    fn new(format: Format) -> Blocks {
        Blocks {
            format,
            parts: Vec::new(),
        }
    }

    fn md(&self) -> bool {
        self.format == Format::Md
    }

    fn title(&mut self, title: &str) {
        let block = if self.md() {
            format!("**{}**", md_escape(title))
        } else {
            title.to_string()
        };
        self.parts.push(block);
    }

    fn text(&mut self, text: &str) {
        let block = if self.md() {
            md_escape(text)
        } else {
            text.to_string()
        };
        self.parts.push(block);
    }

    fn list(&mut self, lines: &[String]) {
        let prefix = if self.md() { "- " } else { "  " };
        let block: Vec<String> = lines
            .iter()
            .map(|line| {
                let line = if self.md() {
                    md_escape(line)
                } else {
                    line.clone()
                };
                format!("{prefix}{line}")
            })
            .collect();
        self.parts.push(block.join("\n"));
    }

    fn gap(&mut self) {
        if !self.md() {
            self.parts.push(String::new());
        }
    }

    /// A table in the rounded-box (Table) or Markdown style. Columns in
    /// `right` are right-aligned (numbers).
    fn grid(&mut self, header: &[String], rows: &[Vec<String>], right: std::ops::Range<usize>) {
        let md = self.md();
        let cell = |s: &String| if md { md_escape(s) } else { s.clone() };
        let mut builder = Builder::new();
        builder.push_record(header.iter().map(cell));
        for row in rows {
            builder.push_record(row.iter().map(cell));
        }
        let mut table = builder.build();
        if md {
            table.with(Style::markdown());
        } else {
            table.with(Style::rounded());
        }
        for column in right.start..right.end.min(header.len()) {
            table.modify(Columns::one(column), Alignment::right());
        }
        self.parts.push(table.to_string());
    }

    /// The text, ending with exactly one newline.
    fn finish(self) -> String {
        let separator = if self.md() { "\n\n" } else { "\n" };
        let mut text = self.parts.join(separator);
        text.push('\n');
        text
    }
}

/// Escapes what would break a Markdown table cell or start emphasis.
fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '|' | '*' | '_' | '\\' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A number with `decimals` places; `inf`, `-inf` or `NaN` when not finite.
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        non_finite(x)
    }
}

fn non_finite(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else if x > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// A z-score with an explicit sign, or the undefined marker.
fn z_text(z: Option<f64>, decimals: usize) -> String {
    match z {
        Some(z) if z.is_finite() => format!("{z:+.decimals$}"),
        Some(z) => non_finite(z),
        None => UNDEFINED.to_string(),
    }
}

/// A p-value as `0.4321`, or `3.2e-7` below 0.0001 where four decimals
/// would show only zeros; exactly 0 as `0`.
fn p_value_text(p: f64) -> String {
    if !p.is_finite() {
        non_finite(p)
    } else if p == 0.0 {
        "0".to_string()
    } else if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// A significance level as written, e.g. `0.05` (shortest exact form).
fn level_text(level: f64) -> String {
    format!("{level}")
}

fn hands_text(hands: f64) -> String {
    if hands.fract() == 0.0 {
        format!("{hands:.0}")
    } else {
        format!("{hands:.1}")
    }
}

/// A number at full (shortest round-trip) precision, for CSV.
fn full(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        non_finite(x)
    }
}

/// A comparison's document as JSON text, ending with a newline.
fn json_text(document: &Comparison) -> String {
    let mut text = contract::write(document);
    text.push('\n');
    text
}

fn csv_text(header: &[&str], records: &[Vec<String>]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail for I/O reasons; a failure would only
    // lose the row, never panic.
    let mut ok = writer.write_record(header).is_ok();
    for record in records {
        ok &= writer.write_record(record).is_ok();
    }
    debug_assert!(ok, "writing CSV to memory failed");
    let bytes = writer.into_inner().unwrap_or_default();
    let mut text = String::from_utf8(bytes).unwrap_or_default();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A LaTeX comment line (`%`), one per line of `text`.
fn latex_comment(text: &str) -> String {
    text.lines().map(|line| format!("% {line}\n")).collect()
}

fn latex_number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        fixed(x, decimals)
    } else if x > 0.0 {
        "$\\infty$".to_string()
    } else if x < 0.0 {
        "$-\\infty$".to_string()
    } else {
        "NaN".to_string()
    }
}

/// A p-value in LaTeX: `0.4321`, or `$3.2\times10^{-7}$`.
fn latex_p_value(p: f64) -> String {
    let text = p_value_text(p);
    match text.split_once('e') {
        Some((mantissa, exponent)) => format!("${mantissa}\\times10^{{{exponent}}}$"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    use serde_json::Value;

    use super::*;
    use crate::compare::{PublishedTable, check_published, goodness_of_fit, homogeneity};
    use crate::distribution::{CountDistribution, ExactDistribution};

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn exact(key: &str, outcomes: &[&str], probabilities: &[(i64, i64)]) -> ExactDistribution {
        ExactDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            probabilities: probabilities
                .iter()
                .map(|&(n, d)| BigRational::new(BigInt::from(n), BigInt::from(d)))
                .collect(),
        }
    }

    fn counts(key: &str, outcomes: &[&str], counts: &[u64]) -> CountDistribution {
        CountDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            counts: counts.to_vec(),
        }
    }

    /// Three goodness-of-fit results: a close fit, a clear misfit, and one
    /// with a count where the probability is zero; the last two pool bins.
    fn agreements() -> Vec<Agreement> {
        let outcomes = ["bust", "17", "natural"];
        let d = exact("upcard=2", &outcomes, &[(1, 3), (1, 6), (1, 2)]);
        let fit = goodness_of_fit(&d, &counts("upcard=2", &outcomes, &[205, 97, 298]), 0.05);
        // n = 500: expected 250, 247.5, 2.5 and 0, so z pools into y.
        let e = exact(
            "upcard_A",
            &["x", "y", "z", "never"],
            &[(1, 2), (99, 200), (1, 200), (0, 1)],
        );
        let misfit = goodness_of_fit(
            &e,
            &counts("upcard_A", &["x", "y", "z", "never"], &[300, 192, 8, 0]),
            0.05,
        );
        let e3 = ExactDistribution {
            key: "upcard=3".to_string(),
            ..e.clone()
        };
        let impossible = goodness_of_fit(
            &e3,
            &counts("upcard=3", &["x", "y", "z", "never"], &[249, 248, 2, 1]),
            0.05,
        );
        vec![
            fit.expect("valid"),
            misfit.expect("valid"),
            impossible.expect("valid"),
        ]
    }

    fn homogeneity_result() -> Agreement {
        let a = counts("upcard=2", &["bust", "17"], &[30, 70]);
        let b = counts("upcard=2", &["bust", "17"], &[50, 150]);
        homogeneity(&a, &b, 0.01).expect("valid")
    }

    fn row_key(label: &str) -> Option<String> {
        match label {
            "2" => Some("upcard=2".to_string()),
            "T" | "J" => Some("upcard=10".to_string()),
            _ => None,
        }
    }

    fn published(sample: SampleSize) -> PublishedCheck {
        let exact = [
            exact(
                "upcard=2",
                &["bust", "17", "natural"],
                &[(1, 3), (2, 3), (0, 1)],
            ),
            exact(
                "upcard=10",
                &["bust", "17", "natural"],
                &[(1, 5), (7, 10), (1, 10)],
            ),
        ];
        let table = PublishedTable::parse_csv(
            "up,bust,17,natural\n2,33.33,66.67,0.00\nT,20.00,70.00,10.00\nJ,25.31,64.69,10.0\n",
            &row_key,
        )
        .expect("valid table");
        check_published(&exact, &table, sample, 0.05).expect("valid check")
    }

    #[test]
    fn agreements_as_table() {
        insta::assert_snapshot!(render_agreements(
            "Exact vs Monte Carlo",
            &agreements(),
            Format::Table,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn agreements_as_markdown() {
        insta::assert_snapshot!(render_agreements(
            "Exact vs Monte Carlo",
            &agreements(),
            Format::Md,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn homogeneity_as_table() {
        insta::assert_snapshot!(render_agreements(
            "Run A vs run B",
            &[homogeneity_result()],
            Format::Table,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn published_sampled_as_table() {
        insta::assert_snapshot!(render_published_check(
            "Seed simulation",
            &published(SampleSize::Total(3000.0)),
            &[],
            Format::Table,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn published_sampled_as_markdown() {
        insta::assert_snapshot!(render_published_check(
            "Seed simulation",
            &published(SampleSize::PerRow(1000.0)),
            &[],
            Format::Md,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn published_exact_as_table() {
        insta::assert_snapshot!(render_published_check(
            "Seed exact table",
            &published(SampleSize::Exact),
            &[],
            Format::Table,
            &RenderOptions::default()
        ));
    }

    #[test]
    fn every_format_ends_with_a_newline() {
        let formats = [
            Format::Table,
            Format::Md,
            Format::Csv,
            Format::Json,
            Format::Latex,
        ];
        for format in formats {
            for text in [
                render_agreements("t", &agreements(), format, &RenderOptions::default()),
                render_agreements("t", &[], format, &RenderOptions::default()),
                render_published_check(
                    "t",
                    &published(SampleSize::Exact),
                    &[],
                    format,
                    &RenderOptions::default(),
                ),
                render_published_check(
                    "t",
                    &published(SampleSize::PerRow(500.0)),
                    &[],
                    format,
                    &RenderOptions::default(),
                ),
            ] {
                assert!(text.ends_with('\n'), "{format:?}: {text:?}");
                assert!(!text.ends_with("\n\n"), "{format:?}: {text:?}");
            }
        }
    }

    #[test]
    fn csv_is_long_form_with_full_precision() {
        let all = agreements();
        let text = render_agreements("t", &all, Format::Csv, &RenderOptions::default());
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().expect("header").clone();
        assert_eq!(&header[0], "test");
        let column = |name: &str| header.iter().position(|h| h == name).expect(name);
        // The keys' parameter (`upcard`) has its column after `key`.
        assert_eq!((column("key"), column("upcard")), (1, 2));
        let records: Vec<csv::StringRecord> = reader
            .records()
            .collect::<Result<_, _>>()
            .expect("valid CSV");
        assert_eq!(records.len(), 3 + 4 + 4);
        assert_eq!(&records[0][column("key")], "upcard=2");
        assert_eq!(&records[0][column("upcard")], "2");
        assert_eq!(&records[0][column("outcome")], "bust");
        let z: f64 = records[0][column("z")].parse().expect("a number");
        assert_eq!(z, all[0].z_scores[0].expect("defined"));
        let p: f64 = records[0][column("p_value")].parse().expect("a number");
        assert_eq!(p, all[0].p_value);
        // Undefined z is empty; the infinite statistic is spelled out.
        assert_eq!(&records[10][column("z")], "");
        assert_eq!(&records[10][column("chi_square")], "inf");
        assert_eq!(&records[10][column("p_value")], "0");
        // The misfit's z bin (expected 2.5) pooled into y.
        let pooled: Vec<&str> = records[3..7]
            .iter()
            .map(|r| &r[column("pooled_with")])
            .collect();
        assert_eq!(pooled, ["", "y+z", "y+z", ""]);
    }

    #[test]
    fn published_csv_has_one_row_per_cell() {
        let check = published(SampleSize::PerRow(1000.0));
        let text = render_published_check("t", &check, &[], Format::Csv, &RenderOptions::default());
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().expect("header").clone();
        let column = |name: &str| header.iter().position(|h| h == name).expect(name);
        assert_eq!((column("row"), column("key"), column("upcard")), (0, 1, 2));
        let records: Vec<csv::StringRecord> = reader
            .records()
            .collect::<Result<_, _>>()
            .expect("valid CSV");
        assert_eq!(records.len(), 9);
        let natural_2 = &records[2];
        assert_eq!(
            (
                &natural_2[column("row")],
                &natural_2[column("upcard")],
                &natural_2[column("outcome")],
                &natural_2[column("z")]
            ),
            ("2", "2", "natural", "")
        );
        assert_eq!(&natural_2[column("consistent")], "true");
        let j_bust = &records[6];
        assert_eq!(
            (&j_bust[column("row")], &j_bust[column("upcard")]),
            ("J", "10")
        );
        assert_eq!(&j_bust[column("consistent")], "false");
    }

    #[test]
    fn json_carries_every_field_and_nulls_non_finite_numbers() {
        let all = agreements();
        let text = render_agreements("Exact vs MC", &all, Format::Json, &RenderOptions::default());
        let value: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["comparison"], "goodness-of-fit");
        assert_eq!(value["title"], "Exact vs MC");
        assert_eq!(value["level"], 0.05);
        let rows = value["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0]["key"], "upcard=2");
        assert_eq!(rows[0]["trials"], 600);
        assert_eq!(rows[0]["trials_b"], Value::Null);
        assert_eq!(rows[0]["p_value"], all[0].p_value);
        assert_eq!(rows[0]["verdict"], "agree");
        assert_eq!(rows[2]["chi_square"], Value::Null);
        assert_eq!(rows[2]["p_value"], 0.0);
        assert_eq!(rows[2]["z_scores"][3], Value::Null);
        assert_eq!(rows[2]["verdict"], "disagree");
        assert!(
            rows[1]["pooled_bins"]
                .as_array()
                .is_some_and(|g| !g.is_empty())
        );
        for field in [
            "outcomes",
            "test",
            "degrees_of_freedom",
            "pooled_outcomes",
            "max_abs_z",
            "total_variation",
            "level",
        ] {
            assert!(rows[0].get(field).is_some(), "{field}");
        }

        let mixed = [all[0].clone(), homogeneity_result()];
        let value: Value = serde_json::from_str(&render_agreements(
            "t",
            &mixed,
            Format::Json,
            &RenderOptions::default(),
        ))
        .expect("JSON");
        assert_eq!(value["comparison"], Value::Null);
        assert_eq!(value["level"], Value::Null);
        assert_eq!(value["rows"][1]["test"], "homogeneity");
        assert_eq!(value["rows"][1]["trials_b"], 200);
    }

    /// A row where no outcome the test kept whole has a z-score (a
    /// certain outcome; every outcome pooled) has no max |z|: `—` and a
    /// sentence in the text, null in the JSON, an empty field in the CSV,
    /// `---` in LaTeX; never a 0 that reads as perfect agreement.
    #[test]
    fn a_row_without_a_z_score_has_no_max_z_in_any_format() {
        let certain = goodness_of_fit(
            &exact("certain", &["win", "loss"], &[(1, 1), (0, 1)]),
            &counts("certain", &["win", "loss"], &[10, 0]),
            0.05,
        )
        .expect("valid");
        // n = 4: expected 2 and 2, pooled into one group.
        let pooled = goodness_of_fit(
            &exact("pooled", &["a", "b"], &[(1, 2), (1, 2)]),
            &counts("pooled", &["a", "b"], &[4, 0]),
            0.05,
        )
        .expect("valid");
        let rows = [agreements()[0].clone(), certain, pooled];
        let options = RenderOptions::default();
        let md = render_agreements("t", &rows, Format::Md, &options);
        let max_z = |key: &str| {
            let line = md
                .lines()
                .find(|line| line.starts_with(&format!("| {key} ")))
                .unwrap_or_else(|| panic!("no row {key}: {md}"));
            line.split('|').nth(6).unwrap().trim().to_string()
        };
        assert!(max_z("upcard=2").parse::<f64>().is_ok(), "{md}");
        assert_eq!(max_z("certain"), "—");
        assert_eq!(max_z("pooled"), "—");
        // Markdown escapes the bars of |z|.
        assert!(
            md.contains(
                r"max \|z\| is — for certain, pooled: no outcome the test kept whole has a z-score"
            ),
            "{md}"
        );
        let first_only = render_agreements("t", &rows[..1], Format::Md, &options);
        assert!(!first_only.contains("is — for"), "{first_only}");

        let json: Value =
            serde_json::from_str(&render_agreements("t", &rows, Format::Json, &options)).unwrap();
        assert!(json["rows"][0]["max_abs_z"].is_f64());
        assert_eq!(json["rows"][1]["max_abs_z"], Value::Null);
        assert_eq!(json["rows"][2]["max_abs_z"], Value::Null);

        let csv = render_agreements("t", &rows, Format::Csv, &options);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let column = header.iter().position(|h| *h == "max_abs_z").unwrap();
        for line in csv.lines().skip(1) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields[column].is_empty(), fields[1] != "upcard=2", "{line}");
        }

        let latex = render_agreements("t", &rows, Format::Latex, &options);
        let certain_row = latex.lines().find(|l| l.starts_with("certain &")).unwrap();
        assert_eq!(certain_row.split(" & ").nth(5), Some("---"), "{latex}");
    }

    #[test]
    fn published_json_names_inconsistent_cells() {
        let check = published(SampleSize::PerRow(1000.0));
        let text =
            render_published_check("t", &check, &[], Format::Json, &RenderOptions::default());
        let value: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["comparison"], "published-table");
        assert_eq!(value["sample"]["kind"], "per-row");
        assert_eq!(value["sample"]["hands"], 1000.0);
        assert_eq!(value["consistent"], false);
        assert_eq!(value["inconsistent"][0], "J/bust");
        assert_eq!(value["rows"][0]["cells"][2]["z"], Value::Null);
        assert_eq!(value["rows"][2]["cells"][0]["consistent"], false);
        assert_eq!(value["z_critical"], check.z_critical);
        let exact: Value = serde_json::from_str(&render_published_check(
            "t",
            &published(SampleSize::Exact),
            &[],
            Format::Json,
            &RenderOptions::default(),
        ))
        .expect("valid JSON");
        assert_eq!(exact["sample"]["hands"], Value::Null);
        assert_eq!(exact["rows"][0]["chi_square"], Value::Null);
    }

    #[test]
    fn latex_uses_booktabs_and_escapes_specials() {
        let text = render_agreements(
            "50% of A&B #1",
            &agreements(),
            Format::Latex,
            &RenderOptions::default(),
        );
        for rule in ["\\toprule", "\\midrule", "\\bottomrule"] {
            assert_eq!(text.matches(rule).count(), 1, "{rule}");
        }
        // Inside a comment nothing needs escaping, only line breaks.
        assert!(
            text.starts_with("% 50% of A&B #1\n\\begin{tabular}"),
            "{text}"
        );
        assert!(text.contains("upcard\\_A &"), "{text}");
        assert!(text.contains("$\\infty$"), "{text}");
        // Five columns of numbers and the verdict: 8 cells per body row.
        let body = text
            .lines()
            .find(|l| l.starts_with("upcard=2"))
            .expect("row");
        assert_eq!(body.matches(" & ").count(), 7, "{body}");

        let published = render_published_check(
            "t",
            &published(SampleSize::PerRow(1000.0)),
            &[],
            Format::Latex,
            &RenderOptions::default(),
        );
        assert!(
            published.contains("\\textbf{25.31}\\,(20.000)"),
            "{published}"
        );
        assert!(published.contains("\\begin{tabular}{lrrrr}"), "{published}");
    }

    #[test]
    fn latex_escape_covers_the_specials() {
        assert_eq!(
            latex_escape(r"50% A&B #1 x_y {z} $ ~ ^ \ |"),
            r"50\% A\&B \#1 x\_y \{z\} \$ \textasciitilde{} \textasciicircum{} \textbackslash{} \textbar{}"
        );
        assert_eq!(latex_comment("two\nlines"), "% two\n% lines\n");
    }

    #[test]
    fn p_values_are_fixed_or_scientific() {
        let cases = [
            (0.43214, "0.4321"),
            (1.0, "1.0000"),
            (0.0001, "0.0001"),
            (3.2e-7, "3.2e-7"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
        ];
        for (p, expected) in cases {
            assert_eq!(p_value_text(p), expected, "{p}");
        }
        assert_eq!(latex_p_value(3.2e-7), "$3.2\\times10^{-7}$");
    }

    /// The blocks of a long run in the JSON of a report and of a
    /// comparison (here, above both renderers).
    mod run_blocks {
        use serde_json::Value;

        use crate::compare;
        use crate::distribution::CountDistribution;
        use crate::report::{
            Format, Method, PrecisionBlock, PrecisionRun, RenderOptions, Report,
            ReportDistribution, RunBlocks, comparison, distributions,
        };

        fn blocks() -> RunBlocks {
            RunBlocks {
                precision: Some(PrecisionBlock {
                    until_halfwidth: 0.001,
                    outcome: Some("upcard=2/bust".into()),
                    max_trials: 1000,
                    runs: vec![PrecisionRun {
                        trials: 1000,
                        widest: "upcard=2/bust".into(),
                        half_width: 0.029_6,
                        met: false,
                    }],
                }),
                shard: Some(crate::contract::shard::ShardBlock {
                    format: "f".into(),
                    part: "0/2".into(),
                    checksum: Some("fnv1a64:0".into()),
                    ..Default::default()
                }),
            }
        }

        /// `text` (a JSON report without blocks) with `blocks` spliced in, as
        /// the commands layer once did it: parsed, the blocks inserted, printed
        /// again.
        fn spliced(text: &str, blocks: &RunBlocks) -> String {
            let mut value: Value = serde_json::from_str(text).expect("JSON");
            blocks.append_to(value.as_object_mut().expect("an object"));
            serde_json::to_string_pretty(&value).unwrap() + "\n"
        }

        #[test]
        fn json_with_blocks_is_the_json_without_them_and_the_blocks_spliced_in() {
            let counts = |key: &str, counts: &[u64]| CountDistribution {
                key: key.into(),
                outcomes: vec!["bust".into(), "17".into()],
                counts: counts.to_vec(),
            };
            let report = Report {
                game: "g".into(),
                method: Method::MonteCarlo,
                params: serde_json::Map::new(),
                seed: Some(7),
                trials: Some(1000),
                distributions: vec![ReportDistribution::Counts(counts("upcard=2", &[354, 646]))],
                summary: Vec::new(),
            };
            let agreements = vec![
                compare::homogeneity(
                    &counts("upcard=2", &[354, 646]),
                    &counts("upcard=2", &[340, 660]),
                    0.05,
                )
                .unwrap(),
            ];
            let with = RenderOptions {
                blocks: blocks(),
                ..RenderOptions::default()
            };
            let without = RenderOptions::default();
            let renderings: [&dyn Fn(&RenderOptions) -> String; 2] = [
                &|options| distributions::render(&report, Format::Json, options),
                &|options| comparison::render_agreements("t", &agreements, Format::Json, options),
            ];
            for render in renderings {
                assert_eq!(render(&with), spliced(&render(&without), &blocks()));
            }
            // The other formats leave the blocks out.
            assert_eq!(
                distributions::render(&report, Format::Csv, &with),
                distributions::render(&report, Format::Csv, &without)
            );
        }
    }
}
