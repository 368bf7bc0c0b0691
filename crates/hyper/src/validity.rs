//! Range validity of a mutant, checked the way NuSMV checks a model: an assignment to an
//! integer-range variable must stay within the range in **every** state (reachable or not)
//! and for every input. A mutant that violates this is `invalid`, not killed.

use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{Aig, Named};
use hypermut_ir::Role;
use hypermut_mutate::ConditionalMutant;

use crate::error::HyperError;

/// A combinational circuit with one bad property per checked assignment; bad `k` holds for a
/// state and input in which the selected copy assigns a value outside the variable's range.
/// State variables are free (within their domains); inputs and nd inputs are free.
#[derive(Clone, Debug)]
pub struct RangeCheck {
    /// One bad property per checked assignment (named like the assignment); check at depth 0.
    pub aig: Aig,
}

impl RangeCheck {
    /// The circuit with only bad property `k` (for single-property engines).
    pub fn property(&self, k: usize) -> Option<Aig> {
        let b = self.aig.bad.get(k)?.clone();
        let mut g = self.aig.clone();
        g.bad = vec![b];
        Some(g)
    }
}

/// Builds the range check of the (nd-transformed) conditional mutant for the original
/// (`mutant = false`) or the mutant copy, or `None` if no assignment can leave its range by
/// the types alone.
pub fn range_check(cm: &ConditionalMutant, mutant: bool) -> Result<Option<RangeCheck>, HyperError> {
    let err = |e: hypermut_ir::TypeError| HyperError::Build(e.to_string());
    let mut s = cm.system.clone();
    let obligations = s.range_obligations().map_err(err)?;
    if obligations.is_empty() {
        return Ok(None);
    }
    // Every state variable becomes a free input; the selector is fixed.
    let t = s.bool_const(mutant, None);
    for (i, v) in s.vars.iter_mut().enumerate() {
        v.init = None;
        v.next = None;
        if i == cm.mut_var.0 as usize {
            v.role = Role::Frozen;
            v.init = Some(t);
        } else {
            v.role = Role::Input;
        }
    }
    s.constraints.clear();
    s.properties.clear();
    s.outputs = obligations
        .iter()
        .map(|o| hypermut_ir::Output {
            name: o.name.clone(),
            expr: o.in_range,
        })
        .collect();
    let b = blast(&s, &BlastOptions::default()).map_err(|e| HyperError::Build(e.to_string()))?;
    let mut aig = b.aig;
    aig.outputs.clear();
    for o in &b.outputs {
        if let Some(ok) = o.bits.first() {
            aig.bad.push(Named {
                lit: !*ok,
                name: o.name.clone(),
            });
        }
    }
    Ok(Some(RangeCheck { aig }))
}
