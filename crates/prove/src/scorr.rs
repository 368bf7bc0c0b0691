//! Signal correspondence (`docs/method.md` §7.6): a large set of equalities between signals
//! (latches, AND gates, constants; for every input value) that holds initially and is
//! inductive, found by refining candidate classes from bit-parallel simulation with SAT
//! counterexamples. When the equalities exclude the bad states they are an inductive
//! invariant: the problem is safe, with the equalities as the certificate.
//!
//! This is what makes equivalent mutants cheap: the two copies of a product are nearly
//! identical, so a mutant that changes nothing observable usually leaves the state the
//! outputs depend on equal to its twin, and one induction step proves it.

use std::collections::HashMap;

use hypermut_aig::wordsim::{constraints_word, eval_words, initial_words, next_words, WordRng};
use hypermut_aig::{Aig, Lit, Node};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::Lit as SatLit;

use crate::backend::default_solver;
use crate::certificate::Certificate;
use crate::engine::Engine;
use crate::limits::Limits;
use crate::merged::{is_state, merged_state};
use crate::reduced_verdict::checked_certificate;
use crate::unroll::{cone_of_influence, InitMode, Unroller};
use crate::verdict::Verdict;
use classes::{refine, Candidates, Class};
use error::solver_err;
pub use error::ScorrError;
use speculative::{Frames, Start};

/// The signal-correspondence engine: proves safety when equalities between signals (latches
/// and AND gates, for every input value) imply it, otherwise answers `Unknown` (it never
/// finds counterexamples).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scorr {
    /// Simulation rounds of 64 runs each used to form the candidate classes.
    pub rounds: usize,
    /// Steps per simulation run.
    pub steps: usize,
    /// Seed of the simulation's inputs and free initial values.
    pub seed: u64,
    /// Whether a run stops as soon as its candidates can no longer prove safety (the bad
    /// signal has left the constant-false class and what is left does not exclude the bad
    /// states): it then answers `Unknown` without a correspondence and leaves computing one
    /// to a later stage (`docs/method.md` §7.6). A mutant that can be killed is the common
    /// case in a first try; so it does not pay for the whole refinement.
    pub stop_when_unprovable: bool,
}

impl Default for Scorr {
    fn default() -> Self {
        Scorr {
            rounds: 4,
            steps: 32,
            seed: 1,
            stop_when_unprovable: false,
        }
    }
}

/// A proved (or candidate) equality: signal `lit` always equals `target` (another signal,
/// possibly negated, or a constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Equality {
    /// The positive literal of a latch or AND gate.
    pub lit: Lit,
    /// What it equals.
    pub target: Lit,
}

/// What a correspondence run leaves to the stages after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Nothing (interrupted, or no bad property).
    Nothing,
    /// The correspondence it found.
    Found(Correspondence),
    /// It stopped early: the candidates could no longer prove safety
    /// ([`Scorr::stop_when_unprovable`]); the correspondence is still to be computed.
    Unprovable,
}

/// The result of a correspondence run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correspondence {
    /// The inductive equalities (relative to the constraints), each holding initially.
    pub equalities: Vec<Equality>,
    /// SAT calls used to refine the classes.
    pub refinements: usize,
}

impl Correspondence {
    /// The equalities as pairs of literals (a constant target is the constant literal).
    pub fn pairs(&self) -> Vec<(Lit, Lit)> {
        self.equalities.iter().map(|e| (e.lit, e.target)).collect()
    }

    /// The equalities between latches of `aig` (or a latch and a constant) as clauses over
    /// latch literals: `a = b` gives `¬a ∨ b` and `a ∨ ¬b`, `a = 1` the unit `a`. Equalities
    /// involving AND gates are left out (they are not clauses over the state).
    pub fn latch_clauses(&self, aig: &Aig) -> Vec<Vec<Lit>> {
        let is_latch = |l: Lit| aig.latch_index(l).is_some();
        let mut out = Vec::new();
        for e in &self.equalities {
            if !is_latch(e.lit) {
                continue;
            }
            if e.target.is_const() {
                out.push(vec![e.lit.xor(e.target == Lit::FALSE)]);
            } else if is_latch(e.target) {
                out.push(vec![!e.lit, e.target]);
                out.push(vec![e.lit, !e.target]);
            }
        }
        out
    }
}

impl Scorr {
    /// The largest inductive correspondence of `aig` over the signals in the cone
    /// of its bad property and constraints that the refinement keeps.
    pub fn correspondence(&self, aig: &Aig, limits: &Limits) -> Result<Correspondence, ScorrError> {
        self.refined(aig, limits, false)?
            .ok_or_else(|| ScorrError::Solver("stopped without a correspondence".into()))
    }

    /// [`Scorr::correspondence`], or `None` when `stop_when_unprovable` and the candidates
    /// can no longer prove safety.
    fn refined(
        &self,
        aig: &Aig,
        limits: &Limits,
        stop_when_unprovable: bool,
    ) -> Result<Option<Correspondence>, ScorrError> {
        let bad = aig.bad.first().ok_or(ScorrError::NoBadProperty)?.lit;
        let mut roots = vec![bad];
        roots.extend(aig.constraints.iter().map(|c| c.lit));
        let vars = signals(aig, &roots)?;
        let (cands, classes) = self.simulated_classes(aig, vars);
        self.refine_classes(aig, &cands, classes, limits, stop_when_unprovable)
    }

    /// The refinement of candidate `classes` into the largest inductive correspondence they
    /// contain; `None` when `stop_when_unprovable` and they can no longer prove safety.
    fn refine_classes(
        &self,
        aig: &Aig,
        cands: &Candidates,
        mut classes: Vec<Class>,
        limits: &Limits,
        stop_when_unprovable: bool,
    ) -> Result<Option<Correspondence>, ScorrError> {
        let bad = aig.bad.first().ok_or(ScorrError::NoBadProperty)?.lit;
        let mut rng = WordRng::new(self.seed.wrapping_add(1));
        let mut refinements = 0;
        // Checked once, when the bad signal first leaves the constant-false class: whether
        // the remaining candidates still exclude the bad states (splitting only removes
        // equalities, so once they do not, no correspondence found later will).
        let mut watch = stop_when_unprovable;
        let mut unprovable = |classes: &[Class]| -> Result<bool, ScorrError> {
            if !watch || bad_stays_false(cands, classes, bad) {
                return Ok(false);
            }
            watch = false;
            let pairs: Vec<(Lit, Lit)> = equalities_of(cands, classes)
                .into_iter()
                .map(|(_, e)| (e.lit, e.target))
                .collect();
            Ok(!excludes_bad(aig, &pairs, limits)?)
        };
        if unprovable(&classes)? {
            return Ok(None);
        }
        // Initiation, then consecution: split the classes until no equality can fail in an
        // initial state, then until none can fail after a step from a state satisfying them
        // (splitting keeps initiation: the new classes held wherever the old ones did).
        for start in [Start::Initial, Start::Assumed] {
            loop {
                if limits.reached() {
                    return Err(ScorrError::Interrupted);
                }
                let frames = Frames::build(aig, cands, &classes, start);
                refinements += frames.open_miters();
                match frames.counterexamples(aig, cands, &classes, &mut rng, limits)? {
                    Some(found) => {
                        for words in &found {
                            classes = refine(cands, classes, words);
                        }
                        if unprovable(&classes)? {
                            return Ok(None);
                        }
                    }
                    None => break,
                }
            }
        }
        // In variable order, whatever order the refinement left the classes in, so that
        // what is built on them (IC3's seeds) does not depend on how they were found.
        let mut equalities: Vec<Equality> = equalities_of(cands, &classes)
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        equalities.sort_unstable_by_key(|e| (e.lit, e.target));
        Ok(Some(Correspondence {
            equalities,
            refinements,
        }))
    }

    /// Candidate classes from simulation: signals with equal (or complementary)
    /// values in every simulated reachable state, and those that never leave their phase.
    fn simulated_classes(&self, aig: &Aig, vars: Vec<u32>) -> (Candidates, Vec<Class>) {
        let mut rng = WordRng::new(self.seed);
        let mut signatures: Vec<Vec<u64>> = vec![Vec::new(); vars.len()];
        let mut masks: Vec<u64> = Vec::new();
        for _ in 0..self.rounds.max(1) {
            let mut latches = initial_words(aig, || rng.next_word());
            // Runs in which every constraint held so far: only their states are reachable.
            let mut valid = u64::MAX;
            for _ in 0..self.steps.max(1) {
                let inputs: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
                let values = eval_words(aig, &inputs, &latches);
                for (s, &v) in signatures.iter_mut().zip(&vars) {
                    s.push(values[v as usize]);
                }
                masks.push(valid);
                valid &= constraints_word(aig, &values);
                latches = next_words(aig, &values);
            }
        }
        // Normalise by the first run's first value; equal signatures form a class, and the
        // all-zero signature is the constant class.
        // Only the runs whose constraints held so far count.
        let phase: Vec<bool> = signatures.iter().map(|s| s[0] & 1 == 1).collect();
        for (s, &p) in signatures.iter_mut().zip(&phase) {
            let flip = if p { u64::MAX } else { 0 };
            for (w, m) in s.iter_mut().zip(&masks) {
                *w = (*w ^ flip) & m;
            }
        }
        let mut by_signature: HashMap<&[u64], usize> = HashMap::new();
        let mut classes: Vec<Class> = Vec::new();
        for (i, s) in signatures.iter().enumerate() {
            match by_signature.get(s.as_slice()) {
                Some(&c) => classes[c].members.push(i),
                None => {
                    by_signature.insert(s, classes.len());
                    classes.push(Class {
                        members: vec![i],
                        constant: s.iter().all(|w| *w == 0),
                    });
                }
            }
        }
        classes.retain(|c| c.constant || c.members.len() > 1);
        (Candidates { vars, phase }, classes)
    }
}

/// The candidates of [`Scorr::check_twins`]: the bad signal `bad` in the constant class
/// (false), and each pair of distinct latches in `twins` as a class of its own.
fn twin_classes(aig: &Aig, bad: Lit, twins: &[(Lit, Lit)]) -> (Candidates, Vec<Class>) {
    let mut cands = Candidates {
        vars: Vec::new(),
        phase: Vec::new(),
    };
    let mut classes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    if !bad.is_const() {
        seen.insert(bad.var());
        cands.vars.push(bad.var());
        cands.phase.push(bad.is_neg());
        classes.push(Class {
            members: vec![0],
            constant: true,
        });
    }
    for &(a, b) in twins {
        let fresh_latch = |l: Lit| aig.latch_index(l).is_some() && !seen.contains(&l.var());
        if a.var() == b.var() || !fresh_latch(a) || !fresh_latch(b) {
            continue;
        }
        seen.extend([a.var(), b.var()]);
        let i = cands.vars.len();
        for l in [a, b] {
            cands.vars.push(l.var());
            cands.phase.push(l.is_neg());
        }
        classes.push(Class {
            members: vec![i, i + 1],
            constant: false,
        });
    }
    (cands, classes)
}

/// The signals in the cone of `roots` that may correspond: latches and AND gates.
fn signals(aig: &Aig, roots: &[Lit]) -> Result<Vec<u32>, ScorrError> {
    let in_cone = cone_of_influence(aig, roots)?;
    Ok(aig
        .nodes()
        .iter()
        .enumerate()
        .filter(|(v, n)| {
            matches!(n, Node::Latch(_) | Node::And(..)) && in_cone.get(*v).copied().unwrap_or(false)
        })
        .map(|(v, _)| v as u32)
        .collect())
}

/// The equalities the classes claim: a member equals the representative, negated when their
/// phases differ; a member of a constant class equals its phase.
fn equalities_of(cands: &Candidates, classes: &[Class]) -> Vec<(usize, Equality)> {
    let mut out = Vec::new();
    for c in classes {
        if c.constant {
            for &i in &c.members {
                out.push((
                    i,
                    Equality {
                        lit: cands.lit(i),
                        target: Lit::constant(cands.phase[i]),
                    },
                ));
            }
            continue;
        }
        let rep = c.members[0];
        for &i in &c.members[1..] {
            out.push((
                i,
                Equality {
                    lit: cands.lit(i),
                    target: cands.lit(rep).xor(cands.phase[i] != cands.phase[rep]),
                },
            ));
        }
    }
    out
}

/// The solver literal of `lit` in `frame`, `None` for a constant.
fn frame_lit(u: &Unroller<'_>, frame: usize, lit: Lit) -> Result<Option<SatLit>, ScorrError> {
    if lit.is_const() {
        Ok(None)
    } else {
        Ok(Some(u.lit(frame, lit)?))
    }
}

impl Scorr {
    /// [`Engine::check_limited`] that also returns the correspondence it found, if it got
    /// that far (e.g. to seed IC3 with [`Correspondence::latch_clauses`] when the
    /// equalities do not prove safety).
    pub fn check_keeping(&self, aig: &Aig, limits: &Limits) -> (Verdict, Option<Correspondence>) {
        match self.check_confirming(aig, limits, limits) {
            (v, Kept::Found(c)) => (v, Some(c)),
            (v, _) => (v, None),
        }
    }

    /// [`Scorr::check_keeping`] with the search for the correspondence under `search` and
    /// the confirmation of a proof it finds (does it exclude the bad states; the certificate
    /// re-check) under `confirm`: a schedule gives the search a slice of its time, and a
    /// proof found within the slice is confirmed rather than thrown away when the slice ends.
    /// Also says whether the run stopped because it could no longer prove safety.
    pub fn check_confirming(
        &self,
        aig: &Aig,
        search: &Limits,
        confirm: &Limits,
    ) -> (Verdict, Kept) {
        let mut kept = Kept::Nothing;
        let verdict = self
            .verdict(aig, None, search, confirm, &mut kept)
            .unwrap_or_else(|e| Verdict::Unknown(e.to_string()));
        (verdict, kept)
    }

    /// [`Engine::check_limited`] with the candidate equalities limited to `twins` (pairs of
    /// latches believed equal, such as a product's two copies of one latch) and the bad
    /// signal being false, without simulation: for a product whose copies stay equal in
    /// every reachable state, the proof needs no equality between other signals, and
    /// leaving them out spares the SAT calls that would prove them (`docs/method.md` §7.6).
    /// Pairs that are not two latches are ignored.
    pub fn check_twins(&self, aig: &Aig, twins: &[(Lit, Lit)], limits: &Limits) -> Verdict {
        self.verdict(aig, Some(twins), limits, limits, &mut Kept::Nothing)
            .unwrap_or_else(|e| Verdict::Unknown(e.to_string()))
    }

    fn verdict(
        &self,
        aig: &Aig,
        twins: Option<&[(Lit, Lit)]>,
        search: &Limits,
        limits: &Limits,
        keep: &mut Kept,
    ) -> Result<Verdict, ScorrError> {
        let bad = aig.bad.first().ok_or(ScorrError::NoBadProperty)?.lit;
        if bad == Lit::FALSE {
            return Ok(Verdict::Safe(Certificate::Trivial));
        }
        let found = match twins {
            None => self.refined(aig, search, self.stop_when_unprovable)?,
            Some(twins) => {
                let (cands, classes) = twin_classes(aig, bad, twins);
                self.refine_classes(aig, &cands, classes, search, self.stop_when_unprovable)?
            }
        };
        let Some(found) = found else {
            *keep = Kept::Unprovable;
            return Ok(Verdict::Unknown(
                "signal correspondence stopped early: its candidate equalities no longer \
                 exclude the bad states"
                    .into(),
            ));
        };
        *keep = Kept::Found(found.clone());
        if found.equalities.is_empty() {
            return Ok(Verdict::Unknown("no signal correspondence".into()));
        }
        // Do the equalities (with the constraints) exclude the bad states? Those between
        // twins alone, when they do, make the smaller certificate (the bad signal's own
        // equality with false is then implied).
        let mut pairs = found.pairs();
        if twins.is_some() {
            let state: Vec<(Lit, Lit)> = pairs
                .iter()
                .copied()
                .filter(|&(a, b)| is_state(aig, a) && is_state(aig, b))
                .collect();
            if state.len() < pairs.len() && excludes_bad(aig, &state, limits)? {
                pairs = state;
            }
        }
        if excludes_bad(aig, &pairs, limits)? {
            Ok(checked_certificate(
                aig,
                Certificate::Equalities { pairs },
                limits,
            ))
        } else {
            Ok(Verdict::Unknown(format!(
                "{} equalities are inductive but do not exclude the bad states",
                found.equalities.len()
            )))
        }
    }
}

/// Whether no state satisfying the equalities `pairs` and the constraints is bad (one SAT
/// call over a single free frame, on the circuit with the equal latches merged; none when
/// merging makes the bad signal the constant false).
fn excludes_bad(aig: &Aig, pairs: &[(Lit, Lit)], limits: &Limits) -> Result<bool, ScorrError> {
    let bad = aig.bad.first().ok_or(ScorrError::NoBadProperty)?.lit;
    let (comb, map) = merged_state(aig, pairs);
    let get = |l: Lit| map[l.var() as usize].xor(l.is_neg());
    let bad = get(bad);
    let constraints: Vec<Lit> = aig.constraints.iter().map(|c| get(c.lit)).collect();
    if bad == Lit::FALSE || constraints.contains(&Lit::FALSE) {
        return Ok(true);
    }
    // The equalities merging left (those involving gates, and x = ¬x claims).
    let assumed: Vec<(Lit, Lit)> = pairs
        .iter()
        .map(|&(a, b)| (get(a), get(b)))
        .filter(|(x, y)| x != y)
        .collect();
    if assumed.iter().any(|(x, y)| x.is_const() && y.is_const()) {
        // A constant claimed equal to its negation: no state satisfies the equalities.
        return Ok(true);
    }
    let mut roots = vec![bad];
    roots.extend(assumed.iter().flat_map(|(x, y)| [*x, *y]));
    roots.extend(&constraints);
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(&comb, &roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    for &(a, b) in &assumed {
        // At most one side is a constant (checked above); put it second.
        let (a, b) = if a.is_const() { (b, a) } else { (a, b) };
        let Some(x) = frame_lit(&u, 0, a)? else {
            continue;
        };
        match frame_lit(&u, 0, b)? {
            Some(y) => {
                solver.add_binary(!x, y).map_err(solver_err)?;
                solver.add_binary(x, !y).map_err(solver_err)?;
            }
            None => {
                let holds = if b == Lit::TRUE { x } else { !x };
                solver.add_unit(holds).map_err(solver_err)?;
            }
        }
    }
    for &c in &constraints {
        if let Some(l) = frame_lit(&u, 0, c)? {
            solver.add_unit(l).map_err(solver_err)?;
        }
    }
    let Some(b) = frame_lit(&u, 0, bad)? else {
        return Ok(bad == Lit::FALSE);
    };
    match solver.solve_assumps(&[b]).map_err(solver_err)? {
        SolverResult::Unsat => Ok(true),
        SolverResult::Sat => Ok(false),
        SolverResult::Interrupted => Err(ScorrError::Interrupted),
    }
}

/// Whether the bad signal `bad` is still a member of the constant class with the phase that
/// makes it false (the equality a proof by correspondence needs for it).
fn bad_stays_false(cands: &Candidates, classes: &[Class], bad: Lit) -> bool {
    let Some(i) = cands.vars.iter().position(|&v| v == bad.var()) else {
        return false;
    };
    classes
        .iter()
        .any(|c| c.constant && c.members.contains(&i) && cands.phase[i] == bad.is_neg())
}

impl Engine for Scorr {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::none())
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        self.check_keeping(aig, limits).0
    }
}

mod classes;
mod error;
mod speculative;
#[cfg(test)]
mod tests;
