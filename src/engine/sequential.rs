//! Exact outcome counts for any [`SequentialGame`], by a memoised
//! enumeration of the deal card by card.
//!
//! # Method
//!
//! A node is (game state, multiset of cards still to come). Its children
//! are one per distinct card value still to come: the state with that card
//! dealt and one copy fewer left. A node with nothing left is one
//! arrangement in the bin `game.outcome(state)`. Because every distinct
//! value is one child (not one per copy), a node's counts are the numbers
//! of *distinct* arrangements of its remaining cards leading to each
//! outcome, and the root's counts sum to the multinomial coefficient
//! `n! / (c_1! c_2! ...)` of the deck.
//!
//! Node results are memoised on [`SequentialGame::memo_key`], whose
//! soundness contract (equal keys, equal counts) is what makes sharing a
//! result between two nodes exact. Nodes close to the leaves are not
//! memoised: they are most of the nodes, each is cheap to recompute, and a
//! memo entry for each would cost far more memory than it saves time.
//!
//! # Counting
//!
//! No node count exceeds the root's total, which is known before the
//! enumeration starts, so the integer type is chosen once: `u64` if the
//! total fits, else `u128`, else `BigUint`. Machine integers still use
//! checked addition; an overflow (impossible given the bound) is an error,
//! never a wrapped count.
//!
//! # Parallelism
//!
//! The deals are cut at a fixed depth that depends only on the deck (the
//! first few cards). The prefixes of that length whose nodes have equal memo
//! keys are merged into one task, weighted by how many prefixes it stands
//! for. Tasks run in parallel with rayon and share one concurrent memo;
//! each task is a plain depth-first recursion on its thread. Counts are
//! exact integers and integer addition is commutative, so they do not
//! depend on the number of threads or on scheduling. Only the statistics
//! can: two threads may compute the same node at the same time, and with a
//! full memo which entries got in first is a race.
//!
//! # Memory
//!
//! The hot path does not allocate: the remaining multiset is a fixed array
//! updated in place; the states on the current path live in a per-task
//! stack of slots, copied with `clone_from` (a node's last child reuses its
//! parent's slot, so leaves cost no copy); and each memoised node sums its
//! children into its own slice of a per-task scratch buffer (one slice per
//! number of cards still to come) while unmemoised nodes add straight into
//! their parent's. The only allocation per node is the boxed counts of a
//! memo insert. The memo's size is estimated per entry and capped by
//! [`SequentialParams::max_memo_bytes`].
//!
//! # Choosing `min_memo_remaining`
//!
//! On the 16-card Idiot's Delight deck (4 x 4, two threads), memoising
//! from 4, 5 and 6 cards to come took about 94, 61 and 73 s of CPU time
//! (35 s of wall time at 5) with peaks of 6.0, 2.3 and 0.6 GB: below 5
//! cards the memo's inserts and cache misses cost more than the deals they
//! save, above it the deals dominate. Hence the default of 5.

use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use ahash::AHashMap;
use dashmap::DashMap;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rayon::prelude::*;

use crate::cards::Card;
use crate::engine::ArrangementCounts;
use crate::engine::Progress;
use crate::engine::SequentialGame;
use crate::engine::traits::stopped_on_request;
use crate::error::{Error, Result};

/// The most distinct cards a deck may have: the set of values still to come
/// is one bit each of a `u64`.
pub const MAX_DISTINCT_CARDS: usize = 64;

/// Parallel tasks are the distinct deals of the first `d` cards, for the
/// smallest `d` that gives at least this many (before merging equal memo
/// keys, which for symmetric games leaves far fewer). Enough that two or
/// more threads stay busy to the end, few enough that building them costs
/// nothing.
const MIN_TASKS: u128 = 10_000;

/// The deepest cut into tasks. Decks with few distinct values (one value in
/// many copies, say) never reach [`MIN_TASKS`]; they have few deals anyway.
const MAX_SPLIT_DEPTH: usize = 8;

/// Tuning and limits of the memoised enumerator.
///
/// Neither field changes the counts, which are always exact; they trade
/// time for memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequentialParams {
    /// Nodes with fewer cards than this still to come are recomputed
    /// instead of memoised (they are cheap and they are the vast majority
    /// of states). `usize::MAX` turns the memo off, and the game's
    /// `memo_key` is then never called. Default 5.
    pub min_memo_remaining: usize,
    /// Upper bound on memo memory in bytes (estimated per entry). When
    /// reached, no more entries are inserted (results stay exact; only
    /// speed suffers) and the stats say so. Default 16 GiB.
    pub max_memo_bytes: u64,
}

impl Default for SequentialParams {
    fn default() -> SequentialParams {
        SequentialParams {
            min_memo_remaining: 5,
            max_memo_bytes: 16 << 30,
        }
    }
}

/// What the enumeration cost.
///
/// Unlike the counts, these may vary slightly between runs with more than
/// one thread (two threads can compute the same node at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequentialStats {
    /// Entries in the memo at the end.
    pub memo_entries: u64,
    /// Estimated bytes of the memo at its peak (entries times the
    /// estimated size of one, table overhead and allocator rounding
    /// included). Never more than `max_memo_bytes`.
    pub memo_bytes: u64,
    /// Whether `max_memo_bytes` was reached (some entries were not stored).
    pub memo_full: bool,
    /// Nodes answered from the memo.
    pub memo_hits: u64,
    /// Nodes expanded into their children (not answered from the memo);
    /// leaves are not counted.
    pub nodes: u64,
}

/// Counts the distinct arrangements of `deck` leading to each outcome of
/// `game`.
///
/// `deck` is a multiset: repeated cards are allowed, and arrangements that
/// differ only by swapping equal cards count once.
///
/// Guarantees: the counts are exact, `counts` has `game.n_outcomes()`
/// entries and sums to `total`, the number of distinct arrangements of the
/// deck (`n!` for a deck of distinct cards); they are identical for any
/// number of threads and any [`SequentialParams`]. The memo never holds
/// more than `params.max_memo_bytes` by its estimate. `progress` advances
/// by exactly [`progress_units`]`(deck)` in all, from any thread.
///
/// Exactness relies on the game keeping the soundness contract of
/// [`SequentialGame::memo_key`]; a key that merges states with different
/// numbers of remaining arrangements is a bug in the game and panics here.
///
/// Errors if the deck has more than [`MAX_DISTINCT_CARDS`] distinct cards
/// or more than 255 copies of one card.
pub fn count_outcomes<G: SequentialGame>(
    game: &G,
    deck: &[Card],
    params: &SequentialParams,
    progress: &dyn Progress,
) -> Result<(ArrangementCounts, SequentialStats)> {
    let composition = Composition::of(deck)?;
    let total = composition.arrangements();
    let (counts, stats) = if total.to_u64().is_some() {
        Enumeration::<G, u64>::new(game, &composition, params, &total).run(progress)?
    } else if total.to_u128().is_some() {
        Enumeration::<G, u128>::new(game, &composition, params, &total).run(progress)?
    } else {
        Enumeration::<G, BigUint>::new(game, &composition, params, &total).run(progress)?
    };
    let sum: BigUint = counts.iter().sum();
    // Every arrangement reaches exactly one leaf, so only a memo key that
    // broke its contract can make the counts miss the total.
    assert_eq!(
        sum, total,
        "the game's memo_key merged states with different numbers of arrangements"
    );
    Ok((ArrangementCounts { counts, total }, stats))
}

/// The number of progress units `count_outcomes` reports for `deck` (so a
/// caller can size a progress bar): the number of distinct deals of the
/// first few cards, which are the enumeration's top-level tasks. Depends on
/// the deck only (not on the game, the parameters or the threads).
pub fn progress_units(deck: &[Card]) -> u64 {
    let mut sorted = deck.to_vec();
    sorted.sort_unstable();
    let counts: Vec<usize> = sorted
        .chunk_by(|a, b| a == b)
        .map(|run| run.len())
        .collect();
    split(&counts).1
}

/// The depth at which the deals are cut into tasks, and the number of
/// distinct prefixes of that length.
fn split(counts: &[usize]) -> (usize, u64) {
    let n_cards: usize = counts.iter().sum();
    let prefixes = distinct_prefixes(counts, n_cards.min(MAX_SPLIT_DEPTH));
    let depth = prefixes
        .iter()
        .position(|&p| p >= MIN_TASKS)
        .unwrap_or(prefixes.len() - 1);
    // At most MIN_TASKS x (distinct values) prefixes: far inside u64 for
    // any deck that fits in memory.
    let units = u64::try_from(prefixes[depth]).unwrap_or(u64::MAX);
    (depth, units)
}

/// The number of distinct sequences of each length `0..=max_len` drawn
/// from a multiset with these counts per value, saturating at `u128::MAX`.
///
/// Exponential generating functions: the product over values of
/// `sum_{k <= c} x^k / k!`, times `len!`. Computed as
/// `new[j] = sum_k old[j-k] * C(j, k)`, which places the `k` copies of the
/// new value among the `j` positions. Saturation only affects lengths whose
/// count is that large, beyond any cut depth.
fn distinct_prefixes(counts: &[usize], max_len: usize) -> Vec<u128> {
    let mut binomial = vec![vec![1u128; max_len + 1]; max_len + 1];
    for j in 1..=max_len {
        for k in 1..j {
            binomial[j][k] = binomial[j - 1][k - 1].saturating_add(binomial[j - 1][k]);
        }
    }
    let mut sequences = vec![0u128; max_len + 1];
    sequences[0] = 1;
    for &copies in counts {
        let old = sequences.clone();
        for (j, new) in sequences.iter_mut().enumerate() {
            *new = (0..=copies.min(j)).fold(0u128, |sum, k| {
                sum.saturating_add(old[j - k].saturating_mul(binomial[j][k]))
            });
        }
    }
    sequences
}

/// A deck as distinct values and copies of each.
struct Composition {
    /// The distinct cards, sorted.
    values: Vec<Card>,
    /// `counts[i]` copies of `values[i]`; zero beyond `values.len()`.
    counts: [u8; MAX_DISTINCT_CARDS],
    /// Cards in the deck.
    n_cards: usize,
}

impl Composition {
    fn of(deck: &[Card]) -> Result<Composition> {
        let mut sorted = deck.to_vec();
        sorted.sort_unstable();
        let runs: Vec<&[Card]> = sorted.chunk_by(|a, b| a == b).collect();
        if runs.len() > MAX_DISTINCT_CARDS {
            return Err(Error::invalid(
                "deck",
                format!("{} distinct cards", runs.len()),
                format!("the sequential enumerator handles at most {MAX_DISTINCT_CARDS}"),
            ));
        }
        let mut counts = [0u8; MAX_DISTINCT_CARDS];
        for (count, run) in counts.iter_mut().zip(&runs) {
            *count = u8::try_from(run.len()).map_err(|_| {
                Error::invalid(
                    "deck",
                    format!("{} copies of {}", run.len(), run[0]),
                    "the sequential enumerator handles at most 255 copies of a card",
                )
            })?;
        }
        Ok(Composition {
            values: runs.iter().map(|run| run[0]).collect(),
            counts,
            n_cards: deck.len(),
        })
    }

    /// The number of distinct arrangements: the multinomial coefficient
    /// `n! / (c_1! c_2! ...)`, built as a product of binomials so that
    /// every intermediate value is an integer.
    fn arrangements(&self) -> BigUint {
        let mut total = BigUint::from(1u32);
        let mut placed = 0u64;
        for &copies in &self.counts[..self.values.len()] {
            for k in 1..=u64::from(copies) {
                // With m cards of earlier values placed, `total` holds
                // their multinomial times C(m + k - 1, k - 1); times
                // (m + k) / k is the same with C(m + k, k), an integer.
                placed += 1;
                total = total * placed / k;
            }
        }
        total
    }

    fn count_list(&self) -> Vec<usize> {
        self.counts[..self.values.len()]
            .iter()
            .map(|&c| usize::from(c))
            .collect()
    }
}

/// Integer arithmetic for arrangement counts: checked for the machine
/// types, unbounded for `BigUint`.
trait Count: Clone + Send + Sync + 'static {
    fn zero() -> Self;
    /// Sets to zero, keeping any heap storage for reuse.
    fn set_zero(&mut self);
    fn checked_increment(&mut self) -> Option<()>;
    fn checked_add_assign(&mut self, other: &Self) -> Option<()>;
    fn to_biguint(&self) -> BigUint;
    /// Heap bytes one count owns when it holds up to `bits` bits.
    fn heap_bytes(bits: u64) -> u64;
}

macro_rules! machine_count {
    ($t:ty) => {
        impl Count for $t {
            #[inline]
            fn zero() -> Self {
                0
            }
            #[inline]
            fn set_zero(&mut self) {
                *self = 0;
            }
            #[inline]
            fn checked_increment(&mut self) -> Option<()> {
                *self = self.checked_add(1)?;
                Some(())
            }
            #[inline]
            fn checked_add_assign(&mut self, other: &Self) -> Option<()> {
                *self = self.checked_add(*other)?;
                Some(())
            }
            fn to_biguint(&self) -> BigUint {
                BigUint::from(*self)
            }
            fn heap_bytes(_bits: u64) -> u64 {
                0
            }
        }
    };
}

machine_count!(u64);
machine_count!(u128);

impl Count for BigUint {
    fn zero() -> Self {
        BigUint::ZERO
    }
    fn set_zero(&mut self) {
        Zero::set_zero(self);
    }
    fn checked_increment(&mut self) -> Option<()> {
        *self += 1u32;
        Some(())
    }
    fn checked_add_assign(&mut self, other: &Self) -> Option<()> {
        *self += other;
        Some(())
    }
    fn to_biguint(&self) -> BigUint {
        self.clone()
    }
    fn heap_bytes(bits: u64) -> u64 {
        malloc_chunk(bits.div_ceil(64) * 8)
    }
}

/// The bytes a request of `bytes` really takes from a glibc-style
/// allocator: an 8-byte header, 16-byte granularity, 32 bytes at least.
fn malloc_chunk(bytes: u64) -> u64 {
    (bytes + 8).next_multiple_of(16).max(32)
}

/// One top-level task: a node at the cut depth standing for `prefixes`
/// distinct deals of the first cards.
struct Task<S> {
    state: S,
    remaining: [u8; MAX_DISTINCT_CARDS],
    left: usize,
    prefixes: u64,
}

/// What every thread shares: the game, the deck and the memo.
struct Enumeration<'a, G: SequentialGame, C> {
    game: &'a G,
    values: &'a [Card],
    composition: &'a Composition,
    n_outcomes: usize,
    min_memo_remaining: usize,
    memo: DashMap<G::Key, Box<[C]>, ahash::RandomState>,
    /// Estimated bytes of one memo entry.
    entry_bytes: u64,
    /// `max_memo_bytes / entry_bytes`.
    max_entries: u64,
    /// Entries inserted (or reserved by a thread about to insert).
    entries: AtomicU64,
    full: AtomicBool,
}

/// The thread's own view while running one task: the states on the path
/// and the remaining multiset, both updated in place, and its statistics
/// (summed at the end rather than shared, so that counting them never
/// contends).
struct Worker<'e, 'a, G: SequentialGame, C> {
    shared: &'e Enumeration<'a, G, C>,
    /// The states on the current path (see [`Worker::expand`]).
    states: Vec<G::State>,
    /// `remaining[i]` copies of `values[i]` still to come.
    remaining: [u8; MAX_DISTINCT_CARDS],
    /// Bit `i` set iff `remaining[i] > 0`: children are its set bits.
    present: u64,
    hits: u64,
    nodes: u64,
}

impl<'a, G: SequentialGame, C: Count> Enumeration<'a, G, C> {
    fn new(
        game: &'a G,
        composition: &'a Composition,
        params: &SequentialParams,
        total: &BigUint,
    ) -> Self {
        let n_outcomes = game.n_outcomes();
        let entry_bytes = Self::entry_bytes(n_outcomes, total.bits());
        Enumeration {
            game,
            values: &composition.values,
            composition,
            n_outcomes,
            min_memo_remaining: params.min_memo_remaining,
            memo: DashMap::with_hasher(ahash::RandomState::new()),
            entry_bytes,
            max_entries: params.max_memo_bytes / entry_bytes,
            entries: AtomicU64::new(0),
            full: AtomicBool::new(false),
        }
    }

    /// The estimated bytes of one memo entry. The table slot holds the key
    /// and the box (a pointer and a length) plus one control byte; a
    /// hashbrown table is between 7/16 and 7/8 full, so the worst case,
    /// just after it doubled, is 16/7 slots per entry. The boxed counts
    /// are one allocation, rounded as the allocator does, plus any heap
    /// digits of big integers.
    fn entry_bytes(n_outcomes: usize, total_bits: u64) -> u64 {
        let slot = (size_of::<(G::Key, Box<[C]>)>() + 1) as u64;
        let table = (slot * 16).div_ceil(7);
        let counts = malloc_chunk((n_outcomes * size_of::<C>()) as u64);
        let digits = n_outcomes as u64 * C::heap_bytes(total_bits);
        table + counts + digits
    }

    /// Whether a node with `left` cards to come is memoised. Nodes with no
    /// card to come never are: they are a single outcome.
    #[inline]
    fn memoised(&self, left: usize) -> bool {
        left >= self.min_memo_remaining && left > 0
    }

    #[inline]
    fn key(&self, state: &G::State, remaining: &[u8; MAX_DISTINCT_CARDS]) -> Option<G::Key> {
        self.game
            .memo_key(state, self.values, &remaining[..self.values.len()])
    }

    /// Stores a node's counts unless the memo is at its byte budget.
    fn insert(&self, key: G::Key, counts: &[C]) {
        if self.full.load(Ordering::Relaxed) {
            return;
        }
        // Reserve the entry before inserting, so that concurrent inserts
        // can never overshoot the budget.
        let reserved = self
            .entries
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < self.max_entries).then_some(n + 1)
            });
        if reserved.is_err() {
            self.full.store(true, Ordering::Relaxed);
            return;
        }
        if self.memo.insert(key, counts.into()).is_some() {
            // Another thread computed the same node meanwhile and got there
            // first (with the same counts): give the reservation back.
            self.entries.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Runs every task in parallel and sums their counts.
    fn run(&self, progress: &dyn Progress) -> Result<(Vec<BigUint>, SequentialStats)> {
        let (depth, _) = split(&self.composition.count_list());
        let tasks = self.tasks(depth);
        let results: Vec<Option<(Vec<C>, u64, u64)>> = tasks
            .par_iter()
            .with_max_len(1)
            .map(|task| {
                // A stop request skips the tasks not yet started; the
                // result is then refused below.
                if progress.stop_requested() {
                    return None;
                }
                let result = self.solve(task);
                progress.advance(task.prefixes);
                result
            })
            .collect();
        if progress.stop_requested() {
            return Err(stopped_on_request());
        }
        let mut counts = vec![BigUint::ZERO; self.n_outcomes];
        let (mut hits, mut nodes) = (0, 0);
        for (task, result) in tasks.iter().zip(results) {
            let (task_counts, task_hits, task_nodes) = result.ok_or_else(|| self.overflow())?;
            for (sum, count) in counts.iter_mut().zip(&task_counts) {
                *sum += count.to_biguint() * task.prefixes;
            }
            hits += task_hits;
            nodes += task_nodes;
        }
        let memo_entries = self.memo.len() as u64;
        let stats = SequentialStats {
            memo_entries,
            memo_bytes: memo_entries * self.entry_bytes,
            memo_full: self.full.load(Ordering::Relaxed),
            memo_hits: hits,
            nodes,
        };
        Ok((counts, stats))
    }

    /// The error for an overflow that the bound on counts rules out.
    fn overflow(&self) -> Error {
        Error::invalid(
            "deck",
            format!("{} cards", self.composition.n_cards),
            "an arrangement count overflowed its integer type, which the bound on \
             counts rules out: this is a bug",
        )
    }

    /// The nodes at `depth`, one per distinct prefix, with nodes of equal
    /// memo keys merged (their counts are equal by the key's contract, so
    /// one is computed and weighted by the number of prefixes it stands
    /// for).
    fn tasks(&self, depth: usize) -> Vec<Task<G::State>> {
        let mut tasks = Vec::new();
        let mut index = AHashMap::new();
        let mut remaining = self.composition.counts;
        self.collect_tasks(
            &self.game.start(),
            &mut remaining,
            self.composition.n_cards,
            depth,
            &mut tasks,
            &mut index,
        );
        tasks
    }

    fn collect_tasks(
        &self,
        state: &G::State,
        remaining: &mut [u8; MAX_DISTINCT_CARDS],
        left: usize,
        depth: usize,
        tasks: &mut Vec<Task<G::State>>,
        index: &mut AHashMap<G::Key, usize>,
    ) {
        if depth == 0 {
            let key = if self.memoised(left) {
                self.key(state, remaining)
            } else {
                None
            };
            if let Some(key) = key {
                if let Some(&i) = index.get(&key) {
                    let task: &mut Task<G::State> = &mut tasks[i];
                    task.prefixes += 1;
                    return;
                }
                index.insert(key, tasks.len());
            }
            tasks.push(Task {
                state: state.clone(),
                remaining: *remaining,
                left,
                prefixes: 1,
            });
            return;
        }
        for i in 0..self.values.len() {
            if remaining[i] == 0 {
                continue;
            }
            let mut child = state.clone();
            self.game.deal(&mut child, self.values[i]);
            remaining[i] -= 1;
            self.collect_tasks(&child, remaining, left - 1, depth - 1, tasks, index);
            remaining[i] += 1;
        }
    }

    /// One task's counts (not yet weighted), hits and nodes; `None` on
    /// overflow.
    fn solve(&self, task: &Task<G::State>) -> Option<(Vec<C>, u64, u64)> {
        let mut present = 0u64;
        for (i, &copies) in task.remaining[..self.values.len()].iter().enumerate() {
            if copies > 0 {
                present |= 1 << i;
            }
        }
        let mut worker = Worker {
            shared: self,
            // A path down the tree uses at most one more slot per card.
            states: vec![task.state.clone(); task.left + 1],
            remaining: task.remaining,
            present,
            hits: 0,
            nodes: 0,
        };
        let mut counts = vec![C::zero(); self.n_outcomes];
        // One slice of n_outcomes counts per number of cards to come, for
        // the memoised nodes on the current path: the only buffers the
        // recursion needs, allocated once.
        let mut scratch = vec![C::zero(); task.left * self.n_outcomes];
        worker.visit(0, task.left, &mut counts, &mut scratch)?;
        Some((counts, worker.hits, worker.nodes))
    }
}

impl<G: SequentialGame, C: Count> Worker<'_, '_, G, C> {
    /// Adds the counts of the node (`self.states[slot]`, `self.remaining`),
    /// which has `left` cards to come, to `out`. `scratch` holds at least
    /// `left` slices of `n_outcomes` counts. Leaves `self.states[slot..]`
    /// undefined (the node's own state is consumed by its last child).
    /// `None` on overflow.
    fn visit(&mut self, slot: usize, left: usize, out: &mut [C], scratch: &mut [C]) -> Option<()> {
        let shared = self.shared;
        if left == 0 {
            return out[shared.game.outcome(&self.states[slot])].checked_increment();
        }
        let key = if shared.memoised(left) {
            shared.key(&self.states[slot], &self.remaining)
        } else {
            None
        };
        let Some(key) = key else {
            // Not memoised: its counts go straight into the parent's sum.
            return self.expand(slot, left, out, scratch);
        };
        if let Some(found) = shared.memo.get(&key) {
            self.hits += 1;
            for (sum, count) in out.iter_mut().zip(found.iter()) {
                sum.checked_add_assign(count)?;
            }
            return Some(());
        }
        let n_outcomes = shared.n_outcomes;
        let (below, mine) = scratch.split_at_mut((left - 1) * n_outcomes);
        let mine = &mut mine[..n_outcomes];
        for count in mine.iter_mut() {
            count.set_zero();
        }
        self.expand(slot, left, mine, below)?;
        for (sum, count) in out.iter_mut().zip(mine.iter()) {
            sum.checked_add_assign(count)?;
        }
        shared.insert(key, mine);
        Some(())
    }

    /// Adds the counts of every child of the node in `slot` to `out`.
    ///
    /// Every child but the last gets a copy of the state in the next slot;
    /// the last deals into the node's own slot, which is no longer needed.
    /// So a leaf costs no copy at all, and a node with `k` children costs
    /// `k - 1`: copying states is most of the work once the game's deal
    /// is cheap.
    #[inline]
    fn expand(&mut self, slot: usize, left: usize, out: &mut [C], scratch: &mut [C]) -> Option<()> {
        self.nodes += 1;
        let game = self.shared.game;
        let values = self.shared.values;
        if left == 1 {
            // The only child is a leaf: skip the call.
            let i = self.present.trailing_zeros() as usize;
            let state = &mut self.states[slot];
            game.deal(state, values[i]);
            return out[game.outcome(state)].checked_increment();
        }
        let mut pending = self.present;
        loop {
            let i = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let child = if pending == 0 {
                slot
            } else {
                let (parents, children) = self.states.split_at_mut(slot + 1);
                children[0].clone_from(&parents[slot]);
                slot + 1
            };
            game.deal(&mut self.states[child], values[i]);
            self.remaining[i] -= 1;
            if self.remaining[i] == 0 {
                self.present &= !(1 << i);
            }
            let result = self.visit(child, left - 1, out, scratch);
            self.remaining[i] += 1;
            self.present |= 1 << i;
            result?;
            if pending == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use num_integer::binomial;

    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::with_threads;

    fn no_memo() -> SequentialParams {
        SequentialParams {
            min_memo_remaining: usize::MAX,
            ..SequentialParams::default()
        }
    }

    fn memo_from(min_memo_remaining: usize) -> SequentialParams {
        SequentialParams {
            min_memo_remaining,
            ..SequentialParams::default()
        }
    }

    fn count<G: SequentialGame>(
        game: &G,
        deck: &[Card],
        params: &SequentialParams,
    ) -> (ArrangementCounts, SequentialStats) {
        count_outcomes(game, deck, params, &NoProgress).unwrap()
    }

    fn big(counts: &[u64]) -> Vec<BigUint> {
        counts.iter().map(|&c| BigUint::from(c)).collect()
    }

    fn factorial(n: usize) -> BigUint {
        (1..=n as u64).map(BigUint::from).product()
    }

    /// The toy game [`Ascents`] on `suits` x `ranks` distinct cards, one
    /// bin per count.
    fn ascents(suits: u8, ranks: u8) -> (Ascents, Vec<Card>) {
        let deck: Vec<Card> = (0..suits)
            .flat_map(|suit| (1..=ranks).map(move |rank| Card::new(rank, suit)))
            .collect();
        (Ascents { bins: deck.len() }, deck)
    }

    /// Calls `visit` with every permutation of `cards` (repeats included
    /// when cards repeat).
    fn for_each_permutation(cards: &mut [Card], from: usize, visit: &mut impl FnMut(&[Card])) {
        if from == cards.len() {
            visit(cards);
            return;
        }
        for i in from..cards.len() {
            cards.swap(from, i);
            for_each_permutation(cards, from + 1, visit);
            cards.swap(from, i);
        }
    }

    /// Outcome counts over the distinct orders of `deck`, by playing each.
    fn brute_force<G: SequentialGame>(game: &G, deck: &[Card]) -> Vec<u64> {
        let mut tally = vec![0u64; game.n_outcomes()];
        let mut seen = HashSet::new();
        let mut cards = deck.to_vec();
        for_each_permutation(&mut cards, 0, &mut |order| {
            if seen.insert(order.to_vec()) {
                tally[game.play(order)] += 1;
            }
        });
        tally
    }

    /// A toy game on any multiset: the outcome is the number of cards equal
    /// to the card before them, modulo `bins`.
    struct EqualNeighbours {
        bins: usize,
    }

    #[derive(Clone)]
    struct Neighbours {
        last: Option<Card>,
        equal: u16,
    }

    impl SequentialGame for EqualNeighbours {
        type State = Neighbours;
        type Key = u128;

        fn n_outcomes(&self) -> usize {
            self.bins
        }

        fn start(&self) -> Neighbours {
            Neighbours {
                last: None,
                equal: 0,
            }
        }

        fn deal(&self, state: &mut Neighbours, card: Card) {
            if state.last == Some(card) {
                state.equal += 1;
            }
            state.last = Some(card);
        }

        fn outcome(&self, state: &Neighbours) -> usize {
            usize::from(state.equal) % self.bins
        }

        /// The last card, the count modulo `bins` (all that the future
        /// outcome depends on, so this merges states with different
        /// counts) and the remaining copies, a byte each.
        fn memo_key(&self, state: &Neighbours, values: &[Card], remaining: &[u8]) -> Option<u128> {
            if values.len() > 8 {
                return None;
            }
            let last = state.last.map_or(0, |card| {
                1 + u128::from(card.suit()) * 13 + u128::from(card.rank())
            });
            let mut key = last << 16 | (usize::from(state.equal) % self.bins) as u128;
            for &copies in remaining {
                key = key << 8 | u128::from(copies);
            }
            Some(key)
        }
    }

    /// A toy game on distinct cards: the outcome is the number of cards
    /// higher than the card before them (ascents), modulo `bins`. Over the
    /// permutations of n cards the counts are the Eulerian numbers.
    struct Ascents {
        bins: usize,
    }

    #[derive(Clone)]
    struct Rises {
        last: Option<Card>,
        count: u16,
    }

    impl SequentialGame for Ascents {
        type State = Rises;
        type Key = u128;

        fn n_outcomes(&self) -> usize {
            self.bins
        }

        fn start(&self) -> Rises {
            Rises {
                last: None,
                count: 0,
            }
        }

        fn deal(&self, state: &mut Rises, card: Card) {
            if state.last.is_some_and(|last| last < card) {
                state.count += 1;
            }
            state.last = Some(card);
        }

        fn outcome(&self, state: &Rises) -> usize {
            usize::from(state.count) % self.bins
        }

        /// The count modulo `bins`, the cards to come and how many of
        /// them are higher than the last card: all that the future outcome
        /// depends on, as only the cards' order matters. So this merges
        /// every state whose cards to come are ordered alike around the
        /// last card (as a game's key merges states equal up to a
        /// symmetry). `None` for a deck with repeated cards.
        fn memo_key(&self, state: &Rises, values: &[Card], remaining: &[u8]) -> Option<u128> {
            if remaining.iter().any(|&copies| copies > 1) {
                return None;
            }
            let left: u128 = remaining.iter().map(|&copies| u128::from(copies)).sum();
            let higher = state.last.map_or(u128::from(u16::MAX), |last| {
                values
                    .iter()
                    .zip(remaining)
                    .filter(|&(&value, _)| value > last)
                    .map(|(_, &copies)| u128::from(copies))
                    .sum()
            });
            let rises = (usize::from(state.count) % self.bins) as u128;
            Some(higher << 32 | left << 16 | rises)
        }
    }

    /// The Eulerian numbers A(n, k), k = 0..n: permutations of n distinct
    /// items with k ascents, by their recurrence.
    fn eulerian(n: usize) -> Vec<BigUint> {
        let mut row = vec![BigUint::from(1u32)];
        for m in 2..=n {
            row = (0..m)
                .map(|k| {
                    let stay = row.get(k).map_or(BigUint::ZERO, |a| a * (k + 1));
                    let rise = k
                        .checked_sub(1)
                        .and_then(|j| row.get(j))
                        .map_or(BigUint::ZERO, |a| a * (m - k));
                    stay + rise
                })
                .collect();
        }
        row.resize(n.max(1), BigUint::ZERO);
        row
    }

    /// `copies[i]` copies of rank `i + 1` in suit 0.
    fn multiset(copies: &[usize]) -> Vec<Card> {
        copies
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(Card::new(i as u8 + 1, 0), n))
            .collect()
    }

    #[test]
    fn distinct_decks_match_playing_every_permutation() {
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
            let (game, deck) = ascents(suits, ranks);
            let expected = big(&brute_force(&game, &deck));
            assert_eq!(expected, eulerian(deck.len()), "{suits}x{ranks}");
            for params in [
                SequentialParams::default(),
                memo_from(0),
                memo_from(2),
                no_memo(),
            ] {
                let (counts, _) = count(&game, &deck, &params);
                assert_eq!(counts.counts, expected, "{suits}x{ranks} {params:?}");
                assert_eq!(counts.total, factorial(deck.len()), "{suits}x{ranks}");
            }
        }
        // Beyond brute force: 16 distinct cards against the closed form.
        let (game, deck) = ascents(2, 8);
        let (counts, _) = count(&game, &deck, &SequentialParams::default());
        assert_eq!(counts.counts, eulerian(16));
        assert_eq!(counts.total, factorial(16));
    }

    #[test]
    fn a_stop_request_ends_the_enumeration_with_an_interrupt_not_a_partial_count() {
        struct Stopped;
        impl Progress for Stopped {
            fn advance(&self, _: u64) {}
            fn stop_requested(&self) -> bool {
                true
            }
        }
        let (game, deck) = ascents(2, 5);
        let error = count_outcomes(&game, &deck, &SequentialParams::default(), &Stopped)
            .map(|_| ())
            .unwrap_err();
        assert!(matches!(error, Error::Interrupted { .. }), "{error}");
    }

    #[test]
    fn repeated_cards_count_distinct_arrangements_once() {
        for copies in [&[2, 2, 1][..], &[3, 2, 2, 1], &[1, 4, 1]] {
            let deck = multiset(copies);
            let game = EqualNeighbours { bins: deck.len() };
            let expected = brute_force(&game, &deck);
            for params in [SequentialParams::default(), memo_from(1), no_memo()] {
                let (counts, _) = count(&game, &deck, &params);
                assert_eq!(counts.counts, big(&expected), "{copies:?} {params:?}");
                let distinct: u64 = expected.iter().sum();
                assert_eq!(counts.total, BigUint::from(distinct));
            }
        }
        // 5! / (2! 2! 1!) = 30 distinct orders of 1 1 2 2 3.
        let (counts, _) = count(
            &EqualNeighbours { bins: 5 },
            &multiset(&[2, 2, 1]),
            &SequentialParams::default(),
        );
        assert_eq!(counts.total, BigUint::from(30u32));
    }

    /// Binary sequences of `a` ones and `b` zeros (a, b >= 1) by the number
    /// of elements equal to their predecessor, modulo `bins`, from the
    /// classical count of sequences with `r` runs.
    fn equal_neighbours_closed_form(a: u64, b: u64, bins: usize) -> Vec<BigUint> {
        let c = |n: u64, k: u64| -> BigUint {
            if k > n {
                BigUint::ZERO
            } else {
                binomial(BigUint::from(n), BigUint::from(k))
            }
        };
        let mut counts = vec![BigUint::ZERO; bins];
        for runs in 2..=a + b {
            let s = runs / 2;
            let with_runs = if runs % 2 == 0 {
                c(a - 1, s - 1) * c(b - 1, s - 1) * 2u32
            } else {
                c(a - 1, s) * c(b - 1, s - 1) + c(a - 1, s - 1) * c(b - 1, s)
            };
            counts[(a + b - runs) as usize % bins] += with_runs;
        }
        counts
    }

    #[test]
    fn every_count_type_is_exact() {
        let total_bits =
            |copies: usize| binomial(BigUint::from(2 * copies), BigUint::from(copies)).bits();
        // 2 x 6 cards count in u64, 2 x 34 in u128 and 2 x 70 in BigUint.
        assert!(total_bits(6) <= 64);
        assert!((65..=128).contains(&total_bits(34)));
        assert!(total_bits(70) > 128);
        for copies in [6, 34, 70] {
            let game = EqualNeighbours { bins: 3 };
            let deck = multiset(&[copies, copies]);
            let (counts, _) = count(&game, &deck, &SequentialParams::default());
            let expected = equal_neighbours_closed_form(copies as u64, copies as u64, 3);
            assert_eq!(counts.counts, expected, "2 x {copies}");
        }
    }

    #[test]
    fn memo_depth_does_not_change_counts() {
        for (suits, ranks) in [(3, 3), (2, 5), (5, 2)] {
            let (game, deck) = ascents(suits, ranks);
            let (with_memo, stats) = count(&game, &deck, &SequentialParams::default());
            let (without, no_stats) = count(&game, &deck, &no_memo());
            assert_eq!(with_memo, without, "{suits}x{ranks}");
            assert_eq!(no_stats.memo_entries, 0);
            assert_eq!(no_stats.memo_hits, 0);
            assert!(stats.nodes <= no_stats.nodes);
        }
        // Memoising from 2, 5 or 8 cards to come shares very different
        // subtrees.
        let (game, deck) = ascents(4, 3);
        let (reference, stats) = count(&game, &deck, &SequentialParams::default());
        assert!(stats.memo_entries > 0 && stats.memo_hits > 0 && !stats.memo_full);
        assert!(stats.memo_bytes >= stats.memo_entries * 100);
        for min_memo_remaining in [2, 8] {
            assert_eq!(
                count(&game, &deck, &memo_from(min_memo_remaining)).0,
                reference
            );
        }
    }

    #[test]
    fn a_full_memo_stays_exact() {
        let (game, deck) = ascents(3, 3);
        let (reference, _) = count(&game, &deck, &memo_from(2));
        let tiny = SequentialParams {
            min_memo_remaining: 2,
            max_memo_bytes: 1,
        };
        let (counts, stats) = count(&game, &deck, &tiny);
        assert_eq!(counts, reference);
        assert!(stats.memo_full);
        assert_eq!((stats.memo_entries, stats.memo_bytes), (0, 0));

        // A budget of a few entries: filled, never exceeded.
        let (_, unlimited) = count(&game, &deck, &memo_from(2));
        let budget = 3 * unlimited.memo_bytes / unlimited.memo_entries;
        let small = SequentialParams {
            min_memo_remaining: 2,
            max_memo_bytes: budget,
        };
        // One thread: with more, a thread can find the budget full while
        // another holds a reservation it is about to give back.
        let (counts, stats) = with_threads(1, || count(&game, &deck, &small));
        assert_eq!(counts, reference);
        assert!(stats.memo_full);
        assert_eq!(stats.memo_entries, 3);
        assert!(stats.memo_bytes <= budget);
    }

    #[test]
    fn counts_do_not_depend_on_threads() {
        for (suits, ranks) in [(4, 3), (2, 8)] {
            let (game, deck) = ascents(suits, ranks);
            let params = SequentialParams::default();
            let one = with_threads(1, || count(&game, &deck, &params).0);
            let two = with_threads(2, || count(&game, &deck, &params).0);
            assert_eq!(one, two, "{suits}x{ranks}");
        }
        let game = EqualNeighbours { bins: 4 };
        let deck = multiset(&[3, 2, 2, 1, 4]);
        let params = memo_from(1);
        let one = with_threads(1, || count(&game, &deck, &params).0);
        let three = with_threads(3, || count(&game, &deck, &params).0);
        assert_eq!(one, three);
    }

    /// Progress that adds up what it is told.
    struct Tally(AtomicU64);

    impl Progress for Tally {
        fn advance(&self, units: u64) {
            self.0.fetch_add(units, Ordering::Relaxed);
        }
    }

    #[test]
    fn progress_adds_up_to_its_units() {
        let (game, deck) = ascents(4, 3);
        let tally = Tally(AtomicU64::new(0));
        count_outcomes(&game, &deck, &SequentialParams::default(), &tally).unwrap();
        // 12 x 11 x 10 x 9 distinct deals of the first four cards.
        assert_eq!(progress_units(&deck), 11880);
        assert_eq!(tally.0.load(Ordering::Relaxed), 11880);

        let deck = multiset(&[2, 2, 1]);
        let tally = Tally(AtomicU64::new(0));
        count_outcomes(&EqualNeighbours { bins: 5 }, &deck, &memo_from(1), &tally).unwrap();
        // Short decks are cut at their full length: 30 distinct orders.
        assert_eq!(progress_units(&deck), 30);
        assert_eq!(tally.0.load(Ordering::Relaxed), 30);
    }

    #[test]
    fn distinct_prefixes_of_a_multiset() {
        // {a, a, b}: "", a b, aa ab ba, aab aba baa.
        assert_eq!(distinct_prefixes(&[2, 1], 3), [1, 2, 3, 3]);
        // Distinct cards: falling factorials.
        assert_eq!(distinct_prefixes(&[1; 5], 5), [1, 5, 20, 60, 120, 120]);
        assert_eq!(distinct_prefixes(&[4], 4), [1, 1, 1, 1, 1]);
    }

    #[test]
    fn an_empty_deck_has_one_arrangement() {
        let (counts, _) = count(
            &EqualNeighbours { bins: 2 },
            &[],
            &SequentialParams::default(),
        );
        assert_eq!(counts.counts, big(&[1, 0]));
        assert_eq!(counts.total, BigUint::from(1u32));
        assert_eq!(progress_units(&[]), 1);
    }

    #[test]
    fn decks_beyond_the_limits_are_refused_by_name() {
        let game = EqualNeighbours { bins: 2 };
        let wide: Vec<Card> = (0..5)
            .flat_map(|suit| (1..=13).map(move |rank| Card::new(rank, suit)))
            .collect();
        let err =
            count_outcomes(&game, &wide, &SequentialParams::default(), &NoProgress).unwrap_err();
        assert!(
            err.to_string().starts_with("deck 65 distinct cards:"),
            "{err}"
        );
        let tall = multiset(&[256]);
        let err =
            count_outcomes(&game, &tall, &SequentialParams::default(), &NoProgress).unwrap_err();
        assert!(
            err.to_string().starts_with("deck 256 copies of AC:"),
            "{err}"
        );
    }
}
