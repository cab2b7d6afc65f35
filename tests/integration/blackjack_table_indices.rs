//! `deckodds blackjack table --indices` end to end (RULES.md section 6,
//! "Index plays"; issue 46): index plays read from a file are made and
//! reported, insurance's net is its bets' and part of the round's, a play
//! that never holds is basic strategy's run to the count, and bad index
//! files and options are refused in one line. Fixed seeds; each run is a
//! fraction of a second in release.

use std::fs;

use serde_json::Value;

use crate::blackjack_table_cli::{refused_in, status_and_json};
use crate::support::run_line;

/// Schlesinger's Illustrious 18 for hi-lo, multi-deck S17 DAS, as an index
/// file: the plays at or above their index, and the five the other way
/// (12 and 13 against low cards hit below theirs).
const ILLUSTRIOUS_18: &str = "section,row,upcard,deviation,direction,index
insurance,,A,I,>=,3
hard,16,T,S,>=,0
hard,15,T,S,>=,4
pairs,TT,5,P,>=,5
pairs,TT,6,P,>=,4
hard,10,T,D,>=,4
hard,12,3,S,>=,2
hard,12,2,S,>=,3
hard,11,A,D,>=,1
hard,9,2,D,>=,1
hard,10,A,D,>=,4
hard,9,7,D,>=,3
hard,16,9,S,>=,5
hard,13,2,H,<,-1
hard,12,4,H,<,0
hard,12,5,H,<,-2
hard,12,6,H,<,-1
hard,13,3,H,<,-2
";

const BASE: &str = "blackjack table --count hi-lo --trials 300000 --seed 5";

fn json_in(dir: &std::path::Path, line: &str) -> Value {
    let (status, report) = status_and_json(dir, line);
    assert_eq!(status, 0, "{line}");
    report
}

#[test]
fn index_plays_from_a_file_are_made_and_their_insurance_reported() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("i18.csv"), ILLUSTRIOUS_18).unwrap();
    let report = json_in(dir.path(), &format!("{BASE} --indices i18.csv"));
    // --indices plays the basic chart unless told otherwise.
    assert_eq!(report["params"]["strategy"], "basic");
    let plays = &report["index_plays"];
    assert_eq!(plays["source"], "i18.csv");
    let listed = plays["plays"].as_array().unwrap();
    assert_eq!(listed.len(), 18);
    assert_eq!(listed[0]["section"], "insurance");
    assert_eq!(listed[0]["deviation"], "I");
    assert_eq!(listed[0]["index"], 3);
    assert_eq!(listed[13]["direction"], "<");
    // Insurance: some aces insured at +3 and up, its net its bets'.
    let insurance = &report["insurance"];
    let insured = insurance["rounds"].as_u64().unwrap();
    let won = insurance["won"].as_u64().unwrap();
    let rounds = report["rounds"].as_u64().unwrap();
    assert!(insured > 0 && won <= insured && insured < rounds / 13);
    let net = (won as f64 - 0.5 * (insured - won) as f64) / rounds as f64;
    let reported = insurance["net_per_round"].as_f64().unwrap();
    assert!((reported - net).abs() <= 1e-15, "{reported} against {net}");
    // The net distribution reaches down to a lost insurance on top of four
    // doubled hands lost.
    let net_bins = report["distributions"][0]["outcomes"].as_array().unwrap();
    assert_eq!(net_bins[0]["outcome"], "-8.5");
    assert_eq!(net_bins.last().unwrap()["outcome"], "+8.0");
    // The people's table says how many plays and how often insured.
    let text = run_line(&format!(
        "{BASE} --indices {} --quiet",
        dir.path().join("i18.csv").display()
    ));
    assert!(text.contains("with 18 index plays"), "{text}");
    assert!(text.contains("insured"), "{text}");
}

#[test]
fn a_play_that_never_holds_is_the_basic_chart_s_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("never.csv"),
        "section,row,upcard,deviation,direction,index\nhard,16,T,S,>=,99\n",
    )
    .unwrap();
    let mut never = json_in(dir.path(), &format!("{BASE} --indices never.csv"));
    let basic = json_in(dir.path(), &format!("{BASE} --strategy basic"));
    assert!(never.get("insurance").is_none());
    never.as_object_mut().unwrap().remove("index_plays");
    assert_eq!(never, basic);
}

/// Index files that are not one, and options index plays cannot go with,
/// are refused in one line, exit status 2, nothing written.
#[test]
fn bad_index_files_and_options_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let header = "section,row,upcard,deviation,direction,index";
    let files = [
        (
            "hand.csv",
            format!("{header}\nhard,16,T,S,>=,0\nhard,23,T,S,>=,0\n"),
            vec!["hand.csv", "line 3, column row \"23\"", "not a row of hard"],
        ),
        (
            "action.csv",
            format!("{header}\nhard,16,T,Q,>=,0\n"),
            vec!["line 2, column deviation \"Q\"", "not a deviation"],
        ),
        (
            "upcard.csv",
            format!("{header}\nhard,16,11,S,>=,0\n"),
            vec!["line 2, column upcard \"11\""],
        ),
        (
            "direction.csv",
            format!("{header}\nhard,16,T,S,=>,0\n"),
            vec!["line 2, column direction \"=>\""],
        ),
        (
            "index.csv",
            format!("{header}\nhard,16,T,S,>=,zero\n"),
            vec!["line 2, column index \"zero\""],
        ),
        (
            "clash.csv",
            format!("{header}\nhard,16,T,S,>=,0\nhard,16,T,H,<,2\n"),
            vec!["line 2", "line 3", "both hold at true counts 0 to 1"],
        ),
        (
            "header.csv",
            "section,row,upcard,deviation,index\nhard,16,T,S,0\n".to_string(),
            vec!["without the column direction"],
        ),
    ];
    for (name, text, expected) in &files {
        fs::write(dir.path().join(name), text).unwrap();
        refused_in(
            dir.path(),
            &format!("blackjack table --count hi-lo --indices {name}"),
            2,
            expected,
        );
    }
    fs::write(dir.path().join("good.csv"), ILLUSTRIOUS_18).unwrap();
    refused_in(
        dir.path(),
        "blackjack table --count hi-lo --indices good.csv --strategy cd",
        2,
        &["index plays are made on a chart"],
    );
    refused_in(
        dir.path(),
        "blackjack table --count hi-lo --indices good.csv --enhc",
        2,
        &["peek"],
    );
    refused_in(
        dir.path(),
        "blackjack table --indices good.csv",
        2,
        &["--count"],
    );
    refused_in(
        dir.path(),
        "blackjack table --count hi-lo --indices missing.csv",
        1,
        &["missing.csv"],
    );
}
