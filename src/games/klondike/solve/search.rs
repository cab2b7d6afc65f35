//! The depth-first search over positions (the module doc of `solve` states
//! what it proves). An explicit stack of frames and one arena of moves,
//! both kept from deal to deal: nothing is allocated per position once
//! they have grown.

use std::time::Instant;

use super::bound::proves_lost;
use super::state::{Deal, MAX_PILES, MAX_TALON, State, Step, TalonStop, fits_on, rank, suit};
use super::table::SeenTable;
use super::verdict::{SolveBudget, Verdict};

/// One position on the search path and the moves left to try from it.
struct Frame {
    state: State,
    /// Its moves are `moves[first..end]`; `next` is the next to try.
    first: usize,
    end: usize,
    next: usize,
    /// The path's length before the move that led here.
    path_base: usize,
}

/// Which moves the search makes from each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MoveSet {
    /// Every move but those the module doc proves needless: exhausting it
    /// proves a deal lost.
    Complete,
    /// Fewer moves, to find wins fast: no card back from a foundation, and
    /// a part run only when the card it uncovers can go home next.
    /// Exhausting it proves nothing.
    Greedy,
}

/// Positions between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 10;

pub(super) struct Search {
    seen: SeenTable,
    frames: Vec<Frame>,
    moves: Vec<Step>,
    /// The moves from the deal to the position being searched.
    pub(super) path: Vec<Step>,
}

/// What entering a position found.
enum Entered {
    Won,
    Seen,
    /// New, and proved lost by the bound (`bound.rs`): not expanded.
    Lost,
    New,
}

impl Search {
    pub(super) fn new() -> Search {
        Search {
            seen: SeenTable::new(),
            frames: Vec::new(),
            moves: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Searches from `root`; on `Won`, `self.path` holds the winning moves.
    /// Returns the verdict and the positions expanded.
    pub(super) fn run(
        &mut self,
        deal: &Deal,
        root: State,
        move_set: MoveSet,
        budget: &SolveBudget,
    ) -> (Verdict, u64) {
        self.seen.clear();
        self.frames.clear();
        self.moves.clear();
        self.path.clear();
        let started = budget.max_time.map(|limit| (Instant::now(), limit));
        let mut nodes = 0u64;
        match self.enter(deal, root, move_set, 0) {
            Entered::Won => return (Verdict::Won, nodes),
            Entered::Seen => unreachable!("the table was cleared"),
            Entered::Lost => return (Verdict::Lost, nodes),
            Entered::New => nodes += 1,
        }
        while let Some(frame) = self.frames.last_mut() {
            if frame.next == frame.end {
                let (first, path_base) = (frame.first, frame.path_base);
                self.frames.pop();
                self.moves.truncate(first);
                self.path.truncate(path_base);
                continue;
            }
            let step = self.moves[frame.next];
            frame.next += 1;
            let mut child = frame.state;
            child.apply(deal, &step);
            let path_base = self.path.len();
            self.path.push(step);
            match self.enter(deal, child, move_set, path_base) {
                Entered::Won => return (Verdict::Won, nodes),
                Entered::Seen | Entered::Lost => self.path.truncate(path_base),
                Entered::New => {
                    nodes += 1;
                    if nodes >= budget.max_nodes {
                        return (Verdict::Undecided, nodes);
                    }
                    if nodes.is_multiple_of(CLOCK_EVERY)
                        && started.is_some_and(|(at, limit)| at.elapsed() >= limit)
                    {
                        return (Verdict::Undecided, nodes);
                    }
                }
            }
        }
        (Verdict::Lost, nodes)
    }

    /// Plays the safe moves from `state`, then records it as seen and
    /// pushes its frame if it is new.
    fn enter(
        &mut self,
        deal: &Deal,
        mut state: State,
        move_set: MoveSet,
        path_base: usize,
    ) -> Entered {
        state.play_safe(deal, &mut self.path);
        if state.won(deal) {
            return Entered::Won;
        }
        if !self.seen.insert(state.key(deal)) {
            return Entered::Seen;
        }
        // In both move sets: a lost position holds no win to find, and
        // it stays in the table, so the bound runs once per position.
        if proves_lost(deal, &state) {
            return Entered::Lost;
        }
        let first = self.moves.len();
        generate(deal, &state, move_set, &mut self.moves);
        let end = self.moves.len();
        self.frames.push(Frame {
            state,
            first,
            end,
            next: first,
            path_base,
        });
        Entered::New
    }
}

/// Appends the moves the search tries from `state`, most promising first:
/// foundation moves, then runs that turn a card up (from the pile with
/// most face-down cards first), waste cards onto piles, runs that empty a
/// pile, part runs, and last cards back from the foundations. Moves the
/// module doc proves needless are not made.
fn generate(deal: &Deal, state: &State, move_set: MoveSet, out: &mut Vec<Step>) {
    let n_piles = usize::from(state.n_piles);
    let piles = &state.piles[..n_piles];
    let first_empty = piles.iter().position(|p| p.len == 0).map(|p| p as u8);
    let mut stops = [TalonStop::default(); MAX_TALON + 1];
    let n_stops = deal.talon_stops(&state.talon, &mut stops);
    let stops = &stops[..n_stops];
    let waste_card = |stop: &TalonStop| state.talon.cards[usize::from(stop.waste) - 1];
    let to_foundation = |card: u8| state.foundation[suit(card)] + 1 == rank(card);

    // Targets for a run led by `card` from slot `from`: piles whose top it
    // fits, and the first empty pile for a top-rank card.
    let targets = |card: u8, from: usize, out: &mut Vec<Step>, make: &dyn Fn(u8) -> Step| {
        for (to, pile) in piles.iter().enumerate() {
            if to != from && pile.top().is_some_and(|top| fits_on(card, top)) {
                out.push(make(to as u8));
            }
        }
        if rank(card) == deal.top_rank
            && let Some(empty) = first_empty
        {
            out.push(make(empty));
        }
    };

    // 1. Foundation moves: pile tops, then waste tops.
    for (from, pile) in piles.iter().enumerate() {
        if pile.top().is_some_and(to_foundation) {
            out.push(Step::PileToFoundation { from: from as u8 });
        }
    }
    for stop in stops {
        if to_foundation(waste_card(stop)) {
            out.push(talon_step(stop, Step::FOUNDATION));
        }
    }

    // 2. Whole runs that turn a face-down card up, most face-down first.
    let mut order = [0usize; MAX_PILES];
    for (i, slot) in order.iter_mut().enumerate().take(n_piles) {
        *slot = i;
    }
    order[..n_piles].sort_unstable_by_key(|&slot| std::cmp::Reverse(piles[slot].down));
    for &from in &order[..n_piles] {
        let pile = &piles[from];
        if pile.down > 0 && pile.len > pile.down {
            let card = pile.cards[usize::from(pile.down)];
            let cards = pile.len - pile.down;
            targets(card, from, out, &|to| Step::PileToPile {
                from: from as u8,
                to,
                cards,
            });
        }
    }

    // 3. Waste tops onto piles.
    for stop in stops {
        let card = waste_card(stop);
        targets(card, usize::MAX, out, &|to| talon_step(stop, to));
    }

    // 4. Whole runs that empty their pile (never a top-rank-led one: it
    //    would only move to an empty pile, the same position).
    for (from, pile) in piles.iter().enumerate() {
        if pile.down == 0 && pile.len > 0 && rank(pile.cards[0]) != deal.top_rank {
            let card = pile.cards[0];
            targets(card, from, out, &|to| Step::PileToPile {
                from: from as u8,
                to,
                cards: pile.len,
            });
        }
    }

    // 5. Part runs (the card under them stays face up).
    for (from, pile) in piles.iter().enumerate() {
        for at in usize::from(pile.down) + 1..usize::from(pile.len) {
            if move_set == MoveSet::Greedy && !to_foundation(pile.cards[at - 1]) {
                continue;
            }
            let card = pile.cards[at];
            let cards = pile.len - at as u8;
            targets(card, from, out, &|to| Step::PileToPile {
                from: from as u8,
                to,
                cards,
            });
        }
    }

    // 6. Foundation tops back onto piles, unless dead.
    if move_set == MoveSet::Greedy {
        return;
    }
    for (s, &height) in state.foundation.iter().enumerate() {
        if height == 0 {
            continue;
        }
        let card = (s as u8) << 4 | height;
        if Deal::dead_when_home(&state.foundation, card) {
            continue;
        }
        targets(card, usize::MAX, out, &|to| Step::FoundationToPile {
            suit: s as u8,
            to,
        });
    }
}

fn talon_step(stop: &TalonStop, to: u8) -> Step {
    Step::Talon {
        turns: stop.turns,
        waste: stop.waste,
        pass: stop.pass,
        to,
    }
}
