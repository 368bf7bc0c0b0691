//! Malformed SMV models through the CLI (`hypermut aiger`): each gives a located error
//! (`file:line:col: error:` and a caret), exit status 1 (not a panic), and no output file.
//! The cases follow NuSMV 2.5.4's semantic checks (`docs/formats.md` §11.2) and the front-end's
//! own limits; the corpus' intentionally broken models are included when the corpus exists.
//! The `--inputs` / `--outputs` flags are checked end-to-end here too (their effect on the
//! AIGER interface, and wrong names failing without output).

mod common;

use std::path::Path;

use common::hypermut;

/// (what, model text, expected `line:col`, a phrase the message must contain)
const MALFORMED: &[(&str, &str, &str, &str)] = &[
    (
        "next in INVAR",
        "MODULE main\nVAR x : boolean;\nINVAR next(x)\n",
        "3:7",
        "unexpected 'next' operator",
    ),
    (
        "next in init",
        "MODULE main\nVAR x : boolean;\nASSIGN init(x) := next(x);\n",
        "3:19",
        "unexpected 'next' operator",
    ),
    (
        "nested next",
        "MODULE main\nVAR x : boolean;\nTRANS next(next(x))\n",
        "3:12",
        "unexpected 'next' operator",
    ),
    (
        "next assigned twice",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := x;\n next(x) := !x;\n",
        "4:2",
        "variable is assigned more than once: x",
    ),
    (
        "circular DEFINEs",
        "MODULE main\nDEFINE a := b;\n b := a;\n",
        "3:7",
        "recursively defined",
    ),
    (
        "circular invariant assignments",
        "MODULE main\nVAR x : boolean; y : boolean;\nASSIGN x := y;\n y := x;\n",
        "4:7",
        "recursively defined",
    ),
    (
        "non-exhaustive case",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := case x = 0 : 1; x = 1 : 2; esac;\n",
        "3:19",
        "case conditions are not exhaustive",
    ),
    (
        "constant out of range",
        "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 4;\n",
        "3:19",
        "cannot assign value 4 to variable x",
    ),
    (
        "assigning an IVAR",
        "MODULE main\nIVAR i : boolean;\nASSIGN next(i) := TRUE;\n",
        "3:8",
        "illegal assignment of next value to input variable \"i\"",
    ),
    (
        "undeclared identifier",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := y;\n",
        "3:19",
        "undefined identifier `y`",
    ),
    (
        "duplicate declaration",
        "MODULE main\nVAR x : boolean;\n x : 0..1;\n",
        "3:2",
        "duplicate declaration of `x`",
    ),
    (
        "type error",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := x + TRUE;\n",
        "3:19",
        "cannot be applied",
    ),
    (
        "symbolic enumeration compared with an integer",
        "MODULE main\nVAR a : {p, q}; b : 0..3;\nINVAR a = b\n",
        "3:7",
        "cannot be applied to {p, q} and 0..3",
    ),
    (
        "integer type",
        "MODULE main\nVAR n : integer;\n",
        "2:9",
        "infinite-state",
    ),
    (
        "real type",
        "MODULE main\nVAR r : real;\n",
        "2:9",
        "infinite-state",
    ),
    (
        "clock type",
        "MODULE main\nVAR c : clock;\n",
        "2:9",
        "infinite-state",
    ),
    (
        "missing esac",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := case x : FALSE; TRUE : x;\n",
        "4:1",
        "esac",
    ),
    (
        "unknown module",
        "MODULE main\nVAR s : nothing(1);\n",
        "2:9",
        "unknown type or module `nothing`",
    ),
    (
        "wrong parameter count",
        "MODULE m(a)\nMODULE main\nVAR s : m;\n",
        "3:9",
        "takes 1 parameter, found 0",
    ),
    (
        "recursive module",
        "MODULE m\nVAR s : m;\nMODULE main\nVAR s : m;\n",
        "2:9",
        "recursive instantiation",
    ),
    (
        "undeclared member of an instance",
        "MODULE m\nVAR y : boolean;\nMODULE main\nVAR s : m;\nINVAR s.z\n",
        "5:9",
        "not declared in the instance `s`",
    ),
    (
        "array index out of bounds",
        "MODULE main\nVAR a : array 0..2 of boolean;\nINVAR a[5]\n",
        "3:9",
        "out of bounds",
    ),
    (
        "word width not constant",
        "MODULE main\nVAR n : 1..3;\nVAR w : word[n];\n",
        "3:14",
        "expected a constant expression",
    ),
    (
        "word widths differ",
        "MODULE main\nVAR a : word[4]; b : word[8];\nINVAR a = b\n",
        "3:7",
        "cannot be applied",
    ),
    (
        "word constant too wide for its width",
        "MODULE main\nINVAR 0ud4_16 = 0ud4_0\n",
        "2:7",
        "does not fit in 4 bits",
    ),
    (
        "decimal word constant without width",
        "MODULE main\nINVAR 0d_5 = 0ud3_5\n",
        "2:7",
        "needs an explicit width",
    ),
    (
        "unterminated block comment",
        "MODULE main\n/-- never closed\nVAR x : boolean;\n",
        "2:1",
        "unterminated block comment",
    ),
    (
        "preprocessor directive",
        "#include \"x.smv\"\nMODULE main\n",
        "1:1",
        "preprocessor",
    ),
    (
        "next in a CTL specification",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := !x;\nSPEC AG (next(x) -> x) & x\n",
        "4:10",
        "unexpected 'next' operator",
    ),
    (
        "bad LTL syntax",
        "MODULE main\nVAR x : boolean;\nLTLSPEC G (x U)\n",
        "3:15",
        "expected an expression",
    ),
    (
        "frozen variable assigned next",
        "MODULE main\nFROZENVAR f : boolean;\nASSIGN next(f) := TRUE;\n",
        "3:8",
        "frozen variable",
    ),
    (
        "ISA of an unknown module",
        "MODULE main\nISA base\n",
        "2:5",
        "unknown module `base`",
    ),
    (
        "no main module",
        "MODULE other\nVAR x : boolean;\n",
        "3:1",
        "no `MODULE main` found",
    ),
    (
        "unknown function",
        "MODULE main\nVAR x : 0..3;\nINVAR sqrt(x) = 1\n",
        "3:7",
        "unknown function `sqrt`",
    ),
];

/// Runs `hypermut aiger model -o out` and checks a located failure without output.
fn assert_located_failure(
    what: &str,
    model: &Path,
    file: &str,
    line_col: Option<&str>,
    phrase: &str,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.aag");
    let o = hypermut(&[
        "aiger",
        model.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{what}: exit status (a panic exits with 101)\n{err}"
    );
    match line_col {
        Some(lc) => assert!(
            err.contains(&format!("{file}:{lc}: error: ")),
            "{what}: expected {file}:{lc}:\n{err}"
        ),
        None => assert!(
            err.contains(&format!("{file}:")) && err.contains(": error: "),
            "{what}: not located:\n{err}"
        ),
    }
    assert!(err.contains(phrase), "{what}: expected `{phrase}`:\n{err}");
    assert!(err.contains('^'), "{what}: no caret:\n{err}");
    assert!(!out.exists(), "{what}: an output file was written");
}

#[test]
fn malformed_smv_models_fail_with_located_errors_and_no_output() {
    assert!(MALFORMED.len() >= 30);
    let dir = tempfile::tempdir().expect("temp dir");
    for (what, text, line_col, phrase) in MALFORMED {
        let model = dir.path().join("bad.smv");
        std::fs::write(&model, text).expect("write model");
        assert_located_failure(what, &model, "bad.smv", Some(line_col), phrase);
    }
}

#[test]
fn the_corpus_intentionally_broken_models_are_rejected() {
    let Some(dir) = hypermut_testkit::corpus::dir("smv/pynusmv/src/tests/pynusmv/models") else {
        return;
    };
    assert_located_failure(
        "counter-syntax-error.smv",
        &dir.join("counter-syntax-error.smv"),
        "counter-syntax-error.smv",
        Some("19:30"),
        "expected an expression",
    );
    // NuSMV 2.5.4: "illegal operand types of "=" : symbolic-enum and integer" (line 19).
    assert_located_failure(
        "counter-semantics-error.smv",
        &dir.join("counter-semantics-error.smv"),
        "counter-semantics-error.smv",
        Some("19:22"),
        "cannot be applied to {rc1, rc2} and 0..3",
    );
}

/// A model for the `--inputs` / `--outputs` flags: `a` and `c` are free (inputs by default),
/// `b` is a register fed by `a`, `both` a DEFINE.
const IO_MODEL: &str = "MODULE main\n\
VAR a : boolean; b : boolean; c : 0..3;\n\
ASSIGN init(b) := FALSE; next(b) := a;\n\
DEFINE both := a & b;\n";

/// `hypermut aiger` with `--inputs`/`--outputs`: the AIGER file has the named inputs and
/// exactly the named outputs, in the given order, and they behave as the model says.
#[test]
fn inputs_and_outputs_flags_shape_the_aiger_interface() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("io.smv");
    std::fs::write(&model, IO_MODEL).expect("write model");
    let out = dir.path().join("io.aag");
    let (m, o) = (model.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    common::hypermut_ok(&["aiger", m, "--inputs", "a", "--outputs", "both,b", "-o", o]);
    let aig = hypermut_aig::read_aiger(&std::fs::read(&out).expect("output"), o).expect("reads");
    let inputs: Vec<&str> = aig.inputs.iter().map(|i| i.name.as_str()).collect();
    let outputs: Vec<&str> = aig.outputs.iter().map(|x| x.name.as_str()).collect();
    assert!(inputs.contains(&"a"), "inputs {inputs:?}");
    assert_eq!(outputs, ["both", "b"]);
    assert_eq!(aig.latches.len(), 1, "only b is a register");
    // a = 1 in every frame: b is 0, then 1; `both` = a & b follows one frame later.
    let a = inputs.iter().position(|n| *n == "a").expect("input a");
    let vector: Vec<Option<bool>> = (0..inputs.len()).map(|k| Some(k == a)).collect();
    let t = hypermut_aig::simulate(&aig, &[], &[vector.clone(), vector]);
    let seen: Vec<Vec<bool>> = t.frames.iter().map(|f| f.outputs.clone()).collect();
    assert_eq!(seen, [vec![false, false], vec![true, true]]);

    // Without the flags, every state variable is an output (b) and `a`, `c` are inputs.
    common::hypermut_ok(&["aiger", m, "-o", o]);
    let aig = hypermut_aig::read_aiger(&std::fs::read(&out).expect("output"), o).expect("reads");
    let outputs: Vec<&str> = aig.outputs.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(outputs, ["b"]);
}

/// Wrong `--inputs` / `--outputs` names: exit status 1, a message naming the flag and the
/// problem, no output file.
#[test]
fn wrong_inputs_and_outputs_flags_fail_without_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("io.smv");
    std::fs::write(&model, IO_MODEL).expect("write model");
    let cases: &[(&str, &str, &str)] = &[
        ("--inputs", "nosuch", "--inputs: unknown name `nosuch`"),
        ("--outputs", "a,nosuch", "--outputs: unknown name `nosuch`"),
        (
            "--inputs",
            "b",
            "variable `b` is assigned and cannot be an input",
        ),
        (
            "--inputs",
            "both",
            "`both` is a DEFINE; only variables can be inputs",
        ),
    ];
    for (flag, names, phrase) in cases {
        let out = dir.path().join("out.aag");
        let o = hypermut(&[
            "aiger",
            model.to_str().expect("utf-8"),
            flag,
            names,
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{flag} {names}: {err}");
        assert!(
            err.contains(phrase),
            "{flag} {names}: expected `{phrase}`:\n{err}"
        );
        assert!(!out.exists(), "{flag} {names}: an output file was written");
    }
}
