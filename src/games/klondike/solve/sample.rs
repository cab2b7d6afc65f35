//! Which random deals can be won (RULES.md section 7), beside what the
//! fixed policy (RULES.md section 4) makes of the same deals: the
//! Monte-Carlo adapter of the solver ([`SolveSimulation`]), the solving of
//! one given deal ([`solve_deal`]), and the cutting of a run's tally into
//! its counts ([`SolveCounts`]) and its estimate of the winnable fraction
//! ([`Winnable`]). No I/O.
//!
//! A trial's tally has [`N_BINS`] counters: the six bins of the verdict x
//! the policy ([`cross_bin`]), then the [`NODE_BUCKETS`] buckets of the
//! states the solver expanded ([`node_bucket`]). Every trial adds one in
//! each of the two ranges, so each range adds up to the trials. When the
//! budget is in nodes alone the counts depend only on the run's seed,
//! trials and chunking (the solver is deterministic); the seconds a deal
//! took are never counted.

use std::time::{Duration, Instant};

use super::{SolveBudget, Solver, Verdict};
use crate::cards::Card;
use crate::distribution::CountDistribution;
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Layout, Passes};
use crate::games::klondike::{Klondike, check, sorted_deck};
use crate::rng::{GameRng, shuffle};
use crate::stats::{Interval, Z95, wilson_interval};

/// The states the solver expands per deal unless told otherwise.
///
/// The verdicts in bin order, with the names reports give them.
pub const VERDICTS: [(Verdict, &str); 3] = [
    (Verdict::Won, "won"),
    (Verdict::Lost, "lost"),
    (Verdict::Undecided, "undecided"),
];

/// What the fixed policy made of a deal, in bin order: went out, or not.
pub const POLICY_OUTCOMES: [&str; 2] = ["went-out", "stuck"];

/// The verdict x policy bins: `2 * verdict + policy`, verdicts in
/// [`VERDICTS`]' order, policy 0 went out, 1 stuck.
pub const CROSS_BINS: usize = 6;

/// Buckets of the nodes-per-deal histogram: bucket 0 holds deals that
/// expanded no state, bucket `k` (1..=39) those that expanded
/// `2^(k-1)..2^k - 1`, bucket 40 those that expanded `2^39` or more.
pub const NODE_BUCKETS: usize = 41;

/// Counters of a trial's tally.
pub const N_BINS: usize = CROSS_BINS + NODE_BUCKETS;

/// The verdict's position in [`VERDICTS`].
pub fn verdict_index(verdict: Verdict) -> usize {
    match verdict {
        Verdict::Won => 0,
        Verdict::Lost => 1,
        Verdict::Undecided => 2,
    }
}

/// The verdict's name in reports: `won`, `lost` or `undecided`.
pub fn verdict_name(verdict: Verdict) -> &'static str {
    VERDICTS[verdict_index(verdict)].1
}

/// The bin of a deal with `verdict` on which the policy went out or not.
pub fn cross_bin(verdict: Verdict, policy_went_out: bool) -> usize {
    2 * verdict_index(verdict) + usize::from(!policy_went_out)
}

/// The histogram bucket of a deal whose search expanded `nodes` states:
/// the bit length of `nodes`, at most 40.
pub fn node_bucket(nodes: u64) -> usize {
    ((u64::BITS - nodes.leading_zeros()) as usize).min(NODE_BUCKETS - 1)
}

/// The fewest and most nodes of bucket `bucket` (`None`: no most).
pub fn node_bucket_range(bucket: usize) -> (u64, Option<u64>) {
    match bucket {
        0 => (0, Some(0)),
        b if b + 1 >= NODE_BUCKETS => (1 << (NODE_BUCKETS - 2), None),
        b => (1 << (b - 1), Some((1 << b) - 1)),
    }
}

/// One deal solved, and played by the fixed policy.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedDeal {
    pub verdict: Verdict,
    /// For `Won`, the winning moves; otherwise empty.
    pub moves: Vec<FreeMove>,
    /// States the search expanded.
    pub nodes: u64,
    /// Wall-clock seconds the search took (never counted: machines
    /// differ).
    pub seconds: f64,
    /// Whether the fixed policy (RULES.md section 4, draw 1, one pass)
    /// went out on the same deal.
    pub policy_went_out: bool,
}

impl SolvedDeal {
    /// What reports list of it: everything but the moves themselves, which
    /// it counts as every report does (see [`DealSummary::moves`]).
    pub fn summary(&self) -> DealSummary {
        let stock_turns = self
            .moves
            .iter()
            .filter(|&&mv| mv == FreeMove::Turn)
            .count();
        DealSummary {
            verdict: self.verdict,
            moves: self.moves.len() - stock_turns,
            stock_turns,
            nodes: self.nodes,
            seconds: self.seconds,
            policy_went_out: self.policy_went_out,
        }
    }
}

/// A [`SolvedDeal`] without its moves: what a run keeps of each deal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DealSummary {
    pub verdict: Verdict,
    /// Moves of the win found (0 unless won): cards moved, a run moved
    /// together being one move; stock turns are not moves, and are counted
    /// apart in `stock_turns`. This is what "moves" means in every output
    /// of Klondike (the records of `klondike record` and of a solved
    /// deal number the same moves and end with the same count).
    pub moves: usize,
    /// Stock turns of the win found (0 unless won), a turn that first
    /// turns the waste over into a new stock included.
    pub stock_turns: usize,
    pub nodes: u64,
    pub seconds: f64,
    pub policy_went_out: bool,
}

/// The stock rule the fixed policy plays by (RULES.md section 4, the
/// exercise's: draw 1, one pass), on the full deck: a solve under these
/// rules is the one whose verdicts the policy's results can be set
/// beside (what the policy leaves on the table of the same game).
pub const POLICY_RULES: FreePlayRules = FreePlayRules {
    draw: 1,
    passes: Passes::Limited(1),
    layout: Layout::FULL,
};

/// Solves `deal` with `solver` within `budget`, checks a win by replaying
/// it with the independent rules checker ([`check::verify`]), and plays
/// the fixed policy on it. Errors as [`Solver::solve`] does (a deal that
/// is not the layout's cards once each), and if a win does not replay (a
/// bug).
pub fn solve_deal(solver: &mut Solver, deal: &[Card], budget: &SolveBudget) -> Result<SolvedDeal> {
    let started = Instant::now();
    let solution = solver.solve(deal, budget)?;
    let seconds = started.elapsed().as_secs_f64();
    // Every win is replayed by the rules checker, written apart from the
    // solver (`check.rs`): a win it refuses is a bug, never a verdict.
    if solution.verdict == Verdict::Won {
        check::verify(&solver.rules(), deal, &solution.moves).map_err(|refused| {
            Error::Unexpected {
                message: format!(
                    "the solver's win does not replay under RULES.md section 7 ({refused}): a bug in deckodds; please report it with the deal"
                ),
            }
        })?;
    }
    // The policy plays the full deck only; a reduced layout has no policy
    // game, and the solver refused it above unless it is the full one.
    let policy_went_out = deal.len() == 52 && Klondike::standard().play(deal).went_out();
    Ok(SolvedDeal {
        verdict: solution.verdict,
        moves: solution.moves,
        nodes: solution.nodes,
        seconds,
        policy_went_out,
    })
}

/// The budget of `max_nodes` states and, if given, `max_time`.
pub fn budget(max_nodes: u64, max_time: Option<Duration>) -> SolveBudget {
    SolveBudget {
        max_nodes,
        max_time,
    }
}

/// The Monte-Carlo adapter: each trial shuffles the deck (sorted at the
/// start of every chunk, as `KlondikeSimulation` does: with the same plan,
/// the two deal the same games), solves it under the run's rules and
/// plays the fixed policy on it, and adds one to its verdict x policy bin
/// and one to its nodes bucket.
pub struct SolveSimulation {
    rules: FreePlayRules,
    budget: SolveBudget,
}

impl SolveSimulation {
    /// The simulation of `rules` (the full deck only: random deals are of
    /// 52 cards), each deal solved within `budget`.
    pub fn new(rules: FreePlayRules, budget: SolveBudget) -> Result<SolveSimulation> {
        if rules.layout != Layout::FULL {
            return Err(Error::invalid(
                "layout",
                format!("{} ranks, {} piles", rules.layout.ranks, rules.layout.piles),
                "random deals are of the full game: 13 ranks, 7 piles",
            ));
        }
        Ok(SolveSimulation { rules, budget })
    }

    /// The rules solved.
    pub fn rules(&self) -> FreePlayRules {
        self.rules
    }
}

/// A chunk's workspace: the deck, the solver (its memory reused from deal
/// to deal) and the last deal's summary, for a run that lists its deals.
pub struct SolveScratch {
    deck: [Card; 52],
    solver: Solver,
    last: Option<DealSummary>,
}

impl SolveScratch {
    /// The summary of the deal the last trial solved.
    pub fn last(&self) -> Option<DealSummary> {
        self.last
    }
}

impl Simulation for SolveSimulation {
    type Scratch = SolveScratch;

    fn n_bins(&self) -> usize {
        N_BINS
    }

    fn new_scratch(&self) -> SolveScratch {
        SolveScratch {
            deck: sorted_deck(),
            solver: Solver::new(self.rules),
            last: None,
        }
    }

    fn trial(&self, rng: &mut GameRng, scratch: &mut SolveScratch, counts: &mut [u64]) {
        shuffle(rng, &mut scratch.deck);
        // A shuffled full deck is always a deal of the full layout, which
        // `new` required: the solver has nothing to refuse.
        let solved = solve_deal(&mut scratch.solver, &scratch.deck, &self.budget)
            .expect("a shuffled full deck is a valid deal, and the solver's wins replay");
        let summary = solved.summary();
        add_to_tally(&summary, counts);
        scratch.last = Some(summary);
    }
}

/// Adds `deal` to `tally` (of [`N_BINS`] counters): one in its verdict x
/// policy bin, one in its nodes bucket.
pub fn add_to_tally(deal: &DealSummary, tally: &mut [u64]) {
    tally[cross_bin(deal.verdict, deal.policy_went_out)] += 1;
    tally[CROSS_BINS + node_bucket(deal.nodes)] += 1;
}

/// The bins in which every trial falls once (the verdict x policy bins):
/// noting them notes every deal.
pub const EVERY_DEAL: [usize; CROSS_BINS] = [0, 1, 2, 3, 4, 5];

/// A run's tally cut into what it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveCounts {
    /// Deals counted.
    pub deals: u64,
    /// Deals by verdict ([`VERDICTS`]' order) and policy
    /// ([`POLICY_OUTCOMES`]' order).
    pub cross: [[u64; 2]; 3],
    /// Deals by nodes bucket ([`node_bucket`]).
    pub nodes: [u64; NODE_BUCKETS],
}

impl SolveCounts {
    /// The counts of `tally` (of [`N_BINS`] counters). Errors if it is of
    /// another length, or if either range does not add up to the same
    /// number of deals (a corrupt count file), or on overflow.
    pub fn of(tally: &[u64]) -> Result<SolveCounts> {
        let corrupt =
            |why: String| Error::invalid("tally", format!("{} counters", tally.len()), why);
        if tally.len() != N_BINS {
            return Err(corrupt(format!("must hold {N_BINS} counters")));
        }
        let sum = |counts: &[u64]| {
            counts
                .iter()
                .try_fold(0u64, |sum, &count| sum.checked_add(count))
                .ok_or_else(|| corrupt("its counts overflow 64 bits".into()))
        };
        let deals = sum(&tally[..CROSS_BINS])?;
        let bucketed = sum(&tally[CROSS_BINS..])?;
        if bucketed != deals {
            return Err(corrupt(format!(
                "counts {deals} deals by verdict but {bucketed} by nodes"
            )));
        }
        let cross = std::array::from_fn(|v| std::array::from_fn(|p| tally[2 * v + p]));
        let nodes = std::array::from_fn(|b| tally[CROSS_BINS + b]);
        Ok(SolveCounts {
            deals,
            cross,
            nodes,
        })
    }

    /// Deals with `verdict`.
    pub fn with_verdict(&self, verdict: Verdict) -> u64 {
        let [went_out, stuck] = self.cross[verdict_index(verdict)];
        went_out + stuck
    }

    /// Deals on which the fixed policy went out.
    pub fn policy_went_out(&self) -> u64 {
        self.cross.iter().map(|row| row[0]).sum()
    }

    /// The winnable fraction, as [`Winnable::of`] estimates it.
    pub fn winnable(&self) -> Winnable {
        Winnable::of(
            self.with_verdict(Verdict::Won),
            self.with_verdict(Verdict::Lost),
            self.with_verdict(Verdict::Undecided),
        )
    }
}

/// The winnable fraction of the deals, with the undecided ones shown
/// rather than guessed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Winnable {
    /// Won over decided (won + lost): the fraction if the undecided deals
    /// are winnable as often as the decided ones; `None` when no deal was
    /// decided. Always within `bounds`.
    pub estimate: Option<f64>,
    /// The undecided deals counted both ways: `[won / n, (won +
    /// undecided) / n]`, which hold the true fraction of these deals.
    pub bounds: (f64, f64),
    /// A 95% interval that allows for the undecided deals whatever they
    /// are: the Wilson interval's lower end of `won / n` and upper end of
    /// `(won + undecided) / n` (with no undecided deal, the Wilson
    /// interval of `won / n`).
    pub ci95: Interval,
}

impl Winnable {
    /// The estimate of `won`, `lost` and `undecided` deals.
    pub fn of(won: u64, lost: u64, undecided: u64) -> Winnable {
        let n = won + lost + undecided;
        let decided = won + lost;
        let share = |count: u64| {
            if n == 0 { 0.0 } else { count as f64 / n as f64 }
        };
        Winnable {
            estimate: (decided > 0).then(|| won as f64 / decided as f64),
            bounds: (share(won), share(won + undecided)),
            ci95: Interval {
                low: wilson_interval(won, n, Z95).low,
                high: wilson_interval(won + undecided, n, Z95).high,
            },
        }
    }
}

/// The distribution of the verdicts of a tally (`verdict`: won, lost,
/// undecided): what `--until-halfwidth` watches and `merge` checks adds up
/// to the trials. Empty counts for a tally of another length.
pub fn verdict_distributions(tally: &[u64]) -> Vec<CountDistribution> {
    let counts = if tally.len() == N_BINS {
        (0..3).map(|v| tally[2 * v] + tally[2 * v + 1]).collect()
    } else {
        vec![0; 3]
    };
    vec![CountDistribution {
        key: "verdict".into(),
        outcomes: VERDICTS.iter().map(|(_, name)| name.to_string()).collect(),
        counts,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::montecarlo::{self, RunPlan};
    use crate::engine::{NoProgress, Simulation};
    use crate::games::klondike::free_play::Passes;

    #[test]
    fn node_buckets_are_bit_lengths_and_their_ranges_tile_the_line() {
        assert_eq!(node_bucket(0), 0);
        assert_eq!(node_bucket(1), 1);
        assert_eq!(node_bucket(2), 2);
        assert_eq!(node_bucket(3), 2);
        assert_eq!(node_bucket(4), 3);
        assert_eq!(node_bucket(u64::MAX), NODE_BUCKETS - 1);
        // Each bucket starts where the one before it ends, and each
        // range's ends fall in it.
        let mut next = 0;
        for bucket in 0..NODE_BUCKETS {
            let (low, high) = node_bucket_range(bucket);
            assert_eq!(low, next, "bucket {bucket}");
            assert_eq!(node_bucket(low), bucket);
            match high {
                Some(high) => {
                    assert_eq!(node_bucket(high), bucket);
                    next = high + 1;
                }
                None => assert_eq!(bucket, NODE_BUCKETS - 1),
            }
        }
    }

    #[test]
    fn cross_bins_are_distinct_and_fold_back_to_verdict_and_policy() {
        let mut seen = [false; CROSS_BINS];
        for (v, (verdict, _)) in VERDICTS.iter().enumerate() {
            for went_out in [true, false] {
                let bin = cross_bin(*verdict, went_out);
                assert!(!std::mem::replace(&mut seen[bin], true));
                let mut tally = [0; N_BINS];
                tally[bin] = 1;
                tally[CROSS_BINS] = 1;
                let counts = SolveCounts::of(&tally).unwrap();
                assert_eq!(counts.with_verdict(*verdict), 1);
                assert_eq!(counts.policy_went_out(), u64::from(went_out));
                assert_eq!(verdict_distributions(&tally)[0].counts[v], 1);
            }
        }
    }

    #[test]
    fn counts_refuse_a_tally_whose_ranges_disagree() {
        let mut tally = [0; N_BINS];
        tally[0] = 2;
        tally[CROSS_BINS] = 1;
        assert!(SolveCounts::of(&tally).is_err());
        assert!(SolveCounts::of(&tally[1..]).is_err());
        tally[0] = u64::MAX;
        tally[1] = 1;
        assert!(SolveCounts::of(&tally).is_err());
    }

    #[test]
    fn the_estimate_lies_within_the_bounds_and_the_interval_around_them() {
        for (won, lost, undecided) in [(80, 15, 5), (0, 10, 0), (10, 0, 0), (3, 0, 7), (0, 0, 4)] {
            let w = Winnable::of(won, lost, undecided);
            let n = (won + lost + undecided) as f64;
            assert_eq!(w.bounds, (won as f64 / n, (won + undecided) as f64 / n));
            assert!(w.ci95.low <= w.bounds.0 && w.bounds.1 <= w.ci95.high);
            match w.estimate {
                Some(p) => assert!(w.bounds.0 <= p && p <= w.bounds.1, "{w:?}"),
                None => assert_eq!(won + lost, 0),
            }
        }
        // With nothing undecided, the interval is Wilson's for won / n.
        let w = Winnable::of(80, 20, 0);
        assert_eq!(w.ci95, wilson_interval(80, 100, Z95));
        assert_eq!(w.estimate, Some(0.8));
    }

    fn rules() -> FreePlayRules {
        FreePlayRules::new(3, Passes::Unlimited, Layout::FULL).unwrap()
    }

    /// Whatever the solver answers, each trial lands once in each range,
    /// and a run's counts do not depend on the threads.
    #[test]
    fn every_trial_is_counted_once_in_each_range_on_any_number_of_threads() {
        let simulation = SolveSimulation::new(rules(), budget(2_000, None)).unwrap();
        let plan = RunPlan {
            chunk_size: 3,
            ..RunPlan::new(10, 7, 0)
        };
        let run = |threads| {
            montecarlo::with_threads(threads, || {
                montecarlo::run_chunks(&simulation, &plan, 0..plan.n_chunks(), &NoProgress)
            })
        };
        let tally = run(1);
        assert_eq!(tally, run(2));
        let counts = SolveCounts::of(&tally).unwrap();
        assert_eq!(counts.deals, 10);
        // The noted deals are every deal, numbered in order, and agree
        // with the tally.
        let mut noted = Vec::new();
        for chunk in 0..plan.n_chunks() {
            let (chunk_tally, deals) =
                montecarlo::run_chunk_noting(&simulation, &plan, chunk, &EVERY_DEAL, |s| s.last());
            assert_eq!(
                chunk_tally,
                montecarlo::run_chunks(&simulation, &plan, chunk..chunk + 1, &NoProgress)
            );
            noted.extend(deals);
        }
        let numbers: Vec<u64> = noted.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, (0..10).collect::<Vec<_>>());
        for (verdict, _) in VERDICTS {
            let listed = noted
                .iter()
                .filter(|(_, d)| d.map(|d| d.verdict) == Some(verdict))
                .count() as u64;
            assert_eq!(listed, counts.with_verdict(verdict), "{verdict:?}");
        }
    }

    /// The policy's half of each bin is the section 4 game's own verdict
    /// on the same deal: under the same plan the two deal the same games.
    #[test]
    fn the_policy_counts_are_those_of_the_fixed_policy_on_the_same_deals() {
        let simulation = SolveSimulation::new(rules(), budget(1_000, None)).unwrap();
        let plan = RunPlan::new(300, 11, 0);
        let tally = montecarlo::run_chunks(&simulation, &plan, 0..plan.n_chunks(), &NoProgress);
        let policy = crate::games::klondike::KlondikeSimulation::new(Klondike::standard());
        let games = montecarlo::run_chunks(&policy, &plan, 0..plan.n_chunks(), &NoProgress);
        assert_eq!(
            SolveCounts::of(&tally).unwrap().policy_went_out(),
            games[52]
        );
        assert_eq!(simulation.n_bins(), N_BINS);
    }

    #[test]
    fn a_reduced_layout_is_refused_for_random_deals() {
        let small = FreePlayRules::new(1, Passes::Limited(1), Layout::new(3, 2).unwrap()).unwrap();
        assert!(SolveSimulation::new(small, budget(10, None)).is_err());
    }
}
