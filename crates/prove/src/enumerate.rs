//! All values some literals can take, frame by frame, by SAT with blocking clauses: the
//! outputs a run may produce at a step of a test once the earlier steps are fixed (the
//! allowed outputs of `docs/method.md` §4.1.1).
//!
//! One incremental solver holds the unrolling. What frame `j` is asked under (the constraints
//! of frames `0..=j`, the fixed inputs, the fixed literals of earlier frames) holds for every
//! later frame too, so it is added as unit clauses, not assumptions: a long test's prefix is
//! propagated once, not again at every call. The blocking clauses of a frame are guarded by
//! an activation literal of their frame and switched off for good afterwards.
//!
//! Before any of that, ternary simulation (free inputs and uninitialised latches unknown)
//! often settles the question: when it fixes every watched literal, every constraint and
//! every fixed literal in every frame asked, each frame has exactly one valuation (or none,
//! past a constraint or fixed literal that is certainly violated), and no solver is built.

use std::time::Instant;

use hypermut_aig::sim::TernarySim;
use hypermut_aig::{Aig, Lit, Node};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit as SatLit, TernaryVal};

use crate::bmc::{new_solver, BmcError};
use crate::unroll::{InitMode, UnrollError, Unroller};

/// The distinct valuations of the watched literals in one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Enumerated {
    /// The valuations found (each in the order of the watched literals), sorted; at most
    /// `cap` of them.
    pub values: Vec<Vec<bool>>,
    /// Whether more valuations exist than `values` lists (there were more than `cap`).
    pub capped: bool,
}

/// For every frame `j` in `0..=depth`, the distinct valuations of `watch` in frame `j` over
/// all runs of `aig` (from its reset state; [`hypermut_aig::Reset::Free`] latches start
/// anywhere) in which
///
/// * input `i` has value `runs.fixed_inputs[f][i]` in every frame `f ≤ j` where that is
///   `Some` (`None`, missing entries and missing frames are free),
/// * every pair `(lit, value)` of `runs.fixed_lits[f]` holds in every frame `f < j`,
/// * every AIGER constraint holds in frames `0..=j` (later frames are not looked at).
///
/// At most `cap` valuations are listed per frame; `capped` says whether there are more. A
/// frame no run reaches has no valuation. Stops with [`BmcError::Interrupted`] at `deadline`.
///
/// `runs.known`, if given, is one run the caller knows of (the one the fixed literals were
/// read from, say): the frames it reaches under the conditions above (checked here by
/// simulation) need no solver call to tell that some run reaches them.
pub fn values_per_frame(
    aig: &Aig,
    runs: &Runs<'_>,
    watch: &[Lit],
    depth: usize,
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Vec<Enumerated>, BmcError> {
    let (fixed_inputs, fixed_lits, run) = (runs.fixed_inputs, runs.fixed_lits, runs.known);
    let mut known = if cap > 0 {
        known_by_ternary_simulation(aig, fixed_inputs, fixed_lits, watch, depth)
    } else {
        vec![Known::default(); depth + 1]
    };
    let by_run = run.map_or(0, |r| {
        frames_reached_by(aig, &r, fixed_inputs, fixed_lits, depth)
    });
    for k in known.iter_mut().take(by_run) {
        k.reached = Some(true);
    }
    if let Some(frames) = settled(&known) {
        return Ok(frames);
    }
    let roots: Vec<Lit> = watch
        .iter()
        .copied()
        .chain(aig.constraints.iter().map(|c| c.lit))
        .chain(fixed_lits.iter().take(depth).flatten().map(|(l, _)| *l))
        .collect();
    let mut u = Unroller::new(aig, &roots, InitMode::Reset)?;
    let mut solver = new_solver(deadline);
    let mut frames = Vec::with_capacity(depth + 1);
    for (j, frame_known) in known.iter().enumerate() {
        if frame_known.reached == Some(false) {
            // No run gets here, nor to any later frame.
            frames.resize(depth + 1, Enumerated::default());
            break;
        }
        let k = u.add_frame(&mut solver)?;
        for c in &aig.constraints {
            solver.add_unit(u.lit(k, c.lit)?).map_err(solver_err)?;
        }
        let values = fixed_inputs.get(k).map(Vec::as_slice).unwrap_or(&[]);
        for (input, value) in aig.inputs.iter().zip(values) {
            // An input outside the cone of influence cannot matter.
            if let (Some(v), Ok(l)) = (value, u.lit(k, input.lit)) {
                solver
                    .add_unit(if *v { l } else { !l })
                    .map_err(solver_err)?;
            }
        }
        frames.push(match (&frame_known.valuation, frame_known.reached) {
            // Every run reaches the frame and shows the same valuation there.
            (Some(v), Some(true)) => Enumerated {
                values: vec![v.clone()],
                capped: false,
            },
            // Every run that reaches the frame shows this valuation: is it reached?
            (Some(v), _) => Enumerated {
                values: if frame_reached(&mut solver, deadline)? {
                    vec![v.clone()]
                } else {
                    Vec::new()
                },
                capped: false,
            },
            (None, _) => {
                let watched = watch
                    .iter()
                    .map(|w| u.lit(k, *w))
                    .collect::<Result<Vec<_>, _>>()?;
                let active = u.new_var().pos_lit();
                let found = enumerate_frame(&mut solver, active, &watched, cap, deadline)?;
                // The blocking clauses of this frame never apply again.
                solver.add_unit(!active).map_err(solver_err)?;
                found
            }
        });
        for (lit, value) in fixed_lits.get(j).into_iter().flatten() {
            let l = u.lit(k, *lit)?;
            solver
                .add_unit(if *value { l } else { !l })
                .map_err(solver_err)?;
        }
    }
    Ok(frames)
}

/// The runs [`values_per_frame`] looks at, and one of them the caller may know of.
#[derive(Clone, Copy, Debug, Default)]
pub struct Runs<'a> {
    /// Per frame, per input: its value in every run looked at (`None`: free).
    pub fixed_inputs: &'a [Vec<Option<bool>>],
    /// Per frame: literals with the value they have in that frame of every run looked at
    /// (read for the frames after it).
    pub fixed_lits: &'a [Vec<(Lit, bool)>],
    /// A run the caller knows of, checked by simulation before it is relied on.
    pub known: Option<KnownRun<'a>>,
}

impl<'a> Runs<'a> {
    /// The runs with these fixed inputs and literals, none of them known.
    pub fn new(fixed_inputs: &'a [Vec<Option<bool>>], fixed_lits: &'a [Vec<(Lit, bool)>]) -> Self {
        Runs {
            fixed_inputs,
            fixed_lits,
            known: None,
        }
    }
}

/// A run of a circuit: its initial latch values and its input vectors, in latch and input
/// order.
#[derive(Clone, Copy, Debug)]
pub struct KnownRun<'a> {
    /// The value of every latch in frame 0.
    pub init: &'a [bool],
    /// The value of every input, per frame.
    pub inputs: &'a [Vec<bool>],
}

/// How many of the frames `0..=depth` `run` reaches under [`values_per_frame`]'s conditions:
/// it starts in an initial state, and frame `j` counts when the run has the fixed inputs
/// of frames `0..=j`, the constraints hold in them and the fixed literals in frames before.
fn frames_reached_by(
    aig: &Aig,
    run: &KnownRun<'_>,
    fixed_inputs: &[Vec<Option<bool>>],
    fixed_lits: &[Vec<(Lit, bool)>],
    depth: usize,
) -> usize {
    let initial = run.init.len() == aig.latches.len()
        && aig
            .latches
            .iter()
            .zip(run.init)
            .all(|(l, v)| l.reset.value().is_none_or(|r| r == *v));
    if !initial {
        return 0;
    }
    let mut sim = TernarySim::new(aig, run.init.iter().map(|v| Some(*v)).collect());
    for (j, inputs) in run.inputs.iter().enumerate().take(depth + 1) {
        let fixed = fixed_inputs.get(j).map(Vec::as_slice).unwrap_or(&[]);
        let agrees = inputs.len() == aig.inputs.len()
            && fixed
                .iter()
                .zip(inputs)
                .all(|(f, v)| f.is_none_or(|f| f == *v));
        if !agrees {
            return j;
        }
        let known: Vec<Option<bool>> = inputs.iter().map(|v| Some(*v)).collect();
        sim.eval(&known);
        if !aig
            .constraints
            .iter()
            .all(|c| sim.value(c.lit) == Some(true))
        {
            return j;
        }
        let lits = fixed_lits.get(j).map(Vec::as_slice).unwrap_or(&[]);
        if j < depth && !lits.iter().all(|(l, v)| sim.value(*l) == Some(*v)) {
            return j + 1;
        }
        sim.advance();
    }
    run.inputs.len().min(depth + 1)
}

/// What ternary simulation from the initial states (fixed inputs known, everything else
/// unknown) tells about one frame of [`values_per_frame`]'s runs.
#[derive(Clone, Debug, Default)]
struct Known {
    /// The valuation of the watched literals, when it is the same in every run.
    valuation: Option<Vec<bool>>,
    /// `Some(true)` when every run reaches the frame (every constraint of this and earlier
    /// frames and every fixed literal of earlier frames certainly holds), `Some(false)` when
    /// none does (one of them certainly fails), `None` when that is unknown.
    reached: Option<bool>,
}

/// [`Known`] for each of the frames `0..=depth`.
fn known_by_ternary_simulation(
    aig: &Aig,
    fixed_inputs: &[Vec<Option<bool>>],
    fixed_lits: &[Vec<(Lit, bool)>],
    watch: &[Lit],
    depth: usize,
) -> Vec<Known> {
    // Three-valued conjunction: false wins over unknown.
    let and = |a: Option<bool>, b: Option<bool>| match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    };
    let mut sim = TernarySim::from_reset(aig);
    let mut frames = Vec::with_capacity(depth + 1);
    let mut reached = Some(true);
    for j in 0..=depth {
        let mut inputs = fixed_inputs.get(j).cloned().unwrap_or_default();
        inputs.resize(aig.inputs.len(), None);
        sim.eval(&inputs);
        for c in &aig.constraints {
            reached = and(reached, sim.value(c.lit));
        }
        frames.push(Known {
            valuation: watch.iter().map(|w| sim.value(*w)).collect(),
            reached,
        });
        if j == depth {
            break;
        }
        let fixed = fixed_lits.get(j).map(Vec::as_slice).unwrap_or(&[]);
        for (lit, value) in fixed {
            reached = and(reached, sim.value(*lit).map(|v| v == *value));
        }
        // Later frames only look at runs in which this frame's fixed literals hold: what
        // they imply about this frame's latches and inputs holds in every such run.
        if reached != Some(false) {
            match implied_by_fixed_literals(aig, &mut sim, &mut inputs, fixed) {
                Some(_) => {}
                None => reached = Some(false),
            }
        }
        sim.advance();
    }
    frames
}

/// Refines the frame `sim` last evaluated (under `inputs`) with what `fixed` (literals with
/// the values every run considered has) implies backwards through the AND gates about
/// unknown latches and inputs, evaluating the frame again until nothing more follows.
/// `None` when the literals contradict each other or what is known (no run has them all).
fn implied_by_fixed_literals(
    aig: &Aig,
    sim: &mut TernarySim<'_>,
    inputs: &mut [Option<bool>],
    fixed: &[(Lit, bool)],
) -> Option<()> {
    // Per variable, the value the fixed literals give it in this pass (each visited once).
    let mut implied: Vec<Option<bool>> = vec![None; aig.num_vars() as usize];
    loop {
        let mut learned = false;
        implied.fill(None);
        let mut open: Vec<(u32, bool)> = fixed
            .iter()
            .map(|(l, v)| (l.var(), *v ^ l.is_neg()))
            .collect();
        while let Some((var, value)) = open.pop() {
            match implied.get(var as usize).copied().flatten() {
                Some(v) if v == value => continue,
                Some(_) => return None,
                None => {}
            }
            if let Some(slot) = implied.get_mut(var as usize) {
                *slot = Some(value);
            }
            let known = sim.value(Lit::var_lit(var));
            if let Some(k) = known {
                if k != value {
                    return None;
                }
            }
            match aig.node(var) {
                Node::Const => {}
                Node::Input(i) => {
                    if known.is_none() {
                        if let Some(slot) = inputs.get_mut(i as usize) {
                            *slot = Some(value);
                            learned = true;
                        }
                    }
                }
                Node::Latch(i) => {
                    if known.is_none() {
                        sim.set_latch(i as usize, Some(value));
                        learned = true;
                    }
                }
                Node::And(a, b) => {
                    let operand = |l: Lit, v: bool| (l.var(), v ^ l.is_neg());
                    if value {
                        open.push(operand(a, true));
                        open.push(operand(b, true));
                    } else if sim.value(a) == Some(true) {
                        open.push(operand(b, false));
                    } else if sim.value(b) == Some(true) {
                        open.push(operand(a, false));
                    }
                }
            }
        }
        if !learned {
            return Some(());
        }
        sim.eval(inputs);
    }
}

/// [`values_per_frame`]'s answer (with any `cap` ≥ 1) when ternary simulation settles every
/// frame: whether it is reached, and if so the one valuation of the watched literals.
fn settled(known: &[Known]) -> Option<Vec<Enumerated>> {
    known
        .iter()
        .map(|k| match (k.reached?, &k.valuation) {
            (false, _) => Some(Enumerated::default()),
            (true, Some(v)) => Some(Enumerated {
                values: vec![v.clone()],
                capped: false,
            }),
            (true, None) => None,
        })
        .collect()
}

/// Whether some run reaches the frame last added to `solver` (its constraints and the
/// earlier frames' fixed literals are in the solver).
fn frame_reached<S: SolveIncremental>(
    solver: &mut S,
    deadline: Option<Instant>,
) -> Result<bool, BmcError> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(BmcError::Interrupted);
    }
    match solver.solve().map_err(solver_err)? {
        SolverResult::Sat => Ok(true),
        SolverResult::Unsat => Ok(false),
        SolverResult::Interrupted => Err(BmcError::Interrupted),
    }
}

/// The valuations of `watched`, each blocked (guarded by `active`) once found.
fn enumerate_frame<S: SolveIncremental>(
    solver: &mut S,
    active: SatLit,
    watched: &[SatLit],
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Enumerated, BmcError> {
    let assumptions = [active];
    let mut found = Enumerated::default();
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(BmcError::Interrupted);
        }
        match solver.solve_assumps(&assumptions).map_err(solver_err)? {
            SolverResult::Unsat => break,
            SolverResult::Interrupted => return Err(BmcError::Interrupted),
            SolverResult::Sat if found.values.len() == cap => {
                found.capped = true;
                break;
            }
            SolverResult::Sat => {
                let mut valuation = Vec::with_capacity(watched.len());
                for l in watched {
                    valuation.push(solver.lit_val(*l).map_err(solver_err)? == TernaryVal::True);
                }
                let block: Clause = std::iter::once(!active)
                    .chain(
                        watched
                            .iter()
                            .zip(&valuation)
                            .map(|(l, v)| if *v { !*l } else { *l }),
                    )
                    .collect();
                solver.add_clause(block).map_err(solver_err)?;
                found.values.push(valuation);
            }
        }
    }
    found.values.sort();
    Ok(found)
}

fn solver_err(e: impl std::fmt::Display) -> BmcError {
    BmcError::Unroll(UnrollError::Solver(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{Named, Reset};

    /// Every valuation of `n` bits, in the sorted order [`values_per_frame`] lists them.
    fn all_valuations(n: usize) -> Vec<Vec<bool>> {
        let mut v: Vec<Vec<bool>> = (0..1u32 << n)
            .map(|x| (0..n).map(|i| x >> i & 1 == 1).collect())
            .collect();
        v.sort();
        v
    }

    /// Two free inputs per frame, both visible as outputs; a latch remembers input `a`.
    fn two_inputs() -> (Aig, [Lit; 3]) {
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        let seen = g.add_latch("seen", Reset::Zero);
        g.set_next(seen, a);
        (g, [a, b, seen])
    }

    #[test]
    fn free_inputs_give_every_valuation() {
        let (g, [a, b, _]) = two_inputs();
        let got = values_per_frame(&g, &Runs::default(), &[a, b], 3, 10, None).expect("enumerates");
        assert_eq!(got.len(), 4);
        for e in &got {
            assert_eq!(e.values, all_valuations(2));
            assert!(!e.capped);
        }
    }

    #[test]
    fn the_cap_is_respected_and_reported() {
        let (g, [a, b, _]) = two_inputs();
        for cap in 0..=5 {
            let got =
                values_per_frame(&g, &Runs::default(), &[a, b], 1, cap, None).expect("enumerates");
            for e in &got {
                assert_eq!(e.values.len(), cap.min(4), "cap {cap}");
                assert_eq!(e.capped, cap < 4, "cap {cap}");
                let all = all_valuations(2);
                assert!(e.values.iter().all(|v| all.contains(v)));
                let mut distinct = e.values.clone();
                distinct.dedup();
                assert_eq!(distinct, e.values, "no valuation twice");
            }
        }
    }

    #[test]
    fn fixed_inputs_restrict_their_frame_only() {
        let (g, [a, b, _]) = two_inputs();
        let fixed = vec![vec![Some(true), None], vec![None, Some(false)]];
        let got = values_per_frame(&g, &Runs::new(&fixed, &[]), &[a, b], 2, 10, None)
            .expect("enumerates");
        let want: [Vec<Vec<bool>>; 3] = [
            vec![vec![true, false], vec![true, true]],
            vec![vec![false, false], vec![true, false]],
            all_valuations(2),
        ];
        for (j, w) in want.iter().enumerate() {
            assert_eq!(&got[j].values, w, "frame {j}");
        }
    }

    /// Fixing `a` in frame 0 (as an expected value, not as an input) decides the latch in
    /// frame 1 and later frames, but not in frame 0 itself.
    #[test]
    fn fixed_literals_of_earlier_frames_restrict_later_ones() {
        let (g, [a, _, seen]) = two_inputs();
        let fixed = vec![vec![(a, true)], vec![(a, false)]];
        let got = values_per_frame(&g, &Runs::new(&[], &fixed), &[seen, a], 2, 10, None)
            .expect("enumerates");
        let values = |e: &Enumerated| e.values.clone();
        // Frame 0: the latch is 0 and `a` is free.
        assert_eq!(values(&got[0]), vec![vec![false, false], vec![false, true]]);
        // Frame 1: `a` was 1, so the latch is 1; `a` is free now.
        assert_eq!(values(&got[1]), vec![vec![true, false], vec![true, true]]);
        // Frame 2: `a` was 0 in frame 1.
        assert_eq!(values(&got[2]), vec![vec![false, false], vec![false, true]]);
    }

    /// A constraint counts in the frames up to the one asked, not after it; a frame no run
    /// reaches has no valuation.
    #[test]
    fn constraints_hold_up_to_the_frame_asked() {
        // A 2-bit counter that counts when `en`; the constraint forbids the value 2.
        let mut g = Aig::new();
        let en = g.add_input("en");
        let q0 = g.add_latch("q0", Reset::Zero);
        let q1 = g.add_latch("q1", Reset::Zero);
        let n0 = g.xor(q0, en);
        let c0 = g.and(q0, en);
        let n1 = g.xor(q1, c0);
        g.set_next(q0, n0);
        g.set_next(q1, n1);
        let two = g.and(!q0, q1);
        g.constraints.push(Named {
            lit: !two,
            name: "not2".into(),
        });
        // Brute force over the enable sequences: the counter values of frame j on runs whose
        // constraint holds in frames 0..=j.
        let depth = 4;
        let mut want = vec![Vec::new(); depth + 1];
        for seq in 0..1u32 << depth {
            let mut q = 0u32;
            for (j, w) in want.iter_mut().enumerate() {
                if q == 2 {
                    break;
                }
                let v = vec![q & 1 == 1, q & 2 == 2];
                if !w.contains(&v) {
                    w.push(v);
                }
                if j < depth && seq >> j & 1 == 1 {
                    q = (q + 1) % 4;
                }
            }
        }
        let got =
            values_per_frame(&g, &Runs::default(), &[q0, q1], depth, 10, None).expect("enumerates");
        for (j, w) in want.iter_mut().enumerate() {
            w.sort();
            assert_eq!(&got[j].values, w, "frame {j}");
        }
        // With `en` fixed to 1, frame 2 would be 2: no run reaches it.
        let always = vec![vec![Some(true)]; depth + 1];
        let got = values_per_frame(&g, &Runs::new(&always, &[]), &[q0, q1], depth, 10, None)
            .expect("runs");
        assert_eq!(got[1].values, vec![vec![true, false]]);
        assert!(got[2].values.is_empty() && got[3].values.is_empty());
    }

    /// The valuations of `watch` per frame by enumerating every initial state and every
    /// value of the free inputs of every frame (written apart from both the solver and the
    /// ternary shortcut).
    fn brute_force(
        aig: &Aig,
        fixed_inputs: &[Vec<Option<bool>>],
        fixed_lits: &[Vec<(Lit, bool)>],
        watch: &[Lit],
        depth: usize,
    ) -> Vec<Vec<Vec<bool>>> {
        use crate::testutil::{eval_frame, is_initial, lit_val, next_state};
        let (nl, ni) = (aig.latches.len(), aig.inputs.len());
        let bits = |x: u64, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
        let mut want = vec![Vec::new(); depth + 1];
        for init in 0..1u64 << nl {
            let init = bits(init, nl);
            if !is_initial(aig, &init) {
                continue;
            }
            for seq in 0..1u64 << (ni * (depth + 1)) {
                let mut state = init.clone();
                for (j, w) in want.iter_mut().enumerate() {
                    let mut inputs = bits(seq >> (ni * j), ni);
                    let fixed = fixed_inputs.get(j).map(Vec::as_slice).unwrap_or(&[]);
                    if inputs
                        .iter()
                        .zip(fixed)
                        .any(|(v, f)| f.is_some_and(|f| f != *v))
                    {
                        break;
                    }
                    inputs.truncate(ni);
                    let val = eval_frame(aig, &state, &inputs);
                    if !aig.constraints.iter().all(|c| lit_val(&val, c.lit)) {
                        break;
                    }
                    let v: Vec<bool> = watch.iter().map(|l| lit_val(&val, *l)).collect();
                    if !w.contains(&v) {
                        w.push(v);
                    }
                    let fl = fixed_lits.get(j).map(Vec::as_slice).unwrap_or(&[]);
                    if fl.iter().any(|(l, b)| lit_val(&val, *l) != *b) {
                        break;
                    }
                    state = next_state(aig, &val);
                }
            }
        }
        for w in &mut want {
            w.sort();
        }
        want
    }

    /// On random small circuits (free latches, constraints) with every input fixed, some
    /// fixed and none fixed, and fixed literals taken from one simulated run: the same
    /// valuations as brute force, whichever way they are found (ternary simulation settling
    /// every frame, some frames, or none, the rest by SAT), with that run given as known
    /// (also changed so that it stops early) or not; every way is exercised.
    #[test]
    fn random_circuits_match_brute_force() {
        use crate::testutil::{eval_frame, lit_val, next_state, random_aig, Rng, Shape};
        let mut rng = Rng::new(17);
        let (mut whole, mut mixed, mut solved, mut partly_run) = (0, 0, 0, 0);
        for _ in 0..300 {
            let g = random_aig(
                &mut rng,
                &Shape {
                    inputs: 2,
                    latches: 3,
                    ands: 10,
                    free_latches: true,
                    max_constraints: 1,
                    counter_bits: 0,
                    bad_latches: 0,
                },
            );
            let depth = 2;
            let watch: Vec<Lit> = (0..2)
                .map(|_| Lit::var_lit(1 + rng.below(g.num_vars() as u64 - 1) as u32))
                .collect();
            let mode = rng.below(3);
            let fixed_inputs: Vec<Vec<Option<bool>>> = (0..=depth)
                .map(|_| {
                    (0..2)
                        .map(|_| match mode {
                            0 => Some(rng.coin()),
                            1 => rng.coin().then(|| rng.coin()),
                            _ => None,
                        })
                        .collect()
                })
                .collect();
            // Fixed literals: the watched values of one run from the all-zero state.
            let mut state = vec![false; g.latches.len()];
            let mut fixed_lits: Vec<Vec<(Lit, bool)>> = Vec::new();
            let mut run_inputs = Vec::new();
            for f in &fixed_inputs {
                let inputs: Vec<bool> = f.iter().map(|v| v.unwrap_or(false)).collect();
                let val = eval_frame(&g, &state, &inputs);
                fixed_lits.push(watch.iter().map(|l| (*l, lit_val(&val, *l))).collect());
                state = next_state(&g, &val);
                run_inputs.push(inputs);
            }
            // Sometimes one fixed value flipped: perhaps no run has them all.
            if rng.below(3) == 0 {
                let f = rng.below(depth as u64) as usize;
                let w = rng.below(2) as usize;
                fixed_lits[f][w].1 = !fixed_lits[f][w].1;
            }
            // That run given as known, as it is, or with one input changed (it may then
            // leave the fixed inputs or literals early), or not given.
            let init = vec![false; g.latches.len()];
            let given = rng.below(3);
            if given == 1 {
                let f = rng.below(depth as u64 + 1) as usize;
                let i = rng.below(2) as usize;
                run_inputs[f][i] = !run_inputs[f][i];
            }
            let run = KnownRun {
                init: &init,
                inputs: &run_inputs,
            };
            let run = (given < 2).then_some(run);
            let by_run = run.map_or(0, |r| {
                frames_reached_by(&g, &r, &fixed_inputs, &fixed_lits, depth)
            });
            if (1..=depth).contains(&by_run) {
                partly_run += 1;
            }
            let want = brute_force(&g, &fixed_inputs, &fixed_lits, &watch, depth);
            let known = known_by_ternary_simulation(&g, &fixed_inputs, &fixed_lits, &watch, depth);
            if settled(&known).is_some() {
                whole += 1;
            } else if known.iter().any(|k| k.valuation.is_some()) {
                mixed += 1;
            } else {
                solved += 1;
            }
            let got = values_per_frame(
                &g,
                &Runs {
                    fixed_inputs: &fixed_inputs,
                    fixed_lits: &fixed_lits,
                    known: run,
                },
                &watch,
                depth,
                8,
                None,
            )
            .expect("enumerates");
            let got: Vec<Vec<Vec<bool>>> = got.into_iter().map(|e| e.values).collect();
            assert_eq!(got, want);
        }
        assert!(
            whole > 10 && mixed > 10 && solved > 10 && partly_run > 5,
            "{whole} settled, {mixed} in part, {solved} solved, {partly_run} runs stop early"
        );
    }

    #[test]
    fn a_passed_deadline_interrupts() {
        let (g, [a, b, _]) = two_inputs();
        let past = Some(Instant::now());
        assert!(matches!(
            values_per_frame(&g, &Runs::default(), &[a, b], 2, 10, past),
            Err(BmcError::Interrupted)
        ));
    }
}
