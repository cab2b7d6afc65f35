//! Roll-Call: the exhaustive enumeration against an independent brute
//! force, pinned small-deck odds, and replay. (Monte Carlo against exact
//! for every distribution of every version, thread independence, bad input
//! and the JSON contract: games.rs.)

use std::collections::{HashMap, HashSet};

use num_bigint::BigUint;
use serde_json::Value;

use deckodds::engine::arrangements::count_arrangements_with;

use deckodds::engine::NoProgress;
use deckodds::engine::Shard;
use deckodds::games::roll_call::{Count, PassOrder, RollCall, RollCallParams, RollCallSimulation};

use crate::support::{probability, rank_arrangements, run_line};

fn version(ranks: u8, copies: u8, count: Count, order: PassOrder) -> RollCall {
    RollCall::new(RollCallParams {
        ranks,
        copies,
        count,
        order,
    })
    .unwrap()
}

const VERSIONS: [(Count, PassOrder); 4] = [
    (Count::Continuous, PassOrder::Same),
    (Count::Continuous, PassOrder::Reversed),
    (Count::Restart, PassOrder::Same),
    (Count::Restart, PassOrder::Reversed),
];

/// Unlimited play by a different method: a queue, one card at a time, and
/// a set of the states seen since the last match (no cycle argument).
/// Returns (cards left, strikes, passes).
fn naive_unlimited(game: &RollCall, deal: &[u8]) -> (usize, usize, usize) {
    let p = game.params();
    let mut deck: Vec<u8> = deal.to_vec();
    let mut count = 1u8;
    let (mut strikes, mut passes) = (0, 0);
    let mut seen = HashSet::new();
    loop {
        if deck.is_empty() {
            return (0, strikes, passes);
        }
        if p.count == Count::Restart {
            count = 1;
        }
        if !seen.insert((deck.clone(), count)) {
            return (deck.len(), strikes, passes);
        }
        let before = deck.len();
        let mut kept = Vec::new();
        for &card in &deck {
            if card != count {
                kept.push(card);
            }
            count = if count == p.ranks { 1 } else { count + 1 };
        }
        passes += 1;
        if kept.len() == before {
            strikes += 1;
        } else {
            seen.clear();
        }
        if p.order == PassOrder::Reversed {
            kept.reverse();
        }
        deck = kept;
    }
}

/// The exhaustive enumeration's unlimited-play distributions (cards left,
/// strikes, passes) equal those of an independent brute force over every
/// arrangement, for every version, on decks up to 8 cards.
#[test]
fn exhaustive_counts_equal_an_independent_brute_force() {
    for (ranks, copies) in [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4), (3, 1), (8, 1)] {
        for (count, order) in VERSIONS {
            let game = version(ranks, copies, count, order);
            let simulation = RollCallSimulation::new(game);
            let tally = simulation.tally();
            let counts = count_arrangements_with(
                &game.exhaustive_deck(),
                tally.n_bins(),
                simulation.clone(),
                Shard::WHOLE,
                &NoProgress,
            )
            .unwrap();
            let parts: HashMap<&str, Vec<BigUint>> = tally
                .split(&counts.counts)
                .into_iter()
                .map(|(key, _, part)| (key, part))
                .collect();
            let all = rank_arrangements(&vec![copies; usize::from(ranks)]);
            assert_eq!(counts.total, BigUint::from(all.len()));
            let n = game.n_cards();
            let mut left = vec![0u64; n + 1];
            let mut strikes = vec![0u64; parts["strikes"].len()];
            let mut passes = vec![0u64; parts["passes"].len()];
            for deal in &all {
                let (l, s, p) = naive_unlimited(&game, deal);
                left[l] += 1;
                strikes[s] += 1;
                passes[p - 1] += 1;
            }
            let big = |v: Vec<u64>| v.into_iter().map(BigUint::from).collect::<Vec<_>>();
            let label = format!("{ranks}x{copies} {count:?} {order:?}");
            assert_eq!(parts["K=unlimited"], big(left), "{label}");
            assert_eq!(parts["strikes"], big(strikes), "{label}");
            assert_eq!(parts["passes"], big(passes), "{label}");
        }
    }
}

/// A few exact values pinned: the probabilities of winning 3 x 2 (six
/// cards), standard version, checked against the independent player too.
#[test]
fn small_deck_win_probabilities_are_pinned() {
    let json = run_line("roll-call exact --ranks 3 --copies 2 --format json --quiet");
    let report: Value = serde_json::from_str(&json).unwrap();
    let probability = |key: &str, outcome: &str| probability(&report, key, outcome);
    // Brute force by the independent player above, as fractions of the 90
    // arrangements of 1 1 2 2 3 3.
    let game = version(3, 2, Count::Continuous, PassOrder::Same);
    let all = rank_arrangements(&[2; 3]);
    let wins = all
        .iter()
        .filter(|d| naive_unlimited(&game, d).0 == 0)
        .count();
    let zero = all
        .iter()
        .filter(|d| naive_unlimited(&game, d).0 == 0 && naive_unlimited(&game, d).1 == 0)
        .count();
    let fraction = |k: usize| {
        let g = num_integer::gcd(k, 90);
        if k == 0 {
            "0".to_string()
        } else {
            format!("{}/{}", k / g, 90 / g)
        }
    };
    assert_eq!(probability("K=unlimited", "0"), fraction(wins));
    assert_eq!(probability("zero-strike", "yes"), fraction(zero));
    // And pinned, so that a change in either is seen.
    assert_eq!(probability("K=2", "0"), "11/18");
    assert_eq!(probability("K=3", "0"), "29/45");
    assert_eq!(probability("K=unlimited", "0"), "29/45");
    assert_eq!(probability("zero-strike", "yes"), "13/45");
}

/// Replay prints every pass and the verdicts.
#[test]
fn replay_prints_the_game_pass_by_pass() {
    let text = run_line("roll-call replay --ranks 3 --copies 2 --deal 2,A,3,3,A,2");
    insta::assert_snapshot!(text);
}
