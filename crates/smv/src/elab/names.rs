//! Name resolution: identifiers, parameters, `self`, `a.b`, `a[i]`.
//!
//! A name is looked up as: a formal parameter of the instance (resolved in the instance that
//! passed it), a declared name `path.name`, a symbolic constant. An array index that is not
//! a constant selects among the elements with a multiplexer (see [`Target::Mux`]); a dynamic
//! index outside the array's bounds reads the last element of the array that the index type
//! can reach (NuSMV reports an error at run time instead).

use hypermut_ir::{ExprId, Span, Type};

use crate::ast::{Expr, ExprKind};
use crate::error::Diag;

use super::common::NextMode;
use super::state::{Elab, InstId, Sym};

/// What an expression that names something denotes.
#[derive(Clone, Debug)]
pub(crate) enum Target<'a> {
    /// A declared variable (index into `decls`).
    Var(usize),
    /// A DEFINE (index into `defines`).
    Define(usize),
    /// A module instance.
    Inst(InstId),
    /// An array (elements `name[k]`).
    Array {
        /// The array's hierarchical name.
        name: String,
        /// Smallest index.
        lo: i64,
        /// Largest index.
        hi: i64,
    },
    /// A symbolic constant.
    Const(String),
    /// `running` of a process.
    Running(usize),
    /// A parameter bound to an expression that is not a name.
    Expr(&'a Expr, InstId),
    /// An element selected by a non-constant index: `index = k` selects `alts[k]`.
    Mux {
        /// The index value.
        index: ExprId,
        /// The candidate elements by index value, ascending.
        alts: Vec<(i64, Target<'a>)>,
    },
}

/// Longest chain of parameters passed through instances before giving up.
const MAX_PARAM_CHAIN: u32 = 10_000;

impl<'a> Elab<'a> {
    /// Resolves a name-like expression written in instance `ctx`. Other expressions resolve
    /// to [`Target::Expr`].
    pub(crate) fn resolve(
        &mut self,
        e: &'a Expr,
        ctx: InstId,
        mode: NextMode,
    ) -> Result<Target<'a>, Diag> {
        self.resolve_in(e, ctx, mode, 0)
    }

    fn resolve_in(
        &mut self,
        e: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        hops: u32,
    ) -> Result<Target<'a>, Diag> {
        if hops > MAX_PARAM_CHAIN {
            return Err(Diag::new(
                e.span,
                "parameters refer to each other cyclically",
            ));
        }
        if matches!(e.kind, ExprKind::Field(..) | ExprKind::Index(..)) {
            if let Some(full) = self.declared_text(e, ctx) {
                if let Some((sym, _)) = self.syms.get(&full).copied() {
                    return self.sym_target(sym, full, e.span);
                }
            }
        }
        match &e.kind {
            ExprKind::Ident(n) => self.resolve_name(n, ctx, e.span, mode, hops),
            ExprKind::SelfRef => Ok(Target::Inst(ctx)),
            ExprKind::Field(base, f) => {
                let b = self.resolve_in(base, ctx, mode, hops)?;
                self.member(b, &f.name, f.span, base.span)
            }
            ExprKind::Index(base, i) => {
                let b = self.resolve_in(base, ctx, mode, hops)?;
                self.element(b, i, ctx, mode, base.span)
            }
            _ => Ok(Target::Expr(e, ctx)),
        }
    }

    /// The hierarchical name `ctx.a.b[1]` when the expression spells a declared name
    /// textually (declarations like `VAR p2.pc : 0..6;`).
    fn declared_text(&self, e: &Expr, ctx: InstId) -> Option<String> {
        let text = spelled(e)?;
        let full = self.full_name(ctx, &text);
        self.syms.contains_key(&full).then_some(full)
    }

    /// A bare identifier in instance `ctx`.
    fn resolve_name(
        &mut self,
        n: &str,
        ctx: InstId,
        span: Span,
        mode: NextMode,
        hops: u32,
    ) -> Result<Target<'a>, Diag> {
        let inst = self
            .insts
            .get(ctx)
            .ok_or_else(|| Diag::new(span, "internal: unknown instance"))?;
        if let Some((arg, caller)) = inst.params.get(n).copied() {
            return self.resolve_in(arg, caller, mode, hops + 1);
        }
        let full = self.full_name(ctx, n);
        if let Some((sym, _)) = self.syms.get(&full) {
            return self.sym_target(*sym, full, span);
        }
        if self.consts.contains_key(n) {
            return Ok(Target::Const(n.to_string()));
        }
        Err(Diag::new(span, format!("undefined identifier `{n}`")))
    }

    /// The target of a declared symbol named `full`.
    fn sym_target(&self, sym: Sym, full: String, span: Span) -> Result<Target<'a>, Diag> {
        Ok(match sym {
            Sym::Var(d) => Target::Var(d),
            Sym::Define(i) => Target::Define(i),
            Sym::Inst(i) if i < self.insts.len() => Target::Inst(i),
            Sym::Inst(_) => {
                return Err(Diag::new(
                    span,
                    format!("instance `{full}` is used inside its own declaration"),
                ))
            }
            Sym::Array { lo, hi } => Target::Array { name: full, lo, hi },
            Sym::Running(p) => Target::Running(p),
        })
    }

    /// `base.f`.
    fn member(
        &mut self,
        base: Target<'a>,
        f: &str,
        f_span: Span,
        base_span: Span,
    ) -> Result<Target<'a>, Diag> {
        match base {
            Target::Inst(i) => {
                let full = self.full_name(i, f);
                match self.syms.get(&full) {
                    Some((sym, _)) => self.sym_target(*sym, full, f_span),
                    None => Err(Diag::new(
                        f_span,
                        format!(
                            "`{f}` is not declared in the instance `{}`",
                            self.insts[i].path
                        ),
                    )),
                }
            }
            Target::Mux { index, alts } => {
                let mut out = Vec::with_capacity(alts.len());
                for (k, t) in alts {
                    out.push((k, self.member(t, f, f_span, base_span)?));
                }
                Ok(Target::Mux { index, alts: out })
            }
            _ => Err(Diag::new(
                base_span,
                format!("`.{f}`: the left-hand side is not a module instance"),
            )),
        }
    }

    /// `base[i]`.
    fn element(
        &mut self,
        base: Target<'a>,
        i: &'a Expr,
        ctx: InstId,
        mode: NextMode,
        base_span: Span,
    ) -> Result<Target<'a>, Diag> {
        let index = self.elab(i, ctx, mode, None)?;
        let ity = self.st.sys.ty(index);
        let Type::Int { lo: ilo, hi: ihi } = ity else {
            return Err(Diag::new(
                i.span,
                format!(
                    "array index must be an integer, found {}",
                    self.describe(ity)
                ),
            ));
        };
        self.element_at(base, index, (ilo, ihi), i.span, base_span)
    }

    fn element_at(
        &mut self,
        base: Target<'a>,
        index: ExprId,
        (ilo, ihi): (i64, i64),
        i_span: Span,
        base_span: Span,
    ) -> Result<Target<'a>, Diag> {
        match base {
            Target::Array { name, lo, hi } => {
                if let Some(k) = self.fold_int(index) {
                    if k < lo || k > hi {
                        return Err(Diag::new(
                            i_span,
                            format!("array index {k} is out of bounds {lo}..{hi} of `{name}`"),
                        ));
                    }
                    let full = format!("{name}[{k}]");
                    let (sym, _) = *self
                        .syms
                        .get(&full)
                        .ok_or_else(|| Diag::new(i_span, format!("internal: no `{full}`")))?;
                    return self.sym_target(sym, full, i_span);
                }
                let (from, to) = (lo.max(ilo), hi.min(ihi));
                if from > to {
                    return Err(Diag::new(
                        i_span,
                        format!("array index range {ilo}..{ihi} lies outside the bounds {lo}..{hi} of `{name}`"),
                    ));
                }
                let mut alts = Vec::new();
                for k in from..=to {
                    let full = format!("{name}[{k}]");
                    let (sym, _) = *self
                        .syms
                        .get(&full)
                        .ok_or_else(|| Diag::new(i_span, format!("internal: no `{full}`")))?;
                    alts.push((k, self.sym_target(sym, full, i_span)?));
                }
                Ok(Target::Mux { index, alts })
            }
            Target::Mux { index: outer, alts } => {
                let mut out = Vec::with_capacity(alts.len());
                for (k, t) in alts {
                    out.push((k, self.element_at(t, index, (ilo, ihi), i_span, base_span)?));
                }
                Ok(Target::Mux {
                    index: outer,
                    alts: out,
                })
            }
            _ => Err(Diag::new(
                base_span,
                "indexing something that is not an array",
            )),
        }
    }
}

/// The text of a name built from identifiers, `.name` and constant `[k]` (no parameters are
/// looked through).
fn spelled(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Field(b, f) => Some(format!("{}.{}", spelled(b)?, f.name)),
        ExprKind::Index(b, i) => match i.kind {
            ExprKind::Int(k) => Some(format!("{}[{k}]", spelled(b)?)),
            _ => None,
        },
        _ => None,
    }
}
