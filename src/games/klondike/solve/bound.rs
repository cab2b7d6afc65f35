//! A sound test that a position is lost: a least fixpoint of boolean
//! facts that over-approximates everything that can ever happen from it
//! (the module doc of `solve` states the facts, their rules and the
//! proof). Sets of cards are `u64` bitsets indexed by the card's byte code
//! (`suit << 4 | rank`, at most 61); no allocation.

use super::state::{Broken, Deal, MAX_TALON, State, Talon, TalonStop};

/// One suit's ranks `1..=top_rank` as bits `1..=top_rank`.
#[inline]
fn suit_ranks(top_rank: u8) -> u64 {
    (1u64 << (top_rank + 1)) - 2
}

/// The same 16-bit rank pattern in every suit.
#[inline]
fn every_suit(ranks: u64) -> u64 {
    ranks * 0x0001_0001_0001_0001
}

#[inline]
fn bit(code: u8) -> u64 {
    1u64 << code
}

/// The cards with a parent (one rank higher, the other colour) in `cards`.
/// Suits 0 and 3 are black, 1 and 2 red.
#[inline]
fn children(cards: u64) -> u64 {
    let red = ((cards >> 16) | (cards >> 32)) & 0xffff;
    let black = (cards | (cards >> 48)) & 0xffff;
    let black_children = red >> 1;
    let red_children = black >> 1;
    black_children | black_children << 48 | red_children << 16 | red_children << 32
}

/// Whether no sequence of moves from `state` wins (RULES.md section 7).
///
/// Guarantee: `true` only when the position is lost: every fact of every
/// history from `state` lies in the fixpoint computed here (see the module
/// doc of `solve`), and a won history puts every card home. `false`
/// proves nothing.
#[inline]
#[cfg(test)]
pub(super) fn proves_lost(deal: &Deal, state: &State) -> bool {
    never_home(deal, state) != 0
}

/// The cards (a set by code) that no history from `state` brings to
/// their foundation: [`proves_lost`]'s proof, for a report to name.
///
/// Guarantee: every card in the set stays off its foundation whatever is
/// played (the fixpoint holds every `home` fact of every history); an
/// empty set proves nothing.
pub(super) fn never_home(deal: &Deal, state: &State) -> u64 {
    let mut facts = TableauFacts::default();
    for pile in &state.piles[..usize::from(state.n_piles)] {
        let cards = &pile.cards[..usize::from(pile.len)];
        match cards.last() {
            None => facts.empty = true,
            Some(&top) => {
                facts.tops |= bit(top);
                facts.bottoms |= bit(cards[0]);
            }
        }
        let mut below = 0u64;
        for (i, &card) in cards.iter().enumerate() {
            facts.tableau |= bit(card);
            if i >= usize::from(pile.down) {
                facts.face_up |= bit(card);
            }
            facts.under[usize::from(card)] = below;
            below = bit(card);
        }
    }
    never_home_of(deal, &facts, &state.foundation, &state.talon)
}

/// The tableau as the bound reads it: which cards are in it, face up, a
/// pile's top or bottom, whether a pile is empty, and what each card
/// lies on. For a position that stands for several placements, each
/// relation may hold the union over them (the rules only ever add facts
/// from these relations, so the fixpoint over the union holds every
/// placement's, and a card it never brings home is never home in any).
#[derive(Clone, Copy)]
pub(super) struct TableauFacts {
    pub(super) tableau: u64,
    pub(super) face_up: u64,
    pub(super) tops: u64,
    pub(super) bottoms: u64,
    pub(super) empty: bool,
    /// `under[c]`: the cards `c` may lie on, as bits (0 for the floor).
    /// Read only for tableau cards.
    pub(super) under: [u64; 64],
}

impl Default for TableauFacts {
    fn default() -> TableauFacts {
        TableauFacts {
            tableau: 0,
            face_up: 0,
            tops: 0,
            bottoms: 0,
            empty: false,
            under: [0; 64],
        }
    }
}

/// [`never_home`] of a tableau given as [`TableauFacts`], with these
/// foundations and talon.
pub(super) fn never_home_of(
    deal: &Deal,
    facts: &TableauFacts,
    foundation: &[u8; 4],
    talon: &Talon,
) -> u64 {
    let valid = every_suit(suit_ranks(deal.top_rank));
    let kings = every_suit(1 << deal.top_rank);
    // Rank 0 of each suit stands for its empty foundation: always "home",
    // so that `home << 1` holds the aces.
    let floors = every_suit(1);
    let mut home = floors;
    for (s, &height) in foundation.iter().enumerate() {
        home |= (suit_ranks(height) | 1) << (16 * s);
    }
    let TableauFacts {
        tableau,
        face_up,
        tops,
        bottoms,
        empty,
        ref under,
    } = *facts;
    let talon_cards = &talon.cards[..usize::from(talon.len)];
    // `before_in_talon[c]`: the talon card just before `c` in the talon's
    // order, as a bit (0 for the first). Read only for talon cards.
    let mut before_in_talon = [0u64; 64];
    let mut in_talon = 0u64;
    let mut previous = 0u64;
    for &card in talon_cards {
        in_talon |= bit(card);
        before_in_talon[usize::from(card)] = previous;
        previous = bit(card);
    }
    let mut stops = [TalonStop::default(); MAX_TALON + 1];
    let n_stops = deal.talon_stops(talon, &mut stops);
    let mut turned_to = 0u64;
    for stop in &stops[..n_stops] {
        turned_to |= bit(talon.cards[usize::from(stop.waste) - 1]);
    }
    let off_tableau = valid & !tableau;
    // In the last pass the talon is a stack (RULES.md section 7: the
    // waste is not turned over again): a card that turning alone does not
    // reach becomes the waste's top only when the card after it in the
    // talon's order has left.
    let last_pass = deal.max_passes == Some(talon.pass);

    // The facts, grown to their least fixpoint: `top` (has been a pile
    // top), `left` (a tableau card has left the card or floor under it),
    // `waste_top` (a talon card has been the waste's top), `home` (has
    // been on its foundation), `emptied` (some pile has been empty).
    let mut top = tops;
    let mut left = 0u64;
    let mut waste_top = turned_to;
    let mut emptied = empty;
    // The cards whose `left`, and whose leaving the talon, the loop has
    // already followed: each is followed once, so a round costs only what
    // is new.
    let mut left_followed = 0u64;
    let mut talon_left_followed = 0u64;
    loop {
        let before = (top, left, waste_top, home, emptied);
        // A tableau card becomes a top when the card on it leaves.
        let mut newly_left = left & !left_followed;
        left_followed = left;
        while newly_left != 0 {
            top |= under[newly_left.trailing_zeros() as usize];
            newly_left &= newly_left - 1;
        }
        let destination = children(top) | if emptied { kings } else { 0 };
        // A card not in the tableau reaches a pile from the waste or
        // its foundation, onto a top or an empty pile.
        top |= off_tableau & (waste_top | home) & destination;
        // Home from a pile top or the waste, on the card below it.
        loop {
            let next = home | (home << 1) & valid & (top | waste_top);
            if next == home {
                break;
            }
            home = next;
        }
        let goes_home = (home << 1) & valid;
        left |= tableau & (face_up | top) & ((top & goes_home) | destination);
        emptied |= left & bottoms != 0;
        let talon_left = waste_top & in_talon & (goes_home | destination);
        if last_pass {
            // Uncovered in the waste by the card after it leaving.
            let mut newly_left = talon_left & !talon_left_followed;
            talon_left_followed = talon_left;
            while newly_left != 0 {
                waste_top |= before_in_talon[newly_left.trailing_zeros() as usize];
                newly_left &= newly_left - 1;
            }
        } else if talon_left != 0 && !deal.broken(Broken::TalonStuck) {
            // The first talon card to leave was a waste top with no card
            // gone; after one has left, any card may be turned to.
            waste_top |= in_talon;
        }
        if (top, left, waste_top, home, emptied) == before {
            break;
        }
    }
    valid & !home
}

#[cfg(test)]
pub(super) mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::super::state::Step;
    use super::*;
    use crate::cards::Card;
    use crate::games::klondike::brute::brute_force;
    use crate::games::klondike::brute::tests::{STOCK_RULES, brute_forced_deals};
    use crate::games::klondike::check::tests::policy_moves;
    use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Layout, Passes};
    use crate::games::klondike::{Klondike, KlondikeParams, sorted_deck};

    /// Plays one atomic move (legal: it comes from a winning line the
    /// rules checker accepts) on the solver's position.
    pub(crate) fn play(deal: &Deal, state: &mut State, mv: FreeMove) {
        let talon = state.talon;
        let from_waste = |to| Step::Talon {
            turns: 0,
            waste: talon.waste,
            pass: talon.pass,
            to,
        };
        let step = match mv {
            FreeMove::Turn => {
                let talon = &mut state.talon;
                if talon.waste < talon.len {
                    talon.waste = (talon.waste + deal.draw).min(talon.len);
                } else {
                    talon.waste = deal.draw.min(talon.len);
                    // The solver counts passes only when they are limited.
                    if deal.max_passes.is_some() {
                        talon.pass += 1;
                    }
                }
                return;
            }
            FreeMove::WasteToFoundation => from_waste(Step::FOUNDATION),
            FreeMove::WasteToPile { to } => from_waste(to),
            FreeMove::PileToFoundation { from } => Step::PileToFoundation { from },
            FreeMove::PileToPile { from, to, cards } => Step::PileToPile { from, to, cards },
            FreeMove::FoundationToPile { suit, to } => Step::FoundationToPile { suit, to },
        };
        state.apply(deal, &step);
    }

    /// Evaluates the bound at every position of a winning line (the deal
    /// and after each move), calling `lost` (the bound as some reader
    /// applies it); panics if it calls one lost. Returns how many
    /// positions were checked.
    pub(crate) fn never_lost_along(
        rules: &FreePlayRules,
        cards: &[Card],
        moves: &[FreeMove],
        lost: impl Fn(&Deal, &State) -> bool,
    ) -> usize {
        let (deal, mut state) = Deal::new(rules, cards);
        assert!(!lost(&deal, &state), "{rules:?} {cards:?}: the deal");
        for (i, &mv) in moves.iter().enumerate() {
            play(&deal, &mut state, mv);
            assert!(
                !lost(&deal, &state),
                "{rules:?} {cards:?}: after move {i} {mv:?}"
            );
        }
        assert!(state.won(&deal), "{rules:?} {cards:?}: the line ends won");
        moves.len() + 1
    }

    /// Soundness on reduced decks: along the shortest win brute force
    /// finds (from `brute.rs`, which shares nothing with the bound), no
    /// position is called lost; and every deal the bound calls lost at
    /// the deal, brute force proves lost.
    #[test]
    fn never_calls_a_position_of_a_brute_force_win_lost() {
        let (mut positions, mut roots_lost, mut lost) = (0, 0, 0);
        for case in brute_forced_deals() {
            if case.winnable {
                positions += never_lost_along(&case.rules, &case.deal, &case.witness, proves_lost);
            } else {
                lost += 1;
                let (deal, root) = Deal::new(&case.rules, &case.deal);
                roots_lost += usize::from(proves_lost(&deal, &root));
            }
        }
        // Measured: 37,624 positions checked; the bound proves 55 of the
        // 141 lost deals lost at the deal.
        assert!(positions >= 30_000, "{positions} positions");
        assert!(roots_lost >= 40, "{roots_lost} of {lost} lost deals");
    }

    /// Soundness on full deals: along every game section 4's policy wins
    /// (its moves replayed as free moves), under its own stock rule and
    /// with unlimited passes (a line legal with limited passes is legal
    /// without a limit), no position is called lost.
    #[test]
    fn never_calls_a_position_of_a_policy_win_lost() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        let mut deck = sorted_deck().to_vec();
        let (mut wins, mut positions) = (0, 0);
        for (draw, passes) in [(1, 1), (3, 3), (1, 3)] {
            let game = Klondike::new(KlondikeParams { draw, passes }).unwrap();
            for _ in 0..400 {
                deck.shuffle(&mut rng);
                let (moves, _, went_out) = policy_moves(&game, &deck);
                if !went_out {
                    continue;
                }
                wins += 1;
                for passes in [Passes::Limited(passes), Passes::Unlimited] {
                    let rules = FreePlayRules::new(draw, passes, Layout::FULL).unwrap();
                    positions += never_lost_along(&rules, &deck, &moves, proves_lost);
                }
            }
        }
        // Measured: 78 wins, 18,598 positions checked.
        assert!(
            wins >= 30 && positions >= 5_000,
            "{wins} wins, {positions} positions"
        );
    }

    /// 2 ranks, 3 piles (the solver's hand-built lost deal): each ace lies
    /// under a two that needs it home or needs a pile emptied, and each
    /// pile's bottom card is such an ace or a two whose ace is buried, so
    /// nothing ever moves in the tableau, under any stock rule.
    #[test]
    fn proves_the_hand_built_deal_lost_at_once() {
        let c = |r, s| Card::new(r, s);
        // Pile 0 = 2H; pile 1 = AH, 2C; pile 2 = AC, AS, 2S; stock AD 2D.
        let cards = [
            c(2, 2),
            c(1, 2),
            c(1, 0),
            c(2, 0),
            c(1, 3),
            c(2, 3),
            c(1, 1),
            c(2, 1),
        ];
        for (draw, passes) in STOCK_RULES {
            let rules = FreePlayRules::new(draw, passes, Layout::new(2, 3).unwrap()).unwrap();
            let (deal, root) = Deal::new(&rules, &cards);
            assert!(proves_lost(&deal, &root), "{rules:?}");
        }
    }

    /// 2 ranks, 1 pile (2H), draw 3, one pass; stock AS AH 2S, AC 2C AD,
    /// 2D. Turning alone reaches 2S, AD and 2D. 2S needs AS (under it) or
    /// an empty pile (2H needs AH, under 2S); after AD and 2D go home, 2C
    /// needs AC (under it) or the same empty pile. With no further pass
    /// the waste is a stack, so the aces under 2S and 2C never leave: lost,
    /// which brute force confirms. Before the last-pass rule any talon card
    /// counted as reachable once AD had left, and the deal was not proved.
    #[test]
    fn proves_lost_a_deal_whose_aces_are_buried_in_the_last_pass_waste() {
        let c = |r, s| Card::new(r, s);
        let cards = [
            c(2, 2),
            c(1, 3),
            c(1, 2),
            c(2, 3),
            c(1, 0),
            c(2, 0),
            c(1, 1),
            c(2, 1),
        ];
        let rules = FreePlayRules::new(3, Passes::Limited(1), Layout::new(2, 1).unwrap()).unwrap();
        let truth = brute_force(&rules, &cards, 1_000_000).unwrap();
        assert_eq!(truth.winnable, Some(false));
        let (deal, root) = Deal::new(&rules, &cards);
        assert!(proves_lost(&deal, &root));
    }
}
