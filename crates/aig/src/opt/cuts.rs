//! Cut enumeration on a [`Net`] (`docs/method.md` §7.7): a cut of node `v` is a set of at
//! most `k` nodes such that every path from an input to `v` passes through one of them.
//! Each node's cuts are the merges of its operands' cuts, without dominated ones, at most
//! `limit` of them, computed when first asked for; a node whose operands change gets new
//! ones. A cut's function is computed when it is used, by evaluating the cone between the
//! node and the leaves as it is at that moment, which also checks that the cut is still one.

use super::net::Net;
use super::truth::{Tt, MAX_VARS, VARS};

/// A set of at most [`MAX_VARS`] leaf variables, sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    len: u8,
    leaves: [u32; MAX_VARS],
    /// Bit `l mod 64` set for every leaf `l`: a quick subset and size filter.
    sig: u64,
}

impl Cut {
    /// The cut `{v}`.
    pub fn trivial(v: u32) -> Cut {
        let mut leaves = [0; MAX_VARS];
        leaves[0] = v;
        Cut {
            len: 1,
            leaves,
            sig: 1 << (v % 64),
        }
    }

    /// The cut of the given leaves (sorted, at most [`MAX_VARS`]; extra ones are dropped).
    pub fn from_leaves(leaves: impl IntoIterator<Item = u32>) -> Cut {
        let mut c = Cut {
            len: 0,
            leaves: [0; MAX_VARS],
            sig: 0,
        };
        for l in leaves.into_iter().take(MAX_VARS) {
            c.leaves[c.len as usize] = l;
            c.len += 1;
            c.sig |= 1 << (l % 64);
        }
        c
    }

    /// The leaves, sorted.
    pub fn leaves(&self) -> &[u32] {
        &self.leaves[..self.len as usize]
    }

    /// The union of two cuts, if it has at most `k` leaves.
    fn merge(a: &Cut, b: &Cut, k: usize) -> Option<Cut> {
        let sig = a.sig | b.sig;
        if sig.count_ones() as usize > k {
            return None;
        }
        let (x, y) = (a.leaves(), b.leaves());
        let mut out = [0u32; MAX_VARS];
        let (mut i, mut j, mut n) = (0, 0, 0);
        while i < x.len() || j < y.len() {
            let next = match (x.get(i), y.get(j)) {
                (Some(&p), Some(&q)) if p == q => {
                    i += 1;
                    j += 1;
                    p
                }
                (Some(&p), Some(&q)) if p < q => {
                    i += 1;
                    p
                }
                (Some(&p), None) => {
                    i += 1;
                    p
                }
                (_, Some(&q)) => {
                    j += 1;
                    q
                }
                (None, None) => break,
            };
            if n == k {
                return None;
            }
            out[n] = next;
            n += 1;
        }
        Some(Cut {
            len: n as u8,
            leaves: out,
            sig,
        })
    }

    /// Whether every leaf of `self` is a leaf of `other`.
    fn subset_of(&self, other: &Cut) -> bool {
        let o = other.leaves();
        self.len <= other.len
            && self.sig & !other.sig == 0
            && self.leaves().iter().all(|l| o.binary_search(l).is_ok())
    }
}

/// The cuts of the nodes of one [`Net`].
pub struct Cuts {
    k: usize,
    limit: usize,
    sets: Vec<Option<Vec<Cut>>>,
    stack: Vec<u32>,
}

impl Cuts {
    /// Cuts of at most `k` leaves (`k ≤ MAX_VARS`), at most `limit` per node besides the
    /// trivial one.
    pub fn new(k: usize, limit: usize) -> Cuts {
        Cuts {
            k: k.min(MAX_VARS),
            limit,
            sets: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Forgets the cuts of `v` (its operands changed).
    pub fn invalidate(&mut self, v: u32) {
        if let Some(s) = self.sets.get_mut(v as usize) {
            *s = None;
        }
    }

    /// The cuts of `v`, the trivial cut first.
    pub fn cuts(&mut self, net: &Net, v: u32) -> &[Cut] {
        if self.sets.len() < net.num_vars() as usize {
            self.sets.resize(net.num_vars() as usize, None);
        }
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(v);
        while let Some(&x) = stack.last() {
            if self.sets[x as usize].is_some() {
                stack.pop();
                continue;
            }
            if !net.is_and(x) {
                self.sets[x as usize] = Some(vec![Cut::trivial(x)]);
                stack.pop();
                continue;
            }
            let [a, b] = net.fanins(x).map(|l| l.var());
            let (has_a, has_b) = (
                self.sets[a as usize].is_some(),
                self.sets[b as usize].is_some(),
            );
            if has_a && has_b {
                let set = self.merged(net, x, a, b);
                self.sets[x as usize] = Some(set);
                stack.pop();
            } else {
                if !has_a {
                    stack.push(a);
                }
                if !has_b {
                    stack.push(b);
                }
            }
        }
        self.stack = stack;
        self.sets[v as usize].as_deref().unwrap_or(&[])
    }

    fn merged(&self, net: &Net, x: u32, a: u32, b: u32) -> Vec<Cut> {
        let empty = Vec::new();
        let ca = self.sets[a as usize].as_ref().unwrap_or(&empty);
        let cb = self.sets[b as usize].as_ref().unwrap_or(&empty);
        let mut out = vec![Cut::trivial(x)];
        for p in ca {
            for q in cb {
                let Some(c) = Cut::merge(p, q, self.k) else {
                    continue;
                };
                if c.leaves().iter().any(|&l| net.is_dead(l)) {
                    continue;
                }
                if out[1..].iter().any(|e| e.subset_of(&c)) {
                    continue;
                }
                out.retain(|e| e.leaves() == [x] || !c.subset_of(e));
                out.push(c);
            }
        }
        out[1..].sort_by_key(|c| std::cmp::Reverse(c.len));
        out.truncate(self.limit + 1);
        out
    }
}

/// The function of `v` over `leaves` (leaf `i` is variable `i`), by evaluating the cone
/// between them as it is now; `None` if `leaves` is not a cut of `v` (a path reaches an
/// input, latch or constant that is not a leaf) or the cone has more than `max_cone` nodes.
pub fn cut_table(
    net: &Net,
    v: u32,
    leaves: &[u32],
    max_cone: usize,
    vals: &mut Vec<(u32, Tt)>,
) -> Option<Tt> {
    vals.clear();
    vals.extend(leaves.iter().zip(VARS).map(|(&l, t)| (l, t)));
    let get = |vals: &[(u32, Tt)], x: u32| vals.iter().find(|p| p.0 == x).map(|p| p.1);
    let mut stack = vec![v];
    while let Some(&x) = stack.last() {
        if get(vals, x).is_some() {
            stack.pop();
            continue;
        }
        if !net.is_and(x) || vals.len() > max_cone + leaves.len() {
            return None;
        }
        let [a, b] = net.fanins(x);
        match (get(vals, a.var()), get(vals, b.var())) {
            (Some(ta), Some(tb)) => {
                let neg = |t: Tt, l: crate::graph::Lit| if l.is_neg() { !t } else { t };
                vals.push((x, neg(ta, a) & neg(tb, b)));
                stack.pop();
            }
            (ta, tb) => {
                if stack.len() > max_cone + 2 {
                    return None;
                }
                if ta.is_none() {
                    stack.push(a.var());
                }
                if tb.is_none() {
                    stack.push(b.var());
                }
            }
        }
    }
    get(vals, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Aig;

    /// Every cut of every node is a cut whose table agrees with evaluating the node over all
    /// assignments of the leaves by brute force.
    #[test]
    fn cuts_are_cuts_and_tables_are_right() {
        let mut g = Aig::new();
        let x: Vec<_> = (0..5).map(|i| g.add_input(format!("x{i}"))).collect();
        let s1 = g.xor(x[0], x[1]);
        let s2 = g.ite(x[2], s1, x[3]);
        let s3 = g.or(s2, x[4]);
        let s4 = g.and(s3, !s1);
        g.outputs.push(crate::graph::Named {
            lit: s4,
            name: "o".into(),
        });
        let net = Net::from_aig(&g);
        let mut cuts = Cuts::new(4, 20);
        let mut vals = Vec::new();
        let ands: Vec<u32> = (0..net.num_vars()).filter(|&v| net.is_and(v)).collect();
        let mut seen = 0;
        for &v in &ands {
            for c in cuts.cuts(&net, v).to_vec() {
                let t = cut_table(&net, v, c.leaves(), 64, &mut vals).expect("a cut");
                // Brute force: evaluate the whole network for each leaf assignment by
                // enumerating every input assignment and grouping by the leaf values.
                for m in 0..32u32 {
                    let mut val = vec![false; net.num_vars() as usize];
                    for (i, l) in x.iter().enumerate() {
                        val[l.var() as usize] = m >> i & 1 == 1;
                    }
                    for w in 0..net.num_vars() {
                        if net.is_and(w) {
                            let [a, b] = net.fanins(w);
                            let lv = |l: crate::graph::Lit| val[l.var() as usize] ^ l.is_neg();
                            val[w as usize] = lv(a) && lv(b);
                        }
                    }
                    let idx = c
                        .leaves()
                        .iter()
                        .enumerate()
                        .fold(0, |k, (i, l)| k | (val[*l as usize] as u32) << i);
                    assert_eq!(t >> idx & 1 == 1, val[v as usize], "node {v} cut {c:?}");
                }
                seen += 1;
            }
        }
        assert!(seen > ands.len(), "non-trivial cuts were found");
    }
}
