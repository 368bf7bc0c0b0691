//! `hypermut testbench`: a self-checking Verilog testbench of the tests of a results
//! directory (`docs/formats.md` §12.4).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::testbench::{guess_clock, not_exported, read_tests};
use hypermut_testgen::verilog_testbench;

use crate::args::ModelArgs;

/// Options of `hypermut testbench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The results directory of `hypermut testgen` (or a folder of `mutant-N.json` tests).
    #[arg(long, value_name = "DIR")]
    pub tests: PathBuf,
    /// The clock input of the top module (default: the one port that is neither an input
    /// nor an output of the model).
    #[arg(long, value_name = "NAME")]
    pub clock: Option<String>,
    /// Output file (`-` or none: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let model = args.model.load()?;
    let tests = read_tests(&args.tests)?;
    let top = model.system.name.clone();
    let clock = match &args.clock {
        Some(c) => Some(c.clone()),
        None => guess_clock(&model, &top)?,
    };
    let text = verilog_testbench(&model, &tests, &top, clock.as_deref())?;
    let exported = tests
        .iter()
        .filter(|t| not_exported(&model, t).is_none())
        .count();
    eprintln!(
        "testbench: {exported} of {} tests exported (module hypermut_tb, top `{top}`, clock {})",
        tests.len(),
        clock.map_or_else(|| "none".to_string(), |c| format!("`{c}`"))
    );
    match args.output.as_deref().filter(|p| *p != Path::new("-")) {
        Some(p) => Ok(write_atomic(p, text.as_bytes())?),
        None => Ok(std::io::stdout().write_all(text.as_bytes())?),
    }
}
