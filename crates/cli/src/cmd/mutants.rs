//! `hypermut mutants`: list the mutants of a model.

use anyhow::Result;
use serde::Serialize;

use crate::model::{load, location, ModelArgs, MutantArgs};

/// One listed mutant.
#[derive(Serialize)]
pub struct MutantInfo {
    /// Stable id.
    pub id: usize,
    /// `file:line:col` of the mutated expression.
    pub location: String,
    /// Operator name.
    pub operator: String,
    /// Original source text.
    pub original: String,
    /// Replacement text.
    pub replacement: String,
}

/// Runs the command.
pub fn run(model: &ModelArgs, select: &MutantArgs, json: bool) -> Result<()> {
    let sys = load(model)?;
    let infos: Vec<MutantInfo> = select
        .select(&sys)?
        .iter()
        .map(|m| MutantInfo {
            id: m.id,
            location: location(&sys, m),
            operator: m.operator.name().to_string(),
            original: m.original.clone(),
            replacement: m.replacement.clone(),
        })
        .collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&infos)?);
    } else {
        for i in &infos {
            println!(
                "{:>4}  {:<24} {:<8} {} → {}",
                i.id, i.location, i.operator, i.original, i.replacement
            );
        }
    }
    Ok(())
}
