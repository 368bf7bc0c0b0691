//! Tests of the preprocessing: markers traced through the programs (on hand-written program
//! output), and real runs of cpp and m4 (skipped when the program is not installed).

use std::path::{Path, PathBuf};

use hypermut_testkit::tools;

use super::*;

/// The origins of the lines of a model of `n` lines, before any program ran.
fn identity(n: u32) -> Vec<Option<(usize, u32)>> {
    (1..=n).map(|k| Some((0, k))).collect()
}

fn tracer<'a>(
    input_names: &[&str],
    input_lines: &'a [Option<(usize, u32)>],
    files: &'a mut Vec<(String, String)>,
    known: &'a mut HashMap<String, Option<usize>>,
) -> Tracer<'a> {
    Tracer {
        input_names: input_names.iter().map(|s| s.to_string()).collect(),
        input_lines,
        input_is_original: true,
        files,
        known,
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

#[test]
fn cpp_output_is_traced_to_the_model_and_its_includes() {
    let dir = folder(&[("inc.smv", "-- the include\nDEFINE d := N;\n")]);
    let inc = dir.path().join("inc.smv").display().to_string();
    // What `cpp -x c m.smv` writes for a model of 4 lines whose line 3 includes inc.smv.
    let output = format!(
        "# 0 \"m.smv\"\n# 0 \"<built-in>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n\
         # 1 \"m.smv\"\n\nMODULE main\n# 1 \"{inc}\" 1\n-- the include\nDEFINE d := 2;\n\
         # 4 \"m.smv\" 2\nVAR x : boolean;\n"
    );
    let mut files = vec![("m.smv".to_string(), String::new())];
    let mut known = HashMap::new();
    let input = identity(5);
    let mut t = tracer(&["m.smv"], &input, &mut files, &mut known);
    let (text, lines) = t.split(&output);
    assert_eq!(
        text,
        "\nMODULE main\n-- the include\nDEFINE d := 2;\nVAR x : boolean;\n"
    );
    assert_eq!(
        lines,
        [
            Some((0, 1)),
            Some((0, 2)),
            Some((1, 1)),
            Some((1, 2)),
            Some((0, 4)),
            None
        ]
    );
    assert_eq!(files.len(), 2);
    assert_eq!(files[1].0, inc);
    assert_eq!(files[1].1, "-- the include\nDEFINE d := N;\n");
    // Files no output line comes from (cpp's pseudo-files) are not even looked for.
    assert!(!known.contains_key("<built-in>"), "{known:?}");

    // The markers written into the final text show the same origins, and NuSMV's lexer rule
    // (`# N` at the start of a line) recognises every one of them.
    let (marked, origins) = with_markers(&text, &lines, &files);
    assert_eq!(
        marked,
        format!(
            "# 1 \"m.smv\"\n\nMODULE main\n# 1 \"{inc}\"\n-- the include\nDEFINE d := 2;\n\
             # 4 \"m.smv\"\nVAR x : boolean;\n"
        )
    );
    assert_eq!(marked.split('\n').count(), origins.len());
    for (line, origin) in marked.split('\n').zip(&origins) {
        assert_eq!(
            markers::parse(line).is_some(),
            origin.is_none() && !line.is_empty()
        );
    }
}

#[test]
fn a_second_program_is_traced_through_the_first() {
    // The first program's output, traced: line 1 from the model's line 1, line 2 from an
    // include's line 7, line 3 from the model's line 9.
    let first = [Some((0, 1)), Some((1, 7)), Some((0, 9)), None];
    let mut files = vec![
        ("m.smv".to_string(), String::new()),
        ("inc".into(), String::new()),
    ];
    let mut known = HashMap::new();
    let mut t = tracer(&["<stdin>", "stdin", "-"], &first, &mut files, &mut known);
    t.input_is_original = false;
    // m4 -s on standard input: a two-line expansion of the input's line 2, then line 3.
    let (text, lines) = t.split("#line 1 \"stdin\"\na\nb1\n#line 2\nb2\nc\n");
    assert_eq!(text, "a\nb1\nb2\nc\n");
    assert_eq!(
        lines,
        [Some((0, 1)), Some((1, 7)), Some((1, 7)), Some((0, 9)), None]
    );
    // A warning about the input's line 3 is about the model's line 9; its column is not
    // the original's.
    let w = t.warnings(Preprocessor::M4, "m4:stdin:3: Warning: excess arguments");
    assert_eq!(
        w,
        [Warning {
            at: Some((0, 9, 0)),
            message: "m4: excess arguments".into()
        }]
    );
}

#[test]
fn warnings_are_read_from_the_programs_messages() {
    let table = [
        (
            "m.smv:4:24: warning: missing terminating ' character",
            Preprocessor::Cpp,
            Some((Some(("m.smv", 4, 24)), "missing terminating ' character")),
        ),
        (
            "m4:dir/m.smv:3: Warning: excess arguments to builtin `define' ignored",
            Preprocessor::M4,
            Some((
                Some(("dir/m.smv", 3, 0)),
                "excess arguments to builtin `define' ignored",
            )),
        ),
        (
            "cc1: warning: command-line option ignored",
            Preprocessor::Cpp,
            Some((None, "command-line option ignored")),
        ),
        ("In file included from m.smv:9:", Preprocessor::Cpp, None),
        ("    4 | VAR x : 0..3; -- it's", Preprocessor::Cpp, None),
    ];
    for (line, pre, want) in table {
        assert_eq!(split_warning(line, pre), want, "{line}");
    }
    // The same message reported many times is one warning, at its first place.
    let input = identity(9);
    let mut files = vec![("m.smv".to_string(), String::new())];
    let mut known = HashMap::new();
    let mut t = tracer(&["m.smv"], &input, &mut files, &mut known);
    let messages = "m.smv:4:24: warning: missing terminating ' character\n    4 | x\n      ^\n\
                    m.smv:7:3: warning: missing terminating ' character\n";
    assert_eq!(
        t.warnings(Preprocessor::Cpp, messages),
        [Warning {
            at: Some((0, 4, 24)),
            message: "cpp: missing terminating ' character (reported 2 times; the first is \
                      shown)"
                .into()
        }]
    );
}

/// A model whose line 2 defines a macro, line 6 uses it and line 7 includes `inc.smv`.
const CPP_MODEL: &str = "-- a model for cpp\n#define LIMIT 2\nMODULE main\nVAR x : 0..3;\n\
                         ASSIGN init(x) := 0;\n  next(x) := x < LIMIT ? x + 1 : 0;\n\
                         #include \"inc.smv\"\n";

/// The file `inc.smv` of [`CPP_MODEL`]; its line 2 uses the model's macro.
const CPP_INC: &str = "-- the include: it's here\nDEFINE big := x >= LIMIT;\n";

fn model_in(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

#[test]
fn cpp_expands_macros_and_includes_and_every_line_is_traced() {
    if !tools::have("cpp") {
        return;
    }
    let dir = folder(&[("m.smv", CPP_MODEL), ("inc.smv", CPP_INC)]);
    let path = model_in(dir.path(), "m.smv");
    let name = path.display().to_string();
    let p = preprocess(&name, CPP_MODEL, Some(&path), &[Preprocessor::Cpp]).expect("cpp runs");
    assert!(
        p.text.contains("next(x) := x < 2 ? x + 1 : 0;"),
        "{}",
        p.text
    );
    assert!(p.text.contains("DEFINE big := x >= 2;"), "{}", p.text);
    assert!(!p.text.contains("#define"), "{}", p.text);
    assert_eq!(p.files.len(), 2, "{:?}", p.files);
    assert_eq!(p.files[0], (name.clone(), CPP_MODEL.to_string()));
    assert_eq!(p.files[1].1, CPP_INC);
    // Every non-blank line of the output is traced to the original line it came from: that
    // line holds the same words once macros are expanded by hand.
    let expand = |s: &str| s.replace("LIMIT", "2");
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let text_lines: Vec<&str> = p.text.split('\n').collect();
    assert_eq!(text_lines.len(), p.lines.len());
    let mut traced = 0;
    for (line, origin) in text_lines.iter().zip(&p.lines) {
        match origin {
            Some((f, n)) => {
                let orig = p.files[*f]
                    .1
                    .split('\n')
                    .nth(*n as usize - 1)
                    .expect("line");
                if !line.trim().is_empty() {
                    assert_eq!(squash(line), squash(&expand(orig)), "{line:?}");
                    traced += 1;
                }
            }
            None => assert!(
                line.is_empty() || markers::parse(line).is_some(),
                "{line:?}"
            ),
        }
    }
    assert_eq!(traced, 7);
    // The markers written into the text say the same.
    let mut sources = hypermut_ir::SourceMap::new();
    let file = sources.add(name.as_str(), p.text.as_str());
    for (n, t) in &p.files {
        sources.add(n.as_str(), t.as_str());
    }
    let from_markers = crate::origin::Origins::from_markers(&sources, file);
    let want: Vec<Option<(hypermut_ir::FileId, u32)>> = p
        .lines
        .iter()
        .map(|o| o.map(|(f, l)| (hypermut_ir::FileId(f as u32 + 1), l)))
        .collect();
    assert_eq!(from_markers.lines(), want.as_slice());
    // The apostrophe in the include's comment: cpp warns, at its place.
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert_eq!(p.warnings[0].at, Some((1, 1, 19)));
    assert!(p.warnings[0]
        .message
        .starts_with("cpp: missing terminating ' character"));
    // The same text on standard input gives the same text, apart from the names in markers.
    let q = preprocess(&name, CPP_MODEL, None, &[Preprocessor::Cpp]);
    // From standard input cpp looks for includes in the current folder, where there is none.
    let e = q.expect_err("inc.smv is not in the current folder");
    assert!(e.to_string().contains("inc.smv"), "{e}");
}

#[test]
fn cpp_errors_name_the_program_and_its_message() {
    if !tools::have("cpp") {
        return;
    }
    let model = "MODULE main\n#include \"nope.smv\"\n";
    let dir = folder(&[("m.smv", model)]);
    let path = model_in(dir.path(), "m.smv");
    let name = path.display().to_string();
    let e = preprocess(&name, model, Some(&path), &[Preprocessor::Cpp])
        .expect_err("the include is missing");
    let text = e.to_string();
    assert!(matches!(e, SmvError::Preprocessor { ref program, .. } if program == "cpp"));
    assert!(
        text.starts_with(&format!(
            "{name}: the preprocessor `cpp -x c {name}` failed"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{name}:2:10: fatal error: nope.smv")),
        "{text}"
    );
}

/// A model for m4: a two-line macro on line 4, an include on line 6.
const M4_MODEL: &str = "define(`N', `2')dnl\ndefine(`BOTH', `x\n  & y')dnl\nMODULE main\n\
                        VAR x : boolean; y : boolean;\ninclude(`inc4.smv')dnl\n\
                        INVARSPEC BOTH | N = 2\nINVARSPEC x\n";

const M4_INC: &str = "DEFINE d := N;\nDEFINE e := d;\n";

#[test]
fn m4_sync_lines_trace_expansions_and_includes() {
    if !tools::have("m4") {
        return;
    }
    let dir = folder(&[("m4.smv", M4_MODEL), ("inc4.smv", M4_INC)]);
    let path = model_in(dir.path(), "m4.smv");
    let name = path.display().to_string();
    let p = preprocess(&name, M4_MODEL, Some(&path), &[Preprocessor::M4]).expect("m4 runs");
    let body: Vec<(&str, Option<(usize, u32)>)> = p
        .text
        .split('\n')
        .zip(p.lines.iter().copied())
        .filter(|(l, _)| markers::parse(l).is_none() && !l.is_empty())
        .collect();
    assert_eq!(
        body,
        [
            ("MODULE main", Some((0, 4))),
            ("VAR x : boolean; y : boolean;", Some((0, 5))),
            ("DEFINE d := 2;", Some((1, 1))),
            ("DEFINE e := d;", Some((1, 2))),
            ("INVARSPEC x", Some((0, 7))),
            ("  & y | 2 = 2", Some((0, 7))),
            ("INVARSPEC x", Some((0, 8))),
        ]
    );
    assert_eq!(p.files[1].1, M4_INC);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn cpp_then_m4_and_m4_then_cpp() {
    if !tools::have("cpp") || !tools::have("m4") {
        return;
    }
    // Line 1 is for cpp, line 2 for m4; line 6 uses both macros.
    let model = "#define A 1\ndefine(`B', `0')dnl\nMODULE main\nVAR x : 0..1;\n\
                 ASSIGN init(x) := B;\n  next(x) := A - B;\n";
    let dir = folder(&[("m.smv", model)]);
    let path = model_in(dir.path(), "m.smv");
    let name = path.display().to_string();
    for order in [
        [Preprocessor::Cpp, Preprocessor::M4],
        [Preprocessor::M4, Preprocessor::Cpp],
    ] {
        let p = preprocess(&name, model, Some(&path), &order).expect("both run");
        let traced: Vec<(&str, Option<(usize, u32)>)> = p
            .text
            .split('\n')
            .zip(p.lines.iter().copied())
            .filter(|(l, _)| !l.trim().is_empty() && markers::parse(l).is_none())
            .collect();
        let squashed: Vec<(String, Option<(usize, u32)>)> = traced
            .iter()
            .map(|(l, o)| (l.split_whitespace().collect::<Vec<_>>().join(" "), *o))
            .collect();
        let want = [
            ("MODULE main", 3),
            ("VAR x : 0..1;", 4),
            ("ASSIGN init(x) := 0;", 5),
            ("next(x) := 1 - 0;", 6),
        ];
        let want: Vec<(String, Option<(usize, u32)>)> = want
            .iter()
            .map(|(l, n)| (l.to_string(), Some((0, *n))))
            .collect();
        assert_eq!(squashed, want, "{order:?}:\n{}", p.text);
    }
}
