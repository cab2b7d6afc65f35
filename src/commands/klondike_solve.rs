//! `deckodds klondike solve`: which deals can be won with every card seen
//! (RULES.md section 7), one given deal, a file of deals, or random deals
//! sampled as every Monte-Carlo run is (threads, shards, checkpoints,
//! `merge`, `--until-halfwidth` on the verdicts), each also played by the
//! fixed policy of section 4.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use super::context::Context;
use super::files::read_user_text;
use super::output::{Outputs, output_format};
use super::sampling::{Sampled, Sampling};
use crate::cards::Card;
use crate::cli::{DealSource, FreePlayArgs, OutputArgs};
use crate::engine::Progress;
use crate::engine::montecarlo::{self, RunPlan};
use crate::error::{Error, Result};
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Layout};
use crate::games::klondike::parse_deal;
use crate::games::klondike::record::{RecordOptions, render_solution};
use crate::games::klondike::solve::sample::{
    self, DealSummary, EVERY_DEAL, N_BINS, SolveCounts, SolveSimulation, SolvedDeal, add_to_tally,
    solve_deal, verdict_distributions,
};
use crate::games::klondike::solve::{SolveBudget, Solver, Verdict, never_home_at_deal};
use crate::report::klondike_solve::{SingleDeal, SolveRun, render_solve, render_verdicts_csv};
use crate::report::solvitaire;

/// Deals per chunk of a random run: a deal may take seconds, so the
/// runner's usual chunks would leave all but one core idle. (The counts
/// depend on it, as on any chunk size, but not on the threads.)
pub(super) const SOLVE_CHUNK: u64 = 4;

/// `klondike solve`'s options, as the command line gave them.
pub(super) struct SolveArgs {
    pub rules: FreePlayArgs,
    pub source: DealSource,
    pub max_nodes: u64,
    pub max_seconds: Option<Duration>,
    /// `--verdicts FILE`: a CSV row a deal.
    pub verdicts: Option<PathBuf>,
    pub output: OutputArgs,
}

/// What to solve.
enum Deals {
    /// `--deal`.
    One(Box<[Card; 52]>),
    /// `--deals FILE`: the deals, first line first.
    Listed(Vec<[Card; 52]>),
    /// `--trials N --seed S`.
    Random { n_trials: u64, seed: u64 },
}

/// Runs `klondike solve`. Errors name the library's parameters (`draw`);
/// the caller names the flags.
pub(super) fn run(args: SolveArgs, context: &Context) -> Result<()> {
    let rules = FreePlayRules::new(args.rules.draw, args.rules.passes, Layout::FULL)?;
    let budget = sample::budget(args.max_nodes, args.max_seconds);
    let DealSource {
        deal,
        deals,
        trials,
        seed,
    } = &args.source;
    let deals = match (deal, deals, trials) {
        (Some(deal), _, _) => Deals::One(Box::new(*deal)),
        (None, Some(path), _) => Deals::Listed(read_deals(path)?),
        (None, None, Some(n_trials)) => Deals::Random {
            n_trials: *n_trials,
            seed: *seed,
        },
        // A precision target takes the place of --trials, as for `mc`.
        (None, None, None) if context.until.is_some() => Deals::Random {
            n_trials: context.until.as_ref().map_or(1, |until| until.max_trials),
            seed: *seed,
        },
        (None, None, None) => {
            return Err(Error::invalid(
                "solve",
                "without --deal, --deals or --trials",
                "needs one of them: a deal, a file of deals, or a number of random deals",
            ));
        }
    };
    let outputs = Written {
        outputs: output_format(&args.output, 2)?,
        verdicts: args.verdicts.as_deref(),
    };
    match deals {
        Deals::One(deal) => {
            refuse_sampling_options(context, "klondike solve --deal")?;
            solve_one(rules, budget, &deal, &outputs, context)
        }
        Deals::Listed(deals) => {
            refuse_sampling_options(context, "klondike solve --deals")?;
            solve_listed(rules, budget, &deals, &outputs, context)
        }
        Deals::Random { n_trials, seed } => {
            solve_random(rules, budget, n_trials, seed, &outputs, context)
        }
    }
}

/// What a solve writes: its report (`--out`, `--format`) and, with
/// `--verdicts`, each deal's verdict as CSV.
struct Written<'a> {
    outputs: Outputs,
    verdicts: Option<&'a Path>,
}

impl Written<'_> {
    /// Writes `run`'s report and verdicts, all rendered before any is
    /// written.
    fn emit(&self, run: &SolveRun, context: &Context) -> Result<()> {
        let files = match self.verdicts {
            Some(path) => {
                let listed = run.deals.len() as u64;
                if listed < run.counts.deals {
                    context.note(&format!(
                        "note: --verdicts lists the {listed} deals this process solved, of the {} counted (the others' counts came from a checkpoint or parts)",
                        run.counts.deals
                    ));
                }
                vec![(path, render_verdicts_csv(run.deals).into_bytes())]
            }
            None => Vec::new(),
        };
        self.outputs.emit_with_files(
            context,
            |format, options| render_solve(run, format, options),
            files,
        )
    }
}

/// Refuses the options of a sampling run for given deals, which sample
/// nothing.
fn refuse_sampling_options(context: &Context, command: &str) -> Result<()> {
    context.refuse_parts(command)?;
    if let Some(until) = &context.until {
        return Err(Error::invalid(
            "--until-halfwidth",
            until.target.half_width,
            format!("{command} solves the deals given, all of them: it goes with --trials only"),
        ));
    }
    Ok(())
}

/// The deals of `path`: one a line, as `--deal` takes them, blank lines
/// and `#` comments skipped; or, if its first character other than white
/// space is `{` or `[`, Solvitaire's JSON deal format
/// (`report::solvitaire::parse_deals`). A bad line or deal is refused
/// naming the file and the line; a file with no deal is refused too.
pub(super) fn read_deals(path: &Path) -> Result<Vec<[Card; 52]>> {
    let text = read_user_text(
        path,
        "deals, one a line, 52 cards each, or in Solvitaire's JSON deal format",
    )?;
    let deals = if solvitaire::is_json(&text) {
        solvitaire::parse_deals(&text, &Layout::FULL).map(|deals| {
            deals
                .iter()
                // The full layout's deals are its 52 cards (checked).
                .filter_map(|deal| <[Card; 52]>::try_from(deal.as_slice()).ok())
                .collect()
        })
    } else {
        parse_deals(&text)
    };
    let deals = deals.map_err(|(line, error)| Error::BadInputFile {
        path: PathBuf::from(format!("{}:{line}", path.display())),
        message: error.to_string(),
    })?;
    if deals.is_empty() {
        return Err(Error::BadInputFile {
            path: path.to_path_buf(),
            message: "holds no deal: give one a line, 52 cards each (blank lines and # comments are skipped), or Solvitaire's JSON deal objects".into(),
        });
    }
    Ok(deals)
}

/// The deals of a `--deals` file's text, or the first bad line's number
/// (from 1) and what is wrong with it.
fn parse_deals(text: &str) -> std::result::Result<Vec<[Card; 52]>, (usize, Error)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| parse_deal(line).map_err(|error| (number, error)))
        .collect()
}

/// `--deal`: the verdict, its cost, and (in the text formats) the record
/// of a win or the proof of a loss.
fn solve_one(
    rules: FreePlayRules,
    budget: SolveBudget,
    deal: &[Card; 52],
    outputs: &Written,
    context: &Context,
) -> Result<()> {
    context.note(&format!(
        "searching (at most {} states{})",
        budget.max_nodes,
        budget
            .max_time
            .map_or_else(String::new, |t| format!(", {} s", t.as_secs_f64()))
    ));
    let mut solver = Solver::new(rules);
    let solved = solve_deal(&mut solver, deal, &budget)?;
    emit_given(rules, budget, &[*deal], &[solved], outputs, context)
}

/// `--deals FILE`: every deal solved, in the file's order (in parallel,
/// a solver per thread).
fn solve_listed(
    rules: FreePlayRules,
    budget: SolveBudget,
    deals: &[[Card; 52]],
    outputs: &Written,
    context: &Context,
) -> Result<()> {
    let progress = context.progress(deals.len() as u64, "deals solved", "deals");
    let solved: Vec<SolvedDeal> = context.with_threads(|| {
        deals
            .par_iter()
            .map_init(
                || Solver::new(rules),
                |solver, deal| {
                    let solved = solve_deal(solver, deal, &budget);
                    progress.advance(1);
                    solved
                },
            )
            .collect::<Result<Vec<_>>>()
    })??;
    drop(progress);
    emit_given(rules, budget, deals, &solved, outputs, context)
}

/// Writes the report of given deals (`solved[i]` of `deals[i]`),
/// numbered from 0. One deal is answered alone: its text formats give
/// the record of a win, or the cards the bound shows never go home when
/// that is the proof of a loss.
fn emit_given(
    rules: FreePlayRules,
    budget: SolveBudget,
    deals: &[[Card; 52]],
    solved: &[SolvedDeal],
    outputs: &Written,
    context: &Context,
) -> Result<()> {
    let (record, never_home) = match (deals, solved) {
        ([deal], [solved]) => match solved.verdict {
            Verdict::Won => (
                Some(solution_record(rules, deal, &solved.moves)?),
                Vec::new(),
            ),
            Verdict::Lost => (None, never_home_at_deal(&rules, deal)?),
            Verdict::Undecided => (None, Vec::new()),
        },
        _ => (None, Vec::new()),
    };
    let single = (solved.len() == 1).then(|| SingleDeal {
        record: record.as_deref(),
        never_home: &never_home,
    });
    let mut tally = vec![0; N_BINS];
    let summaries: Vec<(u64, DealSummary)> = solved
        .iter()
        .enumerate()
        .map(|(index, deal)| {
            let summary = deal.summary();
            add_to_tally(&summary, &mut tally);
            (index as u64, summary)
        })
        .collect();
    let counts = SolveCounts::of(&tally)?;
    let run = SolveRun {
        rules,
        budget,
        seed: None,
        trials: None,
        deals: &summaries,
        counts: &counts,
        single,
    };
    outputs.emit(&run, context)
}

/// `--trials N --seed S`: random deals through the sampling runner; the
/// deals solved in this run are listed in order, those handed back by a
/// checkpoint or `merge` only counted.
fn solve_random(
    rules: FreePlayRules,
    budget: SolveBudget,
    n_trials: u64,
    seed: u64,
    outputs: &Written,
    context: &Context,
) -> Result<()> {
    let simulation = SolveSimulation::new(rules, budget)?;
    let plan = RunPlan {
        chunk_size: SOLVE_CHUNK,
        ..RunPlan::new(n_trials, seed, 0)
    };
    // Each chunk's deals, kept as it counts them.
    let listed: Mutex<BTreeMap<u64, Vec<(u64, DealSummary)>>> = Mutex::new(BTreeMap::new());
    let Sampled { n_trials, tally } = context.sample(
        &Sampling {
            plan,
            units_per_trial: 1,
            message: "deals solved",
            unit: "deals",
            outcomes: &verdict_distributions,
            consistent: None,
        },
        |progress, plan, chunks| {
            let mut tally = vec![0; N_BINS];
            for chunk in chunks {
                let (counts, deals) = montecarlo::run_chunk_noting(
                    &simulation,
                    plan,
                    chunk,
                    &EVERY_DEAL,
                    |scratch| scratch.last(),
                );
                for (t, c) in tally.iter_mut().zip(counts) {
                    *t += c;
                }
                progress.advance(plan.chunk_trials(chunk));
                let deals = deals
                    .into_iter()
                    .filter_map(|(index, deal)| Some((index, deal?)))
                    .collect();
                if let Ok(mut listed) = listed.lock() {
                    listed.insert(chunk, deals);
                }
            }
            Ok(tally)
        },
    )?;
    let counts = SolveCounts::of(&tally)?;
    // Under --until-halfwidth, chunks run past the one that met the
    // target are not counted, so not listed either.
    let deals: Vec<(u64, DealSummary)> = listed
        .into_inner()
        .unwrap_or_default()
        .into_values()
        .flatten()
        .filter(|(index, _)| *index < n_trials)
        .collect();
    let run = SolveRun {
        rules,
        budget,
        seed: Some(seed),
        trials: Some(n_trials),
        deals: &deals,
        counts: &counts,
        single: None,
    };
    outputs.emit(&run, context)
}

/// The record of a won deal, in the format of `klondike record`,
/// replayed move by move by the rules checker.
fn solution_record(rules: FreePlayRules, deal: &[Card; 52], moves: &[FreeMove]) -> Result<String> {
    render_solution(&rules, deal, moves, &RecordOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deals_file_skips_blanks_and_comments_and_names_its_bad_line() {
        let deck: Vec<String> = crate::games::klondike::sorted_deck()
            .iter()
            .map(|card| card.to_string())
            .collect();
        let deal = deck.join(" ");
        let text = format!("# two deals\n\n{deal}\n   \n{}\n", deck.join(","));
        assert_eq!(parse_deals(&text).unwrap().len(), 2);
        let bad = format!("{deal}\n# fine\n{}\n", deck[..51].join(" "));
        let (line, error) = parse_deals(&bad).unwrap_err();
        assert_eq!(line, 3);
        assert!(
            error.to_string().starts_with("deal has 51 cards"),
            "{error}"
        );
    }
}
