//! Prisoner's patience with free choice: which deals can be won at all.
//!
//! The game (RULES.md section 3, `crate::games::prisoners_patience`) plays
//! a fixed sweep. Here the player chooses: after each card is dealt (a new
//! stack at the right end), any number of moves, in any order; a move takes
//! a stack `i` whose top fits the top of stack `i - 1` or of stack `i - 3`
//! (the player picks the target) and puts it there under the game's
//! [`StackMove`] rule, and the emptied stack disappears (the stacks to its
//! right shift left by one). Moves may also be made after the last card. A
//! deal is *winnable* when some choice of moves ends with a single stack.
//!
//! # Deal everything first
//!
//! Dealing a card appends a stack at the right end: it changes no existing
//! stack and no existing index. So a move made just before a deal can be
//! made just after it, to the same effect (the move, then the deal, gives
//! the same row as the deal, then the move: the new stack only shifts with
//! the others). Moving every deal of a winning sequence to the front (each
//! swap moves a deal earlier past a move, so the rewriting ends) gives a
//! winning sequence that deals all the cards and then moves; and a sequence
//! of moves after the last card is allowed. So a deal is winnable exactly
//! when the row of all its cards, one stack each, can be brought down to
//! one stack, and that is what the search decides. Its witness is then
//! timed back into the deal: each move is made as soon as the stacks up to
//! the one it moves are all dealt and the moves before it are made (stacks
//! keep their left-to-right order, so the stacks dealt at any time are the
//! leftmost ones, in the shape the full row has then).
//!
//! # The search
//!
//! [`Solver::solve`] first plays the fixed sweep, recording its moves: if
//! the sweep wins, the deal is winnable and the sweep's moves are the
//! witness. Otherwise a depth-first search from the full row tries every
//! move, leftmost stack first and the nearer target first, and stops at
//! the first win (its path is the witness) or after
//! [`SolveParams::max_nodes`] states, when the deal is
//! [`Verdict::Undecided`]; under [`StackMove::Reversed`] it restarts with
//! other move orders on the way (restarts, below). A state is the row: for
//! each stack its top and,
//! under [`StackMove::Reversed`] only, its bottom (no rule reads anything
//! else, sizes included).
//!
//! **Moves far apart commute.** If a move `b` comes right after a move `a`
//! and `b`'s stack is left of `a`'s target (`b.from < a.to`), then `b`
//! touches only stacks that `a` neither changed nor shifted, so it was
//! legal before `a`, and `b` then `a` (shifted left by one) gives the same
//! row. Swapping such pairs ends (each swap removes one such inversion
//! between the stacks the two moves involve, named by their first cards,
//! and creates none), so every winning sequence has a *canonical* form in
//! which each move's stack is at or right of the previous move's target.
//! The search makes only canonical sequences: after a move onto stack `t`,
//! only stacks `t` and right of it may move.
//!
//! **Memo.** A state whose canonical continuations all fail is remembered
//! as lost together with the restriction it was searched under (the
//! leftmost stack that could move); it is lost under that restriction or
//! any tighter one, so a later visit is cut then. A later visit under a
//! looser restriction (a leftmost stack `l` left of the remembered `m`)
//! tries only the first moves of the stacks `l` to `m - 1`: a first move's
//! subtree is searched under the restriction of its own target, whatever
//! the restriction of the state, so the first moves of stacks `m` and
//! right of it were all searched and lost the first time. The entry then
//! takes the looser restriction. This is exact: the memo says only what
//! the search proved. A state is remembered only if
//! its search took at least [`MEMO_MIN_NODES`] states: measured on random
//! 52-card deals, small subtrees are almost never met again, and skipping
//! them keeps the hash table small enough to stay in cache (about five
//! times faster than remembering everything, for under 10% more states).
//! States with no legal move are not looked up at all.
//!
//! **Restarts** (under [`StackMove::Reversed`]; [`RESTARTS`]). The states a
//! win takes in one fixed order are spread over orders of magnitude, and a
//! win missed near the root costs the whole subtree it lies behind. So the
//! search runs in *passes* from the full row, all sharing one memo: the
//! first in the standard order, for at most 100,000 states; each later
//! one for twice as many as the one before (the last stops at the
//! budget), with the moves of each state at most 10 moves from the full
//! row tried in an order shuffled by the pass's own fixed generator (the
//! standard order deeper). Exact: a pass differs from the standard search
//! only in the order it tries the moves of a state, and it still tries
//! every one, so its `Lost` is as exhaustive and its `Won` path as legal;
//! a memo entry records a proof about a state (its canonical continuations
//! from a restriction on all lose), whatever order or pass made it, so a
//! later pass may use it; and a remembered state visited under a looser
//! restriction still has its first moves of the stacks left of the
//! remembered one to try, in any order (the moves skipped are those of the
//! stacks at or right of it, not the moves after a point of a list). A
//! pass cut short proves nothing (a subtree cut short is never
//! remembered), and the next one starts again from the full row, where
//! the memo cuts the subtrees already proved lost: a loss proved across
//! several passes costs little more than in one. Deterministic: the
//! passes, their budgets and their generators are fixed (pass `p` draws
//! from stream `p` of one fixed seed), and a generator is drawn from only
//! to shuffle a state's moves, in the search's own order.
//!
//! # Bounds, and why they lose no win
//!
//! Checked in every state; `V` is the set of *live* ranks: the tops and,
//! under [`StackMove::Reversed`], the bottoms of the stacks other than the
//! leftmost. A rank is *lonely* when neither of the two ranks that fit it
//! is in `V`.
//!
//! - `V` only shrinks. A kept move makes the moved top the target's top; a
//!   reversed move makes the moved stack's bottom the target's top; a card
//!   covered in the middle of a stack never comes back. The leftmost stack
//!   never moves (no stack is left of it) and stays the leftmost, so its
//!   bottom is never a top again once it is covered: it is not live.
//! - So a stack whose top is lonely never moves and never receives a stack
//!   again. Unless it is the only stack (a win, checked first), the game
//!   cannot end with one stack: lost.
//! - Under [`StackMove::Reversed`], when a stack other than the leftmost
//!   moves, its bottom becomes a top. If that bottom is lonely, the merged
//!   stack never moves or receives again, so this move must be the last of
//!   the game. Two stacks (other than the leftmost) with lonely bottoms
//!   cannot both move last: lost.
//! - Under [`StackMove::Kept`], `V` (the tops) must be connected round the
//!   rank cycle. A move covers a top `u` with a top `t` that fits it (so in
//!   the same connected component of `V`), and `t` stays a top: no
//!   component of `V` ever becomes empty, so `V` never has fewer
//!   components. A won game ends with one top: one component.
//! - Under [`StackMove::Kept`], *consumption* (checked after the others, on
//!   states not in the memo whose last move landed at least
//!   [`CONSUMPTION_REACH`] stacks from the right end). Call the tops
//!   *tokens*: a kept move makes a token `X` cover a fitting token `Y` one
//!   or three stacks to its left; `Y` is gone for good and `X` takes its
//!   place, so a token's rank never changes and tokens only move left. A
//!   token is covered only by a fitting token right of it at the time. The
//!   tokens right of a token `Y` change only by losing some and by `Y`'s
//!   own jumps (three places, over two tokens): a token left of `Y` moves
//!   only left, and one that jumps over `Y` leaves its right. So a *mover*,
//!   a token other than the leftmost with no fitting token right of it,
//!   must move before it is covered. In a won game every token but the last
//!   is covered, and the last ends leftmost: unless it was leftmost from
//!   the start (only the leftmost stack's token is, and it never moves), it
//!   got there by covering the leftmost token. So every mover moves, and
//!   its first move covers a fitting token, gone for good: distinct movers
//!   use up distinct tokens, each of a rank fitting its own. Hence, for a
//!   set `R` of ranks, the movers with ranks in `R` need at least as many
//!   tokens with ranks fitting some rank of `R` (Hall's condition): fewer
//!   proves the row lost. If there are exactly as many (`R` is *tight*),
//!   each of those tokens is used up by a mover of `R`'s first move, and
//!   the last token is a mover of `R`: otherwise each mover `Y` of `R` is
//!   covered by a token fitting it, which then is the first token covered
//!   by a mover `Y'` of `R`, later; `Y` moved before it was covered, so
//!   `Y'` first moved after `Y` did, and following `Y -> Y'` from any mover
//!   of `R` would never end. So two tight sets with no rank in common prove
//!   the row lost. The sets checked are the runs `r, r + 2, r + 4, ...`
//!   round the rank cycle (ranks two apart share a fitting rank; a set that
//!   fails Hall's condition holds a run that fails it), each started at a
//!   rank that has a mover. The rightmost token is always a mover, and so
//!   is, as a row runs down, much of its right end.
//!
//! # Guarantees
//!
//! `Winnable` comes with a witness that [`verify`] replays with stacks of
//! cards and its own legality checks (the tests do, for every witness).
//! `Unwinnable` is a proof by exhaustion, exact. The result depends only on
//! the game, the deal and the budget: the search is single-threaded and
//! deterministic. The work is at most `max_nodes` states of `O(n)` each (a
//! row copy of 65 bytes, a scan for moves and lonely ranks); memory is one
//! key of 32 (kept) or 64 (reversed) bytes per state remembered.
//!
//! # Measured (release, 2-core development machine, shared)
//!
//! Random 52-card deals at the default budget of [`DEFAULT_MAX_NODES`]
//! (about 200 ns a state with the machine loaded, 70 ns unloaded):
//!
//! - [`StackMove::Reversed`], the 2,000 deals of [`SolveSimulation`] with
//!   seed 1 (`prisoners-patience solve --trials 2000`): 64.3% winnable
//!   (one of them won by the fixed sweep), 19.95% unwinnable, 15.75%
//!   undecided; 177 s of CPU in all, 89 ms a deal on average. On an
//!   earlier sample of 2,000 deals (64.6%, 20.0%, 15.5%): states per deal
//!   median 190,913, mean about a million; wins at a median of 71,000
//!   states, proofs of a loss at 348,000.
//! - [`StackMove::Kept`], the 600 deals of `--trials 600`, seed 1: 0.33%
//!   winnable (2, neither won by the fixed sweep), 23.3% unwinnable,
//!   76.3% undecided; 191 s of CPU in all, 318 ms a deal on average (about
//!   100 ns a state); an earlier sample of 600 gave 1.0%, 23.7% and
//!   75.3%. Nearly every deal is lost, but proving it usually
//!   takes more than the budget: the search stalls at a dozen stacks or
//!   more, with the leftmost stacks stuck, only after trying every way of
//!   playing the rest. Reusing a remembered state under a looser
//!   restriction (the memo, above) decided one more deal of the first 50
//!   of seed 1 (13 unwinnable, 37 undecided; 12 and 38 without) and of
//!   the first 200 (49 and 151; 48 and 152 without), for the same CPU
//!   (82 s for the 200, 84 s without).
//! - The consumption bound (above; issue 24, round 5) decided 3 more of
//!   the first 200 kept deals of seed 1 (52 unwinnable, 148 undecided,
//!   against 49 and 151) and 1 more of the first 50 (14 and 36); on the
//!   49 deals decided with and without it, it cut the states from
//!   50,770,443 to 46,993,773 (7.4%; 45,705,246 when checked on every
//!   state, at half as much again per state: see [`CONSUMPTION_REACH`]).
//!   That is a small gain: without the bound, a budget of 6,000,000
//!   decides 60 of the 200 (one winnable).
//! - Reversed, restarts (issue 24, round 6). On the first 200 deals of
//!   seed 1, the 34 undecided at the default budget decide at a budget of
//!   64,000,000 as 12 winnable, 17 unwinnable and 5 undecided: about a
//!   third of them are wins found late. With [`RESTARTS`], the first 400
//!   deals of seed 1 at the default budget: 263 winnable, 83 unwinnable,
//!   54 undecided (252, 83 and 65 in one pass: 17% fewer undecided; the
//!   first 200 130, 39, 31 against 127, 39, 34; the next 200 133, 44, 23
//!   against 125, 44, 31), and 341,191,593 states against 379,151,171
//!   (10% fewer; 56 s of CPU against 63 s, the machine shared). The same
//!   83 losses are proved, in 48,127,572 states against 48,324,624. A win
//!   is still a lottery: 13 undecided deals are won, and 2 deals won in
//!   one pass are undecided with restarts. The 2,000 deals of `--trials
//!   2000`, seed 1: 66.35% winnable, 20.15% unwinnable, 13.5% undecided
//!   (1,327, 403 and 270 deals; 1,286, 399 and 315 in one pass, above);
//!   259 s of CPU on one thread, the machine shared. Those figures are
//!   for passes shuffled by an inline xorshift generator; with the
//!   project's generator ([`stream_rng`], [`shuffle`]) the same 2,000
//!   deals give 1,336, 403 and 261 (13.05% undecided): as many losses,
//!   and which late wins are found is again a matter of the order.
//!   Variants, on the same 400 (undecided): shuffling every level 58 (the
//!   first 200 only: 31), the first 5 levels 58, first pass 200,000
//!   states 55; on the first 200, a first pass of 50,000 states shuffling
//!   every level 35, and 250,000, 34. Under [`StackMove::Kept`], where the
//!   undecided deals are nearly all lost, restarts are not used (not
//!   measured).
//! - Kept, the budget: on the first 20 deals of seed 1 (before the
//!   consumption bound), 4,000,000 states decided 2 (both unwinnable),
//!   16,000,000 decided 7, and 64,000,000 decided 13: 12 unwinnable and
//!   one winnable, deal 4, won after 48,881,321 states. The states a
//!   proof needs are spread over orders of magnitude, so a bigger budget
//!   (or a faster search) alone is no route to deciding nearly every
//!   deal; and kept deals are not all lost.
//! - The results tables (`results/prisoners-patience-winnable-52-*`),
//!   10,000 deals of seed 1 per rule at the default budget, two cores:
//!   reversed 6,660 winnable, 1,961 unwinnable, 1,379 undecided (13.79%)
//!   in 673 s; kept 73 winnable, 2,574 unwinnable, 7,353 undecided
//!   (73.53%) in 2,462 s.
//!
//! Small decks are decided exactly by [`exact_cross_tabulation`] in under a
//! second up to 10 cards.
//!
//! # Tried, and measured to gain nothing
//!
//! **A reachability fixpoint** (issue 24, round 2; the implementation, its
//! proof and its test are commit 7e1f574, merged into main's history). Facts "stack `s` may ever move" and "rank `v`
//! may ever top stack `s`", grown from the row's tops to a least fixpoint
//! under the move rule (`t` left of `s` may receive it when every stack
//! between may move, for 1 apart, or when at least two lie between and at
//! most two of them never move, for 3 apart; a fitting top of `s` lands,
//! kept, or the bottom of `s`, reversed); a row where a stack other than
//! the leftmost may never move is lost. It is sound (checked against the
//! brute force on every arrangement of 1 x 7, 2 x 4, 3 x 3 and 1 x 8
//! cards, where it also condemns rows the lonely-rank bounds let through)
//! but decided no extra 52-card deal: on the first 20 deals of seed 1 at
//! the default budget, kept 0 winnable / 2 unwinnable / 18 undecided with
//! and without it (checked on rows of at most 16 stacks: 8% more CPU), and
//! reversed 15 / 2 / 3 likewise; checked on every row it made the kept run
//! over 15 times slower (unfinished after 10 minutes against 37 s). Why:
//! with four cards of each rank and every stack reachable from 1 or 3
//! apart once its neighbours may move, the sets of possible tops soon hold
//! both neighbours of every rank, so every stack "may move". What a kept
//! deal lacks is consumed, not unreachable: a move covers a top for good,
//! and a monotone relaxation forgets that.
//!
//! **A prefix bound** (issue 24, round 3, kept only; the implementation,
//! its proof and its test are commit e73216a, branch `pp3-try-1`). Split a
//! row after its stuck prefix (the stacks left of the leftmost stack with
//! a legal move); the other stacks' tops are a *supply*. Kept, a stack
//! that reaches the prefix brings one card of the supply, onto one of the
//! prefix's last three stacks, and each card comes at most once, so a
//! *relaxed game* (moves within the prefix, or a fitting supply card onto
//! one of its last three tops) replays the prefix's history of any game;
//! a win brings the prefix down to one stack, so a row whose relaxed game
//! is lost is lost. This keeps what the fixpoint forgot: cards are used
//! up. It is sound (checked against the brute force on every arrangement
//! of 1 x 7, 2 x 4, 3 x 3 and 1 x 8 cards and 2,000 deals each of 2 x 5
//! and 4 x 3, every split, where it condemns rows the lonely-rank bounds
//! let through, and inside the solver by the brute-force agreement test)
//! but it gained nothing: the relaxed game is itself a search over
//! the prefix's own moves and the order of 20-40 supply cards, and with a
//! budget of 1,000 relaxed states about 75% of the relaxed searches on
//! the first two kept deals of seed 1 ran out of budget (7-15% proved a
//! loss, the rest a relaxed win; a win's used cards were remembered per
//! prefix, so a later supply holding them was passed without search). On
//! the first 20 kept deals of seed 1 at the default budget: 0 winnable,
//! 2 unwinnable, 18 undecided with and without it, 5.4 s of CPU without
//! and minutes with it (with a canonical move order in the relaxed
//! search too, unfinished after 500 s). A relaxed game that helps must be
//! much cheaper to decide than this one: a bound on it, not a search.
//!
//! **Forced survivors** (issue 24, round 4, kept only). Kept, a move is a
//! top `X` covering a fitting top `Y` one or three stacks to its left;
//! call the tops *tokens*: a token's rank never changes, and it is covered
//! only by a fitting token that is then right of it. Two tokens change
//! their left-right order only when one jumps three places over the other
//! (leftwards). So a token `Y` that no token right of it fits can be
//! covered only after it has jumped three places over a fitting token `W`
//! onto another, `Z`: it needs two fitting tokens left of it, and they are
//! among those left of it now. A token with no fitting token right of it
//! and at most one left of it is never covered; a win covers all tokens
//! but one, so two such tokens prove a row lost. Sound (no winnable row
//! condemned among every arrangement of 1 x 7, 2 x 4, 3 x 3 and 1 x 8
//! cards and thousands of 2 x 5, 4 x 3 and 3 x 4, by the brute force),
//! but on those decks it condemned no row the lonely-rank and
//! connectedness bounds let through, and on the first 50 kept deals of
//! seed 1 it cut the states of the decided deals by 0.3% (157,691,469
//! states in all, 157,189,004 with it), decided no extra deal (12
//! unwinnable, 38 undecided), and cost 50% more CPU (24 s, 36 s). Why:
//! with four of each rank, a token still has several fitting tokens until
//! the row is short, and the search stalls at 20-40 stacks.
//!
//! **The survivor of a tight set** (round 5, kept only). When a set `R`
//! is tight (the consumption bound), more follows: once the last token of
//! a rank fitting `R` is used up, no token of a rank in `R` can cover or
//! be covered again, so the mover that used it up is the last token, and
//! its first move is the last move of the game. So when a single mover
//! can be the last token, its moves are useless until two stacks are
//! left. Sound (checked against the brute force after every move it
//! skipped, on thousands of deals of 1 x 8 to 2 x 8 cards), but it
//! skipped few moves: on the first 20 kept deals of seed 1 it decided
//! nothing more and cut the states of one decided deal by 1.2%.
//!
//! **A pairing bound** (round 7, reversed only; the patch is kept outside
//! the repository). Count the live *ends* by rank: each stack's top, and
//! each bottom but the leftmost stack's. Reversed, a move of `A` onto `B`
//! takes away exactly two ends, `A`'s top and `B`'s, which fit (the
//! merged stack's top is `A`'s bottom, its bottom `B`'s); a win ends with
//! one end. So on the way to a win the ends pair off into fitting pairs
//! but one: on the rank cycle, non-negative integer solutions of one
//! equation per rank (`x_{r-1} + x_r = c_r`, solved round the cycle).
//! Sound (no row condemned that an exhaustive search of it wins, on
//! every row of random lines of play from every arrangement of 1 x 7,
//! 2 x 4, 3 x 3 and 1 x 8 cards and thousands of larger decks, where it
//! condemns rows the lonely ranks let through; and the brute-force
//! agreement test passed with it), but on the first 400 reversed deals of
//! seed 1 it decided one more deal (264 winnable, 83 unwinnable, 53
//! undecided, against 263, 83 and 54: no extra loss proved), in 98 s of
//! CPU against 47 s (one thread, both runs on a shared machine). Why: a 52-card row has about eight ends of every rank
//! until it is short, and its losses come from the order of the moves,
//! which counting forgets.
//!
//! **Not tried, as stated: "the rightmost card's top is a top for good".**
//! It is false. The rightmost top is never covered *while* it is
//! rightmost, but once it jumps three places the two it passed are right
//! of it and may cover it: kept, 13 ranks, the row 5 2 3 4 is won by 4
//! onto 5 (over 2 and 3), 3 onto 2, then that stack (top 3) onto the
//! first (top 4). What holds is the consumption bound's premise: a token
//! with no fitting token right of it must move before it is covered.
//!
//! **Better memo reuse.** On deal 0 of seed 1 (kept, lost after 4.5
//! million states), 2.18 million distinct states with a legal move were
//! searched and 0.67 million visits met one already seen: a perfect memo
//! would save at most about 15% of the states. The states are distinct;
//! only bounds can cut them.

use ahash::AHashMap;

use crate::cards::Card;
use crate::distribution::{CountDistribution, ExactDistribution};
use crate::engine::ArrangementCounts;
use crate::engine::arrangements::count_arrangements_with;
use crate::engine::{Player, Shard};
use crate::engine::{Progress, Simulation};
use crate::error::{Error, Result};
use crate::games::prisoners_patience::{
    MAX_CARDS, MAX_RANKS, Move, Observer, PrisonersPatience, StackMove, Table,
};
use crate::rng::{GameRng, shuffle, stream_rng};

/// The node budget of [`SolveParams::default`].
pub const DEFAULT_MAX_NODES: u64 = 4_000_000;

/// A lost state is remembered only if its search visited at least this
/// many states (module documentation, the memo).
pub const MEMO_MIN_NODES: u64 = 16;

/// The consumption bound (module documentation) is checked only on states
/// whose last move landed at least this many stacks from the right end
/// (and on the full row). Skipping a bound loses no win. Measured on the
/// first 200 kept deals of seed 1: checked on every state it costs about
/// half as much again per state; checked from 10 stacks it is checked on
/// 12% of the states, decides the same deals, and keeps three quarters of
/// the states it cut (from 15, 2.6% and one deal fewer).
pub const CONSUMPTION_REACH: usize = 10;

/// The passes of the search under [`StackMove::Reversed`] (module
/// documentation, restarts): the first of 100,000 states in the standard
/// order, each later one twice as long as the one before, with the moves of
/// its first 10 levels shuffled.
pub const RESTARTS: Restarts = Restarts {
    first_nodes: 100_000,
    growth: 2,
    shuffled_depth: 10,
};

/// The seed of the generators that shuffle the passes after the first
/// (pass `p` draws from stream `p` of it): fixed, so a solve is
/// deterministic.
const RESTART_SEED: u64 = 0x9a55_e5ee_d5ee_d5ee;

/// A schedule of restarts (module documentation, restarts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restarts {
    /// The states of the first pass (in the standard order).
    pub first_nodes: u64,
    /// Each later pass may visit this many times the states of the one
    /// before (the last one stops at the budget).
    pub growth: u64,
    /// Later passes shuffle the moves of the states at most this many moves
    /// from the full row, and keep the standard order deeper.
    pub shuffled_depth: usize,
}

/// How much work one deal may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveParams {
    /// The most states the search visits before it gives up on a deal
    /// ([`Verdict::Undecided`]).
    pub max_nodes: u64,
}

impl SolveParams {
    /// No limit: the search always decides (use on small decks only, where
    /// the states are few).
    pub const UNLIMITED: SolveParams = SolveParams {
        max_nodes: u64::MAX,
    };
}

impl Default for SolveParams {
    /// [`DEFAULT_MAX_NODES`].
    fn default() -> SolveParams {
        SolveParams {
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// Whether a deal can be won with free choice of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Some choice of moves wins: the solution holds one (a witness, which
    /// [`verify`] checks).
    Winnable,
    /// No choice of moves wins (the search was exhaustive).
    Unwinnable,
    /// The budget ran out first.
    Undecided,
}

/// One free move: after `after_card` cards have been dealt, the stack at
/// index `from` (counted from 0 at the left) goes onto the stack at `to`,
/// `from - 1` or `from - 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeMove {
    /// Cards dealt when the move is made, 1..=n.
    pub after_card: usize,
    /// Index of the stack moved.
    pub from: usize,
    /// Index of the stack it goes onto.
    pub to: usize,
}

/// What [`solve`] found for one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Winnable, unwinnable, or undecided within the budget.
    pub verdict: Verdict,
    /// States the search visited (0 when the fixed sweep wins: no search).
    pub nodes: u64,
    /// The moves of a win, in order, when `verdict` is
    /// [`Verdict::Winnable`] (checked by [`verify`]); empty otherwise.
    pub witness: Vec<FreeMove>,
}

/// Whether `deal` can be won with free choice (module documentation).
/// Allocates a fresh [`Solver`]; to solve many deals, keep one.
///
/// `deal` holds ranks 1..=R of `game` (at most [`MAX_CARDS`] of them, any
/// multiset); panics otherwise.
pub fn solve(game: &PrisonersPatience, deal: &[u8], params: &SolveParams) -> Solution {
    Solver::new(*game).solve(deal, params)
}

/// The row as the search holds it: one byte per stack, the top in the high
/// four bits and, under [`StackMove::Reversed`], the bottom in the low four
/// (0 under [`StackMove::Kept`], where no rule reads it), and zeros past
/// the last stack. So the bytes are a memo key as they stand.
#[derive(Clone, Copy)]
struct Row {
    cells: [u8; MAX_CARDS],
    len: u8,
}

/// What a subtree of the search came to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Search {
    Won,
    Lost,
    OutOfNodes,
}

/// The search for one game, reusable across deals (the memo keeps its
/// memory). Single-threaded; one per thread.
pub struct Solver {
    rules: Rules,
    /// States found lost, under [`StackMove::Reversed`] (a byte per stack).
    reversed_memo: Memo<[u8; MAX_CARDS]>,
    /// States found lost, under [`StackMove::Kept`] (a top per four bits).
    kept_memo: Memo<[u8; MAX_CARDS / 2]>,
    /// The moves (from, to) from the full row to the state being searched.
    path: Vec<(u8, u8)>,
    nodes: u64,
    max_nodes: u64,
    /// Where the current pass stops (at most `max_nodes`).
    limit: u64,
    /// The move order of the current pass: none for the standard order,
    /// else the generator that shuffles each state's moves.
    shuffle: Option<GameRng>,
    /// The passes (module documentation, restarts): [`RESTARTS`] under
    /// [`StackMove::Reversed`], none (one pass) under [`StackMove::Kept`].
    restarts: Option<Restarts>,
    /// [`CONSUMPTION_REACH`] (the tests also check the bound everywhere).
    consumption_reach: usize,
}

/// States found lost, each with the restriction it was searched under (the
/// least index of a stack it could move first): lost under that one, so
/// under any tighter one too.
type Memo<K> = AHashMap<K, u8>;

/// A memo key: what the rules read of a row, packed.
trait RowKey: Copy + Eq + std::hash::Hash {
    fn of(row: &Row) -> Self;
}

impl RowKey for [u8; MAX_CARDS] {
    /// The cells as they stand: top and bottom, zeros past the last stack.
    #[inline]
    fn of(row: &Row) -> Self {
        row.cells
    }
}

impl RowKey for [u8; MAX_CARDS / 2] {
    /// The tops, two to a byte (the bottoms are 0 when stacks move kept):
    /// half the memory, and half the bytes to hash and compare.
    #[inline]
    fn of(row: &Row) -> Self {
        let mut key = [0u8; MAX_CARDS / 2];
        for (byte, pair) in key.iter_mut().zip(row.cells.chunks_exact(2)) {
            *byte = pair[0] | pair[1] >> 4;
        }
        key
    }
}

/// The version, as the search reads it.
#[derive(Clone, Copy)]
struct Rules {
    game: PrisonersPatience,
    reversed: bool,
    ranks: u8,
    /// All ranks, bits 1..=R.
    all_ranks: u16,
    /// For each rank, the ranks that fit it (bits 1..=R).
    fitting: [u16; MAX_RANKS as usize + 1],
}

impl Solver {
    /// A solver for `game`.
    pub fn new(game: PrisonersPatience) -> Solver {
        let ranks = game.params().ranks;
        let mut fitting = [0u16; MAX_RANKS as usize + 1];
        for (a, fits_a) in fitting
            .iter_mut()
            .enumerate()
            .skip(1)
            .take(usize::from(ranks))
        {
            for b in 1..=ranks {
                if game.fits(a as u8, b) {
                    *fits_a |= 1 << b;
                }
            }
        }
        Solver {
            rules: Rules {
                game,
                reversed: game.params().stack_move == StackMove::Reversed,
                ranks,
                all_ranks: ((1u16 << ranks) - 1) << 1,
                fitting,
            },
            reversed_memo: Memo::default(),
            kept_memo: Memo::default(),
            path: Vec::with_capacity(MAX_CARDS),
            nodes: 0,
            max_nodes: 0,
            limit: 0,
            shuffle: None,
            restarts: (game.params().stack_move == StackMove::Reversed).then_some(RESTARTS),
            consumption_reach: CONSUMPTION_REACH,
        }
    }

    /// The game solved.
    pub fn game(&self) -> &PrisonersPatience {
        &self.rules.game
    }

    /// [`solve`], reusing this solver's memory.
    pub fn solve(&mut self, deal: &[u8], params: &SolveParams) -> Solution {
        self.check(deal);
        match self.sweep_win(deal) {
            Some(witness) => Solution {
                verdict: Verdict::Winnable,
                nodes: 0,
                witness,
            },
            None => self.search_deal(deal, params),
        }
    }

    /// Panics unless `deal` is at most [`MAX_CARDS`] ranks of the game.
    fn check(&self, deal: &[u8]) {
        let ranks = self.rules.ranks;
        assert!(
            deal.len() <= MAX_CARDS && deal.iter().all(|&r| (1..=ranks).contains(&r)),
            "a deal of at most {MAX_CARDS} ranks 1..={ranks}: {deal:?}"
        );
    }

    /// The search alone, without trying the fixed sweep first.
    fn search_deal(&mut self, deal: &[u8], params: &SolveParams) -> Solution {
        self.path.clear();
        self.nodes = 0;
        self.max_nodes = params.max_nodes;
        let mut row = Row {
            cells: [0; MAX_CARDS],
            len: 0,
        };
        for &rank in deal {
            self.rules.push(&mut row, rank);
        }
        let outcome = if deal.is_empty() {
            // No card, no stack: never one stack.
            Search::Lost
        } else if self.rules.reversed {
            let mut memo = std::mem::take(&mut self.reversed_memo);
            memo.clear();
            let outcome = self.passes(&mut memo, &row);
            self.reversed_memo = memo;
            outcome
        } else {
            let mut memo = std::mem::take(&mut self.kept_memo);
            memo.clear();
            let outcome = self.passes(&mut memo, &row);
            self.kept_memo = memo;
            outcome
        };
        let verdict = match outcome {
            Search::Won => Verdict::Winnable,
            Search::Lost => Verdict::Unwinnable,
            Search::OutOfNodes => Verdict::Undecided,
        };
        let witness = if verdict == Verdict::Winnable {
            timed(deal.len(), &self.path)
        } else {
            Vec::new()
        };
        Solution {
            verdict,
            nodes: self.nodes,
            witness,
        }
    }

    /// The fixed sweep's moves, if it wins the deal.
    fn sweep_win(&self, deal: &[u8]) -> Option<Vec<FreeMove>> {
        struct Recorder {
            dealt: usize,
            moves: Vec<FreeMove>,
        }
        impl Observer for Recorder {
            fn moved(&mut self, step: Move, _: &Table) {
                self.moves.push(FreeMove {
                    after_card: self.dealt,
                    from: step.from,
                    to: step.to,
                });
            }
        }
        let game = &self.rules.game;
        if game.play_ranks(deal) != 1 {
            return None;
        }
        let mut recorder = Recorder {
            dealt: 0,
            moves: Vec::with_capacity(deal.len()),
        };
        let mut table = game.empty_table();
        for &rank in deal {
            recorder.dealt += 1;
            game.deal_with(&mut table, rank, &mut recorder);
        }
        Some(recorder.moves)
    }

    /// The passes of the search from the full row (module documentation,
    /// restarts), sharing the memo, until one wins, proves the row lost,
    /// or the budget runs out.
    fn passes<K: RowKey>(&mut self, memo: &mut Memo<K>, row: &Row) -> Search {
        let mut pass = 0u64;
        let mut budget = self.restarts.map_or(u64::MAX, |r| r.first_nodes);
        loop {
            // A pass cut short leaves its path behind.
            self.path.clear();
            self.limit = self.nodes.saturating_add(budget).min(self.max_nodes);
            // The first pass keeps the standard order; each later one has
            // its own fixed generator, stream `pass` of a fixed seed.
            self.shuffle = (pass != 0).then(|| stream_rng(RESTART_SEED, pass, 0));
            let outcome = self.search(memo, row, 1);
            if outcome != Search::OutOfNodes || self.nodes >= self.max_nodes {
                return outcome;
            }
            pass += 1;
            budget = budget.saturating_mul(self.restarts.map_or(1, |r| r.growth));
        }
    }

    /// Searches from `row`, moving first only stacks at index `lowest` or
    /// more (module documentation: a move wholly left of the one before
    /// it is made before it).
    fn search<K: RowKey>(&mut self, memo: &mut Memo<K>, row: &Row, lowest: usize) -> Search {
        if self.nodes >= self.limit {
            return Search::OutOfNodes;
        }
        self.nodes += 1;
        let len = usize::from(row.len);
        if len == 1 {
            return Search::Won;
        }
        if !self.rules.may_be_won(row) {
            return Search::Lost;
        }
        // The legal moves, leftmost stack first and the nearer target
        // first: measured on random deals, wins come sooner than rightmost
        // first (as the sweep scans) or with either jump first.
        let mut moves = [(0u8, 0u8); 2 * MAX_CARDS];
        let mut n_moves = 0;
        for from in lowest.max(1)..len {
            let top = row.cells[from] >> 4;
            for to in [Some(from - 1), from.checked_sub(3)].into_iter().flatten() {
                if self.rules.game.fits(top, row.cells[to] >> 4) {
                    moves[n_moves] = (from as u8, to as u8);
                    n_moves += 1;
                }
            }
        }
        if n_moves == 0 {
            return Search::Lost;
        }
        let key = K::of(row);
        // First moves of the stacks at `searched` or right of it are known
        // to lose (module documentation, the memo): only those left of it
        // are left to try.
        let searched = memo.get(&key).map(|&searched| usize::from(searched));
        let known_lost = searched.unwrap_or(usize::MAX);
        if known_lost <= lowest {
            return Search::Lost;
        }
        // A remembered state passed the bound when it was first searched;
        // and the bound is checked only where it pays (CONSUMPTION_REACH).
        if searched.is_none()
            && !self.rules.reversed
            && len >= lowest + self.consumption_reach
            && !self.rules.movers_may_be_served(row)
        {
            return Search::Lost;
        }
        // A later pass shuffles the moves near the root (module
        // documentation, restarts): a uniform permutation.
        let near_root = self.path.len() < self.restarts.map_or(0, |r| r.shuffled_depth);
        if let Some(rng) = self.shuffle.as_mut().filter(|_| near_root) {
            shuffle(rng, &mut moves[..n_moves]);
        }
        let nodes_before = self.nodes;
        for &(from, to) in &moves[..n_moves] {
            if usize::from(from) >= known_lost {
                // Not `break`: a later pass shuffles the moves.
                continue;
            }
            let next = self.rules.moved(row, usize::from(from), usize::from(to));
            self.path.push((from, to));
            match self.search(memo, &next, usize::from(to)) {
                Search::Lost => {}
                found => return found,
            }
            self.path.pop();
        }
        // A state already remembered is updated whatever this search cost:
        // its entry is there, and the looser restriction is worth keeping.
        if searched.is_none() && self.nodes - nodes_before < MEMO_MIN_NODES {
            return Search::Lost;
        }
        let searched = memo.entry(key).or_insert(u8::MAX);
        *searched = (*searched).min(lowest as u8);
        Search::Lost
    }
}

impl Rules {
    /// Appends a stack of one card.
    #[inline]
    fn push(&self, row: &mut Row, rank: u8) {
        let bottom = if self.reversed { rank } else { 0 };
        row.cells[usize::from(row.len)] = rank << 4 | bottom;
        row.len += 1;
    }

    /// The row after moving stack `from` onto stack `to`.
    #[inline]
    fn moved(&self, row: &Row, from: usize, to: usize) -> Row {
        let mut next = *row;
        let len = usize::from(row.len);
        let moved = row.cells[from];
        // Reversed: the moved stack's bottom ends on top. Kept: its top.
        let new_top = if self.reversed {
            moved & 0x0f
        } else {
            moved >> 4
        };
        next.cells[to] = new_top << 4 | (row.cells[to] & 0x0f);
        next.cells.copy_within(from + 1..len, from);
        next.cells[len - 1] = 0;
        next.len -= 1;
        next
    }

    /// Whether the state may still be won, by the lonely-rank conditions of
    /// the module documentation. `false` proves the state lost (it is not
    /// a won state: the caller checks that first).
    #[inline]
    fn may_be_won(&self, row: &Row) -> bool {
        let cells = &row.cells[..usize::from(row.len)];
        let mut tops = 0u16;
        let mut bottoms = 0u16;
        for &cell in cells {
            tops |= 1 << (cell >> 4);
        }
        // The leftmost stack never moves, so its bottom never becomes a
        // top: only the other stacks' bottoms are live.
        for &cell in &cells[1..] {
            bottoms |= 1 << (cell & 0x0f);
        }
        // Bit 0 stands for "no bottom" (kept stacks); it is never a rank.
        bottoms &= self.all_ranks;
        let live = tops | bottoms;
        let neighbours = self.rotate_up(live) | self.rotate_down(live);
        let lonely = live & !neighbours;
        if tops & lonely != 0 {
            return false;
        }
        if self.reversed {
            if bottoms & lonely != 0 {
                let lonely_bottoms = cells[1..]
                    .iter()
                    .filter(|&&cell| lonely >> (cell & 0x0f) & 1 == 1)
                    .count();
                if lonely_bottoms >= 2 {
                    return false;
                }
            }
            true
        } else {
            // Components of the live ranks round the cycle: ranks in `V`
            // whose lower neighbour is not. A full cycle has none and is
            // connected.
            let starts = live & !self.rotate_up(live);
            starts.count_ones() <= 1
        }
    }

    /// Whether the movers of a kept row can each use up a token of their
    /// own, by the consumption bound of the module documentation (Hall's
    /// condition and the tight sets, on the runs `r, r + 2, ...` of the
    /// rank cycle). `false` proves the state lost (it is not a won state:
    /// the caller checks that first). Reads only the tops.
    fn movers_may_be_served(&self, row: &Row) -> bool {
        let cells = &row.cells[..usize::from(row.len)];
        let mut tokens = [0u8; MAX_RANKS as usize + 1];
        let mut movers = [0u8; MAX_RANKS as usize + 1];
        let mut mover_ranks = 0u16;
        let mut n_movers = 0u32;
        // The ranks that fit some top right of the one looked at.
        let mut fit_right = 0u16;
        // The leftmost stack is no mover: it never moves.
        for &cell in cells[1..].iter().rev() {
            let rank = cell >> 4;
            if fit_right >> rank & 1 == 0 {
                movers[usize::from(rank)] += 1;
                mover_ranks |= 1 << rank;
                n_movers += 1;
            }
            tokens[usize::from(rank)] += 1;
            fit_right |= self.fitting[usize::from(rank)];
        }
        tokens[usize::from(cells[0] >> 4)] += 1;
        // The ranks the last token may have (every tight set holds it).
        let mut survivor = self.all_ranks;
        // A run that starts with no mover needs no more than the run after
        // its start, and gets no more: only runs from a mover's rank.
        let mut starts = mover_ranks;
        while starts != 0 {
            let start = starts.trailing_zeros();
            starts &= starts - 1;
            let (mut needed, mut served) = (0u32, 0u32);
            let (mut run, mut fitting) = (0u16, 0u16);
            let mut bit = 1u16 << start;
            // Two ranks up each time, until the run comes round to a rank
            // it holds (all ranks when R is odd, those of one parity when
            // it is even).
            while run & bit == 0 {
                run |= bit;
                let rank = bit.trailing_zeros() as usize;
                needed += u32::from(movers[rank]);
                let mut new = self.fitting[rank] & !fitting;
                fitting |= new;
                while new != 0 {
                    served += u32::from(tokens[new.trailing_zeros() as usize]);
                    new &= new - 1;
                }
                if needed > served {
                    return false;
                }
                if needed == served {
                    survivor &= run;
                    if survivor == 0 {
                        return false;
                    }
                }
                // A longer run needs at most every mover and is served at
                // least as well: neither short nor tight.
                if served > n_movers {
                    break;
                }
                bit = self.rotate_up(self.rotate_up(bit));
            }
        }
        true
    }

    /// Each rank `r` of the mask (bits 1..=R) moved to `r + 1`, and `R`
    /// to 1.
    #[inline]
    fn rotate_up(&self, mask: u16) -> u16 {
        ((mask << 1) & self.all_ranks) | ((mask >> (self.ranks - 1)) & 0b10)
    }

    /// Each rank `r` of the mask (bits 1..=R) moved to `r - 1`, and 1 to
    /// `R`.
    #[inline]
    fn rotate_down(&self, mask: u16) -> u16 {
        ((mask >> 1) & self.all_ranks) | ((mask << (self.ranks - 1)) & 1 << self.ranks)
    }
}

/// The moves of a win on the full row, each made as soon as it can be:
/// after the cards of the stacks up to the one moved are dealt and the
/// moves before it are made (module documentation).
fn timed(n: usize, path: &[(u8, u8)]) -> Vec<FreeMove> {
    // The last card (0-based position in the deal) of each stack.
    let mut latest: Vec<usize> = (0..n).collect();
    let mut after_card = 1;
    let mut moves = Vec::with_capacity(path.len());
    for &(from, to) in path {
        let (from, to) = (usize::from(from), usize::from(to));
        let needed = latest[..=from].iter().max().expect("from is a stack") + 1;
        after_card = after_card.max(needed);
        moves.push(FreeMove {
            after_card,
            from,
            to,
        });
        latest[to] = latest[to].max(latest[from]);
        latest.remove(from);
    }
    moves
}

/// Replays `witness` on `deal` with whole stacks of cards and checks every
/// move: made after a card that was dealt, in order, from a stack that
/// exists onto the stack one or three to its left, whose tops fit; and
/// that one stack is left at the end. Independent of the search's row.
///
/// Errors name the first bad move, or the number of stacks left.
pub fn verify(game: &PrisonersPatience, deal: &[u8], witness: &[FreeMove]) -> Result<()> {
    let ranks = game.params().ranks;
    if let Some(rank) = deal.iter().find(|&&r| !(1..=ranks).contains(&r)) {
        return Err(Error::invalid(
            "deal",
            format!("rank {rank}"),
            format!("ranks must be 1 to {ranks}"),
        ));
    }
    let reversed = game.params().stack_move == StackMove::Reversed;
    let bad = |index: usize, step: &FreeMove, why: String| {
        Error::invalid(
            "witness",
            format!(
                "move {index} (stack {} onto {} after card {})",
                step.from, step.to, step.after_card
            ),
            why,
        )
    };
    let mut stacks: Vec<Vec<u8>> = Vec::new();
    let mut moves = witness.iter().enumerate().peekable();
    for (dealt, &rank) in (1..).zip(deal) {
        stacks.push(vec![rank]);
        while let Some(&(index, step)) = moves.peek() {
            if step.after_card < dealt {
                return Err(bad(
                    index,
                    step,
                    "is out of order (before the first card, or after a later one)".into(),
                ));
            }
            if step.after_card > dealt {
                break;
            }
            moves.next();
            if step.from >= stacks.len() {
                return Err(bad(index, step, format!("only {} stacks", stacks.len())));
            }
            if step.to + 1 != step.from && step.to + 3 != step.from {
                return Err(bad(index, step, "must go 1 or 3 stacks left".into()));
            }
            let top = |stack: &Vec<u8>| *stack.last().expect("stacks are never empty");
            let (moved_top, target_top) = (top(&stacks[step.from]), top(&stacks[step.to]));
            if !game.fits(moved_top, target_top) {
                return Err(bad(
                    index,
                    step,
                    format!("tops {moved_top} and {target_top} do not fit"),
                ));
            }
            let mut cards = stacks.remove(step.from);
            if reversed {
                cards.reverse();
            }
            stacks[step.to].extend(cards);
        }
    }
    if let Some((index, step)) = moves.next() {
        return Err(bad(index, step, format!("only {} cards", deal.len())));
    }
    if stacks.len() != 1 {
        return Err(Error::invalid(
            "witness",
            format!("{} moves", witness.len()),
            format!("leaves {} stacks, not 1", stacks.len()),
        ));
    }
    Ok(())
}

/// Bins of the cross-tabulation, fixed sweep x free choice: `3 * sweep +
/// verdict`, with the sweep won (0) or lost (1) and the verdict winnable
/// (0), unwinnable (1) or undecided (2).
pub const SWEEP_WON_WINNABLE: usize = 0;
/// The sweep wins but free choice cannot: impossible (the sweep's moves
/// are free moves); a count here is a bug.
pub const SWEEP_WON_UNWINNABLE: usize = 1;
/// The sweep wins but the search is undecided: impossible (the sweep's win
/// is found before any search); a count here is a bug.
pub const SWEEP_WON_UNDECIDED: usize = 2;
/// The sweep loses; free choice wins.
pub const SWEEP_LOST_WINNABLE: usize = 3;
/// The sweep loses; so does every choice of moves.
pub const SWEEP_LOST_UNWINNABLE: usize = 4;
/// The sweep loses; the search ran out of budget.
pub const SWEEP_LOST_UNDECIDED: usize = 5;
/// The number of bins.
pub const N_BINS: usize = 6;

/// The bins of a deal a player choosing freely can win.
pub const WINNABLE: [usize; 2] = [SWEEP_WON_WINNABLE, SWEEP_LOST_WINNABLE];

/// The label of each bin, in bin order.
pub fn labels() -> [&'static str; N_BINS] {
    [
        "sweep won, winnable",
        "sweep won, unwinnable",
        "sweep won, undecided",
        "sweep lost, winnable",
        "sweep lost, unwinnable",
        "sweep lost, undecided",
    ]
}

/// The bin of a deal: `sweep_won` and the solver's verdict.
pub fn bin(sweep_won: bool, verdict: Verdict) -> usize {
    let sweep = if sweep_won { 0 } else { 1 };
    let verdict = match verdict {
        Verdict::Winnable => 0,
        Verdict::Unwinnable => 1,
        Verdict::Undecided => 2,
    };
    3 * sweep + verdict
}

/// The cross-tabulation's bins folded into the three answers a reader
/// wants: can the deal be won with free choice, does the seed's fixed
/// sweep win it, and the two together.
fn folds<T: Clone + std::iter::Sum<T>>(counts: &[T]) -> Vec<(&'static str, Vec<String>, Vec<T>)> {
    let sum = |bins: &[usize]| bins.iter().map(|&b| counts[b].clone()).sum::<T>();
    let names = |labels: &[&str]| labels.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    vec![
        (
            "free-choice",
            names(&["winnable", "unwinnable", "undecided"]),
            vec![
                sum(&[SWEEP_WON_WINNABLE, SWEEP_LOST_WINNABLE]),
                sum(&[SWEEP_WON_UNWINNABLE, SWEEP_LOST_UNWINNABLE]),
                sum(&[SWEEP_WON_UNDECIDED, SWEEP_LOST_UNDECIDED]),
            ],
        ),
        (
            "fixed-sweep",
            names(&["won", "lost"]),
            vec![
                sum(&[
                    SWEEP_WON_WINNABLE,
                    SWEEP_WON_UNWINNABLE,
                    SWEEP_WON_UNDECIDED,
                ]),
                sum(&[
                    SWEEP_LOST_WINNABLE,
                    SWEEP_LOST_UNWINNABLE,
                    SWEEP_LOST_UNDECIDED,
                ]),
            ],
        ),
        ("sweep-x-free-choice", names(&labels()), counts.to_vec()),
    ]
}

/// The answers of a tally of the cross-tabulation (see [`folds`]): can
/// the deal be won with free choice (`free-choice`: winnable, unwinnable,
/// undecided), does the fixed sweep win it (`fixed-sweep`: won, lost), and
/// the two together (`sweep-x-free-choice`, the bins themselves).
pub fn count_distributions(counts: &[u64]) -> Vec<CountDistribution> {
    folds(counts)
        .into_iter()
        .map(|(key, outcomes, counts)| CountDistribution {
            key: key.into(),
            outcomes,
            counts,
        })
        .collect()
}

/// The answers of an exact count of the cross-tabulation, as
/// [`count_distributions`] gives them of a tally.
pub fn exact_distributions(counts: &ArrangementCounts) -> Vec<ExactDistribution> {
    folds(&counts.counts)
        .into_iter()
        .map(|(key, outcomes, part)| {
            ArrangementCounts {
                counts: part,
                total: counts.total.clone(),
            }
            .to_distribution(key, outcomes)
        })
        .collect()
}

/// Plays the fixed sweep on `deal`, solves it, and returns its bin.
fn classify(solver: &mut Solver, deal: &[u8], params: &SolveParams) -> usize {
    let sweep_won = solver.game().play_ranks(deal) == 1;
    bin(sweep_won, solver.solve(deal, params).verdict)
}

/// The Monte-Carlo adapter: each trial shuffles the ranks uniformly, plays
/// the fixed sweep, solves the same deal, and adds one to its bin
/// ([`SWEEP_WON_WINNABLE`] ..). Through `montecarlo::run`, the counts are
/// identical for any number of threads (the solver is deterministic).
pub struct SolveSimulation {
    game: PrisonersPatience,
    params: SolveParams,
}

impl SolveSimulation {
    /// The simulation of `game`, each deal solved within `params`.
    pub fn new(game: PrisonersPatience, params: SolveParams) -> SolveSimulation {
        SolveSimulation { game, params }
    }
}

impl Simulation for SolveSimulation {
    /// The deck (ranks, sorted at the start of every chunk) and a solver.
    type Scratch = (Vec<u8>, Solver);

    fn n_bins(&self) -> usize {
        N_BINS
    }

    fn new_scratch(&self) -> (Vec<u8>, Solver) {
        (self.game.sorted_ranks(), Solver::new(self.game))
    }

    fn trial(&self, rng: &mut GameRng, scratch: &mut (Vec<u8>, Solver), counts: &mut [u64]) {
        let (deck, solver) = scratch;
        shuffle(rng, deck);
        counts[classify(solver, deck, &self.params)] += 1;
    }
}

/// Solves every arrangement of a deck, one solver per enumeration task.
struct SolvePlayer {
    game: PrisonersPatience,
}

impl Player for SolvePlayer {
    /// A solver and a buffer for the ranks of the deal.
    type Workspace = (Solver, Vec<u8>);

    fn workspace(&self) -> (Solver, Vec<u8>) {
        (Solver::new(self.game), Vec::with_capacity(MAX_CARDS))
    }

    fn add(&self, workspace: &mut (Solver, Vec<u8>), deal: &[Card], tally: &mut [u64]) {
        let (solver, ranks) = workspace;
        ranks.clear();
        ranks.extend(deal.iter().map(|card| card.rank()));
        tally[classify(solver, ranks, &SolveParams::UNLIMITED)] += 1;
    }

    fn flush(&self, _: &mut (Solver, Vec<u8>), _: &mut [u64]) {}
}

/// The cross-tabulation over every distinct arrangement of `game`'s deck,
/// exactly: bin counts (as [`SolveSimulation`]'s) over the number of
/// arrangements. Every deal is solved without a budget, so the undecided
/// bins are always 0; for decks small enough to enumerate
/// (`count_arrangements`' limits, and in practice a dozen cards or so) the
/// states of one deal are few.
///
/// Guarantees: exact, and the same for any number of threads. Errors as
/// `count_arrangements` does for decks too large to enumerate.
pub fn exact_cross_tabulation(
    game: &PrisonersPatience,
    progress: &dyn Progress,
) -> Result<ArrangementCounts> {
    count_arrangements_with(
        &game.exact_deck(),
        N_BINS,
        SolvePlayer { game: *game },
        Shard::WHOLE,
        progress,
    )
}

const _: () = assert!(MAX_RANKS < 16, "a rank fits four bits of a cell");

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::arrangements::n_arrangements;
    use crate::engine::montecarlo::{RunPlan, run, with_threads};
    use crate::engine::sequential::{SequentialParams, count_outcomes};
    use crate::games::prisoners_patience::{PrisonersParams, fit};

    const RULES: [StackMove; 2] = [StackMove::Reversed, StackMove::Kept];

    fn game(suits: u8, ranks: u8, stack_move: StackMove) -> PrisonersPatience {
        PrisonersPatience::new(PrisonersParams {
            suits,
            ranks,
            stack_move,
        })
        .unwrap()
    }

    /// The free game as the brief states it, with nothing from the search:
    /// whole stacks of cards, dealt one by one; in every state, every legal
    /// move (either target) or the next deal, in every order, with no memo
    /// and no pruning. Whether some sequence ends with one stack.
    fn brute_force(game: &PrisonersPatience, deal: &[u8]) -> bool {
        fn from(
            ranks: u8,
            reversed: bool,
            deal: &[u8],
            dealt: usize,
            stacks: &mut Vec<Vec<u8>>,
        ) -> bool {
            if dealt == deal.len() && stacks.len() == 1 {
                return true;
            }
            for i in 1..stacks.len() {
                for j in [i.checked_sub(1), i.checked_sub(3)].into_iter().flatten() {
                    let top = |s: &Vec<u8>| *s.last().unwrap();
                    if !fit(ranks, top(&stacks[i]), top(&stacks[j])) {
                        continue;
                    }
                    let mut next = stacks.clone();
                    let mut moved = next.remove(i);
                    if reversed {
                        moved.reverse();
                    }
                    next[j].extend(moved);
                    if from(ranks, reversed, deal, dealt, &mut next) {
                        return true;
                    }
                }
            }
            if dealt < deal.len() {
                stacks.push(vec![deal[dealt]]);
                let won = from(ranks, reversed, deal, dealt + 1, stacks);
                stacks.pop();
                return won;
            }
            false
        }
        let p = game.params();
        from(
            p.ranks,
            p.stack_move == StackMove::Reversed,
            deal,
            0,
            &mut Vec::new(),
        )
    }

    /// Every distinct arrangement of the deck.
    /// Every arrangement of `game`'s deck when `sampled` is 0, else that
    /// many random deals.
    fn deals_of(
        game: &PrisonersPatience,
        sampled: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Vec<Vec<u8>> {
        if sampled == 0 {
            return arrangements(game);
        }
        let mut deal = game.sorted_ranks();
        (0..sampled)
            .map(|_| {
                deal.shuffle(rng);
                deal.clone()
            })
            .collect()
    }

    fn arrangements(game: &PrisonersPatience) -> Vec<Vec<u8>> {
        game.deck().all_arrangements()
    }

    /// The solver (with and without the fixed sweep first) against the
    /// brute force on `deal`; every witness verified. Returns the verdict.
    fn check(solver: &mut Solver, deal: &[u8]) -> Verdict {
        let game = *solver.game();
        let truth = brute_force(&game, deal);
        let expected = if truth {
            Verdict::Winnable
        } else {
            Verdict::Unwinnable
        };
        let searched = solver.search_deal(deal, &SolveParams::UNLIMITED);
        let solved = solver.solve(deal, &SolveParams::UNLIMITED);
        for solution in [&searched, &solved] {
            assert_eq!(solution.verdict, expected, "{} {deal:?}", game.params());
            if truth {
                verify(&game, deal, &solution.witness)
                    .unwrap_or_else(|e| panic!("{} {deal:?}: {e}", game.params()));
            } else {
                assert!(solution.witness.is_empty());
            }
        }
        expected
    }

    /// (a), (b), (c): every arrangement of decks of up to 8 cards, and
    /// random deals of larger ones (up to 12 cards), under both rules: the
    /// solver agrees with the brute force, every deal the fixed sweep wins
    /// is found winnable by the search alone, and every witness verifies.
    #[test]
    fn solver_equals_brute_force_on_small_decks() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
        for stack_move in RULES {
            let (mut winnable, mut solved, mut restarted) = (0, 0, 0);
            // (suits, ranks, deals: every arrangement if 0)
            for (suits, ranks, sampled) in [
                (2, 3, 0),
                (3, 3, 0),
                (2, 4, 0),
                (1, 7, 0),
                (1, 8, 3000),
                (4, 3, 200),
                (2, 5, 200),
                (1, 9, 100),
                (3, 4, 100),
                (2, 6, 60),
                (1, 10, 30),
            ] {
                let game = game(suits, ranks, stack_move);
                let deals = deals_of(&game, sampled, &mut rng);
                let mut solver = Solver::new(game);
                // Kept, the consumption bound is also checked on every
                // state, not only where it pays.
                let mut everywhere = Solver::new(game);
                everywhere.consumption_reach = 0;
                // Restarts (either rule), with passes short enough that
                // small decks take many, and every level shuffled.
                let mut restarting = Solver::new(game);
                restarting.restarts = Some(Restarts {
                    first_nodes: 2,
                    growth: 2,
                    shuffled_depth: usize::MAX,
                });
                for deal in &deals {
                    let verdict = check(&mut solver, deal);
                    if game.play_ranks(deal) == 1 {
                        assert_eq!(verdict, Verdict::Winnable, "{} {deal:?}", game.params());
                    }
                    winnable += usize::from(verdict == Verdict::Winnable);
                    if stack_move == StackMove::Kept {
                        assert_eq!(check(&mut everywhere, deal), verdict);
                    }
                    assert_eq!(check(&mut restarting, deal), verdict);
                    restarted += usize::from(restarting.nodes > 2);
                }
                solved += deals.len();
            }
            // Restarts happened (a search of more than 2 states).
            assert!(restarted > 0, "{stack_move:?}");
            // Both verdicts occur, so the comparison means something.
            assert!(
                0 < winnable && winnable < solved,
                "{stack_move:?}: {winnable} of {solved}"
            );
        }
    }

    /// The leftmost stack's bottom is not live: it never becomes a top.
    /// Reversed, 7 ranks, stacks (top/bottom) 5/2, 3/3, 6/6: no move is
    /// legal (3 does not fit 5, the only stack left of it; 6 does not fit
    /// 3, and no stack is three to its left), so the state is lost, and
    /// the bound sees it: of 3's neighbours, 4 is absent and 2 is only the
    /// leftmost's bottom. Were that bottom live, no top would be lonely (5
    /// and 6 fit each other).
    #[test]
    fn the_leftmost_bottom_is_not_live() {
        let rules = Solver::new(game(1, 7, StackMove::Reversed)).rules;
        let mut row = Row {
            cells: [0; MAX_CARDS],
            len: 3,
        };
        row.cells[..3].copy_from_slice(&[5 << 4 | 2, 3 << 4 | 3, 6 << 4 | 6]);
        assert!(!rules.may_be_won(&row));
        // The same row with the bottom 2 on the middle stack (which may
        // still move) keeps 3 company: not proved lost by this bound.
        row.cells[..3].copy_from_slice(&[5 << 4 | 5, 3 << 4 | 2, 6 << 4 | 6]);
        assert!(rules.may_be_won(&row));
    }

    /// The consumption bound (kept) condemns no row the brute force wins:
    /// every arrangement of 1 x 7, 2 x 4, 3 x 3 and 1 x 8 cards, random
    /// deals of larger decks (odd and even numbers of ranks), and every row
    /// on a random line of play from each. And it condemns rows that the
    /// lonely-rank and connectedness bounds let through.
    #[test]
    fn consumption_bound_condemns_only_lost_rows() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(45);
        let mut beyond = 0;
        for (suits, ranks, sampled) in [
            (1, 7, 0),
            (2, 4, 0),
            (3, 3, 0),
            (1, 8, 0),
            (2, 5, 2000),
            (4, 3, 2000),
            (3, 4, 2000),
            (1, 9, 2000),
            (2, 6, 1000),
            (1, 10, 1000),
        ] {
            let game = game(suits, ranks, StackMove::Kept);
            let rules = Solver::new(game).rules;
            let deals = deals_of(&game, sampled, &mut rng);
            let mut condemned = 0;
            for deal in &deals {
                let mut row = Row {
                    cells: [0; MAX_CARDS],
                    len: 0,
                };
                for &rank in deal {
                    rules.push(&mut row, rank);
                }
                loop {
                    let len = usize::from(row.len);
                    let tops: Vec<u8> = row.cells[..len].iter().map(|&c| c >> 4).collect();
                    if len > 1 && !rules.movers_may_be_served(&row) {
                        assert!(!brute_force(&game, &tops), "{} {tops:?}", game.params());
                        condemned += 1;
                        beyond += usize::from(rules.may_be_won(&row));
                    }
                    let moves: Vec<(usize, usize)> = (1..len)
                        .flat_map(|from| [(from, from - 1), (from, from.wrapping_sub(3))])
                        .filter(|&(from, to)| to < from && game.fits(tops[from], tops[to]))
                        .collect();
                    if moves.is_empty() {
                        break;
                    }
                    let (from, to) =
                        moves[crate::rng::bounded(&mut rng, moves.len() as u32) as usize];
                    row = rules.moved(&row, from, to);
                }
            }
            assert!(condemned > 0, "{}", game.params());
        }
        assert!(beyond > 0);
    }

    #[test]
    fn rotations_go_round_the_rank_cycle() {
        for ranks in 3..=13u8 {
            let rules = Solver::new(game(1, ranks, StackMove::Kept)).rules;
            for rank in 1..=ranks {
                let up = rank % ranks + 1;
                let down = (rank + ranks - 2) % ranks + 1;
                assert_eq!(rules.rotate_up(1 << rank), 1 << up, "{ranks} {rank}");
                assert_eq!(rules.rotate_down(1 << rank), 1 << down, "{ranks} {rank}");
                assert!(fit(ranks, rank, up) && fit(ranks, rank, down));
                assert_eq!(rules.fitting[usize::from(rank)], 1 << up | 1 << down);
            }
        }
    }

    /// Hand-checked deals, as (suits, ranks, rule, deal, sweep's stacks,
    /// verdict).
    #[test]
    fn known_deals() {
        use StackMove::{Kept, Reversed};
        use Verdict::{Unwinnable, Winnable};
        let check = |suits, ranks, rule, deal: &[u8], sweep_stacks, verdict| {
            let game = game(suits, ranks, rule);
            assert_eq!(game.play_ranks(deal), sweep_stacks, "{deal:?}");
            let solution = solve(&game, deal, &SolveParams::default());
            assert_eq!(solution.verdict, verdict, "{} {deal:?}", game.params());
            if verdict == Winnable {
                verify(&game, deal, &solution.witness).unwrap();
            }
        };
        // 1 2 ... 7 in order: each card goes onto the one before it.
        check(1, 7, Kept, &[1, 2, 3, 4, 5, 6, 7], 1, Winnable);
        // The sweep puts 5 onto 4 at once and is left with 2, 5, 3. Free
        // play waits: 2 onto 1, then 3 onto 2 (three to its left, over 4
        // and 5), then 4 onto 3 and 5 onto 4.
        check(1, 5, Kept, &[1, 2, 4, 5, 3], 3, Winnable);
        // The sweep puts 2 onto 3 and is left with 5, 2, 4. Free play: 5
        // onto 1, 4 onto 5 (over 3 and 2), 3 onto 4, 2 onto 3.
        check(1, 5, Reversed, &[1, 5, 3, 2, 4], 3, Winnable);
        // Unwinnable, as an independent brute force (in Python, over the
        // full row) found when this test was written.
        check(1, 5, Kept, &[1, 2, 4, 3, 5], 2, Unwinnable);
        check(1, 6, Kept, &[1, 2, 3, 5, 4, 6], 2, Unwinnable);
    }

    /// (c): `verify` rejects every kind of broken witness.
    #[test]
    fn verify_rejects_corrupted_witnesses() {
        let game = game(1, 5, StackMove::Kept);
        let deal = [1, 2, 4, 5, 3];
        let witness = solve(&game, &deal, &SolveParams::default()).witness;
        verify(&game, &deal, &witness).unwrap();
        let rejected = |broken: Vec<FreeMove>, why: &str| {
            let error = verify(&game, &deal, &broken).unwrap_err().to_string();
            assert!(error.contains(why), "{why}: {error} ({broken:?})");
        };
        // A move left out: two stacks at the end.
        rejected(witness[..witness.len() - 1].to_vec(), "leaves 2 stacks");
        // A move too early, before its stack is dealt (this witness first
        // puts 2 onto 1, then 3 onto 2 after card 5).
        let mut early = witness.clone();
        early[1].after_card = early[0].after_card;
        rejected(early, "stacks");
        // A move after the last card, or out of order.
        let mut late = witness.clone();
        late[0].after_card = deal.len() + 1;
        rejected(late, "only 5 cards");
        let mut unordered = witness.clone();
        unordered.swap(0, witness.len() - 1);
        rejected(unordered, "out of order");
        // Onto a stack two to the left, or onto a top that does not fit.
        let mut two = witness.clone();
        two[0] = FreeMove {
            after_card: 3,
            from: 2,
            to: 0,
        };
        rejected(two, "1 or 3 stacks left");
        let misfit = vec![FreeMove {
            after_card: 3,
            from: 2,
            to: 1,
        }];
        rejected(misfit, "tops 4 and 2 do not fit");
        // A deal with a rank the game does not have.
        assert!(verify(&game, &[1, 2, 4, 5, 6], &witness).is_err());
    }

    /// (b) on 52-card decks: deals the fixed sweep wins (found by playing
    /// random deals) are winnable, with the sweep's own moves as the
    /// witness. The standard deck under the seed's rule (the sweep wins
    /// about one deal in 24,000); with stacks kept the sweep never won in
    /// two million standard deals, so 4 x 7 cards there (1.5%).
    #[test]
    fn sweep_wins_are_winnable() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
        for game in [
            game(4, 13, StackMove::Reversed),
            game(4, 7, StackMove::Kept),
        ] {
            let mut solver = Solver::new(game);
            let mut deal = game.sorted_ranks();
            let mut found = 0;
            for _ in 0..1_000_000 {
                deal.shuffle(&mut rng);
                if game.play_ranks(&deal) != 1 {
                    continue;
                }
                found += 1;
                let solution = solver.solve(&deal, &SolveParams::default());
                assert_eq!((solution.verdict, solution.nodes), (Verdict::Winnable, 0));
                verify(&game, &deal, &solution.witness).unwrap();
                assert_eq!(
                    classify(&mut solver, &deal, &SolveParams::default()),
                    SWEEP_WON_WINNABLE
                );
                if found == 3 {
                    break;
                }
            }
            assert_eq!(found, 3, "{}", game.params());
        }
    }

    /// The standard deck, with a small budget: every verdict reached is
    /// consistent (witnesses verify), a budget of one state decides
    /// nothing, and the budget is respected.
    #[test]
    fn standard_deck_within_a_budget() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(44);
        let params = SolveParams { max_nodes: 20_000 };
        for stack_move in RULES {
            let game = game(4, 13, stack_move);
            let mut solver = Solver::new(game);
            let mut deal = game.sorted_ranks();
            for _ in 0..20 {
                deal.shuffle(&mut rng);
                let solution = solver.solve(&deal, &params);
                assert!(solution.nodes <= params.max_nodes);
                match solution.verdict {
                    Verdict::Winnable => verify(&game, &deal, &solution.witness).unwrap(),
                    _ => assert!(solution.witness.is_empty()),
                }
                if solution.nodes > 1 {
                    let tiny = solver.solve(&deal, &SolveParams { max_nodes: 1 });
                    assert_eq!((tiny.verdict, tiny.nodes), (Verdict::Undecided, 1));
                }
                // Restarts within the budget, many passes: the budget is
                // respected, a win verifies, and a second solve agrees.
                let mut restarting = Solver::new(game);
                restarting.restarts = Some(Restarts {
                    first_nodes: 500,
                    growth: 2,
                    shuffled_depth: 10,
                });
                let first = restarting.solve(&deal, &params);
                assert!(first.nodes <= params.max_nodes);
                if first.verdict == Verdict::Winnable {
                    verify(&game, &deal, &first.witness).unwrap();
                }
                assert_eq!(restarting.solve(&deal, &params), first);
            }
        }
    }

    /// (d): the Monte-Carlo counts, undecided deals included, are the same
    /// with one thread and with two.
    #[test]
    fn simulation_counts_do_not_depend_on_threads() {
        for stack_move in RULES {
            // 2 x 7 cards; a budget small enough that some deals stay
            // undecided.
            let simulation =
                SolveSimulation::new(game(2, 7, stack_move), SolveParams { max_nodes: 300 });
            let plan = RunPlan {
                chunk_size: 100,
                ..RunPlan::new(1_000, 5, 0)
            };
            let one = with_threads(1, || run(&simulation, &plan, &NoProgress));
            let two = with_threads(2, || run(&simulation, &plan, &NoProgress));
            assert_eq!(one, two);
            assert_eq!(one.iter().sum::<u64>(), 1_000);
            assert_eq!(one[SWEEP_WON_UNWINNABLE] + one[SWEEP_WON_UNDECIDED], 0);
            for bin in [SWEEP_LOST_WINNABLE, SWEEP_LOST_UNWINNABLE] {
                assert!(one[bin] > 0, "{stack_move:?}: {one:?}");
            }
        }
        assert_eq!(labels().len(), N_BINS);
        assert_eq!(bin(false, Verdict::Undecided), SWEEP_LOST_UNDECIDED);
        assert_eq!(labels()[SWEEP_LOST_WINNABLE], "sweep lost, winnable");
    }

    /// (e): the exact cross-tabulation covers every arrangement once, its
    /// "sweep won" bins add up to the game's own exact count of one-stack
    /// deals (the memoised enumerator), and its winnable count is the brute
    /// force's over every arrangement.
    #[test]
    fn exact_cross_tabulation_matches_the_game() {
        for stack_move in RULES {
            for (suits, ranks) in [(2, 3), (3, 3), (2, 4), (1, 7), (2, 5), (1, 9)] {
                let game = game(suits, ranks, stack_move);
                let counts = exact_cross_tabulation(&game, &NoProgress).unwrap();
                let total: BigUint = counts.counts.iter().sum();
                assert_eq!(total, counts.total);
                assert_eq!(counts.total, n_arrangements(&game.exact_deck()));
                let (outcomes, _) = count_outcomes(
                    &game,
                    &game.exact_deck(),
                    &SequentialParams::default(),
                    &NoProgress,
                )
                .unwrap();
                let sweep_won = &counts.counts[SWEEP_WON_WINNABLE]
                    + &counts.counts[SWEEP_WON_UNWINNABLE]
                    + &counts.counts[SWEEP_WON_UNDECIDED];
                assert_eq!(sweep_won, outcomes.counts[0], "{}", game.params());
                for impossible in [
                    SWEEP_WON_UNWINNABLE,
                    SWEEP_WON_UNDECIDED,
                    SWEEP_LOST_UNDECIDED,
                ] {
                    assert_eq!(counts.counts[impossible], BigUint::ZERO);
                }
                if game.n_cards() <= 8 {
                    let brute = arrangements(&game)
                        .iter()
                        .filter(|deal| brute_force(&game, deal))
                        .count();
                    let winnable =
                        &counts.counts[SWEEP_WON_WINNABLE] + &counts.counts[SWEEP_LOST_WINNABLE];
                    assert_eq!(winnable, BigUint::from(brute), "{}", game.params());
                }
            }
        }
    }
}
