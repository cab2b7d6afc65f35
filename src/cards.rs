//! Cards, ranks, suits and deck specifications, and parsing them from text.
//!
//! A card is one byte, so that game loops compare small integers: the rank
//! (1..=13) in the low four bits and the suit (0..=15) in the high four.

use std::fmt;

use crate::error::{Error, Result};

/// The largest number of ranks a deck may have (A..K).
pub const MAX_RANKS: u8 = 13;
/// The largest number of suits a deck may have (four bits of a [`Card`]).
pub const MAX_SUITS: u8 = 16;

/// A playing card: rank 1..=13 (A=1, J=11, Q=12, K=13) and suit 0..=15.
///
/// Guarantee: equal cards have equal bytes; `rank()` and `suit()` cost one
/// instruction each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Makes a card. Ranks outside 1..=13 or suits outside 0..=15 are a
    /// programming error in the caller (parsers validate user input first).
    pub const fn new(rank: u8, suit: u8) -> Card {
        assert!(rank >= 1 && rank <= MAX_RANKS && suit < MAX_SUITS);
        Card(suit << 4 | rank)
    }

    /// The rank, 1..=13.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 & 0x0f
    }

    /// The suit, 0..=15 (0..=3 are clubs, diamonds, hearts, spades).
    #[inline]
    pub const fn suit(self) -> u8 {
        self.0 >> 4
    }

    /// The card's byte, `suit << 4 | rank`: two cards share a suit exactly
    /// when their codes agree in the high four bits, and a rank exactly when
    /// they agree in the low four, so the XOR of two codes says both.
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// Whether the two cards have the same suit (one XOR and one mask).
    #[inline]
    pub const fn same_suit(self, other: Card) -> bool {
        (self.0 ^ other.0) & 0xf0 == 0
    }

    /// Whether the two cards have the same rank (one XOR and one mask).
    #[inline]
    pub const fn same_rank(self, other: Card) -> bool {
        (self.0 ^ other.0) & 0x0f == 0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", rank_name(self.rank()))?;
        match SUIT_LETTERS.get(usize::from(self.suit())) {
            Some(letter) => write!(f, "{letter}"),
            None => write!(f, "s{}", self.suit()),
        }
    }
}

/// Suit letters for the four standard suits, in suit order.
const SUIT_LETTERS: [char; 4] = ['C', 'D', 'H', 'S'];

/// The conventional name of a rank: `A`, `2`..`10`, `J`, `Q`, `K`.
pub fn rank_name(rank: u8) -> &'static str {
    const NAMES: [&str; 14] = [
        "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    NAMES.get(usize::from(rank)).copied().unwrap_or("?")
}

/// Parses a rank as people write it: `A`, `2`..`10`, `T` (ten), `J`, `Q`,
/// `K`, case-insensitive, also `1` and `11`..`13`. Returns `None` otherwise.
pub fn parse_rank(text: &str) -> Option<u8> {
    let upper = text.trim().to_ascii_uppercase();
    match upper.as_str() {
        "A" | "ACE" => Some(1),
        "T" => Some(10),
        "J" => Some(11),
        "Q" => Some(12),
        "K" => Some(13),
        digits => digits
            .parse::<u8>()
            .ok()
            .filter(|r| (1..=MAX_RANKS).contains(r)),
    }
}

/// Parses a deal of ranks (a deck where only ranks matter: [`RankDeck`]):
/// ranks as [`parse_rank`] reads them, first card first, separated by
/// spaces or commas. Errors name `deal` and the first token that is no
/// rank; [`RankDeck::check_deal`] then checks the deal against a deck.
pub fn parse_rank_deal(text: &str) -> Result<Vec<u8>> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(|token| {
            parse_rank(token).ok_or_else(|| {
                Error::invalid(
                    "deal",
                    token,
                    "cards must be ranks A, 2..10, J, Q, K (or 1..13), separated by spaces",
                )
            })
        })
        .collect()
}

/// Parses a card such as `AS`, `10H`, `td`, `Q♣`. Suits: `C D H S` or the
/// Unicode suit symbols.
pub fn parse_card(text: &str) -> Result<Card> {
    let text = text.trim();
    let invalid = || {
        Error::invalid(
            "card",
            text,
            "must be a rank (A, 2..10, T, J, Q, K) followed by a suit (C, D, H, S)",
        )
    };
    let suit_char = text.chars().last().ok_or_else(invalid)?;
    let rank_text = &text[..text.len() - suit_char.len_utf8()];
    let suit = match suit_char.to_ascii_uppercase() {
        'C' | '♣' => 0,
        'D' | '♦' => 1,
        'H' | '♥' => 2,
        'S' | '♠' => 3,
        _ => return Err(invalid()),
    };
    let rank = parse_rank(rank_text).ok_or_else(invalid)?;
    Ok(Card::new(rank, suit))
}

/// A deck in which only ranks matter (Roll-Call, Prisoner's patience):
/// ranks 1..=`ranks`, each `copies` times. Deals are slices of ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankDeck {
    /// Ranks, 1..=13.
    pub ranks: u8,
    /// Copies of each rank.
    pub copies: u8,
}

impl RankDeck {
    /// Cards in the deck.
    pub fn n_cards(self) -> usize {
        usize::from(self.ranks) * usize::from(self.copies)
    }

    /// The deck in rank order: 1..=R, each `copies` times.
    pub fn sorted_ranks(self) -> Vec<u8> {
        (1..=self.ranks)
            .flat_map(|rank| std::iter::repeat_n(rank, usize::from(self.copies)))
            .collect()
    }

    /// The deck as the exact enumerators take it: `copies` identical cards
    /// (suit 0) of each rank, so each distinct arrangement of ranks is
    /// visited once.
    pub fn cards(self) -> Vec<Card> {
        self.sorted_ranks()
            .into_iter()
            .map(|rank| Card::new(rank, 0))
            .collect()
    }

    /// Checks that `deal` is an arrangement of this deck: ranks 1..=R,
    /// each exactly `copies` times. The error names `deal`.
    pub fn check_deal(self, deal: &[u8]) -> Result<()> {
        let mut seen = [0usize; MAX_RANKS as usize + 1];
        for &rank in deal {
            if rank == 0 || rank > self.ranks {
                return Err(Error::invalid(
                    "deal",
                    format!("rank {rank}"),
                    format!("ranks must be 1 to {}", self.ranks),
                ));
            }
            seen[usize::from(rank)] += 1;
        }
        let copies = usize::from(self.copies);
        if deal.len() != self.n_cards()
            || seen[1..=usize::from(self.ranks)]
                .iter()
                .any(|&s| s != copies)
        {
            return Err(Error::invalid(
                "deal",
                format!("{} cards", deal.len()),
                format!(
                    "must hold each of the {} ranks exactly {} times ({} cards)",
                    self.ranks,
                    copies,
                    self.n_cards()
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
impl RankDeck {
    /// Every distinct arrangement of the deck's ranks, by plain recursion:
    /// for tests, independent of the exact enumerators.
    pub(crate) fn all_arrangements(self) -> Vec<Vec<u8>> {
        fn extend(left: &mut [u8], deal: &mut Vec<u8>, n: usize, all: &mut Vec<Vec<u8>>) {
            if deal.len() == n {
                all.push(deal.clone());
                return;
            }
            for rank in 0..left.len() {
                if left[rank] > 0 {
                    left[rank] -= 1;
                    deal.push(rank as u8 + 1);
                    extend(left, deal, n, all);
                    deal.pop();
                    left[rank] += 1;
                }
            }
        }
        let mut all = Vec::new();
        let mut left = vec![self.copies; usize::from(self.ranks)];
        extend(&mut left, &mut Vec::new(), self.n_cards(), &mut all);
        all
    }
}

/// A deck: `suits` x `ranks` distinct cards (ranks 1..=ranks), `copies`
/// times over. The standard deck is 4 x 13 x 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckSpec {
    /// Number of suits, 1..=16.
    pub suits: u8,
    /// Number of ranks, 1..=13.
    pub ranks: u8,
    /// Copies of the whole deck, at least 1.
    pub copies: u32,
}

impl DeckSpec {
    /// The standard 52-card deck.
    pub const STANDARD: DeckSpec = DeckSpec {
        suits: 4,
        ranks: 13,
        copies: 1,
    };

    /// Checks the dimensions, naming the offending option on error.
    pub fn validated(self) -> Result<DeckSpec> {
        if !(1..=MAX_SUITS).contains(&self.suits) {
            return Err(Error::invalid(
                "suits",
                self.suits,
                format!("must be 1..={MAX_SUITS}"),
            ));
        }
        if !(1..=MAX_RANKS).contains(&self.ranks) {
            return Err(Error::invalid(
                "ranks",
                self.ranks,
                format!("must be 1..={MAX_RANKS}"),
            ));
        }
        if self.copies == 0 {
            return Err(Error::invalid("copies", self.copies, "must be at least 1"));
        }
        Ok(self)
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        usize::from(self.suits) * usize::from(self.ranks) * self.copies as usize
    }

    /// Whether the deck has no cards (never true for a validated spec).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards in sorted order: suit-major (A..K of the first suit, then
    /// the next suit), the whole sequence repeated `copies` times. This is
    /// the order the naive shuffle of RULES.md starts from.
    pub fn sorted_cards(&self) -> Vec<Card> {
        let mut cards = Vec::with_capacity(self.len());
        for _ in 0..self.copies {
            for suit in 0..self.suits {
                for rank in 1..=self.ranks {
                    cards.push(Card::new(rank, suit));
                }
            }
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_deals_parse_as_ranks_and_name_the_bad_token() {
        assert_eq!(
            parse_rank_deal("A 10,t J q K 1").unwrap(),
            [1, 10, 10, 11, 12, 13, 1]
        );
        assert_eq!(parse_rank_deal(" ").unwrap(), Vec::<u8>::new());
        for (bad, token) in [("A Z", "Z"), ("14", "14"), ("0 A", "0"), ("AS", "AS")] {
            let message = parse_rank_deal(bad).unwrap_err().to_string();
            assert!(message.starts_with(&format!("deal {token}: ")), "{message}");
        }
    }

    #[test]
    fn card_packs_rank_and_suit() {
        for suit in 0..MAX_SUITS {
            for rank in 1..=MAX_RANKS {
                let card = Card::new(rank, suit);
                assert_eq!((card.rank(), card.suit()), (rank, suit));
            }
        }
    }

    #[test]
    fn parses_cards_as_people_write_them() {
        let check = |text: &str, rank: u8, suit: u8| {
            assert_eq!(parse_card(text).unwrap(), Card::new(rank, suit), "{text}");
        };
        check("AS", 1, 3);
        check("10h", 10, 2);
        check("TD", 10, 1);
        check("Q♣", 12, 0);
        check(" kc ", 13, 0);
        for bad in ["", "S", "1X", "14S", "ZZ", "A"] {
            assert!(parse_card(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_ranks() {
        assert_eq!(parse_rank("a"), Some(1));
        assert_eq!(parse_rank("10"), Some(10));
        assert_eq!(parse_rank("t"), Some(10));
        assert_eq!(parse_rank("K"), Some(13));
        assert_eq!(parse_rank("0"), None);
        assert_eq!(parse_rank("14"), None);
        assert_eq!(parse_rank("x"), None);
    }

    #[test]
    fn display_round_trips_through_parse() {
        for card in DeckSpec::STANDARD.sorted_cards() {
            assert_eq!(parse_card(&card.to_string()).unwrap(), card);
        }
    }

    #[test]
    fn sorted_deck_is_suit_major() {
        let deck = DeckSpec {
            suits: 2,
            ranks: 3,
            copies: 2,
        }
        .sorted_cards();
        let names: Vec<String> = deck.iter().map(Card::to_string).collect();
        assert_eq!(
            names,
            [
                "AC", "2C", "3C", "AD", "2D", "3D", "AC", "2C", "3C", "AD", "2D", "3D"
            ]
        );
    }

    #[test]
    fn deck_spec_validation_names_the_parameter() {
        let bad = DeckSpec {
            suits: 0,
            ..DeckSpec::STANDARD
        };
        assert_eq!(
            bad.validated().unwrap_err().to_string(),
            "suits 0: must be 1..=16"
        );
        assert!(DeckSpec::STANDARD.validated().is_ok());
    }
}
