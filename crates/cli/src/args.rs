//! Command-line arguments shared by the subcommands, and their conversion to the library's
//! options.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use clap::ArgMatches;
use hypermut_mutate::Operator;
use hypermut_testgen::load::Preprocessor;
use hypermut_testgen::{
    FrontendOptions, IdList, InitOption, Model, ModelSource, ResetOption, Selection,
};

use crate::report::print_diagnostics;

/// The model a subcommand works on and the front-end options that shape it.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// The model: one NuSMV file (`.smv`), or the files of a Verilog design (`.v`, `.sv`,
    /// `.vh`), read in the order given.
    #[arg(value_name = "MODEL", required_unless_present = "file_lists")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub options: ModelOptions,
}

impl ModelArgs {
    /// Loads the model; the front-end's diagnostics go to stderr.
    pub fn load(&self) -> Result<Model> {
        self.options.load(&self.files)
    }

    /// The one file the model was given as, when it was given as one file.
    pub fn single_file(&self) -> Option<&Path> {
        match self.files.as_slice() {
            [one] if self.options.lib_files.is_empty() && self.options.file_lists.is_empty() => {
                Some(one)
            }
            _ => None,
        }
    }
}

/// Where the model's pieces stood on the command line (clap keeps the values of each
/// argument apart, but a design's files must be read in the order they were named).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    files: Vec<usize>,
    lib_files: Vec<usize>,
    file_lists: Vec<usize>,
}

/// The model's options: further files and file lists, and the front-end options. Every
/// subcommand that takes a model has them; the model's files are its positional arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelOptions {
    /// A further Verilog file of the design (the same as naming it after MODEL).
    #[arg(long = "lib-file", value_name = "FILE")]
    pub lib_files: Vec<PathBuf>,
    /// Verilog: a file list, read in place (one path per line relative to the list's folder,
    /// `//` and `#` comments, `+incdir+DIR`, `+define+NAME=V`, `-I DIR`, `-D NAME=V`, nested
    /// `-f`); repeatable.
    #[arg(short = 'f', long = "file-list", value_name = "FILE")]
    pub file_lists: Vec<PathBuf>,
    /// SMV: exactly these variables are inputs (comma-separated hierarchical names;
    /// replaces the `-- @input` pragmas).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub inputs: Option<Vec<String>>,
    /// SMV: exactly these variables or DEFINEs are the observable outputs (replaces the
    /// `-- @output` pragmas).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub outputs: Option<Vec<String>>,
    /// SMV: run the model through a preprocessor before parsing it, as NuSMV's `-pre`:
    /// `cpp` (`#define`, `#include`) or `m4`; several run in order (`--pre "cpp m4"`, or the
    /// option repeated). Messages point into the original files.
    #[arg(long, value_name = "cpp|m4", value_parser = parse_pre)]
    pub pre: Vec<PreList>,
    /// Verilog: the top module (default: of the modules nothing instantiates, the one with
    /// the deepest hierarchy, as yosys `hierarchy -auto-top` chooses).
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
    /// Hold each input NAME at LEVEL (0 or 1; default 0 for active-low names like `rst_n`,
    /// else 1) during the first CYCLES frames (default 1) of every test; several are
    /// comma-separated (`wb_rst_i=1,arst_i=0`); or `none`. Default: a Verilog design's 1-bit
    /// inputs named like resets (`rst`, `rst_n`, `reset`, …) that force registers, each at the
    /// level that forces more.
    #[arg(long, value_name = "NAME[=LEVEL][:CYCLES],...|none", value_parser = parse_reset)]
    pub reset: Option<ResetOption>,
    /// Initial value of registers that have none: `free` (any power-up value, the default) or
    /// `zero` (as yosys `-zinit`; enumerations and ranges start at their first value).
    #[arg(long, value_name = "free|zero", default_value = "free", value_parser = parse_init)]
    pub init: InitOption,
    /// The command-line positions of the model's pieces ([`ModelOptions::record_positions`]).
    #[arg(skip)]
    pub positions: Option<Positions>,
}

impl ModelOptions {
    /// The front-end options.
    pub fn frontend(&self) -> FrontendOptions {
        FrontendOptions {
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            pre: self.pre.iter().flat_map(|l| l.0.iter().copied()).collect(),
            top: self.top.clone(),
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            observe_state: self.observe_state,
            x_as_input: self.x_as_input,
            reset: self.reset.clone().unwrap_or_default(),
            init: self.init,
        }
    }

    /// Remembers where the model's pieces stood on the command line: `matches` are the
    /// subcommand's, `files_id` names its positional argument whose leading values are the
    /// model's files.
    pub fn record_positions(&mut self, matches: &ArgMatches, files_id: &str) {
        let of = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(|i| i.collect())
                .unwrap_or_default()
        };
        self.positions = Some(Positions {
            files: of(files_id),
            lib_files: of("lib_files"),
            file_lists: of("file_lists"),
        });
    }

    /// The model's pieces: `files`, the `--lib-file`s and the `-f` lists, in command-line
    /// order (without recorded positions: files, then `--lib-file`s, then lists).
    pub fn sources(&self, files: &[PathBuf]) -> Vec<ModelSource> {
        let positions = self.positions.clone().unwrap_or_default();
        let mut all: Vec<(usize, ModelSource)> = Vec::new();
        let mut fallback = 0;
        let mut add = |at: &[usize], i: usize, source: ModelSource| {
            all.push((at.get(i).copied().unwrap_or(fallback), source));
            fallback += 1;
        };
        for (i, f) in files.iter().enumerate() {
            add(&positions.files, i, ModelSource::File(f.clone()));
        }
        for (i, f) in self.lib_files.iter().enumerate() {
            add(&positions.lib_files, i, ModelSource::File(f.clone()));
        }
        for (i, l) in self.file_lists.iter().enumerate() {
            add(&positions.file_lists, i, ModelSource::List(l.clone()));
        }
        if self.positions.is_some() {
            all.sort_by_key(|(at, _)| *at);
        }
        all.into_iter().map(|(_, s)| s).collect()
    }

    /// Loads the model made of `files` and of these options' further files and lists; the
    /// front-end's diagnostics go to stderr.
    pub fn load(&self, files: &[PathBuf]) -> Result<Model> {
        let (model, diagnostics) = Model::load_sources(&self.sources(files), &self.frontend())?;
        print_diagnostics(&diagnostics);
        Ok(model)
    }
}

/// Which mutants a subcommand works on: a subset of the operators and/or a random sample.
/// Ids are always those of the full list, so they stay valid whatever is selected.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MutantArgs {
    /// Only the mutants with these ids (e.g. `3,7,10-20`; ids are those `hypermut mutants` lists).
    #[arg(long, value_name = "IDS", value_parser = parse_ids)]
    pub ids: Option<IdList>,
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
            ids: self.ids.clone(),
            operators,
            sample: self.sample,
            seed: self.seed,
        })
    }
}

/// Parses `--ids`.
fn parse_ids(text: &str) -> Result<IdList, String> {
    IdList::parse(text)
}

/// The preprocessors of one `--pre`, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreList(pub Vec<Preprocessor>);

/// Parses `--pre`: `cpp`, `m4`, or several separated by spaces or commas.
pub(crate) fn parse_pre(text: &str) -> Result<PreList, String> {
    Preprocessor::parse_list(text).map(PreList)
}

/// Parses `--reset` (the syntax is the library's, [`ResetOption`]).
pub(crate) fn parse_reset(text: &str) -> Result<ResetOption, String> {
    text.parse()
        .map_err(|e: hypermut_testgen::ResetError| e.to_string())
}

/// Parses `--init`.
pub(crate) fn parse_init(text: &str) -> Result<InitOption, String> {
    text.parse()
        .map_err(|e: hypermut_testgen::init::InitParseError| e.to_string())
}

/// Parses a number of seconds ≥ 0.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("expected a number of seconds >= 0, found `{text}`")),
    }
}
