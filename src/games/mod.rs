//! The games, one file each: rules, parameters and the play function that
//! every engine runs.
//!
//! Architecture invariant: a game's rules are written once, here. Exact
//! enumerators and the Monte-Carlo runner call into these files; they never
//! restate a rule.

use std::hash::Hash;

use crate::cards::Card;

pub mod blackjack;
pub mod idiots_delight;
pub mod klondike;
pub mod prisoners_patience;
pub mod roll_call;

/// A game that consumes its deal one card at a time, from the first card to
/// the last, and whose outcome is known once the deck is exhausted.
///
/// [`SequentialGame::play`] is nothing but [`SequentialGame::start`], one
/// [`SequentialGame::deal`] per card and [`SequentialGame::outcome`], and the
/// memoised enumerator (`crate::exact::sequential`) calls exactly those three
/// functions. A game may also drive the same rule faster for Monte Carlo
/// (Idiot's Delight's `play_lanes` plays eight deals at once); it then runs
/// the exhaustive enumerator through that driver too, so that the memoised
/// count against the exhaustive one proves the two drivers equal.
pub trait SequentialGame: Sync {
    /// Everything the game remembers about the cards dealt so far.
    type State: Clone + Send + Sync;

    /// A memo key for a state together with the cards still to come.
    type Key: Hash + Eq + Send + Sync;

    /// The number of outcome bins; [`SequentialGame::outcome`] returns an
    /// index below it.
    fn n_outcomes(&self) -> usize;

    /// The state before the first card.
    fn start(&self) -> Self::State;

    /// Deals `card` into `state` and plays out every consequence of it.
    /// Must not allocate: it is the hot loop.
    fn deal(&self, state: &mut Self::State, card: Card);

    /// The outcome bin of a state once the deck is exhausted.
    fn outcome(&self, state: &Self::State) -> usize;

    /// A key for (`state`, cards still to come), or `None` if this state is
    /// not to be memoised.
    ///
    /// `remaining[i]` is how many copies of `values[i]` are still to come,
    /// where `values` is the deck's distinct cards in sorted order.
    ///
    /// Soundness contract: two (state, remaining) pairs with equal keys
    /// must have the same number of arrangements of the remaining cards
    /// leading to each outcome. A key may merge states that differ only by
    /// a symmetry of the game (relabelling suits, say); it must never merge
    /// more.
    fn memo_key(&self, state: &Self::State, values: &[Card], remaining: &[u8])
    -> Option<Self::Key>;

    /// Plays a whole deal, in order, and returns its outcome bin.
    #[inline]
    fn play(&self, deal: &[Card]) -> usize {
        let mut state = self.start();
        for &card in deal {
            self.deal(&mut state, card);
        }
        self.outcome(&state)
    }
}
