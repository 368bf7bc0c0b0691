//! Malformed models: each must be rejected with a located message.

use super::parse;

/// (what, model, expected `line:col`, key phrase of the message).
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "unknown identifier",
        "MODULE main\nVAR x : boolean;\nASSIGN init(x) := y;\n",
        "3:19",
        "undefined identifier `y`",
    ),
    (
        "type error x + TRUE",
        "MODULE main\nVAR x : 0..3;\n    b : boolean;\nASSIGN next(b) := x + TRUE = 2;\n",
        "4:19",
        "operator `+` cannot be applied to 0..3 and boolean",
    ),
    (
        "missing esac before a section",
        "MODULE main\nVAR x : boolean;\nASSIGN\n  next(x) := case\n    x : FALSE;\n    TRUE : TRUE;\nINVAR x\n",
        "7:1",
        "missing `esac`",
    ),
    (
        "missing esac before an assignment",
        "MODULE main\nVAR x : boolean;\nASSIGN\n  next(x) := case\n    x : FALSE;\n    TRUE : TRUE;\n  init(x) := TRUE;\n",
        "7:3",
        "missing `esac`: the `case` on line 4 is not closed",
    ),
    (
        "duplicate next assignment",
        "MODULE main\nVAR x : boolean;\nASSIGN\n  next(x) := TRUE;\n  next(x) := FALSE;\n",
        "5:3",
        "variable is assigned more than once: x",
    ),
    (
        "duplicate init assignment",
        "MODULE main\nVAR x : boolean;\nASSIGN\n  init(x) := TRUE;\n  init(x) := FALSE;\n",
        "5:3",
        "variable is assigned more than once: x",
    ),
    (
        "duplicate declaration",
        "MODULE main\nVAR x : boolean;\nIVAR x : boolean;\n",
        "3:6",
        "duplicate declaration of `x` (first declared on line 2)",
    ),
    (
        "assigning an IVAR",
        "MODULE main\nIVAR i : boolean;\nASSIGN next(i) := TRUE;\n",
        "3:8",
        "illegal assignment of next value to input variable \"i\"",
    ),
    (
        "next in INVAR",
        "MODULE main\nVAR x : boolean;\nINVAR next(x) = x\n",
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
        "nested next in TRANS",
        "MODULE main\nVAR x : boolean;\nTRANS next(next(x))\n",
        "3:12",
        "unexpected 'next' operator",
    ),
    (
        "next inside a DEFINE used in init",
        "MODULE main\nVAR x : boolean;\nDEFINE n := next(x);\nASSIGN init(x) := n;\n",
        "3:13",
        "unexpected 'next' operator",
    ),
    (
        "circular DEFINE",
        "MODULE main\nVAR x : boolean;\nDEFINE a := b;\n       b := a;\nASSIGN init(x) := a;\n",
        "4:13",
        "recursively defined: a",
    ),
    (
        "circular DEFINE never used",
        "MODULE main\nDEFINE a := b & TRUE;\n       b := !a;\n",
        "3:14",
        "recursively defined: a",
    ),
    (
        "unterminated set",
        "MODULE main\nVAR x : {a, b};\nASSIGN next(x) := {a, b;\n",
        "3:24",
        "unterminated set expression: expected `,` or `}`, found `;`",
    ),
    (
        "bad token @",
        "MODULE main\nVAR x : boolean;\nASSIGN init(x) := @;\n",
        "3:19",
        "unexpected character `@`",
    ),
    (
        "missing :=",
        "MODULE main\nVAR x : boolean;\nASSIGN init(x) TRUE;\n",
        "3:16",
        "expected `:=`, found `TRUE`",
    ),
    (
        "unknown type",
        "MODULE main\nVAR x : bool;\n",
        "2:9",
        "unknown type or module `bool`",
    ),
    (
        "range with lo > hi",
        "MODULE main\nVAR x : 3..1;\n",
        "2:9",
        "empty range 3..1",
    ),
    (
        "unknown section keyword",
        "MODULE main\nVARS x : boolean;\n",
        "2:1",
        "unknown section keyword `VARS`",
    ),
    (
        "unknown module",
        "MODULE sub\nVAR y : boolean;\nMODULE main\nVAR s : subb;\n",
        "4:9",
        "unknown type or module `subb`",
    ),
    (
        "invariant and next assignment",
        "MODULE main\nVAR x : boolean;\nASSIGN x := TRUE;\n next(x) := FALSE;\n",
        "4:2",
        "variable is assigned more than once: x",
    ),
    (
        "comparing a symbolic enumeration with an integer",
        "MODULE main\nVAR a : {p, q};\n    b : 0..3;\nINVAR a = b\n",
        "4:7",
        "operator `=` cannot be applied to {p, q} and 0..3",
    ),
    (
        "assignment type mismatch",
        "MODULE main\nVAR x : boolean;\nASSIGN init(x) := 2;\n",
        "3:19",
        "type mismatch in assignment to `x`: expected boolean, found 2..2",
    ),
    (
        "constant outside the range",
        "MODULE main\nVAR w : 0..2;\nASSIGN next(w) := case w > 0 : 5; TRUE : 0; esac;\n",
        "3:32",
        "cannot assign value 5 to variable w",
    ),
    (
        "non-boolean case condition",
        "MODULE main\nVAR w : 0..2;\nASSIGN next(w) := case w : 1; TRUE : 0; esac;\n",
        "3:24",
        "case condition must be boolean, found 0..2",
    ),
    (
        "next of an IVAR",
        "MODULE main\nIVAR i : boolean;\nVAR x : boolean;\nTRANS next(x) = next(i)\n",
        "4:17",
        "next() of input variable `i` is not allowed",
    ),
    (
        "assigning a FROZENVAR's next",
        "MODULE main\nFROZENVAR f : boolean;\nASSIGN next(f) := TRUE;\n",
        "3:8",
        "illegal assignment of next value to frozen variable \"f\"",
    ),
    (
        "no main module",
        "MODULE other\nVAR x : boolean;\n",
        "3:1",
        "no `MODULE main` found",
    ),
    (
        "integer literal too large",
        "MODULE main\nVAR x : 0..3;\nINVAR x < 99999999999999999999\n",
        "3:11",
        "integer constant `99999999999999999999` is out of range",
    ),
    (
        "non-boolean INVAR",
        "MODULE main\nVAR x : 0..3;\nINVAR x + 1\n",
        "3:7",
        "INVAR expression must be boolean, found 1..4",
    ),
    (
        "case branches of different types",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := case x = 0 : 1; TRUE : 0ud2_1; esac;\n",
        "3:42",
        "type mismatch between the branches of `case`: 1..1 and unsigned word[2]",
    ),
    (
        "undeclared DEFINE in an unused DEFINE",
        "MODULE main\nVAR x : boolean;\nDEFINE d := x & zz;\n",
        "3:17",
        "undefined identifier `zz`",
    ),
    (
        "parameter count",
        "MODULE m(a, b)\nMODULE main\nVAR s : m(TRUE);\n",
        "3:9",
        "module `m` takes 2 parameters, found 1",
    ),
    (
        "recursive module",
        "MODULE m\nVAR s : m;\nMODULE main\nVAR s : m;\n",
        "2:9",
        "recursive instantiation of module `m`",
    ),
    (
        "member of a non-instance",
        "MODULE main\nVAR x : boolean;\nINVAR x.y\n",
        "3:7",
        "the left-hand side is not a module instance",
    ),
    (
        "undeclared member",
        "MODULE m\nVAR y : boolean;\nMODULE main\nVAR s : m;\nINVAR s.z\n",
        "5:9",
        "`z` is not declared in the instance `s`",
    ),
    (
        "constant index out of bounds",
        "MODULE main\nVAR a : array 0..2 of boolean;\nINVAR a[3]\n",
        "3:9",
        "array index 3 is out of bounds 0..2",
    ),
    (
        "assignment to an array element with a variable index",
        "MODULE main\nVAR a : array 0..2 of boolean; i : 0..2;\nASSIGN next(a[i]) := TRUE;\n",
        "3:13",
        "need a constant index",
    ),
    (
        "infinite type",
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
        "word width not constant",
        "MODULE main\nVAR n : 1..3; w : word[n];\n",
        "2:24",
        "expected a constant expression, found the variable `n`",
    ),
    (
        "word width too large",
        "MODULE main\nVAR w : word[65];\n",
        "2:14",
        "word width 65 is not between 1 and 64",
    ),
    (
        "word operands of different widths",
        "MODULE main\nVAR a : word[4]; b : word[8];\nINVAR a = b\n",
        "3:7",
        "operator `=` cannot be applied to unsigned word[4] and unsigned word[8]",
    ),
    (
        "non-exhaustive case",
        "MODULE main\nVAR x : 0..3;\nASSIGN next(x) := case x = 0 : 1; x = 1 : 2; esac;\n",
        "3:19",
        "case conditions are not exhaustive",
    ),
    (
        "recursive invariant assignments",
        "MODULE main\nVAR x : boolean; y : boolean;\nASSIGN x := y;\n y := x;\n",
        "4:7",
        "recursively defined",
    ),
    (
        "next in a specification",
        "MODULE main\nVAR x : boolean;\nASSIGN next(x) := !x;\nSPEC AG (next(x) -> x) & x\n",
        "4:10",
        "unexpected 'next' operator",
    ),
    (
        "temporal operator outside a specification",
        "MODULE main\nVAR x : boolean;\nINVAR x U x\n",
        "3:9",
        "expected `;` or a section keyword, found `U`",
    ),
    (
        "duplicate enumeration value",
        "MODULE main\nVAR x : {a, b, a};\n",
        "2:16",
        "duplicate value `a` in enumeration",
    ),
    (
        "ISA of an unknown module",
        "MODULE main\nISA nothing\n",
        "2:5",
        "unknown module `nothing`",
    ),
    (
        "duplicate module",
        "MODULE m\nMODULE m\nMODULE main\n",
        "2:8",
        "duplicate module `m`",
    ),
    (
        "instance used as a value",
        "MODULE m\nVAR y : boolean;\nMODULE main\nVAR s : m;\nINVAR s\n",
        "5:7",
        "`s` is a module instance, not a value",
    ),
    (
        "word constant out of range",
        "MODULE main\nVAR w : word[2];\nASSIGN init(w) := uwconst(4, 2);\n",
        "3:19",
        "value 4 does not fit in a unsigned word of 2 bits",
    ),
    (
        "value outside a gapped integer enumeration",
        "MODULE main\nVAR x : {0, 2, 5};\nASSIGN init(x) := 1;\n",
        "3:19",
        "cannot assign value 1 to variable x",
    ),
    (
        "running outside processes",
        "MODULE main\nVAR x : boolean;\nINVAR running\n",
        "3:7",
        "undefined identifier `running`",
    ),
];

#[test]
fn malformed_models_are_rejected_with_located_messages() {
    assert!(CASES.len() >= 30);
    for (what, text, loc, phrase) in CASES {
        let err = match parse(text) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => e,
        };
        let shown = err.to_string();
        assert!(err.span().is_some(), "{what}: no span");
        assert!(
            shown.starts_with(&format!("t.smv:{loc}: error: ")),
            "{what}: wrong location, expected {loc}:\n{shown}"
        );
        assert!(
            shown.contains(phrase),
            "{what}: expected `{phrase}`:\n{shown}"
        );
        assert!(shown.contains('^'), "{what}: no caret:\n{shown}");
    }
}

#[test]
fn rendered_error_shows_the_line_and_a_caret_under_the_span() {
    let err = parse("MODULE main\nVAR x : 0..3;\nINVAR x + TRUE = 1\n").unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("3 | INVAR x + TRUE = 1\n"), "{shown}");
    // The caret underlines `x + TRUE` (8 characters) starting under `x`.
    assert!(shown.ends_with("  |       ^^^^^^^^"), "{shown}");
    assert_eq!(
        err.message(),
        "operator `+` cannot be applied to 0..3 and boolean"
    );
    // The same error as a typed diagnostic: it renders exactly as the error does.
    let d = err.diagnostic().expect("a located error has a diagnostic");
    assert_eq!(d.severity, hypermut_ir::Severity::Error);
    assert_eq!(d.to_string(), shown);
    assert_eq!(
        d.headline(),
        "t.smv:3:7: error: operator `+` cannot be applied to 0..3 and boolean"
    );
    let loc = d.location.expect("located");
    assert_eq!((loc.line, loc.column), (3, 7));
}

#[test]
fn io_errors_name_the_path_and_have_no_span() {
    let path = std::path::Path::new("/nonexistent/dir/model.smv");
    let err = crate::load_smv(path).unwrap_err();
    assert!(err.span().is_none());
    assert!(err.diagnostic().is_none());
    assert!(
        err.to_string()
            .starts_with("/nonexistent/dir/model.smv: cannot read model"),
        "{err}"
    );
}
