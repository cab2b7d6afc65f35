//! Every player hand that has not busted, as a composition (cards of each
//! value), numbered once for all rule sets: 3,083 of them, the empty hand
//! included.
//!
//! A hand's value depends only on its composition and the upcard (and the
//! rules), so the solver keeps one slot per composition. Compositions are
//! numbered by number of cards, so every hand's children (one card more)
//! come after it, and the solver fills the table from the end.

use std::sync::OnceLock;

use ahash::AHashMap;

use super::rules::Hand;
use crate::games::blackjack::N_VALUES;

/// A child index meaning the card busts the hand.
pub const BUST: u32 = u32::MAX;

/// The numbered compositions.
pub struct Compositions {
    /// The hands, by number of cards (the empty hand first).
    pub hands: Vec<Hand>,
    /// For each hand and each value (index value - 1), the hand with one more
    /// card of that value, or [`BUST`].
    pub children: Vec<[u32; N_VALUES]>,
    index: AHashMap<[u8; N_VALUES], u32>,
}

impl Compositions {
    /// The numbering, built once.
    pub fn get() -> &'static Compositions {
        static ALL: OnceLock<Compositions> = OnceLock::new();
        ALL.get_or_init(Compositions::build)
    }

    fn build() -> Compositions {
        let mut hands = vec![Hand::empty()];
        let mut level_start = 0;
        // Breadth-first by number of cards; a hand is added once, from its
        // first parent in value order.
        let mut index: AHashMap<[u8; N_VALUES], u32> = AHashMap::new();
        index.insert(*Hand::empty().counts(), 0);
        loop {
            let level_end = hands.len();
            for parent in level_start..level_end {
                for value in 1..=N_VALUES as u8 {
                    let child = hands[parent].with(value);
                    if child.is_bust() || index.contains_key(child.counts()) {
                        continue;
                    }
                    index.insert(*child.counts(), hands.len() as u32);
                    hands.push(child);
                }
            }
            if hands.len() == level_end {
                break;
            }
            level_start = level_end;
        }
        let children = hands
            .iter()
            .map(|hand| {
                std::array::from_fn(|v| {
                    let child = hand.with(v as u8 + 1);
                    index.get(child.counts()).copied().unwrap_or(BUST)
                })
            })
            .collect();
        Compositions {
            hands,
            children,
            index,
        }
    }

    /// The number of a hand that has not busted.
    #[inline]
    pub fn index_of(&self, hand: &Hand) -> Option<u32> {
        self.index.get(hand.counts()).copied()
    }

    /// How many compositions there are.
    pub fn len(&self) -> usize {
        self.hands.len()
    }

    /// Never: the empty hand is always there.
    pub fn is_empty(&self) -> bool {
        self.hands.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unbusted_composition_once_children_after_parents() {
        let all = Compositions::get();
        // Multisets of values 1..=10 with sum at most 21, the empty one
        // included: counted independently by a generating-function loop.
        let mut ways = [0u64; 22];
        ways[0] = 1;
        for value in 1..=10usize {
            for sum in value..=21 {
                ways[sum] += ways[sum - value];
            }
        }
        assert_eq!(all.len() as u64, ways.iter().sum::<u64>());
        for (i, children) in all.children.iter().enumerate() {
            for (v, &child) in children.iter().enumerate() {
                let grown = all.hands[i].with(v as u8 + 1);
                if grown.is_bust() {
                    assert_eq!(child, BUST);
                } else {
                    assert!(child as usize > i);
                    assert_eq!(all.hands[child as usize], grown);
                }
            }
        }
    }
}
