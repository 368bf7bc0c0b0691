//! Independent oracles: ABC and yosys must read what we write, and py-aiger must confirm our
//! witnesses on the legacy files. Each test skips (with a message) when its tool is missing.

use std::path::Path;

use hypermut_testkit::corpus::aiger_files;
use hypermut_testkit::pyaiger::{output_traces, PyCase};
use hypermut_testkit::{abc, have, tools};

use super::test_support::read_file;
use super::{legacy_aig, safety_properties, write_aiger, write_aiger_with, AigerFormat};
use super::{WriteOptions, LEGACY_CONSTRAINT_LATCH};
use crate::sim::{check_witness, search_witness, simulate};
use crate::{read_aiger, read_witness, Aig, Named, Reset, Witness};

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// ABC cannot read justice/fairness ("liveness … not supported") and aborts on a network
/// without any object; both are ABC limitations, not file errors.
fn abc_can_read(a: &Aig) -> bool {
    let empty =
        a.inputs.is_empty() && a.latches.is_empty() && a.outputs.is_empty() && a.bad.is_empty();
    a.justice.is_empty() && a.fairness.is_empty() && !empty
}

/// The files to feed the tools: every aiger-examples file, plain and legacy.
fn written_examples(dir: &Path, format: AigerFormat) -> Vec<(String, Aig, std::path::PathBuf)> {
    let ext = match format {
        AigerFormat::Binary => "aig",
        AigerFormat::Ascii => "aag",
    };
    let mut out = Vec::new();
    for f in aiger_files("aiger-examples") {
        let a = read_file(&f);
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("x")
            .to_string();
        for legacy in [false, true] {
            let opts = WriteOptions {
                format,
                legacy,
                name_all: false,
            };
            let name = format!("{stem}{}.{ext}", if legacy { "-legacy" } else { "" });
            let path = dir.join(&name);
            std::fs::write(&path, write_aiger_with(&a, &opts)).expect("writable temp dir");
            let written = if legacy { legacy_aig(&a) } else { a.clone() };
            out.push((name, written, path));
        }
    }
    out
}

#[test]
fn abc_reads_our_binary_files() {
    if !have(abc::ABC) {
        return;
    }
    let dir = temp_dir();
    let mut checked = 0;
    for (name, a, path) in written_examples(dir.path(), AigerFormat::Binary) {
        if !abc_can_read(&a) {
            eprintln!("ABC: skipping {name} (justice/fairness or empty network)");
            continue;
        }
        if let Err(text) = abc::read_stats(&path) {
            panic!("ABC on {name}:\n{text}");
        }
        checked += 1;
    }
    eprintln!("ABC read {checked} files");
}

#[test]
fn yosys_reads_our_files() {
    if !have("yosys") {
        return;
    }
    let dir = temp_dir();
    let mut checked = 0;
    for format in [AigerFormat::Binary, AigerFormat::Ascii] {
        for (name, a, path) in written_examples(dir.path(), format) {
            if !a.justice.is_empty() || !a.fairness.is_empty() {
                // yosys 0.23 fails on justice/fairness sections (also on the original files).
                eprintln!("yosys: skipping {name} (justice/fairness)");
                continue;
            }
            let (ok, text) = tools::yosys(&format!("read_aiger {}", path.display()));
            assert!(ok, "yosys on {name}:\n{text}");
            checked += 1;
        }
    }
    eprintln!("yosys read {checked} files");
}

/// Simulates `file` (legacy format) in py-aiger with the witness's initial state and inputs
/// and returns the value of the output named `output` in every frame. `None` if py-aiger is
/// not installed.
fn pyaiger_outputs(file: &Path, a: &Aig, w: &Witness, output: &str) -> Option<Vec<bool>> {
    let latches = a
        .latches
        .iter()
        .zip(&w.init)
        .map(|(l, v)| {
            let v = match l.reset {
                Reset::Zero => false,
                Reset::One => true,
                Reset::Free => v.unwrap_or(false),
            };
            (l.name.clone(), v)
        })
        .collect();
    let case = PyCase {
        file: file.to_path_buf(),
        latches,
        inputs: a.inputs.iter().map(|i| i.name.clone()).collect(),
        output: output.to_string(),
        frames: w
            .inputs
            .iter()
            .map(|f| f.iter().map(|v| v.unwrap_or(false)).collect())
            .collect(),
    };
    output_traces(&[case]).map(|mut traces| traces.remove(0))
}

/// Writes the legacy file of `a` with names for everything and checks that py-aiger sees
/// output `property` become 1 exactly when our simulator says so, and at the witness's last
/// frame.
fn confirm_with_pyaiger(a: &Aig, w: &Witness, property: usize, what: &str) {
    let depth = check_witness(a, w).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        depth,
        w.depth(),
        "{what}: witnesses here end at the bad frame"
    );
    let legacy = legacy_aig(a);
    let dir = temp_dir();
    let path = dir.path().join(format!("{what}.aag"));
    let opts = WriteOptions {
        format: AigerFormat::Ascii,
        legacy: true,
        name_all: false,
    };
    std::fs::write(&path, write_aiger_with(a, &opts)).expect("writable temp dir");
    // Names as written (unnamed objects get invented names).
    let named = read_file(&path);
    let mut init = w.init.clone();
    init.resize(named.latches.len(), Some(false)); // the fold latch starts at 0
    let legacy_w = Witness { init, ..w.clone() };
    let output = named.outputs[property].name.clone();
    let Some(seen) = pyaiger_outputs(&path, &named, &legacy_w, &output) else {
        return;
    };
    let ours: Vec<bool> = simulate(&legacy, &legacy_w.init, &w.inputs)
        .frames
        .iter()
        .map(|f| f.outputs[property])
        .collect();
    assert_eq!(seen, ours, "{what}: py-aiger and our simulator disagree");
    assert_eq!(
        seen.last(),
        Some(&true),
        "{what}: py-aiger does not see the bad state"
    );
}

#[test]
fn pyaiger_confirms_the_cnt1e_witness() {
    let a = read_aiger(
        b"aag 5 1 1 0 3 1\n2\n4 10\n4\n6 5 3\n8 4 2\n10 9 7\nb0 AIGER_NEVER\n",
        "cnt1e.aag",
    )
    .expect("docs/formats.md §9.8");
    let ws = read_witness("1\nb0\n0\n1\n1\n.\n", 1, 1).expect("docs/formats.md §7.3");
    confirm_with_pyaiger(&a, &ws[0], 0, "cnt1e");
}

#[test]
fn pyaiger_confirms_searched_witnesses() {
    let mut found = 0;
    for f in aiger_files("aiger-examples") {
        let a = read_file(&f);
        if !a.justice.is_empty() {
            continue;
        }
        for p in 0..safety_properties(&a).len() {
            let Some(w) = search_witness(&a, p, 16, 64, 42) else {
                continue;
            };
            let what = format!(
                "{}-p{p}",
                f.file_stem().and_then(|s| s.to_str()).unwrap_or("x")
            );
            confirm_with_pyaiger(&a, &w, p, &what);
            found += 1;
        }
    }
    eprintln!("py-aiger confirmed {found} searched witnesses");
}

/// The constraint fold: a counter of input pulses; bad when it reaches 2; constraint: the
/// input is not high twice in a row. py-aiger (which knows nothing about constraints) agrees
/// with the fold on a valid witness and rejects one that breaks the constraint.
#[test]
fn pyaiger_agrees_with_the_constraint_fold() {
    let mut g = Aig::new();
    let i = g.add_input("pulse");
    let c0 = g.add_latch("c0", Reset::Zero);
    let c1 = g.add_latch("c1", Reset::Zero);
    let prev = g.add_latch("prev", Reset::Zero);
    let n0 = g.xor(c0, i);
    let carry = g.and(c0, i);
    let n1 = g.or(c1, carry);
    g.set_next(c0, n0);
    g.set_next(c1, n1);
    g.set_next(prev, i);
    let twice = g.and(prev, i);
    g.constraints.push(Named {
        lit: !twice,
        name: "no double pulse".into(),
    });
    g.bad.push(Named {
        lit: c1,
        name: "two pulses".into(),
    });
    let legacy = legacy_aig(&g);
    assert_eq!(
        legacy.latches.last().map(|l| l.name.as_str()),
        Some(LEGACY_CONSTRAINT_LATCH)
    );
    assert!(legacy.bad.is_empty() && legacy.constraints.is_empty());

    let good = Witness {
        properties: vec!["b0".into()],
        init: vec![None; 3],
        inputs: [true, false, true, false]
            .iter()
            .map(|&b| vec![Some(b)])
            .collect(),
    };
    assert_eq!(check_witness(&g, &good), Ok(3));
    confirm_with_pyaiger(&g, &good, 0, "fold-good");

    // Two pulses in a row reach c1 too, but break the constraint: the folded output stays 0
    // forever, because the fold latch remembers the violation.
    let bad = Witness {
        inputs: [true, true, false, false]
            .iter()
            .map(|&b| vec![Some(b)])
            .collect(),
        ..good.clone()
    };
    assert!(check_witness(&g, &bad).is_err());
    let plain = simulate(&g, &bad.init, &bad.inputs);
    assert!(
        plain.frames[2].bad[0],
        "without constraints the bad state is reached"
    );
    let init = vec![Some(false); 4];
    let folded = simulate(&legacy, &init, &bad.inputs);
    assert!(folded.frames.iter().all(|f| !f.outputs[0]));
    let dir = temp_dir();
    let path = dir.path().join("fold-bad.aag");
    std::fs::write(&path, write_aiger(&legacy, AigerFormat::Ascii)).expect("writable");
    let named = read_file(&path);
    let w = Witness { init, ..bad };
    if let Some(seen) = pyaiger_outputs(&path, &named, &w, "two pulses") {
        assert_eq!(seen, [false; 4]);
    }
}
