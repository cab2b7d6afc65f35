//! The one list of the contract's kinds.

use super::KindEntry;
use super::blackjack;
use super::checkpoint::Checkpoint;
use super::comparison::Comparison;
use super::power::PowerDocument;
use super::provenance::Provenance;
use super::report::{Report, VersionsDocument};
use super::shard::ShardBlock;

/// Every kind of document, in the order `deckodds schema` lists them and
/// `schema/` holds them: the one list of the contract's kinds.
pub fn kinds() -> Vec<KindEntry> {
    vec![
        // What the commands print and results/ holds.
        KindEntry::of::<Report>(),
        KindEntry::of::<Comparison>(),
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
        KindEntry::of::<PowerDocument>(),
        // The files deckodds writes and reads back itself.
        KindEntry::of::<ShardBlock>(),
        KindEntry::of::<Checkpoint>(),
        KindEntry::of::<Provenance>(),
    ]
}
