//! Rendering of the card counter's reports (issue 46): `blackjack counts`
//! (each system's betting correlation, playing efficiency and insurance
//! correlation beside the published figures) and `blackjack
//! count-distribution` (the exact count after k cards beside a simulated
//! deal, with chi-square tests). Pure functions of their arguments.

use serde_json::json;

use super::comparison::agreement_row;
use super::player::{
    TitledGrid, csv_text, decimal_text, document_text, lay_out, params_json, rules_text,
};
use super::table::{Grid, fraction_text, thousands};
use super::{Format, RenderOptions};
use crate::compare::Agreement;
use crate::contract::Tag;
use crate::contract::blackjack::finite;
use crate::contract::blackjack_counts::{
    CountCell, CountDistributionDocument, CountSystemRow, CountSystemsDocument,
    PublishedCountFigures,
};
use crate::distribution::{CountDistribution, ExactDistribution, rational_to_f64};
use crate::games::blackjack::table::count_analysis::{
    CountAnalysis, RunningCountDistribution, SystemFigures, published,
};

/// Decimals of the correlations and efficiencies.
const FIGURE_DECIMALS: usize = 3;

/// The definitions and sources every `blackjack counts` report ends with.
fn count_notes(analysis: &CountAnalysis) -> Vec<String> {
    vec![
        "BC: the weighted correlation of the tags with the player's exact effects of removal (strategy re-optimised). IC: with the insurance bet's effects (+4 a non-ten, -9 a ten). PE: Griffin's playing efficiency (The Theory of Blackjack, chapters 3 and 4, as we read it): over every two-card decision, the gain E[max(0, X)] of a count whose correlation with the decision's effects is r, X normal with the off-the-top difference as mean and r times the linear estimate's spread, over the ideal count's gain, weighted by how often each decision arises.".to_string(),
        format!(
            "PE at {} cards seen before the round, over {} decisions. Published figures: Blackjack Apprenticeship's table of counting systems (the same figures at lifesagambol.com, after QFIT), from Griffin's method with their own effects and decisions.",
            analysis.params.depth.cards_seen,
            analysis.decisions.len()
        ),
    ]
}

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| decimal_text(v, FIGURE_DECIMALS))
}

fn efficiency(row: &SystemFigures) -> Option<f64> {
    finite(row.playing.efficiency())
}

/// `blackjack counts` in `format`.
pub fn render_count_systems(
    analysis: &CountAnalysis,
    format: Format,
    options: &RenderOptions,
) -> String {
    let mut text = match format {
        Format::Json => document_text(&count_systems_document(analysis)),
        Format::Csv => {
            let mut records = vec![
                [
                    "system",
                    "tags",
                    "balanced",
                    "bc",
                    "pe",
                    "ic",
                    "published_bc",
                    "published_pe",
                    "published_ic",
                ]
                .map(String::from)
                .to_vec(),
            ];
            for row in &analysis.systems {
                let known = published(&row.system.name);
                let number = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
                records.push(vec![
                    row.system.name.clone(),
                    row.system.tags_text(),
                    row.system.is_balanced().to_string(),
                    number(row.betting),
                    number(efficiency(row)),
                    number(row.insurance),
                    number(known.map(|p| p.betting)),
                    number(known.map(|p| p.playing)),
                    number(known.map(|p| p.insurance)),
                ]);
            }
            csv_text(&records)
        }
        Format::Table | Format::Md | Format::Latex => {
            let heading = vec![format!(
                "Counting systems analysed exactly: {}",
                rules_text(&analysis.params.player)
            )];
            let rows = analysis
                .systems
                .iter()
                .map(|row| {
                    let known = published(&row.system.name);
                    let pair = |ours: Option<f64>, theirs: Option<f64>| {
                        [
                            figure(ours),
                            theirs.map_or_else(String::new, |v| format!("{v:.2}")),
                        ]
                    };
                    let mut cells = vec![row.system.name.clone(), row.system.tags_text()];
                    cells.extend(pair(row.betting, known.map(|p| p.betting)));
                    cells.extend(pair(efficiency(row), known.map(|p| p.playing)));
                    cells.extend(pair(row.insurance, known.map(|p| p.insurance)));
                    cells
                })
                .collect();
            let grid = Grid {
                head: [
                    "system",
                    "tags",
                    "BC",
                    "published",
                    "PE",
                    "published",
                    "IC",
                    "published",
                ]
                .map(String::from)
                .to_vec(),
                rows,
            };
            let tables = [TitledGrid {
                title: "Betting correlation, playing efficiency and insurance correlation"
                    .to_string(),
                grid,
            }];
            lay_out(
                format,
                &heading,
                &tables,
                &count_notes(analysis),
                options.width,
            )
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The `blackjack-count-systems` document of `analysis`.
pub fn count_systems_document(analysis: &CountAnalysis) -> CountSystemsDocument {
    let mut params = params_json(&analysis.params.player);
    params.insert("cards_seen".into(), json!(analysis.params.depth.cards_seen));
    CountSystemsDocument {
        schema: Tag::new(),
        game: "blackjack-count-systems".into(),
        params,
        decisions: analysis.decisions.len() as u64,
        effects_points: analysis
            .effects
            .effects
            .iter()
            .map(|e| 100.0 * e.change)
            .collect(),
        systems: analysis
            .systems
            .iter()
            .map(|row| CountSystemRow {
                system: row.system.name.clone(),
                tags: row.system.tags_text(),
                balanced: row.system.is_balanced(),
                betting_correlation: row.betting.and_then(finite),
                playing_efficiency: efficiency(row),
                insurance_correlation: row.insurance.and_then(finite),
                published: published(&row.system.name).map(|p| PublishedCountFigures {
                    betting_correlation: p.betting,
                    playing_efficiency: p.playing,
                    insurance_correlation: p.insurance,
                    source: p.source.into(),
                }),
            })
            .collect(),
        notes: count_notes(analysis),
    }
}

/// The exact count after k cards beside a simulated deal.
pub struct CountDistributionReport<'a> {
    /// The exact distribution.
    pub exact: &'a RunningCountDistribution,
    /// The running count, exactly and simulated.
    pub running: (&'a ExactDistribution, &'a CountDistribution),
    /// The true count, exactly and simulated.
    pub true_count: (&'a ExactDistribution, &'a CountDistribution),
    /// The running counts' chi-square test.
    pub running_agreement: &'a Agreement,
    /// The true counts' chi-square test.
    pub true_count_agreement: &'a Agreement,
    /// The master seed.
    pub seed: u64,
}

fn cells(exact: &ExactDistribution, simulated: &CountDistribution) -> Vec<CountCell> {
    exact
        .outcomes
        .iter()
        .zip(&exact.probabilities)
        .zip(&simulated.counts)
        .map(|((outcome, p), &count)| CountCell {
            outcome: outcome.clone(),
            probability: fraction_text(p),
            decimal: rational_to_f64(p),
            simulated: count,
        })
        .collect()
}

/// The `blackjack-count-distribution` document of `report`.
pub fn count_distribution_document(
    report: &CountDistributionReport<'_>,
) -> CountDistributionDocument {
    let depth = &report.exact.depth;
    let mut params = serde_json::Map::new();
    params.insert("count".into(), json!(depth.system.name));
    params.insert("tags".into(), json!(depth.system.tags_text()));
    params.insert("decks".into(), json!(depth.decks));
    params.insert("after".into(), json!(depth.cards_seen));
    params.insert("cards_left".into(), json!(depth.cards_left()));
    CountDistributionDocument {
        schema: Tag::new(),
        game: "blackjack-count-distribution".into(),
        params,
        trials: report.running.1.trials(),
        seed: report.seed,
        mean_running_count: fraction_text(&report.exact.mean()),
        running_count: cells(report.running.0, report.running.1),
        true_count: cells(report.true_count.0, report.true_count.1),
        running_count_agreement: agreement_row(report.running_agreement),
        true_count_agreement: agreement_row(report.true_count_agreement),
    }
}

/// One grid: a row per count, the exact probability beside the simulated
/// share. Counts that print as 0 at `decimals` and that no deal reached
/// are left out (a shoe's extreme counts are many and all but impossible);
/// the CSV and JSON keep every count.
fn count_grid(
    label: &str,
    exact: &ExactDistribution,
    simulated: &CountDistribution,
    decimals: usize,
) -> Grid {
    let trials = simulated.trials() as f64;
    let shown = 0.5 * 10f64.powi(-(decimals.min(12) as i32));
    Grid {
        head: [label, "exact (%)", "simulated (%)", "deals"]
            .map(String::from)
            .to_vec(),
        rows: exact
            .outcomes
            .iter()
            .zip(exact.values())
            .zip(&simulated.counts)
            .filter(|((_, p), count)| 100.0 * p >= shown || **count > 0)
            .map(|((outcome, p), &count)| {
                vec![
                    outcome.clone(),
                    decimal_text(100.0 * p, decimals),
                    decimal_text(100.0 * count as f64 / trials, decimals),
                    thousands(count),
                ]
            })
            .collect(),
    }
}

fn test_line(what: &str, agreement: &Agreement) -> String {
    format!(
        "{what}: chi-square {} on {} degrees of freedom (bins of expectation below 5 pooled), p = {}",
        decimal_text(agreement.chi_square, 2),
        agreement.degrees_of_freedom,
        format_p(agreement.p_value)
    )
}

/// A p-value for people: four decimals, or scientific below 0.0001.
fn format_p(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.2e}")
    } else {
        format!("{p:.4}")
    }
}

/// `blackjack count-distribution` in `format`.
pub fn render_count_distribution(
    report: &CountDistributionReport<'_>,
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals;
    let mut text = match format {
        Format::Json => document_text(&count_distribution_document(report)),
        Format::Csv => {
            let mut records = vec![
                ["count", "outcome", "probability", "decimal", "simulated"]
                    .map(String::from)
                    .to_vec(),
            ];
            for (kind, (exact, simulated)) in
                [("running", report.running), ("true", report.true_count)]
            {
                for cell in cells(exact, simulated) {
                    records.push(vec![
                        kind.to_string(),
                        cell.outcome,
                        cell.probability,
                        cell.decimal.to_string(),
                        cell.simulated.to_string(),
                    ]);
                }
            }
            csv_text(&records)
        }
        Format::Table | Format::Md | Format::Latex => {
            let depth = &report.exact.depth;
            let heading = vec![
                format!(
                    "The count after {} cards of {} deck{} ({} left): {} ({})",
                    depth.cards_seen,
                    depth.decks,
                    if depth.decks == 1 { "" } else { "s" },
                    depth.cards_left(),
                    depth.system.name,
                    depth.system.tags_text()
                ),
                format!(
                    "Exact: the multivariate hypergeometric over the tags; simulated: {} deals from the table's shoe, seed {}",
                    thousands(report.running.1.trials()),
                    report.seed
                ),
                format!(
                    "Mean running count, exactly: {}",
                    fraction_text(&report.exact.mean())
                ),
            ];
            let tables = [
                TitledGrid {
                    title: "True count (running count per deck left, floored)".to_string(),
                    grid: count_grid(
                        "true count",
                        report.true_count.0,
                        report.true_count.1,
                        decimals,
                    ),
                },
                TitledGrid {
                    title: "Running count (counts that print as 0 and no deal reached left out)"
                        .to_string(),
                    grid: count_grid(
                        "running count",
                        report.running.0,
                        report.running.1,
                        decimals,
                    ),
                },
            ];
            let closing = vec![
                test_line("True count", report.true_count_agreement),
                test_line("Running count", report.running_agreement),
            ];
            lay_out(format, &heading, &tables, &closing, options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
