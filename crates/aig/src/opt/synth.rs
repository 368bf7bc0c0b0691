//! Re-synthesis of small functions (`docs/method.md` §7.7): for a truth table of at most six
//! variables, AND/inverter circuits found by a search over decompositions, each part again
//! the cheapest circuit found for it (memoised per function):
//!
//! * Shannon expansion on every variable `x`: `x ∧ f₁` or `x ∨ f₀` when a cofactor is
//!   constant, `x ⊕ f₀` when the cofactors are complementary, the multiplexer otherwise;
//! * disjoint-support AND, OR and XOR bi-decompositions `g(A) ∘ h(B)` over every split of the
//!   support;
//! * the algebraically factored irredundant sum of products of the function and of its
//!   complement.
//!
//! [`Synth::candidates`] returns the different top-level choices as [`Program`]s, so that the
//! rewriter can pick the one that shares most with the circuit it goes into.

use std::rc::Rc;

use super::isop::{factor, isop};
use super::recipe::{Program, Recipe};
use super::truth::{cof0, cof1, exists, support, zero_cofactor, Tt, MAX_VARS, VARS};
use rustc_hash::FxHashMap;

/// Most programs [`Synth::candidates`] returns for one function.
const MAX_CANDIDATES: usize = 8;

/// Candidates may have this many more gates than the smallest one (sharing with the circuit
/// can make a larger one cheaper).
const SLACK: usize = 2;

/// Memoised re-synthesis of truth tables.
#[derive(Default)]
pub struct Synth {
    /// Cheapest recipe per function, keyed by the smaller of the table and its complement.
    best: FxHashMap<Tt, Rc<Recipe>>,
    /// Candidate programs per table.
    candidates: FxHashMap<Tt, Rc<Vec<Program>>>,
}

impl Synth {
    /// A synthesiser with empty caches.
    pub fn new() -> Self {
        Synth::default()
    }

    /// The cheapest recipe found for `t`.
    pub fn best(&mut self, t: Tt) -> Rc<Recipe> {
        let key = t.min(!t);
        let r = match self.best.get(&key) {
            Some(r) => r.clone(),
            None => {
                let r = self
                    .decompositions(key)
                    .into_iter()
                    .min_by_key(|r| r.cost())
                    .unwrap_or_else(|| factor(&isop(key)));
                self.best.insert(key, r.clone());
                r
            }
        };
        if key == t {
            r
        } else {
            Recipe::not(r)
        }
    }

    /// Programs computing `t`: the top-level decompositions with their cheapest parts, the
    /// smallest first, at most [`MAX_CANDIDATES`], none more than [`SLACK`] gates above the
    /// smallest. Every program is checked to compute `t`.
    pub fn candidates(&mut self, t: Tt) -> Rc<Vec<Program>> {
        if let Some(c) = self.candidates.get(&t) {
            return c.clone();
        }
        let mut programs: Vec<Program> = Vec::new();
        for r in self.decompositions(t) {
            let p = r.program();
            if p.table() == t && !programs.contains(&p) {
                programs.push(p);
            }
        }
        programs.sort_by_key(|p| p.gates.len());
        if let Some(min) = programs.first().map(|p| p.gates.len()) {
            programs.retain(|p| p.gates.len() <= min + SLACK);
        }
        programs.truncate(MAX_CANDIDATES);
        let programs = Rc::new(programs);
        self.candidates.insert(t, programs.clone());
        programs
    }

    /// Every decomposition of `t` tried, each with the cheapest recipes of its parts.
    fn decompositions(&mut self, t: Tt) -> Vec<Rc<Recipe>> {
        let supp = support(t);
        if supp == 0 {
            return vec![Rc::new(Recipe::Const(t != 0))];
        }
        if supp.count_ones() == 1 {
            let x = supp.trailing_zeros() as usize;
            return vec![Rc::new(Recipe::Lit(x as u8, t != VARS[x]))];
        }
        let lit = |x: usize, neg: bool| Rc::new(Recipe::Lit(x as u8, neg));
        let mut out = Vec::new();
        for x in (0..MAX_VARS).filter(|x| supp >> x & 1 == 1) {
            let (f0, f1) = (cof0(t, x), cof1(t, x));
            let r = if f0 == 0 {
                Recipe::and(lit(x, false), self.best(f1))
            } else if f1 == 0 {
                Recipe::and(lit(x, true), self.best(f0))
            } else if f0 == !0 {
                Recipe::or(lit(x, true), self.best(f1))
            } else if f1 == !0 {
                Recipe::or(lit(x, false), self.best(f0))
            } else if f1 == !f0 {
                Rc::new(Recipe::Xor(lit(x, false), self.best(f0)))
            } else {
                Rc::new(Recipe::Mux(x as u8, self.best(f1), self.best(f0)))
            };
            out.push(r);
        }
        if supp.count_ones() >= 3 {
            self.bi_decompositions(t, supp, &mut out);
        }
        out.push(factor(&isop(t)));
        out.push(Recipe::not(factor(&isop(!t))));
        out
    }

    /// Disjoint-support decompositions `g(A) ∘ h(B)` of `t` for every split `A ∪ B` of its
    /// support `supp` (`A` holds the lowest variable, both are non-empty).
    fn bi_decompositions(&mut self, t: Tt, supp: u32, out: &mut Vec<Rc<Recipe>>) {
        let low = supp & supp.wrapping_neg();
        let rest = supp & !low;
        // Every subset of `rest` (except all of it) joined with `low` is an `A`.
        let mut sub = 0u32;
        loop {
            let a = low | sub;
            if a != supp {
                let b = supp & !a;
                let (g, h) = (exists(t, b), exists(t, a));
                if g & h == t {
                    out.push(Recipe::and(self.best(g), self.best(h)));
                }
                let (gn, hn) = (exists(!t, b), exists(!t, a));
                if gn & hn == !t {
                    out.push(Recipe::not(Recipe::and(self.best(gn), self.best(hn))));
                }
                let at_zero = if t & 1 == 1 { !0 } else { 0 };
                let (g, h) = (zero_cofactor(t, b), zero_cofactor(t, a) ^ at_zero);
                if g ^ h == t {
                    out.push(Rc::new(Recipe::Xor(self.best(g), self.best(h))));
                }
            }
            if sub == rest {
                break;
            }
            sub = (sub.wrapping_sub(rest)) & rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(i: usize) -> Tt {
        VARS[i]
    }

    /// Smallest AND counts known for these functions (with free inverters).
    #[test]
    fn finds_small_circuits_for_common_functions() {
        let table: [(&str, Tt, usize); 8] = [
            ("and2", v(0) & v(1), 1),
            ("or3", v(0) | v(1) | v(2), 2),
            ("xor2", v(0) ^ v(1), 3),
            ("xor3", v(0) ^ v(1) ^ v(2), 6),
            ("mux", (v(0) & v(1)) | (!v(0) & v(2)), 3),
            ("maj", (v(0) & v(1)) | (v(0) & v(2)) | (v(1) & v(2)), 4),
            ("and-xor", (v(0) & v(1)) ^ v(2), 4),
            ("aoi4", !((v(0) & v(1)) | (v(2) & v(3))), 3),
        ];
        let mut s = Synth::new();
        for (name, t, want) in table {
            let c = s.candidates(t);
            let first = c.first().expect("a candidate");
            assert_eq!(first.table(), t, "{name}");
            assert_eq!(first.gates.len(), want, "{name}");
        }
    }

    proptest! {
        /// Every candidate computes its function, for arbitrary functions of four and six
        /// variables.
        #[test]
        fn candidates_compute_the_function(t6 in any::<u64>(), t4 in any::<u16>()) {
            let mut s = Synth::new();
            let t4 = (t4 as u64) * 0x0001_0001_0001_0001;
            for t in [t6, t4] {
                let c = s.candidates(t);
                prop_assert!(!c.is_empty());
                for p in c.iter() {
                    prop_assert_eq!(p.table(), t);
                }
                prop_assert_eq!(s.best(t).table(), t);
            }
        }
    }
}
