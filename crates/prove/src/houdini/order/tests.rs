use super::super::tests::explicit_houdini;
use super::*;
use crate::certificate::check_certificate;
use crate::engine::Engine;
use crate::houdini::Houdini;
use crate::limits::Limits;
use crate::testutil::{equals, shortest_depth};
use crate::verdict::Verdict;
use hypermut_aig::Reset;

/// Word helpers over literals, least significant bit first.
fn word(g: &mut Aig, name: &str, bits: usize) -> Vec<Lit> {
    (0..bits)
        .map(|i| g.add_latch(format!("{name}[{i}]"), Reset::Zero))
        .collect()
}

/// `g` with the bad property `bad`.
fn with_bad(mut g: Aig, bad: Lit) -> Aig {
    g.bad.push(hypermut_aig::Named {
        lit: bad,
        name: "b0".into(),
    });
    g
}

fn increment(g: &mut Aig, x: &[Lit]) -> Vec<Lit> {
    let mut carry = Lit::TRUE;
    x.iter()
        .map(|&b| {
            let s = g.xor(b, carry);
            carry = g.and(b, carry);
            s
        })
        .collect()
}

fn equal(g: &mut Aig, x: &[Lit], y: &[Lit]) -> Lit {
    let eq: Vec<Lit> = x.iter().zip(y).map(|(&a, &b)| g.xnor(a, b)).collect();
    g.and_all(eq)
}

fn greater(g: &mut Aig, x: &[Lit], y: &[Lit]) -> Lit {
    // From the least significant bit up: x > y on bits 0..=i.
    let mut gt = Lit::FALSE;
    for (&a, &b) in x.iter().zip(y) {
        let here = g.and(a, !b);
        let same = g.xnor(a, b);
        let kept = g.and(same, gt);
        gt = g.or(here, kept);
    }
    gt
}

/// A counting game: in state 0 the input `go` raises the limit `y` and starts a count
/// (`x := 0`, state 1); state 1 counts `x` up to `y` (`x != y`), then state 2 clears `y`
/// and goes back to 0 (where `x > y` then holds until the next start). Bad: `x > y` in
/// state 1, unreachable; `x ≤ y` holds in state 1 only, and no two-literal clause says so.
fn counting_game() -> Aig {
    let mut g = Aig::new();
    let go = g.add_input("go");
    let s = word(&mut g, "state", 2);
    let x = word(&mut g, "x", 3);
    let y = word(&mut g, "y", 3);
    let (s0, s1, s2) = (
        equals(&mut g, &s, 0),
        equals(&mut g, &s, 1),
        equals(&mut g, &s, 2),
    );
    let start = g.and(s0, go);
    let differ = {
        let e = equal(&mut g, &x, &y);
        !e
    };
    let counting = g.and(s1, differ);
    let done = g.and(s1, !differ);
    let x1 = increment(&mut g, &x);
    let y1 = increment(&mut g, &y);
    for i in 0..3 {
        // x: 0 on a start, +1 while counting, else kept.
        let kept = g.ite(counting, x1[i], x[i]);
        let nx = g.and(!start, kept);
        g.set_next(x[i], nx);
        // y: +1 on a start, 0 in state 2, else kept.
        let raised = g.ite(start, y1[i], y[i]);
        let ny = g.and(!s2, raised);
        g.set_next(y[i], ny);
    }
    // State 1 is `01`, state 2 is `10`: 0 -go-> 1 (stays while counting) -done-> 2 -> 0.
    let b0 = g.or(start, counting);
    g.set_next(s[0], b0);
    g.set_next(s[1], done);
    let bad = {
        let gt = greater(&mut g, &x, &y);
        g.and(s1, gt)
    };
    with_bad(g, bad)
}

/// The counting game needs the guarded orders.
#[test]
fn a_guarded_order_proves_what_pairs_of_latches_cannot() {
    let g = counting_game();
    proved_by_the_last_try_only(&g);
}

/// `g`'s bad state is unreachable (explicit search); the default candidates cannot prove
/// it, the last try's can, with a certificate the separate checker accepts; the subset
/// search keeps exactly the candidates explicit enumeration keeps.
fn proved_by_the_last_try_only(g: &Aig) {
    assert_eq!(shortest_depth(g, 40), None, "bad is unreachable");
    assert!(matches!(Houdini::default().check(g), Verdict::Unknown(_)));
    let h = Houdini::with_orders();
    match h.clone().check(g) {
        Verdict::Safe(cert) => check_certificate(g, &cert).expect("the certificate checks"),
        v => panic!("not proved: {v:?}"),
    }
    let cands = h.candidates(g).expect("mined");
    let got = h
        .inductive_subset(g, cands.clone(), &Limits::none())
        .expect("no limits");
    assert_eq!(got, explicit_houdini(g, &cands));
}

/// `x ≤ y` as clauses: a valuation satisfies all of them exactly when `x ≤ y`, on every
/// pair of 3-bit values; a guard literal that holds satisfies them all.
#[test]
fn the_clauses_of_an_order_are_the_order() {
    let mut g = Aig::new();
    let x = word(&mut g, "x", 3);
    let y = word(&mut g, "y", 3);
    let f = g.add_latch("f", Reset::Zero);
    let k = |lits: &[Lit]| -> Vec<usize> {
        lits.iter()
            .map(|l| g.latch_index(*l).expect("latch"))
            .collect()
    };
    let (wx, wy) = (
        Word {
            bits: k(&x),
            copy: String::new(),
        },
        Word {
            bits: k(&y),
            copy: String::new(),
        },
    );
    let plain = le_clauses(&g, &wx, &wy, &[]);
    let guarded = le_clauses(&g, &wx, &wy, &[f]);
    assert_eq!(plain.len(), 7);
    for a in 0..8usize {
        for b in 0..8usize {
            for flag in [false, true] {
                let mut state = vec![false; g.latches.len()];
                for i in 0..3 {
                    state[wx.bits[i]] = a >> i & 1 == 1;
                    state[wy.bits[i]] = b >> i & 1 == 1;
                }
                state[g.latch_index(f).expect("latch")] = flag;
                let holds = |c: &Vec<Lit>| {
                    c.iter()
                        .any(|l| state[g.latch_index(*l).expect("latch")] != l.is_neg())
                };
                assert_eq!(plain.iter().all(holds), a <= b, "{a} <= {b}");
                assert_eq!(
                    guarded.iter().all(holds),
                    a <= b || flag,
                    "{a} <= {b} or {flag}"
                );
            }
        }
    }
}

/// Copy and wait: in state 0 the input `go` copies `b` into `a` and enters state 1, which
/// waits for the input `t` and then moves to state 2, which increments `b` and returns to 0.
/// Bad: `a = 3` while `b ≠ 3` in state 1, unreachable because `a = b` there. The circuit
/// never compares `a` with `b` (no order candidates), and `a = b` fails in states 0 and 2.
fn copy_and_wait() -> Aig {
    let mut g = Aig::new();
    let go = g.add_input("go");
    let t = g.add_input("t");
    let s = word(&mut g, "state", 2);
    let a = word(&mut g, "a", 3);
    let b = word(&mut g, "b", 3);
    let (s0, s1, s2) = (
        equals(&mut g, &s, 0),
        equals(&mut g, &s, 1),
        equals(&mut g, &s, 2),
    );
    let start = g.and(s0, go);
    let b1 = increment(&mut g, &b);
    for i in 0..3 {
        let na = g.ite(start, b[i], a[i]);
        g.set_next(a[i], na);
        let nb = g.ite(s2, b1[i], b[i]);
        g.set_next(b[i], nb);
    }
    let waiting = g.and(s1, !t);
    let b0 = g.or(start, waiting);
    g.set_next(s[0], b0);
    let leave = g.and(s1, t);
    g.set_next(s[1], leave);
    let bad = {
        let a3 = equals(&mut g, &a, 3);
        let b3 = equals(&mut g, &b, 3);
        let split = g.and(a3, !b3);
        g.and(s1, split)
    };
    with_bad(g, bad)
}

/// Copy and wait needs the guarded equalities (checked to fail without them).
#[test]
fn a_guarded_equality_proves_a_copy_that_is_kept_while_waiting() {
    let g = copy_and_wait();
    proved_by_the_last_try_only(&g);
}

/// Two copies (`A.`, `B.`) of a circuit that sets a register before it reads it: state 0
/// waits for `go`, state 1 loads `c` from the input `d` (shared by the copies), state 2
/// reads `c`, state 3 returns to 0. Only the power-up value of `c` differs (0 in `A`, 7 in
/// `B`). Bad: the copies' `c` differ in state 2, unreachable because they differ only in
/// states 0 and 1.
fn set_before_read() -> Aig {
    let mut g = Aig::new();
    let go = g.add_input("go");
    let d: Vec<Lit> = (0..3).map(|i| g.add_input(format!("d[{i}]"))).collect();
    let mut states = Vec::new();
    let mut regs = Vec::new();
    for (copy, reset) in [("A", Reset::Zero), ("B", Reset::One)] {
        let s = word(&mut g, &format!("{copy}.s"), 2);
        let c: Vec<Lit> = (0..3)
            .map(|i| g.add_latch(format!("{copy}.c[{i}]"), reset))
            .collect();
        let (s0, s1, s2) = (
            equals(&mut g, &s, 0),
            equals(&mut g, &s, 1),
            equals(&mut g, &s, 2),
        );
        let start = g.and(s0, go);
        // 0 -go-> 1 -> 2 -> 3 -> 0.
        let moving = g.or(!s0, start);
        let b0 = g.and(moving, !s[0]);
        let b1 = g.xor(s[1], s[0]);
        g.set_next(s[0], b0);
        g.set_next(s[1], b1);
        for (&ci, &di) in c.iter().zip(&d) {
            let n = g.ite(s1, di, ci);
            g.set_next(ci, n);
        }
        states.push(s2);
        regs.push(c);
    }
    let same = equal(&mut g, &regs[0], &regs[1]);
    let bad = g.and(states[0], !same);
    with_bad(g, bad)
}

/// Set before read needs the twin differences per state (checked to fail without them).
#[test]
fn twins_that_differ_only_before_the_register_is_set_are_proved_equal_where_read() {
    let g = set_before_read();
    proved_by_the_last_try_only(&g);
}
