//! Expressions: name resolution, DEFINE expansion, symbolic constants typed by context,
//! `case` lowering and choice sites.
//!
//! * A bare identifier is a variable, else a DEFINE (expanded in place; its nodes keep the
//!   spans of the DEFINE body), else a symbolic constant. A constant that belongs to several
//!   enumerations takes the one the context expects (the other operand of a binary operator,
//!   the assigned variable, the other branches of a `case`, `?:` or set); without a usable
//!   context, the first enumeration declared with it.
//! * `case c1 : e1; …; cn : en; esac` becomes `ite(c1, e1, ite(…, en))`: the last branch is
//!   the default and its guard is only type-checked. (NuSMV instead requires the guards to be
//!   exhaustive; that check is not done yet.) The outermost `ite` spans the whole
//!   `case … esac`; the one for branch i spans from guard i to the end of the last value.
//! * Every set `{e1, …, en}` with n ≥ 2 is a fresh choice site, also for each expansion of a
//!   DEFINE containing it (NuSMV's macro semantics: each use chooses independently). A
//!   singleton set is its element.

use std::collections::HashSet;

use hypermut_ir::{BinOp, EnumId, ExprId, ExprKind as Ir, Span, Type, TypeError, UnOp, VarId};

use crate::ast::{CaseBranch, Expr, ExprKind, VarKind};
use crate::error::Diag;

use super::{enum_of, Decl, Elab};

/// Deepest allowed elaboration recursion (nesting after DEFINE expansion).
const MAX_DEPTH: u32 = 40_000;

/// How many syntax nodes (through DEFINE bodies) one enumeration hint may look at.
const HINT_BUDGET: u32 = 256;

/// Where `next()` may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NextMode {
    /// Not allowed; the text names the context for the message.
    Forbidden(&'static str),
    /// Allowed (TRANS).
    Allowed,
    /// Inside the argument of a `next()`: variables denote their next values.
    Inside,
}

impl NextMode {
    /// The class used in memo keys (the context text does not change the result).
    fn class(self) -> u8 {
        match self {
            NextMode::Forbidden(_) => 0,
            NextMode::Allowed => 1,
            NextMode::Inside => 2,
        }
    }
}

impl Elab<'_> {
    /// Elaborates `e`; `expected` is the enumeration the context expects, if any.
    pub(crate) fn elab(
        &mut self,
        e: &Expr,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        if self.depth >= MAX_DEPTH {
            return Err(Diag::new(
                e.span,
                format!("expression nested too deeply after DEFINE expansion (more than {MAX_DEPTH} levels)"),
            ));
        }
        self.depth += 1;
        let r = self.elab_inner(e, mode, expected);
        self.depth -= 1;
        r
    }

    fn elab_inner(
        &mut self,
        e: &Expr,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let span = Some(e.span);
        match &e.kind {
            ExprKind::Int(v) => Ok(self.st.sys.int_const(*v, span)),
            ExprKind::Bool(b) => Ok(self.st.sys.bool_const(*b, span)),
            ExprKind::Ident(name) => self.ident(name, e.span, mode, expected),
            ExprKind::Next(arg) => match mode {
                NextMode::Forbidden(ctx) => Err(Diag::new(
                    e.span,
                    format!("unexpected 'next' operator: next() is not allowed in {ctx}"),
                )),
                NextMode::Inside => Err(Diag::new(
                    e.span,
                    "unexpected 'next' operator: next() inside next()",
                )),
                NextMode::Allowed => match &arg.kind {
                    // `next(x)` of a variable spans the whole `next(x)` text.
                    ExprKind::Ident(name) if self.is_var(name) => {
                        self.ident(name, e.span, NextMode::Inside, expected)
                    }
                    _ => self.elab(arg, NextMode::Inside, expected),
                },
            },
            ExprKind::Unary(op, a) => {
                let x = self.elab(a, mode, None)?;
                let ty = self.st.sys.ty(x);
                let ok = match op {
                    UnOp::Not => ty.is_bool(),
                    UnOp::Neg => ty.is_int(),
                };
                if !ok {
                    let sym = if *op == UnOp::Not { "!" } else { "-" };
                    return Err(Diag::new(
                        e.span,
                        format!(
                            "operator `{sym}` cannot be applied to {}",
                            self.describe(ty)
                        ),
                    ));
                }
                self.mk(Ir::Unary(*op, x), e.span)
            }
            ExprKind::Chain {
                first,
                rest,
                right_assoc,
            } => self.chain(first, rest, *right_assoc, mode),
            ExprKind::Ite(c, a, b) => {
                let cx = self.condition(c, mode, "condition of `?:`")?;
                let g = expected.or_else(|| self.hint(a)).or_else(|| self.hint(b));
                let x = self.elab(a, mode, g)?;
                let y = self.elab(b, mode, g)?;
                self.unify_at(x, y, b.span, "the branches of `?:`")?;
                self.mk(Ir::Ite(cx, x, y), e.span)
            }
            ExprKind::Case(branches) => self.case(e.span, branches, mode, expected),
            ExprKind::Set(items) => {
                let g = expected.or_else(|| items.iter().find_map(|i| self.hint(i)));
                let mut xs = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let x = self.elab(item, mode, g)?;
                    if let Some(prev) = xs.first() {
                        self.unify_at(*prev, x, items[i].span, "the elements of a set")?;
                    }
                    xs.push(x);
                }
                match xs.as_slice() {
                    [single] => Ok(*single),
                    _ => self
                        .st
                        .sys
                        .choice(xs, span)
                        .map_err(|t| Diag::new(e.span, t.to_string())),
                }
            }
        }
    }

    /// Whether `name` is a declared variable.
    fn is_var(&self, name: &str) -> bool {
        matches!(self.names.get(name), Some((Decl::Var(..), _)))
    }

    /// A name: variable, DEFINE or symbolic constant.
    fn ident(
        &mut self,
        name: &str,
        span: Span,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        match self.names.get(name).map(|(d, _)| *d) {
            Some(Decl::Var(v, kind)) => self.var_leaf(v, kind, name, span, mode),
            Some(Decl::Define(i)) => self.elab_define(i, span, mode, expected),
            None => {
                let Some(cands) = self.consts.get(name) else {
                    return Err(Diag::new(span, format!("undefined identifier `{name}`")));
                };
                let e = expected
                    .filter(|x| cands.contains(x))
                    .or_else(|| cands.first().copied())
                    .ok_or_else(|| Diag::new(span, format!("undefined identifier `{name}`")))?;
                let idx = self.st.sys.enums[e.0 as usize]
                    .index_of(name)
                    .ok_or_else(|| Diag::new(span, format!("undefined identifier `{name}`")))?;
                Ok(self.st.sys.enum_const(e, idx, Some(span)))
            }
        }
    }

    /// A variable reference, or its next value inside `next()`.
    fn var_leaf(
        &mut self,
        v: VarId,
        kind: VarKind,
        name: &str,
        span: Span,
        mode: NextMode,
    ) -> Result<ExprId, Diag> {
        if mode != NextMode::Inside {
            return Ok(self.st.sys.var_ref(v, Some(span)));
        }
        if kind == VarKind::IVar {
            return Err(Diag::new(
                span,
                format!("next() of input variable `{name}` is not allowed"),
            ));
        }
        self.st.next_uses.entry(v).or_insert(span);
        self.mk(Ir::Next(v), span)
    }

    /// Expands DEFINE `i`, referenced at `at`.
    pub(super) fn elab_define(
        &mut self,
        i: usize,
        at: Span,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let d = self.defines[i];
        if self.expanding.contains(&i) {
            return Err(Diag::new(
                at,
                format!("recursively defined: {}", d.name.name),
            ));
        }
        let key = (i, mode.class(), expected);
        if let Some(id) = self.st.memo.get(&key) {
            return Ok(*id);
        }
        if let Some(flag) = self.define_used.get_mut(i) {
            *flag = true;
        }
        let choices_before = self.st.sys.choices.len();
        self.expanding.push(i);
        let r = self.elab(&d.body, mode, expected);
        self.expanding.pop();
        let id = r?;
        if self.st.sys.choices.len() == choices_before {
            self.st.memo.insert(key, id);
        }
        Ok(id)
    }

    /// A chain of binary operators of one precedence level.
    fn chain(
        &mut self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        right_assoc: bool,
        mode: NextMode,
    ) -> Result<ExprId, Diag> {
        if right_assoc {
            // `a -> b -> c` is `a -> (b -> c)`; operands are elaborated left to right.
            let operands: Vec<&Expr> = std::iter::once(first)
                .chain(rest.iter().map(|(_, e)| e))
                .collect();
            let mut xs = Vec::with_capacity(operands.len());
            for e in &operands {
                xs.push(self.elab(e, mode, None)?);
            }
            let end = operands[operands.len() - 1].span;
            let mut acc = xs[xs.len() - 1];
            for k in (0..rest.len()).rev() {
                let left = operands[k].span;
                let span = Span::new(left.file, left.start as usize, end.end as usize);
                acc = self.mk(Ir::Binary(rest[k].0, xs[k], acc), span)?;
            }
            return Ok(acc);
        }
        let first_hint = rest.first().and_then(|(_, e)| self.hint(e));
        let mut acc = self.elab(first, mode, first_hint)?;
        for (op, e) in rest {
            let expected = enum_of(self.st.sys.ty(acc));
            let rhs = self.elab(e, mode, expected)?;
            let span = Span::new(
                first.span.file,
                first.span.start as usize,
                e.span.end as usize,
            );
            acc = self.mk(Ir::Binary(*op, acc, rhs), span)?;
        }
        Ok(acc)
    }

    /// `case … esac` as nested if-then-else, the last branch being the default.
    fn case(
        &mut self,
        whole: Span,
        branches: &[CaseBranch],
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let g = expected.or_else(|| branches.iter().find_map(|b| self.hint(&b.value)));
        let n = branches.len();
        let mut conds = Vec::with_capacity(n);
        let mut vals: Vec<ExprId> = Vec::with_capacity(n);
        for (i, b) in branches.iter().enumerate() {
            if i + 1 < n {
                conds.push(self.condition(&b.cond, mode, "case condition")?);
            } else {
                self.check_dropped_condition(&b.cond, mode)?;
            }
            let v = self.elab(&b.value, mode, g)?;
            if let Some(prev) = vals.first() {
                self.unify_at(*prev, v, b.value.span, "the branches of `case`")?;
            }
            vals.push(v);
        }
        let (Some(mut acc), Some(last)) = (vals.last().copied(), branches.last()) else {
            return Err(Diag::new(whole, "`case` without branches"));
        };
        for i in (0..n - 1).rev() {
            let span = if i == 0 {
                whole
            } else {
                let s = branches[i].cond.span;
                Span::new(s.file, s.start as usize, last.value.span.end as usize)
            };
            acc = self.mk(Ir::Ite(conds[i], vals[i], acc), span)?;
        }
        Ok(acc)
    }

    /// Type-checks the guard of the default (last) `case` branch without keeping it: `TRUE`
    /// needs no work; a guard with a choice site is checked on a throw-away copy.
    fn check_dropped_condition(&mut self, cond: &Expr, mode: NextMode) -> Result<(), Diag> {
        if cond.kind == ExprKind::Bool(true) {
            return Ok(());
        }
        if self.has_set(cond) {
            let saved = self.st.clone();
            let r = self.condition(cond, mode, "case condition");
            self.st = saved;
            r.map(|_| ())
        } else {
            self.condition(cond, mode, "case condition").map(|_| ())
        }
    }

    /// A boolean condition.
    fn condition(&mut self, c: &Expr, mode: NextMode, what: &str) -> Result<ExprId, Diag> {
        let x = self.elab(c, mode, None)?;
        let ty = self.st.sys.ty(x);
        if !ty.is_bool() {
            return Err(Diag::new(
                c.span,
                format!("{what} must be boolean, found {}", self.describe(ty)),
            ));
        }
        Ok(x)
    }

    /// Checks that `b` has a type compatible with `a` (alternatives of one value).
    fn unify_at(&self, a: ExprId, b: ExprId, at: Span, what: &str) -> Result<(), Diag> {
        let (ta, tb) = (self.st.sys.ty(a), self.st.sys.ty(b));
        if self.st.sys.unify(ta, tb).is_some() {
            return Ok(());
        }
        Err(Diag::new(
            at,
            format!(
                "type mismatch between {what}: {} and {}",
                self.describe(ta),
                self.describe(tb)
            ),
        ))
    }

    /// Builds a node, turning an IR type error into a diagnostic at `span`.
    fn mk(&mut self, kind: Ir, span: Span) -> Result<ExprId, Diag> {
        self.st
            .sys
            .mk(kind, Some(span))
            .map_err(|t: TypeError| Diag::new(span, t.to_string()))
    }

    fn describe(&self, t: Type) -> String {
        t.describe(&self.st.sys.enums)
    }

    /// The enumeration an expression evidently has, looked up without elaborating it (used to
    /// type ambiguous symbolic constants by context). Looks at no more than [`HINT_BUDGET`]
    /// nodes.
    fn hint(&self, e: &Expr) -> Option<EnumId> {
        self.hint_within(e, &mut HINT_BUDGET.clone())
    }

    fn hint_within(&self, e: &Expr, budget: &mut u32) -> Option<EnumId> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        match &e.kind {
            ExprKind::Ident(n) => match self.names.get(n) {
                Some((Decl::Var(v, _), _)) => enum_of(self.st.sys.var(*v).ty),
                Some((Decl::Define(i), _)) => self.hint_within(&self.defines.get(*i)?.body, budget),
                None => match self.consts.get(n).map(Vec::as_slice) {
                    Some([only]) => Some(*only),
                    _ => None,
                },
            },
            ExprKind::Next(a) => self.hint_within(a, budget),
            ExprKind::Ite(_, a, b) => self
                .hint_within(a, budget)
                .or_else(|| self.hint_within(b, budget)),
            ExprKind::Case(bs) => bs.iter().find_map(|b| self.hint_within(&b.value, budget)),
            ExprKind::Set(items) => items.iter().find_map(|i| self.hint_within(i, budget)),
            _ => None,
        }
    }

    /// Whether an expression contains a set, looking through DEFINEs.
    fn has_set(&self, e: &Expr) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if x.contains_set() {
                return true;
            }
            collect_idents(x, &mut |n| {
                if let Some((Decl::Define(i), _)) = self.names.get(n) {
                    if seen.insert(*i) {
                        if let Some(d) = self.defines.get(*i) {
                            stack.push(&d.body);
                        }
                    }
                }
            });
        }
        false
    }
}

/// Calls `f` on every identifier in `e`.
fn collect_idents<'e>(e: &'e Expr, f: &mut impl FnMut(&'e str)) {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Ident(n) => f(n),
            ExprKind::Int(_) | ExprKind::Bool(_) => {}
            ExprKind::Next(a) | ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Chain { first, rest, .. } => {
                stack.push(first);
                stack.extend(rest.iter().map(|(_, e)| e));
            }
            ExprKind::Ite(c, a, b) => stack.extend([&**c, &**a, &**b]),
            ExprKind::Case(bs) => {
                for b in bs {
                    stack.push(&b.cond);
                    stack.push(&b.value);
                }
            }
            ExprKind::Set(items) => stack.extend(items.iter()),
        }
    }
}
