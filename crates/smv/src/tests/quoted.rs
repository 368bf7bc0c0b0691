//! Quoted identifiers (`"a.b" : boolean;`): NuSMV's lexer reads any text between double
//! quotes as an identifier whose name keeps the quotes.

use std::collections::HashMap;

use hypermut_ir::{Frame, Interpreter, Role, Value};

use super::{ok, parse};

/// Every kind of name quoted: module, parameter use, variables with `.`, `[`, `]`, ` ` and
/// `-` in them, a keyword, enumeration constants, a DEFINE and the pragma naming outputs.
const MODEL: &str = r#"MODULE "cell"(en)
VAR "v" : boolean;
ASSIGN init("v") := FALSE; next("v") := en ? !"v" : "v";

MODULE main
IVAR "go.now" : boolean;
VAR "clock" : boolean;
    "a.b" : 0..3;
    "x[1]" : {"idle", "busy-1"};
    "c" : "cell"("clock");
    "next" : boolean;
ASSIGN
  init("clock") := FALSE;
  next("clock") := !"clock";
  init("a.b") := 0;
  next("a.b") := "clock" & "go.now" ? ("a.b" + 1) mod 4 : "a.b";
  init("x[1]") := "idle";
  next("x[1]") := case "x[1]" = "idle" : "busy-1"; TRUE : "idle"; esac;
  init("next") := TRUE;
  next("next") := "next" & "go.now";
DEFINE "out put" := "a.b" = 2;
-- @output "a.b", "out put", "c"."v", "x[1]", "next"
"#;

#[test]
fn quoted_names_keep_their_quotes_and_behave_like_any_name() {
    let sys = ok(MODEL);
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            r#""go.now""#,
            r#""clock""#,
            r#""a.b""#,
            r#""x[1]""#,
            r#""c"."v""#,
            r#""next""#
        ]
    );
    let outputs: Vec<&str> = sys.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        outputs,
        [
            r#""a.b""#,
            r#""out put""#,
            r#""c"."v""#,
            r#""x[1]""#,
            r#""next""#
        ]
    );
    let go = sys.var_by_name(r#""go.now""#).expect("the input");
    assert_eq!(sys.var(go).role, Role::Input);
    let x1 = sys.var_by_name(r#""x[1]""#).expect("x[1]");
    let hypermut_ir::Type::Enum(e) = sys.var(x1).ty else {
        panic!("an enumeration")
    };
    assert_eq!(sys.enums[e.0 as usize].values, [r#""idle""#, r#""busy-1""#]);

    // Runs, against the same machine written out here.
    let gos = [true, true, true, false, true, true, true, true, false, true];
    let frames: Vec<Frame> = gos
        .iter()
        .map(|g| Frame {
            inputs: HashMap::from([(go, Value::Bool(*g))]),
            choices: HashMap::new(),
            free_next: HashMap::new(),
        })
        .collect();
    let trace = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut clock, mut ab, mut busy, mut v, mut next) = (false, 0i64, false, false, true);
    for (k, g) in gos.iter().enumerate() {
        assert_eq!(
            trace.outputs[k],
            [
                Value::Int(ab),
                Value::Bool(ab == 2),
                Value::Bool(v),
                Value::Enum(u32::from(busy)),
                Value::Bool(next),
            ],
            "frame {k}"
        );
        (clock, ab, busy, v, next) = (
            !clock,
            if clock && *g { (ab + 1) % 4 } else { ab },
            !busy,
            if clock { !v } else { v },
            next && *g,
        );
    }
}

#[test]
fn quoted_and_plain_names_differ() {
    let table = [
        // The quotes are part of the name.
        (
            "MODULE main\nVAR \"x\" : boolean;\nASSIGN next(x) := TRUE;\n",
            "undefined identifier `x`",
            "x",
        ),
        (
            "MODULE main\nVAR x : boolean;\nASSIGN next(\"x\") := TRUE;\n",
            "undefined identifier `\"x\"`",
            "\"x\"",
        ),
        // A quote that is never closed.
        (
            "MODULE main\nVAR \"clock : boolean;\n",
            "unterminated quoted identifier",
            "\"",
        ),
    ];
    for (text, message, caret) in table {
        let e = parse(text)
            .err()
            .unwrap_or_else(|| panic!("{text}: no error"));
        let d = e.diagnostic().unwrap_or_else(|| panic!("{text}: {e}"));
        assert!(d.message.contains(message), "{e}");
        let span = e.span().expect("located");
        assert_eq!(&text[span.start as usize..span.end as usize], caret, "{e}");
        let loc = d.location.expect("located");
        let line = text.lines().nth(loc.line - 1).expect("the line");
        assert!(
            e.to_string().contains(&format!("{} | {line}", loc.line)),
            "{e}"
        );
        assert!(e.to_string().contains('^'), "{e}");
    }
    // The two spellings declare two variables.
    let sys = ok("MODULE main\nVAR x : boolean; \"x\" : boolean;\nASSIGN next(x) := \"x\";\n");
    assert_eq!(sys.vars.len(), 2);
    assert_eq!(
        sys.source_text(sys.vars[0].next.expect("next")),
        Some("\"x\"")
    );
}

#[test]
fn a_quoted_name_may_hold_anything_but_a_quote() {
    // Empty, blanks, operators and a line break: NuSMV's `\"[^\"]*\"`.
    let sys =
        ok("MODULE main\nVAR \"\" : boolean; \"a := b;\" : boolean; \"two\nlines\" : boolean;\n");
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["\"\"", "\"a := b;\"", "\"two\nlines\""]);
}
