//! Hash-consed expression DAG with source spans.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::source::Span;
use crate::types::Type;
use crate::value::Value;

/// Index of an expression node in an [`ExprPool`]. Children always have smaller ids than their
/// parents, so increasing id order is a topological order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ExprId(pub u32);

/// Index of a variable in [`System::vars`](crate::System::vars).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// Stable identifier of a nondeterministic choice site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChoiceId(pub u32);

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    /// Boolean negation, or bitwise complement of a bit-vector.
    Not,
    /// Arithmetic negation (`Int`) or two's complement negation (bit-vector).
    Neg,
}

/// Binary operators. Their meaning depends on the operand type: `And`/`Or`/`Xor` are bitwise
/// on bit-vectors; comparisons, division and `Shr` honour bit-vector signedness; `Int`
/// arithmetic is mathematical (division truncates toward zero, `Mod` takes the dividend's
/// sign; `x / 0 = 0`, `x mod 0 = x`); bit-vector division follows SMT-LIB (`x / 0` = all
/// ones, `x mod 0 = x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    /// Conjunction / bitwise and.
    And,
    /// Disjunction / bitwise or.
    Or,
    /// Exclusive or / bitwise xor.
    Xor,
    /// Boolean implication.
    Implies,
    /// Boolean equivalence.
    Iff,
    /// Equality (any type, both sides alike).
    Eq,
    /// Disequality.
    Ne,
    /// Less than.
    Lt,
    /// Less or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater or equal.
    Ge,
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division.
    Div,
    /// Remainder.
    Mod,
    /// Shift left by an unsigned amount; the result has the left operand's type.
    Shl,
    /// Shift right (arithmetic for signed bit-vectors, logical otherwise).
    Shr,
    /// Bit-vector concatenation, left operand in the high bits.
    Concat,
}

impl BinOp {
    /// Source-like spelling, for messages and mutant descriptions.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "xor",
            BinOp::Implies => "->",
            BinOp::Iff => "<->",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Concat => "::",
        }
    }

    /// Whether this is one of the six relational operators.
    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// What an expression node computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExprKind {
    /// A constant.
    Const(Value),
    /// The current value of a variable.
    Var(VarId),
    /// The next-state value of a state variable (only meaningful in transition constraints).
    Next(VarId),
    /// A nondeterministic choice of one of the options (all of one type). The chosen index is
    /// supplied per frame; the same id always yields the same choice within a frame.
    Choice {
        /// The site's stable id.
        id: ChoiceId,
        /// The alternatives.
        options: Vec<ExprId>,
    },
    /// Unary operator application.
    Unary(UnOp, ExprId),
    /// Binary operator application.
    Binary(BinOp, ExprId, ExprId),
    /// If-then-else.
    Ite(ExprId, ExprId, ExprId),
    /// Bits `hi..=lo` of a bit-vector (an unsigned bit-vector of `hi - lo + 1` bits).
    Extract {
        /// The bit-vector.
        arg: ExprId,
        /// Highest bit index (inclusive).
        hi: u32,
        /// Lowest bit index.
        lo: u32,
    },
    /// Conversion to another type: bool ↔ bit-vector (0/1, `≠ 0`), bit-vector resize
    /// (truncate, or extend according to the source's signedness) and signedness change,
    /// bit-vector → integer (value under its signedness), integer → bit-vector (mod 2^w),
    /// bool → integer (0/1), integer → integer (same value, new declared range).
    Cast(ExprId, Type),
}

impl ExprKind {
    /// The direct children, in order.
    pub fn children(&self) -> Vec<ExprId> {
        match self {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Next(_) => vec![],
            ExprKind::Choice { options, .. } => options.clone(),
            ExprKind::Unary(_, a) | ExprKind::Extract { arg: a, .. } | ExprKind::Cast(a, _) => {
                vec![*a]
            }
            ExprKind::Binary(_, a, b) => vec![*a, *b],
            ExprKind::Ite(c, t, e) => vec![*c, *t, *e],
        }
    }

    /// The same node with its children replaced, in order, by `new`.
    pub fn with_children(&self, new: &[ExprId]) -> ExprKind {
        let mut k = self.clone();
        match &mut k {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Next(_) => {}
            ExprKind::Choice { options, .. } => options.copy_from_slice(new),
            ExprKind::Unary(_, a) | ExprKind::Extract { arg: a, .. } | ExprKind::Cast(a, _) => {
                *a = new[0]
            }
            ExprKind::Binary(_, a, b) => {
                *a = new[0];
                *b = new[1];
            }
            ExprKind::Ite(c, t, e) => {
                *c = new[0];
                *t = new[1];
                *e = new[2];
            }
        }
        k
    }
}

/// One node: what it computes, its type and where in the source it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExprNode {
    /// The operation.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Type,
    /// Source range it was elaborated from (`None` for synthesised nodes).
    pub span: Option<Span>,
}

/// Storage for expression nodes with structural hashing: building the same `(kind, type, span)`
/// twice returns the same id. Nodes from distinct source positions stay distinct, so every
/// source occurrence remains a separate mutation site.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ExprPool {
    nodes: Vec<ExprNode>,
    #[serde(skip)]
    index: HashMap<(ExprKind, Type, Option<Span>), ExprId>,
}

impl ExprPool {
    /// Interns a node whose type has already been computed.
    pub(crate) fn intern(&mut self, kind: ExprKind, ty: Type, span: Option<Span>) -> ExprId {
        if self.index.is_empty() && !self.nodes.is_empty() {
            self.rebuild_index();
        }
        let key = (kind, ty, span);
        if let Some(id) = self.index.get(&key) {
            return *id;
        }
        let id = ExprId(self.nodes.len() as u32);
        self.nodes.push(ExprNode {
            kind: key.0.clone(),
            ty,
            span,
        });
        self.index.insert(key, id);
        id
    }

    fn rebuild_index(&mut self) {
        for (i, n) in self.nodes.iter().enumerate() {
            self.index
                .insert((n.kind.clone(), n.ty, n.span), ExprId(i as u32));
        }
    }

    /// The node with this id.
    ///
    /// # Panics
    /// If `id` does not come from this pool (an internal error, never user input).
    pub fn node(&self, id: ExprId) -> &ExprNode {
        &self.nodes[id.0 as usize]
    }

    /// Type of a node.
    pub fn ty(&self, id: ExprId) -> Type {
        self.node(id).ty
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the pool has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All nodes reachable from `roots`, in increasing (topological) id order.
    pub fn cone(&self, roots: impl IntoIterator<Item = ExprId>) -> Vec<ExprId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<ExprId> = roots.into_iter().collect();
        let mut out = Vec::new();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id.0 as usize], true) {
                continue;
            }
            out.push(id);
            stack.extend(self.node(id).kind.children());
        }
        out.sort();
        out
    }
}
