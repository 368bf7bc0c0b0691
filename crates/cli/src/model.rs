//! Loading models (SMV or Verilog, by extension) and describing mutants.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use hypermut_ir::System;
use hypermut_mutate::{enumerate, Mutant, Operator};
use hypermut_smv::SmvOptions;
use hypermut_verilog::VerilogOptions;

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

/// The front-end a file belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Language {
    Smv,
    Verilog,
}

fn language(path: &Path) -> Result<Language> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("smv") | None => Ok(Language::Smv),
        Some("v" | "sv" | "vh" | "vl") => Ok(Language::Verilog),
        Some(ext) => Err(anyhow!(
            "{}: unsupported model type `.{ext}` (expected NuSMV `.smv` or Verilog `.v`)",
            path.display()
        )),
    }
}

/// Loads the model with the front-end its extension names; the front-end's warnings go to
/// stderr, errors are located (`file:line:col` and a caret).
pub fn load(args: &ModelArgs) -> Result<System> {
    let path = &args.model;
    match language(path)? {
        Language::Smv => {
            for (flag, given) in [
                ("--lib-file", !args.lib_files.is_empty()),
                ("--top", args.top.is_some()),
                ("--include", !args.include_dirs.is_empty()),
                ("--define", !args.defines.is_empty()),
                ("--observe-state", args.observe_state),
                ("--x-as-input", args.x_as_input),
            ] {
                if given {
                    bail!(
                        "{flag} applies to Verilog designs, not to the SMV model {}",
                        path.display()
                    );
                }
            }
            let options = SmvOptions {
                inputs: args.inputs.clone(),
                outputs: args.outputs.clone(),
            };
            let loaded = hypermut_smv::load_smv_with(path, &options).map_err(|e| anyhow!("{e}"))?;
            print_warnings(&loaded.warnings);
            Ok(loaded.system)
        }
        Language::Verilog => {
            for (flag, given) in [
                ("--inputs", args.inputs.is_some()),
                ("--outputs", args.outputs.is_some()),
            ] {
                if given {
                    bail!(
                        "{flag} applies to SMV models; a Verilog design's ports are its inputs and outputs ({})",
                        path.display()
                    );
                }
            }
            let mut paths = vec![path.clone()];
            for f in &args.lib_files {
                language(f)?;
                paths.push(f.clone());
            }
            let options = VerilogOptions {
                top: args.top.clone(),
                include_dirs: args.include_dirs.clone(),
                defines: args.defines.iter().map(|d| parse_define(d)).collect(),
                observe_state: args.observe_state,
                x_as_input: args.x_as_input,
            };
            let loaded =
                hypermut_verilog::load_verilog(&paths, &options).map_err(|e| anyhow!("{e}"))?;
            print_warnings(&loaded.warnings);
            Ok(loaded.system)
        }
    }
}

/// `NAME=VALUE` → (NAME, VALUE); `NAME` → (NAME, "1"), as simulators do for `+define+NAME`.
fn parse_define(text: &str) -> (String, String) {
    match text.split_once('=') {
        Some((n, v)) => (n.to_string(), v.to_string()),
        None => (text.to_string(), "1".to_string()),
    }
}

fn print_warnings(warnings: &[String]) {
    for w in warnings {
        if w.contains("warning") {
            eprintln!("{w}");
        } else {
            eprintln!("warning: {w}");
        }
    }
}

/// All mutants of a model with the default operators.
pub fn mutants(sys: &System) -> Vec<Mutant> {
    enumerate(sys, &Operator::ALL)
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
    /// The selected mutants, in id order.
    pub fn select(&self, sys: &System) -> Result<Vec<Mutant>> {
        let every = mutants(sys);
        let chosen: Vec<Mutant> = match &self.operators {
            None => every,
            Some(list) => {
                let ops = Operator::parse_list(list).map_err(|e| anyhow!("--operators: {e}"))?;
                every
                    .into_iter()
                    .filter(|m| ops.contains(&m.operator))
                    .collect()
            }
        };
        Ok(match self.sample {
            Some(n) => hypermut_mutate::sample(&chosen, n, self.seed),
            None => chosen,
        })
    }
}

/// The mutant with id `id` of the full list, or an error naming the valid range.
pub fn mutant_by_id(sys: &System, model: &Path, id: usize) -> Result<Mutant> {
    let all = mutants(sys);
    let n = all.len();
    all.into_iter().find(|m| m.id == id).ok_or_else(|| {
        anyhow!(
            "no mutant with id {id}: {} has {n} mutants (ids 0..{})",
            model.display(),
            n.saturating_sub(1)
        )
    })
}

/// `file:line:col` of a mutant.
pub fn location(sys: &System, m: &Mutant) -> String {
    sys.sources.location(m.span).to_string()
}

/// FNV-1a 64-bit hash, as hex, of the model's sources and of the front-end options that
/// shape the system (identifies the model a test belongs to).
pub fn model_hash(sys: &System, args: &ModelArgs) -> String {
    let options = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}",
        args.inputs,
        args.outputs,
        args.top,
        args.include_dirs,
        args.defines,
        args.observe_state,
        args.x_as_input
    );
    let mut all = String::new();
    for f in sys.sources.files() {
        all.push_str(&f.text);
    }
    all.push_str(&options);
    text_hash(&all)
}

/// FNV-1a 64-bit hash of `text`, as hex.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// For an SMV model: a check that a mutant's edited source is still a model the SMV front-end
/// accepts (NuSMV's static checks: types, ranges of constants, exhaustive `case`, no circular
/// definitions). `None` for Verilog designs, which may span several files.
pub fn smv_source_check(args: &ModelArgs) -> Option<SmvOptions> {
    matches!(language(&args.model), Ok(Language::Smv)).then(|| SmvOptions {
        inputs: args.inputs.clone(),
        outputs: args.outputs.clone(),
    })
}
