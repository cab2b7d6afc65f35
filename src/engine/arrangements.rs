//! Exhaustive enumeration: every distinct arrangement of a small deck, each
//! played in full.
//!
//! # Why it exists
//!
//! This is the independent cross-check of the memoised enumerator
//! (`crate::engine::sequential`). It knows nothing about any game: it hands
//! every distinct arrangement of the deck to a [`Player`] (a plain play
//! function, or a game's driver that plays several at once) and counts the
//! outcome bins. Nothing is memoised, merged or skipped, so a bug in a
//! memo key cannot hide here.
//!
//! # Method
//!
//! The deck is a multiset of cards (repeats allowed); arrangements are
//! sequences of card values, so two arrangements that differ only by
//! swapping identical cards are one arrangement, counted once. Their number
//! is the multinomial coefficient `n! / (m_1! m_2! ...)` ([`n_arrangements`]).
//!
//! The work is cut into tasks, one per distinct prefix of a fixed length
//! `k`, in lexicographic order of prefixes (task 0 is the smallest prefix).
//! `k` depends only on the deck: it is the smallest length giving at least
//! [`MIN_TASKS`] distinct prefixes (or `n - 1`, if the deck has fewer
//! arrangements than that). A task fills a fixed buffer with its prefix
//! followed by the remaining cards in ascending order and then steps through
//! the distinct permutations of the suffix in lexicographic order with an
//! in-place next-permutation, which visits each distinct permutation of a
//! multiset exactly once. So every distinct arrangement belongs to exactly
//! one task and is played exactly once.
//!
//! Tasks run in parallel on the ambient rayon pool and return integer
//! histograms, which are summed. Integer addition is exact and commutative,
//! so the counts never depend on the number of threads or on scheduling.
//!
//! # Complexity
//!
//! One call of the play function per arrangement, plus an amortised O(1)
//! next-permutation step (a few nanoseconds) and no allocation in between;
//! the per-task setup is a few hundred nanoseconds. Memory is O(tasks x k).
//! Measured (AMD EPYC, release): Idiot's Delight on 4 x 3 cards, 479,001,600
//! arrangements, takes 6.0 s on two cores with the one-card-at-a-time play
//! function and 8.0 s with the eight-lane player (which copies every
//! arrangement into its batch); the enumeration itself is about 3 ns an
//! arrangement and the game the rest.

use num_bigint::BigUint;
use num_traits::One;
use rayon::prelude::*;

use crate::cards::Card;
use crate::engine::ArrangementCounts;
use crate::engine::traits::stopped_on_request;
use crate::engine::{Player, Progress, Shard};
use crate::error::{Error, Result};

/// The most cards [`count_arrangements`] accepts.
pub const MAX_CARDS: usize = 64;

/// The most arrangements [`count_arrangements`] accepts, `2^63`. Keeping
/// every count below `2^63` lets the inner loop tally in `u64` without an
/// overflow check; nobody can enumerate that many arrangements anyway (at
/// a billion a second it would take three centuries).
pub const MAX_ARRANGEMENTS: u64 = 1 << 63;

/// Distinct prefixes wanted before the prefix stops growing: enough tasks
/// to keep every core busy to the end (the last tasks to start are a small
/// fraction of the run) and to cut a run into many shards.
pub const MIN_TASKS: usize = 1024;

/// Counts, for each outcome bin, the distinct arrangements of `deck` in
/// shard `shard` whose play gives that bin.
///
/// `play` plays exactly once every distinct arrangement in the shard
/// (a full deal, first card first) and must return a bin below
/// `n_outcomes`; a larger bin is a bug in the game and panics. The order of
/// `deck` does not matter, only its multiset of cards.
///
/// Guarantees: the counts are exact; they are identical for any number of
/// threads; the shards `1/n .. n/n` add up exactly to the whole; for
/// [`Shard::WHOLE`], `total` is [`n_arrangements`]. `progress` advances by
/// one per task (see [`progress_units`] and [`Shard::share`]).
///
/// Errors if the deck has more than [`MAX_CARDS`] cards or more than
/// [`MAX_ARRANGEMENTS`] arrangements, or if the shard is malformed.
pub fn count_arrangements<F: Fn(&[Card]) -> usize + Sync>(
    deck: &[Card],
    n_outcomes: usize,
    play: F,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<ArrangementCounts> {
    count_arrangements_with(deck, n_outcomes, play, shard, progress)
}

/// [`count_arrangements`] with any [`Player`], such as a game's batching
/// driver; the same guarantees.
pub fn count_arrangements_with<P: Player>(
    deck: &[Card],
    n_outcomes: usize,
    play: P,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<ArrangementCounts> {
    let shard = shard.validated()?;
    check_size(deck)?;
    let plan = Plan::new(deck);
    let (counts, total) = (0..plan.n_tasks as u64)
        .into_par_iter()
        // A stop request skips the tasks not yet started; the result is
        // then refused below.
        .filter(|&task| shard.contains(task) && !progress.stop_requested())
        .fold(
            || (vec![0u64; n_outcomes], 0u64),
            |(mut counts, played), task| {
                let task_played = plan.run_task(task as usize, &play, &mut counts);
                progress.advance(1);
                (counts, played + task_played)
            },
        )
        .reduce(
            || (vec![0u64; n_outcomes], 0u64),
            |(mut total, played), (counts, more_played)| {
                for (t, c) in total.iter_mut().zip(counts) {
                    // Cannot fail: each bin counts at most one per
                    // arrangement, and there are at most MAX_ARRANGEMENTS.
                    *t = t.checked_add(c).expect("counts stay below 2^63");
                }
                (total, played + more_played)
            },
        );
    if progress.stop_requested() {
        return Err(stopped_on_request());
    }
    Ok(ArrangementCounts {
        counts: counts.into_iter().map(BigUint::from).collect(),
        total: BigUint::from(total),
    })
}

/// The number of progress units (tasks) in the whole enumeration of `deck`:
/// the number of distinct prefixes of the plan's prefix length. A shard has
/// `shard.share(progress_units(deck))` of them.
///
/// Guarantee: depends only on the multiset of cards, never on threads; at
/// most about `MIN_TASKS` times the number of distinct cards.
pub fn progress_units(deck: &[Card]) -> u64 {
    Plan::new(deck).n_tasks as u64
}

/// The number of distinct arrangements of `deck`, exactly: the multinomial
/// coefficient `n! / (m_1! m_2! ...)` where `m_i` counts the copies of each
/// distinct card.
pub fn n_arrangements(deck: &[Card]) -> BigUint {
    let (_, multiplicities) = distinct(deck);
    let mut result = BigUint::one();
    let mut placed = 0u64;
    for m in multiplicities {
        // Multiplies by C(placed + m, m) one factor at a time: after step t
        // the product is the previous result times C(placed + t, t), an
        // integer, so every division is exact.
        for t in 1..=u64::from(m) {
            placed += 1;
            result *= placed;
            result /= t;
        }
    }
    result
}

/// Refuses decks too large to enumerate, naming the deck.
fn check_size(deck: &[Card]) -> Result<()> {
    let n = deck.len();
    let allowed = format!(
        "exhaustive enumeration handles at most {MAX_CARDS} cards and 2^63 distinct arrangements"
    );
    if n > MAX_CARDS {
        return Err(Error::invalid("deck", format!("{n} cards"), allowed));
    }
    let arrangements = n_arrangements(deck);
    if arrangements > BigUint::from(MAX_ARRANGEMENTS) {
        return Err(Error::invalid(
            "deck",
            format!("{n} cards ({arrangements} arrangements)"),
            allowed,
        ));
    }
    Ok(())
}

/// The distinct cards of `deck` in ascending order, with their copies.
fn distinct(deck: &[Card]) -> (Vec<Card>, Vec<u32>) {
    let mut sorted = deck.to_vec();
    sorted.sort_unstable();
    let mut values: Vec<Card> = Vec::new();
    let mut multiplicities: Vec<u32> = Vec::new();
    for card in sorted {
        if values.last() == Some(&card) {
            *multiplicities.last_mut().expect("pushed with its value") += 1;
        } else {
            values.push(card);
            multiplicities.push(1);
        }
    }
    (values, multiplicities)
}

/// The tasks of an enumeration: every distinct prefix of length
/// `prefix_len`, in lexicographic order.
struct Plan {
    values: Vec<Card>,
    multiplicities: Vec<u32>,
    n_cards: usize,
    prefix_len: usize,
    /// The prefixes back to back, `prefix_len` value indices each.
    prefixes: Vec<u8>,
    n_tasks: usize,
}

impl Plan {
    fn new(deck: &[Card]) -> Plan {
        let (values, multiplicities) = distinct(deck);
        let n_cards = deck.len();
        // Value indices fit a byte: there are at most 16 x 13 distinct
        // cards.
        debug_assert!(values.len() <= 256);
        let mut level: Vec<Vec<u8>> = vec![Vec::new()];
        let mut prefix_len = 0;
        // Grow prefixes one card at a time until there are enough tasks.
        // Stopping at n - 1 cards: a prefix of n - 1 cards already fixes
        // the arrangement.
        while level.len() < MIN_TASKS && prefix_len + 1 < n_cards {
            let mut next = Vec::new();
            for prefix in &level {
                let mut used = vec![0u32; values.len()];
                for &v in prefix {
                    used[usize::from(v)] += 1;
                }
                for (v, (&u, &m)) in used.iter().zip(&multiplicities).enumerate() {
                    if u < m {
                        let mut longer = prefix.clone();
                        longer.push(v as u8);
                        next.push(longer);
                    }
                }
            }
            level = next;
            prefix_len += 1;
        }
        Plan {
            values,
            multiplicities,
            n_cards,
            prefix_len,
            n_tasks: level.len(),
            prefixes: level.concat(),
        }
    }

    /// Plays every arrangement starting with task `task`'s prefix, tallies
    /// the bins into `counts` and returns how many it played.
    fn run_task<P: Player>(&self, task: usize, play: &P, counts: &mut [u64]) -> u64 {
        let prefix = &self.prefixes[task * self.prefix_len..(task + 1) * self.prefix_len];
        let mut remaining = self.multiplicities.clone();
        // The deal and the tally live on this thread's stack and in a
        // buffer of this task's own, so that two threads never write to the
        // same cache line in the hot loop.
        let mut buffer = [Card::new(1, 0); MAX_CARDS];
        let deal = &mut buffer[..self.n_cards];
        let mut placed = 0;
        for &v in prefix {
            deal[placed] = self.values[usize::from(v)];
            remaining[usize::from(v)] -= 1;
            placed += 1;
        }
        // The rest in ascending order: the lexicographically first
        // arrangement of the suffix.
        for (&value, &copies) in self.values.iter().zip(&remaining) {
            for _ in 0..copies {
                deal[placed] = value;
                placed += 1;
            }
        }
        debug_assert_eq!(placed, self.n_cards);
        let mut tally = vec![0u64; counts.len()];
        let mut workspace = play.workspace();
        let k = self.prefix_len;
        let mut played = 0u64;
        loop {
            // No overflow check needed: the whole enumeration has at most
            // MAX_ARRANGEMENTS arrangements, so no count can reach 2^64.
            play.add(&mut workspace, deal, &mut tally);
            played += 1;
            if !next_permutation(&mut deal[k..]) {
                break;
            }
        }
        play.flush(&mut workspace, &mut tally);
        for (count, t) in counts.iter_mut().zip(tally) {
            *count += t;
        }
        played
    }
}

/// Rearranges `items` into the next distinct permutation in lexicographic
/// order and returns `true`, or returns `false` if `items` is already the
/// last (descending) one. With repeated items it skips permutations that
/// differ only by swapping equal items, so starting from ascending order it
/// visits each distinct arrangement exactly once. Amortised O(1).
#[inline]
fn next_permutation(items: &mut [Card]) -> bool {
    let n = items.len();
    if n < 2 {
        return false;
    }
    // The longest non-increasing tail items[i..].
    let mut i = n - 1;
    while i > 0 && items[i - 1] >= items[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    // Swap the pivot with the smallest larger item of the tail (its
    // rightmost such item, which keeps the tail non-increasing), then make
    // the tail ascending.
    let pivot = i - 1;
    let mut j = n - 1;
    while items[j] <= items[pivot] {
        j -= 1;
    }
    items.swap(pivot, j);
    items[i..].reverse();
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::{BTreeSet, HashMap};
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::with_threads;

    /// Every permutation of `items` (all n! of them, duplicates included),
    /// by Heap's algorithm, passed to `visit`. (Also the brute force the
    /// games' tests check the engines against.)
    pub(crate) fn heap_permutations(items: &mut [Card], visit: &mut impl FnMut(&[Card])) {
        let n = items.len();
        let mut c = vec![0usize; n];
        visit(items);
        let mut i = 1;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    items.swap(0, i);
                } else {
                    items.swap(c[i], i);
                }
                visit(items);
                c[i] += 1;
                i = 1;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }

    fn big(counts: &[u64]) -> Vec<BigUint> {
        counts.iter().map(|&c| BigUint::from(c)).collect()
    }

    fn whole<F: Fn(&[Card]) -> usize + Sync>(
        deck: &[Card],
        n_outcomes: usize,
        play: F,
    ) -> ArrangementCounts {
        count_arrangements(deck, n_outcomes, play, Shard::WHOLE, &NoProgress).unwrap()
    }

    fn factorial(n: u64) -> BigUint {
        (1..=n).map(BigUint::from).product()
    }

    /// `suits` x `ranks` distinct cards.
    fn distinct_deck(suits: u8, ranks: u8) -> Vec<Card> {
        (0..suits)
            .flat_map(|suit| (1..=ranks).map(move |rank| Card::new(rank, suit)))
            .collect()
    }

    /// A toy play function that reads the whole order: the cards higher
    /// than the card before them (ascents; the Eulerian numbers over the
    /// permutations of distinct cards), one bin per count.
    fn ascents(deal: &[Card]) -> usize {
        deal.windows(2).filter(|w| w[0] < w[1]).count()
    }

    /// Another, that weighs each card by its place, in 7 bins.
    fn by_place(deal: &[Card]) -> usize {
        deal.iter().enumerate().fold(0, |hash, (place, card)| {
            (hash * 31 + (place + 1) * usize::from(card.code())) % 7
        })
    }

    #[test]
    fn distinct_decks_match_brute_force_over_permutations() {
        for (suits, ranks) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (4, 2)] {
            let mut deck = distinct_deck(suits, ranks);
            let n = deck.len();
            let bins = n.max(7);
            for play in [&ascents as &(dyn Fn(&[Card]) -> usize + Sync), &by_place] {
                let counts = whole(&deck, bins, play);
                // Distinct cards, so distinct arrangements are permutations.
                let mut expected = vec![0u64; bins];
                heap_permutations(&mut deck, &mut |d| expected[play(d)] += 1);
                assert_eq!(counts.counts, big(&expected), "{suits}x{ranks}");
                assert_eq!(counts.total, factorial(n as u64));
                assert_eq!(counts.total, n_arrangements(&deck));
            }
        }
    }

    /// Ranks 1, 1, 2, 2, 2, 3 in one suit: a deck with repeated cards.
    fn multiset_deck() -> Vec<Card> {
        // Deliberately unsorted: only the multiset matters.
        [2, 1, 3, 2, 1, 2].map(|rank| Card::new(rank, 0)).to_vec()
    }

    #[test]
    fn multiset_decks_count_each_distinct_arrangement_once() {
        let mut deck = multiset_deck();
        assert_eq!(n_arrangements(&deck), BigUint::from(60u32)); // 6!/(2!3!1!)
        let first_three = |d: &[Card]| d.iter().position(|c| c.rank() == 3).unwrap();

        let mut seen = BTreeSet::new();
        heap_permutations(&mut deck, &mut |d| {
            seen.insert(d.to_vec());
        });
        assert_eq!(seen.len(), 60);
        for play in [&first_three as &(dyn Fn(&[Card]) -> usize + Sync), &ascents] {
            let mut expected = vec![0u64; 6];
            for d in &seen {
                expected[play(d)] += 1;
            }
            let counts = whole(&deck, 6, play);
            assert_eq!(counts.counts, big(&expected));
            assert_eq!(counts.total, BigUint::from(60u32));
        }
    }

    #[test]
    fn every_distinct_arrangement_is_played_exactly_once() {
        // Ranks with copies 3, 1, 2, 2 over two suits: 8!/(3!2!2!) = 1680.
        let deck: Vec<Card> = [
            (1, 0),
            (1, 0),
            (1, 0),
            (2, 1),
            (3, 0),
            (3, 0),
            (4, 1),
            (4, 1),
        ]
        .map(|(r, s)| Card::new(r, s))
        .to_vec();
        let seen = std::sync::Mutex::new(HashMap::<Vec<Card>, u32>::new());
        let counts = whole(&deck, 1, |d| {
            *seen.lock().unwrap().entry(d.to_vec()).or_default() += 1;
            0
        });
        let seen = seen.into_inner().unwrap();
        assert_eq!(counts.total, BigUint::from(1680u32));
        assert_eq!(seen.len(), 1680);
        assert!(seen.values().all(|&times| times == 1));
        let mut sorted = deck.clone();
        sorted.sort_unstable();
        for d in seen.keys() {
            let mut cards = d.clone();
            cards.sort_unstable();
            assert_eq!(cards, sorted);
        }
    }

    #[test]
    fn shards_add_up_to_the_whole() {
        let deck = distinct_deck(3, 3);
        let full = whole(&deck, 7, by_place);
        for count in [3, 7] {
            let mut summed = ArrangementCounts::zero(7);
            for k in 0..count {
                let shard = Shard::parse(&format!("{k}/{count}")).unwrap();
                let part = count_arrangements(&deck, 7, by_place, shard, &NoProgress).unwrap();
                summed.add(&part);
            }
            assert_eq!(summed, full, "{count} shards");
        }
        // A multiset deck too, also cut into more shards than it has tasks
        // (some shards are empty).
        let deck = multiset_deck();
        let play = |d: &[Card]| usize::from(d[0].rank() + d[5].rank()) % 4;
        let full = whole(&deck, 4, play);
        assert!(progress_units(&deck) < 100);
        for count in [3, 100] {
            let mut summed = ArrangementCounts::zero(4);
            for index in 0..count {
                let shard = Shard { index, count };
                summed.add(&count_arrangements(&deck, 4, play, shard, &NoProgress).unwrap());
            }
            assert_eq!(summed, full, "{count} shards");
        }
    }

    #[test]
    fn counts_do_not_depend_on_threads() {
        let deck = distinct_deck(3, 3);
        let run = || whole(&deck, 7, by_place);
        let one = with_threads(1, run);
        assert_eq!(with_threads(2, run), one);
        assert_eq!(with_threads(3, run), one);
    }

    #[test]
    fn progress_counts_tasks() {
        struct Counter(AtomicU64);
        impl Progress for Counter {
            fn advance(&self, units: u64) {
                self.0.fetch_add(units, Ordering::Relaxed);
            }
        }
        for deck in [
            distinct_deck(3, 3),
            multiset_deck(),
            vec![Card::new(5, 2)],
            vec![],
        ] {
            let units = progress_units(&deck);
            assert!(units >= 1);
            for shard in [Shard::WHOLE, Shard { index: 1, count: 4 }] {
                let counter = Counter(AtomicU64::new(0));
                count_arrangements(&deck, 1, |_| 0, shard, &counter).unwrap();
                assert_eq!(counter.0.into_inner(), shard.share(units), "{deck:?}");
            }
        }
        // 12 distinct cards: prefixes of three cards, 12 x 11 x 10 tasks.
        let deck = distinct_deck(4, 3);
        assert_eq!(progress_units(&deck), 1320);
    }

    #[test]
    fn tiny_decks() {
        // The empty deck has one arrangement, the empty deal.
        let counts = whole(&[], 2, |d| d.len() + 1);
        assert_eq!(counts.counts, big(&[0, 1]));
        let one = [Card::new(1, 0)];
        assert_eq!(whole(&one, 1, |_| 0).total, BigUint::one());
        let same = [Card::new(1, 0); 5];
        assert_eq!(whole(&same, 1, |_| 0).total, BigUint::one());
        assert_eq!(n_arrangements(&same), BigUint::one());
    }

    #[test]
    fn next_permutation_walks_a_multiset_in_order() {
        let mut items = [1, 1, 2].map(|r| Card::new(r, 0));
        let mut seen = vec![items.map(Card::rank)];
        while next_permutation(&mut items) {
            seen.push(items.map(Card::rank));
        }
        assert_eq!(seen, [[1, 1, 2], [1, 2, 1], [2, 1, 1]]);
    }

    #[test]
    fn oversized_decks_are_refused() {
        // 21 distinct cards: 21! > 2^63.
        let deck: Vec<Card> = (0..21).map(|i| Card::new(i % 13 + 1, i / 13)).collect();
        let err = whole_err(&deck);
        assert!(err.starts_with("deck 21 cards"), "{err}");
        assert!(err.contains("2^63"), "{err}");
        // 65 copies of one card: one arrangement, but too many cards.
        let err = whole_err(&[Card::new(1, 0); 65]);
        assert!(err.starts_with("deck 65 cards:"), "{err}");
        // 60 copies of one card and four others: 64!/60! arrangements, fine.
        let mut deck = vec![Card::new(1, 0); 60];
        deck.extend((2..=5).map(|r| Card::new(r, 0)));
        assert_eq!(n_arrangements(&deck), BigUint::from(64u32 * 63 * 62 * 61));
        assert!(check_size(&deck).is_ok());
    }

    /// Progress that asks the work to stop after `after` units.
    struct StopAfter {
        after: u64,
        done: std::sync::atomic::AtomicU64,
    }

    impl Progress for StopAfter {
        fn advance(&self, units: u64) {
            self.done
                .fetch_add(units, std::sync::atomic::Ordering::Relaxed);
        }

        fn stop_requested(&self) -> bool {
            self.done.load(std::sync::atomic::Ordering::Relaxed) >= self.after
        }
    }

    #[test]
    fn a_stop_request_ends_the_enumeration_with_an_interrupt_not_a_partial_count() {
        let deck = distinct_deck(2, 4);
        for after in [0, 1, 3] {
            let progress = StopAfter {
                after,
                done: Default::default(),
            };
            let error = count_arrangements(&deck, 8, ascents, Shard::WHOLE, &progress).unwrap_err();
            assert!(matches!(error, Error::Interrupted { .. }), "{error}");
            let started = progress.done.load(std::sync::atomic::Ordering::Relaxed);
            assert!(started < progress_units(&deck), "{after}: {started} units");
        }
        // Never asked: the whole count.
        let progress = StopAfter {
            after: u64::MAX,
            done: Default::default(),
        };
        let counts = count_arrangements(&deck, 8, ascents, Shard::WHOLE, &progress).unwrap();
        assert_eq!(counts.total, factorial(8));
    }

    fn whole_err(deck: &[Card]) -> String {
        count_arrangements(deck, 1, |_| 0, Shard::WHOLE, &NoProgress)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn shards_parse_from_zero_based_text() {
        assert_eq!(Shard::parse("0/1").unwrap(), Shard::WHOLE);
        let shard = Shard::parse("3/8").unwrap();
        assert_eq!(shard, Shard { index: 3, count: 8 });
        assert_eq!(shard.to_string(), "3/8");
        for bad in [
            "4/4", "5/4", "x", "1/0", "0/0", "1/", "/4", "-1/4", "1/4/2", "",
        ] {
            let err = Shard::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("shard {bad}:")), "{err}");
            assert!(err.contains("0 <= k < n"), "{err}");
        }
        let err = count_arrangements(&[], 1, |_| 0, Shard { index: 4, count: 4 }, &NoProgress)
            .unwrap_err();
        assert!(err.to_string().starts_with("shard 4/4:"), "{err}");
    }

    /// The parts' chunk ranges tile the run in order: no gap, no overlap,
    /// sizes within one chunk of each other.
    #[test]
    fn shard_chunk_ranges_tile_the_run() {
        for n_chunks in [0, 1, 7, 16, 1000, u64::MAX / 3] {
            for count in [1, 2, 3, 4, 7, 64] {
                let mut next = 0;
                for index in 0..count {
                    let range = Shard { index, count }.chunk_range(n_chunks);
                    assert_eq!(range.start, next);
                    let size = range.end - range.start;
                    assert!(size.abs_diff(n_chunks / count) <= 1);
                    next = range.end;
                }
                assert_eq!(next, n_chunks);
            }
        }
    }

    #[test]
    fn shard_shares_partition_the_tasks() {
        for n_tasks in [0, 1, 5, 1320] {
            for count in [1, 3, 8, 2000] {
                let shares: u64 = (0..count)
                    .map(|index| Shard { index, count }.share(n_tasks))
                    .sum();
                assert_eq!(shares, n_tasks);
                for index in 0..count.min(4) {
                    let shard = Shard { index, count };
                    let members = (0..n_tasks).filter(|&t| shard.contains(t)).count();
                    assert_eq!(shard.share(n_tasks), members as u64);
                }
            }
        }
    }
}
