//! The blocks a long run adds after a JSON report's own keys: `"precision"`
//! (what `--until-halfwidth` did) and `"shard"` (a part's count file, for
//! `merge`). They reach the renderers in [`RenderOptions`], and every JSON
//! renderer ends its document with [`RunBlocks::append_to`], so that a
//! report's JSON is built once, with them in it.
//!
//! [`RenderOptions`]: super::RenderOptions

use serde_json::{Map, Value};

use crate::contract::shard::ShardBlock;

/// The blocks of a long run, appended in this order after a JSON report's
/// own keys; none for most runs, whose JSON is then exactly the report's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunBlocks {
    /// `--until-halfwidth`: the target, and where each sampling run
    /// stopped.
    pub precision: Option<PrecisionBlock>,
    /// `--shard`: the part's counts for `merge`, with their checksum,
    /// which the commands layer computes (it writes the block and reads
    /// it back), so the block comes here built.
    pub shard: Option<ShardBlock>,
}

/// What a precision target did: the `"precision"` block.
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionBlock {
    /// The target: the widest 95% interval's half-width, as a proportion.
    pub until_halfwidth: f64,
    /// The outcome the target watched (`--for`), or `None` for every one.
    pub outcome: Option<String>,
    /// The most trials a sampling run could take (`--max-trials`).
    pub max_trials: u64,
    /// Each sampling run of the command, in order.
    pub runs: Vec<PrecisionRun>,
}

/// Where one sampling run under a precision target stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionRun {
    /// The trials it ran.
    pub trials: u64,
    /// The outcome with the widest 95% interval, as `KEY/LABEL`.
    pub widest: String,
    /// That interval's half-width, as a proportion.
    pub half_width: f64,
    /// Whether the target was met (or `--max-trials` reached first).
    pub met: bool,
}

impl RunBlocks {
    /// Appends the blocks there are to `root`, a JSON report's top-level
    /// object: `"precision"`, then `"shard"`.
    pub fn append_to(&self, root: &mut Map<String, Value>) {
        if let Some(precision) = &self.precision {
            root.insert("precision".into(), precision.to_json());
        }
        if let Some(shard) = &self.shard {
            // Serialising a contract type cannot fail (string keys,
            // integers and strings only).
            let block = serde_json::to_value(shard).unwrap_or(Value::Null);
            root.insert("shard".into(), block);
        }
    }
}

impl PrecisionBlock {
    /// The block as docs/GUIDE.md shows it: `until_halfwidth`, `for`
    /// (`null` for every outcome), `max_trials`, and `runs` with each
    /// run's `trials`, `widest`, `half_width` and `met`.
    fn to_json(&self) -> Value {
        let runs = self
            .runs
            .iter()
            .map(|run| {
                let mut entry = Map::new();
                entry.insert("trials".into(), Value::from(run.trials));
                entry.insert("widest".into(), Value::from(run.widest.clone()));
                entry.insert("half_width".into(), Value::from(run.half_width));
                entry.insert("met".into(), Value::from(run.met));
                Value::Object(entry)
            })
            .collect();
        let mut block = Map::new();
        block.insert("until_halfwidth".into(), Value::from(self.until_halfwidth));
        block.insert(
            "for".into(),
            self.outcome.clone().map_or(Value::Null, Value::from),
        );
        block.insert("max_trials".into(), Value::from(self.max_trials));
        block.insert("runs".into(), Value::Array(runs));
        Value::Object(block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_follow_the_report_in_order_and_none_leaves_it_alone() {
        let mut root = Map::new();
        root.insert("game".into(), json!("g"));
        RunBlocks::default().append_to(&mut root);
        assert_eq!(Value::Object(root.clone()), json!({"game": "g"}));
        let blocks = RunBlocks {
            precision: Some(PrecisionBlock {
                until_halfwidth: 0.001,
                outcome: None,
                max_trials: 1000,
                runs: vec![PrecisionRun {
                    trials: 500,
                    widest: "k/a".into(),
                    half_width: 0.0009,
                    met: true,
                }],
            }),
            shard: Some(ShardBlock {
                part: "0/2".into(),
                ..ShardBlock::default()
            }),
        };
        blocks.append_to(&mut root);
        let keys: Vec<&String> = root.keys().collect();
        assert_eq!(keys, ["game", "precision", "shard"]);
        assert_eq!(
            serde_json::to_string(&root["precision"]).unwrap(),
            r#"{"until_halfwidth":0.001,"for":null,"max_trials":1000,"runs":[{"trials":500,"widest":"k/a","half_width":0.0009,"met":true}]}"#
        );
    }
}
