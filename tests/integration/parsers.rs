//! Every parser of user input, fed at least 10^4 random and mutated inputs
//! each: it must return a value or a one-line error, and never panic.
//!
//! Mutated inputs start from real ones (the published tables and analysis
//! specs of this repository, well-formed values) and apply a few random
//! edits: characters deleted, inserted, replaced or duplicated, the text
//! cut short, or a token that parsers find hard (an unclosed quote, a huge
//! or negative number, a byte-order mark) spliced in. That reaches the deep
//! branches a purely random string never gets past the first line to.

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use deckodds::analysis::Spec;
use deckodds::cards::{parse_card, parse_rank};
use deckodds::commands::input;
use serde_json::Value;

use crate::support::{deckodds, fnv1a64};
use deckodds::compare::PublishedTable;
use deckodds::distribution::parse_count_table;
use deckodds::engine::Shard;
use deckodds::error::Error;
use deckodds::games::blackjack::{DealerParams, Decks, Scoring, parse_value};
use deckodds::games::prisoners_patience::StackMove;
use deckodds::games::roll_call::{Count, PassOrder};
use deckodds::report::Format;
use deckodds::rng::Shuffle;

/// Inputs per parser.
const CASES: u32 = 10_000;

/// Tokens that have broken parsers elsewhere, spliced into inputs.
const HARD_TOKENS: &[&str] = &[
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ",,",
    "\n",
    "\r\n",
    "\t",
    "\u{feff}",
    "%",
    "-",
    "-1",
    "-0",
    "0",
    "1e999",
    "1e-999",
    "NaN",
    "inf",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999",
    "0.0000000001",
    "1_000",
    "#",
    "\\",
    "é",
    "♠",
    "\u{0}",
    " ",
];

/// One edit of a text, its positions taken modulo the text's length.
#[derive(Clone, Debug)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, c: char },
    Replace { at: usize, c: char },
    Duplicate { at: usize, len: usize },
    Truncate { at: usize },
    Splice { at: usize, token: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        (at, 1..20usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        (at, any::<char>()).prop_map(|(at, c)| Edit::Insert { at, c }),
        (at, any::<char>()).prop_map(|(at, c)| Edit::Replace { at, c }),
        (at, 1..40usize).prop_map(|(at, len)| Edit::Duplicate { at, len }),
        at.prop_map(|at| Edit::Truncate { at }),
        (at, any::<usize>()).prop_map(|(at, token)| Edit::Splice { at, token }),
    ]
}

/// `text` with `edits` applied in order (on characters, so the result is
/// always valid UTF-8, as every input a user can give is).
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let n = chars.len();
        let at = |at: usize| if n == 0 { 0 } else { at % (n + 1) };
        match *edit {
            Edit::Delete { at: a, len } => {
                let start = at(a).min(n);
                chars.drain(start..(start + len).min(n));
            }
            Edit::Insert { at: a, c } => chars.insert(at(a), c),
            Edit::Replace { at: a, c } => {
                if n > 0 {
                    chars[a % n] = c;
                }
            }
            Edit::Duplicate { at: a, len } => {
                let start = at(a).min(n);
                let copy: Vec<char> = chars[start..(start + len).min(n)].to_vec();
                chars.splice(start..start, copy);
            }
            Edit::Truncate { at: a } => chars.truncate(at(a)),
            Edit::Splice { at: a, token } => {
                let token = HARD_TOKENS[token % HARD_TOKENS.len()];
                let start = at(a);
                chars.splice(start..start, token.chars());
            }
        }
    }
    chars.into_iter().collect()
}

/// Random text, or one of `seeds` with one to six edits.
fn inputs(seeds: Vec<String>) -> impl Strategy<Value = String> {
    assert!(!seeds.is_empty());
    let mutated = (0..seeds.len(), proptest::collection::vec(edit(), 1..=6))
        .prop_map(move |(i, edits)| apply(&seeds[i], &edits));
    prop_oneof![
        1 => "\\PC{0,60}",
        1 => any::<String>(),
        4 => mutated,
    ]
}

/// Feeds `CASES` inputs to `parse`, which returns `Err(message)` for input
/// it refuses: every call must return (no panic), and every message must
/// be one non-empty line.
fn check_parser(name: &str, seeds: Vec<String>, parse: impl Fn(&str) -> Result<(), String>) {
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    // The seeds themselves are well-formed, or the test would prove little.
    for seed in &seeds {
        if let Err(message) = parse(seed) {
            panic!("{name}: a seed input is refused ({message}): {seed:?}");
        }
    }
    let result = runner.run(&inputs(seeds), |text| {
        if let Err(message) = parse(&text) {
            prop_assert!(
                !message.trim().is_empty() && !message.contains('\n'),
                "{name}: not a one-line error for {text:?}: {message:?}"
            );
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{name}: {failure}");
    }
}

/// A parser's message about a file, as the user sees it (the command adds
/// the file's name).
fn in_file(message: String) -> String {
    Error::BadInputFile {
        path: "published.csv".into(),
        message,
    }
    .to_string()
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn repository_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn cards_and_ranks() {
    check_parser(
        "card",
        words(&["AS", "10H", "td", "Q♣", "K♠", "7D", "2c"]),
        |text| parse_card(text).map(drop).map_err(|e| e.to_string()),
    );
    check_parser(
        "rank",
        words(&["A", "ace", "10", "T", "j", "13", "1"]),
        |text| {
            let _ = parse_rank(text);
            let _ = parse_value(text);
            Ok(())
        },
    );
}

#[test]
fn blackjack_rule_values() {
    check_parser("--decks", words(&["2", "inf", "64", "1"]), |text| {
        Decks::parse(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser(
        "--remove",
        words(&["10 10 6", "A,K", "", "2 2 2", "T J Q K"]),
        |text| {
            DealerParams::parse_removed(text)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
    check_parser("--scoring", words(&["correct", "sorted-fold"]), |text| {
        Scoring::parse(text).map(drop).map_err(|e| e.to_string())
    });
}

#[test]
fn option_words() {
    check_parser("--shard", words(&["0/4", "3/4", "12/100"]), |text| {
        Shard::parse(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser(
        "--format",
        words(&["table", "md", "csv", "json", "latex"]),
        |text| Format::parse(text).map(drop).map_err(|e| e.to_string()),
    );
    check_parser(
        "--shuffle",
        words(&["uniform", "naive", "naive-carry"]),
        |text| Shuffle::parse(text).map(drop).map_err(|e| e.to_string()),
    );
    check_parser("--stack-move", words(&["reversed", "kept"]), |text| {
        StackMove::parse(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser("--count", words(&["continuous", "restart"]), |text| {
        Count::parse(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser("--order", words(&["same", "reversed"]), |text| {
        PassOrder::parse(text).map(drop).map_err(|e| e.to_string())
    });
}

/// Blackjack's published tables of percentages (`compare --published`).
#[test]
fn published_blackjack_tables() {
    let seeds = vec![
        repository_file("analysis/published/quiz151-exact.csv"),
        repository_file("analysis/published/quiz151-simulation.csv"),
    ];
    let row_key = |label: &str| {
        let upcard = parse_value(label)?;
        Some(format!("upcard={upcard}"))
    };
    check_parser("published blackjack table", seeds, |text| {
        PublishedTable::parse_csv(text, &row_key)
            .map(drop)
            .map_err(in_file)
    });
}

/// Idiot's Delight's published tables of counts (`compare --published`).
#[test]
fn published_count_tables() {
    let outcomes: Vec<String> = (0..=52).step_by(2).map(|n: i32| n.to_string()).collect();
    let mut sas = String::from("cards_left,count\n");
    for (n, count) in (0..=52).step_by(2).zip(1u64..) {
        sas.push_str(&format!("{n},{}\n", count * 7057));
    }
    let seeds = vec![sas.replace('\n', "\r\n"), sas];
    check_parser("published count table", seeds, |text| {
        parse_count_table(text, &outcomes)
            .map(drop)
            .map_err(in_file)
    });
}

/// Analysis specs (`reproduce`), seeded with every spec in analysis/.
#[test]
fn analysis_specs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let mut seeds = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            seeds.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    assert!(seeds.len() >= 30, "{} specs", seeds.len());
    let path = dir.join("fuzzed.toml");
    check_parser("analysis spec", seeds, |text| {
        Spec::parse(&path, text)
            .map(drop)
            .map_err(|e| e.to_string())
    });
}

/// The values of options that the command layer parses: counts, seeds,
/// levels, and deals of ranks and of cards.
#[test]
fn option_values() {
    check_parser(
        "--trials",
        words(&["1000000", "1_000_000", "1e6", "25E2"]),
        |text| {
            input::parse_count("--trials", text)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
    check_parser(
        "--seed",
        words(&["1", "18446744073709551615", "1_000"]),
        |text| input::parse_seed(text).map(drop).map_err(|e| e.to_string()),
    );
    check_parser("--level", words(&["0.001", "0.05", "1e-9"]), |text| {
        input::parse_level(text)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    check_parser(
        "--deal (ranks)",
        words(&["A 5 K 7 2 2 3", "1,13,12", "T J Q K"]),
        |text| {
            input::parse_rank_deal(text)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
    let deck: Vec<String> = ["C", "D", "H", "S"]
        .iter()
        .flat_map(|suit| {
            [
                "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
            ]
            .iter()
            .map(move |rank| format!("{rank}{suit}"))
        })
        .collect();
    let mut reversed = deck.clone();
    reversed.reverse();
    check_parser(
        "--deal (cards)",
        vec![deck.join(" "), reversed.join(",")],
        |text| {
            input::parse_card_deal(text)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
}

/// Checkpoints (`--resume`), seeded with real ones; each mutated input is
/// tried as it is and with its checksum made to match again (as a careful
/// forger would), so that the checks behind the checksum are reached too.
#[test]
fn checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let mut seeds = Vec::new();
    let mut commands = Vec::new();
    for (k, args) in [
        "klondike mc --trials 300000 --seed 3",
        "roll-call compare --with order --trials 200000",
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("run-{k}.checkpoint"));
        let output = deckodds()
            .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1")
            .args(args.split_whitespace())
            .arg("--checkpoint")
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(130), "{output:?}");
        let text = std::fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let command: Vec<String> = value["command"]
            .as_array()
            .unwrap()
            .iter()
            .map(|word| word.as_str().unwrap().to_string())
            .collect();
        seeds.push(text);
        commands.push(command);
    }
    check_parser("checkpoint", seeds, |text| {
        let mut results: Vec<Result<(), String>> = commands
            .iter()
            .map(|command| input::check_checkpoint(text, command).map_err(in_file))
            .collect();
        let as_is = results.iter().find(|r| r.is_ok()).cloned();
        if let Ok(mut value) = serde_json::from_str::<Value>(text)
            && let Some(object) = value.as_object_mut()
        {
            object.remove("checksum");
            let sum = fnv1a64(serde_json::to_string(&value).unwrap().as_bytes());
            value["checksum"] = Value::String(sum);
            let forged = serde_json::to_string_pretty(&value).unwrap();
            results.extend(
                commands
                    .iter()
                    .map(|command| input::check_checkpoint(&forged, command).map_err(in_file)),
            );
        }
        // Any message that is not one line fails the test, whichever
        // variant it came from.
        if let Some(bad) = results
            .iter()
            .filter_map(|r| r.as_ref().err())
            .find(|message| message.trim().is_empty() || message.contains('\n'))
        {
            return Err(bad.clone());
        }
        as_is.unwrap_or_else(|| results[0].clone())
    });
}

/// Count files (`merge`), seeded with real parts of a Monte-Carlo run and
/// of an exhaustive enumeration; each mutated input is tried as it is and
/// with the checksum of its count block made to match again.
#[test]
fn count_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut seeds = Vec::new();
    for (k, args) in [
        "klondike mc --trials 300000 --seed 3 --shard 1/2",
        "roll-call mc --trials 200000 --shard 0/3",
        "idiots-delight exact --suits 2 --ranks 3 --engine exhaustive --shard 0/2",
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("part-{k}.json"));
        let output = deckodds()
            .args(args.split_whitespace())
            .arg("--quiet")
            .arg("--out")
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args}: {output:?}");
        seeds.push(std::fs::read_to_string(&path).unwrap());
    }
    check_parser("count file", seeds, |text| {
        let as_is = input::check_count_file(text).map_err(in_file);
        if let Ok(mut value) = serde_json::from_str::<Value>(text)
            && let Some(block) = value.get_mut("shard").and_then(Value::as_object_mut)
        {
            block.remove("checksum");
            let sum = fnv1a64(serde_json::to_string(&block).unwrap().as_bytes());
            block.insert("checksum".into(), Value::String(sum));
            let forged = serde_json::to_string_pretty(&value).unwrap();
            if let Err(message) = input::check_count_file(&forged).map_err(in_file)
                && (message.trim().is_empty() || message.contains('\n'))
            {
                return Err(message);
            }
        }
        as_is
    });
}
