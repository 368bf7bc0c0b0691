//! `hypermut mutant --emit …` against the independent tools:
//! * every emitted Verilog source and conditional source of every bundled Verilog model passes
//!   Yosys, and
//!   for a sample the AIGER of the emitted source simulates like the conditional mutant's
//!   AIGER with `mut = 1`;
//! * every emitted SMV source and conditional source of the bundled SMV models is built by
//!   NuSMV exactly when testgen does not call the mutant `invalid`;
//! * for a sample of killed arbiter mutants, iverilog runs the killing test on the original
//!   (expected outputs in every frame), on the emitted mutant (the mutant's outputs in the
//!   last frame, which differ) and on the conditional source with `mut` = 0 and 1;
//! * bad ids and kinds fail with exit status 1 and leave no file.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{have, hypermut, hypermut_ok, nusmv, root, run};
use hypermut_aig::{read_aiger, simulate, Aig};
use hypermut_testkit::{tools, XorShift64};

const ARBITER: &str = "models/verilog/arbiter.v";

/// Mutant ids of a model (`hypermut mutants --json`).
fn mutant_ids(model: &str) -> Vec<usize> {
    let json = hypermut_ok(&["mutants", model, "--json"]);
    let list: serde_json::Value = serde_json::from_str(&json).expect("mutants JSON");
    list.as_array()
        .expect("a JSON list")
        .iter()
        .map(|m| m["id"].as_u64().expect("an id") as usize)
        .collect()
}

/// Writes mutant `id` of `model` as `kind` to `out`.
fn emit(model: &str, id: usize, kind: &str, out: &Path) {
    let out_s = out.to_string_lossy();
    let id_s = id.to_string();
    hypermut_ok(&["mutant", model, "--id", &id_s, "--emit", kind, "-o", &out_s]);
}

/// Yosys reads, elaborates and `proc`esses each file; returns the failures.
fn yosys_failures(top: &str, files: &[(PathBuf, Option<&str>)]) -> Vec<String> {
    let script = |f: &Path, chparam: Option<&str>| {
        let set = chparam.map_or(String::new(), |c| format!("chparam -set {c} 1 {top}; "));
        format!(
            "read_verilog {}; {set}hierarchy -top {top}; proc; opt_clean; design -reset; ",
            f.display()
        )
    };
    let all: String = files.iter().map(|(f, c)| script(f, *c)).collect();
    let (ok, _) = tools::yosys(&all);
    if ok {
        return Vec::new();
    }
    // Find the culprits one by one.
    files
        .iter()
        .filter_map(|(f, c)| {
            let (ok, text) = tools::yosys(&script(f, *c));
            (!ok).then(|| format!("{}: {text}", f.display()))
        })
        .collect()
}

#[test]
fn verilog_model_sources_pass_yosys() {
    if !have("yosys") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut models: Vec<PathBuf> = std::fs::read_dir(root().join("models/verilog"))
        .expect("models/verilog")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .collect();
    models.sort();
    assert!(models.len() >= 5, "{models:?}");
    for path in &models {
        // Each bundled design's top module is named after its file.
        let top = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("file name");
        let model = format!("models/verilog/{top}.v");
        // Yosys has no `$ND` (a VIS idiom): a design it rejects itself is not checked.
        let original = yosys_failures(top, &[(path.clone(), None)]);
        if !original.is_empty() {
            assert!(
                std::fs::read_to_string(path)
                    .expect("model")
                    .contains("$ND"),
                "Yosys rejects {model} itself: {original:?}"
            );
            eprintln!("{model}: not checked (Yosys rejects its `$ND` choices)");
            continue;
        }
        let mut files = Vec::new();
        for id in mutant_ids(&model) {
            let s = tmp.path().join(format!("{top}-m{id}.v"));
            emit(&model, id, "source", &s);
            let c = tmp.path().join(format!("{top}-c{id}.v"));
            emit(&model, id, "conditional", &c);
            let text = std::fs::read_to_string(&c).expect("conditional written");
            assert!(text.contains("parameter [0:0] mut = 1'b0"), "{text}");
            files.push((s, None));
            files.push((c.clone(), None));
            files.push((c, Some("mut")));
        }
        let failures = yosys_failures(top, &files);
        assert!(
            failures.is_empty(),
            "Yosys rejects emitted files of {model}:\n{}",
            failures.join("\n")
        );
        eprintln!("{model}: Yosys accepts all {} emitted files", files.len());
    }
}

/// `n` bits of a xorshift stream.
fn bits(rng: &mut XorShift64, n: usize) -> Vec<Option<bool>> {
    (0..n).map(|_| Some(rng.coin())).collect()
}

fn read(path: &Path) -> Aig {
    let bytes = std::fs::read(path).expect("AIGER written");
    read_aiger(&bytes, &path.to_string_lossy()).expect("AIGER parses")
}

#[test]
fn emitted_sources_simulate_like_the_conditional_mutant() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let ids = mutant_ids(ARBITER);
    let mut rng = XorShift64::from_state(0x2545_f491_4f6c_dd1d);
    for id in ids.iter().copied().step_by(ids.len() / 12 + 1) {
        let src = tmp.path().join(format!("m{id}.v"));
        emit(ARBITER, id, "source", &src);
        let src_aag = tmp.path().join(format!("m{id}.aag"));
        hypermut_ok(&[
            "aiger",
            &src.to_string_lossy(),
            "-o",
            &src_aag.to_string_lossy(),
        ]);
        let cond_aag = tmp.path().join(format!("c{id}.aag"));
        emit(ARBITER, id, "aiger", &cond_aag);
        let (m, c) = (read(&src_aag), read(&cond_aag));
        let sel = c
            .latches
            .iter()
            .position(|l| l.name == "mut")
            .expect("the selector latch");
        assert_eq!(c.latches[sel].next, c.latches[sel].lit, "mut is frozen");
        assert!(m.latches.iter().all(|l| l.name != "mut"));
        // Inputs by name: the conditional mutant's order drives both.
        let names: Vec<&str> = c.inputs.iter().map(|i| i.name.as_str()).collect();
        let order: Vec<usize> = m
            .inputs
            .iter()
            .map(|i| {
                names
                    .iter()
                    .position(|n| *n == i.name)
                    .expect("same inputs")
            })
            .collect();
        let out_names = |g: &Aig| g.outputs.iter().map(|o| o.name.clone()).collect::<Vec<_>>();
        assert_eq!(out_names(&m), out_names(&c), "mutant {id}: outputs");
        for _ in 0..8 {
            let stim: Vec<Vec<Option<bool>>> =
                (0..12).map(|_| bits(&mut rng, names.len())).collect();
            let stim_m: Vec<Vec<Option<bool>>> = stim
                .iter()
                .map(|f| order.iter().map(|k| f[*k]).collect())
                .collect();
            let mut init = vec![None; c.latches.len()];
            init[sel] = Some(true);
            let tc = simulate(&c, &init, &stim);
            let tm = simulate(&m, &[], &stim_m);
            for (k, (a, b)) in tc.frames.iter().zip(&tm.frames).enumerate() {
                assert_eq!(a.outputs, b.outputs, "mutant {id}, frame {k}");
            }
        }
    }
}

/// NuSMV builds the model in `file`; `Err` holds its complaint.
fn nusmv_builds(nusmv: &Path, file: &Path, dir: &Path) -> Result<(), String> {
    let cmds = dir.join("build.cmd");
    std::fs::write(
        &cmds,
        "read_model\nflatten_hierarchy\nencode_variables\nbuild_model\nquit\n",
    )
    .expect("command file");
    let (_, text) = run(Command::new(nusmv).arg("-source").arg(&cmds).arg(file));
    let bad: Vec<&str> = text
        .lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error")
                || l.contains("aborting")
                || l.contains("cannot")
                || l.contains("recursively defined")
                || l.contains("not exhaustive")
        })
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join(" | "))
    }
}

#[test]
fn smv_sources_are_built_by_nusmv_unless_invalid() {
    let Some(nusmv) = nusmv() else { return };
    let tmp = tempfile::tempdir().expect("temp dir");
    for model in [
        "models/smv/counter.smv",
        "models/smv/beverage.smv",
        "tests/data/smv/circular_init.smv",
        "tests/data/smv/nested_case.smv",
    ] {
        let out = tmp.path().join("run");
        let out_s = out.to_string_lossy().into_owned();
        hypermut_ok(&["testgen", model, "--no-prove", "--fresh", "--out", &out_s]);
        let results = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
        let invalid: BTreeSet<usize> = results
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|r| r["outcome"] == "invalid")
            .filter_map(|r| r["id"].as_u64().map(|i| i as usize))
            .collect();
        let (mut rejected, mut rejected_cond) = (BTreeMap::new(), BTreeMap::new());
        let ids = mutant_ids(model);
        for &id in &ids {
            let s = tmp.path().join(format!("m{id}.smv"));
            emit(model, id, "source", &s);
            if let Err(e) = nusmv_builds(&nusmv, &s, tmp.path()) {
                rejected.insert(id, e);
            }
            let c = tmp.path().join(format!("c{id}.smv"));
            emit(model, id, "conditional", &c);
            let text = std::fs::read_to_string(&c).expect("conditional written");
            assert!(text.contains("FROZENVAR mut : boolean;"), "{text}");
            if let Err(e) = nusmv_builds(&nusmv, &c, tmp.path()) {
                rejected_cond.insert(id, e);
            }
        }
        // NuSMV checks assigned values against ranges over all states, as testgen's
        // `invalid` verdict does, so it rejects exactly the invalid mutants (for the
        // conditional mutant too: its `mut = 1` half is the mutant).
        let keys = |m: &BTreeMap<usize, String>| m.keys().copied().collect::<BTreeSet<_>>();
        assert_eq!(keys(&rejected), invalid, "{model}: sources: {rejected:#?}");
        assert_eq!(
            keys(&rejected_cond),
            invalid,
            "{model}: conditional sources: {rejected_cond:#?}"
        );
        for e in rejected.values().chain(rejected_cond.values()) {
            assert!(
                e.contains("cannot assign value")
                    || e.contains("recursively defined")
                    || e.contains("not exhaustive"),
                "{model}: {e}"
            );
        }
        eprintln!(
            "{model}: NuSMV builds {} of {} sources and conditional sources; rejects the {} invalid",
            ids.len() - invalid.len(),
            ids.len(),
            invalid.len()
        );
    }
}

/// A killing test as `testgen` writes it (the fields used here).
#[derive(serde::Deserialize)]
struct TestFile {
    inputs: Vec<String>,
    outputs: Vec<String>,
    depth: usize,
    frames: Vec<TestFrame>,
    mutant_outputs: BTreeMap<String, String>,
}

#[derive(serde::Deserialize)]
struct TestFrame {
    inputs: BTreeMap<String, String>,
    outputs: BTreeMap<String, String>,
}

/// The number a value like `0ud3_5`, `TRUE` or `FALSE` denotes.
fn number(v: &str) -> u64 {
    match v {
        "TRUE" => 1,
        "FALSE" => 0,
        _ => {
            let (_, n) = v.split_once('_').unwrap_or_else(|| panic!("value {v}"));
            n.parse().unwrap_or_else(|_| panic!("value {v}"))
        }
    }
}

/// A testbench driving `t` into `arbiter` (parameter `mut` set if given) that prints every
/// output in every frame: apply the inputs, wait, print, pulse the clock.
fn testbench(t: &TestFile, mut_value: Option<u8>) -> String {
    let mut tb = String::from("`timescale 1ns/1ns\nmodule tb;\n  reg clk = 0;\n");
    for i in &t.inputs {
        let _ = writeln!(tb, "  reg [7:0] {i};");
    }
    let conns: Vec<String> = t
        .inputs
        .iter()
        .map(|i| format!(".{i}({i})"))
        .chain(std::iter::once(".clk(clk)".to_string()))
        .collect();
    let param = mut_value.map_or(String::new(), |v| format!("#(.mut(1'b{v})) "));
    let _ = writeln!(tb, "  arbiter {param}dut({});", conns.join(", "));
    tb.push_str("  initial begin\n    #0;\n");
    for (k, f) in t.frames.iter().enumerate() {
        for (i, v) in &f.inputs {
            let _ = writeln!(tb, "    {i} = {};", number(v));
        }
        tb.push_str("    #10;\n");
        for o in &t.outputs {
            let _ = writeln!(tb, "    $display(\"F {k} {o} %0d\", dut.{o});");
        }
        tb.push_str("    clk = 1; #10; clk = 0;\n");
    }
    tb.push_str("    $finish;\n  end\nendmodule\n");
    tb
}

/// Runs `tb` with `design` in iverilog: output values per frame.
fn simulate_iverilog(design: &Path, tb: &str, dir: &Path) -> Vec<BTreeMap<String, u64>> {
    let tb_file = dir.join("tb.v");
    std::fs::write(&tb_file, tb).expect("testbench written");
    let exe = dir.join("sim");
    let (ok, text) = tools::iverilog(&["-g2005"], "tb", &[], &[&tb_file, design], &exe);
    assert!(ok, "iverilog rejects {}:\n{text}", design.display());
    let (ok, text) = tools::vvp(&exe);
    assert!(ok, "vvp failed:\n{text}");
    let mut frames: Vec<BTreeMap<String, u64>> = Vec::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if let ["F", k, name, v] = f.as_slice() {
            let k: usize = k.parse().expect("frame");
            frames.resize(frames.len().max(k + 1), BTreeMap::new());
            let v = v.parse().unwrap_or_else(|_| panic!("x/z in {l}"));
            frames[k].insert(name.to_string(), v);
        }
    }
    frames
}

fn expected(outputs: &BTreeMap<String, String>) -> BTreeMap<String, u64> {
    outputs
        .iter()
        .map(|(k, v)| (k.clone(), number(v)))
        .collect()
}

#[test]
fn killing_tests_replay_in_iverilog_on_emitted_sources() {
    if !have("iverilog") || !have("vvp") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("run");
    let out_s = out.to_string_lossy().into_owned();
    hypermut_ok(&["testgen", ARBITER, "--no-prove", "--fresh", "--out", &out_s]);
    let mut tests: Vec<(usize, PathBuf)> = std::fs::read_dir(out.join("tests"))
        .expect("tests written")
        .filter_map(|e| {
            let p = e.ok()?.path();
            let id = p
                .file_stem()?
                .to_str()?
                .strip_prefix("mutant-")?
                .parse()
                .ok()?;
            Some((id, p))
        })
        .collect();
    tests.sort();
    assert!(tests.len() > 100, "arbiter: {} killed", tests.len());
    let original = root().join(ARBITER);
    let mut checked = 0;
    for (id, path) in tests.iter().step_by(tests.len() / 10) {
        let t: TestFile =
            serde_json::from_str(&std::fs::read_to_string(path).expect("test")).expect("test JSON");
        assert_eq!(t.frames.len(), t.depth + 1);
        let want: Vec<_> = t.frames.iter().map(|f| expected(&f.outputs)).collect();
        let mut want_mutant = want.clone();
        *want_mutant.last_mut().expect("a frame") = expected(&t.mutant_outputs);
        assert_ne!(want, want_mutant, "mutant {id}: the test kills");
        let src = tmp.path().join(format!("m{id}.v"));
        emit(ARBITER, *id, "source", &src);
        let cond = tmp.path().join(format!("c{id}.v"));
        emit(ARBITER, *id, "conditional", &cond);
        let sim =
            |design: &Path, m: Option<u8>| simulate_iverilog(design, &testbench(&t, m), tmp.path());
        assert_eq!(sim(&original, None), want, "mutant {id}: original");
        assert_eq!(sim(&src, None), want_mutant, "mutant {id}: emitted source");
        assert_eq!(
            sim(&cond, Some(0)),
            want,
            "mutant {id}: conditional, mut = 0"
        );
        assert_eq!(
            sim(&cond, Some(1)),
            want_mutant,
            "mutant {id}: conditional, mut = 1"
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn bad_requests_fail_cleanly_without_output() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("x.v");
    let out_s = out.to_string_lossy().into_owned();
    let cases: &[(&[&str], &str)] = &[
        (&["--id", "100000"], "no mutant with id 100000"),
        (
            &["--id", "3", "--emit", "verilog"],
            "--emit: unknown kind `verilog`",
        ),
        (
            &["--id", "3", "--emit", "source", "--legacy"],
            "--legacy applies",
        ),
    ];
    for (extra, phrase) in cases {
        let mut args = vec!["mutant", ARBITER];
        args.extend_from_slice(extra);
        args.extend(["-o", &out_s]);
        let o = hypermut(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(phrase), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
}

#[test]
fn a_mutation_in_a_library_file_emits_that_file() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let top = tmp.path().join("top.v");
    let lib = tmp.path().join("lib.v");
    std::fs::write(
        &top,
        "module top(input clk, input a, output y);\n  inv u(.clk(clk), .a(a), .y(y));\nendmodule\n",
    )
    .expect("top");
    let lib_text =
        "module inv(input clk, input a, output reg y);\n  always @(posedge clk) y <= !a;\nendmodule\n";
    std::fs::write(&lib, lib_text).expect("lib");
    let (top_s, lib_s) = (top.to_string_lossy(), lib.to_string_lossy());
    let listing = hypermut_ok(&["mutants", &top_s, "--lib-file", &lib_s, "--json"]);
    let list: serde_json::Value = serde_json::from_str(&listing).expect("JSON");
    let first = &list[0];
    assert!(first["location"]
        .as_str()
        .is_some_and(|l| l.contains("lib.v")));
    let id = first["id"].to_string();
    let o = hypermut(&["mutant", &top_s, "--lib-file", &lib_s, "--id", &id]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("module inv("), "{text}");
    let original = first["original"].as_str().expect("text");
    let replacement = first["replacement"].as_str().expect("text");
    assert_eq!(text, lib_text.replacen(original, replacement, 1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("lib.v"));
}

#[test]
fn the_product_is_what_hypermut_product_writes() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for (model, id) in [(ARBITER, 42), ("models/smv/counter.smv", 16)] {
        for (ext, legacy) in [("aig", false), ("aag", true)] {
            let a = tmp.path().join(format!("a.{ext}"));
            let b = tmp.path().join(format!("b.{ext}"));
            let (a_s, b_s, id_s) = (a.to_string_lossy(), b.to_string_lossy(), id.to_string());
            let mut args = vec![
                "mutant", model, "--id", &id_s, "--emit", "product", "-o", &a_s,
            ];
            let mut prod = vec!["product", model, "--mutant", &id_s, "-o", &b_s];
            if legacy {
                args.push("--legacy");
                prod.push("--legacy");
            }
            hypermut_ok(&args);
            hypermut_ok(&prod);
            let (x, y) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
            assert!(!x.is_empty() && x == y, "{model} mutant {id} ({ext})");
        }
    }
}

/// `hypermut mutants` says how many candidates an exact check dropped as equivalent by
/// construction, and lists the ones only a sample calls equivalent (`docs/method.md` §10).
#[test]
fn the_listing_counts_only_exactly_equivalent_candidates_as_dropped() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for (width, dropped, kept) in [(8, 2, false), (16, 0, true)] {
        // `w - 0` computes `w + 0`: on 8 bits every value is tried, on 16 only a sample.
        let model = tmp.path().join(format!("w{width}.smv"));
        std::fs::write(
            &model,
            format!(
                "-- @output w\nMODULE main\nVAR w : unsigned word[{width}];\nASSIGN\n  \
                 init(w) := 0ud{width}_1;\n  next(w) := w + 0ud{width}_0;\n"
            ),
        )
        .expect("write");
        let out = hypermut_ok(&["mutants", model.to_str().expect("utf-8")]);
        let line = format!(
            "{dropped} candidate mutant{} dropped as equivalent by construction (exact check)",
            if dropped == 1 { "" } else { "s" }
        );
        assert_eq!(out.lines().last(), Some(line.as_str()), "{out}");
        let minus = format!("w + 0ud{width}_0 → w - 0ud{width}_0");
        assert_eq!(out.contains(&minus), kept, "{out}");
        // The JSON listing stays a JSON list.
        let json = hypermut_ok(&["mutants", model.to_str().expect("utf-8"), "--json"]);
        assert!(
            serde_json::from_str::<serde_json::Value>(&json).is_ok(),
            "{json}"
        );
    }
}
