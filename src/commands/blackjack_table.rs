//! `deckodds blackjack table` and `table compare`: rounds at the table
//! (RULES.md section 6, "At the table"), from the options to the
//! simulation and its report.

use std::path::Path;

use super::blackjack_indices::{self, Precision};
use super::context::Context;
use super::files::read_user_text;
use super::output::output_format;
use super::sampling::Sampling;
use crate::cli::{IndexSource, SamplingArgs, TableArgs, TableStrategy};
use crate::compare::mean_agreement;
use crate::distribution::CountDistribution;
use crate::engine::NoProgress;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::{Error, Result};
use crate::games::blackjack::N_VALUES;
use crate::games::blackjack::player::chart::strategy_chart;
use crate::games::blackjack::player::solve::PROGRESS_UNITS;
use crate::games::blackjack::player::{PlayerParams, PlayerRules, PlayerTable, SplitModel, solve};
use crate::games::blackjack::table::grid::cut_card_grid;
use crate::games::blackjack::table::indices::{IndexFinder, IndexParams, lists};
use crate::games::blackjack::table::{
    BetLimits, BetRamp, BettingPlan, BettingSummary, ChartStrategy, ClaimCheck, Dealing,
    IndexPlays, PublishedClaim, TableSimulation, TableSummary, TripPlan, TripRisk, TripSimulation,
    Wonging,
};
use crate::report::blackjack_table::{
    BettingReport, CutCardReport, CutCardRow, TableComparison, TableReport, render_cut_card_effect,
    render_table_run,
};

/// Decimals of percentages in the table, md and latex output, unless
/// `--digits` says otherwise.
const PERCENT_DECIMALS: usize = 3;

/// A table ready to deal: its simulation, the solved table of its rules
/// (the exact value off the top, in f64), the strategy's name, and where
/// its index plays came from.
struct Table {
    params: PlayerParams,
    simulation: TableSimulation,
    solved: PlayerTable<f64>,
    strategy: String,
    index_source: Option<String>,
}

/// Builds the table the options describe: the rules, the dealing, the
/// strategy (the f64 solve's decisions, its chart, or a chart file), the
/// count, the bets and the index plays (read, or found first with `seed`).
fn table(args: &TableArgs, seed: u64, context: &Context) -> Result<Table> {
    let rules = args.rules.rules()?;
    let shoe = rules.shoe();
    if shoe.infinite {
        return Err(Error::invalid(
            "decks",
            "inf",
            "a table deals a finite shoe of 1..=8 decks (an infinite deck has no cut card: use \
             `blackjack player compare` for rounds off the top)",
        ));
    }
    let cards = shoe.total();
    let dealing = match args.rounds_per_shoe {
        Some(rounds) => Dealing::rounds_per_shoe(rounds, cards)?,
        None => Dealing::cut_card(args.penetration, cards)?,
    };
    // A chart file and an index file are read before the solve, so that a
    // bad file fails at once.
    let strategy_choice = args.strategy();
    let chart_file = match &strategy_choice {
        TableStrategy::Chart(path) => Some((path, read_chart(path)?)),
        _ => None,
    };
    let index_file = match &args.indices {
        Some(IndexSource::File(path)) => Some((path, read_indices(path)?)),
        _ => None,
    };
    if args.indices.is_some() && strategy_choice == TableStrategy::CompositionDependent {
        return Err(Error::invalid(
            "strategy",
            "cd",
            "index plays are made on a chart: use --strategy basic (the default with \
             --indices) or a chart file",
        ));
    }
    let betting = betting_plan(args)?;
    let tags = args.count.as_ref().map(|count| count.tags);
    let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
    let progress = context.progress(PROGRESS_UNITS, "solving", "upcards");
    let solved = context.with_threads(|| solve::<f64>(&params, &progress))??;
    drop(progress);
    let (simulation, chart, strategy) = match (&strategy_choice, chart_file) {
        (_, Some((path, chart))) => (
            TableSimulation::with_chart(rules, &chart, dealing, tags)?,
            Some(chart),
            format!("chart {}", path.display()),
        ),
        (TableStrategy::Basic, None) => {
            let chart = ChartStrategy::from_chart(&strategy_chart(&solved)?)?;
            (
                TableSimulation::with_chart(rules, &chart, dealing, tags)?,
                Some(chart),
                "basic".to_string(),
            )
        }
        _ => (
            TableSimulation::with_table(&solved, dealing, tags)?,
            None,
            "cd".to_string(),
        ),
    };
    let mut simulation = simulation.with_true_count_method(args.true_count_method());
    let mut index_source = None;
    if let (Some(source), Some(chart), Some(count)) = (&args.indices, &chart, &args.count) {
        let plays = match (source, index_file) {
            (_, Some((path, plays))) => {
                index_source = Some(path.display().to_string());
                plays
            }
            _ => {
                index_source = Some("generated".to_string());
                generated_plays(rules, count.tags, dealing, chart, seed, context)?
            }
        };
        simulation = simulation.with_index_plays(plays, chart)?;
    }
    let simulation = match betting {
        Some(plan) => simulation.with_betting(plan)?,
        None => simulation,
    };
    Ok(Table {
        params,
        simulation,
        solved,
        strategy,
        index_source,
    })
}

/// `--indices generated`: the Illustrious 18 and Fab 4 indices of the
/// table's rules, count and cut card, found on `chart` as `blackjack
/// indices` finds them by default (its seed the table's).
fn generated_plays(
    rules: PlayerRules,
    tags: [i8; N_VALUES],
    dealing: Dealing,
    chart: &ChartStrategy,
    seed: u64,
    context: &Context,
) -> Result<IndexPlays> {
    let finder = IndexFinder::new(
        IndexParams {
            rules,
            tags,
            dealing,
            decisions: lists::decisions(),
            seed,
        },
        chart,
    )?;
    let run = blackjack_indices::find(&finder, &Precision::DEFAULT, context)?;
    IndexPlays::from_found(&run.decisions)
}

/// Reads an `--indices` file: one line naming the file, and the line and
/// column in it, when it is not an index file.
fn read_indices(path: &Path) -> Result<IndexPlays> {
    let text = read_user_text(
        path,
        "an index file (CSV: section,row,upcard,deviation,direction,index)",
    )?;
    IndexPlays::parse_csv(&text).map_err(|error| Error::BadInputFile {
        path: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// The index plays of a table, and where they came from, for its report.
fn index_plays(table: &Table) -> Option<(&IndexPlays, String)> {
    let plays = table.simulation.index_plays()?;
    Some((plays, table.index_source.clone().unwrap_or_default()))
}

/// Reads a `--strategy` chart file: one line naming the file, and the line
/// and column in it, when it is not a chart.
fn read_chart(path: &Path) -> Result<ChartStrategy> {
    let text = read_user_text(
        path,
        "a strategy chart (CSV: a row per hand, a column per upcard)",
    )?;
    ChartStrategy::parse_csv(&text).map_err(|error| Error::BadInputFile {
        path: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// The betting plan of the options: the ramp (inline or from its file,
/// read before any work), held within the table's limits, and wonging;
/// `None` without a ramp.
fn betting_plan(args: &TableArgs) -> Result<Option<BettingPlan>> {
    let betting = &args.betting;
    let ramp = match (&betting.bet_ramp, &betting.bet_ramp_file) {
        (Some(ramp), _) => ramp.clone(),
        (None, Some(path)) => read_ramp(path)?,
        (None, None) => return Ok(None),
    };
    let limits = BetLimits::new(betting.min_bet, betting.max_bet)?;
    if let Some(trip_rounds) = betting.trip_rounds {
        TripPlan::new(trip_rounds, betting.bankroll.unwrap_or(0))?;
    }
    Ok(Some(BettingPlan {
        ramp: ramp.clamped(limits),
        wonging: Wonging {
            enter_at: betting.wong_in,
            leave_below: betting.wong_out,
        },
    }))
}

/// Reads a `--bet-ramp-file`: one line naming the file and the line in
/// it, when it is not a ramp.
fn read_ramp(path: &Path) -> Result<BetRamp> {
    let text = read_user_text(path, "a bet ramp (CSV: true_count,bet lines)")?;
    BetRamp::parse_csv(&text).map_err(|message| Error::BadInputFile {
        path: path.to_path_buf(),
        message,
    })
}

/// Reads a `--published` claim file.
fn read_claim(path: &Path) -> Result<PublishedClaim> {
    let text = read_user_text(path, "a published claim (`key = value` lines)")?;
    PublishedClaim::parse(&text).map_err(|error| Error::BadInputFile {
        path: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// A table run's figures: the flat ones, and with a ramp the money.
struct Dealt {
    summary: TableSummary,
    betting: Option<BettingReport>,
}

/// Deals the table's shoes (about `--trials` rounds) through the runner:
/// threads, shards, checkpoints and merges as for every sampling run;
/// with a ramp, its money, and with `--trip-rounds` the trips (a second
/// sampling run, on stream 1).
fn deal(
    table: &Table,
    args: &TableArgs,
    sampling: &SamplingArgs,
    context: &Context,
) -> Result<Dealt> {
    let (summary, tally) = deal_stream(&table.simulation, sampling, 0, context)?;
    let Some(plan) = table.simulation.betting() else {
        return Ok(Dealt {
            summary,
            betting: None,
        });
    };
    let money = BettingSummary::from_tally(&table.simulation.layout(), &tally, plan)?;
    let bankroll = args.betting.bankroll;
    let trip = match (args.betting.trip_rounds, bankroll) {
        (Some(rounds), Some(bankroll)) => Some(trips(
            &table.simulation,
            TripPlan::new(rounds, bankroll)?,
            args.betting.trips,
            sampling,
            context,
        )?),
        _ => None,
    };
    Ok(Dealt {
        summary,
        betting: Some(BettingReport {
            summary: money,
            bankroll,
            trip,
        }),
    })
}

/// Simulates `n_trips` trips of `trip` at the table, on stream 1 of the
/// seed (the table run has stream 0).
fn trips(
    simulation: &TableSimulation,
    trip: TripPlan,
    n_trips: u64,
    sampling: &SamplingArgs,
    context: &Context,
) -> Result<TripRisk> {
    let trips = TripSimulation::new(simulation, trip)?;
    let plan = RunPlan {
        n_trials: n_trips,
        seed: sampling.seed,
        stream: 1,
        chunk_size: trips.trips_per_chunk(),
    };
    let outcomes = |tally: &[u64]| {
        vec![CountDistribution {
            key: "trips".into(),
            outcomes: vec!["kept some bankroll".into(), "ruined".into()],
            counts: tally.to_vec(),
        }]
    };
    let sampled = context.sample(
        &Sampling {
            plan,
            units_per_trial: 1,
            message: "trips",
            unit: "trips",
            outcomes: &outcomes,
            consistent: None,
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(&trips, plan, chunks, progress)),
    )?;
    Ok(TripRisk::from_tally(trip, &sampled.tally))
}

/// Deals any simulation on stream `stream` of the seed: its summary and
/// its tally.
fn deal_stream(
    simulation: &TableSimulation,
    sampling: &SamplingArgs,
    stream: u64,
    context: &Context,
) -> Result<(TableSummary, Vec<u64>)> {
    let layout = simulation.layout();
    let plan = RunPlan {
        n_trials: simulation.shoes_for_rounds(sampling.trials),
        seed: sampling.seed,
        stream,
        chunk_size: simulation.shoes_per_chunk(),
    };
    // `merge` checks that every shoe is counted once: in the rounds per
    // shoe.
    let shoes = move |tally: &[u64]| {
        let counts = layout.rounds_per_shoe(tally).to_vec();
        vec![CountDistribution {
            key: "rounds per shoe".into(),
            outcomes: (0..counts.len()).map(|rounds| rounds.to_string()).collect(),
            counts,
        }]
    };
    // ... and that its other tallies count the rounds those shoes hold.
    let consistent = move |tally: &[u64]| layout.check_consistent(tally);
    let sampled = context.sample(
        &Sampling {
            plan,
            units_per_trial: 1,
            message: "dealing",
            unit: "shoes",
            outcomes: &shoes,
            consistent: Some(&consistent),
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(simulation, plan, chunks, progress)),
    )?;
    let summary = TableSummary::from_tally(&layout, &sampled.tally)?;
    Ok((summary, sampled.tally))
}

/// `blackjack table`.
pub(super) fn run(
    args: &TableArgs,
    sampling: &SamplingArgs,
    output: &crate::cli::OutputArgs,
    context: &Context,
) -> Result<()> {
    let outputs = output_format(output, PERCENT_DECIMALS)?;
    let table = table(args, sampling.seed, context)?;
    let Dealt { summary, betting } = deal(&table, args, sampling, context)?;
    let report = TableReport {
        params: &table.params,
        dealing: table.simulation.dealing(),
        strategy: table.strategy.clone(),
        count: args.count.as_ref(),
        true_count_method: table.simulation.true_count_method(),
        seed: sampling.seed,
        summary: &summary,
        betting: betting.as_ref(),
        index_plays: index_plays(&table),
        comparison: None,
    };
    outputs.emit(context, |format, options| {
        render_table_run(&report, format, options)
    })
}

/// `blackjack table compare`.
pub(super) fn compare(
    args: &TableArgs,
    sampling: &SamplingArgs,
    published: Option<&Path>,
    level: f64,
    output: &crate::cli::OutputArgs,
    context: &Context,
) -> Result<()> {
    let outputs = output_format(output, PERCENT_DECIMALS)?;
    // A bad claim file fails before any work.
    let claim = published.map(read_claim).transpose()?;
    let table = table(args, sampling.seed, context)?;
    let Dealt { summary, betting } = deal(&table, args, sampling, context)?;
    let exact = table.solved.overall;
    let agreement = mean_agreement(summary.mean, summary.standard_error, exact, level)?;
    let dealing = table.simulation.dealing();
    let cut_card = matches!(dealing, Dealing::CutCard { .. });
    let chart = table.strategy != "cd";
    // A fixed number of rounds per shoe with the solved decisions is worth
    // the value off the top in every round (exactly: see
    // games::blackjack::table::exact); anything else measures a
    // difference.
    let difference = match (cut_card, chart, table.index_source.is_some()) {
        (_, _, true) => Some("index plays' gain, the chart's cost and any cut-card effect"),
        (false, false, _) => None,
        (true, false, _) => Some("cut-card effect"),
        (false, true, _) => Some("chart's cost against composition-dependent play"),
        (true, true, _) => Some("cut-card effect and the chart's cost"),
    };
    let claim = claim
        .map(|claim| ClaimCheck::new(&claim, &summary, exact, level))
        .transpose()?;
    let comparison = TableComparison {
        agreement,
        difference,
        claim,
    };
    let agrees = comparison.agrees();
    let report = TableReport {
        params: &table.params,
        dealing,
        strategy: table.strategy.clone(),
        count: args.count.as_ref(),
        true_count_method: table.simulation.true_count_method(),
        seed: sampling.seed,
        summary: &summary,
        betting: betting.as_ref(),
        index_plays: index_plays(&table),
        comparison: Some(comparison),
    };
    outputs.emit(context, |format, options| {
        render_table_run(&report, format, options)
    })?;
    context.verdict(agrees);
    Ok(())
}

/// `blackjack cut-card-effect`: the house edge off the top, with one round
/// per shoe and to a cut card, for every rule set of the cut-card grid.
pub(super) fn cut_card_effect(
    penetration: f64,
    sampling: &SamplingArgs,
    output: &crate::cli::OutputArgs,
    context: &Context,
) -> Result<()> {
    let outputs = output_format(output, PERCENT_DECIMALS)?;
    let rule_sets = cut_card_grid();
    // Check every cut card before any work.
    for rules in &rule_sets {
        Dealing::cut_card(penetration, rules.shoe().total())?;
    }
    let mut rows = Vec::new();
    for (index, rules) in rule_sets.into_iter().enumerate() {
        let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
        let solved = context.with_threads(|| solve::<f64>(&params, &NoProgress))??;
        let cards = rules.shoe().total();
        let mut summaries = Vec::new();
        for (part, dealing) in [
            Dealing::rounds_per_shoe(1, cards)?,
            Dealing::cut_card(penetration, cards)?,
        ]
        .into_iter()
        .enumerate()
        {
            let simulation = TableSimulation::with_table(&solved, dealing, None)?;
            // Each run its own stream: the runs are independent.
            let stream = (2 * index + part) as u64;
            summaries.push(deal_stream(&simulation, sampling, stream, context)?.0);
        }
        let cut_card = summaries.pop().expect("two runs");
        let one_round = summaries.pop().expect("two runs");
        rows.push(CutCardRow {
            rules,
            exact: solved.overall,
            one_round,
            cut_card,
        });
    }
    let report = CutCardReport {
        penetration,
        seed: sampling.seed,
        rows: &rows,
    };
    outputs.emit(context, |format, options| {
        render_cut_card_effect(&report, format, options)
    })?;
    // One round per shoe must agree with the exact value everywhere.
    let level = 0.001 / rows.len() as f64;
    let agrees = rows.iter().all(|row| {
        mean_agreement(
            row.one_round.mean,
            row.one_round.standard_error,
            row.exact,
            level,
        )
        .is_ok_and(|agreement| agreement.agrees)
    });
    context.verdict(agrees);
    Ok(())
}
