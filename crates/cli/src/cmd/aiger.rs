//! `hypermut aiger` (the model as AIGER 1.9) and `hypermut product` (one mutant's φ1
//! product).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{encode, inclusion_product, model_circuit, mutant_product};

use crate::args::ModelArgs;

/// Runs `hypermut aiger`.
pub fn run(
    model: &ModelArgs,
    output: Option<&Path>,
    legacy: bool,
    range_properties: bool,
) -> Result<()> {
    let loaded = model.load()?;
    let aig =
        model_circuit(&loaded.system, range_properties).with_context(|| loaded.name.clone())?;
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
) -> Result<()> {
    let loaded = model.load()?;
    let mp = if inclusion {
        inclusion_product(&loaded, id)?
    } else {
        mutant_product(&loaded, id)?
    };
    Ok(write_atomic(
        output,
        &encode(&mp.product.aig, Some(output), legacy),
    )?)
}
