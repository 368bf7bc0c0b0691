//! Test-only helpers, independent of the SAT encoding: a simulator, a witness replayer, an
//! explicit-state reachability oracle, a seeded random AIG generator and a binary AIGER
//! writer. ABC runs through `hypermut_testkit::abc`.

use std::collections::HashSet;

use hypermut_aig::{Aig, Lit, Named, Node, Reset, Witness};

/// The seeded generator of the random AIGs: Marsaglia's xorshift, seeded as
/// `seed · φ·2⁶⁴ | 1`.
pub use hypermut_testkit::XorShift64 as Rng;

/// Values of all AIG variables in one frame, given latch and input values.
pub fn eval_frame(aig: &Aig, latches: &[bool], inputs: &[bool]) -> Vec<bool> {
    let mut val = vec![false; aig.nodes().len()];
    for (v, n) in aig.nodes().iter().enumerate() {
        val[v] = match *n {
            Node::Const => false,
            Node::Input(i) => inputs[i as usize],
            Node::Latch(i) => latches[i as usize],
            Node::And(a, b) => lit_val(&val, a) && lit_val(&val, b),
        };
    }
    val
}

/// The value of a literal under variable values.
pub fn lit_val(val: &[bool], l: Lit) -> bool {
    val[l.var() as usize] ^ l.is_neg()
}

/// The latch values of the next frame.
pub fn next_state(aig: &Aig, val: &[bool]) -> Vec<bool> {
    aig.latches.iter().map(|l| lit_val(val, l.next)).collect()
}

/// Replays `w` and asserts it is a valid, locally shortest counterexample for `bad[0]`:
/// constant resets are respected, constraints hold in every frame, bad holds in the last
/// frame and in no earlier one.
pub fn assert_witness_valid(aig: &Aig, w: &Witness) {
    assert_eq!(w.properties, vec!["b0".to_string()]);
    assert_eq!(w.init.len(), aig.latches.len());
    assert!(!w.inputs.is_empty());
    let mut state: Vec<bool> = w
        .init
        .iter()
        .zip(&aig.latches)
        .map(|(v, l)| {
            let v = v.expect("BMC grounds every latch");
            match l.reset {
                Reset::Zero => assert!(!v, "latch {} must start at 0", l.name),
                Reset::One => assert!(v, "latch {} must start at 1", l.name),
                Reset::Free => {}
            }
            v
        })
        .collect();
    let bad = aig.bad[0].lit;
    for (k, vec) in w.inputs.iter().enumerate() {
        assert_eq!(vec.len(), aig.inputs.len());
        let ins: Vec<bool> = vec
            .iter()
            .map(|v| v.expect("BMC grounds every input"))
            .collect();
        let val = eval_frame(aig, &state, &ins);
        for c in &aig.constraints {
            assert!(lit_val(&val, c.lit), "constraint fails in frame {k}");
        }
        let last = k + 1 == w.inputs.len();
        assert_eq!(
            lit_val(&val, bad),
            last,
            "bad in frame {k} (depth {})",
            w.depth()
        );
        state = next_state(aig, &val);
    }
}

/// `q == value` for a little-endian bit vector `q`.
pub fn equals(g: &mut Aig, q: &[Lit], value: u64) -> Lit {
    let lits: Vec<Lit> = q
        .iter()
        .enumerate()
        .map(|(i, &b)| b.xor(value >> i & 1 == 0))
        .collect();
    g.and_all(lits)
}

/// Whether latch values `state` (in latch order) are an initial state of `aig`.
pub fn is_initial(aig: &Aig, state: &[bool]) -> bool {
    state.iter().zip(&aig.latches).all(|(v, l)| match l.reset {
        Reset::Zero => !v,
        Reset::One => *v,
        Reset::Free => true,
    })
}

/// Adds the bad property `differ`: `a` and `b` (a product's twin outputs) differ.
pub fn push_differ(g: &mut Aig, a: Lit, b: Lit) {
    let bad = g.xor(a, b);
    g.bad.push(Named {
        lit: bad,
        name: "differ".into(),
    });
}

/// Whether `bad[0]` holds in some state reachable from the initial state (constraints
/// holding in every frame), by a breadth-first search over the reachable states only: for
/// circuits with many latches but few reachable states. Every latch must have a constant
/// reset; panics past `max_states` reachable states.
pub fn bad_reachable_by_search(aig: &Aig, max_states: usize) -> bool {
    let ni = aig.inputs.len();
    assert!(ni <= 8, "explicit search only over few inputs");
    let init: Vec<bool> = aig
        .latches
        .iter()
        .map(|l| l.reset.value().expect("constant resets only"))
        .collect();
    let bad = aig.bad[0].lit;
    let mut seen: std::collections::HashSet<Vec<bool>> = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([init.clone()]);
    seen.insert(init);
    while let Some(state) = queue.pop_front() {
        for i in 0..1u32 << ni {
            let inputs: Vec<bool> = (0..ni).map(|b| i >> b & 1 == 1).collect();
            let val = eval_frame(aig, &state, &inputs);
            if !aig.constraints.iter().all(|c| lit_val(&val, c.lit)) {
                continue;
            }
            if lit_val(&val, bad) {
                return true;
            }
            let next = next_state(aig, &val);
            if seen.insert(next.clone()) {
                assert!(seen.len() <= max_states, "too many reachable states");
                queue.push_back(next);
            }
        }
    }
    false
}

/// Walks the layers of states reachable in exactly 0, 1, … `max_depth` steps from the initial
/// states (constraints holding in every frame), by explicit enumeration of states and inputs,
/// and tells `at` for each depth whether bad can hold there; stops when `at` says so.
fn walk_layers(aig: &Aig, max_depth: usize, mut at: impl FnMut(usize, bool) -> bool) {
    let nl = aig.latches.len();
    let ni = aig.inputs.len();
    assert!(nl <= 12 && ni <= 8, "explicit oracle only for tiny AIGs");
    let bits = |x: u32, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
    let pack = |v: &[bool]| {
        v.iter()
            .enumerate()
            .fold(0u32, |a, (i, b)| a | (*b as u32) << i)
    };
    let mut layer: HashSet<u32> = (0..1u32 << nl)
        .filter(|s| is_initial(aig, &bits(*s, nl)))
        .collect();
    for k in 0..=max_depth {
        let mut next = HashSet::new();
        let mut hit = false;
        for s in &layer {
            for i in 0..1u32 << ni {
                let val = eval_frame(aig, &bits(*s, nl), &bits(i, ni));
                if !aig.constraints.iter().all(|c| lit_val(&val, c.lit)) {
                    continue;
                }
                hit |= lit_val(&val, aig.bad[0].lit);
                next.insert(pack(&next_state(aig, &val)));
            }
        }
        if at(k, hit) {
            return;
        }
        layer = next;
    }
}

/// The exact shortest depth of `bad[0]` (constraints holding up to and including the bad
/// frame) up to `max_depth`, by explicit enumeration of initial states and inputs.
pub fn shortest_depth(aig: &Aig, max_depth: usize) -> Option<usize> {
    let mut found = None;
    walk_layers(aig, max_depth, |k, hit| {
        if hit {
            found = Some(k);
        }
        hit
    });
    found
}

/// Per depth `0..=max_depth`: whether some path from an initial state reaches a bad state
/// in exactly that many steps (constraints holding in every frame up to and including it),
/// by explicit enumeration of initial states and inputs.
pub fn bad_at_depths(aig: &Aig, max_depth: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(max_depth + 1);
    walk_layers(aig, max_depth, |_, hit| {
        out.push(hit);
        false
    });
    out
}

/// Shape of a random AIG.
/// A 3-bit counter from 0 and a latch `z` that stays 0; bad when the counter reads 7 (depths
/// 7, 15, 23, …) if `reachable`, otherwise when it reads 7 and `z` is 1 (never).
pub fn counter_to_seven(reachable: bool) -> Aig {
    let mut g = Aig::new();
    let bits: Vec<_> = (0..3)
        .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
        .collect();
    let z = g.add_latch("z", Reset::Zero);
    let mut carry = Lit::TRUE;
    for &b in &bits {
        let next = g.xor(b, carry);
        carry = g.and(b, carry);
        g.set_next(b, next);
    }
    let seven = g.and(bits[0], bits[1]);
    let seven = g.and(seven, bits[2]);
    let bad = if reachable { seven } else { g.and(seven, z) };
    g.bad.push(Named {
        lit: bad,
        name: "bad".into(),
    });
    g
}

pub struct Shape {
    pub inputs: usize,
    pub latches: usize,
    pub ands: usize,
    pub free_latches: bool,
    pub max_constraints: u64,
    /// The first `counter_bits` latches form a counter with a random enable, and bad requires
    /// it to be all ones: this gives deeper counterexamples than random next-state functions.
    pub counter_bits: usize,
    /// How many random latches (away from their resets) the bad property requires.
    pub bad_latches: usize,
}

/// A random AIG: inputs, then latches, then ANDs (so variable order is the binary AIGER
/// order), one bad property over the last gates, and up to `max_constraints` constraints.
pub fn random_aig(rng: &mut Rng, shape: &Shape) -> Aig {
    let mut g = Aig::new();
    for i in 0..shape.inputs {
        g.add_input(format!("i{i}"));
    }
    let latches: Vec<Lit> = (0..shape.latches)
        .map(|i| {
            let reset = match rng.below(if shape.free_latches { 4 } else { 3 }) {
                0 | 1 => Reset::Zero,
                2 => Reset::One,
                _ => Reset::Free,
            };
            g.add_latch(format!("l{i}"), reset)
        })
        .collect();
    let mut pool: Vec<Lit> = (1..g.num_vars()).map(Lit::var_lit).collect();
    for _ in 0..shape.ands {
        let a = pool[rng.below(pool.len() as u64) as usize].xor(rng.coin());
        let b = pool[rng.below(pool.len() as u64) as usize].xor(rng.coin());
        let x = g.and(a, b);
        if !x.is_const() && !pool.contains(&x.positive()) {
            pool.push(x.positive());
        }
    }
    let nc = shape.counter_bits.min(latches.len());
    let mut carry = pool[rng.below(pool.len() as u64) as usize].xor(rng.coin());
    for l in &latches[..nc] {
        let n = g.xor(*l, carry);
        carry = g.and(*l, carry);
        g.set_next(*l, n);
    }
    for l in &latches[nc..] {
        let n = pool[rng.below(pool.len() as u64) as usize].xor(rng.coin());
        g.set_next(*l, n);
    }
    // bad: a gate near the top, and two latches away from their reset values (so that
    // depth 0 is rare and deeper counterexamples are common).
    let tail = pool.len().min(4) as u64;
    let mut bad = if nc == 0 {
        pool[pool.len() - 1 - rng.below(tail) as usize].xor(rng.coin())
    } else {
        pool[rng.below(pool.len() as u64) as usize].xor(rng.coin())
    };
    for l in &latches[..nc] {
        bad = g.and(bad, *l);
    }
    for _ in 0..shape.bad_latches {
        let l = &g.latches[rng.below(latches.len() as u64) as usize];
        let away = l.lit.xor(l.reset == Reset::One);
        bad = g.and(bad, away);
    }
    g.bad.push(hypermut_aig::Named {
        lit: bad,
        name: "bad".into(),
    });
    for _ in 0..rng.below(shape.max_constraints + 1) {
        let c = pool[rng.below(pool.len() as u64) as usize].xor(rng.coin());
        g.constraints.push(hypermut_aig::Named {
            lit: c,
            name: String::new(),
        });
    }
    g
}

/// An equivalent AIG without uninitialised latches, for tools that treat them as 0 (ABC):
/// each free latch `v` becomes a zero-reset latch read as `started ? v : init_v`, with one
/// new input `init_v` and one shared `started` latch (reset 0, next 1). Depths are
/// unchanged: the value read in frame 0 is the input, afterwards the latch.
pub fn without_free_latches(aig: &Aig) -> Aig {
    let mut g = Aig::new();
    let mut map: Vec<Lit> = vec![Lit::FALSE; aig.nodes().len()];
    for i in &aig.inputs {
        map[i.lit.var() as usize] = g.add_input(i.name.clone());
    }
    let free: Vec<usize> = (0..aig.latches.len())
        .filter(|i| aig.latches[*i].reset == Reset::Free)
        .collect();
    let init_inputs: Vec<Lit> = free
        .iter()
        .map(|i| g.add_input(format!("init_{i}")))
        .collect();
    let new_latches: Vec<Lit> = aig
        .latches
        .iter()
        .map(|l| {
            let r = if l.reset == Reset::One {
                Reset::One
            } else {
                Reset::Zero
            };
            g.add_latch(l.name.clone(), r)
        })
        .collect();
    let started = (!free.is_empty()).then(|| g.add_latch("started", Reset::Zero));
    for (l, nl) in aig.latches.iter().zip(&new_latches) {
        map[l.lit.var() as usize] = *nl;
    }
    for (j, i) in free.iter().enumerate() {
        let s = started.expect("free latches exist");
        map[aig.latches[*i].lit.var() as usize] = g.ite(s, new_latches[*i], init_inputs[j]);
    }
    let m = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
    for (v, n) in aig.nodes().iter().enumerate() {
        if let Node::And(a, b) = *n {
            map[v] = g.and(m(&map, a), m(&map, b));
        }
    }
    for (l, nl) in aig.latches.iter().zip(&new_latches) {
        g.set_next(*nl, m(&map, l.next));
    }
    if let Some(s) = started {
        g.set_next(s, Lit::TRUE);
    }
    for b in &aig.bad {
        g.bad.push(hypermut_aig::Named {
            lit: m(&map, b.lit),
            name: b.name.clone(),
        });
    }
    for c in &aig.constraints {
        g.constraints.push(hypermut_aig::Named {
            lit: m(&map, c.lit),
            name: c.name.clone(),
        });
    }
    g
}

fn varint(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Binary AIGER 1.9 of an AIG whose variables are already inputs, latches, ANDs in order.
/// No outputs; the bad and constraint sections are written.
pub fn write_binary_aiger(aig: &Aig) -> Vec<u8> {
    let (ni, nl) = (aig.inputs.len(), aig.latches.len());
    let na = aig.num_ands();
    let m = ni + nl + na;
    assert_eq!(
        aig.num_vars() as usize,
        m + 1,
        "no gaps in the variable order"
    );
    for (v, n) in aig.nodes().iter().enumerate().skip(1) {
        let ok = match n {
            Node::Input(i) => v == 1 + *i as usize,
            Node::Latch(i) => v == 1 + ni + *i as usize,
            Node::And(..) => v > ni + nl,
            Node::Const => false,
        };
        assert!(ok, "variable {v} is out of binary AIGER order");
    }
    let mut head = format!("aig {m} {ni} {nl} 0 {na} {}", aig.bad.len());
    if !aig.constraints.is_empty() {
        head += &format!(" {}", aig.constraints.len());
    }
    head.push('\n');
    for l in &aig.latches {
        match l.reset {
            Reset::Zero => head += &format!("{}\n", l.next.0),
            Reset::One => head += &format!("{} 1\n", l.next.0),
            Reset::Free => head += &format!("{} {}\n", l.next.0, l.lit.0),
        }
    }
    for p in aig.bad.iter().chain(&aig.constraints) {
        head += &format!("{}\n", p.lit.0);
    }
    let mut out = head.into_bytes();
    for (v, n) in aig.nodes().iter().enumerate() {
        if let Node::And(a, b) = *n {
            let lhs = 2 * v as u32;
            let (r0, r1) = if a.0 >= b.0 { (a.0, b.0) } else { (b.0, a.0) };
            varint(&mut out, lhs - r0);
            varint(&mut out, r0 - r1);
        }
    }
    out
}

/// Explicit-state check (tiny AIGs) that `clauses` over latch literals form an inductive
/// invariant excluding bad: every initial state satisfies them, and every state satisfying
/// them, under every input vector satisfying the constraints, is not bad and has a successor
/// satisfying them.
pub fn assert_invariant_explicit(aig: &Aig, clauses: &[Vec<Lit>]) {
    let nl = aig.latches.len();
    let ni = aig.inputs.len();
    assert!(nl <= 12 && ni <= 8, "explicit check only for tiny AIGs");
    let bits = |x: u32, n: usize| (0..n).map(|i| x >> i & 1 == 1).collect::<Vec<bool>>();
    let holds = |state: &[bool]| {
        clauses.iter().all(|c| {
            c.iter().any(|&l| {
                let k = aig.latch_index(l).expect("latch literal");
                state[k] != l.is_neg()
            })
        })
    };
    for s in 0..1u32 << nl {
        let state = bits(s, nl);
        if is_initial(aig, &state) {
            assert!(
                holds(&state),
                "initial state {state:?} violates the invariant"
            );
        }
        if !holds(&state) {
            continue;
        }
        for i in 0..1u32 << ni {
            let val = eval_frame(aig, &state, &bits(i, ni));
            if !aig.constraints.iter().all(|c| lit_val(&val, c.lit)) {
                continue;
            }
            assert!(
                !lit_val(&val, aig.bad[0].lit),
                "invariant state {state:?} is bad"
            );
            let next = next_state(aig, &val);
            assert!(holds(&next), "{state:?} → {next:?} leaves the invariant");
        }
    }
}

/// The product of a mutant that differs from the original only in a state the design never
/// reaches: the copies' registers `A.o`, `B.o` are equal given that the flag `e` (set on
/// entering `s = 1`, cleared with `s` or earlier) implies `s`, which is inductive but no
/// equality says (so signal correspondence cannot prove it), and `e` changes rarely under
/// random inputs (so a clause over it is mined). Bad: the registers differ.
pub fn unreachable_state_mutant() -> Aig {
    let mut g = Aig::new();
    let ins: Vec<Lit> = (0..8).map(|i| g.add_input(format!("i{i}"))).collect();
    let (x, y, z) = (ins[5], ins[6], ins[7]);
    // start: five inputs high; stop: three inputs low (both rare).
    let start = g.and_all(ins[..5].iter().copied());
    let stop = g.and_all(ins[..3].iter().map(|&i| !i));
    let s = g.add_latch("s", Reset::Zero);
    let e = g.add_latch("e", Reset::Zero);
    let next_s = g.ite(s, !stop, start);
    g.set_next(s, next_s);
    // `e` is set on entering `s = 1` and cleared with `s` or earlier: `e → s` is inductive
    // (and `e ≠ s`), but a step from a state with `e ∧ ¬s` may keep it.
    let enter = g.and(!s, start);
    let keep = g.and(!stop, x);
    let next_e = g.ite(e, keep, enter);
    g.set_next(e, next_e);
    // Each copy's register `o` samples x when `e ∧ s`, and y (original) or z (mutant) when
    // `e ∧ ¬s`, which never happens.
    let mut outs = Vec::new();
    for (copy, other) in [("A", y), ("B", z)] {
        let o = g.add_latch(format!("{copy}.o"), Reset::Zero);
        let pick = g.ite(s, x, other);
        let next = g.ite(e, pick, o);
        g.set_next(o, next);
        outs.push(o);
    }
    push_differ(&mut g, outs[0], outs[1]);
    g
}
