//! Sequential miter of two AIGs whose inputs and outputs are matched by name.
//!
//! Used to check that two circuits for the same design (e.g. hypermut's and yosys's AIGER of
//! a Verilog design) are sequentially equivalent: both copies read the same value for every
//! input name they share, keep their own latches (with their own reset values), and the
//! single bad property `mismatch` holds when some output present in both differs. An input
//! only one side has stays a free input of the miter; outputs only one side has are not
//! compared (they are listed so that callers can report them). Bad properties, justice and
//! fairness sections of the sides are dropped; invariant constraints of both sides are kept.

use std::collections::HashMap;

use hypermut_aig::{Aig, Lit, Named, Node};

/// The miter and how the two sides were matched.
#[derive(Clone, Debug)]
pub struct Miter {
    /// The miter: left inputs first (shared ones under their name), then the inputs only the
    /// right side has; latches `L.<name>` then `R.<name>`; `bad[0]` is `mismatch`; one output
    /// `mismatch` as well (for tools that read old-style AIGER).
    pub aig: Aig,
    /// Output names compared (in the left side's order).
    pub matched_outputs: Vec<String>,
    /// Outputs only the left side has (not compared).
    pub left_only_outputs: Vec<String>,
    /// Outputs only the right side has (not compared).
    pub right_only_outputs: Vec<String>,
    /// Input names both sides have.
    pub matched_inputs: Vec<String>,
    /// Inputs only the left side has.
    pub left_only_inputs: Vec<String>,
    /// Inputs only the right side has.
    pub right_only_inputs: Vec<String>,
}

/// Why two AIGs cannot be mitered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MiterError {
    /// An input or output has no name, so it cannot be matched.
    #[error("{side} {what} #{index} has no name")]
    Unnamed {
        /// `left` or `right`.
        side: &'static str,
        /// `input` or `output`.
        what: &'static str,
        /// Its position.
        index: usize,
    },
    /// Two inputs or two outputs of one side have the same name.
    #[error("{side} {what} name `{name}` occurs twice")]
    Duplicate {
        /// `left` or `right`.
        side: &'static str,
        /// `input` or `output`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// No output name occurs on both sides: there is nothing to compare.
    #[error("the two circuits have no output name in common")]
    NoCommonOutput,
}

/// Checks that names are present and unique.
fn names<'a>(
    items: impl Iterator<Item = &'a str>,
    side: &'static str,
    what: &'static str,
) -> Result<Vec<String>, MiterError> {
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (index, n) in items.enumerate() {
        if n.is_empty() {
            return Err(MiterError::Unnamed { side, what, index });
        }
        if seen.insert(n.to_string(), index).is_some() {
            return Err(MiterError::Duplicate {
                side,
                what,
                name: n.to_string(),
            });
        }
        out.push(n.to_string());
    }
    Ok(out)
}

/// Copies the ANDs, latches' next-state functions and constraints of `g` into `m`, given the
/// images of its inputs (`map` must hold them; latches are created here with `prefix`).
fn copy_side(m: &mut Aig, g: &Aig, map: &mut [Lit], prefix: &str) {
    for l in &g.latches {
        map[l.lit.var() as usize] = m.add_latch(format!("{prefix}{}", l.name), l.reset);
    }
    let tr = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
    for v in 0..g.num_vars() {
        if let Node::And(a, b) = g.node(v) {
            let (x, y) = (tr(map, a), tr(map, b));
            map[v as usize] = m.and(x, y);
        }
    }
    for l in &g.latches {
        let next = tr(map, l.next);
        m.set_next(map[l.lit.var() as usize], next);
    }
    for c in &g.constraints {
        let lit = tr(map, c.lit);
        m.constraints.push(Named {
            lit,
            name: format!("{prefix}{}", c.name),
        });
    }
}

/// Builds the miter of `left` and `right` (see the module documentation).
pub fn miter(left: &Aig, right: &Aig) -> Result<Miter, MiterError> {
    let lin = names(left.inputs.iter().map(|i| i.name.as_str()), "left", "input")?;
    let rin = names(
        right.inputs.iter().map(|i| i.name.as_str()),
        "right",
        "input",
    )?;
    let lout = names(
        left.outputs.iter().map(|o| o.name.as_str()),
        "left",
        "output",
    )?;
    let rout = names(
        right.outputs.iter().map(|o| o.name.as_str()),
        "right",
        "output",
    )?;
    let mut m = Aig::new();
    let mut lmap = vec![Lit::FALSE; left.num_vars() as usize];
    let mut rmap = vec![Lit::FALSE; right.num_vars() as usize];
    let mut by_name: HashMap<&str, Lit> = HashMap::new();
    for (inp, name) in left.inputs.iter().zip(&lin) {
        let l = m.add_input(name.clone());
        lmap[inp.lit.var() as usize] = l;
        by_name.insert(name, l);
    }
    let mut matched_inputs = Vec::new();
    let mut right_only_inputs = Vec::new();
    for (inp, name) in right.inputs.iter().zip(&rin) {
        let l = match by_name.get(name.as_str()) {
            Some(l) => {
                matched_inputs.push(name.clone());
                *l
            }
            None => {
                right_only_inputs.push(name.clone());
                m.add_input(name.clone())
            }
        };
        rmap[inp.lit.var() as usize] = l;
    }
    let left_only_inputs = lin.iter().filter(|n| !rin.contains(n)).cloned().collect();
    copy_side(&mut m, left, &mut lmap, "L.");
    copy_side(&mut m, right, &mut rmap, "R.");
    let rpos: HashMap<&str, usize> = rout
        .iter()
        .enumerate()
        .map(|(k, n)| (n.as_str(), k))
        .collect();
    let tr = |map: &[Lit], l: Lit| map[l.var() as usize].xor(l.is_neg());
    let mut diffs = Vec::new();
    let mut matched_outputs = Vec::new();
    let mut left_only_outputs = Vec::new();
    for (o, name) in left.outputs.iter().zip(&lout) {
        match rpos.get(name.as_str()) {
            Some(k) => {
                let a = tr(&lmap, o.lit);
                let b = tr(&rmap, right.outputs[*k].lit);
                diffs.push(m.xor(a, b));
                matched_outputs.push(name.clone());
            }
            None => left_only_outputs.push(name.clone()),
        }
    }
    if matched_outputs.is_empty() {
        return Err(MiterError::NoCommonOutput);
    }
    let right_only_outputs = rout.iter().filter(|n| !lout.contains(n)).cloned().collect();
    let bad = m.or_all(diffs);
    m.bad.push(Named {
        lit: bad,
        name: "mismatch".into(),
    });
    m.outputs.push(Named {
        lit: bad,
        name: "mismatch".into(),
    });
    Ok(Miter {
        aig: m,
        matched_outputs,
        left_only_outputs,
        right_only_outputs,
        matched_inputs,
        left_only_inputs,
        right_only_inputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{simulate, Reset};

    /// `o = a op b`, with an extra input `extra` on request.
    fn comb(op: fn(&mut Aig, Lit, Lit) -> Lit, swap: bool, extra: bool) -> Aig {
        let mut g = Aig::new();
        let (a, b) = if swap {
            let b = g.add_input("b");
            let a = g.add_input("a");
            (a, b)
        } else {
            let a = g.add_input("a");
            let b = g.add_input("b");
            (a, b)
        };
        if extra {
            g.add_input("extra");
        }
        let o = op(&mut g, a, b);
        g.outputs.push(Named {
            lit: o,
            name: "o".into(),
        });
        g
    }

    #[test]
    fn inputs_are_matched_by_name_not_position() {
        let l = comb(|g, a, b| g.and(a, !b), false, false);
        let r = comb(|g, a, b| g.and(a, !b), true, true);
        let m = miter(&l, &r).unwrap();
        assert_eq!(m.matched_inputs, vec!["b".to_string(), "a".to_string()]);
        assert_eq!(m.right_only_inputs, vec!["extra".to_string()]);
        // Identical combinational functions hash to the same node: no mismatch possible.
        assert_eq!(m.aig.bad[0].lit, Lit::FALSE);
    }

    #[test]
    fn different_functions_mismatch_on_some_input() {
        let l = comb(|g, a, b| g.and(a, b), false, false);
        let r = comb(|g, a, b| g.or(a, b), false, false);
        let m = miter(&l, &r).unwrap();
        let mut seen = Vec::new();
        for (a, b) in [(false, false), (true, false), (false, true), (true, true)] {
            let t = simulate(&m.aig, &[], &[vec![Some(a), Some(b)]]);
            seen.push(t.frames[0].bad[0]);
        }
        assert_eq!(seen, vec![false, true, true, false]);
    }

    #[test]
    fn latches_stay_separate_and_keep_resets() {
        // A toggle starting at 0 versus one starting at 1: they differ in every frame.
        let toggle = |reset| {
            let mut g = Aig::new();
            let q = g.add_latch("q", reset);
            g.set_next(q, !q);
            g.outputs.push(Named {
                lit: q,
                name: "q".into(),
            });
            g
        };
        let m = miter(&toggle(Reset::Zero), &toggle(Reset::One)).unwrap();
        assert_eq!(m.aig.latches.len(), 2);
        assert_eq!(m.aig.latches[0].name, "L.q");
        let t = simulate(&m.aig, &[], &[vec![], vec![], vec![]]);
        assert!(t.frames.iter().all(|f| f.bad[0]));
        let same = miter(&toggle(Reset::Zero), &toggle(Reset::Zero)).unwrap();
        let t = simulate(&same.aig, &[], &[vec![], vec![], vec![]]);
        assert!(t.frames.iter().all(|f| !f.bad[0]));
    }

    #[test]
    fn unmatched_outputs_are_reported_and_names_checked() {
        let mut l = comb(|g, a, b| g.and(a, b), false, false);
        let r = comb(|g, a, b| g.and(a, b), false, false);
        let extra = l.inputs[0].lit;
        l.outputs.push(Named {
            lit: extra,
            name: "p".into(),
        });
        let m = miter(&l, &r).unwrap();
        assert_eq!(m.left_only_outputs, vec!["p".to_string()]);
        let mut bad = l.clone();
        bad.outputs[1].name = "o".into();
        assert!(matches!(
            miter(&bad, &r),
            Err(MiterError::Duplicate { side: "left", .. })
        ));
        let mut unnamed = r.clone();
        unnamed.inputs[0].name.clear();
        assert!(matches!(
            miter(&l, &unnamed),
            Err(MiterError::Unnamed { .. })
        ));
        let mut other = r.clone();
        other.outputs[0].name = "z".into();
        assert_eq!(miter(&l, &other).unwrap_err(), MiterError::NoCommonOutput);
    }
}
