//! Which Klondike deals can be won (RULES.md section 7): a solver that
//! decides a deal `won` (with its moves), `lost` (proved) or `undecided`
//! (its budget ran out).
//!
//! # The search (`search.rs`)
//!
//! A depth-first search over positions that never expands a position twice
//! (a table of the positions seen, its memory kept from deal to deal): it
//! stops at the first won position, whose path is the solution, and when
//! it has tried every edge of every position reached without a win, the
//! deal is `Lost`. That is a proof once every move left out below is shown
//! to lose no win: then from a winnable position some edge the search makes
//! leads to a winnable position whose placements (below) include one with
//! a shorter winning line, so a winnable deal reaches a won position along
//! edges the search makes, and an exhaustive search over the finitely many
//! positions finds one.
//!
//! # The position (`position.rs`)
//!
//! Piles stay in their slots; the face-down cards of a pile are the cards
//! dealt there (they never move), so its slot and their number name them.
//! Stock and waste are one sequence, the *talon*: the stock's cards still
//! there, in the order dealt (turning the waste over keeps its order, so
//! turning never reorders them), the first `waste` of them being the waste
//! (its top the last of these) and the rest the stock. The talon is that
//! sequence, the split, and the pass. Cards leave the talon only from the
//! waste's top.
//!
//! Call a face-up tableau card a *base* when it lies on a face-down card or
//! on the floor: the lowest face-up card of its pile. Every other face-up
//! card lies on a *parent*, a card one rank higher of the other colour, and
//! each card has two possible parents, colour twins (clubs and spades,
//! diamonds and hearts). The search's position records the foundations,
//! the talon, each pile's face-down count and base, and the *set* of
//! face-up cards, but not which parent each other face-up card lies on. A
//! position of the game that agrees with the record is a *placement* of
//! it.
//!
//! **Lemma (placements).** All placements of a position have the same
//! verdict. Two kinds of change link them. (a) *One-card swap*: a card `c`
//! lies on `p` and nothing lies on `p`'s twin `p'`. Moving `c` with every
//! card on it from `p` onto `p'` is a legal move, and moving it back is
//! too, so each of the two placements reaches the other: the same verdict.
//! (b) *Two-card swap*: `c` lies on `p` and `c`'s twin `c'` on `p'`; `Q` is
//! `P` with the run from `c` up and the run from `c'` up exchanged. Take a
//! winning line from `P` and make its moves in `Q` for as long as `c` lies
//! on `p` and `c'` on `p'` in `P`. Each is legal in `Q` and keeps `Q` equal
//! to `P` with the two runs exchanged: the pile tops are the same cards
//! (each run moved whole, its top with it); a move of a run led by a card
//! above `c` or `c'` moves the same cards in both; one led by `p`, `p'` or
//! a card under them carries the exchanged runs along; `p` and `p'` never
//! go home (they are covered), and no other card is touched differently.
//! The line wins, so in `P` one of `c`, `c'` leaves its parent at some
//! move, say `c` (with its run: onto a top, or home when it is a top). The
//! same move is legal in `Q`, where `c` and its run lie on `p'`. After it,
//! `P` has `c'` on `p'` and nothing on `p`, `Q` has `c'` on `p` and nothing
//! on `p'`, all else equal: a one-card swap apart, so `Q` reaches the
//! position the line reached, which is winnable. Any two placements are
//! linked by swaps: go through the parents from the top rank down and swap
//! wherever the placements differ; a swap at a parent moves whole runs of
//! lower cards, so it keeps every choice made above.
//!
//! So the search may make, in a position, any move that is legal in some
//! placement, and call it lost when one placement is. Counting is enough
//! for that. The non-base face-up cards of a twin pair `{c, c'}` each lie
//! on a face-up parent, one card to a parent, so in every placement the
//! tops among the parents are their face-up parents less those cards: a
//! card can be put on a parent exactly when that count is at least 1. A
//! face-up card `x` is a top in some placement exactly when no non-base
//! face-up card can lie on it, or one can and `x`'s twin is face up to
//! hold it (*may be a top*).
//!
//! The edges from a position: a card that may be a top goes home; a base,
//! with every card on it, goes onto a parent (or, of the top rank, to the
//! first empty pile, when face-down cards lie under it); a waste card goes
//! home, onto a parent or (top rank) to the first empty pile; a foundation
//! top comes back onto a parent or to the first empty pile. Left out:
//! moving a non-base card (with those on it) onto its other parent, which
//! leads to another placement of the same position. That is every move of
//! the game but the ones left out below: only top-rank cards go to an
//! empty pile, and they are always bases. The search is complete: take,
//! among the placements of a winnable position, one with the shortest
//! winning line. Its first move is not a move to the other parent (that
//! leads to a placement with a shorter line), so it is an edge, or one of
//! the moves below, which are shown to lose no win.
//!
//! **Finding the line of play.** The search's path is a list of edges.
//! [`position::realize`] plays each on a position of the game (one
//! placement): a card put on a parent goes on any top that fits, which the
//! count guarantees; a card going home that is not a top in this placement
//! has exactly one card on it and a face-up twin with none (the count
//! again), so first that card moves with its run onto the twin, the
//! one-card swap. The moves are then replayed by the rules checker
//! (`check.rs`), which shares nothing with the search.
//!
//! # Moves left out, and why no win is lost
//!
//! **Stock turns are grouped with the play they serve.** A turn changes
//! only the talon's split and pass, which no other move reads or writes
//! except a play of the waste's top; so a turn may be moved later past any
//! such other move. Every winning sequence thus becomes one in which turns
//! come only in runs ending with a play from the waste (turns after the
//! last play are dropped: the game is won). The search's talon edge is
//! "turn `t` times, then play the waste's top to its foundation or a pile",
//! for every waste top reachable by turning; of two stops with the same
//! waste size only the one reached first is kept (the later one has the
//! same cards and used no fewer passes, so any sequence from it is legal
//! from the first). The solution spells out the turns.
//!
//! **Piles are interchangeable.** Two positions that differ only by which
//! slot holds which pile (a pile with face-down cards is named by its
//! dealt slot and their number) have the same futures, up to renaming
//! slots in every move. So the table remembers the multiset of piles, a
//! top-rank card goes only to the first empty pile, and a top-rank base
//! with no face-down card under it is never moved to an empty pile (the
//! same position). Likewise, with unlimited passes the waste size matters only
//! through the waste tops it can reach: from a waste of `w` cards of a
//! talon of `n`, turning reaches `w, w + d, ...`, then `n`, then (over and
//! over) `d, 2d, ..., n`; so every `w` that is a multiple of `d` or equal to
//! `n` reaches the same set, and the table counts them as one.
//!
//! **Dead cards stay home.** Call a card on a foundation *dead* when it is
//! its suit's top, of rank `r`, both foundations of the other colour reach
//! `r - 1` and the other suit of its colour `r - 2` (an ace is always
//! dead). Lemma: a winnable position has a winning sequence in which no
//! card dead in it is ever taken back down. By induction on the rank: take
//! a winning sequence in which no dead card of lower rank comes down, and a
//! dead card `x` of rank `r`. The cards that could lie on `x` in the
//! tableau are the two of rank `r - 1` and the other colour; both are on
//! the foundations and dead (their other colour, `x`'s, reaches `r - 2`,
//! their own `r - 1`), so they never come down, and neither do the lower
//! cards of `x`'s suit (dead as well). So whenever `x` is in the tableau
//! nothing lies on it. Delete from the sequence every move of `x` alone
//! (down, between piles, home again) and shorten by `x` every run moved
//! with `x` on top: each remaining move stays legal in the position that
//! is the original one with `x` home instead of on a pile top (no card
//! depends on `x` being in the tableau, and a card needing `x` on its
//! foundation finds it there), and the end is still won. The search makes
//! no move taking a dead card down.
//!
//! **Safe foundation moves are made at once.** A card `c` that may be a
//! top (take the placement in which it is one: it has the position's
//! verdict), of rank `r`, that can go to its foundation and would be dead there (an ace,
//! or both foundations of the other colour at `r - 1` and the other suit of
//! its colour at `r - 2`) goes there, with no other move tried. The two
//! cards that could be built on `c` are then dead, so by the lemma some
//! winning sequence never brings them down, and nothing is ever built on
//! `c`; the lower cards of `c`'s suit are dead and stay home. Put `c` home
//! first and delete, as above, every move of `c` alone: the rest stays
//! legal (the card `c` covered is turned up earlier, and no move of the
//! sequence touched it while `c` covered it). Only pile tops (and, below,
//! free talon cards) are played so: with draw 3, or limited passes, a card
//! taken from the waste changes which waste tops later turns reach, so
//! that move is searched like any other.
//!
//! **With a free talon, safe waste cards go home at once too.** When one
//! card is turned at a time and passes are unlimited, turning brings any
//! talon card to the waste's top whatever has left the talon: the talon is
//! a reserve played in any order, and turns are grouped with plays. A
//! talon card that can go home and would be dead there goes home with no
//! other edge tried: in a winning sequence, delete every move of that card
//! and put it home first; the rest stays legal (the talon still offers
//! every card it offered, and nothing can be built on the card, both cards
//! that could be being dead and never coming down).
//!
//! **A card put down is built on at once.** Call a move that takes a card
//! `x` from its foundation to the tableau, when the card it leaves on top
//! there is dead (an ace always is), or that plays `x` from a free talon
//! to the tableau, a *put-down* of `x`. The search makes a put-down only
//! together with a move right after it that puts a card on `x`: a base one
//! rank lower of the other colour with every card on it, a waste top, or a
//! foundation top (not dead), the two moves one edge; it makes the
//! put-down alone when a face-up card that could lie on `x` lies on `x`'s
//! twin (moving it across to `x` is a change of placement, not a move),
//! and not at all when nothing can go on `x`. Other cards back from a
//! foundation are searched like any move.
//!
//! *Postponing.* In a winning line, let `k` be the first move after a
//! put-down `m` of `x` that moves `x` or puts a card on it (one exists: `x`
//! must go home). Moving `m` to just before `k` keeps the line legal: no
//! move needs a card covered, so none between needs `x` where it was put;
//! the card `x` was put on (or its empty pile) has nothing else put on it
//! meanwhile, since `x` covered it, and so is still free for `x` (a move
//! between that carried it with `x` on top carries it without `x`); from a
//! free talon `x` is still offered (turning reaches every talon card), and
//! on its foundation `x` blocks nothing, because only `x` can go onto the
//! card under it and that card, dead, never comes down (a winning line
//! that took a dead card down has a shorter one without those moves: "Dead
//! cards stay home"). If `k` moves `x` (home, onto a parent, to an empty
//! pile), then `m` and `k` merge into one move from where `x` was: a
//! shorter line.
//!
//! *The search loses no win.* Take a shortest winning line from a
//! placement of a winnable position. Postponing one put-down keeps it
//! shortest, and its `k` puts a card `y` on `x` (else the line
//! shortens). No such `k` is also the first such move of another put-down
//! `m'`: a put-down of `x` other than `m` is parted from `k` by a move of
//! `x`, so `k` could only be `m'`'s by moving `m'`'s card, `y`, and then
//! `m'` and `k` merge into a shorter line as above. So postponing a
//! put-down that is not followed at once by its `k` (while the line begins
//! with one) pairs it with its `k` and parts no other pair, and as the
//! pairs are at most the moves, this ends with a shortest line whose first
//! move is not a lone put-down: a move the search makes (by the rest of
//! this section), or a put-down and its `k`. That `k` puts on `x` a base of
//! the other colour one rank lower with every card on it, a waste top or a
//! foundation top (with turns before it: they commute with `m`), or moves
//! a face-up card that lay on `x`'s twin: an edge. (Postponing keeps the
//! line's other put-downs put-downs: while `m` waits the foundations are
//! no lower, so a card that was dead stays dead.)
//!
//! # Positions proved lost (`bound.rs`)
//!
//! A position `P` from which some card can never reach its foundation is
//! lost, and the search does not expand it (in both move sets: it holds no
//! win to find). The bound over-approximates every history from `P` with
//! facts, each true of a history from the first move that makes it so:
//!
//! - `top(x)`: `x` has been a pile's top card;
//! - `left(y)`, for `y` in the tableau in `P`: `y` has left the card (or
//!   the floor) it lies on in `P`;
//! - `waste_top(x)`, for `x` in the talon: `x` has been the waste's top;
//! - `home(c)`: `c` has been on its foundation;
//! - `emptied`: some pile has been empty.
//!
//! Rules (`parent`: one rank higher, the other colour; `lands(x)`: some
//! parent of `x` has `top`, or `x` is of the top rank and `emptied`):
//!
//! 1. `top(x)` if `x` is a top in `P`; or `x` lies under `z` in `P` and
//!    `left(z)`; or `x` is not in the tableau in `P`, `waste_top(x)` or
//!    `home(x)`, and `lands(x)`.
//! 2. `home(c)` if `c` is home in `P`; or `c - 1` is home (or `c` is an
//!    ace) and `top(c)` or `waste_top(c)`.
//! 3. `left(y)` if `y` is face up in `P` or `top(y)`, and either `top(y)`
//!    with `home(y - 1)` (or `y` an ace), or `lands(y)`.
//! 4. `emptied` if a pile of `P` is empty, or `left(b)` for the bottom card
//!    `b` of some pile.
//! 5. `waste_top(x)` if turning alone reaches `x` from `P`'s talon. Say a
//!    talon card `j` *may leave* when `waste_top(j)` and `home(j - 1)` (or
//!    `j` is an ace) or `lands(j)`. If `P` is not in its last pass (passes
//!    unlimited, or more left): `waste_top(x)` for every talon card once
//!    some talon card may leave. If `P` is in its last pass:
//!    `waste_top(x)` if the card `z` just after `x` in `P`'s talon (the
//!    talon's order: waste bottom first, then the stock) may leave.
//!
//! Claim: every fact true of a history from `P` is in the least fixpoint
//! of these rules. By induction on the moves: the facts true before a move
//! are in it; take the facts the move makes true, in the order `left`,
//! `home`, `top`, `emptied`, `waste_top`. A card `y` leaving the card or
//! floor it lay on in `P` is face up (so face up in `P`, or turned up as a
//! top earlier) and goes home (a top then, its lower card home) or onto a
//! top that is its parent, or, of the top rank, to an empty pile: rule 3
//! on facts already true. A card going home comes from a pile top or the
//! waste's top, onto its lower card: rule 2. A card `x` that becomes a top
//! for the first time either lay under the same card `z` as in `P` until
//! now (a card on `x` changes only when `x` is uncovered, which makes it a
//! top; `x` cannot go home or move alone before), so `z` left it in this
//! move (rule 1, on `left(z)` just shown), or `x` was not in the tableau
//! in `P` and arrived alone from the waste or its foundation onto a parent
//! top or an empty pile (rule 1). A pile empties for the first time when
//! the card on its floor in `P` leaves it (rule 4). And while no talon card
//! has left, the talon holds `P`'s cards, so the waste tops are those
//! turning alone reaches; the first talon card to leave is one of them,
//! going home or onto a pile (rule 5). In the last pass the waste is
//! never turned over (RULES.md section 7), so no later talon is ever
//! reordered: the talon is always a subsequence of `P`'s, cards leave it
//! only from the waste's top, and turning only moves the stock's front
//! cards onto the waste, in groups of `draw` counted from `P`'s stock
//! (leaving cards changes the waste, not the stock). So a card that a
//! turn makes the waste's top is one that turning alone reaches from
//! `P`. Any other card `x` becomes the waste's top when the card `z'`
//! over it leaves; `z'` comes after `x` in the talon's order and every
//! card between them had been turned before `z'` and is gone, so the card
//! `z` just after `x` has left by now (`z = z'`, or earlier), and it left
//! as a waste top going home or onto a pile: rule 5. In a won history every card is
//! home, so if the fixpoint misses `home(c)` for a card `c`, `P` is lost.
//!
//! For the search's position the bound reads the union of its
//! placements' tableau relations (a non-base card may lie on either
//! face-up parent; every card that may be a top is a top): the rules only
//! ever add facts from these relations, so the fixpoint over the union
//! holds every placement's, and a card it never brings home is never home
//! in any placement.
//!
//! The fixpoint is a few dozen passes of AND/OR over 64-bit card sets
//! (bit = the card's byte code), with no allocation.
//!
//! # The relaxation
//!
//! A deal lost when the stock is turned one card at a time with unlimited
//! passes is lost under every stock rule. Take a sequence of moves legal
//! under some rule; drop its turns. Under draw 1 with unlimited passes the
//! talon holds the same cards in the same order at every point (cards
//! leave it only from the waste's top, and turning never reorders it), and
//! turning brings any talon card to the waste's top, so turns can be put
//! back to make each play from the waste legal: the sequence wins there
//! too. So unless the rules are already that one, the solver also
//! searches the deal under it (the *relaxation*), for up to half the
//! budget, once the search has expanded [`FIRST_LOOK`] positions alone
//! (most won deals are won by then). Its exhaustion proves the deal lost;
//! its wins prove nothing. It costs less than the search it spares: its
//! talon is free, so safe waste cards go home at once and the waste's
//! split is no part of its positions, and a card played from it to the
//! tableau is built on at once (above). Measured on the first 1,000
//! draw-3 deals of seed 1 at 4,000,000 states, before that rule: 3
//! undecided, 65 s in all, against 4 and 90 s without the relaxation;
//! deal 508, which the search alone proves lost in 33.6 million states,
//! the relaxation proved lost in 1.35 million (now 452,000), and deal 626
//! in 171,000 against 3.7 million. Of the deals still undecided the
//! relaxation wins each: their proofs need the stock's order.
//!
//! # The table
//!
//! Each position's key hashes its record (foundation heights, the talon's
//! remaining cards, split and pass, the face-up set, each pile's base with
//! its face-down identity) to 128 bits, of which 112 are stored (16 hold
//! the generation that clears the table in O(1) between deals). If the
//! hash behaves as a random function, the chance that any two of `N`
//! positions of one deal share a stored key is at most `N^2 / 2^113`: below
//! `10^-16` for `N = 10^9`. A shared key could only make the search skip a
//! position (a wrong `Lost`, never a wrong `Won`: a win is a replayable
//! sequence).

mod bound;
mod position;
pub mod sample;
mod search;
mod state;
mod table;
mod verdict;

#[cfg(test)]
mod tests;

use std::time::Instant;

use crate::cards::Card;
use crate::error::Result;
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Passes};

use position::Position;
use search::{Outcome, Search};
use state::{Deal, State};
pub use verdict::{DEFAULT_MAX_NODES, SolveBudget, Verdict};

/// The verdict on one deal and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// For `Won`, the winning moves from the deal, in order (every move
    /// atomic, stock turns included); otherwise empty.
    pub moves: Vec<FreeMove>,
    /// States the search expanded.
    pub nodes: u64,
}

/// The cards of `deal` (the layout's cards, first dealt first; checked)
/// that can never reach their foundation under `rules`, whatever is
/// played, as the bound of the module doc ("Positions proved lost") shows
/// at the deal itself: a proof that the deal is lost that a reader can
/// follow without the search. Empty when the bound proves nothing at the
/// deal (a lost deal's proof is then the search's exhaustion). Cards in
/// code order (suit, then rank).
pub fn never_home_at_deal(rules: &FreePlayRules, deal: &[Card]) -> Result<Vec<Card>> {
    rules.layout.check_deal(deal)?;
    let (facts, root) = Deal::new(rules, deal);
    let mut cards = bound::never_home(&facts, &root);
    let mut never_home = Vec::new();
    while cards != 0 {
        let code = cards.trailing_zeros() as u8;
        cards &= cards - 1;
        never_home.push(Card::new(code & 0x0f, code >> 4));
    }
    Ok(never_home)
}

/// A solver for one set of rules, reusing its memory from deal to deal.
///
/// Guarantee: the verdict and moves for a deal depend only on the rules,
/// the deal and `max_nodes` (not on the deals solved before), unless
/// `max_time` stops the search first.
pub struct Solver {
    rules: FreePlayRules,
    search: Search,
    /// The search of the relaxation (the module doc, "The relaxation").
    relaxed: Search,
    /// A rule broken on purpose (tests only: see [`state::Broken`]).
    #[cfg(test)]
    broken: Option<state::Broken>,
    /// [`FIRST_LOOK`], lowered in tests so that small deals reach the
    /// relaxation.
    first_look: u64,
}

/// Positions the search expands on its own before the relaxation runs:
/// most won deals are won within them.
const FIRST_LOOK: u64 = 100_000;

/// The relaxation may spend up to half the budget (of positions, and of
/// the time left when there is a time budget).
const RELAXATION_SHARE: u64 = 2;

impl Solver {
    /// A solver for `rules`.
    pub fn new(rules: FreePlayRules) -> Solver {
        Solver {
            rules,
            search: Search::new(),
            relaxed: Search::new(),
            #[cfg(test)]
            broken: None,
            first_look: FIRST_LOOK,
        }
    }

    /// [`Deal::new`], with the rule broken on purpose in tests.
    fn deal(&self, rules: &FreePlayRules, deal: &[Card]) -> (Deal, State) {
        #[cfg_attr(not(test), allow(unused_mut))]
        let (mut facts, root) = Deal::new(rules, deal);
        #[cfg(test)]
        {
            facts.broken = self.broken;
        }
        (facts, root)
    }

    /// The rules solved.
    pub fn rules(&self) -> FreePlayRules {
        self.rules
    }

    /// Decides `deal` (the layout's cards, first dealt first; checked):
    /// the search alone for [`FIRST_LOOK`] positions, then (unless the
    /// rules are their own relaxation) the relaxation for up to a
    /// [`RELAXATION_SHARE`]th of the budget, whose exhaustion proves the
    /// deal lost, then the search again, going on where it stopped, until
    /// the budget (both searches' positions together) runs out.
    pub fn solve(&mut self, deal: &[Card], budget: &SolveBudget) -> Result<Solution> {
        self.rules.layout.check_deal(deal)?;
        let (facts, root) = self.deal(&self.rules, deal);
        let deadline = budget.max_time.map(|limit| Instant::now() + limit);
        let max_nodes = budget.max_nodes;
        let (position, down_cards) = Position::of(&root);
        let mut outcome = self.search.start(&facts, &down_cards, position);
        if outcome == Outcome::Paused {
            let until = self.first_look.min(max_nodes);
            outcome = self.search.resume(&facts, &down_cards, until, deadline);
        }
        let mut relaxed_nodes = 0;
        // What the relaxation may spend: its share of the budget, and no
        // more than is left (its root counts as a position expanded).
        let allowance =
            (max_nodes / RELAXATION_SHARE).min(max_nodes.saturating_sub(self.search.nodes));
        if outcome == Outcome::Paused && !facts.talon_is_free() && allowance > 0 {
            let mut rules = FreePlayRules {
                draw: 1,
                passes: Passes::Unlimited,
                ..self.rules
            };
            if facts.broken(state::Broken::RelaxToOnePass) {
                rules.draw = 3;
                rules.passes = Passes::Limited(1);
            }
            let (relaxed_facts, relaxed_root) = self.deal(&rules, deal);
            let (relaxed_position, relaxed_down_cards) = Position::of(&relaxed_root);
            // Under a time budget too, the relaxation gets its share: of
            // the time left, as of the positions.
            let relaxed_deadline = deadline.map(|at| {
                let now = Instant::now();
                now + at.saturating_duration_since(now) / RELAXATION_SHARE as u32
            });
            let search = &mut self.relaxed;
            let mut relaxed = search.start(&relaxed_facts, &relaxed_down_cards, relaxed_position);
            if relaxed == Outcome::Paused {
                relaxed = search.resume(
                    &relaxed_facts,
                    &relaxed_down_cards,
                    allowance,
                    relaxed_deadline,
                );
            }
            relaxed_nodes = search.nodes;
            if relaxed == Outcome::Exhausted {
                return Ok(Solution {
                    verdict: Verdict::Lost,
                    moves: Vec::new(),
                    nodes: self.search.nodes + relaxed_nodes,
                });
            }
        }
        if outcome == Outcome::Paused {
            let until = max_nodes.saturating_sub(relaxed_nodes);
            outcome = self.search.resume(&facts, &down_cards, until, deadline);
        }
        let (verdict, moves) = match outcome {
            Outcome::Won => (
                Verdict::Won,
                self.search.solution(&facts, &down_cards, root),
            ),
            Outcome::Exhausted => (Verdict::Lost, Vec::new()),
            Outcome::Paused => (Verdict::Undecided, Vec::new()),
        };
        Ok(Solution {
            verdict,
            moves,
            nodes: self.search.nodes + relaxed_nodes,
        })
    }
}
