//! Initial values of registers without one (`--init`, `docs/method.md` §6.1): free power-up
//! values (the default) or zero, as yosys `-zinit` gives them.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use hypermut_ir::{ConstraintKind, ExprKind, Role, System, Type, Value, VarId};

/// What a state variable without an initial value starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InitOption {
    /// Any value of its type, a power-up value the tests may choose (nd input
    /// `nd.init.<var>`).
    #[default]
    Free,
    /// The value of code 0: 0 for words, `FALSE` for booleans, the first value of an
    /// enumeration, the lowest value of an integer range.
    Zero,
}

impl InitOption {
    /// The option's name: `free` or `zero`.
    pub fn name(self) -> &'static str {
        match self {
            InitOption::Free => "free",
            InitOption::Zero => "zero",
        }
    }
}

impl fmt::Display for InitOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An `--init` value that is neither `free` nor `zero`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--init `{0}`: expected `free` or `zero`")]
pub struct InitParseError(pub String);

impl FromStr for InitOption {
    type Err = InitParseError;

    fn from_str(text: &str) -> Result<Self, InitParseError> {
        match text.trim() {
            "free" => Ok(InitOption::Free),
            "zero" => Ok(InitOption::Zero),
            _ => Err(InitParseError(text.to_string())),
        }
    }
}

/// The value of code 0 of `ty` (see [`InitOption::Zero`]).
pub fn zero_value(ty: Type) -> Value {
    match ty {
        Type::Bool => Value::Bool(false),
        Type::BitVec { width, .. } => Value::bits(width, 0u32),
        Type::Int { lo, .. } => Value::Int(lo),
        Type::Enum(_) => Value::Enum(0),
    }
}

/// Gives every state variable of `sys` without an initial value the initial value of code 0
/// ([`zero_value`]), except those an `INIT` constraint reads (their initial values stay as
/// the constraint allows; zero might contradict it). Frozen variables (SMV `FROZENVAR`) keep
/// free values: they are parameters of the model, not registers. Returns the variables
/// changed. The constants have no source span, so no mutation touches them.
pub fn zero_init(sys: &mut System) -> Vec<VarId> {
    let init_roots: Vec<_> = sys
        .constraints
        .iter()
        .filter(|c| c.kind == ConstraintKind::Init)
        .map(|c| c.expr)
        .collect();
    let constrained: HashSet<VarId> = sys
        .exprs
        .cone(init_roots)
        .into_iter()
        .filter_map(|id| match sys.exprs.node(id).kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        })
        .collect();
    let targets: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| {
            let var = sys.var(*v);
            var.role == Role::State && var.init.is_none() && !constrained.contains(v)
        })
        .collect();
    for v in &targets {
        let ty = sys.var(*v).ty;
        let zero = sys.constant(ty, zero_value(ty), None);
        sys.vars[v.0 as usize].init = Some(zero);
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{BinOp, Constraint, Interpreter};
    use std::collections::HashMap;

    #[test]
    fn option_names() {
        assert_eq!("free".parse(), Ok(InitOption::Free));
        assert_eq!("zero".parse(), Ok(InitOption::Zero));
        assert_eq!(InitOption::default(), InitOption::Free);
        let e = "one".parse::<InitOption>().unwrap_err();
        assert_eq!(e.to_string(), "--init `one`: expected `free` or `zero`");
        for o in [InitOption::Free, InitOption::Zero] {
            assert_eq!(o.to_string().parse(), Ok(o));
        }
    }

    #[test]
    fn zero_is_code_zero_of_every_type() {
        let mut s = System::new("t");
        let e = s.add_enum("e", vec!["idle".into(), "busy".into()]);
        let types = [
            Type::Bool,
            Type::ubv(5),
            Type::sbv(3),
            Type::Int { lo: -2, hi: 4 },
            Type::Int { lo: 3, hi: 9 },
            Type::Enum(e),
        ];
        let vars: Vec<VarId> = types
            .iter()
            .enumerate()
            .map(|(i, t)| s.add_var(format!("v{i}"), *t, Role::State, None))
            .collect();
        let input = s.add_var("i", Type::Bool, Role::Input, None);
        let frozen = s.add_var("f", Type::Bool, Role::Frozen, None);
        // `v1` has an initial value already; `v4` is read by an INIT constraint.
        let seven = s.constant(Type::ubv(5), Value::bits(5, 7u32), None);
        s.vars[vars[1].0 as usize].init = Some(seven);
        let v4 = s.var_ref(vars[4], None);
        let five = s.int_const(5, None);
        let c = s.mk(ExprKind::Binary(BinOp::Eq, v4, five), None).unwrap();
        s.constraints.push(Constraint {
            kind: ConstraintKind::Init,
            expr: c,
            span: None,
        });
        let changed = zero_init(&mut s);
        assert_eq!(changed, [vars[0], vars[2], vars[3], vars[5]]);
        assert!(s.var(input).init.is_none() && s.var(frozen).init.is_none());
        assert!(s.var(vars[4]).init.is_none());
        // The interpreter's initial state, with no free values left to give but `v4`'s and
        // `f`'s, is code 0 of each type: every storage bit is 0 (offset binary for ranges,
        // the index for enumerations).
        let mut free = HashMap::new();
        free.insert(vars[4], Value::Int(5));
        free.insert(frozen, Value::Bool(true));
        let state = Interpreter::new(&s)
            .initial_state(&Default::default(), &free)
            .unwrap();
        for (i, v) in vars.iter().enumerate() {
            let val = state[v.0 as usize].clone().unwrap();
            let ty = s.var(*v).ty;
            let all_zero = (0..64).all(|b| !val.storage_bit(ty, b));
            assert_eq!(all_zero, i != 1 && i != 4, "v{i} = {val:?}");
        }
        for id in s
            .exprs
            .cone(changed.iter().map(|v| s.var(*v).init.unwrap()))
        {
            assert!(s.exprs.node(id).span.is_none());
        }
    }
}
