//! The rule grid that `results/` publishes (RULES.md section 6): the rule
//! sets readers ask about, and the round's value under each.
//!
//! The grid varies what tables vary (decks 1, 2, 4, 6, 8; S17 or H17;
//! double after split or not; no surrender or late surrender) and holds
//! the rest at the common American game: peek, 3:2, double any two cards,
//! re-split to 4 hands, no re-split of aces. That is 5 × 2 × 2 × 2 = 40
//! rule sets (issue 20 counts 80, which the four rules it lists do not
//! make).

use rayon::prelude::*;

use super::number::Number;
use super::rules::{PlayerRules, SplitModel, Surrender};
use super::solve::{PROGRESS_UNITS, PlayerParams, solve};
use crate::engine::Progress;
use crate::error::Result;
use crate::games::blackjack::{Decks, Soft17};

/// The deck counts of the grid.
pub const GRID_DECKS: [u32; 5] = [1, 2, 4, 6, 8];

/// The grid's 40 rule sets, decks slowest, then S17 before H17, DAS
/// before no DAS, no surrender before late; every other rule is
/// [`PlayerRules::default`]'s.
pub fn publication_grid() -> Vec<PlayerRules> {
    let mut grid = Vec::with_capacity(40);
    for decks in GRID_DECKS {
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            for double_after_split in [true, false] {
                for surrender in [Surrender::None, Surrender::Late] {
                    grid.push(PlayerRules {
                        decks: Decks::Finite(decks),
                        soft17,
                        double_after_split,
                        surrender,
                        ..PlayerRules::default()
                    });
                }
            }
        }
    }
    grid
}

/// One rule set of a grid and the value of a round under it.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRow<T> {
    /// The rules.
    pub rules: PlayerRules,
    /// The round's value off the top, best play everywhere (the house edge
    /// is minus this).
    pub overall: T,
}

/// Units of [`Progress`] that [`overall_values`] reports for `n_rule_sets`
/// rule sets: one per upcard of each.
pub fn grid_progress_units(n_rule_sets: usize) -> u64 {
    n_rule_sets as u64 * PROGRESS_UNITS
}

/// The round's value under each of `rule_sets`, with splits valued by
/// `split_model`, in the order given. Rule sets are solved in parallel;
/// each value is the one [`solve`] gives for that rule set alone, so the
/// result does not depend on the thread count.
pub fn overall_values<T: Number>(
    rule_sets: &[PlayerRules],
    split_model: SplitModel,
    progress: &dyn Progress,
) -> Result<Vec<GridRow<T>>> {
    rule_sets
        .par_iter()
        .map(|rules| {
            let params = PlayerParams::full_shoe(*rules, split_model);
            let table = solve::<T>(&params, progress)?;
            Ok(GridRow {
                rules: *rules,
                overall: table.overall,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::rules::{BlackjackPays, DoubleOn, HoleCard};
    use std::collections::HashSet;

    #[test]
    fn the_grid_is_forty_distinct_rule_sets_varying_only_its_four_rules() {
        let grid = publication_grid();
        assert_eq!(grid.len(), 40);
        assert_eq!(grid.iter().collect::<HashSet<_>>().len(), 40);
        for rules in &grid {
            rules.validate().unwrap();
            assert_eq!(rules.hole_card, HoleCard::Peek);
            assert_eq!(rules.blackjack_pays, BlackjackPays::ThreeToTwo);
            assert_eq!(rules.double, DoubleOn::Any);
            assert_eq!(rules.max_hands, 4);
            assert!(!rules.resplit_aces);
        }
        assert_eq!(grid[0].decks, Decks::Finite(1));
        assert_eq!(grid[39].decks, Decks::Finite(8));
        assert_eq!(grid[39].soft17, Soft17::Hit);
        assert!(!grid[39].double_after_split);
        assert_eq!(grid[39].surrender, Surrender::Late);
    }

    #[test]
    fn each_value_is_the_rule_sets_own_solve() {
        // A sample of the grid (the smallest shoes, in float) against
        // solving each rule set on its own.
        let sample: Vec<PlayerRules> = publication_grid().into_iter().take(8).collect();
        let rows = overall_values::<f64>(&sample, SplitModel::Cdz, &NoProgress).unwrap();
        for (row, rules) in rows.iter().zip(&sample) {
            assert_eq!(row.rules, *rules);
            let params = PlayerParams::full_shoe(*rules, SplitModel::Cdz);
            let alone = solve::<f64>(&params, &NoProgress).unwrap();
            assert_eq!(row.overall.to_bits(), alone.overall.to_bits());
        }
        // The rules move the value the way every table says they do.
        let value = |i: usize| rows[i].overall;
        assert!(value(2) < value(0), "no DAS costs the player");
        assert!(value(1) > value(0), "late surrender helps the player");
        assert!(value(4) < value(0), "H17 costs the player");
    }
}
