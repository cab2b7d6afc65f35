//! Playing by the count (RULES.md section 6, "Index plays"): the index
//! plays a table's player makes, read from an index file (the CSV
//! `blackjack indices` writes) or taken from an index run, and the chart
//! they make of basic strategy at each true count.
//!
//! # An index play
//!
//! A [`Deviation`]: a decision (a hand class against an upcard, or
//! insurance), the action taken instead of the chart's, and where: at true
//! counts at or above its index (`>=`), or below it (`<`). Insurance is
//! taken where its deviation holds and never elsewhere.
//!
//! # The chart at a true count
//!
//! [`IndexPlays::chart_at`] is the basic chart with every deviation that
//! holds at the count written into its cell:
//!
//! - `S`, `H` and `P` become that cell; `D` becomes `D` (double, else hit)
//!   or `Ds` (double, else stand) as the chart's own cell hits or stands
//!   when it cannot double; `R` keeps the chart's fallback likewise (`R`,
//!   `Rs`, or `Rp` for a pair the chart splits).
//! - A stand or hit deviation of a hard or soft row holds for that total
//!   of three or more cards too (the chart's multi-card row): a counter who
//!   stands on 16 against a ten at 0 and above stands on every 16.
//! - Where several deviations of one decision hold (`>=` plays at rising
//!   indices: double 9 v 2 at +1, say, and something else at +5), the one
//!   furthest from basic strategy counts: the highest index of the `>=`
//!   plays, the lowest of the `<` plays. A `>=` and a `<` play of one
//!   decision that both hold at some count contradict each other; a file
//!   with them is refused.
//!
//! # The index file
//!
//! CSV with a header line; the columns are read by name, in any order,
//! others ignored (the finder's `basic`, `crossing`, `low95`, `high95`
//! and `shoes` are for the reader): `section` (`hard`, `soft`, `pairs`,
//! `insurance`), `row` (a total of the section, a pair as `TT` or `88`, a
//! soft hand also as `A7`; empty for insurance), `upcard` (`A`, `2`..`9`,
//! `T`, or `10`, `J`, `Q`, `K`; `A` or empty for insurance), `deviation`
//! (`S`, `H`, `D`, `P` in the pairs section only, `R`; `I` for insurance
//! and only there), `direction` (`>=` or `<`) and `index` (a whole true
//! count, -99..=99, a leading `+` allowed). Blank lines are skipped,
//! fields trimmed, a byte-order mark ignored. Each refusal is one line
//! naming the line and column (`line 4, column deviation "X": not a
//! deviation; allowed: S, H, D, P, R (I for insurance)`).

use std::collections::BTreeMap;

use super::chart_strategy::{ChartStrategy, parse_row_key, rows_allowed, stand_or_hit};
use super::indices::{Decision, DecisionIndices, HandClass};
use crate::csv_text;
use crate::error::{Error, Result};
use crate::games::blackjack::player::chart::{Cell, Section};
use crate::games::blackjack::player::{Action, parse_upcard, value_letter};

/// The index file's columns, in the order `blackjack indices` writes them.
pub const INDEX_FILE_COLUMNS: [&str; 11] = [
    "section",
    "row",
    "upcard",
    "basic",
    "deviation",
    "direction",
    "index",
    "crossing",
    "low95",
    "high95",
    "shoes",
];

/// The columns the table reads.
const READ_COLUMNS: [&str; 6] = [
    "section",
    "row",
    "upcard",
    "deviation",
    "direction",
    "index",
];

/// The largest index a file may give, either way: a true count beyond it
/// is never dealt.
pub const MAX_INDEX: i32 = 99;

/// One index play (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deviation {
    pub decision: Decision,
    /// The action taken where the play holds ([`Action::Stand`] for
    /// insurance, whose "action" is the bet taken).
    pub action: Action,
    /// `>=` (`true`) or `<`.
    pub at_or_above: bool,
    pub index: i32,
}

impl Deviation {
    /// Whether the play holds at the true count `true_count`.
    pub fn holds_at(&self, true_count: i32) -> bool {
        if self.at_or_above {
            true_count >= self.index
        } else {
            true_count < self.index
        }
    }

    /// The deviation's code in an index file: `S`, `H`, `D`, `P`, `R`, or
    /// `I` for insurance.
    pub fn code(&self) -> &'static str {
        match self.decision.class {
            HandClass::Insurance => "I",
            _ => action_code(self.action),
        }
    }

    /// The direction's code: `>=` or `<`.
    pub fn direction(&self) -> &'static str {
        if self.at_or_above { ">=" } else { "<" }
    }

    /// `hard 16 v T: S at >= 0`, for messages.
    fn describe(&self) -> String {
        let direction = self.direction();
        match self.decision.class {
            HandClass::Insurance => format!("insurance at {direction} {}", self.index),
            _ => format!(
                "{}: {} at {direction} {}",
                self.decision.name(),
                action_code(self.action),
                self.index
            ),
        }
    }
}

/// An action's code in an index file: `S`, `H`, `D`, `P`, `R`.
pub fn action_code(action: Action) -> &'static str {
    match action {
        Action::Stand => "S",
        Action::Hit => "H",
        Action::Double => "D",
        Action::Split => "P",
        Action::Surrender => "R",
    }
}

/// The index plays a player makes (module doc), checked: no two of one
/// decision contradict each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexPlays {
    deviations: Vec<Deviation>,
}

impl IndexPlays {
    /// The plays `deviations`, each named in errors by `sources[k]` (a
    /// file's `line 12`, or the play itself).
    ///
    /// Errors if two plays of one decision hold at the same counts in
    /// opposite directions, or two of one direction share an index.
    fn checked(deviations: Vec<Deviation>, sources: Vec<String>) -> Result<IndexPlays> {
        let mut by_decision: BTreeMap<Decision, Vec<usize>> = BTreeMap::new();
        for (k, deviation) in deviations.iter().enumerate() {
            by_decision.entry(deviation.decision).or_default().push(k);
        }
        for plays in by_decision.values() {
            for (i, &a) in plays.iter().enumerate() {
                for &b in &plays[i + 1..] {
                    let (first, second) = (&deviations[a], &deviations[b]);
                    let clash = if first.at_or_above == second.at_or_above {
                        (first.index == second.index).then(|| "share an index".to_string())
                    } else {
                        let (above, below) = if first.at_or_above {
                            (first, second)
                        } else {
                            (second, first)
                        };
                        (above.index < below.index).then(|| {
                            format!(
                                "both hold at true counts {} to {}",
                                above.index,
                                below.index - 1
                            )
                        })
                    };
                    if let Some(clash) = clash {
                        return Err(Error::invalid(
                            "index plays",
                            format!(
                                "{} ({}) and {} ({})",
                                first.describe(),
                                sources[a],
                                second.describe(),
                                sources[b]
                            ),
                            format!("{clash}; give one play of a decision at each count"),
                        ));
                    }
                }
            }
        }
        Ok(IndexPlays { deviations })
    }

    /// The plays an index run found (every index of `found`).
    ///
    /// Errors as [`IndexPlays::parse_csv`] does for contradicting plays.
    pub fn from_found(found: &[DecisionIndices]) -> Result<IndexPlays> {
        let deviations: Vec<Deviation> = found
            .iter()
            .flat_map(|decision| {
                decision.plays.iter().map(|play| Deviation {
                    decision: decision.decision,
                    action: play.deviation,
                    at_or_above: play.at_or_above,
                    index: play.index,
                })
            })
            .collect();
        let sources = deviations.iter().map(|_| "found".to_string()).collect();
        IndexPlays::checked(deviations, sources)
    }

    /// Reads an index file (module doc). Errors, one line each, name the
    /// line and column: an empty text, a header without one of the columns
    /// read, an unknown section, row, upcard, deviation or direction, an
    /// index that is not a whole number in -99..=99, a split outside the
    /// pairs, insurance's `I` anywhere else (or another deviation for
    /// insurance), a file of no plays, and (naming both lines) two plays
    /// of a decision that contradict each other.
    pub fn parse_csv(text: &str) -> Result<IndexPlays> {
        let records = csv_text::records(text)
            .map_err(|(line, why)| Error::invalid("index file", format!("line {line}"), why))?;
        let mut columns: Option<[usize; READ_COLUMNS.len()]> = None;
        let mut deviations = Vec::new();
        let mut sources = Vec::new();
        for (line, record) in records {
            let Some(at) = columns else {
                let mut found = [0; READ_COLUMNS.len()];
                for (slot, name) in found.iter_mut().zip(READ_COLUMNS) {
                    *slot = record
                        .iter()
                        .position(|field| field.eq_ignore_ascii_case(name))
                        .ok_or_else(|| {
                            Error::invalid(
                                &format!("line {line}"),
                                format!("{:?}", record.iter().collect::<Vec<_>>().join(",")),
                                format!(
                                    "a header without the column {name}; an index file's header \
                                     names {}",
                                    READ_COLUMNS.join(", ")
                                ),
                            )
                        })?;
                }
                columns = Some(found);
                continue;
            };
            let field = |column: usize| record.get(at[column]).unwrap_or_default();
            let refuse = |column: usize, allowed: &str| {
                Error::invalid(
                    &format!("line {line}, column {}", READ_COLUMNS[column]),
                    format!("{:?}", field(column)),
                    allowed,
                )
            };
            let section = field(0).to_ascii_lowercase();
            let class = match section.as_str() {
                "insurance" => HandClass::Insurance,
                "hard" | "soft" | "pairs" => {
                    let chart_section = match section.as_str() {
                        "hard" => Section::Hard,
                        "soft" => Section::Soft,
                        _ => Section::Pairs,
                    };
                    let key = parse_row_key(chart_section, field(1)).ok_or_else(|| {
                        refuse(
                            1,
                            &format!(
                                "not a row of {section}; allowed: {}",
                                rows_allowed(chart_section)
                            ),
                        )
                    })?;
                    match chart_section {
                        Section::Hard => HandClass::Hard(key),
                        Section::Soft => HandClass::Soft(key),
                        _ => HandClass::Pair(key),
                    }
                }
                _ => {
                    return Err(refuse(
                        0,
                        "not a section; allowed: hard, soft, pairs, insurance",
                    ));
                }
            };
            let upcard = match (class, field(2)) {
                (HandClass::Insurance, "") => 1,
                (_, text) => parse_upcard(text).map_err(|_| {
                    refuse(2, "not an upcard; allowed: A, 2..9, T (or 10, J, Q, K)")
                })?,
            };
            if class == HandClass::Insurance && upcard != 1 {
                return Err(refuse(2, "insurance is against an ace: A (or empty)"));
            }
            let code = field(3).to_ascii_uppercase();
            let action = match (class, code.as_str()) {
                (HandClass::Insurance, "I") => Action::Stand,
                (HandClass::Insurance, _) => {
                    return Err(refuse(3, "insurance's deviation is I (take it)"));
                }
                (_, "S") => Action::Stand,
                (_, "H") => Action::Hit,
                (_, "D") => Action::Double,
                (HandClass::Pair(_), "P") => Action::Split,
                (_, "P") => {
                    return Err(refuse(
                        3,
                        "a split outside the pairs section; hard and soft rows take S, H, D or R",
                    ));
                }
                (_, "R") => Action::Surrender,
                _ => {
                    return Err(refuse(
                        3,
                        "not a deviation; allowed: S, H, D, P, R (I for insurance)",
                    ));
                }
            };
            let at_or_above = match field(4) {
                ">=" => true,
                "<" => false,
                _ => return Err(refuse(4, "not a direction; allowed: >=, <")),
            };
            let index = field(5)
                .strip_prefix('+')
                .unwrap_or(field(5))
                .parse::<i32>()
                .ok()
                .filter(|index| index.abs() <= MAX_INDEX)
                .ok_or_else(|| refuse(5, "not an index; allowed: a whole true count -99..=99"))?;
            deviations.push(Deviation {
                decision: Decision { class, upcard },
                action,
                at_or_above,
                index,
            });
            sources.push(format!("line {line}"));
        }
        if columns.is_none() {
            return Err(Error::invalid(
                "index file",
                "\"\"",
                format!(
                    "empty; an index file starts with a header naming {}",
                    READ_COLUMNS.join(", ")
                ),
            ));
        }
        if deviations.is_empty() {
            return Err(Error::invalid(
                "index file",
                "with a header only",
                "no index plays; a line per play, such as hard,16,T,H,S,>=,0 under the header \
                 section,row,upcard,basic,deviation,direction,index",
            ));
        }
        IndexPlays::checked(deviations, sources)
    }

    /// The plays, in the order given.
    pub fn deviations(&self) -> &[Deviation] {
        &self.deviations
    }

    /// Whether any play is insurance.
    pub fn insures(&self) -> bool {
        self.deviations
            .iter()
            .any(|deviation| deviation.decision.class == HandClass::Insurance)
    }

    /// The counts at which the plays change: every index, sorted, once.
    /// The plays that hold are the same at every count from one boundary up
    /// to the next (and below the first, and from the last up).
    pub fn boundaries(&self) -> Vec<i32> {
        let mut indices: Vec<i32> = self.deviations.iter().map(|d| d.index).collect();
        indices.sort_unstable();
        indices.dedup();
        indices
    }

    /// The play of `decision` that holds at `true_count`, if any (module
    /// doc: the one furthest from basic strategy).
    fn play_at(&self, decision: Decision, true_count: i32) -> Option<&Deviation> {
        let holding = self
            .deviations
            .iter()
            .filter(|d| d.decision == decision && d.holds_at(true_count));
        // `checked` leaves plays of one direction only holding at a count.
        holding.max_by_key(|d| if d.at_or_above { d.index } else { -d.index })
    }

    /// Whether insurance is taken at `true_count`.
    pub fn insures_at(&self, true_count: i32) -> bool {
        self.play_at(Decision::INSURANCE, true_count).is_some()
    }

    /// `basic` with every play that holds at `true_count` in its cell
    /// (module doc).
    pub fn chart_at(&self, basic: &ChartStrategy, true_count: i32) -> ChartStrategy {
        let mut chart = basic.clone();
        let mut decisions: Vec<Decision> = self.deviations.iter().map(|d| d.decision).collect();
        decisions.sort();
        decisions.dedup();
        for decision in decisions {
            let Some(play) = self.play_at(decision, true_count) else {
                continue;
            };
            let (section, row, multi_card) = match decision.class {
                HandClass::Hard(total) => (Section::Hard, total, Some(Section::MultiCardHard)),
                HandClass::Soft(total) => (Section::Soft, total, Some(Section::MultiCardSoft)),
                HandClass::Pair(value) => (Section::Pairs, value, None),
                HandClass::Insurance => continue,
            };
            let upcard = decision.upcard;
            let own = basic
                .cell(section, row, upcard)
                .expect("a parsed row is the chart's");
            let cell = match play.action {
                Action::Stand => Cell::Stand,
                Action::Hit => Cell::Hit,
                Action::Split => Cell::Split,
                Action::Double => match stand_or_hit(own) {
                    Cell::Stand => Cell::DoubleElseStand,
                    _ => Cell::DoubleElseHit,
                },
                Action::Surrender => match own {
                    Cell::Split | Cell::SurrenderElseSplit => Cell::SurrenderElseSplit,
                    _ => match stand_or_hit(own) {
                        Cell::Stand => Cell::SurrenderElseStand,
                        _ => Cell::SurrenderElseHit,
                    },
                },
            };
            chart.set_cell(section, row, upcard, cell);
            if let (Some(multi_card), Cell::Stand | Cell::Hit) = (multi_card, cell)
                && chart.cell(multi_card, row, upcard).is_some()
            {
                chart.set_cell(multi_card, row, upcard, cell);
            }
        }
        chart
    }

    /// The plays as an index file (module doc; the columns the table reads,
    /// `basic` left empty), for a run's record.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("section,row,upcard,basic,deviation,direction,index\n");
        for d in &self.deviations {
            out.push_str(&format!(
                "{},{},{},,{},{},{}\n",
                d.decision.class.section(),
                d.decision.class.row(),
                value_letter(d.decision.upcard),
                d.code(),
                d.direction(),
                d.index
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::chart::strategy_chart;
    use crate::games::blackjack::player::{
        Hand, PlayerParams, PlayerRules, SplitModel, Spot, solve_float,
    };
    use crate::games::blackjack::table::indices::lists;

    const HEADER: &str = "section,row,upcard,basic,deviation,direction,index";

    fn basic() -> ChartStrategy {
        let params = PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz);
        let table = solve_float(&params, &NoProgress).expect("the rules solve");
        ChartStrategy::from_chart(&strategy_chart(&table).unwrap()).unwrap()
    }

    /// The Illustrious 18 as an index file.
    fn illustrious_18() -> String {
        let mut text = format!("{HEADER}\n");
        for play in lists::ILLUSTRIOUS_18 {
            let deviation = match play.decision.class {
                HandClass::Insurance => "I".to_string(),
                _ => action_code(play.at_or_above).to_string(),
            };
            let upcard = value_letter(play.decision.upcard);
            // The negative-direction plays (12 and 13 against 2..6 at 0
            // and below): hit below the index.
            let negative = matches!(play.decision.class, HandClass::Hard(12 | 13))
                && play.decision.upcard >= 2
                && play.index <= 0;
            let (deviation, direction) = if negative {
                ("H".to_string(), "<")
            } else {
                (deviation, ">=")
            };
            text.push_str(&format!(
                "{},{},{upcard},,{deviation},{direction},{}\n",
                play.decision.class.section(),
                play.decision.class.row(),
                play.index
            ));
        }
        text
    }

    fn refusal(text: &str) -> String {
        let error = IndexPlays::parse_csv(text).expect_err("refused");
        assert_eq!(error.exit_code(), 2, "{error}");
        let message = error.to_string();
        assert!(!message.contains('\n'), "one line: {message}");
        message
    }

    #[test]
    fn the_illustrious_18_read_and_change_the_chart_at_their_counts() {
        let plays = IndexPlays::parse_csv(&illustrious_18()).unwrap();
        assert_eq!(plays.deviations().len(), 18);
        assert!(plays.insures());
        assert!(plays.insures_at(3) && !plays.insures_at(2));
        let basic = basic();
        let rules = PlayerRules::default();
        let decide = |chart: &ChartStrategy, cards: &[u8], upcard| {
            chart.decide(&rules, upcard, &Hand::of(cards), Spot::Initial)
        };
        let at = |tc| plays.chart_at(&basic, tc);
        // 16 v T: hit below 0, stand at 0 and up.
        assert_eq!(decide(&at(-1), &[10, 6], 10), Action::Hit);
        assert_eq!(decide(&at(0), &[10, 6], 10), Action::Stand);
        // 12 v 2 stands at +3, on three cards too; below it three cards
        // play the chart's multi-card row.
        let three = Hand::of(&[5, 5, 2]);
        let later = |chart: &ChartStrategy| chart.decide(&rules, 2, &three, Spot::Later);
        assert_eq!(later(&at(2)), later(&basic));
        assert_eq!(later(&at(2)), Action::Hit);
        assert_eq!(later(&at(3)), Action::Stand);
        // TT v 6 splits at +4; 10 v T doubles at +4.
        assert_eq!(decide(&at(3), &[10, 10], 6), Action::Stand);
        assert_eq!(decide(&at(4), &[10, 10], 6), Action::Split);
        assert_eq!(decide(&at(4), &[6, 4], 10), Action::Double);
        // 12 v 4 stands at 0 and up, hits below; 13 v 2 hits below -1.
        assert_eq!(decide(&at(0), &[10, 2], 4), Action::Stand);
        assert_eq!(decide(&at(-1), &[10, 2], 4), Action::Hit);
        assert_eq!(decide(&at(-1), &[10, 3], 2), Action::Stand);
        assert_eq!(decide(&at(-2), &[10, 3], 2), Action::Hit);
        // At 0 only the plays that hold at 0 differ from basic.
        assert_eq!(
            at(0).cell(Section::Hard, 15, 10),
            basic.cell(Section::Hard, 15, 10)
        );
        assert_eq!(
            plays.boundaries(),
            vec![-2, -1, 0, 1, 2, 3, 4, 5],
            "every index once"
        );
    }

    #[test]
    fn the_play_furthest_from_basic_holds_and_contradictions_are_refused() {
        let text = format!("{HEADER}\nhard,9,2,,D,>=,1\nhard,9,2,,S,>=,5\n");
        let plays = IndexPlays::parse_csv(&text).unwrap();
        let basic = basic();
        assert_eq!(
            plays.chart_at(&basic, 0).cell(Section::Hard, 9, 2),
            Some(Cell::Hit)
        );
        assert_eq!(
            plays.chart_at(&basic, 2).cell(Section::Hard, 9, 2),
            Some(Cell::DoubleElseHit)
        );
        assert_eq!(
            plays.chart_at(&basic, 5).cell(Section::Hard, 9, 2),
            Some(Cell::Stand)
        );
        let clash = refusal(&format!("{HEADER}\nhard,16,T,,S,>=,0\nhard,16,T,,R,<,3\n"));
        assert!(
            clash.contains("line 2") && clash.contains("line 3") && clash.contains("0 to 2"),
            "{clash}"
        );
        let twice = refusal(&format!("{HEADER}\nhard,16,T,,S,>=,0\nhard,16,T,,R,>=,0\n"));
        assert!(twice.contains("share an index"), "{twice}");
        // Opposite directions that never both hold are fine.
        IndexPlays::parse_csv(&format!("{HEADER}\nhard,16,T,,S,>=,3\nhard,16,T,,R,<,3\n")).unwrap();
    }

    #[test]
    fn double_and_surrender_keep_the_chart_s_fallback() {
        // Soft 19 v 6 stands in basic: doubling there falls back to a stand.
        let text = format!("{HEADER}\nsoft,A8,6,,D,>=,1\nhard,15,T,,R,>=,0\npairs,88,T,,R,>=,5\n");
        let plays = IndexPlays::parse_csv(&text).unwrap();
        let chart = plays.chart_at(&basic(), 5);
        assert_eq!(
            chart.cell(Section::Soft, 19, 6),
            Some(Cell::DoubleElseStand)
        );
        assert_eq!(
            chart.cell(Section::Hard, 15, 10),
            Some(Cell::SurrenderElseHit)
        );
        assert_eq!(
            chart.cell(Section::Pairs, 8, 10),
            Some(Cell::SurrenderElseSplit)
        );
        // Doubles and surrenders leave the multi-card rows alone.
        assert_eq!(chart.cell(Section::MultiCardSoft, 19, 6), Some(Cell::Stand));
    }

    #[test]
    fn the_finder_s_file_reads_with_its_other_columns() {
        let text = "section,row,upcard,basic,deviation,direction,index,crossing,low95,high95,shoes\n\
                    insurance,,A,N,I,>=,3,2.75,2.55,2.95,4728\n\
                    hard,16,T,H,S,>=,0,-0.3,-0.4,-0.2,4728\n";
        let plays = IndexPlays::parse_csv(text).unwrap();
        assert_eq!(plays.deviations().len(), 2);
        // Columns by name, in any order; the table's own record reads back.
        let shuffled = "index,direction,deviation,upcard,row,section\n+3,>=,I,,,insurance\n";
        assert_eq!(
            IndexPlays::parse_csv(shuffled).unwrap().deviations().len(),
            1
        );
        assert_eq!(IndexPlays::parse_csv(&plays.to_csv()).unwrap(), plays);
    }

    #[test]
    fn bad_index_files_get_one_line_naming_the_line_and_column() {
        let line = |row: &str| refusal(&format!("{HEADER}\n{row}\n"));
        assert_eq!(
            line("hard,16,T,,X,>=,0"),
            "line 2, column deviation \"X\": not a deviation; allowed: S, H, D, P, R (I for insurance)"
        );
        assert!(line("hrad,16,T,,S,>=,0").starts_with("line 2, column section \"hrad\""));
        assert!(line("hard,25,T,,S,>=,0").starts_with("line 2, column row \"25\""));
        assert!(line("pairs,89,T,,P,>=,0").starts_with("line 2, column row \"89\""));
        assert!(line("hard,16,1,,S,>=,0").starts_with("line 2, column upcard \"1\""));
        assert!(line("hard,16,T,,S,>,0").starts_with("line 2, column direction \">\""));
        assert!(line("hard,16,T,,S,>=,0.5").starts_with("line 2, column index \"0.5\""));
        assert!(line("hard,16,T,,S,>=,100").starts_with("line 2, column index"));
        assert!(line("hard,16,T,,P,>=,0").contains("a split outside the pairs"));
        assert!(line("hard,16,T,,I,>=,0").contains("not a deviation"));
        assert!(line("insurance,,A,,S,>=,3").contains("insurance's deviation is I"));
        assert!(line("insurance,,T,,I,>=,3").contains("insurance is against an ace"));
        assert!(refusal("").contains("empty"));
        assert!(refusal(&format!("{HEADER}\n")).contains("no index plays"));
        assert!(
            refusal("section,row,upcard,deviation,index\n")
                .contains("without the column direction")
        );
    }

    #[test]
    fn an_index_run_s_plays_are_its_found_indices() {
        use crate::games::blackjack::table::indices::{DecisionIndices, IndexPlay};
        let found = |decision, basic, plays| DecisionIndices {
            decision,
            basic,
            gains: Vec::new(),
            plays,
            trends: Vec::new(),
            n_shoes: 300,
        };
        let play = |deviation, at_or_above, index| IndexPlay {
            deviation,
            at_or_above,
            index,
            crossing: f64::from(index) - 0.5,
            ci95: [f64::from(index) - 0.7, f64::from(index) - 0.3],
        };
        let run = [
            found(
                Decision::INSURANCE,
                None,
                vec![play(Action::Stand, true, 3)],
            ),
            found(
                Decision {
                    class: HandClass::Hard(12),
                    upcard: 4,
                },
                Some(Action::Stand),
                vec![play(Action::Hit, false, 0)],
            ),
            found(
                Decision {
                    class: HandClass::Hard(20),
                    upcard: 6,
                },
                Some(Action::Stand),
                Vec::new(),
            ),
        ];
        let plays = IndexPlays::from_found(&run).unwrap();
        let expected = format!("{HEADER}\ninsurance,,A,,I,>=,3\nhard,12,4,,H,<,0\n");
        assert_eq!(plays.to_csv(), expected);
        assert_eq!(IndexPlays::parse_csv(&expected).unwrap(), plays);
    }

    proptest! {
        /// Any text: a set of plays or one line of refusal, never a panic.
        #[test]
        fn any_text_reads_or_is_refused_in_one_line(
            rows in proptest::collection::vec(
                ("(hard|soft|pairs|insurance|x)", "(16|A7|TT|88|12|)", "(A|T|2|6|1|)",
                 "(S|H|D|P|R|I|Ds)", "(>=|<|=)", "-?[0-9]{1,3}"),
                0..6,
            )
        ) {
            let mut text = format!("{HEADER}\n");
            for (section, row, upcard, deviation, direction, index) in rows {
                text.push_str(&format!("{section},{row},{upcard},,{deviation},{direction},{index}\n"));
            }
            match IndexPlays::parse_csv(&text) {
                Ok(plays) => {
                    prop_assert!(!plays.deviations().is_empty());
                    let again = IndexPlays::parse_csv(&plays.to_csv()).unwrap();
                    prop_assert_eq!(again, plays);
                }
                Err(error) => {
                    prop_assert_eq!(error.exit_code(), 2);
                    prop_assert!(!error.to_string().contains('\n'));
                }
            }
        }
    }
}
