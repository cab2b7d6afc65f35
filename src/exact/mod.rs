//! Exact enumerators: every deal accounted for, results as exact rationals.
//!
//! Architecture invariant: enumerators apply a game's rules only through
//! the game's own functions in `crate::games`; they never restate a rule.
//! They do no I/O and use integer counting in their inner loops, checking
//! every operation for overflow.

pub mod dealer;
