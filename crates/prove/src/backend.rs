//! The one place that names the SAT backend. Every engine is generic over rustsat's
//! [`SolveIncremental`](rustsat::solvers::SolveIncremental); this module instantiates
//! CaDiCaL with a terminator for the [`Limits`].

use rustsat::solvers::Terminate;
use rustsat_cadical::CaDiCaL;

use crate::limits::Limits;

/// The SAT solver the engines use.
pub type DefaultSolver = CaDiCaL<'static, 'static>;

/// A fresh solver that stops when `limits` are reached. Options come from the environment
/// variable `HYPERMUT_CADICAL` (`name=value,…`; for experiments), after the defaults below.
pub fn default_solver(limits: &Limits) -> DefaultSolver {
    let mut solver = CaDiCaL::default();
    // The engines ask many small incremental queries: CaDiCaL's "lucky phase" search before
    // every solve costs more than it saves there.
    let _ = solver.set_option("lucky", 0);
    if let Ok(opts) = std::env::var("HYPERMUT_CADICAL") {
        for kv in opts.split(',') {
            if let Some((k, v)) = kv.split_once('=') {
                if let Ok(v) = v.trim().parse() {
                    let _ = solver.set_option(k.trim(), v);
                }
            }
        }
    }
    if limits.is_limited() {
        solver.attach_terminator(limits.terminator());
    }
    solver
}
