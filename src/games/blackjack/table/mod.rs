//! Blackjack at the table (RULES.md section 6, "At the table"): rounds
//! dealt one after another down a shoe to a cut card, one player, any
//! strategy, and what a card counter sees.
//!
//! - `shoe.rs`: when the dealer shuffles ([`Dealing`]) and the shoe the
//!   rounds are dealt from.
//! - `simulation.rs`: the Monte-Carlo table, one trial a shoe, through the
//!   round's play function (`player/round.rs`), and its summary.
//! - `exact.rs`: the table's exact value for small shoes, shoe-deep.
//! - `chart_strategy.rs`: a total-dependent chart the table can play
//!   (basic strategy, or anyone's CSV).
//! - `count.rs`: counting systems and the true count.
//! - `indices.rs`: index plays found (`blackjack indices`).
//! - `index_plays.rs`: index plays made at the table: the index file, and
//!   basic strategy's chart at each true count.
//! - `count_analysis.rs`: counting systems analysed exactly (betting
//!   correlation, playing efficiency, insurance correlation) and the exact
//!   distribution of the count after k cards, with its Monte-Carlo check.
//! - `betting.rs`: bet ramps, table limits and wonging.
//! - `trip.rs`: the simulated risk of a trip with a finite bankroll.
//! - `published.rs`: a simulator's published claim, and its check.

pub mod betting;
pub mod chart_strategy;
pub mod count;
pub mod count_analysis;
pub mod exact;
pub mod grid;
pub mod index_plays;
pub mod indices;
pub mod published;
pub mod shoe;
pub mod simulation;
pub mod trip;

pub use betting::{BetLimits, BetRamp, BettingPlan, Wonging};
pub use chart_strategy::ChartStrategy;
pub use count::{CountSystem, DeckEstimation, TrueCountMethod, TrueCountRounding};
pub use exact::{ExactTable, exact_table_value};
pub use index_plays::{Deviation, IndexPlays};
pub use published::{ClaimCheck, PublishedClaim, RateCheck};
pub use shoe::Dealing;
pub use simulation::{
    BettingSummary, InsuranceSummary, KellyScaling, TableSimulation, TableSummary, TallyLayout,
    TrueCountRow,
};
pub use trip::{TripPlan, TripRisk, TripSimulation};
