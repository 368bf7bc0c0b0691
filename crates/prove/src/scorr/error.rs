//! Why signal correspondence stops without an answer.

use crate::unroll::UnrollError;

/// Why a correspondence run stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum ScorrError {
    /// The AIG has no bad property.
    #[error("the AIG has no bad property")]
    NoBadProperty,
    /// The limits were reached.
    #[error("signal correspondence was interrupted by the time limit")]
    Interrupted,
    /// The AIG is malformed.
    #[error(transparent)]
    Unroll(#[from] UnrollError),
    /// The solver failed.
    #[error("SAT solver error: {0}")]
    Solver(String),
}

/// A solver failure as a [`ScorrError`].
pub(super) fn solver_err(e: impl std::fmt::Display) -> ScorrError {
    ScorrError::Solver(e.to_string())
}
