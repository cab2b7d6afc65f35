//! `deckodds prisoners-patience ...`: the odds of Prisoner's patience under
//! either stack-move rule, against the seed's figure.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use serde_json::{Map, Value, json};

use super::context::Context;
use super::output::{
    Outputs, deal_text, emit, output_format, record_part, save_deals, save_wins_request,
};
use super::sampling::{Sampled, Sampling};
use crate::cards::rank_name;
use crate::cli::{self, Engine, LevelArgs, PrisonersBaseline, PrisonersCommand, PrisonersVersion};
use crate::compare::{self, Agreement};
use crate::distribution::{CountDistribution, ExactDistribution};
use crate::engine::ArrangementCounts;
use crate::engine::SequentialGame;
use crate::engine::Shard;
use crate::engine::arrangements;
use crate::engine::montecarlo::{self, RunPlan};
use crate::engine::sequential::{self, SequentialParams};
use crate::engine::{Progress, Simulation};
use crate::error::{Error, Result};
use crate::games::prisoners_patience::search::{
    self, Solution, SolveParams, SolveSimulation, Verdict, WINNABLE, exact_cross_tabulation, solve,
    verify,
};
use crate::games::prisoners_patience::{
    EXACT_MAX_CARDS, Move, Observer, PrisonersParams, PrisonersPatience, PrisonersSimulation,
    StackMove, Table,
};
use crate::report::figures::thousands;
use crate::report::headline::Headline;
use crate::report::{Method, Report, ReportDistribution};

/// The game name in reports.
const GAME: &str = crate::games::registry::PRISONERS_PATIENCE.report_name;
/// The outcome that is a win (one stack left), as the registry says.
const WIN: &str = crate::games::registry::PRISONERS_PATIENCE.win();

/// The distribution key of every report (docs/GUIDE.md): stacks left.
const KEY: &str = "stacks";

/// Above this an exhaustive run is refused unless `--force`: ten minutes.
const MAX_EXACT_SECONDS: f64 = 600.0;

/// The seed's figure: its program won 661 of 16,000,000 games.
const SEED_WINS: u64 = 661;
const SEED_GAMES: u64 = 16_000_000;

pub(super) fn run(command: PrisonersCommand, context: &Context) -> Result<()> {
    // The library names parameters (`suits x ranks`); the user gave flags.
    run_command(command, context).map_err(cli::name_flags::<PrisonersCommand>)
}

fn run_command(command: PrisonersCommand, context: &Context) -> Result<()> {
    match command {
        PrisonersCommand::Exact {
            version,
            engine,
            force,
            output,
            ..
        } => {
            let game = game(&version)?;
            let shard = context.shard_of_enumeration();
            if shard.is_some() && engine == Engine::Memo {
                return Err(Error::invalid(
                    "--shard",
                    "with --engine memo",
                    "only --engine exhaustive is sharded",
                ));
            }
            let outputs = output_format(&output, 4)?;
            exact(game, engine, force, shard, &outputs, context)
        }
        PrisonersCommand::Mc {
            version,
            sampling,
            save_wins,
            output,
            ..
        } => {
            let game = game(&version)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let save_wins = save_wins_request(save_wins)?;
            let outputs = output_format(&output, 4)?;
            monte_carlo(game, n_trials, seed, save_wins, &outputs, context)
        }
        PrisonersCommand::Compare {
            version,
            sampling,
            with,
            level: LevelArgs { level },
            output,
        } => {
            let game = game(&version)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let outputs = output_format(&output, 2)?;
            let (title, agreements) = match with {
                PrisonersBaseline::Exact => compare_exact(game, n_trials, seed, level, context)?,
                PrisonersBaseline::Seed => compare_seed(game, n_trials, seed, level, context)?,
                PrisonersBaseline::Rules => compare_rules(game, n_trials, seed, level, context)?,
            };
            outputs.emit_agreements(&title, &agreements, context)
        }
        PrisonersCommand::Solve {
            version,
            deal,
            trials,
            seed,
            save_winnable,
            every,
            max_nodes,
            output,
            ..
        } => {
            let game = game(&version)?;
            let params = SolveParams { max_nodes };
            if let (Some(path), None) = (&save_winnable, &trials) {
                return Err(Error::invalid(
                    "--save-winnable",
                    path.display(),
                    "lists the winnable deals of a random sample: give --trials N too",
                ));
            }
            let request = match (deal, trials, every) {
                (Some(deal), _, _) => {
                    game.check_deal(&deal)?;
                    SolveRequest::Deal(deal)
                }
                (None, Some(n_trials), _) => SolveRequest::Sample {
                    n_trials,
                    seed,
                    save_winnable,
                },
                (None, None, true) => SolveRequest::Every,
                (None, None, false) => {
                    return Err(Error::invalid(
                        "solve",
                        "without --deal, --trials or --every",
                        "needs one of them: a deal, a number of random deals, or every arrangement of a small deck",
                    ));
                }
            };
            let outputs = output_format(&output, 4)?;
            solve_command(game, request, params, &outputs, context)
        }
        PrisonersCommand::Replay { version, deal } => {
            let game = game(&version)?;
            game.check_deal(&deal)?;
            emit(&replay(game, &deal), None, context)
        }
    }
}

/// `exact`: every arrangement counted by `engine` (with `--shard`, this
/// part's), in a report that leads with the odds of winning.
fn exact(
    game: PrisonersPatience,
    engine: Engine,
    force: bool,
    shard: Option<Shard>,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let counts = context
        .enumerate(|| exact_counts(game, engine, force, shard.unwrap_or(Shard::WHOLE), context))?;
    let mut report = Report {
        game: GAME.into(),
        method: Method::Exact,
        params: params(game),
        seed: None,
        trials: None,
        distributions: vec![ReportDistribution::Exact(exact_distribution(game, &counts))],
        summary: Vec::new(),
    };
    report.params.insert("engine".into(), json!(engine.name()));
    record_part(&mut report.params, shard, &counts);
    let headline = win_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// `mc`: `n_trials` games with `seed` (or as many as `--until-halfwidth`
/// takes), in a report that leads with the odds of winning; with
/// `--save-wins N FILE`, the first N games won, written to FILE.
fn monte_carlo(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    save_wins: Option<(usize, String)>,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let Sampled {
        n_trials,
        tally: counts,
    } = monte_carlo_counts(game, n_trials, seed, 0, context)?;
    let report = Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params: params(game),
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: vec![ReportDistribution::Counts(count_distribution(game, counts))],
        summary: Vec::new(),
    };
    if let Some((n_wins, path)) = save_wins {
        let simulation = PrisonersSimulation::new(game);
        // Bin 0 is one stack: a win.
        let wins =
            montecarlo::first_in_bin(&simulation, &RunPlan::new(n_trials, seed, 0), 0, n_wins);
        let title = format!(
            "Prisoner's patience {}: the first {} games won of {n_trials} (seed {seed})",
            game.params(),
            wins.len()
        );
        save_deals(&path, &title, &wins, context)?;
    }
    let headline = win_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// The version named on the command line.
fn game(version: &PrisonersVersion) -> Result<PrisonersPatience> {
    PrisonersPatience::new(PrisonersParams {
        suits: version.suits,
        ranks: version.ranks,
        stack_move: version.stack_move,
    })
}

/// The version, as reports record it.
fn params(game: PrisonersPatience) -> Map<String, Value> {
    let p = game.params();
    let mut params = Map::new();
    params.insert("suits".into(), json!(p.suits));
    params.insert("ranks".into(), json!(p.ranks));
    params.insert("stack-move".into(), json!(p.stack_move.name()));
    params
}

/// What a report of stacks left leads with: the odds of winning, one
/// stack left.
fn win_headline(report: &Report) -> Headline {
    Headline::probabilities(&report.distributions, &[(KEY, "P(win) = P(1 stack)")], WIN)
}

/// What a report of which deals can be won leads with: the share of deals
/// a player choosing freely can win, the share the seed's fixed sweep
/// wins, and the share the search left undecided.
fn solve_headline(report: &Report) -> Headline {
    let mut headline = Headline::probabilities(
        &report.distributions,
        &[("free-choice", "P(winnable with free choice of moves)")],
        "winnable",
    );
    headline.figures.extend(
        Headline::probabilities(
            &report.distributions,
            &[("fixed-sweep", "P(won by the seed's fixed sweep)")],
            "won",
        )
        .figures,
    );
    headline.figures.extend(
        Headline::probabilities(
            &report.distributions,
            &[("free-choice", "P(undecided: search budget spent)")],
            "undecided",
        )
        .figures,
    );
    headline
}

// ---------------------------------------------------------------------------
// Exact.

/// Every distinct arrangement counted, by either enumerator.
fn exact_counts(
    game: PrisonersPatience,
    engine: Engine,
    force: bool,
    shard: Shard,
    context: &Context,
) -> Result<ArrangementCounts> {
    let deck = game.exact_deck();
    let started = Instant::now();
    let counts = match engine {
        Engine::Memo => {
            if game.n_cards() > EXACT_MAX_CARDS {
                return Err(Error::invalid(
                    "--suits x --ranks",
                    game.deck_name(),
                    format!(
                        "the memoised enumerator takes at most {EXACT_MAX_CARDS} cards; use `mc` for larger decks"
                    ),
                ));
            }
            let progress = context.progress(sequential::progress_units(&deck), "deals", "parts");
            let (counts, stats) = context.with_threads(|| {
                sequential::count_outcomes(&game, &deck, &SequentialParams::default(), &progress)
            })??;
            context.note(&format!(
                "memo: {} entries, about {} MiB; {} nodes expanded, {} memo hits",
                stats.memo_entries,
                stats.memo_bytes >> 20,
                stats.nodes,
                stats.memo_hits
            ));
            counts
        }
        Engine::Exhaustive => {
            let total = arrangements::n_arrangements(&deck);
            let seconds = game.exhaustive_seconds() / shard.count as f64;
            if seconds > MAX_EXACT_SECONDS && !force {
                return Err(Error::invalid(
                    "--suits x --ranks",
                    game.deck_name(),
                    format!(
                        "has {total} arrangements, estimated at {:.0} minutes on two cores; add --force to run it anyway, split it with --shard, or use --engine memo",
                        seconds / 60.0
                    ),
                ));
            }
            let progress = context.progress(
                shard.share(arrangements::progress_units(&deck)),
                "arrangements",
                "parts",
            );
            context.with_threads(|| {
                arrangements::count_arrangements(
                    &deck,
                    game.n_outcomes(),
                    |deal| game.play(deal),
                    shard,
                    &progress,
                )
            })??
        }
    };
    context.note(&format!(
        "{} arrangements in {:.2} s",
        counts.total,
        started.elapsed().as_secs_f64()
    ));
    Ok(counts)
}

fn exact_distribution(game: PrisonersPatience, counts: &ArrangementCounts) -> ExactDistribution {
    counts.to_distribution(KEY, game.outcome_labels())
}

// ---------------------------------------------------------------------------
// Monte Carlo.

/// The Monte-Carlo counts of `game`: the games played (--trials, or as
/// many as --until-halfwidth took) and their tally.
fn monte_carlo_counts(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    stream: u64,
    context: &Context,
) -> Result<Sampled> {
    let simulation = PrisonersSimulation::new(game);
    context.sample(
        &Sampling {
            plan: RunPlan::new(n_trials, seed, stream),
            units_per_trial: 1,
            message: &format!("games (stack move {})", game.params().stack_move.name()),
            unit: "games",
            outcomes: &|counts| vec![count_distribution(game, counts.to_vec())],
            consistent: None,
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress)),
    )
}

fn count_distribution(game: PrisonersPatience, counts: Vec<u64>) -> CountDistribution {
    CountDistribution {
        key: KEY.into(),
        outcomes: game.outcome_labels(),
        counts,
    }
}

// ---------------------------------------------------------------------------
// Comparisons.

/// Monte Carlo against the memoised exact distribution.
fn compare_exact(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    let exact = exact_distribution(
        game,
        &exact_counts(game, Engine::Memo, false, Shard::WHOLE, context)?,
    );
    let sampled = count_distribution(
        game,
        monte_carlo_counts(game, n_trials, seed, 0, context)?.tally,
    );
    let agreement = compare::goodness_of_fit(&exact, &sampled, level)?;
    let title = format!(
        "Prisoner's patience {}: Monte Carlo ({} games, seed {seed}) vs exact",
        game.params(),
        thousands(n_trials)
    );
    Ok((title, vec![agreement]))
}

/// Wins and losses as a two-outcome distribution.
fn wins(label: &str, won: u64, games: u64) -> CountDistribution {
    CountDistribution {
        key: label.into(),
        outcomes: vec!["won".into(), "lost".into()],
        counts: vec![won, games - won],
    }
}

/// The seed's 661 wins in 16,000,000 games against deckodds' own games
/// under each stack-move rule: a chi-square homogeneity test of the 2 x 2
/// table (the two-proportion test; its statistic is z squared).
fn compare_seed(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    let p = game.params();
    if (p.suits, p.ranks) != (4, 13) {
        return Err(Error::invalid(
            "--suits x --ranks",
            game.deck_name(),
            "must be the standard 4 x 13 deck: the seed's figure is for 52 cards",
        ));
    }
    let published = wins("P(win)", SEED_WINS, SEED_GAMES);
    let mut agreements = Vec::new();
    for stack_move in [StackMove::Reversed, StackMove::Kept] {
        // Stream 0, as `mc` plays: the same games as `mc --stack-move`
        // with this seed, so the two reports agree. (Each rule is tested
        // against the seed on its own; nothing compares the two here.)
        let version = PrisonersPatience::new(PrisonersParams { stack_move, ..p })?;
        let counts = monte_carlo_counts(version, n_trials, seed, 0, context)?.tally;
        let mine = wins("P(win)", counts[0], n_trials);
        let mut agreement = compare::homogeneity(&mine, &published, level)?;
        agreement.key = format!("P(win), stack move {}", stack_move.name());
        agreements.push(agreement);
    }
    let title = format!(
        "Prisoner's patience, 52 cards: the seed's {SEED_WINS} wins in {SEED_GAMES} games vs deckodds ({n_trials} games per rule, seed {seed}), two-proportion test"
    );
    Ok((title, agreements))
}

/// The two stack-move rules against each other, each on its own games.
fn compare_rules(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    let p = game.params();
    let reversed = PrisonersPatience::new(PrisonersParams {
        stack_move: StackMove::Reversed,
        ..p
    })?;
    let kept = PrisonersPatience::new(PrisonersParams {
        stack_move: StackMove::Kept,
        ..p
    })?;
    let a = count_distribution(
        reversed,
        monte_carlo_counts(reversed, n_trials, seed, 0, context)?.tally,
    );
    let b = count_distribution(
        kept,
        monte_carlo_counts(kept, n_trials, seed, 1, context)?.tally,
    );
    let agreement = compare::homogeneity(&a, &b, level)?;
    let title = format!(
        "Prisoner's patience {}: stack move reversed vs kept ({n_trials} games each, seed {seed}, independent games)",
        game.deck_name()
    );
    Ok((title, vec![agreement]))
}

// ---------------------------------------------------------------------------
// Replay.

/// Writes the game card by card: each move, then the row.
struct Transcript {
    text: String,
    /// The row as the last report left it.
    table: Option<Table>,
    /// Cards dealt so far.
    cards: usize,
}

impl Transcript {
    fn row(table: &Table) -> String {
        table
            .stacks()
            .iter()
            .map(|stack| {
                if stack.size == 1 {
                    rank_name(stack.top).to_string()
                } else {
                    format!("{}({})", rank_name(stack.top), stack.size)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Observer for Transcript {
    fn dealt(&mut self, table: &Table) {
        self.cards += 1;
        let top = table.stacks().last().map_or(0, |stack| stack.top);
        let _ = writeln!(self.text, "card {}: {}", self.cards, rank_name(top));
        self.table = Some(*table);
    }

    fn moved(&mut self, step: Move, table: &Table) {
        if let Some(before) = &self.table {
            let mover = before.stacks()[step.from];
            let target = before.stacks()[step.to];
            let _ = writeln!(
                self.text,
                "  stack {} ({}) onto stack {} ({}){}",
                step.from + 1,
                rank_name(mover.top),
                step.to + 1,
                rank_name(target.top),
                if step.from - step.to == 3 {
                    ", three to the left"
                } else {
                    ""
                }
            );
        }
        self.table = Some(*table);
    }

    fn settled(&mut self, table: &Table) {
        let _ = writeln!(self.text, "  row: {}", Transcript::row(table));
    }
}

fn replay(game: PrisonersPatience, deal: &[u8]) -> String {
    let mut transcript = Transcript {
        text: format!(
            "Prisoner's patience, {}\ndeal: {}\neach stack shown by its top card, with its size when it holds more than one: 8(3)\n\n",
            game.params(),
            deal_text(deal)
        ),
        table: None,
        cards: 0,
    };
    let mut table = game.empty_table();
    for &rank in deal {
        game.deal_with(&mut table, rank, &mut transcript);
    }
    let mut text = transcript.text;
    let stacks = table.len();
    let _ = writeln!(
        text,
        "\n{} stack{} left: {}",
        stacks,
        if stacks == 1 { "" } else { "s" },
        if stacks == 1 { "won" } else { "lost" }
    );
    text
}

// ---------------------------------------------------------------------------
// Which deals can be won at all.

/// A validated `solve` command: one deal, random deals, or every deal.
enum SolveRequest {
    Deal(Vec<u8>),
    /// `--trials N [--seed S] [--save-winnable FILE]`.
    Sample {
        n_trials: u64,
        seed: u64,
        save_winnable: Option<std::path::PathBuf>,
    },
    Every,
}

fn solve_command(
    game: PrisonersPatience,
    request: SolveRequest,
    params: SolveParams,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    match request {
        SolveRequest::Deal(deal) => solve_deal(game, &deal, &params, outputs, context),
        SolveRequest::Sample {
            n_trials,
            seed,
            save_winnable,
        } => solve_sample(
            game,
            n_trials,
            seed,
            save_winnable.as_deref(),
            params,
            outputs,
            context,
        ),
        SolveRequest::Every => solve_every(game, outputs, context),
    }
}

/// `solve --deal`: the verdict on one deal, and for a win its moves.
fn solve_deal(
    game: PrisonersPatience,
    deal: &[u8],
    params: &SolveParams,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let progress_note = format!("searching (at most {} states)", params.max_nodes);
    context.note(&progress_note);
    let solution = solve(&game, deal, params);
    let text = solution_text(game, deal, params, &solution)?;
    // Text only: `check_files` refused any other format.
    outputs.emit(context, |_, _| text.clone())
}

/// `solve --trials N`: which of N random deals can be won, as shares of
/// the deals; with `--save-winnable FILE`, the winnable deals written to
/// FILE.
fn solve_sample(
    game: PrisonersPatience,
    n_trials: u64,
    seed: u64,
    save_winnable: Option<&Path>,
    params: SolveParams,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let simulation = SolveSimulation::new(game, params);
    // Small chunks: a deal takes up to a second, so the runner's
    // usual 65,536-trial chunks would leave all but one core idle.
    let plan = RunPlan {
        chunk_size: SOLVE_CHUNK,
        ..RunPlan::new(n_trials, seed, 0)
    };
    // With --save-winnable, each chunk keeps its winnable deals as
    // it counts them.
    let winnable = Mutex::new(BTreeMap::new());
    let Sampled {
        n_trials,
        tally: counts,
    } = context.sample(
        &Sampling {
            plan,
            units_per_trial: 1,
            message: "deals solved",
            unit: "deals",
            outcomes: &search::count_distributions,
            consistent: None,
        },
        |progress, plan, chunks| {
            if save_winnable.is_none() {
                return Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress));
            }
            let mut tally = vec![0; simulation.n_bins()];
            for chunk in chunks {
                let (counts, deals) = winnable_in_chunk(&simulation, plan, chunk);
                for (t, c) in tally.iter_mut().zip(counts) {
                    *t += c;
                }
                progress.advance(plan.chunk_trials(chunk));
                if let Ok(mut kept) = winnable.lock() {
                    kept.insert(chunk, deals);
                }
            }
            Ok(tally)
        },
    )?;
    if let Some(path) = save_winnable {
        let kept = winnable.into_inner().unwrap_or_default();
        let deals = winnable_deals(&simulation, &plan, n_trials, kept, context)?;
        let title = format!(
            "Prisoner's patience {}: the {} deals of {n_trials} (seed {seed}) a player choosing the moves freely can win (search budget {} states a deal)",
            game.params(),
            deals.len(),
            params.max_nodes
        );
        save_deals(&path.display().to_string(), &title, &deals, context)?;
    }
    let report = Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params: params_of(game, &params),
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: search::count_distributions(&counts)
            .into_iter()
            .map(ReportDistribution::Counts)
            .collect(),
        summary: Vec::new(),
    };
    let headline = solve_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// `solve --every`: which deals can be won, counted exactly over every
/// arrangement of a small deck.
fn solve_every(game: PrisonersPatience, outputs: &Outputs, context: &Context) -> Result<()> {
    let deck = game.exact_deck();
    let total = arrangements::n_arrangements(&deck);
    if game.n_cards() > MAX_SOLVE_EVERY_CARDS {
        return Err(Error::invalid(
            "--suits x --ranks",
            game.deck_name(),
            format!(
                "has {total} arrangements: --every solves each one, for decks of at most {MAX_SOLVE_EVERY_CARDS} cards; use --trials"
            ),
        ));
    }
    let progress = context.progress(arrangements::progress_units(&deck), "arrangements", "parts");
    let counts = context.with_threads(|| exact_cross_tabulation(&game, &progress))??;
    drop(progress);
    let report = Report {
        game: GAME.into(),
        method: Method::Exact,
        params: params_of(game, &SolveParams::UNLIMITED),
        seed: None,
        trials: None,
        distributions: search::exact_distributions(&counts)
            .into_iter()
            .map(ReportDistribution::Exact)
            .collect(),
        summary: Vec::new(),
    };
    let headline = solve_headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// Deals per chunk of `solve --trials` (the counts depend on it, as on
/// any chunk size, but not on the threads).
const SOLVE_CHUNK: u64 = 8;

/// Deals with their game numbers (from 0), as `save_deals` writes them.
type NumberedDeals = Vec<(u64, Vec<u8>)>;

/// Solves chunk `chunk` of `plan`: its tally, and its winnable deals with
/// their game numbers.
fn winnable_in_chunk(
    simulation: &SolveSimulation,
    plan: &RunPlan,
    chunk: u64,
) -> (Vec<u64>, NumberedDeals) {
    montecarlo::run_chunk_noting(simulation, plan, chunk, &WINNABLE, |(deck, _)| deck.clone())
}

/// The winnable deals of a `solve --trials` run of `n_trials` (the
/// chunks this part ran, with `--shard`), in order: those the run kept
/// chunk by chunk, and, for the chunks a checkpoint or `merge` handed
/// back instead of solving, those found by solving them again.
fn winnable_deals(
    simulation: &SolveSimulation,
    plan: &RunPlan,
    n_trials: u64,
    mut kept: BTreeMap<u64, NumberedDeals>,
    context: &Context,
) -> Result<NumberedDeals> {
    // The chunks behind the counts: all of them up to the trials played
    // (every chunk but the last is whole), or this part's.
    let n_chunks = n_trials.div_ceil(plan.chunk_size);
    let chunks = context
        .shard
        .map_or(0..n_chunks, |shard| shard.chunk_range(n_chunks));
    let missing: Vec<u64> = chunks.clone().filter(|c| !kept.contains_key(c)).collect();
    if !missing.is_empty() {
        context.note(&format!(
            "solving again the {} deals counted before this run, to list the winnable ones",
            missing.iter().map(|&c| plan.chunk_trials(c)).sum::<u64>()
        ));
        let solved: Vec<(u64, NumberedDeals)> = context.with_threads(|| {
            missing
                .par_iter()
                .map(|&chunk| (chunk, winnable_in_chunk(simulation, plan, chunk).1))
                .collect()
        })?;
        kept.extend(solved);
    }
    Ok(chunks
        .filter_map(|chunk| kept.remove(&chunk))
        .flatten()
        .collect())
}

/// The most cards `solve --every` takes (every arrangement is searched).
const MAX_SOLVE_EVERY_CARDS: usize = 12;

/// The version, the search budget and the question, as the reports of
/// `solve` record them.
fn params_of(game: PrisonersPatience, solve: &SolveParams) -> Map<String, Value> {
    let mut params = params(game);
    if solve.max_nodes != u64::MAX {
        params.insert("max-nodes".into(), json!(solve.max_nodes));
    }
    params.insert("question".into(), json!("winnable"));
    params
}

/// The verdict on one deal, and for a win the moves, replayed.
fn solution_text(
    game: PrisonersPatience,
    deal: &[u8],
    params: &SolveParams,
    solution: &Solution,
) -> Result<String> {
    let mut text = format!(
        "Prisoner's patience, {}, free choice of moves\ndeal: {}\n",
        game.params(),
        deal_text(deal)
    );
    let sweep = game.play_ranks(deal);
    let _ = writeln!(
        text,
        "the seed's fixed sweep: {}",
        if sweep == 1 {
            "won".to_string()
        } else {
            format!("lost with {sweep} stacks")
        }
    );
    let verdict = match solution.verdict {
        Verdict::Winnable => "winnable",
        Verdict::Unwinnable => "unwinnable: no choice of moves leaves one stack",
        Verdict::Undecided => "undecided: the search ran out of states (raise --max-nodes)",
    };
    let _ = writeln!(
        text,
        "free choice: {verdict} ({} states searched{})",
        solution.nodes,
        if params.max_nodes == u64::MAX {
            String::new()
        } else {
            format!(" of at most {}", params.max_nodes)
        }
    );
    if solution.verdict == Verdict::Winnable {
        verify(&game, deal, &solution.witness)?;
        let _ = writeln!(text, "\na win (checked by replaying it), move by move:");
        let mut moves = solution.witness.iter().peekable();
        for card in 1..=deal.len() {
            let mut line = String::new();
            while let Some(step) = moves.next_if(|m| m.after_card == card) {
                let _ = write!(line, " {}->{}", step.from + 1, step.to + 1);
            }
            if !line.is_empty() {
                let _ = writeln!(
                    text,
                    "  after card {card} ({}):{line}",
                    rank_name(deal[card - 1])
                );
            }
        }
        let _ = writeln!(
            text,
            "(stacks numbered from 1 at the left; a->b moves stack a onto stack b)"
        );
    }
    Ok(text)
}
