//! DAG-aware cut rewriting (`docs/method.md` §7.7). Every AND node is visited once, in
//! topological order. For each of its cuts, the cut's function is re-synthesised
//! ([`Synth::candidates`]) and each candidate is priced against the circuit as it is: a gate
//! the structural hash table already holds is free, unless it lies in the node's maximum
//! fanout-free cone (which is what replacing the node deletes). The candidate saving the
//! most gates replaces the node when it saves at least one (or, with `zero_gain`, when it
//! changes the structure without adding gates).

use super::cuts::{cut_table, Cut, Cuts};
use super::net::Net;
use super::recipe::{PLit, Program, FIRST_GATE};
use super::synth::Synth;
use super::truth::{support, Tt, MAX_VARS, VARS};
use crate::graph::Lit;

/// Options of one rewriting pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RewriteOptions {
    /// Largest cut (at most 6).
    pub cut_size: usize,
    /// Cuts kept per node.
    pub cuts_per_node: usize,
    /// Also accept replacements that change the structure at no saving.
    pub zero_gain: bool,
}

impl Default for RewriteOptions {
    fn default() -> Self {
        RewriteOptions {
            cut_size: 4,
            cuts_per_node: 12,
            zero_gain: false,
        }
    }
}

/// Largest cone evaluated for a cut's function.
const MAX_CONE: usize = 64;

/// The best replacement found for one node.
struct Choice {
    gain: i64,
    leaves: Cut,
    /// The program, or `None` when the function is a single leaf literal or a constant.
    program: Option<Program>,
    /// For `program == None`: the literal (in leaf numbering: `Program` literals).
    lit: PLit,
}

/// Rewrites every node of `net` once (see the module documentation), with `cuts` made for
/// `opts` (kept between passes over the same network); returns the number of replacements.
pub fn rewrite_net(
    net: &mut Net,
    cuts: &mut Cuts,
    synth: &mut Synth,
    opts: &RewriteOptions,
) -> usize {
    let mut vals = Vec::new();
    let mut mffc = Vec::new();
    let mut mark: Vec<u32> = Vec::new();
    let mut stamp = 0u32;
    let mut changed = Vec::new();
    let mut replaced = 0;
    let mut node_cuts: Vec<Cut> = Vec::new();
    let mut scratch = Vec::new();
    let order: Vec<u32> = (0..net.num_vars()).filter(|&v| net.is_and(v)).collect();
    for n in order {
        // Only its own gate would go: a replacement saves nothing unless it needs no new
        // gate, which structural hashing has mostly seen to.
        if !net.is_and(n) || !net.owns_an_operand(n) {
            continue;
        }
        node_cuts.clear();
        node_cuts.extend(cuts.cuts(net, n).iter().skip(1));
        let mut best: Option<Choice> = None;
        for cut in &node_cuts {
            let Some(t) = cut_table(net, n, cut.leaves(), MAX_CONE, &mut vals) else {
                continue;
            };
            let (t, leaves) = shrink(t, cut.leaves());
            net.mffc(n, leaves.leaves(), &mut mffc);
            stamp += 1;
            if mark.len() < net.num_vars() as usize {
                mark.resize(net.num_vars() as usize, 0);
            }
            for &m in &mffc {
                mark[m as usize] = stamp;
            }
            let saved = mffc.len() as i64;
            let floor = best
                .as_ref()
                .map_or(if opts.zero_gain { 0 } else { 1 }, |b| b.gain + 1);
            if leaves.leaves().len() <= 1 {
                // Constant or a leaf literal: the whole cone goes.
                let lit = match leaves.leaves().len() {
                    0 => (t & 1) as PLit,
                    _ => Program::var(0) | (t != VARS[0]) as PLit,
                };
                if saved >= floor {
                    best = Some(Choice {
                        gain: saved,
                        leaves,
                        program: None,
                        lit,
                    });
                }
                continue;
            }
            for p in synth.candidates(t).iter() {
                let budget = saved - floor;
                if budget < 0 {
                    break;
                }
                let Some(added) = price(
                    net,
                    p,
                    leaves.leaves(),
                    n,
                    (&mark, stamp),
                    budget as usize,
                    &mut scratch,
                ) else {
                    continue;
                };
                let gain = saved - added as i64;
                if gain >= floor {
                    best = Some(Choice {
                        gain,
                        leaves,
                        program: Some(p.clone()),
                        lit: 0,
                    });
                }
            }
        }
        let Some(choice) = best else {
            continue;
        };
        let (r, created) = build(net, &choice);
        if r.var() == n {
            for c in created {
                net.kill_if_unused(c);
            }
            continue;
        }
        changed.clear();
        net.replace(n, r, &mut changed);
        for c in created {
            net.kill_if_unused(c);
        }
        for &c in &changed {
            cuts.invalidate(c);
        }
        replaced += 1;
    }
    replaced
}

/// `t` over the leaves it depends on (dropping the others, renumbering the variables).
fn shrink(t: Tt, leaves: &[u32]) -> (Tt, Cut) {
    let supp = support(t);
    if supp.count_ones() as usize == leaves.len() {
        return (t, Cut::from_leaves(leaves.iter().copied()));
    }
    let keep: Vec<usize> = (0..leaves.len()).filter(|i| supp >> i & 1 == 1).collect();
    let low = (1u32 << keep.len()) - 1;
    let mut out: Tt = 0;
    for m in 0..64u32 {
        // Variable j of the new table is variable keep[j] of the old one; the variables at
        // or above keep.len() are ignored (the table repeats).
        let old = keep
            .iter()
            .enumerate()
            .fold(0u32, |o, (j, &i)| o | ((m & low) >> j & 1) << i);
        out |= (t >> old & 1) << m;
    }
    (out, Cut::from_leaves(keep.iter().map(|&i| leaves[i])))
}

/// Number of gates placing `p` on `leaves` would add, counting gates that already exist
/// outside the MFFC (marked `stamp`) as free; `None` if it exceeds `budget` or one of its
/// gates is `n` itself (no change, or a replacement that would depend on `n`).
fn price(
    net: &Net,
    p: &Program,
    leaves: &[u32],
    n: u32,
    (mark, stamp): (&[u32], u32),
    budget: usize,
    gates: &mut Vec<Option<Lit>>,
) -> Option<usize> {
    let mut sig: [Option<Lit>; FIRST_GATE as usize] = [None; FIRST_GATE as usize];
    sig[0] = Some(Lit::FALSE);
    for (i, &l) in leaves.iter().enumerate().take(MAX_VARS) {
        sig[i + 1] = Some(Lit::var_lit(l));
    }
    gates.clear();
    let get = |gates: &[Option<Lit>], l: PLit| -> Option<Lit> {
        let s = (l >> 1) as usize;
        let base = if s < FIRST_GATE as usize {
            sig[s]
        } else {
            gates[s - FIRST_GATE as usize]
        };
        base.map(|x| x.xor(l & 1 == 1))
    };
    // A program reading a variable beyond the leaves cannot be placed.
    let reads_beyond = |l: PLit| {
        let s = (l >> 1) as usize;
        (1..FIRST_GATE as usize).contains(&s) && s > leaves.len()
    };
    if reads_beyond(p.out)
        || p.gates
            .iter()
            .any(|&(a, b)| reads_beyond(a) || reads_beyond(b))
    {
        return None;
    }
    let mut added = 0;
    for &(a, b) in &p.gates {
        let known = match (get(gates, a), get(gates, b)) {
            (Some(x), Some(y)) => net.lookup(x, y),
            _ => None,
        };
        match known {
            Some(l) if l.var() == n => return None,
            Some(l) if net.is_and(l.var()) && mark[l.var() as usize] == stamp => added += 1,
            Some(_) => {}
            None => added += 1,
        }
        if added > budget {
            return None;
        }
        gates.push(known);
    }
    Some(added)
}

/// Builds the chosen replacement; returns its literal and the nodes created.
fn build(net: &mut Net, c: &Choice) -> (Lit, Vec<u32>) {
    let leaf = |l: PLit, gates: &[Lit]| -> Lit {
        let s = (l >> 1) as usize;
        let base = if s == 0 {
            Lit::FALSE
        } else if s < FIRST_GATE as usize {
            Lit::var_lit(c.leaves.leaves()[s - 1])
        } else {
            gates[s - FIRST_GATE as usize]
        };
        base.xor(l & 1 == 1)
    };
    let Some(p) = &c.program else {
        return (leaf(c.lit, &[]), Vec::new());
    };
    let mut gates = Vec::with_capacity(p.gates.len());
    let before = net.num_vars();
    for &(a, b) in &p.gates {
        let (x, y) = (leaf(a, &gates), leaf(b, &gates));
        gates.push(net.and(x, y));
    }
    (leaf(p.out, &gates), (before..net.num_vars()).collect())
}
