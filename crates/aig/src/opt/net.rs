//! A mutable copy of an [`Aig`] for in-place rewriting (`docs/method.md` §7.7): AND nodes
//! with reference counts, fanout lists and a structural hash table, where a node can be
//! replaced by an equivalent literal. Replacing a node redirects its fanouts (merging those
//! that become structurally equal to an existing node or trivial, recursively) and deletes
//! the logic that only it used.
//!
//! Every root of the original circuit (latch next-state functions, outputs, bad properties,
//! constraints, justice and fairness literals) holds a reference, so the logic they need is
//! never deleted; [`Net::to_aig`] writes the circuit back with the original inputs and
//! latches, in their order, with their names and resets.

use super::rebuild::root_lits;
use crate::graph::{Aig, Latch, Lit, Named, Node};
use rustc_hash::FxHashMap;

/// What a variable of a [`Net`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Const,
    /// An input or latch output (a combinational input).
    Ci,
    And,
    Dead,
}

/// A mutable AIG (see the module documentation).
pub struct Net {
    kind: Vec<Kind>,
    fanins: Vec<[Lit; 2]>,
    refs: Vec<u32>,
    fanouts: Vec<Vec<u32>>,
    strash: FxHashMap<(Lit, Lit), u32>,
    /// For a deleted node that was replaced: its replacement.
    repl: Vec<Option<Lit>>,
    /// The variables of the original inputs and latches, in their order.
    inputs: Vec<u32>,
    latches: Vec<u32>,
    /// Root literals: latch next-state functions, outputs, bad, constraints, justice
    /// literals, fairness, in that order.
    roots: Vec<Lit>,
}

impl Net {
    /// The network of `aig`, structurally hashed and without logic no root uses.
    pub fn from_aig(aig: &Aig) -> Net {
        let mut net = Net {
            kind: vec![Kind::Const],
            fanins: vec![[Lit::FALSE; 2]],
            refs: vec![0],
            fanouts: vec![Vec::new()],
            strash: FxHashMap::default(),
            repl: vec![None],
            inputs: Vec::new(),
            latches: Vec::new(),
            roots: Vec::new(),
        };
        let mut map = vec![Lit::FALSE; aig.num_vars() as usize];
        let mut inputs = vec![0u32; aig.inputs.len()];
        let mut latches = vec![0u32; aig.latches.len()];
        for (v, node) in aig.nodes().iter().enumerate() {
            map[v] = match *node {
                Node::Const => Lit::FALSE,
                Node::Input(i) => {
                    let l = net.push(Kind::Ci, [Lit::FALSE; 2]);
                    inputs[i as usize] = l.var();
                    l
                }
                Node::Latch(i) => {
                    let l = net.push(Kind::Ci, [Lit::FALSE; 2]);
                    latches[i as usize] = l.var();
                    l
                }
                Node::And(a, b) => {
                    let tr = |l: Lit| map[l.var() as usize].xor(l.is_neg());
                    net.and(tr(a), tr(b))
                }
            };
        }
        net.inputs = inputs;
        net.latches = latches;
        let tr = |l: Lit| map[l.var() as usize].xor(l.is_neg());
        net.roots = root_lits(aig).into_iter().map(tr).collect();
        for r in net.roots.clone() {
            net.refs[r.var() as usize] += 1;
        }
        for v in (0..net.kind.len() as u32).rev() {
            if net.is_and(v) && net.refs[v as usize] == 0 {
                net.kill(v);
            }
        }
        net
    }

    /// Writes the network back as an [`Aig`] with `orig`'s inputs, latches (names, resets),
    /// outputs, properties, constraints, justice, fairness and comment, the AND gates in a
    /// depth-first order from the roots. `None` if the network is inconsistent (a root or
    /// fanin that was deleted without replacement, or a cycle): an internal error the caller
    /// answers by keeping `orig`.
    pub fn to_aig(&self, orig: &Aig) -> Option<Aig> {
        let mut g = Aig::new();
        let mut map: Vec<Option<Lit>> = vec![None; self.kind.len()];
        map[0] = Some(Lit::FALSE);
        for (k, i) in orig.inputs.iter().enumerate() {
            map[*self.inputs.get(k)? as usize] = Some(g.add_input(i.name.clone()));
        }
        for (k, l) in orig.latches.iter().enumerate() {
            map[*self.latches.get(k)? as usize] = Some(g.add_latch(l.name.clone(), l.reset));
        }
        let mut roots = Vec::with_capacity(self.roots.len());
        // 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; self.kind.len()];
        for &r in &self.roots {
            let r = self.resolve(r)?;
            let mut stack = vec![r.var()];
            while let Some(&v) = stack.last() {
                let vi = v as usize;
                if map[vi].is_some() {
                    stack.pop();
                    continue;
                }
                if self.kind[vi] != Kind::And {
                    return None;
                }
                let [a, b] = self.fanins[vi];
                match (map[a.var() as usize], map[b.var() as usize]) {
                    (Some(x), Some(y)) => {
                        map[vi] = Some(g.and(x.xor(a.is_neg()), y.xor(b.is_neg())));
                        state[vi] = 2;
                        stack.pop();
                    }
                    _ => {
                        if state[vi] == 1 {
                            return None; // a cycle
                        }
                        state[vi] = 1;
                        for f in [a, b] {
                            if map[f.var() as usize].is_none() {
                                stack.push(f.var());
                            }
                        }
                    }
                }
            }
            roots.push(map[r.var() as usize]?.xor(r.is_neg()));
        }
        let mut roots = roots.into_iter();
        let mut next = || roots.next();
        for (k, l) in orig.latches.iter().enumerate() {
            let lit = g.latches[k].lit;
            g.latches[k] = Latch {
                lit,
                next: next()?,
                reset: l.reset,
                name: l.name.clone(),
            };
        }
        let named = |list: &[Named], next: &mut dyn FnMut() -> Option<Lit>| {
            list.iter()
                .map(|n| {
                    Some(Named {
                        lit: next()?,
                        name: n.name.clone(),
                    })
                })
                .collect::<Option<Vec<_>>>()
        };
        g.outputs = named(&orig.outputs, &mut next)?;
        g.bad = named(&orig.bad, &mut next)?;
        g.constraints = named(&orig.constraints, &mut next)?;
        g.justice = orig
            .justice
            .iter()
            .map(|j| j.iter().map(|_| next()).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()?;
        g.fairness = orig
            .fairness
            .iter()
            .map(|_| next())
            .collect::<Option<Vec<_>>>()?;
        g.comment = orig.comment.clone();
        debug_assert!(g
            .inputs
            .iter()
            .zip(&orig.inputs)
            .all(|(a, b)| a.name == b.name));
        Some(g)
    }

    fn push(&mut self, kind: Kind, fanins: [Lit; 2]) -> Lit {
        self.kind.push(kind);
        self.fanins.push(fanins);
        self.refs.push(0);
        self.fanouts.push(Vec::new());
        self.repl.push(None);
        Lit::var_lit(self.kind.len() as u32 - 1)
    }

    /// Number of variables ever created (live or not).
    pub fn num_vars(&self) -> u32 {
        self.kind.len() as u32
    }

    /// Whether `v` is a live AND node.
    pub fn is_and(&self, v: u32) -> bool {
        self.kind.get(v as usize) == Some(&Kind::And)
    }

    /// Whether `v` was deleted.
    pub fn is_dead(&self, v: u32) -> bool {
        self.kind.get(v as usize) == Some(&Kind::Dead)
    }

    /// Whether AND node `v` has an AND operand that only `v` uses (otherwise deleting `v`
    /// deletes nothing else, and no replacement of `v` by new gates can save one).
    pub fn owns_an_operand(&self, v: u32) -> bool {
        self.fanins[v as usize]
            .iter()
            .any(|f| self.kind[f.var() as usize] == Kind::And && self.refs[f.var() as usize] == 1)
    }

    /// The operands of AND node `v`.
    pub fn fanins(&self, v: u32) -> [Lit; 2] {
        self.fanins[v as usize]
    }

    /// The literal `a ∧ b` folds to, or the existing node for it; `None` if it would need a
    /// new node.
    pub fn lookup(&self, a: Lit, b: Lit) -> Option<Lit> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == Lit::FALSE || a == !b {
            return Some(Lit::FALSE);
        }
        if a == Lit::TRUE || a == b {
            return Some(b);
        }
        self.strash.get(&(a, b)).map(|&v| Lit::var_lit(v))
    }

    /// `a ∧ b`, folded and hashed; a new node starts without references.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        if let Some(l) = self.lookup(a, b) {
            return l;
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let l = self.push(Kind::And, [a, b]);
        for f in [a, b] {
            self.refs[f.var() as usize] += 1;
            self.fanouts[f.var() as usize].push(l.var());
        }
        self.strash.insert((a, b), l.var());
        l
    }

    /// The live literal `l` stands for (following replacements).
    pub fn resolve(&self, mut l: Lit) -> Option<Lit> {
        while self.kind.get(l.var() as usize)? == &Kind::Dead {
            l = self.repl[l.var() as usize]?.xor(l.is_neg());
        }
        Some(l)
    }

    /// Deletes `v` if it is an AND node without references, and the logic only it used.
    pub fn kill_if_unused(&mut self, v: u32) {
        if self.is_and(v) && self.refs[v as usize] == 0 {
            self.kill(v);
        }
    }

    /// Deletes the unreferenced AND node `v` and, recursively, the fanins left unreferenced.
    fn kill(&mut self, v: u32) {
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            let xi = x as usize;
            if self.kind[xi] != Kind::And || self.refs[xi] != 0 {
                continue;
            }
            self.kind[xi] = Kind::Dead;
            let [a, b] = self.fanins[xi];
            if self.strash.get(&(a, b)) == Some(&x) {
                self.strash.remove(&(a, b));
            }
            self.fanouts[xi] = Vec::new();
            for f in [a, b] {
                let fv = f.var() as usize;
                self.refs[fv] -= 1;
                if self.refs[fv] == 0 && self.kind[fv] == Kind::And {
                    stack.push(f.var());
                }
            }
        }
    }

    /// The maximum fanout-free cone of AND node `v` bounded by `leaves`: the nodes that
    /// would lose every reference if `v` were deleted (`v` first). References are unchanged
    /// afterwards.
    pub fn mffc(&mut self, v: u32, leaves: &[u32], out: &mut Vec<u32>) {
        for &l in leaves {
            self.refs[l as usize] += 1;
        }
        out.clear();
        out.push(v);
        let mut i = 0;
        while i < out.len() {
            let x = out[i] as usize;
            i += 1;
            for f in self.fanins[x] {
                let fv = f.var() as usize;
                self.refs[fv] -= 1;
                if self.refs[fv] == 0 && self.kind[fv] == Kind::And {
                    out.push(f.var());
                }
            }
        }
        for &x in out.iter() {
            for f in self.fanins[x as usize] {
                self.refs[f.var() as usize] += 1;
            }
        }
        for &l in leaves {
            self.refs[l as usize] -= 1;
        }
    }

    /// Replaces the live AND node `n` by the equivalent literal `r`, which must not depend
    /// on `n`: every fanout and root of `n` uses `r` instead, fanouts that become trivial or
    /// equal to an existing node are replaced in turn, and the logic no longer used is
    /// deleted. `changed` receives every node whose operands changed.
    pub fn replace(&mut self, n: u32, r: Lit, changed: &mut Vec<u32>) {
        // Work items (node, replacement); the replacement holds one extra reference while it
        // waits, so that it cannot be deleted (that reference follows it if it is replaced).
        self.refs[r.var() as usize] += 1;
        let mut work = vec![(n, r)];
        while let Some((n, r)) = work.pop() {
            let Some(r) = self.resolve(r) else {
                continue; // unreachable: a pinned node is never deleted without replacement
            };
            let (ni, ri) = (n as usize, r.var() as usize);
            if self.kind[ni] != Kind::And || ri == ni {
                self.unpin(r.var());
                continue;
            }
            let mut fanouts = std::mem::take(&mut self.fanouts[ni]);
            fanouts.sort_unstable();
            fanouts.dedup();
            for f in fanouts {
                let fi = f as usize;
                if self.kind[fi] != Kind::And {
                    continue;
                }
                let [a, b] = self.fanins[fi];
                if a.var() != n && b.var() != n {
                    continue; // a stale entry: this operand was redirected before
                }
                if self.strash.get(&(a, b)) == Some(&f) {
                    self.strash.remove(&(a, b));
                }
                let redirect = |l: Lit| if l.var() == n { r.xor(l.is_neg()) } else { l };
                let (x, y) = (redirect(a), redirect(b));
                self.refs[ni] -= 1;
                self.refs[ri] += 1;
                if ri != 0 {
                    self.fanouts[ri].push(f);
                }
                let (x, y) = if x <= y { (x, y) } else { (y, x) };
                self.fanins[fi] = [x, y];
                changed.push(f);
                let merge = if x == Lit::FALSE || x == !y {
                    Some(Lit::FALSE)
                } else if x == Lit::TRUE || x == y {
                    Some(y)
                } else if let Some(&g) = self.strash.get(&(x, y)) {
                    Some(Lit::var_lit(g))
                } else {
                    self.strash.insert((x, y), f);
                    None
                };
                if let Some(s) = merge {
                    self.refs[s.var() as usize] += 1;
                    work.push((f, s));
                }
            }
            // What is left are root references and waiting work items: they move to `r`.
            self.refs[ri] += self.refs[ni];
            self.refs[ni] = 0;
            self.repl[ni] = Some(r);
            self.kill(n);
            self.unpin(r.var());
        }
    }

    /// Drops the extra reference a work item held on `v`.
    fn unpin(&mut self, v: u32) {
        self.refs[v as usize] -= 1;
        self.kill_if_unused(v);
    }
}
