//! The nd transformation: every source of nondeterminism becomes a controllable input.
//!
//! Choice sites `{e1, …, en}` become `case nd = 0 : e1; …; TRUE : en` over a fresh unsigned
//! input of ⌈log2 n⌉ bits (surplus codes select the last alternative); a free initial value
//! becomes an initial value read from an input in frame 0; a free next value becomes an input.
//! In a product both copies read the same inputs, so they resolve nondeterminism identically.

use serde::{Deserialize, Serialize};

use hypermut_ir::types::bits_for;
use hypermut_ir::{BinOp, ExprId, ExprKind, Role, Span, System, Type, Value, VarId};

use crate::conditional::fresh_name;
use crate::MutateError;

/// Where a controllable input came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NdSource {
    /// A choice site (`{a, b}`, `$ND`), with its position.
    Choice {
        /// Choice site id.
        id: u32,
        /// Source range of the choice.
        span: Option<Span>,
        /// Number of alternatives.
        arity: u32,
    },
    /// The free initial value of a variable.
    Init {
        /// The variable's name.
        var: String,
    },
    /// The free next value of a variable.
    Next {
        /// The variable's name.
        var: String,
    },
}

/// One input created by the transformation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NdInput {
    /// The new input variable.
    pub var: VarId,
    /// What nondeterminism it resolves.
    pub source: NdSource,
}

/// Makes all nondeterminism of `sys` controllable, except the free initial values of the
/// variables in `keep_free` (e.g. the mutant selector). Returns the inputs it created.
pub fn make_controllable(
    sys: &mut System,
    keep_free: &[VarId],
) -> Result<Vec<NdInput>, MutateError> {
    let mut created = Vec::new();
    // Choice sites: one input per site, shared by all occurrences of the site's node.
    let mut site_inputs: Vec<Option<VarId>> = vec![None; sys.choices.len()];
    sys.rewrite(|s, _orig, rebuilt| {
        let ExprKind::Choice { id, options } = s.exprs.node(rebuilt).kind.clone() else {
            return Ok(rebuilt);
        };
        let span = s.exprs.node(rebuilt).span;
        let ty = s.ty(rebuilt);
        if options.len() == 1 {
            return Ok(options[0]);
        }
        let width = bits_for(options.len() as u64);
        let sel_ty = Type::ubv(width);
        let var = match site_inputs.get(id.0 as usize).copied().flatten() {
            Some(v) => v,
            None => {
                let name = fresh_name(s, &format!("nd.{}", id.0));
                let v = s.add_var(name, sel_ty, Role::Input, span);
                if let Some(slot) = site_inputs.get_mut(id.0 as usize) {
                    *slot = Some(v);
                }
                created.push(NdInput {
                    var: v,
                    source: NdSource::Choice {
                        id: id.0,
                        span,
                        arity: options.len() as u32,
                    },
                });
                v
            }
        };
        let sel = s.var_ref(var, None);
        let last = options.len() - 1;
        let mut acc = cast_to(s, options[last], ty)?;
        for (k, opt) in options.iter().enumerate().take(last).rev() {
            let code = s.bv_const(sel_ty, Value::bits(width, k as u64), None);
            let is_k = s.mk(ExprKind::Binary(BinOp::Eq, sel, code), None)?;
            let opt = cast_to(s, *opt, ty)?;
            acc = s.mk(ExprKind::Ite(is_k, opt, acc), None)?;
        }
        Ok(acc)
    })?;
    // Free initial and next values.
    for i in 0..sys.vars.len() {
        let v = VarId(i as u32);
        let var = sys.var(v).clone();
        if var.role == Role::Input {
            continue;
        }
        // A kept variable keeps only its free initial value; a missing next value still
        // becomes an input.
        if var.init.is_none() && !keep_free.contains(&v) {
            let name = fresh_name(sys, &format!("nd.init.{}", var.name));
            let input = sys.add_var(name, var.ty, Role::Input, var.span);
            let read = sys.var_ref(input, None);
            sys.vars[i].init = Some(read);
            created.push(NdInput {
                var: input,
                source: NdSource::Init {
                    var: var.name.clone(),
                },
            });
        }
        if var.role == Role::State && var.next.is_none() {
            let name = fresh_name(sys, &format!("nd.next.{}", var.name));
            let input = sys.add_var(name, var.ty, Role::Input, var.span);
            let read = sys.var_ref(input, None);
            sys.vars[i].next = Some(read);
            created.push(NdInput {
                var: input,
                source: NdSource::Next {
                    var: var.name.clone(),
                },
            });
        }
    }
    Ok(created)
}

/// `e` converted to the integer range `ty` when both are integers (so that every alternative
/// of a choice has the choice's type); otherwise `e` itself.
fn cast_to(s: &mut System, e: ExprId, ty: Type) -> Result<ExprId, hypermut_ir::TypeError> {
    if s.ty(e) == ty || !(ty.is_int() && s.ty(e).is_int()) {
        return Ok(e);
    }
    s.mk(ExprKind::Cast(e, ty), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{Frame, Interpreter, Output};
    use std::collections::HashMap;

    #[test]
    fn choice_becomes_input_with_surplus_codes_on_last() {
        let mut s = System::new("t");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 5 }, Role::State, None);
        let opts: Vec<ExprId> = [1, 3, 5].iter().map(|v| s.int_const(*v, None)).collect();
        let c = s.choice(opts, None).unwrap();
        let zero = s.int_const(0, None);
        s.vars[0].init = Some(zero);
        s.vars[0].next = Some(c);
        let xr = s.var_ref(x, None);
        s.outputs.push(Output {
            name: "x".into(),
            expr: xr,
        });
        let created = make_controllable(&mut s, &[]).unwrap();
        assert_eq!(created.len(), 1);
        let nd = created[0].var;
        assert_eq!(s.var(nd).ty, Type::ubv(2));
        let i = Interpreter::new(&s);
        for (code, expect) in [(0u64, 1i64), (1, 3), (2, 5), (3, 5)] {
            let mut f = Frame::default();
            f.inputs.insert(nd, Value::bits(2, code));
            let t = i.run(&HashMap::new(), &[f.clone(), f]).unwrap();
            assert_eq!(t.outputs[1][0], Value::Int(expect), "code {code}");
        }
    }

    #[test]
    fn free_init_and_next_become_inputs_but_kept_vars_stay_free() {
        let mut s = System::new("t");
        let a = s.add_var("a", Type::Bool, Role::State, None);
        let m = s.add_var("mut", Type::Bool, Role::Frozen, None);
        let created = make_controllable(&mut s, &[m]).unwrap();
        let kinds: Vec<_> = created.iter().map(|c| c.source.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                NdSource::Init { var: "a".into() },
                NdSource::Next { var: "a".into() }
            ]
        );
        assert!(s.var(a).init.is_some() && s.var(a).next.is_some());
        assert!(s.var(m).init.is_none());
    }
}
