//! The `deckodds` binary: parse the command line, run, map errors to exit
//! codes. Everything else is in the library.

use std::process::ExitCode;

use clap::Parser;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use deckodds::cli::Cli;
use deckodds::commands::Outcome;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            return match error.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // Help and version go to stdout, as users expect.
                    let _ = error.print();
                    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        ExitCode::from(2)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                _ => {
                    // A bad value reads as the library's errors do (`--decks
                    // 0: must be ...`); any other mistake, as clap says it.
                    match deckodds::cli::value_error(&error) {
                        Some(error) => eprintln!("error: {error}"),
                        None => eprintln!("{} (see --help)", one_line(&error)),
                    }
                    ExitCode::from(2)
                }
            };
        }
    };
    let quiet = cli.global.quiet;
    match deckodds::commands::run(cli) {
        Ok(Outcome::Complete) => ExitCode::SUCCESS,
        Ok(Outcome::Disagreement) => {
            // The output is complete and leads with the verdict; the status
            // is for scripts, as diff's and cmp's is.
            if !quiet {
                eprintln!("the comparison found disagreement: exit status 1");
            }
            ExitCode::from(1)
        }
        Err(error @ deckodds::Error::Interrupted { .. }) => {
            // Not a failure: the run was asked to stop, and saved itself.
            eprintln!("{error}");
            ExitCode::from(error.exit_code() as u8)
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code() as u8)
        }
    }
}

/// A clap error on one line, as every other error: its first line (which
/// names what is wrong) and its suggestions, which clap puts on later
/// lines (`(did you mean '--h17'?)`).
fn one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut line = rendered
        .lines()
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
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
