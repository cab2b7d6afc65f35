//! The one list of the contract's kinds.

use super::KindEntry;
use super::comparison::Comparison;
use super::report::Report;

/// Every kind of document, in the order `deckodds schema` lists them and
/// `schema/` holds them: the one list of the contract's kinds.
pub fn kinds() -> Vec<KindEntry> {
    vec![KindEntry::of::<Report>(), KindEntry::of::<Comparison>()]
}
