//! Self-determined widths and signedness of expressions (IEEE 1364-2005 §5.4–5.5).
//!
//! An expression's final width is the maximum of its self-determined width and the width of
//! its context (e.g. the left-hand side of an assignment); context-determined operands are
//! evaluated at that width. The expression is signed only if all its context-determined
//! operands are signed.

use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::error::{DResult, Diag};

use super::elaborator::Elab;
use super::env::ProcState;
use super::scope::{Binding, ScopeId};
use super::value::MAX_WIDTH;

impl Elab<'_> {
    /// Self-determined width and signedness of `e`.
    pub(crate) fn self_type(&mut self, st: &mut ProcState, e: &Expr) -> DResult<(u32, bool)> {
        let t = match &e.kind {
            ExprKind::Number(n) => (n.width.unwrap_or(n.natural), n.signed),
            ExprKind::Str(s) => ((8 * s.len() as u32).max(8), false),
            ExprKind::Ident(path) => match self.lookup(st, path)? {
                Binding::Sig(s) => {
                    let sig = &self.sigs[s.0 as usize];
                    (sig.width, sig.signed)
                }
                Binding::Param(v) => (v.w, v.signed),
                _ => {
                    return Err(Diag::new(
                        e.span,
                        format!("`{}` is not a value", path_name(path)),
                    ))
                }
            },
            ExprKind::Index(base, _) => match self.memory_of(st, base)? {
                Some(s) => {
                    let sig = &self.sigs[s.0 as usize];
                    (sig.width, sig.signed)
                }
                None => (1, false),
            },
            ExprKind::Range(_, m, l) => {
                let m = self.index_const(st, m)?;
                let l = self.index_const(st, l)?;
                let w = (m - l).unsigned_abs().saturating_add(1);
                if w > MAX_WIDTH as u64 {
                    return Err(Diag::new(e.span, "part select is too wide"));
                }
                (w as u32, false)
            }
            ExprKind::IndexedRange { width, .. } => {
                let w = self.index_const(st, width)?;
                if w < 1 || w > MAX_WIDTH as i64 {
                    return Err(Diag::new(width.span, "invalid part-select width"));
                }
                (w as u32, false)
            }
            ExprKind::Unary(op, a) => match op {
                UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => self.self_type(st, a)?,
                _ => (1, false),
            },
            ExprKind::Binary(op, a, b) => match op {
                BinaryOp::Add
                | BinaryOp::Sub
                | BinaryOp::Mul
                | BinaryOp::Div
                | BinaryOp::Mod
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor
                | BinaryOp::Xnor => {
                    let (wa, sa) = self.self_type(st, a)?;
                    let (wb, sb) = self.self_type(st, b)?;
                    (wa.max(wb), sa && sb)
                }
                BinaryOp::Pow | BinaryOp::Shl | BinaryOp::Shr | BinaryOp::Ashr => {
                    self.self_type(st, a)?
                }
                _ => (1, false),
            },
            ExprKind::Cond(_, a, b) => {
                let (wa, sa) = self.self_type(st, a)?;
                let (wb, sb) = self.self_type(st, b)?;
                (wa.max(wb), sa && sb)
            }
            ExprKind::Concat(items) => {
                let mut w: u64 = 0;
                for it in items {
                    w += self.self_type(st, it)?.0 as u64;
                }
                if w > MAX_WIDTH as u64 {
                    return Err(Diag::new(e.span, "concatenation is too wide"));
                }
                (w as u32, false)
            }
            ExprKind::Repeat(n, items) => {
                let n = self.index_const(st, n)?;
                let mut w: u64 = 0;
                for it in items {
                    w += self.self_type(st, it)?.0 as u64;
                }
                let total = w.saturating_mul(n.max(0) as u64);
                if total == 0 && n == 0 {
                    // `{0{x}}`: nothing (allowed inside a concatenation).
                    return Ok((0, false));
                }
                if total == 0 || total > MAX_WIDTH as u64 {
                    return Err(Diag::new(e.span, "invalid replication width"));
                }
                (total as u32, false)
            }
            ExprKind::Call(name, args) if self.is_nd_call(st, name) => {
                let mut w = 1;
                let mut s = true;
                for a in args {
                    let (wa, sa) = self.self_type(st, a)?;
                    w = w.max(wa);
                    s &= sa;
                }
                (w, s && !args.is_empty())
            }
            ExprKind::Call(name, _) => {
                let path = std::slice::from_ref(name);
                match self.lookup(st, path)? {
                    Binding::Func(f, fscope) => self.func_type(f, fscope)?,
                    _ => {
                        return Err(Diag::new(
                            name.span,
                            format!("`{}` is not a function", name.name),
                        ))
                    }
                }
            }
            ExprKind::SysCall(name, args) => match name.name.as_str() {
                "$signed" | "$unsigned" => {
                    let [a] = args.as_slice() else {
                        return Err(Diag::new(
                            e.span,
                            format!("`{}` takes one argument", name.name),
                        ));
                    };
                    (self.self_type(st, a)?.0, name.name == "$signed")
                }
                "$ND" => {
                    let mut w = 1;
                    let mut s = true;
                    for a in args {
                        let (wa, sa) = self.self_type(st, a)?;
                        w = w.max(wa);
                        s &= sa;
                    }
                    (w, s && !args.is_empty())
                }
                "$clog2" => (32, true),
                other => {
                    return Err(Diag::new(
                        name.span,
                        format!("system function `{other}` is not supported"),
                    ))
                }
            },
        };
        Ok(t)
    }

    /// Whether a call names an undeclared VIS `ND_<n>` function (a nondeterministic choice).
    pub(crate) fn is_nd_call(&self, st: &ProcState, name: &crate::ast::Ident) -> bool {
        name.name
            .strip_prefix("ND_")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            && self.lookup(st, std::slice::from_ref(name)).is_err()
    }

    /// Width and signedness of a function's return value.
    pub(crate) fn func_type(
        &mut self,
        f: &crate::ast::FuncDecl,
        scope: ScopeId,
    ) -> DResult<(u32, bool)> {
        if f.integer {
            return Ok((32, true));
        }
        match &f.range {
            Some(r) => {
                let (_, _, w) = self.eval_range(r, scope)?;
                Ok((w, f.signed))
            }
            None => Ok((1, f.signed)),
        }
    }

    /// An index or bound that must be a constant (after unrolling), as an integer.
    pub(crate) fn index_const(&mut self, st: &mut ProcState, e: &Expr) -> DResult<i64> {
        let v = self.rvalue(st, e, None)?;
        self.const_i64(v).ok_or_else(|| {
            Diag::new(
                e.span,
                "expected a constant here (parameters, genvars and unrolled loop variables only)",
            )
        })
    }
}

/// A dotted name.
pub(crate) fn path_name(path: &[crate::ast::Ident]) -> String {
    path.iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(".")
}
