//! IC3 against explicit-state search on small random circuits, with and without seed
//! lemmas, and the use of seed lemmas on a hand-made circuit.

use std::collections::HashSet;

use hypermut_aig::{check_witness, Aig, Lit, Named, Reset};

use super::{Ic3, Ic3Core, Ic3Options};
use crate::backend::default_solver;
use crate::certificate::{check_certificate, Certificate};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::testutil::{
    assert_invariant_explicit, eval_frame, is_initial, lit_val, next_state, random_aig,
    shortest_depth, Rng, Shape,
};
use crate::verdict::Verdict;

fn bits(x: u32, n: usize) -> Vec<bool> {
    (0..n).map(|i| x >> i & 1 == 1).collect()
}

/// Successors of `state` under every input vector that satisfies the constraints.
fn successors(aig: &Aig, state: &[bool]) -> Vec<Vec<bool>> {
    (0..1u32 << aig.inputs.len())
        .filter_map(|i| {
            let val = eval_frame(aig, state, &bits(i, aig.inputs.len()));
            aig.constraints
                .iter()
                .all(|c| lit_val(&val, c.lit))
                .then(|| next_state(aig, &val))
        })
        .collect()
}

fn clause_holds(aig: &Aig, clause: &[Lit], state: &[bool]) -> bool {
    clause.iter().any(|&l| {
        let k = aig.latch_index(l).expect("latch literal");
        state[k] != l.is_neg()
    })
}

/// The states reachable from the initial states through steps that satisfy the
/// constraints, by explicit search.
fn reachable(aig: &Aig) -> HashSet<Vec<bool>> {
    let nl = aig.latches.len();
    let mut seen: HashSet<Vec<bool>> = (0..1u32 << nl)
        .map(|s| bits(s, nl))
        .filter(|s| is_initial(aig, s))
        .collect();
    let mut todo: Vec<Vec<bool>> = seen.iter().cloned().collect();
    while let Some(s) = todo.pop() {
        for t in successors(aig, &s) {
            if seen.insert(t.clone()) {
                todo.push(t);
            }
        }
    }
    seen
}

/// Every clause of one or two latch literals that holds in all reachable states (true
/// invariants, not necessarily inductive on their own), plus `wrong` clauses that some
/// reachable state violates.
fn candidate_lemmas(aig: &Aig, rng: &mut Rng, wrong: usize) -> Vec<Vec<Lit>> {
    let reach = reachable(aig);
    let lits: Vec<Lit> = aig.latches.iter().flat_map(|l| [l.lit, !l.lit]).collect();
    let mut all: Vec<Vec<Lit>> = lits.iter().map(|&a| vec![a]).collect();
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            if a.var() != b.var() {
                all.push(vec![a, b]);
            }
        }
    }
    let (good, bad): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|c| reach.iter().all(|s| clause_holds(aig, c, s)));
    let mut out = good;
    for _ in 0..wrong.min(bad.len()) {
        out.push(bad[rng.below(bad.len() as u64) as usize].clone());
    }
    out
}

/// The verdict must be definite, a witness must replay, a certificate must pass the checker
/// and the explicit-state check. The depth when unsafe, `None` when safe.
fn checked(aig: &Aig, v: &Verdict, what: &str) -> Option<usize> {
    match v {
        Verdict::Unsafe(w) => Some(check_witness(aig, w).unwrap_or_else(|e| panic!("{what}: {e}"))),
        Verdict::Safe(c) => {
            check_certificate(aig, c).unwrap_or_else(|e| panic!("{what}: {e}"));
            if let Certificate::Invariant { clauses } = c {
                assert_invariant_explicit(aig, clauses);
            }
            None
        }
        Verdict::Unknown(r) => panic!("{what}: unknown ({r})"),
    }
}

const SHAPE: Shape = Shape {
    inputs: 3,
    latches: 7,
    ands: 30,
    free_latches: true,
    max_constraints: 1,
    counter_bits: 3,
    bad_latches: 1,
};

/// With and without the infinite level, with ABC-style generalisation in the first frames,
/// with true and with partly wrong seed lemmas, IC3 agrees with explicit-state search, and
/// every answer passes its check.
#[test]
fn random_circuits_match_explicit_search_with_and_without_seeds() {
    let plain = Ic3::default();
    let inf = Ic3 {
        options: Ic3Options {
            infinite_level: true,
            ..Ic3Options::default()
        },
        ..Ic3::default()
    };
    let plain_early = Ic3 {
        options: Ic3Options {
            plain_below_frame: 3,
            ..Ic3Options::default()
        },
        ..Ic3::default()
    };
    let (mut safe, mut unsafe_) = (0, 0);
    for seed in 1..=80u64 {
        let mut rng = Rng::new(seed);
        let g = random_aig(&mut rng, &SHAPE);
        let want = shortest_depth(&g, 200);
        let true_lemmas = candidate_lemmas(&g, &mut rng, 0);
        let mixed = candidate_lemmas(&g, &mut rng, 3);
        let runs = [
            ("plain", plain.clone()),
            ("infinite level", inf.clone()),
            ("plain generalisation below frame 3", plain_early.clone()),
            ("true seeds", plain.clone().with_lemmas(true_lemmas)),
            ("mixed seeds", plain.clone().with_lemmas(mixed)),
        ];
        for (name, mut e) in runs {
            let got = checked(&g, &e.check(&g), &format!("{name}, seed {seed}"));
            assert_eq!(got.is_some(), want.is_some(), "{name}, seed {seed}");
            if let (Some(d), Some(w)) = (got, want) {
                assert!(d >= w, "{name}, seed {seed}: depth {d} < shortest {w}");
            }
        }
        match want {
            Some(_) => unsafe_ += 1,
            None => safe += 1,
        }
    }
    assert!(safe >= 10 && unsafe_ >= 10, "safe {safe}, unsafe {unsafe_}");
}

/// Two latches that always agree (both follow one input) and a counter that counts up while
/// they differ: bad (the counter at 7) is unreachable because they never differ. The seeded
/// equality `a = b` is part of the certificate; a wrong seed is dropped (the certificate
/// would not check otherwise).
#[test]
fn seeded_equalities_enter_the_certificate() {
    let mut g = Aig::new();
    let x = g.add_input("x");
    let a = g.add_latch("a", Reset::Zero);
    let b = g.add_latch("b", Reset::Zero);
    let c: Vec<Lit> = (0..3)
        .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
        .collect();
    g.set_next(a, x);
    g.set_next(b, x);
    let differ = g.xor(a, b);
    let mut carry = differ;
    for &bit in &c {
        let n = g.xor(bit, carry);
        carry = g.and(bit, carry);
        g.set_next(bit, n);
    }
    let c01 = g.and(c[0], c[1]);
    let bad = g.and(c01, c[2]);
    g.bad.push(Named {
        lit: bad,
        name: "bad".into(),
    });
    let eq = vec![vec![!a, b], vec![a, !b]];
    // `¬a` is false after a step with x = 1.
    let wrong = vec![vec![!a]];
    let seeds: Vec<Vec<Lit>> = eq.iter().chain(&wrong).cloned().collect();
    let v = Ic3::default().with_lemmas(seeds).check(&g);
    assert_eq!(checked(&g, &v, "seeded"), None);
    let Verdict::Safe(Certificate::Invariant { clauses }) = v else {
        panic!("an invariant certificate");
    };
    let sorted = |c: &Vec<Lit>| {
        let mut c = c.clone();
        c.sort_unstable();
        c
    };
    let clauses: Vec<Vec<Lit>> = clauses.iter().map(sorted).collect();
    for e in &eq {
        assert!(
            clauses.contains(&sorted(e)),
            "{e:?} missing from {clauses:?}"
        );
    }
    assert!(!clauses.contains(&sorted(&wrong[0])));
    // The same problem with the seeds naming a non-latch literal is refused, not trusted.
    let v = Ic3::default().with_lemmas(vec![vec![x]]).check(&g);
    assert_eq!(checked(&g, &v, "input seed"), None);
}

/// A counterexample deeper than the frames IC3 opens is found with seeds that hold (the
/// seeds never block a reachable state).
#[test]
fn seeds_do_not_hide_deep_counterexamples() {
    let mut g = Aig::new();
    let c: Vec<Lit> = (0..6)
        .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
        .collect();
    let twin = g.add_latch("t0", Reset::Zero);
    let mut carry = Lit::TRUE;
    for &bit in &c {
        let n = g.xor(bit, carry);
        carry = g.and(bit, carry);
        g.set_next(bit, n);
    }
    let n0 = g.xor(c[0], Lit::TRUE);
    g.set_next(twin, n0);
    let mut all = Lit::TRUE;
    for &bit in &c {
        all = g.and(all, bit);
    }
    g.bad.push(Named {
        lit: all,
        name: "bad".into(),
    });
    let seeds = vec![vec![!c[0], twin], vec![c[0], !twin]];
    let v = Ic3::default().with_lemmas(seeds).check(&g);
    assert_eq!(checked(&g, &v, "counter"), Some(63));
}

/// The greatest subset of `clauses` that holds in every initial state and is kept by every
/// step (under the constraints) from the states satisfying it, by explicit enumeration.
fn explicit_houdini(aig: &Aig, clauses: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
    let nl = aig.latches.len();
    let states: Vec<Vec<bool>> = (0..1u32 << nl).map(|s| bits(s, nl)).collect();
    let mut keep: Vec<Vec<Lit>> = clauses
        .iter()
        .filter(|c| {
            states
                .iter()
                .filter(|s| is_initial(aig, s))
                .all(|s| clause_holds(aig, c, s))
        })
        .cloned()
        .collect();
    loop {
        let inside: Vec<&Vec<bool>> = states
            .iter()
            .filter(|s| keep.iter().all(|c| clause_holds(aig, c, s)))
            .collect();
        let next: Vec<Vec<bool>> = inside.iter().flat_map(|s| successors(aig, s)).collect();
        let before = keep.len();
        keep.retain(|c| next.iter().all(|t| clause_holds(aig, c, t)));
        if keep.len() == before {
            return keep;
        }
    }
}

/// The SAT-based Houdini of IC3 keeps exactly the clauses the explicit computation keeps,
/// each possibly shortened (by the core of its last query) to a sub-clause, and what it
/// returns holds initially and is inductive (explicit check).
#[test]
fn houdini_finds_the_greatest_inductive_subset() {
    let mut nonempty = 0;
    for seed in 1..=60u64 {
        let mut rng = Rng::new(seed);
        let g = random_aig(&mut rng, &SHAPE);
        let cands = candidate_lemmas(&g, &mut rng, 4);
        let want = explicit_houdini(&g, &cands);
        let limits = Limits::none();
        let mut core = Ic3Core::new(&g, Ic3Options::default(), limits.clone(), || {
            default_solver(&limits)
        });
        let cubes: Vec<Vec<Lit>> = cands
            .iter()
            .map(|c| {
                let mut cube: Vec<Lit> = c.iter().map(|&l| !l).collect();
                cube.sort_unstable();
                cube
            })
            .collect();
        let Ok(kept) = core.houdini(cubes) else {
            panic!("seed {seed}: houdini failed");
        };
        let got: Vec<Vec<Lit>> = kept
            .iter()
            .map(|c| c.iter().map(|&l| !l).collect())
            .collect();
        // Survivors come back in candidate order, so they pair up with the explicit ones.
        assert_eq!(got.len(), want.len(), "seed {seed}: {got:?} vs {want:?}");
        for (g, w) in got.iter().zip(&want) {
            assert!(
                g.iter().all(|l| w.contains(l)),
                "seed {seed}: {g:?} ⊄ {w:?}"
            );
        }
        assert_eq!(explicit_houdini(&g, &got).len(), got.len(), "seed {seed}");
        nonempty += usize::from(!want.is_empty());
    }
    assert!(nonempty >= 20, "only {nonempty} non-trivial cases");
}

/// The latch equalities signal correspondence proves, as clauses, hold in every reachable
/// state (explicit search), and the schedule that seeds IC3 with them answers as explicit
/// search does, with checked answers.
#[test]
fn correspondence_seeds_are_invariants_and_keep_schedule_verdicts() {
    let shape = Shape {
        latches: 5,
        counter_bits: 0,
        bad_latches: 2,
        ..SHAPE
    };
    let mut with_clauses = 0;
    for seed in 1..=60u64 {
        let mut g = random_aig(&mut Rng::new(seed), &shape);
        // A twin of every latch makes equalities to find.
        let n = g.latches.len();
        for k in 0..n {
            let (reset, next) = (g.latches[k].reset, g.latches[k].next);
            let t = g.add_latch(format!("twin{k}"), reset);
            g.set_next(t, next);
        }
        let found = crate::Scorr::default()
            .correspondence(&g, &Limits::none())
            .expect("correspondence");
        let clauses = found.latch_clauses(&g);
        let reach = reachable(&g);
        for c in &clauses {
            assert!(
                reach.iter().all(|s| clause_holds(&g, c, s)),
                "seed {seed}: {c:?} fails in a reachable state"
            );
        }
        with_clauses += usize::from(!clauses.is_empty());
        let want = shortest_depth(&g, 300);
        let got = crate::Schedule::sliced(0, true).run(&g, &Limits::none());
        assert_eq!(
            checked(&g, &got.verdict, &format!("seed {seed}")).is_some(),
            want.is_some(),
            "seed {seed}"
        );
    }
    assert!(with_clauses >= 20, "only {with_clauses} cases with clauses");
}

/// CTGs used by IC3 on 80 random circuits, and the number of searches that finished.
fn ctgs_over_random_circuits(options: &Ic3Options) -> (usize, usize) {
    let (mut ctgs, mut runs) = (0, 0);
    for seed in 1..=80u64 {
        let mut rng = Rng::new(seed);
        let g = random_aig(&mut rng, &SHAPE);
        let limits = Limits::none();
        let mut core = Ic3Core::new(&g, options.clone(), limits.clone(), || {
            default_solver(&limits)
        });
        if core.run(&[]).is_ok() {
            ctgs += core.stats.ctgs;
            runs += 1;
        }
    }
    (ctgs, runs)
}

/// Below `plain_below_frame` IC3 generalises without CTGs; from that frame on it uses them
/// as configured. With CTGs for every lemma, the random circuits need some; with plain
/// generalisation up to a frame no search reaches, none; with the threshold at frame 2,
/// some again (the searches that go past it).
#[test]
fn plain_generalisation_leaves_ctgs_out_below_its_frame() {
    let always = Ic3Options {
        ctg_after: 0,
        ..Ic3Options::default()
    };
    let (with_ctgs, runs) = ctgs_over_random_circuits(&always);
    assert_eq!(runs, 80);
    assert!(with_ctgs > 0, "no CTG on any random circuit");
    let never = Ic3Options {
        plain_below_frame: usize::MAX,
        ..always.clone()
    };
    assert_eq!(ctgs_over_random_circuits(&never), (0, 80));
    let from_two = Ic3Options {
        plain_below_frame: 2,
        ..always
    };
    let (late, _) = ctgs_over_random_circuits(&from_two);
    assert!(
        late > 0,
        "no CTG from frame 2 on ({with_ctgs} with CTGs always)"
    );
}
