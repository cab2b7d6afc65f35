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

/// Whether two colour twins both face up in the tableau are told apart
/// (the greedy and complete searches) or not (the abstract search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Twins {
    Distinct,
    /// Not told apart, for the pairs of the cards in the set (by code;
    /// both cards of each pair are in it): [`ALL_PAIRS`] at first, fewer
    /// after a spurious win (the module doc, "Refining").
    Merged(u64),
}

/// Every pair of colour twins, as a card set for [`Twins::Merged`]: ranks
/// 1 to 13 of every suit.
pub(super) const ALL_PAIRS: u64 = 0x3ffe_3ffe_3ffe_3ffe;

/// The other card of the same rank and colour (clubs and spades,
/// diamonds and hearts).
#[inline]
pub(super) fn twin(code: u8) -> u8 {
    code ^ 0x30
}

/// The colour twins of the cards of a bitset (indexed by code).
#[inline]
pub(super) fn twins(cards: u64) -> u64 {
    let lane = |m: u64, s: u32| (m >> (16 * s)) & 0xffff;
    lane(cards, 3) | lane(cards, 2) << 16 | lane(cards, 1) << 32 | lane(cards, 0) << 48
}

/// Whether `card` may be built on `base` in the tableau: one rank lower,
/// the other colour.
#[inline]
pub(super) fn fits_on(card: u8, base: u8) -> bool {
    rank(base) == rank(card) + 1 && colour(base) != colour(card)
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
    /// The abstract search only: the top of pile `from` has its colour
    /// twin face up in the tableau too; the twin goes home from `from`
    /// (the two swap places, then the top goes home). Not a move of the
    /// game: a line that makes one is no solution.
    TwinHome {
        from: u8,
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
            Step::TwinHome { .. } => unreachable!("a solution holds no abstract move"),
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
        for (index, card) in deal[layout.n_tableau()..].iter().enumerate() {
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
        };
        let state = State {
            piles,
            n_piles: layout.piles,
            foundation: [0; 4],
            talon,
        };
        (facts, state)
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
    pub(super) fn won(&self, deal: &Deal) -> bool {
        self.foundation.iter().map(|&n| u32::from(n)).sum::<u32>() == u32::from(deal.n_cards)
    }

    /// Makes the safe foundation moves of pile tops (see the module doc),
    /// recording each; repeats until none is left. With [`Twins::Merged`]
    /// an ambiguous top is left alone: it might be its twin, for which the
    /// move may not be safe or legal.
    pub(super) fn play_safe(&mut self, deal: &Deal, twins: Twins, mut record: impl FnMut(Step)) {
        loop {
            let mut moved = false;
            // Found only when some top could go: most positions have none,
            // and finding them reads every face-up card.
            let mut ambiguous = None;
            for slot in 0..usize::from(self.n_piles) {
                let Some(card) = self.piles[slot].top() else {
                    continue;
                };
                if self.foundation[suit(card)] + 1 == rank(card)
                    && (rank(card) == 1 || Deal::dead_when_home(&self.foundation, card))
                    && *ambiguous.get_or_insert_with(|| match twins {
                        Twins::Distinct => 0,
                        Twins::Merged(pairs) => self.ambiguous(pairs),
                    }) >> card
                        & 1
                        == 0
                {
                    self.apply(deal, &Step::PileToFoundation { from: slot as u8 });
                    record(Step::PileToFoundation { from: slot as u8 });
                    moved = true;
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// The face-up tableau cards, as a bitset indexed by code.
    pub(super) fn face_up(&self) -> u64 {
        let mut set = 0u64;
        for pile in &self.piles[..usize::from(self.n_piles)] {
            for &card in &pile.cards[usize::from(pile.down)..usize::from(pile.len)] {
                set |= 1u64 << card;
            }
        }
        set
    }

    /// The *ambiguous* cards of the pairs in `pairs`: face up in the
    /// tableau, and so is their colour twin. The abstract search does not
    /// tell such twins apart.
    pub(super) fn ambiguous(&self, pairs: u64) -> u64 {
        let up = self.face_up();
        up & twins(up) & pairs
    }

    /// The key of the abstract position: [`State::key`] with each
    /// ambiguous heart or spade written as its twin, so that positions
    /// that differ only by where ambiguous twins lie share a key.
    /// `ambiguous` is [`State::ambiguous`] of the merged pairs.
    pub(super) fn abstract_key(&self, deal: &Deal, ambiguous: u64) -> (u64, u64) {
        if ambiguous == 0 {
            return self.key(deal);
        }
        // Written as the twin while hashing: no copy of the position.
        self.key_as(deal, |card| {
            if ambiguous >> card & 1 == 1 && suit(card) >= 2 {
                twin(card)
            } else {
                card
            }
        })
    }

    /// Makes `step` (legal by construction).
    pub(super) fn apply(&mut self, deal: &Deal, step: &Step) {
        match *step {
            Step::TwinHome { from } => {
                let top = self.piles[usize::from(from)].top().expect("a top");
                let other = twin(top);
                let n = usize::from(self.n_piles);
                'swap: for pile in &mut self.piles[..n] {
                    let (down, len) = (usize::from(pile.down), usize::from(pile.len));
                    for card in &mut pile.cards[down..len] {
                        if *card == other {
                            *card = top;
                            break 'swap;
                        }
                    }
                }
                let pile = &mut self.piles[usize::from(from)];
                pile.cards[usize::from(pile.len) - 1] = other;
                self.apply(deal, &Step::PileToFoundation { from });
            }
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
                let talon = &mut self.talon;
                let at = usize::from(waste) - 1;
                let card = talon.cards[at];
                talon.cards.copy_within(at + 1..usize::from(talon.len), at);
                talon.len -= 1;
                talon.waste = waste - 1;
                talon.pass = pass;
                talon.remaining &= !(1u64 << deal.stock_index[usize::from(card)]);
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
fn hash_pair(a: u64, b: u64, lane: usize) -> u64 {
    let k = &KEYS[lane * 3..lane * 3 + 3];
    fold(fold(a ^ k[0], k[1] | 1) ^ b, k[2] | 1)
}

impl State {
    /// The canonical key: what decides the position's future, hashed to
    /// 128 bits. Piles count as a multiset (slots are interchangeable: a
    /// pile's face-down cards are named by its slot and `down`, and a pile
    /// without face-down cards by its run alone); the waste size counts
    /// only where it changes which waste tops are reachable (see the
    /// module doc).
    pub(super) fn key(&self, deal: &Deal) -> (u64, u64) {
        self.key_as(deal, |card| card)
    }

    /// [`State::key`] of the position with each face-up tableau card
    /// `card` written as `face_up(card)`.
    #[inline]
    fn key_as(&self, deal: &Deal, face_up: impl Fn(u8) -> u8) -> (u64, u64) {
        let (mut lane0, mut lane1) = (0u64, 0u64);
        for (slot, pile) in self.piles[..usize::from(self.n_piles)].iter().enumerate() {
            if pile.len == 0 {
                continue;
            }
            // Exact 128-bit word of the pile: run cards 6 bits each (rank,
            // suit), the face-down identity and the run's length.
            let (mut w0, mut w1) = (0u64, 0u64);
            for (i, &card) in pile.cards[usize::from(pile.down)..usize::from(pile.len)]
                .iter()
                .enumerate()
            {
                let card = face_up(card);
                let six = u64::from(card & 0x0f) | (u64::from(card >> 4) << 4);
                if i < 10 {
                    w0 |= six << (6 * i);
                } else {
                    w1 |= six << (6 * (i - 10));
                }
            }
            let identity = if pile.down > 0 {
                (slot as u64 + 1) << 3 | u64::from(pile.down)
            } else {
                0
            };
            w1 |= (identity << 24) | (u64::from(pile.len - pile.down) << 32);
            // The sum of element hashes is a hash of the multiset.
            lane0 = lane0.wrapping_add(hash_pair(w0, w1, 0));
            lane1 = lane1.wrapping_add(hash_pair(w0, w1, 1));
        }
        let talon = &self.talon;
        let waste = match deal.max_passes {
            Some(_) => u64::from(talon.waste),
            None => {
                // Unlimited: every waste size a multiple of the draw, or
                // the whole talon, reaches the same stops.
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
        let t0 = hash_pair(talon.remaining, small, 0);
        let t1 = hash_pair(talon.remaining, small, 1);
        (hash_pair(lane0, t0, 0) ^ t1, hash_pair(lane1, t1, 1) ^ t0)
    }
}
