//! Branches: which `ite` nodes are source branches (`case` arms, `if` statements, `?:`),
//! and case-branch deletion (`cbd`).

use std::collections::HashMap;

use hypermut_ir::{BinOp, ExprId, ExprKind, Span, Value};

use super::ctx::{Branch, Ctx};
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{bool_text, top_tokens};

fn starts_with_word(text: &str, word: &str) -> bool {
    text.trim_start().strip_prefix(word).is_some_and(|rest| {
        rest.chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// The source construct of `ite` node `id`, if it is one.
pub(crate) fn branch(cx: &Ctx, id: ExprId) -> Option<Branch> {
    cx.branches.get(&id).copied()
}

/// Classifies every reachable `ite` node. Parents come before their children (larger ids
/// first), so an SMV `case` arm can look up the arm it continues.
pub(crate) fn classify(cx: &Ctx) -> HashMap<ExprId, Branch> {
    let mut out: HashMap<ExprId, Branch> = HashMap::new();
    for &id in cx.order.iter().rev() {
        if let Some(b) = classify_one(cx, id, &out) {
            out.insert(id, b);
        }
    }
    out
}

fn classify_one(cx: &Ctx, id: ExprId, known: &HashMap<ExprId, Branch>) -> Option<Branch> {
    let span = cx.span(id)?;
    let ExprKind::Ite(g, _, e) = cx.node(id).kind else {
        return None;
    };
    let text = cx.text(span);
    match cx.syntax(span) {
        Syntax::Smv => {
            if starts_with_word(text, "case") {
                return Some(Branch::SmvCase);
            }
            let chained = cx.parents(id).iter().any(|p| {
                matches!(cx.node(*p).kind, ExprKind::Ite(_, _, pe) if pe == id)
                    && cx.span(*p).is_some_and(|ps| Ctx::strictly_inside(span, ps))
                    && known.get(p) == Some(&Branch::SmvCase)
            });
            if chained {
                return Some(Branch::SmvCase);
            }
        }
        Syntax::Verilog => {
            let gs = cx.span(g)?;
            if starts_with_word(text, "if") && Ctx::strictly_inside(gs, span) {
                return Some(Branch::VerilogIf);
            }
            let single_label = matches!(cx.node(g).kind, ExprKind::Binary(BinOp::Eq, ..));
            let between = cx
                .file_text(span)
                .get(gs.end as usize..span.start as usize)
                .map(str::trim);
            if single_label && gs.file == span.file && between == Some(":") {
                return Some(Branch::VerilogArm);
            }
        }
    }
    // `c ? a : b`: the else operand ends the text, which has `?` and `:` outside brackets.
    let es = cx.span(e)?;
    let tokens = top_tokens(text)?;
    let has = |t: &str| tokens.iter().any(|k| k.text == t);
    (Ctx::strictly_inside(es, span)
        && text.trim_end().len() + span.start as usize == es.end as usize
        && has("?")
        && has(":"))
    .then_some(Branch::Ternary)
}

/// Whether `id` is the guard of a source branch (stuck-at-0 of a guard is `cbd`).
pub(crate) fn is_guard(cx: &Ctx, id: ExprId) -> bool {
    cx.parents(id).iter().any(|p| {
        matches!(cx.node(*p).kind, ExprKind::Ite(g, _, _) if g == id) && branch(cx, *p).is_some()
    })
}

/// The end of the SMV case arm starting at byte `from`: one past its `;` (outside brackets,
/// comments and nested `case … esac`), if it lies before `limit`.
fn arm_end(file: &str, from: usize, limit: usize) -> Option<usize> {
    let b = file.as_bytes();
    let (mut depth, mut cases) = (0i64, 0i64);
    let mut i = from;
    while i < limit.min(b.len()) {
        let c = b[i];
        if c == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'$' | b'#'))
            {
                i += 1;
            }
            match &file[start..i] {
                "case" => cases += 1,
                "esac" => cases -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 && cases == 0 => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first byte at or after `at` that is not whitespace or an SMV comment.
fn skip_blank(file: &str, mut at: usize) -> usize {
    loop {
        let rest = file.get(at..).unwrap_or("");
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("--") {
            at += trimmed.find('\n').unwrap_or(trimmed.len());
        } else {
            return at;
        }
    }
}

/// `cbd` on `ite` node `id`.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    if !cx.wants(Operator::Cbd) {
        return;
    }
    let (Some(span), ExprKind::Ite(g, _, e)) = (cx.span(id), cx.node(id).kind.clone()) else {
        return;
    };
    let Some(kind) = branch(cx, id) else { return };
    let file = cx.file_text(span);
    match kind {
        Branch::SmvCase => {
            let mut start = span.start as usize;
            if starts_with_word(cx.text(span), "case") {
                start = skip_blank(file, skip_blank(file, start) + 4);
            }
            let Some(end) = arm_end(file, start, span.end as usize) else {
                return;
            };
            let region = Span::new(span.file, start, end);
            cx.propose(Operator::Cbd, id, region, String::new(), Edit::Child(2));
        }
        Branch::Ternary => {
            let Some(es) = cx.span(e) else { return };
            let text = cx.fit(span, cx.text(es));
            cx.propose(Operator::Cbd, id, span, text, Edit::Child(2));
        }
        Branch::VerilogIf => {
            let Some(gs) = cx.span(g) else { return };
            let text = bool_text(false, Syntax::Verilog).to_string();
            cx.propose(Operator::Cbd, g, gs, text, Edit::Const(Value::Bool(false)));
        }
        Branch::VerilogArm => {
            let Some(gs) = cx.span(g) else { return };
            let region = Span::new(span.file, gs.start as usize, span.end as usize);
            cx.propose(
                Operator::Cbd,
                g,
                region,
                String::new(),
                Edit::Const(Value::Bool(false)),
            );
        }
    }
}
