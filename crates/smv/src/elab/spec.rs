//! Specifications: safety properties, and checks of everything that is not exported.
//!
//! * `INVARSPEC p`, `SPEC AG p` / `CTLSPEC AG p` and `LTLSPEC G p` with a propositional `p`
//!   (no temporal operator, no `next`) become [`Property`]s named by their `NAME`, else by
//!   their source text (comments removed, white space collapsed). Specifications of a
//!   submodule instance are checked in that instance: `NAME n` becomes `path.n`, an unnamed
//!   one gets the suffix ` IN path` (as NuSMV prints them).
//! * Every other specification is skipped with a note, after its propositional parts have
//!   been type-checked (on a throw-away copy of the system).
//! * DEFINEs that no model part used are also elaborated on that copy, so that their errors
//!   are reported as NuSMV does.

use hypermut_ir::{Property, Severity, UnOp};

use crate::ast::{Expr, ExprKind, FairKind, Section, Spec, SpecKind, TempOp};
use crate::error::Diag;

use super::common::{join, NextMode};
use super::state::{Elab, InstId};

impl<'a> Elab<'a> {
    /// Phase 4 for one instance: its specifications.
    pub(super) fn instance_specs(&mut self, ctx: InstId) -> Result<(), Diag> {
        let sections = self.insts[ctx].sections.clone();
        for s in sections {
            if let Section::Spec(spec) = s {
                self.spec(spec, ctx)?;
            }
        }
        Ok(())
    }

    fn spec(&mut self, spec: &'a Spec, ctx: InstId) -> Result<(), Diag> {
        let Some(p) = safety_body(spec) else {
            let note = format!(
                "{} skipped: only INVARSPEC p, AG p and G p with a propositional p are exported \
                 as safety properties",
                spec.kind.keyword()
            );
            self.report(Severity::Note, spec.keyword, note);
            return Ok(());
        };
        let id = self.condition(p, ctx, NextMode::Forbidden("specifications"), "a property")?;
        self.check_case_failures(id)?;
        let path = self.insts[ctx].path.clone();
        let name = match &spec.name {
            Some(n) => join(&path, &n.name),
            None => {
                let text = normalize(self.st.sys.sources.snippet(spec.expr.span));
                if path.is_empty() {
                    text
                } else {
                    format!("{text} IN {path}")
                }
            }
        };
        self.st.sys.properties.push(Property {
            name,
            expr: id,
            span: Some(p.span),
        });
        self.property_instances.push(path);
        Ok(())
    }

    /// Phase 6: elaborates, on a throw-away copy, everything that is not part of the system:
    /// unused DEFINEs, the propositional parts of skipped specifications, fairness.
    pub(super) fn check_only(&mut self) -> Result<(), Diag> {
        let mut work: Vec<(&'a Expr, InstId, NextMode)> = Vec::new();
        for ctx in 0..self.insts.len() {
            for s in self.insts[ctx].sections.clone() {
                match s {
                    Section::Spec(spec) if safety_body(spec).is_none() => {
                        let mode = match spec.kind {
                            SpecKind::Invar => NextMode::Allowed,
                            SpecKind::Ctl => NextMode::Forbidden("CTL specifications"),
                            SpecKind::Ltl => NextMode::Forbidden("LTL specifications"),
                        };
                        propositional_parts(&spec.expr, &mut |e| work.push((e, ctx, mode)));
                    }
                    Section::Fairness(kind, _, exprs) => {
                        debug_assert!(matches!(kind, FairKind::Justice | FairKind::Compassion));
                        let mode = NextMode::Forbidden("fairness constraints");
                        work.extend(exprs.iter().map(|e| (e, ctx, mode)));
                    }
                    _ => {}
                }
            }
        }
        let unused: Vec<usize> = (0..self.defines.len())
            .filter(|i| !self.defines[*i].used)
            .collect();
        if work.is_empty() && unused.is_empty() {
            return Ok(());
        }
        let saved = self.st.clone();
        let saved_diagnostics = self.diagnostics.len();
        let mut result = Ok(());
        for i in unused {
            let name_span = self.defines[i].body.span;
            if let Err(d) = self.elab_define(i, name_span, NextMode::Allowed, None) {
                result = Err(d);
                break;
            }
        }
        if result.is_ok() {
            for (e, ctx, mode) in work {
                if let Err(d) = self.condition(e, ctx, mode, "a specification") {
                    result = Err(d);
                    break;
                }
            }
        }
        self.st = saved;
        self.diagnostics.truncate(saved_diagnostics);
        result
    }
}

/// The `p` of `INVARSPEC p`, `AG p`, `G p` when `p` is propositional.
fn safety_body(spec: &Spec) -> Option<&Expr> {
    let p = match (&spec.kind, &spec.expr.kind) {
        (SpecKind::Invar, _) => &spec.expr,
        (SpecKind::Ctl, ExprKind::Temporal(TempOp::Ag, args))
        | (SpecKind::Ltl, ExprKind::Temporal(TempOp::G, args)) => args.first()?,
        _ => return None,
    };
    let propositional = !p.has_temporal() && !p.any(|e| matches!(e.kind, ExprKind::Next(_)));
    propositional.then_some(p)
}

/// Calls `f` on the maximal sub-expressions without temporal operators.
fn propositional_parts<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    if !e.has_temporal() {
        f(e);
        return;
    }
    match &e.kind {
        ExprKind::Temporal(_, args) => {
            for a in args {
                propositional_parts(a, f);
            }
        }
        ExprKind::Unary(UnOp::Not, a) => propositional_parts(a, f),
        _ => {
            for c in e.children() {
                propositional_parts(c, f);
            }
        }
    }
}

/// Source text without `--` comments, with runs of white space collapsed to one space.
pub(crate) fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = match line.find("--") {
            Some(k) => &line[..k],
            None => line,
        };
        for w in code.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}
