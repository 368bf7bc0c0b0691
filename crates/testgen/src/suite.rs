//! The test suite of a run: every killing test replayed on every undecided or killed mutant
//! through the meta-mutant, prefix removal, greedy set cover, weak killing, and `suite.json`
//! (`docs/method.md` §9.2–§9.5, `docs/formats.md` §6).

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use hypermut_hyper::suite::{score_preserved, stimulus, Kill};
use hypermut_hyper::{greedy_set_cover, remove_prefixes, KillMatrix, MetaCircuit, Test};
use hypermut_ir::System;
use hypermut_mutate::{meta_mutant, Mutant};

use crate::error::{Error, Result};
use crate::record::{MutantRecord, MutantVerdict};
use crate::store::Store;

/// One killing test of the run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TestEntry {
    /// Test file, relative to the results directory.
    pub file: String,
    /// The mutant it was generated for.
    pub mutant: usize,
    /// Number of steps (depth + 1).
    pub steps: usize,
}

/// How many tests each stage keeps.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct SuiteSizes {
    /// Every killing test.
    pub all: usize,
    /// After removing tests whose stimulus is a prefix of another's (or a duplicate).
    pub after_prefix_removal: usize,
    /// After greedy set cover.
    pub minimised: usize,
}

/// Weak and strong killing of one mutant by the suite.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WeakEntry {
    /// Mutant id.
    pub id: usize,
    /// Its verdict.
    pub outcome: MutantVerdict,
    /// Some suite test makes an output differ.
    pub strong: bool,
    /// Some suite test makes an output or a latch differ (maximum oracle: weak killing).
    pub weak: bool,
}

/// `--weak`: weak killing per mutant (killed, undecided and equivalent mutants).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WeakReport {
    /// Mutants strongly killed by the suite.
    pub strong: usize,
    /// Mutants weakly killed by the suite.
    pub weak: usize,
    /// Whether every strongly killed mutant is weakly killed (a consistency check).
    pub strong_subset_of_weak: bool,
    /// Per mutant.
    pub mutants: Vec<WeakEntry>,
}

/// `suite.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    /// The kill matrix's columns: ids of the killed and undecided mutants (equivalent, invalid
    /// and failed mutants are left out).
    pub mutants: Vec<usize>,
    /// Every killing test; row `t` of the matrix.
    pub tests: Vec<TestEntry>,
    /// Per test, the ids of the mutants it kills (strongly).
    pub kill_matrix: Vec<Vec<usize>>,
    /// Test files kept by prefix removal.
    pub after_prefix_removal: Vec<String>,
    /// Test files of the minimised suite (greedy set cover of the former).
    pub minimised: Vec<String>,
    /// Sizes of the three.
    pub sizes: SuiteSizes,
    /// Mutants killed by all tests.
    pub killed_by_all: usize,
    /// Mutants killed by the minimised suite.
    pub killed_by_minimised: usize,
    /// Whether prefix removal and set cover keep the mutation score.
    pub score_preserved: bool,
    /// Undecided mutants that a test of another mutant kills (fault dropping).
    pub killed_undecided: Vec<usize>,
    /// Killed mutants whose kill the replay did not confirm (should be empty).
    pub unconfirmed: Vec<usize>,
    /// Weak killing, with `--weak`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weak: Option<WeakReport>,
}

/// Reads the test of a killed mutant.
fn read_test(out: &Store, file: &str) -> Result<Test> {
    let text = out.read_to_string(file)?;
    serde_json::from_str(&text).map_err(|e| Error::Damaged {
        what: format!("{} is not a test file", out.dir().join(file).display()),
        detail: e.to_string(),
    })
}

/// Builds the suite of a run from its records and the test files in `out`, and writes
/// `out/suite.json`. `mutants` must hold (at least) every mutant the records name.
pub fn build_suite(
    sys: &System,
    mutants: &[Mutant],
    records: &[MutantRecord],
    out: &Store,
    weak: bool,
) -> Result<SuiteReport> {
    let wanted = |o: MutantVerdict| {
        matches!(o, MutantVerdict::Killed | MutantVerdict::Unknown)
            || (weak && o == MutantVerdict::Equivalent)
    };
    let outcome_of = |id: usize| records.iter().find(|r| r.id == id).map(|r| r.outcome);
    let chosen: Vec<Mutant> = mutants
        .iter()
        .filter(|m| outcome_of(m.id).is_some_and(wanted))
        .cloned()
        .collect();
    let meta = meta_mutant(sys, &chosen).map_err(|e| Error::from(e).context("meta-mutant"))?;
    let circuit =
        MetaCircuit::build(&meta).map_err(|e| Error::from(e).context("meta-mutant circuit"))?;
    let codes: Vec<usize> = (1..=chosen.len()).collect();
    // Columns of the strong kill matrix: positions in `chosen` of killed / undecided mutants.
    let columns: Vec<usize> = chosen
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            matches!(
                outcome_of(m.id),
                Some(MutantVerdict::Killed | MutantVerdict::Unknown)
            )
        })
        .map(|(i, _)| i)
        .collect();
    let mut tests: Vec<(TestEntry, Test)> = Vec::new();
    for r in records
        .iter()
        .filter(|r| r.outcome == MutantVerdict::Killed)
    {
        let Some(file) = &r.test else { continue };
        let t = read_test(out, file)?;
        tests.push((
            TestEntry {
                file: file.clone(),
                mutant: r.id,
                steps: t.frames.len(),
            },
            t,
        ));
    }
    let stimuli: Vec<_> = tests.iter().map(|(_, t)| stimulus(t)).collect();
    let kept = remove_prefixes(&stimuli);
    let replays = replay_all(&circuit, &stimuli, &kept, &codes)?;
    let dense: Vec<Vec<bool>> = replays
        .iter()
        .map(|row| columns.iter().map(|&c| row[c].strong).collect())
        .collect();
    let matrix = KillMatrix::from_dense(columns.len(), &dense);
    let all: Vec<usize> = (0..tests.len()).collect();
    let minimised = greedy_set_cover(&matrix, &kept);
    let killed = matrix.killed(&all);
    let column_id = |c: usize| chosen[columns[c]].id;
    let killed_ids: Vec<usize> = (0..columns.len())
        .filter(|c| killed[*c])
        .map(column_id)
        .collect();
    let files =
        |rows: &[usize]| -> Vec<String> { rows.iter().map(|&t| tests[t].0.file.clone()).collect() };
    let weak_report = weak.then(|| {
        let mut entries = Vec::new();
        for (i, m) in chosen.iter().enumerate() {
            let (mut s, mut w) = (false, false);
            for &t in &kept {
                s |= replays[t][i].strong;
                w |= replays[t][i].weak;
            }
            entries.push(WeakEntry {
                id: m.id,
                outcome: outcome_of(m.id).unwrap_or(MutantVerdict::Error),
                strong: s,
                weak: w,
            });
        }
        WeakReport {
            strong: entries.iter().filter(|e| e.strong).count(),
            weak: entries.iter().filter(|e| e.weak).count(),
            strong_subset_of_weak: replays.iter().flatten().all(|k| !k.strong || k.weak),
            mutants: entries,
        }
    });
    let report = SuiteReport {
        mutants: (0..columns.len()).map(column_id).collect(),
        kill_matrix: matrix
            .rows
            .iter()
            .map(|r| r.iter().map(|&c| column_id(c)).collect())
            .collect(),
        after_prefix_removal: files(&kept),
        minimised: files(&minimised),
        sizes: SuiteSizes {
            all: tests.len(),
            after_prefix_removal: kept.len(),
            minimised: minimised.len(),
        },
        killed_by_all: killed_ids.len(),
        killed_by_minimised: matrix.killed_count(&minimised),
        score_preserved: score_preserved(&matrix, &all, &kept)
            && score_preserved(&matrix, &all, &minimised),
        killed_undecided: killed_ids
            .iter()
            .copied()
            .filter(|id| outcome_of(*id) == Some(MutantVerdict::Unknown))
            .collect(),
        unconfirmed: records
            .iter()
            .filter(|r| r.outcome == MutantVerdict::Killed && !killed_ids.contains(&r.id))
            .map(|r| r.id)
            .collect(),
        tests: tests.into_iter().map(|(e, _)| e).collect(),
        weak: weak_report,
    };
    out.write_json("suite.json", &report)?;
    Ok(report)
}

/// The kills of every test in `stimuli` on the mutants `codes` of `circuit`, per test: one
/// run per test of `kept` (the tests no other test extends, [`remove_prefixes`]), whose
/// prefixes give the rows of the tests it extends (most tests are a pooled test cut at
/// another depth).
fn replay_all(
    circuit: &MetaCircuit,
    stimuli: &[Vec<BTreeMap<String, String>>],
    kept: &[usize],
    codes: &[usize],
) -> Result<Vec<Vec<Kill>>> {
    // Per run, the test replayed and the tests it extends (itself included); every test
    // extends some kept one, else it gets a run of its own.
    let mut runs: Vec<(usize, Vec<usize>)> = kept.iter().map(|&k| (k, Vec::new())).collect();
    for (t, s) in stimuli.iter().enumerate() {
        match kept.iter().position(|&k| stimuli[k].starts_with(s)) {
            Some(owner) => runs[owner].1.push(t),
            None => runs.push((t, vec![t])),
        }
    }
    let replayed: Vec<Vec<Vec<Kill>>> = runs
        .par_iter()
        .map(|(k, ts)| {
            let lengths: Vec<usize> = ts.iter().map(|&t| stimuli[t].len()).collect();
            circuit.replay_prefixes(&stimuli[*k], codes, &lengths)
        })
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| Error::from(e).context("replaying the tests on the meta-mutant"))?;
    let mut rows: Vec<Vec<Kill>> = vec![Vec::new(); stimuli.len()];
    for ((_, ts), run) in runs.iter().zip(replayed) {
        for (&t, row) in ts.iter().zip(run) {
            rows[t] = row;
        }
    }
    Ok(rows)
}

/// The suite's lines of the testgen summary.
pub fn describe(r: &SuiteReport) -> Vec<String> {
    let mut lines = vec![format!(
        "test suite: {} killing tests, {} after prefix removal, {} after greedy set cover (suite.json); \
         they kill {} of {} killed or undecided mutants, the minimised suite {}{}",
        r.sizes.all,
        r.sizes.after_prefix_removal,
        r.sizes.minimised,
        r.killed_by_all,
        r.mutants.len(),
        r.killed_by_minimised,
        if r.score_preserved {
            " (mutation score unchanged)"
        } else {
            " (WARNING: the reduction changed the mutation score)"
        }
    )];
    if !r.killed_undecided.is_empty() {
        lines.push(format!(
            "  tests of other mutants also kill the undecided mutants {:?}",
            r.killed_undecided
        ));
    }
    if !r.unconfirmed.is_empty() {
        lines.push(format!(
            "  WARNING: replaying the tests on the meta-mutant does not kill the killed mutants {:?}",
            r.unconfirmed
        ));
    }
    if let Some(w) = &r.weak {
        let weak_only = w.mutants.iter().filter(|e| e.weak && !e.strong).count();
        lines.push(format!(
            "  weak killing: {} strongly, {} weakly killed ({} only weakly) of {} mutants; strong ⊆ weak {}",
            w.strong,
            w.weak,
            weak_only,
            w.mutants.len(),
            if w.strong_subset_of_weak { "holds" } else { "VIOLATED" }
        ));
    }
    lines
}
