//! Mutants of SMV constraints (`INIT`/`INVAR`/`TRANS`). A constraint the mutation changes must
//! not silently cut one copy of the product (that would hide exactly the behaviour that
//! distinguishes the mutant, `docs/method.md` §5.3): each copy gets a sticky `blocked` flag that
//! is compared like an output. Such mutants were once reported `equivalent`; they are killed.

mod common;

use std::process::Command;

use common::{abc_pdr_bad_only, have, hypermut_ok, nusmv, run};
use hypermut_testkit::{abc::Pdr, repo};
use serde_json::Value as Json;

const MODEL: &str = "tests/data/smv/door.smv";

/// A test killing by a blocked step (`docs/method.md` §5.3) lists no expected outputs for a
/// step the original refuses, and its `kill` text names the side that refuses and, for a model
/// with nd inputs, the test's kill class.
fn check_blocked_test(t: &Json) {
    let frames = t["frames"].as_array().expect("frames");
    let last = frames.last().expect("a step");
    let outputs = last["outputs"].as_object().expect("outputs");
    let kill = t["kill"].as_str().expect("kill");
    let class = t["kill_class"].as_str().expect("kill_class");
    match t["blocked"].as_str() {
        Some("original") => {
            assert!(outputs.is_empty(), "{t}");
            assert!(
                kill.starts_with("blocked: the original refuses the step the mutant takes"),
                "{kill}"
            );
        }
        Some("mutant") => {
            assert!(!outputs.is_empty(), "{t}");
            assert!(
                kill.starts_with("blocked: the mutant refuses the last step's inputs"),
                "{kill}"
            );
        }
        Some(other) => panic!("blocked: {other}"),
        None => {
            assert!(!outputs.is_empty(), "{t}");
            assert!(!kill.contains("blocked"), "{kill}");
            return;
        }
    }
    // Every step before the last one has the original's outputs.
    for f in &frames[..frames.len() - 1] {
        assert!(
            !f["outputs"].as_object().expect("outputs").is_empty(),
            "{t}"
        );
    }
    let has_nd = t["nd"].as_object().is_some_and(|o| !o.is_empty());
    assert_eq!(kill.contains(&format!("; {class}: ")), has_nd, "{kill}");
    for other in ["definite", "potential", "controlled"] {
        if other != class {
            assert!(!kill.contains(&format!("; {other}: ")), "{kill}");
        }
    }
}

#[test]
fn constraint_mutants_are_killed_by_a_step_only_one_side_can_take() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("out");
    let out_s = out.to_str().expect("utf-8");
    hypermut_ok(&["testgen", MODEL, "--out", out_s]);
    let summary: Json =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary"))
            .expect("JSON");
    let results = summary["results"].as_array().expect("results");
    assert!(results.len() > 20, "{}", results.len());

    // `INIT !open` → `INIT open`: the initial states differ, killed in frame 0 by a step
    // (an initial state) that only one side allows.
    let init = results
        .iter()
        .find(|r| r["original"] == "!open" && r["replacement"] == "open")
        .expect("the INIT mutant");
    assert_eq!(init["outcome"], "killed", "{init}");
    assert_eq!(init["depth"], 0);
    let test: Json = serde_json::from_str(
        &std::fs::read_to_string(out.join(init["test"].as_str().expect("test file")))
            .expect("test"),
    )
    .expect("JSON");
    assert!(
        matches!(test["blocked"].as_str(), Some("original" | "mutant")),
        "{test}"
    );
    let mut blocked = 0;
    for r in results {
        assert!(
            r["outcome"] == "killed" || r["outcome"] == "equivalent",
            "undecided: {r}"
        );
        if let Some(f) = r["test"].as_str() {
            let t: Json =
                serde_json::from_str(&std::fs::read_to_string(out.join(f)).expect("test"))
                    .expect("JSON");
            blocked += usize::from(t["blocked"].is_string());
            check_blocked_test(&t);
        }
    }
    assert!(blocked > 0);

    // The suite's replay on the meta-mutant (a separate simulation) confirms every kill.
    let suite: Json =
        serde_json::from_str(&std::fs::read_to_string(out.join("suite.json")).expect("suite.json"))
            .expect("JSON");
    assert_eq!(
        suite["unconfirmed"].as_array().map(Vec::len),
        Some(0),
        "{}",
        suite["unconfirmed"]
    );

    // ABC pdr agrees with every verdict on the exported products.
    if have("berkeley-abc") {
        for r in results {
            let id = r["id"].as_u64().expect("id").to_string();
            let file = tmp.path().join(format!("p{id}.aig"));
            hypermut_ok(&[
                "product",
                MODEL,
                "--mutant",
                &id,
                "-o",
                file.to_str().expect("utf-8"),
            ]);
            let bytes = std::fs::read(&file).expect("product");
            let aig = hypermut_aig::read_aiger(&bytes, "product").expect("product parses");
            let theirs = abc_pdr_bad_only(&aig, tmp.path());
            let expected = if r["outcome"] == "killed" {
                Pdr::Falsified
            } else {
                Pdr::Proved
            };
            assert_eq!(theirs, expected, "mutant {id}: {r}");
        }
    } else {
        eprintln!("SKIPPED the ABC comparison: berkeley-abc is not on PATH");
    }

    // NuSMV, on the sources: `open` is false initially in the original, not in the mutant.
    let Some(nusmv) = nusmv() else {
        eprintln!("SKIPPED the NuSMV check: NuSMV is not installed");
        return;
    };
    let id = init["id"].as_u64().expect("id").to_string();
    let mutant = tmp.path().join("mutant.smv");
    hypermut_ok(&[
        "mutant",
        MODEL,
        "--id",
        &id,
        "-o",
        mutant.to_str().expect("utf-8"),
    ]);
    let verdict = |src: &std::path::Path| {
        let text = std::fs::read_to_string(src).expect("source") + "\nLTLSPEC !open\n";
        let f = tmp.path().join("spec.smv");
        std::fs::write(&f, text).expect("write");
        let (_, out) = run(Command::new(&nusmv).arg(&f));
        out.lines()
            .find(|l| l.contains("-- specification"))
            .map(|l| l.contains("is true"))
            .expect("NuSMV checks the specification")
    };
    assert!(verdict(&repo::path(MODEL)));
    assert!(!verdict(&mutant));
}
