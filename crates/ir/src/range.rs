//! Range obligations: an assignment to an integer-range variable must produce a value within
//! the range. NuSMV rejects a model if any assignment can leave its range in any state.

use crate::expr::{BinOp, ExprId, ExprKind};
use crate::system::System;
use crate::types::{Type, TypeError};

/// One assignment that can leave its variable's range, judged by types alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeObligation {
    /// The assignment, as `init(x)` or `next(x)`.
    pub name: String,
    /// A boolean expression that holds iff the assigned value lies within the range.
    pub in_range: ExprId,
}

/// `lo <= e & e <= hi`, or `None` when the type of `e` already lies within `lo..=hi`.
fn in_range(s: &mut System, e: ExprId, lo: i64, hi: i64) -> Result<Option<ExprId>, TypeError> {
    let Type::Int { lo: elo, hi: ehi } = s.ty(e) else {
        return Ok(None);
    };
    if lo <= elo && ehi <= hi {
        return Ok(None);
    }
    let l = s.int_const(lo, None);
    let h = s.int_const(hi, None);
    let ge = s.mk(ExprKind::Binary(BinOp::Ge, e, l), None)?;
    let le = s.mk(ExprKind::Binary(BinOp::Le, e, h), None)?;
    Ok(Some(s.mk(ExprKind::Binary(BinOp::And, ge, le), None)?))
}

impl System {
    /// The range obligations of every `init`/`next` assignment to an integer-range variable
    /// whose value type is wider than the variable's range (builds the checking expressions).
    pub fn range_obligations(&mut self) -> Result<Vec<RangeObligation>, TypeError> {
        let mut out = Vec::new();
        for i in 0..self.vars.len() {
            let var = self.vars[i].clone();
            let Type::Int { lo, hi } = var.ty else {
                continue;
            };
            for (what, e) in [("init", var.init), ("next", var.next)] {
                if let Some(e) = e {
                    if let Some(ok) = in_range(self, e, lo, hi)? {
                        out.push(RangeObligation {
                            name: format!("{what}({})", var.name),
                            in_range: ok,
                        });
                    }
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::Role;

    #[test]
    fn only_assignments_wider_than_the_range_are_obligations() {
        let mut s = System::new("t");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::State, None);
        let y = s.add_var("y", Type::Int { lo: 0, hi: 3 }, Role::State, None);
        let xr = s.var_ref(x, None);
        let one = s.int_const(1, None);
        let inc = s.mk(ExprKind::Binary(BinOp::Add, xr, one), None).unwrap();
        s.vars[x.0 as usize].next = Some(inc);
        s.vars[y.0 as usize].next = Some(xr);
        let obs = s.range_obligations().unwrap();
        assert_eq!(obs.len(), 1);
        assert_eq!(obs[0].name, "next(x)");
    }
}
