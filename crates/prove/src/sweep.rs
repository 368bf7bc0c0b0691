//! SAT sweeping (fraiging) and the whole optimisation script (`docs/method.md` §7.7).
//!
//! [`sweep`] merges AND nodes that compute the same function of the inputs and latch
//! outputs, or its complement, or a constant. Random simulation with 64-bit patterns groups
//! the nodes into candidate classes (equal simulation signatures up to complement); the
//! circuit is then copied in topological order, and each node whose class has an earlier
//! member is checked against that member's image with the SAT solver, under a conflict limit
//! per query. A proof merges the node; a counterexample, with 63 random variations of it,
//! is simulated at once and splits the classes. The equivalences are combinational — they hold in
//! every state, reachable or not — so the result is equivalent root by root.
//!
//! [`optimize`] is what `hypermut aiger` and `hypermut product` run: the structural passes
//! of [`hypermut_aig::opt`], sweeping, and the structural passes again.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use hypermut_aig::opt::{self, OptOptions};
use hypermut_aig::wordsim::{eval_words, WordRng};
use hypermut_aig::{Aig, Lit, Node};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as SatLit, TernaryVal, Var};

use crate::backend::{plain_solver, DefaultSolver};
use crate::limits::Limits;

#[cfg(test)]
mod tests;

/// Options of [`sweep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// Conflicts allowed per SAT query; a query that needs more leaves its pair unmerged.
    pub conflicts: u32,
    /// Time for the whole sweep; when it is over, the rest of the circuit is copied as is.
    pub budget: Duration,
    /// Random 64-bit simulation words before the first query.
    pub words: usize,
    /// Seed of the random patterns.
    pub seed: u64,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            conflicts: 100,
            budget: Duration::from_secs(2),
            words: 32,
            seed: 1,
        }
    }
}

/// What a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    /// Nodes merged with an equivalent earlier node or a constant.
    pub merged: usize,
    /// Candidate pairs a counterexample separated.
    pub disproved: usize,
    /// Candidate pairs left open at the conflict limit.
    pub undecided: usize,
    /// Whether the time budget ran out before the end.
    pub out_of_time: bool,
    /// Whether the effort limit (gates encoded into the solver, [`EFFORT_PER_GATE`] per AND
    /// gate of the input plus [`EFFORT_BASE`]) was reached before the end.
    pub out_of_effort: bool,
    /// Gates encoded into SAT solvers, and gates visited by queries whose cones were too
    /// large (the effort spent).
    pub effort: usize,
}

/// Gates the sweep may encode into SAT solvers per AND gate of its input (see
/// [`SweepStats::out_of_effort`]): a deterministic bound on its work, so that circuits where
/// queries rarely succeed are not swept for the whole time budget.
pub const EFFORT_PER_GATE: usize = 4;

/// Gates the sweep may encode besides [`EFFORT_PER_GATE`] per AND gate.
pub const EFFORT_BASE: usize = 20_000;

/// Candidate classes of the original variables, from their simulation signatures.
struct Classes {
    /// Per variable: the words simulated so far (one vector per word).
    words: Vec<Vec<u64>>,
    /// Per variable: its class, or `NONE` for a variable alone in its class.
    class: Vec<u32>,
    /// Per class: its smallest member.
    first: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Classes {
    /// Signature bit of run 0: a node and its complement fall into one class with
    /// opposite phases.
    fn phase(&self, v: u32) -> bool {
        self.words[0][v as usize] & 1 == 1
    }

    fn new(aig: &Aig, words: usize, rng: &mut WordRng) -> Classes {
        let mut c = Classes {
            words: Vec::new(),
            class: vec![0; aig.num_vars() as usize],
            first: vec![0],
        };
        for _ in 0..words.max(1) {
            let ins: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
            let lat: Vec<u64> = aig.latches.iter().map(|_| rng.next_word()).collect();
            c.refine(eval_words(aig, &ins, &lat));
        }
        c
    }

    /// Splits the classes by one more simulated word (values of every variable).
    fn refine(&mut self, word: Vec<u64>) {
        self.words.push(word);
        let last = self.words.len() - 1;
        let mut ids: HashMap<(u32, u64), u32> = HashMap::new();
        let mut first = Vec::new();
        let mut count = Vec::new();
        for v in 0..self.class.len() {
            if self.class[v] == NONE {
                continue;
            }
            let mut w = self.words[last][v];
            if self.phase(v as u32) {
                w = !w;
            }
            let next = ids.len() as u32;
            let id = *ids.entry((self.class[v], w)).or_insert(next);
            if id == next {
                first.push(v as u32);
                count.push(0u32);
            }
            count[id as usize] += 1;
            self.class[v] = id;
        }
        for c in self.class.iter_mut() {
            if *c != NONE && count[*c as usize] == 1 {
                *c = NONE;
            }
        }
        self.first = first;
    }

    /// The earlier member of `v`'s class it should equal, with the phase difference.
    fn candidate(&self, v: u32) -> Option<(u32, bool)> {
        let c = self.class[v as usize];
        if c == NONE {
            return None;
        }
        let r = self.first[c as usize];
        (r < v).then(|| (r, self.phase(r) != self.phase(v)))
    }
}

/// The SAT side: the copy's gates encoded on demand, numbered densely in the solver (its
/// work per query grows with the number of variables it knows). A satisfiable query makes
/// the solver assign every variable, so the solver is replaced by a fresh one once it holds
/// more than [`RECYCLE`] gates; later queries encode their cones again.
struct Checker {
    solver: DefaultSolver,
    /// Per variable of the copy: its solver variable, if encoded.
    var: Vec<Option<Var>>,
    /// The copy's variables that have a solver variable (to forget them at a reset).
    known: Vec<u32>,
    gates: usize,
    /// Gates encoded over all solvers, and gates visited by queries that gave up.
    total: usize,
    conflicts: u32,
    limits: Limits,
}

/// Gates a solver may hold before it is replaced (see [`Checker`]).
const RECYCLE: usize = 4000;

/// Most gates one query may add to the solver; a pair with larger cones stays unmerged.
const MAX_NEW_GATES: usize = 2000;

/// The answer to "are these two literals equal?".
enum Answer {
    Equal,
    /// A counterexample: values of the copy's inputs and latches.
    Differ(Vec<bool>, Vec<bool>),
    Unknown,
}

impl Checker {
    fn new(limits: &Limits, conflicts: u32) -> Checker {
        let mut c = Checker {
            solver: plain_solver(limits),
            var: Vec::new(),
            known: Vec::new(),
            gates: 0,
            total: 0,
            conflicts,
            limits: limits.clone(),
        };
        c.reset();
        c
    }

    /// Starts over with a fresh solver.
    fn reset(&mut self) {
        self.solver = plain_solver(&self.limits);
        for v in self.known.drain(..) {
            self.var[v as usize] = None;
        }
        if self.var.is_empty() {
            self.var.push(None);
        }
        // Variable 0 is the constant false.
        self.var[0] = Some(Var::new(0));
        self.known.push(0);
        let _ = self.solver.add_unit(Var::new(0).neg_lit());
        self.gates = 0;
    }

    /// The solver literal of an encoded literal of the copy.
    fn sat(&self, l: Lit) -> Option<SatLit> {
        let v = (*self.var.get(l.var() as usize)?)?;
        Some(if l.is_neg() { v.neg_lit() } else { v.pos_lit() })
    }

    /// Gives variable `v` of the copy the next solver variable.
    fn number(&mut self, v: u32) {
        self.var[v as usize] = Some(Var::new(self.known.len() as u32));
        self.known.push(v);
    }

    /// Adds the Tseitin clauses of every gate of `g` below `l` not encoded yet; `None`
    /// (nothing added) if there are more than [`MAX_NEW_GATES`] of them.
    fn encode(&mut self, g: &Aig, l: Lit) -> Option<()> {
        if self.var.len() < g.num_vars() as usize {
            self.var.resize(g.num_vars() as usize, None);
        }
        let mut todo = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![l.var()];
        while let Some(v) = stack.pop() {
            if self.var[v as usize].is_some() || !seen.insert(v) {
                continue;
            }
            todo.push(v);
            if todo.len() > MAX_NEW_GATES {
                self.total += todo.len();
                return None;
            }
            if let Node::And(a, b) = g.node(v) {
                stack.push(a.var());
                stack.push(b.var());
            }
        }
        for &v in &todo {
            self.number(v);
        }
        for v in todo {
            if let Node::And(a, b) = g.node(v) {
                self.gates += 1;
                self.total += 1;
                let (x, p, q) = (self.sat(Lit::var_lit(v))?, self.sat(a)?, self.sat(b)?);
                self.solver.add_binary(!x, p).ok()?;
                self.solver.add_binary(!x, q).ok()?;
                self.solver.add_ternary(x, !p, !q).ok()?;
            }
        }
        Some(())
    }

    /// Whether `x` and `y`, literals of `g`, are equal for all values of its inputs and
    /// latches.
    fn equal(&mut self, g: &Aig, x: Lit, y: Lit) -> Answer {
        if self.gates > RECYCLE {
            self.reset();
        }
        let lits = self
            .encode(g, x)
            .and_then(|_| self.encode(g, y))
            .and_then(|_| Some((self.sat(x)?, self.sat(y)?)));
        let Some((sx, sy)) = lits else {
            return Answer::Unknown;
        };
        for assumption in [[sx, !sy], [!sx, sy]] {
            self.solver.limit_conflicts(self.conflicts);
            match self.solver.solve_assumps(&assumption) {
                Ok(SolverResult::Unsat) => continue,
                Ok(SolverResult::Sat) => {
                    // Inputs and latches outside the encoded cones do not matter: 0.
                    let val = |l: Lit| {
                        self.sat(l)
                            .is_some_and(|s| matches!(self.solver.lit_val(s), Ok(TernaryVal::True)))
                    };
                    return Answer::Differ(
                        g.inputs.iter().map(|i| val(i.lit)).collect(),
                        g.latches.iter().map(|l| val(l.lit)).collect(),
                    );
                }
                _ => return Answer::Unknown,
            }
        }
        Answer::Equal
    }
}

/// A simulation word around a counterexample: run 0 is the counterexample itself, every
/// other run flips each of its bits with probability 1/8, so that nodes close to the one
/// just separated (other decodes of the same address, say) are separated too.
fn around(bits: &[bool], rng: &mut WordRng) -> Vec<u64> {
    bits.iter()
        .map(|&b| {
            let flips = rng.next_word() & rng.next_word() & rng.next_word() & !1;
            (if b { u64::MAX } else { 0 }) ^ flips
        })
        .collect()
}

/// Merges the nodes of `aig` that SAT proves equivalent (see the module documentation).
/// The result has `aig`'s interface and every root computes the same function.
pub fn sweep(aig: &Aig, opts: &SweepOptions) -> (Aig, SweepStats) {
    let mut stats = SweepStats::default();
    if !opt::well_formed(aig) {
        return (aig.clone(), stats);
    }
    let start = Instant::now();
    let limits = Limits::timeout(Some(opts.budget));
    let mut rng = WordRng::new(opts.seed);
    let mut classes = Classes::new(aig, opts.words, &mut rng);
    // The solver is made at the first query: most small circuits need none.
    let mut checker: Option<Checker> = None;
    let effort = EFFORT_BASE + EFFORT_PER_GATE * aig.num_ands();
    let out = opt::map_gates(aig, |g, images, v, a, b| {
        let lit = g.and(a, b);
        if stats.out_of_time || stats.out_of_effort {
            return lit;
        }
        let Some((r, flip)) = classes.candidate(v) else {
            return lit;
        };
        let target = images[r as usize].xor(flip);
        if target == lit {
            return lit;
        }
        if target == !lit {
            stats.disproved += 1;
            return lit;
        }
        if start.elapsed() >= opts.budget {
            stats.out_of_time = true;
            return lit;
        }
        let checker = checker.get_or_insert_with(|| Checker::new(&limits, opts.conflicts));
        if checker.total >= effort {
            stats.out_of_effort = true;
            return lit;
        }
        match checker.equal(g, lit, target) {
            Answer::Equal => {
                stats.merged += 1;
                target
            }
            Answer::Differ(ins, lat) => {
                stats.disproved += 1;
                let (ins, lat) = (around(&ins, &mut rng), around(&lat, &mut rng));
                classes.refine(eval_words(aig, &ins, &lat));
                lit
            }
            Answer::Unknown => {
                stats.undecided += 1;
                lit
            }
        }
    });
    stats.effort = checker.map_or(0, |c| c.total);
    (out, stats)
}

/// Options of [`optimize_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimizeOptions {
    /// The structural script run before sweeping.
    pub structural: OptOptions,
    /// The structural script run after sweeping, if it merged gates.
    pub after_sweep: OptOptions,
    /// Sweeping (its budget is the time [`optimize`] leaves it).
    pub sweep: SweepOptions,
}

impl Default for OptimizeOptions {
    fn default() -> Self {
        OptimizeOptions {
            structural: OptOptions::default(),
            after_sweep: OptOptions {
                rounds: 1,
                ..OptOptions::default()
            },
            sweep: SweepOptions::default(),
        }
    }
}

/// The optimisation script with default options and `budget` for sweeping: structural
/// passes, SAT sweeping, structural passes. The result has `aig`'s inputs, latches (names,
/// order, resets), outputs, properties, constraints, justice and fairness, every root
/// computes the same function of the inputs and latch outputs, and it never has more AND
/// gates than `aig` without its unused logic.
pub fn optimize(aig: &Aig, budget: Duration) -> Aig {
    let mut o = OptimizeOptions::default();
    o.sweep.budget = budget;
    optimize_with(aig, &o)
}

/// [`optimize`] with explicit options.
pub fn optimize_with(aig: &Aig, opts: &OptimizeOptions) -> Aig {
    let first = opt::optimize(aig, &opts.structural);
    let (swept, stats) = sweep(&first, &opts.sweep);
    if stats.merged == 0 {
        return first;
    }
    let second = opt::optimize(&swept, &opts.after_sweep);
    if second.num_ands() <= first.num_ands() {
        second
    } else {
        first
    }
}
