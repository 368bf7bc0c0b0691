//! Binary operator replacement (`ror`, `aor`, `lor`, `sor`) and associative shift (`asf`).
//!
//! The replacement families are one table: each family lists its IR operators, and a node
//! whose operator is in a family gets one mutant per other member that type-checks and is
//! not equivalent by construction.

use hypermut_ir::{BinOp, ExprId, ExprKind, System, Type, TypeError};

use super::ctx::{BinText, Ctx};
use super::equiv::{check, same, Agreement, Leaf};
use crate::edit::{Assoc, Edit, LogicOp};
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{paren, precedence, SrcOp};

/// The replacement families: operator and members.
const FAMILIES: [(Operator, &[SrcOp]); 4] = [
    (
        Operator::Ror,
        &[
            SrcOp::Bin(BinOp::Eq),
            SrcOp::Bin(BinOp::Ne),
            SrcOp::Bin(BinOp::Lt),
            SrcOp::Bin(BinOp::Le),
            SrcOp::Bin(BinOp::Gt),
            SrcOp::Bin(BinOp::Ge),
        ],
    ),
    (
        Operator::Aor,
        &[
            SrcOp::Bin(BinOp::Add),
            SrcOp::Bin(BinOp::Sub),
            SrcOp::Bin(BinOp::Mul),
            SrcOp::Bin(BinOp::Div),
            SrcOp::Bin(BinOp::Mod),
        ],
    ),
    (
        Operator::Lor,
        &[
            SrcOp::Bin(BinOp::And),
            SrcOp::Bin(BinOp::Or),
            SrcOp::Bin(BinOp::Xor),
            SrcOp::Xnor,
        ],
    ),
    (
        Operator::Sor,
        &[SrcOp::Bin(BinOp::Shl), SrcOp::Bin(BinOp::Shr)],
    ),
];

/// The `lor` member a source operator is (boolean `<->` is xnor).
fn logic_of(op: SrcOp) -> Option<LogicOp> {
    match op {
        SrcOp::Bin(BinOp::And) => Some(LogicOp::And),
        SrcOp::Bin(BinOp::Or) => Some(LogicOp::Or),
        SrcOp::Bin(BinOp::Xor) => Some(LogicOp::Xor),
        SrcOp::Bin(BinOp::Iff) | SrcOp::Xnor => Some(LogicOp::Xnor),
        _ => None,
    }
}

/// The operands `(a, b)` of a binary node (or of the `xor` under an xnor's negation).
fn operands(cx: &Ctx, id: ExprId) -> Option<(ExprId, ExprId)> {
    match &cx.node(id).kind {
        ExprKind::Binary(_, a, b) => Some((*a, *b)),
        ExprKind::Unary(_, x) => match &cx.node(*x).kind {
            ExprKind::Binary(BinOp::Xor, a, b) => Some((*a, *b)),
            _ => None,
        },
        _ => None,
    }
}

/// An operand as a leaf of an equivalence check.
fn leaf(cx: &Ctx, e: ExprId) -> Leaf {
    match &cx.node(e).kind {
        ExprKind::Const(v) => Leaf::Const(cx.ty(e), v.clone()),
        _ => Leaf::Free(cx.ty(e)),
    }
}

/// Builds `op(n[0], n[1])` for a source operator.
fn build(s: &mut System, op: SrcOp, a: ExprId, b: ExprId) -> Result<ExprId, TypeError> {
    match op {
        SrcOp::Bin(o) => match (o, s.ty(a)) {
            (BinOp::Iff, Type::BitVec { .. }) => build(s, SrcOp::Xnor, a, b),
            _ => s.mk(ExprKind::Binary(o, a, b), None),
        },
        SrcOp::Xnor if s.ty(a).is_bool() => s.mk(ExprKind::Binary(BinOp::Iff, a, b), None),
        SrcOp::Xnor => {
            let x = s.mk(ExprKind::Binary(BinOp::Xor, a, b), None)?;
            s.mk(ExprKind::Unary(hypermut_ir::UnOp::Not, x), None)
        }
    }
}

/// Whether a boolean operand is a Verilog vector read as a condition (`x != 0`), which the
/// bitwise spellings of xor/xnor would not preserve.
fn wide_condition(cx: &Ctx, e: ExprId) -> bool {
    match &cx.node(e).kind {
        ExprKind::Cast(x, Type::Bool) => cx.ty(*x).bv_width().is_some_and(|w| w > 1),
        _ => false,
    }
}

/// Runs the replacement families and `asf` on node `id`.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    if !cx.wants_any(&[
        Operator::Ror,
        Operator::Aor,
        Operator::Lor,
        Operator::Sor,
        Operator::Asf,
    ]) {
        return;
    }
    let Some(bt) = cx.bin_text(id) else { return };
    let Some((a, b)) = operands(cx, id) else {
        return;
    };
    let Some(span) = cx.span(id) else { return };
    let syntax = cx.syntax(span);
    let boolean = cx.ty(id).is_bool();
    let (ta, tb) = (cx.ty(a), cx.ty(b));
    let ordered = matches!(
        (ta, tb),
        (Type::Int { .. }, Type::Int { .. }) | (Type::BitVec { .. }, Type::BitVec { .. })
    );
    let leaves = [leaf(cx, a), leaf(cx, b)];
    let constant = leaves.iter().all(|l| matches!(l, Leaf::Const(..)));
    for (op, members) in FAMILIES {
        let Some(&own) = members
            .iter()
            .find(|m| **m == bt.op || logic_of(**m).is_some_and(|l| Some(l) == logic_of(bt.op)))
        else {
            continue;
        };
        // Targets kept so far: a target computing the same function as one of them is a
        // duplicate.
        let mut kept: Vec<SrcOp> = Vec::new();
        for &new in members {
            if new == own {
                continue;
            }
            let edit = match (op, new) {
                (Operator::Lor, _) => match logic_of(new) {
                    Some(l) => Edit::Logic(l),
                    None => continue,
                },
                (_, SrcOp::Bin(o)) => Edit::BinOp(o),
                _ => continue,
            };
            match op {
                Operator::Ror if !ordered && !matches!(new, SrcOp::Bin(BinOp::Eq | BinOp::Ne)) => {
                    continue
                }
                Operator::Aor
                    if syntax == Syntax::Verilog
                        && matches!(new, SrcOp::Bin(BinOp::Div | BinOp::Mod))
                        && !matches!(own, SrcOp::Bin(BinOp::Div | BinOp::Mod))
                        && !cx.unsigned_only(span) =>
                {
                    // Verilog's `/` and `%` are signed in a signed context, which the IR
                    // does not record for `+ - *`.
                    continue;
                }
                Operator::Lor
                    if syntax == Syntax::Verilog
                        && boolean
                        && matches!(logic_of(new), Some(LogicOp::Xor | LogicOp::Xnor))
                        && (wide_condition(cx, a) || wide_condition(cx, b)) =>
                {
                    continue
                }
                _ => {}
            }
            let Some(text) = cx.respell(id, &bt, new, boolean) else {
                continue;
            };
            // Equivalent by construction: exactly the same function of the operands as the
            // original (an exhaustive check; counted as dropped). A duplicate: the same
            // function as a target kept before, on the exhaustive check or the sample (it
            // claims nothing about the original). For `ror`, only when both operands are
            // constants.
            if op != Operator::Ror || constant {
                let g = |s: &mut System, n: &[ExprId]| build(s, new, n[0], n[1]);
                let f = |o: SrcOp| move |s: &mut System, n: &[ExprId]| build(s, o, n[0], n[1]);
                let equivalent = same(&cx.sys.enums, &leaves, &f(own), &g);
                let duplicate = !equivalent
                    && kept
                        .iter()
                        .any(|o| check(&cx.sys.enums, &leaves, &f(*o), &g) != Agreement::Differ);
                if equivalent {
                    cx.drop_equivalent(op, id, span, text, edit);
                    continue;
                }
                if duplicate {
                    continue;
                }
            }
            if cx.propose(op, id, span, text, edit) {
                kept.push(new);
            }
        }
    }
    asf(cx, id, &bt);
}

/// The family an operator belongs to for `asf` (brackets only move within one family).
fn asf_family(op: SrcOp) -> Option<u8> {
    match op {
        SrcOp::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod) => Some(0),
        SrcOp::Bin(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Iff) => Some(1),
        _ => None,
    }
}

/// `asf`: `(a ∘ b) • c` → `a ∘ (b • c)` and `a • (b ∘ c)` → `(a • b) ∘ c`.
fn asf(cx: &mut Ctx, id: ExprId, bt: &BinText) {
    if !cx.wants(Operator::Asf) {
        return;
    }
    let (Some(span), ExprKind::Binary(outer, l, r)) = (cx.span(id), cx.node(id).kind.clone())
    else {
        return;
    };
    let Some(fam) = asf_family(bt.op) else { return };
    let syntax = cx.syntax(span);
    for (dir, nested) in [(Assoc::LeftToRight, l), (Assoc::RightToLeft, r)] {
        let Some(nt) = cx.bin_text(nested) else {
            continue;
        };
        let Some(ns) = cx.span(nested) else { continue };
        let ExprKind::Binary(inner, x, y) = cx.node(nested).kind.clone() else {
            continue;
        };
        if asf_family(nt.op) != Some(fam) || !Ctx::strictly_inside(ns, span) {
            continue;
        }
        // Operands a, b, c in source order, and both shapes over them.
        let (a, b, c) = match dir {
            Assoc::LeftToRight => (x, y, r),
            Assoc::RightToLeft => (l, x, y),
        };
        let leaves = [leaf(cx, a), leaf(cx, b), leaf(cx, c)];
        let orig = |s: &mut System, n: &[ExprId]| match dir {
            Assoc::LeftToRight => {
                let ab = s.mk(ExprKind::Binary(inner, n[0], n[1]), None)?;
                s.mk(ExprKind::Binary(outer, ab, n[2]), None)
            }
            Assoc::RightToLeft => {
                let bc = s.mk(ExprKind::Binary(inner, n[1], n[2]), None)?;
                s.mk(ExprKind::Binary(outer, n[0], bc), None)
            }
        };
        let moved = |s: &mut System, n: &[ExprId]| match dir {
            Assoc::LeftToRight => {
                let bc = s.mk(ExprKind::Binary(outer, n[1], n[2]), None)?;
                s.mk(ExprKind::Binary(inner, n[0], bc), None)
            }
            Assoc::RightToLeft => {
                let ab = s.mk(ExprKind::Binary(outer, n[0], n[1]), None)?;
                s.mk(ExprKind::Binary(inner, ab, n[2]), None)
            }
        };
        let equivalent = same(&cx.sys.enums, &leaves, &orig, &moved);
        let (core, top) = match dir {
            Assoc::LeftToRight => (
                format!(
                    "{} {} ({} {} {})",
                    paren(&nt.left),
                    nt.token,
                    paren(&nt.right),
                    bt.token,
                    paren(&bt.right)
                ),
                nt.token.as_str(),
            ),
            Assoc::RightToLeft => (
                format!(
                    "({} {} {}) {} {}",
                    paren(&bt.left),
                    bt.token,
                    paren(&nt.left),
                    nt.token,
                    paren(&nt.right)
                ),
                nt.token.as_str(),
            ),
        };
        let looser = precedence(top, syntax) < precedence(&bt.token, syntax);
        let text = cx.wrap_core(span, core, bt.layers, looser);
        if equivalent {
            cx.drop_equivalent(Operator::Asf, id, span, text, Edit::Assoc(dir));
        } else {
            cx.propose(Operator::Asf, id, span, text, Edit::Assoc(dir));
        }
    }
}
