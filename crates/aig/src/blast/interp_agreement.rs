//! Test support: a reference AIG evaluator independent of the crate's simulator, and the
//! differential check of the bit-blaster against [`hypermut_ir::Interpreter`].

use std::collections::HashMap;

use hypermut_ir::{ExprId, ExprKind, Frame, Interpreter, System, Type, Value, VarId};
use hypermut_testkit::sim::value_of_code;

use super::{blast, decode, BlastOptions, Blasted, Repr};
use crate::graph::{Aig, Lit, Node, Reset};

/// Values of every AIG variable in one frame, given latch and input values.
pub fn eval_frame(aig: &Aig, latches: &[bool], inputs: &[bool]) -> Vec<bool> {
    let mut val = vec![false; aig.num_vars() as usize];
    for (v, n) in aig.nodes().iter().enumerate() {
        val[v] = match n {
            Node::Const => false,
            Node::Input(i) => inputs[*i as usize],
            Node::Latch(i) => latches[*i as usize],
            Node::And(a, b) => lit_value(&val, *a) && lit_value(&val, *b),
        };
    }
    val
}

/// The value of a literal under variable values.
pub fn lit_value(val: &[bool], l: Lit) -> bool {
    val[l.var() as usize] ^ l.is_neg()
}

/// Storage bits of a value.
pub fn storage_bits(v: &Value, ty: Type, width: usize) -> Vec<bool> {
    (0..width as u32).map(|i| v.storage_bit(ty, i)).collect()
}

/// Runs `sys` for `frames` frames through the interpreter and through the blasted AIG on the
/// same random stimulus (`rand`), comparing outputs, constraint status and latch values.
/// Returns `Ok(false)` when the interpreter produced a value outside a node's declared
/// integer range (an IR typing problem; the comparison is then meaningless).
pub fn compare_with_interpreter(sys: &System, frames: usize, rand: &[u64]) -> Result<bool, String> {
    let mut r = rand.iter().copied().cycle();
    let mut next_rand = move || r.next().unwrap_or(0);
    let b = blast(sys, &BlastOptions::default()).map_err(|e| format!("blast failed: {e}"))?;
    let interp = Interpreter::new(sys);

    let stimulus: Vec<Frame> = (0..frames)
        .map(|_| Frame {
            inputs: b
                .inputs
                .iter()
                .map(|vb| (vb.var, value_of_code(sys, vb.ty, next_rand())))
                .collect(),
            ..Frame::default()
        })
        .collect();
    let free_init: HashMap<VarId, Value> = b
        .state
        .iter()
        .filter(|vb| sys.var(vb.var).init.is_none())
        .map(|vb| (vb.var, value_of_code(sys, vb.ty, next_rand())))
        .collect();
    let trace = interp
        .run(&free_init, &stimulus)
        .map_err(|e| format!("interpreter failed: {e}"))?;
    if !ranges_respected(sys, &interp, &trace.states, &stimulus)?
        && std::env::var("TMP_NOSKIP").is_err()
    {
        return Ok(false);
    }

    let mut latches = initial_latches(&b, &free_init);
    for (k, frame) in stimulus.iter().enumerate() {
        let mut ins = Vec::new();
        for vb in &b.inputs {
            ins.extend(storage_bits(&frame.inputs[&vb.var], vb.ty, vb.bits.len()));
        }
        let val = eval_frame(&b.aig, &latches, &ins);
        for (j, ob) in b.outputs.iter().enumerate() {
            let bits: Vec<bool> = ob.bits.iter().map(|l| lit_value(&val, *l)).collect();
            let got = decode(ob.ty, &bits, Repr::Expr);
            if got != trace.outputs[k][j] {
                return Err(format!(
                    "frame {k}: output {} is {got:?}, interpreter says {:?}",
                    ob.name, trace.outputs[k][j]
                ));
            }
        }
        let ok = b.aig.constraints.iter().all(|c| lit_value(&val, c.lit));
        if ok != trace.constraints_ok[k] {
            return Err(format!(
                "frame {k}: constraints {ok}, interpreter says {}",
                trace.constraints_ok[k]
            ));
        }
        for vb in &b.state {
            let dynamic = sys.var(vb.var).init.is_some_and(|e| {
                sys.exprs
                    .cone([e])
                    .iter()
                    .any(|n| matches!(sys.exprs.node(*n).kind, ExprKind::Var(_)))
            });
            if k == 0 && dynamic {
                continue; // the latch holds 0 until `started`
            }
            let bits: Vec<bool> = vb.bits.iter().map(|l| lit_value(&val, *l)).collect();
            let got = decode(vb.ty, &bits, Repr::Storage);
            let want = trace.states[k][vb.var.0 as usize].clone();
            if Some(&got) != want.as_ref() {
                return Err(format!(
                    "frame {k}: state {} is {got:?}, interpreter says {want:?}",
                    vb.name
                ));
            }
        }
        latches = b
            .aig
            .latches
            .iter()
            .map(|l| lit_value(&val, l.next))
            .collect();
    }
    Ok(true)
}

/// Latch values of frame 0: resets, with free latches taken from `free_init`.
pub fn initial_latches(b: &Blasted, free_init: &HashMap<VarId, Value>) -> Vec<bool> {
    let mut free: HashMap<Lit, bool> = HashMap::new();
    for vb in &b.state {
        if let Some(v) = free_init.get(&vb.var) {
            for (l, x) in vb.bits.iter().zip(storage_bits(v, vb.ty, vb.bits.len())) {
                free.insert(*l, x);
            }
        }
    }
    b.aig
        .latches
        .iter()
        .map(|l| match l.reset {
            Reset::Zero => false,
            Reset::One => true,
            Reset::Free => free.get(&l.lit).copied().unwrap_or(false),
        })
        .collect()
}

/// Whether every integer-typed node the run evaluates stays inside its declared range.
fn ranges_respected(
    sys: &System,
    interp: &Interpreter,
    states: &[Vec<Option<Value>>],
    frames: &[Frame],
) -> Result<bool, String> {
    let mut roots: Vec<ExprId> = sys.outputs.iter().map(|o| o.expr).collect();
    roots.extend(sys.vars.iter().filter_map(|v| v.next));
    roots.extend(sys.constraints.iter().map(|c| c.expr));
    let inits: Vec<ExprId> = sys.vars.iter().filter_map(|v| v.init).collect();
    for (k, (state, frame)) in states.iter().zip(frames).enumerate() {
        let next = interp.step(state, frame).map_err(|e| e.to_string())?;
        let mut rs = roots.clone();
        if k == 0 {
            rs.extend(&inits);
        }
        for id in sys.exprs.cone(rs) {
            let ty = sys.ty(id);
            if !ty.is_int() {
                continue;
            }
            let v = interp
                .eval(id, state, frame, Some(&next))
                .map_err(|e| e.to_string())?;
            if !v.fits(ty, &sys.enums) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
