//! Rendering of the blackjack player's values (`blackjack player`) and of
//! the house edge with its effects of removal (`blackjack house-edge`), in
//! every format, from the engine's typed results.
//!
//! Numbers: a value is an expected net result per unit bet. JSON and CSV
//! carry it in full (the exact reduced fraction, when computed exactly, and
//! the nearest `f64`); the table, Markdown and LaTeX round it to
//! `options.percent_decimals` decimals (the command's `--digits`): the
//! values of hands per unit bet, the round's value and the house edge in
//! percent of the bet (labelled so, as every value per round deckodds
//! prints), and effects of removal in percentage points. Exact fractions of six decks run to
//! hundreds of digits, so the tables for people show them only for one
//! hand (`--hand`), where they fit.

use std::fmt::Write as _;

use num_rational::BigRational;
use serde_json::json;

use super::table::{
    Grid, fraction_text, latex_tabular, markdown_escape, markdown_table, one_line,
    tabled_text_fitted,
};
use super::{Format, RenderOptions};
use crate::compare::MeanAgreement;
use crate::contract::blackjack::{
    HandValues, HouseEdgeDocument, HouseEdgeGridDocument, OverallValue, Params,
    PlayerCompareDocument, PlayerDocument, PlayerValue, Removal, RoundAgreement, RoundStatistics,
    finite,
};
use crate::contract::{self, Document, Tag};
use crate::distribution::CountDistribution;
use crate::games::blackjack::player::grid::GridRow;
use crate::games::blackjack::player::house_edge::EffectOfRemoval;
use crate::games::blackjack::player::number::Number;
use crate::games::blackjack::player::round::RoundSummary;
use crate::games::blackjack::player::{
    ACTIONS, Action, HandRow, HoleCard, PlayerParams, PlayerRules, PlayerTable, SplitModel,
    Surrender, hand_name, value_letter,
};
use crate::games::blackjack::{Decks, Soft17, UPCARDS};
use crate::games::registry::{
    BLACKJACK_HOUSE_EDGE_GRID_REPORT, BLACKJACK_HOUSE_EDGE_REPORT, BLACKJACK_PLAYER_REPORT,
};

/// Decimals never go past this: an `f64` carries no more, and an absurd
/// `--digits` must not allocate without bound.
const MAX_DECIMALS: usize = 17;

/// Which of a table's hands a report shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandSelection {
    /// Only this two-card hand (its values, either order).
    pub hand: Option<(u8, u8)>,
    /// Only against this upcard.
    pub upcard: Option<u8>,
}

impl HandSelection {
    fn keeps<T>(&self, row: &HandRow<T>) -> bool {
        let hand = self
            .hand
            .is_none_or(|(a, b)| (a.min(b), a.max(b)) == (row.first, row.second));
        hand && self.upcard.is_none_or(|upcard| upcard == row.upcard)
    }

    /// Whether this picks out one hand against one upcard.
    fn is_one_hand(&self) -> bool {
        self.hand.is_some() && self.upcard.is_some()
    }
}

/// `"exact"` for exact fractions, `"float"` for `f64`.
pub fn method_name<T: Number>() -> &'static str {
    if T::zero().exact().is_some() {
        "exact"
    } else {
        "float"
    }
}

/// The parameters of a solve as the JSON's `"params"` records them: every
/// rule by `PlayerRules::named` (RULES.md's names and spellings), then the
/// split model, and the cards removed before the round if any.
pub fn params_json(params: &PlayerParams) -> Params {
    let mut json = Params::new();
    for (name, value) in params.rules.named() {
        json.insert(name.into(), json!(value));
    }
    json.insert("split_model".into(), json!(params.split_model.name()));
    if !params.removed.is_empty() {
        let removed: Vec<&str> = params.removed.iter().map(|&v| value_letter(v)).collect();
        json.insert("removed".into(), json!(removed));
    }
    json
}

/// The rules in a line for people: `6 decks, S17, peek, 3:2, double any,
/// DAS, up to 4 hands, no re-split aces, no surrender; split model cdz`.
pub fn rules_text(params: &PlayerParams) -> String {
    let rules = &params.rules;
    let decks = match rules.decks {
        Decks::Finite(1) => "1 deck".to_string(),
        Decks::Finite(n) => format!("{n} decks"),
        Decks::Infinite => "infinite deck".to_string(),
    };
    let soft17 = match rules.soft17 {
        Soft17::Stand => "S17",
        Soft17::Hit => "H17",
    };
    let hole_card = match rules.hole_card {
        HoleCard::Peek => "peek",
        HoleCard::Enhc => "ENHC",
    };
    let das = if rules.double_after_split {
        "DAS"
    } else {
        "no DAS"
    };
    let resplit_aces = if rules.resplit_aces {
        "re-split aces"
    } else {
        "no re-split aces"
    };
    let surrender = match rules.surrender {
        Surrender::None => "no surrender",
        Surrender::Late => "late surrender",
        Surrender::Early => "early surrender",
    };
    let mut text = format!(
        "{decks}, {soft17}, {hole_card}, {} blackjack, double {}, {das}, up to {} hands, {resplit_aces}, {surrender}; split model {}",
        rules.blackjack_pays.name(),
        rules.double.name(),
        rules.max_hands,
        params.split_model.name()
    );
    if !params.removed.is_empty() {
        let removed: Vec<&str> = params.removed.iter().map(|&v| value_letter(v)).collect();
        let _ = write!(text, "; removed {}", removed.join(" "));
    }
    text
}

/// A value as the contract writes it: `{"value": "p/q", "decimal": x}`,
/// `"value"` only when exact.
fn player_value<T: Number>(value: &T) -> PlayerValue {
    PlayerValue {
        value: value.exact().map(fraction_text),
        decimal: value.to_f64(),
    }
}

/// A number with `decimals` places, never `-0.00`.
pub(super) fn decimal_text(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals.min(MAX_DECIMALS), value);
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// A value's exact fraction, or empty in `f64`.
fn fraction_or_empty<T: Number>(value: &T) -> String {
    value.exact().map(fraction_text).unwrap_or_default()
}

/// The house edge in percent: `-100 overall`, from the rational when
/// exact. (Its negative is the value per round in percent: the text
/// formats print both in percent, the JSON and CSV the value as a
/// fraction of the bet.)
fn house_edge_percent<T: Number>(overall: &T) -> f64 {
    match overall.exact() {
        Some(exact) => {
            let percent: BigRational = -exact * BigRational::from_integer(100.into());
            Number::to_f64(&percent)
        }
        None => -100.0 * overall.to_f64(),
    }
}

/// The `"overall"` object: the value, and the house edge in percent.
fn overall_value<T: Number>(overall: &T) -> OverallValue {
    OverallValue {
        value: overall.exact().map(fraction_text),
        decimal: overall.to_f64(),
        house_edge_percent: house_edge_percent(overall),
    }
}

// ---------------------------------------------------------------------------
// `blackjack player`: every hand's values.

/// Renders the values of `table`'s hands that `selection` keeps, in
/// `format`.
///
/// - Json: the contract of docs/CONTRACTS.md ("blackjack player"): game,
///   method, params, overall (value, decimal, house_edge_percent),
///   insurance off the top, then one object per hand and upcard (hand,
///   upcard, probability, stand, hit, double, split, surrender, best,
///   insurance), hands in name order (AA, A2, .., TT), each against the
///   upcards 2..9, T, A: a [`PlayerDocument`], `"schema"` first.
/// - Csv: one row per hand, upcard and action allowed (hand, upcard,
///   action, value, decimal, best), insurance as an action against the
///   ace; first two rows the round (`all,all,overall`) and insurance off
///   the top (`all,A,insurance`).
/// - Table, Md, Latex: the rules and the overall value, then a table per
///   upcard (a row per hand: each action's value, the best); for one hand
///   against one upcard, a table of its actions with exact fractions.
///
/// The text ends with a newline.
pub fn render_player_values<T: Number>(
    table: &PlayerTable<T>,
    selection: HandSelection,
    format: Format,
    options: &RenderOptions,
) -> String {
    let rows: Vec<&HandRow<T>> = table
        .hands
        .iter()
        .filter(|row| selection.keeps(row))
        .collect();
    let decimals = options.percent_decimals.min(MAX_DECIMALS);
    let mut text = match format {
        Format::Json => document_text(&player_document(table, &rows)),
        Format::Csv => player_csv(table, &rows),
        Format::Table | Format::Md | Format::Latex => {
            let heading = player_heading(table, decimals);
            let tables = if selection.is_one_hand() {
                rows.iter()
                    .map(|row| one_hand_grid(row, decimals))
                    .collect()
            } else {
                upcard_grids(&rows, decimals)
            };
            lay_out(format, &heading, &tables, &[], options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The `blackjack-player` document of `rows`. `blackjack player` runs
/// no long-run option, so it carries no long-run block.
pub fn player_document<T: Number>(table: &PlayerTable<T>, rows: &[&HandRow<T>]) -> PlayerDocument {
    PlayerDocument {
        schema: Tag::new(),
        game: BLACKJACK_PLAYER_REPORT.into(),
        method: method_name::<T>().into(),
        params: params_json(&table.params),
        overall: overall_value(&table.overall),
        insurance: table.insurance.as_ref().map(player_value),
        hands: rows.iter().map(|row| hand_values(row)).collect(),
    }
}

fn hand_values<T: Number>(row: &HandRow<T>) -> HandValues {
    let values = &row.values;
    HandValues {
        hand: hand_name(row.first, row.second),
        upcard: value_letter(row.upcard).into(),
        probability: player_value(&row.probability),
        stand: player_value(&values.stand),
        hit: player_value(&values.hit),
        double: values.double.as_ref().map(player_value),
        split: values.split.as_ref().map(player_value),
        surrender: values.surrender.as_ref().map(player_value),
        best: row.best.name().into(),
        insurance: row.insurance.as_ref().map(player_value),
    }
}

/// A document as its file holds it: the contract's JSON and a newline.
pub(super) fn document_text<D: Document>(document: &D) -> String {
    format!("{}\n", contract::write(document))
}

fn player_csv<T: Number>(table: &PlayerTable<T>, rows: &[&HandRow<T>]) -> String {
    let mut records: Vec<[String; 6]> = vec![[
        "hand".into(),
        "upcard".into(),
        "action".into(),
        "value".into(),
        "decimal".into(),
        "best".into(),
    ]];
    let record = |hand: String, upcard: &str, action: &str, value: &T, best: &str| {
        [
            hand,
            upcard.to_string(),
            action.to_string(),
            fraction_or_empty(value),
            value.to_f64().to_string(),
            best.to_string(),
        ]
    };
    records.push(record("all".into(), "all", "overall", &table.overall, ""));
    if let Some(insurance) = &table.insurance {
        records.push(record("all".into(), "A", "insurance", insurance, ""));
    }
    for row in rows {
        let hand = hand_name(row.first, row.second);
        let upcard = value_letter(row.upcard);
        for action in ACTIONS {
            if let Some(value) = row.values.get(action) {
                let best = if action == row.best { "yes" } else { "no" };
                records.push(record(hand.clone(), upcard, action.name(), value, best));
            }
        }
        if let Some(insurance) = &row.insurance {
            records.push(record(hand.clone(), upcard, "insurance", insurance, ""));
        }
    }
    csv_text(&records)
}

/// Records as CSV (quoted where a field needs it).
pub(super) fn csv_text<R: AsRef<[String]>>(records: &[R]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for record in records {
        if let Err(error) = writer.write_record(record.as_ref()) {
            // Unreachable in practice: the writer is in memory.
            return format!("error: cannot write CSV: {error}\n");
        }
    }
    match writer.into_inner() {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => format!("error: cannot write CSV: {error}\n"),
    }
}

/// The lines above a player table: what was solved, the overall value and
/// the house edge, insurance off the top.
fn player_heading<T: Number>(table: &PlayerTable<T>, decimals: usize) -> Vec<String> {
    let mut lines = vec![format!(
        "Blackjack player ({}): {}",
        method_name::<T>(),
        rules_text(&table.params)
    )];
    lines.push(format!(
        "Overall value per round: {}% of the bet (house edge {}%)",
        decimal_text(-house_edge_percent(&table.overall), decimals),
        decimal_text(house_edge_percent(&table.overall), decimals)
    ));
    if let Some(insurance) = &table.insurance {
        lines.push(format!(
            "Insurance with an ace up, off the top: {} per unit insured",
            decimal_text(insurance.to_f64(), decimals)
        ));
    }
    lines.push(
        "Values per unit bet, the three cards out of the shoe; under peek with an ace or a ten up, given no dealer natural."
            .to_string(),
    );
    lines
}

/// A titled table.
pub(super) struct TitledGrid {
    pub(super) title: String,
    pub(super) grid: Grid,
}

/// One table per upcard in [`UPCARDS`] order: a row per hand.
fn upcard_grids<T: Number>(rows: &[&HandRow<T>], decimals: usize) -> Vec<TitledGrid> {
    let cell =
        |value: Option<&T>| value.map_or(String::new(), |v| decimal_text(v.to_f64(), decimals));
    UPCARDS
        .iter()
        .filter_map(|&upcard| {
            let against: Vec<&&HandRow<T>> = rows.iter().filter(|r| r.upcard == upcard).collect();
            if against.is_empty() {
                return None;
            }
            let insurance = against.iter().any(|r| r.insurance.is_some());
            let mut head: Vec<String> = ["hand", "stand", "hit", "double", "split", "surrender"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            if insurance {
                head.push("insurance".into());
            }
            head.push("best".into());
            let grid_rows = against
                .iter()
                .map(|row| {
                    let values = &row.values;
                    let mut cells = vec![
                        hand_name(row.first, row.second),
                        cell(Some(&values.stand)),
                        cell(Some(&values.hit)),
                        cell(values.double.as_ref()),
                        cell(values.split.as_ref()),
                        cell(values.surrender.as_ref()),
                    ];
                    if insurance {
                        cells.push(cell(row.insurance.as_ref()));
                    }
                    cells.push(row.best.name().to_string());
                    cells
                })
                .collect();
            Some(TitledGrid {
                title: format!("Upcard {}", value_letter(upcard)),
                grid: Grid {
                    head,
                    rows: grid_rows,
                },
            })
        })
        .collect()
}

/// One hand against one upcard: a row per action allowed, with its exact
/// fraction when there is one, the best marked.
fn one_hand_grid<T: Number>(row: &HandRow<T>, decimals: usize) -> TitledGrid {
    let exact = row.values.stand.exact().is_some();
    let mut head = vec!["action".to_string(), "value".to_string()];
    if exact {
        head.push("exact".into());
    }
    head.push("best".into());
    let line = |name: &str, value: &T, best: bool| {
        let mut cells = vec![name.to_string(), decimal_text(value.to_f64(), decimals)];
        if exact {
            cells.push(fraction_or_empty(value));
        }
        cells.push(if best { "best" } else { "" }.to_string());
        cells
    };
    let mut rows: Vec<Vec<String>> = ACTIONS
        .iter()
        .filter_map(|&action: &Action| {
            row.values
                .get(action)
                .map(|value| line(action.name(), value, action == row.best))
        })
        .collect();
    if let Some(insurance) = &row.insurance {
        rows.push(line("insurance", insurance, false));
    }
    TitledGrid {
        title: format!(
            "{} against {}",
            hand_name(row.first, row.second),
            value_letter(row.upcard)
        ),
        grid: Grid { head, rows },
    }
}

/// Lays out heading lines, titled tables and closing lines in a format for
/// people.
/// The terminal table's tables fit `width` (see
/// [`super::table::tabled_text_fitted`]).
pub(super) fn lay_out(
    format: Format,
    heading: &[String],
    tables: &[TitledGrid],
    closing: &[String],
    width: Option<usize>,
) -> String {
    let mut out = String::new();
    match format {
        Format::Latex => {
            out.push_str("% generated by deckodds\n% requires \\usepackage{booktabs} and \\usepackage{longtable}\n");
            for line in heading {
                let _ = writeln!(out, "% {}", one_line(line));
            }
            for table in tables {
                out.push('\n');
                out.push_str(&latex_tabular(&table.grid, Some((0, table.title.clone()))));
            }
            for line in closing {
                let _ = writeln!(out, "% {}", one_line(line));
            }
        }
        Format::Md => {
            for line in heading {
                let _ = writeln!(out, "{}  ", markdown_escape(line));
            }
            for table in tables {
                let _ = write!(
                    out,
                    "\n**{}**\n\n{}",
                    markdown_escape(&table.title),
                    markdown_table(&table.grid)
                );
            }
            if !closing.is_empty() {
                out.push('\n');
            }
            for line in closing {
                let _ = writeln!(out, "{}  ", markdown_escape(line));
            }
        }
        _ => {
            for line in heading {
                let _ = writeln!(out, "{}", one_line(line));
            }
            for table in tables {
                let _ = write!(
                    out,
                    "\n{}\n{}\n",
                    one_line(&table.title),
                    tabled_text_fitted(&table.grid, width)
                );
            }
            if !closing.is_empty() {
                out.push('\n');
            }
            for line in closing {
                let _ = writeln!(out, "{}", one_line(line));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// `blackjack house-edge`.

/// What `blackjack house-edge` reports: the round's value and its effects
/// of removal, which may be computed in another kind of number (`U`,
/// `f64` by default for speed) than the value itself (`T`).
#[derive(Clone, Debug)]
pub struct HouseEdgeReport<'a, T, U> {
    /// What was solved.
    pub params: &'a PlayerParams,
    /// The overall value of a round off the top.
    pub overall: &'a T,
    /// Insurance's value off the top (only the ace seen), if an ace can be
    /// up.
    pub insurance: Option<&'a T>,
    /// The effects of removal, if computed (`None` for an infinite deck).
    pub effects: Option<&'a EffectOfRemoval<U>>,
    /// Lines for the reader (why there are no effects, say).
    pub notes: Vec<String>,
}

/// Renders a house-edge report in `format`.
///
/// - Json: the contract of docs/CONTRACTS.md ("blackjack house-edge"):
///   game, method, params, overall (value, decimal, house_edge_percent),
///   insurance, effect_of_removal (its method, the unit, one entry per
///   value A..10: removed, cards_in_shoe, overall, change_points; and the
///   weighted sum) or null, notes: a [`HouseEdgeDocument`].
/// - Csv: one row per figure (quantity, removed, value, decimal).
/// - Table, Md, Latex: the rules, the value and the house edge, a table of
///   the effects, the weighted sum and the notes.
///
/// The text ends with a newline.
pub fn render_house_edge<T: Number, U: Number>(
    report: &HouseEdgeReport<'_, T, U>,
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals.min(MAX_DECIMALS);
    let mut text = match format {
        Format::Json => document_text(&house_edge_document(report)),
        Format::Csv => house_edge_csv(report),
        Format::Table | Format::Md | Format::Latex => {
            let mut heading = vec![format!(
                "Blackjack house edge ({}): {}",
                method_name::<T>(),
                rules_text(report.params)
            )];
            heading.push(format!(
                "Overall value per round: {}% of the bet",
                decimal_text(-house_edge_percent(report.overall), decimals)
            ));
            heading.push(format!(
                "House edge: {}%",
                decimal_text(house_edge_percent(report.overall), decimals)
            ));
            if let Some(insurance) = report.insurance {
                heading.push(format!(
                    "Insurance with an ace up, off the top: {} per unit insured",
                    decimal_text(insurance.to_f64(), decimals)
                ));
            }
            let mut tables = Vec::new();
            let mut closing = Vec::new();
            if let Some(effects) = report.effects {
                tables.push(effects_grid(effects, decimals));
                closing.push(format!(
                    "Weighted by the shoe, the changes add up to {} points (cards x change, summed): not zero, but the value of knowing a removed card, times the cards.",
                    decimal_text(effects.weighted_sum().to_f64() * 100.0, decimals)
                ));
            }
            closing.extend(report.notes.iter().cloned());
            lay_out(format, &heading, &tables, &closing, options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn effects_grid<U: Number>(effects: &EffectOfRemoval<U>, decimals: usize) -> TitledGrid {
    let rows = effects
        .effects
        .iter()
        .map(|effect| {
            vec![
                value_letter(effect.removed).to_string(),
                effect.count_in_shoe.to_string(),
                decimal_text(100.0 * effect.overall.to_f64(), decimals),
                decimal_text(effect.percentage_points().to_f64(), decimals),
            ]
        })
        .collect();
    TitledGrid {
        title: format!(
            "Effect of removal ({}): the change in the player's value per round when one card of the value is taken out before the round, strategy re-optimised",
            method_name::<U>()
        ),
        grid: Grid {
            head: vec![
                "removed".into(),
                "cards in shoe".into(),
                "overall value (%)".into(),
                "change (points)".into(),
            ],
            rows,
        },
    }
}

/// The `blackjack-house-edge` document of `report`. `blackjack
/// house-edge` runs no long-run option, so it carries no long-run block.
pub fn house_edge_document<T: Number, U: Number>(
    report: &HouseEdgeReport<'_, T, U>,
) -> HouseEdgeDocument {
    let effect_of_removal = report
        .effects
        .map(|effects| contract::blackjack::EffectOfRemoval {
            method: method_name::<U>().into(),
            unit: "percentage points of the bet".into(),
            removals: effects
                .effects
                .iter()
                .map(|effect| Removal {
                    removed: value_letter(effect.removed).into(),
                    cards_in_shoe: u64::from(effect.count_in_shoe),
                    overall: player_value(&effect.overall),
                    change_points: player_value(&effect.percentage_points()),
                })
                .collect(),
            weighted_sum_points: player_value(&effects.weighted_sum().scaled(100, 1)),
        });
    HouseEdgeDocument {
        schema: Tag::new(),
        game: BLACKJACK_HOUSE_EDGE_REPORT.into(),
        method: method_name::<T>().into(),
        params: params_json(report.params),
        overall: overall_value(report.overall),
        insurance: report.insurance.map(player_value),
        effect_of_removal,
        notes: report.notes.to_vec(),
    }
}

fn house_edge_csv<T: Number, U: Number>(report: &HouseEdgeReport<'_, T, U>) -> String {
    let mut records: Vec<[String; 4]> = vec![[
        "quantity".into(),
        "removed".into(),
        "value".into(),
        "decimal".into(),
    ]];
    records.push([
        "overall".into(),
        String::new(),
        fraction_or_empty(report.overall),
        report.overall.to_f64().to_string(),
    ]);
    records.push([
        "house_edge_percent".into(),
        String::new(),
        String::new(),
        house_edge_percent(report.overall).to_string(),
    ]);
    if let Some(insurance) = report.insurance {
        records.push([
            "insurance".into(),
            String::new(),
            fraction_or_empty(insurance),
            insurance.to_f64().to_string(),
        ]);
    }
    if let Some(effects) = report.effects {
        for effect in &effects.effects {
            let points = effect.percentage_points();
            records.push([
                "change_points".into(),
                value_letter(effect.removed).into(),
                fraction_or_empty(&points),
                points.to_f64().to_string(),
            ]);
        }
    }
    csv_text(&records)
}

// ---------------------------------------------------------------------------
// `blackjack player compare`: Monte-Carlo rounds against the exact value.

/// Monte-Carlo rounds played with a solved table's decisions, and the
/// table's exact value of a round.
pub struct RoundComparisonReport<'a, T> {
    /// What was solved and played.
    pub params: &'a PlayerParams,
    /// The exact (or f64) value of a round off the top.
    pub exact: &'a T,
    /// The rounds' mean and spread.
    pub summary: RoundSummary,
    /// The mean against the value.
    pub agreement: MeanAgreement,
    /// The seed of the rounds.
    pub seed: u64,
    /// The rounds' net results, in tenths of a unit.
    pub net: CountDistribution,
}

/// Renders a round comparison in `format`.
///
/// - Json (docs/CONTRACTS.md, "blackjack player compare"): game, method
///   `"monte-carlo-vs-exact"` (or `-vs-float`), params, trials, seed,
///   exact (the overall object), monte_carlo (mean, standard_deviation,
///   standard_error), agreement (z, p_value, level, z_critical, agrees),
///   verdict (`agree` or `disagree`), net (the counts by net result, only
///   results that occurred), then a part's `shard` block: a
///   [`PlayerCompareDocument`].
/// - Csv: one row per figure (quantity, value).
/// - Table, Md, Latex: the rules, then a table of the figures.
///
/// The text ends with a newline.
pub fn render_round_comparison<T: Number>(
    report: &RoundComparisonReport<'_, T>,
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals.min(MAX_DECIMALS);
    let agreement = &report.agreement;
    let verdict = if agreement.agrees {
        "agree"
    } else {
        "disagree"
    };
    let mut text = match format {
        Format::Json => document_text(&round_comparison_document(report, options)),
        Format::Csv => {
            let figures = round_comparison_figures(report);
            let mut records: Vec<[String; 2]> = vec![["quantity".into(), "value".into()]];
            records.extend(
                figures
                    .into_iter()
                    .map(|(name, value)| [name.into(), value]),
            );
            csv_text(&records)
        }
        Format::Table | Format::Md | Format::Latex => {
            let heading = vec![
                format!(
                    "Blackjack rounds, Monte Carlo ({} rounds, seed {}) against the {} value: {}",
                    report.summary.n_rounds,
                    report.seed,
                    method_name::<T>(),
                    rules_text(report.params)
                ),
                format!(
                    "Verdict: {verdict} (|z| = {:.2}; agreement when |z| <= {:.2}, level {})",
                    agreement.z.abs(),
                    agreement.z_critical,
                    agreement.level
                ),
            ];
            let rows = vec![vec![
                "value per round (%)".into(),
                decimal_text(100.0 * report.exact.to_f64(), decimals),
                decimal_text(100.0 * report.summary.mean, decimals),
                decimal_text(100.0 * report.summary.standard_error, decimals),
                format!("{:.2}", agreement.z),
            ]];
            let table = TitledGrid {
                title: "The rounds' mean net result against the value of a round".into(),
                grid: Grid {
                    head: vec![
                        "quantity".into(),
                        method_name::<T>().into(),
                        "Monte Carlo".into(),
                        "standard error".into(),
                        "z".into(),
                    ],
                    rows,
                },
            };
            let closing = vec![format!(
                "Standard deviation of a round's net result: {} units.",
                decimal_text(report.summary.standard_deviation, decimals)
            )];
            lay_out(format, &heading, &[table], &closing, options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The `blackjack-player-compare` document of `report`, with the shard
/// block of `options` (the command runs no precision target).
pub fn round_comparison_document<T: Number>(
    report: &RoundComparisonReport<'_, T>,
    options: &RenderOptions,
) -> PlayerCompareDocument {
    let agreement = &report.agreement;
    PlayerCompareDocument {
        schema: Tag::new(),
        game: BLACKJACK_PLAYER_REPORT.into(),
        method: format!("monte-carlo-vs-{}", method_name::<T>()),
        params: params_json(report.params),
        trials: report.summary.n_rounds,
        seed: report.seed,
        exact: overall_value(report.exact),
        monte_carlo: RoundStatistics {
            mean: report.summary.mean,
            standard_deviation: finite(report.summary.standard_deviation),
            standard_error: finite(report.summary.standard_error),
        },
        agreement: RoundAgreement {
            z: finite(agreement.z),
            p_value: finite(agreement.p_value),
            level: agreement.level,
            z_critical: agreement.z_critical,
            agrees: agreement.agrees,
        },
        verdict: if agreement.agrees {
            "agree"
        } else {
            "disagree"
        }
        .into(),
        net: report
            .net
            .outcomes
            .iter()
            .zip(&report.net.counts)
            .filter(|(_, count)| **count > 0)
            .map(|(outcome, &count)| (outcome.clone(), count))
            .collect(),
        shard: options.blocks.shard.clone(),
    }
}

/// The figures of a round comparison by name, as its CSV lists them.
fn round_comparison_figures<T: Number>(
    report: &RoundComparisonReport<'_, T>,
) -> Vec<(&'static str, String)> {
    let agreement = &report.agreement;
    vec![
        ("trials", report.summary.n_rounds.to_string()),
        ("seed", report.seed.to_string()),
        ("exact_value", fraction_or_empty(report.exact)),
        ("exact_decimal", report.exact.to_f64().to_string()),
        ("mean", report.summary.mean.to_string()),
        (
            "standard_deviation",
            report.summary.standard_deviation.to_string(),
        ),
        ("standard_error", report.summary.standard_error.to_string()),
        ("z", agreement.z.to_string()),
        ("p_value", agreement.p_value.to_string()),
        ("level", agreement.level.to_string()),
        ("agrees", agreement.agrees.to_string()),
    ]
}

// ---------------------------------------------------------------------------
// `blackjack house-edge-grid`: the house edge across a grid of rule sets.

/// The columns of a grid table: every rule but the decks, as tables name
/// them (`S17 DAS`, `H17 no DAS LS`).
fn grid_variant(rules: &PlayerRules) -> String {
    let mut words = vec![match rules.soft17 {
        Soft17::Stand => "S17",
        Soft17::Hit => "H17",
    }];
    words.push(if rules.double_after_split {
        "DAS"
    } else {
        "no DAS"
    });
    if rules.surrender != Surrender::None {
        words.push(match rules.surrender {
            Surrender::Late => "LS",
            _ => "ES",
        });
    }
    words.join(" ")
}

/// Renders the round's value under each rule set of a grid.
///
/// - Json (docs/CONTRACTS.md, "blackjack house-edge-grid"): game
///   `blackjack-house-edge-grid`, method, split_model, then `rows`: one
///   per rule set, in the grid's order, with its params and overall
///   (value, decimal, house_edge_percent): a [`HouseEdgeGridDocument`].
/// - Csv: one row per rule set: its rules, value (the exact fraction; the
///   column only in an exact run, where it has one), decimal,
///   house_edge_percent.
/// - Table, Md, Latex: the house edge in percent, a row per deck count and
///   a column per combination of the other rules.
///
/// The text ends with a newline.
pub fn render_house_edge_grid<T: Number>(
    rows: &[GridRow<T>],
    split_model: SplitModel,
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals.min(MAX_DECIMALS);
    let params_of = |rules: &PlayerRules| PlayerParams::full_shoe(*rules, split_model);
    let mut text = match format {
        Format::Json => document_text(&HouseEdgeGridDocument {
            schema: Tag::new(),
            game: BLACKJACK_HOUSE_EDGE_GRID_REPORT.into(),
            method: method_name::<T>().into(),
            split_model: split_model.name().into(),
            rows: rows
                .iter()
                .map(|row| contract::blackjack::GridRow {
                    params: params_json(&params_of(&row.rules)),
                    overall: overall_value(&row.overall),
                })
                .collect(),
        }),
        Format::Csv => {
            let mut records: Vec<Vec<String>> = Vec::new();
            let names: Vec<&str> = PlayerRules::default()
                .named()
                .into_iter()
                .map(|(name, _)| name)
                .collect();
            // A float run has no fraction to give: no column always empty.
            let exact = T::zero().exact().is_some();
            let mut head: Vec<String> = names.iter().map(|name| (*name).to_string()).collect();
            if exact {
                head.push("value".into());
            }
            head.extend(["decimal", "house_edge_percent"].map(String::from));
            records.push(head);
            for row in rows {
                let mut record: Vec<String> = row
                    .rules
                    .named()
                    .into_iter()
                    .map(|(_, value)| value)
                    .collect();
                if exact {
                    record.push(fraction_or_empty(&row.overall));
                }
                record.push(row.overall.to_f64().to_string());
                record.push(house_edge_percent(&row.overall).to_string());
                records.push(record);
            }
            csv_text(&records)
        }
        Format::Table | Format::Md | Format::Latex => {
            let mut decks: Vec<Decks> = Vec::new();
            let mut variants: Vec<String> = Vec::new();
            for row in rows {
                if !decks.contains(&row.rules.decks) {
                    decks.push(row.rules.decks);
                }
                let variant = grid_variant(&row.rules);
                if !variants.contains(&variant) {
                    variants.push(variant);
                }
            }
            let table_rows = decks
                .iter()
                .map(|&deck_count| {
                    let mut cells = vec![deck_count.to_string()];
                    for variant in &variants {
                        let cell = rows
                            .iter()
                            .find(|row| {
                                row.rules.decks == deck_count
                                    && grid_variant(&row.rules) == *variant
                            })
                            .map(|row| decimal_text(house_edge_percent(&row.overall), decimals))
                            .unwrap_or_default();
                        cells.push(cell);
                    }
                    cells
                })
                .collect();
            let mut head = vec!["decks".to_string()];
            head.extend(variants.iter().cloned());
            // What the grid holds fixed: every rule but the ones its rows
            // and columns vary.
            let varied = ["decks", "soft17", "das", "surrender"];
            let fixed = rows.first().map_or(String::new(), |row| {
                row.rules
                    .named()
                    .into_iter()
                    .filter(|(name, _)| !varied.contains(name))
                    .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let heading = vec![
                format!(
                    "Blackjack house edge (%) across rules ({}, splits {})",
                    method_name::<T>(),
                    split_model.name()
                ),
                format!(
                    "A row per number of decks; a column per dealer soft-17 rule, double after split and surrender. Held fixed: {fixed}."
                ),
            ];
            let table = TitledGrid {
                title: "House edge in percent of the initial bet (S17/H17: the dealer stands/hits soft 17; DAS: double after split; LS: late surrender)".into(),
                grid: Grid {
                    head,
                    rows: table_rows,
                },
            };
            lay_out(format, &heading, &[table], &[], options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_never_print_minus_zero() {
        assert_eq!(decimal_text(-0.00001, 4), "0.0000");
        assert_eq!(decimal_text(-0.2151, 3), "-0.215");
        assert_eq!(decimal_text(1.5, 0), "2");
    }

    #[test]
    fn a_selection_keeps_a_hand_in_either_order() {
        let selection = HandSelection {
            hand: Some((7, 1)),
            upcard: Some(10),
        };
        assert!(selection.is_one_hand());
        let row = |first, second, upcard| HandRow {
            first,
            second,
            upcard,
            probability: 0.0,
            dealer_natural: 0.0,
            values: crate::games::blackjack::player::ActionValues {
                stand: 0.0,
                hit: 0.0,
                double: None,
                split: None,
                surrender: None,
            },
            best: Action::Stand,
            insurance: None,
        };
        assert!(selection.keeps(&row(1, 7, 10)));
        assert!(!selection.keeps(&row(1, 7, 9)));
        assert!(!selection.keeps(&row(1, 8, 10)));
        assert!(HandSelection::default().keeps(&row(1, 8, 10)));
    }
}
