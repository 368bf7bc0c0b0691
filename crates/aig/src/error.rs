//! Error types of the AIGER reader and of witness reading and checking.

use thiserror::Error;

/// Why an AIGER file was rejected. `file` is the name given to the reader.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AigerError {
    /// A problem at a known line of the file (1-based).
    #[error("{file}:{line}: {message}")]
    Line {
        /// File name, as given to the reader.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A problem without a single line (binary AND section, whole-file checks).
    #[error("{file}: {message}")]
    File {
        /// File name, as given to the reader.
        file: String,
        /// What is wrong.
        message: String,
    },
}

impl AigerError {
    /// The line number, when the error has one.
    pub fn line(&self) -> Option<usize> {
        match self {
            AigerError::Line { line, .. } => Some(*line),
            AigerError::File { .. } => None,
        }
    }

    /// The message without file name and line.
    pub fn message(&self) -> &str {
        match self {
            AigerError::Line { message, .. } | AigerError::File { message, .. } => message,
        }
    }
}

/// Why a witness file could not be read, or why a witness does not fail its property.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WitnessError {
    /// Malformed witness text at a 1-based line.
    #[error("witness line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The witness names no property.
    #[error("the witness names no property")]
    NoProperty,
    /// A property name that is not `b<i>` / `j<i>` of this circuit.
    #[error("unknown property `{0}`")]
    UnknownProperty(String),
    /// The witness has no input vector (at least one is required).
    #[error("the witness has no input vector")]
    NoFrames,
    /// The initial-state line has the wrong length.
    #[error("initial state has {got} values but the circuit has {expected} latches")]
    InitLength {
        /// Values in the witness.
        got: usize,
        /// Latches in the circuit.
        expected: usize,
    },
    /// An input vector has the wrong length.
    #[error(
        "input vector of frame {frame} has {got} values but the circuit has {expected} inputs"
    )]
    InputLength {
        /// 0-based frame.
        frame: usize,
        /// Values in the witness.
        got: usize,
        /// Inputs in the circuit.
        expected: usize,
    },
    /// The initial state contradicts a constant latch reset.
    #[error("latch {latch} has reset {reset} but the witness starts it at {value}")]
    InitMismatch {
        /// Latch index.
        latch: usize,
        /// The reset value of the circuit.
        reset: bool,
        /// The value in the witness.
        value: bool,
    },
    /// An invariant constraint is false before the property is reached.
    #[error("constraint {constraint} is violated in frame {frame} before `{property}` holds")]
    ConstraintViolated {
        /// Constraint index.
        constraint: usize,
        /// 0-based frame.
        frame: usize,
        /// The property being checked.
        property: String,
    },
    /// The bad property is never true along the witness.
    #[error("property `{0}` is not reached by the witness")]
    NotReached(String),
    /// A justice witness whose final state does not close a loop, or whose loop misses a
    /// justice or fairness literal.
    #[error("justice witness for `{property}` is invalid: {reason}")]
    Justice {
        /// The property being checked.
        property: String,
        /// What is wrong.
        reason: String,
    },
}
