//! Tests of a fixed length from a searched pair of runs (`docs/method.md` §4.7): the original's
//! run gives the inputs and the expected outputs of every step, the mutant's run is one
//! behaviour of the mutant under the same inputs that the test fails.
//!
//! Unlike a φ1 test ([`crate::extract_test`]) such a test is not cut at the first step where
//! the two runs differ: a definite or potential test of length k may need all k + 1 steps,
//! because other behaviours of the mutant agree with the original for longer than this one.

use std::collections::HashMap;

use hypermut_aig::blast::Blasted;
use hypermut_aig::Witness;
use hypermut_ir::{Frame, Interpreter, Value};
use hypermut_mutate::{ConditionalMutant, NdInput};

use crate::error::HyperError;
use crate::test::{decode_inputs, output_map, test_frame, Blocked, Test};

/// The test of `depth + 1` steps whose inputs and expected outputs come from `original` (a
/// run of the conditional mutant's circuit `blasted` with `mut = 0`), checked against
/// `mutant` (a run with `mut = 1` and the same ordinary inputs): the original's constraints
/// hold in every step, and the mutant's run differs from it in some step (an output, or a
/// step the mutant's constraints forbid). `mutant_outputs` are the mutant's in the last step
/// it can take.
pub fn test_from_runs(
    cm: &ConditionalMutant,
    nd: &[NdInput],
    blasted: &Blasted,
    original: &Witness,
    mutant: &Witness,
    depth: usize,
) -> Result<Test, HyperError> {
    let sys = &cm.system;
    let frames = |w: &Witness| -> Result<Vec<Frame>, HyperError> {
        let mut inputs = decode_inputs(blasted, w)?;
        inputs.truncate(depth + 1);
        if inputs.len() != depth + 1 {
            return Err(HyperError::WitnessShape(format!(
                "a run of {} frames for a test of {} steps",
                inputs.len(),
                depth + 1
            )));
        }
        Ok(inputs
            .into_iter()
            .map(|inputs| Frame {
                inputs,
                ..Frame::default()
            })
            .collect())
    };
    let (fo, fm) = (frames(original)?, frames(mutant)?);
    let interp = Interpreter::new(sys);
    let run = |m: bool, f: &[Frame]| {
        interp
            .run(&HashMap::from([(cm.mut_var, Value::Bool(m))]), f)
            .map_err(|e| HyperError::Replay(e.to_string()))
    };
    let (orig, mutn) = (run(false, &fo)?, run(true, &fm)?);
    if let Some(k) = (0..=depth).find(|k| !orig.constraints_ok[*k]) {
        return Err(HyperError::Replay(format!(
            "the original's run violates a constraint in frame {k}"
        )));
    }
    let blocked_at = (0..=depth).find(|k| !mutn.constraints_ok[*k]);
    let differs = (0..=depth).any(|k| {
        blocked_at == Some(k)
            || (blocked_at.is_none_or(|b| k < b) && orig.outputs[k] != mutn.outputs[k])
    });
    if !differs {
        return Err(HyperError::Replay(
            "the mutant's run answers the test like the original".into(),
        ));
    }
    let steps = (0..=depth)
        .map(|k| test_frame(sys, nd, &fo[k], Some(&orig.outputs[k])))
        .collect();
    let last = blocked_at.map_or(depth, |k| k.saturating_sub(1));
    Ok(Test {
        mutant: cm.mutant.id,
        depth,
        frames: steps,
        mutant_outputs: mutn
            .outputs
            .get(last)
            .map(|v| output_map(sys, v))
            .unwrap_or_default(),
        requires_nd_control: false,
        blocked: blocked_at.map(|_| Blocked::Mutant),
    })
}
