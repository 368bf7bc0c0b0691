//! Assignments, constraints and processes.
//!
//! * `init(x) := e` and `next(x) := e` set the IR variable's `init`/`next`. `next()` may
//!   appear on the right of a `next` assignment: `next(y)` is replaced by `y`'s next-state
//!   function when `y` has one; otherwise the assignment becomes the transition constraint
//!   `next(x) = e` and `x`'s next value is free (constrained by it).
//! * With `process` instances, NuSMV's interleaving: one scheduler choice per step
//!   (`_process_selector_`, over `main` and the process instances) picks the running process;
//!   `next(x) := e` written in process P becomes `running_P ? e : x` (several processes may
//!   assign the same variable); `running` is `_process_selector_ = P`. INIT, INVAR and TRANS
//!   are not guarded (as in NuSMV).
//! * Range check [hypermut]: NuSMV rejects a model if some state lets an assignment produce
//!   a value outside the variable's type. The front-end checks the constants among the
//!   possible values (through `case`, `?:` and sets) statically; a value computed outside the
//!   range in some state is not detected here (hypermut's all-states range validity check of
//!   mutants covers it).
//! * INIT/INVAR/TRANS become IR constraints; FAIRNESS/JUSTICE/COMPASSION are type-checked and
//!   otherwise ignored (they do not affect safety) with a note.

use std::collections::{HashMap, HashSet};

use hypermut_ir::{
    BinOp as IrOp, Constraint, ConstraintKind, ExprId, ExprKind, Severity, Span, Type, Value, VarId,
};

use crate::ast::{Assign, AssignKind, Expr, Section, VarKind};
use crate::error::Diag;

use super::common::{enum_of, NextMode};
use super::names::Target;
use super::state::{Elab, InstId, NextAssign};

impl<'a> Elab<'a> {
    /// The declaration an assignment's left-hand side names.
    pub(super) fn assign_target(&mut self, a: &'a Assign, ctx: InstId) -> Result<usize, Diag> {
        let t = self.resolve(&a.target, ctx, NextMode::Forbidden("assignment targets"))?;
        match t {
            Target::Var(d) => Ok(d),
            Target::Define(_) => Err(Diag::new(
                a.target.span,
                "cannot assign to a DEFINE".to_string(),
            )),
            Target::Mux { .. } => Err(Diag::new(
                a.target.span,
                "assignments to array elements need a constant index",
            )),
            Target::Const(_) | Target::Expr(..) => Err(Diag::new(
                a.target.span,
                "the left-hand side of an assignment must be a variable",
            )),
            Target::Inst(_) | Target::Array { .. } | Target::Running(_) => Err(Diag::new(
                a.target.span,
                "the left-hand side of an assignment must be a variable, not an instance or array",
            )),
        }
    }

    /// Phase 3 for one instance: assignments, INIT/INVAR/TRANS, fairness.
    pub(super) fn instance_behaviour(&mut self, ctx: InstId) -> Result<(), Diag> {
        let sections = self.insts[ctx].sections.clone();
        for s in sections {
            match s {
                Section::Assigns(assigns) => {
                    for a in assigns {
                        if a.kind != AssignKind::Invariant {
                            self.assign(a, ctx)?;
                        }
                    }
                }
                Section::Constraint(kind, x) => self.constraint(*kind, x, ctx)?,
                Section::Fairness(_, kw, _) => {
                    let note = format!(
                        "{} ignored (fairness does not affect safety properties)",
                        kw.name
                    );
                    self.report(Severity::Note, kw.span, note);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// One `init(x) := e;` / `next(x) := e;`.
    fn assign(&mut self, a: &'a Assign, ctx: InstId) -> Result<(), Diag> {
        let d = self.assign_target(a, ctx)?;
        let name = self.decls[d].name.clone();
        let kind = self.decls[d].kind;
        let what = if a.kind == AssignKind::Init {
            "initial"
        } else {
            "next"
        };
        if kind == VarKind::IVar {
            return Err(Diag::new(
                a.lhs_span,
                format!("illegal assignment of {what} value to input variable \"{name}\""),
            ));
        }
        if kind == VarKind::Frozen && a.kind == AssignKind::Next {
            return Err(Diag::new(
                a.lhs_span,
                format!("illegal assignment of next value to frozen variable \"{name}\""),
            ));
        }
        if self.decls[d].invariant.is_some() {
            return Err(Diag::new(
                a.lhs_span,
                format!("variable is assigned more than once: {name}"),
            ));
        }
        let Some(v) = self.decls[d].var else {
            return Err(Diag::new(
                a.lhs_span,
                "internal: variable without IR variable",
            ));
        };
        let process = self.insts[ctx].process;
        let duplicate = match a.kind {
            AssignKind::Init => self.inits.contains_key(&v),
            // With processes, NuSMV lets every process assign the variable (see above).
            _ => self
                .nexts
                .get(&v)
                .is_some_and(|l| self.procs.len() == 1 || l.iter().any(|n| n.process == process)),
        };
        if duplicate {
            return Err(Diag::new(
                a.lhs_span,
                format!("variable is assigned more than once: {name}"),
            ));
        }
        let mode = if a.kind == AssignKind::Init {
            NextMode::Forbidden("`init(…)` assignments")
        } else {
            NextMode::Allowed
        };
        let ty = self.decls[d].ty;
        let rhs = self.elab(&a.rhs, ctx, mode, enum_of(ty))?;
        let rhs = self.coerce_assigned(rhs, d, a.rhs.span)?;
        self.check_case_failures(rhs)?;
        self.check_constant_range(d, rhs, a.rhs.span)?;
        if a.kind == AssignKind::Init {
            self.inits.insert(v, a.lhs_span);
            self.st.sys.vars[v.0 as usize].init = Some(rhs);
        } else {
            self.nexts.entry(v).or_default().push(NextAssign {
                process,
                rhs,
                lhs: a.lhs_span,
            });
        }
        Ok(())
    }

    /// Rejects integer or enumeration constants among the possible values of `rhs` (through
    /// `case` branches, `?:` and set elements) that are not values of variable `d`.
    pub(super) fn check_constant_range(
        &self,
        d: usize,
        rhs: ExprId,
        fallback: Span,
    ) -> Result<(), Diag> {
        let info = &self.decls[d];
        let allowed = |x: i64| match (&info.domain, info.ty) {
            (Some(dom), _) => dom.contains(&x),
            (None, Type::Int { lo, hi }) => lo <= x && x <= hi,
            _ => true,
        };
        if !matches!(info.ty, Type::Int { .. }) {
            return Ok(());
        }
        let mut stack = vec![rhs];
        let mut seen = HashSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let node = self.st.sys.exprs.node(id);
            match &node.kind {
                ExprKind::Ite(_, a, b) => stack.extend([*a, *b]),
                ExprKind::Choice { options, .. } => stack.extend(options.iter().copied()),
                ExprKind::Const(Value::Int(c)) if !allowed(*c) => {
                    return Err(Diag::new(
                        node.span.unwrap_or(fallback),
                        format!("cannot assign value {c} to variable {}", info.name),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// An INIT / INVAR / TRANS constraint.
    fn constraint(&mut self, kind: ConstraintKind, x: &'a Expr, ctx: InstId) -> Result<(), Diag> {
        let (keyword, mode) = match kind {
            ConstraintKind::Init => ("INIT", NextMode::Forbidden("INIT")),
            ConstraintKind::Invariant => ("INVAR", NextMode::Forbidden("INVAR")),
            ConstraintKind::Trans => ("TRANS", NextMode::Allowed),
        };
        let id = self.elab(x, ctx, mode, None)?;
        let ty = self.st.sys.ty(id);
        if !ty.is_bool() {
            return Err(Diag::new(
                x.span,
                format!(
                    "{keyword} expression must be boolean, found {}",
                    self.describe(ty)
                ),
            ));
        }
        self.check_case_failures(id)?;
        self.st.sys.constraints.push(Constraint {
            kind,
            expr: id,
            span: Some(x.span),
        });
        Ok(())
    }

    /// The scheduler choice `_process_selector_` (built on first use).
    fn selector(&mut self, at: Span) -> Result<(hypermut_ir::EnumId, ExprId), Diag> {
        if let Some(s) = self.selector {
            return Ok(s);
        }
        let names: Vec<String> = self.procs.iter().map(|p| p.name.clone()).collect();
        let e = self.st.sys.add_enum("_process_selector_", names.clone());
        let options: Vec<ExprId> = (0..names.len() as u32)
            .map(|k| self.st.sys.enum_const(e, k, None))
            .collect();
        let c = self
            .st
            .sys
            .choice(options, None)
            .map_err(|t| Diag::new(at, t.to_string()))?;
        self.selector = Some((e, c));
        Ok((e, c))
    }

    /// `running` of process `p`: `_process_selector_ = p`.
    pub(crate) fn running(&mut self, p: usize, at: Span) -> Result<ExprId, Diag> {
        if let Some(r) = self.procs.get(p).and_then(|x| x.running) {
            return Ok(r);
        }
        let (e, sel) = self.selector(at)?;
        let k = self.st.sys.enum_const(e, p as u32, None);
        let r = self.mk_raw(ExprKind::Binary(IrOp::Eq, sel, k), at)?;
        if let Some(proc_) = self.procs.get_mut(p) {
            proc_.running = Some(r);
        }
        Ok(r)
    }

    /// Builds every variable's next-state function from its `next` assignments, then
    /// resolves `next()` on their right-hand sides.
    pub(super) fn finish_nexts(&mut self) -> Result<(), Diag> {
        let mut vars: Vec<VarId> = self.nexts.keys().copied().collect();
        vars.sort();
        let processes = self.procs.len() > 1;
        let mut lhs_of: HashMap<VarId, Span> = HashMap::new();
        for v in vars {
            let entries = self.nexts.remove(&v).unwrap_or_default();
            let Some(first) = entries.first() else {
                continue;
            };
            lhs_of.insert(v, first.lhs);
            let next = if processes {
                let mut acc = self.st.sys.var_ref(v, None);
                for n in entries.iter() {
                    let run = self.running(n.process, n.lhs)?;
                    acc = self.mk_raw(ExprKind::Ite(run, n.rhs, acc), n.lhs)?;
                }
                acc
            } else {
                first.rhs
            };
            self.st.sys.vars[v.0 as usize].next = Some(next);
        }
        self.resolve_next_reads(&lhs_of)
    }

    /// Replaces `next(y)` inside next-state functions by `y`'s next-state function; where
    /// that is impossible (free `y`), turns the assignment into a transition constraint.
    fn resolve_next_reads(&mut self, lhs_of: &HashMap<VarId, Span>) -> Result<(), Diag> {
        let n = self.st.sys.vars.len();
        // Per node: whether a `next()` is below it (children have smaller ids).
        let pool = &self.st.sys.exprs;
        let mut below: Vec<bool> = Vec::with_capacity(pool.len());
        for i in 0..pool.len() {
            let kind = &pool.node(ExprId(i as u32)).kind;
            let b = matches!(kind, ExprKind::Next(_))
                || kind
                    .children()
                    .iter()
                    .any(|c| below.get(c.0 as usize).copied().unwrap_or(false));
            below.push(b);
        }
        let pending: Vec<VarId> = (0..n as u32)
            .map(VarId)
            .filter(|v| {
                self.st
                    .sys
                    .var(*v)
                    .next
                    .is_some_and(|e| below.get(e.0 as usize).copied().unwrap_or(false))
            })
            .collect();
        if pending.is_empty() {
            return Ok(());
        }
        // state: 0 unvisited, 1 in progress, 2 done
        let mut state = vec![0u8; n];
        let mut resolved: HashMap<VarId, Option<ExprId>> = HashMap::new();
        for v in &pending {
            self.resolve_var_next(*v, lhs_of, &mut state, &mut resolved)?;
        }
        for v in pending {
            let orig = self.st.sys.var(v).next;
            match resolved.get(&v).copied().flatten() {
                Some(e) => self.st.sys.vars[v.0 as usize].next = Some(e),
                None => {
                    // Keep the relation: next(v) = rhs, with v's next value free.
                    let Some(rhs) = orig else { continue };
                    let span = lhs_of.get(&v).copied();
                    let nv =
                        self.st.sys.mk(ExprKind::Next(v), None).map_err(|e| {
                            Diag::new(span.unwrap_or(self.program.eof), e.to_string())
                        })?;
                    let eq = self
                        .st
                        .sys
                        .mk(ExprKind::Binary(IrOp::Eq, nv, rhs), None)
                        .map_err(|e| Diag::new(span.unwrap_or(self.program.eof), e.to_string()))?;
                    self.st.sys.constraints.push(Constraint {
                        kind: ConstraintKind::Trans,
                        expr: eq,
                        span,
                    });
                    self.st.sys.vars[v.0 as usize].next = None;
                    self.st
                        .next_uses
                        .entry(v)
                        .or_insert(span.unwrap_or(self.program.eof));
                }
            }
        }
        Ok(())
    }

    /// The next-state function of `v` without `next()` reads, if it has one.
    fn resolve_var_next(
        &mut self,
        v: VarId,
        lhs_of: &HashMap<VarId, Span>,
        state: &mut Vec<u8>,
        resolved: &mut HashMap<VarId, Option<ExprId>>,
    ) -> Result<Option<ExprId>, Diag> {
        match state[v.0 as usize] {
            2 => return Ok(resolved.get(&v).copied().flatten()),
            1 => {
                let span = lhs_of.get(&v).copied().unwrap_or(self.program.eof);
                return Err(Diag::new(
                    span,
                    format!("recursively defined: {}", self.st.sys.var(v).name),
                ));
            }
            _ => {}
        }
        let var = self.st.sys.var(v).clone();
        let result = match (var.role, var.next) {
            (hypermut_ir::Role::Frozen, _) => Some(self.st.sys.var_ref(v, None)),
            (_, None) => None,
            (_, Some(e)) => {
                state[v.0 as usize] = 1;
                let mut memo: HashMap<ExprId, Option<ExprId>> = HashMap::new();
                let r = self.subst_next(e, lhs_of, state, resolved, &mut memo)?;
                state[v.0 as usize] = 0;
                r
            }
        };
        state[v.0 as usize] = 2;
        resolved.insert(v, result);
        Ok(result)
    }

    /// `e` with every `next(y)` replaced by `y`'s resolved next-state function (`None` if
    /// some `y` has none).
    fn subst_next(
        &mut self,
        e: ExprId,
        lhs_of: &HashMap<VarId, Span>,
        state: &mut Vec<u8>,
        resolved: &mut HashMap<VarId, Option<ExprId>>,
        memo: &mut HashMap<ExprId, Option<ExprId>>,
    ) -> Result<Option<ExprId>, Diag> {
        if let Some(r) = memo.get(&e) {
            return Ok(*r);
        }
        let node = self.st.sys.exprs.node(e).clone();
        let r = if let ExprKind::Next(y) = node.kind {
            self.resolve_var_next(y, lhs_of, state, resolved)?
        } else {
            let kids = node.kind.children();
            let mut new = Vec::with_capacity(kids.len());
            let mut ok = true;
            for k in &kids {
                match self.subst_next(*k, lhs_of, state, resolved, memo)? {
                    Some(x) => new.push(x),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                None
            } else if new == kids {
                Some(e)
            } else {
                let at = node.span.unwrap_or(self.program.eof);
                Some(
                    self.st
                        .sys
                        .mk(node.kind.with_children(&new), node.span)
                        .map_err(|t| Diag::new(at, t.to_string()))?,
                )
            }
        };
        memo.insert(e, r);
        Ok(r)
    }

    /// Expands every invariant assignment once (reporting errors and cycles even for
    /// variables nobody reads).
    pub(super) fn expand_invariant_macros(&mut self) -> Result<(), Diag> {
        for d in 0..self.decls.len() {
            let Some((a, _)) = self.decls[d].invariant else {
                continue;
            };
            let id =
                self.macro_value(d, a.lhs_span, NextMode::Forbidden("invariant assignments"))?;
            self.check_constant_range(d, id, a.rhs.span)?;
        }
        Ok(())
    }
}
