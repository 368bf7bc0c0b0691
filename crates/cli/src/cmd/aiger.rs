//! `hypermut aiger` (the model as AIGER 1.9) and `hypermut product` (one mutant's φ1
//! product), optimised unless `--no-opt` (`docs/method.md` §7.7).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use hypermut_aig::Aig;
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{encode, inclusion_product, model_circuit, mutant_product, solver_circuit};

use crate::args::ModelArgs;

/// The circuit a command writes: `aig` as testgen's engines see it
/// ([`solver_circuit`]), or as built.
pub fn optimized(aig: Aig, optimize: bool) -> Aig {
    if optimize {
        solver_circuit(&aig)
    } else {
        aig
    }
}

/// Runs `hypermut aiger`.
pub fn run(
    model: &ModelArgs,
    output: Option<&Path>,
    legacy: bool,
    range_properties: bool,
    optimize: bool,
) -> Result<()> {
    let loaded = model.load()?;
    let aig =
        model_circuit(&loaded.system, range_properties).with_context(|| loaded.name.clone())?;
    let aig = optimized(aig, optimize);
    let bytes = encode(&aig, output, legacy);
    match output {
        Some(p) => Ok(write_atomic(p, &bytes)?),
        None => Ok(std::io::stdout().write_all(&bytes)?),
    }
}

/// Runs `hypermut product`.
pub fn product(
    model: &ModelArgs,
    id: usize,
    output: &Path,
    legacy: bool,
    inclusion: bool,
    optimize: bool,
) -> Result<()> {
    let loaded = model.load()?;
    let mp = if inclusion {
        inclusion_product(&loaded, id)?
    } else {
        mutant_product(&loaded, id)?
    };
    let aig = optimized(mp.product.aig, optimize);
    Ok(write_atomic(output, &encode(&aig, Some(output), legacy))?)
}
