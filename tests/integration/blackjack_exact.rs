//! The exact dealer table: the quiz's published figures, exact invariants,
//! and an independent brute-force enumeration through the play function.

use deckodds::cards::Card;
use deckodds::games::blackjack::dealer::{OutcomeRow, dealer_table};
use deckodds::games::blackjack::{
    DealerParams, DealerRules, Decks, N_OUTCOMES, N_VALUES, PER_DECK, Scoring, Soft17, UPCARDS,
    play,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

fn ratio(numerator: i64, denominator: i64) -> BigRational {
    BigRational::new(numerator.into(), denominator.into())
}

/// A decimal as written ("35.33") as an exact fraction.
fn decimal(text: &str) -> BigRational {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits: BigInt = format!("{whole}{fraction}").parse().unwrap();
    BigRational::new(digits, BigInt::from(10).pow(fraction.len() as u32))
}

fn params(decks: Decks, soft17: Soft17) -> DealerParams {
    DealerParams {
        decks,
        soft17,
        ..DealerParams::default()
    }
}

#[test]
fn every_cell_of_the_quiz_table_is_the_exact_value_rounded() {
    let published = include_str!("../../analysis/published/quiz151-exact.csv");
    let rows = dealer_table(&DealerParams::default()).unwrap();
    let half_unit = ratio(1, 200); // half of the last printed digit, 0.005
    let mut checked = 0;
    for (line, row) in published.lines().skip(1).zip(&rows) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 1 + N_OUTCOMES, "{line}");
        for (text, probability) in cells[1..].iter().zip(row) {
            let percent = probability * BigRational::from_integer(100.into());
            let gap = (&percent - decimal(text)).abs();
            assert!(
                gap <= half_unit,
                "upcard {}: published {text}, exact {percent}",
                cells[0]
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 70);
}

#[test]
fn every_row_sums_to_exactly_one() {
    for decks in [
        Decks::Finite(1),
        Decks::Finite(2),
        Decks::Finite(6),
        Decks::Infinite,
    ] {
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            for peek in [false, true] {
                let params = DealerParams {
                    peek,
                    ..params(decks, soft17)
                };
                for row in dealer_table(&params).unwrap() {
                    assert_eq!(row.iter().sum::<BigRational>(), BigRational::one());
                }
            }
        }
    }
}

/// Removing one card that nobody sees, and averaging over what it could have
/// been, must leave every probability exactly as it was (the dealer's cards
/// are exchangeable with the unseen one).
#[test]
fn removing_an_unseen_card_changes_nothing_on_average() {
    let cases = [
        params(Decks::Finite(1), Soft17::Stand),
        params(Decks::Finite(1), Soft17::Hit),
        params(Decks::Finite(2), Soft17::Stand),
        DealerParams {
            removed: vec![10, 10, 6],
            ..params(Decks::Finite(1), Soft17::Hit)
        },
    ];
    for base in cases {
        let base_rows = dealer_table(&base).unwrap();
        let shoe = base.shoe().unwrap();
        let removed_rows: Vec<Vec<OutcomeRow>> = (1..=N_VALUES as u8)
            .map(|value| {
                let mut with_removal = base.clone();
                with_removal.removed.push(value);
                dealer_table(&with_removal).unwrap()
            })
            .collect();
        for (row, &upcard) in UPCARDS.iter().enumerate() {
            // The unseen card comes from the shoe after the upcard.
            let weight = |value: u8| i64::from(shoe.count(value)) - i64::from(value == upcard);
            let cards_left: i64 = (1..=N_VALUES as u8).map(weight).sum();
            for outcome in 0..N_OUTCOMES {
                let average: BigRational = (1..=N_VALUES as u8)
                    .map(|value| {
                        &removed_rows[usize::from(value - 1)][row][outcome]
                            * ratio(weight(value), cards_left)
                    })
                    .sum();
                assert_eq!(average, base_rows[row][outcome], "{base:?} upcard {upcard}");
            }
        }
    }
}

#[test]
fn large_shoes_approach_the_infinite_deck() {
    for soft17 in [Soft17::Stand, Soft17::Hit] {
        let infinite = dealer_table(&params(Decks::Infinite, soft17)).unwrap();
        let distance = |decks: u32| -> BigRational {
            let rows = dealer_table(&params(Decks::Finite(decks), soft17)).unwrap();
            rows.iter()
                .zip(&infinite)
                .flat_map(|(row, limit)| row.iter().zip(limit).map(|(p, q)| (p - q).abs()))
                .max()
                .unwrap()
        };
        let distances: Vec<BigRational> = [1, 2, 4, 8, 16, 32, 64].map(distance).to_vec();
        for pair in distances.windows(2) {
            assert!(pair[1] < pair[0], "{soft17:?}: not shrinking: {pair:?}");
        }
        // The gap shrinks like 1/decks: 64 decks are within 0.05 points.
        assert!(
            distances[6] < ratio(1, 2000),
            "{soft17:?}: {}",
            distances[6]
        );
    }
}

#[test]
fn natural_with_an_ace_up_is_tens_over_cards_left() {
    let cases: [(u32, &[u8]); 4] = [(1, &[]), (2, &[]), (6, &[10, 10, 1, 5]), (8, &[10; 7])];
    for (decks, removed) in cases {
        let params = DealerParams {
            decks: Decks::Finite(decks),
            removed: removed.to_vec(),
            ..DealerParams::default()
        };
        let ace_row = &dealer_table(&params).unwrap()[9];
        let removed_tens = removed.iter().filter(|&&v| v == 10).count() as i64;
        let tens = 16 * i64::from(decks) - removed_tens;
        let cards_left = 52 * i64::from(decks) - removed.len() as i64 - 1;
        assert_eq!(ace_row[6], ratio(tens, cards_left), "{params:?}");
    }
}

/// Every ordered deal from a one-deck shoe, played card by card through the
/// game's `play` function, with exact path probabilities: an enumeration
/// that shares nothing with the memoised engine but the rules.
fn brute_force_rows(rules: DealerRules) -> Vec<OutcomeRow> {
    fn walk(
        rules: DealerRules,
        dealt: &mut Vec<Card>,
        counts: &mut [u32; N_VALUES],
        probability: BigRational,
        row: &mut OutcomeRow,
    ) {
        if let Some((outcome, used)) = play(rules, dealt) {
            assert_eq!(used, dealt.len(), "the hand ended before its last card");
            row[outcome.index()] += probability;
            return;
        }
        let cards_left: u32 = counts.iter().sum();
        for value in 1..=N_VALUES as u8 {
            let available = counts[usize::from(value - 1)];
            if available == 0 {
                continue;
            }
            counts[usize::from(value - 1)] -= 1;
            dealt.push(Card::new(value, 0));
            let next = &probability * ratio(i64::from(available), i64::from(cards_left));
            walk(rules, dealt, counts, next, row);
            dealt.pop();
            counts[usize::from(value - 1)] += 1;
        }
    }
    UPCARDS
        .iter()
        .map(|&upcard| {
            let mut counts = PER_DECK;
            counts[usize::from(upcard - 1)] -= 1;
            let mut row: OutcomeRow = std::array::from_fn(|_| BigRational::zero());
            let mut dealt = vec![Card::new(upcard, 0)];
            walk(rules, &mut dealt, &mut counts, BigRational::one(), &mut row);
            row
        })
        .collect()
}

#[test]
fn memoised_engine_equals_brute_force_enumeration_on_one_deck() {
    for soft17 in [Soft17::Stand, Soft17::Hit] {
        for scoring in [Scoring::Correct, Scoring::SortedFold] {
            let params = DealerParams {
                scoring,
                ..params(Decks::Finite(1), soft17)
            };
            let memoised = dealer_table(&params).unwrap();
            assert_eq!(memoised, brute_force_rows(params.rules()), "{params:?}");
        }
    }
}
