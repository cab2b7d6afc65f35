//! Published estimates of the share of Klondike deals that can be won with
//! every card seen (RULES.md section 7), for the rules they were made
//! for: what a results table of `klondike solve` is read beside. Each is
//! a citation, copied as printed (a percentage and its 95 % half-width).

use super::free_play::{FreePlayRules, Layout, Passes};

/// One published estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedWinnable {
    /// Cards turned at a time (passes unlimited, 52 cards, 7 piles).
    pub draw: u8,
    /// Who, where, and on how many deals.
    pub source: &'static str,
    /// The estimate, in per cent, as printed.
    pub percent: &'static str,
    /// Its 95 % half-width, in per cent, as printed.
    pub half_width: &'static str,
}

/// The estimates, draw 3 first.
pub const PUBLISHED: [PublishedWinnable; 5] = [
    PublishedWinnable {
        draw: 3,
        source: "Blake and Gent, arXiv 1906.12314, Solvitaire on a million deals",
        percent: "81.945",
        half_width: "0.084",
    },
    PublishedWinnable {
        draw: 3,
        source: "Dang, Gent, Nightingale, Ulrich-Oltean and Waller, CP 2025, Solvitaire's unresolved deals resolved",
        percent: "81.942",
        half_width: "0.080",
    },
    PublishedWinnable {
        draw: 3,
        source: "lonelybot, 5.9 million deals",
        percent: "81.95",
        half_width: "0.03",
    },
    PublishedWinnable {
        draw: 1,
        source: "Blake and Gent, arXiv 1906.12314, Solvitaire on a million deals",
        percent: "90.480",
        half_width: "0.116",
    },
    PublishedWinnable {
        draw: 1,
        source: "Dang, Gent, Nightingale, Ulrich-Oltean and Waller, CP 2025, Solvitaire's unresolved deals resolved",
        percent: "90.454",
        half_width: "0.090",
    },
];

/// The published estimates for `rules` (none but for 52 cards in 7
/// piles, passes unlimited, draw 1 or 3).
pub fn published_for(rules: &FreePlayRules) -> impl Iterator<Item = &'static PublishedWinnable> {
    let standard = rules.layout == Layout::FULL && rules.passes == Passes::Unlimited;
    PUBLISHED
        .iter()
        .filter(move |estimate| standard && estimate.draw == rules.draw)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each standard rule gets its own estimates and no other rule any.
    #[test]
    fn estimates_go_with_their_rules() {
        let rules = |draw, passes| FreePlayRules::new(draw, passes, Layout::FULL).unwrap();
        let draws = |rules: FreePlayRules| -> Vec<u8> {
            published_for(&rules)
                .map(|estimate| estimate.draw)
                .collect()
        };
        assert_eq!(draws(rules(3, Passes::Unlimited)), [3, 3, 3]);
        assert_eq!(draws(rules(1, Passes::Unlimited)), [1, 1]);
        assert!(draws(rules(1, Passes::Limited(1))).is_empty());
        assert!(draws(rules(3, Passes::Limited(3))).is_empty());
        let reduced = Layout {
            ranks: 7,
            ..Layout::FULL
        };
        assert!(draws(FreePlayRules::new(3, Passes::Unlimited, reduced).unwrap()).is_empty());
    }
}
