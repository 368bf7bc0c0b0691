//! Predecessor generalisation by ternary simulation.
//!
//! Given a concrete state and input vector under which some literals (the next-state
//! functions of a target cube, the constraints, the bad literal) are true, [`Lifter::lift`]
//! sets latches to `X` one at a time and keeps the `X` unless one of those literals becomes
//! unknown. The latches left binary form a cube of states that, under the same inputs, all
//! make the literals true.
//!
//! Only the combinational cone of those literals is simulated: nothing outside it can make
//! them unknown, so the latches outside it are `X` at once.

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
    /// Per variable: whether it is in the cone of the current lift's literals.
    in_cone: Vec<bool>,
    /// The variables of that cone.
    cone: Vec<u32>,
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
            in_cone: vec![false; n],
            cone: Vec::new(),
        }
    }

    /// Marks the combinational cone of `roots` (up to latches and inputs) in `in_cone` and
    /// lists it in `cone`, in variable (so topological) order.
    fn mark_cone(&mut self, roots: &[Lit]) {
        let mut stack: Vec<u32> = roots.iter().map(|l| l.var()).collect();
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut self.in_cone[v as usize], true) {
                continue;
            }
            self.cone.push(v);
            if let Node::And(a, b) = self.nodes[v as usize] {
                stack.push(a.var());
                stack.push(b.var());
            }
        }
        self.cone.sort_unstable();
    }

    /// Binary simulation of the marked cone from latch and input values (by variable:
    /// `latch_vals[i]` is the value of latch `i`).
    fn simulate(&mut self, latch_vals: &[bool], input_vals: &[bool]) {
        for &v in &self.cone {
            let v = v as usize;
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
        self.mark_cone(required);
        self.simulate(latch_vals, input_vals);
        for r in required {
            debug_assert_eq!(lit_val(&self.val, *r), 1, "required literal is not true");
            self.required[r.var() as usize] = true;
        }
        for &i in order {
            let v = latches[i].var();
            if self.required[v as usize] || !self.in_cone[v as usize] {
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
            .filter(|l| self.in_cone[l.var() as usize] && self.val[l.var() as usize] != X)
            .map(|l| l.xor(self.val[l.var() as usize] == 0))
            .collect();
        cube.sort_unstable();
        for &v in &self.cone {
            self.in_cone[v as usize] = false;
        }
        self.cone.clear();
        cube
    }

    /// Sets `v` to X and propagates; false (with `undo` holding the changes) if a required
    /// node became X.
    fn try_x(&mut self, v: u32) -> bool {
        self.undo.push((v, self.val[v as usize]));
        self.val[v as usize] = X;
        self.heap.clear();
        for &g in &self.fanout[v as usize] {
            if self.in_cone[g as usize] && !self.queued[g as usize] {
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
                if self.in_cone[h as usize] && !self.queued[h as usize] {
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

    /// On random circuits, every state of a lifted cube (all values of the dropped latches)
    /// makes the required literals true under the same inputs (checked by simulation), and
    /// the cube keeps no latch outside the cone of those literals.
    #[test]
    fn lifted_cubes_keep_the_required_literals_true() {
        use crate::testutil::{eval_frame, lit_val, random_aig, Rng, Shape};
        let shape = Shape {
            inputs: 3,
            latches: 8,
            ands: 40,
            free_latches: false,
            max_constraints: 0,
            counter_bits: 0,
            bad_latches: 0,
        };
        let mut checked = 0;
        for seed in 1..=100u64 {
            let mut rng = Rng::new(seed);
            let g = random_aig(&mut rng, &shape);
            let latches: Vec<Lit> = g.latches.iter().map(|l| l.lit).collect();
            let state: Vec<bool> = latches.iter().map(|_| rng.coin()).collect();
            let inputs: Vec<bool> = g.inputs.iter().map(|_| rng.coin()).collect();
            let val = eval_frame(&g, &state, &inputs);
            // Two next-state functions, each in the polarity that holds.
            let required: Vec<Lit> = g.latches[..2]
                .iter()
                .map(|l| l.next.xor(!lit_val(&val, l.next)))
                .collect();
            let order: Vec<usize> = (0..latches.len()).rev().collect();
            let cube = Lifter::new(&g).lift(&latches, &state, &inputs, &required, &order);
            let free: Vec<usize> = (0..latches.len())
                .filter(|&i| !cube.contains(&latches[i]) && !cube.contains(&!latches[i]))
                .collect();
            for x in 0..1u32 << free.len() {
                let mut s = state.clone();
                for (j, &i) in free.iter().enumerate() {
                    s[i] = x >> j & 1 == 1;
                }
                let v = eval_frame(&g, &s, &inputs);
                assert!(required.iter().all(|&r| lit_val(&v, r)), "seed {seed}");
            }
            checked += usize::from(!free.is_empty() && free.len() < latches.len());
        }
        assert!(checked >= 30, "only {checked} non-trivial lifts");
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
