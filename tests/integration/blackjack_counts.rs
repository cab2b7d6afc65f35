//! `deckodds blackjack counts` and `count-distribution` end to end (issue
//! 46): the JSON contract held to the engine's definitions (Hi-Lo's
//! insurance correlation is 52/sqrt(4680)), the published figures beside
//! ours, the exact count after k cards against the simulated deal at three
//! depths (chi-square, fixed seeds), counts that do not depend on threads,
//! and the refusals of bad input. Each run is about a second in release.

use serde_json::Value;

use crate::support::{assert_bad_input, run_line};

fn json_of(line: &str) -> Value {
    serde_json::from_str(&run_line(line)).unwrap()
}

#[test]
fn counts_json_has_every_system_beside_its_published_figures() {
    let document = json_of(
        "blackjack counts --count A=0,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1 --format json --quiet",
    );
    assert_eq!(document["schema"], "deckodds.blackjack-count-systems/v1");
    assert_eq!(document["params"]["decks"], "1");
    assert_eq!(document["params"]["cards_seen"], 26);
    assert_eq!(document["effects_points"].as_array().unwrap().len(), 10);
    let systems = document["systems"].as_array().unwrap();
    let names: Vec<&str> = systems
        .iter()
        .map(|s| s["system"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "hi-lo",
            "ko",
            "hi-opt-i",
            "hi-opt-ii",
            "zen",
            "omega-ii",
            "custom"
        ]
    );
    let hi_lo = &systems[0];
    let ic = hi_lo["insurance_correlation"].as_f64().unwrap();
    assert!((ic - 52.0 / 4680f64.sqrt()).abs() < 1e-12, "{ic}");
    assert!((hi_lo["betting_correlation"].as_f64().unwrap() - 0.97).abs() < 0.02);
    assert!((hi_lo["playing_efficiency"].as_f64().unwrap() - 0.51).abs() < 0.02);
    assert_eq!(hi_lo["published"]["playing_efficiency"], 0.51);
    assert!(hi_lo["balanced"].as_bool().unwrap());
    assert!(!systems[1]["balanced"].as_bool().unwrap());
    // The custom system (Hi-Lo with the ace neutral) has no published row.
    let custom = &systems[6];
    assert!(custom["published"].is_null());
    assert_eq!(custom["tags"], "A=0,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1");
    // Without the ace the insurance correlation rises (the ace is a
    // non-ten: counting it with the tens hurts insurance).
    assert!(custom["insurance_correlation"].as_f64().unwrap() > ic);
}

#[test]
fn counts_table_and_csv() {
    let markdown = run_line("blackjack counts --format md --quiet");
    insta::assert_snapshot!("blackjack_counts_md", markdown);
    let csv = run_line("blackjack counts --format csv --quiet");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "system,tags,balanced,bc,pe,ic,published_bc,published_pe,published_ic"
    );
    assert_eq!(lines.len(), 7);
    assert!(lines[1].starts_with("hi-lo,\"A=-1,2=1"), "{}", lines[1]);
}

/// The simulated deal against the exact distribution at three depths of
/// six decks: the command's own chi-square tests agree (exit 0, p above
/// the level), the simulated counts add up to the trials, and the exact
/// probabilities to 1 (as the nearest f64s, to rounding).
#[test]
fn the_true_count_after_k_cards_matches_the_hypergeometric_at_three_depths() {
    for (after, seed) in [(52, 11), (156, 12), (260, 13)] {
        let document = json_of(&format!(
            "blackjack count-distribution --count hi-lo --decks 6 --after {after} --trials 200000 --seed {seed} --format json --quiet"
        ));
        assert_eq!(
            document["schema"],
            "deckodds.blackjack-count-distribution/v1"
        );
        assert_eq!(document["params"]["cards_left"], 312 - after);
        assert_eq!(document["mean_running_count"], "0");
        for (cells, agreement) in [
            ("true_count", "true_count_agreement"),
            ("running_count", "running_count_agreement"),
        ] {
            let cells = document[cells].as_array().unwrap();
            let simulated: u64 = cells.iter().map(|c| c["simulated"].as_u64().unwrap()).sum();
            assert_eq!(simulated, 200_000);
            let total: f64 = cells.iter().map(|c| c["decimal"].as_f64().unwrap()).sum();
            assert!((total - 1.0).abs() < 1e-12);
            let p = document[agreement]["p_value"].as_f64().unwrap();
            assert!(p > 0.001, "after {after}: {agreement} p {p}");
            assert_eq!(document[agreement]["verdict"], "agree");
        }
    }
}

#[test]
fn the_deal_does_not_depend_on_threads() {
    let line = |threads: usize| {
        format!(
            "blackjack count-distribution --count omega-ii --decks 2 --after 40 --trials 100000 --seed 5 --threads {threads} --format csv --quiet"
        )
    };
    let one = run_line(&line(1));
    assert_eq!(one, run_line(&line(2)));
    assert!(one.starts_with("count,outcome,probability,decimal,simulated\n"));
}

#[test]
fn bad_counts_are_refused_in_one_line() {
    assert_bad_input(&[
        ("blackjack counts --count 1,1,1", "3 tags given"),
        ("blackjack counts --cards-seen 60", "must be 1..=48"),
        (
            "blackjack count-distribution --after x",
            "--after x: must be a whole number of cards",
        ),
        (
            "blackjack count-distribution --count hilo --after 10",
            "must be one of hi-lo",
        ),
        (
            "blackjack count-distribution --decks 6 --after 312",
            "must be 0..=311",
        ),
        (
            "blackjack count-distribution --decks 9 --after 10",
            "must be 1..=8",
        ),
        (
            "blackjack count-distribution --count A=1,2=1 --after 10",
            "no tag for 3, 4, 5, 6, 7, 8, 9, T",
        ),
    ]);
}
