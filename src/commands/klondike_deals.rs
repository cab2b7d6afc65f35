//! `deckodds klondike deals`: deals written out, so that the deals
//! deckodds solves can be run through other solvers: in Solvitaire's JSON
//! deal format (`report::solvitaire`), or as card lines, as `klondike
//! solve --deals` reads them. The random deals are those of `klondike
//! solve --trials N --seed S`, dealt as its runner deals them.

use std::fs;
use std::path::{Path, PathBuf};

use super::context::Context;
use super::files::write_atomically;
use super::klondike_solve::{SOLVE_CHUNK, read_deals};
use super::output::{deals_file_name, deals_format, emit};
use crate::cards::Card;
use crate::cli::{DealFormat, DealSource};
use crate::engine::montecarlo::{RunPlan, first_trials};
use crate::error::{Error, Result};
use crate::games::klondike::free_play::Layout;
use crate::games::klondike::{Klondike, KlondikeSimulation};
use crate::report::solvitaire::{render_deal_file, render_deal_lines};

/// The most deals one run writes: all are held in memory before the
/// first is written (about 450 bytes a deal as JSON), so that a file is
/// written whole or not at all.
const MAX_DEALS: u64 = 10_000_000;

/// `klondike deals`' options, as the command line gave them.
pub(super) struct DealsArgs {
    pub source: DealSource,
    pub format: Option<DealFormat>,
    pub out: Option<PathBuf>,
    pub out_dir: Option<PathBuf>,
}

/// Runs `klondike deals`: the deals, numbered, written to `--out` (or
/// standard output) in one file, or to `--out-dir` a file each.
pub(super) fn run(args: DealsArgs, context: &Context) -> Result<()> {
    let format = deals_format(args.format, args.out.as_deref())?;
    let DealSource {
        deal,
        deals,
        trials,
        seed,
    } = &args.source;
    let (deals, source) = match (deal, deals, *trials) {
        (Some(deal), _, _) => (vec![(0, *deal)], "the deal given".to_string()),
        (None, Some(path), _) => {
            let deals = read_deals(path)?;
            (
                (0..).zip(deals).collect(),
                format!("the deals of {}", path.display()),
            )
        }
        (None, None, Some(n)) => {
            if n > MAX_DEALS {
                return Err(Error::invalid(
                    "--trials",
                    n,
                    format!(
                        "must be at most {MAX_DEALS}: every deal is held in memory until the file is written whole"
                    ),
                ));
            }
            (
                random_deals(n, *seed),
                format!("the deals of `deckodds klondike solve --trials {n} --seed {seed}`"),
            )
        }
        (None, None, None) => {
            return Err(Error::invalid(
                "deals",
                "without --deal, --deals or --trials",
                "needs one of them: a deal, a file of deals, or a number of random deals",
            ));
        }
    };
    match &args.out_dir {
        Some(directory) => write_each(
            directory,
            &deals,
            format,
            args.source.deals.as_deref(),
            context,
        ),
        None => {
            let text = match format {
                DealFormat::Solvitaire => {
                    let cards: Vec<&[Card]> = deals.iter().map(|(_, deal)| &deal[..]).collect();
                    render_deal_lines(&Layout::FULL, &cards)?
                }
                DealFormat::Cards => {
                    let mut text = format!(
                        "# {source}: one a line, the 52 cards in dealing order (as `klondike solve --deal` takes them), deal 0 first\n"
                    );
                    for (_, deal) in &deals {
                        text.push_str(&card_line(deal));
                    }
                    text
                }
            };
            emit(&text, args.out.as_deref(), context)
        }
    }
}

/// The first `n` deals of `klondike solve --trials n --seed seed`, with
/// their numbers: the deals its runner deals, chunk by chunk of
/// [`SOLVE_CHUNK`] deals, each chunk from the sorted deck. Dealt by
/// `KlondikeSimulation`, whose trial shuffles the deck as the solver's
/// does and draws nothing else from the generator (the policy's game on
/// each deal is played and forgotten).
fn random_deals(n: u64, seed: u64) -> Vec<(u64, [Card; 52])> {
    let plan = RunPlan {
        chunk_size: SOLVE_CHUNK,
        ..RunPlan::new(n, seed, 0)
    };
    first_trials(
        &KlondikeSimulation::new(Klondike::standard()),
        &plan,
        n as usize,
    )
}

/// A deal as one line of cards, as `--deal` takes it.
fn card_line(deal: &[Card]) -> String {
    let cards: Vec<String> = deal.iter().map(Card::to_string).collect();
    format!("{}\n", cards.join(" "))
}

/// Writes each deal to a file of its own in `directory`
/// ([`deals_file_name`]), after checking every target: none is a
/// directory, and none is the file the deals were read from (`input`).
fn write_each(
    directory: &Path,
    deals: &[(u64, [Card; 52])],
    format: DealFormat,
    input: Option<&Path>,
    context: &Context,
) -> Result<()> {
    let n = deals
        .iter()
        .map(|(number, _)| number + 1)
        .max()
        .unwrap_or(0);
    let files = deals
        .iter()
        .map(|(number, deal)| {
            let text = match format {
                DealFormat::Solvitaire => render_deal_file(&Layout::FULL, deal)?,
                DealFormat::Cards => format!("# deal {number}\n{}", card_line(deal)),
            };
            Ok((directory.join(deals_file_name(*number, n, format)), text))
        })
        .collect::<Result<Vec<(PathBuf, String)>>>()?;
    let refuse = |path: &Path, why: &str| {
        Err(Error::invalid(
            "--out-dir",
            directory.display(),
            format!("{} {why} (nothing was written)", path.display()),
        ))
    };
    // The file read, if it is in the directory: compared by the
    // directory's canonical path and the name, as it may be written over.
    let read_here = input.and_then(|input| {
        let input = fs::canonicalize(input).ok()?;
        (input.parent() == fs::canonicalize(directory).ok().as_deref())
            .then(|| input.file_name().map(|name| name.to_os_string()))
            .flatten()
    });
    for (path, _) in &files {
        if path.is_dir() {
            return refuse(path, "is a directory, where a deal's file goes: move it");
        }
        if read_here.is_some() && path.file_name() == read_here.as_deref() {
            return refuse(
                path,
                "is the file --deals reads: write the deals into another directory",
            );
        }
    }
    for (path, text) in &files {
        write_atomically(path, text.as_bytes())?;
    }
    if let (Some((first, _)), Some((last, _))) = (files.first(), files.last()) {
        context.note(&format!(
            "wrote {} deal{} to {} ({} to {})",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            directory.display(),
            file_name(first),
            file_name(last)
        ));
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::montecarlo::run_chunk_noting;
    use crate::games::klondike::free_play::FreePlayRules;
    use crate::games::klondike::solve::Solver;
    use crate::games::klondike::solve::sample::{EVERY_DEAL, SolveSimulation, budget, solve_deal};

    /// The deals written are the deals `klondike solve --trials` solves:
    /// solved one by one, each gives what the solver's run noted for the
    /// same number (verdict, states, moves: the solver is deterministic
    /// under a budget of states).
    #[test]
    fn the_random_deals_are_those_solve_trials_solves() {
        let (n, seed) = (10, 7);
        let budget = budget(3000, None);
        let rules = FreePlayRules::THOUGHTFUL;
        let simulation = SolveSimulation::new(rules, budget).unwrap();
        let plan = RunPlan {
            chunk_size: SOLVE_CHUNK,
            ..RunPlan::new(n, seed, 0)
        };
        let mut noted = Vec::new();
        for chunk in 0..plan.n_chunks() {
            let (_, deals) = run_chunk_noting(&simulation, &plan, chunk, &EVERY_DEAL, |s| s.last());
            noted.extend(deals);
        }
        let written = random_deals(n, seed);
        assert_eq!(written.len(), noted.len());
        let mut solver = Solver::new(rules);
        let mut distinct = std::collections::HashSet::new();
        for ((number, deal), (noted_number, summary)) in written.iter().zip(&noted) {
            assert_eq!(number, noted_number);
            let summary = summary.unwrap();
            let solved = solve_deal(&mut solver, deal, &budget).unwrap().summary();
            assert_eq!(
                (
                    solved.verdict,
                    solved.nodes,
                    solved.moves,
                    solved.stock_turns
                ),
                (
                    summary.verdict,
                    summary.nodes,
                    summary.moves,
                    summary.stock_turns
                ),
                "deal {number}"
            );
            distinct.insert(solved.nodes);
        }
        // The comparison tells deals apart (not every deal costs the same).
        assert!(distinct.len() > 3, "{distinct:?}");
    }

    #[test]
    fn file_names_sort_in_deal_order() {
        assert_eq!(
            deals_file_name(7, 100, DealFormat::Solvitaire),
            "deal-00007.json"
        );
        assert_eq!(
            deals_file_name(42, 1_000_000, DealFormat::Cards),
            "deal-000042.txt"
        );
        assert_eq!(
            deals_file_name(99_999, 100_000, DealFormat::Solvitaire),
            "deal-99999.json"
        );
    }
}
