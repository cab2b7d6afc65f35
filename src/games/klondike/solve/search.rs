//! The depth-first search over [`Position`]s (the module doc of `solve`
//! states what it proves). An explicit stack of frames and one arena of
//! edges, both kept from deal to deal: nothing is allocated per position
//! once they have grown.

use std::time::Instant;

use super::bound::never_home_of;
use super::position::{DownCards, Edge, Position, realize, realize_move};
use super::state::{Deal, State, Step};
use super::table::KeySet;
use crate::games::klondike::free_play::FreeMove;

/// One position on the search path and the edges left to try from it.
struct Frame {
    position: Position,
    /// Its edges are `edges[next..end]`.
    next: usize,
    end: usize,
    /// The child `edges[next]` leads to, made ahead (`None` once no edge
    /// is left): its table slot is fetched into the cache while the child
    /// before it is searched. A table of millions of positions fits in no
    /// cache, and every child costs one random access.
    ahead: Option<Child>,
}

/// A position just reached: the edge made, the safe moves played after
/// it, and its key.
#[derive(Clone, Copy)]
struct Child {
    position: Position,
    won: bool,
    key: (u64, u64),
}

impl Child {
    #[inline]
    fn of(deal: &Deal, down_cards: &DownCards, mut position: Position) -> Child {
        position.play_safe(deal, down_cards, |_| {});
        let won = position.won(deal);
        let key = if won { (0, 0) } else { position.key(deal) };
        Child { position, won, key }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// A won position: `path` leads to it.
    Won,
    /// Every position reached was expanded and none is won: the deal is
    /// lost.
    Exhausted,
    /// Not finished: the call's node allowance or the deadline ran out.
    Paused,
}

/// Positions between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 10;

/// The search, its memory kept from deal to deal.
pub(super) struct Search {
    seen: KeySet,
    frames: Vec<Frame>,
    edges: Vec<Edge>,
    /// The edges from the deal to the position being searched (the safe
    /// moves after each are not listed: [`Search::solution`] plays them).
    path: Vec<Edge>,
    /// Positions expanded.
    pub(super) nodes: u64,
}

/// What entering a position found.
enum Entered {
    Won,
    /// Seen before, or proved lost by the bound: not expanded.
    Closed,
    New,
}

impl Search {
    pub(super) fn new() -> Search {
        Search {
            seen: KeySet::new(),
            frames: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
            nodes: 0,
        }
    }

    /// Starts a search from `root`, forgetting any earlier one. `Won` or
    /// `Exhausted` if the root alone decides it, else `Paused` with the
    /// root expanded: [`Search::resume`] goes on.
    pub(super) fn start(&mut self, deal: &Deal, down_cards: &DownCards, root: Position) -> Outcome {
        self.seen.clear();
        self.frames.clear();
        self.edges.clear();
        self.path.clear();
        self.nodes = 0;
        match self.enter(deal, down_cards, Child::of(deal, down_cards, root)) {
            Entered::Won => Outcome::Won,
            Entered::Closed => Outcome::Exhausted,
            Entered::New => {
                self.nodes = 1;
                Outcome::Paused
            }
        }
    }

    /// Goes on with the search [`Search::start`] began (after a `Paused`,
    /// with the same deal) until it is decided, `nodes` reaches
    /// `until_nodes`, or `deadline` passes (looked at every
    /// [`CLOCK_EVERY`] positions). The same calls make the same search
    /// whatever the allowances: only where it pauses changes.
    pub(super) fn resume(
        &mut self,
        deal: &Deal,
        down_cards: &DownCards,
        until_nodes: u64,
        deadline: Option<Instant>,
    ) -> Outcome {
        loop {
            if self.nodes >= until_nodes {
                return Outcome::Paused;
            }
            let Some(frame) = self.frames.last_mut() else {
                return Outcome::Exhausted;
            };
            if frame.next == frame.end {
                self.frames.pop();
                self.path.pop();
                // The popped frame's edges began where its parent's end.
                if let Some(parent) = self.frames.last() {
                    self.edges.truncate(parent.end);
                }
                continue;
            }
            let edge = self.edges[frame.next];
            frame.next += 1;
            let child = frame.ahead.take().expect("an edge left has its child made");
            if frame.next < frame.end {
                let edge = self.edges[frame.next];
                frame.ahead = Some(ahead(&self.seen, deal, down_cards, &frame.position, edge));
            }
            self.path.push(edge);
            match self.enter(deal, down_cards, child) {
                Entered::Won => return Outcome::Won,
                Entered::Closed => {
                    self.path.pop();
                }
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
    }

    /// Records `position` as seen and pushes its frame if it is new and
    /// not proved lost.
    fn enter(&mut self, deal: &Deal, down_cards: &DownCards, child: Child) -> Entered {
        if child.won {
            return Entered::Won;
        }
        if !self.seen.insert(child.key) {
            return Entered::Closed;
        }
        let position = child.position;
        // A lost position stays in the table, so the bound runs once per
        // position.
        let facts = position.tableau_facts(deal, down_cards);
        if never_home_of(deal, &facts, &position.foundation, &position.talon) != 0 {
            return Entered::Closed;
        }
        let first = self.edges.len();
        position.edges(deal, down_cards, &mut self.edges);
        let end = self.edges.len();
        let ahead = (first < end)
            .then(|| ahead(&self.seen, deal, down_cards, &position, self.edges[first]));
        self.frames.push(Frame {
            position,
            next: first,
            end,
            ahead,
        });
        Entered::New
    }

    /// The moves of the game from `root` (the deal's state) along the
    /// path of a search that ended [`Outcome::Won`], safe moves included,
    /// atomic (stock turns spelled out).
    pub(super) fn solution(
        &self,
        deal: &Deal,
        down_cards: &DownCards,
        root: State,
    ) -> Vec<FreeMove> {
        let mut steps: Vec<Step> = Vec::new();
        let mut state = root;
        let (mut position, _) = Position::of(&state);
        let mut safe = Vec::new();
        position.play_safe(deal, down_cards, |mv| safe.push(mv));
        for &mv in &safe {
            realize_move(deal, &mut state, mv, &mut steps);
        }
        for &edge in &self.path {
            realize(deal, &mut state, edge, &mut steps);
            position.apply(deal, down_cards, edge);
            safe.clear();
            position.play_safe(deal, down_cards, |mv| safe.push(mv));
            for &mv in &safe {
                realize_move(deal, &mut state, mv, &mut steps);
            }
        }
        let mut moves = Vec::new();
        for step in steps {
            step.expand(&mut moves);
        }
        moves
    }
}

/// The child `edge` leads to from `parent`, made ahead of its turn, its
/// slot in `seen` fetched meanwhile.
#[inline]
fn ahead(
    seen: &KeySet,
    deal: &Deal,
    down_cards: &DownCards,
    parent: &Position,
    edge: Edge,
) -> Child {
    let mut position = *parent;
    position.apply(deal, down_cards, edge);
    let child = Child::of(deal, down_cards, position);
    seen.prefetch(child.key);
    child
}
