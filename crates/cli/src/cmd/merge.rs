//! `hypermut merge`: combine the results directories of `testgen --shard i/n` runs into the
//! directory one unsharded run would have written.

use std::path::PathBuf;

use anyhow::Result;
use hypermut_testgen::{language_of, merge, Language, MergeOptions};

use crate::args::{ModelOptions, MutantArgs};

/// Options of `hypermut merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelOptions,
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
    /// The model's files (as for `testgen`; none when `-f` names them), then the shards'
    /// results directories (`testgen --shard i/n --out DIR`), all `n` of them.
    #[arg(required = true, value_name = "MODEL... SHARD_DIR")]
    pub paths: Vec<PathBuf>,
}

impl Args {
    /// The model's files and the shard directories: the leading paths that are not
    /// directories are the model's (one SMV file, or Verilog files), the rest are shards.
    pub fn split(&self) -> (&[PathBuf], &[PathBuf]) {
        let model = self
            .paths
            .iter()
            .enumerate()
            .take_while(|(i, p)| {
                !p.is_dir()
                    && (*i == 0 && self.model.file_lists.is_empty()
                        || matches!(language_of(p), Ok(Language::Verilog)))
            })
            .count();
        self.paths.split_at(model)
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let (files, shards) = args.split();
    let model = args.model.load(files)?;
    let options = MergeOptions {
        selection: args.select.selection()?,
        out: args.out.clone(),
        fresh: args.fresh,
        weak: args.weak,
    };
    let merged = merge(&model, shards, &options)?;
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
