//! `deckodds klondike ...`: the fixed policy's odds and money by Monte
//! Carlo, readable records of games, and (in `klondike_solve.rs`) which
//! deals can be won.

use std::fmt::Write as _;

use serde_json::{Map, json};

use super::context::Context;
use super::klondike_deals::{self, DealsArgs};
use super::klondike_solve::{self, SolveArgs};
use super::output::{emit, output_format};
use super::sampling::{Sampled, Sampling};
use crate::cli::{self, KlondikeCommand, KlondikeRules};
use crate::distribution::CountDistribution;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::Result;
use crate::games::klondike::record::{RecordOptions, SuitStyle, render_record};
use crate::games::klondike::{
    Klondike, KlondikeParams, KlondikeSimulation, Money, OUTCOMES, PAY_PER_CARD, STAKE,
};
use crate::report::headline::{Headline, HeadlineFigure};
use crate::report::{Method, Report, ReportDistribution, SummaryFigure, SummaryItem};

/// The game name in reports.
const GAME: &str = crate::games::registry::KLONDIKE.report_name;
/// The outcome that is a win (all 52 cards out), as the registry says.
const WIN: &str = crate::games::registry::KLONDIKE.win();

/// The distribution key of every report (the contract).
const KEY: &str = "foundation-cards";

/// `record --went-out` searches at most this many games of the run.
const WENT_OUT_SEARCH: u64 = 100_000_000;

pub(super) fn run(command: KlondikeCommand, context: &Context) -> Result<()> {
    // The library names parameters (`draw`); the user gave flags.
    run_command(command, context).map_err(cli::name_flags::<KlondikeCommand>)
}

fn run_command(command: KlondikeCommand, context: &Context) -> Result<()> {
    match command {
        KlondikeCommand::Mc {
            rules,
            sampling,
            output,
            ..
        } => {
            let game = game(&rules)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let outputs = output_format(&output, 2)?;
            let simulation = KlondikeSimulation::new(game);
            let Sampled {
                n_trials,
                tally: counts,
            } = context.sample(
                &Sampling {
                    plan: RunPlan::new(n_trials, seed, 0),
                    units_per_trial: 1,
                    message: "Klondike games",
                    unit: "games",
                    outcomes: &|counts| vec![foundation_cards(counts.to_vec())],
                    consistent: None,
                },
                |progress, plan, chunks| {
                    Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress))
                },
            )?;
            let (report, headline) = monte_carlo_report(game, seed, n_trials, counts)?;
            outputs.emit_report(&report, &headline, context)
        }
        KlondikeCommand::Record {
            rules,
            games,
            seed,
            went_out,
            deal,
            ascii,
            out,
        } => {
            let game = game(&rules)?;
            let options = RecordOptions {
                suits: if ascii {
                    SuitStyle::Ascii
                } else {
                    SuitStyle::Unicode
                },
            };
            let text = match deal {
                Some(deal) => render_record(&game, &deal, &options),
                None => records(game, games as usize, seed, went_out, &options, context),
            };
            emit(&text, out.as_deref(), context)
        }
        KlondikeCommand::Solve {
            rules,
            source,
            max_nodes,
            max_seconds,
            verdicts,
            output,
            ..
        } => klondike_solve::run(
            SolveArgs {
                rules,
                source,
                max_nodes,
                max_seconds,
                verdicts,
                output,
            },
            context,
        ),
        KlondikeCommand::Deals {
            source,
            deal_format,
            out,
            out_dir,
        } => klondike_deals::run(
            DealsArgs {
                source,
                format: deal_format,
                out,
                out_dir,
            },
            context,
        ),
    }
}

/// The game of `--draw` and `--passes`, checked.
fn game(rules: &KlondikeRules) -> Result<Klondike> {
    Klondike::new(KlondikeParams {
        draw: rules.draw,
        passes: rules.passes,
    })
}

fn params(game: Klondike) -> Map<String, serde_json::Value> {
    let mut params = Map::new();
    params.insert("draw".into(), json!(game.params().draw));
    params.insert("passes".into(), json!(game.params().passes));
    params.insert("stake".into(), json!(STAKE));
    params.insert("pay-per-card".into(), json!(PAY_PER_CARD));
    params
}

/// The report of a run: the distribution of foundation cards (whose mean
/// the renderer adds) and the money; and what it leads with: the chance
/// of going out and the mean net winnings per game.
fn monte_carlo_report(
    game: Klondike,
    seed: u64,
    n_trials: u64,
    counts: Vec<u64>,
) -> Result<(Report, Headline)> {
    let money = Money::of(&counts)?;
    let summary = vec![
        SummaryItem {
            key: "net-per-game".into(),
            label: "net winnings per game ($)".into(),
            figure: SummaryFigure::Mean {
                estimate: money.mean_net,
                standard_error: money.standard_error,
            },
        },
        SummaryItem {
            key: "total-net".into(),
            label: format!("total net winnings over the {} games ($)", money.games),
            figure: SummaryFigure::Total(money.total_net),
        },
        SummaryItem {
            key: "went-out".into(),
            label: "games with all 52 cards out".into(),
            figure: SummaryFigure::Proportion {
                count: money.games_out,
                trials: money.games,
            },
        },
    ];
    let report = Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params: params(game),
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: vec![ReportDistribution::Counts(foundation_cards(counts))],
        summary,
    };
    let mut headline =
        Headline::probabilities(&report.distributions, &[(KEY, "P(all 52 cards out)")], WIN);
    headline.figures.push(HeadlineFigure::mean(
        "mean net winnings per game ($)",
        money.mean_net,
        money.standard_error,
    ));
    Ok((report, headline))
}

/// The distribution of cards on the foundations, "0" to "52".
fn foundation_cards(counts: Vec<u64>) -> CountDistribution {
    CountDistribution {
        key: KEY.into(),
        outcomes: (0..OUTCOMES).map(|n| n.to_string()).collect(),
        counts,
    }
}

/// The records of the first `n_games` games of the run with `seed` (or of
/// the first that went out), each under a heading saying which game it is.
fn records(
    game: Klondike,
    n_games: usize,
    seed: u64,
    went_out: bool,
    options: &RecordOptions,
    context: &Context,
) -> String {
    let simulation = KlondikeSimulation::new(game);
    let deals = if went_out {
        let plan = RunPlan::new(WENT_OUT_SEARCH, seed, 0);
        montecarlo::first_in_bin(&simulation, &plan, 52, n_games)
    } else {
        montecarlo::first_trials(&simulation, &RunPlan::new(n_games as u64, seed, 0), n_games)
    };
    if went_out && deals.len() < n_games {
        context.note(&format!(
            "only {} of the first {WENT_OUT_SEARCH} games went out",
            deals.len()
        ));
    }
    let mut text = String::new();
    for (i, (number, deal)) in deals.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        let _ = writeln!(
            text,
            "=== Game {} of {}: game {number} of `deckodds klondike mc --seed {seed}{}` ===",
            i + 1,
            deals.len(),
            rules_flags(game),
        );
        text.push_str(&render_record(&game, deal, options));
    }
    text
}

/// The command-line flags of `game`'s rules that differ from the defaults.
fn rules_flags(game: Klondike) -> String {
    let KlondikeParams { draw, passes } = game.params();
    let mut flags = String::new();
    if draw != 1 {
        let _ = write!(flags, " --draw {draw}");
    }
    if passes != 1 {
        let _ = write!(flags, " --passes {passes}");
    }
    flags
}
