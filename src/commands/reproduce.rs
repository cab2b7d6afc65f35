//! `deckodds reproduce [SPEC...]`: runs analysis specs and writes their
//! tables, a provenance record beside each, and a summary.

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;
use serde::Deserialize;
use tabled::builder::Builder;
use tabled::settings::Style;

use super::context::{Context, RunNested};
use super::files::{self, read_user_text, write_atomically};
use super::ledger::fnv1a64;
use super::output::emit;
use crate::analysis::{
    Profile, Site, Spec, TableFiles, TableVerdict, build_site, readme_with_headline, results_index,
};
use crate::cli::Cli;
use crate::contract::comparison::{Comparison, ComparisonKind, VerdictName};
use crate::contract::klondike_solve::{KlondikeSolveDocument, KlondikeSolveKind};
use crate::contract::provenance::{ProfileName, Provenance};
use crate::contract::report::{Report, ReportKind};
use crate::contract::{self, Kind, Tag};
use crate::error::{Error, Result};
use crate::report::figures;

/// Where specs live.
const ANALYSIS_DIR: &str = "analysis";

/// What `deckodds reproduce` is asked to do.
pub(super) struct Request {
    /// Spec files, or names of tables or families in `analysis/`; empty
    /// for every spec.
    pub names: Vec<PathBuf>,
    /// The trials each Monte-Carlo spec runs.
    pub profile: Profile,
    /// Check the committed results instead of writing them.
    pub check: bool,
    /// Include the slow specs.
    pub slow: bool,
    /// The results folder (default: by profile).
    pub results: Option<PathBuf>,
    /// With `check`: the folder of a quick run whose tables stand for the
    /// recomputation.
    pub recomputed_in: Option<PathBuf>,
}

/// Where the index of a results folder goes.
const INDEX: &str = "README.md";

/// Each spec's command line runs through `run_nested`.
pub(super) fn run(request: Request, context: &Context, run_nested: RunNested) -> Result<()> {
    context.refuse_parts("reproduce")?;
    let profile = request.profile;
    let results = request.results.clone().unwrap_or_else(|| {
        PathBuf::from(match profile {
            Profile::Full => "results",
            Profile::Quick => "results-quick",
        })
    });
    let whole = request.names.is_empty();
    let specs = load_specs(&request.names)?;
    // Every command line and every file a spec reads is checked before
    // anything runs, so a bad spec costs nothing.
    for spec in &specs {
        command_line(spec, profile, &results, context)?;
        check_input_files(spec)?;
    }
    // The index lists every spec's tables: a whole run writes it, and so
    // does a run of some of analysis/'s specs (from all of them), so that
    // it stays current; specs from elsewhere leave it alone.
    let from_analysis = specs.iter().all(|spec| spec.path.starts_with(ANALYSIS_DIR));
    let indexed = whole || from_analysis;
    // So are README.md's markers, where its headline table goes.
    if indexed && keeps_readme(&request, profile) {
        readme_with_table("")?;
    }
    if request.check {
        return check_results(&specs, &request, &results, context, run_nested);
    }
    fs::create_dir_all(&results).map_err(|source| Error::Io {
        path: results.clone(),
        source,
    })?;
    // And the files written besides the tables' own (which each table's
    // command line checks before its run): each table's provenance record
    // and the index, so that a read-only folder, or a directory in the way
    // of one file, fails before the first table's work.
    let records = specs
        .iter()
        .filter(|spec| runs(spec, profile, &request))
        .map(|spec| results.join(format!("{}.provenance.json", spec.name)));
    files::check_before_run(&files::Plan {
        outputs: records
            .chain(indexed.then(|| results.join(INDEX)))
            .map(|path| files::NamedPath {
                option: "--results",
                path,
            })
            .collect(),
        ..files::Plan::default()
    })?;
    let mut rows = Vec::new();
    let mut unexpected = Vec::new();
    let n_runs = specs.iter().filter(|s| runs(s, profile, &request)).count();
    let mut n_done = 0;
    for spec in &specs {
        if !runs(spec, profile, &request) {
            rows.push([
                spec.name.clone(),
                format!("{} {}", spec.game, spec.command),
                trials_text(spec, profile),
                "-".to_string(),
                "skipped: slow (--slow runs it)".to_string(),
            ]);
            continue;
        }
        n_done += 1;
        let trials = spec.trials(profile);
        progress_line(
            context,
            &format!(
                "[{n_done}/{n_runs}] {}: {} {}{}",
                spec.name,
                spec.game,
                spec.command,
                trials.map_or(String::new(), |t| format!(", {t} trials")),
            ),
        );
        let started = Instant::now();
        run_spec(spec, profile, &results, context, run_nested)?;
        draw_chart(spec, &results)?;
        let elapsed = started.elapsed().as_secs_f64();
        let provenance = provenance(spec, profile, &results, elapsed, context, run_nested)?;
        let path = results.join(format!("{}.provenance.json", spec.name));
        let text = contract::write(&provenance) + "\n";
        write_atomically(&path, text.as_bytes())?;
        let verdict = verdicts(spec, &results)?;
        unexpected.extend(unexpected_verdict(spec, verdict.as_ref()));
        rows.push([
            spec.name.clone(),
            format!("{} {}", spec.game, spec.command),
            trials_text(spec, profile),
            format!("{elapsed:.1} s"),
            verdict_text(spec, verdict.as_ref()),
        ]);
    }
    if indexed {
        let all = if whole {
            specs.clone()
        } else {
            load_specs(&[])?
        };
        write_atomically(
            &results.join(INDEX),
            index_of(&all, &results, profile).as_bytes(),
        )?;
        write_site(&all, &results, profile, &request)?;
    }
    summary(
        &format!(
            "{n_runs} of {} tables made into {}/{}",
            specs.len(),
            results.display(),
            if indexed {
                ", with the index README.md"
            } else {
                ""
            }
        ),
        ["table", "method", "trials", "time", "verdict"],
        rows,
        context,
    )?;
    verdicts_as_expected(&unexpected)
}

/// The index of `results` under `profile`: headed by the folder's name.
fn index_of(specs: &[Spec], results: &Path, profile: Profile) -> String {
    let folder = results.file_name().map_or_else(
        || results.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    results_index(specs, &folder, profile)
}

/// Refuses a spec whose parameters name a file the command reads (a
/// published table) that is not there, naming the spec file, the line and
/// the key: before anything runs, rather than after other tables are
/// written.
fn check_input_files(spec: &Spec) -> Result<()> {
    for param in spec.params.iter().filter(|param| param.reads_file) {
        let Some(value) = &param.value else { continue };
        if !Path::new(value).is_file() {
            return Err(Error::BadInputFile {
                path: spec.path.clone(),
                message: format!(
                    "line {}: {} = {value:?}: no such file (a path from the folder reproduce runs in)",
                    param.line, param.key
                ),
            });
        }
    }
    Ok(())
}

/// Whether `spec` runs: a slow spec only when named, with `--slow`, or
/// (if it samples) under the quick profile, which is not slow.
fn runs(spec: &Spec, profile: Profile, request: &Request) -> bool {
    !spec.slow
        || request.slow
        || !request.names.is_empty()
        || (spec.sampling.is_some() && profile == Profile::Quick)
}

/// Reads and checks the specs: every `analysis/*.toml` if none is named;
/// otherwise each name is a spec file, or a table or family of
/// `analysis/`. Each family a spec's `also-shows` names is one that the
/// specs read or `analysis/` make.
fn load_specs(names: &[PathBuf]) -> Result<Vec<Spec>> {
    let specs = read_specs(names)?;
    let shows_others = specs.iter().any(|spec| !spec.also_shows.is_empty());
    let analysis = if names.is_empty() || !shows_others || !Path::new(ANALYSIS_DIR).is_dir() {
        Vec::new()
    } else {
        read_specs(&[])?
    };
    let mut families: Vec<&str> = Vec::new();
    for spec in specs.iter().chain(&analysis) {
        if !families.contains(&spec.family.as_str()) {
            families.push(&spec.family);
        }
    }
    for spec in &specs {
        spec.check_also_shows(&families)?;
    }
    Ok(specs)
}

/// The specs [`load_specs`] reads, parsed and checked one by one.
fn read_specs(names: &[PathBuf]) -> Result<Vec<Spec>> {
    let parse_file =
        |path: &Path| Spec::parse(path, &read_user_text(path, "an analysis spec (TOML)")?);
    if names.is_empty() {
        let mut specs = Vec::new();
        for path in all_specs()? {
            for spec in parse_file(&path)? {
                add_spec(&mut specs, spec)?;
            }
        }
        return Ok(specs);
    }
    let mut specs: Vec<Spec> = Vec::new();
    let mut analysis: Option<Vec<Spec>> = None;
    for name in names {
        let is_file = name.extension().is_some_and(|e| e == "toml") || name.is_file();
        let found = if is_file {
            parse_file(name)?
        } else {
            let wanted = name.to_string_lossy();
            if !Path::new(ANALYSIS_DIR).is_dir() {
                return Err(Error::invalid(
                    "reproduce",
                    &wanted,
                    format!(
                        "a table or family is looked up in {ANALYSIS_DIR}/, and there is no {ANALYSIS_DIR}/ folder here: run from the project folder, or give the spec file's path ({ANALYSIS_DIR}/NAME.toml)"
                    ),
                ));
            }
            if analysis.is_none() {
                analysis = Some(read_specs(&[])?);
            }
            let found: Vec<Spec> = analysis
                .iter()
                .flatten()
                .filter(|s| s.name == wanted || s.family == wanted)
                .cloned()
                .collect();
            if found.is_empty() {
                return Err(Error::invalid(
                    "reproduce",
                    &wanted,
                    format!(
                        "is not a spec file, nor a table or family of {ANALYSIS_DIR}/ (the results index lists them: e.g. roll-call-exact-4x3, or roll-call-exact for its family)"
                    ),
                ));
            }
            found
        };
        for spec in found {
            add_spec(&mut specs, spec)?;
        }
    }
    Ok(specs)
}

/// Adds `spec` to `specs` unless it is already there (a table named twice,
/// from the same file). A table of the same name from another spec file is
/// refused, naming both files: one would overwrite the other's outputs.
fn add_spec(specs: &mut Vec<Spec>, spec: Spec) -> Result<()> {
    let same_file = |a: &Path, b: &Path| {
        a == b || matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
    };
    match specs.iter().find(|s| s.name == spec.name) {
        None => specs.push(spec),
        Some(other) if same_file(&other.path, &spec.path) => {}
        Some(other) => {
            return Err(Error::BadInputFile {
                path: spec.path.clone(),
                message: format!(
                    "makes the table {:?}, and so does {}: each table needs its own name (rename a spec file, or change its suffix)",
                    spec.name,
                    other.path.display()
                ),
            });
        }
    }
    Ok(())
}

/// The trials column: the count, or `-` for what does not sample.
fn trials_text(spec: &Spec, profile: Profile) -> String {
    spec.trials(profile)
        .map_or_else(|| "-".to_string(), |trials| trials.to_string())
}

/// A comparison's verdict, read from its JSON output, with what the
/// summary says of it: `8 of 8` (agree), which keys disagree, or which
/// cells of a published table are inconsistent.
struct Found {
    verdict: TableVerdict,
    detail: String,
}

/// The verdict of a comparison spec, from its JSON output in `results`;
/// `None` for a spec that compares nothing.
fn verdicts(spec: &Spec, results: &Path) -> Result<Option<Found>> {
    let Some(path) = json_output(spec, &spec.output_paths(results)) else {
        return Ok(None);
    };
    let text = read(&path)?;
    let refused = |error: contract::ReadError| Error::BadInputFile {
        path: path.clone(),
        message: error.to_string(),
    };
    if contract::schema_id(&text).map_err(refused)?.as_deref() != Some(ComparisonKind::ID) {
        return Ok(None);
    }
    let rows = match contract::comparison::read(&text).map_err(refused)? {
        // A published table: one verdict over all its cells.
        Comparison::Published(check) => {
            let cells: usize = check.rows.iter().map(|row| row.cells.len()).sum();
            // A simulated table tests only the cells with enough hands.
            let tested = match check.cells_tested {
                0 => format!("{cells} cells"),
                n => format!("{n} cells tested"),
            };
            let inconsistent = &check.inconsistent;
            return Ok(Some(if inconsistent.is_empty() {
                Found {
                    verdict: TableVerdict::Consistent,
                    detail: format!("all {tested}"),
                }
            } else {
                Found {
                    verdict: TableVerdict::Inconsistent,
                    detail: format!(
                        "{} ({} of {tested})",
                        inconsistent.join(", "),
                        inconsistent.len()
                    ),
                }
            }));
        }
        Comparison::Agreements(agreements) => agreements.rows,
    };
    let disagreeing: Vec<&str> = rows
        .iter()
        .filter(|row| row.verdict != VerdictName::Agree)
        .map(|row| row.key.as_str())
        .collect();
    Ok(Some(if disagreeing.is_empty() {
        Found {
            verdict: TableVerdict::Agree,
            detail: format!("{} of {}", rows.len(), rows.len()),
        }
    } else {
        // A few keys name the disagreement; the JSON has them all.
        let named = match disagreeing.len() {
            n if n > 3 => format!("{} and {} more", disagreeing[..3].join(", "), n - 3),
            _ => disagreeing.join(", "),
        };
        Found {
            verdict: TableVerdict::Disagree,
            detail: format!(
                "{named} ({} of {} agree)",
                rows.len() - disagreeing.len(),
                rows.len()
            ),
        }
    }))
}

/// The summary's verdict column: `agree (8 of 8)`, `disagree: K=1 (7 of
/// 8 agree)`; marked `(expected)` when the spec declares that verdict, and
/// followed by the expected one when it declares another.
fn verdict_text(spec: &Spec, found: Option<&Found>) -> String {
    let Some(Found { verdict, detail }) = found else {
        return match spec.expect {
            Some(expected) => format!("-; expected {expected}"),
            None => "-".to_string(),
        };
    };
    let as_expected = spec.expect == Some(*verdict);
    let text = match (verdict, as_expected) {
        (TableVerdict::Agree | TableVerdict::Consistent, false) => format!("{verdict} ({detail})"),
        (TableVerdict::Agree | TableVerdict::Consistent, true) => {
            format!("{verdict} (expected; {detail})")
        }
        (TableVerdict::Disagree | TableVerdict::Inconsistent, false) => {
            format!("{verdict}: {detail}")
        }
        (TableVerdict::Disagree | TableVerdict::Inconsistent, true) => {
            format!("{verdict} (expected): {detail}")
        }
    };
    match spec.expect {
        Some(expected) if !as_expected => format!("{text}; expected {expected}"),
        _ => text,
    }
}

/// What differs from the verdict `spec` expects, if anything: the table,
/// the verdict it reached, the one expected, and where the spec says so.
fn unexpected_verdict(spec: &Spec, found: Option<&Found>) -> Option<String> {
    let expected = spec.expect?;
    let reached = found.map(|f| f.verdict);
    (reached != Some(expected)).then(|| {
        format!(
            "{}: {}, expected {expected} ({}, line {})",
            spec.name,
            reached.map_or("no verdict".to_string(), |v| v.to_string()),
            spec.path.display(),
            spec.line_of("expect").unwrap_or(0),
        )
    })
}

/// Fails (exit status 1), in one line, if any table reached a verdict
/// other than the one its spec expects: the published findings are
/// regression checks.
fn verdicts_as_expected(unexpected: &[String]) -> Result<()> {
    if unexpected.is_empty() {
        return Ok(());
    }
    Err(Error::Unexpected {
        message: format!(
            "{} {} a verdict other than the one {} spec expects: {}",
            unexpected.len(),
            if unexpected.len() == 1 {
                "table reaches"
            } else {
                "tables reach"
            },
            if unexpected.len() == 1 {
                "its"
            } else {
                "their"
            },
            unexpected.join("; ")
        ),
    })
}

/// Draws the spec's `svg` output, if it has one and the command does not
/// draw it itself: the chart that suits its JSON output
/// ([`figures::svg_for_report`]: bars for one distribution, stacked bars
/// for the dealer's table, z-scores for a comparison); then, drawn here or
/// by the command, converts it to the PDF and PNG written beside it
/// ([`Spec::figure_copies`]).
fn draw_chart(spec: &Spec, results: &Path) -> Result<()> {
    let outputs = spec.output_paths(results);
    let Some((_, svg_path)) = spec
        .outputs
        .iter()
        .zip(&outputs)
        .find(|(kind, _)| *kind == "svg")
    else {
        return Ok(());
    };
    let svg = if spec.draws_own_chart {
        read(svg_path)?
    } else {
        let json_path = json_output(spec, &outputs).unwrap_or_default();
        let svg = figures::svg_for_report(&read(&json_path)?, spec.figure).map_err(|e| {
            Error::BadInputFile {
                path: spec.path.clone(),
                message: format!("outputs: svg: {e}"),
            }
        })?;
        write_atomically(svg_path, svg.as_bytes())?;
        svg
    };
    let refused = |e: Error| Error::BadInputFile {
        path: spec.path.clone(),
        message: format!("outputs: svg: {e}"),
    };
    for &copy in spec.figure_copies() {
        let bytes = copy.from_svg(&svg).map_err(refused)?;
        write_atomically(&svg_path.with_extension(copy.extension()), &bytes)?;
    }
    Ok(())
}

/// The spec's JSON output file among `outputs`, if it has one.
/// What a run counted, as its checksum covers it: per distribution, its
/// key, then ` "outcome"=count` (or `="fraction"`, exact) per outcome,
/// the labels and fractions as JSON strings; one line per distribution.
fn counted_text<'a, O>(distributions: impl Iterator<Item = (&'a str, O)>) -> String
where
    O: Iterator<Item = (&'a str, Option<u64>, Option<&'a str>)>,
{
    let json_string = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut text = String::new();
    for (key, outcomes) in distributions {
        text.push_str(key);
        for (outcome, count, probability) in outcomes {
            text.push(' ');
            text.push_str(&json_string(outcome));
            text.push('=');
            match (count, probability) {
                (Some(count), _) => text.push_str(&count.to_string()),
                (None, Some(probability)) => text.push_str(&json_string(probability)),
                (None, None) => {}
            }
        }
        text.push('\n');
    }
    text
}

/// The distributions of a document of another kind than a report (the
/// blackjack table's), as far as a checksum of what was counted reads
/// them.
#[derive(Deserialize)]
struct CountedDistributions {
    distributions: Vec<CountedDistribution>,
}

/// A distribution's key and outcomes, as [`counted_text`] reads them.
#[derive(Deserialize)]
struct CountedDistribution {
    key: String,
    outcomes: Vec<CountedOutcome>,
}

/// An outcome's label and its count or exact probability.
#[derive(Deserialize)]
struct CountedOutcome {
    outcome: String,
    #[serde(default)]
    count: Option<u64>,
    #[serde(default)]
    probability: Option<String>,
}

fn json_output(spec: &Spec, outputs: &[PathBuf]) -> Option<PathBuf> {
    spec.outputs
        .iter()
        .zip(outputs)
        .find(|(kind, _)| kind.as_str() == "json")
        .map(|(_, path)| path.clone())
}

/// Prints the closing table on standard output.
fn summary<const N: usize>(
    title: &str,
    head: [&str; N],
    rows: Vec<[String; N]>,
    context: &Context,
) -> Result<()> {
    let mut builder = Builder::new();
    builder.push_record(head);
    for row in rows {
        builder.push_record(row);
    }
    let mut table = builder.build();
    table.with(Style::rounded());
    emit(&format!("{title}\n{table}\n"), None, context)
}

/// `--check`: every committed output still has the checksum its provenance
/// records (so no figure was changed by hand) and was made from the spec's
/// text as it is now, and the program still
/// computes it: outputs that do not sample are recomputed whole and
/// compared byte for byte; Monte-Carlo ones are recomputed under the quick
/// profile and their counts compared with the checksum the full run
/// recorded for it. The first difference is an error naming the file.
/// A comparison whose spec expects a verdict must reach it, in the
/// committed outputs and in the recomputed ones (exit status 1 if not).
fn check_results(
    specs: &[Spec],
    request: &Request,
    results: &Path,
    context: &Context,
    run_nested: RunNested,
) -> Result<()> {
    let mut rows = Vec::new();
    // The profile the folder's tables were made under, as their provenance
    // records say: its index must describe that one.
    let mut folder_profile: Option<(Profile, PathBuf)> = None;
    for (i, spec) in specs.iter().enumerate() {
        progress_line(
            context,
            &format!("[{}/{}] checking {}", i + 1, specs.len(), spec.name),
        );
        let provenance_path = results.join(format!("{}.provenance.json", spec.name));
        let recorded: Provenance =
            contract::read(&read(&provenance_path)?).map_err(|e| Error::BadInputFile {
                path: provenance_path.clone(),
                message: format!("not a provenance record ({e}); run deckodds reproduce"),
            })?;
        let profile = match recorded.profile {
            ProfileName::Quick => Profile::Quick,
            ProfileName::Full => Profile::Full,
        };
        match &folder_profile {
            None => folder_profile = Some((profile, provenance_path.clone())),
            Some((first, first_path)) if *first != profile => {
                return Err(Error::BadInputFile {
                    path: provenance_path,
                    message: format!(
                        "records another profile than {} does: a folder holds one profile's tables; run deckodds reproduce (with --quick for the quick profile)",
                        first_path.display()
                    ),
                });
            }
            Some(_) => {}
        }
        let stale = |path: &Path, message: String| Error::BadInputFile {
            path: path.to_path_buf(),
            message,
        };
        // A spec edited since its tables were made (more trials, another
        // seed) may still recompute to the same quick-profile counts.
        if !spec.makes_same_tables_as(&recorded.spec_text) {
            return Err(stale(
                &provenance_path,
                format!(
                    "made from another text of {} than it holds now: its tables are older than the spec; run deckodds reproduce {}",
                    spec.path.display(),
                    spec.name
                ),
            ));
        }
        for path in spec.file_paths(results) {
            let expected = recorded
                .files
                .get(&file_name(&path))
                .cloned()
                .unwrap_or_default();
            let actual = fnv1a64(&read_bytes(&path)?);
            if actual != expected {
                return Err(stale(
                    &path,
                    format!(
                        "differs from the file its provenance records ({actual}, recorded {expected:?}): changed by hand, or stale; run deckodds reproduce"
                    ),
                ));
            }
        }
        let committed = verdicts(spec, results)?;
        verdicts_as_expected(&Vec::from_iter(unexpected_verdict(
            spec,
            committed.as_ref(),
        )))?;
        let scratch = Scratch::new(&spec.name)?;
        // Where the recomputed tables are: made now in the scratch folder,
        // or read from the quick run `--recomputed-in` names.
        let (made_by_quick_run, fresh_folder) = match &request.recomputed_in {
            Some(folder) if recomputed(spec, request) => {
                (Some(quick_run(spec, folder)?), folder.as_path())
            }
            _ => (None, scratch.0.as_path()),
        };
        let how = match &spec.sampling {
            None if !recomputed(spec, request) => "slow: not recomputed (--slow does)",
            None => {
                if made_by_quick_run.is_none() {
                    run_spec(
                        spec,
                        Profile::Full,
                        &scratch.0,
                        &quietly(context),
                        run_nested,
                    )?;
                    draw_chart(spec, &scratch.0)?;
                }
                for (committed, fresh) in spec
                    .file_paths(results)
                    .iter()
                    .zip(spec.file_paths(fresh_folder))
                {
                    if read_bytes(committed)? != read_bytes(&fresh)? {
                        return Err(stale(
                            committed,
                            "differs from what the program computes now; run deckodds reproduce"
                                .into(),
                        ));
                    }
                }
                if made_by_quick_run.is_some() {
                    "recomputed whole (the quick run's): identical"
                } else {
                    "recomputed whole: identical"
                }
            }
            Some(_) => {
                let quick = match &made_by_quick_run {
                    Some(record) => record.checksum.clone(),
                    None => quick_checksum(spec, &scratch.0, context, run_nested)?,
                };
                let expected = &recorded.quick_checksum;
                if quick != *expected {
                    return Err(stale(
                        &provenance_path,
                        format!(
                            "the program now counts differently: the quick profile gives {quick}, recorded {expected:?}; run deckodds reproduce"
                        ),
                    ));
                }
                // The quick profile's verdict is a regression check too.
                let recomputed = verdicts(spec, fresh_folder)?;
                verdicts_as_expected(&Vec::from_iter(
                    unexpected_verdict(spec, recomputed.as_ref())
                        .map(|what| format!("{what} (under the quick profile)")),
                ))?;
                if made_by_quick_run.is_some() {
                    "quick profile (the quick run's): same counts"
                } else {
                    "quick profile recomputed: same counts"
                }
            }
        };
        rows.push([
            spec.name.clone(),
            format!("{} {}", spec.game, spec.command),
            "match their provenance".to_string(),
            how.to_string(),
            verdict_text(spec, committed.as_ref()),
        ]);
    }
    if request.names.is_empty() {
        let profile = folder_profile.map_or(request.profile, |(profile, _)| profile);
        check_site(specs, results, profile, request)?;
        check_index(specs, results, profile)?;
    }
    summary(
        &format!(
            "{} tables checked against {}/: all agree",
            specs.len(),
            results.display()
        ),
        [
            "table",
            "method",
            "committed files",
            "recomputed",
            "verdict",
        ],
        rows,
        context,
    )
}

/// Whether `--check` recomputes `spec`: a spec that samples always
/// (under the quick profile, which is not slow), an exact one unless it
/// is slow and not asked for.
fn recomputed(spec: &Spec, request: &Request) -> bool {
    spec.sampling.is_some() || runs(spec, Profile::Full, request)
}

/// The provenance record of `spec`'s tables in `folder`, a folder that
/// `reproduce --quick` wrote (what `--check --recomputed-in` compares
/// with): refused, naming the record, unless it is this program's quick
/// run of the same spec text and its files are the ones it records.
fn quick_run(spec: &Spec, folder: &Path) -> Result<Provenance> {
    let path = folder.join(format!("{}.provenance.json", spec.name));
    let refused = |what: &str| Error::BadInputFile {
        path: path.clone(),
        message: format!(
            "{what}: --recomputed-in takes a folder that `deckodds reproduce --quick --results {}` wrote with this program; run that first",
            folder.display()
        ),
    };
    if !path.is_file() {
        return Err(refused("missing"));
    }
    let record: Provenance = contract::read(&read(&path)?)
        .map_err(|e| refused(&format!("not a provenance record ({e})")))?;
    if record.profile != ProfileName::Quick {
        return Err(refused("records the full profile, not the quick one"));
    }
    if record.program != program_name() {
        return Err(refused(&format!(
            "made by {}, not {}",
            record.program,
            program_name()
        )));
    }
    if !spec.makes_same_tables_as(&record.spec_text) {
        return Err(refused(&format!(
            "made from another text of {}",
            spec.path.display()
        )));
    }
    for file in spec.file_paths(folder) {
        let recorded = record.files.get(&file_name(&file));
        if recorded != Some(&fnv1a64(&read_bytes(&file)?)) {
            return Err(refused(&format!(
                "{} is not the file it records",
                file_name(&file)
            )));
        }
    }
    Ok(record)
}

/// The program, as provenance records name it.
fn program_name() -> String {
    format!("deckodds {}", env!("CARGO_PKG_VERSION"))
}

/// The index is what the specs make now, and every file in `results`
/// is one a spec makes (a table, its provenance, or the index).
fn check_index(specs: &[Spec], results: &Path, profile: Profile) -> Result<()> {
    let index_path = results.join(INDEX);
    if read(&index_path)? != index_of(specs, results, profile) {
        return Err(Error::BadInputFile {
            path: index_path,
            message: "is not the index the specs make now; run deckodds reproduce".into(),
        });
    }
    let mut made: Vec<String> = vec![INDEX.to_string()];
    let site = site_of(specs, results, profile)?;
    made.extend(
        site.pages
            .into_iter()
            .chain(site.csv_files)
            .map(|(name, _)| name),
    );
    for spec in specs {
        made.extend(spec.file_paths(results).iter().map(|p| file_name(p)));
        made.push(format!("{}.provenance.json", spec.name));
    }
    let entries = fs::read_dir(results).map_err(|source| Error::Io {
        path: results.to_path_buf(),
        source,
    })?;
    let mut present: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    present.sort();
    for path in present {
        if !made.contains(&file_name(&path)) {
            return Err(Error::BadInputFile {
                path,
                message: format!(
                    "no spec in {ANALYSIS_DIR}/ makes this file: delete it, or write the spec that makes it"
                ),
            });
        }
    }
    Ok(())
}

/// The project's README, whose headline table `reproduce` keeps current.
const README: &str = "README.md";

/// The results folder whose headline table README.md shows: the default
/// one of the full profile.
const README_FOLDER: &str = "results";

/// The web pages of `results`, from `specs` (all of `analysis/`) and the
/// tables' JSON and Markdown outputs there (a table not made yet, such as
/// a slow one, shows without them). An error names a table whose JSON
/// does not read.
fn site_of(specs: &[Spec], results: &Path, profile: Profile) -> Result<Site> {
    let files = |spec: &Spec| {
        let output = |kind: &str| {
            spec.outputs
                .iter()
                .any(|k| k == kind)
                .then(|| fs::read_to_string(results.join(format!("{}.{kind}", spec.name))).ok())
                .flatten()
        };
        TableFiles {
            json: output("json"),
            markdown: output("md"),
        }
    };
    build_site(specs, &folder_name(results), profile, &files).map_err(|unread| {
        Error::BadInputFile {
            path: results.join(format!("{}.json", unread.table)),
            message: format!(
                "does not read as a deckodds table ({}); run deckodds reproduce on its spec",
                unread.error
            ),
        }
    })
}

/// The name `results` is known by in the index and the pages.
fn folder_name(results: &Path) -> String {
    results.file_name().map_or_else(
        || results.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Whether README.md's headline table is this run's to keep: the full
/// profile into the default folder, in a project folder with a README.md.
fn keeps_readme(request: &Request, profile: Profile) -> bool {
    profile == Profile::Full
        && request
            .results
            .as_deref()
            .is_none_or(|r| r == Path::new(README_FOLDER))
        && Path::new(README).is_file()
}

/// README.md with the headline table of `site` between its markers.
fn readme_text(site: &Site) -> Result<String> {
    readme_with_table(&site.headline_markdown)
}

/// README.md with `table` between its markers, or the error that it has
/// none.
fn readme_with_table(table: &str) -> Result<String> {
    let readme = read_user_text(Path::new(README), "the project's README (Markdown)")?;
    readme_with_headline(&readme, table).ok_or_else(|| Error::BadInputFile {
        path: PathBuf::from(README),
        message: format!(
            "has no generated headline table: put the lines {:?} and {:?} where it goes",
            crate::analysis::README_BEGIN,
            crate::analysis::README_END
        ),
    })
}

/// Writes the web pages into `results`, each atomically, and the headline
/// table into README.md (see [`keeps_readme`]).
fn write_site(specs: &[Spec], results: &Path, profile: Profile, request: &Request) -> Result<()> {
    let site = site_of(specs, results, profile)?;
    // README.md is checked before any page is written, so that a bad one
    // leaves the folder as it was.
    let readme = keeps_readme(request, profile)
        .then(|| readme_text(&site))
        .transpose()?;
    for (name, text) in site.pages.iter().chain(&site.csv_files) {
        write_atomically(&results.join(name), text.as_bytes())?;
    }
    if let Some(readme) = readme {
        write_atomically(Path::new(README), readme.as_bytes())?;
    }
    Ok(())
}

/// `--check` of the web pages and the games' long-form CSVs: each is what
/// the specs and the committed tables make now, byte for byte, and so is
/// README.md's headline table. (Stray pages are files no spec makes:
/// [`check_index`].)
fn check_site(specs: &[Spec], results: &Path, profile: Profile, request: &Request) -> Result<()> {
    let site = site_of(specs, results, profile)?;
    for (name, text) in site.pages.iter().chain(&site.csv_files) {
        let path = results.join(name);
        if read(&path)? != *text {
            return Err(Error::BadInputFile {
                path,
                message: "is not the file the specs and tables make now; run deckodds reproduce"
                    .into(),
            });
        }
    }
    if keeps_readme(request, profile) && read(Path::new(README))? != readme_text(&site)? {
        return Err(Error::BadInputFile {
            path: PathBuf::from(README),
            message:
                "its headline table is not the one the results make now; run deckodds reproduce"
                    .into(),
        });
    }
    Ok(())
}

/// `context` without notes or progress: for recomputations into scratch
/// folders, whose files the user never sees.
fn quietly(context: &Context) -> Context {
    Context::plain(true, context.threads)
}

/// A scratch folder for a recomputation, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Scratch> {
        let path = std::env::temp_dir().join(format!("deckodds-{}-{name}", std::process::id()));
        fs::create_dir_all(&path).map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?;
        Ok(Scratch(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A file's bytes (a chart's PNG and PDF are not text).
fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A line of progress on stderr: only for a person at a terminal, like the
/// progress bars, so that errors stay one line in scripts and CI.
fn progress_line(context: &Context, text: &str) {
    if !context.quiet && std::io::stderr().is_terminal() {
        eprintln!("{text}");
    }
}

/// Every `analysis/*.toml`, in name order.
fn all_specs() -> Result<Vec<PathBuf>> {
    let io_error = |source| Error::Io {
        path: PathBuf::from(ANALYSIS_DIR),
        source,
    };
    let entries = match fs::read_dir(ANALYSIS_DIR) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::invalid(
                "reproduce",
                "(no specs named)",
                format!(
                    "there is no {ANALYSIS_DIR}/ folder here: run from the project folder, or name the specs"
                ),
            ));
        }
        entries => entries.map_err(io_error)?,
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()
        .map_err(io_error)?
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::invalid(
            "reproduce",
            ANALYSIS_DIR,
            "has no *.toml specs: run from the project folder, or name the specs",
        ));
    }
    Ok(paths)
}

/// Runs the command line `spec` compiles to, in this process. An error in
/// a value is reported against the spec's key and line.
fn run_spec(
    spec: &Spec,
    profile: Profile,
    results: &Path,
    context: &Context,
    run_nested: RunNested,
) -> Result<()> {
    let cli = command_line(spec, profile, results, context)?;
    // A comparison's verdict is read from its JSON for the summary; its
    // disagreement is a finding, not a failure of the run.
    run_nested(cli).map(|_| ()).map_err(|error| match error {
        Error::InvalidValue { .. } => value_in_spec(spec, profile, error),
        other => other,
    })
}

/// A bad value of `spec` (`error` names its flag) as an error of the spec
/// file, naming the key and line that set it.
fn value_in_spec(spec: &Spec, profile: Profile, error: Error) -> Error {
    let Error::InvalidValue {
        parameter: option,
        value,
        allowed,
    } = error
    else {
        return error;
    };
    let message = match spec.key_of_option(&option, profile) {
        Some((key, Some(line))) => format!("line {line}: {key} = {value}: {allowed}"),
        Some((key, None)) => format!("{key} = {value}: {allowed}"),
        None => format!("{option} {value}: {allowed}"),
    };
    Error::BadInputFile {
        path: spec.path.clone(),
        message,
    }
}

/// The parsed command line of `spec`; an error names the spec.
fn command_line(spec: &Spec, profile: Profile, results: &Path, context: &Context) -> Result<Cli> {
    let mut args = vec!["deckodds".to_string()];
    // The command's own progress bar shows unless --quiet.
    if context.quiet {
        args.push("--quiet".to_string());
    }
    if let Some(threads) = context.threads {
        args.extend(["--threads".to_string(), threads.to_string()]);
    }
    args.extend(spec.args(profile, results));
    let in_spec = |message: String| Error::BadInputFile {
        path: spec.path.clone(),
        message,
    };
    Cli::try_parse_from(&args).map_err(|e| match crate::cli::value_error(&e) {
        // A value refused by its parser: named by the spec's key and line.
        Some(error) => value_in_spec(spec, profile, error),
        None => {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid parameters");
            in_spec(first.trim_start_matches("error: ").to_string())
        }
    })
}

/// Runs `spec` under the quick profile into the `scratch` folder, quietly,
/// and gives the checksum of its counts (what `--check` compares with the
/// provenance record).
fn quick_checksum(
    spec: &Spec,
    scratch: &Path,
    context: &Context,
    run_nested: RunNested,
) -> Result<String> {
    run_spec(spec, Profile::Quick, scratch, &quietly(context), run_nested)?;
    counts_checksum(spec, &spec.output_paths(scratch))
}

/// The provenance record of a spec's run.
///
/// Its `command` is the one that wrote the outputs, to the paths in
/// `results` (as given to `reproduce`).
///
/// Guarantee: apart from `elapsed_seconds` and `cores`, the same spec,
/// program, profile and results folder give the same record on any
/// machine with any thread count (the checksum covers the counts, which do
/// not depend on threads).
fn provenance(
    spec: &Spec,
    profile: Profile,
    results: &Path,
    elapsed: f64,
    context: &Context,
    run_nested: RunNested,
) -> Result<Provenance> {
    let outputs = spec.output_paths(results);
    let checksum = counts_checksum(spec, &outputs)?;
    // `--check` recomputes Monte-Carlo tables under the quick profile, so
    // the full run records what that gives too (a small share of the work).
    let quick_checksum = match (&spec.sampling, profile) {
        (None, _) | (_, Profile::Quick) => checksum.clone(),
        (Some(_), Profile::Full) => {
            let scratch = Scratch::new(&spec.name)?;
            quick_checksum(spec, &scratch.0, context, run_nested)?
        }
    };
    let files = spec
        .file_paths(results)
        .iter()
        .map(|path| Ok((file_name(path), fnv1a64(&read_bytes(path)?))))
        .collect::<Result<_>>()?;
    Ok(Provenance {
        schema: Tag::new(),
        spec: spec.path.display().to_string(),
        description: spec.description.clone(),
        program: program_name(),
        profile: match profile {
            Profile::Full => ProfileName::Full,
            Profile::Quick => ProfileName::Quick,
        },
        command: format!("deckodds {}", spec.args(profile, results).join(" ")),
        seed: spec.sampling.as_ref().map(|s| s.seed),
        trials: spec.trials(profile),
        files,
        checksum,
        quick_trials: spec.trials(Profile::Quick),
        quick_checksum,
        elapsed_seconds: (elapsed * 10.0).round() / 10.0,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        spec_text: spec.text.clone(),
    })
}

/// FNV-1a (64 bits) of what the run counted: each distribution's key and
/// its outcomes' counts or exact probabilities, from the JSON output (a
/// comparison's whole JSON; a Klondike solve's whole JSON but the seconds
/// per deal); of the first output for a spec without JSON.
fn counts_checksum(spec: &Spec, outputs: &[PathBuf]) -> Result<String> {
    let counted = match json_output(spec, outputs) {
        Some(path) => {
            let text = read(&path)?;
            let refused = |error: contract::ReadError| Error::BadInputFile {
                path: path.clone(),
                message: error.to_string(),
            };
            match contract::schema_id(&text).map_err(refused)?.as_deref() {
                Some(ReportKind::ID) => {
                    let report = contract::read::<Report>(&text).map_err(refused)?;
                    counted_text(report.distributions.iter().map(|d| {
                        let outcomes = d
                            .outcomes
                            .iter()
                            .map(|o| (o.outcome.as_str(), o.count, o.probability.as_deref()));
                        (d.key.as_str(), outcomes)
                    }))
                }
                // The solver's verdicts, nodes and moves, without the
                // seconds each deal took (the one figure a run does not
                // repeat).
                Some(KlondikeSolveKind::ID) => {
                    let mut solved =
                        contract::read::<KlondikeSolveDocument>(&text).map_err(refused)?;
                    for deal in &mut solved.deals {
                        deal.seconds = 0.0;
                        // Hashed in one fixed form, the one the first
                        // records were made in: the stock turns counted
                        // into `moves`, and no `stock-turns`. The output
                        // keeps them apart (`moves` is the moves on the
                        // table, as in every other output); summing them
                        // here keeps every recorded checksum valid. (A
                        // recomputation that moved turns between the two
                        // would pass this comparison alone; the committed
                        // file's own checksum holds both as written, and
                        // the tests check the split itself.)
                        deal.moves += deal.stock_turns;
                    }
                    let mut value = serde_json::to_value(&solved).unwrap_or_default();
                    if let Some(deals) = value.get_mut("deals").and_then(|d| d.as_array_mut()) {
                        for deal in deals.iter_mut().filter_map(|d| d.as_object_mut()) {
                            deal.shift_remove("stock-turns");
                        }
                    }
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                }
                // Another kind that counts in distributions (the
                // blackjack table's), read as a report's would be.
                _ => match serde_json::from_str::<CountedDistributions>(&text) {
                    Ok(counted) => counted_text(counted.distributions.iter().map(|d| {
                        let outcomes = d
                            .outcomes
                            .iter()
                            .map(|o| (o.outcome.as_str(), o.count, o.probability.as_deref()));
                        (d.key.as_str(), outcomes)
                    })),
                    // A comparison: its whole JSON, which is deterministic.
                    Err(_) => text,
                },
            }
        }
        None => read(&outputs[0])?,
    };
    Ok(fnv1a64(counted.as_bytes()))
}
