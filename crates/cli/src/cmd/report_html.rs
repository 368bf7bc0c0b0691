//! `hypermut report`: the HTML report and the lcov tracefile of an existing results
//! directory (`docs/formats.md` §13); also what `testgen --report/--lcov` writes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use hypermut_testgen::{read_summary, write_report, Model, ReportFiles, Summary};

use crate::args::ModelArgs;

/// Options of `hypermut report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The results directory of `hypermut testgen` or `hypermut merge` (its `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tests: PathBuf,
    /// The HTML report; the lcov tracefile goes next to it (`.info`) unless `--lcov` names
    /// it.
    #[arg(short, long, value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// The lcov tracefile (mutation coverage per line); alone, only the tracefile is written.
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let files = ReportFiles::from_options(args.output.as_deref(), args.lcov.as_deref());
    if files.is_empty() {
        bail!("nothing to write: give the HTML report with -o FILE.html, or --lcov FILE");
    }
    let model = args.model.load()?;
    let summary = read_summary(&args.tests)?;
    write(&model, &args.tests, &summary, &files)
}

/// Writes the report of `summary` (the results in `dir`) to `files` and says where.
pub fn write(model: &Model, dir: &Path, summary: &Summary, files: &ReportFiles) -> Result<()> {
    write_report(model, dir, summary, files)?;
    if let Some(html) = &files.html {
        println!("report: {}", html.display());
    }
    if let Some(lcov) = &files.lcov {
        println!("lcov: {}", lcov.display());
    }
    Ok(())
}
