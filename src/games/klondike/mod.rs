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

pub mod brute;
pub mod check;
pub mod free_play;
pub mod published;
pub mod record;
pub mod solve;
pub mod solvitaire;

use crate::cards::{Card, parse_card};
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::rng::{GameRng, shuffle};

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
    /// For each card code, the pile it is the top card of, or `NO_PILE`:
    /// the policy finds "the leftmost pile that takes a card" with two
    /// lookups (the card's two possible parents) instead of a scan.
    pile_of_top: [u8; 64],
}

/// `Table::pile_of_top` of a card that tops no pile; above every pile, so
/// the leftmost of two candidates is their minimum.
const NO_PILE: u8 = u8::MAX;

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

    /// The leftmost pile that takes `card`: for a king the leftmost empty
    /// pile; otherwise the leftmost pile topped by a card one rank higher
    /// in the other colour (a face-up card: a face-down one is never left
    /// on top).
    fn leftmost_taking(&self, card: Card) -> Option<usize> {
        let rank = card.rank();
        let pile = if rank == 13 {
            return self.pile_len.iter().position(|&len| len == 0);
        } else {
            // Red (diamonds 1, hearts 2) goes on black (clubs 0, spades 3)
            // and black on red.
            let (a, b) = if is_red(card) { (0, 3) } else { (1, 2) };
            let parent = |suit: u8| usize::from(suit << 4 | (rank + 1));
            self.pile_of_top[parent(a)].min(self.pile_of_top[parent(b)])
        };
        (pile != NO_PILE).then_some(usize::from(pile))
    }

    /// The leftmost pile whose top card goes on its foundation.
    fn leftmost_to_foundation(&self) -> Option<usize> {
        let pile = (0..4u8)
            .filter(|&suit| self.foundations[usize::from(suit)] < 13)
            .map(|suit| {
                let next = self.foundations[usize::from(suit)] + 1;
                self.pile_of_top[usize::from(suit << 4 | next)]
            })
            .min()
            .unwrap_or(NO_PILE);
        (pile != NO_PILE).then_some(usize::from(pile))
    }

    fn fits_foundation(&self, card: Card) -> bool {
        self.foundations[usize::from(card.suit())] + 1 == card.rank()
    }

    fn pop_pile(&mut self, p: usize) -> Card {
        self.pile_len[p] -= 1;
        let card = self.piles[p][usize::from(self.pile_len[p])];
        self.turn_up(p);
        self.new_top(p, card);
        card
    }

    /// A face-down card left on top is turned up at once.
    fn turn_up(&mut self, p: usize) {
        if self.pile_len[p] > 0 && self.face_down[p] == self.pile_len[p] {
            self.face_down[p] -= 1;
        }
    }

    fn push_pile(&mut self, p: usize, card: Card) {
        let old_top = self.top(p);
        self.piles[p][usize::from(self.pile_len[p])] = card;
        self.pile_len[p] += 1;
        if let Some(old_top) = old_top {
            self.pile_of_top[usize::from(old_top.code())] = NO_PILE;
        }
        self.pile_of_top[usize::from(card.code())] = p as u8;
    }

    /// Pile `p`'s top was `old_top` and has changed: keeps `pile_of_top`.
    fn new_top(&mut self, p: usize, old_top: Card) {
        self.pile_of_top[usize::from(old_top.code())] = NO_PILE;
        if let Some(top) = self.top(p) {
            self.pile_of_top[usize::from(top.code())] = p as u8;
        }
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
            return Err(Error::invalid("draw", params.draw, "must be 1 or 3"));
        }
        if params.passes == 0 {
            return Err(Error::invalid(
                "passes",
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
            pile_of_top: [NO_PILE; 64],
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
        // Whether the last look at the tableau found no move from a pile
        // (to a foundation, or a run onto another pile) and only the waste
        // and stock have changed since. Those moves depend on the piles and
        // the foundations alone, so they are still impossible, and only the
        // waste's moves need looking at: this saves a scan of the piles on
        // most turns of the stock.
        let mut tableau_settled = false;
        loop {
            if self.make_a_move(&mut table, observer, tableau_settled) {
                record.moves += 1;
                tableau_settled = false;
                if table.waste_len == 0 {
                    // A move emptied the waste: refill it at once.
                    self.turn_stock(&mut table, observer);
                }
                continue;
            }
            tableau_settled = true;
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
    /// false if none does. `tableau_settled`: the piles are known to have
    /// no move of their own (see `play_with`), so only the waste is looked
    /// at.
    fn make_a_move<O: Observer>(
        &self,
        table: &mut Table,
        observer: &mut O,
        tableau_settled: bool,
    ) -> bool {
        // 1. To a foundation: from the piles, left to right, else the waste.
        if !tableau_settled && let Some(pile) = table.leftmost_to_foundation() {
            let card = table.pop_pile(pile);
            table.foundations[usize::from(card.suit())] += 1;
            if O::WATCHING {
                observer.event(Event::PileToFoundation { pile, card }, table);
            }
            return true;
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
            && let Some(pile) = table.leftmost_taking(card)
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
        if tableau_settled {
            return false;
        }
        for from in 0..PILES {
            let Some(bottom) = table.run_bottom(from) else {
                continue;
            };
            // A king already at the bottom of its pile gains nothing on
            // another empty pile (and would move back and forth); nothing
            // else takes a king. (No other pile can be `from`: its top is
            // `bottom` or lower.)
            if bottom.rank() == 13 && table.face_down[from] == 0 {
                continue;
            }
            if let Some(to) = table.leftmost_taking(bottom) {
                let start = usize::from(table.face_down[from]);
                let len = usize::from(table.pile_len[from]);
                // `from` is cut first: its old top becomes `to`'s top.
                table.pile_len[from] = start as u8;
                table.turn_up(from);
                table.new_top(from, table.piles[from][len - 1]);
                for i in start..len {
                    let card = table.piles[from][i];
                    table.push_pile(to, card);
                }
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

/// The 52 cards of a standard deck, clubs, diamonds, hearts, spades, each
/// ace to king: the order every Monte-Carlo chunk starts from.
pub fn sorted_deck() -> [Card; 52] {
    std::array::from_fn(|i| Card::new(i as u8 % 13 + 1, i as u8 / 13))
}

/// Bins of the foundation-cards distribution: 0..=52.
pub const OUTCOMES: usize = 53;

/// Klondike for the Monte-Carlo runner: each trial shuffles the deck
/// uniformly and plays it; bin `n` counts games that ended with `n` cards on
/// the foundations.
#[derive(Clone, Copy, Debug)]
pub struct KlondikeSimulation {
    game: Klondike,
}

impl KlondikeSimulation {
    /// The simulation of `game`.
    pub fn new(game: Klondike) -> KlondikeSimulation {
        KlondikeSimulation { game }
    }
}

impl Simulation for KlondikeSimulation {
    /// The deck, sorted at the start of every chunk and shuffled in place
    /// before every game.
    type Scratch = [Card; 52];

    fn n_bins(&self) -> usize {
        OUTCOMES
    }

    fn new_scratch(&self) -> [Card; 52] {
        sorted_deck()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, deck: &mut [Card; 52], counts: &mut [u64]) {
        shuffle(rng, deck);
        counts[usize::from(self.game.play(deck).foundation_cards)] += 1;
    }
}

/// The money over a run of games, from its distribution of foundation
/// cards (`counts[n]` = games ending with `n` cards out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Money {
    /// Games played.
    pub games: u64,
    /// Net winnings over all the games, in dollars: exact.
    pub total_net: i64,
    /// Mean net winnings per game, in dollars.
    pub mean_net: f64,
    /// The standard error of `mean_net` (sample standard deviation over
    /// the square root of the games).
    pub standard_error: f64,
    /// Games in which all 52 cards went out.
    pub games_out: u64,
}

impl Money {
    /// The money of the games counted in `counts` (53 bins).
    ///
    /// Guarantee: `total_net` is computed in 128-bit integers and checked;
    /// a total beyond 64 bits (over 10^16 games) is an error, never a
    /// wrapped number.
    pub fn of(counts: &[u64]) -> Result<Money> {
        let net = |cards: usize| i128::from(PAY_PER_CARD) * cards as i128 - i128::from(STAKE);
        let games: u64 = counts.iter().sum();
        let total: i128 = counts
            .iter()
            .enumerate()
            .map(|(cards, &n)| net(cards) * i128::from(n))
            .sum();
        let total_net = i64::try_from(total).map_err(|_| {
            Error::invalid(
                "counts",
                format!("of {games} games"),
                "are too many games: the total net winnings exceed 64 bits",
            )
        })?;
        let n = games as f64;
        let mean_net = if games == 0 { 0.0 } else { total as f64 / n };
        let variance = if games > 1 {
            counts
                .iter()
                .enumerate()
                .map(|(cards, &c)| c as f64 * (net(cards) as f64 - mean_net).powi(2))
                .sum::<f64>()
                / (n - 1.0)
        } else {
            0.0
        };
        Ok(Money {
            games,
            total_net,
            mean_net,
            standard_error: if games == 0 {
                0.0
            } else {
                (variance / n).sqrt()
            },
            games_out: counts.get(52).copied().unwrap_or(0),
        })
    }
}

/// Parses a deal: 52 cards separated by spaces or commas (as
/// [`crate::cards::parse_card`] reads them), each card of the standard deck
/// exactly once, first dealt first. Errors name `deal`.
pub fn parse_deal(text: &str) -> Result<[Card; 52]> {
    const ALLOWED: &str = "must be the 52 cards of a standard deck, each once, first dealt first, e.g. \"7C 10D AS ...\"";
    let cards = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(|token| {
            parse_card(token).map_err(|_| {
                Error::invalid(
                    "deal",
                    token,
                    "is not a card: a rank (A, 2..10, T, J, Q, K) and a suit (C, D, H, S or ♣ ♦ ♥ ♠)",
                )
            })
        })
        .collect::<Result<Vec<Card>>>()?;
    let mut seen = [false; 256];
    for &card in &cards {
        let seen = &mut seen[usize::from(card.code())];
        if *seen {
            return Err(Error::invalid("deal", format!("has {card} twice"), ALLOWED));
        }
        *seen = true;
    }
    if cards.len() != 52 {
        let missing: Vec<String> = sorted_deck()
            .iter()
            .filter(|card| !seen[usize::from(card.code())])
            .map(|card| card.to_string())
            .collect();
        // A few missing cards are named; a short deal would list dozens.
        let named = match missing.len() {
            n if n > 5 => format!("{} and {} more", missing[..5].join(" "), n - 5),
            _ => missing.join(" "),
        };
        return Err(Error::invalid(
            "deal",
            format!("has {} cards (missing {named})", cards.len()),
            ALLOWED,
        ));
    }
    cards
        .try_into()
        .map_err(|_| Error::invalid("deal", text, ALLOWED))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    fn full_deck() -> Vec<Card> {
        sorted_deck().to_vec()
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
        assert!(bad(2, 1).starts_with("draw 2:"));
        assert!(bad(1, 0).starts_with("passes 0:"));
    }

    #[test]
    fn money_adds_up_exactly() {
        // 3 games: 0 cards (-52), 10 cards (-2), 52 cards (+208).
        let mut counts = [0u64; OUTCOMES];
        counts[0] = 1;
        counts[10] = 1;
        counts[52] = 1;
        let money = Money::of(&counts).unwrap();
        assert_eq!((money.games, money.total_net, money.games_out), (3, 154, 1));
        assert!((money.mean_net - 154.0 / 3.0).abs() < 1e-12);
        // Sample variance of -52, -2, 208 over 3 games.
        let mean = 154.0 / 3.0;
        let variance = [-52.0f64, -2.0, 208.0]
            .iter()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / 2.0;
        assert!((money.standard_error - (variance / 3.0).sqrt()).abs() < 1e-12);
        let mut absurd = [0u64; OUTCOMES];
        absurd[52] = u64::MAX;
        assert!(Money::of(&absurd).is_err());
    }

    #[test]
    fn the_simulation_counts_the_play_function() {
        let game = Klondike::new(KlondikeParams { draw: 1, passes: 2 }).unwrap();
        let simulation = KlondikeSimulation::new(game);
        let mut rng = crate::rng::stream_rng(7, 0, 0);
        let mut deck = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        let mut replayed = vec![0u64; OUTCOMES];
        let mut shadow_rng = rng.clone();
        let mut shadow = sorted_deck();
        for _ in 0..2_000 {
            simulation.trial(&mut rng, &mut deck, &mut counts);
            shuffle(&mut shadow_rng, &mut shadow);
            replayed[usize::from(game.play(&shadow).foundation_cards)] += 1;
        }
        assert_eq!(counts, replayed);
        assert_eq!(counts.iter().sum::<u64>(), 2_000);
    }

    fn deck_text() -> String {
        sorted_deck()
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_deal_parses_in_letters_and_symbols() {
        assert_eq!(parse_deal(&deck_text()).unwrap(), sorted_deck());
        let symbols = deck_text()
            .replace('C', "♣")
            .replace('D', "♦")
            .replace('H', "♥")
            .replace('S', "♠");
        assert_eq!(parse_deal(&symbols).unwrap(), sorted_deck());
    }

    #[test]
    fn a_bad_deal_is_named() {
        let check = |text: &str, expected: &str| {
            let message = parse_deal(text).unwrap_err().to_string();
            assert!(message.starts_with(expected), "{message}");
        };
        let full = deck_text();
        check(&full.replacen("AC", "AD", 1), "deal has AD twice:");
        check(
            &full.replacen("AC ", "", 1),
            "deal has 51 cards (missing AC):",
        );
        check(&format!("{full} 2C"), "deal has 2C twice:");
        check(&full.replacen("AC", "1X", 1), "deal 1X: is not a card");
        check("", "deal has 0 cards (missing AC 2C 3C 4C 5C and 47 more):");
    }
}
