//! Reference interpreter: steps a [`System`] given inputs and choice values.
//!
//! It shares no code with the bit-blaster, so the two check each other.

use std::collections::HashMap;
use std::sync::OnceLock;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::expr::{BinOp, ChoiceId, ExprId, ExprKind, UnOp};
use crate::system::{ConstraintKind, Role, System, VarId};
use crate::types::Type;
use crate::value::{mask, Value};

/// Why evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// An input (or free value) needed in this frame was not supplied.
    #[error("no value supplied for variable `{0}`")]
    MissingValue(String),
    /// A choice site needed in this frame has no chosen index, or the index is too large.
    #[error("no valid alternative chosen for choice site #{0}")]
    MissingChoice(u32),
    /// A value assigned to a variable lies outside its type.
    #[error("value {value} is outside the type of `{var}`")]
    OutOfRange {
        /// Variable name.
        var: String,
        /// The offending value.
        value: String,
    },
    /// `next()` used outside a transition constraint, or initial values depend on each other
    /// cyclically.
    #[error("{0}")]
    Ill(String),
}

/// The stimulus of one frame: input values, choice indices, and the free next values of state
/// variables that have no `next` function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// Values of input variables.
    pub inputs: HashMap<VarId, Value>,
    /// Chosen alternative (0-based) per choice site.
    pub choices: HashMap<ChoiceId, u32>,
    /// Next values of state variables without a `next` function.
    pub free_next: HashMap<VarId, Value>,
}

/// A run: state and outputs per frame, and whether the constraints held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Values of all state and frozen variables per frame (`None` for inputs).
    pub states: Vec<Vec<Option<Value>>>,
    /// Output values per frame, in [`System::outputs`] order.
    pub outputs: Vec<Vec<Value>>,
    /// Per frame: init (frame 0), invariant and transition (to the next frame) constraints
    /// all held.
    pub constraints_ok: Vec<bool>,
}

/// Evaluates expressions of one system.
pub struct Interpreter<'a> {
    sys: &'a System,
    /// The cone of the outputs, computed once (every frame evaluates it).
    outputs_cone: OnceLock<Cone>,
    /// The cone of the next-state functions, computed once.
    next_cone: OnceLock<Cone>,
}

/// The expressions a set of roots depends on, in evaluation order, with each expression's
/// position in that order.
struct Cone {
    order: Vec<ExprId>,
    /// Per expression of the system: its position in `order` (`u32::MAX` outside the cone).
    slot: Vec<u32>,
}

impl Cone {
    fn new(sys: &System, roots: impl IntoIterator<Item = ExprId>) -> Cone {
        let order = sys.exprs.cone(roots);
        let mut slot = vec![u32::MAX; sys.exprs.len()];
        for (k, e) in order.iter().enumerate() {
            slot[e.0 as usize] = k as u32;
        }
        Cone { order, slot }
    }
}

/// The values of a cone's expressions in one frame.
struct Vals<'c> {
    cone: &'c Cone,
    vals: Vec<Value>,
}

impl Vals<'_> {
    /// The value of `e`, which must be in the cone and evaluated already.
    fn get(&self, e: ExprId) -> &Value {
        &self.vals[self.cone.slot[e.0 as usize] as usize]
    }
}

struct Env<'e> {
    cur: &'e [Option<Value>],
    inputs: &'e HashMap<VarId, Value>,
    choices: &'e HashMap<ChoiceId, u32>,
    next: Option<&'e [Option<Value>]>,
}

impl<'a> Interpreter<'a> {
    /// An interpreter for `sys`.
    pub fn new(sys: &'a System) -> Self {
        Interpreter {
            sys,
            outputs_cone: OnceLock::new(),
            next_cone: OnceLock::new(),
        }
    }

    fn var_name(&self, v: VarId) -> String {
        self.sys.var(v).name.clone()
    }

    /// Evaluates the expressions of `cone` in order (children come before their parents).
    fn eval_many<'c>(&self, cone: &'c Cone, env: &Env) -> Result<Vals<'c>, EvalError> {
        let mut vals = Vals {
            cone,
            vals: Vec::with_capacity(cone.order.len()),
        };
        for &id in &cone.order {
            let v = self.eval_node(id, &vals, env)?;
            vals.vals.push(v);
        }
        Ok(vals)
    }

    /// Evaluates one expression given current values (`cur`, indexed by variable), inputs and
    /// choices, and optionally next-state values for `next()`.
    pub fn eval(
        &self,
        e: ExprId,
        cur: &[Option<Value>],
        frame: &Frame,
        next: Option<&[Option<Value>]>,
    ) -> Result<Value, EvalError> {
        let env = Env {
            cur,
            inputs: &frame.inputs,
            choices: &frame.choices,
            next,
        };
        let cone = Cone::new(self.sys, [e]);
        let vals = self.eval_many(&cone, &env)?;
        Ok(vals.get(e).clone())
    }

    fn eval_node(&self, id: ExprId, vals: &Vals, env: &Env) -> Result<Value, EvalError> {
        let node = self.sys.exprs.node(id);
        let ty = node.ty;
        let get = |e: &ExprId| vals.get(*e).clone();
        let ety = |e: &ExprId| self.sys.ty(*e);
        Ok(match &node.kind {
            ExprKind::Const(v) => v.clone(),
            ExprKind::Var(v) => {
                if self.sys.var(*v).role == Role::Input {
                    env.inputs
                        .get(v)
                        .cloned()
                        .ok_or_else(|| EvalError::MissingValue(self.var_name(*v)))?
                } else {
                    env.cur
                        .get(v.0 as usize)
                        .cloned()
                        .flatten()
                        .ok_or_else(|| EvalError::MissingValue(self.var_name(*v)))?
                }
            }
            ExprKind::Next(v) => env
                .next
                .ok_or_else(|| EvalError::Ill("next() outside a transition constraint".into()))?
                .get(v.0 as usize)
                .cloned()
                .flatten()
                .ok_or_else(|| EvalError::MissingValue(format!("next({})", self.var_name(*v))))?,
            ExprKind::Choice { id: c, options } => {
                let k = env
                    .choices
                    .get(c)
                    .copied()
                    .ok_or(EvalError::MissingChoice(c.0))?;
                let opt = options
                    .get(k as usize)
                    .ok_or(EvalError::MissingChoice(c.0))?;
                get(opt)
            }
            ExprKind::Ite(c, t, e) => {
                if get(c).as_bool() == Some(true) {
                    get(t)
                } else {
                    get(e)
                }
            }
            ExprKind::Unary(op, a) => unary(*op, get(a), ty),
            ExprKind::Binary(op, a, b) => binary(*op, &get(a), ety(a), &get(b), ety(b), ty),
            ExprKind::Extract { arg, hi, lo } => {
                let n = match get(arg) {
                    Value::Bits { bits, .. } => bits,
                    _ => BigUint::zero(),
                };
                Value::bits(hi - lo + 1, n >> *lo)
            }
            ExprKind::Cast(a, to) => cast(&get(a), ety(a), *to),
        })
    }

    fn free_value(
        &self,
        v: VarId,
        given: &HashMap<VarId, Value>,
        what: &str,
    ) -> Result<Value, EvalError> {
        given
            .get(&v)
            .cloned()
            .ok_or_else(|| EvalError::MissingValue(format!("{what} of {}", self.var_name(v))))
    }

    fn check_range(&self, v: VarId, val: Value) -> Result<Value, EvalError> {
        let var = self.sys.var(v);
        if val.fits(var.ty, &self.sys.enums) {
            Ok(val)
        } else {
            Err(EvalError::OutOfRange {
                var: var.name.clone(),
                value: val.display(var.ty, &self.sys.enums),
            })
        }
    }

    /// The initial state: `init` expressions evaluated over frame 0's inputs and choices (and
    /// other variables' initial values); variables without one take `free_init`.
    pub fn initial_state(
        &self,
        frame0: &Frame,
        free_init: &HashMap<VarId, Value>,
    ) -> Result<Vec<Option<Value>>, EvalError> {
        let n = self.sys.vars.len();
        let mut state: Vec<Option<Value>> = vec![None; n];
        let mut pending = Vec::new();
        for (i, var) in self.sys.vars.iter().enumerate() {
            let v = VarId(i as u32);
            match (var.role, var.init) {
                (Role::Input, _) => {}
                (_, None) => {
                    state[i] =
                        Some(self.check_range(v, self.free_value(v, free_init, "initial value")?)?)
                }
                (_, Some(e)) => pending.push((v, e)),
            }
        }
        // Resolve init expressions that read other initial values, in dependency order.
        while !pending.is_empty() {
            let before = pending.len();
            let mut rest = Vec::new();
            for (v, e) in pending {
                match self.eval(e, &state, frame0, None) {
                    Ok(val) => state[v.0 as usize] = Some(self.check_range(v, val)?),
                    Err(EvalError::MissingValue(name))
                        if self
                            .sys
                            .var_by_name(&name)
                            .is_some_and(|w| self.sys.var(w).role != Role::Input) =>
                    {
                        rest.push((v, e))
                    }
                    Err(err) => return Err(err),
                }
            }
            if rest.len() == before {
                return Err(EvalError::Ill(format!(
                    "initial values depend on each other cyclically: {}",
                    rest.iter()
                        .map(|(v, _)| self.var_name(*v))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            pending = rest;
        }
        Ok(state)
    }

    /// Values of the expressions of `cone` (no `next()`) in a state under a frame's inputs
    /// and choices.
    fn eval_in_frame<'c>(
        &self,
        cone: &'c Cone,
        state: &[Option<Value>],
        frame: &Frame,
    ) -> Result<Vals<'c>, EvalError> {
        let env = Env {
            cur: state,
            inputs: &frame.inputs,
            choices: &frame.choices,
            next: None,
        };
        self.eval_many(cone, &env)
    }

    /// Output values in a state under a frame's inputs and choices.
    pub fn outputs(&self, state: &[Option<Value>], frame: &Frame) -> Result<Vec<Value>, EvalError> {
        let cone = self
            .outputs_cone
            .get_or_init(|| Cone::new(self.sys, self.sys.outputs.iter().map(|o| o.expr)));
        let vals = self.eval_in_frame(cone, state, frame)?;
        Ok(self
            .sys
            .outputs
            .iter()
            .map(|o| vals.get(o.expr).clone())
            .collect())
    }

    /// The successor state.
    pub fn step(
        &self,
        state: &[Option<Value>],
        frame: &Frame,
    ) -> Result<Vec<Option<Value>>, EvalError> {
        let cone = self
            .next_cone
            .get_or_init(|| Cone::new(self.sys, self.sys.vars.iter().filter_map(|v| v.next)));
        let vals = self.eval_in_frame(cone, state, frame)?;
        let mut out = vec![None; state.len()];
        for (i, var) in self.sys.vars.iter().enumerate() {
            let v = VarId(i as u32);
            out[i] = match var.role {
                Role::Input => None,
                Role::Frozen => state[i].clone(),
                Role::State => Some(match var.next {
                    Some(e) => self.check_range(v, vals.get(e).clone())?,
                    None => {
                        self.check_range(v, self.free_value(v, &frame.free_next, "next value")?)?
                    }
                }),
            };
        }
        Ok(out)
    }

    /// Whether the constraints of the given kinds hold (transition constraints need `next`).
    pub fn constraints_hold(
        &self,
        kinds: &[ConstraintKind],
        state: &[Option<Value>],
        frame: &Frame,
        next: Option<&[Option<Value>]>,
    ) -> Result<bool, EvalError> {
        for c in &self.sys.constraints {
            if kinds.contains(&c.kind)
                && self.eval(c.expr, state, frame, next)?.as_bool() != Some(true)
            {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Runs the system over `frames`, starting from the initial state.
    pub fn run(
        &self,
        free_init: &HashMap<VarId, Value>,
        frames: &[Frame],
    ) -> Result<Trace, EvalError> {
        let mut trace = Trace {
            states: vec![],
            outputs: vec![],
            constraints_ok: vec![],
        };
        let Some(f0) = frames.first() else {
            return Ok(trace);
        };
        let mut state = self.initial_state(f0, free_init)?;
        for (k, frame) in frames.iter().enumerate() {
            let outs = self.outputs(&state, frame)?;
            let last = k + 1 == frames.len();
            let has_trans = self
                .sys
                .constraints
                .iter()
                .any(|c| c.kind == ConstraintKind::Trans);
            // The successor of the last frame is only needed to check transition constraints.
            let next = if last && !has_trans {
                state.clone()
            } else {
                self.step(&state, frame)?
            };
            let mut kinds = vec![ConstraintKind::Invariant, ConstraintKind::Trans];
            if k == 0 {
                kinds.push(ConstraintKind::Init);
            }
            let ok = self.constraints_hold(&kinds, &state, frame, Some(&next))?;
            trace.states.push(state);
            trace.outputs.push(outs);
            trace.constraints_ok.push(ok);
            state = next;
        }
        Ok(trace)
    }
}

fn width_of(ty: Type) -> u32 {
    ty.bv_width().unwrap_or(1)
}

fn signed(ty: Type) -> bool {
    matches!(ty, Type::BitVec { signed: true, .. })
}

fn unary(op: UnOp, a: Value, ty: Type) -> Value {
    match (op, a) {
        (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
        (UnOp::Not, Value::Bits { width, bits }) => Value::bits(width, bits ^ mask(width)),
        (UnOp::Neg, Value::Int(i)) => Value::Int(-i),
        (UnOp::Neg, v @ Value::Bits { .. }) => {
            Value::bits_from_int(width_of(ty), &-v.to_bigint(Type::ubv(width_of(ty))))
        }
        (_, v) => v,
    }
}

/// Integer division truncating toward zero; `x / 0 = 0`.
fn int_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        0
    } else {
        (a as i128 / b as i128) as i64
    }
}

/// Remainder with the dividend's sign; `x mod 0 = x`.
fn int_mod(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        (a as i128 % b as i128) as i64
    }
}

fn binary(op: BinOp, a: &Value, ta: Type, b: &Value, tb: Type, ty: Type) -> Value {
    use BinOp::*;
    let bool_of = |v: &Value| v.as_bool().unwrap_or(false);
    match op {
        And | Or | Xor | Implies | Iff if ty.is_bool() => {
            let (x, y) = (bool_of(a), bool_of(b));
            Value::Bool(match op {
                And => x && y,
                Or => x || y,
                Xor => x ^ y,
                Implies => !x || y,
                _ => x == y,
            })
        }
        And | Or | Xor => {
            let (Value::Bits { bits: x, .. }, Value::Bits { bits: y, .. }) = (a, b) else {
                return a.clone();
            };
            let w = width_of(ty);
            Value::bits(
                w,
                match op {
                    And => x & y,
                    Or => x | y,
                    _ => x ^ y,
                },
            )
        }
        Implies | Iff => Value::Bool(false),
        Eq => Value::Bool(
            a.to_bigint(ta) == b.to_bigint(tb)
                && std::mem::discriminant(a) == std::mem::discriminant(b),
        ),
        Ne => Value::Bool(
            !(a.to_bigint(ta) == b.to_bigint(tb)
                && std::mem::discriminant(a) == std::mem::discriminant(b)),
        ),
        Lt | Le | Gt | Ge => {
            let (x, y) = (a.to_bigint(ta), b.to_bigint(tb));
            Value::Bool(match op {
                Lt => x < y,
                Le => x <= y,
                Gt => x > y,
                _ => x >= y,
            })
        }
        Add | Sub | Mul | Div | Mod if ty.is_int() => {
            let (x, y) = (a.as_int().unwrap_or(0), b.as_int().unwrap_or(0));
            Value::Int(match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div => int_div(x, y),
                _ => int_mod(x, y),
            })
        }
        Add | Sub | Mul | Div | Mod => {
            let w = width_of(ty);
            let (x, y) = (a.to_bigint(ta), b.to_bigint(tb));
            let r: BigInt = match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div if y.is_zero() => {
                    if signed(ty) && x.is_negative() {
                        BigInt::one()
                    } else {
                        BigInt::from(mask(w))
                    }
                }
                Mod if y.is_zero() => x,
                // BigInt division truncates toward zero; remainder has the dividend's sign
                // (SMT-LIB bvsdiv / bvsrem; identical to unsigned for non-negative operands).
                Div => x / y,
                _ => x % y,
            };
            Value::bits_from_int(w, &r)
        }
        Shl | Shr => {
            let w = width_of(ty);
            let amount = b.to_bigint(tb);
            let sh = amount
                .to_u64()
                .map(|s| s.min(w as u64) as u32)
                .unwrap_or(if amount.is_negative() { 0 } else { w });
            let x = a.to_bigint(ta);
            let r = if op == Shl { x << sh } else { x >> sh };
            // BigInt >> rounds toward -inf: arithmetic for signed, logical for unsigned.
            Value::bits_from_int(w, &r)
        }
        Concat => {
            let (Value::Bits { width: wa, bits: x }, Value::Bits { width: wb, bits: y }) = (a, b)
            else {
                return a.clone();
            };
            Value::bits(wa + wb, (x.clone() << *wb) | y)
        }
    }
}

fn cast(a: &Value, from: Type, to: Type) -> Value {
    match to {
        Type::Bool => Value::Bool(match a {
            Value::Bool(b) => *b,
            v => !v.to_bigint(from).is_zero(),
        }),
        Type::BitVec { width, .. } => Value::bits_from_int(width, &a.to_bigint(from)),
        Type::Int { .. } => Value::Int(a.to_bigint(from).to_i64().unwrap_or(0)),
        Type::Enum(_) => a.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32, v: i64) -> Value {
        Value::bits_from_int(w, &BigInt::from(v))
    }

    #[test]
    fn bitvector_arithmetic_wraps() {
        let t = Type::ubv(4);
        assert_eq!(binary(BinOp::Add, &bv(4, 15), t, &bv(4, 2), t, t), bv(4, 1));
        assert_eq!(binary(BinOp::Sub, &bv(4, 0), t, &bv(4, 1), t, t), bv(4, 15));
        assert_eq!(binary(BinOp::Div, &bv(4, 7), t, &bv(4, 0), t, t), bv(4, 15));
        assert_eq!(binary(BinOp::Mod, &bv(4, 7), t, &bv(4, 0), t, t), bv(4, 7));
        let s = Type::sbv(4);
        assert_eq!(
            binary(BinOp::Div, &bv(4, -7), s, &bv(4, 2), s, s),
            bv(4, -3)
        );
        assert_eq!(
            binary(BinOp::Mod, &bv(4, -7), s, &bv(4, 2), s, s),
            bv(4, -1)
        );
        assert_eq!(
            binary(BinOp::Shr, &bv(4, -8), s, &bv(4, 1), s, s),
            bv(4, -4)
        );
        assert_eq!(binary(BinOp::Shr, &bv(4, 8), t, &bv(4, 1), t, t), bv(4, 4));
        assert_eq!(
            binary(BinOp::Lt, &bv(4, -1), s, &bv(4, 0), s, Type::Bool),
            Value::Bool(true)
        );
        assert_eq!(
            binary(BinOp::Lt, &bv(4, 15), t, &bv(4, 0), t, Type::Bool),
            Value::Bool(false)
        );
    }

    #[test]
    fn integer_division_truncates() {
        assert_eq!(int_div(-7, 2), -3);
        assert_eq!(int_mod(-7, 2), -1);
        assert_eq!(int_mod(7, -2), 1);
        assert_eq!(int_div(5, 0), 0);
        assert_eq!(int_mod(5, 0), 5);
    }

    #[test]
    fn counter_runs_and_range_is_checked() {
        let mut s = System::new("c");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 2 }, Role::State, None);
        let xr = s.var_ref(x, None);
        let one = s.int_const(1, None);
        let zero = s.int_const(0, None);
        let inc = s.mk(ExprKind::Binary(BinOp::Add, xr, one), None).unwrap();
        s.vars[0].init = Some(zero);
        s.vars[0].next = Some(inc);
        s.outputs.push(crate::system::Output {
            name: "x".into(),
            expr: xr,
        });
        let i = Interpreter::new(&s);
        let frames = vec![Frame::default(); 3];
        let t = i.run(&HashMap::new(), &frames).unwrap();
        assert_eq!(
            t.outputs,
            vec![
                vec![Value::Int(0)],
                vec![Value::Int(1)],
                vec![Value::Int(2)]
            ]
        );
        let err = i
            .run(&HashMap::new(), &vec![Frame::default(); 4])
            .unwrap_err();
        assert!(matches!(err, EvalError::OutOfRange { .. }), "{err}");
    }
}
