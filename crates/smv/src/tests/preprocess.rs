//! Models run through cpp and m4 ([`SmvOptions::pre`], NuSMV's `-pre`): what is parsed,
//! what the system holds, and where errors and warnings point (skipped, with a message,
//! when the program is not installed).

use std::collections::HashMap;
use std::path::PathBuf;

use hypermut_ir::{Diagnostic, FileId, Frame, Interpreter, Severity, Value};
use hypermut_testkit::tools;

use super::node_with_text;
use crate::{load_smv_with, parse_smv_with, Loaded, Preprocessor, SmvError, SmvOptions};

fn options(pre: &[Preprocessor]) -> SmvOptions {
    SmvOptions {
        pre: pre.to_vec(),
        ..SmvOptions::default()
    }
}

/// A temporary folder holding `files` (name, text).
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

/// Loads `main` of `files` through `pre`.
fn load(
    files: &[(&str, &str)],
    main: &str,
    pre: &[Preprocessor],
) -> (Result<Loaded, SmvError>, PathBuf, tempfile::TempDir) {
    let dir = folder(files);
    let path = dir.path().join(main);
    (load_smv_with(&path, &options(pre)), path, dir)
}

/// The text a diagnostic's caret underlines, read from the source line it shows.
fn underlined(d: &Diagnostic) -> String {
    let snippet = d.snippet.as_deref().expect("a snippet");
    let lines: Vec<&str> = snippet.lines().collect();
    let (source, carets) = (lines[1], lines[2]);
    let bar = source.find(" | ").expect("gutter") + 3;
    let from = carets.find('^').expect("carets");
    let width = carets.matches('^').count();
    source[bar..].chars().skip(from - bar).take(width).collect()
}

/// A model for cpp: macros on lines 1–2, an include on line 8.
const MODEL: &str = "#define LIMIT 2\n#define STEP(v) (((v) + 1) mod 4)\nMODULE main\n\
                     IVAR go : boolean;\nVAR x : 0..3;\nASSIGN init(x) := 0;\n\
                     next(x) := go & x < LIMIT ? STEP(x) : 0;\n#include \"inc.smv\"\n";

/// The include of [`MODEL`].
const INC: &str = "-- @output x, big\nDEFINE big := x >= LIMIT;\n";

/// [`MODEL`] and [`INC`] expanded by hand.
const EXPANDED: &str = "MODULE main\nIVAR go : boolean;\nVAR x : 0..3;\n\
                        ASSIGN init(x) := 0;\nnext(x) := go & x < 2 ? (((x) + 1) mod 4) : 0;\n\
                        -- @output x, big\nDEFINE big := x >= 2;\n";

#[test]
fn a_cpp_model_behaves_like_its_hand_expanded_text() {
    if !tools::have("cpp") {
        return;
    }
    let (loaded, path, _dir) = load(
        &[("m.smv", MODEL), ("inc.smv", INC)],
        "m.smv",
        &[Preprocessor::Cpp],
    );
    let pre = loaded.unwrap_or_else(|e| panic!("{e}")).system;
    let hand = parse_smv_with("e.smv", EXPANDED, &SmvOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .system;
    let names = |s: &hypermut_ir::System| -> Vec<String> {
        s.vars.iter().map(|v| v.name.clone()).collect()
    };
    assert_eq!(names(&pre), names(&hand));
    let outs = |s: &hypermut_ir::System| -> Vec<String> {
        s.outputs.iter().map(|o| o.name.clone()).collect()
    };
    assert_eq!(outs(&pre), ["x", "big"]);
    assert_eq!(outs(&pre), outs(&hand));
    // The same inputs give the same runs.
    let go = pre.var_by_name("go").expect("go");
    let frames: Vec<Frame> = [true, true, false, true, true, true, true]
        .into_iter()
        .map(|g| Frame {
            inputs: HashMap::from([(go, Value::Bool(g))]),
            choices: HashMap::new(),
            free_next: HashMap::new(),
        })
        .collect();
    let run = |s| {
        Interpreter::new(s)
            .run(&HashMap::new(), &frames)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let (a, b) = (run(&pre), run(&hand));
    assert_eq!(a, b);
    let xs: Vec<Value> = a.outputs.iter().map(|o| o[0].clone()).collect();
    assert_eq!(xs, [0, 1, 2, 0, 1, 2, 0].map(Value::Int));
    // The sources: the preprocessed text first (every span of the system lies in it), then
    // the model and its include as written.
    let files = pre.sources.files();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0].name, path.display().to_string());
    assert!(
        files[0]
            .text
            .starts_with(&format!("# 1 \"{}\"\n", path.display())),
        "{}",
        files[0].text
    );
    assert!(
        files[0].text.contains("DEFINE big := x >= 2;"),
        "{}",
        files[0].text
    );
    assert_eq!(
        (files[1].name.as_str(), files[1].text.as_str()),
        (files[0].name.as_str(), MODEL)
    );
    assert_eq!(files[2].text, INC);
    assert!(files[2].name.ends_with("inc.smv"), "{}", files[2].name);
    let x = pre.var(pre.var_by_name("x").expect("x"));
    let next = x.next.expect("next(x)");
    assert_eq!(pre.exprs.node(next).span.map(|s| s.file), Some(FileId(0)));
    assert_eq!(
        pre.source_text(next),
        Some("go & x < 2 ? (((x) + 1) mod 4) : 0")
    );
    assert_eq!(
        pre.source_text(node_with_text(&pre, "x < 2")),
        Some("x < 2")
    );
    // Traced back to the model as written.
    let span = pre.exprs.node(next).span.expect("a span");
    let orig = crate::original_span(&pre.sources, span);
    assert_eq!(orig.file, FileId(1));
    assert_eq!(pre.sources.snippet(orig), "go & x < LIMIT ? STEP(x) : 0");
    assert_eq!(pre.sources.location(orig).line, 7);
    // A span of a model read without preprocessor is its own origin.
    let hand_next = hand
        .var(hand.var_by_name("x").expect("x"))
        .next
        .expect("next");
    let hand_span = hand.exprs.node(hand_next).span.expect("a span");
    assert_eq!(crate::original_span(&hand.sources, hand_span), hand_span);
}

#[test]
fn errors_point_into_the_original_files() {
    if !tools::have("cpp") {
        return;
    }
    // (model, include, file named, line, message, underlined text)
    let table = [
        // After the macro definitions: the line as written.
        (
            "#define A 1\n#define B 2\nMODULE main\nVAR x : 0..3;\nASSIGN next(x) := y;\n",
            "",
            "m.smv",
            5,
            "undefined identifier `y`",
            "y",
        ),
        // In the include, on its own line 2.
        (
            "#define A 1\nMODULE main\nVAR x : 0..3;\n#include \"inc.smv\"\nASSIGN init(x) := 0;\n",
            "-- an include\nDEFINE d := x + nope;\n",
            "inc.smv",
            2,
            "undefined identifier `nope`",
            "nope",
        ),
        // In a macro's expansion: its invocation is underlined.
        (
            "#define BAD (z + 1)\nMODULE main\nVAR x : 0..3;\nASSIGN\n  next(x) := BAD;\n",
            "",
            "m.smv",
            5,
            "undefined identifier `z`",
            "BAD",
        ),
        // A syntax error after an include, on the model's line after the `#include`.
        (
            "MODULE main\n#include \"inc.smv\"\nVAR x : ;\n",
            "VAR y : boolean;\n",
            "m.smv",
            3,
            "expected",
            ";",
        ),
        // The end of the text: the end of the last original line.
        (
            "#define N 2\nMODULE main\nVAR x : 0..N;\nASSIGN next(x) := case x = 0 : 1;",
            "",
            "m.smv",
            4,
            "missing `esac`: the `case` on line 4 is not closed",
            "",
        ),
    ];
    for (model, inc, file, line, message, text) in table {
        let (loaded, _path, dir) = load(
            &[("m.smv", model), ("inc.smv", inc)],
            "m.smv",
            &[Preprocessor::Cpp],
        );
        let e = loaded.err().unwrap_or_else(|| panic!("{model}: no error"));
        let d = e.diagnostic().unwrap_or_else(|| panic!("{model}: {e}"));
        let loc = d.location.clone().expect("located");
        assert_eq!(loc.file, dir.path().join(file).display().to_string(), "{e}");
        assert_eq!(loc.line, line, "{e}");
        assert!(d.message.contains(message), "{e}");
        if text.is_empty() {
            let last = model.lines().last().expect("a line");
            assert_eq!(loc.column, last.chars().count() + 1, "{e}");
        } else {
            assert_eq!(underlined(&d), text, "{e}");
        }
        let original = if file == "m.smv" { model } else { inc };
        let shown = original.lines().nth(line - 1).expect("the line");
        assert!(e.to_string().contains(&format!("{line} | {shown}")), "{e}");
    }
    // A message naming another place names its line in its own file.
    let model = "MODULE main\n#include \"inc.smv\"\nVAR x : boolean;\n";
    let inc = "-- an include\nVAR x : 0..3;\n";
    let (loaded, path, dir) = load(
        &[("m.smv", model), ("inc.smv", inc)],
        "m.smv",
        &[Preprocessor::Cpp],
    );
    let e = loaded.expect_err("x is declared twice");
    let inc_name = dir.path().join("inc.smv").display().to_string();
    assert_eq!(
        e.to_string().lines().next(),
        Some(
            format!(
                "{}:3:5: error: duplicate declaration of `x` (first declared on line 2 of \
                 {inc_name})",
                path.display()
            )
            .as_str()
        )
    );
}

#[test]
fn warnings_are_located_in_the_original_files() {
    if !tools::have("cpp") {
        return;
    }
    let model =
        "#define N 2\nMODULE main\nVAR x : 0..3;\nASSIGN next(x) := N;\n#include \"inc.smv\"\n";
    let inc = "-- don't mind me\nLTLSPEC F x = 3\n";
    let (loaded, _path, dir) = load(
        &[("m.smv", model), ("inc.smv", inc)],
        "m.smv",
        &[Preprocessor::Cpp],
    );
    let l = loaded.unwrap_or_else(|e| panic!("{e}"));
    let inc_name = dir.path().join("inc.smv").display().to_string();
    let at = |d: &Diagnostic| {
        d.location
            .as_ref()
            .map(|l| (l.file.clone(), l.line, l.column))
    };
    // cpp's warning about the apostrophe, at the apostrophe.
    let cpp = l
        .diagnostics
        .iter()
        .find(|d| d.message.starts_with("cpp: "))
        .expect("cpp's warning");
    assert_eq!(cpp.severity, Severity::Warning);
    assert_eq!(at(cpp), Some((inc_name.clone(), 1, 7)));
    assert_eq!(underlined(cpp), "'");
    // The front-end's note about the skipped LTLSPEC, on the include's line 2.
    let ltl = l
        .diagnostics
        .iter()
        .find(|d| d.message.contains("LTLSPEC"))
        .expect("a note");
    assert_eq!(ltl.severity, Severity::Note);
    assert_eq!(at(ltl).map(|(f, line, _)| (f, line)), Some((inc_name, 2)));
}

#[test]
fn m4_models_are_traced_through_multi_line_expansions() {
    if !tools::have("m4") {
        return;
    }
    let model = "define(`TWO', `x\n  & y')dnl\nMODULE main\nVAR x : boolean; y : boolean;\n\
                 INVARSPEC TWO\nASSIGN next(x) := w;\n";
    let (loaded, path, _dir) = load(&[("m.smv", model)], "m.smv", &[Preprocessor::M4]);
    let e = loaded.expect_err("w is undefined");
    let d = e.diagnostic().expect("located");
    let loc = d.location.expect("located");
    assert_eq!((loc.file, loc.line), (path.display().to_string(), 6), "{e}");
    assert_eq!(underlined(&e.diagnostic().expect("located")), "w");
}

#[test]
fn text_on_standard_input_and_chains_of_preprocessors() {
    if !tools::have("cpp") || !tools::have("m4") {
        return;
    }
    let model = "#define A 1\ndefine(`B', `0')dnl\nMODULE main\nVAR x : 0..1;\n\
                 ASSIGN init(x) := B;\n  next(x) := A - B;\n-- @output x\n";
    for pre in [
        vec![Preprocessor::Cpp, Preprocessor::M4],
        vec![Preprocessor::M4, Preprocessor::Cpp],
    ] {
        let l = parse_smv_with("t.smv", model, &options(&pre))
            .unwrap_or_else(|e| panic!("{pre:?}: {e}"));
        let x = &l.system.vars[0];
        assert_eq!(x.name, "x");
        assert_eq!(l.system.source_text(x.init.expect("init")), Some("0"));
        assert_eq!(l.system.source_text(x.next.expect("next")), Some("1 - 0"));
        assert_eq!(l.system.sources.files()[1].text, model);
        // An error is on the line as written.
        let broken = model.replace("next(x) := A - B", "next(x) := A - q");
        let e = parse_smv_with("t.smv", &broken, &options(&pre)).expect_err("q is undefined");
        let loc = e.diagnostic().and_then(|d| d.location).expect("located");
        assert_eq!((loc.file.as_str(), loc.line), ("t.smv", 6), "{pre:?}: {e}");
    }
}

#[test]
fn without_pre_a_directive_asks_for_it() {
    let e = parse_smv_with(
        "t.smv",
        "#define N 2\nMODULE main\n",
        &SmvOptions::default(),
    )
    .expect_err("a directive");
    assert!(e.to_string().contains("--pre cpp"), "{e}");
    // The preprocessed text itself (with its markers) is read without preprocessor.
    if !tools::have("cpp") {
        return;
    }
    let (loaded, _path, _dir) = load(
        &[("m.smv", MODEL), ("inc.smv", INC)],
        "m.smv",
        &[Preprocessor::Cpp],
    );
    let l = loaded.unwrap_or_else(|e| panic!("{e}"));
    let again = parse_smv_with(
        "m.smv",
        &l.system.sources.files()[0].text,
        &SmvOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.system.vars.len(), l.system.vars.len());
    assert_eq!(again.system.outputs.len(), 2);
}
