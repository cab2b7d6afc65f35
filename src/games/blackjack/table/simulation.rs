//! Rounds at the table by Monte Carlo: [`TableSimulation`], one trial per
//! shoe, and what its counts say, [`TableSummary`].
//!
//! A trial deals one shoe: rounds one after another through the round's
//! play function (`RoundPlayer::play`, the one `blackjack player compare`
//! plays off the top) from a [`TableShoe`], until [`Dealing`] says to
//! shuffle. The shoe is the unit of the run, so its counts depend only on
//! the seed and the number of shoes (and the chunking), never on threads or
//! shards. Each round is counted in the tally (see [`TallyLayout`]): its
//! net result, what happened in it, and with a counting system its net
//! result under the true count it was dealt at; each shoe adds its number
//! of rounds, and the sums of squares and products of its rounds and net
//! that give the standard error of the mean per round by shoe.

use super::betting::{BetRamp, BettingPlan, Seat, Wonging};
use super::chart_strategy::ChartStrategy;
use super::count::{TRUE_COUNT_BINS, TrueCountMethod, true_count_bin, true_count_label};
use super::index_plays::IndexPlays;
use super::shoe::{Dealing, TableShoe};
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::games::blackjack::player::compositions::Compositions;
use crate::games::blackjack::player::number::Number;
use crate::games::blackjack::player::round::{
    INSURANCE_LOSES, INSURANCE_WINS, NET_BINS, RoundChoice, RoundPlayer, Strategy, events,
    label_of_net_tenths, most_cards_of_a_round, net_tenths_of_bin,
};
use crate::games::blackjack::player::{HoleCard, PlayerRules, PlayerTable, SplitModel};
use crate::games::blackjack::{N_VALUES, Shoe};
use crate::rng::{GameRng, stream_rng};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Where each count of a [`TableSimulation`]'s tally is. The tally is one
/// `Vec<u64>` (the runner's), in this order:
///
/// - [`TallyLayout::net_bins`] bins: rounds by net result (tenths of a
///   unit, -8..=+8, or -8.5..=+8 when the player may insure: a lost
///   insurance bet on top of four doubled hands lost), insurance included.
/// - `events::COMBINATIONS` bins: rounds by the set of events in them.
/// - 1: shoes whose last round ran out of cards and went on from the
///   shuffled discards.
/// - 4 sums over shoes, of `net^2` (net in tenths), `rounds^2`, and
///   `rounds * net` split into its positive and negative parts: with the
///   bins above they give the variance of the mean per round by shoe.
/// - `most_rounds + 1` bins: shoes by their number of rounds (each trial
///   counted once: the distribution `merge` checks).
/// - with a count, `TRUE_COUNT_BINS * net_bins` bins: rounds by the true
///   count they were dealt at, then by net result.
/// - with a bet ramp of `betting_rows` rows, `betting_rows * net_bins`
///   bins: rounds *played* (bet at least a unit) by the ramp's row their
///   bet came from, then by net result (per unit bet); then 7 sums over
///   shoes: of `money^2` (money a shoe's sum of bet x net, in tenths of a
///   unit), of `played^2` (rounds played in the shoe), and of `played x
///   money` split into its positive and negative parts, each sum but
///   `played^2` held in two counts (the low 32 bits and the rest of each
///   shoe's term: see [`add_wide`]) so that no sum overflows 64 bits
///   before 2^32 shoes. With the bins above they give the standard error
///   of the win rate per round played, by shoe.
/// - when the player may insure, 2 counts: rounds insured, and of them
///   those the insurance won.
///
/// Without insurance the layout is the same as before index plays came to
/// the table, so the counts (and checksums) of every earlier run stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyLayout {
    /// The most rounds a shoe can deal.
    pub most_rounds: usize,
    /// Whether rounds are counted by true count.
    pub counting: bool,
    /// The bet ramp's rows (0: flat betting, no betting counts).
    pub betting_rows: usize,
    /// Whether the player may take insurance (index plays with an
    /// insurance index): wider net bins, and the insurance counts.
    pub insurance: bool,
}

/// Net bins with insurance: -8.5..=+8.0 units, in tenths.
const INSURED_NET_BINS: usize = NET_BINS + (-(INSURANCE_LOSES as i32)) as usize;

/// Adds `term` to the wide sum held in `counts[at]` (the low 32 bits of
/// each term) and `counts[at + 1]` (the rest): each count grows by less
/// than 2^32 a term, so neither overflows before 2^32 terms, and
/// [`wide_sum`] gives the exact total.
#[inline]
fn add_wide(counts: &mut [u64], at: usize, term: u64) {
    counts[at] += term & 0xFFFF_FFFF;
    counts[at + 1] += term >> 32;
}

/// The exact total of a wide sum kept by [`add_wide`].
fn wide_sum(tally: &[u64], at: usize) -> u128 {
    u128::from(tally[at]) + (u128::from(tally[at + 1]) << 32)
}

impl TallyLayout {
    const NET: usize = 0;

    /// Bins of net results: [`NET_BINS`], or with insurance 5 more below.
    pub fn net_bins(&self) -> usize {
        if self.insurance {
            INSURED_NET_BINS
        } else {
            NET_BINS
        }
    }

    /// The net result of the first bin, in tenths of a unit.
    pub fn lowest_net_tenths(&self) -> i32 {
        net_tenths_of_bin(0) - (self.net_bins() - NET_BINS) as i32
    }

    fn events(&self) -> usize {
        Self::NET + self.net_bins()
    }

    fn reshuffled(&self) -> usize {
        self.events() + events::COMBINATIONS
    }

    fn net_squares(&self) -> usize {
        self.reshuffled() + 1
    }

    fn rounds_squares(&self) -> usize {
        self.net_squares() + 1
    }

    fn products_positive(&self) -> usize {
        self.rounds_squares() + 1
    }

    fn products_negative(&self) -> usize {
        self.products_positive() + 1
    }

    fn rounds_per_shoe_at(&self) -> usize {
        self.products_negative() + 1
    }

    fn by_true_count(&self) -> usize {
        self.rounds_per_shoe_at() + self.most_rounds + 1
    }

    fn by_bet(&self) -> usize {
        self.by_true_count()
            + if self.counting {
                TRUE_COUNT_BINS * self.net_bins()
            } else {
                0
            }
    }

    /// Where the betting sums start (see the type's doc): money squared
    /// (wide), played squared, products positive (wide), negative (wide).
    fn betting_sums(&self) -> usize {
        self.by_bet() + self.betting_rows * self.net_bins()
    }

    /// Where the insurance counts are (rounds insured, insurance won).
    fn insurance_counts(&self) -> usize {
        self.betting_sums()
            + if self.betting_rows > 0 {
                Self::BETTING_SUMS
            } else {
                0
            }
    }

    const MONEY_SQUARES: usize = 0;
    const PLAYED_SQUARES: usize = 2;
    const MONEY_PRODUCTS_POSITIVE: usize = 3;
    const MONEY_PRODUCTS_NEGATIVE: usize = 5;
    const BETTING_SUMS: usize = 7;

    /// Counts in the tally.
    pub fn len(&self) -> usize {
        self.insurance_counts() + if self.insurance { 2 } else { 0 }
    }

    /// The tally's rounds insured and, of them, those the insurance won
    /// (`None` when the player never insures).
    pub fn insured(&self, tally: &[u64]) -> Option<(u64, u64)> {
        let at = self.insurance_counts();
        self.insurance.then(|| (tally[at], tally[at + 1]))
    }

    /// The tally's rounds played by ramp row, then net result
    /// (`betting_rows * net_bins` counts; empty without a ramp).
    pub fn by_bet_row<'t>(&self, tally: &'t [u64]) -> &'t [u64] {
        &tally[self.by_bet()..self.betting_sums()]
    }

    /// Never empty (the net bins are always there).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The tally's shoes by number of rounds (`0..=most_rounds`): every
    /// shoe counted once.
    pub fn rounds_per_shoe<'t>(&self, tally: &'t [u64]) -> &'t [u64] {
        let at = self.rounds_per_shoe_at();
        &tally[at..at + self.most_rounds + 1]
    }

    /// The tally's rounds by net result ([`TallyLayout::net_bins`] bins).
    pub fn net<'t>(&self, tally: &'t [u64]) -> &'t [u64] {
        &tally[Self::NET..Self::NET + self.net_bins()]
    }

    /// Checks that the counts of `tally` agree with one another, as every
    /// tally a run makes does: its shoes by number of rounds add up to
    /// `R` rounds (and to the sum of the rounds' squares), and the rounds
    /// by net result, by events and (with a count) by true count each
    /// count those `R` rounds; no more shoes went on from the discards
    /// than were dealt. A tally edited in one place (rounds added to the
    /// net results, its checksum made again) fails here; the error says
    /// which counts disagree, in one line.
    pub fn check_consistent(&self, tally: &[u64]) -> std::result::Result<(), String> {
        if tally.len() != self.len() {
            return Err(format!(
                "{} counts, and a table run's tally has {}",
                tally.len(),
                self.len()
            ));
        }
        let too_many = || "its counts overflow 64 bits".to_string();
        let sum = |counts: &[u64]| {
            counts
                .iter()
                .try_fold(0u64, |sum, &count| sum.checked_add(count))
                .ok_or_else(too_many)
        };
        let weighted = |power: u32| {
            self.rounds_per_shoe(tally)
                .iter()
                .enumerate()
                .try_fold(0u64, |sum, (rounds, &shoes)| {
                    (rounds as u64)
                        .checked_pow(power)
                        .and_then(|weight| weight.checked_mul(shoes))
                        .and_then(|term| sum.checked_add(term))
                })
                .ok_or_else(too_many)
        };
        let shoes = sum(self.rounds_per_shoe(tally))?;
        let rounds = weighted(1)?;
        let mut counted = vec![
            ("net results", sum(self.net(tally))?),
            (
                "events",
                sum(&tally[self.events()..self.events() + events::COMBINATIONS])?,
            ),
        ];
        if self.counting {
            counted.push((
                "true counts",
                sum(&tally[self.by_true_count()..self.by_bet()])?,
            ));
        }
        for (what, count) in counted {
            if count != rounds {
                return Err(format!(
                    "the rounds by {what} count {count} rounds, and its {shoes} shoes by rounds per shoe hold {rounds}"
                ));
            }
        }
        let squares = weighted(2)?;
        if tally[self.rounds_squares()] != squares {
            return Err(format!(
                "its sum of rounds per shoe squared is {}, and its shoes by rounds per shoe give {squares}",
                tally[self.rounds_squares()]
            ));
        }
        if self.betting_rows > 0 {
            // Rounds played are some of the rounds dealt; the shoes' played
            // rounds squared sum to at least their sum and at most rounds
            // played times the most rounds a shoe holds.
            let played = sum(self.by_bet_row(tally))?;
            if played > rounds {
                return Err(format!(
                    "the rounds played by bet count {played} rounds, more than the {rounds} rounds its shoes hold"
                ));
            }
            let played_squares = tally[self.betting_sums() + Self::PLAYED_SQUARES];
            let most = (self.most_rounds as u64).saturating_mul(played);
            if played_squares < played || played_squares > most {
                return Err(format!(
                    "its sum of rounds played per shoe squared is {played_squares}, and {played} rounds played in shoes of at most {} rounds give {played}..={most}",
                    self.most_rounds
                ));
            }
        }
        if tally[self.reshuffled()] > shoes {
            return Err(format!(
                "{} shoes went on from the discards, of {shoes} shoes dealt",
                tally[self.reshuffled()]
            ));
        }
        if let Some((insured, won)) = self.insured(tally)
            && (won > insured || insured > rounds)
        {
            return Err(format!(
                "{insured} rounds insured, {won} insurance bets won, of {rounds} rounds"
            ));
        }
        Ok(())
    }
}

/// One player at a table, dealt shoe after shoe (see the module doc).
#[derive(Clone, Debug)]
pub struct TableSimulation {
    player: RoundPlayer,
    /// The shoe's cards, one value each.
    shoe_cards: Vec<u8>,
    dealing: Dealing,
    /// Count tags by value (ace first), with a counting system.
    tags: Option<[i8; N_VALUES]>,
    /// How the running count becomes the true count rounds are sorted by.
    true_count_method: TrueCountMethod,
    /// The bets by true count and when to play, if the player bets by the
    /// count (else every round is played for one unit).
    betting: Option<BettingPlan>,
    /// The decisions by true count, if the player makes index plays (else
    /// the player's own strategy plays every round).
    by_count: Option<CountedPlay>,
    layout: TallyLayout,
}

/// The decisions of a player who makes index plays: a strategy (and
/// whether to insure) for each stretch of true counts over which the same
/// plays hold, between consecutive indices ([`IndexPlays::boundaries`]).
#[derive(Clone, Debug)]
struct CountedPlay {
    plays: IndexPlays,
    /// The indices, sorted: stretch `k` holds the counts with `k` of them
    /// at or below the count.
    boundaries: Vec<i32>,
    /// One per stretch: `boundaries.len() + 1`.
    strategies: Vec<Strategy>,
    insure: Vec<bool>,
}

impl CountedPlay {
    /// `plays` on `chart` (basic strategy) under `rules`: each stretch's
    /// chart resolved into a [`Strategy`] as [`TableSimulation::with_chart`]
    /// resolves one.
    fn new(plays: IndexPlays, chart: &ChartStrategy, rules: &PlayerRules) -> CountedPlay {
        let boundaries = plays.boundaries();
        let compositions = Compositions::get();
        // A count in each stretch: below the first index, then each index.
        let representatives: Vec<i32> = std::iter::once(boundaries[0] - 1)
            .chain(boundaries.iter().copied())
            .collect();
        let (strategies, insure) = representatives
            .iter()
            .map(|&true_count| {
                let chart = plays.chart_at(chart, true_count);
                let strategy = Strategy::from_decisions(compositions, |upcard, hand, spot| {
                    Some(chart.decide(rules, upcard, hand, spot))
                });
                (strategy, plays.insures_at(true_count))
            })
            .unzip();
        CountedPlay {
            plays,
            boundaries,
            strategies,
            insure,
        }
    }

    /// The decisions at `true_count`.
    #[inline]
    fn at(&self, true_count: i32) -> RoundChoice<'_> {
        let stretch = self
            .boundaries
            .partition_point(|&index| index <= true_count);
        RoundChoice {
            strategy: &self.strategies[stretch],
            insure: self.insure[stretch],
        }
    }
}

/// One round as the table dealt it, for whoever tallies it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DealtRound {
    /// The round's net result per unit bet, in tenths of a unit (its
    /// insurance included).
    pub net: i32,
    /// Its insurance bet's net, in tenths (0: not insured).
    pub insurance: i8,
    /// The events of the round (`events::COMBINATIONS` sets).
    pub events: u8,
    /// The true count it was dealt at, with a counting system.
    pub true_count: Option<i32>,
    /// The player's bet in units: 0 for a round sat out (wonging), 1
    /// without a ramp.
    pub bet: u32,
    /// The ramp's row the bet came from (0 without a ramp).
    pub bet_row: usize,
}

/// What takes each round [`TableSimulation::deal_shoe`] deals: a table
/// run's tally, or a trip's bankroll. One concrete type for both, so that
/// `deal_shoe` has one instance, which holds the only call of the round's
/// play function on a `TableShoe`: the compiler then inlines the play
/// (dealer, draws and all) into it, as it did into the table's trial
/// before trips dealt shoes too. With a generic `deal_shoe` (two
/// instances, two call sites) it did not, and a round took a sixth longer.
pub(crate) enum RoundSink<'t> {
    /// A table run's shoe: its tally and the shoe's sums so far.
    Table(ShoeTally<'t>),
    /// A trip.
    Trip(&'t mut TripState),
}

/// A table run's tally while a shoe is dealt (see [`TallyLayout`]).
pub(crate) struct ShoeTally<'t> {
    counts: &'t mut [u64],
    /// Where a round's counts go, worked out once a shoe.
    at: RoundCounts,
    /// The shoe's net at one unit a round, in tenths.
    net: i64,
    /// Its rounds played (with a ramp).
    played: u64,
    /// Its money (bet x net, tenths).
    money: i64,
}

/// Where [`RoundSink::take`] counts a round in a table run's tally: the
/// [`TallyLayout`]'s offsets, taken once a shoe rather than once a round.
#[derive(Clone, Copy, Debug)]
struct RoundCounts {
    lowest_net: i32,
    net_bins: usize,
    events: usize,
    by_true_count: usize,
    betting: bool,
    by_bet: usize,
    insurance: usize,
}

impl RoundCounts {
    fn of(layout: &TallyLayout) -> RoundCounts {
        RoundCounts {
            lowest_net: layout.lowest_net_tenths(),
            net_bins: layout.net_bins(),
            events: layout.events(),
            by_true_count: layout.by_true_count(),
            betting: layout.betting_rows > 0,
            by_bet: layout.by_bet(),
            insurance: layout.insurance_counts(),
        }
    }
}

/// A trip as its rounds are dealt.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TripState {
    /// The bankroll, in tenths of a unit.
    pub bankroll: i64,
    /// Rounds still to deal.
    pub rounds_left: u64,
    /// Whether the bankroll is gone (the trip is over).
    pub ruined: bool,
}

impl RoundSink<'_> {
    /// Takes one round; `false` to stop dealing.
    #[inline(always)]
    fn take(&mut self, round: &DealtRound) -> bool {
        match self {
            RoundSink::Table(tally) => {
                let at = tally.at;
                let counts = &mut *tally.counts;
                let bin = (round.net - at.lowest_net) as usize;
                counts[TallyLayout::NET + bin] += 1;
                counts[at.events + usize::from(round.events)] += 1;
                if let Some(tc) = round.true_count {
                    counts[at.by_true_count + true_count_bin(tc) * at.net_bins + bin] += 1;
                }
                if round.insurance != 0 {
                    counts[at.insurance] += 1;
                    counts[at.insurance + 1] += u64::from(round.insurance > 0);
                }
                tally.net += i64::from(round.net);
                if at.betting && round.bet > 0 {
                    counts[at.by_bet + round.bet_row * at.net_bins + bin] += 1;
                    tally.played += 1;
                    tally.money += i64::from(round.bet) * i64::from(round.net);
                }
                true
            }
            RoundSink::Trip(trip) => {
                trip.bankroll += i64::from(round.bet) * i64::from(round.net);
                trip.rounds_left -= 1;
                trip.ruined = trip.bankroll <= 0;
                trip.rounds_left > 0 && !trip.ruined
            }
        }
    }
}

/// How a shoe ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShoeDealt {
    /// Rounds dealt.
    pub rounds: u32,
    /// Whether its last round went on from the shuffled discards.
    pub reshuffled: bool,
}

impl TableSimulation {
    /// The table of `table`'s rules and shoe (the full shoe, or less
    /// `removed`), played with its composition-dependent decisions for
    /// that shoe (whatever has been dealt since), dealt as `dealing` says,
    /// counting with `tags` if given (by value, ace first).
    ///
    /// Errors (naming the parameter) if the table's split model is not
    /// `cdz` (its decisions after a split are `cdz`'s), the deck is
    /// infinite, the shoe cannot hold a round's most cards, or `dealing`
    /// was made for another shoe.
    pub fn with_table<T: Number>(
        table: &PlayerTable<T>,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        if table.params.split_model != SplitModel::Cdz {
            return Err(Error::invalid(
                "split_model",
                table.params.split_model.name(),
                "the table plays split hands as cdz does (the decisions the solved table \
                 gives); solve with cdz",
            ));
        }
        let compositions = Compositions::get();
        let shoe = table.params.shoe()?;
        TableSimulation::new(
            table.params.rules,
            &shoe,
            Strategy::of(table, compositions),
            dealing,
            tags,
        )
    }

    /// The table of `rules` (the full shoe) played by `chart`'s decisions,
    /// resolved against the rules ([`ChartStrategy::decide`]), dealt as
    /// `dealing` says, counting with `tags` if given.
    ///
    /// Errors (naming the parameter) as [`TableSimulation::with_table`].
    pub fn with_chart(
        rules: PlayerRules,
        chart: &ChartStrategy,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        let compositions = Compositions::get();
        let strategy = Strategy::from_decisions(compositions, |upcard, hand, spot| {
            Some(chart.decide(&rules, upcard, hand, spot))
        });
        TableSimulation::new(rules, &rules.shoe(), strategy, dealing, tags)
    }

    pub(crate) fn new(
        rules: PlayerRules,
        shoe: &Shoe,
        strategy: Strategy,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        rules.validate()?;
        if shoe.infinite {
            return Err(Error::invalid(
                "decks",
                "inf",
                "a table deals a finite shoe of 1..=8 decks (an infinite deck has no cut card: \
                 every round is off the top)",
            ));
        }
        let cards = shoe.total();
        let needed = most_cards_of_a_round(shoe);
        if cards < needed {
            return Err(Error::invalid(
                "removed",
                format!("{cards} cards left"),
                format!("a round may need up to {needed} cards of this shoe; remove fewer cards"),
            ));
        }
        if let Dealing::CutCard {
            cards: made_for, ..
        } = dealing
            && made_for != cards
        {
            return Err(Error::invalid(
                "penetration",
                format!("a cut card for {made_for} cards"),
                format!("the shoe holds {cards} cards"),
            ));
        }
        Ok(TableSimulation {
            player: RoundPlayer::new(rules, strategy, Compositions::get()),
            shoe_cards: shoe.cards(),
            dealing,
            tags,
            true_count_method: TrueCountMethod::default(),
            betting: None,
            by_count: None,
            layout: TallyLayout {
                most_rounds: dealing.most_rounds(cards) as usize,
                counting: tags.is_some(),
                betting_rows: 0,
                insurance: false,
            },
        })
    }

    /// This table with the true count computed by `method` (the default,
    /// [`TrueCountMethod::default`], is the floored count over the exact
    /// decks left). The method changes which true count a round is counted
    /// under, nothing else; without a counting system it changes nothing.
    pub fn with_true_count_method(mut self, method: TrueCountMethod) -> TableSimulation {
        self.true_count_method = method;
        self
    }

    /// How the true count is computed.
    pub fn true_count_method(&self) -> TrueCountMethod {
        self.true_count_method
    }

    /// This table with the player betting by `plan`: each round's bet is
    /// the ramp's at the true count as the round is dealt (computed by the
    /// table's [`TrueCountMethod`]), and the rounds wonging sits out are
    /// dealt with no bet, so the shoe's cards go as they would with the
    /// player in. The flat-bet counts (net per unit, events, by true
    /// count) still count every round dealt; the betting counts (see
    /// [`TallyLayout`]) the rounds played.
    ///
    /// Errors (naming `count`) if the table counts no cards: a ramp bets by
    /// the true count.
    pub fn with_betting(mut self, plan: BettingPlan) -> Result<TableSimulation> {
        if self.tags.is_none() {
            return Err(Error::invalid(
                "count",
                "none",
                "a bet ramp bets by the true count: give a counting system",
            ));
        }
        self.layout.betting_rows = plan.ramp.bets().len();
        self.betting = Some(plan);
        Ok(self)
    }

    /// The betting plan, if the player bets by the count.
    pub fn betting(&self) -> Option<&BettingPlan> {
        self.betting.as_ref()
    }

    /// This table with the player making `plays` on `chart`, the basic
    /// strategy they deviate from (the table's own chart: see
    /// [`TableSimulation::with_chart`]). Each round's decisions are
    /// [`IndexPlays::chart_at`] the true count the player sees once the
    /// upcard and their two cards are dealt: the running count of the
    /// rounds before plus those three cards' tags, over the cards left less
    /// those three, by the table's [`TrueCountMethod`] (the count the
    /// indices are found at: see `indices.rs`). The whole round is played
    /// by that count's chart. Insurance, where a play takes it, is half a
    /// unit against an ace, settled at the peek, and its net is part of
    /// the round's (see [`TallyLayout`]).
    ///
    /// Errors (naming the parameter) if the table counts no cards, or
    /// deals no hole card (index plays, insurance among them, are found
    /// for the peek game).
    pub fn with_index_plays(
        mut self,
        plays: IndexPlays,
        chart: &ChartStrategy,
    ) -> Result<TableSimulation> {
        if self.tags.is_none() {
            return Err(Error::invalid(
                "count",
                "none",
                "index plays are made at a true count: give a counting system",
            ));
        }
        let rules = *self.player.rules();
        if rules.hole_card != HoleCard::Peek {
            return Err(Error::invalid(
                "hole_card",
                "enhc",
                "index plays are found and played for the peek game (the dealer checks for a \
                 natural first)",
            ));
        }
        self.layout.insurance = plays.insures();
        self.by_count = Some(CountedPlay::new(plays, chart, &rules));
        Ok(self)
    }

    /// The index plays, if the player makes them.
    pub fn index_plays(&self) -> Option<&IndexPlays> {
        self.by_count.as_ref().map(|by_count| &by_count.plays)
    }

    /// Deals one shoe from a fresh shuffle, round after round as
    /// [`Dealing`] says, handing each round to `sink`, and stops early
    /// when it says to. The count, the true count (by the table's
    /// method) and the bet (the ramp's, or none while wonging sits out)
    /// are taken as each round is dealt, from the cards of the rounds
    /// before it. Allocates nothing: `cards` is the shoe.
    // Never inlined: one instance, whose call of the round's play function
    // is its only one (see RoundSink).
    #[inline(never)]
    pub(crate) fn deal_shoe(
        &self,
        rng: &mut GameRng,
        cards: &mut [u8],
        sink: &mut RoundSink,
    ) -> ShoeDealt {
        let mut shoe = TableShoe::new(rng, cards);
        let mut rounds = 0u32;
        let mut running = 0i32;
        let mut seat = self
            .betting
            .as_ref()
            .map_or(Seat::Playing, BettingPlan::seat_at_shuffle);
        let mut reshuffled = false;
        while self.dealing.deals_another(shoe.dealt(), rounds) {
            shoe.start_round();
            // The true count as the round is dealt: every card of the
            // shoe's earlier rounds has been seen.
            let true_count = self.tags.map(|_| {
                self.true_count_method
                    .true_count(running, shoe.cards_left())
            });
            let (bet, bet_row) = match (&self.betting, true_count) {
                (Some(plan), Some(tc)) => {
                    seat = plan.seat_for_round(seat, tc);
                    match seat {
                        Seat::Playing => (plan.ramp.bet(tc), plan.ramp.row(tc)),
                        Seat::Watching | Seat::Left => (0, 0),
                    }
                }
                _ => (1, 0),
            };
            // With index plays, the round's decisions at the count the
            // player sees once the first three cards are out.
            let cards_left = shoe.cards_left();
            let choose = |upcard: u8, first: u8, second: u8| match (&self.by_count, &self.tags) {
                (Some(by_count), Some(tags)) => {
                    let seen: i32 = [upcard, first, second]
                        .iter()
                        .map(|&value| i32::from(tags[usize::from(value - 1)]))
                        .sum();
                    let unseen = cards_left.saturating_sub(3).max(1);
                    by_count.at(self.true_count_method.true_count(running + seen, unseen))
                }
                _ => RoundChoice {
                    strategy: self.player.strategy(),
                    insure: false,
                },
            };
            // `new` made sure the shoe (and its discards) hold a round's
            // most cards.
            let round = self
                .player
                .play_choosing(&mut shoe, choose)
                .expect("the shoe holds the most cards a round can take");
            if let Some(tags) = &self.tags {
                running += shoe
                    .round_cards()
                    .iter()
                    .map(|&value| i32::from(tags[usize::from(value - 1)]))
                    .sum::<i32>();
            }
            rounds += 1;
            reshuffled = shoe.reshuffled();
            let go_on = sink.take(&DealtRound {
                net: round.net,
                insurance: round.insurance,
                events: round.events,
                true_count,
                bet,
                bet_row,
            });
            if reshuffled || !go_on {
                break;
            }
        }
        ShoeDealt { rounds, reshuffled }
    }

    /// The rules the rounds are played by.
    pub fn rules(&self) -> &PlayerRules {
        self.player.rules()
    }

    /// When the dealer shuffles.
    pub fn dealing(&self) -> Dealing {
        self.dealing
    }

    /// Where the counts are in the tally.
    pub fn layout(&self) -> TallyLayout {
        self.layout
    }

    /// The play function the rounds go through.
    pub(crate) fn player(&self) -> &RoundPlayer {
        &self.player
    }

    /// The shoe's cards, one value each.
    pub(crate) fn shoe_card_values(&self) -> &[u8] {
        &self.shoe_cards
    }

    /// Cards in the shoe.
    pub fn shoe_cards(&self) -> u32 {
        self.shoe_cards.len() as u32
    }

    /// The mean number of rounds a shoe deals: exact with a fixed number of
    /// rounds per shoe, else the mean of [`PILOT_SHOES`] shoes of a fixed
    /// stream (the same on every machine), which sizes a run asked for in
    /// rounds ([`TableSimulation::shoes_for_rounds`]).
    pub fn rounds_per_shoe_estimate(&self) -> f64 {
        match self.dealing {
            Dealing::RoundsPerShoe { rounds } => f64::from(rounds),
            Dealing::CutCard { .. } => {
                let mut rng = stream_rng(0, PILOT_STREAM, 0);
                let mut scratch = self.new_scratch();
                let mut tally = vec![0; self.layout.len()];
                self.trials(&mut rng, &mut scratch, PILOT_SHOES, &mut tally);
                let rounds: u64 = self.layout.net(&tally).iter().sum();
                rounds as f64 / PILOT_SHOES as f64
            }
        }
    }

    /// The shoes that deal about `n_rounds` rounds: `n_rounds` over
    /// [`TableSimulation::rounds_per_shoe_estimate`], rounded up (exactly
    /// `n_rounds` rounds with one round per shoe).
    pub fn shoes_for_rounds(&self, n_rounds: u64) -> u64 {
        let per_shoe = self.rounds_per_shoe_estimate();
        ((n_rounds as f64 / per_shoe).ceil() as u64).max(1)
    }

    /// Shoes per chunk of a run: about [`ROUNDS_PER_CHUNK`] rounds.
    pub fn shoes_per_chunk(&self) -> u64 {
        ((ROUNDS_PER_CHUNK as f64 / self.rounds_per_shoe_estimate()).round() as u64).max(1)
    }
}

/// Shoes of the pilot run that estimates rounds per shoe.
pub const PILOT_SHOES: u64 = 2_000;

/// The pilot's stream (no run of a command uses it).
const PILOT_STREAM: u64 = u64::MAX;

/// Rounds in a chunk of a table run, about: as many as a chunk of the
/// other games' trials.
pub const ROUNDS_PER_CHUNK: u64 = 1 << 16;

impl Simulation for TableSimulation {
    /// The shoe's cards: a permutation of them, which a new shoe deals from
    /// the front without a reset (see [`TableShoe`]).
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        self.layout.len()
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.shoe_cards.clone()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, cards: &mut Vec<u8>, counts: &mut [u64]) {
        let layout = self.layout;
        let mut sink = RoundSink::Table(ShoeTally {
            counts,
            at: RoundCounts::of(&layout),
            net: 0,
            played: 0,
            money: 0,
        });
        let dealt = self.deal_shoe(rng, cards, &mut sink);
        let RoundSink::Table(ShoeTally {
            counts,
            net: shoe_net,
            played,
            money,
            ..
        }) = sink
        else {
            unreachable!("a table run's sink is its tally")
        };
        if dealt.reshuffled {
            counts[layout.reshuffled()] += 1;
        }
        counts[layout.rounds_per_shoe_at() + dealt.rounds as usize] += 1;
        let rounds = i64::from(dealt.rounds);
        counts[layout.net_squares()] += (shoe_net * shoe_net) as u64;
        counts[layout.rounds_squares()] += (rounds * rounds) as u64;
        // Both sums take a term, one of them zero: a sign tested by a
        // branch would be mispredicted about every other one-round shoe.
        let product = rounds * shoe_net;
        counts[layout.products_positive()] += product.max(0) as u64;
        counts[layout.products_negative()] += product.min(0).unsigned_abs();
        if layout.betting_rows > 0 {
            // MAX_BET bounds |money| below 2^31 a shoe, so its square and
            // its product with the rounds fit 64 bits (see betting.rs).
            let at = layout.betting_sums();
            add_wide(
                counts,
                at + TallyLayout::MONEY_SQUARES,
                money.unsigned_abs().pow(2),
            );
            counts[at + TallyLayout::PLAYED_SQUARES] += played * played;
            let product = played as i64 * money;
            add_wide(
                counts,
                at + TallyLayout::MONEY_PRODUCTS_POSITIVE,
                product.max(0) as u64,
            );
            add_wide(
                counts,
                at + TallyLayout::MONEY_PRODUCTS_NEGATIVE,
                product.min(0).unsigned_abs(),
            );
        }
    }
}

/// The normal quantile of a 95% two-sided interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// What a table run's counts say.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSummary {
    /// Shoes dealt.
    pub n_shoes: u64,
    /// Rounds played.
    pub n_rounds: u64,
    /// The mean net result per round, in units (total net over total
    /// rounds).
    pub mean: f64,
    /// The standard deviation of one round's net result, in units.
    pub standard_deviation: f64,
    /// The standard error of the mean per round, by shoe: the ratio
    /// estimator's (shoes are independent, the rounds of a shoe are not),
    /// which is `standard_deviation / sqrt(n_rounds)` with one round per
    /// shoe.
    pub standard_error: f64,
    /// `mean -+ 1.96 standard_error`.
    pub ci95: [f64; 2],
    /// Rounds by net result (tenths of a unit, one bin a tenth from
    /// `lowest_net_tenths`: -8.0 units, or -8.5 when the player may insure).
    pub net: Vec<u64>,
    /// The net result of `net`'s first bin, in tenths of a unit.
    pub lowest_net_tenths: i32,
    /// Rounds won, lost and pushed (net above, below and at zero).
    pub wins: u64,
    pub losses: u64,
    pub pushes: u64,
    /// Rounds in which each event happened, in `events::NAMED` order.
    pub events: Vec<(&'static str, u64)>,
    /// Shoes whose last round went on from the shuffled discards.
    pub reshuffled_shoes: u64,
    /// Shoes by their number of rounds (index = rounds).
    pub rounds_per_shoe: Vec<u64>,
    /// Rounds by the true count they were dealt at (with a count).
    pub by_true_count: Vec<TrueCountRow>,
    /// The insurance bets, when the player may insure.
    pub insurance: Option<InsuranceSummary>,
}

/// The insurance bets of a run (half a unit each, paid 2 to 1; their net
/// is part of each round's).
#[derive(Clone, Debug, PartialEq)]
pub struct InsuranceSummary {
    /// Rounds in which the player insured.
    pub insured: u64,
    /// Of them, those the hole card made a natural (the bet won).
    pub won: u64,
}

impl InsuranceSummary {
    /// The insurance bets' total net, in tenths of a unit.
    pub fn net_tenths(&self) -> i64 {
        i64::from(INSURANCE_WINS) * self.won as i64
            + i64::from(INSURANCE_LOSES) * (self.insured - self.won) as i64
    }

    /// Their net per round dealt, in units (`n_rounds` the run's rounds).
    pub fn per_round(&self, n_rounds: u64) -> f64 {
        self.net_tenths() as f64 / 10.0 / n_rounds as f64
    }
}

/// Rounds dealt at one true count.
#[derive(Clone, Debug, PartialEq)]
pub struct TrueCountRow {
    /// `<=-10`, `-9`, .., `0`, `+1`, .., `>=+10`.
    pub label: String,
    /// Rounds dealt at this true count.
    pub rounds: u64,
    /// Their mean net result, in units (`None` with no round).
    pub mean: Option<f64>,
    /// The standard deviation of their net results (`None` below two
    /// rounds).
    pub standard_deviation: Option<f64>,
    /// The mean's 95% interval, treating the rounds as independent (`None`
    /// below two rounds).
    pub ci95: Option<[f64; 2]>,
}

/// Mean and sample standard deviation of net results counted by bin (the
/// first bin's net `lowest` tenths), in units: `(rounds, mean, sd)`, the
/// mean summed exactly in tenths.
fn net_moments(net: &[u64], lowest: i32) -> (u64, Option<f64>, Option<f64>) {
    let net_tenths_of_bin = |bin: usize| lowest + bin as i32;
    let rounds: u64 = net.iter().sum();
    if rounds == 0 {
        return (0, None, None);
    }
    let tenths: i128 = net
        .iter()
        .enumerate()
        .map(|(bin, &count)| i128::from(net_tenths_of_bin(bin)) * i128::from(count))
        .sum();
    let mean = tenths as f64 / 10.0 / rounds as f64;
    if rounds < 2 {
        return (rounds, Some(mean), None);
    }
    let squares: f64 = net
        .iter()
        .enumerate()
        .map(|(bin, &count)| {
            let deviation = f64::from(net_tenths_of_bin(bin)) / 10.0 - mean;
            count as f64 * deviation * deviation
        })
        .sum();
    (
        rounds,
        Some(mean),
        Some((squares / (rounds - 1) as f64).sqrt()),
    )
}

impl TableSummary {
    /// The summary of a run's `tally`, laid out as `layout` says.
    ///
    /// Errors (naming `counts`) if the tally is not of the layout's length,
    /// or holds fewer than two shoes or two rounds (no spread).
    pub fn from_tally(layout: &TallyLayout, tally: &[u64]) -> Result<TableSummary> {
        if tally.len() != layout.len() {
            return Err(Error::invalid(
                "counts",
                format!("{} counts", tally.len()),
                format!("a table run's tally has {} counts", layout.len()),
            ));
        }
        let net = layout.net(tally);
        let lowest = layout.lowest_net_tenths();
        let net_tenths_of_bin = |bin: usize| lowest + bin as i32;
        let (n_rounds, mean, standard_deviation) = net_moments(net, lowest);
        let rounds_per_shoe = layout.rounds_per_shoe(tally).to_vec();
        let n_shoes: u64 = rounds_per_shoe.iter().sum();
        let (Some(mean), Some(standard_deviation)) = (mean, standard_deviation) else {
            return Err(Error::invalid(
                "counts",
                format!("{n_rounds} rounds"),
                "a mean's standard error needs at least two rounds",
            ));
        };
        if n_shoes < 2 {
            return Err(Error::invalid(
                "counts",
                format!("{n_shoes} shoes"),
                "a standard error by shoe needs at least two shoes",
            ));
        }
        // The ratio estimator's variance: sum over shoes of (net - mean *
        // rounds)^2 / (n (n - 1) mean_rounds^2), from the sums of squares
        // and products (net in tenths).
        let net_squares = tally[layout.net_squares()] as f64 / 100.0;
        let rounds_squares = tally[layout.rounds_squares()] as f64;
        let products = (tally[layout.products_positive()] as f64
            - tally[layout.products_negative()] as f64)
            / 10.0;
        let residuals =
            (net_squares - 2.0 * mean * products + mean * mean * rounds_squares).max(0.0);
        let shoes = n_shoes as f64;
        let mean_rounds = n_rounds as f64 / shoes;
        let standard_error = (residuals / (shoes * (shoes - 1.0))).sqrt() / mean_rounds;
        let (mut wins, mut losses, mut pushes) = (0, 0, 0);
        for (bin, &count) in net.iter().enumerate() {
            match net_tenths_of_bin(bin).signum() {
                1 => wins += count,
                -1 => losses += count,
                _ => pushes += count,
            }
        }
        let combinations = &tally[layout.events()..layout.events() + events::COMBINATIONS];
        let events = events::NAMED
            .iter()
            .map(|&(bit, name)| {
                let rounds = combinations
                    .iter()
                    .enumerate()
                    .filter(|(set, _)| *set as u8 & bit != 0)
                    .map(|(_, &count)| count)
                    .sum();
                (name, rounds)
            })
            .collect();
        let by_true_count = if layout.counting {
            let start = layout.by_true_count();
            let width = layout.net_bins();
            (0..TRUE_COUNT_BINS)
                .map(|tc| {
                    let bins = &tally[start + tc * width..start + (tc + 1) * width];
                    let (rounds, mean, standard_deviation) = net_moments(bins, lowest);
                    let ci95 = match (mean, standard_deviation) {
                        (Some(mean), Some(sd)) => {
                            let half = Z_95 * sd / (rounds as f64).sqrt();
                            Some([mean - half, mean + half])
                        }
                        _ => None,
                    };
                    TrueCountRow {
                        label: true_count_label(tc),
                        rounds,
                        mean,
                        standard_deviation,
                        ci95,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(TableSummary {
            n_shoes,
            n_rounds,
            mean,
            standard_deviation,
            standard_error,
            ci95: [mean - Z_95 * standard_error, mean + Z_95 * standard_error],
            net: net.to_vec(),
            lowest_net_tenths: lowest,
            wins,
            losses,
            pushes,
            events,
            reshuffled_shoes: tally[layout.reshuffled()],
            rounds_per_shoe,
            by_true_count,
            insurance: layout
                .insured(tally)
                .map(|(insured, won)| InsuranceSummary { insured, won }),
        })
    }

    /// The label of bin `bin` of `net` (`-8.5`, `0.0`, `+1.5`).
    pub fn net_label(&self, bin: usize) -> String {
        label_of_net_tenths(self.lowest_net_tenths + bin as i32)
    }

    /// The house edge in percent: minus the mean, times 100.
    pub fn house_edge_percent(&self) -> f64 {
        -100.0 * self.mean
    }

    /// The mean number of rounds per shoe.
    pub fn mean_rounds_per_shoe(&self) -> f64 {
        self.n_rounds as f64 / self.n_shoes as f64
    }
}

/// What a bet-ramp run's counts say about the money: the standard
/// figures of card counting, in units (one unit = the ramp's bet of 1).
///
/// Every figure is per round *played* (a round with a bet; rounds wonging
/// sits out are observed, not played, and carry no money). With `WR` the
/// win rate (mean money per round played) and `SD` the standard deviation
/// of one round's money, the definitions are those of Don Schlesinger,
/// *Blackjack Attack: Playing the Pros' Way* (3rd ed., RGE Publishing,
/// 2005; DI, SCORE and N0 are his) and of Norm Wattenberger's CVCX
/// simulator (<https://www.qfit.com/cvcx.htm>), which reports the same
/// set:
///
/// - per 100 rounds: `WR_100 = 100 x WR`, `SD_100 = 10 x SD` (the SD of a
///   sum of 100 rounds, taken as independent: `sqrt(100) x SD`);
/// - DI, the desirability index: `1000 x WR / SD`;
/// - N0, the rounds after which the expected win equals one standard
///   deviation of the result (`N0 x WR = sqrt(N0) x SD`): `(SD / WR)^2`;
/// - SCORE, the standardised comparison of risk and expectation: the win
///   per 100 rounds, in units, of a player with a bankroll of 10,000 units
///   betting the ramp scaled by the Kelly fraction,
///   `100 x (10,000 x WR / SD^2) x WR = 10^6 x (WR / SD)^2 = DI^2`;
///   `N0 = 10^6 / SCORE`;
/// - the Kelly scaling for a bankroll of `B` units: the multiplier of
///   every bet that maximises the bankroll's expected log growth for a
///   ramp of fixed shape (to second order: J. L. Kelly, "A new
///   interpretation of information rate", Bell System Technical Journal
///   35, 1956; E. O. Thorp, "The Kelly criterion in blackjack, sports
///   betting and the stock market", 1997), `k = B x WR / SD^2`;
/// - the risk of ruin of betting the ramp as it is, forever, from a
///   bankroll of `B` units: `exp(-2 x WR x B / SD^2)` (Blackjack Attack's
///   closed form; the probability that a Brownian motion with drift `WR`
///   and variance `SD^2` per round ever falls `B` below its start, so it
///   assumes the normal approximation: a bankroll of many bets, and a
///   positive win rate; 1 when `WR <= 0`). At the Kelly multiplier it is
///   `exp(-2) = 13.5 %`.
///
/// The counts are integers, so the sums behind WR and SD are exact:
/// [`BettingSummary::edge_to_variance`] gives `(WR / SD)^2` as an exact
/// rational, from which SCORE and N0 follow exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct BettingSummary {
    /// The ramp played (within the table's limits).
    pub ramp: BetRamp,
    /// When the player played.
    pub wonging: Wonging,
    /// The bet off the top (a shoe's first round), `None` when wonging
    /// sits it out.
    pub initial_bet: Option<u32>,
    /// Rounds dealt, played or not.
    pub rounds_observed: u64,
    /// Rounds played (with a bet).
    pub rounds_played: u64,
    /// Shoes dealt.
    pub shoes: u64,
    /// Rounds played at each ramp row, lowest count first.
    pub rounds_by_row: Vec<u64>,
    /// The sum of the bets, in units.
    pub total_bet: u64,
    /// The sum of the money won (bet x net), in tenths of a unit.
    pub money_tenths: i128,
    /// The sum of its squares, in hundredths of a unit squared.
    pub money_squares_hundredths: u128,
    /// WR: the mean money per round played, in units.
    pub win_rate: f64,
    /// SD: the standard deviation of a round's money, in units.
    pub standard_deviation: f64,
    /// The standard error of the win rate, by shoe (the ratio estimator
    /// over shoes, as [`TableSummary::standard_error`]).
    pub standard_error: f64,
    /// `win_rate -+ 1.96 standard_error`.
    pub ci95: [f64; 2],
}

/// The Kelly scaling of a ramp for a bankroll.
#[derive(Clone, Debug, PartialEq)]
pub struct KellyScaling {
    /// The bankroll, in units.
    pub bankroll: u64,
    /// `bankroll x WR / SD^2`: the multiplier of every bet.
    pub multiplier: f64,
    /// The ramp's bets times the multiplier, one per row.
    pub bets: Vec<f64>,
}

impl BettingSummary {
    /// The money of a run's `tally` (laid out as `layout` says, betting by
    /// `plan`, the plan the run was dealt with).
    ///
    /// Errors (naming `counts`) if the tally has no betting counts or not
    /// the plan's rows, or fewer than two rounds played or two shoes.
    pub fn from_tally(
        layout: &TallyLayout,
        tally: &[u64],
        plan: &BettingPlan,
    ) -> Result<BettingSummary> {
        let bets = plan.ramp.bets();
        if layout.betting_rows != bets.len() || tally.len() != layout.len() {
            return Err(Error::invalid(
                "counts",
                format!("{} counts", tally.len()),
                format!(
                    "a bet-ramp run of {} rows has {} counts",
                    bets.len(),
                    TallyLayout {
                        betting_rows: bets.len(),
                        ..*layout
                    }
                    .len()
                ),
            ));
        }
        let by_row = layout.by_bet_row(tally);
        let width = layout.net_bins();
        let lowest = layout.lowest_net_tenths();
        let mut rounds_by_row = Vec::with_capacity(bets.len());
        let (mut total_bet, mut money_tenths, mut money_squares_hundredths) = (0u64, 0i128, 0u128);
        for (row, &bet) in bets.iter().enumerate() {
            let bins = &by_row[row * width..(row + 1) * width];
            let rounds: u64 = bins.iter().sum();
            rounds_by_row.push(rounds);
            total_bet += rounds * u64::from(bet);
            for (bin, &count) in bins.iter().enumerate() {
                let money = i128::from(lowest + bin as i32) * i128::from(bet);
                money_tenths += money * i128::from(count);
                money_squares_hundredths += (money * money) as u128 * u128::from(count);
            }
        }
        let rounds_played: u64 = rounds_by_row.iter().sum();
        let shoes: u64 = layout.rounds_per_shoe(tally).iter().sum();
        let rounds_observed: u64 = layout.net(tally).iter().sum();
        if rounds_played < 2 || shoes < 2 {
            return Err(Error::invalid(
                "counts",
                format!("{rounds_played} rounds played in {shoes} shoes"),
                "a win rate's spread needs at least two rounds played and two shoes",
            ));
        }
        let played = rounds_played as f64;
        let win_rate = money_tenths as f64 / 10.0 / played;
        // (P Q - M^2) / (100 P (P - 1)), the numerator exact in integers
        // (it is P times the sum of squared deviations, never negative).
        let spread = BigInt::from(rounds_played) * BigInt::from(money_squares_hundredths)
            - BigInt::from(money_tenths) * BigInt::from(money_tenths);
        let variance = spread.to_f64().unwrap_or(f64::INFINITY) / (100.0 * played * (played - 1.0));
        let standard_deviation = variance.sqrt();
        // The ratio estimator over shoes, in tenths: sum over shoes of
        // (money - m x played)^2 with m the win rate in tenths.
        let at = layout.betting_sums();
        let money_squares = wide_sum(tally, at + TallyLayout::MONEY_SQUARES) as f64;
        let played_squares = tally[at + TallyLayout::PLAYED_SQUARES] as f64;
        let products = wide_sum(tally, at + TallyLayout::MONEY_PRODUCTS_POSITIVE) as f64
            - wide_sum(tally, at + TallyLayout::MONEY_PRODUCTS_NEGATIVE) as f64;
        let m = money_tenths as f64 / played;
        let residuals = (money_squares - 2.0 * m * products + m * m * played_squares).max(0.0);
        let n = shoes as f64;
        let standard_error = (residuals / (n * (n - 1.0))).sqrt() / (played / n) / 10.0;
        Ok(BettingSummary {
            ramp: plan.ramp.clone(),
            wonging: plan.wonging,
            initial_bet: plan.initial_bet(),
            rounds_observed,
            rounds_played,
            shoes,
            rounds_by_row,
            total_bet,
            money_tenths,
            money_squares_hundredths,
            win_rate,
            standard_deviation,
            standard_error,
            ci95: [
                win_rate - Z_95 * standard_error,
                win_rate + Z_95 * standard_error,
            ],
        })
    }

    /// The mean bet per round played, in units.
    pub fn average_bet(&self) -> f64 {
        self.total_bet as f64 / self.rounds_played as f64
    }

    /// The share of rounds dealt that the player played.
    pub fn played_share(&self) -> f64 {
        self.rounds_played as f64 / self.rounds_observed as f64
    }

    /// `WR_100 = 100 x WR`, units per 100 rounds played.
    pub fn win_rate_per_100(&self) -> f64 {
        100.0 * self.win_rate
    }

    /// `SD_100 = 10 x SD`: the standard deviation of 100 rounds, taken as
    /// independent.
    pub fn standard_deviation_per_100(&self) -> f64 {
        10.0 * self.standard_deviation
    }

    /// `(WR / SD)^2` exactly, from the integer sums: `M^2 (P - 1) / (P (P
    /// Q - M^2))` with `M` the money in tenths, `Q` its squares in
    /// hundredths and `P` the rounds played. `None` when every round won
    /// the same (no spread).
    pub fn edge_to_variance(&self) -> Option<BigRational> {
        let played = BigInt::from(self.rounds_played);
        let money = BigInt::from(self.money_tenths);
        let spread = &played * BigInt::from(self.money_squares_hundredths) - &money * &money;
        if spread.is_zero() {
            return None;
        }
        Some(BigRational::new(
            &money * &money * (&played - 1),
            played * spread,
        ))
    }

    /// DI = `1000 x WR / SD` (signed as WR).
    pub fn desirability_index(&self) -> f64 {
        1000.0 * self.win_rate / self.standard_deviation
    }

    /// SCORE = `10^6 x (WR / SD)^2`, exactly; `None` unless WR > 0 (with
    /// no edge, Kelly bets nothing and wins nothing).
    pub fn score_exact(&self) -> Option<BigRational> {
        (self.money_tenths > 0)
            .then(|| self.edge_to_variance())
            .flatten()
            .map(|ratio| ratio * BigInt::from(1_000_000))
    }

    /// SCORE as a number (see [`BettingSummary::score_exact`]).
    pub fn score(&self) -> Option<f64> {
        self.score_exact()
            .and_then(|score| ToPrimitive::to_f64(&score))
    }

    /// N0 = `(SD / WR)^2`, exactly; `None` with no win rate or no spread.
    pub fn n0_exact(&self) -> Option<BigRational> {
        self.edge_to_variance()
            .filter(|ratio| !ratio.is_zero())
            .map(|ratio| ratio.recip())
    }

    /// N0 as a number (see [`BettingSummary::n0_exact`]).
    pub fn n0(&self) -> Option<f64> {
        self.n0_exact().and_then(|n0| ToPrimitive::to_f64(&n0))
    }

    /// The Kelly scaling for a bankroll of `bankroll` units, `None` unless
    /// WR > 0.
    pub fn kelly(&self, bankroll: u64) -> Option<KellyScaling> {
        if self.win_rate <= 0.0 {
            return None;
        }
        let multiplier =
            bankroll as f64 * self.win_rate / (self.standard_deviation * self.standard_deviation);
        Some(KellyScaling {
            bankroll,
            multiplier,
            bets: self
                .ramp
                .bets()
                .iter()
                .map(|&bet| multiplier * f64::from(bet))
                .collect(),
        })
    }

    /// The closed-form risk of ruin of betting the ramp forever from
    /// `bankroll` units: `exp(-2 x WR x B / SD^2)`, 1 when WR <= 0 (see
    /// the type's doc for the source and the assumption).
    pub fn risk_of_ruin(&self, bankroll: u64) -> f64 {
        if self.win_rate <= 0.0 {
            return 1.0;
        }
        let exponent = -2.0 * self.win_rate * bankroll as f64
            / (self.standard_deviation * self.standard_deviation);
        exponent.exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::{RunPlan, run, run_chunks};
    use crate::games::blackjack::player::chart::{Cell, Section};
    use crate::games::blackjack::player::rules::{DoubleOn, HoleCard, Surrender};
    use crate::games::blackjack::player::{PlayerParams, solve_float};
    use crate::games::blackjack::table::{BetRamp, CountSystem};
    use crate::games::blackjack::{Decks, Soft17};

    fn simulation(rules: PlayerRules, dealing: impl Fn(u32) -> Dealing) -> TableSimulation {
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let cards = rules.shoe().total();
        TableSimulation::with_table(&table, dealing(cards), None).unwrap()
    }

    fn summary(simulation: &TableSimulation, shoes: u64, seed: u64) -> TableSummary {
        let counts = run(simulation, &RunPlan::new(shoes, seed, 0), &NoProgress);
        TableSummary::from_tally(&simulation.layout(), &counts).unwrap()
    }

    #[test]
    fn one_round_per_shoe_agrees_with_the_exact_overall_value() {
        let base = PlayerRules::default();
        let rule_sets = [
            PlayerRules {
                decks: Decks::Finite(1),
                ..base
            },
            PlayerRules {
                decks: Decks::Finite(2),
                soft17: Soft17::Hit,
                double_after_split: false,
                ..base
            },
            PlayerRules {
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                hole_card: HoleCard::Enhc,
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                decks: Decks::Finite(8),
                hole_card: HoleCard::Enhc,
                double: DoubleOn::TenToEleven,
                surrender: Surrender::Early,
                ..base
            },
        ];
        for (seed, rules) in rule_sets.into_iter().enumerate() {
            let table = solve_float(
                &PlayerParams::full_shoe(rules, SplitModel::Cdz),
                &NoProgress,
            )
            .unwrap();
            let cards = rules.shoe().total();
            let simulation = TableSimulation::with_table(
                &table,
                Dealing::rounds_per_shoe(1, cards).unwrap(),
                None,
            )
            .unwrap();
            let summary = summary(&simulation, 1_000_000, 40 + seed as u64);
            assert_eq!(summary.n_rounds, 1_000_000);
            assert_eq!(summary.n_shoes, 1_000_000);
            // With one round a shoe the standard error by shoe is the
            // plain one.
            let plain = summary.standard_deviation / 1_000.0;
            assert!((summary.standard_error - plain).abs() < 1e-9 * plain);
            let z = (summary.mean - table.overall) / summary.standard_error;
            assert!(
                z.abs() < 5.0,
                "{rules:?}: mean {} against exact {} (z {z})",
                summary.mean,
                table.overall
            );
        }
    }

    /// The counts of `plan`, checked to be the same on one thread and two,
    /// and as two shards split at chunk `split`.
    fn same_on_threads_and_shards(
        simulation: &TableSimulation,
        plan: &RunPlan,
        split: u64,
    ) -> Vec<u64> {
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run(simulation, plan, &NoProgress))
        };
        let one = on(1);
        assert_eq!(one, on(2));
        let mut shards = run_chunks(simulation, plan, 0..split, &NoProgress);
        for (total, count) in shards.iter_mut().zip(run_chunks(
            simulation,
            plan,
            split..plan.n_chunks(),
            &NoProgress,
        )) {
            *total += count;
        }
        assert_eq!(one, shards);
        one
    }

    #[test]
    fn counts_depend_on_the_seed_not_on_threads_or_shards() {
        let rules = PlayerRules::default();
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let hi_lo = CountSystem::parse("hi-lo").unwrap();
        let simulation = TableSimulation::with_table(
            &table,
            Dealing::cut_card(0.75, 312).unwrap(),
            Some(hi_lo.tags),
        )
        .unwrap();
        let plan = RunPlan {
            n_trials: 3_000,
            seed: 9,
            stream: 0,
            chunk_size: 256,
        };
        let one = same_on_threads_and_shards(&simulation, &plan, 5);
        assert_ne!(
            one,
            run(&simulation, &RunPlan { seed: 10, ..plan }, &NoProgress)
        );
        let summary = TableSummary::from_tally(&simulation.layout(), &one).unwrap();
        assert_eq!(summary.n_shoes, 3_000);
        // Every round is counted once by net, once by events, once by true
        // count; won, lost and pushed add up.
        let by_count: u64 = summary.by_true_count.iter().map(|row| row.rounds).sum();
        assert_eq!(by_count, summary.n_rounds);
        assert_eq!(
            summary.wins + summary.losses + summary.pushes,
            summary.n_rounds
        );
        let by_shoe: u64 = summary
            .rounds_per_shoe
            .iter()
            .enumerate()
            .map(|(rounds, &shoes)| rounds as u64 * shoes)
            .sum();
        assert_eq!(by_shoe, summary.n_rounds);
    }

    /// The default rules' solved table, and its six-decks table dealt to
    /// 75% and counted with hi-lo.
    fn counted_six_decks() -> (PlayerTable<f64>, TableSimulation) {
        let table = solve_float(
            &PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let simulation = TableSimulation::with_table(
            &table,
            Dealing::cut_card(0.75, 312).unwrap(),
            Some(CountSystem::parse("hi-lo").unwrap().tags),
        )
        .unwrap();
        (table, simulation)
    }

    #[test]
    fn a_high_true_count_is_worth_more_than_a_low_one() {
        // Six decks to 75%: hi-lo's true count of +3 or more gives the
        // player the edge, -3 or less the house more than off the top (the
        // counter's whole game); both far more than five standard errors
        // apart at 20,000 shoes.
        let (table, simulation) = counted_six_decks();
        let summary = summary(&simulation, 20_000, 7);
        let pooled = |rows: &[TrueCountRow]| {
            let rounds: u64 = rows.iter().map(|row| row.rounds).sum();
            let net: f64 = rows
                .iter()
                .map(|row| row.mean.unwrap_or(0.0) * row.rounds as f64)
                .sum();
            (net / rounds as f64, (1.3 / rounds as f64).sqrt())
        };
        let zero = TRUE_COUNT_BINS / 2;
        let (low, low_se) = pooled(&summary.by_true_count[..=zero - 3]);
        let (high, high_se) = pooled(&summary.by_true_count[zero + 3..]);
        assert_eq!(summary.by_true_count[zero].label, "0");
        assert!(high > 0.0 && low < table.overall, "high {high} low {low}");
        assert!((high - low) / (low_se.hypot(high_se)) > 5.0);
    }

    #[test]
    fn a_run_s_tallies_agree_and_one_edited_in_one_place_does_not() {
        let (_, simulation) = counted_six_decks();
        let layout = simulation.layout();
        let tally = run(&simulation, &RunPlan::new(500, 3, 0), &NoProgress);
        assert_eq!(layout.check_consistent(&tally), Ok(()));
        let rounds: u64 = layout.net(&tally).iter().sum();
        let edited = |at: usize, more: u64| {
            let mut edited = tally.clone();
            edited[at] += more;
            layout.check_consistent(&edited).unwrap_err()
        };
        // 1,000 rounds more in the net results (the edit).
        assert_eq!(
            edited(TallyLayout::NET + 40, 1000),
            format!(
                "the rounds by net results count {} rounds, and its 500 shoes by rounds per shoe hold {rounds}",
                rounds + 1000
            )
        );
        assert!(edited(layout.events(), 1).starts_with("the rounds by events count"));
        assert!(edited(layout.by_true_count(), 1).starts_with("the rounds by true counts count"));
        assert!(edited(layout.rounds_per_shoe_at() + 3, 1).contains("501 shoes"));
        assert!(
            edited(layout.rounds_squares(), 1).starts_with("its sum of rounds per shoe squared")
        );
        assert!(
            edited(layout.reshuffled(), 501)
                .ends_with("shoes went on from the discards, of 500 shoes dealt")
        );
        assert!(layout.check_consistent(&tally[1..]).is_err());
    }

    fn ramp_plan(ramp: &str, enter_at: Option<i32>, leave_below: Option<i32>) -> BettingPlan {
        BettingPlan {
            ramp: BetRamp::parse(ramp).unwrap(),
            wonging: Wonging {
                enter_at,
                leave_below,
            },
        }
    }

    #[test]
    fn betting_deals_the_same_cards_and_its_counts_depend_on_the_seed_only() {
        let (_, flat) = counted_six_decks();
        let plan = ramp_plan("<=1:1,2:2,3:4,4:8,>=5:12", Some(-1), Some(-2));
        let betting = flat.clone().with_betting(plan.clone()).unwrap();
        let layout = betting.layout();
        assert_eq!(layout.betting_rows, 5);
        let run_plan = RunPlan {
            n_trials: 2_000,
            seed: 21,
            stream: 0,
            chunk_size: 128,
        };
        let tally = same_on_threads_and_shards(&betting, &run_plan, 7);
        assert_eq!(layout.check_consistent(&tally), Ok(()));
        // Betting and wonging change no card: the flat counts are the flat
        // run's, to the last.
        let flat_tally = run(&flat, &run_plan, &NoProgress);
        assert_eq!(&tally[..flat_tally.len()], &flat_tally[..]);
        let money = BettingSummary::from_tally(&layout, &tally, &plan).unwrap();
        assert_eq!(
            money.rounds_observed,
            money.rounds_by_row.iter().sum::<u64>() + {
                // The rounds sat out are the rounds observed less those played.
                money.rounds_observed - money.rounds_played
            }
        );
        assert!(money.rounds_played < money.rounds_observed);
        assert_eq!(money.initial_bet, Some(1));
        // A tally with more rounds played than dealt is caught.
        let mut edited = tally.clone();
        edited[layout.by_bet()] += money.rounds_observed;
        assert!(
            layout
                .check_consistent(&edited)
                .unwrap_err()
                .starts_with("the rounds played by bet count")
        );
    }

    #[test]
    fn a_one_unit_ramp_is_the_flat_bet() {
        let (_, flat) = counted_six_decks();
        let plan = ramp_plan("0:1", None, None);
        let betting = flat.with_betting(plan.clone()).unwrap();
        let tally = run(&betting, &RunPlan::new(3_000, 5, 0), &NoProgress);
        let layout = betting.layout();
        let table = TableSummary::from_tally(&layout, &tally).unwrap();
        let money = BettingSummary::from_tally(&layout, &tally, &plan).unwrap();
        assert_eq!(money.rounds_played, table.n_rounds);
        assert_eq!(money.total_bet, table.n_rounds);
        let tenths: i128 = table
            .net
            .iter()
            .enumerate()
            .map(|(bin, &count)| i128::from(net_tenths_of_bin(bin)) * i128::from(count))
            .sum();
        assert_eq!(money.money_tenths, tenths);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1e-12);
        assert!(close(money.win_rate, table.mean));
        assert!(close(money.standard_deviation, table.standard_deviation));
        assert!(close(money.standard_error, table.standard_error));
    }

    #[test]
    fn the_money_figures_satisfy_their_defining_identities() {
        let (_, flat) = counted_six_decks();
        let plan = ramp_plan("<=1:1,2:2,3:4,4:8,>=5:12", None, Some(-1));
        let betting = flat.with_betting(plan.clone()).unwrap();
        let tally = run(&betting, &RunPlan::new(20_000, 8, 0), &NoProgress);
        let money = BettingSummary::from_tally(&betting.layout(), &tally, &plan).unwrap();
        assert!(money.win_rate > 0.0, "{}", money.win_rate);
        // Exact: SCORE x N0 = 10^6, and (WR / SD)^2 from the integer sums
        // is SCORE / 10^6.
        let score = money.score_exact().unwrap();
        let n0 = money.n0_exact().unwrap();
        assert_eq!(
            &score * &n0,
            BigRational::from_integer(BigInt::from(1_000_000))
        );
        assert_eq!(
            &score / BigInt::from(1_000_000),
            money.edge_to_variance().unwrap()
        );
        // In f64, from the printed figures, to 1e-12 relative (a handful of
        // roundings of numbers of this size).
        let (wr, sd) = (money.win_rate, money.standard_deviation);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
        let (di, score, n0) = (
            money.desirability_index(),
            money.score().unwrap(),
            money.n0().unwrap(),
        );
        assert!(close(di * di, score), "{di} {score}");
        assert!(close(n0, 1e6 / score));
        assert!(close(n0, (sd / wr).powi(2)));
        assert!(close(di, 1000.0 * wr / sd));
        assert!(close(money.win_rate_per_100(), 100.0 * wr));
        assert!(close(money.standard_deviation_per_100(), 10.0 * sd));
        // WR and SD are the exact sums' mean and spread.
        let played = money.rounds_played as f64;
        assert!(close(wr, money.money_tenths as f64 / 10.0 / played));
        let variance =
            (money.money_squares_hundredths as f64 / 100.0 - played * wr * wr) / (played - 1.0);
        assert!((sd * sd - variance).abs() <= 1e-9 * variance);
        // Kelly: the multiplier is B WR / SD^2, and at it the closed-form
        // risk of ruin of the scaled ramp is exp(-2).
        let kelly = money.kelly(1_000).unwrap();
        assert!(close(kelly.multiplier, 1_000.0 * wr / (sd * sd)));
        assert!(close(kelly.bets[4], 12.0 * kelly.multiplier));
        let ror = money.risk_of_ruin(1_000);
        assert!(close(ror, (-2.0 * wr * 1_000.0 / (sd * sd)).exp()));
        assert!(close(ror.ln() / kelly.multiplier, -2.0));
        assert!(money.average_bet() > 1.0 && money.average_bet() < 12.0);
    }

    #[test]
    fn wonging_in_and_out_at_a_count_plays_only_at_that_count_or_more() {
        let (_, flat) = counted_six_decks();
        let plan = ramp_plan("<=0:1,1:2,>=2:4", Some(1), Some(1));
        let betting = flat.with_betting(plan.clone()).unwrap();
        let tally = run(&betting, &RunPlan::new(2_000, 4, 0), &NoProgress);
        let money = BettingSummary::from_tally(&betting.layout(), &tally, &plan).unwrap();
        assert_eq!(money.rounds_by_row[0], 0);
        assert!(money.rounds_by_row[1] > 0 && money.rounds_by_row[2] > 0);
        assert_eq!(money.initial_bet, None);
        // Hi-lo at +1 or more is about a quarter of six decks' rounds.
        let share = money.played_share();
        assert!((0.1..0.4).contains(&share), "{share}");
    }

    #[test]
    fn betting_without_a_count_is_refused() {
        let flat = simulation(PlayerRules::default(), |cards| {
            Dealing::cut_card(0.75, cards).unwrap()
        });
        let message = flat
            .with_betting(ramp_plan("0:1", None, None))
            .unwrap_err()
            .to_string();
        assert!(message.starts_with("count none: a bet ramp bets by the true count"));
    }

    #[test]
    fn a_deep_cut_in_one_deck_finishes_rounds_from_the_discards() {
        let deep = simulation(
            PlayerRules {
                decks: Decks::Finite(1),
                ..PlayerRules::default()
            },
            |cards| Dealing::cut_card(0.9, cards).unwrap(),
        );
        let summary = summary(&deep, 100_000, 3);
        assert!(summary.reshuffled_shoes > 0);
        assert!(summary.reshuffled_shoes < summary.n_shoes / 10);
        assert!((5.0..9.0).contains(&summary.mean_rounds_per_shoe()));
        assert_eq!(summary.rounds_per_shoe.len(), deep.layout().most_rounds + 1);
    }

    #[test]
    fn runs_asked_for_in_rounds_deal_about_that_many() {
        let shoe = simulation(PlayerRules::default(), |cards| {
            Dealing::cut_card(0.75, cards).unwrap()
        });
        let estimate = shoe.rounds_per_shoe_estimate();
        assert!((40.0..46.0).contains(&estimate), "{estimate}");
        assert_eq!(estimate, shoe.rounds_per_shoe_estimate());
        let shoes = shoe.shoes_for_rounds(1_000_000);
        assert_eq!(shoes, (1_000_000.0 / estimate).ceil() as u64);
        let one = simulation(PlayerRules::default(), |cards| {
            Dealing::rounds_per_shoe(1, cards).unwrap()
        });
        assert_eq!(one.shoes_for_rounds(1_000_000), 1_000_000);
        assert_eq!(one.shoes_per_chunk(), ROUNDS_PER_CHUNK);
    }

    #[test]
    fn an_infinite_deck_or_a_foreign_cut_card_is_refused() {
        let rules = PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        };
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let message =
            TableSimulation::with_table(&table, Dealing::rounds_per_shoe(1, 52).unwrap(), None)
                .unwrap_err()
                .to_string();
        assert!(message.contains("decks"), "{message}");
        let six = solve_float(
            &PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let message = TableSimulation::with_table(&six, Dealing::cut_card(0.75, 52).unwrap(), None)
            .unwrap_err()
            .to_string();
        assert!(message.contains("312"), "{message}");
    }

    /// Six decks to 75%, hi-lo: the basic chart, and the table playing it.
    fn counted_basic(dealing: Dealing) -> (ChartStrategy, TableSimulation) {
        use crate::games::blackjack::player::chart::strategy_chart;
        let (table, _) = counted_six_decks();
        let chart = ChartStrategy::from_chart(&strategy_chart(&table).unwrap()).unwrap();
        let tags = Some(CountSystem::parse("hi-lo").unwrap().tags);
        let simulation =
            TableSimulation::with_chart(PlayerRules::default(), &chart, dealing, tags).unwrap();
        (chart, simulation)
    }

    fn plays(rows: &str) -> IndexPlays {
        IndexPlays::parse_csv(&format!(
            "section,row,upcard,deviation,direction,index\n{rows}"
        ))
        .unwrap()
    }

    #[test]
    fn index_plays_are_the_chart_with_their_cells_where_they_hold() {
        let dealing = Dealing::cut_card(0.75, 312).unwrap();
        let (chart, basic) = counted_basic(dealing);
        let plan = RunPlan::new(2_000, 11, 0);
        let tally_of = |simulation: &TableSimulation| run(simulation, &plan, &NoProgress);
        // The I18's insurance and a few plays, on 1 or 2 threads and in
        // shards: the same counts.
        let counting = basic
            .clone()
            .with_index_plays(
                plays(
                    "insurance,,A,I,>=,3\nhard,16,T,S,>=,0\nhard,12,4,H,<,0\npairs,TT,6,P,>=,4\n",
                ),
                &chart,
            )
            .unwrap();
        let sharded = same_on_threads_and_shards(
            &counting,
            &RunPlan {
                chunk_size: 128,
                ..plan
            },
            7,
        );
        assert_eq!(counting.layout().check_consistent(&sharded), Ok(()));
        // A play that never holds: the basic table's every count.
        let never = basic
            .clone()
            .with_index_plays(plays("hard,16,T,S,>=,99\n"), &chart)
            .unwrap();
        assert_eq!(tally_of(&never), tally_of(&basic));
        // One that always holds: the chart with that cell (two cards and
        // three), every count the same; and not the basic table's.
        let always = basic
            .clone()
            .with_index_plays(plays("hard,16,T,S,>=,-99\n"), &chart)
            .unwrap();
        let mut edited = chart.clone();
        edited.set_cell(Section::Hard, 16, 10, Cell::Stand);
        edited.set_cell(Section::MultiCardHard, 16, 10, Cell::Stand);
        let tags = Some(CountSystem::parse("hi-lo").unwrap().tags);
        let standing =
            TableSimulation::with_chart(PlayerRules::default(), &edited, dealing, tags).unwrap();
        assert_eq!(tally_of(&always), tally_of(&standing));
        assert_ne!(tally_of(&always), tally_of(&basic));
    }

    #[test]
    fn insurance_nets_its_exact_value_and_changes_nothing_else() {
        // One round a shoe, insuring every ace: the hole card is a card of
        // the shoe less the upcard, a ten with probability 96/311, so
        // insurance nets (24/312) (96/311 - 0.5 x 215/311) a round. The
        // cards dealt are those of the table that never insures, so every
        // round's net differs by its insurance alone, exactly.
        let dealing = Dealing::rounds_per_shoe(1, 312).unwrap();
        let (chart, basic) = counted_basic(dealing);
        let insuring = basic
            .clone()
            .with_index_plays(plays("insurance,,A,I,>=,-99\n"), &chart)
            .unwrap();
        let shoes = 400_000;
        let plan = RunPlan::new(shoes, 5, 0);
        let with = run(&insuring, &plan, &NoProgress);
        let without = run(&basic, &plan, &NoProgress);
        let layout = insuring.layout();
        assert!(layout.insurance);
        assert_eq!(layout.check_consistent(&with), Ok(()));
        let summary = TableSummary::from_tally(&layout, &with).unwrap();
        let plain = TableSummary::from_tally(&basic.layout(), &without).unwrap();
        let insurance = summary.insurance.clone().unwrap();
        let tenths = |s: &TableSummary| -> i64 {
            s.net
                .iter()
                .enumerate()
                .map(|(bin, &count)| i64::from(s.lowest_net_tenths + bin as i32) * count as i64)
                .sum()
        };
        assert_eq!(tenths(&summary) - tenths(&plain), insurance.net_tenths());
        assert_eq!(summary.events, plain.events);
        // The insured rounds are the aces up: 1 in 13, by the binomial.
        let n = shoes as f64;
        let p_ace = 24.0 / 312.0;
        let z_aces = (insurance.insured as f64 - n * p_ace) / (n * p_ace * (1.0 - p_ace)).sqrt();
        assert!(z_aces.abs() < 5.0, "aces z = {z_aces}");
        let p_ten = 96.0 / 311.0;
        let insured = insurance.insured as f64;
        let z_tens =
            (insurance.won as f64 - insured * p_ten) / (insured * p_ten * (1.0 - p_ten)).sqrt();
        assert!(z_tens.abs() < 5.0, "tens z = {z_tens}");
        // Its net a round against the exact value, by its own spread.
        let exact = p_ace * (p_ten - 0.5 * (1.0 - p_ten));
        let per_round = insurance.per_round(summary.n_rounds);
        let second_moment = p_ace * (p_ten + 0.25 * (1.0 - p_ten));
        let standard_error = ((second_moment - exact * exact) / n).sqrt();
        let z = (per_round - exact) / standard_error;
        assert!(
            z.abs() < 5.0,
            "insurance {per_round} against {exact}: z = {z}"
        );
    }

    #[test]
    fn index_plays_need_a_count_and_the_peek() {
        let dealing = Dealing::cut_card(0.75, 312).unwrap();
        let (chart, _) = counted_basic(dealing);
        let uncounted =
            TableSimulation::with_chart(PlayerRules::default(), &chart, dealing, None).unwrap();
        let message = uncounted
            .with_index_plays(plays("hard,16,T,S,>=,0\n"), &chart)
            .unwrap_err()
            .to_string();
        assert!(message.contains("count"), "{message}");
        let rules = PlayerRules {
            hole_card: HoleCard::Enhc,
            ..PlayerRules::default()
        };
        let tags = Some(CountSystem::parse("hi-lo").unwrap().tags);
        let enhc = TableSimulation::with_chart(rules, &chart, dealing, tags).unwrap();
        let message = enhc
            .with_index_plays(plays("hard,16,T,S,>=,0\n"), &chart)
            .unwrap_err()
            .to_string();
        assert!(message.contains("peek"), "{message}");
    }
}
