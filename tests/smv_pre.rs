//! `--pre cpp|m4` (NuSMV's `-pre`) and quoted identifiers through the CLI: models with
//! macros and includes load, errors point into the original files, a missing preprocessor
//! is named, a mutant of a preprocessed model is preprocessed text that hypermut and NuSMV
//! read without `--pre`, and NuSMV's simulation of a cpp model (`NuSMV -pre cpp`) replays
//! in hypermut's interpreter (skipped, with a message, without cpp or NuSMV).

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use common::{have, hypermut, nusmv, run};
use hypermut_ir::{Frame, Interpreter, Role, Type, Value};
use hypermut_smv::{load_smv_with, Preprocessor, SmvOptions};

/// A counter set up with cpp: object- and function-like macros, `#ifdef`, an include, and
/// quoted identifiers (an input and a variable whose names hold a dot).
const MODEL: &str = r#"-- A counter set up with cpp (it's for `--pre cpp`).
#define LIMIT 5
#define WRAP(v) (((v) + 1) mod 8)
#ifdef FAST
#define STEP 2
#else
#define STEP 1
#endif
MODULE main
IVAR go : boolean; "mode.sel" : {up, hold};
VAR x : 0..7;
    "a.b" : boolean;
ASSIGN
  init(x) := 0;
  next(x) := go & "mode.sel" = up ? (x < LIMIT ? x + STEP : WRAP(x)) : x;
  init("a.b") := FALSE;
  next("a.b") := "a.b" xor (x = LIMIT);
#include "defs.smv"
-- @output x, "a.b", high
"#;

/// The include of [`MODEL`].
const DEFS: &str = "-- the definitions\nDEFINE high := x >= LIMIT;\n";

/// A folder holding `m.smv` = [`MODEL`] and `defs.smv` = [`DEFS`].
fn model_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::write(dir.path().join("m.smv"), MODEL).expect("write");
    std::fs::write(dir.path().join("defs.smv"), DEFS).expect("write");
    let path = dir.path().join("m.smv");
    (dir, path)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn cpp_models_load_and_their_mutants_are_preprocessed_text() {
    if !have("cpp") {
        return;
    }
    let (dir, path) = model_folder();
    let m = path.to_str().expect("a UTF-8 path");
    // Without --pre the directives are refused, with a hint.
    let plain = hypermut(&["mutants", m]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(
        text(&plain.stderr).contains("--pre cpp"),
        "{}",
        text(&plain.stderr)
    );
    // With it the model loads; cpp's warning about the apostrophe is located in the model.
    let listed = hypermut(&["mutants", "--pre", "cpp", m]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let stderr = text(&listed.stderr);
    let quote = MODEL.find('\'').expect("an apostrophe") + 1;
    assert!(
        stderr.contains(&format!(
            "{m}:1:{quote}: warning: cpp: missing terminating ' character"
        )),
        "{stderr}"
    );
    assert!(text(&listed.stdout).lines().count() > 5);
    // Mutants are located in the files the user wrote (the model and its include), not in
    // the preprocessed text: where no macro is involved, the original text starts there.
    let json = hypermut(&["mutants", "--json", "--pre", "cpp", m]);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let listing: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let mutants = listing.as_array().expect("a list of mutants");
    let defs = dir.path().join("defs.smv");
    let files = [(m.to_string(), MODEL), (defs.display().to_string(), DEFS)];
    let mut checked = 0;
    let mut in_defs = 0;
    for mutant in mutants {
        let location = mutant["location"].as_str().expect("a location");
        let original = mutant["original"].as_str().expect("the original text");
        let mut parts = location.rsplitn(3, ':');
        let column: usize = parts.next().and_then(|c| c.parse().ok()).expect("a column");
        let line: usize = parts.next().and_then(|l| l.parse().ok()).expect("a line");
        let file = parts.next().expect("a file");
        let (_, source) = files
            .iter()
            .find(|(name, _)| name == file)
            .unwrap_or_else(|| panic!("{location}: not the model or its include"));
        in_defs += usize::from(file != m);
        let text_line = source.lines().nth(line - 1).expect("the line exists");
        let at = text_line.get(column - 1..).expect("the column exists");
        if !original.chars().any(|c| c.is_ascii_digit()) {
            assert!(
                at.starts_with(original),
                "{location}: `{at}` for `{original}`"
            );
            checked += 1;
        }
    }
    assert!(
        checked > 10 && in_defs > 0,
        "{checked} checked, {in_defs} in defs.smv"
    );
    // A mutant is the preprocessed text with the edit: markers, macros expanded.
    let out = dir.path().join("mutant.smv");
    let o = out.to_str().expect("a UTF-8 path");
    let emitted = hypermut(&["mutant", "--pre", "cpp", "--id", "0", m, "-o", o]);
    assert!(emitted.status.success(), "{}", text(&emitted.stderr));
    let mutant = std::fs::read_to_string(&out).expect("the mutant");
    assert!(mutant.starts_with(&format!("# 1 \"{m}\"\n")), "{mutant}");
    assert!(
        mutant.contains("x < 5 ? x + 1 : (((x) + 1) mod 8)"),
        "{mutant}"
    );
    assert!(mutant.contains("DEFINE high := x >= 5;"), "{mutant}");
    assert!(!mutant.contains("#define"), "{mutant}");
    // hypermut reads it without --pre …
    let again = hypermut(&["mutants", o]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    // … and so does NuSMV, without -pre.
    let Some(nusmv) = nusmv() else { return };
    let cmds = dir.path().join("build.cmd");
    std::fs::write(
        &cmds,
        "read_model\nflatten_hierarchy\nencode_variables\nbuild_model\nquit\n",
    )
    .expect("write");
    let (ok, said) = run(Command::new(&nusmv).arg("-source").arg(&cmds).arg(&out));
    assert!(ok && !said.contains("rror"), "NuSMV on the mutant:\n{said}");
}

/// `hypermut table --pre cpp`: a table's SMV models go through the preprocessor too, and
/// the per-mutant rows locate every mutant in the model or its include.
#[test]
fn tables_take_preprocessed_models() {
    if !have("cpp") {
        return;
    }
    let (dir, path) = model_folder();
    let m = path.to_str().expect("a UTF-8 path");
    let out = dir.path().join("table");
    let csv = dir.path().join("mutants.csv");
    let (o, c) = (out.to_str().expect("UTF-8"), csv.to_str().expect("UTF-8"));
    let common = [
        "--bound",
        "3",
        "--timeout",
        "5",
        "--search-timeout",
        "0",
        "--out",
        o,
    ];
    let mut plain = vec!["table", m];
    plain.extend(common);
    let refused = hypermut(&plain);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stderr));
    let mut with_pre = vec!["table", m, "--pre", "cpp", "--mutant-csv", c];
    with_pre.extend(common);
    let table = hypermut(&with_pre);
    assert!(table.status.success(), "{}", text(&table.stderr));
    let rows = std::fs::read_to_string(&csv).expect("the per-mutant CSV");
    let defs = dir.path().join("defs.smv").display().to_string();
    let sites: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(3).expect("a site column"))
        .collect();
    assert!(sites.len() > 10, "{rows}");
    for site in &sites {
        assert!(
            site.starts_with(&format!("{m}:")) || site.starts_with(&format!("{defs}:")),
            "{site}"
        );
    }
    assert!(sites.iter().any(|s| s.starts_with(&defs)), "{rows}");
}

#[test]
fn errors_in_included_files_name_them() {
    if !have("cpp") {
        return;
    }
    let (dir, path) = model_folder();
    std::fs::write(
        dir.path().join("defs.smv"),
        "-- the definitions\nDEFINE high := x >= LIMT;\n",
    )
    .expect("write");
    let out = hypermut(&["mutants", "--pre", "cpp", path.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let inc = dir.path().join("defs.smv");
    assert!(
        stderr.contains(&format!(
            "{}:2:21: error: undefined identifier `LIMT`",
            inc.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("2 | DEFINE high := x >= LIMT;"), "{stderr}");
    assert!(stderr.contains("|                     ^^^^"), "{stderr}");
}

#[test]
fn a_missing_preprocessor_is_named() {
    let (dir, path) = model_folder();
    let empty = dir.path().join("no-programs");
    std::fs::create_dir(&empty).expect("folder");
    for pre in ["cpp", "m4"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hypermut"))
            .args(["mutants", "--pre", pre])
            .arg(&path)
            .env("PATH", &empty)
            .output()
            .expect("hypermut runs");
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "cannot preprocess with `{pre}`: no program `{pre}` is installed (on PATH)"
            )),
            "{stderr}"
        );
    }
    // `--pre` is an SMV option; an unknown preprocessor is refused by name.
    let bad = hypermut(&["mutants", "--pre", "gcc", path.to_str().expect("UTF-8")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown preprocessor `gcc`"));
}

/// One state or input section of a NuSMV trace: name → value, as printed.
type Section = HashMap<String, String>;

/// The states and inputs of the first trace NuSMV printed, each section completed with the
/// values it does not repeat (NuSMV prints only what changed). `inputs[k]` are the inputs
/// that lead from state `k` to state `k + 1`.
fn nusmv_trace(out: &str) -> (Vec<Section>, Vec<Section>) {
    let (mut states, mut inputs) = (Vec::<Section>::new(), Vec::<Section>::new());
    let mut into_state = true;
    for line in out.lines() {
        let l = line.trim();
        if l.starts_with("-> State:") {
            let last = states.last().cloned().unwrap_or_default();
            states.push(last);
            into_state = true;
        } else if l.starts_with("-> Input:") {
            let last = inputs.last().cloned().unwrap_or_default();
            inputs.push(last);
            into_state = false;
        } else if let Some((name, value)) = l.split_once(" = ") {
            let section = if into_state {
                states.last_mut()
            } else {
                inputs.last_mut()
            };
            if let Some(s) = section {
                s.insert(name.to_string(), value.to_string());
            }
        } else if l.starts_with("<!--") && !states.is_empty() {
            break;
        }
    }
    (states, inputs)
}

/// The value of a variable of type `ty` that NuSMV prints as `text`.
fn value(ty: Type, enums: &[hypermut_ir::EnumType], text: &str) -> Value {
    match ty {
        Type::Bool => Value::Bool(text == "TRUE"),
        Type::Enum(e) => Value::Enum(
            enums[e.0 as usize]
                .values
                .iter()
                .position(|v| v == text)
                .unwrap_or_else(|| panic!("no value {text}")) as u32,
        ),
        _ => Value::Int(
            text.parse()
                .unwrap_or_else(|_| panic!("not a number: {text}")),
        ),
    }
}

#[test]
fn nusmv_simulation_of_a_cpp_model_replays_in_hypermut() {
    if !have("cpp") {
        return;
    }
    let Some(nusmv) = nusmv() else { return };
    let (dir, path) = model_folder();
    let cmds = dir.path().join("sim.cmd");
    std::fs::write(
        &cmds,
        "go\npick_state -r\nsimulate -r -k 200\nshow_traces -v\nquit\n",
    )
    .expect("write");
    let (ok, out) = run(Command::new(&nusmv)
        .args(["-pre", "cpp", "-source"])
        .arg(&cmds)
        .arg(&path));
    assert!(ok, "NuSMV -pre cpp:\n{out}");
    let (states, inputs) = nusmv_trace(&out);
    assert!(states.len() > 150, "NuSMV's trace:\n{out}");
    let options = SmvOptions {
        pre: vec![Preprocessor::Cpp],
        ..SmvOptions::default()
    };
    let sys = load_smv_with(&path, &options)
        .unwrap_or_else(|e| panic!("{e}"))
        .system;
    // Replays NuSMV's inputs and compares every state and output with NuSMV's.
    let frames: Vec<Frame> = (0..states.len())
        .map(|k| {
            let given = inputs.get(k).or(inputs.last()).cloned().unwrap_or_default();
            let inputs = sys
                .vars
                .iter()
                .enumerate()
                .filter(|(_, v)| v.role == Role::Input)
                .map(|(i, v)| {
                    let shown = given
                        .get(&v.name)
                        .unwrap_or_else(|| panic!("no input {}", v.name));
                    (hypermut_ir::VarId(i as u32), value(v.ty, &sys.enums, shown))
                })
                .collect();
            Frame {
                inputs,
                choices: HashMap::new(),
                free_next: HashMap::new(),
            }
        })
        .collect();
    let trace = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut visited = std::collections::HashSet::new();
    for (k, nusmv_state) in states.iter().enumerate() {
        for (i, v) in sys.vars.iter().enumerate() {
            if v.role == Role::Input {
                continue;
            }
            let ours = trace.states[k][i].clone().expect("a value");
            assert_eq!(
                ours.display(v.ty, &sys.enums),
                nusmv_state[&v.name],
                "{} in state {k}",
                v.name
            );
        }
        for (o, ours) in sys.outputs.iter().zip(&trace.outputs[k]) {
            let ty = sys.ty(o.expr);
            assert_eq!(
                ours.display(ty, &sys.enums),
                nusmv_state[&o.name],
                "output {} in state {k}",
                o.name
            );
        }
        visited.insert(nusmv_state["x"].clone());
    }
    // The run went round the counter, through the macros' both branches.
    assert!(
        visited.contains("7") && visited.contains("0"),
        "{visited:?}"
    );
    assert_eq!(
        sys.vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
        ["go", "\"mode.sel\"", "x", "\"a.b\""]
    );
}
