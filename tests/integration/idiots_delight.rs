//! Idiot's Delight: the two exact enumerators against each other, Monte
//! Carlo against exact (uniform and naive shuffles), determinism across
//! threads, and the command line.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::Value;

use deckodds::compare::goodness_of_fit;
use deckodds::distribution::CountDistribution;
use deckodds::engine::ArrangementCounts;
use deckodds::engine::NoProgress;
use deckodds::engine::SequentialGame;
use deckodds::engine::Shard;
use deckodds::engine::arrangements::count_arrangements_with;
use deckodds::engine::montecarlo::{RunPlan, run};
use deckodds::engine::naive_shuffle::naive_shuffle_counts;
use deckodds::engine::sequential::{SequentialParams, count_outcomes};
use deckodds::games::idiots_delight::{IdiotsDelight, IdiotsDelightSimulation};
use deckodds::rng::Shuffle;

use crate::support::{deckodds, outcome_labels, run_line, with_threads};

fn memoised(game: &IdiotsDelight) -> ArrangementCounts {
    let deck = game.deck().sorted_cards();
    count_outcomes(game, &deck, &SequentialParams::default(), &NoProgress)
        .unwrap()
        .0
}

fn exhaustive(game: &IdiotsDelight) -> ArrangementCounts {
    let deck = game.deck().sorted_cards();
    count_arrangements_with(
        &deck,
        game.n_outcomes(),
        game.lane_player(),
        Shard::WHOLE,
        &NoProgress,
    )
    .unwrap()
}

fn factorial(n: usize) -> BigUint {
    (1..=n).fold(BigUint::one(), |f, k| f * k)
}

/// Every deck of at most 12 cards: the memoised enumerator (canonical keys,
/// pruned memo, dealing one card at a time) and the exhaustive one (every
/// arrangement through the Monte-Carlo runner's eight-lane driver)
/// must give identical counts, and the counts must add up to n!.
#[test]
fn memoised_and_exhaustive_enumerators_agree_up_to_12_cards() {
    for suits in 1..=12u8 {
        for ranks in 1..=12u8 {
            let n = usize::from(suits) * usize::from(ranks);
            if n > 12 {
                continue;
            }
            let game = IdiotsDelight::new(suits, ranks).unwrap();
            let memo = memoised(&game);
            assert_eq!(memo.total, factorial(n), "{suits}x{ranks}");
            assert_eq!(memo, exhaustive(&game), "{suits}x{ranks}");
        }
    }
}

/// Exact probabilities are reduced fractions that sum to exactly 1, and
/// they are only ever on outcomes of the deck's parity.
#[test]
fn exact_distributions_sum_to_one() {
    for (suits, ranks) in [
        (2, 4),
        (3, 3),
        (4, 2),
        (4, 3),
        (3, 4),
        (2, 6),
        (5, 2),
        (2, 8),
    ] {
        let game = IdiotsDelight::new(suits, ranks).unwrap();
        let distribution = memoised(&game).to_distribution("cards-left", game.outcome_labels());
        let sum = distribution
            .probabilities
            .iter()
            .fold(BigRational::zero(), |s, p| s + p);
        assert!(sum.is_one(), "{suits}x{ranks}: {sum}");
        for (label, p) in distribution
            .outcomes
            .iter()
            .zip(&distribution.probabilities)
        {
            let left: usize = label.parse().unwrap();
            assert_eq!(left % 2, game.n_cards() % 2);
            assert!(p >= &BigRational::zero());
        }
    }
}

fn monte_carlo(
    game: IdiotsDelight,
    shuffle: Shuffle,
    n_trials: u64,
    seed: u64,
) -> CountDistribution {
    let simulation = IdiotsDelightSimulation::new(game, shuffle);
    CountDistribution {
        key: "cards-left".into(),
        outcomes: game.outcome_labels(),
        counts: run(&simulation, &RunPlan::new(n_trials, seed, 0), &NoProgress),
    }
}

/// Monte Carlo with fixed seeds against the exact distribution of the same
/// play function. The tolerance is |z| < 5 in every bin and a chi-square
/// p-value above 1e-6: about 60 bins are tested in all, so a correct engine
/// fails with probability about 1e-4, while a wrong rule moves whole
/// percentage points (|z| in the hundreds at 400,000 games).
#[test]
fn monte_carlo_agrees_with_exact_on_small_decks() {
    for (suits, ranks, seed) in [
        (2, 4, 1),
        (3, 3, 2),
        (4, 2, 3),
        (4, 3, 4),
        (3, 4, 5),
        (2, 6, 6),
        (5, 2, 7),
        (2, 8, 8),
    ] {
        let game = IdiotsDelight::new(suits, ranks).unwrap();
        let exact = memoised(&game).to_distribution("cards-left", game.outcome_labels());
        let counts = monte_carlo(game, Shuffle::Uniform, 400_000, seed);
        let agreement = goodness_of_fit(&exact, &counts, 1e-6).unwrap();
        assert!(
            agreement.max_abs_z < 5.0 && agreement.p_value > 1e-6,
            "{suits}x{ranks}: p = {}, max |z| = {}",
            agreement.p_value,
            agreement.max_abs_z
        );
    }
}

/// The naive shuffle's Monte Carlo against its exact distribution (every
/// swap sequence weighted), on decks small enough for the exact one; and
/// the same counts against the uniform exact distribution must be rejected
/// where the bias is large (the test has power, not just agreement).
#[test]
fn naive_shuffle_monte_carlo_agrees_with_its_exact_distribution() {
    for (suits, ranks, seed) in [(2, 4, 11), (3, 3, 12), (4, 2, 13), (2, 5, 14)] {
        let game = IdiotsDelight::new(suits, ranks).unwrap();
        let deck = game.deck().sorted_cards();
        let naive = naive_shuffle_counts(&deck, game.n_outcomes(), |order| game.play(order))
            .unwrap()
            .to_distribution("cards-left", game.outcome_labels());
        let counts = monte_carlo(game, Shuffle::Naive, 400_000, seed);
        let agreement = goodness_of_fit(&naive, &counts, 1e-6).unwrap();
        assert!(
            agreement.max_abs_z < 5.0 && agreement.p_value > 1e-6,
            "{suits}x{ranks} naive: p = {}, max |z| = {}",
            agreement.p_value,
            agreement.max_abs_z
        );
    }
    // 3x2 from sorted: the exact naive probability of 1 card left is
    // 7627/46656 = 16.347% against 1/6 = 16.667% uniform, so 2,000,000 naive
    // games put that bin about 12 standard errors from the uniform value;
    // the test has power, not just agreement.
    let game = IdiotsDelight::new(3, 2).unwrap();
    let uniform = memoised(&game).to_distribution("cards-left", game.outcome_labels());
    let counts = monte_carlo(game, Shuffle::Naive, 2_000_000, 15);
    let against_uniform = goodness_of_fit(&uniform, &counts, 1e-6).unwrap();
    assert!(
        against_uniform.max_abs_z > 8.0,
        "{}",
        against_uniform.max_abs_z
    );
}

/// 52-card Monte Carlo: the same seed gives bit-identical counts with 1, 2
/// and 8 threads, under every shuffle (naive-carry carries the deck only
/// within a chunk, so it too is independent of the thread count).
#[test]
fn monte_carlo_is_bit_identical_across_thread_counts() {
    let game = IdiotsDelight::standard();
    for shuffle in Shuffle::ALL {
        let simulation = IdiotsDelightSimulation::new(game, shuffle);
        let plan = RunPlan {
            chunk_size: 10_000,
            ..RunPlan::new(205_000, 42, 0)
        };
        let one = with_threads(1, || run(&simulation, &plan, &NoProgress));
        assert_eq!(one.iter().sum::<u64>(), 205_000);
        for threads in [2, 8] {
            assert_eq!(
                with_threads(threads, || run(&simulation, &plan, &NoProgress)),
                one,
                "{shuffle:?} with {threads} threads"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The command line.

#[test]
fn exact_table_prints() {
    insta::assert_snapshot!(
        "idiots_delight_exact_3x3",
        run_line("idiots-delight exact --suits 3 --ranks 3 --quiet")
    );
}

#[test]
fn exact_json_follows_the_contract() {
    let text = run_line("idiots-delight exact --suits 2 --ranks 4 --format json --quiet");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["game"], "idiots-delight");
    assert_eq!(json["method"], "exact");
    assert_eq!(json["params"]["suits"], 2);
    assert_eq!(json["params"]["ranks"], 4);
    assert_eq!(json["params"]["shuffle"], "uniform");
    assert_eq!(json["params"]["arrangements"], "40320");
    let distribution = &json["distributions"][0];
    assert_eq!(distribution["key"], "cards-left");
    let labels = outcome_labels(distribution);
    assert_eq!(labels, ["0", "2", "4", "6", "8"]);
    // Counts recovered as probability x arrangements are whole numbers
    // summing to 8!.
    let counts = exact_counts(&json);
    assert!(counts.iter().all(|c| c.is_integer()), "{counts:?}");
    let total = counts.iter().fold(BigRational::zero(), |s, c| s + c);
    assert_eq!(total, BigRational::from_integer(40320.into()));
    assert!(distribution["mean"]["probability"].is_string());
}

#[test]
fn the_two_engines_print_the_same_json() {
    let json = |engine: &str| {
        run_line(&format!(
            "idiots-delight exact --suits 3 --ranks 3 --engine {engine} --format json --quiet"
        ))
        .replace(&format!("\"engine\": \"{engine}\""), "")
    };
    assert_eq!(json("memo"), json("exhaustive"));
}

/// The counts of a JSON exact report: probability x arrangements, exactly.
fn exact_counts(json: &Value) -> Vec<BigRational> {
    let arrangements: BigRational = json["params"]["arrangements"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    json["distributions"][0]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            o["probability"]
                .as_str()
                .unwrap()
                .parse::<BigRational>()
                .unwrap()
                * &arrangements
        })
        .collect()
}

#[test]
fn exhaustive_shards_add_up_to_the_whole() {
    let report = |extra: &str| -> Value {
        serde_json::from_str(&run_line(&format!(
            "idiots-delight exact --suits 2 --ranks 4 --engine exhaustive --format json --quiet {extra}"
        )))
        .unwrap()
    };
    let whole = exact_counts(&report(""));
    let mut summed = vec![BigRational::zero(); whole.len()];
    for k in ["0/3", "1/3", "2/3"] {
        for (sum, count) in summed
            .iter_mut()
            .zip(exact_counts(&report(&format!("--shard {k}"))))
        {
            assert!(count.is_integer());
            *sum += count;
        }
    }
    assert_eq!(summed, whole);
}

#[test]
fn monte_carlo_json_has_counts_intervals_and_the_mean() {
    let text = run_line(
        "idiots-delight mc --trials 20000 --seed 3 --shuffle naive-carry --format json --quiet",
    );
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["method"], "monte-carlo");
    assert_eq!(json["seed"], 3);
    assert_eq!(json["trials"], 20000);
    assert_eq!(json["params"]["shuffle"], "naive-carry");
    let distribution = &json["distributions"][0];
    assert_eq!(distribution["key"], "cards-left");
    let outcomes = distribution["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 27);
    let counted: u64 = outcomes.iter().map(|o| o["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, 20000);
    let mean = &distribution["mean"];
    let (estimate, se) = (
        mean["estimate"].as_f64().unwrap(),
        mean["standard_error"].as_f64().unwrap(),
    );
    assert!(se > 0.0 && se < 0.1, "{se}");
    assert!(mean["ci95"][0].as_f64().unwrap() < estimate);
}

#[test]
fn monte_carlo_cli_is_identical_across_thread_counts() {
    let csv = |threads: u32| {
        run_line(&format!(
            "idiots-delight mc --trials 300000 --seed 9 --threads {threads} --format csv --quiet"
        ))
    };
    let one = csv(1);
    assert_eq!(csv(2), one);
    assert_eq!(csv(8), one);
}

#[test]
fn compare_against_the_sas_table_reports_each_shuffle() {
    let text = run_line(
        "idiots-delight compare --published sas --shuffle all --trials 50000 --format json --quiet",
    );
    let json: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        ["shuffle=uniform", "shuffle=naive", "shuffle=naive-carry"]
    );
}

/// Bad input: one line on stderr naming the value, exit status 2, nothing
/// on stdout, and no output file.
#[test]
fn bad_input_is_one_clear_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let out = out.to_str().unwrap();
    let cases = [
        ("idiots-delight mc --suits 0", "--suits 0:"),
        ("idiots-delight mc --ranks 0", "--ranks 0:"),
        ("idiots-delight mc --ranks 14", "--ranks 14:"),
        (
            "idiots-delight mc --suits 16 --ranks 13",
            "--suits x --ranks 16x13:",
        ),
        ("idiots-delight exact --suits x", "--suits x:"),
        ("idiots-delight mc --shuffle riffle", "--shuffle riffle:"),
        (
            "idiots-delight compare --shuffle riffle",
            "--shuffle riffle:",
        ),
        ("idiots-delight exact", "--suits x --ranks 4x13:"),
        (
            "idiots-delight exact --suits 4 --ranks 5",
            "--suits x --ranks 4x5:",
        ),
        (
            "idiots-delight exact --suits 3 --ranks 3 --engine magic",
            "--engine magic:",
        ),
        (
            "idiots-delight exact --suits 2 --ranks 2 --shuffle naive-carry",
            "--shuffle naive-carry:",
        ),
        (
            "idiots-delight exact --suits 4 --ranks 3 --shuffle naive",
            "--suits x --ranks 4x3:",
        ),
        (
            "idiots-delight exact --suits 2 --ranks 2 --engine exhaustive --shard 4/4",
            "--shard 4/4:",
        ),
        (
            "idiots-delight compare --suits 2 --ranks 2 --published sas",
            "--published sas:",
        ),
        (
            "idiots-delight power --shuffle uniform",
            "--shuffle uniform:",
        ),
        ("idiots-delight mc --trials 0", "--trials 0:"),
        ("idiots-delight compare", "--suits x --ranks 4x13:"),
    ];
    for (line, start) in cases {
        let args: Vec<&str> = line.split_whitespace().collect();
        let output = deckodds()
            .args(&args)
            .args(["--out", out])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("error: {start}")),
            "{args:?}: {stderr}"
        );
        assert!(!std::path::Path::new(out).exists(), "{args:?}");
    }
}

/// The refusal of a deck too large for exact enumeration says what it
/// would cost, and --force is the way past it.
#[test]
fn too_large_for_exact_gives_an_estimate() {
    let output = deckodds()
        .args(["idiots-delight", "exact", "--suits", "4", "--ranks", "5"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("estimated at"), "{stderr}");
    assert!(stderr.contains("GiB"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
}
