//! Blackjack at the table (RULES.md section 6, "At the table"): rounds
//! dealt one after another down a shoe to a cut card, one player, any
//! strategy, and what a card counter sees.

pub mod count;
pub mod exact;
pub mod published;
pub mod shoe;
pub mod simulation;

pub use count::CountSystem;
pub use exact::{ExactTable, exact_table_value};
pub use published::{ClaimCheck, PublishedClaim, RateCheck};
pub use shoe::Dealing;
pub use simulation::{TableSimulation, TableSummary, TallyLayout, TrueCountRow};
