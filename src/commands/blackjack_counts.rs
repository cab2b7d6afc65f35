//! `deckodds blackjack counts` and `count-distribution`: counting systems
//! analysed exactly, and the count after k cards exactly beside a
//! simulated deal (issue 46), from the options to the engine's results and
//! their reports.

use super::context::Context;
use super::output::output_format;
use crate::cli::{CountDistributionArgs, CountsArgs};
use crate::compare::goodness_of_fit;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::Result;
use crate::games::blackjack::Decks;
use crate::games::blackjack::player::{PlayerParams, SplitModel};
use crate::games::blackjack::table::CountSystem;
use crate::games::blackjack::table::count_analysis::{
    ANALYSIS_PROGRESS_UNITS, CountAnalysisParams, CountDepth, PlayingEfficiencyParams,
    RunningCountSimulation, analyse_systems, running_count_distribution,
};
use crate::report::count_systems::{
    CountDistributionReport, render_count_distribution, render_count_systems,
};

/// Decimals of percentages in the distribution's tables unless `--digits`
/// says otherwise.
const PERCENT_DECIMALS: usize = 3;

/// Decimals `blackjack counts` passes on (its figures print three).
const FIGURE_DECIMALS: usize = 3;

/// `blackjack counts`: every built-in system, then those of `--count`
/// (a built-in named again is not repeated).
pub(super) fn counts(args: &CountsArgs, context: &Context) -> Result<()> {
    context.refuse_parts("blackjack counts")?;
    let rules = args.rules.rules()?;
    // Half the shoe unless told otherwise (an infinite deck is refused by
    // the analysis, whatever the depth).
    let half_shoe = match rules.decks {
        Decks::Finite(decks) => 26 * decks,
        Decks::Infinite => 26,
    };
    let params = CountAnalysisParams {
        player: PlayerParams::full_shoe(rules, SplitModel::Cdz),
        depth: PlayingEfficiencyParams {
            cards_seen: args.cards_seen.unwrap_or(half_shoe),
        },
    };
    let outputs = output_format(&args.output, FIGURE_DECIMALS)?;
    let mut systems: Vec<CountSystem> = CountSystem::names()
        .iter()
        .filter_map(|name| CountSystem::parse(name).ok())
        .collect();
    for system in &args.count {
        if !systems.contains(system) {
            systems.push(system.clone());
        }
    }
    let progress = context.progress(ANALYSIS_PROGRESS_UNITS, "solving", "upcards");
    let analysis = context.with_threads(|| analyse_systems(&systems, &params, &progress))??;
    drop(progress);
    outputs.emit(context, |format, options| {
        render_count_systems(&analysis, format, options)
    })
}

/// `blackjack count-distribution`: the exact distribution after `--after`
/// cards, a simulated deal of `--trials` shoes, and their chi-square tests.
pub(super) fn count_distribution(args: &CountDistributionArgs, context: &Context) -> Result<()> {
    context.refuse_parts("blackjack count-distribution")?;
    let after = args.after.unwrap_or(26 * args.decks);
    let depth = CountDepth::new(args.count.clone(), args.decks, after)?;
    let outputs = output_format(&args.output, PERCENT_DECIMALS)?;
    let exact = running_count_distribution(&depth);
    let simulation = RunningCountSimulation::new(&depth);
    let plan = RunPlan::new(args.trials, args.seed, 0);
    let progress = context.progress(args.trials, "dealing", "deals");
    let histogram = context.with_threads(|| montecarlo::run(&simulation, &plan, &progress))?;
    drop(progress);
    let simulated = simulation.counts(histogram);
    let running_exact = exact.running_exact();
    let running_simulated = exact.running_counts_of(&simulated)?;
    let true_exact = exact.true_count_exact();
    let true_simulated = exact.true_counts_of(&simulated);
    let running_agreement = goodness_of_fit(&running_exact, &running_simulated, args.level)?;
    let true_count_agreement = goodness_of_fit(&true_exact, &true_simulated, args.level)?;
    let report = CountDistributionReport {
        exact: &exact,
        running: (&running_exact, &running_simulated),
        true_count: (&true_exact, &true_simulated),
        running_agreement: &running_agreement,
        true_count_agreement: &true_count_agreement,
        seed: args.seed,
    };
    outputs.emit(context, |format, options| {
        render_count_distribution(&report, format, options)
    })?;
    context.verdict(
        running_agreement.p_value >= args.level && true_count_agreement.p_value >= args.level,
    );
    Ok(())
}
