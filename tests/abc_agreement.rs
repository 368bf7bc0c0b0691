//! For every mutant of the bundled models, hypermut's BMC verdict on the exported product
//! equals ABC's (`read P.aig; fold; bmc3`) at the same bound, and `testgen` reports the same
//! depths.

mod common;

use common::{have, hypermut_ok};
use hypermut_prove::bmc::Bmc;
use hypermut_prove::{Engine, Verdict};
use hypermut_testkit::abc;
use serde_json::Value as Json;

const BOUND: usize = 10;

fn agree_on(model: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out_s = out.to_str().expect("utf-8");
    hypermut_ok(&[
        "testgen",
        model,
        "--bound",
        &BOUND.to_string(),
        "--out",
        out_s,
    ]);
    let summary: Json = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("valid JSON");
    let results = summary["results"].as_array().expect("results");
    assert!(!results.is_empty());
    let abc = have("berkeley-abc");
    let mut compared = 0;
    for r in results {
        let id = r["id"].as_u64().expect("id");
        let file = dir.path().join(format!("p{id}.aig"));
        let file_s = file.to_str().expect("utf-8");
        hypermut_ok(&["product", model, "--mutant", &id.to_string(), "-o", file_s]);
        let bytes = std::fs::read(&file).expect("product written");
        let aig = hypermut_aig::read_aiger(&bytes, file_s).expect("our product reads back");
        assert_eq!(aig.bad.len(), 1, "one bad property `kill`");
        assert_eq!(aig.bad[0].name, "kill");
        let ours = match (Bmc {
            max_bound: BOUND,
            time_limit: None,
        })
        .check(&aig)
        {
            Verdict::Unsafe(w) => Some(w.depth()),
            Verdict::Safe(_) | Verdict::Unknown(_) => None,
        };
        let depth = r["depth"].as_u64().map(|d| d as usize);
        let reason = r["reason"].as_str().unwrap_or("");
        let engine = r["engine"].as_str().unwrap_or("");
        match r["outcome"].as_str().expect("outcome") {
            // A test found by the ∃∀ search (docs/method.md §4.7) is at least as long as
            // φ1's shortest kill; φ1's own test is exactly as long.
            // So is a test found for another mutant (fault dropping, §7.8) or by random
            // simulation.
            "killed"
                if reason.contains("search found")
                    || engine == "replay"
                    || engine == "simulation" =>
            {
                assert!(
                    ours.is_some() && ours <= depth,
                    "mutant {id}: {ours:?} vs {depth:?}"
                )
            }
            "killed" => assert_eq!(ours, depth, "mutant {id}"),
            // Proved by inclusion (§4.6): φ1 kills it only with controlled nondeterminism.
            "equivalent" if engine.starts_with("inclusion-") => {
                assert!(ours.is_some(), "mutant {id}")
            }
            "equivalent" | "unknown" => assert_eq!(ours, None, "mutant {id}"),
            _ => {} // invalid: the product is still compared with ABC below
        }
        if abc {
            // Frames 0..=BOUND.
            let theirs = abc::bmc(&file, BOUND + 1);
            if theirs == abc::Bmc::Combinational {
                // ABC declines constant properties; ours must then be the constant false.
                assert_eq!(
                    aig.bad[0].lit,
                    hypermut_aig::Lit::FALSE,
                    "{model} mutant {id}"
                );
                assert_eq!(ours, None);
            } else {
                let expected = abc::Bmc::from_depth(ours);
                assert_eq!(theirs, expected, "{model} mutant {id}: ABC vs hypermut");
            }
            compared += 1;
        }
    }
    eprintln!("{model}: {compared} mutants compared with ABC");
}

#[test]
fn beverage_bmc_verdicts_equal_abc() {
    agree_on("models/smv/beverage.smv");
}

#[test]
fn counter_bmc_verdicts_equal_abc() {
    agree_on("models/smv/counter.smv");
}
