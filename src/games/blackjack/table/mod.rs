//! Blackjack at the table (RULES.md section 6, "At the table"): rounds
//! dealt one after another down a shoe to a cut card, one player, any
//! strategy, and what a card counter sees.

pub mod chart_strategy;
