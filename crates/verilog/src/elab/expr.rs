//! Lowering of expressions to IR, with Verilog's width and signedness rules.
//!
//! `x` and `z` bits of literals are constant 0 (or, with `x_as_input`, bits of a fresh
//! input); bit selects, part selects and memory reads outside the declared range read 0.

use hypermut_ir::{BinOp, ExprKind as IrKind, Role, Span, Type, UnOp};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use crate::ast::{BinaryOp, Expr, ExprKind, Ident, UnaryOp};
use crate::error::{DResult, Diag};

use super::elaborator::Elab;
use super::env::{Fill, Mode, ProcState};
use super::scope::{Binding, SigId, SigKind, Slot};
use super::value::{MAX_WIDTH, V};
use super::width::path_name;

/// How a vector's bit indices map to positions: `pos = dir * index + base`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// `msb` of the declaration.
    pub msb: i64,
    /// `lsb` of the declaration.
    pub lsb: i64,
}

impl Layout {
    /// `[w-1:0]`.
    pub fn plain(w: u32) -> Layout {
        Layout {
            msb: w as i64 - 1,
            lsb: 0,
        }
    }

    /// Position of index `i` (may be out of range).
    pub fn pos(&self, i: i64) -> i64 {
        if self.msb >= self.lsb {
            i - self.lsb
        } else {
            self.lsb - i
        }
    }

    /// Whether the range is descending (`[7:0]`).
    pub fn descending(&self) -> bool {
        self.msb >= self.lsb
    }
}

impl<'a> Elab<'a> {
    /// What a (possibly hierarchical) name stands for.
    pub(crate) fn lookup(&self, st: &ProcState, path: &[Ident]) -> DResult<Binding<'a>> {
        let Some(first) = path.first() else {
            return Err(Diag::new(
                Span {
                    file: hypermut_ir::FileId(0),
                    start: 0,
                    end: 0,
                },
                "empty name",
            ));
        };
        if path.len() == 1 {
            if let Some(f) = st.frames.last() {
                if let Some(s) = f.names.get(&first.name) {
                    return Ok(Binding::Sig(*s));
                }
            }
        }
        let Some(mut b) = self.find_name(st.scope, &first.name).cloned() else {
            return Err(Diag::new(
                first.span,
                format!("`{}` is not declared", first.name),
            ));
        };
        for seg in &path[1..] {
            let Binding::Scope(s) = b else {
                return Err(Diag::new(
                    seg.span,
                    format!("`{}` has no member `{}`", path_name(path), seg.name),
                ));
            };
            b = self.scopes[s.0 as usize]
                .names
                .get(&seg.name)
                .cloned()
                .ok_or_else(|| {
                    Diag::new(
                        seg.span,
                        format!("`{}` is not declared in `{}`", seg.name, path_name(path)),
                    )
                })?;
        }
        Ok(b)
    }

    /// The memory signal `base` names, if it is a plain identifier of a memory.
    pub(crate) fn memory_of(&mut self, st: &mut ProcState, base: &Expr) -> DResult<Option<SigId>> {
        if let ExprKind::Ident(path) = &base.kind {
            if let Binding::Sig(s) = self.lookup(st, path)? {
                if self.sigs[s.0 as usize].mem.is_some() {
                    return Ok(Some(s));
                }
            }
        }
        Ok(None)
    }

    /// An expression evaluated at `max(self width, target)` bits (or booleans for 1-bit
    /// logical results); callers truncate to their target.
    pub(crate) fn rvalue(
        &mut self,
        st: &mut ProcState,
        e: &Expr,
        target: Option<u32>,
    ) -> DResult<V> {
        let (w, s) = self.self_type(st, e)?;
        let w = w.max(target.unwrap_or(0));
        self.eval(st, e, w, s)
    }

    /// An expression used as a condition.
    pub(crate) fn cond_bool(
        &mut self,
        st: &mut ProcState,
        e: &Expr,
    ) -> DResult<hypermut_ir::ExprId> {
        let v = self.rvalue(st, e, None)?;
        self.as_bool(v, e.span)
    }

    /// The current value of a whole slot as seen by `st`.
    pub(crate) fn read_slot(&mut self, st: &ProcState, slot: Slot, span: Span) -> DResult<V> {
        let sig = &self.sigs[slot.sig.0 as usize];
        let local = sig.kind == SigKind::Local;
        let (w, signed) = (sig.width, sig.signed);
        if st.mode == Mode::Const && !local {
            return Err(Diag::new(
                span,
                format!(
                    "`{}` is not a constant",
                    self.sigs[slot.sig.0 as usize].name
                ),
            ));
        }
        let mut v = match st.vals.get(&slot).cloned() {
            Some(sv) => self.sv_read(st, slot, &sv, Fill::Read, span)?,
            None => self.unwritten(st, slot, 0, w, Fill::Read, span)?,
        };
        v.signed = signed;
        Ok(v)
    }

    /// Bits at positions `lo..lo+len` of a slot as seen by `st` (positions outside the
    /// slot read 0); only the drivers of those bits are evaluated.
    pub(crate) fn read_bits(
        &mut self,
        st: &ProcState,
        slot: Slot,
        lo: i64,
        len: u32,
        span: Span,
    ) -> DResult<V> {
        let w = self.slot_width(slot) as i64;
        if st.mode == Mode::Const && self.sigs[slot.sig.0 as usize].kind != SigKind::Local {
            return Err(Diag::new(
                span,
                format!(
                    "`{}` is not a constant",
                    self.sigs[slot.sig.0 as usize].name
                ),
            ));
        }
        let a = lo.max(0);
        let b = (lo + len as i64).min(w);
        if a >= b {
            return Ok(self.zero(len, span));
        }
        let (a32, n) = (a as u32, (b - a) as u32);
        let inner = match st.vals.get(&slot).cloned() {
            Some(sv) => self.sv_read_range(st, slot, &sv, a32, n, Fill::Read, span)?,
            None => self.unwritten(st, slot, a32, n, Fill::Read, span)?,
        };
        // Re-place the in-range bits at their offset within the requested window.
        let below = (a - lo) as u32;
        let above = len - below - n;
        let mut parts = Vec::new();
        if below > 0 {
            parts.push(self.zero(below, span));
        }
        parts.push(inner);
        if above > 0 {
            parts.push(self.zero(above, span));
        }
        self.concat_lsb_first(&parts, span)
    }

    /// For a constant select on a plain signal or a constant memory word: the slot and its
    /// layout (so that only the selected bits are read).
    fn direct_slot(&mut self, st: &mut ProcState, base: &Expr) -> DResult<Option<(Slot, Layout)>> {
        match &base.kind {
            ExprKind::Ident(path) => match self.lookup(st, path)? {
                Binding::Sig(s) if self.sigs[s.0 as usize].mem.is_none() => {
                    let sig = &self.sigs[s.0 as usize];
                    Ok(Some((
                        Slot { sig: s, word: 0 },
                        Layout {
                            msb: sig.msb,
                            lsb: sig.lsb,
                        },
                    )))
                }
                _ => Ok(None),
            },
            ExprKind::Index(mem, idx) => {
                let Some(m) = self.memory_of(st, mem)? else {
                    return Ok(None);
                };
                let iv = self.rvalue(st, idx, None)?;
                let Some(i) = self.const_i64(iv) else {
                    return Ok(None);
                };
                let sig = self.sigs[m.0 as usize].clone();
                match sig.word_of(i) {
                    Some(k) => Ok(Some((
                        Slot { sig: m, word: k },
                        Layout {
                            msb: sig.msb,
                            lsb: sig.lsb,
                        },
                    ))),
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// Evaluates `e` at exactly `w` bits in an expression of signedness `s`.
    pub(crate) fn eval(&mut self, st: &mut ProcState, e: &Expr, w: u32, s: bool) -> DResult<V> {
        if w == 0 || w > MAX_WIDTH {
            return Err(Diag::new(e.span, format!("unsupported width {w}")));
        }
        let span = e.span;
        match &e.kind {
            ExprKind::Number(n) => {
                let nat = n.width.unwrap_or(n.natural);
                let mut v = self.bits_const(nat, n.value.clone(), span);
                let unknown = &n.xmask | &n.zmask;
                if !n.zmask.is_zero() && !self.in_case_label && !self.opts.x_as_input {
                    self.warn(
                        span,
                        "`z` bits read as 0 (tri-state: see docs/formats.md §11.7)",
                    );
                }
                if !unknown.is_zero() && self.opts.x_as_input {
                    self.x_inputs += 1;
                    let loc = self.sys.sources.location(span);
                    let name = format!(
                        "x.{}:{}:{}#{}",
                        loc.file, loc.line, loc.column, self.x_inputs
                    );
                    let var = self
                        .sys
                        .add_var(name, Type::ubv(nat), Role::Input, Some(span));
                    let r = self.sys.var_ref(var, Some(span));
                    let m = self.bits_const(nat, unknown.clone(), span);
                    let known_mask = (BigUint::one() << nat) - BigUint::one() - &unknown;
                    let km = self.bits_const(nat, known_mask, span);
                    let known = self.node(IrKind::Binary(BinOp::And, v.e, km.e), span)?;
                    let free = self.node(IrKind::Binary(BinOp::And, r, m.e), span)?;
                    v.e = self.node(IrKind::Binary(BinOp::Or, known, free), span)?;
                }
                v.signed = n.signed;
                self.extend(v, w, s, span)
            }
            ExprKind::Str(text) => {
                let mut bits = BigUint::zero();
                for b in text.bytes() {
                    bits = (bits << 8) | BigUint::from(b);
                }
                let v = self.bits_const((8 * text.len() as u32).max(8), bits, span);
                self.extend(v, w, s, span)
            }
            ExprKind::Ident(path) => {
                let v = self.ident_value(st, path, span)?;
                self.extend(v, w, s, span)
            }
            ExprKind::Index(base, idx) => {
                let v = self.index_value(st, base, idx, span)?;
                self.extend(v, w, s, span)
            }
            ExprKind::Range(base, m, l) => {
                let m = self.index_const(st, m)?;
                let l = self.index_const(st, l)?;
                let v = if let Some((slot, layout)) = self.direct_slot(st, base)? {
                    let (pm, pl) = (layout.pos(m), layout.pos(l));
                    let len = (pm - pl).unsigned_abs() + 1;
                    self.read_bits(st, slot, pm.min(pl), len as u32, span)?
                } else {
                    let (bv, layout) = self.select_base(st, base)?;
                    let (pm, pl) = (layout.pos(m), layout.pos(l));
                    let lo = pm.min(pl);
                    let len = (pm - pl).unsigned_abs() + 1;
                    self.const_slice(bv, lo, len as u32, span)?
                };
                self.extend(v, w, s, span)
            }
            ExprKind::IndexedRange {
                base,
                start,
                width,
                up,
            } => {
                let len = self.index_const(st, width)?;
                if len < 1 || len > MAX_WIDTH as i64 {
                    return Err(Diag::new(width.span, "invalid part-select width"));
                }
                let len = len as u32;
                let sv = self.rvalue(st, start, None)?;
                let direct = match self.const_i64(sv) {
                    Some(_) => self.direct_slot(st, base)?,
                    None => None,
                };
                let v = match (self.const_i64(sv), direct) {
                    (Some(i), Some((slot, layout))) => {
                        let (a, b) = if *up {
                            (i, i + len as i64 - 1)
                        } else {
                            (i - len as i64 + 1, i)
                        };
                        let lo = layout.pos(a).min(layout.pos(b));
                        self.read_bits(st, slot, lo, len, span)?
                    }
                    (Some(i), None) => {
                        let (bv, layout) = self.select_base(st, base)?;
                        let (a, b) = if *up {
                            (i, i + len as i64 - 1)
                        } else {
                            (i - len as i64 + 1, i)
                        };
                        let lo = layout.pos(a).min(layout.pos(b));
                        self.const_slice(bv, lo, len, span)?
                    }
                    (None, _) => {
                        let (bv, layout) = self.select_base(st, base)?;
                        // Lowest bit position as a function of the start index.
                        let low_index_offset: i64 = match (*up, layout.descending()) {
                            (true, true) => 0,
                            (false, true) => -(len as i64 - 1),
                            (true, false) => len as i64 - 1,
                            (false, false) => 0,
                        };
                        self.dynamic_slice(bv, layout, sv, low_index_offset, len, span)?
                    }
                };
                self.extend(v, w, s, span)
            }
            ExprKind::Unary(op, a) => self.unary(st, *op, a, w, s, span),
            ExprKind::Binary(op, a, b) => self.binary(st, *op, a, b, w, s, span),
            ExprKind::Cond(c, a, b) => {
                let c = self.cond_bool(st, c)?;
                if let Some(hypermut_ir::Value::Bool(k)) = self.const_value(c) {
                    return self.eval(st, if k { a } else { b }, w, s);
                }
                let a = self.eval(st, a, w, s)?;
                let b = self.eval(st, b, w, s)?;
                let mut r = self.ite(c, a, b, span)?;
                r.signed = s;
                Ok(r)
            }
            ExprKind::Concat(items) => {
                let v = self.concat_items(st, items, span)?;
                self.extend(v, w, s, span)
            }
            ExprKind::Repeat(n, items) => {
                let n = self.index_const(st, n)?;
                if n < 1 {
                    return Err(Diag::new(span, "replication count must be positive"));
                }
                let one = self.concat_items(st, items, span)?;
                if one.w as i64 * n > MAX_WIDTH as i64 {
                    return Err(Diag::new(span, "replication is too wide"));
                }
                let parts = vec![one; n as usize];
                let v = self.concat_lsb_first(&parts, span)?;
                self.extend(v, w, s, span)
            }
            ExprKind::Call(name, args) if self.is_nd_call(st, name) => {
                let nd = Ident {
                    name: "$ND".into(),
                    span: name.span,
                };
                self.sys_call(st, &nd, args, w, s, span)
            }
            ExprKind::Call(name, args) => {
                let v = self.call_function(st, name, args, span)?;
                self.extend(v, w, s, span)
            }
            ExprKind::SysCall(name, args) => self.sys_call(st, name, args, w, s, span),
        }
    }

    /// `{a, b, c}` with each item self-determined.
    fn concat_items(&mut self, st: &mut ProcState, items: &[Expr], span: Span) -> DResult<V> {
        let mut parts = Vec::new();
        for it in items.iter().rev() {
            if self.self_type(st, it)?.0 == 0 {
                continue;
            }
            let v = self.rvalue(st, it, None)?;
            parts.push(self.as_bits(v, it.span)?);
        }
        self.concat_lsb_first(&parts, span)
    }

    /// The value of a name.
    fn ident_value(&mut self, st: &mut ProcState, path: &[Ident], span: Span) -> DResult<V> {
        match self.lookup(st, path)? {
            Binding::Sig(s) => {
                if self.sigs[s.0 as usize].mem.is_some() {
                    return Err(Diag::new(
                        span,
                        format!("memory `{}` must be indexed", path_name(path)),
                    ));
                }
                self.read_slot(st, Slot { sig: s, word: 0 }, span)
            }
            Binding::Param(v) => {
                // The constant, re-spanned to this use.
                let val = self.const_value(v.e).ok_or_else(|| {
                    Diag::new(span, "internal error: parameter is not a constant")
                })?;
                let ty = self.sys.ty(v.e);
                let e = self.sys.constant(ty, val, Some(span));
                Ok(V { e, ..v })
            }
            _ => Err(Diag::new(
                span,
                format!("`{}` is not a value", path_name(path)),
            )),
        }
    }

    /// The vector a select applies to and its index layout.
    fn select_base(&mut self, st: &mut ProcState, base: &Expr) -> DResult<(V, Layout)> {
        match &base.kind {
            ExprKind::Ident(path) => {
                let v = self.ident_value(st, path, base.span)?;
                let layout = match self.lookup(st, path)? {
                    Binding::Sig(s) => {
                        let sig = &self.sigs[s.0 as usize];
                        Layout {
                            msb: sig.msb,
                            lsb: sig.lsb,
                        }
                    }
                    _ => Layout::plain(v.w),
                };
                Ok((v, layout))
            }
            ExprKind::Index(mem, _) if self.memory_of(st, mem)?.is_some() => {
                let Some(s) = self.memory_of(st, mem)? else {
                    return Err(Diag::new(base.span, "internal error: memory vanished"));
                };
                let v = self.rvalue(st, base, None)?;
                let sig = &self.sigs[s.0 as usize];
                Ok((
                    v,
                    Layout {
                        msb: sig.msb,
                        lsb: sig.lsb,
                    },
                ))
            }
            _ => {
                let v = self.rvalue(st, base, None)?;
                let v = self.as_bits(v, base.span)?;
                Ok((v, Layout::plain(v.w)))
            }
        }
    }

    /// Bits `lo..lo+len` of `v` where positions outside `0..v.w` read 0.
    pub(crate) fn const_slice(&mut self, v: V, lo: i64, len: u32, span: Span) -> DResult<V> {
        if lo >= 0 {
            let lo = lo.min(u32::MAX as i64) as u32;
            return self.slice(v, lo, len, span);
        }
        let below = lo.unsigned_abs().min(len as u64) as u32;
        if below >= len {
            return Ok(self.zero(len, span));
        }
        let upper = self.slice(v, 0, len - below, span)?;
        let zeros = self.zero(below, span);
        self.concat2(upper, zeros, span)
    }

    /// `len` bits of `v` starting at the position of index `start + low_index_offset`,
    /// for a non-constant `start`; out-of-range bits read 0.
    fn dynamic_slice(
        &mut self,
        v: V,
        layout: Layout,
        start: V,
        low_index_offset: i64,
        len: u32,
        span: Span,
    ) -> DResult<V> {
        let v = self.as_bits(v, span)?;
        let start = self.as_bits(start, span)?;
        if layout.descending() && layout.lsb == 0 && low_index_offset == 0 && !start.signed {
            // The common `v[i]` / `v[i +: n]` on `[w-1:0]`: positions are never negative, so
            // a shift by the index itself will do (zeros come in from the top).
            let ext = self.resize(v, v.w + len, false, span)?;
            let shifted = self.node(IrKind::Binary(BinOp::Shr, ext.e, start.e), span)?;
            let sh = V { e: shifted, ..ext };
            return self.slice(sh, 0, len, span);
        }
        // Work width: enough for the index, the offsets and the sign.
        let bits_w = 64 - (v.w as u64 + len as u64).leading_zeros();
        let cw = start.w.max(bits_w).max(34) + 2;
        let idx = self.resize(start, cw, start.signed, span)?;
        // pos(low index) = dir * (start + off) + base; shift amount = pos + len (padding).
        let (dir_neg, base) = if layout.descending() {
            (false, -layout.lsb)
        } else {
            (true, layout.lsb)
        };
        let k =
            base + if dir_neg {
                -low_index_offset
            } else {
                low_index_offset
            } + len as i64;
        let kc = self.signed_const(cw, k, span);
        let amount = if dir_neg {
            self.node(IrKind::Binary(BinOp::Sub, kc.e, idx.e), span)?
        } else {
            self.node(IrKind::Binary(BinOp::Add, idx.e, kc.e), span)?
        };
        // ext = v ++ 0^len, so that negative positions read zeros.
        let pad = self.zero(len, span);
        let ext = self.concat2(v, pad, span)?;
        let shifted = self.node(IrKind::Binary(BinOp::Shr, ext.e, amount), span)?;
        let sh = V { e: shifted, ..ext };
        self.slice(sh, 0, len, span)
    }

    /// A `w`-bit two's-complement constant.
    pub(crate) fn signed_const(&mut self, w: u32, k: i64, span: Span) -> V {
        let val = hypermut_ir::Value::bits_from_int(w, &num_bigint::BigInt::from(k));
        let e = self.sys.constant(Type::ubv(w), val, Some(span));
        V {
            e,
            w,
            signed: false,
            boolean: false,
        }
    }

    /// `base[idx]`: a memory word or a bit.
    fn index_value(
        &mut self,
        st: &mut ProcState,
        base: &Expr,
        idx: &Expr,
        span: Span,
    ) -> DResult<V> {
        if let Some(mem) = self.memory_of(st, base)? {
            let iv = self.rvalue(st, idx, None)?;
            return self.memory_read(st, mem, iv, span);
        }
        let iv = self.rvalue(st, idx, None)?;
        if let Some(i) = self.const_i64(iv) {
            if let Some((slot, layout)) = self.direct_slot(st, base)? {
                return self.read_bits(st, slot, layout.pos(i), 1, span);
            }
        }
        let (bv, layout) = self.select_base(st, base)?;
        match self.const_i64(iv) {
            Some(i) => self.const_slice(bv, layout.pos(i), 1, span),
            None => self.dynamic_slice(bv, layout, iv, 0, 1, span),
        }
    }

    /// Word `addr` of memory `mem` (0 outside the declared range).
    pub(crate) fn memory_read(
        &mut self,
        st: &mut ProcState,
        mem: SigId,
        addr: V,
        span: Span,
    ) -> DResult<V> {
        let sig = self.sigs[mem.0 as usize].clone();
        let Some((lo, n)) = sig.mem else {
            return Err(Diag::new(span, "internal error: not a memory"));
        };
        if let Some(i) = self.const_i64(addr) {
            return match sig.word_of(i) {
                Some(k) => self.read_slot(st, Slot { sig: mem, word: k }, span),
                None => Ok(self.zero(sig.width, span)),
            };
        }
        let mut acc = self.zero(sig.width, span);
        for k in (0..n).rev() {
            let word = self.read_slot(st, Slot { sig: mem, word: k }, span)?;
            let hit = self.index_eq(addr, lo + k as i64, span)?;
            acc = self.ite(hit, word, acc, span)?;
        }
        acc.signed = sig.signed;
        Ok(acc)
    }

    /// `addr == k` for a (possibly signed) address value.
    pub(crate) fn index_eq(&mut self, addr: V, k: i64, span: Span) -> DResult<hypermut_ir::ExprId> {
        let addr = self.as_bits(addr, span)?;
        // Constants outside the address's range can never match.
        let (min, max) = if addr.signed {
            let h = 1i128 << (addr.w.min(100) - 1);
            (-h, h - 1)
        } else {
            (0, (1i128 << addr.w.min(100)) - 1)
        };
        if (k as i128) < min || (k as i128) > max {
            return Ok(self.bool_const(false, span).e);
        }
        let c = self.signed_const(addr.w, k, span);
        self.node(IrKind::Binary(BinOp::Eq, addr.e, c.e), span)
    }

    /// Unary operators.
    fn unary(
        &mut self,
        st: &mut ProcState,
        op: UnaryOp,
        a: &Expr,
        w: u32,
        s: bool,
        span: Span,
    ) -> DResult<V> {
        match op {
            UnaryOp::Plus => self.eval(st, a, w, s),
            UnaryOp::Minus | UnaryOp::BitNot => {
                let v = self.eval(st, a, w, s)?;
                let v = self.as_bits(v, span)?;
                let u = if op == UnaryOp::Minus {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                let e = self.node(IrKind::Unary(u, v.e), span)?;
                Ok(V {
                    e,
                    w,
                    signed: s,
                    boolean: false,
                })
            }
            UnaryOp::LogNot => {
                let c = self.cond_bool(st, a)?;
                let e = self.node(IrKind::Unary(UnOp::Not, c), span)?;
                let b = self.bool_value(e);
                self.extend(b, w, s, span)
            }
            _ => {
                let v = self.rvalue(st, a, None)?;
                let v = self.as_bits(v, a.span)?;
                let e = match op {
                    UnaryOp::RedAnd | UnaryOp::RedNand => {
                        let ones =
                            self.bits_const(v.w, (BigUint::one() << v.w) - BigUint::one(), span);
                        self.node(IrKind::Binary(BinOp::Eq, v.e, ones.e), span)?
                    }
                    UnaryOp::RedOr | UnaryOp::RedNor => {
                        let z = self.zero(v.w, span);
                        self.node(IrKind::Binary(BinOp::Ne, v.e, z.e), span)?
                    }
                    _ => {
                        let mut acc = self.slice(v, 0, 1, span)?.e;
                        for i in 1..v.w {
                            let b = self.slice(v, i, 1, span)?.e;
                            acc = self.node(IrKind::Binary(BinOp::Xor, acc, b), span)?;
                        }
                        let one = self.small_const(1, 1, span);
                        self.node(IrKind::Binary(BinOp::Eq, acc, one.e), span)?
                    }
                };
                let e = if matches!(op, UnaryOp::RedNand | UnaryOp::RedNor | UnaryOp::RedXnor) {
                    self.node(IrKind::Unary(UnOp::Not, e), span)?
                } else {
                    e
                };
                let b = self.bool_value(e);
                self.extend(b, w, s, span)
            }
        }
    }

    /// Binary operators.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        st: &mut ProcState,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        w: u32,
        s: bool,
        span: Span,
    ) -> DResult<V> {
        use BinaryOp::*;
        match op {
            Add | Sub | Mul | Div | Mod | And | Or | Xor | Xnor => {
                let x = self.eval(st, a, w, s)?;
                let y = self.eval(st, b, w, s)?;
                let x = self.as_bits(x, span)?;
                let y = self.as_bits(y, span)?;
                let ir = match op {
                    Add => BinOp::Add,
                    Sub => BinOp::Sub,
                    Mul => BinOp::Mul,
                    Div => BinOp::Div,
                    Mod => BinOp::Mod,
                    And => BinOp::And,
                    Or => BinOp::Or,
                    _ => BinOp::Xor,
                };
                let e = if s && matches!(op, Div | Mod) {
                    let xs = self.node(IrKind::Cast(x.e, Type::sbv(w)), span)?;
                    let ys = self.node(IrKind::Cast(y.e, Type::sbv(w)), span)?;
                    let r = self.node(IrKind::Binary(ir, xs, ys), span)?;
                    self.node(IrKind::Cast(r, Type::ubv(w)), span)?
                } else {
                    self.node(IrKind::Binary(ir, x.e, y.e), span)?
                };
                let e = if op == Xnor {
                    self.node(IrKind::Unary(UnOp::Not, e), span)?
                } else {
                    e
                };
                Ok(V {
                    e,
                    w,
                    signed: s,
                    boolean: false,
                })
            }
            Pow => {
                let x = self.eval(st, a, w, s)?;
                let y = self.rvalue(st, b, None)?;
                let (Some(xb), Some(yi)) = (self.const_int(x), self.const_int(y)) else {
                    return Err(Diag::new(span, "`**` is only supported on constants"));
                };
                let Some(yi) = yi.to_u32() else {
                    return Err(Diag::new(span, "negative or huge exponent in `**`"));
                };
                let m = num_bigint::BigInt::from(1u8) << w;
                let r = xb.modpow(&num_bigint::BigInt::from(yi), &m);
                let val = hypermut_ir::Value::bits_from_int(w, &r);
                let e = self.sys.constant(Type::ubv(w), val, Some(span));
                Ok(V {
                    e,
                    w,
                    signed: s,
                    boolean: false,
                })
            }
            LogAnd | LogOr => {
                let x = self.cond_bool(st, a)?;
                // Short-circuit constants (keeps guarded out-of-range reads away).
                if let Some(hypermut_ir::Value::Bool(k)) = self.const_value(x) {
                    if (op == LogAnd && !k) || (op == LogOr && k) {
                        let c = self.bool_const(k, span);
                        return self.extend(c, w, s, span);
                    }
                    let y = self.cond_bool(st, b)?;
                    let r = self.bool_value(y);
                    return self.extend(r, w, s, span);
                }
                let y = self.cond_bool(st, b)?;
                let ir = if op == LogAnd { BinOp::And } else { BinOp::Or };
                let e = self.node(IrKind::Binary(ir, x, y), span)?;
                let r = self.bool_value(e);
                self.extend(r, w, s, span)
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                let (wa, sa) = self.self_type(st, a)?;
                let (wb, sb) = self.self_type(st, b)?;
                let cw = wa.max(wb);
                let cs = sa && sb;
                let x = self.eval(st, a, cw, cs)?;
                let y = self.eval(st, b, cw, cs)?;
                let (x, y) = if x.boolean && y.boolean && matches!(op, Eq | Ne) {
                    (x, y)
                } else {
                    (self.as_bits(x, a.span)?, self.as_bits(y, b.span)?)
                };
                let ir = match op {
                    Eq => BinOp::Eq,
                    Ne => BinOp::Ne,
                    Lt => BinOp::Lt,
                    Le => BinOp::Le,
                    Gt => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                let e = if cs && !matches!(op, Eq | Ne) {
                    let xs = self.node(IrKind::Cast(x.e, Type::sbv(cw)), a.span)?;
                    let ys = self.node(IrKind::Cast(y.e, Type::sbv(cw)), b.span)?;
                    self.node(IrKind::Binary(ir, xs, ys), span)?
                } else {
                    self.node(IrKind::Binary(ir, x.e, y.e), span)?
                };
                let r = self.bool_value(e);
                self.extend(r, w, s, span)
            }
            Shl | Shr | Ashr => {
                let x = self.eval(st, a, w, s)?;
                let x = self.as_bits(x, span)?;
                let y = self.rvalue(st, b, None)?;
                let y = self.as_bits(y, b.span)?;
                let e = if op == Ashr && s {
                    let xs = self.node(IrKind::Cast(x.e, Type::sbv(w)), span)?;
                    let r = self.node(IrKind::Binary(BinOp::Shr, xs, y.e), span)?;
                    self.node(IrKind::Cast(r, Type::ubv(w)), span)?
                } else {
                    let ir = if op == Shl { BinOp::Shl } else { BinOp::Shr };
                    self.node(IrKind::Binary(ir, x.e, y.e), span)?
                };
                Ok(V {
                    e,
                    w,
                    signed: s,
                    boolean: false,
                })
            }
        }
    }

    /// System functions: `$signed`, `$unsigned`, `$ND` (VIS choice), `$clog2`.
    fn sys_call(
        &mut self,
        st: &mut ProcState,
        name: &Ident,
        args: &[Expr],
        w: u32,
        s: bool,
        span: Span,
    ) -> DResult<V> {
        match name.name.as_str() {
            "$signed" | "$unsigned" => {
                let [a] = args else {
                    return Err(Diag::new(
                        span,
                        format!("`{}` takes one argument", name.name),
                    ));
                };
                let mut v = self.rvalue(st, a, None)?;
                v = self.as_bits(v, a.span)?;
                v.signed = name.name == "$signed";
                self.extend(v, w, s, span)
            }
            "$ND" => {
                if args.is_empty() {
                    return Err(Diag::new(span, "`$ND` needs at least one alternative"));
                }
                let (mw, ms) = self.self_type(
                    st,
                    &Expr {
                        kind: ExprKind::SysCall(name.clone(), args.to_vec()),
                        span,
                    },
                )?;
                let mut opts = Vec::new();
                for a in args {
                    let v = self.eval(st, a, mw, ms)?;
                    opts.push(self.as_bits(v, a.span)?.e);
                }
                let e = self
                    .sys
                    .choice(opts, Some(span))
                    .map_err(|e| Diag::new(span, format!("internal typing error: {e}")))?;
                let v = V {
                    e,
                    w: mw,
                    signed: ms,
                    boolean: false,
                };
                self.extend(v, w, s, span)
            }
            "$clog2" => {
                let [a] = args else {
                    return Err(Diag::new(span, "`$clog2` takes one argument"));
                };
                let v = self.rvalue(st, a, None)?;
                let Some(n) = self.const_int(v) else {
                    return Err(Diag::new(span, "`$clog2` needs a constant argument"));
                };
                let n = n.to_biguint().unwrap_or_default();
                let r = if n <= BigUint::one() {
                    0
                } else {
                    (n - BigUint::one()).bits() as i64
                };
                let c = self.int_const(r, span);
                self.extend(c, w, s, span)
            }
            other => Err(Diag::new(
                name.span,
                format!("system function `{other}` is not supported"),
            )),
        }
    }
}
