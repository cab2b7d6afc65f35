//! `deckodds idiots-delight ...`: the distribution of cards left.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::context::Context;
use super::files::read_user_text;
use super::output::{emit, figure_options, output_format};
use super::progress::{human_seconds, peak_memory_bytes};
use super::sampling::Sampling;
use crate::cli::{
    self, Engine, IdiotsDelightCommand, IdiotsDelightDeck, LevelArgs, OutputArgs, PublishedCounts,
};
use crate::compare::{self, Agreement};
use crate::distribution::{CountDistribution, ExactDistribution, parse_count_table};
use crate::engine::ArrangementCounts;
use crate::engine::SequentialGame;
use crate::engine::Shard;
use crate::engine::arrangements;
use crate::engine::montecarlo::{self, RunPlan};
use crate::engine::naive_shuffle;
use crate::engine::sequential::{self, SequentialParams};
use crate::error::{Error, Result};
use crate::games::idiots_delight::power::PowerPlan;
use crate::games::idiots_delight::{
    EXACT_MAX_CARDS, ExactCost, IdiotsDelight, IdiotsDelightSimulation, SAS_PAPER_COUNTS,
};
use crate::report::chart::{self, BarChart, Series};
use crate::report::figures::{FigureOptions, thousands};
use crate::report::headline::{Headline, HeadlineFigure};
use crate::report::power::render_power;
use crate::report::{Method, Report, ReportDistribution};
use crate::rng::Shuffle;

/// The game name in reports.
const GAME: &str = crate::games::registry::IDIOTS_DELIGHT.report_name;
/// The outcome that is a win (no card left), as the registry says.
const WIN: &str = crate::games::registry::IDIOTS_DELIGHT.win();

/// The distribution key of every report (docs/GUIDE.md).
const KEY: &str = "cards-left";

/// Above these an exact run is refused unless `--force`: ten minutes, or
/// more memory than the memo budget.
const MAX_EXACT_SECONDS: f64 = 600.0;

pub(super) fn run(command: IdiotsDelightCommand, context: &Context) -> Result<()> {
    // The library names parameters (`suits x ranks`); the user gave flags.
    run_command(command, context).map_err(cli::name_flags::<IdiotsDelightCommand>)
}

fn run_command(command: IdiotsDelightCommand, context: &Context) -> Result<()> {
    match command {
        IdiotsDelightCommand::Exact {
            deck,
            engine,
            shuffle: shuffles,
            force,
            memory,
            output,
            ..
        } => {
            let request = ExactRequest {
                game: game(&deck)?,
                engine,
                shuffle: shuffles[0],
                force,
                memory_bytes: memory,
                shard: context.shard_of_enumeration(),
            };
            exact(&request, &shuffles, &output, context)
        }
        IdiotsDelightCommand::Mc {
            deck,
            sampling,
            shuffle,
            output,
            ..
        } => {
            let game = game(&deck)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let outputs = output_format(&output, 2)?;
            let counts = monte_carlo_counts(game, shuffle, n_trials, seed, context)?;
            // The games played: --trials, or as many as --until-halfwidth took.
            let n_trials = counts.trials();
            let report = monte_carlo_report(game, shuffle, n_trials, seed, counts);
            let headline = headline(&report);
            outputs.emit_report(&report, &headline, context)
        }
        IdiotsDelightCommand::Compare {
            deck,
            sampling,
            shuffle: shuffles,
            published,
            level: LevelArgs { level },
            chart,
            output,
        } => {
            let game = game(&deck)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let outputs = output_format(&output, 2)?;
            let (title, agreements) = match published {
                Some(source) => {
                    let comparison = compare_published(
                        game, &shuffles, &source, n_trials, seed, level, context,
                    )?;
                    if let Some(path) = &chart {
                        let svg = chart_svg(&comparison, figure_options(&output)?)?;
                        emit(&svg, Some(path), context)?;
                    }
                    (comparison.title, comparison.agreements)
                }
                None => compare_exact(game, &shuffles, n_trials, seed, level, context)?,
            };
            outputs.emit_agreements(&title, &agreements, context)
        }
        IdiotsDelightCommand::Power {
            deck,
            sampling,
            shuffle,
            level,
            replicates,
            output,
        } => {
            let game = game(&deck)?;
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let outputs = output_format(&output, 2)?;
            let plan = PowerPlan {
                game,
                shuffle,
                n_trials,
                seed,
                level,
                replicates,
            };
            let study = plan.run(|shuffle, games, seed| {
                monte_carlo_counts(game, shuffle, games, seed, context)
            })?;
            let params = params(game, shuffle);
            outputs.emit(context, |format, options| {
                render_power(&study, GAME, &params, format, options)
            })
        }
    }
}

/// The game of `--suits` and `--ranks`.
fn game(deck: &IdiotsDelightDeck) -> Result<IdiotsDelight> {
    IdiotsDelight::new(deck.suits, deck.ranks)
}

const GIB: f64 = (1u64 << 30) as f64;

/// The report parameters: the deck and the shuffle.
fn params(game: IdiotsDelight, shuffle: Shuffle) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("suits".into(), json!(game.deck().suits));
    params.insert("ranks".into(), json!(game.deck().ranks));
    params.insert("shuffle".into(), json!(shuffle.name()));
    params
}

// ---------------------------------------------------------------------------
// Exact.

/// A validated `exact` command.
#[derive(Clone, Copy)]
struct ExactRequest {
    game: IdiotsDelight,
    engine: Engine,
    shuffle: Shuffle,
    force: bool,
    memory_bytes: u64,
    shard: Option<Shard>,
}

/// The exact counts a request asks for, with a note on what they cost.
fn exact_counts(
    request: &ExactRequest,
    context: &Context,
) -> Result<(ArrangementCounts, Vec<String>)> {
    let game = request.game;
    let deck = game.deck().sorted_cards();
    let started = Instant::now();
    let mut notes = Vec::new();
    let counts = match (request.shuffle, request.engine) {
        (Shuffle::NaiveCarry, _) => {
            return Err(Error::invalid(
                "--shuffle",
                "naive-carry",
                "has no exact distribution (each game depends on all earlier ones); use uniform or naive, or `mc --shuffle naive-carry`",
            ));
        }
        (Shuffle::Naive, _) => {
            if request.shard.is_some() {
                return Err(Error::invalid(
                    "--shard",
                    "with --shuffle naive",
                    "only the exhaustive uniform enumeration is sharded",
                ));
            }
            if deck.len() > naive_shuffle::MAX_CARDS {
                return Err(Error::invalid(
                    "--suits x --ranks",
                    game.deck_name(),
                    format!(
                        "the exact naive-shuffle distribution handles at most {} cards ({} swap sequences); use `mc --shuffle naive`",
                        naive_shuffle::MAX_CARDS,
                        naive_shuffle::MAX_CARDS.pow(naive_shuffle::MAX_CARDS as u32)
                    ),
                ));
            }
            naive_shuffle::naive_shuffle_counts(&deck, game.n_outcomes(), |order| game.play(order))?
        }
        (Shuffle::Uniform, Engine::Memo) => {
            if request.shard.is_some() {
                return Err(Error::invalid(
                    "--shard",
                    "with --engine memo",
                    "only --engine exhaustive is sharded",
                ));
            }
            check_cost(&game, &game.exact_cost(), request)?;
            if let Some(counts) = uniform_counts::recall(game) {
                notes.push(
                    "the memoised enumeration this process made for an earlier table, reused"
                        .to_string(),
                );
                return Ok((counts, notes));
            }
            let params = SequentialParams {
                max_memo_bytes: request.memory_bytes,
                ..SequentialParams::default()
            };
            let progress = context.progress(sequential::progress_units(&deck), "deals", "parts");
            let (counts, stats) = context
                .with_threads(|| sequential::count_outcomes(&game, &deck, &params, &progress))??;
            notes.push(format!(
                "memo: {} entries, about {} MiB{}; {} nodes expanded, {} memo hits",
                stats.memo_entries,
                stats.memo_bytes >> 20,
                if stats.memo_full {
                    " (budget reached: later states recomputed)"
                } else {
                    ""
                },
                stats.nodes,
                stats.memo_hits
            ));
            uniform_counts::keep(game, &counts);
            counts
        }
        (Shuffle::Uniform, Engine::Exhaustive) => {
            let n_arrangements = arrangements::n_arrangements(&deck);
            let seconds = game.exhaustive_seconds();
            if seconds > MAX_EXACT_SECONDS && !request.force {
                return Err(Error::invalid(
                    "--suits x --ranks",
                    game.deck_name(),
                    format!(
                        "{n_arrangements} arrangements would take about {} on 2 cores; use --engine memo, a smaller deck, or --force",
                        human_seconds(seconds)
                    ),
                ));
            }
            let shard = request.shard.unwrap_or(Shard::WHOLE);
            let progress =
                context.progress(arrangements::progress_units(&deck), "arrangements", "parts");
            context.with_threads(|| {
                arrangements::count_arrangements_with(
                    &deck,
                    game.n_outcomes(),
                    game.lane_player(),
                    shard,
                    &progress,
                )
            })??
        }
    };
    let mut cost = format!("{:.2} s", started.elapsed().as_secs_f64());
    if let Some(peak) = peak_memory_bytes() {
        cost.push_str(&format!(", peak memory {} MiB", peak >> 20));
    }
    notes.insert(0, cost);
    Ok((counts, notes))
}

/// The uniform shuffle's exact counts of the decks this process has
/// enumerated, so that a table and its Monte-Carlo comparison (the 4 x 4
/// deck's: half a minute each) enumerate once in a `reproduce` run. The
/// counts are a function of the deck alone (the memo's budget changes the
/// time, never the counts), and only complete enumerations are kept: an
/// interrupted one returns an error before it is kept.
mod uniform_counts {
    use std::sync::Mutex;

    use crate::engine::ArrangementCounts;
    use crate::games::idiots_delight::IdiotsDelight;

    /// At most this many decks are kept (the published specs use 12; each
    /// entry is a few dozen big integers).
    const CAPACITY: usize = 32;

    static KEPT: Mutex<Vec<(IdiotsDelight, ArrangementCounts)>> = Mutex::new(Vec::new());

    /// The counts kept for `game`, if any.
    pub(super) fn recall(game: IdiotsDelight) -> Option<ArrangementCounts> {
        let kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.iter()
            .find(|(kept_game, _)| *kept_game == game)
            .map(|(_, counts)| counts.clone())
    }

    /// Keeps `counts`, the complete enumeration of `game` (the oldest entry
    /// goes when full).
    pub(super) fn keep(game: IdiotsDelight, counts: &ArrangementCounts) {
        let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if kept.iter().any(|(kept_game, _)| *kept_game == game) {
            return;
        }
        if kept.len() == CAPACITY {
            kept.remove(0);
        }
        kept.push((game, counts.clone()));
    }
}

/// Refuses a memoised run whose estimate is over the limits, unless forced,
/// and any deck beyond the memo key's limit.
fn check_cost(game: &IdiotsDelight, cost: &ExactCost, request: &ExactRequest) -> Result<()> {
    let estimate = format!(
        "exact enumeration is estimated at {} and {:.1} GiB of memo ({})",
        human_seconds(cost.seconds),
        cost.memory_bytes as f64 / GIB,
        cost.basis
    );
    if game.n_cards() > EXACT_MAX_CARDS {
        return Err(Error::invalid(
            "--suits x --ranks",
            game.deck_name(),
            format!(
                "{estimate}; deckodds enumerates at most {EXACT_MAX_CARDS} cards exactly, even with --force: use `idiots-delight mc`"
            ),
        ));
    }
    let too_slow = cost.seconds > MAX_EXACT_SECONDS;
    let too_big = cost.memory_bytes > request.memory_bytes;
    if (too_slow || too_big) && !request.force {
        return Err(Error::invalid(
            "--suits x --ranks",
            game.deck_name(),
            format!("{estimate}; choose a smaller deck, use `mc`, or pass --force"),
        ));
    }
    Ok(())
}

/// Prints the exact distribution under each of `shuffles` (one, or uniform
/// and naive side by side).
fn exact(
    request: &ExactRequest,
    shuffles: &[Shuffle],
    output: &OutputArgs,
    context: &Context,
) -> Result<()> {
    let outputs = output_format(output, 4)?;
    let game = request.game;
    let mut params = params(game, request.shuffle);
    let mut distributions = Vec::new();
    for &shuffle in shuffles {
        let request = ExactRequest {
            shuffle,
            ..*request
        };
        let counts = context.enumerate(|| {
            let (counts, notes) = exact_counts(&request, context)?;
            for note in notes {
                context.note(&format!("{} {}: {note}", game.deck_name(), shuffle.name()));
            }
            Ok(counts)
        })?;
        // The denominator, so that counts can be recovered exactly (and
        // shards added): count = probability x arrangements (for the naive
        // shuffle, swap sequences: n^n).
        let key = if shuffles.len() == 1 {
            params.insert("arrangements".into(), json!(counts.total.to_string()));
            KEY.to_string()
        } else {
            format!("shuffle={}", shuffle.name())
        };
        distributions.push(ReportDistribution::Exact(
            counts.to_distribution(&key, game.outcome_labels()),
        ));
    }
    if shuffles.len() > 1 {
        params.insert(
            "shuffle".into(),
            json!(shuffles.iter().map(|s| s.name()).collect::<Vec<_>>()),
        );
    }
    if shuffles.contains(&Shuffle::Uniform) {
        params.insert("engine".into(), json!(request.engine.name()));
    }
    if let Some(shard) = request.shard {
        params.insert("shard".into(), json!(shard.to_string()));
    }
    let report = Report {
        game: GAME.into(),
        method: Method::Exact,
        params,
        seed: None,
        trials: None,
        distributions,
        summary: Vec::new(),
    };
    let headline = headline(&report);
    outputs.emit_report(&report, &headline, context)
}

/// What a report of cards left leads with: the odds of winning (no card
/// left), for each of its distributions (each shuffle's).
fn headline(report: &Report) -> Headline {
    let named = report.distributions.len() > 1;
    Headline::of(report.distributions.iter().map(|distribution| {
        let mut label = "P(win) = P(0 cards left)".to_string();
        if named {
            label = format!("{label}, {}", distribution.key());
        }
        HeadlineFigure::probability(&label, distribution, WIN).unwrap_or_else(|| {
            // Every discard takes two or four cards.
            HeadlineFigure::impossible(&label, "an odd deck always leaves a card")
        })
    }))
}

/// The exact distribution of `game` under `shuffle`, for comparisons.
fn exact_distribution(
    game: IdiotsDelight,
    shuffle: Shuffle,
    context: &Context,
) -> Result<ExactDistribution> {
    let request = ExactRequest {
        game,
        engine: Engine::Memo,
        shuffle,
        force: false,
        memory_bytes: (16.0 * GIB) as u64,
        shard: None,
    };
    let (counts, _) = exact_counts(&request, context)?;
    Ok(counts.to_distribution(KEY, game.outcome_labels()))
}

// ---------------------------------------------------------------------------
// Monte Carlo.

/// Monte-Carlo counts of `n_trials` games, with a progress bar.
fn monte_carlo_counts(
    game: IdiotsDelight,
    shuffle: Shuffle,
    n_trials: u64,
    seed: u64,
    context: &Context,
) -> Result<CountDistribution> {
    let simulation = IdiotsDelightSimulation::new(game, shuffle);
    let distribution = |counts: &[u64]| {
        vec![CountDistribution {
            key: KEY.into(),
            outcomes: game.outcome_labels(),
            counts: counts.to_vec(),
        }]
    };
    let sampled = context.sample(
        &Sampling {
            plan: RunPlan::new(n_trials, seed, 0),
            units_per_trial: 1,
            message: &format!("{} games", shuffle.name()),
            unit: "games",
            outcomes: &distribution,
            consistent: None,
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress)),
    )?;
    Ok(CountDistribution {
        key: KEY.into(),
        outcomes: game.outcome_labels(),
        counts: sampled.tally,
    })
}

fn monte_carlo_report(
    game: IdiotsDelight,
    shuffle: Shuffle,
    n_trials: u64,
    seed: u64,
    counts: CountDistribution,
) -> Report {
    Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params: params(game, shuffle),
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: vec![ReportDistribution::Counts(counts)],
        summary: Vec::new(),
    }
}

// ---------------------------------------------------------------------------
// Comparisons.

fn compare_exact(
    game: IdiotsDelight,
    shuffles: &[Shuffle],
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    if game.n_cards() > EXACT_MAX_CARDS {
        return Err(Error::invalid(
            "--suits x --ranks",
            game.deck_name(),
            format!(
                "has no exact distribution to compare with (exact runs stop at {EXACT_MAX_CARDS} cards); compare 52 cards with --published sas, or choose a smaller deck"
            ),
        ));
    }
    let mut agreements = Vec::new();
    for &shuffle in shuffles {
        let exact = exact_distribution(game, shuffle, context)?;
        let counts = monte_carlo_counts(game, shuffle, n_trials, seed, context)?;
        let mut agreement = compare::goodness_of_fit(&exact, &counts, level)?;
        agreement.key = format!("shuffle={}", shuffle.name());
        agreements.push(agreement);
    }
    let title = format!(
        "Idiot's Delight {}: Monte Carlo ({} games, seed {seed}) vs exact",
        game.deck_name(),
        thousands(n_trials)
    );
    Ok((title, agreements))
}

/// A published table against deckodds' runs, one per shuffle.
struct PublishedComparison {
    title: String,
    agreements: Vec<Agreement>,
    /// The published table's name and counts.
    published: (String, CountDistribution),
    /// Each shuffle's Monte-Carlo counts.
    runs: Vec<(Shuffle, CountDistribution)>,
}

fn compare_published(
    game: IdiotsDelight,
    shuffles: &[Shuffle],
    source: &PublishedCounts,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<PublishedComparison> {
    let (name, published) = published_counts(game, source)?;
    let mut agreements = Vec::new();
    let mut runs = Vec::new();
    for &shuffle in shuffles {
        let counts = monte_carlo_counts(game, shuffle, n_trials, seed, context)?;
        let mut agreement = compare::homogeneity(&published, &counts, level)?;
        agreement.key = format!("shuffle={}", shuffle.name());
        agreements.push(agreement);
        runs.push((shuffle, counts));
    }
    let title = format!(
        "Idiot's Delight {}: {name} ({} games) vs deckodds Monte Carlo ({} games, seed {seed}) by shuffle",
        game.deck_name(),
        thousands(published.trials()),
        thousands(n_trials)
    );
    Ok(PublishedComparison {
        title,
        agreements,
        published: (name, published),
        runs,
    })
}

/// The chart of a published comparison: the first run as bars with 95%
/// Wilson intervals, the published table and the other runs as markers.
fn chart_svg(comparison: &PublishedComparison, figure: FigureOptions) -> Result<String> {
    let series_of = |name: String, counts: &CountDistribution, intervals: bool| Series {
        name,
        values: counts.proportions(),
        intervals: intervals.then(|| {
            counts
                .intervals95()
                .iter()
                .map(|interval| (interval.low, interval.high))
                .collect()
        }),
    };
    let run_name = |shuffle: Shuffle, counts: &CountDistribution| {
        format!(
            "deckodds, {} shuffle ({} games)",
            shuffle.name(),
            thousands(counts.trials())
        )
    };
    let mut series = Vec::new();
    let mut runs = comparison.runs.iter();
    if let Some((shuffle, counts)) = runs.next() {
        series.push(series_of(run_name(*shuffle, counts), counts, true));
    }
    let (name, published) = &comparison.published;
    series.push(series_of(
        format!("{name} ({} games)", thousands(published.trials())),
        published,
        false,
    ));
    for (shuffle, counts) in runs {
        series.push(series_of(run_name(*shuffle, counts), counts, false));
    }
    let values: Vec<f64> = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .collect();
    chart::render_svg(&BarChart {
        title: "Idiot's Delight: cards left".into(),
        caption: "52 cards; the published table beside deckodds' shuffles".into(),
        size: figure.size,
        x_label: "cards left".into(),
        y_label: "percent of games".into(),
        categories: published.outcomes.clone(),
        series,
        log_y: figure.y_scale.is_log(&values),
        annotation: String::new(),
    })
}

/// The published counts named by `--published`: `sas` or a CSV file.
fn published_counts(
    game: IdiotsDelight,
    source: &PublishedCounts,
) -> Result<(String, CountDistribution)> {
    let labels = game.outcome_labels();
    let PublishedCounts::File(path) = source else {
        if game.deck() != IdiotsDelight::standard().deck() {
            return Err(Error::invalid(
                "--published",
                "sas",
                "the SAS paper's table is for the standard 4x13 deck; drop --suits/--ranks",
            ));
        }
        return Ok((
            "the SAS paper's table".into(),
            CountDistribution {
                key: KEY.into(),
                outcomes: labels,
                counts: SAS_PAPER_COUNTS.iter().map(|&(_, count)| count).collect(),
            },
        ));
    };
    let text = read_user_text(path, "a published table of counts (CSV: outcome, count)")?;
    let counts = parse_count_table(&text, &labels).map_err(|message| Error::BadInputFile {
        path: path.to_path_buf(),
        message,
    })?;
    // The games behind the table: a sum that does not fit is no table of
    // games, and must not wrap into a small one.
    if counts
        .iter()
        .try_fold(0u64, |sum, &count| sum.checked_add(count))
        .is_none()
    {
        return Err(Error::BadInputFile {
            path: path.to_path_buf(),
            message: format!(
                "its counts sum past {} (2^64 - 1): they cannot be counts of games",
                u64::MAX
            ),
        });
    }
    Ok((
        path.display().to_string(),
        CountDistribution {
            key: KEY.into(),
            outcomes: labels,
            counts,
        },
    ))
}
