//! Order candidates (`docs/method.md` §7.13): `x ≤ y` between two registers of a copy, read
//! off the simulated states, either everywhere or while the copy's most read register (its
//! FSM state) has one value. A game that only counts `scan` up to `max` keeps `scan ≤ max`
//! in some states and `max ≤ scan` in others; a mutant that turns `scan != max` into
//! `scan < max` there is equivalent because of it, and no clause over two latches says so.
//! Also per FSM state: equalities between a register and one it copies, and the states in
//! which a product's twins may differ.

use std::collections::HashSet;

use hypermut_aig::explore::{readers, registers};
use hypermut_aig::{Aig, Lit, Node};

/// Widest register compared (`x ≤ y` of `w`-bit registers takes `2^w − 1` clauses).
pub const ORDER_BITS: usize = 6;

/// Most clauses the order candidates add (the relations found first are kept).
pub const MAX_ORDER_CLAUSES: usize = 32768;

/// A register as its latches, least significant bit first, and its copy (the name's prefix
/// up to the first `.`: `A.scan` belongs to `A`).
pub(super) struct Word {
    /// The latches, least significant bit first.
    pub(super) bits: Vec<usize>,
    /// The copy's name (empty outside a product).
    pub(super) copy: String,
}

/// The registers of `aig` of 2 to [`ORDER_BITS`] bits, every bit named `base[i]` for
/// `i = 0..w` and in `cone`.
pub(super) fn words(aig: &Aig, cone: &[bool]) -> (Vec<Word>, Vec<usize>) {
    let groups = registers(aig);
    let read = readers(aig, &groups);
    let mut out = Vec::new();
    let mut read_by = Vec::new();
    for (g, ks) in groups.iter().enumerate() {
        let mut indexed: Vec<(usize, usize)> = Vec::new();
        for &k in ks {
            let name = &aig.latches[k].name;
            let index = name
                .rsplit_once('[')
                .and_then(|(_, rest)| rest.strip_suffix(']'))
                .and_then(|i| i.parse::<usize>().ok());
            match index {
                Some(i) if cone[aig.latches[k].lit.var() as usize] => indexed.push((i, k)),
                _ => break,
            }
        }
        indexed.sort_unstable();
        let w = indexed.len();
        if w != ks.len() || !(2..=ORDER_BITS).contains(&w) {
            continue;
        }
        if indexed.iter().enumerate().any(|(pos, &(i, _))| pos != i) {
            continue;
        }
        let name = &aig.latches[ks[0]].name;
        let copy = name.split_once('.').map_or("", |(c, _)| c).to_string();
        out.push(Word {
            bits: indexed.into_iter().map(|(_, k)| k).collect(),
            copy,
        });
        read_by.push(read[g]);
    }
    (out, read_by)
}

/// The clauses of `x ≤ y` (equal widths), each widened by `guard` (literals one of which
/// holds whenever the relation need not).
fn le_clauses(aig: &Aig, x: &Word, y: &Word, guard: &[Lit]) -> Vec<Vec<Lit>> {
    let lit = |k: usize| aig.latches[k].lit;
    let w = x.bits.len();
    let mut out = Vec::new();
    // `x > y` at bit `i`: `x_i ∧ ¬y_i` with every higher bit pair equal to some pattern.
    for i in 0..w {
        let higher = w - 1 - i;
        for pattern in 0..1u32 << higher {
            let mut c: Vec<Lit> = vec![!lit(x.bits[i]), lit(y.bits[i])];
            for (h, j) in (i + 1..w).enumerate() {
                let one = pattern >> h & 1 == 1;
                // Not both equal to the pattern's bit.
                c.push(lit(x.bits[j]).xor(one));
                c.push(lit(y.bits[j]).xor(one));
            }
            c.extend_from_slice(guard);
            out.push(c);
        }
    }
    out
}

/// The simulated runs (bits) in which `x > y` in the step of latch words `words`.
fn compare(words: &[u64], x: &Word, y: &Word) -> u64 {
    let (mut gt, mut eq) = (0u64, u64::MAX);
    for (&a, &b) in x.bits.iter().zip(&y.bits).rev() {
        let (xa, yb) = (words[a], words[b]);
        gt |= eq & xa & !yb;
        eq &= !(xa ^ yb);
    }
    gt
}

/// The value of register `g` in run `bit` of the step `words`.
pub(super) fn value(words: &[u64], g: &Word, bit: u32) -> usize {
    g.bits
        .iter()
        .enumerate()
        .map(|(i, &k)| ((words[k] >> bit & 1) as usize) << i)
        .sum()
}

/// Calls `mark` with the value of register `g` in each run of `runs` (a bit per run) in the
/// step `words`.
fn for_values(words: &[u64], g: &Word, mut runs: u64, mut mark: impl FnMut(usize)) {
    while runs != 0 {
        let bit = runs.trailing_zeros();
        runs &= runs - 1;
        mark(value(words, g, bit));
    }
}

/// `g ≠ v` as a clause: one of `g`'s bits differs from `v`'s.
pub(super) fn not_value(aig: &Aig, g: &Word, v: usize) -> Vec<Lit> {
    g.bits
        .iter()
        .enumerate()
        .map(|(i, &k)| aig.latches[k].lit.xor(v >> i & 1 == 1))
        .collect()
}

/// `a = b` as two clauses, each widened by `guard`.
pub(super) fn equal_clauses(a: Lit, b: Lit, guard: &[Lit]) -> [Vec<Lit>; 2] {
    [[!a, b], [a, !b]].map(|pair| pair.iter().chain(guard).copied().collect())
}

/// Order candidates over the latches in `cone` that no valid simulated state violates:
/// `x ≤ y` for registers of equal width in the same copy that the circuit compares (an AND
/// gate reads a bit of each) when no state shows `x > y`;
/// and `g = v → x ≤ y` for each value `v` of the copy's most read register `g` that no
/// state with `g = v` contradicts; then the guarded equalities and the twin differences
/// per state (below).
///
/// The simulated states are `latches` (per step, the value word of every latch, run `j` in
/// bit `j`) and `valid` (per step, the runs whose constraints held so far).
pub fn order_candidates(
    aig: &Aig,
    latches: &[Vec<u64>],
    valid: &[u64],
    cone: &[bool],
) -> Vec<Vec<Lit>> {
    let (words, read_by) = words(aig, cone);
    // Latch pairs some AND gate reads directly: the bits a comparator of two registers
    // (`scan != max`, `scan < max`) puts side by side.
    let mut gated: HashSet<(u32, u32)> = HashSet::new();
    for node in aig.nodes() {
        if let Node::And(a, b) = *node {
            if aig.latch_index(a).is_some() && aig.latch_index(b).is_some() {
                gated.insert((a.var().min(b.var()), a.var().max(b.var())));
            }
        }
    }
    let compared = |x: &Word, y: &Word| {
        x.bits.iter().zip(&y.bits).any(|(&a, &b)| {
            let (va, vb) = (aig.latches[a].lit.var(), aig.latches[b].lit.var());
            gated.contains(&(va.min(vb), va.max(vb)))
        })
    };
    let mut out = Vec::new();
    for (ix, x) in words.iter().enumerate() {
        for (iy, y) in words.iter().enumerate() {
            if ix == iy || x.copy != y.copy || x.bits.len() != y.bits.len() || !compared(x, y) {
                continue;
            }
            // The copy's most read register besides the two (its FSM state, as a rule).
            let g = (0..words.len())
                .filter(|&g| g != ix && g != iy && words[g].copy == x.copy)
                .max_by_key(|&g| read_by[g])
                .map(|g| &words[g]);
            let states_of_g = g.map_or(1, |g| 1usize << g.bits.len());
            // Per value of the guard: whether a state with it shows x > y.
            let mut greater = vec![false; states_of_g];
            let mut any_gt = false;
            for (step, &valid) in latches.iter().zip(valid) {
                let gt = compare(step, x, y) & valid;
                any_gt |= gt != 0;
                if let Some(g) = g {
                    for_values(step, g, gt, |v| greater[v] = true);
                }
            }
            if !any_gt {
                out.extend(le_clauses(aig, x, y, &[]));
            }
            // Guarded too when it held everywhere: random runs stay shallow (a game whose
            // `scan` and `max` they never see apart), and where `x ≤ y` is not inductive,
            // it may be in some of the states.
            if let Some(g) = g {
                // Values no run shows too: runs of a few hundred steps do not reach the late
                // states of a long game, and where a value is unreachable, its clauses hold.
                for (v, _) in greater.iter().enumerate().filter(|(_, gt)| !**gt) {
                    out.extend(le_clauses(aig, x, y, &not_value(aig, g, v)));
                }
            }
            if out.len() >= MAX_ORDER_CLAUSES {
                out.truncate(MAX_ORDER_CLAUSES);
                return out;
            }
        }
    }
    out.extend(equality_candidates(aig, &words, &read_by, latches, valid));
    out.extend(twin_difference_candidates(
        aig, &words, &read_by, latches, valid, cone,
    ));
    out.truncate(MAX_ORDER_CLAUSES);
    out
}

/// Where twins may differ: `x ≠ x' → g ≠ w` for a latch `x` of one copy and its twin `x'`
/// (the same name in another copy) and each value `w` of the most read register `g` in
/// which no valid simulated state shows them different (values no run shows included). A
/// mutant that changes the power-up value of a register the design sets before it reads it
/// (`b12`'s `count`, `timebase`) has twins that differ only in the states before that.
fn twin_difference_candidates(
    aig: &Aig,
    words: &[Word],
    read_by: &[usize],
    latches: &[Vec<u64>],
    valid: &[u64],
    cone: &[bool],
) -> Vec<Vec<Lit>> {
    let lit = |k: usize| aig.latches[k].lit;
    let Some(g) = most_read(words, read_by) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (x, y) in twin_pairs(aig, cone) {
        if g.bits.contains(&x) || g.bits.contains(&y) {
            continue;
        }
        let mut differs = vec![false; 1 << g.bits.len()];
        for (step, &valid) in latches.iter().zip(valid) {
            for_values(step, g, (step[x] ^ step[y]) & valid, |w| differs[w] = true);
        }
        if !differs.contains(&true) {
            continue;
        }
        for (w, _) in differs.iter().enumerate().filter(|(_, d)| !**d) {
            out.extend(equal_clauses(lit(x), lit(y), &not_value(aig, g, w)));
        }
        if out.len() >= MAX_ORDER_CLAUSES {
            break;
        }
    }
    out
}

/// The most read register (a product's FSM state, as a rule).
pub(super) fn most_read<'w>(words: &'w [Word], read_by: &[usize]) -> Option<&'w Word> {
    (0..words.len())
        .max_by_key(|&g| read_by[g])
        .map(|g| &words[g])
}

/// The twins among the latches in `cone`: two latches whose names agree after the copy's
/// prefix (`A.x`, `B.x`), in the order of that name.
pub(super) fn twin_pairs(aig: &Aig, cone: &[bool]) -> Vec<(usize, usize)> {
    let mut by_name: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for (k, l) in aig.latches.iter().enumerate() {
        if !cone[l.lit.var() as usize] {
            continue;
        }
        if let Some((_, rest)) = l.name.split_once('.') {
            by_name.entry(rest).or_default().push(k);
        }
    }
    by_name
        .values()
        .filter_map(|ks| match ks[..] {
            [x, y] => Some((x, y)),
            _ => None,
        })
        .collect()
}

/// Whether some bit `i` of `x` may take bit `i` of `y`: the next-state function of `x_i`
/// reads `y_i` (`address = scan` makes `address` a copy of `scan`).
pub(super) fn copies(aig: &Aig, x: &Word, y: &Word) -> bool {
    x.bits.iter().zip(&y.bits).any(|(&a, &b)| {
        let target = aig.latches[b].lit.var();
        let mut seen = HashSet::new();
        let mut stack = vec![aig.latches[a].next.var()];
        while let Some(v) = stack.pop() {
            if v == target {
                return true;
            }
            if !seen.insert(v) {
                continue;
            }
            if let Node::And(p, q) = aig.node(v) {
                stack.push(p.var());
                stack.push(q.var());
            }
        }
        false
    })
}

/// Guarded equalities: `g = v → x_i = y_i` for two registers `x`, `y` of equal width in the
/// same copy, one of which takes the other's value (its next-state function reads it), for
/// each bit `i` and each value `v` of the copy's most read register `g` that no valid
/// simulated state with `g = v` contradicts (values no run shows included). A state
/// machine that copies `scan` into `address` and then waits keeps `address = scan` in the
/// waiting states; a mutant that reads one for the other there is equivalent because of it.
fn equality_candidates(
    aig: &Aig,
    words: &[Word],
    read_by: &[usize],
    latches: &[Vec<u64>],
    valid: &[u64],
) -> Vec<Vec<Lit>> {
    let lit = |k: usize| aig.latches[k].lit;
    let mut out = Vec::new();
    for (ix, x) in words.iter().enumerate() {
        // The copy's most read register (its FSM state, as a rule); the pairs are the
        // other registers of its copy.
        let Some(ig) = (0..words.len())
            .filter(|&g| words[g].copy == x.copy)
            .max_by_key(|&g| read_by[g])
        else {
            continue;
        };
        if ig == ix {
            continue;
        }
        let g = &words[ig];
        for (iy, y) in words.iter().enumerate().skip(ix + 1) {
            if iy == ig
                || y.copy != x.copy
                || y.bits.len() != x.bits.len()
                || !(copies(aig, x, y) || copies(aig, y, x))
            {
                continue;
            }
            let w = x.bits.len();
            // Per value of g, the bits some state with that value shows unequal.
            let mut differs = vec![0u32; 1 << g.bits.len()];
            for (step, &valid) in latches.iter().zip(valid) {
                for i in 0..w {
                    let d = (step[x.bits[i]] ^ step[y.bits[i]]) & valid;
                    for_values(step, g, d, |v| differs[v] |= 1 << i);
                }
            }
            for (v, &bad_bits) in differs.iter().enumerate() {
                let guard = not_value(aig, g, v);
                for i in (0..w).filter(|i| bad_bits >> i & 1 == 0) {
                    out.extend(equal_clauses(lit(x.bits[i]), lit(y.bits[i]), &guard));
                }
            }
            if out.len() >= MAX_ORDER_CLAUSES {
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
