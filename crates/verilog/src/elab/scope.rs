//! The flattened design: signals (with their storage slots), scopes with their name bindings,
//! and the processes (continuous assignments, always and initial blocks) that drive signals.

use std::collections::HashMap;

use hypermut_ir::Span;

use crate::ast::{Expr, FuncDecl, Gate, Sensitivity, Stmt};

use super::value::V;

/// Index of a signal in [`super::elaborator::Elab::sigs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SigId(pub u32);

/// Index of a scope in [`super::elaborator::Elab::scopes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub u32);

/// One storage location: a signal, or one word of a memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    /// The signal.
    pub sig: SigId,
    /// The word (0 for plain signals; memory words count from the lowest declared index).
    pub word: u32,
}

/// What kind of object a signal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigKind {
    /// A net (`wire`, ports without `reg`).
    Net,
    /// A variable (`reg`, `integer`, `time`).
    Var,
    /// A function/task argument or local (never part of the circuit).
    Local,
}

/// A declared signal after flattening.
#[derive(Clone, Debug)]
pub struct Signal {
    /// Hierarchical name (`u1.count`).
    pub name: String,
    /// Width in bits.
    pub width: u32,
    /// Declared `signed` (or `integer`).
    pub signed: bool,
    /// Left index of the packed range.
    pub msb: i64,
    /// Right index of the packed range.
    pub lsb: i64,
    /// Memory words: lowest declared index and number of words.
    pub mem: Option<(i64, u32)>,
    /// Net, variable or local.
    pub kind: SigKind,
    /// Where it was declared.
    pub span: Span,
}

impl Signal {
    /// Number of storage slots (words).
    pub fn words(&self) -> u32 {
        self.mem.map_or(1, |(_, n)| n)
    }

    /// Offset of bit index `i` from the LSB position, allowing out-of-range results.
    pub fn bit_offset(&self, i: i64) -> i64 {
        if self.msb >= self.lsb {
            i - self.lsb
        } else {
            self.lsb - i
        }
    }

    /// The word holding declared memory index `i`, if in range.
    pub fn word_of(&self, i: i64) -> Option<u32> {
        let (lo, n) = self.mem?;
        let k = i.checked_sub(lo)?;
        (k >= 0 && k < n as i64).then_some(k as u32)
    }

    /// The name of a slot of this signal (`m[3]` for memory words).
    pub fn slot_name(&self, word: u32) -> String {
        match self.mem {
            Some((lo, _)) => format!("{}[{}]", self.name, lo + word as i64),
            None => self.name.clone(),
        }
    }
}

/// What a name stands for in a scope.
#[derive(Clone, Debug)]
pub enum Binding<'a> {
    /// A signal.
    Sig(SigId),
    /// A parameter, genvar or enumeration constant (a constant value).
    Param(V),
    /// A function and the scope it was declared in.
    Func(&'a FuncDecl, ScopeId),
    /// A task and the scope it was declared in.
    Task(&'a FuncDecl, ScopeId),
    /// A sub-scope (instance or named generate block), for hierarchical names.
    Scope(ScopeId),
    /// A VIS enumeration type name and its width.
    Type(u32),
}

/// A naming scope: a module instance or a generate block.
#[derive(Clone, Debug)]
pub struct Scope<'a> {
    /// Enclosing scope for generate blocks (`None` for module instances).
    pub parent: Option<ScopeId>,
    /// Hierarchical prefix of names declared here (`u1.gen[0].`).
    pub prefix: String,
    /// The names declared here.
    pub names: HashMap<String, Binding<'a>>,
    /// Counter for unnamed generate blocks (`genblk<n>`), kept in the module scope.
    pub genblk: u32,
    /// Whether undeclared names on the left of assignments become implicit nets (the
    /// module's `` `default_nettype ``).
    pub implicit_nets: bool,
}

/// Where a continuous assignment writes.
#[derive(Clone, Debug)]
pub enum Target<'a> {
    /// An lvalue expression in a scope.
    Expr(&'a Expr, ScopeId),
    /// A whole signal (instance port, net declaration).
    Sig(SigId),
}

/// What a continuous assignment reads.
#[derive(Clone, Debug)]
pub enum Source<'a> {
    /// An expression in a scope.
    Expr(&'a Expr, ScopeId),
    /// A whole signal (output port of an instance).
    Sig(SigId),
    /// A gate primitive's function of its input terminals.
    Gate(&'a Gate, ScopeId),
}

/// What a process is.
#[derive(Clone, Debug)]
pub enum ProcKind<'a> {
    /// Continuous assignment (`assign`, `wire x = e`, gates, port connections).
    Assign {
        /// Written location.
        target: Target<'a>,
        /// Value.
        source: Source<'a>,
    },
    /// `always` block.
    Always {
        /// Event control.
        sens: &'a Sensitivity,
        /// Body.
        body: &'a Stmt,
    },
    /// `initial` block.
    Initial {
        /// Body.
        body: &'a Stmt,
    },
    /// `reg x = e;` declaration initialiser.
    RegInit {
        /// The variable.
        sig: SigId,
        /// Its initial value.
        expr: &'a Expr,
    },
}

/// A process and the scope its names are resolved in.
#[derive(Clone, Debug)]
pub struct Proc<'a> {
    /// What it is.
    pub kind: ProcKind<'a>,
    /// Scope of its names.
    pub scope: ScopeId,
    /// Where it is.
    pub span: Span,
}
