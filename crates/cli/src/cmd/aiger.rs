//! `hypermut aiger`: the model as AIGER 1.9.

use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, Result};
use hypermut_aig::aiger::{write_aiger_with, AigerFormat, WriteOptions};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::Aig;
use hypermut_ir::{Role, VarId};
use hypermut_mutate::make_controllable;

use crate::files::write_atomic;
use crate::model::{load, ModelArgs};

/// The AIGER format implied by a file name (`.aig` binary, anything else ASCII).
pub fn format_for(path: &Path) -> AigerFormat {
    match path.extension().and_then(|e| e.to_str()) {
        Some("aig") => AigerFormat::Binary,
        _ => AigerFormat::Ascii,
    }
}

/// Encodes `aig` for `path` (or ASCII for stdout).
pub fn encode(aig: &Aig, path: Option<&Path>, legacy: bool) -> Result<Vec<u8>> {
    let format = path.map(format_for).unwrap_or(AigerFormat::Ascii);
    let mut options = WriteOptions::new(format);
    options.legacy = legacy;
    Ok(write_aiger_with(aig, &options))
}

/// Adds, for every `next(x)` that can leave the range of `x` by its type, a safety property
/// `range next(x)` that fails when the assigned value is out of range in a reachable state.
fn add_range_properties(sys: &mut hypermut_ir::System) -> Result<()> {
    for o in sys.range_obligations().map_err(|e| anyhow!("{e}"))? {
        if o.name.starts_with("next(") {
            sys.properties.push(hypermut_ir::Property {
                name: format!("range {}", o.name),
                expr: o.in_range,
                span: None,
            });
        }
    }
    Ok(())
}

/// Runs the command.
pub fn run(
    model: &ModelArgs,
    output: Option<&Path>,
    legacy: bool,
    range_properties: bool,
) -> Result<()> {
    let mut sys = load(model)?;
    if range_properties {
        add_range_properties(&mut sys)?;
    }
    // Choices become inputs; free initial values stay uninitialised latches.
    let keep: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role != Role::Input && sys.var(*v).init.is_none())
        .collect();
    make_controllable(&mut sys, &keep).map_err(|e| anyhow!("{e}"))?;
    let blasted = blast(&sys, &BlastOptions::default())
        .map_err(|e| anyhow!("{}: {e}", model.model.display()))?;
    let bytes = encode(&blasted.aig, output, legacy)?;
    match output {
        Some(p) => write_atomic(p, &bytes),
        None => Ok(std::io::stdout().write_all(&bytes)?),
    }
}
