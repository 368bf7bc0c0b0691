//! Self-composition for the killing hyperproperty φ1 and test extraction.
//!
//! [`product`] builds, from the bit-blasted conditional mutant, one circuit with two copies
//! (A: `mut = 0`, B: `mut = 1`) that share every input (including the nd inputs) and every
//! latch outside the mutation's sequential fan-out; its single bad property `kill` holds when
//! some output differs. [`extract_test`] turns a witness of that property into a linear test
//! and replays it on the word-level system.

pub mod miter;
pub mod pipeline;
pub mod product;
pub mod suite;
pub mod test;
pub mod validity;

pub use pipeline::MutantProduct;
pub use product::{product, Product};
pub use suite::{greedy_set_cover, remove_prefixes, KillMatrix, MetaCircuit};
pub use test::{extract_test, Blocked, Test, TestFrame};
pub use validity::{range_check, RangeCheck};

/// Errors of the product construction and test extraction.
#[derive(Debug, thiserror::Error)]
pub enum HyperError {
    /// The selector variable is not a 1-bit latch of the circuit.
    #[error("the mutant selector is not a one-bit latch of the circuit")]
    NoSelector,
    /// The witness does not match the product's shape.
    #[error("witness does not fit the product: {0}")]
    WitnessShape(String),
    /// Building the conditional mutant or its circuit failed.
    #[error("{0}")]
    Build(String),
    /// Replaying the test on the word-level system failed.
    #[error("replay failed: {0}")]
    Replay(String),
    /// The mutant is not a valid model (e.g. its initial values are defined circularly).
    #[error("the mutant is not a valid model: {0}")]
    InvalidMutant(String),
}
