//! Every mutant of every bundled model (`models/smv/*.smv`, `models/verilog/*.v`) is decided by
//! `hypermut testgen` (BMC, then IC3), and each verdict is confirmed independently:
//!
//! * ABC's PDR (`read; fold; pdr`) on the product written by `hypermut product` gives the same
//!   verdict (killed ⇔ falsified, equivalent ⇔ proved);
//! * every killing witness, replayed by py-aiger on the product, raises `kill` in its last frame
//!   and not before (the first divergence);
//! * every equivalence certificate (a Certifaiger witness circuit) passes the combinational
//!   checks (reset, transition, property, base, step) solved by ABC.
//!
//! Skips the ABC and py-aiger parts with a message when the tools are missing.

mod common;

use std::path::Path;

use common::{abc_comb_sat, abc_pdr_bad_only, have, hypermut_ok, py_case, root};
use hypermut_aig::{read_aiger, read_witness, Aig, Lit};
use hypermut_prove::cert_circuits::certificate_miters;
use hypermut_testkit::abc::Pdr;
use hypermut_testkit::pyaiger::{output_traces, PyCase};
use serde_json::Value as Json;

/// The bundled models, relative to the repository root.
fn bundled_models() -> Vec<String> {
    let mut out = Vec::new();
    for (dir, ext) in [("models/smv", "smv"), ("models/verilog", "v")] {
        let entries = std::fs::read_dir(root().join(dir)).expect("models folder");
        for e in entries {
            let p = e.expect("dir entry").path();
            if p.extension().and_then(|x| x.to_str()) == Some(ext) {
                let name = p.file_name().and_then(|n| n.to_str()).expect("utf-8 name");
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

fn read_aig(path: &Path) -> Aig {
    let bytes = std::fs::read(path).expect("file written");
    read_aiger(&bytes, &path.display().to_string()).expect("our AIGER reads back")
}

/// Counts of what was confirmed for one model.
#[derive(Default, Debug)]
struct Confirmed {
    killed: usize,
    equivalent: usize,
    invalid: usize,
    certificates: usize,
    abc: usize,
}

fn check_model(model: &str, abc: bool) -> Confirmed {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out_s = out.to_str().expect("utf-8");
    hypermut_ok(&[
        "testgen",
        model,
        "--out",
        out_s,
        "--timeout",
        "120",
        "--search-timeout",
        "1",
    ]);
    let summary: Json = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("valid JSON");
    let results = summary["results"].as_array().expect("results");
    assert!(!results.is_empty(), "{model}: no mutants");
    let mut seen = Confirmed::default();
    let mut py_cases: Vec<(PyCase, usize, u64)> = Vec::new();
    for r in results {
        let id = r["id"].as_u64().expect("id");
        let outcome = r["outcome"].as_str().expect("outcome");
        if outcome == "invalid" {
            seen.invalid += 1;
            continue;
        }
        assert!(
            outcome == "killed" || outcome == "equivalent",
            "{model} mutant {id} is not decided: {r}"
        );
        let file = dir.path().join(format!("p{id}.aig"));
        let id_s = id.to_string();
        let file_s = file.to_str().expect("utf-8");
        // A mutant proved equivalent by inclusion (docs/method.md §4.6) has its proof and
        // certificate on the inclusion product.
        let inclusion = r["engine"]
            .as_str()
            .is_some_and(|e| e.starts_with("inclusion-"));
        let mut args = vec!["product", model, "--mutant", &id_s, "-o", file_s];
        if inclusion {
            args.push("--inclusion");
        }
        hypermut_ok(&args);
        let product = read_aig(&file);
        if outcome == "killed" {
            seen.killed += 1;
            let wit = out.join(format!("witnesses/mutant-{id}.wit"));
            let text = std::fs::read_to_string(&wit).expect("witness written");
            let w = read_witness(&text, product.latches.len(), product.inputs.len())
                .expect("witness parses")
                .into_iter()
                .next()
                .expect("one counterexample in the witness file");
            let depth = r["depth"].as_u64().expect("killed mutants have a depth");
            // A test found by the ∃∀ search (§4.7) is longer than φ1's witness; the witness
            // stays φ1's.
            let searched = r["reason"]
                .as_str()
                .is_some_and(|t| t.contains("search found"));
            let depth = if searched { w.depth() as u64 } else { depth };
            assert!(depth <= r["depth"].as_u64().expect("depth"));
            let case = py_case(&product, &w, dir.path(), &format!("k{id}"));
            py_cases.push((case, w.inputs.len(), depth));
        } else {
            seen.equivalent += 1;
            if let Some(cert) = r["certificate"].as_str() {
                let circuit = read_aig(&out.join(cert));
                let miters = certificate_miters(&product, &circuit)
                    .unwrap_or_else(|e| panic!("{model} mutant {id}: {e}"));
                if abc {
                    for (check, g) in &miters {
                        assert!(
                            !abc_comb_sat(g, dir.path(), &format!("c{id}-{check}")),
                            "{model} mutant {id}: ABC refutes the {check} check of the certificate"
                        );
                    }
                }
                seen.certificates += 1;
            } else {
                assert_eq!(
                    product.bad[0].lit,
                    Lit::FALSE,
                    "{model} mutant {id}: equivalent without a certificate needs a constant-false kill"
                );
            }
        }
        if abc {
            let theirs = abc_pdr_bad_only(&product, dir.path());
            let agrees = match outcome {
                "killed" => theirs == Pdr::Falsified,
                // ABC declines a constant property unless folding the constraints adds logic.
                _ if product.bad[0].lit == Lit::FALSE => {
                    matches!(theirs, Pdr::Combinational | Pdr::Proved)
                }
                _ => theirs == Pdr::Proved,
            };
            assert!(
                agrees,
                "{model} mutant {id} is {outcome}, ABC pdr: {theirs:?}"
            );
            seen.abc += 1;
        }
    }
    let cases: Vec<PyCase> = py_cases.iter().map(|(c, ..)| c.clone()).collect();
    if let Some(traces) = output_traces(&cases) {
        for ((c, frames, depth), t) in py_cases.iter().zip(&traces) {
            assert_eq!(t.len(), *frames, "{}", c.file.display());
            let mut expected = vec![false; frames - 1];
            expected.push(true);
            assert_eq!(
                t,
                &expected,
                "py-aiger: kill must rise exactly at the witness' last frame ({})",
                c.file.display()
            );
            // The test's depth is the frame of the first differing output.
            assert_eq!(*depth as usize, frames - 1, "{}", c.file.display());
        }
    }
    seen
}

#[test]
fn every_bundled_mutant_is_decided_and_confirmed_independently() {
    let abc = have("berkeley-abc");
    if !abc {
        eprintln!("SKIPPED the ABC comparisons: berkeley-abc is not on PATH");
    }
    let models = bundled_models();
    assert!(models.len() >= 3, "{models:?}");
    // Two models at a time: each check is mostly sequential (one product export and one ABC
    // run per mutant).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let certificates = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(model) = models.get(k) else { break };
                let seen = check_model(model, abc);
                eprintln!("{model}: {seen:?}");
                assert!(seen.killed > 0, "{model}: nothing killed");
                certificates.fetch_add(seen.certificates, std::sync::atomic::Ordering::SeqCst);
            });
        }
    });
    let certificates = certificates.into_inner();
    // IC3 must have been needed somewhere (not only BMC and structural equivalence).
    assert!(
        certificates > 0,
        "no mutant of {models:?} needed an IC3 proof"
    );
}
