//! The answer on the first screen (issue 18): every terminal report leads
//! with the odds it is about, rare events never read as zero, Roll-Call's
//! versions side by side, the deals `solve` finds winnable, deckodds' own
//! CSV read back as a published table, exit status 1 for a disagreement,
//! resumability hints, and messages that name only what the user gave.

use std::fs;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;

use deckodds::report::figures::thousands;

use crate::support::{assert_bad_input, deckodds, outcome_entry, probability, run_line};

/// Runs a command line (words), returning (exit status, stdout, stderr).
fn run_status(line: &str) -> (Option<i32>, String, String) {
    let output = deckodds().args(line.split_whitespace()).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn json(line: &str) -> Value {
    serde_json::from_str(&run_line(&format!("{line} --quiet --format json"))).unwrap()
}

/// The count of `outcome` in distribution `key` of a Monte-Carlo report.
fn count(report: &Value, key: &str, outcome: &str) -> u64 {
    outcome_entry(report, key, outcome)["count"]
        .as_u64()
        .unwrap()
}

/// A headline figure to look for: (label as printed, distribution key,
/// outcome).
type Figure<'a> = (&'a str, &'a str, &'a str);

/// The lines of a terminal report between its description and its first
/// table: the headline.
fn headline(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .map(String::from)
        .collect()
}

/// Each game's terminal table leads with the odds it is about, and each
/// figure is the one its JSON report holds: a Monte-Carlo count out of the
/// games with its interval, or an exact fraction.
#[test]
fn every_terminal_report_leads_with_its_answer() {
    // Monte Carlo: the count of the winning outcome, of the games.
    let cases: [(&str, &[Figure]); 4] = [
        (
            "idiots-delight mc --trials 20000 --seed 3",
            &[("P(win) = P(0 cards left): ", "cards-left", "0")],
        ),
        (
            "roll-call mc --trials 20000 --seed 3",
            &[
                ("P(win), K=1:        ", "K=1", "0"),
                ("P(win), K=2:        ", "K=2", "0"),
                ("P(win), K=3:        ", "K=3", "0"),
                ("P(win), unlimited:  ", "K=unlimited", "0"),
                ("P(zero-strike win): ", "zero-strike", "yes"),
            ],
        ),
        (
            "prisoners-patience mc --trials 20000 --seed 3 --suits 2 --ranks 8",
            &[("P(win) = P(1 stack): ", "stacks", "1")],
        ),
        (
            "klondike mc --trials 3000 --seed 3",
            &[("P(all 52 cards out):            ", "foundation-cards", "52")],
        ),
    ];
    for (line, figures) in cases {
        let report = json(line);
        let trials = report["trials"].as_u64().unwrap();
        let lines = headline(&run_line(&format!("{line} --quiet")));
        for (i, &(label, key, outcome)) in figures.iter().enumerate() {
            let games = format!(
                "; {} of {})",
                thousands(count(&report, key, outcome)),
                thousands(trials)
            );
            assert!(
                lines[i].starts_with(label)
                    && lines[i].contains("% (95% interval [")
                    && lines[i].ends_with(&games),
                "{line}: {}",
                lines[i]
            );
        }
    }
    let klondike = json("klondike mc --trials 3000 --seed 3");
    let lines = headline(&run_line("klondike mc --trials 3000 --seed 3 --quiet"));
    let mean = klondike["summary"][0]["estimate"].as_f64().unwrap();
    assert!(
        lines[1].starts_with(&format!(
            "mean net winnings per game ($): {mean:.4} (standard error "
        )),
        "{}",
        lines[1]
    );

    // Exact: the fraction of the JSON report.
    let cases: [(&str, &[Figure]); 4] = [
        (
            "idiots-delight exact --suits 2 --ranks 4",
            &[("P(win) = P(0 cards left): ", "cards-left", "0")],
        ),
        (
            "roll-call exact --ranks 4 --copies 2",
            &[
                ("P(win), K=1:        ", "K=1", "0"),
                ("P(win), K=2:        ", "K=2", "0"),
                ("P(win), K=3:        ", "K=3", "0"),
                ("P(win), unlimited:  ", "K=unlimited", "0"),
                ("P(zero-strike win): ", "zero-strike", "yes"),
            ],
        ),
        (
            "prisoners-patience exact --suits 2 --ranks 5",
            &[("P(win) = P(1 stack): ", "stacks", "1")],
        ),
        (
            "roll-call first-pass --ranks 5 --copies 2",
            &[("P(no match in the first pass): ", "first-pass-matches", "0")],
        ),
    ];
    for (line, figures) in cases {
        let report = json(line);
        let lines = headline(&run_line(&format!("{line} --quiet")));
        for (i, &(label, key, outcome)) in figures.iter().enumerate() {
            let fraction = probability(&report, key, outcome);
            assert!(
                lines[i].starts_with(label)
                    && lines[i].ends_with(&format!("% (exactly {fraction})")),
                "{line}: {}",
                lines[i]
            );
        }
    }
    // An odd deck cannot be won, and says why.
    let lines = headline(&run_line(
        "idiots-delight exact --suits 3 --ranks 3 --quiet",
    ));
    assert_eq!(
        lines,
        ["P(win) = P(0 cards left): 0.0000% (exactly 0: an odd deck always leaves a card)"]
    );

    // The dealer: bust by upcard, on one line.
    let report = json("blackjack exact");
    let lines = headline(&run_line("blackjack exact"));
    let busts: Vec<String> = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
        .iter()
        .map(|upcard| {
            let fraction = probability(&report, &format!("upcard={upcard}"), "bust");
            let (n, d) = fraction.split_once('/').unwrap();
            let percent = 100.0 * n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
            format!("{upcard} {percent:.2}%")
        })
        .collect();
    assert_eq!(
        lines,
        [format!(
            "dealer busts, by upcard: {} (exact)",
            busts.join(", ")
        )]
    );
    let lines = headline(&run_line("blackjack mc --trials 20000 --quiet"));
    assert!(
        lines[0].starts_with("dealer busts, by upcard: 2 ")
            && lines[0].contains(", A ")
            && lines[0].contains("(95% intervals ±"),
        "{}",
        lines[0]
    );

    // Which deals can be won: free choice, and the fixed sweep.
    let lines = headline(&run_line(
        "prisoners-patience solve --trials 16 --suits 2 --ranks 6 --quiet",
    ));
    assert!(lines[0].starts_with("P(winnable with free choice of moves): "));
    assert!(lines[1].starts_with("P(won by the seed's fixed sweep):      "));

    // Comparisons lead with their verdict.
    let table = run_line("roll-call compare --ranks 4 --copies 2 --trials 20000 --quiet");
    assert_eq!(
        table.lines().nth(1),
        Some("verdict: agree (all 8 at level 0.001)"),
        "{table}"
    );
}

/// In the terminal table a probability that is not zero never prints as
/// zero, however rare: every row with a count shows a digit other than 0.
#[test]
fn rare_outcomes_never_print_as_zero() {
    let table = run_line("roll-call mc --trials 300000 --seed 2 --quiet");
    let mut rare = 0;
    for line in table.lines().filter(|l| l.starts_with("│ ")) {
        let cells: Vec<&str> = line.split('│').map(str::trim).collect();
        // │ outcome │ count │ percent │ 95% CI │
        let Ok(count) = cells[2].parse::<u64>() else {
            continue;
        };
        if count > 0 {
            assert!(cells[3].chars().any(|c| ('1'..='9').contains(&c)), "{line}");
            if cells[3].starts_with("0.00") {
                rare += 1;
            }
        }
    }
    // The run has outcomes rarer than 1 in 10,000 to show.
    assert!(rare > 0, "{table}");
    // The files keep two decimals.
    let md = run_line("roll-call mc --trials 300000 --seed 2 --quiet --format md");
    assert!(!md.contains("0.0003") && md.contains("|    0.00 |"), "{md}");
}

/// `roll-call mc --count all --order all` plays the four versions on the
/// same deals: each version's report is exactly the one `mc` gives for it
/// with the same seed, and the summary table's figures are its wins.
#[test]
fn roll_call_versions_side_by_side() {
    let line = "roll-call mc --trials 30000 --seed 4 --ranks 5 --copies 2 --count all --order all";
    let all = json(line);
    assert_eq!(all["params"]["count"], "all");
    assert_eq!(all["params"]["order"], "all");
    let versions = all["versions"].as_array().unwrap();
    let names: Vec<(String, String)> = versions
        .iter()
        .map(|v| {
            (
                v["version"]["count"].as_str().unwrap().to_string(),
                v["version"]["order"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("continuous", "same"),
            ("continuous", "reversed"),
            ("restart", "same"),
            ("restart", "reversed")
        ]
        .map(|(c, o)| (c.to_string(), o.to_string()))
    );
    for version in versions {
        let (c, o) = (&version["version"]["count"], &version["version"]["order"]);
        let alone = json(&format!(
            "roll-call mc --trials 30000 --seed 4 --ranks 5 --copies 2 --count {} --order {}",
            c.as_str().unwrap(),
            o.as_str().unwrap()
        ));
        assert_eq!(version["report"], alone, "{c} {o}");
        let questions = [
            ("K=1", "K=1", "0"),
            ("K=2", "K=2", "0"),
            ("K=3", "K=3", "0"),
            ("unlimited", "K=unlimited", "0"),
            ("zero-strike", "zero-strike", "yes"),
        ];
        for (figure, (question, key, outcome)) in
            version["figures"].as_array().unwrap().iter().zip(questions)
        {
            assert_eq!(figure["question"], question);
            assert_eq!(figure["count"], count(&alone, key, outcome), "{question}");
            assert_eq!(figure["trials"], 30000);
        }
    }
    // The same table on any threads; one row per version in the terminal.
    let csv = |threads: &str| run_line(&format!("{line} --quiet --format csv --threads {threads}"));
    assert_eq!(csv("1"), csv("2"));
    let table = run_line(&format!("{line} --quiet"));
    assert!(table.contains("│ restart    │ reversed │"), "{table}");
    assert_eq!(table.lines().filter(|l| l.starts_with("│ ")).count(), 5);
    // Only `mc` runs every version; a version's won deals need one version.
    assert_bad_input(&[
        (
            "roll-call mc --count all --save-wins 2 /tmp/x",
            "--save-wins 2 /tmp/x: keeps the won deals of one version",
        ),
        (
            "roll-call exact --order all",
            "--order all: runs every version",
        ),
        (
            "roll-call mc --count every",
            "--count every: must be continuous, restart or all",
        ),
        (
            "roll-call mc --order all --until-halfwidth 0.01",
            "--until-halfwidth 0.01: stops one version's run",
        ),
    ]);
}

/// `solve --trials N --save-winnable FILE` lists exactly the deals the
/// report counts as winnable, each one winnable when solved alone, and a
/// run stopped and resumed lists the same deals.
#[test]
fn solve_saves_the_winnable_deals() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("winnable.txt");
    let line =
        "prisoners-patience solve --trials 40 --seed 6 --suits 2 --ranks 7 --stack-move kept";
    let report: Value = serde_json::from_str(&run_line(&format!(
        "{line} --quiet --format json --save-winnable {}",
        file.display()
    )))
    .unwrap();
    let winnable = count(&report, "free-choice", "winnable");
    assert!(winnable > 0 && winnable < 40, "{report}");
    let text = fs::read_to_string(&file).unwrap();
    let deals: Vec<(u64, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let (number, deal) = l.split_once(": ").unwrap();
            (number.parse().unwrap(), deal.to_string())
        })
        .collect();
    assert!(text.starts_with("# "), "{text}");
    assert_eq!(deals.len() as u64, winnable);
    assert!(deals.windows(2).all(|w| w[0].0 < w[1].0) && deals.iter().all(|d| d.0 < 40));
    for (_, deal) in &deals {
        let output = deckodds()
            .args([
                "prisoners-patience",
                "solve",
                "--suits",
                "2",
                "--ranks",
                "7",
                "--stack-move",
                "kept",
                "--quiet",
                "--deal",
                deal,
            ])
            .output()
            .unwrap();
        let solved = String::from_utf8(output.stdout).unwrap();
        assert!(solved.contains("free choice: winnable"), "{deal}: {solved}");
    }

    // Stopped after a chunk and resumed: the chunks the checkpoint holds
    // are solved again for the list, which comes out the same.
    let resumed = dir.path().join("resumed.txt");
    let checkpoint = dir.path().join("run.checkpoint");
    let args = |save: &std::path::Path| -> Vec<String> {
        line.split_whitespace()
            .map(String::from)
            .chain(["--save-winnable".into(), save.display().to_string()])
            .collect()
    };
    let output = deckodds()
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1")
        .args(args(&resumed))
        .args(["--quiet", "--checkpoint"])
        .arg(&checkpoint)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(130));
    let output = deckodds()
        .args(args(&resumed))
        .arg("--resume")
        .arg(&checkpoint)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("solving again the "), "{stderr}");
    assert_eq!(fs::read_to_string(&resumed).unwrap(), text);
    // Only with --trials.
    assert_bad_input(&[(
        "prisoners-patience solve --every --suits 1 --ranks 5 --save-winnable x.txt",
        "--save-winnable x.txt: lists the winnable deals of a random sample: give --trials N too",
    )]);
}

/// deckodds' own CSV reads back as a published table: the exact table is
/// consistent with itself cell for cell, checked under other rules it is
/// inconsistent almost everywhere (exit 1, and the report says to check
/// the rule options), a table missing a row is checked with the row named,
/// and a Monte-Carlo CSV is checked as estimates.
#[test]
fn the_tool_reads_its_own_csv_back() {
    let dir = tempfile::tempdir().unwrap();
    let exact = dir.path().join("exact.csv");
    run_line(&format!(
        "blackjack exact --quiet --out {}",
        exact.display()
    ));
    let check = |args: &str| run_status(&format!("blackjack compare --quiet {args}"));

    let (status, out, _) = check(&format!("--published {} --format json", exact.display()));
    assert_eq!(status, Some(0), "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["consistent"], true);
    assert_eq!(report["rows"].as_array().unwrap().len(), 10);
    assert!(report.get("missing_rows").is_none() && report.get("notes").is_none());
    let (status, out, _) = check(&format!("--published {}", exact.display()));
    assert_eq!(status, Some(0));
    assert_eq!(
        out.lines().nth(1),
        Some("verdict: consistent (all 70 cells)")
    );

    let (status, out, stderr) = check(&format!("--published {} --h17", exact.display()));
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.is_empty(), "--quiet: {stderr}");
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .starts_with("verdict: INCONSISTENT: "),
        "{out}"
    );
    assert!(
        out.contains("the table may be for other rules than these (2 decks, H17). Check the rule options --decks, --h17, --peek and --scoring."),
        "{out}"
    );

    let partial = dir.path().join("partial.csv");
    let text = fs::read_to_string(&exact).unwrap();
    // The upcard has its own column (tidy data), beside the key it is
    // read by.
    assert!(
        text.starts_with("key,upcard,outcome,probability,"),
        "{text}"
    );
    assert!(text.contains("\nupcard=A,A,bust,"), "{text}");
    let kept: String = text
        .lines()
        .filter(|l| !l.starts_with("upcard=7,") && !l.starts_with("upcard=A,"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&partial, kept).unwrap();
    let (status, out, _) = check(&format!("--published {}", partial.display()));
    assert_eq!(status, Some(0), "{out}");
    assert!(
        out.contains(
            "Missing rows: the table has none for upcard=7, upcard=A, so they were not checked."
        ),
        "{out}"
    );
    let (_, out, _) = check(&format!("--published {} --format json", partial.display()));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["missing_rows"],
        serde_json::json!(["upcard=7", "upcard=A"])
    );

    let sampled = dir.path().join("mc.csv");
    run_line(&format!(
        "blackjack mc --trials 50000 --seed 8 --quiet --out {}",
        sampled.display()
    ));
    let (status, out, _) = check(&format!(
        "--published {} --hands-per-row 50000 --format json",
        sampled.display()
    ));
    assert_eq!(status, Some(0), "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["consistent"], true);
    // Every cell but the naturals of upcards 2 to 9, whose probability is
    // exactly 0 (decided without a z).
    assert_eq!(report["cells_tested"], 62);
}

/// A comparison that finds disagreement exits with status 1 after writing
/// its whole output; agreement exits 0; bad input stays 2; `reproduce`,
/// which runs the same commands, is not affected.
#[test]
fn disagreement_exits_1_after_the_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("check.json");
    let (status, table, stderr) = run_status(
        "blackjack compare --published analysis/published/quiz151-simulation.csv --hands 100000 --level 0.05",
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        table.lines().nth(1),
        Some("verdict: INCONSISTENT: 1 of 91 cells")
    );
    assert!(table.contains("Inconsistent: 1 of 91 cells"), "{table}");
    assert_eq!(
        stderr.trim_end(),
        "the comparison found disagreement: exit status 1"
    );
    let (status, _, stderr) = run_status(&format!(
        "--quiet blackjack compare --published analysis/published/quiz151-simulation.csv --hands 100000 --level 0.05 --out {}",
        out.display()
    ));
    assert_eq!((status, stderr.as_str()), (Some(1), ""));
    let written: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written["inconsistent"], serde_json::json!(["A/bust"]));

    // Reversing the order changes the odds: the versions disagree.
    let (status, table, _) = run_status("roll-call compare --with order --trials 100000 --quiet");
    assert_eq!(status, Some(1));
    assert!(
        table
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("verdict: DISAGREE: "),
        "{table}"
    );
    let (status, _, _) = run_status("blackjack compare --trials 20000 --quiet");
    assert_eq!(status, Some(0));
    let (status, _, _) = run_status("blackjack compare --trials 0");
    assert_eq!(status, Some(2));

    let results = dir.path().join("results");
    let output = deckodds()
        .args([
            "--quiet",
            "reproduce",
            "blackjack-dealer-2-decks-s17-vs-quiz151-simulation",
        ])
        .arg("--results")
        .arg(&results)
        .output()
        .unwrap();
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        summary.contains("inconsistent (expected): A/bust"),
        "{summary}"
    );
}

/// A run estimated at over a minute without a checkpoint says at its start
/// how to make it resumable (not with --quiet, nor with a checkpoint);
/// `--resume` says where it takes up.
#[test]
fn long_runs_say_how_to_be_resumable() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("deckodds"))
        .args(["roll-call", "mc", "--trials", "1e11", "--seed", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let started = Instant::now();
    let mut note = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        if line.starts_with("note: this sampling run will take") {
            note = line;
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no note");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        note.contains("if it is interrupted it is lost; to make it resumable, rerun it with --checkpoint FILE, e.g. deckodds roll-call mc --trials 1e11 --seed 2 --checkpoint deckodds.checkpoint"),
        "{note}"
    );

    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.checkpoint");
    let line = "klondike mc --trials 3000000 --seed 5";
    let output = deckodds()
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "2")
        .args(line.split_whitespace())
        .arg("--checkpoint")
        .arg(&checkpoint)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(!stderr.contains("will take about"), "{stderr}");
    let output = deckodds()
        .args(line.split_whitespace())
        .arg("--resume")
        .arg(&checkpoint)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    let resumed = stderr
        .lines()
        .find(|l| l.starts_with("resuming from "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        resumed.contains(": sampling run 1 goes on after ")
            && resumed.contains(" of 3,000,000 games (")
            && resumed.ends_with(" of 46 chunks)"),
        "{resumed}"
    );

    // --quiet says nothing.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("deckodds"))
        .args(["--quiet", "roll-call", "mc", "--trials", "1e11"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Messages name the value the user gave and what is allowed, on one line:
/// negative numbers reach the library's checks, a mistyped flag gets its
/// suggestion, out-of-range and out-of-reach requests say what to do.
#[test]
fn messages_name_only_what_the_user_gave() {
    assert_bad_input(&[
        (
            "blackjack mc --trials -5",
            "--trials -5: must be a whole number of at least 1",
        ),
        (
            "roll-call mc --trials -1e6",
            "--trials -1e6: must be a whole number of at least 1",
        ),
        (
            "klondike mc --seed -1",
            "--seed -1: must be a whole number 0..=",
        ),
        ("blackjack exact --decks -2", "--decks -2: must be 1..=64"),
        (
            "prisoners-patience mc --save-wins -3 x.txt",
            "--save-wins -3: must be a whole number of at least 1",
        ),
        (
            "blackjack compare --published analysis/published/quiz151-exact.csv --hands -5",
            "--hands -5: must be a whole number of at least 1",
        ),
        (
            "idiots-delight mc --suits -4",
            "--suits -4: must be a whole number 1..=16",
        ),
        (
            "blackjack compare --level -0.5",
            "--level -0.5: must be a probability",
        ),
        ("--threads -2 klondike mc", "--threads -2: must be 1..=1024"),
        (
            "blackjack exact --h18",
            "error: unexpected argument '--h18' found (did you mean '--h17'?) (see --help)",
        ),
        (
            "blackjack exakt",
            "unrecognized subcommand 'exakt' (did you mean 'exact'?)",
        ),
        (
            "klondike record --games 0",
            "--games 0: must be a whole number 1..=1000: records are for reading",
        ),
        (
            "roll-call exact",
            "out of reach of exact enumeration. For the odds of winning use `roll-call mc` (Monte Carlo), and for the first pass exactly `roll-call first-pass` (any deck)",
        ),
        (
            "roll-call exact --force",
            "out of reach of exact enumeration",
        ),
        (
            "blackjack eor --decks inf",
            "--decks inf: the effect of removal needs a finite shoe",
        ),
    ]);
    for (line, unwanted) in [
        ("klondike record --games 0", "1000000"),
        ("roll-call exact", "--force"),
        ("blackjack eor --decks inf", "--remove"),
    ] {
        let (_, _, stderr) = run_status(line);
        assert!(!stderr.contains(unwanted), "{line}: {stderr}");
    }
    // Estimated at minutes, not out of reach: --force is the way.
    let (status, _, stderr) = run_status("roll-call exact --ranks 8 --copies 2");
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("estimated at 82 min on two cores; add --force"),
        "{stderr}"
    );
}

/// The effect of removal is computed wherever it can be: a legal removal
/// that leaves no card of a value to deal as the upcard blanks that cell
/// alone and says why, without blaming the user's --remove.
#[test]
fn the_effect_of_removal_says_which_cells_cannot_be() {
    let line = "blackjack eor --decks 1 --remove 2,2,2 --outcome bust";
    let (status, table, stderr) = run_status(line);
    assert_eq!(status, Some(0), "{stderr}");
    let row = table.lines().find(|l| l.starts_with("│ 2 ")).unwrap();
    let cells: Vec<&str> = row.split('│').map(str::trim).collect();
    assert_eq!(cells[2], "n/a", "{row}");
    assert!(
        cells[3..12].iter().all(|c| c.parse::<f64>().is_ok()),
        "{row}"
    );
    assert!(
        table.contains(
            "upcard 2, removed 2: not computed: removing one more 2 leaves none to deal as the upcard"
        ),
        "{table}"
    );
    assert!(!table.contains("--remove"), "{table}");
    let report = json(line);
    assert_eq!(report["not_computed"].as_array().unwrap().len(), 1);
    // A cell that can be computed is the exact difference of two tables.
    let fraction = |text: &str| -> BigRational {
        match text.split_once('/') {
            Some((n, d)) => BigRational::new(n.parse::<BigInt>().unwrap(), d.parse().unwrap()),
            None => BigRational::from_integer(text.parse().unwrap()),
        }
    };
    let removed_three = json("blackjack exact --decks 1 --remove 2,2,2,3");
    let base = json("blackjack exact --decks 1 --remove 2,2,2");
    let expected = fraction(&probability(&removed_three, "upcard=7", "bust"))
        - fraction(&probability(&base, "upcard=7", "bust"));
    assert_eq!(
        fraction(&probability(&report, "upcard=7", "removed 3")),
        expected
    );
}

/// A published table of counts that sum past 64 bits is refused, naming
/// the file, rather than wrapped into a small table.
#[test]
fn published_counts_that_overflow_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("counts.csv");
    let mut text = String::from("cards_left,count\n");
    for left in (0..=52).step_by(2) {
        let count = if left < 4 { u64::MAX / 2 + 1 } else { 1 };
        text.push_str(&format!("{left},{count}\n"));
    }
    fs::write(&path, text).unwrap();
    let line = format!(
        "idiots-delight compare --published {} --trials 1000",
        path.display()
    );
    assert_bad_input(&[(
        &line,
        &format!(
            "error: {}: its counts sum past 18446744073709551615",
            path.display()
        ),
    )]);
}
