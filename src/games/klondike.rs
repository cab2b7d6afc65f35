//! Klondike with the exercise's fixed move policy, RULES.md section 4.
//!
//! The deal: 28 cards into 7 piles, round `r = 0..6` giving one card to
//! each pile `r..6` left to right, the card dealt to pile `r` face up; the
//! other 24 are the stock, turned in order. The policy, restarted after
//! every move: (1) a card to a foundation from the top of a pile (left to
//! right), else from the waste; (2) the waste's top card to the leftmost
//! pile that takes it; (3) the leftmost pile whose face-up run can move,
//! onto the leftmost pile that takes it; (4) otherwise turn the stock.
//! Outcome: cards on the foundations; net winnings `5 x cards - 52`.
//!
//! [`Klondike::play_with`] is the one play function.
//!
//! # Why a game ends
//!
//! Between two turns of the stock every move lowers `P = 2 x (face-down
//! cards) + (non-empty piles) + 2 x (waste cards) + (cards not on a
//! foundation)`: a foundation move takes a card off the table (and may
//! empty a pile or turn a card up); a waste card to a pile lowers the waste
//! by one and adds at most one non-empty pile; a run moved onto a
//! non-empty pile either turns a face-down card up or empties its pile; a
//! run moved onto an empty pile must have a king at its bottom with cards
//! face down under it (RULES.md never moves a king already at the bottom
//! of its pile to another empty one), so it turns one up (-2) and fills a
//! pile (+1). `P` is a natural number, so the moves between two turns are
//! finite, and the stock is turned at most `24 x passes` times.

use crate::cards::Card;
use crate::error::{Error, Result};

/// Piles on the table.
pub const PILES: usize = 7;

/// Cards a pile can hold: 6 face down and a run from king to ace.
const PILE_CAPACITY: usize = 6 + 13;

/// Cards in the stock after the deal.
pub const STOCK: usize = 52 - 28;

/// The stake of a game, in dollars.
pub const STAKE: i32 = 52;

/// What each card on a foundation pays, in dollars.
pub const PAY_PER_CARD: i32 = 5;

/// The rule variants; the defaults are the exercise's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KlondikeParams {
    /// Cards turned from the stock at a time: 1 (the exercise) or 3.
    pub draw: u8,
    /// Passes through the stock, at least 1 (the exercise: 1, no redeal).
    pub passes: u8,
}

impl Default for KlondikeParams {
    fn default() -> KlondikeParams {
        KlondikeParams { draw: 1, passes: 1 }
    }
}

/// One game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KlondikeRecord {
    /// Cards on the foundations at the end, 0..=52.
    pub foundation_cards: u8,
    /// Moves made (stock turns not counted).
    pub moves: u16,
}

impl KlondikeRecord {
    /// Net winnings in dollars: `5 x cards - 52`.
    pub fn net(&self) -> i32 {
        PAY_PER_CARD * i32::from(self.foundation_cards) - STAKE
    }

    /// Whether all 52 cards went out.
    pub fn went_out(&self) -> bool {
        self.foundation_cards == 52
    }
}

/// The table during a game. Fixed arrays: playing never allocates.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// Each pile bottom first; the first `face_down[p]` cards face down.
    piles: [[Card; PILE_CAPACITY]; PILES],
    pile_len: [u8; PILES],
    face_down: [u8; PILES],
    /// The stock, turned from `stock_next` on.
    stock: [Card; STOCK],
    stock_len: u8,
    stock_next: u8,
    /// The waste, bottom first.
    waste: [Card; STOCK],
    waste_len: u8,
    /// Cards on each suit's foundation (its top rank).
    foundations: [u8; 4],
    /// Passes through the stock begun.
    passes: u8,
}

impl Table {
    /// The pile `p`, bottom first, and how many of its cards are face down.
    pub fn pile(&self, p: usize) -> (&[Card], usize) {
        (
            &self.piles[p][..usize::from(self.pile_len[p])],
            usize::from(self.face_down[p]),
        )
    }

    /// The waste, bottom first.
    pub fn waste(&self) -> &[Card] {
        &self.waste[..usize::from(self.waste_len)]
    }

    /// The cards still in the stock, next first.
    pub fn stock(&self) -> &[Card] {
        &self.stock[usize::from(self.stock_next)..usize::from(self.stock_len)]
    }

    /// Cards on each suit's foundation.
    pub fn foundations(&self) -> [u8; 4] {
        self.foundations
    }

    fn top(&self, p: usize) -> Option<Card> {
        let len = usize::from(self.pile_len[p]);
        (len > 0).then(|| self.piles[p][len - 1])
    }

    /// The first face-up card of pile `p` (the bottom of its run).
    fn run_bottom(&self, p: usize) -> Option<Card> {
        let down = usize::from(self.face_down[p]);
        (usize::from(self.pile_len[p]) > down).then(|| self.piles[p][down])
    }

    fn waste_top(&self) -> Option<Card> {
        let len = usize::from(self.waste_len);
        (len > 0).then(|| self.waste[len - 1])
    }

    /// Whether `card` may go on pile `p`: a king on an empty pile, or a
    /// card one lower in the other colour on a face-up top.
    fn takes(&self, p: usize, card: Card) -> bool {
        match self.top(p) {
            None => card.rank() == 13,
            Some(top) => top.rank() == card.rank() + 1 && is_red(top) != is_red(card),
        }
    }

    fn fits_foundation(&self, card: Card) -> bool {
        self.foundations[usize::from(card.suit())] + 1 == card.rank()
    }

    fn pop_pile(&mut self, p: usize) -> Card {
        self.pile_len[p] -= 1;
        let card = self.piles[p][usize::from(self.pile_len[p])];
        self.turn_up(p);
        card
    }

    /// A face-down card left on top is turned up at once.
    fn turn_up(&mut self, p: usize) {
        if self.pile_len[p] > 0 && self.face_down[p] == self.pile_len[p] {
            self.face_down[p] -= 1;
        }
    }

    fn push_pile(&mut self, p: usize, card: Card) {
        self.piles[p][usize::from(self.pile_len[p])] = card;
        self.pile_len[p] += 1;
    }
}

/// Diamonds (1) and hearts (2) are red.
fn is_red(card: Card) -> bool {
    matches!(card.suit(), 1 | 2)
}

/// What happened, for records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The top card of a pile went to its foundation.
    PileToFoundation { pile: usize, card: Card },
    /// The waste's top card went to its foundation.
    WasteToFoundation { card: Card },
    /// The waste's top card went onto a pile.
    WasteToPile { pile: usize, card: Card },
    /// A pile's face-up run (led by `card`) moved onto another pile.
    RunToPile {
        from: usize,
        to: usize,
        card: Card,
        cards: usize,
    },
    /// Cards were turned from the stock onto the waste (`card` on top).
    StockTurned { card: Card },
    /// The waste was turned over to make a new stock (pass `pass`).
    Redeal { pass: u8 },
}

/// What [`Klondike::play_with`] reports, for records.
pub trait Observer {
    /// Whether play should send the reports at all.
    const WATCHING: bool = true;
    /// Something happened; `table` is the table after it.
    fn event(&mut self, _event: Event, _table: &Table) {}
}

/// The observer that watches nothing.
pub struct Silent;

impl Observer for Silent {
    const WATCHING: bool = false;
}

/// The game for one set of rule variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Klondike {
    params: KlondikeParams,
}

impl Klondike {
    /// Checks the variants: `draw` 1 or 3, `passes` at least 1.
    pub fn new(params: KlondikeParams) -> Result<Klondike> {
        if !matches!(params.draw, 1 | 3) {
            return Err(Error::invalid("--draw", params.draw, "must be 1 or 3"));
        }
        if params.passes == 0 {
            return Err(Error::invalid(
                "--passes",
                params.passes,
                "must be at least 1 (passes through the stock; 1 = no redeal)",
            ));
        }
        Ok(Klondike { params })
    }

    /// The exercise's game: one card at a time, one pass.
    pub fn standard() -> Klondike {
        Klondike {
            params: KlondikeParams::default(),
        }
    }

    /// The variants played.
    pub fn params(&self) -> KlondikeParams {
        self.params
    }

    /// The table after the deal (RULES.md: round `r` gives one card to each
    /// pile `r..6`, the card to pile `r` face up), before any move.
    /// `deal` must be a permutation of the 52 cards (the caller checks).
    pub fn deal(&self, deal: &[Card]) -> Table {
        let blank = Card::new(1, 0);
        let mut table = Table {
            piles: [[blank; PILE_CAPACITY]; PILES],
            pile_len: [0; PILES],
            face_down: [0; PILES],
            stock: [blank; STOCK],
            stock_len: STOCK as u8,
            stock_next: 0,
            waste: [blank; STOCK],
            waste_len: 0,
            foundations: [0; 4],
            passes: 1,
        };
        let mut next = 0;
        for round in 0..PILES {
            for pile in round..PILES {
                table.push_pile(pile, deal[next]);
                next += 1;
            }
            table.face_down[round] = round as u8;
        }
        table.stock.copy_from_slice(&deal[28..52]);
        table
    }

    /// Plays `deal` by the fixed policy, telling `observer`.
    ///
    /// Guarantee: ends (module documentation); no allocation.
    pub fn play_with<O: Observer>(&self, deal: &[Card], observer: &mut O) -> KlondikeRecord {
        let mut table = self.deal(deal);
        let mut record = KlondikeRecord::default();
        self.turn_stock(&mut table, observer);
        loop {
            if self.make_a_move(&mut table, observer) {
                record.moves += 1;
                if table.waste_len == 0 {
                    // A move emptied the waste: refill it at once.
                    self.turn_stock(&mut table, observer);
                }
                continue;
            }
            if !self.turn_stock(&mut table, observer) {
                break;
            }
        }
        record.foundation_cards = table.foundations.iter().sum();
        record
    }

    /// Plays `deal` silently.
    pub fn play(&self, deal: &[Card]) -> KlondikeRecord {
        self.play_with(deal, &mut Silent)
    }

    /// The first move of the policy's steps 1 to 3 that applies, made;
    /// false if none does.
    fn make_a_move<O: Observer>(&self, table: &mut Table, observer: &mut O) -> bool {
        // 1. To a foundation: from the piles, left to right, else the waste.
        for pile in 0..PILES {
            if let Some(card) = table.top(pile)
                && table.fits_foundation(card)
            {
                table.pop_pile(pile);
                table.foundations[usize::from(card.suit())] += 1;
                if O::WATCHING {
                    observer.event(Event::PileToFoundation { pile, card }, table);
                }
                return true;
            }
        }
        if let Some(card) = table.waste_top()
            && table.fits_foundation(card)
        {
            table.waste_len -= 1;
            table.foundations[usize::from(card.suit())] += 1;
            if O::WATCHING {
                observer.event(Event::WasteToFoundation { card }, table);
            }
            return true;
        }
        // 2. The waste's top card to the leftmost pile that takes it.
        if let Some(card) = table.waste_top()
            && let Some(pile) = (0..PILES).find(|&p| table.takes(p, card))
        {
            table.waste_len -= 1;
            table.push_pile(pile, card);
            if O::WATCHING {
                observer.event(Event::WasteToPile { pile, card }, table);
            }
            return true;
        }
        // 3. The leftmost pile whose face-up run can move, onto the
        // leftmost pile that takes it.
        for from in 0..PILES {
            let Some(bottom) = table.run_bottom(from) else {
                continue;
            };
            // A king already at the bottom of its pile gains nothing on
            // another empty pile (and would move back and forth).
            let king_at_bottom = bottom.rank() == 13 && table.face_down[from] == 0;
            let target = (0..PILES).find(|&to| {
                to != from
                    && table.takes(to, bottom)
                    && !(king_at_bottom && table.pile_len[to] == 0)
            });
            if let Some(to) = target {
                let start = usize::from(table.face_down[from]);
                let len = usize::from(table.pile_len[from]);
                for i in start..len {
                    let card = table.piles[from][i];
                    table.push_pile(to, card);
                }
                table.pile_len[from] = start as u8;
                table.turn_up(from);
                if O::WATCHING {
                    let event = Event::RunToPile {
                        from,
                        to,
                        card: bottom,
                        cards: len - start,
                    };
                    observer.event(event, table);
                }
                return true;
            }
        }
        false
    }

    /// Turns the next stock card(s) onto the waste, turning the waste over
    /// into a new stock first if the stock is empty and passes remain;
    /// false if nothing could be turned.
    fn turn_stock<O: Observer>(&self, table: &mut Table, observer: &mut O) -> bool {
        if table.stock_next == table.stock_len {
            if table.passes == self.params.passes || table.waste_len == 0 {
                return false;
            }
            // The waste turned over: its first card is the next to turn.
            let len = usize::from(table.waste_len);
            table.stock[..len].copy_from_slice(&table.waste[..len]);
            table.stock_len = table.waste_len;
            table.stock_next = 0;
            table.waste_len = 0;
            table.passes += 1;
            if O::WATCHING {
                observer.event(Event::Redeal { pass: table.passes }, table);
            }
        }
        for _ in 0..self.params.draw {
            if table.stock_next == table.stock_len {
                break;
            }
            table.waste[usize::from(table.waste_len)] = table.stock[usize::from(table.stock_next)];
            table.waste_len += 1;
            table.stock_next += 1;
        }
        if O::WATCHING
            && let Some(card) = table.waste_top()
        {
            observer.event(Event::StockTurned { card }, table);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    fn full_deck() -> Vec<Card> {
        (0..4)
            .flat_map(|suit| (1..=13).map(move |rank| Card::new(rank, suit)))
            .collect()
    }

    /// Checks the table's invariants after every event.
    struct Invariants {
        events: usize,
    }

    impl Observer for Invariants {
        fn event(&mut self, _event: Event, table: &Table) {
            self.events += 1;
            let mut seen = [false; 256];
            let mut count = 0;
            let mut see = |card: Card| {
                let code = usize::from(card.code());
                assert!(!seen[code], "{card} in two places");
                seen[code] = true;
                count += 1;
            };
            for p in 0..PILES {
                let (cards, down) = table.pile(p);
                assert!(down < cards.len() || cards.is_empty(), "a face-down top");
                cards.iter().for_each(|&c| see(c));
                // The face-up run descends in alternating colours.
                for pair in cards[down..].windows(2) {
                    assert_eq!(pair[0].rank(), pair[1].rank() + 1);
                    assert_ne!(is_red(pair[0]), is_red(pair[1]));
                }
            }
            table.waste().iter().for_each(|&c| see(c));
            table.stock().iter().for_each(|&c| see(c));
            for (suit, &top) in table.foundations().iter().enumerate() {
                for rank in 1..=top {
                    see(Card::new(rank, suit as u8));
                }
            }
            assert_eq!(count, 52, "52 cards at every step");
        }
    }

    #[test]
    fn invariants_hold_and_every_game_ends() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(41);
        for (draw, passes) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
            let game = Klondike::new(KlondikeParams { draw, passes }).unwrap();
            let mut deck = full_deck();
            for _ in 0..3_000 {
                deck.shuffle(&mut rng);
                let mut invariants = Invariants { events: 0 };
                let record = game.play_with(&deck, &mut invariants);
                assert_eq!(record, game.play(&deck));
                assert!(record.foundation_cards <= 52);
                assert!(invariants.events > 0);
            }
        }
    }

    #[test]
    fn the_deal_follows_the_rounds() {
        let deck = full_deck();
        let table = Klondike::standard().deal(&deck);
        for p in 0..PILES {
            let (cards, down) = table.pile(p);
            assert_eq!((cards.len(), down), (p + 1, p));
        }
        // Round 0 gives cards 0..6 to piles 0..6; pile 1's second card is
        // the first of round 1 (card 7).
        assert_eq!(table.pile(0).0[0], deck[0]);
        assert_eq!(table.pile(1).0[1], deck[7]);
        assert_eq!(table.stock()[0], deck[28]);
    }

    #[test]
    fn a_sorted_deck_pays_as_the_rules_say() {
        let record = Klondike::standard().play(&full_deck());
        assert_eq!(record.net(), 5 * i32::from(record.foundation_cards) - 52);
    }

    #[test]
    fn bad_variants_are_refused_by_name() {
        let bad = |draw, passes| {
            Klondike::new(KlondikeParams { draw, passes })
                .unwrap_err()
                .to_string()
        };
        assert!(bad(2, 1).contains("--draw 2"));
        assert!(bad(1, 0).contains("--passes 0"));
    }
}
