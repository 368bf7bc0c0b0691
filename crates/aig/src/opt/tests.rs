//! Tests of the optimisation passes: on random AIGs and on blasted random systems, each pass
//! keeps the interface and the function of every root. Equivalence is checked by the
//! simulators of this crate (`wordsim` for every combination of input and latch values, or
//! many random ones; `sim::simulate` for runs from the initial states), which share no code
//! with the passes.

use proptest::prelude::*;

use super::*;
use crate::blast::random_system::random_system;
use crate::blast::{blast, BlastOptions};
use crate::graph::{Aig, Lit, Named, Reset};
use crate::sim::simulate;
use crate::wordsim::{eval_words, lit_word, WordRng};

/// A random AIG read from a tape: 1–8 inputs, 0–4 latches, gates over earlier variables
/// added without hashing (so duplicates, constants and dead logic occur), and roots.
fn random_aig(tape: &[u32]) -> Aig {
    let mut k = 0;
    let mut next = |n: u32| {
        let v = tape
            .get(k)
            .copied()
            .unwrap_or((k as u32).wrapping_mul(2654435761));
        k += 1;
        v % n.max(1)
    };
    let mut g = Aig::new();
    let ni = 1 + next(8);
    let nl = next(5);
    let mut vars: Vec<Lit> = vec![Lit::FALSE];
    for i in 0..ni {
        vars.push(g.add_input(format!("i{i}")));
    }
    let resets = [Reset::Zero, Reset::One, Reset::Free];
    let mut latches = Vec::new();
    for i in 0..nl {
        let l = g.add_latch(format!("l{i}"), resets[next(3) as usize]);
        vars.push(l);
        latches.push(l);
    }
    let gates = 2 + next(40);
    for _ in 0..gates {
        let pick = |x: u32, vars: &[Lit]| vars[(x as usize) % vars.len()];
        let a = pick(next(1000), &vars).xor(next(2) == 1);
        let b = pick(next(1000), &vars).xor(next(2) == 1);
        // Mostly recent gates, to get depth.
        let a = if next(3) == 0 {
            a
        } else {
            vars[vars.len() - 1 - (next(4) as usize).min(vars.len() - 1)].xor(next(2) == 1)
        };
        let l = if next(4) == 0 {
            g.and(a, b)
        } else {
            g.add_raw_and(a, b)
        };
        vars.push(l);
    }
    let any = |x: u32, neg: u32| vars[(x as usize) % vars.len()].xor(neg == 1);
    for l in latches {
        let n = any(next(1000), next(2));
        g.set_next(l, n);
    }
    for o in 0..1 + next(3) {
        let lit = any(next(1000), next(2));
        g.outputs.push(Named {
            lit,
            name: format!("o{o}"),
        });
    }
    for b in 0..next(2) {
        let lit = any(next(1000), next(2));
        g.bad.push(Named {
            lit,
            name: format!("b{b}"),
        });
    }
    for c in 0..next(2) {
        let lit = any(next(1000), next(2));
        g.constraints.push(Named {
            lit,
            name: format!("c{c}"),
        });
    }
    if next(4) == 0 {
        let j = vec![any(next(1000), next(2)), any(next(1000), next(2))];
        g.justice.push(j);
        g.fairness.push(any(next(1000), next(2)));
    }
    g.comment = Some("random".into());
    g
}

/// Every root literal, in one fixed order (the test's own list).
fn roots(g: &Aig) -> Vec<Lit> {
    let mut r: Vec<Lit> = g.latches.iter().map(|l| l.next).collect();
    r.extend(g.outputs.iter().map(|n| n.lit));
    r.extend(g.bad.iter().map(|n| n.lit));
    r.extend(g.constraints.iter().map(|n| n.lit));
    r.extend(g.justice.iter().flatten());
    r.extend(&g.fairness);
    r
}

fn assert_same_interface(a: &Aig, b: &Aig) {
    let inputs = |g: &Aig| g.inputs.iter().map(|i| i.name.clone()).collect::<Vec<_>>();
    let latches = |g: &Aig| {
        g.latches
            .iter()
            .map(|l| (l.name.clone(), l.reset))
            .collect::<Vec<_>>()
    };
    let names = |n: &[Named]| n.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
    assert_eq!(inputs(a), inputs(b));
    assert_eq!(latches(a), latches(b));
    assert_eq!(names(&a.outputs), names(&b.outputs));
    assert_eq!(names(&a.bad), names(&b.bad));
    assert_eq!(names(&a.constraints), names(&b.constraints));
    let jl = |g: &Aig| g.justice.iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(jl(a), jl(b));
    assert_eq!(a.fairness.len(), b.fairness.len());
    assert_eq!(a.comment, b.comment);
}

/// Every root of `a` and `b` computes the same function of the inputs and latch outputs:
/// over all combinations when there are at most 14 of them, else over 64 × 64 random ones.
fn assert_comb_equivalent(a: &Aig, b: &Aig) {
    let n = a.inputs.len() + a.latches.len();
    let words = |rng: &mut WordRng, round: usize| -> Vec<u64> {
        (0..n)
            .map(|k| {
                if n <= 14 {
                    // Run j of word `round` is assignment 64·round + j.
                    (0..64).fold(0u64, |w, j| w | (((64 * round + j) >> k & 1) as u64) << j)
                } else {
                    rng.next_word()
                }
            })
            .collect()
    };
    let rounds = if n <= 14 {
        (1usize << n).div_ceil(64)
    } else {
        64
    };
    let mut rng = WordRng::new(n as u64 + 1);
    for round in 0..rounds {
        let w = words(&mut rng, round);
        let (ins, lat) = w.split_at(a.inputs.len());
        let (va, vb) = (eval_words(a, ins, lat), eval_words(b, ins, lat));
        for (k, (ra, rb)) in roots(a).into_iter().zip(roots(b)).enumerate() {
            assert_eq!(
                lit_word(&va, ra),
                lit_word(&vb, rb),
                "root {k} differs (round {round})"
            );
        }
    }
}

/// Runs of `cycles` frames from the initial states (random values for uninitialised
/// latches, random inputs) give the same outputs, properties, constraints and states.
fn assert_cosimulate(a: &Aig, b: &Aig, runs: usize, cycles: usize) {
    let mut rng = WordRng::new(99);
    for _ in 0..runs {
        let init: Vec<Option<bool>> = (0..a.latches.len())
            .map(|_| Some(rng.next_word() & 1 == 1))
            .collect();
        let inputs: Vec<Vec<Option<bool>>> = (0..cycles)
            .map(|_| {
                (0..a.inputs.len())
                    .map(|_| Some(rng.next_word() & 1 == 1))
                    .collect()
            })
            .collect();
        let (ta, tb) = (simulate(a, &init, &inputs), simulate(b, &init, &inputs));
        for (k, (fa, fb)) in ta.frames.iter().zip(&tb.frames).enumerate() {
            assert_eq!(fa.latches, fb.latches, "state in frame {k}");
            assert_eq!(fa.outputs, fb.outputs, "outputs in frame {k}");
            assert_eq!(fa.bad, fb.bad, "bad in frame {k}");
            assert_eq!(fa.constraints, fb.constraints, "constraints in frame {k}");
        }
    }
}

fn check_all_passes(g: &Aig) {
    let passes: [(&str, Aig); 5] = [
        ("cleanup", cleanup(g)),
        ("balance", balance(g)),
        ("rewrite", rewrite(g, &RewriteOptions::default())),
        (
            "rewrite6",
            rewrite(
                g,
                &RewriteOptions {
                    cut_size: 6,
                    cuts_per_node: 8,
                    zero_gain: true,
                },
            ),
        ),
        ("optimize", optimize(g, &OptOptions::default())),
    ];
    let clean = cleanup(g).num_ands();
    for (name, h) in &passes {
        assert!(well_formed(h), "{name}: malformed result");
        assert_same_interface(g, h);
        assert_comb_equivalent(g, h);
        assert_cosimulate(g, h, 8, 6);
        if *name != "cleanup" {
            assert!(h.num_ands() <= g.num_ands(), "{name} grew the circuit");
        }
        if *name == "optimize" {
            assert!(h.num_ands() <= clean, "optimize is worse than cleanup");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every pass keeps every root's function on random AIGs.
    #[test]
    fn passes_keep_random_aigs_equivalent(tape in proptest::collection::vec(any::<u32>(), 0..400)) {
        check_all_passes(&random_aig(&tape));
    }

    /// Every pass keeps every root's function on bit-blasted random systems (arithmetic,
    /// comparisons, shifts, multiplexers, constraints, the `started` latch).
    #[test]
    fn passes_keep_blasted_systems_equivalent(tape in proptest::collection::vec(any::<u32>(), 0..300)) {
        let sys = random_system(tape, 3);
        if let Ok(b) = blast(&sys, &BlastOptions::default()) {
            check_all_passes(&b.aig);
        }
    }
}

#[test]
fn cleanup_drops_unused_and_duplicate_gates() {
    let mut g = Aig::new();
    let a = g.add_input("a");
    let b = g.add_input("b");
    let x = g.add_raw_and(a, b);
    let y = g.add_raw_and(b, a); // duplicate of x
    let _dead = g.add_raw_and(a, !b);
    let z = g.add_raw_and(x, y); // x ∧ x = x
    g.outputs.push(Named {
        lit: z,
        name: "z".into(),
    });
    let c = cleanup(&g);
    assert_eq!(g.num_ands(), 4);
    assert_eq!(c.num_ands(), 1);
    assert_comb_equivalent(&g, &c);
}

/// Circuits built wastefully shrink to the known smallest sizes.
#[test]
fn rewriting_finds_smaller_structures() {
    type Build = fn(&mut Aig, &[Lit]) -> Lit;
    let table: [(&str, usize, Build, usize); 4] = [
        // XOR from the sum of products with a redundant consensus-like term.
        (
            "xor",
            2,
            |g, x| {
                let p = g.and(x[0], !x[1]);
                let q = g.and(!x[0], x[1]);
                let r = g.or(p, q);
                let o = g.or(x[0], x[1]);
                g.and(r, o)
            },
            3,
        ),
        // A full adder's carry and sum built from 9 gates (two XORs, two ANDs, an OR).
        (
            "full adder",
            3,
            |g, x| {
                let t = g.xor(x[0], x[1]);
                let s = g.xor(t, x[2]);
                let both = g.and(x[0], x[1]);
                let prop = g.and(t, x[2]);
                let c = g.or(both, prop);
                g.outputs.push(Named {
                    lit: s,
                    name: "s".into(),
                });
                c
            },
            7,
        ),
        // (a ∧ b) ∨ (a ∧ c) written without sharing a.
        (
            "distribute",
            3,
            |g, x| {
                let p = g.and(x[0], x[1]);
                let q = g.and(x[0], x[2]);
                g.or(p, q)
            },
            2,
        ),
        // A multiplexer whose branches are equal is just the branch.
        (
            "mux of equal",
            3,
            |g, x| {
                let t = g.and(x[1], x[2]);
                let e = g.and(x[2], x[1]);
                let p = g.and(x[0], t);
                let q = g.and(!x[0], e);
                g.or(p, q)
            },
            1,
        ),
    ];
    for (name, n, build, want) in table {
        let mut g = Aig::new();
        let x: Vec<Lit> = (0..n).map(|i| g.add_input(format!("x{i}"))).collect();
        let o = build(&mut g, &x);
        g.outputs.push(Named {
            lit: o,
            name: "o".into(),
        });
        let h = optimize(&g, &OptOptions::default());
        assert_comb_equivalent(&g, &h);
        assert!(
            h.num_ands() <= want,
            "{name}: {} gates, want at most {want}",
            h.num_ands()
        );
    }
}

/// The equivalence checks above see a changed root (so that their silence means something).
#[test]
fn the_checks_see_a_changed_root() {
    let mut g = Aig::new();
    let a = g.add_input("a");
    let b = g.add_input("b");
    let l = g.add_latch("l", Reset::Zero);
    let x = g.and(a, b);
    g.set_next(l, x);
    let o = g.or(a, l);
    g.outputs.push(Named {
        lit: o,
        name: "o".into(),
    });
    let mut h = g.clone();
    h.latches[0].next = a;
    assert_comb_equivalent(&g, &g.clone());
    assert_cosimulate(&g, &g.clone(), 8, 6);
    let comb = std::panic::catch_unwind(|| assert_comb_equivalent(&g, &h));
    let seq = std::panic::catch_unwind(|| assert_cosimulate(&g, &h, 8, 6));
    assert!(comb.is_err() && seq.is_err());
}
