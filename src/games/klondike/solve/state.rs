//! The solver's position: piles in fixed slots, foundations, and the talon
//! (stock and waste as one sequence with a split), with the moves the
//! search makes and the canonical key it remembers. Cards are their byte
//! codes (`suit << 4 | rank`); no allocation anywhere here.

use crate::cards::Card;
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Passes};

/// Piles at most (RULES.md section 4 deals 7).
pub(super) const MAX_PILES: usize = 7;

/// Cards a pile can hold: at most 6 face down and a run of at most 13.
const PILE_CAPACITY: usize = 6 + 13;

/// Cards the talon can hold: a deck of at most 52 less one dealt card.
pub(super) const MAX_TALON: usize = 51;

/// The colour of a card code: 0 black (clubs, spades), 1 red (diamonds,
/// hearts).
#[inline]
pub(super) fn colour(code: u8) -> u8 {
    let suit = code >> 4;
    (suit ^ (suit >> 1)) & 1
}

#[inline]
pub(super) fn rank(code: u8) -> u8 {
    code & 0x0f
}

#[inline]
pub(super) fn suit(code: u8) -> usize {
    usize::from(code >> 4)
}

/// The other card of the same rank and colour (clubs and spades,
/// diamonds and hearts).
#[inline]
pub(super) fn twin(code: u8) -> u8 {
    code ^ 0x30
}

/// One pile: its cards bottom first; the first `down` are face down (they
/// are the cards dealt there, which never move, so the pile's slot and
/// `down` name them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pile {
    pub(super) len: u8,
    pub(super) down: u8,
    pub(super) cards: [u8; PILE_CAPACITY],
}

impl Pile {
    #[inline]
    pub(super) fn top(&self) -> Option<u8> {
        (self.len > 0).then(|| self.cards[usize::from(self.len) - 1])
    }

    /// A face-down card left on top is turned up (RULES.md section 7).
    #[inline]
    fn turn_up(&mut self) {
        if self.down == self.len && self.down > 0 {
            self.down -= 1;
        }
    }
}

/// The talon position: which of the stock's cards remain (always in the
/// order dealt: turning the waste over keeps its order), how many of them
/// are in the waste, and the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Talon {
    /// Remaining stock cards in the order dealt: `cards[..waste]` is the
    /// waste, bottom first (its top is `cards[waste - 1]`), the rest the
    /// stock, next to turn first.
    pub(super) cards: [u8; MAX_TALON],
    pub(super) len: u8,
    pub(super) waste: u8,
    /// Passes begun, from 1.
    pub(super) pass: u8,
    /// Bit `i` set while the `i`-th card of the original stock remains.
    pub(super) remaining: u64,
}

impl Talon {
    /// Turns to waste size `waste` in pass `pass` (a stop
    /// [`Deal::talon_stops`] listed) and takes the waste's top card off
    /// the talon; returns it.
    #[inline]
    pub(super) fn take(&mut self, deal: &Deal, waste: u8, pass: u8) -> u8 {
        let at = usize::from(waste) - 1;
        let card = self.cards[at];
        self.cards.copy_within(at + 1..usize::from(self.len), at);
        self.len -= 1;
        self.waste = waste - 1;
        self.pass = pass;
        self.remaining &= !(1u64 << deal.stock_index[usize::from(card)]);
        card
    }
}

/// The whole position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct State {
    pub(super) piles: [Pile; MAX_PILES],
    pub(super) n_piles: u8,
    /// Cards on each suit's foundation (its top card's rank).
    pub(super) foundation: [u8; 4],
    pub(super) talon: Talon,
}

/// What a search edge does (one atomic move, or a talon macro move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    PileToFoundation {
        from: u8,
    },
    PileToPile {
        from: u8,
        to: u8,
        cards: u8,
    },
    FoundationToPile {
        suit: u8,
        to: u8,
    },
    /// Turn the stock `turns` times (reaching waste size `waste` in pass
    /// `pass`), then play the waste's top card onto pile `to`, or to its
    /// foundation when `to` is [`Step::FOUNDATION`].
    Talon {
        turns: u8,
        waste: u8,
        pass: u8,
        to: u8,
    },
}

impl Step {
    pub(super) const FOUNDATION: u8 = u8::MAX;

    /// Appends the atomic moves this step stands for.
    pub(super) fn expand(self, out: &mut Vec<FreeMove>) {
        match self {
            Step::PileToFoundation { from } => out.push(FreeMove::PileToFoundation { from }),
            Step::PileToPile { from, to, cards } => {
                out.push(FreeMove::PileToPile { from, to, cards })
            }
            Step::FoundationToPile { suit, to } => {
                out.push(FreeMove::FoundationToPile { suit, to })
            }
            Step::Talon { turns, to, .. } => {
                out.extend(std::iter::repeat_n(FreeMove::Turn, usize::from(turns)));
                out.push(if to == Step::FOUNDATION {
                    FreeMove::WasteToFoundation
                } else {
                    FreeMove::WasteToPile { to }
                });
            }
        }
    }
}

/// A reachable waste top: after `turns` turns the waste holds `waste`
/// cards in pass `pass`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TalonStop {
    pub(super) turns: u8,
    pub(super) waste: u8,
    pub(super) pass: u8,
}

/// A rule of the module doc of `solve` broken on purpose, in tests only:
/// each test that holds the solver to brute force shows, by breaking a
/// rule, that it would catch that rule being unsound on some reduced
/// deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(super) enum Broken {
    /// Stock turns: the talon's stops end with the pass (no new pass).
    NoNewPass,
    /// Placements: a card may be a top only when nothing can lie on it.
    TopOnlyWhenBare,
    /// Dead cards: no card ever comes back from a foundation (not only
    /// dead ones).
    NeverBack,
    /// Safe moves: every card that can go home from the tableau goes.
    EveryHomeSafe,
    /// Free talon: every talon card that can go home goes.
    EveryTalonHomeSafe,
    /// Empty piles: no top-rank card ever moves to one from a pile.
    NoKingToEmpty,
    /// The bound: no talon card becomes the waste's top after one leaves.
    TalonStuck,
    /// The relaxation: draw 3, one pass, instead of draw 1, unlimited.
    RelaxToOnePass,
    /// A card put down is built on at once, but never with a base.
    NotBuiltFromBase,
}

/// The facts of one deal the search reads: the rules and, per pile slot,
/// the hash seed of its face-down cards.
pub(super) struct Deal {
    pub(super) draw: u8,
    /// Passes allowed; `None` for unlimited.
    pub(super) max_passes: Option<u8>,
    pub(super) top_rank: u8,
    pub(super) n_cards: u8,
    /// Stock index of each card code (for `Talon::remaining`).
    pub(super) stock_index: [u8; 256],
    /// The stock's cards as dealt, a set by code.
    pub(super) stock_cards: u64,
    /// The rule broken on purpose, if any (tests only).
    #[cfg(test)]
    pub(super) broken: Option<Broken>,
}

impl Deal {
    /// The position dealt, and the deal's facts (`deal` already checked).
    pub(super) fn new(rules: &FreePlayRules, deal: &[Card]) -> (Deal, State) {
        let layout = rules.layout;
        let mut piles = [Pile {
            len: 0,
            down: 0,
            cards: [0; PILE_CAPACITY],
        }; MAX_PILES];
        for (slot, positions) in layout.pile_positions().iter().enumerate() {
            let pile = &mut piles[slot];
            for &position in positions {
                pile.cards[usize::from(pile.len)] = deal[position].code();
                pile.len += 1;
            }
            pile.down = pile.len - 1;
        }
        let mut talon = Talon {
            cards: [0; MAX_TALON],
            len: 0,
            waste: 0,
            pass: 1,
            remaining: 0,
        };
        let mut stock_index = [0u8; 256];
        let mut stock_cards = 0u64;
        for (index, card) in deal[layout.n_tableau()..].iter().enumerate() {
            stock_cards |= 1 << card.code();
            talon.cards[index] = card.code();
            talon.len += 1;
            talon.remaining |= 1 << index;
            stock_index[usize::from(card.code())] = index as u8;
        }
        let facts = Deal {
            draw: rules.draw,
            max_passes: match rules.passes {
                Passes::Limited(n) => Some(n),
                Passes::Unlimited => None,
            },
            top_rank: layout.ranks,
            n_cards: layout.n_cards() as u8,
            stock_index,
            stock_cards,
            #[cfg(test)]
            broken: None,
        };
        let state = State {
            piles,
            n_piles: layout.piles,
            foundation: [0; 4],
            talon,
        };
        (facts, state)
    }

    /// Whether `rule` is broken on purpose (never, outside tests).
    #[inline(always)]
    pub(super) fn broken(&self, rule: Broken) -> bool {
        #[cfg(test)]
        {
            self.broken == Some(rule)
        }
        #[cfg(not(test))]
        {
            let _ = rule;
            false
        }
    }

    /// Whether every talon card can be made the waste's top at any time,
    /// whatever has left the talon: one card turned at a time, passes
    /// unlimited. The talon is then a reserve open to play in any order.
    #[inline]
    pub(super) fn talon_is_free(&self) -> bool {
        self.draw == 1 && self.max_passes.is_none()
    }

    /// Whether `card` is in `talon` (as it stands in a position of this
    /// deal).
    #[inline]
    pub(super) fn in_talon(&self, talon: &Talon, card: u8) -> bool {
        self.stock_cards >> card & 1 == 1
            && talon.remaining >> self.stock_index[usize::from(card)] & 1 == 1
    }

    /// Whether `talon` holds some card of `cards`.
    #[inline]
    pub(super) fn talon_holds_any(&self, talon: &Talon, cards: u64) -> bool {
        let mut cards = cards & self.stock_cards;
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            if self.in_talon(talon, card) {
                return true;
            }
        }
        false
    }

    /// The talon after one `FreeMove::Turn` from `(waste, pass)`, if the
    /// stock can be turned.
    #[inline]
    fn turn(&self, len: u8, waste: u8, pass: u8) -> Option<(u8, u8)> {
        if waste < len {
            Some(((waste + self.draw).min(len), pass))
        } else if len > 0 && self.max_passes.is_none_or(|max| pass < max) {
            // Unlimited passes: the pass number is not tracked (it stays 1).
            let pass = if self.max_passes.is_some() {
                pass + 1
            } else {
                pass
            };
            Some((self.draw.min(len), pass))
        } else {
            None
        }
    }

    /// Every waste top reachable by turning from the current talon (none
    /// turned first), each waste size once, with the fewest turns (a later
    /// stop at the same size has the same cards and no more passes left, so
    /// it can do nothing the first cannot). Returns how many were written.
    pub(super) fn talon_stops(
        &self,
        talon: &Talon,
        stops: &mut [TalonStop; MAX_TALON + 1],
    ) -> usize {
        let mut n = 0;
        let (mut waste, mut pass) = (talon.waste, talon.pass);
        let mut seen: u64 = 0;
        let mut turns = 0u8;
        loop {
            if waste > 0 {
                if seen & (1 << waste) == 0 {
                    seen |= 1 << waste;
                    stops[n] = TalonStop { turns, waste, pass };
                    n += 1;
                } else if self.max_passes.is_none() {
                    // Unlimited: back on the cycle of whole passes.
                    break;
                }
            }
            if self.broken(Broken::NoNewPass) && waste == talon.len {
                break;
            }
            match self.turn(talon.len, waste, pass) {
                // Limited: a second whole pass stops where the first did.
                Some((next_waste, next_pass)) if next_pass < talon.pass + 2 => {
                    waste = next_waste;
                    pass = next_pass;
                    turns += 1;
                }
                _ => break,
            }
        }
        n
    }

    /// The foundation top of a suit is *dead* when every card that could
    /// be built on it in the tableau is dead too (see the module doc):
    /// both foundations of the other colour reach `rank - 1` and the other
    /// suit of its colour `rank - 2`.
    #[inline]
    pub(super) fn dead_when_home(foundation: &[u8; 4], card: u8) -> bool {
        let r = rank(card);
        let own = suit(card);
        (0..4).all(|s| {
            if s == own {
                true
            } else if colour((s as u8) << 4) != colour(card) {
                foundation[s] + 1 >= r
            } else {
                foundation[s] + 2 >= r
            }
        })
    }
}

impl State {
    #[cfg(test)]
    pub(super) fn won(&self, deal: &Deal) -> bool {
        self.foundation.iter().map(|&n| u32::from(n)).sum::<u32>() == u32::from(deal.n_cards)
    }

    /// Makes `step` (legal by construction).
    pub(super) fn apply(&mut self, deal: &Deal, step: &Step) {
        match *step {
            Step::PileToFoundation { from } => {
                let pile = &mut self.piles[usize::from(from)];
                pile.len -= 1;
                let card = pile.cards[usize::from(pile.len)];
                pile.turn_up();
                self.foundation[suit(card)] += 1;
            }
            Step::PileToPile { from, to, cards } => {
                let (from, to) = (usize::from(from), usize::from(to));
                let n = usize::from(cards);
                let source = self.piles[from];
                let start = usize::from(source.len) - n;
                let target = &mut self.piles[to];
                let at = usize::from(target.len);
                target.cards[at..at + n].copy_from_slice(&source.cards[start..start + n]);
                target.len += cards;
                let source = &mut self.piles[from];
                source.len -= cards;
                source.turn_up();
            }
            Step::FoundationToPile { suit, to } => {
                let s = usize::from(suit);
                let card = (suit << 4) | self.foundation[s];
                self.foundation[s] -= 1;
                let target = &mut self.piles[usize::from(to)];
                target.cards[usize::from(target.len)] = card;
                target.len += 1;
            }
            Step::Talon {
                waste, pass, to, ..
            } => {
                let card = self.talon.take(deal, waste, pass);
                if to == Step::FOUNDATION {
                    self.foundation[suit(card)] += 1;
                } else {
                    let target = &mut self.piles[usize::from(to)];
                    target.cards[usize::from(target.len)] = card;
                    target.len += 1;
                }
            }
        }
    }
}

/// Folds a 128-bit product to 64 bits: the mixing step of the key.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// Odd constants (digits of pi and e) keying the two 64-bit halves.
const KEYS: [u64; 6] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7345,
    0xa409_3822_299f_31d1,
    0xb7e1_5162_8aed_2a6b,
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
];

/// A 128-bit hash of `(a, b)` under key set `lane` (0 or 1 gives the two
/// independent halves).
#[inline]
pub(super) fn hash_pair(a: u64, b: u64, lane: usize) -> u64 {
    let k = &KEYS[lane * 3..lane * 3 + 3];
    fold(fold(a ^ k[0], k[1] | 1) ^ b, k[2] | 1)
}
