//! Random streams, unbiased bounded integers, and shuffles.
//!
//! Reproducibility contract: the generator of chunk `chunk` of stream
//! `stream` under master seed `seed` is a pure function of those three
//! numbers ([`stream_rng`]). The Monte-Carlo runner gives each chunk its own
//! generator, so results do not depend on which thread ran which chunk.
//! Changing anything here changes every published Monte-Carlo figure; the
//! tests pin the first outputs.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::error::{Error, Result};

/// The generator every game uses: xoshiro256++ (fast, 256 bits of state,
/// passes BigCrush).
pub type GameRng = Xoshiro256PlusPlus;

/// The SplitMix64 finaliser: a bijection on `u64` that spreads every input
/// bit over every output bit.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator for chunk `chunk` of stream `stream` of a run seeded with
/// `seed`.
///
/// Streams separate independent parts of one run (for blackjack, one stream
/// per upcard). The three numbers are hashed together and expanded to 256
/// bits of state by SplitMix64, so neighbouring chunks and streams get
/// unrelated generators.
pub fn stream_rng(seed: u64, stream: u64, chunk: u64) -> GameRng {
    let mut key = mix64(seed ^ 0x6a09_e667_f3bc_c909);
    key = mix64(key ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    key = mix64(key ^ chunk.wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
    GameRng::seed_from_u64(key)
}

/// A uniform integer in `0..range`, unbiased, by Lemire's multiply-shift
/// method with rejection ("Fast random integer generation in an interval",
/// 2019). Costs one 64-bit draw almost always; `range` must be at least 1.
#[inline]
pub fn bounded<R: Rng + ?Sized>(rng: &mut R, range: u32) -> u32 {
    debug_assert!(range > 0);
    let range = u64::from(range);
    let mut product = u64::from(rng.next_u32()) * range;
    let mut low = product as u32;
    if u64::from(low) < range {
        // Rejection zone: 2^32 mod range values of the low word would bias
        // the result; redraw while we land in it.
        let threshold = (range as u32).wrapping_neg() % range as u32;
        while low < threshold {
            product = u64::from(rng.next_u32()) * range;
            low = product as u32;
        }
    }
    (product >> 32) as u32
}

/// Shuffles `items` uniformly: Fisher-Yates from the back, each of the `n!`
/// orders equally likely.
///
/// The swap indices are drawn two at a time from one 64-bit number
/// ([`bounded_pair`]), which halves the generator calls; this is the
/// batched method of Brackett-Rozinsky and Lemire ("Batched ranged random
/// integer generation", 2024), and the shuffle dominates a 52-card game's
/// cost.
#[inline]
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    let mut remaining = items.len();
    while remaining > 2 {
        let (j1, j2) = bounded_pair(rng, remaining as u64, remaining as u64 - 1);
        items.swap(remaining - 1, j1);
        items.swap(remaining - 2, j2);
        remaining -= 2;
    }
    if remaining == 2 {
        let j = bounded(rng, 2) as usize;
        items.swap(1, j);
    }
}

/// Two independent uniform integers in `0..range1` and `0..range2` from one
/// 64-bit draw (almost always): multiply the draw by `range1`, take the high
/// word, multiply the low word by `range2`, take the high word; reject when
/// the final low word falls in the `2^64 mod (range1 * range2)` values that
/// would bias the pair. Requires `range1 * range2 <= 2^32`, which keeps the
/// rejection rare (below 2^-32).
#[inline]
fn bounded_pair<R: Rng + ?Sized>(rng: &mut R, range1: u64, range2: u64) -> (usize, usize) {
    debug_assert!(range1 >= 1 && range2 >= 1 && range1 * range2 <= 1 << 32);
    let product = range1 * range2;
    loop {
        let first = u128::from(rng.next_u64()) * u128::from(range1);
        let second = u128::from(first as u64) * u128::from(range2);
        let low = second as u64;
        if low < product && low < product.wrapping_neg() % product {
            continue;
        }
        return ((first >> 64) as usize, (second >> 64) as usize);
    }
}

/// Draws the card at `position` of a partial Fisher-Yates shuffle: swaps a
/// uniform choice from `items[position..]` into `items[position]` and
/// returns it.
///
/// Drawing positions 0, 1, 2, ... gives a uniform sample without
/// replacement, in uniform order, at the cost of only the cards drawn. The
/// slice stays a permutation of its contents, so it can be reused for the
/// next deal without resetting.
#[inline]
pub fn draw<T: Copy, R: Rng + ?Sized>(rng: &mut R, items: &mut [T], position: usize) -> T {
    let remaining = items.len() - position;
    let j = position + bounded(rng, remaining as u32) as usize;
    items.swap(position, j);
    items[position]
}

/// The SAS paper's naive shuffle (RULES.md, "Shuffles"): for each position
/// `i`, swap card `i` with a card chosen uniformly from the whole deck.
///
/// It is biased (`n^n` equally likely swap sequences cannot map evenly onto
/// `n!` orders); it exists to measure that bias.
#[inline]
pub fn naive_shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    let n = items.len() as u32;
    for i in 0..items.len() {
        let j = bounded(rng, n) as usize;
        items.swap(i, j);
    }
}

/// How a deck is shuffled before each game (RULES.md, "Shuffles").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// Fisher-Yates: every order equally likely. The default everywhere.
    Uniform,
    /// The naive shuffle applied to the sorted deck before every game,
    /// which exposes its bias.
    Naive,
    /// The naive shuffle applied to the previous game's deck, as the SAS
    /// program does.
    NaiveCarry,
}

impl Shuffle {
    /// Every shuffle, in the order `--help` lists them.
    pub const ALL: [Shuffle; 3] = [Shuffle::Uniform, Shuffle::Naive, Shuffle::NaiveCarry];

    /// Parses `uniform`, `naive` or `naive-carry`.
    pub fn parse(text: &str) -> Result<Shuffle> {
        Shuffle::ALL
            .into_iter()
            .find(|shuffle| shuffle.name() == text)
            .ok_or_else(|| Error::invalid("shuffle", text, "must be uniform, naive or naive-carry"))
    }

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Shuffle::Uniform => "uniform",
            Shuffle::Naive => "naive",
            Shuffle::NaiveCarry => "naive-carry",
        }
    }

    /// Shuffles `deck` for the next game. `sorted` is the deck in sorted
    /// order (the same cards), which `Naive` starts from every time;
    /// `Uniform` and `NaiveCarry` start from whatever order `deck` is in
    /// (for `Uniform` that makes no difference).
    #[inline]
    pub fn apply<T: Copy, R: Rng + ?Sized>(self, rng: &mut R, deck: &mut [T], sorted: &[T]) {
        match self {
            Shuffle::Uniform => shuffle(rng, deck),
            Shuffle::Naive => {
                deck.copy_from_slice(sorted);
                naive_shuffle(rng, deck);
            }
            Shuffle::NaiveCarry => naive_shuffle(rng, deck),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_pinned() {
        // These values fix the stream contract: if they change, every
        // published Monte-Carlo figure changes with them.
        let first = |seed, stream, chunk| stream_rng(seed, stream, chunk).next_u64();
        assert_eq!(first(1, 0, 0), 0xc9a6_2b46_387d_a89a);
        assert_eq!(first(1, 0, 1), 0x81f9_4fc3_3d2a_0bee);
        assert_eq!(first(1, 1, 0), 0xad15_ef74_81d7_0076);
        assert_eq!(first(2, 0, 0), 0xb9b0_6b18_ca4b_5c28);
    }

    #[test]
    fn bounded_covers_its_range_uniformly() {
        // Chi-square over 7 bins with 70,000 draws; the 1e-6 critical value
        // for 6 degrees of freedom is 35.9, so this fails only on a real bias.
        let mut rng = stream_rng(42, 0, 0);
        let mut counts = [0u64; 7];
        for _ in 0..70_000 {
            counts[bounded(&mut rng, 7) as usize] += 1;
        }
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 35.9, "{counts:?} chi-square {chi}");
    }

    #[test]
    fn bounded_handles_extreme_ranges() {
        let mut rng = stream_rng(7, 0, 0);
        for _ in 0..1000 {
            assert_eq!(bounded(&mut rng, 1), 0);
            assert!(bounded(&mut rng, u32::MAX) < u32::MAX);
        }
    }

    /// Counts how often each of the 6 orders of 3 items comes out.
    fn order_counts(shuffler: fn(&mut GameRng, &mut [u8]), trials: u32) -> [u64; 6] {
        let mut rng = stream_rng(3, 0, 0);
        let mut counts = [0u64; 6];
        for _ in 0..trials {
            let mut items = [0u8, 1, 2];
            shuffler(&mut rng, &mut items);
            let index = match items {
                [0, 1, 2] => 0,
                [0, 2, 1] => 1,
                [1, 0, 2] => 2,
                [1, 2, 0] => 3,
                [2, 0, 1] => 4,
                _ => 5,
            };
            counts[index] += 1;
        }
        counts
    }

    #[test]
    fn shuffle_is_uniform_over_orders() {
        let counts = order_counts(shuffle, 60_000);
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        // 1e-6 critical value for 5 degrees of freedom is 33.4.
        assert!(chi < 33.4, "{counts:?}");
    }

    #[test]
    fn shuffle_of_four_is_uniform_over_its_24_orders() {
        // Four items take one pair of indices and one single index, so this
        // covers both paths. 1e-6 critical value for 23 degrees of freedom
        // is 58.7.
        let mut rng = stream_rng(4, 0, 0);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..240_000 {
            let mut items = [0u8, 1, 2, 3];
            shuffle(&mut rng, &mut items);
            *counts.entry(items).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), 24);
        let chi: f64 = counts
            .values()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 58.7, "{counts:?}");
    }

    #[test]
    fn bounded_pair_is_uniform_over_pairs() {
        // 7 x 5 = 35 cells, 350,000 draws; 1e-6 critical value for 34
        // degrees of freedom is 76.2.
        let mut rng = stream_rng(8, 0, 0);
        let mut counts = [[0u64; 5]; 7];
        for _ in 0..350_000 {
            let (a, b) = bounded_pair(&mut rng, 7, 5);
            counts[a][b] += 1;
        }
        let chi: f64 = counts
            .iter()
            .flatten()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 76.2, "{counts:?}");
    }

    #[test]
    fn naive_shuffle_is_biased_as_theory_says() {
        // For 3 cards the 27 swap sequences give the orders 123, 132, 213,
        // 231, 312, 321 with weights 4, 5, 5, 5, 4, 4 (out of 27).
        let counts = order_counts(naive_shuffle, 270_000);
        let expected = [4.0, 5.0, 5.0, 5.0, 4.0, 4.0].map(|w| w * 10_000.0);
        let chi: f64 = counts
            .iter()
            .zip(expected)
            .map(|(&c, e)| (c as f64 - e).powi(2) / e)
            .sum();
        assert!(chi < 33.4, "{counts:?}");
    }

    #[test]
    fn shuffles_parse_by_name() {
        for shuffle in Shuffle::ALL {
            assert_eq!(Shuffle::parse(shuffle.name()).unwrap(), shuffle);
        }
        assert_eq!(
            Shuffle::parse("riffle").unwrap_err().to_string(),
            "shuffle riffle: must be uniform, naive or naive-carry"
        );
    }

    #[test]
    fn naive_restarts_from_sorted_and_carry_does_not() {
        let sorted = [0u8, 1, 2, 3, 4];
        let run = |shuffle: Shuffle| {
            let mut rng = stream_rng(11, 0, 0);
            let mut deck = sorted;
            let first = {
                shuffle.apply(&mut rng, &mut deck, &sorted);
                deck
            };
            shuffle.apply(&mut rng, &mut deck, &sorted);
            (first, deck)
        };
        // Same generator, same first game; the second game differs only in
        // where the naive shuffle starts.
        let (naive_first, naive_second) = run(Shuffle::Naive);
        let (carry_first, carry_second) = run(Shuffle::NaiveCarry);
        assert_eq!(naive_first, carry_first);
        let mut rng = stream_rng(11, 0, 0);
        let mut expected = sorted;
        naive_shuffle(&mut rng, &mut expected);
        let mut again = sorted;
        naive_shuffle(&mut rng, &mut again);
        assert_eq!(naive_second, again);
        let mut carried = expected;
        let mut rng = stream_rng(11, 0, 0);
        naive_shuffle(&mut rng, &mut [0u8; 5]);
        naive_shuffle(&mut rng, &mut carried);
        assert_eq!(carry_second, carried);
    }

    #[test]
    fn draw_keeps_a_permutation() {
        let mut rng = stream_rng(5, 0, 0);
        let mut items: Vec<u8> = (0..10).collect();
        for round in 0..100 {
            for position in 0..(round % 10) {
                draw(&mut rng, &mut items, position);
            }
            let mut sorted = items.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..10).collect::<Vec<u8>>());
        }
    }
}
