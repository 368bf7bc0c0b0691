//! The agreement circuit of a conditional mutant: two copies that do NOT share their
//! nondeterminism, used to ask whether a test's inputs still kill the mutant when the tester
//! does not choose the nd values (`docs/method.md` §4.2).
//!
//! Copy A is the original (`mut = 0`), copy B the mutant (`mut = 1`). Inputs marked private
//! get one input per copy (`A.name`, `B.name`); the others are shared. Every constraint of
//! either copy is a constraint of the circuit, so a run of the circuit is a pair of behaviours.
//! The single bad property `agree` holds in frame k when the outputs of the two copies are
//! equal in frame k and in every frame before it: it is reachable within a test's frames
//! exactly when some original behaviour and some mutant behaviour answer the test alike.

use hypermut_aig::blast::Blasted;
use hypermut_aig::{Aig, Lit, Named, Node, Reset};

use crate::error::HyperError;

/// The agreement circuit and where each input of the conditional mutant went.
#[derive(Clone, Debug)]
pub struct Agreement {
    /// The circuit; its only bad property is `agree`.
    pub aig: Aig,
    /// Per input of the conditional mutant (in its input order): the input index in `aig`
    /// that copy A reads and the one copy B reads (the same index when shared).
    pub inputs: Vec<(usize, usize)>,
}

/// Builds the agreement circuit of the bit-blasted conditional mutant `c` with selector
/// latch `selector`; `private[i]` says whether input `i` of `c.aig` gets one input per copy.
pub fn agreement(c: &Blasted, selector: Lit, private: &[bool]) -> Result<Agreement, HyperError> {
    let g = &c.aig;
    if g.latch_index(selector).is_none() || selector.is_neg() {
        return Err(HyperError::NoSelector);
    }
    let mut p = Aig::new();
    let n = g.num_vars() as usize;
    let mut map_a = vec![Lit::FALSE; n];
    let mut map_b = vec![Lit::FALSE; n];
    let mut inputs = Vec::with_capacity(g.inputs.len());
    for (i, inp) in g.inputs.iter().enumerate() {
        let v = inp.lit.var() as usize;
        if private.get(i).copied().unwrap_or(false) {
            map_a[v] = p.add_input(format!("A.{}", inp.name));
            map_b[v] = p.add_input(format!("B.{}", inp.name));
            inputs.push((p.inputs.len() - 2, p.inputs.len() - 1));
        } else {
            let l = p.add_input(inp.name.clone());
            map_a[v] = l;
            map_b[v] = l;
            inputs.push((p.inputs.len() - 1, p.inputs.len() - 1));
        }
    }
    for l in &g.latches {
        let v = l.lit.var() as usize;
        if l.lit == selector {
            map_a[v] = Lit::FALSE;
            map_b[v] = Lit::TRUE;
        } else {
            map_a[v] = p.add_latch(format!("A.{}", l.name), l.reset);
            map_b[v] = p.add_latch(format!("B.{}", l.name), l.reset);
        }
    }
    let tr = |m: &[Lit], l: Lit| m[l.var() as usize].xor(l.is_neg());
    for v in 0..n {
        if let Node::And(a, b) = g.node(v as u32) {
            let (xa, ya) = (tr(&map_a, a), tr(&map_a, b));
            map_a[v] = p.and(xa, ya);
            let (xb, yb) = (tr(&map_b, a), tr(&map_b, b));
            map_b[v] = p.and(xb, yb);
        }
    }
    for l in &g.latches {
        if l.lit == selector {
            continue;
        }
        let v = l.lit.var() as usize;
        let (na, nb) = (tr(&map_a, l.next), tr(&map_b, l.next));
        p.set_next(map_a[v], na);
        p.set_next(map_b[v], nb);
    }
    for con in &g.constraints {
        for (copy, m) in [("A", &map_a), ("B", &map_b)] {
            let lit = tr(m, con.lit);
            p.constraints.push(Named {
                lit,
                name: format!("{copy}.{}", con.name),
            });
        }
    }
    let mut equal = Vec::new();
    for o in &c.outputs {
        for b in &o.bits {
            let (a, b) = (tr(&map_a, *b), tr(&map_b, *b));
            let same = p.xor(a, b);
            equal.push(!same);
        }
    }
    let equal_now = p.and_all(equal);
    let differed = p.add_latch("differed", Reset::Zero);
    let differs_now = p.or(differed, !equal_now);
    p.set_next(differed, differs_now);
    let agree = p.and(equal_now, !differed);
    p.bad.push(Named {
        lit: agree,
        name: "agree".into(),
    });
    Ok(Agreement { aig: p, inputs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MutantProduct;
    use hypermut_aig::simulate;
    use hypermut_mutate::{enumerate, Operator};

    /// `out` copies a choice between 0 and 1 when `go`, else 0.
    const CHOICE: &str = "-- @output out\nMODULE main\nIVAR go : boolean;\nVAR out : 0..2;\n\
        ASSIGN init(out) := 0; next(out) := case go : {0, 1}; TRUE : 0; esac;\n";

    #[test]
    fn private_inputs_let_the_copies_choose_apart() {
        let sys = hypermut_smv::parse_smv("c.smv", CHOICE).expect("model");
        let at = CHOICE.find("TRUE : 0").expect("the default branch") + "TRUE : ".len();
        let m = enumerate(&sys, &Operator::ALL)
            .into_iter()
            .find(|m| m.span.start as usize == at && m.replacement == "1")
            .expect("the mutant `TRUE : 1`");
        let mp = MutantProduct::build(&sys, &m).expect("product");
        let c = &mp.blasted;
        let nd: Vec<bool> = c
            .aig
            .inputs
            .iter()
            .map(|i| !i.name.starts_with("go"))
            .collect();
        assert!(nd.iter().any(|b| *b), "the choice became an nd input");
        let ag = agreement(c, mp.selector, &nd).expect("circuit");
        assert_eq!(
            ag.aig.inputs.len(),
            c.aig.inputs.len() + nd.iter().filter(|b| **b).count()
        );
        // go = 0 in frame 0: out becomes 0 in the original and 1 in the mutant in frame 1.
        let go = ag.inputs[nd.iter().position(|b| !*b).expect("go")].0;
        let frames: Vec<Vec<Option<bool>>> = (0..2)
            .map(|_| {
                let mut v = vec![Some(false); ag.aig.inputs.len()];
                v[go] = Some(false);
                v
            })
            .collect();
        let init = vec![None; ag.aig.latches.len()];
        let trace = simulate(&ag.aig, &init, &frames);
        let agree: Vec<bool> = trace.frames.iter().map(|f| f.bad[0]).collect();
        assert_eq!(agree, vec![true, false], "agree in frame 0, not in frame 1");
    }
}
