//! Prisoner's patience, RULES.md section 3.
//!
//! The deck is `S` suits x `R` ranks; suits never matter, only ranks, and
//! two ranks *fit* when they differ by one round the cycle 1, 2, ..., R, 1
//! (so A and K fit on the standard deck). Each card is dealt as a new stack
//! at the right end of a row; then sweeps repeat until one makes no move.
//! A sweep drops empty stacks, stops if one stack is left, and otherwise
//! goes from the rightmost stack `i` down to the second: stack `i` moves
//! onto stack `i - 1` if their tops fit, else onto stack `i - 3` (when it
//! exists) if those tops fit. The outcome is the number of stacks when the
//! deck is exhausted: 1 is a win.
//!
//! How a stack moves is a parameter ([`StackMove`]): the seed's program
//! pops and pushes card by card, which reverses the moved cards, so the
//! target's new top is the moved stack's old *bottom*; a person moves the
//! stack as a unit, keeping its top on top.
//!
//! [`PrisonersPatience::deal`] is the one play function: the Monte-Carlo
//! runner, both exact enumerators (through [`SequentialGame`]) and `replay`
//! all call it. A stack is what the rules read of it and nothing more: its
//! top, its bottom (read only under [`StackMove::Reversed`]) and its size
//! (read by no rule; kept so that tests can check that no card is lost).
//!
//! Removing an emptied stack at once, rather than at the start of the next
//! sweep as RULES.md words it, changes nothing: the sweep runs leftwards,
//! so after stack `i` moves, it only ever reads stacks left of `i`, whose
//! positions the removal does not change, and the next sweep begins by
//! dropping the empty stacks anyway.

pub mod search;

use std::fmt;

use num_traits::ToPrimitive;

use crate::cards::{Card, RankDeck};
use crate::engine::SequentialGame;
use crate::engine::Simulation;
use crate::engine::arrangements;
use crate::error::{Error, Result};
use crate::rng::{GameRng, shuffle};

/// The most ranks (the rank cycle 1..=R).
pub const MAX_RANKS: u8 = 13;

/// The fewest ranks: with two, every pair of different ranks fits both
/// ways round the cycle and the game is degenerate.
pub const MIN_RANKS: u8 = 3;

/// The most cards a deck may have (the row is a fixed array).
pub const MAX_CARDS: usize = 64;

/// How a stack moves onto another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StackMove {
    /// Card by card, popping and pushing, as the seed's program does: the
    /// moved cards land in reverse order (the default).
    Reversed,
    /// As a unit, as a person moves a stack: its top stays on top.
    Kept,
}

impl StackMove {
    /// Parses `reversed` or `kept`.
    pub fn parse(text: &str) -> Result<StackMove> {
        match text {
            "reversed" => Ok(StackMove::Reversed),
            "kept" => Ok(StackMove::Kept),
            _ => Err(Error::invalid(
                "stack_move",
                text,
                "must be \"reversed\" (card by card, the seed's program) or \"kept\" (as a unit)",
            )),
        }
    }

    /// The name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            StackMove::Reversed => "reversed",
            StackMove::Kept => "kept",
        }
    }
}

/// The version played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrisonersParams {
    /// Suits: copies of each rank, at least 1.
    pub suits: u8,
    /// Ranks, 3..=13 (the cycle that decides which ranks fit).
    pub ranks: u8,
    /// How a stack moves.
    pub stack_move: StackMove,
}

impl Default for PrisonersParams {
    /// The standard game: 4 suits x 13 ranks, stacks moved card by card.
    fn default() -> PrisonersParams {
        PrisonersParams {
            suits: 4,
            ranks: 13,
            stack_move: StackMove::Reversed,
        }
    }
}

/// A deck's shape as titles and messages name it: `4 suits x 13 ranks`,
/// `1 suit x 12 ranks`.
fn deck_shape(suits: u8, ranks: u8) -> String {
    let plural = |n: u8, noun: &str| match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    };
    format!("{} x {}", plural(suits, "suit"), plural(ranks, "rank"))
}

impl fmt::Display for PrisonersParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, stack move {}",
            deck_shape(self.suits, self.ranks),
            self.stack_move.name()
        )
    }
}

/// One stack: what the rules read of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stack {
    /// The rank on top, 1..=R.
    pub top: u8,
    /// The rank at the bottom (the new top after a reversed move).
    pub bottom: u8,
    /// Cards in the stack.
    pub size: u8,
}

/// The row of stacks, left to right. A fixed array: dealing never
/// allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    stacks: [Stack; MAX_CARDS],
    len: u8,
}

impl Table {
    /// The stacks, left to right.
    pub fn stacks(&self) -> &[Stack] {
        &self.stacks[..usize::from(self.len)]
    }

    /// How many stacks there are.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether no card has been dealt.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One move, as [`Observer`] hears it: the stack at `from` (its index
/// before the move) went onto the stack at `to` (`from - 1` or `from - 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Index of the stack moved, counted from 0 at the left.
    pub from: usize,
    /// Index of the stack it went onto.
    pub to: usize,
}

/// What [`PrisonersPatience::deal_with`] reports, for `replay`.
pub trait Observer {
    /// Whether play should send the reports at all.
    const WATCHING: bool = true;
    /// A card was dealt as a new stack at the right end of `table`.
    fn dealt(&mut self, _table: &Table) {}
    /// A stack moved; `table` is the row after the move (the emptied stack
    /// already removed).
    fn moved(&mut self, _step: Move, _table: &Table) {}
    /// No more moves until the next card.
    fn settled(&mut self, _table: &Table) {}
}

/// The observer that watches nothing.
pub struct Silent;

impl Observer for Silent {
    const WATCHING: bool = false;
}

/// The game for one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrisonersPatience {
    params: PrisonersParams,
    /// `fits[a]` has bit `b` set when ranks `a` and `b` fit.
    fits: [u16; MAX_RANKS as usize + 1],
}

impl PrisonersPatience {
    /// Checks the version: 3..=13 ranks, at least one suit, at most
    /// [`MAX_CARDS`] cards.
    pub fn new(params: PrisonersParams) -> Result<PrisonersPatience> {
        if !(MIN_RANKS..=MAX_RANKS).contains(&params.ranks) {
            return Err(Error::invalid(
                "ranks",
                params.ranks,
                "must be 3 to 13 (with 2 ranks every pair of different ranks fits)",
            ));
        }
        if params.suits == 0 {
            return Err(Error::invalid("suits", params.suits, "must be at least 1"));
        }
        let n = usize::from(params.ranks) * usize::from(params.suits);
        if n > MAX_CARDS {
            return Err(Error::invalid(
                "suits x ranks",
                format!("{} x {} = {n} cards", params.suits, params.ranks),
                format!("must be at most {MAX_CARDS} cards"),
            ));
        }
        let ranks = params.ranks;
        let mut fits = [0u16; MAX_RANKS as usize + 1];
        for a in 1..=ranks {
            for b in 1..=ranks {
                if fit(ranks, a, b) {
                    fits[usize::from(a)] |= 1 << b;
                }
            }
        }
        Ok(PrisonersPatience { params, fits })
    }

    /// The standard game.
    pub fn standard() -> PrisonersPatience {
        PrisonersPatience::new(PrisonersParams::default()).expect("the standard game is valid")
    }

    /// The version played.
    pub fn params(&self) -> PrisonersParams {
        self.params
    }

    /// Cards in the deck.
    pub fn n_cards(&self) -> usize {
        usize::from(self.params.ranks) * usize::from(self.params.suits)
    }

    /// The deck in rank order, as ranks: 1..=R, each `suits` times.
    pub fn sorted_ranks(&self) -> Vec<u8> {
        self.deck().sorted_ranks()
    }

    /// The deck as the enumerators take it: `suits` identical cards of each
    /// rank (suits never matter).
    pub fn exact_deck(&self) -> Vec<Card> {
        self.deck().cards()
    }

    /// Outcome labels: the possible numbers of stacks left, `"1"` (a win)
    /// to `"n"`.
    pub fn outcome_labels(&self) -> Vec<String> {
        (1..=self.n_cards()).map(|k| k.to_string()).collect()
    }

    /// Estimates the exhaustive enumeration's time in seconds on the
    /// reference machine (two threads): every arrangement of the deck at
    /// the time one took there.
    pub fn exhaustive_seconds(&self) -> f64 {
        arrangements::n_arrangements(&self.exact_deck())
            .to_f64()
            .unwrap_or(f64::INFINITY)
            * EXHAUSTIVE_SECONDS_PER_ARRANGEMENT
    }

    /// The deck's shape, as messages and titles name it: `4 suits x 13
    /// ranks`.
    pub fn deck_name(&self) -> String {
        deck_shape(self.params.suits, self.params.ranks)
    }

    /// Checks that `deal` is an arrangement of this deck: ranks 1..=R,
    /// each exactly `suits` times. The error names `deal`.
    pub fn check_deal(&self, deal: &[u8]) -> Result<()> {
        self.deck().check_deal(deal)
    }

    /// The deck: only ranks matter.
    pub fn deck(&self) -> RankDeck {
        RankDeck {
            ranks: self.params.ranks,
            copies: self.params.suits,
        }
    }

    /// Whether ranks `a` and `b` fit.
    #[inline]
    pub fn fits(&self, a: u8, b: u8) -> bool {
        self.fits[usize::from(a)] >> b & 1 == 1
    }

    /// The empty row.
    pub fn empty_table(&self) -> Table {
        Table {
            stacks: [Stack::default(); MAX_CARDS],
            len: 0,
        }
    }

    /// Deals `rank` as a new stack and sweeps until a sweep makes no move,
    /// telling `observer`. The rules of RULES.md section 3, the only place
    /// they are written.
    ///
    /// Why a sweep may skip the stacks left of `floor`: before the card is
    /// dealt the row is settled (the last sweep moved nothing), so a stack
    /// can move only if its top, or the top one or three to its left,
    /// changed since, or a removal shifted it (a removal at index `j`
    /// shifts only stacks right of `j`). Every change comes from a move:
    /// the target's top (`floor` drops to the target, covering it and the
    /// stacks one and three to its right) and the removal of the moved
    /// stack, which lies right of its target. Within a sweep the stacks
    /// from the right end down to `floor` are visited; the next sweep
    /// starts again from the right end down to the lowest target of this
    /// one, which covers every stack changed or shifted in it. Tested
    /// against the rules applied literally (whole stacks, every stack
    /// visited, empties dropped at the start of each sweep).
    #[inline]
    pub fn deal_with<O: Observer>(&self, table: &mut Table, rank: u8, observer: &mut O) {
        let mut len = usize::from(table.len);
        table.stacks[len] = Stack {
            top: rank,
            bottom: rank,
            size: 1,
        };
        len += 1;
        if O::WATCHING {
            table.len = len as u8;
            observer.dealt(table);
        }
        // Each sweep; the emptied stacks are already gone (module
        // documentation). A sweep visits only stacks at `floor` or right of
        // it: the rest cannot move (see below), so skipping them changes
        // nothing but the time.
        let mut floor = len - 1;
        while len > 1 {
            let mut moves = 0;
            // The lowest target of this sweep's moves.
            let mut lowest_target = len;
            let mut i = len - 1;
            while i >= floor.max(1) {
                let top = table.stacks[i].top;
                let to = if self.fits(top, table.stacks[i - 1].top) {
                    Some(i - 1)
                } else if i >= 3 && self.fits(top, table.stacks[i - 3].top) {
                    Some(i - 3)
                } else {
                    None
                };
                if let Some(to) = to {
                    let moved = table.stacks[i];
                    let target = &mut table.stacks[to];
                    target.top = match self.params.stack_move {
                        StackMove::Reversed => moved.bottom,
                        StackMove::Kept => moved.top,
                    };
                    target.size += moved.size;
                    table.stacks.copy_within(i + 1..len, i);
                    len -= 1;
                    moves += 1;
                    // The target's top changed, so it and the stacks that
                    // compare with it (one and three to its right) must be
                    // looked at again; those left of it are untouched.
                    floor = floor.min(to);
                    lowest_target = lowest_target.min(to);
                    if O::WATCHING {
                        table.len = len as u8;
                        observer.moved(Move { from: i, to }, table);
                    }
                }
                i -= 1;
            }
            if moves == 0 {
                break;
            }
            floor = lowest_target;
        }
        table.len = len as u8;
        if O::WATCHING {
            observer.settled(table);
        }
    }

    /// Plays a whole deal of ranks and returns the number of stacks left
    /// (1 = won).
    pub fn play_ranks(&self, deal: &[u8]) -> usize {
        let mut table = self.empty_table();
        for &rank in deal {
            self.deal_with(&mut table, rank, &mut Silent);
        }
        table.len()
    }
}

/// Whether ranks `a` and `b` (1..=`ranks`) differ by one round the cycle.
pub fn fit(ranks: u8, a: u8, b: u8) -> bool {
    let difference = (a + ranks - b) % ranks;
    difference == 1 || difference == ranks - 1
}

/// Seconds per arrangement of the exhaustive enumeration on the reference
/// machine (two threads), for the up-front estimate.
const EXHAUSTIVE_SECONDS_PER_ARRANGEMENT: f64 = 40e-9;

/// The most cards the memoised enumerator takes (the size of its key).
pub const EXACT_MAX_CARDS: usize = 24;

/// A memo key: the number of stacks, each stack's top and bottom (four
/// bits each), then how many cards of each rank are still to come.
pub type MemoKey = [u8; 1 + EXACT_MAX_CARDS + MAX_RANKS as usize];

impl PrisonersPatience {
    /// The memo key of (`table`, cards to come) after renaming the ranks by
    /// `rename` (a symmetry of the rank cycle).
    fn key_under(&self, table: &Table, to_come: &[u8], rename: impl Fn(u8) -> u8) -> MemoKey {
        let mut key = [0u8; 1 + EXACT_MAX_CARDS + MAX_RANKS as usize];
        key[0] = table.len;
        for (slot, stack) in key[1..].iter_mut().zip(table.stacks()) {
            // The bottom is read only when stacks move reversed.
            let bottom = match self.params.stack_move {
                StackMove::Reversed => rename(stack.bottom),
                StackMove::Kept => 0,
            };
            *slot = rename(stack.top) << 4 | bottom;
        }
        for (rank, &copies) in (1..=self.params.ranks).zip(to_come) {
            key[EXACT_MAX_CARDS + usize::from(rename(rank))] = copies;
        }
        key
    }
}

/// The rules applied literally, as the seed's program states them, for
/// tests to check [`PrisonersPatience::deal_with`] against: whole stacks
/// of cards (bottom first), moved card by card or as a unit, every stack
/// visited in every sweep, empty stacks dropped at the start of each sweep.
/// Slow (it allocates); returns the number of stacks left.
#[doc(hidden)]
pub fn literally(params: PrisonersParams, deal: &[u8]) -> usize {
    let p = params;
    let mut table: Vec<Vec<u8>> = Vec::new();
    for &rank in deal {
        table.push(vec![rank]);
        loop {
            table.retain(|stack| !stack.is_empty());
            if table.len() == 1 {
                break;
            }
            let mut moved = false;
            for i in (1..table.len()).rev() {
                let top = *table[i].last().expect("a stack holds cards");
                let target = if fit(p.ranks, top, *table[i - 1].last().expect("a stack")) {
                    Some(i - 1)
                } else if i >= 3 && fit(p.ranks, top, *table[i - 3].last().expect("a stack")) {
                    Some(i - 3)
                } else {
                    None
                };
                if let Some(to) = target {
                    let mut cards = std::mem::take(&mut table[i]);
                    match p.stack_move {
                        StackMove::Reversed => {
                            while let Some(card) = cards.pop() {
                                table[to].push(card);
                            }
                        }
                        StackMove::Kept => table[to].append(&mut cards),
                    }
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
    table.retain(|stack| !stack.is_empty());
    table.len()
}

impl SequentialGame for PrisonersPatience {
    type State = Table;
    type Key = MemoKey;

    /// Outcome `k` is `k + 1` stacks.
    fn n_outcomes(&self) -> usize {
        self.n_cards()
    }

    fn start(&self) -> Table {
        self.empty_table()
    }

    #[inline]
    fn deal(&self, table: &mut Table, card: Card) {
        self.deal_with(table, card.rank(), &mut Silent);
    }

    #[inline]
    fn outcome(&self, table: &Table) -> usize {
        table.len() - 1
    }

    /// The key is canonical under the symmetries of the rank cycle: the
    /// `2 R` rotations and reflections `r -> +-r + k (mod R)` keep which
    /// ranks fit, so they keep every move and the number of stacks; the
    /// key is the least over all of them. Sizes are left out: no rule
    /// reads them.
    fn memo_key(&self, table: &Table, values: &[Card], remaining: &[u8]) -> Option<MemoKey> {
        if self.n_cards() > EXACT_MAX_CARDS {
            return None;
        }
        // Cards to come by rank (the enumerator's values are ranks of suit
        // 0, in order, but may skip none: the deck holds every rank).
        let mut to_come = [0u8; MAX_RANKS as usize];
        for (card, &copies) in values.iter().zip(remaining) {
            to_come[usize::from(card.rank()) - 1] = copies;
        }
        let ranks = self.params.ranks;
        let to_come = &to_come[..usize::from(ranks)];
        let mut best = None;
        for shift in 0..ranks {
            for reflect in [false, true] {
                // Rank r (1..=R) as 0..R, mapped, and back.
                let rename = |rank: u8| {
                    let r = rank - 1;
                    let r = if reflect { (ranks - r) % ranks } else { r };
                    (r + shift) % ranks + 1
                };
                let key = self.key_under(table, to_come, rename);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best
    }
}

/// The Monte-Carlo adapter: a uniform shuffle of the ranks, one game, the
/// number of stacks.
pub struct PrisonersSimulation {
    game: PrisonersPatience,
}

impl PrisonersSimulation {
    /// The simulation of `game`.
    pub fn new(game: PrisonersPatience) -> PrisonersSimulation {
        PrisonersSimulation { game }
    }
}

impl Simulation for PrisonersSimulation {
    /// The deck (ranks), sorted at the start of every chunk.
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        self.game.n_cards()
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.game.sorted_ranks()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, deck: &mut Vec<u8>, counts: &mut [u64]) {
        shuffle(rng, deck);
        counts[self.game.play_ranks(deck) - 1] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    fn game(suits: u8, ranks: u8, stack_move: StackMove) -> PrisonersPatience {
        PrisonersPatience::new(PrisonersParams {
            suits,
            ranks,
            stack_move,
        })
        .unwrap()
    }

    #[test]
    fn fit_is_a_difference_of_one_round_the_cycle() {
        assert!(fit(13, 1, 13) && fit(13, 13, 1) && fit(13, 5, 6) && fit(13, 6, 5));
        assert!(!fit(13, 5, 7) && !fit(13, 5, 5) && !fit(13, 1, 12));
        // Three ranks: every two different ranks fit.
        assert!(fit(3, 1, 2) && fit(3, 1, 3) && fit(3, 2, 3) && !fit(3, 2, 2));
        let standard = PrisonersPatience::standard();
        for a in 1..=13 {
            for b in 1..=13 {
                assert_eq!(standard.fits(a, b), fit(13, a, b));
            }
        }
    }

    #[test]
    fn the_seed_example() {
        // C5 D9 C7, then C8: C8 onto C7, then that stack (top C8) onto D9,
        // then onto... the seed ends with C5 and one stack of three.
        let game = PrisonersPatience::standard();
        let mut table = game.empty_table();
        for rank in [5, 9, 7, 8] {
            game.deal_with(&mut table, rank, &mut Silent);
        }
        let stacks = table.stacks();
        assert_eq!(stacks.len(), 2);
        assert_eq!((stacks[0].top, stacks[0].size), (5, 1));
        assert_eq!(stacks[1].size, 3);
    }

    #[test]
    fn play_equals_the_literal_rules() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
        for stack_move in [StackMove::Reversed, StackMove::Kept] {
            for (suits, ranks) in [(4, 13), (2, 3), (3, 4), (2, 7), (1, 12), (5, 8), (4, 5)] {
                let game = game(suits, ranks, stack_move);
                let mut deal = game.sorted_ranks();
                for _ in 0..20_000 {
                    deal.shuffle(&mut rng);
                    assert_eq!(
                        game.play_ranks(&deal),
                        literally(game.params(), &deal),
                        "{} {deal:?}",
                        game.params()
                    );
                }
            }
        }
    }

    #[test]
    fn no_card_is_lost() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(32);
        for stack_move in [StackMove::Reversed, StackMove::Kept] {
            let game = game(4, 13, stack_move);
            let mut deal = game.sorted_ranks();
            for _ in 0..2_000 {
                deal.shuffle(&mut rng);
                let mut table = game.empty_table();
                for (dealt, &rank) in deal.iter().enumerate() {
                    game.deal_with(&mut table, rank, &mut Silent);
                    let cards: usize = table.stacks().iter().map(|s| usize::from(s.size)).sum();
                    assert_eq!(cards, dealt + 1);
                }
            }
        }
    }

    /// The memoised enumerator (canonical keys under the rank cycle's
    /// symmetries, a memo from 2 cards to come) against every arrangement
    /// played, on every deck of up to 9 cards.
    #[test]
    fn memoised_equals_exhaustive_on_small_decks() {
        use crate::engine::NoProgress;
        use crate::engine::Shard;
        use crate::engine::arrangements::count_arrangements;
        use crate::engine::sequential::{SequentialParams, count_outcomes};
        let params = SequentialParams {
            min_memo_remaining: 2,
            ..SequentialParams::default()
        };
        for stack_move in [StackMove::Reversed, StackMove::Kept] {
            for ranks in 3..=9u8 {
                for suits in 1..=3u8 {
                    if usize::from(suits) * usize::from(ranks) > 9 {
                        continue;
                    }
                    let game = game(suits, ranks, stack_move);
                    let deck = game.exact_deck();
                    let (memoised, _) = count_outcomes(&game, &deck, &params, &NoProgress).unwrap();
                    let exhaustive = count_arrangements(
                        &deck,
                        game.n_outcomes(),
                        |deal: &[Card]| game.play(deal),
                        Shard::WHOLE,
                        &NoProgress,
                    )
                    .unwrap();
                    assert_eq!(memoised, exhaustive, "{}", game.params());
                }
            }
        }
    }

    #[test]
    fn bad_versions_are_refused_by_name() {
        let bad = |suits, ranks| {
            PrisonersPatience::new(PrisonersParams {
                suits,
                ranks,
                stack_move: StackMove::Reversed,
            })
            .unwrap_err()
            .to_string()
        };
        assert!(bad(4, 2).starts_with("ranks 2:"));
        assert!(bad(4, 14).starts_with("ranks 14:"));
        assert!(bad(0, 13).starts_with("suits 0:"));
        assert!(bad(5, 13).starts_with("suits x ranks 5 x 13"));
        assert!(
            StackMove::parse("sideways")
                .unwrap_err()
                .to_string()
                .starts_with("stack_move sideways:")
        );
        let game = PrisonersPatience::standard();
        assert!(game.check_deal(&[1, 2, 3]).is_err());
    }
}
