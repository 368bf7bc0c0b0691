//! Model-checking engines for hypermut behind one [`Engine`] interface.
//!
//! Each engine decides whether the first bad property of an AIG is reachable under its
//! invariant constraints (AIGER 1.9 semantics: the constraints hold in every frame up to and
//! including the bad one):
//!
//! * [`Bmc`]: bounded model checking (finds shortest counterexamples);
//! * [`Ic3`]: IC3/PDR, complete, with inductive-invariant certificates;
//! * [`Kind`]: k-induction with simple-path constraints;
//! * [`Portfolio`]: several engines on threads, the first definite answer wins.
//!
//! Every `Safe` verdict of IC3, k-induction and the portfolio carries a [`Certificate`] that
//! was checked by [`check_certificate`] with a separate solver, and every `Unsafe` witness
//! was replayed on the simulator ([`hypermut_aig::check_witness`]) before it is returned.
//! The SAT backend is CaDiCaL, named only in [`backend`]; the engines are generic over
//! rustsat's `SolveIncremental`.

use hypermut_aig::{Aig, Lit, Witness};

pub mod backend;
pub mod bmc;
pub mod cert_circuits;
pub mod certificate;
pub mod ic3;
pub mod kind;
pub mod limits;
pub mod outcome;
pub mod portfolio;
pub mod reduce;
pub mod unroll;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

pub use bmc::{bmc_depth_search, check_bound, Bmc, BmcError};
pub use certificate::{check_certificate, check_certificate_limited, witness_circuit, CertError};
pub use ic3::{Ic3, Ic3Options};
pub use kind::Kind;
pub use limits::Limits;
pub use portfolio::{EngineKind, Portfolio};
pub use unroll::{InitMode, UnrollError, Unroller};

/// Evidence that no bad state is reachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The bad literal is the constant false.
    Trivial,
    /// An inductive invariant in CNF over latch literals: it holds initially, is preserved by
    /// every transition (under the constraints), and excludes the bad states.
    Invariant {
        /// Clauses over positive/negative latch literals of the checked AIG.
        clauses: Vec<Vec<Lit>>,
    },
    /// k-induction: no counterexample of depth below `k`, and every path of `k + 1`
    /// pairwise different states (over the latches in the cone of influence) that satisfies
    /// the lemmas and constraints in every frame and avoids bad in its first `k` states
    /// avoids it in the last one too.
    KInduction {
        /// The induction depth.
        k: usize,
        /// Clauses over latch literals forming an inductive invariant (without the property)
        /// that strengthens the induction step.
        lemmas: Vec<Vec<Lit>>,
    },
}

/// The answer of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No bad state is reachable.
    Safe(Certificate),
    /// A bad state is reachable; the witness reaches it.
    Unsafe(Witness),
    /// No verdict (bound or resource limit reached).
    Unknown(String),
}

/// A model checker for AIGER safety properties.
pub trait Engine {
    /// Decides reachability of `aig.bad[0]` under `aig.constraints`.
    fn check(&mut self, aig: &Aig) -> Verdict;

    /// [`Engine::check`] that also stops (with `Unknown`) when `limits` are reached. The
    /// default ignores `limits`.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let _ = limits;
        self.check(aig)
    }
}
