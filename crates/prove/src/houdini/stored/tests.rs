use super::*;
use crate::certificate::check_certificate;
use crate::engine::Engine;
use crate::houdini::Houdini;
use crate::testutil::{bad_reachable_by_search, equals, push_differ};
use crate::verdict::Verdict;
use hypermut_aig::Reset;

/// Two copies (`A.`, `B.`) of a circuit that fills a 4-word memory and replays it: state 0
/// writes the input `d` into word `n` and clears the read index `i`; state 1 reads word `i`
/// into `dout`, counts `i` up to `n`, then counts `n` up (from 3 back to 0) and returns to
/// state 0 (two flags show the state). Word `k` is written before any read of it. Only the
/// power-up value of word 2 differs (0 in `A`, `word2` in `B`). Bad: the copies' `dout`
/// differ.
fn fill_then_replay(word2: Reset) -> Aig {
    let mut g = Aig::new();
    let d = g.add_input("d");
    let mut outs = Vec::new();
    for copy in ["A", "B"] {
        let reg = |g: &mut Aig, name: &str| -> Vec<Lit> {
            (0..2)
                .map(|b| g.add_latch(format!("{copy}.{name}[{b}]"), Reset::Zero))
                .collect()
        };
        let s = reg(&mut g, "s");
        let n = reg(&mut g, "n");
        let i = reg(&mut g, "i");
        let mem: Vec<Lit> = (0..4)
            .map(|k| {
                let reset = if copy == "B" && k == 2 {
                    word2
                } else {
                    Reset::Zero
                };
                g.add_latch(format!("{copy}.mem[{k}][0]"), reset)
            })
            .collect();
        let dout = g.add_latch(format!("{copy}.dout"), Reset::Zero);
        let (write, read) = (equals(&mut g, &s, 0), equals(&mut g, &s, 1));
        let same = {
            let bits: Vec<Lit> = i.iter().zip(&n).map(|(&a, &b)| g.xnor(a, b)).collect();
            g.and_all(bits)
        };
        let counting = g.and(read, !same);
        let wrapping = g.and(read, same);
        // s: 0 → 1; 1 → 1 while counting, 0 when i = n.
        let s0 = g.or(write, counting);
        g.set_next(s[0], s0);
        g.set_next(s[1], Lit::FALSE);
        // i: cleared on a write, +1 while counting.
        let i0 = g.and(counting, !i[0]);
        let carry = g.and(counting, i[0]);
        let i1 = g.xor(i[1], carry);
        let i1 = g.and(!write, i1);
        g.set_next(i[0], i0);
        g.set_next(i[1], i1);
        // n: +1 when the replay reaches it.
        let n0 = g.xor(n[0], wrapping);
        let carry = g.and(wrapping, n[0]);
        let n1 = g.xor(n[1], carry);
        g.set_next(n[0], n0);
        g.set_next(n[1], n1);
        // mem[k] := d on a write of word k; dout := mem[i] on a read.
        let mut read_value = Lit::FALSE;
        for (k, &w) in mem.iter().enumerate() {
            let at_n = equals(&mut g, &n, k as u64);
            let we = g.and(at_n, !s[0]);
            let we = g.and(we, !s[1]);
            let next = g.ite(we, d, w);
            g.set_next(w, next);
            let at_i = equals(&mut g, &i, k as u64);
            let picked = g.and(at_i, s[0]);
            let picked = g.and(picked, !s[1]);
            let picked = g.and(picked, w);
            read_value = g.or(read_value, picked);
        }
        let next = g.ite(read, read_value, dout);
        g.set_next(dout, next);
        // Two status flags (read by nothing): the state register is the most read one,
        // as the FSM state of a real design is, which the candidates are guarded by.
        for (flag, on) in [("reading", read), ("writing", write)] {
            let f = g.add_latch(format!("{copy}.{flag}"), Reset::Zero);
            g.set_next(f, on);
        }
        outs.push(dout);
    }
    push_differ(&mut g, outs[0], outs[1]);
    g
}

/// The latch named `name`.
fn latch(g: &Aig, name: &str) -> usize {
    g.latches
        .iter()
        .position(|l| l.name == name)
        .expect("the latch exists")
}

/// Every word written before it is read: the bounds on the fill counter while word 2's twins
/// differ prove it (checked to fail without the stored-word candidates), and the
/// certificate passes the separate checker.
#[test]
fn a_word_written_before_it_is_read_is_proved_equal() {
    let g = fill_then_replay(Reset::One);
    assert!(
        !bad_reachable_by_search(&g, 100_000),
        "the copies never differ"
    );
    assert!(matches!(Houdini::default().check(&g), Verdict::Unknown(_)));
    match Houdini::with_orders().check(&g) {
        Verdict::Safe(cert) => check_certificate(&g, &cert).expect("the certificate checks"),
        v => panic!("not proved: {v:?}"),
    }
}

/// The word's difference is erased where it is written: at fill counter 2 in state 0.
#[test]
fn the_index_of_a_word_is_where_its_difference_is_erased() {
    let g = fill_then_replay(Reset::One);
    let cone = vec![true; g.num_vars() as usize];
    let (words, _) = words(&g, &cone);
    let mut twin = vec![None; g.latches.len()];
    for (x, y) in twin_pairs(&g, &cone) {
        twin[x] = Some(y);
        twin[y] = Some(x);
    }
    let (x, y) = (latch(&g, "A.mem[2][0]"), latch(&g, "B.mem[2][0]"));
    let named: Vec<(String, usize)> = erase_index(&g, &words, &twin, x, y)
        .into_iter()
        .map(|(r, c)| (g.latches[words[r].bits[0]].name.clone(), c))
        .collect();
    for expected in [("A.n[0]", 2), ("A.s[0]", 0), ("B.n[0]", 2), ("B.s[0]", 0)] {
        assert!(
            named.contains(&(expected.0.to_string(), expected.1)),
            "{expected:?} not in {named:?}"
        );
    }
    assert!(!named.iter().any(|(r, _)| r.contains(".i[")), "{named:?}");
}

/// Without a stored word that differs, the module adds nothing (the other products' searches
/// stay as they were).
#[test]
fn copies_that_agree_on_every_word_get_no_stored_word_candidates() {
    let g = fill_then_replay(Reset::Zero);
    let cone = vec![true; g.num_vars() as usize];
    let latches: Vec<Vec<u64>> = vec![vec![0; g.latches.len()]; 4];
    assert!(stored_word_candidates(&g, &latches, &[u64::MAX; 4], &cone).is_empty());
    let different = fill_then_replay(Reset::One);
    let mut state = vec![0u64; different.latches.len()];
    state[latch(&different, "B.mem[2][0]")] = u64::MAX;
    assert!(!stored_word_candidates(&different, &[state], &[u64::MAX], &cone).is_empty());
}

/// `r ≤ c` as clauses: a valuation of a 3-bit register satisfies all of them exactly when
/// its value is at most `c`, for every `c`.
#[test]
fn the_clauses_of_a_bound_are_the_bound() {
    let mut g = Aig::new();
    for i in 0..3 {
        g.add_latch(format!("r[{i}]"), Reset::Zero);
    }
    let bits: Vec<usize> = (0..3).collect();
    let r = Word {
        bits,
        copy: String::new(),
    };
    for c in 0..8usize {
        let clauses = at_most(&g, &r, c);
        for v in 0..8usize {
            let holds = clauses.iter().all(|cl| {
                cl.iter().any(|&l| {
                    let k = g.latch_index(l).expect("a latch");
                    (v >> k & 1 == 1) != l.is_neg()
                })
            });
            assert_eq!(holds, v <= c, "r = {v}, c = {c}");
        }
    }
}
