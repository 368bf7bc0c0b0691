//! Boolean faults: expression negation (`enf`), variable negation (`vnf`), missing
//! condition (`mcf`) and stuck-at (`sa0`, `sa1`).

use hypermut_ir::{BinOp, ExprId, ExprKind, Type, UnOp, Value};

use super::branches::{branch, is_guard};
use super::ctx::{Branch, Ctx};
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{bool_text, is_atomic};

/// Whether a node's text is the expression the node computes (so that replacing the text
/// replaces exactly this node).
pub(crate) fn denotes(cx: &Ctx, id: ExprId) -> bool {
    let Some(span) = cx.span(id) else {
        return false;
    };
    if cx.is_declaration(span) {
        return false;
    }
    match &cx.node(id).kind {
        ExprKind::Binary(..) => cx.bin_text(id).is_some(),
        ExprKind::Var(_) => cx.var_ref(id).is_some(),
        ExprKind::Unary(UnOp::Not, _) => cx.is_source_negation(id) || cx.bin_text(id).is_some(),
        ExprKind::Ite(..) => {
            matches!(branch(cx, id), Some(Branch::Ternary))
                || (branch(cx, id) == Some(Branch::SmvCase)
                    && cx.text(span).trim_start().starts_with("case"))
        }
        ExprKind::Cast(x, _) => cx.span(*x) == Some(span) && denotes(cx, *x),
        ExprKind::Extract { .. } => super::bits::is_select(cx.text(span)),
        _ => false,
    }
}

/// The textual parents of a node: users whose text strictly contains its text.
fn text_parents(cx: &Ctx, id: ExprId) -> Vec<ExprId> {
    let Some(span) = cx.span(id) else {
        return vec![];
    };
    cx.parents(id)
        .iter()
        .copied()
        .filter(|p| cx.span(*p).is_some_and(|ps| Ctx::strictly_inside(span, ps)))
        .collect()
}

/// Whether the node is written under a source negation (negating it again would only drop
/// that negation, which is a mutant of its own).
fn under_negation(cx: &Ctx, id: ExprId) -> bool {
    text_parents(cx, id)
        .iter()
        .any(|p| cx.is_source_negation(*p))
}

/// Whether the node is written as the operand of a prefix operator (`~x`, `-x`, `&x`); nodes
/// of the same text between them (a register read through its reset) are looked through.
fn after_prefix_operator(cx: &Ctx, id: ExprId) -> bool {
    let Some(span) = cx.span(id) else {
        return false;
    };
    let mut same = vec![id];
    let mut k = 0;
    while let Some(&n) = same.get(k) {
        k += 1;
        for p in cx.parents(n) {
            if cx.span(*p) == Some(span) && !same.contains(p) {
                same.push(*p);
            }
        }
    }
    same.iter().flat_map(|n| text_parents(cx, *n)).any(|p| {
        matches!(cx.node(p).kind, ExprKind::Unary(..))
            && cx
                .span(p)
                .is_some_and(|ps| ps.file == span.file && ps.start < span.start)
    })
}

/// Whether the node is an operand of a boolean and/or written in source.
fn under_and_or(cx: &Ctx, id: ExprId) -> bool {
    text_parents(cx, id).iter().any(|p| {
        matches!(
            cx.node(*p).kind,
            ExprKind::Binary(BinOp::And | BinOp::Or, ..)
        ) && cx.ty(*p).is_bool()
            && cx.bin_text(*p).is_some()
    })
}

/// `!text` in the source language.
fn negated(text: &str) -> String {
    if is_atomic(text) {
        format!("!{text}")
    } else {
        format!("!({text})")
    }
}

/// Whether a boolean operand is a Verilog vector used as a condition (`x != 0`).
fn wide_condition(cx: &Ctx, e: ExprId) -> bool {
    match &cx.node(e).kind {
        ExprKind::Cast(x, Type::Bool) => cx.ty(*x).bv_width().is_some_and(|w| w > 1),
        _ => false,
    }
}

/// Runs the boolean families on node `id`.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    let Some(span) = cx.span(id) else { return };
    let syntax = cx.syntax(span);
    let ty = cx.ty(id);
    let text = cx.text(span);
    let kind = cx.node(id).kind.clone();

    // vnf: a variable reference negated (boolean, or a 1-bit Verilog vector).
    if let Some(v) = cx.var_ref(id) {
        let bit = matches!(ty, Type::BitVec { width: 1, .. })
            && matches!(kind, ExprKind::Var(_))
            && !cx
                .parents(id)
                .iter()
                .any(|p| cx.span(*p) == Some(span) && cx.ty(*p).is_bool());
        if (ty.is_bool() || bit) && !under_negation(cx, id) {
            let name = cx.local_name(v);
            // The operand of a prefix operator (`~x`) is a primary in Verilog: `~!x` is not.
            let t = if after_prefix_operator(cx, id) {
                format!("(!{name})")
            } else {
                format!("!{name}")
            };
            cx.propose(Operator::Vnf, id, span, t, Edit::Negate);
        }
    }
    // A source negation dropped: vnf for a variable, enf for a compound expression.
    if cx.is_source_negation(id) {
        if let ExprKind::Unary(_, x) = kind {
            let plain_var = cx.var_ref(x).is_some();
            if let Some(xs) = cx.operand_span(x, span) {
                let inner = cx.text(xs).to_string();
                if plain_var {
                    cx.propose(Operator::Vnf, id, span, inner, Edit::Child(0));
                } else if ty.is_bool() {
                    let t = cx.fit(span, &inner);
                    cx.propose(Operator::Enf, id, span, t, Edit::Child(0));
                }
            }
        }
    }
    if !ty.is_bool() || matches!(kind, ExprKind::Const(_)) || !denotes(cx, id) {
        return;
    }
    // enf: a compound boolean expression negated (relations are `ror`'s, xor/xnor `lor`'s).
    let compound = match &kind {
        ExprKind::Binary(op, ..) => matches!(op, BinOp::And | BinOp::Or | BinOp::Implies),
        ExprKind::Ite(..) => true,
        ExprKind::Cast(..) => cx.var_ref(id).is_none(),
        _ => false,
    };
    if compound && !under_negation(cx, id) {
        cx.propose(Operator::Enf, id, span, negated(text), Edit::Negate);
    }
    // mcf: one operand of a boolean and/or dropped.
    if let (ExprKind::Binary(BinOp::And | BinOp::Or, a, b), Some(bt)) = (&kind, cx.bin_text(id)) {
        for (k, (operand, t)) in [(*a, &bt.left), (*b, &bt.right)].into_iter().enumerate() {
            let kept = if syntax == Syntax::Verilog && wide_condition(cx, operand) {
                format!("({t} != 0)")
            } else {
                cx.fit(span, t)
            };
            cx.propose(Operator::Mcf, id, span, kept, Edit::Child(k));
        }
    }
    // sa0 / sa1: not on operands of and/or (those faults are the parent's or `mcf`'s) nor
    // under a negation (the negation's own stuck-at covers them); a guard stuck at false is
    // `cbd`.
    if under_and_or(cx, id) || under_negation(cx, id) {
        return;
    }
    for (op, value) in [(Operator::Sa0, false), (Operator::Sa1, true)] {
        if !value && is_guard(cx, id) {
            continue;
        }
        cx.propose(
            op,
            id,
            span,
            bool_text(value, syntax).to_string(),
            Edit::Const(Value::Bool(value)),
        );
    }
}
