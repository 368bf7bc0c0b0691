use super::*;
use crate::certificate::check_certificate;
use crate::testutil::{
    eval_frame, is_initial, lit_val, next_state, random_aig, shortest_depth,
    unreachable_state_mutant, Rng, Shape,
};
use crate::Scorr;

/// Whether latch values `state` satisfy clause `c`.
fn satisfies(aig: &Aig, state: &[bool], c: &[Lit]) -> bool {
    c.iter().any(|&l| {
        let k = aig.latch_index(l).expect("latch literal");
        state[k] != l.is_neg()
    })
}

/// The largest inductive subset of `cands` by explicit enumeration (tiny AIGs): drop every
/// candidate an initial state violates (constraints holding in it), then, until nothing
/// changes, every candidate violated by a successor (constraints holding in both frames) of
/// a state that satisfies all remaining candidates.
pub(super) fn explicit_houdini(aig: &Aig, cands: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
    let (nl, ni) = (aig.latches.len(), aig.inputs.len());
    let bits = |x: u32, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
    let ok = |val: &[bool]| aig.constraints.iter().all(|c| lit_val(val, c.lit));
    let holds_somewhere =
        |state: &[bool]| (0..1u32 << ni).any(|i| ok(&eval_frame(aig, state, &bits(i, ni))));
    let mut active: Vec<bool> = cands
        .iter()
        .map(|c| {
            (0..1u32 << nl).all(|s| {
                let st = bits(s, nl);
                !is_initial(aig, &st) || !holds_somewhere(&st) || satisfies(aig, &st, c)
            })
        })
        .collect();
    loop {
        let mut changed = false;
        for s in 0..1u32 << nl {
            let st = bits(s, nl);
            if !cands
                .iter()
                .zip(&active)
                .all(|(c, a)| !a || satisfies(aig, &st, c))
            {
                continue;
            }
            for i in 0..1u32 << ni {
                let val = eval_frame(aig, &st, &bits(i, ni));
                if !ok(&val) {
                    continue;
                }
                let next = next_state(aig, &val);
                if !holds_somewhere(&next) {
                    continue;
                }
                for (c, a) in cands.iter().zip(active.iter_mut()) {
                    if *a && !satisfies(aig, &next, c) {
                        *a = false;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    cands
        .iter()
        .zip(active)
        .filter(|(_, a)| *a)
        .map(|(c, _)| c.clone())
        .collect()
}

fn shape(free_latches: bool) -> Shape {
    Shape {
        inputs: 2,
        latches: 6,
        ands: 16,
        free_latches,
        max_constraints: 1,
        counter_bits: 0,
        bad_latches: 0,
    }
}

/// Every clause over two latches (both polarities), and every unit: a candidate set that
/// contains wrong clauses for the subset search to drop.
fn all_small_clauses(aig: &Aig) -> Vec<Vec<Lit>> {
    let lits: Vec<Lit> = aig.latches.iter().flat_map(|l| [l.lit, !l.lit]).collect();
    let mut out: Vec<Vec<Lit>> = lits.iter().map(|&l| vec![l]).collect();
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            if a.var() != b.var() {
                out.push(vec![a, b]);
            }
        }
    }
    out
}

/// The subset search keeps exactly the largest inductive subset that explicit enumeration
/// computes, on random circuits (with and without free initial values and constraints),
/// both for every small clause and for the mined candidates; shortening keeps it inductive.
#[test]
fn the_inductive_subset_is_the_explicit_greatest_fixpoint() {
    let mut rng = Rng::new(5);
    let (mut kept_some, mut dropped_some, mut shortened) = (0, 0, 0);
    for round in 0..60 {
        let g = random_aig(&mut rng, &shape(round % 2 == 1));
        let h = Houdini::default();
        for cands in [all_small_clauses(&g), h.candidates(&g).expect("mined")] {
            let want = explicit_houdini(&g, &cands);
            let got = h
                .inductive_subset(&g, cands.clone(), &Limits::none())
                .expect("no limits");
            assert_eq!(got, want, "round {round}");
            // Shortened, the set is still inductive (its own fixpoint), and each clause
            // implies one of the set's.
            let short = h
                .strengthen(&g, got.clone(), &Limits::none())
                .expect("no limits");
            assert_eq!(explicit_houdini(&g, &short), short, "round {round}");
            assert!(short
                .iter()
                .all(|c| got.iter().any(|o| c.iter().all(|l| o.contains(l)))));
            let lits = |set: &[Vec<Lit>]| set.iter().map(Vec::len).sum::<usize>();
            shortened += usize::from(lits(&short) < lits(&got));
            kept_some += usize::from(!got.is_empty());
            dropped_some += usize::from(got.len() < cands.len());
        }
    }
    assert!(
        kept_some > 20 && dropped_some > 20 && shortened > 5,
        "{kept_some} {dropped_some} {shortened}"
    );
}

/// The search that stops early ([`Houdini::inductive_subset_excluding`]) stops only when
/// the largest inductive subset (explicit enumeration) has a bad state under the
/// constraints, and otherwise keeps exactly that subset; the quick engine proves only
/// what the full one proves.
#[test]
fn the_early_stop_happens_only_when_the_subset_has_a_bad_state() {
    let mut rng = Rng::new(11);
    let (mut stopped, mut finished) = (0, 0);
    let bits = |x: u32, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
    for round in 0..60 {
        let g = random_aig(&mut rng, &shape(round % 2 == 1));
        let bad = g.bad[0].lit;
        let h = Houdini::default();
        for cands in [all_small_clauses(&g), h.candidates(&g).expect("mined")] {
            let want = explicit_houdini(&g, &cands);
            let got = h
                .inductive_subset_excluding(&g, cands.clone(), bad, &Limits::none())
                .expect("no limits");
            match got {
                Some(kept) => {
                    assert_eq!(kept, want, "round {round}");
                    finished += 1;
                }
                None => {
                    let (nl, ni) = (g.latches.len(), g.inputs.len());
                    let has_bad_state = (0..1u32 << nl).any(|s| {
                        let st = bits(s, nl);
                        want.iter().all(|c| satisfies(&g, &st, c))
                            && (0..1u32 << ni).any(|i| {
                                let val = eval_frame(&g, &st, &bits(i, ni));
                                lit_val(&val, bad)
                                    && g.constraints.iter().all(|c| lit_val(&val, c.lit))
                            })
                    });
                    assert!(has_bad_state, "round {round}: stopped early without cause");
                    stopped += 1;
                }
            }
        }
        if matches!(Houdini::quick().check(&g), Verdict::Safe(_)) {
            assert!(matches!(Houdini::default().check(&g), Verdict::Safe(_)));
        }
    }
    assert!(stopped > 10 && finished > 10, "{stopped} {finished}");
}

/// Every `Safe` answer is right: no reachable bad state by explicit enumeration, and the
/// certificate passes the separate checker; some random circuits are proved.
#[test]
fn proofs_agree_with_explicit_reachability() {
    let mut rng = Rng::new(9);
    let mut proved = 0;
    for round in 0..120 {
        let g = random_aig(&mut rng, &shape(round % 3 == 0));
        match Houdini::default().check(&g) {
            Verdict::Safe(cert) => {
                assert_eq!(shortest_depth(&g, 12), None, "a proof of a reachable bad");
                check_certificate(&g, &cert).expect("the certificate checks");
                proved += 1;
            }
            Verdict::Unknown(_) => {}
            Verdict::Unsafe(_) => panic!("the subset search never finds counterexamples"),
        }
    }
    assert!(proved > 10, "{proved} proved");
}

/// A mutant that differs only in a state the design never reaches
/// ([`unreachable_state_mutant`]): signal correspondence cannot prove it, the mined clauses
/// can.
#[test]
fn a_mutant_differing_in_an_unreachable_state_is_proved_equivalent() {
    let g = unreachable_state_mutant();
    assert_eq!(shortest_depth(&g, 8), None);
    assert!(matches!(Scorr::default().check(&g), Verdict::Unknown(_)));
    match Houdini::default().check(&g) {
        Verdict::Safe(cert) => check_certificate(&g, &cert).expect("the certificate checks"),
        v => panic!("not proved: {v:?}"),
    }
}

/// The mining runs fit the memory cap: the set lengths where they fit, fewer rounds (never
/// below one uniform and one quiet round) and then fewer steps where they do not.
#[test]
fn mining_runs_are_cut_to_the_memory_cap() {
    let h = Houdini::with_orders();
    assert_eq!(h.mining_runs(236), (16, 1024));
    for latches in [1, 236, 300, 1000, 4096, 100_000] {
        let (rounds, steps) = h.mining_runs(latches);
        assert!(rounds * steps * latches <= MAX_MINED_WORDS || steps == 1);
        assert!(rounds >= 2 && steps >= 1, "{latches}: {rounds} x {steps}");
        assert!(rounds <= h.rounds && steps <= h.steps);
    }
    assert_eq!(h.mining_runs(1000), (4, 1024));
    assert_eq!(h.mining_runs(4096), (2, 512));
}
