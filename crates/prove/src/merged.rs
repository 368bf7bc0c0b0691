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
    fn find(link: &mut [Lit], v: u32) -> Lit {
        let up = link[v as usize];
        if up.var() == v {
            return up;
        }
        let root = find(link, up.var()).xor(up.is_neg());
        link[v as usize] = root;
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
