//! Klondike deals as Solvitaire (Blake & Gent's general solitaire solver)
//! reads them, so that one deal can be run through deckodds and through
//! the solvers people compare it with. This file holds what a deal file
//! means (which card goes where, face up or down) and checks it; the JSON
//! text itself is read and written in `report/solvitaire.rs` (games build
//! no JSON). No I/O.
//!
//! # The format
//!
//! A deal is a JSON object with the keys `"tableau piles"` (an array of
//! piles, each an array of cards), `"stock"` (an array of cards), and,
//! optionally, `"foundations"` and `"waste"`, which are empty in a deal;
//! Solvitaire allows no other key for Klondike. A card is its rank (`A`,
//! `2`..`10`, `J`, `Q`, `K`; also `1`..`13`; letters in either case) then
//! its suit letter (`C`, `D`, `H`, `S`), upper case for a card face up and
//! lower case for one face down: `"10h"` is the ten of hearts, face down.
//!
//! - Each pile is listed bottom first, as dealt: its face-down cards, then
//!   its top card, face up (`["7c", "QD"]`).
//! - The stock is a pile too, listed bottom first: Solvitaire deals from
//!   the end of the array, so its **last** card is the first turned and
//!   its first card the last.
//!
//! deckodds' deal ([`Layout`]) is the deck in dealing order: the tableau
//! round by round (round `r` gives a card to each pile `r..piles`, the
//! card to pile `r` face up), then the stock, turned in order. So pile `p`
//! holds the cards at [`Layout::pile_positions`]`[p]`, bottom first, and
//! the Solvitaire stock is the rest of the deal reversed. The two are one
//! deal under the same stock rules (draw 3, unlimited passes: Solvitaire's
//! `klondike` preset; draw 1, unlimited passes: `klondike-deal-1`), since
//! both turn the waste over, unchanged in order, into a new stock.
//!
//! Solvitaire reads the case of a stock card's suit as nothing (a stock
//! card has no face up or down there), so either case is read in the
//! stock, and the stock is written upper case, as Solvitaire's own deal
//! files write it.

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::games::klondike::free_play::Layout;

/// The suit letters, in [`Card::suit`] order (clubs 0, diamonds 1, hearts
/// 2, spades 3), upper case (face up).
const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];

/// What a card text may be, for errors.
const CARD_TEXT: &str = "must be a rank (A, 2..10, J, Q, K, or 1..13) then a suit letter (C, D, H, S): upper case for a card face up, lower case for one face down";

/// A deal as a Solvitaire deal file holds it: the four keys' arrays, each
/// card as its text (`"QD"`, `"7c"`). [`SolvitaireDeal::of_deal`] writes
/// one from a deal; [`SolvitaireDeal::to_deal`] reads one back, checking
/// everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolvitaireDeal {
    /// `"tableau piles"`: each pile bottom first, its top card last.
    pub tableau_piles: Vec<Vec<String>>,
    /// `"stock"`: bottom first, so the last card is the first turned.
    pub stock: Vec<String>,
    /// `"foundations"`: empty in a deal.
    pub foundations: Vec<String>,
    /// `"waste"`: empty in a deal.
    pub waste: Vec<String>,
}

impl SolvitaireDeal {
    /// The deal `deal` of `layout` (its cards in dealing order), with the
    /// faces of a fresh deal: each pile's top card face up, the cards
    /// under it face down, the stock upper case. Errors as
    /// [`Layout::check_deal`] does for a deal that is not the layout's
    /// cards once each.
    ///
    /// Guarantee: [`SolvitaireDeal::to_deal`] of the result, with the
    /// same layout, is `deal`.
    pub fn of_deal(layout: &Layout, deal: &[Card]) -> Result<SolvitaireDeal> {
        layout.check_deal(deal)?;
        let tableau_piles = layout
            .pile_positions()
            .iter()
            .map(|positions| {
                let top = positions.len() - 1;
                positions
                    .iter()
                    .enumerate()
                    .map(|(i, &position)| card_text(deal[position], i == top))
                    .collect()
            })
            .collect();
        let stock = deal[layout.n_tableau()..]
            .iter()
            .rev()
            .map(|&card| card_text(card, true))
            .collect();
        Ok(SolvitaireDeal {
            tableau_piles,
            stock,
            foundations: Vec::new(),
            waste: Vec::new(),
        })
    }

    /// The deal of `layout` this file holds, its cards in dealing order
    /// (what `klondike solve --deal` takes), after checking that it is a
    /// fresh deal of the layout: no card on the foundations or the waste;
    /// the layout's number of piles, pile `p` (from 0) holding `p + 1`
    /// cards, the top one face up and the others face down; the stock
    /// holding the other cards; every card a card of the layout's deck,
    /// once. Each error names the value by its place in the file
    /// (`tableau piles[2][0] "5H"`) and says what is allowed.
    pub fn to_deal(&self, layout: &Layout) -> Result<Vec<Card>> {
        for (key, cards) in [("foundations", &self.foundations), ("waste", &self.waste)] {
            if !cards.is_empty() {
                return Err(Error::invalid(
                    key,
                    format!("[{}]", quoted_list(cards)),
                    "must be empty or left out: a deal has no card there yet (deckodds reads deals, not games in progress)",
                ));
            }
        }
        let piles = usize::from(layout.piles);
        if self.tableau_piles.len() != piles {
            return Err(Error::invalid(
                "tableau piles",
                format!("({} piles)", self.tableau_piles.len()),
                format!("must be {piles} piles, as the layout deals"),
            ));
        }
        let mut deal: Vec<Option<Card>> = vec![None; layout.n_cards()];
        // Where each card was read, by its code: to name both places of a
        // card given twice.
        let mut read_at: Vec<Option<String>> = vec![None; 256];
        let mut place = |deal: &mut [Option<Card>],
                         position: usize,
                         card: Card,
                         text: &str,
                         at: String| {
            if let Some(first) = &read_at[usize::from(card.code())] {
                return Err(Error::invalid(
                    &at,
                    format!("\"{text}\""),
                    format!(
                        "is the card {first} already holds: each card of the deck is dealt once{}",
                        missing_note(layout, deal)
                    ),
                ));
            }
            read_at[usize::from(card.code())] = Some(at);
            deal[position] = Some(card);
            Ok(())
        };
        for (p, (pile, positions)) in self
            .tableau_piles
            .iter()
            .zip(layout.pile_positions())
            .enumerate()
        {
            if pile.len() != positions.len() {
                return Err(Error::invalid(
                    &format!("tableau piles[{p}]"),
                    format!("({} cards)", pile.len()),
                    format!(
                        "must hold {} cards: pile {} is dealt {} face down under one face up",
                        positions.len(),
                        p + 1,
                        positions.len() - 1
                    ),
                ));
            }
            let top = pile.len() - 1;
            for (i, (text, &position)) in pile.iter().zip(&positions).enumerate() {
                let at = format!("tableau piles[{p}][{i}]");
                let (card, face_up) = parse_card_text(text, layout).map_err(|e| e.naming(&at))?;
                if face_up != (i == top) {
                    let (is, should, write) = if face_up {
                        (
                            "face up (upper-case suit)",
                            "face down",
                            card_text(card, false),
                        )
                    } else {
                        (
                            "face down (lower-case suit)",
                            "face up",
                            card_text(card, true),
                        )
                    };
                    let whose = if i == top {
                        "the top card of a pile"
                    } else {
                        "a card under the top one"
                    };
                    return Err(Error::invalid(
                        &at,
                        format!("\"{text}\""),
                        format!("is {is}, but {whose} is dealt {should}: write \"{write}\""),
                    ));
                }
                place(&mut deal, position, card, text, at)?;
            }
        }
        let n_tableau = layout.n_tableau();
        if self.stock.len() != layout.n_stock() {
            return Err(Error::invalid(
                "stock",
                format!("({} cards)", self.stock.len()),
                format!(
                    "must hold the {} cards the tableau leaves (the deck's {} less the piles' {n_tableau})",
                    layout.n_stock(),
                    layout.n_cards()
                ),
            ));
        }
        for (i, text) in self.stock.iter().enumerate() {
            let at = format!("stock[{i}]");
            // Either case: a stock card has no face in Solvitaire.
            let (card, _) = parse_card_text(text, layout).map_err(|e| e.naming(&at))?;
            // The last card of the array is turned first: deal position
            // `n_tableau`.
            let position = n_tableau + self.stock.len() - 1 - i;
            place(&mut deal, position, card, text, at)?;
        }
        // Every position is filled, each with a different card of the
        // deck: the counts were checked and `place` refused a card twice.
        let deal: Vec<Card> = deal.into_iter().flatten().collect();
        layout.check_deal(&deal)?;
        Ok(deal)
    }
}

/// For a card given twice: the cards of the deck not read so far, when
/// there are at most three (near the end of the file, the card meant is
/// likely among them), else nothing.
fn missing_note(layout: &Layout, deal: &[Option<Card>]) -> String {
    let mut seen = [false; 256];
    for card in deal.iter().flatten() {
        seen[usize::from(card.code())] = true;
    }
    let missing: Vec<String> = (0..4)
        .flat_map(|suit| (1..=layout.ranks).map(move |rank| Card::new(rank, suit)))
        .filter(|card| !seen[usize::from(card.code())])
        .map(|card| card.to_string())
        .collect();
    match missing.len() {
        1..=3 => format!(" (not read so far: {})", missing.join(" ")),
        _ => String::new(),
    }
}

/// `"a", "b"` for an error, at most five cards.
fn quoted_list(cards: &[String]) -> String {
    let mut shown: Vec<String> = cards.iter().take(5).map(|c| format!("\"{c}\"")).collect();
    if cards.len() > 5 {
        shown.push(format!("... {} more", cards.len() - 5));
    }
    shown.join(", ")
}

/// A card as Solvitaire writes it: `AS`, `10H`, `QD` face up; `as`,
/// `10h`, `qd`... face down (the suit's case says; the rank's is upper
/// case, as Solvitaire writes it).
pub fn card_text(card: Card, face_up: bool) -> String {
    let suit = SUITS[usize::from(card.suit() & 3)];
    let suit = if face_up {
        suit
    } else {
        suit.to_ascii_lowercase()
    };
    format!("{}{suit}", crate::cards::rank_name(card.rank()))
}

/// A card text as Solvitaire reads it, and whether it is face up (an
/// upper-case suit): the rank `A`, `J`, `Q`, `K` (either case) or a
/// number `1`..`13` (`10`, not `T`, which Solvitaire does not read), then
/// one suit letter `C`, `D`, `H`, `S` in either case. The card must be
/// one of `layout`'s deck. Errors name `card`.
pub fn parse_card_text(text: &str, layout: &Layout) -> Result<(Card, bool)> {
    let invalid = || Error::invalid("card", format!("\"{text}\""), CARD_TEXT);
    let suit_char = text.chars().last().ok_or_else(invalid)?;
    let rank_text = &text[..text.len() - suit_char.len_utf8()];
    let suit = SUITS
        .iter()
        .position(|&s| s == suit_char.to_ascii_uppercase())
        .ok_or_else(invalid)?;
    let rank: u8 = match rank_text {
        "A" | "a" => 1,
        "J" | "j" => 11,
        "Q" | "q" => 12,
        "K" | "k" => 13,
        // Solvitaire's pattern: one digit, or 10..13 (no sign, no leading
        // zero); 0 is not a rank.
        digits if (1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) => {
            match digits.parse::<u8>() {
                Ok(rank @ 1..=13) if digits.len() == 1 || rank >= 10 => rank,
                _ => return Err(invalid()),
            }
        }
        _ => return Err(invalid()),
    };
    if rank > layout.ranks {
        return Err(Error::invalid(
            "card",
            format!("\"{text}\""),
            format!(
                "is not a card of the layout's deck, whose ranks are 1..={}",
                layout.ranks
            ),
        ));
    }
    Ok((Card::new(rank, suit as u8), suit_char.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::cards::parse_card;
    use crate::games::klondike::brute::tests::random_deal;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| parse_card(t).unwrap())
            .collect()
    }

    fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    /// A deal of 4 ranks and 4 piles written by hand in Solvitaire's
    /// form, and the same deal in dealing order, worked out by hand: the
    /// piles' cards row by row (the first card of each pile, left to
    /// right; then the second card of piles 2-4; ...), then the stock
    /// from its last card to its first.
    fn hand_written() -> (SolvitaireDeal, Vec<Card>) {
        let file = SolvitaireDeal {
            tableau_piles: vec![
                strings(&["3S"]),
                strings(&["2d", "AC"]),
                strings(&["4c", "Ad", "4H"]),
                strings(&["2h", "3c", "As", "2S"]),
            ],
            stock: strings(&["4S", "3D", "2C", "AH", "4D", "3H"]),
            ..SolvitaireDeal::default()
        };
        // Round 0: 3S 2D 4C 2H; round 1: AC AD 3C; round 2: 4H AS;
        // round 3: 2S; then the stock, 3H turned first and 4S last.
        let deal = cards("3S 2D 4C 2H AC AD 3C 4H AS 2S 3H 4D AH 2C 3D 4S");
        (file, deal)
    }

    #[test]
    fn a_hand_written_deal_reads_as_dealt_with_the_stock_turned_from_its_end() {
        let layout = Layout::new(4, 4).unwrap();
        let (file, deal) = hand_written();
        assert_eq!(file.to_deal(&layout).unwrap(), deal);
        assert_eq!(SolvitaireDeal::of_deal(&layout, &deal).unwrap(), file);
        // Solvitaire's other spellings: ranks as numbers or lower case,
        // the stock in lower case.
        let mut spelled = file.clone();
        spelled.tableau_piles[3] = strings(&["2h", "3c", "1s", "2S"]);
        spelled.tableau_piles[2][1] = "ad".into();
        spelled.stock[0] = "4s".into();
        assert_eq!(spelled.to_deal(&layout).unwrap(), deal);
    }

    #[test]
    fn the_full_deal_maps_piles_and_stock_as_the_record_deals_them() {
        let deck = crate::games::klondike::sorted_deck();
        let file = SolvitaireDeal::of_deal(&Layout::FULL, &deck).unwrap();
        // Pile 7 gets cards 7, 13, 18, 22, 25, 27 face down and 28 face
        // up (counted from 1): the sorted deck's 7C KC 5D 9D QD AH 2H.
        assert_eq!(
            file.tableau_piles[6],
            strings(&["7c", "Kc", "5d", "9d", "Qd", "Ah", "2H"])
        );
        assert_eq!(file.tableau_piles[0], strings(&["AC"]));
        // Card 29 (3H) is turned first: the stock's last; card 52 (KS)
        // its first.
        assert_eq!(file.stock.first().map(String::as_str), Some("KS"));
        assert_eq!(file.stock.last().map(String::as_str), Some("3H"));
        assert_eq!(file.to_deal(&Layout::FULL).unwrap(), deck.to_vec());
    }

    /// The message of reading `file` under `layout`.
    fn refusal(file: &SolvitaireDeal, layout: &Layout) -> String {
        file.to_deal(layout).unwrap_err().to_string()
    }

    #[test]
    fn every_departure_from_a_fresh_deal_is_refused_naming_its_place() {
        let layout = Layout::new(4, 4).unwrap();
        let (file, _) = hand_written();
        let mut cases: Vec<(SolvitaireDeal, &str)> = Vec::new();
        let mut changed = |change: &dyn Fn(&mut SolvitaireDeal), expected: &'static str| {
            let mut file = file.clone();
            change(&mut file);
            cases.push((file, expected));
        };
        changed(
            &|f| f.foundations = strings(&["AC"]),
            "foundations [\"AC\"]: must be empty or left out",
        );
        changed(
            &|f| f.waste = strings(&["AC", "2C"]),
            "waste [\"AC\", \"2C\"]: must be empty",
        );
        changed(
            &|f| {
                f.tableau_piles.pop();
            },
            "tableau piles (3 piles): must be 4 piles",
        );
        changed(
            &|f| f.tableau_piles[2].push("3D".into()),
            "tableau piles[2] (4 cards): must hold 3 cards: pile 3 is dealt 2 face down under one face up",
        );
        changed(
            &|f| f.tableau_piles[2][0] = "4C".into(),
            "tableau piles[2][0] \"4C\": is face up (upper-case suit), but a card under the top one is dealt face down: write \"4c\"",
        );
        changed(
            &|f| f.tableau_piles[0][0] = "3s".into(),
            "tableau piles[0][0] \"3s\": is face down (lower-case suit), but the top card of a pile is dealt face up: write \"3S\"",
        );
        changed(
            &|f| f.tableau_piles[1][0] = "TD".into(),
            "tableau piles[1][0] \"TD\": must be a rank (A, 2..10, J, Q, K, or 1..13)",
        );
        changed(
            &|f| f.tableau_piles[1][0] = "5d".into(),
            "tableau piles[1][0] \"5d\": is not a card of the layout's deck, whose ranks are 1..=4",
        );
        changed(
            &|f| f.stock[5] = "3S".into(),
            "stock[5] \"3S\": is the card tableau piles[0][0] already holds: each card of the deck is dealt once (not read so far: 3H)",
        );
        changed(
            &|f| {
                f.stock.pop();
            },
            "stock (5 cards): must hold the 6 cards the tableau leaves (the deck's 16 less the piles' 10)",
        );
        changed(&|f| f.stock[0] = "".into(), "stock[0] \"\": must be a rank");
        for (file, expected) in cases {
            let message = refusal(&file, &layout);
            assert!(message.starts_with(expected), "{message}\n{expected}");
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn card_texts_are_solvitaires_pattern_exactly() {
        let full = Layout::FULL;
        let read = |text: &str| parse_card_text(text, &full).ok();
        assert_eq!(read("10h"), Some((Card::new(10, 2), false)));
        assert_eq!(read("13S"), Some((Card::new(13, 3), true)));
        assert_eq!(read("kS"), Some((Card::new(13, 3), true)));
        assert_eq!(read("1c"), Some((Card::new(1, 0), false)));
        for refused in [
            "", "S", "0S", "01S", "14S", "TH", "AX", "10", "A♠", "+1S", " AS", "AS ", "1 0S", "é",
        ] {
            assert_eq!(read(refused), None, "{refused:?}");
        }
        for card in crate::games::klondike::sorted_deck() {
            for face_up in [false, true] {
                assert_eq!(read(&card_text(card, face_up)), Some((card, face_up)));
            }
        }
    }

    /// A layout of any size the library allows, and a shuffled deck of it.
    fn layout_and_deal() -> impl Strategy<Value = (Layout, Vec<Card>)> {
        (1u8..=13, 1u8..=7, any::<u64>()).prop_filter_map(
            "the layout's piles must fit its deck",
            |(ranks, piles, seed)| {
                let layout = Layout::new(ranks, piles).ok()?;
                let deal = random_deal(layout, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
                Some((layout, deal))
            },
        )
    }

    proptest! {
        /// Any deal of any layout is read back as written, card for card.
        #[test]
        fn any_deal_of_any_layout_reads_back_as_written((layout, deal) in layout_and_deal()) {
            let file = SolvitaireDeal::of_deal(&layout, &deal).unwrap();
            prop_assert_eq!(file.tableau_piles.len(), usize::from(layout.piles));
            prop_assert_eq!(file.stock.len(), layout.n_stock());
            prop_assert_eq!(file.to_deal(&layout).unwrap(), deal);
        }

        /// Any piles of any card texts: a deal or a one-line error, never a
        /// panic.
        #[test]
        fn any_card_texts_are_read_or_refused_in_one_line(
            piles in proptest::collection::vec(
                proptest::collection::vec("[0-9AaJjQqKkTt]{0,3}[CcDdHhSsX♠]?|\\PC{0,4}", 0..8),
                0..9,
            ),
            stock in proptest::collection::vec("[0-9AJQK]{1,2}[CDHSs]", 0..30),
            ranks in 1u8..=13,
            piles_of_layout in 1u8..=7,
        ) {
            let Ok(layout) = Layout::new(ranks, piles_of_layout) else {
                return Ok(());
            };
            let file = SolvitaireDeal { tableau_piles: piles, stock, ..SolvitaireDeal::default() };
            if let Err(error) = file.to_deal(&layout) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }
    }
}
