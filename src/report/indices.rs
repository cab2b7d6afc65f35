//! `blackjack indices`: index plays as a report (RULES.md section 6, "Index
//! plays"; docs/CONTRACTS.md, "blackjack indices"): the standard short
//! lists beside their published indices, every index found, and (JSON)
//! every decision's gain by true count. The CSV is the index file the
//! table reads back (`blackjack table --indices FILE.csv`).

use serde_json::json;

use super::Format;
use super::RenderOptions;
use super::player::{
    TitledGrid, csv_text, decimal_text, document_text, lay_out, params_json, rules_text,
};
use super::table::Grid;
use crate::contract::Tag;
use crate::contract::indices::{GainAt, GainCurve, IndexPlayEntry, IndicesDocument, ListedPlay};
use crate::games::blackjack::player::{PlayerParams, value_letter};
use crate::games::blackjack::table::count::true_count_label;
use crate::games::blackjack::table::index_plays::{INDEX_FILE_COLUMNS, action_code};
use crate::games::blackjack::table::indices::{
    DecisionIndices, HandClass, IndexPlay, PrecisionRun, lists,
};
use crate::games::blackjack::table::{CountSystem, Dealing};
use crate::games::registry::BLACKJACK_INDICES_REPORT;

/// What an index run reports.
#[derive(Clone, Debug)]
pub struct IndicesReport<'a> {
    /// The rules (split model cdz).
    pub params: &'a PlayerParams,
    pub count: &'a CountSystem,
    pub dealing: Dealing,
    /// The 95% half-width asked for, in true counts.
    pub precision: f64,
    pub max_shoes: u64,
    pub seed: u64,
    pub run: &'a PrecisionRun,
}

/// The basic action's code of a decision (`N`: no insurance).
fn basic_code(decision: &DecisionIndices) -> &'static str {
    decision.basic.map_or("N", action_code)
}

/// The deviation's code of a play (`I`: take insurance).
fn deviation_code(decision: &DecisionIndices, play: &IndexPlay) -> &'static str {
    match decision.decision.class {
        HandClass::Insurance => "I",
        _ => action_code(play.deviation),
    }
}

fn direction(play: &IndexPlay) -> &'static str {
    if play.at_or_above { ">=" } else { "<" }
}

/// The report's JSON document.
pub fn indices_document(report: &IndicesReport) -> IndicesDocument {
    let mut params = params_json(report.params);
    params.insert("count".into(), json!(report.count.name));
    if let Some(penetration) = report.dealing.penetration() {
        params.insert("penetration".into(), json!(penetration));
    }
    params.insert("precision".into(), json!(report.precision));
    params.insert("max_shoes".into(), json!(report.max_shoes));
    let decisions = &report.run.decisions;
    let plays = decisions
        .iter()
        .flat_map(|decision| {
            decision.plays.iter().map(move |play| IndexPlayEntry {
                section: decision.decision.class.section().into(),
                row: decision.decision.class.row(),
                upcard: value_letter(decision.decision.upcard).into(),
                basic: basic_code(decision).into(),
                deviation: deviation_code(decision, play).into(),
                direction: direction(play).into(),
                index: play.index,
                crossing: play.crossing,
                ci95: play.ci95,
                shoes: decision.n_shoes,
            })
        })
        .collect();
    let gains = decisions
        .iter()
        .flat_map(|decision| {
            decision
                .gains
                .iter()
                .map(move |(alternative, means)| GainCurve {
                    decision: decision.decision.name(),
                    basic: basic_code(decision).into(),
                    alternative: alternative.map_or("I", action_code).into(),
                    by_true_count: means
                        .iter()
                        .enumerate()
                        .map(|(bin, mean)| GainAt {
                            true_count: true_count_label(bin),
                            mean: mean.map(|m| m.0),
                            standard_error: mean.map(|m| m.1),
                        })
                        .collect(),
                })
        })
        .collect();
    IndicesDocument {
        schema: Tag::new(),
        game: BLACKJACK_INDICES_REPORT.into(),
        params,
        tags: report.count.tags.to_vec(),
        seed: report.seed,
        shoes: report.run.shoes_dealt,
        runs: report.run.runs,
        plays,
        lists: listed_plays(report),
        gains,
    }
}

/// The short lists' plays whose decisions the run looked at, each beside
/// the index found for its listed action.
fn listed_plays(report: &IndicesReport) -> Vec<ListedPlay> {
    let surrender =
        report.params.rules.surrender != crate::games::blackjack::player::Surrender::None;
    let lists: Vec<&[lists::Published]> = if surrender {
        vec![&lists::ILLUSTRIOUS_18, &lists::FAB_4]
    } else {
        vec![&lists::ILLUSTRIOUS_18]
    };
    lists
        .into_iter()
        .flat_map(|list| list.iter().enumerate())
        .filter_map(|(number, published)| {
            let decision = report
                .run
                .decisions
                .iter()
                .find(|d| d.decision == published.decision)?;
            let play = decision
                .plays
                .iter()
                .find(|play| match decision.decision.class {
                    HandClass::Insurance => true,
                    _ => {
                        // The listed action at or above the index: the
                        // deviation itself, or basic strategy's above a
                        // deviation taken below.
                        (play.at_or_above && play.deviation == published.at_or_above)
                            || (!play.at_or_above && decision.basic == Some(published.at_or_above))
                    }
                });
            Some(ListedPlay {
                list: published.list.into(),
                number: number as u32 + 1,
                decision: published.decision.name(),
                action: match published.decision.class {
                    HandClass::Insurance => "I".into(),
                    _ => action_code(published.at_or_above).into(),
                },
                published: published.index,
                found: play.map(|play| play.index),
                crossing: play.map(|play| play.crossing),
                ci95: play.map(|play| play.ci95),
            })
        })
        .collect()
}

/// The index file: a line per play, [`INDEX_FILE_COLUMNS`].
fn index_csv(document: &IndicesDocument) -> String {
    let mut records: Vec<Vec<String>> =
        vec![INDEX_FILE_COLUMNS.iter().map(|c| c.to_string()).collect()];
    for play in &document.plays {
        records.push(vec![
            play.section.clone(),
            play.row.clone(),
            play.upcard.clone(),
            play.basic.clone(),
            play.deviation.clone(),
            play.direction.clone(),
            play.index.to_string(),
            format!("{:.3}", play.crossing),
            format!("{:.3}", play.ci95[0]),
            format!("{:.3}", play.ci95[1]),
            play.shoes.to_string(),
        ]);
    }
    csv_text(&records)
}

fn signed(index: i32) -> String {
    if index > 0 {
        format!("+{index}")
    } else {
        index.to_string()
    }
}

/// Renders the report.
pub fn render_indices(report: &IndicesReport, format: Format, options: &RenderOptions) -> String {
    let document = indices_document(report);
    match format {
        Format::Json => return document_text(&document),
        Format::Csv => return index_csv(&document),
        _ => {}
    }
    let decimals = 3;
    let interval = |ci: [f64; 2]| {
        format!(
            "[{}, {}]",
            decimal_text(ci[0], decimals),
            decimal_text(ci[1], decimals)
        )
    };
    let heading = vec![
        format!(
            "Index plays for {} ({}), {}, {}: the true count (running count over decks left, floored) at which each action overtakes basic strategy's.",
            report.count.name,
            report.count.tags_text(),
            rules_text(report.params),
            report.dealing.describe()
        ),
        format!(
            "Each round's exact values on the shoe left, {} shoes (seed {}, {} runs); the crossing is where the mean gain by true count changes sign (a weighted line through the four counts around it), with its 95% interval, asked to within ±{} true counts for crossings within ±{} (at most {} shoes).",
            report.run.shoes_dealt,
            report.seed,
            report.run.runs,
            report.precision,
            crate::games::blackjack::table::indices::TARGET_REACH,
            report.max_shoes
        ),
    ];
    let mut tables = Vec::new();
    if !document.lists.is_empty() {
        let rows = document
            .lists
            .iter()
            .map(|listed| {
                vec![
                    format!("{} {}", listed.list, listed.number),
                    listed.decision.clone(),
                    listed.action.clone(),
                    signed(listed.published),
                    listed.found.map_or("—".into(), signed),
                    listed
                        .crossing
                        .map_or("—".into(), |x| decimal_text(x, decimals)),
                    listed.ci95.map_or("—".into(), interval),
                ]
            })
            .collect();
        tables.push(TitledGrid {
            title: "The standard lists (Schlesinger, Blackjack Attack; published for multi-deck S17 DAS): the listed action at or above the index".into(),
            grid: Grid {
                head: vec![
                    "play".into(),
                    "decision".into(),
                    "action".into(),
                    "published".into(),
                    "found".into(),
                    "crossing".into(),
                    "95% interval".into(),
                ],
                rows,
            },
        });
    }
    let rows = document
        .plays
        .iter()
        .map(|play| {
            vec![
                if play.section == "insurance" {
                    "insurance".into()
                } else {
                    format!("{} {} v {}", play.section, play.row, play.upcard)
                },
                play.basic.clone(),
                play.deviation.clone(),
                format!("{} {}", play.direction, signed(play.index)),
                decimal_text(play.crossing, decimals),
                interval(play.ci95),
                play.shoes.to_string(),
            ]
        })
        .collect();
    tables.push(TitledGrid {
        title: "Every index found: the deviation where the true count is on the index's side"
            .into(),
        grid: Grid {
            head: vec![
                "decision".into(),
                "basic".into(),
                "deviation".into(),
                "when".into(),
                "crossing".into(),
                "95% interval".into(),
                "shoes".into(),
            ],
            rows,
        },
    });
    let closing = vec![
        "Codes: S stand, H hit, D double, P split, R surrender, I take insurance, N no insurance. `>= +3`: the deviation at a true count of +3 or more; `< -1`: below -1.".to_string(),
    ];
    lay_out(format, &heading, &tables, &closing, options.width)
}
