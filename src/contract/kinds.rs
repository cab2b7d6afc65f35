//! The one list of the contract's kinds.

use super::KindEntry;
use super::checkpoint::Checkpoint;
use super::comparison::Comparison;
use super::provenance::Provenance;
use super::report::Report;
use super::shard::ShardBlock;

/// Every kind of document, in the order `deckodds schema` lists them and
/// `schema/` holds them: the one list of the contract's kinds.
pub fn kinds() -> Vec<KindEntry> {
    vec![
        // What the commands print and results/ holds.
        KindEntry::of::<Report>(),
        KindEntry::of::<Comparison>(),
        // The files deckodds writes and reads back itself.
        KindEntry::of::<ShardBlock>(),
        KindEntry::of::<Checkpoint>(),
        KindEntry::of::<Provenance>(),
    ]
}
