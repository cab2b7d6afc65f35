//! The position the search remembers: which cards lie face up in the
//! tableau, but not on which of their two possible parents (the module
//! doc of `solve`, "Forgetting which parent a card lies on", proves that
//! every position it stands for has the same verdict). Cards are their
//! byte codes (`suit << 4 | rank`) and sets of cards `u64` bitsets indexed
//! by code; no allocation anywhere here.

use super::bound::TableauFacts;
use super::state::{
    Broken, Deal, MAX_PILES, MAX_TALON, State, Step, Talon, TalonStop, hash_pair, rank, suit, twin,
};

/// A pile slot with no card.
pub(super) const NO_CARD: u8 = u8::MAX;

/// Suits 0 and 3 (clubs, spades) as 16-bit lanes of a card set.
const BLACK_LANES: u64 = 0xffff_0000_0000_ffff;
/// Suits 1 and 2 (diamonds, hearts).
const RED_LANES: u64 = 0x0000_ffff_ffff_0000;

#[inline]
pub(super) fn bit(code: u8) -> u64 {
    1u64 << code
}

/// The four cards of rank `r` (0 stands for no card: rank 0 is never
/// dealt).
#[inline]
fn of_rank(r: u8) -> u64 {
    if r == 0 || r > 15 {
        0
    } else {
        (1u64 << r) * 0x0001_0001_0001_0001
    }
}

#[inline]
fn other_colour_lanes(code: u8) -> u64 {
    if bit(code) & BLACK_LANES != 0 {
        RED_LANES
    } else {
        BLACK_LANES
    }
}

/// The two cards `code` may lie on in the tableau: one rank higher, the
/// other colour (none above the top rank: `of_rank` of a rank never dealt
/// meets no card of the deal).
#[inline]
pub(super) fn parents(code: u8) -> u64 {
    of_rank(rank(code) + 1) & other_colour_lanes(code)
}

/// The two cards that may lie on `code`: one rank lower, the other colour.
#[inline]
pub(super) fn children(code: u8) -> u64 {
    of_rank(rank(code) - 1) & other_colour_lanes(code)
}

/// A card and its colour twin.
#[inline]
pub(super) fn class(code: u8) -> u64 {
    bit(code) | bit(twin(code))
}

/// The face-down cards of each pile slot, bottom first, as dealt (they
/// never move): what the position leaves out.
#[derive(Clone, Copy)]
pub(super) struct DownCards {
    cards: [[u8; MAX_PILES]; MAX_PILES],
}

impl DownCards {
    #[inline]
    pub(super) fn card(&self, slot: usize, index: u8) -> u8 {
        self.cards[slot][usize::from(index)]
    }
}

/// The position: foundations, talon, and per pile slot its face-down
/// count and its *base*, the lowest face-up card (on a face-down card, or
/// on the floor when none is left); every other face-up card is in `up`
/// and lies, in every placement the position stands for, on one of its
/// two [`parents`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// Face-up tableau cards, bases included.
    pub(super) up: u64,
    /// Each slot's base, or [`NO_CARD`] for an empty pile.
    pub(super) base: [u8; MAX_PILES],
    /// Each slot's face-down cards left (the first `down` dealt there).
    pub(super) down: [u8; MAX_PILES],
    pub(super) n_piles: u8,
    /// Cards on each suit's foundation (its top card's rank).
    pub(super) foundation: [u8; 4],
    pub(super) talon: Talon,
}

/// Where a card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum To {
    Foundation,
    /// Onto a top that is one of its parents (which one is not recorded:
    /// it makes no difference, the module doc shows).
    Parent,
    /// To the first empty pile (a top-rank card).
    Empty,
}

/// One move of the game, or a talon macro move (turns, then a play of the
/// waste's top), as the position sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Move {
    /// A face-up tableau card that may be a top goes home.
    Home { card: u8 },
    /// Slot `from`'s base, with every card lying on it, onto a parent or
    /// (a top-rank card) to an empty pile.
    Base { from: u8, to: To },
    /// Turn the stock `turns` times, reaching waste size `waste` in pass
    /// `pass`, then play the waste's top.
    Talon {
        turns: u8,
        waste: u8,
        pass: u8,
        to: To,
    },
    /// The top card of suit `suit`'s foundation back to the tableau.
    Back { suit: u8, to: To },
}

/// A search edge: a move, and for a card put into the tableau from a
/// foundation or a free talon, the move that builds on it at once (the
/// module doc of `solve`, "A card put down is built on at once").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Edge {
    first: Move,
    then: Option<Move>,
}

impl Edge {
    fn alone(first: Move) -> Edge {
        Edge { first, then: None }
    }

    /// The moves, in order.
    pub(super) fn moves(&self) -> impl Iterator<Item = Move> {
        std::iter::once(self.first).chain(self.then)
    }
}

impl Position {
    /// The position of `state` (a deal just dealt, or any position of the
    /// complete search) and the face-down cards of its slots.
    pub(super) fn of(state: &State) -> (Position, DownCards) {
        let mut down_cards = DownCards {
            cards: [[0; MAX_PILES]; MAX_PILES],
        };
        let mut position = Position {
            up: 0,
            base: [NO_CARD; MAX_PILES],
            down: [0; MAX_PILES],
            n_piles: state.n_piles,
            foundation: state.foundation,
            talon: state.talon,
        };
        for (slot, pile) in state.piles[..usize::from(state.n_piles)].iter().enumerate() {
            let down = usize::from(pile.down);
            down_cards.cards[slot][..down].copy_from_slice(&pile.cards[..down]);
            position.down[slot] = pile.down;
            if pile.len > pile.down {
                position.base[slot] = pile.cards[down];
                for &card in &pile.cards[down..usize::from(pile.len)] {
                    position.up |= bit(card);
                }
            }
        }
        (position, down_cards)
    }

    /// The bases, as a set.
    #[inline]
    pub(super) fn bases(&self) -> u64 {
        let mut set = 0;
        for &card in &self.base[..usize::from(self.n_piles)] {
            if card != NO_CARD {
                set |= bit(card);
            }
        }
        set
    }

    /// Whether some placement has nothing on face-up card `card`: no
    /// non-base face-up card may lie on it, or one may, and `card`'s twin
    /// is face up to hold it.
    #[inline]
    pub(super) fn may_be_top(&self, deal: &Deal, card: u8, non_base: u64) -> bool {
        let on = (children(card) & non_base).count_ones();
        on == 0
            || (on == 1 && self.up & bit(twin(card)) != 0 && !deal.broken(Broken::TopOnlyWhenBare))
    }

    /// The face-up cards that are a top in some placement.
    pub(super) fn tops(&self, deal: &Deal, non_base: u64) -> u64 {
        let mut tops = 0;
        let mut cards = self.up;
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            if self.may_be_top(deal, card, non_base) {
                tops |= bit(card);
            }
        }
        tops
    }

    /// Whether some top is a parent of `card` (which is not a non-base
    /// face-up card): the face-up parents less the cards of `card`'s
    /// class lying on them.
    #[inline]
    fn parent_free(&self, card: u8, non_base: u64) -> bool {
        (parents(card) & self.up).count_ones() > (class(card) & non_base).count_ones()
    }

    #[inline]
    fn first_empty(&self) -> Option<usize> {
        self.base[..usize::from(self.n_piles)]
            .iter()
            .position(|&card| card == NO_CARD)
    }

    /// Turns up the top face-down card of `slot` as its base (its base
    /// has just left), or leaves the pile empty.
    #[inline]
    fn uncover(&mut self, slot: usize, down_cards: &DownCards) {
        if self.down[slot] > 0 {
            self.down[slot] -= 1;
            let card = down_cards.card(slot, self.down[slot]);
            self.base[slot] = card;
            self.up |= bit(card);
        } else {
            self.base[slot] = NO_CARD;
        }
    }

    /// Puts `card` (off the tableau until now) into the tableau.
    #[inline]
    fn place(&mut self, card: u8, to: To) {
        match to {
            To::Foundation => self.foundation[suit(card)] += 1,
            To::Parent => self.up |= bit(card),
            To::Empty => {
                self.up |= bit(card);
                let slot = self.first_empty().expect("an empty pile");
                self.base[slot] = card;
            }
        }
    }

    /// Makes `edge` (legal by construction).
    pub(super) fn apply(&mut self, deal: &Deal, down_cards: &DownCards, edge: Edge) {
        for mv in edge.moves() {
            self.make(deal, down_cards, mv);
        }
    }

    /// Makes `mv` (legal by construction).
    pub(super) fn make(&mut self, deal: &Deal, down_cards: &DownCards, mv: Move) {
        match mv {
            Move::Home { card } => {
                self.up &= !bit(card);
                self.foundation[suit(card)] += 1;
                if let Some(slot) = self.base[..usize::from(self.n_piles)]
                    .iter()
                    .position(|&base| base == card)
                {
                    self.uncover(slot, down_cards);
                }
            }
            Move::Base { from, to } => {
                let slot = usize::from(from);
                let card = self.base[slot];
                self.uncover(slot, down_cards);
                if to == To::Empty {
                    let empty = self.first_empty().expect("an empty pile");
                    self.base[empty] = card;
                }
            }
            Move::Talon {
                waste, pass, to, ..
            } => {
                let card = self.talon.take(deal, waste, pass);
                self.place(card, to);
            }
            Move::Back { suit, to } => {
                let s = usize::from(suit);
                let card = (suit << 4) | self.foundation[s];
                self.foundation[s] -= 1;
                self.place(card, to);
            }
        }
    }

    pub(super) fn won(&self, deal: &Deal) -> bool {
        self.foundation.iter().map(|&n| u32::from(n)).sum::<u32>() == u32::from(deal.n_cards)
    }

    /// The cards that could go to their foundation next, one a suit.
    #[inline]
    fn next_home(&self, deal: &Deal) -> u64 {
        let mut set = 0;
        for (s, &height) in self.foundation.iter().enumerate() {
            if height < deal.top_rank {
                set |= bit(((s as u8) << 4) | (height + 1));
            }
        }
        set
    }

    /// Makes the safe foundation moves (the module doc of `solve`, "Safe
    /// foundation moves are made at once"), calling `record` with each,
    /// until none is left.
    pub(super) fn play_safe(
        &mut self,
        deal: &Deal,
        down_cards: &DownCards,
        mut record: impl FnMut(Move),
    ) {
        loop {
            let next_home = self.next_home(deal);
            if deal.talon_is_free() && self.talon_safe(deal, down_cards, next_home, &mut record) {
                continue;
            }
            let mut candidates = next_home & self.up;
            if candidates == 0 {
                return;
            }
            let non_base = self.up & !self.bases();
            let mut moved = false;
            while candidates != 0 {
                let card = candidates.trailing_zeros() as u8;
                candidates &= candidates - 1;
                if (rank(card) == 1
                    || Deal::dead_when_home(&self.foundation, card)
                    || deal.broken(Broken::EveryHomeSafe))
                    && self.may_be_top(deal, card, non_base)
                {
                    let edge = Move::Home { card };
                    self.make(deal, down_cards, edge);
                    record(edge);
                    moved = true;
                    break;
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// With a free talon ([`Deal::talon_is_free`]), plays one talon card
    /// that can go home and would be dead there, if there is one (the
    /// module doc of `solve`, "Safe foundation moves are made at once").
    fn talon_safe(
        &mut self,
        deal: &Deal,
        down_cards: &DownCards,
        next_home: u64,
        record: &mut impl FnMut(Move),
    ) -> bool {
        let mut candidates = next_home & deal.stock_cards;
        while candidates != 0 {
            let card = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            if !deal.in_talon(&self.talon, card)
                || !(rank(card) == 1
                    || Deal::dead_when_home(&self.foundation, card)
                    || deal.broken(Broken::EveryTalonHomeSafe))
            {
                continue;
            }
            let mut stops = [TalonStop::default(); MAX_TALON + 1];
            let n_stops = deal.talon_stops(&self.talon, &mut stops);
            // A free talon reaches every card (unless a test broke the
            // talon's stops on purpose).
            let Some(stop) = stops[..n_stops]
                .iter()
                .find(|stop| self.talon.cards[usize::from(stop.waste) - 1] == card)
            else {
                continue;
            };
            let edge = Move::Talon {
                turns: stop.turns,
                waste: stop.waste,
                pass: stop.pass,
                to: To::Foundation,
            };
            self.make(deal, down_cards, edge);
            record(edge);
            return true;
        }
        false
    }

    /// Appends the edges the search tries, most promising first: cards
    /// home (tableau, then waste), bases that turn a card up (the pile
    /// with most face-down cards first), waste cards to the tableau, bases
    /// that empty their pile, and cards back from the foundations (never a
    /// dead one).
    pub(super) fn edges(&self, deal: &Deal, down_cards: &DownCards, out: &mut Vec<Edge>) {
        let n_piles = usize::from(self.n_piles);
        let non_base = self.up & !self.bases();
        let has_empty = self.first_empty().is_some();
        let next_home = self.next_home(deal);
        let mut stops = [TalonStop::default(); MAX_TALON + 1];
        let n_stops = deal.talon_stops(&self.talon, &mut stops);
        let stops = &stops[..n_stops];
        let waste_card = |stop: &TalonStop| self.talon.cards[usize::from(stop.waste) - 1];
        let talon = |stop: &TalonStop, to| Move::Talon {
            turns: stop.turns,
            waste: stop.waste,
            pass: stop.pass,
            to,
        };
        // Where a card off the tableau (or a base) may go in it.
        let to_tableau = |card: u8| {
            if rank(card) == deal.top_rank {
                has_empty.then_some(To::Empty)
            } else {
                self.parent_free(card, non_base).then_some(To::Parent)
            }
        };

        // 1. Home: tableau cards, then waste tops.
        let mut home = next_home & self.up;
        while home != 0 {
            let card = home.trailing_zeros() as u8;
            home &= home - 1;
            if self.may_be_top(deal, card, non_base) {
                out.push(Edge::alone(Move::Home { card }));
            }
        }
        for stop in stops {
            if next_home & bit(waste_card(stop)) != 0 {
                out.push(Edge::alone(talon(stop, To::Foundation)));
            }
        }

        // 2. Bases that turn a face-down card up, most face-down first.
        let mut order = [0usize; MAX_PILES];
        for (i, slot) in order.iter_mut().enumerate().take(n_piles) {
            *slot = i;
        }
        order[..n_piles].sort_unstable_by_key(|&slot| std::cmp::Reverse(self.down[slot]));
        for &slot in &order[..n_piles] {
            let card = self.base[slot];
            if card != NO_CARD
                && self.down[slot] > 0
                && !(rank(card) == deal.top_rank && deal.broken(Broken::NoKingToEmpty))
                && let Some(to) = to_tableau(card)
            {
                out.push(Edge::alone(Move::Base {
                    from: slot as u8,
                    to,
                }));
            }
        }

        // 3. Waste tops to the tableau (with a free talon, each with what
        //    is built on it at once).
        for stop in stops {
            let card = waste_card(stop);
            if let Some(to) = to_tableau(card) {
                let first = talon(stop, to);
                if deal.talon_is_free() {
                    self.push_built_on(deal, down_cards, first, card, non_base, out);
                } else {
                    out.push(Edge::alone(first));
                }
            }
        }

        // 4. Bases that empty their pile (never a top-rank card's: it
        //    would only go to an empty pile, the same position).
        for slot in 0..n_piles {
            let card = self.base[slot];
            if card != NO_CARD
                && self.down[slot] == 0
                && rank(card) != deal.top_rank
                && self.parent_free(card, non_base)
            {
                out.push(Edge::alone(Move::Base {
                    from: slot as u8,
                    to: To::Parent,
                }));
            }
        }

        // 5. Foundation tops back to the tableau, unless dead, each with
        //    what is built on it at once.
        for (s, &height) in self.foundation.iter().enumerate() {
            if height == 0 {
                continue;
            }
            let card = (s as u8) << 4 | height;
            if Deal::dead_when_home(&self.foundation, card) || deal.broken(Broken::NeverBack) {
                continue;
            }
            if let Some(to) = to_tableau(card) {
                let first = Move::Back { suit: s as u8, to };
                self.push_built_on(deal, down_cards, first, card, non_base, out);
            }
        }
    }

    /// Appends the edges that put `card` into the tableau by `first` (from
    /// a foundation, or from a free talon) and at once build on it (the
    /// module doc of `solve`, "A card put down is built on at once"): one
    /// for each move of the position `first` makes that puts a card on
    /// `card`; none when there is no such move. `first` alone when a
    /// face-up card that could lie on `card` lies on its twin (moving it
    /// across is a change of placement, not a move), or when `card` comes
    /// from a foundation and the card it leaves on top there could come
    /// down later (it is not dead).
    fn push_built_on(
        &self,
        deal: &Deal,
        down_cards: &DownCards,
        first: Move,
        card: u8,
        non_base: u64,
        out: &mut Vec<Edge>,
    ) {
        if children(card) & non_base != 0 {
            out.push(Edge::alone(first));
            return;
        }
        let mut after = *self;
        after.make(deal, down_cards, first);
        // The card `card` leaves on top of its foundation (one rank lower).
        if matches!(first, Move::Back { .. }) && !Deal::dead_when_home(&after.foundation, card - 1)
        {
            out.push(Edge::alone(first));
            return;
        }
        let built_on = |then: Move| Edge {
            first,
            then: Some(then),
        };
        // A base of the other colour one rank lower, with all on it.
        for slot in 0..usize::from(after.n_piles) {
            if after.base[slot] != NO_CARD
                && children(card) & bit(after.base[slot]) != 0
                && !deal.broken(Broken::NotBuiltFromBase)
            {
                out.push(built_on(Move::Base {
                    from: slot as u8,
                    to: To::Parent,
                }));
            }
        }
        // A waste top of the other colour one rank lower.
        let mut stops = [TalonStop::default(); MAX_TALON + 1];
        let n_stops = if deal.talon_holds_any(&after.talon, children(card)) {
            deal.talon_stops(&after.talon, &mut stops)
        } else {
            0
        };
        for stop in &stops[..n_stops] {
            if children(card) & bit(after.talon.cards[usize::from(stop.waste) - 1]) != 0 {
                out.push(built_on(Move::Talon {
                    turns: stop.turns,
                    waste: stop.waste,
                    pass: stop.pass,
                    to: To::Parent,
                }));
            }
        }
        // A foundation top of the other colour one rank lower, unless dead.
        if deal.broken(Broken::NeverBack) {
            return;
        }
        for (s, &height) in after.foundation.iter().enumerate() {
            let top = (s as u8) << 4 | height;
            if height > 0
                && children(card) & bit(top) != 0
                && !Deal::dead_when_home(&after.foundation, top)
            {
                out.push(built_on(Move::Back {
                    suit: s as u8,
                    to: To::Parent,
                }));
            }
        }
    }

    /// The tableau as the bound (`bound.rs`) reads it, over every
    /// placement at once: a non-base card lies on either face-up parent,
    /// and every card that is a top in some placement is a top.
    pub(super) fn tableau_facts(&self, deal: &Deal, down_cards: &DownCards) -> TableauFacts {
        let mut facts = TableauFacts::default();
        let non_base = self.up & !self.bases();
        for slot in 0..usize::from(self.n_piles) {
            let base = self.base[slot];
            if base == NO_CARD {
                facts.empty = true;
                continue;
            }
            let down = self.down[slot];
            let mut below = 0u64;
            for index in 0..down {
                let card = down_cards.card(slot, index);
                facts.tableau |= bit(card);
                facts.under[usize::from(card)] = below;
                below = bit(card);
            }
            facts.bottoms |= if down > 0 {
                bit(down_cards.card(slot, 0))
            } else {
                bit(base)
            };
            facts.under[usize::from(base)] = below;
        }
        facts.tableau |= self.up;
        facts.face_up = self.up;
        facts.tops = self.tops(deal, non_base);
        let mut cards = non_base;
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            facts.under[usize::from(card)] = parents(card) & self.up;
        }
        facts
    }

    /// The key: what decides the position's future, hashed to 128 bits.
    /// Piles count as a multiset (slots are interchangeable: a pile with
    /// face-down cards is named by its slot and `down`, a pile without by
    /// its base alone), and the waste size counts only where it changes
    /// which waste tops are reachable (as in [`State::key`]).
    pub(super) fn key(&self, deal: &Deal) -> (u64, u64) {
        let (mut lane0, mut lane1) = (0u64, 0u64);
        for slot in 0..usize::from(self.n_piles) {
            let base = self.base[slot];
            if base == NO_CARD {
                continue;
            }
            let identity = if self.down[slot] > 0 {
                (slot as u64 + 1) << 3 | u64::from(self.down[slot])
            } else {
                0
            };
            let word = identity << 8 | u64::from(base);
            // The sum of element hashes is a hash of the multiset.
            lane0 = lane0.wrapping_add(hash_pair(word, 0x5bd1_e995, 0));
            lane1 = lane1.wrapping_add(hash_pair(word, 0x5bd1_e995, 1));
        }
        let talon = &self.talon;
        let waste = match deal.max_passes {
            Some(_) => u64::from(talon.waste),
            None => {
                if talon.waste.is_multiple_of(deal.draw) || talon.waste == talon.len {
                    0
                } else {
                    u64::from(talon.waste)
                }
            }
        };
        let mut foundations = 0u64;
        for (s, &n) in self.foundation.iter().enumerate() {
            foundations |= u64::from(n) << (4 * s);
        }
        let small = foundations | waste << 16 | u64::from(talon.pass) << 24;
        let t0 = hash_pair(talon.remaining, small, 0) ^ hash_pair(self.up, lane1, 0);
        let t1 = hash_pair(talon.remaining, small, 1) ^ hash_pair(self.up, lane0, 1);
        (hash_pair(lane0, t0, 0) ^ t1, hash_pair(lane1, t1, 1) ^ t0)
    }
}

/// Plays `edge` on a position of the game (`state`, whose position is
/// the one `edge` was made from), appending the moves of the game that
/// make it: where the edge needs a card to be a top that is not one in
/// `state`, first the move that shifts what lies on it onto its twin (the
/// module doc's one-card swap).
pub(super) fn realize(deal: &Deal, state: &mut State, edge: Edge, out: &mut Vec<Step>) {
    for mv in edge.moves() {
        realize_move(deal, state, mv, out);
    }
}

/// [`realize`] for one move.
pub(super) fn realize_move(deal: &Deal, state: &mut State, mv: Move, out: &mut Vec<Step>) {
    let n = usize::from(state.n_piles);
    let find = |state: &State, card: u8| -> (usize, usize) {
        for (slot, pile) in state.piles[..n].iter().enumerate() {
            if let Some(at) = pile.cards[..usize::from(pile.len)]
                .iter()
                .position(|&c| c == card)
            {
                return (slot, at);
            }
        }
        unreachable!("a face-up card of the position is in the tableau")
    };
    // A pile whose top `card` fits on.
    let parent_top = |state: &State, card: u8| -> u8 {
        state.piles[..n]
            .iter()
            .position(|pile| pile.top().is_some_and(|top| parents(card) & bit(top) != 0))
            .expect("a free parent") as u8
    };
    let first_empty = |state: &State| -> u8 {
        state.piles[..n]
            .iter()
            .position(|pile| pile.len == 0)
            .expect("an empty pile") as u8
    };
    let mut play = |state: &mut State, step: Step| {
        state.apply(deal, &step);
        out.push(step);
    };
    let target = |state: &State, card: u8, to: To| match to {
        To::Foundation => Step::FOUNDATION,
        To::Parent => parent_top(state, card),
        To::Empty => first_empty(state),
    };
    match mv {
        Move::Home { card } => {
            let (slot, at) = find(state, card);
            let len = usize::from(state.piles[slot].len);
            if at + 1 < len {
                // What lies on `card` moves onto its twin, then a top.
                let (twin_slot, _) = find(state, twin(card));
                play(
                    state,
                    Step::PileToPile {
                        from: slot as u8,
                        to: twin_slot as u8,
                        cards: (len - at - 1) as u8,
                    },
                );
            }
            play(state, Step::PileToFoundation { from: slot as u8 });
        }
        Move::Base { from, to } => {
            let pile = &state.piles[usize::from(from)];
            let (card, cards) = (pile.cards[usize::from(pile.down)], pile.len - pile.down);
            let to = target(state, card, to);
            play(state, Step::PileToPile { from, to, cards });
        }
        Move::Talon {
            turns,
            waste,
            pass,
            to,
        } => {
            let card = state.talon.cards[usize::from(waste) - 1];
            let to = target(state, card, to);
            play(
                state,
                Step::Talon {
                    turns,
                    waste,
                    pass,
                    to,
                },
            );
        }
        Move::Back { suit, to } => {
            let card = (suit << 4) | state.foundation[usize::from(suit)];
            let to = target(state, card, to);
            play(state, Step::FoundationToPile { suit, to });
        }
    }
}
