//! `deckodds blackjack indices`: index plays for a counting system
//! (RULES.md section 6, "Index plays"), from the options to the finder and
//! its report.

use super::context::Context;
use super::output::output_format;
use crate::cli::{DecisionSet, IndicesArgs};
use crate::error::{Error, Result};
use crate::games::blackjack::player::chart::strategy_chart;
use crate::games::blackjack::player::solve::PROGRESS_UNITS;
use crate::games::blackjack::player::{PlayerParams, SplitModel, solve};
use crate::games::blackjack::table::indices::{
    self, Decision, IndexFinder, IndexParams, PrecisionRun, lists,
};
use crate::games::blackjack::table::{ChartStrategy, Dealing};
use crate::report::indices::{IndicesReport, render_indices};

/// How far an index run goes: `blackjack indices`' options, or their
/// defaults for `blackjack table --indices generated`.
pub(super) struct Precision {
    pub pilot_shoes: u64,
    pub precision: f64,
    pub max_shoes: u64,
}

impl Precision {
    /// `blackjack indices`' defaults.
    pub(super) const DEFAULT: Precision = Precision {
        pilot_shoes: indices::DEFAULT_PILOT_SHOES,
        precision: indices::DEFAULT_PRECISION,
        max_shoes: indices::DEFAULT_MAX_SHOES,
    };
}

/// Runs `finder` to `precision`, with a progress bar of shoes.
pub(super) fn find(
    finder: &IndexFinder,
    precision: &Precision,
    context: &Context,
) -> Result<PrecisionRun> {
    let progress = context.progress(precision.max_shoes, "finding indices", "shoes");
    let run = context.with_threads(|| {
        finder.to_precision(
            precision.pilot_shoes,
            precision.precision,
            precision.max_shoes,
            &progress,
        )
    })?;
    drop(progress);
    Ok(run)
}

/// Finds the indices and writes the report.
pub(super) fn run(args: &IndicesArgs, context: &Context) -> Result<()> {
    let rules = args.rules.rules()?;
    let shoe = rules.shoe();
    if args.pilot_shoes > args.max_shoes {
        return Err(Error::invalid(
            "pilot_shoes",
            args.pilot_shoes,
            format!("at most --max-shoes ({})", args.max_shoes),
        ));
    }
    let dealing = Dealing::cut_card(args.penetration, shoe.total())?;
    let outputs = output_format(&args.output, 3)?;
    let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
    let progress = context.progress(PROGRESS_UNITS, "solving", "upcards");
    let solved = context.with_threads(|| solve::<f64>(&params, &progress))??;
    drop(progress);
    let chart = ChartStrategy::from_chart(&strategy_chart(&solved)?)?;
    let decisions = match args.decisions {
        DecisionSet::Lists => lists::decisions(),
        DecisionSet::All => Decision::all(),
    };
    let finder = IndexFinder::new(
        IndexParams {
            rules,
            tags: args.count.tags,
            dealing,
            decisions,
            seed: args.seed,
        },
        &chart,
    )?;
    let run = find(
        &finder,
        &Precision {
            pilot_shoes: args.pilot_shoes,
            precision: args.precision,
            max_shoes: args.max_shoes,
        },
        context,
    )?;
    let report = IndicesReport {
        params: &params,
        count: &args.count,
        dealing,
        precision: args.precision,
        max_shoes: args.max_shoes,
        seed: args.seed,
        run: &run,
    };
    outputs.emit(context, |format, options| {
        render_indices(&report, format, options)
    })
}
