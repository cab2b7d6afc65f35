//! The one list of the contract's kinds, in a file of its own: it names
//! every document type, and the document types use the ground that
//! `contract/mod.rs` defines (`Tag`, `Document`), which re-exports the list
//! (a re-export is no import, so no circle).

use super::KindEntry;
use super::report::{Report, VersionsDocument};
use super::{
    blackjack, blackjack_counts, checkpoint, comparison, indices, klondike_solve, power,
    provenance, shard, spec,
};

/// Every kind of document, in the order `deckodds schema` lists them and
/// `schema/` holds them: the one list of the contract's kinds.
pub fn kinds() -> Vec<KindEntry> {
    vec![
        // What the commands print and results/ holds.
        KindEntry::of::<Report>(),
        KindEntry::of::<comparison::Comparison>(),
        KindEntry::of::<VersionsDocument>(),
        // The blackjack player's and table's documents, and the power study.
        KindEntry::of::<blackjack::PlayerDocument>(),
        KindEntry::of::<blackjack::StrategyDocument>(),
        KindEntry::of::<blackjack::HouseEdgeDocument>(),
        KindEntry::of::<blackjack::HouseEdgeGridDocument>(),
        KindEntry::of::<blackjack::PlayerCompareDocument>(),
        KindEntry::of::<blackjack::TableDocument>(),
        KindEntry::of::<blackjack::TableCompareDocument>(),
        KindEntry::of::<blackjack::CutCardEffectDocument>(),
        KindEntry::of::<indices::IndicesDocument>(),
        KindEntry::of::<blackjack_counts::CountSystemsDocument>(),
        KindEntry::of::<blackjack_counts::CountDistributionDocument>(),
        KindEntry::of::<power::PowerDocument>(),
        // Which Klondike deals can be won.
        KindEntry::of::<klondike_solve::KlondikeSolveDocument>(),
        // The files deckodds reads back itself.
        KindEntry::of::<shard::ShardBlock>(),
        KindEntry::of::<checkpoint::Checkpoint>(),
        KindEntry::of::<provenance::Provenance>(),
        // The analysis specs (TOML, with no `schema` key), for editors.
        KindEntry::of::<spec::SpecFile>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_listed_once_with_its_schema_naming_it() {
        let entries = kinds();
        let mut names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
        let listed = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), listed, "a kind listed twice: {names:?}");
        for entry in entries {
            let schema = serde_json::to_value((entry.schema)()).expect("a schema");
            assert_eq!(schema["$id"], entry.id);
            assert_eq!(entry.id, format!("deckodds.{}/v1", entry.name));
        }
    }
}
