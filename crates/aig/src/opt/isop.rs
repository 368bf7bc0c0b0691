//! Irredundant sums of products of truth tables (the Minato–Morreale recursion) and their
//! algebraic factoring into AND/OR trees (`docs/method.md` §7.7).

use std::rc::Rc;

use super::recipe::Recipe;
use super::truth::{cof0, cof1, depends, Tt, VARS};

/// A cube: the variables of `mask` appear, positive where `pos` has a 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    /// Variables that appear.
    pub mask: u8,
    /// Their polarities (1 = positive).
    pub pos: u8,
}

impl Cube {
    /// The cube's truth table.
    #[cfg(test)]
    pub fn table(self) -> Tt {
        (0..VARS.len())
            .filter(|i| self.mask >> i & 1 == 1)
            .fold(!0, |t, i| {
                if self.pos >> i & 1 == 1 {
                    t & VARS[i]
                } else {
                    t & !VARS[i]
                }
            })
    }

    fn with(self, var: usize, positive: bool) -> Cube {
        Cube {
            mask: self.mask | 1 << var,
            pos: self.pos | (positive as u8) << var,
        }
    }
}

/// An irredundant cover of `t` (`t` as both the on-set and the upper bound).
pub fn isop(t: Tt) -> Vec<Cube> {
    let mut cubes = Vec::new();
    cover(t, t, VARS.len(), &mut cubes);
    cubes
}

/// Appends cubes covering every minterm of `lower` and none outside `upper`
/// (`lower ⊆ upper`) over the variables below `top`, and returns the table they cover.
fn cover(lower: Tt, upper: Tt, top: usize, cubes: &mut Vec<Cube>) -> Tt {
    if lower == 0 {
        return 0;
    }
    if upper == !0 {
        cubes.push(Cube { mask: 0, pos: 0 });
        return !0;
    }
    let Some(x) = (0..top)
        .rev()
        .find(|&i| depends(lower, i) || depends(upper, i))
    else {
        // Neither depends on any variable: lower is all ones, so upper is too.
        cubes.push(Cube { mask: 0, pos: 0 });
        return !0;
    };
    let (l0, l1, u0, u1) = (
        cof0(lower, x),
        cof1(lower, x),
        cof0(upper, x),
        cof1(upper, x),
    );
    let start = cubes.len();
    let r0 = cover(l0 & !u1, u0, x, cubes);
    for c in &mut cubes[start..] {
        *c = c.with(x, false);
    }
    let mid = cubes.len();
    let r1 = cover(l1 & !u0, u1, x, cubes);
    for c in &mut cubes[mid..] {
        *c = c.with(x, true);
    }
    let rest = (l0 & !r0) | (l1 & !r1);
    let rs = cover(rest, u0 & u1, x, cubes);
    (r0 & !VARS[x]) | (r1 & VARS[x]) | rs
}

/// An AND/OR tree for the sum of `cubes`, factored algebraically: the literal shared by the
/// most cubes is taken out, `lit · (quotient) + remainder`, recursively.
pub fn factor(cubes: &[Cube]) -> Rc<Recipe> {
    if cubes.is_empty() {
        return Rc::new(Recipe::Const(false));
    }
    if cubes.iter().any(|c| c.mask == 0) {
        return Rc::new(Recipe::Const(true));
    }
    // The most frequent literal (ties: lowest variable, negative first).
    let mut best = (0usize, 0usize, false);
    for var in 0..VARS.len() {
        for positive in [false, true] {
            let n = cubes
                .iter()
                .filter(|c| c.mask >> var & 1 == 1 && (c.pos >> var & 1 == 1) == positive)
                .count();
            if n > best.0 {
                best = (n, var, positive);
            }
        }
    }
    let (count, var, positive) = best;
    if count <= 1 {
        // No literal is shared: a plain sum of products.
        return cubes
            .iter()
            .map(|c| product(*c))
            .reduce(Recipe::or)
            .unwrap_or_else(|| Rc::new(Recipe::Const(false)));
    }
    let has = |c: &Cube| c.mask >> var & 1 == 1 && (c.pos >> var & 1 == 1) == positive;
    let quotient: Vec<Cube> = cubes
        .iter()
        .filter(|c| has(c))
        .map(|c| Cube {
            mask: c.mask & !(1 << var),
            pos: c.pos & !(1 << var),
        })
        .collect();
    let rest: Vec<Cube> = cubes.iter().filter(|c| !has(c)).copied().collect();
    let lit = Rc::new(Recipe::Lit(var as u8, !positive));
    let taken = Recipe::and(lit, factor(&quotient));
    if rest.is_empty() {
        taken
    } else {
        Recipe::or(taken, factor(&rest))
    }
}

/// The AND of a cube's literals.
fn product(c: Cube) -> Rc<Recipe> {
    (0..VARS.len())
        .filter(|i| c.mask >> i & 1 == 1)
        .map(|i| Rc::new(Recipe::Lit(i as u8, c.pos >> i & 1 == 0)))
        .reduce(Recipe::and)
        .unwrap_or_else(|| Rc::new(Recipe::Const(true)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The cover is exactly the function, and no cube can be dropped.
        #[test]
        fn isop_covers_exactly_and_is_irredundant(t in any::<u64>()) {
            let cubes = isop(t);
            let union = cubes.iter().fold(0, |u, c| u | c.table());
            prop_assert_eq!(union, t);
            for k in 0..cubes.len() {
                let others = cubes.iter().enumerate().filter(|(j, _)| *j != k)
                    .fold(0, |u, (_, c)| u | c.table());
                prop_assert_ne!(others, t, "cube {} is redundant", k);
            }
        }

        /// The factored tree computes the cover.
        #[test]
        fn factoring_keeps_the_function(t in any::<u64>()) {
            let f = factor(&isop(t));
            prop_assert_eq!(f.table(), t);
        }
    }

    #[test]
    fn factoring_takes_out_shared_literals() {
        // ab + ac + bc (majority): a(b + c) + bc has 4 gates, the flat sum 5.
        let (a, b, c) = (VARS[0], VARS[1], VARS[2]);
        let maj = (a & b) | (a & c) | (b & c);
        let f = factor(&isop(maj));
        assert_eq!(f.table(), maj);
        assert_eq!(f.cost(), 4);
    }
}
