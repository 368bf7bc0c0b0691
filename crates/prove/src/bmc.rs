//! Bounded model checking: incremental search for the shortest counterexample.
//!
//! The search ([`bmc_depth_search`]) is generic over rustsat's [`SolveIncremental`]; the
//! [`Bmc`] engine and [`check_bound`] instantiate CaDiCaL (see [`new_solver`], the one place
//! that names the backend).

use std::time::{Duration, Instant};

use hypermut_aig::{Aig, Lit, Reset, Witness};
use rustsat::solvers::{SolveIncremental, SolverResult};

use crate::backend::{default_solver, DefaultSolver};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::{checked_witness, trivial_verdict};
use crate::unroll::{InitMode, UnrollError, Unroller};
use crate::verdict::Verdict;

/// Errors of a bounded check.
#[derive(Debug, thiserror::Error)]
pub enum BmcError {
    /// The AIG has no bad-state property.
    #[error("the AIG has no bad property")]
    NoBadProperty,
    /// Encoding or solving failed.
    #[error(transparent)]
    Unroll(#[from] UnrollError),
    /// The solver stopped before answering (time limit).
    #[error("the SAT solver was interrupted")]
    Interrupted,
}

/// The SAT backend used by [`Bmc`] and [`check_bound`], stopping at `deadline`.
pub fn new_solver(deadline: Option<Instant>) -> DefaultSolver {
    default_solver(&Limits::until(deadline))
}

/// Bounded model checker for `bad[0]` under the invariant constraints. It unrolls one frame
/// per bound into a single incremental solver and reports the shortest counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bmc {
    /// Largest depth (0-based frame of the bad state) that is checked.
    pub max_bound: usize,
    /// Wall-clock limit for the whole search.
    pub time_limit: Option<Duration>,
}

impl Bmc {
    /// A checker for depths `0..=max_bound` without a time limit.
    pub fn new(max_bound: usize) -> Self {
        Bmc {
            max_bound,
            time_limit: None,
        }
    }
}

impl Engine for Bmc {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::none())
    }

    /// Like [`Engine::check`], also stopping at `limits`; the witness is replayed on the
    /// simulator before it is returned.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let mut limits = limits.clone();
        if let Some(t) = self.time_limit {
            let d = Instant::now() + t;
            limits.deadline = Some(limits.deadline.map_or(d, |e| e.min(d)));
        }
        if let Some(v) = trivial_verdict(aig) {
            return v;
        }
        let mut solver = default_solver(&limits);
        match bmc_search_limited(aig, &mut solver, self.max_bound, &limits) {
            Verdict::Unsafe(w) => checked_witness(aig, w),
            v => v,
        }
    }
}

/// Searches depths `0..=max_bound` in increasing order with one incremental `solver` (which
/// must be fresh) and returns `Unsafe` with a witness of the smallest depth at which `bad[0]`
/// holds while every constraint holds in all frames up to and including that one (AIGER 1.9
/// semantics). Returns `Unknown` when the bound or `deadline` is reached, and `Safe` only
/// for a constant-false bad literal.
pub fn bmc_depth_search<S: SolveIncremental>(
    aig: &Aig,
    solver: &mut S,
    max_bound: usize,
    deadline: Option<Instant>,
) -> Verdict {
    let limits = Limits::until(deadline);
    bmc_search_limited(aig, solver, max_bound, &limits)
}

/// [`bmc_depth_search`] that stops when `limits` are reached (checked between bounds; the
/// solver itself must be made to stop by its terminator).
pub fn bmc_search_limited<S: SolveIncremental>(
    aig: &Aig,
    solver: &mut S,
    max_bound: usize,
    limits: &Limits,
) -> Verdict {
    if let Some(v) = trivial_verdict(aig) {
        return v;
    }
    match search(aig, solver, max_bound, limits, &mut |_| {}) {
        Ok(v) => v,
        Err(e) => Verdict::Unknown(format!("BMC failed: {e}")),
    }
}

/// BMC of depths `0..=max_bound` that goes on only while frames are cheap: each frame's
/// question may take at most `per_frame` conflicts, and the first that needs more ends the
/// search (`Unknown`). Deep counterexamples of circuits whose frames are easy (counters,
/// timers) are found in milliseconds, while on circuits where deep frames are hard the search
/// gives its time back at once (`docs/method.md` §7.4). The witness is replayed on the
/// simulator before it is returned.
pub fn bmc_while_cheap(aig: &Aig, max_bound: usize, limits: &Limits, per_frame: u32) -> Verdict {
    if let Some(v) = trivial_verdict(aig) {
        return v;
    }
    let mut solver = default_solver(limits);
    match search(aig, &mut solver, max_bound, limits, &mut |s| {
        s.limit_conflicts(per_frame)
    }) {
        Ok(Verdict::Unsafe(w)) => checked_witness(aig, w),
        Ok(v) => v,
        Err(e) => Verdict::Unknown(format!("BMC failed: {e}")),
    }
}

/// Whether `reason`, the `Unknown` of a bounded BMC search to `bound`, says that every frame
/// up to the bound was searched (no counterexample of at most `bound` + 1 steps exists).
pub(crate) fn searched_whole_bound(reason: &str, bound: usize) -> bool {
    reason == format!("no counterexample up to bound {bound}")
}

/// The deepest bound that `reason`, the `Unknown` of a bounded BMC search, says was searched
/// in full (no counterexample of at most that many + 1 steps), if it says one was.
pub(crate) fn searched_up_to(reason: &str) -> Option<usize> {
    let (_, after) = reason.rsplit_once("no counterexample up to bound ")?;
    let digits = after
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(after.len());
    after[..digits].parse().ok()
}

fn checked_up_to(k: usize) -> String {
    match k.checked_sub(1) {
        Some(last) => format!("no counterexample up to bound {last}"),
        None => "no bound checked".into(),
    }
}

/// The search of [`bmc_search_limited`]; `before_solve` may set a limit on the next solve,
/// and a solve it interrupts before `limits` are reached ends the search.
fn search<S: SolveIncremental>(
    aig: &Aig,
    solver: &mut S,
    max_bound: usize,
    limits: &Limits,
    before_solve: &mut dyn FnMut(&mut S),
) -> Result<Verdict, BmcError> {
    let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
    let mut u = Unroller::new(aig, &roots(aig, bad), InitMode::Reset)?;
    for k in 0..=max_bound {
        if limits.reached() {
            return Ok(Verdict::Unknown(format!(
                "time limit reached; {}",
                checked_up_to(k)
            )));
        }
        add_frame_with_constraints(&mut u, solver, aig)?;
        let b = u.lit(k, bad)?;
        before_solve(solver);
        match solver.solve_assumps(&[b]).map_err(solver_err)? {
            SolverResult::Sat => return Ok(Verdict::Unsafe(witness(&u, solver, aig, k)?)),
            SolverResult::Interrupted if !limits.reached() => {
                return Ok(Verdict::Unknown(format!(
                    "frame {k} needs more than the conflicts allowed per frame; {}",
                    checked_up_to(k)
                )))
            }
            SolverResult::Interrupted => {
                return Ok(Verdict::Unknown(format!(
                    "time limit reached; {}",
                    checked_up_to(k)
                )))
            }
            SolverResult::Unsat => {
                if solver.core().map_err(solver_err)?.is_empty() {
                    // The constraints alone cannot hold for k+1 frames, so no deeper bad
                    // state exists either.
                    return Ok(Verdict::Unknown(format!(
                        "the constraints cannot hold in frames 0..={k}, so bad is unreachable \
                         (no certificate kind for this; no counterexample up to bound {k})"
                    )));
                }
                // Every later counterexample passes frame k with the constraints holding,
                // so bad is false there: a sound strengthening.
                solver.add_unit(!b).map_err(solver_err)?;
            }
        }
    }
    Ok(Verdict::Unknown(format!(
        "no counterexample up to bound {max_bound}"
    )))
}

/// Checks the single depth `k`: a witness whose bad state is exactly frame `k` (bad may also
/// hold earlier), with all constraints holding in frames `0..=k`, or `None` if there is none.
pub fn check_bound(aig: &Aig, k: usize) -> Result<Option<Witness>, BmcError> {
    let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
    let mut solver = new_solver(None);
    let mut u = Unroller::new(aig, &roots(aig, bad), InitMode::Reset)?;
    for _ in 0..=k {
        add_frame_with_constraints(&mut u, &mut solver, aig)?;
    }
    let b = u.lit(k, bad)?;
    match solver.solve_assumps(&[b]).map_err(solver_err)? {
        SolverResult::Sat => Ok(Some(witness(&u, &solver, aig, k)?)),
        SolverResult::Unsat => Ok(None),
        SolverResult::Interrupted => Err(BmcError::Interrupted),
    }
}

/// Whether `bad[0]` can hold in frame `k` (with every constraint holding in frames `0..=k`)
/// when input `i` takes value `fixed[f][i]` in frame `f` wherever that is `Some` (frames past
/// `fixed.len()` and `None` entries are free). The witness when it can; stops at `deadline`.
pub fn check_bound_fixed(
    aig: &Aig,
    k: usize,
    fixed: &[Vec<Option<bool>>],
    deadline: Option<Instant>,
) -> Result<Option<Witness>, BmcError> {
    let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
    let mut solver = new_solver(deadline);
    let mut u = Unroller::new(aig, &roots(aig, bad), InitMode::Reset)?;
    let mut assumptions = Vec::new();
    for f in 0..=k {
        // A long test's frames take long to encode: the deadline holds here too.
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(BmcError::Interrupted);
        }
        add_frame_with_constraints(&mut u, &mut solver, aig)?;
        let values = fixed.get(f).map(Vec::as_slice).unwrap_or(&[]);
        for (input, value) in aig.inputs.iter().zip(values) {
            // An input outside the cone of influence cannot matter.
            if let (Some(v), Ok(l)) = (value, u.lit(f, input.lit)) {
                assumptions.push(if *v { l } else { !l });
            }
        }
    }
    assumptions.push(u.lit(k, bad)?);
    match solver.solve_assumps(&assumptions).map_err(solver_err)? {
        SolverResult::Sat => Ok(Some(witness(&u, &solver, aig, k)?)),
        SolverResult::Unsat => Ok(None),
        SolverResult::Interrupted => Err(BmcError::Interrupted),
    }
}

/// The literals whose cone BMC needs: the bad property and every constraint.
pub(crate) fn roots(aig: &Aig, bad: Lit) -> Vec<Lit> {
    std::iter::once(bad)
        .chain(aig.constraints.iter().map(|c| c.lit))
        .collect()
}

/// Encodes the next frame and asserts every constraint in it permanently (inputs a
/// constraint fixes on its own are constants of the frame: [`Unroller::add_frame_under`]).
pub(crate) fn add_frame_with_constraints<S: SolveIncremental>(
    u: &mut Unroller<'_>,
    solver: &mut S,
    aig: &Aig,
) -> Result<usize, BmcError> {
    let constraints: Vec<Lit> = aig.constraints.iter().map(|c| c.lit).collect();
    let k = u.add_frame_under(solver, &constraints)?;
    for c in &aig.constraints {
        solver.add_unit(u.lit(k, c.lit)?).map_err(solver_err)?;
    }
    Ok(k)
}

pub(crate) fn solver_err(e: impl std::fmt::Display) -> BmcError {
    BmcError::Unroll(UnrollError::Solver(e.to_string()))
}

/// Reads a witness of depth `k` from the solver's model. Constant resets are reported as
/// such; latches and inputs outside the cone of influence are reported as 0.
pub(crate) fn witness<S: SolveIncremental>(
    u: &Unroller<'_>,
    solver: &S,
    aig: &Aig,
    k: usize,
) -> Result<Witness, BmcError> {
    let init = aig
        .latches
        .iter()
        .map(|l| match l.reset {
            Reset::Zero => Ok(Some(false)),
            Reset::One => Ok(Some(true)),
            Reset::Free => Ok(Some(u.value(solver, 0, l.lit)?.unwrap_or(false))),
        })
        .collect::<Result<Vec<_>, UnrollError>>()?;
    let inputs = (0..=k)
        .map(|f| {
            aig.inputs
                .iter()
                .map(|i| Ok(Some(u.value(solver, f, i.lit)?.unwrap_or(false))))
                .collect::<Result<Vec<_>, UnrollError>>()
        })
        .collect::<Result<Vec<_>, UnrollError>>()?;
    Ok(Witness {
        properties: vec!["b0".into()],
        init,
        inputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{
        assert_witness_valid, random_aig, shortest_depth, without_free_latches, write_binary_aiger,
        Rng, Shape,
    };
    use crate::Certificate;
    use hypermut_aig::Named;
    use hypermut_testkit::{abc, have};

    fn named(lit: Lit) -> Named {
        Named {
            lit,
            name: String::new(),
        }
    }

    /// Runs BMC and checks every witness by simulation; returns the depth if unsafe.
    fn bmc_depth(aig: &Aig, max_bound: usize) -> Option<usize> {
        match Bmc::new(max_bound).check(aig) {
            Verdict::Unsafe(w) => {
                assert_witness_valid(aig, &w);
                Some(w.depth())
            }
            Verdict::Unknown(msg) => {
                assert!(!msg.contains("failed"), "{msg}");
                None
            }
            Verdict::Safe(c) => {
                assert_eq!(c, Certificate::Trivial);
                assert_eq!(aig.bad[0].lit, Lit::FALSE);
                None
            }
        }
    }

    /// An n-bit counter that increments when `enable` is true (or always, if `None`).
    fn counter(g: &mut Aig, bits: usize, enable: Option<Lit>) -> Vec<Lit> {
        let q: Vec<Lit> = (0..bits)
            .map(|i| g.add_latch(format!("q{i}"), Reset::Zero))
            .collect();
        let mut carry = enable.unwrap_or(Lit::TRUE);
        for &b in &q {
            let n = g.xor(b, carry);
            carry = g.and(b, carry);
            g.set_next(b, n);
        }
        q
    }

    #[test]
    fn two_bit_counter_reaches_three_at_depth_three() {
        let mut g = Aig::new();
        let q = counter(&mut g, 2, None);
        let bad = g.and(q[0], q[1]);
        g.bad.push(named(bad));
        assert_eq!(bmc_depth(&g, 10), Some(3));
        assert_eq!(bmc_depth(&g, 2), None);
    }

    #[test]
    fn bmc_while_cheap_goes_deep_on_easy_frames_and_stops_on_a_hard_one() {
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let mut g = Aig::new();
        let q = counter(&mut g, 6, None);
        let bad = g.and_all(q.iter().copied());
        g.bad.push(named(bad));
        match bmc_while_cheap(&g, 1000, &limits, 10_000) {
            Verdict::Unsafe(w) => {
                assert_witness_valid(&g, &w);
                assert_eq!(w.depth(), 63);
            }
            v => panic!("{v:?}"),
        }
        // Frame 0 asks for 6 pigeons in 5 holes, one per hole: unsatisfiable, and no SAT
        // solver refutes it in a handful of conflicts.
        let mut g = Aig::new();
        let p: Vec<Vec<Lit>> = (0..6)
            .map(|i| (0..5).map(|j| g.add_input(format!("p{i}_{j}"))).collect())
            .collect();
        let mut all = Vec::new();
        for row in &p {
            let none = g.and_all(row.iter().map(|&l| !l));
            all.push(!none);
        }
        for hole in 0..5 {
            let column: Vec<Lit> = p.iter().map(|row| row[hole]).collect();
            for (i, &a) in column.iter().enumerate() {
                for &b in &column[i + 1..] {
                    let both = g.and(a, b);
                    all.push(!both);
                }
            }
        }
        let bad = g.and_all(all);
        g.bad.push(named(bad));
        match bmc_while_cheap(&g, 1000, &limits, 10) {
            Verdict::Unknown(why) => assert!(why.contains("conflicts allowed per frame"), "{why}"),
            v => panic!("{v:?}"),
        }
        // Without the limit, frame 0 is refuted and the next frames follow.
        assert_eq!(bmc_depth(&g, 2), None);
    }

    #[test]
    fn deep_counter_is_found_at_the_exact_depth() {
        let mut g = Aig::new();
        let q = counter(&mut g, 6, None);
        let bad = g.and_all(q.iter().copied());
        g.bad.push(named(bad));
        assert_eq!(bmc_depth(&g, 100), Some(63));
    }

    #[test]
    fn input_toggled_latch_is_bad_at_depth_one() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let l = g.add_latch("l", Reset::Zero);
        let n = g.xor(l, x);
        g.set_next(l, n);
        g.bad.push(named(l));
        let Verdict::Unsafe(w) = Bmc::new(5).check(&g) else {
            panic!("expected a counterexample");
        };
        assert_witness_valid(&g, &w);
        assert_eq!(w.depth(), 1);
        assert_eq!(w.init, vec![Some(false)]);
        assert_eq!(w.inputs[0], vec![Some(true)]);
    }

    #[test]
    fn unreachable_bad_gives_unknown_with_the_bound() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        g.set_next(a, x);
        g.set_next(b, x);
        let bad = g.xor(a, b);
        g.bad.push(named(bad));
        match Bmc::new(7).check(&g) {
            Verdict::Unknown(m) => assert_eq!(m, "no counterexample up to bound 7"),
            v => panic!("unexpected {v:?}"),
        }
    }

    #[test]
    fn bad_needing_a_constraint_violation_is_unreachable() {
        // bad = l, l' = x, constraint ¬x: x would have to be 1 in an earlier frame.
        let mut g = Aig::new();
        let x = g.add_input("x");
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, x);
        g.bad.push(named(l));
        g.constraints.push(named(!x));
        assert_eq!(bmc_depth(&g, 6), None);
        assert_eq!(shortest_depth(&g, 6), None);
        // Without the constraint it is reachable at depth 1.
        g.constraints.clear();
        assert_eq!(bmc_depth(&g, 6), Some(1));
    }

    #[test]
    fn constraint_must_hold_in_the_bad_frame_itself() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        g.bad.push(named(x));
        g.constraints.push(named(!x));
        assert_eq!(bmc_depth(&g, 4), None);
    }

    #[test]
    fn constraints_restrict_the_inputs_of_a_witness() {
        // Counter with enable; the constraint forces enable in every frame.
        let mut g = Aig::new();
        let en = g.add_input("en");
        let q = counter(&mut g, 2, Some(en));
        let bad = g.and(q[0], q[1]);
        g.bad.push(named(bad));
        g.constraints.push(named(en));
        let Verdict::Unsafe(w) = Bmc::new(10).check(&g) else {
            panic!("expected a counterexample");
        };
        assert_witness_valid(&g, &w);
        assert_eq!(w.depth(), 3);
        assert!(w.inputs.iter().all(|v| v == &vec![Some(true)]));
    }

    #[test]
    fn unsatisfiable_constraints_stop_the_search() {
        // From frame 1 on the constraint ¬l fails (l' = 1); bad never holds in frame 0.
        let mut g = Aig::new();
        let x = g.add_input("x");
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, Lit::TRUE);
        g.bad.push(named(x));
        g.constraints.push(named(!l));
        g.constraints.push(named(!x));
        match Bmc::new(50).check(&g) {
            Verdict::Unknown(m) => assert!(m.contains("constraints cannot hold in frames 0..=1")),
            v => panic!("unexpected {v:?}"),
        }
    }

    #[test]
    fn uninitialised_latch_is_bad_at_depth_zero() {
        let mut g = Aig::new();
        let l = g.add_latch("l", Reset::Free);
        g.set_next(l, l);
        g.bad.push(named(l));
        let Verdict::Unsafe(w) = Bmc::new(3).check(&g) else {
            panic!("expected a counterexample");
        };
        assert_witness_valid(&g, &w);
        assert_eq!(w.depth(), 0);
        assert_eq!(w.init, vec![Some(true)]);
        assert_eq!(w.inputs, vec![Vec::<Option<bool>>::new()]);
    }

    #[test]
    fn trivial_properties() {
        let mut g = Aig::new();
        assert!(matches!(Bmc::new(3).check(&g), Verdict::Unknown(_)));
        g.bad.push(named(Lit::FALSE));
        assert_eq!(Bmc::new(3).check(&g), Verdict::Safe(Certificate::Trivial));
        g.bad[0].lit = Lit::TRUE;
        assert_eq!(bmc_depth(&g, 3), Some(0));
    }

    #[test]
    fn inputs_and_latches_outside_the_cone_are_zero() {
        let mut g = Aig::new();
        let y = g.add_input("y");
        let x = g.add_input("x");
        let m = g.add_latch("m", Reset::Free);
        g.set_next(m, y);
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, x);
        g.bad.push(named(l));
        let Verdict::Unsafe(w) = Bmc::new(3).check(&g) else {
            panic!("expected a counterexample");
        };
        assert_witness_valid(&g, &w);
        assert_eq!(w.init, vec![Some(false), Some(false)]);
        // y is outside the cone; x matters only in frame 0.
        assert_eq!(w.inputs[0], vec![Some(false), Some(true)]);
        assert_eq!(w.inputs[1][0], Some(false));
    }

    #[test]
    fn zero_time_limit_gives_unknown() {
        let mut g = Aig::new();
        let q = counter(&mut g, 3, None);
        let bad = g.and_all(q.iter().copied());
        g.bad.push(named(bad));
        let mut e = Bmc {
            max_bound: 100,
            time_limit: Some(Duration::ZERO),
        };
        match e.check(&g) {
            Verdict::Unknown(m) => assert!(m.starts_with("time limit reached"), "{m}"),
            v => panic!("unexpected {v:?}"),
        }
    }

    #[test]
    fn fixed_inputs_restrict_the_search() {
        // bad: input `a` was true in frame 0 (latch) and `b` is true now.
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        let seen = g.add_latch("seen", Reset::Zero);
        g.set_next(seen, a);
        let bad = g.and(seen, b);
        g.bad.push(named(bad));
        assert!(check_bound_fixed(&g, 1, &[], None)
            .expect("no error")
            .is_some());
        let a_false = vec![vec![Some(false), None]];
        assert!(check_bound_fixed(&g, 1, &a_false, None)
            .expect("no error")
            .is_none());
        let both = vec![vec![Some(true), None], vec![None, Some(true)]];
        let w = check_bound_fixed(&g, 1, &both, None)
            .expect("no error")
            .expect("reachable");
        assert_eq!(w.inputs[0][0], Some(true));
        assert_eq!(w.inputs[1][1], Some(true));
        let b_false = vec![vec![Some(true), None], vec![None, Some(false)]];
        assert!(check_bound_fixed(&g, 1, &b_false, None)
            .expect("no error")
            .is_none());
        // A deadline already passed stops it before any frame is encoded.
        let past = Some(std::time::Instant::now());
        assert!(matches!(
            check_bound_fixed(&g, 1, &both, past),
            Err(BmcError::Interrupted)
        ));
    }

    #[test]
    fn check_bound_checks_one_exact_depth() {
        let mut g = Aig::new();
        let q = counter(&mut g, 2, None);
        let bad = g.and(q[0], q[1]);
        g.bad.push(named(bad));
        for k in 0..9 {
            let w = check_bound(&g, k).expect("no error");
            assert_eq!(w.is_some(), k % 4 == 3, "bound {k}");
            if let Some(w) = w {
                assert_eq!(w.depth(), k);
                // bad also held at k-4, so only the last frame and constraints are checked.
                assert!(shortest_depth(&g, k) == Some(3));
            }
        }
        assert!(matches!(
            check_bound(&Aig::new(), 0),
            Err(BmcError::NoBadProperty)
        ));
    }

    /// Two random shapes: fully random next-state functions (shallow), and a 3-bit counter
    /// with a random enable inside random logic (deeper). Both with free latches and
    /// constraints.
    fn shapes() -> [Shape; 2] {
        let base = |counter_bits, bad_latches| Shape {
            inputs: 3,
            latches: 4,
            ands: 20,
            free_latches: true,
            max_constraints: 1,
            counter_bits,
            bad_latches,
        };
        [base(0, 2), base(3, 0)]
    }

    /// Checks the depth distribution so that the random tests cannot degenerate into
    /// "always depth 0" or "never unsafe".
    fn assert_varied(depths: &[Option<usize>], min_each: usize) {
        let none = depths.iter().filter(|d| d.is_none()).count();
        let deep = depths.iter().filter(|d| d.unwrap_or(0) >= 4).count();
        let shallow = depths.iter().filter(|d| matches!(d, Some(0..=3))).count();
        assert!(
            none >= min_each && deep >= min_each && shallow >= min_each,
            "{depths:?}"
        );
    }

    /// Random AIGs against explicit-state enumeration (exact shortest depths).
    #[test]
    fn random_aigs_match_explicit_state_search() {
        let mut depths = Vec::new();
        for shape in shapes() {
            for seed in 1..=150u64 {
                let g = random_aig(&mut Rng::new(seed), &shape);
                // 4 latches: a shortest counterexample visits distinct states, so depth ≤ 15.
                let want = shortest_depth(&g, 20);
                let got = bmc_depth(&g, 20);
                assert_eq!(got, want, "seed {seed}");
                depths.push(got);
            }
        }
        assert_varied(&depths, 20);
    }

    /// Random AIGs (free latches made explicit by `without_free_latches`, since ABC treats
    /// them as 0) against ABC's `bmc3`, with constraints folded by ABC's `fold`.
    #[test]
    fn random_aigs_match_abc_bmc3() {
        if !have(abc::ABC) {
            return;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let mut depths = Vec::new();
        for shape in shapes() {
            for seed in 1000..1020u64 {
                let g = random_aig(&mut Rng::new(seed), &shape);
                // `bmc3 -F 20` checks frames 0..=19 ("No output asserted in 20 frames").
                let ours = bmc_depth(&g, 19);
                let h = without_free_latches(&g);
                assert!(h.latches.iter().all(|l| l.reset != Reset::Free));
                assert_eq!(
                    bmc_depth(&h, 19),
                    ours,
                    "seed {seed}: transformation changed depth"
                );
                let path = dir.path().join(format!("r{seed}.aig"));
                std::fs::write(&path, write_binary_aiger(&h)).expect("write AIGER");
                assert_eq!(
                    abc::bmc(&path, 20),
                    abc::Bmc::from_depth(ours),
                    "seed {seed}"
                );
                depths.push(ours);
            }
        }
        assert_varied(&depths, 3);
    }
}
