//! A strategy chart the table plays (RULES.md section 6, "Basic strategy
//! chart" and "Monte Carlo"): a total-dependent chart, one [`Cell`] per row
//! and upcard, read from a solved [`StrategyChart`] (basic strategy) or
//! from anyone's chart in the CSV layout the strategy chart is printed in,
//! and the action it gives a hand under a rule set.
//!
//! # The chart
//!
//! Five sections, every row with a cell against each upcard A..10:
//!
//! - `hard` 5..20 and `soft` 13..20: two-card hands that are not read as a
//!   pair; cells `S`, `H`, `D`, `Ds`, `R`, `Rs` (no split: these hands are
//!   not pairs, and a pair dealt to a split hand plays here as its total).
//! - `pairs` AA, 22, .., 99, TT: the first two cards of a round, of equal
//!   value; any cell.
//! - `multi_card_hard` 6..20 and `multi_card_soft` 13..20: three or more
//!   cards (2+2+2 is the least hard total, A+A+A the least soft one, held
//!   where aces are not split: the solver's chart has that row under ENHC
//!   with early surrender); cells `S` and `H` only (no hand doubles,
//!   splits or surrenders after its second card).
//!
//! Composition exceptions are not part of a total-dependent chart: a chart
//! player ignores them.
//!
//! A solved chart leaves a multi-card cell empty where no hand of that
//! total is ever held by the optimal player (with six decks: hard 6
//! against 2..7, where 2s are split; soft 13, A+A+A, where aces are split;
//! soft 14 and 15 against 5 and 6, where A2 and A3 double), but a chart
//! player can hold one (2+2 after a split, A2 after a split without double
//! after split, a chart of the player's own that hits aces). Such a
//! cell, from a solved chart or missing from a CSV file, is the two-card
//! row of the same total and softness with its double or surrender taken
//! away: `D` and `R` hit, `Ds` and `Rs` stand. A missing cell of a
//! two-card section is an error. So a chart with no multi-card rows at
//! all, as most printed charts are, plays three or more cards by its
//! two-card rows.
//!
//! # The CSV layout
//!
//! As the strategy chart prints it: the header
//! `kind,section,row,upcard,action,hand`, then one line per cell,
//! `cell,hard,16,T,H,` (the `hand` field empty). Lines of kind `exception`
//! are accepted and ignored (beyond their number of fields). Blank lines are
//! skipped; whitespace around fields is trimmed; a leading byte-order mark
//! is ignored; quoted fields are read as CSV reads them. Lines may come in
//! any order. Names are read in either case:
//!
//! - `section`: `hard`, `soft`, `pairs`, `multi_card_hard`,
//!   `multi_card_soft`.
//! - `row`: a total in the section's range; a soft row may also be written
//!   as its hand (`A7` for soft 18); a pair as printed (`AA`, `88`, `TT`),
//!   or any spelling of two equal values that hands take (`1010`, `KQ`).
//! - `upcard`: `A`, `2`..`9`, `T` as printed, or `10`, `J`, `Q`, `K`. Not
//!   `1` or `11`: an ace is `A`.
//! - `action`: `S`, `H`, `D`, `Ds`, `P`, `R`, `Rs`, `Rp`.
//!
//! Refusals are [`Error::InvalidValue`]s of one line whose parameter names
//! the CSV line and column (`line 14, column action "X": not an action;
//! allowed: S, H, D, Ds, P, R, Rs, Rp`), or the missing cell (`missing cell
//! hard 16 against T: ...`). A caller reading a file adds the file's name
//! (it should not rename the parameter with [`Error::naming`], which would
//! drop the line).
//!
//! # Decisions
//!
//! [`ChartStrategy::decide`] documents which row a hand reads and how a
//! cell is resolved against the rules.

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use crate::csv_text;
use crate::error::{Error, Result};
use crate::games::blackjack::N_VALUES;
use crate::games::blackjack::player::chart::{
    CHART_UPCARDS, Cell, HARD_TOTALS, SOFT_TOTALS, Section, StrategyChart,
};
use crate::games::blackjack::player::{
    Action, Hand, PlayerRules, Spot, Surrender, hand_name, parse_hand, parse_upcard, value_letter,
};

/// The hard totals of three or more cards with a row (2+2+2 is the least).
pub const MULTI_CARD_HARD_TOTALS: RangeInclusive<u8> = 6..=20;
/// The soft totals of three or more cards with a row (A+A+A is the least).
pub const MULTI_CARD_SOFT_TOTALS: RangeInclusive<u8> = 13..=20;

/// The CSV header, as the strategy chart prints it.
/// The most characters of a malformed line an error message quotes.
const LINE_QUOTED_CHARS: usize = 80;

pub const CHART_CSV_HEADER: &str = "kind,section,row,upcard,action,hand";

/// The header's column names, in order.
const COLUMNS: [&str; 6] = ["kind", "section", "row", "upcard", "action", "hand"];

/// The rows of the five sections, one after another, each row a cell per
/// upcard (index upcard - 1).
const ROWS: usize = 16 + 8 + 10 + 15 + 8;

/// The keys of a section's rows: the total, or for pairs the value of each
/// card (1 for AA, 10 for TT).
fn row_keys(section: Section) -> RangeInclusive<u8> {
    match section {
        Section::Hard => HARD_TOTALS,
        Section::Soft => SOFT_TOTALS,
        Section::Pairs => 1..=10,
        Section::MultiCardHard => MULTI_CARD_HARD_TOTALS,
        Section::MultiCardSoft => MULTI_CARD_SOFT_TOTALS,
    }
}

/// The index of a section's first row in the table.
fn first_row(section: Section) -> usize {
    Section::ALL
        .into_iter()
        .take_while(|&s| s != section)
        .map(|s| row_keys(s).len())
        .sum()
}

/// The index of a row in the table, if the section has that row.
fn row_index(section: Section, key: u8) -> Option<usize> {
    let keys = row_keys(section);
    keys.contains(&key)
        .then(|| first_row(section) + usize::from(key - keys.start()))
}

/// A row's label as the chart prints it: the total, or the pair (`88`).
fn row_label(section: Section, key: u8) -> String {
    match section {
        Section::Pairs => hand_name(key, key),
        _ => key.to_string(),
    }
}

/// The row key a label names in a section (the module doc lists the
/// spellings), or `None`.
pub(crate) fn parse_row_key(section: Section, label: &str) -> Option<u8> {
    let key = match section {
        Section::Pairs => match parse_hand(label) {
            Ok((low, high)) if low == high => low,
            _ => return None,
        },
        Section::Soft => match label.parse::<u8>() {
            Ok(total) => total,
            Err(_) => match parse_hand(label) {
                Ok((1, other)) if other > 1 => 11 + other,
                _ => return None,
            },
        },
        _ => label.parse::<u8>().ok()?,
    };
    row_keys(section).contains(&key).then_some(key)
}

/// The rows a section has, for messages: `5..20`, `AA, 22, .., 99, TT`.
pub(crate) fn rows_allowed(section: Section) -> String {
    let keys = row_keys(section);
    match section {
        Section::Pairs => "AA, 22, 33, 44, 55, 66, 77, 88, 99, TT".to_string(),
        Section::Soft => format!("{}..{} (or A2..A9)", keys.start(), keys.end()),
        _ => format!("{}..{}", keys.start(), keys.end()),
    }
}

/// The section a name names, in either case.
fn parse_section(name: &str) -> Option<Section> {
    Section::ALL
        .into_iter()
        .find(|section| section.name().eq_ignore_ascii_case(name))
}

/// The cell a code names, in either case (`ds` is `Ds`).
fn parse_cell(code: &str) -> Option<Cell> {
    Cell::ALL
        .into_iter()
        .find(|cell| cell.as_str().eq_ignore_ascii_case(code))
}

/// Why a section cannot hold a cell, or `None` if it can: a split outside
/// the pairs section, anything but stand or hit for three or more cards.
fn cell_refusal(section: Section, cell: Cell) -> Option<String> {
    match section {
        Section::Pairs => None,
        Section::MultiCardHard | Section::MultiCardSoft => {
            (!matches!(cell, Cell::Stand | Cell::Hit)).then(|| {
                format!(
                    "three or more cards only stand or hit; {} takes S or H",
                    section.name()
                )
            })
        }
        Section::Hard | Section::Soft => matches!(cell, Cell::Split | Cell::SurrenderElseSplit)
            .then(|| {
                format!(
                    "a split outside the pairs section; {} takes S, H, D, Ds, R or Rs",
                    section.name()
                )
            }),
    }
}

/// The stand-or-hit a cell falls back to for three or more cards: its
/// double or surrender taken away (`D` and `R` hit, `Ds` and `Rs` stand).
pub(crate) fn stand_or_hit(cell: Cell) -> Cell {
    match cell {
        Cell::Stand | Cell::DoubleElseStand | Cell::SurrenderElseStand => Cell::Stand,
        Cell::Hit
        | Cell::DoubleElseHit
        | Cell::SurrenderElseHit
        | Cell::Split
        | Cell::SurrenderElseSplit => Cell::Hit,
    }
}

/// The error for a cell no line or row gives.
fn missing_cell(section: Section, key: u8, upcard: u8) -> Error {
    Error::invalid(
        "missing cell",
        format!(
            "{} {} against {}",
            section.name(),
            row_label(section, key),
            value_letter(upcard)
        ),
        "the hard, soft and pairs sections need a cell for every row and upcard (A, 2..9, T)",
    )
}

/// A chart being filled: each cell, and where it came from (a CSV line, or
/// 0 for a solved chart).
struct PartialChart {
    cells: [[Option<(Cell, u64)>; N_VALUES]; ROWS],
}

impl PartialChart {
    fn new() -> PartialChart {
        PartialChart {
            cells: [[None; N_VALUES]; ROWS],
        }
    }

    /// The chart, once every two-card cell is there; the multi-card cells
    /// missing are filled from the two-card rows (module doc).
    fn finish(self) -> Result<ChartStrategy> {
        let mut cells = [[Cell::Hit; N_VALUES]; ROWS];
        for section in [Section::Hard, Section::Soft, Section::Pairs] {
            for key in row_keys(section) {
                let index = row_index(section, key).expect("a row of the section");
                for upcard in 1..=N_VALUES as u8 {
                    let column = usize::from(upcard - 1);
                    let (cell, _) = self.cells[index][column]
                        .ok_or_else(|| missing_cell(section, key, upcard))?;
                    cells[index][column] = cell;
                }
            }
        }
        for (section, two_card) in [
            (Section::MultiCardHard, Section::Hard),
            (Section::MultiCardSoft, Section::Soft),
        ] {
            for key in row_keys(section) {
                let index = row_index(section, key).expect("a row of the section");
                let two_card_index = row_index(two_card, key).expect("the two-card row exists");
                let two_card_row = cells[two_card_index];
                for ((cell, given), two_card_cell) in cells[index]
                    .iter_mut()
                    .zip(&self.cells[index])
                    .zip(two_card_row)
                {
                    *cell = match given {
                        Some((given, _)) => *given,
                        None => stand_or_hit(two_card_cell),
                    };
                }
            }
        }
        Ok(ChartStrategy { cells })
    }
}

/// A total-dependent strategy chart (module doc): a [`Cell`] for every row
/// of hard 5..20, soft 13..20, the ten pairs, hard 6..20 and soft 13..20 of
/// three or more cards, against every upcard.
///
/// Guarantees: a split (`P`, `Rp`) only in the pairs section, only `S` or
/// `H` in the multi-card sections; so [`ChartStrategy::decide`] gives an
/// action the rules allow.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChartStrategy {
    /// By row ([`row_index`]), then upcard - 1.
    cells: [[Cell; N_VALUES]; ROWS],
}

impl ChartStrategy {
    /// Basic strategy: the cells of a solved chart, its composition
    /// exceptions ignored, its empty multi-card cells filled from the
    /// two-card rows (module doc). The solver's chart of a full shoe
    /// always reads. Errors name the row: a row label not in its section, a
    /// row twice, a cell its section cannot hold (a chart edited by hand),
    /// or an empty cell in a two-card section (a chart of a shoe with cards
    /// removed, in which some two-card hand cannot be dealt).
    pub fn from_chart(chart: &StrategyChart) -> Result<ChartStrategy> {
        let mut partial = PartialChart::new();
        for section in Section::ALL {
            for row in chart.rows(section) {
                let key = parse_row_key(section, &row.label).ok_or_else(|| {
                    Error::invalid(
                        "strategy chart",
                        format!("{} row {:?}", section.name(), row.label),
                        format!(
                            "not a row of {}; allowed: {}",
                            section.name(),
                            rows_allowed(section)
                        ),
                    )
                })?;
                let index = row_index(section, key).expect("a parsed key has a row");
                if partial.cells[index].iter().any(Option::is_some) {
                    return Err(Error::invalid(
                        "strategy chart",
                        format!("{} row {:?}", section.name(), row.label),
                        "appears twice",
                    ));
                }
                for (&upcard, cell) in CHART_UPCARDS.iter().zip(&row.cells) {
                    let Some(cell) = *cell else {
                        continue;
                    };
                    if let Some(why) = cell_refusal(section, cell) {
                        return Err(Error::invalid(
                            "strategy chart",
                            format!(
                                "{} {} against {} {:?}",
                                section.name(),
                                row.label,
                                value_letter(upcard),
                                cell.as_str()
                            ),
                            why,
                        ));
                    }
                    partial.cells[index][usize::from(upcard - 1)] = Some((cell, 0));
                }
            }
        }
        partial.finish()
    }

    /// Reads a chart in the CSV layout of the module doc. Errors, one line
    /// each, name the line and column (or the missing cell): an empty text,
    /// a first line that is not the header, a line without exactly six
    /// fields, an unknown kind, section, row, upcard or action, a cell its
    /// section cannot hold (a split outside the pairs, anything but `S` or
    /// `H` for three or more cards), a cell given twice, a missing cell of
    /// the hard, soft or pairs section.
    pub fn parse_csv(text: &str) -> Result<ChartStrategy> {
        let records = csv_text::records(text)
            .map_err(|(line, why)| Error::invalid("strategy chart", format!("line {line}"), why))?;
        let mut partial = PartialChart::new();
        let mut header_seen = false;
        let mut cells_seen = false;
        for (line, record) in records {
            // A stray quote can make one record of the rest of the file:
            // quote at most the start of it.
            let whole_line = || {
                let text = record.iter().collect::<Vec<_>>().join(",");
                match text.char_indices().nth(LINE_QUOTED_CHARS) {
                    Some((cut, _)) => format!("{:?}...", &text[..cut]),
                    None => format!("{text:?}"),
                }
            };
            if record.len() != COLUMNS.len() {
                return Err(Error::invalid(
                    &format!("line {line}"),
                    whole_line(),
                    format!(
                        "{} fields; every line has {}: {CHART_CSV_HEADER}",
                        record.len(),
                        COLUMNS.len()
                    ),
                ));
            }
            if !header_seen {
                if !record
                    .iter()
                    .zip(COLUMNS)
                    .all(|(field, name)| field.eq_ignore_ascii_case(name))
                {
                    return Err(Error::invalid(
                        &format!("line {line}"),
                        whole_line(),
                        format!("not the header; a chart starts with {CHART_CSV_HEADER}"),
                    ));
                }
                header_seen = true;
                continue;
            }
            let field = |column: usize| record.get(column).unwrap_or_default();
            let refuse = |column: usize, allowed: String| {
                Error::invalid(
                    &format!("line {line}, column {}", COLUMNS[column]),
                    format!("{:?}", field(column)),
                    allowed,
                )
            };
            let kind = field(0);
            if kind.eq_ignore_ascii_case("exception") {
                continue;
            }
            if !kind.eq_ignore_ascii_case("cell") {
                return Err(refuse(
                    0,
                    "not a kind of line; allowed: cell, exception".to_string(),
                ));
            }
            let section = parse_section(field(1)).ok_or_else(|| {
                refuse(
                    1,
                    "not a section; allowed: hard, soft, pairs, multi_card_hard, multi_card_soft"
                        .to_string(),
                )
            })?;
            let key = parse_row_key(section, field(2)).ok_or_else(|| {
                refuse(
                    2,
                    format!(
                        "not a row of {}; allowed: {}",
                        section.name(),
                        rows_allowed(section)
                    ),
                )
            })?;
            let upcard = parse_upcard(field(3)).map_err(|_| {
                refuse(
                    3,
                    "not an upcard; allowed: A, 2..9, T (or 10, J, Q, K)".to_string(),
                )
            })?;
            let cell = parse_cell(field(4)).ok_or_else(|| {
                refuse(
                    4,
                    "not an action; allowed: S, H, D, Ds, P, R, Rs, Rp".to_string(),
                )
            })?;
            if let Some(why) = cell_refusal(section, cell) {
                return Err(refuse(4, why));
            }
            let index = row_index(section, key).expect("a parsed key has a row");
            let slot = &mut partial.cells[index][usize::from(upcard - 1)];
            if let Some((_, first)) = *slot {
                return Err(refuse(
                    3,
                    format!(
                        "a second cell for {} {} against {} (the first is on line {first})",
                        section.name(),
                        row_label(section, key),
                        value_letter(upcard)
                    ),
                ));
            }
            *slot = Some((cell, line));
            cells_seen = true;
        }
        if !header_seen {
            return Err(Error::invalid(
                "strategy chart",
                "\"\"",
                format!("empty; a chart starts with the header {CHART_CSV_HEADER}"),
            ));
        }
        if !cells_seen {
            return Err(Error::invalid(
                "strategy chart",
                "with a header only",
                "no cells; a chart has a line per cell, such as cell,hard,16,T,H,",
            ));
        }
        partial.finish()
    }

    /// The chart in the CSV layout of the module doc: the header, then a
    /// line per cell, sections in chart order, rows in order, upcards
    /// 2..9, T, A; every cell, none filled or left out, so
    /// [`ChartStrategy::parse_csv`] reads back this chart. Ends with a
    /// newline.
    pub fn to_csv(&self) -> String {
        let mut out = format!("{CHART_CSV_HEADER}\n");
        for section in Section::ALL {
            for key in row_keys(section) {
                let index = row_index(section, key).expect("a row of the section");
                for &upcard in &CHART_UPCARDS {
                    let _ = writeln!(
                        out,
                        "cell,{},{},{},{},",
                        section.name(),
                        row_label(section, key),
                        value_letter(upcard),
                        self.cells[index][usize::from(upcard - 1)].as_str()
                    );
                }
            }
        }
        out
    }

    /// The cell of a row against `upcard` (1..=10): `row` is the total, or
    /// in the pairs section the value of each card (1 for AA, 10 for TT).
    /// `None` for a row the section does not have.
    pub fn cell(&self, section: Section, row: u8, upcard: u8) -> Option<Cell> {
        let index = row_index(section, row)?;
        let column = usize::from(upcard.checked_sub(1)?);
        self.cells[index].get(column).copied()
    }

    /// Sets the cell of a row against `upcard` (1..=10), as
    /// [`ChartStrategy::cell`] reads it.
    ///
    /// # Panics
    ///
    /// If the section has no such row or cannot hold the cell (a caller's
    /// bug: index plays are checked as they are read).
    pub(crate) fn set_cell(&mut self, section: Section, row: u8, upcard: u8, cell: Cell) {
        assert!(
            cell_refusal(section, cell).is_none(),
            "{} cannot hold {}",
            section.name(),
            cell.as_str()
        );
        let index = row_index(section, row).expect("a row of the section");
        self.cells[index][usize::from(upcard - 1)] = cell;
    }

    /// The action the chart gives `hand` against `upcard` (1..=10) at
    /// `spot`, resolved against `rules`.
    ///
    /// Which row:
    /// - A hand over 21, or at 21 (a natural, A+T after a split, any 21),
    ///   stands (nothing to decide); a hand of fewer than two cards (not
    ///   yet dealt in full, it cannot bust) hits, as does an `upcard`
    ///   outside 1..=10 (no column).
    /// - Two cards at [`Spot::Initial`] or [`Spot::SplitHand`]: at
    ///   `Initial` a pair (two cards of equal value, any two tens) reads
    ///   the pairs row; otherwise a soft hand reads the soft row, a hard
    ///   hand the hard row. So a split hand that is a pair plays its total
    ///   (8+8 after a split is hard 16: re-splitting is the table's to do,
    ///   when a pair card is dealt to a split hand, not the chart's), and
    ///   TT after a split reads hard 20.
    /// - Three or more cards, or [`Spot::Later`]: the multi-card rows of
    ///   the total and softness.
    /// - A hand below 21 with no row hits: they are hard 4 (2+2 after a
    ///   split) and soft 12 (A+A after a split), neither of which can bust
    ///   with one card.
    ///
    /// How a cell resolves:
    /// - `S` stands, `H` hits, `P` splits (only in the pairs row, read only
    ///   at `Initial` for a pair).
    /// - `D` and `Ds` double where `rules.may_double(hand, after_split)`
    ///   allows it (two cards; after a split only with double after split,
    ///   `SplitHand` being after a split), else hit or stand.
    /// - `R`, `Rs` and `Rp` surrender at `Initial` when `rules.surrender`
    ///   is late or early (the table asks before the peek under early
    ///   surrender; the cell is the same), else hit, stand or split.
    ///
    /// Guarantee: the action is allowed by the rules at that spot: double
    /// only where `may_double` allows it and never at `Later`, split only
    /// at `Initial` for a pair, surrender only at `Initial` with two cards
    /// and surrender allowed; stand at 21 and over.
    pub fn decide(&self, rules: &PlayerRules, upcard: u8, hand: &Hand, spot: Spot) -> Action {
        if hand.is_bust() || hand.total() >= 21 {
            return Action::Stand;
        }
        if hand.n_cards() < 2 {
            return Action::Hit;
        }
        let Some((section, key)) = row_for(hand, spot) else {
            return Action::Hit;
        };
        let Some(cell) = self.cell(section, key, upcard) else {
            return Action::Hit;
        };
        let two_cards = !matches!(section, Section::MultiCardHard | Section::MultiCardSoft);
        let may_double = two_cards && rules.may_double(hand, spot == Spot::SplitHand);
        let may_surrender =
            two_cards && spot == Spot::Initial && rules.surrender != Surrender::None;
        match cell {
            Cell::Stand => Action::Stand,
            Cell::Hit => Action::Hit,
            Cell::Split => Action::Split,
            Cell::DoubleElseHit if may_double => Action::Double,
            Cell::DoubleElseHit => Action::Hit,
            Cell::DoubleElseStand if may_double => Action::Double,
            Cell::DoubleElseStand => Action::Stand,
            Cell::SurrenderElseHit | Cell::SurrenderElseStand | Cell::SurrenderElseSplit
                if may_surrender =>
            {
                Action::Surrender
            }
            Cell::SurrenderElseHit => Action::Hit,
            Cell::SurrenderElseStand => Action::Stand,
            Cell::SurrenderElseSplit => Action::Split,
        }
    }
}

/// The row a hand below 21 reads at `spot` (see [`ChartStrategy::decide`]),
/// as (section, key), or `None` for a total no row has.
fn row_for(hand: &Hand, spot: Spot) -> Option<(Section, u8)> {
    let total = hand.total();
    let (section, key) = if hand.n_cards() == 2 && spot != Spot::Later {
        match hand.pair_values() {
            Some((low, high)) if low == high && spot == Spot::Initial => (Section::Pairs, low),
            _ if hand.is_soft() => (Section::Soft, total),
            _ => (Section::Hard, total),
        }
    } else if hand.is_soft() {
        (Section::MultiCardSoft, total)
    } else {
        (Section::MultiCardHard, total)
    };
    row_keys(section).contains(&key).then_some((section, key))
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::chart::{ChartRow, composition_name, strategy_chart};
    use crate::games::blackjack::player::compositions::Compositions;
    use crate::games::blackjack::player::{
        DoubleOn, HoleCard, PlayerParams, PlayerTable, SplitModel, solve_float,
    };
    use crate::games::blackjack::{Decks, Soft17};

    fn solved(rules: PlayerRules) -> (PlayerTable<f64>, StrategyChart) {
        let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
        let table = solve_float(&params, &NoProgress).expect("the rules solve");
        let chart = strategy_chart(&table).expect("a solved table has a chart");
        (table, chart)
    }

    /// Six decks, S17, DAS, peek, no surrender: the table and its chart.
    fn six_decks() -> &'static (PlayerTable<f64>, StrategyChart) {
        static SOLVED: OnceLock<(PlayerTable<f64>, StrategyChart)> = OnceLock::new();
        SOLVED.get_or_init(|| solved(PlayerRules::default()))
    }

    fn basic(chart: &StrategyChart) -> ChartStrategy {
        ChartStrategy::from_chart(chart).expect("a solved chart reads")
    }

    /// The CSV as the strategy chart's renderer writes it
    /// (`report::strategy_chart`, which this layer may not import): a line
    /// per cell the chart has, none for an empty cell, then a line per
    /// exception, the hand's own best action in `action`.
    fn printed_csv(chart: &StrategyChart) -> String {
        chart.to_csv()
    }

    /// A chart of `cell` wherever its section takes it, else hit.
    fn uniform(cell: Cell) -> ChartStrategy {
        let mut cells = [[Cell::Hit; N_VALUES]; ROWS];
        for section in Section::ALL {
            for key in row_keys(section) {
                if cell_refusal(section, cell).is_none() {
                    cells[row_index(section, key).unwrap()] = [cell; N_VALUES];
                }
            }
        }
        ChartStrategy { cells }
    }

    fn parse_error(text: &str) -> String {
        let error = ChartStrategy::parse_csv(text).expect_err("refused");
        assert_eq!(error.exit_code(), 2, "{error}");
        let message = error.to_string();
        assert!(!message.contains('\n'), "one line: {message}");
        message
    }

    fn hand(values: &[u8]) -> Hand {
        Hand::of(values)
    }

    #[test]
    fn six_deck_basic_strategy_round_trips_through_csv() {
        let (_, chart) = six_decks();
        let strategy = basic(chart);
        let text = strategy.to_csv();
        assert_eq!(text.lines().count(), 1 + ROWS * N_VALUES);
        assert_eq!(text.lines().next(), Some(CHART_CSV_HEADER));
        assert!(text.lines().any(|l| l == "cell,hard,16,T,H,"));
        assert!(text.lines().any(|l| l == "cell,pairs,99,7,S,"));
        assert_eq!(ChartStrategy::parse_csv(&text).unwrap(), strategy);
        // Every cell of the solved chart is the strategy's.
        for section in Section::ALL {
            for row in chart.rows(section) {
                let key = parse_row_key(section, &row.label).unwrap();
                for &upcard in &CHART_UPCARDS {
                    if let Some(cell) = row.cell(upcard) {
                        assert_eq!(strategy.cell(section, key, upcard), Some(cell));
                    }
                }
            }
        }
    }

    #[test]
    fn the_charts_own_csv_parses_to_basic_strategy_for_every_rule_set() {
        let rule_sets = [
            PlayerRules::default(),
            PlayerRules {
                decks: Decks::Finite(1),
                surrender: Surrender::Late,
                ..PlayerRules::default()
            },
            PlayerRules {
                decks: Decks::Finite(2),
                soft17: Soft17::Hit,
                hole_card: HoleCard::Enhc,
                surrender: Surrender::Early,
                ..PlayerRules::default()
            },
            PlayerRules {
                decks: Decks::Infinite,
                ..PlayerRules::default()
            },
            PlayerRules {
                decks: Decks::Finite(1),
                double: DoubleOn::TenToEleven,
                double_after_split: false,
                max_hands: 2,
                ..PlayerRules::default()
            },
        ];
        for rules in rule_sets {
            let (_, chart) = solved(rules);
            let text = printed_csv(&chart);
            let parsed = ChartStrategy::parse_csv(&text)
                .unwrap_or_else(|e| panic!("{rules:?}: {e}\n{text}"));
            assert_eq!(parsed, basic(&chart), "{rules:?}");
            assert_eq!(ChartStrategy::parse_csv(&parsed.to_csv()).unwrap(), parsed);
        }
    }

    #[test]
    fn empty_multi_card_cells_play_the_two_card_row_without_double_or_surrender() {
        // Six decks: no hand the optimal player holds is hard 6 of three
        // cards against 2..7 (2s are split there) or soft 14 against 5 and
        // 6 (A2 doubles), so the solved chart leaves those cells empty.
        let (_, chart) = six_decks();
        let strategy = basic(chart);
        for upcard in 2..=7 {
            assert_eq!(chart.cell(Section::MultiCardHard, "6", upcard), None);
            assert_eq!(
                strategy.cell(Section::MultiCardHard, 6, upcard),
                Some(Cell::Hit)
            );
        }
        for upcard in [5, 6] {
            assert_eq!(chart.cell(Section::MultiCardSoft, "14", upcard), None);
            assert_eq!(
                chart.cell(Section::Soft, "14", upcard),
                Some(Cell::DoubleElseHit)
            );
            assert_eq!(
                strategy.cell(Section::MultiCardSoft, 14, upcard),
                Some(Cell::Hit)
            );
        }
        // A chart with no multi-card rows plays them by its two-card rows:
        // soft 18 against 3 is Ds, so three cards of soft 18 stand.
        let two_card_only: String = strategy
            .to_csv()
            .lines()
            .filter(|line| !line.starts_with("cell,multi_card"))
            .map(|line| format!("{line}\n"))
            .collect();
        let parsed = ChartStrategy::parse_csv(&two_card_only).unwrap();
        assert_eq!(
            strategy.cell(Section::Soft, 18, 3),
            Some(Cell::DoubleElseStand)
        );
        assert_eq!(
            parsed.cell(Section::MultiCardSoft, 18, 3),
            Some(Cell::Stand)
        );
        for section in [Section::MultiCardHard, Section::MultiCardSoft] {
            let two_card = if section == Section::MultiCardHard {
                Section::Hard
            } else {
                Section::Soft
            };
            for key in row_keys(section) {
                for upcard in 1..=10 {
                    let row = strategy.cell(two_card, key, upcard).unwrap();
                    assert_eq!(
                        parsed.cell(section, key, upcard),
                        Some(stand_or_hit(row)),
                        "{} {key} against {upcard}",
                        section.name()
                    );
                }
            }
        }
    }

    #[test]
    fn the_csv_reader_takes_what_people_write() {
        let expected = basic(&six_decks().1);
        let printed = expected.to_csv();
        // Lines reversed (header first), blank lines, spaces, lower case,
        // CRLF, a byte-order mark, `10` for T, A7-style soft rows, 1010 for
        // TT, exception lines.
        let mut lines: Vec<String> = printed.lines().skip(1).map(str::to_string).collect();
        lines.reverse();
        let mut text = format!("\u{feff}{}\r\n\r\n", CHART_CSV_HEADER.to_uppercase());
        for line in &lines {
            let mut fields: Vec<String> = line.split(',').map(str::to_string).collect();
            if fields[1] == "soft" {
                let total: u8 = fields[2].parse().unwrap();
                fields[2] = hand_name(1, total - 11);
            }
            if fields[2] == "TT" {
                fields[2] = "1010".to_string();
            }
            if fields[3] == "T" {
                fields[3] = "10".to_string();
            }
            let spaced = fields.join(" , ").to_lowercase();
            let _ = write!(text, "  {spaced}  \r\n\n");
        }
        text.push_str("exception,hard,12,4,hit,2T\n");
        assert_eq!(ChartStrategy::parse_csv(&text).unwrap(), expected);
    }

    #[test]
    fn refusals_name_the_line_and_column() {
        let valid = uniform(Cell::Hit).to_csv();
        let lines: Vec<&str> = valid.lines().collect();
        // Line 1 is the header; hard 5 takes lines 2..=11, hard 6 from 12.
        assert_eq!(lines[13], "cell,hard,6,4,H,");
        let with_line = |number: usize, text: &str| {
            let mut edited = lines.clone();
            edited[number - 1] = text;
            edited.join("\n")
        };
        let hard_16_t = lines
            .iter()
            .position(|&l| l == "cell,hard,16,T,H,")
            .unwrap()
            + 1;
        let appended = |text: &str| format!("{valid}{text}\n");
        let last = lines.len() + 1;
        let cases: Vec<(String, String)> = vec![
            (
                with_line(14, "cell,hard,6,4,X,"),
                "line 14, column action \"X\": not an action; allowed: S, H, D, Ds, P, R, Rs, Rp"
                    .to_string(),
            ),
            (
                with_line(hard_16_t, ""),
                "missing cell hard 16 against T: the hard, soft and pairs sections need a cell for every row and upcard (A, 2..9, T)".to_string(),
            ),
            (
                appended("cell,hard,16,t,s,"),
                format!("line {last}, column upcard \"t\": a second cell for hard 16 against T (the first is on line {hard_16_t})"),
            ),
            (
                with_line(14, "cell,hard,6,4,P,"),
                "line 14, column action \"P\": a split outside the pairs section; hard takes S, H, D, Ds, R or Rs".to_string(),
            ),
            (
                with_line(14, "cell,hard,6,4,Rp,"),
                "line 14, column action \"Rp\": a split outside".to_string(),
            ),
            (
                valid.replace("cell,soft,18,9,H,", "cell,soft,18,9,P,"),
                "column action \"P\": a split outside the pairs section; soft takes".to_string(),
            ),
            (
                valid.replace("cell,multi_card_hard,11,5,H,", "cell,multi_card_hard,11,5,D,"),
                "column action \"D\": three or more cards only stand or hit; multi_card_hard takes S or H".to_string(),
            ),
            (
                valid.replace("cell,multi_card_soft,17,5,H,", "cell,multi_card_soft,17,5,Rs,"),
                "column action \"Rs\": three or more cards only stand or hit; multi_card_soft takes S or H".to_string(),
            ),
            (
                valid.replace("cell,multi_card_soft,17,5,H,", "cell,multi_card_soft,17,5,P,"),
                "three or more cards only stand or hit".to_string(),
            ),
            (
                with_line(14, "cell,hrad,6,4,H,"),
                "line 14, column section \"hrad\": not a section; allowed: hard, soft, pairs, multi_card_hard, multi_card_soft".to_string(),
            ),
            (
                with_line(14, "cell,hard,21,4,H,"),
                "line 14, column row \"21\": not a row of hard; allowed: 5..20".to_string(),
            ),
            (
                with_line(14, "cell,hard,4,4,H,"),
                "line 14, column row \"4\"".to_string(),
            ),
            (
                with_line(14, "cell,soft,12,4,H,"),
                "line 14, column row \"12\": not a row of soft; allowed: 13..20 (or A2..A9)".to_string(),
            ),
            (
                with_line(14, "cell,soft,AT,4,H,"),
                "line 14, column row \"AT\": not a row of soft".to_string(),
            ),
            (
                with_line(14, "cell,pairs,89,4,H,"),
                "line 14, column row \"89\": not a row of pairs; allowed: AA, 22, 33, 44, 55, 66, 77, 88, 99, TT".to_string(),
            ),
            (
                with_line(14, "cell,multi_card_soft,12,4,H,"),
                "line 14, column row \"12\": not a row of multi_card_soft; allowed: 13..20".to_string(),
            ),
            (
                with_line(14, "cell,multi_card_hard,5,4,H,"),
                "line 14, column row \"5\": not a row of multi_card_hard; allowed: 6..20".to_string(),
            ),
            (
                with_line(14, "cell,hard,6,1,H,"),
                "line 14, column upcard \"1\": not an upcard; allowed: A, 2..9, T (or 10, J, Q, K)".to_string(),
            ),
            (
                with_line(14, "cell,hard,6,11,H,"),
                "line 14, column upcard \"11\": not an upcard".to_string(),
            ),
            (
                with_line(14, "cel,hard,6,4,H,"),
                "line 14, column kind \"cel\": not a kind of line; allowed: cell, exception".to_string(),
            ),
            (
                with_line(14, "cell,hard,6,4"),
                "line 14 \"cell,hard,6,4\": 4 fields; every line has 6: kind,section,row,upcard,action,hand".to_string(),
            ),
            (
                with_line(14, "cell,hard,6,4,H,,"),
                "line 14 \"cell,hard,6,4,H,,\": 7 fields".to_string(),
            ),
            (
                with_line(14, "exception,hard,12,4,hit"),
                "line 14 \"exception,hard,12,4,hit\": 5 fields".to_string(),
            ),
            (
                with_line(1, "kind,section,row,upcard,cell,hand"),
                "line 1 \"kind,section,row,upcard,cell,hand\": not the header; a chart starts with kind,section,row,upcard,action,hand".to_string(),
            ),
            (
                valid.lines().skip(1).collect::<Vec<_>>().join("\n"),
                "line 1 \"cell,hard,5,2,H,\": not the header".to_string(),
            ),
            (
                String::new(),
                "strategy chart \"\": empty; a chart starts with the header kind,section,row,upcard,action,hand".to_string(),
            ),
            ("\n \n\t\n".to_string(), "strategy chart \"\": empty".to_string()),
            (
                format!("{CHART_CSV_HEADER}\n\nexception,hard,12,4,hit,2T\n"),
                "strategy chart with a header only: no cells".to_string(),
            ),
        ];
        for (text, expected) in &cases {
            let message = parse_error(text);
            assert!(
                message.contains(expected.as_str()),
                "expected {expected:?}\n     got {message:?}"
            );
        }
    }

    #[test]
    fn a_chart_the_solver_could_not_make_is_refused_by_row() {
        let (_, chart) = six_decks();
        let mut bad = chart.clone();
        bad.hard[11].cells[8] = Some(Cell::Split); // hard 16 against T
        let message = ChartStrategy::from_chart(&bad).unwrap_err().to_string();
        assert_eq!(
            message,
            "strategy chart hard 16 against T \"P\": a split outside the pairs section; hard takes S, H, D, Ds, R or Rs"
        );
        let mut bad = chart.clone();
        bad.multi_card_soft[0].cells[0] = Some(Cell::DoubleElseHit);
        assert!(
            ChartStrategy::from_chart(&bad)
                .unwrap_err()
                .to_string()
                .contains("multi_card_soft takes S or H")
        );
        let mut bad = chart.clone();
        bad.pairs[7].cells[8] = None;
        assert!(
            ChartStrategy::from_chart(&bad)
                .unwrap_err()
                .to_string()
                .starts_with("missing cell pairs 88 against T:")
        );
        let mut bad = chart.clone();
        bad.soft.push(ChartRow {
            label: "21".to_string(),
            hands: Vec::new(),
            cells: [Some(Cell::Stand); N_VALUES],
        });
        assert!(
            ChartStrategy::from_chart(&bad)
                .unwrap_err()
                .to_string()
                .contains("soft row \"21\": not a row of soft")
        );
        let mut bad = chart.clone();
        bad.hard.push(bad.hard[0].clone());
        assert!(
            ChartStrategy::from_chart(&bad)
                .unwrap_err()
                .to_string()
                .contains("hard row \"5\": appears twice")
        );
    }

    #[test]
    fn decisions_resolve_cells_against_the_rules() {
        let late = PlayerRules {
            surrender: Surrender::Late,
            ..PlayerRules::default()
        };
        let (_, late_chart) = solved(late);
        let late_strategy = basic(&late_chart);
        let none = PlayerRules::default();
        let sixteen = hand(&[6, 10]);
        // Hard 16 against a ten: R, surrender where allowed, else hit.
        assert_eq!(
            late_strategy.cell(Section::Hard, 16, 10),
            Some(Cell::SurrenderElseHit)
        );
        assert_eq!(
            late_strategy.decide(&late, 10, &sixteen, Spot::Initial),
            Action::Surrender
        );
        assert_eq!(
            late_strategy.decide(&none, 10, &sixteen, Spot::Initial),
            Action::Hit
        );
        // No surrender after a split.
        assert_eq!(
            late_strategy.decide(&late, 10, &sixteen, Spot::SplitHand),
            Action::Hit
        );

        let strategy = basic(&six_decks().1);
        let ten_eleven = PlayerRules {
            double: DoubleOn::TenToEleven,
            ..PlayerRules::default()
        };
        let no_das = PlayerRules {
            double_after_split: false,
            ..PlayerRules::default()
        };
        // 11 against 6 doubles, first two cards or after a split with DAS;
        // without DAS, hits.
        let eleven = hand(&[5, 6]);
        assert_eq!(
            strategy.decide(&none, 6, &eleven, Spot::Initial),
            Action::Double
        );
        assert_eq!(
            strategy.decide(&ten_eleven, 6, &eleven, Spot::Initial),
            Action::Double
        );
        assert_eq!(
            strategy.decide(&none, 6, &eleven, Spot::SplitHand),
            Action::Double
        );
        assert_eq!(
            strategy.decide(&no_das, 6, &eleven, Spot::SplitHand),
            Action::Hit
        );
        // 9 against 3 is D: doubles, or hits where only 10 and 11 double.
        let nine = hand(&[4, 5]);
        assert_eq!(
            strategy.cell(Section::Hard, 9, 3),
            Some(Cell::DoubleElseHit)
        );
        assert_eq!(
            strategy.decide(&none, 3, &nine, Spot::Initial),
            Action::Double
        );
        assert_eq!(
            strategy.decide(&ten_eleven, 3, &nine, Spot::Initial),
            Action::Hit
        );
        // A7 against 3 is Ds: doubles, or stands.
        let soft_18 = hand(&[1, 7]);
        assert_eq!(
            strategy.decide(&none, 3, &soft_18, Spot::Initial),
            Action::Double
        );
        assert_eq!(
            strategy.decide(&ten_eleven, 3, &soft_18, Spot::Initial),
            Action::Stand
        );
        // Three cards never double: 2+2+7 against 6 hits (hard 11).
        assert_eq!(
            strategy.decide(&none, 6, &hand(&[2, 2, 7]), Spot::Later),
            Action::Hit
        );
        // 88 against a ten splits at first; a split hand of 8+8 plays hard
        // 16 (hit), and with three cards stands (the multi-card row).
        let eights = hand(&[8, 8]);
        assert_eq!(
            strategy.decide(&none, 10, &eights, Spot::Initial),
            Action::Split
        );
        assert_eq!(
            strategy.decide(&none, 10, &eights, Spot::SplitHand),
            Action::Hit
        );
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[8, 5, 3]), Spot::Later),
            Action::Stand
        );
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[6, 10]), Spot::Initial),
            Action::Hit
        );
        // TT: stand at first, and as hard 20 after a split.
        assert_eq!(
            strategy.decide(&none, 6, &hand(&[10, 10]), Spot::SplitHand),
            Action::Stand
        );
        // 21s stand; rowless hands below 21 hit; busted hands stand.
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[1, 10]), Spot::Initial),
            Action::Stand
        );
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[1, 10]), Spot::SplitHand),
            Action::Stand
        );
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[7, 7, 7]), Spot::Later),
            Action::Stand
        );
        assert_eq!(
            strategy.decide(&none, 6, &hand(&[2, 2]), Spot::SplitHand),
            Action::Hit
        );
        assert_eq!(
            strategy.decide(&none, 6, &hand(&[1, 1, 1]), Spot::Later),
            Action::Hit
        );
        assert_eq!(
            strategy.decide(&none, 6, &hand(&[10, 6, 9]), Spot::Later),
            Action::Stand
        );
        // Soft 18 of three cards against a ten: the multi-card soft row.
        assert_eq!(
            strategy.cell(Section::MultiCardSoft, 18, 10),
            Some(Cell::Hit)
        );
        assert_eq!(
            strategy.decide(&none, 10, &hand(&[1, 3, 4]), Spot::Later),
            Action::Hit
        );
        // Rp: surrender, else split (8s against an ace, H17, late).
        let h17_late = PlayerRules {
            soft17: Soft17::Hit,
            surrender: Surrender::Late,
            ..PlayerRules::default()
        };
        let h17_strategy = basic(&solved(h17_late).1);
        assert_eq!(
            h17_strategy.cell(Section::Pairs, 8, 1),
            Some(Cell::SurrenderElseSplit)
        );
        assert_eq!(
            h17_strategy.decide(&h17_late, 1, &eights, Spot::Initial),
            Action::Surrender
        );
        let h17 = PlayerRules {
            surrender: Surrender::None,
            ..h17_late
        };
        assert_eq!(
            h17_strategy.decide(&h17, 1, &eights, Spot::Initial),
            Action::Split
        );
        // Rs: surrender, else stand (hard 17 against an ace, H17, late).
        let seventeen = hand(&[7, 10]);
        assert_eq!(
            h17_strategy.decide(&h17_late, 1, &seventeen, Spot::Initial),
            Action::Surrender
        );
        assert_eq!(
            h17_strategy.decide(&h17, 1, &seventeen, Spot::Initial),
            Action::Stand
        );
    }

    #[test]
    fn every_hand_without_a_row_is_one_that_cannot_bust() {
        for hand in &Compositions::get().hands {
            if hand.n_cards() < 2 || hand.total() >= 21 {
                continue;
            }
            for spot in [Spot::Initial, Spot::SplitHand, Spot::Later] {
                if row_for(hand, spot).is_none() {
                    assert!(
                        hand.is_soft() || hand.total() <= 11,
                        "{hand:?} at {spot:?} has no row and may bust"
                    );
                }
            }
        }
    }

    /// Compares the chart player with the composition-dependent player
    /// (`PlayerTable::decide`) on every first two cards and upcard: they
    /// differ exactly where the solved chart marks an exception.
    fn chart_against_composition_dependent(rules: PlayerRules) {
        let (table, chart) = solved(rules);
        let strategy = basic(&chart);
        let mut spots = 0;
        let mut differ = Vec::new();
        for first in 1..=10u8 {
            for second in first..=10 {
                let two = hand(&[first, second]);
                for upcard in 1..=10 {
                    let chart_action = strategy.decide(&rules, upcard, &two, Spot::Initial);
                    let optimal = table.decide(upcard, &two, Spot::Initial).unwrap();
                    // The chart player plays the printed cell's action.
                    if two.total() < 21 {
                        let (section, label) = if first == second {
                            (Section::Pairs, hand_name(first, second))
                        } else if two.is_soft() {
                            (Section::Soft, two.total().to_string())
                        } else {
                            (Section::Hard, two.total().to_string())
                        };
                        let printed = chart.cell(section, &label, upcard).unwrap();
                        assert_eq!(chart_action, printed.action(), "{label} against {upcard}");
                    }
                    spots += 1;
                    if chart_action != optimal {
                        differ.push((hand_name(first, second), upcard, chart_action, optimal));
                    }
                }
            }
        }
        let mut exceptions: Vec<(String, u8, Action, Action)> = chart
            .exceptions
            .iter()
            .filter(|e| matches!(e.section, Section::Hard | Section::Soft | Section::Pairs))
            .map(|e| (e.hand.clone(), e.upcard, e.cell.action(), e.best))
            .collect();
        differ.sort();
        exceptions.sort();
        assert_eq!(spots, 550);
        assert_eq!(differ, exceptions, "{rules:?}");
        assert!(
            differ.len() * 20 <= spots,
            "{rules:?}: {} of {spots} differ: {differ:?}",
            differ.len()
        );
    }

    #[test]
    fn six_deck_basic_strategy_plays_as_the_composition_dependent_player_but_for_its_exceptions() {
        // Six decks, S17, DAS: one exception, 2+T hits against 4.
        chart_against_composition_dependent(PlayerRules::default());
        let (_, chart) = six_decks();
        assert!(
            chart
                .exceptions
                .iter()
                .any(|e| e.hand == "2T" && e.upcard == 4 && e.best == Action::Hit)
        );
    }

    #[test]
    fn other_rule_sets_differ_only_where_their_charts_mark_exceptions() {
        for rules in [
            PlayerRules {
                decks: Decks::Finite(2),
                ..PlayerRules::default()
            },
            PlayerRules {
                decks: Decks::Finite(1),
                soft17: Soft17::Hit,
                surrender: Surrender::Late,
                ..PlayerRules::default()
            },
            PlayerRules {
                decks: Decks::Finite(8),
                hole_card: HoleCard::Enhc,
                surrender: Surrender::Early,
                double_after_split: false,
                ..PlayerRules::default()
            },
        ] {
            chart_against_composition_dependent(rules);
        }
    }

    #[test]
    fn hands_of_three_or_more_cards_differ_from_the_optimum_at_every_listed_exception() {
        // The chart marks a composition of three or more cards the optimal
        // player holds where it plays apart from its row: at each, the
        // chart player (reading the multi-card row) must do otherwise than
        // `PlayerTable::decide`. Compositions the optimal player never
        // holds are not listed and may differ too; in all, the chart
        // player agrees on at least 95% of (composition, upcard) spots.
        for decks in [1, 6] {
            let rules = PlayerRules {
                decks: Decks::Finite(decks),
                ..PlayerRules::default()
            };
            let (table, chart) = solved(rules);
            let strategy = basic(&chart);
            let mut spots = 0;
            let mut differ = Vec::new();
            for composition in &Compositions::get().hands {
                if composition.n_cards() < 3 || composition.total() >= 21 {
                    continue;
                }
                for upcard in 1..=10 {
                    let Some(optimal) = table.decide(upcard, composition, Spot::Later) else {
                        continue;
                    };
                    spots += 1;
                    if strategy.decide(&rules, upcard, composition, Spot::Later) != optimal {
                        differ.push((composition_name(composition), upcard));
                    }
                }
            }
            let listed: Vec<(String, u8)> = chart
                .exceptions
                .iter()
                .filter(|e| matches!(e.section, Section::MultiCardHard | Section::MultiCardSoft))
                .map(|e| (e.hand.clone(), e.upcard))
                .collect();
            assert!(!listed.is_empty());
            for exception in &listed {
                assert!(differ.contains(exception), "{decks} decks: {exception:?}");
            }
            assert!(
                differ.len() * 20 <= spots,
                "{decks} decks: {} of {spots} differ",
                differ.len()
            );
        }
    }

    /// Any valid chart: every cell drawn from those its section takes.
    fn valid_chart() -> impl Strategy<Value = ChartStrategy> {
        proptest::collection::vec(0..Cell::ALL.len(), ROWS * N_VALUES).prop_map(|draws| {
            let mut cells = [[Cell::Hit; N_VALUES]; ROWS];
            for section in Section::ALL {
                let allowed: Vec<Cell> = Cell::ALL
                    .into_iter()
                    .filter(|&cell| cell_refusal(section, cell).is_none())
                    .collect();
                for key in row_keys(section) {
                    let index = row_index(section, key).unwrap();
                    for column in 0..N_VALUES {
                        let draw = draws[index * N_VALUES + column];
                        cells[index][column] = allowed[draw % allowed.len()];
                    }
                }
            }
            ChartStrategy { cells }
        })
    }

    fn any_rules() -> impl Strategy<Value = PlayerRules> {
        (
            prop_oneof![
                Just(DoubleOn::Any),
                Just(DoubleOn::NineToEleven),
                Just(DoubleOn::TenToEleven)
            ],
            any::<bool>(),
            prop_oneof![
                Just(Surrender::None),
                Just(Surrender::Late),
                Just(Surrender::Early)
            ],
        )
            .prop_map(|(double, double_after_split, surrender)| PlayerRules {
                double,
                double_after_split,
                surrender,
                ..PlayerRules::default()
            })
    }

    fn any_spot() -> impl Strategy<Value = Spot> {
        prop_oneof![
            Just(Spot::Initial),
            Just(Spot::SplitHand),
            Just(Spot::Later)
        ]
    }

    proptest! {
        #[test]
        fn arbitrary_text_is_read_or_refused_in_one_line(text in "\\PC*") {
            if let Err(error) = ChartStrategy::parse_csv(&text) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }

        #[test]
        fn a_chart_with_one_line_changed_is_read_or_refused_in_one_line(
            line in 0..(1 + ROWS * N_VALUES),
            replacement in "[a-zA-Z0-9_, \"]{0,24}",
        ) {
            let valid = uniform(Cell::Stand).to_csv();
            let text: String = valid
                .lines()
                .enumerate()
                .map(|(i, l)| if i == line { format!("{replacement}\n") } else { format!("{l}\n") })
                .collect();
            if let Err(error) = ChartStrategy::parse_csv(&text) {
                let message = error.to_string();
                prop_assert!(!message.contains('\n'));
                // A line of empty fields (`,` or spaces: a spreadsheet's
                // blank row) is skipped, so the next line is read in its
                // place (the header's, if it was the header's).
                let blank = replacement.split(',').all(|field| field.trim().is_empty());
                let next_line = blank && message.starts_with(&format!("line {}", line + 2));
                prop_assert!(
                    message.starts_with(&format!("line {}", line + 1))
                        || next_line
                        || message.starts_with("missing cell")
                        || message.starts_with("strategy chart"),
                    "{}", message
                );
            }
        }

        #[test]
        fn any_valid_chart_round_trips_in_any_line_order(
            chart in valid_chart(),
            order in Just((1..=ROWS * N_VALUES).collect::<Vec<usize>>()).prop_shuffle(),
        ) {
            let text = chart.to_csv();
            prop_assert_eq!(&ChartStrategy::parse_csv(&text).unwrap(), &chart);
            let lines: Vec<&str> = text.lines().collect();
            let mut shuffled = format!("{}\n", lines[0]);
            for i in order {
                shuffled.push_str(lines[i]);
                shuffled.push('\n');
            }
            prop_assert_eq!(ChartStrategy::parse_csv(&shuffled).unwrap(), chart);
        }

        #[test]
        fn every_decision_is_allowed_by_the_rules(
            chart in valid_chart(),
            rules in any_rules(),
            values in proptest::collection::vec(1..=10u8, 2..=7),
            upcard in 1..=10u8,
            spot in any_spot(),
        ) {
            let hand = Hand::of(&values);
            let action = chart.decide(&rules, upcard, &hand, spot);
            let two_cards = hand.n_cards() == 2;
            match action {
                Action::Stand => {}
                Action::Hit => prop_assert!(hand.total() < 21),
                Action::Double => prop_assert!(
                    two_cards && spot != Spot::Later
                        && rules.may_double(&hand, spot == Spot::SplitHand)
                ),
                Action::Split => prop_assert!(
                    two_cards && spot == Spot::Initial && values[0] == values[1]
                ),
                Action::Surrender => prop_assert!(
                    two_cards && spot == Spot::Initial && rules.surrender != Surrender::None
                ),
            }
            if hand.total() >= 21 {
                prop_assert_eq!(action, Action::Stand);
            }
        }
    }
}
