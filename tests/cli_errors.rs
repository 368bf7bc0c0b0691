//! Bad input gives a located error (file:line:col and a caret), a non-zero exit status, no
//! panic and no output file.

mod common;

use common::hypermut;

/// (description, model text, expected `line:col`, a phrase the message must contain)
const MALFORMED: &[(&str, &str, &str, &str)] = &[
    (
        "unknown identifier",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := y;\n",
        "3:19",
        "undefined identifier",
    ),
    (
        "type error",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := x + TRUE;\n",
        "3:19",
        "cannot be applied",
    ),
    (
        "missing esac",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := case x : FALSE; TRUE : x;\n",
        "4:1",
        "esac",
    ),
    (
        "duplicate assignment",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := x;\n next(x) := !x;\n",
        "4:2",
        "assigned more than once",
    ),
    (
        "duplicate declaration",
        "MODULE main\nVAR x : boolean;\n x : 0..1;\n",
        "3:2",
        "duplicate declaration",
    ),
    (
        "assigning an IVAR",
        "MODULE main\nIVAR i : boolean;\nASSIGN next(i) := TRUE;\n",
        "3:8",
        "input variable",
    ),
    (
        "next in INVAR",
        "MODULE main\nVAR x : boolean;\nINVAR next(x);\n",
        "3:7",
        "next",
    ),
    (
        "circular DEFINE",
        "MODULE main\nDEFINE a := b;\n b := a;\n",
        "3:7",
        "recursively defined",
    ),
    (
        "unterminated set",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := {1, 2;\n",
        "3:24",
        "set",
    ),
    (
        "bad character",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := x @ x;\n",
        "3:21",
        "unexpected character",
    ),
    (
        "missing :=",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) TRUE;\n",
        "3:16",
        ":=",
    ),
    (
        "unknown type",
        "MODULE main\nVAR x : bool;\n",
        "2:9",
        "unknown type",
    ),
    (
        "empty range",
        "MODULE main\nVAR x : 3..1;\n",
        "2:9",
        "range",
    ),
    (
        "value out of range",
        "MODULE main\nVAR w : 0..3;\nASSIGN init(w) := 5;\n",
        "3:19",
        "cannot assign value 5",
    ),
];

#[test]
fn malformed_models_give_located_errors_and_no_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (what, text, line_col, phrase) in MALFORMED {
        let model = dir.path().join("bad.smv");
        std::fs::write(&model, text).expect("write model");
        let out = dir.path().join("out.aag");
        let o = hypermut(&[
            "aiger",
            model.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{what}: accepted");
        assert_eq!(
            o.status.code(),
            Some(1),
            "{what}: exit status (a panic exits with 101)\n{err}"
        );
        assert!(
            err.contains(&format!("bad.smv:{line_col}: error: ")),
            "{what}: expected {line_col}:\n{err}"
        );
        assert!(err.contains(phrase), "{what}: expected `{phrase}`:\n{err}");
        assert!(err.contains('^'), "{what}: no caret:\n{err}");
        assert!(!out.exists(), "{what}: a partial output file was written");
    }
}

#[test]
fn other_bad_invocations_fail_cleanly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("p.aig");
    let out_s = out.to_str().expect("utf-8");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["aiger", "no/such/model.smv"], "cannot read"),
        (
            vec![
                "product",
                "models/smv/beverage.smv",
                "--mutant",
                "9999",
                "-o",
                out_s,
            ],
            "no mutant with id 9999",
        ),
        (vec!["aiger", "Cargo.toml"], "unsupported model type"),
    ];
    for (args, phrase) in cases {
        let o = hypermut(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}:\n{err}");
        assert!(
            err.contains(phrase),
            "{args:?}: expected `{phrase}`:\n{err}"
        );
        assert!(!out.exists());
    }
    // The operating system's reason is said once, after the path.
    for model in ["no/such/model.smv", "no/such/design.v"] {
        let o = hypermut(&["mutants", model]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.starts_with(&format!("error: {model}: cannot read")),
            "{err}"
        );
        assert_eq!(err.matches("(os error").count(), 1, "{err}");
    }
}
