//! Mutation operators, conditional mutants and the nd transformation.
//!
//! A [`Mutant`] is one small edit of an expression that came from source, produced by one
//! of the [`Operator`]s (see [`Operator::ALL`]). [`conditional()`] builds the conditional
//! mutant, where a frozen boolean `mut` selects the original (`mut = 0`) or the mutated
//! expression (`mut = 1`). [`nd::make_controllable`] turns every source of nondeterminism
//! into an input so that both copies of a product resolve it identically. [`sample()`] draws
//! a reproducible subset of mutants. [`mimic_system`] rewrites a conditional mutant whose
//! mutation narrows a choice so that φ1 can prove the mutant equivalent (docs/method.md §4.6).

pub mod conditional;
mod edit;
pub mod emit;
pub mod error;
pub mod inclusion;
pub mod meta;
pub mod nd;
mod operator_list;
pub mod operators;
mod ops;
pub mod sample;
mod syntax;
mod text;

#[cfg(test)]
mod tests;

pub use conditional::{conditional, ConditionalMutant};
pub use emit::{conditional_source, mutant_source, EmitError, EmittedSource};
pub use error::MutateError;
pub use inclusion::mimic_system;
pub use meta::{meta_mutant, MetaMutant};
pub use nd::{make_controllable, NdInput, NdSource};
pub use operators::{Assoc, Edit, LogicOp, Mutant, Operator};
pub use ops::{enumerate, enumeration, Enumeration};
pub use sample::{sample, SplitMix64};
pub use syntax::Syntax;
