//! Speculatively reduced frames (`docs/method.md` §7.6): the refinement's SAT problems with
//! every class member replaced by its representative.
//!
//! A [`Frames`] is one combinational circuit: a *start* state (the initial states, or a free
//! state in which every class equality and constraint holds), then the *checked* frame, in
//! which every member's own function is compared with its representative's (a *miter*) and
//! then replaced by it. Structural hashing makes a member whose inputs were all merged
//! identical to its representative, so its miter is the constant false and needs no SAT call:
//! in a mutant's product this is every twin outside the mutation's reach. The other miters
//! are asked one by one on their small cones.
//!
//! A satisfied miter need not be a real violation (it is computed from substituted inputs),
//! but some equality fails in the real evaluation of the same checked state: the first failing
//! equality in variable order has its real inputs equal to the substituted ones. The checked
//! state is therefore evaluated in the original circuit and the classes are split by those
//! values; every round with a model removes at least one equality.

use std::collections::HashMap;

use hypermut_aig::wordsim::{eval_words, lit_word, WordRng};
use hypermut_aig::{Aig, Lit, Node, Reset};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};

use super::classes::{Candidates, Class};
use super::error::{solver_err, ScorrError};
use crate::backend::default_solver;
use crate::limits::Limits;
use crate::unroll::{InitMode, Unroller};

/// Most words of 64 counterexample states one round collects before the classes are split
/// and the frames rebuilt.
const MAX_WORDS: usize = 16;

/// Where the checked frame starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// In an initial state (reset values; latches without one free); nothing assumed.
    Initial,
    /// In a free state satisfying every class equality and every constraint, with free inputs.
    Assumed,
}

/// What a class member equals.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// Its representative's variable, negated if `true`.
    Rep(u32, bool),
    /// A constant.
    Const(bool),
}

/// One speculatively reduced problem (see the module documentation).
pub(super) struct Frames {
    comb: Aig,
    /// The literals that must hold (start-frame constraints and equalities).
    assumed: Vec<Lit>,
    /// Per checked equality whose miter is not constant: the member's candidate index and the
    /// literal that is true when the member differs from its target.
    miters: Vec<(usize, Lit)>,
    /// The real latch values of the checked frame (before substitution), per original latch.
    state: Vec<Lit>,
    /// The inputs of the checked frame, per original input.
    inputs: Vec<Lit>,
}

impl Frames {
    /// The reduced problem of `aig` for `classes` from `start`.
    pub(super) fn build(aig: &Aig, cands: &Candidates, classes: &[Class], start: Start) -> Self {
        let targets = targets(aig, cands, classes);
        let mut comb = Aig::new();
        let mut assumed = Vec::new();
        let n = aig.nodes().len();
        let get = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
        let target_lit = |map: &[Lit], t: Target| match t {
            Target::Rep(r, neg) => map[r as usize].xor(neg),
            Target::Const(b) => Lit::constant(b),
        };
        let state: Vec<Lit> = match start {
            Start::Initial => aig
                .latches
                .iter()
                .map(|l| match l.reset {
                    Reset::Zero => Lit::FALSE,
                    Reset::One => Lit::TRUE,
                    Reset::Free => comb.add_input(""),
                })
                .collect(),
            Start::Assumed => {
                let mut map = vec![Lit::FALSE; n];
                for (v, node) in aig.nodes().iter().enumerate() {
                    let own = match *node {
                        Node::Const => Lit::FALSE,
                        Node::Input(_) => comb.add_input(""),
                        Node::Latch(_) => match targets.get(&(v as u32)) {
                            // A member latch is its target: the state satisfies it.
                            Some(&t) => target_lit(&map, t),
                            None => comb.add_input(""),
                        },
                        Node::And(a, b) => comb.and(get(&map, a), get(&map, b)),
                    };
                    map[v] = match targets.get(&(v as u32)) {
                        Some(&t) if matches!(*node, Node::And(..)) => {
                            let merged = target_lit(&map, t);
                            if merged != own {
                                let holds = comb.xnor(own, merged);
                                assumed.push(holds);
                            }
                            merged
                        }
                        _ => own,
                    };
                }
                assumed.extend(aig.constraints.iter().map(|c| get(&map, c.lit)));
                aig.latches.iter().map(|l| get(&map, l.next)).collect()
            }
        };
        let mut inputs = Vec::with_capacity(aig.inputs.len());
        let mut miters = Vec::new();
        let mut map = vec![Lit::FALSE; n];
        let cand_of: HashMap<u32, usize> = cands
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, i))
            .collect();
        for (v, node) in aig.nodes().iter().enumerate() {
            let own = match *node {
                Node::Const => Lit::FALSE,
                Node::Input(_) => {
                    let l = comb.add_input("");
                    inputs.push(l);
                    l
                }
                Node::Latch(i) => state[i as usize],
                Node::And(a, b) => comb.and(get(&map, a), get(&map, b)),
            };
            map[v] = match targets.get(&(v as u32)) {
                Some(&t) => {
                    let merged = target_lit(&map, t);
                    let differs = comb.xor(own, merged);
                    if differs != Lit::FALSE {
                        miters.push((cand_of[&(v as u32)], differs));
                    }
                    merged
                }
                None => own,
            };
        }
        Frames {
            comb,
            assumed,
            miters,
            state,
            inputs,
        }
    }

    /// Number of equalities whose miter is not the constant false (those needing SAT).
    pub(super) fn open_miters(&self) -> usize {
        self.miters.len()
    }

    /// `None` when no equality can fail in the checked frame; otherwise the candidates' real
    /// values in up to [`MAX_WORDS`] × 64 checked states in which some equality fails (one
    /// vector of value words per 64 states, one bit per state), found by asking the miters
    /// one by one (a miter already refuted by an earlier model is skipped).
    pub(super) fn counterexamples(
        &self,
        aig: &Aig,
        cands: &Candidates,
        classes: &[Class],
        rng: &mut WordRng,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<u64>>>, ScorrError> {
        if self.miters.is_empty() {
            return Ok(None);
        }
        let mut roots = self.assumed.clone();
        roots.extend(self.miters.iter().map(|(_, l)| *l));
        let mut solver = default_solver(limits);
        let mut u = Unroller::new(&self.comb, &roots, InitMode::Free)?;
        u.add_frame(&mut solver)?;
        for &a in &self.assumed {
            if a == Lit::FALSE {
                // The assumptions are contradictory: nothing can fail.
                return Ok(None);
            }
            if a != Lit::TRUE {
                solver.add_unit(u.lit(0, a)?).map_err(solver_err)?;
            }
        }
        // Per comb input: its value word, pattern k in bits k..63 (later patterns overwrite
        // their own bits upward, so every bit holds some pattern).
        let fresh = |rng: &mut WordRng| -> Vec<u64> {
            self.comb.inputs.iter().map(|_| rng.next_word()).collect()
        };
        let mut words = fresh(rng);
        let mut patterns = 0usize;
        // The candidates' values of every full word of patterns, then of the current one.
        let mut done: Vec<Vec<u64>> = Vec::new();
        let mut current: Option<Vec<u64>> = None;
        let member_of = member_classes(cands, classes);
        for &(cand, miter) in &self.miters {
            if limits.reached() {
                return Err(ScorrError::Interrupted);
            }
            let seen = done.iter().chain(current.iter());
            if seen
                .into_iter()
                .any(|vals| refuted(cands, classes, &member_of, vals, cand))
            {
                continue;
            }
            match solver
                .solve_assumps(&[u.lit(0, miter)?])
                .map_err(solver_err)?
            {
                SolverResult::Unsat => {
                    solver.add_unit(!u.lit(0, miter)?).map_err(solver_err)?;
                }
                SolverResult::Interrupted => return Err(ScorrError::Interrupted),
                SolverResult::Sat => {
                    let upward = !0u64 << (patterns % 64);
                    for (w, i) in words.iter_mut().zip(&self.comb.inputs) {
                        if let Some(b) = u.value(&solver, 0, i.lit)? {
                            *w = (*w & !upward) | if b { upward } else { 0 };
                        }
                    }
                    patterns += 1;
                    current = Some(self.real_values(aig, cands, &words));
                    if patterns.is_multiple_of(64) {
                        done.extend(current.take());
                        if done.len() == MAX_WORDS {
                            break;
                        }
                        words = fresh(rng);
                    }
                }
            }
        }
        done.extend(current);
        Ok((!done.is_empty()).then_some(done))
    }

    /// The candidates' value words in the original circuit for the checked states given by
    /// `words` (per comb input).
    fn real_values(&self, aig: &Aig, cands: &Candidates, words: &[u64]) -> Vec<u64> {
        let comb = eval_words(&self.comb, words, &[]);
        let latches: Vec<u64> = self.state.iter().map(|l| lit_word(&comb, *l)).collect();
        let inputs: Vec<u64> = self.inputs.iter().map(|l| lit_word(&comb, *l)).collect();
        let values = eval_words(aig, &inputs, &latches);
        cands.vars.iter().map(|v| values[*v as usize]).collect()
    }
}

/// Per class member that is not a representative: what it equals.
fn targets(aig: &Aig, cands: &Candidates, classes: &[Class]) -> HashMap<u32, Target> {
    let mut out = HashMap::new();
    for c in classes {
        if c.constant {
            for &i in &c.members {
                out.insert(cands.vars[i], Target::Const(cands.phase[i]));
            }
            continue;
        }
        // The representative is the smallest variable, so that it is evaluated first.
        let Some(&rep) = c.members.iter().min_by_key(|&&i| cands.vars[i]) else {
            continue;
        };
        for &i in &c.members {
            if i != rep {
                let neg = cands.phase[i] != cands.phase[rep];
                out.insert(cands.vars[i], Target::Rep(cands.vars[rep], neg));
            }
        }
    }
    debug_assert!(out.keys().all(|v| (*v as usize) < aig.nodes().len()));
    out
}

/// Per candidate index: the index of its class, if it is in one.
fn member_classes(cands: &Candidates, classes: &[Class]) -> Vec<Option<usize>> {
    let mut out = vec![None; cands.vars.len()];
    for (k, c) in classes.iter().enumerate() {
        for &i in &c.members {
            out[i] = Some(k);
        }
    }
    out
}

/// Whether the real values `vals` already show candidate `cand` differing from its class
/// (its representative, or its phase in the constant class).
fn refuted(
    cands: &Candidates,
    classes: &[Class],
    member_of: &[Option<usize>],
    vals: &[u64],
    cand: usize,
) -> bool {
    let Some(k) = member_of[cand] else {
        return false;
    };
    let norm = |i: usize| vals[i] ^ if cands.phase[i] { u64::MAX } else { 0 };
    let c = &classes[k];
    if c.constant {
        return norm(cand) != 0;
    }
    c.members.iter().any(|&i| norm(i) != norm(cand))
}
