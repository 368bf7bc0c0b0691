//! `hypermut product`: the φ1 product of one mutant.

use std::path::Path;

use anyhow::{anyhow, Result};
use hypermut_hyper::MutantProduct;

use crate::cmd::aiger::encode;
use crate::files::write_atomic;
use crate::model::{load, mutant_by_id, ModelArgs};

/// Runs the command.
pub fn run(model: &ModelArgs, id: usize, output: &Path, legacy: bool) -> Result<()> {
    let sys = load(model)?;
    let m = mutant_by_id(&sys, &model.model, id)?;
    let mp = MutantProduct::build(&sys, &m).map_err(|e| anyhow!("mutant {id}: {e}"))?;
    let bytes = encode(&mp.product.aig, Some(output), legacy)?;
    write_atomic(output, &bytes)
}
