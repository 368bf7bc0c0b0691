//! From a model and one mutant to the product circuit that a prover checks.

use hypermut_aig::blast::{blast, BlastError, BlastOptions, Blasted};
use hypermut_aig::{Lit, Witness};
use hypermut_ir::System;
use hypermut_mutate::{
    conditional, make_controllable, meta_mutant, mimic_system, ConditionalMutant, MetaMutant,
    Mutant, NdInput,
};

use crate::error::HyperError;
use crate::product::{meta_product, product, Product};

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

/// A meta-mutant after the nd transformation (the selector kept frozen, so that nd inputs
/// have the names they have in each conditional mutant), bit-blasted.
#[derive(Clone, Debug)]
pub(crate) struct BlastedMeta {
    /// The transformed system.
    pub system: System,
    /// The inputs the nd transformation created.
    pub nd: Vec<NdInput>,
    /// Its circuit.
    pub blasted: Blasted,
    /// The selector's latches in `blasted.aig`, LSB first.
    pub selector: Vec<Lit>,
}

impl BlastedMeta {
    /// Transforms and bit-blasts `meta`.
    pub fn build(meta: &MetaMutant) -> Result<BlastedMeta, HyperError> {
        let mut system = meta.system.clone();
        let nd = make_controllable(&mut system, &[meta.selector])
            .map_err(|e| HyperError::Build(e.to_string()))?;
        let blasted = blast(&system, &BlastOptions::default())
            .map_err(|e| HyperError::Build(e.to_string()))?;
        let selector = blasted
            .state
            .iter()
            .find(|s| s.var == meta.selector)
            .map(|s| s.bits.clone())
            .ok_or(HyperError::NoSelector)?;
        if selector
            .iter()
            .any(|l| l.is_neg() || blasted.aig.latch_index(*l).is_none())
        {
            return Err(HyperError::NoSelector);
        }
        Ok(BlastedMeta {
            system,
            nd,
            blasted,
            selector,
        })
    }
}

/// Some mutants of a model in one product (`docs/method.md` §7.10): their meta-mutant after
/// the nd transformation, bit-blasted, composed by [`meta_product`] so that copy B may be any
/// of them. A witness of its `kill` kills the mutant its selector names
/// ([`MetaProduct::killed`]); `kill` unreachable means that every one of them is equivalent.
#[derive(Clone, Debug)]
pub struct MetaProduct {
    /// The meta-mutant (selector code `k` is `meta.mutants[k - 1]`).
    pub meta: MetaMutant,
    /// The inputs the nd transformation created.
    pub nd: Vec<NdInput>,
    /// The bit-blasted meta-mutant.
    pub blasted: Blasted,
    /// The product, with copy B's selector latches in `product.selector_b`.
    pub product: Product,
}

impl MetaProduct {
    /// Builds the meta-mutant of `mutants` (from [`hypermut_mutate::enumerate`] on `model`),
    /// makes its nondeterminism controllable and composes the product.
    pub fn build(model: &System, mutants: &[Mutant]) -> Result<MetaProduct, HyperError> {
        let meta = meta_mutant(model, mutants).map_err(|e| HyperError::Build(e.to_string()))?;
        let b = BlastedMeta::build(&meta)?;
        let product = meta_product(&b.blasted, &b.selector)?;
        Ok(MetaProduct {
            meta,
            nd: b.nd,
            blasted: b.blasted,
            product,
        })
    }

    /// The mutant that the witness `w` of the product's `kill` kills: the one its selector
    /// latches' power-up values name (`None` for code 0 or a code past the last mutant, which
    /// behave like the original and kill nothing).
    pub fn killed(&self, w: &Witness) -> Option<&Mutant> {
        let aig = &self.product.aig;
        let mut code = 0usize;
        for (bit, lit) in self.product.selector_b.iter().enumerate() {
            let on = aig
                .latch_index(*lit)
                .and_then(|k| w.init.get(k).copied().flatten())
                .unwrap_or(false);
            if on && bit < usize::BITS as usize {
                code |= 1 << bit;
            }
        }
        code.checked_sub(1).and_then(|k| self.meta.mutants.get(k))
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

    /// A counter with a parity bit and a nondeterministic step: kills of different depths.
    const STEPPER: &str = "-- @output lo\n-- @output hi\nMODULE main\nIVAR go : boolean;\n\
        VAR cnt : 0..3; par : boolean; st : {a, b};\n\
        DEFINE lo := cnt < 2 & par; hi := cnt = 3 | st = b;\n\
        ASSIGN init(cnt) := 0; next(cnt) := case go & cnt < 3 : cnt + 1; TRUE : cnt; esac;\n\
        init(par) := FALSE; next(par) := case go : !par; TRUE : par; esac;\n\
        init(st) := a; next(st) := case cnt = 2 : {a, b}; TRUE : st; esac;\n";

    /// The meta product's `kill` is first reachable at the depth of the shallowest kill of its
    /// mutants' own products (both by exhaustive search), and unreachable when none is.
    #[test]
    fn a_meta_product_kills_as_early_as_its_most_killable_mutant() {
        let sys = hypermut_smv::parse_smv("s.smv", STEPPER).expect("model");
        let ms: Vec<Mutant> = enumerate(&sys, &Operator::ALL)
            .into_iter()
            .filter(|m| MutantProduct::build(&sys, m).is_ok())
            .collect();
        assert!(ms.len() >= 12, "{} mutants", ms.len());
        let depths: Vec<Option<usize>> = ms
            .iter()
            .map(|m| kill_depth(&MutantProduct::build(&sys, m).expect("builds").product.aig))
            .collect();
        assert!(depths.iter().any(|d| d.is_none()), "an equivalent mutant");
        assert!(depths.iter().any(|d| *d > Some(1)), "a kill deeper than 1");
        let mut groups: Vec<Vec<usize>> = (0..ms.len())
            .collect::<Vec<_>>()
            .chunks(4)
            .map(<[usize]>::to_vec)
            .collect();
        // The equivalent ones alone: nothing to kill.
        groups.push((0..ms.len()).filter(|i| depths[*i].is_none()).collect());
        for group in groups {
            let chosen: Vec<Mutant> = group.iter().map(|i| ms[*i].clone()).collect();
            let meta = MetaProduct::build(&sys, &chosen).expect("meta product");
            let expected = group.iter().filter_map(|i| depths[*i]).min();
            assert_eq!(kill_depth(&meta.product.aig), expected, "mutants {group:?}");
        }
    }

    /// The selector's power-up value in a witness names the mutant; code 0 and codes past the
    /// last mutant name none.
    #[test]
    fn a_witness_names_the_mutant_its_selector_selects() {
        let sys = hypermut_smv::parse_smv("s.smv", STEPPER).expect("model");
        let ms: Vec<Mutant> = enumerate(&sys, &Operator::ALL)
            .into_iter()
            .take(5)
            .collect();
        let meta = MetaProduct::build(&sys, &ms).expect("meta product");
        let aig = &meta.product.aig;
        assert_eq!(meta.product.selector_b.len(), 3);
        for code in 0..8usize {
            let mut init = vec![Some(false); aig.latches.len()];
            for (bit, lit) in meta.product.selector_b.iter().enumerate() {
                init[aig.latch_index(*lit).expect("a latch")] = Some(code >> bit & 1 == 1);
            }
            let w = Witness {
                properties: vec!["b0".into()],
                init,
                inputs: vec![vec![Some(false); aig.inputs.len()]],
            };
            let named = meta.killed(&w).map(|m| m.id);
            let expected = (1..=ms.len()).contains(&code).then(|| ms[code - 1].id);
            assert_eq!(named, expected, "code {code}");
        }
    }
}
