//! The shoe at the table: when the dealer shuffles ([`Dealing`]) and the
//! cards a round is dealt from ([`TableShoe`]).

use crate::error::{Error, Result};
use crate::games::blackjack::player::round::Cards;
use crate::rng::{GameRng, draw};

/// The fewest cards a round can take with the hole card dealt (an upcard,
/// the player's two cards and the hole card; under ENHC or with an early
/// surrender a round may take three, never fewer). A cut card must leave at
/// least this many cards behind it, and a shoe must hold this many for
/// each round of `--rounds-per-shoe`.
pub const ROUND_MIN_CARDS: u32 = 4;

/// When the dealer shuffles: at a cut card, or after a fixed number of
/// rounds. Either way a round that runs out of cards is finished from the
/// shuffled discards and the shoe then ends ([`TableShoe`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dealing {
    /// A cut card after `cut` of the shoe's `cards` cards: a round starts
    /// while fewer than `cut` cards have been dealt, and the shoe is
    /// shuffled after the round in which the cut card came out.
    CutCard {
        /// Cards dealt before the cut card.
        cut: u32,
        /// Cards in the shoe.
        cards: u32,
    },
    /// Exactly `rounds` rounds from every shoe (`1`: every round from a
    /// freshly shuffled shoe, a continuous shuffler's game).
    RoundsPerShoe {
        /// Rounds dealt from each shoe.
        rounds: u32,
    },
}

impl Dealing {
    /// A cut card at `penetration` of a shoe of `cards` cards: after
    /// `round(penetration * cards)` cards.
    ///
    /// Errors (naming `penetration`) unless `0 < penetration <= 1`, the cut
    /// card comes after at least one card, and it leaves at least
    /// [`ROUND_MIN_CARDS`] behind it (the largest penetration allowed is
    /// in the message).
    pub fn cut_card(penetration: f64, cards: u32) -> Result<Dealing> {
        let most_cut = cards.saturating_sub(ROUND_MIN_CARDS);
        let allowed = || {
            format!(
                "the cut card comes after round(P x {cards}) cards, which must be 1..={most_cut}, \
                 leaving at least {ROUND_MIN_CARDS} cards (a round's fewest) behind it: P at most \
                 about {:.4} for a shoe of {cards} cards",
                f64::from(most_cut) / f64::from(cards)
            )
        };
        if !(penetration > 0.0 && penetration <= 1.0) {
            return Err(Error::invalid("penetration", penetration, allowed()));
        }
        let cut = (penetration * f64::from(cards)).round() as u32;
        if cut == 0 || cut + ROUND_MIN_CARDS > cards {
            return Err(Error::invalid("penetration", penetration, allowed()));
        }
        Ok(Dealing::CutCard { cut, cards })
    }

    /// `rounds` rounds from every shoe of `cards` cards.
    ///
    /// Errors (naming `rounds_per_shoe`) unless `1 <= rounds` and the shoe
    /// holds [`ROUND_MIN_CARDS`] cards for each round.
    pub fn rounds_per_shoe(rounds: u32, cards: u32) -> Result<Dealing> {
        let most = cards / ROUND_MIN_CARDS;
        if rounds == 0 || rounds > most {
            return Err(Error::invalid(
                "rounds_per_shoe",
                rounds,
                format!(
                    "must be 1..={most}: a shoe of {cards} cards holds {ROUND_MIN_CARDS} cards \
                     (a round's fewest) for at most {most} rounds"
                ),
            ));
        }
        Ok(Dealing::RoundsPerShoe { rounds })
    }

    /// Whether another round is dealt from a shoe that has dealt `dealt`
    /// cards in `rounds` rounds.
    #[inline]
    pub fn deals_another(&self, dealt: u32, rounds: u32) -> bool {
        match *self {
            Dealing::CutCard { cut, .. } => dealt < cut,
            Dealing::RoundsPerShoe { rounds: per_shoe } => rounds < per_shoe,
        }
    }

    /// The most rounds a shoe of `cards` cards can deal: every round takes
    /// at least three cards (an early surrender), and the shoe ends when
    /// the cards run out.
    pub fn most_rounds(&self, cards: u32) -> u32 {
        match *self {
            Dealing::CutCard { cut, .. } => cut.div_ceil(3),
            Dealing::RoundsPerShoe { rounds } => rounds,
        }
        .min(cards.div_ceil(3))
    }

    /// The fraction of the shoe dealt before the cut card, if there is one.
    pub fn penetration(&self) -> Option<f64> {
        match *self {
            Dealing::CutCard { cut, cards } => Some(f64::from(cut) / f64::from(cards)),
            Dealing::RoundsPerShoe { .. } => None,
        }
    }

    /// Words for reports: `cut card after 234 of 312 cards (75.0 %)` or
    /// `1 round per shoe`.
    pub fn describe(&self) -> String {
        match *self {
            Dealing::CutCard { cut, cards } => format!(
                "cut card after {cut} of {cards} cards ({:.1} % dealt)",
                100.0 * f64::from(cut) / f64::from(cards)
            ),
            Dealing::RoundsPerShoe { rounds: 1 } => {
                "1 round per shoe (a fresh shuffle every round)".to_string()
            }
            Dealing::RoundsPerShoe { rounds } => format!("{rounds} rounds per shoe"),
        }
    }
}

/// A shoe being dealt: its cards as a permutation drawn by partial
/// Fisher-Yates from the front (each card uniform among those not yet
/// dealt), so that a new shoe starts at position 0 with no reshuffle pass.
///
/// If a round needs a card when none is left, the discards (the cards of
/// the shoe's earlier rounds, not those on the table) are shuffled and the
/// round goes on from them, as a dealer does; [`TableShoe::reshuffled`] then
/// says the shoe must end with this round.
pub(crate) struct TableShoe<'a> {
    rng: &'a mut GameRng,
    cards: &'a mut [u8],
    /// Cards dealt from the shoe (the next card is drawn at this position).
    position: usize,
    /// Where the round under way began: `cards[..round_start]` are the
    /// discards.
    round_start: usize,
    /// Cards dealt from the shuffled discards.
    from_discards: usize,
}

impl<'a> TableShoe<'a> {
    /// A freshly shuffled shoe of `cards` (any permutation of the shoe's
    /// cards: the draws make it uniform).
    pub(crate) fn new(rng: &'a mut GameRng, cards: &'a mut [u8]) -> TableShoe<'a> {
        TableShoe {
            rng,
            cards,
            position: 0,
            round_start: 0,
            from_discards: 0,
        }
    }

    /// Cards dealt so far.
    #[inline]
    pub(crate) fn dealt(&self) -> u32 {
        self.position as u32
    }

    /// Cards not yet dealt.
    #[inline]
    pub(crate) fn cards_left(&self) -> u32 {
        (self.cards.len() - self.position) as u32
    }

    /// Marks the start of a round.
    #[inline]
    pub(crate) fn start_round(&mut self) {
        self.round_start = self.position;
    }

    /// The round's cards dealt from the shoe (without any from the
    /// discards).
    #[inline]
    pub(crate) fn round_cards(&self) -> &[u8] {
        &self.cards[self.round_start..self.position]
    }

    /// Whether the round under way ran out of cards and went on from the
    /// shuffled discards.
    #[inline]
    pub(crate) fn reshuffled(&self) -> bool {
        self.from_discards > 0
    }
}

impl Cards for TableShoe<'_> {
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.position < self.cards.len() {
            let value = draw(self.rng, self.cards, self.position);
            self.position += 1;
            return Some(value);
        }
        // The shoe is out: deal from the discards, shuffled as they are
        // drawn. `None` only if every card is on the table.
        if self.from_discards == self.round_start {
            return None;
        }
        let value = draw(
            self.rng,
            &mut self.cards[..self.round_start],
            self.from_discards,
        );
        self.from_discards += 1;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream_rng;

    #[test]
    fn the_cut_card_is_placed_at_the_penetration() {
        assert_eq!(
            Dealing::cut_card(0.75, 312).unwrap(),
            Dealing::CutCard {
                cut: 234,
                cards: 312
            }
        );
        assert_eq!(
            Dealing::cut_card(0.75, 52).unwrap(),
            Dealing::CutCard { cut: 39, cards: 52 }
        );
        // 48 of 52 leaves exactly four cards behind the cut card.
        assert!(Dealing::cut_card(48.0 / 52.0, 52).is_ok());
        for refused in [0.0, -0.5, 1.5, 1.0, 0.95, f64::NAN, f64::INFINITY, 0.001] {
            let message = Dealing::cut_card(refused, 52).unwrap_err().to_string();
            assert!(message.contains("penetration"), "{refused}: {message}");
            assert!(message.contains("1..=48"), "{refused}: {message}");
        }
    }

    #[test]
    fn rounds_per_shoe_need_room_for_their_rounds() {
        assert!(Dealing::rounds_per_shoe(1, 52).is_ok());
        assert!(Dealing::rounds_per_shoe(13, 52).is_ok());
        for refused in [0, 14] {
            let message = Dealing::rounds_per_shoe(refused, 52)
                .unwrap_err()
                .to_string();
            assert!(message.contains("rounds_per_shoe"), "{message}");
            assert!(message.contains("1..=13"), "{message}");
        }
    }

    #[test]
    fn a_round_that_runs_out_goes_on_from_the_discards() {
        let mut rng = stream_rng(3, 0, 0);
        let mut cards: Vec<u8> = (1..=10).collect();
        let mut shoe = TableShoe::new(&mut rng, &mut cards);
        for _ in 0..6 {
            shoe.next().unwrap();
        }
        shoe.start_round();
        let mut table = Vec::new();
        for _ in 0..4 {
            table.push(shoe.next().unwrap());
        }
        assert!(!shoe.reshuffled());
        assert_eq!(shoe.round_cards(), &table[..]);
        // Six discards, then nothing: the four on the table stay out.
        let mut from_discards = Vec::new();
        while let Some(card) = shoe.next() {
            from_discards.push(card);
        }
        assert!(shoe.reshuffled());
        assert_eq!(from_discards.len(), 6);
        let mut all: Vec<u8> = table.iter().chain(&from_discards).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (1..=10).collect::<Vec<u8>>());
    }
}
