//! `deckodds reproduce`: specs run into tables with provenance; bad specs
//! are refused by file, line and key before anything runs.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::support::{deckodds, fnv1a64};

const SPEC: &str = r#"description = "a small Klondike run"
game = "klondike"
command = "mc"
outputs = ["md", "json", "svg"]

[params]
passes = 2

[monte-carlo]
trials = 30_000
quick-trials = 3_000
seed = 5
"#;

/// Runs `reproduce` on `spec` (written as `name.toml` in a fresh folder)
/// with `extra` arguments; returns the folder, the results folder and the
/// output.
fn reproduce(name: &str, spec: &str, extra: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.toml"));
    fs::write(&path, spec).unwrap();
    let results = dir.path().join("out");
    let output = deckodds()
        .arg("reproduce")
        .arg(&path)
        .arg("--results")
        .arg(&results)
        .args(extra)
        .output()
        .unwrap();
    (dir, output)
}

fn provenance(dir: &Path, name: &str) -> Value {
    let text = fs::read_to_string(dir.join("out").join(format!("{name}.provenance.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A spec makes the same table as the command it names, and a provenance
/// record whose checksum does not depend on the thread count.
#[test]
fn a_spec_writes_its_tables_and_provenance() {
    let (dir, output) = reproduce("small", SPEC, &["--quiet", "--threads", "1"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(
        summary.contains("small") && summary.contains("30000"),
        "{summary}"
    );
    let table = fs::read_to_string(dir.path().join("out/small.md")).unwrap();
    let by_hand = crate::support::run_line(
        "klondike mc --quiet --passes 2 --trials 30000 --seed 5 --format md",
    );
    assert_eq!(table, by_hand);
    // The chart, drawn from the JSON.
    let svg = fs::read_to_string(dir.path().join("out/small.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Klondike: foundation cards"));
    assert!(svg.contains("30,000 games (seed 5), with 95% intervals"));
    let one = provenance(dir.path(), "small");
    assert_eq!(one["trials"], 30000);
    assert_eq!(one["seed"], 5);
    assert_eq!(one["spec_text"], SPEC);
    assert!(one["checksum"].as_str().unwrap().starts_with("fnv1a64:"));

    let (dir_two, output) = reproduce("small", SPEC, &["--quiet", "--threads", "2"]);
    assert!(output.status.success());
    assert_eq!(
        provenance(dir_two.path(), "small")["checksum"],
        one["checksum"]
    );

    // The quick profile: quick-trials, a different checksum.
    let (dir_quick, output) = reproduce("small", SPEC, &["--quiet", "--quick"]);
    assert!(output.status.success());
    let quick = provenance(dir_quick.path(), "small");
    assert_eq!(
        (quick["trials"].as_u64(), quick["profile"].as_str()),
        (Some(3000), Some("quick"))
    );
    assert_ne!(quick["checksum"], one["checksum"]);
}

/// A bad spec: one line naming the file, the line and the key; exit
/// status 2; nothing written.
#[test]
fn bad_specs_are_refused_by_file_line_and_key() {
    let cases = [
        (
            SPEC.replace("passes = 2", "colour = 2"),
            "line 7: params.colour: unknown key",
        ),
        (
            SPEC.replace("trials = 30_000", "trials = -1"),
            "line 10: monte-carlo.trials = -1: must be at least 1",
        ),
        (
            SPEC.replace("\"klondike\"", "\"poker\""),
            "line 2: game = \"poker\": unknown",
        ),
        // Values are checked by the command itself, and reported by key.
        (
            SPEC.replace("passes = 2", "draw = 2"),
            "line 7: params.draw = 2: must be 1 or 3",
        ),
        (
            SPEC.replace("passes = 2", "passes = \"many\""),
            "line 7: params.passes = many:",
        ),
        // A family the page shows must be one a spec makes.
        (
            SPEC.replace("[params]", "also-shows = [\"klondike-53\"]\n[params]"),
            "line 6: also-shows = \"klondike-53\": no spec makes this family; allowed: the families of the specs (",
        ),
    ];
    for (spec, expected) in cases {
        let (dir, output) = reproduce("bad", &spec, &[]);
        assert_eq!(output.status.code(), Some(2), "{expected}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("bad.toml: ") && stderr.contains(expected),
            "{stderr}"
        );
        let out = dir.path().join("out");
        let written = fs::read_dir(&out).map(|d| d.count()).unwrap_or(0);
        assert_eq!(written, 0, "{expected}: wrote into {}", out.display());
    }
}

/// Run outside the project, with no spec named or with a table's name:
/// one line saying what to do (naming the table), exit status 2.
#[test]
fn reproduce_outside_the_project_says_where_to_run() {
    let dir = tempfile::tempdir().unwrap();
    for (args, said) in [
        (
            &["reproduce"][..],
            "(no specs named): there is no analysis/ folder here",
        ),
        (
            &["reproduce", "roll-call-exact-4x3"][..],
            "roll-call-exact-4x3: a table or family is looked up in analysis/, and there is no analysis/ folder here",
        ),
    ] {
        let output = deckodds()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1);
        assert!(stderr.contains(said), "{stderr}");
    }
}

/// `--check` passes on fresh results and fails, naming the file, when one
/// committed figure is altered (a count in a table, a card in a record) or
/// the recorded counts are not what the program computes.
#[test]
fn check_names_the_file_whose_figure_was_altered() {
    let dir = tempfile::tempdir().unwrap();
    let record_spec = r#"description = "one game"
game = "klondike"
command = "record"
outputs = ["txt"]
[params]
games = 1
seed = 3
"#;
    let specs = [("small", SPEC), ("game", record_spec)];
    for (name, text) in specs {
        fs::write(dir.path().join(format!("{name}.toml")), text).unwrap();
    }
    let results = dir.path().join("out");
    let run = |check: bool| {
        let mut command = deckodds();
        command.arg("--quiet").arg("reproduce");
        for (name, _) in specs {
            command.arg(dir.path().join(format!("{name}.toml")));
        }
        command.arg("--results").arg(&results);
        if check {
            command.arg("--check");
        }
        command.output().unwrap()
    };
    assert!(run(false).status.success());
    let checked = run(true);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );

    let fails_naming = |file: &str| {
        let output = run(true);
        assert_eq!(output.status.code(), Some(2), "{file}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("{file}: ")), "{file}: {stderr}");
    };
    let alter = |file: &str, from: &str, to: &str| {
        let path = results.join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
        text
    };
    // One count in the Markdown table.
    let original = alter("small.md", "| 0       |", "| 0       | 1");
    fails_naming("small.md");
    fs::write(results.join("small.md"), original).unwrap();
    assert!(run(true).status.success());
    // One card in the record.
    let original = alter(
        "game.txt",
        "Cards played to the foundations: ",
        "Cards played to the foundations: 1",
    );
    fails_naming("game.txt");
    fs::write(results.join("game.txt"), original).unwrap();
    // A provenance record is read as its type (deckodds.provenance/v1):
    // an unknown field or a value of the wrong type is refused naming the
    // field.
    let refused_naming_field = |edit: &dyn Fn(&mut Value), field: &str| {
        let path = results.join("small.provenance.json");
        let original = fs::read_to_string(&path).unwrap();
        let mut value: Value = serde_json::from_str(&original).unwrap();
        edit(&mut value);
        fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
        let output = run(true);
        assert_eq!(output.status.code(), Some(2), "{field}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(
                "small.provenance.json: not a provenance record (deckodds.provenance/v1 field "
            ) && stderr.contains(field),
            "{field}: {stderr}"
        );
        fs::write(&path, original).unwrap();
    };
    refused_naming_field(
        &|value| value["extra"] = Value::from(1),
        "field extra: unknown field `extra`",
    );
    refused_naming_field(
        &|value| value["files"]["small.md"] = Value::from(7),
        "field files.small.md: invalid type: integer `7`, expected a string",
    );
    refused_naming_field(
        &|value| value["seed"] = Value::from("5"),
        "field seed: invalid type: string \"5\", expected u64",
    );
    assert!(run(true).status.success());
    // Recorded counts that the program does not give.
    alter(
        "small.provenance.json",
        "\"quick_checksum\": \"fnv1a64:",
        "\"quick_checksum\": \"fnv1a64:0",
    );
    fails_naming("small.provenance.json");
}

/// A comparison spec's verdicts reach the summary table, read from its JSON.
#[test]
fn the_summary_shows_each_comparison_verdict() {
    let spec = r#"description = "Roll-Call 3 x 2, Monte Carlo against exact"
game = "roll-call"
command = "compare"
outputs = ["md", "json"]

[params]
ranks = 3
copies = 2

[monte-carlo]
trials = 20_000
quick-trials = 2_000
seed = 3
"#;
    let (dir, output) = reproduce("small-compare", spec, &["--quiet"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8(output.stdout).unwrap();
    let json: Value = serde_json::from_str(
        &fs::read_to_string(dir.path().join("out/small-compare.json")).unwrap(),
    )
    .unwrap();
    let rows = json["rows"].as_array().unwrap();
    let agree = rows.iter().filter(|row| row["verdict"] == "agree").count();
    let expected = if agree == rows.len() {
        format!("agree ({agree} of {agree})")
    } else {
        format!("({agree} of {} agree)", rows.len())
    };
    assert!(summary.contains(&expected), "{expected}\n{summary}");
}

/// A project folder with an exact family spec and a slow spec: a whole
/// run makes every table and the index, skipping the slow one; `--check`
/// recomputes the exact tables, so an altered exact figure is caught even
/// when its provenance is forged to match, and so are a stale index and a
/// file no spec makes.
#[test]
fn check_recomputes_exact_tables_and_guards_the_index() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("analysis")).unwrap();
    let family = r#"description = "Idiot's Delight, {suits} x {ranks}, exactly"
game = "idiots-delight"
command = "exact"
outputs = ["md", "json"]
suffix = "{suits}x{ranks}"
each = [{ suits = 2, ranks = [3, 4] }]
"#;
    let slow = r#"description = "Roll-Call 4 x 2, exactly (marked slow)"
game = "roll-call"
command = "exact"
outputs = ["md"]
slow = true
[params]
ranks = 4
copies = 2
"#;
    // The 2x4 table leads the front page; the project's README shows the
    // same headline table between its markers.
    let family = format!(
        "{family}[headline]\nvariant = \"{{suits}} x {{ranks}}\"\nlabel = \"P(win)\"\noutcome = \"0\"\n"
    );
    fs::write(dir.path().join("analysis/tiny.toml"), family).unwrap();
    fs::write(dir.path().join("analysis/later.toml"), slow).unwrap();
    let readme_path = dir.path().join("README.md");
    fs::write(
        &readme_path,
        format!(
            "# tiny\n\n{}\n{}\n\nmore\n",
            deckodds::analysis::README_BEGIN,
            deckodds::analysis::README_END
        ),
    )
    .unwrap();
    let run = |args: &[&str]| {
        deckodds()
            .arg("--quiet")
            .arg("reproduce")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let output = run(&[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(summary.contains("2 of 3 tables made"), "{summary}");
    assert!(summary.contains("skipped: slow"), "{summary}");
    let results = dir.path().join("results");
    assert!(!results.join("later.md").exists());
    let index = fs::read_to_string(results.join("README.md")).unwrap();
    for name in ["tiny-2x3", "tiny-2x4", "later"] {
        assert!(index.contains(&format!("| `{name}` |")), "{name}\n{index}");
    }
    assert!(index.contains("Idiot's Delight, 2 x 4, exactly"));
    // The site: a front page with a headline row per table of the
    // family, a page per family, and the README's table.
    let front = fs::read_to_string(results.join("index.html")).unwrap();
    let headline_rows = front
        .matches("<tr><td data-label=\"game\">Idiot&#39;s Delight</td><th scope=\"row\">")
        .count();
    assert_eq!(headline_rows, 2, "{front}");
    assert!(results.join("tiny.html").is_file() && results.join("later.html").is_file());
    let readme = fs::read_to_string(&readme_path).unwrap();
    assert!(
        readme.contains("| Idiot's Delight | 2 x 4 | P(win) |"),
        "{readme}"
    );
    assert!(readme.contains("(results/tiny-2x4.md)"), "{readme}");
    // A slow spec runs when named; then the whole folder checks clean.
    assert!(run(&["later"]).status.success());
    let checked = run(&["--check"]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );

    let fails_naming = |file: &str, why: &str| assert_refused(run(&["--check"]), file, why);
    // One exact fraction altered, and the provenance forged to match it:
    // the recomputation still catches it.
    let table = results.join("tiny-2x4.md");
    let original = fs::read_to_string(&table).unwrap();
    let fraction = original
        .split_whitespace()
        .find(|word| word.contains('/') && word.chars().next().unwrap().is_ascii_digit())
        .unwrap()
        .to_string();
    let altered = original.replacen(&fraction, &format!("1{fraction}"), 1);
    fs::write(&table, &altered).unwrap();
    fails_naming(
        "tiny-2x4.md",
        "differs from the file its provenance records",
    );
    let provenance_path = results.join("tiny-2x4.provenance.json");
    let record = fs::read_to_string(&provenance_path).unwrap();
    let forged = record.replace(&fnv1a64(original.as_bytes()), &fnv1a64(altered.as_bytes()));
    assert_ne!(forged, record);
    fs::write(&provenance_path, forged).unwrap();
    fails_naming("tiny-2x4.md", "differs from what the program computes now");
    fs::write(&table, &original).unwrap();
    fs::write(&provenance_path, &record).unwrap();
    assert!(run(&["--check"]).status.success());

    // A file no spec makes.
    fs::write(results.join("old-table.md"), "stale").unwrap();
    fails_naming("old-table.md", "no spec in analysis/ makes this file");
    fs::remove_file(results.join("old-table.md")).unwrap();
    // A page edited by hand, a stray page, a README table edited by hand.
    let page = results.join("tiny.html");
    let page_text = fs::read_to_string(&page).unwrap();
    fs::write(&page, page_text.replace("2 x 4", "2 x 5")).unwrap();
    fails_naming("tiny.html", "is not the file the specs and tables make now");
    fs::write(&page, &page_text).unwrap();
    fs::write(results.join("old-page.html"), "<p>stale</p>").unwrap();
    fails_naming("old-page.html", "no spec in analysis/ makes this file");
    fs::remove_file(results.join("old-page.html")).unwrap();
    fs::write(&readme_path, readme.replace("P(win)", "P(loss)")).unwrap();
    fails_naming(
        "README.md",
        "its headline table is not the one the results make now",
    );
    fs::write(&readme_path, &readme).unwrap();
    assert!(run(&["--check"]).status.success());
    // An index edited by hand.
    fs::write(
        results.join("README.md"),
        index.replace("exactly", "roughly"),
    )
    .unwrap();
    fails_naming("README.md", "is not the index the specs make now");
}

/// Exit status 2 and one line on stderr, naming `file` and saying `why`.
fn assert_refused(output: std::process::Output, file: &str, why: &str) {
    assert_eq!(output.status.code(), Some(2), "{file}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("{file}: ")) && stderr.contains(why),
        "{file}: {stderr}"
    );
}

/// Runs deckodds with `args` in the folder `dir`.
fn reproduce_in(dir: &Path, args: &[&str]) -> std::process::Output {
    deckodds().args(args).current_dir(dir).output().unwrap()
}

fn assert_success(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

const COMPARISON: &str = r#"description = "Roll-Call 3 x 2, Monte Carlo against exact"
game = "roll-call"
command = "compare"
outputs = ["md", "json"]
expect = "agree"

[params]
ranks = 3
copies = 2

[monte-carlo]
trials = 20_000
seed = 3
"#;

/// A comparison that reaches the verdict its spec expects is marked so in
/// the summary; one that reaches another still writes its tables, then
/// fails with exit status 1 in one line naming the table, the verdict and
/// the one expected, and so does `--check` on it.
#[test]
fn expected_verdicts_are_regression_checks() {
    let (dir, output) = reproduce("rc", COMPARISON, &["--quiet"]);
    assert_success(&output);
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(summary.contains("agree (expected; 8 of 8)"), "{summary}");
    // Without quick-trials, the quick profile runs all 20,000 (fewer
    // than 100,000).
    assert_eq!(provenance(dir.path(), "rc")["quick_trials"], 20000);

    let disagree = COMPARISON.replace("expect = \"agree\"", "expect = \"disagree\"");
    let (dir, output) = reproduce("rc", &disagree, &["--quiet"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("1 table reaches a verdict other than the one its spec expects: rc: agree, expected disagree (")
            && stderr.contains("rc.toml, line 5)"),
        "{stderr}"
    );
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(
        summary.contains("agree (8 of 8); expected disagree"),
        "{summary}"
    );
    assert!(dir.path().join("out/rc.json").exists());
    assert!(dir.path().join("out/rc.provenance.json").exists());
    let check = deckodds()
        .args(["--quiet", "reproduce", "--check"])
        .arg(dir.path().join("rc.toml"))
        .arg("--results")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    let stderr = String::from_utf8(check.stderr).unwrap();
    assert!(stderr.contains("rc: agree, expected disagree"), "{stderr}");

    // expect is validated like every key.
    let (_, output) = reproduce(
        "rc",
        &COMPARISON.replace("\"agree\"", "\"agrees\""),
        &["--quiet"],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("rc.toml: line 5: expect = \"agrees\": not a verdict; one of agree, disagree, consistent, inconsistent"),
        "{stderr}"
    );
}

/// The quick profile's folder describes itself: its index is headed by
/// its own name and gives the quick trials its tables hold, and each
/// provenance's command names the files it wrote.
#[test]
fn the_quick_profile_describes_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("analysis")).unwrap();
    fs::write(dir.path().join("analysis/small.toml"), SPEC).unwrap();
    let output = reproduce_in(dir.path(), &["--quiet", "reproduce", "--quick"]);
    assert_success(&output);
    let quick = dir.path().join("results-quick");
    let index = fs::read_to_string(quick.join("README.md")).unwrap();
    assert!(
        index.starts_with("# Card-game odds: the tables in results-quick/\n"),
        "{index}"
    );
    assert!(index.contains("`mc`, 3,000 trials, seed 5"), "{index}");
    assert!(!index.contains("30,000"), "{index}");
    let record: Value =
        serde_json::from_str(&fs::read_to_string(quick.join("small.provenance.json")).unwrap())
            .unwrap();
    assert_eq!(
        record["command"],
        "deckodds klondike mc --passes 2 --trials 3000 --seed 5 --out results-quick/small.md --out results-quick/small.json"
    );
    // The folder checks clean, its index against its own profile.
    let check = deckodds()
        .args([
            "--quiet",
            "reproduce",
            "--check",
            "--results",
            "results-quick",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_success(&check);
}

/// `--check --recomputed-in DIR` takes a quick run's tables for the
/// recomputation: a project checks clean against its own quick run, and
/// the same differences are caught (an exact table the program no longer
/// makes, Monte-Carlo counts it no longer gives); a folder that is not
/// this program's quick run of the same specs is refused naming the
/// record, and the flag needs `--check`.
#[test]
fn check_can_take_a_quick_run_for_the_recomputation() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("analysis")).unwrap();
    let exact = r#"description = "Idiot's Delight, 2 x 3, exactly"
game = "idiots-delight"
command = "exact"
outputs = ["md", "json"]
[params]
suits = 2
ranks = 3
"#;
    fs::write(dir.path().join("analysis/small.toml"), SPEC).unwrap();
    fs::write(dir.path().join("analysis/tiny.toml"), exact).unwrap();
    let run = |args: &[&str]| reproduce_in(dir.path(), &[&["--quiet", "reproduce"], args].concat());
    assert_success(&run(&[]));
    assert_success(&run(&["--quick", "--results", "quick"]));
    let checked = run(&["--check", "--recomputed-in", "quick"]);
    assert_success(&checked);
    let summary = String::from_utf8(checked.stdout).unwrap();
    assert!(
        summary.contains("recomputed whole (the quick run's): identical")
            && summary.contains("quick profile (the quick run's): same counts"),
        "{summary}"
    );

    let fails_naming = |args: &[&str], file: &str, why: &str| assert_refused(run(args), file, why);
    let check = ["--check", "--recomputed-in", "quick"];
    let quick = dir.path().join("quick");
    // The quick run's exact table, and its record forged to match: the
    // committed table differs from it.
    let table = quick.join("tiny.md");
    let original = fs::read_to_string(&table).unwrap();
    let altered = original.replacen("| 0", "| 10", 1);
    assert_ne!(altered, original);
    fs::write(&table, &altered).unwrap();
    fails_naming(
        &check,
        "tiny.provenance.json",
        "tiny.md is not the file it records",
    );
    let record_path = quick.join("tiny.provenance.json");
    let record = fs::read_to_string(&record_path).unwrap();
    fs::write(
        &record_path,
        record.replace(&fnv1a64(original.as_bytes()), &fnv1a64(altered.as_bytes())),
    )
    .unwrap();
    fails_naming(
        &check,
        "tiny.md",
        "differs from what the program computes now",
    );
    fs::write(&table, &original).unwrap();
    fs::write(&record_path, &record).unwrap();
    assert_success(&run(&check));
    // The quick run's counts of the Monte-Carlo table, forged.
    let record_path = quick.join("small.provenance.json");
    let record = fs::read_to_string(&record_path).unwrap();
    fs::write(
        &record_path,
        record.replace("\"checksum\": \"fnv1a64:", "\"checksum\": \"fnv1a64:0"),
    )
    .unwrap();
    fails_naming(
        &check,
        "small.provenance.json",
        "the program now counts differently",
    );
    fs::write(&record_path, &record).unwrap();
    // Not a quick run of these specs.
    fails_naming(
        &["--check", "--recomputed-in", "results"],
        "small.provenance.json",
        "records the full profile, not the quick one: --recomputed-in takes a folder that `deckodds reproduce --quick --results results` wrote",
    );
    fails_naming(
        &["--check", "--recomputed-in", "nowhere"],
        "small.provenance.json",
        "missing: --recomputed-in takes a folder",
    );
    // A spec edited since: its committed tables are refused, and so is a
    // quick run of the edited text once the edit is undone.
    let spec_path = dir.path().join("analysis/small.toml");
    fs::write(
        &spec_path,
        SPEC.replace("trials = 30_000", "trials = 40_000"),
    )
    .unwrap();
    fails_naming(
        &check,
        "small.provenance.json",
        "made from another text of analysis/small.toml than it holds now: its tables are older than the spec; run deckodds reproduce small",
    );
    assert_success(&run(&["--quick", "--results", "edited"]));
    fs::write(&spec_path, SPEC).unwrap();
    fails_naming(
        &["--check", "--recomputed-in", "edited"],
        "small.provenance.json",
        "made from another text of analysis/small.toml: --recomputed-in",
    );
    assert_success(&run(&check));
    // Only with --check.
    let output = run(&["--recomputed-in", "quick"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--check"), "{stderr}");
}

/// Before anything runs: two spec files making the same table are refused
/// naming both and the table, and a spec whose published table is missing
/// is refused naming the spec file, the line and the key. Exit status 2,
/// one line, nothing written (not even the other specs' tables).
#[test]
fn clashing_names_and_missing_inputs_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["a", "b"] {
        fs::create_dir(dir.path().join(folder)).unwrap();
        fs::write(dir.path().join(folder).join("k.toml"), SPEC).unwrap();
    }
    let missing = r#"description = "a published table that is not there"
game = "blackjack"
command = "compare"
outputs = ["md", "json"]
expect = "consistent"

[params]
published = "published/missing.csv"
"#;
    fs::write(dir.path().join("missing.toml"), missing).unwrap();
    let refused = |specs: &[&str], expected: &[&str]| {
        let output = reproduce_in(
            dir.path(),
            &[&["reproduce"], specs, &["--results", "out"]].concat(),
        );
        assert_eq!(output.status.code(), Some(2), "{specs:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        for part in expected {
            assert!(stderr.contains(part), "{part}: {stderr}");
        }
        assert!(!dir.path().join("out").exists(), "{specs:?} wrote out/");
    };
    refused(
        &["a/k.toml", "b/k.toml"],
        &[
            "b/k.toml: makes the table \"k\", and so does a/k.toml",
            "each table needs its own name",
        ],
    );
    refused(
        &["a/k.toml", "missing.toml"],
        &["missing.toml: line 8: params.published = \"published/missing.csv\": no such file"],
    );
    // The same spec named twice is one table.
    let output = reproduce_in(
        dir.path(),
        &[
            "--quiet",
            "reproduce",
            "a/k.toml",
            "./a/k.toml",
            "--results",
            "out",
            "--quick",
        ],
    );
    assert_success(&output);
    assert!(
        String::from_utf8(output.stdout)
            .unwrap()
            .contains("1 of 1 tables")
    );
}

/// Every comparison in `analysis/` declares the verdict it reaches, so
/// each published finding (and each agreement) is a regression check;
/// the count catches a comparison that stops parsing as one.
#[test]
fn every_comparison_in_analysis_declares_its_verdict() {
    let mut comparisons = 0;
    for spec in analysis_tables() {
        if spec.command == "compare" {
            comparisons += 1;
            assert!(spec.expect.is_some(), "{} expects no verdict", spec.name);
        }
    }
    assert_eq!(comparisons, 53);
}

/// Every table the project's `analysis/` specs make.
fn analysis_tables() -> Vec<deckodds::analysis::Spec> {
    let mut tables = Vec::new();
    for entry in fs::read_dir("analysis").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        tables.extend(deckodds::analysis::Spec::parse(&path, &text).unwrap());
    }
    tables
}

/// Every published table has its figures in a CSV: its own CSV output, or
/// its game's long-form `GAME-tables.csv`, which holds the JSON of the
/// kinds it reads (judged from the committed JSON's `"schema"`). Records
/// of play (`txt` only) are games written out, not tables of figures.
#[test]
fn every_table_in_results_has_a_csv() {
    let mut tables = 0;
    for spec in analysis_tables() {
        tables += 1;
        if spec.outputs.iter().all(|kind| kind == "txt") {
            continue;
        }
        if spec.outputs.iter().any(|kind| kind == "csv") {
            continue;
        }
        assert!(
            spec.outputs.iter().any(|kind| kind == "json"),
            "{} writes neither CSV nor JSON",
            spec.name
        );
        let json = fs::read_to_string(format!("results/{}.json", spec.name)).unwrap();
        let kind = deckodds::contract::schema_id(&json).unwrap().unwrap();
        assert!(
            deckodds::analysis::long_form::KINDS.contains(&kind.as_str()),
            "{}: a {kind} document, which the long-form CSV does not hold, and no CSV output",
            spec.name
        );
    }
    assert!(tables > 200, "{tables} tables");
}
