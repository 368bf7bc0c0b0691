//! The engines a user can choose to check a property with, and the engine each choice means.

use std::time::Duration;

use crate::bmc::Bmc;
use crate::engine::Engine;
use crate::ic3::Ic3;
use crate::kind::Kind;
use crate::portfolio::{EngineKind, Portfolio};
use crate::reach::Reach;

/// An engine as a user names it (`hypermut prove --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// IC3/PDR: complete, with an invariant certificate for safe answers.
    Ic3,
    /// Bounded model checking without a bound: finds counterexamples only.
    Bmc,
    /// k-induction with simple-path constraints: complete, no certificate.
    Kind,
    /// BDD reachability: complete while its BDDs stay small, with an invariant certificate.
    Bdd,
    /// BDD reachability and IC3, BMC and k-induction on threads; the first answer wins.
    Portfolio,
}

impl EngineChoice {
    /// Whether a safe answer of this choice can carry an invariant certificate.
    pub fn certifies(self) -> bool {
        !matches!(self, EngineChoice::Kind)
    }

    /// The engine this choice means, stopping after `time_limit`. A portfolio runs at most
    /// `jobs` engines (when `None`, one per processor the system offers); with
    /// `certificates`, only engines whose proofs have certificates.
    pub fn engine(
        self,
        time_limit: Option<Duration>,
        jobs: Option<usize>,
        certificates: bool,
    ) -> Box<dyn Engine> {
        match self {
            EngineChoice::Ic3 => Box::new(Ic3::new(time_limit)),
            EngineChoice::Bmc => Box::new(Bmc {
                max_bound: usize::MAX,
                time_limit,
            }),
            EngineChoice::Kind => Box::new(Kind {
                time_limit,
                ..Kind::default()
            }),
            EngineChoice::Bdd => Box::new(Reach {
                time_limit,
                ..Reach::default()
            }),
            EngineChoice::Portfolio => {
                let jobs = jobs.unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
                });
                let mut p = Portfolio::with_jobs(jobs, time_limit);
                if certificates {
                    p.engines.retain(|e| *e != EngineKind::Kind);
                }
                Box::new(p)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::Certificate;
    use crate::verdict::Verdict;
    use hypermut_aig::{Aig, Named, Reset};

    /// A 2-bit counter with bad "counter = 3" (depth 3) or, with `never`, "counter = 3 and a
    /// constant-0 latch" (unreachable).
    fn counter(never: bool) -> Aig {
        let mut g = Aig::new();
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        let z = g.add_latch("z", Reset::Zero);
        let nb = g.xor(a, b);
        g.set_next(a, !a);
        g.set_next(b, nb);
        let three = g.and(a, b);
        let lit = if never { g.and(three, z) } else { three };
        g.bad.push(Named {
            lit,
            name: "bad".into(),
        });
        g
    }

    #[test]
    fn every_choice_finds_the_counterexample_and_the_complete_ones_prove_safety() {
        let limit = Some(Duration::from_secs(5));
        for choice in [
            EngineChoice::Ic3,
            EngineChoice::Bmc,
            EngineChoice::Kind,
            EngineChoice::Bdd,
            EngineChoice::Portfolio,
        ] {
            let unsafe_verdict = choice.engine(limit, None, false).check(&counter(false));
            match unsafe_verdict {
                Verdict::Unsafe(w) => assert_eq!(w.inputs.len(), 4, "{choice:?}"),
                v => panic!("{choice:?}: {v:?}"),
            }
            let short = Some(Duration::from_millis(300));
            let safe = choice
                .engine(short, None, choice.certifies())
                .check(&counter(true));
            match (choice, safe) {
                (EngineChoice::Bmc, Verdict::Unknown(_)) => {}
                (EngineChoice::Bmc, v) => panic!("BMC cannot prove safety: {v:?}"),
                (_, Verdict::Safe(cert)) => assert_eq!(
                    choice.certifies(),
                    !matches!(cert, Certificate::KInduction { .. }),
                    "{choice:?}"
                ),
                (_, v) => panic!("{choice:?}: {v:?}"),
            }
        }
    }
}
