//! The one place that names the SAT backend. Every engine is generic over rustsat's
//! [`SolveIncremental`]; this module puts CaDiCaL behind those traits ([`Cadical`]) and
//! instantiates it with a terminator for the [`Limits`].
//!
//! CaDiCaL comes from the `cadical` crate, which bundles the C++ sources and compiles them with
//! `cc` behind a hand-written C interface: the build needs a C++ compiler and nothing else (no
//! libclang, unlike bindgen-generated bindings).

use rustsat::solvers::{
    ControlSignal, Solve, SolveIncremental, SolverResult, SolverState, StateError,
};
use rustsat::types::{Cl, Clause, Lit, TernaryVal, Var};

use crate::limits::Limits;

/// The SAT solver the engines use.
pub type DefaultSolver = Cadical;

/// A fresh solver that stops when `limits` are reached.
///
/// CaDiCaL's default options are kept. The engines ask many small queries under assumptions;
/// CaDiCaL 2.2 tries its "lucky phases" before such a query too and cost IC3 a fifth more time
/// there (the reason the earlier backend set `lucky=0`), but the bundled CaDiCaL (1.9) never tries
/// them under assumptions, so there is nothing to switch off.
pub fn default_solver(limits: &Limits) -> DefaultSolver {
    let mut solver = Cadical::new();
    if limits.is_limited() {
        solver.set_terminator(limits.terminator());
    }
    solver
}

/// A fresh solver in CaDiCaL's `plain` configuration that stops when `limits` are reached:
/// for many small incremental queries on one growing formula (SAT sweeping), where the
/// default configuration spends much of its time in inprocessing between the queries
/// (`hypermut aiger` of the aes core: 2.3 s with the default, 1.5 s plain, the same
/// circuit).
pub fn plain_solver(limits: &Limits) -> DefaultSolver {
    let mut solver = Cadical::plain();
    if limits.is_limited() {
        solver.set_terminator(limits.terminator());
    }
    solver
}

/// A terminator callback as CaDiCaL polls it during a solve.
struct Stop(Box<dyn FnMut() -> ControlSignal + Send>);

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        (self.0)() == ControlSignal::Terminate
    }
}

/// What the last call left the solver in; the model and the failed assumptions can be read only
/// right after a satisfiable or unsatisfiable solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Input,
    Sat,
    Unsat,
    Interrupted,
}

impl State {
    fn external(self) -> SolverState {
        match self {
            State::Input => SolverState::Input,
            State::Sat => SolverState::Sat,
            State::Unsat => SolverState::Unsat,
            State::Interrupted => SolverState::Unknown,
        }
    }
}

/// CaDiCaL as a rustsat incremental solver ([`Solve`] and [`SolveIncremental`]).
pub struct Cadical {
    solver: cadical::Solver<Stop>,
    state: State,
    /// The assumptions of the last solve, from which [`SolveIncremental::core`] picks the failed
    /// ones.
    assumptions: Vec<Lit>,
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

impl Cadical {
    /// A fresh solver with CaDiCaL's default options and no terminator.
    pub fn new() -> Self {
        Cadical {
            solver: cadical::Solver::new(),
            state: State::Input,
            assumptions: Vec::new(),
        }
    }

    /// A fresh solver with CaDiCaL's `plain` configuration (no preprocessing or
    /// inprocessing) and no terminator.
    pub fn plain() -> Self {
        Cadical {
            // "plain" is one of CaDiCaL's named configurations, so it is never refused.
            solver: cadical::Solver::with_config("plain").unwrap_or_default(),
            state: State::Input,
            assumptions: Vec::new(),
        }
    }

    /// Makes every later solve poll `terminator`, and return
    /// [`SolverResult::Interrupted`] once it answers [`ControlSignal::Terminate`].
    pub fn set_terminator(&mut self, terminator: impl FnMut() -> ControlSignal + Send + 'static) {
        self.solver.set_callbacks(Some(Stop(Box::new(terminator))));
    }

    /// Makes the next solve give up with [`SolverResult::Interrupted`] after `conflicts`
    /// conflicts; CaDiCaL forgets the limit after that solve.
    pub fn limit_conflicts(&mut self, conflicts: u32) {
        let n = i32::try_from(conflicts).unwrap_or(i32::MAX);
        // `conflicts` is one of CaDiCaL's limits, so it is never refused.
        let _ = self.solver.set_limit("conflicts", n);
    }

    fn add<I: IntoIterator<Item = Lit>>(&mut self, lits: I) {
        self.state = State::Input;
        self.solver.add_clause(lits.into_iter().map(Lit::to_ipasir));
    }

    fn result(&mut self, answer: Option<bool>) -> SolverResult {
        match answer {
            Some(true) => {
                self.state = State::Sat;
                SolverResult::Sat
            }
            Some(false) => {
                self.state = State::Unsat;
                SolverResult::Unsat
            }
            None => {
                self.state = State::Interrupted;
                SolverResult::Interrupted
            }
        }
    }

    fn require(&self, state: State) -> anyhow::Result<()> {
        if self.state == state {
            Ok(())
        } else {
            Err(StateError {
                required_state: state.external(),
                actual_state: self.state.external(),
            }
            .into())
        }
    }
}

impl Extend<Clause> for Cadical {
    fn extend<T: IntoIterator<Item = Clause>>(&mut self, clauses: T) {
        for clause in clauses {
            self.add(clause.iter().copied());
        }
    }
}

impl<'a> Extend<&'a Clause> for Cadical {
    fn extend<T: IntoIterator<Item = &'a Clause>>(&mut self, clauses: T) {
        for clause in clauses {
            self.add(clause.iter().copied());
        }
    }
}

impl Solve for Cadical {
    fn signature(&self) -> &'static str {
        "CaDiCaL (cadical crate)"
    }

    fn reserve(&mut self, max_var: Var) -> anyhow::Result<()> {
        self.state = State::Input;
        self.solver.reserve(max_var.to_ipasir());
        Ok(())
    }

    fn solve(&mut self) -> anyhow::Result<SolverResult> {
        self.assumptions.clear();
        let answer = self.solver.solve();
        Ok(self.result(answer))
    }

    fn lit_val(&self, lit: Lit) -> anyhow::Result<TernaryVal> {
        self.require(State::Sat)?;
        Ok(match self.solver.value(lit.to_ipasir()) {
            Some(true) => TernaryVal::True,
            Some(false) => TernaryVal::False,
            None => TernaryVal::DontCare,
        })
    }

    fn add_clause_ref<C>(&mut self, clause: &C) -> anyhow::Result<()>
    where
        C: AsRef<Cl> + ?Sized,
    {
        self.add(clause.as_ref().iter().copied());
        Ok(())
    }

    fn add_unit(&mut self, lit: Lit) -> anyhow::Result<()> {
        self.add([lit]);
        Ok(())
    }

    fn add_binary(&mut self, lit1: Lit, lit2: Lit) -> anyhow::Result<()> {
        self.add([lit1, lit2]);
        Ok(())
    }

    fn add_ternary(&mut self, lit1: Lit, lit2: Lit, lit3: Lit) -> anyhow::Result<()> {
        self.add([lit1, lit2, lit3]);
        Ok(())
    }
}

impl SolveIncremental for Cadical {
    fn solve_assumps(&mut self, assumps: &[Lit]) -> anyhow::Result<SolverResult> {
        self.assumptions.clear();
        self.assumptions.extend_from_slice(assumps);
        let answer = self
            .solver
            .solve_with(assumps.iter().map(|a| a.to_ipasir()));
        Ok(self.result(answer))
    }

    /// The negations of the failed assumptions of the last (unsatisfiable) solve, in the order
    /// they were assumed.
    fn core(&mut self) -> anyhow::Result<Vec<Lit>> {
        self.require(State::Unsat)?;
        Ok(self
            .assumptions
            .iter()
            .filter(|a| self.solver.failed(a.to_ipasir()))
            .map(|a| !*a)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::lit;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    #[test]
    fn model_core_and_states() {
        let mut s = Cadical::new();
        s.add_binary(lit![0], lit![1]).unwrap();
        s.add_binary(!lit![0], lit![2]).unwrap();
        assert!(s.lit_val(lit![0]).is_err(), "no model before a solve");
        assert_eq!(s.solve_assumps(&[!lit![1]]).unwrap(), SolverResult::Sat);
        assert_eq!(s.lit_val(lit![0]).unwrap(), TernaryVal::True);
        assert_eq!(s.lit_val(!lit![1]).unwrap(), TernaryVal::True);
        assert_eq!(s.lit_val(lit![2]).unwrap(), TernaryVal::True);
        assert!(s.core().is_err(), "no core after a satisfiable solve");
        let r = s.solve_assumps(&[lit![3], !lit![1], !lit![2]]).unwrap();
        assert_eq!(r, SolverResult::Unsat);
        assert_eq!(s.core().unwrap(), vec![lit![1], lit![2]]);
        s.add_unit(lit![1]).unwrap();
        assert!(
            s.core().is_err(),
            "a new clause ends the unsatisfiable state"
        );
        assert_eq!(s.solve().unwrap(), SolverResult::Sat);
        s.add_ternary(!lit![0], !lit![1], !lit![2]).unwrap();
        s.add_unit(lit![0]).unwrap();
        assert_eq!(s.solve().unwrap(), SolverResult::Unsat);
        assert_eq!(s.core().unwrap(), vec![]);
    }

    /// Pigeon hole, 9 into 8: far beyond the tests' time, so only a terminator ends it.
    fn pigeon_hole(s: &mut Cadical) {
        let p = |i: u32, j: u32| Lit::positive(i * 8 + j);
        for i in 0..9 {
            s.add_clause((0..8).map(|j| p(i, j)).collect()).unwrap();
            for k in 0..i {
                for j in 0..8 {
                    s.add_binary(!p(i, j), !p(k, j)).unwrap();
                }
            }
        }
    }

    #[test]
    fn terminator_interrupts() {
        let mut s = default_solver(&Limits::timeout(Some(std::time::Duration::ZERO)));
        pigeon_hole(&mut s);
        assert_eq!(s.solve().unwrap(), SolverResult::Interrupted);
        assert!(s.lit_val(lit![0]).is_err() && s.core().is_err());

        let stop = Arc::new(AtomicBool::new(true));
        let mut s = Cadical::new();
        pigeon_hole(&mut s);
        s.set_terminator(Limits::none().with_stop(stop.clone()).terminator());
        assert_eq!(
            s.solve_assumps(&[lit![0]]).unwrap(),
            SolverResult::Interrupted
        );
        stop.store(false, Ordering::Relaxed);
        s.add_unit(!lit![0]).unwrap();
        s.add_unit(lit![1]).unwrap();
        assert_eq!(s.solve_assumps(&[!lit![1]]).unwrap(), SolverResult::Unsat);
        assert_eq!(s.core().unwrap(), vec![lit![1]]);
    }
}
