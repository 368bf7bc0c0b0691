//! Bounded ∃∀ reachability: inputs that keep a bad state out of reach at one frame, whatever
//! values an adversary gives to the other inputs (`docs/method.md` §4.7).
//!
//! The question for a depth k: are there values of the *outer* inputs in frames 0..=k such
//! that no values of the *universal* inputs (and of the free initial latch values) make every
//! constraint hold in frames 0..=k and the bad property hold in frame k? It is a 2QBF, solved
//! without quantifiers by counterexample-guided refinement over two incremental SAT solvers:
//!
//! * the **candidate** solver proposes outer values. It holds a *companion* run (one unrolling
//!   in which the universal inputs are free and a chosen subset of the constraints holds, so
//!   that the answer comes with a run that exists), and one unrolling per refutation, with that
//!   refutation's universal values as constants, whose constraints-and-bad must be false;
//! * the **verifier** solver, one unrolling with everything asserted, looks for universal values
//!   that reach bad under the proposed outer values. If there are none the candidate is the
//!   answer; otherwise those values are the next refutation.
//!
//! Each refutation removes at least the candidate it refutes, and a universal assignment is
//! never returned twice, so the loop ends; in practice a few refutations suffice when the
//! adversary's choices matter little.

use std::time::Instant;

use hypermut_aig::{Aig, Lit, Node, Reset, Witness};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as SatLit, TernaryVal, Var};

use crate::bmc::{new_solver, BmcError};
use crate::unroll::{cone_of_influence, UnrollError};

/// Which inputs the adversary chooses and which constraints the companion run keeps.
#[derive(Clone, Copy, Debug)]
pub struct ExistsForall<'a> {
    /// The circuit; its first bad property is what the adversary wants to reach.
    pub aig: &'a Aig,
    /// Per input (in input order): whether the adversary chooses it in every frame.
    pub universal: &'a [bool],
    /// Per constraint (in constraint order): whether the returned companion run satisfies it.
    pub companion: &'a [bool],
    /// Per input: in the companion run, a universal input may be tied to an outer one (it
    /// takes that input's value in every frame) instead of being free. Empty: none tied.
    pub companion_ties: &'a [Option<usize>],
    /// Whether the adversary's strategy "every universal input takes the value of the outer
    /// input it is tied to" (`companion_ties`) is a refutation from the start: one unrolled
    /// copy that rules out every candidate it answers, before any constant refutation. Used
    /// only when every universal input is tied and no latch starts free.
    pub tied_refutation: bool,
}

/// What a search at one depth found, besides the answer itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Refutations added to the candidate solver (the loop's iterations minus one).
    pub refutations: usize,
}

/// Allocates solver variables for one solver.
struct Alloc {
    next: u32,
    truth: SatLit,
}

impl Alloc {
    fn new<S: Solve>(solver: &mut S) -> Result<Alloc, BmcError> {
        let truth = Var::new(0).pos_lit();
        solver.add_unit(truth).map_err(sat_err)?;
        Ok(Alloc { next: 1, truth })
    }

    fn fresh(&mut self) -> SatLit {
        let l = Var::new(self.next).pos_lit();
        self.next += 1;
        l
    }

    fn constant(&self, value: bool) -> SatLit {
        if value {
            self.truth
        } else {
            !self.truth
        }
    }
}

fn sat_err(e: impl std::fmt::Display) -> BmcError {
    BmcError::Unroll(UnrollError::Solver(e.to_string()))
}

/// One unrolled copy: per frame, per AIG variable, its solver literal (variables outside the
/// cone of influence hold the constant false, never read).
struct Copy {
    frames: Vec<Vec<SatLit>>,
}

impl Copy {
    fn lit(&self, frame: usize, l: Lit) -> SatLit {
        let base = self.frames[frame][l.var() as usize];
        if l.is_neg() {
            !base
        } else {
            base
        }
    }
}

/// Where one copy takes the value of input `i` in frame `f` and of free latch `j` in frame 0.
trait Sources {
    fn input(&mut self, alloc: &mut Alloc, frame: usize, input: usize) -> SatLit;
    fn free_init(&mut self, alloc: &mut Alloc, latch: usize) -> SatLit;
}

/// Tseitin encoding of `a ∧ b` with constant folding.
fn and<S: Solve>(
    solver: &mut S,
    alloc: &mut Alloc,
    a: SatLit,
    b: SatLit,
) -> Result<SatLit, BmcError> {
    let t = alloc.truth;
    if a == !t || b == !t || a == !b {
        return Ok(!t);
    }
    if a == t || a == b {
        return Ok(b);
    }
    if b == t {
        return Ok(a);
    }
    let x = alloc.fresh();
    solver.add_binary(!x, a).map_err(sat_err)?;
    solver.add_binary(!x, b).map_err(sat_err)?;
    solver.add_ternary(x, !a, !b).map_err(sat_err)?;
    Ok(x)
}

/// Unrolls frames 0..=depth of the cone `coi` of `aig` into `solver`.
fn encode<S: Solve>(
    aig: &Aig,
    coi: &[bool],
    depth: usize,
    solver: &mut S,
    alloc: &mut Alloc,
    src: &mut dyn Sources,
    deadline: Option<Instant>,
) -> Result<Copy, BmcError> {
    let n = aig.num_vars() as usize;
    let mut frames: Vec<Vec<SatLit>> = Vec::with_capacity(depth + 1);
    for f in 0..=depth {
        // Hundreds of frames of a large circuit take long to encode: the deadline holds here
        // too, not only in the solver.
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(BmcError::Interrupted);
        }
        let mut cur = vec![alloc.constant(false); n];
        for (v, node) in aig.nodes().iter().enumerate() {
            if !coi.get(v).copied().unwrap_or(false) {
                continue;
            }
            let read = |cur: &[SatLit], l: Lit| -> SatLit {
                let b = cur[l.var() as usize];
                if l.is_neg() {
                    !b
                } else {
                    b
                }
            };
            cur[v] = match *node {
                Node::Const => alloc.constant(false),
                Node::Input(i) => src.input(alloc, f, i as usize),
                Node::Latch(j) => {
                    let latch = &aig.latches[j as usize];
                    if f == 0 {
                        match latch.reset {
                            Reset::Zero => alloc.constant(false),
                            Reset::One => alloc.constant(true),
                            Reset::Free => src.free_init(alloc, j as usize),
                        }
                    } else {
                        read(&frames[f - 1], latch.next)
                    }
                }
                Node::And(a, b) => {
                    let (la, lb) = (read(&cur, a), read(&cur, b));
                    and(solver, alloc, la, lb)?
                }
            };
        }
        frames.push(cur);
    }
    Ok(Copy { frames })
}

/// Fresh variables for every input and free latch (the verifier, the companion's universal
/// inputs), remembered so that a model can be read back.
#[derive(Default)]
struct Fresh {
    inputs: Vec<Vec<Option<SatLit>>>,
    inits: Vec<Option<SatLit>>,
}

impl Fresh {
    fn new(aig: &Aig, depth: usize) -> Fresh {
        Fresh {
            inputs: vec![vec![None; aig.inputs.len()]; depth + 1],
            inits: vec![None; aig.latches.len()],
        }
    }
}

impl Sources for Fresh {
    fn input(&mut self, alloc: &mut Alloc, frame: usize, input: usize) -> SatLit {
        *self.inputs[frame][input].get_or_insert_with(|| alloc.fresh())
    }
    fn free_init(&mut self, alloc: &mut Alloc, latch: usize) -> SatLit {
        *self.inits[latch].get_or_insert_with(|| alloc.fresh())
    }
}

/// A copy in the candidate solver: outer inputs are the shared candidate variables, universal
/// inputs and free latches come from `values` (a refutation) or are fresh (the companion).
struct Candidate<'a> {
    universal: &'a [bool],
    ties: &'a [Option<usize>],
    outer: &'a mut Fresh,
    values: Option<&'a Refutation>,
    own: Fresh,
}

impl Sources for Candidate<'_> {
    fn input(&mut self, alloc: &mut Alloc, frame: usize, input: usize) -> SatLit {
        if !self.universal.get(input).copied().unwrap_or(false) {
            return self.outer.input(alloc, frame, input);
        }
        match (self.values, self.ties.get(input).copied().flatten()) {
            (Some(r), _) => alloc.constant(r.inputs[frame][input]),
            (None, Some(tied)) => self.outer.input(alloc, frame, tied),
            (None, None) => self.own.input(alloc, frame, input),
        }
    }
    fn free_init(&mut self, alloc: &mut Alloc, latch: usize) -> SatLit {
        match self.values {
            Some(r) => alloc.constant(r.inits[latch]),
            None => self.own.free_init(alloc, latch),
        }
    }
}

/// Universal input values and free initial latch values that reach bad.
struct Refutation {
    inputs: Vec<Vec<bool>>,
    inits: Vec<bool>,
}

fn value<S: Solve>(solver: &S, l: Option<SatLit>) -> Result<bool, BmcError> {
    match l {
        Some(l) => Ok(solver.lit_val(l).map_err(sat_err)? == TernaryVal::True),
        None => Ok(false),
    }
}

/// Adds to the candidate solver that under the adversary's values of `copy` the constraints
/// fail in some frame up to `depth` or `bad` is false in frame `depth`.
fn refute<S: Solve>(
    cand: &mut S,
    ca: &Alloc,
    aig: &Aig,
    copy: &Copy,
    depth: usize,
    bad: Lit,
) -> Result<(), BmcError> {
    let mut clause: Vec<SatLit> = vec![!copy.lit(depth, bad)];
    for f in 0..=depth {
        for c in &aig.constraints {
            clause.push(!copy.lit(f, c.lit));
        }
    }
    clause.sort_unstable_by_key(|l| l.to_ipasir());
    clause.dedup();
    if clause.contains(&ca.truth) {
        return Ok(());
    }
    clause.retain(|l| *l != !ca.truth);
    cand.add_clause(clause.into_iter().collect())
        .map_err(sat_err)
}

impl ExistsForall<'_> {
    /// Outer input values for frames 0..=`depth` that keep bad unreachable in frame `depth`
    /// for every choice of the universal inputs, returned as the companion run (every input's
    /// value in every frame, and the initial latch values); `None` if there are none.
    pub fn solve(
        &self,
        depth: usize,
        deadline: Option<Instant>,
    ) -> Result<(Option<Witness>, SearchStats), BmcError> {
        let aig = self.aig;
        let bad = aig.bad.first().ok_or(BmcError::NoBadProperty)?.lit;
        let roots: Vec<Lit> = std::iter::once(bad)
            .chain(aig.constraints.iter().map(|c| c.lit))
            .collect();
        let coi = cone_of_influence(aig, &roots)?;
        let mut stats = SearchStats::default();

        // The verifier: every constraint in every frame, bad in the last one (by assumption).
        let mut ver = new_solver(deadline);
        let mut va = Alloc::new(&mut ver)?;
        let mut vsrc = Fresh::new(aig, depth);
        let vcopy = encode(aig, &coi, depth, &mut ver, &mut va, &mut vsrc, deadline)?;
        for f in 0..=depth {
            for c in &aig.constraints {
                ver.add_unit(vcopy.lit(f, c.lit)).map_err(sat_err)?;
            }
        }
        let vbad = vcopy.lit(depth, bad);

        // The candidate solver with the companion run.
        let mut cand = new_solver(deadline);
        let mut ca = Alloc::new(&mut cand)?;
        let mut outer = Fresh::new(aig, depth);
        let mut comp_src = Candidate {
            universal: self.universal,
            ties: self.companion_ties,
            outer: &mut outer,
            values: None,
            own: Fresh::new(aig, depth),
        };
        let comp = encode(
            aig,
            &coi,
            depth,
            &mut cand,
            &mut ca,
            &mut comp_src,
            deadline,
        )?;
        let comp_own = std::mem::take(&mut comp_src.own);
        for f in 0..=depth {
            for (c, keep) in aig.constraints.iter().zip(self.companion) {
                if *keep {
                    cand.add_unit(comp.lit(f, c.lit)).map_err(sat_err)?;
                }
            }
        }

        if self.tied_strategy(&coi) {
            let mut src = Candidate {
                universal: self.universal,
                ties: self.companion_ties,
                outer: &mut outer,
                values: None,
                own: Fresh::default(),
            };
            let copy = encode(aig, &coi, depth, &mut cand, &mut ca, &mut src, deadline)?;
            refute(&mut cand, &ca, aig, &copy, depth, bad)?;
        }

        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(BmcError::Interrupted);
            }
            match cand.solve().map_err(sat_err)? {
                SolverResult::Sat => {}
                SolverResult::Unsat => return Ok((None, stats)),
                SolverResult::Interrupted => return Err(BmcError::Interrupted),
            }
            // The candidate's outer values, as assumptions of the verifier.
            let mut assumptions = vec![vbad];
            for f in 0..=depth {
                for (i, universal) in self.universal.iter().enumerate() {
                    if *universal {
                        continue;
                    }
                    if let Some(vl) = vsrc.inputs[f][i] {
                        let x = value(&cand, outer.inputs[f][i])?;
                        assumptions.push(if x { vl } else { !vl });
                    }
                }
            }
            match ver.solve_assumps(&assumptions).map_err(sat_err)? {
                SolverResult::Unsat => {
                    let w = self.companion_witness(&cand, &outer, &comp_own, depth)?;
                    return Ok((Some(w), stats));
                }
                SolverResult::Interrupted => return Err(BmcError::Interrupted),
                SolverResult::Sat => {}
            }
            let mut r = Refutation {
                inputs: vec![vec![false; aig.inputs.len()]; depth + 1],
                inits: vec![false; aig.latches.len()],
            };
            for f in 0..=depth {
                for i in 0..aig.inputs.len() {
                    r.inputs[f][i] = value(&ver, vsrc.inputs[f][i])?;
                }
            }
            for j in 0..aig.latches.len() {
                r.inits[j] = value(&ver, vsrc.inits[j])?;
            }
            stats.refutations += 1;
            let mut src = Candidate {
                universal: self.universal,
                ties: &[],
                outer: &mut outer,
                values: Some(&r),
                own: Fresh::default(),
            };
            let copy = encode(aig, &coi, depth, &mut cand, &mut ca, &mut src, deadline)?;
            refute(&mut cand, &ca, aig, &copy, depth, bad)?;
        }
    }

    /// Whether the tied strategy can be a refutation: every universal input in the cone is
    /// tied to an outer input and no latch in the cone starts free.
    fn tied_strategy(&self, coi: &[bool]) -> bool {
        let aig = self.aig;
        self.tied_refutation
            && aig.nodes().iter().enumerate().all(|(v, node)| {
                !coi.get(v).copied().unwrap_or(false)
                    || match *node {
                        Node::Input(i) => {
                            let i = i as usize;
                            !self.universal.get(i).copied().unwrap_or(false)
                                || self.companion_ties.get(i).copied().flatten().is_some()
                        }
                        Node::Latch(j) => aig.latches[j as usize].reset != Reset::Free,
                        _ => true,
                    }
            })
    }

    /// The companion run of the candidate solver's current model.
    fn companion_witness<S: Solve>(
        &self,
        cand: &S,
        outer: &Fresh,
        own: &Fresh,
        depth: usize,
    ) -> Result<Witness, BmcError> {
        let aig = self.aig;
        let mut inputs = Vec::with_capacity(depth + 1);
        for f in 0..=depth {
            let mut frame = Vec::with_capacity(aig.inputs.len());
            for i in 0..aig.inputs.len() {
                let tied = self.companion_ties.get(i).copied().flatten();
                let src = if let (true, Some(j)) =
                    (self.universal.get(i).copied().unwrap_or(false), tied)
                {
                    outer.inputs[f][j]
                } else if self.universal.get(i).copied().unwrap_or(false) {
                    own.inputs.get(f).and_then(|v| v[i])
                } else {
                    outer.inputs[f][i]
                };
                frame.push(Some(value(cand, src)?));
            }
            inputs.push(frame);
        }
        let mut init = Vec::with_capacity(aig.latches.len());
        for (j, l) in aig.latches.iter().enumerate() {
            init.push(Some(match l.reset {
                Reset::Zero => false,
                Reset::One => true,
                Reset::Free => value(cand, own.inits.get(j).copied().flatten())?,
            }));
        }
        Ok(Witness {
            properties: vec!["b0".into()],
            init,
            inputs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{simulate, Named};

    /// Brute force over every outer and universal assignment of a tiny circuit.
    fn brute(aig: &Aig, universal: &[bool], depth: usize) -> bool {
        let n = aig.inputs.len() * (depth + 1);
        let outer_bits: Vec<usize> = (0..n)
            .filter(|b| !universal[b % aig.inputs.len()])
            .collect();
        let univ_bits: Vec<usize> = (0..n).filter(|b| universal[b % aig.inputs.len()]).collect();
        let frames = |x: u64, y: u64| -> Vec<Vec<Option<bool>>> {
            let mut v = vec![vec![Some(false); aig.inputs.len()]; depth + 1];
            for (k, b) in outer_bits.iter().enumerate() {
                v[b / aig.inputs.len()][b % aig.inputs.len()] = Some(x >> k & 1 == 1);
            }
            for (k, b) in univ_bits.iter().enumerate() {
                v[b / aig.inputs.len()][b % aig.inputs.len()] = Some(y >> k & 1 == 1);
            }
            v
        };
        (0..1u64 << outer_bits.len()).any(|x| {
            (0..1u64 << univ_bits.len()).all(|y| {
                let t = simulate(aig, &vec![None; aig.latches.len()], &frames(x, y));
                let ok = t.frames.iter().all(|f| f.constraints.iter().all(|c| *c));
                !(ok && t.frames[depth].bad[0])
            })
        })
    }

    /// `bad` in frame k: the adversary's bit `u` equals a latch that stores the tester's `x`
    /// of the previous frame, unless the tester's `y` says otherwise.
    fn game() -> Aig {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let y = g.add_input("y");
        let u = g.add_input("u");
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, x);
        let same = g.xor(u, l);
        let bad = g.and(!same, !y);
        g.bad.push(Named {
            lit: bad,
            name: "b".into(),
        });
        g
    }

    #[test]
    fn agrees_with_brute_force_on_a_game() {
        let g = game();
        for universal in [
            [false, false, true],
            [false, true, true],
            [true, true, true],
        ] {
            for depth in 0..3 {
                let q = ExistsForall {
                    aig: &g,
                    universal: &universal,
                    companion: &[],
                    companion_ties: &[],
                    tied_refutation: false,
                };
                let (found, _) = q.solve(depth, None).expect("solved");
                assert_eq!(
                    found.is_some(),
                    brute(&g, &universal, depth),
                    "{universal:?} at {depth}"
                );
                // A deadline already passed stops the search before it encodes a frame.
                let past = Some(std::time::Instant::now());
                assert!(matches!(q.solve(depth, past), Err(BmcError::Interrupted)));
                if let Some(w) = found {
                    // The returned outer values keep bad out of reach for every adversary value.
                    for u in [false, true] {
                        let mut frames = w.inputs.clone();
                        for f in &mut frames {
                            for (i, univ) in universal.iter().enumerate() {
                                if *univ {
                                    f[i] = Some(u);
                                }
                            }
                        }
                        let t = simulate(&g, &w.init, &frames);
                        assert!(!t.frames[depth].bad[0]);
                    }
                }
            }
        }
    }

    #[test]
    fn a_constraint_the_adversary_must_keep_helps_the_tester() {
        // bad = u, but the constraint says u → x: the tester wins with x = 0.
        let mut g = Aig::new();
        let x = g.add_input("x");
        let u = g.add_input("u");
        g.bad.push(Named {
            lit: u,
            name: "b".into(),
        });
        let imp = g.or(!u, x);
        g.constraints.push(Named {
            lit: imp,
            name: "c".into(),
        });
        let universal = [false, true];
        let q = ExistsForall {
            aig: &g,
            universal: &universal,
            companion: &[true],
            companion_ties: &[],
            tied_refutation: false,
        };
        let (w, _) = q.solve(0, None).expect("solved");
        let w = w.expect("x = 0 wins");
        assert_eq!(w.inputs[0][0], Some(false));
        // The companion run satisfies the kept constraint.
        assert!(w.inputs[0][1] != Some(true) || w.inputs[0][0] == Some(true));
        assert!(brute(&g, &universal, 0));
    }

    #[test]
    fn random_circuits_agree_with_brute_force() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..60 {
            let mut g = Aig::new();
            let ins: Vec<Lit> = (0..3).map(|i| g.add_input(format!("i{i}"))).collect();
            let latches: Vec<Lit> = (0..2)
                .map(|j| {
                    g.add_latch(
                        format!("l{j}"),
                        if j == 0 { Reset::Zero } else { Reset::One },
                    )
                })
                .collect();
            let mut pool: Vec<Lit> = ins.iter().chain(&latches).copied().collect();
            for _ in 0..6 {
                let a = pool[(next() % pool.len() as u64) as usize];
                let b = pool[(next() % pool.len() as u64) as usize];
                let (a, b) = (a.xor(next() & 1 == 1), b.xor(next() & 1 == 1));
                let x = g.and(a, b);
                pool.push(x);
            }
            for l in &latches {
                let n = pool[(next() % pool.len() as u64) as usize];
                g.set_next(*l, n);
            }
            let bad = *pool.last().expect("gates");
            g.bad.push(Named {
                lit: bad,
                name: "b".into(),
            });
            if case % 2 == 0 {
                let c = pool[(next() % pool.len() as u64) as usize].xor(true);
                g.constraints.push(Named {
                    lit: c,
                    name: "c".into(),
                });
            }
            let universal = [false, case % 3 == 0, true];
            // Tying the adversary's input to the tester's is one strategy of the adversary:
            // trying it first never changes the answer.
            let ties = [None, None, Some(0)];
            for depth in 0..3 {
                let q = ExistsForall {
                    aig: &g,
                    universal: &universal,
                    companion: &[],
                    companion_ties: &ties,
                    tied_refutation: case % 2 == 1,
                };
                let (found, _) = q.solve(depth, None).expect("solved");
                assert_eq!(
                    found.is_some(),
                    brute(&g, &universal, depth),
                    "case {case} depth {depth}"
                );
            }
        }
    }
}
