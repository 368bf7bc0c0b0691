//! BDD reachability against explicit-state search on small random circuits, on a deep
//! counter, and under limits it cannot meet.

use hypermut_aig::{check_witness, Aig, Lit, Named, Reset};

use super::order::LatchOrder;
use super::space::GaveUp;
use super::Reach;
use crate::certificate::{check_certificate, CertError, Certificate};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::testutil::{
    assert_invariant_explicit, eval_frame, is_initial, lit_val, next_state, random_aig,
    shortest_depth, Rng, Shape,
};
use crate::verdict::Verdict;

/// The shapes of the random circuits: plain, with uninitialised latches and constraints,
/// with a counter for deeper counterexamples, with more inputs than latches.
const SHAPES: [Shape; 3] = [
    Shape {
        inputs: 3,
        latches: 7,
        ands: 30,
        free_latches: true,
        max_constraints: 1,
        counter_bits: 3,
        bad_latches: 1,
    },
    Shape {
        inputs: 2,
        latches: 9,
        ands: 40,
        free_latches: false,
        max_constraints: 0,
        counter_bits: 5,
        bad_latches: 2,
    },
    Shape {
        inputs: 6,
        latches: 4,
        ands: 25,
        free_latches: true,
        max_constraints: 2,
        counter_bits: 0,
        bad_latches: 1,
    },
];

/// On every shape, with invariants as clauses and as circuits, the search answers, its
/// depth is the shortest one explicit search finds (breadth first, it finds a shortest
/// counterexample), its witnesses replay and its invariants pass both the certificate
/// checker and an explicit check.
#[test]
fn random_circuits_match_explicit_search() {
    let (mut safe, mut unsafe_) = (0, 0);
    for (s, shape) in SHAPES.iter().enumerate() {
        for seed in 1..=60u64 {
            let g = random_aig(&mut Rng::new(seed * 7 + s as u64), shape);
            let want = shortest_depth(&g, 600);
            let what = format!("shape {s}, seed {seed}");
            let mut reach = Reach {
                max_clauses: if seed % 2 == 0 { 0 } else { 100_000 },
                ..Reach::default()
            };
            match reach.check(&g) {
                Verdict::Unsafe(w) => {
                    let d = check_witness(&g, &w).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(Some(d), want, "{what}");
                    unsafe_ += 1;
                }
                Verdict::Safe(c) => {
                    assert_eq!(want, None, "{what}: safe, but explicit search reaches bad");
                    check_certificate(&g, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
                    match &c {
                        Certificate::Invariant { clauses } => {
                            assert_invariant_explicit(&g, clauses)
                        }
                        Certificate::Circuit { gates, holds } => {
                            assert_eq!(
                                circuit_invariant_valid(&g, gates, *holds),
                                Ok(true),
                                "{what}"
                            )
                        }
                        Certificate::Trivial => {}
                        c => panic!("{what}: unexpected certificate {c:?}"),
                    }
                    safe += 1;
                }
                Verdict::Unknown(r) => panic!("{what}: unknown ({r})"),
            }
        }
    }
    assert!(safe >= 20 && unsafe_ >= 20, "safe {safe}, unsafe {unsafe_}");
}

/// An n-bit counter from 0 that counts up while input `go` is high; bad is the counter at
/// `target`. When `twin` is set, a second counter runs alongside and bad also needs it to
/// differ from the first one, which never happens: safe, with the relation between the two
/// counters as the invariant.
fn counters(n: usize, target: u32, twin: bool) -> Aig {
    let mut g = Aig::new();
    let go = g.add_input("go");
    let mut bad = Lit::TRUE;
    let mut differ = Lit::FALSE;
    let copies = if twin { 2 } else { 1 };
    let mut all: Vec<Vec<Lit>> = Vec::new();
    for c in 0..copies {
        let bits: Vec<Lit> = (0..n)
            .map(|i| g.add_latch(format!("c{c}_{i}"), Reset::Zero))
            .collect();
        let mut carry = go;
        for b in &bits {
            let next = g.xor(*b, carry);
            carry = g.and(*b, carry);
            g.set_next(*b, next);
        }
        all.push(bits);
    }
    for (i, b) in all[0].iter().enumerate() {
        bad = g.and(bad, b.xor(target >> i & 1 == 0));
    }
    if twin {
        for (a, b) in all[0].iter().zip(&all[1]) {
            let d = g.xor(*a, *b);
            differ = g.or(differ, d);
        }
        bad = g.and(bad, differ);
    }
    g.bad.push(Named {
        lit: bad,
        name: "bad".into(),
    });
    g
}

/// A counter needs 300 steps to reach bad: the search finds exactly that depth; with a twin
/// counter that always equals it, the search proves safety after the whole range.
#[test]
fn deep_counter_and_twin_counters() {
    let g = counters(9, 300, false);
    match Reach::default().check(&g) {
        Verdict::Unsafe(w) => assert_eq!(check_witness(&g, &w).ok(), Some(300)),
        v => panic!("expected a counterexample at depth 300, got {v:?}"),
    }
    let g = counters(9, 300, true);
    match Reach::default().check(&g) {
        Verdict::Safe(c) => check_certificate(&g, &c).expect("the invariant checks"),
        v => panic!("expected safe, got {v:?}"),
    }
}

/// Too many variables, or a node limit too small for the transition relation: unknown, with
/// the reason.
#[test]
fn gives_up_beyond_its_limits() {
    let g = counters(9, 300, true);
    let few_variables = Reach {
        max_variables: 10,
        ..Reach::default()
    };
    let few_nodes = Reach {
        node_limit: 8,
        ..Reach::default()
    };
    for (mut e, why) in [(few_variables, "BDD variables"), (few_nodes, "nodes")] {
        match e.check(&g) {
            Verdict::Unknown(r) => assert!(r.contains(why), "{r}"),
            v => panic!("expected unknown, got {v:?}"),
        }
    }
}

/// Whether invariant circuit (`gates`, `holds`) of `aig` holds in every initial state, is
/// preserved by every transition under the constraints and excludes bad, by enumerating every
/// state and input; `Err` when a gate reads something other than the constant, a latch or an
/// earlier gate.
fn circuit_invariant_valid(aig: &Aig, gates: &[(Lit, Lit)], holds: Lit) -> Result<bool, String> {
    let (nl, ni) = (aig.latches.len(), aig.inputs.len());
    let base = aig.num_vars() as usize;
    let bits = |x: u32, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
    // The invariant's value in the state whose latch values are `state`.
    let inv = |state: &[bool]| -> Result<bool, String> {
        let mut gate_values: Vec<bool> = Vec::new();
        let value = |gate_values: &[bool], l: Lit| -> Result<bool, String> {
            let v = l.var() as usize;
            let x = if v == 0 {
                false
            } else if let Some(i) = aig.latches.iter().position(|x| x.lit.var() as usize == v) {
                state[i]
            } else {
                *v.checked_sub(base)
                    .and_then(|k| gate_values.get(k))
                    .ok_or(format!("literal {} is not a state signal", l.0))?
            };
            Ok(x ^ l.is_neg())
        };
        for &(a, b) in gates {
            let x = value(&gate_values, a)? && value(&gate_values, b)?;
            gate_values.push(x);
        }
        value(&gate_values, holds)
    };
    for s in 0..1u32 << nl {
        let state = bits(s, nl);
        let holds_here = inv(&state)?;
        if is_initial(aig, &state) && !holds_here {
            return Ok(false);
        }
        if !holds_here {
            continue;
        }
        for i in 0..1u32 << ni {
            let val = eval_frame(aig, &state, &bits(i, ni));
            if !aig.constraints.iter().all(|c| lit_val(&val, c.lit)) {
                continue;
            }
            if lit_val(&val, aig.bad[0].lit) || !inv(&next_state(aig, &val))? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The certificate checker accepts an invariant circuit exactly when explicit enumeration
/// says it is an inductive invariant that excludes bad: on BDD reachability's own circuits
/// and on copies with the invariant negated, one gate operand replaced by a latch, or one
/// gate reading an input (refused as malformed).
#[test]
fn circuit_checker_agrees_with_enumeration() {
    let (mut accepted, mut rejected) = (0, 0);
    for seed in 1..=80u64 {
        let mut rng = Rng::new(seed);
        let g = random_aig(&mut rng, &SHAPES[0]);
        let mut reach = Reach {
            max_clauses: 0,
            ..Reach::default()
        };
        let Verdict::Safe(Certificate::Circuit { gates, holds }) = reach.check(&g) else {
            continue;
        };
        let mut variants = vec![(gates.clone(), holds), (gates.clone(), !holds)];
        if !gates.is_empty() {
            let mut changed = gates.clone();
            let k = rng.below(gates.len() as u64) as usize;
            let latch = g.latches[rng.below(g.latches.len() as u64) as usize].lit;
            changed[k].0 = latch.xor(rng.coin());
            variants.push((changed, holds));
            let mut reads_input = gates.clone();
            reads_input[k].1 = g.inputs[0].lit;
            variants.push((reads_input, holds));
        }
        for (gates, holds) in variants {
            let cert = Certificate::Circuit {
                gates: gates.clone(),
                holds,
            };
            let got = check_certificate(&g, &cert);
            match circuit_invariant_valid(&g, &gates, holds) {
                Ok(true) => {
                    assert!(got.is_ok(), "seed {seed}: {got:?}");
                    accepted += 1;
                }
                Ok(false) => {
                    assert!(
                        got.is_err(),
                        "seed {seed}: an invalid invariant was accepted"
                    );
                    rejected += 1;
                }
                // A gate reading an input may still evaluate (the oracle reads inputs as
                // non-state signals): the checker must refuse it.
                Err(_) => assert!(
                    matches!(got, Err(CertError::NotStateSignal { .. })),
                    "seed {seed}: {got:?}"
                ),
            }
        }
    }
    assert!(
        accepted >= 10 && rejected >= 10,
        "accepted {accepted}, rejected {rejected}"
    );
}

/// Every latch order of the search, on its own, answers as explicit search does on random
/// circuits: same shortest depth, replayed witnesses, certificates that pass the checker.
#[test]
fn every_latch_order_matches_explicit_search() {
    for order in LatchOrder::ATTEMPTS {
        for (s, shape) in SHAPES.iter().enumerate() {
            for seed in 1..=20u64 {
                let g = random_aig(&mut Rng::new(seed * 13 + s as u64), shape);
                let want = shortest_depth(&g, 600);
                let what = format!("{order:?}, shape {s}, seed {seed}");
                let found = Reach::default()
                    .search_in(&g, order, &Limits::none(), &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{what}: gave up ({e})"));
                match found.unwrap_or_else(|| panic!("{what}: no order tried before")) {
                    Verdict::Unsafe(w) => {
                        let d = check_witness(&g, &w).unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_eq!(Some(d), want, "{what}");
                    }
                    Verdict::Safe(c) => {
                        assert_eq!(want, None, "{what}: safe, but explicit search reaches bad");
                        check_certificate(&g, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                    Verdict::Unknown(r) => panic!("{what}: unknown ({r})"),
                }
            }
        }
    }
}

/// A 16-word memory of 1-bit words, all 0 from reset and only ever cleared, with one
/// address register (set from inputs) for writes and for a registered read `r`; bad is `r`.
/// The memory words come before the address in the circuit's latch order.
fn register_file() -> Aig {
    let mut g = Aig::new();
    let we = g.add_input("we");
    let addr_in: Vec<Lit> = (0..4)
        .map(|i| g.add_input(format!("addr_in[{i}]")))
        .collect();
    let words: Vec<Lit> = (0..16)
        .map(|i| g.add_latch(format!("mem[{i}]"), Reset::Zero))
        .collect();
    let addr: Vec<Lit> = (0..4)
        .map(|i| g.add_latch(format!("addr[{i}]"), Reset::Zero))
        .collect();
    let r = g.add_latch("r", Reset::Zero);
    for (a, i) in addr.iter().zip(&addr_in) {
        g.set_next(*a, *i);
    }
    let mut read = Lit::FALSE;
    for (k, w) in words.iter().enumerate() {
        let selected = g.and_all(addr.iter().enumerate().map(|(b, a)| a.xor(k >> b & 1 == 0)));
        let written = g.and(we, selected);
        let next = g.and(*w, !written);
        g.set_next(*w, next);
        let hit = g.and(selected, *w);
        read = g.or(read, hit);
    }
    g.set_next(r, read);
    g.bad.push(Named {
        lit: r,
        name: "bad".into(),
    });
    g
}

/// The memory read `mem[addr]` outgrows a small node limit with the words' variables before
/// the address's, so the circuit's own order gives up; the search goes on in the order that
/// puts the address (read by every word's next state) first, and proves safety.
#[test]
fn a_register_file_is_decided_in_a_later_latch_order() {
    let g = register_file();
    let reach = Reach {
        node_limit: 3_000,
        ..Reach::default()
    };
    assert!(matches!(
        reach.search_in(&g, LatchOrder::Circuit, &Limits::none(), &mut Vec::new()),
        Err(GaveUp::Nodes(_))
    ));
    match reach.clone().check(&g) {
        Verdict::Safe(c) => check_certificate(&g, &c).expect("the invariant checks"),
        v => panic!("expected safe, got {v:?}"),
    }
}

/// An order that arranges the latches as one tried before is skipped: on a circuit with
/// one latch in the cone, the reversed order is the circuit's; on the register file, the
/// three orders differ and each is searched.
#[test]
fn an_order_already_tried_is_not_searched_again() {
    let mut g = Aig::new();
    let i = g.add_input("i");
    let l = g.add_latch("l", Reset::Zero);
    g.set_next(l, i);
    g.bad.push(Named {
        lit: l,
        name: "bad".into(),
    });
    let reach = Reach::default();
    let mut tried = Vec::new();
    let attempts: Vec<bool> = LatchOrder::ATTEMPTS
        .iter()
        .map(|&o| {
            let r = reach.search_in(&g, o, &Limits::none(), &mut tried);
            matches!(r, Ok(Some(Verdict::Unsafe(_))))
        })
        .collect();
    assert_eq!(attempts, [true, false, false]);
    assert_eq!(tried, vec![vec![0]]);
    let rf = register_file();
    let mut tried = Vec::new();
    for o in LatchOrder::ATTEMPTS {
        let r = reach.search_in(&rf, o, &Limits::none(), &mut tried);
        assert!(matches!(r, Ok(Some(_))), "{o:?}");
    }
    assert_eq!(tried.len(), 3);
}
