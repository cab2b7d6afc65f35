//! `deckodds blackjack ...`: the dealer-outcome commands (the player's are
//! in `blackjack_player.rs`).

use num_rational::BigRational;
use serde_json::{Map, Value, json};

use super::context::Context;
use super::files::read_user_text;
use super::output::output_format;
use super::sampling::Sampling;
use crate::cli::{self, BlackjackCommand, BlackjackRules, OneOrAll, OutputArgs, SamplingArgs};
use crate::compare::{self, PublishedTable, SampleSize};
use crate::distribution::{CountDistribution, ExactDistribution};
use crate::engine::montecarlo::RunPlan;
use crate::error::{Error, Result};
use crate::games::blackjack::dealer::{RemovalEffect, dealer_distributions, effect_of_removal};
use crate::games::blackjack::{
    DealerParams, Decks, OUTCOME_LABELS, Scoring, Soft17, UPCARDS, dealer_monte_carlo_chunks,
    parse_value, upcard_distributions, upcard_key, value_name,
};
use crate::report::eor::render_removal_effects;
use crate::report::figures::thousands;
use crate::report::headline::{Headline, HeadlineFigure};
use crate::report::{Method, Report, ReportDistribution, comparison};

/// The game name in reports.
const GAME: &str = crate::games::registry::BLACKJACK.report_name;

pub(super) fn run(command: BlackjackCommand, context: &Context) -> Result<()> {
    // The library names parameters (`decks`); the user gave flags.
    run_command(command, context).map_err(cli::name_flags::<BlackjackCommand>)
}

fn run_command(command: BlackjackCommand, context: &Context) -> Result<()> {
    match command {
        BlackjackCommand::Exact { rules, output } => exact(&rules, &output, context),
        BlackjackCommand::Mc {
            rules,
            sampling,
            output,
            ..
        } => monte_carlo(&rules, &sampling, &output, context),
        BlackjackCommand::Compare {
            rules,
            sampling,
            published,
            hands,
            hands_per_row,
            level,
            output,
        } => match published {
            Some(path) => {
                let sample = match (hands, hands_per_row) {
                    (Some(total), _) => SampleSize::Total(total as f64),
                    (None, Some(per_row)) => SampleSize::PerRow(per_row as f64),
                    (None, None) => SampleSize::Exact,
                };
                compare_published(&rules, &path, sample, level, &output, context)
            }
            None => compare_monte_carlo(&rules, &sampling, level, &output, context),
        },
        BlackjackCommand::Eor {
            rules,
            outcome,
            output,
        } => eor(&rules, outcome, &output, context),
        BlackjackCommand::Player(command) => super::blackjack_player::run_command(command, context),
    }
}

/// The rule options as parameters, checked.
fn dealer_params(rules: &BlackjackRules) -> Result<DealerParams> {
    let params = DealerParams {
        decks: rules.decks,
        soft17: if rules.h17 {
            Soft17::Hit
        } else {
            Soft17::Stand
        },
        scoring: rules.scoring,
        peek: rules.peek,
        removed: rules.removed.clone(),
    };
    // Building the shoe checks the removals against it.
    params.shoe()?;
    Ok(params)
}

/// The rules, as reports record them: in the order of the example of
/// docs/CONTRACTS.md.
fn report_params(params: &DealerParams) -> Map<String, Value> {
    let mut json = Map::new();
    let decks = match params.decks {
        Decks::Finite(n) => json!(n),
        Decks::Infinite => json!("inf"),
    };
    json.insert("decks".into(), decks);
    let soft17 = match params.soft17 {
        Soft17::Stand => "stand",
        Soft17::Hit => "hit",
    };
    json.insert("soft17".into(), json!(soft17));
    json.insert("scoring".into(), json!(params.scoring.name()));
    json.insert("peek".into(), json!(params.peek));
    let removed: Vec<&str> = params.removed.iter().map(|&v| value_name(v)).collect();
    json.insert("removed".into(), json!(removed));
    json
}

/// The report of the exact table under `params`.
pub fn exact_report(params: &DealerParams) -> Result<Report> {
    Ok(Report {
        game: GAME.into(),
        method: Method::Exact,
        params: report_params(params),
        seed: None,
        trials: None,
        distributions: dealer_distributions(params)?
            .into_iter()
            .map(ReportDistribution::Exact)
            .collect(),
        summary: Vec::new(),
    })
}

fn exact(rules: &BlackjackRules, output: &OutputArgs, context: &Context) -> Result<()> {
    let params = dealer_params(rules)?;
    let outputs = output_format(output, 2)?;
    let report = exact_report(&params)?;
    let headline = bust_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// Runs the Monte-Carlo counts for every upcard with a progress bar: the
/// hands per upcard actually dealt (see `--until-halfwidth`), and the
/// distributions.
fn monte_carlo_counts(
    params: &DealerParams,
    n_trials: u64,
    seed: u64,
    context: &Context,
) -> Result<(u64, Vec<CountDistribution>)> {
    // One sampling run of every upcard at once: a trial is a hand for
    // each, and the tally is their histograms one after another.
    let sampled = context.sample(
        &Sampling {
            plan: RunPlan::new(n_trials, seed, 0),
            units_per_trial: UPCARDS.len() as u64,
            message: "dealer hands",
            unit: "hands",
            outcomes: &upcard_distributions,
            consistent: None,
        },
        |progress, plan, chunks| {
            let distributions =
                dealer_monte_carlo_chunks(params, plan.n_trials, plan.seed, chunks, progress)?;
            Ok(distributions
                .into_iter()
                .flat_map(|distribution| distribution.counts)
                .collect())
        },
    )?;
    Ok((sampled.n_trials, upcard_distributions(&sampled.tally)))
}

/// The report of Monte-Carlo counts under `params`.
fn monte_carlo_report(
    params: &DealerParams,
    n_trials: u64,
    seed: u64,
    distributions: Vec<CountDistribution>,
) -> Report {
    Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params: report_params(params),
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: distributions
            .into_iter()
            .map(ReportDistribution::Counts)
            .collect(),
        summary: Vec::new(),
    }
}

fn monte_carlo(
    rules: &BlackjackRules,
    sampling: &SamplingArgs,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = dealer_params(rules)?;
    let (n_trials, seed) = (sampling.trials, sampling.seed);
    let outputs = output_format(output, 2)?;
    let (n_trials, counts) = monte_carlo_counts(&params, n_trials, seed, context)?;
    let report = monte_carlo_report(&params, n_trials, seed, counts);
    let headline = bust_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// What a dealer table leads with: how often the dealer busts, by upcard
/// (the figure a player's decisions turn on).
fn bust_headline(report: &Report) -> Headline {
    Headline::of([HeadlineFigure::by_key(
        "dealer busts, by upcard",
        &report.distributions,
        "bust",
    )])
}

/// A title naming the rules, for comparison reports.
fn rules_title(params: &DealerParams) -> String {
    let soft17 = match params.soft17 {
        Soft17::Stand => "S17",
        Soft17::Hit => "H17",
    };
    let decks = match params.decks {
        Decks::Finite(1) => "1 deck".to_string(),
        Decks::Finite(n) => format!("{n} decks"),
        Decks::Infinite => "infinite decks".to_string(),
    };
    let mut title = format!("Blackjack dealer, {decks}, {soft17}");
    if params.scoring != Scoring::Correct {
        title.push_str(&format!(", {} scoring", params.scoring.name()));
    }
    if params.peek {
        title.push_str(", peek");
    }
    if !params.removed.is_empty() {
        title.push_str(&format!(", removed: {}", params.removed_text()));
    }
    title
}

fn compare_monte_carlo(
    rules: &BlackjackRules,
    sampling: &SamplingArgs,
    level: f64,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = dealer_params(rules)?;
    let (n_trials, seed) = (sampling.trials, sampling.seed);
    let outputs = output_format(output, 2)?;
    let exact = dealer_distributions(&params)?;
    let (_, simulated) = monte_carlo_counts(&params, n_trials, seed, context)?;
    let agreements = compare::goodness_of_fit_all(&exact, &simulated, level)?;
    let title = format!(
        "{}: Monte Carlo ({} hands per upcard, seed {seed}) vs exact",
        rules_title(&params),
        thousands(n_trials)
    );
    outputs.emit_agreements(&title, &agreements, context)
}

/// Maps a published table's row label to a distribution key: `2`..`10`,
/// `T`, `J`, `Q`, `K` (all the ten-valued upcard), `A` or `ace`, or a key
/// as deckodds' own CSV writes it (`upcard=2`).
fn published_row_key(label: &str) -> Option<String> {
    parse_value(label.strip_prefix("upcard=").unwrap_or(label)).map(upcard_key)
}

fn compare_published(
    rules: &BlackjackRules,
    path: &std::path::Path,
    sample: SampleSize,
    level: f64,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = dealer_params(rules)?;
    let outputs = output_format(output, 2)?;
    let text = read_user_text(
        path,
        "a published dealer table (CSV: a row per upcard, a percentage per outcome)",
    )?;
    let table = PublishedTable::parse_csv(&text, &published_row_key).map_err(|message| {
        Error::BadInputFile {
            path: path.to_path_buf(),
            message,
        }
    })?;
    let exact = dealer_distributions(&params)?;
    let check = compare::check_published(&exact, &table, sample, level)?;
    let title = format!("{}: {} vs exact", rules_title(&params), path.display());
    let mut notes = Vec::new();
    if check.looks_like_fractions() {
        notes.push(
            "The figures look like fractions of 1 (such as 0.3533) where percentages are expected (35.33): write each cell in percent (35.33, or 35.33%), or give the table in deckodds' long form with a probability column of exact fractions."
                .to_string(),
        );
    } else if check.mostly_inconsistent() {
        // A table of other rules fails nearly everywhere; a few bad figures
        // do not.
        notes.push(format!(
            "Most cells ({} of {}) are inconsistent: the table may be for other rules than these ({}). Check the rule options --decks, --h17, --peek and --scoring.",
            check.inconsistent.len(),
            check.cells(),
            rules_title(&params)
                .trim_start_matches("Blackjack dealer, ")
        ));
    }
    outputs.emit(context, |format, options| {
        comparison::render_published_check(&title, &check, &notes, format, options)
    })?;
    context.verdict(check.all_consistent());
    Ok(())
}

fn eor(
    rules: &BlackjackRules,
    outcome: OneOrAll<usize>,
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let params = dealer_params(rules)?;
    let outputs = output_format(output, 3)?;
    let outcomes: Vec<usize> = match outcome {
        OneOrAll::All => (0..OUTCOME_LABELS.len()).collect(),
        OneOrAll::One(outcome) => vec![outcome],
    };
    let effects = effect_of_removal(&params)?;
    let reports: Vec<Report> = outcomes
        .iter()
        .map(|&o| eor_report(&params, &effects, o))
        .collect();
    // The cells a removal leaves without meaning, and why: said under the
    // tables and in JSON; the cells themselves are undefined (n/a in the
    // table, null in JSON).
    let not_computed: Vec<String> = effects
        .iter()
        .flat_map(|(value, rows)| {
            UPCARDS.iter().zip(rows).filter_map(move |(&upcard, row)| {
                row.as_ref().err().map(|why| {
                    format!(
                        "upcard {}, removed {}: not computed: {why}",
                        value_name(upcard),
                        value_name(*value)
                    )
                })
            })
        })
        .collect();
    outputs.emit(context, |format, options| {
        render_removal_effects(&reports, &not_computed, format, options)
    })
}

/// The effect of removal on one outcome as a report: one distribution per
/// upcard, whose "outcomes" are the removed card's value and whose
/// probabilities are the signed exact changes.
fn eor_report(
    params: &DealerParams,
    effects: &[(u8, Vec<RemovalEffect>)],
    outcome: usize,
) -> Report {
    let mut rules_and_outcome = report_params(params);
    rules_and_outcome.insert("outcome".into(), json!(OUTCOME_LABELS[outcome]));
    rules_and_outcome.insert(
        "quantity".into(),
        json!("change in probability when one card of the column's value is removed"),
    );
    let distributions = UPCARDS
        .iter()
        .enumerate()
        .map(|(row, &upcard)| {
            ReportDistribution::Exact(ExactDistribution {
                key: upcard_key(upcard),
                outcomes: effects
                    .iter()
                    .map(|(value, _)| format!("removed {}", value_name(*value)))
                    .collect(),
                probabilities: effects
                    .iter()
                    .map(|(_, rows)| match &rows[row] {
                        Ok(changes) => changes[outcome].clone(),
                        // No figure: a zero denominator, which every
                        // format shows as undefined (NaN, null).
                        Err(_) => BigRational::new_raw(0.into(), 0.into()),
                    })
                    .collect(),
            })
        })
        .collect();
    Report {
        game: format!("{GAME}-eor"),
        method: Method::Exact,
        params: rules_and_outcome,
        seed: None,
        trials: None,
        distributions,
        summary: Vec::new(),
    }
}
