//! The commands that document deckodds itself: `rules` (the rule book
//! built into the binary), `completions` (a shell completion script),
//! `man` (the manual page) and `schema` (the JSON Schemas of the data
//! contract). They read no input and run no engine.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

use super::context::Context;
use super::files;
use super::output::emit;
use crate::cli::Cli;
use crate::contract;
use crate::error::{Error, Result};
use crate::games::registry::GameEntry;
use crate::rulebook;

/// `deckodds rules [GAME]`: the whole rule book, or its general part and
/// GAME's section.
pub(super) fn rules(game: Option<&'static GameEntry>, context: &Context) -> Result<()> {
    emit(&rulebook::text_for(game), None, context)
}

/// `deckodds completions SHELL`: the completion script on standard output.
pub(super) fn completions(shell: Shell, context: &Context) -> Result<()> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "deckodds", &mut script);
    emit(&String::from_utf8_lossy(&script), None, context)
}

/// `deckodds man [--out DIR]`: the manual page of deckodds on standard
/// output, or one page per command (`deckodds.1`,
/// `deckodds-blackjack-exact.1`, ...) written into DIR.
pub(super) fn man(out: Option<&Path>, context: &Context) -> Result<()> {
    let Some(directory) = out else {
        return emit(&render_page(Cli::command())?, None, context);
    };
    files::existing_directory("--out", directory, "the man pages are written into it")?;
    let mut command = Cli::command().disable_help_subcommand(true);
    // Building gives every subcommand its display name
    // (`deckodds-blackjack-exact`), which names its page.
    command.build();
    let mut pages = Vec::new();
    collect_pages(command, &mut pages);
    let files = pages
        .into_iter()
        .map(|page| {
            let path = directory.join(clap_mangen::Man::new(page.clone()).get_filename());
            Ok((path, render_page(page)?))
        })
        .collect::<Result<Vec<_>>>()?;
    write_all("--out", &files, context)
}

/// Writes each of `files` (a path and its text) after checking every
/// path first (see `files::check_before_run`: a directory or an
/// unwritable folder in the way of one file is refused, naming `option`
/// and the path, before any is written), so that a bad target leaves no
/// half-written set.
fn write_all(option: &'static str, files: &[(PathBuf, String)], context: &Context) -> Result<()> {
    if let Some((path, _)) = files.iter().find(|(path, _)| path.is_dir()) {
        return Err(Error::invalid(
            option,
            path.parent().unwrap_or(path).display(),
            format!(
                "{} is a directory, where a file goes: move it (nothing was written)",
                path.display()
            ),
        ));
    }
    files::check_before_run(&files::Plan {
        outputs: files
            .iter()
            .map(|(path, _)| files::NamedPath {
                option,
                path: path.clone(),
            })
            .collect(),
        report_on_stdout: false,
        ..files::Plan::default()
    })?;
    for (path, text) in files {
        emit(text, Some(path), context)?;
    }
    Ok(())
}

/// `deckodds schema [KIND] [--dir DIR]`: one kind's JSON Schema, the list
/// of kinds, or every kind's schema written into DIR as `KIND.json`.
pub(super) fn schema(kind: Option<&str>, dir: Option<&Path>, context: &Context) -> Result<()> {
    let kinds = contract::kinds();
    if let Some(directory) = dir {
        files::existing_directory("--dir", directory, "the schemas are written into it")?;
        let files: Vec<(PathBuf, String)> = kinds
            .iter()
            .map(|entry| {
                let path = directory.join(format!("{}.json", entry.name));
                (path, schema_text(entry))
            })
            .collect();
        return write_all("--dir", &files, context);
    }
    let Some(name) = kind else {
        let width = kinds.iter().map(|k| k.name.len()).max().unwrap_or(0);
        let list: String = kinds
            .iter()
            .map(|k| format!("{:width$}  {}: {}\n", k.name, k.id, k.about))
            .collect();
        return emit(&list, None, context);
    };
    match kinds.iter().find(|k| k.name == name) {
        Some(entry) => emit(&schema_text(entry), None, context),
        None => Err(Error::invalid(
            "schema kind",
            name,
            format!(
                "must be one of {}",
                kinds.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// A kind's schema as pretty JSON with a final line break, as schema/
/// holds it.
fn schema_text(entry: &contract::KindEntry) -> String {
    let schema =
        serde_json::to_string_pretty(&(entry.schema)()).unwrap_or_else(|_| "null".to_string());
    format!("{schema}\n")
}

/// `command` and every visible subcommand below it, parents first.
fn collect_pages(command: clap::Command, pages: &mut Vec<clap::Command>) {
    let children: Vec<clap::Command> = command
        .get_subcommands()
        .filter(|child| !child.is_hide_set())
        .cloned()
        .collect();
    pages.push(command);
    for child in children {
        collect_pages(child, pages);
    }
}

/// The roff text of `command`'s manual page.
fn render_page(command: clap::Command) -> Result<String> {
    let mut roff = Vec::new();
    // Every page belongs to deckodds (by default a subcommand's page would
    // name the subcommand as its source).
    clap_mangen::Man::new(command)
        .source(format!("deckodds {}", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(|source| Error::Io {
            path: "<man page>".into(),
            source,
        })?;
    Ok(String::from_utf8_lossy(&roff).into_owned())
}
