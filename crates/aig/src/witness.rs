//! HWMCC / AIGER 1.9 witnesses: a counterexample trace for a bad property.

use serde::{Deserialize, Serialize};

/// A counterexample: which property fails, the initial latch values and one input vector per
/// frame 0..=depth (the bad state is reached in the last frame). `None` means `x` (don't
/// care; checkers ground it to 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// Violated properties, as written in the file (`b0`, `j1`, …).
    pub properties: Vec<String>,
    /// Initial value per latch, in latch order.
    pub init: Vec<Option<bool>>,
    /// Input vector per frame, each with one value per input in input order.
    pub inputs: Vec<Vec<Option<bool>>>,
}

impl Witness {
    /// 0-based frame of the bad state (number of input vectors minus one).
    pub fn depth(&self) -> usize {
        self.inputs.len().saturating_sub(1)
    }
}
