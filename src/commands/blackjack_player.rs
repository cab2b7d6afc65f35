//! `deckodds blackjack player` (and `player compare`), `strategy`,
//! `house-edge` and `house-edge-grid`: the player's
//! half of blackjack (RULES.md section 6), from the rule options to the
//! engine's tables and their reports.

use std::any::Any;

use num_rational::BigRational;

use super::context::Context;
use super::output::{Outputs, output_format};
use super::sampling::Sampling;
use crate::cli::{
    LevelArgs, OutputArgs, PlayerCommand, PlayerSolveArgs, PlayerSubcommand, SamplingArgs,
    TableSubcommand,
};
use crate::compare::mean_agreement;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::{Error, Result};
use crate::games::blackjack::Decks;
use crate::games::blackjack::player::chart::strategy_chart;
use crate::games::blackjack::player::grid::{
    grid_progress_units, overall_values, publication_grid,
};
use crate::games::blackjack::player::house_edge::{
    EFFECT_FROM_BASE_PROGRESS_UNITS, EFFECT_PROGRESS_UNITS, effect_of_removal,
    effect_of_removal_from,
};
use crate::games::blackjack::player::number::Number;
use crate::games::blackjack::player::round::{RoundSimulation, RoundSummary, net_distribution};
use crate::games::blackjack::player::solve::PROGRESS_UNITS;
use crate::games::blackjack::player::{PlayerParams, PlayerTable, SplitModel, hand_name, solve};
use crate::games::registry::BLACKJACK_PLAYER_REPORT;
use crate::report::player::{
    HandSelection, HouseEdgeReport, RoundComparisonReport, render_house_edge,
    render_house_edge_grid, render_player_values, render_round_comparison,
};
use crate::report::strategy_chart::render_strategy_chart;

/// Decimals of values (and of percentages) in the table, md and latex
/// output, unless `--digits` says otherwise: enough to tell apart actions
/// whose values differ by a hundredth of a percent of the bet.
const VALUE_DECIMALS: usize = 4;

/// Runs a player command. Errors name parameters as the library does; the
/// caller (`blackjack::run`) names the flags.
pub(super) fn run_command(command: PlayerCommand, context: &Context) -> Result<()> {
    match command {
        PlayerCommand::Values {
            solve,
            hand,
            upcard,
            output,
            command: None,
        } => values(&solve, HandSelection { hand, upcard }, &output, context),
        PlayerCommand::Values {
            command: Some(subcommand),
            ..
        } => match *subcommand {
            PlayerSubcommand::Compare {
                solve,
                sampling,
                level,
                output,
            } => compare(&solve, &sampling, &level, &output, context),
        },
        PlayerCommand::Strategy { solve, output } => strategy(&solve, &output, context),
        PlayerCommand::HouseEdge {
            solve,
            exact_eor,
            output,
        } => house_edge(&solve, exact_eor, &output, context),
        PlayerCommand::HouseEdgeGrid {
            split_model,
            float,
            output,
        } => house_edge_grid(split_model, float, &output, context),
        PlayerCommand::CutCardEffect {
            penetration,
            sampling,
            output,
        } => super::blackjack_table::cut_card_effect(penetration, &sampling, &output, context),
        PlayerCommand::Indices(args) => super::blackjack_indices::run(&args, context),
        PlayerCommand::Counts(args) => super::blackjack_counts::counts(&args, context),
        PlayerCommand::CountDistribution(args) => {
            super::blackjack_counts::count_distribution(&args, context)
        }
        PlayerCommand::Table {
            table,
            sampling,
            output,
            command: None,
        } => super::blackjack_table::run(&table, &sampling, &output, context),
        PlayerCommand::Table {
            command: Some(subcommand),
            ..
        } => match *subcommand {
            TableSubcommand::Compare {
                table,
                sampling,
                published,
                level,
                output,
            } => super::blackjack_table::compare(
                &table,
                &sampling,
                published.as_deref(),
                level.level,
                &output,
                context,
            ),
        },
    }
}

/// The rule options as the engine's parameters, checked before any work.
fn player_params(solve: &PlayerSolveArgs) -> Result<PlayerParams> {
    Ok(PlayerParams::full_shoe(
        solve.rules.rules()?,
        solve.split_model,
    ))
}

/// Solves `params` in `T` on the pool of `--threads`, with a progress bar
/// (one unit per upcard).
fn solve_table<T: Number>(params: &PlayerParams, context: &Context) -> Result<PlayerTable<T>> {
    let progress = context.progress(PROGRESS_UNITS, "solving", "upcards");
    context.with_threads(|| solve::<T>(params, &progress))?
}

fn values(
    solve: &PlayerSolveArgs,
    selection: HandSelection,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = player_params(solve)?;
    if let (Some((first, second)), None) = (selection.hand, selection.upcard) {
        return Err(Error::invalid(
            "hand",
            hand_name(first, second),
            "needs --upcard too (the dealer's upcard: A, 2..9 or T); --upcard alone shows every hand against it",
        ));
    }
    let outputs = output_format(output, VALUE_DECIMALS)?;
    if solve.float {
        values_in::<f64>(&params, selection, &outputs, context)
    } else {
        values_in::<BigRational>(&params, selection, &outputs, context)
    }
}

fn values_in<T: Number>(
    params: &PlayerParams,
    selection: HandSelection,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let table = solve_table::<T>(params, context)?;
    outputs.emit(context, |format, options| {
        render_player_values(&table, selection, format, options)
    })
}

fn house_edge(
    solve: &PlayerSolveArgs,
    exact_eor: bool,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = player_params(solve)?;
    let outputs = output_format(output, VALUE_DECIMALS)?;
    match (solve.float, exact_eor) {
        (true, _) => house_edge_in::<f64, f64>(&params, &outputs, context),
        (false, true) => house_edge_in::<BigRational, BigRational>(&params, &outputs, context),
        (false, false) => house_edge_in::<BigRational, f64>(&params, &outputs, context),
    }
}

/// The house edge in `T` and its effects of removal in `U`.
fn house_edge_in<T: Number, U: Number>(
    params: &PlayerParams,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let finite = params.rules.decks != Decks::Infinite;
    // With one kind of number the round's value is the effects' base, and
    // is not solved twice.
    let same_number = (&T::zero() as &dyn Any).is::<U>();
    let effect_units = match (finite, same_number) {
        (false, _) => 0,
        (true, true) => EFFECT_FROM_BASE_PROGRESS_UNITS,
        (true, false) => EFFECT_PROGRESS_UNITS,
    };
    let progress = context.progress(PROGRESS_UNITS + effect_units, "solving", "upcards");
    let (table, effects) = context.with_threads(|| -> Result<_> {
        let table = solve::<T>(params, &progress)?;
        if !finite {
            return Ok((table, None));
        }
        let base = (&table.overall as &dyn Any).downcast_ref::<U>().cloned();
        let effects = match base {
            Some(base) => effect_of_removal_from::<U>(params, base, &progress)?,
            None => effect_of_removal::<U>(params, &progress)?,
        };
        Ok((table, Some(effects)))
    })??;
    drop(progress);
    let notes = if finite {
        Vec::new()
    } else {
        vec![
            "No effect of removal for an infinite deck: taking a card out of it changes nothing."
                .to_string(),
        ]
    };
    let report = HouseEdgeReport {
        params,
        overall: &table.overall,
        insurance: table.insurance.as_ref(),
        effects: effects.as_ref(),
        notes,
    };
    outputs.emit(context, |format, options| {
        render_house_edge(&report, format, options)
    })
}

/// `blackjack strategy`: the basic-strategy chart.
fn strategy(solve: &PlayerSolveArgs, output: &OutputArgs, context: &Context) -> Result<()> {
    let params = player_params(solve)?;
    let outputs = output_format(output, VALUE_DECIMALS)?;
    let chart = if solve.float {
        strategy_chart(&solve_table::<f64>(&params, context)?)?
    } else {
        strategy_chart(&solve_table::<BigRational>(&params, context)?)?
    };
    outputs.emit(context, |format, _| {
        render_strategy_chart(&chart, BLACKJACK_PLAYER_REPORT, format)
    })
}

/// `blackjack player compare`: Monte-Carlo rounds against the exact
/// overall value.
fn compare(
    solve: &PlayerSolveArgs,
    sampling: &SamplingArgs,
    level: &LevelArgs,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = player_params(solve)?;
    // Refused before the solve, which takes a minute for six decks: the
    // rounds could only estimate a cdz table's value (the engine refuses
    // the others too, but only once it has the solved table).
    if params.split_model != SplitModel::Cdz {
        return Err(Error::invalid(
            "--split-model",
            params.split_model.name(),
            "blackjack player compare plays split hands as cdz does, so it checks a cdz solve only: leave --split-model out (a cdp or cdp1 value is `blackjack house-edge --split-model ...`)",
        ));
    }
    let outputs = output_format(output, VALUE_DECIMALS)?;
    if solve.float {
        compare_in::<f64>(&params, sampling, level.level, &outputs, context)
    } else {
        compare_in::<BigRational>(&params, sampling, level.level, &outputs, context)
    }
}

fn compare_in<T: Number>(
    params: &PlayerParams,
    sampling: &SamplingArgs,
    level: f64,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let table = solve_table::<T>(params, context)?;
    // The rounds play the table's own decisions, so their mean estimates
    // exactly `table.overall`.
    let simulation = RoundSimulation::new(&table)?;
    let seed = sampling.seed;
    let sampled = context.sample(
        &Sampling {
            plan: RunPlan::new(sampling.trials, seed, 0),
            units_per_trial: 1,
            message: "rounds",
            unit: "rounds",
            outcomes: &|tally| vec![net_distribution(tally.to_vec())],
            consistent: None,
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress)),
    )?;
    let summary = RoundSummary::from_counts(&sampled.tally)?;
    let agreement = mean_agreement(
        summary.mean,
        summary.standard_error,
        table.overall.to_f64(),
        level,
    )?;
    let report = RoundComparisonReport {
        params,
        exact: &table.overall,
        summary,
        agreement,
        seed,
        net: net_distribution(sampled.tally),
    };
    outputs.emit(context, |format, options| {
        render_round_comparison(&report, format, options)
    })?;
    context.verdict(agreement.agrees);
    Ok(())
}

/// `blackjack house-edge-grid`: the round's value under every rule set of
/// the publication grid.
fn house_edge_grid(
    split_model: SplitModel,
    float: bool,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let outputs = output_format(output, VALUE_DECIMALS)?;
    if float {
        house_edge_grid_in::<f64>(split_model, &outputs, context)
    } else {
        house_edge_grid_in::<BigRational>(split_model, &outputs, context)
    }
}

fn house_edge_grid_in<T: Number>(
    split_model: SplitModel,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let rule_sets = publication_grid();
    let progress = context.progress(grid_progress_units(rule_sets.len()), "solving", "upcards");
    let rows =
        context.with_threads(|| overall_values::<T>(&rule_sets, split_model, &progress))??;
    drop(progress);
    outputs.emit(context, |format, options| {
        render_house_edge_grid(&rows, split_model, format, options)
    })
}
