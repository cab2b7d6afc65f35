//! The exact distribution of the naive shuffle, for tiny decks.
//!
//! # The shuffle
//!
//! The SAS paper's naive shuffle (RULES.md, "Shuffles"; `crate::rng::
//! naive_shuffle`): starting from an order `start`, for `i` in `0..n`, swap
//! position `i` with position `j`, `j` uniform in `0..n`. The `n^n` swap
//! sequences are equally likely, but they cannot fall evenly on the `n!`
//! orders (`n!` does not divide `n^n` for `n >= 3`), so the shuffle is
//! biased. This module computes the bias exactly.
//!
//! # Method
//!
//! Dynamic programming over arrangements, never over swap sequences: after
//! step `i` a table holds, for each arrangement, its number of swap
//! sequences `j_0 .. j_i`; step `i + 1` applies each of the `n` swaps to
//! each entry. The weights after step `i` sum to exactly `n^(i+1)`.
//!
//! The walk runs on `n` distinct labels, one per card, so the table is a
//! dense array over the `n!` permutations, indexed by lexicographic rank
//! (`LexIndex`: two table look-ups, no hashing). While few permutations
//! have been reached, a step pushes each reached one's weight to its `n`
//! successors; once many have, it pulls instead: the permutations that the
//! step sends to `p` are `p` with positions `i` and `j` swapped, so each
//! entry is a sum of `n` reads, independent of the others, computed in
//! parallel. Identical cards are merged at the end, by summing the weights
//! of label arrangements that show the same cards; that is exact because
//! each swap sequence produces one label arrangement, hence one card
//! arrangement.
//!
//! An arrangement is packed into a `u64`, four bits a position, position 0
//! most significant; so key order is lexicographic order and a swap is a
//! few shifts and xors.
//!
//! # Complexity
//!
//! About `n^2 n!` reads once the table fills (from step 5 or so) and three
//! arrays of `n!` `u64`s (about 90 MB at 10 cards, plus the result).
//! Whatever the cards, the cost is that of `n` distinct ones. See
//! [`MAX_CARDS`] for measured times.

use num_bigint::BigUint;
use rayon::prelude::*;

use crate::cards::Card;
use crate::engine::ArrangementCounts;
use crate::error::{Error, Result};

/// Largest deck accepted. Measured on two cores (AMD EPYC, release): 9
/// cards take 0.05 s and 10 cards 0.7 s, with a peak of about 300 MB for
/// [`naive_shuffle_weights`] (whose 3.6 million small vectors are most of
/// it). 11 cards would need arrays of 40 million entries (over 1 GB) and
/// about ten times as long.
pub const MAX_CARDS: usize = 10;

// Every weight is at most n^n, which must fit a u64; every key holds n
// positions of four bits, each an index below 16.
const _: () = assert!((MAX_CARDS as u64).checked_pow(MAX_CARDS as u32).is_some());
const _: () = assert!(MAX_CARDS * BITS as usize <= 64 && MAX_CARDS <= 16);

/// Bits per position in a packed arrangement.
const BITS: u32 = 4;

/// Each arrangement reachable by the naive shuffle from `start`, with its
/// number of swap sequences (out of `n^n`), in lexicographic order of
/// arrangements. Identical cards are merged: arrangements are sequences of
/// card values.
///
/// Guarantees: exact integer weights, each at least 1, summing to exactly
/// `n^n`; the same result on every run. Errors if `start` has more than
/// [`MAX_CARDS`] cards.
pub fn naive_shuffle_weights(start: &[Card]) -> Result<Vec<(Vec<Card>, u64)>> {
    let table = WeightTable::compute(start)?;
    Ok(table
        .entries
        .iter()
        .map(|&(key, weight)| {
            let mut deal = vec![Card::new(1, 0); table.n_cards];
            table.decode(key, &mut deal);
            (deal, weight)
        })
        .collect())
}

/// Pushes every arrangement reachable by the naive shuffle from `start`
/// through `play` and returns, per outcome bin, the number of swap
/// sequences leading to it; `total` is `n^n`.
///
/// `play` is called once per distinct reachable arrangement, in
/// lexicographic order, and must return a bin below `n_outcomes` (a larger
/// bin is a bug in the game and panics).
///
/// Guarantees: exact; deterministic; the counts sum to exactly `n^n`, so
/// [`ArrangementCounts::to_distribution`] gives the exact distribution of
/// outcomes under the naive shuffle. Errors if `start` has more than
/// [`MAX_CARDS`] cards.
pub fn naive_shuffle_counts<F: Fn(&[Card]) -> usize>(
    start: &[Card],
    n_outcomes: usize,
    play: F,
) -> Result<ArrangementCounts> {
    let table = WeightTable::compute(start)?;
    let mut counts = vec![0u64; n_outcomes];
    let mut deal = vec![Card::new(1, 0); table.n_cards];
    for &(key, weight) in &table.entries {
        table.decode(key, &mut deal);
        // No overflow: all weights together are n^n < 2^64.
        counts[play(&deal)] += weight;
    }
    Ok(ArrangementCounts {
        counts: counts.into_iter().map(BigUint::from).collect(),
        total: BigUint::from(table.n_sequences),
    })
}

/// The weights of every reachable arrangement, packed.
struct WeightTable {
    /// The deck's distinct cards, ascending; keys hold indices into it.
    values: Vec<Card>,
    n_cards: usize,
    /// `n^n`.
    n_sequences: u64,
    /// (packed arrangement, weight), ascending by key, weights above zero.
    entries: Vec<(u64, u64)>,
}

impl WeightTable {
    fn compute(start: &[Card]) -> Result<WeightTable> {
        let n = start.len();
        if n > MAX_CARDS {
            return Err(Error::invalid(
                "deck",
                format!("{n} cards"),
                format!(
                    "the exact naive-shuffle distribution handles at most {MAX_CARDS} cards; \
                     sample larger decks by Monte Carlo with the naive shuffle"
                ),
            ));
        }
        let mut sorted = start.to_vec();
        sorted.sort_unstable();
        let mut values = sorted.clone();
        values.dedup();

        // The walk runs on labels 0..n, one per card, numbered in the
        // cards' order (copies of a card by their place in `start`), so
        // that label order agrees with card order. Copies are merged at the
        // end, which is exact: a swap sequence sends the labels to one
        // arrangement of labels, hence to one arrangement of cards.
        let mut by_card: Vec<usize> = (0..n).collect();
        by_card.sort_by_key(|&position| start[position]); // stable: ties by position
        let mut start_labels = vec![0u64; n];
        for (label, &position) in by_card.iter().enumerate() {
            start_labels[position] = label as u64;
        }
        let label_value: Vec<u64> = sorted
            .iter()
            .map(|card| values.binary_search(card).expect("a card of the deck") as u64)
            .collect();

        let index = LexIndex::new(n);
        let keys = &index.keys;
        let start_key = start_labels.iter().fold(0, |key, &l| key << BITS | l);
        let mut weights = vec![0u64; keys.len()];
        weights[index.of(start_key)] = 1;
        // Arrangements with a weight so far; the early steps reach few.
        let mut live = 1;
        for i in 0..n {
            let before = weights;
            let mut after = vec![0u64; keys.len()];
            let shift_i = shift(n, i);
            let swap = |key: u64, j: usize| {
                let shift_j = shift(n, j);
                let diff = (key >> shift_i ^ key >> shift_j) & 0xf;
                key ^ (diff << shift_i | diff << shift_j)
            };
            // No overflow in either branch: the weights after step i sum to
            // n^(i+1) <= n^n < 2^64.
            if live < keys.len() / SPARSE {
                // Few arrangements reached yet: push each one's weight to
                // its n successors (a scan for them costs less than pulling
                // into every slot).
                for (&key, &weight) in keys.iter().zip(&before) {
                    if weight > 0 {
                        for j in 0..n {
                            after[index.of(swap(key, j))] += weight;
                        }
                    }
                }
            } else {
                // Pull: the arrangements that step i sends to `key` are
                // exactly `key` with positions i and j swapped (a swap
                // undoes itself), so each entry is a sum of n reads, entries
                // are independent, and the work splits over threads with no
                // locking. Each sum is taken in a fixed order.
                after
                    .par_chunks_mut(PULL_CHUNK)
                    .zip(keys.par_chunks(PULL_CHUNK))
                    .for_each(|(slots, keys)| {
                        for (slot, &key) in slots.iter_mut().zip(keys) {
                            *slot = (0..n).map(|j| before[index.of(swap(key, j))]).sum();
                        }
                    });
            }
            live = after.iter().filter(|&&weight| weight > 0).count();
            weights = after;
        }

        // Labels to cards, merging copies.
        let to_cards = |key: u64| {
            (0..n).fold(0, |packed, position| {
                packed << BITS | label_value[(key >> shift(n, position) & 0xf) as usize]
            })
        };
        let mut entries: Vec<(u64, u64)> = keys
            .iter()
            .zip(&weights)
            .filter(|&(_, &weight)| weight > 0)
            .map(|(&key, &weight)| (to_cards(key), weight))
            .collect();
        // Already sorted for distinct cards (label order is card order);
        // with copies, equal arrangements must be brought together.
        entries.sort_unstable();
        entries.dedup_by(|later, kept| {
            if later.0 == kept.0 {
                kept.1 += later.1;
                true
            } else {
                false
            }
        });
        let n_sequences = (n as u64).pow(n as u32);
        debug_assert_eq!(entries.iter().map(|&(_, w)| w).sum::<u64>(), n_sequences);
        Ok(WeightTable {
            values,
            n_cards: n,
            n_sequences,
            entries,
        })
    }

    /// Unpacks `key` into `deal` (of `n_cards` cards).
    #[inline]
    fn decode(&self, key: u64, deal: &mut [Card]) {
        for (position, card) in deal.iter_mut().enumerate() {
            *card = self.values[(key >> shift(self.n_cards, position) & 0xf) as usize];
        }
    }
}

/// A step pushes rather than pulls while fewer than one arrangement in
/// `SPARSE` has been reached.
const SPARSE: usize = 4;

/// Entries per parallel work item of a step: large enough that scheduling
/// costs nothing, small enough to share a step evenly between cores.
const PULL_CHUNK: usize = 1 << 14;

/// Where position `position` of an `n`-card packed arrangement sits.
#[inline]
fn shift(n: usize, position: usize) -> u32 {
    BITS * (n - 1 - position) as u32
}

/// The permutations of `0..n`, packed, and their lexicographic ranks.
///
/// The rank of a permutation splits as `hi(prefix) * (n - h)! + lo(suffix)`
/// for a prefix of `h` positions: `hi` is the prefix's rank among prefixes,
/// and `lo` is the rank of the suffix's relative order, which does not
/// depend on which values the suffix holds. (The rank is `sum d_p (n-1-p)!`
/// with `d_p` the number of later values below position `p`'s; the terms of
/// suffix positions depend only on the suffix's relative order, and those
/// of prefix positions only on the prefix, and are multiples of
/// `(n - h)!`.) So two table look-ups, indexed by the packed prefix and the
/// packed suffix, rank any permutation: no hashing, and tables of at most
/// `16^5` small entries.
struct LexIndex {
    /// Every permutation, packed, in lexicographic order: `keys[r]` has
    /// rank `r`.
    keys: Vec<u64>,
    suffix_bits: u32,
    suffix_mask: u64,
    /// `(n - h)!`.
    suffix_orders: usize,
    /// Prefix rank by packed prefix (at most 10!/5! = 30,240 prefixes).
    hi: Vec<u16>,
    /// Relative-order rank by packed suffix (at most 5! = 120 orders).
    lo: Vec<u8>,
}

// The tables' entry types hold every rank (see LexIndex).
const _: () = assert!(MAX_CARDS <= 10);

impl LexIndex {
    fn new(n: usize) -> LexIndex {
        let suffix_len = n / 2;
        let suffix_bits = BITS * suffix_len as u32;
        let suffix_orders: usize = (1..=suffix_len).product();
        let mut hi = vec![0u16; 1 << (BITS as usize * (n - suffix_len))];
        let mut lo = vec![0u8; 1 << suffix_bits];
        let mut keys = Vec::with_capacity((1..=n).product());
        let mut permutation: Vec<u64> = (0..n as u64).collect();
        loop {
            let rank = keys.len();
            let key = permutation.iter().fold(0, |key, &l| key << BITS | l);
            hi[(key >> suffix_bits) as usize] = (rank / suffix_orders) as u16;
            lo[(key & ((1 << suffix_bits) - 1)) as usize] = (rank % suffix_orders) as u8;
            keys.push(key);
            if !next_permutation(&mut permutation) {
                break;
            }
        }
        LexIndex {
            keys,
            suffix_bits,
            suffix_mask: (1 << suffix_bits) - 1,
            suffix_orders,
            hi,
            lo,
        }
    }

    /// The lexicographic rank of a packed permutation of `0..n`.
    #[inline]
    fn of(&self, key: u64) -> usize {
        usize::from(self.hi[(key >> self.suffix_bits) as usize]) * self.suffix_orders
            + usize::from(self.lo[(key & self.suffix_mask) as usize])
    }
}

/// The next permutation of distinct items in lexicographic order, or
/// `false` after the last.
fn next_permutation(items: &mut [u64]) -> bool {
    let Some(pivot) = items.windows(2).rposition(|w| w[0] < w[1]) else {
        return false;
    };
    let successor = items
        .iter()
        .rposition(|&item| item > items[pivot])
        .expect("the item after the pivot is larger");
    items.swap(pivot, successor);
    items[pivot + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use super::*;
    use crate::engine::arrangements::n_arrangements;

    fn cards(ranks: &[u8]) -> Vec<Card> {
        ranks.iter().map(|&r| Card::new(r, 0)).collect()
    }

    /// The weights by brute force: every one of the n^n swap sequences,
    /// applied literally.
    fn brute_force(start: &[Card]) -> Vec<(Vec<Card>, u64)> {
        let n = start.len();
        let mut tally: BTreeMap<Vec<Card>, u64> = BTreeMap::new();
        let mut sequence = vec![0usize; n];
        loop {
            let mut deck = start.to_vec();
            for (i, &j) in sequence.iter().enumerate() {
                deck.swap(i, j);
            }
            *tally.entry(deck).or_default() += 1;
            // The next sequence, as an odometer in base n.
            let mut digit = 0;
            while digit < n && sequence[digit] == n - 1 {
                sequence[digit] = 0;
                digit += 1;
            }
            if digit == n {
                break;
            }
            sequence[digit] += 1;
        }
        tally.into_iter().collect()
    }

    #[test]
    fn three_cards_have_the_textbook_weights() {
        let start = cards(&[1, 2, 3]);
        let weights = naive_shuffle_weights(&start).unwrap();
        let orders: Vec<Vec<Card>> = weights.iter().map(|(d, _)| d.clone()).collect();
        let expected_orders: Vec<Vec<Card>> = [
            [1, 2, 3],
            [1, 3, 2],
            [2, 1, 3],
            [2, 3, 1],
            [3, 1, 2],
            [3, 2, 1],
        ]
        .iter()
        .map(|ranks| cards(ranks))
        .collect();
        assert_eq!(orders, expected_orders);
        let w: Vec<u64> = weights.iter().map(|&(_, w)| w).collect();
        assert_eq!(w, [4, 5, 5, 5, 4, 4]);
    }

    #[test]
    fn weights_match_brute_force_over_all_swap_sequences() {
        for n in 1..=7u8 {
            let start: Vec<Card> = (1..=n).map(|r| Card::new(r, r % 2)).collect();
            let weights = naive_shuffle_weights(&start).unwrap();
            assert_eq!(weights, brute_force(&start), "{n} cards");
            let total: u64 = weights.iter().map(|&(_, w)| w).sum();
            assert_eq!(total, u64::from(n).pow(u32::from(n)));
        }
    }

    #[test]
    fn identical_cards_are_merged() {
        // Sorted and unsorted starts, with repeats; the empty deck too.
        for ranks in [
            &[1, 1, 2, 3, 3][..],
            &[3, 1, 3, 2, 1, 1],
            &[2, 2, 2, 2],
            &[1, 2, 1, 2, 1, 2, 1],
            &[],
        ] {
            let start = cards(ranks);
            let weights = naive_shuffle_weights(&start).unwrap();
            assert_eq!(weights, brute_force(&start), "{ranks:?}");
            let n = start.len() as u64;
            assert_eq!(
                weights.iter().map(|&(_, w)| w).sum::<u64>(),
                n.pow(n as u32)
            );
            // Every arrangement of values at most once, in order.
            assert!(weights.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(BigUint::from(weights.len()) <= n_arrangements(&start));
        }
    }

    #[test]
    fn the_shuffle_is_biased_from_three_cards_on() {
        for n in 2..=8u8 {
            let start: Vec<Card> = (1..=n).map(|r| Card::new(r, 0)).collect();
            let weights = naive_shuffle_weights(&start).unwrap();
            // Every order is reachable...
            assert_eq!(BigUint::from(weights.len()), n_arrangements(&start));
            // ...but, from three cards on, not equally often.
            let all_equal = weights.iter().all(|&(_, w)| w == weights[0].1);
            assert_eq!(all_equal, n < 3, "{n} cards");
        }
    }

    #[test]
    fn counts_weigh_each_arrangement_by_its_sequences() {
        // Six distinct cards, played by a toy game that reads the whole
        // order: the cards higher than the card before them.
        let start: Vec<Card> = (1..=3)
            .flat_map(|rank| (0..2).map(move |suit| Card::new(rank, suit)))
            .collect();
        let play = |deal: &[Card]| deal.windows(2).filter(|w| w[0] < w[1]).count();
        let counts = naive_shuffle_counts(&start, 6, play).unwrap();
        let mut expected = vec![0u64; 6];
        for (deal, weight) in brute_force(&start) {
            expected[play(&deal)] += weight;
        }
        let expected: Vec<BigUint> = expected.into_iter().map(BigUint::from).collect();
        assert_eq!(counts.counts, expected);
        assert_eq!(counts.total, BigUint::from(6u64.pow(6)));
    }

    #[test]
    fn larger_decks_are_refused_by_name() {
        let start = cards(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        let err = naive_shuffle_weights(&start).unwrap_err().to_string();
        assert!(err.starts_with("deck 11 cards:"), "{err}");
        assert!(err.contains("at most 10 cards"), "{err}");
        assert!(naive_shuffle_counts(&start, 6, |_| 0).is_err());
    }

    /// The same weights by the plainest dynamic programme: a hash map
    /// from arrangement to weight, pushed through each step.
    fn hash_map_weights(start: &[Card]) -> Vec<(Vec<Card>, u64)> {
        let n = start.len();
        let mut table: HashMap<Vec<Card>, u64> = HashMap::from([(start.to_vec(), 1)]);
        for i in 0..n {
            let mut next = HashMap::new();
            for (deck, weight) in table {
                for j in 0..n {
                    let mut swapped = deck.clone();
                    swapped.swap(i, j);
                    *next.entry(swapped).or_default() += weight;
                }
            }
            table = next;
        }
        let mut entries: Vec<(Vec<Card>, u64)> = table.into_iter().collect();
        entries.sort_unstable();
        entries
    }

    #[test]
    fn weights_match_a_plain_hash_map_programme_on_larger_decks() {
        // Beyond brute force's reach: 8 distinct cards, and 9 with copies.
        let distinct: Vec<Card> = (1..=8).map(|r| Card::new(r, r % 3)).collect();
        let copies = cards(&[5, 1, 2, 5, 3, 1, 4, 2, 5]);
        for start in [distinct, copies] {
            assert_eq!(
                naive_shuffle_weights(&start).unwrap(),
                hash_map_weights(&start)
            );
        }
    }

    #[test]
    fn lexicographic_ranks_are_two_look_ups() {
        for n in 0..=8 {
            let index = LexIndex::new(n);
            assert_eq!(index.keys.len(), (1..=n).product::<usize>());
            assert!(index.keys.windows(2).all(|w| w[0] < w[1]));
            for (rank, &key) in index.keys.iter().enumerate() {
                assert_eq!(index.of(key), rank, "{n} cards, key {key:x}");
            }
        }
    }
}
