//! `hypermut product`: the φ1 product of one mutant.

use std::path::Path;

use anyhow::{anyhow, Result};
use hypermut_hyper::MutantProduct;

use crate::cmd::aiger::encode;
use crate::files::write_atomic;
use crate::model::{load, mutants, ModelArgs};

/// Runs the command.
pub fn run(model: &ModelArgs, id: usize, output: &Path, legacy: bool) -> Result<()> {
    let sys = load(model)?;
    let all = mutants(&sys);
    let m = all.get(id).ok_or_else(|| {
        anyhow!(
            "no mutant with id {id}: {} has {} mutants (ids 0..{})",
            model.model.display(),
            all.len(),
            all.len().saturating_sub(1)
        )
    })?;
    let mp = MutantProduct::build(&sys, m).map_err(|e| anyhow!("mutant {id}: {e}"))?;
    let bytes = encode(&mp.product.aig, Some(output), legacy)?;
    write_atomic(output, &bytes)
}
