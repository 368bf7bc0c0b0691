//! BMC by leaps: questions about single deep frames instead of every frame in turn
//! (`docs/method.md` §7.2).
//!
//! Incremental BMC refutes every depth before the counterexample, one by one. On circuits
//! whose shallow frames are hard to refute (wide arithmetic, data paths behind long
//! pipelines) those refutations take the whole budget, while "is bad reachable in exactly
//! `d` steps" for a large `d` is satisfiable on most unsafe designs (once reachable, a bad
//! state is usually reachable again later, or stays reachable) and then often answered in
//! a second or two. [`LeapBmc`] asks that question for a few depths in turn, each in a
//! solver of its own with the bad state asserted; a refuted depth hands over to the next.
//! It finds counterexamples only, and not the shortest: the witness ends at the first
//! frame of the path found where bad holds.

use hypermut_aig::{check_witness, Aig};
use rustsat::solvers::{Solve, SolverResult};

use crate::backend::{default_solver, DefaultSolver};
use crate::bmc::{add_frame_with_constraints, roots, solver_err, witness, BmcError};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::{checked_witness, trivial_verdict};
use crate::unroll::{InitMode, Unroller};
use crate::verdict::Verdict;

/// BMC by leaps (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeapBmc {
    /// The depths asked about (0-based frame of the bad state), in the order asked.
    pub depths: Vec<usize>,
    /// Depths whose unrolling would exceed this many AND gates (of the cone of influence)
    /// are not asked about.
    pub max_gates: usize,
}

impl Default for LeapBmc {
    fn default() -> Self {
        LeapBmc {
            depths: vec![64, 128],
            max_gates: 1_000_000,
        }
    }
}

impl Engine for LeapBmc {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::none())
    }

    /// A counterexample along a path whose state at one of the depths is bad, cut at its
    /// first bad frame and replayed on the simulator; `Unknown` when every depth is refuted
    /// or `limits` are reached.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        if let Some(v) = trivial_verdict(aig) {
            return v;
        }
        match search(aig, self, limits) {
            Ok(Verdict::Unsafe(mut w)) => {
                if let Ok(first_bad) = check_witness(aig, &w) {
                    w.inputs.truncate(first_bad + 1);
                }
                checked_witness(aig, w)
            }
            Ok(v) => v,
            Err(e) => Verdict::Unknown(format!("BMC by leaps failed: {e}")),
        }
    }
}

/// One question: its own unrolling to `depth` with bad asserted in the last frame.
struct Probe<'a> {
    depth: usize,
    u: Unroller<'a>,
    solver: DefaultSolver,
}

impl<'a> Probe<'a> {
    /// The question for `depth`, or `None` if `limits` were reached while encoding it.
    fn new(aig: &'a Aig, depth: usize, limits: &Limits) -> Result<Option<Self>, BmcError> {
        let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
        let mut u = Unroller::new(aig, &roots(aig, bad), InitMode::Reset)?;
        let mut solver = default_solver(limits);
        while u.num_frames() <= depth {
            if limits.reached() {
                return Ok(None);
            }
            add_frame_with_constraints(&mut u, &mut solver, aig)?;
        }
        solver.add_unit(u.lit(depth, bad)?).map_err(solver_err)?;
        Ok(Some(Probe { depth, u, solver }))
    }
}

fn search(aig: &Aig, leaps: &LeapBmc, limits: &Limits) -> Result<Verdict, BmcError> {
    let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
    let per_frame = Unroller::new(aig, &roots(aig, bad), InitMode::Reset)?
        .coi_size()
        .max(1);
    let depths = leaps
        .depths
        .iter()
        .filter(|&&d| (d + 1).saturating_mul(per_frame) <= leaps.max_gates);
    for &d in depths {
        let Some(mut probe) = Probe::new(aig, d, limits)? else {
            return Ok(stopped());
        };
        match probe.solver.solve().map_err(solver_err)? {
            SolverResult::Sat => {
                let w = witness(&probe.u, &probe.solver, aig, probe.depth)?;
                return Ok(Verdict::Unsafe(w));
            }
            SolverResult::Interrupted => return Ok(stopped()),
            SolverResult::Unsat => {}
        }
    }
    Ok(Verdict::Unknown(
        "no bad state at any of the depths asked about".into(),
    ))
}

fn stopped() -> Verdict {
    Verdict::Unknown("time limit reached (BMC by leaps)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{
        assert_witness_valid, bad_at_depths, counter_to_seven, random_aig, Rng, Shape,
    };
    use std::time::Duration;

    #[test]
    fn answers_exactly_at_the_depths_asked_on_random_circuits() {
        let shape = Shape {
            inputs: 2,
            latches: 6,
            ands: 30,
            free_latches: true,
            max_constraints: 1,
            counter_bits: 3,
            bad_latches: 1,
        };
        let (mut unsafe_, mut refuted) = (0, 0);
        for seed in 1..=80u64 {
            let g = random_aig(&mut Rng::new(seed), &shape);
            let at = bad_at_depths(&g, 11);
            let depths = vec![6, 11];
            let v = LeapBmc {
                depths: depths.clone(),
                ..LeapBmc::default()
            }
            .check(&g);
            match depths.iter().find(|&&d| at[d]) {
                Some(&d) => {
                    let Verdict::Unsafe(w) = &v else {
                        panic!("seed {seed}: bad at depth {d}, got {v:?}");
                    };
                    // Cut at the path's first bad frame, at most `d` deep.
                    assert!(w.depth() <= d && at[w.depth()], "seed {seed}");
                    assert_witness_valid(&g, w);
                    unsafe_ += 1;
                }
                None => {
                    // (A bad literal that folded to false is answered as such.)
                    let trivial = g.bad[0].lit == hypermut_aig::Lit::FALSE
                        && v == Verdict::Safe(crate::Certificate::Trivial);
                    assert!(
                        matches!(v, Verdict::Unknown(_)) || trivial,
                        "seed {seed}: {v:?}"
                    );
                    refuted += 1;
                }
            }
        }
        assert!(
            unsafe_ >= 10 && refuted >= 10,
            "{unsafe_} unsafe, {refuted} refuted"
        );
    }

    #[test]
    fn a_refuted_depth_hands_over_to_the_next() {
        // Depth 64 is refuted, depth 71 is bad; the path there is bad first at depth 7.
        let g = counter_to_seven(true);
        let v = LeapBmc {
            depths: vec![64, 71],
            ..LeapBmc::default()
        }
        .check(&g);
        let Verdict::Unsafe(w) = &v else {
            panic!("not unsafe: {v:?}");
        };
        assert_eq!(w.depth(), 7);
        assert_witness_valid(&g, w);
        let v = LeapBmc {
            depths: vec![64, 128],
            ..LeapBmc::default()
        }
        .check(&g);
        assert_eq!(
            v,
            Verdict::Unknown("no bad state at any of the depths asked about".into())
        );
    }

    #[test]
    fn depths_past_the_gate_cap_or_the_limits_are_not_asked() {
        let g = counter_to_seven(true);
        // 72 frames of a cone of more than one gate are more than 72 gates.
        let v = LeapBmc {
            depths: vec![71],
            max_gates: 72,
        }
        .check(&g);
        assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
        let v = LeapBmc {
            depths: vec![71],
            ..LeapBmc::default()
        }
        .check_limited(&g, &Limits::timeout(Some(Duration::ZERO)));
        assert_eq!(v, stopped());
    }
}
