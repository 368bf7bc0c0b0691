//! The shared NuSMV corpus: every file is either accepted or rejected with a located error,
//! nearly all are accepted, and the EBMC regression models' expected truths hold. The corpus
//! lives outside the repository (`../shared/corpus/smv`); without it these tests print
//! `SKIPPED` and pass.

use std::collections::HashMap;

use hypermut_ir::{Frame, Interpreter, Value};
use hypermut_testkit::corpus;

use crate::{load_smv, parse_smv, SmvError};

#[test]
fn corpus_files_are_accepted_or_rejected_with_a_location() {
    let Some(dir) = corpus::dir("smv") else {
        return;
    };
    let files = corpus::files(&dir, &["smv"]);
    let mut accepted = 0;
    for f in &files {
        match load_smv(f) {
            Ok(_) => accepted += 1,
            Err(e @ SmvError::Source { .. }) => {
                assert!(e.span().is_some());
                eprintln!("rejected: {}", e.to_string().lines().next().unwrap_or(""));
            }
            Err(e) => panic!("{}: {e}", f.display()),
        }
    }
    eprintln!("corpus: {accepted} of {} SMV files accepted", files.len());
    // 113 files, 3 of them invalid on purpose; at least 95 % of the others are accepted.
    assert!(
        accepted * 100 >= (files.len() - 3) * 95,
        "{accepted} of {}",
        files.len()
    );
    let negative = dir.join("pynusmv/src/tests/pynusmv/models");
    for bad in ["counter-syntax-error.smv", "counter-semantics-error.smv"] {
        let p = negative.join(bad);
        if p.exists() {
            assert!(load_smv(&p).is_err(), "{bad} must be rejected");
        }
    }
}

/// EBMC's regression models of the SMV word and expression operators state constant
/// facts (`SPEC uwconst(123, 8) * uwconst(3, 8) = uwconst(113, 8)`) that EBMC proves. Read
/// as invariants, every one must evaluate to TRUE.
#[test]
fn ebmc_operator_regressions_hold() {
    let Some(dir) = corpus::dir("smv") else {
        return;
    };
    let mut files = Vec::new();
    for sub in ["ebmc-regression/word", "ebmc-regression/expressions"] {
        files.extend(corpus::files(&dir.join(sub), &["smv"]));
    }
    files.retain(|f| !f.ends_with("invalid_width1.smv"));
    files.sort();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let as_invariants: String = text
            .lines()
            .map(|l| {
                let t = l.trim_start();
                let rest = t
                    .strip_prefix("CTLSPEC ")
                    .or_else(|| t.strip_prefix("SPEC "));
                match rest {
                    Some(r) => format!("INVARSPEC {r}\n"),
                    None => format!("{l}\n"),
                }
            })
            .collect();
        let sys =
            parse_smv(&f.display().to_string(), &as_invariants).unwrap_or_else(|e| panic!("{e}"));
        let interp = Interpreter::new(&sys);
        let state = interp
            .initial_state(&Frame::default(), &HashMap::new())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for p in &sys.properties {
            let v = interp.eval(p.expr, &state, &Frame::default(), None);
            assert_eq!(v, Ok(Value::Bool(true)), "{}: {}", f.display(), p.name);
            checked += 1;
        }
    }
    if !files.is_empty() {
        assert!(checked >= 70, "only {checked} facts checked");
    }
    eprintln!(
        "ebmc regressions: {checked} facts hold in {} files",
        files.len()
    );
}
