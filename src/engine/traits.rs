//! The traits a game implements to be run by the engines: [`Simulation`]
//! for the Monte-Carlo runner, [`SequentialGame`] for the memoised
//! enumerator, [`Player`] for the exhaustive one; and [`Progress`], through
//! which every engine reports how far it has got without doing I/O.

use std::hash::Hash;

use crate::cards::Card;
use crate::rng::GameRng;

/// A game as the runner sees it: a way to play one random trial and count
/// its outcome.
pub trait Simulation: Sync {
    /// Scratch space reused across the trials of one chunk (a deck to
    /// shuffle, say), so that the hot loop never allocates.
    type Scratch;

    /// The number of counters a trial adds to: the outcome bins of a game
    /// with one outcome, or the bins of several distributions side by side
    /// for a game that reports several at once (each trial then adds one in
    /// each distribution's range).
    fn n_bins(&self) -> usize;

    /// Fresh scratch space, made at the start of every chunk. A chunk's
    /// result must depend only on its generator, so the scratch must always
    /// start the same way.
    fn new_scratch(&self) -> Self::Scratch;

    /// Plays one trial with `rng` and adds one to `counts` (of length
    /// [`Simulation::n_bins`]) at its outcome bin, or at each of its bins.
    fn trial(&self, rng: &mut GameRng, scratch: &mut Self::Scratch, counts: &mut [u64]);

    /// Plays `n_trials` trials with `rng`, each counted as
    /// [`Simulation::trial`] counts it; this is what the runner calls.
    ///
    /// Contract: the counts are exactly those of calling
    /// [`Simulation::trial`] `n_trials` times (the same draws from `rng` in
    /// the same order, the same scratch carried from trial to trial). A
    /// game overrides it only to play several deals at once, which is
    /// faster when a game is limited by unpredictable branches.
    fn trials(
        &self,
        rng: &mut GameRng,
        scratch: &mut Self::Scratch,
        n_trials: u64,
        counts: &mut [u64],
    ) {
        for _ in 0..n_trials {
            self.trial(rng, scratch, counts);
        }
    }
}

/// Receives progress from a run, in trials completed. Implementations must
/// be cheap: they are called once per chunk, from any thread.
pub trait Progress: Sync {
    /// `trials` more trials are done.
    fn advance(&self, trials: u64);

    /// Whether the caller asked the work to stop (a program embedding
    /// deckodds, on Ctrl-C). The exact enumerators read it between tasks:
    /// once it is set they start no new task and return the error of
    /// [`stopped_on_request`] (an interrupt), never a partial result. By
    /// default, never.
    fn stop_requested(&self) -> bool {
        false
    }
}

/// The error of an enumeration stopped on request (see
/// [`Progress::stop_requested`]).
pub fn stopped_on_request() -> crate::error::Error {
    crate::error::Error::Interrupted {
        message: "interrupted: the exact enumeration was stopped before it finished".into(),
    }
}

/// Progress that goes nowhere.
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _trials: u64) {}
}

/// How the enumerator plays arrangements. A plain play function
/// (`Fn(&[Card]) -> usize`, returning the outcome bin) is a player; a game
/// whose driver plays several deals at once implements it to be handed
/// arrangements one by one and play them in batches.
pub trait Player: Sync {
    /// A task's workspace (for a batching player, the batch being filled).
    type Workspace;

    /// A fresh workspace, made once per task.
    fn workspace(&self) -> Self::Workspace;

    /// Plays `deal`, now or at the latest at the next [`Player::flush`],
    /// adding one to `tally` at its outcome bin (or at each of its bins, for
    /// a game reporting several distributions side by side). `deal` is only
    /// valid during the call, so a batching player copies it.
    fn add(&self, workspace: &mut Self::Workspace, deal: &[Card], tally: &mut [u64]);

    /// Plays whatever [`Player::add`] has kept back; called at the end of
    /// every task.
    fn flush(&self, workspace: &mut Self::Workspace, tally: &mut [u64]);
}

/// A play function plays one arrangement at a time.
impl<F: Fn(&[Card]) -> usize + Sync> Player for F {
    type Workspace = ();

    fn workspace(&self) {}

    #[inline]
    fn add(&self, _: &mut (), deal: &[Card], tally: &mut [u64]) {
        tally[self(deal)] += 1;
    }

    fn flush(&self, _: &mut (), _: &mut [u64]) {}
}

/// A game that consumes its deal one card at a time, from the first card to
/// the last, and whose outcome is known once the deck is exhausted.
///
/// [`SequentialGame::play`] is nothing but [`SequentialGame::start`], one
/// [`SequentialGame::deal`] per card and [`SequentialGame::outcome`], and the
/// memoised enumerator (`crate::engine::sequential`) calls exactly those three
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
