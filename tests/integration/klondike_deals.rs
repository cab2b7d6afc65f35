//! Deals in and out (issue 45): `deckodds klondike deals` writes the deals
//! `klondike solve --trials` solves, in Solvitaire's JSON deal format or
//! as card lines; `klondike solve --deals` reads both alike; `--verdicts`
//! writes a CSV row a deal. Bad input: one line naming the value, exit
//! status 2, no file written.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::support::{deckodds, run_ok};

/// A small budget in states: deterministic verdicts, some undecided.
const BUDGET: &str = "--max-nodes 20000";

/// Runs deckodds with the words of `line` (and `extra`), which must
/// succeed quietly; returns stdout.
fn ran(line: &str, extra: &[&str]) -> String {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(extra);
    args.push("--quiet");
    run_ok(&args)
}

/// The JSON document of a solve.
fn solved(line: &str, extra: &[&str]) -> Value {
    let text = ran(line, &[extra, &["--format", "json"]].concat());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{line}: {e}: {text}"))
}

/// What a solve found of each deal, in order, without the seconds:
/// (number, verdict, states, moves, stock turns).
fn found(document: &Value) -> Vec<(u64, String, u64, u64, u64)> {
    document["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|deal| {
            let count = |key: &str| deal[key].as_u64().unwrap();
            (
                count("index"),
                deal["verdict"].as_str().unwrap().to_string(),
                count("nodes"),
                count("moves"),
                count("stock-turns"),
            )
        })
        .collect()
}

fn path_arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_deals_written_are_the_deals_solve_trials_solves_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("deals.jsonl");
    let cards = dir.path().join("deals.txt");
    let each = dir.path().join("each");
    fs::create_dir(&each).unwrap();
    let trials = "--trials 12 --seed 3";
    ran(
        &format!("klondike deals {trials} --out {}", path_arg(&jsonl)),
        &[],
    );
    ran(
        &format!("klondike deals {trials} --out {}", path_arg(&cards)),
        &[],
    );
    ran(
        &format!("klondike deals {trials} --out-dir {}", path_arg(&each)),
        &[],
    );
    // Standard output is JSON Lines, the file's bytes.
    let printed = ran(&format!("klondike deals {trials}"), &[]);
    let lines = fs::read_to_string(&jsonl).unwrap();
    assert_eq!(printed, lines);
    assert_eq!(lines.lines().count(), 12);
    for line in lines.lines() {
        let deal: Value = serde_json::from_str(line).unwrap();
        let keys: Vec<&String> = deal.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["tableau piles", "stock"]);
        assert_eq!(deal["tableau piles"].as_array().unwrap().len(), 7);
        assert_eq!(deal["stock"].as_array().unwrap().len(), 24);
    }
    let text = fs::read_to_string(&cards).unwrap();
    assert!(text.starts_with("# the deals of `deckodds klondike solve --trials 12 --seed 3`"));
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 12);
    // A file each, named by number, read together as one array.
    let mut names: Vec<String> = fs::read_dir(&each)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (0..12).map(|i| format!("deal-{i:05}.json")).collect();
    assert_eq!(names, expected);
    let array = dir.path().join("array.json");
    let objects: Vec<String> = names
        .iter()
        .map(|name| fs::read_to_string(each.join(name)).unwrap())
        .collect();
    fs::write(&array, format!("[\n{}]\n", objects.join(",\n"))).unwrap();

    // Solved from each file: the verdicts, states, moves and stock turns
    // of the random run, deal by deal.
    let random = found(&solved(&format!("klondike solve {trials} {BUDGET}"), &[]));
    assert_eq!(random.len(), 12);
    for file in [&jsonl, &cards, &array] {
        let given = found(&solved(
            &format!("klondike solve --deals {} {BUDGET}", path_arg(file)),
            &[],
        ));
        assert_eq!(given, random, "{}", file.display());
    }
    // And a file written from a file: JSON to card lines, the same deals.
    let again = dir.path().join("again.txt");
    ran(
        &format!(
            "klondike deals --deals {} --out {}",
            path_arg(&array),
            path_arg(&again)
        ),
        &[],
    );
    let read: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let converted = fs::read_to_string(&again).unwrap();
    let converted: Vec<&str> = converted.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(read, converted);
}

/// The verdicts CSV with each row's seconds checked as a number and
/// written as `S`.
fn redacted(csv: &str) -> String {
    csv.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), 6, "{line}");
            if i > 0 {
                let seconds: f64 = cells[3].parse().unwrap();
                assert!((0.0..600.0).contains(&seconds), "{line}");
                cells[3] = "S";
            }
            cells.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_verdicts_csv_lists_each_deal_as_the_json_does() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("verdicts.csv");
    let report = dir.path().join("report.json");
    ran(
        &format!(
            "klondike solve --trials 8 --seed 5 {BUDGET} --verdicts {} --out {}",
            path_arg(&csv),
            path_arg(&report)
        ),
        &[],
    );
    let text = fs::read_to_string(&csv).unwrap();
    let document: Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    let rows: Vec<(u64, String, u64, u64, u64)> = text
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let number = |i: usize| cells[i].parse::<u64>().unwrap();
            (
                number(0),
                cells[1].to_string(),
                number(2),
                number(4),
                number(5),
            )
        })
        .collect();
    assert_eq!(rows, found(&document));
    insta::assert_snapshot!(redacted(&text));

    // Given deals are numbered by their place in the file; `-` is
    // standard output when the report goes to a file; the summary CSV of
    // --format csv is unchanged beside it.
    let deals = dir.path().join("deals.jsonl");
    ran(
        &format!(
            "klondike deals --trials 3 --seed 5 --out {}",
            path_arg(&deals)
        ),
        &[],
    );
    let summary = dir.path().join("summary.csv");
    let printed = ran(
        &format!(
            "klondike solve --deals {} {BUDGET} --verdicts - --out {}",
            path_arg(&deals),
            path_arg(&summary)
        ),
        &[],
    );
    let numbers: Vec<&str> = printed
        .lines()
        .skip(1)
        .map(|line| line.split(',').next().unwrap())
        .collect();
    assert_eq!(numbers, ["0", "1", "2"]);
    assert_eq!(
        redacted(&printed).lines().skip(1).collect::<Vec<_>>(),
        redacted(&text).lines().skip(1).take(3).collect::<Vec<_>>()
    );
    let summary = fs::read_to_string(&summary).unwrap();
    assert!(
        summary.starts_with("draw,passes,max_nodes,verdict,policy,deals,trials\n"),
        "{summary}"
    );
}

/// Runs `args` in `dir`, expecting exit status 2, one line on stderr
/// holding `expected`, nothing on stdout, and no file left in `dir` but
/// `keep`.
fn refused_in(dir: &Path, args: &str, expected: &str, keep: &[&str]) {
    let output = deckodds()
        .current_dir(dir)
        .args(args.split_whitespace())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}");
    assert!(stderr.contains(expected), "{args}: {stderr}");
    assert!(output.stdout.is_empty(), "{args}");
    let mut left: Vec<String> = walk(dir);
    left.retain(|name| !keep.contains(&name.as_str()));
    assert_eq!(left, Vec::<String>::new(), "{args}: files left");
}

/// The files under `dir`, relative, sorted.
fn walk(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            files.extend(walk(&path).into_iter().map(|f| format!("{name}/{f}")));
        } else {
            files.push(name);
        }
    }
    files.sort();
    files
}

#[test]
fn bad_deals_and_bad_outputs_are_refused_in_one_line_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path();
    let written = run_ok(&["klondike", "deals", "--trials", "3", "--quiet"]);
    let lines: Vec<&str> = written.lines().collect();
    // Deal 1 on line 3 (after a blank line) with a pile's top card face
    // down: its first pile is one card, its top.
    let top = lines[1].split('"').nth(3).unwrap().to_string();
    let face_down = lines[1].replacen(
        &format!("[[\"{top}\"]"),
        &format!("[[\"{}\"]", top.to_lowercase()),
        1,
    );
    assert_ne!(face_down, lines[1]);
    fs::write(
        here.join("bad.json"),
        format!("{}\n\n{face_down}\n{}\n", lines[0], lines[2]),
    )
    .unwrap();
    // A key Solvitaire does not have, and a card the deal has twice.
    let hole = lines[0].replacen('{', "{\"hole\":\"AS\",", 1);
    fs::write(here.join("hole.json"), &hole).unwrap();
    // Deal 0 with its first pile's top card written over the stock's
    // first card (the last turned) too.
    let mut twice: Value = serde_json::from_str(lines[0]).unwrap();
    let top_0 = twice["tableau piles"][0][0].clone();
    twice["stock"][0] = top_0.clone();
    fs::write(here.join("twice.json"), twice.to_string()).unwrap();
    fs::create_dir(here.join("out")).unwrap();
    let inputs = ["bad.json", "hole.json", "twice.json"];
    let keep = |extra: &'static str| -> Vec<&'static str> {
        let mut keep = inputs.to_vec();
        if !extra.is_empty() {
            keep.push(extra);
        }
        keep
    };
    let top_down = format!(
        "bad.json:3: deal 1: tableau piles[0][0] \"{}\": is face down (lower-case suit), but the top card of a pile is dealt face up: write \"{top}\"",
        top.to_lowercase()
    );
    let cases: Vec<(String, String)> = vec![
        ("klondike solve --deals bad.json --out r.json".into(), top_down.clone()),
        (
            "klondike solve --deals bad.json --verdicts v.csv --out r.json".into(),
            top_down.clone(),
        ),
        ("klondike deals --deals bad.json --out d.jsonl".into(), top_down.clone()),
        ("klondike deals --deals bad.json --out-dir out".into(), top_down),
        (
            "klondike solve --deals hole.json --out r.json".into(),
            "hole.json:1: deal 0: key \"hole\": is not a key of a Klondike deal in Solvitaire's format".into(),
        ),
        (
            "klondike solve --deals twice.json --out r.json".into(),
            format!(
                "twice.json:1: deal 0: stock[0] {top_0}: is the card tableau piles[0][0] already holds: each card of the deck is dealt once"
            ),
        ),
        (
            "klondike solve --trials 4 --verdicts v.txt --out r.json".into(),
            "--verdicts v.txt: the verdicts are CSV: name the file .csv".into(),
        ),
        (
            "klondike solve --trials 4 --verdicts -".into(),
            "--verdicts -: standard output already carries the report".into(),
        ),
        (
            "klondike deals --trials 3 --out d.xml".into(),
            "--out d.xml: name the file .json or .jsonl (Solvitaire's JSON deal format) or .txt (card lines), or give --format".into(),
        ),
        (
            "klondike deals --trials 3 --format xml".into(),
            "--format xml: must be solvitaire (Solvitaire's JSON deal format) or cards".into(),
        ),
        (
            "klondike deals --trials 3 --out-dir missing".into(),
            "--out-dir missing: must be an existing directory".into(),
        ),
        (
            "klondike deals --trials 3 --out d.json --out-dir out".into(),
            "--out-dir".into(),
        ),
        ("klondike deals --seed 4".into(), "needs one of them".into()),
        (
            "klondike deals --trials 2e7".into(),
            "--trials 20000000: must be at most 10000000".into(),
        ),
    ];
    for (args, expected) in &cases {
        refused_in(here, args, expected, &keep(""));
    }
    // The file read is not written over by a deal's file: the first
    // deal's, checked before the file is read, or another's.
    fs::write(here.join("out/deal-00000.json"), lines[0]).unwrap();
    refused_in(
        here,
        "klondike deals --deals out/deal-00000.json --out-dir out",
        "--out-dir out/deal-00000.json: the same file as --deals out/deal-00000.json, which the run reads",
        &keep("out/deal-00000.json"),
    );
    fs::remove_file(here.join("out/deal-00000.json")).unwrap();
    fs::write(here.join("out/deal-00001.json"), &written).unwrap();
    refused_in(
        here,
        "klondike deals --deals out/deal-00001.json --out-dir out",
        "--out-dir out: out/deal-00001.json is the file --deals reads: write the deals into another directory (nothing was written)",
        &keep("out/deal-00001.json"),
    );
}
