//! The games, one file each: rules, parameters and the play function that
//! every engine runs.
//!
//! Architecture invariant: a game's rules are written once, here. Exact
//! enumerators and the Monte-Carlo runner call into these files; they never
//! restate a rule.

pub mod blackjack;
