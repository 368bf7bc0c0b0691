//! A whole run: decide every selected mutant in parallel, record each as soon as it is
//! decided, then write the summary and build the test suite.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use hypermut_ir::{ExprId, System};
use hypermut_mutate::{Mutant, Operator};

use crate::decide::across::Across;
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
    let mut todo: Vec<&Mutant> = all.iter().filter(|m| !done.contains(&m.id)).collect();
    // The coarser mutants first, across the whole design: their kills come soonest, and
    // their tests kill many subtler mutants by replay before those get any engine time
    // (`docs/method.md` §7.8). The workers take the mutants in this order.
    if options.decide.replay {
        todo.sort_by_key(|m| coarseness(m.operator));
    }
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
    let tries = options.decide.replay && options.decide.prove;
    let first = first_pass(timeout, tries);
    // A mutant whose site has a coarser mutant the first pass left open gets no first try
    // of its own: the coarser one's later kill usually kills it by replay (§7.8).
    let open_sites = OpenSites::default();
    let deferred: Mutex<HashSet<usize>> = Mutex::default();
    let decided: Vec<Result<MutantRecord, Open>> = pool.install(|| {
        todo.iter()
            .par_bridge()
            .map(|m| {
                let defer = tries && first < timeout && open_sites.has_coarser(m);
                let mut d = if defer {
                    decider.decide_without_engines(m)
                } else {
                    decider.decide_within(m, first)
                };
                if d.record.outcome == MutantVerdict::Unknown && options.decide.replay {
                    if defer {
                        d.record.reason = DEFERRED.into();
                        lock(&deferred).insert(m.id);
                    } else {
                        open_sites.add(m);
                    }
                    Err((*m, Box::new(d)))
                } else {
                    Ok(record(d))
                }
            })
            .collect()
    });
    // The mutants whose first try was deferred and is still owed.
    let mut deferred = deferred.into_inner().unwrap_or_else(|p| p.into_inner());
    // Later passes: the pool's tests, then the engines' last try with all the time left
    // (a deferred mutant first gets a first try); last, one more replay.
    let mut new_records = Vec::new();
    let mut open: Vec<(&Mutant, Box<Decision>)> = Vec::new();
    for r in decided {
        match r {
            Ok(rec) => new_records.push(rec),
            Err(o) => open.push(o),
        }
    }
    // One search across the open mutants of each mutated site (`docs/method.md` §7.10): a
    // kill found for one is replayed on the others before any of them is tried alone again.
    if options.decide.across && options.decide.prove && options.decide.replay && first < timeout {
        let round = first.saturating_mul(2).min(timeout);
        let groups = grouped(open, |(m, _)| m.site);
        let searched: Vec<Searched> = pool.install(|| {
            groups
                .into_par_iter()
                .map(|g| search_across(&decider, g, round, &record))
                .collect()
        });
        open = Vec::new();
        for (done, left) in searched {
            new_records.extend(done);
            open.extend(left);
        }
    }
    // The later tries go site by site, the coarser mutants of a site first: their kills come
    // sooner, and their tests often kill the site's subtler mutants by replay before those
    // are tried again (`docs/method.md` §7.8).
    let mut open = by_site_coarse_first(open);
    while !open.is_empty() {
        let tried: Vec<Tried> = pool.install(|| {
            open.into_par_iter()
                .map(|(m, before)| match decider.decide_by_replay(m) {
                    Some(d) => Ok(record(found_later(*before, d, FOUND_LATER))),
                    None => {
                        let spent = Duration::from_millis(before.record.millis);
                        let left = timeout.saturating_sub(spent);
                        if left.is_zero() || first >= timeout {
                            return Err((m, before, true));
                        }
                        // A deferred mutant's first try is as long as the first pass's;
                        // the last try gets all that is left: a kill or proof that needs
                        // one long run is not cut into restarts that each fall short.
                        let last = !deferred.contains(&m.id);
                        let mut d = if last {
                            decider.decide_again(m, left)
                        } else {
                            decider.decide_within(m, left.min(first))
                        };
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
                Err((m, d, false)) => {
                    deferred.remove(&m.id);
                    open.push((m, d));
                }
            }
        }
        // A mutant whose time is spent gets the tests the others' tries find, then is stored.
        if open.is_empty() {
            open = last;
            break;
        }
        open.extend(last);
    }
    let finals: Vec<MutantRecord> = pool.install(|| {
        open.into_par_iter()
            .map(|(m, before)| {
                record(match decider.decide_by_replay(m) {
                    Some(d) => found_later(*before, d, FOUND_LATER),
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
    // The suite's replays run on the run's threads too (`--jobs`).
    pool.install(|| {
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
    })
}

/// The reason of a mutant whose first try was deferred ([`OpenSites`]).
const DEFERRED: &str = "its first try was deferred: a coarser mutant of its site was still open";

/// `m` locked, even if another thread panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The sites (`Mutant::site`) where the first pass left a mutant open, each with the
/// [`coarseness`] of the coarsest such mutant.
#[derive(Debug, Default)]
struct OpenSites(Mutex<HashMap<ExprId, u8>>);

impl OpenSites {
    /// Records that `m` was left open.
    fn add(&self, m: &Mutant) {
        let c = coarseness(m.operator);
        let mut sites = lock(&self.0);
        let at = sites.entry(m.site).or_insert(c);
        *at = (*at).min(c);
    }

    /// Whether a mutant of `m`'s site coarser than `m` was left open.
    fn has_coarser(&self, m: &Mutant) -> bool {
        lock(&self.0)
            .get(&m.site)
            .is_some_and(|&c| c < coarseness(m.operator))
    }
}

/// A try's outcome for one mutant: stored, or still open with its last decision and whether
/// its tries are over.
type Tried<'m> = std::result::Result<MutantRecord, (&'m Mutant, Box<Decision>, bool)>;

/// A mutant still open with its last decision.
pub(crate) type Open<'m> = (&'m Mutant, Box<Decision>);

/// What the searches across one group decided (stored already) and the mutants they left open.
pub(crate) type Searched<'m> = (Vec<MutantRecord>, Vec<Open<'m>>);

/// How a pooled test that kills a mutant first left unknown was found: by another mutant's
/// later try.
const FOUND_LATER: &str = "the test was found later";

/// … or by a search across the open mutants ([`search_across`]).
const FOUND_ACROSS: &str = "the test was found by one search across the open mutants of its site";

/// The decision `later` (a pooled test's kill) of a mutant first left unknown by `open`:
/// its time includes the earlier attempt's, and its reason says why it was decided late and
/// `how` the test was found.
fn found_later(open: Decision, mut later: Decision, how: &str) -> Decision {
    later.record.millis += open.record.millis;
    later.record.reason.push_str(&format!(
        " (first left unknown: {}; {how})",
        open.record.reason
    ));
    later
}

/// `items` grouped by `key` (for open mutants, the node they mutate, `Mutant::site`), in
/// the order of each group's first item, each group in the items' order.
fn grouped<T, K: std::hash::Hash + Eq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<Vec<T>> {
    let mut groups: Vec<Vec<T>> = Vec::new();
    let mut index: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    for item in items {
        let at = *index.entry(key(&item)).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[at].push(item);
    }
    groups
}

/// The open mutants grouped by site ([`grouped`]), each group's coarser mutants
/// ([`coarseness`]) first.
fn by_site_coarse_first(open: Vec<Open<'_>>) -> Vec<Open<'_>> {
    grouped(open, |(m, _)| m.site)
        .into_iter()
        .flat_map(|mut g| {
            g.sort_by_key(|(m, _)| coarseness(m.operator));
            g
        })
        .collect()
}

/// How coarse a change an operator makes, 0 the coarsest: a constant to 0 or its maximum, a
/// condition stuck, a branch or assignment deleted (0) before a replaced operator or
/// variable (1) before an off-by-one constant, bit index or comparison (2).
fn coarseness(op: Operator) -> u8 {
    use Operator::*;
    match op {
        Const0 | ConstMax | Sa0 | Sa1 | Cbd | Nad | Mcf => 0,
        ConstPlusOne | ConstMinusOne | Ror | Bio => 2,
        _ => 1,
    }
}

/// Searches across the open mutants of `group` (the mutants of one site, `docs/method.md`
/// §7.10) while the searches find kills: the pool is replayed on every mutant of the group,
/// then one search of at most `round` across those still open finds a kill of one of them,
/// which joins the pool, and so on. A mutant that the kill found for it does not kill on its
/// own product (its nondeterministic inputs are named differently in the meta-mutant)
/// leaves the group. The decided mutants are stored by `record`; the others are returned
/// for their own tries.
pub(crate) fn search_across<'m>(
    decider: &Decider,
    mut group: Vec<Open<'m>>,
    round: Duration,
    record: &(dyn Fn(Decision) -> MutantRecord + Sync),
) -> Searched<'m> {
    let mut done = Vec::new();
    let mut left_out: Vec<usize> = Vec::new();
    let mut target = None;
    let mut how = FOUND_LATER;
    loop {
        let mut still = Vec::new();
        for (m, before) in group {
            match decider.decide_by_replay(m) {
                Some(d) => done.push(record(found_later(*before, d, how))),
                None => still.push((m, before)),
            }
        }
        how = FOUND_ACROSS;
        group = still;
        if let Some(id) = target.take() {
            if group.iter().any(|(m, _)| m.id == id) {
                left_out.push(id);
            }
        }
        let candidates: Vec<&Mutant> = group
            .iter()
            .map(|(m, _)| *m)
            .filter(|m| !left_out.contains(&m.id))
            .collect();
        if candidates.len() < ACROSS_AT_LEAST {
            break;
        }
        match decider.kill_any(&candidates, round) {
            Ok(Across::Kill(id)) => target = Some(id),
            _ => break,
        }
    }
    (done, group)
}

/// The fewest open mutants searched across: one alone is tried on its own product.
pub const ACROSS_AT_LEAST: usize = 2;

/// The engines' time limit of the first pass over the mutants: a quarter of `timeout` (at
/// least [`FIRST_PASS_MIN`]) when `tries` (the tests are replayed on other mutants and IC3
/// runs: a later try may decide what an earlier one did not), else all of it.
pub fn first_pass(timeout: Duration, tries: bool) -> Duration {
    if tries {
        (timeout / 4).max(FIRST_PASS_MIN).min(timeout)
    } else {
        timeout
    }
}

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

#[cfg(test)]
mod tests {
    use super::{coarseness, grouped, OpenSites};
    use crate::{all_mutants, FrontendOptions, Model};

    /// A site's open mutant defers exactly the subtler mutants of the same site.
    #[test]
    fn open_sites_defer_subtler_mutants_of_the_same_site_only() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = dir.path().join("m.smv");
        let text = "MODULE main\nVAR c : 0..15; i : boolean;\nASSIGN init(c) := 0;\n  \
                    next(c) := case i & c < 12 : c + 1; TRUE : 3; esac;\n\
                    DEFINE o := c > 9;\n";
        std::fs::write(&path, text).expect("written");
        let model = Model::load(&[path], &FrontendOptions::default())
            .expect("loads")
            .0;
        let mutants = all_mutants(&model.system);
        // A site with a coarse mutant and a subtler one, and a mutant of another site.
        let (coarse, subtle) = mutants
            .iter()
            .flat_map(|a| mutants.iter().map(move |b| (a, b)))
            .find(|(a, b)| a.site == b.site && coarseness(a.operator) < coarseness(b.operator))
            .expect("a site with mutants of two coarsenesses");
        let other = mutants
            .iter()
            .find(|m| m.site != coarse.site)
            .expect("another site");
        let open = OpenSites::default();
        assert!(!open.has_coarser(subtle));
        open.add(subtle);
        assert!(
            !open.has_coarser(coarse),
            "a coarser mutant is never deferred"
        );
        open.add(coarse);
        assert!(open.has_coarser(subtle));
        assert!(
            !open.has_coarser(coarse),
            "nor is one as coarse as the open one"
        );
        assert!(!open.has_coarser(other), "nor one of another site");
    }

    /// Items with equal keys end up together, the groups in order of first appearance and
    /// each in the items' order.
    #[test]
    fn groups_keep_first_appearance_order() {
        let items = vec![(1, 'a'), (2, 'b'), (1, 'c'), (3, 'd'), (2, 'e'), (1, 'f')];
        let groups = grouped(items, |(k, _)| *k);
        let letters: Vec<String> = groups
            .iter()
            .map(|g| g.iter().map(|(_, c)| *c).collect())
            .collect();
        assert_eq!(letters, ["acf", "be", "d"]);
        assert!(grouped(Vec::<u8>::new(), |x| *x).is_empty());
    }
}
