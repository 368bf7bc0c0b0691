//! The combinational checks of a Certifaiger witness circuit as AIGs, so that any external
//! SAT solver or ABC can confirm a safety certificate independently of hypermut's prover.

use hypermut_aig::{Aig, Lit, Node, Reset};

/// Why a witness circuit cannot be checked against a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CircuitShapeError {
    /// Input or latch counts differ.
    #[error("the witness circuit has other input or latch counts than the model")]
    Size,
    /// One of the circuits has no bad property.
    #[error("the model or the witness circuit has no bad property")]
    NoBad,
    /// A latch has another reset value in the witness circuit.
    #[error("latch {0} has another reset value in the witness circuit")]
    Reset(String),
}

/// Copies the combinational logic of `src` into `g`, with latch `k` read as `latches[k]` and
/// input `k` as `inputs[k]`; returns the image of every variable of `src` (as a literal of
/// `g`).
fn copy_comb(src: &Aig, g: &mut Aig, latches: &[Lit], inputs: &[Lit]) -> Vec<Lit> {
    let mut map = vec![Lit::FALSE; src.nodes().len()];
    for (v, n) in src.nodes().iter().enumerate() {
        map[v] = match *n {
            Node::Const => Lit::FALSE,
            Node::Input(i) => inputs[i as usize],
            Node::Latch(i) => latches[i as usize],
            Node::And(a, b) => {
                let (x, y) = (
                    map[a.var() as usize].xor(a.is_neg()),
                    map[b.var() as usize].xor(b.is_neg()),
                );
                g.and(x, y)
            }
        };
    }
    map
}

fn image(map: &[Lit], l: Lit) -> Lit {
    map[l.var() as usize].xor(l.is_neg())
}

/// The combinational checks of a Certifaiger witness circuit `w` for model `m` (same inputs
/// and latches by position; `docs/formats.md` §8.2), each a circuit whose only output must be
/// unsatisfiable: reset and transition equality, property (`¬bad_W ∧ C ⇒ ¬bad_M`), base
/// (`Init ∧ C ⇒ ¬bad_W`) and step (`¬bad_W ∧ C ∧ T ∧ C′ ⇒ ¬bad_W′`).
pub fn certificate_miters(m: &Aig, w: &Aig) -> Result<Vec<(&'static str, Aig)>, CircuitShapeError> {
    if m.inputs.len() != w.inputs.len() || m.latches.len() != w.latches.len() {
        return Err(CircuitShapeError::Size);
    }
    if m.bad.is_empty() || w.bad.is_empty() {
        return Err(CircuitShapeError::NoBad);
    }
    if let Some((a, _)) = m
        .latches
        .iter()
        .zip(&w.latches)
        .find(|(a, b)| a.reset != b.reset)
    {
        return Err(CircuitShapeError::Reset(a.name.clone()));
    }
    let mut out = Vec::new();
    let fresh = |g: &mut Aig, n: usize, p: &str| -> Vec<Lit> {
        (0..n).map(|k| g.add_input(format!("{p}{k}"))).collect()
    };
    let all = |g: &mut Aig, map: &[Lit], ls: &[hypermut_aig::Named]| -> Lit {
        let lits: Vec<Lit> = ls.iter().map(|c| image(map, c.lit)).collect();
        g.and_all(lits)
    };
    // Transition: same next-state functions (resets were compared above).
    {
        let mut g = Aig::new();
        let x = fresh(&mut g, m.latches.len(), "x");
        let i = fresh(&mut g, m.inputs.len(), "i");
        let mm = copy_comb(m, &mut g, &x, &i);
        let mw = copy_comb(w, &mut g, &x, &i);
        let diffs: Vec<Lit> = m
            .latches
            .iter()
            .zip(&w.latches)
            .map(|(a, b)| {
                let (p, q) = (image(&mm, a.next), image(&mw, b.next));
                g.xor(p, q)
            })
            .collect();
        let o = g.or_all(diffs);
        g.outputs.push(hypermut_aig::Named {
            lit: o,
            name: "transition".into(),
        });
        out.push(("transition", g));
    }
    // Property: ¬bad_W ∧ C_M ∧ C_W ⇒ ¬bad_M.
    {
        let mut g = Aig::new();
        let x = fresh(&mut g, m.latches.len(), "x");
        let i = fresh(&mut g, m.inputs.len(), "i");
        let mm = copy_comb(m, &mut g, &x, &i);
        let mw = copy_comb(w, &mut g, &x, &i);
        let cm = all(&mut g, &mm, &m.constraints);
        let cw = all(&mut g, &mw, &w.constraints);
        let good_w = !image(&mw, w.bad[0].lit);
        let bad_m = image(&mm, m.bad[0].lit);
        let o = g.and_all([cm, cw, good_w, bad_m]);
        g.outputs.push(hypermut_aig::Named {
            lit: o,
            name: "property".into(),
        });
        out.push(("property", g));
    }
    // Base: Init ∧ C_W ⇒ ¬bad_W.
    {
        let mut g = Aig::new();
        let x = fresh(&mut g, w.latches.len(), "x");
        let i = fresh(&mut g, w.inputs.len(), "i");
        let mw = copy_comb(w, &mut g, &x, &i);
        let init: Vec<Lit> = w
            .latches
            .iter()
            .zip(&x)
            .filter_map(|(l, &v)| match l.reset {
                Reset::Zero => Some(!v),
                Reset::One => Some(v),
                Reset::Free => None,
            })
            .collect();
        let init = g.and_all(init);
        let cw = all(&mut g, &mw, &w.constraints);
        let bad = image(&mw, w.bad[0].lit);
        let o = g.and_all([init, cw, bad]);
        g.outputs.push(hypermut_aig::Named {
            lit: o,
            name: "base".into(),
        });
        out.push(("base", g));
    }
    // Step: ¬bad_W ∧ C_W ∧ T ∧ C_W′ ⇒ ¬bad_W′.
    {
        let mut g = Aig::new();
        let x = fresh(&mut g, w.latches.len(), "x");
        let i = fresh(&mut g, w.inputs.len(), "i");
        let i2 = fresh(&mut g, w.inputs.len(), "j");
        let m0 = copy_comb(w, &mut g, &x, &i);
        let x2: Vec<Lit> = w.latches.iter().map(|l| image(&m0, l.next)).collect();
        let m1 = copy_comb(w, &mut g, &x2, &i2);
        let c0 = all(&mut g, &m0, &w.constraints);
        let c1 = all(&mut g, &m1, &w.constraints);
        let good0 = !image(&m0, w.bad[0].lit);
        let bad1 = image(&m1, w.bad[0].lit);
        let o = g.and_all([good0, c0, c1, bad1]);
        g.outputs.push(hypermut_aig::Named {
            lit: o,
            name: "step".into(),
        });
        out.push(("step", g));
    }
    Ok(out)
}
