//! `deckodds blackjack indices` end to end (RULES.md section 6, "Index
//! plays"; issue 46): the JSON contract held to itself and to the index
//! file, figures that do not depend on threads, hi-lo's Illustrious 18
//! against Schlesinger's list, and the refusals. Fixed seeds.

use serde_json::Value;

use deckodds::games::blackjack::table::index_plays::INDEX_FILE_COLUMNS;

use crate::support::{assert_bad_input, run_line};

/// A small run: two decks, a short pilot and few shoes (a few seconds).
const SMALL: &str = "blackjack indices --decks 2 --pilot-shoes 40 --max-shoes 80 --seed 3";

fn json_of(line: &str) -> Value {
    serde_json::from_str(&run_line(&format!("{line} --format json --quiet"))).unwrap()
}

#[test]
fn the_index_file_is_the_json_s_plays_and_each_index_is_its_crossing_rounded_up() {
    let report = json_of(SMALL);
    assert_eq!(report["schema"], "deckodds.blackjack-indices/v1");
    assert_eq!(report["params"]["count"], "hi-lo");
    let plays = report["plays"].as_array().unwrap();
    assert!(!plays.is_empty());
    for play in plays {
        let crossing = play["crossing"].as_f64().unwrap();
        let ci: Vec<f64> = play["ci95"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(ci[0] <= crossing && crossing <= ci[1], "{play}");
        assert_eq!(
            play["index"].as_i64().unwrap(),
            crossing.ceil() as i64,
            "{play}"
        );
        assert!(["S", "H", "D", "P", "R", "I"].contains(&play["deviation"].as_str().unwrap()));
        assert!([">=", "<"].contains(&play["direction"].as_str().unwrap()));
    }
    // The lists: the Illustrious 18 (no surrender by default), in order.
    let lists = report["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 18);
    assert_eq!(lists[0]["decision"], "insurance");
    let csv = run_line(&format!("{SMALL} --format csv --quiet"));
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), INDEX_FILE_COLUMNS.join(","));
    let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert_eq!(rows.len(), plays.len());
    for (row, play) in rows.iter().zip(plays) {
        assert_eq!(row[0], play["section"]);
        assert_eq!(row[1], play["row"]);
        assert_eq!(row[2], play["upcard"]);
        assert_eq!(row[4], play["deviation"]);
        assert_eq!(row[6], play["index"].to_string());
    }
}

#[test]
fn the_figures_do_not_depend_on_threads() {
    let one = run_line(&format!("--threads 1 {SMALL} --format json --quiet"));
    let two = run_line(&format!("--threads 2 {SMALL} --format json --quiet"));
    assert_eq!(one, two);
}

/// The test: hi-lo, 6 decks, S17, DAS, 75 % penetration, floored
/// true count with perfect deck estimation, against Schlesinger's
/// Illustrious 18 (Blackjack Attack, 3rd ed., for these rules): at least
/// 16 of the 18 within one true count, and insurance at +3 with its
/// crossing within half a count of it. At half the default precision
/// (±0.5), to keep the suite quick (about 20 s of CPU).
#[test]
fn hi_lo_finds_the_illustrious_18() {
    let report =
        json_of("blackjack indices --precision 0.6 --pilot-shoes 150 --max-shoes 2000 --seed 1");
    let lists = report["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 18);
    let within: Vec<&Value> = lists
        .iter()
        .filter(|listed| {
            listed["found"]
                .as_i64()
                .is_some_and(|found| (found - listed["published"].as_i64().unwrap()).abs() <= 1)
        })
        .collect();
    assert!(
        within.len() >= 16,
        "{} of 18 within one: {lists:?}",
        within.len()
    );
    let insurance = &lists[0];
    assert_eq!(insurance["decision"], "insurance");
    assert_eq!(insurance["found"], 3);
    assert!((insurance["crossing"].as_f64().unwrap() - 3.0).abs() <= 0.5);
}

#[test]
fn bad_options_are_refused_in_one_line() {
    assert_bad_input(&[
        (
            "blackjack indices --decisions some",
            "--decisions some: must be lists or all",
        ),
        ("blackjack indices --precision 0", "--precision 0"),
        ("blackjack indices --precision ten", "--precision ten"),
        ("blackjack indices --decks inf", "--decks inf"),
        ("blackjack indices --enhc", "peek"),
        ("blackjack indices --count 1,1,1", "--count"),
        ("blackjack indices --count wong-halves", "--count"),
        (
            "blackjack indices --pilot-shoes 500 --max-shoes 100",
            "--pilot-shoes 500",
        ),
        ("blackjack indices --penetration 1.5", "--penetration"),
    ]);
}
