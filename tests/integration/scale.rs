//! Planning runs beyond one sitting (issue 8): every Monte-Carlo run
//! reports its throughput on stderr at the end.

use crate::support::deckodds;

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
        assert!(output.status.success(), "{args:?}");
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
