//! `deckodds blackjack table` and `table compare` end to end (RULES.md
//! section 6, "At the table"; issue 21): the JSON contract held to the
//! report's own counts, counts that do not depend on threads, shards or
//! interrupts, agreement with the exact value off the top, chart files,
//! published claims, and the refusals that need a file (those that need
//! none are rows of games.rs). Fixed seeds; every run is a fraction of a
//! second in release.

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;

use deckodds::games::registry::BLACKJACK_TABLE_REPORT;

use crate::long_runs::{interrupted, run_printed};
use crate::support::{completed, deckodds, run_into, run_line};

/// The normal quantile of a 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// The rules in `"params"`, as every player command writes them.
const RULE_KEYS: [&str; 10] = [
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

/// Keys of a `table compare` agreement block.
const AGREEMENT_KEYS: [&str; 8] = [
    "exact",
    "mean",
    "standard_error",
    "z",
    "p_value",
    "level",
    "z_critical",
    "agrees",
];

/// The JSON report of `line`, which must complete (exit 0, or 1 for a
/// comparison's disagreement).
fn json_of(line: &str) -> Value {
    serde_json::from_str(&run_line(&format!("{line} --format json --quiet"))).unwrap()
}

/// Runs `line` (words) with `--format json --quiet` in `dir`; returns the
/// exit status and the report.
pub(crate) fn status_and_json(dir: &Path, line: &str) -> (i32, Value) {
    let output = deckodds()
        .current_dir(dir)
        .args(line.split_whitespace())
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        completed(&output),
        "{line}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{line}: the report is not whole JSON: {e}"));
    (output.status.code().unwrap(), report)
}

fn float(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn whole(value: &Value) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("not a count: {value}"))
}

/// `a` and `b` equal to `tolerance` in absolute terms.
fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// The outcomes of the distribution `key` of a report: (label, count).
fn outcomes<'a>(report: &'a Value, key: &str) -> Vec<(&'a str, u64)> {
    report["distributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["key"] == key)
        .unwrap_or_else(|| panic!("no distribution {key}"))["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["outcome"].as_str().unwrap(), whole(&o["count"])))
        .collect()
}

/// The net results per round as (units, rounds), from the labels.
fn net_counts(report: &Value) -> Vec<(f64, u64)> {
    outcomes(report, "net per round")
        .into_iter()
        .map(|(label, count)| {
            let units: f64 = label
                .parse()
                .unwrap_or_else(|_| panic!("net label {label}"));
            (units, count)
        })
        .collect()
}

/// Rounds whose net result is `units`.
fn rounds_at(net: &[(f64, u64)], units: f64) -> u64 {
    net.iter()
        .filter(|(x, _)| (x - units).abs() < 1e-9)
        .map(|(_, n)| n)
        .sum()
}

/// Everything a table report states twice adds up: the rounds in each
/// distribution, the mean and standard deviation from the net results,
/// the interval from the standard error, the house edge, win/loss/push
/// from the sign of the net result, the rounds per shoe, each outcome's
/// estimate inside its interval, and the rows by true count (which add up
/// to every round and, weighted, to the mean).
fn check_adds_up(line: &str, report: &Value) {
    let rounds = whole(&report["rounds"]);
    let shoes = whole(&report["shoes"]);
    assert!(rounds > 0 && shoes > 0, "{line}");
    let net = net_counts(report);
    assert_eq!(net.iter().map(|(_, n)| n).sum::<u64>(), rounds, "{line}");
    let n = rounds as f64;
    let total: f64 = net.iter().map(|(x, c)| x * *c as f64).sum();
    let mean = float(&report["value"]["mean"]);
    assert!(near(mean, total / n, 1e-12), "{line}: {mean} {}", total / n);
    // The sample standard deviation, n or n - 1 in the denominator (they
    // differ by 1/(2n), relatively).
    let squares: f64 = net
        .iter()
        .map(|(x, c)| (x - mean).powi(2) * *c as f64)
        .sum();
    let sd = float(&report["value"]["sd"]);
    let recomputed = (squares / n).sqrt();
    assert!(
        (sd / recomputed - 1.0).abs() < 1.0 / n + 1e-12,
        "{line}: sd {sd}, recomputed {recomputed}"
    );
    let standard_error = float(&report["value"]["standard_error"]);
    assert!(standard_error > 0.0, "{line}");
    let ci = &report["value"]["ci95"];
    assert!(near(float(&ci[0]), mean - Z_95 * standard_error, 1e-12));
    assert!(near(float(&ci[1]), mean + Z_95 * standard_error, 1e-12));
    assert!(near(
        float(&report["house_edge_percent"]),
        -100.0 * mean,
        1e-12
    ));

    let outcome = |name: &str| whole(&report["outcomes"][name]);
    let (win, loss, push) = (outcome("win"), outcome("loss"), outcome("push"));
    assert_eq!(win + loss + push, rounds, "{line}");
    let sign_count = |keep: fn(f64) -> bool| -> u64 {
        net.iter().filter(|(x, _)| keep(*x)).map(|(_, c)| c).sum()
    };
    assert_eq!(win, sign_count(|x| x > 0.0), "{line}");
    assert_eq!(loss, sign_count(|x| x < 0.0), "{line}");
    assert_eq!(push, sign_count(|x| x == 0.0), "{line}");
    // Half units come only from a surrender (-0.5) and a natural paid 3:2
    // (+1.5): split and doubled hands win or lose whole units.
    let events = &report["events"];
    assert_eq!(
        whole(&events["surrendered"]),
        rounds_at(&net, -0.5),
        "{line}"
    );
    assert!(rounds_at(&net, 1.5) <= whole(&events["natural"]), "{line}");
    for (name, count) in events.as_object().unwrap() {
        assert!(whole(count) <= rounds, "{line}: {name}");
    }

    let per_shoe = outcomes(report, "rounds per shoe");
    assert_eq!(
        per_shoe.iter().map(|(_, c)| c).sum::<u64>(),
        shoes,
        "{line}"
    );
    let dealt: u64 = per_shoe
        .iter()
        .map(|(k, c)| k.parse::<u64>().unwrap() * c)
        .sum();
    assert_eq!(dealt, rounds, "{line}");
    assert!(near(
        float(&report["rounds_per_shoe"]["mean"]),
        n / shoes as f64,
        1e-12
    ));

    for distribution in report["distributions"].as_array().unwrap() {
        let outcomes = distribution["outcomes"].as_array().unwrap();
        let sum: u64 = outcomes.iter().map(|o| whole(&o["count"])).sum();
        for o in outcomes {
            let estimate = float(&o["estimate"]);
            assert!(near(
                estimate,
                whole(&o["count"]) as f64 / sum as f64,
                1e-15
            ));
            let (low, high) = (float(&o["ci95"][0]), float(&o["ci95"][1]));
            assert!(low <= estimate && estimate <= high, "{line}: {o}");
        }
    }

    let rows = report["by_true_count"].as_array().unwrap();
    if rows.is_empty() {
        return;
    }
    assert_eq!(
        rows.iter().map(|r| whole(&r["rounds"])).sum::<u64>(),
        rounds,
        "{line}"
    );
    let mut weighted = 0.0;
    for row in rows {
        let count = whole(&row["rounds"]);
        assert!(near(float(&row["frequency"]), count as f64 / n, 1e-15));
        if count > 1 {
            let row_mean = float(&row["mean"]);
            weighted += row_mean * count as f64;
            let (low, high) = (float(&row["ci95"][0]), float(&row["ci95"][1]));
            assert!(low < row_mean && row_mean < high, "{line}: {row}");
        } else if count == 1 {
            weighted += float(&row["mean"]);
        }
    }
    assert!(
        near(weighted, total, 1e-9 * n),
        "{line}: {weighted} {total}"
    );
}

/// The contract of `blackjack table --format json` (the render doc comment
/// of report/blackjack_table.rs): a cut-card run with a count, a run of
/// one round per shoe (shoes = rounds = trials, a fresh shoe's true count
/// always 0), and a run without a count; each report adds up.
#[test]
fn table_json_holds_the_contract_and_adds_up() {
    let line = "blackjack table --trials 200000 --seed 7 --count hi-lo";
    let report = json_of(line);
    assert_eq!(report["game"], "blackjack-table");
    assert_eq!(report["game"], BLACKJACK_TABLE_REPORT);
    assert_eq!(report["method"], "monte-carlo");
    assert_eq!(report["seed"], 7);
    let params = &report["params"];
    for key in RULE_KEYS {
        assert!(params[key].is_string(), "{key}: {params}");
    }
    assert_eq!(params["decks"], "6");
    assert_eq!(params["split_model"], "cdz");
    assert_eq!(params["shoe_cards"], 312);
    // 0.75 of 312 cards.
    assert_eq!(params["cut_card_after"], 234);
    assert_eq!(float(&params["penetration"]), 0.75);
    assert!(params.get("rounds_per_shoe").is_none(), "{params}");
    assert_eq!(params["strategy"], "cd");
    assert_eq!(params["count"], "hi-lo");
    assert_eq!(
        params["count_tags"],
        "A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1"
    );
    // The run is sized in shoes: about the rounds asked for.
    let rounds = whole(&report["rounds"]);
    assert!(rounds.abs_diff(200_000) < 4_000, "{rounds}");
    // 75% of a six-deck shoe deals about 40-45 rounds.
    let per_shoe = float(&report["rounds_per_shoe"]["mean"]);
    assert!((38.0..48.0).contains(&per_shoe), "{per_shoe}");
    check_adds_up(line, &report);
    let labels: Vec<&str> = report["by_true_count"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["true_count"].as_str().unwrap())
        .collect();
    assert_eq!(labels.first(), Some(&"<=-10"), "{labels:?}");
    assert_eq!(labels.last(), Some(&">=+10"), "{labels:?}");
    assert!(
        labels.contains(&"0") && labels.contains(&"+1"),
        "{labels:?}"
    );
    for key in [
        "exact_off_the_top",
        "difference",
        "agreement",
        "claim",
        "verdict",
    ] {
        assert!(report.get(key).is_none(), "{key} outside compare");
    }

    let line = "blackjack table --trials 100000 --seed 7 --rounds-per-shoe 1 --count hi-lo";
    let fresh = json_of(line);
    assert_eq!(fresh["shoes"], 100_000);
    assert_eq!(fresh["rounds"], 100_000);
    assert_eq!(fresh["params"]["rounds_per_shoe"], 1);
    for key in ["penetration", "cut_card_after", "shoe_cards"] {
        assert!(fresh["params"].get(key).is_none(), "{key}");
    }
    assert_eq!(float(&fresh["rounds_per_shoe"]["mean"]), 1.0);
    assert_eq!(fresh["rounds_per_shoe"]["reshuffled_shoes"], 0);
    check_adds_up(line, &fresh);
    // Every shoe independent: the standard error is that of the rounds.
    let n = 100_000f64;
    let standard_error = float(&fresh["value"]["standard_error"]);
    let of_rounds = float(&fresh["value"]["sd"]) / n.sqrt();
    assert!((standard_error / of_rounds - 1.0).abs() < 1e-5);
    // Before a fresh shoe's first card the running count is 0.
    let counted: Vec<(&str, u64)> = fresh["by_true_count"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["true_count"].as_str().unwrap(), whole(&row["rounds"])))
        .filter(|(_, rounds)| *rounds > 0)
        .collect();
    assert_eq!(counted, [("0", 100_000)]);

    let line = "blackjack table --trials 50000 --seed 2 --decks 1 --h17 --surrender late";
    let plain = json_of(line);
    assert!(plain["params"].get("count").is_none());
    assert_eq!(plain["by_true_count"], Value::Array(Vec::new()));
    assert_eq!(plain["params"]["surrender"], "late");
    assert_eq!(plain["params"]["cut_card_after"], 39);
    assert!(whole(&plain["events"]["surrendered"]) > 0);
    check_adds_up(line, &plain);
}

/// The checker of the report is no rubber stamp: a round moved between
/// net results, or a win counted as a loss, is caught.
#[test]
fn the_report_checks_catch_what_they_are_for() {
    let line = "blackjack table --trials 20000 --seed 3 --decks 2";
    let report = json_of(line);
    check_adds_up(line, &report);
    let fails =
        |report: Value| std::panic::catch_unwind(|| check_adds_up("edited", &report)).is_err();
    let mut moved = report.clone();
    let net = moved["distributions"][0]["outcomes"]
        .as_array_mut()
        .unwrap();
    let at = |label: &str| net.iter().position(|o| o["outcome"] == label).unwrap();
    let (from, to) = (at("-1.0"), at("+1.0"));
    net[from]["count"] = (whole(&net[from]["count"]) - 1).into();
    net[to]["count"] = (whole(&net[to]["count"]) + 1).into();
    assert!(fails(moved));
    let mut swapped = report.clone();
    swapped["outcomes"]["win"] = (whole(&report["outcomes"]["win"]) - 1).into();
    swapped["outcomes"]["loss"] = (whole(&report["outcomes"]["loss"]) + 1).into();
    assert!(fails(swapped));
}

/// Rounds are the same on one thread and two (several chunks and a short
/// last one, a count, a cut card, one round per shoe), and another seed
/// deals others.
#[test]
fn table_counts_do_not_depend_on_threads() {
    for line in [
        "blackjack table --trials 300000 --count hi-lo --decks 2",
        "blackjack table --trials 200001 --rounds-per-shoe 1 --h17",
        "blackjack table compare --trials 150000 --decks 1 --enhc --surrender early",
        "blackjack table --trials 200000 --count hi-lo --decks 2 --bet-ramp <=1:1,2:2,3:4,>=4:8 \
         --wong-out -1 --true-count round --bankroll 200 --trip-rounds 2000 --trips 300",
    ] {
        let text = |threads: u32, seed: u64| {
            run_line(&format!(
                "{line} --seed {seed} --threads {threads} --format json --quiet"
            ))
        };
        let one = text(1, 11);
        assert_eq!(text(2, 11), one, "{line}");
        assert_ne!(text(2, 12), one, "{line}: the seed must matter");
    }
}

/// Parts of a run (`--shard k/n --out part.json`) merge into exactly the
/// one run's file, for a table with a count and for a comparison with a
/// published claim (whose check is made again from the merged counts).
#[test]
fn table_shards_merge_into_the_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let claim = dir.path().join("claim.txt");
    fs::write(
        &claim,
        "house-edge-percent = 0.45\nrounds = 1e7\nwin-percent = 43.4\n",
    )
    .unwrap();
    let cases = [
        (
            "blackjack table --trials 400000 --seed 5 --count hi-lo --decks 2".to_string(),
            2,
        ),
        (
            format!(
                "blackjack table compare --trials 300000 --seed 6 --published {}",
                claim.display()
            ),
            3,
        ),
        (
            "blackjack table --trials 300000 --seed 7 --count hi-lo --decks 2 --bet-ramp \
             <=1:1,2:4,>=3:8 --wong-in 0 --bankroll 300 --trip-rounds 1000 --trips 400"
                .to_string(),
            2,
        ),
    ];
    for (line, parts) in cases {
        let expected = run_into(&dir.path().join("whole.json"), &line);
        let part = |k: u32| dir.path().join(format!("part-{k}.json"));
        for k in 0..parts {
            run_into(&part(k), &format!("{line} --shard {k}/{parts}"));
        }
        let merged = dir.path().join("merged.json");
        let output = deckodds()
            .args(["--quiet", "merge"])
            .args((0..parts).map(part))
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(fs::read(&merged).unwrap(), expected, "{line}");
        // The parts are parts: none holds the whole run's rounds.
        let first: Value = serde_json::from_slice(&fs::read(part(0)).unwrap()).unwrap();
        let whole_run: Value = serde_json::from_slice(&expected).unwrap();
        assert!(
            whole(&first["rounds"]) < whole(&whole_run["rounds"]),
            "{line}"
        );
    }
}

/// A checkpointed table run stopped by the test hook (twice on the way for
/// the first) and resumed with the command it printed writes exactly the
/// uninterrupted run's file, as long_runs.rs checks for the other games.
#[test]
fn a_stopped_table_run_resumes_to_the_uninterrupted_counts() {
    // Some 30 chunks each: the hook stops a run at the end of a block of
    // chunks, a multiple of the threads, which for chunks this quick may
    // be long.
    let cases: [(&str, &[u64]); 3] = [
        (
            "blackjack table --trials 2000000 --seed 3 --count hi-lo",
            &[2, 2],
        ),
        (
            // A ramp without `<=` and `>=`, which the printed command quotes
            // for the shell and this test splits on spaces.
            "blackjack table --trials 2000000 --seed 5 --count hi-lo --bet-ramp 1:1,2:2,3:4,4:8,5:12 --wong-out -2",
            &[2],
        ),
        (
            "blackjack table compare --trials 2000000 --seed 4 --decks 1 --rounds-per-shoe 3",
            &[3],
        ),
    ];
    for (args, stops) in cases {
        let dir = tempfile::tempdir().unwrap();
        let expected = run_into(&dir.path().join("whole.json"), args);
        let out = dir.path().join("resumed.json");
        let checkpoint = dir.path().join("run.checkpoint");
        let mut line: Vec<String> = args
            .split_whitespace()
            .map(String::from)
            .chain(["--quiet".into(), "--checkpoint".into()])
            .chain([checkpoint.display().to_string()])
            .chain(["--out".into(), out.display().to_string()])
            .collect();
        for &after in stops {
            let resume = interrupted(&line, after, &out);
            assert!(checkpoint.exists(), "{args}: no checkpoint saved");
            line = resume
                .split_whitespace()
                .skip(1)
                .map(String::from)
                .collect();
        }
        let output = run_printed(&format!("deckodds {}", line.join(" ")), &[]);
        assert!(
            output.status.success(),
            "{args}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(fs::read(&out).unwrap(), expected, "{args}");
        assert!(
            !checkpoint.exists(),
            "{args}: the checkpoint outlived its run"
        );
    }
}

/// The exact value of a round off the top, as `blackjack house-edge
/// --float` gives it for the rule options `rules`.
fn exact_off_the_top(rules: &str) -> f64 {
    let report = json_of(&format!("blackjack house-edge --float {rules}"));
    float(&report["overall"]["decimal"])
}

/// An agreement block holds its keys and its z is its own figures'.
fn check_agreement(what: &str, agreement: &Value) {
    let keys: Vec<&str> = agreement
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = AGREEMENT_KEYS.to_vec();
    expected.sort_unstable();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, expected, "{what}");
    let z = (float(&agreement["mean"]) - float(&agreement["exact"]))
        / float(&agreement["standard_error"]);
    assert!(
        near(float(&agreement["z"]), z, 1e-9 * z.abs().max(1.0)),
        "{what}"
    );
    let agrees = z.abs() <= float(&agreement["z_critical"]);
    assert_eq!(agreement["agrees"], agrees, "{what}");
}

/// `table compare` with one round per shoe and the exact engine's
/// decisions: the mean agrees with the exact value off the top (the very
/// value `house-edge --float` prints) within 5 standard errors, for rule
/// sets spanning 1-8 decks, S17/H17, DAS/no DAS, surrender, ENHC, 6:5 and
/// re-split aces; exit status 0.
#[test]
fn one_round_per_shoe_agrees_with_the_exact_value() {
    let rule_sets = [
        ("--decks 1", 21),
        ("--decks 2 --h17 --no-das --surrender late", 22),
        ("--decks 8 --enhc --surrender early --bj-pays 6:5", 23),
        (
            "--decks 4 --h17 --double 10-11 --max-hands 3 --resplit-aces",
            24,
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (rules, seed) in rule_sets {
        let line = format!(
            "blackjack table compare --rounds-per-shoe 1 --trials 1000000 --seed {seed} {rules}"
        );
        let (status, report) = status_and_json(dir.path(), &line);
        assert_eq!(status, 0, "{line}");
        assert_eq!(report["verdict"], "agree", "{line}");
        assert_eq!(report["rounds"], 1_000_000, "{line}");
        assert_eq!(report["difference"]["what"], "none expected", "{line}");
        let exact = exact_off_the_top(rules);
        assert!(
            near(float(&report["exact_off_the_top"]), exact, 1e-15),
            "{line}"
        );
        let agreement = &report["agreement"];
        check_agreement(&line, agreement);
        assert_eq!(
            float(&agreement["exact"]),
            float(&report["exact_off_the_top"])
        );
        assert_eq!(agreement["mean"], report["value"]["mean"]);
        assert_eq!(
            agreement["standard_error"],
            report["value"]["standard_error"]
        );
        let z = float(&agreement["z"]);
        assert!(z.abs() < 5.0, "{line}: z = {z}");
        let difference = float(&report["difference"]["mean"]);
        assert!(near(
            difference,
            float(&report["value"]["mean"]) - exact,
            1e-15
        ));
        check_adds_up(&line, &report);
    }
}

/// With a cut card the difference from the exact value is the cut-card
/// effect: reported with its interval and no verdict to fail (exit 0,
/// whatever z is), in JSON and in the table.
#[test]
fn a_cut_card_reports_its_effect_without_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let line = "blackjack table compare --decks 1 --trials 300000 --seed 8";
    let (status, report) = status_and_json(dir.path(), line);
    assert_eq!(status, 0);
    assert_eq!(report["difference"]["what"], "cut-card effect");
    assert_eq!(report["verdict"], "agree");
    let standard_error = float(&report["value"]["standard_error"]);
    let difference = float(&report["difference"]["mean"]);
    assert!(near(
        difference,
        float(&report["value"]["mean"]) - exact_off_the_top("--decks 1"),
        1e-15
    ));
    let ci = &report["difference"]["ci95"];
    assert!(near(
        float(&ci[0]),
        difference - Z_95 * standard_error,
        1e-12
    ));
    assert!(near(
        float(&ci[1]),
        difference + Z_95 * standard_error,
        1e-12
    ));
    check_agreement(line, &report["agreement"]);
    check_adds_up(line, &report);
    let table = run_line(&format!("{line} --quiet"));
    assert!(
        table.contains("is the cut-card effect (z = ")
            && table.contains("no verdict, it is what the comparison measures"),
        "{table}"
    );
    assert!(table.contains("difference (%): cut-card effect"), "{table}");
}

/// `blackjack strategy --float --format csv` for some rules, as a file.
fn chart_file(dir: &Path, name: &str, rules: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    fs::write(
        &path,
        run_line(&format!(
            "blackjack strategy --float --format csv --quiet {rules}"
        )),
    )
    .unwrap();
    path
}

/// A chart that stands on every hand: every two-card cell `S` (pairs
/// included), no multi-card rows (they then stand too).
fn always_stand_chart() -> String {
    let mut csv = String::from("kind,section,row,upcard,action,hand\n");
    let upcards = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
    let pairs = ["AA", "22", "33", "44", "55", "66", "77", "88", "99", "TT"];
    let rows = (5..=20)
        .map(|total| ("hard", total.to_string()))
        .chain((13..=20).map(|total| ("soft", total.to_string())))
        .chain(pairs.iter().map(|pair| ("pairs", pair.to_string())));
    for (section, row) in rows {
        for upcard in upcards {
            csv.push_str(&format!("cell,{section},{row},{upcard},S,\n"));
        }
    }
    csv
}

/// `--strategy FILE.csv` with the chart `blackjack strategy` writes for the
/// same rules deals exactly the rounds of `--strategy basic` (the same
/// chart), which are not those of `cd`; a chart that always stands never
/// busts, doubles or splits, and costs far more than the exact value (z <
/// -20 in `table compare`, which still exits 0: a chart's cost is
/// measured, not judged).
#[test]
fn a_chart_file_plays_as_the_chart_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "--decks 2 --h17 --surrender late";
    let chart = chart_file(dir.path(), "basic.csv", rules);
    let line = format!("blackjack table --trials 300000 --seed 9 {rules}");
    let basic = json_of(&format!("{line} --strategy basic"));
    let mut from_file = json_of(&format!("{line} --strategy {}", chart.display()));
    assert_eq!(
        from_file["params"]["strategy"],
        format!("chart {}", chart.display())
    );
    assert_eq!(basic["params"]["strategy"], "basic");
    from_file["params"]["strategy"] = "basic".into();
    assert_eq!(from_file, basic);
    let cd = json_of(&line);
    assert_ne!(cd["distributions"], basic["distributions"]);
    check_adds_up(&line, &basic);

    let stand = dir.path().join("stand.csv");
    fs::write(&stand, always_stand_chart()).unwrap();
    let line = format!(
        "blackjack table compare --rounds-per-shoe 1 --trials 200000 --seed 10 --strategy {}",
        stand.display()
    );
    let (status, report) = status_and_json(dir.path(), &line);
    assert_eq!(status, 0, "{line}");
    assert_eq!(
        report["difference"]["what"],
        "chart's cost against composition-dependent play"
    );
    let events = &report["events"];
    for event in ["player_bust", "doubled", "split", "surrendered"] {
        assert_eq!(events[event], 0, "{event}");
    }
    check_agreement(&line, &report["agreement"]);
    let z = float(&report["agreement"]["z"]);
    assert!(z < -20.0, "z = {z}");
    check_adds_up(&line, &report);

    // A chart with a cut card: both differences named.
    let line = format!(
        "blackjack table compare --trials 100000 --seed 10 --strategy {}",
        chart.display()
    );
    let (status, report) = status_and_json(dir.path(), &format!("{line} {rules}"));
    assert_eq!(status, 0);
    assert_eq!(
        report["difference"]["what"],
        "cut-card effect and the chart's cost"
    );
}

/// `--published FILE`: a claim of exactly the exact house edge, from a
/// million rounds, is consistent (exit 0); a house edge of 2 % claimed
/// from 10^9 rounds is consistent with neither reference (exit 1, once the
/// whole report is written: the JSON parses, the table ends with its
/// closing note); the claim block's figures are its own.
#[test]
fn a_published_claim_is_checked_at_its_sample_size() {
    let dir = tempfile::tempdir().unwrap();
    let exact = exact_off_the_top("");
    let fair = dir.path().join("fair.txt");
    fs::write(
        &fair,
        format!(
            "# the exact figure, from a simulator that agrees\nsource = a test # with a hash\n\
             house-edge-percent = {}\nrounds = 1_000_000\nwin-percent = 43.4\n\
             loss-percent = 47.9 # rounded\npush-percent = 8.7\n",
            -100.0 * exact
        ),
    )
    .unwrap();
    let line = format!(
        "blackjack table compare --trials 300000 --seed 12 --published {}",
        fair.display()
    );
    let (status, report) = status_and_json(dir.path(), &line);
    assert_eq!(status, 0, "{line}");
    assert_eq!(report["verdict"], "agree");
    let claim = &report["claim"];
    check_claim(&report, 3);
    assert_eq!(claim["source"], "a test # with a hash");
    assert_eq!(claim["rounds"], 1_000_000);
    assert!(near(float(&claim["against_exact"]["z"]), 0.0, 1e-9));
    assert_eq!(claim["consistent_with_exact"], true);
    assert_eq!(claim["consistent_with_simulation"], true);
    let rates: Vec<&str> = claim["rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rate| rate["rate"].as_str().unwrap())
        .collect();
    assert_eq!(rates, ["win", "loss", "push"]);

    let inflated = dir.path().join("inflated.txt");
    fs::write(&inflated, "house-edge-percent = 2.0\nrounds = 1e9\n").unwrap();
    let line = format!(
        "blackjack table compare --trials 300000 --seed 12 --published {}",
        inflated.display()
    );
    let (status, report) = status_and_json(dir.path(), &line);
    assert_eq!(status, 1, "{line}");
    assert_eq!(report["verdict"], "disagree");
    check_claim(&report, 0);
    let claim = &report["claim"];
    assert_eq!(claim["source"], Value::Null);
    assert_eq!(float(&claim["house_edge_percent"]), 2.0);
    assert_eq!(claim["rounds"], 1_000_000_000);
    assert_eq!(claim["consistent_with_exact"], false);
    assert_eq!(claim["consistent_with_simulation"], false);
    // The people's report, whole, then the status (and no error line).
    let output = deckodds().args(line.split_whitespace()).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("Verdict: disagree (the claim is consistent with neither"),
        "{table}"
    );
    assert!(table.contains("The published claim (1,000,000,000 rounds)"));
    assert!(
        table.contains("of the claim's 1,000,000,000 rounds, taken as independent.\n"),
        "{table}"
    );
    // The claim is sharper than this run, which says so last.
    assert!(
        table
            .trim_end()
            .ends_with("play at least the claim's rounds: --trials 1000000000."),
        "{table}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(
        stderr.contains("the comparison found disagreement: exit status 1"),
        "{stderr}"
    );
}

/// A report's `claim` block against the report's own figures: its
/// standard error from the table's standard deviation and the claim's
/// rounds, each test's mean, reference, standard error and level
/// (Bonferroni over the tests against the simulation), each rate against
/// the simulated one.
fn check_claim(report: &Value, n_rates: usize) {
    let claim = &report["claim"];
    let mut keys: Vec<&str> = claim
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "against_exact",
            "against_simulation",
            "consistent_with_exact",
            "consistent_with_simulation",
            "house_edge_percent",
            "rates",
            "rounds",
            "source",
            "standard_error",
        ]
    );
    let claimed_mean = -float(&claim["house_edge_percent"]) / 100.0;
    let claim_rounds = whole(&claim["rounds"]) as f64;
    let standard_error = float(&claim["standard_error"]);
    let sd = float(&report["value"]["sd"]);
    assert!(near(standard_error, sd / claim_rounds.sqrt(), 1e-15));
    let level = float(&report["agreement"]["level"]);

    let exact = &claim["against_exact"];
    check_agreement("against exact", exact);
    assert!(near(float(&exact["mean"]), claimed_mean, 1e-15));
    assert_eq!(exact["exact"], report["exact_off_the_top"]);
    assert_eq!(float(&exact["standard_error"]), standard_error);
    assert_eq!(float(&exact["level"]), level);
    assert_eq!(claim["consistent_with_exact"], exact["agrees"]);

    let simulation = &claim["against_simulation"];
    check_agreement("against the simulation", simulation);
    let each = level / (1 + n_rates) as f64;
    assert!(near(float(&simulation["level"]), each, 1e-18));
    assert!(near(float(&simulation["mean"]), claimed_mean, 1e-15));
    assert_eq!(simulation["exact"], report["value"]["mean"]);
    let both = standard_error.hypot(float(&report["value"]["standard_error"]));
    assert!(near(float(&simulation["standard_error"]), both, 1e-15));

    let rates = claim["rates"].as_array().unwrap();
    assert_eq!(rates.len(), n_rates);
    let rounds = whole(&report["rounds"]) as f64;
    let mut all_agree = simulation["agrees"] == true;
    for rate in rates {
        let name = rate["rate"].as_str().unwrap();
        let agreement = &rate["agreement"];
        check_agreement(name, agreement);
        let simulated = whole(&report["outcomes"][name]) as f64 / rounds;
        assert!(near(float(&agreement["exact"]), simulated, 1e-15), "{name}");
        assert!(near(float(&agreement["level"]), each, 1e-18), "{name}");
        all_agree &= agreement["agrees"] == true;
    }
    assert_eq!(claim["consistent_with_simulation"], all_agree);
}

/// Runs `blackjack table` (or `table compare`) with `args` in `dir` with
/// `--out out.json`; expects exit status `code`, one line on stderr that
/// starts `error: ` and holds each of `expected`, nothing on stdout, and
/// no output file.
pub(crate) fn refused_in(dir: &Path, args: &str, code: i32, expected: &[&str]) {
    let output = deckodds()
        .current_dir(dir)
        .args(args.split_whitespace())
        .args(["--trials", "1000", "--out", "out.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{args}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args}: {stderr}");
    for text in expected {
        assert!(stderr.contains(text), "{args}: {text:?} not in {stderr}");
    }
    assert!(output.stdout.is_empty(), "{args}");
    assert!(!dir.join("out.json").exists(), "{args}: wrote out.json");
}

/// Chart files that are not a chart are refused in one line naming the
/// file and the line and column (or the missing cell), exit status 2, no
/// output: a missing cell, an unknown action, a split on a hard total, a
/// line of five or seven fields, a row or upcard out of range, a cell
/// twice, no header, an empty file. A file that does not exist is an I/O
/// error (exit status 1) naming the file.
#[test]
fn bad_chart_files_are_refused_naming_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let chart = fs::read_to_string(chart_file(dir.path(), "chart.csv", "--decks 1")).unwrap();
    let lines: Vec<&str> = chart.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.starts_with("cell,hard,16,T,"))
        .unwrap();
    let number = at + 1;
    let edited = |name: &str, replacement: Option<&str>| {
        let mut edited: Vec<&str> = lines.clone();
        match replacement {
            Some(line) => edited[at] = line,
            None => {
                edited.remove(at);
            }
        }
        fs::write(dir.path().join(name), edited.join("\n") + "\n").unwrap();
    };
    edited("missing.csv", None);
    edited("action.csv", Some("cell,hard,16,T,X,"));
    edited("split.csv", Some("cell,hard,16,T,P,"));
    edited("short.csv", Some("cell,hard,16,T,H"));
    edited("long.csv", Some("cell,hard,16,T,H,,x"));
    edited("row.csv", Some("cell,hard,22,T,H,"));
    edited("upcard.csv", Some("cell,hard,16,1,H,"));
    edited("twice.csv", Some("cell,hard,17,T,S,"));
    fs::write(dir.path().join("headless.csv"), lines[1..].join("\n")).unwrap();
    fs::write(dir.path().join("empty.csv"), "").unwrap();
    let first_17 = lines
        .iter()
        .position(|line| line.starts_with("cell,hard,17,T,"))
        .unwrap()
        + 1;
    let column = |name: &str| format!("line {number}, column {name}");
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("missing.csv", vec!["missing cell hard 16 against T".into()]),
        (
            "action.csv",
            vec![column("action \"X\""), "not an action".into()],
        ),
        (
            "split.csv",
            vec![
                column("action \"P\""),
                "a split outside the pairs section".into(),
            ],
        ),
        (
            "short.csv",
            vec![
                format!("line {number} "),
                "5 fields; every line has 6".into(),
            ],
        ),
        (
            "long.csv",
            vec![
                format!("line {number} "),
                "7 fields; every line has 6".into(),
            ],
        ),
        (
            "row.csv",
            vec![column("row \"22\""), "not a row of hard".into()],
        ),
        (
            "upcard.csv",
            vec![column("upcard \"1\""), "not an upcard".into()],
        ),
        // The line edited to hard 17 comes first: the chart's own hard 17
        // against T is the second.
        (
            "twice.csv",
            vec![
                format!("line {first_17}, column upcard"),
                format!("the first is on line {number})"),
            ],
        ),
        (
            "headless.csv",
            vec!["line 1 ".into(), "not the header".into()],
        ),
        ("empty.csv", vec!["empty".into()]),
    ];
    for (file, expected) in &cases {
        let mut texts: Vec<&str> = expected.iter().map(String::as_str).collect();
        let named = format!("error: {file}: ");
        texts.push(&named);
        refused_in(
            dir.path(),
            &format!("blackjack table --strategy {file}"),
            2,
            &texts,
        );
    }
    refused_in(
        dir.path(),
        "blackjack table compare --strategy split.csv",
        2,
        &["error: split.csv: ", &column("action \"P\"")],
    );
    refused_in(
        dir.path(),
        "blackjack table --strategy absent.csv",
        1,
        &["error: absent.csv: "],
    );
}

/// Claim files that are not a claim are refused in one line naming the
/// file, the line and the key, exit status 2, before any work and with no
/// output; a claim file that does not exist is an I/O error (exit status
/// 1) naming it.
#[test]
fn bad_claim_files_are_refused_naming_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[&str]); 8] = [
        (
            "no-rounds.txt",
            "house-edge-percent = 0.5\n",
            &["rounds missing: no line gives it"],
        ),
        (
            "no-edge.txt",
            "# a claim\nrounds = 1e6\n",
            &["house-edge-percent missing"],
        ),
        (
            "unknown.txt",
            "house-edge-percent = 0.5\nrounds = 1e6\nspeed = 3\n",
            &["line 3: key speed: must be one of source, house-edge-percent"],
        ),
        (
            "number.txt",
            "house-edge-percent = half\nrounds = 1e6\n",
            &["line 1: house-edge-percent half: must be a number"],
        ),
        (
            "rounds.txt",
            "house-edge-percent = 0.5\nrounds = 2.5\n",
            &["line 2: rounds 2.5: must be a whole number of at least 1"],
        ),
        (
            "twice.txt",
            "house-edge-percent = 0.5\nrounds = 1e6\nrounds = 1e7\n",
            &["line 3: rounds 1e7: repeats line 2"],
        ),
        (
            "rates.txt",
            "house-edge-percent = 0.5\nrounds = 1e6\nwin-percent = 60\nloss-percent = 50\n",
            &["lines 3, 4: win-percent + loss-percent 60 + 50 = 110"],
        ),
        (
            "no-equals.txt",
            "house-edge-percent 0.5\nrounds = 1e6\n",
            &["line 1 house-edge-percent 0.5: must be `key = value`"],
        ),
    ];
    for (file, text, expected) in cases {
        fs::write(dir.path().join(file), text).unwrap();
        let named = format!("error: {file}: ");
        let texts: Vec<&str> = expected.iter().copied().chain([named.as_str()]).collect();
        refused_in(
            dir.path(),
            &format!("blackjack table compare --published {file}"),
            2,
            &texts,
        );
    }
    refused_in(
        dir.path(),
        "blackjack table compare --published absent.txt",
        1,
        &["error: absent.txt: "],
    );
}

/// What `--penetration TEXT` must do with one deck, from its help: a
/// fraction `0 < P <= 1` or a percentage `P%`, the cut card placed after
/// `round(P x 52)` cards, at least one and leaving at least 4 behind it
/// (a round's fewest). `None` when refused.
fn cut_card_of_one_deck(text: &str) -> Option<u64> {
    let text = text.trim();
    let fraction = match text.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f64>().ok()? / 100.0,
        None => text.parse::<f64>().ok()?,
    };
    if !(fraction > 0.0 && fraction <= 1.0) {
        return None;
    }
    let cut = (fraction * 52.0).round() as u64;
    (1..=48).contains(&cut).then_some(cut)
}

/// Text for `--penetration`: anything made of the characters numbers are
/// written with, fractions around the range, percentages, and the cut
/// card's boundaries in a 52-card deck.
fn penetration_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9.%eE+ -]{0,8}",
        "[a-zA-Z0-9.%_,]{0,6}",
        (-0.2f64..1.3).prop_map(|p| p.to_string()),
        (-20.0f64..130.0).prop_map(|p| format!("{p}%")),
        (0u32..=60).prop_map(|cards| (f64::from(cards) / 52.0).to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any `--penetration` text: no panic, exit status 0 or 2 only; 0
    /// exactly when the help allows the value, with the cut card where it
    /// says; 2 with one line naming the option.
    #[test]
    fn any_penetration_is_taken_or_refused_in_one_line(text in penetration_text()) {
        let output = deckodds()
            .args(["blackjack", "table", "--decks", "1", "--trials", "2000", "--quiet"])
            .args(["--format", "json"])
            .arg(format!("--penetration={text}"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        prop_assert!(!stderr.contains("panicked"), "{text:?}: {stderr}");
        match (output.status.code(), cut_card_of_one_deck(&text)) {
            (Some(0), Some(cut)) => {
                let report: Value = serde_json::from_slice(&output.stdout).unwrap();
                prop_assert_eq!(&report["params"]["cut_card_after"], &Value::from(cut));
                prop_assert_eq!(&report["params"]["shoe_cards"], &Value::from(52));
            }
            (Some(2), None) => {
                prop_assert_eq!(stderr.lines().count(), 1, "{:?}: {}", text, stderr);
                prop_assert!(stderr.starts_with("error: --penetration"), "{:?}: {}", text, stderr);
                prop_assert!(output.stdout.is_empty());
            }
            (code, expected) => prop_assert!(
                false,
                "{:?}: exit status {:?}, expected cut card {:?}: {}",
                text,
                code,
                expected,
                stderr
            ),
        }
    }
}

/// The ramp of the betting tests: hi-lo, 1 to 12 units.
const RAMP: &str = "<=1:1,2:2,3:4,4:8,>=5:12";

/// `a` and `b` equal to `relative` of `b`.
fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * b.abs()
}

/// A ramp run's money adds up from its own rows and satisfies the
/// figures' defining identities; the ramp changes no flat figure (the
/// report without the ramp is the same but for the betting block); a
/// ramp file reads as the inline ramp; the CSV carries the figures.
#[test]
fn a_ramp_run_reports_money_that_adds_up() {
    let base = "blackjack table --trials 300000 --seed 31 --count hi-lo";
    let betting_options = "--wong-out -1 --bankroll 2000 --trip-rounds 3000 --trips 500";
    let line = format!("{base} --bet-ramp {RAMP} {betting_options}");
    let report = json_of(&line);
    check_adds_up(&line, &report);
    let money = &report["betting"];
    assert_eq!(money["ramp"], RAMP);
    assert_eq!(money["wong_out"], -1);
    assert_eq!(money["wong_in"], Value::Null);
    assert_eq!(whole(&money["rounds_observed"]), whole(&report["rounds"]));
    let played = whole(&money["rounds_played"]);
    assert!(played < whole(&money["rounds_observed"]));
    let rows = money["rows"].as_array().unwrap();
    let labels: Vec<&str> = rows
        .iter()
        .map(|row| row["true_count"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["<=1", "2", "3", "4", ">=5"]);
    assert_eq!(
        rows.iter().map(|row| whole(&row["rounds"])).sum::<u64>(),
        played
    );
    let bets: u64 = rows
        .iter()
        .map(|row| whole(&row["bet"]) * whole(&row["rounds"]))
        .sum();
    assert!(close(
        float(&money["average_bet"]),
        bets as f64 / played as f64,
        1e-12
    ));
    assert_eq!(money["initial_bet"], 1);
    let (wr, sd) = (float(&money["win_rate"]), float(&money["sd"]));
    let (di, score, n0) = (
        float(&money["di"]),
        float(&money["score"]),
        float(&money["n0"]),
    );
    assert!(wr > 0.0, "{wr}");
    assert!(close(float(&money["win_rate_per_100"]), 100.0 * wr, 1e-12));
    assert!(close(float(&money["sd_per_100"]), 10.0 * sd, 1e-12));
    assert!(close(di, 1000.0 * wr / sd, 1e-12));
    assert!(close(di * di, score, 1e-9));
    assert!(close(n0 * score, 1e6, 1e-9));
    assert!(close(n0, (sd / wr).powi(2), 1e-9));
    let standard_error = float(&money["win_rate_standard_error"]);
    let ci = &money["win_rate_ci95"];
    assert!(near(float(&ci[0]), wr - Z_95 * standard_error, 1e-12));
    assert!(near(float(&ci[1]), wr + Z_95 * standard_error, 1e-12));
    let bankroll = &money["bankroll"];
    assert_eq!(whole(&bankroll["bankroll"]), 2000);
    let kelly = float(&bankroll["kelly_multiplier"]);
    assert!(close(kelly, 2000.0 * wr / (sd * sd), 1e-12));
    let kelly_bets: Vec<f64> = bankroll["kelly_bets"]
        .as_array()
        .unwrap()
        .iter()
        .map(float)
        .collect();
    assert!(close(kelly_bets[4], 12.0 * kelly, 1e-12));
    assert!(close(
        float(&bankroll["risk_of_ruin"]),
        (-2.0 * wr * 2000.0 / (sd * sd)).exp(),
        1e-12
    ));
    let trip = &bankroll["trip"];
    assert_eq!(whole(&trip["trips"]), 500);
    assert_eq!(whole(&trip["rounds"]), 3000);
    let risk = float(&trip["risk"]);
    assert!(near(risk, whole(&trip["ruined"]) as f64 / 500.0, 1e-15));
    assert!(float(&trip["ci95"][0]) <= risk && risk <= float(&trip["ci95"][1]));
    // The flat figures are those of the same run without a ramp.
    let mut without = report.clone();
    without.as_object_mut().unwrap().remove("betting");
    assert_eq!(json_of(base), without);
    // A ramp file is the inline ramp.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ramp.csv");
    fs::write(&file, "true_count,bet\n<=1,1\n2,2\n3,4\n4,8\n>=5,12\n").unwrap();
    let from_file = json_of(&format!(
        "{base} --bet-ramp-file {} {betting_options}",
        file.display()
    ));
    assert_eq!(from_file, report);
    // The CSV carries the figures.
    let csv = run_line(&format!("{line} --format csv --quiet"));
    for figure in [
        "win_rate",
        "sd_per_100",
        "di",
        "score",
        "n0",
        "risk_of_ruin",
        "trip_risk",
    ] {
        assert!(
            csv.contains(&format!("\nbetting,{figure},")),
            "{figure}: {csv}"
        );
    }
    // The table for people names the figures.
    let text = run_line(&format!("{line} --quiet"));
    for figure in [
        "DI (1000 WR / SD)",
        "SCORE",
        "N0",
        "Kelly ramp",
        "risk of ruin",
        "trip risk",
    ] {
        assert!(text.contains(figure), "{figure}: {text}");
    }
}

/// Bad betting input is refused in one line, exit status 2, no output: a
/// ramp with a gap, an overlap, a bet below one unit, a ramp without a
/// count, limits that cross, wonging without a ramp, trips without a
/// bankroll, a bad ramp file (naming its line).
#[test]
fn bad_betting_input_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 10] = [
        (
            "blackjack table --count hi-lo --bet-ramp 1:1,3:4",
            &["--bet-ramp 1:1,3:4", "a gap: no bet for true count 2"],
        ),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1,1:2",
            &["--bet-ramp 1:1,1:2", "counts must increase"],
        ),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1,2:-2",
            &["--bet-ramp 1:1,2:-2", "at least 1 unit"],
        ),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1,2:0",
            &["the bet at true count 2 is 0"],
        ),
        ("blackjack table --bet-ramp 1:1", &["--count"]),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1 --min-bet 5 --max-bet 4",
            &["--min-bet 5: must be at most the maximum bet, 4"],
        ),
        ("blackjack table --count hi-lo --wong-in 2", &["--bet-ramp"]),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1 --trip-rounds 100",
            &["--bankroll"],
        ),
        (
            "blackjack table --count hi-lo --bet-ramp 1:1 --bankroll 0",
            &["--bankroll 0"],
        ),
        (
            "table compare --count hi-lo --bet-ramp 1:x",
            &["--bet-ramp 1:x", "is not a whole number"],
        ),
    ];
    for (args, expected) in cases {
        let args = if args.starts_with("table") {
            format!("blackjack {args}")
        } else {
            args.to_string()
        };
        refused_in(dir.path(), &args, 2, expected);
    }
    fs::write(dir.path().join("ramp.csv"), "true_count,bet\n1,1\n3,2\n").unwrap();
    refused_in(
        dir.path(),
        "blackjack table --count hi-lo --bet-ramp-file ramp.csv",
        2,
        &["ramp.csv", "line 3: a gap: no bet for true count 2"],
    );
}

/// `--true-count` and `--deck-estimation` change the true count a round is
/// counted under, and nothing else: the same rounds and results, the
/// method in `params`; truncating puts the rounds between -1 and 0 at 0;
/// the defaults given explicitly are the run without them.
#[test]
fn the_true_count_method_sorts_the_rounds_and_changes_nothing_else() {
    let base = "blackjack table --trials 200000 --seed 41 --count hi-lo";
    let floor = json_of(base);
    let truncate = json_of(&format!(
        "{base} --true-count truncate --deck-estimation half"
    ));
    assert_eq!(truncate["params"]["true_count"], "truncate");
    assert_eq!(truncate["params"]["deck_estimation"], "half");
    assert!(floor["params"].get("true_count").is_none());
    assert_eq!(floor["distributions"], truncate["distributions"]);
    assert_eq!(floor["value"], truncate["value"]);
    let at = |report: &Value, count: &str| {
        report["by_true_count"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["true_count"] == count)
            .map(|row| whole(&row["rounds"]))
            .unwrap()
    };
    assert!(at(&truncate, "0") > at(&floor, "0"));
    assert!(at(&truncate, "-1") < at(&floor, "-1"));
    assert_eq!(
        json_of(&format!(
            "{base} --true-count floor --deck-estimation perfect"
        )),
        floor
    );
}
