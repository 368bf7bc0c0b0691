//! Time-frame expansion of an [`Aig`] into CNF (Tseitin), restricted to a cone of influence.
//!
//! The [`Unroller`] is written against rustsat's [`Solve`] trait only, so every engine that
//! unrolls (BMC, k-induction, …) can run on any rustsat backend.

use std::collections::HashMap;

use hypermut_aig::{Aig, Lit, Node, Reset};
use rustsat::solvers::Solve;
use rustsat::types::{Lit as SatLit, TernaryVal, Var};

/// Errors while encoding frames or reading a model back.
#[derive(Debug, thiserror::Error)]
pub enum UnrollError {
    /// A literal names a variable the AIG does not have.
    #[error("literal {0} refers to variable {1}, which the AIG does not define")]
    UndefinedLiteral(u32, u32),
    /// An AND gate reads a variable that is not smaller than its own.
    #[error("AND gate {0} is not in topological order (operand variable {1})")]
    NotTopological(u32, u32),
    /// A literal was asked for at a frame that is not encoded, or outside the cone.
    #[error("literal {lit} is not encoded in frame {frame}")]
    NotEncoded {
        /// The AIG literal.
        lit: u32,
        /// The frame asked for.
        frame: usize,
    },
    /// The SAT solver reported an error.
    #[error("SAT solver error: {0}")]
    Solver(String),
}

/// How latches are constrained in frame 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitMode {
    /// Latches start at their reset values; [`Reset::Free`] latches are unconstrained.
    Reset,
    /// Every latch is unconstrained in frame 0 (for induction steps).
    Free,
}

/// Encodes frames 0, 1, 2, … of an AIG into a SAT solver. Only the cone of influence of the
/// root literals given to [`Unroller::new`] is encoded: the roots, the AND gates below them,
/// and transitively the next-state functions of the latches they read.
///
/// Frame `k+1` reuses the solver literal of each latch's next-state function at frame `k`, so
/// no equality clauses are needed; frame-0 latches with constant resets are the constant
/// literal (in [`InitMode::Reset`]). AND gates are hashed across all frames: a gate whose
/// operands have the solver literals of a gate encoded before (in any frame) is that gate's
/// literal. The two copies of a product start from the same reset state, so their frames
/// stay one circuit until the mutation makes them differ (`docs/method.md` §7.2).
#[derive(Debug)]
pub struct Unroller<'a> {
    aig: &'a Aig,
    /// Per AIG variable: its position among the cone's variables, or `NOT_IN_COI`.
    coi_index: Vec<u32>,
    /// The cone's variables in increasing order.
    coi_vars: Vec<u32>,
    /// Per frame, per cone variable (in `coi_vars` order): its solver literal.
    frames: Vec<Vec<SatLit>>,
    next_var: u32,
    true_lit: Option<SatLit>,
    init: InitMode,
    /// The solver literal of every AND gate encoded so far, by its operands (smaller first).
    gates: HashMap<(SatLit, SatLit), SatLit>,
}

impl<'a> Unroller<'a> {
    /// An unroller for the cone of influence of `roots`, with no frame encoded yet.
    pub fn new(aig: &'a Aig, roots: &[Lit], init: InitMode) -> Result<Self, UnrollError> {
        let in_coi = cone_of_influence(aig, roots)?;
        let mut coi_index = vec![NOT_IN_COI; in_coi.len()];
        let mut coi_vars = Vec::new();
        for (v, _) in in_coi.iter().enumerate().filter(|(_, b)| **b) {
            coi_index[v] = coi_vars.len() as u32;
            coi_vars.push(v as u32);
        }
        Ok(Unroller {
            aig,
            coi_index,
            coi_vars,
            frames: Vec::new(),
            next_var: 0,
            true_lit: None,
            init,
            gates: HashMap::new(),
        })
    }

    /// Whether AIG variable `var` is in the cone of influence.
    pub fn in_coi(&self, var: u32) -> bool {
        self.coi_index
            .get(var as usize)
            .is_some_and(|i| *i != NOT_IN_COI)
    }

    /// Number of AIG variables in the cone of influence (the constant included if used).
    pub fn coi_size(&self) -> usize {
        self.coi_vars.len()
    }

    /// Number of frames encoded so far.
    pub fn num_frames(&self) -> usize {
        self.frames.len()
    }

    /// Number of solver variables allocated so far (by frames and [`Unroller::new_var`]).
    pub fn num_sat_vars(&self) -> u32 {
        self.next_var
    }

    /// A fresh solver variable that no frame uses (for activation literals and the like).
    pub fn new_var(&mut self) -> Var {
        let v = Var::new(self.next_var);
        self.next_var += 1;
        v
    }

    fn true_lit<S: Solve + ?Sized>(&mut self, solver: &mut S) -> Result<SatLit, UnrollError> {
        if let Some(t) = self.true_lit {
            return Ok(t);
        }
        let t = self.new_var().pos_lit();
        solver.add_unit(t).map_err(solver_err)?;
        self.true_lit = Some(t);
        Ok(t)
    }

    /// Encodes the next frame and returns its index.
    pub fn add_frame<S: Solve + ?Sized>(&mut self, solver: &mut S) -> Result<usize, UnrollError> {
        self.push_frame(solver, &HashMap::new())
    }

    /// Encodes the next frame with the inputs of `fixed` (by AIG variable) as constants.
    fn push_frame<S: Solve + ?Sized>(
        &mut self,
        solver: &mut S,
        fixed: &HashMap<u32, bool>,
    ) -> Result<usize, UnrollError> {
        let k = self.frames.len();
        let t = self.true_lit(solver)?;
        let aig = self.aig;
        let mut frame: Vec<SatLit> = Vec::with_capacity(self.coi_vars.len());
        for ci in 0..self.coi_vars.len() {
            let v = self.coi_vars[ci] as usize;
            let node = aig.nodes()[v]; // coi_vars holds only variables of `aig`
            let lit = match node {
                Node::Const => !t,
                Node::Input(_) => match fixed.get(&(v as u32)) {
                    Some(true) => t,
                    Some(false) => !t,
                    None => self.new_var().pos_lit(),
                },
                Node::Latch(i) => {
                    let latch = aig
                        .latches
                        .get(i as usize)
                        .ok_or(UnrollError::UndefinedLiteral(2 * v as u32, v as u32))?;
                    if k == 0 {
                        match (self.init, latch.reset) {
                            (InitMode::Reset, Reset::Zero) => !t,
                            (InitMode::Reset, Reset::One) => t,
                            _ => self.new_var().pos_lit(),
                        }
                    } else {
                        self.lit(k - 1, latch.next)?
                    }
                }
                Node::And(a, b) => {
                    let la = self.operand(&frame, v as u32, a)?;
                    let lb = self.operand(&frame, v as u32, b)?;
                    self.encode_and(solver, t, la, lb)?
                }
            };
            frame.push(lit);
        }
        self.frames.push(frame);
        Ok(k)
    }

    /// Encodes the next frame, in which every literal of `constraints` must hold, and
    /// returns its index. An input that one constraint fixes on its own in this frame (the
    /// constraint is that input, or its negation, once the frame's constants are folded: a
    /// reset held in the first cycle) is encoded as that constant, and the frame again with
    /// it, so that the logic it drives folds too. The caller still asserts the constraints.
    pub fn add_frame_under<S: Solve + ?Sized>(
        &mut self,
        solver: &mut S,
        constraints: &[Lit],
    ) -> Result<usize, UnrollError> {
        let mut fixed: HashMap<u32, bool> = HashMap::new();
        let mut k = self.push_frame(solver, &fixed)?;
        // Each round fixes at least one more input; a few rounds find every chain of them.
        for _ in 0..FIXING_ROUNDS {
            let found = self.inputs_fixed_by(k, constraints)?;
            if found.is_empty() {
                break;
            }
            fixed.extend(found);
            self.frames.pop();
            k = self.push_frame(solver, &fixed)?;
        }
        Ok(k)
    }

    /// The inputs of frame `k` (not already constants) that a literal of `constraints` is,
    /// with the value it gives them.
    fn inputs_fixed_by(
        &self,
        k: usize,
        constraints: &[Lit],
    ) -> Result<Vec<(u32, bool)>, UnrollError> {
        let inputs: HashMap<Var, u32> = self
            .coi_vars
            .iter()
            .zip(&self.frames[k])
            .filter(|(v, _)| matches!(self.aig.nodes()[**v as usize], Node::Input(_)))
            // An input fixed before is the constant, not a variable of its own.
            .filter(|(_, l)| self.true_lit.map(|t| t.var()) != Some(l.var()))
            .map(|(v, l)| (l.var(), *v))
            .collect();
        let mut found = Vec::new();
        for c in constraints {
            let l = self.lit(k, *c)?;
            if let Some(&v) = inputs.get(&l.var()) {
                found.push((v, !l.is_neg()));
            }
        }
        Ok(found)
    }

    /// Tseitin encoding of `la ∧ lb`, folding constants and trivial cases, and reusing the
    /// literal of an AND of the same operands encoded before.
    fn encode_and<S: Solve + ?Sized>(
        &mut self,
        solver: &mut S,
        t: SatLit,
        la: SatLit,
        lb: SatLit,
    ) -> Result<SatLit, UnrollError> {
        if la == !t || lb == !t || la == !lb {
            return Ok(!t);
        }
        if la == t || la == lb {
            return Ok(lb);
        }
        if lb == t {
            return Ok(la);
        }
        let key = if la < lb { (la, lb) } else { (lb, la) };
        if let Some(&x) = self.gates.get(&key) {
            return Ok(x);
        }
        let x = self.new_var().pos_lit();
        self.gates.insert(key, x);
        solver.add_binary(!x, la).map_err(solver_err)?;
        solver.add_binary(!x, lb).map_err(solver_err)?;
        solver.add_ternary(x, !la, !lb).map_err(solver_err)?;
        Ok(x)
    }

    /// The literal of AND operand `op` of gate `gate` in a partially encoded frame.
    fn operand(&self, frame: &[SatLit], gate: u32, op: Lit) -> Result<SatLit, UnrollError> {
        if op.var() >= gate {
            return Err(UnrollError::NotTopological(gate, op.var()));
        }
        let base = self
            .coi_index
            .get(op.var() as usize)
            .and_then(|i| frame.get(*i as usize))
            .copied()
            .ok_or(UnrollError::UndefinedLiteral(op.0, op.var()))?;
        Ok(if op.is_neg() { !base } else { base })
    }

    /// The solver literal of AIG literal `lit` in frame `frame`.
    pub fn lit(&self, frame: usize, lit: Lit) -> Result<SatLit, UnrollError> {
        let not_encoded = UnrollError::NotEncoded { lit: lit.0, frame };
        let idx = self.coi_index.get(lit.var() as usize).copied();
        let base = self
            .frames
            .get(frame)
            .zip(idx)
            .and_then(|(f, i)| f.get(i as usize))
            .copied()
            .ok_or(not_encoded)?;
        Ok(if lit.is_neg() { !base } else { base })
    }

    /// The value of AIG literal `lit` in frame `frame` in the solver's current model, or
    /// `None` if the literal is not encoded there (outside the cone). Don't-cares read as
    /// false.
    pub fn value<S: Solve + ?Sized>(
        &self,
        solver: &S,
        frame: usize,
        lit: Lit,
    ) -> Result<Option<bool>, UnrollError> {
        let Ok(l) = self.lit(frame, lit) else {
            return Ok(None);
        };
        let v = solver.lit_val(l).map_err(solver_err)?;
        Ok(Some(v == TernaryVal::True))
    }
}

/// Most times [`Unroller::add_frame_under`] encodes one frame again with more fixed inputs.
const FIXING_ROUNDS: usize = 3;

/// Marks variables outside the cone in `Unroller::coi_index`.
const NOT_IN_COI: u32 = u32::MAX;

fn solver_err(e: impl std::fmt::Display) -> UnrollError {
    UnrollError::Solver(e.to_string())
}

/// The variables needed to evaluate `roots` in every frame: closed under AND operands and
/// under "latch ⇒ its next-state function".
pub fn cone_of_influence(aig: &Aig, roots: &[Lit]) -> Result<Vec<bool>, UnrollError> {
    let nodes = aig.nodes();
    let mut seen = vec![false; nodes.len()];
    let mut stack: Vec<Lit> = roots.to_vec();
    while let Some(l) = stack.pop() {
        let v = l.var();
        let node = nodes
            .get(v as usize)
            .ok_or(UnrollError::UndefinedLiteral(l.0, v))?;
        if seen[v as usize] {
            continue;
        }
        seen[v as usize] = true;
        match *node {
            Node::Const | Node::Input(_) => {}
            Node::Latch(i) => {
                let latch = aig
                    .latches
                    .get(i as usize)
                    .ok_or(UnrollError::UndefinedLiteral(l.0, v))?;
                stack.push(latch.next);
            }
            Node::And(a, b) => {
                stack.push(a);
                stack.push(b);
            }
        }
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Cadical;
    use rustsat::solvers::{SolveIncremental, SolverResult};

    #[test]
    fn cone_excludes_unrelated_logic() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let y = g.add_input("y");
        let l = g.add_latch("l", Reset::Zero);
        let m = g.add_latch("m", Reset::Zero);
        let lx = g.and(l, x);
        g.set_next(l, lx);
        let my = g.and(m, y);
        g.set_next(m, !my);
        let mut junk = y;
        for _ in 0..20 {
            junk = g.xor(junk, m);
            junk = g.and(junk, y);
        }
        let u = Unroller::new(&g, &[l], InitMode::Reset).expect("valid AIG");
        assert!(u.in_coi(l.var()) && u.in_coi(x.var()) && u.in_coi(lx.var()));
        assert!(!u.in_coi(y.var()) && !u.in_coi(m.var()) && !u.in_coi(junk.var()));
        assert_eq!(u.coi_size(), 3);
    }

    #[test]
    fn latch_next_pulls_in_its_cone() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let l = g.add_latch("l", Reset::Zero);
        let m = g.add_latch("m", Reset::Zero);
        g.set_next(l, m);
        g.set_next(m, x);
        let u = Unroller::new(&g, &[!l], InitMode::Reset).expect("valid AIG");
        assert!(u.in_coi(m.var()) && u.in_coi(x.var()));
    }

    #[test]
    fn undefined_root_is_an_error() {
        let g = Aig::new();
        assert!(matches!(
            Unroller::new(&g, &[Lit(10)], InitMode::Reset),
            Err(UnrollError::UndefinedLiteral(10, 5))
        ));
    }

    #[test]
    fn non_topological_and_is_an_error() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let bad = g.add_raw_and(x, Lit(6)); // var 2 reads var 3
        let _ = g.add_input("y");
        let mut u = Unroller::new(&g, &[bad], InitMode::Reset).expect("cone is defined");
        let mut s = Cadical::new();
        assert!(matches!(
            u.add_frame(&mut s),
            Err(UnrollError::NotTopological(2, 3))
        ));
    }

    /// Frame k+1 sees the next-state value of frame k: a toggling latch alternates, and its
    /// frame-0 value is the reset (or free).
    #[test]
    fn frames_follow_the_transition_relation() {
        for (reset, free_init) in [
            (Reset::Zero, false),
            (Reset::One, false),
            (Reset::Free, true),
        ] {
            let mut g = Aig::new();
            let l = g.add_latch("l", reset);
            g.set_next(l, !l);
            let mut u = Unroller::new(&g, &[l], InitMode::Reset).expect("valid AIG");
            let mut s = Cadical::new();
            for _ in 0..4 {
                u.add_frame(&mut s).expect("encodes");
            }
            for want0 in [false, true] {
                let a = u.lit(0, l.xor(!want0)).expect("encoded");
                let r = s.solve_assumps(&[a]).expect("solver runs");
                let allowed = free_init || want0 == (reset == Reset::One);
                assert_eq!(r == SolverResult::Sat, allowed, "{reset:?} start {want0}");
                if r == SolverResult::Sat {
                    for k in 0..4 {
                        let v = u.value(&s, k, l).expect("model");
                        assert_eq!(v, Some(want0 ^ (k % 2 == 1)));
                    }
                }
            }
        }
    }

    /// Two copies of a 3-bit shift register fed by one input, and a third whose middle stage
    /// is negated: the two equal copies share every frame's literals, the third splits off
    /// from the frame its changed stage is first read, and the solver still tells them apart.
    #[test]
    fn equal_copies_share_their_frames() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let y = g.add_input("y");
        let copy = |g: &mut Aig, name: &str, negate_middle: bool| {
            let regs: Vec<Lit> = (0..3)
                .map(|i| g.add_latch(format!("{name}{i}"), Reset::Zero))
                .collect();
            let first = g.and(x, !y);
            g.set_next(regs[0], first);
            let middle = g.and(regs[0], x);
            g.set_next(regs[1], if negate_middle { !middle } else { middle });
            let last = g.and(regs[1], !y);
            g.set_next(regs[2], last);
            regs
        };
        let a = copy(&mut g, "a", false);
        let b = copy(&mut g, "b", false);
        let c = copy(&mut g, "c", true);
        let roots = [a[2], b[2], c[2]];
        let mut u = Unroller::new(&g, &roots, InitMode::Reset).expect("valid AIG");
        let mut s = Cadical::new();
        for _ in 0..5 {
            u.add_frame(&mut s).expect("encodes");
        }
        for k in 0..5 {
            for i in 0..3 {
                assert_eq!(
                    u.lit(k, a[i]).ok(),
                    u.lit(k, b[i]).ok(),
                    "frame {k} stage {i}"
                );
            }
        }
        // c's middle stage differs from frame 1 on, its last stage from frame 2 on.
        assert_eq!(u.lit(1, a[1]).ok(), u.lit(1, c[1]).ok().map(|l| !l));
        let differ = |u: &Unroller<'_>, s: &mut Cadical, k: usize| {
            let (la, lc) = (u.lit(k, a[2]).expect("a"), u.lit(k, c[2]).expect("c"));
            s.solve_assumps(&[la, !lc]).expect("runs") == SolverResult::Sat
                || s.solve_assumps(&[!la, lc]).expect("runs") == SolverResult::Sat
        };
        assert!(!differ(&u, &mut s, 1));
        assert!(differ(&u, &mut s, 2));
    }

    /// A reset input held by a constraint in the first cycle only: two registers with free
    /// initial values are both cleared by it, so in frame 1 they are the constant 0 (and
    /// the same literal), in frame 2 free again; without the constraint they stay apart.
    #[test]
    fn an_input_a_constraint_fixes_is_a_constant_of_its_frame() {
        let mut g = Aig::new();
        let r = g.add_input("r");
        let x = g.add_input("x");
        let first = g.add_latch("first", Reset::One);
        g.set_next(first, Lit::FALSE);
        let hold = g.or(!first, r);
        let regs: Vec<Lit> = ["a", "b"]
            .iter()
            .map(|name| {
                let l = g.add_latch(*name, Reset::Free);
                let toggled = g.xor(l, x);
                let next = g.and(!r, toggled);
                g.set_next(l, next);
                l
            })
            .collect();
        for constrained in [true, false] {
            let constraints: &[Lit] = if constrained { &[hold] } else { &[] };
            let mut roots = regs.clone();
            roots.push(hold);
            let mut u = Unroller::new(&g, &roots, InitMode::Reset).expect("valid AIG");
            let mut s = Cadical::new();
            for _ in 0..3 {
                let k = u.add_frame_under(&mut s, constraints).expect("encodes");
                for c in constraints {
                    s.add_unit(u.lit(k, *c).expect("encoded")).expect("adds");
                }
            }
            let at = |k: usize, l: Lit| u.lit(k, l).expect("encoded");
            assert_eq!(at(1, regs[0]) == at(1, regs[1]), constrained);
            // Frame 1 is 0 for both whenever the constraint holds; frame 2 is free.
            for (k, can_be_one) in [(1, !constrained), (2, true)] {
                let one = s.solve_assumps(&[at(k, regs[0])]).expect("runs");
                assert_eq!(one == SolverResult::Sat, can_be_one, "frame {k}");
            }
            if constrained {
                assert_eq!(s.solve_assumps(&[]).expect("runs"), SolverResult::Sat);
                assert_eq!(u.value(&s, 0, r).expect("model"), Some(true));
            }
        }
    }

    #[test]
    fn free_init_mode_ignores_resets() {
        let mut g = Aig::new();
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, l);
        let mut u = Unroller::new(&g, &[l], InitMode::Free).expect("valid AIG");
        let mut s = Cadical::new();
        u.add_frame(&mut s).expect("encodes");
        u.add_frame(&mut s).expect("encodes");
        let a = u.lit(1, l).expect("encoded");
        assert_eq!(s.solve_assumps(&[a]).expect("runs"), SolverResult::Sat);
    }
}
