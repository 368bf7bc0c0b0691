//! Tests of SAT sweeping and of the optimisation script. Every result is compared with its
//! input independently of the code under test: root by root with a SAT miter of the tests'
//! own (one Tseitin encoding of both circuits over shared input and latch variables, one
//! query per root), and by simulating both from their initial states
//! ([`hypermut_aig::simulate`]).

use std::path::PathBuf;
use std::time::Duration;

use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{simulate, Aig, Lit, Named, Node, Reset};
use proptest::prelude::*;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as SatLit, Var};

use super::*;
use crate::backend::Cadical;

/// Every root literal in one fixed order (the tests' own list).
fn roots(g: &Aig) -> Vec<Lit> {
    let mut r: Vec<Lit> = g.latches.iter().map(|l| l.next).collect();
    r.extend(g.outputs.iter().map(|n| n.lit));
    r.extend(g.bad.iter().map(|n| n.lit));
    r.extend(g.constraints.iter().map(|n| n.lit));
    r.extend(g.justice.iter().flatten());
    r.extend(&g.fairness);
    r
}

/// Whether every root of `a` equals the same root of `b` for all values of the inputs and
/// latches (which both circuits share by position).
fn sat_equivalent(a: &Aig, b: &Aig) -> bool {
    assert_eq!(a.inputs.len(), b.inputs.len());
    assert_eq!(a.latches.len(), b.latches.len());
    let mut s = Cadical::new();
    let shared = (a.inputs.len() + a.latches.len()) as u32;
    // Variable 0 false; inputs and latches 1..=shared; then each circuit's gates.
    let mut next = shared + 1;
    let mut encode = |g: &Aig, s: &mut Cadical| -> Vec<SatLit> {
        let mut var = vec![Var::new(0); g.num_vars() as usize];
        for (v, node) in g.nodes().iter().enumerate() {
            var[v] = match *node {
                Node::Const => Var::new(0),
                Node::Input(i) => Var::new(1 + i),
                Node::Latch(i) => Var::new(1 + g.inputs.len() as u32 + i),
                Node::And(..) => {
                    next += 1;
                    Var::new(next - 1)
                }
            };
        }
        let lit = |l: Lit| {
            let x = var[l.var() as usize].pos_lit();
            if l.is_neg() {
                !x
            } else {
                x
            }
        };
        for (v, node) in g.nodes().iter().enumerate() {
            if let Node::And(p, q) = *node {
                let x = var[v].pos_lit();
                s.add_binary(!x, lit(p)).expect("clause");
                s.add_binary(!x, lit(q)).expect("clause");
                s.add_ternary(x, !lit(p), !lit(q)).expect("clause");
            }
        }
        roots(g).into_iter().map(lit).collect()
    };
    s.add_unit(Var::new(0).neg_lit()).expect("clause");
    let ra = encode(a, &mut s);
    let rb = encode(b, &mut s);
    assert_eq!(ra.len(), rb.len());
    for (x, y) in ra.into_iter().zip(rb) {
        for assumption in [[x, !y], [!x, y]] {
            if s.solve_assumps(&assumption).expect("solve") != SolverResult::Unsat {
                return false;
            }
        }
    }
    true
}

/// Runs from the initial states (random values for uninitialised latches and inputs) give
/// the same states, outputs, properties and constraints in every frame.
fn assert_cosimulate(a: &Aig, b: &Aig, runs: u64, cycles: usize) {
    let mut rng = hypermut_testkit::XorShift64::new(7);
    for _ in 0..runs {
        let init: Vec<Option<bool>> = a.latches.iter().map(|_| Some(rng.coin())).collect();
        let inputs: Vec<Vec<Option<bool>>> = (0..cycles)
            .map(|_| a.inputs.iter().map(|_| Some(rng.coin())).collect())
            .collect();
        let (ta, tb) = (simulate(a, &init, &inputs), simulate(b, &init, &inputs));
        for (k, (fa, fb)) in ta.frames.iter().zip(&tb.frames).enumerate() {
            assert_eq!(fa.latches, fb.latches, "state, frame {k}");
            assert_eq!(fa.outputs, fb.outputs, "outputs, frame {k}");
            assert_eq!(fa.bad, fb.bad, "bad, frame {k}");
            assert_eq!(fa.constraints, fb.constraints, "constraints, frame {k}");
        }
    }
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
    assert_eq!(a.justice.len(), b.justice.len());
    assert_eq!(a.fairness.len(), b.fairness.len());
}

fn check(a: &Aig, b: &Aig) {
    assert_same_interface(a, b);
    assert!(sat_equivalent(a, b), "the SAT miter finds a difference");
    assert_cosimulate(a, b, 16, 8);
}

/// A random circuit with hidden equivalences: random gates, and for some of them a second,
/// structurally different construction of the same function (another association order of
/// a conjunction, XOR and multiplexer written two ways, a contradiction that is constant).
fn redundant_aig(tape: &[u32]) -> Aig {
    let mut k = 0;
    let mut next = |n: u32| {
        let v = tape
            .get(k)
            .copied()
            .unwrap_or((k as u32).wrapping_mul(40503));
        k += 1;
        v % n.max(1)
    };
    let mut g = Aig::new();
    let mut pool: Vec<Lit> = (0..1 + next(6))
        .map(|i| g.add_input(format!("i{i}")))
        .collect();
    let latches: Vec<Lit> = (0..next(4))
        .map(|i| {
            let r = [Reset::Zero, Reset::One, Reset::Free][next(3) as usize];
            g.add_latch(format!("l{i}"), r)
        })
        .collect();
    pool.extend(&latches);
    for _ in 0..4 + next(24) {
        let mut pick = |pool: &[Lit]| pool[next(pool.len() as u32) as usize].xor(next(2) == 1);
        let (a, b, c) = (pick(&pool), pick(&pool), pick(&pool));
        let (x, y) = match next(5) {
            0 => {
                let l = g.and(a, b);
                let r = g.and(b, c);
                (g.and(l, c), g.and(a, r))
            }
            1 => {
                let p = g.and(a, !b);
                let q = g.and(!a, b);
                let n1 = g.and(a, b);
                let n2 = g.and(!a, !b);
                (g.or(p, q), g.and(!n1, !n2))
            }
            2 => {
                let m = g.ite(a, b, c);
                let p = g.or(!a, b);
                let q = g.or(a, c);
                (m, g.and(p, q))
            }
            3 => {
                let p = g.and(a, b);
                let q = g.and(c, !a);
                (g.and(p, q), Lit::FALSE)
            }
            _ => (g.and(a, b), g.or(b, c)),
        };
        pool.push(x);
        pool.push(y);
    }
    for l in &latches {
        let n = pool[next(pool.len() as u32) as usize];
        g.set_next(*l, n);
    }
    for o in 0..1 + next(4) {
        let lit = pool[pool.len() - 1 - next(pool.len().min(6) as u32) as usize];
        g.outputs.push(Named {
            lit: lit.xor(next(2) == 1),
            name: format!("o{o}"),
        });
    }
    if next(2) == 0 {
        let lit = pool[next(pool.len() as u32) as usize];
        g.bad.push(Named {
            lit,
            name: "b".into(),
        });
    }
    if next(3) == 0 {
        let lit = pool[next(pool.len() as u32) as usize];
        g.constraints.push(Named {
            lit,
            name: "c".into(),
        });
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Sweeping and the whole script keep every root on circuits with hidden equivalences.
    #[test]
    fn sweeping_keeps_every_root(tape in proptest::collection::vec(any::<u32>(), 0..300)) {
        let g = redundant_aig(&tape);
        let (s, _) = sweep(&g, &SweepOptions::default());
        check(&g, &s);
        let o = optimize(&g, Duration::from_secs(5));
        check(&g, &o);
        prop_assert!(o.num_ands() <= opt::cleanup(&g).num_ands());
    }
}

/// Two constructions of one function and a constant that structural hashing cannot see are
/// merged.
#[test]
fn sweeping_merges_what_hashing_misses() {
    let mut g = Aig::new();
    let x: Vec<Lit> = (0..3).map(|i| g.add_input(format!("x{i}"))).collect();
    // (x0 ⊕ x1) as a sum of products and as a product of sums.
    let p = g.and(x[0], !x[1]);
    let q = g.and(!x[0], x[1]);
    let sop = g.or(p, q);
    let s1 = g.or(x[0], x[1]);
    let s2 = g.or(!x[0], !x[1]);
    let pos = g.and(s1, s2);
    // x0 ∧ x2 ∧ ¬x0 through two gates: constant false.
    let a = g.and(x[0], x[2]);
    let zero = g.and(a, q);
    let zero = g.and(zero, x[0]);
    for (k, lit) in [sop, pos, zero, g.and(sop, x[2]), g.and(pos, x[2])]
        .into_iter()
        .enumerate()
    {
        g.outputs.push(Named {
            lit,
            name: format!("o{k}"),
        });
    }
    let (s, stats) = sweep(&g, &SweepOptions::default());
    check(&g, &s);
    assert!(stats.merged >= 2, "{stats:?}");
    assert_eq!(
        s.outputs[0].lit, s.outputs[1].lit,
        "the two XORs are one node"
    );
    assert_eq!(
        s.outputs[2].lit,
        Lit::FALSE,
        "the contradiction is constant"
    );
    assert_eq!(s.outputs[3].lit, s.outputs[4].lit);
}

/// An 8-bit multiplier against the same multiplier with its operands swapped: equivalent,
/// but far too hard for one conflict per query, and nothing at all with no time.
#[test]
fn the_conflict_limit_and_the_budget_stop_the_search() {
    let mut g = Aig::new();
    let a: Vec<Lit> = (0..8).map(|i| g.add_input(format!("a{i}"))).collect();
    let b: Vec<Lit> = (0..8).map(|i| g.add_input(format!("b{i}"))).collect();
    let mul = |g: &mut Aig, x: &[Lit], y: &[Lit]| -> Vec<Lit> {
        let mut acc = vec![Lit::FALSE; 8];
        for (i, yi) in y.iter().enumerate() {
            let mut carry = Lit::FALSE;
            for j in i..8 {
                let p = g.and(x[j - i], *yi);
                let t = g.xor(acc[j], p);
                let s = g.xor(t, carry);
                let c1 = g.and(acc[j], p);
                let c2 = g.and(t, carry);
                carry = g.or(c1, c2);
                acc[j] = s;
            }
        }
        acc
    };
    let m1 = mul(&mut g, &a, &b);
    let m2 = mul(&mut g, &b, &a);
    for (k, (p, q)) in m1.iter().zip(&m2).enumerate() {
        g.outputs.push(Named {
            lit: *p,
            name: format!("p{k}"),
        });
        g.outputs.push(Named {
            lit: *q,
            name: format!("q{k}"),
        });
    }
    let hard = SweepOptions {
        conflicts: 1,
        ..SweepOptions::default()
    };
    let (s, stats) = sweep(&g, &hard);
    check(&g, &s);
    assert!(stats.undecided > 0, "{stats:?}");
    let top = |s: &Aig| (s.outputs[14].lit, s.outputs[15].lit);
    assert_ne!(top(&s).0, top(&s).1, "the top bits stay apart");

    let none = SweepOptions {
        budget: Duration::ZERO,
        ..SweepOptions::default()
    };
    let (s, stats) = sweep(&g, &none);
    check(&g, &s);
    assert!(stats.out_of_time && stats.merged == 0, "{stats:?}");
}

/// The bundled models as `hypermut aiger` blasts them (choices become inputs, free initial
/// values stay free).
fn bundled_models() -> Vec<(PathBuf, Aig)> {
    let root = hypermut_testkit::repo::root();
    let mut out = Vec::new();
    for (dir, ext) in [("models/smv", "smv"), ("models/verilog", "v")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("models folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        for f in files {
            let mut sys = if ext == "smv" {
                hypermut_smv::load_smv(&f).expect("model loads")
            } else {
                let opts = hypermut_verilog::VerilogOptions::default();
                hypermut_verilog::load_verilog(std::slice::from_ref(&f), &opts)
                    .expect("model loads")
                    .system
            };
            let keep: Vec<hypermut_ir::VarId> = (0..sys.vars.len() as u32)
                .map(hypermut_ir::VarId)
                .filter(|v| {
                    sys.var(*v).role != hypermut_ir::Role::Input && sys.var(*v).init.is_none()
                })
                .collect();
            hypermut_mutate::make_controllable(&mut sys, &keep).expect("nd transformation");
            let aig = blast(&sys, &BlastOptions::default()).expect("blasts").aig;
            out.push((f, aig));
        }
    }
    assert!(out.len() >= 8, "the bundled models were found");
    out
}

/// On every bundled model, the structural passes, sweeping and the whole script keep every
/// root, and the script removes gates.
#[test]
fn bundled_models_stay_equivalent() {
    for (path, g) in bundled_models() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let structural = opt::optimize(&g, &OptOptions::default());
        let (swept, _) = sweep(&g, &SweepOptions::default());
        let all = optimize(&g, Duration::from_secs(10));
        for (what, h) in [
            ("structural", &structural),
            ("sweep", &swept),
            ("optimize", &all),
        ] {
            assert_same_interface(&g, h);
            assert!(sat_equivalent(&g, h), "{name}: {what} changed a root");
            assert_cosimulate(&g, h, 32, 12);
        }
        assert!(
            all.num_ands() < g.num_ands(),
            "{name}: {} → {} gates",
            g.num_ands(),
            all.num_ands()
        );
        eprintln!("{name}: {} → {} gates", g.num_ands(), all.num_ands());
    }
}

/// The miter of the tests sees a real difference (so that its "equivalent" means something).
#[test]
fn the_miter_finds_a_changed_root() {
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
    assert!(sat_equivalent(&g, &g.clone()));
    assert!(!sat_equivalent(&g, &h));
}
