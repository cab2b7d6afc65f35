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

use clap::{CommandFactory, FromArgMatches};
use deckodds::analysis::Spec;
use deckodds::cards::{parse_card, parse_rank, parse_rank_deal};
use deckodds::cli::values::{
    byte, parse_count, parse_count_or_zero, parse_digits, parse_half_width, parse_level,
    parse_seconds, parse_seed, parse_threads, whole_number_in,
};
use deckodds::cli::{Cli, Engine, PrisonersBaseline, RollCallBaseline};
use deckodds::commands::input;
use deckodds::games::klondike::free_play::Layout;
use deckodds::games::klondike::parse_deal;
use deckodds::report::solvitaire::parse_deals as parse_solvitaire_deals;
use serde_json::Value;

use crate::support::{deckodds, fnv1a64, run_line};
use deckodds::compare::PublishedTable;
use deckodds::distribution::parse_count_table;
use deckodds::engine::Shard;
use deckodds::error::Error;
use deckodds::games::blackjack::table::{ChartStrategy, CountSystem, PublishedClaim};
use deckodds::games::blackjack::{DealerParams, Decks, Scoring, parse_value};
use deckodds::games::prisoners_patience::StackMove;
use deckodds::games::roll_call::{Count, PassOrder};
use deckodds::report::Format;
use deckodds::report::chart::FigureSize;
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

/// A parser's result as [`check_parser`] takes it: its message, if it
/// refused.
fn refusal<T>(result: deckodds::Result<T>) -> Result<(), String> {
    result.map(drop).map_err(|e| e.to_string())
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

/// The blackjack table's inputs (RULES.md section 6, "At the table"):
/// strategy charts (`--strategy FILE.csv`), seeded with the charts
/// `blackjack strategy` writes for two rule sets; published claims
/// (`--published`), seeded with claims as users write them; counting
/// systems (`--count`).
#[test]
fn blackjack_table_inputs() {
    let charts = ["--decks 1", "--decks 2 --h17 --no-das --surrender late"]
        .iter()
        .map(|rules| {
            run_line(&format!(
                "blackjack strategy --float --format csv --quiet {rules}"
            ))
        })
        .collect();
    check_parser("strategy chart", charts, |text| {
        ChartStrategy::parse_csv(text)
            .map(drop)
            .map_err(|e| in_file(e.to_string()))
    });
    let claims = words(&[
        "house-edge-percent = 0.55\nrounds = 1e9\n",
        "# A simulator, 6 decks\nsource = its page, table 2 # note\nHouse_Edge_Percent = -0.12%\n\
         rounds = 2.5e9 # rounds\nwin-percent = 42.4\nloss-percent = 49.1\npush-percent = 8.5\n",
        "\u{feff}rounds = 1_000_000\r\nhouse-edge-percent = 0.4\r\nwin-percent = 43\r\n",
    ]);
    check_parser("published claim", claims, |text| {
        PublishedClaim::parse(text)
            .map(drop)
            .map_err(|e| in_file(e.to_string()))
    });
    let systems = words(&[
        "hi-lo",
        "ko",
        "omega-ii",
        "-1,1,1,1,1,1,0,0,0,-1",
        "A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1",
    ]);
    check_parser("--count (blackjack table)", systems, |text| {
        refusal(CountSystem::parse(text))
    });
}

/// Deals in Solvitaire's JSON deal format (`klondike solve --deals`,
/// `klondike deals --deals`), seeded with deals `klondike deals` writes:
/// JSON Lines, one deal's file, and an array.
#[test]
fn solvitaire_deals() {
    let lines = run_line("klondike deals --trials 3 --seed 2 --quiet");
    let dir = tempfile::tempdir().unwrap();
    run_line(&format!(
        "klondike deals --trials 1 --quiet --out-dir {}",
        dir.path().display()
    ));
    let file = std::fs::read_to_string(dir.path().join("deal-00000.json")).unwrap();
    let array = format!("[{}]", lines.trim_end().replace('\n', ",\n"));
    check_parser("Solvitaire deals", vec![lines, file, array], |text| {
        parse_solvitaire_deals(text, &Layout::FULL)
            .map(drop)
            .map_err(|(line, error)| in_file(format!("line {line}: {error}")))
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
            // Each seed is parsed as `fuzzed.toml`: the names of its own
            // tables (a headline's `table`) follow its name.
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            seeds.push(text.replace(&format!("\"{stem}"), "\"fuzzed"));
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

/// The plain values of options (`cli::values`): counts, seeds, levels,
/// threads, half-widths, seconds, digits, small numbers; and the words
/// `cli` parses itself.
#[test]
fn option_values() {
    let counts = words(&["1000000", "1_000_000", "1e6", "25E2"]);
    check_parser("count", counts, |t| refusal(parse_count(t)));
    let counts = words(&["0", "100", "1e2"]);
    check_parser("count or zero", counts, |t| refusal(parse_count_or_zero(t)));
    let seeds = words(&["1", "18446744073709551615", "1_000"]);
    check_parser("seed", seeds, |t| refusal(parse_seed(t)));
    let levels = words(&["0.001", "0.05", "1e-9"]);
    check_parser("level", levels, |t| refusal(parse_level(t)));
    let threads = words(&["1", "2", "1024"]);
    check_parser("threads", threads, |t| refusal(parse_threads(t)));
    let widths = words(&["0.0005", "0.05%", "0.5"]);
    check_parser("half-width", widths, |t| refusal(parse_half_width(t)));
    let seconds = words(&["5", "0.5", "86400"]);
    check_parser("seconds", seconds, |t| refusal(parse_seconds(t)));
    let digits = words(&["0", "4", "12"]);
    check_parser("digits", digits, |t| refusal(parse_digits(t)));
    let sizes = words(&["screen", "single", "double"]);
    check_parser("figure", sizes, |t| {
        FigureSize::parse(t)
            .map(drop)
            .ok_or_else(|| "not a size".to_string())
    });
    let draw = byte("must be 1 or 3");
    check_parser("small number", words(&["1", "3", "255"]), |text| {
        draw(text).map(drop).map_err(|e| e.to_string())
    });
    let suits = whole_number_in(1..=16);
    check_parser("bounded number", words(&["1", "4", "16"]), |text| {
        suits(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser("--engine", words(&["memo", "exhaustive"]), |text| {
        Engine::parse(text).map(drop).map_err(|e| e.to_string())
    });
    check_parser(
        "--with",
        words(&["exact", "order", "count", "seed", "rules"]),
        |text| match (
            RollCallBaseline::parse(text),
            PrisonersBaseline::parse(text),
        ) {
            (Err(a), Err(b)) => Err(format!("{a} / {b}")),
            _ => Ok(()),
        },
    );
}

/// Deals of ranks and of cards (`--deal`).
#[test]
fn deals() {
    check_parser(
        "--deal (ranks)",
        words(&["A 5 K 7 2 2 3", "1,13,12", "T J Q K"]),
        |text| parse_rank_deal(text).map(drop).map_err(|e| e.to_string()),
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
        |text| parse_deal(text).map(drop).map_err(|e| e.to_string()),
    );
}

/// Inputs per option in [`every_option_on_the_command_line`]: fewer than
/// [`CASES`], as each option's parser is fuzzed directly above too, and
/// some on several commands.
const CASES_PER_OPTION: u32 = 2_000;

/// Every option that takes a value, on every command, parsed as the
/// binary parses it (clap, with the value parsers `cli` gives it): each
/// input must parse into the typed command line, or be refused with one
/// line, and a value refused by its parser must read as every error does,
/// `--flag value: what is allowed` ([`deckodds::cli::value_error`]).
#[test]
fn every_option_on_the_command_line() {
    let mut root = Cli::command();
    root.build();
    let mut options = Vec::new();
    collect_options(&root, &mut Vec::new(), &mut options);
    // Built once and reused: parsing needs it mutable.
    let root = std::cell::RefCell::new(root);
    assert!(options.len() >= 60, "{} options", options.len());
    for option in &options {
        // A runner counts its cases over every run: one per option.
        let mut runner = TestRunner::new(Config {
            cases: CASES_PER_OPTION,
            failure_persistence: None,
            ..Config::default()
        });
        let argv = |value: &str| option.argv(value);
        for seed in &option.seeds {
            let matches = root
                .borrow_mut()
                .try_get_matches_from_mut(argv(seed))
                .unwrap_or_else(|e| panic!("{}: a seed is refused: {seed:?}: {e}", option.name));
            Cli::from_arg_matches(&matches).unwrap();
        }
        let result = runner.run(&inputs(option.seeds.clone()), |text| {
            let parsed = root.borrow_mut().try_get_matches_from_mut(argv(&text));
            match parsed {
                Ok(matches) => {
                    prop_assert!(Cli::from_arg_matches(&matches).is_ok());
                }
                Err(error) => {
                    let message = match deckodds::cli::value_error(&error) {
                        Some(error) => error.to_string(),
                        None => {
                            prop_assert!(
                                error.kind() != clap::error::ErrorKind::ValueValidation,
                                "{}: refused without a one-line reason: {error}",
                                option.name
                            );
                            error
                                .render()
                                .to_string()
                                .lines()
                                .next()
                                .unwrap_or("")
                                .to_string()
                        }
                    };
                    prop_assert!(
                        !message.trim().is_empty() && !message.contains('\n'),
                        "{}: not a one-line error for {text:?}: {message:?}",
                        option.name
                    );
                }
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{}: {failure}", option.name);
        }
    }
}

/// An option of a command, to fuzz.
struct FuzzedOption {
    /// `roll-call mc --ranks`.
    name: String,
    /// The command line up to the option (with any required option).
    prefix: Vec<String>,
    /// How the value is given: `--ranks=VALUE`, or after `--` for a
    /// positional value.
    flag: Option<String>,
    /// Values after the fuzzed one (`--save-wins N FILE`: FILE).
    suffix: Vec<String>,
    seeds: Vec<String>,
}

impl FuzzedOption {
    fn argv(&self, value: &str) -> Vec<String> {
        let mut argv = self.prefix.clone();
        match &self.flag {
            // `--flag=VALUE`, so that a value starting with `-` is the
            // value, not another flag.
            Some(flag) if self.suffix.is_empty() => argv.push(format!("{flag}={value}")),
            Some(flag) => argv.extend([flag.clone(), value.to_string()]),
            None => argv.extend(["--".to_string(), value.to_string()]),
        }
        argv.extend(self.suffix.iter().cloned());
        argv
    }
}

/// Well-formed values of an option, for seeds: its default, and more.
fn option_seeds(command: &[String], long: &str, default: Option<String>) -> Option<Vec<String>> {
    let game = command.first().map(String::as_str).unwrap_or_default();
    let mut seeds: Vec<String> = default.into_iter().filter(|d| !d.is_empty()).collect();
    let more: &[&str] = match (game, long) {
        // Paths and free text: nothing to parse.
        (_, "checkpoint" | "resume" | "out" | "chart" | "save-winnable" | "for" | "results") => {
            return None;
        }
        ("blackjack", "published") => return None,
        (_, "format") => return None,
        ("klondike", "deal") => {
            let deck: Vec<String> = deckodds::games::klondike::sorted_deck()
                .iter()
                .map(|card| card.to_string())
                .collect();
            return Some(vec![deck.join(" "), deck.join(",")]);
        }
        (_, "deal") => &["A 5 K 7 2 2 3", "1,13,12"],
        (_, "published") => &["sas", "published/sas.csv"],
        (_, "shard") => &["0/4", "3/4"],
        (_, "threads") => &["2"],
        (_, "checkpoint-every") => &["5", "0.5"],
        (_, "until-halfwidth") => &["0.05%", "0.001"],
        (_, "max-trials" | "hands" | "hands-per-row") => &["1e6", "1000"],
        (_, "trials") => &["1e3"],
        (_, "digits") => &["4"],
        (_, "remove") => &["10 10 6", "A,K"],
        ("blackjack", "count" | "tags") => &["hi-lo", "zen", "-1,1,1,1,1,1,0,0,0,-1"],
        ("blackjack", "after" | "cards-seen") => &["0", "26"],
        (_, "count" | "order") if command.get(1).map(String::as_str) == Some("mc") => &["all"],
        (_, "penetration") => &["75%", "0.5"],
        (_, "rounds-per-shoe") => &["1", "13"],
        (_, "strategy") => &["basic"],
        (_, "save-wins") => &["3"],
        (_, "GAME") => &["klondike"],
        (_, "SHELL") => &["bash"],
        _ => &[],
    };
    seeds.extend(more.iter().map(|s| s.to_string()));
    (!seeds.is_empty()).then_some(seeds)
}

/// Every option of `command` and its subcommands that takes a value.
fn collect_options(command: &clap::Command, path: &mut Vec<String>, out: &mut Vec<FuzzedOption>) {
    for sub in command.get_subcommands().filter(|c| c.get_name() != "help") {
        path.push(sub.get_name().to_string());
        collect_options(sub, path, out);
        path.pop();
    }
    if command.has_subcommands() {
        return;
    }
    for arg in command.get_arguments() {
        // A global option (`--threads`) is fuzzed on one command.
        let global_elsewhere = arg.is_global_set() && path.as_slice() != ["klondike", "mc"];
        if !arg.get_action().takes_values() || global_elsewhere {
            continue;
        }
        let long = arg.get_long().map(String::from);
        let name = long
            .clone()
            .unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
        let default = arg
            .get_default_values()
            .first()
            .map(|d| d.to_string_lossy().into_owned());
        let Some(seeds) = option_seeds(path, &name, default) else {
            continue;
        };
        let mut prefix = vec!["deckodds".to_string()];
        prefix.extend(path.iter().cloned());
        // What the command requires besides this option, and what this
        // option requires.
        let required = command
            .get_arguments()
            .filter(|other| other.is_required_set() && other.get_id() != arg.get_id())
            .filter_map(|other| other.get_long().map(|long| long.to_string()));
        let required: Vec<String> = match long.as_deref() {
            Some("hands" | "hands-per-row") => vec!["published".to_string()],
            // A trip needs its length, a bankroll and a ramp to bet.
            Some("trips") => ["trip-rounds", "bankroll", "bet-ramp", "count"]
                .map(String::from)
                .to_vec(),
            _ => required.collect(),
        };
        for other in required {
            let value = match other.as_str() {
                "deal" => "A 2",
                "trip-rounds" => "100",
                "bankroll" => "1000",
                "bet-ramp" => "1:1",
                "count" => "hi-lo",
                _ => "x.csv",
            };
            prefix.extend([format!("--{other}"), value.to_string()]);
        }
        let suffix = match arg.get_num_args().map(|n| n.min_values()) {
            Some(2) => vec!["wins.txt".to_string()],
            _ => Vec::new(),
        };
        out.push(FuzzedOption {
            name: format!("{} {}", path.join(" "), name),
            prefix,
            flag: long.map(|long| format!("--{long}")),
            suffix,
            seeds,
        });
    }
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
