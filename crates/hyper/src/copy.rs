//! One side of the conditional mutant as a circuit of its own: the selector latch `mut`
//! replaced by a constant, so that the original (`mut = 0`) or the mutant (`mut = 1`) can be
//! simulated or unrolled alone (the allowed outputs of a test step, `docs/method.md` §4.1.1).

use hypermut_aig::blast::Blasted;
use hypermut_aig::{Aig, Lit, Named, Node};

use crate::error::HyperError;

/// The original or the mutant alone, and where the IR outputs went.
#[derive(Clone, Debug)]
pub struct FixedCopy {
    /// The circuit: the inputs of the conditional mutant in the same order (input `i` here is
    /// input `i` there), its latches in the same order without the selector, and all its
    /// constraints. Its AIGER outputs are the output bits, output after output, LSB first.
    pub aig: Aig,
    /// Per IR output (in [`Blasted::outputs`] order): its bits in `aig`, LSB first.
    pub outputs: Vec<Vec<Lit>>,
}

/// The conditional mutant `c` with its selector latch `selector` fixed to `mutant`: the
/// original for `false`, the mutant for `true`.
pub fn fixed_copy(c: &Blasted, selector: Lit, mutant: bool) -> Result<FixedCopy, HyperError> {
    let g = &c.aig;
    if g.latch_index(selector).is_none() || selector.is_neg() {
        return Err(HyperError::NoSelector);
    }
    let mut p = Aig::new();
    let mut map = vec![Lit::FALSE; g.num_vars() as usize];
    for inp in &g.inputs {
        map[inp.lit.var() as usize] = p.add_input(inp.name.clone());
    }
    for l in &g.latches {
        map[l.lit.var() as usize] = if l.lit == selector {
            Lit::constant(mutant)
        } else {
            p.add_latch(l.name.clone(), l.reset)
        };
    }
    let tr = |m: &[Lit], l: Lit| m[l.var() as usize].xor(l.is_neg());
    for v in 0..map.len() {
        if let Node::And(a, b) = g.node(v as u32) {
            let (x, y) = (tr(&map, a), tr(&map, b));
            map[v] = p.and(x, y);
        }
    }
    for l in g.latches.iter().filter(|l| l.lit != selector) {
        let next = tr(&map, l.next);
        p.set_next(map[l.lit.var() as usize], next);
    }
    for con in &g.constraints {
        p.constraints.push(Named {
            lit: tr(&map, con.lit),
            name: con.name.clone(),
        });
    }
    let outputs: Vec<Vec<Lit>> = c
        .outputs
        .iter()
        .map(|o| o.bits.iter().map(|b| tr(&map, *b)).collect())
        .collect();
    for (o, bits) in c.outputs.iter().zip(&outputs) {
        for (i, lit) in bits.iter().enumerate() {
            let name = if bits.len() == 1 {
                o.name.clone()
            } else {
                format!("{}[{i}]", o.name)
            };
            p.outputs.push(Named { lit: *lit, name });
        }
    }
    Ok(FixedCopy { aig: p, outputs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MutantProduct;
    use hypermut_aig::simulate;
    use hypermut_mutate::{enumerate, Operator};
    use hypermut_testkit::XorShift64;

    /// A counter with a parity bit; `cnt` and `par` are outputs.
    const COUNTER: &str =
        "-- @output cnt, par\nMODULE main\nIVAR inc : boolean;\nVAR cnt : 0..3; par : boolean;\n\
        ASSIGN init(cnt) := 0; next(cnt) := case inc & cnt < 3 : cnt + 1; TRUE : cnt; esac;\n\
        init(par) := FALSE; next(par) := case inc & cnt < 2 : !par; TRUE : par; esac;\n";

    /// On random input sequences each copy answers like the product's copy A (original) or
    /// B (mutant), for every mutant of the counter.
    #[test]
    fn each_copy_answers_like_its_side_of_the_product() {
        let sys = hypermut_smv::parse_smv("c.smv", COUNTER).expect("model");
        let mutants = enumerate(&sys, &Operator::ALL);
        assert!(mutants.len() > 5);
        let mut rng = XorShift64::new(7);
        let mut built = 0;
        for m in &mutants {
            let Ok(mp) = MutantProduct::build(&sys, m) else {
                continue;
            };
            built += 1;
            let c = &mp.blasted;
            let names = |g: &Aig| g.inputs.iter().map(|i| i.name.clone()).collect::<Vec<_>>();
            let frames: Vec<Vec<Option<bool>>> = (0..8)
                .map(|_| (0..c.aig.inputs.len()).map(|_| Some(rng.coin())).collect())
                .collect();
            for (side, want) in [&mp.product.outputs_a, &mp.product.outputs_b]
                .into_iter()
                .enumerate()
            {
                let copy = fixed_copy(c, mp.selector, side == 1).expect("copy");
                assert_eq!(names(&copy.aig), names(&c.aig), "input order kept");
                assert_eq!(copy.aig.latches.len() + 1, c.aig.latches.len());
                // The product with this side's output bits as its AIGER outputs.
                let mut p = mp.product.aig.clone();
                p.outputs = want
                    .iter()
                    .flatten()
                    .map(|lit| Named {
                        lit: *lit,
                        name: String::new(),
                    })
                    .collect();
                let got = simulate(&copy.aig, &[], &frames);
                let expected = simulate(&p, &[], &frames);
                for (k, (g, e)) in got.frames.iter().zip(&expected.frames).enumerate() {
                    assert_eq!(
                        g.outputs, e.outputs,
                        "mutant {} side {side} frame {k}",
                        m.id
                    );
                }
                let width: usize = copy.outputs.iter().map(Vec::len).sum();
                assert_eq!(copy.aig.outputs.len(), width);
            }
        }
        assert!(built > 5, "{built} products built");
    }

    #[test]
    fn a_literal_that_is_no_latch_is_rejected() {
        let sys = hypermut_smv::parse_smv("c.smv", COUNTER).expect("model");
        let m = enumerate(&sys, &Operator::ALL).remove(0);
        let mp = MutantProduct::build(&sys, &m).expect("product");
        let input = mp.blasted.aig.inputs[0].lit;
        assert!(matches!(
            fixed_copy(&mp.blasted, input, false),
            Err(HyperError::NoSelector)
        ));
    }
}
