//! Command-line arguments shared by the subcommands, and their conversion to the library's
//! options.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use hypermut_mutate::Operator;
use hypermut_testgen::{FrontendOptions, Model, Selection};

use crate::report::print_diagnostics;

/// The model a subcommand works on and the front-end options that shape it.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// The model: NuSMV (`.smv`) or Verilog (`.v`, `.sv`, `.vh`).
    pub model: PathBuf,
    /// Further Verilog files of the same design (modules the model instantiates).
    #[arg(long = "lib-file", value_name = "FILE")]
    pub lib_files: Vec<PathBuf>,
    /// SMV: exactly these variables are inputs (comma-separated hierarchical names;
    /// replaces the `-- @input` pragmas).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub inputs: Option<Vec<String>>,
    /// SMV: exactly these variables or DEFINEs are the observable outputs (replaces the
    /// `-- @output` pragmas).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub outputs: Option<Vec<String>>,
    /// Verilog: the top module (default: the unique module nothing instantiates).
    #[arg(long, value_name = "MODULE")]
    pub top: Option<String>,
    /// Verilog: a folder searched for `` `include `` files (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Verilog: predefine a macro, `NAME` or `NAME=VALUE` (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Verilog: every register, latch and memory word is an output too (for designs
    /// without outputs, as vl2mv exposes latches).
    #[arg(long)]
    pub observe_state: bool,
    /// Verilog: each `x`/`z` literal bit is a fresh input instead of 0.
    #[arg(long)]
    pub x_as_input: bool,
}

impl ModelArgs {
    /// The front-end options.
    pub fn frontend(&self) -> FrontendOptions {
        FrontendOptions {
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            top: self.top.clone(),
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            observe_state: self.observe_state,
            x_as_input: self.x_as_input,
        }
    }

    /// Loads the model; the front-end's diagnostics go to stderr.
    pub fn load(&self) -> Result<Model> {
        let mut paths = vec![self.model.clone()];
        paths.extend(self.lib_files.iter().cloned());
        let (model, diagnostics) = Model::load(&paths, &self.frontend())?;
        print_diagnostics(&diagnostics);
        Ok(model)
    }
}

/// Which mutants a subcommand works on: a subset of the operators and/or a random sample.
/// Ids are always those of the full list, so they stay valid whatever is selected.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MutantArgs {
    /// Only these operators (comma-separated names, see README; default: all).
    #[arg(long, value_name = "OPS")]
    pub operators: Option<String>,
    /// Only `N` mutants, drawn uniformly at random (deterministic for a given `--seed`).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Seed of `--sample`.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
}

impl MutantArgs {
    /// The selection these arguments describe.
    pub fn selection(&self) -> Result<Selection> {
        let operators = match &self.operators {
            None => None,
            Some(list) => {
                Some(Operator::parse_list(list).map_err(|e| anyhow!("--operators: {e}"))?)
            }
        };
        Ok(Selection {
            operators,
            sample: self.sample,
            seed: self.seed,
        })
    }
}

/// Parses a number of seconds ≥ 0.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("expected a number of seconds >= 0, found `{text}`")),
    }
}
