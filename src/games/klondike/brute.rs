//! Exhaustive search of Klondike free play (RULES.md section 7) for
//! reduced decks: every legal move of the rules checker (`check.rs`) from
//! every reachable table, breadth first, with no pruning, no safe moves and
//! no symmetry; two tables are the same state only when they are equal.
//! Its verdicts are the ground truth the solver is tested against, so it
//! is kept as plain as the checker: it allocates per state and is slow,
//! which reduced decks (a few dozen cards) afford. (It keeps each table
//! once, its list of tables being both the queue and what the set of seen
//! tables points into: the tests' brute-forced deals are most of the unit
//! tests' time.)

use hashbrown::HashTable;

use crate::cards::Card;
use crate::error::Result;
use crate::games::klondike::check::FreeTable;
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Passes};

/// What the exhaustive search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BruteForce {
    /// `Some(true)`: some sequence of moves wins; `Some(false)`: every
    /// reachable table was seen and none is won; `None`: more than the
    /// budget's tables are reachable, so nothing is proved.
    pub winnable: Option<bool>,
    /// For a winnable deal, a winning sequence with the fewest moves
    /// (breadth first), stock turns included; otherwise empty.
    pub witness: Vec<FreeMove>,
    /// Distinct tables seen (the deal's included).
    pub states: u64,
}

/// The table as a state of the search. Under unlimited passes the pass
/// count changes no legal move, so it is left out (set to 1); without this
/// a deal whose stock can be turned forever would have infinitely many
/// states. Every other part of the table is kept as it is.
fn as_state(mut table: FreeTable) -> FreeTable {
    if table.rules.passes == Passes::Unlimited {
        table.passes_used = 1;
    }
    table
}

/// Searches every sequence of legal moves from `deal`, stopping when a
/// won table is reached or when more than `max_states` distinct tables
/// have been seen.
///
/// Guarantee: `winnable == Some(false)` only after every table reachable
/// by legal moves was generated; a witness is a list of moves that
/// [`crate::games::klondike::check::replay`] accepts. Errors: a bad deal.
pub fn brute_force(rules: &FreePlayRules, deal: &[Card], max_states: u64) -> Result<BruteForce> {
    let start = as_state(FreeTable::deal(rules, deal)?);
    if start.is_won() {
        return Ok(BruteForce {
            winnable: Some(true),
            witness: Vec::new(),
            states: 1,
        });
    }
    // Every table seen, in the order found: breadth first, so this list
    // is also the queue (`expand` walks it). Each table is kept once; the
    // set of seen tables holds their indices, hashed and compared through
    // the list. `came_from[i]` is table i's parent and the move from it
    // (the deal, index 0, is its own parent).
    let mut tables: Vec<FreeTable> = vec![start];
    let mut came_from: Vec<(usize, FreeMove)> = vec![(0, FreeMove::Turn)];
    let hasher = ahash::RandomState::new();
    let mut seen: HashTable<usize> = HashTable::new();
    seen.insert_unique(hasher.hash_one(&tables[0]), 0, |&seen| {
        hasher.hash_one(&tables[seen])
    });
    let witness = |came_from: &[(usize, FreeMove)], mut at: usize| {
        let mut moves = Vec::new();
        while at != 0 {
            let (parent, mv) = came_from[at];
            moves.push(mv);
            at = parent;
        }
        moves.reverse();
        moves
    };
    let mut expand = 0;
    while expand < tables.len() {
        for mv in tables[expand].legal_moves() {
            let mut next = tables[expand].clone();
            next.apply(mv)
                .expect("check.rs lists only moves it accepts");
            let next = as_state(next);
            let hash = hasher.hash_one(&next);
            if seen.find(hash, |&seen| tables[seen] == next).is_some() {
                continue;
            }
            came_from.push((expand, mv));
            let next_index = came_from.len() - 1;
            if next.is_won() {
                return Ok(BruteForce {
                    winnable: Some(true),
                    witness: witness(&came_from, next_index),
                    states: tables.len() as u64 + 1,
                });
            }
            if tables.len() as u64 >= max_states {
                return Ok(BruteForce {
                    winnable: None,
                    witness: Vec::new(),
                    states: tables.len() as u64 + 1,
                });
            }
            seen.insert_unique(hash, next_index, |&seen| hasher.hash_one(&tables[seen]));
            tables.push(next);
        }
        expand += 1;
    }
    Ok(BruteForce {
        winnable: Some(false),
        witness: Vec::new(),
        states: tables.len() as u64,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::OnceLock;

    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rayon::prelude::*;

    use super::*;
    use crate::cards::parse_card;
    use crate::games::klondike::check::replay;
    use crate::games::klondike::free_play::Layout;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| parse_card(t).unwrap())
            .collect()
    }

    pub(crate) fn rules(draw: u8, passes: Passes, ranks: u8, piles: u8) -> FreePlayRules {
        FreePlayRules::new(draw, passes, Layout::new(ranks, piles).unwrap()).unwrap()
    }

    /// The layout's deck, shuffled.
    pub(crate) fn random_deal(layout: Layout, rng: &mut Xoshiro256PlusPlus) -> Vec<Card> {
        let mut deck: Vec<Card> = (0..4)
            .flat_map(|suit| (1..=layout.ranks).map(move |rank| Card::new(rank, suit)))
            .collect();
        deck.shuffle(rng);
        deck
    }

    /// The stock rules of the cross-checks.
    pub(crate) const STOCK_RULES: [(u8, Passes); 5] = [
        (1, Passes::Limited(1)),
        (3, Passes::Limited(1)),
        (1, Passes::Limited(2)),
        (3, Passes::Limited(3)),
        (3, Passes::Unlimited),
    ];

    /// The reduced layouts (ranks, piles) brute force exhausts on every
    /// deal in well under a second under every stock rule (3 ranks: at most
    /// about 60,000 states; 4 ranks and draw 1 already pass 200,000).
    pub(crate) const LAYOUTS: [(u8, u8); 2] = [(3, 3), (3, 4)];

    /// A budget no deal of `LAYOUTS` reaches.
    pub(crate) const MAX_STATES: u64 = 1_000_000;

    #[test]
    fn a_deal_winnable_only_by_single_cards() {
        // Pile 0: 2C; pile 1: AC face down under 2D; the stock AD AH 2H
        // 2S AS. Nothing frees AC but AD reaching its foundation, and
        // turned three at a time AD stays under AH and 2H, which cannot
        // leave the waste (no black 3; no pile ever empties), in every
        // pass. Turned one at a time, AD goes out first.
        let deal = cards("2C AC 2D AD AH 2H 2S AS");
        for passes in [Passes::Limited(1), Passes::Limited(2), Passes::Unlimited] {
            let three = brute_force(&rules(3, passes, 2, 2), &deal, 100_000).unwrap();
            assert_eq!(three.winnable, Some(false), "draw 3, passes {passes}");
            assert!(three.witness.is_empty());
            let one = brute_force(&rules(1, passes, 2, 2), &deal, 100_000).unwrap();
            assert_eq!(one.winnable, Some(true), "draw 1, passes {passes}");
            replay(&rules(1, passes, 2, 2), &deal, &one.witness).unwrap();
        }
    }

    #[test]
    fn the_shortest_win_is_found() {
        // The hand-won game of check.rs: 10 moves, none of them avoidable
        // (8 cards to the foundations, and 2 turns to reach 5 stock cards
        // three at a time).
        let deal = cards("AC 2D AD AH 2C AS 2H 2S");
        let found = brute_force(&rules(3, Passes::Limited(1), 2, 2), &deal, 1_000).unwrap();
        assert_eq!((found.winnable, found.witness.len()), (Some(true), 10));
    }

    #[test]
    fn a_small_budget_proves_nothing() {
        let deal = cards("2C AC 2D AD AH 2H 2S AS");
        let found = brute_force(&rules(3, Passes::Unlimited, 2, 2), &deal, 3).unwrap();
        assert_eq!((found.winnable, found.witness.len()), (None, 0));
    }

    #[test]
    fn witnesses_replay() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        let (mut won, mut lost) = (0, 0);
        for (ranks, piles) in LAYOUTS {
            for (draw, passes) in STOCK_RULES {
                let rules = rules(draw, passes, ranks, piles);
                for _ in 0..8 {
                    let deal = random_deal(rules.layout, &mut rng);
                    let found = brute_force(&rules, &deal, MAX_STATES).unwrap();
                    match found.winnable {
                        Some(true) => {
                            won += 1;
                            replay(&rules, &deal, &found.witness).unwrap();
                        }
                        Some(false) => lost += 1,
                        None => panic!("{rules:?}: {} states", found.states),
                    }
                }
            }
        }
        // Most 3-rank deals are winnable (lost ones are the hand-built
        // deal's test); the witnesses are what this checks.
        assert!(won >= 60, "{won} won, {lost} lost");
    }

    /// Layouts for the solver's check beside `LAYOUTS`: two piles and a
    /// long stock, where lost deals are common, so that lost verdicts are
    /// checked often too (`LAYOUTS` lose about one deal in a hundred).
    pub(crate) const SMALL_LAYOUTS: [(u8, u8); 2] = [(3, 2), (4, 2)];

    /// A deal of the solver's cross-checks and what brute force says of it.
    pub(crate) struct BruteForcedDeal {
        pub(crate) rules: FreePlayRules,
        /// Its index among the deals of its layout and stock rule.
        pub(crate) index: usize,
        pub(crate) deal: Vec<Card>,
        pub(crate) winnable: bool,
        /// For a winnable deal, the shortest win brute force finds.
        pub(crate) witness: Vec<FreeMove>,
    }

    /// 100 random deals (seed 2024) for each of `LAYOUTS` and
    /// `SMALL_LAYOUTS` and each of `STOCK_RULES`, in that order, each
    /// with its verdict. Brute-forced once, in parallel, for every test
    /// that reads them: brute force is most of those tests' time, and
    /// they would otherwise each make the same 2,000 searches.
    pub(crate) fn brute_forced_deals() -> &'static [BruteForcedDeal] {
        static DEALS: OnceLock<Vec<BruteForcedDeal>> = OnceLock::new();
        DEALS.get_or_init(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(2_024);
            let mut deals = Vec::new();
            for (ranks, piles) in LAYOUTS.into_iter().chain(SMALL_LAYOUTS) {
                for (draw, passes) in STOCK_RULES {
                    let rules = rules(draw, passes, ranks, piles);
                    for index in 0..100 {
                        deals.push((rules, index, random_deal(rules.layout, &mut rng)));
                    }
                }
            }
            deals
                .into_par_iter()
                .map(|(rules, index, deal)| {
                    let truth = brute_force(&rules, &deal, MAX_STATES).unwrap();
                    let winnable = truth
                        .winnable
                        .unwrap_or_else(|| panic!("{rules:?}, deal {index}: brute force ran out"));
                    BruteForcedDeal {
                        rules,
                        index,
                        deal,
                        winnable,
                        witness: truth.witness,
                    }
                })
                .collect()
        })
    }
}
