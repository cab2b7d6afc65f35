//! The checks every game gets, run from one table over the registry: one
//! row per game with the small command lines each check needs, and one
//! test per check that runs it for every game that has it.
//!
//! - Monte-Carlo counts are identical with 1, 2 and 8 threads (over
//!   several chunks and a short last one), and another seed gives other
//!   counts;
//! - Monte Carlo agrees with the exact distribution, where the game has
//!   one (fixed seeds; every row's p-value above the level, and where a
//!   row gives one, every |z| below the bound);
//! - the memoised and the exhaustive enumerator print the same JSON, where
//!   the game has both;
//! - bad input gets one line on stderr naming the value, exit status 2,
//!   nothing on stdout and no output file;
//! - the JSON carries the contract's keys (docs/CONTRACTS.md).
//!
//! A game added to the registry without a row fails
//! `every_registered_game_has_a_row`. What is particular to a game (its
//! published figures, its rules checked against independent players, its
//! snapshots) stays in its own module.

use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde_json::Value;

use clap::CommandFactory;
use deckodds::cli::Cli;
use deckodds::games::klondike::sorted_deck;
use deckodds::games::registry::{self, GAMES, GameEntry};

use crate::support::{deckodds, run_line};

/// What the generic checks need of one game. Every line is the words
/// after the game's id.
struct Row {
    game: &'static GameEntry,
    /// Monte-Carlo lines without `--seed`, each with its seed, run over
    /// more than one chunk (65,536 trials for most commands) with a short
    /// last one.
    threads: Vec<(String, u64)>,
    /// Comparisons of Monte Carlo with the exact distribution, as JSON.
    agreements: Vec<Agreement>,
    /// Exact lines without `--engine`, run with `--engine memo` and
    /// `--engine exhaustive`.
    engines: Vec<String>,
    /// Bad input and the text its error line holds. Text starting with
    /// `error: ` must start the line.
    bad_input: Vec<(String, &'static str)>,
    /// Lines whose `--format json` output is checked against the
    /// contract.
    json: Vec<String>,
}

/// A comparison of Monte Carlo with exact and its tolerance: every row's
/// p-value above `level` (the line's `--level`), its verdict agreement,
/// and, where given, its largest |z| below `max_z`.
struct Agreement {
    line: String,
    level: f64,
    max_z: Option<f64>,
}

/// Every line of `lines` under every variant of `variants`, appended.
fn every<S: AsRef<str>>(lines: &[S], variants: &[&str]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|line| {
            variants
                .iter()
                .map(move |variant| format!("{} {variant}", line.as_ref()))
        })
        .collect()
}

/// `--SUITS s --RANKS r` (the options' names given with their ranges) for
/// every deck of at most `max_cards` cards in the ranges.
fn decks(
    suits: (&str, std::ops::RangeInclusive<u8>),
    ranks: (&str, std::ops::RangeInclusive<u8>),
    max_cards: usize,
) -> Vec<String> {
    let mut lines = Vec::new();
    for s in suits.1.clone() {
        for r in ranks.1.clone() {
            if usize::from(s) * usize::from(r) <= max_cards {
                lines.push(format!("--{} {s} --{} {r}", suits.0, ranks.0));
            }
        }
    }
    lines
}

fn agreements(lines: Vec<String>, level: f64, max_z: Option<f64>) -> Vec<Agreement> {
    lines
        .into_iter()
        .map(|line| Agreement {
            line: format!("{line} --level {level}"),
            level,
            max_z,
        })
        .collect()
}

fn owned(cases: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    cases
        .iter()
        .map(|&(line, text)| (line.to_string(), text))
        .collect()
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|line| line.to_string()).collect()
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            game: &registry::BLACKJACK,
            threads: vec![
                ("mc --trials 200000 --h17 --decks 6".into(), 42),
                ("mc --trials 300001 --decks 6".into(), 11),
            ],
            // One million hands per upcard, at level 0.001 per upcard
            // (40 upcard tests: a correct engine fails a fresh seed about
            // 4% of the time, a misplayed soft 17 moves cells by 1-2
            // points, z > 30).
            agreements: agreements(
                strings(&[
                    "compare --trials 1000000 --seed 2026",
                    "compare --decks inf --h17 --trials 1000000 --seed 7",
                    "compare --decks 1 --h17 --peek --remove 10,10,6,A --trials 1000000 --seed 99",
                    "compare --scoring sorted-fold --trials 1000000 --seed 151",
                ]),
                0.001,
                None,
            ),
            engines: Vec::new(),
            bad_input: owned(&[
                ("exact --decks 0", "error: --decks 0"),
                ("exact --decks x", "error: --decks x"),
                ("exact --decks 65", "error: --decks 65"),
                ("exact --remove 11", "error: --remove 11"),
                (
                    "exact --decks 1 --remove 5,5,5,5,5",
                    "removes 5 cards of value 5",
                ),
                ("mc --trials 0", "error: --trials 0"),
                ("exact --format xlsx", "error: --format xlsx"),
                ("mc --threads 0", "error: --threads 0"),
                ("eor --outcome 22", "error: --outcome 22"),
                ("exact --scoring lax", "error: --scoring lax"),
                ("exact --bogus", "--bogus"),
                // The player's commands (RULES.md section 6).
                ("player --max-hands 5", "error: --max-hands 5"),
                ("player --bj-pays 2:1", "error: --bj-pays 2:1"),
                ("player --double 8-11", "error: --double 8-11"),
                ("player --hand AX --upcard T", "error: --hand AX"),
                ("player --upcard 1", "error: --upcard 1"),
                (
                    "player --resplit-aces --max-hands 2",
                    "error: --resplit-aces x --max-hands yes x 2",
                ),
                ("player --decks 0", "error: --decks 0"),
                ("player --decks 9", "error: --decks 9"),
                ("player --hand A7", "error: --hand A7"),
                ("player --float --format svg", "draws no chart"),
                (
                    "house-edge --surrender sometimes",
                    "error: --surrender sometimes",
                ),
                ("house-edge --exact-eor --float", "--exact-eor"),
                ("strategy --split-model cdq", "error: --split-model cdq"),
                ("player compare --trials 0", "error: --trials 0"),
                (
                    "player compare --split-model cdp --trials 10",
                    "error: --split-model cdp",
                ),
                ("house-edge-grid --split-model x", "error: --split-model x"),
                ("house-edge-grid --format svg", "draws no chart"),
                // The table (RULES.md section 6, "At the table"); chart and
                // claim files: blackjack_table_cli.rs.
                ("table --penetration 0", "error: --penetration 0: must be"),
                (
                    "table --penetration 1.5",
                    "error: --penetration 1.5: must be",
                ),
                (
                    "table --penetration abc",
                    "error: --penetration abc: must be",
                ),
                (
                    "table --penetration 0.95 --decks 1",
                    "error: --penetration 0.95: the cut card comes after round(P x 52) cards, which must be 1..=48",
                ),
                (
                    "table --penetration 1 --decks 8",
                    "P at most about 0.9904 for a shoe of 416 cards",
                ),
                ("table --rounds-per-shoe 0", "error: --rounds-per-shoe 0"),
                (
                    "table --rounds-per-shoe 14 --decks 1",
                    "error: --rounds-per-shoe 14: must be 1..=13",
                ),
                (
                    "table --penetration 0.5 --rounds-per-shoe 2",
                    "'--penetration <P>' cannot be used with '--rounds-per-shoe <K>'",
                ),
                ("table --decks inf", "error: --decks inf: a table deals"),
                ("table --decks 9", "error: --decks 9"),
                ("table --count nope", "error: --count nope: must be one of"),
                ("table --count 1,1,1", "error: --count 1,1,1"),
                (
                    "table --count hi-lo --true-count ceil",
                    "error: --true-count ceil: must be one of floor, truncate, round",
                ),
                (
                    "table --count hi-lo --deck-estimation quarter",
                    "error: --deck-estimation quarter: must be one of perfect, half, whole",
                ),
                ("table --true-count round", "--count"),
                ("table --deck-estimation half", "--count"),
                ("table --strategy=", "error: --strategy"),
                ("table --trials 0", "error: --trials 0"),
                ("table --bj-pays 2:1", "error: --bj-pays 2:1"),
                ("table compare --penetration 0", "error: --penetration 0"),
                (
                    "table compare --rounds-per-shoe 14 --decks 1",
                    "error: --rounds-per-shoe 14",
                ),
                ("table compare --decks inf", "error: --decks inf"),
                ("table compare --level 2", "error: --level 2"),
            ]),
            json: strings(&[
                "exact --remove 10,10,6",
                "mc --trials 20000 --seed 3",
                "compare --trials 20000 --seed 3",
            ]),
        },
        Row {
            game: &registry::IDIOTS_DELIGHT,
            threads: vec![
                ("mc --trials 300000".into(), 9),
                ("mc --trials 205000 --shuffle uniform".into(), 42),
                ("mc --trials 205000 --shuffle naive".into(), 42),
                ("mc --trials 205000 --shuffle naive-carry".into(), 42),
            ],
            // 400,000 games a deck: about 60 bins tested in all, so a
            // correct engine fails with probability about 1e-4, while a
            // wrong rule moves whole percentage points (|z| in the
            // hundreds).
            agreements: agreements(
                [
                    (2, 4, 1),
                    (3, 3, 2),
                    (4, 2, 3),
                    (4, 3, 4),
                    (3, 4, 5),
                    (2, 6, 6),
                    (5, 2, 7),
                    (2, 8, 8),
                ]
                .iter()
                .map(|(s, r, seed)| {
                    format!("compare --suits {s} --ranks {r} --trials 400000 --seed {seed}")
                })
                .collect(),
                1e-6,
                Some(5.0),
            ),
            // Every deck of at most 11 cards: canonical keys and a pruned
            // memo, dealing card by card, against every arrangement through
            // the eight-lane driver of Monte Carlo. (At 12 cards every deck
            // has 479 million arrangements to play, 14 s each on two
            // cores: 85 s of the suite for no shape the 11-card decks
            // leave out.)
            engines: decks(("suits", 1..=11), ("ranks", 1..=11), 11)
                .into_iter()
                .map(|deck| format!("exact {deck}"))
                .collect(),
            bad_input: owned(&[
                ("mc --suits 0", "error: --suits 0:"),
                ("mc --ranks 0", "error: --ranks 0:"),
                ("mc --ranks 14", "error: --ranks 14:"),
                (
                    "mc --suits 16 --ranks 13",
                    "error: --suits x --ranks 16x13:",
                ),
                ("exact --suits x", "error: --suits x:"),
                ("mc --shuffle riffle", "error: --shuffle riffle:"),
                ("compare --shuffle riffle", "error: --shuffle riffle:"),
                ("exact", "error: --suits x --ranks 4x13:"),
                ("exact --suits 4 --ranks 5", "error: --suits x --ranks 4x5:"),
                (
                    "exact --suits 3 --ranks 3 --engine magic",
                    "error: --engine magic:",
                ),
                (
                    "exact --suits 2 --ranks 2 --shuffle naive-carry",
                    "error: --shuffle naive-carry:",
                ),
                (
                    "exact --suits 4 --ranks 3 --shuffle naive",
                    "error: --suits x --ranks 4x3:",
                ),
                (
                    "exact --suits 2 --ranks 2 --engine exhaustive --shard 4/4",
                    "error: --shard 4/4:",
                ),
                (
                    "compare --suits 2 --ranks 2 --published sas",
                    "error: --published sas:",
                ),
                ("power --shuffle uniform", "error: --shuffle uniform:"),
                ("mc --trials 0", "error: --trials 0:"),
                ("compare", "error: --suits x --ranks 4x13:"),
            ]),
            json: strings(&[
                "exact --suits 2 --ranks 4",
                "mc --trials 20000 --seed 3 --shuffle naive-carry",
                "compare --suits 3 --ranks 3 --trials 20000 --seed 3",
            ]),
        },
        Row {
            game: &registry::ROLL_CALL,
            threads: vec![("mc --trials 200001".into(), 9)],
            // Every distribution of every version, at level 1e-6 each.
            agreements: agreements(
                every(
                    &[
                        "compare --ranks 3 --copies 3 --trials 200000 --seed 1",
                        "compare --ranks 4 --copies 2 --trials 200000 --seed 2",
                        "compare --ranks 5 --copies 2 --trials 200000 --seed 3",
                        "compare --ranks 4 --copies 3 --trials 200000 --seed 4",
                    ],
                    &[
                        "--count continuous --order same",
                        "--count continuous --order reversed",
                        "--count restart --order same",
                        "--count restart --order reversed",
                    ],
                ),
                1e-6,
                Some(5.0),
            ),
            engines: Vec::new(),
            bad_input: owned(&[
                ("mc --ranks 1", "--ranks 1:"),
                ("mc --copies 0", "--copies 0:"),
                ("mc --ranks 13 --copies 5", "--ranks x --copies"),
                ("mc --count sometimes", "--count sometimes:"),
                ("mc --order shuffled", "--order shuffled:"),
                ("compare --with luck", "--with luck:"),
                ("exact", "--ranks x --copies"),
                ("replay --ranks 3 --copies 1 --deal 1,2", "--deal"),
                ("replay --ranks 3 --copies 1 --deal 1,2,2", "--deal"),
                ("replay --ranks 3 --copies 1 --deal 1,2,Z", "--deal Z:"),
            ]),
            json: strings(&[
                "exact --ranks 3 --copies 2",
                "mc --trials 20000 --seed 3",
                "compare --ranks 3 --copies 2 --trials 20000 --seed 3",
            ]),
        },
        Row {
            game: &registry::PRISONERS_PATIENCE,
            threads: vec![
                ("mc --trials 200001 --stack-move reversed".into(), 9),
                ("mc --trials 200001 --stack-move kept".into(), 9),
                (
                    "solve --trials 300 --suits 3 --ranks 6 --stack-move kept".into(),
                    1,
                ),
            ],
            agreements: agreements(
                every(
                    &[
                        "compare --suits 2 --ranks 5 --trials 200000 --seed 1",
                        "compare --suits 3 --ranks 4 --trials 200000 --seed 2",
                        "compare --suits 2 --ranks 6 --trials 200000 --seed 3",
                        "compare --suits 1 --ranks 10 --trials 200000 --seed 4",
                        "compare --suits 4 --ranks 3 --trials 200000 --seed 5",
                    ],
                    &["--stack-move reversed", "--stack-move kept"],
                ),
                1e-6,
                Some(5.0),
            ),
            // Every deck of at most 11 cards, both rules: states merged
            // under the rank cycle's symmetries against every distinct
            // arrangement played. (One suit of 12 ranks has 479 million
            // arrangements, about 50 s a rule on two cores.)
            engines: every(
                &decks(("suits", 1..=4), ("ranks", 3..=11), 11),
                &["--stack-move reversed", "--stack-move kept"],
            )
            .into_iter()
            .map(|deck| format!("exact {deck}"))
            .collect(),
            bad_input: owned(&[
                ("mc --ranks 2", "--ranks 2:"),
                ("mc --suits 0", "--suits 0:"),
                ("mc --suits 5", "--suits x --ranks"),
                ("mc --stack-move sideways", "--stack-move sideways:"),
                (
                    "exact --engine magic --suits 1 --ranks 5",
                    "--engine magic:",
                ),
                ("exact", "--suits x --ranks"),
                (
                    "exact --engine exhaustive --suits 2 --ranks 10",
                    "--suits x --ranks",
                ),
                ("compare --with luck", "--with luck:"),
                (
                    "compare --with seed --suits 1 --ranks 5",
                    "--suits x --ranks",
                ),
                ("replay --suits 1 --ranks 3 --deal 1,2", "--deal"),
                ("replay --suits 1 --ranks 3 --deal 1,2,2", "--deal"),
                ("replay --suits 1 --ranks 3 --deal 1,2,Z", "--deal Z:"),
                (
                    "exact --suits 1 --ranks 5 --format md --out never.md --out never.json",
                    "--format md:",
                ),
                ("solve", "--deal, --trials or --every"),
                ("solve --every", "--suits x --ranks"),
                ("solve --suits 1 --ranks 3 --deal 1,1,2", "--deal"),
                ("solve --trials 10 --max-nodes 0", "--max-nodes 0:"),
            ]),
            json: strings(&[
                "exact --suits 2 --ranks 4 --stack-move kept",
                "mc --trials 20000 --seed 3",
                "compare --suits 2 --ranks 4 --trials 20000 --seed 3",
                "solve --every --suits 1 --ranks 7",
                "solve --trials 200 --seed 3 --suits 3 --ranks 5",
            ]),
        },
        Row {
            game: &registry::KLONDIKE,
            threads: vec![
                ("mc --trials 200001 --draw 1 --passes 1".into(), 11),
                ("mc --trials 200001 --draw 3 --passes 3".into(), 11),
            ],
            agreements: Vec::new(),
            engines: Vec::new(),
            bad_input: klondike_bad_input(),
            json: strings(&["mc --trials 20000 --seed 4 --passes 2"]),
        },
    ]
}

/// Klondike's bad input, with 52-card deals made wrong three ways.
fn klondike_bad_input() -> Vec<(String, &'static str)> {
    let deck: Vec<String> = sorted_deck().iter().map(|c| c.to_string()).collect();
    let short = deck[1..].join(",");
    let twice = format!("{},{}", deck[0], deck[..51].join(","));
    let mut odd = deck.clone();
    odd[7] = "1X".into();
    let odd = odd.join(",");
    let mut cases = owned(&[
        ("mc --draw 2", "--draw 2:"),
        ("mc --draw x", "--draw x:"),
        ("mc --passes 0", "--passes 0:"),
        ("mc --passes 300", "--passes 300:"),
        ("mc --trials 0", "--trials 0:"),
        ("record --games 0", "--games 0:"),
        ("record --games 1001", "--games 1001:"),
        ("record --seed x", "--seed x:"),
    ]);
    cases.extend([
        // Contradictory options, refused by the parser.
        (
            format!("record --went-out --deal {}", deck.join(",")),
            "--went-out",
        ),
        (
            format!("record --deal {short} --out never.txt"),
            "--deal has 51 cards (missing AC):",
        ),
        (
            format!("record --deal {twice} --out never.txt"),
            "--deal has AC twice:",
        ),
        (format!("record --deal {odd}"), "--deal 1X:"),
        (
            format!("record --draw 2 --deal {}", deck.join(",")),
            "--draw 2:",
        ),
    ]);
    cases
}

/// `game`'s id and `line` as one command line.
fn command(game: &GameEntry, line: &str) -> String {
    format!("{} {line}", game.id)
}

/// The value of `--name` in `line`, if it is there.
fn option<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .find(|pair| pair[0] == name)
        .map(|pair| pair[1])
}

#[test]
fn every_registered_game_has_a_row() {
    let ids: Vec<&str> = rows().iter().map(|row| row.game.id).collect();
    let registered: Vec<&str> = GAMES.iter().map(|game| game.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "a game with two rows: {ids:?}");
    for id in &registered {
        assert!(
            ids.contains(id),
            "{id} has no row in tests/integration/games.rs"
        );
    }
    assert_eq!(ids.len(), registered.len());
    // Every game gets the checks that apply to every game.
    for row in rows() {
        assert!(!row.threads.is_empty(), "{}: no thread check", row.game.id);
        assert!(!row.bad_input.is_empty(), "{}: no bad input", row.game.id);
        assert!(!row.json.is_empty(), "{}: no JSON check", row.game.id);
    }
}

/// Counts are identical for 1, 2 and 8 threads, and a different seed
/// changes them (so the runs are not empty or constant).
#[test]
fn monte_carlo_counts_do_not_depend_on_threads() {
    for row in rows() {
        for (line, seed) in &row.threads {
            let csv = |threads: u32, seed: u64| {
                run_line(&format!(
                    "{} --seed {seed} --threads {threads} --format csv --quiet",
                    command(row.game, line)
                ))
            };
            let one = csv(1, *seed);
            assert_eq!(csv(2, *seed), one, "{} {line}: 2 threads", row.game.id);
            assert_eq!(csv(8, *seed), one, "{} {line}: 8 threads", row.game.id);
            assert_ne!(
                csv(2, seed + 1),
                one,
                "{} {line}: the seed must matter",
                row.game.id
            );
        }
    }
}

#[test]
fn monte_carlo_agrees_with_exact() {
    for row in rows() {
        for agreement in &row.agreements {
            let line = command(row.game, &agreement.line);
            let report: Value =
                serde_json::from_str(&run_line(&format!("{line} --format json --quiet"))).unwrap();
            let trials: u64 = option(&line, "--trials").unwrap().parse().unwrap();
            let rows = report["rows"].as_array().unwrap();
            assert!(!rows.is_empty(), "{line}");
            for result in rows {
                let p = result["p_value"].as_f64().unwrap();
                // null where no outcome the test kept whole has a z-score.
                let z = result["max_abs_z"].as_f64();
                assert!(
                    p > agreement.level && result["verdict"] == "agree",
                    "{line}: {}: p = {p}, max |z| = {z:?}",
                    result["key"]
                );
                if let Some(bound) = agreement.max_z {
                    assert!(
                        z.is_none_or(|z| z < bound),
                        "{line}: {}: max |z| = {z:?}",
                        result["key"]
                    );
                }
                assert_eq!(result["trials"], trials, "{line}: {}", result["key"]);
            }
        }
    }
}

#[test]
fn memoised_and_exhaustive_enumerators_print_the_same_json() {
    for row in rows() {
        for line in &row.engines {
            let json = |engine: &str| {
                run_line(&format!(
                    "{} --engine {engine} --format json --quiet",
                    command(row.game, line)
                ))
                .replace(&format!("\"engine\": \"{engine}\""), "\"engine\": _")
            };
            let memo = json("memo");
            assert!(memo.contains("\"engine\": _"), "{line}: {memo}");
            assert_eq!(memo, json("exhaustive"), "{} {line}", row.game.id);
        }
    }
}

/// Whether `game`'s subcommand `name` writes files (takes `--out`).
fn takes_out(game: &GameEntry, name: &str) -> bool {
    Cli::command()
        .find_subcommand(game.id)
        .and_then(|command| command.find_subcommand(name))
        .is_some_and(|command| command.get_arguments().any(|a| a.get_long() == Some("out")))
}

/// One line on stderr naming the value, exit status 2, nothing on stdout
/// and no file: each line runs in an empty directory, with `--out
/// out.txt` if its command writes files and it names none, and leaves the
/// directory empty.
#[test]
fn bad_input_gets_one_line_and_exit_status_2() {
    for row in rows() {
        for (words, expected) in &row.bad_input {
            let line = command(row.game, words);
            let directory = tempfile::tempdir().unwrap();
            let mut run = deckodds();
            run.current_dir(directory.path())
                .args(line.split_whitespace());
            let subcommand = words.split_whitespace().next().unwrap();
            if option(&line, "--out").is_none() && takes_out(row.game, subcommand) {
                run.args(["--out", "out.txt"]);
            }
            let output = run.output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{line}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{line}: {stderr}");
            assert!(stderr.starts_with("error: "), "{line}: {stderr}");
            if expected.starts_with("error: ") {
                assert!(stderr.starts_with(expected), "{line}: {stderr}");
            } else {
                assert!(stderr.contains(expected), "{line}: {stderr}");
            }
            assert!(output.stdout.is_empty(), "{line}");
            let left: Vec<_> = std::fs::read_dir(directory.path()).unwrap().collect();
            assert!(left.is_empty(), "{line} left {left:?}");
        }
    }
}

#[test]
fn json_carries_the_contract_keys() {
    for row in rows() {
        for line in &row.json {
            let line = command(row.game, line);
            let json: Value =
                serde_json::from_str(&run_line(&format!("{line} --format json --quiet"))).unwrap();
            if json.get("comparison").is_some() {
                check_comparison(&line, &json);
            } else {
                check_report(&line, &json, row.game);
            }
        }
    }
}

/// A report of distributions, as docs/CONTRACTS.md describes it.
fn check_report(line: &str, json: &Value, game: &GameEntry) {
    assert_eq!(json["game"], game.report_name, "{line}");
    assert!(json["params"].is_object(), "{line}");
    let distributions = json["distributions"].as_array().unwrap();
    assert!(!distributions.is_empty(), "{line}");
    match json["method"].as_str() {
        Some("exact") => {
            assert!(json["seed"].is_null() && json["trials"].is_null(), "{line}");
            for distribution in distributions {
                check_exact(line, distribution);
            }
        }
        Some("monte-carlo") => {
            let seed: u64 = option(line, "--seed").map_or(1, |s| s.parse().unwrap());
            assert_eq!(json["seed"], seed, "{line}");
            let trials = json["trials"].as_u64().unwrap();
            if let Some(asked) = option(line, "--trials") {
                assert_eq!(trials, asked.parse::<u64>().unwrap(), "{line}");
            }
            for distribution in distributions {
                check_counts(line, distribution, trials);
            }
        }
        other => panic!("{line}: method {other:?}"),
    }
    for item in json
        .get("summary")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        assert!(
            item["key"].is_string() && item["label"].is_string(),
            "{line}: {item}"
        );
    }
}

fn labelled<'a>(line: &str, distribution: &'a Value) -> (&'a str, &'a Vec<Value>) {
    let key = distribution["key"]
        .as_str()
        .unwrap_or_else(|| panic!("{line}: no key"));
    let outcomes = distribution["outcomes"].as_array().unwrap();
    assert!(!outcomes.is_empty(), "{line}: {key}");
    for outcome in outcomes {
        assert!(outcome["outcome"].is_string(), "{line}: {key}: {outcome}");
    }
    (key, outcomes)
}

/// Exact outcomes: reduced fractions that sum to exactly 1, each with its
/// value; a mean, if any, exact too.
fn check_exact(line: &str, distribution: &Value) {
    let (key, outcomes) = labelled(line, distribution);
    let fraction = |value: &Value| -> BigRational {
        let text = value["probability"]
            .as_str()
            .unwrap_or_else(|| panic!("{line}: {key}: {value}"));
        let parsed: BigRational = text.parse().unwrap();
        assert_eq!(parsed.to_string(), text, "{line}: {key}: not reduced");
        let float = value["value"].as_f64().unwrap();
        assert!(
            (parsed.to_f64().unwrap() - float).abs() <= 1e-12 * float.abs().max(1.0),
            "{line}: {key}: {text} is not {float}"
        );
        parsed
    };
    let sum = outcomes
        .iter()
        .map(fraction)
        .fold(BigRational::zero(), |sum, p| sum + p);
    assert!(sum.is_one(), "{line}: {key} sums to {sum}");
    if let Some(mean) = distribution.get("mean") {
        fraction(mean);
    }
}

/// Monte-Carlo outcomes: counts that add up to the trials, each estimate
/// its count over the trials inside its 95% interval; a mean, if any, with
/// its standard error and interval.
fn check_counts(line: &str, distribution: &Value, trials: u64) {
    let (key, outcomes) = labelled(line, distribution);
    let mut total = 0;
    for outcome in outcomes {
        let count = outcome["count"].as_u64().unwrap();
        total += count;
        let estimate = outcome["estimate"].as_f64().unwrap();
        assert!(
            (estimate - count as f64 / trials as f64).abs() < 1e-12,
            "{line}: {outcome}"
        );
        let (low, high) = (
            outcome["ci95"][0].as_f64().unwrap(),
            outcome["ci95"][1].as_f64().unwrap(),
        );
        assert!(
            low <= estimate && estimate <= high,
            "{line}: {key}: {outcome}"
        );
    }
    assert_eq!(total, trials, "{line}: {key}");
    if let Some(mean) = distribution.get("mean") {
        let estimate = mean["estimate"].as_f64().unwrap();
        assert!(
            mean["standard_error"].as_f64().unwrap() > 0.0,
            "{line}: {mean}"
        );
        let (low, high) = (
            mean["ci95"][0].as_f64().unwrap(),
            mean["ci95"][1].as_f64().unwrap(),
        );
        assert!(low < estimate && estimate < high, "{line}: {key}: {mean}");
    }
}

/// A comparison: its kind, title, level, and rows with a verdict.
fn check_comparison(line: &str, json: &Value) {
    assert!(
        json["comparison"].is_string() && json["title"].is_string(),
        "{line}"
    );
    let level: f64 = option(line, "--level").map_or(0.001, |l| l.parse().unwrap());
    assert_eq!(json["level"].as_f64(), Some(level), "{line}");
    let rows = json["rows"].as_array().unwrap();
    assert!(!rows.is_empty(), "{line}");
    for row in rows {
        assert!(row["key"].is_string(), "{line}: {row}");
        assert!(
            matches!(row["verdict"].as_str(), Some("agree" | "disagree")),
            "{line}: {row}"
        );
    }
}

/// The checker of the contract is no rubber stamp.
#[test]
fn the_json_checks_catch_what_they_are_for() {
    let exact = |probabilities: &[&str]| {
        serde_json::json!({"key": "k", "outcomes": probabilities.iter().map(|p| {
            let value: BigRational = p.parse().unwrap();
            serde_json::json!({"outcome": "0", "probability": p, "value": value.to_f64().unwrap()})
        }).collect::<Vec<_>>()})
    };
    check_exact("good", &exact(&["1/3", "2/3"]));
    let fails =
        |work: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).is_err();
    assert!(fails(&|| check_exact("short", &exact(&["1/3", "1/3"]))));
    assert!(fails(&|| check_exact("unreduced", &exact(&["2/6", "2/3"]))));
    let counts = |counts: &[u64], trials: u64| {
        serde_json::json!({"key": "k", "outcomes": counts.iter().map(|&c| {
            let p = c as f64 / trials as f64;
            serde_json::json!({"outcome": "0", "count": c, "estimate": p, "ci95": [p - 0.01, p + 0.01]})
        }).collect::<Vec<_>>()})
    };
    check_counts("good", &counts(&[3, 7], 10), 10);
    assert!(fails(&|| check_counts("lost", &counts(&[3, 6], 10), 10)));
}
