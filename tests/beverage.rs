//! The golden example of the issue: the beverage machine's "refill 1 instead of 2" mutant is
//! killed by the shortest test req, req, fill, req, req (+ one step, because `out` is
//! registered), and the test replays on the model: the original (mut = 0) produces the test's
//! outputs, the mutant (mut = 1) agrees until the last step and differs there.

mod common;

use std::collections::HashMap;

use common::hypermut_ok;
use hypermut_ir::{Frame, Interpreter, System, Value};
use hypermut_mutate::{conditional, enumerate, make_controllable, Operator};
use hypermut_testkit::repo;
use hypermut_testkit::sim::parse_test_value;
use serde_json::Value as Json;

const BEVERAGE: &str = "models/smv/beverage.smv";

#[test]
fn refill_mutant_is_killed_by_the_shortest_test_and_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().to_str().expect("utf-8 path");
    // Without fault dropping, so that each test is the shortest φ1 kill (docs/method.md §7.8).
    let table = hypermut_ok(&[
        "testgen",
        BEVERAGE,
        "--bound",
        "12",
        "--no-replay",
        "--out",
        out,
    ]);
    assert!(table.contains("mutants:"), "{table}");

    // Identify the refill constant in the source independently of hypermut's numbering.
    let text = std::fs::read_to_string(repo::path(BEVERAGE)).expect("model");
    let (line_no, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("inp = fill & wtr = 0 : 2"))
        .expect("the refill line");
    let col = line.rfind('2').expect("the constant") + 1;
    let line_col = format!(":{}:{col}", line_no + 1);
    let location = format!("{BEVERAGE}{line_col}");

    let summary: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("summary.json")).expect("summary.json"),
    )
    .expect("valid JSON");
    let rec = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["location"] == location.as_str() && r["replacement"] == "1")
        .unwrap_or_else(|| panic!("no refill-1 mutant at {location}"));
    assert_eq!(rec["outcome"], "killed");
    assert_eq!(rec["depth"], 5, "shortest kill is at frame 5");

    let test: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join(rec["test"].as_str().expect("test path")))
            .expect("test file"),
    )
    .expect("valid JSON");
    let frames = test["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 6);
    let inputs: Vec<&str> = frames
        .iter()
        .map(|f| f["inputs"]["inp"].as_str().expect("inp"))
        .collect();
    assert_eq!(&inputs[..5], &["req", "req", "fill", "req", "req"]);
    // The paper's refill mutant is killed definitely: whatever coffee-or-tea choices the
    // machine makes, the mutant serves nothing in the last step and the original serves.
    assert_eq!(test["kill_class"], "definite");
    assert_eq!(test["requires_nd_control"], false);

    // Independent replay on the word-level model: rebuild the conditional mutant from the
    // source, feed the test's inputs and nd values, run original and mutant separately.
    let (system, orig, mutated) = replay(&line_col, "1", frames);
    let s = &system;
    let out_idx = s
        .outputs
        .iter()
        .position(|o| o.name == "out")
        .expect("output out");
    let ty = s.ty(s.outputs[out_idx].expr);
    for (k, f) in frames.iter().enumerate() {
        let expected = parse_test_value(s, ty, f["outputs"]["out"].as_str().expect("out"))
            .expect("a value of the output's type");
        assert_eq!(orig[k][out_idx], expected, "original, frame {k}");
        if k < 5 {
            assert_eq!(mutated[k], orig[k], "mutant agrees in frame {k}");
        }
    }
    assert_ne!(mutated[5], orig[5], "mutant differs in the last frame");
    assert_eq!(test["mutant_outputs"]["out"], "none");
}

#[test]
fn equivalent_by_construction_mutants_are_recognised_on_both_models() {
    // `wtr > 0` → `wtr != 0` is the same predicate on 0..2: it must never be reported killed.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().to_str().expect("utf-8 path");
    hypermut_ok(&["testgen", BEVERAGE, "--bound", "8", "--out", out]);
    let summary: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("summary.json")).expect("summary.json"),
    )
    .expect("valid JSON");
    let results = summary["results"].as_array().expect("results");
    let same: Vec<&Json> = results
        .iter()
        .filter(|r| r["original"] == "wtr > 0" && r["replacement"] == "wtr != 0")
        .collect();
    assert_eq!(same.len(), 2);
    assert!(
        same.iter().all(|r| r["outcome"] == "equivalent"),
        "{same:?}"
    );
    // Counts add up.
    let n = |k: &str| summary[k].as_u64().expect("count");
    assert_eq!(
        n("killed") + n("equivalent") + n("unknown") + n("invalid") + n("errors"),
        n("mutants")
    );
    assert_eq!(n("errors"), 0);
}

/// The paper's Example 3 (`docs/method.md` §4.2, §4.6, §4.7): refilling `{1, 2}` instead of 2
/// is killed only potentially (a mutant that picks 2 behaves like the original, so no test is
/// definite: the search proves none exists up to the bound), and serving only coffee (or
/// only tea) is equivalent, proved by inclusion although φ1 alone would kill it with
/// controlled nondeterminism. The potential test replays: with its own nd values the mutant
/// serves nothing where the original serves.
#[test]
fn example_3_classes_come_out_of_testgen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().to_str().expect("utf-8 path");
    hypermut_ok(&["testgen", BEVERAGE, "--bound", "12", "--out", out]);
    let summary: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("summary.json")).expect("summary.json"),
    )
    .expect("valid JSON");
    let results = summary["results"].as_array().expect("results");
    let text = std::fs::read_to_string(repo::path(BEVERAGE)).expect("model");
    let at = |needle: &str, offset: usize| -> String {
        let (line_no, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle}"));
        let col = line.find(needle).expect("needle") + offset + 1;
        format!("{BEVERAGE}:{}:{col}", line_no + 1)
    };
    let find = |location: &str, replacement: &str| -> &Json {
        results
            .iter()
            .find(|r| r["location"] == location && r["replacement"] == replacement)
            .unwrap_or_else(|| panic!("no mutant {replacement} at {location}"))
    };
    let refill = at("inp = fill & wtr = 0 : 2", "inp = fill & wtr = 0 : ".len());
    let widened = find(&refill, "{1, 2}");
    assert_eq!(widened["outcome"], "killed");
    assert_eq!(widened["kill_class"], "potential");
    let searched = widened["no_definite_up_to"].as_u64().expect("search claim");
    assert!(searched >= 12, "the search reached the bound: {searched}");
    assert_eq!(find(&refill, "1")["kill_class"], "definite");

    let serve = at("{coff, tea}", 0);
    for only in ["coff", "tea"] {
        let r = find(&serve, only);
        assert_eq!(r["outcome"], "equivalent", "{only}: {r}");
        let engine = r["engine"].as_str().expect("engine");
        assert!(engine.starts_with("inclusion-"), "{only}: {engine}");
    }

    // Replay the potential test on the word-level conditional mutant.
    let test: Json = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join(widened["test"].as_str().expect("test")))
            .expect("test file"),
    )
    .expect("valid JSON");
    let frames = test["frames"].as_array().expect("frames");
    let (system, orig, mutated) = replay(&refill[BEVERAGE.len()..], "{1, 2}", frames);
    let s = &system;
    let o = s.outputs.iter().position(|o| o.name == "out").expect("out");
    let ty = s.ty(s.outputs[o].expr);
    for (k, f) in frames.iter().enumerate() {
        let expected =
            parse_test_value(s, ty, f["outputs"]["out"].as_str().expect("out")).expect("a value");
        assert_eq!(orig[k][o], expected, "original, frame {k}");
    }
    assert!(
        (0..frames.len()).any(|k| mutated[k] != orig[k]),
        "with the test's nd values the mutant fails the test"
    );
}

/// Independent replay of a test file's frames on the word-level model: the beverage mutant at
/// `line_col` (`:line:col`) with `replacement`, made into a conditional mutant with
/// controllable nondeterminism, run with `mut = 0` and `mut = 1` on the test's inputs and nd
/// values. Returns the system and the outputs per frame of original and mutant.
fn replay(
    line_col: &str,
    replacement: &str,
    frames: &[Json],
) -> (System, Vec<Vec<Value>>, Vec<Vec<Value>>) {
    let sys = hypermut_smv::load_smv(&repo::path(BEVERAGE)).expect("model loads");
    let mutant = enumerate(&sys, &Operator::ALL)
        .into_iter()
        .find(|m| {
            sys.sources.location(m.span).to_string().ends_with(line_col)
                && m.replacement == replacement
        })
        .expect("the mutant");
    let mut cm = conditional(&sys, &mutant).expect("conditional mutant");
    make_controllable(&mut cm.system, &[cm.mut_var]).expect("nd transformation");
    let s = &cm.system;
    let stimulus: Vec<Frame> = frames
        .iter()
        .map(|f| {
            let mut fr = Frame::default();
            for section in ["inputs", "nd"] {
                for (name, v) in f[section].as_object().expect("map") {
                    let var = s
                        .var_by_name(name)
                        .unwrap_or_else(|| panic!("no variable {name}"));
                    let val = parse_test_value(s, s.var(var).ty, v.as_str().expect("text"))
                        .expect("a value of the variable's type");
                    fr.inputs.insert(var, val);
                }
            }
            fr
        })
        .collect();
    let run = |m: bool| {
        Interpreter::new(s)
            .run(&HashMap::from([(cm.mut_var, Value::Bool(m))]), &stimulus)
            .expect("replay runs")
            .outputs
    };
    let (orig, mutated) = (run(false), run(true));
    (cm.system, orig, mutated)
}
