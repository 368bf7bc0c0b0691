//! Model-checking engines for hypermut behind one [`Engine`] interface.
//!
//! Each engine decides whether the first bad property of an AIG is reachable (under its
//! invariant constraints). BMC exists; IC3/PDR and k-induction will be added behind the
//! same interface.

use hypermut_aig::{Aig, Lit, Witness};

pub mod bmc;
pub mod unroll;

#[cfg(test)]
mod testutil;

pub use bmc::{bmc_depth_search, check_bound, Bmc, BmcError};
pub use unroll::{InitMode, UnrollError, Unroller};

/// Evidence that no bad state is reachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The bad literal is the constant false after structural simplification.
    Trivial,
    /// An inductive invariant in CNF over latch literals: it holds initially, is preserved by
    /// every transition (under the constraints), and excludes the bad states.
    Invariant {
        /// Clauses over positive/negative latch literals of the checked AIG.
        clauses: Vec<Vec<Lit>>,
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
}
