//! The depth-first search over positions (the module doc of `solve` states
//! what it proves). An explicit stack of frames and one arena of moves,
//! both kept from deal to deal: nothing is allocated per position once
//! they have grown.
//!
//! Each frame holds its next child already made (moved, safe moves
//! played, keyed), and the table slot of that key is fetched into the
//! cache while the child before it is looked up and searched: a table of
//! millions of positions fits in no cache, and every child costs one
//! random access. Measured (40 draw-3 deals at 2 million positions each,
//! three runs of each build alternated on the shared machine): a sampling
//! profile put about 30% of the time on the table's loads before, and the
//! prefetch took 2% to 13% (8% on average) off the CPU time, with the
//! same verdicts and positions.

use std::time::Instant;

use super::bound::proves_lost;
use super::state::{
    Deal, MAX_PILES, MAX_TALON, State, Step, TalonStop, Twins, fits_on, rank, suit, twin,
};
use super::table::SeenTable;
use crate::games::klondike::free_play::FreeMove;

/// One position on the search path and the moves left to try from it.
struct Frame {
    state: State,
    /// Its moves are `moves[first..end]`; `next` is the next to try.
    first: usize,
    end: usize,
    next: usize,
    /// The child that `moves[next]` leads to, made ahead (`None` once no
    /// move is left).
    ahead: Option<Child>,
    /// The path's length before the move that led here.
    path_base: usize,
    /// Tarjan's bookkeeping (the module doc of `solve`, "Reusing proofs
    /// after a spurious win"): its depth-first index, the least index of
    /// an open position it reaches, and the height of the component stack
    /// before it was pushed there.
    index: u64,
    low: u64,
    tarjan_at: usize,
}

/// Classes of positions proved lost by abstract searches given up after
/// a spurious win: for each, its merged pairs and the keys (under them)
/// of the positions of its finished components.
pub(super) struct LostClasses {
    sets: Vec<(u64, SeenTable)>,
    used: usize,
}

impl LostClasses {
    pub(super) fn new() -> LostClasses {
        LostClasses {
            sets: Vec::new(),
            used: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.used = 0;
    }

    /// Whether some lost class holds `state` (a placement of a class
    /// proved lost): then `state` is lost.
    #[inline]
    pub(super) fn holds(&self, deal: &Deal, state: &State) -> bool {
        self.sets[..self.used].iter().any(|(pairs, table)| {
            let key = state.abstract_key(deal, state.ambiguous(*pairs));
            table.contains(key)
        })
    }

    /// Adds the lost classes of `search` (an abstract search); returns
    /// how many.
    pub(super) fn add(&mut self, search: &Search) -> usize {
        let MoveSet::Abstract(pairs) = search.move_set else {
            return 0;
        };
        if self.used == self.sets.len() {
            self.sets.push((0, SeenTable::for_copies()));
        }
        let (set_pairs, table) = &mut self.sets[self.used];
        *set_pairs = pairs;
        table.clear();
        let mut added = 0;
        search.seen.for_each(|key, index| {
            if search.done.contains(index) {
                table.insert(key);
                added += 1;
            }
        });
        self.used += 1;
        added
    }
}

/// A position just reached: the move made, the safe moves played after
/// it, and what entering it reads.
#[derive(Clone, Copy)]
struct Child {
    state: State,
    won: bool,
    /// Its ambiguous cards under [`MoveSet::Abstract`], else 0.
    ambiguous: u64,
    /// Its key in the table (unset when `won`).
    key: (u64, u64),
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
    /// The complete move set over abstract positions, in which two colour
    /// twins of the pairs in the set (card codes, both of each pair) both
    /// face up in the tableau are not told apart (the module doc, "The
    /// abstract search"): exhausting it proves a loss, and a win along
    /// the moves of the complete set is a real win; a win that sends a
    /// twin home in the other's place ([`Step::TwinHome`]) proves nothing.
    Abstract(u64),
}

/// Where a search stands after [`Search::start`] or [`Search::resume`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// A won position: `path` holds an actual line of play to it.
    Won,
    /// Every position reached was expanded and none is won: a proof of loss
    /// for the complete and the abstract move sets, nothing for the greedy.
    Exhausted,
    /// The abstract search reached a won abstract position along a
    /// twin-home move, which proves nothing; it stops there.
    Spurious,
    /// Not finished: the call's node allowance or the deadline ran out.
    Paused,
}

/// Positions between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 10;

/// One depth-first search, which can stop after any number of positions
/// and go on later exactly where it stopped (the solver interleaves two).
pub(super) struct Search {
    seen: SeenTable,
    frames: Vec<Frame>,
    moves: Vec<Step>,
    move_set: MoveSet,
    /// Positions expanded since [`Search::start`].
    pub(super) nodes: u64,
    /// The search's moves from the deal to the position being searched
    /// (the safe moves played after each are not listed:
    /// [`Search::solution`] plays them again).
    pub(super) path: Vec<Step>,
    /// The positions entered and not yet in a finished component, by
    /// depth-first index (Tarjan's component stack).
    tarjan: Vec<u64>,
    /// The depth-first index of the next position entered.
    counter: u64,
    /// The positions in finished components (and those proved lost on
    /// entry), by depth-first index: lost, under this move set's claim.
    done: IndexSet,
}

/// A set of depth-first indices, one bit each.
struct IndexSet {
    words: Vec<u64>,
}

impl IndexSet {
    fn clear(&mut self) {
        self.words.clear();
    }

    #[inline]
    fn insert(&mut self, index: u64) {
        let word = (index >> 6) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (index & 63);
    }

    #[inline]
    fn contains(&self, index: u64) -> bool {
        self.words
            .get((index >> 6) as usize)
            .is_some_and(|word| word >> (index & 63) & 1 == 1)
    }
}

/// What entering a position found.
enum Entered {
    Won,
    /// Seen before: its depth-first index.
    Seen(u64),
    /// New, and proved lost by the bound (`bound.rs`) or held by a lost
    /// class: not expanded.
    Lost,
    New,
}

impl Search {
    pub(super) fn new() -> Search {
        Search {
            seen: SeenTable::new(),
            frames: Vec::new(),
            moves: Vec::new(),
            move_set: MoveSet::Complete,
            nodes: 0,
            path: Vec::new(),
            tarjan: Vec::new(),
            counter: 0,
            done: IndexSet { words: Vec::new() },
        }
    }

    /// Starts a search from `root` (forgetting any earlier one), not
    /// expanding the positions `lost` holds. `Won` or `Exhausted` if the
    /// root alone decides it, else `Paused` with the root expanded:
    /// [`Search::resume`] goes on (given the same `lost`).
    pub(super) fn start(
        &mut self,
        deal: &Deal,
        root: State,
        move_set: MoveSet,
        lost: &LostClasses,
    ) -> Outcome {
        self.seen.clear();
        self.tarjan.clear();
        self.done.clear();
        self.counter = 0;
        self.frames.clear();
        self.moves.clear();
        self.path.clear();
        self.move_set = move_set;
        self.nodes = 0;
        let root = made(deal, root, move_set);
        match self.enter(deal, root, 0, lost) {
            Entered::Won => Outcome::Won,
            Entered::Seen(_) => unreachable!("the table was cleared"),
            Entered::Lost => Outcome::Exhausted,
            Entered::New => {
                self.nodes = 1;
                Outcome::Paused
            }
        }
    }

    /// Goes on with the search [`Search::start`] began (after a `Paused`),
    /// until it is decided, `nodes` reaches `until_nodes`, or `deadline`
    /// passes (looked at every [`CLOCK_EVERY`] positions). The same calls
    /// give the same search whatever the allowances were: only where it
    /// pauses changes.
    pub(super) fn resume(
        &mut self,
        deal: &Deal,
        until_nodes: u64,
        deadline: Option<Instant>,
        lost: &LostClasses,
    ) -> Outcome {
        while let Some(frame) = self.frames.last_mut() {
            if self.nodes >= until_nodes {
                return Outcome::Paused;
            }
            if frame.next == frame.end {
                let (first, path_base) = (frame.first, frame.path_base);
                let (index, low, tarjan_at) = (frame.index, frame.low, frame.tarjan_at);
                self.frames.pop();
                self.moves.truncate(first);
                self.path.truncate(path_base);
                if low == index {
                    for index in self.tarjan.drain(tarjan_at..) {
                        self.done.insert(index);
                    }
                } else if let Some(parent) = self.frames.last_mut() {
                    parent.low = parent.low.min(low);
                }
                continue;
            }
            let step = self.moves[frame.next];
            frame.next += 1;
            let child = frame.ahead.take().expect("a move left has its child made");
            if frame.next < frame.end {
                let step = &self.moves[frame.next];
                frame.ahead = Some(ahead(deal, &self.seen, &frame.state, step, self.move_set));
            }
            let path_base = self.path.len();
            self.path.push(step);
            match self.enter(deal, child, path_base, lost) {
                Entered::Won => return self.won(),
                Entered::Seen(value) => {
                    if !self.done.contains(value) {
                        let frame = self.frames.last_mut().expect("the parent");
                        frame.low = frame.low.min(value);
                    }
                    self.path.truncate(path_base);
                }
                Entered::Lost => self.path.truncate(path_base),
                Entered::New => {
                    self.nodes += 1;
                    if self.nodes.is_multiple_of(CLOCK_EVERY)
                        && deadline.is_some_and(|at| Instant::now() >= at)
                    {
                        return Outcome::Paused;
                    }
                }
            }
        }
        Outcome::Exhausted
    }

    /// What reaching a won position means for this move set.
    fn won(&self) -> Outcome {
        let abstract_step = |step: &Step| matches!(step, Step::TwinHome { .. });
        if matches!(self.move_set, MoveSet::Abstract(_)) && self.path.iter().any(abstract_step) {
            Outcome::Spurious
        } else {
            Outcome::Won
        }
    }

    /// Records `child` as seen and pushes its frame if it is new.
    fn enter(
        &mut self,
        deal: &Deal,
        child: Child,
        path_base: usize,
        lost: &LostClasses,
    ) -> Entered {
        if child.won {
            return Entered::Won;
        }
        let index = self.counter;
        if let Err(value) = self.seen.insert_value(child.key, index) {
            return Entered::Seen(value);
        }
        self.counter += 1;
        // In every move set: a lost position holds no win to find, and
        // it stays in the table, so the bound runs once per position.
        let state = child.state;
        if proves_lost(deal, &state, twins(self.move_set)) || lost.holds(deal, &state) {
            self.done.insert(index);
            return Entered::Lost;
        }
        let first = self.moves.len();
        generate(
            deal,
            &state,
            self.move_set,
            child.ambiguous,
            &mut self.moves,
        );
        let end = self.moves.len();
        let first_child = (first < end)
            .then(|| ahead(deal, &self.seen, &state, &self.moves[first], self.move_set));
        self.frames.push(Frame {
            state,
            first,
            end,
            next: first,
            ahead: first_child,
            path_base,
            index,
            low: index,
            tarjan_at: self.tarjan.len(),
        });
        self.tarjan.push(index);
        Entered::New
    }

    /// The moves of the game from `root` along [`Search::path`], the safe
    /// moves included, atomic (stock turns spelled out). For the path of
    /// a win that [`Search::start`] or [`Search::resume`] reported `Won`:
    /// a spurious win's path holds a move of no game.
    pub(super) fn solution(&self, deal: &Deal, root: State) -> Vec<FreeMove> {
        let twins = twins(self.move_set);
        let mut moves = Vec::new();
        let mut state = root;
        state.play_safe(deal, twins, |safe| safe.expand(&mut moves));
        for step in &self.path {
            state.apply(deal, step);
            step.expand(&mut moves);
            state.play_safe(deal, twins, |safe| safe.expand(&mut moves));
        }
        moves
    }

    /// Whether this search has seen a position with `state`'s key (as
    /// this search keys positions).
    #[cfg(test)]
    pub(super) fn has_seen(&self, deal: &Deal, state: &State) -> bool {
        let key = match self.move_set {
            MoveSet::Abstract(pairs) => state.abstract_key(deal, state.ambiguous(pairs)),
            MoveSet::Complete | MoveSet::Greedy => state.key(deal),
        };
        self.seen.contains(key)
    }

    /// The cards of the twin pairs that the path's [`Step::TwinHome`]
    /// moves send home (both cards of each): after a spurious win, the
    /// pairs whose merging made it.
    pub(super) fn pairs_sent_home(&self, deal: &Deal, root: State) -> u64 {
        let twins = twins(self.move_set);
        let mut pairs = 0u64;
        let mut state = root;
        state.play_safe(deal, twins, |_| {});
        for step in &self.path {
            if let Step::TwinHome { from } = *step {
                let top = state.piles[usize::from(from)].top().expect("a top");
                pairs |= 1 << top | 1 << twin(top);
            }
            state.apply(deal, step);
            state.play_safe(deal, twins, |_| {});
        }
        pairs
    }
}

/// Whether `move_set`'s positions tell colour twins apart.
fn twins(move_set: MoveSet) -> Twins {
    match move_set {
        MoveSet::Abstract(pairs) => Twins::Merged(pairs),
        MoveSet::Complete | MoveSet::Greedy => Twins::Distinct,
    }
}

/// The child `step` leads to from `parent`, made ahead of its turn: its
/// slot in `seen` is fetched into the cache meanwhile (the module doc).
#[inline]
fn ahead(deal: &Deal, seen: &SeenTable, parent: &State, step: &Step, move_set: MoveSet) -> Child {
    let mut state = *parent;
    state.apply(deal, step);
    let child = made(deal, state, move_set);
    seen.prefetch(child.key);
    child
}

/// `state` reached: its safe moves played, then what entering it reads.
#[inline]
fn made(deal: &Deal, mut state: State, move_set: MoveSet) -> Child {
    let twins = twins(move_set);
    state.play_safe(deal, twins, |_| {});
    let won = state.won(deal);
    // Only the abstract search reads the ambiguous cards: found once here
    // for its key and its moves.
    let ambiguous = match twins {
        Twins::Merged(pairs) if !won => state.ambiguous(pairs),
        _ => 0,
    };
    let key = match twins {
        _ if won => (0, 0),
        Twins::Distinct => state.key(deal),
        Twins::Merged(_) => state.abstract_key(deal, ambiguous),
    };
    Child {
        state,
        won,
        ambiguous,
        key,
    }
}

/// Appends the moves the search tries from `state`, most promising first:
/// foundation moves, then runs that turn a card up (from the pile with
/// most face-down cards first), waste cards onto piles, runs that empty a
/// pile, part runs, the abstract search's twin-home moves, and last cards
/// back from the foundations. Moves the module doc proves needless are
/// not made. `ambiguous` is the position's ambiguous cards under
/// [`MoveSet::Abstract`], 0 otherwise.
fn generate(deal: &Deal, state: &State, move_set: MoveSet, ambiguous: u64, out: &mut Vec<Step>) {
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

    // 6. In the abstract search, an ambiguous top home as its twin. After
    //    every move of the game but those of step 7, so that where a real
    //    win is near the search meets it before a spurious one (which
    //    sends the solver to the complete search). Measured on the first
    //    300 draw-3 deals of seed 1, the abstract search alone met a real
    //    win on 178 deals and a spurious one on 67; with these moves
    //    among the foundation moves, on none and on 245.
    for (from, pile) in piles.iter().enumerate() {
        if let Some(top) = pile.top()
            && ambiguous >> top & 1 == 1
            && to_foundation(twin(top))
        {
            out.push(Step::TwinHome { from: from as u8 });
        }
    }

    // 7. Foundation tops back onto piles, unless dead.
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
