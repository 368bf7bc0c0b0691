//! Conditional mutants: `e` becomes `mut ? e_m : e` with a frozen boolean `mut`.

use hypermut_ir::{ExprKind, Role, System, Type, Value, VarId};

use crate::edit::apply;
use crate::operators::Mutant;
use crate::MutateError;

/// Name of the frozen selector variable.
pub const MUT_VAR: &str = "mut";

/// A system in which the frozen variable `mut` selects the original (false) or the mutant
/// (true) behaviour.
#[derive(Clone, Debug)]
pub struct ConditionalMutant {
    /// The conditional system.
    pub system: System,
    /// The selector (Role::Frozen, boolean, free initial value).
    pub mut_var: VarId,
    /// The mutant it realises.
    pub mutant: Mutant,
}

/// Builds the conditional mutant of `sys` for `mutant` (which must come from
/// [`crate::enumerate`] on the same system).
pub fn conditional(sys: &System, mutant: &Mutant) -> Result<ConditionalMutant, MutateError> {
    let mut s = sys.clone();
    let mut_name = fresh_name(&s, MUT_VAR);
    let mut_var = s.add_var(mut_name, Type::Bool, Role::Frozen, None);
    let sites: Vec<_> = mutant.sites().collect();
    let id = mutant.id;
    let mut applied = 0;
    s.rewrite(|s, orig, rebuilt| {
        if !sites.contains(&orig) {
            return Ok(rebuilt);
        }
        applied += 1;
        let mutated = apply(s, rebuilt, &mutant.edit)?;
        let sel = s.var_ref(mut_var, None);
        s.mk(ExprKind::Ite(sel, mutated, rebuilt), None)
    })
    .map_err(|source| MutateError::IllTyped { id, source })?;
    if applied != sites.len() {
        return Err(MutateError::UnknownId(id));
    }
    Ok(ConditionalMutant {
        system: s,
        mut_var,
        mutant: mutant.clone(),
    })
}

/// `base`, or `base_1`, `base_2`, … if the name is taken.
pub(crate) fn fresh_name(sys: &System, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 0;
    while sys.var_by_name(&name).is_some() {
        k += 1;
        name = format!("{base}_{k}");
    }
    name
}

/// The value of the selector in copy A (original) and copy B (mutant).
pub fn selector_value(mutant_copy: bool) -> Value {
    Value::Bool(mutant_copy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate;
    use crate::operators::Operator;
    use hypermut_ir::{BinOp, Frame, Interpreter, Output, Span};
    use std::collections::HashMap;

    #[test]
    fn selector_switches_behaviour() {
        let mut s = System::new("t");
        let f = s.sources.add("t.smv", "x < 2");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::Input, None);
        let xr = s.var_ref(x, Some(Span::new(f, 0, 1)));
        let two = s.int_const(2, Some(Span::new(f, 4, 5)));
        let lt = s
            .mk(
                ExprKind::Binary(BinOp::Lt, xr, two),
                Some(Span::new(f, 0, 5)),
            )
            .unwrap();
        s.outputs.push(Output {
            name: "o".into(),
            expr: lt,
        });
        let ms = enumerate(&s, &[Operator::Ror]);
        let le = ms.iter().find(|m| m.replacement == "x <= 2").unwrap();
        let c = conditional(&s, le).unwrap();
        let i = Interpreter::new(&c.system);
        let mut frame = Frame::default();
        frame.inputs.insert(x, Value::Int(2));
        for (m, expect) in [(false, false), (true, true)] {
            let free = HashMap::from([(c.mut_var, Value::Bool(m))]);
            let t = i.run(&free, std::slice::from_ref(&frame)).unwrap();
            assert_eq!(t.outputs[0][0], Value::Bool(expect));
        }
    }
}
