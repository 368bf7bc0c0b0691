//! The operator families and the enumeration driver.
//!
//! Each family module looks at one node at a time (`visit`) and proposes candidates
//! ([`ctx::Candidate`]) through [`Ctx::propose`], which keeps only type-correct edits whose
//! text differs from the original. [`merge::finish`] merges candidates that make the same
//! textual edit on several nodes (one source expression elaborated several times), drops
//! textual duplicates across operators, and numbers the mutants by source position,
//! operator and replacement.

mod binops;
mod bits;
mod branches;
mod choices;
mod consts;
mod ctx;
pub(crate) mod equiv;
mod logic;
mod merge;
mod regions;
mod vars;

use std::collections::HashSet;

use hypermut_ir::System;

use crate::operators::{Mutant, Operator};
use ctx::Ctx;

/// All mutants of a system by the given operators, with stable ids. Only expressions with
/// a source span are mutated; every mutant is type-correct, differs textually from the
/// original, and no two mutants make the same textual edit.
pub fn enumerate(sys: &System, operators: &[Operator]) -> Vec<Mutant> {
    enumeration(sys, operators).mutants
}

/// The mutants of [`enumerate`] and what the enumeration left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The mutants, with stable ids.
    pub mutants: Vec<Mutant>,
    /// Textual edits not produced because an exact (exhaustive) check found them equivalent
    /// to the original by construction (`docs/method.md` §10); edits checked only on a sample
    /// are kept and counted here never.
    pub dropped_equivalent: usize,
}

/// [`enumerate`], with the number of candidate mutants dropped as equivalent by construction.
pub fn enumeration(sys: &System, operators: &[Operator]) -> Enumeration {
    let mut cx = Ctx::new(sys, operators);
    cx.branches = branches::classify(&cx);
    cx.modules = regions::module_starts(&cx);
    cx.protected = regions::protected(&cx);
    for id in cx.order.clone() {
        if cx.span(id).is_none() {
            continue;
        }
        binops::visit(&mut cx, id);
        logic::visit(&mut cx, id);
        consts::visit(&mut cx, id);
        vars::visit(&mut cx, id);
        bits::visit(&mut cx, id);
        branches::visit(&mut cx, id);
        choices::visit(&mut cx, id);
    }
    vars::assignments(&mut cx);
    consts::initial_values(&mut cx);
    let cands = cx.take_candidates();
    let dropped = cx.take_dropped();
    let mutants = merge::finish(sys, cands);
    // A textual edit counts once, and not when it is a mutant anyway (equivalent on one node
    // its text was elaborated into, not on another; or made by another operator).
    let made: HashSet<_> = mutants
        .iter()
        .map(|m| (m.span, crate::text::normalise(&m.replacement)))
        .collect();
    let dropped: HashSet<_> = dropped
        .into_iter()
        .map(|c| (c.span, crate::text::normalise(&c.replacement)))
        .filter(|k| !made.contains(k))
        .collect();
    Enumeration {
        mutants,
        dropped_equivalent: dropped.len(),
    }
}
