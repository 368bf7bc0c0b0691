//! Operators on nondeterministic choices (docs/method.md §10): `cad` drops one alternative
//! of a choice (SMV `{a, b}`, Verilog `$ND(a, b)` or `ND_<n>(a, b)`), and `cwd` widens a
//! constant that a variable is assigned into a choice between it and a neighbouring value.
//!
//! * A `cad` mutant only narrows the original's choices, so it is equivalent in the sense of
//!   docs/method.md §4.3; φ1 alone cannot show it (§6.3), `crate::inclusion` can (§4.6).
//! * A `cwd` mutant widens: it may do something the original cannot.
//! * Verilog: `cwd` spells the choice `$ND(…)`, so it is offered only in designs whose
//!   sources already use `$ND` (a plain RTL design must stay simulable by tools without
//!   `$ND`, e.g. iverilog).
//! * Verilog: `$ND(…)` evaluates its alternatives at the width of the widest one and is
//!   signed only if all of them are. `cad` is offered only where dropping an alternative, or
//!   the `$ND` around the last one, cannot change a value: the remaining alternatives are
//!   plain operands (a name, a literal, a select, whose value does not depend on the width
//!   they are evaluated at), and they keep the `$ND`'s signedness (it is signed, so all of
//!   them are; or one of them is known to be unsigned).

use num_bigint::BigInt;

use hypermut_ir::{ExprId, ExprKind, Type, Value, VarId};

use super::consts::{bv_bounds, parse_literal, spell, Literal};
use super::ctx::Ctx;
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{bool_text, fully_parenthesized, is_atomic, parse_int};

/// `cad` on a choice node and `cwd` on a constant node.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    match cx.node(id).kind {
        ExprKind::Choice { .. } => drop_alternatives(cx, id),
        ExprKind::Const(_) => widen(cx, id),
        _ => {}
    }
}

/// A choice as written: `head` (`{`, `$ND(`, `ND_3(`), the alternatives' texts, `tail`.
#[derive(Debug, PartialEq, Eq)]
struct Written {
    head: String,
    alts: Vec<String>,
    tail: &'static str,
}

impl Written {
    /// Reads the text of a choice node; `None` if it is not one bracketed list (a `union`, a
    /// process scheduler, text with comments).
    fn parse(text: &str, syntax: Syntax) -> Option<Written> {
        let t = text.trim();
        let (head, inner, tail) = match syntax {
            Syntax::Smv => {
                let inner = t.strip_prefix('{')?.strip_suffix('}')?;
                (String::from("{"), inner, "}")
            }
            Syntax::Verilog => {
                let open = t.find('(')?;
                let name = t[..open].trim();
                // `ND_<digits>` as the Verilog front-end reads it (an undeclared function).
                let is_nd = name == "$ND"
                    || name
                        .strip_prefix("ND_")
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
                if !is_nd || crate::text::matching_paren(t, open) != Some(t.len()) {
                    return None;
                }
                (format!("{name}("), &t[open + 1..t.len() - 1], ")")
            }
        };
        if ["--", "//", "/*", "\""].iter().any(|c| inner.contains(c)) {
            return None;
        }
        Some(Written {
            head,
            alts: split_top_commas(inner)?,
            tail,
        })
    }

    /// The choice among `alts`, written like this one.
    fn with(&self, alts: &[&str]) -> String {
        format!("{}{}{}", self.head, alts.join(", "), self.tail)
    }
}

/// The comma-separated parts of `text` outside brackets, trimmed; `None` if the brackets do
/// not balance or a part is empty.
fn split_top_commas(text: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0i64, 0);
    for (k, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            ',' if depth == 0 => {
                parts.push(text[from..k].trim().to_string());
                from = k + 1;
            }
            _ => {}
        }
    }
    parts.push(text[from..].trim().to_string());
    (depth == 0 && parts.iter().all(|p| !p.is_empty())).then_some(parts)
}

/// A Verilog operand whose value does not depend on the width it is evaluated at: a name, a
/// literal, a select (no operator, call or parentheses).
fn plain_operand(text: &str) -> bool {
    is_atomic(text) && !fully_parenthesized(text) && !text.contains('(')
}

/// Whether the alternative behind `node`, written `text`, is a Verilog operand known to be
/// unsigned: a based literal without `s`, a select, or an unsigned variable.
fn known_unsigned(cx: &Ctx, node: ExprId, text: &str) -> bool {
    if let Some((lit, _)) = parse_literal(text, Syntax::Verilog) {
        return matches!(lit, Literal::VerilogBased { signed: false, .. });
    }
    let mut e = node;
    loop {
        match cx.node(e).kind {
            ExprKind::Cast(x, _) => e = x,
            // A select written here (a name can stand for a signed wire over a select).
            ExprKind::Extract { .. } => return text.trim_end().ends_with(']'),
            ExprKind::Var(v) => {
                return matches!(cx.sys.var(v).ty, Type::BitVec { signed: false, .. })
                    && cx.local_name(v) == text.trim()
            }
            _ => return false,
        }
    }
}

/// Whether dropping alternative `k` of the Verilog choice `id` (see the module
/// documentation) keeps every value: the others are plain operands that keep its signedness.
fn exact_in_verilog(cx: &Ctx, id: ExprId, options: &[ExprId], alts: &[String], k: usize) -> bool {
    let rest = || (0..alts.len()).filter(|j| *j != k);
    let signed = matches!(cx.ty(id), Type::BitVec { signed: true, .. });
    rest().all(|j| plain_operand(&alts[j]))
        && (signed || rest().any(|j| known_unsigned(cx, options[j], &alts[j])))
}

/// `cad`: one mutant per alternative of a choice of at least two, without that alternative.
fn drop_alternatives(cx: &mut Ctx, id: ExprId) {
    if !cx.wants(Operator::Cad) {
        return;
    }
    let (Some(span), ExprKind::Choice { options, .. }) = (cx.span(id), cx.node(id).kind.clone())
    else {
        return;
    };
    let n = options.len();
    let syntax = cx.syntax(span);
    let Some(written) = Written::parse(cx.text(span), syntax) else {
        return;
    };
    if n < 2 || written.alts.len() != n {
        return;
    }
    for k in 0..n {
        let rest: Vec<&str> = (0..n)
            .filter(|j| *j != k)
            .map(|j| written.alts[j].as_str())
            .collect();
        if syntax == Syntax::Verilog && !exact_in_verilog(cx, id, &options, &written.alts, k) {
            continue;
        }
        let (text, edit) = match rest.as_slice() {
            [only] => (cx.fit(span, only), Edit::Child(usize::from(k == 0))),
            _ => (written.with(&rest), Edit::DropAlt(k)),
        };
        cx.propose(Operator::Cad, id, span, text, edit);
    }
}

/// The variable whose `init` or `next` value node `id` is, when `id` reaches that one
/// assignment through value positions only (the then/else branches of `case`/`if`/`?:` and
/// resizing casts, never a guard or an operator's operand) and every node on the way, the
/// constant included, has this one use. A constant used more often (a module instantiated
/// twice shares it) would become one choice for all its uses, while the edited text gives
/// each use its own.
fn sole_assignment(cx: &Ctx, id: ExprId) -> Option<VarId> {
    let mut e = id;
    loop {
        if let Some(v) = cx.next_of.get(&e).or_else(|| cx.init_of.get(&e)) {
            let sys = cx.sys;
            let assignments = sys
                .vars
                .iter()
                .map(|x| usize::from(x.init == Some(e)) + usize::from(x.next == Some(e)))
                .sum::<usize>();
            let elsewhere = sys.outputs.iter().any(|o| o.expr == e)
                || sys.constraints.iter().any(|c| c.expr == e)
                || sys.properties.iter().any(|p| p.expr == e);
            return (assignments == 1 && !elsewhere && cx.parents(e).is_empty()).then_some(*v);
        }
        let [p] = cx.parents(e) else {
            return None;
        };
        let p = *p;
        match cx.node(p).kind {
            ExprKind::Ite(g, t, f) if g != e && ((t == e) != (f == e)) => {}
            ExprKind::Cast(_, to) if !to.is_bool() => {}
            _ => return None,
        }
        e = p;
    }
}

/// Whether a Verilog design already writes `$ND` somewhere (see the module documentation).
fn uses_nd(cx: &Ctx) -> bool {
    cx.sys
        .choices
        .iter()
        .filter_map(|c| c.span)
        .any(|s| cx.syntax(s) == Syntax::Verilog && cx.text(s).trim_start().starts_with("$ND"))
}

/// The smallest and largest value of a variable type, as numbers (`None` for enumerations).
fn numeric_bounds(ty: Type) -> Option<(BigInt, BigInt)> {
    match ty {
        Type::Int { lo, hi } => Some((BigInt::from(lo), BigInt::from(hi))),
        Type::BitVec { width, signed } => Some(bv_bounds(width, signed)),
        Type::Bool | Type::Enum(_) => None,
    }
}

/// `cwd`: an assigned constant `c` becomes `{c-1, c}` and `{c, c+1}` (SMV) or
/// `$ND(c-1, c)` and `$ND(c, c+1)` (Verilog, literal style kept), where both values lie in
/// the types of the constant and of the assigned variable; `TRUE`/`FALSE` become
/// `{FALSE, TRUE}`; enumerations are left alone.
fn widen(cx: &mut Ctx, id: ExprId) {
    if !cx.wants(Operator::Cwd) {
        return;
    }
    let (Some(span), ExprKind::Const(value)) = (cx.span(id), cx.node(id).kind.clone()) else {
        return;
    };
    let syntax = cx.syntax(span);
    if syntax == Syntax::Verilog && !uses_nd(cx) {
        return;
    }
    let Some(var) = sole_assignment(cx, id) else {
        return;
    };
    let var_ty = cx.sys.var(var).ty;
    let text = cx.text(span);
    let site = cx.sys.choices.len() as u32;
    let choice = |parts: [String; 2]| match syntax {
        Syntax::Smv => format!("{{{}, {}}}", parts[0], parts[1]),
        Syntax::Verilog => format!("$ND({}, {})", parts[0], parts[1]),
    };
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    match (value, cx.ty(id)) {
        (Value::Bool(b), Type::Bool)
            if syntax == Syntax::Smv && var_ty.is_bool() && text.trim() == bool_text(b, syntax) =>
        {
            let parts = [false, true].map(|x| bool_text(x, syntax).to_string());
            out.push((choice(parts), vec![Value::Bool(false), Value::Bool(true)]));
        }
        (Value::Int(c), Type::Int { .. }) => {
            let Some((lo, hi)) = numeric_bounds(var_ty) else {
                return;
            };
            if parse_int(text) != Some(c) {
                return;
            }
            for pair in [[c.checked_sub(1), Some(c)], [Some(c), c.checked_add(1)]] {
                let [Some(a), Some(b)] = pair else { continue };
                if lo <= BigInt::from(a) && BigInt::from(b) <= hi {
                    let parts = [a.to_string(), b.to_string()];
                    out.push((choice(parts), vec![Value::Int(a), Value::Int(b)]));
                }
            }
        }
        (Value::Bits { width, bits }, ty @ Type::BitVec { signed, .. }) => {
            let Some((lit, denoted)) = parse_literal(text, syntax) else {
                return;
            };
            let sized_ok = match lit {
                Literal::VerilogBased { size: Some(s), .. } => s == width,
                _ => true,
            };
            let Some((vlo, vhi)) = numeric_bounds(var_ty) else {
                return;
            };
            if !sized_ok || denoted != bits {
                return;
            }
            let x = Value::Bits { width, bits }.to_bigint(ty);
            let (min, max) = bv_bounds(width, signed);
            let (lo, hi) = (min.max(vlo), max.min(vhi));
            for pair in [[&x - 1, x.clone()], [x.clone(), &x + 1]] {
                if pair.iter().any(|n| *n < lo || *n > hi) {
                    continue;
                }
                let spelled = pair.clone().map(|n| spell(&lit, width, signed, &n));
                let [Some(a), Some(b)] = spelled else {
                    continue;
                };
                let values = pair
                    .iter()
                    .map(|n| Value::bits_from_int(width, n))
                    .collect();
                out.push((choice([a, b]), values));
            }
        }
        _ => {}
    }
    for (t, values) in out {
        cx.propose(Operator::Cwd, id, span, t, Edit::Widen { site, values });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_choices_split_at_top_level_commas() {
        let w = Written::parse(" {coff, tea} ", Syntax::Smv).expect("a set");
        assert_eq!(w.alts, ["coff", "tea"]);
        assert_eq!(w.with(&["tea"]), "{tea}");
        let w = Written::parse("{f(a, b), {c, d}[1], x + 1}", Syntax::Smv).expect("a set");
        assert_eq!(w.alts, ["f(a, b)", "{c, d}[1]", "x + 1"]);
        let w = Written::parse("$ND(4'd1, {a, b}, q[3:0])", Syntax::Verilog).expect("$ND");
        assert_eq!(w.alts, ["4'd1", "{a, b}", "q[3:0]"]);
        assert_eq!(w.with(&["4'd1", "q[3:0]"]), "$ND(4'd1, q[3:0])");
        let w = Written::parse("ND_2 (a, b)", Syntax::Verilog).expect("ND_<n>");
        assert_eq!(w.with(&["b", "a"]), "ND_2(b, a)");
        for (text, syntax) in [
            ("{a, b} union {c}", Syntax::Smv),
            ("{a, -- x\n b}", Syntax::Smv),
            ("{a, }", Syntax::Smv),
            ("f(a, b)", Syntax::Verilog),
            ("ND_x(a, b)", Syntax::Verilog),
            ("$ND(a, b) + 1", Syntax::Verilog),
            ("$ND(a, (b)", Syntax::Verilog),
        ] {
            assert_eq!(Written::parse(text, syntax), None, "{text}");
        }
    }

    #[test]
    fn plain_operands_have_no_operator_call_or_parentheses() {
        for t in ["q", "4'd3", "1'b0", "d[3:1]", "IDLE", "12"] {
            assert!(plain_operand(t), "{t}");
        }
        for t in ["a + b", "(a)", "f(x)", "$signed(x)", "-1", "~a"] {
            assert!(!plain_operand(t), "{t}");
        }
    }
}
