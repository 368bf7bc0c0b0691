//! From a model and one mutant to the product circuit that a prover checks.

use hypermut_aig::blast::{blast, BlastError, BlastOptions, Blasted};
use hypermut_aig::Lit;
use hypermut_ir::System;
use hypermut_mutate::{
    conditional, make_controllable, mimic_system, ConditionalMutant, Mutant, NdInput,
};

use crate::error::HyperError;
use crate::product::{product, Product};

/// Everything built for one mutant: the nd-transformed conditional mutant, its circuit and
/// the φ1 product.
#[derive(Clone, Debug)]
pub struct MutantProduct {
    /// The conditional mutant after the nd transformation.
    pub conditional: ConditionalMutant,
    /// The inputs the nd transformation created.
    pub nd: Vec<NdInput>,
    /// The bit-blasted conditional mutant.
    pub blasted: Blasted,
    /// The selector latch in `blasted.aig`.
    pub selector: Lit,
    /// The two-copy product.
    pub product: Product,
}

impl MutantProduct {
    /// Builds the conditional mutant of `mutant` in `model`, makes its nondeterminism
    /// controllable, bit-blasts it and composes the product.
    pub fn build(model: &System, mutant: &Mutant) -> Result<MutantProduct, HyperError> {
        let cm = conditional(model, mutant).map_err(|e| HyperError::Build(e.to_string()))?;
        MutantProduct::from_conditional(cm)
    }

    /// The product that decides whether `mutant` only narrows the original's choices
    /// (docs/method.md §4.6): the conditional mutant rewritten by
    /// [`hypermut_mutate::mimic_system`], then built like [`MutantProduct::build`]. Its
    /// `kill` is unreachable exactly when the original copy, taking at each mutated choice
    /// the value the mutant takes, is one of the original's runs with the mutant's outputs;
    /// then every behaviour of the mutant is one of the original's (the mutant is
    /// equivalent, docs/method.md §4.3). `Ok(None)` when the rewrite does not apply (the
    /// mutation is not at a choice, or the mutant's expression reads state); a reachable
    /// `kill` proves nothing about the mutant. The last output of the system is the
    /// membership failure, so a witness's last step shows whether the mutant took a value
    /// that is no alternative of the original.
    pub fn build_inclusion(
        model: &System,
        mutant: &Mutant,
    ) -> Result<Option<MutantProduct>, HyperError> {
        let cm = conditional(model, mutant).map_err(|e| HyperError::Build(e.to_string()))?;
        match mimic_system(&cm) {
            Some(mimic) => MutantProduct::from_conditional(mimic).map(Some),
            None => Ok(None),
        }
    }

    /// Makes the nondeterminism of a conditional mutant controllable, bit-blasts it and
    /// composes the product.
    fn from_conditional(mut cm: ConditionalMutant) -> Result<MutantProduct, HyperError> {
        let nd = make_controllable(&mut cm.system, &[cm.mut_var])
            .map_err(|e| HyperError::Build(e.to_string()))?;
        let blasted = blast(&cm.system, &BlastOptions::default()).map_err(|e| match e {
            // The original has no cycle, so the mutant's edit closes it.
            BlastError::CyclicInit { .. } => HyperError::InvalidMutant(e.to_string()),
            _ => HyperError::Build(e.to_string()),
        })?;
        let selector = blasted
            .state
            .iter()
            .find(|s| s.var == cm.mut_var)
            .and_then(|s| s.bits.first().copied())
            .ok_or(HyperError::NoSelector)?;
        let product = product(&blasted, selector)?;
        Ok(MutantProduct {
            conditional: cm,
            nd,
            blasted,
            selector,
            product,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use hypermut_aig::{simulate, Aig, Reset};
    use hypermut_ir::{ExprKind, Value};
    use hypermut_mutate::{enumerate, Edit, Operator};

    use super::*;

    /// The depth at which bad property 0 of `aig` is first reachable, decided by visiting
    /// every reachable state under every input vector (small circuits only). As in AIGER, a
    /// frame counts only if every constraint holds in it, and a run ends at a frame whose
    /// constraints fail.
    fn kill_depth(aig: &Aig) -> Option<usize> {
        let inputs = aig.inputs.len();
        assert!(inputs <= 12, "{inputs} inputs");
        // One step from any state: every latch takes its value from the given state.
        let mut free = aig.clone();
        for l in &mut free.latches {
            l.reset = Reset::Free;
        }
        let open: Vec<usize> = (0..aig.latches.len())
            .filter(|k| aig.latches[*k].reset == Reset::Free)
            .collect();
        assert!(open.len() <= 10, "{} uninitialised latches", open.len());
        let mut frontier: Vec<Vec<bool>> = (0..1u32 << open.len())
            .map(|code| {
                let mut state: Vec<bool> =
                    aig.latches.iter().map(|l| l.reset == Reset::One).collect();
                for (i, k) in open.iter().enumerate() {
                    state[*k] = code >> i & 1 == 1;
                }
                state
            })
            .collect();
        let mut seen: HashSet<Vec<bool>> = frontier.iter().cloned().collect();
        for depth in 0.. {
            let mut next = Vec::new();
            for state in &frontier {
                let init: Vec<Option<bool>> = state.iter().map(|b| Some(*b)).collect();
                for x in 0..1u32 << inputs {
                    let vector: Vec<Option<bool>> =
                        (0..inputs).map(|i| Some(x >> i & 1 == 1)).collect();
                    let run = simulate(&free, &init, &[vector]);
                    let frame = &run.frames[0];
                    if !frame.constraints.iter().all(|c| *c) {
                        continue;
                    }
                    if frame.bad[0] {
                        return Some(depth);
                    }
                    if seen.insert(run.final_latches.clone()) {
                        next.push(run.final_latches);
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }

    fn beverage() -> System {
        let path = hypermut_testkit::repo::path("models/smv/beverage.smv");
        let text = std::fs::read_to_string(path).expect("models/smv/beverage.smv");
        hypermut_smv::parse_smv("beverage.smv", &text).expect("the model loads")
    }

    fn mutant(sys: &System, op: Operator, replacement: &str) -> Mutant {
        enumerate(sys, &[op])
            .into_iter()
            .find(|m| m.replacement == replacement)
            .unwrap_or_else(|| panic!("a {op:?} mutant `{replacement}`"))
    }

    #[test]
    fn serving_only_coffee_is_included_in_the_beverage_machine() {
        let sys = beverage();
        for only in ["coff", "tea"] {
            let m = mutant(&sys, Operator::Cad, only);
            // φ1 alone kills it: the shared nd input makes the original serve the other.
            let plain = MutantProduct::build(&sys, &m).expect("product");
            assert_eq!(kill_depth(&plain.product.aig), Some(1), "{only}");
            let incl = MutantProduct::build_inclusion(&sys, &m)
                .expect("product")
                .expect("a narrowing of a choice");
            assert_eq!(kill_depth(&incl.product.aig), None, "{only}");
            let outputs = &incl.conditional.system.outputs;
            assert_eq!(
                outputs.last().map(|o| o.name.as_str()),
                Some(hypermut_mutate::inclusion::MEMBER_FAIL)
            );
        }
    }

    #[test]
    fn widening_the_refill_is_not_proved() {
        let sys = beverage();
        let text = &sys.sources.files()[0].text;
        let refill = text.find("wtr = 0 : 2").expect("refill line") + "wtr = 0 : ".len();
        let m = enumerate(&sys, &[Operator::Cwd])
            .into_iter()
            .find(|m| m.span.start as usize == refill)
            .expect("the refill widened to `{1, 2}`");
        assert_eq!(m.replacement, "{1, 2}");
        // The site is a constant, not a choice: nothing to prove by inclusion.
        assert!(MutantProduct::build_inclusion(&sys, &m)
            .expect("builds")
            .is_none());
        // It is killable: after a refill of one unit the second request gets nothing.
        let plain = MutantProduct::build(&sys, &m).expect("product");
        assert!(kill_depth(&plain.product.aig).is_some());
    }

    /// `x` takes a value of `{1, 2, 3}` in every step.
    fn set_model() -> System {
        hypermut_smv::parse_smv(
            "s.smv",
            "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0; next(x) := {1, 2, 3};\n",
        )
        .expect("the model loads")
    }

    /// A mutant of the choice of [`set_model`] into the choice among `values`.
    fn rechosen(sys: &System, values: &[i64]) -> Mutant {
        let site = enumerate(sys, &[Operator::Cad])
            .first()
            .expect("a choice")
            .site;
        assert!(matches!(sys.exprs.node(site).kind, ExprKind::Choice { .. }));
        Mutant {
            id: 0,
            operator: Operator::Cwd,
            site,
            extra_sites: vec![],
            span: sys.exprs.node(site).span.expect("span"),
            original: "{1, 2, 3}".into(),
            replacement: String::new(),
            edit: Edit::Widen {
                site: sys.choices.len() as u32,
                values: values.iter().map(|v| Value::Int(*v)).collect(),
            },
        }
    }

    #[test]
    fn a_choice_narrowed_or_reordered_is_included_one_widened_is_not() {
        let sys = set_model();
        // `cad`: `{1, 3}` keeps the site; code 1 gives 2 in the original and 3 in the mutant.
        let m = mutant(&sys, Operator::Cad, "{1, 3}");
        let plain = MutantProduct::build(&sys, &m).expect("product");
        assert_eq!(kill_depth(&plain.product.aig), Some(1));
        let incl = MutantProduct::build_inclusion(&sys, &m).expect("product");
        assert_eq!(kill_depth(&incl.expect("a choice").product.aig), None);
        // `{3, 2, 1}`, `{2}`: other values of the same alternatives.
        for values in [&[3, 2, 1][..], &[2, 2]] {
            let m = rechosen(&sys, values);
            let incl = MutantProduct::build_inclusion(&sys, &m).expect("product");
            assert_eq!(
                kill_depth(&incl.expect("a choice").product.aig),
                None,
                "{values:?}"
            );
        }
        // `{1, 3}` → `{1, 0}` and `{2, 3, 0}`: 0 is no alternative of the original.
        for values in [&[1, 0][..], &[2, 3, 0]] {
            let m = rechosen(&sys, values);
            let incl = MutantProduct::build_inclusion(&sys, &m).expect("product");
            assert!(
                kill_depth(&incl.expect("a choice").product.aig).is_some(),
                "{values:?}"
            );
        }
    }
}
