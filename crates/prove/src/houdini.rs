//! Induction over mined clauses (`docs/method.md` §7.13): candidate invariants read off
//! random simulation (constant latches, equal latches, two-latch clauses that pair a
//! rarely changing latch with any other, and optionally orders between registers), then the largest subset of them that holds
//! initially and is inductive (Houdini). When that subset excludes the bad states, it is an
//! inductive invariant and the problem is safe.
//!
//! This proves what signal correspondence cannot: the two copies of a product are equal
//! only together with a few facts that are not equalities (an unused encoding of a state
//! register, a first-cycle flag that implies a reset phase), and IC3 finds those facts one
//! clause at a time, walking counters for hundreds of frames.

mod order;
mod stored;

use std::collections::HashMap;

use hypermut_aig::wordsim::{
    constraints_word, eval_words, initial_words, next_words, Stimulus, WordRng, DENSE, SPARSE,
};
use hypermut_aig::{register_of, Aig, Lit};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as SatLit, TernaryVal};

use crate::backend::{default_solver, DefaultSolver};
use crate::certificate::Certificate;
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::checked_certificate;
use crate::unroll::{cone_of_influence, InitMode, UnrollError, Unroller};
use crate::verdict::Verdict;

/// The engine: mines candidate clauses by simulation and keeps the largest inductive subset;
/// proves safety when that subset excludes the bad states, otherwise answers `Unknown` (it
/// never finds counterexamples).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Houdini {
    /// Simulation rounds of 64 runs each that the candidates must survive.
    pub rounds: usize,
    /// Steps per simulation run.
    pub steps: usize,
    /// Seed of the simulation's inputs and free initial values.
    pub seed: u64,
    /// At most this many rarely changing latches, and as many constant ones, are paired with
    /// the others (bits of array words, `memory[5][1]`, are data and never paired: a memory
    /// that random runs seldom write would fill the list).
    pub max_quiet: usize,
    /// Steps of the random runs from each state a solver finds (they drop more candidates
    /// per solver call).
    pub replay_steps: usize,
    /// Give up as soon as the remaining candidates no longer exclude the bad states (the
    /// subset only shrinks, so its unshortened form cannot prove safety any more): cheap on
    /// a problem that is unsafe or needs other facts, for an early place in a schedule.
    pub stop_when_open: bool,
    /// Also mine orders between registers (`x ≤ y`, everywhere or in one state of the FSM;
    /// `docs/method.md` §7.13) and equalities between latches that random runs never move (the twins of
    /// a product's two copies that the runs do not reach): more facts, a slower search.
    pub orders: bool,
}

impl Default for Houdini {
    fn default() -> Self {
        Houdini {
            rounds: 32,
            steps: 128,
            seed: 3,
            max_quiet: 64,
            replay_steps: 16,
            stop_when_open: false,
            orders: false,
        }
    }
}

impl Houdini {
    /// The variant for an early place in a schedule: the default mining, but the subset
    /// search stops once the candidates no longer exclude the bad states
    /// ([`Houdini::stop_when_open`]).
    pub fn quick() -> Self {
        Houdini {
            stop_when_open: true,
            ..Houdini::default()
        }
    }

    /// The variant that mines orders and guarded equalities between registers too
    /// ([`Houdini::orders`]), from runs eight times as long: its guards are FSM states that
    /// short runs do not reach, and each candidate the runs rule out is one query fewer.
    pub fn with_orders() -> Self {
        Houdini {
            orders: true,
            rounds: 16,
            steps: 1024,
            ..Houdini::default()
        }
    }
}

/// Circuits with more latches than this are not mined (the simulated states are kept in
/// memory: rounds × steps words per latch, 32 KiB with the defaults).
pub const MAX_MINED_LATCHES: usize = 4096;

/// Most simulated latch words the mining keeps (32 MiB); longer runs are cut to fit
/// ([`Houdini::mining_runs`]).
pub const MAX_MINED_WORDS: usize = 1 << 22;

/// A latch changes in fewer than 1 of this many simulated steps (of all runs) to count as
/// rarely changing.
const QUIET_RATE: u32 = 16;

/// Equal latches in a class of at most this many give every pair as candidates; larger
/// classes give each member's equality with the first and with the next.
const ALL_PAIRS_CLASS: usize = 8;

/// Why the engine stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum HoudiniError {
    /// The AIG has no bad property.
    #[error("the AIG has no bad property")]
    NoBadProperty,
    /// The limits were reached.
    #[error("induction over mined clauses was interrupted by the time limit")]
    Interrupted,
    /// The AIG is malformed.
    #[error(transparent)]
    Unroll(#[from] UnrollError),
    /// The solver failed.
    #[error("SAT solver error: {0}")]
    Solver(String),
}

fn solver_err(e: impl std::fmt::Display) -> HoudiniError {
    HoudiniError::Solver(e.to_string())
}

/// Simulated states: per step, the value word of every latch (run `j` in bit `j`) and the
/// runs in which every constraint held up to and including that step.
struct States {
    latches: Vec<Vec<u64>>,
    valid: Vec<u64>,
}

impl States {
    /// Whether some valid simulated state makes every literal of `cube` true.
    fn shows(&self, aig: &Aig, cube: &[Lit]) -> bool {
        self.latches.iter().zip(&self.valid).any(|(words, &valid)| {
            let hit = cube
                .iter()
                .fold(valid, |acc, &l| acc & latch_word(aig, words, l));
            hit != 0
        })
    }

    /// Which value pairs of latches `a` and `b` some valid state shows: `[a ∧ b, a ∧ ¬b,
    /// ¬a ∧ b, ¬a ∧ ¬b]` (the scan stops once all four are seen).
    fn pairs_seen(&self, a: usize, b: usize) -> [bool; 4] {
        let mut seen = [0u64; 4];
        for (w, &v) in self.latches.iter().zip(&self.valid) {
            let (x, y) = (w[a] & v, w[b] & v);
            let (nx, ny) = (!w[a] & v, !w[b] & v);
            seen[0] |= x & y;
            seen[1] |= x & ny;
            seen[2] |= nx & y;
            seen[3] |= nx & ny;
            if seen.iter().all(|&s| s != 0) {
                break;
            }
        }
        seen.map(|s| s != 0)
    }
}

/// The word of latch literal `l` given the latch words of a step.
fn latch_word(aig: &Aig, words: &[u64], l: Lit) -> u64 {
    let k = aig.latch_index(l).expect("candidates name latches only");
    if l.is_neg() {
        !words[k]
    } else {
        words[k]
    }
}

/// Whether clause `c` over latch literals holds in every initial state: some literal is
/// true by its latch's constant reset value.
fn excludes_init(aig: &Aig, c: &[Lit]) -> bool {
    c.iter().any(|&l| {
        aig.latch_index(l)
            .is_some_and(|k| match aig.latches[k].reset {
                hypermut_aig::Reset::Zero => l.is_neg(),
                hypermut_aig::Reset::One => !l.is_neg(),
                hypermut_aig::Reset::Free => false,
            })
    })
}

/// Runs 64 random runs of `steps` steps from the latch words `start`, recording every state
/// (the start included) with the runs whose constraints held so far.
fn simulate_from(
    aig: &Aig,
    start: Vec<u64>,
    steps: usize,
    stimulus: &Stimulus,
    rng: &mut WordRng,
    out: &mut States,
) {
    let mut latches = start;
    let mut valid = u64::MAX;
    let mut held: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
    for _ in 0..steps.max(1) {
        let inputs = stimulus.frame(&mut held, rng);
        let values = eval_words(aig, &inputs, &latches);
        valid &= constraints_word(aig, &values);
        out.latches.push(latches);
        out.valid.push(valid);
        latches = next_words(aig, &values);
    }
}

/// Candidates per activation block of [`Houdini::filter`].
const BLOCK: usize = 64;

/// Active candidates of [`Houdini::filter`] that one literal switches on (`hold`: each
/// member holds in frame 0 of a step) and one literal asks for (`fail`: some member fails in
/// the checked frame).
struct Block {
    members: Vec<usize>,
    hold: Option<SatLit>,
    fail: SatLit,
}

impl Block {
    /// A block of `members`, whose per-candidate literals are `holds` (empty outside a
    /// step) and `fails`.
    fn new(
        solver: &mut DefaultSolver,
        u: &mut Unroller<'_>,
        members: &[usize],
        holds: &[SatLit],
        fails: &[SatLit],
    ) -> Result<Self, HoudiniError> {
        let fail = SatLit::positive(u.new_var().idx32());
        let mut some = vec![!fail];
        some.extend(members.iter().map(|&i| fails[i]));
        solver
            .add_clause(some.into_iter().collect())
            .map_err(solver_err)?;
        let hold = if holds.is_empty() {
            None
        } else {
            let h = SatLit::positive(u.new_var().idx32());
            for &i in members {
                solver.add_binary(!h, holds[i]).map_err(solver_err)?;
            }
            Some(h)
        };
        Ok(Block {
            members: members.to_vec(),
            hold,
            fail,
        })
    }

    /// Switches the block off for good.
    fn retire(&self, solver: &mut DefaultSolver) -> Result<(), HoudiniError> {
        solver.add_unit(!self.fail).map_err(solver_err)?;
        if let Some(h) = self.hold {
            solver.add_unit(!h).map_err(solver_err)?;
        }
        Ok(())
    }
}

/// A solver with frames `0..frames` of `aig` (from `init`) over the cone of the literals
/// of `clauses`, `extra` and the constraints, every constraint asserted in every frame, and
/// `asserted` asserted in frame 0.
fn unrolled<'a>(
    aig: &'a Aig,
    clauses: &[Vec<Lit>],
    extra: &[Lit],
    asserted: &[Vec<Lit>],
    init: InitMode,
    frames: usize,
    limits: &Limits,
) -> Result<(DefaultSolver, Unroller<'a>), HoudiniError> {
    let mut roots: Vec<Lit> = clauses.iter().flatten().copied().collect();
    roots.extend_from_slice(extra);
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, init)?;
    for f in 0..frames {
        u.add_frame(&mut solver)?;
        for c in &aig.constraints {
            solver.add_unit(u.lit(f, c.lit)?).map_err(solver_err)?;
        }
    }
    for c in asserted {
        let clause: Vec<SatLit> = c.iter().map(|&l| u.lit(0, l)).collect::<Result<_, _>>()?;
        solver
            .add_clause(clause.into_iter().collect())
            .map_err(solver_err)?;
    }
    Ok((solver, u))
}

impl Houdini {
    /// The rounds and steps of the mining runs on a circuit of `latches` latches: as set,
    /// but with fewer rounds (at least two: one uniform, one quiet), then fewer steps, where
    /// the simulated states would take more than [`MAX_MINED_WORDS`].
    fn mining_runs(&self, latches: usize) -> (usize, usize) {
        let latches = latches.max(1);
        let mut rounds = self.rounds.max(1);
        let mut steps = self.steps.max(1);
        while rounds * steps * latches > MAX_MINED_WORDS && rounds > 2 {
            rounds /= 2;
        }
        while rounds * steps * latches > MAX_MINED_WORDS && steps > 1 {
            steps /= 2;
        }
        (rounds, steps)
    }

    /// Candidate clauses over latch literals of `aig` that no simulated reachable state
    /// violates: units for constant latches, two clauses per pair of equal (or
    /// complementary) latches, and the two-literal clauses between a rarely changing latch
    /// and any other latch. Only latches in the cone of the bad property and the
    /// constraints take part.
    pub fn candidates(&self, aig: &Aig) -> Result<Vec<Vec<Lit>>, HoudiniError> {
        let bad = aig.bad.first().ok_or(HoudiniError::NoBadProperty)?.lit;
        let mut roots = vec![bad];
        roots.extend(aig.constraints.iter().map(|c| c.lit));
        let cone = cone_of_influence(aig, &roots)?;
        let latches: Vec<usize> = (0..aig.latches.len())
            .filter(|&k| cone[aig.latches[k].lit.var() as usize])
            .collect();
        if latches.is_empty() || aig.latches.len() > MAX_MINED_LATCHES {
            return Ok(Vec::new());
        }
        let mut rng = WordRng::new(self.seed);
        let mut states = States {
            latches: Vec::new(),
            valid: Vec::new(),
        };
        let (rounds, steps) = self.mining_runs(aig.latches.len());
        for round in 0..rounds {
            // Uniform inputs and, every other round, quiet ones (counters and waits).
            let stimulus = match round % 2 {
                0 => DENSE,
                _ => SPARSE[round / 2 % SPARSE.len()],
            };
            let start = initial_words(aig, || rng.next_word());
            simulate_from(aig, start, steps, &stimulus, &mut rng, &mut states);
        }
        let lit = |k: usize| aig.latches[k].lit;
        // Per latch: its values in the valid runs, normalised so that the first valid value
        // is 0 (complementary latches then look equal), the phase, and how often it changes.
        let first = states
            .valid
            .iter()
            .position(|&v| v != 0)
            .map(|s| (s, states.valid[s].trailing_zeros()));
        let Some((s0, run0)) = first else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        // Latches with equal normalised values share a signature hash (a collision only
        // adds a wrong candidate, which the subset search drops).
        let mut signature: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut changes: Vec<(u32, usize)> = Vec::new();
        for &k in &latches {
            let phase = states.latches[s0][k] >> run0 & 1 == 1;
            let flip = if phase { u64::MAX } else { 0 };
            let (mut sig, mut any) = (0u64, 0u64);
            for (w, &v) in states.latches.iter().zip(&states.valid) {
                let x = (w[k] ^ flip) & v;
                any |= x;
                sig = (sig.rotate_left(7) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
            if any == 0 {
                out.push(vec![lit(k).xor(!phase)]);
                // Paired too: a latch that stays constant only while another latch does
                // is not inductively constant, but the pair's clause may be.
                changes.push((0, k));
                // And equal to the other constants: the twin of a register in the other
                // copy of a product, which random runs never move, is its equal in every
                // reachable state although neither is constant.
                if self.orders {
                    signature.entry(sig).or_default().push(k);
                }
                continue;
            }
            // Changes within a run (a round's first step follows the previous round's last).
            let changed: u32 = (1..states.latches.len())
                .filter(|t| t % steps != 0)
                .map(|t| {
                    ((states.latches[t][k] ^ states.latches[t - 1][k]) & states.valid[t])
                        .count_ones()
                })
                .sum();
            changes.push((changed, k));
            signature.entry(sig).or_default().push(k);
        }
        let phase_of = |k: usize| states.latches[s0][k] >> run0 & 1 == 1;
        for members in signature.values() {
            for (i, &a) in members.iter().enumerate() {
                // Large classes: each member with the first and with the next in latch
                // order (a product's twins are neighbours there).
                let others = if members.len() <= ALL_PAIRS_CLASS || i == 0 {
                    &members[i + 1..]
                } else {
                    &members[i + 1..(i + 2).min(members.len())]
                };
                for &b in others {
                    let lb = lit(b).xor(phase_of(a) != phase_of(b));
                    out.push(vec![!lit(a), lb]);
                    out.push(vec![lit(a), !lb]);
                }
            }
        }
        // The rarely changing register bits, fewest changes first: up to `max_quiet` that
        // changed and up to `max_quiet` that did not (many constants must not crowd out the
        // flags that change once, such as a first-cycle flag).
        changes.sort_unstable();
        let steps: u32 = states.valid.iter().map(|v| v.count_ones()).sum();
        let rare = changes.iter().filter(|&&(c, k)| {
            c * QUIET_RATE < steps && register_of(&aig.latches[k].name).is_some()
        });
        let quiet: Vec<usize> = rare
            .clone()
            .filter(|(c, _)| *c == 0)
            .take(self.max_quiet)
            .chain(rare.filter(|(c, _)| *c > 0).take(self.max_quiet))
            .map(|&(_, k)| k)
            .collect();
        for (i, &q) in quiet.iter().enumerate() {
            for &b in &latches {
                if b == q || quiet[..i].contains(&b) || register_of(&aig.latches[b].name).is_none()
                {
                    continue;
                }
                let seen = states.pairs_seen(q, b);
                for (code, (pq, pb)) in [(true, true), (true, false), (false, true), (false, false)]
                    .into_iter()
                    .enumerate()
                {
                    // Never `q = pq ∧ b = pb`: the clause `q ≠ pq ∨ b ≠ pb`.
                    if !seen[code] {
                        out.push(vec![lit(q).xor(pq), lit(b).xor(pb)]);
                    }
                }
            }
        }
        if self.orders {
            out.extend(order::order_candidates(
                aig,
                &states.latches,
                &states.valid,
                &cone,
            ));
            out.extend(stored::stored_word_candidates(
                aig,
                &states.latches,
                &states.valid,
                &cone,
            ));
        }
        for c in &mut out {
            c.sort_unstable();
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// The largest subset of `cands` (clauses over latch literals) that holds in every
    /// initial state and that every step under the constraints keeps. A clause that names
    /// anything but a latch is not a candidate.
    pub fn inductive_subset(
        &self,
        aig: &Aig,
        cands: Vec<Vec<Lit>>,
        limits: &Limits,
    ) -> Result<Vec<Vec<Lit>>, HoudiniError> {
        // Without a bad literal, the search always finishes (`Some`).
        Ok(self.subset(aig, cands, None, limits)?.unwrap_or_default())
    }

    /// [`Houdini::inductive_subset`], but `None` as soon as the remaining candidates no
    /// longer exclude `bad` (under the constraints) in some state: the subset cannot
    /// exclude it either.
    pub fn inductive_subset_excluding(
        &self,
        aig: &Aig,
        cands: Vec<Vec<Lit>>,
        bad: Lit,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<Lit>>>, HoudiniError> {
        self.subset(aig, cands, Some(bad), limits)
    }

    /// Initiation, then consecution (stopping early on `bad`, see [`Houdini::filter`]),
    /// over the candidates that name latches only.
    fn subset(
        &self,
        aig: &Aig,
        mut cands: Vec<Vec<Lit>>,
        bad: Option<Lit>,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<Lit>>>, HoudiniError> {
        cands.retain(|c| c.iter().all(|&l| aig.latch_index(l).is_some()));
        let initial = self
            .filter(aig, cands, InitMode::Reset, None, limits)?
            .unwrap_or_default();
        self.filter(aig, initial, InitMode::Free, bad, limits)
    }

    /// Drops the candidates a state violates until none does: in frame 0 of `init` mode
    /// [`InitMode::Reset`] (initiation), or in frame 1 after a frame 0 that satisfies
    /// every remaining candidate in mode [`InitMode::Free`] (consecution). After each
    /// consecution counterexample, random runs from its frame-0 state drop every candidate
    /// they violate too (such a state satisfies the inductive subset, and so does every
    /// state reachable from it). With `bad` (consecution only), `None` as soon as a state
    /// satisfying the remaining candidates is bad: checked before the first round and after
    /// rounds 1, 2, 4, 8, … (at most twice the rounds it takes to get there).
    fn filter(
        &self,
        aig: &Aig,
        mut cands: Vec<Vec<Lit>>,
        init: InitMode,
        bad: Option<Lit>,
        limits: &Limits,
    ) -> Result<Option<Vec<Vec<Lit>>>, HoudiniError> {
        if cands.is_empty() {
            return Ok(Some(cands));
        }
        let step = matches!(init, InitMode::Free);
        let frames = if step { 2 } else { 1 };
        let bad = bad.filter(|_| step);
        let extra: Vec<Lit> = bad.into_iter().collect();
        let (mut solver, mut u) = unrolled(aig, &cands, &extra, &[], init, frames, limits)?;
        let at = frames - 1;
        let mut holds: Vec<SatLit> = Vec::new();
        let mut fails: Vec<SatLit> = Vec::new();
        for c in &cands {
            // `fails → ¬c` in the checked frame; `holds → c` in frame 0 of a step.
            let f = SatLit::positive(u.new_var().idx32());
            for &l in c {
                solver.add_binary(!f, !u.lit(at, l)?).map_err(solver_err)?;
            }
            fails.push(f);
            if step {
                let h = SatLit::positive(u.new_var().idx32());
                let mut clause = vec![!h];
                for &l in c {
                    clause.push(u.lit(0, l)?);
                }
                solver
                    .add_clause(clause.into_iter().collect())
                    .map_err(solver_err)?;
                holds.push(h);
            }
        }
        let mut active = vec![true; cands.len()];
        // The active candidates in blocks: `hold → h_i` and `fail → ∨ f_i` over the members,
        // so that a query assumes one literal per block rather than per candidate. A block
        // that loses a member is retired (`¬hold`, `¬fail`) and its other members go into
        // new blocks.
        let mut blocks: Vec<Block> = Vec::new();
        let all: Vec<usize> = (0..cands.len()).collect();
        for members in all.chunks(BLOCK) {
            blocks.push(Block::new(&mut solver, &mut u, members, &holds, &fails)?);
        }
        let mut rng = WordRng::new(self.seed.wrapping_add(17));
        let mut rounds = 0usize;
        loop {
            if limits.reached() {
                return Err(HoudiniError::Interrupted);
            }
            let held: Vec<SatLit> = blocks.iter().filter_map(|b| b.hold).collect();
            if let Some(bad) = bad.filter(|_| rounds & rounds.wrapping_sub(1) == 0) {
                let mut assumptions = vec![u.lit(0, bad)?];
                assumptions.extend_from_slice(&held);
                match solver.solve_assumps(&assumptions).map_err(solver_err)? {
                    SolverResult::Sat => return Ok(None),
                    SolverResult::Interrupted => return Err(HoudiniError::Interrupted),
                    SolverResult::Unsat => {}
                }
            }
            rounds += 1;
            let round = SatLit::positive(u.new_var().idx32());
            let mut some: Vec<SatLit> = vec![!round];
            some.extend(blocks.iter().map(|b| b.fail));
            solver
                .add_clause(some.into_iter().collect())
                .map_err(solver_err)?;
            let mut assumptions = vec![round];
            assumptions.extend_from_slice(&held);
            match solver.solve_assumps(&assumptions).map_err(solver_err)? {
                SolverResult::Unsat => break,
                SolverResult::Interrupted => return Err(HoudiniError::Interrupted),
                SolverResult::Sat => {}
            }
            let value = |f: usize, l: Lit| {
                u.lit(f, l)
                    .ok()
                    .and_then(|x| solver.lit_val(x).ok())
                    .is_some_and(|v| v == TernaryVal::True)
            };
            let mut states = States {
                latches: Vec::new(),
                valid: Vec::new(),
            };
            if step {
                let start: Vec<u64> = aig
                    .latches
                    .iter()
                    .map(|l| if value(0, l.lit) { u64::MAX } else { 0 })
                    .collect();
                simulate_from(aig, start, self.replay_steps, &DENSE, &mut rng, &mut states);
            }
            let mut dropped = 0;
            for (i, c) in cands.iter().enumerate() {
                if !active[i] {
                    continue;
                }
                let violated = c.iter().all(|&l| !value(at, l))
                    || (step && states.shows(aig, &c.iter().map(|&l| !l).collect::<Vec<_>>()));
                if violated {
                    active[i] = false;
                    dropped += 1;
                }
            }
            solver.add_unit(!round).map_err(solver_err)?;
            if dropped == 0 {
                // The model must violate an active candidate; a solver that says otherwise
                // is not to be trusted with the rest.
                return Err(HoudiniError::Solver(
                    "a counterexample to induction violated no candidate".into(),
                ));
            }
            // Retire the blocks that lost a member; their other members form new blocks.
            let mut moved: Vec<usize> = Vec::new();
            let mut kept_blocks = Vec::with_capacity(blocks.len());
            for b in blocks {
                if b.members.iter().all(|&i| active[i]) {
                    kept_blocks.push(b);
                    continue;
                }
                b.retire(&mut solver)?;
                moved.extend(b.members.iter().copied().filter(|&i| active[i]));
            }
            blocks = kept_blocks;
            for members in moved.chunks(BLOCK) {
                blocks.push(Block::new(&mut solver, &mut u, members, &holds, &fails)?);
            }
        }
        let mut i = 0;
        cands.retain(|_| {
            i += 1;
            active[i - 1]
        });
        Ok(Some(cands))
    }

    /// `kept` (an inductive set of clauses that holds initially, from
    /// [`Houdini::inductive_subset`]) with each clause shortened to the literals its
    /// consecution needs (the solver's core), unless the shorter clause may fail in an
    /// initial state. The result is inductive too (each short clause follows in one step
    /// from the set, and the shortened set's states are among the set's) and stronger.
    pub fn strengthen(
        &self,
        aig: &Aig,
        mut kept: Vec<Vec<Lit>>,
        limits: &Limits,
    ) -> Result<Vec<Vec<Lit>>, HoudiniError> {
        let (mut solver, u) = unrolled(aig, &kept, &[], &kept, InitMode::Free, 2, limits)?;
        for c in kept.iter_mut() {
            if c.len() < 2 {
                continue;
            }
            if limits.reached() {
                return Err(HoudiniError::Interrupted);
            }
            let assumptions: Vec<SatLit> = c
                .iter()
                .map(|&l| u.lit(1, l).map(|x| !x))
                .collect::<Result<_, _>>()?;
            match solver.solve_assumps(&assumptions).map_err(solver_err)? {
                SolverResult::Unsat => {}
                SolverResult::Interrupted => return Err(HoudiniError::Interrupted),
                SolverResult::Sat => {
                    return Err(HoudiniError::Solver(
                        "a clause of the inductive subset is not inductive".into(),
                    ))
                }
            }
            let core: Vec<SatLit> = solver.core().map_err(solver_err)?;
            let mut short: Vec<Lit> = Vec::new();
            for &l in c.iter() {
                if core.contains(&u.lit(1, l)?) {
                    short.push(l);
                }
            }
            if !short.is_empty() && short.len() < c.len() && excludes_init(aig, &short) {
                *c = short;
            }
        }
        kept.sort();
        kept.dedup();
        Ok(kept)
    }

    /// The verdict: `Safe` with the inductive subset as the certificate when it excludes
    /// the bad states under the constraints, else `Unknown`.
    fn verdict(
        &self,
        aig: &Aig,
        limits: &Limits,
        keep: &mut Vec<Vec<Lit>>,
    ) -> Result<Verdict, HoudiniError> {
        let bad = aig.bad.first().ok_or(HoudiniError::NoBadProperty)?.lit;
        if bad == Lit::FALSE {
            return Ok(Verdict::Safe(Certificate::Trivial));
        }
        let cands = self.candidates(aig)?;
        let mined = cands.len();
        if mined == 0 {
            return Ok(Verdict::Unknown("no candidate clauses mined".into()));
        }
        let kept = if self.stop_when_open {
            let open = self.inductive_subset_excluding(aig, cands, bad, limits)?;
            let Some(kept) = open else {
                return Ok(Verdict::Unknown(format!(
                    "the inductive subset of {mined} mined clauses cannot exclude the bad states"
                )));
            };
            kept
        } else {
            self.inductive_subset(aig, cands, limits)?
        };
        let kept = self.strengthen(aig, kept, limits)?;
        keep.clone_from(&kept);
        let (mut solver, u) = unrolled(aig, &kept, &[bad], &kept, InitMode::Free, 1, limits)?;
        match solver
            .solve_assumps(&[u.lit(0, bad)?])
            .map_err(solver_err)?
        {
            SolverResult::Unsat => Ok(checked_certificate(
                aig,
                Certificate::Invariant { clauses: kept },
                limits,
            )),
            SolverResult::Sat => Ok(Verdict::Unknown(format!(
                "{} of {mined} mined clauses are inductive but do not exclude the bad states",
                kept.len()
            ))),
            SolverResult::Interrupted => Err(HoudiniError::Interrupted),
        }
    }
}

impl Houdini {
    /// The verdict and the inductive subset found on the way (empty when the search did
    /// not finish), for IC3 to start from.
    pub fn check_keeping(&self, aig: &Aig, limits: &Limits) -> (Verdict, Vec<Vec<Lit>>) {
        let mut kept = Vec::new();
        let verdict = self
            .verdict(aig, limits, &mut kept)
            .unwrap_or_else(|e| Verdict::Unknown(e.to_string()));
        (verdict, kept)
    }
}

impl Engine for Houdini {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::none())
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        self.check_keeping(aig, limits).0
    }
}

#[cfg(test)]
mod tests;
