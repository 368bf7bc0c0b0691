//! How a mutated node is rebuilt from the original one ([`Edit`]), used both when mutants
//! are enumerated (to check that the result type-checks) and when the conditional mutant is
//! built.

use serde::{Deserialize, Serialize};

use hypermut_ir::{BinOp, ExprId, ExprKind, System, Type, TypeError, UnOp, Value, VarId};

/// A logical / bitwise operator of the `lor` family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LogicOp {
    /// Conjunction (`&`, `&&`).
    And,
    /// Disjunction (`|`, `||`).
    Or,
    /// Exclusive or (`xor`, `^`).
    Xor,
    /// Exclusive nor (`xnor`, `<->`, `~^`).
    Xnor,
}

/// Which way an associative shift moves the brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Assoc {
    /// `(a ∘ b) • c` becomes `a ∘ (b • c)`.
    LeftToRight,
    /// `a • (b ∘ c)` becomes `(a • b) ∘ c`.
    RightToLeft,
}

/// How the mutated node is rebuilt (applied to the node after its children were rebuilt).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edit {
    /// Replace the binary operator, keeping the operands.
    BinOp(BinOp),
    /// Replace the node by this integer constant.
    IntConst(i64),
    /// Replace the node by this constant of the node's own type (boolean, bit-vector, enum).
    Const(Value),
    /// Replace an and/or/xor/xnor node (boolean or bitwise) by another of the family.
    Logic(LogicOp),
    /// Negate the node (boolean `!`, or bitwise complement of a 1-bit vector).
    Negate,
    /// Replace the node by its `k`-th child (a dropped condition, a dropped negation, the
    /// `else` branch of an `ite`).
    Child(usize),
    /// Replace the node by the current value of a variable.
    Var(VarId),
    /// Move the brackets of a nested binary expression.
    Assoc(Assoc),
    /// Select other bits `hi..=lo` of the same vector.
    Extract {
        /// Highest bit.
        hi: u32,
        /// Lowest bit.
        lo: u32,
    },
}

/// The operands `(a, b)` of an and/or/xor/xnor node.
fn logic_operands(s: &System, e: ExprId) -> Option<(ExprId, ExprId)> {
    match s.exprs.node(e).kind {
        ExprKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Iff, a, b) => Some((a, b)),
        ExprKind::Unary(UnOp::Not, x) => match s.exprs.node(x).kind {
            ExprKind::Binary(BinOp::Xor, a, b) => Some((a, b)),
            _ => None,
        },
        _ => None,
    }
}

/// Builds `op(a, b)` for a logic operator (xnor is `<->` on booleans, `!(a xor b)` on
/// vectors).
fn build_logic(s: &mut System, op: LogicOp, a: ExprId, b: ExprId) -> Result<ExprId, TypeError> {
    let boolean = s.ty(a).is_bool();
    Ok(match op {
        LogicOp::And => s.mk(ExprKind::Binary(BinOp::And, a, b), None)?,
        LogicOp::Or => s.mk(ExprKind::Binary(BinOp::Or, a, b), None)?,
        LogicOp::Xor => s.mk(ExprKind::Binary(BinOp::Xor, a, b), None)?,
        LogicOp::Xnor if boolean => s.mk(ExprKind::Binary(BinOp::Iff, a, b), None)?,
        LogicOp::Xnor => {
            let x = s.mk(ExprKind::Binary(BinOp::Xor, a, b), None)?;
            s.mk(ExprKind::Unary(UnOp::Not, x), None)?
        }
    })
}

fn mismatch(what: &str) -> TypeError {
    TypeError::Width(format!("internal: the edit does not fit the node ({what})"))
}

/// The mutated version of node `e` of `s` (built in `s`, without span). Fails if the edit
/// does not fit the node or the result is ill-typed.
pub fn apply(s: &mut System, e: ExprId, edit: &Edit) -> Result<ExprId, TypeError> {
    let node = s.exprs.node(e).clone();
    let kids = node.kind.children();
    let result = match (edit, &node.kind) {
        (Edit::BinOp(op), ExprKind::Binary(_, a, b)) => {
            s.mk(ExprKind::Binary(*op, *a, *b), None)?
        }
        (Edit::IntConst(v), _) => s.int_const(*v, None),
        (Edit::Const(v), _) => match (v, node.ty) {
            (Value::Int(i), Type::Int { .. }) => s.int_const(*i, None),
            (Value::Bool(b), Type::Bool) => s.bool_const(*b, None),
            (Value::Bits { width, .. }, Type::BitVec { width: w, .. }) if *width == w => {
                s.constant(node.ty, v.clone(), None)
            }
            (Value::Enum(_), Type::Enum(_)) if v.fits(node.ty, &s.enums) => {
                s.constant(node.ty, v.clone(), None)
            }
            _ => return Err(mismatch("constant of another type")),
        },
        (Edit::Logic(op), _) => {
            let (a, b) = logic_operands(s, e).ok_or_else(|| mismatch("not a logic operator"))?;
            build_logic(s, *op, a, b)?
        }
        (Edit::Negate, _) => s.mk(ExprKind::Unary(UnOp::Not, e), None)?,
        (Edit::Child(k), _) => *kids.get(*k).ok_or_else(|| mismatch("no such child"))?,
        (Edit::Var(v), _) => {
            if v.0 as usize >= s.vars.len() {
                return Err(mismatch("unknown variable"));
            }
            s.var_ref(*v, None)
        }
        (Edit::Assoc(dir), ExprKind::Binary(outer, l, r)) => {
            match (dir, &s.exprs.node(*l).kind, &s.exprs.node(*r).kind) {
                (Assoc::LeftToRight, ExprKind::Binary(inner, a, b), _) => {
                    let (inner, a, b) = (*inner, *a, *b);
                    let bc = s.mk(ExprKind::Binary(*outer, b, *r), None)?;
                    s.mk(ExprKind::Binary(inner, a, bc), None)?
                }
                (Assoc::RightToLeft, _, ExprKind::Binary(inner, b, c)) => {
                    let (inner, b, c) = (*inner, *b, *c);
                    let ab = s.mk(ExprKind::Binary(*outer, *l, b), None)?;
                    s.mk(ExprKind::Binary(inner, ab, c), None)?
                }
                _ => return Err(mismatch("no nested operand")),
            }
        }
        (Edit::Extract { hi, lo }, ExprKind::Extract { arg, .. }) => s.mk(
            ExprKind::Extract {
                arg: *arg,
                hi: *hi,
                lo: *lo,
            },
            None,
        )?,
        _ => return Err(mismatch("wrong node kind")),
    };
    if s.unify(node.ty, s.ty(result)).is_none() {
        return Err(TypeError::Operands {
            op: "mutation".into(),
            found: format!(
                "{} replaced by {}",
                node.ty.describe(&s.enums),
                s.ty(result).describe(&s.enums)
            ),
        });
    }
    Ok(result)
}
