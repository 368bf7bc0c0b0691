//! Shared temporaries (docs/formats.md §11.7): a variable that several `always` blocks
//! assign is accepted when each of them uses it only as a blocking temporary — on every
//! path, the block assigns the whole variable with `=` before it reads it — so that no value
//! flows from one block, or one activation, to another (the `integer i` of `for` loops in
//! several blocks). Such a variable has no register and no net: each block reads what it
//! wrote itself ([`super::parts::Owner::Temp`]).
//!
//! The check is syntactic and conservative: a loop body's assignments do not count after the
//! loop (it may run zero times), partial writes (`i[3:0] = …`) define nothing, and a call of a
//! function or task whose body names the variable counts as a read.

use std::collections::HashSet;

use hypermut_ir::Span;

use crate::ast::{Expr, ExprKind, Stmt};

use super::elaborator::{Elab, MAX_DEPTH};
use super::env::ProcState;
use super::scope::{Binding, ProcKind, ScopeId, SigId, SigKind, Slot};

/// Why a block does not use a variable as a temporary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotTemp {
    /// The block is no `always` block (a continuous assignment or a port connection).
    NotAlways,
    /// The variable is read here before the block has assigned it on every path.
    ReadFirst(Span),
    /// The variable is assigned with `<=` here (a register update).
    NonBlocking(Span),
}

/// What an lvalue does to the variable: reads (in indices), a write of the whole variable,
/// a write of some of its bits.
#[derive(Default)]
struct LvalueUse {
    read: Option<Span>,
    whole: bool,
    touched: Option<Span>,
}

impl Elab<'_> {
    /// Whether `slot` may be a temporary shared by blocks: a plain variable (`reg`,
    /// `integer`, …), not a net, a memory word or a function local.
    pub(crate) fn temp_candidate(&self, slot: Slot) -> bool {
        let s = &self.sigs[slot.sig.0 as usize];
        s.kind == SigKind::Var && s.mem.is_none()
    }

    /// Why process `p` does not use the variable of `slot` as a blocking temporary (`None`
    /// when it does).
    pub(crate) fn temp_violation(&mut self, p: usize, slot: Slot) -> Option<NotTemp> {
        let proc = self.procs[p].clone();
        let ProcKind::Always { body, .. } = &proc.kind else {
            return Some(NotTemp::NotAlways);
        };
        self.temp_stmt(body, proc.scope, slot.sig, false, 0).err()
    }

    /// Walks a statement with `defined` telling whether the variable has been assigned on
    /// every path so far; returns the same after the statement. `depth` counts the task
    /// bodies walked into.
    fn temp_stmt(
        &mut self,
        s: &Stmt,
        scope: ScopeId,
        sig: SigId,
        defined: bool,
        depth: u32,
    ) -> Result<bool, NotTemp> {
        let no = HashSet::new();
        let read = |r: Option<Span>| match r {
            Some(span) if !defined => Err(NotTemp::ReadFirst(span)),
            _ => Ok(()),
        };
        match s {
            Stmt::Assign {
                nonblocking,
                lhs,
                rhs,
                ..
            } => {
                read(self.expr_mention(rhs, scope, &no, sig, 0))?;
                let u = self.lvalue_use(lhs, scope, sig);
                read(u.read)?;
                if let (true, Some(at)) = (*nonblocking, u.touched) {
                    return Err(NotTemp::NonBlocking(at));
                }
                Ok(defined || u.whole)
            }
            Stmt::Block { stmts, span, .. } => {
                let inner = self
                    .block_scopes
                    .get(&(scope, *span))
                    .copied()
                    .unwrap_or(scope);
                let mut d = defined;
                for s in stmts {
                    d = self.temp_stmt(s, inner, sig, d, depth)?;
                }
                Ok(d)
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                read(self.expr_mention(cond, scope, &no, sig, 0))?;
                let t = self.temp_stmt(then, scope, sig, defined, depth)?;
                let e = match els {
                    Some(e) => self.temp_stmt(e, scope, sig, defined, depth)?,
                    None => defined,
                };
                Ok(t && e)
            }
            Stmt::Case {
                expr,
                arms,
                default,
                ..
            } => {
                read(self.expr_mention(expr, scope, &no, sig, 0))?;
                let mut all = true;
                for (labels, body) in arms {
                    for l in labels {
                        read(self.expr_mention(l, scope, &no, sig, 0))?;
                    }
                    all &= self.temp_stmt(body, scope, sig, defined, depth)?;
                }
                match default {
                    Some(d) => all &= self.temp_stmt(d, scope, sig, defined, depth)?,
                    None => all = defined,
                }
                Ok(all)
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                ..
            } => {
                let d = self.temp_stmt(init, scope, sig, defined, depth)?;
                if self.expr_mention(cond, scope, &no, sig, 0).is_some() && !d {
                    return Err(NotTemp::ReadFirst(cond.span));
                }
                let b = self.temp_stmt(body, scope, sig, d, depth)?;
                self.temp_stmt(step, scope, sig, b, depth)?;
                Ok(d)
            }
            Stmt::While { cond, body, .. } => {
                read(self.expr_mention(cond, scope, &no, sig, 0))?;
                self.temp_stmt(body, scope, sig, defined, depth)?;
                Ok(defined)
            }
            Stmt::Repeat { count, body, .. } => {
                read(self.expr_mention(count, scope, &no, sig, 0))?;
                self.temp_stmt(body, scope, sig, defined, depth)?;
                Ok(defined)
            }
            Stmt::TaskCall { name, args, span } => {
                for a in args {
                    read(self.expr_mention(a, scope, &no, sig, 0))?;
                }
                let st = ProcState::constant(scope);
                match self.lookup(&st, std::slice::from_ref(name)) {
                    // A task that names the variable (none of its own names hides it) is
                    // walked like inlined code, with the reads at the call.
                    Ok(Binding::Task(t, tscope)) if self.sub_mentions(t, tscope, sig, 1) => {
                        if depth > MAX_DEPTH {
                            return Err(NotTemp::ReadFirst(*span));
                        }
                        match self.temp_stmt(&t.body, tscope, sig, defined, depth + 1) {
                            Ok(d) => Ok(d),
                            Err(NotTemp::ReadFirst(_)) => Err(NotTemp::ReadFirst(*span)),
                            Err(e) => Err(e),
                        }
                    }
                    _ => Ok(defined),
                }
            }
            Stmt::SysTask { args, .. } => {
                for a in args {
                    read(self.expr_mention(a, scope, &no, sig, 0))?;
                }
                Ok(defined)
            }
            Stmt::Null(_) | Stmt::Unsupported { .. } => Ok(defined),
        }
    }

    /// How an lvalue uses the variable.
    fn lvalue_use(&mut self, e: &Expr, scope: ScopeId, sig: SigId) -> LvalueUse {
        let no = HashSet::new();
        let mut u = LvalueUse::default();
        match &e.kind {
            ExprKind::Ident(path) => {
                if self.names_sig(path, scope, &no, sig) {
                    u.whole = true;
                    u.touched = Some(e.span);
                }
            }
            ExprKind::Concat(items) => {
                for it in items {
                    let v = self.lvalue_use(it, scope, sig);
                    u.read = u.read.or(v.read);
                    u.whole |= v.whole;
                    u.touched = u.touched.or(v.touched);
                }
            }
            ExprKind::Index(base, _)
            | ExprKind::Range(base, _, _)
            | ExprKind::IndexedRange { base, .. } => {
                // The selected variable is written in part; every index is read.
                let mut indices: Vec<&Expr> = Vec::new();
                match &e.kind {
                    ExprKind::Index(_, i) => indices.push(i),
                    ExprKind::Range(_, m, l) => indices.extend([&**m, &**l]),
                    ExprKind::IndexedRange { start, width, .. } => {
                        indices.extend([&**start, &**width])
                    }
                    _ => {}
                }
                match &base.kind {
                    ExprKind::Ident(path) => {
                        if self.names_sig(path, scope, &no, sig) {
                            u.touched = Some(e.span);
                        }
                    }
                    ExprKind::Index(_, i) => indices.push(i),
                    _ => u.read = self.expr_mention(base, scope, &no, sig, 0),
                }
                for i in indices {
                    u.read = u.read.or(self.expr_mention(i, scope, &no, sig, 0));
                }
            }
            _ => u.read = self.expr_mention(e, scope, &no, sig, 0),
        }
        u
    }

    /// Whether `path`, looked up in `scope` (names in `locals` excepted), is the variable.
    fn names_sig(
        &self,
        path: &[crate::ast::Ident],
        scope: ScopeId,
        locals: &HashSet<String>,
        sig: SigId,
    ) -> bool {
        if path.len() == 1 && locals.contains(&path[0].name) {
            return false;
        }
        let st = ProcState::constant(scope);
        matches!(self.lookup(&st, path), Ok(Binding::Sig(s)) if s == sig)
    }

    /// The first place an expression names the variable (also inside the bodies of the
    /// functions it calls).
    fn expr_mention(
        &mut self,
        e: &Expr,
        scope: ScopeId,
        locals: &HashSet<String>,
        sig: SigId,
        depth: u32,
    ) -> Option<Span> {
        let sub = |this: &mut Self, x: &Expr| this.expr_mention(x, scope, locals, sig, depth);
        match &e.kind {
            ExprKind::Number(_) | ExprKind::Str(_) => None,
            ExprKind::Ident(path) => self.names_sig(path, scope, locals, sig).then_some(e.span),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                sub(self, a).or_else(|| sub(self, b))
            }
            ExprKind::Range(a, b, c) | ExprKind::Cond(a, b, c) => sub(self, a)
                .or_else(|| sub(self, b))
                .or_else(|| sub(self, c)),
            ExprKind::IndexedRange {
                base, start, width, ..
            } => sub(self, base)
                .or_else(|| sub(self, start))
                .or_else(|| sub(self, width)),
            ExprKind::Unary(_, a) => sub(self, a),
            ExprKind::Concat(items) | ExprKind::SysCall(_, items) => {
                items.iter().find_map(|x| sub(self, x))
            }
            ExprKind::Repeat(n, items) => {
                sub(self, n).or_else(|| items.iter().find_map(|x| sub(self, x)))
            }
            ExprKind::Call(name, args) => {
                if let Some(s) = args.iter().find_map(|x| sub(self, x)) {
                    return Some(s);
                }
                let st = ProcState::constant(scope);
                match self.lookup(&st, std::slice::from_ref(name)) {
                    Ok(Binding::Func(f, fscope))
                        if self.sub_mentions(f, fscope, sig, depth + 1) =>
                    {
                        Some(e.span)
                    }
                    _ => None,
                }
            }
        }
    }

    /// Whether the body of a function or task names the variable (its own arguments and
    /// locals excepted). Calls nested deeper than [`MAX_DEPTH`] count as naming it.
    fn sub_mentions(
        &mut self,
        f: &crate::ast::FuncDecl,
        fscope: ScopeId,
        sig: SigId,
        depth: u32,
    ) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        let mut locals: HashSet<String> = f
            .decls
            .iter()
            .flat_map(|d| d.names.iter().map(|n| n.name.name.clone()))
            .collect();
        locals.insert(f.name.name.clone());
        collect_block_locals(&f.body, &mut locals);
        self.stmt_mentions(&f.body, fscope, &locals, sig, depth)
    }

    /// Whether a statement names the variable anywhere.
    fn stmt_mentions(
        &mut self,
        s: &Stmt,
        scope: ScopeId,
        locals: &HashSet<String>,
        sig: SigId,
        depth: u32,
    ) -> bool {
        let e =
            |this: &mut Self, x: &Expr| this.expr_mention(x, scope, locals, sig, depth).is_some();
        match s {
            Stmt::Assign { lhs, rhs, .. } => e(self, lhs) || e(self, rhs),
            Stmt::Block { stmts, .. } => stmts
                .iter()
                .any(|s| self.stmt_mentions(s, scope, locals, sig, depth)),
            Stmt::If {
                cond, then, els, ..
            } => {
                e(self, cond)
                    || self.stmt_mentions(then, scope, locals, sig, depth)
                    || els
                        .as_ref()
                        .is_some_and(|x| self.stmt_mentions(x, scope, locals, sig, depth))
            }
            Stmt::Case {
                expr,
                arms,
                default,
                ..
            } => {
                e(self, expr)
                    || arms.iter().any(|(labels, body)| {
                        labels.iter().any(|l| e(self, l))
                            || self.stmt_mentions(body, scope, locals, sig, depth)
                    })
                    || default
                        .as_ref()
                        .is_some_and(|x| self.stmt_mentions(x, scope, locals, sig, depth))
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                ..
            } => {
                e(self, cond)
                    || [init, step, body]
                        .iter()
                        .any(|x| self.stmt_mentions(x, scope, locals, sig, depth))
            }
            Stmt::While { cond: c, body, .. } | Stmt::Repeat { count: c, body, .. } => {
                e(self, c) || self.stmt_mentions(body, scope, locals, sig, depth)
            }
            Stmt::TaskCall { name, args, .. } => {
                if args.iter().any(|a| e(self, a)) {
                    return true;
                }
                let st = ProcState::constant(scope);
                match self.lookup(&st, std::slice::from_ref(name)) {
                    Ok(Binding::Task(t, tscope)) => self.sub_mentions(t, tscope, sig, depth + 1),
                    _ => false,
                }
            }
            Stmt::SysTask { args, .. } => args.iter().any(|a| e(self, a)),
            Stmt::Null(_) | Stmt::Unsupported { .. } => false,
        }
    }
}

/// Names declared in blocks of a subroutine body.
pub(super) fn collect_block_locals(s: &Stmt, out: &mut HashSet<String>) {
    match s {
        Stmt::Block { decls, stmts, .. } => {
            for d in decls {
                for n in &d.names {
                    out.insert(n.name.name.clone());
                }
            }
            for s in stmts {
                collect_block_locals(s, out);
            }
        }
        Stmt::If { then, els, .. } => {
            collect_block_locals(then, out);
            if let Some(e) = els {
                collect_block_locals(e, out);
            }
        }
        Stmt::Case { arms, default, .. } => {
            for (_, s) in arms {
                collect_block_locals(s, out);
            }
            if let Some(d) = default {
                collect_block_locals(d, out);
            }
        }
        Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::Repeat { body, .. } => {
            collect_block_locals(body, out)
        }
        _ => {}
    }
}
