//! Which Klondike deals can be won (RULES.md section 7): a solver that
//! decides a deal `won` (with its moves), `lost` (proved) or `undecided`
//! (its budget ran out).
//!
//! # The search
//!
//! A depth-first search over positions that never expands a position twice
//! (a table of the positions seen, kept from deal to deal): it stops at the
//! first won position, whose path is the solution, and when it has tried
//! every move of every position reached without a win, the deal is `Lost`.
//! That is a proof once every move left out below is shown to lose no win:
//! then from a winnable position some move the search makes leads to a
//! winnable position with a shorter winning sequence, so a winnable deal
//! reaches a won position along moves the search makes, and an exhaustive
//! search over the finitely many positions finds one.
//!
//! Up to three searches share each deal's budget. First the *abstract*
//! search (below) runs alone: the complete move set over positions in
//! which two colour twins both face up in the tableau are not told apart.
//! Its exhaustion proves the deal lost, and it exhausts lost deals with
//! several times fewer positions than the complete search: measured on
//! the first 649 random draw-3 deals of seed 1, each search run alone, the
//! 123 deals both proved lost took 6.2 million positions in all in the
//! abstract search and 12.3 million in the complete one (on one deal,
//! 143,000 against 2.6 million), and four more were proved lost by the
//! abstract search alone within 8 million positions (at 1.6, 2.4, 3.3 and
//! 4.6 million). A win it reaches along moves of the game is real; one
//! that sends a twin home in the other's place proves nothing (a
//! *spurious* win). Its twin-home moves come after every move of the
//! game, so it mostly meets real wins: alone on the first 300 draw-3
//! deals of seed 1 it won 178 deals (deal 10 in 384 positions) and met a
//! spurious win on 67. After a spurious win two searches take turns, a
//! slice of positions at a time, from scratch: a *greedy* search with
//! fewer moves (no card back from a foundation; a part run only when the
//! card it uncovers can go home next), which finds most wins fast and
//! whose exhaustion proves nothing, and the abstract search *refined*:
//! the twin pairs whose merging made the spurious win are told apart from
//! then on (below, "Refining"), and it starts again after each spurious
//! win, at worst until it is the *complete* search (every pair told
//! apart). Whichever decides first decides the deal. What an abstract
//! search given up after a spurious win proved is not lost: the positions
//! of its finished components are lost, and the searches after it do not
//! expand them (below, "Reusing proofs after a spurious win").
//!
//! Why the abstract search runs alone first: most deals left undecided are
//! lost, and only it or the complete search can prove that. Measured on
//! 1,000 draw-3 deals of seed 1 at the default budget, with the greedy
//! search taking every other slice from the start 20 deals stayed
//! undecided; with this order 17 (four more proved lost; one deal, 82,
//! that the greedy search wins in 1.37 million positions, is undecided,
//! its spurious win coming only after 3.4 million).
//!
//! # The position
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
//! top-rank card goes only to the first empty pile, and a top-rank-led run
//! that fills its pile is never moved to an empty pile (the same
//! position). Likewise, with unlimited passes the waste size matters only
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
//! **Safe foundation moves are made at once.** A pile's top card `c` of
//! rank `r` that can go to its foundation and would be dead there (an ace,
//! or both foundations of the other colour at `r - 1` and the other suit of
//! its colour at `r - 2`) goes there, with no other move tried. The two
//! cards that could be built on `c` are then dead, so by the lemma some
//! winning sequence never brings them down, and nothing is ever built on
//! `c`; the lower cards of `c`'s suit are dead and stay home. Put `c` home
//! first and delete, as above, every move of `c` alone: the rest stays
//! legal (the card `c` covered is turned up earlier, and no move of the
//! sequence touched it while `c` covered it). Only pile tops are played
//! so: a card taken from the waste changes which waste tops later turns
//! reach (with draw 3), so that move is searched like any other.
//!
//! Every other legal move is tried (part runs included), except that a
//! position already in the table is not expanded again.
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
//! The fixpoint is a few dozen passes of AND/OR over 64-bit card sets
//! (bit = the card's byte code), with no allocation.
//!
//! # The abstract search
//!
//! Call a face-up tableau card *ambiguous* when its colour twin (the card
//! of the same rank and colour: clubs and spades, diamonds and hearts) is
//! face up in the tableau too. Swapping the two cards of any ambiguous
//! pairs gives a position of the game with the same piles of ranks and
//! colours, the same foundations, talon and face-down cards: a
//! *placement* of the position. The abstract search stores one position
//! per class of placements (the key writes every ambiguous heart or spade
//! as its twin, so two positions share a key exactly when each is a
//! placement of the other), and from the position it stored, `R`, it makes
//! the complete search's moves, except that (1) a safe foundation move is
//! made at once only for a top that is not ambiguous, and (2) an ambiguous
//! top may also go home as its twin ([`search`]'s `TwinHome`: the two
//! swap, then the top goes home), which is no move of the game.
//!
//! Claim: if some placement `C` of `R` is winnable, some move the abstract
//! search makes from `R` leads to a class with a placement that is
//! winnable in fewer moves (counted as the complete search counts them).
//! The face-up cards that are not ambiguous lie in the same places in
//! every placement, and every placement has the same foundations and
//! talon. A move that reads only ranks, colours and where the piles' ends
//! are (every move to a pile, and turning) is legal in `C` when it is in
//! `R`, and in `C` it gives a placement of what it gives in `R` (the cards
//! keep their identities; a pair stays ambiguous, or becomes so when a card
//! arrives from the talon or a foundation). A foundation move from a pile
//! whose top is the same card in `R` and `C` is the search's own, and a
//! safe move in `R` of a top that is not ambiguous is safe in `C` too (the
//! same card, the same foundations), so the lemma above applies in `C`.
//! If the top is ambiguous and `C` has its twin there, `TwinHome` gives
//! the twin's going home, and leaves the other card where the twin lay in
//! `R`, which is where it lies in `C`. Positions proved lost are proved so
//! for every placement (`bound.rs`, which takes the union of the
//! placements' tableau relations). So, as for the complete search, a
//! winnable deal leads the abstract search to a won position; exhausting
//! it proves the deal lost. A won position it reaches along moves of the
//! game alone (no `TwinHome`) is a real win: each position it stores was
//! reached from the deal by its path. A won position reached through a
//! `TwinHome` proves nothing.
//!
//! **Refining.** Nothing above needs every pair merged: merge only the
//! pairs of a set `M` (a card is ambiguous when it and its twin are face
//! up and their pair is in `M`; placements swap ambiguous pairs, so pairs
//! of `M` only; `TwinHome` only for them) and the claim and its proof
//! hold word for word; with `M` empty the abstract search is the complete
//! one. After a spurious win the solver removes from `M` every pair that
//! the win's `TwinHome` moves sent home and starts the abstract search
//! again: each restart tells at least one more pair apart, so there are
//! at most 26. Measured on the 17 draw-3 deals of seed 1 (of 1,000) left
//! undecided at the default budget with the complete search after the
//! first spurious win: deal 606, lost, is now proved so in 2.1 million
//! positions.
//!
//! # Reusing proofs after a spurious win
//!
//! An abstract search given up after a spurious win has still proved
//! positions lost: those of every strongly connected component of its
//! graph that it *finished*. It keeps Tarjan's bookkeeping as it goes:
//! each position entered gets the next depth-first index; each open
//! position the least index of an open position it reaches by a move
//! (directly, or through a child finished since); and a stack of the
//! positions not yet in a finished component. A position that has tried
//! all its moves and reaches no open position entered before it is the
//! first of a finished component: it and the positions above it on the
//! stack. Every move from a finished component leads into the component,
//! into a component finished earlier, or to a position proved lost (by
//! the bound, or as below); never to a won position, since the search
//! stops at the first won position it reaches, real or spurious, and the
//! component was finished before. So the positions reachable from it hold
//! no won position, and the claim above (a winnable placement leads, by
//! some move the search makes, to a class with a placement winnable in
//! fewer moves, down to a won position) shows that no placement of any
//! of its positions is winnable. The solver keeps the keys of these
//! classes, with the pairs they were merged under: *lost classes*.
//!
//! Every search of the deal after it (refined, complete or greedy) treats
//! a position as lost, and does not expand it, when the position's key
//! under an earlier search's pairs `M` is among that search's lost
//! classes. Such a key names the position's `M`-class exactly (two
//! positions share it exactly when each is a placement of the other), so
//! the position is a placement of a lost class: lost. For the exhaustion
//! of a refined search (pairs `M'` within `M`) the proof needs every
//! placement of its position lost, and these, swapping only pairs of
//! `M'`, are placements of the same `M`-class. So the proofs above hold
//! with lost classes as with the bound, and a refined search's own
//! finished components are lost classes for the searches after it.
//!
//! Measured on the first 1,000 draw-3 deals of seed 1 at the default
//! budget: 2 more deals decided, both won (82 in 3.40 million positions,
//! just after its spurious win, and 907 in 336,000), 14 undecided against
//! 16; no deal changed between won and lost; the 168 deals whose count
//! changed took 16.7 million positions against 22.9 million (116.4 million
//! against 126.8 million for the 1,000). The bookkeeping costs a
//! depth-first index in each table slot and a bit per position; deals 3
//! and 23 (no spurious win) took the same time within the machine's noise.
//!
//! # The table
//!
//! Each position's key hashes its exact description (foundation heights,
//! the talon's remaining cards, split and pass, each pile's run with its
//! face-down identity) to 128 bits, of which 112 are stored (16 hold the
//! generation that clears the table in O(1) between deals), beside the
//! position's depth-first index. If the hash behaves as a random function, the chance that any two of `N` positions
//! of one deal share a stored key is at most `N^2 / 2^113`: below `10^-16`
//! for `N = 10^9`. A shared key could only make the search skip a position
//! (a wrong `Lost`, never a wrong `Won`: a win is a replayable sequence).

mod bound;
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
use crate::games::klondike::free_play::{FreeMove, FreePlayRules};

use search::{LostClasses, MoveSet, Outcome, Search};
use state::{ALL_PAIRS, Deal, State, Twins};
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
    let mut cards = bound::never_home(&facts, &root, Twins::Distinct);
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
    /// The greedy search, for wins.
    greedy: Search,
    /// The abstract search, refined after each win that proves nothing
    /// (at worst into the complete search).
    thorough: Search,
    lost: LostClasses,
}

/// Which search found a win (its path is the solution).
#[derive(Clone, Copy)]
enum Winner {
    Greedy,
    Thorough,
}

/// Positions each of the two searches that take turns after a spurious
/// win expands in its turn.
const SLICE: u64 = 1 << 16;

impl Solver {
    /// A solver for `rules`.
    pub fn new(rules: FreePlayRules) -> Solver {
        Solver {
            rules,
            greedy: Search::new(),
            thorough: Search::new(),
            lost: LostClasses::new(),
        }
    }

    /// The rules solved.
    pub fn rules(&self) -> FreePlayRules {
        self.rules
    }

    /// Decides `deal` (the layout's cards, first dealt first; checked).
    pub fn solve(&mut self, deal: &[Card], budget: &SolveBudget) -> Result<Solution> {
        self.rules.layout.check_deal(deal)?;
        let (facts, root) = Deal::new(&self.rules, deal);
        let deadline = budget.max_time.map(|limit| Instant::now() + limit);
        let (verdict, nodes, winner) = self.decide(&facts, root, budget.max_nodes, deadline);
        let moves = match winner {
            Some(Winner::Greedy) => self.greedy.solution(&facts, root),
            Some(Winner::Thorough) => self.thorough.solution(&facts, root),
            None => Vec::new(),
        };
        Ok(Solution {
            verdict,
            moves,
            nodes,
        })
    }

    /// The searches of the module doc: the abstract search alone until it
    /// decides or meets a spurious win; then the greedy search and the
    /// abstract search, refined after each spurious win, take turns a
    /// [`SLICE`] at a time, until one decides or `max_nodes` positions
    /// (all searches together) or the deadline run out. Returns the
    /// verdict, the positions expanded and, for a win, the search whose
    /// path it is.
    fn decide(
        &mut self,
        facts: &Deal,
        root: State,
        max_nodes: u64,
        deadline: Option<Instant>,
    ) -> (Verdict, u64, Option<Winner>) {
        let mut pairs = ALL_PAIRS;
        // Positions of the abstract searches given up after a spurious win.
        let mut retired = 0;
        let mut greedy_started = false;
        let mut greedy_going = false;
        self.lost.clear();
        let mut outcome = self
            .thorough
            .start(facts, root, MoveSet::Abstract(pairs), &self.lost);
        loop {
            let greedy_nodes = if greedy_started { self.greedy.nodes } else { 0 };
            let spent = retired + greedy_nodes + self.thorough.nodes;
            match outcome {
                Outcome::Won => return (Verdict::Won, spent, Some(Winner::Thorough)),
                Outcome::Exhausted => return (Verdict::Lost, spent, None),
                Outcome::Spurious => {
                    retired += self.thorough.nodes;
                    self.lost.add(&self.thorough);
                    pairs &= !self.thorough.pairs_sent_home(facts, root);
                    if !greedy_started {
                        greedy_started = true;
                        match self.greedy.start(facts, root, MoveSet::Greedy, &self.lost) {
                            Outcome::Won => {
                                let spent = retired + self.greedy.nodes;
                                return (Verdict::Won, spent, Some(Winner::Greedy));
                            }
                            // The root is lost by the bound on the position
                            // itself, which the abstract search's bound (on
                            // every placement) may miss: a proof in any move
                            // set.
                            Outcome::Exhausted => {
                                return (Verdict::Lost, retired + self.greedy.nodes, None);
                            }
                            Outcome::Paused => greedy_going = true,
                            Outcome::Spurious => {
                                unreachable!("only the abstract search is spurious")
                            }
                        }
                    }
                    let move_set = match pairs {
                        0 => MoveSet::Complete,
                        pairs => MoveSet::Abstract(pairs),
                    };
                    outcome = self.thorough.start(facts, root, move_set, &self.lost);
                    continue;
                }
                Outcome::Paused => {}
            }
            if spent >= max_nodes || deadline.is_some_and(|at| Instant::now() >= at) {
                return (Verdict::Undecided, spent, None);
            }
            if greedy_going {
                let until = self.greedy.nodes + SLICE.min(max_nodes - spent);
                match self.greedy.resume(facts, until, deadline, &self.lost) {
                    Outcome::Won => {
                        let spent = retired + self.greedy.nodes + self.thorough.nodes;
                        return (Verdict::Won, spent, Some(Winner::Greedy));
                    }
                    // Exhausting the greedy move set proves nothing.
                    Outcome::Exhausted => greedy_going = false,
                    Outcome::Paused => {}
                    Outcome::Spurious => unreachable!("only the abstract search is spurious"),
                }
            }
            let greedy_nodes = if greedy_started { self.greedy.nodes } else { 0 };
            let spent = retired + greedy_nodes + self.thorough.nodes;
            if spent >= max_nodes {
                return (Verdict::Undecided, spent, None);
            }
            let allowance = max_nodes - spent;
            let until = self.thorough.nodes
                + if greedy_going {
                    SLICE.min(allowance)
                } else {
                    allowance
                };
            outcome = self.thorough.resume(facts, until, deadline, &self.lost);
        }
    }
}
