//! Sound simplification of a safety problem before model checking: constant latches (found by
//! ternary simulation from the reset state), cone-of-influence reduction, constant folding
//! and structural hashing.
//!
//! The result is a [`Reduced`] problem whose [`Aig`] has one bad property, its constraints,
//! and variables in binary AIGER order (inputs, latches, AND gates), together with the maps
//! that carry witnesses and invariants back to the original circuit. Facts used by the
//! reduction (a latch is constant) are kept as clauses over the original latches, so that an
//! invariant of the reduced problem plus the facts is an invariant of the original one.

use std::collections::HashSet;

use hypermut_aig::{Aig, Lit, Node, Reset, Witness};

use crate::unroll::UnrollError;

/// Why a problem cannot be reduced.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The AIG has no bad property.
    #[error("the AIG has no bad property")]
    NoBadProperty,
    /// The AIG is malformed.
    #[error(transparent)]
    Malformed(#[from] UnrollError),
}

/// A reduced safety problem and the way back to the original circuit.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The reduced circuit: inputs, latches, then AND gates; `bad[0]` and the constraints.
    pub aig: Aig,
    /// For each input of [`Reduced::aig`], the index of the original input.
    pub input_map: Vec<usize>,
    /// For each latch of [`Reduced::aig`], the index of the original latch.
    pub latch_map: Vec<usize>,
    /// Clauses over original latch literals that hold in every reachable state and that the
    /// reduction relies on (one unit clause per constant latch); together they are an
    /// inductive invariant.
    pub facts: Vec<Vec<Lit>>,
}

/// Ternary values for simulation.
const X: u8 = 2;

fn tern_lit(val: &[u8], l: Lit) -> u8 {
    match val[l.var() as usize] {
        X => X,
        v => v ^ l.is_neg() as u8,
    }
}

fn tern_and(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else if a == 1 && b == 1 {
        1
    } else {
        X
    }
}

/// Checks that every literal names a variable and that AND operands precede their gate, so
/// that later passes may index freely.
pub fn validate(aig: &Aig) -> Result<(), UnrollError> {
    let n = aig.num_vars();
    let check = |l: Lit| {
        if l.var() < n {
            Ok(())
        } else {
            Err(UnrollError::UndefinedLiteral(l.0, l.var()))
        }
    };
    for (v, node) in aig.nodes().iter().enumerate() {
        match *node {
            Node::And(a, b) => {
                for op in [a, b] {
                    check(op)?;
                    if op.var() >= v as u32 {
                        return Err(UnrollError::NotTopological(v as u32, op.var()));
                    }
                }
            }
            Node::Latch(i) => {
                if aig.latches.get(i as usize).map(|l| l.lit.var()) != Some(v as u32) {
                    return Err(UnrollError::UndefinedLiteral(2 * v as u32, v as u32));
                }
            }
            Node::Input(i) => {
                if aig.inputs.get(i as usize).map(|l| l.lit.var()) != Some(v as u32) {
                    return Err(UnrollError::UndefinedLiteral(2 * v as u32, v as u32));
                }
            }
            Node::Const => {}
        }
    }
    for l in &aig.latches {
        check(l.lit)?;
        check(l.next)?;
    }
    for p in aig.bad.iter().chain(&aig.constraints).chain(&aig.outputs) {
        check(p.lit)?;
    }
    Ok(())
}

/// The latches that keep their constant reset value in every reachable state, as
/// `Some(value)` per latch: the greatest set of constant-reset latches whose next-state
/// functions evaluate to the reset value under ternary simulation when every latch of the
/// set holds its reset value and everything else is unknown.
pub fn constant_latches(aig: &Aig) -> Vec<Option<bool>> {
    let mut cand: Vec<Option<bool>> = aig.latches.iter().map(|l| l.reset.value()).collect();
    let mut val = vec![X; aig.num_vars() as usize];
    loop {
        for (v, node) in aig.nodes().iter().enumerate() {
            val[v] = match *node {
                Node::Const => 0,
                Node::Input(_) => X,
                Node::Latch(i) => cand[i as usize].map_or(X, |b| b as u8),
                Node::And(a, b) => tern_and(tern_lit(&val, a), tern_lit(&val, b)),
            };
        }
        let mut changed = false;
        for (i, l) in aig.latches.iter().enumerate() {
            if let Some(b) = cand[i] {
                if tern_lit(&val, l.next) != b as u8 {
                    cand[i] = None;
                    changed = true;
                }
            }
        }
        if !changed {
            return cand;
        }
    }
}

/// Reduces the problem "is `aig.bad[0]` reachable under `aig.constraints`".
///
/// Returns an error if the AIG is malformed (see [`validate`]) or has no bad property.
pub fn reduce(aig: &Aig) -> Result<Reduced, ReduceError> {
    validate(aig)?;
    let bad = aig.bad.first().ok_or(ReduceError::NoBadProperty)?.lit;
    let consts = constant_latches(aig);
    // Pass 1: rebuild with constants substituted, keeping the cone of influence only.
    let roots: Vec<Lit> = std::iter::once(bad)
        .chain(aig.constraints.iter().map(|c| c.lit))
        .collect();
    let first = rebuild(aig, &roots, &consts);
    // Pass 2: folding may have disconnected parts of the cone; copy the cone again.
    let none = vec![None; first.aig.latches.len()];
    let roots2: Vec<Lit> = std::iter::once(first.aig.bad[0].lit)
        .chain(first.aig.constraints.iter().map(|c| c.lit))
        .collect();
    let second = rebuild(&first.aig, &roots2, &none);
    Ok(Reduced {
        input_map: second
            .input_map
            .iter()
            .map(|&i| first.input_map[i])
            .collect(),
        latch_map: second
            .latch_map
            .iter()
            .map(|&i| first.latch_map[i])
            .collect(),
        aig: second.aig,
        facts: first.facts,
    })
}

/// Copies the cone of `roots` of `aig` into a fresh AIG in binary order, replacing the
/// latches with `consts[i] = Some(b)` by the constant `b` (and recording that as a fact).
fn rebuild(aig: &Aig, roots: &[Lit], consts: &[Option<bool>]) -> Reduced {
    let nodes = aig.nodes();
    let mut in_coi = vec![false; nodes.len()];
    let mut stack: Vec<u32> = roots.iter().map(|l| l.var()).collect();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut in_coi[v as usize], true) {
            continue;
        }
        match nodes[v as usize] {
            Node::Latch(i) if consts[i as usize].is_none() => {
                stack.push(aig.latches[i as usize].next.var())
            }
            Node::And(a, b) => {
                stack.push(a.var());
                stack.push(b.var());
            }
            _ => {}
        }
    }
    let mut g = Aig::new();
    let mut map = vec![Lit::FALSE; nodes.len()];
    let mut input_map = Vec::new();
    let mut latch_map = Vec::new();
    let mut facts = Vec::new();
    for (k, inp) in aig.inputs.iter().enumerate() {
        if in_coi[inp.lit.var() as usize] {
            map[inp.lit.var() as usize] = g.add_input(inp.name.clone());
            input_map.push(k);
        }
    }
    for (k, l) in aig.latches.iter().enumerate() {
        let v = l.lit.var() as usize;
        if !in_coi[v] {
            continue;
        }
        match consts[k] {
            Some(b) => map[v] = Lit::constant(b),
            None => {
                map[v] = g.add_latch(l.name.clone(), l.reset);
                latch_map.push(k);
            }
        }
    }
    // The constant latches are an inductive invariant only together (one may stay constant
    // because another does), so every one becomes a fact, in the cone or not.
    for (l, c) in aig.latches.iter().zip(consts) {
        if let Some(b) = c {
            facts.push(vec![l.lit.xor(!b)]);
        }
    }
    let m = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
    for (v, node) in nodes.iter().enumerate() {
        if let Node::And(a, b) = *node {
            if in_coi[v] {
                map[v] = g.and(m(&map, a), m(&map, b));
            }
        }
    }
    for (j, &k) in latch_map.iter().enumerate() {
        let next = m(&map, aig.latches[k].next);
        let lit = g.latches[j].lit;
        g.set_next(lit, next);
    }
    g.bad.push(hypermut_aig::Named {
        lit: m(&map, roots[0]),
        name: "bad".into(),
    });
    for c in &roots[1..] {
        let lit = m(&map, *c);
        if lit != Lit::TRUE && !g.constraints.iter().any(|x| x.lit == lit) {
            g.constraints.push(hypermut_aig::Named {
                lit,
                name: String::new(),
            });
        }
    }
    Reduced {
        aig: g,
        input_map,
        latch_map,
        facts,
    }
}

impl Reduced {
    /// The witness for the original circuit `original` of a witness of the reduced circuit:
    /// removed latches start at their reset value (uninitialised ones at 0) and removed inputs
    /// are 0.
    pub fn lift_witness(&self, original: &Aig, w: &Witness) -> Witness {
        let mut init: Vec<Option<bool>> = original
            .latches
            .iter()
            .map(|l| Some(l.reset == Reset::One))
            .collect();
        for (j, &k) in self.latch_map.iter().enumerate() {
            if let (Some(slot), Some(v)) = (init.get_mut(k), w.init.get(j)) {
                *slot = Some(v.unwrap_or(false));
            }
        }
        let inputs = w
            .inputs
            .iter()
            .map(|frame| {
                let mut v = vec![Some(false); original.inputs.len()];
                for (j, &k) in self.input_map.iter().enumerate() {
                    if let (Some(slot), Some(x)) = (v.get_mut(k), frame.get(j)) {
                        *slot = Some(x.unwrap_or(false));
                    }
                }
                v
            })
            .collect();
        Witness {
            properties: w.properties.clone(),
            init,
            inputs,
        }
    }

    /// The original latch literal of a literal over a latch of the reduced circuit.
    pub fn original_latch_lit(&self, original: &Aig, l: Lit) -> Option<Lit> {
        let j = self.aig.latch_index(l)?;
        let k = *self.latch_map.get(j)?;
        Some(original.latches.get(k)?.lit.xor(l.is_neg()))
    }

    /// Clauses over the reduced latches carried to the original latches, plus the facts,
    /// each clause once (an engine's invariant may repeat a lemma it learned at several
    /// levels).
    pub fn lift_clauses(&self, original: &Aig, clauses: &[Vec<Lit>]) -> Option<Vec<Vec<Lit>>> {
        let mut out = Vec::new();
        let mut seen: HashSet<Vec<Lit>> = HashSet::new();
        let lifted = clauses.iter().map(|c| {
            c.iter()
                .map(|&l| self.original_latch_lit(original, l))
                .collect::<Option<Vec<Lit>>>()
        });
        for c in self.facts.iter().cloned().map(Some).chain(lifted) {
            let c = c?;
            let mut key = c.clone();
            key.sort_unstable();
            key.dedup();
            if seen.insert(key) {
                out.push(c);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{random_aig, shortest_depth, Rng, Shape};
    use hypermut_aig::Named;

    fn named(lit: Lit) -> Named {
        Named {
            lit,
            name: String::new(),
        }
    }

    #[test]
    fn constant_latches_need_a_consistent_set() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        // a and b keep each other at 0; c is set by x; d = c delayed.
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        let c = g.add_latch("c", Reset::Zero);
        let d = g.add_latch("d", Reset::One);
        let f = g.add_latch("f", Reset::Free);
        g.set_next(a, b);
        let bx = g.and(b, x);
        g.set_next(b, bx);
        g.set_next(c, x);
        g.set_next(d, !c);
        g.set_next(f, f);
        assert_eq!(
            constant_latches(&g),
            vec![Some(false), Some(false), None, None, None]
        );
    }

    #[test]
    fn reduction_keeps_the_cone_and_maps_back() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let y = g.add_input("y");
        let z = g.add_input("z");
        let a = g.add_latch("a", Reset::Zero);
        let k = g.add_latch("k", Reset::Zero); // constant 0
        let junk = g.add_latch("junk", Reset::One);
        g.set_next(a, z);
        let kk = g.and(k, x);
        g.set_next(k, kk);
        g.set_next(junk, y);
        let ak = g.or(a, k);
        g.bad.push(named(ak));
        let r = reduce(&g).expect("valid");
        assert_eq!(r.input_map, vec![2]);
        assert_eq!(r.latch_map, vec![0]);
        assert_eq!(r.facts, vec![vec![!k]]);
        assert_eq!(r.aig.num_ands(), 0);
        assert_eq!(r.aig.bad[0].lit, r.aig.latches[0].lit);
        let w = Witness {
            properties: vec!["b0".into()],
            init: vec![Some(false)],
            inputs: vec![vec![Some(true)], vec![Some(false)]],
        };
        let lifted = r.lift_witness(&g, &w);
        assert_eq!(lifted.init, vec![Some(false), Some(false), Some(true)]);
        assert_eq!(lifted.inputs[0], vec![Some(false), Some(false), Some(true)]);
        assert_eq!(hypermut_aig::check_witness(&g, &lifted), Ok(1));
        let inv = r
            .lift_clauses(&g, &[vec![!r.aig.latches[0].lit]])
            .expect("latch literals");
        assert_eq!(inv, vec![vec![!k], vec![!a]]);
        // A lemma an engine repeats (at several levels) is listed once.
        let ra = r.aig.latches[0].lit;
        let inv = r
            .lift_clauses(&g, &[vec![!ra], vec![ra, !ra], vec![!ra], vec![!ra, ra]])
            .expect("latch literals");
        assert_eq!(inv, vec![vec![!k], vec![!a], vec![a, !a]]);
    }

    /// Reduction preserves the shortest counterexample depth on random circuits.
    #[test]
    fn reduction_preserves_depths() {
        let shape = Shape {
            inputs: 3,
            latches: 5,
            ands: 25,
            free_latches: true,
            max_constraints: 2,
            counter_bits: 2,
            bad_latches: 1,
        };
        let mut shrunk = 0;
        for seed in 1..200u64 {
            let g = random_aig(&mut Rng::new(seed), &shape);
            let r = reduce(&g).expect("valid");
            assert_eq!(
                shortest_depth(&r.aig, 20),
                shortest_depth(&g, 20),
                "seed {seed}"
            );
            shrunk += (r.aig.latches.len() < g.latches.len()) as usize;
        }
        assert!(shrunk > 10, "{shrunk}");
    }
}
