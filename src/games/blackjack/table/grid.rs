//! The rule sets of the cut-card table `results/` publishes: the shoe
//! sizes tables deal (1, 2, 6 and 8 decks) under S17 and H17, the rest the
//! common American game (RULES.md section 6's defaults: peek, 3:2, double
//! any two, DAS, re-split to 4 hands, no surrender).

use crate::games::blackjack::player::PlayerRules;
use crate::games::blackjack::{Decks, Soft17};

/// Decks of the cut-card table.
pub const CUT_CARD_DECKS: [u32; 4] = [1, 2, 6, 8];

/// Every rule set of the cut-card table: by decks, S17 before H17.
pub fn cut_card_grid() -> Vec<PlayerRules> {
    CUT_CARD_DECKS
        .iter()
        .flat_map(|&decks| {
            [Soft17::Stand, Soft17::Hit].map(|soft17| PlayerRules {
                decks: Decks::Finite(decks),
                soft17,
                ..PlayerRules::default()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_decks_by_soft_17_with_the_default_rules() {
        let grid = cut_card_grid();
        assert_eq!(grid.len(), 8);
        assert_eq!(grid[0].decks, Decks::Finite(1));
        assert_eq!(grid[1].soft17, Soft17::Hit);
        assert_eq!(grid[7].decks, Decks::Finite(8));
        for rules in &grid {
            assert!(rules.validate().is_ok());
            assert_eq!(
                PlayerRules {
                    decks: rules.decks,
                    soft17: rules.soft17,
                    ..PlayerRules::default()
                },
                *rules
            );
        }
    }
}
