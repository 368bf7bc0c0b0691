//! Results of evaluated processes, memoised by the elaborator: [`CombEval`], [`SeqEval`] and
//! [`AsyncEval`].

use std::collections::HashMap;

use hypermut_ir::ExprId;

use super::scope::Slot;
use super::value::V;

/// The result of a combinational process: the full value of each slot it drives.
#[derive(Clone, Debug, Default)]
pub struct CombEval {
    /// Values per driven slot.
    pub finals: HashMap<Slot, V>,
}

/// The result of a clocked process.
#[derive(Clone, Debug, Default)]
pub struct SeqEval {
    /// End-of-block value per driven slot.
    pub finals: HashMap<Slot, V>,
}

/// The asynchronous part of a clocked process with asynchronous reset, set or load.
#[derive(Clone, Debug, Default)]
pub struct AsyncEval {
    /// The condition under which an asynchronous branch is taken.
    pub cond: Option<ExprId>,
    /// Values per driven slot after the asynchronous branches (registers elsewhere).
    pub finals: HashMap<Slot, V>,
}
