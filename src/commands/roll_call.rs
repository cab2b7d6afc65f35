//! `deckodds roll-call ...`: the odds of winning every version of Roll-Call.

use std::fmt::Write as _;
use std::time::Instant;

use num_traits::ToPrimitive;
use serde_json::{Map, Value, json};

use super::context::Context;
use super::output::{
    Outputs, deal_text, emit, output_format, record_part, save_deals, save_wins_request,
};
use super::progress::human_seconds;
use super::sampling::{Sampled, Sampling};
use crate::cards::rank_name;
use crate::cli::{
    self, LevelArgs, OneOrAll, RollCallBaseline, RollCallCommand, RollCallDeck, RollCallVersion,
};
use crate::compare::{self, Agreement};
use crate::engine::ArrangementCounts;
use crate::engine::Shard;
use crate::engine::arrangements;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::{Error, Result};
use crate::games::roll_call::distributions::{FIRST_PASS, longer_tails, pad_exact, tail_lengths};
use crate::games::roll_call::search::{ZeroStrikeFound, ZeroStrikeSearch, longest_zero_strike};
use crate::games::roll_call::{
    Count, LIMITS, Observer, PassOrder, RollCall, RollCallParams, RollCallSimulation,
};
use crate::report::figures::thousands;
use crate::report::headline::VersionTable;
use crate::report::headline::render_version_table;
use crate::report::headline::{Headline, HeadlineFigure};
use crate::report::{Method, Report, ReportDistribution};

/// The game name in reports.
const GAME: &str = crate::games::registry::ROLL_CALL.report_name;

/// Above this an exact run is refused unless `--force`: ten minutes.
const MAX_EXACT_SECONDS: f64 = 600.0;

/// Above this an exact run is out of reach, `--force` or not: a year (on
/// two cores, for each part of a run cut with `--shard`).
const OUT_OF_REACH_SECONDS: f64 = 365.25 * 86_400.0;

pub(super) fn run(command: RollCallCommand, context: &Context) -> Result<()> {
    // The library names parameters (`ranks x copies`); the user gave flags.
    run_command(command, context).map_err(cli::name_flags::<RollCallCommand>)
}

fn run_command(command: RollCallCommand, context: &Context) -> Result<()> {
    match command {
        RollCallCommand::Exact {
            version,
            force,
            output,
            ..
        } => {
            let game = game(&version)?;
            let shard = context.shard_of_enumeration();
            let outputs = output_format(&output, 4)?;
            let counts = context
                .enumerate(|| exact_counts(game, force, shard.unwrap_or(Shard::WHOLE), context))?;
            let mut report = Report {
                game: GAME.into(),
                method: Method::Exact,
                params: params(game),
                seed: None,
                trials: None,
                distributions: game
                    .exact_distributions(&counts)
                    .into_iter()
                    .map(ReportDistribution::Exact)
                    .collect(),
                summary: Vec::new(),
            };
            record_part(&mut report.params, shard, &counts);
            let headline = headline(&report);
            outputs.emit_report(&report, &headline, context)
        }
        RollCallCommand::Mc {
            version,
            sampling,
            save_wins,
            output,
            ..
        } => {
            let (n_trials, seed) = (sampling.trials, sampling.seed);
            let save_wins = save_wins_request(save_wins)?;
            let outputs = output_format(&output, 2)?;
            let versions = versions(&version)?;
            if versions.len() > 1 {
                if let Some((n_wins, path)) = save_wins {
                    return Err(Error::invalid(
                        "--save-wins",
                        format!("{n_wins} {path}"),
                        "keeps the won deals of one version: give --count and --order one value each",
                    ));
                }
                if let Some(until) = &context.until {
                    return Err(Error::invalid(
                        "--until-halfwidth",
                        until.target.half_width,
                        "stops one version's run, and with --count all or --order all every version plays the same deals: give --trials",
                    ));
                }
                return versions_side_by_side(&versions, n_trials, seed, &outputs, context);
            }
            let game = versions[0];
            let (report, n_trials) = monte_carlo_report(game, n_trials, seed, context)?;
            if let Some((n_wins, path)) = save_wins {
                let simulation = RollCallSimulation::new(game);
                let wins = simulation.first_wins(&RunPlan::new(n_trials, seed, 0), n_wins);
                let title = format!(
                    "Roll-Call {}: the first {} games won of {n_trials} (seed {seed})",
                    game.params(),
                    wins.len()
                );
                save_deals(&path, &title, &wins, context)?;
            }
            let headline = headline(&report);
            outputs.emit_report(&report, &headline, context)
        }
        RollCallCommand::Compare {
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
                RollCallBaseline::Exact => compare_exact(game, n_trials, seed, level, context)?,
                other => compare_versions(game, other, n_trials, seed, level, context)?,
            };
            outputs.emit_agreements(&title, &agreements, context)
        }
        RollCallCommand::FirstPass { deck, output } => {
            let game = game(&RollCallVersion {
                deck,
                count: OneOrAll::One(Count::Continuous),
                order: OneOrAll::One(PassOrder::Same),
            })?;
            let outputs = output_format(&output, 4)?;
            let mut params = Map::new();
            params.insert("ranks".into(), json!(game.params().ranks));
            params.insert("copies".into(), json!(game.params().copies));
            let report = Report {
                game: GAME.into(),
                method: Method::Exact,
                params,
                seed: None,
                trials: None,
                distributions: vec![ReportDistribution::Exact(game.first_pass_distribution()?)],
                summary: Vec::new(),
            };
            // No match in the first pass is Frustration solitaire's loss.
            let headline = Headline::probabilities(
                &report.distributions,
                &[(FIRST_PASS, "P(no match in the first pass)")],
                "0",
            );
            outputs.emit_report(&report, &headline, context)
        }

        RollCallCommand::Replay { version, deal } => {
            let game = game(&version)?;
            game.check_deal(&deal)?;
            emit(&replay(game, &deal), None, context)
        }
        RollCallCommand::LongestZeroStrike { version, seed } => {
            let game = game(&version)?;
            let search = ZeroStrikeSearch {
                seed,
                ..ZeroStrikeSearch::default()
            };
            let progress = context.progress(search.max_nodes, "search", "nodes");
            let found = longest_zero_strike(&game, &search, &progress)?;
            drop(progress);
            emit(&zero_strike_text(game, &search, &found), None, context)
        }
    }
}

/// The version named on the command line.
fn game(version: &RollCallVersion) -> Result<RollCall> {
    for (option, all) in [
        ("--count", version.count == OneOrAll::All),
        ("--order", version.order == OneOrAll::All),
    ] {
        if all {
            return Err(Error::invalid(
                option,
                "all",
                "runs every version side by side in `roll-call mc` only: name one here",
            ));
        }
    }
    let all = versions(version)?;
    Ok(all[0])
}

/// The versions named on the command line: one, or with `all` for
/// `--count` or `--order` each value of it (continuous before restart,
/// same before reversed).
fn versions(version: &RollCallVersion) -> Result<Vec<RollCall>> {
    let RollCallDeck { ranks, copies } = version.deck;
    let counts = match version.count {
        OneOrAll::All => vec![Count::Continuous, Count::Restart],
        OneOrAll::One(count) => vec![count],
    };
    let orders = match version.order {
        OneOrAll::All => vec![PassOrder::Same, PassOrder::Reversed],
        OneOrAll::One(order) => vec![order],
    };
    let mut versions = Vec::new();
    for &count in &counts {
        for &order in &orders {
            versions.push(RollCall::new(RollCallParams {
                ranks,
                copies,
                count,
                order,
            })?);
        }
    }
    Ok(versions)
}

/// The Monte-Carlo report of one version (and the games it played:
/// `--trials`, or as many as `--until-halfwidth` took).
fn monte_carlo_report(
    game: RollCall,
    n_trials: u64,
    seed: u64,
    context: &Context,
) -> Result<(Report, u64)> {
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
        distributions: game
            .count_distributions(&counts, None)
            .into_iter()
            .map(ReportDistribution::Counts)
            .collect(),
        summary: Vec::new(),
    };
    Ok((report, n_trials))
}

/// `mc --count all` and/or `--order all`: every version on the same deals
/// (each version's run is the one `mc` makes of it with this seed: the
/// deals depend on the seed, not on the version), summed up as P(win) by
/// version, with the versions' full reports in JSON.
fn versions_side_by_side(
    versions: &[RollCall],
    n_trials: u64,
    seed: u64,
    outputs: &Outputs,
    context: &Context,
) -> Result<()> {
    let mut reports = Vec::new();
    let mut headlines = Vec::new();
    for &game in versions {
        let (report, _) = monte_carlo_report(game, n_trials, seed, context)?;
        let p = game.params();
        headlines.push((
            vec![p.count.name().to_string(), p.order.name().to_string()],
            headline(&report),
        ));
        reports.push(report);
    }
    let columns: Vec<(&str, &str)> = WIN_QUESTIONS
        .iter()
        .map(|&(_, label, _, head)| (head, label))
        .collect();
    let table = VersionTable::new(&["count", "order"], &columns, &headlines);
    let first = versions[0].params();
    let mut params = Map::new();
    params.insert("ranks".into(), json!(first.ranks));
    params.insert("copies".into(), json!(first.copies));
    let named = |values: Vec<&str>| match values[..] {
        [one] => json!(one),
        _ => json!("all"),
    };
    let mut counts: Vec<&str> = versions.iter().map(|g| g.params().count.name()).collect();
    counts.dedup();
    let mut orders: Vec<&str> = versions.iter().map(|g| g.params().order.name()).collect();
    orders.sort_unstable();
    orders.dedup();
    params.insert("count".into(), named(counts));
    params.insert("order".into(), named(orders));
    let base = Report {
        game: GAME.into(),
        method: Method::MonteCarlo,
        params,
        seed: Some(seed),
        trials: Some(n_trials),
        distributions: Vec::new(),
        summary: Vec::new(),
    };
    let what = format!(
        "P(win) by version, in percent with 95% intervals: K = strikes in a row that lose the game; every version plays the same {} deals",
        thousands(n_trials)
    );
    outputs.emit(context, |format, options| {
        render_version_table(&base, &what, &table, &reports, format, options)
    })
}

/// The version, as reports record it.
fn params(game: RollCall) -> Map<String, Value> {
    let p = game.params();
    let mut params = Map::new();
    params.insert("ranks".into(), json!(p.ranks));
    params.insert("copies".into(), json!(p.copies));
    params.insert("count".into(), json!(p.count.name()));
    params.insert("order".into(), json!(p.order.name()));
    params
}

/// The questions a Roll-Call report answers first, as (distribution key,
/// headline label, winning outcome, column head in a table of versions):
/// winning with K = 1, 2, 3 strikes allowed in a row and in unlimited
/// play, and winning without a strike.
const WIN_QUESTIONS: [(&str, &str, &str, &str); 5] = [
    ("K=1", "P(win), K=1", "0", "K=1"),
    ("K=2", "P(win), K=2", "0", "K=2"),
    ("K=3", "P(win), K=3", "0", "K=3"),
    ("K=unlimited", "P(win), unlimited", "0", "unlimited"),
    ("zero-strike", "P(zero-strike win)", "yes", "zero-strike"),
];

/// What a report of a version leads with: the odds of winning it under
/// each limit on strikes, and without a strike.
fn headline(report: &Report) -> Headline {
    Headline::of(WIN_QUESTIONS.iter().filter_map(|&(key, label, won, _)| {
        let distribution = report.distributions.iter().find(|d| d.key() == key)?;
        HeadlineFigure::probability(label, distribution, won)
    }))
}

fn deck_name(game: &RollCall) -> String {
    let p = game.params();
    format!("{} ranks x {} copies", p.ranks, p.copies)
}

// ---------------------------------------------------------------------------
// Exact.

/// Every distinct arrangement played, all distributions at once; refused
/// up front when estimated at over ten minutes, unless forced.
fn exact_counts(
    game: RollCall,
    force: bool,
    shard: Shard,
    context: &Context,
) -> Result<ArrangementCounts> {
    let deck = game.exhaustive_deck();
    let total = arrangements::n_arrangements(&deck);
    let seconds = game.exhaustive_seconds() / shard.count as f64;
    if seconds > OUT_OF_REACH_SECONDS {
        return Err(Error::invalid(
            "--ranks x --copies",
            deck_name(&game),
            format!(
                "has {:.1e} arrangements, which would take {} on two cores: out of reach of exact enumeration. For the odds of winning use `roll-call mc` (Monte Carlo), and for the first pass exactly `roll-call first-pass` (any deck)",
                total.to_f64().unwrap_or(f64::INFINITY),
                human_seconds(seconds)
            ),
        ));
    }
    if seconds > MAX_EXACT_SECONDS && !force {
        return Err(Error::invalid(
            "--ranks x --copies",
            deck_name(&game),
            format!(
                "has {total} arrangements, estimated at {} on two cores; add --force to run it anyway, or split it with --shard",
                human_seconds(seconds)
            ),
        ));
    }
    let simulation = RollCallSimulation::new(game);
    let started = Instant::now();
    let progress = context.progress(
        shard.share(arrangements::progress_units(&deck)),
        "arrangements",
        "parts",
    );
    let counts = context.with_threads(|| {
        arrangements::count_arrangements_with(
            &deck,
            simulation.tally().n_bins(),
            simulation.clone(),
            shard,
            &progress,
        )
    })??;
    context.note(&format!(
        "{} arrangements in {:.2} s",
        counts.total,
        started.elapsed().as_secs_f64()
    ));
    Ok(counts)
}

/// Decks larger than this are compared on their first pass only (13 x 1
/// has 6.2e9 arrangements; the next shapes have far more).
const MAX_EXACT_COMPARE_CARDS: usize = 13;

// ---------------------------------------------------------------------------
// Monte Carlo.

/// The Monte-Carlo counts of `game`: the games played (--trials, or as
/// many as --until-halfwidth took) and their tally.
fn monte_carlo_counts(
    game: RollCall,
    n_trials: u64,
    seed: u64,
    stream: u64,
    context: &Context,
) -> Result<Sampled> {
    let simulation = RollCallSimulation::new(game);
    context.sample(
        &Sampling {
            plan: RunPlan::new(n_trials, seed, stream),
            units_per_trial: 1,
            message: &format!("games ({})", game.params()),
            unit: "games",
            outcomes: &|counts| game.count_distributions(counts, None),
            consistent: None,
        },
        |progress, plan, chunks| Ok(montecarlo::run_chunks(&simulation, plan, chunks, progress)),
    )
}

// ---------------------------------------------------------------------------
// Comparisons.

/// Monte Carlo against the exhaustive enumeration, every distribution.
fn compare_exact(
    game: RollCall,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    if game.n_cards() > MAX_EXACT_COMPARE_CARDS {
        // Too many arrangements to play them all, but the first pass is
        // exact for any deck.
        let exact = game.first_pass_distribution()?;
        let counts = monte_carlo_counts(game, n_trials, seed, 0, context)?.tally;
        let sampled = game
            .count_distributions(&counts, None)
            .into_iter()
            .find(|d| d.key == FIRST_PASS)
            .expect("every tally has the first pass");
        let agreement = compare::goodness_of_fit(&exact, &sampled, level)?;
        let title = format!(
            "Roll-Call {}: Monte Carlo ({n_trials} games, seed {seed}) vs the exact first pass (rook polynomials; the deck is too large to play every arrangement)",
            game.params()
        );
        return Ok((title, vec![agreement]));
    }
    let exact = game.exact_distributions(&exact_counts(game, false, Shard::WHOLE, context)?);
    let exact_lengths = tail_lengths(exact.iter().map(|d| (d.key.as_str(), d.outcomes.len())));
    let counts = monte_carlo_counts(game, n_trials, seed, 0, context)?.tally;
    // Monte Carlo cannot go past the exact support unless the engines
    // disagree; if it does, keep its bins so the comparison shows it.
    let own = tail_lengths(
        game.count_distributions(&counts, None)
            .iter()
            .map(|d| (d.key.as_str(), d.outcomes.len())),
    );
    let lengths = longer_tails(exact_lengths, own);
    let exact = pad_exact(exact, lengths);
    let sampled = game.count_distributions(&counts, Some(lengths));
    let agreements = compare::goodness_of_fit_all(&exact, &sampled, level)?;
    let title = format!(
        "Roll-Call {}: Monte Carlo ({} games, seed {seed}) vs exact",
        game.params(),
        thousands(n_trials)
    );
    Ok((title, agreements))
}

/// One version against another (same vs reversed order, or continuous vs
/// restart count), each on its own games (independent streams), by
/// chi-square homogeneity per distribution.
fn compare_versions(
    game: RollCall,
    what: RollCallBaseline,
    n_trials: u64,
    seed: u64,
    level: f64,
    context: &Context,
) -> Result<(String, Vec<Agreement>)> {
    let p = game.params();
    let other = RollCall::new(match what {
        RollCallBaseline::Order => RollCallParams {
            order: match p.order {
                PassOrder::Same => PassOrder::Reversed,
                PassOrder::Reversed => PassOrder::Same,
            },
            ..p
        },
        _ => RollCallParams {
            count: match p.count {
                Count::Continuous => Count::Restart,
                Count::Restart => Count::Continuous,
            },
            ..p
        },
    })?;
    let run = |game: RollCall, stream: u64| -> Result<Vec<u64>> {
        Ok(monte_carlo_counts(game, n_trials, seed, stream, context)?.tally)
    };
    let (mine, theirs) = (run(game, 0)?, run(other, 1)?);
    let a = game.count_distributions(&mine, None);
    let b = other.count_distributions(&theirs, None);
    let own_a = tail_lengths(a.iter().map(|d| (d.key.as_str(), d.outcomes.len())));
    let own_b = tail_lengths(b.iter().map(|d| (d.key.as_str(), d.outcomes.len())));
    let lengths = longer_tails(own_a, own_b);
    let agreements = compare::homogeneity_all(
        &game.count_distributions(&mine, Some(lengths)),
        &other.count_distributions(&theirs, Some(lengths)),
        level,
    )?;
    let title = format!(
        "Roll-Call {}: {} vs {} ({n_trials} games each, seed {seed}, independent games)",
        deck_name(&game),
        version_name(&game),
        version_name(&other)
    );
    Ok((title, agreements))
}

fn version_name(game: &RollCall) -> String {
    let p = game.params();
    format!("count {}, order {}", p.count.name(), p.order.name())
}

// ---------------------------------------------------------------------------
// The longest zero-strike win.

fn zero_strike_text(game: RollCall, search: &ZeroStrikeSearch, found: &ZeroStrikeFound) -> String {
    // The search verified the game already; this replay is the one the
    // reader sees, through the same play function.
    let record = game.play(&found.best.deal);
    let mut text = format!(
        "Roll-Call, {}: the longest zero-strike win found (seed {}, {} of at most {} nodes)\n\n",
        game.params(),
        search.seed,
        found.nodes,
        search.max_nodes
    );
    let _ = writeln!(text, "passes: {}", found.best.passes);
    let _ = writeln!(text, "deal:   {}", deal_text(&found.best.deal));
    let _ = writeln!(
        text,
        "replay: {} in {} passes with {} strikes",
        if record.left == 0 { "won" } else { "LOST" },
        record.passes,
        record.strikes
    );
    let _ = writeln!(
        text,
        "bound:  no zero-strike win has more than {} passes: {}{}",
        found.upper_bound,
        found.bound_reason,
        if found.optimal() {
            " (so this game is a longest one)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        text,
        "\nto watch it: deckodds roll-call replay --ranks {} --copies {} --count {} --order {} --deal \"{}\"",
        game.params().ranks,
        game.params().copies,
        game.params().count.name(),
        game.params().order.name(),
        deal_text(&found.best.deal)
    );
    text
}

// ---------------------------------------------------------------------------
// Replay.

/// Writes the game pass by pass: each card turned as `card/count`, a `*`
/// after a match, one line per sweep of the count.
struct Transcript {
    text: String,
    ranks: u8,
    on_line: usize,
}

impl Observer for Transcript {
    fn pass_starts(&mut self, pass: u16, cards: &[u8], count: u8) {
        let _ = write!(
            self.text,
            "pass {}: {} card(s), count from {}\n ",
            pass + 1,
            cards.len(),
            rank_name(count)
        );
        self.on_line = 0;
    }

    fn card_turned(&mut self, rank: u8, count: u8) {
        if self.on_line == usize::from(self.ranks) {
            self.text.push_str("\n ");
            self.on_line = 0;
        }
        let mark = if rank == count { "*" } else { " " };
        let _ = write!(
            self.text,
            " {:>2}/{:<2}{mark}",
            rank_name(rank),
            rank_name(count)
        );
        self.on_line += 1;
    }

    fn pass_ends(&mut self, matches: u8, strikes_in_a_row: u16) {
        let _ = write!(self.text, "\n  {matches} matched");
        if matches == 0 {
            let _ = write!(self.text, " (strike, {strikes_in_a_row} in a row)");
        }
        self.text.push('\n');
    }
}

fn replay(game: RollCall, deal: &[u8]) -> String {
    let mut transcript = Transcript {
        text: format!(
            "Roll-Call, {}\ndeal: {}\neach card as card/count; * = matched and discarded\n\n",
            game.params(),
            deal_text(deal)
        ),
        ranks: game.params().ranks,
        on_line: 0,
    };
    let record = game.play_with(deal, &mut transcript);
    let mut text = transcript.text;
    let verdict = |left: u8| {
        if left == 0 {
            "won".to_string()
        } else {
            format!("lost with {left} cards left")
        }
    };
    let _ = writeln!(
        text,
        "\nunlimited play: {} after {} passes, {} strikes{}",
        verdict(record.left),
        record.passes,
        record.strikes,
        if record.zero_strike_win() {
            " (a zero-strike win)"
        } else {
            ""
        }
    );
    for (limit, left) in LIMITS.iter().zip(record.left_limited) {
        let _ = writeln!(
            text,
            "K={limit} (lost at {limit} strikes in a row): {}",
            verdict(left)
        );
    }
    text
}
