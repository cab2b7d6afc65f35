//! Idiot's Delight: exact distributions and their parity, Monte Carlo of
//! the naive shuffle against its exact distribution (and the power to tell
//! it from uniform), shards, the SAS comparison, and the command line.
//! (The two enumerators against each other, Monte Carlo against exact
//! under the uniform shuffle, thread independence, bad input and the JSON
//! contract: games.rs.)

use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::Value;

use deckodds::compare::goodness_of_fit;
use deckodds::distribution::CountDistribution;
use deckodds::engine::ArrangementCounts;
use deckodds::engine::NoProgress;
use deckodds::engine::SequentialGame;
use deckodds::engine::montecarlo::{RunPlan, run};
use deckodds::engine::naive_shuffle::naive_shuffle_counts;
use deckodds::engine::sequential::{SequentialParams, count_outcomes};
use deckodds::games::idiots_delight::{IdiotsDelight, IdiotsDelightSimulation};
use deckodds::rng::Shuffle;

use crate::support::{deckodds, outcome_labels, run_line};

fn memoised(game: &IdiotsDelight) -> ArrangementCounts {
    let deck = game.deck().sorted_cards();
    count_outcomes(game, &deck, &SequentialParams::default(), &NoProgress)
        .unwrap()
        .0
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
            agreement.max_abs_z.is_some_and(|z| z < 5.0) && agreement.p_value > 1e-6,
            "{suits}x{ranks} naive: p = {}, max |z| = {:?}",
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
        against_uniform.max_abs_z.is_some_and(|z| z > 8.0),
        "{:?}",
        against_uniform.max_abs_z
    );
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

/// The exact JSON names the deck and its arrangements, and its
/// probabilities are whole counts of them.
#[test]
fn exact_json_counts_every_arrangement() {
    let text = run_line("idiots-delight exact --suits 2 --ranks 4 --format json --quiet");
    let json: Value = serde_json::from_str(&text).unwrap();
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

/// The Monte-Carlo JSON names the shuffle, has every even number of cards
/// left of 52 as an outcome, and a mean as precise as 20,000 games make it.
#[test]
fn monte_carlo_json_names_the_shuffle_and_every_outcome() {
    let text = run_line(
        "idiots-delight mc --trials 20000 --seed 3 --shuffle naive-carry --format json --quiet",
    );
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["params"]["shuffle"], "naive-carry");
    let distribution = &json["distributions"][0];
    assert_eq!(distribution["key"], "cards-left");
    let labels: Vec<String> = (0..=52).step_by(2).map(|n| n.to_string()).collect();
    assert_eq!(outcome_labels(distribution), labels);
    let se = distribution["mean"]["standard_error"].as_f64().unwrap();
    assert!(se > 0.0 && se < 0.1, "{se}");
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

/// `power --format csv` is a CSV (a header, then one row) of the figures
/// the JSON carries, not the text the table format prints.
#[test]
fn the_power_study_as_csv_is_its_json_in_one_row() {
    let line =
        "idiots-delight power --suits 1 --ranks 8 --trials 20000 --seed 1 --replicates 4 --quiet";
    let run = |format: &str| {
        let mut args: Vec<&str> = line.split_whitespace().collect();
        args.extend(["--format", format]);
        let output = deckodds().args(&args).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let csv = run("csv");
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(header, deckodds::report::power::POWER_CSV_COLUMNS);
    let row: std::collections::HashMap<&str, &str> =
        header.iter().copied().zip(lines[1].split(',')).collect();
    assert_eq!(row["deck"], "1x8");
    assert_eq!(row["shuffle"], "naive");
    assert_eq!(row["trials"], json["trials"].to_string());
    let number = |column: &str| row[column].parse::<f64>().unwrap();
    assert_eq!(
        number("chi_square"),
        json["reference"]["chi_square"].as_f64().unwrap()
    );
    assert_eq!(
        number("p_value"),
        json["reference"]["p_value"].as_f64().unwrap()
    );
    match json["games_for_power_90"].as_u64() {
        Some(games) => {
            assert_eq!(row["games_for_power_90"], games.to_string());
            assert_eq!(
                row["rejections"],
                json["replicate_check"]["rejections"].to_string()
            );
        }
        None => assert_eq!(row["games_for_power_90"], ""),
    }
}
