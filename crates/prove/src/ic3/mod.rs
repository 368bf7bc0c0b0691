//! IC3 / PDR (Bradley 2011; Eén, Mishchenko, Brayton 2011) on any rustsat backend.
//!
//! * one solver per frame, each with one copy of the transition relation and the
//!   constraints; lemmas stored delta-encoded ([`frames`]), added to the solvers of every
//!   frame they belong to;
//! * relative-induction queries `F_k ∧ ¬c ∧ C ∧ T ∧ c'` with the temporary clause `¬c`
//!   behind an activation literal;
//! * proof obligations in a priority queue (lowest frame first, deepest first), re-enqueued
//!   one frame higher once blocked, so counterexamples may be longer than the frame count;
//! * predecessors generalised by ternary simulation ([`lift`]), keeping the constraints
//!   (and the bad literal) true;
//! * lemmas generalised from the UNSAT core, then by literal dropping with
//!   counterexamples to generalisation (CTG, Hassan–Bradley–Somenzi 2013; optionally only
//!   from a given frame on, [`Ic3Options::plain_below_frame`]), then pushed to
//!   the highest frame where they are inductive;
//! * propagation with subsumption; a proof when a level becomes empty (`F_k = F_{k+1}`);
//! * an infinite level ([`frames`]) for lemmas known to be invariants: seeded ones
//!   ([`Ic3::with_lemmas`]), kept when they form an inductive set (Houdini-style), and
//!   optionally ([`Ic3Options::infinite_level`]) the largest subset of the top level that is
//!   inductive on its own, which then never needs propagating again.
//!
//! AIGER constraints are part of every frame's transition relation, so every state of a
//! counterexample (bad state included) satisfies them. Uninitialised latches have no
//! initial-state literal, so a cube meets the initial states unless it contradicts a
//! constant reset.

pub mod frames;
mod lift;
mod seeds;
mod solver;
#[cfg(test)]
mod tests;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::time::Duration;

use hypermut_aig::{Aig, Lit, Witness};
use rustsat::solvers::SolveIncremental;
use rustsat::types::Lit as SatLit;

use crate::backend::default_solver;
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::{run_reduced, Proof, ReducedVerdict};
use crate::verdict::Verdict;
use frames::{Cube, Frames};
use lift::Lifter;
use solver::{sat_lit, FrameSolver, Halt};

/// Tuning knobs of IC3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ic3Options {
    /// Use counterexamples to generalisation while dropping literals.
    pub ctg: bool,
    /// Use CTGs only for obligations blocked at least this often before (0: always), so
    /// that the extra effort goes to the obligations that keep coming back.
    pub ctg_after: usize,
    /// CTGs handled per literal-dropping attempt.
    pub max_ctgs: usize,
    /// Recursion depth of CTG handling (1: CTGs are generalised without CTGs).
    pub max_ctg_depth: usize,
    /// Consecutive failed literal drops before generalisation stops.
    pub mic_attempts: usize,
    /// Generalise predecessors by ternary simulation (otherwise full states are used).
    pub lift: bool,
    /// Rebuild a frame's solver after this many activation literals.
    pub rebuild_after: usize,
    /// Propagate only from the lowest level that received a lemma since the last
    /// propagation, except on every `full_propagation_every`-th frame (1: always from
    /// level 1; 0: never from level 1).
    pub full_propagation_every: usize,
    /// After a propagation that grew the top level enough, move its largest subset that is
    /// inductive on its own to the infinite level (so it is never propagated again). Off by
    /// default: it saves propagation queries, but on some deep counterexamples (HWMCC'08
    /// `irstdme4`) it made IC3 much slower. Seed lemmas use the infinite level either way.
    pub infinite_level: bool,
    /// While IC3 has fewer than this many frames, generalise without CTGs and try to drop
    /// every literal (as ABC's `pdr` does); from this frame on, use `ctg` and
    /// `mic_attempts` (0: always use them).
    pub plain_below_frame: usize,
}

impl Default for Ic3Options {
    fn default() -> Self {
        Ic3Options {
            ctg: true,
            ctg_after: 2,
            max_ctgs: 3,
            max_ctg_depth: 1,
            mic_attempts: 3,
            lift: true,
            rebuild_after: 2000,
            full_propagation_every: 0,
            infinite_level: false,
            plain_below_frame: 0,
        }
    }
}

/// The IC3 engine (CaDiCaL backend; see [`ic3_search`] for other backends).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ic3 {
    /// Tuning knobs.
    pub options: Ic3Options,
    /// Wall-clock limit for [`Engine::check`].
    pub time_limit: Option<Duration>,
    /// Seed lemmas: clauses over latch literals of the checked AIG ([`Ic3::with_lemmas`]).
    pub lemmas: Vec<Vec<Lit>>,
}

impl Ic3 {
    /// IC3 with default options and an optional time limit.
    pub fn new(time_limit: Option<Duration>) -> Self {
        Ic3 {
            options: Ic3Options::default(),
            time_limit,
            lemmas: Vec::new(),
        }
    }

    /// IC3 that starts with `clauses` (over latch literals of the AIG it will check) in every
    /// frame `F_k`, `k ≥ 1`, and in the invariant of its certificate. They should form an
    /// inductive invariant together (each holds in every initial state, and the set is kept
    /// by every step under the constraints), e.g. the latch equalities proved by
    /// [`crate::Scorr`]; IC3 keeps the largest subset that does and drops the rest, so a
    /// wrong clause never makes a verdict wrong.
    pub fn with_lemmas(mut self, clauses: Vec<Vec<Lit>>) -> Self {
        self.lemmas = clauses;
        self
    }
}

impl Engine for Ic3 {
    fn check(&mut self, aig: &Aig) -> Verdict {
        let limits = Limits::timeout(self.time_limit);
        self.check_limited(aig, &limits)
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let options = self.options.clone();
        let lemmas = &self.lemmas;
        run_reduced(aig, limits, |reduced, limits| {
            let seeds = seeds::reduced_seeds(aig, reduced, lemmas);
            ic3_search_seeded(&reduced.aig, &options, &seeds, limits, || {
                default_solver(limits)
            })
        })
    }
}

/// Runs IC3 on `aig.bad[0]` under `aig.constraints` with solvers from `new_solver`, which
/// must stop when `limits` are reached. The answer is about `aig` itself (no reduction, no
/// certificate check; [`Ic3`] adds both).
pub fn ic3_search<S, F>(
    aig: &Aig,
    options: &Ic3Options,
    limits: &Limits,
    new_solver: F,
) -> ReducedVerdict
where
    S: SolveIncremental,
    F: FnMut() -> S,
{
    ic3_search_seeded(aig, options, &[], limits, new_solver)
}

/// [`ic3_search`] starting from the seed lemmas `seeds` (clauses over latch literals of
/// `aig`; the largest subset that holds initially and is inductive is kept, see
/// [`Ic3::with_lemmas`]).
pub fn ic3_search_seeded<S, F>(
    aig: &Aig,
    options: &Ic3Options,
    seeds: &[Vec<Lit>],
    limits: &Limits,
    new_solver: F,
) -> ReducedVerdict
where
    S: SolveIncremental,
    F: FnMut() -> S,
{
    if aig.bad.is_empty() {
        return ReducedVerdict::Unknown("the AIG has no bad property".into());
    }
    if let Err(e) = crate::reduce::validate(aig) {
        return ReducedVerdict::Unknown(format!("cannot check this AIG: {e}"));
    }
    if seeds
        .iter()
        .flatten()
        .any(|l| aig.latch_index(*l).is_none())
    {
        return ReducedVerdict::Unknown("a seed lemma names a non-latch literal".into());
    }
    let mut core = Ic3Core::new(aig, options.clone(), limits.clone(), new_solver);
    let res = core.run(seeds);
    if std::env::var_os("HYPERMUT_IC3_STATS").is_some() {
        eprintln!("ic3: {:?} frames {:?}", core.stats, core.frames.sizes());
    }
    match res {
        Ok(o) => o,
        Err(Halt::Limit) => ReducedVerdict::Unknown(format!(
            "time limit reached (IC3 at frame {})",
            core.frames.top()
        )),
        Err(Halt::Error(e)) => ReducedVerdict::Unknown(format!("IC3 failed: {e}")),
    }
}

/// Query kinds for [`Stats::by_kind`].
const Q_OBLIGATION: usize = 0;
const Q_GENERALISE: usize = 1;
const Q_CTG: usize = 2;
const Q_PUSH: usize = 3;
const Q_PROPAGATE: usize = 4;

/// Counters for tuning (printed when `HYPERMUT_IC3_STATS` is set).
#[derive(Clone, Debug, Default)]
struct Stats {
    queries: usize,
    /// Queries and solver seconds per kind: obligation, generalisation, CTG, push, propagate.
    by_kind: [(usize, f64); 5],
    obligations: usize,
    lemmas: usize,
    ctgs: usize,
    rebuilds: usize,
    /// Literals of obligation cubes, of their cores, of the generalised lemmas; mic calls.
    lits: [usize; 4],
}

/// A proof obligation: every state of `cube`, under `inputs`, satisfies the constraints and
/// moves into the parent's cube (or, without a parent, is bad).
struct Obligation {
    cube: Cube,
    depth: usize,
    /// How often it was blocked so far.
    blocked: usize,
    parent: Option<usize>,
    inputs: Vec<bool>,
}

/// Queue key: lowest level first, then deepest, then newest.
type Entry = Reverse<(usize, Reverse<usize>, Reverse<usize>)>;

struct Ic3Core<'a, S, F> {
    aig: &'a Aig,
    opts: Ic3Options,
    limits: Limits,
    new_solver: F,
    latch_lits: Vec<Lit>,
    /// Per AIG variable, its latch index (or `u32::MAX`).
    latch_of_var: Vec<u32>,
    init: Vec<Option<bool>>,
    next: Vec<Lit>,
    bad: Lit,
    constraints: Vec<Lit>,
    frames: Frames,
    solvers: Vec<FrameSolver<S>>,
    lifter: Lifter,
    activity: Vec<f64>,
    obligations: Vec<Obligation>,
    queue: BinaryHeap<Entry>,
    /// Lowest level a lemma was added at since the last propagation.
    early: usize,
    /// Whether the current generalisation uses CTGs.
    ctg_now: bool,
    /// Size of the top level at which the next promotion to the infinite level is tried
    /// (twice what the last attempt left, so that attempts cost linear time overall).
    promote_at: usize,
    stats: Stats,
}

impl<'a, S: SolveIncremental, F: FnMut() -> S> Ic3Core<'a, S, F> {
    fn new(aig: &'a Aig, opts: Ic3Options, limits: Limits, new_solver: F) -> Self {
        let latch_lits: Vec<Lit> = aig.latches.iter().map(|l| l.lit).collect();
        let mut latch_of_var = vec![u32::MAX; aig.num_vars() as usize];
        for (i, l) in latch_lits.iter().enumerate() {
            latch_of_var[l.var() as usize] = i as u32;
        }
        Ic3Core {
            aig,
            opts,
            limits,
            new_solver,
            latch_of_var,
            init: aig.latches.iter().map(|l| l.reset.value()).collect(),
            next: aig.latches.iter().map(|l| l.next).collect(),
            activity: vec![0.0; latch_lits.len()],
            latch_lits,
            bad: aig.bad[0].lit,
            constraints: aig.constraints.iter().map(|c| c.lit).collect(),
            frames: Frames::new(0),
            solvers: Vec::new(),
            lifter: Lifter::new(aig),
            obligations: Vec::new(),
            queue: BinaryHeap::new(),
            early: 1,
            ctg_now: false,
            promote_at: 0,
            stats: Stats::default(),
        }
    }

    // ----- literals and cubes -------------------------------------------------------------

    fn latch(&self, l: Lit) -> usize {
        self.latch_of_var[l.var() as usize] as usize
    }

    /// The next-state literal of cube literal `l`.
    fn next_of(&self, l: Lit) -> Lit {
        self.next[self.latch(l)].xor(l.is_neg())
    }

    /// Whether literal `l` agrees with the initial states (true for uninitialised latches).
    fn init_allows(&self, l: Lit) -> bool {
        match self.init[self.latch(l)] {
            None => true,
            Some(b) => b != l.is_neg(),
        }
    }

    fn intersects_init(&self, cube: &[Lit]) -> bool {
        cube.iter().all(|&l| self.init_allows(l))
    }

    /// `core` (a subset of `orig`, which excludes the initial states) with a literal of
    /// `orig` added back if needed so that it excludes the initial states too.
    fn fix_init(&self, mut core: Cube, orig: &[Lit]) -> Cube {
        if self.intersects_init(&core) {
            if let Some(&l) = orig.iter().find(|&&l| !self.init_allows(l)) {
                if let Err(pos) = core.binary_search(&l) {
                    core.insert(pos, l);
                }
            }
        }
        core
    }

    /// Whether lemmas are generalised the plain way now (no CTGs, every literal tried):
    /// IC3 has fewer frames than [`Ic3Options::plain_below_frame`].
    fn plain_now(&self) -> bool {
        self.frames.top() < self.opts.plain_below_frame
    }

    /// Consecutive failed literal drops before generalisation stops, at the current frame.
    fn mic_attempts(&self) -> usize {
        if self.plain_now() {
            usize::MAX
        } else {
            self.opts.mic_attempts
        }
    }

    fn act(&self, l: Lit) -> f64 {
        self.activity[self.latch(l)]
    }

    // ----- solvers --------------------------------------------------------------------------

    fn make_solver(&mut self, level: usize) -> Result<FrameSolver<S>, Halt> {
        let mut s = FrameSolver::new((self.new_solver)(), self.aig, level == 0)?;
        if level > 0 {
            for c in self.frames.from_level(level) {
                s.block(c)?;
            }
        }
        Ok(s)
    }

    fn add_frame(&mut self) -> Result<(), Halt> {
        self.frames.push_level();
        let s = self.make_solver(self.frames.top())?;
        self.solvers.push(s);
        Ok(())
    }

    /// Relative induction: is `F_k ∧ [¬cube] ∧ C ∧ T ∧ cube'` satisfiable?
    fn rel_ind(&mut self, k: usize, cube: &[Lit], with_neg: bool) -> Result<bool, Halt> {
        self.rel_ind_as(k, cube, with_neg, Q_OBLIGATION)
    }

    /// [`Ic3Core::rel_ind`] counted under statistics kind `kind`.
    fn rel_ind_as(
        &mut self,
        k: usize,
        cube: &[Lit],
        with_neg: bool,
        kind: usize,
    ) -> Result<bool, Halt> {
        if self.limits.reached() {
            return Err(Halt::Limit);
        }
        if self.solvers[k].activations >= self.opts.rebuild_after {
            self.solvers[k] = self.make_solver(k)?;
            self.stats.rebuilds += 1;
        }
        self.stats.queries += 1;
        let assumps: Vec<Lit> = cube.iter().map(|&l| self.next_of(l)).collect();
        let start = std::time::Instant::now();
        let r = self.solvers[k].solve(self.aig, &assumps, with_neg.then_some(cube));
        let slot = &mut self.stats.by_kind[kind];
        slot.0 += 1;
        slot.1 += start.elapsed().as_secs_f64();
        r
    }

    /// The literals of `cube` whose next-state assumption is in the last core of solver `k`.
    fn core_cube(&mut self, k: usize, cube: &[Lit]) -> Result<Cube, Halt> {
        let failed: HashSet<SatLit> = self.solvers[k].failed()?.into_iter().collect();
        Ok(cube
            .iter()
            .copied()
            .filter(|&l| failed.contains(&sat_lit(self.next_of(l))))
            .collect())
    }

    /// Latch and input values of the last model of solver `k`.
    fn model(&self, k: usize) -> Result<(Vec<bool>, Vec<bool>), Halt> {
        let s = &self.solvers[k];
        let latches = self
            .latch_lits
            .iter()
            .map(|&l| s.value(l))
            .collect::<Result<Vec<_>, _>>()?;
        // Inputs outside every loaded cone do not influence anything the solver knows.
        let inputs = self
            .aig
            .inputs
            .iter()
            .map(|i| {
                if s.is_loaded(i.lit.var()) {
                    s.value(i.lit)
                } else {
                    Ok(false)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((latches, inputs))
    }

    /// The full-state cube of latch values.
    fn state_cube(&self, latches: &[bool]) -> Cube {
        let mut cube: Cube = self
            .latch_lits
            .iter()
            .zip(latches)
            .map(|(&l, &v)| l.xor(!v))
            .collect();
        cube.sort_unstable();
        cube
    }

    /// A cube of states containing the given one whose members all make `required` true
    /// under `inputs`.
    fn lift(&mut self, latches: &[bool], inputs: &[bool], required: &[Lit]) -> Cube {
        if !self.opts.lift {
            return self.state_cube(latches);
        }
        let mut order: Vec<usize> = (0..self.latch_lits.len()).collect();
        order.sort_by(|&a, &b| self.activity[a].total_cmp(&self.activity[b]));
        self.lifter
            .lift(&self.latch_lits, latches, inputs, required, &order)
    }

    // ----- lemmas -----------------------------------------------------------------------------

    fn add_lemma(&mut self, level: usize, cube: Cube) -> Result<(), Halt> {
        for l in &cube {
            let i = self.latch(*l);
            self.activity[i] += 1.0;
        }
        for s in &mut self.solvers[1..=level] {
            s.block(&cube)?;
        }
        self.frames.add(level, cube);
        self.early = self.early.min(level);
        self.stats.lemmas += 1;
        Ok(())
    }

    /// `cube` can be blocked at `level`; finds the highest level (up to the top) where it
    /// can, shrinking it with the cores on the way.
    fn push_forward(&mut self, level: usize, mut cube: Cube) -> Result<(usize, Cube), Halt> {
        let mut j = level;
        while j < self.frames.top() {
            if self.rel_ind_as(j, &cube, true, Q_PUSH)? {
                break;
            }
            let core = self.core_cube(j, &cube)?;
            cube = self.fix_init(core, &cube);
            j += 1;
        }
        Ok((j, cube))
    }

    /// Inductive generalisation relative to `F_k` of a cube that is inductive relative to
    /// `F_k` and excludes the initial states.
    fn mic(&mut self, k: usize, mut cube: Cube, depth: usize) -> Result<Cube, Halt> {
        let mut order = cube.clone();
        order.sort_by(|&a, &b| self.act(a).total_cmp(&self.act(b)));
        let mut keep: Vec<Lit> = Vec::new();
        let mut fails = 0;
        for lit in order {
            if cube.len() <= 1 {
                break;
            }
            let Ok(pos) = cube.binary_search(&lit) else {
                continue;
            };
            let mut cand = cube.clone();
            cand.remove(pos);
            match self.down(k, cand, &keep, depth)? {
                Some(c) => {
                    cube = c;
                    fails = 0;
                }
                None => {
                    fails += 1;
                    keep.push(lit);
                    if fails > self.mic_attempts() {
                        break;
                    }
                }
            }
        }
        Ok(cube)
    }

    /// Tries to make `cube` inductive relative to `F_k` by blocking counterexamples to
    /// generalisation or by joining it with predecessor states; `None` if that needs a
    /// literal of `keep` to go or meets the initial states.
    fn down(
        &mut self,
        k: usize,
        mut cube: Cube,
        keep: &[Lit],
        depth: usize,
    ) -> Result<Option<Cube>, Halt> {
        let mut ctgs = 0;
        loop {
            if self.intersects_init(&cube) {
                return Ok(None);
            }
            if !self.rel_ind_as(k, &cube, true, Q_GENERALISE)? {
                let core = self.core_cube(k, &cube)?;
                return Ok(Some(self.fix_init(core, &cube)));
            }
            let (state, inputs) = self.model(k)?;
            if self.ctg_now && depth < self.opts.max_ctg_depth && ctgs < self.opts.max_ctgs && k > 0
            {
                // The counterexample to generalisation, lifted like a predecessor so that
                // blocking it stays within the cone of `cube`.
                let mut required: Vec<Lit> = cube.iter().map(|&l| self.next_of(l)).collect();
                required.extend_from_slice(&self.constraints);
                let s = self.lift(&state, &inputs, &required);
                if !self.intersects_init(&s) && !self.rel_ind_as(k - 1, &s, true, Q_CTG)? {
                    ctgs += 1;
                    self.stats.ctgs += 1;
                    let core = self.core_cube(k - 1, &s)?;
                    let core = self.fix_init(core, &s);
                    let g = self.mic(k - 1, core, depth + 1)?;
                    let (j, g) = self.push_forward(k, g)?;
                    self.add_lemma(j, g)?;
                    continue;
                }
            }
            ctgs = 0;
            let joined: Cube = cube
                .iter()
                .copied()
                .filter(|&l| state[self.latch(l)] != l.is_neg())
                .collect();
            if keep
                .iter()
                .any(|l| cube.binary_search(l).is_ok() && joined.binary_search(l).is_err())
            {
                return Ok(None);
            }
            cube = joined;
        }
    }

    // ----- blocking -----------------------------------------------------------------------

    fn push_obligation(&mut self, level: usize, id: usize) {
        let depth = self.obligations[id].depth;
        self.queue
            .push(Reverse((level, Reverse(depth), Reverse(id))));
    }

    /// Blocks every bad state in `F_n`; a counterexample if one reaches the initial states.
    fn block(&mut self, n: usize) -> Result<Option<Witness>, Halt> {
        loop {
            if self.limits.reached() {
                return Err(Halt::Limit);
            }
            self.stats.queries += 1;
            if !self.solvers[n].solve(self.aig, &[self.bad], None)? {
                return Ok(None);
            }
            let (latches, inputs) = self.model(n)?;
            let mut required = vec![self.bad];
            required.extend_from_slice(&self.constraints);
            let cube = self.lift(&latches, &inputs, &required);
            self.obligations.clear();
            self.queue.clear();
            self.obligations.push(Obligation {
                cube,
                depth: 0,
                blocked: 0,
                parent: None,
                inputs,
            });
            self.push_obligation(n, 0);
            if let Some(w) = self.process(n)? {
                return Ok(Some(w));
            }
        }
    }

    fn process(&mut self, n: usize) -> Result<Option<Witness>, Halt> {
        while let Some(Reverse((level, _, Reverse(id)))) = self.queue.pop() {
            self.stats.obligations += 1;
            let cube = self.obligations[id].cube.clone();
            if self.intersects_init(&cube) {
                return Ok(Some(self.witness(id)));
            }
            if self.frames.blocked_forever(&cube) {
                continue;
            }
            if let Some(j) = self.frames.blocked_up_to(level, &cube) {
                if j < n {
                    self.push_obligation(j + 1, id);
                }
                continue;
            }
            if self.rel_ind(level - 1, &cube, true)? {
                let (latches, inputs) = self.model(level - 1)?;
                let mut required: Vec<Lit> = cube.iter().map(|&l| self.next_of(l)).collect();
                required.extend_from_slice(&self.constraints);
                let pred = self.lift(&latches, &inputs, &required);
                let depth = self.obligations[id].depth + 1;
                self.obligations.push(Obligation {
                    cube: pred,
                    depth,
                    blocked: 0,
                    parent: Some(id),
                    inputs,
                });
                let pid = self.obligations.len() - 1;
                self.push_obligation(level - 1, pid);
                self.push_obligation(level, id);
            } else {
                let core = self.core_cube(level - 1, &cube)?;
                let core = self.fix_init(core, &cube);
                self.stats.lits[0] += cube.len();
                self.stats.lits[1] += core.len();
                self.stats.lits[3] += 1;
                let plain = self.plain_now();
                let ob = &mut self.obligations[id];
                self.ctg_now = self.opts.ctg && ob.blocked >= self.opts.ctg_after && !plain;
                ob.blocked += 1;
                let g = self.mic(level - 1, core, 0)?;
                self.stats.lits[2] += g.len();
                let (j, g) = self.push_forward(level, g)?;
                self.add_lemma(j, g)?;
                if j < n {
                    self.push_obligation(j + 1, id);
                }
            }
        }
        Ok(None)
    }

    /// The counterexample through obligation `id`, whose cube meets the initial states.
    fn witness(&self, id: usize) -> Witness {
        let cube = &self.obligations[id].cube;
        let mut init: Vec<Option<bool>> =
            self.init.iter().map(|v| Some(v.unwrap_or(false))).collect();
        for &l in cube {
            init[self.latch(l)] = Some(!l.is_neg());
        }
        let mut inputs = Vec::new();
        let mut cur = Some(id);
        while let Some(i) = cur {
            let o = &self.obligations[i];
            inputs.push(o.inputs.iter().map(|&b| Some(b)).collect());
            cur = o.parent;
        }
        Witness {
            properties: vec!["b0".into()],
            init,
            inputs,
        }
    }

    // ----- propagation ------------------------------------------------------------------------

    /// Pushes lemmas from levels `1..=n` one level up; the level that became empty, if any.
    fn propagate(&mut self, n: usize) -> Result<Option<usize>, Halt> {
        let every = self.opts.full_propagation_every;
        let full = every == 1 || (every > 1 && n.is_multiple_of(every));
        let from = if full { 1 } else { self.early.clamp(1, n) };
        self.early = n + 1;
        for k in from..=n {
            let cubes: Vec<Cube> = self.frames.at(k).to_vec();
            for c in cubes {
                if !self.frames.at(k).contains(&c) {
                    continue;
                }
                if self.rel_ind_as(k, &c, false, Q_PROPAGATE)? {
                    continue;
                }
                let core = self.core_cube(k, &c)?;
                let core = self.fix_init(core, &c);
                self.frames.remove(k, &c);
                if core.len() < c.len() {
                    self.add_lemma(k + 1, core)?;
                } else {
                    self.solvers[k + 1].block(&c)?;
                    self.frames.add(k + 1, c);
                }
            }
            if self.frames.at(k).is_empty() {
                return Ok(Some(k));
            }
        }
        // Levels below `from` may have been emptied by subsumption: any empty level is a
        // fixpoint, since every lemma is inductive relative to the frame below its level.
        Ok((1..from).find(|&k| self.frames.at(k).is_empty()))
    }

    /// The largest subset of `cands` whose members exclude the initial states and that is
    /// inductive together with the infinite level under the constraints (Houdini: drop
    /// every candidate some step from the set violates, until none is).
    fn houdini(&mut self, cands: Vec<Cube>) -> Result<Vec<Cube>, Halt> {
        let cands: Vec<Cube> = cands
            .into_iter()
            .filter(|c| !self.intersects_init(c))
            .collect();
        if cands.is_empty() {
            return Ok(cands);
        }
        let mut s = FrameSolver::new((self.new_solver)(), self.aig, false)?;
        for c in self.frames.inf() {
            s.block(c)?;
        }
        let mut guards = Vec::with_capacity(cands.len());
        for c in &cands {
            guards.push(s.guarded_block(c)?);
            // Every candidate's next-state cone, so that the model decides each of them.
            for &l in c {
                s.load(self.aig, self.next_of(l))?;
            }
        }
        let mut active = vec![true; cands.len()];
        // Per candidate: the core of its last query, if no candidate was dropped since.
        let mut cores: Vec<Option<Cube>> = vec![None; cands.len()];
        let mut left = cands.len();
        // Consecutive candidates found inductive since the last one was dropped.
        let (mut i, mut kept_run) = (0, 0);
        while left > 0 && kept_run < left {
            if active[i] {
                if self.limits.reached() {
                    return Err(Halt::Limit);
                }
                self.stats.queries += 1;
                let on: Vec<SatLit> = (0..cands.len())
                    .filter(|&j| active[j])
                    .map(|j| guards[j])
                    .collect();
                let next: Vec<Lit> = cands[i].iter().map(|&l| self.next_of(l)).collect();
                if s.solve_guarded(self.aig, &next, &on)? {
                    // The step leaves every candidate whose next-state cube it reaches.
                    for j in 0..cands.len() {
                        if !active[j] {
                            continue;
                        }
                        let mut hit = true;
                        for &l in &cands[j] {
                            if !s.value(self.next_of(l))? {
                                hit = false;
                                break;
                            }
                        }
                        if hit || j == i {
                            active[j] = false;
                            left -= 1;
                        }
                    }
                    kept_run = 0;
                    cores.iter_mut().for_each(|c| *c = None);
                } else {
                    kept_run += 1;
                    let failed: HashSet<SatLit> = s.failed()?.into_iter().collect();
                    let core: Cube = cands[i]
                        .iter()
                        .copied()
                        .filter(|&l| failed.contains(&sat_lit(self.next_of(l))))
                        .collect();
                    cores[i] = Some(self.fix_init(core, &cands[i]));
                }
            }
            i = (i + 1) % cands.len();
        }
        // The survivors' cores (every survivor was checked after the last drop): each core
        // is blocked by the set in the next state and excludes the initial states, so the
        // cores form an inductive set too, a stronger one.
        Ok(cands
            .into_iter()
            .zip(active)
            .zip(cores)
            .filter_map(|((c, a), core)| a.then(|| core.unwrap_or(c)))
            .collect())
    }

    /// Moves the largest self-inductive subset of the top level to the infinite level, when
    /// the top level has grown enough since the last attempt.
    fn promote_top(&mut self) -> Result<(), Halt> {
        let top = self.frames.top();
        if self.frames.at(top).len() < self.promote_at {
            return Ok(());
        }
        let cands = self.frames.at(top).to_vec();
        for c in self.houdini(cands)? {
            self.frames.remove(top, &c);
            self.frames.add_inf(c);
        }
        self.promote_at = 2 * self.frames.at(top).len().max(8);
        Ok(())
    }

    fn run(&mut self, seeds: &[Vec<Lit>]) -> Result<ReducedVerdict, Halt> {
        let mut cubes: Vec<Cube> = seeds
            .iter()
            .map(|c| {
                let mut cube: Cube = c.iter().map(|&l| !l).collect();
                cube.sort_unstable();
                cube.dedup();
                cube
            })
            .collect();
        cubes.sort();
        cubes.dedup();
        for c in self.houdini(cubes)? {
            self.frames.add_inf(c);
        }
        let s0 = self.make_solver(0)?;
        self.solvers.push(s0);
        if let Some(w) = self.block(0)? {
            return Ok(ReducedVerdict::Unsafe(w));
        }
        self.add_frame()?;
        loop {
            let n = self.frames.top();
            if let Some(w) = self.block(n)? {
                return Ok(ReducedVerdict::Unsafe(w));
            }
            self.add_frame()?;
            if let Some(k) = self.propagate(n)? {
                let clauses = self
                    .frames
                    .from_level(k + 1)
                    .map(|c| c.iter().map(|&l| !l).collect())
                    .collect();
                return Ok(ReducedVerdict::Safe(Proof::Invariant(clauses)));
            }
            if self.opts.infinite_level {
                self.promote_top()?;
            }
        }
    }
}
