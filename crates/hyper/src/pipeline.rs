//! From a model and one mutant to the product circuit that a prover checks.

use hypermut_aig::blast::{blast, BlastError, BlastOptions, Blasted};
use hypermut_aig::Lit;
use hypermut_ir::System;
use hypermut_mutate::{conditional, make_controllable, ConditionalMutant, Mutant, NdInput};

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
        let mut cm = conditional(model, mutant).map_err(|e| HyperError::Build(e.to_string()))?;
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
