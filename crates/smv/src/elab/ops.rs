//! Operators and built-in functions lowered to IR nodes.
//!
//! The node that represents a source operator carries the operator expression's span;
//! helper nodes that have no source counterpart carry none (they are not mutation sites).
//!
//! * `& | xor` on booleans and words, `xnor` = `!(a xor b)` on words (`<->` on booleans),
//!   `->` on words is `!a | b`, `<->` on words is `!(a xor b)`.
//! * Comparisons of different enumerations (or of an integer with a mixed enumeration) are
//!   true when both sides denote the same constant.
//! * `resize(w, n)` of a signed word keeps the sign bit when it shortens the word (NuSMV 2.6).
//! * `count(b1, …)` is the sum of `toint(bi)`; `abs`, `max`, `min` are `?:` expressions.

use hypermut_ir::{BinOp as IrOp, ExprId, ExprKind as Ir, Span, Type, UnOp, Value};
use num_bigint::{BigInt, BigUint};

use crate::ast::{BinOp, Builtin, Expr, Ident};
use crate::error::Diag;
use crate::lexer::MAX_WORD_WIDTH;

use super::common::NextMode;
use super::state::{Elab, InstId};

impl<'a> Elab<'a> {
    /// `a op b` for an already elaborated pair of operands.
    pub(crate) fn binary(
        &mut self,
        op: BinOp,
        a: ExprId,
        b: ExprId,
        span: Span,
    ) -> Result<ExprId, Diag> {
        let (mut a, mut b) = (a, b);
        let (ta0, tb0) = (self.st.sys.ty(a), self.st.sys.ty(b));
        let logical = matches!(
            op,
            BinOp::And
                | BinOp::Or
                | BinOp::Xor
                | BinOp::Xnor
                | BinOp::Implies
                | BinOp::Iff
                | BinOp::Eq
                | BinOp::Ne
        );
        // NuSMV `-old`: 0/1 next to a boolean is a boolean.
        if logical && ta0.is_bool() && !tb0.is_bool() && self.convertible(tb0, Type::Bool) {
            b = self.coerce(b, Type::Bool, span)?;
        } else if logical && tb0.is_bool() && !ta0.is_bool() && self.convertible(ta0, Type::Bool) {
            a = self.coerce(a, Type::Bool, span)?;
        }
        let (ta, tb) = (self.st.sys.ty(a), self.st.sys.ty(b));
        let words = matches!(ta, Type::BitVec { .. }) && matches!(tb, Type::BitVec { .. });
        let direct = |o: IrOp| Ir::Binary(o, a, b);
        let kind = match op {
            BinOp::And => direct(IrOp::And),
            BinOp::Or => direct(IrOp::Or),
            BinOp::Xor => direct(IrOp::Xor),
            BinOp::Xnor | BinOp::Iff if words => {
                let x = self.mk_raw(Ir::Binary(IrOp::Xor, a, b), span)?;
                Ir::Unary(UnOp::Not, x)
            }
            BinOp::Xnor | BinOp::Iff => direct(IrOp::Iff),
            BinOp::Implies if words => {
                let na = self.mk_raw(Ir::Unary(UnOp::Not, a), span)?;
                Ir::Binary(IrOp::Or, na, b)
            }
            BinOp::Implies => direct(IrOp::Implies),
            BinOp::Eq | BinOp::Ne => {
                if self.st.sys.unify(ta, tb).is_none() {
                    if let Some(eq) = self.cross_eq(a, b, span)? {
                        return if op == BinOp::Eq {
                            Ok(eq)
                        } else {
                            let inner = self.st.sys.exprs.node(eq).kind.clone();
                            let raw = self.mk_raw(inner, span)?;
                            self.mk(Ir::Unary(UnOp::Not, raw), span)
                        };
                    }
                }
                direct(if op == BinOp::Eq { IrOp::Eq } else { IrOp::Ne })
            }
            BinOp::Lt => direct(IrOp::Lt),
            BinOp::Le => direct(IrOp::Le),
            BinOp::Gt => direct(IrOp::Gt),
            BinOp::Ge => direct(IrOp::Ge),
            BinOp::Add => direct(IrOp::Add),
            BinOp::Sub => direct(IrOp::Sub),
            BinOp::Mul => direct(IrOp::Mul),
            BinOp::Div => direct(IrOp::Div),
            BinOp::Mod => direct(IrOp::Mod),
            BinOp::Shl | BinOp::Shr => {
                if !matches!(ta, Type::BitVec { .. }) {
                    return Err(self.operands(op, ta, tb, span));
                }
                if let (Some(k), Some(w)) = (self.fold_int(b), ta.bv_width()) {
                    if k < 0 || k > w as i64 {
                        return Err(Diag::new(
                            span,
                            format!("shift amount {k} is outside 0..{w}"),
                        ));
                    }
                }
                direct(if op == BinOp::Shl {
                    IrOp::Shl
                } else {
                    IrOp::Shr
                })
            }
            BinOp::Concat => direct(IrOp::Concat),
            BinOp::In | BinOp::Union => {
                return Err(Diag::new(
                    span,
                    "internal: set operator outside a set context",
                ))
            }
            BinOp::Until | BinOp::Since | BinOp::Releases | BinOp::Triggered => {
                return Err(Diag::new(
                    span,
                    "temporal operators are only allowed in LTL specifications",
                ))
            }
        };
        self.st
            .sys
            .mk(kind, Some(span))
            .map_err(|_| self.operands(op, ta, tb, span))
    }

    fn operands(&self, op: BinOp, ta: Type, tb: Type, span: Span) -> Diag {
        Diag::new(
            span,
            format!(
                "operator `{}` cannot be applied to {} and {}",
                op.symbol(),
                self.describe(ta),
                self.describe(tb)
            ),
        )
    }

    /// A built-in function application.
    pub(crate) fn call(
        &mut self,
        f: Builtin,
        name: &Ident,
        args: &'a [Expr],
        span: Span,
        ctx: InstId,
        mode: NextMode,
    ) -> Result<ExprId, Diag> {
        let bad = |this: &Self, t: Type| {
            Diag::new(
                span,
                format!("`{}` cannot be applied to {}", name.name, this.describe(t)),
            )
        };
        match f {
            Builtin::Uwconst | Builtin::Swconst => {
                let v = self.const_int(&args[0], ctx, "a word constant's value")?;
                let w = self.const_int(&args[1], ctx, "a word constant's width")?;
                let signed = f == Builtin::Swconst;
                let w = self.width(w, args[1].span)?;
                let (min, max): (i128, i128) = if signed {
                    (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
                } else {
                    (0, (1i128 << w) - 1)
                };
                if (v as i128) < min || (v as i128) > max {
                    return Err(Diag::new(
                        span,
                        format!(
                            "value {v} does not fit in a {} word of {w} bits",
                            if signed { "signed" } else { "unsigned" }
                        ),
                    ));
                }
                let bits = Value::bits_from_int(w, &BigInt::from(v));
                let Value::Bits { bits, .. } = bits else {
                    return Err(Diag::new(span, "internal: not a bit pattern"));
                };
                return Ok(self.word_const(signed, w, &bits, span));
            }
            Builtin::Sizeof => {
                let x = self.elab(&args[0], ctx, mode, None)?;
                let t = self.st.sys.ty(x);
                let w = t.bv_width().ok_or_else(|| bad(self, t))?;
                return Ok(self.st.sys.int_const(w as i64, Some(span)));
            }
            Builtin::Count => {
                let mut acc: Option<ExprId> = None;
                for (k, a) in args.iter().enumerate() {
                    let x = self.elab(a, ctx, mode, None)?;
                    let t = self.st.sys.ty(x);
                    if !t.is_bool() {
                        return Err(Diag::new(
                            a.span,
                            format!(
                                "`count` expects boolean arguments, found {}",
                                self.describe(t)
                            ),
                        ));
                    }
                    let last = k + 1 == args.len();
                    let s = if last && k == 0 { Some(span) } else { None };
                    let one = self
                        .st
                        .sys
                        .mk(Ir::Cast(x, Type::Int { lo: 0, hi: 1 }), s)
                        .map_err(|e| Diag::new(span, e.to_string()))?;
                    acc = Some(match acc {
                        None => one,
                        Some(prev) => {
                            let s = if last { Some(span) } else { None };
                            self.st
                                .sys
                                .mk(Ir::Binary(IrOp::Add, prev, one), s)
                                .map_err(|e| Diag::new(span, e.to_string()))?
                        }
                    });
                }
                return acc.ok_or_else(|| Diag::new(span, "`count` needs arguments"));
            }
            _ => {}
        }
        let x = self.elab(&args[0], ctx, mode, None)?;
        let t = self.st.sys.ty(x);
        match f {
            Builtin::Bool => match t {
                Type::Bool => Ok(x),
                Type::BitVec { width: 1, .. } => self.mk(Ir::Cast(x, Type::Bool), span),
                Type::Int { .. } => {
                    let zero = self.st.sys.int_const(0, None);
                    self.mk(Ir::Binary(IrOp::Ne, x, zero), span)
                }
                _ => Err(bad(self, t)),
            },
            Builtin::ToInt => match t {
                Type::Int { .. } => Ok(x),
                Type::Bool => self.mk(Ir::Cast(x, Type::Int { lo: 0, hi: 1 }), span),
                Type::BitVec { width, signed } if width <= 62 => {
                    let (lo, hi) = if signed {
                        (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
                    } else {
                        (0, (1i64 << width) - 1)
                    };
                    self.mk(Ir::Cast(x, Type::Int { lo, hi }), span)
                }
                _ => Err(bad(self, t)),
            },
            Builtin::Word1 => match t {
                Type::Bool => self.mk(Ir::Cast(x, Type::ubv(1)), span),
                _ => Err(bad(self, t)),
            },
            Builtin::Signed | Builtin::Unsigned => match t {
                Type::BitVec { width, .. } => self.mk(
                    Ir::Cast(
                        x,
                        Type::BitVec {
                            width,
                            signed: f == Builtin::Signed,
                        },
                    ),
                    span,
                ),
                _ => Err(bad(self, t)),
            },
            Builtin::Extend => {
                let Type::BitVec { width, signed } = t else {
                    return Err(bad(self, t));
                };
                let n = self.const_int(&args[1], ctx, "the extension width")?;
                if n < 0 {
                    return Err(Diag::new(
                        args[1].span,
                        "the extension must not be negative",
                    ));
                }
                let w = self.width(width as i64 + n, span)?;
                self.mk(Ir::Cast(x, Type::BitVec { width: w, signed }), span)
            }
            Builtin::Resize => {
                let Type::BitVec { width, signed } = t else {
                    return Err(bad(self, t));
                };
                let n = self.const_int(&args[1], ctx, "the new width")?;
                let n = self.width(n, args[1].span)?;
                let to = Type::BitVec { width: n, signed };
                if !signed || n >= width {
                    return self.mk(Ir::Cast(x, to), span);
                }
                // Signed shortening keeps the sign bit: w[width-1] :: w[n-2:0].
                let sign = self.mk_raw(
                    Ir::Extract {
                        arg: x,
                        hi: width - 1,
                        lo: width - 1,
                    },
                    span,
                )?;
                let bits = if n == 1 {
                    sign
                } else {
                    let low = self.mk_raw(
                        Ir::Extract {
                            arg: x,
                            hi: n - 2,
                            lo: 0,
                        },
                        span,
                    )?;
                    self.mk_raw(Ir::Binary(IrOp::Concat, sign, low), span)?
                };
                self.mk(Ir::Cast(bits, to), span)
            }
            Builtin::Abs => match t {
                Type::Int { .. } | Type::BitVec { signed: true, .. } => {
                    let zero = self.zero_like(t);
                    let neg = self.mk_raw(Ir::Binary(IrOp::Lt, x, zero), span)?;
                    let minus = self.mk_raw(Ir::Unary(UnOp::Neg, x), span)?;
                    self.mk(Ir::Ite(neg, minus, x), span)
                }
                Type::BitVec { .. } => Ok(x),
                _ => Err(bad(self, t)),
            },
            Builtin::Max | Builtin::Min => {
                let y = self.elab(&args[1], ctx, mode, None)?;
                let cmp = if f == Builtin::Max {
                    IrOp::Gt
                } else {
                    IrOp::Lt
                };
                let c = self.st.sys.mk(Ir::Binary(cmp, x, y), None).map_err(|_| {
                    let ty = self.st.sys.ty(y);
                    Diag::new(
                        span,
                        format!(
                            "`{}` cannot be applied to {} and {}",
                            name.name,
                            self.describe(t),
                            self.describe(ty)
                        ),
                    )
                })?;
                self.mk(Ir::Ite(c, x, y), span)
            }
            Builtin::Uwconst | Builtin::Swconst | Builtin::Sizeof | Builtin::Count => {
                Err(Diag::new(span, "internal: handled above"))
            }
        }
    }

    /// A word width, checked against NuSMV's limit.
    fn width(&self, w: i64, at: Span) -> Result<u32, Diag> {
        if (1..=MAX_WORD_WIDTH as i64).contains(&w) {
            Ok(w as u32)
        } else {
            Err(Diag::new(
                at,
                format!("word width {w} is not between 1 and {MAX_WORD_WIDTH}"),
            ))
        }
    }

    /// The zero of an integer or word type (a synthesised node).
    fn zero_like(&mut self, t: Type) -> ExprId {
        match t {
            Type::BitVec { width, .. } => {
                self.st
                    .sys
                    .bv_const(t, Value::bits(width, BigUint::from(0u8)), None)
            }
            _ => self.st.sys.int_const(0, None),
        }
    }
}
