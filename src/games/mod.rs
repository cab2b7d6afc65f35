//! The games, one folder each: its rules, parameters and the play function
//! that every engine runs, and the engines only that game uses (the
//! blackjack dealer table, Roll-Call's first pass and searches, the
//! Prisoner's patience solver, Klondike's readable record).
//!
//! Architecture invariant: a game's rules are written once, in its folder.
//! The engines in `crate::engine` call into a game through the traits there;
//! they never restate a rule. A game imports only `crate::engine` and the
//! ground floor, never `serde_json` (`tests/integration/house.rs` checks
//! it over the imports).
//!
//! [`registry`] is the one list of games: what the layers above know of
//! each.

pub mod blackjack;
pub mod idiots_delight;
pub mod klondike;
pub mod prisoners_patience;
pub mod registry;
pub mod roll_call;
