//! Loading models and describing mutants.

use std::path::Path;

use anyhow::{anyhow, Result};
use hypermut_ir::System;
use hypermut_mutate::{enumerate, Mutant, Operator};

/// Loads an SMV model (the only front-end so far), with a located error on failure.
pub fn load(path: &Path) -> Result<System> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("smv") | None => hypermut_smv::load_smv(path).map_err(|e| anyhow!("{e}")),
        Some(ext) => Err(anyhow!(
            "{}: unsupported model type `.{ext}` (expected an SMV model, `.smv`)",
            path.display()
        )),
    }
}

/// All mutants of a model with the default operators.
pub fn mutants(sys: &System) -> Vec<Mutant> {
    enumerate(sys, &Operator::ALL)
}

/// `file:line:col` of a mutant.
pub fn location(sys: &System, m: &Mutant) -> String {
    sys.sources.location(m.span).to_string()
}

/// FNV-1a 64-bit hash of the model's sources, as hex (identifies the model a test belongs to).
pub fn model_hash(sys: &System) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in sys.sources.files() {
        for b in f.text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}
