//! Evaluation of processes and the values of nets.
//!
//! * The value of a net is the concatenation of its parts' values: a combinational process's
//!   result (evaluated once, on demand), a register (its state variable; for registers with
//!   an asynchronous reset/set/load the value `async ? f : reg` that yosys `async2sync`
//!   gives), an input, a frozen variable or 0.
//! * A combinational process that leaves bits unassigned on some path infers a latch: a state
//!   variable `q` whose output is the process's value (`en ? d : q`) and whose next value is
//!   that output.
//! * A clocked process's registers get the value at the end of the block as next state
//!   (non-blocking assignments over blocking ones).
//! * `initial` blocks run once, in order, sharing one state; what they leave in registers,
//!   latches and frozen variables becomes the initial value.

use std::collections::{BTreeSet, HashMap, HashSet};

use hypermut_ir::{BinOp, ExprId, ExprKind as IrKind, Output, Role, Span, VarId};

use crate::ast::{Edge, Expr, ExprKind, GateKind, Sensitivity, Stmt};
use crate::error::{DResult, Diag};

use super::elaborator::Elab;
use super::env::{Fill, Mode, ProcState, Seg, SlotVal};
use super::evals::{AsyncEval, CombEval, SeqEval};
use super::parts::{Class, Owner, Part, StateKind};
use super::scope::{Binding, ProcKind, ScopeId, SigId, SigKind, Slot, Source, Target};
use super::value::V;

/// The leading `if` branches of a clocked block that test asynchronous events.
pub type AsyncChain<'a> = Vec<(&'a Expr, &'a Stmt)>;

impl<'a> Elab<'a> {
    /// The parts of a slot (a single undriven part if nobody drives it).
    fn parts_of(&self, slot: Slot) -> Vec<Part> {
        self.parts.get(&slot).cloned().unwrap_or_else(|| {
            vec![Part {
                lo: 0,
                len: self.slot_width(slot),
                owner: Owner::Undriven,
            }]
        })
    }

    /// The value of a whole slot outside any process.
    pub(crate) fn net_value(&mut self, slot: Slot, span: Span) -> DResult<V> {
        let w = self.slot_width(slot);
        let mut v = self.net_bits(slot, 0, w, span)?;
        v.signed = self.sigs[slot.sig.0 as usize].signed;
        Ok(v)
    }

    /// Bits `lo..lo+len` of a slot outside any process.
    fn net_bits(&mut self, slot: Slot, lo: u32, len: u32, span: Span) -> DResult<V> {
        let mut pieces = Vec::new();
        for p in self.parts_of(slot) {
            let a = p.lo.max(lo);
            let b = (p.lo + p.len).min(lo + len);
            if a >= b {
                continue;
            }
            let v = self.part_value(slot, p, span)?;
            pieces.push(self.slice(v, a - p.lo, b - a, span)?);
        }
        self.concat_lsb_first(&pieces, span)
    }

    /// The value of one part of a slot.
    fn part_value(&mut self, slot: Slot, p: Part, span: Span) -> DResult<V> {
        let var_value = |e: &mut Self, v: VarId| V {
            e: e.sys.var_ref(v, Some(span)),
            w: p.len,
            signed: false,
            boolean: false,
        };
        match p.owner {
            Owner::Undriven => Ok(self.zero(p.len, span)),
            Owner::Input(v) | Owner::Frozen(v) => Ok(var_value(self, v)),
            Owner::Clock(_) if self.sweeping && !self.inputs.contains_key(&slot.sig) => {
                Ok(self.zero(p.len, span))
            }
            Owner::Clock(sig) => {
                let v = self.clock_as_data(slot, sig, span);
                Ok(var_value(self, v))
            }
            Owner::Seq { proc, var } => {
                if self.async_events(proc)?.is_none() {
                    return Ok(var_value(self, var));
                }
                self.eval_async(proc)?;
                let ev = self.async_memo.get(&proc).cloned().unwrap_or_default();
                let reg = var_value(self, var);
                match (ev.cond, ev.finals.get(&slot)) {
                    (Some(a), Some(f)) => {
                        let f = self.slice(*f, p.lo, p.len, span)?;
                        self.ite(a, f, reg, span)
                    }
                    _ => Ok(reg),
                }
            }
            Owner::Temp => Err(self.temp_read_outside(slot, span)),
            Owner::Tri => Ok(self.tri_value(slot, p.lo, span)?.0),
            Owner::Comb { proc } => {
                if self.breaks.contains(&proc) {
                    // A loop through a latch: broken at the latch (its stored value).
                    let var = self.latch_var(proc, slot, p, span, Fill::Merge)?;
                    let name = self.part_name(slot, p.lo, p.len);
                    self.warn(
                        self.procs[proc].span,
                        format!("combinational loop through `{name}`: broken at its latch (the loop reads the latched value)"),
                    );
                    return Ok(var_value(self, var));
                }
                self.eval_comb(proc)?;
                let f = self
                    .comb_memo
                    .get(&proc)
                    .and_then(|c| c.finals.get(&slot))
                    .copied();
                match f {
                    Some(f) => self.slice(f, p.lo, p.len, span),
                    None => Ok(self.zero(p.len, span)),
                }
            }
        }
    }

    /// The error for reading a shared temporary outside the blocks that assign it.
    fn temp_read_outside(&self, slot: Slot, span: Span) -> Diag {
        let blocks: Vec<String> = self
            .temps
            .get(&slot)
            .map(|ps| {
                ps.iter()
                    .map(|p| self.sys.sources.location(self.procs[*p].span).to_string())
                    .collect()
            })
            .unwrap_or_default();
        Diag::new(
            span,
            format!(
                "`{}` is a temporary of the always blocks at {}: it has no value outside them",
                self.sigs[slot.sig.0 as usize].slot_name(slot.word),
                blocks.join(", ")
            ),
        )
    }

    /// A clock input that is also read as data becomes an ordinary input (created on first
    /// use; its value is independent of the tick).
    fn clock_as_data(&mut self, slot: Slot, sig: SigId, span: Span) -> VarId {
        if let Some(v) = self.inputs.get(&sig) {
            return *v;
        }
        let s = &self.sigs[sig.0 as usize];
        let (name, width) = (s.name.clone(), s.width);
        self.warn(
            span,
            format!(
                "clock `{name}` is also read as data: it becomes an input independent of the tick"
            ),
        );
        let var = self
            .sys
            .add_var(name, hypermut_ir::Type::ubv(width), Role::Input, Some(span));
        self.inputs.insert(sig, var);
        self.parts.insert(
            slot,
            vec![Part {
                lo: 0,
                len: width,
                owner: Owner::Input(var),
            }],
        );
        var
    }

    /// The value of bits `lo..lo+w` of `slot` that `st` has not written.
    pub(crate) fn unwritten(
        &mut self,
        st: &ProcState,
        slot: Slot,
        lo: u32,
        w: u32,
        fill: Fill,
        span: Span,
    ) -> DResult<V> {
        if self.sigs[slot.sig.0 as usize].kind == SigKind::Local || fill == Fill::Zero {
            return Ok(self.zero(w, span));
        }
        let own = match st.mode {
            Mode::Const => {
                return Err(Diag::new(
                    span,
                    format!(
                        "`{}` is not a constant",
                        self.sigs[slot.sig.0 as usize].name
                    ),
                ))
            }
            Mode::Global => return self.net_bits(slot, lo, w, span),
            Mode::Initial => {
                return match fill {
                    Fill::Read => self.net_bits(slot, lo, w, span),
                    Fill::Merge | Fill::Zero => Ok(self.zero(w, span)),
                }
            }
            Mode::Seq(p) | Mode::Comb(p) => p,
        };
        let mut pieces = Vec::new();
        for p in self.parts_of(slot) {
            let a = p.lo.max(lo);
            let b = (p.lo + p.len).min(lo + w);
            if a >= b {
                continue;
            }
            let v = match p.owner {
                Owner::Seq { proc, var } if proc == own => V {
                    e: self.sys.var_ref(var, Some(span)),
                    w: p.len,
                    signed: false,
                    boolean: false,
                },
                Owner::Comb { proc } if proc == own => {
                    let var = self.latch_var(own, slot, p, span, fill)?;
                    if fill == Fill::Merge {
                        self.held.insert(var);
                    }
                    V {
                        e: self.sys.var_ref(var, Some(span)),
                        w: p.len,
                        signed: false,
                        boolean: false,
                    }
                }
                Owner::Temp
                    if fill == Fill::Read
                        && self.temps.get(&slot).is_some_and(|ws| ws.contains(&own)) =>
                {
                    // Excluded by the analysis (`temps`): a located error all the same.
                    let name = self.part_name(slot, p.lo, p.len);
                    return Err(Diag::new(
                        span,
                        format!("`{name}` is read here before this block assigns it, but other blocks assign it too"),
                    ));
                }
                _ if fill != Fill::Read => self.zero(p.len, span),
                _ => self.part_value(slot, p, span)?,
            };
            pieces.push(self.slice(v, a - p.lo, b - a, span)?);
        }
        self.concat_lsb_first(&pieces, span)
    }

    /// The latch variable of part `p` of `slot` in combinational process `proc`.
    fn latch_var(
        &mut self,
        proc: usize,
        slot: Slot,
        p: Part,
        span: Span,
        fill: Fill,
    ) -> DResult<VarId> {
        if let Some(v) = self.latches.get(&(proc, slot, p.lo)) {
            return Ok(*v);
        }
        let name = self.part_name(slot, p.lo, p.len);
        if fill == Fill::Read {
            self.warn(
                span,
                format!("`{name}` is read before it is assigned in a combinational block: it reads the latched value"),
            );
        } else {
            self.warn(
                self.procs[proc].span,
                format!("latch inferred for `{name}`"),
            );
        }
        let var = self.new_state(slot, p.lo, p.len, StateKind::Latch, Role::State);
        self.latches.insert((proc, slot, p.lo), var);
        Ok(var)
    }

    /// Slots driven (in part) by process `p`, with their parts.
    fn owned(&self, p: usize) -> Vec<(Slot, Part)> {
        let mut out: Vec<(Slot, Part)> = Vec::new();
        for (slot, parts) in &self.parts {
            for part in parts {
                let mine = match part.owner {
                    Owner::Seq { proc, .. } | Owner::Comb { proc } => proc == p,
                    _ => false,
                };
                if mine {
                    out.push((*slot, *part));
                }
            }
        }
        out.sort_by_key(|(s, p)| (*s, p.lo));
        out
    }

    /// Pushes `p` on the evaluation stack, reporting combinational loops.
    pub(crate) fn enter(&mut self, p: usize) -> DResult<()> {
        if let Some(pos) = self.eval_stack.iter().position(|q| *q == p) {
            self.break_request = self.eval_stack[pos..].iter().copied().find(|q| {
                self.class(*q) == Class::Comb
                    && matches!(self.procs[*q].kind, ProcKind::Always { .. })
                    && !self.breaks.contains(q)
                    && !self.rejected.contains(q)
            });
            let chain: Vec<String> = self.eval_stack[pos..]
                .iter()
                .map(|q| self.sys.sources.location(self.procs[*q].span).to_string())
                .collect();
            return Err(Diag::new(
                self.procs[p].span,
                format!("combinational loop through {}", chain.join(" → ")),
            ));
        }
        self.eval_stack.push(p);
        Ok(())
    }

    /// Evaluates combinational process `p` (once).
    pub(crate) fn eval_comb(&mut self, p: usize) -> DResult<()> {
        if self.comb_memo.contains_key(&p) {
            return Ok(());
        }
        self.enter(p)?;
        let r = self.eval_comb_inner(p);
        self.eval_stack.pop();
        let ev = r?;
        self.comb_memo.insert(p, ev);
        Ok(())
    }

    fn eval_comb_inner(&mut self, p: usize) -> DResult<CombEval> {
        let proc = self.procs[p].clone();
        let mut st = ProcState::new(Mode::Comb(p), proc.scope);
        match &proc.kind {
            ProcKind::Assign { target, source } => {
                let (tw, tscope) = match target {
                    Target::Sig(s) => (self.sigs[s.0 as usize].width, proc.scope),
                    Target::Expr(e, sc) => {
                        st.scope = *sc;
                        (self.self_type(&mut st, e)?.0, *sc)
                    }
                };
                let v = match source {
                    Source::Expr(e, sc) => {
                        st.scope = *sc;
                        self.rvalue(&mut st, e, Some(tw))?
                    }
                    Source::Sig(s) => self.read_slot(&st, Slot { sig: *s, word: 0 }, proc.span)?,
                    Source::Gate(g, sc) => {
                        st.scope = *sc;
                        self.gate_value(&mut st, g)?
                    }
                };
                let v = self.resize(v, tw, v.signed, proc.span)?;
                st.scope = tscope;
                match target {
                    Target::Sig(s) => {
                        let slot = Slot { sig: *s, word: 0 };
                        st.vals.insert(slot, SlotVal::full(v));
                    }
                    Target::Expr(e, _) => self.assign(&mut st, e, v, false, proc.span)?,
                }
            }
            ProcKind::Always { body, .. } => self.exec(&mut st, body)?,
            _ => {}
        }
        let mut ev = CombEval::default();
        let owned = self.owned(p);
        let slots: BTreeSet<Slot> = owned.iter().map(|(s, _)| *s).collect();
        for slot in slots {
            let w = self.slot_width(slot);
            let sv = st
                .vals
                .get(&slot)
                .cloned()
                .unwrap_or_else(|| SlotVal::hold(w));
            let v = self.sv_read(&st, slot, &sv, Fill::Merge, proc.span)?;
            ev.finals.insert(slot, v);
        }
        for (slot, part) in owned {
            if let Some(var) = self.latches.get(&(p, slot, part.lo)).copied() {
                if let Some(f) = ev.finals.get(&slot).copied() {
                    let next = self.slice(f, part.lo, part.len, proc.span)?;
                    self.sys.vars[var.0 as usize].next = Some(next.e);
                }
            }
        }
        Ok(ev)
    }

    /// The value of a gate primitive's output.
    fn gate_value(&mut self, st: &mut ProcState, g: &crate::ast::Gate) -> DResult<V> {
        let n_out = match g.kind {
            GateKind::Not | GateKind::Buf => g.terms.len() - 1,
            _ => 1,
        };
        let inputs = &g.terms[n_out..];
        let mut acc: Option<V> = None;
        let mut w = 1;
        for t in inputs {
            w = w.max(self.self_type(st, t)?.0);
        }
        for t in inputs {
            let v = self.rvalue(st, t, Some(w))?;
            let v = self.resize(v, w, false, t.span)?;
            acc = Some(match acc {
                None => v,
                Some(a) => {
                    let op = match g.kind {
                        GateKind::And | GateKind::Nand => BinOp::And,
                        GateKind::Or | GateKind::Nor => BinOp::Or,
                        _ => BinOp::Xor,
                    };
                    let e = self.node(IrKind::Binary(op, a.e, v.e), g.span)?;
                    V { e, ..a }
                }
            });
        }
        let Some(mut v) = acc else {
            return Err(Diag::new(g.span, "a gate needs an input"));
        };
        if matches!(
            g.kind,
            GateKind::Nand | GateKind::Nor | GateKind::Xnor | GateKind::Not
        ) {
            v.e = self.node(IrKind::Unary(hypermut_ir::UnOp::Not, v.e), g.span)?;
        }
        Ok(v)
    }

    /// For a clocked process with several events: the events that are asynchronous (tested by
    /// the leading `if` conditions) and those conditions. `None` for single-event processes.
    pub(crate) fn async_events(&mut self, p: usize) -> DResult<Option<AsyncChain<'a>>> {
        let proc = self.procs[p].clone();
        let ProcKind::Always {
            sens: Sensitivity::List(evs),
            body,
        } = &proc.kind
        else {
            return Ok(None);
        };
        if evs.len() < 2 {
            return Ok(None);
        }
        let ev_refs: Vec<HashSet<(u32, Option<i64>)>> =
            evs.iter().map(|(_, e)| self.refs(e, proc.scope)).collect();
        let mut conds = Vec::new();
        let mut used = vec![false; evs.len()];
        let mut s: &'a Stmt = body;
        loop {
            match s {
                Stmt::Block { stmts, decls, .. } if stmts.len() == 1 && decls.is_empty() => {
                    s = &stmts[0]
                }
                Stmt::If {
                    cond, then, els, ..
                } => {
                    let r = self.refs(cond, proc.scope);
                    let mut hit = false;
                    for (k, er) in ev_refs.iter().enumerate() {
                        if overlaps(&r, er) {
                            used[k] = true;
                            hit = true;
                        }
                    }
                    if !hit {
                        break;
                    }
                    conds.push((cond, &**then));
                    match els {
                        Some(e) => s = e,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        let clocks = used.iter().filter(|u| !**u).count();
        if conds.is_empty() || clocks != 1 {
            return Err(Diag::new(
                proc.span,
                "cannot tell the clock from the asynchronous signals: a block with several events must start with `if` tests of all but one of them",
            ));
        }
        Ok(Some(conds))
    }

    /// Signals (and constant bit positions) an expression reads.
    fn refs(&mut self, e: &Expr, scope: ScopeId) -> HashSet<(u32, Option<i64>)> {
        let mut out = HashSet::new();
        self.collect_refs(e, scope, &mut out);
        out
    }

    fn collect_refs(&mut self, e: &Expr, scope: ScopeId, out: &mut HashSet<(u32, Option<i64>)>) {
        let st = ProcState::constant(scope);
        match &e.kind {
            ExprKind::Ident(path) => {
                if let Ok(Binding::Sig(s)) = self.lookup(&st, path) {
                    out.insert((s.0, None));
                }
            }
            ExprKind::Index(base, idx) => {
                if let ExprKind::Ident(path) = &base.kind {
                    if let Ok(Binding::Sig(s)) = self.lookup(&st, path) {
                        let i = self
                            .const_expr(idx, scope)
                            .ok()
                            .and_then(|v| self.const_i64(v));
                        out.insert((s.0, i));
                        return;
                    }
                }
                self.collect_refs(base, scope, out);
                self.collect_refs(idx, scope, out);
            }
            ExprKind::Range(b, m, l) => {
                self.collect_refs(b, scope, out);
                self.collect_refs(m, scope, out);
                self.collect_refs(l, scope, out);
            }
            ExprKind::IndexedRange { base, start, .. } => {
                self.collect_refs(base, scope, out);
                self.collect_refs(start, scope, out);
            }
            ExprKind::Unary(_, a) => self.collect_refs(a, scope, out),
            ExprKind::Binary(_, a, b) => {
                self.collect_refs(a, scope, out);
                self.collect_refs(b, scope, out);
            }
            ExprKind::Cond(c, a, b) => {
                self.collect_refs(c, scope, out);
                self.collect_refs(a, scope, out);
                self.collect_refs(b, scope, out);
            }
            ExprKind::Concat(items) | ExprKind::Call(_, items) | ExprKind::SysCall(_, items) => {
                for it in items {
                    self.collect_refs(it, scope, out);
                }
            }
            ExprKind::Repeat(_, items) => {
                for it in items {
                    self.collect_refs(it, scope, out);
                }
            }
            ExprKind::Number(_) | ExprKind::Str(_) => {}
        }
    }

    /// Evaluates clocked process `p` (once) and sets its registers' next-state functions.
    pub(crate) fn eval_seq(&mut self, p: usize) -> DResult<()> {
        if self.seq_memo.contains_key(&p) {
            return Ok(());
        }
        self.enter(p)?;
        let r = self.eval_seq_inner(p);
        self.eval_stack.pop();
        let ev = r?;
        self.seq_memo.insert(p, ev);
        Ok(())
    }

    fn eval_seq_inner(&mut self, p: usize) -> DResult<SeqEval> {
        let proc = self.procs[p].clone();
        let ProcKind::Always { body, .. } = &proc.kind else {
            return Ok(SeqEval::default());
        };
        let mut st = ProcState::new(Mode::Seq(p), proc.scope);
        st.mixed = self.mixed_slots(p)?;
        self.exec(&mut st, body)?;
        let mut ev = SeqEval {
            finals: HashMap::new(),
        };
        let owned = self.owned(p);
        let slots: BTreeSet<Slot> = owned.iter().map(|(s, _)| *s).collect();
        for slot in slots {
            let v = self.final_value(&st, slot, proc.span)?;
            ev.finals.insert(slot, v);
        }
        for (slot, part) in owned {
            if let Owner::Seq { var, .. } = part.owner {
                if let Some(f) = ev.finals.get(&slot).copied() {
                    let next = self.slice(f, part.lo, part.len, proc.span)?;
                    self.sys.vars[var.0 as usize].next = Some(next.e);
                }
            }
        }
        Ok(ev)
    }

    /// Evaluates the asynchronous branches of clocked process `p` (once).
    fn eval_async(&mut self, p: usize) -> DResult<()> {
        if self.async_memo.contains_key(&p) {
            return Ok(());
        }
        if self.async_stack.contains(&p) {
            return Err(Diag::new(
                self.procs[p].span,
                "the asynchronous reset value of this block depends on its own registers",
            ));
        }
        self.async_stack.push(p);
        let r = self.eval_async_inner(p);
        self.async_stack.pop();
        let ev = r?;
        self.async_memo.insert(p, ev);
        Ok(())
    }

    fn eval_async_inner(&mut self, p: usize) -> DResult<AsyncEval> {
        let proc = self.procs[p].clone();
        let Some(chain) = self.async_events(p)? else {
            return Ok(AsyncEval::default());
        };
        let mut st = ProcState::new(Mode::Seq(p), proc.scope);
        st.mixed = self.mixed_slots(p)?;
        let mut cond: Option<ExprId> = None;
        for (c, _) in &chain {
            let b = self.cond_bool(&mut st, c)?;
            cond = Some(match cond {
                None => b,
                Some(x) => self.node(IrKind::Binary(BinOp::Or, x, b), c.span)?,
            });
        }
        self.exec_chain(&mut st, &chain, 0)?;
        let mut ev = AsyncEval {
            cond,
            finals: HashMap::new(),
        };
        let slots: BTreeSet<Slot> = self.owned(p).iter().map(|(s, _)| *s).collect();
        for slot in slots {
            let v = self.final_value(&st, slot, proc.span)?;
            ev.finals.insert(slot, v);
        }
        Ok(ev)
    }

    /// `if (c_i) s_i else if …` over the chain from `i` on, without a final `else`.
    fn exec_chain(&mut self, st: &mut ProcState, chain: &AsyncChain<'a>, i: usize) -> DResult<()> {
        let Some((c, s)) = chain.get(i).copied() else {
            return Ok(());
        };
        let b = self.cond_bool(st, c)?;
        let mut t = st.clone();
        self.exec(&mut t, s)?;
        self.exec_chain(st, chain, i + 1)?;
        self.merge_states(b, t, st, c.span)
    }

    /// The value a clocked process leaves in `slot`: pending non-blocking values over the
    /// blocking ones, over the register's value.
    fn final_value(&mut self, st: &ProcState, slot: Slot, span: Span) -> DResult<V> {
        let w = self.slot_width(slot);
        let get =
            |m: &HashMap<Slot, SlotVal>| m.get(&slot).cloned().unwrap_or_else(|| SlotVal::hold(w));
        let (nba, blk) = (get(&st.nba), get(&st.vals));
        if !st.mixed.contains(&slot) {
            let sv = self.sv_overlay(&nba, &blk, span)?;
            return self.sv_read(st, slot, &sv, Fill::Merge, span);
        }
        // Bits with a pending non-blocking value (per path) take it, the others the blocking
        // value: (nba & mask) | (blk & ~mask).
        let mask = get(&st.nba_mask);
        let n = self.sv_read(st, slot, &nba, Fill::Zero, span)?;
        let m = self.sv_read(st, slot, &mask, Fill::Zero, span)?;
        let b = self.sv_read(st, slot, &blk, Fill::Merge, span)?;
        let x = self.node(IrKind::Binary(BinOp::And, n.e, m.e), span)?;
        let nm = self.node(IrKind::Unary(hypermut_ir::UnOp::Not, m.e), span)?;
        let y = self.node(IrKind::Binary(BinOp::And, b.e, nm), span)?;
        let e = self.node(IrKind::Binary(BinOp::Or, x, y), span)?;
        Ok(V { e, ..b })
    }

    /// `a` where written, else `b`.
    fn sv_overlay(&mut self, a: &SlotVal, b: &SlotVal, span: Span) -> DResult<SlotVal> {
        if a.all_hold() {
            return Ok(b.clone());
        }
        if !a.segs.iter().any(|s| matches!(s, Seg::Hold(_))) {
            return Ok(a.clone());
        }
        // Bit by bit over the segments of `a`.
        let mut out = b.clone();
        let mut at = 0;
        for s in &a.segs {
            match *s {
                Seg::Val(e, w) => {
                    let v = V {
                        e,
                        w,
                        signed: false,
                        boolean: false,
                    };
                    out = self.sv_write(&out, at, v, span)?;
                    at += w;
                }
                Seg::Hold(w) => at += w,
            }
        }
        Ok(out)
    }

    /// Runs all `initial` blocks and declaration initialisers.
    pub(crate) fn eval_initials(&mut self) -> DResult<()> {
        let top = self.top.unwrap_or(ScopeId(0));
        let mut st = ProcState::new(Mode::Initial, top);
        for p in 0..self.procs.len() {
            let proc = self.procs[p].clone();
            st.scope = proc.scope;
            match &proc.kind {
                ProcKind::Initial { body } => self.exec(&mut st, body)?,
                ProcKind::RegInit { sig, expr } => {
                    let w = self.sigs[sig.0 as usize].width;
                    let v = self.rvalue(&mut st, expr, Some(w))?;
                    let v = self.resize(v, w, v.signed, expr.span)?;
                    st.vals
                        .insert(Slot { sig: *sig, word: 0 }, SlotVal::full(v));
                }
                _ => {}
            }
        }
        for (slot, sv) in st.vals {
            if self.sigs[slot.sig.0 as usize].kind == SigKind::Local {
                continue;
            }
            self.init_vals.insert(slot, sv);
        }
        Ok(())
    }

    /// Evaluates every clocked and combinational process (next-state functions, latches, and
    /// errors in every process, also unused ones).
    pub(crate) fn eval_registers(&mut self) -> DResult<()> {
        for p in 0..self.procs.len() {
            if self.class(p) == Class::Seq {
                self.eval_seq(p)?;
            }
        }
        Ok(())
    }

    /// Evaluates the combinational processes nothing has needed (to report their errors),
    /// after everything observable has been built: a clock read there stays no input.
    /// Then lets registers and latches that no path assigns keep their value.
    pub(crate) fn sweep(&mut self) -> DResult<()> {
        self.sweeping = true;
        for p in 0..self.procs.len() {
            if self.class(p) == Class::Comb {
                self.eval_comb(p)?;
            }
        }
        let groups: Vec<(Slot, u32)> = self.tri_groups.keys().copied().collect();
        for (slot, lo) in groups {
            let span = self.sigs[slot.sig.0 as usize].span;
            self.tri_value(slot, lo, span)?;
        }
        self.sweeping = false;
        // Registers that no path of their block assigns keep their value.
        for i in 0..self.states.len() {
            let info = self.states[i];
            let var = &self.sys.vars[info.var.0 as usize];
            if var.role == Role::State && var.next.is_none() {
                let r = self.sys.var_ref(info.var, var.span);
                self.sys.vars[info.var.0 as usize].next = Some(r);
            }
        }
        Ok(())
    }

    /// Sets initial values from what the `initial` blocks left; warns about initial values
    /// of nets and inputs (which have no storage).
    pub(crate) fn attach_initial_values(&mut self) -> DResult<()> {
        let st = ProcState::new(Mode::Initial, self.top.unwrap_or(ScopeId(0)));
        let stored: HashSet<Slot> = self.states.iter().map(|s| s.slot).collect();
        for i in 0..self.states.len() {
            let info = self.states[i];
            let Some(sv) = self.init_vals.get(&info.slot).cloned() else {
                continue;
            };
            let mut all_hold = true;
            let mut at = 0;
            for s in &sv.segs {
                let w = match s {
                    Seg::Val(_, w) | Seg::Hold(w) => *w,
                };
                if matches!(s, Seg::Val(..)) && at < info.lo + info.len && info.lo < at + w {
                    all_hold = false;
                }
                at += w;
            }
            if all_hold {
                continue;
            }
            let span = self.sigs[info.slot.sig.0 as usize].span;
            let v = self.sv_read(&st, info.slot, &sv, Fill::Merge, span)?;
            let v = self.slice(v, info.lo, info.len, span)?;
            self.sys.vars[info.var.0 as usize].init = Some(v.e);
        }
        let mut ignored: Vec<Slot> = self
            .init_vals
            .keys()
            .filter(|s| !stored.contains(s) && !self.temps.contains_key(s))
            .copied()
            .collect();
        ignored.sort();
        for slot in ignored {
            let sig = &self.sigs[slot.sig.0 as usize];
            let (span, name) = (sig.span, sig.slot_name(slot.word));
            self.warn(
                span,
                format!("initial value of `{name}` is ignored: it is not a register"),
            );
        }
        Ok(())
    }

    /// With `observe_state`: every register, latch and memory word becomes an output named
    /// after it (unless an output of that name exists).
    pub(crate) fn observe_state(&mut self) -> DResult<()> {
        let mut names: HashSet<String> = self.sys.outputs.iter().map(|o| o.name.clone()).collect();
        let mut seen = BTreeSet::new();
        for i in 0..self.states.len() {
            let info = self.states[i];
            if info.kind == StateKind::Frozen || !seen.insert(info.slot) {
                continue;
            }
            let sig = &self.sigs[info.slot.sig.0 as usize];
            let (name, span) = (sig.slot_name(info.slot.word), sig.span);
            if !names.insert(name.clone()) {
                continue;
            }
            let v = self.net_value(info.slot, span)?;
            let v = self.as_bits(v, span)?;
            self.sys.outputs.push(Output { name, expr: v.e });
        }
        Ok(())
    }

    /// Checks the event lists of clocked blocks and warns when several clock signals exist.
    pub(crate) fn check_clocks(&mut self) -> DResult<()> {
        // Aliases `assign a = b;` (and port connections) between whole signals.
        let mut alias: HashMap<u32, u32> = HashMap::new();
        for p in 0..self.procs.len() {
            let proc = self.procs[p].clone();
            if let ProcKind::Assign { target, source } = &proc.kind {
                let t = match target {
                    Target::Sig(s) => Some(s.0),
                    Target::Expr(e, sc) => self.plain_sig(e, *sc),
                };
                let s = match source {
                    Source::Sig(s) => Some(s.0),
                    Source::Expr(e, sc) => self.plain_sig(e, *sc),
                    Source::Gate(..) => None,
                };
                if let (Some(t), Some(s)) = (t, s) {
                    alias.insert(t, s);
                }
            }
        }
        let mut clocks: BTreeSet<String> = BTreeSet::new();
        for p in 0..self.procs.len() {
            let proc = self.procs[p].clone();
            let ProcKind::Always {
                sens: Sensitivity::List(evs),
                ..
            } = &proc.kind
            else {
                continue;
            };
            let edges = evs.iter().filter(|(e, _)| *e != Edge::Level).count();
            if edges == 0 {
                continue;
            }
            if edges != evs.len() {
                return Err(Diag::new(
                    proc.span,
                    "an event list mixing edge and level events is not supported",
                ));
            }
            let clock = match self.async_events(p)? {
                None => evs.first().map(|(_, e)| e),
                Some(conds) => {
                    let cond_refs: Vec<_> = conds
                        .iter()
                        .map(|(c, _)| self.refs(c, proc.scope))
                        .collect();
                    let mut clk = None;
                    for (_, e) in evs {
                        let r = self.refs(e, proc.scope);
                        if !cond_refs.iter().any(|c| overlaps(c, &r)) {
                            clk = Some(e);
                        }
                    }
                    clk
                }
            };
            if let Some(e) = clock {
                match self.plain_sig(e, proc.scope) {
                    Some(mut s) => {
                        let mut steps = 0;
                        while let Some(n) = alias.get(&s) {
                            s = *n;
                            steps += 1;
                            if steps > 1000 {
                                break;
                            }
                        }
                        clocks.insert(self.sigs[s as usize].name.clone());
                        self.clock_roots.insert(s);
                    }
                    None => {
                        clocks.insert(self.sys.sources.snippet(e.span).to_string());
                    }
                }
            }
        }
        if clocks.len() > 1 {
            let top_span = self.sigs.first().map(|s| s.span);
            if let Some(span) = top_span {
                self.warn(
                    span,
                    format!(
                        "several clocks ({}): every clocked block is updated on one global tick",
                        clocks.into_iter().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        Ok(())
    }

    /// The signal a plain identifier names.
    fn plain_sig(&mut self, e: &Expr, scope: ScopeId) -> Option<u32> {
        let ExprKind::Ident(path) = &e.kind else {
            return None;
        };
        let st = ProcState::constant(scope);
        match self.lookup(&st, path) {
            Ok(Binding::Sig(s)) => Some(s.0),
            _ => None,
        }
    }
}

/// Whether two reference sets share a signal (with overlapping bits).
fn overlaps(a: &HashSet<(u32, Option<i64>)>, b: &HashSet<(u32, Option<i64>)>) -> bool {
    a.iter().any(|(s, i)| {
        b.iter()
            .any(|(t, j)| s == t && (i.is_none() || j.is_none() || i == j))
    })
}
