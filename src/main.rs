//! The `deckodds` binary: parse the command line, run, map errors to exit
//! codes. Everything else is in the library.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

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
                    eprintln!("{}", deckodds::commands::clap_error_line(&error));
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
