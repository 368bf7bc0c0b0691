//! Driver analysis: which process drives which bits of each slot, and the IR variables this
//! implies (inputs for top-level input ports, state variables for bits written by clocked
//! blocks, frozen variables for bits only `initial` blocks write).

use std::collections::{BTreeMap, HashMap, HashSet};

use hypermut_ir::{Role, Span, Type, VarId};

use crate::ast::{Dir, Edge, Expr, ExprKind, Sensitivity, Stmt};
use crate::error::{DResult, Diag};

use super::elaborator::{Elab, MAX_DEPTH};
use super::env::ProcState;
use super::parts::{Class, Owner, Part, StateInfo, StateKind, TriGroup};
use super::scope::{Binding, ProcKind, ScopeId, SigId, Slot, Target};
use super::temps::{collect_block_locals, NotTemp};

/// Targets of one process: slots and bit ranges (`None` = the whole slot).
pub(crate) type Targets = Vec<(Slot, Option<(u32, u32)>, Span)>;

impl<'a> Elab<'a> {
    /// The class of process `p`.
    pub(crate) fn class(&self, p: usize) -> Class {
        match &self.procs[p].kind {
            ProcKind::Assign { .. } => Class::Comb,
            ProcKind::Initial { .. } | ProcKind::RegInit { .. } => Class::Init,
            ProcKind::Always { sens, .. } => match sens {
                Sensitivity::List(evs) if evs.iter().any(|(e, _)| *e != Edge::Level) => Class::Seq,
                _ => Class::Comb,
            },
        }
    }

    /// Runs the analysis, filling [`Elab::parts`], [`Elab::inputs`] and the state variables.
    pub(crate) fn analyse_drivers(&mut self) -> DResult<()> {
        let top = self.top.unwrap_or(ScopeId(0));
        let ports = self.ports.get(&top).cloned().unwrap_or_default();
        let mut input_slots = HashSet::new();
        let mut inouts: HashMap<Slot, VarId> = HashMap::new();
        let mut clocks = Vec::new();
        for (name, sig, dir, span) in &ports {
            if matches!(dir, Dir::Input | Dir::Inout) {
                let s = &self.sigs[sig.0 as usize];
                if s.mem.is_some() {
                    return Err(Diag::new(*span, "memory ports are not supported"));
                }
                input_slots.insert(Slot { sig: *sig, word: 0 });
                if self.clock_roots.contains(&sig.0) {
                    clocks.push(*sig);
                    continue;
                }
                let var =
                    self.sys
                        .add_var(name.clone(), Type::ubv(s.width), Role::Input, Some(*span));
                self.inputs.insert(*sig, var);
                if *dir == Dir::Inout {
                    inouts.insert(Slot { sig: *sig, word: 0 }, var);
                }
            }
        }
        // Every process's targets first: a conflict is resolved (shared temporary, tri-state
        // group) by looking at all writers of the slot.
        let mut all: Vec<Targets> = Vec::with_capacity(self.procs.len());
        for p in 0..self.procs.len() {
            let class = self.class(p);
            let mut targets = Targets::new();
            let proc = self.procs[p].clone();
            match &proc.kind {
                ProcKind::Assign { target, .. } => match target {
                    Target::Sig(s) => targets.push((Slot { sig: *s, word: 0 }, None, proc.span)),
                    Target::Expr(e, scope) => {
                        self.lvalue_targets(e, *scope, &HashSet::new(), &mut targets)?
                    }
                },
                ProcKind::Always { body, .. } | ProcKind::Initial { body } => {
                    self.stmt_targets(body, proc.scope, &HashSet::new(), &mut targets, 0)?
                }
                ProcKind::RegInit { sig, .. } => {
                    targets.push((Slot { sig: *sig, word: 0 }, None, proc.span))
                }
            }
            if class == Class::Init {
                self.init_targets.extend(targets.iter().map(|t| t.0));
                targets.clear();
            }
            all.push(targets);
        }
        let mut writers: BTreeMap<Slot, Vec<usize>> = BTreeMap::new();
        for (p, targets) in all.iter().enumerate() {
            for (slot, _, _) in targets {
                let w = writers.entry(*slot).or_default();
                if w.last() != Some(&p) {
                    w.push(p);
                }
            }
        }
        let mut owners: BTreeMap<Slot, Vec<Option<usize>>> = BTreeMap::new();
        for p in 0..self.procs.len() {
            'targets: for &(slot, range, span) in &all[p] {
                if input_slots.contains(&slot) {
                    if let Some(var) = inouts.get(&slot).copied() {
                        if self.join_inout(slot, var, p, &all[p]) {
                            continue;
                        }
                    }
                    let name = &self.sigs[slot.sig.0 as usize].name;
                    let msg = if inouts.contains_key(&slot) {
                        format!("inout port `{name}` is driven inside the module other than by tri-state assignments of the whole port (`assign {name} = en ? d : 'bz;`)")
                    } else {
                        format!("input port `{name}` is driven inside the module")
                    };
                    return Err(Diag::new(span, msg));
                }
                if self.temps.contains_key(&slot) {
                    continue;
                }
                let w = self.slot_width(slot);
                let bits = owners.entry(slot).or_insert_with(|| vec![None; w as usize]);
                let (lo, len) = range.unwrap_or((0, w));
                for b in lo..(lo + len).min(w) {
                    match bits[b as usize] {
                        Some(q) if q != p => {
                            let ws = writers.get(&slot).cloned().unwrap_or_default();
                            self.resolve_conflict(slot, p, q, span, &ws, &all)?;
                            continue 'targets;
                        }
                        _ => bits[b as usize] = Some(p),
                    }
                }
            }
        }
        for sig in clocks {
            let slot = Slot { sig, word: 0 };
            let w = self.slot_width(slot);
            self.parts.insert(
                slot,
                vec![Part {
                    lo: 0,
                    len: w,
                    owner: Owner::Clock(sig),
                }],
            );
        }
        for slot in &input_slots {
            if let Some(v) = self.inputs.get(&slot.sig).copied() {
                let w = self.slot_width(*slot);
                self.parts.insert(
                    *slot,
                    vec![Part {
                        lo: 0,
                        len: w,
                        owner: Owner::Input(v),
                    }],
                );
            }
        }
        let init_only: Vec<Slot> = self
            .init_targets
            .iter()
            .filter(|s| !owners.contains_key(s) && !input_slots.contains(s))
            .copied()
            .collect();
        for s in init_only {
            let w = self.slot_width(s);
            owners.insert(s, vec![None; w as usize]);
        }
        for (slot, bits) in owners {
            if self.temps.contains_key(&slot) {
                continue; // no register: see `place_shared_parts`
            }
            let mut parts = Vec::new();
            let mut lo = 0usize;
            while lo < bits.len() {
                let mut hi = lo;
                while hi + 1 < bits.len() && bits[hi + 1] == bits[lo] {
                    hi += 1;
                }
                let len = (hi - lo + 1) as u32;
                let owner = match bits[lo] {
                    Some(p) if self.class(p) == Class::Seq => {
                        let var =
                            self.new_state(slot, lo as u32, len, StateKind::Register, Role::State);
                        Owner::Seq { proc: p, var }
                    }
                    Some(p) => Owner::Comb { proc: p },
                    None if self.init_targets.contains(&slot) => {
                        let var =
                            self.new_state(slot, lo as u32, len, StateKind::Frozen, Role::Frozen);
                        Owner::Frozen(var)
                    }
                    None => Owner::Undriven,
                };
                parts.push(Part {
                    lo: lo as u32,
                    len,
                    owner,
                });
                lo = hi + 1;
            }
            self.parts.insert(slot, parts);
        }
        self.place_shared_parts()
    }

    /// Gives shared temporaries and merged tri-state drivers their parts.
    fn place_shared_parts(&mut self) -> DResult<()> {
        for slot in self.temps.keys().copied().collect::<Vec<_>>() {
            let len = self.slot_width(slot);
            let part = Part {
                lo: 0,
                len,
                owner: Owner::Temp,
            };
            self.parts.insert(slot, vec![part]);
        }
        let groups: Vec<((Slot, u32), TriGroup)> = self
            .tri_groups
            .iter()
            .map(|(k, g)| (*k, g.clone()))
            .collect();
        for ((slot, lo), g) in groups {
            let part = Part {
                lo,
                len: g.len,
                owner: Owner::Tri,
            };
            if g.external.is_some() {
                self.parts.insert(slot, vec![part]);
                continue;
            }
            let parts = self.parts.entry(slot).or_default();
            match parts.iter_mut().find(|q| q.lo == lo && q.len == g.len) {
                Some(q) => *q = part,
                None => {
                    return Err(Diag::new(
                        self.procs[g.procs[0]].span,
                        "internal: the bits of a tri-state group have other drivers",
                    ))
                }
            }
        }
        Ok(())
    }

    /// Resolves two processes `p` and `q` writing the same bits of `slot`: a variable both
    /// `always` blocks (and every other writer) use only as a temporary becomes a shared
    /// temporary; tri-state assignments of the same bits are merged. Anything else is the
    /// located error at `span` (the second writer's target).
    fn resolve_conflict(
        &mut self,
        slot: Slot,
        p: usize,
        q: usize,
        span: Span,
        writers: &[usize],
        all: &[Targets],
    ) -> DResult<()> {
        let loc = |e: &Self, s: Span| e.sys.sources.location(s).to_string();
        let base = format!(
            "`{}` is driven by more than one process (also at {})",
            self.sigs[slot.sig.0 as usize].slot_name(slot.word),
            loc(self, self.procs[q].span)
        );
        let always = |e: &Self, k: usize| matches!(e.procs[k].kind, ProcKind::Always { .. });
        if always(self, p) && always(self, q) && self.temp_candidate(slot) {
            for &w in writers {
                let Some(why) = self.temp_violation(w, slot) else {
                    continue;
                };
                let block = match w {
                    w if w == p => "this block".to_string(),
                    w if w == q => "that block".to_string(),
                    w => format!("the block at {}", loc(self, self.procs[w].span)),
                };
                let reason = match why {
                    NotTemp::NotAlways => format!(
                        "it is also driven at {}",
                        loc(self, self.procs[w].span)
                    ),
                    NotTemp::ReadFirst(s) => format!(
                        "{block} reads it at {} before assigning it on every path, so it keeps a value between activations",
                        loc(self, s)
                    ),
                    NotTemp::NonBlocking(s) => format!(
                        "{block} assigns it with `<=` at {}, a register update",
                        loc(self, s)
                    ),
                };
                return Err(Diag::new(
                    span,
                    format!("{base}; it is no temporary: {reason}"),
                ));
            }
            self.temps.insert(slot, writers.to_vec());
            return Ok(());
        }
        let (tp, tq) = (self.tri_target(p, &all[p]), self.tri_target(q, &all[q]));
        match (tp, tq) {
            (Some(a), Some(b)) if a == b && a.0 == slot => {
                let g = self.tri_groups.entry((slot, a.1)).or_insert(TriGroup {
                    len: a.2,
                    procs: vec![q],
                    external: None,
                });
                if !g.procs.contains(&p) {
                    g.procs.push(p);
                }
                Ok(())
            }
            (Some(_), Some(_)) => Err(Diag::new(
                span,
                format!("{base}; tri-state drivers of a net must drive the same bits"),
            )),
            (Some(_), None) | (None, Some(_)) => Err(Diag::new(
                span,
                format!("{base}; only tri-state assignments (`assign n = en ? d : 'bz;`) may share a net"),
            )),
            (None, None) => Err(Diag::new(span, base)),
        }
    }

    /// Adds process `p` (targets `targets`) to the tri-state group of the top module's
    /// `inout` port `slot` (input `var`) if it is a tri-state assignment of the whole port.
    fn join_inout(&mut self, slot: Slot, var: VarId, p: usize, targets: &Targets) -> bool {
        let w = self.slot_width(slot);
        if self.tri_target(p, targets) != Some((slot, 0, w)) {
            return false;
        }
        let g = self.tri_groups.entry((slot, 0)).or_insert(TriGroup {
            len: w,
            procs: Vec::new(),
            external: Some(var),
        });
        g.procs.push(p);
        true
    }

    /// Slots clocked process `p` writes both with blocking and with non-blocking
    /// assignments (their final value needs to know which assignment came last on each path).
    pub(crate) fn mixed_slots(&mut self, p: usize) -> DResult<HashSet<Slot>> {
        let proc = self.procs[p].clone();
        let ProcKind::Always { body, .. } = &proc.kind else {
            return Ok(HashSet::new());
        };
        let mut sets = Vec::new();
        for nb in [false, true] {
            self.target_filter = Some(nb);
            let mut t = Targets::new();
            let r = self.stmt_targets(body, proc.scope, &HashSet::new(), &mut t, 0);
            self.target_filter = None;
            r?;
            sets.push(t.into_iter().map(|(s, _, _)| s).collect::<HashSet<Slot>>());
        }
        Ok(sets[0].intersection(&sets[1]).copied().collect())
    }

    /// The IR name of bits `lo..lo+len` of a slot.
    pub(crate) fn part_name(&self, slot: Slot, lo: u32, len: u32) -> String {
        let sig = &self.sigs[slot.sig.0 as usize];
        let base = sig.slot_name(slot.word);
        if lo == 0 && len == sig.width {
            return base;
        }
        let idx = |p: u32| {
            if sig.msb >= sig.lsb {
                sig.lsb + p as i64
            } else {
                sig.lsb - p as i64
            }
        };
        if len == 1 {
            format!("{base}[{}]", idx(lo))
        } else {
            format!("{base}[{}:{}]", idx(lo + len - 1), idx(lo))
        }
    }

    /// Creates a state or frozen variable for bits of a slot.
    pub(crate) fn new_state(
        &mut self,
        slot: Slot,
        lo: u32,
        len: u32,
        kind: StateKind,
        role: Role,
    ) -> VarId {
        let name = self.part_name(slot, lo, len);
        let span = self.sigs[slot.sig.0 as usize].span;
        let var = self.sys.add_var(name, Type::ubv(len), role, Some(span));
        self.states.push(StateInfo {
            var,
            slot,
            lo,
            len,
            kind,
        });
        var
    }

    /// Tries to evaluate a constant index in `scope`.
    fn try_const(&mut self, e: &Expr, scope: ScopeId) -> Option<i64> {
        let v = self.const_expr(e, scope).ok()?;
        self.const_i64(v)
    }

    /// Slots (and constant bit ranges) an lvalue may write.
    fn lvalue_targets(
        &mut self,
        e: &Expr,
        scope: ScopeId,
        locals: &HashSet<String>,
        out: &mut Targets,
    ) -> DResult<()> {
        match &e.kind {
            ExprKind::Concat(items) => {
                for it in items {
                    self.lvalue_targets(it, scope, locals, out)?;
                }
            }
            ExprKind::Ident(path) => {
                if path.len() == 1 && locals.contains(&path[0].name) {
                    return Ok(());
                }
                let st = ProcState::constant(scope);
                if let Binding::Sig(s) = self.lookup(&st, path)? {
                    for word in 0..self.sigs[s.0 as usize].words() {
                        out.push((Slot { sig: s, word }, None, e.span));
                    }
                }
            }
            ExprKind::Index(base, idx) => {
                let mut words = Vec::new();
                let mut bits_of = None;
                if let Some(sig) = self.mem_base(base, scope, locals)? {
                    // `mem[i]`: whole word(s).
                    match self.try_const(idx, scope) {
                        Some(i) => {
                            if let Some(k) = self.sigs[sig.0 as usize].word_of(i) {
                                words.push(Slot { sig, word: k });
                            }
                        }
                        None => {
                            for word in 0..self.sigs[sig.0 as usize].words() {
                                words.push(Slot { sig, word });
                            }
                        }
                    }
                } else {
                    let Some((sig, sel)) = self.vec_base(base, scope, locals)? else {
                        return Ok(());
                    };
                    words = sel;
                    bits_of = Some(sig);
                }
                let range = match bits_of {
                    Some(sig) => self.try_const(idx, scope).map(|i| {
                        let p = self.sigs[sig.0 as usize].bit_offset(i);
                        (p, 1u32)
                    }),
                    None => None,
                };
                self.push_words(words, range, e.span, out);
            }
            ExprKind::Range(base, m, l) => {
                let Some((sig, words)) = self.vec_base(base, scope, locals)? else {
                    return Ok(());
                };
                let range = match (self.try_const(m, scope), self.try_const(l, scope)) {
                    (Some(m), Some(l)) => {
                        let s = &self.sigs[sig.0 as usize];
                        let (a, b) = (s.bit_offset(m), s.bit_offset(l));
                        Some((a.min(b), ((a - b).unsigned_abs() + 1) as u32))
                    }
                    _ => None,
                };
                self.push_words(words, range, e.span, out);
            }
            ExprKind::IndexedRange {
                base,
                start,
                width,
                up,
            } => {
                let Some((sig, words)) = self.vec_base(base, scope, locals)? else {
                    return Ok(());
                };
                let range = match (self.try_const(start, scope), self.try_const(width, scope)) {
                    (Some(i), Some(w)) if w >= 1 => {
                        let (a, b) = if *up { (i, i + w - 1) } else { (i - w + 1, i) };
                        let s = &self.sigs[sig.0 as usize];
                        let (pa, pb) = (s.bit_offset(a), s.bit_offset(b));
                        Some((pa.min(pb), w as u32))
                    }
                    _ => None,
                };
                self.push_words(words, range, e.span, out);
            }
            _ => {}
        }
        Ok(())
    }

    /// Records `words` with a bit range given as (position, length), clipped to the slot.
    fn push_words(
        &self,
        words: Vec<Slot>,
        range: Option<(i64, u32)>,
        span: Span,
        out: &mut Targets,
    ) {
        for slot in words {
            let w = self.slot_width(slot) as i64;
            let r = match range {
                None => None,
                Some((lo, len)) => {
                    let a = lo.max(0);
                    let b = (lo + len as i64).min(w);
                    if a >= b {
                        continue;
                    }
                    Some((a as u32, (b - a) as u32))
                }
            };
            out.push((slot, r, span));
        }
    }

    /// If `base` is a memory name, the memory (for `mem[i]`).
    fn mem_base(
        &mut self,
        base: &Expr,
        scope: ScopeId,
        locals: &HashSet<String>,
    ) -> DResult<Option<SigId>> {
        if let ExprKind::Ident(path) = &base.kind {
            if path.len() == 1 && locals.contains(&path[0].name) {
                return Ok(None);
            }
            let st = ProcState::constant(scope);
            if let Binding::Sig(s) = self.lookup(&st, path)? {
                if self.sigs[s.0 as usize].mem.is_some() {
                    return Ok(Some(s));
                }
            }
        }
        Ok(None)
    }

    /// The vector a bit/part select writes: a plain signal, or memory word(s).
    fn vec_base(
        &mut self,
        base: &Expr,
        scope: ScopeId,
        locals: &HashSet<String>,
    ) -> DResult<Option<(SigId, Vec<Slot>)>> {
        match &base.kind {
            ExprKind::Ident(path) => {
                if path.len() == 1 && locals.contains(&path[0].name) {
                    return Ok(None);
                }
                let st = ProcState::constant(scope);
                match self.lookup(&st, path)? {
                    Binding::Sig(s) if self.sigs[s.0 as usize].mem.is_none() => {
                        Ok(Some((s, vec![Slot { sig: s, word: 0 }])))
                    }
                    _ => Ok(None),
                }
            }
            ExprKind::Index(mem, idx) => {
                let Some(sig) = self.mem_base(mem, scope, locals)? else {
                    return Ok(None);
                };
                let words = match self.try_const(idx, scope) {
                    Some(i) => self.sigs[sig.0 as usize]
                        .word_of(i)
                        .map(|k| vec![Slot { sig, word: k }])
                        .unwrap_or_default(),
                    None => (0..self.sigs[sig.0 as usize].words())
                        .map(|word| Slot { sig, word })
                        .collect(),
                };
                Ok(Some((sig, words)))
            }
            _ => Ok(None),
        }
    }

    /// Slots a statement may write (looking into called tasks).
    fn stmt_targets(
        &mut self,
        s: &'a Stmt,
        scope: ScopeId,
        locals: &HashSet<String>,
        out: &mut Targets,
        depth: u32,
    ) -> DResult<()> {
        match s {
            Stmt::Assign {
                lhs, nonblocking, ..
            } if self.target_filter.is_none_or(|nb| nb == *nonblocking) => {
                self.lvalue_targets(lhs, scope, locals, out)?
            }
            Stmt::Block { stmts, span, .. } => {
                let inner = self
                    .block_scopes
                    .get(&(scope, *span))
                    .copied()
                    .unwrap_or(scope);
                for s in stmts {
                    self.stmt_targets(s, inner, locals, out, depth)?;
                }
            }
            Stmt::If { then, els, .. } => {
                self.stmt_targets(then, scope, locals, out, depth)?;
                if let Some(e) = els {
                    self.stmt_targets(e, scope, locals, out, depth)?;
                }
            }
            Stmt::Case { arms, default, .. } => {
                for (_, s) in arms {
                    self.stmt_targets(s, scope, locals, out, depth)?;
                }
                if let Some(d) = default {
                    self.stmt_targets(d, scope, locals, out, depth)?;
                }
            }
            Stmt::For {
                init, step, body, ..
            } => {
                self.stmt_targets(init, scope, locals, out, depth)?;
                self.stmt_targets(step, scope, locals, out, depth)?;
                self.stmt_targets(body, scope, locals, out, depth)?;
            }
            Stmt::While { body, .. } | Stmt::Repeat { body, .. } => {
                self.stmt_targets(body, scope, locals, out, depth)?
            }
            Stmt::SysTask { name, args, .. }
                if matches!(name.name.as_str(), "$readmemh" | "$readmemb")
                    && self.target_filter != Some(true) =>
            {
                // Every word of the memory argument.
                if let Some(m) = args.get(1) {
                    if let ExprKind::Ident(_) = m.kind {
                        self.lvalue_targets(m, scope, locals, out)?;
                    }
                }
            }
            Stmt::TaskCall { name, args, span } => {
                if depth > MAX_DEPTH {
                    return Err(Diag::new(
                        *span,
                        "task calls nested too deeply (recursion?)",
                    ));
                }
                let st = ProcState::constant(scope);
                let Ok(Binding::Task(t, tscope)) = self.lookup(&st, std::slice::from_ref(name))
                else {
                    return Err(Diag::new(
                        name.span,
                        format!("`{}` is not a task", name.name),
                    ));
                };
                let mut tl: HashSet<String> = HashSet::new();
                let mut k = 0;
                for d in &t.decls {
                    for n in &d.names {
                        tl.insert(n.name.name.clone());
                        if matches!(d.dir, Some(Dir::Output | Dir::Inout))
                            && self.target_filter != Some(true)
                        {
                            if let Some(a) = args.get(k) {
                                self.lvalue_targets(a, scope, locals, out)?;
                            }
                        }
                        if d.dir.is_some() {
                            k += 1;
                        }
                    }
                }
                collect_block_locals(&t.body, &mut tl);
                self.stmt_targets(&t.body, tscope, &tl, out, depth + 1)?;
            }
            _ => {}
        }
        Ok(())
    }
}
