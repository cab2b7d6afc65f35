//! `deckodds reproduce [SPEC...]`: runs analysis specs and writes their
//! tables, a provenance record beside each, and a summary.

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;
use serde_json::{Value, json};
use tabled::builder::Builder;
use tabled::settings::Style;

use super::{Context, write_atomically};
use crate::analysis::{Profile, Spec};
use crate::cli::Cli;
use crate::error::{Error, Result};
use crate::report::chart::{self, BarChart, Series};

/// Where specs live.
const ANALYSIS_DIR: &str = "analysis";

pub(super) fn run(
    spec_paths: &[PathBuf],
    quick: bool,
    check: bool,
    results: Option<PathBuf>,
    context: &Context,
) -> Result<()> {
    let profile = if quick { Profile::Quick } else { Profile::Full };
    let results =
        results.unwrap_or_else(|| PathBuf::from(if quick { "results-quick" } else { "results" }));
    let specs = load_specs(spec_paths, profile, &results, context)?;
    if check {
        return check_results(&specs, &results, context);
    }
    fs::create_dir_all(&results).map_err(|source| Error::Io {
        path: results.clone(),
        source,
    })?;
    let mut rows = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let trials = spec.trials(profile);
        progress_line(
            context,
            &format!(
                "[{}/{}] {}: {} {}{}",
                i + 1,
                specs.len(),
                spec.name,
                spec.game,
                spec.command,
                trials.map_or(String::new(), |t| format!(", {t} trials")),
            ),
        );
        let started = Instant::now();
        run_spec(spec, profile, &results, context)?;
        draw_chart(spec, &results)?;
        let elapsed = started.elapsed().as_secs_f64();
        let provenance = provenance(spec, profile, &results, elapsed, context)?;
        let path = results.join(format!("{}.provenance.json", spec.name));
        let text = serde_json::to_string_pretty(&provenance).unwrap_or_default() + "\n";
        write_atomically(&path, text.as_bytes())?;
        rows.push([
            spec.name.clone(),
            format!("{} {}", spec.game, spec.command),
            trials_text(spec, profile),
            format!("{elapsed:.1} s"),
            verdicts(spec, &results)?,
        ]);
    }
    summary(
        &format!("{} specs into {}/", specs.len(), results.display()),
        ["spec", "method", "trials", "time", "verdict"],
        rows,
        context,
    )
}

/// Reads and checks the specs (all of `analysis/` if none is named), and
/// the command line of each, before anything runs.
fn load_specs(
    spec_paths: &[PathBuf],
    profile: Profile,
    results: &Path,
    context: &Context,
) -> Result<Vec<Spec>> {
    let spec_paths = if spec_paths.is_empty() {
        all_specs()?
    } else {
        spec_paths.to_vec()
    };
    // Every spec is checked before any runs, so a bad one costs nothing.
    let specs = spec_paths
        .iter()
        .map(|path| Spec::parse(path, &read(path)?))
        .collect::<Result<Vec<Spec>>>()?;
    for spec in &specs {
        command_line(spec, profile, results, context)?;
    }
    Ok(specs)
}

/// The trials column: the count, or `-` for what does not sample.
fn trials_text(spec: &Spec, profile: Profile) -> String {
    spec.trials(profile)
        .map_or_else(|| "-".to_string(), |trials| trials.to_string())
}

/// The verdicts of a comparison spec, from its JSON output: `agree (3 of
/// 3)`, or which keys disagree; `-` for a spec that compares nothing.
fn verdicts(spec: &Spec, results: &Path) -> Result<String> {
    let Some(path) = json_output(spec, &spec.output_paths(results)) else {
        return Ok("-".to_string());
    };
    let report: Value = parse_json(&path)?;
    let Some(rows) = report["rows"]
        .as_array()
        .filter(|_| report.get("comparison").is_some())
    else {
        return Ok("-".to_string());
    };
    let disagreeing: Vec<&str> = rows
        .iter()
        .filter(|row| row["verdict"] != "agree")
        .map(|row| row["key"].as_str().unwrap_or("?"))
        .collect();
    Ok(if disagreeing.is_empty() {
        format!("agree ({} of {})", rows.len(), rows.len())
    } else {
        // A few keys name the disagreement; the JSON has them all.
        let named = match disagreeing.len() {
            n if n > 3 => format!("{} and {} more", disagreeing[..3].join(", "), n - 3),
            _ => disagreeing.join(", "),
        };
        format!(
            "disagree: {named} ({} of {} agree)",
            rows.len() - disagreeing.len(),
            rows.len()
        )
    })
}

/// Draws the spec's `svg` output, if it has one: a bar chart of its one
/// distribution (estimates with their 95% intervals, or exact
/// probabilities), from its JSON output.
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
    let json_path = json_output(spec, &outputs).unwrap_or_default();
    let report = parse_json(&json_path)?;
    let in_spec = |message: String| Error::BadInputFile {
        path: spec.path.clone(),
        message,
    };
    let distributions = report["distributions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let [distribution] = distributions.as_slice() else {
        return Err(in_spec(format!(
            "outputs: \"svg\" draws one distribution, and this report has {}",
            distributions.len()
        )));
    };
    let outcomes = distribution["outcomes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let number = |value: &Value| value.as_f64().unwrap_or(0.0);
    let values: Vec<f64> = outcomes
        .iter()
        .map(|o| number(o.get("estimate").unwrap_or(&o["value"])))
        .collect();
    let intervals: Option<Vec<(f64, f64)>> = outcomes
        .iter()
        .map(|o| Some((number(o["ci95"].get(0)?), number(o["ci95"].get(1)?))))
        .collect();
    let key = distribution["key"]
        .as_str()
        .unwrap_or_default()
        .replace('-', " ");
    let params: Vec<String> = report["params"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, value)| {
            format!(
                "{name} {}",
                value.as_str().map_or(value.to_string(), str::to_string)
            )
        })
        .collect();
    let series_name = match report["trials"].as_u64() {
        Some(trials) => format!(
            "deckodds, {} games (seed {}), with 95% intervals",
            thousands(trials),
            report["seed"]
        ),
        None => "deckodds, exact".to_string(),
    };
    let chart = BarChart {
        title: format!(
            "{}: {key} ({})",
            game_name(report["game"].as_str().unwrap_or_default()),
            params.join(", ")
        ),
        x_label: key,
        y_label: "percent of games".into(),
        categories: outcomes
            .iter()
            .map(|o| o["outcome"].as_str().unwrap_or_default().to_string())
            .collect(),
        series: vec![Series {
            name: series_name,
            values,
            intervals,
        }],
    };
    let svg = chart::render_svg(&chart).map_err(|e| in_spec(format!("outputs: svg: {e}")))?;
    write_atomically(svg_path, svg.as_bytes())
}

/// A game's name for people, from its command name.
fn game_name(game: &str) -> &str {
    match game {
        "blackjack-dealer" => "Blackjack dealer",
        "idiots-delight" => "Idiot's Delight",
        "roll-call" => "Roll-Call",
        "prisoners-patience" => "Prisoner's patience",
        "klondike" => "Klondike",
        other => other,
    }
}

/// `10000000` as `10,000,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The spec's JSON output file among `outputs`, if it has one.
fn json_output(spec: &Spec, outputs: &[PathBuf]) -> Option<PathBuf> {
    spec.outputs
        .iter()
        .zip(outputs)
        .find(|(kind, _)| kind.as_str() == "json")
        .map(|(_, path)| path.clone())
}

fn parse_json(path: &Path) -> Result<Value> {
    serde_json::from_str(&read(path)?).map_err(|e| Error::BadInputFile {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
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
    super::emit(&format!("{title}\n{table}\n"), None, context)
}

/// `--check`: every committed output still has the checksum its provenance
/// records (so no figure was changed by hand), and the program still
/// computes it: outputs that do not sample are recomputed whole and
/// compared byte for byte; Monte-Carlo ones are recomputed under the quick
/// profile and their counts compared with the checksum the full run
/// recorded for it. The first difference is an error naming the file.
fn check_results(specs: &[Spec], results: &Path, context: &Context) -> Result<()> {
    let mut rows = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        progress_line(
            context,
            &format!("[{}/{}] checking {}", i + 1, specs.len(), spec.name),
        );
        let provenance_path = results.join(format!("{}.provenance.json", spec.name));
        let recorded: Value =
            serde_json::from_str(&read(&provenance_path)?).map_err(|e| Error::BadInputFile {
                path: provenance_path.clone(),
                message: format!("not a provenance record ({e}); run deckodds reproduce"),
            })?;
        let stale = |path: &Path, message: String| Error::BadInputFile {
            path: path.to_path_buf(),
            message,
        };
        for path in spec.output_paths(results) {
            let expected = recorded["files"][file_name(&path)]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let actual = fnv1a64(read(&path)?.as_bytes());
            if actual != expected {
                return Err(stale(
                    &path,
                    format!(
                        "differs from the file its provenance records ({actual}, recorded {expected:?}): changed by hand, or stale; run deckodds reproduce"
                    ),
                ));
            }
        }
        let scratch = Scratch::new(&spec.name)?;
        let how = match &spec.sampling {
            None => {
                run_spec(spec, Profile::Full, &scratch.0, &quietly(context))?;
                draw_chart(spec, &scratch.0)?;
                for (committed, fresh) in spec
                    .output_paths(results)
                    .iter()
                    .zip(spec.output_paths(&scratch.0))
                {
                    if read(committed)? != read(&fresh)? {
                        return Err(stale(
                            committed,
                            "differs from what the program computes now; run deckodds reproduce"
                                .into(),
                        ));
                    }
                }
                "recomputed whole: identical"
            }
            Some(_) => {
                run_spec(spec, Profile::Quick, &scratch.0, &quietly(context))?;
                let quick = counts_checksum(spec, &spec.output_paths(&scratch.0))?;
                let expected = recorded["quick_checksum"].as_str().unwrap_or_default();
                if quick != expected {
                    return Err(stale(
                        &provenance_path,
                        format!(
                            "the program now counts differently: the quick profile gives {quick}, recorded {expected:?}; run deckodds reproduce"
                        ),
                    ));
                }
                "quick profile recomputed: same counts"
            }
        };
        rows.push([
            spec.name.clone(),
            format!("{} {}", spec.game, spec.command),
            "match their provenance".to_string(),
            how.to_string(),
        ]);
    }
    summary(
        &format!(
            "{} specs checked against {}/: all agree",
            specs.len(),
            results.display()
        ),
        ["spec", "method", "committed files", "recomputed"],
        rows,
        context,
    )
}

/// `context` without notes or progress: for recomputations into scratch
/// folders, whose files the user never sees.
fn quietly(context: &Context) -> Context {
    Context {
        quiet: true,
        threads: context.threads,
    }
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
fn run_spec(spec: &Spec, profile: Profile, results: &Path, context: &Context) -> Result<()> {
    let cli = command_line(spec, profile, results, context)?;
    let in_spec = |message: String| Error::BadInputFile {
        path: spec.path.clone(),
        message,
    };
    super::run(cli).map_err(|error| match error {
        Error::InvalidValue {
            option,
            value,
            allowed,
        } => match spec.key_of_option(&option) {
            Some((key, Some(line))) => in_spec(format!("line {line}: {key} = {value}: {allowed}")),
            Some((key, None)) => in_spec(format!("{key} = {value}: {allowed}")),
            None => in_spec(format!("{option} {value}: {allowed}")),
        },
        other => other,
    })
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
    Cli::try_parse_from(&args).map_err(|e| {
        let rendered = e.render().to_string();
        let first = rendered.lines().next().unwrap_or("invalid parameters");
        in_spec(first.trim_start_matches("error: ").to_string())
    })
}

/// The provenance record of a spec's run.
///
/// Guarantee: apart from `elapsed_seconds` and `cores`, the same spec,
/// program and profile give the same record on any machine with any
/// thread count (the checksum covers the counts, which do not depend on
/// threads).
fn provenance(
    spec: &Spec,
    profile: Profile,
    results: &Path,
    elapsed: f64,
    context: &Context,
) -> Result<Value> {
    let outputs = spec.output_paths(results);
    let checksum = counts_checksum(spec, &outputs)?;
    // `--check` recomputes Monte-Carlo tables under the quick profile, so
    // the full run records what that gives too (a small share of the work).
    let quick_checksum = match (&spec.sampling, profile) {
        (None, _) | (_, Profile::Quick) => checksum.clone(),
        (Some(_), Profile::Full) => {
            let scratch = Scratch::new(&spec.name)?;
            run_spec(spec, Profile::Quick, &scratch.0, &quietly(context))?;
            counts_checksum(spec, &spec.output_paths(&scratch.0))?
        }
    };
    let mut files = serde_json::Map::new();
    for path in &outputs {
        files.insert(file_name(path), json!(fnv1a64(read(path)?.as_bytes())));
    }
    Ok(json!({
        "spec": spec.path.display().to_string(),
        "description": spec.description,
        "program": format!("deckodds {}", env!("CARGO_PKG_VERSION")),
        "profile": match profile { Profile::Full => "full", Profile::Quick => "quick" },
        "command": format!("deckodds {}", spec.args(profile, Path::new("results")).join(" ")),
        "seed": spec.sampling.as_ref().map(|s| s.seed),
        "trials": spec.trials(profile),
        "files": files,
        "checksum": checksum,
        "quick_trials": spec.trials(Profile::Quick),
        "quick_checksum": quick_checksum,
        "elapsed_seconds": (elapsed * 10.0).round() / 10.0,
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "spec_text": spec.text,
    }))
}

/// FNV-1a (64 bits) of what the run counted: each distribution's key and
/// its outcomes' counts or exact probabilities, from the JSON output (a
/// comparison's whole JSON); of the first output for a spec without JSON.
fn counts_checksum(spec: &Spec, outputs: &[PathBuf]) -> Result<String> {
    let counted = match json_output(spec, outputs) {
        Some(path) => {
            let report = parse_json(&path)?;
            match report["distributions"].as_array() {
                Some(distributions) => {
                    let mut text = String::new();
                    for distribution in distributions {
                        text.push_str(distribution["key"].as_str().unwrap_or_default());
                        for outcome in distribution["outcomes"].as_array().into_iter().flatten() {
                            text.push(' ');
                            text.push_str(&outcome["outcome"].to_string());
                            text.push('=');
                            let figure =
                                outcome.get("count").or_else(|| outcome.get("probability"));
                            text.push_str(&figure.map_or(String::new(), Value::to_string));
                        }
                        text.push('\n');
                    }
                    text
                }
                // A comparison: its whole JSON, which is deterministic.
                None => read(&path)?,
            }
        }
        None => read(&outputs[0])?,
    };
    Ok(fnv1a64(counted.as_bytes()))
}

/// FNV-1a, 64 bits, as `fnv1a64:` and 16 hex digits: a fingerprint for
/// spotting a changed file, not a defence against a forged one.
fn fnv1a64(bytes: &[u8]) -> String {
    // Wrapping is the hash's definition, not an overflow.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}
