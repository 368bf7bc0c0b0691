//! `hypermut merge`: combine the results directories of `testgen --shard i/n` runs (e.g. the
//! tasks of a Slurm or LSF job array) into the directory one unsharded run would have written.
//!
//! The model is read again so that the merge can check that the shards belong to it, that
//! together they decide every selected mutant exactly once, and so that the summary (and the
//! test suite) are built exactly as `testgen` builds them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::cmd::testgen::{self, MutantRecord, RunInfo};
use crate::files::write_atomic;
use crate::model::{load, ModelArgs, MutantArgs};

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

/// One shard's directory, as read.
struct ShardDir {
    dir: PathBuf,
    info: RunInfo,
    records: Vec<MutantRecord>,
}

fn read_shard(dir: &Path) -> Result<ShardDir> {
    let run = dir.join("run.json");
    let text = std::fs::read_to_string(&run)
        .with_context(|| format!("{} is not a testgen results directory", dir.display()))?;
    let info: RunInfo = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a hypermut run description", run.display()))?;
    let results = dir.join("results.jsonl");
    let records = if results.exists() {
        testgen::read_results(&results)?
    } else {
        Vec::new()
    };
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        info,
        records,
    })
}

/// Files a record refers to, relative to its results directory.
fn record_files(r: &MutantRecord) -> Vec<String> {
    let mut files: Vec<String> = r.test.iter().chain(r.certificate.iter()).cloned().collect();
    files.push(format!("witnesses/mutant-{}.wit", r.id));
    files
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let sys = load(&args.model)?;
    let selected = args.select.select(&sys)?;
    let expected = testgen::run_info(&sys, &args.model, &selected, 0, None);
    let shards: Vec<ShardDir> = args
        .shards
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<_>>()?;
    let first = shards
        .first()
        .ok_or_else(|| anyhow!("no shard directories given"))?;
    let count = first.info.shard.map_or(1, |s| s.count);
    let mut seen_index = BTreeSet::new();
    for s in &shards {
        let i = &s.info;
        if i.model_hash != expected.model_hash {
            bail!(
                "{} holds results of another model (or other front-end options) than {}",
                s.dir.display(),
                args.model.model.display()
            );
        }
        if i.mutants_hash != expected.mutants_hash {
            bail!(
                "{} holds results of another mutant selection (--operators/--sample/--seed)",
                s.dir.display()
            );
        }
        if i.bound != first.info.bound {
            bail!(
                "{} used --bound {}, {} used --bound {}",
                s.dir.display(),
                i.bound,
                first.dir.display(),
                first.info.bound
            );
        }
        let (index, n) = i.shard.map_or((0, 1), |sh| (sh.index, sh.count));
        if n != count {
            bail!(
                "{} is a shard of {n}, {} a shard of {count}",
                s.dir.display(),
                first.dir.display()
            );
        }
        if !seen_index.insert(index) {
            bail!(
                "shard {}/{count} is given twice ({})",
                index + 1,
                s.dir.display()
            );
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|k| !seen_index.contains(k))
        .map(|k| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        bail!("shards missing: {}", missing.join(", "));
    }

    // Every selected mutant decided exactly once, by the shard it belongs to.
    let mut by_id: BTreeMap<usize, (&ShardDir, &MutantRecord)> = BTreeMap::new();
    for s in &shards {
        for r in &s.records {
            if let Some(sh) = s.info.shard {
                if !sh.contains(r.id) {
                    bail!(
                        "{}: mutant {} does not belong to shard {}/{}",
                        s.dir.display(),
                        r.id,
                        sh.index + 1,
                        sh.count
                    );
                }
            }
            if by_id.insert(r.id, (s, r)).is_some() {
                bail!("mutant {} is decided by two shards", r.id);
            }
        }
    }
    let undecided: Vec<usize> = selected
        .iter()
        .map(|m| m.id)
        .filter(|id| !by_id.contains_key(id))
        .collect();
    if !undecided.is_empty() {
        let shown: Vec<String> = undecided.iter().take(10).map(|i| i.to_string()).collect();
        bail!(
            "{} mutants are not decided yet (ids {}{}); finish their shards with `testgen --resume`",
            undecided.len(),
            shown.join(", "),
            if undecided.len() > 10 { ", …" } else { "" }
        );
    }

    let info = RunInfo {
        bound: first.info.bound,
        ..expected
    };
    // Every referenced file is checked before anything is written: a failed merge leaves
    // `--out` as it was.
    let mut copies = Vec::new();
    for (s, r) in by_id.values() {
        for rel in record_files(r) {
            let from = s.dir.join(&rel);
            if from.exists() {
                copies.push((from, args.out.join(&rel)));
            } else if !rel.starts_with("witnesses/") {
                bail!(
                    "{} is missing (referenced by mutant {})",
                    from.display(),
                    r.id
                );
            }
        }
    }
    claim_out_dir(&args.out, args.fresh)?;
    for (from, to) in &copies {
        let bytes =
            std::fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
        write_atomic(to, &bytes)?;
    }
    let records: Vec<MutantRecord> = by_id.values().map(|(_, r)| (*r).clone()).collect();
    let mut lines = String::new();
    for r in &records {
        lines.push_str(&serde_json::to_string(r)?);
        lines.push('\n');
    }
    write_atomic(&args.out.join("results.jsonl"), lines.as_bytes())?;
    write_atomic(
        &args.out.join("run.json"),
        serde_json::to_string_pretty(&info)?.as_bytes(),
    )?;
    let fin = testgen::Finish {
        sys: &sys,
        mutants: &selected,
        model: args.model.model.display().to_string(),
        model_hash: info.model_hash.clone(),
        bound: info.bound,
        out: &args.out,
        weak: args.weak,
    };
    let (summary, suite) = testgen::finish(&fin, records)?;
    println!(
        "merged {count} shards into {}: {} mutants, {} killed, {} equivalent, {} unknown, {} invalid, {} errors",
        args.out.display(),
        summary.mutants,
        summary.killed,
        summary.equivalent,
        summary.unknown,
        summary.invalid,
        summary.errors
    );
    let (suite, suite_error) = match suite {
        Ok(r) => (Some(r), None),
        Err(e) => (None, Some(format!("{e:#}"))),
    };
    let g = testgen::Generated {
        sys,
        summary,
        suite,
        suite_error,
    };
    for line in testgen::suite_lines(&g) {
        println!("{line}");
    }
    Ok(())
}

/// Refuses an output directory that already holds results, unless `fresh`.
fn claim_out_dir(out: &Path, fresh: bool) -> Result<()> {
    if out.join("results.jsonl").exists() && !fresh {
        bail!(
            "{} already holds results; discard them with --fresh or choose another --out",
            out.display()
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))
}
