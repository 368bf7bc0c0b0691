//! Invariants shared between the mutants of a run (`docs/method.md` §7.11): the clauses of
//! every IC3 equivalence proof so far, kept by the names of the product latches they speak
//! of, offered to the IC3 runs of the mutants still to decide as seed lemmas. IC3 keeps the
//! largest subset of the seeds that holds initially and is inductive on the new product
//! (Houdini), so a clause true only of the mutant it was proved for costs its removal and
//! never a wrong verdict.

use std::collections::HashSet;
use std::sync::Mutex;

use hypermut_aig::{Aig, Lit};

/// Most clauses a pool keeps (the oldest go first).
const CAPACITY: usize = 2048;

/// Which part of a product a latch belongs to: copy A (the original), copy B (the
/// mutant), or both (a latch outside the mutation's sequential fan-out, shared).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Part {
    A,
    B,
    Shared,
}

/// A latch literal by name: the part, the latch's name in the model, and whether it is
/// negated.
type NamedLit = (Part, String, bool);

/// The part and model name of a product latch named `name`.
fn part_of(name: &str) -> (Part, &str) {
    if let Some(n) = name.strip_prefix("A.") {
        (Part::A, n)
    } else if let Some(n) = name.strip_prefix("B.") {
        (Part::B, n)
    } else {
        (Part::Shared, name)
    }
}

/// The clauses of the equivalence proofs found so far in a run, shared by the threads.
#[derive(Debug, Default)]
pub struct LemmaPool {
    clauses: Mutex<Clauses>,
}

/// The pooled clauses, oldest first, and the set of them (no clause is kept twice).
#[derive(Debug, Default)]
struct Clauses {
    order: Vec<Vec<NamedLit>>,
    seen: HashSet<Vec<NamedLit>>,
}

impl LemmaPool {
    /// An empty pool.
    pub fn new() -> LemmaPool {
        LemmaPool::default()
    }

    /// Number of clauses in the pool.
    pub fn len(&self) -> usize {
        self.lock().order.len()
    }

    /// Whether the pool holds no clause.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Clauses> {
        self.clauses.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds the clauses of an inductive invariant of `product` (over its latch literals);
    /// a clause naming anything but a latch is skipped.
    pub fn add(&self, product: &Aig, clauses: &[Vec<Lit>]) {
        let named: Vec<Vec<NamedLit>> = clauses
            .iter()
            .filter_map(|c| {
                let mut lits: Vec<NamedLit> = c
                    .iter()
                    .map(|&l| {
                        let k = product.latch_index(l)?;
                        let (part, name) = part_of(&product.latches[k].name);
                        Some((part, name.to_string(), l.is_neg()))
                    })
                    .collect::<Option<_>>()?;
                lits.sort();
                lits.dedup();
                Some(lits)
            })
            .collect();
        let mut pool = self.lock();
        for c in named {
            if pool.seen.insert(c.clone()) {
                pool.order.push(c);
            }
        }
        let over = pool.order.len().saturating_sub(CAPACITY);
        if over > 0 {
            let old: Vec<Vec<NamedLit>> = pool.order.drain(..over).collect();
            for c in old {
                pool.seen.remove(&c);
            }
        }
    }

    /// The pooled clauses that can be said of `product`'s latches, over its latch literals:
    /// a latch of copy A or B is that copy's latch if `product` has two, else the shared
    /// one; a shared latch is the shared one, or copy A's (the original's) if `product` has
    /// two. A clause naming a latch `product` lacks, or that becomes a tautology, is left
    /// out.
    pub fn seeds(&self, product: &Aig) -> Vec<Vec<Lit>> {
        let mut latch: std::collections::HashMap<(Part, &str), Lit> =
            std::collections::HashMap::new();
        for l in &product.latches {
            let (part, name) = part_of(&l.name);
            latch.insert((part, name), l.lit);
        }
        let find = |part: Part, name: &str| -> Option<Lit> {
            let fallback = match part {
                Part::A | Part::B => Part::Shared,
                Part::Shared => Part::A,
            };
            latch
                .get(&(part, name))
                .or_else(|| latch.get(&(fallback, name)))
                .copied()
        };
        let pool = self.lock();
        pool.order
            .iter()
            .filter_map(|c| {
                let mut lits = c
                    .iter()
                    .map(|(part, name, neg)| Some(find(*part, name)?.xor(*neg)))
                    .collect::<Option<Vec<Lit>>>()?;
                lits.sort_unstable();
                lits.dedup();
                let tautology = lits.windows(2).any(|w| w[0] == !w[1]);
                (!tautology).then_some(lits)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::Reset;

    /// A product-like circuit with latches of the given names (each its own next state).
    fn circuit(names: &[&str]) -> Aig {
        let mut g = Aig::new();
        for n in names {
            let l = g.add_latch(n.to_string(), Reset::Zero);
            g.set_next(l, l);
        }
        g
    }

    fn lit(g: &Aig, name: &str) -> Lit {
        g.latches
            .iter()
            .find(|l| l.name == name)
            .map(|l| l.lit)
            .expect("a latch of that name")
    }

    /// Clauses travel by name: copies to copies, a shared latch to the other product's
    /// shared one or its original copy, a copy's latch to the other's shared one; a clause
    /// naming a latch the other product lacks stays behind, as does one that says nothing
    /// there, and no clause is kept twice.
    #[test]
    fn clauses_are_carried_over_by_latch_name() {
        let from = circuit(&["A.x", "B.x", "y", "z"]);
        let to = circuit(&["x", "A.y", "B.y"]);
        let pool = LemmaPool::new();
        let c1 = vec![lit(&from, "A.x"), !lit(&from, "B.x")];
        let c2 = vec![!lit(&from, "y")];
        let c3 = vec![lit(&from, "z"), lit(&from, "y")];
        pool.add(&from, &[c1.clone(), c2.clone(), c3, c1, c2]);
        assert_eq!(pool.len(), 3);
        // `A.x ∨ ¬B.x` becomes `x ∨ ¬x` there, which says nothing.
        assert_eq!(pool.seeds(&to), vec![vec![!lit(&to, "A.y")]]);
        // Back on the product they came from, every clause is as it was.
        let mut back = pool.seeds(&from);
        back.iter_mut().for_each(|c| c.sort());
        assert_eq!(back.len(), 3);
        assert!(back.contains(&vec![!lit(&from, "y")]));
    }
}
