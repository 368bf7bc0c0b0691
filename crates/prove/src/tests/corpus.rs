//! The shared AIGER corpus: every file with a known result in `corpus/MANIFEST.md`.
//!
//! IC3 runs with a small time limit per file (unknown is allowed, a wrong verdict is not).
//! Every witness is replayed by our simulator and by py-aiger on the legacy file; every
//! safe verdict's certificate passes `check_certificate` (inside the engine) and its
//! Certifaiger witness circuit passes ABC's combinational checks.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hypermut_aig::aiger::{safety_properties, write_aiger_with, AigerFormat, WriteOptions};
use hypermut_aig::{check_witness, read_aiger, Aig, Witness};
use hypermut_testkit::abc::ABC;
use hypermut_testkit::pyaiger::{output_traces, PyCase};
use hypermut_testkit::{corpus, have};

use super::abc_confirms_witness_circuit;
use crate::{witness_circuit, Engine, Ic3, Verdict};

/// The py-aiger replay of witness `w` of `problem`: its legacy file with every object named
/// (`<tag>.aag` in `dir`), reporting the first output.
fn py_case(problem: &Aig, w: &Witness, dir: &Path, tag: &str) -> PyCase {
    let opts = WriteOptions {
        format: AigerFormat::Ascii,
        legacy: true,
        name_all: true,
    };
    let file = dir.join(format!("{tag}.aag"));
    std::fs::write(&file, write_aiger_with(problem, &opts)).expect("write legacy file");
    PyCase::read_legacy_aag(&file, 0, &w.init, &w.inputs).unwrap_or_else(|e| panic!("{e}"))
}

/// `(file, safe?)` for every AIGER file with `UNSAT`/`SAT` in the corpus's MANIFEST.md.
fn expected_results(corpus: &Path) -> Vec<(PathBuf, bool)> {
    let text = std::fs::read_to_string(corpus.join("MANIFEST.md")).expect("MANIFEST.md");
    let mut section: Option<String> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("### ") {
            section = rest.starts_with("aiger/").then(|| rest.trim().to_string());
            continue;
        }
        let Some(sec) = &section else { continue };
        if !line.starts_with("| `") {
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        let (Some(file), Some(expected)) = (cells.first(), cells.get(7)) else {
            continue;
        };
        let safe = if expected.starts_with("UNSAT") {
            true
        } else if expected.starts_with("SAT") {
            false
        } else {
            continue;
        };
        out.push((corpus.join(sec).join(file.trim_matches('`')), safe));
    }
    out
}

#[test]
fn corpus_verdicts_witnesses_and_certificates() {
    let Some(corpus_dir) = corpus::dir("") else {
        return;
    };
    let expected = expected_results(&corpus_dir);
    assert!(
        expected.len() >= 100,
        "MANIFEST.md lists {}",
        expected.len()
    );
    // Debug builds are slower; unknown is allowed, wrong is not.
    let limit = Duration::from_millis(if cfg!(debug_assertions) { 1500 } else { 10_000 });
    let dir = tempfile::tempdir().expect("temp dir");
    let abc = have(ABC);
    let start = Instant::now();
    let mut py_cases = Vec::new();
    let (mut solved, mut unknown, mut certified) = (0, 0, 0);
    for (n, (path, expect_safe)) in expected.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let aig = read_aiger(&bytes, &path.display().to_string()).expect("corpus file reads");
        let props = safety_properties(&aig).to_vec();
        assert!(!props.is_empty(), "{}", path.display());
        let (mut any_unsafe, mut all_safe) = (false, true);
        for (p, prop) in props.iter().enumerate() {
            let mut problem = aig.clone();
            problem.bad = vec![prop.clone()];
            problem.justice.clear();
            problem.fairness.clear();
            let what = format!("{} property {p}", path.display());
            match Ic3::new(Some(limit)).check(&problem) {
                Verdict::Unsafe(w) => {
                    assert!(!expect_safe, "{what}: WRONG verdict unsafe");
                    let w = Witness {
                        properties: vec![format!("b{p}")],
                        ..w
                    };
                    check_witness(&aig, &w).unwrap_or_else(|e| panic!("{what}: {e}"));
                    py_cases.push(py_case(&problem, &w, dir.path(), &format!("f{n}p{p}")));
                    any_unsafe = true;
                    all_safe = false;
                }
                Verdict::Safe(cert) => {
                    assert!(
                        *expect_safe || props.len() > 1,
                        "{what}: WRONG verdict safe"
                    );
                    if abc {
                        let w = witness_circuit(&problem, &cert).expect("IC3 certificate");
                        abc_confirms_witness_circuit(
                            &problem,
                            &w,
                            dir.path(),
                            &format!("f{n}p{p}"),
                        );
                        certified += 1;
                    }
                }
                Verdict::Unknown(_) => all_safe = false,
            }
        }
        assert!(
            !all_safe || *expect_safe,
            "{}: WRONG verdict safe",
            path.display()
        );
        if any_unsafe || all_safe {
            solved += 1;
        } else {
            unknown += 1;
        }
    }
    eprintln!(
        "corpus: {solved} solved, {unknown} unknown within {limit:?} each, {certified} \
         certificates confirmed by ABC, {:?} in total",
        start.elapsed()
    );
    if let Some(traces) = output_traces(&py_cases) {
        for (c, t) in py_cases.iter().zip(&traces) {
            assert!(
                t.last() == Some(&true),
                "py-aiger does not see the bad state at the end of the witness for {}: {t:?}",
                c.file.display()
            );
        }
        eprintln!("py-aiger confirmed {} witnesses", traces.len());
    }
    let need = if cfg!(debug_assertions) { 3 } else { 4 };
    assert!(solved >= expected.len() * need / 5, "only {solved} solved");
}
