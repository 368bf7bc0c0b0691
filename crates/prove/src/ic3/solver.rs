//! One SAT solver per IC3 frame, holding one copy of the transition relation.
//!
//! Solver variable `v` is AIG variable `v` of the (reduced) circuit; the next-state value
//! of a latch is the solver literal of its next-state function, so no primed copies are
//! needed. Variables above the AIG's are activation literals for temporary clauses.
//!
//! The clauses of an AND gate are loaded lazily: a query first loads the cone of influence
//! of its assumptions (as ABC's PDR does), so queries about a few latches of a large circuit
//! do not make the solver decide on unrelated logic.

use hypermut_aig::{Aig, Lit, Node, Reset};
use rustsat::solvers::{SolveIncremental, SolverResult};
use rustsat::types::Lit as SatLit;

/// The solver literal of an AIG literal.
pub fn sat_lit(l: Lit) -> SatLit {
    SatLit::new(l.var(), l.is_neg())
}

/// Why a query did not answer.
#[derive(Debug)]
pub enum Halt {
    /// The time limit or a cancellation request was reached.
    Limit,
    /// The solver failed.
    Error(String),
}

pub(crate) fn solver_err(e: impl std::fmt::Display) -> Halt {
    Halt::Error(e.to_string())
}

/// A solver for one frame with its activation-literal bookkeeping.
pub struct FrameSolver<S> {
    /// The solver.
    pub solver: S,
    next_var: u32,
    /// Activation literals used so far (each leaves a dead clause behind).
    pub activations: usize,
    /// The activation literal of the last query, disabled before the solver changes again
    /// (so that its model or core can still be read).
    pending: Option<SatLit>,
    /// Per AIG variable: whether its clauses are in the solver.
    loaded: Vec<bool>,
    stack: Vec<u32>,
}

impl<S: SolveIncremental> FrameSolver<S> {
    /// A solver for `aig` holding the constraints (with their cones) as units and, if
    /// `initial`, the constant resets as units.
    pub fn new(solver: S, aig: &Aig, initial: bool) -> Result<Self, Halt> {
        let mut fs = FrameSolver {
            solver,
            next_var: aig.num_vars() + 1,
            activations: 0,
            pending: None,
            loaded: vec![false; aig.num_vars() as usize],
            stack: Vec::new(),
        };
        fs.solver.add_unit(sat_lit(Lit::TRUE)).map_err(solver_err)?;
        for c in &aig.constraints {
            fs.load(aig, c.lit)?;
            fs.solver.add_unit(sat_lit(c.lit)).map_err(solver_err)?;
        }
        if initial {
            for l in &aig.latches {
                match l.reset {
                    Reset::Zero => fs.solver.add_unit(sat_lit(!l.lit)).map_err(solver_err)?,
                    Reset::One => fs.solver.add_unit(sat_lit(l.lit)).map_err(solver_err)?,
                    Reset::Free => {}
                }
            }
        }
        Ok(fs)
    }

    /// Whether the cone of some query reached AIG variable `var` (so the solver constrains
    /// it; other inputs are unconstrained and may be read as anything).
    pub fn is_loaded(&self, var: u32) -> bool {
        self.loaded[var as usize]
    }

    /// Loads the clauses of the AND gates in the cone of `lit` (up to latches and inputs).
    pub fn load(&mut self, aig: &Aig, lit: Lit) -> Result<(), Halt> {
        self.stack.push(lit.var());
        while let Some(v) = self.stack.pop() {
            if self.loaded[v as usize] {
                continue;
            }
            self.loaded[v as usize] = true;
            if let Node::And(a, b) = aig.node(v) {
                let x = SatLit::new(v, false);
                let (sa, sb) = (sat_lit(a), sat_lit(b));
                self.solver.add_binary(!x, sa).map_err(solver_err)?;
                self.solver.add_binary(!x, sb).map_err(solver_err)?;
                self.solver.add_ternary(x, !sa, !sb).map_err(solver_err)?;
                self.stack.push(a.var());
                self.stack.push(b.var());
            }
        }
        Ok(())
    }

    fn retire(&mut self) -> Result<(), Halt> {
        if let Some(a) = self.pending.take() {
            self.solver.add_unit(!a).map_err(solver_err)?;
        }
        Ok(())
    }

    /// Adds the clause `¬cube` permanently.
    pub fn block(&mut self, cube: &[Lit]) -> Result<(), Halt> {
        self.retire()?;
        let clause: Vec<SatLit> = cube.iter().map(|&l| !sat_lit(l)).collect();
        self.solver.add_clause_ref(&clause).map_err(solver_err)
    }

    /// Adds the clause `¬cube` guarded by a fresh activation literal `a` (the clause is
    /// `¬a ∨ ¬cube`, in force while `a` is assumed); returns `a`.
    pub fn guarded_block(&mut self, cube: &[Lit]) -> Result<SatLit, Halt> {
        self.retire()?;
        let a = SatLit::new(self.next_var, false);
        self.next_var += 1;
        let mut clause: Vec<SatLit> = Vec::with_capacity(cube.len() + 1);
        clause.push(!a);
        clause.extend(cube.iter().map(|&l| !sat_lit(l)));
        self.solver.add_clause_ref(&clause).map_err(solver_err)?;
        Ok(a)
    }

    /// Solves under `assumptions` (AIG literals, their cones loaded first) and the solver
    /// literals `guards` (activation literals of [`FrameSolver::guarded_block`]).
    pub fn solve_guarded(
        &mut self,
        aig: &Aig,
        assumptions: &[Lit],
        guards: &[SatLit],
    ) -> Result<bool, Halt> {
        self.retire()?;
        for &l in assumptions {
            self.load(aig, l)?;
        }
        let mut assumps: Vec<SatLit> = guards.to_vec();
        assumps.extend(assumptions.iter().map(|&l| sat_lit(l)));
        match self.solver.solve_assumps(&assumps).map_err(solver_err)? {
            SolverResult::Sat => Ok(true),
            SolverResult::Unsat => Ok(false),
            SolverResult::Interrupted => Err(Halt::Limit),
        }
    }

    /// Solves under `assumptions` plus, if `neg_cube` is given, the temporary clause
    /// `¬neg_cube` (guarded by a fresh activation literal that is disabled before the solver
    /// is changed again). `Ok(true)` for satisfiable.
    pub fn solve(
        &mut self,
        aig: &Aig,
        assumptions: &[Lit],
        neg_cube: Option<&[Lit]>,
    ) -> Result<bool, Halt> {
        self.retire()?;
        for &l in assumptions {
            self.load(aig, l)?;
        }
        let assumptions: Vec<SatLit> = assumptions.iter().map(|&l| sat_lit(l)).collect();
        let res = match neg_cube {
            Some(cube) => {
                let a = SatLit::new(self.next_var, false);
                self.next_var += 1;
                self.activations += 1;
                let mut clause: Vec<SatLit> = Vec::with_capacity(cube.len() + 1);
                clause.push(!a);
                clause.extend(cube.iter().map(|&l| !sat_lit(l)));
                self.solver.add_clause_ref(&clause).map_err(solver_err)?;
                self.pending = Some(a);
                let mut assumps = Vec::with_capacity(assumptions.len() + 1);
                assumps.push(a);
                assumps.extend_from_slice(&assumptions);
                self.solver.solve_assumps(&assumps)
            }
            None => self.solver.solve_assumps(&assumptions),
        };
        match res.map_err(solver_err)? {
            SolverResult::Sat => Ok(true),
            SolverResult::Unsat => Ok(false),
            SolverResult::Interrupted => Err(Halt::Limit),
        }
    }

    /// The value of an AIG literal in the last model (don't-care reads as false).
    pub fn value(&self, l: Lit) -> Result<bool, Halt> {
        let v = self.solver.lit_val(sat_lit(l)).map_err(solver_err)?;
        Ok(v == rustsat::types::TernaryVal::True)
    }

    /// The failed assumptions of the last unsatisfiable query (as given, not negated).
    pub fn failed(&mut self) -> Result<Vec<SatLit>, Halt> {
        Ok(self
            .solver
            .core()
            .map_err(solver_err)?
            .into_iter()
            .map(|l| !l)
            .collect())
    }
}
