//! Linear tests cut from witnesses of the product, replayed on the word-level system.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use hypermut_aig::blast::Blasted;
use hypermut_aig::Witness;
use hypermut_ir::{Frame, Interpreter, System, Value, VarId};
use hypermut_mutate::{ConditionalMutant, NdInput};

use crate::error::HyperError;

/// One step of a test: what to apply and what the original must answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFrame {
    /// Input values, by input name.
    pub inputs: BTreeMap<String, String>,
    /// Values of the controllable nondeterminism (nd inputs), by name.
    pub nd: BTreeMap<String, String>,
    /// The original's outputs, by output name. Empty in the last step of a test whose
    /// original cannot take that step ([`Blocked::Original`]): there is nothing to expect
    /// there (`docs/method.md` §5.3).
    pub outputs: BTreeMap<String, String>,
}

/// A linear test that kills one mutant: inputs per step and the original's expected outputs,
/// up to and including the first step where the mutant's outputs differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Test {
    /// Mutant id.
    pub mutant: usize,
    /// 0-based frame of the first differing output (the test has `depth + 1` steps).
    pub depth: usize,
    /// The steps.
    pub frames: Vec<TestFrame>,
    /// The mutant's outputs in the last step it takes. Without blocking, at least one
    /// differs from the original's in the last step; with [`Blocked::Original`] the original
    /// has no outputs there to differ from.
    pub mutant_outputs: BTreeMap<String, String>,
    /// Whether the test sets nd values, i.e. needs control over the model's nondeterminism.
    pub requires_nd_control: bool,
    /// Set when the kill is not an output difference but one side's constraints (SMV
    /// `INIT`/`INVAR`/`TRANS`) forbid the last step that the other side takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<Blocked>,
}

/// Which side cannot take the last step of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Blocked {
    /// The original's constraints forbid the step the mutant takes.
    Original,
    /// The mutant's constraints forbid the step the original takes.
    Mutant,
}

/// Values of the IR input variables in every frame of a witness (x grounded to 0).
pub(crate) fn decode_inputs(
    blasted: &Blasted,
    w: &Witness,
) -> Result<Vec<HashMap<VarId, Value>>, HyperError> {
    let n_inputs = blasted.aig.inputs.len();
    let mut frames = Vec::with_capacity(w.inputs.len());
    for (k, vec) in w.inputs.iter().enumerate() {
        if vec.len() != n_inputs {
            return Err(HyperError::WitnessShape(format!(
                "frame {k} has {} input values, the circuit has {n_inputs} inputs",
                vec.len()
            )));
        }
        let mut vals = HashMap::new();
        for vb in &blasted.inputs {
            let bits: Vec<bool> = vb
                .bits
                .iter()
                .map(|b| {
                    blasted
                        .aig
                        .input_index(*b)
                        .and_then(|i| vec[i])
                        .unwrap_or(false)
                        ^ b.is_neg()
                })
                .collect();
            vals.insert(vb.var, Value::from_storage_bits(vb.ty, &bits));
        }
        frames.push(vals);
    }
    Ok(frames)
}

/// The outputs `vals` of `sys` by name, shown as the test file shows values.
pub(crate) fn output_map(sys: &System, vals: &[Value]) -> BTreeMap<String, String> {
    sys.outputs
        .iter()
        .zip(vals)
        .map(|(o, v)| (o.name.clone(), v.display(sys.ty(o.expr), &sys.enums)))
        .collect()
}

/// One step of a test: the inputs and nd values applied in `frame` (a choice selector shown
/// as the index of the chosen alternative) and the original's `outputs` (none in a step the
/// original cannot take).
pub(crate) fn test_frame(
    sys: &System,
    nd: &[NdInput],
    frame: &Frame,
    outputs: Option<&[Value]>,
) -> TestFrame {
    let mut tf = TestFrame {
        inputs: BTreeMap::new(),
        nd: BTreeMap::new(),
        outputs: outputs.map(|o| output_map(sys, o)).unwrap_or_default(),
    };
    for (v, val) in &frame.inputs {
        let name = sys.var(*v).name.clone();
        let shown = || val.display(sys.var(*v).ty, &sys.enums);
        if nd.iter().any(|n| n.var == *v) {
            let shown = match val {
                Value::Bits { bits, .. } => bits.to_string(),
                _ => shown(),
            };
            tf.nd.insert(name, shown);
        } else {
            tf.inputs.insert(name, shown());
        }
    }
    tf
}

/// Cuts a test from a witness of the product of `cm` (nd-transformed, blasted as `blasted`)
/// and replays it on the word-level system: with `mut = 0` it yields the expected outputs,
/// with `mut = 1` the outputs agree up to the last step and differ there. When the original's
/// constraints forbid the last step ([`Blocked::Original`]), that step lists no expected
/// outputs.
pub fn extract_test(
    cm: &ConditionalMutant,
    nd: &[NdInput],
    blasted: &Blasted,
    witness: &Witness,
) -> Result<Test, HyperError> {
    let sys = &cm.system;
    let inputs = decode_inputs(blasted, witness)?;
    let frames: Vec<Frame> = inputs
        .into_iter()
        .map(|inputs| Frame {
            inputs,
            ..Frame::default()
        })
        .collect();
    let interp = Interpreter::new(sys);
    let run = |m: bool| {
        interp
            .run(&HashMap::from([(cm.mut_var, Value::Bool(m))]), &frames)
            .map_err(|e| HyperError::Replay(e.to_string()))
    };
    let (orig, mutant) = (run(false)?, run(true)?);
    // The first frame where the two differ: a constraint that holds in one copy only (that
    // copy cannot take this step, `docs/method.md` §5.3), or an output with both copies able to.
    let differs = |k: usize| {
        orig.constraints_ok[k] != mutant.constraints_ok[k]
            || (orig.constraints_ok[k] && orig.outputs[k] != mutant.outputs[k])
    };
    let depth = (0..frames.len()).find(|k| differs(*k)).ok_or_else(|| {
        HyperError::Replay("the outputs of original and mutant never differ on the witness".into())
    })?;
    if let Some(k) = (0..depth).find(|k| !orig.constraints_ok[*k]) {
        return Err(HyperError::Replay(format!(
            "a constraint is violated in frame {k}"
        )));
    }
    let blocked = match (orig.constraints_ok[depth], mutant.constraints_ok[depth]) {
        (true, false) => Some(Blocked::Mutant),
        (false, true) => Some(Blocked::Original),
        _ => None,
    };
    let test_frames: Vec<TestFrame> = (0..=depth)
        .map(|k| {
            // The original has no outputs in a step it cannot take.
            let refused = k == depth && blocked == Some(Blocked::Original);
            let outputs = (!refused).then(|| orig.outputs[k].as_slice());
            test_frame(sys, nd, &frames[k], outputs)
        })
        .collect();
    Ok(Test {
        mutant: cm.mutant.id,
        depth,
        requires_nd_control: !nd.is_empty(),
        mutant_outputs: output_map(sys, &mutant.outputs[depth]),
        blocked,
        frames: test_frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MutantProduct;
    use hypermut_mutate::{enumerate, Operator};

    /// `tests/data/smv/door.smv`'s constraints, without transitions that matter here.
    const DOOR: &str = "MODULE main\nIVAR push : boolean;\nVAR open : boolean; locked : boolean;\n\
        INIT !open\nINIT !locked\nTRANS next(open) = open\nTRANS next(locked) = locked\n";

    /// The test of the mutant `INIT !open` → `INIT open` cut from a one-frame witness whose
    /// initial and next `open` (nd inputs) are `open0`, with the original's replay for
    /// comparison (whether its constraints hold in the frame).
    fn door_test(open0: bool) -> (Test, Vec<bool>) {
        let sys = hypermut_smv::parse_smv("door.smv", DOOR).expect("model");
        let m = enumerate(&sys, &Operator::ALL)
            .into_iter()
            .find(|m| m.original == "!open" && m.replacement == "open")
            .expect("the INIT mutant");
        let mp = MutantProduct::build(&sys, &m).expect("product");
        let frame: Vec<Option<bool>> = mp
            .blasted
            .aig
            .inputs
            .iter()
            .map(|i| {
                let open = ["nd.init.open", "nd.next.open"]
                    .iter()
                    .any(|n| i.name.starts_with(n));
                // `TRANS next(open) = open`: the next value follows the initial one.
                Some(open0 && open)
            })
            .collect();
        let names: Vec<&str> = mp
            .blasted
            .aig
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        assert!(
            frame.contains(&Some(true)) || !open0,
            "no input for the initial open: {names:?}"
        );
        let w = Witness {
            properties: vec!["b0".into()],
            init: vec![None; mp.blasted.aig.latches.len()],
            inputs: vec![frame],
        };
        let test = extract_test(&mp.conditional, &mp.nd, &mp.blasted, &w).expect("a test");
        // The original's own replay: does it accept frame 0?
        let frames = decode_inputs(&mp.blasted, &w).expect("inputs");
        let frames: Vec<Frame> = frames
            .into_iter()
            .map(|inputs| Frame {
                inputs,
                ..Frame::default()
            })
            .collect();
        let orig = Interpreter::new(&mp.conditional.system)
            .run(
                &HashMap::from([(mp.conditional.mut_var, Value::Bool(false))]),
                &frames,
            )
            .expect("the original runs");
        (test, orig.constraints_ok)
    }

    #[test]
    fn a_step_the_original_refuses_has_no_expected_outputs() {
        // Initially open: the original's `INIT !open` refuses the step the mutant takes.
        let (test, original_ok) = door_test(true);
        assert_eq!(original_ok, [false]);
        assert_eq!(test.blocked, Some(Blocked::Original));
        assert_eq!(test.depth, 0);
        assert!(test.frames[0].outputs.is_empty(), "{:?}", test.frames[0]);
        assert_eq!(
            test.frames[0].nd.get("nd.init.open").map(String::as_str),
            Some("TRUE")
        );
        // The mutant takes the step: its outputs are there.
        assert_eq!(
            test.mutant_outputs.get("open").map(String::as_str),
            Some("TRUE")
        );
    }

    #[test]
    fn a_step_the_mutant_refuses_keeps_the_expected_outputs() {
        // Initially closed: the original takes the step, the mutant's `INIT open` refuses it.
        let (test, original_ok) = door_test(false);
        assert_eq!(original_ok, [true]);
        assert_eq!(test.blocked, Some(Blocked::Mutant));
        let expected = &test.frames[0].outputs;
        assert_eq!(expected.get("open").map(String::as_str), Some("FALSE"));
        assert_eq!(expected.get("locked").map(String::as_str), Some("FALSE"));
    }
}
