//! `deckodds blackjack player`, `strategy` and `house-edge`: the player's
//! half of blackjack (RULES.md section 6), from the rule options to the
//! engine's tables and their reports.

use std::any::Any;

use num_rational::BigRational;

use super::context::Context;
use super::output::{Outputs, output_format};
use crate::cli::{
    LevelArgs, OutputArgs, PlayerCommand, PlayerSolveArgs, PlayerSubcommand, SamplingArgs,
};
use crate::error::{Error, Result};
use crate::games::blackjack::Decks;
use crate::games::blackjack::player::house_edge::{
    EFFECT_FROM_BASE_PROGRESS_UNITS, EFFECT_PROGRESS_UNITS, effect_of_removal,
    effect_of_removal_from,
};
use crate::games::blackjack::player::number::Number;
use crate::games::blackjack::player::solve::PROGRESS_UNITS;
use crate::games::blackjack::player::{PlayerParams, PlayerTable, hand_name, solve};
use crate::report::player::{
    HandSelection, HouseEdgeReport, render_house_edge, render_player_values,
};

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
    }
}

/// The rule options as the engine's parameters, checked before any work.
fn player_params(solve: &PlayerSolveArgs) -> Result<PlayerParams> {
    Ok(PlayerParams {
        rules: solve.rules.rules()?,
        split_model: solve.split_model,
        removed: Vec::new(),
    })
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
    let _params = player_params(solve)?;
    let _outputs = output_format(output, VALUE_DECIMALS)?;
    let _ = context;
    // LEAD GLUE: strategy_chart + render_strategy_chart
    Err(Error::invalid(
        "blackjack strategy",
        "(not built in)",
        "the strategy chart is not wired into this build yet",
    ))
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
    let _params = player_params(solve)?;
    let _outputs = output_format(output, VALUE_DECIMALS)?;
    let _ = (sampling, level, context);
    // LEAD GLUE: RoundSimulation::new(&table) through Context::sample (as
    // blackjack.rs's monte_carlo_counts: plan RunPlan::new(trials, seed, 0),
    // units_per_trial 1, unit "rounds", NET_BINS bins), then
    // RoundSummary::from_counts and compare::mean_agreement against
    // table.overall at level.level, emitted as a comparison with
    // context.verdict.
    Err(Error::invalid(
        "blackjack player compare",
        "(not built in)",
        "the Monte-Carlo round is not wired into this build yet",
    ))
}
