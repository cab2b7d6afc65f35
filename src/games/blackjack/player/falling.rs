//! The number the exact solver computes in: an integer over a falling
//! factorial, 256 bits wide, reduced to a fraction only at the end.
//!
//! # Why it holds
//!
//! Every probability the solver meets is a count of deals over the number
//! of ways to draw them: drawing `k` cards from a shoe of `T` is one of
//! `F(T, k) = T (T-1) ... (T-k+1)` ordered draws. A hand with `T` cards left
//! hits: each card `v` (`c_v` of them) comes with chance `c_v / T`, and its
//! child's value is over `F(T-1, k)`, so the product is over `F(T, k+1)`;
//! the dealer's rows are the dealer table's own integer weights over
//! `F(T, d)` (`dealer::unconditional_weights`); sums of values over
//! overlapping or adjacent ranges of factors share the union's product.
//! So a value is kept as `num / F(hi, len)`: the product of the `len`
//! consecutive integers ending at `hi` (none when `len` is 0), and sums,
//! products and comparisons are integer operations, without a greatest
//! common divisor until the table is done.
//!
//! Whatever does not fit that shape (a product of two chances from the same
//! shoe, a division, a numerator past 256 bits) is computed as a reduced
//! `BigRational` instead ([`Falling::Big`]), exactly as the solver did
//! before: the shape is a fast path, never an approximation. Every
//! operation is checked; nothing wraps.

use std::cmp::Ordering;

use ethnum::{I256, U256};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// An exact number: `num / F(hi, len)`, or a reduced fraction.
#[derive(Clone, Debug)]
pub enum Falling {
    /// `num / (hi (hi-1) ... (hi-len+1))`, the empty product (`len` 0)
    /// being 1 (then `hi` is 0). The factors are at least 1.
    Scaled { num: I256, hi: u32, len: u32 },
    /// A reduced fraction: what the shape cannot hold.
    Big(BigRational),
}

/// The factors of a denominator, `lo..=hi`; `None` for the empty product.
type Factors = Option<(u32, u32)>;

fn factors(hi: u32, len: u32) -> Factors {
    (len > 0).then(|| (hi + 1 - len, hi))
}

fn to_shape(factors: Factors) -> (u32, u32) {
    match factors {
        Some((lo, hi)) => (hi, hi + 1 - lo),
        None => (0, 0),
    }
}

/// The product of the integers of `lo..=hi` that are not in `inner`.
fn product_outside(lo: u32, hi: u32, inner: Factors) -> Option<I256> {
    let mut product = I256::ONE;
    for factor in lo..=hi {
        if let Some((inner_lo, inner_hi)) = inner
            && (inner_lo..=inner_hi).contains(&factor)
        {
            continue;
        }
        product = checked_product(product, I256::from(factor))?;
    }
    Some(product)
}

/// `a * b`, `None` where it overflows 256 bits. When either fits 64 bits
/// (a chance's numerator, a denominator's factor: nearly always), four
/// word products instead of a full 256-bit multiplication.
fn checked_product(a: I256, b: I256) -> Option<I256> {
    let (wide, small) = if let Ok(small) = i64::try_from(b) {
        (a, small)
    } else if let Ok(small) = i64::try_from(a) {
        (b, small)
    } else {
        return a.checked_mul(b);
    };
    let negative = (wide < I256::ZERO) != (small < 0);
    let factor = u128::from(small.unsigned_abs());
    let (hi, lo) = wide.unsigned_abs().into_words();
    let low = (lo & u128::from(u64::MAX)) * factor;
    let mid = (lo >> 64) * factor + (low >> 64);
    let high = (hi & u128::from(u64::MAX)) * factor + (mid >> 64);
    let top = (hi >> 64) * factor + (high >> 64);
    if top >> 64 != 0 {
        return None;
    }
    let magnitude = U256::from_words(
        (top << 64) | (high & u128::from(u64::MAX)),
        (mid << 64) | (low & u128::from(u64::MAX)),
    );
    // |result| must fit: below 2^255, or exactly 2^255 when negative.
    let limit = U256::ONE << 255u32;
    if magnitude > limit || (magnitude == limit && !negative) {
        return None;
    }
    let value = magnitude.as_i256();
    Some(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// `num` over `from`'s factors, brought over `to`'s (a range holding
/// `from`'s).
fn lift(num: I256, from: Factors, to: Factors) -> Option<I256> {
    match to {
        None => Some(num),
        Some(_) if num == I256::ZERO => Some(num),
        Some((lo, hi)) => checked_product(num, product_outside(lo, hi, from)?),
    }
}

/// The smallest range holding both (which must overlap or touch).
fn union(a: Factors, b: Factors) -> Option<Factors> {
    match (a, b) {
        (None, other) | (other, None) => Some(other),
        (Some((a_lo, a_hi)), Some((b_lo, b_hi))) => {
            (b_lo <= a_hi + 1 && a_lo <= b_hi + 1).then(|| Some((a_lo.min(b_lo), a_hi.max(b_hi))))
        }
    }
}

impl Falling {
    /// `num / den` as a value of this kind (`den` not zero).
    pub fn ratio(num: i64, den: i64) -> Falling {
        let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
        match u32::try_from(den) {
            Ok(1) => Falling::Scaled {
                num: I256::from(num),
                hi: 0,
                len: 0,
            },
            Ok(den) => Falling::Scaled {
                num: I256::from(num),
                hi: den,
                len: 1,
            },
            Err(_) => Falling::Big(BigRational::new(num.into(), den.into())),
        }
    }

    /// `weight / F(cards_left, depth)`: a dealer outcome's probability as
    /// the dealer table counts it.
    pub fn from_weight(weight: u128, cards_left: u64, depth: u8) -> Falling {
        match (i128::try_from(weight), u32::try_from(cards_left)) {
            (Ok(weight), Ok(cards_left)) if u64::from(depth) <= u64::from(cards_left) => {
                Falling::Scaled {
                    num: I256::from(weight),
                    hi: if depth == 0 { 0 } else { cards_left },
                    len: u32::from(depth),
                }
            }
            _ => {
                let mut den = BigInt::one();
                for i in 0..u64::from(depth) {
                    den *= BigInt::from(cards_left - i);
                }
                Falling::Big(BigRational::new(BigInt::from(weight), den))
            }
        }
    }

    /// `(wins - losses) / F(cards_left, depth)`: a hand's value standing,
    /// from the dealer outcomes' weights it wins and loses against; the
    /// same number as [`Falling::from_weight`] of each, subtracted.
    pub fn from_weight_difference(wins: u128, losses: u128, cards_left: u64, depth: u8) -> Falling {
        match (
            i128::try_from(wins),
            i128::try_from(losses),
            u32::try_from(cards_left),
        ) {
            (Ok(wins), Ok(losses), Ok(cards_left)) if u64::from(depth) <= u64::from(cards_left) => {
                Falling::Scaled {
                    num: I256::from(wins) - I256::from(losses),
                    hi: if depth == 0 { 0 } else { cards_left },
                    len: u32::from(depth),
                }
            }
            _ => Falling::from_weight(wins, cards_left, depth)
                .sub(&Falling::from_weight(losses, cards_left, depth)),
        }
    }

    /// `self / other` (`other` not zero), as a reduced fraction. Where
    /// `other`'s numerator is a 64-bit integer (the solver divides by
    /// chances such as `(T - c) / T`) and `self`'s numerator times
    /// `other`'s denominator fits, the quotient is reduced as
    /// [`Falling::to_big`] reduces, its denominator's factors being
    /// `self`'s and `other`'s numerator; else by `BigRational`'s division.
    pub fn div(&self, other: &Falling) -> Falling {
        if let (Some((a, a_factors)), Some((b, b_factors))) = (self.shape(), other.shape())
            && let Ok(divisor) = u64::try_from(b.unsigned_abs())
            && divisor != 0
            && let Some(num) = product_outside_of(b_factors).and_then(|f| checked_product(a, f))
        {
            let negative = (num < I256::ZERO) != (b < I256::ZERO);
            let factors = each_factor(a_factors).chain(std::iter::once(divisor));
            return Falling::Big(reduced(num.unsigned_abs(), negative, factors));
        }
        Falling::Big(self.to_big() / other.to_big())
    }

    /// The exact value as a reduced fraction.
    ///
    /// The shape's fraction is reduced factor by factor, in 64-bit
    /// greatest common divisors: `d = gcd(num, f)` for each factor `f` of
    /// the denominator in turn, dividing both. After a factor's step the
    /// numerator is prime to what is left of `f`, and later steps only
    /// divide the numerator, so the result is in lowest terms: the fraction
    /// `BigRational::new` gives, without its big-integer GCD (which was a
    /// sixth of the exact solve's time).
    pub fn to_big(&self) -> BigRational {
        match self {
            Falling::Big(big) => big.clone(),
            Falling::Scaled { num, hi, len } => reduced(
                num.unsigned_abs(),
                *num < I256::ZERO,
                each_factor(factors(*hi, *len)),
            ),
        }
    }

    /// The numerator and the denominator's factors, in the shape.
    fn shape(&self) -> Option<(I256, Factors)> {
        match self {
            Falling::Scaled { num, hi, len } => Some((*num, factors(*hi, *len))),
            Falling::Big(_) => None,
        }
    }

    /// Both over one denominator, with its factors, if the shape holds it.
    fn common(&self, other: &Falling) -> Option<(I256, I256, Factors)> {
        let ((a, a_factors), (b, b_factors)) = (self.shape()?, other.shape()?);
        if a_factors == b_factors {
            return Some((a, b, a_factors));
        }
        // A zero takes the other's denominator as it is.
        if a == I256::ZERO {
            return Some((I256::ZERO, b, b_factors));
        }
        if b == I256::ZERO {
            return Some((a, I256::ZERO, a_factors));
        }
        let to = union(a_factors, b_factors)?;
        Some((lift(a, a_factors, to)?, lift(b, b_factors, to)?, to))
    }

    fn scaled(num: I256, factors: Factors) -> Falling {
        let (hi, len) = to_shape(factors);
        Falling::Scaled { num, hi, len }
    }

    /// `self + other`.
    pub fn add(&self, other: &Falling) -> Falling {
        if let Some((a, b, to)) = self.common(other)
            && let Some(sum) = a.checked_add(b)
        {
            return Falling::scaled(sum, to);
        }
        Falling::Big(self.to_big() + other.to_big())
    }

    /// `self - other`.
    pub fn sub(&self, other: &Falling) -> Falling {
        if let Some((a, b, to)) = self.common(other)
            && let Some(difference) = a.checked_sub(b)
        {
            return Falling::scaled(difference, to);
        }
        Falling::Big(self.to_big() - other.to_big())
    }

    /// `self * other`: in the shape when one is a whole number or their
    /// factors are disjoint and touch (a chance `c / T` times a value over
    /// `F(T-1, k)`).
    pub fn mul(&self, other: &Falling) -> Falling {
        if let (Some((a, a_factors)), Some((b, b_factors))) = (self.shape(), other.shape()) {
            let product = checked_product(a, b);
            let to = match (a_factors, b_factors) {
                (None, other) | (other, None) => Some(other),
                (Some((a_lo, a_hi)), Some((b_lo, b_hi))) => (a_hi + 1 == b_lo || b_hi + 1 == a_lo)
                    .then(|| Some((a_lo.min(b_lo), a_hi.max(b_hi)))),
            };
            if let (Some(product), Some(to)) = (product, to) {
                return Falling::scaled(product, to);
            }
        }
        Falling::Big(self.to_big() * other.to_big())
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        match self {
            Falling::Scaled { num, .. } => *num == I256::ZERO,
            Falling::Big(big) => big.is_zero(),
        }
    }
}

/// A 256-bit integer as a `BigInt`.
#[cfg(test)]
fn i256_to_big(value: I256) -> BigInt {
    let (hi, lo) = value.into_words();
    (BigInt::from(hi) << 128) + BigInt::from(lo as u128)
}

/// `magnitude / (product of factors)`, negated if `negative`, in lowest
/// terms: each factor in turn is divided, with the numerator, by their
/// greatest common divisor. The numerator is then prime to what is left of
/// every factor (each step leaves it prime to its own, and later steps only
/// divide it), so the fraction is the one `BigRational::new` gives.
fn reduced(mut magnitude: U256, negative: bool, factors: impl Iterator<Item = u64>) -> BigRational {
    let mut den = BigInt::one();
    for factor in factors {
        let common = num_integer::gcd(remainder(magnitude, factor), factor);
        if common > 1 {
            magnitude = quotient(magnitude, common);
        }
        den *= BigInt::from(factor / common);
    }
    let magnitude = u256_to_big(magnitude);
    BigRational::new_raw(if negative { -magnitude } else { magnitude }, den)
}

/// A denominator's factors, one by one (none for the empty product).
fn each_factor(factors: Factors) -> impl Iterator<Item = u64> {
    factors
        .into_iter()
        .flat_map(|(lo, hi)| lo..=hi)
        .map(u64::from)
}

/// The product of a denominator's factors, if it fits.
fn product_outside_of(factors: Factors) -> Option<I256> {
    match factors {
        None => Some(I256::ONE),
        Some((lo, hi)) => product_outside(lo, hi, None),
    }
}

/// An unsigned 256-bit integer as a `BigInt`.
fn u256_to_big(value: U256) -> BigInt {
    let (hi, lo) = value.into_words();
    (BigInt::from(hi) << 128) + BigInt::from(lo)
}

/// The four 64-bit words of `value`, most significant first.
fn words(value: U256) -> [u64; 4] {
    let (hi, lo) = value.into_words();
    [(hi >> 64) as u64, hi as u64, (lo >> 64) as u64, lo as u64]
}

/// `value mod divisor` (`divisor` not zero), word by word.
fn remainder(value: U256, divisor: u64) -> u64 {
    let divisor = u128::from(divisor);
    let mut rest = 0u128;
    for word in words(value) {
        rest = ((rest << 64) | u128::from(word)) % divisor;
    }
    rest as u64
}

/// `value / divisor` (`divisor` not zero), word by word.
fn quotient(value: U256, divisor: u64) -> U256 {
    let divisor = u128::from(divisor);
    let mut rest = 0u128;
    let mut out = [0u64; 4];
    for (word, out) in words(value).into_iter().zip(&mut out) {
        let current = (rest << 64) | u128::from(word);
        *out = (current / divisor) as u64;
        rest = current % divisor;
    }
    from_words(out)
}

/// The 256-bit integer of four 64-bit words, most significant first.
fn from_words(words: [u64; 4]) -> U256 {
    U256::from_words(
        (u128::from(words[0]) << 64) | u128::from(words[1]),
        (u128::from(words[2]) << 64) | u128::from(words[3]),
    )
}

impl PartialEq for Falling {
    fn eq(&self, other: &Falling) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Falling {
    /// Denominators are positive: over a common one, the numerators order
    /// the values.
    fn partial_cmp(&self, other: &Falling) -> Option<Ordering> {
        match self.common(other) {
            Some((a, b, _)) => a.partial_cmp(&b),
            None => self.to_big().partial_cmp(&other.to_big()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(num: i64, den: i64) -> BigRational {
        BigRational::new(num.into(), den.into())
    }

    #[test]
    fn a_chance_times_a_value_over_the_next_shoe_stays_in_shape() {
        // 4/52 times 7/(51 50): 28/(52 51 50).
        let chance = Falling::ratio(4, 52);
        let child = Falling::Scaled {
            num: I256::from(7),
            hi: 51,
            len: 2,
        };
        let product = chance.mul(&child);
        assert!(matches!(product, Falling::Scaled { hi: 52, len: 3, .. }));
        assert_eq!(product.to_big(), big(28, 52 * 51 * 50));
        // Two chances from the same shoe leave the shape, exactly.
        let square = chance.mul(&chance);
        assert!(matches!(square, Falling::Big(_)));
        assert_eq!(square.to_big(), big(16, 52 * 52));
    }

    /// Values of every kind: whole, chances, dealer weights, zero, a
    /// fraction outside the shape.
    fn sample_values() -> [Falling; 8] {
        [
            Falling::ratio(-1, 1),
            Falling::ratio(3, 7),
            Falling::ratio(-1, 2),
            Falling::ratio(47, 52),
            Falling::from_weight(5, 10, 3),
            Falling::from_weight(11, 9, 2),
            Falling::from_weight(0, 12, 4),
            Falling::Big(big(5, 13)),
        ]
    }

    #[test]
    fn sums_and_comparisons_agree_with_fractions() {
        let values = sample_values();
        for a in &values {
            for b in &values {
                assert_eq!(a.add(b).to_big(), a.to_big() + b.to_big());
                assert_eq!(a.sub(b).to_big(), a.to_big() - b.to_big());
                assert_eq!(a.mul(b).to_big(), a.to_big() * b.to_big());
                assert_eq!(a.partial_cmp(b), a.to_big().partial_cmp(&b.to_big()));
            }
        }
    }

    proptest::proptest! {
        /// The factor-by-factor reduction gives `BigRational::new`'s
        /// fraction, for numerators of any size and sign up to 256 bits.
        #[test]
        fn to_big_is_the_reduced_fraction(
            words in proptest::array::uniform4(proptest::prelude::any::<u64>()),
            bits in 0u32..=255,
            negative in proptest::prelude::any::<bool>(),
            hi in 1u32..=500,
            len in 0u32..=20,
        ) {
            let len = len.min(hi);
            let wide = from_words(words) >> (255 - bits);
            let num = I256::from_words(wide.into_words().0 as i128, wide.into_words().1 as i128);
            let num = if negative { -num } else { num };
            let value = Falling::Scaled { num, hi: if len == 0 { 0 } else { hi }, len };
            let mut den = BigInt::one();
            for factor in (hi + 1 - len)..=hi {
                if len > 0 {
                    den *= BigInt::from(factor);
                }
            }
            let expected = BigRational::new(i256_to_big(num), den);
            let reduced = value.to_big();
            proptest::prop_assert_eq!(reduced.numer(), expected.numer());
            proptest::prop_assert_eq!(reduced.denom(), expected.denom());
        }

        /// The word-by-word product is the 256-bit one, overflow and all.
        #[test]
        fn checked_product_is_checked_mul(
            words in proptest::array::uniform4(proptest::prelude::any::<u64>()),
            bits in 0u32..=255,
            negative in proptest::prelude::any::<bool>(),
            small in proptest::prelude::any::<i64>(),
            swap in proptest::prelude::any::<bool>(),
        ) {
            let wide = (from_words(words) >> (255 - bits)).as_i256();
            let wide = if negative { wide.wrapping_neg() } else { wide };
            let small = I256::from(small);
            let (a, b) = if swap { (small, wide) } else { (wide, small) };
            proptest::prop_assert_eq!(checked_product(a, b), a.checked_mul(b));
        }
    }

    #[test]
    fn checked_product_at_the_edges() {
        for (a, b) in [
            (I256::MIN, I256::ONE),
            (I256::MIN, I256::from(-1)),
            (I256::MAX, I256::from(-1)),
            (I256::MAX, I256::from(2)),
            (I256::MIN / 2, I256::from(2)),
            (I256::MIN / 2, I256::from(-2)),
            (I256::ZERO, I256::from(i64::MIN)),
            (I256::from(i64::MIN), I256::from(i64::MIN)),
        ] {
            assert_eq!(checked_product(a, b), a.checked_mul(b), "{a} x {b}");
        }
    }

    #[test]
    fn quotients_are_the_reduced_fractions() {
        let values = sample_values();
        for a in &values {
            for b in values.iter().filter(|b| !b.is_zero()) {
                let quotient = a.div(b).to_big();
                let expected = a.to_big() / b.to_big();
                assert_eq!(quotient.numer(), expected.numer(), "{a:?} / {b:?}");
                assert_eq!(quotient.denom(), expected.denom(), "{a:?} / {b:?}");
            }
        }
    }

    #[test]
    fn small_values_reduce_as_fractions_do() {
        for (num, hi, len) in [
            (0, 52, 3),
            (6, 4, 3),
            (-24, 4, 4),
            (7, 9, 2),
            (-1, 0, 0),
            (132600, 52, 3),
        ] {
            let value = Falling::Scaled {
                num: I256::from(num),
                hi,
                len,
            };
            let den: i64 = (0..len).map(|i| i64::from(hi - i)).product();
            assert_eq!(value.to_big(), big(num, den), "{num} / F({hi}, {len})");
            assert_eq!(value.to_big().denom(), big(num, den).denom());
        }
    }

    #[test]
    fn a_numerator_past_256_bits_is_a_fraction_not_a_wrap() {
        let huge = Falling::Scaled {
            num: I256::MAX,
            hi: 0,
            len: 0,
        };
        let sum = huge.add(&huge);
        assert!(matches!(sum, Falling::Big(_)));
        assert_eq!(
            sum.to_big(),
            huge.to_big() * BigRational::from_integer(2.into())
        );
        let product = huge.mul(&Falling::ratio(3, 1));
        assert_eq!(
            product.to_big(),
            huge.to_big() * BigRational::from_integer(3.into())
        );
        assert_eq!(i256_to_big(I256::MIN), -(BigInt::from(1) << 255usize));
    }
}
