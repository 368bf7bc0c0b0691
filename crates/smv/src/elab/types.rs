//! Types: declared types to IR types, enumerations, constants, and NuSMV's implicit
//! conversions between enumerations and integers.
//!
//! Representation [hypermut]:
//! * `boolean` → `Bool`; `a..b` → `Int{a,b}`; `[unsigned] word[N]` / `signed word[N]` →
//!   `BitVec` (1 ≤ N ≤ 64).
//! * A symbolic enumeration → an IR `Enum` (identical value lists share one).
//! * An integer enumeration `{0, 2, 5}` → `Int{0,5}`; when it has gaps the variable's allowed
//!   values are recorded (and enforced by an invariant when the variable can take arbitrary
//!   values, see [`super::io`]).
//! * A mixed enumeration `{0, 1, idle}` → an IR `Enum` whose integer values are spelled as
//!   symbols (`"0"`, `"1"`). Integers are converted into it where NuSMV converts them
//!   (assignments, comparisons, `case` branches); integer literals in such a context become
//!   enumeration constants directly.
//! * Values of different enumerations (or an integer and a mixed enumeration) compare equal
//!   when they denote the same constant.

use hypermut_ir::{BinOp, EnumId, ExprId, ExprKind, Frame, Interpreter, Span, Type, Value};

use crate::ast::{EnumItem, Expr, TypeKind, TypeSpec};
use crate::error::Diag;
use crate::lexer::MAX_WORD_WIDTH;

use super::common::{first_place, NextMode};
use super::state::{Elab, InstId};

/// Most values a conversion multiplexer or an expanded range may enumerate.
pub(crate) const MAX_ENUMERATED: i64 = 4096;

/// Largest constant expression [`Elab::fold`] evaluates.
const MAX_FOLD_NODES: usize = 2000;

impl<'a> Elab<'a> {
    /// The IR type of a declared (non-array, non-module) type, and the allowed values when the
    /// type is an integer enumeration with gaps.
    pub(super) fn var_type(
        &mut self,
        ctx: InstId,
        var: &str,
        ty: &'a TypeSpec,
    ) -> Result<(Type, Option<Vec<i64>>), Diag> {
        match &ty.kind {
            TypeKind::Boolean => Ok((Type::Bool, None)),
            TypeKind::Range(lo, hi) => {
                let l = self.const_int(lo, ctx, "a range bound")?;
                let h = self.const_int(hi, ctx, "a range bound")?;
                if l > h {
                    return Err(Diag::new(
                        ty.span,
                        format!("empty range {l}..{h}: the lower bound exceeds the upper bound"),
                    ));
                }
                Ok((Type::Int { lo: l, hi: h }, None))
            }
            TypeKind::Word { signed, width } => {
                let w = self.const_int(width, ctx, "a word width")?;
                if !(1..=MAX_WORD_WIDTH as i64).contains(&w) {
                    return Err(Diag::new(
                        width.span,
                        format!("word width {w} is not between 1 and {MAX_WORD_WIDTH}"),
                    ));
                }
                Ok((
                    Type::BitVec {
                        width: w as u32,
                        signed: *signed,
                    },
                    None,
                ))
            }
            TypeKind::Enum(items) => self.enum_type(var, items),
            TypeKind::Unsupported(k) => Err(Diag::new(
                ty.span,
                format!(
                    "`{k}` variables are infinite-state (or timed): hypermut handles \
                     finite-state models only; use a range `a..b` or a word type"
                ),
            )),
            TypeKind::Array(..) | TypeKind::Module { .. } => Err(Diag::new(
                ty.span,
                "internal: arrays and instances are declared elsewhere",
            )),
        }
    }

    /// The type of an enumeration `{…}` (see the module documentation).
    fn enum_type(
        &mut self,
        var: &str,
        items: &[(EnumItem, Span)],
    ) -> Result<(Type, Option<Vec<i64>>), Diag> {
        let mut values: Vec<String> = Vec::new();
        let mut ints: Vec<i64> = Vec::new();
        let mut symbolic = false;
        for (item, span) in items {
            let text = match item {
                EnumItem::Symbol(s) => {
                    symbolic = true;
                    s.clone()
                }
                EnumItem::Int(v) => {
                    ints.push(*v);
                    v.to_string()
                }
            };
            if values.contains(&text) {
                return Err(Diag::new(
                    *span,
                    format!("duplicate value `{text}` in enumeration"),
                ));
            }
            values.push(text);
        }
        if !symbolic {
            ints.sort_unstable();
            let (lo, hi) = (ints[0], ints[ints.len() - 1]);
            let contiguous = hi as i128 - lo as i128 + 1 == ints.len() as i128;
            return Ok((Type::Int { lo, hi }, (!contiguous).then_some(ints)));
        }
        if let Some(id) = self.enum_index.get(&values) {
            return Ok((Type::Enum(*id), None));
        }
        let id = self.st.sys.add_enum(var, values.clone());
        for ((item, span), v) in items.iter().zip(&values) {
            if let EnumItem::Symbol(_) = item {
                let entry = self
                    .consts
                    .entry(v.clone())
                    .or_insert_with(|| (Vec::new(), *span));
                entry.0.push(id);
            }
        }
        self.enum_index.insert(values, id);
        Ok((Type::Enum(id), None))
    }

    /// Evaluates a constant integer expression written in instance `ctx`.
    pub(crate) fn const_int(&mut self, e: &'a Expr, ctx: InstId, what: &str) -> Result<i64, Diag> {
        let saved = self.const_only;
        self.const_only = true;
        let r = self.elab(e, ctx, NextMode::Forbidden("constant expressions"), None);
        self.const_only = saved;
        let id = r.map_err(|d| {
            if d.message.starts_with("expected a constant") {
                d
            } else {
                Diag::new(d.span, format!("{} (in {what})", d.message))
            }
        })?;
        match self.fold(id) {
            Some(Value::Int(v)) => Ok(v),
            _ => Err(Diag::new(
                e.span,
                format!("expected a constant integer expression for {what}"),
            )),
        }
    }

    /// The value of an expression that reads no variable, input, choice or next value.
    pub(crate) fn fold(&self, id: ExprId) -> Option<Value> {
        let pool = &self.st.sys.exprs;
        if let ExprKind::Const(v) = &pool.node(id).kind {
            return Some(v.clone());
        }
        // A bounded walk (the pool may be large; `cone` would visit all of it).
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            if seen.len() > MAX_FOLD_NODES {
                return None;
            }
            let kind = &pool.node(n).kind;
            if matches!(
                kind,
                ExprKind::Var(_) | ExprKind::Next(_) | ExprKind::Choice { .. }
            ) {
                return None;
            }
            stack.extend(kind.children());
        }
        if let Some(v) = self.fold_memo.borrow().get(&id) {
            return v.clone();
        }
        let v = Interpreter::new(&self.st.sys)
            .eval(id, &[], &Frame::default(), None)
            .ok();
        self.fold_memo.borrow_mut().insert(id, v.clone());
        v
    }

    /// The nodes reachable from `roots`, in increasing (topological) id order. Unlike
    /// `ExprPool::cone`, the cost is proportional to the result, not to the pool.
    pub(crate) fn local_cone(&self, roots: &[ExprId]) -> Vec<ExprId> {
        let pool = &self.st.sys.exprs;
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<ExprId> = roots.to_vec();
        while let Some(n) = stack.pop() {
            if seen.insert(n) {
                stack.extend(pool.node(n).kind.children());
            }
        }
        let mut out: Vec<ExprId> = seen.into_iter().collect();
        out.sort();
        out
    }

    /// The integer constant of a node, if it is one (after folding).
    pub(crate) fn fold_int(&self, id: ExprId) -> Option<i64> {
        match self.fold(id)? {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The value spellings of a finite enumeration-like type (`Enum` symbols or the integers of
    /// an `Int` range), if it has at most [`MAX_ENUMERATED`] values.
    fn spellings(&self, t: Type) -> Option<Vec<String>> {
        match t {
            Type::Enum(e) => self
                .st
                .sys
                .enums
                .get(e.0 as usize)
                .map(|x| x.values.clone()),
            Type::Int { lo, hi } if (hi as i128 - lo as i128) < MAX_ENUMERATED as i128 => {
                Some((lo..=hi).map(|v| v.to_string()).collect())
            }
            _ => None,
        }
    }

    /// The constant of type `t` spelled `s` (an enumeration symbol or an integer).
    fn constant_spelled(&mut self, t: Type, s: &str, span: Option<Span>) -> Option<ExprId> {
        match t {
            Type::Enum(e) => {
                let idx = self.st.sys.enums.get(e.0 as usize)?.index_of(s)?;
                Some(self.st.sys.enum_const(e, idx, span))
            }
            Type::Int { .. } => {
                let v: i64 = s.parse().ok()?;
                Some(self.st.sys.int_const(v, span))
            }
            _ => None,
        }
    }

    /// Whether values of `from` may be converted to `to` (NuSMV's implicit conversions, plus
    /// the integers 0/1 as booleans of NuSMV's `-old` backward compatibility).
    pub(crate) fn convertible(&self, from: Type, to: Type) -> bool {
        if self.st.sys.unify(from, to) == Some(to)
            || matches!((from, to), (Type::Int { .. }, Type::Int { .. }))
        {
            return true;
        }
        match (from, to) {
            (Type::Int { lo, hi }, Type::Bool) => 0 <= lo && hi <= 1,
            (Type::Bool, Type::Int { lo, hi }) => lo <= 0 && 1 <= hi,
            // NuSMV: integers and symbolic enumerations convert to integer-symbolic
            // enumerations; all symbolic enumerations are one type.
            (Type::Int { .. }, Type::Enum(_)) => {
                self.has_integers(to) && self.spellings(from).is_some()
            }
            (Type::Enum(_), Type::Enum(_)) => !self.has_integers(from) || self.has_integers(to),
            _ => false,
        }
    }

    /// Whether an enumeration type has integer values (an integer-symbolic enumeration).
    fn has_integers(&self, t: Type) -> bool {
        match t {
            Type::Enum(e) => self
                .st
                .sys
                .enums
                .get(e.0 as usize)
                .is_some_and(|x| x.values.iter().any(|v| v.parse::<i64>().is_ok())),
            _ => false,
        }
    }

    /// Converts `x` to type `to`: integers and enumeration values become the equally spelled
    /// constant of `to`. A value without counterpart maps to the first convertible one (NuSMV
    /// rejects models that can assign such a value; constants are checked, see `assign`).
    pub(crate) fn coerce(&mut self, x: ExprId, to: Type, at: Span) -> Result<ExprId, Diag> {
        let from = self.st.sys.ty(x);
        if from == to || matches!((from, to), (Type::Int { .. }, Type::Int { .. })) {
            return Ok(x);
        }
        match (from, to) {
            (Type::Int { lo, hi }, Type::Bool) if 0 <= lo && hi <= 1 => {
                let span = self.st.sys.exprs.node(x).span;
                first_place(&mut self.old_compat, span.unwrap_or(at));
                if let Some(Value::Int(v)) = self.fold(x) {
                    return Ok(self.st.sys.bool_const(v == 1, span));
                }
                let zero = self.st.sys.int_const(0, None);
                return self.mk_raw(ExprKind::Binary(BinOp::Ne, x, zero), at);
            }
            (Type::Bool, Type::Int { .. }) => {
                let span = self.st.sys.exprs.node(x).span;
                first_place(&mut self.old_compat, span.unwrap_or(at));
                return self.mk_raw(ExprKind::Cast(x, Type::Int { lo: 0, hi: 1 }), at);
            }
            _ => {}
        }
        let (Some(src), Some(dst)) = (self.spellings(from), self.spellings(to)) else {
            return Err(self.mismatch(from, to, at));
        };
        if !matches!(to, Type::Enum(_)) {
            return Err(self.mismatch(from, to, at));
        }
        let span = self.st.sys.exprs.node(x).span;
        if let Some(v) = self.fold(x) {
            let s = match (v, from) {
                (Value::Int(i), _) => i.to_string(),
                (Value::Enum(i), Type::Enum(_)) => src.get(i as usize).cloned().unwrap_or_default(),
                _ => return Err(self.mismatch(from, to, at)),
            };
            return self.constant_spelled(to, &s, span).ok_or_else(|| {
                Diag::new(
                    span.unwrap_or(at),
                    format!(
                        "value `{s}` is not a value of {}",
                        to.describe(&self.st.sys.enums)
                    ),
                )
            });
        }
        let pairs: Vec<&String> = src.iter().filter(|s| dst.contains(s)).collect();
        let Some(first) = pairs.first() else {
            return Err(self.mismatch(from, to, at));
        };
        let default = self
            .constant_spelled(to, first, None)
            .ok_or_else(|| self.mismatch(from, to, at))?;
        let mut acc = default;
        for s in pairs.iter().skip(1).rev() {
            let (Some(a), Some(b)) = (
                self.constant_spelled(from, s, None),
                self.constant_spelled(to, s, None),
            ) else {
                continue;
            };
            let is = self.mk_raw(ExprKind::Binary(BinOp::Eq, x, a), at)?;
            acc = self.mk_raw(ExprKind::Ite(is, b, acc), at)?;
        }
        Ok(acc)
    }

    /// `a = b` for values of different enumeration-like types: true when both denote the same
    /// constant. `None` when the types have no such relation.
    pub(crate) fn cross_eq(
        &mut self,
        a: ExprId,
        b: ExprId,
        span: Span,
    ) -> Result<Option<ExprId>, Diag> {
        let (ta, tb) = (self.st.sys.ty(a), self.st.sys.ty(b));
        if !matches!(ta, Type::Enum(_)) && !matches!(tb, Type::Enum(_)) {
            return Ok(None);
        }
        if !self.convertible(ta, tb) && !self.convertible(tb, ta) {
            return Ok(None);
        }
        let (Some(sa), Some(sb)) = (self.spellings(ta), self.spellings(tb)) else {
            return Ok(None);
        };
        let common: Vec<&String> = sa.iter().filter(|s| sb.contains(s)).collect();
        let mut terms = Vec::new();
        for s in common {
            let (Some(ca), Some(cb)) = (
                self.constant_spelled(ta, s, None),
                self.constant_spelled(tb, s, None),
            ) else {
                continue;
            };
            let ea = self.mk_raw(ExprKind::Binary(BinOp::Eq, a, ca), span)?;
            let eb = self.mk_raw(ExprKind::Binary(BinOp::Eq, b, cb), span)?;
            terms.push(self.mk_raw(ExprKind::Binary(BinOp::And, ea, eb), span)?);
        }
        let Some(last) = terms.pop() else {
            return Ok(Some(self.st.sys.bool_const(false, Some(span))));
        };
        let mut acc = last;
        let n = terms.len();
        for (k, t) in terms.into_iter().enumerate().rev() {
            let s = if k == 0 { Some(span) } else { None };
            acc = self
                .st
                .sys
                .mk(ExprKind::Binary(BinOp::Or, t, acc), s)
                .map_err(|e| Diag::new(span, e.to_string()))?;
        }
        if n == 0 {
            // A single common constant: give the conjunction the comparison's span.
            let ExprKind::Binary(_, x, y) = self.st.sys.exprs.node(acc).kind else {
                return Ok(Some(acc));
            };
            acc = self
                .st
                .sys
                .mk(ExprKind::Binary(BinOp::And, x, y), Some(span))
                .map_err(|e| Diag::new(span, e.to_string()))?;
        }
        Ok(Some(acc))
    }

    /// Brings alternative values (branches of `case`/`?:`, set elements) to one type:
    /// integer ranges join; otherwise everything is converted to the expected enumeration or
    /// to the first enumeration that all alternatives convert to.
    pub(crate) fn unify_values(
        &mut self,
        xs: Vec<ExprId>,
        spans: &[Span],
        expected: Option<EnumId>,
        what: &str,
    ) -> Result<Vec<ExprId>, Diag> {
        let tys: Vec<Type> = xs.iter().map(|x| self.st.sys.ty(*x)).collect();
        let plain = tys
            .iter()
            .try_fold(tys[0], |acc, t| self.st.sys.unify(acc, *t))
            .is_some();
        if plain {
            return Ok(xs);
        }
        let candidates = expected.map(Type::Enum).into_iter().chain(
            tys.iter()
                .copied()
                .filter(|t| matches!(t, Type::Enum(_) | Type::Bool)),
        );
        let mut target = None;
        for c in candidates {
            if xs.iter().all(|x| self.fits(*x, c)) {
                target = Some(c);
                break;
            }
        }
        let target = match target {
            Some(t) => Some(t),
            None => self.union_enum(&tys),
        };
        let Some(target) = target else {
            // Report the first alternative that disagrees with the first one.
            let k = (1..tys.len())
                .find(|k| self.st.sys.unify(tys[0], tys[*k]).is_none())
                .unwrap_or(0);
            return Err(Diag::new(
                spans.get(k).copied().unwrap_or(spans[0]),
                format!(
                    "type mismatch between {what}: {} and {}",
                    self.describe(tys[0]),
                    self.describe(tys[k])
                ),
            ));
        };
        xs.into_iter()
            .zip(spans)
            .map(|(x, s)| self.coerce(x, target, *s))
            .collect()
    }

    /// Whether every value `x` can take is a value of type `c` (for choosing the common
    /// type of alternatives).
    fn fits(&self, x: ExprId, c: Type) -> bool {
        let t = self.st.sys.ty(x);
        if t == c {
            return true;
        }
        match c {
            Type::Bool => self.convertible(t, Type::Bool),
            Type::Enum(_) => {
                let vals = match (self.fold(x), t) {
                    (Some(Value::Int(v)), _) => Some(vec![v.to_string()]),
                    (Some(Value::Enum(i)), Type::Enum(_)) => self
                        .spellings(t)
                        .and_then(|s| s.get(i as usize).cloned())
                        .map(|v| vec![v]),
                    _ => self.spellings(t),
                };
                match (vals, self.spellings(c)) {
                    (Some(v), Some(cv)) => v.iter().all(|x| cv.contains(x)),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// An enumeration holding every value of `tys` (enumerations and small integer ranges),
    /// for alternatives that no declared type covers: NuSMV types such an expression as the
    /// union of the values (e.g. `case c : undef; TRUE : 0; esac`).
    fn union_enum(&mut self, tys: &[Type]) -> Option<Type> {
        if !tys.iter().any(|t| matches!(t, Type::Enum(_))) {
            return None;
        }
        let mut values: Vec<String> = Vec::new();
        for t in tys {
            for v in self.spellings(*t)? {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
        }
        if let Some(id) = self.enum_index.get(&values) {
            return Some(Type::Enum(*id));
        }
        let id = self.st.sys.add_enum("union", values.clone());
        for v in &values {
            if v.parse::<i64>().is_err() {
                if let Some(entry) = self.consts.get_mut(v) {
                    entry.0.push(id);
                }
            }
        }
        self.enum_index.insert(values, id);
        Some(Type::Enum(id))
    }

    /// A type-mismatch diagnostic.
    pub(crate) fn mismatch(&self, from: Type, to: Type, at: Span) -> Diag {
        Diag::new(
            at,
            format!(
                "type mismatch: expected {}, found {}",
                self.describe(to),
                self.describe(from)
            ),
        )
    }

    /// Builds a synthesised node (no span), turning an IR type error into a diagnostic at `at`.
    pub(crate) fn mk_raw(&mut self, kind: ExprKind, at: Span) -> Result<ExprId, Diag> {
        self.st
            .sys
            .mk(kind, None)
            .map_err(|e| Diag::new(at, e.to_string()))
    }

    /// Human-readable type.
    pub(crate) fn describe(&self, t: Type) -> String {
        t.describe(&self.st.sys.enums)
    }
}
