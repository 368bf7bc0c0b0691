//! The waveform of a killing test (`waveforms/mutant-N.vcd`, `docs/formats.md` §2.6): the
//! test replayed on the conditional mutant with `mut = 0` (scope `original`) and `mut = 1`
//! (scope `mutant`), written as a VCD file for GTKWave or Surfer, with the first step where
//! the two differ marked by the signal `diverged`.

use std::collections::HashMap;

use hypermut_hyper::suite::parse_value;
use hypermut_hyper::{MutantProduct, Test};
use hypermut_ir::{EnumType, Frame, Interpreter, Role, System, Trace, Type, Value, VarId};
use vcd::{IdCode, TimescaleUnit, VarType, Writer};

/// Time units (ns) per step of the test; the clock is high in the first half of a step.
pub const STEP_TIME: u64 = 10;

/// Why a test's waveform could not be built.
#[derive(Debug, thiserror::Error)]
pub enum WaveformError {
    /// A value of the test names no input of the model or is no value of its type.
    #[error("step {step}: {what}")]
    BadValue {
        /// The step of the test.
        step: usize,
        /// What is wrong.
        what: String,
    },
    /// The word-level replay failed.
    #[error("the test does not replay on the model: {0}")]
    Replay(String),
    /// The replayed original does not answer with the test's expected outputs.
    #[error("step {step}: the original's `{output}` is {found}, the test expects {expected}")]
    Expected {
        /// The step of the test.
        step: usize,
        /// The output.
        output: String,
        /// The replayed value.
        found: String,
        /// The test's value.
        expected: String,
    },
    /// Original and mutant agree in every step of the test.
    #[error("original and mutant never differ on the test")]
    NoDivergence,
    /// Writing the VCD text failed.
    #[error("cannot write the waveform: {0}")]
    Write(#[from] std::io::Error),
}

/// Where a signal of a copy takes its value from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// An input (or nd input) of the frame.
    Input(VarId),
    /// A state or frozen variable.
    State(VarId),
    /// Output `i` of the system.
    Output(usize),
    /// Whether the copy's constraints hold in the step.
    ConstraintsOk,
}

/// One VCD variable of a copy.
struct Signal {
    name: String,
    ty: Type,
    source: Source,
}

/// The VCD text of `test` (a test of the mutant of `mp`): the test's inputs and nd values
/// replayed on the conditional mutant with `mut = 0` and `mut = 1` (as
/// [`hypermut_hyper::extract_test`] does), every input, state variable and output of each
/// copy, plus `clk`, `step` and `diverged` (`docs/formats.md` §2.6). Fails when the replayed
/// original does not give the test's expected outputs or the two copies never differ.
pub fn test_vcd(mp: &MutantProduct, test: &Test) -> Result<Vec<u8>, WaveformError> {
    let cm = &mp.conditional;
    let sys = &cm.system;
    let frames = frames(sys, test)?;
    let interp = Interpreter::new(sys);
    let run = |m: bool| {
        interp
            .run(&HashMap::from([(cm.mut_var, Value::Bool(m))]), &frames)
            .map_err(|e| WaveformError::Replay(e.to_string()))
    };
    let (orig, mutant) = (run(false)?, run(true)?);
    check_expected(sys, test, &orig)?;
    // The first step where the copies differ, as `extract_test` finds it: a constraint that
    // holds in one copy only (`docs/method.md` §5.3), or an output with both able to step.
    let diverged = (0..frames.len())
        .find(|&k| {
            orig.constraints_ok[k] != mutant.constraints_ok[k]
                || (orig.constraints_ok[k] && orig.outputs[k] != mutant.outputs[k])
        })
        .ok_or(WaveformError::NoDivergence)?;
    let nd: Vec<VarId> = mp.nd.iter().map(|n| n.var).collect();
    let signals = signals(sys, cm.mut_var, &nd);
    let mut buf = Vec::new();
    let mut w = Writer::new(&mut buf);
    w.comment(&comment(&format!(
        "hypermut: test of mutant {} ({} -> {}), {} steps; scope original runs mut = 0, scope \
         mutant mut = 1; diverged rises at step {diverged}",
        cm.mutant.id,
        cm.mutant.original,
        cm.mutant.replacement,
        frames.len()
    )))?;
    for s in &signals {
        if let Type::Enum(id) = s.ty {
            w.comment(&comment(&enum_legend(&s.name, id.0 as usize, &sys.enums)))?;
        }
    }
    w.timescale(1, TimescaleUnit::NS)?;
    w.add_module("test")?;
    let clk = w.add_wire(1, "clk")?;
    let step = w.add_var(VarType::Integer, 32, "step", None)?;
    let div = w.add_wire(1, "diverged")?;
    let mut nd_ids = Vec::new();
    if !nd.is_empty() {
        w.add_module("nd")?;
        for v in &nd {
            let var = sys.var(*v);
            nd_ids.push((
                w.add_var(
                    var_type(var.ty),
                    width(var.ty, &sys.enums),
                    &reference(&var.name),
                    None,
                )?,
                *v,
            ));
        }
        w.upscope()?;
    }
    let mut copies = Vec::new();
    for (scope, trace) in [("original", &orig), ("mutant", &mutant)] {
        w.add_module(scope)?;
        let mut ids = Vec::with_capacity(signals.len());
        for s in &signals {
            let ty = match s.source {
                Source::State(_) => VarType::Reg,
                _ => var_type(s.ty),
            };
            ids.push(w.add_var(ty, width(s.ty, &sys.enums), &reference(&s.name), None)?);
        }
        w.upscope()?;
        copies.push((ids, trace));
    }
    w.upscope()?;
    w.enddefinitions()?;
    let mut last: HashMap<IdCode, Value> = HashMap::new();
    for (k, frame) in frames.iter().enumerate() {
        w.timestamp(k as u64 * STEP_TIME)?;
        w.change_scalar(clk, true)?;
        write_value(&mut w, step, Type::ubv(32), &Value::bits(32, k as u32))?;
        if k == 0 || k == diverged {
            w.change_scalar(div, k >= diverged)?;
        }
        let mut changes: Vec<(IdCode, Type, Value)> = Vec::new();
        for (id, v) in &nd_ids {
            if let Some(val) = frame.inputs.get(v) {
                changes.push((*id, sys.var(*v).ty, val.clone()));
            }
        }
        for (ids, trace) in &copies {
            for (id, s) in ids.iter().zip(&signals) {
                if let Some(val) = value_of(s.source, k, frame, trace) {
                    changes.push((*id, s.ty, val));
                }
            }
        }
        for (id, ty, val) in changes {
            if last.get(&id) != Some(&val) {
                write_value(&mut w, id, ty, &val)?;
                last.insert(id, val);
            }
        }
        w.timestamp(k as u64 * STEP_TIME + STEP_TIME / 2)?;
        w.change_scalar(clk, false)?;
    }
    w.timestamp(frames.len() as u64 * STEP_TIME)?;
    w.flush()?;
    Ok(buf)
}

/// The frames of the test: its inputs and nd values by variable of `sys`. An input the test
/// does not name is 0 (as in the suite's replay, `hypermut_hyper::suite`).
fn frames(sys: &System, test: &Test) -> Result<Vec<Frame>, WaveformError> {
    test.frames
        .iter()
        .enumerate()
        .map(|(k, tf)| {
            let mut inputs = HashMap::new();
            for (name, text) in tf.inputs.iter().chain(&tf.nd) {
                let v = sys
                    .var_by_name(name)
                    .filter(|v| sys.var(*v).role == Role::Input)
                    .ok_or_else(|| WaveformError::BadValue {
                        step: k,
                        what: format!("`{name}` is no input of the model"),
                    })?;
                let ty = sys.var(v).ty;
                let val =
                    parse_value(text, ty, &sys.enums).ok_or_else(|| WaveformError::BadValue {
                        step: k,
                        what: format!("`{text}` is no value of `{name}`"),
                    })?;
                inputs.insert(v, val);
            }
            for (i, var) in sys.vars.iter().enumerate() {
                let v = VarId(i as u32);
                if var.role == Role::Input && !inputs.contains_key(&v) {
                    inputs.insert(v, Value::from_storage_bits(var.ty, &[]));
                }
            }
            Ok(Frame {
                inputs,
                ..Frame::default()
            })
        })
        .collect()
}

/// Checks that the replayed original answers with the test's expected outputs.
fn check_expected(sys: &System, test: &Test, orig: &Trace) -> Result<(), WaveformError> {
    for (k, tf) in test.frames.iter().enumerate() {
        for (o, val) in sys.outputs.iter().zip(&orig.outputs[k]) {
            let found = val.display(sys.ty(o.expr), &sys.enums);
            match tf.outputs.get(&o.name) {
                Some(expected) if *expected != found => {
                    return Err(WaveformError::Expected {
                        step: k,
                        output: o.name.clone(),
                        found,
                        expected: expected.clone(),
                    })
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The signals of one copy: the ordinary inputs, the state and frozen variables (not the
/// selector `mut_var`), the outputs and `constraints_ok`. A variable named like an output
/// is left out (a Verilog output register is both and has one value).
fn signals(sys: &System, mut_var: VarId, nd: &[VarId]) -> Vec<Signal> {
    let is_output = |name: &str| sys.outputs.iter().any(|o| o.name == name);
    let vars = |role_ok: fn(Role) -> bool| {
        sys.vars
            .iter()
            .enumerate()
            .map(|(i, var)| (VarId(i as u32), var))
            .filter(move |(v, var)| {
                role_ok(var.role) && *v != mut_var && !nd.contains(v) && !is_output(&var.name)
            })
    };
    let mut out: Vec<Signal> = vars(|r| r == Role::Input)
        .map(|(v, var)| Signal {
            name: var.name.clone(),
            ty: var.ty,
            source: Source::Input(v),
        })
        .collect();
    out.extend(vars(|r| r != Role::Input).map(|(v, var)| Signal {
        name: var.name.clone(),
        ty: var.ty,
        source: Source::State(v),
    }));
    out.extend(sys.outputs.iter().enumerate().map(|(i, o)| Signal {
        name: o.name.clone(),
        ty: sys.ty(o.expr),
        source: Source::Output(i),
    }));
    out.push(Signal {
        name: "constraints_ok".into(),
        ty: Type::Bool,
        source: Source::ConstraintsOk,
    });
    out
}

/// The value of a signal in step `k` of a copy's run.
fn value_of(source: Source, k: usize, frame: &Frame, trace: &Trace) -> Option<Value> {
    match source {
        Source::Input(v) => frame.inputs.get(&v).cloned(),
        Source::State(v) => trace.states.get(k)?.get(v.0 as usize)?.clone(),
        Source::Output(i) => trace.outputs.get(k)?.get(i).cloned(),
        Source::ConstraintsOk => Some(Value::Bool(*trace.constraints_ok.get(k)?)),
    }
}

/// The `$comment` that maps the codes of an enumeration signal to its values.
fn enum_legend(name: &str, id: usize, enums: &[EnumType]) -> String {
    let values = enums.get(id).map(|e| e.values.as_slice()).unwrap_or(&[]);
    let codes: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{i}={v}"))
        .collect();
    format!("enum {}: {}", reference(name), codes.join(" "))
}

/// Text for a `$comment`: without the `$end` that would close it early.
fn comment(text: &str) -> String {
    text.replace("$end", "$ end")
}

/// The VCD variable type of a value type.
fn var_type(ty: Type) -> VarType {
    match ty {
        Type::Int { .. } => VarType::Integer,
        _ => VarType::Wire,
    }
}

/// Bits of the VCD variable of a value type: booleans 1, bit-vectors their width, enums the
/// bits of their largest code, integer ranges the bits of their values (unsigned when the
/// range has no negative value, two's complement otherwise).
fn width(ty: Type, enums: &[EnumType]) -> u32 {
    let bits = |n: u64| (64 - n.leading_zeros()).max(1);
    match ty {
        Type::Bool => 1,
        Type::BitVec { width, .. } => width,
        Type::Int { lo, hi } if lo >= 0 => bits(hi as u64),
        // `!v` is `-v - 1`: the magnitude a negative bound needs besides the sign bit.
        Type::Int { lo, hi } => bits((hi.max(0) as u64).max(!lo as u64)) + 1,
        Type::Enum(_) => bits(ty.cardinality(enums).unwrap_or(2).max(2) - 1),
    }
}

/// A variable name as a VCD reference (no white space).
fn reference(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// Writes one value change: booleans as scalars, everything else as a vector (MSB first) of
/// at most [`width`] bits.
fn write_value<W: std::io::Write>(
    w: &mut Writer<W>,
    id: IdCode,
    ty: Type,
    val: &Value,
) -> std::io::Result<()> {
    if let Value::Bool(b) = val {
        return w.change_scalar(id, *b);
    }
    let bits: Vec<bool> = match (val, ty) {
        (Value::Int(i), _) => (0..width(ty, &[]).min(64))
            .rev()
            .map(|b| (i >> b) & 1 == 1)
            .collect(),
        (Value::Bits { width, .. }, _) => {
            (0..*width).rev().map(|b| val.storage_bit(ty, b)).collect()
        }
        (Value::Enum(e), _) => {
            let n = 32 - e.leading_zeros().min(31);
            (0..n).rev().map(|b| (e >> b) & 1 == 1).collect()
        }
        (Value::Bool(_), _) => Vec::new(),
    };
    w.change_vector(id, bits.into_iter().map(vcd::Value::from))
}

#[cfg(test)]
mod tests;
