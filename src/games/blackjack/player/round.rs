//! A blackjack round played out card by card (RULES.md section 6), for
//! Monte Carlo: [`RoundSimulation`].
//!
//! One trial is one round off the top of the full shoe (the rules' shoe
//! less `removed`): the upcard and the player's two cards, the peek (under
//! peek, with an ace or a ten up), early or late surrender, the player's
//! naturals, doubles, splits and re-splits up to `max_hands` (aces one card
//! each), and the dealer's hand by [`DealerHand`], the dealer's rules. The
//! player's decisions are the solved table's, [`PlayerTable::decide`]: the
//! composition-dependent player the solver valued, including its `cdz`
//! post-split play and its assumption that a pair card dealt to a split
//! hand is split again whenever the rules allow another hand. So the mean
//! net result per round estimates [`PlayerTable::overall`], exactly in
//! expectation; the unit tests hold the play function to that value
//! exactly, by enumerating every card sequence of small shoes through it,
//! and by Monte Carlo on full shoes.
//!
//! The first decision is played whatever the two cards make: in a small
//! shoe rich in tens the table may double a natural, worth more than its
//! payout; later decisions stop at 21.
//!
//! A round's cards are dealt in the order the play needs them (the hole
//! card at the peek, or when the dealer plays). The shoe is exchangeable,
//! so the order cards are dealt in changes no probability as long as what
//! is done depends only on the cards already seen, which holds here.
//!
//! The result is the round's net in tenths of a unit (a 3:2 natural wins
//! 15, a 6:5 one 12, a surrender loses 5), counted in [`NET_BINS`] bins
//! from -8.0 (four doubled hands lost) to +8.0 units.

use std::fmt;

use super::compositions::{BUST, Compositions};
use super::number::Number;
use super::rules::{
    Action, Hand, HoleCard, MAX_HANDS, PlayerRules, SplitModel, Surrender, natural_hole_card,
    settle,
};
use super::solve::{PlayerTable, Spot};
use crate::distribution::CountDistribution;
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::games::blackjack::{DealerHand, DealerOutcome, DealerRules, N_OUTCOMES, N_VALUES, Shoe};
use crate::rng::{GameRng, bounded, draw};

/// The number of net-result bins: -8.0 to +8.0 units in tenths.
pub const NET_BINS: usize = 161;

/// Tenths of a unit below zero of the first bin (-8.0 units).
const NET_OFFSET: i32 = 80;

/// The net result of a round, in tenths of a unit, that bin `bin` counts.
pub fn net_tenths_of_bin(bin: usize) -> i32 {
    bin as i32 - NET_OFFSET
}

/// The bin of a net result of `tenths` tenths of a unit (-80..=80).
#[inline]
pub fn bin_of_net_tenths(tenths: i32) -> usize {
    debug_assert!((-NET_OFFSET..=NET_OFFSET).contains(&tenths));
    (tenths + NET_OFFSET) as usize
}

/// The label of bin `bin` in distributions: the net in units with one
/// decimal and its sign (`-8.0`, `-0.5`, `0.0`, `+1.5`).
pub fn net_label(bin: usize) -> String {
    label_of_net_tenths(net_tenths_of_bin(bin))
}

/// The label of a net result of `tenths` tenths of a unit, as
/// [`net_label`] writes it.
pub fn label_of_net_tenths(tenths: i32) -> String {
    let sign = match tenths.signum() {
        -1 => "-",
        1 => "+",
        _ => "",
    };
    let magnitude = tenths.unsigned_abs();
    format!("{sign}{}.{}", magnitude / 10, magnitude % 10)
}

/// The key of the round's net distribution.
pub const ROUND_KEY: &str = "round";

/// Counts of a [`RoundSimulation`] run as a distribution over net results
/// (key [`ROUND_KEY`], labels by [`net_label`]).
pub fn net_distribution(counts: Vec<u64>) -> CountDistribution {
    CountDistribution {
        key: ROUND_KEY.to_string(),
        outcomes: (0..NET_BINS).map(net_label).collect(),
        counts,
    }
}

/// The player's decisions, looked up without hashing, for every spot of
/// every hand a shoe can deal: what [`PlayerTable::decide`] answers (the
/// composition-dependent player), or any other decision function (a chart,
/// [`Strategy::from_decisions`]). `None` marks a hand with no decision (not
/// dealable from the table's shoe); reaching one is a bug.
#[derive(Clone, Debug)]
pub(crate) struct Strategy {
    /// [`Spot::Initial`], by `(upcard - 1) * 100 + (first - 1) * 10 +
    /// (second - 1)`, both orders of the two cards.
    initial: Vec<Option<Action>>,
    /// [`Spot::SplitHand`] for two-card compositions, by
    /// [`Strategy::at`]: upcard first, so that one round's lookups stay in
    /// one upcard's few kilobytes.
    split_hand: Vec<Option<Action>>,
    /// [`Spot::Later`], by [`Strategy::at`].
    later: Vec<Option<Action>>,
    /// The decisions of one upcard: one per composition, and the last for
    /// a busted hand (composition number [`Compositions::len`]).
    stride: usize,
}

impl Strategy {
    /// Every decision of `table`.
    pub(crate) fn of<T: Number>(table: &PlayerTable<T>, compositions: &Compositions) -> Strategy {
        Strategy::from_decisions(compositions, |upcard, hand, spot| {
            table.decide(upcard, hand, spot)
        })
    }

    /// Every decision of `decide(upcard, hand, spot)`, for every two-card
    /// hand at [`Spot::Initial`] and every hand of `compositions` at
    /// [`Spot::SplitHand`] (two cards) and [`Spot::Later`].
    pub(crate) fn from_decisions(
        compositions: &Compositions,
        decide: impl Fn(u8, &Hand, Spot) -> Option<Action>,
    ) -> Strategy {
        let mut initial = vec![None; N_VALUES * N_VALUES * N_VALUES];
        for upcard in 1..=N_VALUES as u8 {
            for first in 1..=N_VALUES as u8 {
                for second in 1..=N_VALUES as u8 {
                    initial[initial_index(upcard, first, second)] =
                        decide(upcard, &Hand::of(&[first, second]), Spot::Initial);
                }
            }
        }
        let stride = compositions.len() + 1;
        let mut split_hand = vec![None; stride * N_VALUES];
        let mut later = vec![None; stride * N_VALUES];
        for upcard in 1..=N_VALUES as u8 {
            let bust = (usize::from(upcard) - 1) * stride + compositions.len();
            split_hand[bust] = Some(Action::Stand);
            later[bust] = Some(Action::Stand);
        }
        for (index, hand) in compositions.hands.iter().enumerate() {
            if hand.n_cards() < 2 {
                continue;
            }
            // After the first decision a hand of 21 stands: the table
            // says so, and the round looks it up like any other hand
            // rather than testing the total (a branch saved per card).
            let decide = |upcard, spot| {
                if hand.total() >= 21 {
                    Some(Action::Stand)
                } else {
                    decide(upcard, hand, spot)
                }
            };
            for upcard in 1..=N_VALUES as u8 {
                let at = (usize::from(upcard) - 1) * stride + index;
                if hand.n_cards() == 2 {
                    split_hand[at] = decide(upcard, Spot::SplitHand);
                }
                later[at] = decide(upcard, Spot::Later);
            }
        }
        Strategy {
            initial,
            split_hand,
            later,
            stride,
        }
    }

    /// The index of a composition's decision against an upcard.
    #[inline]
    fn at(&self, composition: u16, upcard: u8) -> usize {
        (usize::from(upcard) - 1) * self.stride + usize::from(composition)
    }

    /// The same action at every spot (for tests of a wrong strategy); a
    /// hand of 21 or a bust stands after its first decision, as in every
    /// strategy ([`Strategy::from_decisions`]).
    #[cfg(test)]
    fn always(action: Action, compositions: &Compositions) -> Strategy {
        Strategy::from_decisions(compositions, |_, _, _| Some(action))
    }
}

#[inline]
fn initial_index(upcard: u8, first: u8, second: u8) -> usize {
    usize::from(upcard - 1) * 100 + usize::from(first - 1) * 10 + usize::from(second - 1)
}

/// Where the play function's cards come from: a shoe shuffled as it goes
/// (Monte Carlo), an infinite deck, a shoe dealt down to a cut card (the
/// table, `crate::games::blackjack::table`), or a script (the exact
/// enumerations). `None` means the source has no more cards; the round
/// then stops with no result.
pub(crate) trait Cards {
    fn next(&mut self) -> Option<u8>;
}

/// A finite shoe as a permutation of its cards, drawn by partial
/// Fisher-Yates from the front: each card uniform among those left.
struct ShoeCards<'a> {
    rng: &'a mut GameRng,
    cards: &'a mut [u8],
    position: usize,
}

impl Cards for ShoeCards<'_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.position == self.cards.len() {
            return None;
        }
        let value = draw(self.rng, self.cards, self.position);
        self.position += 1;
        Some(value)
    }
}

/// An infinite deck: a rank uniform among 13, ten-valued for 10, J, Q, K.
struct InfiniteCards<'a> {
    rng: &'a mut GameRng,
}

impl Cards for InfiniteCards<'_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        Some((bounded(self.rng, 13) as u8 + 1).min(10))
    }
}

/// One of the player's hands in a round.
#[derive(Clone, Copy, Debug)]
struct Seat {
    /// The hand's number in [`Compositions`], or [`RoundPlayer`]'s `bust`
    /// once busted.
    composition: u16,
    /// 1, or 2 doubled.
    stake: u8,
    from_split: bool,
}

impl Seat {
    const EMPTY: Seat = Seat {
        composition: 0,
        stake: 1,
        from_split: false,
    };

    #[inline]
    fn add(&mut self, value: u8, children: &[[u16; N_VALUES]]) {
        self.composition = children[usize::from(self.composition)][usize::from(value - 1)];
    }
}

/// What a round did besides its net result, as bits of [`RoundResult::events`].
pub(crate) mod events {
    /// The player was dealt a natural (a two-card 21, not from a split).
    pub const NATURAL: u8 = 1;
    /// At least one of the player's hands busted.
    pub const PLAYER_BUST: u8 = 1 << 1;
    /// The dealer played out a hand and busted.
    pub const DEALER_BUST: u8 = 1 << 2;
    /// At least one hand was doubled.
    pub const DOUBLED: u8 = 1 << 3;
    /// The first two cards were split.
    pub const SPLIT: u8 = 1 << 4;
    /// The player surrendered (early or late).
    pub const SURRENDERED: u8 = 1 << 5;
    /// Every combination of the bits: `0..COMBINATIONS`.
    pub const COMBINATIONS: usize = 1 << 6;
    /// Each event's bit and its name in reports, in report order.
    pub const NAMED: [(u8, &str); 6] = [
        (NATURAL, "natural"),
        (PLAYER_BUST, "player bust"),
        (DEALER_BUST, "dealer bust"),
        (DOUBLED, "doubled"),
        (SPLIT, "split"),
        (SURRENDERED, "surrendered"),
    ];
}

/// A round's result: its net in tenths of a unit (a 3:2 natural wins 15),
/// the insurance bet's part included, and what happened in it ([`events`]
/// bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RoundResult {
    pub net: i32,
    pub events: u8,
    /// The insurance bet's net in tenths of a unit, part of `net`: 0 when
    /// not taken, [`INSURANCE_WINS`] or [`INSURANCE_LOSES`].
    pub insurance: i8,
}

/// What insurance (half a unit, paid 2 to 1) nets when the hole card makes
/// the dealer's natural, in tenths of a unit.
pub(crate) const INSURANCE_WINS: i8 = 10;

/// What it nets otherwise.
pub(crate) const INSURANCE_LOSES: i8 = -5;

/// The decisions a round is played by, chosen once the player has seen the
/// upcard and their two cards: a strategy, and whether to take insurance
/// against an ace (under peek).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundChoice<'s> {
    pub strategy: &'s Strategy,
    pub insure: bool,
}

/// The round's play function: the rules and the player's decisions.
#[derive(Clone)]
pub(crate) struct RoundPlayer {
    rules: PlayerRules,
    strategy: Strategy,
    /// What [`settle`] pays, looked up instead of branched on: tenths of a
    /// unit a hand of stake 1 nets, by the dealer's outcome (its
    /// `DealerOutcome` number) and the hand's total (0..=21, or
    /// [`BUSTED_TOTAL`] for any bust), not a natural.
    settlement: [[i8; BUSTED_TOTAL + 1]; N_OUTCOMES],
    /// Tenths a player natural nets against each dealer outcome.
    natural: [i8; N_OUTCOMES],
    /// [`PlayerRules::max_hands_for`] each pair value (index value - 1).
    max_hands: [u8; N_VALUES],
    /// The hole card that makes a natural with each upcard (index value -
    /// 1), or [`NO_NATURAL`].
    natural_hole: [u8; N_VALUES],
    /// The dealer's hand, played by table lookups.
    dealer: DealerPlay,
    /// [`Compositions::children`] in 16 bits, with one more row: the
    /// busted hand, number `bust`, whose every child is itself. Half the
    /// memory, for the cache, and no test for a bust as cards are added.
    children: Vec<[u16; N_VALUES]>,
    /// Each composition's total ([`Hand::total`]), and [`BUSTED_TOTAL`]
    /// for `bust`.
    totals: Vec<u8>,
    /// The busted hand's composition number ([`Compositions::len`]).
    bust: u16,
}

/// The total a busted hand is settled under in [`RoundPlayer`]'s table.
const BUSTED_TOTAL: usize = 22;

/// No hole card (under ENHC none is dealt before the player plays).
const NO_HOLE: u8 = 0;

/// An upcard no hole card makes a natural with (never equal to a card or
/// to [`NO_HOLE`]).
const NO_NATURAL: u8 = u8::MAX;

/// [`settle`]'s payoff in tenths of a unit: every payout is a whole number
/// of tenths (denominators 1, 2 and 5).
fn tenths((numerator, denominator): (i64, i64)) -> i8 {
    i8::try_from(numerator * 10 / denominator).expect("a stake-1 payoff is within 1.5 units")
}

impl fmt::Debug for RoundPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RoundPlayer")
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

/// A reached spot with no decision: the table had no values for a hand the
/// shoe dealt, which cannot happen for a table solved for this shoe.
const NO_DECISION: &str = "the solved table decides every hand its shoe can deal";

/// The dealer's play ([`DealerHand`] under the rules' [`DealerRules`]) as
/// an automaton, so that a round follows the dealer's hand by table
/// lookups instead of testing totals: a state per (hard total, aces) a
/// hand can reach, the state each card leads to, and what each state
/// stands on. Built from [`DealerHand`], which stays the one statement of
/// the dealer's rules (its soft 17 included); a unit test plays both on
/// every card sequence.
#[derive(Clone, Debug)]
struct DealerPlay {
    /// After the upcard and the hole card (index `(upcard - 1) * 10 +
    /// hole - 1`): the state, and the outcome (a natural included) or
    /// [`DRAWS`].
    two_cards: [(u8, u8); N_VALUES * N_VALUES],
    /// The state after one more card of each value (index value - 1).
    next: Vec<[u8; N_VALUES]>,
    /// What a hand of three or more cards in each state stands on (its
    /// `DealerOutcome` number), or [`DRAWS`].
    outcome: Vec<u8>,
}

/// A dealer state that draws another card.
const DRAWS: u8 = u8::MAX;

impl DealerPlay {
    fn new(rules: DealerRules) -> DealerPlay {
        let mut states: Vec<DealerHand> = Vec::new();
        let mut number = ahash::AHashMap::new();
        // A state is a hand's hard total and aces: all the rules read
        // besides its number of cards, which matters only for a natural
        // (two cards, kept in `two_cards`).
        let mut state_of = |hand: DealerHand, states: &mut Vec<DealerHand>| -> u8 {
            *number.entry(hand.hard_total_and_aces()).or_insert_with(|| {
                states.push(hand);
                u8::try_from(states.len() - 1).expect("a dealer has fewer than 256 states")
            })
        };
        let outcome = |hand: &DealerHand| {
            if hand.must_draw(rules) {
                DRAWS
            } else {
                hand.outcome(rules) as u8
            }
        };
        let mut two_cards = [(0, 0); N_VALUES * N_VALUES];
        for upcard in 1..=N_VALUES as u8 {
            for hole in 1..=N_VALUES as u8 {
                let mut hand = DealerHand::new(upcard);
                hand.add(hole);
                two_cards[usize::from(upcard - 1) * N_VALUES + usize::from(hole - 1)] =
                    (state_of(hand, &mut states), outcome(&hand));
            }
        }
        // Breadth first from the two-card states: what a state stands on
        // with three or more cards (21 is then no natural), and where each
        // card leads.
        let mut next = Vec::new();
        let mut outcomes = Vec::new();
        let mut at = 0;
        while at < states.len() {
            let hand = states[at];
            let mut row = [at as u8; N_VALUES];
            if hand.must_draw(rules) {
                for value in 1..=N_VALUES as u8 {
                    let mut child = hand;
                    child.add(value);
                    row[usize::from(value - 1)] = state_of(child, &mut states);
                }
            }
            next.push(row);
            outcomes.push(match outcome(&hand) {
                natural if natural == DealerOutcome::Natural as u8 => {
                    DealerOutcome::TwentyOne as u8
                }
                outcome => outcome,
            });
            at += 1;
        }
        DealerPlay {
            two_cards,
            next,
            outcome: outcomes,
        }
    }

    /// The dealer's outcome (its `DealerOutcome` number) with `upcard` and
    /// `hole`, drawing from `cards` as the rules say; `None` if `cards` ran
    /// out.
    #[inline]
    fn play<C: Cards>(&self, upcard: u8, hole: u8, cards: &mut C) -> Option<u8> {
        let (mut state, mut outcome) =
            self.two_cards[usize::from(upcard - 1) * N_VALUES + usize::from(hole - 1)];
        while outcome == DRAWS {
            state = self.next[usize::from(state)][usize::from(cards.next()? - 1)];
            outcome = self.outcome[usize::from(state)];
        }
        Some(outcome)
    }
}

impl RoundPlayer {
    /// The play function of `rules` with `strategy`'s decisions.
    pub(crate) fn new(
        rules: PlayerRules,
        strategy: Strategy,
        compositions: &'static Compositions,
    ) -> RoundPlayer {
        let bust = u16::try_from(compositions.len()).expect("composition numbers fit in 16 bits");
        let mut children: Vec<[u16; N_VALUES]> = compositions
            .children
            .iter()
            .map(|row| row.map(|child| if child == BUST { bust } else { child as u16 }))
            .collect();
        children.push([bust; N_VALUES]);
        let mut totals: Vec<u8> = compositions.hands.iter().map(Hand::total).collect();
        totals.push(BUSTED_TOTAL as u8);
        let payout = rules.blackjack_payout();
        let mut settlement = [[0; BUSTED_TOTAL + 1]; N_OUTCOMES];
        let mut natural = [0; N_OUTCOMES];
        for (number, &outcome) in DealerOutcome::ALL.iter().enumerate() {
            debug_assert_eq!(outcome as usize, number);
            for (total, net) in settlement[number].iter_mut().enumerate() {
                let bust = total == BUSTED_TOTAL;
                *net = tenths(settle(total as u8, 1, false, bust, payout, outcome));
            }
            natural[number] = tenths(settle(21, 1, true, false, payout, outcome));
        }
        RoundPlayer {
            rules,
            strategy,
            settlement,
            natural,
            max_hands: std::array::from_fn(|index| rules.max_hands_for(index as u8 + 1)),
            natural_hole: std::array::from_fn(|index| {
                natural_hole_card(index as u8 + 1).unwrap_or(NO_NATURAL)
            }),
            dealer: DealerPlay::new(rules.dealer_rules()),
            children,
            totals,
            bust,
        }
    }

    /// The rules the rounds are played by.
    pub(crate) fn rules(&self) -> &PlayerRules {
        &self.rules
    }

    /// The strategy the player was made with.
    pub(crate) fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    /// Plays one round with cards from `cards` by the player's own strategy,
    /// never insuring ([`RoundPlayer::play_choosing`]).
    #[inline]
    pub(crate) fn play<C: Cards>(&self, cards: &mut C) -> Option<RoundResult> {
        self.play_choosing(cards, |_, _, _| RoundChoice {
            strategy: &self.strategy,
            insure: false,
        })
    }

    /// Plays one round with cards from `cards` and returns its result, or
    /// `None` if `cards` ran out.
    ///
    /// `choose(upcard, first, second)` gives the decisions of the round once
    /// its first three cards are dealt (what the player has seen): a counter
    /// playing index plays picks them by the true count then. Its strategy
    /// must decide every hand the shoe can deal, as the player's own does.
    /// Insurance is taken, when chosen, against an ace under peek (after an
    /// early surrender, nothing is left to insure).
    ///
    /// Cards are taken in the order of a real table's deal as far as the
    /// count of cards used matters: the upcard and the player's two cards,
    /// then under peek the hole card (dealt face down with the first cards,
    /// so used even when the player surrenders or busts); under ENHC the
    /// dealer's second card comes only when the dealer plays, or shows
    /// whether a late-surrendered hand met a natural.
    #[inline(always)]
    pub(crate) fn play_choosing<'s, C: Cards>(
        &'s self,
        cards: &mut C,
        choose: impl FnOnce(u8, u8, u8) -> RoundChoice<'s>,
    ) -> Option<RoundResult> {
        let rules = &self.rules;
        let children = &self.children[..];
        let bust = self.bust;
        let upcard = cards.next()?;
        let first = cards.next()?;
        let second = cards.next()?;
        let hole = if rules.hole_card == HoleCard::Peek {
            cards.next()?
        } else {
            NO_HOLE
        };
        let RoundChoice { strategy, insure } = choose(upcard, first, second);
        let decision = strategy.initial[initial_index(upcard, first, second)].expect(NO_DECISION);
        let dealt_natural = (first == 1 && second == 10) || (first == 10 && second == 1);
        let mut events = if dealt_natural { events::NATURAL } else { 0 };
        // A natural: two cards making 21, not from a split (stood on: the
        // solver values it at its payout, which nothing beats).
        let player_natural = dealt_natural && decision == Action::Stand;

        // Early surrender comes before the peek.
        if decision == Action::Surrender && rules.surrender == Surrender::Early {
            return Some(RoundResult {
                net: -5,
                events: events | events::SURRENDERED,
                insurance: 0,
            });
        }
        // Insurance is settled at the peek; its net joins every result
        // below.
        let dealer_natural = hole == self.natural_hole[usize::from(upcard - 1)];
        let insurance = match (insure && upcard == 1 && hole != NO_HOLE, dealer_natural) {
            (false, _) => 0,
            (true, true) => INSURANCE_WINS,
            (true, false) => INSURANCE_LOSES,
        };
        let result = |net: i32, events: u8| RoundResult {
            net: net + i32::from(insurance),
            events,
            insurance,
        };
        if dealer_natural {
            // The peek finds the dealer's natural, which ends the round: a
            // player natural pushes, anything else loses the one unit bet.
            let net = if dealt_natural { 0 } else { -10 };
            return Some(result(net, events));
        }
        if decision == Action::Surrender {
            // Late surrender: under peek the natural was ruled out above;
            // under ENHC the dealer's second card comes now, and a natural
            // takes the whole bet (RULES.md section 6).
            let natural_now = hole == NO_HOLE && {
                let second_card = cards.next()?;
                second_card == self.natural_hole[usize::from(upcard - 1)]
            };
            return Some(result(
                if natural_now { -10 } else { -5 },
                events | events::SURRENDERED,
            ));
        }

        let mut seats = [Seat::EMPTY; MAX_HANDS as usize];
        let mut n_seats;
        let pair = first;
        if decision == Action::Split {
            events |= events::SPLIT;
            let split = Seat {
                composition: children[0][usize::from(pair - 1)],
                stake: 1,
                from_split: true,
            };
            seats[0] = split;
            seats[1] = split;
            n_seats = 2;
        } else {
            let mut seat = Seat::EMPTY;
            seat.add(first, children);
            seat.add(second, children);
            seats[0] = seat;
            n_seats = 1;
        }
        let max_hands = usize::from(self.max_hands[usize::from(pair - 1)]);

        let mut current = 0;
        while current < n_seats {
            // The first decision is taken whatever the total (a small shoe
            // may make doubling a natural worth more than its payout);
            // later ones are the strategy's, which stands on 21 and on a
            // bust.
            let mut action = decision;
            if seats[current].from_split {
                // The split hand's second card: a pair card makes a new
                // hand while the rules allow one more, and another card
                // comes.
                loop {
                    let card = cards.next()?;
                    if card == pair && n_seats < max_hands {
                        seats[n_seats] = seats[current];
                        n_seats += 1;
                    } else {
                        seats[current].add(card, children);
                        break;
                    }
                }
                if pair == 1 {
                    // Split aces take one card each.
                    current += 1;
                    continue;
                }
                let at = strategy.at(seats[current].composition, upcard);
                action = strategy.split_hand[at].expect(NO_DECISION);
            }
            let seat = &mut seats[current];
            loop {
                match action {
                    Action::Stand => break,
                    Action::Hit => {
                        seat.add(cards.next()?, children);
                        let at = strategy.at(seat.composition, upcard);
                        action = strategy.later[at].expect(NO_DECISION);
                    }
                    Action::Double => {
                        events |= events::DOUBLED;
                        seat.stake = 2;
                        seat.add(cards.next()?, children);
                        break;
                    }
                    Action::Split | Action::Surrender => {
                        unreachable!("split and surrender are first decisions only")
                    }
                }
            }
            events |= u8::from(seat.composition == bust) * events::PLAYER_BUST;
            current += 1;
        }

        let seats = &seats[..n_seats];
        if seats.iter().all(|seat| seat.composition == bust) {
            // Busted hands lose whatever the dealer holds.
            let staked: i32 = seats.iter().map(|seat| i32::from(seat.stake)).sum();
            return Some(result(-10 * staked, events));
        }
        let hole = if hole == NO_HOLE { cards.next()? } else { hole };
        let outcome = self.dealer.play(upcard, hole, cards)?;
        events |= u8::from(outcome == DealerOutcome::Bust as u8) * events::DEALER_BUST;
        let net = if player_natural {
            // A natural is one unsplit hand at stake 1.
            i32::from(self.natural[usize::from(outcome)])
        } else {
            let row = &self.settlement[usize::from(outcome)];
            seats
                .iter()
                .map(|seat| {
                    let total = self.totals[usize::from(seat.composition)];
                    i32::from(seat.stake) * i32::from(row[usize::from(total)])
                })
                .sum()
        };
        Some(result(net, events))
    }
}

/// Monte-Carlo rounds of blackjack under a solved table's rules and
/// decisions (see the module doc). Each trial is one round off the top of
/// the table's full shoe, counted in the bin of its net result
/// ([`bin_of_net_tenths`]).
///
/// Guarantee: the expected net per round is the table's
/// [`PlayerTable::overall`] (the split model is `cdz`, the one whose
/// post-split play [`PlayerTable::decide`] gives).
#[derive(Clone, Debug)]
pub struct RoundSimulation {
    player: RoundPlayer,
    /// The full shoe's cards, one value each (empty for an infinite deck).
    shoe_cards: Vec<u8>,
    infinite: bool,
}

impl RoundSimulation {
    /// The simulation of `table`'s rules, shoe and decisions.
    ///
    /// Errors (naming the parameter) if the table's split model is not
    /// `cdz`, whose post-split play is the one [`PlayerTable::decide`]
    /// gives, so the rounds would not estimate the table's value; or if
    /// the shoe (less `removed`) is too small for every round to be sure
    /// of its cards.
    pub fn new<T: Number>(table: &PlayerTable<T>) -> Result<RoundSimulation> {
        let params = &table.params;
        params.rules.validate()?;
        if params.split_model != SplitModel::Cdz {
            return Err(Error::invalid(
                "split_model",
                params.split_model.name(),
                "the Monte-Carlo round plays split hands as cdz does (the decisions the solved \
                 table gives), so it estimates only a cdz table's value; solve with cdz",
            ));
        }
        let shoe = params.shoe()?;
        let compositions = Compositions::get();
        RoundSimulation::with_strategy(
            params.rules,
            &shoe,
            Strategy::of(table, compositions),
            compositions,
        )
    }

    fn with_strategy(
        rules: PlayerRules,
        shoe: &Shoe,
        strategy: Strategy,
        compositions: &'static Compositions,
    ) -> Result<RoundSimulation> {
        if !shoe.infinite {
            let needed = most_cards_of_a_round(shoe);
            if shoe.total() < needed {
                return Err(Error::invalid(
                    "removed",
                    format!("{} cards left", shoe.total()),
                    format!(
                        "a round may need up to {needed} cards of this shoe; remove fewer cards"
                    ),
                ));
            }
        }
        Ok(RoundSimulation {
            player: RoundPlayer::new(rules, strategy, compositions),
            shoe_cards: if shoe.infinite {
                Vec::new()
            } else {
                shoe.cards()
            },
            infinite: shoe.infinite,
        })
    }

    /// The rules the rounds are played by.
    pub fn rules(&self) -> &PlayerRules {
        &self.player.rules
    }
}

/// An upper bound on the cards one round takes from `shoe` (finite).
///
/// Every card dealt ends in one hand: at most four of the player's and the
/// dealer's. A hand takes each card but its last while its hard total is
/// at most 20 (the player's; a split hand's second card comes at the pair
/// card's value) or 16 (the dealer's; a soft 17 is a hard 7). So all cards
/// but the (at most five) last ones have values summing to at most 4 * 20 +
/// 16 = 96, and no more of them than the shoe's smallest cards fitting in
/// 96.
pub(crate) fn most_cards_of_a_round(shoe: &Shoe) -> u32 {
    let mut budget = 4 * 20 + 16;
    let mut cards = u32::from(MAX_HANDS) + 1;
    for value in 1..=N_VALUES as u8 {
        let fitting = (budget / u32::from(value)).min(shoe.count(value));
        cards += fitting;
        budget -= fitting * u32::from(value);
    }
    cards
}

impl Simulation for RoundSimulation {
    /// The shoe's cards (finite shoes). Partial Fisher-Yates draws leave it
    /// a permutation of the shoe, and drawing from the front of any
    /// permutation is uniform, so each round starts from the full shoe
    /// without a reset.
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        NET_BINS
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.shoe_cards.clone()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, cards: &mut Vec<u8>, counts: &mut [u64]) {
        let net = if self.infinite {
            self.player.play(&mut InfiniteCards { rng })
        } else {
            self.player.play(&mut ShoeCards {
                rng,
                cards,
                position: 0,
            })
        };
        // `new` made sure the shoe holds every card a round can take.
        let round = net.expect("the shoe holds the most cards a round can take");
        counts[bin_of_net_tenths(round.net)] += 1;
    }
}

/// The mean net result per round of a run, with its spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundSummary {
    /// Rounds played.
    pub n_rounds: u64,
    /// The mean net result per round, in units.
    pub mean: f64,
    /// The sample standard deviation of a round's net result (divisor
    /// `n_rounds - 1`), in units.
    pub standard_deviation: f64,
    /// The standard error of the mean: `standard_deviation /
    /// sqrt(n_rounds)`.
    pub standard_error: f64,
}

impl RoundSummary {
    /// The summary of a run's counts (one per bin, [`NET_BINS`] of them).
    /// The mean is summed exactly in integer tenths before the one
    /// division.
    ///
    /// Errors (naming `counts`) if there are not [`NET_BINS`] counts, they
    /// sum past 2^64 - 1, or they hold fewer than two rounds (no spread).
    pub fn from_counts(counts: &[u64]) -> Result<RoundSummary> {
        if counts.len() != NET_BINS {
            return Err(Error::invalid(
                "counts",
                format!("{} bins", counts.len()),
                format!("a round's net distribution has {NET_BINS} bins (-8.0..=+8.0 units)"),
            ));
        }
        let n_rounds = counts
            .iter()
            .try_fold(0u64, |sum, &count| sum.checked_add(count))
            .ok_or_else(|| {
                Error::invalid(
                    "counts",
                    "their sum",
                    "sum past 2^64 - 1: they cannot be counts of rounds",
                )
            })?;
        if n_rounds < 2 {
            return Err(Error::invalid(
                "counts",
                format!("{n_rounds} rounds"),
                "a mean's standard error needs at least two rounds",
            ));
        }
        // |tenths| <= 80 and the counts sum below 2^64: fits in i128.
        let tenths: i128 = counts
            .iter()
            .enumerate()
            .map(|(bin, &count)| i128::from(net_tenths_of_bin(bin)) * i128::from(count))
            .sum();
        let n = n_rounds as f64;
        let mean = tenths as f64 / 10.0 / n;
        let squares: f64 = counts
            .iter()
            .enumerate()
            .map(|(bin, &count)| {
                let deviation = f64::from(net_tenths_of_bin(bin)) / 10.0 - mean;
                count as f64 * deviation * deviation
            })
            .sum();
        let standard_deviation = (squares / (n - 1.0)).sqrt();
        Ok(RoundSummary {
            n_rounds,
            mean,
            standard_deviation,
            standard_error: standard_deviation / n.sqrt(),
        })
    }

    /// `(mean - exact) / standard_error`: how many standard errors the
    /// mean lies from an exact value (0 when equal; infinite when they
    /// differ and the standard error is 0).
    pub fn z_against(&self, exact: f64) -> f64 {
        let difference = self.mean - exact;
        if difference == 0.0 {
            0.0
        } else if self.standard_error == 0.0 {
            f64::INFINITY.copysign(difference)
        } else {
            difference / self.standard_error
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::{RunPlan, run, run_chunks};
    use crate::games::blackjack::Decks;
    use crate::games::blackjack::Soft17;
    use crate::games::blackjack::player::rules::{BlackjackPays, DoubleOn};
    use crate::games::blackjack::player::solve::{PlayerParams, solve_exact, solve_float};
    use num_bigint::BigInt;
    use num_rational::BigRational;

    /// The dealer's automaton against [`DealerHand`] on every sequence of
    /// cards a dealer can draw, for both soft-17 rules: the same outcome
    /// after the same cards, and no card more.
    #[test]
    fn the_dealer_automaton_plays_as_the_dealers_hand() {
        struct Script<'a>(&'a [u8], usize);
        impl Cards for Script<'_> {
            fn next(&mut self) -> Option<u8> {
                let card = self.0.get(self.1).copied();
                self.1 += 1;
                card
            }
        }
        fn every_sequence(
            automaton: &DealerPlay,
            rules: DealerRules,
            upcard: u8,
            hand: DealerHand,
            drawn: &mut Vec<u8>,
            checked: &mut usize,
        ) {
            if hand.must_draw(rules) {
                for value in 1..=N_VALUES as u8 {
                    let mut next = hand;
                    next.add(value);
                    drawn.push(value);
                    every_sequence(automaton, rules, upcard, next, drawn, checked);
                    drawn.pop();
                }
                return;
            }
            let mut script = Script(&drawn[1..], 0);
            let outcome = automaton.play(upcard, drawn[0], &mut script);
            assert_eq!(
                outcome,
                Some(hand.outcome(rules) as u8),
                "{upcard} {drawn:?}"
            );
            assert_eq!(script.1, drawn.len() - 1, "{upcard} {drawn:?}");
            // One card fewer runs out.
            if drawn.len() > 1 {
                let short = &drawn[1..drawn.len() - 1];
                assert_eq!(
                    automaton.play(upcard, drawn[0], &mut Script(short, 0)),
                    None
                );
            }
            *checked += 1;
        }
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            let rules = DealerRules::new(soft17);
            let automaton = DealerPlay::new(rules);
            let mut checked = 0;
            for upcard in 1..=N_VALUES as u8 {
                let mut drawn = Vec::new();
                every_sequence(
                    &automaton,
                    rules,
                    upcard,
                    DealerHand::new(upcard),
                    &mut drawn,
                    &mut checked,
                );
            }
            assert!(checked > 10_000, "{soft17:?}: {checked} sequences");
        }
    }

    fn params(rules: PlayerRules, removed: &[u8]) -> PlayerParams {
        PlayerParams {
            rules,
            split_model: SplitModel::Cdz,
            removed: removed.to_vec(),
        }
    }

    /// Cards given in order; `None` once they are used up.
    struct Scripted<'a> {
        cards: &'a [u8],
        position: usize,
    }

    impl Cards for Scripted<'_> {
        fn next(&mut self) -> Option<u8> {
            let card = self.cards.get(self.position).copied();
            self.position += 1;
            card
        }
    }

    /// The exact expected net of a round through the play function itself:
    /// every sequence of cards the play asks for, each weighted by its
    /// chance from `shoe` (`prod count_i / (N (N-1) ... (N-k+1))` for `k`
    /// cards). Sums are kept per length `k` in integers, over the common
    /// denominator of that length. Also returns the total probability of
    /// the sequences (which must be 1).
    fn exact_round_value(player: &RoundPlayer, shoe: &Shoe) -> (BigRational, BigRational) {
        struct Walk<'a> {
            player: &'a RoundPlayer,
            prefix: Vec<u8>,
            left: [u32; N_VALUES],
            net: Vec<i128>,
            weight: Vec<i128>,
        }
        impl Walk<'_> {
            fn explore(&mut self, weight: i128) {
                let mut cards = Scripted {
                    cards: &self.prefix,
                    position: 0,
                };
                match self.player.play(&mut cards).map(|round| round.net) {
                    Some(net) => {
                        let k = self.prefix.len();
                        if self.net.len() <= k {
                            self.net.resize(k + 1, 0);
                            self.weight.resize(k + 1, 0);
                        }
                        self.net[k] = self.net[k]
                            .checked_add(weight.checked_mul(i128::from(net)).unwrap())
                            .unwrap();
                        self.weight[k] = self.weight[k].checked_add(weight).unwrap();
                    }
                    None => {
                        assert!(
                            self.left.iter().sum::<u32>() > 0,
                            "the shoe ran out: pick a larger test shoe"
                        );
                        for value in 1..=N_VALUES as u8 {
                            let count = self.left[usize::from(value - 1)];
                            if count == 0 {
                                continue;
                            }
                            self.left[usize::from(value - 1)] -= 1;
                            self.prefix.push(value);
                            self.explore(weight.checked_mul(i128::from(count)).unwrap());
                            self.prefix.pop();
                            self.left[usize::from(value - 1)] += 1;
                        }
                    }
                }
            }
        }
        let mut walk = Walk {
            player,
            prefix: Vec::new(),
            left: shoe.counts,
            net: Vec::new(),
            weight: Vec::new(),
        };
        walk.explore(1);
        let n = BigInt::from(shoe.total());
        let mut value: BigRational = Number::zero();
        let mut probability: BigRational = Number::zero();
        let mut falling = BigInt::from(1);
        for k in 0..walk.net.len() {
            let denominator = &falling * BigInt::from(10);
            value += BigRational::new(BigInt::from(walk.net[k]), denominator);
            probability += BigRational::new(BigInt::from(walk.weight[k]), falling.clone());
            falling *= &n - BigInt::from(k);
        }
        (value, probability)
    }

    /// One deck less every 2..6: aces, 7, 8, 9 and tens (32 cards).
    const HIGH_CARDS: [u8; 20] = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6];

    /// One deck less every 3..7 and 9: aces, 2s, 8s and tens (28 cards),
    /// where hands hit often and every pair re-splits.
    fn aces_twos_eights_tens() -> Vec<u8> {
        (3..=7)
            .chain(9..=9)
            .flat_map(|v| std::iter::repeat_n(v, 4))
            .collect()
    }

    fn one_deck() -> PlayerRules {
        PlayerRules {
            decks: Decks::Finite(1),
            ..PlayerRules::default()
        }
    }

    fn exact_play_equals_the_solver(rules: PlayerRules, removed: &[u8]) {
        let params = params(rules, removed);
        let table = solve_exact(&params, &NoProgress).unwrap();
        let simulation = RoundSimulation::new(&table).unwrap();
        let (value, probability) = exact_round_value(&simulation.player, &params.shoe().unwrap());
        assert_eq!(probability, BigRational::from_integer(1.into()));
        assert_eq!(
            value,
            table.overall,
            "{rules:?}: the play function's exact mean {} against the solver's {}",
            Number::to_f64(&value),
            Number::to_f64(&table.overall)
        );
    }

    #[test]
    fn the_play_function_is_worth_the_solvers_overall_value_exactly() {
        let base = one_deck();
        exact_play_equals_the_solver(base, &HIGH_CARDS);
        exact_play_equals_the_solver(
            PlayerRules {
                hole_card: HoleCard::Enhc,
                soft17: Soft17::Hit,
                blackjack_pays: BlackjackPays::SixToFive,
                surrender: Surrender::Late,
                ..base
            },
            &HIGH_CARDS,
        );
        let removed = aces_twos_eights_tens();
        for rules in [
            base,
            PlayerRules {
                hole_card: HoleCard::Enhc,
                resplit_aces: true,
                ..base
            },
            PlayerRules {
                max_hands: 3,
                resplit_aces: true,
                double_after_split: false,
                surrender: Surrender::Early,
                ..base
            },
            PlayerRules {
                max_hands: 2,
                double: DoubleOn::TenToEleven,
                soft17: Soft17::Hit,
                blackjack_pays: BlackjackPays::EvenMoney,
                ..base
            },
        ] {
            exact_play_equals_the_solver(rules, &removed);
        }
    }

    fn float_table(rules: PlayerRules) -> PlayerTable<f64> {
        solve_float(&params(rules, &[]), &NoProgress).unwrap()
    }

    fn play_script(simulation: &RoundSimulation, cards: &[u8]) -> Option<i32> {
        simulation
            .player
            .play(&mut Scripted { cards, position: 0 })
            .map(|round| round.net)
    }

    #[test]
    fn scripted_rounds_settle_as_the_rules_say() {
        let simulation = RoundSimulation::new(&float_table(PlayerRules::default())).unwrap();
        // Under peek the hole card comes fourth. 8-8 against a 6 splits;
        // the first hand draws an 8 and re-splits, then 3 (8-3 doubles,
        // draws 10: 21), the second hand 2 (8-2 doubles, draws 9: 19), the
        // third 10 (18 stands). The dealer's 6 and 10 in the hole draw a
        // 10 and bust: +2 +2 +1 units.
        assert_eq!(
            play_script(&simulation, &[6, 8, 8, 10, 8, 3, 10, 2, 9, 10, 10]),
            Some(50)
        );
        // A natural against an ace: the peek finds a ten (push) or not
        // (3:2, the dealer's soft 20 notwithstanding).
        assert_eq!(play_script(&simulation, &[1, 10, 1, 10]), Some(0));
        assert_eq!(play_script(&simulation, &[1, 10, 1, 9]), Some(15));
        // The dealer's natural under peek takes only the one unit.
        assert_eq!(play_script(&simulation, &[1, 8, 8, 10]), Some(-10));
        // Late surrender of 10-6 against a 10: under peek half the bet
        // after the hole card (a 9) shows no natural; under ENHC half,
        // unless the dealer's next card makes a natural, which takes all.
        let late = |hole_card| {
            let rules = PlayerRules {
                decks: Decks::Finite(8),
                hole_card,
                surrender: Surrender::Late,
                ..PlayerRules::default()
            };
            RoundSimulation::new(&float_table(rules)).unwrap()
        };
        let (peek, enhc) = (late(HoleCard::Peek), late(HoleCard::Enhc));
        assert_eq!(play_script(&peek, &[10, 10, 6, 9]), Some(-5));
        assert_eq!(play_script(&enhc, &[10, 10, 6, 9]), Some(-5));
        assert_eq!(play_script(&enhc, &[10, 10, 6, 1]), Some(-10));
        // Under ENHC the surrender waits on that card.
        assert_eq!(play_script(&enhc, &[10, 10, 6]), None);
        // A round whose cards run out has no result.
        assert_eq!(play_script(&simulation, &[6, 8, 8, 8, 3]), None);
        // Split aces take one card each: A-A against 6 (a 10 in the hole),
        // then 10 and 9 (21 and 20, no natural), the dealer draws a 5: 21
        // beats 20, ties 21.
        assert_eq!(
            play_script(&simulation, &[6, 1, 1, 10, 10, 9, 5]),
            Some(-10)
        );
    }

    #[test]
    fn the_first_decision_is_played_even_on_a_natural() {
        // In a shoe of aces, 8s, 9s and tens, A-T against an 8 is worth
        // more doubled (a ten is likely, and 21 beats an 8) than paid 3:2.
        let mut removed = HIGH_CARDS.to_vec();
        removed.extend([7, 7, 7, 7]);
        let params = params(one_deck(), &removed);
        let table = solve_exact(&params, &NoProgress).unwrap();
        assert_eq!(
            table.decide(8, &Hand::of(&[1, 10]), Spot::Initial),
            Some(Action::Double)
        );
        let simulation = RoundSimulation::new(&table).unwrap();
        // The dealer's 8 and 9 in the hole; doubled, a ten makes a hard 21
        // at stake 2 against the dealer's 17: +2 units, not a natural's
        // 1.5.
        assert_eq!(play_script(&simulation, &[8, 1, 10, 9, 10]), Some(20));
    }

    /// Monte Carlo against the float table's overall value, |z| < 5.
    fn agrees_with_exact(rules: PlayerRules, rounds: u64, seed: u64) {
        let table = float_table(rules);
        let simulation = RoundSimulation::new(&table).unwrap();
        let counts = run(&simulation, &RunPlan::new(rounds, seed, 0), &NoProgress);
        let summary = RoundSummary::from_counts(&counts).unwrap();
        assert_eq!(summary.n_rounds, rounds);
        let z = summary.z_against(table.overall);
        assert!(
            z.abs() < 5.0,
            "{rules:?}: mean {} against exact {} (se {}, z {z})",
            summary.mean,
            table.overall,
            summary.standard_error
        );
    }

    #[test]
    fn the_mean_per_round_agrees_with_the_exact_overall_value() {
        let base = PlayerRules::default();
        let rule_sets = [
            base,
            PlayerRules {
                decks: Decks::Finite(1),
                ..base
            },
            PlayerRules {
                decks: Decks::Infinite,
                ..base
            },
            PlayerRules {
                soft17: Soft17::Hit,
                hole_card: HoleCard::Enhc,
                ..base
            },
            PlayerRules {
                blackjack_pays: BlackjackPays::SixToFive,
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                surrender: Surrender::Early,
                ..base
            },
            // A late surrender under ENHC loses the whole bet to a natural
            // found at the end (RULES.md section 6).
            PlayerRules {
                decks: Decks::Finite(8),
                hole_card: HoleCard::Enhc,
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                double_after_split: false,
                max_hands: 2,
                ..base
            },
            PlayerRules {
                resplit_aces: true,
                double: DoubleOn::NineToEleven,
                ..base
            },
        ];
        for (seed, rules) in rule_sets.into_iter().enumerate() {
            agrees_with_exact(rules, 2_000_000, 20 + seed as u64);
        }
    }

    #[test]
    fn a_wrong_strategy_is_caught() {
        // Always standing (no double, split or surrender) costs about 16% a
        // round: far more than five standard errors of 10^6 rounds.
        let table = float_table(PlayerRules::default());
        let shoe = table.params.shoe().unwrap();
        let compositions = Compositions::get();
        let standing = RoundSimulation::with_strategy(
            table.params.rules,
            &shoe,
            Strategy::always(Action::Stand, compositions),
            compositions,
        )
        .unwrap();
        let counts = run(&standing, &RunPlan::new(1_000_000, 5, 0), &NoProgress);
        let summary = RoundSummary::from_counts(&counts).unwrap();
        let z = summary.z_against(table.overall);
        assert!(z < -50.0, "always stand: mean {} z {z}", summary.mean);
        // And no round of standing doubles or splits: nothing beyond one
        // unit lost, or a natural's 1.5 won.
        for (bin, &count) in counts.iter().enumerate() {
            let tenths = net_tenths_of_bin(bin);
            if !(-10..=15).contains(&tenths) {
                assert_eq!(count, 0, "{}", net_label(bin));
            }
        }
    }

    #[test]
    fn counts_depend_on_the_seed_not_on_threads_or_shards() {
        let table = float_table(PlayerRules::default());
        let simulation = RoundSimulation::new(&table).unwrap();
        let plan = RunPlan {
            n_trials: 50_000,
            seed: 9,
            stream: 0,
            chunk_size: 4_096,
        };
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run(&simulation, &plan, &NoProgress))
        };
        let one = on(1);
        assert_eq!(one, on(2));
        let n_chunks = plan.n_chunks();
        let mut shards = run_chunks(&simulation, &plan, 0..5, &NoProgress);
        for (total, count) in
            shards
                .iter_mut()
                .zip(run_chunks(&simulation, &plan, 5..n_chunks, &NoProgress))
        {
            *total += count;
        }
        assert_eq!(one, shards);
        let other_seed = run(&simulation, &RunPlan { seed: 10, ..plan }, &NoProgress);
        assert_ne!(one, other_seed);
        assert_eq!(one.iter().sum::<u64>(), plan.n_trials);
    }

    #[test]
    fn the_summary_is_the_mean_and_spread_of_the_counts() {
        // Three rounds lost (-1), one pushed, two naturals (+1.5): mean 0,
        // variance (3 * 1 + 2 * 2.25) / 5 = 1.5, standard error
        // sqrt(1.5 / 6) = 0.5.
        let mut counts = vec![0u64; NET_BINS];
        counts[bin_of_net_tenths(-10)] = 3;
        counts[bin_of_net_tenths(0)] = 1;
        counts[bin_of_net_tenths(15)] = 2;
        let summary = RoundSummary::from_counts(&counts).unwrap();
        assert_eq!(summary.n_rounds, 6);
        assert!(summary.mean.abs() < 1e-15);
        assert!((summary.standard_deviation - 1.5f64.sqrt()).abs() < 1e-12);
        assert!((summary.standard_error - 0.5).abs() < 1e-12);
        assert!((summary.z_against(-0.25) - 0.5).abs() < 1e-12);
        // One more loss of 8 units: mean -8/7.
        counts[0] = 1;
        let summary = RoundSummary::from_counts(&counts).unwrap();
        assert!((summary.mean + 8.0 / 7.0).abs() < 1e-12);
        for bad in [vec![0u64; NET_BINS], vec![1; 3], {
            let mut one = vec![0u64; NET_BINS];
            one[80] = 1;
            one
        }] {
            let message = RoundSummary::from_counts(&bad).unwrap_err().to_string();
            assert!(message.contains("counts"), "{message}");
        }
        let mut overflowing = vec![0u64; NET_BINS];
        overflowing[0] = u64::MAX;
        overflowing[1] = 1;
        assert!(RoundSummary::from_counts(&overflowing).is_err());
    }

    #[test]
    fn bins_cover_minus_to_plus_eight_units() {
        assert_eq!(net_tenths_of_bin(0), -80);
        assert_eq!(net_tenths_of_bin(NET_BINS - 1), 80);
        assert_eq!(bin_of_net_tenths(15), 95);
        assert_eq!(net_label(0), "-8.0");
        assert_eq!(net_label(75), "-0.5");
        assert_eq!(net_label(80), "0.0");
        assert_eq!(net_label(95), "+1.5");
        let distribution = net_distribution(vec![0; NET_BINS]);
        assert_eq!(distribution.key, ROUND_KEY);
        assert_eq!(distribution.outcomes.len(), NET_BINS);
    }

    #[test]
    fn only_cdz_tables_and_shoes_that_last_a_round_are_played() {
        let exact = solve_exact(
            &PlayerParams {
                split_model: SplitModel::Cdp1,
                ..params(one_deck(), &HIGH_CARDS)
            },
            &NoProgress,
        )
        .unwrap();
        let message = RoundSimulation::new(&exact).unwrap_err().to_string();
        assert!(message.contains("split_model"), "{message}");
        // One deck: every card but the last of each of five hands sums to
        // at most 96, which the 25 smallest cards reach (4 each of A..6 sum
        // to 84, one 7 more 91): 30 cards at most.
        assert_eq!(most_cards_of_a_round(&one_deck().shoe()), 30);
        // Aces, 2s and tens only (24 cards): 4 + 8 + 8 tens = 92, so 16 + 5
        // = 21 cards may be needed, and 24 are there.
        let mut removed = aces_twos_eights_tens();
        removed.extend([8, 8, 8, 8]);
        let small = params(one_deck(), &removed);
        assert_eq!(most_cards_of_a_round(&small.shoe().unwrap()), 21);
        let table = solve_float(&small, &NoProgress).unwrap();
        assert!(RoundSimulation::new(&table).is_ok());
        // Four tens fewer (20 cards) is too few.
        removed.extend([10, 10, 10, 10]);
        let smaller = params(one_deck(), &removed);
        let table = solve_float(&smaller, &NoProgress).unwrap();
        let message = RoundSimulation::new(&table).unwrap_err().to_string();
        assert!(message.contains("removed"), "{message}");
    }
}
