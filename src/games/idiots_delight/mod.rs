//! Idiot's Delight ("Simple Solitaire"), RULES.md section 1.
//!
//! Cards are dealt one at a time onto the right end of a row, the hand.
//! After each card, while the hand has at least four cards, the rightmost
//! card is compared with the card three to its left: the same suit discards
//! the two cards between them; otherwise the same rank discards all four;
//! otherwise the next card is dealt. The suit test comes first. The outcome
//! is the number of cards left when the deck is exhausted, which has the
//! parity of the deck (discards come in twos and fours).
//!
//! The rule is one function, [`discards`]: given the two cards compared,
//! how many cards go. Two drivers apply it and nothing else:
//! [`IdiotsDelight::deal`] one card at a time (the memoised enumerator,
//! through [`SequentialGame`]), and [`play_lanes`], eight games at once
//! without a data-dependent branch (the Monte-Carlo runner, and the
//! exhaustive enumerator through [`LanePlayer`]). So Monte Carlo and the
//! exhaustive count run the same play function, and the memoised count
//! against the exhaustive one proves the two drivers equal on every deck of
//! up to 11 cards (tests, as are random decks of every shape up to 64).

pub mod power;

use num_traits::ToPrimitive;

use crate::cards::{Card, DeckSpec, MAX_RANKS, MAX_SUITS};
use crate::engine::Player;
use crate::engine::SequentialGame;
use crate::engine::Simulation;
use crate::engine::arrangements;
use crate::error::{Error, Result};
use crate::rng::{GameRng, Shuffle};

/// The most cards a deck may have. The hand is a fixed array of this many
/// cards, filled afresh for every game, so it is kept small: 64 covers the
/// standard deck and every shape up to 16 x 4 or 4 x 13 with room to spare.
pub const MAX_CARDS: usize = 64;

/// The most cards the exact enumerators accept. The memo key packs the
/// hand (five bits a card) and the cards to come (one bit each) into 128
/// bits, which holds for 20 cards; no deck beyond that is within reach of
/// exhaustive counting anyway.
pub const EXACT_MAX_CARDS: usize = 20;

/// The rule of RULES.md section 1, as a function of the two cards compared
/// (the rightmost and the one three to its left), given as the XOR of their
/// codes ([`Card::code`]): how many cards are discarded. 2 when they share
/// a suit (tested first: the two between them go), 4 when they share a rank
/// (all four go), 0 when neither (deal the next card).
///
/// An XOR of `0x100` or more involves a blank of the Monte-Carlo player
/// (see [`play_lanes`]); blanks match nothing.
pub const fn discards(xor: u16) -> usize {
    if xor >= 0x100 {
        0
    } else if xor & 0xf0 == 0 {
        2
    } else if xor & 0x0f == 0 {
        4
    } else {
        0
    }
}

/// [`discards`] as a table, for the one-card-at-a-time driver: a lookup
/// costs less than the two tests.
static DISCARDS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut xor = 0;
    while xor < 256 {
        table[xor] = discards(xor as u16) as u8;
        xor += 1;
    }
    table
};

/// The game on one `suits x ranks` deck (one copy of each card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdiotsDelight {
    deck: DeckSpec,
}

/// The row of cards in front of the player. A fixed array, so that dealing
/// never allocates.
#[derive(Debug)]
pub struct Hand {
    cards: [Card; MAX_CARDS],
    len: u8,
}

impl Clone for Hand {
    fn clone(&self) -> Hand {
        Hand {
            cards: self.cards,
            len: self.len,
        }
    }

    /// Copies only the cards in the hand: the memoised enumerator clones a
    /// state per node, and the rest of the array is never read.
    fn clone_from(&mut self, source: &Hand) {
        let len = source.len();
        self.cards[..len].copy_from_slice(&source.cards[..len]);
        self.len = source.len;
    }
}

impl Hand {
    /// The cards in the hand, left to right.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    /// The number of cards in the hand.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl IdiotsDelight {
    /// The game on a `suits x ranks` deck. Errors name the bad parameter.
    pub fn new(suits: u8, ranks: u8) -> Result<IdiotsDelight> {
        let deck = DeckSpec {
            suits,
            ranks,
            copies: 1,
        }
        .validated()?;
        if deck.len() > MAX_CARDS {
            return Err(Error::invalid(
                "suits x ranks",
                format!("{suits}x{ranks}"),
                format!("the deck may have at most {MAX_CARDS} cards"),
            ));
        }
        Ok(IdiotsDelight { deck })
    }

    /// The standard 52-card game.
    pub fn standard() -> IdiotsDelight {
        IdiotsDelight {
            deck: DeckSpec::STANDARD,
        }
    }

    /// The deck.
    pub fn deck(&self) -> DeckSpec {
        self.deck
    }

    /// The number of cards in the deck.
    pub fn n_cards(&self) -> usize {
        self.deck.len()
    }

    /// The number of cards left in the hand for outcome bin `bin`.
    pub fn cards_left(&self, bin: usize) -> usize {
        self.n_cards() % 2 + 2 * bin
    }

    /// Outcome labels: the possible numbers of cards left, `"0"`, `"2"`,
    /// ..., `"n"` (odd numbers for an odd deck).
    pub fn outcome_labels(&self) -> Vec<String> {
        (0..self.n_outcomes())
            .map(|bin| self.cards_left(bin).to_string())
            .collect()
    }

    /// Labels suits and ranks canonically for a memo key: first those in
    /// the hand, in order of first appearance; then the others, those with
    /// more cards still to come first (ties by their own order).
    ///
    /// Why this is sound: the rules only ever ask whether two suits (or two
    /// ranks) are equal, so renaming suits among themselves and ranks among
    /// themselves maps every future deal to one with the same outcome. Any
    /// bijective renaming would do; this one merges most of the states
    /// that are equal up to renaming.
    fn canonical_labels(&self, hand: &Hand, values: &[Card], remaining: &[u8]) -> Labels {
        let mut suit = [u8::MAX; MAX_SUITS as usize];
        let mut rank = [u8::MAX; MAX_RANKS as usize + 1];
        let (mut n_suits, mut n_ranks) = (0u8, 0u8);
        for card in hand.cards() {
            let (s, r) = (usize::from(card.suit()), usize::from(card.rank()));
            if suit[s] == u8::MAX {
                suit[s] = n_suits;
                n_suits += 1;
            }
            if rank[r] == u8::MAX {
                rank[r] = n_ranks;
                n_ranks += 1;
            }
        }
        let mut suit_left = [0u8; MAX_SUITS as usize];
        let mut rank_left = [0u8; MAX_RANKS as usize + 1];
        for (card, &copies) in values.iter().zip(remaining) {
            suit_left[usize::from(card.suit())] += copies;
            rank_left[usize::from(card.rank())] += copies;
        }
        let label_rest =
            |labels: &mut [u8], left: &[u8], range: std::ops::Range<usize>, next: u8| {
                for label in next.. {
                    // The unlabelled value with the most cards to come, lowest
                    // first among equals.
                    let Some(best) = range
                        .clone()
                        .filter(|&v| labels[v] == u8::MAX)
                        .max_by_key(|&v| (left[v], std::cmp::Reverse(v)))
                    else {
                        break;
                    };
                    labels[best] = label;
                }
            };
        label_rest(
            &mut suit,
            &suit_left,
            0..usize::from(self.deck.suits),
            n_suits,
        );
        label_rest(
            &mut rank,
            &rank_left,
            1..usize::from(self.deck.ranks) + 1,
            n_ranks,
        );
        Labels { suit, rank }
    }
}

/// A renaming of suits and ranks (see `canonical_labels`).
struct Labels {
    suit: [u8; MAX_SUITS as usize],
    rank: [u8; MAX_RANKS as usize + 1],
}

impl SequentialGame for IdiotsDelight {
    type State = Hand;
    /// The hand's length, its cards and the set of cards to come, under the
    /// canonical renaming, packed into 128 bits.
    type Key = u128;

    fn n_outcomes(&self) -> usize {
        self.n_cards() / 2 + 1
    }

    fn start(&self) -> Hand {
        Hand {
            cards: [Card::new(1, 0); MAX_CARDS],
            len: 0,
        }
    }

    /// Deals `card` and applies [`discards`] until it discards nothing.
    #[inline]
    fn deal(&self, hand: &mut Hand, card: Card) {
        let mut len = usize::from(hand.len);
        hand.cards[len] = card;
        len += 1;
        while len >= 4 {
            let rightmost = hand.cards[len - 1];
            let three_left = hand.cards[len - 4];
            let gone = usize::from(DISCARDS[usize::from(rightmost.code() ^ three_left.code())]);
            if gone == 0 {
                break;
            }
            // A match: one unpredictable branch per comparison, the least
            // there can be when cards are dealt one at a time. The rightmost
            // card takes the place of the first of the two between: after a
            // suit match (two go) that is where it belongs, and after a rank
            // match (four go) the place is past the end of the hand.
            hand.cards[len - 3] = rightmost;
            len -= gone;
        }
        hand.len = len as u8;
    }

    #[inline]
    fn outcome(&self, hand: &Hand) -> usize {
        usize::from(hand.len) / 2
    }

    fn memo_key(&self, hand: &Hand, values: &[Card], remaining: &[u8]) -> Option<u128> {
        let n = self.n_cards();
        if n > EXACT_MAX_CARDS {
            return None;
        }
        let labels = self.canonical_labels(hand, values, remaining);
        let ranks = usize::from(self.deck.ranks);
        let index = |card: Card| {
            usize::from(labels.suit[usize::from(card.suit())]) * ranks
                + usize::from(labels.rank[usize::from(card.rank())])
        };
        // Five bits hold the hand's length and each card's index (n <= 20),
        // so the key takes at most 5 + 5 * 20 + 20 = 125 bits.
        let mut key = u128::from(hand.len);
        for &card in hand.cards() {
            key = key << 5 | index(card) as u128;
        }
        // One bit per card to come is the whole multiset because the deck
        // has one copy of each card (`new` builds no other).
        let mut to_come = 0u128;
        for (&card, &copies) in values.iter().zip(remaining) {
            if copies > 0 {
                to_come |= 1 << index(card);
            }
        }
        Some(key << n | to_come)
    }
}

// Monte Carlo: eight games at once.
//
// Dealt one card at a time, a 52-card game takes about 75 comparisons, and
// each is a coin (a match about one time in three) that the branch
// predictor cannot call: mispredictions cost more than the rest of the game.
// So the Monte-Carlo driver takes no branch on the cards at all. A game is
// a sequence of steps: each step compares the rightmost card with the card
// three to its left and either discards (a match) or deals the next card
// (no match), chosen by arithmetic and a conditional move. That is exactly
// the order `deal` applies the rule in, since a step deals only when the
// cascade is over. Eight games advance side by side, so while one waits
// for a load the others compute.

/// How many games [`play_lanes`] plays side by side in the Monte-Carlo
/// runner. Measured with the shuffle (AMD EPYC, one core): 4 lanes 241 ns a
/// game, 6 to 10 lanes 158 ns; past 8 the lanes' state no longer fits in
/// registers.
pub const LANES: usize = 8;

/// Blanks under the hand. With five, "the card three to the left of the
/// rightmost" always exists, and the hand never shrinks below them.
const FLOOR: usize = 5;

/// A lane's deck: the cards, then blanks to the end. Indices are bytes, so
/// that the player needs no bounds checks.
pub const LANE_DECK: usize = 256;

/// A lane's hand: the floor, the cards and the blanks dealt, written at
/// most four places past a byte index.
pub const LANE_HAND: usize = 260;

/// The blanks' low bytes. Any two differ in both halves, so two blanks
/// never share a "suit" or "rank"; every blank has `0x100` set, so a blank
/// and a card never match either ([`discards`]).
const BLANKS: [u16; 16] = {
    let mut blanks = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        blanks[i] = 0x100 | (i as u16 * 0x11);
        i += 1;
    }
    blanks
};

/// A lane's state is one word: the hand's length minus 4 in the low byte
/// and the number of cards dealt (blanks included) in the next. A step adds
/// `STEP[rightmost ^ three_left]` to it: no match deals a card (length and
/// dealt both up one), a suit match takes the length down 2, a rank match 4.
const DEALS: u32 = 0x101;
static STEP: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut xor = 0;
    while xor < 512 {
        table[xor] = match discards(xor as u16) {
            0 => DEALS,
            gone => (gone as u32).wrapping_neg(),
        };
        xor += 1;
    }
    table
};

/// Plays the `K` decks in `decks` (the first `n` entries of each; the rest
/// must be blanks, as [`Lanes`] keeps them) side by side and returns the
/// cards left in each game. `hands` is workspace whose first [`FLOOR`]
/// entries must be blanks.
///
/// Guarantee: for every deck, the same result as dealing it with
/// [`IdiotsDelight::deal`] (tested), for any `n` up to [`MAX_CARDS`].
///
/// Why it ends: a lane deals at most `n / 2` discards (each takes two
/// cards or more), so after at most `n + n / 2` steps it has dealt a blank.
/// From then on it is frozen: the blank on top matches nothing, so every
/// step deals another blank on top of it. The loop runs until every lane
/// has dealt a blank, and counts them out of the result.
#[inline]
pub fn play_lanes<const K: usize>(
    hands: &mut [[u16; LANE_HAND]; K],
    decks: &[[u16; LANE_DECK]; K],
    n: usize,
) -> [usize; K] {
    debug_assert!(n <= MAX_CARDS);
    let mut state = [(FLOOR - 4) as u32; K];
    let mut step = |state: &mut [u32; K]| {
        for ((hand, deck), state) in hands.iter_mut().zip(decks).zip(state.iter_mut()) {
            let len_minus_4 = usize::from(*state as u8);
            let dealt = usize::from((*state >> 8) as u8);
            let three_left = hand[len_minus_4];
            let rightmost = hand[len_minus_4 + 3];
            let delta = STEP[usize::from(rightmost ^ three_left) & 511];
            let matched = delta != DEALS;
            // After a suit match the rightmost card moves left over the two
            // discarded; with no match the next card goes on the end. (After
            // a rank match the write lands past the end and is harmless.)
            let place = len_minus_4 + if matched { 1 } else { 4 };
            hand[place] = std::hint::select_unpredictable(matched, rightmost, deck[dealt]);
            *state = state.wrapping_add(delta);
        }
    };
    for _ in 0..n {
        step(&mut state);
    }
    while state.iter().any(|&s| (s >> 8) as usize <= n) {
        step(&mut state);
        step(&mut state);
    }
    state.map(|s| {
        let len = usize::from(s as u8) + 4;
        let blanks_dealt = (s >> 8) as usize - n;
        len - FLOOR - blanks_dealt
    })
}

/// Puts the blanks [`play_lanes`] needs in place: the floor under the hand
/// and, after the `n` cards of the deck, blanks to the end. Those cycle
/// through the other eleven, so the blanks compared (three apart) differ.
fn lay_blanks(hand: &mut [u16; LANE_HAND], deck: &mut [u16; LANE_DECK], n: usize) {
    hand[..FLOOR].copy_from_slice(&BLANKS[..FLOOR]);
    for (i, blank) in deck[n..].iter_mut().enumerate() {
        *blank = BLANKS[FLOOR + i % (BLANKS.len() - FLOOR)];
    }
}

/// The Monte-Carlo runner's scratch for Idiot's Delight: [`LANES`] decks
/// and hands for [`play_lanes`], blanks in place.
#[derive(Clone, Debug)]
pub struct Lanes {
    hands: [[u16; LANE_HAND]; LANES],
    decks: [[u16; LANE_DECK]; LANES],
    /// The lane holding the last game's deck: the next game shuffles a copy
    /// of it (see [`IdiotsDelightSimulation`]).
    last: usize,
}

impl Lanes {
    /// Lanes whose decks all hold `codes` (lane codes of the `n` cards),
    /// blanks in place.
    fn new(codes: &[u16]) -> Box<Lanes> {
        let mut lanes = Box::new(Lanes {
            hands: [[0; LANE_HAND]; LANES],
            decks: [[0; LANE_DECK]; LANES],
            last: 0,
        });
        for (hand, deck) in lanes.hands.iter_mut().zip(&mut lanes.decks) {
            deck[..codes.len()].copy_from_slice(codes);
            lay_blanks(hand, deck, codes.len());
        }
        lanes
    }
}

/// The lane code of a card: its [`Card::code`], widened so that blanks fit.
fn lane_code(card: Card) -> u16 {
    u16::from(card.code())
}

/// The exhaustive enumerator's player for Idiot's Delight: the Monte-Carlo
/// runner's driver, [`play_lanes`], fed [`LANES`] arrangements at a time, so
/// that exact counts and Monte Carlo come from the same play function.
#[derive(Clone, Copy, Debug)]
pub struct LanePlayer {
    game: IdiotsDelight,
}

impl IdiotsDelight {
    /// The player that plays arrangements as the Monte-Carlo runner plays
    /// deals (see [`LanePlayer`]).
    pub fn lane_player(&self) -> LanePlayer {
        LanePlayer { game: *self }
    }
}

/// A batch being filled: the lanes and how many hold a new arrangement.
pub struct LaneBatch {
    lanes: Box<Lanes>,
    filled: usize,
}

impl LanePlayer {
    /// Plays the batch and counts its first `filled` lanes (the rest hold
    /// older arrangements, already counted).
    fn play_batch(&self, batch: &mut LaneBatch, tally: &mut [u64]) {
        let lanes = &mut *batch.lanes;
        let left = play_lanes(&mut lanes.hands, &lanes.decks, self.game.n_cards());
        for cards_left in &left[..batch.filled] {
            tally[cards_left / 2] += 1;
        }
        batch.filled = 0;
    }
}

impl Player for LanePlayer {
    type Workspace = LaneBatch;

    fn workspace(&self) -> LaneBatch {
        let sorted: Vec<u16> = self
            .game
            .deck
            .sorted_cards()
            .into_iter()
            .map(lane_code)
            .collect();
        LaneBatch {
            lanes: Lanes::new(&sorted),
            filled: 0,
        }
    }

    #[inline]
    fn add(&self, batch: &mut LaneBatch, deal: &[Card], tally: &mut [u64]) {
        let deck = &mut batch.lanes.decks[batch.filled];
        for (code, &card) in deck.iter_mut().zip(deal) {
            *code = lane_code(card);
        }
        batch.filled += 1;
        if batch.filled == LANES {
            self.play_batch(batch, tally);
        }
    }

    fn flush(&self, batch: &mut LaneBatch, tally: &mut [u64]) {
        if batch.filled > 0 {
            self.play_batch(batch, tally);
        }
    }
}

/// Monte Carlo of the game: shuffle the deck as `shuffle` says, then play.
///
/// Every game shuffles the previous game's deck (the first game of a chunk,
/// the sorted deck): `naive-carry` needs that by definition, and the uniform
/// shuffle gives every order equally likely whatever it starts from. The
/// runner plays [`LANES`] games at once, with exactly the draws, in the
/// same order, of playing them one by one.
#[derive(Clone, Debug)]
pub struct IdiotsDelightSimulation {
    game: IdiotsDelight,
    shuffle: Shuffle,
    sorted: Vec<u16>,
}

impl IdiotsDelightSimulation {
    /// A simulation of `game` with decks shuffled by `shuffle`.
    pub fn new(game: IdiotsDelight, shuffle: Shuffle) -> IdiotsDelightSimulation {
        IdiotsDelightSimulation {
            game,
            shuffle,
            sorted: game
                .deck
                .sorted_cards()
                .into_iter()
                .map(lane_code)
                .collect(),
        }
    }

    /// Shuffles the next game's deck into lane `lane`: a copy of the last
    /// game's deck, shuffled.
    #[inline]
    fn shuffle_into(&self, rng: &mut GameRng, lanes: &mut Lanes, lane: usize) {
        let n = self.sorted.len();
        if lanes.last != lane {
            let last = lanes.decks[lanes.last];
            lanes.decks[lane][..n].copy_from_slice(&last[..n]);
        }
        self.shuffle
            .apply(rng, &mut lanes.decks[lane][..n], &self.sorted);
        lanes.last = lane;
    }
}

impl Simulation for IdiotsDelightSimulation {
    /// The lanes, with the sorted deck in lane 0 at the start of every chunk.
    /// The deck is carried from game to game within a chunk only, so that
    /// counts stay independent of threads and shards.
    type Scratch = Box<Lanes>;

    fn n_bins(&self) -> usize {
        self.game.n_outcomes()
    }

    fn new_scratch(&self) -> Box<Lanes> {
        Lanes::new(&self.sorted)
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, lanes: &mut Box<Lanes>, counts: &mut [u64]) {
        self.shuffle_into(rng, lanes, 0);
        let hand = std::array::from_mut(&mut lanes.hands[0]);
        let [left] = play_lanes(
            hand,
            std::array::from_ref(&lanes.decks[0]),
            self.sorted.len(),
        );
        counts[left / 2] += 1;
    }

    fn trials(&self, rng: &mut GameRng, lanes: &mut Box<Lanes>, n_trials: u64, counts: &mut [u64]) {
        let n = self.sorted.len();
        let mut remaining = n_trials;
        while remaining > 0 {
            let batch = remaining.min(LANES as u64) as usize;
            for lane in 0..batch {
                self.shuffle_into(rng, lanes, lane);
            }
            // A short last batch plays every lane anyway (the others hold
            // old decks) and counts only its own.
            let left = play_lanes(&mut lanes.hands, &lanes.decks, n);
            for cards_left in &left[..batch] {
                counts[cards_left / 2] += 1;
            }
            remaining -= batch as u64;
        }
    }
}

/// The SAS paper's table (RULES.md section 1): cards left and the number
/// of games, out of 1,000,000 played with the program's naive shuffle,
/// that ended with that many. This is the seed's published figure, kept
/// here so that `compare --published sas` can test deckodds against it; it
/// is never used as a result.
pub const SAS_PAPER_COUNTS: [(u8, u64); 27] = [
    (0, 7057),
    (2, 46144),
    (4, 80382),
    (6, 93140),
    (8, 98116),
    (10, 99805),
    (12, 98303),
    (14, 93184),
    (16, 85374),
    (18, 74638),
    (20, 62479),
    (22, 49762),
    (24, 37933),
    (26, 27603),
    (28, 18783),
    (30, 12023),
    (32, 7305),
    (34, 4110),
    (36, 2225),
    (38, 968),
    (40, 429),
    (42, 167),
    (44, 53),
    (46, 12),
    (48, 3),
    (50, 1),
    (52, 1),
];

/// An up-front estimate of what exact enumeration of a deck costs.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactCost {
    /// Wall-clock seconds on the reference machine (2 cores).
    pub seconds: f64,
    /// Bytes of memo.
    pub memory_bytes: u64,
    /// Where the figures come from, for the user.
    pub basis: &'static str,
}

impl IdiotsDelight {
    /// Estimates the memoised enumeration's time and memory for this deck.
    ///
    /// The state space depends on the deck's shape as much as on its size:
    /// with two suits, suit matches are so frequent that hands stay short,
    /// while balanced decks keep long hands. So the estimate is an
    /// exponential fit per `min(suits, ranks)`, through the decks measured
    /// (see README, "Idiot's Delight: exact costs"); it is meant to tell
    /// minutes from days, not to be precise.
    pub fn exact_cost(&self) -> ExactCost {
        let n = self.n_cards() as f64;
        let narrow = self.deck.suits.min(self.deck.ranks);
        // Anchored at 2x10 (4.7 s), 3x5 and 5x3 (2.0 s, 1.7 s) and 4x4
        // (35 s) on two threads. The growth per card of two-suit (or
        // two-rank) decks comes from 2x5 to 2x10; for the others it is set
        // from 3x6, which was still running after 7.5 minutes and 13 GiB
        // (estimate at least 8x per card; better to refuse too much than
        // too little, --force exists).
        let seconds = match narrow {
            1 | 2 => 5e-4 * 2.5f64.powf(n - 10.0),
            3 => 2.0 * 8.0f64.powf(n - 15.0),
            _ => 35.0 * 8.0f64.powf(n - 16.0),
        };
        // The memo grew at 64-75 MB per second of run time on those decks.
        let memory_bytes = (seconds * 80e6).min(u64::MAX as f64) as u64;
        ExactCost {
            seconds,
            memory_bytes,
            basis: "extrapolated from decks measured on a 2-core machine",
        }
    }

    /// Estimates the exhaustive enumeration's time in seconds on the
    /// reference machine (2 cores): every arrangement of the deck at the
    /// time one took there.
    pub fn exhaustive_seconds(&self) -> f64 {
        let deck = self.deck().sorted_cards();
        arrangements::n_arrangements(&deck)
            .to_f64()
            .unwrap_or(f64::INFINITY)
            * EXHAUSTIVE_SECONDS_PER_ARRANGEMENT
    }

    /// The deck's shape, `SUITSxRANKS` (`4x13`), as messages and titles
    /// name it.
    pub fn deck_name(&self) -> String {
        format!("{}x{}", self.deck.suits, self.deck.ranks)
    }
}

/// Seconds per arrangement of the exhaustive enumerator on the reference
/// machine (two threads), for the up-front estimate; measured on 12-card
/// decks (4 x 3: 479,001,600 arrangements in 8.0 s).
const EXHAUSTIVE_SECONDS_PER_ARRANGEMENT: f64 = 17e-9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;
    use crate::engine::ArrangementCounts;
    use crate::engine::NoProgress;
    use crate::engine::Shard;
    use crate::engine::arrangements::tests::heap_permutations;
    use crate::engine::arrangements::{count_arrangements, n_arrangements};
    use crate::engine::sequential::{SequentialParams, count_outcomes};
    use crate::rng::{shuffle, stream_rng};
    use num_bigint::BigUint;
    use proptest::strategy::Strategy;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|c| parse_card(c).unwrap())
            .collect()
    }

    fn hand_after(deal: &str) -> Vec<Card> {
        let game = IdiotsDelight::standard();
        let mut hand = game.start();
        for card in cards(deal) {
            game.deal(&mut hand, card);
        }
        hand.cards().to_vec()
    }

    #[test]
    fn the_papers_worked_example() {
        // The SAS paper's illustration: 4H 9C QD 6S; 3C matches 9C's suit
        // and sweeps QD 6S; JD 9S then match 9C's rank and sweep four.
        assert_eq!(hand_after("4H 9C QD 6S"), cards("4H 9C QD 6S"));
        assert_eq!(hand_after("4H 9C QD 6S 3C"), cards("4H 9C 3C"));
        assert_eq!(hand_after("4H 9C QD 6S 3C JD 9S"), cards("4H"));
    }

    #[test]
    fn a_rank_match_discards_four_a_suit_match_two() {
        // With one copy of each card a pair cannot match in both suit and
        // rank, so the order of the two tests never decides anything here.
        assert_eq!(hand_after("2H 3C 4D 2S"), Vec::<Card>::new());
        assert_eq!(hand_after("2H 3C 4D 9H"), cards("2H 9H"));
    }

    #[test]
    fn suit_discards_cascade() {
        // 9H sweeps 7S 3D (matching 6H), lands next to 6H and is compared
        // again, now with 2H: another suit match sweeps 5C 6H.
        assert_eq!(hand_after("2H 5C 6H 7S 3D"), cards("2H 5C 6H 7S 3D"));
        assert_eq!(hand_after("2H 5C 6H 7S 3D 9H"), cards("2H 9H"));
    }

    #[test]
    fn play_agrees_with_deal() {
        let game = IdiotsDelight::standard();
        let deal = cards("4H 9C QD 6S 3C JD 9S");
        assert_eq!(game.cards_left(game.play(&deal)), 0);
        // One suit only: whatever the order, the fourth card sweeps two,
        // and so does every second card after it, so 13 cards leave 3.
        let one_suit = IdiotsDelight::new(1, 13).unwrap();
        let deal = one_suit.deck().sorted_cards();
        assert_eq!(one_suit.cards_left(one_suit.play(&deal)), 3);
    }

    #[test]
    fn labels_have_the_decks_parity() {
        let game = IdiotsDelight::new(3, 3).unwrap();
        assert_eq!(game.outcome_labels(), ["1", "3", "5", "7", "9"]);
        assert_eq!(
            IdiotsDelight::standard().outcome_labels().last().unwrap(),
            "52"
        );
    }

    #[test]
    fn keys_merge_renamed_states_only() {
        let game = IdiotsDelight::new(3, 3).unwrap();
        let values = game.deck.sorted_cards();
        let key = |deal: &[Card]| {
            let mut hand = game.start();
            let mut remaining = vec![1u8; values.len()];
            for &card in deal {
                game.deal(&mut hand, card);
                remaining[values.iter().position(|&v| v == card).unwrap()] = 0;
            }
            game.memo_key(&hand, &values, &remaining).unwrap()
        };
        let c = |rank, suit| Card::new(rank, suit);
        // Swapping suits 0 and 1 and ranks 1 and 3 everywhere: same key.
        assert_eq!(key(&[c(1, 0), c(2, 1)]), key(&[c(3, 1), c(2, 0)]));
        // A different pattern of equalities: different keys.
        assert_ne!(key(&[c(1, 0), c(2, 1)]), key(&[c(1, 0), c(2, 0)]));
        assert_ne!(key(&[c(1, 0), c(2, 1)]), key(&[c(1, 0), c(1, 1)]));
        // Same hand, different cards to come (2 of suit 2 discarded vs
        // still to come) must differ.
        assert_ne!(
            key(&[c(1, 0), c(2, 1), c(3, 2), c(1, 1), c(3, 1)]),
            key(&[c(1, 0), c(2, 1), c(2, 2), c(1, 1), c(3, 1)])
        );
    }

    #[test]
    fn the_sas_table_covers_every_outcome_once_and_a_million_games() {
        let labels = IdiotsDelight::standard().outcome_labels();
        let written: Vec<String> = SAS_PAPER_COUNTS
            .iter()
            .map(|(l, _)| l.to_string())
            .collect();
        assert_eq!(written, labels);
        assert_eq!(
            SAS_PAPER_COUNTS.iter().map(|(_, c)| c).sum::<u64>(),
            1_000_000
        );
    }

    /// The table both drivers read says what `Card::same_suit` and
    /// `Card::same_rank` say, suit first, for every pair of cards of every
    /// shape; blanks match nothing, not even each other.
    #[test]
    fn the_tables_are_the_rule() {
        let every_card: Vec<Card> = (0..MAX_SUITS)
            .flat_map(|suit| (1..=MAX_RANKS).map(move |rank| Card::new(rank, suit)))
            .collect();
        for &a in &every_card {
            for &b in &every_card {
                let rule = if a.same_suit(b) {
                    2
                } else if a.same_rank(b) {
                    4
                } else {
                    0
                };
                let xor = a.code() ^ b.code();
                assert_eq!(usize::from(DISCARDS[usize::from(xor)]), rule, "{a} {b}");
                let step = STEP[usize::from(xor)];
                assert_eq!(step == DEALS, rule == 0, "{a} {b}");
                assert_eq!(step.wrapping_neg() as usize == rule, rule != 0, "{a} {b}");
            }
        }
        for (i, &blank) in BLANKS.iter().enumerate() {
            for &card in &every_card {
                assert_eq!(STEP[usize::from(blank ^ u16::from(card.code()))], DEALS);
            }
            for &other in &BLANKS[i + 1..] {
                assert_eq!(STEP[usize::from(blank ^ other)], DEALS);
            }
        }
    }

    /// Cards left when `deal` is played in one lane of [`play_lanes`].
    fn play_one_lane(deal: &[Card]) -> usize {
        let mut hand = [[0u16; LANE_HAND]];
        let mut deck = [[0u16; LANE_DECK]];
        for (code, card) in deck[0].iter_mut().zip(deal) {
            *code = u16::from(card.code());
        }
        lay_blanks(&mut hand[0], &mut deck[0], deal.len());
        play_lanes(&mut hand, &deck, deal.len())[0]
    }

    /// The two drivers agree on every arrangement of every deck of up to 9
    /// cards (1 x 1 through 9 x 1, 3 x 3 among them).
    #[test]
    fn lanes_and_deal_agree_on_every_arrangement_up_to_9_cards() {
        for suits in 1..=9u8 {
            for ranks in 1..=9u8 {
                if usize::from(suits) * usize::from(ranks) > 9 {
                    continue;
                }
                let game = IdiotsDelight::new(suits, ranks).unwrap();
                let by_deal = |order: &[Card]| {
                    let bin = game.play(order);
                    assert_eq!(game.cards_left(bin), play_one_lane(order), "{order:?}");
                    bin
                };
                let deck = game.deck().sorted_cards();
                count_arrangements(&deck, game.n_outcomes(), by_deal, Shard::WHOLE, &NoProgress)
                    .unwrap();
            }
        }
    }

    /// The runner's batches of eight give exactly the counts of playing the
    /// same games one at a time, for every shuffle, including a short last
    /// batch.
    #[test]
    fn batches_count_what_single_trials_count() {
        for (suits, ranks) in [(4, 13), (3, 3)] {
            let game = IdiotsDelight::new(suits, ranks).unwrap();
            for shuffle in Shuffle::ALL {
                let simulation = IdiotsDelightSimulation::new(game, shuffle);
                let n_trials = 1003;
                let mut rng = stream_rng(7, 0, 0);
                let mut lanes = simulation.new_scratch();
                let mut batched = vec![0u64; simulation.n_bins()];
                simulation.trials(&mut rng, &mut lanes, n_trials, &mut batched);
                let mut rng = stream_rng(7, 0, 0);
                let mut lanes = simulation.new_scratch();
                let mut single = vec![0u64; simulation.n_bins()];
                for _ in 0..n_trials {
                    simulation.trial(&mut rng, &mut lanes, &mut single);
                }
                assert_eq!(batched, single, "{suits}x{ranks} {}", shuffle.name());
            }
        }
    }

    /// A deck shape (suits, ranks) of at most [`MAX_CARDS`] cards and a
    /// seed for shuffling it.
    fn shape_and_seed() -> impl Strategy<Value = (u8, u8, u64)> {
        (1..=MAX_SUITS, 1..=MAX_RANKS, proptest::num::u64::ANY)
            .prop_filter("at most MAX_CARDS cards", |&(suits, ranks, _)| {
                usize::from(suits) * usize::from(ranks) <= MAX_CARDS
            })
    }

    proptest::proptest! {
        /// Eight random deals of a random shape, played side by side, give
        /// what each gives dealt one card at a time.
        #[test]
        fn eight_lanes_play_as_deal_plays((suits, ranks, seed) in shape_and_seed()) {
            let game = IdiotsDelight::new(suits, ranks).unwrap();
            let n = game.n_cards();
            let mut rng = stream_rng(seed, 0, 0);
            let mut hands = [[0u16; LANE_HAND]; LANES];
            let mut decks = [[0u16; LANE_DECK]; LANES];
            let mut deals = Vec::new();
            for (hand, deck) in hands.iter_mut().zip(&mut decks) {
                let mut deal = game.deck().sorted_cards();
                shuffle(&mut rng, &mut deal);
                for (code, card) in deck.iter_mut().zip(&deal) {
                    *code = u16::from(card.code());
                }
                lay_blanks(hand, deck, n);
                deals.push(deal);
            }
            let left = play_lanes(&mut hands, &decks, n);
            for (deal, left) in deals.iter().zip(left) {
                proptest::prop_assert_eq!(game.cards_left(game.play(deal)), left);
            }
        }

        /// Whatever the deal: after every card the hand is stable (no card
        /// matches the one three to its left in suit or rank), it is a
        /// subsequence of the cards dealt, in order, and the number of cards
        /// left has the parity of the number dealt.
        #[test]
        fn hands_stay_stable_ordered_and_of_the_right_parity(
            deal in proptest::strategy::Just(DeckSpec::STANDARD.sorted_cards()).prop_shuffle()
        ) {
            let game = IdiotsDelight::standard();
            let mut hand = game.start();
            for (dealt, &card) in deal.iter().enumerate() {
                game.deal(&mut hand, card);
                let cards = hand.cards();
                for j in 3..cards.len() {
                    proptest::prop_assert!(!cards[j].same_suit(cards[j - 3]));
                    proptest::prop_assert!(!cards[j].same_rank(cards[j - 3]));
                }
                let mut rest = deal[..=dealt].iter();
                proptest::prop_assert!(cards.iter().all(|c| rest.any(|d| d == c)));
                proptest::prop_assert_eq!(cards.len() % 2, (dealt + 1) % 2);
            }
            proptest::prop_assert_eq!(game.play(&deal), hand.len() / 2);
        }
    }

    // -----------------------------------------------------------------
    // The engines through this game: its play function, its memo key and
    // its lanes against playing every permutation.

    fn memo_from(min_memo_remaining: usize) -> SequentialParams {
        SequentialParams {
            min_memo_remaining,
            ..SequentialParams::default()
        }
    }

    fn memoised(game: &IdiotsDelight, params: &SequentialParams) -> ArrangementCounts {
        let deck = game.deck().sorted_cards();
        count_outcomes(game, &deck, params, &NoProgress).unwrap().0
    }

    fn factorial(n: usize) -> BigUint {
        (1..=n as u64).map(BigUint::from).product()
    }

    /// The memoised enumerator (at every memo depth: its key merges
    /// renamed states) and the exhaustive one (through the plain play
    /// function) count what playing every permutation counts.
    #[test]
    fn both_enumerators_count_what_playing_every_permutation_counts() {
        for (suits, ranks) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (4, 2),
            (1, 5),
            (5, 1),
        ] {
            let game = IdiotsDelight::new(suits, ranks).unwrap();
            let mut deck = game.deck().sorted_cards();
            // Distinct cards, so distinct arrangements are permutations.
            let mut expected = vec![0u64; game.n_outcomes()];
            heap_permutations(&mut deck, &mut |d| expected[game.play(d)] += 1);
            let expected: Vec<BigUint> = expected.into_iter().map(BigUint::from).collect();
            for params in [
                SequentialParams::default(),
                memo_from(0),
                memo_from(2),
                memo_from(usize::MAX),
            ] {
                let counts = memoised(&game, &params);
                assert_eq!(counts.counts, expected, "{suits}x{ranks} {params:?}");
                assert_eq!(counts.total, factorial(deck.len()), "{suits}x{ranks}");
            }
            let exhaustive = count_arrangements(
                &deck,
                game.n_outcomes(),
                |d| game.play(d),
                Shard::WHOLE,
                &NoProgress,
            )
            .unwrap();
            assert_eq!(exhaustive.counts, expected, "{suits}x{ranks}");
            assert_eq!(exhaustive.total, n_arrangements(&deck));
        }
    }

    #[test]
    fn memo_depth_does_not_change_counts() {
        for (suits, ranks) in [(3, 3), (2, 5), (5, 2)] {
            let game = IdiotsDelight::new(suits, ranks).unwrap();
            let with_memo = memoised(&game, &SequentialParams::default());
            assert_eq!(
                with_memo,
                memoised(&game, &memo_from(usize::MAX)),
                "{suits}x{ranks}"
            );
        }
        // 12 cards without a memo take too long for a unit test; memoising
        // from 2, 5 or 8 cards to come shares very different subtrees.
        let game = IdiotsDelight::new(4, 3).unwrap();
        let reference = memoised(&game, &SequentialParams::default());
        for min_memo_remaining in [2, 8] {
            assert_eq!(memoised(&game, &memo_from(min_memo_remaining)), reference);
        }
    }

    /// The counts of 12 and 16 cards, pinned; the memo is used and has
    /// room.
    #[test]
    fn known_totals() {
        let game = IdiotsDelight::new(4, 3).unwrap();
        let deck = game.deck().sorted_cards();
        let (counts, stats) =
            count_outcomes(&game, &deck, &SequentialParams::default(), &NoProgress).unwrap();
        let big =
            |counts: &[u64]| -> Vec<BigUint> { counts.iter().map(|&c| BigUint::from(c)).collect() };
        assert_eq!(
            counts.counts,
            big(&[
                84792672, 170633376, 146187648, 49062672, 21049200, 5121792, 2154240
            ])
        );
        assert_eq!(counts.total, factorial(12));
        assert!(stats.memo_entries > 0 && stats.memo_hits > 0 && !stats.memo_full);
        assert!(stats.memo_bytes >= stats.memo_entries * 100);

        let counts = memoised(
            &IdiotsDelight::new(2, 8).unwrap(),
            &SequentialParams::default(),
        );
        assert_eq!(
            counts.counts,
            big(&[
                1492744861440,
                9114848709120,
                7015604117760,
                2463770856960,
                604716698880,
                167288163840,
                55404357120,
                7261067520,
                1151055360
            ])
        );
        assert_eq!(counts.total, factorial(16));
    }
}
