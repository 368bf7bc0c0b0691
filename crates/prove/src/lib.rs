//! Model-checking engines for hypermut behind one [`Engine`] interface.
//!
//! Each engine decides whether the first bad property of an AIG is reachable under its
//! invariant constraints (AIGER 1.9 semantics: the constraints hold in every frame up to and
//! including the bad one):
//!
//! * [`Bmc`]: bounded model checking (finds shortest counterexamples);
//! * [`Ic3`]: IC3/PDR, complete, with inductive-invariant certificates;
//! * [`Kind`]: k-induction with simple-path constraints;
//! * [`Portfolio`]: several engines on threads, the first definite answer wins;
//! * [`Schedule`]: engines one after another under one deadline (BMC to a bound, then IC3).
//!
//! Every `Safe` verdict of IC3, k-induction and the portfolio carries a [`Certificate`] that
//! was checked by [`check_certificate`] with a separate solver, and every `Unsafe` witness
//! was replayed on the simulator ([`hypermut_aig::check_witness`]) before it is returned.
//! The SAT backend is CaDiCaL, named only in [`backend`]; the engines are generic over
//! rustsat's `SolveIncremental`.

pub mod backend;
pub mod bmc;
pub mod cert_circuits;
pub mod certificate;
pub mod choice;
pub mod engine;
pub mod enumerate;
pub mod exists_forall;
pub mod houdini;
pub mod ic3;
pub mod kind;
pub mod leap;
pub mod limits;
mod merged;
pub mod portfolio;
pub mod reach;
pub mod reduce;
pub mod reduced_verdict;
pub mod schedule;
pub mod scorr;
pub mod suspend;
pub mod sweep;
pub mod unroll;
pub mod verdict;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

pub use bmc::{bmc_depth_search, check_bound, check_bound_fixed, Bmc, BmcError};
pub use certificate::{
    check_certificate, check_certificate_limited, witness_circuit, CertError, Certificate,
};
pub use choice::EngineChoice;
pub use engine::Engine;
pub use enumerate::{values_per_frame, Enumerated, KnownRun, Runs};
pub use exists_forall::{ExistsForall, SearchStats};
pub use houdini::{Houdini, HoudiniError};
pub use ic3::{Ic3, Ic3Options};
pub use kind::Kind;
pub use limits::Limits;
pub use portfolio::{EngineKind, Portfolio};
pub use reach::Reach;
pub use schedule::{Schedule, Scheduled, Stage};
pub use scorr::{Correspondence, Equality, Kept, Scorr, ScorrError};
pub use sweep::{optimize, optimize_with, sweep, OptimizeOptions, SweepOptions, SweepStats};
pub use unroll::{InitMode, UnrollError, Unroller};
pub use verdict::Verdict;
