//! Klondike played freely (RULES.md section 7): the vocabulary the solver
//! (`solve/`), the independent rules checker (`check.rs`) and the brute
//! force (`brute.rs`) share, and nothing else. No rule is applied here:
//! each of those three applies section 7 on its own, so that agreement
//! between them is evidence.
//!
//! A game may be played on a reduced deck (`Layout`: fewer ranks, fewer
//! piles), where exhausting every move is cheap; the full game is
//! `Layout::FULL` (13 ranks, 7 piles).

use std::fmt;

use crate::cards::Card;
use crate::error::{Error, Result};

/// The deck and the tableau: 4 suits of ranks `1..=ranks` (the highest
/// rank plays the king's part: it alone goes onto an empty pile) dealt
/// into `piles` piles as RULES.md section 4 deals 7 (round `r` gives one
/// card to each pile `r..piles`, the card to pile `r` face up); the other
/// cards are the stock, turned in the order dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Ranks per suit, 1..=13.
    pub ranks: u8,
    /// Piles on the table, 1..=7, with `piles * (piles + 1) / 2` at most
    /// the deck's `4 * ranks` cards.
    pub piles: u8,
}

impl Layout {
    /// The real game: 52 cards, 7 piles, 24 in the stock.
    pub const FULL: Layout = Layout {
        ranks: 13,
        piles: 7,
    };

    /// Checks the bounds above.
    pub fn new(ranks: u8, piles: u8) -> Result<Layout> {
        if !(1..=13).contains(&ranks) {
            return Err(Error::invalid("ranks", ranks, "must be 1..=13"));
        }
        let tableau = usize::from(piles) * (usize::from(piles) + 1) / 2;
        if !(1..=7).contains(&piles) || tableau > 4 * usize::from(ranks) {
            return Err(Error::invalid(
                "piles",
                piles,
                format!(
                    "must be 1..=7 with piles x (piles + 1) / 2 at most the {} cards",
                    4 * usize::from(ranks)
                ),
            ));
        }
        Ok(Layout { ranks, piles })
    }

    /// Cards in the deck.
    pub fn n_cards(&self) -> usize {
        4 * usize::from(self.ranks)
    }

    /// Cards dealt to the tableau.
    pub fn n_tableau(&self) -> usize {
        usize::from(self.piles) * (usize::from(self.piles) + 1) / 2
    }

    /// Cards in the stock after the deal.
    pub fn n_stock(&self) -> usize {
        self.n_cards() - self.n_tableau()
    }

    /// For each pile, the positions in the deal of its cards, bottom first
    /// (the last one is dealt face up, the others face down).
    pub fn pile_positions(&self) -> Vec<Vec<usize>> {
        let piles = usize::from(self.piles);
        let mut positions = vec![Vec::new(); piles];
        let mut next = 0;
        for round in 0..piles {
            for pile in positions.iter_mut().skip(round) {
                pile.push(next);
                next += 1;
            }
        }
        positions
    }

    /// Checks that `deal` holds each card of this deck exactly once.
    pub fn check_deal(&self, deal: &[Card]) -> Result<()> {
        let mut seen = [false; 256];
        for &card in deal {
            if card.rank() > self.ranks
                || card.suit() > 3
                || std::mem::replace(&mut seen[usize::from(card.code())], true)
            {
                return Err(Error::invalid(
                    "deal",
                    card,
                    format!(
                        "is not a card of a deck of 4 suits and ranks 1..={}, once each",
                        self.ranks
                    ),
                ));
            }
        }
        if deal.len() != self.n_cards() {
            return Err(Error::invalid(
                "deal",
                format!("{} cards", deal.len()),
                format!("must hold the {} cards of the deck", self.n_cards()),
            ));
        }
        Ok(())
    }
}

/// How many times the stock may be gone through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Passes {
    /// At most this many passes, at least 1 (1: the waste is never turned
    /// over).
    Limited(u8),
    /// The waste may be turned over whenever the stock is empty.
    Unlimited,
}

impl fmt::Display for Passes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Passes::Limited(n) => write!(f, "{n}"),
            Passes::Unlimited => f.write_str("unlimited"),
        }
    }
}

/// The rules of one free-play game: the stock rule and the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FreePlayRules {
    /// Cards turned at a time: 1 or 3.
    pub draw: u8,
    /// Passes through the stock.
    pub passes: Passes,
    /// The deck and the tableau.
    pub layout: Layout,
}

impl FreePlayRules {
    /// The thoughtful game of the literature: draw 3, unlimited passes, 52
    /// cards.
    pub const THOUGHTFUL: FreePlayRules = FreePlayRules {
        draw: 3,
        passes: Passes::Unlimited,
        layout: Layout::FULL,
    };

    /// Checks `draw` (1 or 3) and `passes` (at least 1).
    pub fn new(draw: u8, passes: Passes, layout: Layout) -> Result<FreePlayRules> {
        if !matches!(draw, 1 | 3) {
            return Err(Error::invalid("draw", draw, "must be 1 or 3"));
        }
        if passes == Passes::Limited(0) {
            return Err(Error::invalid(
                "passes",
                0,
                "must be at least 1, or unlimited (1 = the waste is never turned over)",
            ));
        }
        Ok(FreePlayRules {
            draw,
            passes,
            layout,
        })
    }
}

/// One move of free play. Piles are numbered `0..layout.piles` from the
/// left, as dealt; suits as [`Card::suit`] (clubs 0, diamonds 1, hearts 2,
/// spades 3). Every move but `Turn` names what it moves, so a list of
/// moves is a complete, checkable record of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FreeMove {
    /// Turn the stock: `draw` cards (or the one or two left) onto the
    /// waste, the last on top. If the stock is empty, the waste is first
    /// turned over, unchanged in order, into a new stock (a new pass; only
    /// while passes remain and the waste is not empty).
    Turn,
    /// The waste's top card to its foundation.
    WasteToFoundation,
    /// The waste's top card onto pile `to`.
    WasteToPile { to: u8 },
    /// Pile `from`'s top card to its foundation.
    PileToFoundation { from: u8 },
    /// The top `cards` face-up cards of pile `from` onto pile `to`.
    PileToPile { from: u8, to: u8, cards: u8 },
    /// The top card of suit `suit`'s foundation onto pile `to`.
    FoundationToPile { suit: u8, to: u8 },
}
