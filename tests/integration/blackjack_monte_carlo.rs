//! Monte Carlo against the exact engine, and determinism across threads.

use deckodds::compare::{Verdict, goodness_of_fit};
use deckodds::distribution::CountDistribution;
use deckodds::engine::NoProgress;
use deckodds::games::blackjack::dealer::dealer_distributions;
use deckodds::games::blackjack::{DealerParams, Decks, Scoring, Soft17, dealer_monte_carlo};

use crate::support::with_threads;

/// One million hands per upcard against the exact table: each upcard's
/// chi-square p-value must exceed 0.001. The seeds are fixed, so this is
/// deterministic; with 40 upcard tests at level 0.001 a correct engine
/// fails a fresh seed about 4% of the time, a wrong one (a misplayed soft
/// 17 moves cells by 1-2 points, z > 30) essentially always.
fn check_agreement(params: &DealerParams, seed: u64) {
    let exact = dealer_distributions(params).unwrap();
    let simulated = dealer_monte_carlo(params, 1_000_000, seed, &NoProgress).unwrap();
    for (exact, counts) in exact.iter().zip(&simulated) {
        assert_eq!(counts.trials(), 1_000_000);
        let agreement = goodness_of_fit(exact, counts, 0.001).unwrap();
        assert!(
            agreement.p_value > 0.001 && agreement.verdict == Verdict::Agree,
            "{params:?} {}: p = {}, max |z| = {}",
            exact.key,
            agreement.p_value,
            agreement.max_abs_z
        );
    }
}

#[test]
fn monte_carlo_agrees_with_exact_two_decks_s17() {
    check_agreement(&DealerParams::default(), 2026);
}

#[test]
fn monte_carlo_agrees_with_exact_infinite_deck_h17() {
    let params = DealerParams {
        decks: Decks::Infinite,
        soft17: Soft17::Hit,
        ..DealerParams::default()
    };
    check_agreement(&params, 7);
}

#[test]
fn monte_carlo_agrees_with_exact_one_deck_peek_with_removals() {
    let params = DealerParams {
        decks: Decks::Finite(1),
        soft17: Soft17::Hit,
        peek: true,
        removed: vec![10, 10, 6, 1],
        ..DealerParams::default()
    };
    check_agreement(&params, 99);
}

#[test]
fn monte_carlo_agrees_with_exact_under_the_sorted_fold_scoring() {
    let params = DealerParams {
        scoring: Scoring::SortedFold,
        ..DealerParams::default()
    };
    check_agreement(&params, 151);
}

#[test]
fn monte_carlo_detects_the_wrong_soft_17_rule() {
    // The comparison must have power: H17 hands against the S17 table
    // disagree decisively for the upcards where soft 17s are common.
    let s17 = dealer_distributions(&DealerParams::default()).unwrap();
    let h17_params = DealerParams {
        soft17: Soft17::Hit,
        ..DealerParams::default()
    };
    let h17 = dealer_monte_carlo(&h17_params, 1_000_000, 5, &NoProgress).unwrap();
    let ace = goodness_of_fit(&s17[9], &h17[9], 0.001).unwrap();
    assert_eq!(ace.verdict, Verdict::Disagree, "p = {}", ace.p_value);
    assert!(ace.max_abs_z > 10.0, "max |z| = {}", ace.max_abs_z);
}

#[test]
fn counts_are_identical_for_any_thread_count() {
    let params = DealerParams {
        decks: Decks::Finite(6),
        ..DealerParams::default()
    };
    // 300,001 hands: several chunks and a short last one.
    let run = |threads| {
        with_threads(threads, || {
            dealer_monte_carlo(&params, 300_001, 11, &NoProgress).unwrap()
        })
    };
    let one: Vec<CountDistribution> = run(1);
    assert_eq!(run(2), one);
    assert_eq!(run(8), one);
    let other_seed = with_threads(2, || {
        dealer_monte_carlo(&params, 300_001, 12, &NoProgress).unwrap()
    });
    assert_ne!(other_seed, one, "the seed must matter");
}
