//! Nothing lost, nothing mixed, refused up front (issue 43): the files a
//! run reads are part of its identity (a chart edited between a run and
//! its resumption, or between parts, is refused), a table part's tallies
//! are checked against one another, refusals that need only the command
//! line and its files come before any work, user files are read as bytes
//! (not UTF-8, a byte-order mark, a 10 MB line), multi-file writers check
//! every target first, Ctrl-C without a checkpoint says what was lost, a
//! claim sharper than the run says so, and a table of fractions where
//! percentages belong is named as such.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use proptest::prelude::*;
use serde_json::Value;

use deckodds::cli::Command as Top;
use deckodds::cli::{BlackjackCommand, Cli, PlayerCommand};

use crate::support::{deckodds, fnv1a64, run_line};

/// Runs `args` in `dir`; returns the exit status and stderr.
fn run_in(dir: &Path, args: &str) -> (Option<i32>, String) {
    let output = deckodds()
        .current_dir(dir)
        .args(args.split_whitespace())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `args` in `dir`, which must succeed.
fn ran(dir: &Path, args: &str) {
    let (code, stderr) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args}: {stderr}");
}

/// Asserts that `args` run in `dir` is refused as bad input: exit 2, one
/// line on stderr holding each of `expected`.
fn refused(dir: &Path, args: &str, expected: &[&str]) {
    let (code, stderr) = run_in(dir, args);
    assert_eq!(code, Some(2), "{args}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}");
    for text in expected {
        assert!(stderr.contains(text), "{args}: {text:?} not in {stderr}");
    }
}

/// The basic-strategy chart of the default rules, as `blackjack strategy`
/// writes it, into `dir/chart.csv`; and the same chart with its first
/// cell changed.
fn charts(dir: &Path) -> (String, String) {
    let chart = run_line("blackjack strategy --float --format csv --quiet");
    let first = chart.lines().nth(1).unwrap().to_string();
    assert!(first.ends_with(",H,"), "{first}");
    let edited = chart.replacen(&first, &first.replace(",H,", ",S,"), 1);
    assert_ne!(chart, edited);
    fs::write(dir.join("chart.csv"), &chart).unwrap();
    (chart, edited)
}

/// A chart edited while its run is stopped: `--resume` refuses it, naming
/// the file and that it changed since the checkpoint, and resumes once it
/// is restored; parts played with two versions of the chart do not merge,
/// nor do parts whose chart changed since.
#[test]
fn a_chart_edited_between_a_run_and_its_resumption_or_its_parts_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (chart, edited) = charts(dir.path());
    let line = "blackjack table --strategy chart.csv --trials 300000 --seed 2 --threads 1";
    let args: Vec<String> = line
        .split_whitespace()
        .chain(["--quiet", "--checkpoint", "run.checkpoint"])
        .map(String::from)
        .collect();
    let stopped = deckodds()
        .current_dir(dir.path())
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "2")
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(stopped.status.code(), Some(130), "{stopped:?}");
    let saved: Value =
        serde_json::from_slice(&fs::read(dir.path().join("run.checkpoint")).unwrap()).unwrap();
    assert_eq!(saved["inputs"][0]["option"], "--strategy");
    assert_eq!(
        saved["inputs"][0]["contents"],
        fnv1a64(chart.as_bytes()).as_str()
    );
    fs::write(dir.path().join("chart.csv"), &edited).unwrap();
    let resume = format!("{line} --quiet --resume run.checkpoint");
    refused(
        dir.path(),
        &resume,
        &[
            "error: --strategy chart.csv: the file changed since the checkpoint run.checkpoint was saved",
            "delete the checkpoint and run afresh",
        ],
    );
    fs::write(dir.path().join("chart.csv"), &chart).unwrap();
    let (code, stderr) = run_in(dir.path(), &resume);
    assert_eq!(code, Some(0), "{stderr}");

    // Parts: the second played with the edited chart.
    let part = |k: u32, name: &str| {
        ran(
            dir.path(),
            &format!("{line} --quiet --shard {k}/2 --out {name}"),
        );
    };
    part(0, "p0.json");
    part(1, "p1.json");
    fs::write(dir.path().join("chart.csv"), &edited).unwrap();
    part(1, "p1-edited.json");
    refused(
        dir.path(),
        "merge p0.json p1-edited.json",
        &[
            "error: p1-edited.json: does not belong with p0.json",
            "other contents of --strategy chart.csv",
        ],
    );
    // Both parts of the first chart, merged once it is edited.
    refused(
        dir.path(),
        "merge p0.json p1.json",
        &["error: --strategy chart.csv: the file changed since the parts were counted"],
    );
    fs::write(dir.path().join("chart.csv"), &chart).unwrap();
    ran(
        dir.path(),
        "--quiet merge p0.json p1.json --out merged.json",
    );
}

/// The forgery: a table part with 1,000 rounds added to its
/// net-per-round tally and its checksum made again is refused by `merge`,
/// naming the part and the counts that disagree (a Roll-Call part edited
/// so is refused too, by its own distributions).
#[test]
fn a_table_part_whose_tallies_disagree_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let line = "blackjack table --trials 300000 --seed 4 --count hi-lo --quiet";
    for k in 0..2 {
        let (code, stderr) = run_in(dir.path(), &format!("{line} --shard {k}/2 --out p{k}.json"));
        assert_eq!(code, Some(0), "{stderr}");
    }
    let (code, stderr) = run_in(dir.path(), "--quiet merge p0.json p1.json");
    assert_eq!(code, Some(0), "{stderr}");
    let path = dir.path().join("p1.json");
    let mut part: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let block = part["shard"].as_object_mut().unwrap();
    // Bin 80 of the net results is a push (net 0, from -8.0 units).
    let tally = block["samples"][0]["tally"].as_array_mut().unwrap();
    let pushes = tally[80].as_u64().unwrap();
    tally[80] = Value::from(pushes + 1000);
    block.remove("checksum");
    let sum = fnv1a64(serde_json::to_string(&block).unwrap().as_bytes());
    block.insert("checksum".into(), Value::String(sum));
    fs::write(&path, serde_json::to_string_pretty(&part).unwrap()).unwrap();
    refused(
        dir.path(),
        "merge p0.json p1.json",
        &[
            "error: p1.json: corrupt count file: its tallies disagree: the rounds by net results count",
            "rounds per shoe hold",
        ],
    );
}

/// Refusals that need only the command line and its files come before any
/// work: a split model the rounds cannot play (a six-deck exact solve
/// takes over a minute), README.md without its markers (before a table is
/// made), a directory in the way of a file `reproduce` writes.
#[test]
fn refusals_that_need_no_work_come_first() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    refused(
        dir.path(),
        "blackjack player compare --split-model cdp1 --decks 6 --trials 1000",
        &["error: --split-model cdp1:", "cdz"],
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "after the solve?"
    );

    fs::create_dir(dir.path().join("analysis")).unwrap();
    fs::write(
        dir.path().join("analysis/tiny.toml"),
        "description = \"Idiot's Delight 2 x 3, exactly\"\ngame = \"idiots-delight\"\ncommand = \"exact\"\noutputs = [\"md\"]\n[params]\nsuits = 2\nranks = 3\n",
    )
    .unwrap();
    fs::write(dir.path().join("README.md"), "# a project\n\nno markers\n").unwrap();
    refused(
        dir.path(),
        "reproduce analysis/tiny.toml",
        &["error: README.md: has no generated headline table"],
    );
    assert!(!dir.path().join("results").exists(), "wrote results/");

    // With markers, but a directory where a provenance record goes.
    fs::write(
        dir.path().join("README.md"),
        format!(
            "# a project\n\n{}\n{}\n",
            deckodds::analysis::README_BEGIN,
            deckodds::analysis::README_END
        ),
    )
    .unwrap();
    fs::create_dir_all(dir.path().join("results/tiny.provenance.json")).unwrap();
    refused(
        dir.path(),
        "reproduce analysis/tiny.toml",
        &["error: --results results/tiny.provenance.json: is a directory"],
    );
    assert!(
        !dir.path().join("results/tiny.md").exists(),
        "made the table"
    );
}

/// The tags of `--count`, as `--help` and the guide write them, whatever
/// sign the first has.
fn count_tags(line: &str) -> Result<[i8; 10], String> {
    let cli = Cli::try_parse_from(line.split_whitespace()).map_err(|e| e.to_string())?;
    match cli.command {
        Top::Blackjack(BlackjackCommand::Player(PlayerCommand::Table { table, .. })) => table
            .count
            .map(|count| count.tags)
            .ok_or_else(|| "no count".to_string()),
        _ => Err("not blackjack table".into()),
    }
}

#[test]
fn a_tag_list_starting_with_a_minus_is_the_count_not_a_flag() {
    assert_eq!(
        count_tags("deckodds blackjack table --count -1,1,1,1,1,1,0,0,0,-1"),
        Ok([-1, 1, 1, 1, 1, 1, 0, 0, 0, -1])
    );
    assert_eq!(
        count_tags("deckodds blackjack table --count=-1,1,1,1,1,1,0,0,0,-1"),
        count_tags("deckodds blackjack table --count -1,1,1,1,1,1,0,0,0,-1"),
    );
    // A word that is no tag list is still refused by the count's parser.
    let error = count_tags("deckodds blackjack table --count -x").unwrap_err();
    assert!(error.contains("--count"), "{error}");
    // The binary, end to end.
    let out = run_line(
        "blackjack table --count -1,1,1,1,1,1,0,0,0,-1 --trials 20000 --quiet --format json",
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert!(
        report["by_true_count"]
            .as_array()
            .is_some_and(|rows| !rows.is_empty())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_tag_list_is_taken_whatever_its_signs(tags in proptest::array::uniform10(-3i8..=3)) {
        let list = tags.map(|tag| tag.to_string()).join(",");
        prop_assert_eq!(count_tags(&format!("deckodds blackjack table --count {list}")), Ok(tags));
    }
}

/// Every reader of a user's file: bytes that are not UTF-8 are bad input
/// (exit 2) naming the file and what it must hold.
#[test]
fn a_file_that_is_not_utf8_is_refused_naming_what_it_must_hold() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("latin1.txt"), b"caf\xe9, 12\n").unwrap();
    for (args, holds) in [
        ("blackjack table --strategy latin1.txt", "a strategy chart"),
        (
            "blackjack table compare --published latin1.txt",
            "a published claim",
        ),
        ("klondike solve --deals latin1.txt", "deals, one a line"),
        (
            "blackjack compare --published latin1.txt",
            "a published dealer table",
        ),
        (
            "idiots-delight compare --published latin1.txt",
            "a published table of counts",
        ),
        ("merge latin1.txt", "a count file"),
        ("prisoners-patience mc --resume latin1.txt", "a checkpoint"),
    ] {
        refused(
            dir.path(),
            args,
            &[
                "error: latin1.txt: is not UTF-8 text (line 1, byte 4 is not UTF-8): it must be ",
                holds,
            ],
        );
    }
}

/// A 10 MB line with no line break is quoted cut to a readable length,
/// by the claim reader and the deal reader alike; a deal file starting
/// with a byte-order mark is read as the chart and claim readers read
/// theirs.
#[test]
fn long_lines_are_quoted_short_and_a_byte_order_mark_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let long = "7".repeat(10_000_000);
    fs::write(
        dir.path().join("claim.txt"),
        format!("house-edge-percent = {long}"),
    )
    .unwrap();
    fs::write(dir.path().join("deals.txt"), &long).unwrap();
    for args in [
        "blackjack table compare --published claim.txt",
        "klondike solve --deals deals.txt",
    ] {
        let (code, stderr) = run_in(dir.path(), args);
        assert_eq!(code, Some(2), "{args}");
        assert_eq!(stderr.lines().count(), 1, "{args}");
        assert!(stderr.len() < 1_000, "{args}: {} bytes", stderr.len());
        assert!(stderr.contains("characters left out"), "{args}: {stderr}");
    }
    // A deal of the 52 cards (any order is a deal), after a byte-order
    // mark.
    let deal: Vec<String> = "CDHS"
        .chars()
        .flat_map(|suit| {
            "A23456789TJQK"
                .chars()
                .map(move |rank| format!("{rank}{suit}"))
        })
        .collect();
    fs::write(
        dir.path().join("deal.txt"),
        format!("\u{feff}{}\n", deal.join(" ")),
    )
    .unwrap();
    ran(
        dir.path(),
        "klondike solve --deals deal.txt --max-nodes 1000 --quiet",
    );
}

/// `schema --dir` and `man --out` with a directory in the way of one of
/// their files write none of them: bad input, naming the file.
#[test]
fn multi_file_writers_check_every_target_first() {
    let dir = tempfile::tempdir().unwrap();
    for (args, folder, in_the_way) in [
        ("schema --dir out", "out", "counts.json"),
        ("man --out pages", "pages", "deckodds-merge.1"),
    ] {
        fs::create_dir_all(dir.path().join(folder).join(in_the_way)).unwrap();
        refused(
            dir.path(),
            args,
            &[
                &format!("{folder}/{in_the_way} is a directory"),
                "nothing was written",
            ],
        );
        let entries: Vec<_> = fs::read_dir(dir.path().join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(entries, [in_the_way], "{args}");
    }
}

/// Ctrl-C on a sampling run without a checkpoint: one line saying how far
/// it got, that nothing was kept and how to make it resumable, then exit
/// status 130.
#[test]
fn an_interrupted_run_without_a_checkpoint_says_what_it_lost() {
    // The handler is installed as the sampling starts: a signal sent
    // before (on a loaded machine) kills the run unheard, so try again,
    // waiting longer.
    for wait in [1.5, 3.0, 6.0] {
        let child = Command::new(assert_cmd::cargo::cargo_bin!("deckodds"))
            .args("prisoners-patience mc --trials 1e10 --seed 3".split_whitespace())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_secs_f64(wait));
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.code().is_none() {
            continue;
        }
        assert_eq!(output.status.code(), Some(130), "{stderr}");
        let line = stderr
            .lines()
            .find(|line| line.starts_with("interrupted after "))
            .unwrap_or_else(|| panic!("no line: {stderr}"));
        for text in [
            "of 10,000,000,000 games of sampling run 1",
            "nothing was kept, as the run had no --checkpoint",
            "deckodds prisoners-patience mc --trials 1e10 --seed 3 --checkpoint deckodds.checkpoint",
        ] {
            assert!(line.contains(text), "{text:?} not in {line}");
        }
        return;
    }
    panic!("the run never heard the interrupt");
}

/// A claim made on more rounds than the run says plainly that the run's
/// interval is wider, by how much, and how to match it; one made on fewer
/// says nothing of the kind, nor one made on the rounds the run asked for
/// (which a whole number of shoes plays a few short of).
#[test]
fn a_claim_sharper_than_the_run_is_said_to_be() {
    let dir = tempfile::tempdir().unwrap();
    for (rounds, said) in [("1e8", true), ("1e4", false), ("100000", false)] {
        fs::write(
            dir.path().join("claim.txt"),
            format!("house-edge-percent = 0.45\nrounds = {rounds}\n"),
        )
        .unwrap();
        let stdout = |format: &str| {
            let line = format!(
                "blackjack table compare --published claim.txt --trials 100000 --quiet {format}"
            );
            let output = deckodds()
                .current_dir(dir.path())
                .args(line.split_whitespace())
                .output()
                .unwrap();
            String::from_utf8(output.stdout).unwrap()
        };
        let table = stdout("");
        let json = stdout("--format json");
        let report: Value = serde_json::from_str(&json).unwrap();
        let ratio = report["value"]["standard_error"].as_f64().unwrap()
            / report["claim"]["standard_error"].as_f64().unwrap();
        let sentence = table
            .lines()
            .find(|line| line.starts_with("This run played "));
        assert_eq!(sentence.is_some(), said, "{table}");
        if let Some(sentence) = sentence {
            assert!(
                sentence.contains(&format!("is {ratio:.1} times the claim's")),
                "{ratio}: {sentence}"
            );
            assert!(sentence.ends_with("--trials 100000000."), "{sentence}");
        }
    }
}

/// A claimed house edge under 0.05 % (a fraction of the bet written where
/// a percentage belongs, most often) is shown as the file gives it, and
/// the report says how to write it as a percentage; 0.45 % says nothing.
#[test]
fn a_house_edge_that_looks_like_a_fraction_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for (claimed, said) in [("0.0045", true), ("0.45", false)] {
        fs::write(
            dir.path().join("claim.txt"),
            format!("house-edge-percent = {claimed}\nrounds = 1e4\n"),
        )
        .unwrap();
        let output = deckodds()
            .current_dir(dir.path())
            .args(
                "blackjack table compare --published claim.txt --trials 20000 --quiet"
                    .split_whitespace(),
            )
            .output()
            .unwrap();
        let table = String::from_utf8(output.stdout).unwrap();
        assert!(
            table.contains(&format!(" {claimed} │")),
            "the claim as given: {table}"
        );
        let note = "write house-edge-percent = 0.45 in the claim file.";
        assert_eq!(table.contains(note), said, "{table}");
    }
}

/// Wizard of Odds' dealer table written as fractions of 1 where
/// percentages belong: the verdict says so, with the unit to use.
#[test]
fn a_table_of_fractions_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let percents = fs::read_to_string("analysis/published/woo-2b-1-deck-s17.csv").unwrap();
    let mut lines = percents.lines();
    let mut fractions = format!("{}\n", lines.next().unwrap());
    for line in lines {
        let mut fields = line.split(',');
        let mut row = vec![fields.next().unwrap().to_string()];
        row.extend(fields.map(|field| format!("{:.6}", field.parse::<f64>().unwrap() / 100.0)));
        fractions.push_str(&row.join(","));
        fractions.push('\n');
    }
    fs::write(dir.path().join("fractions.csv"), fractions).unwrap();
    let output = deckodds()
        .current_dir(dir.path())
        .args("blackjack compare --published fractions.csv --decks 1".split_whitespace())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        table.contains("The figures look like fractions of 1 (such as 0.3533) where percentages are expected (35.33): write each cell in percent"),
        "{table}"
    );
    assert!(!table.contains("other rules"), "{table}");
    // The percentages themselves: no such note.
    let output = deckodds()
        .args(
            "blackjack compare --published analysis/published/woo-2b-1-deck-s17.csv --decks 1"
                .split_whitespace(),
        )
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stdout).contains("look like fractions"));
}
