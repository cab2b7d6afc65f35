//! Runs that outlive a sitting or stop when precise enough (issue 8):
//! `--checkpoint` and `--resume` give exactly the uninterrupted counts,
//! damaged or foreign checkpoints are refused, and `--until-halfwidth`
//! stops at the first chunk within its bound.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{completed, deckodds, fnv1a64, run_into};

/// Trials in a chunk of a Monte-Carlo run (the runner's default).
const CHUNK: u64 = 65_536;

/// Runs `args` (a command line) whole into `dir/NAME`, expecting success;
/// returns the file's bytes.
fn whole(dir: &Path, name: &str, args: &str) -> Vec<u8> {
    run_into(&dir.join(name), args)
}

/// Runs deckodds with `args`, stopped by the test hook after `after`
/// chunks; expects the interrupt's exit status and message, and no output
/// file. Returns the command that resumes, as printed. (Also the table's
/// test, blackjack_table_cli.rs.)
pub(crate) fn interrupted(args: &[String], after: u64, out: &Path) -> String {
    let output = deckodds()
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", after.to_string())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{args:?}: {stderr}");
    assert!(!out.exists(), "{args:?}: an interrupted run wrote {out:?}");
    resume_line(&stderr)
}

/// The command line after "to resume: " in `stderr`.
fn resume_line(stderr: &str) -> String {
    stderr
        .lines()
        .find_map(|line| line.strip_prefix("to resume: "))
        .unwrap_or_else(|| panic!("no resume line in: {stderr}"))
        .to_string()
}

/// Runs a printed `deckodds ...` command line (the words need no quoting
/// here), with `env` set; returns the output.
pub(crate) fn run_printed(line: &str, env: &[(&str, String)]) -> std::process::Output {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "deckodds", "{line}");
    let mut command = deckodds();
    for (key, value) in env {
        command.env(key, value);
    }
    command.args(&words[1..]).output().unwrap()
}

/// A checkpointed run interrupted at a known chunk by the test hook, then
/// resumed with the command it printed (interrupted once more on the way
/// for the first cases), writes exactly the uninterrupted run's file: a
/// plain run, blackjack's ten upcards in one sampling run, a comparison
/// that samples twice (stopped in the first run and in the second), the
/// SAS comparison that samples three times, the solver's small chunks,
/// and a part of a sharded run (stopped, resumed, then merged).
#[test]
fn stopped_then_resumed_is_the_uninterrupted_run() {
    let cases: [(&str, &[u64]); 6] = [
        ("prisoners-patience mc --trials 1500000 --seed 4", &[5, 9]),
        ("blackjack mc --trials 300000 --seed 2 --h17", &[2]),
        (
            "roll-call compare --with order --trials 400000 --seed 5",
            &[3, 4],
        ),
        (
            "roll-call compare --with count --trials 400000 --seed 6",
            &[9],
        ),
        (
            "idiots-delight compare --published sas --shuffle all --trials 200000",
            &[5, 2],
        ),
        ("prisoners-patience solve --trials 48 --seed 2", &[2]),
    ];
    for (args, stops) in cases {
        let dir = tempfile::tempdir().unwrap();
        let expected = whole(dir.path(), "whole.json", args);
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
            completed(&output),
            "{args}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(fs::read(&out).unwrap(), expected, "{args}");
        assert!(
            !checkpoint.exists(),
            "{args}: the checkpoint outlived its run"
        );
    }

    // A part of a sharded run, stopped and resumed, merges with the others
    // into the one run.
    let dir = tempfile::tempdir().unwrap();
    let args = "klondike mc --trials 1200000 --seed 8";
    let expected = whole(dir.path(), "whole.json", args);
    let part = |k: u64| dir.path().join(format!("part-{k}.json"));
    let checkpoint = dir.path().join("part-1.checkpoint");
    let line: Vec<String> = args
        .split_whitespace()
        .map(String::from)
        .chain(["--quiet", "--shard", "1/3", "--checkpoint"].map(String::from))
        .chain([checkpoint.display().to_string()])
        .chain(["--out".into(), part(1).display().to_string()])
        .collect();
    let resume = interrupted(&line, 1, &part(1));
    assert!(resume.contains("--shard 1/3"), "{resume}");
    assert!(run_printed(&resume, &[]).status.success());
    for k in [0, 2] {
        let output = deckodds()
            .args(args.split_whitespace())
            .args(["--quiet", "--shard", &format!("{k}/3")])
            .arg("--out")
            .arg(part(k))
            .output()
            .unwrap();
        assert!(output.status.success());
    }
    let merged = dir.path().join("merged.json");
    let output = deckodds()
        .args(["--quiet", "merge"])
        .args((0..3).map(part))
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(fs::read(merged).unwrap(), expected);
}

/// Starts deckodds with `args` in the background.
fn spawn(args: &[String]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin!("deckodds"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The chunks done so far in the checkpoint at `path` (0 if none yet).
fn chunks_saved(path: &Path) -> u64 {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|value| value["samples"][0]["chunks"][1].as_u64())
        .unwrap_or(0)
}

/// Waits until the checkpoint at `path` holds more than `chunks` chunks,
/// then sends `signal` to `child`; returns its stderr once it exits with
/// the interrupt's status.
fn signal_after_save(child: Child, path: &Path, chunks: u64, signal: &str) -> String {
    let started = Instant::now();
    while chunks_saved(path) <= chunks {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoint saved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(130), "{signal}: {stderr}");
    stderr
}

/// Real signals: a run with a checkpoint is stopped by SIGINT (Ctrl-C)
/// once it has saved, resumed with the command it printed and stopped
/// again by SIGTERM, then resumed to the end; the output is the
/// uninterrupted run's, byte for byte, and no output file appears before.
#[test]
fn interrupted_by_signals_then_resumed_is_the_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = "prisoners-patience mc --trials 12000000 --seed 11";
    let expected = whole(dir.path(), "whole.json", args);
    let out = dir.path().join("resumed.json");
    let checkpoint = dir.path().join("run.checkpoint");
    let line: Vec<String> = args
        .split_whitespace()
        .map(String::from)
        .chain(["--checkpoint".into(), checkpoint.display().to_string()])
        .chain(["--checkpoint-every".into(), "0.2".into()])
        .chain(["--out".into(), out.display().to_string()])
        .collect();
    let stderr = signal_after_save(spawn(&line), &checkpoint, 0, "INT");
    assert!(stderr.contains("interrupted: saved "), "{stderr}");
    assert!(!out.exists());
    let saved = chunks_saved(&checkpoint);
    let n_chunks = 12_000_000u64.div_ceil(CHUNK);
    assert!(saved > 0 && saved < n_chunks, "{saved}");

    let resume = resume_line(&stderr);
    assert!(
        resume.contains("--resume") && !resume.contains("--checkpoint "),
        "{resume}"
    );
    let words: Vec<String> = resume
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect();
    let stderr = signal_after_save(spawn(&words), &checkpoint, saved, "TERM");
    assert!(chunks_saved(&checkpoint) > saved, "{stderr}");
    assert!(!out.exists());

    // The last resume plays only the chunks not saved.
    let saved = chunks_saved(&checkpoint);
    let output = run_printed(&resume_line(&stderr), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let played: u64 = stderr
        .lines()
        .find_map(|line| line.strip_prefix("throughput: "))
        .and_then(|rest| rest.split(' ').next())
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("no throughput line: {stderr}"));
    assert_eq!(played, 12_000_000 - saved * CHUNK, "{stderr}");
    assert_eq!(fs::read(&out).unwrap(), expected);
    assert!(!checkpoint.exists());
}

/// Runs deckodds with `args`; expects exit status 2, one line on stderr
/// containing `expected`, and no file at `out`.
fn refused(args: &[String], expected: &str, out: &Path) {
    let output = deckodds().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!out.exists(), "{args:?}");
}

/// Rewrites the checkpoint at `path` with `edit` applied, and its
/// checksum made to match (as a careful forger would).
fn forge(path: &Path, edit: impl Fn(&mut Value)) {
    let mut value: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut value);
    let object = value.as_object_mut().unwrap();
    object.remove("checksum");
    let sum = fnv1a64(serde_json::to_string(&value).unwrap().as_bytes());
    value["checksum"] = Value::String(sum);
    fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

/// A checkpoint that is damaged, edited, saved by another run, another
/// part or another program, or not a checkpoint at all, is refused with
/// one line naming the file, exit status 2 and no output, and is left as
/// it was; so is a --checkpoint that would overwrite a file, and one on a
/// command that samples nothing.
#[test]
fn damaged_or_foreign_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let good = dir.path().join("good.checkpoint");
    let args = "klondike mc --trials 600000 --seed 3";
    let line = |checkpoint_option: &str, path: &Path, args: &str| -> Vec<String> {
        args.split_whitespace()
            .map(String::from)
            .chain(["--quiet", checkpoint_option, &path.display().to_string()].map(String::from))
            .chain(["--out".into(), out.display().to_string()])
            .collect()
    };
    interrupted(&line("--checkpoint", &good, args), 3, &out);
    let original = fs::read(&good).unwrap();

    let variant = |name: &str, change: &dyn Fn(&Path)| -> PathBuf {
        let path = dir.path().join(name);
        fs::write(&path, &original).unwrap();
        change(&path);
        path
    };
    let edited_tally = variant("tally.checkpoint", &|path| {
        let mut value: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        let count = value["samples"][0]["tally"][10].as_u64().unwrap();
        value["samples"][0]["tally"][10] = Value::from(count + 1);
        fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    });
    let truncated = variant("truncated.checkpoint", &|path| {
        fs::write(path, &original[..original.len() / 2]).unwrap();
    });
    let other_program = variant("program.checkpoint", &|path| {
        forge(path, |value| value["program"] = "deckodds 0.0.1".into());
    });
    let other_chunking = variant("chunking.checkpoint", &|path| {
        forge(path, |value| {
            value["samples"][0]["chunk_size"] = Value::from(1000);
        });
    });
    // Typed reading (the data contract, deckodds.checkpoint/v1):
    // an unknown field or a value of the wrong type is refused naming the
    // field, even with the checksum made to match.
    let unknown_field = variant("unknown.checkpoint", &|path| {
        forge(path, |value| {
            value["samples"][0]["weight"] = Value::from(1);
        });
    });
    let wrong_type = variant("type.checkpoint", &|path| {
        forge(path, |value| value["samples"][0]["seed"] = "3".into());
    });
    let without_schema = variant("older.checkpoint", &|path| {
        forge(path, |value| {
            value.as_object_mut().unwrap().remove("schema");
        });
    });
    let not_a_checkpoint = variant("report.checkpoint", &|path| {
        fs::write(
            path,
            whole(dir.path(), "report.json", "klondike mc --trials 10"),
        )
        .unwrap();
    });
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            line("--resume", &edited_tally, args),
            "damaged checkpoint (its checksum does not match its contents)",
        ),
        (line("--resume", &truncated, args), "damaged checkpoint ("),
        (
            line("--resume", &other_program, args),
            "saved by deckodds 0.0.1",
        ),
        (
            line("--resume", &other_chunking, args),
            "does not hold the sampling runs this command makes",
        ),
        (
            line("--resume", &unknown_field, args),
            "unknown.checkpoint: damaged checkpoint (deckodds.checkpoint/v1 field samples[0].weight: unknown field `weight`",
        ),
        (
            line("--resume", &wrong_type, args),
            "type.checkpoint: damaged checkpoint (deckodds.checkpoint/v1 field samples[0].seed: invalid type: string \"3\", expected u64",
        ),
        (
            line("--resume", &without_schema, args),
            "older.checkpoint: a checkpoint of an older layout, without its \"schema\"",
        ),
        (
            line("--resume", &not_a_checkpoint, args),
            "not a checkpoint",
        ),
        (
            line("--resume", &good, "klondike mc --trials 600000 --seed 4"),
            "a checkpoint of another run: `deckodds klondike mc --trials 600000 --seed 3`",
        ),
        (
            line("--resume", &good, "klondike mc --trials 700000 --seed 3"),
            "a checkpoint of another run",
        ),
        (
            line("--resume", &good, "roll-call mc --trials 600000 --seed 3"),
            "a checkpoint of another run",
        ),
        (
            [
                line("--resume", &good, args),
                vec!["--shard".to_string(), "0/2".into()],
            ]
            .concat(),
            "a checkpoint of a whole run, and this run is part 0/2",
        ),
        (
            line("--resume", &dir.path().join("absent"), args),
            "no such checkpoint",
        ),
        (
            line("--checkpoint", &good, args),
            "the file exists, and a checkpoint is a new file",
        ),
        (
            line(
                "--checkpoint",
                &dir.path().join("new.checkpoint"),
                "roll-call exact --copies 2 --ranks 3",
            ),
            "unexpected argument '--checkpoint' found",
        ),
        (
            line(
                "--checkpoint",
                &dir.path().join("new.checkpoint"),
                "klondike record",
            ),
            "unexpected argument '--checkpoint' found",
        ),
    ];
    for (args, expected) in &cases {
        refused(args, expected, &out);
    }
    assert_eq!(fs::read(&good).unwrap(), original, "a refusal changed it");
    assert!(!dir.path().join("new.checkpoint").exists());
    // The good checkpoint still resumes.
    let output = deckodds()
        .args(line("--resume", &good, args))
        .output()
        .unwrap();
    assert!(output.status.success());
    let expected = whole(dir.path(), "whole.json", args);
    assert_eq!(fs::read(&out).unwrap(), expected);

    // The counts come from the checkpoint, not from playing the run
    // again: one game more forged into a bin (checksum and all) is one
    // more in the resumed report.
    let forged = variant("forged.checkpoint", &|path| {
        forge(path, |value| {
            let count = value["samples"][0]["tally"][10].as_u64().unwrap();
            value["samples"][0]["tally"][10] = Value::from(count + 1);
        });
    });
    fs::remove_file(&out).unwrap();
    let output = deckodds()
        .args(line("--resume", &forged, args))
        .output()
        .unwrap();
    assert!(output.status.success());
    let count = |bytes: &[u8]| -> u64 {
        let value: Value = serde_json::from_slice(bytes).unwrap();
        value["distributions"][0]["outcomes"][10]["count"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(count(&fs::read(&out).unwrap()), count(&expected) + 1);
}

/// The JSON report of `args` run with `--out`, parsed.
fn report(dir: &Path, args: &str) -> Value {
    serde_json::from_slice(&whole(dir, "report.json", args)).unwrap()
}

/// The widest 95% half-width of the outcomes of `report` that `watched`
/// accepts (by distribution key and label), from the report's own
/// intervals.
fn widest(report: &Value, watched: impl Fn(&str, &str) -> bool) -> f64 {
    let mut widest: f64 = 0.0;
    for distribution in report["distributions"].as_array().unwrap() {
        let key = distribution["key"].as_str().unwrap();
        for outcome in distribution["outcomes"].as_array().unwrap() {
            if watched(key, outcome["outcome"].as_str().unwrap()) {
                let low = outcome["ci95"][0].as_f64().unwrap();
                let high = outcome["ci95"][1].as_f64().unwrap();
                widest = widest.max((high - low) / 2.0);
            }
        }
    }
    widest
}

/// Whether an outcome (distribution key, label) is watched.
type Watched = fn(&str, &str) -> bool;

/// `--until-halfwidth` stops at the first chunk whose counts meet the
/// target: the report's intervals are within the bound, one chunk fewer
/// (a plain `--trials` run) is not, and the report is that of `--trials`
/// for the trials it names, on any number of threads. With `--for` only
/// the named outcome counts; at `--max-trials` the report says the target
/// was not met.
#[test]
fn until_halfwidth_stops_at_the_first_chunk_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, f64, &str, Watched); 4] = [
        ("klondike mc --seed 5", 0.0015, "", |_, _| true),
        (
            "prisoners-patience mc --seed 6",
            0.00002,
            "--for 1",
            |_, label| label == "1",
        ),
        (
            "blackjack mc --seed 7",
            0.0012,
            "--for upcard=A/bust",
            |key, label| key == "upcard=A" && label == "bust",
        ),
        ("roll-call mc --seed 8 --ranks 5", 0.0015, "", |_, _| true),
    ];
    for (args, bound, outcome, watched) in cases {
        let until = format!("{args} --until-halfwidth {bound} {outcome}");
        let stopped_text = whole(dir.path(), "stopped.json", &until);
        let stopped: Value = serde_json::from_slice(&stopped_text).unwrap();
        let trials = stopped["trials"].as_u64().unwrap();
        assert_eq!(trials % CHUNK, 0, "{until}");
        assert!(trials > CHUNK, "{until}: stopped at once");
        let run = &stopped["precision"]["runs"][0];
        assert_eq!(run["met"], true, "{until}");
        assert_eq!(run["trials"], trials, "{until}");
        let reached = widest(&stopped, watched);
        assert!(reached < bound, "{until}: {reached}");
        // The same interval, computed by the runner and by the report.
        let half_width = run["half_width"].as_f64().unwrap();
        assert!((half_width - reached).abs() < 1e-15, "{until}");

        // Byte for byte: the plain run's JSON, then the precision block
        // (the JSON is built once: no number is parsed and printed again).
        let plain_text = whole(
            dir.path(),
            "plain.json",
            &format!("{args} --trials {trials}"),
        );
        let mut plain: Value = serde_json::from_slice(&plain_text).unwrap();
        assert_eq!(plain["distributions"], stopped["distributions"], "{until}");
        let open = plain_text.len() - "\n}\n".len();
        assert_eq!(stopped_text[..open], plain_text[..open], "{until}");
        assert!(
            stopped_text[open..].starts_with(b",\n  \"precision\": {"),
            "{until}"
        );
        plain = report(dir.path(), &format!("{args} --trials {}", trials - CHUNK));
        assert!(widest(&plain, watched) >= bound, "{until}: stopped late");

        let one_thread = report(dir.path(), &format!("{until} --threads 1"));
        assert_eq!(one_thread, stopped, "{until}");
    }

    let capped = report(
        dir.path(),
        "prisoners-patience mc --until-halfwidth 0.0001% --for 1 --max-trials 200000",
    );
    assert_eq!(capped["trials"], 200_000);
    assert_eq!(capped["precision"]["runs"][0]["met"], false);
}

/// A precision target survives an interrupt: stopped and resumed, the run
/// stops at the same chunk as one never interrupted.
#[test]
fn a_resumed_precision_target_stops_where_the_uninterrupted_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let args = "klondike mc --seed 9 --until-halfwidth 0.0008";
    let expected = whole(dir.path(), "whole.json", args);
    let out = dir.path().join("resumed.json");
    let checkpoint = dir.path().join("run.checkpoint");
    let line: Vec<String> = args
        .split_whitespace()
        .map(String::from)
        .chain(["--quiet", "--checkpoint", &checkpoint.display().to_string()].map(String::from))
        .chain(["--out".into(), out.display().to_string()])
        .collect();
    let resume = interrupted(&line, 3, &out);
    assert!(run_printed(&resume, &[]).status.success());
    assert_eq!(fs::read(&out).unwrap(), expected);
}

/// Bad precision targets: one line naming the value and what is allowed,
/// exit status 2, no output file.
#[test]
fn bad_precision_targets_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let cases: [(&str, &str); 8] = [
        (
            "klondike mc --until-halfwidth 0",
            "--until-halfwidth 0: must be",
        ),
        (
            "klondike mc --until-halfwidth 60%",
            "--until-halfwidth 60%: must be",
        ),
        (
            "klondike mc --until-halfwidth x",
            "--until-halfwidth x: must be",
        ),
        (
            "klondike mc --until-halfwidth 0.01 --for won",
            "--for won: names no outcome of this run; its outcomes are 0, 1, 2",
        ),
        (
            "klondike mc --for 52",
            "--for 52: goes with --until-halfwidth",
        ),
        (
            "klondike mc --max-trials 1e6",
            "--max-trials 1000000: goes with",
        ),
        (
            "roll-call compare --with order --until-halfwidth 0.01",
            "unexpected argument '--until-halfwidth' found",
        ),
        (
            "klondike mc --until-halfwidth 0.01 --shard 0/2",
            "--shard 0/2: cannot cut a run that stops at a precision target",
        ),
    ];
    for (args, expected) in cases {
        let line: Vec<String> = args
            .split_whitespace()
            .map(String::from)
            .chain(["--out".into(), out.display().to_string()])
            .collect();
        refused(&line, expected, &out);
    }
}

/// Each command's `--help` lists only the long-run options it takes: none
/// for a command that neither samples nor enumerates exhaustively, only
/// `--shard` for an exact command, parts and checkpoints for a sampling
/// one, and a precision target only for a Monte-Carlo run of one version.
#[test]
fn help_lists_only_the_options_a_command_takes() {
    let parts = ["--shard"];
    let saving = ["--checkpoint", "--resume", "--checkpoint-every", "--mpi"];
    let precision = ["--until-halfwidth", "--for", "--max-trials"];
    let cases: [(&str, &[&[&str]]); 8] = [
        ("blackjack exact", &[]),
        ("blackjack eor", &[]),
        ("klondike record", &[]),
        ("roll-call first-pass", &[]),
        ("idiots-delight exact", &[&parts]),
        ("roll-call compare", &[&parts, &saving]),
        ("klondike mc", &[&parts, &saving, &precision]),
        ("prisoners-patience solve", &[&parts, &saving, &precision]),
    ];
    for (command, groups) in cases {
        let help = String::from_utf8(
            deckodds()
                .args(command.split_whitespace())
                .arg("--help")
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        let listed = |option: &str| {
            help.lines().any(|line| {
                let line = line.trim_start();
                line == option || line.starts_with(&format!("{option} "))
            })
        };
        for option in parts.iter().chain(&saving).chain(&precision) {
            let takes = groups.iter().any(|group| group.contains(option));
            assert_eq!(listed(option), takes, "{command} --help and {option}");
        }
        assert_eq!(help.contains("Long runs:"), !groups.is_empty(), "{command}");
    }
}
