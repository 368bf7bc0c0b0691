//! IR node builders over Verilog values ([`V`]), with constant folding: nodes whose operands
//! are all constants are evaluated at once with the IR interpreter, so that loop bounds,
//! indices and parameter expressions become constants.

use hypermut_ir::{ExprId, ExprKind, Frame, Interpreter, Span, Type, Value};
use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

use crate::error::{DResult, Diag};

use super::elaborator::Elab;
use super::value::{MAX_WIDTH, V};

impl Elab<'_> {
    /// Builds a node (type-checked by the IR), folding it to a constant when all its operands
    /// are constants.
    pub(crate) fn node(&mut self, kind: ExprKind, span: Span) -> DResult<ExprId> {
        // Cheap simplifications that keep loops and static conditions small.
        if let ExprKind::Ite(c, t, e) = &kind {
            if let Some(Value::Bool(b)) = self.const_value(*c) {
                return Ok(if b { *t } else { *e });
            }
            if t == e {
                return Ok(*t);
            }
        }
        let foldable = !matches!(
            kind,
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Next(_) | ExprKind::Choice { .. }
        ) && kind.children().iter().all(|c| self.is_const(*c));
        let id = self
            .sys
            .mk(kind, Some(span))
            .map_err(|e| Diag::new(span, format!("internal typing error: {e}")))?;
        if !foldable {
            return Ok(id);
        }
        let val = Interpreter::new(&self.sys)
            .eval(id, &[], &Frame::default(), None)
            .map_err(|e| Diag::new(span, format!("cannot evaluate constant: {e}")))?;
        let ty = self.sys.ty(id);
        Ok(self.sys.constant(ty, val, Some(span)))
    }

    /// Whether `e` is a constant node.
    pub(crate) fn is_const(&self, e: ExprId) -> bool {
        matches!(self.sys.exprs.node(e).kind, ExprKind::Const(_))
    }

    /// The value of a constant node.
    pub(crate) fn const_value(&self, e: ExprId) -> Option<Value> {
        match &self.sys.exprs.node(e).kind {
            ExprKind::Const(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// The bits of a constant value (booleans as 0/1).
    pub(crate) fn const_bits(&self, v: V) -> Option<BigUint> {
        match self.const_value(v.e)? {
            Value::Bool(b) => Some(BigUint::from(b as u8)),
            Value::Bits { bits, .. } => Some(bits),
            _ => None,
        }
    }

    /// The value of a constant as an integer under its signedness.
    pub(crate) fn const_int(&self, v: V) -> Option<BigInt> {
        let bits = self.const_bits(v)?;
        if v.signed && v.w > 0 && bits.bit(v.w as u64 - 1) {
            Some(BigInt::from(bits) - (BigInt::from(1u8) << v.w))
        } else {
            Some(BigInt::from(bits))
        }
    }

    /// A constant's integer value as `i64`, if it is a constant that fits.
    pub(crate) fn const_i64(&self, v: V) -> Option<i64> {
        self.const_int(v)?.to_i64()
    }

    /// A bit-vector constant.
    pub(crate) fn bits_const(&mut self, w: u32, value: BigUint, span: Span) -> V {
        let e = self
            .sys
            .constant(Type::ubv(w), Value::bits(w, value), Some(span));
        V {
            e,
            w,
            signed: false,
            boolean: false,
        }
    }

    /// A small unsigned constant.
    pub(crate) fn small_const(&mut self, w: u32, value: u64, span: Span) -> V {
        self.bits_const(w, BigUint::from(value), span)
    }

    /// A signed 32-bit integer constant (loop variables, genvars).
    pub(crate) fn int_const(&mut self, value: i64, span: Span) -> V {
        let v = Value::bits_from_int(32, &BigInt::from(value));
        let e = self.sys.constant(Type::ubv(32), v, Some(span));
        V {
            e,
            w: 32,
            signed: true,
            boolean: false,
        }
    }

    /// A boolean constant.
    pub(crate) fn bool_const(&mut self, b: bool, span: Span) -> V {
        let e = self.sys.bool_const(b, Some(span));
        V {
            e,
            w: 1,
            signed: false,
            boolean: true,
        }
    }

    /// The value as an IR bit-vector (booleans become 1-bit vectors).
    pub(crate) fn as_bits(&mut self, v: V, span: Span) -> DResult<V> {
        if !v.boolean {
            return Ok(v);
        }
        let e = self.node(ExprKind::Cast(v.e, Type::ubv(1)), span)?;
        Ok(V {
            e,
            w: 1,
            signed: v.signed,
            boolean: false,
        })
    }

    /// The value as an IR boolean (non-zero).
    pub(crate) fn as_bool(&mut self, v: V, span: Span) -> DResult<ExprId> {
        if v.boolean {
            return Ok(v.e);
        }
        // `x != 0` of a 1-bit cast of a boolean is the boolean itself.
        if let ExprKind::Cast(inner, Type::BitVec { width: 1, .. }) = self.sys.exprs.node(v.e).kind
        {
            if self.sys.ty(inner) == Type::Bool {
                return Ok(inner);
            }
        }
        self.node(ExprKind::Cast(v.e, Type::Bool), span)
    }

    /// A boolean as a value.
    pub(crate) fn bool_value(&self, e: ExprId) -> V {
        V {
            e,
            w: 1,
            signed: false,
            boolean: true,
        }
    }

    /// The value truncated or extended to `w` bits (sign-extended when `sext`).
    pub(crate) fn resize(&mut self, v: V, w: u32, sext: bool, span: Span) -> DResult<V> {
        if w == 0 || w > MAX_WIDTH {
            return Err(Diag::new(span, format!("unsupported width {w}")));
        }
        let v = self.as_bits(v, span)?;
        if v.w == w {
            return Ok(v);
        }
        let e = if w < v.w {
            self.node(
                ExprKind::Extract {
                    arg: v.e,
                    hi: w - 1,
                    lo: 0,
                },
                span,
            )?
        } else if sext {
            let s = self.node(ExprKind::Cast(v.e, Type::sbv(v.w)), span)?;
            self.node(ExprKind::Cast(s, Type::ubv(w)), span)?
        } else {
            self.node(ExprKind::Cast(v.e, Type::ubv(w)), span)?
        };
        Ok(V {
            e,
            w,
            signed: v.signed,
            boolean: false,
        })
    }

    /// The value extended to `w` bits for an operator whose type is `signed`.
    pub(crate) fn extend(&mut self, v: V, w: u32, signed: bool, span: Span) -> DResult<V> {
        let mut r = self.resize(v, w.max(1), signed && v.signed, span)?;
        r.signed = signed;
        Ok(r)
    }

    /// Bits `lo..lo+len` of a bit-vector value (bits beyond the value read as 0).
    pub(crate) fn slice(&mut self, v: V, lo: u32, len: u32, span: Span) -> DResult<V> {
        let v = self.as_bits(v, span)?;
        if lo == 0 && len == v.w {
            return Ok(v);
        }
        if lo >= v.w {
            return Ok(self.small_const(len, 0, span));
        }
        let avail = (v.w - lo).min(len);
        let e = self.node(
            ExprKind::Extract {
                arg: v.e,
                hi: lo + avail - 1,
                lo,
            },
            span,
        )?;
        let part = V {
            e,
            w: avail,
            signed: false,
            boolean: false,
        };
        self.resize(part, len, false, span)
    }

    /// `hi ++ lo` (`hi` in the high bits).
    pub(crate) fn concat2(&mut self, hi: V, lo: V, span: Span) -> DResult<V> {
        let hi = self.as_bits(hi, span)?;
        let lo = self.as_bits(lo, span)?;
        let e = self.node(
            ExprKind::Binary(hypermut_ir::BinOp::Concat, hi.e, lo.e),
            span,
        )?;
        Ok(V {
            e,
            w: hi.w + lo.w,
            signed: false,
            boolean: false,
        })
    }

    /// Concatenation of parts given LSB first.
    pub(crate) fn concat_lsb_first(&mut self, parts: &[V], span: Span) -> DResult<V> {
        let mut acc: Option<V> = None;
        for p in parts {
            acc = Some(match acc {
                None => self.as_bits(*p, span)?,
                Some(low) => self.concat2(*p, low, span)?,
            });
        }
        acc.ok_or_else(|| Diag::new(span, "empty concatenation"))
    }

    /// `if c then a else b` over values of equal width.
    pub(crate) fn ite(&mut self, c: ExprId, a: V, b: V, span: Span) -> DResult<V> {
        let (a, b) = if a.boolean && b.boolean {
            (a, b)
        } else {
            (self.as_bits(a, span)?, self.as_bits(b, span)?)
        };
        let e = self.node(ExprKind::Ite(c, a.e, b.e), span)?;
        Ok(V {
            e,
            w: a.w,
            signed: a.signed && b.signed,
            boolean: a.boolean && b.boolean,
        })
    }

    /// The zero value of width `w`.
    pub(crate) fn zero(&mut self, w: u32, span: Span) -> V {
        self.bits_const(w, BigUint::zero(), span)
    }
}
