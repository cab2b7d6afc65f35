//! The parallel Monte-Carlo runner, generic over games.
//!
//! # Determinism
//!
//! A run of `n_trials` is cut into chunks of `chunk_size` trials. Chunk `i`
//! plays its trials with its own generator, `rng::stream_rng(seed, stream,
//! i)`, and fresh scratch space, and returns an integer histogram; the run
//! sums the histograms. Addition of integers is exact and commutative, so
//! the counts depend only on (seed, stream, n_trials, chunk_size), never on
//! the number of threads or the order chunks finish in. A range of chunks
//! can also be run on its own (a shard) and summed later with the same
//! result.
//!
//! Architecture invariant: the runner does no I/O. Progress is reported
//! through the [`Progress`] trait; the caller draws the bar. The thread
//! count is the caller's choice too (the ambient rayon pool is used).

use std::ops::Range;

use rayon::prelude::*;

use crate::engine::{Progress, Simulation};
use crate::rng::stream_rng;

/// Trials per chunk unless a caller says otherwise: large enough that the
/// per-chunk setup (a generator, scratch space, a histogram) costs nothing
/// measurable, small enough that two cores share even short runs evenly.
pub const DEFAULT_CHUNK_SIZE: u64 = 1 << 16;

/// What to run: how many trials, from which seed and stream, in which
/// chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// Trials in the whole run.
    pub n_trials: u64,
    /// The master seed.
    pub seed: u64,
    /// The stream within the seed (independent parts of one run, such as
    /// one blackjack upcard each, use different streams).
    pub stream: u64,
    /// Trials per chunk (the last chunk may be shorter).
    pub chunk_size: u64,
}

impl RunPlan {
    /// A plan with the default chunk size.
    pub fn new(n_trials: u64, seed: u64, stream: u64) -> RunPlan {
        RunPlan {
            n_trials,
            seed,
            stream,
            chunk_size: DEFAULT_CHUNK_SIZE,
        }
    }

    /// The number of chunks.
    pub fn n_chunks(&self) -> u64 {
        self.n_trials.div_ceil(self.chunk_size)
    }

    /// Trials in chunk `chunk`.
    pub fn chunk_trials(&self, chunk: u64) -> u64 {
        let start = chunk * self.chunk_size;
        self.chunk_size.min(self.n_trials.saturating_sub(start))
    }
}

/// Runs every chunk of `plan` in parallel and returns the summed histogram.
///
/// Guarantee: bit-identical counts for the same `plan`, with any number of
/// threads.
pub fn run<S: Simulation>(simulation: &S, plan: &RunPlan, progress: &dyn Progress) -> Vec<u64> {
    run_chunks(simulation, plan, 0..plan.n_chunks(), progress)
}

/// Runs the chunks in `chunks` of `plan` (a shard of the run) and returns
/// their summed histogram. Summing the histograms of disjoint ranges that
/// cover `0..plan.n_chunks()` gives exactly [`run`]'s counts.
pub fn run_chunks<S: Simulation>(
    simulation: &S,
    plan: &RunPlan,
    chunks: Range<u64>,
    progress: &dyn Progress,
) -> Vec<u64> {
    let n_bins = simulation.n_bins();
    chunks
        .into_par_iter()
        .map(|chunk| {
            let counts = run_chunk(simulation, plan, chunk);
            progress.advance(plan.chunk_trials(chunk));
            counts
        })
        .reduce(
            || vec![0; n_bins],
            |mut total, counts| {
                for (t, c) in total.iter_mut().zip(counts) {
                    *t += c;
                }
                total
            },
        )
}

/// Plays one chunk: its own generator, fresh scratch, its share of trials.
fn run_chunk<S: Simulation>(simulation: &S, plan: &RunPlan, chunk: u64) -> Vec<u64> {
    let mut rng = stream_rng(plan.seed, plan.stream, chunk);
    let mut scratch = simulation.new_scratch();
    let mut counts = vec![0u64; simulation.n_bins()];
    simulation.trials(
        &mut rng,
        &mut scratch,
        plan.chunk_trials(chunk),
        &mut counts,
    );
    counts
}

/// The first `n` trials of `plan`, in the run's order (chunk by chunk),
/// that add to bin `bin`, each with its number in the run (from 0) and the
/// scratch as the trial left it (for the card games: the deal it played).
///
/// Guarantee: these are trials that [`run`] counts, exactly: the same
/// generators, the same fresh scratch per chunk, one [`Simulation::trial`]
/// at a time (which the simulations' batched `trials` must equal). Plays
/// on one thread and stops as soon as it has `n`.
pub fn first_in_bin<S: Simulation>(
    simulation: &S,
    plan: &RunPlan,
    bin: usize,
    n: usize,
) -> Vec<(u64, S::Scratch)>
where
    S::Scratch: Clone,
{
    first_trials_where(simulation, plan, Some(bin), n)
}

/// The first `n` trials of `plan` (or all, if it has fewer), each with its
/// number in the run and the scratch as the trial left it: the deals that
/// [`run`] plays first, with the same guarantee as [`first_in_bin`].
pub fn first_trials<S: Simulation>(
    simulation: &S,
    plan: &RunPlan,
    n: usize,
) -> Vec<(u64, S::Scratch)>
where
    S::Scratch: Clone,
{
    first_trials_where(simulation, plan, None, n)
}

/// The first `n` trials that add to `bin`, or the first `n` trials if
/// `bin` is `None`.
fn first_trials_where<S: Simulation>(
    simulation: &S,
    plan: &RunPlan,
    bin: Option<usize>,
    n: usize,
) -> Vec<(u64, S::Scratch)>
where
    S::Scratch: Clone,
{
    let mut found = Vec::new();
    let mut counts = vec![0u64; simulation.n_bins()];
    let mut trial_number = 0u64;
    for chunk in 0..plan.n_chunks() {
        let mut rng = stream_rng(plan.seed, plan.stream, chunk);
        let mut scratch = simulation.new_scratch();
        for _ in 0..plan.chunk_trials(chunk) {
            if found.len() == n {
                return found;
            }
            let before = bin.map(|bin| counts[bin]);
            simulation.trial(&mut rng, &mut scratch, &mut counts);
            if bin.is_none_or(|bin| Some(counts[bin]) != before) {
                found.push((trial_number, scratch.clone()));
            }
            trial_number += 1;
        }
    }
    found
}

/// Plays chunk `chunk` of `plan` one trial at a time and returns its
/// histogram, with the trials that added to any of `bins`, in order, each
/// with its number in the run (from 0) and what `note` takes from the
/// scratch as the trial left it (for the card games: the deal it played).
///
/// Guarantee: the histogram is exactly the one [`run_chunks`] counts for
/// this chunk (the same generator, fresh scratch, and one
/// [`Simulation::trial`] at a time, which a batched `trials` must equal),
/// so a run can keep the deals it counts as it goes, on any threads.
pub fn run_chunk_noting<S: Simulation, T>(
    simulation: &S,
    plan: &RunPlan,
    chunk: u64,
    bins: &[usize],
    note: impl Fn(&S::Scratch) -> T,
) -> (Vec<u64>, Vec<(u64, T)>) {
    let mut rng = stream_rng(plan.seed, plan.stream, chunk);
    let mut scratch = simulation.new_scratch();
    let mut counts = vec![0u64; simulation.n_bins()];
    let mut noted = Vec::new();
    let first = chunk * plan.chunk_size;
    for i in 0..plan.chunk_trials(chunk) {
        let before: u64 = bins.iter().map(|&b| counts[b]).sum();
        simulation.trial(&mut rng, &mut scratch, &mut counts);
        if bins.iter().map(|&b| counts[b]).sum::<u64>() != before {
            noted.push((first + i, note(&scratch)));
        }
    }
    (counts, noted)
}

/// Runs `work` on a rayon pool of `threads` threads: how the unit tests
/// check that results do not depend on the thread count.
#[cfg(test)]
pub(crate) fn with_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::rng::{GameRng, bounded};

    /// A die with `faces` faces.
    struct Die {
        faces: u32,
    }

    impl Simulation for Die {
        type Scratch = ();
        fn n_bins(&self) -> usize {
            self.faces as usize
        }
        fn new_scratch(&self) {}
        fn trial(&self, rng: &mut GameRng, _: &mut (), counts: &mut [u64]) {
            counts[bounded(rng, self.faces) as usize] += 1;
        }
    }

    #[test]
    fn counts_do_not_depend_on_threads() {
        let die = Die { faces: 6 };
        let plan = RunPlan {
            chunk_size: 1000,
            ..RunPlan::new(100_500, 9, 0)
        };
        let one = with_threads(1, || run(&die, &plan, &NoProgress));
        assert_eq!(one.iter().sum::<u64>(), 100_500);
        for threads in [2, 3, 8] {
            assert_eq!(with_threads(threads, || run(&die, &plan, &NoProgress)), one);
        }
    }

    #[test]
    fn first_in_bin_finds_the_trials_run_counts() {
        let die = Die { faces: 6 };
        let plan = RunPlan {
            chunk_size: 7,
            ..RunPlan::new(100, 3, 1)
        };
        let sixes = run(&die, &plan, &NoProgress)[5];
        let found = first_in_bin(&die, &plan, 5, 1000);
        assert_eq!(found.len() as u64, sixes);
        // Trial numbers ascend, and asking for fewer gives a prefix.
        assert!(found.windows(2).all(|w| w[0].0 < w[1].0));
        let first_three: Vec<u64> = first_in_bin(&die, &plan, 5, 3)
            .iter()
            .map(|f| f.0)
            .collect();
        let expected: Vec<u64> = found.iter().take(3).map(|f| f.0).collect();
        assert_eq!(first_three, expected);
    }

    /// A die that keeps its last roll in its scratch.
    struct RememberingDie;

    impl Simulation for RememberingDie {
        type Scratch = usize;
        fn n_bins(&self) -> usize {
            6
        }
        fn new_scratch(&self) -> usize {
            0
        }
        fn trial(&self, rng: &mut GameRng, last: &mut usize, counts: &mut [u64]) {
            *last = bounded(rng, 6) as usize;
            counts[*last] += 1;
        }
    }

    #[test]
    fn first_trials_are_the_trials_run_counts_in_order() {
        let plan = RunPlan {
            chunk_size: 7,
            ..RunPlan::new(100, 5, 0)
        };
        let all = first_trials(&RememberingDie, &plan, 1000);
        let numbers: Vec<u64> = all.iter().map(|t| t.0).collect();
        assert_eq!(numbers, (0..100).collect::<Vec<u64>>());
        let mut counts = vec![0u64; 6];
        for &(_, roll) in &all {
            counts[roll] += 1;
        }
        assert_eq!(counts, run(&RememberingDie, &plan, &NoProgress));
        assert_eq!(first_trials(&RememberingDie, &plan, 10), all[..10]);
        // The fives among them are exactly what first_in_bin finds.
        let fives: Vec<(u64, usize)> = all.iter().copied().filter(|t| t.1 == 4).collect();
        assert_eq!(first_in_bin(&RememberingDie, &plan, 4, 1000), fives);
    }

    #[test]
    fn a_chunk_noted_counts_as_run_counts_and_notes_its_bins() {
        let plan = RunPlan {
            chunk_size: 7,
            ..RunPlan::new(100, 5, 0)
        };
        let all = first_trials(&RememberingDie, &plan, 1000);
        let mut summed = vec![0u64; 6];
        let mut noted = Vec::new();
        for chunk in 0..plan.n_chunks() {
            let (counts, found) = run_chunk_noting(&RememberingDie, &plan, chunk, &[1, 4], |&r| r);
            for (s, c) in summed.iter_mut().zip(counts) {
                *s += c;
            }
            noted.extend(found);
        }
        assert_eq!(summed, run(&RememberingDie, &plan, &NoProgress));
        let expected: Vec<(u64, usize)> = all
            .iter()
            .copied()
            .filter(|t| t.1 == 1 || t.1 == 4)
            .collect();
        assert_eq!(noted, expected);
    }

    #[test]
    fn shards_sum_to_the_whole_run() {
        let die = Die { faces: 4 };
        let plan = RunPlan {
            chunk_size: 100,
            ..RunPlan::new(1_050, 1, 2)
        };
        let whole = run(&die, &plan, &NoProgress);
        let first = run_chunks(&die, &plan, 0..4, &NoProgress);
        let rest = run_chunks(&die, &plan, 4..plan.n_chunks(), &NoProgress);
        let summed: Vec<u64> = first.iter().zip(&rest).map(|(a, b)| a + b).collect();
        assert_eq!(summed, whole);
    }

    #[test]
    fn chunk_arithmetic_covers_every_trial() {
        let plan = RunPlan {
            chunk_size: 7,
            ..RunPlan::new(50, 0, 0)
        };
        assert_eq!(plan.n_chunks(), 8);
        let total: u64 = (0..plan.n_chunks()).map(|c| plan.chunk_trials(c)).sum();
        assert_eq!(total, 50);
        assert_eq!(plan.chunk_trials(7), 1);
        assert_eq!(RunPlan::new(0, 0, 0).n_chunks(), 0);
    }
}
