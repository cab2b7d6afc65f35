//! Prisoner's patience: the two exact enumerators against each other and
//! against the rules applied literally, Monte Carlo against exact,
//! determinism across threads, replay, and the command line.

use num_bigint::BigUint;
use serde_json::Value;

use deckodds::engine::ArrangementCounts;
use deckodds::engine::NoProgress;
use deckodds::engine::SequentialGame;
use deckodds::engine::Shard;
use deckodds::engine::arrangements::count_arrangements;
use deckodds::engine::montecarlo::{RunPlan, run};
use deckodds::engine::sequential::{SequentialParams, count_outcomes};
use deckodds::games::prisoners_patience::{
    PrisonersParams, PrisonersPatience, PrisonersSimulation, StackMove, literally,
};

use crate::support::{
    assert_bad_input, deckodds, probability, rank_arrangements, run_line, with_threads,
};

const RULES: [StackMove; 2] = [StackMove::Reversed, StackMove::Kept];

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

fn exhaustive(game: &PrisonersPatience) -> ArrangementCounts {
    count_arrangements(
        &game.exact_deck(),
        game.n_outcomes(),
        |deal| game.play(deal),
        Shard::WHOLE,
        &NoProgress,
    )
    .unwrap()
}

/// Every deck of at most 12 cards, both rules: the memoised enumerator
/// (states merged under the rank cycle's symmetries) and the exhaustive one
/// (every distinct arrangement played) give identical counts.
#[test]
fn memoised_and_exhaustive_enumerators_agree_up_to_12_cards() {
    for stack_move in RULES {
        for ranks in 3..=12u8 {
            for suits in 1..=4u8 {
                if usize::from(suits) * usize::from(ranks) > 12 {
                    continue;
                }
                let game = version(suits, ranks, stack_move);
                assert_eq!(memoised(&game), exhaustive(&game), "{}", game.params());
            }
        }
    }
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

/// Monte Carlo against exact, both rules, on small decks (fixed seeds; at
/// level 1e-6 and max |z| < 5).
#[test]
fn monte_carlo_agrees_with_exact_on_small_decks() {
    for (suits, ranks, seed) in [(2, 5, 1), (3, 4, 2), (2, 6, 3), (1, 10, 4), (4, 3, 5)] {
        for stack_move in RULES {
            let line = format!(
                "prisoners-patience compare --suits {suits} --ranks {ranks} --stack-move {} --trials 200000 --seed {seed} --level 1e-6 --format json --quiet",
                stack_move.name()
            );
            let report: Value = serde_json::from_str(&run_line(&line)).unwrap();
            for row in report["rows"].as_array().unwrap() {
                let p = row["p_value"].as_f64().unwrap();
                let z = row["max_abs_z"].as_f64().unwrap();
                assert!(p > 1e-6 && z < 5.0, "{line}: p = {p}, max |z| = {z}");
            }
        }
    }
}

/// 52-card counts are identical with 1 and 2 threads, both rules.
#[test]
fn monte_carlo_is_identical_across_thread_counts() {
    for stack_move in RULES {
        let simulation = PrisonersSimulation::new(version(4, 13, stack_move));
        let plan = RunPlan {
            chunk_size: 5_000,
            ..RunPlan::new(40_000, 9, 0)
        };
        let one = with_threads(1, || run(&simulation, &plan, &NoProgress));
        let two = with_threads(2, || run(&simulation, &plan, &NoProgress));
        assert_eq!(one, two);
    }
}

/// Replay prints each card, each move and the row.
#[test]
fn replay_prints_the_game_step_by_step() {
    let text = run_line("prisoners-patience replay --suits 1 --deal 5,9,7,8,A,2,3,4,6,10,J,Q,K");
    insta::assert_snapshot!(text);
}

/// Bad input: one line naming the value, exit status 2, nothing on stdout.
#[test]
fn bad_input_is_one_clear_line_and_exit_2() {
    assert_bad_input(&[
        ("prisoners-patience mc --ranks 2", "--ranks 2:"),
        ("prisoners-patience mc --suits 0", "--suits 0:"),
        ("prisoners-patience mc --suits 5", "--suits x --ranks"),
        (
            "prisoners-patience mc --stack-move sideways",
            "--stack-move sideways:",
        ),
        (
            "prisoners-patience exact --engine magic --suits 1 --ranks 5",
            "--engine magic:",
        ),
        ("prisoners-patience exact", "--suits x --ranks"),
        (
            "prisoners-patience exact --engine exhaustive --suits 2 --ranks 10",
            "--suits x --ranks",
        ),
        ("prisoners-patience compare --with luck", "--with luck:"),
        (
            "prisoners-patience compare --with seed --suits 1 --ranks 5",
            "--suits x --ranks",
        ),
        (
            "prisoners-patience replay --suits 1 --ranks 3 --deal 1,2",
            "--deal",
        ),
        (
            "prisoners-patience replay --suits 1 --ranks 3 --deal 1,2,2",
            "--deal",
        ),
        (
            "prisoners-patience replay --suits 1 --ranks 3 --deal 1,2,Z",
            "--deal Z:",
        ),
        (
            "prisoners-patience exact --suits 1 --ranks 5 --format md --out never.md --out never.json",
            "--format md:",
        ),
        ("prisoners-patience solve", "--deal, --trials or --every"),
        ("prisoners-patience solve --every", "--suits x --ranks"),
        (
            "prisoners-patience solve --suits 1 --ranks 3 --deal 1,1,2",
            "--deal",
        ),
        (
            "prisoners-patience solve --trials 10 --max-nodes 0",
            "--max-nodes 0:",
        ),
    ]);
    assert!(!std::path::Path::new("never.md").exists());
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

/// `solve --trials`: the same counts with 1 and 2 threads.
#[test]
fn solve_samples_are_identical_across_thread_counts() {
    let line = "prisoners-patience solve --trials 300 --suits 3 --ranks 6 --stack-move kept --format csv --quiet";
    let one = run_line(&format!("{line} --threads 1"));
    let two = run_line(&format!("{line} --threads 2"));
    assert_eq!(one, two);
    assert!(one.contains("free-choice,winnable"), "{one}");
}

/// `solve --deal` prints the verdict and a winning line of play, checked
/// by replay.
#[test]
fn solve_one_deal_prints_a_checked_win() {
    let text =
        run_line("prisoners-patience solve --quiet --suits 1 --deal 5,9,7,8,A,2,3,4,6,10,J,Q,K");
    insta::assert_snapshot!(text);
}
