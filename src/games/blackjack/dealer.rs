//! Exact dealer-outcome probabilities by deck composition.
//!
//! # Method
//!
//! The dealer's future depends only on the multiset of cards held (upcard
//! included): it fixes both the hand (hard total, ace, card count) and what
//! is left in the shoe. So the recursion is memoised on that multiset, and
//! one memo serves every upcard (a hand holding {2, 10} is the same state
//! whichever card was the upcard).
//!
//! Arithmetic is integer. For a held multiset `H` of `h` cards in a shoe of
//! `N` cards, let `T = N - h` be the cards left and `d(H)` the most cards
//! the dealer can still draw. The node stores, per outcome, the integer
//!
//! ```text
//! G(H)[o] = P(o | H) * T (T-1) ... (T-d+1)        (a falling factorial)
//! ```
//!
//! which satisfies, over the values `v` still in the shoe (`c_v` of them),
//!
//! ```text
//! G(H) = sum_v c_v * G(H+v) * F(T - 1 - d(H+v), d(H) - 1 - d(H+v))
//! ```
//!
//! with `F(a, k) = a (a-1) ... (a-k+1)`. Every number is a count of weighted
//! deals, so no division happens until the very end, where one exact
//! fraction per outcome is reduced. For an infinite deck, draws are with
//! replacement: `c_v` stays at one deck's count and `T` at 52, so the
//! falling factorials become powers of 52.
//!
//! Weights are `u128` with checked arithmetic; if any operation would
//! overflow (very large shoes), the whole table is recomputed with `BigUint`.
//! Nothing ever wraps.
//!
//! # Complexity
//!
//! About 1,500 memoised hands for all ten upcards, ten children each:
//! microseconds, independent of the number of decks.

use ahash::AHashMap;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::distribution::ExactDistribution;
use crate::error::{Error, Result};
use crate::games::blackjack::{
    DealerHand, DealerOutcome, DealerParams, DealerRules, Decks, N_OUTCOMES, N_VALUES, Shoe,
    UPCARDS, outcome_labels, upcard_key, value_name,
};

/// The exact outcome probabilities for each upcard, in table order
/// (2..10, A), as distributions keyed `upcard=2` .. `upcard=A` with the
/// outcome labels of RULES.md.
///
/// Guarantee: every probability is an exact reduced fraction and each
/// distribution sums to exactly 1. With `params.peek` the probabilities are
/// conditional on the dealer not holding a natural.
pub fn dealer_distributions(params: &DealerParams) -> Result<Vec<ExactDistribution>> {
    let rows = dealer_table(params)?;
    Ok(UPCARDS
        .iter()
        .zip(rows)
        .map(|(&upcard, probabilities)| ExactDistribution {
            key: upcard_key(upcard),
            outcomes: outcome_labels(),
            probabilities: probabilities.to_vec(),
        })
        .collect())
}

/// One row of exact probabilities, indexed like `OUTCOME_LABELS`.
pub type OutcomeRow = [BigRational; N_OUTCOMES];

/// The exact table: one row per upcard in [`UPCARDS`] order.
///
/// Errors if the parameters describe an impossible shoe, or a shoe that
/// cannot deal some upcard, or (with peek) one in which an upcard always
/// gives the dealer a natural.
pub fn dealer_table(params: &DealerParams) -> Result<Vec<OutcomeRow>> {
    let shoe = params.shoe()?;
    for &upcard in &UPCARDS {
        shoe.without(upcard)?;
    }
    let rows = unconditional_rows(&shoe, params.rules(), &UPCARDS);
    if params.peek {
        UPCARDS
            .iter()
            .zip(rows)
            .map(|(&upcard, row)| condition_on_no_natural(upcard, row))
            .collect()
    } else {
        Ok(rows)
    }
}

/// The exact effect of removing one card of each value on every outcome
/// probability: for each value `v` in `A, 2..10`, the table with one more
/// card of `v` removed minus the table without it, as
/// `(v, rows in UPCARDS order)`.
///
/// This is what card counters call the effect of removal (EoR). A cell the
/// removal leaves without meaning is an `Err` saying why, and the rest of
/// the table is still computed: removing the last card of a value leaves
/// no such upcard to deal (a shoe of one deck less three 2s has no row for
/// upcard 2 once a fourth is removed).
///
/// Errors if `params` itself has no table (see [`dealer_table`]), or the
/// shoe is infinite, where removing a card changes nothing.
pub fn effect_of_removal(params: &DealerParams) -> Result<Vec<(u8, Vec<RemovalEffect>)>> {
    if params.decks == Decks::Infinite {
        return Err(Error::invalid(
            "decks",
            "inf",
            "the effect of removal needs a finite shoe (removing a card from an infinite deck changes nothing): give 1..=64 decks",
        ));
    }
    let base = dealer_table(params)?;
    let mut removal_order: Vec<u8> = (1..=N_VALUES as u8).collect();
    removal_order.rotate_left(1); // 2..10 then A, as the table lists upcards.
    removal_order
        .into_iter()
        .map(|value| {
            let mut removed = params.clone();
            removed.removed.push(value);
            let differences = rows_after_removal(&removed, value)?
                .into_iter()
                .zip(&base)
                .map(|(row, base_row)| {
                    row.map(|row| std::array::from_fn(|o| &row[o] - &base_row[o]))
                })
                .collect();
            Ok((value, differences))
        })
        .collect()
}

/// One upcard's change in every outcome under a removal, or why it has
/// none.
pub type RemovalEffect = std::result::Result<OutcomeRow, String>;

/// The table under `params` (a shoe with `value` just removed), row by row
/// in [`UPCARDS`] order: an upcard the shoe can no longer deal, or (with
/// peek) one that always gives a natural, is an `Err` saying why.
fn rows_after_removal(
    params: &DealerParams,
    value: u8,
) -> Result<Vec<std::result::Result<OutcomeRow, String>>> {
    let shoe = params.shoe()?;
    let dealable: Vec<u8> = UPCARDS
        .iter()
        .copied()
        .filter(|&upcard| shoe.without(upcard).is_ok())
        .collect();
    let mut rows = unconditional_rows(&shoe, params.rules(), &dealable).into_iter();
    Ok(UPCARDS
        .iter()
        .map(|&upcard| {
            if !dealable.contains(&upcard) {
                return Err(format!(
                    "removing one more {} leaves none to deal as the upcard",
                    value_name(value)
                ));
            }
            let row = rows
                .next()
                .ok_or_else(|| "no row was computed".to_string())?;
            if params.peek {
                condition_on_no_natural(upcard, row).map_err(|e| e.to_string())
            } else {
                Ok(row)
            }
        })
        .collect())
}

/// Unconditional rows for `upcards` from `shoe` (which still holds the
/// upcards). Tries `u128` first and falls back to `BigUint` on overflow.
pub(crate) fn unconditional_rows(
    shoe: &Shoe,
    rules: DealerRules,
    upcards: &[u8],
) -> Vec<OutcomeRow> {
    match Enumerator::<u128>::new(shoe, rules).rows(upcards) {
        Some(rows) => rows,
        None => Enumerator::<BigUint>::new(shoe, rules)
            .rows(upcards)
            .expect("BigUint arithmetic cannot overflow"),
    }
}

/// The integer form of [`unconditional_rows`] for a finite shoe: per
/// upcard, the weights `G` of its outcomes, the cards left once the upcard
/// is dealt and the dealer's most cards still to draw `d`, each outcome's
/// probability being `G[o] / F(cards left, d)` (unreduced). `None` for an
/// infinite shoe, or where `u128` overflows.
pub(crate) fn unconditional_weights(
    shoe: &Shoe,
    rules: DealerRules,
    upcards: &[u8],
) -> Option<Vec<([u128; N_OUTCOMES], u64, u8)>> {
    if shoe.infinite {
        return None;
    }
    // The player's solve asks for thousands of shoes: each thread keeps
    // one enumerator's allocations for all of them (cleared, not freed).
    thread_local! {
        static SPARE: std::cell::RefCell<Option<Enumerator<u128>>> =
            const { std::cell::RefCell::new(None) };
    }
    SPARE.with(|spare| {
        let mut enumerator = match spare.borrow_mut().take() {
            Some(mut enumerator) => {
                enumerator.shoe = *shoe;
                enumerator.rules = rules;
                enumerator.nodes.clear();
                enumerator.memo.clear();
                enumerator
            }
            None => Enumerator::new(shoe, rules),
        };
        let rows = enumerator.weights(upcards);
        *spare.borrow_mut() = Some(enumerator);
        rows
    })
}

/// Conditions a row on "no natural": P(o | no natural) = P(o) / (1 - P(natural)).
fn condition_on_no_natural(upcard: u8, row: OutcomeRow) -> Result<OutcomeRow> {
    let natural = DealerOutcome::Natural.index();
    let no_natural = BigRational::one() - &row[natural];
    if no_natural.is_zero() {
        return Err(Error::invalid(
            "peek",
            format!("upcard {}", value_name(upcard)),
            "the dealer always has a natural in this shoe, so there is nothing to condition on",
        ));
    }
    Ok(std::array::from_fn(|o| {
        if o == natural {
            BigRational::zero()
        } else {
            &row[o] / &no_natural
        }
    }))
}

/// Integer arithmetic for path weights: checked for `u128`, unbounded for
/// `BigUint`.
trait Weight: Clone + Zero {
    fn from_u64(value: u64) -> Self;
    fn checked_mul_by(&self, other: &Self) -> Option<Self>;
    fn checked_add_to(&self, other: &Self) -> Option<Self>;
    fn to_bigint(&self) -> BigInt;
    /// `self / denominator` in lowest terms (`denominator` is not zero).
    fn ratio(&self, denominator: &Self) -> BigRational {
        BigRational::new(self.to_bigint(), denominator.to_bigint())
    }
}

impl Weight for u128 {
    fn from_u64(value: u64) -> Self {
        u128::from(value)
    }
    fn checked_mul_by(&self, other: &Self) -> Option<Self> {
        self.checked_mul(*other)
    }
    fn checked_add_to(&self, other: &Self) -> Option<Self> {
        self.checked_add(*other)
    }
    fn to_bigint(&self) -> BigInt {
        BigInt::from(*self)
    }
    /// Reduced in `u128` (a binary gcd of two machine words), not by the
    /// big-integer gcd `BigRational::new` runs: most of the exact dealer
    /// table's time beyond its enumeration went there.
    fn ratio(&self, denominator: &Self) -> BigRational {
        let divisor = gcd_u128(*self, *denominator);
        BigRational::new_raw(
            BigInt::from(*self / divisor),
            BigInt::from(*denominator / divisor),
        )
    }
}

/// The greatest common divisor of `a` and `b`, not both zero (Stein's
/// binary algorithm).
fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Weight for BigUint {
    fn from_u64(value: u64) -> Self {
        BigUint::from(value)
    }
    fn checked_mul_by(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn checked_add_to(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn to_bigint(&self) -> BigInt {
        BigInt::from(self.clone())
    }
}

/// Bits per value in a held-multiset key. A dealer holds at most 17 cards
/// of one value (17 aces make hard 17), so 5 bits suffice.
const KEY_BITS: u32 = 5;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// The key increment for holding one more card of `value`.
#[inline]
fn key_unit(value: u8) -> u64 {
    1 << (KEY_BITS * u32::from(value - 1))
}

/// A memoised subtree: the most cards still to draw and the weights `G`.
#[derive(Clone)]
struct Node<W> {
    depth: u8,
    weights: [W; N_OUTCOMES],
}

/// [`Enumerator::visit`]'s answer for a finished hand: this plus its
/// outcome's index (no node has an index this large).
const LEAF: u32 = u32::MAX - N_OUTCOMES as u32;

/// The memoised recursion over held multisets for one shoe. Nodes live in
/// one arena and are passed around by index: a node is ten weights wide,
/// and moving it at every call and return cost more than the arithmetic.
struct Enumerator<W> {
    shoe: Shoe,
    rules: DealerRules,
    /// Every hand visited that still draws (finished hands are [`LEAF`]
    /// codes, not nodes).
    nodes: Vec<Node<W>>,
    /// The held multiset's key to its node's index in `nodes`.
    memo: AHashMap<u64, u32>,
}

impl<W: Weight> Enumerator<W> {
    fn new(shoe: &Shoe, rules: DealerRules) -> Self {
        Enumerator {
            shoe: *shoe,
            rules,
            nodes: Vec::with_capacity(4096),
            memo: AHashMap::with_capacity(4096),
        }
    }

    /// Rows for the given upcards, or `None` if `W` overflowed.
    fn rows(&mut self, upcards: &[u8]) -> Option<Vec<OutcomeRow>> {
        self.weights(upcards)?
            .into_iter()
            .map(|(weights, cards_left, depth)| {
                let denominator = self.falling(cards_left, depth)?;
                Some(weights.map(|weight| weight.ratio(&denominator)))
            })
            .collect()
    }

    /// Per upcard, its outcomes' weights `G`, the cards left once it is
    /// dealt and the dealer's most cards still to draw `d`: each outcome's
    /// probability is `G[o] / F(cards left, d)`. `None` if `W` overflowed.
    fn weights(&mut self, upcards: &[u8]) -> Option<Vec<([W; N_OUTCOMES], u64, u8)>> {
        upcards
            .iter()
            .map(|&upcard| {
                let index = self.visit(key_unit(upcard), DealerHand::new(upcard), 1)?;
                let node = &self.nodes[index as usize];
                Some((node.weights.clone(), self.cards_left(1), node.depth))
            })
            .collect()
    }

    /// Cards left in the shoe once the dealer holds `held` cards.
    #[inline]
    fn cards_left(&self, held: u32) -> u64 {
        let total = u64::from(self.shoe.total());
        if self.shoe.infinite {
            total
        } else {
            total - u64::from(held)
        }
    }

    /// `F(a, k)`: `a (a-1) ... (a-k+1)` for a finite shoe, `a^k` for an
    /// infinite one (where `a` is always 52).
    fn falling(&self, a: u64, k: u8) -> Option<W> {
        let mut product = W::from_u64(1);
        for i in 0..u64::from(k) {
            let factor = if self.shoe.infinite { a } else { a - i };
            product = product.checked_mul_by(&W::from_u64(factor))?;
        }
        Some(product)
    }

    /// The index of the node for the held multiset `key` (hand `hand`,
    /// `held` cards), or for a finished hand [`LEAF`] plus its outcome's
    /// index (a weight of one on that outcome, nothing to memoise).
    fn visit(&mut self, key: u64, hand: DealerHand, held: u32) -> Option<u32> {
        if !hand.must_draw(self.rules) {
            return Some(LEAF + hand.outcome(self.rules).index() as u32);
        }
        if let Some(&index) = self.memo.get(&key) {
            return Some(index);
        }

        // First every child, to learn the deepest one; then combine over the
        // common denominator that depth implies.
        let mut children = [(0u64, 0u32); N_VALUES];
        let mut n_children = 0;
        for value in 1..=N_VALUES as u8 {
            let held_of_value = (key >> (KEY_BITS * u32::from(value - 1))) & KEY_MASK;
            let in_shoe = u64::from(self.shoe.count(value));
            let available = if self.shoe.infinite {
                in_shoe
            } else {
                in_shoe - held_of_value
            };
            if available == 0 {
                continue;
            }
            let mut next = hand;
            next.add(value);
            let child = self.visit(key + key_unit(value), next, held + 1)?;
            children[n_children] = (available, child);
            n_children += 1;
        }
        let children = &children[..n_children];
        // Some child always exists: `dealer_table` requires a card of every
        // value in the shoe, so its cards total at least 1 + 2 + ... + 10 =
        // 55 and the dealer reaches hard 17 before the shoe runs dry.
        let depth = 1 + children
            .iter()
            .map(|&(_, child)| self.depth_of(child))
            .max()?;

        let cards_left_after = self.cards_left(held + 1);
        let mut weights: [W; N_OUTCOMES] = std::array::from_fn(|_| W::zero());
        for &(available, child) in children {
            let child_depth = self.depth_of(child);
            let pad = self.falling(
                cards_left_after
                    - if self.shoe.infinite {
                        0
                    } else {
                        u64::from(child_depth)
                    },
                depth - 1 - child_depth,
            )?;
            let factor = W::from_u64(available).checked_mul_by(&pad)?;
            if child >= LEAF {
                let total = &mut weights[(child - LEAF) as usize];
                *total = total.checked_add_to(&factor)?;
                continue;
            }
            for (total, child_weight) in weights.iter_mut().zip(&self.nodes[child as usize].weights)
            {
                if !child_weight.is_zero() {
                    *total = total.checked_add_to(&child_weight.checked_mul_by(&factor)?)?;
                }
            }
        }
        Some(self.remember(key, Node { depth, weights }))
    }

    /// The most cards still to draw below `node` (none below a finished
    /// hand).
    fn depth_of(&self, node: u32) -> u8 {
        if node >= LEAF {
            0
        } else {
            self.nodes[node as usize].depth
        }
    }

    /// Keeps `node` as the held multiset `key`'s, and gives its index.
    fn remember(&mut self, key: u64, node: Node<W>) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(node);
        self.memo.insert(key, index);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::{Decks, Soft17};

    fn ratio(numerator: i64, denominator: i64) -> BigRational {
        BigRational::new(numerator.into(), denominator.into())
    }

    proptest::proptest! {
        /// The machine-word reduction is the big-integer one, term for
        /// term (numerator and denominator, not just the value).
        #[test]
        fn u128_ratios_reduce_as_big_rationals_do(
            numerator in 0u128..=u128::MAX,
            denominator in 1u128..=u128::MAX,
            scale in 1u128..1_000_000,
        ) {
            for (n, d) in [
                (numerator, denominator),
                (numerator % (1 << 64) * scale, denominator % (1 << 64) * scale),
                (0, denominator),
            ] {
                if d == 0 {
                    continue;
                }
                let fast = n.ratio(&d);
                let slow = BigRational::new(BigInt::from(n), BigInt::from(d));
                proptest::prop_assert_eq!(fast.numer(), slow.numer());
                proptest::prop_assert_eq!(fast.denom(), slow.denom());
            }
        }
    }

    #[test]
    fn rows_sum_to_exactly_one() {
        for decks in [
            Decks::Finite(1),
            Decks::Finite(2),
            Decks::Finite(8),
            Decks::Infinite,
        ] {
            for soft17 in [Soft17::Stand, Soft17::Hit] {
                let params = DealerParams {
                    decks,
                    soft17,
                    ..DealerParams::default()
                };
                for row in dealer_table(&params).unwrap() {
                    let sum: BigRational = row.iter().sum();
                    assert_eq!(sum, BigRational::one(), "{params:?}");
                }
            }
        }
    }

    #[test]
    fn natural_with_an_ace_up_is_tens_over_cards_left() {
        for decks in 1..=8 {
            let params = DealerParams {
                decks: Decks::Finite(decks),
                ..DealerParams::default()
            };
            let ace_row = dealer_table(&params).unwrap().pop().unwrap();
            let tens = 16 * i64::from(decks);
            let cards_left = 52 * i64::from(decks) - 1;
            assert_eq!(ace_row[6], ratio(tens, cards_left));
        }
    }

    #[test]
    fn infinite_deck_natural_is_four_thirteenths() {
        let params = DealerParams {
            decks: Decks::Infinite,
            ..DealerParams::default()
        };
        let rows = dealer_table(&params).unwrap();
        assert_eq!(rows[9][6], ratio(4, 13));
        assert_eq!(rows[8][6], ratio(1, 13));
    }

    #[test]
    fn huge_shoes_fall_back_to_big_integers() {
        // 64 decks, H17: the common denominators pass 2^128, so this
        // exercises the BigUint path; the result must still be exact.
        let params = DealerParams {
            decks: Decks::Finite(64),
            soft17: Soft17::Hit,
            ..DealerParams::default()
        };
        let shoe = params.shoe().unwrap();
        assert!(
            Enumerator::<u128>::new(&shoe, params.rules())
                .rows(&UPCARDS)
                .is_none()
        );
        for row in dealer_table(&params).unwrap() {
            assert_eq!(row.iter().sum::<BigRational>(), BigRational::one());
        }
    }

    #[test]
    fn peek_removes_the_natural_and_renormalises() {
        let peeked = dealer_table(&DealerParams {
            peek: true,
            ..DealerParams::default()
        })
        .unwrap();
        let plain = dealer_table(&DealerParams::default()).unwrap();
        for (peeked_row, plain_row) in peeked.iter().zip(&plain) {
            assert!(peeked_row[6].is_zero());
            assert_eq!(peeked_row.iter().sum::<BigRational>(), BigRational::one());
            let scale = BigRational::one() - &plain_row[6];
            for o in 0..6 {
                assert_eq!(&peeked_row[o] * &scale, plain_row[o]);
            }
        }
    }
}
