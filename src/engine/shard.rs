//! One part of a run cut into parts: the chunks of a Monte-Carlo run, or
//! the tasks of an exhaustive enumeration, that part `k` of `n` takes.

use std::fmt;

use crate::error::{Error, Result};

/// What a shard may be, for errors.
const SHARD_ALLOWED: &str = "must be k/n with 0 <= k < n (part k of n, counted from 0: 0/4 .. 3/4)";

/// One part of an enumeration split into `count` parts: part `index`
/// (0-based).
///
/// Shard `index` of `count` takes the tasks `t` (see [`progress_units`])
/// with `t % count == index`. Interleaving rather than contiguous ranges
/// spreads large and small tasks evenly over the shards. Guarantee: the
/// shards `0..count` of a deck partition its arrangements, so their counts
/// add up exactly to the whole enumeration's (with
/// [`ArrangementCounts::add`]). A shard may be empty if `count` exceeds the
/// number of tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, `0..count`.
    pub index: u64,
    /// The number of parts, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole enumeration as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `k/n`, part `k` of `n` counted from 0 (`--shard 0/4` to
    /// `--shard 3/4`, as GNU parallel's `::: 0 1 2 3` and a SLURM array
    /// `--array=0-3` number them), so `0 <= k < n`. Errors name `shard`.
    pub fn parse(text: &str) -> Result<Shard> {
        let invalid = || Error::invalid("shard", text, SHARD_ALLOWED);
        let (k, n) = text.split_once('/').ok_or_else(invalid)?;
        let k: u64 = k.trim().parse().map_err(|_| invalid())?;
        let n: u64 = n.trim().parse().map_err(|_| invalid())?;
        Shard { index: k, count: n }
            .validated()
            .map_err(|_| invalid())
    }

    /// Checks `count >= 1` and `index < count` (the fields are public, so a
    /// shard may have been built by hand).
    pub fn validated(self) -> Result<Shard> {
        if self.count == 0 || self.index >= self.count {
            return Err(Error::invalid("shard", self, SHARD_ALLOWED));
        }
        Ok(self)
    }

    /// This shard's chunks of a run of `n_chunks`: a contiguous range, the
    /// shards' ranges in order covering `0..n_chunks` with no gap and no
    /// overlap.
    pub fn chunk_range(self, n_chunks: u64) -> std::ops::Range<u64> {
        let bound =
            |part: u64| (u128::from(n_chunks) * u128::from(part) / u128::from(self.count)) as u64;
        bound(self.index)..bound(self.index + 1)
    }

    /// Whether task `task` belongs to this shard.
    #[inline]
    pub fn contains(self, task: u64) -> bool {
        task % self.count == self.index
    }

    /// How many of the tasks `0..n_tasks` belong to this shard: the progress
    /// units of this shard when `n_tasks` is [`progress_units`].
    pub fn share(self, n_tasks: u64) -> u64 {
        if self.index >= n_tasks {
            0
        } else {
            (n_tasks - self.index).div_ceil(self.count)
        }
    }
}

/// Shows a shard as the command line writes it, `k/n` counted from 1.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
