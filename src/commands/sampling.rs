//! How a command samples: [`Context::sample`], the one place where the
//! chunks of a Monte-Carlo run are run, and so where shards, merges,
//! checkpoints, resumes and precision targets all take effect.
//!
//! The chunks are run in blocks, in order. Each chunk's tally comes back on
//! its own, so the runner knows exactly which chunks are done (a prefix)
//! and can stop after any one of them: when SIGINT or SIGTERM asks (the
//! prefix is saved to the checkpoint), or when the counts meet the
//! precision target (the first chunk that meets it, on any machine). The
//! counts of a prefix are the sum of its chunks' tallies, whatever the
//! blocks, so none of this changes a run's counts.

use std::ops::Range;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint;
use super::context::{Context, Invocation};
use super::ledger::{Prior, PriorSource, Sample};
use super::progress::{ProgressReporter, human_seconds, throughput};
use crate::distribution::CountDistribution;
use crate::engine::montecarlo::RunPlan;
use crate::engine::precision::{Watch, Widest};
use crate::error::{Error, Result};
use crate::report::figures::thousands;
use crate::report::{PrecisionBlock, PrecisionRun};

/// The most chunks in one block: bounds the per-chunk tallies held at once.
const MAX_BLOCK: u64 = 4096;

/// A block's length when the runner must stop promptly (a checkpoint or a
/// precision target): about this many seconds of work.
const BLOCK_SECONDS: f64 = 1.0;

/// A run estimated at more than this many seconds, without a checkpoint,
/// says at its start how to make it resumable.
const LONG_RUN_SECONDS: f64 = 60.0;

/// One sampling run, as a command asks for it.
pub(super) struct Sampling<'a> {
    /// Trials, seed, stream and chunking. Under `--until-halfwidth`,
    /// `--max-trials` takes the place of the trials.
    pub plan: RunPlan,
    /// Units of work in a trial, for the progress bar and the throughput
    /// (a blackjack trial is a hand for each of ten upcards).
    pub units_per_trial: u64,
    /// The progress bar's message.
    pub message: &'a str,
    /// What a unit is called (`games`, `hands`).
    pub unit: &'a str,
    /// The distributions a tally holds, for `--until-halfwidth`.
    pub outcomes: &'a (dyn Fn(&[u64]) -> Vec<CountDistribution> + Sync),
    /// For a tally whose distributions count other things than trials
    /// (a table's rounds, while its trials are shoes): whether its counts
    /// agree with one another, which `merge` checks of every part and of
    /// their sum besides `outcomes` (a one-line reason if not).
    pub consistent: Option<&'a TallyCheck>,
}

/// A check that a tally's counts agree with one another (see
/// [`Sampling::consistent`]).
pub(super) type TallyCheck = dyn Fn(&[u64]) -> std::result::Result<(), String> + Sync;

/// What a sampling run gave.
pub(super) struct Sampled {
    /// The trials behind the tally: the plan's, or under
    /// `--until-halfwidth` those run until the target was met.
    pub n_trials: u64,
    /// The summed histogram.
    pub tally: Vec<u64>,
}

/// `merge`: one sampling run's part in each count file, with the file.
type PartSamples<'a> = Vec<(&'a std::path::Path, Sample)>;

impl Context {
    /// Runs the chunks of `sampling.plan` (all of them, or with `--shard`
    /// this part's) through `work` on the pool of `--threads`, with a
    /// progress bar, and reports the throughput on stderr (unless
    /// `--quiet`), so that users can plan the size of a run.
    ///
    /// `work(progress, plan, chunks)` must return the summed tally of
    /// `chunks` of `plan`; it is called once per chunk.
    ///
    /// Every Monte-Carlo run of a command goes through here, in order: a
    /// shard records each tally for its count file, a checkpoint saves
    /// them, and `merge` and `--resume` hand back the tallies done before
    /// in the same order.
    pub(super) fn sample(
        &self,
        sampling: &Sampling,
        work: impl Fn(&ProgressReporter, &RunPlan, Range<u64>) -> Result<Vec<u64>> + Sync,
    ) -> Result<Sampled> {
        self.shard_read.store(true, Ordering::Relaxed);
        let plan = match &self.until {
            Some(until) => RunPlan {
                n_trials: until.max_trials,
                ..sampling.plan
            },
            None => sampling.plan,
        };
        let n_chunks = plan.n_chunks();
        let chunks = self
            .shard
            .map_or(0..n_chunks, |shard| shard.chunk_range(n_chunks));
        let (prior, parts) = match self.take_prior(&plan, &chunks)? {
            Some((prior, parts)) => (Some(prior), parts),
            None => (None, Vec::new()),
        };
        self.say_where_it_resumes(prior.as_ref(), &plan, &chunks, sampling.unit);
        let mut done = prior.as_ref().map_or(chunks.start, |p| p.chunks.end);
        let first_new = done;
        let to_run: u64 = (done..chunks.end).map(|c| plan.chunk_trials(c)).sum();
        let progress = self.progress(
            to_run.saturating_mul(sampling.units_per_trial),
            sampling.message,
            sampling.unit,
        );
        let _lost_if_interrupted = self.say_if_interrupted(&progress, sampling.unit);
        // An empty range of chunks gives a tally of zeros of the run's
        // length.
        let zeros = work(&progress, &plan, 0..0)?;
        let mut tally = match prior {
            Some(prior) if prior.tally.len() == zeros.len() => {
                self.check_prior_tallies(sampling, &prior, &parts)?;
                prior.tally
            }
            Some(_) => return Err(self.prior_mismatch()),
            None => zeros,
        };
        let watch = self.watch(sampling, tally.len())?;
        let met = |tally: &[u64]| {
            watch
                .as_ref()
                .is_some_and(|w| w.is_met_by(&w.widest(&(sampling.outcomes)(tally))))
        };
        let mut stopped = met(&tally);
        let started = Instant::now();
        let prompt = self.checkpointing.is_some() || watch.is_some();
        let threads = self.with_threads(|| -> Result<usize> {
            let threads = rayon::current_num_threads() as u64;
            // The first block is a chunk per thread, whose time tells how
            // long the run will take.
            let mut block = threads;
            let mut first_block = true;
            while !stopped && done < chunks.end && !self.stop_requested() {
                let range = done..(done + block).min(chunks.end);
                let began = Instant::now();
                let tallies: Vec<Option<Result<Vec<u64>>>> = (0..range.end - range.start)
                    .into_par_iter()
                    .map(|i| {
                        if self.stop_requested() {
                            return None;
                        }
                        let chunk = range.start + i;
                        let result = work(&progress, &plan, chunk..chunk + 1);
                        self.count_chunk_for_test_interrupt();
                        Some(result)
                    })
                    .collect();
                // The chunks done are a prefix: a chunk skipped for an
                // interrupt ends it, and the ones after it are dropped.
                for chunk_tally in tallies.into_iter().map_while(|t| t) {
                    add(&mut tally, &chunk_tally?)?;
                    done += 1;
                    if met(&tally) {
                        stopped = true;
                        break;
                    }
                }
                if let Some(watch) = &watch {
                    // The bar runs to --max-trials; say how near the
                    // target the run is.
                    let widest = watch.widest(&(sampling.outcomes)(&tally));
                    progress.bar.set_message(format!(
                        "{}: widest ±{}, target ±{}",
                        sampling.message,
                        percent(widest.half_width),
                        percent(watch.half_width())
                    ));
                }
                let per_chunk = began.elapsed().as_secs_f64() / (range.end - range.start) as f64;
                if first_block {
                    first_block = false;
                    let seconds = per_chunk * (chunks.end - done) as f64;
                    self.suggest_checkpoint(seconds, watch.is_some(), &progress);
                }
                block = if prompt {
                    prompt_block(per_chunk, threads, done - first_new, watch.is_some())
                } else {
                    MAX_BLOCK
                };
                self.save_if_due(&plan, chunks.start..done, &tally, false)?;
            }
            Ok(rayon::current_num_threads())
        })??;
        drop(progress);
        let sample = Sample {
            plan,
            chunks: chunks.start..done,
            tally,
        };
        if done < chunks.end && !stopped {
            // Only an interrupt ends a run early without meeting its target.
            return Err(self.stop_for_interrupt(&sample, &chunks, sampling.unit));
        }
        let ran: u64 = (first_new..done).map(|c| plan.chunk_trials(c)).sum();
        if ran > 0 {
            let seconds = started.elapsed().as_secs_f64();
            self.note(&throughput(
                ran.saturating_mul(sampling.units_per_trial),
                sampling.unit,
                seconds,
                threads,
            ));
        }
        let n_trials = match &watch {
            Some(watch) => {
                let n_trials = (0..done).map(|c| plan.chunk_trials(c)).sum();
                let widest = watch.widest(&(sampling.outcomes)(&sample.tally));
                self.report_precision(n_trials, sampling.unit, &widest, stopped);
                n_trials
            }
            None => plan.n_trials,
        };
        let tally = sample.tally.clone();
        if let Ok(mut sampled) = self.sampled.lock() {
            sampled.push(sample);
        }
        Ok(Sampled { n_trials, tally })
    }

    /// With `--resume`: says on stderr (unless `--quiet`) where this
    /// sampling run takes up: the trials and chunks the checkpoint holds.
    fn say_where_it_resumes(
        &self,
        prior: Option<&Sample>,
        plan: &RunPlan,
        chunks: &Range<u64>,
        unit: &str,
    ) {
        let Some(Prior {
            source: PriorSource::Checkpoint(path),
            ..
        }) = &self.prior
        else {
            return;
        };
        let run = self.sampled.lock().map_or(0, |s| s.len()) + 1;
        let trials = |range: Range<u64>| -> u64 { range.map(|c| plan.chunk_trials(c)).sum() };
        let whole = trials(chunks.clone());
        self.note(&match prior {
            Some(sample) if sample.chunks.end == chunks.end => format!(
                "resuming from {}: sampling run {run} is complete there ({} {unit})",
                path.display(),
                thousands(whole)
            ),
            Some(sample) => format!(
                "resuming from {}: sampling run {run} goes on after {} of {} {unit} ({} of {} chunks)",
                path.display(),
                thousands(trials(sample.chunks.clone())),
                thousands(whole),
                thousands(sample.chunks.end - sample.chunks.start),
                thousands(chunks.end - chunks.start)
            ),
            None => format!(
                "resuming from {}: sampling run {run} starts at its beginning (the checkpoint was saved before it began)",
                path.display()
            ),
        });
    }

    /// Says on stderr (unless `--quiet`), for a run estimated at over
    /// [`LONG_RUN_SECONDS`] without a checkpoint, that an interruption
    /// would lose it and how to run it resumably: `seconds` is the estimate
    /// for the chunks left (under a precision target, up to its most
    /// trials). Only the user's own command line is quoted back.
    fn suggest_checkpoint(&self, seconds: f64, watching: bool, progress: &ProgressReporter) {
        if seconds <= LONG_RUN_SECONDS
            || self.quiet
            || self.invocation != Invocation::User
            || self.checkpointing.is_some()
            || self.collect_only
            || self.checkpoint_suggested.swap(true, Ordering::Relaxed)
        {
            return;
        }
        let file = std::path::Path::new("deckodds.checkpoint");
        let text = format!(
            "note: this sampling run will take {}about {} more (from its first chunks), and if it is interrupted it is lost; to make it resumable, rerun it with --checkpoint FILE, e.g. {}",
            if watching { "up to " } else { "" },
            human_seconds(seconds),
            checkpoint::command_with("--checkpoint", file)
        );
        progress.bar.suspend(|| eprintln!("{text}"));
    }

    /// For the user's own run without a checkpoint (in a process of its
    /// own: not embedded, not an MPI rank): a guard under which Ctrl-C
    /// (or SIGTERM) says, before the run exits with status 130, how far
    /// it got by `progress`, that nothing was kept, and the command line
    /// that would make it resumable.
    fn say_if_interrupted(
        &self,
        progress: &ProgressReporter,
        unit: &str,
    ) -> Option<checkpoint::LostRunGuard> {
        if self.invocation != Invocation::User
            || self.checkpointing.is_some()
            || self.embedded.is_some()
            || self.collect_only
        {
            return None;
        }
        let bar = progress.bar.clone();
        let run = self.sampled.lock().map_or(0, |s| s.len()) + 1;
        let unit = unit.to_string();
        let resumable =
            checkpoint::command_with("--checkpoint", std::path::Path::new("deckodds.checkpoint"));
        let started = Instant::now();
        Some(checkpoint::say_if_interrupted(Box::new(move || {
            let line = format!(
                "interrupted after {} of {} {unit} of sampling run {run} ({}): nothing was kept, as the run had no --checkpoint; to make it resumable, run it with --checkpoint FILE, e.g. {resumable}",
                thousands(bar.position()),
                thousands(bar.length().unwrap_or_default()),
                human_seconds(started.elapsed().as_secs_f64()),
            );
            bar.suspend(|| eprintln!("{line}"));
        })))
    }

    /// The precision target this sampling run watches, resolved against
    /// the outcomes of a tally of `n_bins`, if `--until-halfwidth` gave
    /// one.
    fn watch(&self, sampling: &Sampling, n_bins: usize) -> Result<Option<Watch>> {
        let Some(until) = &self.until else {
            return Ok(None);
        };
        // A tally of all ones holds every outcome a run can report (some
        // reports cut a distribution at its last nonzero bin).
        let possible = (sampling.outcomes)(&vec![1; n_bins]);
        until.target.watch(&possible).map(Some).map_err(|allowed| {
            Error::invalid(
                "--for",
                until.target.outcome.as_deref().unwrap_or_default(),
                allowed,
            )
        })
    }

    /// The next samples done before (by `merge` or a checkpoint), checked
    /// against the run this command is about to make, with (for `merge`)
    /// each count file's own part of them.
    fn take_prior(
        &self,
        plan: &RunPlan,
        chunks: &Range<u64>,
    ) -> Result<Option<(Sample, PartSamples<'_>)>> {
        let Some(prior) = &self.prior else {
            return Ok(None);
        };
        let next = prior
            .samples
            .lock()
            .ok()
            .and_then(|mut queue| queue.pop_front());
        let parts = prior
            .parts
            .iter()
            .filter_map(|(path, samples)| {
                let sample = samples.lock().ok()?.pop_front()?;
                Some((path.as_path(), sample))
            })
            .collect();
        match next {
            Some(sample)
                if sample.plan == *plan
                    && sample.chunks.start == chunks.start
                    && sample.chunks.end <= chunks.end =>
            {
                Ok(Some((sample, parts)))
            }
            // A checkpoint saved before this sampling run began.
            None if matches!(prior.source, PriorSource::Checkpoint(_)) => Ok(None),
            _ => Err(self.prior_mismatch()),
        }
    }

    /// Refuses summed parts that do not count each of their trials once in
    /// every distribution the command reads from them, or whose counts
    /// disagree with one another (see [`Sampling::consistent`]): each
    /// count file of a merge first (named), then the sum (of the files, or
    /// of MPI ranks). A checkpoint's counts are guarded by its checksum
    /// alone.
    fn check_prior_tallies(
        &self,
        sampling: &Sampling,
        prior: &Sample,
        parts: &PartSamples,
    ) -> Result<()> {
        if !matches!(
            self.prior.as_ref().map(|prior| &prior.source),
            Some(PriorSource::Merge)
        ) {
            return Ok(());
        }
        let check = |sample: &Sample| {
            sample.check_tally(sampling.outcomes)?;
            sampling.consistent.map_or(Ok(()), |consistent| {
                consistent(&sample.tally).map_err(|why| format!("its tallies disagree: {why}"))
            })
        };
        for (path, part) in parts {
            check(part).map_err(|message| Error::BadInputFile {
                path: path.to_path_buf(),
                message: format!("corrupt count file: {message}"),
            })?;
        }
        check(prior).map_err(|message| Error::invalid("merge", "the count files", message))
    }

    /// The error for samples done before that are not this command's.
    fn prior_mismatch(&self) -> Error {
        match self.prior.as_ref().map(|prior| &prior.source) {
            Some(PriorSource::Merge) | None => Error::invalid(
                    "merge",
                    "the count files",
                    "do not hold the sampling runs their command makes (trials, seed or chunking differ)",
                ),
            Some(PriorSource::Checkpoint(path)) => Error::BadInputFile {
                path: path.clone(),
                message: "does not hold the sampling runs this command makes (trials, seed or chunking differ): resume with the command line that saved it".into(),
            },
        }
    }

    /// Saves the checkpoint if one is asked for and it is time (or `now`):
    /// the sampling runs finished, then the one under way.
    fn save_if_due(
        &self,
        plan: &RunPlan,
        chunks: Range<u64>,
        tally: &[u64],
        now: bool,
    ) -> Result<()> {
        let Some(checkpointing) = &self.checkpointing else {
            return Ok(());
        };
        let Ok(mut last_saved) = checkpointing.last_saved.lock() else {
            return Ok(());
        };
        if !(now || checkpoint::interrupted() || last_saved.elapsed() >= checkpointing.every) {
            return Ok(());
        }
        let mut samples = self.sampled.lock().map(|s| s.clone()).unwrap_or_default();
        samples.push(Sample {
            plan: *plan,
            chunks,
            tally: tally.to_vec(),
        });
        checkpoint::save(&checkpointing.path, self.shard, self.inputs(), &samples)?;
        *last_saved = Instant::now();
        Ok(())
    }

    /// The error that stops an interrupted run, once its checkpoint is
    /// saved: what was saved, and the command that resumes.
    fn stop_for_interrupt(&self, sample: &Sample, chunks: &Range<u64>, unit: &str) -> Error {
        // Only a run with a checkpoint catches signals (and reads the
        // test hook), so this is a fallback that should not be reached.
        let Some(checkpointing) = &self.checkpointing else {
            return Error::Interrupted {
                message: "interrupted".into(),
            };
        };
        if let Err(error) =
            self.save_if_due(&sample.plan, sample.chunks.clone(), &sample.tally, true)
        {
            return error;
        }
        let trials =
            |range: Range<u64>| -> u64 { range.map(|c| sample.plan.chunk_trials(c)).sum() };
        let n_before = self.sampled.lock().map_or(0, |s| s.len());
        Error::Interrupted {
            message: format!(
                "interrupted: saved {} of {} {unit} ({} of {} chunks) of sampling run {} to {}\nto resume: {}",
                thousands(trials(sample.chunks.clone())),
                thousands(trials(chunks.clone())),
                thousands(sample.chunks.end - sample.chunks.start),
                thousands(chunks.end - chunks.start),
                n_before + 1,
                checkpointing.path.display(),
                checkpoint::resume_command(&checkpointing.path)
            ),
        }
    }

    /// Says on stderr whether the precision target was met, and keeps it
    /// for the JSON output.
    fn report_precision(&self, n_trials: u64, unit: &str, widest: &Widest, met: bool) {
        let Some(until) = &self.until else { return };
        self.note(&format!(
            "precision: after {} {unit} the widest 95% interval, of {}, is ±{}: {}",
            thousands(n_trials),
            widest.outcome,
            percent(widest.half_width),
            if met {
                format!(
                    "narrower than ±{}, the target",
                    percent(until.target.half_width)
                )
            } else {
                format!(
                    "not yet ±{}, and --max-trials {} is reached: raise it",
                    percent(until.target.half_width),
                    thousands(until.max_trials)
                )
            }
        ));
        if let Ok(mut runs) = self.precision.lock() {
            runs.push(PrecisionRun {
                trials: n_trials,
                widest: widest.outcome.clone(),
                half_width: widest.half_width,
                met,
            });
        }
    }

    /// The `"precision"` block of the JSON output, if a target was set.
    pub(super) fn precision_block(&self) -> Option<PrecisionBlock> {
        let until = self.until.as_ref()?;
        let runs = self.precision.lock().map(|r| r.clone()).unwrap_or_default();
        Some(PrecisionBlock {
            until_halfwidth: until.target.half_width,
            outcome: until.target.outcome.clone(),
            max_trials: until.max_trials,
            runs,
        })
    }

    /// The test hook `DECKODDS_INTERRUPT_AFTER_CHUNKS=N`: acts as if
    /// interrupted once N chunks are done, so that tests can stop a run at
    /// a known point.
    fn count_chunk_for_test_interrupt(&self) {
        if let Some(after) = self.interrupt_after {
            let n = self.chunks_run.fetch_add(1, Ordering::Relaxed) + 1;
            if n >= after {
                checkpoint::interrupt();
            }
        }
    }
}

/// The next block's length in chunks for a run that must stop promptly:
/// about [`BLOCK_SECONDS`] of work at `per_chunk` seconds a chunk, a
/// multiple of the `threads`. Under a precision target the chunks of a
/// block past the one that meets it are played for nothing, so a block is
/// also kept to a quarter of the `chunks_so_far`.
fn prompt_block(per_chunk: f64, threads: u64, chunks_so_far: u64, watching: bool) -> u64 {
    let mut wanted = (BLOCK_SECONDS / per_chunk.max(1e-9)) as u64;
    if watching {
        wanted = wanted.min(chunks_so_far / 4);
    }
    wanted.next_multiple_of(threads).clamp(threads, MAX_BLOCK)
}

/// A proportion in percent to three significant figures, however small:
/// `0.00000994` is `0.000994%`.
fn percent(x: f64) -> String {
    let p = 100.0 * x;
    // In floating point, so that 0 (log -inf) cannot overflow: 12 decimals.
    let decimals = (2.0 - p.log10().floor()).clamp(0.0, 12.0) as usize;
    format!("{p:.decimals$}%")
}

/// Adds `more` into `tally`, checked.
fn add(tally: &mut [u64], more: &[u64]) -> Result<()> {
    for (t, &m) in tally.iter_mut().zip(more) {
        *t = t.checked_add(m).ok_or_else(|| {
            Error::invalid(
                "--trials",
                "(this run)",
                "its counts overflow 64 bits: run fewer trials",
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_keep_three_significant_figures() {
        assert_eq!(percent(0.00000994), "0.000994%");
        assert_eq!(percent(0.001), "0.100%");
        assert_eq!(percent(0.0995), "9.95%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(0.0), "0.000000000000%");
    }

    #[test]
    fn blocks_last_about_a_second_and_waste_little_under_a_target() {
        // 25 ms a chunk: 40 chunks a second, rounded up to the threads.
        assert_eq!(prompt_block(0.025, 2, 100, false), 40);
        assert_eq!(prompt_block(0.025, 3, 100, false), 42);
        // Under a target, a quarter of the run so far, at least a chunk
        // per thread.
        assert_eq!(prompt_block(0.025, 2, 40, true), 10);
        assert_eq!(prompt_block(0.025, 2, 1, true), 2);
        // Never more than MAX_BLOCK, however fast.
        assert_eq!(prompt_block(0.0, 2, u64::MAX, false), MAX_BLOCK);
    }

    #[test]
    fn tallies_add_with_overflow_checked() {
        let mut tally = vec![1, u64::MAX - 1];
        add(&mut tally, &[2, 1]).unwrap();
        assert_eq!(tally, [3, u64::MAX]);
        assert!(add(&mut tally, &[0, 1]).is_err());
    }
}
