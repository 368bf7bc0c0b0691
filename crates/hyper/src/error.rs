//! Errors of the product construction and test extraction.

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
