//! Safety certificates: what a `Safe` verdict carries, checking it with a solver separate
//! from the engines, and writing it as a Certifaiger-style witness circuit (`docs/formats.md` §8).
//!
//! The checks use the generic [`Unroller`] encoding, not the engines' own, so a bug in an
//! engine's encoding does not hide itself.

use hypermut_aig::{Aig, Lit, Named, Node, Reset};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as SatLit, TernaryVal};

use crate::backend::default_solver;
use crate::limits::Limits;
use crate::merged::{is_state, merged_state};
use crate::unroll::{InitMode, UnrollError, Unroller};

/// Evidence that no bad state is reachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The bad literal is the constant false.
    Trivial,
    /// An inductive invariant in CNF over latch literals: it holds initially, is preserved by
    /// every transition (under the constraints), and excludes the bad states.
    Invariant {
        /// Clauses over positive/negative latch literals of the checked AIG.
        clauses: Vec<Vec<Lit>>,
    },
    /// k-induction: no counterexample of depth below `k`, and every path of `k + 1`
    /// pairwise different states (over the latches in the cone of influence) that satisfies
    /// the lemmas and constraints in every frame and avoids bad in its first `k` states
    /// avoids it in the last one too.
    KInduction {
        /// The induction depth.
        k: usize,
        /// Clauses over latch literals forming an inductive invariant (without the property)
        /// that strengthens the induction step.
        lemmas: Vec<Vec<Lit>>,
    },
    /// Equalities between signals of the checked AIG (latches, AND gates, constants; a gate
    /// may read inputs, and its equality then holds for every input value): they hold in
    /// every initial state, every transition (under the constraints) preserves them, and
    /// with the constraints they exclude the bad states. In every reachable state they hold
    /// for all inputs: that is the inductive invariant (signal correspondence,
    /// `docs/method.md` §7.6).
    Equalities {
        /// The pairs of literals that are equal.
        pairs: Vec<(Lit, Lit)>,
    },
    /// An inductive invariant given as a circuit over the latches (BDD reachability's
    /// reachable states, `docs/method.md` §7.9): it holds in every initial state, every
    /// transition (under the constraints) preserves it, and with the constraints it excludes
    /// the bad states.
    Circuit {
        /// AND gates numbered after the checked AIG's variables (gate `k` is variable
        /// `aig.num_vars() + k`), each reading the constant, latches or earlier gates.
        gates: Vec<(Lit, Lit)>,
        /// The invariant: a literal of the constant, a latch or a gate.
        holds: Lit,
    },
}

/// Why a certificate was rejected.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    /// The AIG has no bad property.
    #[error("the AIG has no bad property")]
    NoBadProperty,
    /// A `Trivial` certificate for a bad literal that is not constant false.
    #[error("the certificate claims the bad literal is constant false, but it is not")]
    NotTrivial,
    /// A clause literal is not a latch literal.
    #[error("clause {clause} contains literal {lit}, which is not a latch literal")]
    NotLatchLiteral {
        /// Clause index.
        clause: usize,
        /// The literal.
        lit: u32,
    },
    /// Some initial state violates a clause.
    #[error("clause {0} of the invariant does not hold in every initial state")]
    Initiation(usize),
    /// A clause is not preserved by the transition relation.
    #[error("clause {0} of the invariant is not preserved by the transition relation")]
    Consecution(usize),
    /// The invariant (with the constraints) does not exclude the bad states.
    #[error("the invariant does not exclude the bad states")]
    Unsafe,
    /// A counterexample of depth below `k` exists (k-induction base case).
    #[error("k-induction base case fails: bad is reachable at depth {0}")]
    Base(usize),
    /// The k-induction step fails.
    #[error("the property is not {0}-inductive (with simple-path constraints)")]
    Step(usize),
    /// Some initial state violates an equality.
    #[error("equality {0} does not hold in every initial state")]
    EqualityInitiation(usize),
    /// An equality is not preserved by the transition relation.
    #[error("equality {0} is not preserved by the transition relation")]
    EqualityConsecution(usize),
    /// A gate of an invariant circuit reads something other than the constant, a latch or
    /// an earlier gate.
    #[error("invariant gate {gate} reads literal {lit}, which is not the constant, a latch or an earlier gate")]
    NotStateSignal {
        /// Gate index (`usize::MAX` for the invariant literal itself).
        gate: usize,
        /// The literal.
        lit: u32,
    },
    /// Some initial state violates the invariant circuit.
    #[error("the invariant circuit does not hold in every initial state")]
    CircuitInitiation,
    /// The invariant circuit is not preserved by the transition relation.
    #[error("the invariant circuit is not preserved by the transition relation")]
    CircuitConsecution,
    /// The certificate kind has no witness circuit.
    #[error("k-induction certificates cannot be written as a witness circuit (use IC3)")]
    NoWitnessCircuit,
    /// The AIG is malformed.
    #[error(transparent)]
    Unroll(#[from] UnrollError),
    /// The check was stopped by the time limit.
    #[error("the certificate check was interrupted by the time limit")]
    Interrupted,
    /// The solver failed.
    #[error("SAT solver error: {0}")]
    Solver(String),
}

fn solver_err(e: impl std::fmt::Display) -> CertError {
    CertError::Solver(e.to_string())
}

/// Checks that `cert` proves `aig.bad[0]` unreachable under `aig.constraints`.
pub fn check_certificate(aig: &Aig, cert: &Certificate) -> Result<(), CertError> {
    check_certificate_limited(aig, cert, &Limits::none())
}

/// [`check_certificate`] that gives up with [`CertError::Interrupted`] at the limits.
///
/// * `Trivial`: the bad literal is constant false.
/// * `Invariant`: initiation (syntactic: each clause has a literal that every initial state
///   satisfies), consecution `Inv ∧ C ∧ T ⇒ Inv′` clause by clause, and safety
///   `Inv ∧ C ⇒ ¬bad`, where `C` is the conjunction of the constraints in the current frame.
/// * `Equalities`: no initial state and input violate some pair (one SAT call over the
///   disjunction of the differences); `E ∧ C ⇒ ¬bad`; and `E ∧ C ∧ T ⇒ E′` pair by pair
///   (inputs of both frames free), each pair assuming the next-frame pairs already shown.
/// * `Circuit`: the invariant's gates read only the constant, latches and earlier gates;
///   no initial state violates it (one SAT call), `Inv ∧ C ⇒ ¬bad` and
///   `Inv ∧ C ∧ T ⇒ Inv′`.
/// * `KInduction`: the lemmas are an inductive invariant (as above, without safety); no bad
///   state at depths `0..k` from the initial states with the constraints holding; and no path
///   of `k + 1` pairwise different states (over the latches in the cone of influence) with
///   lemmas and constraints in every frame and bad only in the last.
pub fn check_certificate_limited(
    aig: &Aig,
    cert: &Certificate,
    limits: &Limits,
) -> Result<(), CertError> {
    let bad = aig.bad.first().ok_or(CertError::NoBadProperty)?.lit;
    match cert {
        Certificate::Trivial => {
            if bad == Lit::FALSE {
                Ok(())
            } else {
                Err(CertError::NotTrivial)
            }
        }
        Certificate::Invariant { clauses } => check_invariant(aig, clauses, Some(bad), limits),
        Certificate::KInduction { k, lemmas } => {
            check_invariant(aig, lemmas, None, limits)?;
            check_base(aig, bad, *k, limits)?;
            check_step(aig, bad, *k, lemmas, limits)
        }
        Certificate::Equalities { pairs } => check_equalities(aig, pairs, bad, limits),
        Certificate::Circuit { gates, holds } => {
            let (g, inv) = with_invariant(aig, gates, *holds)?;
            check_circuit_invariant(&g, inv, bad, limits)
        }
    }
}

/// `aig` with the gates of an invariant circuit added (structurally hashed), and the
/// invariant's literal in it.
fn with_invariant(aig: &Aig, gates: &[(Lit, Lit)], holds: Lit) -> Result<(Aig, Lit), CertError> {
    let base = aig.num_vars() as usize;
    let mut g = aig.clone();
    let mut added: Vec<Lit> = Vec::with_capacity(gates.len());
    let image = |added: &[Lit], gate: usize, l: Lit| {
        let v = l.var() as usize;
        let signal = match aig.nodes().get(v) {
            Some(Node::Const) => Some(Lit::FALSE),
            Some(Node::Latch(_)) => Some(Lit::var_lit(v as u32)),
            Some(_) => None,
            None => added.get(v - base).copied(),
        };
        signal
            .map(|s| s.xor(l.is_neg()))
            .ok_or(CertError::NotStateSignal { gate, lit: l.0 })
    };
    for (k, &(a, b)) in gates.iter().enumerate() {
        let x = image(&added, k, a)?;
        let y = image(&added, k, b)?;
        added.push(g.and(x, y));
    }
    let inv = image(&added, usize::MAX, holds)?;
    Ok((g, inv))
}

/// Checks invariant literal `inv` of `aig` (a function of the latches): initiation (no
/// initial state violates it, one SAT call), safety `Inv ∧ C ⇒ ¬bad` and consecution
/// `Inv ∧ C ∧ T ⇒ Inv′`.
fn check_circuit_invariant(
    aig: &Aig,
    inv: Lit,
    bad: Lit,
    limits: &Limits,
) -> Result<(), CertError> {
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &[inv], InitMode::Reset)?;
    u.add_frame(&mut solver)?;
    if solve(&mut solver, &[u.lit(0, !inv)?])? {
        return Err(CertError::CircuitInitiation);
    }
    let mut roots = vec![inv, bad];
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    u.add_frame(&mut solver)?;
    solver.add_unit(u.lit(0, inv)?).map_err(solver_err)?;
    add_constraints(&mut solver, &u, aig, 0)?;
    if solve(&mut solver, &[u.lit(0, bad)?])? {
        return Err(CertError::Unsafe);
    }
    if solve(&mut solver, &[u.lit(1, !inv)?])? {
        return Err(CertError::CircuitConsecution);
    }
    Ok(())
}

/// Checks an equality certificate: initiation by a SAT call per pair on the initial states
/// (every input value); consecution `E ∧ C ∧ T ⇒ E′` pair by pair, with the inputs of both
/// frames free; safety `E ∧ C ⇒ ¬bad`.
fn check_equalities(
    aig: &Aig,
    pairs: &[(Lit, Lit)],
    bad: Lit,
    limits: &Limits,
) -> Result<(), CertError> {
    let mut roots: Vec<Lit> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    roots.push(bad);
    if let Some(l) = roots.iter().find(|l| l.var() >= aig.num_vars()) {
        return Err(UnrollError::UndefinedLiteral(l.0, l.var()).into());
    }
    // Initiation, on the initial frame rebuilt with structural hashing: a pair whose two
    // sides become the same literal holds in every initial state without a SAT call.
    let (init, map) = initial_frame(aig);
    let at_init = |l: Lit| map[l.var() as usize].xor(l.is_neg());
    let open: Vec<(usize, (Lit, Lit))> = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| (i, (at_init(a), at_init(b))))
        .filter(|(_, (a, b))| a != b)
        .collect();
    let init_roots: Vec<Lit> = open.iter().flat_map(|(_, (a, b))| [*a, *b]).collect();
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(&init, &init_roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    let open_pairs: Vec<(Lit, Lit)> = open.iter().map(|(_, p)| *p).collect();
    if let Some(k) = some_differs(&mut solver, &mut u, &open_pairs)? {
        return Err(CertError::EqualityInitiation(open[k].0));
    }
    // Consecution and safety.
    if pairs
        .iter()
        .all(|&(a, b)| is_state(aig, a) && is_state(aig, b))
    {
        return check_state_equalities(aig, pairs, bad, limits);
    }
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    u.add_frame(&mut solver)?;
    for &(a, b) in pairs {
        let (x, y) = (u.lit(0, a)?, u.lit(0, b)?);
        solver.add_binary(!x, y).map_err(solver_err)?;
        solver.add_binary(x, !y).map_err(solver_err)?;
    }
    add_constraints(&mut solver, &u, aig, 0)?;
    if solve(&mut solver, &[u.lit(0, bad)?])? {
        return Err(CertError::Unsafe);
    }
    // Pair by pair, in the order of their larger variable, each assuming the next-frame
    // equalities already shown (sound in any order: if every pair follows from E, C, T and
    // the pairs before it, all follow from E, C and T); a pair whose inputs are already
    // equal is then shown by propagation alone.
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_by_key(|&i| pairs[i].0.var().max(pairs[i].1.var()));
    for i in order {
        let (a, b) = pairs[i];
        show_equal(&mut solver, u.lit(1, a)?, u.lit(1, b)?, i)?;
    }
    Ok(())
}

/// Consecution and safety of `pairs`, all over the state (latches and constants), on the
/// transition function over the merged state ([`merged_state`]): one frame instead of two,
/// and no SAT call for a pair whose next-state functions are merged by structural hashing.
fn check_state_equalities(
    aig: &Aig,
    pairs: &[(Lit, Lit)],
    bad: Lit,
    limits: &Limits,
) -> Result<(), CertError> {
    let (comb, map) = merged_state(aig, pairs);
    let get = |l: Lit| map[l.var() as usize].xor(l.is_neg());
    let next = |l: Lit| match aig.latch_index(l) {
        Some(i) => get(aig.latches[i].next).xor(l.is_neg()),
        None => l,
    };
    // What holds in the current state besides the merged pairs: the pairs merging left
    // (x = ¬x claims) and the constraints.
    let assumed: Vec<(Lit, Lit)> = pairs
        .iter()
        .map(|&(a, b)| (get(a), get(b)))
        .filter(|(x, y)| x != y)
        .collect();
    let constraints: Vec<Lit> = aig.constraints.iter().map(|c| get(c.lit)).collect();
    let open: Vec<(usize, (Lit, Lit))> = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| (i, (next(a), next(b))))
        .filter(|(_, (x, y))| x != y)
        .collect();
    let bad = get(bad);
    if bad == Lit::FALSE && open.is_empty() {
        return Ok(());
    }
    let mut roots = vec![Lit::FALSE, bad];
    roots.extend(assumed.iter().flat_map(|(x, y)| [*x, *y]));
    roots.extend(&constraints);
    roots.extend(open.iter().flat_map(|(_, (x, y))| [*x, *y]));
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(&comb, &roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    for &(a, b) in &assumed {
        let (x, y) = (u.lit(0, a)?, u.lit(0, b)?);
        solver.add_binary(!x, y).map_err(solver_err)?;
        solver.add_binary(x, !y).map_err(solver_err)?;
    }
    for &c in &constraints {
        solver.add_unit(u.lit(0, c)?).map_err(solver_err)?;
    }
    if solve(&mut solver, &[u.lit(0, bad)?])? {
        return Err(CertError::Unsafe);
    }
    for (i, (a, b)) in open {
        show_equal(&mut solver, u.lit(0, a)?, u.lit(0, b)?, i)?;
    }
    Ok(())
}

/// Shows that `x` and `y` agree in every model of `solver` (two SAT calls) and then adds
/// their equality; when they can differ, pair `i` fails consecution.
fn show_equal(
    solver: &mut crate::backend::DefaultSolver,
    x: SatLit,
    y: SatLit,
    i: usize,
) -> Result<(), CertError> {
    if solve(solver, &[x, !y])? || solve(solver, &[!x, y])? {
        return Err(CertError::EqualityConsecution(i));
    }
    solver.add_binary(!x, y).map_err(solver_err)?;
    solver.add_binary(x, !y).map_err(solver_err)?;
    Ok(())
}

/// The initial states of `aig` as a combinational circuit with one input per input and per
/// latch without a reset value (constants folded, structurally hashed), and per variable of
/// `aig` its literal there.
fn initial_frame(aig: &Aig) -> (Aig, Vec<Lit>) {
    let mut comb = Aig::new();
    let mut map = vec![Lit::FALSE; aig.nodes().len()];
    for (v, node) in aig.nodes().iter().enumerate() {
        let get = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
        map[v] = match *node {
            Node::Const => Lit::FALSE,
            Node::Input(_) => comb.add_input(""),
            Node::Latch(i) => match aig.latches[i as usize].reset {
                Reset::Zero => Lit::FALSE,
                Reset::One => Lit::TRUE,
                Reset::Free => comb.add_input(""),
            },
            Node::And(a, b) => {
                let (a, b) = (get(&map, a), get(&map, b));
                comb.and(a, b)
            }
        };
    }
    (comb, map)
}

/// One SAT call: the index of a pair that differs in frame 0 of some model, if any.
fn some_differs(
    solver: &mut crate::backend::DefaultSolver,
    u: &mut Unroller<'_>,
    pairs: &[(Lit, Lit)],
) -> Result<Option<usize>, CertError> {
    if pairs.is_empty() {
        return Ok(None);
    }
    let mut ds = Vec::with_capacity(pairs.len());
    for &(a, b) in pairs {
        // True exactly when the pair differs.
        let (x, y) = (u.lit(0, a)?, u.lit(0, b)?);
        let d = u.new_var().pos_lit();
        solver.add_ternary(!d, x, y).map_err(solver_err)?;
        solver.add_ternary(!d, !x, !y).map_err(solver_err)?;
        ds.push(d);
    }
    solver.add_clause_ref(&ds).map_err(solver_err)?;
    if !solve(solver, &[])? {
        return Ok(None);
    }
    for (i, d) in ds.iter().enumerate() {
        if solver.lit_val(*d).map_err(solver_err)? == TernaryVal::True {
            return Ok(Some(i));
        }
    }
    Ok(Some(0))
}

/// Whether every initial state satisfies `clause`.
fn holds_initially(aig: &Aig, clause: &[Lit]) -> bool {
    clause.iter().any(|&l| {
        let latch = aig.latch_index(l).map(|i| &aig.latches[i]);
        match latch.map(|x| x.reset) {
            Some(Reset::Zero) => l.is_neg(),
            Some(Reset::One) => !l.is_neg(),
            // An uninitialised latch satisfies a tautology l ∨ ¬l only.
            Some(Reset::Free) => clause.contains(&!l),
            None => false,
        }
    })
}

fn solve<S: SolveIncremental>(solver: &mut S, assumptions: &[SatLit]) -> Result<bool, CertError> {
    match solver.solve_assumps(assumptions).map_err(solver_err)? {
        SolverResult::Sat => Ok(true),
        SolverResult::Unsat => Ok(false),
        SolverResult::Interrupted => Err(CertError::Interrupted),
    }
}

fn latch_roots(aig: &Aig, clauses: &[Vec<Lit>]) -> Result<Vec<Lit>, CertError> {
    let mut roots = Vec::new();
    for (i, c) in clauses.iter().enumerate() {
        for &l in c {
            if aig.latch_index(l).is_none() {
                return Err(CertError::NotLatchLiteral {
                    clause: i,
                    lit: l.0,
                });
            }
            roots.push(l.positive());
        }
    }
    roots.sort_unstable();
    roots.dedup();
    Ok(roots)
}

fn add_clauses<S: SolveIncremental>(
    solver: &mut S,
    u: &Unroller<'_>,
    frame: usize,
    clauses: &[Vec<Lit>],
) -> Result<(), CertError> {
    for c in clauses {
        let cl = c
            .iter()
            .map(|&l| u.lit(frame, l))
            .collect::<Result<Vec<_>, _>>()?;
        solver.add_clause_ref(&cl).map_err(solver_err)?;
    }
    Ok(())
}

fn add_constraints<S: SolveIncremental>(
    solver: &mut S,
    u: &Unroller<'_>,
    aig: &Aig,
    frame: usize,
) -> Result<(), CertError> {
    for c in &aig.constraints {
        solver.add_unit(u.lit(frame, c.lit)?).map_err(solver_err)?;
    }
    Ok(())
}

fn check_invariant(
    aig: &Aig,
    clauses: &[Vec<Lit>],
    bad: Option<Lit>,
    limits: &Limits,
) -> Result<(), CertError> {
    let mut roots = latch_roots(aig, clauses)?;
    if let Some(i) = clauses.iter().position(|c| !holds_initially(aig, c)) {
        return Err(CertError::Initiation(i));
    }
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    roots.extend(bad);
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, InitMode::Free)?;
    u.add_frame(&mut solver)?;
    u.add_frame(&mut solver)?;
    add_clauses(&mut solver, &u, 0, clauses)?;
    add_constraints(&mut solver, &u, aig, 0)?;
    if let Some(b) = bad {
        if solve(&mut solver, &[u.lit(0, b)?])? {
            return Err(CertError::Unsafe);
        }
    }
    for (i, c) in clauses.iter().enumerate() {
        let violated = c
            .iter()
            .map(|&l| u.lit(1, !l))
            .collect::<Result<Vec<_>, _>>()?;
        if solve(&mut solver, &violated)? {
            return Err(CertError::Consecution(i));
        }
    }
    Ok(())
}

fn check_base(aig: &Aig, bad: Lit, k: usize, limits: &Limits) -> Result<(), CertError> {
    let mut roots = vec![bad];
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, InitMode::Reset)?;
    for d in 0..k {
        u.add_frame(&mut solver)?;
        add_constraints(&mut solver, &u, aig, d)?;
        if solve(&mut solver, &[u.lit(d, bad)?])? {
            return Err(CertError::Base(d));
        }
    }
    Ok(())
}

fn check_step(
    aig: &Aig,
    bad: Lit,
    k: usize,
    lemmas: &[Vec<Lit>],
    limits: &Limits,
) -> Result<(), CertError> {
    let mut roots = vec![bad];
    roots.extend(aig.constraints.iter().map(|c| c.lit));
    let coi_latches = path_latches(aig, &roots, lemmas);
    roots.extend(latch_roots(aig, lemmas)?);
    let mut solver = default_solver(limits);
    let mut u = Unroller::new(aig, &roots, InitMode::Free)?;
    for f in 0..=k {
        u.add_frame(&mut solver)?;
        add_clauses(&mut solver, &u, f, lemmas)?;
        add_constraints(&mut solver, &u, aig, f)?;
        if f < k {
            solver.add_unit(u.lit(f, !bad)?).map_err(solver_err)?;
        }
    }
    for i in 0..=k {
        for j in i + 1..=k {
            let mut differ = Vec::with_capacity(coi_latches.len());
            for &l in &coi_latches {
                let (a, b) = (u.lit(i, l)?, u.lit(j, l)?);
                let d = u.new_var().pos_lit();
                solver.add_ternary(!d, a, b).map_err(solver_err)?;
                solver.add_ternary(!d, !a, !b).map_err(solver_err)?;
                differ.push(d);
            }
            solver.add_clause_ref(&differ).map_err(solver_err)?;
        }
    }
    if solve(&mut solver, &[u.lit(k, bad)?])? {
        return Err(CertError::Step(k));
    }
    Ok(())
}

/// The latches the simple-path constraints range over: the cone of influence of `roots`
/// where latches fixed by unit lemmas are constants (their next-state functions are not
/// followed) and AND gates that these constants make constant are not entered. On paths where
/// the lemmas hold, these latches, the constants and the inputs determine the roots and
/// their own next values, so a path that repeats their values can be shortened.
fn path_latches(aig: &Aig, roots: &[Lit], lemmas: &[Vec<Lit>]) -> Vec<Lit> {
    use hypermut_aig::Node;
    let nodes = aig.nodes();
    // Known constant values under the unit lemmas: 0, 1, or 2 (unknown).
    let mut val = vec![2u8; nodes.len()];
    for c in lemmas.iter().filter(|c| c.len() == 1) {
        val[c[0].var() as usize] = !c[0].is_neg() as u8;
    }
    let lv = |val: &[u8], l: Lit| match val[l.var() as usize] {
        2 => 2,
        v => v ^ l.is_neg() as u8,
    };
    for (v, n) in nodes.iter().enumerate() {
        match *n {
            Node::Const => val[v] = 0,
            Node::And(a, b) => {
                let (x, y) = (lv(&val, a), lv(&val, b));
                val[v] = if x == 0 || y == 0 {
                    0
                } else if x == 1 && y == 1 {
                    1
                } else {
                    2
                };
            }
            _ => {}
        }
    }
    let mut seen = vec![false; nodes.len()];
    let mut stack: Vec<u32> = roots.iter().map(|l| l.var()).collect();
    let mut out = Vec::new();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut seen[v as usize], true) || val[v as usize] != 2 {
            continue;
        }
        match nodes[v as usize] {
            Node::Latch(i) => {
                out.push(Lit::var_lit(v));
                stack.push(aig.latches[i as usize].next.var());
            }
            Node::And(a, b) => {
                stack.push(a.var());
                stack.push(b.var());
            }
            _ => {}
        }
    }
    out.sort_unstable();
    out
}

/// The Certifaiger witness circuit of `cert` (`docs/formats.md` §8.1): the model with the same
/// inputs, latches, resets and constraints, and the single bad property `bad ∨ ¬Inv`.
/// Justice and fairness are dropped; the other bad properties too (only `bad[0]` is
/// certified).
pub fn witness_circuit(aig: &Aig, cert: &Certificate) -> Result<Aig, CertError> {
    let bad = aig.bad.first().ok_or(CertError::NoBadProperty)?.clone();
    let mut g = aig.clone();
    g.justice.clear();
    g.fairness.clear();
    let lit = match cert {
        Certificate::Trivial => bad.lit,
        Certificate::Invariant { clauses } => {
            latch_roots(aig, clauses)?;
            let cls: Vec<Lit> = clauses
                .iter()
                .map(|c| g.or_all(c.iter().copied()))
                .collect();
            let inv = g.and_all(cls);
            g.or(bad.lit, !inv)
        }
        Certificate::KInduction { .. } => return Err(CertError::NoWitnessCircuit),
        Certificate::Equalities { pairs } => {
            let equal: Vec<Lit> = pairs.iter().map(|&(a, b)| g.xnor(a, b)).collect();
            let inv = g.and_all(equal);
            g.or(bad.lit, !inv)
        }
        Certificate::Circuit { gates, holds } => {
            let (with, inv) = with_invariant(&g, gates, *holds)?;
            g = with;
            g.or(bad.lit, !inv)
        }
    };
    g.bad = vec![Named {
        lit,
        name: bad.name,
    }];
    g.comment = Some(format!(
        "hypermut certificate: witness circuit for bad property 0 ({})",
        match cert {
            Certificate::Invariant { clauses } => format!("{} clauses", clauses.len()),
            Certificate::Equalities { pairs } => format!("{} equalities", pairs.len()),
            Certificate::Circuit { gates, .. } =>
                format!("an invariant circuit of {} gates", gates.len()),
            _ => "0 clauses".into(),
        }
    ));
    Ok(g)
}
