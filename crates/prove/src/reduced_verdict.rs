//! What engines answer on a reduced problem, and the common path from an AIG to a checked
//! [`Verdict`]: trivial cases, reduction, the engine, then mapping back to the original
//! circuit and checking (certificate by a separate solver, witness by simulation).

use hypermut_aig::{check_witness, Aig, Lit, Witness};

use crate::certificate::{check_certificate_limited, Certificate};
use crate::limits::Limits;
use crate::reduce::{reduce, Reduced};
use crate::verdict::Verdict;

/// The proof an engine found on the reduced problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Clauses over latch literals of the reduced circuit forming an inductive invariant.
    Invariant(Vec<Vec<Lit>>),
    /// The property is `k`-inductive with simple-path constraints and holds up to depth
    /// `k - 1`.
    KInduction(usize),
}

/// The unchecked answer of an engine's search on a reduced problem, before it is mapped back
/// to the original AIG and checked ([`finish`] turns it into a [`Verdict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReducedVerdict {
    /// Bad is unreachable.
    Safe(Proof),
    /// A counterexample of the reduced circuit.
    Unsafe(Witness),
    /// No answer.
    Unknown(String),
}

/// The verdict when no engine is needed: no bad property, or `bad[0]` is constant false.
pub fn trivial_verdict(aig: &Aig) -> Option<Verdict> {
    match aig.bad.first() {
        None => Some(Verdict::Unknown(
            "the AIG has no bad property to check".into(),
        )),
        Some(b) if b.lit == Lit::FALSE => Some(Verdict::Safe(Certificate::Trivial)),
        Some(_) => None,
    }
}

/// Reduces `aig`, runs `engine` on the reduced problem and returns the checked verdict for
/// `aig`. A certificate or witness that fails its check becomes `Unknown` with the reason
/// (an internal error), so a wrong verdict is never returned.
pub fn run_reduced(
    aig: &Aig,
    limits: &Limits,
    engine: impl FnOnce(&Reduced, &Limits) -> ReducedVerdict,
) -> Verdict {
    if let Some(v) = trivial_verdict(aig) {
        return v;
    }
    let reduced = match reduce(aig) {
        Ok(r) => r,
        Err(e) => return Verdict::Unknown(format!("cannot check this AIG: {e}")),
    };
    let answer = engine(&reduced, limits);
    finish(aig, &reduced, answer, limits)
}

/// Maps an answer on `reduced` back to `aig` and checks it.
pub fn finish(aig: &Aig, reduced: &Reduced, answer: ReducedVerdict, limits: &Limits) -> Verdict {
    match answer {
        ReducedVerdict::Unknown(m) => Verdict::Unknown(m),
        ReducedVerdict::Unsafe(w) => {
            let w = reduced.lift_witness(aig, &w);
            checked_witness(aig, w)
        }
        ReducedVerdict::Safe(proof) => {
            let cert = match proof {
                Proof::Invariant(clauses) => match reduced.lift_clauses(aig, &clauses) {
                    Some(clauses) => Certificate::Invariant { clauses },
                    None => {
                        return Verdict::Unknown(
                            "internal error: the invariant mentions a non-latch literal".into(),
                        )
                    }
                },
                Proof::KInduction(k) => Certificate::KInduction {
                    k,
                    lemmas: reduced.facts.clone(),
                },
            };
            checked_certificate(aig, cert, limits)
        }
    }
}

/// `Unsafe(w)` if `w` replays on the simulator, else `Unknown` with the reason.
pub fn checked_witness(aig: &Aig, w: Witness) -> Verdict {
    match check_witness(aig, &w) {
        Ok(_) => Verdict::Unsafe(w),
        Err(e) => Verdict::Unknown(format!(
            "internal error: the counterexample does not replay on the simulator: {e}"
        )),
    }
}

/// `Safe(cert)` if the certificate passes [`check_certificate_limited`], else `Unknown`.
pub fn checked_certificate(aig: &Aig, cert: Certificate, limits: &Limits) -> Verdict {
    match check_certificate_limited(aig, &cert, limits) {
        Ok(()) => Verdict::Safe(cert),
        Err(e) => Verdict::Unknown(format!("the safety proof was not confirmed: {e}")),
    }
}
