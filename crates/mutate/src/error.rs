//! Errors while building mutants.

use crate::operators::Operator;

/// Errors while building mutants.
#[derive(Debug, thiserror::Error)]
pub enum MutateError {
    /// The mutated expression does not type-check in its context.
    #[error("mutant {id} is ill-typed: {source}")]
    IllTyped {
        /// Mutant id.
        id: usize,
        /// The type error.
        source: hypermut_ir::TypeError,
    },
    /// No mutant with this id exists.
    #[error("no mutant with id {0}")]
    UnknownId(usize),
    /// A transformation produced an ill-typed expression (internal error).
    #[error("{0}")]
    Type(#[from] hypermut_ir::TypeError),
    /// An operator name that is not one of [`Operator::ALL`].
    #[error("unknown mutation operator `{0}` (known: {known})", known = Operator::ALL.map(|o| o.name()).join(", "))]
    UnknownOperator(String),
}
