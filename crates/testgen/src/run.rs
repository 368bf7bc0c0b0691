//! A whole run: decide every selected mutant in parallel, record each as soon as it is
//! decided, then write the summary and build the test suite.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use hypermut_ir::System;
use hypermut_mutate::Mutant;

use crate::decide::{DecideOptions, Decider, Decision};
use crate::error::{Error, Result};
use crate::layout;
use crate::load::{text_hash, Model};
use crate::record::{Counts, MutantRecord, MutantVerdict, RunInfo, Summary};
use crate::select::{Locator, Selection, Shard};
use crate::store::{Existing, Store};
use crate::suite::{build_suite, describe, SuiteReport};

/// Options of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Which mutants.
    pub selection: Selection,
    /// Only this slice of the selected mutants (all when `None`).
    pub shard: Option<Shard>,
    /// Effort per mutant.
    pub decide: DecideOptions,
    /// Worker threads (`None`: one per core).
    pub jobs: Option<usize>,
    /// The results directory.
    pub out: PathBuf,
    /// What to do with results already in `out`.
    pub existing: Existing,
    /// Also report weak killing in `suite.json`.
    pub weak: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            selection: Selection::default(),
            shard: None,
            decide: DecideOptions::default(),
            jobs: None,
            out: PathBuf::from("hypermut-out"),
            existing: Existing::Refuse,
            weak: false,
        }
    }
}

/// Hears about a run as it goes (a progress bar, a log). Called from worker threads, one call
/// at a time.
pub trait Progress: Send {
    /// The run starts: `total` mutants, of which those counted in `done` were decided by an
    /// earlier, resumed run.
    fn started(&mut self, total: usize, done: &Counts) {
        let _ = (total, done);
    }

    /// Mutant `record.id` was decided; `counts` includes it.
    fn decided(&mut self, record: &MutantRecord, counts: &Counts) {
        let _ = (record, counts);
    }

    /// Something went wrong that does not stop the run (e.g. a record could not be appended
    /// to `results.jsonl`; it is still in the summary).
    fn warning(&mut self, message: &str) {
        let _ = message;
    }

    /// Every mutant is decided; the summary and the suite follow.
    fn finished(&mut self) {}
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {}

/// What a run produced (also written to the results directory).
#[derive(Clone, Debug)]
pub struct RunReport {
    /// `summary.json`.
    pub summary: Summary,
    /// `suite.json`, or why the suite could not be built.
    pub suite: Result<SuiteReport, String>,
}

impl RunReport {
    /// The lines that describe the test suite (or why there is none).
    pub fn suite_lines(&self) -> Vec<String> {
        match &self.suite {
            Ok(r) => describe(r),
            Err(e) => vec![format!("warning: no test suite: {e}")],
        }
    }
}

/// What a run of `mutants` of `model` with this bound and shard is identified by.
pub fn run_info(model: &Model, mutants: &[Mutant], bound: usize, shard: Option<Shard>) -> RunInfo {
    let locator = Locator::new(model);
    let listing: Vec<String> = mutants
        .iter()
        .map(|m| {
            format!(
                "{} {} {} {}",
                m.id,
                m.operator.name(),
                locator.location(&model.system, m),
                m.replacement
            )
        })
        .collect();
    RunInfo {
        model_hash: model.hash.clone(),
        bound,
        mutants_hash: text_hash(&listing.join("\n")),
        shard,
        initial_state: (!model.convention.is_free()).then(|| model.initial_state()),
    }
}

/// Decides every selected mutant of `model` (those of `options.shard`), appending each record
/// to `results.jsonl` as soon as it is decided, then writes `summary.json` and `suite.json`.
pub fn run(model: &Model, options: &Options, progress: &mut dyn Progress) -> Result<RunReport> {
    let every = options.selection.select(&model.system);
    let count = crate::select::all_mutants(&model.system).len();
    if let Some(id) = options.selection.missing_id(count) {
        return Err(Error::NoSuchMutant {
            id,
            model: model.name.clone(),
            count,
        });
    }
    let info = run_info(model, &every, options.decide.bound, options.shard);
    let all: Vec<Mutant> = every
        .into_iter()
        .filter(|m| options.shard.is_none_or(|s| s.contains(m.id)))
        .collect();
    let (store, earlier) = Store::open(&options.out, &info, options.existing)?;
    let done: std::collections::HashSet<usize> = earlier.iter().map(|r| r.id).collect();
    let todo: Vec<&Mutant> = all.iter().filter(|m| !done.contains(&m.id)).collect();
    let decider = Decider::new(model, &options.decide);
    let counts = Counts::of(&earlier);
    progress.started(all.len(), &counts);
    let shared = Mutex::new((counts, progress));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::Threads(e.to_string()))?;
    // Stores a decision and reports it (called once per mutant, from any thread).
    let record = |mut d: Decision| -> MutantRecord {
        let mut warnings = std::mem::take(&mut d.warnings);
        let waveform = d.waveform.take();
        let rec = store.write_decision(d);
        if let (Some(vcd), Some(_)) = (waveform, &rec.test) {
            if let Err(e) = store.write_evidence(&layout::waveform_file(rec.id), &vcd) {
                warnings.push(format!("mutant {}: no waveform: {e}", rec.id));
            }
        }
        let appended = store.append(&rec);
        let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
        let (counts, progress) = &mut *guard;
        if let Err(e) = appended {
            progress.warning(&e.to_string());
        }
        for w in &warnings {
            progress.warning(w);
        }
        counts.add_record(&rec);
        progress.decided(&rec, counts);
        rec
    };
    // With fault dropping, every mutant first gets a short pass; one left unknown is decided
    // last: the tests found since are replayed on it, then the engines try again, longer,
    // within its time (docs/method.md §7.8).
    let timeout = options.decide.timeout;
    let first = first_pass(timeout, options.decide.replay && options.decide.prove);
    let decided: Vec<Result<MutantRecord, (&Mutant, Box<Decision>)>> = pool.install(|| {
        todo.par_iter()
            .map(|m| {
                let d = decider.decide_within(m, first);
                if d.record.outcome == MutantVerdict::Unknown && options.decide.replay {
                    Err((*m, Box::new(d)))
                } else {
                    Ok(record(d))
                }
            })
            .collect()
    });
    // Later passes: the pool's tests, then another try of the engines, each try twice as long
    // as the one before and the last with all the time left; last, one more replay.
    let mut new_records = Vec::new();
    let mut open: Vec<(&Mutant, Box<Decision>)> = Vec::new();
    for r in decided {
        match r {
            Ok(rec) => new_records.push(rec),
            Err(o) => open.push(o),
        }
    }
    let mut try_for = first;
    let mut attempt = 1;
    while !open.is_empty() {
        try_for = try_for.saturating_mul(2);
        let tried: Vec<Tried> = pool.install(|| {
            open.into_par_iter()
                .map(|(m, before)| match decider.decide_by_replay(m) {
                    Some(d) => Ok(record(found_later(*before, d))),
                    None => {
                        let spent = Duration::from_millis(before.record.millis);
                        let left = timeout.saturating_sub(spent);
                        if left.is_zero() || first >= timeout {
                            return Err((m, before, true));
                        }
                        // The last try gets all that is left: a kill or proof that needs
                        // one long run is not cut into restarts that each fall short.
                        let last = attempt + 1 >= TRIES;
                        let within = if last { left } else { left.min(try_for) };
                        let mut d = decider.decide_again(m, within, last);
                        d.record.millis += before.record.millis;
                        if d.record.outcome == MutantVerdict::Unknown {
                            let spent = Duration::from_millis(d.record.millis);
                            let done = spent >= timeout || last;
                            Err((m, Box::new(d), done))
                        } else {
                            Ok(record(d))
                        }
                    }
                })
                .collect()
        });
        open = Vec::new();
        let mut last = Vec::new();
        for r in tried {
            match r {
                Ok(rec) => new_records.push(rec),
                Err((m, d, true)) => last.push((m, d)),
                Err((m, d, false)) => open.push((m, d)),
            }
        }
        // A mutant whose time is spent gets the tests the others' tries find, then is stored.
        if open.is_empty() {
            open = last;
            break;
        }
        open.extend(last);
        attempt += 1;
    }
    let finals: Vec<MutantRecord> = pool.install(|| {
        open.into_par_iter()
            .map(|(m, before)| {
                record(match decider.decide_by_replay(m) {
                    Some(d) => found_later(*before, d),
                    None => *before,
                })
            })
            .collect()
    });
    new_records.extend(finals);
    let (_, progress) = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    progress.finished();
    let mut records = earlier;
    records.extend(new_records);
    finish(
        &Finish {
            sys: &model.system,
            mutants: &all,
            model: &model.name,
            model_hash: &model.hash,
            bound: options.decide.bound,
            weak: options.weak,
        },
        &store,
        records,
    )
}

/// A try's outcome for one mutant: stored, or still open with its last decision and whether
/// its tries are over.
type Tried<'m> = std::result::Result<MutantRecord, (&'m Mutant, Box<Decision>, bool)>;

/// The decision `later` (a pooled test's kill) of a mutant first left unknown by `open`:
/// its time includes the earlier attempt's, and its reason says why it was decided late.
fn found_later(open: Decision, mut later: Decision) -> Decision {
    later.record.millis += open.record.millis;
    later.record.reason.push_str(&format!(
        " (first left unknown: {}; the test was found later)",
        open.record.reason
    ));
    later
}

/// The engines' time limit of the first pass over the mutants: an eighth of `timeout` (at
/// least [`FIRST_PASS_MIN`]) when `tries` (the tests are replayed on other mutants and IC3
/// runs: a later try may decide what an earlier one did not), else all of it.
pub fn first_pass(timeout: Duration, tries: bool) -> Duration {
    if tries {
        (timeout / 8).max(FIRST_PASS_MIN).min(timeout)
    } else {
        timeout
    }
}

/// How many times at most the engines try one mutant (the first pass included).
pub const TRIES: usize = 3;

/// The shortest first pass (shorter time limits get one pass).
pub const FIRST_PASS_MIN: Duration = Duration::from_secs(2);

/// What [`finish`] needs besides the records.
#[derive(Clone, Copy, Debug)]
pub struct Finish<'a> {
    /// The model's system.
    pub sys: &'a System,
    /// The mutants (at least those the records name; others are ignored).
    pub mutants: &'a [Mutant],
    /// Model path as given.
    pub model: &'a str,
    /// Hash of the model's sources.
    pub model_hash: &'a str,
    /// BMC bound used.
    pub bound: usize,
    /// Also compute weak killing.
    pub weak: bool,
}

/// Ends a run: writes `summary.json`, then builds the test suite and writes `suite.json`. A
/// failure to build the suite is reported in the result (the summary is written regardless).
pub fn finish(f: &Finish, store: &Store, records: Vec<MutantRecord>) -> Result<RunReport> {
    store.sync()?;
    let summary = Summary::new(f.model, f.model_hash, f.bound, records);
    store.write_json("summary.json", &summary)?;
    let suite =
        build_suite(f.sys, f.mutants, &summary.results, store, f.weak).map_err(|e| e.to_string());
    Ok(RunReport { summary, suite })
}
