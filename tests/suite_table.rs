//! The test suite and the tables end to end: on the beverage machine the minimised suite of
//! `hypermut testgen` kills exactly the killed mutants, re-checked by replaying every suite
//! test on each mutant's own conditional mutant in the word-level interpreter (not on the
//! meta-mutant the suite was built with); and `hypermut table` reports numbers that agree
//! with the `summary.json` counts of the runs it made.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::hypermut_ok;
use hypermut_hyper::Test;
use hypermut_ir::{Frame, Role, System, Value, VarId};
use hypermut_mutate::{conditional, enumerate, make_controllable, Mutant, Operator};
use hypermut_testkit::repo;
use hypermut_testkit::sim::{parse_test_value, selector_kills};
use serde_json::Value as Json;

fn read_json(p: &Path) -> Json {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Whether `test` kills mutant `m`: some output of the conditional mutant with `mut = 1`
/// differs from `mut = 0` in some frame, all constraints holding up to it. `None` if the
/// interpreter fails.
fn kills(sys: &System, m: &Mutant, test: &Test) -> Option<bool> {
    let mut cm = conditional(sys, m).expect("conditional mutant");
    make_controllable(&mut cm.system, &[cm.mut_var]).expect("nd transformation");
    let s = &cm.system;
    let frames: Vec<Frame> = test
        .frames
        .iter()
        .map(|f| {
            let mut fr = Frame::default();
            for (i, v) in s.vars.iter().enumerate() {
                if v.role != Role::Input {
                    continue;
                }
                let given = f.inputs.get(&v.name).or_else(|| f.nd.get(&v.name));
                // Read without hypermut's own parser.
                let val = match given {
                    Some(t) => parse_test_value(s, v.ty, t)
                        .unwrap_or_else(|| panic!("`{t}` is no value of {}", v.name)),
                    None => Value::from_storage_bits(v.ty, &[]),
                };
                fr.inputs.insert(VarId(i as u32), val);
            }
            fr
        })
        .collect();
    // A step only one side's constraints allow kills (`docs/method.md` §5.3).
    selector_kills(s, cm.mut_var, &frames)
}

#[test]
fn minimised_suite_kills_exactly_the_killed_mutants() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("bev");
    let stdout = hypermut_ok(&[
        "testgen",
        "models/smv/beverage.smv",
        "--weak",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(stdout.contains("after greedy set cover"), "{stdout}");
    let summary = read_json(&out.join("summary.json"));
    let suite = read_json(&out.join("suite.json"));
    let outcome: BTreeMap<usize, String> = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().expect("id") as usize,
                r["outcome"].as_str().expect("outcome").to_string(),
            )
        })
        .collect();
    let killed: BTreeSet<usize> = outcome
        .iter()
        .filter(|(_, o)| *o == "killed")
        .map(|(id, _)| *id)
        .collect();
    assert!(!killed.is_empty());

    // Sizes: every killed mutant has a test, each reduction keeps no more than before.
    let size = |k: &str| suite["sizes"][k].as_u64().expect("size") as usize;
    assert_eq!(size("all"), killed.len());
    assert!(size("after_prefix_removal") <= size("all"));
    assert!(size("minimised") <= size("after_prefix_removal"));
    assert!(size("minimised") >= 1);
    assert_eq!(suite["score_preserved"], Json::Bool(true));
    assert_eq!(suite["unconfirmed"], Json::Array(vec![]));
    let weak = &suite["weak"];
    assert_eq!(weak["strong_subset_of_weak"], Json::Bool(true));
    // Mutants proved equivalent by inclusion (docs/method.md §4.6) only narrow a choice: a
    // suite test applied with its nd values (controlled nondeterminism) may still tell them
    // apart, and nothing else that is not killed may be.
    let inclusion: BTreeSet<usize> = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| {
            r["engine"]
                .as_str()
                .is_some_and(|e| e.starts_with("inclusion-"))
        })
        .map(|r| r["id"].as_u64().expect("id") as usize)
        .collect();
    assert!(
        !inclusion.is_empty(),
        "the beverage machine's coffee-only mutants"
    );
    let strong = weak["strong"].as_u64().expect("strong") as usize;
    assert!(strong >= killed.len() && strong <= killed.len() + inclusion.len());
    // Every test kills the mutant it was made for, according to the matrix.
    for (t, row) in suite["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .zip(suite["kill_matrix"].as_array().expect("matrix"))
    {
        let own = t["mutant"].as_u64().expect("mutant");
        assert!(
            row.as_array()
                .expect("row")
                .iter()
                .any(|m| m.as_u64() == Some(own)),
            "test {t} does not kill its own mutant"
        );
    }

    // Independent re-check of the minimised suite in the word-level interpreter.
    let sys = hypermut_smv::load_smv(&repo::path("models/smv/beverage.smv")).expect("model");
    let mutants = enumerate(&sys, &Operator::ALL);
    let tests: Vec<Test> = suite["minimised"]
        .as_array()
        .expect("minimised")
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(out.join(f.as_str().expect("file"))).expect("test");
            serde_json::from_str(&text).expect("a test")
        })
        .collect();
    let mut killed_by_suite = BTreeSet::new();
    for m in &mutants {
        let o = outcome.get(&m.id).expect("every mutant has a verdict");
        if o == "invalid" {
            continue;
        }
        for t in &tests {
            let k = kills(&sys, m, t)
                .unwrap_or_else(|| panic!("mutant {} ({o}) fails in the interpreter", m.id));
            if k {
                killed_by_suite.insert(m.id);
            }
        }
    }
    assert!(killed_by_suite.is_superset(&killed));
    assert!(killed_by_suite
        .difference(&killed)
        .all(|m| inclusion.contains(m)));
}

/// The per-model CSV as rows of column name → text.
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}

#[test]
fn table_numbers_agree_with_the_summaries() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("runs");
    let csv = tmp.path().join("models.csv");
    let mcsv = tmp.path().join("mutants.csv");
    let md = hypermut_ok(&[
        "table",
        "models/smv/beverage.smv",
        "models/smv/counter.smv",
        "--out",
        dir.to_str().expect("utf-8"),
        "--csv",
        csv.to_str().expect("utf-8"),
        "--mutant-csv",
        mcsv.to_str().expect("utf-8"),
    ]);
    assert!(md.contains("Table 3") && md.contains("Table 4"), "{md}");
    let rows = csv_rows(&std::fs::read_to_string(&csv).expect("csv"));
    assert_eq!(rows.len(), 2 + 4, "two models and μ, σ, min, max");
    // Inputs and outputs, read off the model texts: beverage has IVAR inp and observes out;
    // counter has IVARs inc, reset and observes cnt, full.
    let expected_io = [("beverage", "1", "1"), ("counter", "2", "2")];
    let mut killed_pcts = Vec::new();
    for (row, (stem, inputs, outputs)) in rows.iter().zip(expected_io) {
        assert!(row["model"].contains(stem));
        assert_eq!(
            (row["inputs"].as_str(), row["outputs"].as_str()),
            (inputs, outputs)
        );
        let s = read_json(&dir.join(stem).join("summary.json"));
        let n = |k: &str| s[k].as_u64().expect("count") as f64;
        let col = |k: &str| {
            row[k]
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("{k}: {row:?}"))
        };
        assert_eq!(col("mutants"), n("mutants"));
        assert_eq!(col("invalid"), n("invalid"));
        assert_eq!(col("killed"), n("killed"));
        assert_eq!(col("equivalent"), n("equivalent"));
        let valid = n("mutants") - n("invalid");
        assert!(close(col("killed_pct"), 100.0 * n("killed") / valid));
        assert!(close(col("equiv_pct"), 100.0 * n("equivalent") / valid));
        assert!(close(col("timeout_pct"), 100.0 * n("unknown") / valid));
        let results = s["results"].as_array().expect("results");
        // The kill classes, counted from the records: % of the valid mutants, and the
        // scores over the valid non-equivalent ones (definite only, potential or better, all).
        let killed_as = |c: &str| {
            results
                .iter()
                .filter(|r| r["outcome"] == "killed" && r["kill_class"] == c)
                .count() as f64
        };
        let killable = valid - n("equivalent");
        for class in ["definite", "potential", "controlled"] {
            assert_eq!(col(class), killed_as(class), "{stem} {class}");
            let pct = col(&format!("{class}_pct"));
            assert!(
                close(pct, 100.0 * killed_as(class) / valid),
                "{stem} {class}"
            );
        }
        let definite = killed_as("definite");
        let potential = definite + killed_as("potential");
        assert!(close(
            col("score_definite_pct"),
            100.0 * definite / killable
        ));
        assert!(close(
            col("score_potential_pct"),
            100.0 * potential / killable
        ));
        assert!(close(col("score_pct"), 100.0 * n("killed") / killable));
        let depths: Vec<f64> = results
            .iter()
            .filter(|r| r["outcome"] == "killed")
            .map(|r| r["depth"].as_f64().expect("depth"))
            .collect();
        let avg = depths.iter().sum::<f64>() / depths.len() as f64;
        assert!(close(col("avg_test_len"), avg));
        assert_eq!(
            col("max_test_len"),
            depths.iter().copied().fold(0.0, f64::max)
        );
        let total: f64 = results
            .iter()
            .map(|r| r["millis"].as_f64().expect("millis") / 1000.0)
            .sum();
        assert!(close(col("total_time_s"), total));
        assert_eq!(
            col("ands"),
            results[0]["ands_orig"].as_f64().expect("ands_orig")
        );
        killed_pcts.push(col("killed_pct"));
    }
    let mu = &rows[2];
    assert_eq!(mu["model"], "μ");
    let mu_killed: f64 = mu["killed_pct"].parse().expect("μ");
    assert!(close(mu_killed, (killed_pcts[0] + killed_pcts[1]) / 2.0));

    // The per-mutant CSV has one row per mutant with the summary's verdict.
    let text = std::fs::read_to_string(&mcsv).expect("mutant csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("model,mutant_id,operator,site,verdict,kill_kind,depth,test_steps,engine,time_s,ands_orig,ands_cm")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for stem in ["beverage", "counter"] {
        let s = read_json(&dir.join(stem).join("summary.json"));
        let results = s["results"].as_array().expect("results");
        let mine: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0].contains(stem)).collect();
        assert_eq!(mine.len(), results.len());
        for (r, rec) in mine.iter().zip(results) {
            assert_eq!(r[1], rec["id"].to_string());
            let want = match rec["outcome"].as_str().expect("outcome") {
                "unknown" => "timeout",
                o => o,
            };
            assert!(r[4].starts_with(want), "{r:?} vs {want}");
        }
    }

    // A second table run reuses the results instead of deciding the mutants again.
    let again = hypermut_ok(&[
        "table",
        "models/smv/counter.smv",
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(again.contains("models/smv/counter.smv"));
    let s = read_json(&dir.join("counter").join("summary.json"));
    let lines = std::fs::read_to_string(dir.join("counter").join("results.jsonl"))
        .expect("results.jsonl")
        .lines()
        .count();
    assert_eq!(Some(lines as u64), s["mutants"].as_u64());
}
