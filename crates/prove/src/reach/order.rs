//! The orders of the latches' BDD variables that BDD reachability tries in turn
//! (`docs/method.md` §7.9).
//!
//! A BDD's size depends on its variable order above all: the function `mem[addr]` of a
//! register file is small when the address comes first and exponential in the number of
//! words when it comes last. No static order suits every circuit, so the search starts
//! with the circuit's own latch order (hypermut's products list each register bit of the
//! two copies side by side, in declaration order) and, when a BDD outgrows its node limit,
//! starts over with an order that puts the latches read by the most next-state functions
//! (addresses, selectors, control flags) first, and then with the reversed latch order.

use hypermut_aig::{Aig, Lit, Node};

/// One order of the latches in the cone of influence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LatchOrder {
    /// The circuit's latch order.
    Circuit,
    /// Latches read by more next-state functions (and checked signals) first; ties in the
    /// circuit's order.
    MostReadFirst,
    /// The circuit's latch order reversed.
    Reversed,
}

impl LatchOrder {
    /// The orders a search tries, in turn, while BDDs outgrow the node limit.
    pub(crate) const ATTEMPTS: [LatchOrder; 3] = [
        LatchOrder::Circuit,
        LatchOrder::MostReadFirst,
        LatchOrder::Reversed,
    ];

    /// `latch_ids` (AIG latch indices, in the circuit's order) rearranged in this order;
    /// `checked` are the signals the search checks besides the next-state functions.
    pub(crate) fn arrange(self, aig: &Aig, latch_ids: &[usize], checked: &[Lit]) -> Vec<usize> {
        match self {
            LatchOrder::Circuit => latch_ids.to_vec(),
            LatchOrder::Reversed => latch_ids.iter().rev().copied().collect(),
            LatchOrder::MostReadFirst => {
                let readers = readers_per_latch(aig, latch_ids, checked);
                let mut order = latch_ids.to_vec();
                // Stable: ties keep the circuit's order.
                order.sort_by_key(|i| std::cmp::Reverse(readers[*i]));
                order
            }
        }
    }
}

/// Per AIG latch: how many of the next-state functions of `latch_ids` and of the signals
/// `checked` read it (within one step: through AND gates, not through latches).
fn readers_per_latch(aig: &Aig, latch_ids: &[usize], checked: &[Lit]) -> Vec<usize> {
    let nodes = aig.nodes();
    let mut readers = vec![0usize; aig.latches.len()];
    // The root that last visited each node: a node is counted once per root.
    let mut seen_by = vec![usize::MAX; nodes.len()];
    let roots = latch_ids
        .iter()
        .filter_map(|i| aig.latches.get(*i).map(|l| l.next))
        .chain(checked.iter().copied());
    let mut stack = Vec::new();
    for (r, root) in roots.enumerate() {
        stack.push(root.var() as usize);
        while let Some(v) = stack.pop() {
            if v >= nodes.len() || std::mem::replace(&mut seen_by[v], r) == r {
                continue;
            }
            match nodes[v] {
                Node::Latch(i) => {
                    if let Some(n) = readers.get_mut(i as usize) {
                        *n += 1;
                    }
                }
                Node::And(a, b) => {
                    stack.push(a.var() as usize);
                    stack.push(b.var() as usize);
                }
                Node::Const | Node::Input(_) => {}
            }
        }
    }
    readers
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::Reset;

    /// A latch `sel` choosing between latches `d0` and `d1`, all three loaded from an input:
    /// `sel` is read by both checked signals, each data latch by one.
    #[test]
    fn the_most_read_latch_comes_first_and_ties_keep_the_circuit_order() {
        let mut g = Aig::new();
        let d0 = g.add_latch("d0", Reset::Zero);
        let d1 = g.add_latch("d1", Reset::Zero);
        let sel = g.add_latch("sel", Reset::Zero);
        let i = g.add_input("i");
        g.set_next(d0, i);
        g.set_next(d1, i);
        g.set_next(sel, i);
        let a = g.and(sel, d0);
        let b = g.and(!sel, d1);
        let ids = [0, 1, 2];
        let checked = [a, b];
        assert_eq!(
            LatchOrder::MostReadFirst.arrange(&g, &ids, &checked),
            vec![2, 0, 1]
        );
        assert_eq!(
            LatchOrder::Circuit.arrange(&g, &ids, &checked),
            vec![0, 1, 2]
        );
        assert_eq!(
            LatchOrder::Reversed.arrange(&g, &ids, &checked),
            vec![2, 1, 0]
        );
    }
}
