//! Cross-engine tests on hand-made circuits and random AIGs: IC3, k-induction and the
//! portfolio against explicit-state search and ABC, certificates against an explicit-state
//! check and against ABC on the Certifaiger miters. The shared-corpus test is in
//! [`corpus`].

mod corpus;

use std::time::{Duration, Instant};

use hypermut_aig::{check_witness, write_aiger, Aig, AigerFormat, Lit, Named, Reset};

use crate::cert_circuits::certificate_miters;
use hypermut_testkit::{abc, have};

use crate::testutil::{
    assert_invariant_explicit, equals, random_aig, shortest_depth, without_free_latches,
    write_binary_aiger, Rng, Shape,
};
use crate::{
    check_certificate, witness_circuit, CertError, Certificate, Engine, Ic3, Kind, Portfolio,
    Verdict,
};

fn named(lit: Lit) -> Named {
    Named {
        lit,
        name: String::new(),
    }
}

/// The engines under test, each with a generous time limit.
fn engines() -> Vec<(&'static str, Box<dyn Engine>)> {
    let t = Some(Duration::from_secs(60));
    vec![
        ("ic3", Box::new(Ic3::new(t))),
        (
            "kind",
            Box::new(Kind {
                time_limit: t,
                ..Kind::default()
            }),
        ),
        ("portfolio", Box::new(Portfolio::with_jobs(3, t))),
    ]
}

/// Checks a verdict on `aig`: a witness must replay, a certificate must pass the checker
/// (and, for small circuits, the explicit-state check). Returns the depth when unsafe and
/// `None` when safe; panics on `Unknown`.
fn checked(aig: &Aig, v: &Verdict, what: &str) -> Option<usize> {
    match v {
        Verdict::Unsafe(w) => {
            let first = check_witness(aig, w).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(w.properties, vec!["b0".to_string()]);
            Some(first)
        }
        Verdict::Safe(c) => {
            check_certificate(aig, c).unwrap_or_else(|e| panic!("{what}: {e}"));
            if let Certificate::Invariant { clauses } = c {
                if aig.latches.len() <= 12 && aig.inputs.len() <= 8 {
                    assert_invariant_explicit(aig, clauses);
                }
            }
            None
        }
        Verdict::Unknown(r) => panic!("{what}: unknown ({r})"),
    }
}

/// An n-bit counter that increments when `enable` holds (always, if `None`).
fn counter(g: &mut Aig, bits: usize, enable: Option<Lit>, reset: Reset) -> Vec<Lit> {
    let q: Vec<Lit> = (0..bits)
        .map(|i| g.add_latch(format!("q{i}"), reset))
        .collect();
    let mut carry = enable.unwrap_or(Lit::TRUE);
    for &b in &q {
        let n = g.xor(b, carry);
        carry = g.and(b, carry);
        g.set_next(b, n);
    }
    q
}

/// The 10-bit counter whose bad state (all ones) is first reached at depth 1023: IC3 must
/// find the deep counterexample (ABC pdr times out here, `docs/formats.md` §12.3).
#[test]
fn ic3_finds_the_counter_at_depth_1023() {
    let mut g = Aig::new();
    let q = counter(&mut g, 10, None, Reset::Zero);
    let bad = g.and_all(q.iter().copied());
    g.bad.push(named(bad));
    let start = Instant::now();
    let v = Ic3::new(Some(Duration::from_secs(120))).check(&g);
    eprintln!("IC3 on the 10-bit counter: {:?}", start.elapsed());
    let Verdict::Unsafe(w) = &v else {
        panic!("expected unsafe, got {v:?}");
    };
    assert_eq!(w.depth(), 1023);
    assert_eq!(checked(&g, &v, "counter"), Some(1023));
}

/// A mod-10 counter (4 bits, wraps 9 → 0) never shows 15. `¬bad` is not inductive (14 → 15),
/// so the invariant has to exclude 10..=14 as well.
#[test]
fn safe_counter_needs_a_strengthened_invariant() {
    let mut g = Aig::new();
    let q: Vec<Lit> = (0..4)
        .map(|i| g.add_latch(format!("q{i}"), Reset::Zero))
        .collect();
    let nine = equals(&mut g, &q, 9);
    let mut carry = Lit::TRUE;
    for &b in &q {
        let inc = g.xor(b, carry);
        carry = g.and(b, carry);
        let n = g.and(inc, !nine);
        g.set_next(b, n);
    }
    let bad = equals(&mut g, &q, 15);
    g.bad.push(named(bad));
    for (name, mut e) in engines() {
        let v = e.check(&g);
        assert_eq!(checked(&g, &v, name), None, "{name}");
        if let (Verdict::Safe(Certificate::Invariant { clauses }), "ic3") = (&v, name) {
            assert!(clauses.len() >= 2, "{clauses:?}");
            assert!(!clauses.contains(&q.iter().map(|&l| !l).collect()));
        }
    }
}

/// A 3-bit binary counter and an 8-bit one-hot ring step together; bad when the ring's
/// token is at position k while the counter is not k. The invariant must relate the two
/// encodings (many clauses), and k-induction needs long paths.
#[test]
fn two_encodings_of_one_counter_stay_consistent() {
    let mut g = Aig::new();
    let q = counter(&mut g, 3, None, Reset::Zero);
    let ring: Vec<Lit> = (0..8)
        .map(|k| {
            let r = if k == 0 { Reset::One } else { Reset::Zero };
            g.add_latch(format!("r{k}"), r)
        })
        .collect();
    for k in 0..8 {
        g.set_next(ring[(k + 1) % 8], ring[k]);
    }
    let mismatches: Vec<Lit> = (0..8)
        .map(|k| {
            let e = equals(&mut g, &q, k as u64);
            g.and(ring[k], !e)
        })
        .collect();
    let bad = g.or_all(mismatches);
    g.bad.push(named(bad));
    for (name, mut e) in engines() {
        let v = e.check(&g);
        assert_eq!(checked(&g, &v, name), None, "{name}");
    }
}

#[test]
fn bad_needing_a_constraint_violation_is_safe() {
    // bad = l, l' = x, constraint ¬x: x would have to be 1 in an earlier frame.
    let mut g = Aig::new();
    let x = g.add_input("x");
    let l = g.add_latch("l", Reset::Zero);
    g.set_next(l, x);
    g.bad.push(named(l));
    g.constraints.push(named(!x));
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
    g.constraints.clear();
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), Some(1), "{name}");
    }
}

#[test]
fn constraints_hold_in_the_bad_frame_itself() {
    // bad = x at any time, but the constraint forbids x: safe.
    let mut g = Aig::new();
    let x = g.add_input("x");
    let l = g.add_latch("l", Reset::Zero);
    g.set_next(l, !l);
    let bad = g.and(x, l);
    g.bad.push(named(bad));
    g.constraints.push(named(!x));
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
}

/// A counter with enable; the constraint forbids the counter to show 2, so 3 (bad) is
/// unreachable; the invariant relies on the constraint of the current frame.
#[test]
fn state_constraints_cut_paths() {
    let mut g = Aig::new();
    let en = g.add_input("en");
    let q = counter(&mut g, 2, Some(en), Reset::Zero);
    let two = equals(&mut g, &q, 2);
    let three = equals(&mut g, &q, 3);
    g.bad.push(named(three));
    g.constraints.push(named(!two));
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
    // Forcing the enable instead: bad at depth 3, every witness input is 1.
    g.constraints = vec![named(en)];
    for (name, mut e) in engines() {
        let v = e.check(&g);
        assert_eq!(checked(&g, &v, name), Some(3), "{name}");
        if let Verdict::Unsafe(w) = v {
            assert!(w.inputs.iter().all(|f| f == &vec![Some(true)]), "{name}");
        }
    }
}

#[test]
fn uninitialised_latches_are_exact() {
    // A free latch that keeps its value: bad at depth 0 with init 1.
    let mut g = Aig::new();
    let f = g.add_latch("f", Reset::Free);
    g.bad.push(named(f));
    for (name, mut e) in engines() {
        let v = e.check(&g);
        assert_eq!(checked(&g, &v, name), Some(0), "{name}");
        if let Verdict::Unsafe(w) = v {
            assert_eq!(w.init, vec![Some(true)]);
        }
    }
    // A free latch enables a counter: bad (3) at depth 3 only if it starts at 1.
    let mut g = Aig::new();
    let f = g.add_latch("f", Reset::Free);
    let q = counter(&mut g, 2, Some(f), Reset::Zero);
    let three = equals(&mut g, &q, 3);
    g.bad.push(named(three));
    for (name, mut e) in engines() {
        let v = e.check(&g);
        assert_eq!(checked(&g, &v, name), Some(3), "{name}");
        if let Verdict::Unsafe(w) = v {
            assert_eq!(w.init[0], Some(true), "{name}");
        }
    }
    // d copies a free latch a (a' = a) one step late; once started, d = a. Safe; the
    // invariant must say started ⇒ d = a, which holds initially only through `started`.
    let mut g = Aig::new();
    let a = g.add_latch("a", Reset::Free);
    let d = g.add_latch("d", Reset::Zero);
    let started = g.add_latch("started", Reset::Zero);
    g.set_next(d, a);
    g.set_next(started, Lit::TRUE);
    let differ = g.xor(a, d);
    let bad = g.and(started, differ);
    g.bad.push(named(bad));
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
    // A free latch d instead: now d ≠ a is possible... but only in frame 0, before started.
    g.latches[1].reset = Reset::Free;
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
    // Free `started`: bad at depth 0.
    g.latches[2].reset = Reset::Free;
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), Some(0), "{name}");
    }
}

/// ASCII files whose AND gates are not in topological order (the reader sorts them): an
/// inline toggle flip-flop with enable and reset, and the corpus files `toggle-re.aag` and
/// `halfadder.aag`. Every output, taken as the bad property, is checked by every engine
/// against explicit-state search.
#[test]
fn ascii_files_with_unordered_ands() {
    // Like toggle-re.aag: latch Q (var 3) toggles when enabled, reset clears it; gate 4 is
    // defined before its operand gates 5, 6 and 7.
    let inline = b"aag 7 2 1 2 4\n2\n4\n6 8\n6\n7\n8 4 10\n10 13 15\n12 2 6\n14 3 7\n";
    let mut files: Vec<(String, Vec<u8>)> = vec![("inline toggle".into(), inline.to_vec())];
    if let Some(dir) = hypermut_testkit::corpus::dir("aiger/aiger-examples") {
        for name in ["toggle-re.aag", "halfadder.aag"] {
            match std::fs::read(dir.join(name)) {
                Ok(b) => files.push((name.into(), b)),
                Err(e) => eprintln!("SKIPPED: {name} not found in {} ({e})", dir.display()),
            }
        }
    }
    for (name, bytes) in files {
        let aig = hypermut_aig::read_aiger(&bytes, &name).expect("readable");
        assert!(aig.bad.is_empty() && aig.outputs.len() == 2, "{name}");
        for (p, out) in aig.outputs.iter().enumerate() {
            let mut g = aig.clone();
            g.bad = vec![out.clone()];
            let want = shortest_depth(&g, 8);
            assert!(want.is_some(), "{name} output {p} is reachable");
            for (e_name, mut e) in engines() {
                let what = format!("{name} output {p} {e_name}");
                let got = checked(&g, &e.check(&g), &what);
                assert_eq!(got, want, "{what}");
            }
        }
    }
}

#[test]
fn trivial_and_degenerate_problems() {
    let mut g = Aig::new();
    let x = g.add_input("x");
    for (name, mut e) in engines() {
        assert!(matches!(e.check(&g), Verdict::Unknown(_)), "{name}");
    }
    g.bad.push(named(Lit::FALSE));
    for (_, mut e) in engines() {
        assert_eq!(e.check(&g), Verdict::Safe(Certificate::Trivial));
    }
    // Combinational bad: depth 0.
    g.bad[0].lit = x;
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), Some(0), "{name}");
    }
    // Unsatisfiable constraints: safe.
    g.constraints.push(named(Lit::FALSE));
    for (name, mut e) in engines() {
        assert_eq!(checked(&g, &e.check(&g), name), None, "{name}");
    }
}

#[test]
fn zero_time_limit_gives_unknown() {
    let mut g = Aig::new();
    let q = counter(&mut g, 6, None, Reset::Zero);
    let bad = g.and_all(q.iter().copied());
    g.bad.push(named(bad));
    let z = Some(Duration::ZERO);
    let mut all: Vec<Box<dyn Engine>> = vec![
        Box::new(Ic3::new(z)),
        Box::new(Kind {
            time_limit: z,
            ..Kind::default()
        }),
        Box::new(Portfolio::with_jobs(4, z)),
    ];
    for e in &mut all {
        match e.check(&g) {
            Verdict::Unknown(m) => assert!(m.contains("time limit"), "{m}"),
            v => panic!("unexpected {v:?}"),
        }
    }
}

/// The portfolio returns an IC3 proof although BMC (its third engine) alone would never
/// stop: the other threads are cancelled.
#[test]
fn portfolio_cancels_the_losers() {
    let mut g = Aig::new();
    let x = g.add_input("x");
    let q = counter(&mut g, 12, Some(x), Reset::Zero);
    let top = g.and_all(q.iter().copied());
    let l = g.add_latch("l", Reset::Zero);
    g.set_next(l, l);
    let bad = g.and(top, l);
    g.bad.push(named(bad));
    let start = Instant::now();
    let v = Portfolio::with_jobs(3, None).check(&g);
    assert_eq!(checked(&g, &v, "portfolio"), None);
    assert!(start.elapsed() < Duration::from_secs(30));
}

/// The certificate checker rejects broken certificates.
#[test]
fn broken_certificates_are_rejected() {
    let mut g = Aig::new();
    let q: Vec<Lit> = (0..2)
        .map(|i| g.add_latch(format!("q{i}"), Reset::Zero))
        .collect();
    // q0' = ¬q0 ∧ ¬q1, q1' = q0: 00 → 01 → 10 → 00; 11 is unreachable (bad).
    let n0 = g.and(!q[0], !q[1]);
    g.set_next(q[0], n0);
    g.set_next(q[1], q[0]);
    let bad = g.and(q[0], q[1]);
    g.bad.push(named(bad));
    let good = vec![vec![!q[0], !q[1]]];
    assert!(check_certificate(&g, &Certificate::Invariant { clauses: good }).is_ok());
    type Case = (Vec<Vec<Lit>>, fn(&CertError) -> bool);
    let cases: Vec<Case> = vec![
        (vec![], |e| matches!(e, CertError::Unsafe)),
        (vec![vec![q[0]]], |e| matches!(e, CertError::Initiation(0))),
        (vec![vec![!q[0]]], |e| {
            matches!(e, CertError::Consecution(0))
        }),
        (vec![vec![Lit::TRUE]], |e| {
            matches!(e, CertError::NotLatchLiteral { clause: 0, .. })
        }),
    ];
    for (clauses, ok) in cases {
        let e = check_certificate(&g, &Certificate::Invariant { clauses }).unwrap_err();
        assert!(ok(&e), "{e}");
    }
    assert!(matches!(
        check_certificate(&g, &Certificate::Trivial),
        Err(CertError::NotTrivial)
    ));
    // 0-induction fails (the bad state 11 exists), 1-induction holds (11 has no
    // predecessor).
    let k = |k| Certificate::KInduction {
        k,
        lemmas: Vec::new(),
    };
    assert!(matches!(
        check_certificate(&g, &k(0)),
        Err(CertError::Step(0))
    ));
    assert!(check_certificate(&g, &k(1)).is_ok());
    // 00 → 11: unsafe at depth 1, so no k-induction proof is valid.
    g.set_next(q[1], Lit::TRUE);
    g.set_next(q[0], Lit::TRUE);
    for kk in 0..4 {
        assert!(check_certificate(&g, &k(kk)).is_err(), "k = {kk}");
    }
    assert!(matches!(
        check_certificate(&g, &k(3)),
        Err(CertError::Base(1))
    ));
}

/// Random AIGs: IC3, k-induction and the portfolio agree with explicit-state search; every
/// witness replays and every invariant passes the explicit-state check.
#[test]
fn random_aigs_match_explicit_state_search() {
    let shapes = [
        Shape {
            inputs: 3,
            latches: 5,
            ands: 25,
            free_latches: true,
            max_constraints: 1,
            counter_bits: 0,
            bad_latches: 2,
        },
        Shape {
            inputs: 2,
            latches: 6,
            ands: 20,
            free_latches: true,
            max_constraints: 2,
            counter_bits: 4,
            bad_latches: 0,
        },
    ];
    let (mut safe, mut unsafe_) = (0, 0);
    for shape in &shapes {
        for seed in 1..=120u64 {
            let g = random_aig(&mut Rng::new(seed), shape);
            // 6 latches: a shortest counterexample visits distinct states, so depth < 64.
            let want = shortest_depth(&g, 64);
            for (name, mut e) in engines() {
                let got = checked(&g, &e.check(&g), &format!("{name} seed {seed}"));
                assert_eq!(got.is_some(), want.is_some(), "{name} seed {seed}");
                if let (Some(d), Some(w)) = (got, want) {
                    assert!(d >= w, "{name} seed {seed}: depth {d} < shortest {w}");
                }
            }
            match want {
                Some(_) => unsafe_ += 1,
                None => safe += 1,
            }
        }
    }
    assert!(safe >= 30 && unsafe_ >= 30, "safe {safe}, unsafe {unsafe_}");
}

/// Random AIGs against ABC `pdr` (free latches made explicit, constraints folded by ABC).
#[test]
fn random_aigs_match_abc_pdr() {
    if !have(abc::ABC) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let shape = Shape {
        inputs: 4,
        latches: 10,
        ands: 60,
        free_latches: true,
        max_constraints: 1,
        counter_bits: 3,
        bad_latches: 2,
    };
    let (mut safe, mut unsafe_) = (0, 0);
    for seed in 500..560u64 {
        let g = random_aig(&mut Rng::new(seed), &shape);
        let h = without_free_latches(&g);
        let path = dir.path().join(format!("r{seed}.aig"));
        std::fs::write(&path, write_binary_aiger(&h)).expect("write AIGER");
        let abc_safe = match abc::pdr(&path, 20) {
            abc::Pdr::Proved => true,
            abc::Pdr::Falsified => false,
            abc::Pdr::Combinational | abc::Pdr::Undecided => continue,
        };
        let ours = checked(&g, &Ic3::new(None).check(&g), &format!("seed {seed}"));
        assert_eq!(ours.is_none(), abc_safe, "seed {seed}");
        match ours {
            None => safe += 1,
            Some(_) => unsafe_ += 1,
        }
    }
    assert!(safe >= 5 && unsafe_ >= 5, "safe {safe}, unsafe {unsafe_}");
}

/// Writes the four Certifaiger miters of `w` for `m` and asks ABC to refute each.
pub(crate) fn abc_confirms_witness_circuit(m: &Aig, w: &Aig, dir: &std::path::Path, what: &str) {
    for (check, miter) in certificate_miters(m, w).expect("checkable witness circuit") {
        let path = dir.join(format!("{what}-{check}.aig"));
        std::fs::write(&path, write_aiger(&miter, AigerFormat::Binary)).expect("write");
        assert!(
            !abc::sat(&path),
            "{what}: ABC finds the {check} check satisfiable"
        );
    }
}

/// Witness circuits of IC3 invariants (random safe AIGs and the hand-made ones above) pass
/// ABC's combinational checks after a round trip through the AIGER writer and reader, and a
/// broken one does not.
#[test]
fn abc_confirms_witness_circuits() {
    if !have(abc::ABC) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let shape = Shape {
        inputs: 3,
        latches: 8,
        ands: 40,
        free_latches: true,
        max_constraints: 2,
        counter_bits: 3,
        bad_latches: 1,
    };
    let (mut confirmed, mut broken) = (0, 0);
    for seed in 1..=40u64 {
        let g = random_aig(&mut Rng::new(seed), &shape);
        let Verdict::Safe(cert) = Ic3::new(None).check(&g) else {
            continue;
        };
        let w = witness_circuit(&g, &cert).expect("invariant certificate");
        let bytes = write_aiger(&w, AigerFormat::Binary);
        let back = hypermut_aig::read_aiger(&bytes, "w.aig").expect("readable");
        abc_confirms_witness_circuit(&g, &back, dir.path(), &format!("s{seed}"));
        confirmed += 1;
        // With an empty invariant the witness circuit is the model itself; when `¬bad` is
        // not inductive (even with simple paths), ABC must refute the step check.
        let one_step = Certificate::KInduction {
            k: 1,
            lemmas: Vec::new(),
        };
        if matches!(check_certificate(&g, &one_step), Err(CertError::Step(1))) {
            let empty = Certificate::Invariant {
                clauses: Vec::new(),
            };
            let w = witness_circuit(&g, &empty).expect("circuit");
            let fails = certificate_miters(&g, &w)
                .expect("checkable witness circuit")
                .into_iter()
                .any(|(c, m)| {
                    let p = dir.path().join(format!("broken{seed}-{c}.aig"));
                    std::fs::write(&p, write_aiger(&m, AigerFormat::Binary)).expect("write");
                    abc::sat(&p)
                });
            assert!(fails, "seed {seed}: an empty invariant passed");
            broken += 1;
        }
    }
    assert!(broken >= 3, "{broken}");
    assert!(confirmed >= 10, "{confirmed}");
}
