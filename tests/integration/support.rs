//! Helpers shared by the test modules.

use assert_cmd::Command;
use serde_json::Value;

/// The deckodds binary, ready for arguments.
pub fn deckodds() -> Command {
    Command::cargo_bin("deckodds").unwrap()
}

/// Runs deckodds with `args`, expecting success; returns stdout.
pub fn run_ok(args: &[&str]) -> String {
    let output = deckodds().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs deckodds with the words of `line` as arguments, expecting success.
pub fn run_line(line: &str) -> String {
    run_ok(&line.split_whitespace().collect::<Vec<_>>())
}

/// Runs `work` on a rayon pool of `threads` threads.
pub fn with_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
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
