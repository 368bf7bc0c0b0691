//! Several engines on threads; the first definite answer wins and cancels the others.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use hypermut_aig::Aig;

use crate::bmc::Bmc;
use crate::engine::Engine;
use crate::ic3::{Ic3, Ic3Options};
use crate::kind::Kind;
use crate::limits::Limits;
use crate::schedule::Schedule;
use crate::verdict::Verdict;

/// An engine of a portfolio.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// IC3 with the given options.
    Ic3(Ic3Options),
    /// Unbounded BMC (finds counterexamples only).
    Bmc,
    /// k-induction with simple-path constraints.
    Kind,
    /// Engines one after another ([`Schedule`]).
    Sequence(Schedule),
}

impl EngineKind {
    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            EngineKind::Ic3(_) => "ic3",
            EngineKind::Bmc => "bmc",
            EngineKind::Kind => "kind",
            EngineKind::Sequence(_) => "sequence",
        }
    }

    fn run(&self, aig: &Aig, limits: &Limits) -> Verdict {
        match self {
            EngineKind::Ic3(o) => Ic3 {
                options: o.clone(),
                time_limit: None,
                lemmas: Vec::new(),
            }
            .check_limited(aig, limits),
            EngineKind::Bmc => Bmc::new(usize::MAX).check_limited(aig, limits),
            EngineKind::Kind => Kind::default().check_limited(aig, limits),
            EngineKind::Sequence(s) => s.run(aig, limits).verdict,
        }
    }
}

/// Runs its engines in parallel, one thread each.
#[derive(Clone, Debug, PartialEq)]
pub struct Portfolio {
    /// The engines.
    pub engines: Vec<EngineKind>,
    /// Wall-clock limit for [`Engine::check`].
    pub time_limit: Option<Duration>,
}

impl Portfolio {
    /// The default portfolio for `jobs` threads, in this order: IC3 for 0.6 s, held while
    /// cheap BMC runs for 0.5 s, BMC by leaps for 0.1 s and BDD reachability for a tenth of
    /// the time, then the same IC3 resumed, taking turns with the leaps
    /// ([`Schedule::bdd_then_ic3`]); IC3 with CTGs from the first frame (the schedule's IC3
    /// generalises without them below 12 frames: the two searches differ most where IC3 is
    /// slow); BMC; k-induction; IC3 with CTGs for every lemma. At least one engine.
    pub fn with_jobs(jobs: usize, time_limit: Option<Duration>) -> Self {
        let all = [
            EngineKind::Sequence(Schedule::bdd_then_ic3()),
            EngineKind::Ic3(Ic3Options::default()),
            EngineKind::Bmc,
            EngineKind::Kind,
            EngineKind::Ic3(Ic3Options {
                ctg_after: 0,
                ..Ic3Options::default()
            }),
        ];
        Portfolio {
            engines: all.into_iter().take(jobs.max(1)).collect(),
            time_limit,
        }
    }
}

impl Engine for Portfolio {
    fn check(&mut self, aig: &Aig) -> Verdict {
        let limits = Limits::timeout(self.time_limit);
        self.check_limited(aig, &limits)
    }

    /// The first `Safe` or `Unsafe` verdict of any engine (each engine checks its own
    /// certificate or witness before answering); `Unknown` with every engine's reason if
    /// none gives one.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let stop = Arc::new(AtomicBool::new(false));
        let inner = limits.with_stop(stop.clone());
        let (tx, rx) = mpsc::channel::<(usize, Verdict)>();
        std::thread::scope(|scope| {
            for (i, e) in self.engines.iter().enumerate() {
                let tx = tx.clone();
                let inner = &inner;
                scope.spawn(move || {
                    let v = e.run(aig, inner);
                    // The receiver outlives the scope; a send error cannot happen.
                    let _ = tx.send((i, v));
                });
            }
            drop(tx);
            let mut reasons = Vec::new();
            let mut answer = None;
            for (i, v) in rx {
                match v {
                    Verdict::Unknown(r) => reasons.push(format!("{}: {r}", self.engines[i].name())),
                    v => {
                        if answer.is_none() {
                            stop.store(true, Ordering::Relaxed);
                            answer = Some(v);
                        }
                    }
                }
            }
            answer.unwrap_or_else(|| Verdict::Unknown(reasons.join("; ")))
        })
    }
}
