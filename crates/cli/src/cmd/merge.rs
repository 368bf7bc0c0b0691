//! `hypermut merge`: combine the results directories of `testgen --shard i/n` runs into the
//! directory one unsharded run would have written.

use std::path::PathBuf;

use anyhow::Result;
use hypermut_testgen::{merge, MergeOptions};

use crate::args::{ModelArgs, MutantArgs};

/// Options of `hypermut merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub select: MutantArgs,
    /// The merged results directory (must not hold results unless `--fresh`).
    #[arg(long, default_value = "hypermut-out")]
    pub out: PathBuf,
    /// Replace results already in `--out`.
    #[arg(long)]
    pub fresh: bool,
    /// Also report weak killing in the suite (as `testgen --weak`).
    #[arg(long)]
    pub weak: bool,
    /// The shards' results directories (`testgen --shard i/n --out DIR`), all `n` of them.
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let model = args.model.load()?;
    let options = MergeOptions {
        selection: args.select.selection()?,
        out: args.out.clone(),
        fresh: args.fresh,
        weak: args.weak,
    };
    let merged = merge(&model, &args.shards, &options)?;
    let s = &merged.report.summary;
    let c = &s.counts;
    println!(
        "merged {} shards into {}: {} mutants, {} killed, {} equivalent, {} unknown, {} invalid, {} errors",
        merged.shards,
        args.out.display(),
        s.mutants,
        c.killed,
        c.equivalent,
        c.unknown,
        c.invalid,
        c.errors
    );
    for line in merged.report.suite_lines() {
        println!("{line}");
    }
    Ok(())
}
