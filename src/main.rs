//! The `deckodds` binary: parse the command line, run, map errors to exit
//! codes. Everything else is in the library.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use deckodds::cli::Cli;

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
                    // One line, as every other error: clap's first line
                    // already names the value and what is allowed.
                    let rendered = error.render().to_string();
                    let first = rendered
                        .lines()
                        .next()
                        .unwrap_or("error: invalid arguments");
                    eprintln!("{first} (see --help)");
                    ExitCode::from(2)
                }
            };
        }
    };
    match deckodds::commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
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
