//! The φ1 product: two copies sharing inputs and everything outside the mutation's fan-out.

use hypermut_aig::blast::Blasted;
use hypermut_aig::{Aig, Lit, Node};

use crate::error::HyperError;

/// The product circuit and how its parts relate to the conditional mutant.
#[derive(Clone, Debug)]
pub struct Product {
    /// Inputs are those of the conditional mutant, in the same order; `bad[0]` is `kill`.
    pub aig: Aig,
    /// Output bits of copy A (original), per IR output.
    pub outputs_a: Vec<Vec<Lit>>,
    /// Output bits of copy B (mutant), per IR output.
    pub outputs_b: Vec<Vec<Lit>>,
    /// Latches of the conditional mutant shared by both copies (selector excluded).
    pub shared_latches: usize,
    /// Latches of the conditional mutant that lie in the mutation's sequential fan-out and are
    /// duplicated.
    pub duplicated_latches: usize,
    /// Per duplicated latch: its copy A and copy B latch (the pairs an equivalence proof
    /// by correspondence starts from, `docs/method.md` §7.6).
    pub twins: Vec<(Lit, Lit)>,
    /// Whether some output lies in the mutation's fan-out (if not, the mutant is equivalent
    /// without any proof search).
    pub observable: bool,
    /// Copy B's selector latches, LSB first, in a [`meta_product`] (empty in a conditional
    /// mutant's product, whose copy B has the constant `mut = 1`).
    pub selector_b: Vec<Lit>,
}

/// Variables of `c` that structurally depend on a selector latch, closed under AND fan-out
/// and under "next-state function in the set ⇒ latch in the set".
fn sequential_fanout(c: &Aig, selector: &[Lit]) -> Vec<bool> {
    let n = c.num_vars() as usize;
    let mut f = vec![false; n];
    for s in selector {
        f[s.var() as usize] = true;
    }
    loop {
        for v in 0..n {
            if let Node::And(a, b) = c.node(v as u32) {
                if f[a.var() as usize] || f[b.var() as usize] {
                    f[v] = true;
                }
            }
        }
        let mut grew = false;
        for l in &c.latches {
            let v = l.lit.var() as usize;
            if !f[v] && f[l.next.var() as usize] {
                f[v] = true;
                grew = true;
            }
        }
        if !grew {
            return f;
        }
    }
}

/// Builds the product of the conditional mutant `c` whose selector latch is `selector`.
pub fn product(c: &Blasted, selector: Lit) -> Result<Product, HyperError> {
    compose(c, &[selector], CopyB::Mutant)
}

/// Builds the product of a bit-blasted meta-mutant (`hypermut_mutate::meta_mutant`) whose
/// selector word has the latches `selector` (LSB first): copy A is the original (selector 0),
/// copy B keeps the selector as frozen latches `B.<name>` with a free power-up value, so that
/// `kill` is reachable exactly when some mutant of the meta-mutant is killable; the
/// selector's power-up value in a witness says which (`docs/method.md` §7.10).
pub fn meta_product(c: &Blasted, selector: &[Lit]) -> Result<Product, HyperError> {
    compose(c, selector, CopyB::AnyMutant)
}

/// What copy B's selector is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CopyB {
    /// The constant 1 (the conditional mutant's `mut = 1`).
    Mutant,
    /// Frozen latches with a free power-up value (any code of the meta-mutant).
    AnyMutant,
}

/// The product of `c` with copy A's selector bits 0 and copy B's as `b` says.
fn compose(c: &Blasted, selector: &[Lit], b: CopyB) -> Result<Product, HyperError> {
    let g = &c.aig;
    if selector.is_empty()
        || selector
            .iter()
            .any(|s| g.latch_index(*s).is_none() || s.is_neg())
    {
        return Err(HyperError::NoSelector);
    }
    let fanout = sequential_fanout(g, selector);
    let mut p = Aig::new();
    let n = g.num_vars() as usize;
    let mut map_a = vec![Lit::FALSE; n];
    let mut map_b = vec![Lit::FALSE; n];
    for inp in &g.inputs {
        let l = p.add_input(inp.name.clone());
        map_a[inp.lit.var() as usize] = l;
        map_b[inp.lit.var() as usize] = l;
    }
    let mut shared = 0;
    let mut twins = Vec::new();
    let mut selector_b = Vec::new();
    for l in &g.latches {
        let v = l.lit.var() as usize;
        if let Some(bit) = selector.iter().position(|s| *s == l.lit) {
            map_a[v] = Lit::FALSE;
            map_b[v] = match b {
                CopyB::Mutant => Lit::TRUE,
                CopyB::AnyMutant => {
                    let s = p.add_latch(format!("B.{}", l.name), hypermut_aig::Reset::Free);
                    p.set_next(s, s);
                    selector_b.push((bit, s));
                    s
                }
            };
        } else if fanout[v] {
            map_a[v] = p.add_latch(format!("A.{}", l.name), l.reset);
            map_b[v] = p.add_latch(format!("B.{}", l.name), l.reset);
            twins.push((map_a[v], map_b[v]));
        } else {
            let s = p.add_latch(l.name.clone(), l.reset);
            map_a[v] = s;
            map_b[v] = s;
            shared += 1;
        }
    }
    let tr = |m: &[Lit], l: Lit| m[l.var() as usize].xor(l.is_neg());
    for v in 0..n {
        if let Node::And(a, b) = g.node(v as u32) {
            map_a[v] = {
                let (x, y) = (tr(&map_a, a), tr(&map_a, b));
                p.and(x, y)
            };
            map_b[v] = if fanout[v] {
                let (x, y) = (tr(&map_b, a), tr(&map_b, b));
                p.and(x, y)
            } else {
                map_a[v]
            };
        }
    }
    for l in &g.latches {
        let v = l.lit.var() as usize;
        if selector.contains(&l.lit) {
            continue;
        }
        let na = tr(&map_a, l.next);
        p.set_next(map_a[v], na);
        if fanout[v] {
            let nb = tr(&map_b, l.next);
            p.set_next(map_b[v], nb);
        }
    }
    // A constraint the mutation does not touch restricts both copies alike: an AIGER
    // constraint. One it touches must not cut a copy silently (that would drop exactly the
    // behaviour that distinguishes the mutant, `docs/method.md` §5.3): each copy gets a sticky
    // `blocked` flag, and the two flags are compared like outputs.
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    for c in &g.constraints {
        let (a, b) = (tr(&map_a, c.lit), tr(&map_b, c.lit));
        if a == b {
            p.constraints.push(hypermut_aig::Named {
                lit: a,
                name: c.name.clone(),
            });
        } else {
            only_a.push(a);
            only_b.push(b);
        }
    }
    let blocked_now = |p: &mut Aig, copy: &str, oks: Vec<Lit>| -> Option<Lit> {
        if oks.is_empty() {
            return None;
        }
        let ok = p.and_all(oks);
        let flag = p.add_latch(format!("{copy}.blocked"), hypermut_aig::Reset::Zero);
        let now = p.or(flag, !ok);
        p.set_next(flag, now);
        Some(now)
    };
    let blocked_a = blocked_now(&mut p, "A", only_a);
    let blocked_b = blocked_now(&mut p, "B", only_b);
    let outputs_a: Vec<Vec<Lit>> = c
        .outputs
        .iter()
        .map(|o| o.bits.iter().map(|b| tr(&map_a, *b)).collect())
        .collect();
    let outputs_b: Vec<Vec<Lit>> = c
        .outputs
        .iter()
        .map(|o| o.bits.iter().map(|b| tr(&map_b, *b)).collect())
        .collect();
    let mut diffs = Vec::new();
    for (oa, ob) in outputs_a.iter().zip(&outputs_b) {
        for (a, b) in oa.iter().zip(ob) {
            if a != b {
                diffs.push(p.xor(*a, *b));
            }
        }
    }
    let observable = blocked_a.is_some()
        || c.outputs
            .iter()
            .any(|o| o.bits.iter().any(|b| fanout[b.var() as usize]));
    let kill = match (blocked_a, blocked_b) {
        (Some(a), Some(b)) => {
            let out_diff = p.or_all(diffs);
            let neither = p.and(!a, !b);
            let seen = p.and(neither, out_diff);
            let one_blocked = p.xor(a, b);
            p.or(seen, one_blocked)
        }
        _ => p.or_all(diffs),
    };
    p.bad.push(hypermut_aig::Named {
        lit: kill,
        name: "kill".into(),
    });
    Ok(Product {
        aig: p,
        outputs_a,
        outputs_b,
        shared_latches: shared,
        duplicated_latches: twins.len(),
        twins,
        observable,
        selector_b: {
            selector_b.sort_by_key(|(bit, _)| *bit);
            selector_b.into_iter().map(|(_, s)| s).collect()
        },
    })
}

#[cfg(test)]
mod tests {
    use crate::MutantProduct;
    use hypermut_aig::{simulate, Lit, Named};
    use hypermut_mutate::{enumerate, Operator};
    use hypermut_testkit::XorShift64;

    const COUNTER: &str =
        "-- @output cnt\nMODULE main\nIVAR inc : boolean;\nVAR cnt : 0..3; par : boolean;\n\
        ASSIGN init(cnt) := 0; next(cnt) := case inc & cnt < 3 : cnt + 1; TRUE : cnt; esac;\n\
        init(par) := FALSE; next(par) := case inc & cnt < 2 : !par; TRUE : par; esac;\n";

    /// `n` bits of a deterministic pseudo-random stream (xorshift), so failures reproduce.
    fn bits(rng: &mut XorShift64, n: usize) -> Vec<Option<bool>> {
        (0..n).map(|_| Some(rng.coin())).collect()
    }

    /// Copy A of the product behaves like the conditional mutant with `mut = 0`, copy B like
    /// it with `mut = 1`, on random input sequences (checked with the AIG simulator).
    #[test]
    fn copies_simulate_like_the_conditional_mutant() {
        let sys = hypermut_smv::parse_smv("c.smv", COUNTER).expect("model");
        let mut rng = XorShift64::from_state(0x9e37_79b9_7f4a_7c15);
        for m in enumerate(&sys, &Operator::ALL) {
            let Ok(mp) = MutantProduct::build(&sys, &m) else {
                continue;
            };
            let c = &mp.blasted.aig;
            let sel = c.latch_index(mp.selector).expect("selector latch");
            let mut prod = mp.product.aig.clone();
            for (k, bits) in mp
                .product
                .outputs_a
                .iter()
                .chain(&mp.product.outputs_b)
                .enumerate()
            {
                for b in bits {
                    prod.outputs.push(Named {
                        lit: *b,
                        name: format!("o{k}"),
                    });
                }
            }
            for _ in 0..8 {
                let stim: Vec<Vec<Option<bool>>> =
                    (0..6).map(|_| bits(&mut rng, c.inputs.len())).collect();
                let run_c = |m: bool| {
                    let mut init = vec![Some(false); c.latches.len()];
                    init[sel] = Some(m);
                    simulate(c, &init, &stim)
                };
                let (a, b) = (run_c(false), run_c(true));
                let p = simulate(&prod, &vec![Some(false); prod.latches.len()], &stim);
                let half = prod.outputs.len() / 2;
                for k in 0..stim.len() {
                    assert_eq!(
                        p.frames[k].outputs[..half],
                        a.frames[k].outputs[..],
                        "mutant {} copy A frame {k}",
                        m.id
                    );
                    assert_eq!(
                        p.frames[k].outputs[half..],
                        b.frames[k].outputs[..],
                        "mutant {} copy B frame {k}",
                        m.id
                    );
                    let differ = a.frames[k].outputs != b.frames[k].outputs;
                    assert_eq!(p.frames[k].bad[0], differ, "mutant {} kill frame {k}", m.id);
                }
            }
        }
    }

    /// A mutation in `par`'s guard only reaches `par`: `cnt` stays shared, and no output is in
    /// the fan-out.
    #[test]
    fn latches_outside_the_fanout_are_shared() {
        let sys = hypermut_smv::parse_smv("c.smv", COUNTER).expect("model");
        let ms = enumerate(&sys, &Operator::ALL);
        let m = ms
            .iter()
            .find(|m| m.original == "cnt < 2" && m.replacement == "cnt <= 2")
            .expect("the par-guard mutant");
        let mp = MutantProduct::build(&sys, m).expect("product");
        let p = &mp.product;
        assert_eq!(p.duplicated_latches, 1, "only par is duplicated");
        // The twins are copy A's and copy B's latch of par.
        let name = |l: Lit| {
            let i = p.aig.latch_index(l).expect("a latch");
            p.aig.latches[i].name.clone()
        };
        let names: Vec<(String, String)> =
            p.twins.iter().map(|&(a, b)| (name(a), name(b))).collect();
        assert_eq!(names, [("A.par".to_string(), "B.par".to_string())]);
        assert_eq!(
            p.shared_latches,
            mp.blasted.aig.latches.len() - 2,
            "all but par and mut are shared"
        );
        assert_eq!(
            p.aig.latches.len(),
            p.shared_latches + 2 * p.duplicated_latches
        );
        assert!(!p.observable);
        // The refill-like mutant on cnt reaches the output.
        let m = ms
            .iter()
            .find(|m| m.original == "cnt < 3" && m.replacement == "cnt <= 3")
            .expect("cnt guard");
        assert!(
            MutantProduct::build(&sys, m)
                .expect("product")
                .product
                .observable
        );
    }
}
