//! Typed errors. Every error the library returns is one the user can act on;
//! a panic is a bug.

use std::path::PathBuf;

/// Everything that can go wrong, as the user should hear it: every message
/// is one line (control characters in quoted values are escaped).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A value outside what is allowed, named by what it is the value of:
    /// a parameter of the library (`decks 0: must be 1..=64 or "inf"`), or
    /// on the command line the flag that sets it (`--decks 0: ...`; the CLI
    /// layer names the flag, see `cli::name_flags`), or a field of an input.
    #[error("{} {}: {}", one_line(parameter), one_line(value), one_line(allowed))]
    InvalidValue {
        /// What the value is of: a parameter such as `decks` (or `suits x
        /// ranks` for two that are refused together), a flag such as
        /// `--decks`, or an input field.
        parameter: String,
        /// The offending value as the user wrote it.
        value: String,
        /// What would have been accepted, or what to do instead.
        allowed: String,
    },
    /// An input file that cannot be parsed.
    #[error("{}: {}", one_line(&path.display().to_string()), one_line(message))]
    BadInputFile {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and field where known.
        message: String,
    },
    /// A run stopped by SIGINT or SIGTERM after saving its checkpoint.
    /// The message says what was saved and how to resume.
    #[error("{message}")]
    Interrupted {
        /// What was saved where, and the command that resumes.
        message: String,
    },
    /// A result other than the one declared for it: a comparison whose
    /// verdict is not the one its analysis spec expects (`expect`). The
    /// message names each such table, the verdict expected and the one
    /// reached.
    #[error("{message}")]
    Unexpected {
        /// Which results differ from what was declared.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {}", one_line(&path.display().to_string()), one_line(&source.to_string()))]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidValue`].
    pub fn invalid(parameter: &str, value: impl ToString, allowed: impl ToString) -> Error {
        Error::InvalidValue {
            parameter: parameter.to_string(),
            value: value.to_string(),
            allowed: allowed.to_string(),
        }
    }

    /// This error with `parameter` naming what its value is of (an
    /// [`Error::InvalidValue`]; any other error is returned as it is): for
    /// a caller that knows better, such as the command line, which names
    /// the flag where a parser names the kind of value.
    pub fn naming(self, parameter: &str) -> Error {
        match self {
            Error::InvalidValue { value, allowed, .. } => Error::InvalidValue {
                parameter: parameter.to_string(),
                value,
                allowed,
            },
            other => other,
        }
    }

    /// The process exit status for this error: 2 for bad input (the user can
    /// fix the command line or the file), 1 for failures of the environment
    /// and for results other than the ones declared.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::InvalidValue { .. } | Error::BadInputFile { .. } => 2,
            Error::Io { .. } | Error::Unexpected { .. } => 1,
            // The shell's convention for a process stopped by SIGINT.
            Error::Interrupted { .. } => 130,
        }
    }
}

/// The most characters of one part of a message (a value, a file's
/// message) shown whole; a longer one, such as a line of a file with no
/// line break in ten megabytes, is cut (see [`one_line`]).
const READABLE_CHARS: usize = 600;

/// Characters kept from each end of a part cut to a readable length:
/// the start shows what was quoted, the end what is wrong with it.
const KEPT_AT_EACH_END: usize = 240;

/// `text` with its control characters (line breaks, tabs, NUL...) written
/// as escapes (`\n`), so that an error quoting what the user gave is still
/// one line, and shows exactly what was given; and cut to a readable
/// length: past [`READABLE_CHARS`], its first and last
/// [`KEPT_AT_EACH_END`] characters, with how many are left out between.
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    let escaped: std::borrow::Cow<'_, str> = if text.chars().any(char::is_control) {
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_debug().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    let length = escaped.chars().count();
    if length <= READABLE_CHARS {
        return escaped;
    }
    let head: String = escaped.chars().take(KEPT_AT_EACH_END).collect();
    let tail: String = escaped.chars().skip(length - KEPT_AT_EACH_END).collect();
    format!(
        "{head}[... {} characters left out ...]{tail}",
        length - 2 * KEPT_AT_EACH_END
    )
    .into()
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_quote_is_cut_to_its_two_ends_and_short_ones_are_whole() {
        let error = Error::BadInputFile {
            path: "deals.txt:1".into(),
            message: format!("deal {}: is not a card", "7".repeat(10_000_000)),
        };
        let line = error.to_string();
        assert!(line.len() < 2 * READABLE_CHARS, "{}", line.len());
        assert!(line.starts_with("deals.txt:1: deal 777"), "{line}");
        assert!(line.ends_with("777: is not a card"), "{line}");
        assert!(
            line.contains(&format!(
                "[... {} characters left out ...]",
                10_000_020 - 2 * KEPT_AT_EACH_END
            )),
            "{line}"
        );
        let short = Error::invalid("--decks", "0\t", "must be 1..=8");
        assert_eq!(short.to_string(), "--decks 0\\t: must be 1..=8");
    }
}
