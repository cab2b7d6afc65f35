//! Every vector-instruction path gives the same results (issue 47): each
//! level this CPU has, set by `DECKODDS_SIMD`, runs the engines with SIMD
//! kernels on the same seed and writes the same bytes. Levels the CPU
//! lacks are reported skipped, never passed silently.

use deckodds::simd::{SIMD_VARIABLE, SimdLevel};

use crate::support::deckodds;

/// The command lines whose engines have SIMD kernels: Roll-Call's pass,
/// and the dealer's f64 rows behind index plays and the player's solve.
const LINES: [&str; 3] = [
    "roll-call mc --trials 30000 --seed 3",
    "blackjack indices --decks 2 --pilot-shoes 40 --max-shoes 80 --seed 3",
    "blackjack player --decks 2",
];

fn output_at(level: SimdLevel, line: &str) -> Vec<u8> {
    let output = deckodds()
        .env(SIMD_VARIABLE, level.name())
        .args(line.split_whitespace())
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{line} at {}: {output:?}",
        level.name()
    );
    output.stdout
}

#[test]
fn every_path_this_cpu_has_writes_the_same_bytes() {
    let detected = SimdLevel::detected();
    for level in SimdLevel::ALL.into_iter().filter(|&level| level > detected) {
        eprintln!("skipped: this CPU has no {} path", level.name());
    }
    for line in LINES {
        let portable = output_at(SimdLevel::Portable, line);
        for level in SimdLevel::ALL
            .into_iter()
            .filter(|&level| level > SimdLevel::Portable && level <= detected)
        {
            assert!(
                output_at(level, line) == portable,
                "{line}: the {} path differs from the portable one",
                level.name()
            );
        }
    }
}

#[test]
fn an_unknown_level_is_refused_in_one_line() {
    let output = deckodds()
        .env(SIMD_VARIABLE, "sse9")
        .args(["roll-call", "mc", "--trials", "10"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("DECKODDS_SIMD") && stderr.contains("portable, avx2 or avx512"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
