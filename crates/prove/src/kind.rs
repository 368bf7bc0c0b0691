//! k-induction with simple-path constraints (Sheeran, Singh, Stålmarck 2000), added lazily:
//! a pair of equal states is forbidden only when an induction-step model contains it.
//!
//! Base case and step run in two incremental solvers. With constraints, every frame of both
//! the base and the step paths satisfies them (AIGER semantics).

use std::time::Duration;

use hypermut_aig::{Aig, Lit};
use rustsat::solvers::{SolveIncremental, SolverResult};
use rustsat::types::Lit as SatLit;

use crate::backend::default_solver;
use crate::bmc::{add_frame_with_constraints, roots, witness, BmcError};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::{run_reduced, Proof, ReducedVerdict};
use crate::unroll::{InitMode, UnrollError, Unroller};
use crate::verdict::Verdict;

/// The k-induction engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Largest induction depth tried.
    pub max_k: usize,
    /// Add simple-path constraints (needed for completeness).
    pub simple_path: bool,
    /// Wall-clock limit for [`Engine::check`].
    pub time_limit: Option<Duration>,
}

impl Default for Kind {
    fn default() -> Self {
        Kind {
            max_k: usize::MAX,
            simple_path: true,
            time_limit: None,
        }
    }
}

impl Engine for Kind {
    fn check(&mut self, aig: &Aig) -> Verdict {
        let limits = Limits::timeout(self.time_limit);
        self.check_limited(aig, &limits)
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let (max_k, simple_path) = (self.max_k, self.simple_path);
        run_reduced(aig, limits, |reduced, limits| {
            kind_search(&reduced.aig, max_k, simple_path, limits, || {
                default_solver(limits)
            })
        })
    }
}

fn solver_err(e: impl std::fmt::Display) -> BmcError {
    BmcError::Unroll(UnrollError::Solver(e.to_string()))
}

fn solve<S: SolveIncremental>(s: &mut S, assumps: &[SatLit]) -> Result<bool, BmcError> {
    match s.solve_assumps(assumps).map_err(solver_err)? {
        SolverResult::Sat => Ok(true),
        SolverResult::Unsat => Ok(false),
        SolverResult::Interrupted => Err(BmcError::Interrupted),
    }
}

/// Runs k-induction for `k = 1, 2, …, max_k` on `aig.bad[0]` with solvers from
/// `new_solver` (which must stop at `limits`).
pub fn kind_search<S, F>(
    aig: &Aig,
    max_k: usize,
    simple_path: bool,
    limits: &Limits,
    mut new_solver: F,
) -> ReducedVerdict
where
    S: SolveIncremental,
    F: FnMut() -> S,
{
    let mut reached = 0;
    match search(
        aig,
        max_k,
        simple_path,
        limits,
        &mut new_solver,
        &mut reached,
    ) {
        Ok(o) => o,
        Err(BmcError::Interrupted) => ReducedVerdict::Unknown(format!(
            "time limit reached (k-induction: no counterexample up to depth {reached}, \
             not {}-inductive)",
            reached + 1
        )),
        Err(e) => ReducedVerdict::Unknown(format!("k-induction failed: {e}")),
    }
}

fn search<S, F>(
    aig: &Aig,
    max_k: usize,
    simple_path: bool,
    limits: &Limits,
    new_solver: &mut F,
    reached: &mut usize,
) -> Result<ReducedVerdict, BmcError>
where
    S: SolveIncremental,
    F: FnMut() -> S,
{
    let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
    let roots = roots(aig, bad);
    let mut base_solver = new_solver();
    let mut base = Unroller::new(aig, &roots, InitMode::Reset)?;
    let mut step_solver = new_solver();
    let mut step = Unroller::new(aig, &roots, InitMode::Free)?;
    let latches: Vec<Lit> = aig
        .latches
        .iter()
        .map(|l| l.lit)
        .filter(|l| step.in_coi(l.var()))
        .collect();
    add_frame_with_constraints(&mut step, &mut step_solver, aig)?;
    let mut forbidden: Vec<(usize, usize)> = Vec::new();
    for k in 0..=max_k {
        if limits.reached() {
            return Err(BmcError::Interrupted);
        }
        // Base case: a counterexample of depth k.
        add_frame_with_constraints(&mut base, &mut base_solver, aig)?;
        let b = base.lit(k, bad)?;
        if solve(&mut base_solver, &[b])? {
            return Ok(ReducedVerdict::Unsafe(witness(
                &base,
                &base_solver,
                aig,
                k,
            )?));
        }
        base_solver.add_unit(!b).map_err(solver_err)?;
        *reached = k;
        // Step: k + 2 states, bad only in the last.
        step_solver
            .add_unit(step.lit(k, !bad)?)
            .map_err(solver_err)?;
        add_frame_with_constraints(&mut step, &mut step_solver, aig)?;
        let target = step.lit(k + 1, bad)?;
        loop {
            if !solve(&mut step_solver, &[target])? {
                return Ok(ReducedVerdict::Safe(Proof::KInduction(k + 1)));
            }
            if !simple_path {
                break;
            }
            let Some(pair) = equal_states(&step, &step_solver, &latches, k + 1)? else {
                break;
            };
            if forbidden.contains(&pair) {
                // Cannot happen: the pair is already forced to differ.
                return Err(BmcError::Unroll(UnrollError::Solver(
                    "simple-path constraint violated by the model".into(),
                )));
            }
            forbid_equal(&mut step, &mut step_solver, &latches, pair)?;
            forbidden.push(pair);
        }
    }
    Ok(ReducedVerdict::Unknown(format!(
        "no counterexample up to depth {max_k} and not {}-inductive",
        max_k + 1
    )))
}

/// Two frames `i < j <= last` whose latch values agree in the solver's model, if any.
fn equal_states<S: SolveIncremental>(
    u: &Unroller<'_>,
    solver: &S,
    latches: &[Lit],
    last: usize,
) -> Result<Option<(usize, usize)>, BmcError> {
    let mut states: Vec<Vec<bool>> = Vec::with_capacity(last + 1);
    for f in 0..=last {
        let s = latches
            .iter()
            .map(|&l| Ok(u.value(solver, f, l)?.unwrap_or(false)))
            .collect::<Result<Vec<bool>, UnrollError>>()?;
        states.push(s);
    }
    for j in 1..=last {
        for i in 0..j {
            if states[i] == states[j] {
                return Ok(Some((i, j)));
            }
        }
    }
    Ok(None)
}

/// Adds `state_i ≠ state_j` permanently.
fn forbid_equal<S: SolveIncremental>(
    u: &mut Unroller<'_>,
    solver: &mut S,
    latches: &[Lit],
    (i, j): (usize, usize),
) -> Result<(), BmcError> {
    let mut differ = Vec::with_capacity(latches.len());
    for &l in latches {
        let (a, b) = (u.lit(i, l)?, u.lit(j, l)?);
        let d = u.new_var().pos_lit();
        solver.add_ternary(!d, a, b).map_err(solver_err)?;
        solver.add_ternary(!d, !a, !b).map_err(solver_err)?;
        differ.push(d);
    }
    solver.add_clause_ref(&differ).map_err(solver_err)
}
