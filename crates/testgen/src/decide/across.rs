//! One search across the mutants still open (`docs/method.md` §7.10): the product of their
//! meta-mutant, whose copy B may be any of them, searched once for a kill. The test found
//! joins the pool, and every open mutant is then decided by replaying the pool on its own
//! product, as in fault dropping: verdicts, tests and their classes stay per mutant.

use std::time::{Duration, Instant};

use hypermut_aig::check_witness;
use hypermut_aig::wordsim::random_witness;
use hypermut_hyper::MetaProduct;
use hypermut_mutate::Mutant;
use hypermut_prove::{Limits, Verdict};

use super::{solver_circuit, Decider, DEEP_RANDOM_FRAMES, RANDOM_ROUNDS};
use crate::error::Result;
use crate::record::KillClass;

/// What one search across mutants found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Across {
    /// A kill of the mutant with this id, now in the pool.
    Kill(usize),
    /// No mutant of the group is killable (each still needs its own proof, with its own
    /// certificate).
    NoKill,
    /// Time ran out (or the group's product could not be built).
    Unknown,
}

impl Decider<'_> {
    /// Searches the product of the meta-mutant of `open` for a kill for at most `within`:
    /// random runs as deep as [`DEEP_RANDOM_FRAMES`], then the first try's schedule without
    /// bounded BMC and with IC3 from nothing. A
    /// kill found (its witness checked on the product) joins the pool under the weakest class
    /// until a mutant's own replay classifies it.
    pub fn kill_any(&self, open: &[&Mutant], within: Duration) -> Result<Across> {
        let start = Instant::now();
        let mutants: Vec<Mutant> = open.iter().map(|m| (*m).clone()).collect();
        let mp = MetaProduct::build(&self.model.system, &mutants)?;
        let p = &mp.product;
        if !p.observable {
            return Ok(Across::NoKill);
        }
        let seed = open.first().map_or(0, |m| m.id as u64);
        let frames = self.options.bound.max(DEEP_RANDOM_FRAMES);
        let found = match random_witness(&p.aig, frames, RANDOM_ROUNDS, seed) {
            Some(w) => Some(w),
            None => {
                let limits = Limits::until(Some(start + within));
                let run = self.retry.run(&solver_circuit(&p.aig), &limits);
                match run.verdict {
                    Verdict::Unsafe(w) => Some(w),
                    Verdict::Safe(_) => return Ok(Across::NoKill),
                    Verdict::Unknown(_) => None,
                }
            }
        };
        let Some(w) = found else {
            return Ok(Across::Unknown);
        };
        let Some(killed) = mp.killed(&w) else {
            return Ok(Across::Unknown);
        };
        if check_witness(&p.aig, &w).is_err() {
            return Ok(Across::Unknown);
        }
        self.pool
            .add(&p.aig, &w.inputs, &w.init, KillClass::Controlled);
        Ok(Across::Kill(killed.id))
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::decide::{DecideOptions, Decision};
    use crate::record::MutantVerdict;
    use crate::{all_mutants, FrontendOptions, Model};

    /// A counter that an input advances by changing in every step (a step without a change
    /// clears it); the outputs look at it 30–50 steps in. Random runs, uniform or quiet,
    /// practically never change the input 30 times in a row.
    const COUNTER: &str = "\
-- @output alarm
-- @output warn
MODULE main
IVAR go : boolean;
VAR
  c : 0..63;
  last : boolean;
  armed : boolean;
ASSIGN
  init(c) := 0;
  next(c) := case go = last : 0; c < 63 : c + 1; TRUE : c; esac;
  init(last) := FALSE;
  next(last) := go;
  init(armed) := FALSE;
  next(armed) := case c = 30 : TRUE; TRUE : armed; esac;
DEFINE
  alarm := armed & c = 40;
  warn := c > 50;
";

    fn model(dir: &tempfile::TempDir) -> Model {
        let path: PathBuf = dir.path().join("counter.smv");
        std::fs::write(&path, COUNTER).expect("written");
        Model::load(&[path], &FrontendOptions::default())
            .expect("loads")
            .0
    }

    /// Searching across the mutants, each kill joining the pool and the pool replayed on every
    /// mutant's own product, kills exactly the mutants that a separate decider (its own BMC
    /// and IC3 per mutant, no pool) finds killable, and ends with a proof that the others
    /// are not.
    #[test]
    fn searches_across_mutants_kill_exactly_the_killable_ones() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let model = model(&dir);
        let options = DecideOptions {
            bound: 70,
            timeout: Duration::from_secs(30),
            ..DecideOptions::default()
        };
        let mutants = all_mutants(&model.system);
        assert!(mutants.len() >= 20, "{} mutants", mutants.len());
        let alone = Decider::new(
            &model,
            &DecideOptions {
                replay: false,
                ..options.clone()
            },
        );
        // Invalid mutants (a value out of range) never stay open in a run.
        let verdicts: Vec<MutantVerdict> = mutants
            .iter()
            .map(|m| {
                let d = alone.decide(m);
                assert_ne!(d.record.outcome, MutantVerdict::Unknown, "mutant {}", m.id);
                assert_ne!(d.record.outcome, MutantVerdict::Error, "mutant {}", m.id);
                d.record.outcome
            })
            .collect();
        let valid = |m: &&Mutant| verdicts[m.id] != MutantVerdict::Invalid;
        let killable: Vec<usize> = mutants
            .iter()
            .filter(|m| verdicts[m.id] == MutantVerdict::Killed)
            .map(|m| m.id)
            .collect();
        let mut open: Vec<&Mutant> = mutants.iter().filter(valid).collect();
        assert!(
            killable.len() >= 5 && killable.len() < open.len(),
            "{verdicts:?}"
        );
        let across = Decider::new(&model, &options);
        let mut killed = Vec::new();
        let end = loop {
            let found = across
                .kill_any(&open, Duration::from_secs(30))
                .expect("the group's product builds");
            let Across::Kill(id) = found else {
                break found;
            };
            let before = killed.len();
            open.retain(|m| match across.decide_by_replay(m) {
                Some(d) => {
                    assert_eq!(d.record.outcome, MutantVerdict::Killed);
                    assert!(d.test.is_some(), "mutant {} has a test", m.id);
                    killed.push(m.id);
                    false
                }
                None => true,
            });
            assert!(
                killed[before..].contains(&id),
                "the kill found for {id} kills it"
            );
        };
        assert_eq!(end, Across::NoKill);
        killed.sort_unstable();
        assert_eq!(killed, killable);
    }

    /// Mutants of one site that a first try without time leaves open are decided by
    /// [`crate::run::search_across`]: every killable one killed by a test found across them,
    /// with its own test, and only mutants that a separate decider proves equivalent left.
    #[test]
    fn a_search_across_a_site_decides_its_open_mutants() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let model = model(&dir);
        let options = DecideOptions {
            bound: 20,
            timeout: Duration::from_secs(30),
            across: true,
            ..DecideOptions::default()
        };
        let mutants = all_mutants(&model.system);
        let site: Vec<&Mutant> = mutants.iter().filter(|m| m.original == "40").collect();
        assert!(site.len() >= 2, "{} mutants of `40`", site.len());
        let decider = Decider::new(&model, &options);
        // No engine time: random runs do not reach the counter's 40.
        let open: Vec<crate::run::Open> = site
            .iter()
            .map(|m| (*m, Box::new(decider.decide_within(m, Duration::ZERO))))
            .collect();
        for (m, d) in &open {
            assert_eq!(d.record.outcome, MutantVerdict::Unknown, "mutant {}", m.id);
        }
        let stored = std::sync::Mutex::new(Vec::new());
        let record = |d: Decision| {
            stored.lock().expect("not poisoned").push(d.record.id);
            d.record
        };
        let (done, left) =
            crate::run::search_across(&decider, open, Duration::from_secs(20), &record);
        let alone = Decider::new(
            &model,
            &DecideOptions {
                bound: 70,
                replay: false,
                ..options.clone()
            },
        );
        for r in &done {
            assert_eq!(
                r.outcome,
                MutantVerdict::Killed,
                "mutant {}: {}",
                r.id,
                r.reason
            );
            assert!(r.test.is_some(), "mutant {} has a test", r.id);
            assert!(r.reason.contains("first left unknown"), "{}", r.reason);
        }
        assert!(!done.is_empty());
        for (m, _) in &left {
            let d = alone.decide(m);
            assert_eq!(
                d.record.outcome,
                MutantVerdict::Equivalent,
                "mutant {}",
                m.id
            );
        }
        let mut ids = stored.into_inner().expect("not poisoned");
        ids.sort_unstable();
        let mut killed: Vec<usize> = done.iter().map(|r| r.id).collect();
        killed.sort_unstable();
        assert_eq!(ids, killed, "every decided mutant was stored once");
    }
}
