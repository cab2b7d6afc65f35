//! The player's rules (RULES.md section 6): the rule set, the player's hand,
//! what may be done with it, and what it is paid.
//!
//! Both engines read the rules from here: the exact solver
//! (`solve.rs`) and the Monte-Carlo round player (`round.rs`). A rule is
//! decided in one function: doubling in [`PlayerRules::may_double`],
//! splitting and re-splitting in [`PlayerRules::max_hands_for`], the
//! payouts in [`PlayerRules::blackjack_payout`] and [`settle`].

use std::fmt;

use crate::error::{Error, Result};
use crate::games::blackjack::{
    DealerOutcome, DealerRules, Decks, N_VALUES, PER_DECK, Shoe, Soft17, value_name,
};

/// Whether the dealer checks for a natural before the player acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HoleCard {
    /// US rules: with an ace or a ten up the dealer peeks; a natural ends the
    /// round at once and the player loses only the original bet.
    Peek,
    /// European no-hole-card: the dealer's natural is found after the player
    /// has played and takes every bet, doubles and splits included.
    Enhc,
}

/// What a player natural pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlackjackPays {
    /// 3:2, the default.
    ThreeToTwo,
    /// 6:5.
    SixToFive,
    /// 1:1, even money.
    EvenMoney,
}

impl BlackjackPays {
    /// The payout per unit bet as a reduced fraction `(numerator,
    /// denominator)`.
    pub fn ratio(self) -> (i64, i64) {
        match self {
            BlackjackPays::ThreeToTwo => (3, 2),
            BlackjackPays::SixToFive => (6, 5),
            BlackjackPays::EvenMoney => (1, 1),
        }
    }

    /// Parses `3:2`, `6:5` or `1:1` (errors name `blackjack_pays`).
    pub fn parse(text: &str) -> Result<BlackjackPays> {
        match text.trim() {
            "3:2" => Ok(BlackjackPays::ThreeToTwo),
            "6:5" => Ok(BlackjackPays::SixToFive),
            "1:1" => Ok(BlackjackPays::EvenMoney),
            _ => Err(Error::invalid(
                "blackjack_pays",
                text,
                "must be 3:2, 6:5 or 1:1",
            )),
        }
    }

    /// The name [`BlackjackPays::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            BlackjackPays::ThreeToTwo => "3:2",
            BlackjackPays::SixToFive => "6:5",
            BlackjackPays::EvenMoney => "1:1",
        }
    }
}

/// Which first two cards may be doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DoubleOn {
    /// Any two cards (the default).
    Any,
    /// Hard 9, 10 and 11 only.
    NineToEleven,
    /// Hard 10 and 11 only.
    TenToEleven,
}

impl DoubleOn {
    /// Parses `any`, `9-11` or `10-11` (errors name `double`).
    pub fn parse(text: &str) -> Result<DoubleOn> {
        match text.trim() {
            "any" => Ok(DoubleOn::Any),
            "9-11" => Ok(DoubleOn::NineToEleven),
            "10-11" => Ok(DoubleOn::TenToEleven),
            _ => Err(Error::invalid("double", text, "must be any, 9-11 or 10-11")),
        }
    }

    /// The name [`DoubleOn::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            DoubleOn::Any => "any",
            DoubleOn::NineToEleven => "9-11",
            DoubleOn::TenToEleven => "10-11",
        }
    }
}

/// Whether and when the player may give up half the bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Surrender {
    /// No surrender (the default).
    None,
    /// Late: after the dealer has checked for a natural.
    Late,
    /// Early: before the dealer checks, against any upcard.
    Early,
}

impl Surrender {
    /// Parses `none`, `late` or `early` (errors name `surrender`).
    pub fn parse(text: &str) -> Result<Surrender> {
        match text.trim() {
            "none" => Ok(Surrender::None),
            "late" => Ok(Surrender::Late),
            "early" => Ok(Surrender::Early),
            _ => Err(Error::invalid(
                "surrender",
                text,
                "must be none, late or early",
            )),
        }
    }

    /// The name [`Surrender::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            Surrender::None => "none",
            Surrender::Late => "late",
            Surrender::Early => "early",
        }
    }
}

/// How split hands are played, and so valued (RULES.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SplitModel {
    /// Each split hand plays as the pre-split optimal strategy plays a hand
    /// of the same cards, blind to the extra pair cards removed.
    #[default]
    Cdz,
    /// The post-split strategy is optimised once, for the shoe with one
    /// extra pair card out, and used for every split hand.
    Cdp1,
    /// The post-split strategy is optimised for each number of pair cards
    /// removed.
    Cdp,
}

impl SplitModel {
    /// Parses `cdz`, `cdp1` or `cdp` (errors name `split_model`).
    pub fn parse(text: &str) -> Result<SplitModel> {
        match text.trim() {
            "cdz" => Ok(SplitModel::Cdz),
            "cdp1" => Ok(SplitModel::Cdp1),
            "cdp" => Ok(SplitModel::Cdp),
            _ => Err(Error::invalid(
                "split_model",
                text,
                "must be cdz, cdp1 or cdp",
            )),
        }
    }

    /// The name [`SplitModel::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            SplitModel::Cdz => "cdz",
            SplitModel::Cdp1 => "cdp1",
            SplitModel::Cdp => "cdp",
        }
    }
}

/// A rule set: every parameter of RULES.md section 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerRules {
    /// The shoe: 1..=64 decks (RULES.md: 1..=8 at a table) or infinite.
    pub decks: Decks,
    /// The dealer's soft-17 rule.
    pub soft17: Soft17,
    /// Peek or no hole card.
    pub hole_card: HoleCard,
    /// What a player natural pays.
    pub blackjack_pays: BlackjackPays,
    /// Which two-card hands may be doubled.
    pub double: DoubleOn,
    /// Whether a split hand may double (on the same totals).
    pub double_after_split: bool,
    /// Hands in all after re-splits: 2 (no re-split), 3 or 4.
    pub max_hands: u8,
    /// Whether split aces may be split again (up to `max_hands`).
    pub resplit_aces: bool,
    /// Surrender.
    pub surrender: Surrender,
}

impl Default for PlayerRules {
    /// RULES.md's defaults: 6 decks, S17, peek, 3:2, double any two, DAS,
    /// re-split to 4 hands, no re-split of aces, no surrender.
    fn default() -> Self {
        PlayerRules {
            decks: Decks::Finite(6),
            soft17: Soft17::Stand,
            hole_card: HoleCard::Peek,
            blackjack_pays: BlackjackPays::ThreeToTwo,
            double: DoubleOn::Any,
            double_after_split: true,
            max_hands: 4,
            resplit_aces: false,
            surrender: Surrender::None,
        }
    }
}

/// The most hands a split may make.
pub const MAX_HANDS: u8 = 4;

impl PlayerRules {
    /// Checks the parameters that the types alone do not: `max_hands` is 2,
    /// 3 or 4, and re-splitting aces needs room for a third hand. Errors
    /// name the parameter (`max_hands`), or both of a pair that cannot go
    /// together (`resplit_aces x max_hands`).
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_HANDS).contains(&self.max_hands) {
            return Err(Error::invalid(
                "max_hands",
                self.max_hands,
                "must be 2, 3 or 4 (hands in all after re-splits)",
            ));
        }
        if self.resplit_aces && self.max_hands == 2 {
            return Err(Error::invalid(
                "resplit_aces x max_hands",
                "yes x 2",
                "re-splitting aces needs room for a third hand: max hands 3 or 4, or no re-split of aces",
            ));
        }
        Ok(())
    }

    /// Parses `max_hands`: 2, 3 or 4 (errors name `max_hands`).
    pub fn parse_max_hands(text: &str) -> Result<u8> {
        match text.trim().parse::<u8>() {
            Ok(n) if (2..=MAX_HANDS).contains(&n) => Ok(n),
            _ => Err(Error::invalid(
                "max_hands",
                text,
                "must be 2, 3 or 4 (hands in all after re-splits)",
            )),
        }
    }

    /// The dealer's rules under this rule set.
    pub fn dealer_rules(&self) -> DealerRules {
        DealerRules::new(self.soft17)
    }

    /// The full shoe, before any card is dealt.
    pub fn shoe(&self) -> Shoe {
        match self.decks {
            Decks::Infinite => Shoe {
                counts: PER_DECK,
                infinite: true,
            },
            Decks::Finite(n) => Shoe {
                counts: PER_DECK.map(|per_deck| per_deck * n),
                infinite: false,
            },
        }
    }

    /// Whether `hand` may be doubled: two cards, on the totals the rule
    /// allows (`9-11` and `10-11` are hard totals), and after a split only
    /// with double-after-split.
    #[inline]
    pub fn may_double(&self, hand: &Hand, after_split: bool) -> bool {
        if hand.n_cards() != 2 || (after_split && !self.double_after_split) {
            return false;
        }
        let hard = !hand.is_soft();
        match self.double {
            DoubleOn::Any => true,
            DoubleOn::NineToEleven => hard && (9..=11).contains(&hand.total()),
            DoubleOn::TenToEleven => hard && (10..=11).contains(&hand.total()),
        }
    }

    /// The most hands a pair of `value` may be split into: `max_hands`,
    /// except aces without re-splitting (2).
    #[inline]
    pub fn max_hands_for(&self, value: u8) -> u8 {
        if value == 1 && !self.resplit_aces {
            2
        } else {
            self.max_hands
        }
    }

    /// What a natural pays, as `(numerator, denominator)` per unit bet.
    pub fn blackjack_payout(&self) -> (i64, i64) {
        self.blackjack_pays.ratio()
    }

    /// The parameters by name and value, in RULES.md's order, as reports
    /// record them.
    pub fn named(&self) -> Vec<(&'static str, String)> {
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        vec![
            ("decks", self.decks.to_string()),
            (
                "soft17",
                match self.soft17 {
                    Soft17::Stand => "stand",
                    Soft17::Hit => "hit",
                }
                .to_string(),
            ),
            (
                "hole_card",
                match self.hole_card {
                    HoleCard::Peek => "peek",
                    HoleCard::Enhc => "enhc",
                }
                .to_string(),
            ),
            ("blackjack_pays", self.blackjack_pays.name().to_string()),
            ("double", self.double.name().to_string()),
            ("das", yes_no(self.double_after_split)),
            ("max_hands", self.max_hands.to_string()),
            ("resplit_aces", yes_no(self.resplit_aces)),
            ("surrender", self.surrender.name().to_string()),
        ]
    }
}

/// A player's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Take no more cards.
    Stand,
    /// Take a card.
    Hit,
    /// Double the bet and take exactly one card.
    Double,
    /// Split a pair into two hands.
    Split,
    /// Give up half the bet.
    Surrender,
}

/// Every action, in the order ties are broken (the first wins).
pub const ACTIONS: [Action; 5] = [
    Action::Stand,
    Action::Hit,
    Action::Double,
    Action::Split,
    Action::Surrender,
];

impl Action {
    /// The action's name in reports: `stand`, `hit`, `double`, `split`,
    /// `surrender`.
    pub fn name(self) -> &'static str {
        match self {
            Action::Stand => "stand",
            Action::Hit => "hit",
            Action::Double => "double",
            Action::Split => "split",
            Action::Surrender => "surrender",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's hand: how many cards of each value it holds. Order never
/// matters to the rules, so this is the hand's whole state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    counts: [u8; N_VALUES],
    n_cards: u8,
    hard_total: u8,
}

impl Hand {
    /// An empty hand.
    pub const fn empty() -> Hand {
        Hand {
            counts: [0; N_VALUES],
            n_cards: 0,
            hard_total: 0,
        }
    }

    /// A hand of the given values (1..=10).
    pub fn of(values: &[u8]) -> Hand {
        let mut hand = Hand::empty();
        for &value in values {
            hand.add(value);
        }
        hand
    }

    /// Takes one card of `value` (1..=10).
    #[inline]
    pub fn add(&mut self, value: u8) {
        self.counts[usize::from(value - 1)] += 1;
        self.n_cards += 1;
        self.hard_total += value;
    }

    /// The hand with one more card of `value`.
    #[inline]
    pub fn with(mut self, value: u8) -> Hand {
        self.add(value);
        self
    }

    /// Cards of `value` in the hand.
    #[inline]
    pub fn count(&self, value: u8) -> u8 {
        self.counts[usize::from(value - 1)]
    }

    /// Cards of each value, indexed by value - 1.
    #[inline]
    pub fn counts(&self) -> &[u8; N_VALUES] {
        &self.counts
    }

    /// Number of cards.
    #[inline]
    pub fn n_cards(&self) -> u8 {
        self.n_cards
    }

    /// The total with every ace counted 1.
    #[inline]
    pub fn hard_total(&self) -> u8 {
        self.hard_total
    }

    /// The total: one ace counts 11 whenever that does not bust.
    #[inline]
    pub fn total(&self) -> u8 {
        if self.is_soft() {
            self.hard_total + 10
        } else {
            self.hard_total
        }
    }

    /// Whether an ace counts 11.
    #[inline]
    pub fn is_soft(&self) -> bool {
        self.counts[0] > 0 && self.hard_total <= 11
    }

    /// Whether the total is over 21.
    #[inline]
    pub fn is_bust(&self) -> bool {
        self.hard_total > 21
    }

    /// Whether these are two cards making 21. (Whether that is a natural also
    /// depends on the hand not coming from a split; see [`settle`].)
    #[inline]
    pub fn is_two_card_21(&self) -> bool {
        self.n_cards == 2 && self.total() == 21
    }

    /// The two values of a two-card hand, lower first (ace lowest), as the
    /// reports name hands (`A7`, `6T`).
    pub fn pair_values(&self) -> Option<(u8, u8)> {
        if self.n_cards != 2 {
            return None;
        }
        let mut values =
            (1..=N_VALUES as u8).flat_map(|v| std::iter::repeat_n(v, usize::from(self.count(v))));
        Some((values.next()?, values.next()?))
    }
}

/// The name of a value in hand and upcard names: `A`, `2`..`9`, `T`.
pub fn value_letter(value: u8) -> &'static str {
    match value {
        10 => "T",
        _ => value_name(value),
    }
}

/// A two-card hand's name: its values lower first, `A` lowest, `T` for any
/// ten-valued card (`AA`, `A7`, `6T`, `TT`).
pub fn hand_name(first: u8, second: u8) -> String {
    let (low, high) = (first.min(second), first.max(second));
    format!("{}{}", value_letter(low), value_letter(high))
}

/// Parses a two-card hand such as `A7`, `T6`, `10 6`, `KQ` into its values,
/// lower first (errors name `hand`).
pub fn parse_hand(text: &str) -> Result<(u8, u8)> {
    let invalid = || {
        Error::invalid(
            "hand",
            text,
            "must be two card values such as A7, 6T or 88 (A, 2..9, T, J, Q, K or 10)",
        )
    };
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let upper = compact.to_ascii_uppercase();
    let mut values = Vec::new();
    let mut rest = upper.as_str();
    while !rest.is_empty() {
        let (token, tail) = if let Some(tail) = rest.strip_prefix("10") {
            ("10", tail)
        } else {
            let cut = rest.chars().next().map_or(0, char::len_utf8);
            rest.split_at(cut)
        };
        let value = match token {
            "10" | "T" | "J" | "Q" | "K" => 10,
            "A" => 1,
            digit => match digit.parse::<u8>() {
                Ok(v) if (2..=9).contains(&v) => v,
                _ => return Err(invalid()),
            },
        };
        values.push(value);
        rest = tail;
    }
    match values[..] {
        [a, b] => Ok((a.min(b), a.max(b))),
        _ => Err(invalid()),
    }
}

/// Parses an upcard: `A`, `2`..`9`, `T`, `J`, `Q`, `K` or `10` (errors name
/// `upcard`).
pub fn parse_upcard(text: &str) -> Result<u8> {
    match text.trim().to_ascii_uppercase().as_str() {
        "A" => Ok(1),
        "T" | "J" | "Q" | "K" | "10" => Ok(10),
        digit => match digit.parse::<u8>() {
            Ok(v) if (2..=9).contains(&v) => Ok(v),
            _ => Err(Error::invalid(
                "upcard",
                text,
                "must be A, 2..9, T, J, Q, K or 10",
            )),
        },
    }
}

/// The player's net result on one finished hand, in units of the hand's
/// original bet, against the dealer's outcome, for a hand that neither
/// busted nor surrendered: `stake` is 1, or 2 doubled; `natural` is a
/// two-card 21 not from a split; `bust` the player went over 21.
///
/// Returns `(numerator, denominator)`. A natural is paid `payout` unless the
/// dealer also has one (push). A dealer natural beats every other hand
/// (under peek the round never reaches this point with one; under ENHC it
/// takes every bet). A busted hand loses its stake whatever the dealer
/// holds.
#[inline]
pub fn settle(
    total: u8,
    stake: i64,
    natural: bool,
    bust: bool,
    payout: (i64, i64),
    dealer: DealerOutcome,
) -> (i64, i64) {
    if bust {
        return (-stake, 1);
    }
    if natural {
        return match dealer {
            DealerOutcome::Natural => (0, 1),
            _ => (payout.0 * stake, payout.1),
        };
    }
    let dealer_total = match dealer {
        DealerOutcome::Natural => return (-stake, 1),
        DealerOutcome::Bust => return (stake, 1),
        DealerOutcome::Seventeen => 17,
        DealerOutcome::Eighteen => 18,
        DealerOutcome::Nineteen => 19,
        DealerOutcome::Twenty => 20,
        DealerOutcome::TwentyOne => 21,
    };
    match total.cmp(&dealer_total) {
        std::cmp::Ordering::Greater => (stake, 1),
        std::cmp::Ordering::Equal => (0, 1),
        std::cmp::Ordering::Less => (-stake, 1),
    }
}

/// The value that gives the dealer a natural with `upcard` (a ten under an
/// ace, an ace under a ten), if any.
#[inline]
pub fn natural_hole_card(upcard: u8) -> Option<u8> {
    match upcard {
        1 => Some(10),
        10 => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_total_with_one_soft_ace() {
        assert_eq!(Hand::of(&[1, 6]).total(), 17);
        assert!(Hand::of(&[1, 6]).is_soft());
        assert_eq!(Hand::of(&[1, 1]).total(), 12);
        assert_eq!(Hand::of(&[1, 6, 9]).total(), 16);
        assert!(!Hand::of(&[1, 6, 9]).is_soft());
        assert!(Hand::of(&[10, 6, 9]).is_bust());
        assert!(Hand::of(&[1, 10]).is_two_card_21());
        assert_eq!(Hand::of(&[10, 1]).pair_values(), Some((1, 10)));
    }

    #[test]
    fn doubling_follows_the_rule_and_das() {
        let mut rules = PlayerRules::default();
        assert!(rules.may_double(&Hand::of(&[1, 7]), false));
        assert!(!rules.may_double(&Hand::of(&[2, 3, 4]), false));
        rules.double = DoubleOn::NineToEleven;
        assert!(rules.may_double(&Hand::of(&[4, 5]), false));
        assert!(
            !rules.may_double(&Hand::of(&[1, 8]), false),
            "soft 19 is not hard 9"
        );
        assert!(!rules.may_double(&Hand::of(&[4, 4]), false));
        rules.double = DoubleOn::TenToEleven;
        assert!(!rules.may_double(&Hand::of(&[4, 5]), false));
        assert!(rules.may_double(&Hand::of(&[5, 6]), true));
        rules.double_after_split = false;
        assert!(!rules.may_double(&Hand::of(&[5, 6]), true));
    }

    #[test]
    fn settling_pays_naturals_and_lets_dealer_naturals_take_everything() {
        let pays = (3, 2);
        assert_eq!(
            settle(21, 1, true, false, pays, DealerOutcome::Twenty),
            (3, 2)
        );
        assert_eq!(
            settle(21, 1, true, false, pays, DealerOutcome::Natural),
            (0, 1)
        );
        assert_eq!(
            settle(21, 2, false, false, pays, DealerOutcome::Natural),
            (-2, 1)
        );
        assert_eq!(
            settle(12, 2, false, false, pays, DealerOutcome::Bust),
            (2, 1)
        );
        assert_eq!(
            settle(25, 1, false, true, pays, DealerOutcome::Bust),
            (-1, 1)
        );
        assert_eq!(
            settle(18, 1, false, false, pays, DealerOutcome::Eighteen),
            (0, 1)
        );
        assert_eq!(
            settle(17, 1, false, false, pays, DealerOutcome::Nineteen),
            (-1, 1)
        );
    }

    #[test]
    fn parsers_name_the_value_and_what_is_allowed() {
        assert_eq!(parse_hand("A7").unwrap(), (1, 7));
        assert_eq!(parse_hand("T6").unwrap(), (6, 10));
        assert_eq!(parse_hand("10 6").unwrap(), (6, 10));
        assert_eq!(parse_hand("kq").unwrap(), (10, 10));
        for bad in ["AX", "A", "A77", "", "1A", "11"] {
            let message = parse_hand(bad).unwrap_err().to_string();
            assert!(message.contains("hand"), "{bad}: {message}");
        }
        assert_eq!(parse_upcard("t").unwrap(), 10);
        assert!(
            parse_upcard("1")
                .unwrap_err()
                .to_string()
                .contains("upcard 1")
        );
        assert!(BlackjackPays::parse("2:1").is_err());
        assert!(DoubleOn::parse("8-11").is_err());
        assert!(PlayerRules::parse_max_hands("5").is_err());
        let rules = PlayerRules {
            max_hands: 2,
            resplit_aces: true,
            ..PlayerRules::default()
        };
        assert!(
            rules
                .validate()
                .unwrap_err()
                .to_string()
                .contains("resplit_aces")
        );
    }
}
