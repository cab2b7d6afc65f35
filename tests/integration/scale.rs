//! Runs beyond one sitting (issue 8): every Monte-Carlo run reports its
//! throughput; runs cut into parts (`--shard k/n`) merge into exactly the
//! one run, and parts that do not belong together are refused.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{completed, deckodds, has_tool, run_into};

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
        &format!("--threads {threads} --shard {k}/{n} {args}"),
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
        &format!(
            "{}{}{}",
            &tampered_text[..number_at],
            first_chunk - 1,
            &tampered_text[number_end..]
        ),
    );
    let version = write(
        "version.json",
        &part_one.replace("\"program\": \"deckodds ", "\"program\": \"deckodds 0.0.0-"),
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
        &format!("{}\"x{}", &exact_one[..opening], &exact_one[opening + 1..]),
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
        .args(["--shard", "0/2", "klondike", "record", "--out"])
        .arg(&record)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("has no parts"));
    assert!(!record.exists());
}

/// The GNU parallel recipe of README (`analysis/cluster/parallel-shards.sh`)
/// run for real: four parts, two at a time, merged, equal the one run.
/// Needs GNU parallel: CI installs it and sets `DECKODDS_PARALLEL=required`,
/// and then its absence is a failure; elsewhere the test says it skipped.
#[test]
fn the_gnu_parallel_recipe_merges_into_the_one_run() {
    if !has_tool("parallel", "DECKODDS_PARALLEL", "the package parallel") {
        return;
    }
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

/// `--mpi` (cargo feature `mpi`): the ranks of an MPI job each run their
/// part, rank 0 sums the counts and writes exactly the one run's output:
/// three ranks of a Klondike run, two of a comparison that samples twice.
#[cfg(feature = "mpi")]
#[test]
fn mpi_ranks_sum_into_the_one_run() {
    if !has_tool("mpirun", "DECKODDS_MPI", "openmpi-bin") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("klondike mc --trials 300000 --seed 7", 3),
        ("roll-call compare --with order --trials 200000 --seed 5", 2),
    ];
    for (args, ranks) in cases {
        let one_run = run_into(&dir.path().join("one.json"), args);
        let out = dir.path().join("ranks.json");
        let output = std::process::Command::new("mpirun")
            .args(["--oversubscribe", "-n", &ranks.to_string()])
            .arg(assert_cmd::cargo::cargo_bin!("deckodds"))
            .args(["--mpi", "--quiet", "--threads", "1"])
            .args(args.split_whitespace())
            .arg("--out")
            .arg(&out)
            // mpirun refuses root unless told twice (CI runs as root).
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(fs::read(&out).unwrap() == one_run, "{args}");
    }
}

/// Without the `mpi` feature, `--mpi` says how to get it: one line, exit
/// status 2, no output file.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let output = deckodds()
        .args(["--mpi", "klondike", "mc", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--features mpi"), "{stderr}");
    assert!(!out.exists());
}
