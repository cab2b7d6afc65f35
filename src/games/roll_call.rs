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

use std::fmt;

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::exact::arrangements::Player;
use crate::montecarlo::{RunPlan, Simulation};
use crate::rng::{GameRng, shuffle, stream_rng};

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
    /// Parses `continuous` or `restart`; the error names `--count`.
    pub fn parse(text: &str) -> Result<Count> {
        match text {
            "continuous" => Ok(Count::Continuous),
            "restart" => Ok(Count::Restart),
            _ => Err(Error::invalid(
                "--count",
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
    /// Parses `same` or `reversed`; the error names `--order`.
    pub fn parse(text: &str) -> Result<PassOrder> {
        match text {
            "same" => Ok(PassOrder::Same),
            "reversed" => Ok(PassOrder::Reversed),
            _ => Err(Error::invalid("--order", text, "must be same or reversed")),
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
/// Monte-Carlo runner and the enumerator pass [`Silent`], which compiles to
/// nothing.
pub trait Observer {
    /// A pass begins with `cards` (ranks 1..=R, in the order they will be
    /// turned) and the count at `count` (1..=R).
    fn pass_starts(&mut self, _pass: u16, _cards: &[u8], _count: u8) {}
    /// A card of rank `rank` is turned with the count at `count`.
    fn card_turned(&mut self, _rank: u8, _count: u8) {}
    /// A pass ends; `strikes_in_a_row` is 0 unless it had no match.
    fn pass_ends(&mut self, _matches: u8, _strikes_in_a_row: u16) {}
    /// The next `passes` passes cannot match (a calculation, see
    /// `RollCall::first_match`), so they are counted as strikes without
    /// being played; `stuck` if they close the cycle and end the game.
    fn strikes_skipped(&mut self, _passes: u16, _stuck: bool) {}
}

/// The observer that watches nothing.
pub struct Silent;

impl Observer for Silent {}

/// The game for one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollCall {
    params: RollCallParams,
    /// `count_at[j]` is the count `j` cards after a count of 1: `j mod R + 1`.
    /// A pass reads its counts from here instead of wrapping a counter.
    count_at: [u8; COUNT_TABLE],
}

/// Entries of `RollCall::count_at`: a pass starts at a count below 13 and
/// turns at most 64 cards.
const COUNT_TABLE: usize = 128;

impl RollCall {
    /// Checks the version: 2..=13 ranks (with one rank every card matches
    /// at once), at least one copy, at most [`MAX_CARDS`] cards.
    pub fn new(params: RollCallParams) -> Result<RollCall> {
        if !(2..=MAX_RANKS).contains(&params.ranks) {
            return Err(Error::invalid(
                "--ranks",
                params.ranks,
                "must be 2 to 13 (the count runs from 1 to the number of ranks)",
            ));
        }
        if params.copies == 0 {
            return Err(Error::invalid(
                "--copies",
                params.copies,
                "must be at least 1",
            ));
        }
        let n = usize::from(params.ranks) * usize::from(params.copies);
        if n > MAX_CARDS {
            return Err(Error::invalid(
                "--ranks x --copies",
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
        let mut count_at = [0u8; COUNT_TABLE];
        for (j, count) in count_at.iter_mut().enumerate() {
            *count = (j % usize::from(params.ranks) + 1) as u8;
        }
        RollCall { params, count_at }
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
        (1..=self.params.ranks)
            .flat_map(|rank| std::iter::repeat_n(rank, usize::from(self.params.copies)))
            .collect()
    }

    /// Checks that `deal` is an arrangement of this deck: ranks 1..=R, each
    /// exactly `copies` times. The error names `--deal`.
    pub fn check_deal(&self, deal: &[u8]) -> Result<()> {
        let mut seen = [0usize; MAX_RANKS as usize + 1];
        for &rank in deal {
            if rank == 0 || rank > self.params.ranks {
                return Err(Error::invalid(
                    "--deal",
                    format!("rank {rank}"),
                    format!("ranks must be 1 to {}", self.params.ranks),
                ));
            }
            seen[usize::from(rank)] += 1;
        }
        let copies = usize::from(self.params.copies);
        if deal.len() != self.n_cards()
            || seen[1..=usize::from(self.params.ranks)]
                .iter()
                .any(|&s| s != copies)
        {
            return Err(Error::invalid(
                "--deal",
                format!("{} cards", deal.len()),
                format!(
                    "must hold each of the {} ranks exactly {} times ({} cards)",
                    self.params.ranks,
                    copies,
                    self.n_cards()
                ),
            ));
        }
        Ok(())
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

    /// The play function, telling `observer` what happens.
    ///
    /// Guarantee: ends for every deal, without a pass cap (module
    /// documentation); no allocation.
    pub fn play_with<O: Observer>(&self, deal: &[u8], observer: &mut O) -> RollCallRecord {
        // Two buffers: each pass reads one and writes the cards it keeps to
        // the other, so the loads never wait on the stores.
        let mut buffers = [[0u8; MAX_CARDS]; 2];
        let mut n = deal.len();
        buffers[0][..n].copy_from_slice(deal);
        let (first, second) = buffers.split_at_mut(1);
        let (mut cards, mut kept_cards) = (&mut first[0], &mut second[0]);
        let mut record = RollCallRecord::default();
        // The count, 1..=R, at the start of the next pass.
        let mut count = 1u8;
        let mut in_a_row = 0u16;
        let mut limited_open = [true; 3];
        loop {
            if self.params.count == Count::Restart {
                count = 1;
            }
            observer.pass_starts(record.passes, &cards[..n], count);
            // Unmatched cards are compacted in order without a branch on the
            // cards: most cards are not matched, but which are is
            // unpredictable.
            let counts = &self.count_at[usize::from(count) - 1..][..n];
            let mut kept = 0;
            for (&rank, &turn_count) in cards[..n].iter().zip(counts) {
                observer.card_turned(rank, turn_count);
                // kept <= i < 64, so the mask only spares a bounds check.
                kept_cards[kept % MAX_CARDS] = rank;
                kept += usize::from(rank != turn_count);
            }
            let turn_count = self.count_at[usize::from(count) - 1 + n];
            std::mem::swap(&mut cards, &mut kept_cards);
            let matches = n - kept;
            if record.passes == 0 {
                record.first_pass_matches = matches as u8;
            }
            record.passes += 1;
            if self.params.order == PassOrder::Reversed {
                cards[..kept].reverse();
            }
            observer.pass_ends(matches as u8, if matches == 0 { in_a_row + 1 } else { 0 });
            count = turn_count;
            n = kept;
            if n == 0 {
                break;
            }
            if matches > 0 {
                in_a_row = 0;
                continue;
            }
            // A strike. The passes that follow, while they match nothing,
            // run round the cycle of the module documentation, so which of
            // them is the first to match (if any before the cycle closes)
            // is a calculation, not something to play out pass by pass.
            let cycle = self.stuck_after(n, &cards[..n]);
            in_a_row += 1;
            let next_count = match self.params.count {
                Count::Continuous => count,
                Count::Restart => 1,
            };
            let strikes_left = cycle.saturating_sub(in_a_row);
            let first_match = self.first_match(&cards[..n], next_count, strikes_left);
            let skipped = first_match.unwrap_or(strikes_left);
            if skipped > 0 {
                observer.strikes_skipped(skipped, first_match.is_none());
                count = self.count_after(count, n, skipped);
                if self.params.order == PassOrder::Reversed && skipped % 2 == 1 {
                    cards[..n].reverse();
                }
            }
            record.strikes += 1 + skipped;
            record.passes += skipped;
            in_a_row += skipped;
            for (open, (&limit, left)) in limited_open
                .iter_mut()
                .zip(LIMITS.iter().zip(&mut record.left_limited))
            {
                if *open && in_a_row >= limit {
                    *open = false;
                    *left = n as u8;
                }
            }
            if first_match.is_none() {
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

    /// After how many strikes in a row, starting from a strike pass with
    /// `n` cards in the order `cards` (or its reverse), the game is stuck.
    fn stuck_after(&self, n: usize, cards: &[u8]) -> u16 {
        stuck_after(self.params, n, cards)
    }

    /// How far the count moves in `passes` passes of `n` cards each (no
    /// card discarded), from `count`.
    fn count_after(&self, count: u8, n: usize, passes: u16) -> u8 {
        match self.params.count {
            Count::Restart => 1,
            Count::Continuous => {
                let ranks = usize::from(self.params.ranks);
                ((usize::from(count) - 1 + n * usize::from(passes)) % ranks + 1) as u8
            }
        }
    }

    /// From a pass about to start with `cards` and the count at `count`,
    /// if the passes go on without a match: the number of passes, below
    /// `within`, before the first one that has a match (`Some(0)`: the next
    /// pass does), or `None` if none of the next `within` passes has one.
    ///
    /// Why it is right: pass `j` (from 0) sees the same cards, reversed
    /// when `j` is odd under `order = reversed`, with the count starting
    /// `j * step` further on (`step = n mod R`, or 0 under `restart`). Card
    /// `k` turned at position `pos` matches in pass `j` exactly when
    /// `j * step = rank - count - pos (mod R)`, so the first `j` for each
    /// card is read from a table of `j * step mod R` over one cycle.
    fn first_match(&self, cards: &[u8], count: u8, within: u16) -> Option<u16> {
        const NEVER: u16 = u16::MAX;
        let ranks = usize::from(self.params.ranks);
        let n = cards.len();
        let step = match self.params.count {
            Count::Continuous => n % ranks,
            Count::Restart => 0,
        };
        if within == 0 {
            return None;
        }
        let reversed = self.params.order == PassOrder::Reversed;
        // first[parity][d]: the first pass j < within whose count has moved
        // by d (mod R); under `reversed`, split by the parity of j (odd
        // passes see the cards mirrored), otherwise all in first[0].
        let mut first = [[NEVER; MAX_RANKS as usize]; 2];
        let mut moved = 0;
        for j in 0..within {
            let parity = usize::from(reversed && j % 2 == 1);
            let slot = &mut first[parity][moved];
            *slot = (*slot).min(j);
            moved += step;
            if moved >= ranks {
                moved -= ranks;
            }
        }
        // d for card k at position pos: rank - count - pos (mod R), with
        // pos mod R kept as a running counter (no division per card).
        let offset = |rank: u8, pos_mod: usize| {
            // In 1..3R: two conditional subtractions, no loop.
            let d = usize::from(rank) + 2 * ranks - usize::from(count) - pos_mod;
            let d = if d >= ranks { d - ranks } else { d };
            if d >= ranks { d - ranks } else { d }
        };
        let mut best = NEVER;
        let mut pos_mod = 0;
        let mut mirror_mod = (n - 1) % ranks;
        for &rank in cards {
            best = best.min(first[0][offset(rank, pos_mod)]);
            if reversed {
                // In odd passes this card is turned at position n - 1 - k.
                best = best.min(first[1][offset(rank, mirror_mod)]);
            }
            pos_mod = if pos_mod + 1 == ranks { 0 } else { pos_mod + 1 };
            mirror_mod = if mirror_mod == 0 {
                ranks - 1
            } else {
                mirror_mod - 1
            };
        }
        (best != NEVER).then_some(best)
    }
}

/// The length of the cycle of `T` (module documentation) through a state
/// with `n` cards in the order `cards`: the number of strikes in a row after
/// which a game of version `params` is stuck.
pub fn stuck_after(params: RollCallParams, n: usize, cards: &[u8]) -> u16 {
    let ranks = usize::from(params.ranks);
    let count_period = match params.count {
        Count::Continuous => ranks / gcd(n % ranks, ranks),
        Count::Restart => 1,
    };
    let order_period = match params.order {
        PassOrder::Same => 1,
        PassOrder::Reversed => {
            if cards.iter().eq(cards.iter().rev()) {
                1
            } else {
                2
            }
        }
    };
    (count_period * order_period / gcd(count_period, order_period)) as u16
}

/// Greatest common divisor, with gcd(0, b) = b.
fn gcd(mut a: usize, mut b: usize) -> usize {
    while a != 0 {
        (a, b) = (b % a, a);
    }
    b
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
    /// The distribution keys (DESIGN.md): cards left for K = 1, 2, 3 and
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
    /// order the run plays them (chunk by chunk, as `plan` cuts the run),
    /// with each game's number (0-based): the same games the run counted.
    pub fn first_wins(&self, plan: &RunPlan, n_wins: usize) -> Vec<(u64, Vec<u8>)> {
        let mut wins = Vec::new();
        let mut game_number = 0u64;
        for chunk in 0..plan.n_chunks() {
            let mut rng = stream_rng(plan.seed, plan.stream, chunk);
            let mut deck = self.new_scratch();
            for _ in 0..plan.chunk_trials(chunk) {
                if wins.len() == n_wins {
                    return wins;
                }
                shuffle(&mut rng, &mut deck);
                if self.game.play(&deck).left == 0 {
                    wins.push((game_number, deck.clone()));
                }
                game_number += 1;
            }
        }
        wins
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
        self.sorted_ranks()
            .into_iter()
            .map(|rank| Card::new(rank, 0))
            .collect()
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
                for (ranks, copies) in [(3, 2), (4, 3), (5, 2), (6, 2), (13, 4), (13, 1), (2, 5)] {
                    let game = game(ranks, copies, count, order);
                    let mut deal = game.sorted_ranks();
                    for _ in 0..3000 {
                        deal.shuffle(&mut rng);
                        let record = game.play(&deal);
                        assert_eq!(
                            (record.left, record.passes, record.strikes),
                            by_remembering_states(&game, &deal),
                            "{:?} {deal:?}",
                            game.params()
                        );
                    }
                }
            }
        }
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
        assert!(bad(1, 4).contains("--ranks"));
        assert!(bad(14, 4).contains("--ranks"));
        assert!(bad(13, 0).contains("--copies"));
        assert!(bad(13, 5).contains("--ranks x --copies"));
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
