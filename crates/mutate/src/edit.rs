//! How a mutated node is rebuilt from the original one ([`Edit`]), used both when mutants
//! are enumerated (to check that the result type-checks) and when the conditional mutant is
//! built.

use serde::{Deserialize, Serialize};

use hypermut_ir::system::ChoiceSite;
use hypermut_ir::{
    BinOp, ChoiceId, ExprId, ExprKind, Span, System, Type, TypeError, UnOp, Value, VarId,
};

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
    /// Drop alternative `k` of a choice of three or more alternatives. The choice keeps its
    /// site and its number of alternatives (so its nd input keeps its width, docs/method.md
    /// §6.1): the dropped position selects its neighbour (the next alternative, or the
    /// previous one for the last), and every other code selects what it selected before.
    DropAlt(usize),
    /// Replace the node by a nondeterministic choice among these constants of the node's
    /// type, as choice site `site`. The site is the first one after the model's own sites:
    /// the edit that first needs it adds it to the system, later edits reuse it. Every
    /// widening of a model names the same site, so a meta-mutant gives it the nd input name
    /// it has in each single mutant's product (only one mutant is selected at a time).
    Widen {
        /// The choice site id (the model's number of choice sites).
        site: u32,
        /// The alternatives, in order.
        values: Vec<Value>,
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

/// A constant of type `ty` with value `v`, if they fit each other.
fn typed_const(s: &mut System, ty: Type, v: &Value) -> Result<ExprId, TypeError> {
    Ok(match (v, ty) {
        (Value::Int(i), Type::Int { .. }) => s.int_const(*i, None),
        (Value::Bool(b), Type::Bool) => s.bool_const(*b, None),
        (Value::Bits { width, .. }, Type::BitVec { width: w, .. }) if *width == w => {
            s.constant(ty, v.clone(), None)
        }
        (Value::Enum(_), Type::Enum(_)) if v.fits(ty, &s.enums) => s.constant(ty, v.clone(), None),
        _ => return Err(mismatch("constant of another type")),
    })
}

/// Choice site `site` over `options` (see [`Edit::Widen`]): added to `s` when `s` has exactly
/// `site` sites, reused when it has it with the same number of alternatives.
fn widened(
    s: &mut System,
    site: u32,
    options: Vec<ExprId>,
    span: Option<Span>,
) -> Result<ExprId, TypeError> {
    let arity = options.len() as u32;
    match s.choices.get(site as usize) {
        Some(c) if c.arity == arity => {}
        Some(_) => return Err(mismatch("choice site of another arity")),
        None if s.choices.len() == site as usize => s.choices.push(ChoiceSite { span, arity }),
        None => return Err(mismatch("choice site beyond the next free one")),
    }
    s.mk(
        ExprKind::Choice {
            id: ChoiceId(site),
            options,
        },
        span,
    )
}

/// The mutated version of node `e` of `s` (built in `s`, without span, except the choice of
/// a widening, which has `e`'s). Fails if the edit does not fit the node or the result is
/// ill-typed.
pub fn apply(s: &mut System, e: ExprId, edit: &Edit) -> Result<ExprId, TypeError> {
    let node = s.exprs.node(e).clone();
    let kids = node.kind.children();
    let result = match (edit, &node.kind) {
        (Edit::BinOp(op), ExprKind::Binary(_, a, b)) => {
            s.mk(ExprKind::Binary(*op, *a, *b), None)?
        }
        (Edit::IntConst(v), _) => s.int_const(*v, None),
        (Edit::Const(v), _) => typed_const(s, node.ty, v)?,
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
        (Edit::DropAlt(k), ExprKind::Choice { id, options }) if options.len() >= 3 => {
            let mut rest = options.clone();
            let neighbour = if k + 1 < options.len() { k + 1 } else { k - 1 };
            let slot = rest
                .get_mut(*k)
                .ok_or_else(|| mismatch("no such alternative"))?;
            *slot = options[neighbour];
            s.mk(
                ExprKind::Choice {
                    id: *id,
                    options: rest,
                },
                None,
            )?
        }
        (Edit::Widen { site, values }, _) if values.len() >= 2 => {
            let options = values
                .iter()
                .map(|v| typed_const(s, node.ty, v))
                .collect::<Result<Vec<_>, _>>()?;
            // The site carries the constant's position, so that a test can say which
            // choice its nd value resolves.
            widened(s, *site, options, node.span)?
        }
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
