//! The prefix bound for stacks moved kept (issue 24): a row is lost when
//! its leftmost stacks cannot be brought down to one stack even if the
//! stacks to their right could hand over their tops in any order.
//!
//! # The relaxed game, and why it loses no win
//!
//! Under [`StackMove::Kept`](super::StackMove::Kept) a stack's top is a
//! card that stays the same card while the stack moves, and a move covers
//! the target's top with the moved stack's top. Split a row after its
//! first `m` stacks: the *prefix* (stacks `0..m`, by their tops) and the
//! *supply* (the multiset of the tops of the others). Stacks never change
//! order and move only to the left, so the stacks that began in the
//! prefix are always the leftmost ones, and they only ever move onto one
//! another. Every move of a game from the row is one of:
//!
//! - within the prefix: stack `i` onto `i - 1` or `i - 3`, both prefix
//!   stacks, tops fitting: the same move in the relaxed game below;
//! - within the rest: it changes no prefix stack, and the tops of the rest
//!   afterwards are a sub-multiset of the tops before (a move covers one
//!   top and creates none);
//! - from the rest onto the prefix: with `k` prefix stacks left, the moved
//!   stack is at index `k`, `k + 1` or `k + 2` and lands on `k - 1`
//!   (from `k` or `k + 2`), `k - 2` (from `k + 1`) or `k - 3` (from `k`);
//!   its top is a card of the supply that fits the target's top, and it
//!   becomes the target's top. That card is then in the prefix for good
//!   (prefix stacks never leave it), so each card of the supply enters at
//!   most once.
//!
//! So the *relaxed game* (prefix, supply), whose moves are the moves within
//! the prefix and "a card of the supply that fits the top of one of the
//! last three prefix stacks replaces that top, and leaves the supply", can
//! replay the prefix's history of any game from the row. A won game ends
//! with one stack, so its prefix stacks all come down to the leftmost:
//! the relaxed game is then won too (one prefix stack left). Hence a row
//! whose relaxed game is lost, for any split, is lost.
//!
//! The relaxed game is searched depth first with a memo of lost states and
//! a budget of [`RELAXED_MAX_NODES`] states: out of budget counts as "may
//! be won", so the bound only ever says lost after an exhaustive search. In
//! it, a prefix stack other than the leftmost whose top has no fitting
//! rank among the prefix's tops and the supply can never move or be
//! covered (every later top is one of those cards): lost.
//!
//! The relaxed search makes only *canonical* sequences, as the main
//! search does: after a move onto prefix stack `t` (from within or from
//! the supply), a move within the prefix must take a stack at `t` or right
//! of it. If a move `b` within the prefix comes right after a move `a` and
//! `b.from < a.to`, then `b` reads and changes only stacks left of `a.to`,
//! which `a` neither changed nor shifted, so `b` was legal before `a`; and
//! `a` is legal after `b`, one index to the left: its target is the same
//! stack with the same top, and when `a` takes a card of the supply, its
//! target was among the last three of `k` stacks, so it is among the last
//! three of the `k - 1` left after `b`. Both orders give the same state.
//! Each swap moves a within-prefix move earlier past one move whose target
//! is right of its stack, and never the reverse, so swapping ends, and
//! every won relaxed game has a canonical winning sequence.
//!
//! The search splits a row after its longest *stuck prefix*: the stacks
//! left of the leftmost stack that has a legal move. Those are exactly the
//! rows the plain search stalls on (a stuck left end while every way of
//! playing the right end is tried), and the verdict is remembered per
//! (prefix, supply), since the rest's play changes only the supply.

//! # Measured: no gain
//!
//! Kept, the first 20 deals of seed 1 at the default budget
//! (`prisoners-patience solve --trials 20 --seed 1 --stack-move kept
//! --threads 1`): without the bound 0 winnable, 2 unwinnable, 18
//! undecided in 5.4 s of CPU; with it (relaxed budget 1,000 states, before
//! the canonical order) the same 0 / 2 / 18, in minutes; with the
//! canonical order, unfinished after 500 s (220 s of CPU). On the first
//! two deals about 75% of the relaxed searches ran out of their budget,
//! 7-15% proved a loss and the rest found a relaxed win: with a supply of
//! 20-40 cards, the relaxed game is itself too large to exhaust.

use ahash::AHashMap;

use crate::games::prisoners_patience::MAX_CARDS;

/// The most states one relaxed search visits before it gives up (and the
/// bound then says nothing).
pub const RELAXED_MAX_NODES: u64 = 1_000;

/// Counts of each rank (index 1..=R), at most [`MAX_CARDS`] in all.
pub(super) type Supply = [u8; 16];

/// The tops of a prefix, two to a byte, zeros past the end (ranks are
/// never 0).
type PrefixKey = [u8; MAX_CARDS / 2];

/// A prefix of at most [`MAX_CARDS`] tops.
#[derive(Clone, Copy)]
struct Prefix {
    tops: [u8; MAX_CARDS],
    len: u8,
}

impl Prefix {
    fn key(&self) -> PrefixKey {
        let mut key = [0u8; MAX_CARDS / 2];
        for (byte, pair) in key.iter_mut().zip(self.tops.chunks_exact(2)) {
            *byte = pair[0] << 4 | pair[1];
        }
        key
    }
}

/// What a relaxed subtree came to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relaxed {
    Won,
    Lost,
    OutOfNodes,
}

/// The prefix bound for one game, reusable across rows and deals.
pub(super) struct PrefixBound {
    /// For each rank, the ranks that fit it, as bits.
    fitting: [u16; 16],
    ranks: u8,
    /// Verdicts of whole relaxed games: `true` when proved lost.
    verdicts: AHashMap<(PrefixKey, Supply), bool>,
    /// Relaxed states proved lost (true of every row, so kept across rows).
    lost: AHashMap<(PrefixKey, Supply), u8>,
    /// For a prefix, the cards of the supply that the last relaxed win
    /// used: any supply holding them wins the relaxed game too (the same
    /// moves are legal), so no search is needed.
    wins: AHashMap<PrefixKey, Supply>,
    /// The supply left when the relaxed search won.
    won_with: Supply,
    nodes: u64,
}

impl PrefixBound {
    /// The bound for a game of `ranks` ranks whose fitting ranks are given
    /// by `fits`.
    pub(super) fn new(ranks: u8, fits: impl Fn(u8, u8) -> bool) -> PrefixBound {
        let mut fitting = [0u16; 16];
        for a in 1..=ranks {
            for b in 1..=ranks {
                if fits(a, b) {
                    fitting[usize::from(a)] |= 1 << b;
                }
            }
        }
        PrefixBound {
            fitting,
            ranks,
            verdicts: AHashMap::default(),
            lost: AHashMap::default(),
            wins: AHashMap::default(),
            won_with: [0; 16],
            nodes: 0,
        }
    }

    /// Forgets every verdict (they stay true; this only bounds memory).
    pub(super) fn clear(&mut self) {
        self.verdicts.clear();
        self.lost.clear();
        self.wins.clear();
    }

    /// Whether the relaxed game of `prefix` (tops, left to right, at least
    /// one) and `supply` is proved lost: then every row with that prefix
    /// and whose other tops are (a sub-multiset of) `supply` is lost.
    pub(super) fn proves_lost(&mut self, prefix: &[u8], supply: &Supply) -> bool {
        let mut start = Prefix {
            tops: [0; MAX_CARDS],
            len: prefix.len() as u8,
        };
        start.tops[..prefix.len()].copy_from_slice(prefix);
        let prefix_key = start.key();
        if let Some(used) = self.wins.get(&prefix_key)
            && used.iter().zip(supply).all(|(used, held)| used <= held)
        {
            return false;
        }
        let key = (prefix_key, *supply);
        if let Some(&lost) = self.verdicts.get(&key) {
            return lost;
        }
        self.nodes = 0;
        let outcome = self.search(&start, supply, 1);
        if outcome == Relaxed::Won {
            let mut used = *supply;
            for (used, left) in used.iter_mut().zip(&self.won_with) {
                *used -= left;
            }
            self.wins.insert(prefix_key, used);
            return false;
        }
        let lost = outcome == Relaxed::Lost;
        self.verdicts.insert(key, lost);
        lost
    }

    fn search(&mut self, prefix: &Prefix, supply: &Supply, lowest: usize) -> Relaxed {
        if self.nodes >= RELAXED_MAX_NODES {
            return Relaxed::OutOfNodes;
        }
        self.nodes += 1;
        let len = usize::from(prefix.len);
        if len == 1 {
            self.won_with = *supply;
            return Relaxed::Won;
        }
        let tops = &prefix.tops[..len];
        // Ranks that may still top a prefix stack: its tops and the supply.
        let mut present = 0u16;
        for &top in tops {
            present |= 1 << top;
        }
        for rank in 1..=self.ranks {
            if supply[usize::from(rank)] > 0 {
                present |= 1 << rank;
            }
        }
        if tops[1..]
            .iter()
            .any(|&top| self.fitting[usize::from(top)] & present == 0)
        {
            return Relaxed::Lost;
        }
        let key = (prefix.key(), *supply);
        if self
            .lost
            .get(&key)
            .is_some_and(|&searched| usize::from(searched) <= lowest)
        {
            return Relaxed::Lost;
        }
        // Moves within the prefix first: they shorten it.
        for from in lowest.max(1)..len {
            for to in [Some(from - 1), from.checked_sub(3)].into_iter().flatten() {
                if self.fitting[usize::from(tops[from])] >> tops[to] & 1 == 0 {
                    continue;
                }
                let mut next = *prefix;
                next.tops[to] = tops[from];
                next.tops.copy_within(from + 1..len, from);
                next.tops[len - 1] = 0;
                next.len -= 1;
                match self.search(&next, supply, to) {
                    Relaxed::Lost => {}
                    found => return found,
                }
            }
        }
        // A card of the supply onto one of the last three stacks.
        let window = len.saturating_sub(3);
        for (to, &target) in tops.iter().enumerate().skip(window) {
            let mut candidates = self.fitting[usize::from(target)];
            while candidates != 0 {
                let rank = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if supply[rank] == 0 {
                    continue;
                }
                let mut next = *prefix;
                next.tops[to] = rank as u8;
                let mut rest = *supply;
                rest[rank] -= 1;
                match self.search(&next, &rest, to) {
                    Relaxed::Lost => {}
                    found => return found,
                }
            }
        }
        let searched = self.lost.entry(key).or_insert(u8::MAX);
        *searched = (*searched).min(lowest as u8);
        Relaxed::Lost
    }
}
