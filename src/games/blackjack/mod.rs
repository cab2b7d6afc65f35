//! Blackjack dealer outcomes (RULES.md section 5).
//!
//! The dealer's rules live in one place, [`DealerHand`]: [`DealerHand::add`]
//! takes a card, [`DealerHand::must_draw`] decides whether to draw again
//! (the soft-17 rule is there), and [`DealerHand::outcome`] names the result.
//! The Monte-Carlo runner plays hands through [`play_with`]; the exact
//! enumerator (`crate::games::blackjack::dealer`) branches on every card through the
//! same three methods. So the two engines cannot disagree about the rules.
//!
//! Suits never matter, so cards here are blackjack *values*: 1 (ace) to 10
//! (ten, jack, queen, king).

pub mod dealer;
pub mod player;
pub mod table;

use std::fmt;
use std::ops::Range;

use crate::cards::{Card, parse_rank};
use crate::distribution::CountDistribution;
use crate::engine::montecarlo::{self, RunPlan};
use crate::engine::{Progress, Simulation};
use crate::error::{Error, Result};
use crate::rng::{GameRng, bounded, draw};

/// Number of distinct card values: ace (1), 2..9, and ten-valued (10).
pub const N_VALUES: usize = 10;

/// Cards of each value in one 52-card deck, indexed by value - 1.
pub const PER_DECK: [u32; N_VALUES] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16];

/// The largest finite number of decks accepted.
pub const MAX_DECKS: u32 = 64;

/// The upcards in table order (as the published tables list them).
pub const UPCARDS: [u8; N_VALUES] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1];

/// The blackjack value of a card: its rank, with J, Q, K counting 10.
#[inline]
pub fn card_value(card: Card) -> u8 {
    card.rank().min(10)
}

/// The name of a value in tables and keys: `A`, `2`..`10`.
pub fn value_name(value: u8) -> &'static str {
    const NAMES: [&str; 11] = ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
    NAMES.get(usize::from(value)).copied().unwrap_or("?")
}

/// Parses one card value as `--remove` and published tables write it:
/// `A`, `2`..`10`, or `T`, `J`, `Q`, `K` for ten-valued cards
/// (case-insensitive). Numerals beyond 10 are refused: `11` is not a card.
pub fn parse_value(text: &str) -> Option<u8> {
    let text = text.trim();
    let is_numeral = text.chars().all(|c| c.is_ascii_digit());
    match parse_rank(text) {
        Some(rank) if is_numeral && !(2..=10).contains(&rank) => None,
        Some(rank) => Some(rank.min(10)),
        None => None,
    }
}

/// How many decks make the shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decks {
    /// `n` 52-card decks, 1..=64.
    Finite(u32),
    /// An infinite deck: every draw is independent, with the proportions of
    /// one deck (4/52 for each value, 16/52 for ten-valued cards).
    Infinite,
}

impl Decks {
    /// Parses a number of decks: `1`..=`64` or `inf` (errors name `decks`).
    pub fn parse(text: &str) -> Result<Decks> {
        let text = text.trim();
        let invalid =
            || Error::invalid("decks", text, format!("must be 1..={MAX_DECKS} or \"inf\""));
        if text.eq_ignore_ascii_case("inf") || text.eq_ignore_ascii_case("infinite") {
            return Ok(Decks::Infinite);
        }
        match text.parse::<u32>() {
            Ok(n) if (1..=MAX_DECKS).contains(&n) => Ok(Decks::Finite(n)),
            _ => Err(invalid()),
        }
    }
}

impl fmt::Display for Decks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decks::Finite(n) => write!(f, "{n}"),
            Decks::Infinite => write!(f, "inf"),
        }
    }
}

/// What the dealer does on a soft 17.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Soft17 {
    /// S17: stand on every 17 (the default).
    Stand,
    /// H17: hit a soft 17.
    Hit,
}

/// Everything that determines the dealer-outcome table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealerParams {
    /// The shoe: how many decks.
    pub decks: Decks,
    /// The soft-17 rule.
    pub soft17: Soft17,
    /// How totals are scored (correct, or a published simulation's error).
    pub scoring: Scoring,
    /// Report probabilities conditional on the dealer not holding a natural
    /// (the dealer peeked and play went on), instead of unconditional ones.
    pub peek: bool,
    /// Values (1..=10) taken out of the shoe besides the upcard, e.g. the
    /// player's cards. Order does not matter.
    pub removed: Vec<u8>,
}

impl Default for DealerParams {
    /// Two decks, S17, no peek, nothing removed: the quiz's table.
    fn default() -> Self {
        DealerParams {
            decks: Decks::Finite(2),
            soft17: Soft17::Stand,
            scoring: Scoring::Correct,
            peek: false,
            removed: Vec::new(),
        }
    }
}

impl DealerParams {
    /// The rules the dealer plays by.
    pub fn rules(&self) -> DealerRules {
        DealerRules {
            soft17: self.soft17,
            scoring: self.scoring,
        }
    }

    /// Parses a list of removed cards such as `"10 10 6"` or `"A,K"` into
    /// values (errors name `removed`).
    pub fn parse_removed(text: &str) -> Result<Vec<u8>> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|token| !token.is_empty())
            .map(|token| {
                parse_value(token).ok_or_else(|| {
                    Error::invalid("removed", token, "each card must be A, 2..10, T, J, Q or K")
                })
            })
            .collect()
    }

    /// The shoe before the upcard is dealt: the decks minus `removed`.
    ///
    /// Errors name the value when more cards of it are removed than the
    /// shoe holds, or when cards are removed from an infinite deck (which
    /// would change nothing, so it is almost certainly a mistake).
    pub fn shoe(&self) -> Result<Shoe> {
        match self.decks {
            Decks::Infinite => {
                if let Some(&value) = self.removed.first() {
                    return Err(Error::invalid(
                        "removed",
                        value_name(value),
                        "an infinite deck has no cards to remove; use a finite number of decks",
                    ));
                }
                Ok(Shoe {
                    counts: PER_DECK,
                    infinite: true,
                })
            }
            Decks::Finite(decks) => {
                let mut counts = PER_DECK.map(|per_deck| per_deck * decks);
                for &value in &self.removed {
                    let count = &mut counts[usize::from(value - 1)];
                    if *count == 0 {
                        let asked = self.removed.iter().filter(|&&v| v == value).count();
                        return Err(Error::invalid(
                            "removed",
                            self.removed_text(),
                            format!(
                                "removes {asked} cards of value {}, but {decks} deck(s) hold only {}",
                                value_name(value),
                                PER_DECK[usize::from(value - 1)] * decks
                            ),
                        ));
                    }
                    *count -= 1;
                }
                Ok(Shoe {
                    counts,
                    infinite: false,
                })
            }
        }
    }

    /// The removed cards as `--remove` would take them.
    pub fn removed_text(&self) -> String {
        let names: Vec<&str> = self.removed.iter().map(|&v| value_name(v)).collect();
        names.join(" ")
    }
}

/// The composition of a shoe by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shoe {
    /// Cards of each value, indexed by value - 1. For an infinite shoe these
    /// are the relative weights of one deck.
    pub counts: [u32; N_VALUES],
    /// Whether draws are with replacement (an infinite deck).
    pub infinite: bool,
}

impl Shoe {
    /// Number of cards (for an infinite shoe, the weight total, 52).
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Cards of `value` in the shoe.
    pub fn count(&self, value: u8) -> u32 {
        self.counts[usize::from(value - 1)]
    }

    /// The shoe with one card of `value` taken out (an infinite shoe is
    /// unchanged). Errors if none is left: the upcard cannot be dealt.
    pub fn without(&self, value: u8) -> Result<Shoe> {
        if self.infinite {
            return Ok(*self);
        }
        let mut shoe = *self;
        let count = &mut shoe.counts[usize::from(value - 1)];
        if *count == 0 {
            return Err(Error::invalid(
                "removed",
                value_name(value),
                format!(
                    "leaves no card of value {} in the shoe, so upcard {} cannot be dealt",
                    value_name(value),
                    value_name(value)
                ),
            ));
        }
        *count -= 1;
        Ok(shoe)
    }

    /// The shoe's cards, one value per card, in value order (finite shoes).
    pub fn cards(&self) -> Vec<u8> {
        (1..=N_VALUES as u8)
            .flat_map(|value| std::iter::repeat_n(value, self.count(value) as usize))
            .collect()
    }
}

/// The seven dealer outcomes, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DealerOutcome {
    /// Over 21.
    Bust = 0,
    /// Stood on 17.
    Seventeen = 1,
    /// Stood on 18.
    Eighteen = 2,
    /// Stood on 19.
    Nineteen = 3,
    /// Stood on 20.
    Twenty = 4,
    /// 21 with three or more cards.
    TwentyOne = 5,
    /// Upcard and hole card make 21.
    Natural = 6,
}

/// Number of dealer outcomes.
pub const N_OUTCOMES: usize = 7;

/// Outcome labels as RULES.md and the JSON contract name them.
pub const OUTCOME_LABELS: [&str; N_OUTCOMES] = ["bust", "17", "18", "19", "20", "21", "natural"];

impl DealerOutcome {
    /// Every outcome, by its bin index.
    pub const ALL: [DealerOutcome; N_OUTCOMES] = [
        DealerOutcome::Bust,
        DealerOutcome::Seventeen,
        DealerOutcome::Eighteen,
        DealerOutcome::Nineteen,
        DealerOutcome::Twenty,
        DealerOutcome::TwentyOne,
        DealerOutcome::Natural,
    ];

    /// The bin index of this outcome (its position in [`OUTCOME_LABELS`]).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a hand's total is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The rules: one ace counts 11 whenever that does not bust (the
    /// default).
    Correct,
    /// The error the quiz write-up found in a published simulation: the
    /// cards are sorted with aces (valued 11) last, summed in that order, and
    /// an ace counts 1 only if 11 would take the running sum past 21. So
    /// ten, ace, ace scores 10 + 11 + 1 = 22 (a bust) instead of 12.
    /// Modelled to show what that error does to the published table.
    SortedFold,
}

impl Scoring {
    /// Parses a scoring: `correct` or `sorted-fold` (errors name `scoring`).
    pub fn parse(text: &str) -> Result<Scoring> {
        match text.trim() {
            "correct" => Ok(Scoring::Correct),
            "sorted-fold" => Ok(Scoring::SortedFold),
            _ => Err(Error::invalid(
                "scoring",
                text,
                "must be correct or sorted-fold",
            )),
        }
    }

    /// The name [`Scoring::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Correct => "correct",
            Scoring::SortedFold => "sorted-fold",
        }
    }
}

/// The rules a dealer plays by: everything [`DealerHand`] needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DealerRules {
    /// Stand or hit on soft 17.
    pub soft17: Soft17,
    /// How totals are scored.
    pub scoring: Scoring,
}

impl DealerRules {
    /// Correct scoring with the given soft-17 rule.
    pub fn new(soft17: Soft17) -> DealerRules {
        DealerRules {
            soft17,
            scoring: Scoring::Correct,
        }
    }
}

/// The dealer's hand so far, as the rules see it: the hard total (aces as
/// 1), how many aces, and how many cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DealerHand {
    hard_total: u8,
    aces: u8,
    n_cards: u8,
}

impl DealerHand {
    /// A hand holding only the upcard.
    #[inline]
    pub fn new(upcard: u8) -> DealerHand {
        let mut hand = DealerHand {
            hard_total: 0,
            aces: 0,
            n_cards: 0,
        };
        hand.add(upcard);
        hand
    }

    /// Takes one card of `value` (1..=10).
    #[inline]
    pub fn add(&mut self, value: u8) {
        self.hard_total += value;
        self.aces += u8::from(value == 1);
        self.n_cards += 1;
    }

    /// The hard total (aces counted 1) and the number of aces: everything
    /// the rules read but the number of cards, which matters only for a
    /// natural.
    pub fn hard_total_and_aces(&self) -> (u8, u8) {
        (self.hard_total, self.aces)
    }

    /// The hand's total under `scoring`.
    #[inline]
    pub fn total(&self, scoring: Scoring) -> u8 {
        let ace_counts_eleven = self.aces > 0
            && match scoring {
                // One ace counts 11 whenever that does not bust; two aces
                // can never both count 11.
                Scoring::Correct => self.hard_total <= 11,
                // The sorted fold reaches the first ace with the other
                // cards' sum and counts it 11 if that sum is at most 10,
                // whatever the aces after it then do.
                Scoring::SortedFold => self.hard_total - self.aces <= 10,
            };
        if ace_counts_eleven {
            self.hard_total + 10
        } else {
            self.hard_total
        }
    }

    /// Whether an ace counts 11 in the total.
    #[inline]
    pub fn is_soft(&self, scoring: Scoring) -> bool {
        self.total(scoring) != self.hard_total
    }

    /// Whether the dealer draws another card: below 17 always, and on a
    /// soft 17 under H17. The dealer's soft 17 is decided here.
    #[inline]
    pub fn must_draw(&self, rules: DealerRules) -> bool {
        let total = self.total(rules.scoring);
        total < 17 || (total == 17 && rules.soft17 == Soft17::Hit && self.is_soft(rules.scoring))
    }

    /// The outcome of a finished hand (one for which `must_draw` is false).
    #[inline]
    pub fn outcome(&self, rules: DealerRules) -> DealerOutcome {
        match self.total(rules.scoring) {
            21 if self.n_cards == 2 => DealerOutcome::Natural,
            17 => DealerOutcome::Seventeen,
            18 => DealerOutcome::Eighteen,
            19 => DealerOutcome::Nineteen,
            20 => DealerOutcome::Twenty,
            21 => DealerOutcome::TwentyOne,
            _ => DealerOutcome::Bust,
        }
    }
}

/// Plays one dealer hand: the upcard, then cards from `next_value` (hole
/// card first) until the rules say stand. Returns the outcome.
///
/// This is the play function the Monte-Carlo runner uses; `next_value` is
/// called only for cards the dealer actually takes.
#[inline]
pub fn play_with(
    rules: DealerRules,
    upcard: u8,
    mut next_value: impl FnMut() -> u8,
) -> DealerOutcome {
    let mut hand = DealerHand::new(upcard);
    while hand.must_draw(rules) {
        hand.add(next_value());
    }
    hand.outcome(rules)
}

/// Plays one dealer hand from a dealt order: `dealt[0]` is the upcard,
/// `dealt[1]` the hole card, the rest the hits in order. Returns the outcome
/// and the number of cards used, or `None` if the cards ran out first.
pub fn play(rules: DealerRules, dealt: &[Card]) -> Option<(DealerOutcome, usize)> {
    let (&upcard, rest) = dealt.split_first()?;
    let mut cards = rest.iter();
    let mut ran_out = false;
    let outcome = play_with(rules, card_value(upcard), || match cards.next() {
        Some(&card) => card_value(card),
        None => {
            // Feeding tens ends the hand within two cards; the result is
            // discarded anyway.
            ran_out = true;
            10
        }
    });
    let used = dealt.len() - cards.len();
    (!ran_out).then_some((outcome, used))
}

/// Monte-Carlo dealer hands for one upcard: every hand is dealt from a
/// freshly shuffled shoe (the shoe minus the upcard), drawing only the cards
/// the dealer takes.
///
/// With `peek`, a hand that turns out to be a natural is not counted and is
/// dealt again, so the counts sample the distribution conditional on no
/// natural, as the exact engine's peek does.
#[derive(Clone, Debug)]
pub struct DealerSimulation {
    rules: DealerRules,
    peek: bool,
    upcard: u8,
    shoe: Shoe,
}

/// Card values by rank for an infinite deck: draw a rank uniformly, read
/// its value.
const VALUE_OF_RANK: [u8; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10];

impl DealerSimulation {
    /// A simulation of `upcard` under `params`. Errors if the shoe cannot
    /// deal the upcard, or if (with peek) every hand would be a natural.
    pub fn new(params: &DealerParams, upcard: u8) -> Result<DealerSimulation> {
        let shoe = params.shoe()?.without(upcard)?;
        let only = |value: u8| shoe.count(value) == shoe.total();
        let natural_is_certain =
            !shoe.infinite && ((upcard == 1 && only(10)) || (upcard == 10 && only(1)));
        if params.peek && natural_is_certain {
            return Err(Error::invalid(
                "peek",
                format!("upcard {}", value_name(upcard)),
                "the dealer always has a natural in this shoe, so there is nothing to condition on",
            ));
        }
        Ok(DealerSimulation {
            rules: params.rules(),
            peek: params.peek,
            upcard,
            shoe,
        })
    }

    /// Plays one hand (a natural included, whatever `peek` says).
    #[inline]
    fn hand(&self, rng: &mut GameRng, cards: &mut [u8]) -> DealerOutcome {
        if self.shoe.infinite {
            play_with(self.rules, self.upcard, || {
                VALUE_OF_RANK[bounded(rng, 13) as usize]
            })
        } else {
            let mut position = 0;
            play_with(self.rules, self.upcard, || {
                let value = draw(rng, cards, position);
                position += 1;
                value
            })
        }
    }
}

impl Simulation for DealerSimulation {
    /// The shoe's cards (finite shoes). Partial Fisher-Yates draws leave it
    /// a permutation of the shoe, and drawing from any permutation is
    /// uniform, so it is never reset between hands.
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        N_OUTCOMES
    }

    fn new_scratch(&self) -> Vec<u8> {
        if self.shoe.infinite {
            Vec::new()
        } else {
            self.shoe.cards()
        }
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, cards: &mut Vec<u8>, counts: &mut [u64]) {
        loop {
            let outcome = self.hand(rng, cards);
            if !(self.peek && outcome == DealerOutcome::Natural) {
                counts[outcome.index()] += 1;
                return;
            }
        }
    }
}

/// Monte-Carlo counts for every upcard, `n_trials` hands each, in table
/// order (2..10, A), keyed like the exact distributions.
///
/// Guarantee: the counts depend only on `params`, `n_trials` and `seed`
/// (upcard `v` uses stream `v` of the seed), not on the thread count.
pub fn dealer_monte_carlo(
    params: &DealerParams,
    n_trials: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Result<Vec<CountDistribution>> {
    let n_chunks = RunPlan::new(n_trials, seed, 0).n_chunks();
    dealer_monte_carlo_chunks(params, n_trials, seed, 0..n_chunks, progress)
}

/// [`dealer_monte_carlo`]'s counts of only the chunks
/// `chunks` of each upcard's run (all of `0..n_chunks` for the whole run,
/// a shard's range for a part).
///
/// Guarantee: the counts depend only on `params`, `n_trials`, `seed` and
/// `chunks` (upcard `v` uses stream `v` of the seed), not on the thread
/// count; disjoint ranges covering every chunk add up to the whole run.
pub fn dealer_monte_carlo_chunks(
    params: &DealerParams,
    n_trials: u64,
    seed: u64,
    chunks: Range<u64>,
    progress: &dyn Progress,
) -> Result<Vec<CountDistribution>> {
    let simulations = UPCARDS
        .iter()
        .map(|&upcard| DealerSimulation::new(params, upcard))
        .collect::<Result<Vec<_>>>()?;
    Ok(simulations
        .iter()
        .map(|simulation| {
            let plan = RunPlan::new(n_trials, seed, u64::from(simulation.upcard));
            CountDistribution {
                key: upcard_key(simulation.upcard),
                outcomes: outcome_labels(),
                counts: montecarlo::run_chunks(simulation, &plan, chunks.clone(), progress),
            }
        })
        .collect())
}

/// The distributions of a tally that holds every upcard's histogram in
/// turn (in the order of [`UPCARDS`], each [`N_OUTCOMES`] long), keyed
/// like the exact distributions.
pub fn upcard_distributions(tally: &[u64]) -> Vec<CountDistribution> {
    UPCARDS
        .iter()
        .zip(tally.chunks(N_OUTCOMES))
        .map(|(&upcard, counts)| CountDistribution {
            key: upcard_key(upcard),
            outcomes: outcome_labels(),
            counts: counts.to_vec(),
        })
        .collect()
}

/// The distribution key of an upcard: `upcard=2` .. `upcard=10`, `upcard=A`.
pub fn upcard_key(upcard: u8) -> String {
    format!("upcard={}", value_name(upcard))
}

/// The outcome labels as owned strings, for distributions.
pub fn outcome_labels() -> Vec<String> {
    OUTCOME_LABELS
        .iter()
        .map(|label| label.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;

    fn outcome_of(rules: DealerRules, cards: &str) -> Option<(DealerOutcome, usize)> {
        let dealt: Vec<Card> = cards
            .split_whitespace()
            .map(|c| parse_card(c).unwrap())
            .collect();
        play(rules, &dealt)
    }

    #[test]
    fn plays_hands_by_the_rules() {
        use DealerOutcome::*;
        use Soft17::*;
        let check = |soft17, cards: &str, outcome, used| {
            let rules = DealerRules::new(soft17);
            assert_eq!(outcome_of(rules, cards), Some((outcome, used)), "{cards}");
        };
        check(Stand, "AS KH 5C", Natural, 2);
        check(Stand, "KH AS", Natural, 2);
        check(Stand, "10S 7H 9C", Seventeen, 2);
        check(Stand, "6S AH 5C", Seventeen, 2); // soft 17 stands under S17
        check(Hit, "6S AH 4C", TwentyOne, 3); // and hits under H17: soft 17 + 4 = soft 21
        check(Stand, "2S 10H 10C", Bust, 3);
        check(Stand, "AS AH 10C 9D", TwentyOne, 4); // A A 10 = hard 12, + 9 = 21
        check(Stand, "5S 5H AC", TwentyOne, 3); // 10 + an ace counting 11
        check(Stand, "5S 6H AC 5D", Seventeen, 4); // 11 + ace: 22 busts, so the ace is 1
        check(Stand, "AS 6H", Seventeen, 2);
        check(Hit, "AS 6H 10C", Seventeen, 3); // soft 17 hits; A+6+10 is a hard 17, which stands
    }

    #[test]
    fn running_out_of_cards_is_reported() {
        let rules = DealerRules::new(Soft17::Stand);
        assert_eq!(outcome_of(rules, "2S 3H"), None);
        assert_eq!(outcome_of(rules, ""), None);
    }

    #[test]
    fn sorted_fold_scoring_busts_two_aces_over_ten() {
        use DealerOutcome::*;
        let check = |cards: &str, correct, sorted_fold| {
            let rules = |scoring| DealerRules {
                soft17: Soft17::Stand,
                scoring,
            };
            let outcome = |scoring| outcome_of(rules(scoring), cards).map(|(o, _)| o);
            assert_eq!(outcome(Scoring::Correct), Some(correct), "{cards}");
            assert_eq!(outcome(Scoring::SortedFold), Some(sorted_fold), "{cards}");
        };
        // Aces with other cards summing to 10: hard 12 (a 7 then makes
        // 19), but the fold says 11 + 10 + 1 = 22.
        check("AS AH 4C 6D 7S", Nineteen, Bust);
        check("AS AH 10C 7D", Nineteen, Bust);
        // Where the fold agrees with the rules.
        check("AS KH", Natural, Natural);
        check("AS AH 5C", Seventeen, Seventeen);
        check("6S 5H AC AD 4C", Seventeen, Seventeen);
        check("AS AH 9C", TwentyOne, TwentyOne);
    }

    #[test]
    fn parses_values_and_refuses_non_cards() {
        assert_eq!(parse_value("A"), Some(1));
        assert_eq!(parse_value("10"), Some(10));
        assert_eq!(parse_value("k"), Some(10));
        assert_eq!(parse_value("T"), Some(10));
        for bad in ["11", "1", "0", "x", "", "13"] {
            assert_eq!(parse_value(bad), None, "{bad}");
        }
    }

    #[test]
    fn shoe_refuses_impossible_removals() {
        let params = DealerParams {
            decks: Decks::Finite(1),
            removed: DealerParams::parse_removed("A A A A A").unwrap(),
            ..DealerParams::default()
        };
        let message = params.shoe().unwrap_err().to_string();
        assert!(message.contains("removes 5 cards of value A"), "{message}");
        let shoe = DealerParams::default().shoe().unwrap();
        assert_eq!(shoe.total(), 104);
        assert_eq!(shoe.count(10), 32);
    }
}
