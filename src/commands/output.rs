//! Where and how a command writes: the outputs `--out` and `--format`
//! ask for ([`Outputs`], checked with every file the command line names
//! before it runs, by [`check_files`]), rendered from the command's typed
//! report in each output's format (a chart drawn from its JSON), and
//! written through `files`; and the lists of deals `--save-wins` and
//! `--save-winnable` keep.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::context::Context;
use super::files::{self, Destination, write_atomically};
use super::merge;
use crate::cards::rank_name;
use crate::cli::{Cli, Command, DealFormat, OutputArgs};
use crate::compare::{Agreement, OverallVerdict};
use crate::engine::{ArrangementCounts, Shard};
use crate::error::{Error, Result};
use crate::report::chart::FigureSize;
use crate::report::convert::FigureCopy;
use crate::report::distributions::render_with_headline;
use crate::report::figures::{FigureOptions, YScale};
use crate::report::headline::Headline;
use crate::report::{Format, RenderOptions, Report, RunBlocks, comparison};

/// What a command's report can be written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writes {
    /// Every format, and the chart.
    Everything,
    /// Every format but the chart: the command (named) draws none.
    NoChart(&'static str),
    /// Only text (the terminal table's place: `.txt`, or standard
    /// output): the command (named) writes a readable text and nothing
    /// else.
    TextOnly(&'static str),
}

/// Checks the files a command line writes and reads, before it runs (see
/// [`files::check_before_run`]): also that each output's format is known
/// and one the command writes (a chart only from a command that draws
/// one), so that a long run does not end in an error it could have had
/// at once. Returns the files the command reads that decide its results
/// (a chart, deals, a published table or claim; not `--resume`'s
/// checkpoint nor `merge`'s count files), for the run's identity.
pub(super) fn check_files(cli: &Cli) -> Result<Vec<files::NamedPath>> {
    use crate::cli::{
        BlackjackCommand as B, IdiotsDelightCommand as I, KlondikeCommand as K, PlayerCommand,
        PlayerSubcommand, PrisonersCommand as P, PublishedCounts, RollCallCommand as R,
        TableSubcommand,
    };
    let mut plan = files::Plan::default();
    let named = |option: &'static str, path: &Path| files::NamedPath {
        option,
        path: path.to_path_buf(),
    };
    let long_runs = cli.command.long_run_args();
    let run = &long_runs.run;
    if let Some(path) = run.checkpoint.as_ref().or(run.resume.as_ref()) {
        let option = if run.checkpoint.is_some() {
            "--checkpoint"
        } else {
            "--resume"
        };
        plan.outputs.push(named(option, path));
    }
    if let Some(path) = &run.resume {
        plan.inputs.push(named("--resume", path));
    }
    let report: Option<(&OutputArgs, Writes)> = match &cli.command {
        Command::Blackjack(B::Exact { output, .. } | B::Mc { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::Blackjack(B::Compare {
            published,
            hands,
            hands_per_row,
            output,
            ..
        }) => {
            if let Some(path) = published {
                plan.inputs.push(named("--published", path));
            }
            // A table checked as exact has no z-scores to plot.
            let exact_check = published.is_some() && hands.is_none() && hands_per_row.is_none();
            Some((
                output,
                if exact_check {
                    Writes::NoChart("blackjack compare --published without --hands")
                } else {
                    Writes::Everything
                },
            ))
        }
        Command::Blackjack(B::Eor { output, .. }) => {
            Some((output, Writes::NoChart("blackjack eor")))
        }
        Command::Blackjack(B::Player(player)) => Some(match player {
            PlayerCommand::Values {
                command: Some(player),
                ..
            } => match player.as_ref() {
                PlayerSubcommand::Compare { output, .. } => {
                    (output, Writes::NoChart("blackjack player compare"))
                }
            },
            PlayerCommand::Values { output, .. } => (output, Writes::NoChart("blackjack player")),
            // The chart is drawn from the JSON (report::figures).
            PlayerCommand::Strategy { output, .. } => (output, Writes::Everything),
            PlayerCommand::HouseEdge { output, .. } => {
                (output, Writes::NoChart("blackjack house-edge"))
            }
            PlayerCommand::HouseEdgeGrid { output, .. } => {
                (output, Writes::NoChart("blackjack house-edge-grid"))
            }
            PlayerCommand::Indices(args) => (&args.output, Writes::NoChart("blackjack indices")),
            // The chart (the value by true count) is drawn from the JSON.
            PlayerCommand::Table {
                command: Some(table),
                ..
            } => match table.as_ref() {
                TableSubcommand::Compare {
                    table,
                    published,
                    output,
                    ..
                } => {
                    table_inputs(table, &mut plan.inputs);
                    if let Some(path) = published {
                        plan.inputs.push(named("--published", path));
                    }
                    (output, Writes::NoChart("blackjack table compare"))
                }
            },
            PlayerCommand::Table { table, output, .. } => {
                table_inputs(table, &mut plan.inputs);
                (output, Writes::Everything)
            }
            PlayerCommand::CutCardEffect { output, .. } => {
                (output, Writes::NoChart("blackjack cut-card-effect"))
            }
            PlayerCommand::Counts(args) => (&args.output, Writes::NoChart("blackjack counts")),
            PlayerCommand::CountDistribution(args) => (
                &args.output,
                Writes::NoChart("blackjack count-distribution"),
            ),
        }),
        Command::IdiotsDelight(I::Exact { output, .. } | I::Mc { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::IdiotsDelight(I::Compare {
            published,
            chart,
            output,
            ..
        }) => {
            if let Some(PublishedCounts::File(path)) = published {
                plan.inputs.push(named("--published", path));
            }
            if let Some(path) = chart {
                let is_svg = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
                if !is_svg && Destination::of(path) != Destination::Stdout {
                    return Err(Error::invalid(
                        "--chart",
                        path.display(),
                        "the chart is SVG: name the file .svg",
                    ));
                }
                plan.outputs.push(named("--chart", path));
            }
            Some((output, Writes::Everything))
        }
        Command::IdiotsDelight(I::Power { output, .. }) => {
            Some((output, Writes::NoChart("idiots-delight power")))
        }
        Command::RollCall(R::Mc {
            save_wins, output, ..
        })
        | Command::PrisonersPatience(P::Mc {
            save_wins, output, ..
        }) => {
            if let Some([_, path]) = save_wins.as_deref() {
                plan.outputs.push(named("--save-wins", Path::new(path)));
            }
            Some((output, Writes::Everything))
        }
        Command::RollCall(
            R::Exact { output, .. } | R::Compare { output, .. } | R::FirstPass { output, .. },
        )
        | Command::PrisonersPatience(P::Exact { output, .. } | P::Compare { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::PrisonersPatience(P::Solve { deal, output, .. }) => Some((
            output,
            if deal.is_some() {
                Writes::TextOnly("prisoners-patience solve --deal")
            } else {
                Writes::Everything
            },
        )),
        Command::Klondike(K::Mc { output, .. }) => Some((output, Writes::Everything)),
        Command::Klondike(K::Solve {
            source,
            verdicts,
            output,
            ..
        }) => {
            if let Some(path) = &source.deals {
                plan.inputs.push(named("--deals", path));
            }
            if let Some(path) = verdicts {
                extension_in(path, "--verdicts", &["csv"], "the verdicts are CSV")?;
                plan.outputs.push(named("--verdicts", path));
            }
            Some((output, Writes::Everything))
        }
        Command::Klondike(K::Deals {
            source,
            deal_format,
            out,
            out_dir,
        }) => {
            if let Some(path) = &source.deals {
                plan.inputs.push(named("--deals", path));
            }
            if let Some(path) = out {
                deals_format(*deal_format, Some(path))?;
                plan.outputs.push(named("--out", path));
            }
            if let Some(directory) = out_dir {
                files::existing_directory(
                    "--out-dir",
                    directory,
                    "a file a deal is written into it",
                )?;
                // The directory takes new files: checked through the
                // first deal's file (the command checks the others once it
                // knows how many there are).
                let first = deals_file_name(0, 1, deals_format(*deal_format, None)?);
                plan.outputs
                    .push(named("--out-dir", &directory.join(first)));
            }
            None
        }
        Command::Klondike(K::Record { out, .. }) => {
            if let Some(path) = out {
                text_only(path, "klondike record")?;
                plan.outputs.push(named("--out", path));
            }
            None
        }
        Command::Merge { files, output } => {
            plan.inputs
                .extend(files.iter().map(|path| named("merge", path)));
            // The chart is checked when the parts' command runs again.
            Some((output, Writes::Everything))
        }
        Command::RollCall(R::Replay { .. } | R::LongestZeroStrike { .. })
        | Command::PrisonersPatience(P::Replay { .. })
        | Command::Reproduce { .. }
        | Command::Rules { .. }
        | Command::Completions { .. }
        | Command::Schema { .. }
        | Command::Man { .. } => None,
    };
    if let Some((output, writes)) = report {
        let outputs = output_format(output, 0)?;
        for (destination, rendering) in &outputs.targets {
            let (option, value) = match destination {
                Destination::File(path) => ("--out", path.display().to_string()),
                Destination::Stdout => ("--format", output.format.clone().unwrap_or_default()),
            };
            match (writes, rendering) {
                (Writes::NoChart(command), Rendering::Chart(_)) => {
                    return Err(Error::invalid(
                        option,
                        value,
                        format!(
                            "{command} draws no chart: name the file .md .csv .json .tex or .txt"
                        ),
                    ));
                }
                (Writes::TextOnly(command), rendering)
                    if *rendering != Rendering::Text(Format::Table) =>
                {
                    let instead = match destination {
                        Destination::File(_) => "name the file .txt",
                        Destination::Stdout => "leave --format out",
                    };
                    return Err(Error::invalid(
                        option,
                        value,
                        format!("{command} writes readable text only: {instead}"),
                    ));
                }
                _ => {}
            }
        }
        plan.outputs
            .extend(output.out.iter().map(|path| named("--out", path)));
    }
    plan.report_on_stdout = !plan.outputs.iter().any(|o| o.option == "--out");
    files::check_before_run(&plan)?;
    Ok(plan
        .inputs
        .into_iter()
        .filter(|input| !matches!(input.option, "--resume" | "merge"))
        .collect())
}

/// The files a table run reads: a chart (`--strategy`), a ramp
/// (`--bet-ramp-file`), an index file (`--indices`).
fn table_inputs(table: &crate::cli::TableArgs, inputs: &mut Vec<files::NamedPath>) {
    use crate::cli::{IndexSource, TableStrategy};
    let mut add = |option: &'static str, path: &Path| {
        inputs.push(files::NamedPath {
            option,
            path: path.to_path_buf(),
        })
    };
    if let Some(TableStrategy::Chart(path)) = &table.strategy {
        add("--strategy", path);
    }
    if let Some(path) = &table.betting.bet_ramp_file {
        add("--bet-ramp-file", path);
    }
    if let Some(IndexSource::File(path)) = &table.indices {
        add("--indices", path);
    }
}

/// Checks that `path` names a text file (`.txt`, or `-`) for `command`,
/// which writes readable text only.
fn text_only(path: &Path, command: &str) -> Result<()> {
    extension_in(
        path,
        "--out",
        &["txt"],
        &format!("{command} writes readable text only"),
    )
}

/// Checks that `path`, given to `option`, has one of `extensions` (in any
/// case) or is standard output (`-`); else says `why` and what to name it.
fn extension_in(path: &Path, option: &str, extensions: &[&str], why: &str) -> Result<()> {
    let known = path
        .extension()
        .is_some_and(|e| extensions.iter().any(|known| e.eq_ignore_ascii_case(known)));
    if known || Destination::of(path) == Destination::Stdout {
        return Ok(());
    }
    let names: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
    Err(Error::invalid(
        option,
        path.display(),
        format!("{why}: name the file {}", names.join(" or ")),
    ))
}

/// The format `klondike deals` writes in: `--format`'s, else the one
/// `--out`'s extension names (`.json`, `.jsonl`: Solvitaire's; `.txt`:
/// card lines), else (standard output) Solvitaire's. With `--format`,
/// `--out` may be named anything; without, an extension that names no
/// format is refused.
pub(super) fn deals_format(named: Option<DealFormat>, out: Option<&Path>) -> Result<DealFormat> {
    let Some(path) = out.filter(|path| Destination::of(path) != Destination::Stdout) else {
        return Ok(named.unwrap_or(DealFormat::Solvitaire));
    };
    if let Some(named) = named {
        return Ok(named);
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("json" | "jsonl") => Ok(DealFormat::Solvitaire),
        Some("txt") => Ok(DealFormat::Cards),
        _ => Err(Error::invalid(
            "--out",
            path.display(),
            "name the file .json or .jsonl (Solvitaire's JSON deal format) or .txt (card lines), or give --format",
        )),
    }
}

/// The name of deal `number`'s file of `--out-dir`, of `n` deals:
/// `deal-00042.json`, the number written with at least five digits, and
/// as many as the last deal's, so that the names sort in deal order.
pub(super) fn deals_file_name(number: u64, n: u64, format: DealFormat) -> String {
    let width = n.saturating_sub(1).to_string().len().max(5);
    format!("deal-{number:0width$}.{}", format.extension())
}

/// What one output holds: a rendering of the result, or its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rendering {
    /// The result in a text format (the terminal table, md, csv, json,
    /// latex).
    Text(Format),
    /// The chart of the result: SVG drawn from its JSON by
    /// [`crate::report::figures::svg_for_report`], as `reproduce` draws
    /// it, or that SVG converted (`None`: the SVG itself).
    Chart(Option<FigureCopy>),
}

/// The file extensions `--out` knows, for errors.
const EXTENSIONS: &str =
    ".md .csv .json .tex .txt (the terminal table) or .svg .pdf .png (the chart)";

impl Rendering {
    /// The chart in the file type `name`s (`svg`, `pdf`, `png`), if it
    /// names one.
    fn chart(name: &str) -> Option<Rendering> {
        match name {
            "svg" => Some(Rendering::Chart(None)),
            _ => FigureCopy::ALL
                .into_iter()
                .find(|copy| copy.extension() == name)
                .map(|copy| Rendering::Chart(Some(copy))),
        }
    }

    /// The rendering `--format` names: a format of [`Format::parse`], or
    /// the chart as `svg`, `pdf` or `png`.
    fn parse(text: &str) -> Result<Rendering> {
        if let Some(chart) = Rendering::chart(text) {
            return Ok(chart);
        }
        Format::parse(text).map(Rendering::Text).map_err(|_| {
            Error::invalid(
                "--format",
                text,
                format!("must be one of {}, svg, pdf, png", Format::NAMES),
            )
        })
    }

    /// The rendering a file's extension names (in any case); an unknown
    /// extension, or none, is an error naming the known ones.
    fn of_extension(path: &Path) -> Result<Rendering> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        Ok(Rendering::Text(match extension.as_deref() {
            Some("md") => Format::Md,
            Some("csv") => Format::Csv,
            Some("json") => Format::Json,
            Some("tex") => Format::Latex,
            Some("txt") => Format::Table,
            Some(chart @ ("svg" | "pdf" | "png")) => {
                return Ok(Rendering::chart(chart).unwrap_or(Rendering::Chart(None)));
            }
            other => {
                let what = match other {
                    Some(other) => format!("unknown extension .{other}"),
                    None => "no extension to tell the format".to_string(),
                };
                return Err(Error::invalid(
                    "--out",
                    path.display(),
                    format!("{what}: name the file {EXTENSIONS}, or give --format"),
                ));
            }
        }))
    }
}

/// Where and how a command writes, validated before any work: one
/// target per `--out` (each file's format from its extension, unless
/// `--format` names one; `-` is standard output), or standard output.
pub(super) struct Outputs {
    targets: Vec<(Destination, Rendering)>,
    options: RenderOptions,
    /// How the chart is drawn (`--figure`, `--log-y`).
    figure: FigureOptions,
}

/// How the chart is drawn: `--figure`, and `--log-y` or `--linear-y`
/// (neither: chosen by the values).
pub(super) fn figure_options(output: &OutputArgs) -> Result<FigureOptions> {
    let size = FigureSize::parse(&output.figure).ok_or_else(|| {
        Error::invalid(
            "--figure",
            &output.figure,
            format!("must be {}", FigureSize::NAMES),
        )
    })?;
    let y_scale = match (output.log_y, output.linear_y) {
        (true, _) => YScale::Log,
        (_, true) => YScale::Linear,
        _ => YScale::Auto,
    };
    Ok(FigureOptions { size, y_scale })
}

/// The outputs an [`OutputArgs`] asks for.
pub(super) fn output_format(output: &OutputArgs, default_digits: usize) -> Result<Outputs> {
    let named = output.format.as_deref().map(Rendering::parse).transpose()?;
    if named.is_some() && output.out.len() > 1 {
        return Err(Error::invalid(
            "--format",
            output.format.as_deref().unwrap_or_default(),
            format!(
                "cannot be given with more than one --out: each file's format comes from its extension ({EXTENSIONS})"
            ),
        ));
    }
    let targets = if output.out.is_empty() {
        vec![(
            Destination::Stdout,
            named.unwrap_or(Rendering::Text(Format::Table)),
        )]
    } else {
        output
            .out
            .iter()
            .map(|path| {
                let destination = Destination::of(path);
                let rendering = match (named, &destination) {
                    (Some(named), _) => named,
                    (None, Destination::Stdout) => Rendering::Text(Format::Table),
                    (None, Destination::File(_)) => Rendering::of_extension(path)?,
                };
                Ok((destination, rendering))
            })
            .collect::<Result<_>>()?
    };
    let percent_decimals = output.digits.unwrap_or(default_digits);
    Ok(Outputs {
        targets,
        options: RenderOptions {
            percent_decimals,
            ..RenderOptions::default()
        },
        figure: figure_options(output)?,
    })
}

impl Outputs {
    /// Renders the result in each target's format (a chart from its JSON)
    /// and writes it. Every target is rendered before any is written, so
    /// that an error in one leaves none written.
    pub(super) fn emit(
        &self,
        context: &Context,
        render: impl Fn(Format, &RenderOptions) -> String,
    ) -> Result<()> {
        self.emit_with_files(context, render, Vec::new())
    }

    /// As [`Outputs::emit`], and writes `files` too (a path an option
    /// other than `--out` names, `-` for standard output, checked by
    /// [`check_files`], and its bytes), after every target is rendered and
    /// with the targets: a run writes all of its outputs or, on an error
    /// in rendering, none. A rank of an MPI job writes none of them.
    pub(super) fn emit_with_files(
        &self,
        context: &Context,
        render: impl Fn(Format, &RenderOptions) -> String,
        files: Vec<(&Path, Vec<u8>)>,
    ) -> Result<()> {
        if context.collect_only {
            // A rank of an MPI job: its counts go to rank 0, which writes.
            return context.check_parts_used();
        }
        if context.checkpointing.is_some() && context.sampled.lock().map_or(true, |s| s.is_empty())
        {
            return Err(Error::invalid(
                "--checkpoint",
                context
                    .checkpointing
                    .as_ref()
                    .map_or(String::new(), |c| c.path.display().to_string()),
                "this run samples nothing to save (an exact computation): leave --checkpoint out, and cut a long enumeration into parts with --shard",
            ));
        }
        context.check_parts_used()?;
        let options = RenderOptions {
            blocks: RunBlocks {
                precision: context.precision_block(),
                shard: None,
            },
            ..self.options.clone()
        };
        // A shard's JSON is its count file, for `merge`; its chart is the
        // report's.
        let shard_block = match context.shard {
            Some(shard) => {
                let samples = context
                    .sampled
                    .lock()
                    .map(|s| s.clone())
                    .unwrap_or_default();
                let enumerations = context
                    .enumerated
                    .lock()
                    .map(|e| e.clone())
                    .unwrap_or_default();
                let counted = !samples.is_empty() || !enumerations.is_empty();
                let json = Rendering::Text(Format::Json);
                if counted && !self.targets.iter().any(|(_, r)| *r == json) {
                    context.note(&format!(
                        "note: part {shard} writes no count file to merge: add --out FILE.json"
                    ));
                }
                counted
                    .then(|| merge::shard_block(shard, context.inputs(), &samples, &enumerations))
            }
            None => None,
        };
        let json_options = RenderOptions {
            blocks: RunBlocks {
                shard: shard_block,
                ..options.blocks.clone()
            },
            ..options.clone()
        };
        let mut rendered = Vec::with_capacity(self.targets.len());
        for (destination, rendering) in &self.targets {
            let bytes = match rendering {
                Rendering::Text(Format::Json) => render(Format::Json, &json_options).into_bytes(),
                Rendering::Text(Format::Table)
                    if *destination == Destination::Stdout && context.embedded.is_none() =>
                {
                    let fitted = RenderOptions {
                        width: terminal_width(),
                        ..options.clone()
                    };
                    render(Format::Table, &fitted).into_bytes()
                }
                Rendering::Text(format) => render(*format, &options).into_bytes(),
                Rendering::Chart(copy) => {
                    let json = render(Format::Json, &options);
                    chart(&json, self.figure, *copy, destination)?
                }
            };
            rendered.push((destination.clone(), bytes));
        }
        rendered.extend(
            files
                .into_iter()
                .map(|(path, bytes)| (Destination::of(path), bytes)),
        );
        for (destination, bytes) in rendered {
            write_to(&destination, &bytes, context)?;
        }
        Ok(())
    }
}

impl Outputs {
    /// Writes `report`, its terminal table led by `headline`.
    pub(super) fn emit_report(
        &self,
        report: &Report,
        headline: &Headline,
        context: &Context,
    ) -> Result<()> {
        self.emit(context, |format, options| {
            render_with_headline(report, headline, format, options)
        })
    }

    /// Writes a comparison's `agreements` under `title`, and records its
    /// verdict (see [`Context::verdict`]).
    pub(super) fn emit_agreements(
        &self,
        title: &str,
        agreements: &[Agreement],
        context: &Context,
    ) -> Result<()> {
        self.emit(context, |format, options| {
            comparison::render_agreements(title, agreements, format, options)
        })?;
        context.verdict(OverallVerdict::of(agreements).agrees());
        Ok(())
    }
}

/// The chart of a report's JSON drawn as `figure` says, as SVG or
/// converted to `copy`, for `destination`.
fn chart(
    json: &str,
    figure: FigureOptions,
    copy: Option<FigureCopy>,
    destination: &Destination,
) -> Result<Vec<u8>> {
    let refused = |e: Error, what: &str| {
        let (option, value) = match destination {
            Destination::Stdout => (
                "--format",
                copy.map_or("svg", FigureCopy::extension).to_string(),
            ),
            Destination::File(path) => ("--out", path.display().to_string()),
        };
        Error::invalid(option, value, format!("{what}: {e}"))
    };
    let svg = crate::report::figures::svg_for_report(json, figure)
        .map_err(|e| refused(e, "this report has no chart"))?;
    match copy {
        None => Ok(svg.into_bytes()),
        Some(copy) => copy
            .from_svg(&svg)
            .map_err(|e| refused(e, "the chart cannot be converted")),
    }
}

/// The width the terminal table is fitted to: `COLUMNS`, when it is set
/// to a width of at least 20 characters (`COLUMNS=100 deckodds ...` asks
/// for a width; `COLUMNS=0` for none), else the width of the terminal
/// standard output is. `None` when standard output is a file or a pipe,
/// so that what is saved is the same bytes on every machine.
fn terminal_width() -> Option<usize> {
    match std::env::var("COLUMNS") {
        Ok(columns) => columns
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&width| width >= 20),
        Err(_) => console::Term::stdout()
            .size_checked()
            .map(|(_rows, columns)| usize::from(columns))
            .filter(|&width| width >= 20),
    }
}

/// Writes `text` to `path` (`-`, or no path: standard output).
pub(super) fn emit(text: &str, path: Option<&Path>, context: &Context) -> Result<()> {
    context.check_parts_used()?;
    let destination = path.map_or(Destination::Stdout, Destination::of);
    write_to(&destination, text.as_bytes(), context)
}

/// Writes `bytes` to `destination`, a file saying so (unless `--quiet`).
fn write_to(destination: &Destination, bytes: &[u8], context: &Context) -> Result<()> {
    match destination {
        Destination::Stdout => match &context.embedded {
            // A run in process: its caller takes the output.
            Some(embedded) => {
                if let Ok(mut output) = embedded.output.lock() {
                    output.extend_from_slice(bytes);
                }
                Ok(())
            }
            None => files::write_stdout(bytes),
        },
        Destination::File(path) => {
            write_atomically(path, bytes)?;
            context.note(&format!("wrote {}", path.display()));
            Ok(())
        }
    }
}

/// Records in a report's `params` the part of an exhaustive enumeration
/// it counts, with `--shard`, and the arrangements that part counted (the
/// denominator, so that counts can be recovered exactly and parts added).
pub(super) fn record_part(
    params: &mut Map<String, Value>,
    shard: Option<Shard>,
    counts: &ArrangementCounts,
) {
    if let Some(shard) = shard {
        params.insert("shard".into(), json!(shard.to_string()));
        params.insert("arrangements".into(), json!(counts.total.to_string()));
    }
}

/// `--save-wins N FILE`, validated: how many won deals to keep, and where.
pub(super) fn save_wins_request(args: Option<Vec<String>>) -> Result<Option<(usize, String)>> {
    args.map(|args| -> Result<(usize, String)> {
        let n = crate::cli::values::parse_count(&args[0])
            .map_err(|error| error.naming("--save-wins"))? as usize;
        Ok((n, args[1].clone()))
    })
    .transpose()
}

/// Writes deals (game number, then the deal's ranks: the games won, or
/// the deals that can be won) to `path` (`-`: standard output) under a
/// one-line `title`.
pub(super) fn save_deals(
    path: &str,
    title: &str,
    deals: &[(u64, Vec<u8>)],
    context: &Context,
) -> Result<()> {
    let mut text = format!("# {title}; game number, then the deal\n");
    for (number, deal) in deals {
        text.push_str(&format!("{number}: {}\n", deal_text(deal)));
    }
    match Destination::of(Path::new(path)) {
        Destination::Stdout => files::write_stdout(text.as_bytes()),
        Destination::File(file) => {
            write_atomically(&file, text.as_bytes())?;
            context.note(&format!("wrote {} deals to {path}", deals.len()));
            Ok(())
        }
    }
}

/// A deal as its ranks' names, separated by spaces: `A 7 10 K`.
pub(super) fn deal_text(deal: &[u8]) -> String {
    deal.iter()
        .map(|&rank| rank_name(rank))
        .collect::<Vec<_>>()
        .join(" ")
}
