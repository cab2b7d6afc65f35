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

use ethnum::I256;
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
        product = product.checked_mul(I256::from(factor))?;
    }
    Some(product)
}

/// `num` over `from`'s factors, brought over `to`'s (a range holding
/// `from`'s).
fn lift(num: I256, from: Factors, to: Factors) -> Option<I256> {
    match to {
        None => Some(num),
        Some(_) if num == I256::ZERO => Some(num),
        Some((lo, hi)) => num.checked_mul(product_outside(lo, hi, from)?),
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

    /// The exact value as a reduced fraction.
    pub fn to_big(&self) -> BigRational {
        match self {
            Falling::Big(big) => big.clone(),
            Falling::Scaled { num, hi, len } => {
                let mut den = BigInt::one();
                if let Some((lo, hi)) = factors(*hi, *len) {
                    for factor in lo..=hi {
                        den *= BigInt::from(factor);
                    }
                }
                BigRational::new(i256_to_big(*num), den)
            }
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
            let product = a.checked_mul(b);
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
fn i256_to_big(value: I256) -> BigInt {
    let (hi, lo) = value.into_words();
    (BigInt::from(hi) << 128) + BigInt::from(lo as u128)
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

    #[test]
    fn sums_and_comparisons_agree_with_fractions() {
        let values = [
            Falling::ratio(-1, 1),
            Falling::ratio(3, 7),
            Falling::ratio(-1, 2),
            Falling::from_weight(5, 10, 3),
            Falling::from_weight(11, 9, 2),
            Falling::from_weight(0, 12, 4),
            Falling::Big(big(5, 13)),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(a.add(b).to_big(), a.to_big() + b.to_big());
                assert_eq!(a.sub(b).to_big(), a.to_big() - b.to_big());
                assert_eq!(a.mul(b).to_big(), a.to_big() * b.to_big());
                assert_eq!(a.partial_cmp(b), a.to_big().partial_cmp(&b.to_big()));
            }
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
