//! `deckodds klondike solve` (RULES.md section 7): bad input refused in
//! one line with nothing written, counts that add up and do not depend on
//! threads, shards or interruptions, and JSON that validates against its
//! schema. Written to hold for any correct solver: the one verdict
//! pinned is an invariant (a deal the section 4 policy wins is winnable
//! under the same stock rule).

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::Value;

use crate::long_runs::{interrupted, run_printed};
use crate::support::{deckodds, run_ok};
use deckodds::cli::parse_passes;
use deckodds::games::klondike::free_play::Passes;
use deckodds::games::klondike::sorted_deck;

/// A small budget, so that a real solver answers each deal quickly (many
/// deals then come out undecided, which the tests allow).
const BUDGET: &str = "--max-nodes 20000";

/// The 52 cards, sorted, as `--deal` takes them (commas: one word).
fn sorted_cards() -> Vec<String> {
    sorted_deck().iter().map(|card| card.to_string()).collect()
}

/// Runs deckodds with `args` and `--out` into a fresh directory,
/// expecting exit status 2, one line on stderr containing `expected`,
/// nothing on stdout, and no file written.
fn refused(args: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let output = deckodds()
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}");
    assert!(!out.exists(), "{args:?}: wrote {out:?}");
}

#[test]
fn bad_input_is_refused_in_one_line_naming_the_value() {
    let cards = sorted_cards();
    let short = cards[..51].join(",");
    let mut twice = cards.clone();
    twice[51] = twice[0].clone();
    let twice = twice.join(",");
    let mut unknown = cards.clone();
    unknown[7] = "1X".into();
    let unknown = unknown.join(",");
    let whole = cards.join(",");
    let (short, twice, unknown, whole) = (
        short.as_str(),
        twice.as_str(),
        unknown.as_str(),
        whole.as_str(),
    );
    let cases: [(&[&str], &str); 12] = [
        (&["--deal", short], "--deal has 51 cards"),
        (&["--deal", twice], "twice"),
        (&["--deal", unknown], "--deal 1X: "),
        (
            &["--draw", "2", "--trials", "4"],
            "--draw 2: must be 1 or 3",
        ),
        (&["--passes", "0", "--trials", "4"], "--passes 0: "),
        (&["--passes", "many", "--trials", "4"], "--passes many: "),
        (
            &["--max-seconds", "0", "--trials", "4"],
            "--max-seconds 0: ",
        ),
        (&["--deal", whole, "--trials", "5"], "--trials"),
        (&[], "needs one of them"),
        (&["--deal", whole, "--shard", "0/2"], "--shard 0/2: "),
        (
            &["--deal", whole, "--until-halfwidth", "0.05"],
            "--until-halfwidth",
        ),
        (&["--trials", "0"], "--trials 0: "),
    ];
    for (rest, expected) in cases {
        refused(&[&["klondike", "solve"], rest].concat(), expected);
    }

    // A file of deals with a bad third line: named by file and line.
    let dir = tempfile::tempdir().unwrap();
    let deals = dir.path().join("deals.txt");
    std::fs::write(&deals, format!("# two deals\n{whole}\n{short}\n")).unwrap();
    let deals_arg = deals.display().to_string();
    let from_file = ["klondike", "solve", "--deals", deals_arg.as_str()];
    refused(&from_file, &format!("{deals_arg}:3: deal has 51 cards"));
    std::fs::write(&deals, "# nothing\n\n").unwrap();
    refused(&from_file, "holds no deal");
}

/// The JSON document a command line prints.
fn json_of(args: &str) -> Value {
    let text = run_ok(
        &args
            .split_whitespace()
            .chain(["--format", "json", "--quiet"])
            .collect::<Vec<_>>(),
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args}: {e}: {text}"))
}

/// Every way `document` breaks schema/klondike-solve.json.
fn violations(document: &Value) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/klondike-solve.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    validator
        .iter_errors(document)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

fn count(value: &Value) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("not a count: {value}"))
}

/// The summary's counts add up: the verdicts to the deals, the policy's
/// results to the deals (and by verdict to each verdict's deals), the
/// nodes histogram to the deals; the fraction's estimate lies within its
/// bounds, and the interval around them.
fn assert_adds_up(document: &Value, deals: u64) {
    let summary = &document["summary"];
    assert_eq!(count(&summary["deals"]), deals);
    let verdicts = ["won", "lost", "undecided"];
    let by_verdict: Vec<u64> = verdicts.iter().map(|v| count(&summary[v])).collect();
    assert_eq!(by_verdict.iter().sum::<u64>(), deals);
    let policy = &summary["policy"];
    assert_eq!(count(&policy["went-out"]) + count(&policy["stuck"]), deals);
    let mut went_out = 0;
    for (verdict, n) in verdicts.iter().zip(&by_verdict) {
        let cell = &policy["by-verdict"][verdict];
        assert_eq!(count(&cell["went-out"]) + count(&cell["stuck"]), *n);
        went_out += count(&cell["went-out"]);
    }
    assert_eq!(went_out, count(&policy["went-out"]));
    let nodes = summary["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 41);
    assert_eq!(nodes.iter().map(|b| count(&b["deals"])).sum::<u64>(), deals);
    let winnable = &summary["winnable"];
    let bound = |i: usize| winnable["bounds"][i].as_f64().unwrap();
    let ci = |i: usize| winnable["ci95"][i].as_f64().unwrap();
    assert!(ci(0) <= bound(0) && bound(0) <= bound(1) && bound(1) <= ci(1));
    if let Some(estimate) = winnable["estimate"].as_f64() {
        assert!(bound(0) <= estimate && estimate <= bound(1), "{winnable}");
    } else {
        assert_eq!(by_verdict[0] + by_verdict[1], 0, "null estimate");
    }
}

/// Each listed deal is numbered in order and agrees with the summary; a
/// won deal has moves (and, on the full deck, stock turns), any other
/// none.
fn assert_deals_listed(document: &Value, first: u64, n: u64) {
    let deals = document["deals"].as_array().unwrap();
    let numbers: Vec<u64> = deals.iter().map(|d| count(&d["index"])).collect();
    assert_eq!(numbers, (first..first + n).collect::<Vec<_>>());
    for deal in deals {
        let won = deal["verdict"] == "won";
        assert_eq!(count(&deal["moves"]) > 0, won, "{deal}");
        // The first card turned is the only way to the stock's 24.
        assert_eq!(count(&deal["stock-turns"]) > 0, won, "{deal}");
        assert!(deal["seconds"].as_f64().unwrap() >= 0.0);
    }
}

/// The summary of a document: everything but the deals' seconds.
fn summary(document: &Value) -> Value {
    document["summary"].clone()
}

#[test]
fn random_deals_add_up_and_do_not_depend_on_threads_or_shards() {
    let line = format!("klondike solve --trials 40 --seed 3 {BUDGET}");
    let one = json_of(&format!("--threads 1 {line}"));
    let two = json_of(&format!("--threads 2 {line}"));
    assert_eq!(violations(&one), Vec::<String>::new());
    assert_adds_up(&one, 40);
    assert_deals_listed(&one, 0, 40);
    assert_eq!(count(&one["trials"]), 40);
    assert_eq!(count(&one["seed"]), 3);
    assert_eq!(summary(&one), summary(&two));
    // The listed deals' verdicts are the summary's.
    for verdict in ["won", "lost", "undecided"] {
        let listed = one["deals"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["verdict"] == verdict)
            .count() as u64;
        assert_eq!(listed, count(&one["summary"][verdict]), "{verdict}");
    }

    // Two parts merged: the one run's counts, its deals not listed again.
    let dir = tempfile::tempdir().unwrap();
    let part = |k: u64| dir.path().join(format!("part-{k}.json"));
    for k in 0..2 {
        let output = deckodds()
            .args(line.split_whitespace())
            .args(["--quiet", "--shard", &format!("{k}/2"), "--out"])
            .arg(part(k))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(part(k)).unwrap()).unwrap();
        assert_eq!(violations(&document), Vec::<String>::new());
        assert_eq!(document["shard"]["part"], format!("{k}/2"));
        assert_deals_listed(&document, 20 * k, 20);
    }
    let merged = dir.path().join("merged.json");
    let output = deckodds()
        .args(["--quiet", "merge"])
        .args((0..2).map(part))
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let merged: Value = serde_json::from_str(&std::fs::read_to_string(merged).unwrap()).unwrap();
    assert_eq!(violations(&merged), Vec::<String>::new());
    assert_eq!(summary(&merged), summary(&one));
    assert_eq!(merged["deals"], Value::Array(Vec::new()));
}

#[test]
fn a_stopped_run_resumes_to_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("klondike solve --trials 40 --seed 3 {BUDGET}");
    let whole = json_of(&line);
    let out = dir.path().join("resumed.json");
    let checkpoint = dir.path().join("run.checkpoint");
    let args: Vec<String> = line
        .split_whitespace()
        .map(String::from)
        .chain(["--quiet".into(), "--checkpoint".into()])
        .chain([checkpoint.display().to_string()])
        .chain(["--out".into(), out.display().to_string()])
        .collect();
    let resume = interrupted(&args, 3, &out);
    assert!(checkpoint.exists(), "no checkpoint saved");
    let output = run_printed(&resume, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let resumed: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(violations(&resumed), Vec::<String>::new());
    assert_eq!(summary(&resumed), summary(&whole));
    // The deals solved after the resume, listed in order up to the last.
    let listed = resumed["deals"].as_array().unwrap();
    assert!(listed.len() < 40, "the chunks restored are not listed");
    if let Some(first) = listed.first() {
        let first = count(&first["index"]);
        assert_deals_listed(&resumed, first, 40 - first);
    }
    assert!(!checkpoint.exists());
}

#[test]
fn given_deals_are_solved_in_order_and_validate() {
    let cards = sorted_cards();
    let mut reversed = cards.clone();
    reversed.reverse();
    let dir = tempfile::tempdir().unwrap();
    let deals = dir.path().join("deals.txt");
    std::fs::write(
        &deals,
        format!(
            "# three deals\n{}\n\n{}\n  {}  \n",
            cards.join(" "),
            reversed.join(" "),
            cards.join(",")
        ),
    )
    .unwrap();
    let listed = json_of(&format!(
        "klondike solve --deals {} {BUDGET}",
        deals.display()
    ));
    assert_eq!(violations(&listed), Vec::<String>::new());
    assert_adds_up(&listed, 3);
    assert_deals_listed(&listed, 0, 3);
    assert!(listed.get("trials").is_none() && listed.get("seed").is_none());
    // The same deal twice gets the same verdict and search.
    let (first, third) = (&listed["deals"][0], &listed["deals"][2]);
    for field in ["verdict", "moves", "stock-turns", "nodes", "policy"] {
        assert_eq!(first[field], third[field], "{field}");
    }
    // Several deals: the fraction over them; the policy (draw 1, one
    // pass) is not set beside a draw-3 solve.
    let text = run_ok(&[
        "klondike",
        "solve",
        "--quiet",
        "--deals",
        &deals.display().to_string(),
        "--max-nodes",
        "20000",
    ]);
    assert!(text.contains("winnable: "), "{text}");
    assert!(text.contains("3 given deals"), "{text}");
    assert!(!text.contains("policy"), "{text}");

    // One deal: the same verdict as in the file, and the text's table.
    let one = json_of(&format!(
        "klondike solve --deal {} {BUDGET}",
        cards.join(",")
    ));
    assert_eq!(violations(&one), Vec::<String>::new());
    assert_adds_up(&one, 1);
    for field in ["verdict", "moves", "stock-turns", "nodes", "policy"] {
        assert_eq!(one["deals"][0][field], first[field], "{field}");
    }
    // The text answers for the deal alone: its verdict first, no
    // fraction over one deal, no interval, no policy of other rules.
    let text = run_ok(&[
        "klondike",
        "solve",
        "--quiet",
        "--deal",
        &cards.join(","),
        "--max-nodes",
        "20000",
    ]);
    let verdict = one["deals"][0]["verdict"].as_str().unwrap();
    let second = text.lines().nth(1).unwrap_or_default();
    assert!(second.starts_with(&format!("{verdict}: ")), "{text}");
    for absent in ["winnable", "%", "policy"] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
    if verdict == "lost" {
        assert!(text.contains("\nproof"), "a lost deal says why: {text}");
    }
    // --draw 1 and a limited number of passes are carried into params.
    let limited = json_of(&format!(
        "klondike solve --deal {} --draw 1 --passes 2 --max-nodes 500 --max-seconds 30",
        cards.join(",")
    ));
    assert_eq!(limited["params"]["draw"], 1);
    assert_eq!(limited["params"]["passes"], "2");
    assert_eq!(limited["params"]["max-nodes"], 500);
    assert_eq!(limited["params"]["max-seconds"], 30.0);
    assert_eq!(violations(&limited), Vec::<String>::new());
}

#[test]
fn the_printed_table_of_random_deals() {
    let text = run_ok(&[
        "klondike",
        "solve",
        "--quiet",
        "--trials",
        "8",
        "--seed",
        "5",
        "--max-nodes",
        "20000",
    ]);
    // Deterministic under a node budget but for the one line of solve
    // times, which is checked for its shape and left out of the snapshot.
    let (times, rest): (Vec<&str>, Vec<&str>) = text
        .lines()
        .partition(|line| line.starts_with("solve time a deal: median "));
    assert_eq!(times.len(), 1, "{text}");
    assert!(times[0].ends_with(" in all for 8 deals"), "{text}");
    insta::assert_snapshot!(rest.join("\n"));
}

#[test]
fn the_precision_target_watches_the_verdicts() {
    let document = json_of(&format!(
        "klondike solve --until-halfwidth 0.2 --max-trials 400 --seed 2 {BUDGET}"
    ));
    assert_eq!(violations(&document), Vec::<String>::new());
    let trials = count(&document["trials"]);
    assert!(trials <= 400);
    assert_adds_up(&document, trials);
    assert_deals_listed(&document, 0, trials);
    let run = &document["precision"]["runs"][0];
    assert!(run["widest"].as_str().unwrap().starts_with("verdict/"));
}

proptest! {
    /// `--passes`: every whole number 1..=255 is that many passes and
    /// prints back as itself, `unlimited` is unlimited, and anything else
    /// is refused naming the value.
    #[test]
    fn the_passes_parser_reads_back_what_it_prints(n in 0u32..1000, junk in "[a-z0-9 ]{0,8}") {
        let text = n.to_string();
        match parse_passes(&text) {
            Ok(passes) => {
                prop_assert!((1..=255).contains(&n));
                prop_assert_eq!(passes, Passes::Limited(n as u8));
                prop_assert_eq!(passes.to_string(), text);
            }
            Err(error) => {
                prop_assert!(n == 0 || n > 255);
                let named = format!("passes {n}: ");
                prop_assert!(error.to_string().starts_with(&named), "{}", error);
            }
        }
        prop_assert_eq!(parse_passes("unlimited").unwrap(), Passes::Unlimited);
        let parsed = parse_passes(&junk);
        let is_number = junk.parse::<u8>().is_ok_and(|n| n >= 1);
        prop_assert_eq!(parsed.is_ok(), is_number || junk == "unlimited");
        if let Ok(passes) = parsed {
            prop_assert_eq!(parse_passes(&passes.to_string()).unwrap(), passes);
        }
    }
}

#[test]
fn a_deal_the_policy_wins_is_won_and_its_record_replays() {
    // The first game the section 4 policy wins (draw 1, one pass), as
    // `klondike record` prints its deal: the same stock rule played
    // freely wins it too, and the record of the solver's win is printed
    // (replayed move by move by the rules checker before it is printed).
    let record = run_ok(&[
        "klondike",
        "record",
        "--went-out",
        "--games",
        "1",
        "--ascii",
    ]);
    let deal = record
        .lines()
        .skip_while(|line| !line.starts_with("Deal, first card first"))
        .nth(1)
        .expect("the record names its deal");
    let text = run_ok(&[
        "klondike", "solve", "--quiet", "--deal", deal, "--draw", "1", "--passes", "1",
    ]);
    assert!(text.contains("a won game"), "{text}");
    assert!(
        text.contains("End: all 52 cards are on the foundations."),
        "{text}"
    );
    // Under the policy's own stock rule the policy's game is beside it.
    assert!(
        text.contains(
            "the fixed policy (RULES.md section 4, the same stock rule) goes out on this deal"
        ),
        "{text}"
    );
    let document = json_of(&format!(
        "klondike solve --deal {} --draw 1 --passes 1",
        deal.replace(' ', ",")
    ));
    let solved = &document["deals"][0];
    assert_eq!(solved["verdict"], "won");
    assert_eq!(solved["policy"], "went-out");
    // "Moves" is one count everywhere: the verdict line, the JSON, the
    // record's numbered lines and its closing line all give the same
    // moves, stock turns apart.
    let (moves, turns) = (count(&solved["moves"]), count(&solved["stock-turns"]));
    assert!(
        text.contains(&format!("wins it in {moves} moves and {turns} stock turns")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Moves: {moves}; stock turns: {turns};")),
        "{text}"
    );
    let numbered = text
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            line.split_whitespace()
                .next()
                .is_some_and(|word| word.parse::<u64>().is_ok())
                && !line.starts_with("1    2")
        })
        .count() as u64;
    assert_eq!(numbered, moves, "{text}");
}
