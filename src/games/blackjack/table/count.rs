//! Card-counting systems and the true count (RULES.md section 6): what a
//! card counter sees of the shoe, for the table simulator to report its
//! value per round by true count.
//!
//! A system gives every card value a *tag*; the running count is the sum of
//! the tags of the cards seen since the shuffle, and the true count is the
//! running count per deck still to be dealt ([`true_count`]). Nothing here
//! plays or deals: the simulator adds the tags of the cards it deals.

use crate::error::{Error, Result};
use crate::games::blackjack::{N_VALUES, PER_DECK, parse_value};

/// A card-counting system: a tag for each card value.
///
/// `tags[i]` is what seeing a card of value `i + 1` adds to the running
/// count: index 0 is the ace, 1 the two, ..., 8 the nine and 9 every
/// ten-valued card (10, J, Q, K). A positive tag marks a card whose leaving
/// the shoe helps the player (the small cards), a negative one a card whose
/// leaving hurts (tens and, in most systems, aces).
///
/// A system is *balanced* when the tags of one whole deck sum to zero
/// (4 x (tag of A + tag of 2 + ... + tag of 9) + 16 x tag of ten = 0): the
/// running count then ends every shoe at zero, and dividing it by the decks
/// left gives a true count comparable across depths. An *unbalanced*
/// system (KO: +4 a deck) drifts by design; its counters bet on the running
/// count from a starting offset, and its true count mixes that drift in.
///
/// Guarantee: a value built by [`CountSystem::parse`] has every tag in
/// `-9..=9`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountSystem {
    /// The system's name as [`CountSystem::parse`] takes it (`hi-lo`), or
    /// `custom` for tags given one by one.
    pub name: String,
    /// The tag of each value: index 0 = ace, 1 = two, ..., 9 = ten-valued.
    pub tags: [i8; N_VALUES],
}

/// The largest tag magnitude a system may give: a level-9 system is far
/// beyond any published one (the multi-level ones stop at 3), and the bound
/// keeps running counts of a 64-deck shoe well inside `i32`.
const MAX_TAG: i8 = 9;

/// The named systems and their tags (A, 2, 3, 4, 5, 6, 7, 8, 9, ten).
///
/// Checked against Blackjack Apprenticeship's table of counting systems
/// (<https://www.blackjackapprenticeship.com/resources/card-counting-systems/>,
/// tags for 2..9, T, A) and 21 Sharp's side-by-side table
/// (<https://www.21sharp.online/articles/counting-systems>: Hi-Lo, KO,
/// Hi-Opt I, Omega II, Zen), which agree on every tag below. Halves is left
/// out: its tags are halves, and a tag here is a whole number.
const SYSTEMS: [(&str, [i8; N_VALUES]); 6] = [
    // Hi-Lo (Harvey Dubner): 2-6 +1, 7-9 0, T and A -1.
    ("hi-lo", [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]),
    // Knock-Out (Vancura and Fuchs): Hi-Lo with the 7 counted +1.
    ("ko", [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1]),
    // Hi-Opt I (Humble): 3-6 +1, T -1, the ace and the 2 neutral.
    ("hi-opt-i", [0, 0, 1, 1, 1, 1, 0, 0, 0, -1]),
    // Hi-Opt II: 2, 3, 6, 7 +1; 4, 5 +2; T -2; A, 8, 9 neutral.
    ("hi-opt-ii", [0, 1, 1, 2, 2, 1, 1, 0, 0, -2]),
    // Zen Count (Snyder): 2, 3, 7 +1; 4, 5, 6 +2; T -2; A -1.
    ("zen", [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2]),
    // Omega II (Carlson): 2, 3, 7 +1; 4, 5, 6 +2; 9 -1; T -2; A, 8 neutral.
    ("omega-ii", [0, 1, 1, 2, 2, 2, 1, 0, -1, -2]),
];

/// The names of [`SYSTEMS`], in its order.
static NAMES: [&str; SYSTEMS.len()] = {
    let mut names = [""; SYSTEMS.len()];
    let mut i = 0;
    while i < SYSTEMS.len() {
        names[i] = SYSTEMS[i].0;
        i += 1;
    }
    names
};

/// The value names of the custom forms, in tag order.
const VALUE_LABELS: [&str; N_VALUES] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];

impl CountSystem {
    /// Parses a counting system (errors name `count`):
    ///
    /// - a name, in any case: `hi-lo`, `ko`, `hi-opt-i`, `hi-opt-ii`, `zen`,
    ///   `omega-ii` (see [`CountSystem::names`]);
    /// - ten comma-separated whole numbers, the tags of A, 2, ..., 9, T:
    ///   `-1,1,1,1,1,1,0,0,0,-1`;
    /// - or `VALUE=TAG` pairs, comma-separated, naming every value exactly
    ///   once in any order: `A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1`
    ///   (a value as `--remove` writes it: `A`, `2`..`10`, or `T`, `J`,
    ///   `Q`, `K` for the ten-valued cards).
    ///
    /// The last two are named `custom`. Every tag must be in `-9..=9`;
    /// spaces around items are allowed.
    pub fn parse(text: &str) -> Result<CountSystem> {
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        if let Some((name, tags)) = SYSTEMS.iter().find(|(name, _)| *name == lower) {
            return Ok(CountSystem {
                name: (*name).to_string(),
                tags: *tags,
            });
        }
        let refuse = |why: String| Error::invalid("count", text, why);
        let tags = if trimmed.contains('=') {
            parse_keyed_tags(trimmed).map_err(refuse)?
        } else if trimmed.contains(',') {
            parse_listed_tags(trimmed).map_err(refuse)?
        } else {
            return Err(refuse(format!(
                "must be one of {}, or ten tags for A,2,...,9,T as \
                 -1,1,1,1,1,1,0,0,0,-1 or A=-1,2=1,...,T=-1 (each in -{MAX_TAG}..={MAX_TAG})",
                NAMES.join(", ")
            )));
        };
        Ok(CountSystem {
            name: "custom".to_string(),
            tags,
        })
    }

    /// The names [`CountSystem::parse`] knows, in a fixed order.
    pub fn names() -> &'static [&'static str] {
        &NAMES
    }

    /// The tag of a card of `value` (1 = ace, ..., 10 = ten-valued).
    ///
    /// # Panics
    ///
    /// If `value` is not in `1..=10` (a caller's bug: cards are values).
    #[inline]
    pub fn tag(&self, value: u8) -> i8 {
        self.tags[usize::from(value) - 1]
    }

    /// The sum of the tags over one 52-card deck: 0 for a balanced system,
    /// +4 for KO. A shoe of `d` decks counts `d` times this from the shuffle
    /// to its last card.
    pub fn deck_sum(&self) -> i32 {
        self.tags
            .iter()
            .zip(PER_DECK)
            .map(|(&tag, count)| i32::from(tag) * count as i32)
            .sum()
    }

    /// Whether the system is balanced: one deck's tags sum to zero.
    pub fn is_balanced(&self) -> bool {
        self.deck_sum() == 0
    }

    /// The tags in the keyed form [`CountSystem::parse`] reads back
    /// (`A=-1,2=1,...,T=-1`), for reports that must say what a custom
    /// system counted.
    pub fn tags_text(&self) -> String {
        VALUE_LABELS
            .iter()
            .zip(self.tags)
            .map(|(label, tag)| format!("{label}={tag}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// One tag as written, refused unless a whole number in `-9..=9`; `what`
/// names the value it is the tag of.
fn parse_tag(text: &str, what: &str) -> Result<i8, String> {
    let text = text.trim();
    text.parse::<i8>()
        .ok()
        .filter(|tag| (-MAX_TAG..=MAX_TAG).contains(tag))
        .ok_or_else(|| {
            format!("the tag of {what}, {text:?}, must be a whole number in -{MAX_TAG}..={MAX_TAG}")
        })
}

/// Ten comma-separated tags, for A, 2, ..., 9, T in that order.
fn parse_listed_tags(text: &str) -> Result<[i8; N_VALUES], String> {
    let items: Vec<&str> = text.split(',').collect();
    if items.len() != N_VALUES {
        return Err(format!(
            "{} tags given; a list needs exactly ten, for A,2,3,4,5,6,7,8,9,T",
            items.len()
        ));
    }
    let mut tags = [0; N_VALUES];
    for ((tag, item), label) in tags.iter_mut().zip(items).zip(VALUE_LABELS) {
        *tag = parse_tag(item, label)?;
    }
    Ok(tags)
}

/// `VALUE=TAG` pairs naming every value exactly once.
fn parse_keyed_tags(text: &str) -> Result<[i8; N_VALUES], String> {
    let mut tags: [Option<i8>; N_VALUES] = [None; N_VALUES];
    for item in text.split(',') {
        let Some((key, tag)) = item.split_once('=') else {
            return Err(format!(
                "{:?} is not VALUE=TAG; write every value once, as A=-1,2=1,...,T=-1",
                item.trim()
            ));
        };
        let value = parse_value(key).ok_or_else(|| {
            format!(
                "{:?} is not a card value; values are A, 2..10, or T, J, Q, K for ten",
                key.trim()
            )
        })?;
        let index = usize::from(value) - 1;
        let label = VALUE_LABELS[index];
        if tags[index].is_some() {
            return Err(format!("{label} is given twice; give every value once"));
        }
        tags[index] = Some(parse_tag(tag, label)?);
    }
    let missing: Vec<&str> = VALUE_LABELS
        .iter()
        .zip(tags)
        .filter(|(_, tag)| tag.is_none())
        .map(|(label, _)| *label)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "no tag for {}; give every value A,2,...,9,T once",
            missing.join(", ")
        ));
    }
    Ok(tags.map(|tag| tag.unwrap_or_default()))
}

/// The lowest true count [`true_count_bin`] tells apart: every true count
/// at or below it shares the first bin.
pub const TRUE_COUNT_MIN: i32 = -10;

/// The highest true count [`true_count_bin`] tells apart: every true count
/// at or above it shares the last bin.
pub const TRUE_COUNT_MAX: i32 = 10;

/// The number of true-count bins: one per count from [`TRUE_COUNT_MIN`] to
/// [`TRUE_COUNT_MAX`], the two ends taking everything beyond them.
pub const TRUE_COUNT_BINS: usize = (TRUE_COUNT_MAX - TRUE_COUNT_MIN + 1) as usize;

/// The true count: the running count per deck left to deal, rounded down.
///
/// Convention: decks remaining is exactly `cards_left / 52` (not rounded
/// to the half deck or whole deck a counter estimates at the table), and
/// the quotient `running / (cards_left / 52)` is *floored*, not truncated:
/// `-0.5` is `-1`, so a true count of 0 means a count in `[0, 1)` and the
/// bins are equally wide on both sides of zero. Computed in integers, as
/// `floor(running x 52 / cards_left)`, so exact at every depth.
///
/// Saturates at `i32::MIN` and `i32::MAX`, which no shoe reaches: a running
/// count is at most 9 x 52 x 64 in size.
///
/// # Panics
///
/// If `cards_left` is 0 (a caller's bug: a count is taken before a card is
/// dealt, so some card is left).
#[inline]
pub fn true_count(running: i32, cards_left: u32) -> i32 {
    assert!(cards_left > 0, "true count of an empty shoe");
    let scaled = i64::from(running) * 52;
    let floored = scaled.div_euclid(i64::from(cards_left));
    floored.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// How a true count's quotient is rounded to a whole number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TrueCountRounding {
    /// Down, towards minus infinity: `-0.5` is `-1`, `+2.9` is `+2`
    /// ([`true_count`]'s convention, and the default).
    #[default]
    Floor,
    /// Towards zero, as a counter who drops the fraction does: `-0.5` is
    /// `0`, `-2.9` is `-2`, `+2.9` is `+2`.
    Truncate,
    /// To the nearest whole number, halves away from zero: `+2.5` is `+3`,
    /// `-2.5` is `-3`, `+2.4` is `+2` (symmetric about zero, so a count and
    /// its negative round to opposite numbers).
    Round,
}

impl TrueCountRounding {
    /// The names [`TrueCountRounding::parse`] takes, in a fixed order.
    pub const NAMES: [&'static str; 3] = ["floor", "truncate", "round"];

    const CHOICES: [(&'static str, TrueCountRounding); 3] = [
        ("floor", TrueCountRounding::Floor),
        ("truncate", TrueCountRounding::Truncate),
        ("round", TrueCountRounding::Round),
    ];

    /// `floor`, `truncate` or `round`, in any case (errors name
    /// `true_count`).
    pub fn parse(text: &str) -> Result<TrueCountRounding> {
        parse_choice(text, "true_count", &Self::CHOICES, "")
    }

    /// The name [`TrueCountRounding::parse`] reads back.
    pub fn name(self) -> &'static str {
        name_of_choice(self, &Self::CHOICES)
    }

    /// `numerator / denominator` rounded this way, exactly (in `i64`).
    ///
    /// # Panics
    ///
    /// If `denominator <= 0` (a caller's bug: decks left are positive).
    #[inline]
    fn divide(self, numerator: i64, denominator: i64) -> i64 {
        assert!(denominator > 0, "a true count over no decks");
        match self {
            TrueCountRounding::Floor => numerator.div_euclid(denominator),
            TrueCountRounding::Truncate => numerator / denominator,
            TrueCountRounding::Round => {
                // |n| / d rounded half up is (2|n| + d) div (2d); the sign
                // goes back on after, so halves go away from zero.
                let magnitude = (2 * numerator.abs() + denominator) / (2 * denominator);
                magnitude * numerator.signum()
            }
        }
    }
}

/// `text` (trimmed, in any case) as the value `choices` names it; else an
/// error naming `parameter` that lists the names, then `gloss`.
fn parse_choice<T: Copy>(
    text: &str,
    parameter: &str,
    choices: &[(&'static str, T)],
    gloss: &str,
) -> Result<T> {
    let wanted = text.trim().to_ascii_lowercase();
    choices
        .iter()
        .find(|(name, _)| *name == wanted)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            Error::invalid(
                parameter,
                text,
                format!("must be one of {}{gloss}", names.join(", ")),
            )
        })
}

/// The name `choices` gives `value`.
///
/// # Panics
///
/// If `choices` does not name it (a caller's bug: every value is named).
fn name_of_choice<T: Copy + PartialEq>(value: T, choices: &[(&'static str, T)]) -> &'static str {
    choices
        .iter()
        .find(|(_, choice)| *choice == value)
        .map(|(name, _)| *name)
        .expect("every value has a name")
}

/// How a counter estimates the decks left to deal, the true count's
/// divisor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeckEstimation {
    /// Exactly `cards_left / 52` ([`true_count`]'s convention, the
    /// default): what a computer sees, not a counter at the table.
    #[default]
    Perfect,
    /// To the nearest half deck: `cards_left / 26` rounded to the nearest
    /// whole number of half decks (13 cards past a half deck round up), and
    /// never below one half deck. 100 cards are 4 half decks (2 decks),
    /// 91 cards are 3.5 half decks, rounded up to 4.
    HalfDeck,
    /// To the nearest whole deck: `cards_left / 52` rounded to the nearest
    /// whole number (26 cards past a deck round up), and never below one
    /// deck. 130 cards (2.5 decks) are 3 decks, 129 are 2.
    WholeDeck,
}

impl DeckEstimation {
    /// The names [`DeckEstimation::parse`] takes, in a fixed order.
    pub const NAMES: [&'static str; 3] = ["perfect", "half", "whole"];

    const CHOICES: [(&'static str, DeckEstimation); 3] = [
        ("perfect", DeckEstimation::Perfect),
        ("half", DeckEstimation::HalfDeck),
        ("whole", DeckEstimation::WholeDeck),
    ];

    /// `perfect`, `half` or `whole`, in any case (errors name
    /// `deck_estimation`).
    pub fn parse(text: &str) -> Result<DeckEstimation> {
        parse_choice(
            text,
            "deck_estimation",
            &Self::CHOICES,
            " (decks left exactly, to the nearest half deck, to the nearest deck)",
        )
    }

    /// The name [`DeckEstimation::parse`] reads back.
    pub fn name(self) -> &'static str {
        name_of_choice(self, &Self::CHOICES)
    }

    /// The estimated decks left, in cards (a multiple of 26 or 52 when
    /// rounded; `cards_left` itself when perfect): the true count is the
    /// running count times 52 over this.
    #[inline]
    fn estimated_cards(self, cards_left: u32) -> u32 {
        match self {
            DeckEstimation::Perfect => cards_left,
            DeckEstimation::HalfDeck => 26 * cards_left.saturating_add(13).div_euclid(26).max(1),
            DeckEstimation::WholeDeck => 52 * cards_left.saturating_add(26).div_euclid(52).max(1),
        }
    }
}

/// How the true count is computed from the running count and the cards
/// left: the divisor (decks left, exact or as a counter estimates them)
/// and the rounding of the quotient.
///
/// The default, floor over the exact decks left, is [`true_count`]
/// exactly (the simulator's convention before these methods existed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TrueCountMethod {
    /// How the quotient is rounded.
    pub rounding: TrueCountRounding,
    /// How the decks left are estimated.
    pub decks: DeckEstimation,
}

impl TrueCountMethod {
    /// The true count of `running` with `cards_left` cards to deal:
    /// `running / decks`, decks as [`DeckEstimation`] estimates them,
    /// rounded as [`TrueCountRounding`] says; computed in integers, as
    /// `running x 52 / estimated cards`, so exact at every depth.
    ///
    /// Saturates at `i32::MIN` and `i32::MAX`, which no shoe reaches.
    ///
    /// # Panics
    ///
    /// If `cards_left` is 0 (a caller's bug, as for [`true_count`]).
    #[inline]
    pub fn true_count(&self, running: i32, cards_left: u32) -> i32 {
        assert!(cards_left > 0, "true count of an empty shoe");
        let divisor = i64::from(self.decks.estimated_cards(cards_left));
        let quotient = self.rounding.divide(i64::from(running) * 52, divisor);
        quotient.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The method in words, for reports: `running count over decks left,
    /// floored` (the default), `running count over decks left to the
    /// nearest half deck, truncated`, ...
    pub fn describe(&self) -> String {
        let decks = match self.decks {
            DeckEstimation::Perfect => "decks left",
            DeckEstimation::HalfDeck => "decks left to the nearest half deck",
            DeckEstimation::WholeDeck => "decks left to the nearest deck",
        };
        let rounding = match self.rounding {
            TrueCountRounding::Floor => "floored",
            TrueCountRounding::Truncate => "truncated",
            TrueCountRounding::Round => "rounded, halves away from zero",
        };
        format!("running count over {decks}, {rounding}")
    }
}

/// The bin of a true count: bin 0 holds every count `<= TRUE_COUNT_MIN`,
/// bin `TRUE_COUNT_BINS - 1` every count `>= TRUE_COUNT_MAX`, and the bins
/// between one count each, in increasing order.
#[inline]
pub fn true_count_bin(tc: i32) -> usize {
    (tc.clamp(TRUE_COUNT_MIN, TRUE_COUNT_MAX) - TRUE_COUNT_MIN) as usize
}

/// The label of a bin of [`true_count_bin`]: `<=-10`, `-9`, ..., `0`, `+1`,
/// ..., `+9`, `>=+10`.
///
/// # Panics
///
/// If `bin >= TRUE_COUNT_BINS` (a caller's bug: bins come from
/// [`true_count_bin`]).
pub fn true_count_label(bin: usize) -> String {
    assert!(bin < TRUE_COUNT_BINS, "true-count bin {bin} out of range");
    let tc = bin as i32 + TRUE_COUNT_MIN;
    if tc == TRUE_COUNT_MIN {
        format!("<={tc}")
    } else if tc == TRUE_COUNT_MAX {
        format!(">=+{tc}")
    } else if tc > 0 {
        format!("+{tc}")
    } else {
        tc.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::Ratio;
    use proptest::prelude::*;

    fn system(text: &str) -> CountSystem {
        CountSystem::parse(text).unwrap()
    }

    #[test]
    fn named_systems_carry_their_published_tags() {
        // Each system as the task describes it, written out by card groups
        // (independently of the table in SYSTEMS), value by value.
        let spelled = |groups: &[(&[u8], i8)]| {
            let mut tags = [None; N_VALUES];
            for (values, tag) in groups {
                for &value in *values {
                    assert!(tags[usize::from(value) - 1].replace(*tag).is_none());
                }
            }
            tags.map(Option::unwrap)
        };
        let expected = [
            (
                "hi-lo",
                spelled(&[(&[2, 3, 4, 5, 6], 1), (&[7, 8, 9], 0), (&[10, 1], -1)]),
            ),
            (
                "ko",
                spelled(&[(&[2, 3, 4, 5, 6, 7], 1), (&[8, 9], 0), (&[10, 1], -1)]),
            ),
            (
                "hi-opt-i",
                spelled(&[(&[3, 4, 5, 6], 1), (&[1, 2, 7, 8, 9], 0), (&[10], -1)]),
            ),
            (
                "hi-opt-ii",
                spelled(&[
                    (&[2, 3, 6, 7], 1),
                    (&[4, 5], 2),
                    (&[1, 8, 9], 0),
                    (&[10], -2),
                ]),
            ),
            (
                "zen",
                spelled(&[
                    (&[1], -1),
                    (&[2, 3, 7], 1),
                    (&[4, 5, 6], 2),
                    (&[8, 9], 0),
                    (&[10], -2),
                ]),
            ),
            (
                "omega-ii",
                spelled(&[
                    (&[2, 3, 7], 1),
                    (&[4, 5, 6], 2),
                    (&[9], -1),
                    (&[1, 8], 0),
                    (&[10], -2),
                ]),
            ),
        ];
        assert_eq!(CountSystem::names().len(), expected.len());
        for (name, tags) in expected {
            let parsed = system(name);
            assert_eq!(parsed.name, name);
            assert_eq!(parsed.tags, tags, "{name}");
            assert!(CountSystem::names().contains(&name));
        }
    }

    #[test]
    fn names_are_case_insensitive_and_trimmed() {
        assert_eq!(system(" Hi-Lo "), system("hi-lo"));
        assert_eq!(system("OMEGA-II").name, "omega-ii");
    }

    #[test]
    fn ko_alone_is_unbalanced() {
        for &name in CountSystem::names() {
            let parsed = system(name);
            assert_eq!(parsed.is_balanced(), name != "ko", "{name}");
        }
        // KO's +1 on the 7 adds four to each deck.
        assert_eq!(system("ko").deck_sum(), 4);
        // The sum is over a deck's 52 cards, tens weighing four times.
        let tens_only = system("0,0,0,0,0,0,0,0,0,1");
        assert_eq!(tens_only.deck_sum(), 16);
        let balanced_by_weight = system("A=4,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=-1");
        assert!(balanced_by_weight.is_balanced());
    }

    #[test]
    fn custom_tags_in_either_form() {
        let listed = system("-1, 1,1,1,1,1,0,0,0,-1");
        assert_eq!(listed.name, "custom");
        assert_eq!(listed.tags, system("hi-lo").tags);
        let keyed = system("t=-1,A=-1,2=1,3=+1,4=1,5=1,6=1,7=0,8=0,9=0");
        assert_eq!(keyed, listed);
        // 10, J, Q and K all name the ten-valued card.
        let by_king = system("A=0,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,K=-9");
        assert_eq!(by_king.tag(10), -9);
        assert_eq!(by_king.tag(1), 0);
        let extremes = system("9,-9,0,0,0,0,0,0,0,0");
        assert_eq!((extremes.tag(1), extremes.tag(2)), (9, -9));
    }

    #[test]
    fn refusals_name_the_value_and_what_is_allowed() {
        let refusal = |text: &str| CountSystem::parse(text).unwrap_err().to_string();
        let unknown = refusal("hilo");
        assert!(
            unknown.starts_with("count hilo: must be one of hi-lo, ko,"),
            "{unknown}"
        );
        for name in CountSystem::names() {
            assert!(unknown.contains(name), "{unknown}");
        }
        assert!(refusal("halves").contains("omega-ii"));
        assert!(refusal("").starts_with("count : must be one of"));
        let cases = [
            ("1,1,1", "3 tags given"),
            ("-1,1,1,1,1,1,0,0,0,-1,0", "11 tags given"),
            ("-1,1,1,1,10,1,0,0,0,-1", "the tag of 5, \"10\", must be"),
            ("-1,1,1,1,1,1,0,0,0,x", "the tag of T, \"x\""),
            ("-1,1,1,1,1,1,0,0,0.5,-1", "the tag of 9, \"0.5\""),
            ("-1,1,1,1,1,1,0,0,,-1", "the tag of 9, \"\""),
            ("A=-1,2=1", "no tag for 3, 4, 5, 6, 7, 8, 9, T"),
            ("A=-1,a=1", "A is given twice"),
            ("10=-1,K=-1", "T is given twice"),
            ("A=-1,1=1", "\"1\" is not a card value"),
            ("A=-1,2", "\"2\" is not VALUE=TAG"),
            ("A=-10,2=1", "the tag of A, \"-10\""),
        ];
        for (text, reason) in cases {
            let message = refusal(text);
            assert!(message.starts_with(&format!("count {text}: ")), "{message}");
            assert!(message.contains(reason), "{text}: {message}");
            assert!(!message.contains('\n'));
        }
    }

    #[test]
    fn true_count_floors_the_count_per_deck_left() {
        // Two decks left (104 cards).
        assert_eq!(true_count(5, 104), 2);
        assert_eq!(true_count(-5, 104), -3);
        assert_eq!(true_count(-4, 104), -2);
        assert_eq!(true_count(0, 104), 0);
        // Half a deck left doubles the count.
        assert_eq!(true_count(3, 26), 6);
        assert_eq!(true_count(-1, 26), -2);
        // No rounding of the decks left: 3 per 1.5 decks (78 cards) is 2,
        // per 79 cards just under.
        assert_eq!(true_count(3, 78), 2);
        assert_eq!(true_count(3, 79), 1);
        assert_eq!(true_count(-3, 79), -2);
        assert_eq!(true_count(i32::MAX, 1), i32::MAX);
        assert_eq!(true_count(i32::MIN, 1), i32::MIN);
    }

    #[test]
    #[should_panic(expected = "empty shoe")]
    fn true_count_of_no_cards_is_a_bug() {
        true_count(1, 0);
    }

    #[test]
    fn bins_clamp_at_both_ends_and_label_each_count() {
        assert_eq!(TRUE_COUNT_BINS, 21);
        assert_eq!(true_count_bin(i32::MIN), 0);
        assert_eq!(true_count_bin(-11), 0);
        assert_eq!(true_count_bin(-10), 0);
        assert_eq!(true_count_bin(-9), 1);
        assert_eq!(true_count_bin(0), 10);
        assert_eq!(true_count_bin(9), 19);
        assert_eq!(true_count_bin(10), 20);
        assert_eq!(true_count_bin(i32::MAX), 20);
        let labels: Vec<String> = (0..TRUE_COUNT_BINS).map(true_count_label).collect();
        assert_eq!(labels[0], "<=-10");
        assert_eq!(labels[1], "-9");
        assert_eq!(labels[9], "-1");
        assert_eq!(labels[10], "0");
        assert_eq!(labels[11], "+1");
        assert_eq!(labels[19], "+9");
        assert_eq!(labels[20], ">=+10");
        // Every label names the count its bin holds (the ends, their bound).
        for (bin, label) in labels.iter().enumerate() {
            let number: i32 = label.trim_start_matches(['<', '>', '=']).parse().unwrap();
            assert_eq!(true_count_bin(number), bin, "{label}");
        }
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn a_label_past_the_last_bin_is_a_bug() {
        true_count_label(TRUE_COUNT_BINS);
    }

    #[test]
    fn the_default_method_is_the_floored_count_over_exact_decks() {
        let default = TrueCountMethod::default();
        assert_eq!(default.rounding, TrueCountRounding::Floor);
        assert_eq!(default.decks, DeckEstimation::Perfect);
        // Every running count a hi-lo or Zen count of 8 decks can reach at
        // every depth of the shoe.
        for cards_left in 1..=8 * 52 {
            for running in -2 * 8 * 20..=2 * 8 * 20 {
                assert_eq!(
                    default.true_count(running, cards_left),
                    true_count(running, cards_left),
                    "{running} over {cards_left} cards"
                );
            }
        }
        assert_eq!(default.true_count(i32::MIN, 1), i32::MIN);
        assert_eq!(default.true_count(i32::MAX, 1), i32::MAX);
    }

    #[test]
    fn each_rounding_and_estimate_as_documented() {
        let method = |rounding, decks| TrueCountMethod { rounding, decks };
        use DeckEstimation::{HalfDeck, Perfect, WholeDeck};
        use TrueCountRounding::{Floor, Round, Truncate};
        // -1 over 2 decks is -0.5; -5 over 2 decks -2.5; 5 over 2 decks 2.5.
        let cases = [
            (Floor, -1, -1),
            (Truncate, -1, 0),
            (Round, -1, -1),
            (Floor, -5, -3),
            (Truncate, -5, -2),
            (Round, -5, -3),
            (Round, 5, 3),
            (Round, 4, 2),
            (Truncate, 5, 2),
            (Round, 0, 0),
        ];
        for (rounding, running, expected) in cases {
            assert_eq!(
                method(rounding, Perfect).true_count(running, 104),
                expected,
                "{rounding:?} {running}"
            );
        }
        // Round: 2.4 down, 2.6 up, -2.4 to -2, -2.6 to -3 (running x 52 /
        // 520 cards is running / 10).
        for (running, expected) in [(24, 2), (26, 3), (-24, -2), (-26, -3), (-25, -3)] {
            assert_eq!(method(Round, Perfect).true_count(running, 520), expected);
        }
        // Half decks: 91 cards (1.75 decks, a tie) are 2 decks, 90 cards
        // (1.73) 1.5 decks, 77 cards (1.48) 1.5 decks; 12 cards are still
        // half a deck.
        assert_eq!(HalfDeck.estimated_cards(91), 104);
        assert_eq!(HalfDeck.estimated_cards(90), 78);
        assert_eq!(HalfDeck.estimated_cards(77), 78);
        assert_eq!(HalfDeck.estimated_cards(12), 26);
        assert_eq!(HalfDeck.estimated_cards(1), 26);
        assert_eq!(method(Floor, HalfDeck).true_count(3, 77), 2);
        assert_eq!(method(Floor, HalfDeck).true_count(6, 12), 12);
        // Whole decks: 130 cards (2.5) are 3, 129 are 2; 20 cards are 1.
        assert_eq!(WholeDeck.estimated_cards(130), 156);
        assert_eq!(WholeDeck.estimated_cards(129), 104);
        assert_eq!(WholeDeck.estimated_cards(20), 52);
        assert_eq!(method(Truncate, WholeDeck).true_count(-7, 129), -3);
        assert_eq!(method(Floor, WholeDeck).true_count(-7, 129), -4);
        assert_eq!(method(Round, WholeDeck).true_count(7, 129), 4);
    }

    #[test]
    fn method_names_read_back_and_others_are_refused_in_one_line() {
        for name in TrueCountRounding::NAMES {
            assert_eq!(TrueCountRounding::parse(name).unwrap().name(), name);
        }
        for name in DeckEstimation::NAMES {
            assert_eq!(DeckEstimation::parse(name).unwrap().name(), name);
        }
        assert_eq!(
            TrueCountRounding::parse(" Round ").unwrap(),
            TrueCountRounding::Round
        );
        assert_eq!(
            TrueCountRounding::parse("ceil").unwrap_err().to_string(),
            "true_count ceil: must be one of floor, truncate, round"
        );
        let refusal = DeckEstimation::parse("quarter").unwrap_err().to_string();
        assert!(
            refusal.starts_with("deck_estimation quarter: must be one of perfect, half, whole"),
            "{refusal}"
        );
    }

    fn any_tags() -> impl Strategy<Value = [i8; N_VALUES]> {
        proptest::array::uniform10(-MAX_TAG..=MAX_TAG)
    }

    proptest! {
        /// The integer true count is the floor of the exact quotient.
        #[test]
        fn true_count_is_the_floor_of_the_exact_ratio(
            running in -30_000i32..=30_000,
            cards_left in 1u32..=64 * 52,
        ) {
            let exact = Ratio::new(i64::from(running) * 52, i64::from(cards_left));
            let tc = true_count(running, cards_left);
            prop_assert_eq!(i64::from(tc), exact.floor().to_integer());
            // And as a counter's float arithmetic sees it: within its
            // rounding of the exact value, never truncated towards zero.
            let float = f64::from(running) / (f64::from(cards_left) / 52.0);
            prop_assert!(f64::from(tc) <= float + 1e-9);
            prop_assert!(float < f64::from(tc) + 1.0 + 1e-9);
        }

        /// Every method's true count is its rounding of the exact quotient
        /// over its estimate of the decks left, and the roundings order as
        /// they must (floor <= truncate, round within a half of the
        /// quotient).
        #[test]
        fn methods_round_the_exact_quotient_over_their_decks(
            running in -30_000i32..=30_000,
            cards_left in 1u32..=64 * 52,
            decks in prop::sample::select(DeckEstimation::NAMES.to_vec()),
        ) {
            let decks = DeckEstimation::parse(decks).unwrap();
            let estimated = decks.estimated_cards(cards_left);
            // The estimate is within half its step of the cards left, and
            // never below one step.
            let step = match decks {
                DeckEstimation::Perfect => 1,
                DeckEstimation::HalfDeck => 26,
                DeckEstimation::WholeDeck => 52,
            };
            prop_assert_eq!(estimated % step, 0);
            prop_assert!(estimated >= step);
            prop_assert!(2 * cards_left.abs_diff(estimated) <= step || cards_left < step);
            let exact = Ratio::new(i64::from(running) * 52, i64::from(estimated));
            let at = |rounding| i64::from(TrueCountMethod { rounding, decks }.true_count(running, cards_left));
            let floor = at(TrueCountRounding::Floor);
            let truncate = at(TrueCountRounding::Truncate);
            let round = at(TrueCountRounding::Round);
            prop_assert_eq!(floor, exact.floor().to_integer());
            prop_assert_eq!(truncate, exact.trunc().to_integer());
            // num's round() rounds halves away from zero, as documented.
            prop_assert_eq!(round, exact.round().to_integer());
            prop_assert!(floor <= truncate);
            let error = Ratio::from_integer(round) - exact;
            prop_assert!(Ratio::new(-1, 2) <= error && error <= Ratio::new(1, 2));
        }

        /// Any text is a rounding (or deck estimate) or a one-line refusal
        /// naming the value and the allowed ones.
        #[test]
        fn any_method_text_parses_or_is_refused_in_one_line(text in "[a-zA-Z \\n]{0,12}") {
            match TrueCountRounding::parse(&text) {
                Ok(rounding) => prop_assert_eq!(rounding.name(), text.trim().to_ascii_lowercase()),
                Err(error) => {
                    let message = error.to_string();
                    prop_assert!(!message.contains('\n'));
                    prop_assert!(message.ends_with("floor, truncate, round"));
                }
            }
            match DeckEstimation::parse(&text) {
                Ok(decks) => prop_assert_eq!(decks.name(), text.trim().to_ascii_lowercase()),
                Err(error) => prop_assert!(error.to_string().contains("perfect, half, whole")),
            }
        }

        /// Bins never decrease with the count and always exist.
        #[test]
        fn bins_are_monotone(a in any::<i32>(), b in any::<i32>()) {
            let (low, high) = (a.min(b), a.max(b));
            prop_assert!(true_count_bin(low) <= true_count_bin(high));
            prop_assert!(true_count_bin(high) < TRUE_COUNT_BINS);
        }

        /// Both custom forms read back the tags they write.
        #[test]
        fn custom_tags_round_trip(tags in any_tags()) {
            let custom = CountSystem { name: "custom".to_string(), tags };
            prop_assert_eq!(&CountSystem::parse(&custom.tags_text()).unwrap(), &custom);
            let listed = tags.map(|tag| tag.to_string()).join(",");
            prop_assert_eq!(&CountSystem::parse(&listed).unwrap(), &custom);
            // The balance is the deck's sum, computed card by card.
            let deck_sum: i32 = (1..=10u8)
                .map(|value| i32::from(custom.tag(value)) * if value == 10 { 16 } else { 4 })
                .sum();
            prop_assert_eq!(custom.is_balanced(), deck_sum == 0);
        }

        /// Any text is a system or a one-line refusal, never a panic.
        #[test]
        fn any_text_parses_or_is_refused_in_one_line(text in "[-+=,0-9aAtTkKxhilo \\n]{0,40}") {
            match CountSystem::parse(&text) {
                Ok(parsed) => prop_assert!(parsed.tags.iter().all(|t| t.abs() <= MAX_TAG)),
                Err(error) => prop_assert!(!error.to_string().contains('\n')),
            }
        }
    }
}
