//! All values some literals can take, frame by frame, by SAT with blocking clauses: the
//! outputs a run may produce at a step of a test once the earlier steps are fixed (the
//! allowed outputs of `docs/method.md` §4.1.1).
//!
//! One incremental solver holds the unrolling. What frame `j` is asked under (the constraints
//! of frames `0..=j`, the fixed inputs, the fixed literals of earlier frames) holds for every
//! later frame too, so it is added as unit clauses, not assumptions: a long test's prefix is
//! propagated once, not again at every call. The blocking clauses of a frame are guarded by
//! an activation literal of their frame and switched off for good afterwards.

use std::time::Instant;

use hypermut_aig::{Aig, Lit};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit as SatLit, TernaryVal};

use crate::bmc::{new_solver, BmcError};
use crate::unroll::{InitMode, UnrollError, Unroller};

/// The distinct valuations of the watched literals in one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Enumerated {
    /// The valuations found (each in the order of the watched literals), sorted; at most
    /// `cap` of them.
    pub values: Vec<Vec<bool>>,
    /// Whether more valuations exist than `values` lists (there were more than `cap`).
    pub capped: bool,
}

/// For every frame `j` in `0..=depth`, the distinct valuations of `watch` in frame `j` over
/// all runs of `aig` (from its reset state; [`hypermut_aig::Reset::Free`] latches start
/// anywhere) in which
///
/// * input `i` has value `fixed_inputs[f][i]` in every frame `f ≤ j` where that is `Some`
///   (`None`, missing entries and missing frames are free),
/// * every pair `(lit, value)` of `fixed_lits[f]` holds in every frame `f < j`,
/// * every AIGER constraint holds in frames `0..=j` (later frames are not looked at).
///
/// At most `cap` valuations are listed per frame; `capped` says whether there are more. A
/// frame no run reaches has no valuation. Stops with [`BmcError::Interrupted`] at `deadline`.
pub fn values_per_frame(
    aig: &Aig,
    fixed_inputs: &[Vec<Option<bool>>],
    fixed_lits: &[Vec<(Lit, bool)>],
    watch: &[Lit],
    depth: usize,
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Vec<Enumerated>, BmcError> {
    let roots: Vec<Lit> = watch
        .iter()
        .copied()
        .chain(aig.constraints.iter().map(|c| c.lit))
        .chain(fixed_lits.iter().take(depth).flatten().map(|(l, _)| *l))
        .collect();
    let mut u = Unroller::new(aig, &roots, InitMode::Reset)?;
    let mut solver = new_solver(deadline);
    let mut frames = Vec::with_capacity(depth + 1);
    for j in 0..=depth {
        let k = u.add_frame(&mut solver)?;
        for c in &aig.constraints {
            solver.add_unit(u.lit(k, c.lit)?).map_err(solver_err)?;
        }
        let values = fixed_inputs.get(k).map(Vec::as_slice).unwrap_or(&[]);
        for (input, value) in aig.inputs.iter().zip(values) {
            // An input outside the cone of influence cannot matter.
            if let (Some(v), Ok(l)) = (value, u.lit(k, input.lit)) {
                solver
                    .add_unit(if *v { l } else { !l })
                    .map_err(solver_err)?;
            }
        }
        let watched = watch
            .iter()
            .map(|w| u.lit(k, *w))
            .collect::<Result<Vec<_>, _>>()?;
        let active = u.new_var().pos_lit();
        frames.push(enumerate_frame(
            &mut solver,
            active,
            &watched,
            cap,
            deadline,
        )?);
        // The blocking clauses of this frame never apply again.
        solver.add_unit(!active).map_err(solver_err)?;
        for (lit, value) in fixed_lits.get(j).into_iter().flatten() {
            let l = u.lit(k, *lit)?;
            solver
                .add_unit(if *value { l } else { !l })
                .map_err(solver_err)?;
        }
    }
    Ok(frames)
}

/// The valuations of `watched`, each blocked (guarded by `active`) once found.
fn enumerate_frame<S: SolveIncremental>(
    solver: &mut S,
    active: SatLit,
    watched: &[SatLit],
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Enumerated, BmcError> {
    let assumptions = [active];
    let mut found = Enumerated::default();
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(BmcError::Interrupted);
        }
        match solver.solve_assumps(&assumptions).map_err(solver_err)? {
            SolverResult::Unsat => break,
            SolverResult::Interrupted => return Err(BmcError::Interrupted),
            SolverResult::Sat if found.values.len() == cap => {
                found.capped = true;
                break;
            }
            SolverResult::Sat => {
                let mut valuation = Vec::with_capacity(watched.len());
                for l in watched {
                    valuation.push(solver.lit_val(*l).map_err(solver_err)? == TernaryVal::True);
                }
                let block: Clause = std::iter::once(!active)
                    .chain(
                        watched
                            .iter()
                            .zip(&valuation)
                            .map(|(l, v)| if *v { !*l } else { *l }),
                    )
                    .collect();
                solver.add_clause(block).map_err(solver_err)?;
                found.values.push(valuation);
            }
        }
    }
    found.values.sort();
    Ok(found)
}

fn solver_err(e: impl std::fmt::Display) -> BmcError {
    BmcError::Unroll(UnrollError::Solver(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{Named, Reset};

    /// Every valuation of `n` bits, in the sorted order [`values_per_frame`] lists them.
    fn all_valuations(n: usize) -> Vec<Vec<bool>> {
        let mut v: Vec<Vec<bool>> = (0..1u32 << n)
            .map(|x| (0..n).map(|i| x >> i & 1 == 1).collect())
            .collect();
        v.sort();
        v
    }

    /// Two free inputs per frame, both visible as outputs; a latch remembers input `a`.
    fn two_inputs() -> (Aig, [Lit; 3]) {
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        let seen = g.add_latch("seen", Reset::Zero);
        g.set_next(seen, a);
        (g, [a, b, seen])
    }

    #[test]
    fn free_inputs_give_every_valuation() {
        let (g, [a, b, _]) = two_inputs();
        let got = values_per_frame(&g, &[], &[], &[a, b], 3, 10, None).expect("enumerates");
        assert_eq!(got.len(), 4);
        for e in &got {
            assert_eq!(e.values, all_valuations(2));
            assert!(!e.capped);
        }
    }

    #[test]
    fn the_cap_is_respected_and_reported() {
        let (g, [a, b, _]) = two_inputs();
        for cap in 0..=5 {
            let got = values_per_frame(&g, &[], &[], &[a, b], 1, cap, None).expect("enumerates");
            for e in &got {
                assert_eq!(e.values.len(), cap.min(4), "cap {cap}");
                assert_eq!(e.capped, cap < 4, "cap {cap}");
                let all = all_valuations(2);
                assert!(e.values.iter().all(|v| all.contains(v)));
                let mut distinct = e.values.clone();
                distinct.dedup();
                assert_eq!(distinct, e.values, "no valuation twice");
            }
        }
    }

    #[test]
    fn fixed_inputs_restrict_their_frame_only() {
        let (g, [a, b, _]) = two_inputs();
        let fixed = vec![vec![Some(true), None], vec![None, Some(false)]];
        let got = values_per_frame(&g, &fixed, &[], &[a, b], 2, 10, None).expect("enumerates");
        let want: [Vec<Vec<bool>>; 3] = [
            vec![vec![true, false], vec![true, true]],
            vec![vec![false, false], vec![true, false]],
            all_valuations(2),
        ];
        for (j, w) in want.iter().enumerate() {
            assert_eq!(&got[j].values, w, "frame {j}");
        }
    }

    /// Fixing `a` in frame 0 (as an expected value, not as an input) decides the latch in
    /// frame 1 and later frames, but not in frame 0 itself.
    #[test]
    fn fixed_literals_of_earlier_frames_restrict_later_ones() {
        let (g, [a, _, seen]) = two_inputs();
        let fixed = vec![vec![(a, true)], vec![(a, false)]];
        let got = values_per_frame(&g, &[], &fixed, &[seen, a], 2, 10, None).expect("enumerates");
        let values = |e: &Enumerated| e.values.clone();
        // Frame 0: the latch is 0 and `a` is free.
        assert_eq!(values(&got[0]), vec![vec![false, false], vec![false, true]]);
        // Frame 1: `a` was 1, so the latch is 1; `a` is free now.
        assert_eq!(values(&got[1]), vec![vec![true, false], vec![true, true]]);
        // Frame 2: `a` was 0 in frame 1.
        assert_eq!(values(&got[2]), vec![vec![false, false], vec![false, true]]);
    }

    /// A constraint counts in the frames up to the one asked, not after it; a frame no run
    /// reaches has no valuation.
    #[test]
    fn constraints_hold_up_to_the_frame_asked() {
        // A 2-bit counter that counts when `en`; the constraint forbids the value 2.
        let mut g = Aig::new();
        let en = g.add_input("en");
        let q0 = g.add_latch("q0", Reset::Zero);
        let q1 = g.add_latch("q1", Reset::Zero);
        let n0 = g.xor(q0, en);
        let c0 = g.and(q0, en);
        let n1 = g.xor(q1, c0);
        g.set_next(q0, n0);
        g.set_next(q1, n1);
        let two = g.and(!q0, q1);
        g.constraints.push(Named {
            lit: !two,
            name: "not2".into(),
        });
        // Brute force over the enable sequences: the counter values of frame j on runs whose
        // constraint holds in frames 0..=j.
        let depth = 4;
        let mut want = vec![Vec::new(); depth + 1];
        for seq in 0..1u32 << depth {
            let mut q = 0u32;
            for (j, w) in want.iter_mut().enumerate() {
                if q == 2 {
                    break;
                }
                let v = vec![q & 1 == 1, q & 2 == 2];
                if !w.contains(&v) {
                    w.push(v);
                }
                if j < depth && seq >> j & 1 == 1 {
                    q = (q + 1) % 4;
                }
            }
        }
        let got = values_per_frame(&g, &[], &[], &[q0, q1], depth, 10, None).expect("enumerates");
        for (j, w) in want.iter_mut().enumerate() {
            w.sort();
            assert_eq!(&got[j].values, w, "frame {j}");
        }
        // With `en` fixed to 1, frame 2 would be 2: no run reaches it.
        let always = vec![vec![Some(true)]; depth + 1];
        let got = values_per_frame(&g, &always, &[], &[q0, q1], depth, 10, None).expect("runs");
        assert_eq!(got[1].values, vec![vec![true, false]]);
        assert!(got[2].values.is_empty() && got[3].values.is_empty());
    }

    #[test]
    fn a_passed_deadline_interrupts() {
        let (g, [a, b, _]) = two_inputs();
        let past = Some(Instant::now());
        assert!(matches!(
            values_per_frame(&g, &[], &[], &[a, b], 2, 10, past),
            Err(BmcError::Interrupted)
        ));
    }
}
