//! deckodds' integration tests: one binary, one module per subject.

mod answers;
mod blackjack_cli;
mod blackjack_counts;
mod blackjack_exact;
mod blackjack_indices;
mod blackjack_monte_carlo;
mod blackjack_player;
mod blackjack_player_cli;
mod blackjack_rule_pairs;
mod blackjack_table_cli;
mod blackjack_table_indices;
mod contract;
mod docs;
// The PNG and PDF converters are the `figures` feature's (on by default).
#[cfg(feature = "figures")]
mod figures;
mod files;
mod games;
mod house;
mod idiots_delight;
mod inputs;
mod klondike;
mod klondike_deals;
mod klondike_solve;
mod latex;
mod long_runs;
mod parsers;
mod prisoners_patience;
mod reproduce;
mod roll_call;
mod scale;
mod simd;
mod site;
mod support;
