//! Roll-Call's first pass, exactly, by rook polynomials.
//!
//! # What is counted
//!
//! In Roll-Call (RULES.md section 2) the count starts at 1 and advances
//! after every card whether or not it matched, so the first pass compares
//! the card at position `i` (0-based) with the count `(i mod R) + 1`: which
//! cards match depends only on where the ranks lie, not on what happened
//! before. [`first_pass_matches`] gives, for every `j`, the number of
//! distinct arrangements of the deck (`R` ranks, `S` identical copies of
//! each) with exactly `j` matches in the first pass. `j = 0` for the
//! standard deck is Frustration solitaire (Doyle, Grinstead and Snell,
//! "Frustration solitaire", arXiv:math/0703900).
//!
//! The first-pass rule is the one statement of a game rule in this module:
//! the count at position `i` is `(i mod R) + 1`. The tests check the result
//! against the game's own play function (`RollCall::play`, field
//! `first_pass_matches`) and against brute force, so the two cannot drift
//! apart unnoticed.
//!
//! # Method
//!
//! Label the cards, so that the deck has `n!` equally likely permutations,
//! each distinct arrangement of the (unlabelled) deck arising from exactly
//! `(S!)^R` of them. Draw the `n x n` board of (position, card) pairs; the
//! forbidden squares, where a card would match, are the pairs (position
//! whose count is `r`, card of rank `r`). There are `S` positions with
//! count `r` and `S` cards of rank `r`, so the forbidden board is `R`
//! disjoint full `S x S` blocks, no two sharing a row or a column.
//!
//! - The rook numbers of one full `S x S` block (ways to put `k`
//!   non-attacking rooks on it) are `r_k = C(S, k)^2 k!`: choose the rows,
//!   the columns, and a matching between them.
//! - Blocks sharing no row or column multiply: the board's rook polynomial
//!   is the block polynomial to the `R`-th power, `sum_k R_k x^k`.
//! - `R_k (n - k)!` counts the (permutation, set of `k` of its matches)
//!   pairs, so `sum_k R_k (n - k)! x^k` is `sum_j N_j (1 + x)^j`, where
//!   `N_j` is the number of permutations with exactly `j` matches.
//!   Inverting (inclusion-exclusion):
//!   `N_j = sum_{k >= j} (-1)^(k - j) C(k, j) R_k (n - k)!`.
//! - A match depends only on the rank at each position, so the `(S!)^R`
//!   relabellings of one arrangement have the same matches: `N_j` is
//!   divisible by `(S!)^R`, and `N_j / (S!)^R` counts distinct
//!   arrangements. The division is checked to be exact.
//!
//! # Complexity
//!
//! `O(n^2)` big-integer operations on numbers of at most a few hundred
//! bits (`n <= 64`): well under a millisecond for the standard deck.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use crate::engine::ArrangementCounts;
use crate::error::Result;
use crate::games::roll_call::{RollCall, RollCallParams};

/// For each `j` in `0..=n` (`n = ranks * copies`), the number of distinct
/// arrangements of the Roll-Call deck (each rank 1..=`ranks` present
/// `copies` times, copies identical) whose first pass has exactly `j`
/// matches: the card at position `i` (0-based) matches when its rank is
/// `(i mod ranks) + 1`.
///
/// Method: rook polynomials and inclusion-exclusion over labelled cards,
/// then exact division by `(copies!)^ranks` (module documentation). No
/// enumeration, so any allowed deck is instant.
///
/// Guarantees: exact integers; `counts.len() == n + 1`; `total` is the
/// number of distinct arrangements, `n! / (copies!)^ranks`, and the counts
/// sum to exactly `total`; `counts[n] == 1` (only the deck laid out in
/// count order, 1, 2, ..., R, 1, 2, ..., matches everywhere).
///
/// Errors, exactly as [`RollCall::new`] (whose check this is): `ranks`
/// outside 2..=13 (naming `ranks`), `copies == 0` (`copies`), or more
/// than 64 cards (`ranks x copies`).
pub fn first_pass_matches(ranks: u8, copies: u8) -> Result<ArrangementCounts> {
    // One check of the deck shape for the game and its exact engines, so
    // the errors (and what is allowed) are the same everywhere.
    RollCall::new(RollCallParams {
        ranks,
        copies,
        ..RollCallParams::default()
    })?;
    let r = usize::from(ranks);
    let s = usize::from(copies);
    let n = r * s;

    let binomials = pascal(n);
    let factorials: Vec<BigUint> = std::iter::once(BigUint::one())
        .chain((1..=n).scan(BigUint::one(), |f, i| {
            *f *= i;
            Some(f.clone())
        }))
        .collect();

    // Rook numbers of one full S x S block, then of the R disjoint blocks.
    let block: Vec<BigUint> = (0..=s)
        .map(|k| &binomials[s][k] * &binomials[s][k] * &factorials[k])
        .collect();
    let mut board = vec![BigUint::one()];
    for _ in 0..r {
        board = multiply(&board, &block);
    }
    debug_assert_eq!(board.len(), n + 1);

    // Each distinct arrangement is (S!)^R labelled permutations.
    let relabellings = num_traits::pow(factorials[s].clone(), r);
    let exact_quotient = |labelled: &BigUint| -> BigUint {
        let (quotient, remainder) = (labelled / &relabellings, labelled % &relabellings);
        assert!(
            remainder.is_zero(),
            "relabellings of one arrangement have the same matches, so the division is exact"
        );
        quotient
    };

    let counts: Vec<BigUint> = (0..=n)
        .map(|j| {
            // The alternating sum is signed; only its total is a count.
            let mut labelled = BigInt::zero();
            for k in j..=n {
                let term = BigInt::from(&binomials[k][j] * &board[k] * &factorials[n - k]);
                if (k - j) % 2 == 0 {
                    labelled += term;
                } else {
                    labelled -= term;
                }
            }
            let labelled = labelled
                .to_biguint()
                .expect("inclusion-exclusion gives a count, never a negative number");
            exact_quotient(&labelled)
        })
        .collect();
    let total = exact_quotient(&factorials[n]);
    debug_assert_eq!(counts.iter().sum::<BigUint>(), total);
    Ok(ArrangementCounts { counts, total })
}

/// Binomial coefficients `C(m, k)` for `0 <= k <= m <= n`, as rows of
/// Pascal's triangle (row `m` has `m + 1` entries). Exact: only additions.
fn pascal(n: usize) -> Vec<Vec<BigUint>> {
    let mut rows: Vec<Vec<BigUint>> = Vec::with_capacity(n + 1);
    for m in 0..=n {
        let row = (0..=m)
            .map(|k| {
                if k == 0 || k == m {
                    BigUint::one()
                } else {
                    &rows[m - 1][k - 1] + &rows[m - 1][k]
                }
            })
            .collect();
        rows.push(row);
    }
    rows
}

/// The product of two polynomials given by their coefficients, lowest
/// degree first. Both must be non-empty.
fn multiply(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    let mut product = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            product[i + j] += x * y;
        }
    }
    product
}

#[cfg(test)]
mod tests {
    use num_rational::BigRational;

    use super::*;
    use crate::cards::Card;
    use crate::engine::NoProgress;
    use crate::engine::Shard;
    use crate::engine::arrangements::{count_arrangements, n_arrangements};
    use crate::error::Error;
    use crate::games::roll_call::{Count, PassOrder};

    /// The deck as identical cards, `copies` of each rank: its distinct
    /// arrangements are the multiset arrangements counted above.
    fn deck(ranks: u8, copies: u8) -> Vec<Card> {
        (1..=ranks)
            .flat_map(|rank| std::iter::repeat_n(Card::new(rank, 0), usize::from(copies)))
            .collect()
    }

    /// Every deck of at most 10 cards.
    fn small_shapes() -> Vec<(u8, u8)> {
        let mut shapes = Vec::new();
        for ranks in 2..=10u8 {
            for copies in 1..=10 / ranks {
                shapes.push((ranks, copies));
            }
        }
        shapes
    }

    /// Every allowed deck shape with at most four copies.
    fn shapes_up_to_four_copies() -> impl Iterator<Item = (u8, u8)> {
        (2..=13u8).flat_map(|ranks| {
            (1..=4u8)
                .filter(move |&copies| usize::from(ranks) * usize::from(copies) <= 64)
                .map(move |copies| (ranks, copies))
        })
    }

    #[test]
    fn first_pass_matches_brute_force_on_every_deck_up_to_ten_cards() {
        let shapes = small_shapes();
        assert!(shapes.contains(&(2, 5)) && shapes.contains(&(3, 3)) && shapes.contains(&(10, 1)));
        for (ranks, copies) in shapes {
            let deck = deck(ranks, copies);
            let n = deck.len();
            // The first-pass rule stated directly: position i meets count
            // (i mod R) + 1.
            let matches = |order: &[Card]| {
                order
                    .iter()
                    .enumerate()
                    .filter(|&(i, card)| card.rank() == (i % usize::from(ranks)) as u8 + 1)
                    .count()
            };
            let brute =
                count_arrangements(&deck, n + 1, matches, Shard::WHOLE, &NoProgress).unwrap();
            let exact = first_pass_matches(ranks, copies).unwrap();
            assert_eq!(exact, brute, "{ranks} x {copies}");
            assert_eq!(exact.total, n_arrangements(&deck), "{ranks} x {copies}");
        }
    }

    #[test]
    fn first_pass_matches_the_games_play_function_in_every_version() {
        for (ranks, copies) in [(2, 4), (3, 3), (4, 2), (5, 2), (2, 5), (7, 1)] {
            let exact = first_pass_matches(ranks, copies).unwrap();
            let deck = deck(ranks, copies);
            let n = deck.len();
            // The first pass is the same in every version (the variants
            // only change later passes); check that too.
            for count in [Count::Continuous, Count::Restart] {
                for order in [PassOrder::Same, PassOrder::Reversed] {
                    let game = RollCall::new(RollCallParams {
                        ranks,
                        copies,
                        count,
                        order,
                    })
                    .unwrap();
                    let play = |order: &[Card]| {
                        let mut deal = [0u8; 64];
                        for (slot, card) in deal.iter_mut().zip(order) {
                            *slot = card.rank();
                        }
                        usize::from(game.play(&deal[..order.len()]).first_pass_matches)
                    };
                    let played =
                        count_arrangements(&deck, n + 1, play, Shard::WHOLE, &NoProgress).unwrap();
                    assert_eq!(exact, played, "{ranks} x {copies}, {count:?}, {order:?}");
                }
            }
        }
    }

    /// Frustration solitaire: the standard deck's first pass has no match
    /// with probability 0.016232727467194636748..., which reduces to the
    /// fraction below. Published by two routes independent of this code:
    /// Doyle, Grinstead and Snell (arXiv:math/0703900) give the decimal;
    /// the reduced fraction and its unreduced form over 52! (numerator
    /// 1309302175551177162931045000259922525308763433362019257020678406144)
    /// are in jaycoskey/Games_FrustrationSolitaire (frustration.pl and
    /// frustration.hs), computed separately by rook polynomials in Perl and
    /// Haskell.
    #[test]
    fn standard_deck_no_match_is_frustration_solitaire() {
        let counts = first_pass_matches(13, 4).unwrap();
        let p = BigRational::new(
            BigInt::from(counts.counts[0].clone()),
            BigInt::from(counts.total.clone()),
        );
        let published = BigRational::new(
            "4610507544750288132457667562311567997623087869"
                .parse()
                .unwrap(),
            "284025438982318025793544200005777916187500000000"
                .parse()
                .unwrap(),
        );
        assert_eq!(p, published);
        // The first 20 decimals, 0.01623272746719463674, by truncation.
        let scaled = (p * BigRational::from_integer(BigInt::from(10u32).pow(20))).floor();
        assert_eq!(
            scaled.to_integer(),
            BigInt::from(1_623_272_746_719_463_674u64)
        );
        // The labelled count over 52!, as published unreduced.
        let labelled = &counts.counts[0] * num_traits::pow(BigUint::from(24u32), 13);
        assert_eq!(
            labelled.to_string(),
            "1309302175551177162931045000259922525308763433362019257020678406144"
        );
    }

    /// Labelled no-match counts for square decks from the same Perl tests
    /// (4 x 4 is too big to brute-force here: 63 million arrangements).
    #[test]
    fn square_decks_no_match_labelled_counts() {
        for (shape, expected) in [(2u8, 4u64), (3, 12_096), (4, 248_341_303_296)] {
            let counts = first_pass_matches(shape, shape).unwrap();
            let relabellings = num_traits::pow(
                (1..=u64::from(shape))
                    .map(BigUint::from)
                    .product::<BigUint>(),
                usize::from(shape),
            );
            assert_eq!(
                &counts.counts[0] * relabellings,
                BigUint::from(expected),
                "{shape} x {shape}"
            );
        }
    }

    #[test]
    fn counts_sum_to_total_for_every_shape() {
        for (ranks, copies) in shapes_up_to_four_copies() {
            let counts = first_pass_matches(ranks, copies).unwrap();
            let n = usize::from(ranks) * usize::from(copies);
            assert_eq!(counts.counts.len(), n + 1, "{ranks} x {copies}");
            assert_eq!(
                counts.counts.iter().sum::<BigUint>(),
                counts.total,
                "{ranks} x {copies}"
            );
            assert_eq!(
                counts.total,
                n_arrangements(&deck(ranks, copies)),
                "{ranks} x {copies}"
            );
        }
        // Many copies, up to the largest decks allowed (64 cards).
        for (ranks, copies) in [(2, 32), (4, 16), (8, 8), (3, 21), (7, 9), (12, 5)] {
            let counts = first_pass_matches(ranks, copies).unwrap();
            let n = usize::from(ranks) * usize::from(copies);
            assert_eq!(counts.counts.len(), n + 1, "{ranks} x {copies}");
            assert_eq!(
                counts.counts.iter().sum::<BigUint>(),
                counts.total,
                "{ranks} x {copies}"
            );
            assert!(counts.counts[n].is_one(), "{ranks} x {copies}");
        }
    }

    #[test]
    fn exactly_one_arrangement_matches_everywhere() {
        for (ranks, copies) in shapes_up_to_four_copies() {
            let counts = first_pass_matches(ranks, copies).unwrap();
            let n = usize::from(ranks) * usize::from(copies);
            // Only 1, 2, ..., R, 1, 2, ... matches at every position; and
            // n - 1 matches are impossible: the one card left over must be
            // the one rank missing, which matches too.
            assert!(counts.counts[n].is_one(), "{ranks} x {copies}");
            assert!(counts.counts[n - 1].is_zero(), "{ranks} x {copies}");
        }
    }

    #[test]
    fn bad_shapes_are_errors() {
        for (ranks, copies, option) in [
            (0, 4, "ranks"),
            (1, 4, "ranks"),
            (14, 4, "ranks"),
            (13, 0, "copies"),
            (13, 5, "ranks x copies"),
            (2, 33, "ranks x copies"),
            (5, 255, "ranks x copies"),
        ] {
            match first_pass_matches(ranks, copies) {
                Err(Error::InvalidValue {
                    parameter: named, ..
                }) => {
                    assert_eq!(named, option, "{ranks} x {copies}")
                }
                other => panic!("{ranks} x {copies}: expected an error, got {other:?}"),
            }
        }
    }
}
