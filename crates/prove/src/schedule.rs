//! Engine schedules: several engines run one after another on the same problem, sharing one
//! [`Limits`] (so the whole schedule has one deadline), with the stage that answered.
//!
//! The schedule `testgen` uses for each mutant is [`Schedule::bmc_then_ic3`]: BMC up to a
//! bound finds the shortest killing tests first; what BMC leaves open goes to IC3, which
//! finds deeper tests or proves equivalence.

use hypermut_aig::Aig;

use crate::bmc::Bmc;
use crate::engine::Engine;
use crate::ic3::{Ic3, Ic3Options};
use crate::limits::Limits;
use crate::verdict::Verdict;

/// One stage of a [`Schedule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// BMC of depths `0..=bound` (finds counterexamples only).
    Bmc {
        /// Deepest frame searched.
        bound: usize,
    },
    /// IC3/PDR with the given options (complete).
    Ic3(Ic3Options),
}

impl Stage {
    /// The stage's engine name, as results record it (`bmc`, `ic3`).
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Bmc { .. } => "bmc",
            Stage::Ic3(_) => "ic3",
        }
    }

    fn check(&self, aig: &Aig, limits: &Limits) -> Verdict {
        match self {
            Stage::Bmc { bound } => Bmc::new(*bound).check_limited(aig, limits),
            Stage::Ic3(options) => Ic3 {
                options: options.clone(),
                time_limit: None,
            }
            .check_limited(aig, limits),
        }
    }
}

/// Engines run in sequence until one gives a definite answer or the limits are reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The stages, in order.
    pub stages: Vec<Stage>,
}

/// What a schedule answered and which stage answered last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The verdict of the last stage that ran.
    pub verdict: Verdict,
    /// Index in [`Schedule::stages`] of the last stage that ran (`None` when none ran).
    pub stage: Option<usize>,
}

impl Schedule {
    /// BMC to `bound`, then (when `prove`) IC3 with default options.
    pub fn bmc_then_ic3(bound: usize, prove: bool) -> Self {
        let mut stages = vec![Stage::Bmc { bound }];
        if prove {
            stages.push(Stage::Ic3(Ic3Options::default()));
        }
        Schedule { stages }
    }

    /// Runs the stages in order: a later stage starts only when the earlier ones answered
    /// `Unknown` and the limits are not reached yet.
    pub fn run(&self, aig: &Aig, limits: &Limits) -> Scheduled {
        let mut last = Scheduled {
            verdict: Verdict::Unknown("no engine ran".into()),
            stage: None,
        };
        for (k, stage) in self.stages.iter().enumerate() {
            if k > 0 && limits.reached() {
                break;
            }
            last = Scheduled {
                verdict: stage.check(aig, limits),
                stage: Some(k),
            };
            if !matches!(last.verdict, Verdict::Unknown(_)) {
                break;
            }
        }
        last
    }

    /// The name of stage `k` (`bmc`, `ic3`), if there is one.
    pub fn stage_name(&self, k: Option<usize>) -> Option<&'static str> {
        k.and_then(|k| self.stages.get(k)).map(Stage::name)
    }
}

impl Engine for Schedule {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.run(aig, &Limits::none()).verdict
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        self.run(aig, limits).verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{Named, Reset};
    use std::time::Duration;

    /// A 3-bit counter from 0 whose bad state is `counter = 7` when `reach` (depth 7), or a
    /// state it never reaches (counter = 7 and a constant-0 latch) otherwise.
    fn counter(reach: bool) -> Aig {
        let mut g = Aig::new();
        let bits: Vec<_> = (0..3)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let z = g.add_latch("z", Reset::Zero);
        let mut carry = hypermut_aig::Lit::TRUE;
        for &b in &bits {
            let next = g.xor(b, carry);
            carry = g.and(b, carry);
            g.set_next(b, next);
        }
        let seven = g.and(bits[0], bits[1]);
        let seven = g.and(seven, bits[2]);
        let bad = if reach { seven } else { g.and(seven, z) };
        g.bad.push(Named {
            lit: bad,
            name: "bad".into(),
        });
        g
    }

    #[test]
    fn bmc_answers_within_its_bound_and_ic3_after_it() {
        let s = Schedule::bmc_then_ic3(10, true);
        let r = s.run(&counter(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));

        // Bound 3 < 7: BMC gives up, IC3 finds the counterexample.
        let s = Schedule::bmc_then_ic3(3, true);
        let r = s.run(&counter(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));

        // Unreachable: only IC3 can say so.
        let r = s.run(&counter(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));

        // Without the proof stage the answer stays open.
        let s = Schedule::bmc_then_ic3(3, false);
        let r = s.run(&counter(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));
    }

    #[test]
    fn a_reached_deadline_stops_before_the_next_stage() {
        let s = Schedule::bmc_then_ic3(3, true);
        let r = s.run(&counter(false), &Limits::timeout(Some(Duration::ZERO)));
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));
    }
}
