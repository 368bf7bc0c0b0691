//! Circuits and sources for other tools: the model as AIGER, one mutant's φ1 product,
//! conditional mutant or edited source (`docs/formats.md` §9).

use std::path::Path;

use hypermut_aig::aiger::{write_aiger_with, AigerFormat, WriteOptions};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::Aig;
use hypermut_hyper::MutantProduct;
use hypermut_ir::{Property, Role, System, VarId};
use hypermut_mutate::{conditional_source, make_controllable, mutant_source, EmittedSource};

use crate::error::Result;
use crate::load::Model;
use crate::select::mutant_by_id;

/// The AIGER format implied by a file name (`.aig` binary, anything else ASCII).
pub fn format_for(path: &Path) -> AigerFormat {
    match path.extension().and_then(|e| e.to_str()) {
        Some("aig") => AigerFormat::Binary,
        _ => AigerFormat::Ascii,
    }
}

/// Encodes `aig` for `path` (ASCII when there is no path, e.g. for stdout); `legacy` writes
/// the old 5-field format.
pub fn encode(aig: &Aig, path: Option<&Path>, legacy: bool) -> Vec<u8> {
    let format = path.map(format_for).unwrap_or(AigerFormat::Ascii);
    let mut options = WriteOptions::new(format);
    options.legacy = legacy;
    write_aiger_with(aig, &options)
}

/// The model's circuit: choices become inputs, free initial values stay uninitialised
/// latches. With `range_properties`, every `next(x)` that could leave the range of `x` is
/// also a bad property `range next(x)`.
pub fn model_circuit(sys: &System, range_properties: bool) -> Result<Aig> {
    let mut sys = sys.clone();
    if range_properties {
        for o in sys.range_obligations()? {
            if o.name.starts_with("next(") {
                sys.properties.push(Property {
                    name: format!("range {}", o.name),
                    expr: o.in_range,
                    span: None,
                });
            }
        }
    }
    let keep: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role != Role::Input && sys.var(*v).init.is_none())
        .collect();
    make_controllable(&mut sys, &keep)?;
    Ok(blast(&sys, &BlastOptions::default())?.aig)
}

/// What to write of one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// The model's source with exactly the mutant's edit.
    Source,
    /// The conditional mutant in the model's language (a selector `mut` picks the mutant).
    Conditional,
    /// The conditional mutant bit-blasted (nd inputs, `mut` an uninitialised frozen latch).
    Aiger,
    /// The φ1 product.
    Product,
}

impl Emit {
    /// Every kind with its name.
    pub const ALL: [(&'static str, Emit); 4] = [
        ("source", Emit::Source),
        ("conditional", Emit::Conditional),
        ("aiger", Emit::Aiger),
        ("product", Emit::Product),
    ];

    /// The kind called `name` (case-insensitive).
    pub fn named(name: &str) -> Option<Emit> {
        Emit::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, e)| *e)
    }
}

/// One mutant, emitted.
#[derive(Clone, Debug)]
pub enum Emitted {
    /// Source text: the file the edit lies in (a design file or an included file), edited.
    Source(EmittedSource),
    /// A circuit.
    Circuit(Aig),
}

/// Mutant `id` of `model` as `kind`.
pub fn emit_mutant(model: &Model, id: usize, kind: Emit) -> Result<Emitted> {
    let m = mutant_by_id(&model.system, &model.name, id)?;
    Ok(match kind {
        Emit::Source => Emitted::Source(mutant_source(&model.system, &m)?),
        Emit::Conditional => Emitted::Source(conditional_source(&model.system, &m)?),
        Emit::Aiger => Emitted::Circuit(mutant_product(model, id)?.blasted.aig),
        Emit::Product => Emitted::Circuit(mutant_product(model, id)?.product.aig),
    })
}

/// The inclusion product of mutant `id` (`docs/method.md` §4.6): the φ1 product of the
/// rewritten conditional mutant whose unreachable `kill` proves that the mutant only narrows
/// the original's choices. An error when the mutant is not at a choice.
pub fn inclusion_product(model: &Model, id: usize) -> Result<MutantProduct> {
    let m = mutant_by_id(&model.system, &model.name, id)?;
    MutantProduct::build_inclusion(&model.system, &m)
        .map_err(|e| crate::Error::from(e).context(format!("mutant {id}")))?
        .ok_or_else(|| {
            crate::Error::from(hypermut_hyper::HyperError::Build(
                "the mutation is not at a choice, so it has no inclusion product".into(),
            ))
            .context(format!("mutant {id}"))
        })
}

/// The conditional mutant and φ1 product of mutant `id` of `model`.
pub fn mutant_product(model: &Model, id: usize) -> Result<MutantProduct> {
    let m = mutant_by_id(&model.system, &model.name, id)?;
    MutantProduct::build(&model.system, &m)
        .map_err(|e| crate::Error::from(e).context(format!("mutant {id}")))
}
