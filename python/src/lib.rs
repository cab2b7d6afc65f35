//! `deckodds._native`: the deckodds library's commands, run in process for
//! the Python package (`python/deckodds/`), which builds their command
//! lines from Python parameters. A thin layer: the options are clap's
//! (parsed here with `try_parse_from`, so every flag stays defined once,
//! in `deckodds::cli`), the work is `deckodds::commands::run_captured`'s.
//!
//! Guarantees: the GIL is released while a command runs; Python's
//! signals are checked a few times a second, and an interrupt (Ctrl-C)
//! stops a Monte-Carlo run at its next chunk and raises
//! `KeyboardInterrupt`; a deckodds error raises `ValueError` (bad input)
//! or `OSError` (a file) with the binary's one-line message; a panic (a
//! bug) raises `RuntimeError`, and never crosses into the interpreter.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Parser;
use clap::error::ErrorKind;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use deckodds::Error;
use deckodds::cli::Cli;
use deckodds::commands::{Captured, RunControl, clap_error_line, commands, run_captured};

/// How often the waiting thread wakes to check Python's signals.
const SIGNAL_TICK: Duration = Duration::from_millis(50);

/// How often `progress` is called, at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

type Run = JoinHandle<deckodds::Result<Captured>>;

/// Set by the run's thread as it ends (a panic included), so that the
/// caller can wait for it in short slices and check signals in between.
#[derive(Default)]
struct Finished {
    over: Mutex<bool>,
    changed: Condvar,
}

impl Finished {
    fn set(&self) {
        if let Ok(mut over) = self.over.lock() {
            *over = true;
        }
        self.changed.notify_all();
    }

    /// Whether the run is over, waiting at most `tick` for it to end.
    fn wait(&self, tick: Duration) -> bool {
        let Ok(over) = self.over.lock() else {
            return true;
        };
        match self.changed.wait_timeout_while(over, tick, |over| !*over) {
            Ok((over, _)) => *over,
            Err(_) => true,
        }
    }
}

/// Calls [`Finished::set`] when dropped: at the end of the run's thread,
/// whether it returns or panics.
struct SetOnDrop(Arc<Finished>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// Runs the deckodds command line `argv` (without the program's name) and
/// returns what the binary would print on standard output (with
/// `--format json`, the JSON document). `progress(done, total)`, if given,
/// is called with the GIL held at most five times a second while the
/// command runs; an exception it raises stops the run and is raised.
#[pyfunction]
#[pyo3(signature = (argv, progress = None))]
fn _run(py: Python<'_>, argv: Vec<String>, progress: Option<Bound<'_, PyAny>>) -> PyResult<String> {
    let cli = match Cli::try_parse_from(std::iter::once("deckodds".to_string()).chain(argv)) {
        Ok(cli) => cli,
        Err(error) => {
            return match error.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    Ok(error.render().to_string())
                }
                _ => Err(PyValueError::new_err(python_message(&clap_error_line(
                    &error,
                )))),
            };
        }
    };
    let control = Arc::new(RunControl::default());
    let finished = Arc::new(Finished::default());
    let run: Run = {
        let control = Arc::clone(&control);
        let finished = SetOnDrop(Arc::clone(&finished));
        std::thread::Builder::new()
            .name("deckodds".into())
            .spawn(move || {
                let _finished = finished;
                run_captured(cli, &control)
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?
    };
    let mut reported = Instant::now();
    loop {
        if py.detach(|| finished.wait(SIGNAL_TICK)) {
            break;
        }
        let mut stop_for = py.check_signals().err();
        if stop_for.is_none()
            && let Some(progress) = &progress
            && reported.elapsed() >= PROGRESS_EVERY
        {
            reported = Instant::now();
            let (units_done, total) = control.progress();
            stop_for = progress.call1((units_done, total)).err();
        }
        if let Some(error) = stop_for {
            control.stop();
            return Err(stop(py, run, &finished, error));
        }
    }
    finish(py, run)
}

/// Waits for a run asked to stop, and returns the exception that stopped
/// it. A second interrupt while it finishes its chunks in flight (or an
/// exact computation, which cannot stop early) returns at once and leaves
/// the thread to finish on its own, its result unused.
fn stop(py: Python<'_>, run: Run, finished: &Finished, error: PyErr) -> PyErr {
    loop {
        if py.detach(|| finished.wait(SIGNAL_TICK)) {
            // Interrupted, or finished first: either way the caller asked
            // to stop, and gets the exception that asked.
            let _ = py.detach(|| run.join());
            return error;
        }
        if py.check_signals().is_err() {
            return error;
        }
    }
}

/// The result of a finished run, as Python sees it.
fn finish(py: Python<'_>, run: Run) -> PyResult<String> {
    match py.detach(|| run.join()) {
        Ok(Ok(captured)) => Ok(captured.output),
        Ok(Err(error)) => Err(exception(&error)),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(PyRuntimeError::new_err(format!(
                "deckodds panicked (a bug, please report it): {message}"
            )))
        }
    }
}

/// A deckodds error as the Python exception its kind calls for, with the
/// binary's message.
fn exception(error: &Error) -> PyErr {
    let message = error.to_string();
    match error {
        Error::InvalidValue { .. } | Error::BadInputFile { .. } => PyValueError::new_err(message),
        Error::Io { source, .. } => {
            PyOSError::new_err((source.raw_os_error().unwrap_or(0), message))
        }
        Error::Interrupted { .. } => PyKeyboardInterrupt::new_err(message),
        Error::Unexpected { .. } => PyRuntimeError::new_err(message),
    }
}

/// The binary's error line without what only a shell user needs: its
/// `error: ` prefix (Python names the exception) and `(see --help)`.
fn python_message(line: &str) -> String {
    let line = line.strip_prefix("error: ").unwrap_or(line);
    line.strip_suffix(" (see --help)")
        .unwrap_or(line)
        .to_string()
}

/// Every command of the games with its options (name, flag, kind,
/// default, possible values, help), read from clap's definitions: a JSON
/// list of `deckodds::commands::CommandSpec`.
#[pyfunction]
fn _commands() -> PyResult<String> {
    serde_json::to_string(&commands()).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(_run, module)?)?;
    module.add_function(wrap_pyfunction!(_commands, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
