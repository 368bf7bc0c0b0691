//! AIG balancing (`docs/method.md` §7.7): every maximal multi-input AND (a tree of
//! uncomplemented AND edges whose inner nodes have one reference) is rebuilt as a tree of
//! least depth, pairing the two shallowest operands first. Nodes with several references
//! stay shared, so the number of gates never grows; structural hashing may merge some.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::rebuild::{root_lits, Rebuild};
use crate::graph::{Aig, Lit, Node};

/// The balanced copy of `aig` (same interface, equivalent on every root).
pub fn balance(aig: &Aig) -> Aig {
    let n = aig.num_vars() as usize;
    let nodes = aig.nodes();
    let roots = root_lits(aig);
    // References from roots and from the AND gates some root needs.
    let mut reach = vec![false; n];
    let mut refs = vec![0u32; n];
    for r in &roots {
        reach[r.var() as usize] = true;
        refs[r.var() as usize] += 1;
    }
    for v in (0..n).rev() {
        if let (true, Node::And(a, b)) = (reach[v], nodes[v]) {
            for f in [a, b] {
                reach[f.var() as usize] = true;
                refs[f.var() as usize] += 1;
            }
        }
    }
    // The operands of the multi-input AND rooted at `v`.
    let inner = |l: Lit| {
        !l.is_neg()
            && matches!(nodes[l.var() as usize], Node::And(..))
            && refs[l.var() as usize] == 1
    };
    let supergate = |v: usize, out: &mut Vec<Lit>| {
        out.clear();
        let mut stack = vec![Lit::var_lit(v as u32)];
        while let Some(l) = stack.pop() {
            match nodes[l.var() as usize] {
                Node::And(a, b) if l.var() as usize == v || inner(l) => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => out.push(l),
            }
        }
    };
    // Which nodes are built: roots' nodes and the operands of the built nodes' supergates.
    let mut needed = vec![false; n];
    for r in &roots {
        needed[r.var() as usize] = true;
    }
    let mut ops = Vec::new();
    for v in (0..n).rev() {
        if needed[v] && matches!(nodes[v], Node::And(..)) {
            supergate(v, &mut ops);
            for l in &ops {
                needed[l.var() as usize] = true;
            }
        }
    }
    let mut rb = Rebuild::start(aig);
    let mut level: Vec<u32> = vec![0; rb.g.num_vars() as usize];
    for v in 0..n {
        if !needed[v] || !matches!(nodes[v], Node::And(..)) {
            continue;
        }
        supergate(v, &mut ops);
        let mut lits: Vec<Lit> = ops.iter().map(|&l| rb.lit(l)).collect();
        lits.sort_unstable();
        lits.dedup();
        let contradiction = lits.windows(2).any(|w| w[0] == !w[1]);
        let lit = if contradiction || lits.contains(&Lit::FALSE) {
            Lit::FALSE
        } else {
            let mut heap: BinaryHeap<Reverse<(u32, Lit)>> = lits
                .iter()
                .filter(|&&l| l != Lit::TRUE)
                .map(|&l| Reverse((level[l.var() as usize], l)))
                .collect();
            loop {
                match (heap.pop(), heap.pop()) {
                    (Some(Reverse((la, a))), Some(Reverse((lb, b)))) => {
                        let c = rb.g.and(a, b);
                        if level.len() < rb.g.num_vars() as usize {
                            level.resize(rb.g.num_vars() as usize, 0);
                        }
                        if !c.is_const() && level[c.var() as usize] == 0 && c.var() > 0 {
                            let is_and = matches!(rb.g.node(c.var()), Node::And(..));
                            if is_and {
                                level[c.var() as usize] = la.max(lb) + 1;
                            }
                        }
                        heap.push(Reverse((level[c.var() as usize], c)));
                    }
                    (Some(Reverse((_, a))), None) => break a,
                    _ => break Lit::TRUE,
                }
            }
        };
        rb.set(v as u32, lit);
    }
    rb.finish(aig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Named;

    fn depth(g: &Aig, l: Lit) -> u32 {
        let mut d = vec![0u32; g.num_vars() as usize];
        for (v, node) in g.nodes().iter().enumerate() {
            if let Node::And(a, b) = node {
                d[v] = 1 + d[a.var() as usize].max(d[b.var() as usize]);
            }
        }
        d[l.var() as usize]
    }

    #[test]
    fn a_chain_becomes_a_tree_of_the_same_size() {
        let mut g = Aig::new();
        let xs: Vec<Lit> = (0..8).map(|i| g.add_input(format!("x{i}"))).collect();
        let chain = g.and_all(xs.iter().copied());
        g.outputs.push(Named {
            lit: !chain,
            name: "o".into(),
        });
        assert_eq!(depth(&g, chain), 7);
        let b = balance(&g);
        assert_eq!(b.num_ands(), 7);
        assert_eq!(depth(&b, b.outputs[0].lit), 3);
    }
}
