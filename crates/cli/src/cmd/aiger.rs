//! `hypermut aiger` (the model as AIGER 1.9) and `hypermut product` (one mutant's φ1
//! product), optimised unless `--no-opt` (`docs/method.md` §7.7).

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use hypermut_aig::Aig;
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{encode, inclusion_product, model_circuit, mutant_product};

use crate::args::ModelArgs;

/// Time the SAT sweep of the optimisation may take.
pub const SWEEP_BUDGET: Duration = Duration::from_secs(1);

/// The circuit a command writes: `aig` optimised (same interface, every output, property,
/// constraint and next-state function the same function), or as it is.
pub fn optimized(aig: Aig, optimize: bool) -> Aig {
    if optimize {
        hypermut_prove::optimize(&aig, SWEEP_BUDGET)
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
