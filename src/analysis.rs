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
//! quick-trials = 100_000
//! seed = 1
//! ```
//!
//! Validation is strict: an unknown key, a value of the wrong type or an
//! impossible value is an error naming the file, the line and the key.
//! Which keys `[params]` accepts is read from the command-line definitions,
//! so a spec can say whatever the command can and nothing else.
//!
//! Architecture invariant: no I/O; the caller reads the file and runs the
//! arguments.

mod index;

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use toml::{Table, Value};

use crate::cli::Cli;
use crate::error::{Error, Result};

pub use index::results_index;

/// The games a spec may name (the top-level commands).
const GAMES: [&str; 5] = [
    "blackjack",
    "idiots-delight",
    "roll-call",
    "prisoners-patience",
    "klondike",
];

/// Options a spec never sets in `[params]`: the outputs and the run's
/// manner come from the spec's other keys (and `--trials` and `--seed` of a
/// sampling command from `[monte-carlo]`).
const RESERVED: [&str; 5] = ["out", "format", "quiet", "threads", "help"];

/// Options with which a command that can sample samples nothing, so its
/// spec takes no `[monte-carlo]`: checking a published table
/// (`blackjack compare --published`) and solving every arrangement
/// (`prisoners-patience solve --every`). Read from `[params]`.
const NO_SAMPLING_WITH: [(&str, &str, &str); 2] = [
    ("blackjack", "compare", "published"),
    ("prisoners-patience", "solve", "every"),
];

/// Commands that draw the chart of a spec's `svg` output themselves
/// (`--chart`), given the option they need for it: the published
/// comparison of Idiot's Delight overlays counts its JSON does not carry.
/// Every other chart is drawn by `reproduce` from the JSON output.
const OWN_CHART_WITH: [(&str, &str, &str); 1] = [("idiots-delight", "compare", "published")];

/// Output file kinds and what writes them: report formats through `--out`
/// (md csv json tex), the text of commands that print text (txt), and a
/// bar chart drawn from the JSON output (svg).
const OUTPUTS: [&str; 6] = ["md", "csv", "json", "tex", "txt", "svg"];

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
    /// Trials of the quick profile.
    pub quick_trials: u64,
    /// The master seed.
    pub seed: u64,
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
    /// The options, `[params]` in file order, then the entry's.
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
    /// The spec file's text, for provenance.
    pub text: String,
}

/// Top-level keys of a spec file.
const KEYS: [&str; 9] = [
    "description",
    "game",
    "command",
    "outputs",
    "params",
    "monte-carlo",
    "each",
    "suffix",
    "slow",
];

/// The entries of `each` with where they start, for errors.
#[derive(serde::Deserialize)]
struct EachSpans {
    #[serde(default)]
    each: Vec<toml::Spanned<Value>>,
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
        let table: Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|span| line_of(text, span.start));
            bad(line, e.message().trim().to_string())
        })?;
        let lines = KeyLines::new(text);
        let line = |key: &str| lines.line(key);
        let string = |key: &str| -> Result<Option<String>> {
            match table.get(key) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(bad(
                    line(key),
                    format!("{key}: must be a string, not {}", other.type_str()),
                )),
            }
        };
        let required = |key: &str, what: &str| -> Result<String> {
            string(key)?.ok_or_else(|| bad(None, format!("{key}: missing; {what}")))
        };

        for key in table.keys() {
            if !KEYS.contains(&key.as_str()) {
                return Err(bad(
                    line(key),
                    format!(
                        "{key}: unknown key; allowed: description, game, command, outputs, [params], [monte-carlo], each, suffix, slow"
                    ),
                ));
            }
        }
        let description = required("description", "say in one line what the table shows")?;
        if description.trim().is_empty() || description.contains('\n') {
            return Err(bad(
                line("description"),
                "description: must be one line of text".into(),
            ));
        }
        let game = required("game", &format!("one of {}", GAMES.join(", ")))?;
        if !GAMES.contains(&game.as_str()) {
            return Err(bad(
                line("game"),
                format!("game = {game:?}: unknown; one of {}", GAMES.join(", ")),
            ));
        }
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
        let options: Vec<(String, bool)> = command
            .get_arguments()
            .filter(|arg| arg.get_help_heading() != Some(crate::cli::LONG_RUNS))
            .filter_map(|arg| {
                let long = arg.get_long()?.to_string();
                let is_flag = !arg.get_action().takes_values();
                Some((long, is_flag))
            })
            .filter(|(long, _)| {
                let set_elsewhere = can_sample && matches!(long.as_str(), "trials" | "seed");
                !(RESERVED.contains(&long.as_str()) || set_elsewhere)
            })
            .collect();
        // What one option's value in the spec means: `None` leaves it out
        // (a flag set to false), `Some(None)` is a flag, `Some(Some(text))`
        // an option's value.
        let option_value = |key: &str,
                            name: &str,
                            value: &Value,
                            key_line: Option<usize>|
         -> Result<Option<Option<String>>> {
            let Some(&(_, is_flag)) = options.iter().find(|(long, _)| long == name) else {
                if KEYS.contains(&name) {
                    return Err(bad(
                        key_line,
                        format!(
                            "{key}: {name} is a key of the spec, not a parameter: put it above [params]"
                        ),
                    ));
                }
                let names: Vec<&str> = options.iter().map(|(l, _)| l.as_str()).collect();
                return Err(bad(
                    key_line,
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
            match (value, is_flag) {
                (Value::Boolean(true), true) => Ok(Some(None)),
                (Value::Boolean(false), true) => Ok(None),
                (_, true) => Err(bad(key_line, format!("{key}: must be true or false"))),
                (Value::String(s), false) => Ok(Some(Some(s.clone()))),
                (Value::Integer(n), false) => Ok(Some(Some(n.to_string()))),
                (Value::Float(x), false) => Ok(Some(Some(x.to_string()))),
                (other, false) => Err(bad(
                    key_line,
                    format!(
                        "{key}: must be a string or a number, not {}",
                        other.type_str()
                    ),
                )),
            }
        };

        let mut params = Vec::new();
        match table.get("params") {
            None => {}
            Some(Value::Table(entries)) => {
                for (name, value) in entries {
                    let key = format!("params.{name}");
                    let key_line = line(&key);
                    if let Some(value) = option_value(&key, name, value, key_line)? {
                        params.push(Param {
                            name: name.clone(),
                            value,
                            key,
                            line: key_line.unwrap_or(0),
                        });
                    }
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

        let samples = can_sample
            && !params.iter().any(|param| {
                NO_SAMPLING_WITH.contains(&(
                    game.as_str(),
                    command_name.as_str(),
                    param.name.as_str(),
                ))
            });
        let sampling = match (table.get("monte-carlo"), samples) {
            (None, true) => {
                return Err(bad(
                    None,
                    format!(
                        "[monte-carlo]: missing; {game} {command_name} samples, so give trials, quick-trials and seed"
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
            (Some(Value::Table(entries)), true) => {
                let count = |key: &str, minimum: u64| -> Result<u64> {
                    let full = format!("monte-carlo.{key}");
                    match entries.get(key) {
                        None => Err(bad(line("monte-carlo"), format!("{full}: missing"))),
                        Some(Value::Integer(n)) if *n >= minimum as i64 => Ok(*n as u64),
                        Some(Value::Integer(n)) => Err(bad(
                            line(&full),
                            format!("{full} = {n}: must be at least {minimum}"),
                        )),
                        Some(other) => Err(bad(
                            line(&full),
                            format!("{full}: must be a whole number, not {}", other.type_str()),
                        )),
                    }
                };
                for key in entries.keys() {
                    if !["trials", "quick-trials", "seed"].contains(&key.as_str()) {
                        return Err(bad(
                            line(&format!("monte-carlo.{key}")),
                            format!(
                                "monte-carlo.{key}: unknown key; allowed: trials, quick-trials, seed"
                            ),
                        ));
                    }
                }
                let sampling = Sampling {
                    trials: count("trials", 1)?,
                    quick_trials: count("quick-trials", 1)?,
                    seed: count("seed", 0)?,
                };
                if sampling.quick_trials > sampling.trials {
                    return Err(bad(
                        line("monte-carlo.quick-trials"),
                        format!(
                            "monte-carlo.quick-trials = {}: must be at most trials ({})",
                            sampling.quick_trials, sampling.trials
                        ),
                    ));
                }
                Some(sampling)
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

        let outputs = match table.get("outputs") {
            Some(Value::Array(items)) if !items.is_empty() => items
                .iter()
                .map(|item| match item {
                    Value::String(kind) if OUTPUTS.contains(&kind.as_str()) => Ok(kind.clone()),
                    Value::String(kind) => Err(bad(
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
        // A command that draws its own chart (`--chart`) is given the svg
        // path; any other's chart is drawn from its JSON.
        let draws_own_chart = params.iter().any(|param| {
            OWN_CHART_WITH.contains(&(game.as_str(), command_name.as_str(), param.name.as_str()))
        });
        if outputs.iter().any(|o| o == "svg")
            && !draws_own_chart
            && !outputs.iter().any(|o| o == "json")
        {
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
        let slow = match table.get("slow") {
            None => false,
            Some(Value::Boolean(slow)) => *slow,
            Some(other) => {
                return Err(bad(
                    line("slow"),
                    format!("slow: must be true or false, not {}", other.type_str()),
                ));
            }
        };

        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| bad(None, "the file name must be valid UTF-8".into()))?
            .to_string();
        let members: Vec<(String, String, Vec<Param>)> = match (
            table.get("each"),
            table.get("suffix"),
        ) {
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
            (Some(Value::Array(entries)), Some(Value::String(suffix))) if !entries.is_empty() => {
                let spans: EachSpans =
                    toml::from_str(text).map_err(|e| bad(None, e.to_string()))?;
                let mut members = Vec::new();
                for (i, entry) in entries.iter().enumerate() {
                    let number = i + 1;
                    let entry_line = spans.each.get(i).map(|s| line_of(text, s.span().start));
                    let Value::Table(entry) = entry else {
                        return Err(bad(
                            entry_line,
                            format!(
                                "each[{number}]: must be a table of parameters, e.g. {{ suits = 2, ranks = 4 }}, not {}",
                                entry.type_str()
                            ),
                        ));
                    };
                    if entry.is_empty() {
                        return Err(bad(entry_line, format!("each[{number}]: is empty")));
                    }
                    // Each key's values: one, or a list of them, multiplied
                    // out (keys in name order, as TOML tables are read; the
                    // last key varies fastest).
                    let mut choices: Vec<Vec<Option<Param>>> = Vec::new();
                    for (name, value) in entry {
                        let key = format!("each[{number}].{name}");
                        if params.iter().any(|p| &p.name == name) {
                            return Err(bad(
                                entry_line,
                                format!("{key}: also set in [params]; set it in one place"),
                            ));
                        }
                        let values = match value {
                            Value::Array(values) if values.is_empty() => {
                                return Err(bad(entry_line, format!("{key}: an empty list")));
                            }
                            Value::Array(values) => values.clone(),
                            value => vec![value.clone()],
                        };
                        let mut options = Vec::new();
                        for value in &values {
                            options.push(option_value(&key, name, value, entry_line)?.map(
                                |value| Param {
                                    name: name.clone(),
                                    value,
                                    key: key.clone(),
                                    line: entry_line.unwrap_or(0),
                                },
                            ));
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
                                entry_line,
                                format!(
                                    "each[{number}]: makes the table name {name:?}; names may hold letters, digits, '-', '_' and '.'"
                                ),
                            ));
                        }
                        if members.iter().any(|(n, _, _)| *n == name) {
                            return Err(bad(
                                entry_line,
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
        Ok(members
            .into_iter()
            .map(|(name, description, params)| Spec {
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
                text: text.to_string(),
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
                ("svg", true) => args.push("--chart".into()),
                ("svg", false) => continue,
                _ => args.push("--out".into()),
            }
            args.push(path.display().to_string());
        }
        args
    }

    /// Where in the spec a command-line option came from, for errors: the
    /// key (`params.draw`, `monte-carlo.trials`) and its line.
    pub fn key_of_option(&self, option: &str) -> Option<(String, Option<usize>)> {
        let name = option.strip_prefix("--")?;
        if let Some(param) = self.params.iter().find(|param| param.name == name) {
            return Some((param.key.clone(), Some(param.line)));
        }
        if matches!(name, "trials" | "seed") && self.sampling.is_some() {
            let key = format!("monte-carlo.{name}");
            let line = KeyLines::new(&self.text).line(&key);
            return Some((key, line));
        }
        None
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

/// `pattern` with each `{name}` replaced by that parameter's value; the
/// error is a name that has none.
fn fill_in(pattern: &str, params: &[Param]) -> std::result::Result<String, String> {
    let mut text = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err(rest[open + 1..].to_string());
        };
        let name = &rest[open + 1..open + close];
        let value = params
            .iter()
            .rev()
            .find(|p| p.name == name)
            .and_then(|p| p.value.clone())
            .ok_or_else(|| name.to_string())?;
        text.push_str(&value);
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    Ok(text)
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The line of each key of a flat spec: `key = ...` lines under `[table]`
/// headers (and dotted keys), enough to point at any key a spec has.
struct KeyLines {
    keys: Vec<(String, usize)>,
}

impl KeyLines {
    fn new(text: &str) -> KeyLines {
        let mut keys = Vec::new();
        let mut table = String::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if let Some(header) = line.strip_prefix('[').and_then(|l| l.split(']').next()) {
                table = header.trim().to_string();
                keys.push((table.clone(), i + 1));
            } else if let Some((key, _)) = line.split_once('=')
                && !line.starts_with('#')
            {
                let key = key.trim().trim_matches('"');
                let full = if table.is_empty() {
                    key.to_string()
                } else {
                    format!("{table}.{key}")
                };
                keys.push((full, i + 1));
            }
        }
        KeyLines { keys }
    }

    fn line(&self, key: &str) -> Option<usize> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|&(_, line)| line)
    }
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
            spec.key_of_option("--draw"),
            Some(("params.draw".into(), Some(7)))
        );
        assert_eq!(
            spec.key_of_option("--trials"),
            Some(("monte-carlo.trials".into(), Some(11)))
        );
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
            specs[2].key_of_option("--draw"),
            Some(("each[2].draw".into(), Some(8)))
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
            specs[2].key_of_option("--draw"),
            Some(("each[2].draw".into(), Some(8)))
        );
    }
}
