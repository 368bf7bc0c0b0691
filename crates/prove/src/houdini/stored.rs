//! Candidates for a product whose copies differ in a stored word (`docs/method.md` §7.13): a
//! mutant that changes the power-up value of a memory word is equivalent when the design
//! writes that word before it reads it. The reason is a relation between the word's twins,
//! the register that selects the word, the registers it is loaded from and the FSM state:
//! while the twins differ, the fill counter has not passed the word's index, and in the
//! states after the write it is below it. This module mines those relations; they are
//! added only when simulation shows the twins of some array bit different.

use std::collections::HashSet;

use hypermut_aig::wordsim::{eval_words, next_words, WordRng};
use hypermut_aig::{register_of, Aig, Lit, Node};

use super::order::{copies, equal_clauses, most_read, not_value, twin_pairs, value, words, Word};

/// Rounds of 64 random states [`erase_index`] samples.
const ERASE_SAMPLES: usize = 64;

/// Fewest sampled states that erase a difference before [`erase_index`] names an index.
const ERASE_HITS: usize = 4;

/// Most clauses the stored-word candidates add (those found first are kept).
pub const MAX_STORED_CLAUSES: usize = 32768;

/// The candidates over the latches in `cone` for a product whose twins of some array bit
/// (`A.memory[5][1]`, `B.memory[5][1]`) a valid simulated state shows different; none
/// otherwise. The simulated states are `latches` (per step, the value word of every latch)
/// and `valid` (per step, the runs whose constraints held so far).
pub fn stored_word_candidates(
    aig: &Aig,
    latches: &[Vec<u64>],
    valid: &[u64],
    cone: &[bool],
) -> Vec<Vec<Lit>> {
    let pairs = twin_pairs(aig, cone);
    let differs = |x: usize, y: usize| {
        latches
            .iter()
            .zip(valid)
            .any(|(step, &v)| (step[x] ^ step[y]) & v != 0)
    };
    let stored: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(x, y)| array_bit(aig, x) && differs(x, y))
        .collect();
    if stored.is_empty() {
        return Vec::new();
    }
    let (words, read_by) = words(aig, cone);
    let Some(g) = most_read(&words, &read_by) else {
        return Vec::new();
    };
    let states = States::new(g, latches, valid);
    let control: Vec<usize> = (0..aig.latches.len())
        .filter(|&k| {
            cone[aig.latches[k].lit.var() as usize] && !array_bit(aig, k) && !g.bits.contains(&k)
        })
        .collect();
    let flags: Vec<usize> = control
        .iter()
        .copied()
        .filter(|&k| {
            let name = aig.latches[k].name.as_str();
            register_of(name) == Some(name) && name.contains('.')
        })
        .collect();
    let flag_values = states.literals(latches, &flags, |_| u64::MAX);
    let mined = Mined {
        aig,
        g,
        states,
        latches,
        control,
        flags,
        flag_values,
    };
    let mut out = mined.state_facts();
    for &(x, y) in &pairs {
        if differs(x, y) {
            out.extend(mined.difference_facts(x, y));
        } else if !array_bit(aig, x) && reads_array(aig, x) {
            // A register loaded from a stored word (a read port's data) differs once a
            // differing word is read, which no run may show: per state, so that the search
            // finds the states in which it may differ.
            for v in mined.states.seen() {
                out.extend(equal_clauses(
                    aig.latches[x].lit,
                    aig.latches[y].lit,
                    &not_value(aig, g, v),
                ));
            }
        }
    }
    let mut twin = vec![None; aig.latches.len()];
    for &(x, y) in &pairs {
        twin[x] = Some(y);
        twin[y] = Some(x);
    }
    for &(x, y) in &stored {
        if out.len() >= MAX_STORED_CLAUSES {
            break;
        }
        let index = erase_index(aig, &words, &twin, x, y);
        out.extend(mined.index_bounds(&words, &index, x, y));
    }
    if out.len() < MAX_STORED_CLAUSES {
        out.extend(mined.flagged_equalities(&words));
    }
    out.truncate(MAX_STORED_CLAUSES);
    out
}

/// What the candidates are read off: the FSM register, the simulated states, the control
/// latches (in the cone, not array bits, not the FSM register) and the flags among them
/// (one-bit registers of a copy).
struct Mined<'a> {
    aig: &'a Aig,
    g: &'a Word,
    states: States,
    latches: &'a [Vec<u64>],
    control: Vec<usize>,
    flags: Vec<usize>,
    /// Per value of `g` and flag: whether a run shows it 1, and whether one shows it 0.
    flag_values: Vec<Vec<(bool, bool)>>,
}

impl Mined<'_> {
    /// `g = v → l` for each value `v` of `g` some run shows and each literal `l` of `control`
    /// that holds in every valid run with `g = v`; `g ≠ v` for the values no run shows.
    fn state_facts(&self) -> Vec<Vec<Lit>> {
        let (aig, g, states, control) = (self.aig, self.g, &self.states, &self.control[..]);
        let seen = states.literals(self.latches, control, |_| u64::MAX);
        let mut out = Vec::new();
        for (v, row) in seen.iter().enumerate() {
            let guard = not_value(aig, g, v);
            if !states.seen[v] {
                out.push(guard);
                continue;
            }
            for (&(one, zero), &k) in row.iter().zip(control) {
                if one != zero {
                    let mut c = guard.clone();
                    c.push(aig.latches[k].lit.xor(!one));
                    out.push(c);
                }
            }
        }
        out
    }

    /// `x ≠ x' ∧ g = v → l` for twins `x`, `x'`, each value `v` of `g` in which a run shows them
    /// different and each literal `l` of `control` that holds in every such run, unless it
    /// holds in every run that shows them different in any state (such a literal was not
    /// needed on the designs measured).
    fn difference_facts(&self, x: usize, y: usize) -> Vec<Vec<Lit>> {
        let (aig, g, states, control) = (self.aig, self.g, &self.states, &self.control[..]);
        let per_state = states.literals(self.latches, control, |step| step[x] ^ step[y]);
        let anywhere: Vec<(bool, bool)> = (0..control.len())
            .map(|i| {
                per_state
                    .iter()
                    .fold((false, false), |(o, z), row| (o || row[i].0, z || row[i].1))
            })
            .collect();
        let (lx, ly) = (aig.latches[x].lit, aig.latches[y].lit);
        let mut out = Vec::new();
        for (v, row) in per_state.iter().enumerate() {
            if !row.iter().any(|&(o, z)| o || z) {
                continue;
            }
            let guard = not_value(aig, g, v);
            for (i, &k) in control.iter().enumerate() {
                let (one, zero) = row[i];
                if k == x || k == y || one == zero || !(anywhere[i].0 && anywhere[i].1) {
                    continue;
                }
                let mut widened = guard.clone();
                widened.push(aig.latches[k].lit.xor(!one));
                out.extend(equal_clauses(lx, ly, &widened));
            }
        }
        out
    }

    /// Bounds while a stored word's twins `x`, `x'` differ, for each index `(r, c)` of the word
    /// ([`erase_index`]) in `x`'s copy and each register `s` of that copy with `r`'s width
    /// (`r` itself, and the counters it is loaded from): `s ≤ c` and `s ≤ c − 1` everywhere,
    /// and `s ≤ c − 1` per value of `g` that simulation shows, also with each flag of the copy
    /// either way (a state entered both before and after the write).
    fn index_bounds(
        &self,
        words: &[Word],
        index: &[(usize, usize)],
        x: usize,
        y: usize,
    ) -> Vec<Vec<Lit>> {
        let (aig, g, states, flags) = (self.aig, self.g, &self.states, &self.flags[..]);
        let (lx, ly) = (aig.latches[x].lit, aig.latches[y].lit);
        let copy = copy_of(aig, x);
        let own_flags: Vec<usize> = flags
            .iter()
            .copied()
            .filter(|&f| copy_of(aig, f) == copy)
            .collect();
        let mut out = Vec::new();
        for &(ir, c) in index {
            let r = &words[ir];
            if r.copy != copy || same_register(aig, r, g) {
                continue;
            }
            let full = (1usize << r.bits.len()) - 1;
            let like_r = words.iter().filter(|s| {
                s.copy == r.copy && s.bits.len() == r.bits.len() && !same_register(aig, s, g)
            });
            for s in like_r {
                let mut bounds: Vec<Vec<Lit>> = Vec::new();
                if c < full {
                    bounds.extend(at_most(aig, s, c));
                }
                if c == 0 {
                    bounds
                        .iter()
                        .for_each(|b| out.extend(equal_clauses(lx, ly, b)));
                    continue;
                }
                let below = at_most(aig, s, c - 1);
                bounds.extend(below.iter().cloned());
                for v in states.seen() {
                    for b in &below {
                        let mut guarded = b.clone();
                        guarded.extend(not_value(aig, g, v));
                        // Flags that take both values in state v (the others add nothing
                        // to the state's own facts).
                        let varying = own_flags.iter().filter(|&&f| {
                            let i = self.flags.iter().position(|&k| k == f).unwrap_or(0);
                            self.flag_values[v][i] == (true, true)
                        });
                        for &f in varying {
                            for phase in [false, true] {
                                let mut flagged = guarded.clone();
                                flagged.push(aig.latches[f].lit.xor(phase));
                                bounds.push(flagged);
                            }
                        }
                        bounds.push(guarded);
                    }
                }
                bounds
                    .iter()
                    .for_each(|b| out.extend(equal_clauses(lx, ly, b)));
            }
        }
        out
    }

    /// `g = v ∧ f → x_i = y_i` for two registers `x`, `y` of one copy with the same width, one
    /// of which takes the other's value, each value `v` of `g` in which some run shows them
    /// unequal, each flag `f` of the copy either way and each bit `i` that no run with `g = v`
    /// and that flag value shows unequal: a state entered from two places, one of which copied
    /// `y` into `x` and raised `f`.
    fn flagged_equalities(&self, words: &[Word]) -> Vec<Vec<Lit>> {
        let (aig, g, states, latches, flags) = (
            self.aig,
            self.g,
            &self.states,
            self.latches,
            &self.flags[..],
        );
        let lit = |k: usize| aig.latches[k].lit;
        // Per value of g and mask: the bits of x, y some run within the mask shows unequal.
        let unequal = |x: &Word, y: &Word, v: usize, within: &dyn Fn(&[u64]) -> u64| -> u32 {
            let mut bits = 0u32;
            for (step, masks) in latches.iter().zip(&states.masks) {
                let m = masks[v] & within(step);
                if m == 0 {
                    continue;
                }
                for (i, (&a, &b)) in x.bits.iter().zip(&y.bits).enumerate() {
                    if (step[a] ^ step[b]) & m != 0 {
                        bits |= 1 << i;
                    }
                }
            }
            bits
        };
        let mut out = Vec::new();
        for (ix, x) in words.iter().enumerate() {
            for y in words.iter().skip(ix + 1) {
                if y.copy != x.copy
                    || y.bits.len() != x.bits.len()
                    || x.bits == g.bits
                    || y.bits == g.bits
                    || !(copies(aig, x, y) || copies(aig, y, x))
                {
                    continue;
                }
                let all = (1u32 << x.bits.len()) - 1;
                for v in states.seen() {
                    if unequal(x, y, v, &|_| u64::MAX) == 0 {
                        continue;
                    }
                    for &f in flags.iter().filter(|&&f| copy_of(aig, f) == x.copy) {
                        for phase in [false, true] {
                            let on = |step: &[u64]| if phase { step[f] } else { !step[f] };
                            let shown = latches
                                .iter()
                                .zip(&states.masks)
                                .any(|(step, masks)| masks[v] & on(step) != 0);
                            let bits = unequal(x, y, v, &on);
                            if !shown || bits == all {
                                continue;
                            }
                            let mut guard = not_value(aig, g, v);
                            guard.push(lit(f).xor(phase));
                            for i in (0..x.bits.len()).filter(|i| bits >> i & 1 == 0) {
                                out.extend(equal_clauses(lit(x.bits[i]), lit(y.bits[i]), &guard));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Whether latch `k` is a bit of an array word (`memory[5][1]`), which belongs to no
/// register ([`register_of`]).
fn array_bit(aig: &Aig, k: usize) -> bool {
    register_of(&aig.latches[k].name).is_none()
}

/// Whether the next-state function of latch `k` reads a bit of an array word (through
/// gates only).
fn reads_array(aig: &Aig, k: usize) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![aig.latches[k].next.var()];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if let Node::And(p, q) = aig.node(v) {
            stack.push(p.var());
            stack.push(q.var());
        } else if let Some(j) = aig.latch_index(Lit::var_lit(v)) {
            if array_bit(aig, j) {
                return true;
            }
        }
    }
    false
}

/// Whether `a` is `b` or its twin (the same name after the copy's prefix).
fn same_register(aig: &Aig, a: &Word, b: &Word) -> bool {
    let rest = |w: &Word| {
        let name = &aig.latches[w.bits[0]].name;
        name.split_once('.')
            .map_or(name.as_str(), |(_, r)| r)
            .to_string()
    };
    a.bits.len() == b.bits.len() && rest(a) == rest(b)
}

/// The copy latch `k` belongs to (its name's prefix up to the first `.`).
fn copy_of(aig: &Aig, k: usize) -> &str {
    aig.latches[k].name.split_once('.').map_or("", |(c, _)| c)
}

/// The simulated runs per step and value of the FSM register `g`.
struct States {
    /// Per step, per value of `g`: the valid runs in which `g` has that value.
    masks: Vec<Vec<u64>>,
    /// Per value of `g`: whether some valid run shows it.
    seen: Vec<bool>,
}

impl States {
    fn new(g: &Word, latches: &[Vec<u64>], valid: &[u64]) -> Self {
        let values = 1usize << g.bits.len();
        let mut seen = vec![false; values];
        let masks = latches
            .iter()
            .zip(valid)
            .map(|(step, &ok)| {
                (0..values)
                    .map(|v| {
                        let m = g.bits.iter().enumerate().fold(ok, |m, (i, &k)| {
                            m & if v >> i & 1 == 1 { step[k] } else { !step[k] }
                        });
                        seen[v] |= m != 0;
                        m
                    })
                    .collect()
            })
            .collect();
        States { masks, seen }
    }

    /// The values of `g` some valid run shows.
    fn seen(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seen.len()).filter(|&v| self.seen[v])
    }

    /// Per value of `g` and latch of `of`: whether a run within `within` (a mask per step)
    /// shows the latch 1, and whether one shows it 0.
    fn literals(
        &self,
        latches: &[Vec<u64>],
        of: &[usize],
        within: impl Fn(&[u64]) -> u64,
    ) -> Vec<Vec<(bool, bool)>> {
        let mut acc = vec![vec![(0u64, 0u64); of.len()]; self.seen.len()];
        for (step, masks) in latches.iter().zip(&self.masks) {
            let w = within(step);
            for (v, &m) in masks.iter().enumerate() {
                let m = m & w;
                if m == 0 {
                    continue;
                }
                for (a, &k) in acc[v].iter_mut().zip(of) {
                    a.0 |= step[k] & m;
                    a.1 |= !step[k] & m;
                }
            }
        }
        acc.into_iter()
            .map(|row| row.into_iter().map(|(o, z)| (o != 0, z != 0)).collect())
            .collect()
    }
}

/// Where the difference between twins `x`, `x'` (an array bit: a stored word) is erased:
/// the registers that have one value `c` in every sampled state (uniformly random latches
/// and inputs, reachable or not, every other twin pair equal, `x ≠ x'`) whose successor has
/// `x = x'`. A word is erased where it is written: at its index.
fn erase_index(
    aig: &Aig,
    words: &[Word],
    twin: &[Option<usize>],
    x: usize,
    y: usize,
) -> Vec<(usize, usize)> {
    let mut rng = WordRng::new(0x5eed);
    // Per register: the one value seen so far (`Some(None)`: several).
    let mut at: Vec<Option<Option<usize>>> = vec![None; words.len()];
    let mut hits = 0usize;
    for _ in 0..ERASE_SAMPLES {
        let mut state: Vec<u64> = aig.latches.iter().map(|_| rng.next_word()).collect();
        for (k, t) in twin.iter().enumerate() {
            if let Some(t) = *t {
                if k < t {
                    state[t] = state[k];
                }
            }
        }
        state[y] = !state[x];
        let inputs: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
        let next = next_words(aig, &eval_words(aig, &inputs, &state));
        let mut erased = !(next[x] ^ next[y]);
        while erased != 0 {
            let bit = erased.trailing_zeros();
            erased &= erased - 1;
            hits += 1;
            for (r, w) in words.iter().enumerate() {
                let v = value(&state, w, bit);
                at[r] = match at[r] {
                    None => Some(Some(v)),
                    Some(Some(u)) if u == v => Some(Some(v)),
                    _ => Some(None),
                };
            }
        }
    }
    if hits < ERASE_HITS {
        return Vec::new();
    }
    at.iter()
        .enumerate()
        .filter_map(|(r, v)| v.flatten().map(|c| (r, c)))
        .collect()
}

/// `r ≤ c` as clauses over `r`'s bits: for each bit `i` that is 0 in `c`, not `r_i` while
/// every higher bit that is 1 in `c` is 1 in `r`.
fn at_most(aig: &Aig, r: &Word, c: usize) -> Vec<Vec<Lit>> {
    let lit = |k: usize| aig.latches[k].lit;
    let w = r.bits.len();
    (0..w)
        .filter(|&i| c >> i & 1 == 0)
        .map(|i| {
            std::iter::once(!lit(r.bits[i]))
                .chain(
                    (i + 1..w)
                        .filter(|&j| c >> j & 1 == 1)
                        .map(|j| !lit(r.bits[j])),
                )
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
