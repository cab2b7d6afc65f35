//! The budget a search is given and the verdict it returns: what the
//! search (`search.rs`) and the solver's interface (`mod.rs`) share, in a
//! file of its own so that neither imports the other.

use std::time::Duration;

/// The default node budget: about 10 s of one loaded core on the hardest
/// random 52-card deals (measured at 250k to 400k positions a second, each
/// position costing its children's keys and lookups; about 16 bytes of
/// table per position).
pub const DEFAULT_MAX_NODES: u64 = 4_000_000;

/// The solver's budget for one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveBudget {
    /// The most states the search expands before it gives up: the
    /// deterministic budget (the same verdict on any machine).
    pub max_nodes: u64,
    /// The most time it spends, if set (the verdict may then depend on the
    /// machine).
    pub max_time: Option<Duration>,
}

impl Default for SolveBudget {
    /// [`DEFAULT_MAX_NODES`], no time limit.
    fn default() -> SolveBudget {
        SolveBudget {
            max_nodes: DEFAULT_MAX_NODES,
            max_time: None,
        }
    }
}

/// The solver's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Some sequence of moves wins; `Solution::moves` is one.
    Won,
    /// No sequence of moves wins: the search exhausted every state.
    Lost,
    /// The budget ran out first.
    Undecided,
}
