//! Symbolic execution of statements: assignments (blocking and non-blocking), `if`, `case`
//! (`casez`/`casex` wildcards), loops unrolled while their conditions fold to constants,
//! inlined functions and tasks.

use hypermut_ir::{BinOp, ExprId, ExprKind as IrKind, Span, UnOp};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::ast::{CaseKind, Decl, Expr, ExprKind, FuncDecl, Ident, Stmt};
use crate::error::{DResult, Diag};

use super::elaborator::{Elab, MAX_DEPTH};
use super::env::{Fill, Frame, Mode, ProcState, SlotVal};
use super::expr::Layout;
use super::hier::MAX_LOOP;
use super::scope::{Binding, ScopeId, SigId, Slot};
use super::value::V;

/// A `case` statement being executed as an if-else chain.
pub(crate) struct Chain<'a> {
    /// `case`, `casez` or `casex`.
    kind: CaseKind,
    /// The selector at the common width.
    sel: V,
    /// Whether the comparison is signed.
    cs: bool,
    /// The arms: labels and body.
    arms: &'a [(Vec<Expr>, Stmt)],
    /// The `default` arm.
    default: Option<&'a Stmt>,
    /// The labels cover every selector value (the last arm needs no test).
    complete: bool,
}

/// The low 64 bits of a number (callers keep widths at most 16).
fn to_u64(v: &BigUint) -> u64 {
    v.iter_u64_digits().next().unwrap_or(0)
}

/// Whether the system task `name` only prints or dumps (ignoring it cannot change what the
/// design computes or when simulation ends).
fn prints_only(name: &str) -> bool {
    const PRINTING: [&str; 10] = [
        "$display",
        "$write",
        "$strobe",
        "$monitor",
        "$fdisplay",
        "$fwrite",
        "$fstrobe",
        "$fmonitor",
        "$dump",
        "$info",
    ];
    PRINTING.iter().any(|p| name.starts_with(p))
        || matches!(name, "$timeformat" | "$printtimescale")
}

/// A slot an assignment may write, with the condition under which it does (`None` = always).
type Guarded = (Slot, Option<ExprId>);

/// Where, inside a word, an assignment writes.
enum BitTarget {
    /// The whole word.
    Whole,
    /// Constant positions `lo..lo+len` (possibly partly outside the word).
    Const(i64, u32),
    /// A non-constant part select: start index value, offset of the index with the lowest
    /// position, width, and the word's layout.
    Dyn(V, i64, u32, Layout),
}

impl<'a> Elab<'a> {
    /// Executes one statement.
    pub(crate) fn exec(&mut self, st: &mut ProcState, s: &'a Stmt) -> DResult<()> {
        match s {
            Stmt::Null(_) => Ok(()),
            Stmt::Block {
                decls,
                params,
                stmts,
                span,
                label,
            } => {
                let saved = st.scope;
                if !st.frames.is_empty() {
                    if !params.is_empty() {
                        return Err(Diag::new(
                            *span,
                            "parameters in blocks inside functions and tasks are not supported",
                        ));
                    }
                    for d in decls {
                        self.declare_locals(st, d, label.as_ref())?;
                    }
                } else if let Some(child) = self.block_scopes.get(&(st.scope, *span)) {
                    st.scope = *child;
                }
                let mut r = Ok(());
                for s in stmts {
                    r = self.exec(st, s);
                    if r.is_err() {
                        break;
                    }
                }
                st.scope = saved;
                r
            }
            Stmt::Assign {
                nonblocking,
                lhs,
                rhs,
                span,
            } => {
                let lw = self.self_type(st, lhs)?.0;
                let v = self.rvalue(st, rhs, Some(lw))?;
                let v = self.resize(v, lw, v.signed, rhs.span)?;
                let nb = *nonblocking && matches!(st.mode, Mode::Seq(_));
                self.assign(st, lhs, v, nb, *span)
            }
            Stmt::If {
                cond,
                then,
                els,
                span,
            } => {
                let c = self.cond_bool(st, cond)?;
                if let Some(hypermut_ir::Value::Bool(k)) = self.const_value(c) {
                    return match (k, els) {
                        (true, _) => self.exec(st, then),
                        (false, Some(e)) => self.exec(st, e),
                        (false, None) => Ok(()),
                    };
                }
                let mut t = st.clone();
                self.exec(&mut t, then)?;
                if let Some(e) = els {
                    self.exec(st, e)?;
                }
                self.merge_states(c, t, st, *span)
            }
            Stmt::Case {
                kind,
                expr,
                arms,
                default,
                ..
            } => {
                let (mut cw, mut cs) = self.self_type(st, expr)?;
                let sel_w = cw;
                for (labels, _) in arms {
                    for l in labels {
                        let (w, s) = self.self_type(st, l)?;
                        cw = cw.max(w);
                        cs &= s;
                    }
                }
                let sel = self.eval(st, expr, cw, cs)?;
                let sel = self.as_bits(sel, expr.span)?;
                // A case whose constant labels cover every selector value cannot fall through:
                // its last arm needs no test (and no latch is inferred for it).
                let complete =
                    default.is_none() && self.case_is_complete(st, *kind, sel_w, cw, cs, arms)?;
                let chain = Chain {
                    kind: *kind,
                    sel,
                    cs,
                    arms,
                    default: default.as_deref(),
                    complete,
                };
                self.exec_case(st, &chain, 0)
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                span,
            } => {
                self.exec(st, init)?;
                self.exec_loop(st, Some(cond), None, body, Some(step), *span)
            }
            Stmt::While { cond, body, span } => {
                self.exec_loop(st, Some(cond), None, body, None, *span)
            }
            Stmt::Repeat { count, body, span } => {
                let n = self.index_const(st, count)?;
                self.exec_loop(st, None, Some(n.max(0) as u64), body, None, *span)
            }
            Stmt::TaskCall { name, args, span } => self.call_task(st, name, args, *span),
            Stmt::SysTask { name, args, span }
                if matches!(name.name.as_str(), "$readmemh" | "$readmemb") =>
            {
                self.readmem(st, name, args, *span)
            }
            Stmt::SysTask { name, span, .. } => {
                if name.name.starts_with('$') {
                    let msg = format!("system task `{}` is ignored", name.name);
                    if prints_only(&name.name) {
                        self.note(*span, msg);
                    } else {
                        self.warn(*span, msg);
                    }
                } else {
                    self.warn(
                        *span,
                        format!(
                            "`{}` statement is ignored (only module-level `assert property` items become properties)",
                            name.name
                        ),
                    );
                }
                Ok(())
            }
            Stmt::Unsupported { what, span } => Err(Diag::new(
                *span,
                format!("{what} cannot be synthesised and is not supported"),
            )),
        }
    }

    /// Unrolls a loop: `while cond` (or `count` times) `body; step`.
    fn exec_loop(
        &mut self,
        st: &mut ProcState,
        cond: Option<&Expr>,
        count: Option<u64>,
        body: &'a Stmt,
        step: Option<&'a Stmt>,
        span: Span,
    ) -> DResult<()> {
        let mut n: u64 = 0;
        loop {
            if let Some(c) = cond {
                let v = self.cond_bool(st, c)?;
                match self.const_value(v) {
                    Some(hypermut_ir::Value::Bool(true)) => {}
                    Some(_) => break,
                    None => {
                        return Err(Diag::new(
                            c.span,
                            "loop condition does not reduce to a constant (loops must have constant bounds)",
                        ))
                    }
                }
            }
            if count.is_some_and(|k| n >= k) {
                break;
            }
            n += 1;
            if n > MAX_LOOP as u64 {
                return Err(Diag::new(
                    span,
                    format!("loop runs more than {MAX_LOOP} iterations"),
                ));
            }
            let before = cond.map(|_| (st.vals.clone(), st.nba.clone()));
            self.exec(st, body)?;
            if let Some(s) = step {
                self.exec(st, s)?;
            }
            // A `while`/`for` iteration that changes nothing repeats forever.
            if before.is_some_and(|(v, n)| v == st.vals && n == st.nba) {
                return Err(Diag::new(
                    span,
                    "loop does not terminate (an iteration changes nothing)",
                ));
            }
        }
        Ok(())
    }

    /// The arms of a case statement from `i` on, as an if-else chain.
    fn exec_case(&mut self, st: &mut ProcState, c: &Chain<'a>, i: usize) -> DResult<()> {
        let Some((labels, body)) = c.arms.get(i) else {
            return match c.default {
                Some(d) => self.exec(st, d),
                None => Ok(()),
            };
        };
        if c.complete && i + 1 == c.arms.len() {
            // Every value is covered: reaching the last arm means it matches.
            return self.exec(st, body);
        }
        let mut hit: Option<ExprId> = None;
        for l in labels {
            let m = self.case_match(st, c.kind, c.sel, c.cs, l)?;
            hit = Some(match hit {
                None => m,
                Some(h) => self.node(IrKind::Binary(BinOp::Or, h, m), l.span)?,
            });
        }
        let Some(hit) = hit else {
            return self.exec_case(st, c, i + 1);
        };
        match self.const_value(hit) {
            Some(hypermut_ir::Value::Bool(true)) => self.exec(st, body),
            Some(_) => self.exec_case(st, c, i + 1),
            None => {
                let mut t = st.clone();
                self.exec(&mut t, body)?;
                self.exec_case(st, c, i + 1)?;
                self.merge_states(hit, t, st, body.span())
            }
        }
    }

    /// Whether the labels of a `case` without `default` are constants that together match
    /// every value of the `sel_w`-bit selector, compared at `w` bits (extended with sign if
    /// `cs`). Checked by enumeration for small selectors; `x`/`z` label bits that are no
    /// wildcards never count.
    fn case_is_complete(
        &mut self,
        st: &mut ProcState,
        kind: CaseKind,
        sel_w: u32,
        w: u32,
        cs: bool,
        arms: &'a [(Vec<Expr>, Stmt)],
    ) -> DResult<bool> {
        const MAX_WORK: u64 = 1 << 22;
        let labels: u64 = arms.iter().map(|(l, _)| l.len() as u64).sum();
        if sel_w == 0 || sel_w > 16 || w > 64 || labels.saturating_mul(1 << sel_w) > MAX_WORK {
            return Ok(false);
        }
        let size = 1usize << sel_w;
        let all = (BigUint::one() << w) - BigUint::one();
        let w_mask = to_u64(&all);
        // The selector's values as the comparison sees them (extended to `w` bits).
        let ext = |x: u64| -> u64 {
            if cs && sel_w < 64 && (x >> (sel_w - 1)) & 1 == 1 {
                (x | !((1u64 << sel_w) - 1)) & w_mask
            } else {
                x
            }
        };
        let mut seen = vec![false; size];
        for (ls, _) in arms {
            for l in ls {
                let (wild, bad) = match (&l.kind, kind) {
                    (ExprKind::Number(n), CaseKind::Case) => (BigUint::zero(), &n.xmask | &n.zmask),
                    (ExprKind::Number(n), CaseKind::Casez) => (n.zmask.clone(), n.xmask.clone()),
                    (ExprKind::Number(n), CaseKind::Casex) => {
                        (&n.zmask | &n.xmask, BigUint::zero())
                    }
                    // Other labels count when they fold to constants (`-1`, parameters).
                    _ => (BigUint::zero(), BigUint::zero()),
                };
                if !bad.is_zero() {
                    continue;
                }
                let outer = std::mem::replace(&mut self.in_case_label, true);
                let v = self.eval(st, l, w, cs);
                self.in_case_label = outer;
                let Some(v) = self.const_bits(v?) else {
                    continue;
                };
                let care = &all ^ (wild & &all);
                let (v, care) = (to_u64(&(v & &care)), to_u64(&care));
                for (x, s) in seen.iter_mut().enumerate() {
                    if ext(x as u64) & care == v {
                        *s = true;
                    }
                }
            }
        }
        Ok(seen.iter().all(|s| *s))
    }

    /// Whether the case selector matches one label (wildcards masked for casez/casex).
    fn case_match(
        &mut self,
        st: &mut ProcState,
        kind: CaseKind,
        sel: V,
        cs: bool,
        l: &Expr,
    ) -> DResult<ExprId> {
        let outer = std::mem::replace(&mut self.in_case_label, true);
        let lab = self.eval(st, l, sel.w, cs);
        self.in_case_label = outer;
        let lab = self.as_bits(lab?, l.span)?;
        let wild = match (&l.kind, kind) {
            (ExprKind::Number(n), CaseKind::Casez) => n.zmask.clone(),
            (ExprKind::Number(n), CaseKind::Casex) => &n.zmask | &n.xmask,
            _ => BigUint::zero(),
        };
        if wild.is_zero() {
            return self.node(IrKind::Binary(BinOp::Eq, sel.e, lab.e), l.span);
        }
        // Literal wildcards are extended like the literal (they were sized to its width).
        let all = (BigUint::one() << sel.w) - BigUint::one();
        let care = &all ^ (wild & &all);
        let m = self.bits_const(sel.w, care, l.span);
        let a = self.node(IrKind::Binary(BinOp::And, sel.e, m.e), l.span)?;
        let b = self.node(IrKind::Binary(BinOp::And, lab.e, m.e), l.span)?;
        self.node(IrKind::Binary(BinOp::Eq, a, b), l.span)
    }

    /// Writes `v` (already of the lvalue's width) to the lvalue `lhs`.
    pub(crate) fn assign(
        &mut self,
        st: &mut ProcState,
        lhs: &Expr,
        v: V,
        nb: bool,
        span: Span,
    ) -> DResult<()> {
        match &lhs.kind {
            ExprKind::Concat(items) => {
                let mut at = 0;
                for it in items.iter().rev() {
                    let w = self.self_type(st, it)?.0;
                    let part = self.slice(v, at, w, it.span)?;
                    self.assign(st, it, part, nb, span)?;
                    at += w;
                }
                Ok(())
            }
            ExprKind::Ident(path) => {
                let sig = self.lvalue_sig(st, path, lhs.span)?;
                if self.sigs[sig.0 as usize].mem.is_some() {
                    return Err(Diag::new(
                        lhs.span,
                        "a memory must be indexed to be assigned",
                    ));
                }
                self.write_word(
                    st,
                    Slot { sig, word: 0 },
                    None,
                    BitTarget::Whole,
                    v,
                    nb,
                    span,
                )
            }
            ExprKind::Index(base, idx) => {
                if let Some(mem) = self.memory_of(st, base)? {
                    let addr = self.rvalue(st, idx, None)?;
                    return self.write_memory(st, mem, addr, BitTarget::Whole, v, nb, span);
                }
                let iv = self.rvalue(st, idx, None)?;
                let (words, layout) = self.lvalue_words(st, base)?;
                let bt = match self.const_i64(iv) {
                    Some(i) => BitTarget::Const(layout.pos(i), 1),
                    None => BitTarget::Dyn(iv, 0, 1, layout),
                };
                self.write_words(st, words, bt, v, nb, span)
            }
            ExprKind::Range(base, m, l) => {
                let m = self.index_const(st, m)?;
                let l = self.index_const(st, l)?;
                let (words, layout) = self.lvalue_words(st, base)?;
                let (pm, pl) = (layout.pos(m), layout.pos(l));
                let bt = BitTarget::Const(pm.min(pl), ((pm - pl).unsigned_abs() + 1) as u32);
                self.write_words(st, words, bt, v, nb, span)
            }
            ExprKind::IndexedRange {
                base,
                start,
                width,
                up,
            } => {
                let len = self.index_const(st, width)?;
                if len < 1 {
                    return Err(Diag::new(width.span, "invalid part-select width"));
                }
                let len = len as u32;
                let sv = self.rvalue(st, start, None)?;
                let (words, layout) = self.lvalue_words(st, base)?;
                let bt = match self.const_i64(sv) {
                    Some(i) => {
                        let (a, b) = if *up {
                            (i, i + len as i64 - 1)
                        } else {
                            (i - len as i64 + 1, i)
                        };
                        BitTarget::Const(layout.pos(a).min(layout.pos(b)), len)
                    }
                    None => {
                        let off: i64 = match (*up, layout.descending()) {
                            (true, true) => 0,
                            (false, true) => -(len as i64 - 1),
                            (true, false) => len as i64 - 1,
                            (false, false) => 0,
                        };
                        BitTarget::Dyn(sv, off, len, layout)
                    }
                };
                self.write_words(st, words, bt, v, nb, span)
            }
            _ => Err(Diag::new(lhs.span, "this expression cannot be assigned to")),
        }
    }

    /// The signal an lvalue name denotes.
    fn lvalue_sig(&mut self, st: &ProcState, path: &[Ident], span: Span) -> DResult<SigId> {
        match self.lookup(st, path)? {
            Binding::Sig(s) => Ok(s),
            Binding::Param(_) => Err(Diag::new(span, "cannot assign to a parameter")),
            _ => Err(Diag::new(span, "this name cannot be assigned to")),
        }
    }

    /// The word(s) an lvalue base names (a signal, or a memory word, possibly dynamic), with
    /// guards for dynamic memory addresses.
    fn lvalue_words(&mut self, st: &mut ProcState, base: &Expr) -> DResult<(Vec<Guarded>, Layout)> {
        match &base.kind {
            ExprKind::Ident(path) => {
                let sig = self.lvalue_sig(st, path, base.span)?;
                let s = &self.sigs[sig.0 as usize];
                if s.mem.is_some() {
                    return Err(Diag::new(
                        base.span,
                        "a memory must be indexed to be assigned",
                    ));
                }
                let layout = Layout {
                    msb: s.msb,
                    lsb: s.lsb,
                };
                Ok((vec![(Slot { sig, word: 0 }, None)], layout))
            }
            ExprKind::Index(mem, addr) => {
                let Some(sig) = self.memory_of(st, mem)? else {
                    return Err(Diag::new(
                        base.span,
                        "nested selects are only supported on memory words",
                    ));
                };
                let a = self.rvalue(st, addr, None)?;
                let s = self.sigs[sig.0 as usize].clone();
                let layout = Layout {
                    msb: s.msb,
                    lsb: s.lsb,
                };
                Ok((self.memory_words(sig, a, base.span)?, layout))
            }
            _ => Err(Diag::new(
                base.span,
                "this expression cannot be assigned to",
            )),
        }
    }

    /// The words a memory address may select, each with its guard (`None` = always).
    fn memory_words(&mut self, mem: SigId, addr: V, span: Span) -> DResult<Vec<Guarded>> {
        let s = self.sigs[mem.0 as usize].clone();
        let Some((lo, n)) = s.mem else {
            return Ok(vec![]);
        };
        if let Some(i) = self.const_i64(addr) {
            return Ok(s
                .word_of(i)
                .map(|k| vec![(Slot { sig: mem, word: k }, None)])
                .unwrap_or_default());
        }
        let mut out = Vec::new();
        for k in 0..n {
            let g = self.index_eq(addr, lo + k as i64, span)?;
            if self.const_value(g) == Some(hypermut_ir::Value::Bool(false)) {
                continue;
            }
            out.push((Slot { sig: mem, word: k }, Some(g)));
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn write_memory(
        &mut self,
        st: &mut ProcState,
        mem: SigId,
        addr: V,
        bt: BitTarget,
        v: V,
        nb: bool,
        span: Span,
    ) -> DResult<()> {
        let words = self.memory_words(mem, addr, span)?;
        self.write_words(st, words, bt, v, nb, span)
    }

    fn write_words(
        &mut self,
        st: &mut ProcState,
        words: Vec<Guarded>,
        bt: BitTarget,
        v: V,
        nb: bool,
        span: Span,
    ) -> DResult<()> {
        for (slot, guard) in words {
            let bt2 = match &bt {
                BitTarget::Whole => BitTarget::Whole,
                BitTarget::Const(a, b) => BitTarget::Const(*a, *b),
                BitTarget::Dyn(a, b, c, d) => BitTarget::Dyn(*a, *b, *c, *d),
            };
            self.write_word(st, slot, guard, bt2, v, nb, span)?;
        }
        Ok(())
    }

    /// A blocking write of the whole word `slot` (`$readmemh` data).
    pub(crate) fn write_const_word(
        &mut self,
        st: &mut ProcState,
        slot: Slot,
        v: V,
        span: Span,
    ) -> DResult<()> {
        self.write_word(st, slot, None, BitTarget::Whole, v, false, span)
    }

    /// Writes `v` into part `bt` of `slot`, only when `guard` holds.
    #[allow(clippy::too_many_arguments)]
    fn write_word(
        &mut self,
        st: &mut ProcState,
        slot: Slot,
        guard: Option<ExprId>,
        bt: BitTarget,
        v: V,
        nb: bool,
        span: Span,
    ) -> DResult<()> {
        let mixed = nb && st.mixed.contains(&slot);
        let fill = if mixed { Fill::Zero } else { Fill::Merge };
        let cur = {
            let map = if nb { &st.nba } else { &st.vals };
            map.get(&slot)
                .cloned()
                .unwrap_or_else(|| SlotVal::hold(self.slot_width(slot)))
        };
        let new = self.placed(st, slot, &cur, guard, &bt, v, fill, span)?;
        let map = if nb { &mut st.nba } else { &mut st.vals };
        map.insert(slot, new);
        if mixed {
            // Record which bits now have a pending non-blocking value.
            let w = self.slot_width(slot);
            let cur = st
                .nba_mask
                .get(&slot)
                .cloned()
                .unwrap_or_else(|| SlotVal::hold(w));
            let ones = self.bits_const(
                v.w.max(w),
                (BigUint::one() << v.w.max(w)) - BigUint::one(),
                span,
            );
            let new = self.placed(st, slot, &cur, guard, &bt, ones, Fill::Zero, span)?;
            st.nba_mask.insert(slot, new);
        }
        Ok(())
    }

    /// `cur` with `v` written into part `bt` (when `guard` holds); unwritten bits the write
    /// needs are filled with `fill`.
    #[allow(clippy::too_many_arguments)]
    fn placed(
        &mut self,
        st: &ProcState,
        slot: Slot,
        cur: &SlotVal,
        guard: Option<ExprId>,
        bt: &BitTarget,
        v: V,
        fill: Fill,
        span: Span,
    ) -> DResult<SlotVal> {
        let w = self.slot_width(slot);
        let new = match bt {
            BitTarget::Whole => {
                let v = self.resize(v, w, false, span)?;
                SlotVal::full(v)
            }
            BitTarget::Const(lo, len) => {
                let (lo, len) = (*lo, *len);
                let v = self.slice(v, 0, len, span)?;
                if lo >= w as i64 || lo + len as i64 <= 0 {
                    cur.clone()
                } else if lo < 0 {
                    let cut = lo.unsigned_abs() as u32;
                    let v = self.slice(v, cut, len - cut, span)?;
                    self.sv_write(cur, 0, v, span)?
                } else {
                    self.sv_write(cur, lo as u32, v, span)?
                }
            }
            BitTarget::Dyn(start, off, len, layout) => {
                let old = self.sv_read(st, slot, cur, fill, span)?;
                let nv = self.dynamic_insert(old, *start, *off, *len, *layout, v, span)?;
                SlotVal::full(nv)
            }
        };
        match guard {
            None => Ok(new),
            Some(g) => self.sv_merge(st, slot, g, &new, cur, fill, span),
        }
    }

    /// `old` with `len` bits of `v` placed at the position of index `start + off`.
    #[allow(clippy::too_many_arguments)]
    fn dynamic_insert(
        &mut self,
        old: V,
        start: V,
        off: i64,
        len: u32,
        layout: Layout,
        v: V,
        span: Span,
    ) -> DResult<V> {
        let old = self.as_bits(old, span)?;
        let start = self.as_bits(start, span)?;
        let w = old.w;
        if layout.descending() && layout.lsb == 0 && off == 0 && !start.signed {
            // `x[i] = v` / `x[i +: n] = v` on `[w-1:0]`: shift the value and a mask by `i`.
            let ones = self.bits_const(len, (BigUint::one() << len) - BigUint::one(), span);
            let m = self.resize(ones, w, false, span)?;
            let vv = self.slice(v, 0, len, span)?;
            let vw = self.resize(vv, w, false, span)?;
            let m_sh = self.node(IrKind::Binary(BinOp::Shl, m.e, start.e), span)?;
            let v_sh = self.node(IrKind::Binary(BinOp::Shl, vw.e, start.e), span)?;
            let keep = self.node(IrKind::Unary(UnOp::Not, m_sh), span)?;
            let kept = self.node(IrKind::Binary(BinOp::And, old.e, keep), span)?;
            let put = self.node(IrKind::Binary(BinOp::And, v_sh, m_sh), span)?;
            let e = self.node(IrKind::Binary(BinOp::Or, kept, put), span)?;
            return Ok(V { e, ..old });
        }
        let ew = w + len;
        let bits_w = 64 - (ew as u64).leading_zeros();
        let cw = start.w.max(bits_w).max(34) + 2;
        let idx = self.resize(start, cw, start.signed, span)?;
        let (neg, base) = if layout.descending() {
            (false, -layout.lsb)
        } else {
            (true, layout.lsb)
        };
        let k = base + if neg { -off } else { off } + len as i64;
        let kc = self.signed_const(cw, k, span);
        let amount = if neg {
            self.node(IrKind::Binary(BinOp::Sub, kc.e, idx.e), span)?
        } else {
            self.node(IrKind::Binary(BinOp::Add, idx.e, kc.e), span)?
        };
        let pad = self.zero(len, span);
        let old_ext = self.concat2(old, pad, span)?;
        let vv = self.slice(v, 0, len, span)?;
        let v_ext = self.resize(vv, ew, false, span)?;
        let ones = self.bits_const(len, (BigUint::one() << len) - BigUint::one(), span);
        let m_ext = self.resize(ones, ew, false, span)?;
        let v_sh = self.node(IrKind::Binary(BinOp::Shl, v_ext.e, amount), span)?;
        let m_sh = self.node(IrKind::Binary(BinOp::Shl, m_ext.e, amount), span)?;
        let keep = self.node(IrKind::Unary(UnOp::Not, m_sh), span)?;
        let kept = self.node(IrKind::Binary(BinOp::And, old_ext.e, keep), span)?;
        let put = self.node(IrKind::Binary(BinOp::And, v_sh, m_sh), span)?;
        let new = self.node(IrKind::Binary(BinOp::Or, kept, put), span)?;
        let nv = V {
            e: new,
            w: ew,
            signed: false,
            boolean: false,
        };
        self.slice(nv, len, w, span)
    }

    /// Declares the locals of `d` in the innermost frame.
    fn declare_locals(
        &mut self,
        st: &mut ProcState,
        d: &Decl,
        block: Option<&Ident>,
    ) -> DResult<()> {
        for n in &d.names {
            let name = match block {
                Some(b) => Ident {
                    name: format!("{}.{}", b.name, n.name.name),
                    span: n.name.span,
                },
                None => n.name.clone(),
            };
            let sig = self.declare(
                st.scope,
                &name,
                d.kind.as_ref(),
                d.signed,
                d.range.as_ref(),
                &n.dims,
                true,
            )?;
            if self.sigs[sig.0 as usize].mem.is_some() {
                return Err(Diag::new(
                    n.name.span,
                    "memories inside functions and tasks are not supported",
                ));
            }
            if let Some(f) = st.frames.last_mut() {
                f.names.insert(n.name.name.clone(), sig);
            }
        }
        Ok(())
    }

    /// Sets up the frame of a function or task call; returns the formals (input, output) and
    /// the scope to restore.
    fn enter_subroutine(
        &mut self,
        st: &mut ProcState,
        f: &'a FuncDecl,
        fscope: ScopeId,
        span: Span,
    ) -> DResult<(Vec<(SigId, crate::ast::Dir)>, ScopeId)> {
        if self.call_depth >= MAX_DEPTH {
            return Err(Diag::new(
                span,
                format!("function/task calls nested more than {MAX_DEPTH} deep (recursion?)"),
            ));
        }
        self.call_depth += 1;
        let saved = st.scope;
        let callee_scope = if f.params.is_empty() {
            fscope
        } else {
            let prefix = self.scopes[fscope.0 as usize].prefix.clone();
            let s = self.new_scope(Some(fscope), prefix);
            for p in &f.params {
                for (n, e) in &p.assigns {
                    let v = self.const_expr(e, s)?;
                    self.bind(s, &n.name, Binding::Param(v), n.span)?;
                }
            }
            s
        };
        st.frames.push(Frame::default());
        st.scope = callee_scope;
        let mut formals = Vec::new();
        for d in &f.decls {
            self.declare_locals(st, d, None)?;
            if let Some(dir) = d.dir {
                for n in &d.names {
                    if let Some(s) = st.frames.last().and_then(|fr| fr.names.get(&n.name.name)) {
                        formals.push((*s, dir));
                    }
                }
            }
        }
        Ok((formals, saved))
    }

    /// Removes a subroutine frame and its locals' values.
    fn leave_subroutine(&mut self, st: &mut ProcState, saved: ScopeId) {
        if let Some(fr) = st.frames.pop() {
            for s in fr.names.values() {
                let w = self.sigs[s.0 as usize].words();
                for word in 0..w {
                    st.vals.remove(&Slot { sig: *s, word });
                    st.nba.remove(&Slot { sig: *s, word });
                }
            }
        }
        st.scope = saved;
        self.call_depth = self.call_depth.saturating_sub(1);
    }

    /// Inlines a function call and returns its value.
    pub(crate) fn call_function(
        &mut self,
        st: &mut ProcState,
        name: &Ident,
        args: &[Expr],
        span: Span,
    ) -> DResult<V> {
        let Binding::Func(f, fscope) = self.lookup(st, std::slice::from_ref(name))? else {
            return Err(Diag::new(
                name.span,
                format!("`{}` is not a function", name.name),
            ));
        };
        let (rw, rs) = self.func_type(f, fscope)?;
        // Actual arguments, in the caller's context.
        let mut actuals = Vec::new();
        for a in args {
            actuals.push(a);
        }
        let (formals, saved) = self.enter_subroutine(st, f, fscope, span)?;
        let result = (|| -> DResult<V> {
            if formals.len() != actuals.len() {
                return Err(Diag::new(
                    span,
                    format!(
                        "function `{}` takes {} argument(s), {} given",
                        name.name,
                        formals.len(),
                        actuals.len()
                    ),
                ));
            }
            // Evaluate the actuals with the caller's scope and frames.
            let mut values = Vec::new();
            {
                let frame = st.frames.pop();
                let callee = st.scope;
                st.scope = saved;
                let mut r = Ok(());
                for ((sig, _), a) in formals.iter().zip(&actuals) {
                    let fw = self.sigs[sig.0 as usize].width;
                    match self
                        .rvalue(st, a, Some(fw))
                        .and_then(|v| self.resize(v, fw, v.signed, a.span))
                    {
                        Ok(v) => values.push(v),
                        Err(e) => {
                            r = Err(e);
                            break;
                        }
                    }
                }
                st.scope = callee;
                if let Some(fr) = frame {
                    st.frames.push(fr);
                }
                r?;
            }
            let ret = self.declare(st.scope, name, None, rs, None, &[], true)?;
            self.sigs[ret.0 as usize].width = rw;
            self.sigs[ret.0 as usize].msb = rw as i64 - 1;
            if let Some(fr) = st.frames.last_mut() {
                fr.names.insert(name.name.clone(), ret);
            }
            for ((sig, _), v) in formals.iter().zip(values) {
                st.vals
                    .insert(Slot { sig: *sig, word: 0 }, SlotVal::full(v));
            }
            self.exec(st, &f.body)?;
            let mut r = self.read_slot(st, Slot { sig: ret, word: 0 }, span)?;
            r = self.as_bits(r, span)?;
            r.signed = rs;
            Ok(r)
        })();
        self.leave_subroutine(st, saved);
        result
    }

    /// Inlines a task call; output arguments are assigned back (blocking).
    fn call_task(
        &mut self,
        st: &mut ProcState,
        name: &Ident,
        args: &[Expr],
        span: Span,
    ) -> DResult<()> {
        let (f, fscope) = match self.lookup(st, std::slice::from_ref(name))? {
            Binding::Task(f, s) => (f, s),
            _ => {
                return Err(Diag::new(
                    name.span,
                    format!("`{}` is not a task", name.name),
                ))
            }
        };
        let (formals, saved) = self.enter_subroutine(st, f, fscope, span)?;
        let outs = (|| -> DResult<Vec<(V, usize)>> {
            if formals.len() != args.len() {
                return Err(Diag::new(
                    span,
                    format!(
                        "task `{}` takes {} argument(s), {} given",
                        name.name,
                        formals.len(),
                        args.len()
                    ),
                ));
            }
            let frame = st.frames.pop();
            let callee = st.scope;
            st.scope = saved;
            let mut values = Vec::new();
            let mut r = Ok(());
            for ((sig, dir), a) in formals.iter().zip(args) {
                if *dir == crate::ast::Dir::Output {
                    values.push(None);
                    continue;
                }
                let fw = self.sigs[sig.0 as usize].width;
                match self
                    .rvalue(st, a, Some(fw))
                    .and_then(|v| self.resize(v, fw, v.signed, a.span))
                {
                    Ok(v) => values.push(Some(v)),
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            st.scope = callee;
            if let Some(fr) = frame {
                st.frames.push(fr);
            }
            r?;
            for ((sig, _), v) in formals.iter().zip(values) {
                if let Some(v) = v {
                    st.vals
                        .insert(Slot { sig: *sig, word: 0 }, SlotVal::full(v));
                }
            }
            self.exec(st, &f.body)?;
            let mut outs = Vec::new();
            for (k, (sig, dir)) in formals.iter().enumerate() {
                if matches!(dir, crate::ast::Dir::Output | crate::ast::Dir::Inout) {
                    let v = self.read_slot(st, Slot { sig: *sig, word: 0 }, span)?;
                    outs.push((v, k));
                }
            }
            Ok(outs)
        })();
        self.leave_subroutine(st, saved);
        for (v, k) in outs? {
            let a = &args[k];
            let lw = self.self_type(st, a)?.0;
            let v = self.resize(v, lw, false, a.span)?;
            self.assign(st, a, v, false, span)?;
        }
        Ok(())
    }
}
