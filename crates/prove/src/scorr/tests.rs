use super::*;
use crate::certificate::{check_certificate, CertError};
use crate::testutil::{random_aig, shortest_depth, Rng, Shape};
use hypermut_aig::{Named, Node, Reset};

/// Two copies of `g` over shared inputs (the second with the first operand of AND gate
/// `mutate` negated, if given), bad = the copies' bad literals differ, and both copies'
/// constraints: the shape of a mutant's product.
fn twins(g: &Aig, mutate: Option<u32>) -> Aig {
    let mut p = Aig::new();
    let inputs: Vec<Lit> = g.inputs.iter().map(|i| p.add_input(&i.name)).collect();
    let mut copies = Vec::new();
    for copy in 0..2 {
        let mut map = vec![Lit::FALSE; g.nodes().len()];
        let latches: Vec<Lit> = g
            .latches
            .iter()
            .map(|l| p.add_latch(format!("{}_{copy}", l.name), l.reset))
            .collect();
        let get = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
        for (v, node) in g.nodes().iter().enumerate() {
            map[v] = match *node {
                Node::Const => Lit::FALSE,
                Node::Input(i) => inputs[i as usize],
                Node::Latch(i) => latches[i as usize],
                Node::And(a, b) => {
                    let a = get(&map, a).xor(copy == 1 && mutate == Some(v as u32));
                    let b = get(&map, b);
                    p.and(a, b)
                }
            };
        }
        for (l, new) in g.latches.iter().zip(&latches) {
            let next = get(&map, l.next);
            p.set_next(*new, next);
        }
        for c in &g.constraints {
            let lit = get(&map, c.lit);
            p.constraints.push(Named {
                lit,
                name: String::new(),
            });
        }
        copies.push(get(&map, g.bad[0].lit));
    }
    let bad = p.xor(copies[0], copies[1]);
    p.bad.push(Named {
        lit: bad,
        name: "differ".into(),
    });
    p
}

/// The twins of a random circuit, the second copy mutated at a random AND gate half of the
/// time (which one, if any, is returned).
fn random_twins(rng: &mut Rng) -> (Aig, Option<u32>) {
    let g = random_aig(rng, &shape());
    let ands: Vec<u32> = (0..g.nodes().len() as u32)
        .filter(|v| matches!(g.nodes()[*v as usize], Node::And(..)))
        .collect();
    let mutate =
        (!ands.is_empty() && rng.coin()).then(|| ands[rng.below(ands.len() as u64) as usize]);
    (twins(&g, mutate), mutate)
}

fn shape() -> Shape {
    Shape {
        inputs: 2,
        latches: 4,
        ands: 14,
        free_latches: false,
        max_constraints: 1,
        counter_bits: 0,
        bad_latches: 0,
    }
}

/// Whether correspondence's `verdict` on twins `p` (mutated at `mutate`, if given) is a
/// proof, checked: no reachable bad state by explicit enumeration, the certificate passes
/// the separate checker and, for equalities, is valid by enumeration. Identical twins must
/// be proved, and correspondence never finds counterexamples.
fn proof_checked(p: &Aig, mutate: Option<u32>, verdict: Verdict) -> bool {
    match verdict {
        Verdict::Safe(cert) => {
            assert_eq!(shortest_depth(p, 12), None, "a proof of a reachable bad");
            check_certificate(p, &cert).expect("the certificate checks");
            if let Certificate::Equalities { pairs } = &cert {
                assert!(equalities_valid_explicitly(p, pairs), "{pairs:?}");
            }
            true
        }
        Verdict::Unknown(_) => {
            assert!(mutate.is_some(), "identical twins not proved");
            false
        }
        Verdict::Unsafe(_) => panic!("signal correspondence never finds counterexamples"),
    }
}

/// Every `Safe` answer is right (no reachable bad state by explicit enumeration, and the
/// certificate passes the separate checker); identical twins are always proved.
#[test]
fn proofs_agree_with_explicit_reachability() {
    let (proved_mutants, open) = proofs_on_random_twins(11, 150, |p| Scorr::default().check(p));
    assert!(
        proved_mutants > 5 && open > 5,
        "{proved_mutants} mutants proved, {open} open"
    );
}

/// Runs `prove` on `n` random twins (from `seed`), every verdict checked by
/// [`proof_checked`]: how many mutated twins it proved and how many twins it left open.
fn proofs_on_random_twins(seed: u64, n: usize, prove: impl Fn(&Aig) -> Verdict) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut proved_mutants, mut open) = (0, 0);
    for _ in 0..n {
        let (p, mutate) = random_twins(&mut rng);
        if proof_checked(&p, mutate, prove(&p)) {
            proved_mutants += usize::from(mutate.is_some());
        } else {
            open += 1;
        }
    }
    (proved_mutants, open)
}

/// Stopping once the candidates cannot prove safety loses no proof: on random twins the
/// early-stopping run proves exactly what the full run proves (and keeps the same
/// correspondence then); where it stops early the full run proves nothing, and it stops
/// early on some reachable-bad twins (checked by explicit enumeration).
#[test]
fn stopping_when_unprovable_loses_no_proof() {
    let mut rng = Rng::new(23);
    let early = Scorr {
        stop_when_unprovable: true,
        ..Scorr::default()
    };
    let (mut stopped_on_kills, mut proved) = (0, 0);
    for _ in 0..200 {
        let (p, _) = random_twins(&mut rng);
        let (full, full_kept) =
            Scorr::default().check_confirming(&p, &Limits::none(), &Limits::none());
        let (quick, kept) = early.check_confirming(&p, &Limits::none(), &Limits::none());
        assert_eq!(
            matches!(full, Verdict::Safe(_)),
            matches!(quick, Verdict::Safe(_)),
            "{full:?} / {quick:?}"
        );
        match kept {
            Kept::Unprovable => {
                assert!(matches!(full, Verdict::Unknown(_)));
                stopped_on_kills += usize::from(shortest_depth(&p, 12).is_some());
            }
            Kept::Found(c) => {
                assert_eq!(Kept::Found(c), full_kept);
                proved += usize::from(matches!(quick, Verdict::Safe(_)));
            }
            // Without a limit, only a constant-false bad leaves nothing.
            Kept::Nothing => assert!(matches!(quick, Verdict::Safe(Certificate::Trivial))),
        }
    }
    assert!(
        stopped_on_kills > 10 && proved > 10,
        "{stopped_on_kills} stopped on kills, {proved} proved"
    );
}

/// Latches with opposite reset values that complement each other are found.
#[test]
fn complementary_latches_with_opposite_resets_correspond() {
    let mut g = Aig::new();
    let i = g.add_input("i");
    let a = g.add_latch("a", Reset::Zero);
    let b = g.add_latch("b", Reset::One);
    let na = g.xor(a, i);
    let nb = g.xor(b, i);
    g.set_next(a, na);
    g.set_next(b, nb);
    // b stays !a: a xor b is constantly 1.
    let same = g.xnor(a, b);
    g.bad.push(Named {
        lit: same,
        name: "bad".into(),
    });
    let found = Scorr::default()
        .correspondence(&g, &Limits::none())
        .expect("runs");
    assert!(
        found.equalities.contains(&Equality { lit: b, target: !a }),
        "{:?}",
        found.equalities
    );
    assert!(matches!(Scorr::default().check(&g), Verdict::Safe(_)));
}

/// The separate checker accepts a right equality certificate and rejects each kind of wrong
/// one.
#[test]
fn equality_certificates_are_checked() {
    let mut g = Aig::new();
    let i = g.add_input("i");
    let x = g.add_latch("x", Reset::Zero);
    let y = g.add_latch("y", Reset::Zero);
    let z = g.add_latch("z", Reset::One);
    let w = g.add_latch("w", Reset::Zero);
    g.set_next(x, i);
    g.set_next(y, i);
    g.set_next(z, z);
    g.set_next(w, i);
    let bad = g.xor(x, y);
    let reads_input = g.and(x, i);
    g.bad.push(Named {
        lit: bad,
        name: "bad".into(),
    });
    let check = |pairs: Vec<(Lit, Lit)>| check_certificate(&g, &Certificate::Equalities { pairs });
    assert!(check(vec![(y, x)]).is_ok());
    assert!(matches!(
        check(vec![(y, x), (x, z)]),
        Err(CertError::EqualityInitiation(1))
    ));
    // `x ∧ i ≡ x` holds initially (x = 0) but not for every input once x is 1.
    assert!(matches!(
        check(vec![(y, x), (reads_input, x)]),
        Err(CertError::EqualityConsecution(1))
    ));
    assert!(matches!(
        check(vec![(z, Lit::TRUE)]),
        Err(CertError::Unsafe)
    ));
    assert!(matches!(
        check(vec![(y, x), (w, Lit::FALSE)]),
        Err(CertError::EqualityConsecution(1))
    ));
    // The witness circuit of the right one states the invariant in its bad property.
    let circuit = crate::certificate::witness_circuit(
        &g,
        &Certificate::Equalities {
            pairs: vec![(y, x), (z, Lit::TRUE)],
        },
    )
    .expect("a witness circuit");
    assert_eq!(circuit.bad.len(), 1);
    assert_ne!(circuit.bad[0].lit, g.bad[0].lit);
}

/// Whether `pairs` is a valid equality certificate of `g`, by enumerating every state and
/// input vector (written apart from the SAT checker): every pair holds in every initial state
/// under every input; from every state and input satisfying the pairs and the constraints,
/// every successor satisfies them under every input; and pairs with constraints exclude bad.
fn equalities_valid_explicitly(g: &Aig, pairs: &[(Lit, Lit)]) -> bool {
    use crate::testutil::{eval_frame, lit_val, next_state};
    let (nl, ni) = (g.latches.len(), g.inputs.len());
    let bits = |x: usize, n: usize| (0..n).map(|k| x >> k & 1 == 1).collect::<Vec<bool>>();
    let holds = |val: &[bool]| {
        pairs
            .iter()
            .all(|&(a, b)| lit_val(val, a) == lit_val(val, b))
    };
    let constrained = |val: &[bool]| g.constraints.iter().all(|c| lit_val(val, c.lit));
    for s in 0..1usize << nl {
        let state = bits(s, nl);
        let initial = g.latches.iter().zip(&state).all(|(l, &v)| match l.reset {
            Reset::Zero => !v,
            Reset::One => v,
            Reset::Free => true,
        });
        for i in 0..1usize << ni {
            let val = eval_frame(g, &state, &bits(i, ni));
            if initial && !holds(&val) {
                return false;
            }
            if !holds(&val) || !constrained(&val) {
                continue;
            }
            if lit_val(&val, g.bad[0].lit) {
                return false;
            }
            let next = next_state(g, &val);
            for j in 0..1usize << ni {
                if !holds(&eval_frame(g, &next, &bits(j, ni))) {
                    return false;
                }
            }
        }
    }
    true
}

/// Half of the time, one more pair at a random place in `pairs`: a positive literal drawn
/// by `pick` and a constant or another drawn literal (not the same signal).
fn add_random_pair(rng: &mut Rng, pairs: &mut Vec<(Lit, Lit)>, pick: impl Fn(&mut Rng) -> Lit) {
    if !rng.coin() {
        return;
    }
    let a = pick(rng).positive();
    let b = if rng.coin() {
        Lit::constant(rng.coin())
    } else {
        pick(rng)
    };
    if a != b.positive() {
        pairs.insert(rng.below(pairs.len() as u64 + 1) as usize, (a, b));
    }
}

/// Whether the equality certificate `pairs` of `p` is valid by enumeration, asserting that
/// the separate checker says the same.
fn checker_agrees(p: &Aig, pairs: Vec<(Lit, Lit)>) -> bool {
    let valid = equalities_valid_explicitly(p, &pairs);
    let verdict = check_certificate(
        p,
        &Certificate::Equalities {
            pairs: pairs.clone(),
        },
    );
    assert_eq!(
        verdict.is_ok(),
        valid,
        "checker and enumeration differ on {pairs:?}"
    );
    valid
}

/// The separate checker accepts exactly the valid equality certificates: the correspondence
/// scorr finds, with and without one random extra pair, on random twins.
#[test]
fn equality_checker_agrees_with_enumeration() {
    let mut rng = Rng::new(29);
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..200 {
        let (p, _) = random_twins(&mut rng);
        let Ok(found) = Scorr::default().correspondence(&p, &Limits::none()) else {
            continue;
        };
        let mut pairs = found.pairs();
        // Any signal (twins have latches, so there are variables besides the constant).
        add_random_pair(&mut rng, &mut pairs, |rng: &mut Rng| {
            let v = 1 + rng.below(u64::from(p.num_vars()) - 1) as u32;
            Lit::var_lit(v).xor(rng.coin())
        });
        if checker_agrees(&p, pairs) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(
        accepted > 20 && rejected > 20,
        "{accepted} valid, {rejected} invalid"
    );
}

/// The pairs of twin latches of a product built by [`twins`]: latch `k` of the first copy
/// and latch `k` of the second.
fn twin_latches(p: &Aig) -> Vec<(Lit, Lit)> {
    let n = p.latches.len() / 2;
    (0..n)
        .map(|k| (p.latches[k].lit, p.latches[n + k].lit))
        .collect()
}

/// Correspondence limited to twin latches: every `Safe` answer is right (no reachable bad
/// state by explicit enumeration, and the certificate, over latches only, is valid by
/// enumeration and passes the separate checker); identical twins are always proved, and so
/// are some mutated ones.
#[test]
fn twin_proofs_agree_with_explicit_reachability() {
    let quick = Scorr {
        stop_when_unprovable: true,
        ..Scorr::default()
    };
    let (proved_mutants, open) = proofs_on_random_twins(31, 200, |p| {
        quick.check_twins(p, &twin_latches(p), &Limits::none())
    });
    assert!(
        proved_mutants > 5 && open > 5,
        "{proved_mutants} mutants proved, {open} open"
    );
}

/// The separate checker's path for equalities over latches and constants only (one frame of
/// the merged transition function) accepts exactly the valid ones: the twin latches of
/// random twins, with and without one random extra latch pair, against enumeration.
#[test]
fn latch_equality_checker_agrees_with_enumeration() {
    let mut rng = Rng::new(37);
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..300 {
        let (p, _) = random_twins(&mut rng);
        let mut pairs = twin_latches(&p);
        add_random_pair(&mut rng, &mut pairs, |rng: &mut Rng| {
            p.latches[rng.below(p.latches.len() as u64) as usize]
                .lit
                .xor(rng.coin())
        });
        if checker_agrees(&p, pairs) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(
        accepted > 30 && rejected > 30,
        "{accepted} valid, {rejected} invalid"
    );
}
