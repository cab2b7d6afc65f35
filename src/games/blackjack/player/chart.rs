//! The basic-strategy chart (RULES.md section 6, "Basic strategy chart"):
//! the total-dependent strategy people print, read off a solved
//! [`PlayerTable`].
//!
//! # Method
//!
//! **Two-card classes.** A class is a set of two-card hands the chart
//! gives one row: hard 5..20 (the hands of that hard total that are not
//! pairs), soft 13..20 (A2..A9) and each pair (AA, 22, .., TT). Hard 20 has
//! no two-card hand but TT, so its row is TT played without splitting (what
//! a player who does not split tens holds). For each class and upcard the
//! chart's action is the one with the highest expected value averaged over
//! the class's hands, each weighted by its probability given the upcard
//! and given everything the player knows when deciding:
//!
//! - [`HandRow::probability`] is the unconditional chance of the deal
//!   (upcard and hand off the top). Under peek with an ace or a ten up the
//!   row's values are conditioned on the dealer not holding a natural, and
//!   the player decides knowing that, so the hands are weighted by their
//!   chance given the upcard *and* no natural: `probability × (1 −
//!   dealer_natural)`, which is proportional to P(hand | upcard, no
//!   natural). The weighted mean is then exactly the class's expected
//!   value at the decision, E[X | class, upcard, no natural]. Under ENHC,
//!   and with any other upcard, values are unconditional and the weight is
//!   the probability itself.
//! - Early surrender is decided before the peek: the class's best other
//!   action is found as above, then its value over the whole round (the
//!   dealer's natural included: `(1 − n)·v − n` per hand, a player natural
//!   pushing) is weighed against −1/2 with the unconditional weights, as
//!   the solver does for one hand.
//!
//! An action is open to a class only if it is open to every hand in it
//! (the rules make doubling, splitting and surrender depend on a class's
//! total, softness and pair alone, so this never bites with a full shoe).
//! Ties go to the first action in [`ACTIONS`] order, as the solver's.
//!
//! **Cells.** `S`, `H`, `P` as the best action says; a best double is `D`
//! (double, else hit) or `Ds` (double, else stand) as the class's hit and
//! stand values compare; a best surrender is `R` (surrender, else hit),
//! `Rs` (else stand) or `Rp` (else split), its fallback the best of stand,
//! hit and split.
//!
//! **Three or more cards.** One row per hard total (the totals at which a
//! hand of three or more cards can be held, 6..20) and soft total
//! (13..20), stand or hit per upcard. A composition of three or more cards
//! is weighted by the chance that an unsplit hand played by the table's
//! composition-dependent optimal strategy ([`PlayerTable::decide`]) is
//! ever that composition: the chance of reaching it by hitting, summed
//! over the orders its cards can come in, times P(no natural | its cards)
//! under peek with an ace or a ten up, as for two cards. So hands that
//! occur more often in play count for more, and hands the optimal player
//! never holds (he stood or doubled before) count for nothing. Split
//! hands are left out: their later cards are a small share of play, and
//! under `cdp` they follow another strategy. Each cell is the better of
//! the weighted mean stand and hit values; a total no hand reaches is
//! left empty.
//!
//! **Exceptions.** Every hand of a class (two-card hand, or reachable
//! composition of three or more cards) whose own best action (chosen the
//! same way, from the same actions) differs from its cell's action.

use std::fmt::Write as _;

use serde::{Serialize, Serializer};

use super::compositions::{BUST, Compositions};
use super::number::Number;
use super::rules::{
    ACTIONS, Action, Hand, HoleCard, Surrender, hand_name, natural_hole_card, value_letter,
};
use super::solve::{HandRow, PlayerParams, PlayerTable, Spot};
use crate::error::{Error, Result};
use crate::games::blackjack::{N_VALUES, Shoe, UPCARDS};

/// The chart's columns: the upcards 2..9, ten, ace (the printed order).
pub const CHART_UPCARDS: [u8; N_VALUES] = UPCARDS;

/// The hard totals with a two-card row.
pub const HARD_TOTALS: std::ops::RangeInclusive<u8> = 5..=20;
/// The soft totals with a two-card row (A2..A9).
pub const SOFT_TOTALS: std::ops::RangeInclusive<u8> = 13..=20;

/// What a cell of the chart says to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `S`: stand.
    Stand,
    /// `H`: hit.
    Hit,
    /// `D`: double if allowed, else hit.
    DoubleElseHit,
    /// `Ds`: double if allowed, else stand.
    DoubleElseStand,
    /// `P`: split.
    Split,
    /// `R`: surrender if allowed, else hit.
    SurrenderElseHit,
    /// `Rs`: surrender if allowed, else stand.
    SurrenderElseStand,
    /// `Rp`: surrender if allowed, else split.
    SurrenderElseSplit,
}

impl Cell {
    /// Every cell, in legend order.
    pub const ALL: [Cell; 8] = [
        Cell::Stand,
        Cell::Hit,
        Cell::DoubleElseHit,
        Cell::DoubleElseStand,
        Cell::Split,
        Cell::SurrenderElseHit,
        Cell::SurrenderElseStand,
        Cell::SurrenderElseSplit,
    ];

    /// The code printed in the chart: `S`, `H`, `D`, `Ds`, `P`, `R`, `Rs`,
    /// `Rp`.
    pub fn as_str(self) -> &'static str {
        match self {
            Cell::Stand => "S",
            Cell::Hit => "H",
            Cell::DoubleElseHit => "D",
            Cell::DoubleElseStand => "Ds",
            Cell::Split => "P",
            Cell::SurrenderElseHit => "R",
            Cell::SurrenderElseStand => "Rs",
            Cell::SurrenderElseSplit => "Rp",
        }
    }

    /// The cell a code names ([`Cell::as_str`]'s inverse).
    pub fn parse(code: &str) -> Option<Cell> {
        Cell::ALL.into_iter().find(|cell| cell.as_str() == code)
    }

    /// What the code means, for legends: `double, else hit`.
    pub fn meaning(self) -> &'static str {
        match self {
            Cell::Stand => "stand",
            Cell::Hit => "hit",
            Cell::DoubleElseHit => "double, else hit",
            Cell::DoubleElseStand => "double, else stand",
            Cell::Split => "split",
            Cell::SurrenderElseHit => "surrender, else hit",
            Cell::SurrenderElseStand => "surrender, else stand",
            Cell::SurrenderElseSplit => "surrender, else split",
        }
    }

    /// The action the cell takes when the rules allow it.
    pub fn action(self) -> Action {
        match self {
            Cell::Stand => Action::Stand,
            Cell::Hit => Action::Hit,
            Cell::DoubleElseHit | Cell::DoubleElseStand => Action::Double,
            Cell::Split => Action::Split,
            Cell::SurrenderElseHit | Cell::SurrenderElseStand | Cell::SurrenderElseSplit => {
                Action::Surrender
            }
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

fn action_name<S: Serializer>(
    action: &Action,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_str(action.name())
}

/// The parts of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// Two-card hard totals.
    Hard,
    /// Two-card soft totals.
    Soft,
    /// Pairs.
    Pairs,
    /// Hard totals of three or more cards.
    MultiCardHard,
    /// Soft totals of three or more cards.
    MultiCardSoft,
}

impl Section {
    /// Every section, in chart order.
    pub const ALL: [Section; 5] = [
        Section::Hard,
        Section::Soft,
        Section::Pairs,
        Section::MultiCardHard,
        Section::MultiCardSoft,
    ];

    /// The section's name in reports: `hard`, `soft`, `pairs`,
    /// `multi_card_hard`, `multi_card_soft`.
    pub fn name(self) -> &'static str {
        match self {
            Section::Hard => "hard",
            Section::Soft => "soft",
            Section::Pairs => "pairs",
            Section::MultiCardHard => "multi_card_hard",
            Section::MultiCardSoft => "multi_card_soft",
        }
    }
}

/// One row of the chart: a class of hands, and a cell per upcard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChartRow {
    /// The row's label: the total (`16`; soft rows by their total, `18`
    /// for A7) or the pair (`88`, `TT`).
    pub label: String,
    /// The two-card hands in the class (`79`, `6T`); empty for the rows of
    /// three or more cards, which hold every composition of the total.
    pub hands: Vec<String>,
    /// The cell per upcard, in [`CHART_UPCARDS`] order; `None` where no
    /// hand of the class can be held against that upcard.
    pub cells: [Option<Cell>; N_VALUES],
}

impl ChartRow {
    /// The cell against `upcard` (1..=10).
    pub fn cell(&self, upcard: u8) -> Option<Cell> {
        let column = CHART_UPCARDS.iter().position(|&u| u == upcard)?;
        self.cells[column]
    }
}

/// A hand that plays differently from its class's cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChartException {
    /// Where the class is.
    pub section: Section,
    /// The class's row label.
    pub row: String,
    /// The upcard (1..=10).
    pub upcard: u8,
    /// The hand: two values (`79`) or a composition of three or more
    /// (`24T`), values lowest first, `A` lowest, `T` for ten.
    pub hand: String,
    /// The cell of the class.
    pub cell: Cell,
    /// The hand's own best action.
    #[serde(serialize_with = "action_name")]
    pub best: Action,
}

/// The basic-strategy chart of a solved rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyChart {
    /// What was solved (the rules, the split model, cards removed).
    #[serde(skip)]
    pub params: PlayerParams,
    /// Whether the values behind it were exact fractions (else `f64`).
    pub exact: bool,
    /// Hard 5..20.
    pub hard: Vec<ChartRow>,
    /// Soft 13..20.
    pub soft: Vec<ChartRow>,
    /// AA, 22, .., TT.
    pub pairs: Vec<ChartRow>,
    /// Hard totals of three or more cards: stand or hit.
    pub multi_card_hard: Vec<ChartRow>,
    /// Soft totals of three or more cards: stand or hit.
    pub multi_card_soft: Vec<ChartRow>,
    /// The hands that play differently from their cell.
    pub exceptions: Vec<ChartException>,
}

impl StrategyChart {
    /// The chart as CSV, the layout `blackjack strategy --format csv`
    /// writes and `--strategy FILE.csv` reads: `kind,section,row,upcard,
    /// action,hand`, a line per cell the chart has, then a line per
    /// exception (the hand's own best action in `action`).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("kind,section,row,upcard,action,hand\n");
        for section in Section::ALL {
            for row in self.rows(section) {
                for (&upcard, cell) in CHART_UPCARDS.iter().zip(&row.cells) {
                    if let Some(cell) = cell {
                        let _ = writeln!(
                            out,
                            "cell,{},{},{},{},",
                            section.name(),
                            row.label,
                            value_letter(upcard),
                            cell.as_str()
                        );
                    }
                }
            }
        }
        for e in &self.exceptions {
            let _ = writeln!(
                out,
                "exception,{},{},{},{},{}",
                e.section.name(),
                e.row,
                value_letter(e.upcard),
                e.best.name(),
                e.hand
            );
        }
        out
    }

    /// The rows of a section.
    pub fn rows(&self, section: Section) -> &[ChartRow] {
        match section {
            Section::Hard => &self.hard,
            Section::Soft => &self.soft,
            Section::Pairs => &self.pairs,
            Section::MultiCardHard => &self.multi_card_hard,
            Section::MultiCardSoft => &self.multi_card_soft,
        }
    }

    /// The cell of the row labelled `label` in `section` against `upcard`.
    pub fn cell(&self, section: Section, label: &str, upcard: u8) -> Option<Cell> {
        self.rows(section)
            .iter()
            .find(|row| row.label == label)?
            .cell(upcard)
    }
}

/// The basic-strategy chart of a solved table (method in the module doc).
/// Deterministic; exact tables give exact comparisons. Errors only if the
/// table's parameters do not give a shoe (which a solved table's do).
pub fn strategy_chart<T: Number>(table: &PlayerTable<T>) -> Result<StrategyChart> {
    let shoe = table.params.shoe()?;
    let chooser = Chooser::<T>::new(&table.params);
    let mut exceptions = Vec::new();

    let mut hard = Vec::new();
    for total in HARD_TOTALS {
        let mut hands: Vec<(u8, u8)> = (2..=10u8)
            .filter_map(|a| {
                let b = total.checked_sub(a)?;
                (a < b && b <= 10).then_some((a, b))
            })
            .collect();
        let mut allow_split = true;
        if hands.is_empty() && total % 2 == 0 && (4..=20).contains(&total) {
            // Hard 20 is only TT: the row is TT not split.
            hands.push((total / 2, total / 2));
            allow_split = false;
        }
        hard.push(chooser.class_row(
            table,
            Section::Hard,
            total.to_string(),
            &hands,
            allow_split,
            &mut exceptions,
        ));
    }
    let soft = SOFT_TOTALS
        .map(|total| {
            chooser.class_row(
                table,
                Section::Soft,
                total.to_string(),
                &[(1, total - 11)],
                true,
                &mut exceptions,
            )
        })
        .collect();
    let pairs = (1..=10u8)
        .map(|value| {
            chooser.class_row(
                table,
                Section::Pairs,
                hand_name(value, value),
                &[(value, value)],
                true,
                &mut exceptions,
            )
        })
        .collect();
    let (multi_card_hard, multi_card_soft) =
        multi_card_rows(table, &chooser, &shoe, &mut exceptions)?;
    Ok(StrategyChart {
        params: table.params.clone(),
        exact: T::zero().exact().is_some(),
        hard,
        soft,
        pairs,
        multi_card_hard,
        multi_card_soft,
        exceptions,
    })
}

/// The rule-dependent part of choosing a class's action.
struct Chooser<T> {
    peek: bool,
    surrender: Surrender,
    one: T,
    give_up: T,
}

/// A class's choice: its best action and the cell that prints it.
struct Choice {
    best: Action,
    cell: Cell,
}

impl<T: Number> Chooser<T> {
    fn new(params: &PlayerParams) -> Chooser<T> {
        Chooser {
            peek: params.rules.hole_card == HoleCard::Peek,
            surrender: params.rules.surrender,
            one: T::ratio(1, 1),
            give_up: T::ratio(-1, 2),
        }
    }

    /// Whether the rows' values against `upcard` are conditioned on no
    /// dealer natural.
    fn conditioned(&self, upcard: u8) -> bool {
        self.peek && natural_hole_card(upcard).is_some()
    }

    /// The weight of a hand at the decision: P(deal), times P(no natural |
    /// the cards seen) where the values are conditioned on it.
    fn weight(&self, row: &HandRow<T>) -> T {
        if self.conditioned(row.upcard) {
            row.probability.times(&self.one.minus(&row.dealer_natural))
        } else {
            row.probability.clone()
        }
    }

    /// The best action for `rows` (the hands of a class against one
    /// upcard), as the module doc says, or `None` for no rows.
    fn choose(&self, rows: &[&HandRow<T>], allow_split: bool) -> Option<Choice> {
        let upcard = rows.first()?.upcard;
        let weights: Vec<T> = rows.iter().map(|row| self.weight(row)).collect();
        let total_weight = weights.iter().fold(T::zero(), |sum, w| sum.plus(w));
        if total_weight.is_zero_value() {
            return None;
        }
        // Weighted sums; the common divisor does not change the order.
        let sum = |action: Action| -> Option<T> {
            if (action == Action::Split && !allow_split)
                || (action == Action::Surrender && self.surrender != Surrender::Late)
            {
                return None;
            }
            let mut sum = T::zero();
            for (row, weight) in rows.iter().zip(&weights) {
                sum = sum.plus(&weight.times(row.values.get(action)?));
            }
            Some(sum)
        };
        let sums: Vec<(Action, T)> = ACTIONS
            .into_iter()
            .filter_map(|action| Some((action, sum(action)?)))
            .collect();
        let best_of = |allowed: &[Action]| -> Option<(Action, &T)> {
            let mut best: Option<(Action, &T)> = None;
            for (action, value) in &sums {
                if allowed.contains(action) && best.is_none_or(|(_, current)| value > current) {
                    best = Some((*action, value));
                }
            }
            best
        };
        let (mut best, _) = best_of(&ACTIONS)?;
        if self.surrender == Surrender::Early {
            // The whole round's value of playing on, with unconditional
            // weights, against giving up half before the peek.
            let mut play_on = T::zero();
            let mut probability = T::zero();
            for row in rows {
                let value = row.values.get(best)?;
                let whole = if self.conditioned(upcard) {
                    let kept = value.times(&self.one.minus(&row.dealer_natural));
                    let first_two = Hand::of(&[row.first, row.second]);
                    if first_two.is_two_card_21() {
                        kept
                    } else {
                        kept.minus(&row.dealer_natural)
                    }
                } else {
                    value.clone()
                };
                play_on = play_on.plus(&row.probability.times(&whole));
                probability = probability.plus(&row.probability);
            }
            if self.give_up.times(&probability) > play_on {
                best = Action::Surrender;
            }
        }
        let cell = match best {
            Action::Stand => Cell::Stand,
            Action::Hit => Cell::Hit,
            Action::Split => Cell::Split,
            Action::Double => match best_of(&[Action::Stand, Action::Hit])?.0 {
                Action::Stand => Cell::DoubleElseStand,
                _ => Cell::DoubleElseHit,
            },
            Action::Surrender => match best_of(&[Action::Stand, Action::Hit, Action::Split])?.0 {
                Action::Stand => Cell::SurrenderElseStand,
                Action::Split => Cell::SurrenderElseSplit,
                _ => Cell::SurrenderElseHit,
            },
        };
        Some(Choice { best, cell })
    }

    /// The row of a two-card class, and its exceptions.
    fn class_row(
        &self,
        table: &PlayerTable<T>,
        section: Section,
        label: String,
        hands: &[(u8, u8)],
        allow_split: bool,
        exceptions: &mut Vec<ChartException>,
    ) -> ChartRow {
        let mut cells = [None; N_VALUES];
        for (column, &upcard) in CHART_UPCARDS.iter().enumerate() {
            let rows: Vec<&HandRow<T>> = hands
                .iter()
                .filter_map(|&(a, b)| table.hand(a, b, upcard))
                .collect();
            let Some(choice) = self.choose(&rows, allow_split) else {
                continue;
            };
            cells[column] = Some(choice.cell);
            for row in &rows {
                if let Some(own) = self.choose(&[*row], allow_split)
                    && own.best != choice.best
                {
                    exceptions.push(ChartException {
                        section,
                        row: label.clone(),
                        upcard,
                        hand: hand_name(row.first, row.second),
                        cell: choice.cell,
                        best: own.best,
                    });
                }
            }
        }
        ChartRow {
            label,
            hands: hands.iter().map(|&(a, b)| hand_name(a, b)).collect(),
            cells,
        }
    }
}

/// A composition's name: its values lowest first, `A` lowest, `T` ten
/// (`24T`, `AA5`).
pub fn composition_name(hand: &Hand) -> String {
    (1..=N_VALUES as u8)
        .flat_map(|value| std::iter::repeat_n(value, usize::from(hand.count(value))))
        .map(super::rules::value_letter)
        .collect()
}

/// The chance that the next card is `value`, with the upcard and `hand`
/// out of `shoe`.
fn next_card_chance<T: Number>(shoe: &Shoe, upcard: u8, hand: &Hand, value: u8) -> T {
    if shoe.infinite {
        return T::ratio(i64::from(shoe.count(value)), i64::from(shoe.total()));
    }
    let seen = i64::from(hand.count(value)) + i64::from(value == upcard);
    let left = i64::from(shoe.count(value)) - seen;
    let cards = i64::from(shoe.total()) - 1 - i64::from(hand.n_cards());
    if left <= 0 || cards <= 0 {
        T::zero()
    } else {
        T::ratio(left, cards)
    }
}

/// Weighted stand and hit sums of one total against one upcard.
struct TotalSums<T> {
    stand: T,
    hit: T,
    weight: T,
}

/// The rows for three or more cards (module doc), and their exceptions.
fn multi_card_rows<T: Number>(
    table: &PlayerTable<T>,
    chooser: &Chooser<T>,
    shoe: &Shoe,
    exceptions: &mut Vec<ChartException>,
) -> Result<(Vec<ChartRow>, Vec<ChartRow>)> {
    let compositions = Compositions::get();
    if table.compositions.len() != compositions.len() {
        return Err(Error::invalid(
            "table",
            table.compositions.len(),
            "must hold one entry per composition",
        ));
    }
    // Per upcard column, per (soft, total): the sums; and the weight of
    // every reachable composition of three or more cards.
    let mut sums: Vec<Vec<Option<TotalSums<T>>>> = Vec::with_capacity(N_VALUES);
    let mut weights: Vec<Vec<Option<T>>> = Vec::with_capacity(N_VALUES);
    for &upcard in &CHART_UPCARDS {
        let column = usize::from(upcard - 1);
        let mut reach: Vec<Option<T>> = vec![None; compositions.len()];
        reach[0] = Some(T::ratio(1, 1));
        let mut held: Vec<Option<T>> = vec![None; compositions.len()];
        let mut by_total: Vec<Option<TotalSums<T>>> = (0..44).map(|_| None).collect();
        for index in 0..compositions.len() {
            let Some(chance) = reach[index].take() else {
                continue;
            };
            if chance.is_zero_value() {
                continue;
            }
            let hand = &compositions.hands[index];
            let hits = match hand.n_cards() {
                0 | 1 => true,
                2 => {
                    let (a, b) = hand.pair_values().expect("two cards");
                    table
                        .hand(a, b, upcard)
                        .is_some_and(|row| row.best == Action::Hit)
                }
                _ => table.decide(upcard, hand, Spot::Later) == Some(Action::Hit),
            };
            if hand.n_cards() >= 3
                && hand.total() < 21
                && let Some(values) = &table.compositions[index][column]
            {
                let weight = if chooser.conditioned(upcard) {
                    let hole = natural_hole_card(upcard).expect("a natural card");
                    let natural: T = next_card_chance(shoe, upcard, hand, hole);
                    chance.times(&chooser.one.minus(&natural))
                } else {
                    chance.clone()
                };
                let slot =
                    &mut by_total[usize::from(hand.total()) + 22 * usize::from(hand.is_soft())];
                let sums = slot.get_or_insert_with(|| TotalSums {
                    stand: T::zero(),
                    hit: T::zero(),
                    weight: T::zero(),
                });
                sums.stand = sums.stand.plus(&weight.times(&values.stand));
                sums.hit = sums.hit.plus(&weight.times(&values.hit));
                sums.weight = sums.weight.plus(&weight);
                held[index] = Some(weight);
            }
            if !hits {
                continue;
            }
            for value in 1..=N_VALUES as u8 {
                let child = compositions.children[index][usize::from(value - 1)];
                if child == BUST {
                    continue;
                }
                let draw: T = next_card_chance(shoe, upcard, hand, value);
                if draw.is_zero_value() {
                    continue;
                }
                let through = chance.times(&draw);
                let slot = &mut reach[child as usize];
                *slot = Some(match slot.take() {
                    Some(sum) => sum.plus(&through),
                    None => through,
                });
            }
        }
        sums.push(by_total);
        weights.push(held);
    }

    let decide = |sums: &TotalSums<T>| -> Option<Cell> {
        if sums.weight.is_zero_value() {
            None
        } else if sums.hit > sums.stand {
            Some(Cell::Hit)
        } else {
            Some(Cell::Stand)
        }
    };
    let mut rows_for = |soft: bool, totals: std::ops::RangeInclusive<u8>| -> Vec<ChartRow> {
        let section = if soft {
            Section::MultiCardSoft
        } else {
            Section::MultiCardHard
        };
        let mut rows = Vec::new();
        for total in totals {
            let slot = usize::from(total) + 22 * usize::from(soft);
            let cells: [Option<Cell>; N_VALUES] =
                std::array::from_fn(|column| sums[column][slot].as_ref().and_then(decide));
            if cells.iter().all(Option::is_none) {
                continue;
            }
            let label = total.to_string();
            for (column, &upcard) in CHART_UPCARDS.iter().enumerate() {
                let Some(cell) = cells[column] else {
                    continue;
                };
                for (index, weight) in weights[column].iter().enumerate() {
                    let hand = &compositions.hands[index];
                    if weight.as_ref().is_none_or(Number::is_zero_value)
                        || hand.total() != total
                        || hand.is_soft() != soft
                    {
                        continue;
                    }
                    let Some(values) = &table.compositions[index][usize::from(upcard - 1)] else {
                        continue;
                    };
                    let own = if values.hit > values.stand {
                        Action::Hit
                    } else {
                        Action::Stand
                    };
                    if own != cell.action() {
                        exceptions.push(ChartException {
                            section,
                            row: label.clone(),
                            upcard,
                            hand: composition_name(hand),
                            cell,
                            best: own,
                        });
                    }
                }
            }
            rows.push(ChartRow {
                label,
                hands: Vec::new(),
                cells,
            });
        }
        rows
    };
    let hard = rows_for(false, 4..=20);
    let soft = rows_for(true, 12..=20);
    Ok((hard, soft))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::{
        BlackjackPays, DoubleOn, PlayerRules, SplitModel, solve_exact, solve_float,
    };
    use crate::games::blackjack::{Decks, Soft17};

    fn params(rules: PlayerRules) -> PlayerParams {
        PlayerParams {
            rules,
            split_model: SplitModel::Cdz,
            removed: Vec::new(),
        }
    }

    fn chart_of(rules: PlayerRules) -> StrategyChart {
        strategy_chart(&solve_float(&params(rules), &NoProgress).unwrap()).unwrap()
    }

    /// A section's rows as `label: cells` lines, cells by code.
    fn lines(chart: &StrategyChart, section: Section) -> Vec<String> {
        chart
            .rows(section)
            .iter()
            .map(|row| {
                let cells: Vec<&str> = row
                    .cells
                    .iter()
                    .map(|c| c.map_or("-", Cell::as_str))
                    .collect();
                format!("{}: {}", row.label, cells.join(" "))
            })
            .collect()
    }

    fn upcard_of(letter: char) -> u8 {
        match letter {
            'A' => 1,
            'T' => 10,
            digit => digit.to_digit(10).unwrap() as u8,
        }
    }

    /// Checks cells given as `(section, row, upcards, code)`.
    fn check_cells(chart: &StrategyChart, cells: &[(Section, &str, &str, &str)]) {
        for &(section, row, upcards, code) in cells {
            for letter in upcards.chars() {
                let upcard = upcard_of(letter);
                assert_eq!(
                    chart.cell(section, row, upcard).map(Cell::as_str),
                    Some(code),
                    "{} {row} against {letter}",
                    section.name()
                );
            }
        }
    }

    #[test]
    fn six_deck_s17_das_is_the_printed_multi_deck_basic_strategy() {
        // Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy", the chart
        // for a dealer standing on soft 17 with double after split, no
        // surrender (https://wizardofodds.com/games/blackjack/strategy/4-decks/):
        // hard 5-8 always hit; 9 doubles against 3-6; 10 against 2-9; 11
        // against 2-10 and hits against an ace; 12 stands against 4-6;
        // 13-16 stand against 2-6; 17 and up stand. Soft 13 and 14 double
        // against 5-6, soft 15 and 16 against 4-6, soft 17 against 3-6;
        // soft 18 doubles (else stands) against 3-6, stands against 2, 7,
        // 8 and hits against 9, ten, ace; soft 19 and 20 stand. Aces and
        // eights always split, tens never, fives double against 2-9 as a
        // hard 10; 2s, 3s and 7s split against 2-7; 4s against 5-6; 6s
        // against 2-6; 9s against 2-6 and 8-9, standing against 7, ten,
        // ace. Every cell of the three sections, in the layout people
        // print (columns 2..9, T, A):
        let chart = chart_of(PlayerRules::default());
        let printed_hard = [
            "5: H H H H H H H H H H",
            "6: H H H H H H H H H H",
            "7: H H H H H H H H H H",
            "8: H H H H H H H H H H",
            "9: H D D D D H H H H H",
            "10: D D D D D D D D H H",
            "11: D D D D D D D D D H",
            "12: H H S S S H H H H H",
            "13: S S S S S H H H H H",
            "14: S S S S S H H H H H",
            "15: S S S S S H H H H H",
            "16: S S S S S H H H H H",
            "17: S S S S S S S S S S",
            "18: S S S S S S S S S S",
            "19: S S S S S S S S S S",
            "20: S S S S S S S S S S",
        ];
        let printed_soft = [
            "13: H H H D D H H H H H",
            "14: H H H D D H H H H H",
            "15: H H D D D H H H H H",
            "16: H H D D D H H H H H",
            "17: H D D D D H H H H H",
            "18: S Ds Ds Ds Ds S S H H H",
            "19: S S S S S S S S S S",
            "20: S S S S S S S S S S",
        ];
        let printed_pairs = [
            "AA: P P P P P P P P P P",
            "22: P P P P P P H H H H",
            "33: P P P P P P H H H H",
            "44: H H H P P H H H H H",
            "55: D D D D D D D D H H",
            "66: P P P P P H H H H H",
            "77: P P P P P P H H H H",
            "88: P P P P P P P P P P",
            "99: P P P P P S P P S S",
            "TT: S S S S S S S S S S",
        ];
        assert_eq!(lines(&chart, Section::Hard), printed_hard);
        assert_eq!(lines(&chart, Section::Soft), printed_soft);
        assert_eq!(lines(&chart, Section::Pairs), printed_pairs);
        // Hands of three or more cards: 16 against a ten stands (the
        // composition-dependent refinement quoted for shoe games, e.g.
        // https://beau--white.blogspot.com/2014/03/16vt-rs-wtf.html: hit a
        // two-card 16 against a ten, stand with three or more cards); the
        // rest of hard 12-17 reads as the two-card chart.
        check_cells(
            &chart,
            &[
                (Section::MultiCardHard, "16", "23456", "S"),
                (Section::MultiCardHard, "16", "789A", "H"),
                (Section::MultiCardHard, "16", "T", "S"),
                (Section::MultiCardHard, "12", "456", "S"),
                (Section::MultiCardHard, "12", "23789TA", "H"),
                (Section::MultiCardHard, "17", "23456789TA", "S"),
            ],
        );
    }

    #[test]
    fn late_surrender_surrenders_16_against_9_ten_ace_and_15_against_ten() {
        // Wizard of Odds, 4-8 decks, S17, late surrender: surrender hard 16
        // (not a pair of eights) against 9, ten, ace, and hard 15 against a
        // ten; 8s still split against everything.
        let chart = chart_of(PlayerRules {
            surrender: Surrender::Late,
            ..PlayerRules::default()
        });
        check_cells(
            &chart,
            &[
                (Section::Hard, "16", "9TA", "R"),
                (Section::Hard, "16", "78", "H"),
                (Section::Hard, "15", "T", "R"),
                (Section::Hard, "15", "89A", "H"),
                (Section::Hard, "17", "A", "S"),
                (Section::Pairs, "88", "23456789TA", "P"),
            ],
        );
    }

    #[test]
    fn hitting_soft_17_changes_the_printed_cells() {
        // Wizard of Odds, 4-8 decks, the chart for a dealer hitting soft
        // 17 (DAS): 11 doubles against an ace, soft 19 doubles (else
        // stands) against 6, soft 18 doubles (else stands) against 2 as
        // well as 3-6; with late surrender also 15 against an ace is
        // surrendered (else hit), 17 against an ace (else stand), and 8s
        // against an ace (else split).
        let h17 = PlayerRules {
            soft17: Soft17::Hit,
            ..PlayerRules::default()
        };
        let chart = chart_of(h17);
        check_cells(
            &chart,
            &[
                (Section::Hard, "11", "23456789TA", "D"),
                (Section::Soft, "19", "6", "Ds"),
                (Section::Soft, "19", "2345789TA", "S"),
                (Section::Soft, "18", "23456", "Ds"),
                (Section::Soft, "18", "78", "S"),
            ],
        );
        let chart = chart_of(PlayerRules {
            surrender: Surrender::Late,
            ..h17
        });
        check_cells(
            &chart,
            &[
                (Section::Hard, "15", "TA", "R"),
                (Section::Hard, "16", "9TA", "R"),
                (Section::Hard, "17", "A", "Rs"),
                (Section::Pairs, "88", "A", "Rp"),
                (Section::Pairs, "88", "23456789T", "P"),
            ],
        );
    }

    #[test]
    fn two_decks_mark_the_published_composition_exceptions() {
        // "BlackJack Appendix 3b", composition-dependent play off the top of
        // a double deck, dealer standing on soft 17
        // (http://www.godofgambling.com/game/bjapx3b.shtml): with two cards
        // the chart holds but for 9+2 and 8+3 hitting against an ace and
        // 10+2 hitting against 4; with three cards 16 against a ten stands,
        // except 6+6+4, 7+6+3, 8+6+2, 9+6+A and 10+3+3, which hit.
        let chart = chart_of(PlayerRules {
            decks: Decks::Finite(2),
            ..PlayerRules::default()
        });
        let two_card: Vec<(&str, u8, &str, Action)> = chart
            .exceptions
            .iter()
            .filter(|e| matches!(e.section, Section::Hard | Section::Soft | Section::Pairs))
            .map(|e| (e.row.as_str(), e.upcard, e.hand.as_str(), e.best))
            .collect();
        assert_eq!(
            two_card,
            [
                ("11", 1, "29", Action::Hit),
                ("11", 1, "38", Action::Hit),
                ("12", 4, "2T", Action::Hit)
            ]
        );
        assert_eq!(
            chart.cell(Section::MultiCardHard, "16", 10),
            Some(Cell::Stand)
        );
        let mut three_card: Vec<&str> = chart
            .exceptions
            .iter()
            .filter(|e| e.section == Section::MultiCardHard && e.row == "16" && e.upcard == 10)
            .filter(|e| e.hand.len() == 3)
            .map(|e| {
                assert_eq!(e.best, Action::Hit, "{e:?}");
                e.hand.as_str()
            })
            .collect();
        three_card.sort();
        assert_eq!(three_card, ["268", "33T", "367", "466", "A69"]);
    }

    #[test]
    fn a_class_of_one_hand_plays_as_the_solver_decides() {
        // Soft rows and pairs hold one hand each: their cells must take the
        // solver's own best action, under every hole-card and surrender rule
        // (the weighting, the conditioning and early surrender included).
        for (hole_card, surrender) in [
            (HoleCard::Peek, Surrender::None),
            (HoleCard::Peek, Surrender::Late),
            (HoleCard::Peek, Surrender::Early),
            (HoleCard::Enhc, Surrender::Early),
            (HoleCard::Enhc, Surrender::Late),
        ] {
            let rules = PlayerRules {
                decks: Decks::Finite(1),
                hole_card,
                surrender,
                blackjack_pays: BlackjackPays::SixToFive,
                ..PlayerRules::default()
            };
            let table = solve_float(&params(rules), &NoProgress).unwrap();
            let chart = strategy_chart(&table).unwrap();
            for row in chart.soft.iter().chain(&chart.pairs) {
                let (first, second) = super::super::rules::parse_hand(&row.hands[0]).unwrap();
                for &upcard in &CHART_UPCARDS {
                    let best = table.hand(first, second, upcard).unwrap().best;
                    assert_eq!(
                        row.cell(upcard).map(Cell::action),
                        Some(best),
                        "{hole_card:?} {surrender:?}: {} against {upcard}",
                        row.label
                    );
                }
            }
            assert!(
                chart
                    .exceptions
                    .iter()
                    .all(|e| !matches!(e.section, Section::Soft | Section::Pairs)),
                "{:?}",
                chart.exceptions
            );
            // Early surrender is taken against aces and tens with hands the
            // late rule would play on (RULES.md: before the peek).
            if surrender == Surrender::Early && hole_card == HoleCard::Peek {
                assert_eq!(
                    chart.cell(Section::Hard, "14", 1),
                    Some(Cell::SurrenderElseHit)
                );
            }
        }
    }

    #[test]
    fn restricted_doubling_leaves_no_double_where_it_is_not_allowed() {
        let chart = chart_of(PlayerRules {
            double: DoubleOn::TenToEleven,
            ..PlayerRules::default()
        });
        for section in [Section::Hard, Section::Soft, Section::Pairs] {
            for row in chart.rows(section) {
                // Hard 10 and 11, and 55 (a hard 10).
                let may = (section == Section::Hard && (row.label == "10" || row.label == "11"))
                    || row.label == "55";
                for cell in row.cells.iter().flatten() {
                    assert!(
                        may || cell.action() != Action::Double,
                        "{} {}: {cell:?}",
                        section.name(),
                        row.label
                    );
                }
            }
        }
        check_cells(
            &chart,
            &[
                (Section::Soft, "18", "3456", "S"),
                (Section::Hard, "9", "3456", "H"),
            ],
        );
    }

    #[test]
    fn exact_and_float_charts_agree_on_one_deck() {
        let rules = PlayerRules {
            decks: Decks::Finite(1),
            ..PlayerRules::default()
        };
        let exact = strategy_chart(&solve_exact(&params(rules), &NoProgress).unwrap()).unwrap();
        let float = chart_of(rules);
        assert!(exact.exact && !float.exact);
        assert_eq!(
            StrategyChart {
                exact: false,
                ..exact
            },
            float
        );
    }

    #[test]
    fn an_infinite_deck_has_no_composition_exceptions() {
        // With every card's chance fixed, a hand's values depend on its
        // total and softness alone, so no hand can play apart from its row.
        let chart = chart_of(PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        });
        assert_eq!(chart.exceptions, []);
        assert_eq!(
            chart.cell(Section::MultiCardHard, "16", 10),
            Some(Cell::Hit)
        );
    }

    #[test]
    fn codes_read_back() {
        for cell in Cell::ALL {
            assert_eq!(Cell::parse(cell.as_str()), Some(cell));
        }
        assert_eq!(Cell::parse("X"), None);
        assert_eq!(composition_name(&Hand::of(&[10, 1, 4, 2])), "A24T");
    }
}
