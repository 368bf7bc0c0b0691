//! Predecessor generalisation by ternary simulation.
//!
//! Given a concrete state and input vector under which some literals (the next-state
//! functions of a target cube, the constraints, the bad literal) are true, [`Lifter::lift`]
//! sets latches to `X` one at a time and keeps the `X` unless one of those literals becomes
//! unknown. The latches left binary form a cube of states that, under the same inputs, all
//! make the literals true.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hypermut_aig::{Aig, Lit, Node};

const X: u8 = 2;

fn lit_val(val: &[u8], l: Lit) -> u8 {
    match val[l.var() as usize] {
        X => X,
        v => v ^ l.is_neg() as u8,
    }
}

fn and_val(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else if a == 1 && b == 1 {
        1
    } else {
        X
    }
}

/// Ternary simulator of one AIG with fan-out lists for event-driven propagation.
#[derive(Debug)]
pub struct Lifter {
    nodes: Vec<Node>,
    fanout: Vec<Vec<u32>>,
    val: Vec<u8>,
    required: Vec<bool>,
    queued: Vec<bool>,
    heap: BinaryHeap<Reverse<u32>>,
    undo: Vec<(u32, u8)>,
}

impl Lifter {
    /// A lifter for `aig` (whose AND operands precede their gates).
    pub fn new(aig: &Aig) -> Self {
        let nodes = aig.nodes().to_vec();
        let mut fanout = vec![Vec::new(); nodes.len()];
        for (v, n) in nodes.iter().enumerate() {
            if let Node::And(a, b) = *n {
                fanout[a.var() as usize].push(v as u32);
                if b.var() != a.var() {
                    fanout[b.var() as usize].push(v as u32);
                }
            }
        }
        let n = nodes.len();
        Lifter {
            nodes,
            fanout,
            val: vec![0; n],
            required: vec![false; n],
            queued: vec![false; n],
            heap: BinaryHeap::new(),
            undo: Vec::new(),
        }
    }

    /// Binary simulation of the whole circuit from latch and input values (by variable:
    /// `latch_vals[i]` is the value of latch `i`).
    fn simulate(&mut self, latch_vals: &[bool], input_vals: &[bool]) {
        for v in 0..self.nodes.len() {
            self.val[v] = match self.nodes[v] {
                Node::Const => 0,
                Node::Input(i) => input_vals[i as usize] as u8,
                Node::Latch(i) => latch_vals[i as usize] as u8,
                Node::And(a, b) => and_val(lit_val(&self.val, a), lit_val(&self.val, b)),
            };
        }
    }

    /// The literals of `latches` (current-state literals, one per latch) that cannot be
    /// made `X` without making one of `required` unknown, tried in `order` (indices into
    /// `latches`). Every `required` literal must be true under the given values.
    ///
    /// Returns the lifted cube, sorted.
    pub fn lift(
        &mut self,
        latches: &[Lit],
        latch_vals: &[bool],
        input_vals: &[bool],
        required: &[Lit],
        order: &[usize],
    ) -> Vec<Lit> {
        self.simulate(latch_vals, input_vals);
        for r in required {
            debug_assert_eq!(lit_val(&self.val, *r), 1, "required literal is not true");
            self.required[r.var() as usize] = true;
        }
        for &i in order {
            let v = latches[i].var();
            if self.required[v as usize] {
                continue;
            }
            if !self.try_x(v) {
                for &(w, old) in self.undo.iter().rev() {
                    self.val[w as usize] = old;
                }
            }
            self.undo.clear();
        }
        for r in required {
            self.required[r.var() as usize] = false;
        }
        let mut cube: Vec<Lit> = latches
            .iter()
            .filter(|l| self.val[l.var() as usize] != X)
            .map(|l| l.xor(self.val[l.var() as usize] == 0))
            .collect();
        cube.sort_unstable();
        cube
    }

    /// Sets `v` to X and propagates; false (with `undo` holding the changes) if a required
    /// node became X.
    fn try_x(&mut self, v: u32) -> bool {
        self.undo.push((v, self.val[v as usize]));
        self.val[v as usize] = X;
        self.heap.clear();
        for &g in &self.fanout[v as usize] {
            if !self.queued[g as usize] {
                self.queued[g as usize] = true;
                self.heap.push(Reverse(g));
            }
        }
        let mut ok = true;
        while let Some(Reverse(g)) = self.heap.pop() {
            self.queued[g as usize] = false;
            if !ok {
                continue;
            }
            let Node::And(a, b) = self.nodes[g as usize] else {
                continue;
            };
            let new = and_val(lit_val(&self.val, a), lit_val(&self.val, b));
            let old = self.val[g as usize];
            if new == old {
                continue;
            }
            if self.required[g as usize] {
                ok = false;
                continue;
            }
            self.undo.push((g, old));
            self.val[g as usize] = new;
            for &h in &self.fanout[g as usize] {
                if !self.queued[h as usize] {
                    self.queued[h as usize] = true;
                    self.heap.push(Reverse(h));
                }
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::Reset;

    #[test]
    fn keeps_only_the_latches_the_targets_depend_on() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        let c = g.add_latch("c", Reset::Zero);
        // target: a ∧ (b ∨ x); with x = 1, b is irrelevant; c is unrelated.
        let bx = g.or(b, x);
        let t = g.and(a, bx);
        let mut l = Lifter::new(&g);
        let latches = [a, b, c];
        let cube = l.lift(&latches, &[true, false, true], &[true], &[t], &[0, 1, 2]);
        assert_eq!(cube, vec![a]);
        // With x = 0, b is needed too.
        let cube = l.lift(&latches, &[true, true, false], &[false], &[t], &[2, 1, 0]);
        assert_eq!(cube, vec![a, b]);
        // A negative requirement: ¬t holds because a = 0, whatever b is.
        let cube = l.lift(&latches, &[false, true, false], &[false], &[!t], &[0, 1, 2]);
        assert_eq!(cube, vec![!a]);
        let cube = l.lift(&latches, &[false, true, false], &[false], &[!t], &[1, 0, 2]);
        assert_eq!(cube, vec![!a]);
    }

    #[test]
    fn a_required_latch_literal_stays() {
        let mut g = Aig::new();
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        let mut l = Lifter::new(&g);
        let cube = l.lift(&[a, b], &[false, true], &[], &[!a], &[0, 1]);
        assert_eq!(cube, vec![!a]);
    }
}
