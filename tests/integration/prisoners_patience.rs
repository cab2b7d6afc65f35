//! Prisoner's patience: the exact enumerator against the rules applied
//! literally, the two rules, replay, several outputs from one run, the
//! seed comparison and the solver. (The two enumerators against each
//! other, Monte Carlo against exact, thread independence, bad input and
//! the JSON contract: games.rs.)

use num_bigint::BigUint;
use serde_json::Value;

use deckodds::engine::ArrangementCounts;
use deckodds::engine::NoProgress;
use deckodds::engine::sequential::{SequentialParams, count_outcomes};
use deckodds::games::prisoners_patience::{
    PrisonersParams, PrisonersPatience, StackMove, literally,
};

use crate::support::{deckodds, probability, rank_arrangements, run_line};

fn version(suits: u8, ranks: u8, stack_move: StackMove) -> PrisonersPatience {
    PrisonersPatience::new(PrisonersParams {
        suits,
        ranks,
        stack_move,
    })
    .unwrap()
}

fn memoised(game: &PrisonersPatience) -> ArrangementCounts {
    count_outcomes(
        game,
        &game.exact_deck(),
        &SequentialParams::default(),
        &NoProgress,
    )
    .unwrap()
    .0
}

/// P(win) on small decks, both rules: equal to the count of wins by the
/// rules applied literally over every arrangement, and pinned.
#[test]
fn small_deck_win_probabilities_are_pinned() {
    for (suits, ranks, stack_move, pinned) in [
        (2, 3, "reversed", "4/5"),
        (3, 3, "reversed", "53/70"),
        (2, 4, "reversed", "1"),
        (1, 7, "reversed", "28/45"),
        (2, 5, "reversed", "331/540"),
        (2, 3, "kept", "4/5"),
        (3, 3, "kept", "3/4"),
        (2, 4, "kept", "4/7"),
        (1, 7, "kept", "17/360"),
        (2, 5, "kept", "2939/11340"),
    ] {
        let line = format!(
            "prisoners-patience exact --suits {suits} --ranks {ranks} --stack-move {stack_move} --format json --quiet"
        );
        let report: Value = serde_json::from_str(&run_line(&line)).unwrap();
        let win = report["distributions"][0]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["outcome"] == "1")
            .unwrap()["probability"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(win, pinned, "{line}");
        // The same by the literal rules, over every arrangement.
        let params = PrisonersParams {
            suits,
            ranks,
            stack_move: StackMove::parse(stack_move).unwrap(),
        };
        let all = rank_arrangements(&vec![suits; usize::from(ranks)]);
        let wins = all.iter().filter(|d| literally(params, d) == 1).count();
        let g = num_integer::gcd(wins, all.len());
        let fraction = if wins == all.len() {
            "1".to_string()
        } else {
            format!("{}/{}", wins / g, all.len() / g)
        };
        assert_eq!(win, fraction, "{line}");
    }
}

/// The counts add up to the distinct arrangements (12! / (3!)^4 on 3 x 4),
/// and the two stack-move rules give different distributions there.
#[test]
fn the_two_rules_differ_and_totals_are_the_arrangements() {
    let reversed = memoised(&version(3, 4, StackMove::Reversed));
    let kept = memoised(&version(3, 4, StackMove::Kept));
    // 12! / (3!)^4
    assert_eq!(reversed.total, BigUint::from(369_600u32));
    assert_eq!(reversed.counts.iter().sum::<BigUint>(), reversed.total);
    assert_ne!(reversed.counts, kept.counts);
}

/// Replay prints each card, each move and the row.
#[test]
fn replay_prints_the_game_step_by_step() {
    let text = run_line("prisoners-patience replay --suits 1 --deal 5,9,7,8,A,2,3,4,6,10,J,Q,K");
    insta::assert_snapshot!(text);
}

/// One run writes every `--out` file, each in its extension's format, with
/// the same figures.
#[test]
fn one_run_writes_several_formats() {
    let dir = std::env::temp_dir().join(format!("deckodds-outs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (md, json) = (dir.join("t.md"), dir.join("t.json"));
    let output = deckodds()
        .args(
            "prisoners-patience exact --quiet --suits 2 --ranks 4 --stack-move kept --out"
                .split(' '),
        )
        .arg(&md)
        .arg("--out")
        .arg(&json)
        .output()
        .unwrap();
    assert!(output.status.success());
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["distributions"][0]["key"], "stacks");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("4/7"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `compare --with seed` tests each rule against the seed's 661 wins in
/// 16,000,000 games and shows the same wins as `mc` on the same seed.
#[test]
fn the_seed_comparison_uses_the_games_of_mc() {
    let report: Value = serde_json::from_str(&run_line(
        "prisoners-patience compare --with seed --trials 300000 --seed 5 --format json --quiet",
    ))
    .unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["key"], "P(win), stack move reversed");
    assert_eq!(rows[1]["key"], "P(win), stack move kept");
    let mc: Value = serde_json::from_str(&run_line(
        "prisoners-patience mc --trials 300000 --seed 5 --format json --quiet",
    ))
    .unwrap();
    let wins = mc["distributions"][0]["outcomes"][0]["count"]
        .as_u64()
        .unwrap() as f64;
    // Pearson's chi-square of the 2 x 2 table, computed here.
    let (n1, n2, seed_wins) = (300_000.0, 16_000_000.0, 661.0);
    let pooled = (wins + seed_wins) / (n1 + n2);
    let chi_square: f64 = [(wins, n1), (seed_wins, n2)]
        .iter()
        .map(|&(won, n)| {
            let (expected_won, expected_lost) = (n * pooled, n * (1.0 - pooled));
            (won - expected_won).powi(2) / expected_won
                + (n - won - expected_lost).powi(2) / expected_lost
        })
        .sum();
    let reported = rows[0]["chi_square"].as_f64().unwrap();
    assert!(
        (reported - chi_square).abs() < 1e-6 * chi_square.max(1.0),
        "reported {reported}, from mc's {wins} wins {chi_square}"
    );
}

/// `solve --every`: every arrangement solved exactly; the fixed sweep's
/// column equals the game's own exact P(win), and free choice wins at
/// least as often, pinned on two small decks.
#[test]
fn solve_every_arrangement_of_small_decks() {
    for (suits, ranks, stack_move, sweep, winnable) in [
        (2, 5, "kept", "2939/11340", "11327/11340"),
        (1, 7, "reversed", "28/45", "89/90"),
    ] {
        let line = format!(
            "prisoners-patience solve --every --suits {suits} --ranks {ranks} --stack-move {stack_move} --format json --quiet"
        );
        let report: Value = serde_json::from_str(&run_line(&line)).unwrap();
        let probability = |key: &str, outcome: &str| probability(&report, key, outcome);
        assert_eq!(probability("fixed-sweep", "won"), sweep, "{line}");
        assert_eq!(probability("free-choice", "winnable"), winnable, "{line}");
        assert_eq!(probability("free-choice", "undecided"), "0", "{line}");
        assert_eq!(
            probability("sweep-x-free-choice", "sweep won, unwinnable"),
            "0"
        );
        let exact: Value = serde_json::from_str(&run_line(&format!(
            "prisoners-patience exact --suits {suits} --ranks {ranks} --stack-move {stack_move} --format json --quiet"
        )))
        .unwrap();
        assert_eq!(
            exact["distributions"][0]["outcomes"][0]["probability"],
            sweep
        );
    }
}

/// `solve --deal` prints the verdict and a winning line of play, checked
/// by replay.
#[test]
fn solve_one_deal_prints_a_checked_win() {
    let text =
        run_line("prisoners-patience solve --quiet --suits 1 --deal 5,9,7,8,A,2,3,4,6,10,J,Q,K");
    insta::assert_snapshot!(text);
}
