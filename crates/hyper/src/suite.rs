//! Test-suite reduction (`docs/method.md` §9.2–§9.4): removal of tests whose stimulus is a
//! prefix of another's, the kill matrix (tests × mutants, filled by replaying every test on
//! the meta-mutant, [`MetaCircuit`]), greedy set cover, and the check that the mutation
//! score does not change.

mod replay;
mod text;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Test;

pub use replay::{Kill, MetaCircuit};
pub use text::parse_value;

/// The stimulus of a test: per frame, the input and nd values by name.
pub fn stimulus(t: &Test) -> Vec<BTreeMap<String, String>> {
    t.frames
        .iter()
        .map(|f| {
            let mut m = f.inputs.clone();
            m.extend(f.nd.iter().map(|(k, v)| (k.clone(), v.clone())));
            m
        })
        .collect()
}

/// The indices (ascending) of the sequences to keep: a sequence is dropped when it is a
/// proper prefix of another, or equal to an earlier one.
pub fn remove_prefixes<S: PartialEq>(seqs: &[Vec<S>]) -> Vec<usize> {
    (0..seqs.len())
        .filter(|&i| {
            let a = &seqs[i];
            !seqs.iter().enumerate().any(|(j, b)| {
                j != i && a.len() <= b.len() && b.starts_with(a) && (a.len() < b.len() || j < i)
            })
        })
        .collect()
}

/// Which tests kill which mutants: row `t` lists the columns (mutants) test `t` kills.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillMatrix {
    /// Number of columns (mutants).
    pub columns: usize,
    /// Per test, the killed columns in ascending order.
    pub rows: Vec<Vec<usize>>,
}

impl KillMatrix {
    /// A matrix from dense rows (`rows[t][m]` = test t kills mutant m).
    pub fn from_dense(columns: usize, rows: &[Vec<bool>]) -> KillMatrix {
        KillMatrix {
            columns,
            rows: rows
                .iter()
                .map(|r| {
                    r.iter()
                        .take(columns)
                        .enumerate()
                        .filter(|(_, k)| **k)
                        .map(|(m, _)| m)
                        .collect()
                })
                .collect(),
        }
    }

    /// Per column, whether one of the given tests kills it (unknown rows are ignored).
    pub fn killed(&self, tests: &[usize]) -> Vec<bool> {
        let mut k = vec![false; self.columns];
        for row in tests.iter().filter_map(|t| self.rows.get(*t)) {
            for &m in row {
                if let Some(slot) = k.get_mut(m) {
                    *slot = true;
                }
            }
        }
        k
    }

    /// Number of columns killed by the given tests.
    pub fn killed_count(&self, tests: &[usize]) -> usize {
        self.killed(tests).iter().filter(|k| **k).count()
    }
}

/// Greedy set cover over the `candidates` rows (`docs/method.md` §9.4): repeatedly
/// take the test that kills the most mutants not killed yet (the first such test on ties)
/// until no test adds a kill. The result kills exactly what all candidates kill.
pub fn greedy_set_cover(m: &KillMatrix, candidates: &[usize]) -> Vec<usize> {
    let mut covered = vec![false; m.columns];
    let mut chosen = Vec::new();
    loop {
        let gain = |t: usize| {
            m.rows
                .get(t)
                .map(|r| {
                    r.iter()
                        .filter(|c| !covered.get(**c).copied().unwrap_or(true))
                        .count()
                })
                .unwrap_or(0)
        };
        let mut best: Option<(usize, usize)> = None;
        for &t in candidates {
            let g = gain(t);
            if g > 0 && best.is_none_or(|(_, bg)| g > bg) {
                best = Some((t, g));
            }
        }
        let Some((t, _)) = best else {
            return chosen;
        };
        for &c in &m.rows[t] {
            if let Some(slot) = covered.get_mut(c) {
                *slot = true;
            }
        }
        chosen.push(t);
    }
}

/// Whether the `reduced` tests kill exactly the mutants the `full` tests kill, i.e. the
/// mutation score does not change under the reduction.
pub fn score_preserved(m: &KillMatrix, full: &[usize], reduced: &[usize]) -> bool {
    m.killed(full) == m.killed(reduced)
}

#[cfg(test)]
mod tests;
