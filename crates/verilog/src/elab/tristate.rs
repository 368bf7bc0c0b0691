//! Tri-state drivers (docs/formats.md §11.7).
//!
//! A *tri-state assignment* is a continuous assignment of one bit range of one slot whose
//! right-hand side is a conditional (or a tree of conditionals) with at least one leaf that is
//! all `z` at the assignment's width (`assign p = oe ? d : 'bz;`, `assign p = 4'bz;`): it is
//! enabled when the conditions select a leaf that is not all `z`. Several tri-state
//! assignments of the same bits form a group ([`TriGroup`]) whose value is the OR of the
//! values of the enabled drivers and, when none is enabled, the first driver's own value
//! (its `z` bits: 0, or fresh inputs with `--x-as-input`, as for any `z` literal). A single
//! tri-state assignment is an ordinary one: its value, `z` bits included, is the same.
//! An `inout` port of the top module driven by tri-state assignments of the whole port reads,
//! inside the design, the enabled drivers' value and otherwise the value from outside (its
//! input); its output is the group's value.

use hypermut_ir::{BinOp, ExprId, ExprKind as IrKind, Span, Value};
use num_traits::{One, Zero};

use crate::ast::{Expr, ExprKind};
use crate::error::{DResult, Diag};

use super::drivers::Targets;
use super::elaborator::Elab;
use super::env::{Mode, ProcState};
use super::evals::CombEval;
use super::parts::TriGroup;
use super::scope::{ProcKind, ScopeId, Slot, Source, Target};
use super::value::V;

impl Elab<'_> {
    /// If process `p` (whose targets are `targets`) is a tri-state assignment: the slot and
    /// the bit range `(lo, len)` it drives.
    pub(crate) fn tri_target(&mut self, p: usize, targets: &Targets) -> Option<(Slot, u32, u32)> {
        let proc = self.procs[p].clone();
        let ProcKind::Assign {
            source: Source::Expr(e, scope),
            ..
        } = proc.kind
        else {
            return None;
        };
        let [(slot, range, _)] = targets.as_slice() else {
            return None;
        };
        let (lo, len) = range.unwrap_or((0, self.slot_width(*slot)));
        let mut st = ProcState::constant(scope);
        let w = self.self_type(&mut st, e).ok()?.0.max(len);
        self.has_z_leaf(e, scope, w).then_some((*slot, lo, len))
    }

    /// Whether a conditional tree has a leaf that is all `z` at width `w`.
    fn has_z_leaf(&mut self, e: &Expr, scope: ScopeId, w: u32) -> bool {
        match &e.kind {
            ExprKind::Cond(_, a, b) => self.has_z_leaf(a, scope, w) || self.has_z_leaf(b, scope, w),
            _ => self.all_z(e, scope, w),
        }
    }

    /// Whether `e` is a literal (or a concatenation or replication of literals) all of whose
    /// bits are `z`, covering width `w` (an unsized `'bz` covers any width).
    fn all_z(&mut self, e: &Expr, scope: ScopeId, w: u32) -> bool {
        if !z_only(e) {
            return false;
        }
        if let ExprKind::Number(n) = &e.kind {
            if n.width.is_none() {
                return true;
            }
        }
        let mut st = ProcState::constant(scope);
        self.self_type(&mut st, e).is_ok_and(|(sw, _)| sw >= w)
    }

    /// The values of the tri-state group driving bits `lo..` of `slot`: the value read inside
    /// the design and the value driven (they differ for an `inout` port, whose reads see the
    /// value from outside when no driver is enabled).
    pub(crate) fn tri_value(&mut self, slot: Slot, lo: u32, span: Span) -> DResult<(V, V)> {
        if let Some(v) = self.tri_memo.get(&(slot, lo)) {
            return Ok(*v);
        }
        let Some(g) = self.tri_groups.get(&(slot, lo)).cloned() else {
            return Err(Diag::new(span, "internal: no tri-state group here"));
        };
        let mut drivers = Vec::new();
        for &p in &g.procs {
            self.enter(p)?;
            let r = self.tri_driver(p, g.len);
            self.eval_stack.pop();
            drivers.push(r?);
            // Evaluated here: the sweep of unused processes must not evaluate it again.
            self.comb_memo.insert(p, CombEval::default());
        }
        let r = self.resolve(&g, &drivers, span)?;
        self.tri_memo.insert((slot, lo), r);
        Ok(r)
    }

    /// Merges the drivers' `(value, enable)` pairs: see the module documentation. `at` locates
    /// the read that needs the value.
    fn resolve(&mut self, g: &TriGroup, drivers: &[(V, ExprId)], at: Span) -> DResult<(V, V)> {
        let (Some(&p0), Some(&(first, first_en))) = (g.procs.first(), drivers.first()) else {
            return Err(Diag::new(at, "internal: an empty tri-state group"));
        };
        let span = self.procs[p0].span;
        let (data, any) = if drivers.len() == 1 {
            (first, first_en)
        } else {
            let zero = self.zero(g.len, span);
            let mut data: Option<V> = None;
            let mut any: Option<ExprId> = None;
            for &(v, en) in drivers {
                let d = self.ite(en, v, zero, span)?;
                data = Some(match data {
                    None => d,
                    Some(a) => {
                        let e = self.node(IrKind::Binary(BinOp::Or, a.e, d.e), span)?;
                        V { e, ..a }
                    }
                });
                any = Some(match any {
                    None => en,
                    Some(a) => self.node(IrKind::Binary(BinOp::Or, a, en), span)?,
                });
            }
            match (data, any) {
                (Some(d), Some(a)) => (d, a),
                _ => return Err(Diag::new(span, "internal: an empty tri-state group")),
            }
        };
        let driven = if drivers.len() == 1 {
            first
        } else {
            self.ite(any, data, first, span)?
        };
        let read = match g.external {
            Some(x) => {
                let outside = V {
                    e: self.sys.var_ref(x, Some(span)),
                    w: g.len,
                    signed: false,
                    boolean: false,
                };
                self.ite(any, data, outside, span)?
            }
            None => driven,
        };
        Ok((unsigned(read), unsigned(driven)))
    }

    /// The value of tri-state assignment `p` (at its target's width `len`) and the condition
    /// under which it is enabled.
    fn tri_driver(&mut self, p: usize, len: u32) -> DResult<(V, ExprId)> {
        let proc = self.procs[p].clone();
        let ProcKind::Assign {
            target,
            source: Source::Expr(e, scope),
        } = &proc.kind
        else {
            return Err(Diag::new(proc.span, "internal: not a tri-state assignment"));
        };
        let mut st = ProcState::new(Mode::Comb(p), *scope);
        let tw = match target {
            Target::Sig(s) => self.sigs[s.0 as usize].width,
            Target::Expr(t, tscope) => {
                st.scope = *tscope;
                self.self_type(&mut st, t)?.0
            }
        };
        st.scope = *scope;
        if tw != len {
            return Err(Diag::new(
                proc.span,
                "a tri-state assignment that shares its net must drive all bits of its target",
            ));
        }
        let (w, s) = self.self_type(&mut st, e)?;
        let w = w.max(tw);
        let (v, en) = self.tri_eval(&mut st, e, w, s)?;
        let v = self.resize(v, tw, v.signed, proc.span)?;
        let v = self.as_bits(v, proc.span)?;
        Ok((v, en))
    }

    /// Evaluates a conditional tree at width `w` (signedness `s`), with the condition under
    /// which it selects a leaf that is not all `z`.
    fn tri_eval(&mut self, st: &mut ProcState, e: &Expr, w: u32, s: bool) -> DResult<(V, ExprId)> {
        if let ExprKind::Cond(c, a, b) = &e.kind {
            let c = self.cond_bool(st, c)?;
            if let Some(Value::Bool(k)) = self.const_value(c) {
                return self.tri_eval(st, if k { a } else { b }, w, s);
            }
            let (va, ea) = self.tri_eval(st, a, w, s)?;
            let (vb, eb) = self.tri_eval(st, b, w, s)?;
            let mut v = self.ite(c, va, vb, e.span)?;
            v.signed = s;
            let en = self.node(IrKind::Ite(c, ea, eb), e.span)?;
            return Ok((v, en));
        }
        let z = self.all_z(e, st.scope, w);
        let v = self.eval(st, e, w, s)?;
        Ok((v, self.sys.bool_const(!z, Some(e.span))))
    }
}

/// `v` as an unsigned value (tri-state values are read as nets).
fn unsigned(v: V) -> V {
    V { signed: false, ..v }
}

/// Whether every bit `e` spells is `z`: a literal, or a concatenation or replication of such
/// literals.
fn z_only(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number(n) => {
            let nat = n.width.unwrap_or(n.natural);
            let all = (num_bigint::BigUint::one() << nat) - num_bigint::BigUint::one();
            nat > 0 && n.xmask.is_zero() && n.zmask == all
        }
        ExprKind::Concat(items) | ExprKind::Repeat(_, items) => {
            !items.is_empty() && items.iter().all(z_only)
        }
        _ => false,
    }
}
