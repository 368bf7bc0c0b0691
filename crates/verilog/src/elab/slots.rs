//! Operations on slot values ([`SlotVal`]) during symbolic execution: splitting, writing,
//! reading with unwritten bits filled in, and merging the states of two branches.

use hypermut_ir::{ExprId, Span};

use crate::error::DResult;

use super::elaborator::Elab;
use super::env::{Fill, ProcState, Seg, SlotVal};
use super::scope::Slot;
use super::value::V;

impl Elab<'_> {
    /// Splits segments so that a boundary falls at each of `cuts`.
    fn split_at(&mut self, sv: &SlotVal, cuts: &[u32], span: Span) -> DResult<Vec<(u32, Seg)>> {
        let mut out = Vec::new();
        let mut at = 0;
        for s in &sv.segs {
            let w = s.width();
            let mut pieces: Vec<u32> = cuts
                .iter()
                .copied()
                .filter(|c| *c > at && *c < at + w)
                .collect();
            pieces.sort_unstable();
            pieces.dedup();
            let mut lo = at;
            for c in pieces.into_iter().chain(std::iter::once(at + w)) {
                let len = c - lo;
                let piece = match s {
                    Seg::Hold(_) => Seg::Hold(len),
                    Seg::Val(e, _) => {
                        if len == w {
                            *s
                        } else {
                            let v = V {
                                e: *e,
                                w,
                                signed: false,
                                boolean: false,
                            };
                            let p = self.slice(v, lo - at, len, span)?;
                            Seg::Val(p.e, len)
                        }
                    }
                };
                out.push((lo, piece));
                lo = c;
            }
            at += w;
        }
        Ok(out)
    }

    /// Joins adjacent unwritten runs; collapses fully written values into one.
    fn normalise(&mut self, segs: Vec<Seg>, span: Span) -> DResult<SlotVal> {
        let mut out: Vec<Seg> = Vec::new();
        for s in segs {
            if let (Some(Seg::Hold(a)), Seg::Hold(b)) = (out.last().copied(), s) {
                out.pop();
                out.push(Seg::Hold(a + b));
            } else {
                out.push(s);
            }
        }
        if out.len() > 1 && out.iter().all(|s| matches!(s, Seg::Val(..))) {
            let parts: Vec<V> = out
                .iter()
                .map(|s| match s {
                    Seg::Val(e, w) => V {
                        e: *e,
                        w: *w,
                        signed: false,
                        boolean: false,
                    },
                    Seg::Hold(w) => V {
                        e: ExprId(0),
                        w: *w,
                        signed: false,
                        boolean: false,
                    },
                })
                .collect();
            let v = self.concat_lsb_first(&parts, span)?;
            return Ok(SlotVal::full(v));
        }
        Ok(SlotVal { segs: out })
    }

    /// `sv` with bits `lo..lo+v.w` replaced by `v` (bits beyond the slot are dropped).
    pub(crate) fn sv_write(&mut self, sv: &SlotVal, lo: u32, v: V, span: Span) -> DResult<SlotVal> {
        let total = sv.width();
        if lo >= total {
            return Ok(sv.clone());
        }
        let len = v.w.min(total - lo);
        let v = self.slice(v, 0, len, span)?;
        let pieces = self.split_at(sv, &[lo, lo + len], span)?;
        let mut segs = Vec::new();
        let mut placed = false;
        for (at, s) in pieces {
            if at >= lo && at < lo + len {
                if !placed {
                    segs.push(Seg::Val(v.e, len));
                    placed = true;
                }
            } else {
                segs.push(s);
            }
        }
        self.normalise(segs, span)
    }

    /// The full value of `sv`, unwritten bits filled in for slot `slot` of state `st`.
    pub(crate) fn sv_read(
        &mut self,
        st: &ProcState,
        slot: Slot,
        sv: &SlotVal,
        fill: Fill,
        span: Span,
    ) -> DResult<V> {
        let mut parts = Vec::new();
        let mut at = 0;
        for s in &sv.segs {
            match *s {
                Seg::Val(e, w) => parts.push(V {
                    e,
                    w,
                    signed: false,
                    boolean: false,
                }),
                Seg::Hold(w) => parts.push(self.unwritten(st, slot, at, w, fill, span)?),
            }
            at += s.width();
        }
        self.concat_lsb_first(&parts, span)
    }

    /// Bits `lo..lo+len` (within the slot) of `sv`, unwritten bits filled in.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn sv_read_range(
        &mut self,
        st: &ProcState,
        slot: Slot,
        sv: &SlotVal,
        lo: u32,
        len: u32,
        fill: Fill,
        span: Span,
    ) -> DResult<V> {
        let mut parts = Vec::new();
        let mut at = 0;
        for s in &sv.segs {
            let w = s.width();
            let a = at.max(lo);
            let b = (at + w).min(lo + len);
            if a < b {
                match *s {
                    Seg::Val(e, _) => {
                        let v = V {
                            e,
                            w,
                            signed: false,
                            boolean: false,
                        };
                        parts.push(self.slice(v, a - at, b - a, span)?);
                    }
                    Seg::Hold(_) => parts.push(self.unwritten(st, slot, a, b - a, fill, span)?),
                }
            }
            at += w;
        }
        self.concat_lsb_first(&parts, span)
    }

    /// Merges the values of a slot after the two branches of a condition `c`; unwritten bits
    /// written on the other branch are filled in with `fill`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn sv_merge(
        &mut self,
        st: &ProcState,
        slot: Slot,
        c: ExprId,
        a: &SlotVal,
        b: &SlotVal,
        fill: Fill,
        span: Span,
    ) -> DResult<SlotVal> {
        if a == b {
            return Ok(a.clone());
        }
        let mut cuts = Vec::new();
        let mut at = 0;
        for s in &a.segs {
            at += s.width();
            cuts.push(at);
        }
        at = 0;
        for s in &b.segs {
            at += s.width();
            cuts.push(at);
        }
        let pa = self.split_at(a, &cuts, span)?;
        let pb = self.split_at(b, &cuts, span)?;
        let mut segs = Vec::new();
        for ((lo, x), (_, y)) in pa.into_iter().zip(pb) {
            let w = match x {
                Seg::Val(_, w) | Seg::Hold(w) => w,
            };
            let seg = match (x, y) {
                (Seg::Hold(_), Seg::Hold(_)) => Seg::Hold(w),
                (x, y) if x == y => x,
                (x, y) => {
                    let xv = self.seg_value(st, slot, lo, x, fill, span)?;
                    let yv = self.seg_value(st, slot, lo, y, fill, span)?;
                    let m = self.ite(c, xv, yv, span)?;
                    Seg::Val(m.e, w)
                }
            };
            segs.push(seg);
        }
        self.normalise(segs, span)
    }

    fn seg_value(
        &mut self,
        st: &ProcState,
        slot: Slot,
        lo: u32,
        s: Seg,
        fill: Fill,
        span: Span,
    ) -> DResult<V> {
        match s {
            Seg::Val(e, w) => Ok(V {
                e,
                w,
                signed: false,
                boolean: false,
            }),
            Seg::Hold(w) => self.unwritten(st, slot, lo, w, fill, span),
        }
    }

    /// Merges two states after the branches of condition `c` (`then` into `st`).
    pub(crate) fn merge_states(
        &mut self,
        c: ExprId,
        then: ProcState,
        st: &mut ProcState,
        span: Span,
    ) -> DResult<()> {
        let ProcState {
            vals,
            nba,
            nba_mask,
            ..
        } = then;
        for (which, map_then) in [(0, vals), (1, nba), (2, nba_mask)] {
            let keys: Vec<Slot> = {
                let own = match which {
                    0 => &st.vals,
                    1 => &st.nba,
                    _ => &st.nba_mask,
                };
                let mut k: Vec<Slot> = map_then.keys().chain(own.keys()).copied().collect();
                k.sort_unstable();
                k.dedup();
                k
            };
            for slot in keys {
                let w = self.slot_width(slot);
                let a = map_then
                    .get(&slot)
                    .cloned()
                    .unwrap_or_else(|| SlotVal::hold(w));
                let b = {
                    let own = match which {
                        0 => &st.vals,
                        1 => &st.nba,
                        _ => &st.nba_mask,
                    };
                    own.get(&slot).cloned().unwrap_or_else(|| SlotVal::hold(w))
                };
                if a == b {
                    continue;
                }
                let fill = if which == 2 || (which == 1 && st.mixed.contains(&slot)) {
                    Fill::Zero
                } else {
                    Fill::Merge
                };
                let m = self.sv_merge(st, slot, c, &a, &b, fill, span)?;
                let own = match which {
                    0 => &mut st.vals,
                    1 => &mut st.nba,
                    _ => &mut st.nba_mask,
                };
                own.insert(slot, m);
            }
        }
        Ok(())
    }

    /// Width of a slot.
    pub(crate) fn slot_width(&self, slot: Slot) -> u32 {
        self.sigs[slot.sig.0 as usize].width
    }
}
