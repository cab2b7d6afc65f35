//! An independent rules checker for Klondike free play (RULES.md section 7),
//! written from the rule book and the vocabulary of `free_play.rs` alone,
//! never from the solver: a winning list of moves the solver reports is
//! replayed here, so a solver bug shows up as a refused move instead of a
//! wrong verdict.
//!
//! The table is plain data (vectors, no packing, no symmetry) and every
//! rule is checked where a reader expects it, at the cost of speed: this
//! is the reference, not an engine.

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Passes};

/// One pile of the tableau.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FreePile {
    /// The cards, bottom first.
    pub cards: Vec<Card>,
    /// How many of `cards`, from the bottom, are face down. Never all of a
    /// non-empty pile: a face-down card left on top is turned up at once.
    pub face_down: usize,
}

impl FreePile {
    /// The face-up cards, bottom first.
    pub fn face_up(&self) -> &[Card] {
        &self.cards[self.face_down..]
    }

    /// The top card, if any (always face up).
    pub fn top(&self) -> Option<Card> {
        self.cards.last().copied()
    }
}

/// The whole table of a free-play game, as plain data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FreeTable {
    /// The rules played (the stock rule and the deck).
    pub rules: FreePlayRules,
    /// The piles, left to right (`rules.layout.piles` of them).
    pub piles: Vec<FreePile>,
    /// The waste, bottom first: its last card is the top, the playable one.
    pub waste: Vec<Card>,
    /// The stock, the next card to turn first.
    pub stock: Vec<Card>,
    /// Cards on each suit's foundation (its top rank; 0 for none).
    pub foundations: [u8; 4],
    /// Passes through the stock begun: 1 after the deal, one more each time
    /// the waste is turned over into a new stock.
    pub passes_used: u32,
}

/// Diamonds (1) and hearts (2) are red; clubs (0) and spades (3) black.
fn is_red(card: Card) -> bool {
    matches!(card.suit(), 1 | 2)
}

impl FreeTable {
    /// The table after RULES.md section 4's deal, generalised to the
    /// layout (`Layout::pile_positions`): each pile's last card face up,
    /// the rest of the deal the stock, turned in the order dealt.
    ///
    /// Guarantee: `deal` is checked (`Layout::check_deal`, and every suit
    /// one of the four), so a table is always a permutation of the deck.
    pub fn deal(rules: &FreePlayRules, deal: &[Card]) -> Result<FreeTable> {
        let layout = rules.layout;
        layout.check_deal(deal)?;
        if let Some(&card) = deal.iter().find(|card| card.suit() > 3) {
            return Err(Error::invalid(
                "deal",
                card,
                "is not a card of the four suits clubs, diamonds, hearts, spades",
            ));
        }
        let piles: Vec<FreePile> = layout
            .pile_positions()
            .iter()
            .map(|positions| FreePile {
                cards: positions.iter().map(|&i| deal[i]).collect(),
                face_down: positions.len() - 1,
            })
            .collect();
        Ok(FreeTable {
            rules: *rules,
            piles,
            waste: Vec::new(),
            stock: deal[layout.n_tableau()..].to_vec(),
            foundations: [0; 4],
            passes_used: 1,
        })
    }

    /// Won: every card of the deck on its foundation.
    pub fn is_won(&self) -> bool {
        self.foundations
            .iter()
            .all(|&top| top == self.rules.layout.ranks)
    }

    /// Every legal move, none pruned (even a king-led run moved from the
    /// bottom of one pile to an empty one), in a fixed order: pile to
    /// foundation, waste to foundation, waste to pile, pile to pile,
    /// foundation to pile, turn.
    ///
    /// Guarantee: a move is listed exactly when [`FreeTable::apply`]
    /// accepts it (the list is the candidates that `apply`'s own check
    /// lets through).
    pub fn legal_moves(&self) -> Vec<FreeMove> {
        let piles = self.piles.len() as u8;
        let mut candidates = Vec::new();
        candidates.extend((0..piles).map(|from| FreeMove::PileToFoundation { from }));
        candidates.push(FreeMove::WasteToFoundation);
        candidates.extend((0..piles).map(|to| FreeMove::WasteToPile { to }));
        for from in 0..piles {
            let up = self.piles[usize::from(from)].face_up().len() as u8;
            for cards in 1..=up {
                for to in 0..piles {
                    candidates.push(FreeMove::PileToPile { from, to, cards });
                }
            }
        }
        for suit in 0..4 {
            candidates.extend((0..piles).map(|to| FreeMove::FoundationToPile { suit, to }));
        }
        candidates.push(FreeMove::Turn);
        candidates.retain(|&mv| self.why_illegal(mv).is_none());
        candidates
    }

    /// Makes `mv` if the rules allow it; otherwise leaves the table as it
    /// is and says why not, in words.
    pub fn apply(&mut self, mv: FreeMove) -> std::result::Result<(), String> {
        if let Some(why) = self.why_illegal(mv) {
            return Err(why.to_string());
        }
        match mv {
            FreeMove::Turn => {
                if self.stock.is_empty() {
                    // The waste turned over, unchanged in order: the card
                    // turned first in the last pass is turned first again.
                    self.stock = std::mem::take(&mut self.waste);
                    self.passes_used += 1;
                }
                let n = usize::from(self.rules.draw).min(self.stock.len());
                // The cards go onto the waste in the order turned, the
                // last turned on top.
                self.waste.extend(self.stock.drain(..n));
            }
            FreeMove::WasteToFoundation => {
                let card = self.waste.pop().expect("checked: the waste has a card");
                self.foundations[usize::from(card.suit())] += 1;
            }
            FreeMove::WasteToPile { to } => {
                let card = self.waste.pop().expect("checked: the waste has a card");
                self.piles[usize::from(to)].cards.push(card);
            }
            FreeMove::PileToFoundation { from } => {
                let card = self.take_from_pile(from, 1)[0];
                self.foundations[usize::from(card.suit())] += 1;
            }
            FreeMove::PileToPile { from, to, cards } => {
                let run = self.take_from_pile(from, usize::from(cards));
                self.piles[usize::from(to)].cards.extend(run);
            }
            FreeMove::FoundationToPile { suit, to } => {
                let top = &mut self.foundations[usize::from(suit)];
                let card = Card::new(*top, suit);
                *top -= 1;
                self.piles[usize::from(to)].cards.push(card);
            }
        }
        Ok(())
    }

    /// Removes the top `n` cards of pile `from` (checked face up by the
    /// caller) and turns up a face-down card left on top.
    fn take_from_pile(&mut self, from: u8, n: usize) -> Vec<Card> {
        let pile = &mut self.piles[usize::from(from)];
        let run = pile.cards.split_off(pile.cards.len() - n);
        if pile.face_down > 0 && pile.face_down == pile.cards.len() {
            pile.face_down -= 1;
        }
        run
    }

    /// Why `card` cannot go onto pile `to`, or `None` if it can: onto a
    /// card one rank higher of the other colour, or, if it is of the
    /// highest rank, onto an empty pile.
    fn why_not_onto(&self, card: Card, to: u8) -> Option<Illegal> {
        let Some(pile) = self.piles.get(usize::from(to)) else {
            return Some(Illegal::NoPile {
                pile: to,
                piles: self.piles.len(),
            });
        };
        let ranks = self.rules.layout.ranks;
        match pile.top() {
            None if card.rank() == ranks => None,
            None => Some(Illegal::EmptyPileNeedsTopRank { to, ranks, card }),
            Some(top) if top.rank() != card.rank() + 1 => {
                Some(Illegal::RankNotOneLower { card, top, to })
            }
            Some(top) if is_red(top) == is_red(card) => Some(Illegal::SameColour { card, top, to }),
            Some(_) => None,
        }
    }

    /// Why `card` cannot go onto its foundation, or `None` if it can.
    fn why_not_to_foundation(&self, card: Card) -> Option<Illegal> {
        let top = self.foundations[usize::from(card.suit())];
        (top + 1 != card.rank()).then_some(Illegal::NotNextOnFoundation {
            card,
            next: top + 1,
        })
    }

    /// Why `mv` is illegal on this table, or `None` if it is legal: every
    /// rule of RULES.md section 7 the move must satisfy.
    fn why_illegal(&self, mv: FreeMove) -> Option<Illegal> {
        let pile = |p: u8| -> std::result::Result<&FreePile, Illegal> {
            self.piles.get(usize::from(p)).ok_or(Illegal::NoPile {
                pile: p,
                piles: self.piles.len(),
            })
        };
        match mv {
            FreeMove::Turn => {
                if !self.stock.is_empty() {
                    return None;
                }
                if self.waste.is_empty() {
                    return Some(Illegal::NothingToTurn);
                }
                match self.rules.passes {
                    Passes::Limited(limit) if self.passes_used >= u32::from(limit) => {
                        Some(Illegal::PassesUsed { limit })
                    }
                    _ => None,
                }
            }
            FreeMove::WasteToFoundation => match self.waste.last() {
                None => Some(Illegal::WasteEmpty),
                Some(&card) => self.why_not_to_foundation(card),
            },
            FreeMove::WasteToPile { to } => match self.waste.last() {
                None => Some(Illegal::WasteEmpty),
                Some(&card) => self.why_not_onto(card, to),
            },
            FreeMove::PileToFoundation { from } => match pile(from) {
                Err(why) => Some(why),
                Ok(p) => match p.top() {
                    None => Some(Illegal::PileEmpty { from }),
                    Some(card) => self.why_not_to_foundation(card),
                },
            },
            FreeMove::PileToPile { from, to, cards } => {
                let p = match pile(from) {
                    Err(why) => return Some(why),
                    Ok(p) => p,
                };
                if from == to {
                    return Some(Illegal::OntoItself { from });
                }
                let n = usize::from(cards);
                if n == 0 {
                    return Some(Illegal::NoCards);
                }
                if n > p.cards.len() {
                    return Some(Illegal::TooFewCards {
                        from,
                        has: p.cards.len(),
                        n,
                    });
                }
                if n > p.face_up().len() {
                    return Some(Illegal::FaceDownCard {
                        from,
                        face_up: p.face_up().len(),
                        n,
                    });
                }
                let bottom = p.cards[p.cards.len() - n];
                self.why_not_onto(bottom, to)
            }
            FreeMove::FoundationToPile { suit, to } => {
                if suit > 3 {
                    return Some(Illegal::NoSuit { suit });
                }
                match self.foundations[usize::from(suit)] {
                    0 => Some(Illegal::FoundationEmpty { suit }),
                    top => self.why_not_onto(Card::new(top, suit), to),
                }
            }
        }
    }
}

/// Why a move is illegal: which rule of RULES.md section 7 it breaks, put
/// in words only when shown. A value, not a `String`, because
/// [`FreeTable::legal_moves`] asks of every candidate move (most of them
/// illegal), and the exhaustive search (`brute.rs`) of every table: words
/// made and dropped there took a quarter of its time.
#[derive(Clone, Copy, Debug)]
enum Illegal {
    NoPile { pile: u8, piles: usize },
    EmptyPileNeedsTopRank { to: u8, ranks: u8, card: Card },
    RankNotOneLower { card: Card, top: Card, to: u8 },
    SameColour { card: Card, top: Card, to: u8 },
    NotNextOnFoundation { card: Card, next: u8 },
    NothingToTurn,
    PassesUsed { limit: u8 },
    WasteEmpty,
    PileEmpty { from: u8 },
    OntoItself { from: u8 },
    NoCards,
    TooFewCards { from: u8, has: usize, n: usize },
    FaceDownCard { from: u8, face_up: usize, n: usize },
    NoSuit { suit: u8 },
    FoundationEmpty { suit: u8 },
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Illegal::NoPile { pile, piles } => {
                write!(f, "there is no pile {pile} (piles are 0..{piles})")
            }
            Illegal::EmptyPileNeedsTopRank { to, ranks, card } => write!(
                f,
                "pile {to} is empty and takes only a card of the highest rank ({ranks}), not {card}"
            ),
            Illegal::RankNotOneLower { card, top, to } => write!(
                f,
                "{card} cannot go onto {top} on pile {to}: the rank must be one lower"
            ),
            Illegal::SameColour { card, top, to } => write!(
                f,
                "{card} cannot go onto {top} on pile {to}: the colours must differ"
            ),
            Illegal::NotNextOnFoundation { card, next } => write!(
                f,
                "{card} cannot go to its foundation, whose next card is rank {next}"
            ),
            Illegal::NothingToTurn => write!(f, "the stock and the waste are both empty"),
            Illegal::PassesUsed { limit } => {
                write!(f, "the stock is empty and all {limit} passes are used")
            }
            Illegal::WasteEmpty => write!(f, "the waste is empty"),
            Illegal::PileEmpty { from } => write!(f, "pile {from} is empty"),
            Illegal::OntoItself { from } => write!(f, "pile {from} cannot move onto itself"),
            Illegal::NoCards => write!(f, "a move of 0 cards moves nothing"),
            Illegal::TooFewCards { from, has, n } => {
                write!(f, "pile {from} has {has} cards, not {n}")
            }
            Illegal::FaceDownCard { from, face_up, n } => write!(
                f,
                "pile {from} has {face_up} face-up cards: {n} would move a face-down card"
            ),
            Illegal::NoSuit { suit } => write!(f, "there is no suit {suit} (suits are 0..4)"),
            Illegal::FoundationEmpty { suit } => {
                write!(f, "the foundation of suit {suit} is empty")
            }
        }
    }
}

/// Applies `moves` to `deal` one by one, stopping at the first illegal
/// one; shows `seen` the table after each move, and returns the last.
fn play_through(
    rules: &FreePlayRules,
    deal: &[Card],
    moves: &[FreeMove],
    mut seen: impl FnMut(&FreeTable),
) -> Result<FreeTable> {
    let mut table = FreeTable::deal(rules, deal)?;
    for (i, &mv) in moves.iter().enumerate() {
        table.apply(mv).map_err(|why| {
            Error::invalid(
                "move",
                format!("{} ({mv:?})", i + 1),
                format!("is illegal: {why}"),
            )
        })?;
        seen(&table);
    }
    Ok(table)
}

/// The error of `moves` that ended on `end` without winning.
fn require_won(rules: &FreePlayRules, moves: &[FreeMove], end: &FreeTable) -> Result<()> {
    if end.is_won() {
        return Ok(());
    }
    let out: u32 = end.foundations.iter().map(|&n| u32::from(n)).sum();
    Err(Error::invalid(
        "moves",
        format!("{} moves", moves.len()),
        format!(
            "do not win: they end with {out} of the {} cards on the foundations",
            rules.layout.n_cards()
        ),
    ))
}

/// Checks a claimed win as [`replay`] does, keeping no table but the
/// current one (what a run checks every win with).
pub fn verify(rules: &FreePlayRules, deal: &[Card], moves: &[FreeMove]) -> Result<()> {
    let end = play_through(rules, deal, moves, |_| {})?;
    require_won(rules, moves, &end)
}

/// Replays a claimed win: checks the deal, applies every move by the rules
/// of RULES.md section 7, and requires the game to end won.
///
/// Returns the table after each move (as many as `moves`). Errors: a bad
/// deal; the first illegal move, as "move N (...): is illegal: why" with N
/// counted from 1; or a list that ends with cards off the foundations.
pub fn replay(rules: &FreePlayRules, deal: &[Card], moves: &[FreeMove]) -> Result<Vec<FreeTable>> {
    let mut tables = Vec::with_capacity(moves.len());
    let end = play_through(rules, deal, moves, |table| tables.push(table.clone()))?;
    require_won(rules, moves, &end)?;
    Ok(tables)
}

#[cfg(test)]
pub(crate) mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::cards::parse_card;
    use crate::games::klondike::free_play::Layout;
    use crate::games::klondike::{Event, Klondike, KlondikeParams, Observer, PILES, Table};

    fn card(text: &str) -> Card {
        parse_card(text).unwrap()
    }

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace().map(card).collect()
    }

    fn rules(draw: u8, passes: Passes, ranks: u8, piles: u8) -> FreePlayRules {
        FreePlayRules::new(draw, passes, Layout::new(ranks, piles).unwrap()).unwrap()
    }

    /// A table built by hand: piles as (cards bottom first, face down).
    fn table(rules: FreePlayRules, piles: &[(&str, usize)]) -> FreeTable {
        FreeTable {
            rules,
            piles: piles
                .iter()
                .map(|&(text, face_down)| FreePile {
                    cards: cards(text),
                    face_down,
                })
                .collect(),
            waste: Vec::new(),
            stock: Vec::new(),
            foundations: [0; 4],
            passes_used: 1,
        }
    }

    /// Checks `mv` is refused with a reason containing `why`, and that the
    /// refusal left the table unchanged.
    fn refused(table: &FreeTable, mv: FreeMove, why: &str) {
        let mut copy = table.clone();
        let reason = copy
            .apply(mv)
            .expect_err(&format!("{mv:?} must be refused"));
        assert!(reason.contains(why), "{mv:?}: {reason}");
        assert_eq!(&copy, table, "a refused move changes nothing");
        assert!(!table.legal_moves().contains(&mv), "{mv:?} listed as legal");
    }

    fn accepted(table: &FreeTable, mv: FreeMove) -> FreeTable {
        assert!(table.legal_moves().contains(&mv), "{mv:?} not listed");
        let mut copy = table.clone();
        copy.apply(mv).unwrap_or_else(|why| panic!("{mv:?}: {why}"));
        copy
    }

    fn full(draw: u8, passes: Passes) -> FreePlayRules {
        FreePlayRules::new(draw, passes, Layout::FULL).unwrap()
    }

    #[test]
    fn the_deal_is_the_policys_deal() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut deck = crate::games::klondike::sorted_deck().to_vec();
        for _ in 0..50 {
            deck.shuffle(&mut rng);
            let free = FreeTable::deal(&full(1, Passes::Limited(1)), &deck).unwrap();
            same_table(&free, &Klondike::standard().deal(&deck));
        }
    }

    #[test]
    fn a_reduced_deal_follows_the_rounds() {
        // 3 piles: round 0 gives cards 0, 1, 2 to piles 0, 1, 2; round 1
        // cards 3, 4 to piles 1, 2; round 2 card 5 to pile 2.
        let deal = cards("AC 2C 3C AD 2D 3D AH 2H 3H AS 2S 3S");
        let table = FreeTable::deal(&rules(3, Passes::Unlimited, 3, 3), &deal).unwrap();
        assert_eq!(
            table.piles[0],
            FreePile {
                cards: cards("AC"),
                face_down: 0
            }
        );
        assert_eq!(
            table.piles[1],
            FreePile {
                cards: cards("2C AD"),
                face_down: 1
            }
        );
        assert_eq!(
            table.piles[2],
            FreePile {
                cards: cards("3C 2D 3D"),
                face_down: 2
            }
        );
        assert_eq!(table.stock, cards("AH 2H 3H AS 2S 3S"));
        assert!(table.waste.is_empty() && !table.is_won());
    }

    #[test]
    fn a_bad_deal_is_refused() {
        let three = rules(1, Passes::Unlimited, 3, 3);
        let message = |deal: &str| {
            FreeTable::deal(&three, &cards(deal))
                .unwrap_err()
                .to_string()
        };
        assert!(message("AC 2C 3C AD 2D 3D AH 2H 3H AS 2S").starts_with("deal 11 cards"));
        assert!(message("AC 2C 4C AD 2D 3D AH 2H 3H AS 2S 3S").starts_with("deal 4C"));
        assert!(message("AC AC 3C AD 2D 3D AH 2H 3H AS 2S 3S").starts_with("deal AC"));
        // A fifth suit in place of a spade: the right count of distinct
        // cards, but not this deck's.
        let mut deal = cards("AC 2C 3C AD 2D 3D AH 2H 3H AS 2S 3S");
        deal[11] = Card::new(3, 4);
        let message = FreeTable::deal(&three, &deal).unwrap_err().to_string();
        assert!(message.contains("4 suits"), "{message}");
    }

    #[test]
    fn tableau_moves_need_rank_colour_and_face_up_cards() {
        let t = table(
            rules(1, Passes::Unlimited, 13, 5),
            &[
                ("9S 6D", 1),
                ("3C 5H", 1),
                ("7C 5C 4H", 1),
                ("", 0),
                ("2S KC", 1),
            ],
        );
        use FreeMove::PileToPile;
        refused(
            &t,
            PileToPile {
                from: 1,
                to: 0,
                cards: 1,
            },
            "colours must differ",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 0,
                cards: 1,
            },
            "rank must be one lower",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 0,
                cards: 3,
            },
            "face-down card",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 0,
                cards: 4,
            },
            "has 3 cards",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 2,
                cards: 1,
            },
            "onto itself",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 1,
                cards: 0,
            },
            "moves nothing",
        );
        refused(
            &t,
            PileToPile {
                from: 5,
                to: 1,
                cards: 1,
            },
            "no pile 5",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 7,
                cards: 1,
            },
            "no pile 7",
        );
        refused(
            &t,
            PileToPile {
                from: 1,
                to: 3,
                cards: 1,
            },
            "takes only",
        );
        refused(
            &t,
            PileToPile {
                from: 2,
                to: 3,
                cards: 2,
            },
            "takes only",
        );
        refused(
            &t,
            PileToPile {
                from: 3,
                to: 0,
                cards: 1,
            },
            "has 0 cards",
        );
        // 5C 4H onto 6D: black on red, one lower; 7C is turned up.
        let after = accepted(
            &t,
            PileToPile {
                from: 2,
                to: 0,
                cards: 2,
            },
        );
        assert_eq!(
            after.piles[0],
            FreePile {
                cards: cards("9S 6D 5C 4H"),
                face_down: 1
            }
        );
        assert_eq!(
            after.piles[2],
            FreePile {
                cards: cards("7C"),
                face_down: 0
            }
        );
        // A king to the empty pile; 2S is turned up.
        let after = accepted(
            &t,
            PileToPile {
                from: 4,
                to: 3,
                cards: 1,
            },
        );
        assert_eq!(
            after.piles[3],
            FreePile {
                cards: cards("KC"),
                face_down: 0
            }
        );
        assert_eq!(
            after.piles[4],
            FreePile {
                cards: cards("2S"),
                face_down: 0
            }
        );
        // Even from the bottom of its own pile (legal, if pointless).
        let kings = table(rules(1, Passes::Unlimited, 13, 2), &[("KD QS", 0), ("", 0)]);
        let after = accepted(
            &kings,
            PileToPile {
                from: 0,
                to: 1,
                cards: 2,
            },
        );
        assert!(after.piles[0].cards.is_empty());
        assert_eq!(after.piles[1].cards, cards("KD QS"));
    }

    #[test]
    fn the_highest_rank_of_a_reduced_deck_is_the_king() {
        let t = table(
            rules(1, Passes::Unlimited, 5, 2),
            &[("2C 5H 4S", 1), ("", 0)],
        );
        accepted(
            &t,
            FreeMove::PileToPile {
                from: 0,
                to: 1,
                cards: 2,
            },
        );
        refused(
            &t,
            FreeMove::PileToPile {
                from: 0,
                to: 1,
                cards: 1,
            },
            "rank (5)",
        );
    }

    #[test]
    fn foundations_build_up_by_suit_from_the_ace() {
        let mut t = table(
            rules(1, Passes::Unlimited, 13, 3),
            &[("2H", 0), ("AH", 0), ("", 0)],
        );
        refused(
            &t,
            FreeMove::PileToFoundation { from: 0 },
            "next card is rank 1",
        );
        refused(
            &t,
            FreeMove::PileToFoundation { from: 2 },
            "pile 2 is empty",
        );
        refused(&t, FreeMove::PileToFoundation { from: 3 }, "no pile 3");
        t = accepted(&t, FreeMove::PileToFoundation { from: 1 });
        t = accepted(&t, FreeMove::PileToFoundation { from: 0 });
        assert_eq!(t.foundations, [0, 0, 2, 0]);
        t.foundations = [0, 1, 2, 0];
        t.waste = cards("3D");
        refused(&t, FreeMove::WasteToFoundation, "next card is rank 2");
        t.waste = cards("3D 3H");
        t = accepted(&t, FreeMove::WasteToFoundation);
        assert_eq!(
            (t.foundations, t.waste.clone()),
            ([0, 1, 3, 0], cards("3D"))
        );
    }

    #[test]
    fn a_foundation_card_comes_back_only_where_it_fits() {
        let mut t = table(
            rules(1, Passes::Unlimited, 13, 3),
            &[("4C", 0), ("4D", 0), ("", 0)],
        );
        t.foundations = [0, 0, 3, 0];
        refused(
            &t,
            FreeMove::FoundationToPile { suit: 0, to: 0 },
            "suit 0 is empty",
        );
        refused(
            &t,
            FreeMove::FoundationToPile { suit: 4, to: 0 },
            "no suit 4",
        );
        refused(
            &t,
            FreeMove::FoundationToPile { suit: 2, to: 1 },
            "colours must differ",
        );
        refused(
            &t,
            FreeMove::FoundationToPile { suit: 2, to: 2 },
            "takes only",
        );
        let after = accepted(&t, FreeMove::FoundationToPile { suit: 2, to: 0 });
        assert_eq!(
            (after.foundations, after.piles[0].cards.clone()),
            ([0, 0, 2, 0], cards("4C 3H"))
        );
    }

    #[test]
    fn the_waste_plays_its_top_card_only() {
        let mut t = table(rules(1, Passes::Unlimited, 13, 2), &[("8S", 0), ("", 0)]);
        refused(&t, FreeMove::WasteToPile { to: 0 }, "waste is empty");
        refused(&t, FreeMove::WasteToFoundation, "waste is empty");
        t.waste = cards("7H KS 7C");
        refused(&t, FreeMove::WasteToPile { to: 0 }, "colours must differ");
        refused(&t, FreeMove::WasteToPile { to: 1 }, "takes only");
        t.waste = cards("7C KS 7H");
        let after = accepted(&t, FreeMove::WasteToPile { to: 0 });
        assert_eq!(
            (after.piles[0].cards.clone(), after.waste.clone()),
            (cards("8S 7H"), cards("7C KS"))
        );
    }

    #[test]
    fn the_stock_turns_as_free_moves_turn_says() {
        let three = |passes| {
            let mut t = table(rules(3, passes, 13, 1), &[("KC", 0)]);
            t.stock = cards("AD 2D 3D 4D 5D");
            t
        };
        // Three cards, the last on top; then the two left.
        let mut t = accepted(&three(Passes::Limited(2)), FreeMove::Turn);
        assert_eq!(
            (t.waste.clone(), t.stock.clone()),
            (cards("AD 2D 3D"), cards("4D 5D"))
        );
        t = accepted(&t, FreeMove::Turn);
        assert_eq!(
            (t.waste.clone(), t.stock.len()),
            (cards("AD 2D 3D 4D 5D"), 0)
        );
        // The waste turned over unchanged in order, then three turned.
        t = accepted(&t, FreeMove::Turn);
        assert_eq!(
            (t.waste.clone(), t.stock.clone()),
            (cards("AD 2D 3D"), cards("4D 5D"))
        );
        assert_eq!(t.passes_used, 2);
        t = accepted(&t, FreeMove::Turn);
        refused(&t, FreeMove::Turn, "all 2 passes are used");
        // One pass: the waste is never turned over.
        let mut once = accepted(&three(Passes::Limited(1)), FreeMove::Turn);
        once = accepted(&once, FreeMove::Turn);
        refused(&once, FreeMove::Turn, "all 1 passes are used");
        // Unlimited: always, while the waste has cards.
        let mut free = three(Passes::Unlimited);
        for _ in 0..20 {
            free = accepted(&free, FreeMove::Turn);
        }
        assert_eq!(free.passes_used, 10);
        free.waste.clear();
        free.stock.clear();
        refused(&free, FreeMove::Turn, "stock and the waste are both empty");
    }

    #[test]
    fn the_legal_moves_of_a_table_are_all_listed() {
        // Worked out by hand from RULES.md section 7.
        let mut t = table(
            rules(1, Passes::Limited(1), 13, 4),
            &[("5S 2D AC", 2), ("9H 3D", 1), ("", 0), ("4S", 0)],
        );
        t.waste = cards("KH");
        t.foundations = [0, 1, 0, 2];
        let expected = vec![
            FreeMove::PileToFoundation { from: 0 },
            FreeMove::WasteToPile { to: 2 },
            FreeMove::PileToPile {
                from: 1,
                to: 3,
                cards: 1,
            },
            FreeMove::FoundationToPile { suit: 3, to: 1 },
        ];
        assert_eq!(t.legal_moves(), expected);
        // The stock is empty and one pass allowed: no turn. With a card in
        // the stock, a turn too.
        t.stock = cards("QC");
        assert_eq!(t.legal_moves().last(), Some(&FreeMove::Turn));
    }

    #[test]
    fn a_reduced_game_is_won_by_hand() {
        // Two ranks, two piles: pile 0 = AC; pile 1 = 2D (down), AD; the
        // stock AH 2C AS 2H 2S. Draw 3, one pass.
        let r = rules(3, Passes::Limited(1), 2, 2);
        let deal = cards("AC 2D AD AH 2C AS 2H 2S");
        use FreeMove::*;
        let moves = [
            PileToFoundation { from: 0 },
            PileToFoundation { from: 1 },
            PileToFoundation { from: 1 },
            Turn,
            WasteToFoundation,
            WasteToFoundation,
            WasteToFoundation,
            Turn,
            WasteToFoundation,
            WasteToFoundation,
        ];
        let tables = replay(&r, &deal, &moves).unwrap();
        assert_eq!(tables.len(), moves.len());
        assert_eq!(
            tables[1].piles[1],
            FreePile {
                cards: cards("2D"),
                face_down: 0
            }
        );
        assert_eq!(tables[3].waste, cards("AH 2C AS"));
        assert!(tables.last().unwrap().is_won());
        assert!(tables[..moves.len() - 1].iter().all(|t| !t.is_won()));
        // One move short: not won, and said so.
        let message = replay(&r, &deal, &moves[..9]).unwrap_err().to_string();
        assert_eq!(
            message,
            "moves 9 moves: do not win: they end with 7 of the 8 cards on the foundations"
        );
        // A move that does not fit is refused, by number.
        let wrong = [
            PileToFoundation { from: 0 },
            PileToFoundation { from: 1 },
            WasteToPile { to: 0 },
        ];
        let message = replay(&r, &deal, &wrong).unwrap_err().to_string();
        assert_eq!(
            message,
            "move 3 (WasteToPile { to: 0 }): is illegal: the waste is empty"
        );
        let wrong = [PileToFoundation { from: 0 }, PileToFoundation { from: 0 }];
        let message = replay(&r, &deal, &wrong).unwrap_err().to_string();
        assert_eq!(
            message,
            "move 2 (PileToFoundation { from: 0 }): is illegal: pile 0 is empty"
        );
    }

    /// Compares a free table with the policy's table card by card.
    fn same_table(free: &FreeTable, policy: &Table) {
        for p in 0..PILES {
            let (cards, down) = policy.pile(p);
            assert_eq!(
                (free.piles[p].cards.as_slice(), free.piles[p].face_down),
                (cards, down)
            );
        }
        assert_eq!(free.waste, policy.waste());
        assert_eq!(free.stock, policy.stock());
        assert_eq!(free.foundations, policy.foundations());
    }

    /// The policy's events as free moves, with the policy's table after
    /// each: a redeal and the turn after it are one `Turn`.
    #[derive(Default)]
    struct AsFreeMoves {
        moves: Vec<(FreeMove, Table)>,
        redealt: bool,
    }

    impl Observer for AsFreeMoves {
        fn event(&mut self, event: Event, table: &Table) {
            assert!(
                !self.redealt || matches!(event, Event::StockTurned { .. }),
                "the policy turns the stock right after a redeal"
            );
            self.redealt = false;
            let mv = match event {
                Event::Redeal { .. } => {
                    self.redealt = true;
                    return;
                }
                Event::StockTurned { .. } => FreeMove::Turn,
                Event::PileToFoundation { pile, .. } => {
                    FreeMove::PileToFoundation { from: pile as u8 }
                }
                Event::WasteToFoundation { .. } => FreeMove::WasteToFoundation,
                Event::WasteToPile { pile, .. } => FreeMove::WasteToPile { to: pile as u8 },
                Event::RunToPile {
                    from, to, cards, ..
                } => FreeMove::PileToPile {
                    from: from as u8,
                    to: to as u8,
                    cards: cards as u8,
                },
            };
            self.moves.push((mv, *table));
        }
    }

    /// The policy's moves on `deal` as free moves, with its tables.
    pub(crate) fn policy_moves(
        game: &Klondike,
        deal: &[Card],
    ) -> (Vec<FreeMove>, Vec<Table>, bool) {
        let mut log = AsFreeMoves::default();
        let record = game.play_with(deal, &mut log);
        let (moves, tables) = log.moves.into_iter().unzip();
        (moves, tables, record.went_out())
    }

    #[test]
    fn the_policys_games_replay_under_the_same_stock_rule() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(24);
        let mut deck = crate::games::klondike::sorted_deck().to_vec();
        let mut wins = Vec::new();
        for (draw, passes) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
            let game = Klondike::new(KlondikeParams { draw, passes }).unwrap();
            let rules = full(draw, Passes::Limited(passes));
            let mut won = 0;
            for _ in 0..1_000 {
                deck.shuffle(&mut rng);
                let (moves, policy_tables, went_out) = policy_moves(&game, &deck);
                let mut tables = Vec::new();
                play_through(&rules, &deck, &moves, |table| tables.push(table.clone())).unwrap();
                for (free, policy) in tables.iter().zip(&policy_tables) {
                    same_table(free, policy);
                }
                if went_out {
                    won += 1;
                    assert_eq!(replay(&rules, &deck, &moves).unwrap(), tables);
                    verify(&rules, &deck, &moves).unwrap();
                } else {
                    assert!(replay(&rules, &deck, &moves).is_err());
                    assert!(verify(&rules, &deck, &moves).is_err());
                    assert!(!tables.last().unwrap().is_won());
                }
            }
            wins.push(won);
        }
        // Enough wins that the won branch was exercised (draw 3 with one
        // pass is rarely won by the policy).
        assert!(wins[0] >= 10 && wins[2] >= 10, "wins per variant: {wins:?}");
    }
}
