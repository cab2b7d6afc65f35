//! Helpers shared by the test modules.

use assert_cmd::Command;
use serde_json::Value;

/// The deckodds binary, ready for arguments.
pub fn deckodds() -> Command {
    Command::cargo_bin("deckodds").unwrap()
}

/// Whether a run did its work: it succeeded, or it is a comparison that
/// found disagreement, which exits with status 1 once its whole output is
/// written (as `diff` does), and prints no error.
pub fn completed(output: &std::process::Output) -> bool {
    output.status.success()
        || (output.status.code() == Some(1)
            && !String::from_utf8_lossy(&output.stderr).contains("error:"))
}

/// Runs deckodds with `args`, expecting it to complete (see
/// [`completed`]: a comparison's verdict is the caller's to check);
/// returns stdout.
pub fn run_ok(args: &[&str]) -> String {
    let output = deckodds().args(args).output().unwrap();
    assert!(
        completed(&output),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs deckodds with the words of `line` as arguments, expecting success.
pub fn run_line(line: &str) -> String {
    run_ok(&line.split_whitespace().collect::<Vec<_>>())
}

/// The outcome labels of one distribution of a JSON report, in order.
pub fn outcome_labels(distribution: &Value) -> Vec<&str> {
    distribution["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect()
}

/// Every distinct arrangement of a deck of ranks 1..=R where rank `r` has
/// `copies[r - 1]` copies, by plain recursion (independent of the library's
/// enumerators).
pub fn rank_arrangements(copies: &[u8]) -> Vec<Vec<u8>> {
    fn extend(remaining: &mut [u8], prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if remaining.iter().all(|&c| c == 0) {
            out.push(prefix.clone());
            return;
        }
        for rank in 0..remaining.len() {
            if remaining[rank] > 0 {
                remaining[rank] -= 1;
                prefix.push(rank as u8 + 1);
                extend(remaining, prefix, out);
                prefix.pop();
                remaining[rank] += 1;
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut copies.to_vec(), &mut Vec::new(), &mut out);
    out
}

/// Each command line fails with exit status 2, one line on stderr that
/// contains its expected text, and nothing on stdout.
pub fn assert_bad_input(cases: &[(&str, &str)]) {
    for (line, expected) in cases {
        let output = deckodds().args(line.split_whitespace()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{line}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{line}: {stderr}");
        assert!(stderr.contains(expected), "{line}: {stderr}");
        assert!(output.stdout.is_empty(), "{line}");
    }
}

/// The entry of `outcome` in the distribution `key` of a JSON report.
pub fn outcome_entry<'a>(report: &'a Value, key: &str, outcome: &str) -> &'a Value {
    report["distributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["key"] == key)
        .unwrap_or_else(|| panic!("no distribution {key}"))["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == outcome)
        .unwrap_or_else(|| panic!("no outcome {outcome} in {key}"))
}

/// The exact probability (as its fraction text) of `outcome` in the
/// distribution `key` of a JSON report.
pub fn probability(report: &Value, key: &str, outcome: &str) -> String {
    outcome_entry(report, key, outcome)["probability"]
        .as_str()
        .unwrap()
        .to_string()
}

/// FNV-1a 64 as deckodds computes it (provenance records, checkpoints),
/// written independently so that a test can forge a file.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}

/// Runs deckodds quietly with the words of `line` and `--out path`,
/// expecting it to complete (see [`completed`]); returns the file's bytes.
pub fn run_into(path: &std::path::Path, line: &str) -> Vec<u8> {
    let output = deckodds()
        .arg("--quiet")
        .args(line.split_whitespace())
        .arg("--out")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        completed(&output),
        "{line}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read(path).unwrap()
}

/// Fails the test, naming what to install, unless `program` runs
/// (`program --version`). A test that needs an outside tool is marked
/// `ignored` (with the reason) when build.rs did not find the tool, so this
/// is reached only when the tool was there at build time, or CI made it
/// required (`DECKODDS_LATEX=required` and the like): either way its absence
/// now is a failure, not a silent pass.
pub fn require_tool(program: &str, install: &str) {
    let found = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(found, "{program} is not on PATH: install {install}");
}
