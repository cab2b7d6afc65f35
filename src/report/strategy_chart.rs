//! Rendering of the basic-strategy chart (RULES.md section 6, "Basic
//! strategy chart"): the terminal table, Markdown, CSV, JSON (the chart's
//! contract, a [`StrategyDocument`]) and LaTeX from a [`StrategyChart`],
//! and the coloured SVG strategy card from the chart's document, so that an
//! `svg` output (drawn from the JSON by `report::figures`) and a direct
//! rendering are the same picture.
//!
//! Guarantees: pure functions of their arguments, deterministic, no I/O.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::Value;

use super::table::{Grid, latex_tabular, markdown_table, tabled_text};
use super::types::Format;
use crate::contract::blackjack::{
    Chart, ChartException, LabelMap, MultiCardChart, Params, StrategyDocument, StrategyKind,
    UpcardCells,
};
use crate::contract::{self, Kind, Tag};
use crate::error::{Error, Result};
use crate::games::blackjack::player::chart::{
    CHART_UPCARDS, Cell, ChartRow, Section, StrategyChart,
};
use crate::games::blackjack::player::{PlayerParams, value_letter};
use crate::games::blackjack::value_name;

/// The chart's parameters as its JSON records them: every rule by
/// [`crate::games::blackjack::player::PlayerRules::named`], then
/// `split_model`, then `removed` (value names) when cards were taken out.
pub fn chart_params(params: &PlayerParams) -> Params {
    let mut map: Params = params
        .rules
        .named()
        .into_iter()
        .map(|(name, value)| (name.to_string(), Value::String(value)))
        .collect();
    map.insert("split_model".into(), params.split_model.name().into());
    if !params.removed.is_empty() {
        let removed: Vec<Value> = params
            .removed
            .iter()
            .map(|&v| value_name(v).into())
            .collect();
        map.insert("removed".into(), Value::Array(removed));
    }
    map
}

/// A section's rows by label, each row's codes against the upcards
/// [`CHART_UPCARDS`] (2..9, T, A: the order of [`UpcardCells`]).
fn labelled_rows(rows: &[ChartRow]) -> LabelMap<UpcardCells> {
    rows.iter()
        .map(|row| {
            let codes = row.cells.map(|cell| cell.map(|c| c.as_str().to_string()));
            (row.label.clone(), UpcardCells::from_cells(codes))
        })
        .collect()
}

/// The chart's document, the contract of issue 20 (docs/CONTRACTS.md):
/// `{"game", "method": "exact"|"float", "params": {...every rule...,
/// "split_model"}, "chart": {"hard": {"16": {"2": "S", .., "T": "H", "A":
/// "H"}, ..}, "soft": {"18": ..} (rows by total), "pairs": {"88": ..},
/// "multi_card": {"hard": .., "soft": ..}}, "exceptions": [{"section",
/// "row", "upcard", "hand", "chart", "best"}]}`. Upcards are `2`..`9`,
/// `T`, `A`; a cell no hand reaches is `null`. `"schema"` comes first.
pub fn strategy_document(chart: &StrategyChart, game: &str) -> StrategyDocument {
    let exceptions = chart
        .exceptions
        .iter()
        .map(|e| ChartException {
            section: e.section.name().into(),
            row: e.row.clone(),
            upcard: value_letter(e.upcard).into(),
            hand: e.hand.clone(),
            chart: e.cell.as_str().into(),
            best: e.best.name().into(),
        })
        .collect();
    StrategyDocument {
        schema: Tag::new(),
        game: game.into(),
        method: if chart.exact { "exact" } else { "float" }.into(),
        params: chart_params(&chart.params),
        chart: Chart {
            hard: labelled_rows(&chart.hard),
            soft: labelled_rows(&chart.soft),
            pairs: labelled_rows(&chart.pairs),
            multi_card: MultiCardChart {
                hard: labelled_rows(&chart.multi_card_hard),
                soft: labelled_rows(&chart.multi_card_soft),
            },
        },
        exceptions,
    }
}

/// Renders `chart` in `format`. JSON: [`strategy_document`]
/// (`blackjack strategy` runs no long-run option, so no block follows).
/// CSV: one line per cell (`kind` `cell`, the code in
/// `action`) and per exception (`kind` `exception`, the hand's own best
/// action in `action`). Table, Markdown, LaTeX: a title naming the rules,
/// the hard, soft and pair sections, the rows for three or more cards,
/// the legend and the exceptions. The text ends with a newline.
pub fn render_strategy_chart(chart: &StrategyChart, game: &str, format: Format) -> String {
    match format {
        Format::Json => format!("{}\n", contract::write(&strategy_document(chart, game))),
        Format::Csv => csv(chart),
        Format::Table | Format::Md | Format::Latex => text(chart, format),
    }
}

/// The SVG strategy card of `chart` (see [`svg_from_chart`]).
pub fn strategy_chart_svg(chart: &StrategyChart, game: &str) -> Result<String> {
    svg_from_chart(&strategy_document(chart, game))
}

/// A document's `"schema"`, read without the rest of it.
#[derive(Deserialize)]
struct SchemaOnly {
    schema: Option<String>,
}

/// Whether a report's JSON is a strategy chart's: its `"schema"` is
/// `deckodds.blackjack-strategy/v1`.
pub fn is_chart_json(report: &Value) -> bool {
    SchemaOnly::deserialize(report)
        .is_ok_and(|only| only.schema.as_deref() == Some(StrategyKind::ID))
}

/// The strategy card of a chart's JSON, read as a [`StrategyDocument`]
/// (an unknown field or a wrong type is refused, naming the field), then
/// drawn by [`svg_from_chart`].
pub fn svg_from_chart_json(report: &Value) -> Result<String> {
    let document: StrategyDocument = contract::read(&report.to_string()).map_err(|error| {
        Error::invalid(
            "report",
            error,
            "a strategy card is drawn from a deckodds.blackjack-strategy/v1 document",
        )
    })?;
    svg_from_chart(&document)
}

// ---------------------------------------------------------------------------
// Text formats.

/// The rules in words, from a chart's `params`: `6 decks, dealer stands on
/// soft 17, peek, ...`. Parameters it does not know are written `name
/// value`.
fn rules_in_words(params: &Params) -> String {
    let text = |value: &Value| value.as_str().map_or(value.to_string(), str::to_string);
    params
        .iter()
        .map(|(name, raw)| {
            let value = text(raw);
            match (name.as_str(), value.as_str()) {
                ("decks", "inf") => "infinite deck".to_string(),
                ("decks", "1") => "1 deck".to_string(),
                ("decks", n) => format!("{n} decks"),
                ("soft17", "stand") => "S17".to_string(),
                ("soft17", "hit") => "H17".to_string(),
                ("hole_card", "peek") => "peek".to_string(),
                ("hole_card", "enhc") => "ENHC".to_string(),
                ("blackjack_pays", pays) => format!("blackjack pays {pays}"),
                ("double", "any") => "double any two".to_string(),
                ("double", totals) => format!("double {totals}"),
                ("das", "yes") => "DAS".to_string(),
                ("das", "no") => "no DAS".to_string(),
                ("max_hands", n) => format!("split to {n} hands"),
                ("resplit_aces", "yes") => "re-split aces".to_string(),
                ("resplit_aces", "no") => "no re-split aces".to_string(),
                ("surrender", "none") => "no surrender".to_string(),
                ("surrender", kind) => format!("{kind} surrender"),
                ("split_model", model) => format!("split model {model}"),
                ("removed", _) => {
                    let cards: Vec<String> =
                        raw.as_array().into_iter().flatten().map(text).collect();
                    format!("removed {}", cards.join(" "))
                }
                (name, value) => format!("{name} {value}"),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A column heading for an upcard: `2`..`9`, `10`, `A`.
fn upcard_heading(upcard: u8) -> &'static str {
    value_name(upcard)
}

/// A row's label for people: hard and three-card totals as they are, soft
/// rows `A7 (18)`, pairs `8,8`-style names as the JSON has them (`88`).
fn row_label(section: Section, row: &ChartRow) -> String {
    match section {
        Section::Soft => match row.hands.first() {
            Some(hand) => format!("{hand} (soft {})", row.label),
            None => format!("soft {}", row.label),
        },
        Section::MultiCardSoft => format!("soft {}", row.label),
        _ => row.label.clone(),
    }
}

/// The heading of a section's first column.
fn section_heading(section: Section) -> &'static str {
    match section {
        Section::Hard => "hard",
        Section::Soft => "soft",
        Section::Pairs => "pair",
        Section::MultiCardHard => "3+ cards, hard",
        Section::MultiCardSoft => "3+ cards, soft",
    }
}

fn section_grid(chart: &StrategyChart, section: Section) -> Grid {
    let mut head = vec![section_heading(section).to_string()];
    head.extend(CHART_UPCARDS.iter().map(|&u| upcard_heading(u).to_string()));
    let rows = chart
        .rows(section)
        .iter()
        .map(|row| {
            let mut cells = vec![row_label(section, row)];
            cells.extend(
                row.cells
                    .iter()
                    .map(|c| c.map_or(NO_HAND_CODE, Cell::as_str).to_string()),
            );
            cells
        })
        .collect();
    Grid { head, rows }
}

fn exceptions_grid(chart: &StrategyChart) -> Grid {
    Grid {
        head: ["row", "upcard", "hand", "chart", "hand's best"]
            .map(str::to_string)
            .to_vec(),
        rows: chart
            .exceptions
            .iter()
            .map(|e| {
                let row = match e.section {
                    Section::Hard => format!("hard {}", e.row),
                    Section::Soft => format!("soft {}", e.row),
                    Section::Pairs => format!("pair {}", e.row),
                    Section::MultiCardHard => format!("3+ cards, hard {}", e.row),
                    Section::MultiCardSoft => format!("3+ cards, soft {}", e.row),
                };
                vec![
                    row,
                    upcard_heading(e.upcard).to_string(),
                    e.hand.clone(),
                    e.cell.as_str().to_string(),
                    e.best.name().to_string(),
                ]
            })
            .collect(),
    }
}

fn title(chart: &StrategyChart) -> String {
    format!(
        "Basic strategy ({}; {})",
        rules_in_words(&chart_params(&chart.params)),
        if chart.exact { "exact" } else { "float" }
    )
}

/// What a cell with no code means: no hand of its row is held against
/// its upcard (the optimal player never reaches a total of three or more
/// cards there, or cards removed leave no such hand). The text chart
/// writes it [`NO_HAND_CODE`]; the card leaves it blank and grey.
const NO_HAND: &str = "no hand of the row is held against this upcard";

/// The card's fill of a cell with no code ([`NO_HAND`]).
const BLANK_FILL: &str = "#EEEEEE";

/// The text chart's code for a cell with no code ([`NO_HAND`]).
const NO_HAND_CODE: &str = "-";

/// The legend of every code the chart uses: the actions always (the
/// reader looks them up), [`NO_HAND_CODE`] only when some cell has it.
fn legend(chart: &StrategyChart) -> String {
    let mut entries: Vec<String> = Cell::ALL
        .iter()
        .map(|cell| format!("{} {}", cell.as_str(), cell.meaning()))
        .collect();
    if has_cell_without_hand(chart) {
        entries.push(format!("{NO_HAND_CODE} {NO_HAND}"));
    }
    entries.join("; ")
}

/// Whether some cell of the chart has no hand (and so no code).
fn has_cell_without_hand(chart: &StrategyChart) -> bool {
    Section::ALL
        .into_iter()
        .flat_map(|section| chart.rows(section))
        .any(|row| row.cells.iter().any(Option::is_none))
}

const MULTI_CARD_NOTE: &str = "Hands of three or more cards stand or hit by total; each \
    composition weighted by the chance that the optimal player holds it (split hands left out).";

const EXCEPTIONS_NOTE: &str = "Hands that play differently from their row (their own best \
    action over the same choices):";

const NO_EXCEPTIONS: &str = "No hand plays differently from its row.";

fn text(chart: &StrategyChart, format: Format) -> String {
    let grid_text = |grid: &Grid| match format {
        Format::Md => markdown_table(grid),
        Format::Latex => latex_tabular(grid, None),
        _ => tabled_text(grid) + "\n",
    };
    let paragraph = |text: &str| match format {
        Format::Latex => format!("{}\n\n", super::table::latex_escape(text)),
        _ => format!("{text}\n\n"),
    };
    let mut out = match format {
        Format::Md => format!("## {}\n\n", title(chart)),
        _ => paragraph(&title(chart)),
    };
    out.push_str(&paragraph(&format!(
        "Dealer's upcard across; {}.",
        legend(chart)
    )));
    for section in [Section::Hard, Section::Soft, Section::Pairs] {
        out.push_str(&grid_text(&section_grid(chart, section)));
        out.push('\n');
    }
    out.push_str(&paragraph(MULTI_CARD_NOTE));
    for section in [Section::MultiCardHard, Section::MultiCardSoft] {
        out.push_str(&grid_text(&section_grid(chart, section)));
        out.push('\n');
    }
    if chart.exceptions.is_empty() {
        out.push_str(&paragraph(NO_EXCEPTIONS));
    } else {
        out.push_str(&paragraph(EXCEPTIONS_NOTE));
        out.push_str(&grid_text(&exceptions_grid(chart)));
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn csv(chart: &StrategyChart) -> String {
    chart.to_csv()
}

// ---------------------------------------------------------------------------
// The SVG strategy card.

/// Cell colours: hues from the Okabe–Ito palette, which stay apart under
/// the common colour-vision deficiencies, lightened where black text sits
/// on them; every cell also prints its code, so the card reads in grey.
fn cell_colour(cell: Cell) -> &'static str {
    match cell {
        // Orange: stand.
        Cell::Stand => "#E69F00",
        // White: hit.
        Cell::Hit => "#FFFFFF",
        // Sky blue: double; lighter when the fallback is to stand.
        Cell::DoubleElseHit => "#56B4E9",
        Cell::DoubleElseStand => "#B3DDF5",
        // Bluish green: split.
        Cell::Split => "#009E73",
        // Grey: surrender.
        Cell::SurrenderElseHit | Cell::SurrenderElseStand | Cell::SurrenderElseSplit => "#BBBBBB",
    }
}

/// Escapes text for SVG.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// Words of `text` in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One section of the card, read back from the JSON.
struct CardSection {
    heading: String,
    section: Section,
    /// (label, cells in [`CHART_UPCARDS`] order).
    rows: Vec<(String, Vec<Option<Cell>>)>,
}

/// The rows of a chart's section, their codes checked.
fn read_rows(rows: &LabelMap<UpcardCells>, what: &str) -> Result<Vec<(String, Vec<Option<Cell>>)>> {
    rows.0
        .iter()
        .map(|(label, row)| {
            let cells = CHART_UPCARDS
                .iter()
                .zip(row.cells())
                .map(|(&upcard, code)| match code {
                    None => Ok(None),
                    Some(code) => Cell::parse(code).map(Some).ok_or_else(|| {
                        Error::invalid(
                            "report",
                            format!(
                                "chart {what} {label} against {}: \"{code}\"",
                                value_letter(upcard)
                            ),
                            "must be one of S, H, D, Ds, P, R, Rs, Rp or null",
                        )
                    }),
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((label.clone(), cells))
        })
        .collect()
}

/// How a two-card cell plays a hand that can no longer double or
/// surrender, for comparing the rows of three or more cards with it.
fn without_double_or_surrender(cell: Cell) -> Option<Cell> {
    match cell {
        Cell::Stand | Cell::DoubleElseStand | Cell::SurrenderElseStand => Some(Cell::Stand),
        Cell::Hit | Cell::DoubleElseHit | Cell::SurrenderElseHit => Some(Cell::Hit),
        Cell::Split | Cell::SurrenderElseSplit => None,
    }
}

const CELL_W: i32 = 46;
const CELL_H: i32 = 24;
const LABEL_W: i32 = 118;
const MARGIN: i32 = 16;
const WIDTH: i32 = MARGIN * 2 + LABEL_W + CELL_W * 10;

/// Draws the strategy card of a chart's document ([`strategy_document`]):
/// rows hard 5..20, soft 13..20 and pairs against upcards 2..10, A, each
/// cell coloured by its action and printing its code, a small black corner
/// on cells where some hand of the class plays otherwise (the JSON's
/// `exceptions`), then the rows for three or more cards where they differ
/// from the two-card rows (doubling and surrender set aside), the legend,
/// and the rules in the title. Deterministic. Errors name a cell whose
/// code is not one of the chart's.
pub fn svg_from_chart(report: &StrategyDocument) -> Result<String> {
    let chart = &report.chart;
    let mut sections = vec![
        CardSection {
            heading: "Hard totals".into(),
            section: Section::Hard,
            rows: read_rows(&chart.hard, "hard")?,
        },
        CardSection {
            heading: "Soft totals".into(),
            section: Section::Soft,
            rows: read_rows(&chart.soft, "soft")?
                .into_iter()
                .map(|(label, cells)| {
                    let name = label
                        .parse::<u8>()
                        .ok()
                        .filter(|t| (12..=21).contains(t))
                        .map_or(label.clone(), |t| {
                            format!("A{} ({label})", value_name(t - 11))
                        });
                    (name, cells)
                })
                .collect(),
        },
        CardSection {
            heading: "Pairs".into(),
            section: Section::Pairs,
            rows: read_rows(&chart.pairs, "pairs")?
                .into_iter()
                .map(|(label, cells)| {
                    let name = label.replace('T', "10");
                    let mut chars = name.chars();
                    let first = chars.next().map(String::from).unwrap_or_default();
                    let name = if name == "1010" {
                        "10,10".to_string()
                    } else {
                        format!("{first},{}", chars.as_str())
                    };
                    (name, cells)
                })
                .collect(),
        },
    ];
    // Three or more cards, where a row differs from its two-card row.
    for (key, section, two_card, multi) in [
        (
            "hard",
            Section::MultiCardHard,
            &chart.hard,
            &chart.multi_card.hard,
        ),
        (
            "soft",
            Section::MultiCardSoft,
            &chart.soft,
            &chart.multi_card.soft,
        ),
    ] {
        let two_card = read_rows(two_card, key)?;
        let rows: Vec<(String, Vec<Option<Cell>>)> =
            read_rows(multi, &format!("multi_card {key}"))?
                .into_iter()
                .filter(|(label, cells)| {
                    two_card
                        .iter()
                        .find(|(l, _)| l == label)
                        .is_some_and(|(_, two)| {
                            cells.iter().zip(two).any(|(multi, two)| {
                                matches!((multi, two.and_then(without_double_or_surrender)),
                                    (Some(m), Some(t)) if *m != t)
                            })
                        })
                })
                .map(|(label, cells)| {
                    let name = if key == "soft" {
                        format!("soft {label}")
                    } else {
                        label
                    };
                    (name, cells)
                })
                .collect();
        if !rows.is_empty() {
            sections.push(CardSection {
                heading: format!(
                    "{} totals of three or more cards, where they differ",
                    if key == "soft" { "Soft" } else { "Hard" }
                ),
                section,
                rows,
            });
        }
    }
    let marked: BTreeSet<(&str, &str, &str)> = report
        .exceptions
        .iter()
        .map(|e| (e.section.as_str(), e.row.as_str(), e.upcard.as_str()))
        .collect();

    let method = report.method.as_str();
    let mut title_lines = vec!["Basic strategy".to_string()];
    let rules = rules_in_words(&report.params);
    title_lines.extend(wrap(
        &if method.is_empty() {
            rules
        } else {
            format!("{rules} ({method})")
        },
        82,
    ));

    let mut y = MARGIN;
    let mut body = String::new();
    for (i, line) in title_lines.iter().enumerate() {
        let (size, weight) = if i == 0 { (20, "bold") } else { (13, "normal") };
        y += size + 4;
        let _ = writeln!(
            body,
            r#"<text x="{MARGIN}" y="{y}" font-size="{size}" font-weight="{weight}">{}</text>"#,
            xml(line)
        );
    }
    y += 8;
    let grid_x = MARGIN + LABEL_W;
    for card in &sections {
        y += 22;
        let _ = writeln!(
            body,
            r#"<text x="{MARGIN}" y="{y}" font-size="15" font-weight="bold">{}</text>"#,
            xml(&card.heading)
        );
        y += 6;
        // The upcards.
        let _ = writeln!(
            body,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="end" fill="#444444">dealer shows</text>"##,
            grid_x - 8,
            y + 17
        );
        for (column, &upcard) in CHART_UPCARDS.iter().enumerate() {
            let x = grid_x + CELL_W * column as i32;
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}" font-size="14" font-weight="bold" text-anchor="middle">{}</text>"#,
                x + CELL_W / 2,
                y + 17,
                upcard_heading(upcard)
            );
        }
        y += CELL_H;
        for (label, cells) in &card.rows {
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}" font-size="14" text-anchor="end">{}</text>"#,
                grid_x - 8,
                y + 17,
                xml(label)
            );
            let row_key = json_row_key(card.section, label);
            for (column, (&upcard, cell)) in CHART_UPCARDS.iter().zip(cells).enumerate() {
                let x = grid_x + CELL_W * column as i32;
                let fill = cell.map_or(BLANK_FILL, cell_colour);
                let _ = writeln!(
                    body,
                    r##"<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" stroke="#666666" stroke-width="1"/>"##
                );
                if let Some(cell) = cell {
                    let _ = writeln!(
                        body,
                        r#"<text x="{}" y="{}" font-size="14" font-weight="bold" text-anchor="middle">{}</text>"#,
                        x + CELL_W / 2,
                        y + 17,
                        cell.as_str()
                    );
                }
                let key = (card.section.name(), row_key.as_str(), value_letter(upcard));
                if marked.contains(&key) {
                    body.push_str(&corner_mark(x, y));
                }
            }
            y += CELL_H;
        }
    }
    // The legend: two columns of swatches.
    y += 24;
    let _ = writeln!(
        body,
        r#"<text x="{MARGIN}" y="{y}" font-size="15" font-weight="bold">Key</text>"#
    );
    y += 8;
    let column_w = (WIDTH - 2 * MARGIN) / 2;
    for (i, cell) in Cell::ALL.iter().enumerate() {
        let x = MARGIN + column_w * (i % 2) as i32;
        let top = y + 26 * (i / 2) as i32;
        let _ = writeln!(
            body,
            r##"<rect x="{x}" y="{top}" width="{CELL_W}" height="{CELL_H}" fill="{}" stroke="#666666" stroke-width="1"/>"##,
            cell_colour(*cell)
        );
        let _ = writeln!(
            body,
            r#"<text x="{}" y="{}" font-size="14" font-weight="bold" text-anchor="middle">{}</text>"#,
            x + CELL_W / 2,
            top + 17,
            cell.as_str()
        );
        let _ = writeln!(
            body,
            r#"<text x="{}" y="{}" font-size="13">{}</text>"#,
            x + CELL_W + 8,
            top + 17,
            xml(cell.meaning())
        );
    }
    let mut swatches = Cell::ALL.len();
    // A blank cell drawn above is a code too: its swatch follows the
    // actions'.
    if sections
        .iter()
        .any(|card| card.rows.iter().any(|(_, cells)| cells.contains(&None)))
    {
        let x = MARGIN + column_w * (swatches % 2) as i32;
        let top = y + 26 * (swatches / 2) as i32;
        let _ = writeln!(
            body,
            r##"<rect x="{x}" y="{top}" width="{CELL_W}" height="{CELL_H}" fill="{BLANK_FILL}" stroke="#666666" stroke-width="1"/>"##
        );
        let _ = writeln!(
            body,
            r#"<text x="{}" y="{}" font-size="13">{}</text>"#,
            x + CELL_W + 8,
            top + 17,
            xml(NO_HAND)
        );
        swatches += 1;
    }
    y += 26 * swatches.div_ceil(2) as i32 + 4;
    body.push_str(&corner_mark(MARGIN, y));
    let _ = writeln!(
        body,
        r##"<rect x="{MARGIN}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="none" stroke="#666666" stroke-width="1"/>"##
    );
    for (i, line) in [
        "some hand of the row plays otherwise against this upcard",
        "(see the exceptions in the chart's table or JSON)",
    ]
    .iter()
    .enumerate()
    {
        let _ = writeln!(
            body,
            r#"<text x="{}" y="{}" font-size="13">{}</text>"#,
            MARGIN + CELL_W + 8,
            y + 11 + 15 * i as i32,
            xml(line)
        );
    }
    y += CELL_H + 14;
    let height = y + MARGIN;
    Ok(format!(
        concat!(
            r#"<svg width="{w}" height="{h}" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, sans-serif">"#,
            "\n",
            r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#,
            "\n{body}</svg>\n"
        ),
        w = WIDTH,
        h = height,
        body = body
    ))
}

/// A small black triangle in the top right corner of the cell at `(x, y)`.
fn corner_mark(x: i32, y: i32) -> String {
    let right = x + CELL_W;
    format!(
        r##"<polygon points="{},{y} {right},{y} {right},{}" fill="#000000"/>"##,
        right - 10,
        y + 10
    ) + "\n"
}

/// The JSON row key of a card row's label (soft rows are drawn `A7 (18)`
/// and pairs `8,8`, but keyed `18` and `88`).
fn json_row_key(section: Section, label: &str) -> String {
    match section {
        Section::Soft => label
            .split_once('(')
            .map_or(label, |(_, rest)| rest.trim_end_matches(')'))
            .to_string(),
        Section::MultiCardSoft => label.trim_start_matches("soft ").to_string(),
        Section::Pairs => label.replace(',', "").replace("10", "T"),
        _ => label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::chart::strategy_chart;
    use crate::games::blackjack::player::{PlayerRules, SplitModel, solve_float};
    use crate::report::chart::testing::texts;
    use serde_json::json;

    const GAME: &str = "blackjack-player";

    /// The 6-deck default chart (PlayerRules::default(), cdz), solved once.
    fn six_decks() -> &'static StrategyChart {
        static CHART: OnceLock<StrategyChart> = OnceLock::new();
        CHART.get_or_init(|| {
            let params = PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz);
            strategy_chart(&solve_float(&params, &NoProgress).unwrap()).unwrap()
        })
    }

    fn render(format: Format) -> String {
        render_strategy_chart(six_decks(), GAME, format)
    }

    #[test]
    fn markdown_of_the_six_deck_chart() {
        insta::assert_snapshot!(render(Format::Md));
    }

    #[test]
    fn json_is_the_contract_and_holds_every_cell() {
        let chart = six_decks();
        let value: Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(value["game"], GAME);
        assert_eq!(value["method"], "float");
        let params = value["params"].as_object().unwrap();
        let names: Vec<&str> = params.keys().map(String::as_str).collect();
        let mut expected: Vec<&str> = chart.params.rules.named().iter().map(|(n, _)| *n).collect();
        expected.push("split_model");
        assert_eq!(names, expected);
        assert_eq!(value["params"]["decks"], "6");
        assert_eq!(value["params"]["split_model"], "cdz");
        // Issue 20's example cells, and every cell as the chart has it.
        assert_eq!(value["chart"]["hard"]["16"]["T"], "H");
        assert_eq!(value["chart"]["pairs"]["88"]["A"], "P");
        assert_eq!(value["chart"]["soft"]["18"]["3"], "Ds");
        let mut cells = 0;
        for section in Section::ALL {
            let object = match section {
                Section::MultiCardHard => &value["chart"]["multi_card"]["hard"],
                Section::MultiCardSoft => &value["chart"]["multi_card"]["soft"],
                _ => &value["chart"][section.name()],
            };
            let labels: Vec<&String> = object.as_object().unwrap().keys().collect();
            let rows = chart.rows(section);
            assert_eq!(labels, rows.iter().map(|r| &r.label).collect::<Vec<_>>());
            for row in rows {
                let keys: Vec<&String> = object[&row.label].as_object().unwrap().keys().collect();
                assert_eq!(keys, ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]);
                for &upcard in &CHART_UPCARDS {
                    let written = &object[&row.label][value_letter(upcard)];
                    match row.cell(upcard) {
                        Some(cell) => assert_eq!(written, cell.as_str()),
                        None => assert!(written.is_null()),
                    }
                    cells += 1;
                }
            }
        }
        assert_eq!(
            cells,
            10 * (16 + 8 + 10 + chart.multi_card_hard.len() + chart.multi_card_soft.len())
        );
        let exceptions = value["exceptions"].as_array().unwrap();
        assert_eq!(exceptions.len(), chart.exceptions.len());
        assert_eq!(
            exceptions[0],
            json!({"section": "hard", "row": "12", "upcard": "4", "hand": "2T",
                   "chart": "S", "best": "hit"})
        );
    }

    #[test]
    fn csv_has_a_line_per_cell_and_per_exception() {
        let chart = six_decks();
        let text = render(Format::Csv);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "kind,section,row,upcard,action,hand");
        let cells: usize = Section::ALL
            .iter()
            .flat_map(|&s| chart.rows(s))
            .map(|row| row.cells.iter().flatten().count())
            .sum();
        assert_eq!(lines.len(), 1 + cells + chart.exceptions.len());
        assert!(lines.contains(&"cell,hard,16,T,H,"));
        assert!(lines.contains(&"cell,pairs,99,7,S,"));
        assert!(lines.contains(&"exception,hard,12,4,hit,2T"));
        assert!(lines.contains(&"exception,multi_card_hard,16,T,hit,466"));
    }

    #[test]
    fn table_and_latex_show_every_section() {
        let table = render(Format::Table);
        let latex = render(Format::Latex);
        for text in [&table, &latex] {
            assert!(
                text.starts_with("Basic strategy (6 decks, S17, peek, blackjack pays 3:2"),
                "{text}"
            );
            for heading in [
                "hard",
                "soft",
                "pair",
                "3+ cards, hard",
                "3+ cards, soft",
                "hand's best",
            ] {
                assert!(text.contains(heading), "{heading} in {text}");
            }
            assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
        }
        // Five sections and the exceptions.
        assert_eq!(latex.matches("\\begin{tabular}").count(), 6, "{latex}");
        assert!(
            latex.contains("A7 (soft 18) & S & Ds & Ds & Ds & Ds & S & S & H & H & H \\\\"),
            "{latex}"
        );
    }

    #[test]
    fn the_card_is_drawn_from_the_json() {
        let chart = six_decks();
        let svg = strategy_chart_svg(chart, GAME).unwrap();
        assert_eq!(
            svg,
            svg_from_chart(&strategy_document(chart, GAME)).unwrap()
        );
        // And from the JSON as written and read back.
        let written: Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(svg, svg_from_chart_json(&written).unwrap());
        let shown = texts(&svg);
        for text in [
            "Basic strategy",
            "Hard totals",
            "Soft totals",
            "Pairs",
            "A7 (18)",
            "8,8",
            "10,10",
            "double, else stand",
            "surrender, else split",
            // Only 16 against a ten reads otherwise with three cards or more.
            "Hard totals of three or more cards, where they differ",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        assert!(
            shown.iter().any(|t| t.starts_with("6 decks, S17, peek")),
            "{shown:?}"
        );
        // One cell per upcard for 16 + 8 + 10 rows and the one row of three
        // or more cards, and the legend's nine swatches.
        assert_eq!(svg.matches("<rect").count(), 1 + 10 * 35 + 9, "{svg}");
        // A corner per exception in the rows drawn (2T against 4; hard 16
        // of three or more cards against a ten), and the legend's.
        let corners = 1 + 1 + 1;
        assert_eq!(svg.matches("<polygon").count(), corners, "{svg}");
        // Orange for every stand: the two-card rows', the one row of three
        // cards or more drawn, and the legend's.
        let multi_16 = chart
            .multi_card_hard
            .iter()
            .find(|row| row.label == "16")
            .unwrap();
        let multi_stands = multi_16
            .cells
            .iter()
            .filter(|c| **c == Some(Cell::Stand))
            .count();
        assert_eq!(
            svg.matches(r##"fill="#E69F00""##).count(),
            count_code(chart, Cell::Stand) + multi_stands + 1
        );
    }

    #[test]
    fn the_legend_names_every_code_the_table_prints() {
        let text = render(Format::Table);
        let legend = text
            .lines()
            .find(|line| line.starts_with("Dealer's upcard across; "))
            .expect("a legend");
        // The cells of every section's table: the columns after the label.
        let chart = six_decks();
        let codes: BTreeSet<String> = Section::ALL
            .into_iter()
            .flat_map(|section| section_grid(chart, section).rows)
            .flat_map(|row| row.into_iter().skip(1))
            .collect();
        // Hard 6 of three or more cards is never held against 2..7.
        assert!(codes.contains(NO_HAND_CODE), "{codes:?}");
        for code in codes {
            assert!(
                legend.contains(&format!("; {code} ")),
                "{code} is not in the legend: {legend}"
            );
        }
        assert!(legend.contains(&format!("{NO_HAND_CODE} {NO_HAND}")));
    }

    #[test]
    fn a_blank_cell_on_the_card_has_its_swatch() {
        let mut document = strategy_document(six_decks(), GAME);
        let full = svg_from_chart(&document).unwrap();
        assert!(!texts(&full).contains(&NO_HAND), "no blank cell");
        let mut value = serde_json::to_value(&document).unwrap();
        value["chart"]["hard"]["16"]["T"] = Value::Null;
        document = serde_json::from_value(value).unwrap();
        let blank = svg_from_chart(&document).unwrap();
        assert!(texts(&blank).contains(&NO_HAND), "{blank}");
        assert_eq!(
            blank.matches(BLANK_FILL).count(),
            full.matches(BLANK_FILL).count() + 2,
            "the cell and its swatch"
        );
    }

    /// Cells of `cell` in the two-card sections.
    fn count_code(chart: &StrategyChart, cell: Cell) -> usize {
        [Section::Hard, Section::Soft, Section::Pairs]
            .iter()
            .flat_map(|&s| chart.rows(s))
            .map(|row| row.cells.iter().filter(|c| **c == Some(cell)).count())
            .sum()
    }

    #[test]
    fn a_card_refuses_what_is_not_a_chart() {
        let written = || serde_json::to_value(strategy_document(six_decks(), GAME)).unwrap();
        let refusal = |value: &Value| svg_from_chart_json(value).unwrap_err().to_string();
        let mut value = written();
        value["chart"]["hard"]["16"]["T"] = json!("X");
        let message = refusal(&value);
        assert!(
            message.contains("chart hard 16 against T: \"X\""),
            "{message}"
        );
        assert!(message.contains("must be one of S, H"), "{message}");
        let mut value = written();
        value["chart"]["soft"]["18"]["colour"] = json!("red");
        let message = refusal(&value);
        assert!(
            message.contains("field chart.soft.18.colour: unknown field `colour`"),
            "{message}"
        );
        let mut value = written();
        value["exceptions"][0]["row"] = json!(12);
        let message = refusal(&value);
        assert!(
            message.contains("field exceptions[0].row: invalid type: integer `12`"),
            "{message}"
        );
        let message = refusal(&json!({"schema": StrategyKind::ID, "chart": {}}));
        assert!(message.contains("missing field"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        // A chart is known by its schema, not its shape.
        assert!(is_chart_json(&written()));
        let mut value = written();
        value["schema"] = json!("deckodds.blackjack-player/v1");
        assert!(!is_chart_json(&value));
    }
}
