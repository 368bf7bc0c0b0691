//! A shortest counterexample from the rings of a breadth-first reachability search
//! (`docs/method.md` §7.9).

use biodivine_lib_bdd::Bdd;
use hypermut_aig::{Aig, Witness};

use super::space::{GaveUp, Relation, Space};

/// The counterexample through `rings` (ring `j`: the states first reached in `j` steps)
/// that ends in ring `rings.len() - 1` with inputs satisfying `bad_now` (bad and the
/// constraints, over inputs and current state), each step a transition of `transition`.
/// Walks backwards: a state of the last ring with a bad input, then in each earlier ring a
/// state and input whose successor is the state chosen after it.
pub(crate) fn counterexample(
    aig: &Aig,
    space: &Space,
    rings: &[Bdd],
    transition: &Relation,
    bad_now: &Bdd,
) -> Result<Witness, GaveUp> {
    let Some((last, earlier)) = rings.split_last() else {
        return Err(GaveUp::BrokenRings);
    };
    let end = space
        .and(last, bad_now)?
        .sat_witness()
        .ok_or(GaveUp::BrokenRings)?;
    let mut states = vec![space.state_of(&end)];
    let mut inputs = vec![space.inputs_of(&end)];
    for ring in earlier.iter().rev() {
        let successor = &states[states.len() - 1];
        let step = space
            .predecessors(ring, transition, successor)?
            .sat_witness()
            .ok_or(GaveUp::BrokenRings)?;
        states.push(space.state_of(&step));
        inputs.push(space.inputs_of(&step));
    }
    states.reverse();
    inputs.reverse();
    Ok(Witness {
        properties: vec!["b0".into()],
        init: space.whole_state(aig, &states[0]),
        inputs: inputs.iter().map(|i| space.whole_inputs(aig, i)).collect(),
    })
}
