//! The blackjack player's command line (RULES.md section 6): `blackjack
//! player` and `house-edge` end to end, their JSON contract
//! (docs/CONTRACTS.md) held to the engine's own values, one hand's output,
//! printed tables, the effect of removal through the command, and the
//! parsers of every rule option. (The engine itself: blackjack_player.rs;
//! bad input: games.rs's blackjack row.)

use std::collections::BTreeSet;

use num_rational::BigRational;
use num_traits::ToPrimitive;
use proptest::prelude::*;
use serde_json::Value;

use clap::Parser;
use deckodds::cli::Cli;
use deckodds::engine::NoProgress;
use deckodds::games::blackjack::Decks;
use deckodds::games::blackjack::player::{
    ACTIONS, BlackjackPays, DoubleOn, PlayerParams, PlayerRules, SplitModel, Surrender, hand_name,
    parse_hand, parse_upcard, solve_exact, value_letter,
};
use deckodds::games::registry::{BLACKJACK_HOUSE_EDGE_REPORT, BLACKJACK_PLAYER_REPORT};

use crate::support::{deckodds, run_line};

/// Every rule of RULES.md section 6 and the split model: the keys of the
/// JSON's `"params"`.
const PARAM_KEYS: [&str; 10] = [
    "decks",
    "soft17",
    "hole_card",
    "blackjack_pays",
    "double",
    "das",
    "max_hands",
    "resplit_aces",
    "surrender",
    "split_model",
];

/// The upcards in the order the tables list them.
const UPCARD_NAMES: [&str; 10] = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];

fn json_of(line: &str) -> Value {
    serde_json::from_str(&run_line(&format!("{line} --format json --quiet"))).unwrap()
}

/// A `{"value": "p/q", "decimal": x}` object: the fraction reduced and the
/// decimal its nearest `f64` (to 1e-12, relative).
fn exact_value(what: &str, value: &Value) -> BigRational {
    let text = value["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no fraction in {value}"));
    let fraction: BigRational = text.parse().unwrap();
    assert_eq!(fraction.to_string(), text, "{what}: not reduced");
    let decimal = value["decimal"].as_f64().unwrap();
    let nearest = fraction.to_f64().unwrap();
    assert!(
        (nearest - decimal).abs() <= 1e-12 * nearest.abs().max(1.0),
        "{what}: {text} is not {decimal}"
    );
    fraction
}

/// The two-card hands in the order the reports list them: AA, A2, .., TT.
fn hand_names() -> Vec<String> {
    let mut names = Vec::new();
    for first in 1..=10 {
        for second in first..=10 {
            names.push(hand_name(first, second));
        }
    }
    names
}

fn params_keys(json: &Value) -> BTreeSet<String> {
    json["params"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

/// The contract of `blackjack player --format json`, exactly: every hand
/// against every upcard in order, each fraction the engine's own value,
/// each decimal its nearest f64; `--float` gives the same decimals to
/// 1e-12 and no fractions. The infinite deck, whose exact solve is quick.
#[test]
fn player_json_holds_the_engines_exact_values_and_float_agrees() {
    let exact = json_of("blackjack player --decks inf");
    assert_eq!(exact["game"], BLACKJACK_PLAYER_REPORT);
    assert_eq!(exact["method"], "exact");
    let expected_keys: BTreeSet<String> = PARAM_KEYS.iter().map(|k| k.to_string()).collect();
    assert_eq!(params_keys(&exact), expected_keys);
    assert_eq!(exact["params"]["decks"], "inf");
    assert_eq!(exact["params"]["split_model"], "cdz");

    let params = PlayerParams {
        rules: PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        },
        split_model: SplitModel::Cdz,
        removed: Vec::new(),
    };
    let table = solve_exact(&params, &NoProgress).unwrap();
    let overall = exact_value("overall", &exact["overall"]);
    assert_eq!(overall, table.overall);
    let house_edge = exact["overall"]["house_edge_percent"].as_f64().unwrap();
    assert!((house_edge + 100.0 * overall.to_f64().unwrap()).abs() < 1e-12);
    // Wizard of Odds' infinite-deck figure, as the engine's tests hold it.
    assert_eq!(format!("{house_edge:.6}"), "0.511734");
    assert_eq!(
        exact_value("insurance", &exact["insurance"]).to_string(),
        "-1/13"
    );

    let hands = exact["hands"].as_array().unwrap();
    let order: Vec<(String, String)> = hand_names()
        .into_iter()
        .flat_map(|hand| {
            UPCARD_NAMES
                .iter()
                .map(move |u| (hand.clone(), u.to_string()))
        })
        .collect();
    let listed: Vec<(String, String)> = hands
        .iter()
        .map(|h| {
            (
                h["hand"].as_str().unwrap().to_string(),
                h["upcard"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(listed, order);
    let actions: Vec<&str> = ACTIONS.iter().map(|a| a.name()).collect();
    for (json, row) in hands.iter().zip(&table.hands) {
        let what = format!("{} against {}", json["hand"], json["upcard"]);
        assert_eq!(json["hand"], hand_name(row.first, row.second), "{what}");
        assert_eq!(json["upcard"], value_letter(row.upcard), "{what}");
        assert_eq!(exact_value(&what, &json["probability"]), row.probability);
        for action in ACTIONS {
            let value = &json[action.name()];
            match row.values.get(action) {
                Some(engine) => assert_eq!(&exact_value(&what, value), engine, "{what}"),
                None => assert!(value.is_null(), "{what}: {action} is {value}"),
            }
        }
        assert!(actions.contains(&json["best"].as_str().unwrap()), "{what}");
        assert_eq!(json["best"], row.best.name(), "{what}");
        match &row.insurance {
            Some(insurance) => assert_eq!(&exact_value(&what, &json["insurance"]), insurance),
            None => assert!(json["insurance"].is_null(), "{what}"),
        }
        assert_eq!(json["insurance"].is_null(), json["upcard"] != "A", "{what}");
    }

    let float = json_of("blackjack player --decks inf --float");
    assert_eq!(float["method"], "float");
    assert_eq!(params_keys(&float), expected_keys);
    let close = |what: &str, f: &Value, e: &Value| {
        if e.is_null() {
            assert!(f.is_null(), "{what}");
            return;
        }
        assert!(
            f.get("value").is_none(),
            "{what}: float mode carries a fraction"
        );
        let (f, e) = (
            f["decimal"].as_f64().unwrap(),
            e["decimal"].as_f64().unwrap(),
        );
        assert!((f - e).abs() < 1e-12, "{what}: {f} against {e}");
    };
    close("overall", &float["overall"], &exact["overall"]);
    close("insurance", &float["insurance"], &exact["insurance"]);
    let float_hands = float["hands"].as_array().unwrap();
    assert_eq!(float_hands.len(), hands.len());
    for (f, e) in float_hands.iter().zip(hands) {
        let what = format!("{} against {}", e["hand"], e["upcard"]);
        assert_eq!((&f["hand"], &f["upcard"]), (&e["hand"], &e["upcard"]));
        for key in [
            "probability",
            "stand",
            "hit",
            "double",
            "split",
            "surrender",
            "insurance",
        ] {
            close(&format!("{what}: {key}"), &f[key], &e[key]);
        }
    }
}

/// One hand against one upcard: the table shows its actions with exact
/// fractions (snapshot), and the JSON, written by the same run, holds that
/// one hand; house-edge's exact overall value for the same rules is the
/// same fraction, and its effects of removal (in f64 by default) are the
/// differences of the overall values they list.
#[test]
fn one_hand_prints_its_fractions_and_house_edge_agrees() {
    let directory = tempfile::tempdir().unwrap();
    let (text, json) = (
        directory.path().join("a7.txt"),
        directory.path().join("a7.json"),
    );
    let output = deckodds()
        .args([
            "--quiet",
            "blackjack",
            "player",
            "--decks",
            "1",
            "--hand",
            "7a",
            "--upcard",
            "k",
        ])
        .arg("--out")
        .arg(&text)
        .arg("--out")
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = std::fs::read_to_string(&text).unwrap();
    insta::assert_snapshot!("blackjack_player_one_deck_a7_against_ten", table);
    let player: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let hands = player["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 1);
    assert_eq!(
        (&hands[0]["hand"], &hands[0]["upcard"]),
        (&"A7".into(), &"T".into())
    );

    let house = json_of("blackjack house-edge --decks 1");
    assert_eq!(house["game"], BLACKJACK_HOUSE_EDGE_REPORT);
    assert_eq!(house["method"], "exact");
    assert_eq!(params_keys(&house), params_keys(&player));
    let overall = exact_value("overall", &house["overall"]);
    assert_eq!(overall, exact_value("overall", &player["overall"]));
    let effects = &house["effect_of_removal"];
    assert_eq!(effects["method"], "float");
    let removals = effects["removals"].as_array().unwrap();
    let removed: Vec<&str> = removals
        .iter()
        .map(|r| r["removed"].as_str().unwrap())
        .collect();
    assert_eq!(removed, ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]);
    let mut weighted = 0.0;
    let mut changes = Vec::new();
    for removal in removals {
        let cards = removal["cards_in_shoe"].as_u64().unwrap();
        assert_eq!(cards, if removal["removed"] == "T" { 16 } else { 4 });
        assert!(
            removal["overall"].get("value").is_none(),
            "f64 effects carry no fraction"
        );
        let change = removal["change_points"]["decimal"].as_f64().unwrap();
        let difference =
            100.0 * (removal["overall"]["decimal"].as_f64().unwrap() - overall.to_f64().unwrap());
        assert!((change - difference).abs() < 1e-10, "{removal}");
        weighted += cards as f64 * change;
        changes.push((removal["removed"].as_str().unwrap(), change));
    }
    let sum = effects["weighted_sum_points"]["decimal"].as_f64().unwrap();
    assert!(
        (sum - weighted).abs() < 1e-10 && sum > 0.0,
        "{sum} against {weighted}"
    );
    // The 5's removal helps the player most; the ace's and the ten's hurt.
    let best = changes.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert_eq!(best.0, "5", "{changes:?}");
    assert!(changes[0].1 < 0.0 && changes[9].1 < 0.0, "{changes:?}");
}

/// The printed table of every hand against one upcard.
#[test]
fn every_hand_against_one_upcard_prints_as_a_table() {
    insta::assert_snapshot!(
        "blackjack_player_infinite_deck_against_six",
        run_line("blackjack player --decks inf --upcard 6 --float --quiet")
    );
}

/// Markdown and CSV of the same: a table per upcard asked for, and one CSV
/// row per hand and action allowed, with the round's and insurance's rows
/// first.
#[test]
fn markdown_and_csv_lay_out_the_same_values() {
    let md = run_line("blackjack player --decks inf --upcard A --float --format md --quiet");
    assert_eq!(md.matches("**Upcard A**").count(), 1, "{md}");
    assert!(md.contains("| AA "), "{md}");
    assert!(md.contains("insurance"), "{md}");
    let csv = run_line("blackjack player --decks inf --upcard A --float --format csv --quiet");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("hand,upcard,action,value,decimal,best"));
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("all,all,overall,,-0.00511733")
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("all,A,insurance,,-0.0769230769")
    );
    let rows: Vec<&str> = lines.collect();
    // 55 hands: stand, hit and insurance each, double on every two cards,
    // split on the 10 pairs.
    assert_eq!(rows.len(), 55 * 4 + 10, "{csv}");
    let best = rows.iter().filter(|r| r.ends_with(",yes")).count();
    assert_eq!(best, 55);
}

/// House edge of an infinite deck: the value alone, no effect of removal
/// (null, with a note saying why).
#[test]
fn house_edge_of_an_infinite_deck_has_no_effect_of_removal() {
    let json = json_of("blackjack house-edge --decks inf --float");
    assert_eq!(json["method"], "float");
    assert!(json["effect_of_removal"].is_null());
    let notes = json["notes"].as_array().unwrap();
    assert!(
        notes[0].as_str().unwrap().contains("infinite deck"),
        "{notes:?}"
    );
    let edge = json["overall"]["house_edge_percent"].as_f64().unwrap();
    assert_eq!(format!("{edge:.6}"), "0.511734");
    let table = run_line("blackjack house-edge --decks inf --float --quiet");
    assert!(table.contains("House edge: 0.5117%"), "{table}");
    // The value per round in percent, labelled, as every command prints
    // it; the JSON keeps the fraction of the bet.
    assert!(
        table.contains("Overall value per round: -0.5117% of the bet"),
        "{table}"
    );
    let value = json["overall"]["decimal"].as_f64().unwrap();
    assert_eq!(format!("{value:.8}"), "-0.00511734");
    let player = run_line("blackjack player --decks inf --float --quiet");
    assert!(
        player.contains("Overall value per round: -0.5117% of the bet (house edge 0.5117%)"),
        "{player}"
    );
}

#[test]
fn help_explains_every_rule_and_the_split_models() {
    let help = run_line("blackjack player --help");
    for flag in [
        "--decks",
        "--h17",
        "--enhc",
        "--bj-pays",
        "--double",
        "--no-das",
        "--max-hands",
        "--resplit-aces",
        "--surrender",
        "--split-model",
        "--float",
        "--hand",
        "--upcard",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
    for words in [
        "RULES.md section 6",
        "cdz",
        "cdp1",
        "late",
        "early",
        "[default: 6]",
    ] {
        assert!(help.contains(words), "{words}");
    }
    let house = run_line("blackjack house-edge --help");
    assert!(
        house.contains("--exact-eor") && house.contains("f64"),
        "{house}"
    );
    let strategy = run_line("blackjack strategy --help");
    assert!(strategy.contains("--bj-pays") && strategy.contains("--split-model"));
    let compare = run_line("blackjack player compare --help");
    for flag in ["--trials", "--seed", "--level", "--max-hands"] {
        assert!(compare.contains(flag), "{flag}");
    }
}

fn parses(line: &str) -> bool {
    Cli::try_parse_from(line.split_whitespace()).is_ok()
}

/// Another spelling of a value, as people write it: `T` as 10, J, Q or K,
/// `A` in lower case.
fn spellings(value: u8) -> Vec<&'static str> {
    match value {
        1 => vec!["A", "a"],
        10 => vec!["T", "t", "10", "J", "Q", "K", "k"],
        _ => vec![value_letter(value)],
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Every hand name, in any order and spelling, parses back to its
    /// values, lower first.
    #[test]
    fn hands_round_trip(first in 1u8..=10, second in 1u8..=10, i in 0usize..7, j in 0usize..7) {
        let a = spellings(first);
        let b = spellings(second);
        let text = format!("{}{}", a[i % a.len()], b[j % b.len()]);
        prop_assert_eq!(parse_hand(&text).unwrap(), (first.min(second), first.max(second)));
        prop_assert_eq!(
            parse_hand(&hand_name(first, second)).unwrap(),
            (first.min(second), first.max(second))
        );
        let upcard = spellings(first)[i % spellings(first).len()];
        prop_assert_eq!(parse_upcard(upcard).unwrap(), first);
    }

    /// Text that is not two card values is refused, naming the hand.
    #[test]
    fn other_hands_are_refused(text in "[A-Za-z0-9 ]{0,4}") {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase();
        let valid = |c: char| "A23456789TJQK".contains(c);
        let tokens: Vec<String> = {
            let mut tokens = Vec::new();
            let mut rest = compact.as_str();
            while !rest.is_empty() {
                if let Some(tail) = rest.strip_prefix("10") {
                    tokens.push("10".to_string());
                    rest = tail;
                } else {
                    let c = rest.chars().next().unwrap();
                    tokens.push(c.to_string());
                    rest = &rest[c.len_utf8()..];
                }
            }
            tokens
        };
        let good = tokens.len() == 2
            && tokens.iter().all(|t| t == "10" || (t.len() == 1 && valid(t.chars().next().unwrap())));
        match parse_hand(&text) {
            Ok(_) => prop_assert!(good, "{text:?} parsed"),
            Err(error) => {
                prop_assert!(!good, "{text:?} refused");
                let message = error.to_string();
                prop_assert!(message.starts_with("hand ") && !message.contains('\n'), "{}", message);
            }
        }
    }

    /// Upcards other than A, 2..9 and the tens are refused, naming the
    /// upcard.
    #[test]
    fn other_upcards_are_refused(n in 0u32..1000) {
        let text = n.to_string();
        match parse_upcard(&text) {
            Ok(value) => prop_assert!((2..=10).contains(&n) && u32::from(value) == n),
            Err(error) => {
                prop_assert!(!(2..=10).contains(&n));
                let prefix = format!("upcard {n}: ");
                prop_assert!(error.to_string().starts_with(&prefix));
            }
        }
    }

    /// Every rule option's values: what each parser accepts is exactly its
    /// names (which round-trip), and on the command line `--decks` takes
    /// 1..=8 and `--max-hands` 2..=4.
    #[test]
    fn rule_options_accept_their_names_only(text in "[a-z0-9:-]{0,6}", n in 0u32..100) {
        let pays = ["3:2", "6:5", "1:1"];
        let doubles = ["any", "9-11", "10-11"];
        let surrenders = ["none", "late", "early"];
        let models = ["cdz", "cdp1", "cdp"];
        prop_assert_eq!(BlackjackPays::parse(&text).is_ok(), pays.contains(&text.as_str()));
        prop_assert_eq!(DoubleOn::parse(&text).is_ok(), doubles.contains(&text.as_str()));
        prop_assert_eq!(Surrender::parse(&text).is_ok(), surrenders.contains(&text.as_str()));
        prop_assert_eq!(SplitModel::parse(&text).is_ok(), models.contains(&text.as_str()));
        for name in pays {
            prop_assert_eq!(BlackjackPays::parse(name).unwrap().name(), name);
        }
        for name in doubles {
            prop_assert_eq!(DoubleOn::parse(name).unwrap().name(), name);
        }
        for name in surrenders {
            prop_assert_eq!(Surrender::parse(name).unwrap().name(), name);
        }
        for name in models {
            prop_assert_eq!(SplitModel::parse(name).unwrap().name(), name);
        }
        prop_assert_eq!(
            PlayerRules::parse_max_hands(&n.to_string()).ok(),
            (2..=4).contains(&n).then_some(n as u8)
        );
        prop_assert_eq!(
            parses(&format!("deckodds blackjack player --decks {n}")),
            (1..=8).contains(&n)
        );
        prop_assert_eq!(
            parses(&format!("deckodds blackjack house-edge --max-hands {n}")),
            (2..=4).contains(&n)
        );
    }
}

/// `blackjack strategy`: the chart's JSON contract, and the rules move the
/// cells the printed charts say they move.
#[test]
fn strategy_prints_the_chart_and_rules_move_its_cells() {
    let chart = json_of("blackjack strategy --float");
    assert_eq!(chart["game"], BLACKJACK_PLAYER_REPORT);
    assert_eq!(chart["method"], "float");
    assert_eq!(params_keys(&chart), PARAM_KEYS.map(String::from).into());
    let cell = |json: &Value, section: &str, row: &str, upcard: &str| {
        json["chart"][section][row][upcard]
            .as_str()
            .unwrap_or_else(|| panic!("{section} {row} vs {upcard}: {json}"))
            .to_string()
    };
    // Wizard of Odds' 4-8 deck chart, S17, DAS, no surrender
    // (https://wizardofodds.com/games/blackjack/strategy/4-decks/).
    assert_eq!(cell(&chart, "hard", "16", "T"), "H");
    assert_eq!(cell(&chart, "hard", "11", "T"), "D");
    assert_eq!(cell(&chart, "soft", "18", "3"), "Ds");
    assert_eq!(cell(&chart, "pairs", "99", "7"), "S");
    for upcard in UPCARD_NAMES {
        assert_eq!(cell(&chart, "pairs", "88", upcard), "P");
        assert!(chart["chart"]["hard"]["12"][upcard].is_string());
    }
    let late = json_of("blackjack strategy --float --surrender late");
    assert_eq!(late["params"]["surrender"], "late");
    assert_eq!(cell(&late, "hard", "16", "T"), "R");
    assert_eq!(cell(&late, "hard", "15", "T"), "R");
    // Exact and float give the same chart (the infinite deck, quick
    // exactly).
    let exact = json_of("blackjack strategy --decks inf");
    let float = json_of("blackjack strategy --decks inf --float");
    assert_eq!(exact["method"], "exact");
    assert_eq!(exact["chart"], float["chart"]);
    assert_eq!(exact["exceptions"], float["exceptions"]);
}

/// `blackjack player compare`: rounds played with the table's decisions
/// agree with its value; the counts do not depend on the thread count;
/// split models the rounds cannot play are refused.
#[test]
fn player_compare_agrees_with_the_exact_value_on_any_thread_count() {
    let line = "blackjack player compare --decks inf --trials 200000 --seed 3";
    let one = json_of(&format!("{line} --threads 1"));
    let two = json_of(&format!("{line} --threads 2"));
    assert_eq!(one["net"], two["net"]);
    assert_eq!(one["monte_carlo"], two["monte_carlo"]);
    assert_eq!(one["game"], BLACKJACK_PLAYER_REPORT);
    assert_eq!(one["method"], "monte-carlo-vs-exact");
    assert_eq!(one["trials"], 200_000);
    let rounds: u64 = one["net"]
        .as_object()
        .unwrap()
        .values()
        .map(|count| count.as_u64().unwrap())
        .sum();
    assert_eq!(rounds, 200_000);
    // The exact value is the one `player` prints.
    let exact = exact_value("exact", &one["exact"]);
    let player = json_of("blackjack player --decks inf --upcard A");
    assert_eq!(exact, exact_value("overall", &player["overall"]));
    // |z| against the exact value, recomputed: well inside 5 standard
    // errors (a fixed seed; 200,000 rounds).
    let mean = one["monte_carlo"]["mean"].as_f64().unwrap();
    let standard_error = one["monte_carlo"]["standard_error"].as_f64().unwrap();
    let z = (mean - exact.to_f64().unwrap()) / standard_error;
    assert!((z - one["agreement"]["z"].as_f64().unwrap()).abs() < 1e-9);
    assert!(z.abs() < 5.0, "z = {z}");
    assert_eq!(one["verdict"], "agree");
    let refused = deckodds()
        .args("blackjack player compare --split-model cdp1 --float --trials 100".split(' '))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(stderr.starts_with("error: --split-model cdp1"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `blackjack house-edge-grid`: the 40 rule sets of the publication grid,
/// each the value `house-edge` gives for the same rules alone.
#[test]
fn house_edge_grid_holds_each_rule_sets_own_value() {
    let grid = json_of("blackjack house-edge-grid --float");
    assert_eq!(grid["game"], "blackjack-house-edge-grid");
    let rows = grid["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 40);
    let flags = |params: &Value| {
        let mut line = format!("--decks {}", params["decks"].as_str().unwrap());
        if params["soft17"] == "hit" {
            line.push_str(" --h17");
        }
        if params["das"] == "no" {
            line.push_str(" --no-das");
        }
        line.push_str(&format!(
            " --surrender {}",
            params["surrender"].as_str().unwrap()
        ));
        line
    };
    let mut seen = BTreeSet::new();
    for row in rows {
        assert!(seen.insert(flags(&row["params"])), "{}", row["params"]);
    }
    for index in [0, 7, 21, 39] {
        let row = &rows[index];
        let alone = json_of(&format!(
            "blackjack house-edge --float {}",
            flags(&row["params"])
        ));
        assert_eq!(row["params"], alone["params"]);
        assert_eq!(
            row["overall"]["decimal"], alone["overall"]["decimal"],
            "{}",
            row["params"]
        );
    }
    let markdown = run_line("blackjack house-edge-grid --float --format md --quiet");
    for heading in ["S17 DAS", "H17 no DAS LS", "| 8 "] {
        assert!(markdown.contains(heading), "{heading}: {markdown}");
    }
    // The CSV of a float run has no exact fractions, so no column for
    // them: every cell of every row is filled.
    let csv = run_line("blackjack house-edge-grid --float --format csv --quiet");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 41, "{csv}");
    assert!(
        lines[0].ends_with(",surrender,decimal,house_edge_percent"),
        "{}",
        lines[0]
    );
    let columns = lines[0].split(',').count();
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), columns, "{line}");
        assert!(cells.iter().all(|cell| !cell.is_empty()), "{line}");
    }
}

/// The widest line of the printed tables' borders and rows, in characters
/// (a terminal's `\r` before each line break not counted).
fn table_width(text: &str) -> usize {
    text.lines()
        .map(|line| line.trim_end_matches('\r'))
        .filter(|line| line.starts_with(['╭', '│', '├', '╰']))
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
}

/// The terminal table fits `COLUMNS`: the house-edge grid (113 characters
/// wide) is cut into tables of fewer columns, every figure kept whole;
/// without `COLUMNS` (files, pipes) it is as wide as it is.
#[test]
fn tables_fit_the_width_columns_asks_for() {
    let line = ["blackjack", "house-edge-grid", "--float", "--quiet"];
    let run = |columns: Option<&str>| {
        let mut command = deckodds();
        command.env_remove("COLUMNS").args(line);
        if let Some(columns) = columns {
            command.env("COLUMNS", columns);
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let figures = |text: &str| {
        let mut figures: Vec<String> = text
            .split(|c: char| c.is_whitespace() || c == '│')
            .filter(|word| word.parse::<f64>().is_ok())
            .map(String::from)
            .collect();
        figures.sort();
        figures
    };
    let wide = run(None);
    assert!(table_width(&wide) > 80, "{wide}");
    let fitted = run(Some("80"));
    assert!(table_width(&fitted) <= 80, "{fitted}");
    assert!(
        figures(&fitted).len() > figures(&wide).len(),
        "labels repeated"
    );
    // The same figures, the row labels repeated in each table.
    let numbers = |text: &str| {
        let mut numbers: Vec<String> = figures(text)
            .into_iter()
            .filter(|word| word.contains('.'))
            .collect();
        numbers.sort();
        numbers
    };
    assert_eq!(numbers(&fitted), numbers(&wide));
    assert_eq!(run(Some("not a width")), wide);
}

/// Printed to a terminal, with no `COLUMNS` in the environment (shells
/// seldom export it), the table fits the terminal's own width: here a
/// pseudo-terminal 80 columns wide, made by `script`.
#[test]
#[cfg_attr(
    not(deckodds_has_script),
    ignore = "needs util-linux's script (Debian: bsdutils)"
)]
fn tables_fit_the_terminal_they_are_printed_in() {
    let binary = assert_cmd::cargo::cargo_bin!("deckodds");
    let width_of = |columns: u16| {
        let line = format!(
            "stty cols {columns} rows 50; '{}' blackjack house-edge-grid --float --quiet",
            binary.display()
        );
        let output = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .env_remove("COLUMNS")
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        (table_width(&text), text)
    };
    let (wide, text) = width_of(200);
    assert!(wide > 80, "{text}");
    let (fitted, text) = width_of(80);
    assert!((40..=80).contains(&fitted), "{text}");
}
