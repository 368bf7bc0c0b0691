//! Constant replacement (`const+1`, `const-1`, `const0`, `constmax`) and initial / reset
//! value change (`rvc`).
//!
//! Only constants written as literals are mutated, and the new value is spelled in the
//! literal's own style (SMV `0ud8_5`, Verilog `8'h1f`, plain decimals). Values never wrap:
//! `+1` of a type's largest value and `-1` of its smallest are not produced.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};

use hypermut_ir::{ExprId, ExprKind, Type, Value, VarId};

use super::ctx::Ctx;
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{bool_text, parse_int};

/// How a bit-vector literal is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Literal {
    /// SMV `0[us]?<base><width>_<digits>`.
    SmvWord {
        /// The sign letter as written (`u`, `s`, or none).
        sign: Option<char>,
    },
    /// Verilog `<size>'[s]<base><digits>` (size and sign optional).
    VerilogBased {
        /// Declared size.
        size: Option<u32>,
        /// `'s` given.
        signed: bool,
        /// Base letter, lower case.
        base: char,
    },
    /// Verilog plain decimal (unsized, 32-bit signed).
    VerilogDecimal,
}

fn radix(base: char) -> Option<u32> {
    match base.to_ascii_lowercase() {
        'b' => Some(2),
        'o' => Some(8),
        'd' => Some(10),
        'h' => Some(16),
        _ => None,
    }
}

fn digits_value(digits: &str, r: u32) -> Option<BigUint> {
    let d: String = digits.chars().filter(|c| *c != '_').collect();
    if d.is_empty() {
        return None;
    }
    BigUint::parse_bytes(d.as_bytes(), r)
}

/// Parses a bit-vector literal; returns its style and the value it denotes.
pub(crate) fn parse_literal(text: &str, syntax: Syntax) -> Option<(Literal, BigUint)> {
    let t = text.trim();
    match syntax {
        Syntax::Smv => {
            let rest = t.strip_prefix('0')?;
            let mut chars = rest.chars();
            let mut c = chars.next()?;
            let sign = if matches!(c, 'u' | 's' | 'U' | 'S') {
                let s = c.to_ascii_lowercase();
                c = chars.next()?;
                Some(s)
            } else {
                None
            };
            let r = radix(c)?;
            let rest: String = chars.collect();
            let (_, digits) = rest.split_once('_')?;
            Some((Literal::SmvWord { sign }, digits_value(digits, r)?))
        }
        Syntax::Verilog => {
            if t.bytes().all(|c| c.is_ascii_digit() || c == b'_') {
                return Some((Literal::VerilogDecimal, digits_value(t, 10)?));
            }
            let (size, rest) = t.split_once('\'')?;
            let size = match size.trim() {
                "" => None,
                s => Some(s.parse::<u32>().ok()?),
            };
            let mut chars = rest.trim_start().chars();
            let mut c = chars.next()?;
            let signed = matches!(c, 's' | 'S');
            if signed {
                c = chars.next()?;
            }
            let r = radix(c)?;
            let digits: String = chars.collect();
            Some((
                Literal::VerilogBased {
                    size,
                    signed,
                    base: c.to_ascii_lowercase(),
                },
                digits_value(digits.trim(), r)?,
            ))
        }
    }
}

/// The bit pattern of `v` in `width` bits.
fn pattern(width: u32, v: &BigInt) -> BigUint {
    match Value::bits_from_int(width, v) {
        Value::Bits { bits, .. } => bits,
        _ => BigUint::zero(),
    }
}

/// Spells the value `v` (a number under the node type) in the style of `lit`.
pub(crate) fn spell(lit: &Literal, width: u32, signed: bool, v: &BigInt) -> Option<String> {
    let p = pattern(width, v);
    match lit {
        Literal::SmvWord { sign } => {
            let s = sign.map(String::from).unwrap_or_default();
            if v.sign() == num_bigint::Sign::Minus {
                let abs = -v;
                let limit = BigInt::one() << (width.saturating_sub(1));
                if abs < limit {
                    Some(format!("-0{s}d{width}_{abs}"))
                } else {
                    Some(format!("0{s}b{width}_{}", p.to_str_radix(2)))
                }
            } else {
                Some(format!("0{s}d{width}_{v}"))
            }
        }
        Literal::VerilogDecimal => {
            (p.to_u64().is_some_and(|x| x < (1 << 31))).then(|| p.to_string())
        }
        Literal::VerilogBased {
            size,
            signed: s,
            base,
        } => {
            if size.is_none() && p.bits() > 32 {
                return None;
            }
            let size_text = size.map(|n| n.to_string()).unwrap_or_default();
            let sign = if *s { "s" } else { "" };
            // Signed literals are spelled as bit patterns, unsigned ones in their base.
            let (b, r) = if *s || signed {
                ('b', 2)
            } else {
                (*base, radix(*base)?)
            };
            Some(format!("{size_text}'{sign}{b}{}", p.to_str_radix(r)))
        }
    }
}

/// The smallest and largest value of a bit-vector type.
pub(crate) fn bv_bounds(width: u32, signed: bool) -> (BigInt, BigInt) {
    if signed {
        let h = BigInt::one() << (width - 1);
        (-h.clone(), h - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << width) - 1)
    }
}

/// The variable whose `init` or `next` value node `id` is (directly, or as a branch value of
/// `case`/`if` chains).
pub(crate) fn assigned_var(cx: &Ctx, id: ExprId) -> Option<VarId> {
    let mut frontier = vec![id];
    let mut steps = 0;
    while let Some(e) = frontier.pop() {
        if let Some(v) = cx.next_of.get(&e).or_else(|| cx.init_of.get(&e)) {
            return Some(*v);
        }
        steps += 1;
        if steps > 10_000 {
            return None;
        }
        for p in cx.parents(e) {
            match &cx.node(*p).kind {
                ExprKind::Ite(_, t, f) if *t == e || *f == e => frontier.push(*p),
                ExprKind::Choice { .. } => frontier.push(*p),
                _ => {}
            }
        }
    }
    None
}

/// The range an integer constant is compared with or assigned to (for `constmax`).
fn int_context(cx: &Ctx, id: ExprId) -> Option<(i64, i64)> {
    if let Some(v) = assigned_var(cx, id) {
        if let Type::Int { lo, hi } = cx.sys.var(v).ty {
            return Some((lo, hi));
        }
    }
    let span = cx.span(id)?;
    cx.parents(id).iter().find_map(|p| {
        let ps = cx.span(*p)?;
        if !Ctx::strictly_inside(span, ps) {
            return None;
        }
        match cx.node(*p).kind {
            ExprKind::Binary(_, a, b) => {
                let other = if a == id { b } else { a };
                match (cx.node(other).kind.clone(), cx.ty(other)) {
                    (ExprKind::Var(_), Type::Int { lo, hi }) => Some((lo, hi)),
                    _ => None,
                }
            }
            _ => None,
        }
    })
}

/// The values an integer constant may take without making the model ill-typed: 0 and 1 for
/// a number used as a boolean, the range of the variable it is assigned to (NuSMV rejects
/// an out-of-range constant assignment), or `0..=w` for the amount of a shift of a `w`-bit
/// word.
fn int_allowed(cx: &Ctx, id: ExprId) -> Option<(i64, i64)> {
    // 0/1 read as a boolean (NuSMV's `-old` idiom) must stay 0 or 1.
    if cx
        .parents(id)
        .iter()
        .any(|p| matches!(cx.node(*p).kind, ExprKind::Cast(_, Type::Bool)))
    {
        return Some((0, 1));
    }
    if let Some(v) = assigned_var(cx, id) {
        if let Type::Int { lo, hi } = cx.sys.var(v).ty {
            return Some((lo, hi));
        }
    }
    cx.parents(id).iter().find_map(|p| match cx.node(*p).kind {
        ExprKind::Binary(hypermut_ir::BinOp::Shl | hypermut_ir::BinOp::Shr, a, b) if b == id => {
            cx.ty(a).bv_width().map(|w| (0, i64::from(w)))
        }
        _ => None,
    })
}

/// Constant replacement on node `id`.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    if !cx.wants_any(&[
        Operator::ConstPlusOne,
        Operator::ConstMinusOne,
        Operator::Const0,
        Operator::ConstMax,
    ]) || cx.init_of.contains_key(&id)
    {
        return;
    }
    let (Some(span), ExprKind::Const(value)) = (cx.span(id), cx.node(id).kind.clone()) else {
        return;
    };
    let syntax = cx.syntax(span);
    let text = cx.text(span);
    match (value, cx.ty(id)) {
        (Value::Int(v), _) => {
            if parse_int(text) != Some(v) {
                return;
            }
            let mut cands = vec![
                (Operator::ConstPlusOne, v.checked_add(1)),
                (Operator::ConstMinusOne, v.checked_sub(1)),
                (Operator::Const0, Some(0)),
            ];
            if let Some((_, hi)) = int_context(cx, id) {
                cands.push((Operator::ConstMax, Some(hi)));
            }
            let allowed = int_allowed(cx, id);
            for (op, n) in cands {
                let n =
                    n.filter(|n| *n != v && allowed.is_none_or(|(lo, hi)| lo <= *n && *n <= hi));
                if let Some(n) = n {
                    cx.propose(op, id, span, n.to_string(), Edit::IntConst(n));
                }
            }
        }
        (Value::Bool(b), _) => {
            for (op, n) in [(Operator::Const0, false), (Operator::ConstMax, true)] {
                if n != b && text.trim() == bool_text(b, syntax) {
                    let t = bool_text(n, syntax).to_string();
                    cx.propose(op, id, span, t, Edit::Const(Value::Bool(n)));
                }
            }
        }
        (Value::Bits { width, bits }, ty @ Type::BitVec { signed, .. }) => {
            let Some((lit, denoted)) = parse_literal(text, syntax) else {
                return;
            };
            // The literal must denote exactly the node's bits (no implicit resizing).
            let sized_ok = match lit {
                Literal::VerilogBased { size: Some(s), .. } => s == width,
                _ => true,
            };
            if !sized_ok || denoted != bits {
                return;
            }
            let x = Value::Bits { width, bits }.to_bigint(ty);
            let (min, max) = bv_bounds(width, signed);
            let cands = [
                (Operator::ConstPlusOne, &x + 1),
                (Operator::ConstMinusOne, &x - 1),
                (Operator::Const0, BigInt::zero()),
                (Operator::ConstMax, max.clone()),
            ];
            for (op, n) in cands {
                if n == x || n < min || n > max {
                    continue;
                }
                let Some(t) = spell(&lit, width, signed, &n) else {
                    continue;
                };
                let val = Value::bits_from_int(width, &n);
                cx.propose(op, id, span, t, Edit::Const(val));
            }
        }
        _ => {}
    }
}

/// `rvc`: each constant initial value changed (booleans flipped, numbers ±1 within the
/// variable's type, enumerations to the nearest other values).
pub(crate) fn initial_values(cx: &mut Ctx) {
    if !cx.wants(Operator::Rvc) {
        return;
    }
    let sys = cx.sys;
    for var in &sys.vars {
        let Some(e) = var.init else { continue };
        let (Some(span), ExprKind::Const(value)) = (cx.span(e), cx.node(e).kind.clone()) else {
            continue;
        };
        let syntax = cx.syntax(span);
        let text = cx.text(span);
        let mut out: Vec<(String, Edit)> = Vec::new();
        match (value, var.ty) {
            (Value::Bool(b), _) if text.trim() == bool_text(b, syntax) => {
                out.push((bool_text(!b, syntax).into(), Edit::Const(Value::Bool(!b))));
            }
            (Value::Int(v), Type::Int { lo, hi }) if parse_int(text) == Some(v) => {
                for n in [v.checked_sub(1), v.checked_add(1)].into_iter().flatten() {
                    if lo <= n && n <= hi {
                        out.push((n.to_string(), Edit::IntConst(n)));
                    }
                }
            }
            (Value::Enum(k), Type::Enum(en)) => {
                let Some(names) = sys.enums.get(en.0 as usize).map(|t| &t.values) else {
                    continue;
                };
                if names.get(k as usize).map(String::as_str) != Some(text.trim()) {
                    continue;
                }
                let mut others: Vec<u32> = (0..names.len() as u32).filter(|j| *j != k).collect();
                others.sort_by_key(|j| (j.abs_diff(k), *j));
                for j in others.into_iter().take(3) {
                    out.push((names[j as usize].clone(), Edit::Const(Value::Enum(j))));
                }
            }
            (Value::Bits { width, bits }, ty @ Type::BitVec { signed, .. }) => {
                let node_ty = cx.ty(e);
                let Some((lit, denoted)) = parse_literal(text, syntax) else {
                    continue;
                };
                if denoted != bits || node_ty != ty {
                    continue;
                }
                let x = Value::Bits { width, bits }.to_bigint(ty);
                let (min, max) = bv_bounds(width, signed);
                for n in [&x - 1, &x + 1] {
                    if min <= n && n <= max {
                        if let Some(t) = spell(&lit, width, signed, &n) {
                            out.push((t, Edit::Const(Value::bits_from_int(width, &n))));
                        }
                    }
                }
            }
            _ => {}
        }
        for (t, edit) in out {
            cx.propose(Operator::Rvc, e, span, t, edit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_parse_and_spell_in_their_style() {
        let (l, v) = parse_literal("0ud8_5", Syntax::Smv).expect("word");
        assert_eq!(v, BigUint::from(5u8));
        assert_eq!(
            spell(&l, 8, false, &BigInt::from(6)).as_deref(),
            Some("0ud8_6")
        );
        let (l, v) = parse_literal("0sd4_2", Syntax::Smv).expect("word");
        assert_eq!(v, BigUint::from(2u8));
        assert_eq!(
            spell(&l, 4, true, &BigInt::from(-3)).as_deref(),
            Some("-0sd4_3")
        );
        assert_eq!(
            spell(&l, 4, true, &BigInt::from(-8)).as_deref(),
            Some("0sb4_1000")
        );
        let (l, v) = parse_literal("0b4_1010", Syntax::Smv).expect("word");
        assert_eq!(v, BigUint::from(10u8));
        assert_eq!(
            spell(&l, 4, false, &BigInt::from(11)).as_deref(),
            Some("0d4_11")
        );
        let (l, v) = parse_literal("3'd7", Syntax::Verilog).expect("based");
        assert_eq!(v, BigUint::from(7u8));
        assert_eq!(
            spell(&l, 3, false, &BigInt::from(6)).as_deref(),
            Some("3'd6")
        );
        let (l, _) = parse_literal("8'hF0", Syntax::Verilog).expect("hex");
        assert_eq!(
            spell(&l, 8, false, &BigInt::from(0xf1)).as_deref(),
            Some("8'hf1")
        );
        let (l, _) = parse_literal("4'sd3", Syntax::Verilog).expect("signed");
        assert_eq!(
            spell(&l, 4, true, &BigInt::from(-3)).as_deref(),
            Some("4'sb1101")
        );
        let (l, v) = parse_literal("12", Syntax::Verilog).expect("decimal");
        assert_eq!(v, BigUint::from(12u8));
        assert_eq!(
            spell(&l, 32, false, &BigInt::from(13)).as_deref(),
            Some("13")
        );
        assert!(parse_literal("4'bx01", Syntax::Verilog).is_none());
        assert!(parse_literal("x", Syntax::Smv).is_none());
    }
}
