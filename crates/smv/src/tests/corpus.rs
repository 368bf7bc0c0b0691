//! The shared NuSMV corpus: every file is either accepted or rejected with a located error.

use std::path::{Path, PathBuf};

use crate::{load_smv, SmvError};

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/smv"
    ));
    dir.is_dir().then(|| dir.to_path_buf())
}

fn smv_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            smv_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "smv") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_files_are_accepted_or_rejected_with_a_location() {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipping: the shared corpus (../shared/corpus/smv) is not available");
        return;
    };
    let mut files = Vec::new();
    smv_files(&dir, &mut files);
    files.sort();
    let mut accepted = 0;
    for f in &files {
        match load_smv(f) {
            Ok(_) => accepted += 1,
            Err(e @ SmvError::Source { .. }) => {
                assert!(e.span().is_some());
                if std::env::var_os("SMV_CORPUS_VERBOSE").is_some() {
                    eprintln!("{}", e.to_string().lines().next().unwrap_or(""));
                }
            }
            Err(e) => panic!("{}: {e}", f.display()),
        }
    }
    eprintln!("corpus: {accepted} of {} SMV files accepted", files.len());
    let negative = dir.join("pynusmv/src/tests/pynusmv/models");
    for bad in ["counter-syntax-error.smv", "counter-semantics-error.smv"] {
        let p = negative.join(bad);
        if p.exists() {
            assert!(load_smv(&p).is_err(), "{bad} must be rejected");
        }
    }
}
