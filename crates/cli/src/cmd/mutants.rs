//! `hypermut mutants`: list the mutants of a model.

use anyhow::Result;
use serde::Serialize;

use hypermut_mutate::{enumeration, Operator};
use hypermut_testgen::Locator;

use crate::args::{ModelArgs, MutantArgs};

/// One listed mutant.
#[derive(Serialize)]
struct MutantInfo {
    id: usize,
    location: String,
    operator: String,
    original: String,
    replacement: String,
}

/// Runs the command.
pub fn run(model: &ModelArgs, select: &MutantArgs, json: bool) -> Result<()> {
    let model = model.load()?;
    let sys = &model.system;
    let locator = Locator::new(&model);
    let infos: Vec<MutantInfo> = select
        .selection()?
        .select(sys)
        .iter()
        .map(|m| MutantInfo {
            id: m.id,
            location: locator.location(sys, m),
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
        println!(
            "{}",
            dropped_line(enumeration(sys, &Operator::ALL).dropped_equivalent)
        );
    }
    Ok(())
}

/// The line that says how many candidate mutants of the model (all operators) were not
/// listed because an exact check found them equivalent by construction (`docs/method.md` §10).
fn dropped_line(n: usize) -> String {
    let noun = if n == 1 { "mutant" } else { "mutants" };
    format!("{n} candidate {noun} dropped as equivalent by construction (exact check)")
}
