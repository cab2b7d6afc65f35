//! Analysis specs: one TOML file in `analysis/` per publication table,
//! naming the game, the command (the method), its parameters, the sampling
//! and the outputs. A spec compiles to the command line that makes the
//! table, so `deckodds reproduce` runs exactly the code a user runs by
//! hand.
//!
//! ```toml
//! description = "10,000,000 games by the exercise's fixed policy"
//! game = "klondike"
//! command = "mc"
//! outputs = ["md", "json"]
//!
//! [params]            # the command's options, named without dashes
//! draw = 1
//!
//! [monte-carlo]       # commands that sample
//! trials = 10_000_000
//! quick-trials = 100_000   # optional: at most 100,000 by default
//! seed = 1
//! ```
//!
//! A comparison may declare the verdict it is expected to reach
//! (`expect = "disagree"`), which makes a published finding a regression
//! check: `reproduce` fails when the verdict differs.
//!
//! Validation is strict: an unknown key, a value of the wrong type or an
//! impossible value is an error naming the file, the line and the key.
//! Which keys `[params]` accepts is read from the command-line definitions,
//! so a spec can say whatever the command can and nothing else. Lines come
//! from the TOML parser's own spans.
//!
//! Architecture invariant: no I/O; the caller reads the file, checks the
//! input files it names, and runs the arguments.

mod index;
pub mod long_form;
mod site;

use std::fmt;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::cli::Cli;
use crate::error::{Error, Result};
use crate::games::registry;
use crate::report::chart::FigureSize;
use crate::report::convert::FigureCopy;
use crate::report::figures::{FigureOptions, YScale};
use crate::report::site::HeadlineRole;

pub use index::results_index;
pub use site::{
    README_BEGIN, README_END, Site, TableFiles, build_site, figure_text, page_of,
    readme_with_headline,
};

/// Options a spec never sets in `[params]`: the outputs and the run's
/// manner come from the spec's other keys (and `--trials` and `--seed` of a
/// sampling command from `[monte-carlo]`).
const RESERVED: [&str; 5] = ["out", "format", "quiet", "threads", "help"];

/// The subcommand that compares, in every game: the only one whose JSON
/// output carries a verdict, so the only one a spec may `expect` of.
const COMPARING_COMMAND: &str = "compare";

/// The value name that marks an option whose value is a file the command
/// reads (a published table): `FILE.csv`, alone or among keywords that are
/// not files (`sas|FILE.csv`). Read from the command-line definitions, so
/// that `reproduce` can check the file exists before anything runs.
const INPUT_FILE_VALUE: &str = "FILE.csv";

/// Output file kinds and what writes them: report formats through `--out`
/// (md csv json tex), the text of commands that print text (txt), and a
/// bar chart drawn from the JSON output (svg). An `svg` output brings its
/// PDF and PNG beside it ([`Spec::figure_copies`]), converted from the SVG.
const OUTPUTS: [&str; 6] = ["md", "csv", "json", "tex", "txt", "svg"];

/// The quick profile's trials when a spec does not give `quick-trials`:
/// its full trials, up to this many.
pub const DEFAULT_QUICK_TRIALS: u64 = 100_000;

/// Which trial counts a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The committed tables: `trials`.
    Full,
    /// A few minutes for everything: `quick-trials` (the same code paths).
    Quick,
}

/// Sampling of a Monte-Carlo spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Trials of the full profile.
    pub trials: u64,
    /// Trials of the quick profile: `quick-trials`, or the smaller of
    /// `trials` and [`DEFAULT_QUICK_TRIALS`]. Never more than `trials`.
    pub quick_trials: u64,
    /// The master seed.
    pub seed: u64,
}

/// The verdict of a comparison table as a whole, in the words of
/// `reproduce`'s summary and of a spec's `expect`: Monte Carlo against
/// exact (or one sample against another) agrees or disagrees in some row;
/// a published table is consistent or not in some cell. (The verdict of
/// one row is [`crate::compare::Verdict`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableVerdict {
    /// Every row agrees.
    Agree,
    /// Some row disagrees.
    Disagree,
    /// Every tested cell of a published table is consistent.
    Consistent,
    /// Some tested cell of a published table is not.
    Inconsistent,
}

impl TableVerdict {
    /// Every verdict, in the order errors list them.
    pub const ALL: [TableVerdict; 4] = [
        TableVerdict::Agree,
        TableVerdict::Disagree,
        TableVerdict::Consistent,
        TableVerdict::Inconsistent,
    ];

    /// The word the summary and specs use.
    pub fn word(self) -> &'static str {
        match self {
            TableVerdict::Agree => "agree",
            TableVerdict::Disagree => "disagree",
            TableVerdict::Consistent => "consistent",
            TableVerdict::Inconsistent => "inconsistent",
        }
    }

    /// The verdict `word` names, if any.
    pub fn from_word(word: &str) -> Option<TableVerdict> {
        TableVerdict::ALL.into_iter().find(|v| v.word() == word)
    }
}

impl fmt::Display for TableVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// One option of a spec's command line: from `[params]` or from an entry
/// of `each`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The option, without dashes.
    pub name: String,
    /// Its value as text; `None` for a flag set to true.
    pub value: Option<String>,
    /// Where the spec sets it, for errors: `params.draw`, `each[3].ranks`.
    pub key: String,
    /// The line that sets it.
    pub line: usize,
    /// The value names a file the command reads (a published table), which
    /// the caller checks exists before anything runs.
    pub reads_file: bool,
}

/// A validated analysis spec: one table (one run of one command). A spec
/// file with `each` holds a family of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The file it came from.
    pub path: PathBuf,
    /// The table's name: every output is `NAME.EXT`. The file's stem, or
    /// for a family, the stem, `-` and the suffix of its entry.
    pub name: String,
    /// The file's stem: the family a table belongs to (its own name if the
    /// file has no `each`).
    pub family: String,
    /// One line on what the table shows, for the results index.
    pub description: String,
    /// The game (a top-level command).
    pub game: String,
    /// The game's subcommand: the method.
    pub command: String,
    /// The options, `[params]` in name order, then the entry's.
    pub params: Vec<Param>,
    /// `[monte-carlo]`, if the command samples.
    pub sampling: Option<Sampling>,
    /// The output kinds, in order.
    pub outputs: Vec<String>,
    /// `slow = true`: the full run takes minutes, so `reproduce` runs it
    /// only when asked (`--slow`, or the spec named).
    pub slow: bool,
    /// The command draws its `svg` output itself (`--chart`); otherwise
    /// `reproduce` draws it from the JSON output.
    pub draws_own_chart: bool,
    /// `expect`: the verdict the comparison is declared to reach (then the
    /// spec lists a `json` output, which the verdict is read from).
    pub expect: Option<TableVerdict>,
    /// The line of each top-level key and `[monte-carlo]` key the file
    /// sets (`monte-carlo.trials`), for errors found after parsing.
    pub key_lines: Vec<(String, usize)>,
    /// The spec file's text, for provenance.
    pub text: String,
    /// `title`: the family's page title, in words (by default the
    /// game's name and the description's first clause).
    pub title: Option<String>,
    /// `[headline]` (or `[[headline]]`): the rows the table gives the
    /// front page's answers table; none for most tables.
    pub headlines: Vec<HeadlineSpec>,
    /// `finding`: one sentence on what the table found, for its game's
    /// paragraph on the front page; `{/json/pointer}` placeholders are
    /// filled from the table's JSON output, so that no figure is typed.
    pub finding: Option<String>,
    /// `also-shows`: families whose tables the family's web page shows
    /// after its own (the blackjack dealer's page shows the player's grid);
    /// each one a spec makes, other than its own
    /// ([`Spec::check_also_shows`], once all specs are read).
    pub also_shows: Vec<String>,
    /// How the `svg` output (and its PDF and PNG) is drawn: `figure =
    /// "screen" | "single" | "double"` (default screen) and `log-y = true
    /// | false` (default: chosen by the values, see
    /// [`crate::report::figures::YScale::Auto`]).
    pub figure: FigureOptions,
}

/// What a table contributes to the front page's answers table: one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadlineSpec {
    /// The game variant the row is about, in words (`{param}`
    /// placeholders filled for each table of a family).
    pub variant: String,
    /// What the figure is: `P(win)`, `house edge`.
    pub label: String,
    /// Where the figure is in the JSON output.
    pub source: HeadlineSource,
    /// `role`: the usual game (one row per game), another variant of it,
    /// or a seed question's figure; rows are shown in that order.
    pub role: HeadlineRole,
    /// `table`: in a family, the one table this row is of (by default
    /// every table of the family gives a row).
    pub table: Option<String>,
    /// `negate = true`: the row shows minus the JSON's figure (a house
    /// edge read from the player's expectation).
    pub negate: bool,
    /// `note`: a few words beside the figure, `{/json/pointer}`
    /// placeholders filled from the JSON (as `finding`'s).
    pub note: Option<String>,
    /// The line of its `[headline]` header, for errors.
    pub line: usize,
}

/// Where a headline figure is read from in a table's JSON output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadlineSource {
    /// `outcome`: the probability of this outcome of the distribution
    /// keyed `distribution` (by default the first), exact or a count with
    /// its 95% interval.
    Outcome {
        distribution: Option<String>,
        outcome: String,
    },
    /// `figure`: a JSON pointer to an object holding an exact `"value"`
    /// fraction, or a `"mean"` (or `"estimate"`) with its `"ci95"`.
    Figure(String),
}

/// Top-level keys of a spec file.
const KEYS: [&str; 16] = [
    "description",
    "title",
    "game",
    "command",
    "outputs",
    "params",
    "monte-carlo",
    "each",
    "suffix",
    "slow",
    "expect",
    "headline",
    "finding",
    "also-shows",
    "figure",
    "log-y",
];

/// Top-level keys that only say how a spec's tables are presented (the
/// pages' titles, the answers table, the findings, the pages that also
/// show them), not what its tables hold.
const PRESENTATION_KEYS: [&str; 4] = ["title", "headline", "finding", "also-shows"];

/// Keys of `[headline]`.
const HEADLINE_KEYS: [&str; 9] = [
    "variant",
    "label",
    "role",
    "table",
    "distribution",
    "outcome",
    "figure",
    "negate",
    "note",
];

/// One `[headline]` table of a spec (its header at `header_line`),
/// checked: every key known, a string (or `negate` a boolean), the figure
/// named one way, and the JSON it is read from among the outputs.
fn parse_headline(
    entries: &DeTable,
    header_line: usize,
    source: &Source,
    has_json: bool,
    bad: &dyn Fn(Option<usize>, String) -> Error,
) -> Result<HeadlineSpec> {
    let key_line = |key: &str| source.key_line(entries, key).or(Some(header_line));
    let text = |key: &str| -> Result<Option<String>> {
        match entries.get(key).map(Spanned::get_ref) {
            None => Ok(None),
            Some(DeValue::String(value)) => Ok(Some(value.to_string())),
            Some(other) => Err(bad(
                key_line(key),
                format!("headline.{key}: must be a string, not {}", other.type_str()),
            )),
        }
    };
    for (key, _) in entries.iter() {
        let key = key.get_ref().as_ref();
        if !HEADLINE_KEYS.contains(&key) {
            return Err(bad(
                key_line(key),
                format!(
                    "headline.{key}: unknown key; allowed: {}",
                    HEADLINE_KEYS.join(", ")
                ),
            ));
        }
    }
    let missing = |key: &str, what: &str| {
        bad(
            Some(header_line),
            format!("headline.{key}: missing; {what}"),
        )
    };
    let variant =
        text("variant")?.ok_or_else(|| missing("variant", "the game variant the row is about"))?;
    let label =
        text("label")?.ok_or_else(|| missing("label", "what the figure is, e.g. \"P(win)\""))?;
    let role = match text("role")?.as_deref() {
        None | Some("variant") => HeadlineRole::Variant,
        Some("usual") => HeadlineRole::Usual,
        Some("seed") => HeadlineRole::Seed,
        Some(other) => {
            return Err(bad(
                key_line("role"),
                format!(
                    "headline.role = {other:?}: one of \"usual\" (the usual game: one row per game), \"variant\" (the default) or \"seed\" (a seed question's figure)"
                ),
            ));
        }
    };
    let negate = match entries.get("negate").map(Spanned::get_ref) {
        None => false,
        Some(DeValue::Boolean(negate)) => *negate,
        Some(other) => {
            return Err(bad(
                key_line("negate"),
                format!(
                    "headline.negate: must be true or false, not {}",
                    other.type_str()
                ),
            ));
        }
    };
    let source = match (text("outcome")?, text("figure")?, has_json) {
        (_, _, false) => {
            return Err(bad(
                Some(header_line),
                "headline: the figure is read from the JSON output, so list \"json\" in outputs"
                    .into(),
            ));
        }
        (Some(outcome), None, true) => HeadlineSource::Outcome {
            distribution: text("distribution")?,
            outcome,
        },
        (None, Some(pointer), true) if pointer.starts_with('/') => HeadlineSource::Figure(pointer),
        (None, Some(pointer), true) => {
            return Err(bad(
                key_line("figure"),
                format!("headline.figure = {pointer:?}: must be a JSON pointer, e.g. \"/overall\""),
            ));
        }
        _ => {
            return Err(bad(
                Some(header_line),
                "headline: give one of outcome (an outcome of the first distribution) or figure (a JSON pointer)".into(),
            ));
        }
    };
    Ok(HeadlineSpec {
        variant,
        label,
        source,
        role,
        table: text("table")?,
        negate,
        note: text("note")?,
        line: header_line,
    })
}

/// Keys of `[monte-carlo]`.
const SAMPLING_KEYS: [&str; 3] = ["trials", "quick-trials", "seed"];

/// A TOML value with where it is in the file.
type Item<'i> = Spanned<DeValue<'i>>;

/// A spec file's text, for turning the parser's spans into lines.
struct Source<'t> {
    text: &'t str,
}

impl Source<'_> {
    /// The 1-based line of byte `offset`.
    fn line(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// The line where `table` sets `key` (for a table, its header).
    fn key_line(&self, table: &DeTable, key: &str) -> Option<usize> {
        table
            .get_key_value(key)
            .map(|(key, _)| self.line(key.span().start))
    }

    /// The line where `item` starts.
    fn item_line(&self, item: &Item) -> usize {
        self.line(item.span().start)
    }
}

/// What one option of the command is, as a spec may set it.
struct OptionKind {
    /// The option, without dashes.
    long: String,
    /// A flag (true or false), not an option with a value.
    is_flag: bool,
    /// For an option that reads a file: the values that are keywords, not
    /// files (`sas`).
    file_keywords: Option<Vec<String>>,
}

impl Spec {
    /// Parses and validates the spec file `text`, read from `path`: one
    /// table, or with `each` a family of tables, one per entry (an entry's
    /// list values multiply out: `{ suits = 2, rule = ["a", "b"] }` is two
    /// tables).
    ///
    /// Guarantees: every error is [`Error::BadInputFile`] naming `path`,
    /// and the line and key where one applies; the tables' names are
    /// distinct and safe as file names.
    pub fn parse(path: &Path, text: &str) -> Result<Vec<Spec>> {
        let bad = |line: Option<usize>, message: String| Error::BadInputFile {
            path: path.to_path_buf(),
            message: match line {
                Some(line) => format!("line {line}: {message}"),
                None => message,
            },
        };
        let source = Source { text };
        let document = DeTable::parse(text).map_err(|e| {
            let line = e.span().map(|span| source.line(span.start));
            bad(line, e.message().trim().to_string())
        })?;
        let table: &DeTable = document.get_ref();
        let line = |key: &str| source.key_line(table, key);
        let get = |key: &str| table.get(key).map(Spanned::get_ref);
        let string = |key: &str| -> Result<Option<String>> {
            match get(key) {
                None => Ok(None),
                Some(DeValue::String(s)) => Ok(Some(s.to_string())),
                Some(other) => Err(bad(
                    line(key),
                    format!("{key}: must be a string, not {}", other.type_str()),
                )),
            }
        };
        let required = |key: &str, what: &str| -> Result<String> {
            string(key)?.ok_or_else(|| bad(None, format!("{key}: missing; {what}")))
        };

        let mut key_lines = Vec::new();
        for (key, _) in table.iter() {
            let key = key.get_ref().as_ref();
            if !KEYS.contains(&key) {
                return Err(bad(
                    line(key),
                    format!("{key}: unknown key; allowed: {}", KEYS.join(", ")),
                ));
            }
            key_lines.extend(line(key).map(|n| (key.to_string(), n)));
        }
        let description = required("description", "say in one line what the table shows")?;
        if description.trim().is_empty() || description.contains('\n') {
            return Err(bad(
                line("description"),
                "description: must be one line of text".into(),
            ));
        }
        let games = registry::ids().join(", ");
        let game = required("game", &format!("one of {games}"))?;
        let Some(entry) = registry::by_id(&game) else {
            return Err(bad(
                line("game"),
                format!("game = {game:?}: unknown; one of {games}"),
            ));
        };
        let root = Cli::command();
        let game_command = root
            .find_subcommand(&game)
            .ok_or_else(|| bad(line("game"), format!("game = {game:?}: unknown")))?;
        let commands: Vec<String> = game_command
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .filter(|name| name != "help")
            .collect();
        let command_name = required("command", &format!("one of {}", commands.join(", ")))?;
        let command = game_command
            .find_subcommand(&command_name)
            .filter(|_| command_name != "help")
            .ok_or_else(|| {
                bad(
                    line("command"),
                    format!(
                        "command = {command_name:?}: not a {game} command; one of {}",
                        commands.join(", ")
                    ),
                )
            })?;
        let can_sample = command
            .get_arguments()
            .any(|arg| arg.get_long() == Some("trials"));
        let options: Vec<OptionKind> = command
            .get_arguments()
            .filter(|arg| arg.get_help_heading() != Some(crate::cli::LONG_RUNS))
            .filter_map(|arg| {
                let long = arg.get_long()?.to_string();
                let is_flag = !arg.get_action().takes_values();
                // `sas|FILE.csv`: the alternatives other than the file are
                // keywords.
                let alternatives: Vec<String> = arg
                    .get_value_names()
                    .into_iter()
                    .flatten()
                    .flat_map(|name| name.split('|').map(String::from).collect::<Vec<_>>())
                    .collect();
                let file_keywords = alternatives
                    .iter()
                    .any(|name| name == INPUT_FILE_VALUE)
                    .then(|| {
                        alternatives
                            .iter()
                            .filter(|name| *name != INPUT_FILE_VALUE)
                            .cloned()
                            .collect()
                    });
                Some(OptionKind {
                    long,
                    is_flag,
                    file_keywords,
                })
            })
            .filter(|option| {
                let long = option.long.as_str();
                let set_elsewhere = can_sample && matches!(long, "trials" | "seed");
                !(RESERVED.contains(&long) || set_elsewhere)
            })
            .collect();
        // One option's value in the spec, set at `key_line` under `key`:
        // `None` leaves it out (a flag set to false).
        let option_value = |key: &str,
                            name: &str,
                            value: &DeValue,
                            key_line: usize|
         -> Result<Option<Param>> {
            let Some(option) = options.iter().find(|option| option.long == name) else {
                if KEYS.contains(&name) {
                    return Err(bad(
                        Some(key_line),
                        format!(
                            "{key}: {name} is a key of the spec, not a parameter: put it above [params]"
                        ),
                    ));
                }
                let names: Vec<&str> = options.iter().map(|o| o.long.as_str()).collect();
                return Err(bad(
                    Some(key_line),
                    format!(
                        "{key}: unknown key; {game} {command_name} takes {}",
                        if names.is_empty() {
                            "no parameters".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            };
            let text = match (value, option.is_flag) {
                (DeValue::Boolean(true), true) => None,
                (DeValue::Boolean(false), true) => return Ok(None),
                (_, true) => {
                    return Err(bad(Some(key_line), format!("{key}: must be true or false")));
                }
                (DeValue::String(s), false) => Some(s.to_string()),
                (DeValue::Integer(n), false) => Some(
                    i64::from_str_radix(n.as_str(), n.radix())
                        .map_err(|_| {
                            bad(
                                Some(key_line),
                                format!("{key} = {n}: out of range (64-bit integers)"),
                            )
                        })?
                        .to_string(),
                ),
                (DeValue::Float(x), false) => Some(
                    x.as_str()
                        .parse::<f64>()
                        .map_err(|_| bad(Some(key_line), format!("{key} = {x}: not a number")))?
                        .to_string(),
                ),
                (other, false) => {
                    return Err(bad(
                        Some(key_line),
                        format!(
                            "{key}: must be a string or a number, not {}",
                            other.type_str()
                        ),
                    ));
                }
            };
            let reads_file = match (&option.file_keywords, &text) {
                (Some(keywords), Some(text)) => !keywords.contains(text),
                _ => false,
            };
            Ok(Some(Param {
                name: name.to_string(),
                value: text,
                key: key.to_string(),
                line: key_line,
                reads_file,
            }))
        };

        let mut params = Vec::new();
        match get("params") {
            None => {}
            Some(DeValue::Table(entries)) => {
                for (name, value) in entries.iter() {
                    let name = name.get_ref().as_ref();
                    let key = format!("params.{name}");
                    let key_line = source.key_line(entries, name).unwrap_or(0);
                    params.extend(option_value(&key, name, value.get_ref(), key_line)?);
                }
            }
            Some(other) => {
                return Err(bad(
                    line("params"),
                    format!(
                        "params: must be a table ([params]), not {}",
                        other.type_str()
                    ),
                ));
            }
        }

        // Options with which a command that can sample samples nothing
        // (checking a published table, solving every arrangement), so its
        // spec takes no `[monte-carlo]`: the registry's, read from
        // `[params]`.
        let samples = can_sample
            && !params
                .iter()
                .any(|param| entry.samples_nothing(&command_name, &param.name));
        let sampling = match (get("monte-carlo"), samples) {
            (None, true) => {
                return Err(bad(
                    None,
                    format!(
                        "[monte-carlo]: missing; {game} {command_name} samples, so give trials and seed (and quick-trials, if not the smaller of trials and {DEFAULT_QUICK_TRIALS})"
                    ),
                ));
            }
            (None, false) => None,
            (Some(_), false) => {
                return Err(bad(
                    line("monte-carlo"),
                    format!("[monte-carlo]: {game} {command_name} does not sample; remove it"),
                ));
            }
            (Some(DeValue::Table(entries)), true) => {
                let table_line = line("monte-carlo");
                let key_line = |key: &str| source.key_line(entries, key);
                for (key, _) in entries.iter() {
                    let key = key.get_ref().as_ref();
                    let full = format!("monte-carlo.{key}");
                    if !SAMPLING_KEYS.contains(&key) {
                        return Err(bad(
                            key_line(key),
                            format!("{full}: unknown key; allowed: {}", SAMPLING_KEYS.join(", ")),
                        ));
                    }
                    key_lines.extend(key_line(key).map(|n| (full, n)));
                }
                let count = |key: &str, minimum: u64| -> Result<Option<u64>> {
                    let full = format!("monte-carlo.{key}");
                    match entries.get(key).map(Spanned::get_ref) {
                        None => Ok(None),
                        Some(DeValue::Integer(n)) => {
                            match i128::from_str_radix(n.as_str(), n.radix()) {
                                Ok(value) if value < i128::from(minimum) => Err(bad(
                                    key_line(key),
                                    format!("{full} = {value}: must be at least {minimum}"),
                                )),
                                Ok(value) => u64::try_from(value).map(Some).map_err(|_| {
                                    bad(
                                        key_line(key),
                                        format!("{full} = {n}: must be at most {}", u64::MAX),
                                    )
                                }),
                                Err(_) => {
                                    Err(bad(key_line(key), format!("{full} = {n}: out of range")))
                                }
                            }
                        }
                        Some(other) => Err(bad(
                            key_line(key),
                            format!("{full}: must be a whole number, not {}", other.type_str()),
                        )),
                    }
                };
                let missing = |key: &str| bad(table_line, format!("monte-carlo.{key}: missing"));
                let trials = count("trials", 1)?.ok_or_else(|| missing("trials"))?;
                let quick_trials = match count("quick-trials", 1)? {
                    Some(quick) if quick > trials => {
                        return Err(bad(
                            key_line("quick-trials"),
                            format!(
                                "monte-carlo.quick-trials = {quick}: must be at most trials ({trials})"
                            ),
                        ));
                    }
                    Some(quick) => quick,
                    None => trials.min(DEFAULT_QUICK_TRIALS),
                };
                let seed = count("seed", 0)?.ok_or_else(|| missing("seed"))?;
                Some(Sampling {
                    trials,
                    quick_trials,
                    seed,
                })
            }
            (Some(other), true) => {
                return Err(bad(
                    line("monte-carlo"),
                    format!(
                        "monte-carlo: must be a table ([monte-carlo]), not {}",
                        other.type_str()
                    ),
                ));
            }
        };

        let outputs = match get("outputs") {
            Some(DeValue::Array(items)) if !items.is_empty() => items
                .iter()
                .map(|item| match item.get_ref() {
                    DeValue::String(kind) if OUTPUTS.contains(&kind.as_ref()) => {
                        Ok(kind.to_string())
                    }
                    DeValue::String(kind) => Err(bad(
                        line("outputs"),
                        format!("outputs: {kind:?} is not one of {}", OUTPUTS.join(", ")),
                    )),
                    other => Err(bad(
                        line("outputs"),
                        format!("outputs: must list strings, not {}", other.type_str()),
                    )),
                })
                .collect::<Result<Vec<String>>>()?,
            Some(_) => {
                return Err(bad(
                    line("outputs"),
                    format!(
                        "outputs: must be a non-empty list of {}",
                        OUTPUTS.join(", ")
                    ),
                ));
            }
            None => {
                return Err(bad(
                    None,
                    format!("outputs: missing; a list of {}", OUTPUTS.join(", ")),
                ));
            }
        };
        // A command that draws its own chart (`--chart`, given an option
        // the registry names) is given the svg path; any other's chart is
        // drawn from its JSON.
        let draws_own_chart = params
            .iter()
            .any(|param| entry.draws_own_chart(&command_name, &param.name));
        let has_json = outputs.iter().any(|o| o == "json");
        if outputs.iter().any(|o| o == "svg") && !draws_own_chart && !has_json {
            return Err(bad(
                line("outputs"),
                "outputs: \"svg\" is drawn from the JSON output, so list \"json\" too".into(),
            ));
        }
        let prints_text = outputs.iter().any(|o| o == "txt");
        if prints_text && outputs.len() > 1 {
            return Err(bad(
                line("outputs"),
                "outputs: \"txt\" (the text a command prints) goes alone".into(),
            ));
        }
        let slow = match get("slow") {
            None => false,
            Some(DeValue::Boolean(slow)) => *slow,
            Some(other) => {
                return Err(bad(
                    line("slow"),
                    format!("slow: must be true or false, not {}", other.type_str()),
                ));
            }
        };
        let size = match string("figure")? {
            None => FigureSize::default(),
            Some(name) => FigureSize::parse(&name).ok_or_else(|| {
                bad(
                    line("figure"),
                    format!("figure = {name:?}: must be {}", FigureSize::NAMES),
                )
            })?,
        };
        let y_scale = match get("log-y") {
            None => YScale::Auto,
            Some(DeValue::Boolean(true)) => YScale::Log,
            Some(DeValue::Boolean(false)) => YScale::Linear,
            Some(other) => {
                return Err(bad(
                    line("log-y"),
                    format!(
                        "log-y: must be true or false (leave it out to let the values choose), not {}",
                        other.type_str()
                    ),
                ));
            }
        };
        let has_svg = outputs.iter().any(|o| o == "svg");
        if !has_svg && (get("figure").is_some() || get("log-y").is_some()) {
            let key = if get("figure").is_some() {
                "figure"
            } else {
                "log-y"
            };
            return Err(bad(
                line(key),
                format!("{key}: says how the chart is drawn, but outputs list no \"svg\""),
            ));
        }
        let figure = FigureOptions { size, y_scale };
        let verdicts = || {
            TableVerdict::ALL
                .iter()
                .map(|v| v.word())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let expect = match string("expect")? {
            None => None,
            Some(word) => {
                let verdict = TableVerdict::from_word(&word).ok_or_else(|| {
                    bad(
                        line("expect"),
                        format!("expect = {word:?}: not a verdict; one of {}", verdicts()),
                    )
                })?;
                if command_name != COMPARING_COMMAND {
                    return Err(bad(
                        line("expect"),
                        format!(
                            "expect: {game} {command_name} reaches no verdict; only {COMPARING_COMMAND} does"
                        ),
                    ));
                }
                if !has_json {
                    return Err(bad(
                        line("expect"),
                        "expect: the verdict is read from the JSON output, so list \"json\" in outputs".into(),
                    ));
                }
                Some(verdict)
            }
        };

        let finding = string("finding")?;
        let title = string("title")?;
        if title
            .as_deref()
            .is_some_and(|title| title.trim().is_empty() || title.contains('\n'))
        {
            return Err(bad(
                line("title"),
                "title: must be one line of words".into(),
            ));
        }
        let also_shows = match get("also-shows") {
            None => Vec::new(),
            Some(DeValue::Array(items)) => items
                .iter()
                .map(|item| match item.get_ref() {
                    DeValue::String(family) => Ok(family.to_string()),
                    other => Err(bad(
                        line("also-shows"),
                        format!(
                            "also-shows: must list family names, not {}",
                            other.type_str()
                        ),
                    )),
                })
                .collect::<Result<Vec<String>>>()?,
            Some(other) => {
                return Err(bad(
                    line("also-shows"),
                    format!(
                        "also-shows: must be a list of family names, not {}",
                        other.type_str()
                    ),
                ));
            }
        };
        // `[headline]`, or `[[headline]]` for several rows (a family's
        // members, or two figures of one table).
        let headline_tables: Vec<(&DeTable, usize)> = match table.get("headline") {
            None => Vec::new(),
            Some(item) => match item.get_ref() {
                DeValue::Table(entries) => vec![(entries, source.item_line(item))],
                DeValue::Array(items) if !items.is_empty() => {
                    let mut tables = Vec::new();
                    for item in items {
                        let DeValue::Table(entries) = item.get_ref() else {
                            return Err(bad(
                                Some(source.item_line(item)),
                                format!(
                                    "headline: each [[headline]] must be a table, not {}",
                                    item.get_ref().type_str()
                                ),
                            ));
                        };
                        tables.push((entries, source.item_line(item)));
                    }
                    tables
                }
                other => {
                    return Err(bad(
                        line("headline"),
                        format!(
                            "headline: must be a table ([headline], or [[headline]] for several rows), not {}",
                            other.type_str()
                        ),
                    ));
                }
            },
        };
        let mut headlines = Vec::new();
        for (entries, header_line) in headline_tables {
            headlines.push(parse_headline(
                entries,
                header_line,
                &source,
                has_json,
                &bad,
            )?);
        }
        if finding.is_some() && !has_json {
            return Err(bad(
                line("finding"),
                "finding: its figures are read from the JSON output, so list \"json\" in outputs"
                    .into(),
            ));
        }

        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| bad(None, "the file name must be valid UTF-8".into()))?
            .to_string();
        let members: Vec<(String, String, Vec<Param>)> = match (table.get("each"), get("suffix")) {
            (None, None) => vec![(stem.clone(), description.clone(), params)],
            (None, Some(_)) => {
                return Err(bad(
                    line("suffix"),
                    "suffix: names the tables of a family; give each too, or remove it".into(),
                ));
            }
            (Some(_), None) => {
                return Err(bad(
                    line("each"),
                    "each: a family needs a suffix naming each table, e.g. suffix = \"{suits}x{ranks}\"".into(),
                ));
            }
            (Some(_), Some(other)) if !other.is_str() => {
                return Err(bad(
                    line("suffix"),
                    format!("suffix: must be a string, not {}", other.type_str()),
                ));
            }
            (Some(each), Some(DeValue::String(suffix))) if each_entries(each).is_some() => {
                let entries = each_entries(each).unwrap_or_default();
                let mut members = Vec::new();
                for (i, entry) in entries.iter().enumerate() {
                    let number = i + 1;
                    let entry_line = source.item_line(entry);
                    let DeValue::Table(entry) = entry.get_ref() else {
                        return Err(bad(
                            Some(entry_line),
                            format!(
                                "each[{number}]: must be a table of parameters, e.g. {{ suits = 2, ranks = 4 }}, not {}",
                                entry.get_ref().type_str()
                            ),
                        ));
                    };
                    if entry.is_empty() {
                        return Err(bad(Some(entry_line), format!("each[{number}]: is empty")));
                    }
                    // Each key's values: one, or a list of them, multiplied
                    // out (keys in name order, as TOML tables are read; the
                    // last key varies fastest).
                    let mut choices: Vec<Vec<Option<Param>>> = Vec::new();
                    for (name, value) in entry.iter() {
                        let name = name.get_ref().as_ref();
                        let key = format!("each[{number}].{name}");
                        let key_line = source.key_line(entry, name).unwrap_or(entry_line);
                        if params.iter().any(|p| p.name == name) {
                            return Err(bad(
                                Some(key_line),
                                format!("{key}: also set in [params]; set it in one place"),
                            ));
                        }
                        let values: Vec<&DeValue> = match value.get_ref() {
                            DeValue::Array(values) if values.is_empty() => {
                                return Err(bad(Some(key_line), format!("{key}: an empty list")));
                            }
                            DeValue::Array(values) => values.iter().map(Spanned::get_ref).collect(),
                            value => vec![value],
                        };
                        let mut options = Vec::new();
                        for value in values {
                            options.push(option_value(&key, name, value, key_line)?);
                        }
                        choices.push(options);
                    }
                    for combination in product(&choices) {
                        let mut member_params = params.clone();
                        member_params.extend(combination.into_iter().flatten());
                        let fill = |pattern: &str, what: &str| {
                            fill_in(pattern, &member_params).map_err(|name| {
                                bad(
                                    line(what),
                                    format!(
                                        "{what}: {{{name}}} is not a parameter with a value in each[{number}]"
                                    ),
                                )
                            })
                        };
                        let name = format!("{stem}-{}", fill(suffix, "suffix")?);
                        if !name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                        {
                            return Err(bad(
                                Some(entry_line),
                                format!(
                                    "each[{number}]: makes the table name {name:?}; names may hold letters, digits, '-', '_' and '.'"
                                ),
                            ));
                        }
                        if members.iter().any(|(n, _, _)| *n == name) {
                            return Err(bad(
                                Some(entry_line),
                                format!(
                                    "each[{number}]: makes the table name {name:?} again; the suffix must tell the tables apart"
                                ),
                            ));
                        }
                        let description = fill(&description, "description")?;
                        members.push((name, description, member_params));
                    }
                }
                members
            }
            (Some(_), Some(_)) => {
                return Err(bad(
                    line("each"),
                    "each: must be a non-empty list of tables, e.g. each = [{ suits = 2, ranks = 4 }]".into(),
                ));
            }
        };
        // A row naming its table must name one of this file's.
        for headline in &headlines {
            if let Some(wanted) = &headline.table
                && !members.iter().any(|(name, _, _)| name == wanted)
            {
                let names: Vec<&str> = members.iter().map(|(name, _, _)| name.as_str()).collect();
                return Err(bad(
                    Some(headline.line),
                    format!(
                        "headline.table = {wanted:?}: not a table of this spec; one of {}",
                        names.join(", ")
                    ),
                ));
            }
        }
        let fill_headlines = |name: &str, params: &[Param]| -> Result<Vec<HeadlineSpec>> {
            headlines
                .iter()
                .filter(|headline| headline.table.as_deref().is_none_or(|table| table == name))
                .map(|headline| {
                    let variant = fill_in(&headline.variant, params).map_err(|name| {
                        bad(
                            Some(headline.line),
                            format!("headline.variant: {{{name}}} is not a parameter with a value"),
                        )
                    })?;
                    Ok(HeadlineSpec {
                        variant,
                        ..headline.clone()
                    })
                })
                .collect()
        };
        let headlines = members
            .iter()
            .map(|(name, _, params)| fill_headlines(name, params))
            .collect::<Result<Vec<_>>>()?;
        Ok(members
            .into_iter()
            .zip(headlines)
            .map(|((name, description, params), headlines)| Spec {
                path: path.to_path_buf(),
                name,
                family: stem.clone(),
                description,
                game: game.clone(),
                command: command_name.clone(),
                params,
                sampling: sampling.clone(),
                outputs: outputs.clone(),
                slow,
                draws_own_chart,
                expect,
                key_lines: key_lines.clone(),
                text: text.to_string(),
                title: title.clone(),
                headlines,
                finding: finding.clone(),
                also_shows: also_shows.clone(),
                figure,
            })
            .collect())
    }

    /// The trials of `profile`, if the spec samples.
    pub fn trials(&self, profile: Profile) -> Option<u64> {
        self.sampling.as_ref().map(|s| match profile {
            Profile::Full => s.trials,
            Profile::Quick => s.quick_trials,
        })
    }

    /// The output files, in `results`.
    pub fn output_paths(&self, results: &Path) -> Vec<PathBuf> {
        self.outputs
            .iter()
            .map(|kind| results.join(format!("{}.{kind}", self.name)))
            .collect()
    }

    /// Every file the spec makes in `results`: its outputs, in order, then
    /// for an `svg` output the PDF and PNG converted from it
    /// ([`FigureCopy::ALL`]), which the provenance records and `--check`
    /// verifies like any output.
    pub fn file_paths(&self, results: &Path) -> Vec<PathBuf> {
        let mut paths = self.output_paths(results);
        paths.extend(
            self.figure_copies()
                .iter()
                .map(|copy| results.join(format!("{}.{}", self.name, copy.extension()))),
        );
        paths
    }

    /// The copies of the spec's chart written beside its SVG: a PDF and a
    /// PNG of a chart, none without an `svg` output, and none of a
    /// blackjack strategy card (`strategy`), a table drawn as a picture
    /// whose SVG the site shows: the 80 cards' PDF and PNG would add
    /// about 31 MB to results/.
    pub fn figure_copies(&self) -> &'static [FigureCopy] {
        if self.outputs.iter().any(|kind| kind == "svg") && self.command != "strategy" {
            &FigureCopy::ALL
        } else {
            &[]
        }
    }

    /// The command line (without the program name) that makes the spec's
    /// outputs in `results` under `profile`.
    pub fn args(&self, profile: Profile, results: &Path) -> Vec<String> {
        let mut args = vec![self.game.clone(), self.command.clone()];
        for param in &self.params {
            args.push(format!("--{}", param.name));
            args.extend(param.value.clone());
        }
        if let (Some(sampling), Some(trials)) = (&self.sampling, self.trials(profile)) {
            args.extend(["--trials".into(), trials.to_string()]);
            args.extend(["--seed".into(), sampling.seed.to_string()]);
        }
        // A chart is drawn afterwards from the JSON, unless the command
        // draws its own.
        for (kind, path) in self.outputs.iter().zip(self.output_paths(results)) {
            match (kind.as_str(), self.draws_own_chart) {
                ("svg", true) => {
                    args.extend(["--figure".into(), self.figure.size.name().into()]);
                    match self.figure.y_scale {
                        YScale::Auto => {}
                        YScale::Log => args.push("--log-y".into()),
                        YScale::Linear => args.push("--linear-y".into()),
                    }
                    args.push("--chart".into());
                }
                ("svg", false) => continue,
                _ => args.push("--out".into()),
            }
            args.push(path.display().to_string());
        }
        args
    }

    /// Whether `recorded` (the spec's text as a provenance record holds
    /// it) makes the same tables as the spec's text now: the same TOML
    /// once the keys that only present the tables
    /// ([`PRESENTATION_KEYS`]) are dropped, whatever the comments and
    /// layout. So a title, answers-table row or finding added to a spec
    /// whose tables took an hour does not make them stale; the pages they
    /// change are checked against the specs on their own.
    pub fn makes_same_tables_as(&self, recorded: &str) -> bool {
        let tables = |text: &str| {
            let document = DeTable::parse(text).ok()?;
            let mut kept: Vec<(String, String)> = document
                .get_ref()
                .iter()
                .map(|(key, value)| (key.get_ref().to_string(), canonical(value.get_ref())))
                .filter(|(key, _)| !PRESENTATION_KEYS.contains(&key.as_str()))
                .collect();
            kept.sort();
            Some(kept)
        };
        recorded == self.text
            || matches!((tables(recorded), tables(&self.text)), (Some(a), Some(b)) if a == b)
    }

    /// The line where the file sets `key` (a top-level key, or one of
    /// `[monte-carlo]`'s as `monte-carlo.trials`), if it does.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        self.key_lines
            .iter()
            .find(|(k, _)| k == key)
            .map(|&(_, line)| line)
    }

    /// Refuses an `also-shows` family that is not one of `families` (the
    /// families a spec makes), or that is the spec's own family.
    ///
    /// Guarantee: the error is [`Error::BadInputFile`] naming the spec
    /// file, the line of `also-shows`, the value and the families allowed.
    pub fn check_also_shows(&self, families: &[&str]) -> Result<()> {
        for other in &self.also_shows {
            let problem = if *other == self.family {
                "is this spec's own family, whose tables its page shows anyway"
            } else if !families.contains(&other.as_str()) {
                "no spec makes this family"
            } else {
                continue;
            };
            let allowed: Vec<&str> = families
                .iter()
                .copied()
                .filter(|family| *family != self.family)
                .collect();
            let line = self
                .line_of("also-shows")
                .map_or_else(String::new, |line| format!("line {line}: "));
            return Err(Error::BadInputFile {
                path: self.path.clone(),
                message: format!(
                    "{line}also-shows = {other:?}: {problem}; allowed: the families of the specs ({})",
                    allowed.join(", ")
                ),
            });
        }
        Ok(())
    }

    /// Where in the spec a command-line option of the run under `profile`
    /// came from, for errors: the key (`params.draw`, `monte-carlo.trials`)
    /// and its line. The quick profile's `--trials` is `quick-trials`, or
    /// where it is not given, `[monte-carlo]`, whose trials set its
    /// default.
    pub fn key_of_option(&self, option: &str, profile: Profile) -> Option<(String, Option<usize>)> {
        let name = option.strip_prefix("--")?;
        if let Some(param) = self.params.iter().find(|param| param.name == name) {
            return Some((param.key.clone(), Some(param.line)));
        }
        self.sampling.as_ref()?;
        let key = match (name, profile) {
            ("trials", Profile::Quick) if self.line_of("monte-carlo.quick-trials").is_none() => {
                return Some((
                    "monte-carlo.quick-trials (by default)".into(),
                    self.line_of("monte-carlo"),
                ));
            }
            ("trials", Profile::Quick) => "monte-carlo.quick-trials",
            ("trials", Profile::Full) => "monte-carlo.trials",
            ("seed", _) => "monte-carlo.seed",
            _ => return None,
        };
        Some((key.to_string(), self.line_of(key)))
    }
}

/// A TOML value written one way whatever its layout: tables with their
/// keys in order, numbers by their digits (underscores dropped), strings
/// quoted.
fn canonical(value: &DeValue) -> String {
    match value {
        DeValue::String(text) => format!("{text:?}"),
        DeValue::Integer(integer) => integer.to_string(),
        DeValue::Float(float) => float.to_string(),
        DeValue::Boolean(flag) => flag.to_string(),
        DeValue::Datetime(datetime) => datetime.to_string(),
        DeValue::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| canonical(item.get_ref())).collect();
            format!("[{}]", items.join(","))
        }
        DeValue::Table(table) => {
            let mut entries: Vec<String> = table
                .iter()
                .map(|(key, value)| format!("{:?}={}", key.get_ref(), canonical(value.get_ref())))
                .collect();
            entries.sort();
            format!("{{{}}}", entries.join(","))
        }
    }
}

/// The entries of `each`, if it is a non-empty list.
fn each_entries<'a, 'i>(each: &'a Item<'i>) -> Option<&'a [Item<'i>]> {
    match each.get_ref() {
        DeValue::Array(entries) if !entries.is_empty() => Some(entries),
        _ => None,
    }
}

/// Every way of choosing one item from each list, the last list varying
/// fastest.
fn product<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    lists.iter().fold(vec![Vec::new()], |partial, list| {
        partial
            .iter()
            .flat_map(|chosen| {
                list.iter().map(move |item| {
                    let mut next = chosen.clone();
                    next.push(item.clone());
                    next
                })
            })
            .collect()
    })
}

/// `pattern` with each `{name}` replaced by that parameter's value (a flag
/// that is set by its own name), and each `{name|otherwise}` by the same
/// or, where the parameter is not set, by `otherwise`: a family whose
/// entries set a flag or not names its tables `{h17|s17}`. The error is a
/// name that has no value and no `otherwise`.
fn fill_in(pattern: &str, params: &[Param]) -> std::result::Result<String, String> {
    let mut text = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err(rest[open + 1..].to_string());
        };
        let placeholder = &rest[open + 1..open + close];
        let (name, otherwise) = match placeholder.split_once('|') {
            Some((name, otherwise)) => (name, Some(otherwise)),
            None => (placeholder, None),
        };
        let value = match (params.iter().rev().find(|p| p.name == name), otherwise) {
            (
                Some(Param {
                    value: Some(value), ..
                }),
                _,
            ) => value.clone(),
            // A flag set to true: its name says so.
            (Some(Param { value: None, .. }), Some(_)) => name.to_string(),
            (None, Some(otherwise)) => otherwise.to_string(),
            (_, None) => return Err(name.to_string()),
        };
        text.push_str(&value);
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"description = "Klondike, 10^7 games"
game = "klondike"
command = "mc"
outputs = ["md", "json"]

[params]
draw = 3
passes = 1

[monte-carlo]
trials = 10_000_000
quick-trials = 100_000
seed = 1
"#;

    fn parse(text: &str) -> Result<Spec> {
        parse_all(text).map(|mut specs| specs.remove(0))
    }

    fn parse_all(text: &str) -> Result<Vec<Spec>> {
        Spec::parse(Path::new("analysis/k.toml"), text)
    }

    #[test]
    fn a_good_spec_compiles_to_its_command_line() {
        let spec = parse(GOOD).unwrap();
        assert_eq!(spec.name, "k");
        let args = spec.args(Profile::Quick, Path::new("out"));
        assert_eq!(
            args.join(" "),
            "klondike mc --draw 3 --passes 1 --trials 100000 --seed 1 --out out/k.md --out out/k.json"
        );
        assert_eq!(spec.trials(Profile::Full), Some(10_000_000));
        assert_eq!(
            spec.key_of_option("--draw", Profile::Full),
            Some(("params.draw".into(), Some(7)))
        );
        assert_eq!(
            spec.key_of_option("--trials", Profile::Full),
            Some(("monte-carlo.trials".into(), Some(11)))
        );
        assert_eq!(
            spec.key_of_option("--trials", Profile::Quick),
            Some(("monte-carlo.quick-trials".into(), Some(12)))
        );
        assert_eq!(
            spec.key_of_option("--seed", Profile::Quick),
            Some(("monte-carlo.seed".into(), Some(13)))
        );
        assert_eq!(spec.expect, None);
        assert!(spec.params.iter().all(|param| !param.reads_file));
    }

    /// Without quick-trials, the quick profile runs the smaller of the
    /// trials and 100,000; an error in its trials points at
    /// `[monte-carlo]`.
    #[test]
    fn quick_trials_default_to_at_most_100_000() {
        let without = GOOD.replace("quick-trials = 100_000\n", "");
        let spec = parse(&without).unwrap();
        assert_eq!(spec.trials(Profile::Quick), Some(DEFAULT_QUICK_TRIALS));
        assert_eq!(spec.trials(Profile::Full), Some(10_000_000));
        assert_eq!(
            spec.key_of_option("--trials", Profile::Quick),
            Some(("monte-carlo.quick-trials (by default)".into(), Some(10)))
        );
        let small = parse(&without.replace("10_000_000", "5_000")).unwrap();
        assert_eq!(small.trials(Profile::Quick), Some(5_000));
        assert_eq!(
            small.args(Profile::Quick, Path::new("o")).join(" "),
            "klondike mc --draw 3 --passes 1 --trials 5000 --seed 1 --out o/k.md --out o/k.json"
        );
    }

    /// `figure` and `log-y` say how the chart is drawn: read into the
    /// spec's figure options, refused with their line when they are not a
    /// size or a boolean, or when there is no chart to draw.
    #[test]
    fn figure_and_log_y_set_how_the_chart_is_drawn() {
        let with_svg = GOOD.replace(r#"["md", "json"]"#, r#"["md", "json", "svg"]"#);
        assert_eq!(parse(&with_svg).unwrap().figure, FigureOptions::default());
        let keys = "figure = \"single\"\nlog-y = false\n";
        let spec = parse(&format!("{keys}{with_svg}")).unwrap();
        assert_eq!(
            spec.figure,
            FigureOptions {
                size: FigureSize::Single,
                y_scale: YScale::Linear
            }
        );
        let spec = parse(&format!("log-y = true\n{with_svg}")).unwrap();
        assert_eq!(spec.figure.y_scale, YScale::Log);
        for (keys, text, expected) in [
            (
                "figure = \"triple\"\n",
                &with_svg,
                "line 1: figure = \"triple\": must be screen, single or double",
            ),
            (
                "log-y = \"yes\"\n",
                &with_svg,
                "line 1: log-y: must be true or false",
            ),
            (
                "figure = \"double\"\n",
                &GOOD.to_string(),
                "line 1: figure: says how the chart is drawn, but outputs list no \"svg\"",
            ),
        ] {
            let message = parse(&format!("{keys}{text}")).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
        }
    }

    const COMPARISON: &str = r#"description = "the quiz's simulated table"
game = "blackjack"
command = "compare"
outputs = ["md", "json"]
expect = "inconsistent"

[params]
published = "analysis/published/quiz151-simulation.csv"
hands = 100_000
"#;

    /// A comparison declares the verdict it expects; a published table is
    /// a file the command reads.
    #[test]
    fn a_comparison_declares_its_expected_verdict() {
        let spec = parse(COMPARISON).unwrap();
        assert_eq!(spec.expect, Some(TableVerdict::Inconsistent));
        assert_eq!(spec.line_of("expect"), Some(5));
        let reads: Vec<(&str, usize)> = spec
            .params
            .iter()
            .filter(|param| param.reads_file)
            .map(|param| (param.key.as_str(), param.line))
            .collect();
        assert_eq!(reads, [("params.published", 8)]);
        // Idiot's Delight's built-in SAS table is a keyword, not a file;
        // any other value is a file.
        let sas = r#"description = "SAS"
game = "idiots-delight"
command = "compare"
outputs = ["md", "json"]
expect = "disagree"
[params]
published = "sas"
[monte-carlo]
trials = 1000
seed = 1
"#;
        let spec = parse(sas).unwrap();
        assert!(spec.params.iter().all(|param| !param.reads_file));
        let from_file = parse(&sas.replace("\"sas\"", "\"counts.csv\"")).unwrap();
        assert!(from_file.params.iter().any(|param| param.reads_file));
        for verdict in TableVerdict::ALL {
            assert_eq!(TableVerdict::from_word(verdict.word()), Some(verdict));
        }
    }

    /// Each bad spec is refused with the file, the line and the key.
    #[test]
    fn bad_specs_name_file_line_and_key() {
        let check = |text: String, expected: &str| {
            let message = parse(&text).unwrap_err().to_string();
            assert!(
                message.starts_with("analysis/k.toml: ") && message.contains(expected),
                "{message}\nexpected: {expected}"
            );
        };
        check(
            GOOD.replace("draw = 3", "colour = 3"),
            "line 7: params.colour: unknown key; klondike mc takes draw, passes",
        );
        check(
            GOOD.replace("trials = 10_000_000", "trials = -5"),
            "line 11: monte-carlo.trials = -5: must be at least 1",
        );
        check(
            GOOD.replace("\"klondike\"", "\"poker\""),
            "line 2: game = \"poker\": unknown",
        );
        check(
            GOOD.replace("\"mc\"", "\"exact\""),
            "line 3: command = \"exact\": not a klondike command; one of mc, record",
        );
        check(
            GOOD.replace("game =", "gmae =")
                .replace("description", "game = \"klondike\"\ndescription"),
            "line 3: gmae: unknown key",
        );
        check(
            GOOD.replace("seed = 1", "seed = 1\nsed = 2"),
            "line 14: monte-carlo.sed: unknown key",
        );
        check(
            GOOD.replace("draw = 3", "draw = [3]"),
            "line 7: params.draw: must be a string or a number, not array",
        );
        check(
            GOOD.replace("[\"md\", \"json\"]", "[\"pdf\"]"),
            "line 4: outputs: \"pdf\" is not one of",
        );
        check(
            GOOD.replace("quick-trials = 100_000", "quick-trials = 100_000_000"),
            "line 12: monte-carlo.quick-trials = 100000000: must be at most trials",
        );
        check(
            GOOD.replace("trials = 10_000_000\n", ""),
            "monte-carlo.trials: missing",
        );
        check(
            GOOD.replace("draw = 3", "draw = 3\ntrials = 5"),
            "line 8: params.trials: unknown key",
        );
        check(GOOD.replace("seed = 1", "seed = "), "line 13: ");
        check(
            GOOD.replace("description = \"Klondike, 10^7 games\"\n", ""),
            "description: missing",
        );
        check(
            GOOD.replace("[\"md\", \"json\"]", "[\"md\", \"svg\"]"),
            "line 4: outputs: \"svg\" is drawn from the JSON output",
        );
        check(
            GOOD.replace("quick-trials = 100_000", "quick-trials = 0"),
            "line 12: monte-carlo.quick-trials = 0: must be at least 1",
        );
        check(
            GOOD.replace("seed = 1", "seed = 99999999999999999999999"),
            "line 13: monte-carlo.seed = 99999999999999999999999: must be at most 18446744073709551615",
        );
        check(
            GOOD.replace("draw = 3", "draw = 99999999999999999999999"),
            "line 7: params.draw = 99999999999999999999999: out of range",
        );
        check(
            GOOD.replace("[params]", "[params]\ndraw = 1"),
            "line 8: duplicate key",
        );
        // expect: a verdict word, of a comparison, read from its JSON.
        check(
            COMPARISON.replace("\"inconsistent\"", "\"agreed\""),
            "line 5: expect = \"agreed\": not a verdict; one of agree, disagree, consistent, inconsistent",
        );
        check(
            COMPARISON.replace("\"inconsistent\"", "true"),
            "line 5: expect: must be a string, not boolean",
        );
        check(
            COMPARISON.replace("[\"md\", \"json\"]", "[\"md\"]"),
            "line 5: expect: the verdict is read from the JSON output, so list \"json\" in outputs",
        );
        check(
            GOOD.replace("[params]", "expect = \"agree\"\n[params]"),
            "line 6: expect: klondike mc reaches no verdict; only compare does",
        );
    }

    #[test]
    fn flags_are_booleans_and_exact_commands_take_no_sampling() {
        let record = r#"description = "two games"
game = "klondike"
command = "record"
outputs = ["txt"]
[params]
games = 2
went-out = true
ascii = false
"#;
        let spec = parse(record).unwrap();
        assert_eq!(
            spec.args(Profile::Full, Path::new("r")).join(" "),
            "klondike record --games 2 --went-out --out r/record.txt"
                .replace("record.txt", "k.txt")
        );
        let with_sampling =
            format!("{record}[monte-carlo]\ntrials = 5\nquick-trials = 5\nseed = 1\n");
        let message = parse(&with_sampling).unwrap_err().to_string();
        assert!(
            message.contains("[monte-carlo]: klondike record does not sample"),
            "{message}"
        );
        let flag_as_number = record.replace("went-out = true", "went-out = 1");
        let message = parse(&flag_as_number).unwrap_err().to_string();
        assert!(
            message.contains("line 7: params.went-out: must be true or false"),
            "{message}"
        );
    }

    const FAMILY: &str = r#"description = "Klondike drawing {draw}, {passes} passes"
game = "klondike"
command = "mc"
outputs = ["md"]
suffix = "draw{draw}-passes{passes}"
each = [
  { draw = 1, passes = [1, 3] },
  { draw = 3, passes = 1 },
]

[monte-carlo]
trials = 1000
quick-trials = 100
seed = 1
"#;

    /// A family is one table per entry, list values multiplied out, each
    /// named by the suffix and described with its own values.
    #[test]
    fn a_family_is_one_table_per_entry() {
        let specs = parse_all(FAMILY).unwrap();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["k-draw1-passes1", "k-draw1-passes3", "k-draw3-passes1"]
        );
        assert!(specs.iter().all(|s| s.family == "k"));
        assert_eq!(specs[1].description, "Klondike drawing 1, 3 passes");
        assert_eq!(
            specs[1].args(Profile::Quick, Path::new("o")).join(" "),
            "klondike mc --draw 1 --passes 3 --trials 100 --seed 1 --out o/k-draw1-passes3.md"
        );
        assert_eq!(
            specs[2].key_of_option("--draw", Profile::Full),
            Some(("each[2].draw".into(), Some(8)))
        );
    }

    #[test]
    fn a_family_names_flags_set_or_not() {
        let text = r#"description = "Dealer, {decks} decks, {h17|s17}, {peek|no peek}"
game = "blackjack"
command = "exact"
outputs = ["md"]
suffix = "{decks}-decks-{h17|s17}-{peek|no-peek}"
each = [{ decks = [1, "inf"], h17 = [false, true], peek = [false, true] }]
"#;
        let specs = parse_all(text).unwrap();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names.len(), 8);
        assert_eq!(names[0], "k-1-decks-s17-no-peek");
        assert_eq!(names[3], "k-1-decks-h17-peek");
        assert_eq!(names[6], "k-inf-decks-h17-no-peek");
        assert_eq!(specs[5].description, "Dealer, inf decks, s17, peek");
        assert_eq!(
            specs[3].args(Profile::Full, Path::new("o")).join(" "),
            "blackjack exact --decks 1 --h17 --peek --out o/k-1-decks-h17-peek.md"
        );
        // A bare placeholder still needs a value: a flag has none.
        let bare = text.replace("{h17|s17}-{peek", "{h17}-{peek");
        let error = parse_all(&bare).unwrap_err().to_string();
        assert!(
            error.contains("suffix: {h17} is not a parameter"),
            "{error}"
        );
    }

    #[test]
    fn bad_families_name_file_line_and_key() {
        let check = |text: String, expected: &str| {
            let message = parse_all(&text).unwrap_err().to_string();
            assert!(
                message.starts_with("analysis/k.toml: ") && message.contains(expected),
                "{message}\nexpected: {expected}"
            );
        };
        check(
            FAMILY.replace("suffix = \"draw{draw}-passes{passes}\"\n", ""),
            "line 5: each: a family needs a suffix",
        );
        check(
            FAMILY.replace("passes{passes}", "passes{colour}"),
            "line 5: suffix: {colour} is not a parameter with a value in each[1]",
        );
        check(
            FAMILY.replace("-passes{passes}", ""),
            "line 7: each[1]: makes the table name \"k-draw1\" again",
        );
        check(
            FAMILY.replace("passes = 1 }", "colour = 1 }"),
            "line 8: each[2].colour: unknown key; klondike mc takes draw, passes",
        );
        check(
            FAMILY.replace("{ draw = 3, passes = 1 }", "3"),
            "line 8: each[2]: must be a table of parameters",
        );
        check(
            FAMILY.replace("[monte-carlo]", "[params]\ndraw = 1\n\n[monte-carlo]"),
            "line 7: each[1].draw: also set in [params]",
        );
        check(
            FAMILY.replace("passes = [1, 3]", "passes = []"),
            "line 7: each[1].passes: an empty list",
        );
        check(
            FAMILY.replace("{passes} passes", "{passes} passes {seed}"),
            "line 1: description: {seed} is not a parameter",
        );
        check(
            FAMILY.replace("each = [", "slow = 1\neach = ["),
            "line 6: slow: must be true or false",
        );
        let single = GOOD.replace("[params]", "suffix = \"x\"\n[params]");
        check(single, "line 6: suffix: names the tables of a family");
        // A command's own error in a value from an entry points at it too.
        let specs = parse_all(&FAMILY.replace("draw = 3", "draw = 2")).unwrap();
        assert_eq!(
            specs[2].key_of_option("--draw", Profile::Quick),
            Some(("each[2].draw".into(), Some(8)))
        );
        // An entry written over several lines points at the key's own line.
        let spread = FAMILY.replace(
            "{ draw = 3, passes = 1 },",
            "{ draw = 3,\n    colour = 1 },",
        );
        check(spread, "line 9: each[2].colour: unknown key");
    }

    /// `also-shows` names families some spec makes, other than its own:
    /// a misspelt one is refused naming the file, line, key, value and
    /// the families allowed.
    #[test]
    fn also_shows_names_families_the_specs_make() {
        let showing = parse(&GOOD.replace(
            "[params]",
            "also-shows = [\"klondike-52\", \"klondike-52-draw3\"]\n\n[params]",
        ))
        .unwrap();
        assert_eq!(showing.also_shows, ["klondike-52", "klondike-52-draw3"]);
        let families = ["k", "klondike-52", "klondike-52-draw3", "roll-call-exact"];
        assert!(showing.check_also_shows(&families).is_ok());
        let message = showing
            .check_also_shows(&["k", "klondike-52", "roll-call-exact"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "analysis/k.toml: line 6: also-shows = \"klondike-52-draw3\": no spec makes this family; allowed: the families of the specs (klondike-52, roll-call-exact)"
        );
        let itself = parse(&GOOD.replace("[params]", "also-shows = [\"k\"]\n[params]")).unwrap();
        let message = itself.check_also_shows(&families).unwrap_err().to_string();
        assert!(
            message.starts_with(
                "analysis/k.toml: line 6: also-shows = \"k\": is this spec's own family"
            ),
            "{message}"
        );
    }
}
