//! Copying a circuit into a fresh [`Aig`] with the same interface: the inputs and latches
//! first, in their order, with their names and resets; then whatever gates a pass builds;
//! then the roots (latch next-state functions, outputs, bad properties, constraints, justice
//! and fairness) mapped through the pass's literal map.

use crate::graph::{Aig, Lit, Named, Node};

/// A copy under construction: the new circuit and the map from old variables.
pub struct Rebuild {
    /// The new circuit.
    pub g: Aig,
    map: Vec<Option<Lit>>,
    broken: bool,
}

impl Rebuild {
    /// A copy of `orig`'s inputs and latches (next-state functions are set by
    /// [`Rebuild::finish`]).
    pub fn start(orig: &Aig) -> Rebuild {
        let mut g = Aig::new();
        let mut map = vec![None; orig.num_vars() as usize];
        map[0] = Some(Lit::FALSE);
        let mut broken = false;
        for i in &orig.inputs {
            let l = g.add_input(i.name.clone());
            match map.get_mut(i.lit.var() as usize) {
                Some(slot) => *slot = Some(l),
                None => broken = true,
            }
        }
        for l in &orig.latches {
            let n = g.add_latch(l.name.clone(), l.reset);
            match map.get_mut(l.lit.var() as usize) {
                Some(slot) => *slot = Some(n),
                None => broken = true,
            }
        }
        Rebuild { g, map, broken }
    }

    /// The new literal of the old literal `l` (constant false, and the copy marked broken,
    /// if its variable has no image yet).
    pub fn lit(&mut self, l: Lit) -> Lit {
        match self.map.get(l.var() as usize).copied().flatten() {
            Some(x) => x.xor(l.is_neg()),
            None => {
                self.broken = true;
                Lit::FALSE
            }
        }
    }

    /// Sets the image of old variable `v`.
    pub fn set(&mut self, v: u32, lit: Lit) {
        match self.map.get_mut(v as usize) {
            Some(slot) => *slot = Some(lit),
            None => self.broken = true,
        }
    }

    /// The finished copy with `orig`'s roots mapped, or `orig` itself if some literal had no
    /// image (an internal error; the unoptimised circuit is always a correct answer).
    pub fn finish(mut self, orig: &Aig) -> Aig {
        let nexts: Vec<Lit> = orig.latches.iter().map(|l| self.lit(l.next)).collect();
        for (latch, next) in self.g.latches.iter_mut().zip(nexts) {
            latch.next = next;
        }
        let mut named = |list: &[Named]| -> Vec<Named> {
            list.iter()
                .map(|n| Named {
                    lit: self.lit(n.lit),
                    name: n.name.clone(),
                })
                .collect()
        };
        let (outputs, bad, constraints) = (
            named(&orig.outputs),
            named(&orig.bad),
            named(&orig.constraints),
        );
        self.g.outputs = outputs;
        self.g.bad = bad;
        self.g.constraints = constraints;
        self.g.justice = orig
            .justice
            .iter()
            .map(|j| j.iter().map(|&l| self.lit(l)).collect())
            .collect();
        self.g.fairness = orig.fairness.iter().map(|&l| self.lit(l)).collect();
        self.g.comment = orig.comment.clone();
        if self.broken {
            orig.clone()
        } else {
            self.g
        }
    }
}

/// The root literals of `aig`: latch next-state functions, outputs, bad properties,
/// constraints, justice literals and fairness constraints, in that order.
pub fn root_lits(aig: &Aig) -> Vec<Lit> {
    aig.latches
        .iter()
        .map(|l| l.next)
        .chain(aig.outputs.iter().map(|n| n.lit))
        .chain(aig.bad.iter().map(|n| n.lit))
        .chain(aig.constraints.iter().map(|n| n.lit))
        .chain(aig.justice.iter().flatten().copied())
        .chain(aig.fairness.iter().copied())
        .collect()
}

/// Whether `aig` keeps the [`Aig`] invariants the passes rely on: every literal names a
/// variable, AND operands precede their gate, and the input and latch lists point at their
/// own input and latch nodes.
pub fn well_formed(aig: &Aig) -> bool {
    let n = aig.num_vars();
    let nodes = aig.nodes();
    let ands_ok = nodes.iter().enumerate().all(|(v, node)| match *node {
        Node::And(a, b) => a.var() < v as u32 && b.var() < v as u32,
        Node::Const => v == 0,
        _ => true,
    });
    let inputs_ok = aig.inputs.iter().enumerate().all(|(k, i)| {
        !i.lit.is_neg() && nodes.get(i.lit.var() as usize) == Some(&Node::Input(k as u32))
    });
    let latches_ok = aig.latches.iter().enumerate().all(|(k, l)| {
        !l.lit.is_neg()
            && nodes.get(l.lit.var() as usize) == Some(&Node::Latch(k as u32))
            && l.next.var() < n
    });
    let counts_ok = nodes.iter().all(|node| match *node {
        Node::Input(i) => (i as usize) < aig.inputs.len(),
        Node::Latch(i) => (i as usize) < aig.latches.len(),
        _ => true,
    });
    ands_ok && inputs_ok && latches_ok && counts_ok && root_lits(aig).iter().all(|l| l.var() < n)
}
