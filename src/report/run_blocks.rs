//! The blocks a long run adds after a JSON report's own keys: `"precision"`
//! (what `--until-halfwidth` did) and `"shard"` (a part's count file, for
//! `merge`). They reach the renderers in [`RenderOptions`]. A document of
//! the contract (a report, a comparison) carries them as its last fields,
//! so that its JSON is written once, with them in it; a document still
//! built as a JSON tree ends with [`RunBlocks::append_to`].
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

/// What a precision target did, and where each sampling run stopped:
/// the contract's types.
pub use crate::contract::report::{PrecisionBlock, PrecisionRun};

impl RunBlocks {
    /// Appends the blocks there are to `root`, a JSON report's top-level
    /// object: `"precision"`, then `"shard"`.
    pub fn append_to(&self, root: &mut Map<String, Value>) {
        if let Some(precision) = &self.precision {
            // The contract's type serialises with string keys only.
            let block = serde_json::to_value(precision).unwrap_or(Value::Null);
            root.insert("precision".into(), block);
        }
        if let Some(shard) = &self.shard {
            // Serialising a contract type cannot fail (string keys,
            // integers and strings only).
            let block = serde_json::to_value(shard).unwrap_or(Value::Null);
            root.insert("shard".into(), block);
        }
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
