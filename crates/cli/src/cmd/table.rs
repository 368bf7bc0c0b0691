//! `hypermut table`: Tables 3 and 4 of the method paper for a set of models.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{
    tables, DecideOptions, FrontendOptions, InitOption, Options, ResetOption, TableOptions,
};

use crate::args::{MutantArgs, PreList};
use crate::report::Bar;

/// Options of `hypermut table`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The models, one per argument: a NuSMV `.smv` or Verilog `.v` file, or a file list
    /// (`.f`, as for `-f`) holding the files of one Verilog design.
    #[arg(required = true)]
    pub models: Vec<PathBuf>,
    #[command(flatten)]
    pub select: MutantArgs,
    /// BMC bound: the deepest frame searched for a killing test.
    #[arg(long, default_value_t = 20)]
    pub bound: usize,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Time limit per mutant, in seconds, for BMC and IC3 together.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Time limit per mutant, in seconds, for the search of a stronger test when φ1's test
    /// is only potential or needs nd control (a definite test, else a potential one, up to
    /// `--bound`); 0 turns the search off.
    #[arg(long, default_value_t = 2.0, value_parser = crate::args::parse_seconds)]
    pub search_timeout: f64,
    /// Only search for killing tests (BMC to `--bound`).
    #[arg(long)]
    pub no_prove: bool,
    /// Do not replay the tests found so far, nor random runs, on each mutant (fault dropping
    /// and random simulation, before the engines and as the schedule's sparse stage,
    /// docs/method.md §7.8): every test is then the shortest φ1 kill its engine finds, at
    /// the cost of more solver calls.
    #[arg(long)]
    pub no_replay: bool,
    /// Also report weak killing in each model's `suite.json`.
    #[arg(long)]
    pub weak: bool,
    /// Folder of the per-model results directories (`DIR/<model name>`). Results already
    /// there for the same model and options are reused and interrupted runs continued.
    #[arg(long, default_value = "hypermut-table")]
    pub out: PathBuf,
    /// Discard earlier results and decide every mutant again.
    #[arg(long)]
    pub fresh: bool,
    /// Write the per-model rows (Tables 3 and 4) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the per-mutant rows as CSV.
    #[arg(long, value_name = "FILE")]
    pub mutant_csv: Option<PathBuf>,
    /// Also write the Markdown tables to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Verilog: every register is an output too (applies to the Verilog models).
    #[arg(long)]
    pub observe_state: bool,
    /// Verilog: each `x`/`z` literal bit is a fresh input instead of 0.
    #[arg(long)]
    pub x_as_input: bool,
    /// SMV: run each SMV model through these preprocessors first, as NuSMV's `-pre`
    /// (applies to the SMV models).
    #[arg(long, value_name = "cpp|m4", value_parser = crate::args::parse_pre)]
    pub pre: Vec<PreList>,
    /// Hold each input NAME at LEVEL during the first CYCLES frames of every test of every
    /// model (several comma-separated), or `none` (default: each Verilog design's 1-bit inputs
    /// named like resets that force registers).
    #[arg(long, value_name = "NAME[=LEVEL][:CYCLES],...|none", value_parser = crate::args::parse_reset)]
    pub reset: Option<ResetOption>,
    /// Initial value of registers that have none, in every model: `free` or `zero`.
    #[arg(long, value_name = "free|zero", default_value = "free", value_parser = crate::args::parse_init)]
    pub init: InitOption,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    if !(args.timeout.is_finite() && args.timeout >= 0.0) {
        bail!("--timeout must be a number of seconds >= 0");
    }
    let options = TableOptions {
        models: args.models.clone(),
        run: Options {
            selection: args.select.selection()?,
            decide: DecideOptions {
                bound: args.bound,
                timeout: Duration::from_secs_f64(args.timeout),
                prove: !args.no_prove,
                search_timeout: Duration::from_secs_f64(args.search_timeout),
                replay: !args.no_replay,
                ..DecideOptions::default()
            },
            jobs: args.jobs,
            weak: args.weak,
            ..Options::default()
        },
        out: args.out.clone(),
        fresh: args.fresh,
        frontend: FrontendOptions {
            pre: args.pre.iter().flat_map(|l| l.0.iter().copied()).collect(),
            observe_state: args.observe_state,
            x_as_input: args.x_as_input,
            reset: args.reset.clone().unwrap_or_default(),
            init: args.init,
            ..FrontendOptions::default()
        },
    };
    let t = tables(&options, &mut Bar::new())?;
    let md = t.markdown();
    print!("{md}");
    if let Some(p) = &args.markdown {
        write_atomic(p, md.as_bytes())?;
    }
    if let Some(p) = &args.csv {
        write_atomic(p, t.model_csv().as_bytes())?;
    }
    if let Some(p) = &args.mutant_csv {
        write_atomic(p, t.mutant_csv.as_bytes())?;
    }
    Ok(())
}
