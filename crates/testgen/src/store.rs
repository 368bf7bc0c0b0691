//! The results directory of a run (`docs/formats.md` §1): `run.json`, `results.jsonl` (appended
//! one record at a time, resumed and repaired after an interruption), the tests, witnesses
//! and certificates, `summary.json` and `suite.json`. Every file is written atomically: it is
//! either absent or complete. The per-mutant files and records are not flushed to disk one by
//! one (that cost more than deciding small mutants); a resumed run re-decides a mutant whose
//! record survived a system crash but whose evidence did not (`docs/formats.md` §5).

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use hypermut_aig::aiger::{write_aiger, AigerFormat};
use hypermut_aig::write_witness;
use serde::Serialize;

use crate::decide::Decision;
use crate::error::{Error, Result};
use crate::layout::witness_file;
use crate::record::{MutantRecord, MutantVerdict, RunInfo};

/// What to do with results already in the directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to start if the directory holds results.
    #[default]
    Refuse,
    /// Continue them: mutants already decided are not decided again.
    Resume,
    /// Discard them.
    Discard,
}

/// A results directory in use by a run.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens `dir` for a run described by `info`: checks what the directory holds against
    /// `existing`, writes `run.json`, and returns the store with the records of mutants already
    /// decided (when resuming).
    pub fn open(
        dir: &Path,
        info: &RunInfo,
        existing: Existing,
    ) -> Result<(Store, Vec<MutantRecord>)> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        let store = Store {
            dir: dir.to_path_buf(),
        };
        let results = store.results_path();
        let run_path = dir.join("run.json");
        let previous: Option<RunInfo> = match std::fs::read_to_string(&run_path) {
            Ok(text) => Some(serde_json::from_str(&text).map_err(|e| Error::Damaged {
                what: format!("{} is not a hypermut run description", run_path.display()),
                detail: e.to_string(),
            })?),
            Err(_) => None,
        };
        let has_results = results.exists();
        match existing {
            Existing::Resume => match &previous {
                Some(p) if p == info => {}
                Some(_) => {
                    return Err(Error::OutDir(format!(
                        "{} holds results of another model, bound or shard; use another --out or --fresh",
                        dir.display()
                    )))
                }
                None if has_results => {
                    return Err(Error::OutDir(format!(
                        "{} has no run.json; cannot resume safely",
                        dir.display()
                    )))
                }
                None => {}
            },
            Existing::Refuse if has_results => {
                return Err(Error::OutDir(format!(
                    "{} already holds results; continue them with --resume or discard them with --fresh",
                    dir.display()
                )))
            }
            Existing::Refuse | Existing::Discard => {}
        }
        let earlier = if existing == Existing::Resume && has_results {
            let all = read_results(&results)?;
            let n = all.len();
            let intact: Vec<MutantRecord> = all
                .into_iter()
                .filter(|r| store.evidence_intact(r))
                .collect();
            if intact.len() < n {
                let mut text = String::new();
                for r in &intact {
                    text.push_str(&serde_json::to_string(r)?);
                    text.push('\n');
                }
                write_atomic(&results, text.as_bytes())?;
            }
            intact
        } else {
            if has_results {
                std::fs::remove_file(&results)
                    .map_err(|e| Error::io(format!("cannot remove {}", results.display()), e))?;
            }
            Vec::new()
        };
        store.write_json("run.json", info)?;
        Ok((store, earlier))
    }

    /// Claims `dir` for a merge: refuses it if it holds results, unless `fresh`.
    pub fn claim(dir: &Path, fresh: bool) -> Result<Store> {
        if dir.join("results.jsonl").exists() && !fresh {
            return Err(Error::OutDir(format!(
                "{} already holds results; discard them with --fresh or choose another --out",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    /// A store for an existing results directory (reading tests, writing the summary).
    pub fn at(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `results.jsonl` of this directory.
    pub fn results_path(&self) -> PathBuf {
        self.dir.join("results.jsonl")
    }

    /// Whether the files record `r` names are there and readable: its test (a JSON document)
    /// and its certificate (an AIGER file). Witnesses and waveforms are optional.
    fn evidence_intact(&self, r: &MutantRecord) -> bool {
        let test_ok = r.test.as_ref().is_none_or(|name| {
            std::fs::read(self.dir.join(name))
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .is_some()
        });
        let cert_ok = r.certificate.as_ref().is_none_or(|name| {
            let path = self.dir.join(name);
            std::fs::read(&path)
                .ok()
                .is_some_and(|b| hypermut_aig::read_aiger(&b, &path.display().to_string()).is_ok())
        });
        test_ok && cert_ok
    }

    /// Writes the evidence of a decision (test, witness, certificate) and returns its record.
    /// If the evidence cannot be written, the record says so (verdict `error`) rather than
    /// naming files that do not exist.
    pub fn write_decision(&self, d: Decision) -> MutantRecord {
        let mut rec = d.record;
        let written = (|| -> Result<()> {
            if let (Some(t), Some(name)) = (&d.test, &rec.test) {
                self.write_evidence(name, serde_json::to_string_pretty(t)?.as_bytes())?;
            }
            if let Some(w) = &d.witness {
                self.write_evidence(&witness_file(rec.id), write_witness(w).as_bytes())?;
            }
            if let (Some(c), Some(name)) = (&d.certificate, &rec.certificate) {
                self.write_evidence(name, &write_aiger(c, AigerFormat::Binary))?;
            }
            Ok(())
        })();
        if let Err(e) = written {
            rec.outcome = MutantVerdict::Error;
            rec.reason = e.to_string();
            rec.test = None;
            rec.certificate = None;
        }
        rec
    }

    /// Appends a record to `results.jsonl` (one line, one write, not flushed: see
    /// [`Store::sync`]).
    pub fn append(&self, r: &MutantRecord) -> Result<()> {
        append_line(&self.results_path(), &serde_json::to_string(r)?, false)
    }

    /// Flushes `results.jsonl` to disk (the end of a run).
    pub fn sync(&self) -> Result<()> {
        let path = self.results_path();
        match std::fs::File::open(&path) {
            Ok(f) => f
                .sync_all()
                .map_err(|e| Error::io(format!("cannot flush {}", path.display()), e)),
            Err(_) => Ok(()),
        }
    }

    /// Writes a per-mutant file `name` (relative to the directory) atomically, without
    /// flushing it to disk: it survives the process being killed, and a system crash only
    /// costs the mutant being decided again on `--resume`.
    pub fn write_evidence(&self, name: &str, bytes: &[u8]) -> Result<()> {
        replace_file(&self.dir.join(name), bytes, false)
    }

    /// Writes `value` as pretty JSON to `name` (relative to the directory), atomically.
    pub fn write_json<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<()> {
        self.write(name, serde_json::to_string_pretty(value)?.as_bytes())
    }

    /// Writes `bytes` to `name` (relative to the directory), atomically.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        write_atomic(&self.dir.join(name), bytes)
    }

    /// Reads `name` (relative to the directory).
    pub fn read_to_string(&self, name: &str) -> Result<String> {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))
    }
}

/// The records of a results file. A last line cut off by an interrupted write is dropped (and
/// removed from the file); a damaged line elsewhere is an error. A mutant recorded twice keeps
/// its first record.
pub fn read_results(path: &Path) -> Result<Vec<MutantRecord>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let mut records: Vec<MutantRecord> = Vec::new();
    let mut seen = HashSet::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut good_len = 0;
    for (k, line) in lines.iter().enumerate() {
        let complete = line.ends_with('\n');
        match serde_json::from_str::<MutantRecord>(line.trim_end()) {
            Ok(r) if complete => {
                if seen.insert(r.id) {
                    records.push(r);
                }
                good_len += line.len();
            }
            _ if k + 1 == lines.len() => break,
            Err(e) => {
                return Err(Error::Damaged {
                    what: format!("{}:{}", path.display(), k + 1),
                    detail: format!("damaged result line: {e}"),
                })
            }
            // Only the last piece of a split can lack its newline.
            Ok(_) => break,
        }
    }
    if good_len < text.len() {
        let repair = |e| Error::io(format!("cannot repair {}", path.display()), e);
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(repair)?;
        f.set_len(good_len as u64).map_err(repair)?;
    }
    Ok(records)
}

/// Writes `bytes` to `path` atomically (a temporary file in the same directory, flushed to
/// disk, then renamed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_file(path, bytes, true)
}

/// Writes `bytes` to a temporary file next to `path`, flushed to disk if `flush`, and renames
/// it to `path`.
fn replace_file(path: &Path, bytes: &[u8], flush: bool) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("cannot create directory {}", dir.display()), e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| {
        Error::io(
            format!("cannot create a temporary file in {}", dir.display()),
            e,
        )
    })?;
    let cannot_write = |e| Error::io(format!("cannot write {}", path.display()), e);
    tmp.write_all(bytes)
        .and_then(|_| {
            if flush {
                tmp.as_file().sync_all()
            } else {
                Ok(())
            }
        })
        .map_err(cannot_write)?;
    tmp.persist(path).map_err(|e| cannot_write(e.error))?;
    Ok(())
}

/// Appends one line to `path` with a single write (records stay whole even if the process is
/// killed between records), flushed to disk if `flush`.
pub fn append_line(path: &Path, line: &str, flush: bool) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
    let mut buf = line.to_string();
    buf.push('\n');
    f.write_all(buf.as_bytes())
        .and_then(|_| if flush { f.sync_data() } else { Ok(()) })
        .map_err(|e| Error::io(format!("cannot append to {}", path.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: usize) -> MutantRecord {
        MutantRecord {
            outcome: MutantVerdict::Unknown,
            ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "<", "<=")
        }
    }

    fn info(bound: usize) -> RunInfo {
        RunInfo {
            model_hash: "h".into(),
            bound,
            mutants_hash: "m".into(),
            shard: None,
            initial_state: None,
        }
    }

    #[test]
    fn a_cut_off_last_line_is_dropped_and_repaired() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("results.jsonl");
        let one = serde_json::to_string(&rec(1)).expect("json");
        let two = serde_json::to_string(&rec(2)).expect("json");
        std::fs::write(&path, format!("{one}\n{one}\n{}", &two[..two.len() / 2])).expect("write");
        let got = read_results(&path).expect("readable");
        assert_eq!(got, vec![rec(1)]);
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            format!("{one}\n{one}\n")
        );
        std::fs::write(&path, format!("garbage\n{one}\n")).expect("write");
        let e = read_results(&path).unwrap_err().to_string();
        assert!(e.contains("results.jsonl:1: damaged result line"), "{e}");
    }

    #[test]
    fn existing_results_are_refused_resumed_or_discarded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (s, earlier) = Store::open(dir.path(), &info(20), Existing::Refuse).expect("new");
        assert!(earlier.is_empty());
        s.append(&rec(3)).expect("append");
        let e = Store::open(dir.path(), &info(20), Existing::Refuse).unwrap_err();
        assert!(e.to_string().contains("already holds results"), "{e}");
        let e = Store::open(dir.path(), &info(21), Existing::Resume).unwrap_err();
        assert!(
            e.to_string().contains("another model, bound or shard"),
            "{e}"
        );
        let (_, earlier) = Store::open(dir.path(), &info(20), Existing::Resume).expect("resume");
        assert_eq!(earlier, vec![rec(3)]);
        let (_, earlier) = Store::open(dir.path(), &info(21), Existing::Discard).expect("fresh");
        assert!(earlier.is_empty());
        assert!(!dir.path().join("results.jsonl").exists());
    }

    #[test]
    fn a_record_whose_evidence_was_lost_is_decided_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (s, _) = Store::open(dir.path(), &info(20), Existing::Refuse).expect("new");
        let with = |id: usize, test: Option<&str>, cert: Option<&str>| MutantRecord {
            test: test.map(str::to_string),
            certificate: cert.map(str::to_string),
            ..rec(id)
        };
        let records = [
            with(1, Some("tests/mutant-1.json"), None),
            with(2, Some("tests/mutant-2.json"), None),
            with(3, Some("tests/mutant-3.json"), None),
            with(4, None, Some("certificates/mutant-4.aig")),
            with(5, None, Some("certificates/mutant-5.aig")),
            with(6, None, None),
        ];
        s.write_evidence("tests/mutant-1.json", b"{\"frames\": []}")
            .expect("write");
        // Mutant 2's test is cut off, mutant 3's is missing (lost in a system crash).
        s.write_evidence("tests/mutant-2.json", b"{\"frames\": [")
            .expect("write");
        let mut g = hypermut_aig::Aig::new();
        let x = g.add_input("x");
        g.outputs.push(hypermut_aig::Named {
            lit: x,
            name: "o".into(),
        });
        s.write_evidence(
            "certificates/mutant-4.aig",
            &write_aiger(&g, AigerFormat::Binary),
        )
        .expect("write");
        s.write_evidence("certificates/mutant-5.aig", b"aig 1 2")
            .expect("write");
        for r in &records {
            s.append(r).expect("append");
        }
        s.sync().expect("sync");
        let (s, earlier) = Store::open(dir.path(), &info(20), Existing::Resume).expect("resume");
        let ids: Vec<usize> = earlier.iter().map(|r| r.id).collect();
        assert_eq!(ids, vec![1, 4, 6]);
        // The results file holds only those, so a new record for mutant 2 is its only one.
        s.append(&with(2, None, None)).expect("append");
        let again = read_results(&s.results_path()).expect("readable");
        let ids: Vec<usize> = again.iter().map(|r| r.id).collect();
        assert_eq!(ids, vec![1, 4, 6, 2]);
        assert_eq!(again[3], with(2, None, None));
    }

    #[test]
    fn the_initial_state_convention_is_part_of_the_run() {
        let dir = tempfile::tempdir().expect("temp dir");
        let held = RunInfo {
            initial_state: Some("reset: rst held at 1 for 1 cycle".into()),
            ..info(20)
        };
        let (s, _) = Store::open(dir.path(), &held, Existing::Refuse).expect("new");
        s.append(&rec(1)).expect("append");
        let written = s.read_to_string("run.json").expect("run.json");
        assert!(
            written.contains("\"initial_state\": \"reset: rst held"),
            "{written}"
        );
        let e = Store::open(dir.path(), &info(20), Existing::Resume).unwrap_err();
        assert!(e.to_string().contains("another model"), "{e}");
        // A run.json written before the field existed resumes as free power-up values.
        let old = r#"{"model_hash":"h","bound":20,"mutants_hash":"m","shard":null}"#;
        s.write("run.json", old.as_bytes()).expect("write");
        let (s, earlier) = Store::open(dir.path(), &info(20), Existing::Resume).expect("resumes");
        assert_eq!(earlier, vec![rec(1)]);
        let written = s.read_to_string("run.json").expect("run.json");
        assert!(!written.contains("initial_state"), "{written}");
    }

    #[test]
    fn atomic_writes_leave_no_temporary_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let s = Store::at(dir.path());
        s.write("a/b.txt", b"x").expect("write");
        s.write("a/b.txt", b"yz").expect("overwrite");
        assert_eq!(s.read_to_string("a/b.txt").expect("read"), "yz");
        let n = std::fs::read_dir(dir.path().join("a"))
            .expect("dir")
            .count();
        assert_eq!(n, 1);
    }
}
