//! Mutation operators, conditional mutants and the nd transformation.
//!
//! A [`Mutant`] is one small edit of an expression that came from source, produced by one
//! of the [`Operator`]s (see [`Operator::ALL`]). [`conditional`] builds the conditional
//! mutant, where a frozen boolean `mut` selects the original (`mut = 0`) or the mutated
//! expression (`mut = 1`). [`nd::make_controllable`] turns every source of nondeterminism
//! into an input so that both copies of a product resolve it identically. [`sample()`] draws
//! a reproducible subset of mutants.

pub mod conditional;
mod edit;
pub mod emit;
pub mod meta;
pub mod nd;
pub mod operators;
mod ops;
pub mod sample;
mod text;

#[cfg(test)]
mod tests;

pub use conditional::{conditional, ConditionalMutant};
pub use emit::{conditional_source, mutant_source, EmitError, EmittedSource};
pub use meta::{meta_mutant, MetaMutant};
pub use nd::{make_controllable, NdInput, NdSource};
pub use operators::{enumerate, Assoc, Edit, LogicOp, Mutant, Operator, Syntax};
pub use sample::{sample, SplitMix64};

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
    #[error("unknown mutation operator `{0}` (known: {known})", known = operators::Operator::ALL.map(|o| o.name()).join(", "))]
    UnknownOperator(String),
}
