//! RULES.md section 6, "When two rules meet": each row of the table pinned
//! by one hand whose value is computed here by hand, from the row's words
//! and the cards left, with no code of the solver's. The solver's exact
//! value must equal it as a fraction.
//!
//! The small shoes are chosen so that the dealer's play is short: in the
//! *tens-and-aces shoe* (one deck holding only its ten-valued cards and
//! aces) a dealer with a ten up ends on a natural or 20 at once.

use deckodds::engine::NoProgress;
use deckodds::games::blackjack::Decks;
use deckodds::games::blackjack::player::solve::{HandRow, PlayerTable};
use deckodds::games::blackjack::player::{
    BlackjackPays, HoleCard, PlayerParams, PlayerRules, SplitModel, Surrender, solve_exact,
};
use num_bigint::BigInt;
use num_rational::BigRational;

fn ratio(numerator: i64, denominator: i64) -> BigRational {
    BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
}

fn solve(rules: PlayerRules, removed: Vec<u8>) -> PlayerTable<BigRational> {
    let params = PlayerParams {
        rules,
        split_model: SplitModel::Cdz,
        removed,
    };
    solve_exact(&params, &NoProgress).unwrap()
}

fn row(table: &PlayerTable<BigRational>, hand: [u8; 2], upcard: u8) -> &HandRow<BigRational> {
    table
        .hand(hand[0], hand[1], upcard)
        .unwrap_or_else(|| panic!("{hand:?} against {upcard} is dealt"))
}

fn eight_decks(hole_card: HoleCard, surrender: Surrender) -> PlayerRules {
    PlayerRules {
        decks: Decks::Finite(8),
        hole_card,
        surrender,
        ..PlayerRules::default()
    }
}

/// One deck less every card but its tens and aces, and `keep` (values of
/// 2 to 9 to leave in, once each).
fn tens_and_aces_removed(keep: &[u8]) -> Vec<u8> {
    let mut removed = Vec::new();
    for value in 2..=9u8 {
        let kept = keep.iter().filter(|&&k| k == value).count();
        removed.extend(std::iter::repeat_n(value, 4 - kept));
    }
    removed
}

fn one_deck(rules: PlayerRules) -> PlayerRules {
    PlayerRules {
        decks: Decks::Finite(1),
        ..rules
    }
}

/// Late surrender, 8 decks, 10-6 against a 10: under peek the natural is
/// found first (the value given no natural is -1/2); under ENHC the
/// dealer's next card is an ace with chance 32/413 (416 cards less the
/// three seen), and then the whole unit is lost: -1/2 - (32/413)/2.
/// Insurance with an ace up, either hole card: 127 of the 413 cards left
/// are ten-valued (the player holds one), 3 x 127/413 - 1. A player
/// natural against a 10: 31 aces of 413 make the dealer's natural, which
/// pushes; otherwise 3:2.
#[test]
fn surrender_insurance_and_naturals_under_each_hole_card() {
    let enhc = solve(eight_decks(HoleCard::Enhc, Surrender::Late), Vec::new());
    let peek = solve(eight_decks(HoleCard::Peek, Surrender::Late), Vec::new());

    let p_ace = ratio(32, 413);
    let half = ratio(1, 2);
    let enhc_late = -half.clone() - p_ace / BigInt::from(2);
    assert_eq!(enhc_late, ratio(-445, 826));
    assert_eq!(row(&enhc, [10, 6], 10).values.surrender, Some(enhc_late));
    assert_eq!(row(&peek, [10, 6], 10).values.surrender, Some(-half));

    let insurance = ratio(3, 1) * ratio(127, 413) - ratio(1, 1);
    for table in [&enhc, &peek] {
        assert_eq!(row(table, [10, 6], 1).insurance, Some(insurance.clone()));
    }

    let no_natural = ratio(1, 1) - ratio(31, 413);
    let three_to_two = ratio(3, 2);
    assert_eq!(
        row(&enhc, [1, 10], 10).values.stand,
        three_to_two.clone() * no_natural
    );
    assert_eq!(row(&peek, [1, 10], 10).values.stand, three_to_two);
}

/// Early surrender, 10-6 against an ace: half the bet before any natural
/// is known, under either hole card, whatever the shoe holds (here the
/// tens-and-aces shoe with one 6, whose dealer has a natural more often
/// than not).
#[test]
fn early_surrender_is_half_the_bet_under_either_hole_card() {
    for hole_card in [HoleCard::Peek, HoleCard::Enhc] {
        let rules = PlayerRules {
            hole_card,
            surrender: Surrender::Early,
            ..PlayerRules::default()
        };
        let table = solve(one_deck(rules), tens_and_aces_removed(&[6]));
        assert_eq!(
            row(&table, [10, 6], 1).values.surrender,
            Some(ratio(-1, 2)),
            "{hole_card:?}"
        );
    }
}

/// 5-6 against a 10, doubled, in the tens-and-aces shoe with one 5 and one
/// 6: 15 tens and 4 aces are left.
/// - Peek: the hole card is a ten (no natural), then the player's card
///   comes from 14 tens and 4 aces: a ten makes 21 against 20 (+2), an ace
///   12 (-2): (14 x 2 - 4 x 2)/18 = 10/9.
/// - ENHC: the player's card first, then the dealer's: a ten (15/19) wins
///   2 unless the dealer's card is one of the 4 aces of 18 (a natural takes
///   both units); an ace (4/19) loses 2 whatever comes:
///   15/19 x (14 x 2 - 4 x 2)/18 - 4/19 x 2 = 26/57.
#[test]
fn a_dealer_natural_takes_a_double_only_under_enhc() {
    let removed = tens_and_aces_removed(&[5, 6]);
    let peek = solve(one_deck(PlayerRules::default()), removed.clone());
    let enhc = solve(
        one_deck(PlayerRules {
            hole_card: HoleCard::Enhc,
            ..PlayerRules::default()
        }),
        removed,
    );
    let peek_value = ratio(14 * 2 - 4 * 2, 18);
    assert_eq!(peek_value, ratio(10, 9));
    assert_eq!(row(&peek, [5, 6], 10).values.double, Some(peek_value));
    let enhc_value = ratio(15, 19) * ratio(14 * 2 - 4 * 2, 18) - ratio(4 * 2, 19);
    assert_eq!(enhc_value, ratio(26, 57));
    assert_eq!(row(&enhc, [5, 6], 10).values.double, Some(enhc_value));
}

/// 10-10 against a 10, split to two hands (`--max-hands 2`), in the
/// tens-and-aces shoe: 13 tens and 4 aces are left. Each hand stands on
/// what its second card makes: 20 (a push against 20) or 21 (+1).
/// - Peek: the hole card is a ten; each hand's card is an ace with chance
///   4/16: 2 x 4/16 = 1/2.
/// - ENHC: the dealer's card (exchangeable with the hands' cards) is an
///   ace with chance 4/17 and takes both units; otherwise each hand wins
///   when its card is one of the 4 aces of the 16 others:
///   -2 x 4/17 + 13/17 x 2 x 4/16 = -3/34.
#[test]
fn a_dealer_natural_takes_every_split_hand_under_enhc() {
    let two_hands = PlayerRules {
        max_hands: 2,
        ..PlayerRules::default()
    };
    let removed = tens_and_aces_removed(&[]);
    let peek = solve(one_deck(two_hands), removed.clone());
    let enhc = solve(
        one_deck(PlayerRules {
            hole_card: HoleCard::Enhc,
            ..two_hands
        }),
        removed,
    );
    assert_eq!(row(&peek, [10, 10], 10).values.split, Some(ratio(1, 2)));
    let enhc_value = ratio(-2 * 4, 17) + ratio(13, 17) * ratio(2 * 4, 16);
    assert_eq!(enhc_value, ratio(-3, 34));
    assert_eq!(row(&enhc, [10, 10], 10).values.split, Some(enhc_value));
}

/// A-A against a 10, split, peek, in the tens-and-aces shoe: the hole card
/// is a ten (20), and 14 tens and 2 aces are left. A split ace takes one
/// card: a ten makes 21, which is not a natural and wins 1 whatever a
/// natural pays; an ace makes a soft 12, which loses. Each hand's card is
/// a ten with chance 14/16: 2 x (14 - 2)/16 = 3/2, at 3:2 and at 6:5 alike.
#[test]
fn an_ace_and_a_ten_after_a_split_win_even_money() {
    let removed = tens_and_aces_removed(&[]);
    for blackjack_pays in [BlackjackPays::ThreeToTwo, BlackjackPays::SixToFive] {
        let table = solve(
            one_deck(PlayerRules {
                blackjack_pays,
                ..PlayerRules::default()
            }),
            removed.clone(),
        );
        assert_eq!(
            row(&table, [1, 1], 10).values.split,
            Some(ratio(2 * (14 - 2), 16)),
            "{blackjack_pays:?}"
        );
    }
}

/// The same split with `--resplit-aces --max-hands 3`: an ace dealt to a
/// split ace makes a third hand while there are fewer than 3; a hand that
/// cannot split again keeps its soft 12. Cards come from 14 tens and 2
/// aces, each hand scoring +1 on a ten and -1 on an ace, in the order the
/// round deals them (each hand's cards before the next hand's).
#[test]
fn split_aces_resplit_up_to_max_hands() {
    let one = |n: i64, d: i64| ratio(n, d);
    // The last hand of three, dealt from 12 tens and 1 ace.
    let last_of_12_1 = one(12, 13) - one(1, 13);
    // First hand a ten (14/16): the second from 13 tens and 2 aces; a ten
    // ends the round at two hands, an ace makes the third.
    let second_after_ten = one(13, 15) * one(2, 1)
        + one(2, 15)
            * (one(13, 14) * (one(2, 1) + last_of_12_1.clone())
                // An ace again: three hands, that one stays soft 12 (-1),
                // the third takes a ten.
                + one(1, 14) * one(1, 1));
    // First hand an ace (2/16): three hands; its next card from 14 tens
    // and 1 ace.
    let after_first_ace = one(14, 15)
        * (one(1, 1)
            + one(13, 14) * (one(1, 1) + last_of_12_1)
            + one(1, 14) * (one(-1, 1) + one(1, 1)))
        // An ace again: it stays soft 12 (-1), the other two take tens.
        + one(1, 15) * (one(-1, 1) + one(1, 1) + one(1, 1));
    let value = one(14, 16) * second_after_ten + one(2, 16) * after_first_ace;
    assert_eq!(value, ratio(259, 120));

    let table = solve(
        one_deck(PlayerRules {
            resplit_aces: true,
            max_hands: 3,
            ..PlayerRules::default()
        }),
        tens_and_aces_removed(&[]),
    );
    assert_eq!(row(&table, [1, 1], 10).values.split, Some(value));
}

/// `--resplit-aces` with `--max-hands 2` cannot be honoured (nothing can be
/// split again): refused, naming both.
#[test]
fn resplit_aces_with_two_hands_is_refused_naming_both_options() {
    let error = PlayerRules {
        resplit_aces: true,
        max_hands: 2,
        ..PlayerRules::default()
    }
    .validate()
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("resplit_aces") && error.contains("max_hands"),
        "{error}"
    );
}
