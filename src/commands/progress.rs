//! What a run tells the user about itself as it goes: the progress bar
//! (indicatif, on stderr), the throughput line, durations for people and
//! the process's peak memory.

use std::fs;
use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::Progress;

/// Progress for the Monte-Carlo runner, drawn with indicatif.
pub(super) struct ProgressReporter {
    /// The bar, hidden until the run has taken a second.
    pub bar: ProgressBar,
    /// Whether it may be drawn at all.
    visible: bool,
    started: Instant,
    /// An embedding caller's view of the run (see [`RunControl`]).
    control: Option<Arc<RunControl>>,
}

/// How a caller that runs a command in process (see `commands::embed`)
/// follows it and stops it: the units done of the current stage's total
/// (each progress bar of the command starts a stage: a command may sample
/// or solve more than once), and a stop flag that the command reads
/// between chunks of a Monte-Carlo run. Plain atomics, so that the
/// caller polls them from its own thread and the engines' threads never
/// wait on it.
#[derive(Debug, Default)]
pub struct RunControl {
    done: AtomicU64,
    total: AtomicU64,
    stop: AtomicBool,
}

impl RunControl {
    /// The units done and the total of the current stage (`(0, 0)` before
    /// the first).
    pub fn progress(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Asks the run to stop: a Monte-Carlo run starts no new chunk, an
    /// exact enumeration (memoised or exhaustive) no new task, and the
    /// command ends with `Error::Interrupted` once the work in flight is
    /// done. The blackjack player's and the solvers' searches run to
    /// their end (they take no stop request).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`RunControl::stop`] was called.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl ProgressReporter {
    /// A progress bar over `total` units (trials, say) on stderr, drawn only
    /// if stderr is a terminal, not `quiet`, and the run lasts over a
    /// second.
    pub(super) fn new(
        total: u64,
        message: &str,
        unit: &str,
        quiet: bool,
        control: Option<Arc<RunControl>>,
    ) -> ProgressReporter {
        if let Some(control) = &control {
            control.done.store(0, Ordering::Relaxed);
            control.total.store(total, Ordering::Relaxed);
        }
        let visible = !quiet && io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            &format!("{{msg}} {{bar:40}} {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, {{rate}}, eta {{eta}}"),
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let rate = state.per_sec();
                let _ = match rate {
                    r if r >= 1e6 => write!(w, "{:.1} M/s", r / 1e6),
                    r if r >= 1e3 => write!(w, "{:.1} k/s", r / 1e3),
                    r => write!(w, "{r:.1}/s"),
                };
            },
        );
        bar.set_style(style);
        bar.set_message(message.to_string());
        ProgressReporter {
            bar,
            visible,
            started: Instant::now(),
            control,
        }
    }
}

impl Progress for ProgressReporter {
    fn advance(&self, trials: u64) {
        // Short runs finish without a flicker of a bar: it appears only once
        // the run has taken a second.
        if self.visible && self.bar.is_hidden() && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.inc(trials);
        if let Some(control) = &self.control {
            control.done.fetch_add(trials, Ordering::Relaxed);
        }
    }

    fn stop_requested(&self) -> bool {
        self.control
            .as_ref()
            .is_some_and(|control| control.stop_requested())
    }
}

impl Drop for ProgressReporter {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// The throughput line of a run: `throughput: 10,000,000 games in 5.71 s:
/// 1.75 million games/s, 876 thousand games/s per core (2 threads on 2
/// cores)`.
pub(super) fn throughput(n_trials: u64, unit: &str, seconds: f64, threads: usize) -> String {
    // Three significant figures are plenty for planning.
    let figures = |x: f64| {
        let decimals = match x {
            x if x >= 100.0 => 0,
            x if x >= 10.0 => 1,
            _ => 2,
        };
        format!("{x:.decimals$}")
    };
    let rate = |per_second: f64| match per_second {
        r if r >= 1e6 => format!("{} million ", figures(r / 1e6)),
        r if r >= 1e3 => format!("{} thousand ", figures(r / 1e3)),
        r => format!("{} ", figures(r)),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Threads beyond the cores share them, so per core is per busy core.
    let busy = threads.clamp(1, cores) as f64;
    let per_second = n_trials as f64 / seconds.max(1e-9);
    format!(
        "throughput: {} {unit} in {seconds:.2} s: {}{unit}/s, {}{unit}/s per core ({threads} thread{} on {cores} core{})",
        crate::report::figures::thousands(n_trials),
        rate(per_second),
        rate(per_second / busy),
        if threads == 1 { "" } else { "s" },
        if cores == 1 { "" } else { "s" },
    )
}

/// A duration for people: `45 s`, `25 min`, `3 h`, `12 days`, `longer
/// than a century`.
pub(super) fn human_seconds(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.0} h", s / 3600.0),
        s if s < 3.2e9 => format!("{:.0} days", s / 86_400.0),
        _ => "longer than a century".to_string(),
    }
}

/// The process's peak resident memory so far, in bytes (Linux: `VmHWM`
/// in `/proc/self/status`), or `None` where that is not available.
pub(super) fn peak_memory_bytes() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_is_per_second_in_all_and_per_busy_core() {
        let line = throughput(10_000_000, "games", 4.0, 1);
        assert!(
            line.starts_with("throughput: 10,000,000 games in 4.00 s: 2.50 million games/s, 2.50 million games/s per core (1 thread on "),
            "{line}"
        );
        let line = throughput(3_000, "deals", 2.0, 1);
        assert!(
            line.contains(": 1.50 thousand deals/s, 1.50 thousand deals/s per core"),
            "{line}"
        );
        // Threads beyond the cores do not make more cores.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let line = throughput(600, "hands", 1.0, 64);
        assert!(
            line.contains("600 hands/s, ") && line.contains("(64 threads on "),
            "{line}"
        );
        let per_core: f64 = line
            .split("hands/s, ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|number| number.parse().ok())
            .unwrap();
        let expected = 600.0 / cores.min(64) as f64;
        assert!((per_core - expected).abs() <= expected * 0.01, "{line}");
    }
}
