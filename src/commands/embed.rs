//! A command line run in process, for a caller that embeds deckodds (the
//! Python package): the same parsed [`Cli`], the same commands and the
//! same output as the binary's, with what the binary would print on
//! standard output handed back as a string, no note or progress bar on
//! stderr, and the run followed and stopped through a [`RunControl`]
//! from the caller's own thread.
//!
//! So every option stays defined once, in `cli`: a caller builds a command
//! line (`--format json` for the JSON document) and parses it with clap,
//! and a bad value is refused with the message the binary prints
//! ([`clap_error_line`]).

use std::sync::{Arc, Mutex};

use clap::error::{ContextKind, ContextValue};

use super::context::{Context, Embedded, Invocation, RunIn};
use super::progress::RunControl;
use crate::cli::Cli;
use crate::error::{Error, Result};

/// What a command run in process gave: what the binary would have
/// printed on standard output, and whether a comparison it made found
/// disagreement (see `Outcome::Disagreement`; not an error: its output is
/// whole).
pub(super) struct Ran {
    pub output: String,
    pub disagreed: bool,
}

/// Runs `cli` in process with `run_in` (the dispatch), as the binary
/// would but quietly (no notes, no progress bar: `control` has the
/// progress), its standard output captured.
///
/// Guarantees: nothing is printed; no file is written unless the command
/// line names one (`--out`); the options that need the process to
/// themselves are refused (`--checkpoint` and `--resume`, which catch
/// SIGINT, and `--mpi`); once `control` is asked to stop, a Monte-Carlo
/// run starts no new chunk, an exact enumeration no new task, and the
/// command ends with [`Error::Interrupted`], whatever it wrote.
pub(super) fn run(cli: Cli, control: &Arc<RunControl>, run_in: RunIn) -> Result<Ran> {
    let long_runs = cli.command.long_run_args();
    for (option, given) in [
        ("--checkpoint", long_runs.run.checkpoint.is_some()),
        ("--resume", long_runs.run.resume.is_some()),
        ("--mpi", long_runs.run.mpi),
    ] {
        if given {
            return Err(Error::invalid(
                option,
                "given",
                "needs a process of its own (it catches signals or is one rank of an MPI job): run the deckodds binary",
            ));
        }
    }
    let mut context = Context::new(&cli.global, &long_runs)?;
    context.quiet = true;
    context.invocation = Invocation::Nested;
    context.embedded = Some(Embedded {
        control: Arc::clone(control),
        output: Mutex::new(Vec::new()),
    });
    let ran = run_in(cli, &context);
    // Once stopped, whatever the command ended with (an enumeration's
    // refusal, or a check of counts cut short) is the interrupt.
    if control.stop_requested() {
        return Err(Error::Interrupted {
            message: "interrupted: the run was stopped before it finished".into(),
        });
    }
    ran?;
    let disagreed = context.disagreed();
    let bytes = context
        .embedded
        .take()
        .map(|embedded| embedded.output.into_inner().unwrap_or_default())
        .unwrap_or_default();
    Ok(Ran {
        output: String::from_utf8_lossy(&bytes).into_owned(),
        disagreed,
    })
}

/// The one line the binary prints on stderr for a command line clap
/// refused (other than for help or version): a bad value reads as the
/// library's errors do (`error: --decks 0: must be 1..=64 or "inf"`), any
/// other mistake as clap says it on its first line, with its suggestions
/// (`(did you mean '--h17'?)`) and `(see --help)` appended.
pub fn clap_error_line(error: &clap::Error) -> String {
    match crate::cli::value_error(error) {
        Some(error) => format!("error: {error}"),
        None => format!("{} (see --help)", first_line_with_suggestions(error)),
    }
}

/// A clap error on one line, as every other error: its first line (which
/// names what is wrong) and its suggestions, which clap puts on later
/// lines.
fn first_line_with_suggestions(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut line = rendered
        .lines()
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    // "the following required arguments were not provided:" lists them on
    // the lines after.
    if line.ends_with(':')
        && let Some(ContextValue::Strings(missing)) = error.get(ContextKind::InvalidArg)
    {
        line.push(' ');
        line.push_str(&missing.join(", "));
    }
    let quoted = |values: &[String]| {
        values
            .iter()
            .map(|v| format!("'{v}'"))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    for kind in [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ] {
        let suggested = match error.get(kind) {
            Some(ContextValue::String(value)) => vec![value.clone()],
            Some(ContextValue::Strings(values)) => values.clone(),
            _ => Vec::new(),
        };
        if !suggested.is_empty() {
            line.push_str(&format!(" (did you mean {}?)", quoted(&suggested)));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        for tip in tips {
            line.push_str(&format!(" (tip: {tip})"));
        }
    }
    line
}

/// The options a command run in process takes from its caller's
/// parameters: every option of the command but those [`EMBEDDED_SETS`]
/// and the global `--quiet`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CommandSpec {
    /// The subcommands that name it: `["blackjack", "player", "compare"]`.
    pub path: Vec<String>,
    /// Its one-line description, as `--help` gives it.
    pub about: String,
    /// Whether it writes a report (`--format json` gives its document);
    /// otherwise it writes readable text only.
    pub writes_json: bool,
    /// Its options, in the order of `--help`.
    pub options: Vec<OptionSpec>,
}

/// One option of a command, as clap defines it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OptionSpec {
    /// Its clap id, the field it sets (`decks`, `for_outcome`): a
    /// snake-case name.
    pub name: String,
    /// The flag: `--decks`.
    pub flag: String,
    /// What its value is.
    pub kind: ValueKind,
    /// Its default as written on the command line, if it has one (a flag
    /// has none: it is off unless given).
    pub default: Option<String>,
    /// Whether the command refuses to run without it.
    pub required: bool,
    /// The values it accepts, where clap lists them.
    pub possible_values: Vec<String>,
    /// Its help, as `--help` gives it.
    pub help: String,
}

/// What an option's value is, read off the type its parser returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueKind {
    /// A switch, on when given.
    Flag,
    /// A whole number.
    Integer,
    /// A real number.
    Real,
    /// A whole number or a word (`--decks 6`, `--decks inf`).
    IntegerOrText,
    /// Any other text, which the option's parser reads.
    Text,
}

/// The options an embedded run does not take from its caller: where and
/// how it writes (it returns its output), the parts of a run cut across
/// processes, and the files a run writes besides its report.
pub const EMBEDDED_SETS: [&str; 17] = [
    "format",
    "out",
    "digits",
    "figure",
    "log_y",
    "linear_y",
    "quiet",
    "shard",
    "checkpoint",
    "resume",
    "checkpoint_every",
    "mpi",
    "save_wins",
    "save_winnable",
    "chart",
    "verdicts",
    "out_dir",
];

/// Every command of the games (the registry's), down to the leaves of
/// the command tree, with its options, read from clap's definitions.
pub fn commands() -> Vec<CommandSpec> {
    use clap::CommandFactory;
    let root = Cli::command();
    let mut specs = Vec::new();
    for game in root.get_subcommands() {
        if crate::games::registry::by_id(game.get_name()).is_some() {
            collect(game, &mut vec![game.get_name().to_string()], &mut specs);
        }
    }
    specs
}

/// `command` (named by `path`) and its subcommands, in order.
fn collect(command: &clap::Command, path: &mut Vec<String>, specs: &mut Vec<CommandSpec>) {
    let has_own_options = command
        .get_arguments()
        .any(|arg| arg.get_long().is_some() && !is_global_or_help(arg));
    let leaf = command.get_subcommands().next().is_none();
    if has_own_options || leaf {
        specs.push(CommandSpec {
            path: path.clone(),
            about: command
                .get_about()
                .map(|about| about.to_string())
                .unwrap_or_default(),
            writes_json: command.get_arguments().any(|arg| arg.get_id() == "format"),
            options: command
                .get_arguments()
                .filter(|arg| {
                    arg.get_long().is_some()
                        && !arg.is_hide_set()
                        && !is_help(arg)
                        && !EMBEDDED_SETS.contains(&arg.get_id().as_str())
                })
                .map(option_spec)
                .collect(),
        });
    }
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        path.push(sub.get_name().to_string());
        collect(sub, path, specs);
        path.pop();
    }
}

fn is_help(arg: &clap::Arg) -> bool {
    matches!(arg.get_id().as_str(), "help" | "version")
}

fn is_global_or_help(arg: &clap::Arg) -> bool {
    is_help(arg) || arg.is_global_set()
}

fn option_spec(arg: &clap::Arg) -> OptionSpec {
    use clap::ArgAction;
    let kind = if matches!(arg.get_action(), ArgAction::SetTrue) {
        ValueKind::Flag
    } else {
        kind_of(arg.get_value_parser())
    };
    OptionSpec {
        name: arg.get_id().to_string(),
        flag: format!("--{}", arg.get_long().unwrap_or_default()),
        kind,
        default: match kind {
            ValueKind::Flag => None,
            _ => arg
                .get_default_values()
                .first()
                .map(|value| value.to_string_lossy().into_owned()),
        },
        required: arg.is_required_set(),
        possible_values: arg
            .get_possible_values()
            .iter()
            .filter(|value| !value.is_hide_set())
            .map(|value| value.get_name().to_string())
            .collect(),
        help: arg.get_help().map(|h| h.to_string()).unwrap_or_default(),
    }
}

/// The kind of value `parser` reads, from the type it returns.
fn kind_of(parser: &clap::builder::ValueParser) -> ValueKind {
    use std::any::TypeId;
    let id = parser.type_id();
    let integers = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
    ];
    if integers.iter().any(|t| id == *t) {
        ValueKind::Integer
    } else if id == TypeId::of::<f64>() {
        ValueKind::Real
    } else if id == TypeId::of::<crate::games::blackjack::Decks>() {
        ValueKind::IntegerOrText
    } else {
        ValueKind::Text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(specs: &'a [CommandSpec], path: &[&str]) -> &'a CommandSpec {
        specs
            .iter()
            .find(|spec| spec.path == path)
            .unwrap_or_else(|| panic!("no command {path:?}"))
    }

    #[test]
    fn commands_read_names_kinds_and_defaults_from_clap() {
        let specs = commands();
        let exact = find(&specs, &["blackjack", "exact"]);
        assert!(exact.writes_json);
        let option = |spec: &CommandSpec, name: &str| {
            spec.options
                .iter()
                .find(|o| o.name == name)
                .cloned()
                .unwrap_or_else(|| panic!("no option {name} in {:?}", spec.path))
        };
        let decks = option(exact, "decks");
        assert_eq!(
            (decks.kind, decks.default.as_deref(), decks.flag.as_str()),
            (ValueKind::IntegerOrText, Some("2"), "--decks")
        );
        assert_eq!(option(exact, "h17").kind, ValueKind::Flag);
        let mc = find(&specs, &["idiots-delight", "mc"]);
        assert_eq!(option(mc, "trials").kind, ValueKind::Integer);
        assert_eq!(option(mc, "shuffle").kind, ValueKind::Text);
        assert_eq!(option(mc, "until_halfwidth").kind, ValueKind::Real);
        // What the embedded run sets itself is not offered.
        for spec in &specs {
            for option in &spec.options {
                assert!(
                    !EMBEDDED_SETS.contains(&option.name.as_str()),
                    "{:?} offers {}",
                    spec.path,
                    option.name
                );
            }
        }
        // Every game's commands, nested ones included, and no other.
        assert!(
            specs
                .iter()
                .any(|s| s.path == ["blackjack", "player", "compare"])
        );
        assert!(specs.iter().all(|s| s.path[0] != "reproduce"));
        let replay = find(&specs, &["roll-call", "replay"]);
        assert!(!replay.writes_json);
    }
}
