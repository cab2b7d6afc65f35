//! Blackjack, the player's half (RULES.md section 6): the exact value of
//! every decision, the round's value and the house edge, for any rule set.
//!
//! - `rules.rs`: the rule set, the player's hand, what may be done with it
//!   and what it is paid: the rules both engines read.
//! - `compositions.rs`: every unbusted hand, numbered once.
//! - `number.rs`: exact fractions or `f64`, and the dealer's outcome
//!   probabilities for any shoe in each; `falling.rs`: the integer over a
//!   falling factorial the exact solve computes in, reduced at the end.
//! - `solve.rs`: the solver (method in its module doc).
//! - `grid.rs`: the rule grid `results/` publishes, solved rule set by rule
//!   set.
//! - `chart.rs`: the basic-strategy chart read off a solved table.
//! - `house_edge.rs`: the effect of removal on the round's value.
//! - `round.rs`: the Monte-Carlo round, played with a solved table's
//!   decisions.

pub mod chart;
pub mod compositions;
pub mod falling;
pub mod grid;
pub mod house_edge;
pub mod number;
pub mod round;
pub mod rules;
pub mod solve;

pub use rules::{
    ACTIONS, Action, BlackjackPays, DoubleOn, Hand, HoleCard, PlayerRules, SplitModel, Surrender,
    hand_name, parse_hand, parse_upcard, settle, value_letter,
};
pub use solve::{
    ActionValues, CompositionValues, HandRow, PlayerParams, PlayerTable, Spot, solve, solve_exact,
    solve_float,
};
