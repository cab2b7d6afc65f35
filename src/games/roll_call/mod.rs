//! Roll-Call ("Hit or Miss", "Treize", "Frustration"), RULES.md section 2.
//!
//! The deck is `R` ranks with `S` copies each, suits ignored, held as a
//! queue. A count starts at 1; each step turns the top card, discards it if
//! its rank equals the count and otherwise puts it at the bottom, then
//! advances the count (R wraps to 1). A pass processes as many cards as the
//! deck held when it began; a strike is a pass without a match. The game is
//! won when the deck is empty and lost after `K` strikes in a row.
//!
//! [`RollCall::play_with`] is the one play function: the Monte-Carlo runner,
//! the exhaustive enumerator and `replay` all call it, and one call reports
//! every version at once (K = 1, 2, 3 and unlimited), so the versions are
//! compared on the same deals.
//!
//! # Why unlimited play is decided exactly
//!
//! A pass without a match discards nothing, so it maps the state at the
//! start of a pass, (deck order, count), to `T(deck, count)`: the same deck
//! (`order = same`) or the deck reversed (`reversed`), with the count moved
//! on by `n mod R` (`continuous`) or back to 1 (`restart`). `T` is a
//! bijection of a finite set, so the states `s, T(s), T(T(s)), ...` run
//! round a cycle that returns to `s` itself. While strikes go on in a row,
//! the game moves along exactly this cycle; so if `m` strikes in a row bring
//! the state back to the one the run started from, every pass after that
//! repeats one already played without a match, and no card will ever be
//! matched again: the game is stuck. Conversely, before the run has come
//! round (fewer than `m` strikes), nothing is decided yet. The length of the
//! cycle through `s` is the least `m >= 1` with `T^m(s) = s`:
//!
//! - the count part: `continuous` returns after `p = R / gcd(n mod R, R)`
//!   passes (`p = 1` when `R` divides `n`); `restart` after 1;
//! - the order part: `same` after 1; `reversed` after 2, or 1 when the deck
//!   reads the same backwards (ranks only: copies are identical);
//!
//! so `m` is the least common multiple of the two ([`stuck_after`]). For the
//! standard deck with `same` and `continuous` that is 13 strikes when `n`
//! is not a multiple of 13, and a single strike when it is (a full deck with
//! no match on the first pass is lost at once). Unlimited play ends, lost,
//! after exactly `m` strikes in a row; no pass cap is involved.

pub mod distributions;
pub mod first_pass;
pub mod search;

use std::fmt;

use num_integer::Integer;

use crate::cards::{Card, RankDeck};
use crate::engine::Player;
use crate::engine::Simulation;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::{Error, Result};
use crate::rng::{GameRng, shuffle};
use crate::simd::SimdLevel;

/// The most ranks a deck may have (counts are small integers).
pub const MAX_RANKS: u8 = 13;

/// The most cards a deck may have (the deck is a fixed array).
pub const MAX_CARDS: usize = 64;

/// The limited versions reported beside unlimited play: lost after `K`
/// strikes in a row, for K = 1, 2, 3.
pub const LIMITS: [u16; 3] = [1, 2, 3];

/// Whether the count runs on across passes or restarts at 1 each pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// The count runs on across passes (the default, the seed's).
    Continuous,
    /// The count goes back to 1 at the start of every pass.
    Restart,
}

/// The order in which the next pass sees the cards not matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassOrder {
    /// The same relative order (the pile is turned over; the default).
    Same,
    /// Reversed each pass (the pile is not turned over).
    Reversed,
}

impl Count {
    /// Parses `continuous` or `restart`; the error names `count`.
    pub fn parse(text: &str) -> Result<Count> {
        match text {
            "continuous" => Ok(Count::Continuous),
            "restart" => Ok(Count::Restart),
            _ => Err(Error::invalid(
                "count",
                text,
                "must be continuous or restart",
            )),
        }
    }

    /// The name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Count::Continuous => "continuous",
            Count::Restart => "restart",
        }
    }
}

impl PassOrder {
    /// Parses `same` or `reversed`; the error names `order`.
    pub fn parse(text: &str) -> Result<PassOrder> {
        match text {
            "same" => Ok(PassOrder::Same),
            "reversed" => Ok(PassOrder::Reversed),
            _ => Err(Error::invalid("order", text, "must be same or reversed")),
        }
    }

    /// The name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            PassOrder::Same => "same",
            PassOrder::Reversed => "reversed",
        }
    }
}

/// The version of the game: deck shape and the two rule variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollCallParams {
    /// Ranks, 2..=13 (the count runs 1..=ranks).
    pub ranks: u8,
    /// Copies of each rank, at least 1.
    pub copies: u8,
    /// Whether the count runs on across passes.
    pub count: Count,
    /// The order each pass sees the cards in.
    pub order: PassOrder,
}

impl Default for RollCallParams {
    /// The standard game: 13 ranks x 4 copies, continuous count, same order.
    fn default() -> RollCallParams {
        RollCallParams {
            ranks: 13,
            copies: 4,
            count: Count::Continuous,
            order: PassOrder::Same,
        }
    }
}

/// Everything one game reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RollCallRecord {
    /// Cards left when the game ended with K = 1, 2, 3 strikes in a row
    /// allowed (0 = won), in the order of [`LIMITS`].
    pub left_limited: [u8; 3],
    /// Cards left in unlimited play (0 = won).
    pub left: u8,
    /// Passes played in unlimited play.
    pub passes: u16,
    /// Strikes (passes without a match) in unlimited play.
    pub strikes: u16,
    /// Matches in the first pass.
    pub first_pass_matches: u8,
}

impl RollCallRecord {
    /// Won without a single strike.
    pub fn zero_strike_win(&self) -> bool {
        self.left == 0 && self.strikes == 0
    }
}

/// What [`RollCall::play_with`] reports as it goes, for `replay`. The
/// Monte-Carlo runner and the enumerator pass [`Silent`], whose `WATCHING`
/// is false, so play does not even prepare the reports.
pub trait Observer {
    /// Whether play should prepare and send the reports.
    const WATCHING: bool = true;
    /// A pass begins with `cards` (ranks 1..=R, in the order they will be
    /// turned) and the count at `count` (1..=R).
    fn pass_starts(&mut self, _pass: u16, _cards: &[u8], _count: u8) {}
    /// A card of rank `rank` is turned with the count at `count`.
    fn card_turned(&mut self, _rank: u8, _count: u8) {}
    /// A pass ends; `strikes_in_a_row` is 0 unless it had no match.
    fn pass_ends(&mut self, _matches: u8, _strikes_in_a_row: u16) {}
}

/// The observer that watches nothing.
pub struct Silent;

impl Observer for Silent {
    const WATCHING: bool = false;
}

/// The game for one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollCall {
    params: RollCallParams,
    /// `count_up[j] = j mod R + 1`, the count `j` cards after a count of 1.
    /// A pass turned front to back reads the counts of its cards from here,
    /// 64 at a time, instead of wrapping a counter card by card.
    count_up: [u8; COUNT_TABLE],
    /// `count_down[j] = -j mod R + 1`, the count `j` cards before a count of
    /// 1: the same for a pass turned back to front.
    count_down: [u8; COUNT_TABLE],
    /// `count_period[n]`: [`count_period`] for `n` cards, looked up at
    /// every first strike instead of dividing.
    count_period: [u8; MAX_CARDS + 1],
}

/// Entries of the count tables: a pass starts at most `R - 1` entries in
/// and reads [`MAX_CARDS`] of them.
const COUNT_TABLE: usize = MAX_CARDS + MAX_RANKS as usize;

/// The cards of a pass, in the first [`MAX_CARDS`] bytes; the second half
/// takes the spill of the whole-width copies of [`keep_unmatched`].
type Row = [u8; 2 * MAX_CARDS];

impl RollCall {
    /// Checks the version: 2..=13 ranks (with one rank every card matches
    /// at once), at least one copy, at most [`MAX_CARDS`] cards.
    pub fn new(params: RollCallParams) -> Result<RollCall> {
        if !(2..=MAX_RANKS).contains(&params.ranks) {
            return Err(Error::invalid(
                "ranks",
                params.ranks,
                "must be 2 to 13 (the count runs from 1 to the number of ranks)",
            ));
        }
        if params.copies == 0 {
            return Err(Error::invalid(
                "copies",
                params.copies,
                "must be at least 1",
            ));
        }
        let n = usize::from(params.ranks) * usize::from(params.copies);
        if n > MAX_CARDS {
            return Err(Error::invalid(
                "ranks x copies",
                format!("{} x {} = {n} cards", params.ranks, params.copies),
                format!("must be at most {MAX_CARDS} cards"),
            ));
        }
        Ok(RollCall::with_params(params))
    }

    /// The standard game.
    pub fn standard() -> RollCall {
        RollCall::with_params(RollCallParams::default())
    }

    /// The game for checked parameters.
    fn with_params(params: RollCallParams) -> RollCall {
        let ranks = usize::from(params.ranks);
        let mut count_up = [0u8; COUNT_TABLE];
        let mut count_down = [0u8; COUNT_TABLE];
        for (j, (up, down)) in count_up.iter_mut().zip(&mut count_down).enumerate() {
            *up = (j % ranks + 1) as u8;
            *down = ((ranks - j % ranks) % ranks + 1) as u8;
        }
        let mut periods = [0u8; MAX_CARDS + 1];
        for (n, period) in periods.iter_mut().enumerate() {
            *period = count_period(params, n) as u8;
        }
        RollCall {
            params,
            count_up,
            count_down,
            count_period: periods,
        }
    }

    /// The version played.
    pub fn params(&self) -> RollCallParams {
        self.params
    }

    /// Cards in the deck.
    pub fn n_cards(&self) -> usize {
        usize::from(self.params.ranks) * usize::from(self.params.copies)
    }

    /// The deck in rank order: ranks 1..=R, each `copies` times.
    pub fn sorted_ranks(&self) -> Vec<u8> {
        self.deck().sorted_ranks()
    }

    /// Checks that `deal` is an arrangement of this deck: ranks 1..=R, each
    /// exactly `copies` times. The error names `deal`.
    pub fn check_deal(&self, deal: &[u8]) -> Result<()> {
        self.deck().check_deal(deal)
    }

    /// The deck: only ranks matter.
    pub fn deck(&self) -> RankDeck {
        RankDeck {
            ranks: self.params.ranks,
            copies: self.params.copies,
        }
    }

    /// The most passes and the most strikes unlimited play can take: at
    /// most `n` passes match something (each discards a card), and between
    /// two of them, and at the end, fewer than `2 R` strikes in a row (the
    /// longest cycle, see the module documentation).
    pub fn max_passes(&self) -> usize {
        let n = self.n_cards();
        n + (n + 1) * 2 * usize::from(self.params.ranks)
    }

    /// Plays `deal` (ranks 1..=R; a permutation of the deck, which the
    /// caller guarantees) and reports every version at once.
    #[inline]
    pub fn play(&self, deal: &[u8]) -> RollCallRecord {
        self.play_with(deal, &mut Silent)
    }

    /// The play function, telling `observer` what happens, with the
    /// fastest [`Kernel`] this CPU has.
    ///
    /// Guarantee: ends for every deal, without a pass cap (module
    /// documentation); no allocation; the same record with every kernel.
    #[inline]
    pub fn play_with<O: Observer>(&self, deal: &[u8], observer: &mut O) -> RollCallRecord {
        // SAFETY: `fastest` returns only kernels this CPU has.
        unsafe { self.play_unchecked(Kernel::fastest(), deal, observer) }
    }

    /// [`RollCall::play_with`] with a chosen kernel (for tests and
    /// benchmarks). Panics if this CPU does not have it.
    pub fn play_using<O: Observer>(
        &self,
        kernel: Kernel,
        deal: &[u8],
        observer: &mut O,
    ) -> RollCallRecord {
        assert!(
            kernel.available(),
            "this CPU cannot run the {} kernel",
            kernel.name()
        );
        // SAFETY: just checked.
        unsafe { self.play_unchecked(kernel, deal, observer) }
    }

    /// Plays with `kernel`.
    ///
    /// # Safety
    ///
    /// This CPU must have `kernel` ([`Kernel::available`]).
    #[inline]
    unsafe fn play_unchecked<O: Observer>(
        &self,
        kernel: Kernel,
        deal: &[u8],
        observer: &mut O,
    ) -> RollCallRecord {
        match kernel {
            Kernel::Portable => self.play_kernel::<O, false>(deal, observer),
            // SAFETY: the caller guarantees the CPU has the features
            // `play_avx512` is compiled for.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { self.play_avx512(deal, observer) },
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx512 => unreachable!("no x86-64 CPU has been promised"),
        }
    }

    /// The play loop compiled for AVX-512, so that `sweep_avx512` inlines.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
    fn play_avx512<O: Observer>(&self, deal: &[u8], observer: &mut O) -> RollCallRecord {
        self.play_kernel::<O, true>(deal, observer)
    }

    /// The play loop, sweeping passes with `sweep_avx512` (`AVX512`,
    /// only ever instantiated by `play_avx512`) or `sweep_portable`.
    ///
    /// How it is fast: a pass compares all 64 card slots at once with 64
    /// counts read from a table, giving the matches as a bit mask, and
    /// keeps the other cards in order by a vector compress or by whole
    /// 64-byte block moves. Under `order = reversed` the cards are never
    /// reversed in memory: odd passes read them back to front, with counts
    /// from the descending table.
    #[inline(always)]
    fn play_kernel<O: Observer, const AVX512: bool>(
        &self,
        deal: &[u8],
        observer: &mut O,
    ) -> RollCallRecord {
        let mut rows = [[0u8; 2 * MAX_CARDS]; 2];
        let mut n = deal.len();
        rows[0][..n].copy_from_slice(deal);
        let (first, second) = rows.split_at_mut(1);
        let (mut cards, mut kept_cards) = (&mut first[0], &mut second[0]);
        let mut record = RollCallRecord::default();
        // The count at the start of the next pass, less 1 (0..R).
        let mut start = 0;
        let mut in_a_row = 0u16;
        // Strikes in a row after which the game is stuck (module
        // documentation); set at the first strike of each run.
        let mut stuck_at = u16::MAX;
        let mut limited_open = [true; 3];
        let reversed = self.params.order == PassOrder::Reversed;
        loop {
            if self.params.count == Count::Restart {
                start = 0;
            }
            // Kept cards stay in stored order, and each pass turns them in
            // the reverse of the order the last one did.
            let backwards = reversed && record.passes % 2 == 1;
            let counts = if backwards {
                // Stored card k is turned n - 1 - k cards after the start:
                // its count is count_down[k + s] with s = -(start + n - 1).
                let s = usize::from(self.count_down[start + n - 1]) - 1;
                &self.count_down[s..]
            } else {
                &self.count_up[start..]
            };
            let counts = counts
                .first_chunk::<MAX_CARDS>()
                .expect("the count tables hold R - 1 + MAX_CARDS entries");
            if O::WATCHING {
                report_pass(observer, record.passes, &cards[..n], counts, backwards);
            }
            let kept = if AVX512 {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `AVX512` is true only inside `play_avx512`, which
                // runs only on CPUs with the features `sweep_avx512` needs.
                unsafe {
                    sweep_avx512(cards, counts, n, kept_cards)
                }
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!("AVX-512 kernel on a CPU that is not x86-64")
            } else {
                sweep_portable(cards, counts, n, kept_cards)
            };
            std::mem::swap(&mut cards, &mut kept_cards);
            let matches = n - kept;
            // The count moved on by the n cards turned.
            start = usize::from(self.count_up[start + n]) - 1;
            n = kept;
            if record.passes == 0 {
                record.first_pass_matches = matches as u8;
            }
            record.passes += 1;
            if O::WATCHING {
                let strikes = if matches == 0 { in_a_row + 1 } else { 0 };
                observer.pass_ends(matches as u8, strikes);
            }
            if n == 0 {
                break;
            }
            if matches > 0 {
                in_a_row = 0;
                continue;
            }
            in_a_row += 1;
            record.strikes += 1;
            if in_a_row == 1 {
                stuck_at = self.stuck_after(n, &cards[..n]);
            }
            for (open, (&limit, left)) in limited_open
                .iter_mut()
                .zip(LIMITS.iter().zip(&mut record.left_limited))
            {
                if *open && in_a_row >= limit {
                    *open = false;
                    *left = n as u8;
                }
            }
            if in_a_row >= stuck_at {
                break;
            }
        }
        record.left = n as u8;
        // A limited version still open when unlimited play ended either won
        // (n = 0) or is stuck with fewer strikes in a row than its limit,
        // and would strike on with the same cards until it reached it.
        for (open, left) in limited_open.iter().zip(&mut record.left_limited) {
            if *open {
                *left = n as u8;
            }
        }
        record
    }
}

impl RollCall {
    /// [`stuck_after`] for this version, without a division.
    #[inline]
    fn stuck_after(&self, n: usize, cards: &[u8]) -> u16 {
        let count = u16::from(self.count_period[n]);
        // The least common multiple of `count` and the order's period.
        if order_period(self.params, cards) == 2 && count % 2 == 1 {
            2 * count
        } else {
            count
        }
    }
}

/// Bit `k` set when `cards[k] == counts[k]`, for all 64 slots.
///
/// On x86-64, four SSE2 byte comparisons and mask extractions (compilers do
/// not find them for the plain loop, which they turn into long shuffles);
/// elsewhere the plain loop. A test checks the two agree.
#[inline(always)]
fn match_mask(cards: &Row, counts: &[u8; MAX_CARDS]) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: the function only requires SSE2, which this code is
        // compiled to assume (the cfg above), as every x86-64 CPU has it.
        unsafe { match_mask_sse2(cards, counts) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        match_mask_plain(cards, counts)
    }
}

/// [`match_mask`] slot by slot: the definition, and the fallback.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn match_mask_plain(cards: &Row, counts: &[u8; MAX_CARDS]) -> u64 {
    let mut mask = 0u64;
    for (k, (&rank, &count)) in cards.iter().zip(counts).enumerate() {
        mask |= u64::from(rank == count) << k;
    }
    mask
}

/// [`match_mask`] sixteen slots at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn match_mask_sse2(cards: &Row, counts: &[u8; MAX_CARDS]) -> u64 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x};
    let vector = |bytes: &[u8]| {
        let half = |at: usize| i64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        _mm_set_epi64x(half(8), half(0))
    };
    let mut mask = 0u64;
    for (i, (rank, count)) in cards
        .chunks_exact(16)
        .zip(counts.chunks_exact(16))
        .enumerate()
    {
        let equal = _mm_cmpeq_epi8(vector(rank), vector(count));
        mask |= u64::from(_mm_movemask_epi8(equal) as u16) << (16 * i);
    }
    mask
}

/// Copies the cards of `from[..n]` whose bit in `matched` is clear to the
/// front of `to`, in order, and returns how many there are.
///
/// Each run of cards between two matches is moved as one whole 64-byte
/// block (a fixed-size copy is a few vector moves, a run-sized one a call):
/// what is copied past the end of a run is overwritten by the next block or
/// lands in slots past the cards kept, which no pass reads (passes mask
/// their matches to the first `n` slots).
#[inline(always)]
fn keep_unmatched(from: &Row, n: usize, matched: u64, to: &mut Row) -> usize {
    let mut block = |read: usize, write: usize| {
        // read <= 64 and write <= read, so both blocks lie in the row.
        to[write..write + MAX_CARDS].copy_from_slice(&from[read..read + MAX_CARDS]);
    };
    let (mut read, mut write) = (0, 0);
    let mut rest = matched;
    while rest != 0 {
        let at = rest.trailing_zeros() as usize;
        block(read, write);
        write += at - read;
        read = at + 1;
        rest &= rest - 1;
    }
    block(read, write);
    write + (n - read)
}

/// One pass swept portably: compares `from[..n]` with `counts`, writes
/// the unmatched cards, in order, to the front of `to`, and returns how
/// many there are.
#[inline(always)]
fn sweep_portable(from: &Row, counts: &[u8; MAX_CARDS], n: usize, to: &mut Row) -> usize {
    let live = u64::MAX >> (MAX_CARDS - n);
    keep_unmatched(from, n, match_mask(from, counts) & live, to)
}

/// [`sweep_portable`] in three AVX-512 instructions: compare, compress the
/// unmatched cards to the front, store.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
fn sweep_avx512(from: &Row, counts: &[u8; MAX_CARDS], n: usize, to: &mut Row) -> usize {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_maskz_compress_epi8,
        _mm512_storeu_si512,
    };
    // SAFETY: each pointer is to at least 64 bytes, readable or writable
    // as the call needs, and these loads and stores allow any alignment.
    let (cards, counts) = unsafe {
        (
            _mm512_loadu_si512(from.as_ptr().cast::<__m512i>()),
            _mm512_loadu_si512(counts.as_ptr().cast::<__m512i>()),
        )
    };
    // The slots past the n cards hold zeros (the deal is copied into a
    // zeroed row, and the compress fills with zeros), which match no
    // count: so every match is a card, and the zeros kept stay at the end.
    let matched = _mm512_cmpeq_epi8_mask(cards, counts);
    let kept = _mm512_maskz_compress_epi8(!matched, cards);
    // SAFETY: as above.
    unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast::<__m512i>(), kept) };
    n - matched.count_ones() as usize
}

/// The implementations of a pass that play can use. They give identical
/// records (tested); only their speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Any CPU: the comparison with SSE2 on x86-64, the compaction by
    /// block moves.
    Portable,
    /// x86-64 CPUs with AVX-512 F, BW and VBMI2 (since Ice Lake and Zen 4):
    /// a byte compress does the compaction.
    Avx512,
}

impl Kernel {
    /// Every kernel, portable first.
    pub const ALL: [Kernel; 2] = [Kernel::Portable, Kernel::Avx512];

    /// The instruction family the kernel is of.
    pub fn level(self) -> SimdLevel {
        match self {
            Kernel::Portable => SimdLevel::Portable,
            Kernel::Avx512 => SimdLevel::Avx512,
        }
    }

    /// The fastest kernel this CPU has within the cap on vector
    /// instructions ([`crate::simd`]; detected once).
    pub fn fastest() -> Kernel {
        static FASTEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *FASTEST.get_or_init(|| {
            Kernel::ALL
                .into_iter()
                .rev()
                .find(|kernel| kernel.available() && kernel.level().allowed())
                .unwrap_or(Kernel::Portable)
        })
    }

    /// Whether this CPU can run the kernel.
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vbmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx512 => false,
        }
    }

    /// The kernel's name, as benchmarks and notes print it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx512 => "avx512",
        }
    }
}

/// Tells `observer` about a pass: the cards in the order they are turned
/// and each card's count. `stored` holds the cards in memory order, with
/// `counts` matching it slot by slot; `backwards` passes turn it from the
/// end.
fn report_pass<O: Observer>(
    observer: &mut O,
    pass: u16,
    stored: &[u8],
    counts: &[u8; MAX_CARDS],
    backwards: bool,
) {
    let n = stored.len();
    let turn_order: Vec<usize> = if backwards {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    let turned: Vec<u8> = turn_order.iter().map(|&k| stored[k]).collect();
    let first_count = turn_order.first().map_or(1, |&k| counts[k]);
    observer.pass_starts(pass, &turned, first_count);
    for &k in &turn_order {
        observer.card_turned(stored[k], counts[k]);
    }
}

/// The length of the cycle of `T` (module documentation) through a state
/// with `n` cards in the order `cards`: the number of strikes in a row after
/// which a game of version `params` is stuck.
pub fn stuck_after(params: RollCallParams, n: usize, cards: &[u8]) -> u16 {
    let count = count_period(params, n);
    let order = order_period(params, cards);
    count.lcm(&order) as u16
}

/// Strikes in a row after which the count is back where it started, with
/// `n` cards (module documentation).
fn count_period(params: RollCallParams, n: usize) -> usize {
    let ranks = usize::from(params.ranks);
    match params.count {
        Count::Continuous => ranks / (n % ranks).gcd(&ranks),
        Count::Restart => 1,
    }
}

/// Strikes in a row after which the order is back where it started: 1 or
/// 2.
fn order_period(params: RollCallParams, cards: &[u8]) -> usize {
    match params.order {
        PassOrder::Same => 1,
        PassOrder::Reversed => {
            if cards.iter().eq(cards.iter().rev()) {
                1
            } else {
                2
            }
        }
    }
}

/// The distributions one game fills, laid side by side in one counts
/// vector (the Monte-Carlo runner's and the exhaustive enumerator's), in the
/// order of [`Tally::KEYS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    n_cards: usize,
    max_passes: usize,
}

impl Tally {
    /// The distribution keys (docs/GUIDE.md): cards left for K = 1, 2, 3 and
    /// unlimited; passes and strikes of unlimited play; whether the game was
    /// won without a strike; matches in the first pass.
    pub const KEYS: [&'static str; 8] = [
        "K=1",
        "K=2",
        "K=3",
        "K=unlimited",
        "passes",
        "strikes",
        "zero-strike",
        "first-pass-matches",
    ];

    /// The layout for `game`.
    pub fn new(game: &RollCall) -> Tally {
        Tally {
            n_cards: game.n_cards(),
            max_passes: game.max_passes(),
        }
    }

    /// Bins of each distribution, in the order of [`Tally::KEYS`]: cards
    /// left 0..=n; passes 1..=max; strikes 0..=max; yes, no; matches 0..=n.
    fn sizes(&self) -> [usize; 8] {
        let n = self.n_cards + 1;
        [n, n, n, n, self.max_passes, self.max_passes + 1, 2, n]
    }

    /// All bins.
    pub fn n_bins(&self) -> usize {
        self.sizes().iter().sum()
    }

    /// The bin of a win in unlimited play (no card left).
    pub fn unlimited_win_bin(&self) -> usize {
        let sizes = self.sizes();
        sizes[..3].iter().sum()
    }

    /// Adds one game to `counts`, one bin in each distribution.
    #[inline]
    pub fn add(&self, record: &RollCallRecord, counts: &mut [u64]) {
        let bins = [
            usize::from(record.left_limited[0]),
            usize::from(record.left_limited[1]),
            usize::from(record.left_limited[2]),
            usize::from(record.left),
            usize::from(record.passes) - 1,
            usize::from(record.strikes),
            usize::from(!record.zero_strike_win()),
            usize::from(record.first_pass_matches),
        ];
        let mut start = 0;
        for (bin, size) in bins.into_iter().zip(self.sizes()) {
            counts[start + bin] += 1;
            start += size;
        }
    }

    /// Each distribution's key, outcome labels and counts, cut out of
    /// `counts` (laid out as [`Tally::add`] fills it). Passes and strikes
    /// have loose bounds, so most of their bins are zero; see
    /// [`Tally::LONG_TAILED`].
    pub fn split<T: Clone>(&self, counts: &[T]) -> Vec<(&'static str, Vec<String>, Vec<T>)> {
        let numbers = |from: usize, len: usize| (from..from + len).map(|i| i.to_string()).collect();
        let mut start = 0;
        let mut parts = Vec::new();
        for (key, size) in Tally::KEYS.into_iter().zip(self.sizes()) {
            let labels = match key {
                "passes" => numbers(1, size),
                "zero-strike" => vec!["yes".to_string(), "no".to_string()],
                _ => numbers(0, size),
            };
            parts.push((key, labels, counts[start..start + size].to_vec()));
            start += size;
        }
        parts
    }

    /// The distributions whose bounds are loose (passes and strikes): a
    /// report shows them up to their last nonzero bin.
    pub const LONG_TAILED: [&'static str; 2] = ["passes", "strikes"];
}

/// Monte Carlo of every version at once: each game shuffles the previous
/// game's deck (uniformly: every order equally likely whatever it starts
/// from) and is played once.
#[derive(Clone, Debug)]
pub struct RollCallSimulation {
    game: RollCall,
    tally: Tally,
}

impl RollCallSimulation {
    /// The simulation of `game`.
    pub fn new(game: RollCall) -> RollCallSimulation {
        RollCallSimulation {
            game,
            tally: Tally::new(&game),
        }
    }

    /// The layout of its counts.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The deals of the first `n_wins` games won (unlimited play), in the
    /// order the run plays them, with each game's number (0-based): the
    /// same games the run counted.
    pub fn first_wins(&self, plan: &RunPlan, n_wins: usize) -> Vec<(u64, Vec<u8>)> {
        montecarlo::first_in_bin(self, plan, self.tally.unlimited_win_bin(), n_wins)
    }
}

impl Simulation for RollCallSimulation {
    /// The deck (ranks), sorted at the start of every chunk.
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        self.tally.n_bins()
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.game.sorted_ranks()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, deck: &mut Vec<u8>, counts: &mut [u64]) {
        shuffle(rng, deck);
        self.tally.add(&self.game.play(deck), counts);
    }
}

/// Plays every arrangement for the exhaustive enumerator, filling the
/// [`Tally`]: the deck is `copies` identical cards of each rank, so the
/// enumerator visits each distinct arrangement of ranks once.
impl Player for RollCallSimulation {
    type Workspace = [u8; MAX_CARDS];

    fn workspace(&self) -> [u8; MAX_CARDS] {
        [0; MAX_CARDS]
    }

    #[inline]
    fn add(&self, ranks: &mut [u8; MAX_CARDS], deal: &[Card], tally: &mut [u64]) {
        for (rank, card) in ranks.iter_mut().zip(deal) {
            *rank = card.rank();
        }
        self.tally.add(&self.game.play(&ranks[..deal.len()]), tally);
    }

    fn flush(&self, _: &mut [u8; MAX_CARDS], _: &mut [u64]) {}
}

impl RollCall {
    /// The deck as the exhaustive enumerator takes it: `copies` identical
    /// cards of each rank.
    pub fn exhaustive_deck(&self) -> Vec<Card> {
        self.deck().cards()
    }
}

impl fmt::Display for RollCallParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ranks x {} copies, count {}, order {}",
            self.ranks,
            self.copies,
            self.count.name(),
            self.order.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn game(ranks: u8, copies: u8, count: Count, order: PassOrder) -> RollCall {
        RollCall::new(RollCallParams {
            ranks,
            copies,
            count,
            order,
        })
        .unwrap()
    }

    /// Unlimited play decided the slow way: remember every state (deck
    /// order, count) seen at the start of a pass since the last match, and
    /// stop when one comes back.
    fn by_remembering_states(game: &RollCall, deal: &[u8]) -> (u8, u16, u16) {
        let p = game.params();
        let mut deck: Vec<u8> = deal.to_vec();
        let mut count = 1u8;
        let (mut passes, mut strikes) = (0u16, 0u16);
        let mut seen = HashSet::new();
        while !deck.is_empty() {
            if p.count == Count::Restart {
                count = 1;
            }
            if !seen.insert((deck.clone(), count)) {
                // The state before this pass was seen since the last match:
                // no match can ever come again.
                break;
            }
            let mut kept = Vec::new();
            for &rank in &deck {
                if rank != count {
                    kept.push(rank);
                }
                count = count % p.ranks + 1;
            }
            passes += 1;
            if kept.len() == deck.len() {
                strikes += 1;
            } else {
                seen.clear();
            }
            if p.order == PassOrder::Reversed {
                kept.reverse();
            }
            deck = kept;
        }
        (deck.len() as u8, passes, strikes)
    }

    #[test]
    fn cycle_argument_equals_remembering_states() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for count in [Count::Continuous, Count::Restart] {
            for order in [PassOrder::Same, PassOrder::Reversed] {
                let shapes = [
                    (3, 2),
                    (4, 3),
                    (5, 2),
                    (6, 2),
                    (13, 4),
                    (13, 1),
                    (2, 5),
                    (8, 8),
                ];
                for (ranks, copies) in shapes {
                    let game = game(ranks, copies, count, order);
                    let mut deal = game.sorted_ranks();
                    for _ in 0..3000 {
                        deal.shuffle(&mut rng);
                        let expected = by_remembering_states(&game, &deal);
                        for kernel in available_kernels() {
                            let record = game.play_using(kernel, &deal, &mut Silent);
                            assert_eq!(
                                (record.left, record.passes, record.strikes),
                                expected,
                                "{:?} {kernel:?} {deal:?}",
                                game.params()
                            );
                        }
                    }
                }
            }
        }
    }

    /// The kernels this CPU runs; says so when one is missing, as the
    /// tests then prove less.
    fn available_kernels() -> Vec<Kernel> {
        let all = [Kernel::Portable, Kernel::Avx512];
        for kernel in all.iter().filter(|kernel| !kernel.available()) {
            eprintln!(
                "kernel {} not tested: this CPU does not have it",
                kernel.name()
            );
        }
        all.into_iter()
            .filter(|kernel| kernel.available())
            .collect()
    }

    #[test]
    fn every_kernel_gives_the_same_records() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        for count in [Count::Continuous, Count::Restart] {
            for order in [PassOrder::Same, PassOrder::Reversed] {
                for (ranks, copies) in [(13, 4), (2, 32), (8, 8), (13, 1), (7, 3)] {
                    let game = game(ranks, copies, count, order);
                    let mut deal = game.sorted_ranks();
                    for _ in 0..20_000 {
                        deal.shuffle(&mut rng);
                        let portable = game.play_using(Kernel::Portable, &deal, &mut Silent);
                        for kernel in available_kernels() {
                            assert_eq!(
                                game.play_using(kernel, &deal, &mut Silent),
                                portable,
                                "{:?} {kernel:?} {deal:?}",
                                game.params()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_vector_match_mask_is_the_definition() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
        let mut cards: Row = [0; 2 * MAX_CARDS];
        let mut counts = [0u8; MAX_CARDS];
        let mut matched_somewhere = 0u64;
        for _ in 0..100_000 {
            // Few distinct values, so that about a third of the slots match;
            // 255 and 0 test the ends of the byte.
            for byte in cards.iter_mut().chain(counts.iter_mut()) {
                *byte = [0, 1, 2, 255][(rng.next_u64() % 4) as usize];
            }
            let mask = match_mask(&cards, &counts);
            assert_eq!(mask, match_mask_plain(&cards, &counts));
            matched_somewhere |= mask;
        }
        assert_eq!(
            matched_somewhere,
            u64::MAX,
            "every slot was tested matching"
        );
    }

    #[test]
    fn a_sorted_deck_wins_in_one_pass_without_a_strike() {
        let game = RollCall::standard();
        let deal: Vec<u8> = (0..52).map(|i| (i % 13 + 1) as u8).collect();
        let record = game.play(&deal);
        assert_eq!(record.left, 0);
        assert_eq!(record.passes, 1);
        assert!(record.zero_strike_win());
        assert_eq!(record.first_pass_matches, 52);
        assert_eq!(record.left_limited, [0, 0, 0]);
    }

    #[test]
    fn a_full_deck_without_a_first_match_is_stuck_at_once() {
        // 52 = 4 x 13, so the count comes back to 1 after a pass: a first
        // pass without a match repeats forever.
        let game = RollCall::standard();
        let deal: Vec<u8> = (0..52).map(|i| ((i + 1) % 13 + 1) as u8).collect();
        let record = game.play(&deal);
        assert_eq!((record.left, record.passes, record.strikes), (52, 1, 1));
        assert_eq!(record.left_limited, [52, 52, 52]);
    }

    #[test]
    fn limited_versions_stop_at_their_strikes_in_a_row() {
        // 3 ranks x 1: deal 2 3 1. Pass 1 (count 1 2 3): no match, count
        // moves on by 3 mod 3 = 0, so the game is stuck after one strike.
        let g = game(3, 1, Count::Continuous, PassOrder::Same);
        let r = g.play(&[2, 3, 1]);
        assert_eq!(
            (r.left, r.passes, r.strikes, r.left_limited),
            (3, 1, 1, [3, 3, 3])
        );
        // 2 ranks x 2, deal 2 2 1 1... count 1 2 1 2: 2!=1, 2==2 match, 1==1
        // match, 1!=2: kept [2, 1], count back to 1; pass 2: 2!=1, 1!=2:
        // strike; n = 2 is even so count returns: stuck after 1.
        let g = game(2, 2, Count::Continuous, PassOrder::Same);
        let r = g.play(&[2, 2, 1, 1]);
        assert_eq!(
            (r.left, r.passes, r.strikes, r.first_pass_matches),
            (2, 2, 1, 2)
        );
    }

    #[test]
    fn bad_versions_are_refused_by_name() {
        let bad = |ranks, copies| {
            RollCall::new(RollCallParams {
                ranks,
                copies,
                ..RollCallParams::default()
            })
            .unwrap_err()
            .to_string()
        };
        assert!(bad(1, 4).starts_with("ranks 1:"));
        assert!(bad(14, 4).starts_with("ranks 14:"));
        assert!(bad(13, 0).starts_with("copies 0:"));
        assert!(bad(13, 5).starts_with("ranks x copies 13 x 5"));
        let game = RollCall::standard();
        assert!(game.check_deal(&[1, 2, 3]).is_err());
        let mut deal = game.sorted_ranks();
        deal[0] = 2;
        assert!(game.check_deal(&deal).is_err());
        deal[0] = 14;
        assert!(
            game.check_deal(&deal)
                .unwrap_err()
                .to_string()
                .contains("rank 14")
        );
    }
}
