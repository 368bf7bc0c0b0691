//! End-to-end tests of the front-end: semantics checked by simulating the IR, malformed
//! designs, the shared corpus and robustness.

mod corpus;
mod fuzz;
mod malformed;
mod semantics;
mod semantics2;
mod shared_drivers;
mod yosys;

use std::collections::HashMap;

use hypermut_ir::{Frame, Interpreter, Role, System, Value, VarId};
use num_traits::ToPrimitive;

use crate::{parse_verilog, Loaded, VerilogError, VerilogOptions};

/// Loads `text` as `t.v` with default options.
pub fn load(text: &str) -> Result<Loaded, VerilogError> {
    parse_verilog(&[("t.v", text)], &VerilogOptions::default())
}

/// Loads `text`, failing the test with the rendered error.
pub fn ok(text: &str) -> System {
    ok_with(text, &VerilogOptions::default())
}

/// Loads `text` with options, failing the test with the rendered error.
pub fn ok_with(text: &str, opts: &VerilogOptions) -> System {
    match parse_verilog(&[("t.v", text)], opts) {
        Ok(l) => l.system,
        Err(e) => panic!("unexpected error:\n{e}"),
    }
}

/// The error message of a design that must be rejected (and the error must be located).
pub fn err(text: &str) -> String {
    match load(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert!(e.span().is_some(), "error without location: {e}");
            e.to_string()
        }
    }
}

/// Stimulus of one frame: input values and choice indices by site number.
#[derive(Clone, Debug, Default)]
pub struct Stim {
    /// Input values by name.
    pub inputs: Vec<(&'static str, u64)>,
    /// Choice indices by site.
    pub choices: Vec<(u32, u32)>,
}

/// A frame with these inputs.
pub fn f(inputs: &[(&'static str, u64)]) -> Stim {
    Stim {
        inputs: inputs.to_vec(),
        choices: vec![],
    }
}

/// Runs `sys` over the frames (uninitialised state starts at `init` or 0) and returns the
/// outputs per frame by name.
pub fn run_with(sys: &System, frames: &[Stim], init: &[(&str, u64)]) -> Vec<HashMap<String, u64>> {
    let mut free = HashMap::new();
    for (i, v) in sys.vars.iter().enumerate() {
        if v.role != Role::Input && v.init.is_none() {
            let x = init
                .iter()
                .find(|(n, _)| *n == v.name)
                .map_or(0, |(_, x)| *x);
            free.insert(VarId(i as u32), value_of(v.ty, x));
        }
    }
    let frames: Vec<Frame> = frames
        .iter()
        .map(|s| {
            let mut fr = Frame::default();
            for (i, v) in sys.vars.iter().enumerate() {
                if v.role == Role::Input {
                    let x = s
                        .inputs
                        .iter()
                        .find(|(n, _)| *n == v.name)
                        .map_or(0, |(_, x)| *x);
                    fr.inputs.insert(VarId(i as u32), value_of(v.ty, x));
                }
            }
            for (site, k) in &s.choices {
                fr.choices.insert(hypermut_ir::ChoiceId(*site), *k);
            }
            for c in 0..sys.choices.len() as u32 {
                fr.choices.entry(hypermut_ir::ChoiceId(c)).or_insert(0);
            }
            fr
        })
        .collect();
    let trace = Interpreter::new(sys)
        .run(&free, &frames)
        .unwrap_or_else(|e| panic!("simulation failed: {e}"));
    trace
        .outputs
        .iter()
        .map(|outs| {
            sys.outputs
                .iter()
                .zip(outs)
                .map(|(o, v)| (o.name.clone(), num(v)))
                .collect()
        })
        .collect()
}

/// Runs with uninitialised state at 0.
pub fn run(sys: &System, frames: &[Stim]) -> Vec<HashMap<String, u64>> {
    run_with(sys, frames, &[])
}

/// The values of output `name` over a run.
pub fn trace(sys: &System, frames: &[Stim], name: &str) -> Vec<u64> {
    run(sys, frames)
        .iter()
        .map(|o| *o.get(name).unwrap_or_else(|| panic!("no output `{name}`")))
        .collect()
}

fn value_of(ty: hypermut_ir::Type, x: u64) -> Value {
    match ty {
        hypermut_ir::Type::Bool => Value::Bool(x != 0),
        hypermut_ir::Type::BitVec { width, .. } => Value::bits(width, x),
        hypermut_ir::Type::Int { .. } => Value::Int(x as i64),
        hypermut_ir::Type::Enum(_) => Value::Enum(x as u32),
    }
}

fn num(v: &Value) -> u64 {
    match v {
        Value::Bool(b) => *b as u64,
        Value::Bits { bits, .. } => bits.to_u64().unwrap_or(u64::MAX),
        Value::Int(i) => *i as u64,
        Value::Enum(e) => *e as u64,
    }
}
