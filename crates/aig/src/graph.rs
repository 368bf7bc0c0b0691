//! And-inverter graph with structural hashing and constant folding.

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

/// A literal: `2·var + negated`. `Lit::FALSE` is 0, `Lit::TRUE` is 1 (variable 0 = constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Lit(pub u32);

impl Lit {
    /// Constant false.
    pub const FALSE: Lit = Lit(0);
    /// Constant true.
    pub const TRUE: Lit = Lit(1);

    /// The positive literal of variable `var`.
    pub fn var_lit(var: u32) -> Lit {
        Lit(var << 1)
    }
    /// The variable index.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }
    /// Whether the literal is negated.
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
    /// The positive literal of the same variable.
    pub fn positive(self) -> Lit {
        Lit(self.0 & !1)
    }
    /// A constant literal.
    pub fn constant(b: bool) -> Lit {
        Lit(b as u32)
    }
    /// Whether this is one of the two constants.
    pub fn is_const(self) -> bool {
        self.0 < 2
    }
    /// The literal negated when `neg` holds.
    pub fn xor(self, neg: bool) -> Lit {
        Lit(self.0 ^ neg as u32)
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// Initial value of a latch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reset {
    /// Starts at 0.
    Zero,
    /// Starts at 1.
    One,
    /// Any initial value (AIGER: reset = the latch's own literal).
    Free,
}

impl Reset {
    /// The initial value, if it is a constant.
    pub fn value(self) -> Option<bool> {
        match self {
            Reset::Zero => Some(false),
            Reset::One => Some(true),
            Reset::Free => None,
        }
    }
}

/// What defines a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    /// Variable 0, the constant false.
    Const,
    /// The `i`-th primary input.
    Input(u32),
    /// The `i`-th latch (its current-state value).
    Latch(u32),
    /// Conjunction of two literals of smaller variables.
    And(Lit, Lit),
}

/// A latch: its current-state variable, next-state function, reset and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Latch {
    /// Positive literal of the latch's variable.
    pub lit: Lit,
    /// Next-state function.
    pub next: Lit,
    /// Initial value.
    pub reset: Reset,
    /// Symbol (may be empty).
    pub name: String,
}

/// An input: its variable literal and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// Positive literal of the input's variable.
    pub lit: Lit,
    /// Symbol (may be empty).
    pub name: String,
}

/// A named literal: an output, bad property or constraint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    /// The literal.
    pub lit: Lit,
    /// Symbol (may be empty).
    pub name: String,
}

/// A sequential AIG with the AIGER 1.9 sections. Variables are created in topological order:
/// an AND's operands are always smaller variables, so variable order is an evaluation order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Aig {
    nodes: Vec<Node>,
    #[serde(skip)]
    strash: FxHashMap<(Lit, Lit), Lit>,
    /// Primary inputs.
    pub inputs: Vec<Input>,
    /// Latches.
    pub latches: Vec<Latch>,
    /// Outputs.
    pub outputs: Vec<Named>,
    /// Bad-state properties.
    pub bad: Vec<Named>,
    /// Invariant constraints.
    pub constraints: Vec<Named>,
    /// Justice properties (each a set of literals that must hold infinitely often).
    pub justice: Vec<Vec<Lit>>,
    /// Fairness constraints.
    pub fairness: Vec<Lit>,
    /// Free-text comment section.
    pub comment: Option<String>,
}

impl Aig {
    /// An empty AIG (only the constant).
    pub fn new() -> Self {
        Aig {
            nodes: vec![Node::Const],
            ..Default::default()
        }
    }

    /// Number of variables including the constant (AIGER `M + 1`).
    pub fn num_vars(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// Number of AND gates.
    pub fn num_ands(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::And(..)))
            .count()
    }

    /// The node defining variable `var`.
    ///
    /// # Panics
    /// If `var` is not a variable of this AIG (internal error).
    pub fn node(&self, var: u32) -> Node {
        self.nodes[var as usize]
    }

    /// All nodes, indexed by variable.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    fn push(&mut self, n: Node) -> Lit {
        self.nodes.push(n);
        Lit::var_lit(self.nodes.len() as u32 - 1)
    }

    /// Adds a primary input.
    pub fn add_input(&mut self, name: impl Into<String>) -> Lit {
        let lit = self.push(Node::Input(self.inputs.len() as u32));
        self.inputs.push(Input {
            lit,
            name: name.into(),
        });
        lit
    }

    /// Adds a latch whose next-state function is set later with [`Aig::set_next`]
    /// (initially it keeps its value).
    pub fn add_latch(&mut self, name: impl Into<String>, reset: Reset) -> Lit {
        let lit = self.push(Node::Latch(self.latches.len() as u32));
        self.latches.push(Latch {
            lit,
            next: lit,
            reset,
            name: name.into(),
        });
        lit
    }

    /// Sets the next-state function of the latch whose current-state literal is `latch`.
    ///
    /// # Panics
    /// If `latch` is not a latch literal (internal error).
    pub fn set_next(&mut self, latch: Lit, next: Lit) {
        let Node::Latch(i) = self.node(latch.var()) else {
            panic!("set_next on a non-latch literal {latch:?}");
        };
        self.latches[i as usize].next = next;
    }

    /// Adds an AND gate without hashing or folding (for readers that must keep the file's
    /// structure). Operands must be smaller variables.
    pub fn add_raw_and(&mut self, a: Lit, b: Lit) -> Lit {
        self.push(Node::And(a, b))
    }

    /// `a ∧ b`, constant-folded and structurally hashed.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == Lit::FALSE || a == !b {
            return Lit::FALSE;
        }
        if a == Lit::TRUE || a == b {
            return b;
        }
        if self.strash.is_empty() && self.nodes.len() > 1 {
            self.rebuild_strash();
        }
        if let Some(l) = self.strash.get(&(a, b)) {
            return *l;
        }
        let l = self.push(Node::And(a, b));
        self.strash.insert((a, b), l);
        l
    }

    fn rebuild_strash(&mut self) {
        for (v, n) in self.nodes.iter().enumerate() {
            if let Node::And(a, b) = n {
                let k = if a <= b { (*a, *b) } else { (*b, *a) };
                self.strash.entry(k).or_insert(Lit::var_lit(v as u32));
            }
        }
    }

    /// `a ∨ b`.
    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    /// `a ⊕ b`.
    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let x = self.and(a, !b);
        let y = self.and(!a, b);
        self.or(x, y)
    }

    /// `a ↔ b`.
    pub fn xnor(&mut self, a: Lit, b: Lit) -> Lit {
        !self.xor(a, b)
    }

    /// `c ? t : e`.
    pub fn ite(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        if t == e {
            return t;
        }
        let x = self.and(c, t);
        let y = self.and(!c, e);
        self.or(x, y)
    }

    /// Conjunction of many literals (true if empty).
    pub fn and_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        lits.into_iter().fold(Lit::TRUE, |acc, l| self.and(acc, l))
    }

    /// Disjunction of many literals (false if empty).
    pub fn or_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        lits.into_iter().fold(Lit::FALSE, |acc, l| self.or(acc, l))
    }

    /// Index of the input whose literal is `lit` (positive), if any.
    pub fn input_index(&self, lit: Lit) -> Option<usize> {
        match self.nodes.get(lit.var() as usize) {
            Some(Node::Input(i)) => Some(*i as usize),
            _ => None,
        }
    }

    /// Index of the latch whose literal is `lit` (positive), if any.
    pub fn latch_index(&self, lit: Lit) -> Option<usize> {
        match self.nodes.get(lit.var() as usize) {
            Some(Node::Latch(i)) => Some(*i as usize),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_hashing() {
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        assert_eq!(g.and(a, Lit::TRUE), a);
        assert_eq!(g.and(a, Lit::FALSE), Lit::FALSE);
        assert_eq!(g.and(a, !a), Lit::FALSE);
        assert_eq!(g.and(a, a), a);
        let x = g.and(a, b);
        assert_eq!(g.and(b, a), x);
        assert_eq!(g.num_ands(), 1);
        let _ = g.xor(a, b);
        let n = g.num_ands();
        let _ = g.xor(a, b);
        assert_eq!(g.num_ands(), n);
    }

    #[test]
    fn latches_and_inputs_are_indexed() {
        let mut g = Aig::new();
        let i = g.add_input("i");
        let l = g.add_latch("l", Reset::Free);
        g.set_next(l, !l);
        assert_eq!(g.input_index(i), Some(0));
        assert_eq!(g.latch_index(l), Some(0));
        assert_eq!(g.latches[0].next, !l);
    }
}
