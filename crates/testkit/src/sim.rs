//! Random runs of IR systems in the word-level interpreter: random values and stimuli, runs
//! whose inputs and outputs are named (so that two systems with different variable
//! numbering compare), and the strong kill of a conditional mutant.

use std::collections::HashMap;

use hypermut_ir::{ChoiceId, Frame, Interpreter, Role, System, Trace, Type, Value, VarId};

use crate::rng::SplitMix64;

/// A random value of type `ty`: a uniform valid code for booleans, ranges, enumerations and
/// words up to 63 bits, 64 random bits otherwise.
pub fn random_value(rng: &mut SplitMix64, sys: &System, ty: Type) -> Value {
    let code = match ty.cardinality(&sys.enums) {
        Some(card) if card > 0 && card < u64::MAX => rng.below(card),
        _ => rng.next_u64(),
    };
    value_of_code(sys, ty, code)
}

/// The value of type `ty` whose storage code (the offset from `lo` for a range) is `code`
/// modulo the number of values of `ty` (a word wider than 64 bits takes `code` as its low
/// bits). Lets a test draw values from numbers it is given, e.g. by proptest.
pub fn value_of_code(sys: &System, ty: Type, code: u64) -> Value {
    let width = match ty {
        Type::Bool => 1,
        Type::BitVec { width, .. } => width.min(64),
        _ => 64,
    };
    let code = match ty.cardinality(&sys.enums) {
        Some(card) if card > 0 && card < u64::MAX => code % card,
        _ => code,
    };
    let bits: Vec<bool> = (0..width).map(|i| (code >> i) & 1 == 1).collect();
    Value::from_storage_bits(ty, &bits)
}

/// Reads a value as test files write it (`TRUE`/`FALSE`, a decimal integer, an enumeration
/// literal, a word as a decimal number or `0ud<w>_<n>` / `0sd<w>_<n>`), for replaying tests
/// without hypermut's own reader. `None` if the text is no value of `ty`.
pub fn parse_test_value(sys: &System, ty: Type, text: &str) -> Option<Value> {
    match ty {
        Type::Bool => match text {
            "TRUE" => Some(Value::Bool(true)),
            "FALSE" => Some(Value::Bool(false)),
            _ => None,
        },
        Type::Int { lo, hi } => {
            let v: i64 = text.parse().ok()?;
            (lo..=hi).contains(&v).then_some(Value::Int(v))
        }
        Type::Enum(e) => sys.enums.get(e.0 as usize)?.index_of(text).map(Value::Enum),
        Type::BitVec { width, .. } => {
            let digits = match text.split_once('_') {
                Some((_, n)) => n,
                None => text,
            };
            let v: i128 = digits.parse().ok()?;
            let code = (v as u128)
                & if width >= 128 {
                    u128::MAX
                } else {
                    (1u128 << width) - 1
                };
            Some(Value::bits(width, code))
        }
    }
}

/// The input of one run, by name: input values per frame, choice indices per frame (by
/// choice site number) and initial values of state variables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stimulus {
    /// Input values per frame, by input name.
    pub inputs: Vec<HashMap<String, Value>>,
    /// Chosen alternative per choice site, per frame (missing frames choose nothing).
    pub choices: Vec<HashMap<u32, u32>>,
    /// Initial values, by variable name.
    pub init: HashMap<String, Value>,
}

impl Stimulus {
    /// Random input values for `frames` frames; no choices, no initial values.
    pub fn random_inputs(rng: &mut SplitMix64, sys: &System, frames: usize) -> Stimulus {
        let inputs = (0..frames)
            .map(|_| {
                sys.vars
                    .iter()
                    .filter(|v| v.role == Role::Input)
                    .map(|v| (v.name.clone(), random_value(rng, sys, v.ty)))
                    .collect()
            })
            .collect();
        Stimulus {
            inputs,
            ..Stimulus::default()
        }
    }

    /// Random input values and choice indices for `frames` frames, and random initial values
    /// for the variables without an initial value (drawn in this order).
    pub fn random(rng: &mut SplitMix64, sys: &System, frames: usize) -> Stimulus {
        let mut st = Stimulus::random_inputs(rng, sys, frames);
        st.choices = (0..frames)
            .map(|_| {
                sys.choices
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i as u32, rng.below(u64::from(c.arity.max(1))) as u32))
                    .collect()
            })
            .collect();
        st.init = sys
            .vars
            .iter()
            .filter(|v| v.role != Role::Input && v.init.is_none())
            .map(|v| (v.name.clone(), random_value(rng, sys, v.ty)))
            .collect();
        st
    }

    /// The interpreter's frames for `sys` (names `sys` does not have are left out).
    pub fn frames(&self, sys: &System) -> Vec<Frame> {
        (0..self.inputs.len())
            .map(|k| {
                let mut f = Frame::default();
                for (n, v) in &self.inputs[k] {
                    if let Some(id) = sys.var_by_name(n) {
                        f.inputs.insert(id, v.clone());
                    }
                }
                for (c, i) in self.choices.get(k).into_iter().flatten() {
                    f.choices.insert(ChoiceId(*c), *i);
                }
                f
            })
            .collect()
    }
}

/// Outputs per frame by output name of a run of `sys` on `st`, with the initial values of
/// `st` and then `fixed` (by variable name; names `sys` does not have are left out). `None`
/// if the run fails (e.g. a value leaves its variable's range).
pub fn outputs_by_name(
    sys: &System,
    st: &Stimulus,
    fixed: &[(&str, Value)],
) -> Option<Vec<HashMap<String, Value>>> {
    let init: HashMap<VarId, Value> = st
        .init
        .iter()
        .map(|(n, v)| (n.as_str(), v))
        .chain(fixed.iter().map(|(n, v)| (*n, v)))
        .filter_map(|(n, v)| sys.var_by_name(n).map(|id| (id, v.clone())))
        .collect();
    let trace = Interpreter::new(sys).run(&init, &st.frames(sys)).ok()?;
    Some(
        trace
            .outputs
            .iter()
            .map(|outs| {
                sys.outputs
                    .iter()
                    .zip(outs)
                    .map(|(o, v)| (o.name.clone(), v.clone()))
                    .collect()
            })
            .collect(),
    )
}

/// Whether run `b` strongly kills against run `a` (the same frames): some output differs in a
/// frame up to which the constraints held on both sides, or in some frame the constraints
/// hold on one side only (a step that only one copy can take distinguishes them).
pub fn strong_kill(a: &Trace, b: &Trace) -> bool {
    for k in 0..a.outputs.len().min(b.outputs.len()) {
        if a.constraints_ok[k] != b.constraints_ok[k] {
            return true;
        }
        if !a.constraints_ok[k] {
            return false;
        }
        if a.outputs[k] != b.outputs[k] {
            return true;
        }
    }
    false
}

/// Whether `frames` strongly kill the conditional mutant `sys` whose selector is the frozen
/// boolean `selector` (`false`: original, `true`: mutant); `None` if a run fails.
pub fn selector_kills(sys: &System, selector: VarId, frames: &[Frame]) -> Option<bool> {
    let interp = Interpreter::new(sys);
    let run = |b: bool| {
        interp
            .run(&HashMap::from([(selector, Value::Bool(b))]), frames)
            .ok()
    };
    Some(strong_kill(&run(false)?, &run(true)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{BinOp, ExprKind, Output};

    /// `y = a + 1` over `a : 0..3`, `y : 1..4`.
    fn inc() -> System {
        let mut s = System::new("t");
        let a = s.add_var("a", Type::Int { lo: 0, hi: 3 }, Role::Input, None);
        let ar = s.var_ref(a, None);
        let one = s.int_const(1, None);
        let y = s
            .mk(ExprKind::Binary(BinOp::Add, ar, one), None)
            .expect("well typed");
        s.outputs.push(Output {
            name: "y".into(),
            expr: y,
        });
        s
    }

    #[test]
    fn random_values_are_valid_codes() {
        let sys = inc();
        let mut rng = SplitMix64::new(1);
        for _ in 0..100 {
            let v = random_value(&mut rng, &sys, Type::Int { lo: -2, hi: 5 });
            assert!(v.fits(Type::Int { lo: -2, hi: 5 }, &sys.enums), "{v:?}");
            let w = random_value(&mut rng, &sys, Type::ubv(3));
            assert!(w.fits(Type::ubv(3), &sys.enums), "{w:?}");
        }
    }

    #[test]
    fn codes_wrap_around_the_type() {
        let sys = inc();
        let r = Type::Int { lo: -2, hi: 5 };
        assert_eq!(value_of_code(&sys, r, 0), Value::Int(-2));
        assert_eq!(value_of_code(&sys, r, 9), Value::Int(-1));
        assert_eq!(value_of_code(&sys, Type::Bool, 3), Value::Bool(true));
        assert_eq!(value_of_code(&sys, Type::ubv(3), 13), Value::bits(3, 5u8));
        assert_eq!(
            value_of_code(&sys, Type::ubv(70), u64::MAX),
            Value::bits(70, u64::MAX)
        );
    }

    #[test]
    fn runs_are_named_and_reproducible() {
        let sys = inc();
        let st = Stimulus::random(&mut SplitMix64::new(9), &sys, 5);
        assert_eq!(st, Stimulus::random(&mut SplitMix64::new(9), &sys, 5));
        let out = outputs_by_name(&sys, &st, &[]).expect("runs");
        assert_eq!(out.len(), 5);
        for (ins, outs) in st.inputs.iter().zip(&out) {
            let Value::Int(a) = ins["a"] else {
                panic!("an integer input")
            };
            assert_eq!(outs["y"], Value::Int(a + 1));
        }
    }

    #[test]
    fn strong_kills_stop_at_blocked_frames() {
        let t = |outs: &[i64], ok: &[bool]| Trace {
            states: vec![],
            outputs: outs.iter().map(|o| vec![Value::Int(*o)]).collect(),
            constraints_ok: ok.to_vec(),
        };
        let a = t(&[1, 2, 3], &[true, true, true]);
        assert!(!strong_kill(&a, &a));
        assert!(strong_kill(&a, &t(&[1, 2, 4], &[true, true, true])));
        assert!(strong_kill(&a, &t(&[1, 2, 3], &[true, false, true])));
        let blocked = t(&[1, 2, 3], &[true, false, false]);
        assert!(!strong_kill(
            &blocked,
            &t(&[1, 5, 3], &[true, false, false])
        ));
    }
}
