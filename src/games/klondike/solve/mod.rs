//! Which Klondike deals can be won (RULES.md section 7): a solver that
//! decides a deal `won` (with its moves), `lost` (proved) or `undecided`
//! (its budget ran out).
//!
//! (Interface only: the search is being written.)

pub mod sample;

use std::time::Duration;

use crate::cards::Card;
use crate::error::Result;
use crate::games::klondike::free_play::{FreeMove, FreePlayRules};

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

/// The verdict on one deal and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// For `Won`, the winning moves from the deal, in order (every move
    /// atomic, stock turns included); otherwise empty.
    pub moves: Vec<FreeMove>,
    /// States the search expanded.
    pub nodes: u64,
}

/// A solver for one set of rules, reusing its memory from deal to deal.
pub struct Solver {
    rules: FreePlayRules,
}

impl Solver {
    /// A solver for `rules`.
    pub fn new(rules: FreePlayRules) -> Solver {
        Solver { rules }
    }

    /// The rules solved.
    pub fn rules(&self) -> FreePlayRules {
        self.rules
    }

    /// Decides `deal` (the layout's cards, first dealt first; checked).
    pub fn solve(&mut self, deal: &[Card], budget: &SolveBudget) -> Result<Solution> {
        self.rules.layout.check_deal(deal)?;
        let _ = budget;
        Ok(Solution {
            verdict: Verdict::Undecided,
            moves: Vec::new(),
            nodes: 0,
        })
    }
}
