//! Merging the results directories of sharded runs (e.g. the tasks of a Slurm or LSF job
//! array) into the directory one unsharded run would have written.
//!
//! The merge checks that the shards belong to the model and mutant selection, that together
//! they decide every selected mutant exactly once, and that every file they refer to exists,
//! before it writes anything; the summary and the suite are then built as a run builds them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::layout::{optional_file, record_files};
use crate::load::Model;
use crate::record::{MutantRecord, RunInfo};
use crate::run::{finish, run_info, Finish, RunReport};
use crate::select::Selection;
use crate::store::{read_results, write_atomic, Store};

/// Options of a merge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// The mutant selection the shards were run with.
    pub selection: Selection,
    /// The merged results directory.
    pub out: PathBuf,
    /// Replace results already in `out`.
    pub fresh: bool,
    /// Also report weak killing in the suite.
    pub weak: bool,
}

/// What a merge produced.
#[derive(Clone, Debug)]
pub struct Merged {
    /// How many shards were merged.
    pub shards: usize,
    /// The summary and suite of the merged directory.
    pub report: RunReport,
}

/// One shard's directory, as read.
struct ShardDir {
    dir: PathBuf,
    info: RunInfo,
    records: Vec<MutantRecord>,
}

fn read_shard(dir: &Path) -> Result<ShardDir> {
    let run = dir.join("run.json");
    let text = std::fs::read_to_string(&run).map_err(|e| {
        Error::io(
            format!("{} is not a testgen results directory", dir.display()),
            e,
        )
    })?;
    let info: RunInfo = serde_json::from_str(&text).map_err(|e| Error::Damaged {
        what: format!("{} is not a hypermut run description", run.display()),
        detail: e.to_string(),
    })?;
    let results = dir.join("results.jsonl");
    let records = if results.exists() {
        read_results(&results)?
    } else {
        Vec::new()
    };
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        info,
        records,
    })
}

fn refuse<T>(message: String) -> Result<T> {
    Err(Error::Merge(message))
}

/// Merges the shard directories `shards` of `model` into `options.out`.
pub fn merge(model: &Model, shards: &[PathBuf], options: &MergeOptions) -> Result<Merged> {
    let selected = options.selection.select(&model.system);
    let expected = run_info(model, &selected, 0, None);
    let shards: Vec<ShardDir> = shards
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<_>>()?;
    let Some(first) = shards.first() else {
        return refuse("no shard directories given".into());
    };
    let count = first.info.shard.map_or(1, |s| s.count);
    let mut seen_index = BTreeSet::new();
    for s in &shards {
        let i = &s.info;
        if i.model_hash != expected.model_hash {
            return refuse(format!(
                "{} holds results of another model (or other front-end options) than {}",
                s.dir.display(),
                model.name
            ));
        }
        if i.mutants_hash != expected.mutants_hash {
            return refuse(format!(
                "{} holds results of another mutant selection (--operators/--sample/--seed)",
                s.dir.display()
            ));
        }
        if i.bound != first.info.bound {
            return refuse(format!(
                "{} used --bound {}, {} used --bound {}",
                s.dir.display(),
                i.bound,
                first.dir.display(),
                first.info.bound
            ));
        }
        let (index, n) = i.shard.map_or((0, 1), |sh| (sh.index, sh.count));
        if n != count {
            return refuse(format!(
                "{} is a shard of {n}, {} a shard of {count}",
                s.dir.display(),
                first.dir.display()
            ));
        }
        if !seen_index.insert(index) {
            return refuse(format!(
                "shard {}/{count} is given twice ({})",
                index + 1,
                s.dir.display()
            ));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|k| !seen_index.contains(k))
        .map(|k| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        return refuse(format!("shards missing: {}", missing.join(", ")));
    }

    // Every selected mutant decided exactly once, by the shard it belongs to.
    let mut by_id: BTreeMap<usize, (&ShardDir, &MutantRecord)> = BTreeMap::new();
    for s in &shards {
        for r in &s.records {
            if let Some(sh) = s.info.shard {
                if !sh.contains(r.id) {
                    return refuse(format!(
                        "{}: mutant {} does not belong to shard {}/{}",
                        s.dir.display(),
                        r.id,
                        sh.index + 1,
                        sh.count
                    ));
                }
            }
            if by_id.insert(r.id, (s, r)).is_some() {
                return refuse(format!("mutant {} is decided by two shards", r.id));
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
        return refuse(format!(
            "{} mutants are not decided yet (ids {}{}); finish their shards with `testgen --resume`",
            undecided.len(),
            shown.join(", "),
            if undecided.len() > 10 { ", …" } else { "" }
        ));
    }

    let info = RunInfo {
        bound: first.info.bound,
        ..expected
    };
    // Every referenced file is checked before anything is written: a failed merge leaves
    // `out` as it was.
    let mut copies = Vec::new();
    for (s, r) in by_id.values() {
        for rel in record_files(r) {
            let from = s.dir.join(&rel);
            if from.exists() {
                copies.push((from, options.out.join(&rel)));
            } else if !optional_file(&rel) {
                return refuse(format!(
                    "{} is missing (referenced by mutant {})",
                    from.display(),
                    r.id
                ));
            }
        }
    }
    let store = Store::claim(&options.out, options.fresh)?;
    for (from, to) in &copies {
        let bytes = std::fs::read(from)
            .map_err(|e| Error::io(format!("cannot read {}", from.display()), e))?;
        write_atomic(to, &bytes)?;
    }
    let records: Vec<MutantRecord> = by_id.values().map(|(_, r)| (*r).clone()).collect();
    let mut lines = String::new();
    for r in &records {
        lines.push_str(&serde_json::to_string(r)?);
        lines.push('\n');
    }
    store.write("results.jsonl", lines.as_bytes())?;
    store.write_json("run.json", &info)?;
    let report = finish(
        &Finish {
            sys: &model.system,
            mutants: &selected,
            model: &model.name,
            model_hash: &info.model_hash,
            bound: info.bound,
            weak: options.weak,
        },
        &store,
        records,
    )?;
    Ok(Merged {
        shards: count,
        report,
    })
}
