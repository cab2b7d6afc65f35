//! Runs beyond one sitting (issue 8): every Monte-Carlo run reports its
//! throughput; runs cut into parts (`--shard k/n`) merge into exactly the
//! one run, and parts that do not belong together, or whose counts are
//! damaged, are refused.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{completed, deckodds, fnv1a64, require_tool, run_into};

/// Each command that samples ends with one throughput line per run on
/// stderr, naming its trials and unit, in all and per core; `--quiet`
/// leaves it out, and stdout (the table) is the same either way.
#[test]
fn every_monte_carlo_run_reports_its_throughput() {
    let cases: [(&str, &[&str]); 7] = [
        ("1,000 games in ", &["klondike", "mc", "--trials", "1000"]),
        (
            "2,000 games in ",
            &["idiots-delight", "mc", "--trials", "2000"],
        ),
        ("3,000 games in ", &["roll-call", "mc", "--trials", "3000"]),
        (
            "4,000 games in ",
            &["prisoners-patience", "mc", "--trials", "4000"],
        ),
        // Blackjack counts hands: 500 per upcard, ten upcards.
        ("5,000 hands in ", &["blackjack", "mc", "--trials", "500"]),
        (
            "3 deals in ",
            &["prisoners-patience", "solve", "--trials", "3"],
        ),
        // A comparison of two versions samples twice.
        (
            "1,000 games in ",
            &[
                "roll-call",
                "compare",
                "--with",
                "order",
                "--trials",
                "1000",
            ],
        ),
    ];
    for (expected, args) in cases {
        let output = deckodds().args(args).output().unwrap();
        assert!(completed(&output), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.starts_with("throughput: "))
            .collect();
        let runs = if args.contains(&"compare") { 2 } else { 1 };
        assert_eq!(lines.len(), runs, "{args:?}: {stderr}");
        for line in lines {
            assert!(
                line.starts_with(&format!("throughput: {expected}"))
                    && line.contains("/s per core (")
                    && line.contains(" on "),
                "{args:?}: {line}"
            );
        }
        let quiet = deckodds().arg("--quiet").args(args).output().unwrap();
        let quiet_stderr = String::from_utf8(quiet.stderr).unwrap();
        assert!(
            !quiet_stderr.contains("throughput"),
            "{args:?}: {quiet_stderr}"
        );
        assert_eq!(quiet.stdout, output.stdout, "{args:?}");
    }
}

/// Runs `args` (a command line) as part `k` of `n` into `dir/part-k.json`,
/// with `threads` threads.
fn run_part(dir: &Path, args: &str, k: u64, n: u64, threads: usize) -> PathBuf {
    let path = dir.join(format!("part-{k}.json"));
    run_into(
        &path,
        &format!("{args} --threads {threads} --shard {k}/{n}"),
    );
    path
}

/// Sharded then merged is byte for byte the one run, in JSON and Markdown:
/// every game's Monte Carlo, every exhaustive enumeration (exact
/// fractions from summed counts of arrangements), a comparison that
/// samples twice, blackjack's
/// ten upcards in one run, the solver's small chunks, parts run with
/// different thread counts, merged in any order, and more parts than
/// chunks (empty parts).
#[test]
fn sharded_then_merged_is_the_one_run() {
    let cases: [(&str, u64); 9] = [
        ("klondike mc --trials 300000 --seed 7 --draw 3", 4),
        ("roll-call exact --ranks 4 --copies 2", 3),
        (
            "idiots-delight exact --suits 2 --ranks 4 --engine exhaustive",
            2,
        ),
        (
            "prisoners-patience exact --engine exhaustive --suits 2 --ranks 4",
            4,
        ),
        ("blackjack mc --trials 70000 --seed 3 --h17", 3),
        ("roll-call compare --with order --trials 200000 --seed 5", 3),
        (
            "idiots-delight compare --published sas --shuffle all --trials 150000",
            2,
        ),
        ("prisoners-patience solve --trials 24 --seed 2", 3),
        ("prisoners-patience mc --trials 1000 --seed 9", 5),
    ];
    for (args, n) in cases {
        let dir = tempfile::tempdir().unwrap();
        let whole =
            |extension: &str| run_into(&dir.path().join(format!("whole.{extension}")), args);
        let mut parts: Vec<PathBuf> = (0..n)
            .map(|k| run_part(dir.path(), args, k, n, 1 + (k as usize % 2)))
            .collect();
        parts.reverse();
        for extension in ["json", "md"] {
            let merged = dir.path().join(format!("merged.{extension}"));
            let output = deckodds()
                .arg("--quiet")
                .arg("merge")
                .args(&parts)
                .arg("--out")
                .arg(&merged)
                .output()
                .unwrap();
            // A merged comparison's verdict is the one run's, exit status
            // included.
            assert!(
                completed(&output),
                "{args}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(
                fs::read(&merged).unwrap() == whole(extension),
                "{args}: merged .{extension} differs from the one run"
            );
        }
    }
}

/// `text` (a count file) with its `"shard"` block's checksum made to match
/// its contents again, as a forger or a bug would leave it: so that a test
/// reaches the checks behind the checksum. The checksum is FNV-1a of the
/// block's compact JSON without it.
fn resealed(text: &str) -> String {
    let mut value: Value = serde_json::from_str(text).unwrap();
    let block = value["shard"].as_object_mut().unwrap();
    assert!(block.remove("checksum").is_some(), "no checksum to reseal");
    let sum = fnv1a64(
        serde_json::to_string(&Value::Object(block.clone()))
            .unwrap()
            .as_bytes(),
    );
    block.insert("checksum".into(), Value::from(sum));
    serde_json::to_string_pretty(&value).unwrap()
}

/// Count files that do not make one run are refused in one line naming
/// the file, exit status 2, and nothing is written.
#[test]
fn merge_refuses_parts_that_do_not_belong_together() {
    let dir = tempfile::tempdir().unwrap();
    let args = "klondike mc --trials 200000 --seed 4";
    let parts: Vec<PathBuf> = (0..3)
        .map(|k| run_part(dir.path(), args, k, 3, 2))
        .collect();
    let other_dir = tempfile::tempdir().unwrap();
    let other_seed = run_part(
        other_dir.path(),
        "klondike mc --trials 200000 --seed 5",
        1,
        3,
        2,
    );
    let other_cut = run_part(other_dir.path(), args, 1, 4, 2);
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path
    };
    let part_one = fs::read_to_string(&parts[1]).unwrap();
    let truncated = write("truncated.json", &part_one[..part_one.len() / 2]);
    let plain = dir.path().join("plain.json");
    assert!(
        deckodds()
            .args(["--quiet", "klondike", "mc", "--trials", "1000", "--out"])
            .arg(&plain)
            .output()
            .unwrap()
            .status
            .success()
    );
    // Move part 1's first chunk back by one: no longer its own range.
    let tampered_text = &part_one;
    let start = tampered_text.find("\"chunks\": [").unwrap();
    let number_at = start
        + tampered_text[start..]
            .find(|c: char| c.is_ascii_digit())
            .unwrap();
    let number_end = number_at + tampered_text[number_at..].find(',').unwrap();
    let first_chunk: u64 = tampered_text[number_at..number_end].parse().unwrap();
    let tampered = write(
        "tampered.json",
        &resealed(&format!(
            "{}{}{}",
            &tampered_text[..number_at],
            first_chunk - 1,
            &tampered_text[number_end..]
        )),
    );
    let version = write(
        "version.json",
        &resealed(&part_one.replace("\"program\": \"deckodds ", "\"program\": \"deckodds 0.0.0-")),
    );

    // Parts of an exhaustive enumeration: one missing, one damaged.
    let exhaustive = "roll-call exact --ranks 3 --copies 2";
    let exact_dir = tempfile::tempdir().unwrap();
    let exact_parts: Vec<PathBuf> = (0..2)
        .map(|k| run_part(exact_dir.path(), exhaustive, k, 2, 1))
        .collect();
    let exact_one = fs::read_to_string(&exact_parts[1]).unwrap();
    let start = exact_one.find("\"enumerations\"").unwrap();
    let quote = start + exact_one[start..].find("\"counts\": [").unwrap() + 11;
    let opening = quote + exact_one[quote..].find('"').unwrap();
    let damaged_exact = write(
        "damaged-exact.json",
        &resealed(&format!(
            "{}\"x{}",
            &exact_one[..opening],
            &exact_one[opening + 1..]
        )),
    );
    // One count of arrangements more than the part's total.
    let mut exact_value: Value = serde_json::from_str(&exact_one).unwrap();
    let count = &mut exact_value["shard"]["enumerations"][0]["counts"][0];
    let more = count.as_str().unwrap().parse::<u128>().unwrap() + 1;
    *count = Value::from(more.to_string());
    let unbalanced_exact = write(
        "unbalanced-exact.json",
        &resealed(&serde_json::to_string(&exact_value).unwrap()),
    );

    let cases: Vec<(Vec<&Path>, &str)> = vec![
        (vec![&exact_parts[1]], "part 0/2 is missing"),
        (
            vec![&exact_parts[0], &damaged_exact],
            "corrupt count file: the enumerations",
        ),
        (
            vec![&parts[0], &exact_parts[1], &parts[2]],
            "does not belong with",
        ),
        (
            vec![&parts[0], &parts[2]],
            "part 1/3 is missing: a run cut into 3 needs every part",
        ),
        (
            vec![&parts[0], &parts[1], &parts[1], &parts[2]],
            "part 1/3 twice",
        ),
        (
            vec![&parts[0], &other_seed, &parts[2]],
            "does not belong with",
        ),
        (
            vec![&parts[0], &other_cut, &parts[2]],
            "part 1/4 of a run cut into 3",
        ),
        (
            vec![&parts[0], &truncated, &parts[2]],
            "not a count file: not JSON",
        ),
        (
            vec![&parts[0], &plain, &parts[2]],
            "not a count file: no \"shard\" block",
        ),
        (
            vec![&parts[0], &tampered, &parts[2]],
            "corrupt count file: chunks",
        ),
        (
            vec![&parts[0], &version, &parts[2]],
            "merge with the program that made it",
        ),
        (
            vec![&exact_parts[0], &unbalanced_exact],
            "unbalanced-exact.json: corrupt count file: enumeration 1's counts (summing to",
        ),
    ];
    let merged = dir.path().join("merged.json");
    for (files, expected) in cases {
        let output = deckodds()
            .arg("merge")
            .args(&files)
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{expected}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert!(!merged.exists(), "{expected}: wrote {}", merged.display());
    }
    // A command with no parts refuses --shard, writing nothing.
    let record = dir.path().join("record.txt");
    let output = deckodds()
        .args(["klondike", "record", "--shard", "0/2", "--out"])
        .arg(&record)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("unexpected argument '--shard' found")
    );
    assert!(!record.exists());
}

/// A count file carries a checksum of its counts, and a part whose counts
/// do not add up is refused by name even with a checksum to match: every
/// distribution the command reads must count each trial of the part's
/// chunks once (here Roll-Call's eight distributions side by side, with one
/// game moved from one to another), and sums must not overflow. One line,
/// exit status 2, nothing written; the honest parts still merge.
#[test]
fn merge_refuses_count_files_whose_counts_do_not_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let args = "roll-call mc --trials 300000 --seed 4";
    let parts: Vec<PathBuf> = (0..3)
        .map(|k| run_part(dir.path(), args, k, 3, 2))
        .collect();
    let part_one: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    assert!(
        part_one["shard"]["checksum"]
            .as_str()
            .unwrap()
            .starts_with("fnv1a64:")
    );
    let with_tally = |change: &dyn Fn(&mut Vec<u64>)| {
        let mut value = part_one.clone();
        let tally = &mut value["shard"]["samples"][0]["tally"];
        let mut counts: Vec<u64> = tally
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        change(&mut counts);
        *tally = Value::from(counts);
        serde_json::to_string_pretty(&value).unwrap()
    };
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path
    };
    // The first bin with games in it: K=1's.
    let busy = part_one["shard"]["samples"][0]["tally"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c.as_u64().unwrap() > 0)
        .unwrap();
    let one_more = with_tally(&|counts| counts[busy] += 1);
    let edited = write("edited.json", &one_more);
    let forged = write("forged.json", &resealed(&one_more));
    let moved = write(
        "moved.json",
        &resealed(&with_tally(&|counts| {
            counts[busy] -= 1;
            *counts.last_mut().unwrap() += 1;
        })),
    );
    // The most games of any bin, which part 0 has games in too: their sum
    // overflows 64 bits.
    let huge = write(
        "huge.json",
        &resealed(&with_tally(&|counts| {
            let busiest = (0..counts.len()).max_by_key(|&i| counts[i]).unwrap();
            counts[busiest] = u64::MAX;
        })),
    );
    let unsealed = write(
        "unsealed.json",
        &serde_json::to_string_pretty(&unsealed_value(&part_one)).unwrap(),
    );
    let mut older = unsealed_value(&part_one);
    older["shard"]["format"] = Value::from("deckodds shard count file 1");
    let older = write("older.json", &serde_json::to_string_pretty(&older).unwrap());

    let merged = dir.path().join("merged.json");
    let merge = |files: &[&Path]| {
        deckodds()
            .arg("merge")
            .args(files)
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap()
    };
    let cases: [(&Path, &str); 6] = [
        (
            &edited,
            "edited.json: corrupt count file: its checksum does not match its contents",
        ),
        (
            &forged,
            "forged.json: corrupt count file: its tallies do not add up to its trials: distribution K=1 counts 131073 in chunks 1..3, which hold 131072 trials",
        ),
        (
            &moved,
            "moved.json: corrupt count file: its tallies do not add up to its trials: distribution K=1 counts 131071",
        ),
        (&huge, "huge.json: the summed counts overflow 64 bits"),
        (&unsealed, "unsealed.json: corrupt count file: no checksum"),
        (
            &older,
            "older.json: a count file of an older layout, without a checksum: run its part again",
        ),
    ];
    for (file, expected) in cases {
        let output = merge(&[&parts[0], file, &parts[2]]);
        assert_eq!(output.status.code(), Some(2), "{expected}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert!(!merged.exists(), "{expected}: wrote {}", merged.display());
    }
    // The honest parts merge into the one run.
    let output = merge(&[&parts[0], &parts[1], &parts[2]]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let whole = run_into(&dir.path().join("whole.json"), args);
    assert!(fs::read(&merged).unwrap() == whole);
}

/// A count file's block is read as its type (`deckodds.counts/v1`): an
/// unknown field or a value of the wrong type is refused in one line
/// naming the file and the field by its path, even with the checksum made
/// to match, exit status 2, nothing written; so is a block of the layout
/// before the schema tag.
#[test]
fn merge_refuses_a_count_file_with_an_unknown_field_or_a_wrong_type() {
    let dir = tempfile::tempdir().unwrap();
    let args = "klondike mc --trials 200000 --seed 6";
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| run_part(dir.path(), args, k, 2, 2))
        .collect();
    let part_one: Value = serde_json::from_str(&fs::read_to_string(&parts[1]).unwrap()).unwrap();
    let variant = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut value = part_one.clone();
        edit(&mut value);
        let path = dir.path().join(name);
        fs::write(
            &path,
            resealed(&serde_json::to_string_pretty(&value).unwrap()),
        )
        .unwrap();
        path
    };
    let unknown = variant("unknown.json", &|value| {
        value["shard"]["weight"] = Value::from(1);
    });
    let nested = variant("nested.json", &|value| {
        value["shard"]["samples"][0]["weight"] = Value::from(1);
    });
    let wrong_type = variant("type.json", &|value| {
        value["shard"]["samples"][0]["tally"][0] = Value::from("1");
    });
    let older = variant("older.json", &|value| {
        value["shard"].as_object_mut().unwrap().remove("schema");
    });
    let merged = dir.path().join("merged.json");
    let cases: [(&Path, &str); 4] = [
        (
            &unknown,
            "unknown.json: corrupt count file: deckodds.counts/v1 field shard.weight: unknown field `weight`",
        ),
        (
            &nested,
            "nested.json: corrupt count file: deckodds.counts/v1 field shard.samples[0].weight: unknown field `weight`",
        ),
        (
            &wrong_type,
            "type.json: corrupt count file: deckodds.counts/v1 field shard.samples[0].tally[0]: invalid type: string \"1\", expected u64",
        ),
        (
            &older,
            "older.json: a count file of an older layout, without its \"schema\": run its part again",
        ),
    ];
    for (file, expected) in cases {
        let output = deckodds()
            .arg("merge")
            .args([&parts[0], file])
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{expected}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!merged.exists(), "{expected}: wrote {}", merged.display());
    }
}

/// `part` without its checksum.
fn unsealed_value(part: &Value) -> Value {
    let mut value = part.clone();
    value["shard"].as_object_mut().unwrap().remove("checksum");
    value
}

/// The GNU parallel recipe of README (`analysis/cluster/parallel-shards.sh`)
/// run for real: four parts, two at a time, merged, equal the one run.
/// Needs GNU parallel: CI installs it and sets `DECKODDS_PARALLEL=required`,
/// and then its absence is a failure; elsewhere, without it, the test is
/// `ignored` in the summary, with the reason.
#[test]
#[cfg_attr(
    not(deckodds_has_parallel),
    ignore = "needs GNU parallel (Debian: parallel)"
)]
fn the_gnu_parallel_recipe_merges_into_the_one_run() {
    require_tool("parallel", "the package parallel");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("runs");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/cluster/parallel-shards.sh");
    let output = std::process::Command::new("bash")
        .arg(&script)
        .arg("4")
        .arg(&out)
        .args(["roll-call", "mc", "--trials", "500000", "--seed", "11"])
        .env("DECKODDS", assert_cmd::cargo::cargo_bin!("deckodds"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for k in 0..4 {
        assert!(out.join(format!("part-{k}.json")).exists());
    }
    let one_run = deckodds()
        .args([
            "--quiet",
            "roll-call",
            "mc",
            "--trials",
            "500000",
            "--seed",
            "11",
        ])
        .args(["--format", "md"])
        .output()
        .unwrap();
    assert!(one_run.status.success());
    assert!(fs::read(out.join("merged.md")).unwrap() == one_run.stdout);
}

/// The SLURM job array's script, run as SLURM would run its tasks (the
/// script needs only SLURM's variables): three parts, one stopped once
/// (as by its time limit) and submitted again, which resumes from its
/// checkpoint; the merge is the one run.
#[test]
fn the_slurm_script_resumes_a_stopped_task_and_merges_into_the_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("runs");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/cluster/slurm-shards.sbatch");
    let task = |k: u64, interrupt: bool| {
        let mut command = std::process::Command::new("bash");
        command
            .arg(&script)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("DECKODDS", assert_cmd::cargo::cargo_bin!("deckodds"))
            .env("DECKODDS_OUT", &out)
            .env("DECKODDS_TRIALS", "600000");
        if interrupt {
            command.env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1");
        }
        command.output().unwrap()
    };
    let stopped = task(1, true);
    assert_eq!(stopped.status.code(), Some(130));
    assert!(out.join("part-1.checkpoint").exists());
    assert!(!out.join("part-1.json").exists());
    for k in 0..3 {
        let output = task(k, false);
        assert!(
            output.status.success(),
            "task {k}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(!out.join("part-1.checkpoint").exists());
    let merged = deckodds()
        .args(["--quiet", "merge"])
        .args((0..3).map(|k| out.join(format!("part-{k}.json"))))
        .args(["--format", "md"])
        .output()
        .unwrap();
    assert!(merged.status.success());
    let one_run = deckodds()
        .args(["--quiet", "prisoners-patience", "mc", "--trials", "600000"])
        .args(["--seed", "1", "--format", "md"])
        .output()
        .unwrap();
    assert!(one_run.status.success());
    assert!(merged.stdout == one_run.stdout);
}

/// Without the `mpi` feature, `--mpi` says how to get it: one line, exit
/// status 2, no output file. (The MPI job itself is tested by `tests/mpi.rs`,
/// a test binary built only with the feature.)
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let output = deckodds()
        .args(["klondike", "mc", "--mpi", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--features mpi"), "{stderr}");
    assert!(!out.exists());
}
