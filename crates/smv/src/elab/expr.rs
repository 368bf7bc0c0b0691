//! Expressions: names, DEFINE expansion, symbolic constants typed by context, `case`, sets.
//!
//! * A name is resolved by [`super::names`]; DEFINEs are expanded in place (their nodes keep
//!   the spans of the DEFINE body, so an operand of an operator may lie outside the
//!   operator's span), parameters are elaborated in the instance that passed them.
//! * A symbolic constant that belongs to several enumerations takes the one the context
//!   expects (the other operand of a binary operator, the assigned variable, the other
//!   branches of a `case`, `?:` or set); without a usable context, the first enumeration
//!   declared with it. An integer literal where a mixed enumeration is expected is that
//!   enumeration's constant.
//! * `case c1 : e1; …; cn : en; esac` becomes `ite(c1, e1, ite(…, en))`: the last guard is
//!   checked for exhaustiveness (see [`super::case`]) and then dropped. The outermost `ite`
//!   spans the whole `case … esac`; the one for branch i spans from guard i to the end of the
//!   last value.
//! * A set `{e1, …, en}` (also `a..b` and `union`) where a value is expected is a fresh
//!   nondeterministic choice site, also for each expansion of a DEFINE containing it (NuSMV's
//!   macro semantics: each use chooses independently). A singleton set is its element. On
//!   the right of `in` a set is a set: `x in S` is the disjunction of `x = e` over S.

use hypermut_ir::{EnumId, ExprId, ExprKind as Ir, Span, Type, TypeError, UnOp, Value};
use num_bigint::BigUint;

use crate::ast::{BinOp, CaseBranch, Expr, ExprKind, VarKind};
use crate::error::Diag;

use super::common::{enum_of, first_place, last_component, NextMode};
use super::names::Target;
use super::state::{Elab, InstId, MacroState, Sym};
use super::types::MAX_ENUMERATED;

/// Deepest allowed elaboration recursion (nesting after DEFINE expansion).
const MAX_DEPTH: u32 = 20_000;

/// How many syntax nodes (through DEFINE bodies) one enumeration hint may look at.
const HINT_BUDGET: u32 = 256;

/// One element of a set expression.
enum Elem<'a> {
    /// An expression written in an instance.
    Expr(&'a Expr, InstId),
    /// An integer of an expanded range `a..b`, with the range's span.
    Int(i64, Span),
}

impl<'a> Elab<'a> {
    /// Elaborates `e` written in instance `ctx`; `expected` is the enumeration the context
    /// expects, if any.
    pub(crate) fn elab(
        &mut self,
        e: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        if self.depth >= MAX_DEPTH {
            return Err(Diag::new(
                e.span,
                format!(
                    "expression nested too deeply after DEFINE expansion (more than {MAX_DEPTH} levels)"
                ),
            ));
        }
        self.depth += 1;
        let r = self.elab_inner(e, ctx, mode, expected);
        self.depth -= 1;
        r
    }

    fn elab_inner(
        &mut self,
        e: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let span = Some(e.span);
        match &e.kind {
            ExprKind::Int(v) => Ok(self.int_literal(*v, e.span, expected)),
            ExprKind::Bool(b) => Ok(self.st.sys.bool_const(*b, span)),
            ExprKind::Word(w) => {
                let ty = Type::BitVec {
                    width: w.width,
                    signed: w.signed,
                };
                Ok(self
                    .st
                    .sys
                    .bv_const(ty, Value::bits(w.width, w.value.clone()), span))
            }
            ExprKind::Ident(_) | ExprKind::SelfRef | ExprKind::Field(..) | ExprKind::Index(..) => {
                let t = self.resolve(e, ctx, mode)?;
                self.target_value(t, e.span, mode, expected)
            }
            ExprKind::BitSelect(w, h, l) => {
                let x = self.elab(w, ctx, mode, None)?;
                let hi = self.const_int(h, ctx, "a bit-selection bound")?;
                let lo = self.const_int(l, ctx, "a bit-selection bound")?;
                let (Ok(hi), Ok(lo)) = (u32::try_from(hi), u32::try_from(lo)) else {
                    return Err(Diag::new(
                        e.span,
                        "bit-selection bounds must not be negative",
                    ));
                };
                self.mk(Ir::Extract { arg: x, hi, lo }, e.span)
            }
            ExprKind::Next(arg) => match mode {
                NextMode::Forbidden(c) => Err(Diag::new(
                    e.span,
                    format!("unexpected 'next' operator: next() is not allowed in {c}"),
                )),
                NextMode::Inside => Err(Diag::new(
                    e.span,
                    "unexpected 'next' operator: next() inside next()",
                )),
                NextMode::Allowed => {
                    if matches!(
                        arg.kind,
                        ExprKind::Ident(_) | ExprKind::Field(..) | ExprKind::Index(..)
                    ) {
                        // `next(x)` of a variable spans the whole `next(x)` text.
                        let t = self.resolve(arg, ctx, NextMode::Inside)?;
                        if let Target::Var(_) = t {
                            return self.target_value(t, e.span, NextMode::Inside, expected);
                        }
                        return self.target_value(t, arg.span, NextMode::Inside, expected);
                    }
                    self.elab(arg, ctx, NextMode::Inside, expected)
                }
            },
            ExprKind::Unary(op, a) => {
                let mut x = self.elab(a, ctx, mode, None)?;
                let mut ty = self.st.sys.ty(x);
                if *op == UnOp::Not && !ty.is_bool() && self.convertible(ty, Type::Bool) {
                    x = self.coerce(x, Type::Bool, a.span)?;
                    ty = Type::Bool;
                }
                let ok = match op {
                    UnOp::Not => ty.is_bool() || matches!(ty, Type::BitVec { .. }),
                    UnOp::Neg => ty.is_int() || matches!(ty, Type::BitVec { .. }),
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
            } => self.chain(first, rest, *right_assoc, ctx, mode, expected),
            ExprKind::Ite(c, a, b) => {
                let cx = self.condition(c, ctx, mode, "condition of `?:`")?;
                let g = expected
                    .or_else(|| self.hint(a, ctx))
                    .or_else(|| self.hint(b, ctx));
                let x = self.elab(a, ctx, mode, g)?;
                let y = self.elab(b, ctx, mode, g)?;
                let v =
                    self.unify_values(vec![x, y], &[a.span, b.span], g, "the branches of `?:`")?;
                self.mk(Ir::Ite(cx, v[0], v[1]), e.span)
            }
            ExprKind::Case(branches) => self.case(e.span, branches, ctx, mode, expected),
            ExprKind::Set(_) | ExprKind::Range(..) => self.choice_of(e, ctx, mode, expected),
            ExprKind::Call(f, name, args) => self.call(*f, name, args, e.span, ctx, mode),
            ExprKind::Temporal(..) => Err(Diag::new(
                e.span,
                "temporal operators are only allowed in CTL/LTL specifications",
            )),
        }
    }

    /// An integer literal: the constant of the expected mixed enumeration if it has one.
    fn int_literal(&mut self, v: i64, span: Span, expected: Option<EnumId>) -> ExprId {
        if let Some(e) = expected {
            if let Some(idx) = self
                .st
                .sys
                .enums
                .get(e.0 as usize)
                .and_then(|t| t.index_of(&v.to_string()))
            {
                return self.st.sys.enum_const(e, idx, Some(span));
            }
        }
        self.st.sys.int_const(v, Some(span))
    }

    /// The value denoted by a resolved name, referenced at `span`.
    pub(crate) fn target_value(
        &mut self,
        t: Target<'a>,
        span: Span,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        match t {
            Target::Var(d) => self.var_value(d, span, mode),
            Target::Define(i) => self.elab_define(i, span, mode, expected),
            Target::Const(name) => self.constant(&name, span, expected),
            Target::Expr(e, c) => self.elab(e, c, mode, expected),
            Target::Running(p) => {
                if mode == NextMode::Inside {
                    return Err(Diag::new(span, "next(running) is not supported"));
                }
                if self.const_only {
                    return Err(Diag::new(span, "expected a constant expression"));
                }
                self.running(p, span)
            }
            Target::Inst(i) => {
                let path = self.insts.get(i).map_or("self", |x| x.path.as_str());
                // An instance named like a symbolic constant denotes the constant as a value.
                let last = last_component(path).to_string();
                if self.consts.contains_key(&last) {
                    return self.constant(&last, span, expected);
                }
                Err(Diag::new(
                    span,
                    format!("`{path}` is a module instance, not a value"),
                ))
            }
            Target::Array { name, .. } => Err(Diag::new(
                span,
                format!("`{name}` is an array; select an element with `[index]`"),
            )),
            Target::Mux { index, alts } => {
                let mut vals = Vec::with_capacity(alts.len());
                let mut keys = Vec::with_capacity(alts.len());
                for (k, alt) in alts {
                    vals.push(self.target_value(alt, span, mode, expected)?);
                    keys.push(k);
                }
                let spans = vec![span; vals.len()];
                let vals = self.unify_values(vals, &spans, expected, "the elements of an array")?;
                let n = vals.len();
                let mut acc = vals[n - 1];
                for j in (0..n - 1).rev() {
                    let k = self.st.sys.int_const(keys[j], None);
                    let is = self.mk_raw(Ir::Binary(hypermut_ir::BinOp::Eq, index, k), span)?;
                    let s = if j == 0 { Some(span) } else { None };
                    acc = self
                        .st
                        .sys
                        .mk(Ir::Ite(is, vals[j], acc), s)
                        .map_err(|e| Diag::new(span, e.to_string()))?;
                }
                Ok(acc)
            }
        }
    }

    /// A variable reference, its next value inside `next()`, or an invariant-assigned
    /// variable's defining expression.
    fn var_value(&mut self, d: usize, span: Span, mode: NextMode) -> Result<ExprId, Diag> {
        if self.const_only {
            return Err(Diag::new(
                span,
                format!(
                    "expected a constant expression, found the variable `{}`",
                    self.decls[d].name
                ),
            ));
        }
        if self.decls[d].invariant.is_some() {
            return self.macro_value(d, span, mode);
        }
        let Some(v) = self.decls[d].var else {
            return Err(Diag::new(span, "internal: variable without IR variable"));
        };
        if mode != NextMode::Inside {
            return Ok(self.st.sys.var_ref(v, Some(span)));
        }
        if self.decls[d].kind == VarKind::IVar {
            return Err(Diag::new(
                span,
                format!(
                    "next() of input variable `{}` is not allowed",
                    self.decls[d].name
                ),
            ));
        }
        self.st.next_uses.entry(v).or_insert(span);
        self.mk(Ir::Next(v), span)
    }

    /// The expression of an invariant-assigned variable `x := e` (state `mode`).
    pub(crate) fn macro_value(
        &mut self,
        d: usize,
        span: Span,
        mode: NextMode,
    ) -> Result<ExprId, Diag> {
        let slot = usize::from(mode == NextMode::Inside);
        match self.decls[d].macro_state[slot] {
            MacroState::Done(id) => return Ok(id),
            MacroState::Busy => {
                return Err(Diag::new(
                    span,
                    format!("recursively defined: {}", self.decls[d].name),
                ))
            }
            MacroState::Pending => {}
        }
        let Some((assign, actx)) = self.decls[d].invariant else {
            return Err(Diag::new(span, "internal: not an invariant assignment"));
        };
        let ty = self.decls[d].ty;
        self.decls[d].macro_state[slot] = MacroState::Busy;
        let inner_mode = if mode == NextMode::Inside {
            NextMode::Inside
        } else {
            NextMode::Forbidden("invariant assignments")
        };
        let r = self
            .elab(&assign.rhs, actx, inner_mode, enum_of(ty))
            .and_then(|x| self.coerce_assigned(x, d, assign.rhs.span));
        self.decls[d].macro_state[slot] = MacroState::Pending;
        let id = r?;
        self.check_case_failures(id)?;
        self.decls[d].macro_state[slot] = MacroState::Done(id);
        Ok(id)
    }

    /// A symbolic constant.
    fn constant(
        &mut self,
        name: &str,
        span: Span,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let cands = self
            .consts
            .get(name)
            .map(|(c, _)| c.clone())
            .unwrap_or_default();
        let Some(e) = expected
            .filter(|x| cands.contains(x))
            .or_else(|| cands.first().copied())
        else {
            return Err(Diag::new(
                span,
                format!("constant `{name}` is not a value of any enumeration type"),
            ));
        };
        let idx = self.st.sys.enums[e.0 as usize]
            .index_of(name)
            .ok_or_else(|| Diag::new(span, format!("undefined identifier `{name}`")))?;
        Ok(self.st.sys.enum_const(e, idx, Some(span)))
    }

    /// Expands DEFINE `i`, referenced at `at`.
    pub(crate) fn elab_define(
        &mut self,
        i: usize,
        at: Span,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        if self.expanding.contains(&i) {
            let name = self.defines[i].name.clone();
            return Err(Diag::new(at, format!("recursively defined: {name}")));
        }
        let key = (i, mode.class(), expected);
        if let Some(id) = self.st.memo.get(&key) {
            return Ok(*id);
        }
        if !self.const_only {
            self.defines[i].used = true;
        }
        let (body, ctx) = (self.defines[i].body, self.defines[i].ctx);
        let choices_before = self.st.sys.choices.len();
        self.expanding.push(i);
        let r = self.elab(body, ctx, mode, expected);
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
        first: &'a Expr,
        rest: &'a [(BinOp, Expr)],
        right_assoc: bool,
        ctx: InstId,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        if right_assoc {
            // `a -> b -> c` is `a -> (b -> c)`; operands are elaborated left to right.
            let operands: Vec<&Expr> = std::iter::once(first)
                .chain(rest.iter().map(|(_, e)| e))
                .collect();
            let mut xs = Vec::with_capacity(operands.len());
            for e in &operands {
                xs.push(self.elab(e, ctx, mode, None)?);
            }
            let end = operands[operands.len() - 1].span;
            let mut acc = xs[xs.len() - 1];
            for k in (0..rest.len()).rev() {
                let left = operands[k].span;
                let span = Span::new(left.file, left.start as usize, end.end as usize);
                acc = self.binary(rest[k].0, xs[k], acc, span)?;
            }
            return Ok(acc);
        }
        if let Some((op, _)) = rest.iter().find(|(op, _)| op.is_temporal()) {
            return Err(Diag::new(
                first.span,
                format!(
                    "temporal operator `{}` is only allowed in LTL specifications",
                    op.symbol()
                ),
            ));
        }
        if rest[0].0 == BinOp::Union {
            // A union where a value is expected: one choice over all elements.
            let span = Span::new(
                first.span.file,
                first.span.start as usize,
                rest[rest.len() - 1].1.span.end as usize,
            );
            let mut elems = Vec::new();
            self.set_elems(first, ctx, &mut elems)?;
            for (_, e) in rest {
                self.set_elems(e, ctx, &mut elems)?;
            }
            return self.choice_from(elems, span, mode, expected);
        }
        if let ExprKind::Unary(UnOp::Not, inner) = &first.kind {
            let relational = rest.iter().all(|(op, _)| {
                matches!(
                    op,
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                )
            });
            if relational {
                let probe = self.elab(inner, ctx, mode, None)?;
                let ty = self.st.sys.ty(probe);
                if matches!(ty, Type::Int { .. } | Type::Enum(_))
                    && !self.convertible(ty, Type::Bool)
                {
                    // NuSMV 2.4 read `!x = c` as `!(x = c)`; 2.5 rejects it as a type error.
                    let cmp = self.chain(inner, rest, false, ctx, mode, expected)?;
                    let last = rest[rest.len() - 1].1.span;
                    let span = Span::new(
                        first.span.file,
                        first.span.start as usize,
                        last.end as usize,
                    );
                    first_place(&mut self.old_precedence, span);
                    return self.mk(Ir::Unary(UnOp::Not, cmp), span);
                }
            }
        }
        let first_hint = self.hint(&rest[0].1, ctx);
        let mut acc = self.elab(
            first,
            ctx,
            mode,
            first_hint.or(expected_for(rest[0].0, expected)),
        )?;
        for (op, e) in rest {
            let span = Span::new(
                first.span.file,
                first.span.start as usize,
                e.span.end as usize,
            );
            if *op == BinOp::In {
                acc = self.membership(acc, e, ctx, mode, span)?;
                continue;
            }
            let hint = enum_of(self.st.sys.ty(acc)).or(expected_for(*op, expected));
            let rhs = self.elab(e, ctx, mode, hint)?;
            acc = self.binary(*op, acc, rhs, span)?;
        }
        Ok(acc)
    }

    /// `x in S`: the disjunction of `x = e` over the elements of S.
    fn membership(
        &mut self,
        x: ExprId,
        set: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        span: Span,
    ) -> Result<ExprId, Diag> {
        let mut elems = Vec::new();
        self.set_elems(set, ctx, &mut elems)?;
        let hint = enum_of(self.st.sys.ty(x));
        let mut terms = Vec::with_capacity(elems.len());
        for el in elems {
            let v = match el {
                Elem::Expr(e, c) => self.elab(e, c, mode, hint)?,
                Elem::Int(k, s) => self.int_literal(k, s, hint),
            };
            let eq = self.binary(BinOp::Eq, x, v, span)?;
            terms.push(eq);
        }
        let n = terms.len();
        let Some(mut acc) = terms.last().copied() else {
            return Err(Diag::new(span, "empty set on the right of `in`"));
        };
        for k in (0..n - 1).rev() {
            acc = self.mk_raw(Ir::Binary(hypermut_ir::BinOp::Or, terms[k], acc), span)?;
        }
        // The outermost node carries the `in` expression's span.
        let node = self.st.sys.exprs.node(acc).clone();
        self.st
            .sys
            .mk(node.kind, Some(span))
            .map_err(|e| Diag::new(span, e.to_string()))
    }

    /// The elements of a set expression, looking through `union`, ranges, parentheses,
    /// parameters and DEFINEs whose bodies are sets.
    fn set_elems(&mut self, e: &'a Expr, ctx: InstId, out: &mut Vec<Elem<'a>>) -> Result<(), Diag> {
        match &e.kind {
            ExprKind::Set(items) => {
                for i in items {
                    self.set_elems(i, ctx, out)?;
                }
            }
            ExprKind::Chain { first, rest, .. }
                if rest.iter().all(|(op, _)| *op == BinOp::Union) =>
            {
                self.set_elems(first, ctx, out)?;
                for (_, x) in rest {
                    self.set_elems(x, ctx, out)?;
                }
            }
            ExprKind::Range(lo, hi) => {
                let l = self.const_int(lo, ctx, "a range bound")?;
                let h = self.const_int(hi, ctx, "a range bound")?;
                if l > h {
                    return Err(Diag::new(e.span, format!("empty range {l}..{h}")));
                }
                if h as i128 - l as i128 >= MAX_ENUMERATED as i128 {
                    return Err(Diag::new(
                        e.span,
                        format!("range {l}..{h} has more than {MAX_ENUMERATED} values"),
                    ));
                }
                out.extend((l..=h).map(|k| Elem::Int(k, e.span)));
            }
            ExprKind::Ident(n) => {
                let param = self.insts[ctx].params.get(n.as_str()).copied();
                if let Some((arg, caller)) = param {
                    if is_set_like(arg) || matches!(arg.kind, ExprKind::Ident(_)) {
                        return self.set_elems(arg, caller, out);
                    }
                }
                let full = self.full_name(ctx, n);
                if let Some((Sym::Define(i), _)) = self.syms.get(&full).copied() {
                    let (body, dctx) = (self.defines[i].body, self.defines[i].ctx);
                    if is_set_like(body) || matches!(body.kind, ExprKind::Ident(_)) {
                        if self.expanding.contains(&i) {
                            return Err(Diag::new(
                                e.span,
                                format!("recursively defined: {}", self.defines[i].name),
                            ));
                        }
                        self.defines[i].used = true;
                        self.expanding.push(i);
                        let r = self.set_elems(body, dctx, out);
                        self.expanding.pop();
                        return r;
                    }
                }
                out.push(Elem::Expr(e, ctx));
            }
            _ => out.push(Elem::Expr(e, ctx)),
        }
        Ok(())
    }

    /// A set, range or union where a value is expected: a choice over its elements.
    fn choice_of(
        &mut self,
        e: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let mut elems = Vec::new();
        self.set_elems(e, ctx, &mut elems)?;
        self.choice_from(elems, e.span, mode, expected)
    }

    fn choice_from(
        &mut self,
        elems: Vec<Elem<'a>>,
        span: Span,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let g = expected.or_else(|| {
            elems.iter().find_map(|el| match el {
                Elem::Expr(x, c) => self.hint(x, *c),
                Elem::Int(..) => None,
            })
        });
        let mut xs = Vec::with_capacity(elems.len());
        let mut spans = Vec::with_capacity(elems.len());
        for el in elems {
            let (x, s) = match el {
                Elem::Expr(x, c) => (self.elab(x, c, mode, g)?, x.span),
                Elem::Int(k, s) => (self.int_literal(k, s, g), s),
            };
            xs.push(x);
            spans.push(s);
        }
        let xs = self.unify_values(xs, &spans, g, "the elements of a set")?;
        if self.const_only && xs.len() > 1 {
            return Err(Diag::new(
                span,
                "expected a constant expression, found a set",
            ));
        }
        match xs.as_slice() {
            [single] => Ok(*single),
            _ => self
                .st
                .sys
                .choice(xs, Some(span))
                .map_err(|t| Diag::new(span, t.to_string())),
        }
    }

    /// `case … esac` as nested if-then-else, the last branch being the default once the
    /// guards are known to be exhaustive.
    fn case(
        &mut self,
        whole: Span,
        branches: &'a [CaseBranch],
        ctx: InstId,
        mode: NextMode,
        expected: Option<EnumId>,
    ) -> Result<ExprId, Diag> {
        let g = expected.or_else(|| branches.iter().find_map(|b| self.hint(&b.value, ctx)));
        let n = branches.len();
        let mut conds = Vec::with_capacity(n);
        let mut vals: Vec<ExprId> = Vec::with_capacity(n);
        let mut spans = Vec::with_capacity(n);
        for b in branches {
            conds.push(self.condition(&b.cond, ctx, mode, "case condition")?);
            vals.push(self.elab(&b.value, ctx, mode, g)?);
            spans.push(b.value.span);
        }
        let vals = self.unify_values(vals, &spans, g, "the branches of `case`")?;
        let mut acc = vals[n - 1];
        let last = &branches[n - 1];
        for i in (0..n - 1).rev() {
            let span = if i == 0 {
                whole
            } else {
                let s = branches[i].cond.span;
                Span::new(s.file, s.start as usize, last.value.span.end as usize)
            };
            acc = self.mk(Ir::Ite(conds[i], vals[i], acc), span)?;
        }
        self.check_exhaustive(acc, &conds, &vals, whole)?;
        Ok(acc)
    }

    /// A boolean condition.
    pub(crate) fn condition(
        &mut self,
        c: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        what: &str,
    ) -> Result<ExprId, Diag> {
        let mut x = self.elab(c, ctx, mode, None)?;
        let mut ty = self.st.sys.ty(x);
        if self.convertible(ty, Type::Bool) {
            x = self.coerce(x, Type::Bool, c.span)?;
            ty = Type::Bool;
        }
        if !ty.is_bool() {
            return Err(Diag::new(
                c.span,
                format!("{what} must be boolean, found {}", self.describe(ty)),
            ));
        }
        Ok(x)
    }

    /// Builds a node, turning an IR type error into a diagnostic at `span`.
    pub(crate) fn mk(&mut self, kind: Ir, span: Span) -> Result<ExprId, Diag> {
        self.st
            .sys
            .mk(kind, Some(span))
            .map_err(|t: TypeError| Diag::new(span, t.to_string()))
    }

    /// Converts an assigned value to the variable's type, rejecting type mismatches.
    pub(crate) fn coerce_assigned(
        &mut self,
        x: ExprId,
        d: usize,
        at: Span,
    ) -> Result<ExprId, Diag> {
        let var_ty = self.decls[d].ty;
        let rhs_ty = self.st.sys.ty(x);
        if self.convertible(rhs_ty, var_ty) {
            return self.coerce(x, var_ty, at);
        }
        let name = self.decls[d].name.clone();
        Err(Diag::new(
            at,
            format!(
                "type mismatch in assignment to `{name}`: expected {}, found {}",
                self.describe(var_ty),
                self.describe(rhs_ty)
            ),
        ))
    }

    /// The enumeration an expression evidently has, looked up without elaborating it (used to
    /// type ambiguous symbolic constants by context). Looks at no more than [`HINT_BUDGET`]
    /// nodes.
    pub(crate) fn hint(&self, e: &Expr, ctx: InstId) -> Option<EnumId> {
        self.hint_within(e, ctx, &mut HINT_BUDGET.clone())
    }

    fn hint_within(&self, e: &Expr, ctx: InstId, budget: &mut u32) -> Option<EnumId> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        match &e.kind {
            ExprKind::Ident(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let (sym, c) = self.static_sym(e, ctx, budget)?;
                match sym {
                    HintSym::Sym(Sym::Var(d)) => enum_of(self.decls.get(d)?.ty),
                    HintSym::Sym(Sym::Define(i)) => {
                        let d = self.defines.get(i)?;
                        self.hint_within(d.body, d.ctx, budget)
                    }
                    HintSym::Expr(x) => self.hint_within(x, c, budget),
                    HintSym::Const(n) => match self.consts.get(&n).map(|(c, _)| c.as_slice()) {
                        Some([only]) => Some(*only),
                        _ => None,
                    },
                    HintSym::Sym(_) => None,
                }
            }
            ExprKind::Next(a) => self.hint_within(a, ctx, budget),
            ExprKind::Ite(_, a, b) => self
                .hint_within(a, ctx, budget)
                .or_else(|| self.hint_within(b, ctx, budget)),
            ExprKind::Case(bs) => bs
                .iter()
                .find_map(|b| self.hint_within(&b.value, ctx, budget)),
            ExprKind::Set(items) => items.iter().find_map(|i| self.hint_within(i, ctx, budget)),
            _ => None,
        }
    }

    /// What a name-like expression statically denotes (no elaboration; dynamic indices look
    /// at the first element).
    fn static_sym(&self, e: &Expr, ctx: InstId, budget: &mut u32) -> Option<(HintSym<'_>, InstId)> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        match &e.kind {
            ExprKind::Ident(n) => {
                let inst = self.insts.get(ctx)?;
                if let Some((arg, caller)) = inst.params.get(n.as_str()) {
                    return match arg.kind {
                        ExprKind::Ident(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                            self.static_sym(arg, *caller, budget)
                        }
                        _ => Some((HintSym::Expr(arg), *caller)),
                    };
                }
                let full = self.full_name(ctx, n);
                match self.syms.get(&full) {
                    Some((sym, _)) => Some((HintSym::Sym(*sym), ctx)),
                    None => Some((HintSym::Const(n.clone()), ctx)),
                }
            }
            ExprKind::SelfRef => Some((HintSym::Sym(Sym::Inst(ctx)), ctx)),
            ExprKind::Field(base, f) => {
                let (HintSym::Sym(Sym::Inst(i)), _) = self.static_sym(base, ctx, budget)? else {
                    return None;
                };
                let full = self.full_name(i, &f.name);
                let (sym, _) = self.syms.get(&full)?;
                Some((HintSym::Sym(*sym), i))
            }
            ExprKind::Index(base, _) => {
                let (HintSym::Sym(Sym::Array { lo, .. }), c) =
                    self.static_sym(base, ctx, budget)?
                else {
                    return None;
                };
                let name = self.array_name(base, ctx)?;
                let (sym, _) = self.syms.get(&format!("{name}[{lo}]"))?;
                Some((HintSym::Sym(*sym), c))
            }
            _ => None,
        }
    }

    /// The hierarchical name of a statically named array (for hints only).
    fn array_name(&self, e: &Expr, ctx: InstId) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(n) => {
                let inst = self.insts.get(ctx)?;
                if let Some((arg, caller)) = inst.params.get(n.as_str()) {
                    return self.array_name(arg, *caller);
                }
                Some(self.full_name(ctx, n))
            }
            ExprKind::Field(base, f) => {
                let mut b = 256;
                let (HintSym::Sym(Sym::Inst(i)), _) = self.static_sym(base, ctx, &mut b)? else {
                    return None;
                };
                Some(self.full_name(i, &f.name))
            }
            ExprKind::Index(base, idx) => {
                let inner = self.array_name(base, ctx)?;
                let ExprKind::Int(k) = idx.kind else {
                    let mut b = 256;
                    let (HintSym::Sym(Sym::Array { lo, .. }), _) =
                        self.static_sym(base, ctx, &mut b)?
                    else {
                        return None;
                    };
                    return Some(format!("{inner}[{lo}]"));
                };
                Some(format!("{inner}[{k}]"))
            }
            _ => None,
        }
    }

    /// A word constant of `width` bits holding `v` (two's complement for negative `v`).
    pub(crate) fn word_const(
        &mut self,
        signed: bool,
        width: u32,
        v: &BigUint,
        span: Span,
    ) -> ExprId {
        let ty = Type::BitVec { width, signed };
        self.st
            .sys
            .bv_const(ty, Value::bits(width, v.clone()), Some(span))
    }
}

/// What [`Elab::static_sym`] found.
enum HintSym<'e> {
    /// A declared symbol.
    Sym(Sym),
    /// A parameter bound to an expression.
    Expr(&'e Expr),
    /// An undeclared name (maybe a symbolic constant).
    Const(String),
}

/// Whether an expression is syntactically a set (a set literal, a range or a union).
fn is_set_like(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Set(_) | ExprKind::Range(..) => true,
        ExprKind::Chain { rest, .. } => rest.iter().all(|(op, _)| *op == BinOp::Union),
        _ => false,
    }
}

/// The expected enumeration passed to the first operand of an operator.
fn expected_for(op: BinOp, expected: Option<EnumId>) -> Option<EnumId> {
    match op {
        BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Xnor
        | BinOp::Implies
        | BinOp::Iff
        | BinOp::In => None,
        _ => expected,
    }
}
