//! The two kinds of number the player engine computes in: exact reduced
//! fractions (`BigRational`) and `f64` (`--float`).
//!
//! The solver is written once, generic over [`Number`]; the only place the
//! two differ is how the dealer's outcome probabilities for a shoe are
//! found ([`Number::dealer_rows`]): exactly, in integers over a falling
//! factorial, by [`IntegerDealer`] (the dealer table's own memoised
//! recursion, `dealer::unconditional_weights`, where it does not answer),
//! or in floating point by [`FloatDealer`]. Both read one flat list of the
//! dealer's finished hands. Tests hold the integer weights equal to the
//! recursion's and the floats to 1e-12 of them.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::falling::Falling;
use crate::games::blackjack::dealer::{unconditional_rows, unconditional_weights};
use crate::games::blackjack::{DealerHand, DealerRules, N_OUTCOMES, N_VALUES, Shoe, Soft17};
use crate::simd::SimdLevel;

/// The dealer's outcome probabilities for one shoe, per upcard (indexed by
/// value - 1), unconditional (the natural included), each row indexed like
/// `OUTCOME_LABELS`. `None` where the shoe holds no such upcard.
pub type DealerRows<T> = [Option<[T; N_OUTCOMES]>; N_VALUES];

/// A number the solver computes in.
pub trait Number: Clone + PartialOrd + Send + Sync + fmt::Debug + 'static {
    /// The number the solver computes in to give this one: itself, or
    /// (for reduced fractions) the faster exact kind [`Falling`], turned
    /// into this one at the end by [`Number::from_work`].
    type Work: Number;
    /// A solved value, from the number it was computed in.
    fn from_work(work: Self::Work) -> Self;
    /// Zero.
    fn zero() -> Self;
    /// `numerator / denominator` (the denominator is not zero).
    fn ratio(numerator: i64, denominator: i64) -> Self;
    /// `self + other`.
    fn plus(&self, other: &Self) -> Self;
    /// `self - other`.
    fn minus(&self, other: &Self) -> Self;
    /// `self * other`.
    fn times(&self, other: &Self) -> Self;
    /// `self / other` (`other` is not zero).
    fn over(&self, other: &Self) -> Self;
    /// `self * numerator / denominator`.
    fn scaled(&self, numerator: i64, denominator: i64) -> Self {
        self.times(&Self::ratio(numerator, denominator))
    }
    /// Whether this is zero.
    fn is_zero_value(&self) -> bool;
    /// The nearest `f64`.
    fn to_f64(&self) -> f64;
    /// The exact fraction, if this kind of number has one.
    fn exact(&self) -> Option<&BigRational>;
    /// One upcard's dealer outcomes for one shoe, as the solver keeps them
    /// between the dealer's pass and the stand values that read them: the
    /// probabilities themselves, or (exactly) their integer weights over
    /// one falling factorial, a tenth of the size and summed in integers.
    type Row: Send + Sync + fmt::Debug;
    /// The dealer's outcome probabilities for `shoe` (which still holds the
    /// upcard) under `rules`, for every upcard the shoe can deal.
    fn dealer_rows(shoe: &Shoe, rules: DealerRules) -> Rows<Self>;
    /// [`Number::dealer_rows`] for many shoes at once, in order: the same
    /// rows, each equal to what `dealer_rows` gives for that shoe (bit for
    /// bit in `f64`). The float kind computes [`LANES`] shoes per pass.
    fn dealer_rows_many(shoes: &[Shoe], rules: DealerRules) -> Vec<Rows<Self>> {
        shoes
            .iter()
            .map(|shoe| Self::dealer_rows(shoe, rules))
            .collect()
    }
    /// `sum over outcomes o of payoffs[o] * P(o)` for one row, each payoff
    /// -1, 0 or 1: a hand's value standing. Equal, as a number, to adding
    /// and subtracting the row's probabilities in outcome order (bit for
    /// bit in `f64`, which does exactly that).
    fn row_value(row: &Self::Row, payoffs: &[i8; N_OUTCOMES]) -> Self;
}

/// A [`Number`]'s dealer rows for one shoe, per upcard (indexed by value -
/// 1); `None` where the shoe holds no such upcard.
pub type Rows<T> = [Option<<T as Number>::Row>; N_VALUES];

/// `sum of payoffs[o] * row[o]`, added and subtracted in outcome order.
fn signed_sum<T: Number>(row: &[T; N_OUTCOMES], payoffs: &[i8; N_OUTCOMES]) -> T {
    let mut value = T::zero();
    for (probability, payoff) in row.iter().zip(payoffs) {
        match payoff {
            1 => value = value.plus(probability),
            -1 => value = value.minus(probability),
            _ => {}
        }
    }
    value
}

/// One upcard's dealer outcomes in the exact solve.
#[derive(Debug)]
pub enum FallingRow {
    /// [`IntegerDealer`]'s (or the recursion's) weights, each outcome's
    /// probability being `weights[o] / F(cards_left, depth)`, unreduced.
    Weights {
        weights: [u128; N_OUTCOMES],
        cards_left: u64,
        depth: u8,
    },
    /// Reduced fractions, where no integer weights fit (an infinite deck,
    /// or 128 bits overflowed).
    Values(Box<[Falling; N_OUTCOMES]>),
}

impl Number for BigRational {
    type Work = Falling;
    fn from_work(work: Falling) -> Self {
        work.to_big()
    }
    fn zero() -> Self {
        <BigRational as Zero>::zero()
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
    }
    fn plus(&self, other: &Self) -> Self {
        self + other
    }
    fn minus(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn over(&self, other: &Self) -> Self {
        self / other
    }
    fn scaled(&self, numerator: i64, denominator: i64) -> Self {
        if numerator == denominator {
            return self.clone();
        }
        self * BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
    }
    fn is_zero_value(&self) -> bool {
        Zero::is_zero(self)
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(self)
    }
    fn exact(&self) -> Option<&BigRational> {
        Some(self)
    }
    type Row = [BigRational; N_OUTCOMES];
    fn dealer_rows(shoe: &Shoe, rules: DealerRules) -> Rows<Self> {
        by_upcard(shoe, unconditional_rows(shoe, rules, &dealable(shoe)))
    }
    fn row_value(row: &Self::Row, payoffs: &[i8; N_OUTCOMES]) -> Self {
        signed_sum(row, payoffs)
    }
}

impl Number for Falling {
    type Work = Falling;
    fn from_work(work: Falling) -> Self {
        work
    }
    fn zero() -> Self {
        Falling::ratio(0, 1)
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        Falling::ratio(numerator, denominator)
    }
    fn plus(&self, other: &Self) -> Self {
        self.add(other)
    }
    fn minus(&self, other: &Self) -> Self {
        self.sub(other)
    }
    fn times(&self, other: &Self) -> Self {
        self.mul(other)
    }
    fn over(&self, other: &Self) -> Self {
        self.div(other)
    }
    fn scaled(&self, numerator: i64, denominator: i64) -> Self {
        if numerator == denominator {
            return self.clone();
        }
        self.mul(&Falling::ratio(numerator, denominator))
    }
    fn is_zero_value(&self) -> bool {
        self.is_zero()
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(&self.to_big())
    }
    fn exact(&self) -> Option<&BigRational> {
        match self {
            Falling::Big(big) => Some(big),
            Falling::Scaled { .. } => None,
        }
    }
    type Row = FallingRow;
    /// [`IntegerDealer`]'s integer weights over their falling factorials,
    /// without reducing them (as [`falling_rows`] says).
    fn dealer_rows(shoe: &Shoe, rules: DealerRules) -> Rows<Self> {
        falling_rows(shoe, rules, IntegerDealer::for_rules(rules).weights(shoe))
    }
    /// The same rows, the shoes of about a deck through
    /// [`IntegerDealer::weights_many`]'s lanes.
    fn dealer_rows_many(shoes: &[Shoe], rules: DealerRules) -> Vec<Rows<Self>> {
        let listed = IntegerDealer::for_rules(rules).weights_many(shoes);
        shoes
            .iter()
            .zip(listed)
            .map(|(shoe, weights)| falling_rows(shoe, rules, weights))
            .collect()
    }
    /// In integers where the row is weights: the winning and the losing
    /// weights summed (checked), one difference over the row's falling
    /// factorial, with no [`Falling`] addition.
    fn row_value(row: &FallingRow, payoffs: &[i8; N_OUTCOMES]) -> Self {
        let (weights, cards_left, depth) = match row {
            FallingRow::Weights {
                weights,
                cards_left,
                depth,
            } => (weights, *cards_left, *depth),
            FallingRow::Values(values) => return signed_sum(values, payoffs),
        };
        let mut wins = Some(0u128);
        let mut losses = Some(0u128);
        for (weight, payoff) in weights.iter().zip(payoffs) {
            match payoff {
                1 => wins = wins.and_then(|sum| sum.checked_add(*weight)),
                -1 => losses = losses.and_then(|sum| sum.checked_add(*weight)),
                _ => {}
            }
        }
        match (wins, losses) {
            (Some(wins), Some(losses)) => {
                Falling::from_weight_difference(wins, losses, cards_left, depth)
            }
            _ => signed_sum(
                &weights.map(|weight| Falling::from_weight(weight, cards_left, depth)),
                payoffs,
            ),
        }
    }
}

/// [`Falling`]'s rows for `shoe` from [`IntegerDealer`]'s weights, or
/// else the dealer table's recursion's; reduced fractions where neither
/// fits (an infinite deck's powers, or 128 bits overflowed).
fn falling_rows(
    shoe: &Shoe,
    rules: DealerRules,
    listed: Option<Vec<UpcardWeights>>,
) -> Rows<Falling> {
    let dealable = dealable(shoe);
    let rows: Vec<FallingRow> =
        match listed.or_else(|| unconditional_weights(shoe, rules, &dealable)) {
            Some(weights) => weights
                .into_iter()
                .map(|(weights, cards_left, depth)| FallingRow::Weights {
                    weights,
                    cards_left,
                    depth,
                })
                .collect(),
            None => unconditional_rows(shoe, rules, &dealable)
                .into_iter()
                .map(|row| FallingRow::Values(Box::new(row.map(Falling::Big))))
                .collect(),
        };
    by_upcard(shoe, rows)
}

impl Number for f64 {
    type Work = f64;
    fn from_work(work: f64) -> Self {
        work
    }
    fn zero() -> Self {
        0.0
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        numerator as f64 / denominator as f64
    }
    fn plus(&self, other: &Self) -> Self {
        self + other
    }
    fn minus(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn over(&self, other: &Self) -> Self {
        self / other
    }
    fn scaled(&self, numerator: i64, denominator: i64) -> Self {
        self * numerator as f64 / denominator as f64
    }
    fn is_zero_value(&self) -> bool {
        *self == 0.0
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn exact(&self) -> Option<&BigRational> {
        None
    }
    type Row = [f64; N_OUTCOMES];
    fn dealer_rows(shoe: &Shoe, rules: DealerRules) -> Rows<Self> {
        FloatDealer::for_rules(rules).rows(shoe)
    }
    fn dealer_rows_many(shoes: &[Shoe], rules: DealerRules) -> Vec<Rows<Self>> {
        FloatDealer::for_rules(rules).rows_many(shoes)
    }
    fn row_value(row: &Self::Row, payoffs: &[i8; N_OUTCOMES]) -> Self {
        signed_sum(row, payoffs)
    }
}

/// The values `shoe` can deal as the upcard, in value order.
fn dealable(shoe: &Shoe) -> Vec<u8> {
    (1..=N_VALUES as u8)
        .filter(|&value| shoe.count(value) > 0)
        .collect()
}

/// `rows` (one per [`dealable`] upcard, in order) placed by upcard value.
fn by_upcard<R>(shoe: &Shoe, rows: Vec<R>) -> [Option<R>; N_VALUES] {
    let mut rows = rows.into_iter();
    std::array::from_fn(|index| {
        if shoe.count(index as u8 + 1) > 0 {
            rows.next()
        } else {
            None
        }
    })
}

/// A fraction as the nearest `f64`, even when numerator and denominator
/// are too large for one (as exact blackjack values are).
pub fn rational_to_f64(value: &BigRational) -> f64 {
    if let (Some(n), Some(d)) = (value.numer().to_f64(), value.denom().to_f64())
        && n.is_finite()
        && d.is_finite()
        && d != 0.0
    {
        return n / d;
    }
    // Scale both down to 60 significant bits of the denominator first.
    let shift = value.denom().bits().saturating_sub(60);
    let n = (value.numer() >> shift).to_f64().unwrap_or(0.0);
    let d = (value.denom() >> shift).to_f64().unwrap_or(1.0);
    if value.is_negative() && n > 0.0 {
        -n / d
    } else {
        n / d
    }
}

/// The dealer's finished hands by composition: the outcome's index and the
/// orders per upcard.
type FinishedByCounts = ahash::AHashMap<[u8; N_VALUES], (u8, Vec<(u8, u32)>)>;

/// A finished hand as a path of values in descending order, its outcome
/// and its orders per upcard.
type Path = (Vec<u8>, u8, Vec<(u8, u32)>);

/// One of the dealer's finished, unbusted hands as a multiset of values
/// (upcard included), with how many orders of it each upcard can start.
struct Finished {
    /// The last node of the hand's path in [`FloatDealer::nodes`].
    node: u32,
    /// The outcome's index in `OUTCOME_LABELS`.
    outcome: u8,
    /// `(upcard index, orders)`: the number of draw orders starting with
    /// that upcard in which the dealer stops exactly at this hand.
    orders: Vec<(u8, u32)>,
}

/// One prefix of a finished hand, values in descending order: the
/// probability of a hand is built up one factor per node.
#[derive(Clone, Copy)]
struct PrefixNode {
    /// The prefix without its last value (`u32::MAX` for the first).
    parent: u32,
    /// The last value's index (value - 1).
    value: u8,
    /// Cards of that value earlier in the prefix.
    earlier: u8,
    /// Cards earlier in the prefix.
    depth: u8,
}

/// The dealer's outcome probabilities in floating point, for any shoe,
/// from a list of every finished hand the dealer can hold (about 1,700
/// under S17, the same for every shoe).
///
/// The probability that the dealer's cards, upcard first, are a given
/// multiset `D` of `k` cards in one of its valid orders is
/// `orders(D) * prod_v F(n_v, d_v) / F(T, k)`, with `F` the falling
/// factorial, `n_v` the shoe's cards of value `v` and `T` its total (powers
/// for an infinite shoe); dividing by the upcard's probability `n_u / T`
/// conditions on the upcard. The products share prefixes, so the hands are
/// kept as paths in a prefix tree and each node costs one multiplication.
/// A bust is what the unbusted outcomes leave.
pub struct FloatDealer {
    nodes: Vec<PrefixNode>,
    /// Read by [`IntegerDealer`] and the one-shoe reference loop in tests;
    /// the kernel reads `terms`.
    finished: Vec<Finished>,
    /// Every finished hand's contribution to each upcard's row, grouped
    /// by accumulator (`cell_ends[c]` is where accumulator `c`'s end).
    terms: Vec<Term>,
    cell_ends: [u32; N_CELLS],
    /// Per upcard (index value - 1), the most cards the dealer can draw
    /// after it, busted hands included: the depth of the common
    /// denominator [`IntegerDealer`] sums over.
    max_draws: [u8; N_VALUES],
}

impl FloatDealer {
    /// The list for a rule set, built once per soft-17 rule.
    pub fn for_rules(rules: DealerRules) -> &'static FloatDealer {
        static STAND: OnceLock<FloatDealer> = OnceLock::new();
        static HIT: OnceLock<FloatDealer> = OnceLock::new();
        debug_assert_eq!(rules.scoring, crate::games::blackjack::Scoring::Correct);
        match rules.soft17 {
            Soft17::Stand => STAND.get_or_init(|| FloatDealer::new(rules)),
            Soft17::Hit => HIT.get_or_init(|| FloatDealer::new(rules)),
        }
    }

    fn new(rules: DealerRules) -> FloatDealer {
        // Every draw order from every upcard, through the dealer's own rules.
        let mut hands: FinishedByCounts = ahash::AHashMap::new();
        let mut max_draws = [0u8; N_VALUES];
        fn walk(
            rules: DealerRules,
            upcard: u8,
            hand: DealerHand,
            counts: &mut [u8; N_VALUES],
            hands: &mut FinishedByCounts,
            max_draws: &mut u8,
        ) {
            if hand.must_draw(rules) {
                for value in 1..=N_VALUES as u8 {
                    let mut next = hand;
                    next.add(value);
                    counts[usize::from(value - 1)] += 1;
                    walk(rules, upcard, next, counts, hands, max_draws);
                    counts[usize::from(value - 1)] -= 1;
                }
                return;
            }
            let held: u8 = counts.iter().sum();
            *max_draws = (*max_draws).max(held - 1);
            let outcome = hand.outcome(rules);
            if outcome == crate::games::blackjack::DealerOutcome::Bust {
                return;
            }
            let entry = hands
                .entry(*counts)
                .or_insert_with(|| (outcome.index() as u8, Vec::new()));
            debug_assert_eq!(entry.0, outcome.index() as u8);
            match entry.1.iter_mut().find(|(u, _)| *u == upcard - 1) {
                Some((_, orders)) => *orders += 1,
                None => entry.1.push((upcard - 1, 1)),
            }
        }
        for upcard in 1..=N_VALUES as u8 {
            let mut counts = [0u8; N_VALUES];
            counts[usize::from(upcard - 1)] = 1;
            walk(
                rules,
                upcard,
                DealerHand::new(upcard),
                &mut counts,
                &mut hands,
                &mut max_draws[usize::from(upcard - 1)],
            );
        }

        // Paths in descending value order, sorted so that shared prefixes
        // are adjacent; each node's parent comes before it.
        let mut paths: Vec<Path> = hands
            .into_iter()
            .map(|(counts, (outcome, orders))| {
                let path: Vec<u8> = (0..N_VALUES)
                    .rev()
                    .flat_map(|v| std::iter::repeat_n(v as u8, usize::from(counts[v])))
                    .collect();
                (path, outcome, orders)
            })
            .collect();
        paths.sort();
        let mut nodes: Vec<PrefixNode> = Vec::new();
        let mut prefix_nodes: ahash::AHashMap<Vec<u8>, u32> = ahash::AHashMap::new();
        let mut finished = Vec::with_capacity(paths.len());
        for (path, outcome, mut orders) in paths {
            let mut parent = u32::MAX;
            for depth in 0..path.len() {
                let prefix = &path[..=depth];
                parent = match prefix_nodes.get(prefix) {
                    Some(&node) => node,
                    None => {
                        let value = path[depth];
                        let earlier = path[..depth].iter().filter(|&&v| v == value).count() as u8;
                        nodes.push(PrefixNode {
                            parent,
                            value,
                            earlier,
                            depth: depth as u8,
                        });
                        let node = (nodes.len() - 1) as u32;
                        prefix_nodes.insert(prefix.to_vec(), node);
                        node
                    }
                };
            }
            orders.sort();
            finished.push(Finished {
                node: parent,
                outcome,
                orders,
            });
        }
        assert!(
            nodes.iter().all(|node| usize::from(node.depth) < MAX_DEPTH
                && usize::from(node.earlier) < MAX_EARLIER),
            "a dealer's hand deeper than the kernel's tables"
        );
        let mut terms: Vec<Term> = finished
            .iter()
            .flat_map(|hand| {
                hand.orders.iter().map(move |&(upcard, orders)| Term {
                    node: hand.node,
                    cell: u16::from(upcard) * N_OUTCOMES as u16 + u16::from(hand.outcome),
                    orders: f64::from(orders),
                })
            })
            .collect();
        // Grouped by accumulator; the sort is stable, so each accumulator
        // still receives its additions in the one-shoe loop's order.
        terms.sort_by_key(|term| term.cell);
        let mut cell_ends = [0u32; N_CELLS];
        for term in &terms {
            cell_ends[usize::from(term.cell)] += 1;
        }
        for cell in 1..N_CELLS {
            cell_ends[cell] += cell_ends[cell - 1];
        }
        FloatDealer {
            nodes,
            finished,
            terms,
            cell_ends,
            max_draws,
        }
    }

    /// The rows for `shoe` (which still holds the upcard).
    pub fn rows(&self, shoe: &Shoe) -> DealerRows<f64> {
        self.rows_many(std::slice::from_ref(shoe))
            .pop()
            .expect("one shoe in, one row set out")
    }

    /// The rows for each of `shoes`, in order, [`LANES`] shoes per pass of
    /// the fastest kernel this CPU has. Each shoe's rows are bit for bit
    /// what the one-shoe loop gives (the same operations in the same order,
    /// lane by lane; no fused multiply-add).
    pub fn rows_many(&self, shoes: &[Shoe]) -> Vec<DealerRows<f64>> {
        self.rows_many_using(FloatKernel::fastest(), shoes)
    }

    /// [`FloatDealer::rows_many`] with a chosen kernel (which must be
    /// [`FloatKernel::available`]).
    pub fn rows_many_using(&self, kernel: FloatKernel, shoes: &[Shoe]) -> Vec<DealerRows<f64>> {
        assert!(kernel.available(), "kernel {kernel:?} is not available");
        let mut probability = vec![[0.0f64; LANES]; self.nodes.len()];
        let mut rows = Vec::with_capacity(shoes.len());
        for batch in shoes.chunks(LANES) {
            let input = LaneInput::of(batch);
            let mut cells = [[0.0f64; LANES]; N_CELLS];
            kernel.run(self, &input, &mut probability, &mut cells);
            for (lane, shoe) in batch.iter().enumerate() {
                rows.push(finish_lane(shoe, &cells, lane));
            }
        }
        rows
    }
}

/// Shoes per pass of [`FloatDealer`]'s kernel.
pub const LANES: usize = 16;

/// One `f64` per shoe of a pass.
type Lanes = [f64; LANES];

/// Accumulators per pass: one per upcard and outcome.
const N_CELLS: usize = N_VALUES * N_OUTCOMES;

/// Deepest prefix node plus one (checked when the tree is built).
const MAX_DEPTH: usize = 16;

/// Most cards of one value before a node's, plus one (checked when the
/// tree is built).
const MAX_EARLIER: usize = 16;

/// A finished hand's contribution to one upcard's row: flattened from
/// [`Finished`] in the same order, so each accumulator receives the same
/// additions in the same order as the one-shoe loop.
#[derive(Clone, Copy)]
struct Term {
    node: u32,
    /// `upcard index * N_OUTCOMES + outcome`.
    cell: u16,
    orders: f64,
}

/// A pass's shoes, lane by lane.
struct LaneInput {
    /// Cards of a value left once `earlier` of them are out: `max(n -
    /// earlier, 0)` for a finite shoe, `n` for an infinite one (computed as
    /// `max(n - earlier * 0, 0)`, which is `n`), indexed `[value][earlier]`.
    available: [[Lanes; MAX_EARLIER]; N_VALUES],
    /// `1 / (T - depth)` (`1 / T` for an infinite shoe), 0 where no card is
    /// left.
    reciprocal: [Lanes; MAX_DEPTH],
}

impl LaneInput {
    /// Lanes past the batch repeat its first shoe (their results are
    /// dropped).
    fn of(batch: &[Shoe]) -> LaneInput {
        let mut input = LaneInput {
            available: [[[0.0; LANES]; MAX_EARLIER]; N_VALUES],
            reciprocal: [[0.0; LANES]; MAX_DEPTH],
        };
        for lane in 0..LANES {
            let shoe = batch.get(lane).unwrap_or(&batch[0]);
            let total = f64::from(shoe.total());
            let finite = if shoe.infinite { 0.0 } else { 1.0 };
            for (value, available) in input.available.iter_mut().enumerate() {
                let count = f64::from(shoe.counts[value]);
                for (earlier, available) in available.iter_mut().enumerate() {
                    available[lane] = (count - earlier as f64 * finite).max(0.0);
                }
            }
            for (depth, reciprocal) in input.reciprocal.iter_mut().enumerate() {
                let left = if shoe.infinite {
                    total
                } else {
                    total - depth as f64
                };
                reciprocal[lane] = if left > 0.0 { 1.0 / left } else { 0.0 };
            }
        }
        input
    }
}

/// One lane's accumulators as rows: conditioned on the upcard, the bust
/// what the other outcomes leave (as the one-shoe loop does it).
fn finish_lane(shoe: &Shoe, cells: &[Lanes; N_CELLS], lane: usize) -> DealerRows<f64> {
    let total = f64::from(shoe.total());
    std::array::from_fn(|upcard| {
        let n_upcard = f64::from(shoe.counts[upcard]);
        if n_upcard == 0.0 {
            return None;
        }
        let scale = total / n_upcard;
        let mut row: [f64; N_OUTCOMES] =
            std::array::from_fn(|o| cells[upcard * N_OUTCOMES + o][lane] * scale);
        let unbusted: f64 = row.iter().sum();
        row[crate::games::blackjack::DealerOutcome::Bust.index()] = 1.0 - unbusted;
        Some(row)
    })
}

/// The pass itself, written once; each [`FloatKernel`] compiles it for
/// its instruction set. Lane by lane it does what the one-shoe loop does:
/// `parent * available * reciprocal` per node, then `cell += p * orders`
/// per term.
#[inline(always)]
fn lane_pass(
    dealer: &FloatDealer,
    input: &LaneInput,
    probability: &mut [Lanes],
    cells: &mut [Lanes; N_CELLS],
) {
    for (index, node) in dealer.nodes.iter().enumerate() {
        let available = &input.available[usize::from(node.value)][usize::from(node.earlier)];
        let reciprocal = &input.reciprocal[usize::from(node.depth)];
        let parent: Lanes = if node.parent == u32::MAX {
            [1.0; LANES]
        } else {
            probability[node.parent as usize]
        };
        let mut out = [0.0f64; LANES];
        for lane in 0..LANES {
            out[lane] = parent[lane] * available[lane] * reciprocal[lane];
        }
        probability[index] = out;
    }
    // Each accumulator in registers, its terms in order.
    let mut start = 0;
    for (cell, &end) in cells.iter_mut().zip(&dealer.cell_ends) {
        let mut sum = [0.0f64; LANES];
        for term in &dealer.terms[start..end as usize] {
            let p = &probability[term.node as usize];
            for lane in 0..LANES {
                sum[lane] += p[lane] * term.orders;
            }
        }
        *cell = sum;
        start = end as usize;
    }
}

/// The instruction sets [`FloatDealer`]'s pass is compiled for, chosen at
/// run time. All give bit-identical results: the same IEEE operations in
/// the same order (Rust never fuses a multiply and an add on its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatKernel {
    /// Any CPU.
    Portable,
    /// x86-64 with AVX2.
    Avx2,
    /// x86-64 with AVX-512F.
    Avx512,
}

impl FloatKernel {
    /// Every kernel, portable first.
    pub const ALL: [FloatKernel; 3] = [
        FloatKernel::Portable,
        FloatKernel::Avx2,
        FloatKernel::Avx512,
    ];

    /// Whether this CPU runs the kernel.
    pub fn available(self) -> bool {
        match self {
            FloatKernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            FloatKernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            FloatKernel::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The instruction family the kernel is of.
    pub fn level(self) -> SimdLevel {
        match self {
            FloatKernel::Portable => SimdLevel::Portable,
            FloatKernel::Avx2 => SimdLevel::Avx2,
            FloatKernel::Avx512 => SimdLevel::Avx512,
        }
    }

    /// The fastest kernel this CPU has within the cap on vector
    /// instructions ([`crate::simd`]; detected once).
    pub fn fastest() -> FloatKernel {
        static FASTEST: OnceLock<FloatKernel> = OnceLock::new();
        *FASTEST.get_or_init(|| {
            [FloatKernel::Avx512, FloatKernel::Avx2]
                .into_iter()
                .find(|kernel| kernel.available() && kernel.level().allowed())
                .unwrap_or(FloatKernel::Portable)
        })
    }

    fn run(
        self,
        dealer: &FloatDealer,
        input: &LaneInput,
        probability: &mut [Lanes],
        cells: &mut [Lanes; N_CELLS],
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `rows_many_using` checked that the CPU has AVX-512F.
            FloatKernel::Avx512 => unsafe { lane_pass_avx512(dealer, input, probability, cells) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `rows_many_using` checked that the CPU has AVX2.
            FloatKernel::Avx2 => unsafe { lane_pass_avx2(dealer, input, probability, cells) },
            _ => lane_pass(dealer, input, probability, cells),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lane_pass_avx512(
    dealer: &FloatDealer,
    input: &LaneInput,
    probability: &mut [Lanes],
    cells: &mut [Lanes; N_CELLS],
) {
    lane_pass(dealer, input, probability, cells)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lane_pass_avx2(
    dealer: &FloatDealer,
    input: &LaneInput,
    probability: &mut [Lanes],
    cells: &mut [Lanes; N_CELLS],
) {
    lane_pass(dealer, input, probability, cells)
}

impl FloatDealer {
    /// The rows for `shoe`, one shoe at a time: the plain loop the lane
    /// kernel must equal bit for bit (tests hold them to it).
    #[cfg(test)]
    fn rows_one_shoe(&self, shoe: &Shoe) -> DealerRows<f64> {
        let total = f64::from(shoe.total());
        // 1 / (T - depth), or 1 / T for an infinite shoe.
        let mut reciprocal = [0.0f64; 32];
        for (depth, r) in reciprocal.iter_mut().enumerate() {
            let left = if shoe.infinite {
                total
            } else {
                total - depth as f64
            };
            *r = if left > 0.0 { 1.0 / left } else { 0.0 };
        }
        let counts = shoe.counts.map(f64::from);
        let mut probability = vec![0.0f64; self.nodes.len()];
        for (index, node) in self.nodes.iter().enumerate() {
            let available = if shoe.infinite {
                counts[usize::from(node.value)]
            } else {
                (counts[usize::from(node.value)] - f64::from(node.earlier)).max(0.0)
            };
            let parent = if node.parent == u32::MAX {
                1.0
            } else {
                probability[node.parent as usize]
            };
            probability[index] = parent * available * reciprocal[usize::from(node.depth)];
        }
        let mut rows: [[f64; N_OUTCOMES]; N_VALUES] = [[0.0; N_OUTCOMES]; N_VALUES];
        for hand in &self.finished {
            let p = probability[hand.node as usize];
            if p == 0.0 {
                continue;
            }
            for &(upcard, orders) in &hand.orders {
                rows[usize::from(upcard)][usize::from(hand.outcome)] += p * f64::from(orders);
            }
        }
        std::array::from_fn(|upcard| {
            let n_upcard = counts[upcard];
            if n_upcard == 0.0 {
                return None;
            }
            // Condition on the upcard: divide by n_u / T.
            let scale = total / n_upcard;
            let mut row = rows[upcard].map(|p| p * scale);
            let unbusted: f64 = row.iter().sum();
            row[crate::games::blackjack::DealerOutcome::Bust.index()] = 1.0 - unbusted;
            Some(row)
        })
    }
}

/// The dealer's outcomes for one shoe as integer weights, for the exact
/// solve: [`FloatDealer`]'s list of finished hands, with each prefix's
/// product of counts kept in `u64` or `u128` instead of a probability in
/// `f64`. One pass over 2,289 prefixes and 4,634 terms (in 395 groups) per
/// shoe under S17, no hashing, no memo (the recursion of
/// `dealer::unconditional_weights` rebuilt its memo for every shoe, two
/// thirds of the exact solve's time).
///
/// For a finished hand `D` of `k` cards, `Q(D) = prod_v F(n_v, d_v)`
/// (`d_v` of its cards of value `v`, `F` the falling factorial), the
/// probability that a dealer showing upcard `u` goes on to hold `D` in a
/// given order is `Q(D) / (n_u F(T - 1, k - 1))`. Over the common
/// denominator `F(T - 1, m_u)`, `m_u` the most cards the dealer can draw
/// after `u` (busts included), its numerator is
/// `Q(D) F(T - k, m_u - k + 1) / n_u`, and `n_u` divides every `Q(D)` of a
/// hand that holds `u`. So each outcome's weight is
///
/// ```text
/// G_u[o] = sum over D of orders_u(D) Q(D) F(T - k, m_u - k + 1), then / n_u
/// ```
///
/// and the bust's is what the others leave of `F(T - 1, m_u)`.
///
/// Guarantee: where it answers, the weights over `F(T - 1, m_u)` are the
/// same fractions as `unconditional_weights`' (tests hold every outcome of
/// many shoes equal); it answers `None`, for the recursion to take over,
/// for an infinite shoe, a shoe too small for the denominator (`T - 1 <
/// m_u`, where the dealer might run out of cards), and where `u128` would
/// overflow (checked, never wrapped).
pub struct IntegerDealer {
    tree: &'static FloatDealer,
    /// Every finished hand's contribution, as (node, orders), grouped by
    /// upcard, outcome and cards in the hand, so that each group's sum is
    /// multiplied by its one padding factor once.
    terms: Vec<(u32, u32)>,
    /// The groups, upcard by upcard.
    groups: Vec<TermGroup>,
    /// Per upcard (index value - 1), the range of its groups.
    upcards: [Range<u32>; N_VALUES],
}

/// The terms of one upcard, outcome and hand size.
#[derive(Clone)]
struct TermGroup {
    outcome: u8,
    /// Cards in the hands (`k`).
    cards: u8,
    /// Its terms in [`IntegerDealer::terms`].
    terms: Range<u32>,
}

/// `a * b`, `None` where it would overflow: two 64-bit products, cheaper
/// than a full 128-bit multiplication with its overflow check.
#[inline]
fn mul_small(a: u128, b: u64) -> Option<u128> {
    let low = u128::from(a as u64) * u128::from(b);
    let high = (a >> 64) * u128::from(b);
    if high >> 64 != 0 {
        return None;
    }
    (high << 64).checked_add(low)
}

impl IntegerDealer {
    /// The list for a rule set, built once per soft-17 rule.
    pub fn for_rules(rules: DealerRules) -> &'static IntegerDealer {
        static STAND: OnceLock<IntegerDealer> = OnceLock::new();
        static HIT: OnceLock<IntegerDealer> = OnceLock::new();
        match rules.soft17 {
            Soft17::Stand => {
                STAND.get_or_init(|| IntegerDealer::new(FloatDealer::for_rules(rules)))
            }
            Soft17::Hit => HIT.get_or_init(|| IntegerDealer::new(FloatDealer::for_rules(rules))),
        }
    }

    fn new(tree: &'static FloatDealer) -> IntegerDealer {
        // (upcard, outcome, cards, node, orders), sorted into groups.
        let mut listed: Vec<(u8, u8, u8, u32, u32)> = tree
            .finished
            .iter()
            .flat_map(|hand| {
                let cards = tree.nodes[hand.node as usize].depth + 1;
                hand.orders
                    .iter()
                    .map(move |&(upcard, orders)| (upcard, hand.outcome, cards, hand.node, orders))
            })
            .collect();
        listed.sort_unstable();
        let terms = listed
            .iter()
            .map(|&(_, _, _, node, orders)| (node, orders))
            .collect();
        let mut groups = Vec::new();
        let mut upcards: [Range<u32>; N_VALUES] = std::array::from_fn(|_| 0..0);
        let mut start = 0;
        for group in listed.chunk_by(|a, b| (a.0, a.1, a.2) == (b.0, b.1, b.2)) {
            let (upcard, outcome, cards, _, _) = group[0];
            let range = &mut upcards[usize::from(upcard)];
            if range.start == range.end {
                *range = groups.len() as u32..groups.len() as u32;
            }
            range.end += 1;
            let end = start + group.len() as u32;
            groups.push(TermGroup {
                outcome,
                cards,
                terms: start..end,
            });
            start = end;
        }
        IntegerDealer {
            tree,
            terms,
            groups,
            upcards,
        }
    }

    /// Per upcard the shoe can deal, in value order: its outcomes' weights
    /// `G`, the cards left once it is dealt (`T - 1`) and the depth `m_u`,
    /// each probability being `G[o] / F(T - 1, m_u)` (unreduced). `None`
    /// where the type's guarantee says.
    pub fn weights(&self, shoe: &Shoe) -> Option<Vec<UpcardWeights>> {
        if shoe.infinite {
            return None;
        }
        // Every product and group sum is at most F(T, k) for hands of k
        // cards (a share of the k-card draws): where the largest fits 64
        // bits (about a deck), they are computed in u64, else in u128;
        // both checked.
        if self.narrow(shoe)
            && let Some(rows) = self.pass::<u64>(shoe)
        {
            return Some(rows);
        }
        self.pass::<u128>(shoe)
    }

    /// [`IntegerDealer::weights`] for many shoes, in order, each equal to
    /// what `weights` gives for it: shoes of about a deck go through
    /// [`INTEGER_LANES`] at a time in `u64` (independent chains, so that a
    /// node's multiplication need not wait for its parent's), the rest one
    /// by one.
    pub fn weights_many(&self, shoes: &[Shoe]) -> Vec<Option<Vec<UpcardWeights>>> {
        let mut out = Vec::with_capacity(shoes.len());
        for batch in shoes.chunks(INTEGER_LANES) {
            let laned = (batch.len() == INTEGER_LANES
                && batch.iter().all(|shoe| self.narrow(shoe)))
            .then(|| self.lane_pass(batch.try_into().expect("a full batch")))
            .flatten();
            match laned {
                Some(rows) => out.extend(rows),
                None => out.extend(batch.iter().map(|shoe| self.weights(shoe))),
            }
        }
        out
    }

    /// Whether `F(T, most cards in a hand)`, a bound on every product and
    /// group sum, fits 64 bits (a finite shoe of about a deck).
    fn narrow(&self, shoe: &Shoe) -> bool {
        if shoe.infinite {
            return false;
        }
        let total = u64::from(shoe.total());
        let most_cards = self
            .tree
            .max_draws
            .iter()
            .max()
            .map_or(0, |&m| u64::from(m) + 1);
        (0..most_cards)
            .try_fold(1u64, |product, i| {
                product.checked_mul(total.checked_sub(i)?)
            })
            .is_some()
    }

    /// [`IntegerDealer::weights`] with products and sums in `P`.
    fn pass<P: Product>(&self, shoe: &Shoe) -> Option<Vec<UpcardWeights>> {
        P::with_buffer(|products| {
            products.clear();
            for node in &self.tree.nodes {
                let available = u64::from(
                    shoe.counts[usize::from(node.value)].saturating_sub(u32::from(node.earlier)),
                );
                let product = if node.parent == u32::MAX {
                    P::from_count(available)
                } else {
                    products[node.parent as usize].times(available)?
                };
                products.push(product);
            }
            // Each group's sum goes after the products, in the same buffer.
            let n_nodes = products.len();
            for group in &self.groups {
                let mut sum = P::ZERO;
                let terms = &self.terms[group.terms.start as usize..group.terms.end as usize];
                for &(node, orders) in terms {
                    let product = products[node as usize];
                    if product != P::ZERO {
                        sum = sum.plus(product.times(u64::from(orders))?)?;
                    }
                }
                products.push(sum);
            }
            self.finish(shoe, |group| products[n_nodes + group].wide())
        })
    }

    /// [`IntegerDealer::pass`] in `u64` for [`INTEGER_LANES`] shoes at
    /// once, lane by lane the same products and sums; `None` if any lane
    /// overflowed (every operation's overflow is kept, none wrapped into
    /// an answer), for the shoes to go one by one.
    fn lane_pass(&self, batch: &[Shoe; INTEGER_LANES]) -> Option<Vec<Option<Vec<UpcardWeights>>>> {
        type IntegerLanes = [u64; INTEGER_LANES];
        let mut available = [[[0u64; INTEGER_LANES]; MAX_EARLIER]; N_VALUES];
        for (lane, shoe) in batch.iter().enumerate() {
            for (value, available) in available.iter_mut().enumerate() {
                for (earlier, available) in available.iter_mut().enumerate() {
                    available[lane] = u64::from(shoe.counts[value].saturating_sub(earlier as u32));
                }
            }
        }
        thread_local! {
            static PRODUCTS: std::cell::RefCell<Vec<[u64; INTEGER_LANES]>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let mut overflow = false;
        PRODUCTS.with(|products| {
            let products = &mut *products.borrow_mut();
            products.clear();
            for node in &self.tree.nodes {
                let available = &available[usize::from(node.value)][usize::from(node.earlier)];
                let parent = if node.parent == u32::MAX {
                    [1; INTEGER_LANES]
                } else {
                    products[node.parent as usize]
                };
                let mut product = [0u64; INTEGER_LANES];
                for lane in 0..INTEGER_LANES {
                    let (p, o) = parent[lane].overflowing_mul(available[lane]);
                    product[lane] = p;
                    overflow |= o;
                }
                products.push(product);
            }
            // Each group's sums go after the products, in the same buffer.
            let n_nodes = products.len();
            for group in &self.groups {
                let mut sum: IntegerLanes = [0; INTEGER_LANES];
                let terms = &self.terms[group.terms.start as usize..group.terms.end as usize];
                for &(node, orders) in terms {
                    let product = &products[node as usize];
                    for lane in 0..INTEGER_LANES {
                        let (term, o) = product[lane].overflowing_mul(u64::from(orders));
                        let (total, p) = sum[lane].overflowing_add(term);
                        sum[lane] = total;
                        overflow |= o | p;
                    }
                }
                products.push(sum);
            }
            if overflow {
                return None;
            }
            let sums = &products[n_nodes..];
            let rows = batch
                .iter()
                .enumerate()
                .map(|(lane, shoe)| self.finish(shoe, |group| u128::from(sums[group][lane])))
                .collect();
            Some(rows)
        })
    }

    /// The weights of every upcard `shoe` can deal, from each group's sum
    /// of `orders * Q(D)` (`group_sum(g)`, `g` indexing
    /// [`IntegerDealer::groups`]).
    fn finish(&self, shoe: &Shoe, group_sum: impl Fn(usize) -> u128) -> Option<Vec<UpcardWeights>> {
        let total = u64::from(shoe.total());
        let mut rows = Vec::with_capacity(N_VALUES);
        for upcard in 0..N_VALUES {
            let n_upcard = u128::from(shoe.counts[upcard]);
            if n_upcard == 0 {
                continue;
            }
            let most = self.tree.max_draws[upcard];
            if total < u64::from(most) + 1 {
                return None;
            }
            // pad[k] = F(T - k, m_u - k + 1) for hands of k cards, and
            // pad[1] = F(T - 1, m_u), the denominator.
            let mut pad = [0u128; MAX_DEPTH + 2];
            pad[usize::from(most) + 1] = 1;
            for cards in (1..=usize::from(most)).rev() {
                pad[cards] = mul_small(pad[cards + 1], total - cards as u64)?;
            }
            let mut weights = [0u128; N_OUTCOMES];
            let range = self.upcards[upcard].start as usize..self.upcards[upcard].end as usize;
            for (index, group) in self.groups[range.clone()].iter().enumerate() {
                let sum = group_sum(range.start + index);
                let weight = &mut weights[usize::from(group.outcome)];
                *weight = weight.checked_add(sum.checked_mul(pad[usize::from(group.cards)])?)?;
            }
            let mut unbusted = 0u128;
            for weight in &mut weights {
                // n_u divides every hand's Q(D) (its first factor is
                // the upcard's count), so the quotient is exact; a
                // 64-bit division where the weight fits.
                debug_assert_eq!(*weight % n_upcard, 0);
                *weight = match (u64::try_from(*weight), u64::try_from(n_upcard)) {
                    (Ok(weight), Ok(n_upcard)) => u128::from(weight / n_upcard),
                    _ => *weight / n_upcard,
                };
                unbusted = unbusted.checked_add(*weight)?;
            }
            let bust = crate::games::blackjack::DealerOutcome::Bust.index();
            debug_assert_eq!(weights[bust], 0, "busted hands are not listed");
            weights[bust] = pad[1].checked_sub(unbusted)?;
            rows.push((weights, total - 1, most));
        }
        Some(rows)
    }
}

/// Shoes per pass of [`IntegerDealer::weights_many`]'s `u64` kernel.
pub const INTEGER_LANES: usize = 4;

/// One upcard's outcome weights `G`, the cards left once it is dealt
/// (`T - 1`) and the depth `m_u`: each probability is `G[o] / F(T - 1,
/// m_u)`, unreduced.
pub type UpcardWeights = ([u128; N_OUTCOMES], u64, u8);

/// The integer [`IntegerDealer`]'s products are kept in: checked, each
/// with a buffer per thread (kept between shoes, not freed).
trait Product: Copy + PartialEq + 'static {
    const ZERO: Self;
    fn from_count(count: u64) -> Self;
    fn times(self, count: u64) -> Option<Self>;
    fn plus(self, other: Self) -> Option<Self>;
    fn wide(self) -> u128;
    fn with_buffer<R>(work: impl FnOnce(&mut Vec<Self>) -> R) -> R;
}

impl Product for u64 {
    const ZERO: u64 = 0;
    fn from_count(count: u64) -> u64 {
        count
    }
    fn times(self, count: u64) -> Option<u64> {
        self.checked_mul(count)
    }
    fn plus(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
    fn with_buffer<R>(work: impl FnOnce(&mut Vec<u64>) -> R) -> R {
        thread_local! {
            static BUFFER: std::cell::RefCell<Vec<u64>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        BUFFER.with(|buffer| work(&mut buffer.borrow_mut()))
    }
}

impl Product for u128 {
    const ZERO: u128 = 0;
    fn from_count(count: u64) -> u128 {
        u128::from(count)
    }
    fn times(self, count: u64) -> Option<u128> {
        mul_small(self, count)
    }
    fn plus(self, other: u128) -> Option<u128> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self
    }
    fn with_buffer<R>(work: impl FnOnce(&mut Vec<u128>) -> R) -> R {
        thread_local! {
            static BUFFER: std::cell::RefCell<Vec<u128>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        BUFFER.with(|buffer| work(&mut buffer.borrow_mut()))
    }
}

/// `1` as a [`Number`] (used for probabilities that are certain).
pub fn one<T: Number>() -> T {
    T::ratio(1, 1)
}

/// Whether a `BigRational` is exactly one (for tests).
pub fn is_one(value: &BigRational) -> bool {
    value.is_one()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::{PER_DECK, Scoring};

    fn shoe(decks: u32, removed: &[u8]) -> Shoe {
        let mut counts = PER_DECK.map(|c| c * decks);
        for &v in removed {
            counts[usize::from(v - 1)] -= 1;
        }
        Shoe {
            counts,
            infinite: false,
        }
    }

    /// `F(a, k)` as a big integer.
    fn falling_big(a: u64, k: u8) -> num_bigint::BigUint {
        (0..u64::from(k))
            .map(|i| num_bigint::BigUint::from(a - i))
            .product()
    }

    /// The integer list's weights as fractions equal the recursion's, an
    /// independent method, on every shoe it answers for.
    fn integer_weights_agree(shoe: &Shoe) -> std::result::Result<bool, String> {
        let dealable = dealable(shoe);
        let mut answered = false;
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            let rules = DealerRules {
                soft17,
                scoring: Scoring::Correct,
            };
            let Some(listed) = IntegerDealer::for_rules(rules).weights(shoe) else {
                continue;
            };
            answered = true;
            let recursed = unconditional_weights(shoe, rules, &dealable)
                .ok_or("the recursion overflowed where the list did not")?;
            if listed.len() != recursed.len() {
                return Err(format!("{} rows against {}", listed.len(), recursed.len()));
            }
            for ((l, l_left, l_depth), (r, r_left, r_depth)) in listed.iter().zip(&recursed) {
                for o in 0..N_OUTCOMES {
                    // l / F(l_left, l_depth) == r / F(r_left, r_depth)
                    let lhs = num_bigint::BigUint::from(l[o]) * falling_big(*r_left, *r_depth);
                    let rhs = num_bigint::BigUint::from(r[o]) * falling_big(*l_left, *l_depth);
                    if lhs != rhs {
                        return Err(format!(
                            "{soft17:?} {shoe:?} outcome {o}: {l:?} against {r:?}"
                        ));
                    }
                }
            }
        }
        Ok(answered)
    }

    #[test]
    fn integer_weights_answer_for_every_usual_shoe() {
        for decks in [1, 2, 4, 6, 8] {
            assert_eq!(
                integer_weights_agree(&shoe(decks, &[])),
                Ok(true),
                "{decks} decks"
            );
        }
        assert_eq!(
            integer_weights_agree(&shoe(1, &[1, 1, 1, 2, 2, 2, 2, 3, 10, 10, 10, 10])),
            Ok(true)
        );
        let infinite = Shoe {
            counts: PER_DECK,
            infinite: true,
        };
        assert_eq!(integer_weights_agree(&infinite), Ok(false));
    }

    proptest::proptest! {
        /// Any shoe of 1 to 8 decks with up to 40 cards taken out.
        #[test]
        fn integer_weights_equal_the_recursion(
            decks in 1u32..=8,
            removed in proptest::collection::vec(1u8..=10, 0..40),
        ) {
            let mut counts = PER_DECK.map(|c| c * decks);
            for &value in &removed {
                let count = &mut counts[usize::from(value - 1)];
                *count = count.saturating_sub(1);
            }
            let shoe = Shoe { counts, infinite: false };
            let agreed = integer_weights_agree(&shoe);
            proptest::prop_assert!(agreed.is_ok(), "{:?}", agreed);
        }

        /// The lanes give each shoe what the one-shoe pass gives, in
        /// order, for batches of any length (full lanes, a short tail,
        /// shoes too large for `u64`, shoes without some upcard).
        #[test]
        fn integer_lanes_equal_one_shoe_at_a_time(
            shoes in proptest::collection::vec(
                (1u32..=3, proptest::collection::vec(1u8..=10, 0..45)),
                0..11,
            ),
            hit_soft17 in proptest::bool::ANY,
        ) {
            let shoes: Vec<Shoe> = shoes
                .into_iter()
                .map(|(decks, removed)| {
                    let mut counts = PER_DECK.map(|c| c * decks);
                    for &value in &removed {
                        let count = &mut counts[usize::from(value - 1)];
                        *count = count.saturating_sub(1);
                    }
                    Shoe { counts, infinite: false }
                })
                .collect();
            let rules = DealerRules {
                soft17: if hit_soft17 { Soft17::Hit } else { Soft17::Stand },
                scoring: Scoring::Correct,
            };
            let dealer = IntegerDealer::for_rules(rules);
            let one_by_one: Vec<_> = shoes.iter().map(|shoe| dealer.weights(shoe)).collect();
            proptest::prop_assert_eq!(dealer.weights_many(&shoes), one_by_one);
        }

        /// A row's value standing, summed in integers from the weights,
        /// is the signed sum of its probabilities as `Falling` values.
        #[test]
        fn falling_row_value_is_the_signed_sum(
            decks in 1u32..=8,
            removed in proptest::collection::vec(1u8..=10, 0..30),
            payoffs in proptest::array::uniform7(-1i8..=1),
        ) {
            let mut counts = PER_DECK.map(|c| c * decks);
            for &value in &removed {
                let count = &mut counts[usize::from(value - 1)];
                *count = count.saturating_sub(1);
            }
            let shoe = Shoe { counts, infinite: false };
            let rules = DealerRules {
                soft17: Soft17::Stand,
                scoring: Scoring::Correct,
            };
            for row in Falling::dealer_rows(&shoe, rules).iter().flatten() {
                let FallingRow::Weights { weights, cards_left, depth } = row else {
                    continue;
                };
                let values = weights.map(|w| Falling::from_weight(w, *cards_left, *depth));
                proptest::prop_assert_eq!(
                    Falling::row_value(row, &payoffs).to_big(),
                    signed_sum(&values, &payoffs).to_big()
                );
            }
        }
    }

    /// The float list against the dealer table's exact recursion, an
    /// independent method, on shoes with cards removed.
    #[test]
    fn float_rows_match_the_exact_dealer_table() {
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            let rules = DealerRules {
                soft17,
                scoring: Scoring::Correct,
            };
            for shoe in [
                shoe(1, &[]),
                shoe(1, &[10, 10, 6]),
                shoe(2, &[1, 1, 1, 5]),
                shoe(6, &[2, 3, 4, 10]),
                Shoe {
                    counts: PER_DECK,
                    infinite: true,
                },
            ] {
                let exact = BigRational::dealer_rows(&shoe, rules);
                let float = f64::dealer_rows(&shoe, rules);
                for upcard in 0..N_VALUES {
                    match (&exact[upcard], &float[upcard]) {
                        (Some(e), Some(f)) => {
                            for o in 0..N_OUTCOMES {
                                let difference = (rational_to_f64(&e[o]) - f[o]).abs();
                                assert!(
                                    difference < 1e-13,
                                    "{soft17:?} upcard {upcard} outcome {o}: {difference}"
                                );
                            }
                        }
                        (None, None) => {}
                        _ => panic!("dealable upcards differ"),
                    }
                }
            }
        }
    }

    /// Every kernel this CPU has, on batches that fill some lanes and not
    /// others, against the one-shoe loop: equal bit for bit.
    #[test]
    fn every_kernel_equals_the_one_shoe_loop_bit_for_bit() {
        let mut shoes = Vec::new();
        for decks in [1, 2, 6, 8] {
            for removed in [&[][..], &[10, 10, 6], &[1, 1, 1, 5], &[2, 3, 4, 10, 10, 10]] {
                shoes.push(shoe(decks, removed));
            }
        }
        let mut no_fives = shoe(1, &[]);
        no_fives.counts[4] = 0;
        shoes.push(no_fives);
        shoes.push(Shoe {
            counts: PER_DECK,
            infinite: true,
        });
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            let dealer = FloatDealer::for_rules(DealerRules::new(soft17));
            let expected: Vec<DealerRows<f64>> =
                shoes.iter().map(|s| dealer.rows_one_shoe(s)).collect();
            let bits = |rows: &[DealerRows<f64>]| -> Vec<Option<[u64; N_OUTCOMES]>> {
                rows.iter()
                    .flat_map(|r| r.iter().map(|row| row.map(|row| row.map(f64::to_bits))))
                    .collect()
            };
            for kernel in FloatKernel::ALL {
                if !kernel.available() {
                    eprintln!("kernel {kernel:?} skipped: this CPU does not have it");
                    continue;
                }
                for batch in [1, 5, LANES, shoes.len()] {
                    let got: Vec<DealerRows<f64>> = shoes
                        .chunks(batch)
                        .flat_map(|chunk| dealer.rows_many_using(kernel, chunk))
                        .collect();
                    assert_eq!(bits(&got), bits(&expected), "{soft17:?} {kernel:?} {batch}");
                }
            }
        }
    }

    #[test]
    fn a_shoe_without_a_value_deals_no_such_upcard() {
        let mut s = shoe(1, &[]);
        s.counts[4] = 0;
        let rules = DealerRules::new(Soft17::Stand);
        assert!(f64::dealer_rows(&s, rules)[4].is_none());
        assert!(BigRational::dealer_rows(&s, rules)[4].is_none());
    }

    #[test]
    fn huge_fractions_convert_to_f64() {
        let big = BigInt::from(3u8).pow(700);
        let value = BigRational::new(big.clone(), big * BigInt::from(4u8));
        assert_eq!(rational_to_f64(&value), 0.25);
        assert_eq!(rational_to_f64(&-value), -0.25);
    }
}
