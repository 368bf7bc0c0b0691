//! Options of the front-end: overrides of the model's I/O annotation.

/// Overrides of the model's I/O annotation (`-- @input` / `-- @output` pragmas). Names are
/// hierarchical (`a.b`, `arr[2]`; an array name stands for all its elements).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SmvOptions {
    /// When set, exactly these variables are forced to be inputs (replacing `@input`).
    pub inputs: Option<Vec<String>>,
    /// When set, exactly these variables and DEFINEs are the outputs (replacing `@output`).
    pub outputs: Option<Vec<String>>,
}
