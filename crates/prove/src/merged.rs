//! The transition function of an AIG over a state in which given equalities between
//! latches hold (`docs/method.md` §7.6): each latch of an equal pair replaced by its partner
//! and the gates rebuilt with structural hashing, so that logic the equalities make
//! identical (a product's two copies outside a mutation's reach) becomes one. Used by the
//! proof by correspondence and, separately, by the check of its certificate.

use hypermut_aig::{Aig, Lit, Node};

/// Whether `l` is a latch literal or a constant of `aig` (a literal over the state alone).
pub(crate) fn is_state(aig: &Aig, l: Lit) -> bool {
    l.is_const() || aig.latch_index(l).is_some()
}

/// The transition function of `aig` over a current state in which every pair of latches (or
/// latch and constant) of `pairs` holds, rebuilt with structural hashing: a combinational
/// circuit with one input per input of `aig` and per latch left after merging each latch of
/// such a pair into its partner, and per variable of `aig` its literal there. A pair of
/// latches whose next-state functions become one literal there holds after every
/// transition from such a state, whatever the inputs.
pub(crate) fn merged_state(aig: &Aig, pairs: &[(Lit, Lit)]) -> (Aig, Vec<Lit>) {
    // Union–find with parity over latch variables (variable 0, the constant, stays a root):
    // `link[v]` is the literal variable v equals.
    let mut link: Vec<Lit> = (0..aig.num_vars()).map(Lit::var_lit).collect();
    // Iterative (a class of thousands of latches makes a long chain before compression).
    fn find(link: &mut [Lit], v: u32) -> Lit {
        let mut root = Lit::var_lit(v);
        while link[root.var() as usize].var() != root.var() {
            root = link[root.var() as usize].xor(root.is_neg());
        }
        // Path compression: every variable on the way now links to the root directly.
        let mut at = Lit::var_lit(v);
        while at.var() != root.var() {
            let up = link[at.var() as usize];
            link[at.var() as usize] = root.xor(at.is_neg());
            at = up.xor(at.is_neg());
        }
        root
    }
    for &(a, b) in pairs {
        if !is_state(aig, a) || !is_state(aig, b) {
            continue;
        }
        let ra = find(&mut link, a.var()).xor(a.is_neg());
        let rb = find(&mut link, b.var()).xor(b.is_neg());
        // Keep a constant as the root; a pair claiming x = ¬x is left to the SAT check.
        let (keep, moved) = if rb.var() == 0 { (rb, ra) } else { (ra, rb) };
        if keep.var() != moved.var() && moved.var() != 0 {
            link[moved.var() as usize] = keep.xor(moved.is_neg());
        }
    }
    let mut comb = Aig::new();
    let mut map = vec![Lit::FALSE; aig.nodes().len()];
    for (v, node) in aig.nodes().iter().enumerate() {
        match node {
            Node::Input(_) => map[v] = comb.add_input(""),
            Node::Latch(_) if find(&mut link, v as u32).var() == v as u32 => {
                map[v] = comb.add_input("");
            }
            _ => {}
        }
    }
    let get = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
    for (v, node) in aig.nodes().iter().enumerate() {
        match *node {
            Node::Latch(_) => {
                let root = find(&mut link, v as u32);
                map[v] = get(&map, root);
            }
            Node::And(a, b) => map[v] = comb.and(get(&map, a), get(&map, b)),
            _ => {}
        }
    }
    (comb, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::Reset;

    /// A class of many latches given as a chain of pairs in the order that makes the longest
    /// links, with alternating phases and one latch tied to a constant: each latch becomes its
    /// root's input (or the constant) with the right phase.
    #[test]
    fn long_classes_merge_with_their_phases() {
        let n = 20_000;
        let mut g = Aig::new();
        let latches: Vec<Lit> = (0..n)
            .map(|i| g.add_latch(format!("l{i}"), Reset::Zero))
            .collect();
        let tied = g.add_latch("tied", Reset::One);
        for &l in latches.iter().chain([&tied]) {
            g.set_next(l, l);
        }
        // l[i+1] = ¬l[i] for every i, given newest first (each pair links the old root).
        let mut pairs: Vec<(Lit, Lit)> =
            (0..n - 1).map(|i| (latches[i + 1], !latches[i])).collect();
        pairs.push((tied, Lit::TRUE));
        pairs.push((latches[0], !tied));
        let (comb, map) = merged_state(&g, &pairs);
        // Everything is constant: tied = 1, l0 = 0, l1 = 1, ...
        assert_eq!(comb.inputs.len(), 0);
        let at = |l: Lit| map[l.var() as usize].xor(l.is_neg());
        assert_eq!(at(tied), Lit::TRUE);
        for (i, &l) in latches.iter().enumerate() {
            assert_eq!(at(l), Lit::constant(i % 2 == 1), "latch {i}");
        }
        // Without the constant, one input for the whole class.
        let (comb, map) = merged_state(&g, &pairs[..n - 1]);
        let at = |l: Lit| map[l.var() as usize].xor(l.is_neg());
        assert_eq!(comb.inputs.len(), 2, "the class and `tied`");
        for (i, &l) in latches.iter().enumerate() {
            assert_eq!(at(l), at(latches[0]).xor(i % 2 == 1), "latch {i}");
        }
    }
}
