//! Small circuits over the variables of a truth table: [`Recipe`] trees as the synthesis
//! builds them, and [`Program`]s, their AND gates with shared subterms, as the rewriter
//! places them into a circuit.

use std::rc::Rc;

use super::truth::{Tt, VARS};

/// A circuit as a tree of operations on the variables of a truth table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// A constant.
    Const(bool),
    /// Variable `.0`, negated when `.1`.
    Lit(u8, bool),
    /// Negation.
    Not(Rc<Recipe>),
    /// Conjunction (one gate).
    And(Rc<Recipe>, Rc<Recipe>),
    /// Exclusive or (three gates).
    Xor(Rc<Recipe>, Rc<Recipe>),
    /// `var ? then : else` (three gates).
    Mux(u8, Rc<Recipe>, Rc<Recipe>),
}

impl Recipe {
    /// `a ∧ b`.
    pub fn and(a: Rc<Recipe>, b: Rc<Recipe>) -> Rc<Recipe> {
        Rc::new(Recipe::And(a, b))
    }

    /// `a ∨ b`.
    pub fn or(a: Rc<Recipe>, b: Rc<Recipe>) -> Rc<Recipe> {
        Recipe::not(Recipe::and(Recipe::not(a), Recipe::not(b)))
    }

    /// `¬a` (double negations cancel).
    pub fn not(a: Rc<Recipe>) -> Rc<Recipe> {
        match &*a {
            Recipe::Not(x) => x.clone(),
            Recipe::Const(v) => Rc::new(Recipe::Const(!v)),
            Recipe::Lit(v, n) => Rc::new(Recipe::Lit(*v, !n)),
            _ => Rc::new(Recipe::Not(a)),
        }
    }

    /// The function computed.
    #[cfg(test)]
    pub fn table(&self) -> Tt {
        match self {
            Recipe::Const(v) => {
                if *v {
                    !0
                } else {
                    0
                }
            }
            Recipe::Lit(v, n) => {
                if *n {
                    !VARS[*v as usize]
                } else {
                    VARS[*v as usize]
                }
            }
            Recipe::Not(a) => !a.table(),
            Recipe::And(a, b) => a.table() & b.table(),
            Recipe::Xor(a, b) => a.table() ^ b.table(),
            Recipe::Mux(v, t, e) => {
                let x = VARS[*v as usize];
                (x & t.table()) | (!x & e.table())
            }
        }
    }

    /// Number of AND gates of the tree (a shared subterm counts once per use).
    pub fn cost(&self) -> u32 {
        match self {
            Recipe::Const(_) | Recipe::Lit(..) => 0,
            Recipe::Not(a) => a.cost(),
            Recipe::And(a, b) => 1 + a.cost() + b.cost(),
            Recipe::Xor(a, b) => 3 + a.cost() + b.cost(),
            Recipe::Mux(_, t, e) => 3 + t.cost() + e.cost(),
        }
    }

    /// The recipe's gates, with equal subterms built once.
    pub fn program(&self) -> Program {
        let mut b = Builder::default();
        let out = b.emit(self);
        Program {
            gates: b.gates,
            out,
        }
    }
}

/// A literal of a [`Program`]: `2·signal + negated`; signal 0 is the constant false,
/// signals 1 to 6 the variables, signal `7 + k` gate `k`.
pub type PLit = u16;

/// First signal of the gates (after the constant and the six variables).
pub const FIRST_GATE: u16 = 7;

/// AND gates over the variables of a truth table, in topological order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    /// Operands of each gate.
    pub gates: Vec<(PLit, PLit)>,
    /// The output literal.
    pub out: PLit,
}

impl Program {
    /// The literal of variable `v`.
    pub fn var(v: usize) -> PLit {
        2 * (v as u16 + 1)
    }

    /// The function computed.
    pub fn table(&self) -> Tt {
        let mut vals: Vec<Tt> = Vec::with_capacity(FIRST_GATE as usize + self.gates.len());
        vals.push(0);
        vals.extend(VARS);
        let get = |vals: &[Tt], l: PLit| {
            let v = vals[(l >> 1) as usize];
            if l & 1 == 1 {
                !v
            } else {
                v
            }
        };
        for &(a, b) in &self.gates {
            let v = get(&vals, a) & get(&vals, b);
            vals.push(v);
        }
        get(&vals, self.out)
    }
}

/// Builds a [`Program`] with constant folding and hashing of equal gates.
#[derive(Default)]
struct Builder {
    gates: Vec<(PLit, PLit)>,
}

impl Builder {
    fn and(&mut self, a: PLit, b: PLit) -> PLit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == 0 || a == b ^ 1 {
            return 0;
        }
        if a == 1 || a == b {
            return b;
        }
        // Programs are small: a linear search beats hashing.
        if let Some(k) = self.gates.iter().position(|g| *g == (a, b)) {
            return 2 * (FIRST_GATE + k as u16);
        }
        self.gates.push((a, b));
        2 * (FIRST_GATE + self.gates.len() as u16 - 1)
    }

    fn emit(&mut self, r: &Recipe) -> PLit {
        match r {
            Recipe::Const(v) => *v as PLit,
            Recipe::Lit(v, n) => Program::var(*v as usize) | *n as PLit,
            Recipe::Not(a) => self.emit(a) ^ 1,
            Recipe::And(a, b) => {
                let (x, y) = (self.emit(a), self.emit(b));
                self.and(x, y)
            }
            Recipe::Xor(a, b) => {
                let (x, y) = (self.emit(a), self.emit(b));
                let both = self.and(x, y);
                let neither = self.and(x ^ 1, y ^ 1);
                self.and(both ^ 1, neither ^ 1)
            }
            Recipe::Mux(v, t, e) => {
                let c = Program::var(*v as usize);
                let (x, y) = (self.emit(t), self.emit(e));
                let a = self.and(c, x);
                let b = self.and(c ^ 1, y);
                self.and(a ^ 1, b ^ 1) ^ 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_compute_their_recipes() {
        let x = |v: u8| Rc::new(Recipe::Lit(v, false));
        let r = Rc::new(Recipe::Mux(
            2,
            Rc::new(Recipe::Xor(x(0), x(1))),
            Recipe::or(x(0), x(3)),
        ));
        let p = r.program();
        assert_eq!(p.table(), r.table());
        let want = (VARS[2] & (VARS[0] ^ VARS[1])) | (!VARS[2] & (VARS[0] | VARS[3]));
        assert_eq!(p.table(), want);
        assert_eq!(p.gates.len() as u32, r.cost());
    }

    #[test]
    fn equal_subterms_are_built_once() {
        let x = |v: u8| Rc::new(Recipe::Lit(v, false));
        let ab = Recipe::and(x(0), x(1));
        let r = Recipe::or(Recipe::and(ab.clone(), x(2)), Recipe::and(ab, x(3)));
        assert_eq!(r.cost(), 5);
        assert_eq!(r.program().gates.len(), 4);
    }
}
