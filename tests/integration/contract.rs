//! The data contract: `deckodds schema` prints the schemas committed under
//! schema/, every JSON file of results/ names its kind and validates
//! against that kind's schema, and every document the commands write
//! validates against its schema too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{assert_bad_input, deckodds, run_ok};
use deckodds::contract;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The committed schemas, by kind name (`report` for schema/report.json).
fn committed_schemas() -> BTreeMap<String, Value> {
    let mut schemas = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("schema")).expect("schema/ exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            schemas.insert(name, serde_json::from_str(&text).unwrap());
        }
    }
    schemas
}

/// The kind named by a document's `"schema"`: `report` for
/// `deckodds.report/v1`.
fn kind_of(document: &Value) -> Option<&str> {
    document
        .get("schema")?
        .as_str()?
        .strip_prefix("deckodds.")?
        .strip_suffix("/v1")
}

/// Every way `document` breaks its kind's schema, one line each.
fn violations(schemas: &BTreeMap<String, Value>, document: &Value) -> Vec<String> {
    let Some(kind) = kind_of(document) else {
        return vec!["no \"schema\": \"deckodds.<kind>/v1\" key".into()];
    };
    let Some(schema) = schemas.get(kind) else {
        return vec![format!("kind {kind} has no schema/{kind}.json")];
    };
    let validator = jsonschema::validator_for(schema).expect("a valid JSON Schema");
    validator
        .iter_errors(document)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

#[test]
fn the_committed_schemas_are_what_deckodds_schema_writes() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(&["schema", "--dir", dir.path().to_str().unwrap()]);
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let kinds: Vec<String> = contract::kinds()
        .iter()
        .map(|k| format!("{}.json", k.name))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(written, kinds, "one file per kind");
    assert!(!kinds.is_empty(), "the contract lists its kinds");
    let mut committed: Vec<String> = committed_schemas()
        .keys()
        .map(|k| format!("{k}.json"))
        .collect();
    committed.sort();
    assert_eq!(
        committed, written,
        "schema/ holds exactly the kinds: regenerate it with `cargo run --release -- schema --dir schema`"
    );
    for name in &written {
        let made = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let kept = std::fs::read_to_string(root().join("schema").join(name)).unwrap();
        assert!(
            made == kept,
            "schema/{name} is not what deckodds writes: regenerate it with `cargo run --release -- schema --dir schema`"
        );
    }
}

#[test]
fn schema_prints_one_kind_lists_them_all_and_refuses_an_unknown_one() {
    let list = run_ok(&["schema"]);
    for kind in contract::kinds() {
        assert!(list.contains(kind.id), "{list}");
        let printed: Value = serde_json::from_str(&run_ok(&["schema", kind.name])).unwrap();
        assert_eq!(printed["$id"], kind.id);
    }
    assert_bad_input(&[
        ("schema nonsense", "schema kind nonsense: must be one of "),
        (
            "schema --dir no/such/directory",
            "--dir no/such/directory: must be an existing directory",
        ),
    ]);
}

#[test]
fn every_json_file_of_results_names_its_kind_and_validates_against_its_schema() {
    let schemas = committed_schemas();
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in &paths {
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        checked += 1;
        for problem in violations(&schemas, &document) {
            problems.push(format!("{}: {problem}", file_name(path)));
        }
    }
    assert!(checked > 400, "results/ has its JSON files ({checked})");
    assert!(
        problems.is_empty(),
        "{} problems, the first: {:#?}",
        problems.len(),
        &problems[..problems.len().min(20)]
    );
}

#[test]
fn a_document_that_breaks_its_schema_is_caught_by_the_validation() {
    // The validation above can fail: a committed report with an unknown
    // field, a wrong type or no `schema` is reported.
    let schemas = committed_schemas();
    let path = root().join("results/roll-call-exact-5x2.json");
    let document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(violations(&schemas, &document), Vec::<String>::new());
    let mut unknown = document.clone();
    unknown["distributions"][0]["surprise"] = Value::from(1);
    assert!(!violations(&schemas, &unknown).is_empty());
    let mut wrong_type = document.clone();
    wrong_type["trials"] = Value::from("many");
    assert!(!violations(&schemas, &wrong_type).is_empty());
    let mut untagged = document;
    untagged.as_object_mut().unwrap().remove("schema");
    assert!(!violations(&schemas, &untagged).is_empty());
}

/// The documents of a JSON output: the document, or each of an array of
/// them (`blackjack eor` for several outcomes).
fn documents(output: &Value) -> Vec<&Value> {
    match output {
        Value::Array(items) => items.iter().collect(),
        document => vec![document],
    }
}

#[test]
fn what_the_commands_write_validates_against_its_schema() {
    // One command line per kind of document a command prints (the files
    // of results/ are checked above; these cover the commands no spec
    // runs, and the blocks of long runs).
    let schemas = committed_schemas();
    let lines = [
        "roll-call exact --ranks 4 --copies 2",
        "roll-call mc --ranks 4 --copies 2 --trials 2000 --seed 3 --count all --order all",
        "roll-call compare --ranks 3 --copies 2 --trials 2000",
        "idiots-delight mc --trials 2000 --seed 1 --until-halfwidth 0.05",
        "idiots-delight power --suits 1 --ranks 8 --trials 2000 --seed 1 --replicates 2",
        "blackjack exact --decks 2",
        "blackjack eor --decks 1",
        "blackjack player --decks 1 --float",
        "blackjack strategy --decks 1 --float",
        "blackjack house-edge --decks 1 --float",
        "blackjack table --decks 2 --trials 200 --seed 1 --count hi-lo",
        "blackjack counts --count 0,1,1,1,1,1,0,0,0,-1",
        "blackjack count-distribution --decks 1 --after 20 --trials 2000 --seed 1",
        "klondike mc --trials 500 --seed 2",
        "prisoners-patience exact --suits 1 --ranks 6",
    ];
    let mut kinds_seen = std::collections::BTreeSet::new();
    for line in lines {
        let mut args: Vec<&str> = line.split_whitespace().collect();
        args.extend(["--format", "json", "--quiet"]);
        let output = deckodds().args(&args).output().unwrap();
        let output: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{line}: {e}: {}", String::from_utf8_lossy(&output.stderr)));
        for document in documents(&output) {
            kinds_seen.insert(kind_of(document).unwrap_or("none").to_string());
            assert_eq!(
                violations(&schemas, document),
                Vec::<String>::new(),
                "{line}"
            );
        }
    }
    assert!(kinds_seen.len() >= 8, "{kinds_seen:?}");
}

#[test]
fn a_parts_count_file_and_a_checkpoint_validate_against_their_schemas() {
    let schemas = committed_schemas();
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part.json");
    let part_text = part.to_str().unwrap();
    run_ok(&[
        "idiots-delight",
        "mc",
        "--trials",
        "4000",
        "--seed",
        "5",
        "--shard",
        "1/2",
        "--out",
        part_text,
        "--quiet",
    ]);
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&part).unwrap()).unwrap();
    assert_eq!(violations(&schemas, &document), Vec::<String>::new());
    assert_eq!(
        violations(&schemas, &document["shard"]),
        Vec::<String>::new(),
        "the shard block is a counts document of its own"
    );
    assert_eq!(kind_of(&document["shard"]), Some("counts"));

    let checkpoint = dir.path().join("run.checkpoint");
    let output = deckodds()
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1")
        .args([
            "idiots-delight",
            "mc",
            "--trials",
            "400000",
            "--seed",
            "5",
            "--quiet",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
            "--out",
            dir.path().join("out.json").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(kind_of(&saved), Some("checkpoint"));
    assert_eq!(violations(&schemas, &saved), Vec::<String>::new());
}

#[test]
fn every_analysis_spec_validates_against_the_spec_schema() {
    // The specs are TOML: read as data, they are what an editor holding
    // schema/spec.json checks.
    let schemas = committed_schemas();
    let validator = jsonschema::validator_for(&schemas["spec"]).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("analysis")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let spec: toml::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let spec = serde_json::to_value(spec).unwrap();
        let problems: Vec<String> = validator
            .iter_errors(&spec)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert_eq!(problems, Vec::<String>::new(), "{}", path.display());
        checked += 1;
    }
    assert!(checked > 40, "{checked} specs");
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
