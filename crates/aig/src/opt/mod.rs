//! Logic optimisation of AIGs (`docs/method.md` §7.7): fewer AND gates, the same circuit
//! seen from outside. Every pass keeps the inputs and latches (order, names, resets) and the
//! outputs, bad properties, constraints, justice and fairness literals (order, names), and
//! keeps every root combinationally equivalent — the function of each root over the inputs
//! and latch outputs is unchanged — so that any state, reachable or not, behaves the same.
//!
//! * [`cleanup`]: structural hashing, constant folding, removal of logic no root uses;
//! * [`balance`]: multi-input ANDs rebuilt as trees of least depth;
//! * [`rewrite`]: DAG-aware rewriting of cuts with re-synthesised functions.
//!
//! [`optimize`] runs them in rounds until a round gains nothing. SAT sweeping, which merges
//! nodes proven equivalent, needs a SAT solver and lives in `hypermut-prove`.

mod balance;
mod cuts;
mod isop;
mod net;
mod rebuild;
mod recipe;
mod rewrite;
mod synth;
mod truth;

#[cfg(test)]
mod tests;

pub use balance::balance;
pub use rebuild::well_formed;
pub use rewrite::RewriteOptions;

use crate::graph::{Aig, Lit, Node};
use cuts::Cuts;
use net::Net;
use rebuild::Rebuild;
use synth::Synth;

/// Options of [`optimize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptOptions {
    /// Most rounds of balancing and rewriting (each round stops the loop if it saves
    /// nothing).
    pub rounds: usize,
    /// Largest cut of an extra rewriting pass per round (5 or 6; larger cuts restructure
    /// bigger cones but cost more time), or 0 for none.
    pub large_cut: usize,
    /// Whether each round ends with a pass that also accepts replacements of zero gain
    /// (they restructure the circuit for the next round) and a final ordinary pass.
    pub zero_gain: bool,
}

impl Default for OptOptions {
    fn default() -> Self {
        OptOptions {
            rounds: 2,
            large_cut: 0,
            zero_gain: false,
        }
    }
}

/// `aig` structurally hashed and constant-folded, without logic no root uses.
pub fn cleanup(aig: &Aig) -> Aig {
    if !well_formed(aig) {
        return aig.clone();
    }
    Net::from_aig(aig)
        .to_aig(aig)
        .unwrap_or_else(|| aig.clone())
}

/// One pass of DAG-aware cut rewriting (see [`RewriteOptions`]).
pub fn rewrite(aig: &Aig, opts: &RewriteOptions) -> Aig {
    rewrite_with(aig, &mut Synth::new(), std::slice::from_ref(opts))
}

/// Rewriting passes one after the other on one network (each with fresh cuts: the cuts of
/// a pass before are mostly stale).
fn rewrite_with(aig: &Aig, synth: &mut Synth, passes: &[RewriteOptions]) -> Aig {
    if !well_formed(aig) {
        return aig.clone();
    }
    let mut net = Net::from_aig(aig);
    for pass in passes {
        let mut cuts = Cuts::new(pass.cut_size, pass.cuts_per_node);
        rewrite::rewrite_net(&mut net, &mut cuts, synth, pass);
    }
    net.to_aig(aig).unwrap_or_else(|| aig.clone())
}

/// The structural optimisation script: cleanup, then rounds of balancing, rewriting with
/// 4-input cuts, optionally rewriting with larger cuts, and optionally rewriting that
/// accepts changes of zero gain followed by ordinary rewriting, until a round saves nothing
/// or `opts.rounds` are done. Never returns more gates
/// than the cleaned-up input.
pub fn optimize(aig: &Aig, opts: &OptOptions) -> Aig {
    if !well_formed(aig) {
        return aig.clone();
    }
    let mut synth = Synth::new();
    let mut best = cleanup(aig);
    let small = RewriteOptions::default();
    let large = RewriteOptions {
        cut_size: opts.large_cut.clamp(4, truth::MAX_VARS),
        cuts_per_node: 8,
        zero_gain: false,
    };
    let zero = RewriteOptions {
        zero_gain: true,
        ..small
    };
    let mut script = vec![small];
    if opts.large_cut > small.cut_size {
        script.push(large);
    }
    if opts.zero_gain {
        script.extend([zero, small]);
    }
    for _ in 0..opts.rounds {
        let cur = rewrite_with(&balance(&best), &mut synth, &script);
        if cur.num_ands() >= best.num_ands() {
            break;
        }
        best = cur;
    }
    best
}

/// Copies `aig` gate by gate in variable order: `gate(g, images, v, a, b)` returns the image
/// of AND node `v` in the new circuit `g`, given the images `a` and `b` of its operands
/// (`g.and(a, b)`, or any literal of `g` equivalent to it). `images[u]` is the image of every
/// variable `u < v`. Inputs, latches and roots are copied with their names and order;
/// logic no root uses is dropped at the end. Returns `aig` unchanged if it is not
/// [`well_formed`] or the images make the copy malformed.
pub fn map_gates(aig: &Aig, mut gate: impl FnMut(&mut Aig, &[Lit], u32, Lit, Lit) -> Lit) -> Aig {
    if !well_formed(aig) {
        return aig.clone();
    }
    let mut rb = Rebuild::start(aig);
    let mut images = vec![Lit::FALSE; aig.num_vars() as usize];
    for (v, node) in aig.nodes().iter().enumerate() {
        images[v] = match *node {
            Node::Const => Lit::FALSE,
            Node::Input(_) | Node::Latch(_) => rb.lit(Lit::var_lit(v as u32)),
            Node::And(a, b) => {
                let (x, y) = (
                    images[a.var() as usize].xor(a.is_neg()),
                    images[b.var() as usize].xor(b.is_neg()),
                );
                let l = gate(&mut rb.g, &images[..v], v as u32, x, y);
                rb.set(v as u32, l);
                l
            }
        };
    }
    let out = rb.finish(aig);
    if well_formed(&out) {
        cleanup(&out)
    } else {
        aig.clone()
    }
}
