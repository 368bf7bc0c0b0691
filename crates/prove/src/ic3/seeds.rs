//! Seed lemmas: clauses over latch literals of the original circuit, believed to be an
//! inductive invariant, carried over to the reduced circuit IC3 runs on.
//!
//! The reduction ([`crate::reduce`]) replaces constant latches by constants and drops the
//! latches outside the cone of influence. A literal of a constant latch is therefore
//! replaced by its value (a clause with a true literal is dropped, a false literal is
//! removed); a clause naming a dropped latch cannot be expressed and is dropped. Dropping
//! clauses never makes the set unsound; IC3 checks what is left anyway (initiation and
//! consecution, see `Ic3Core::houdini`), so a wrong seed only costs its own removal.

use hypermut_aig::{Aig, Lit};

use crate::reduce::Reduced;

/// `clauses` over latch literals of `original` as clauses over latch literals of
/// `reduced.aig`, each sorted and without duplicate literals; clauses that cannot be
/// expressed, that are satisfied by a constant latch, or that are tautologies are dropped.
pub fn reduced_seeds(original: &Aig, reduced: &Reduced, clauses: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
    // Per original latch: its literal in the reduced circuit, or its constant value.
    let mut latch_of: Vec<Option<Lit>> = vec![None; original.latches.len()];
    for (j, &k) in reduced.latch_map.iter().enumerate() {
        if let (Some(slot), Some(l)) = (latch_of.get_mut(k), reduced.aig.latches.get(j)) {
            *slot = Some(l.lit);
        }
    }
    for fact in &reduced.facts {
        if let [l] = fact.as_slice() {
            if let Some(k) = original.latch_index(*l) {
                // The fact says `l` is true: the latch is the constant `!l.is_neg()`.
                latch_of[k] = Some(Lit::constant(!l.is_neg()));
            }
        }
    }
    let mut out = Vec::new();
    'clauses: for clause in clauses {
        let mut mapped: Vec<Lit> = Vec::with_capacity(clause.len());
        for &l in clause {
            let Some(m) = original.latch_index(l).and_then(|k| latch_of[k]) else {
                continue 'clauses;
            };
            let m = m.xor(l.is_neg());
            if m == Lit::TRUE {
                continue 'clauses;
            }
            if m != Lit::FALSE {
                mapped.push(m);
            }
        }
        mapped.sort_unstable();
        mapped.dedup();
        let tautology = mapped.windows(2).any(|w| w[0] == !w[1]);
        if !mapped.is_empty() && !tautology {
            out.push(mapped);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::reduce;
    use hypermut_aig::{Named, Reset};

    #[test]
    fn clauses_follow_the_reduction() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        // `z` stays 0 (constant), `o` is outside the cone of bad.
        let z = g.add_latch("z", Reset::Zero);
        let o = g.add_latch("o", Reset::Zero);
        let ax = g.and(a, x);
        g.set_next(a, x);
        g.set_next(b, ax);
        let zz = g.and(z, x);
        g.set_next(z, zz);
        g.set_next(o, a);
        let bad = g.and(a, b);
        g.bad.push(Named {
            lit: bad,
            name: "bad".into(),
        });
        let r = reduce(&g).expect("reduces");
        let ra = r.aig.latches[r.latch_map.iter().position(|&k| k == 0).expect("a")].lit;
        let rb = r.aig.latches[r.latch_map.iter().position(|&k| k == 1).expect("b")].lit;
        let seeds = reduced_seeds(
            &g,
            &r,
            &[
                vec![!b, a], // kept, sorted
                vec![!a, z], // z is false: becomes the unit ¬a
                vec![!z, b], // z is false: satisfied, dropped
                vec![o, a],  // o is outside the cone: dropped
                vec![a, !a], // tautology: dropped
                vec![z],     // empty after substitution: dropped
                vec![x, a],  // an input literal: dropped
            ],
        );
        let mut first = vec![!rb, ra];
        first.sort_unstable();
        assert_eq!(seeds, vec![first, vec![!ra]]);
    }
}
