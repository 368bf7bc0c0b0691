//! Input/output partition: pragmas and defaults.

use std::collections::HashMap;

use hypermut_ir::{BinOp, ExprKind, Frame, Interpreter, Role, Value, VarId};

use super::{ok, parse, COUNTER};

fn roles(sys: &hypermut_ir::System) -> Vec<(&str, Role)> {
    sys.vars.iter().map(|v| (v.name.as_str(), v.role)).collect()
}

fn outputs(sys: &hypermut_ir::System) -> Vec<&str> {
    sys.outputs.iter().map(|o| o.name.as_str()).collect()
}

#[test]
fn counter_outputs_follow_the_pragma() {
    let sys = ok(COUNTER);
    assert_eq!(
        roles(&sys),
        [
            ("inc", Role::Input),
            ("reset", Role::Input),
            ("cnt", Role::State),
            ("parity", Role::State)
        ]
    );
    assert_eq!(outputs(&sys), ["cnt", "full"]);
    let full = sys.outputs[1].expr;
    assert!(matches!(
        sys.exprs.node(full).kind,
        ExprKind::Binary(BinOp::Eq, _, _)
    ));
    assert_eq!(sys.source_text(full), Some("cnt = 7"));
    assert!(sys.choices.is_empty());
}

/// Inputs (inc, reset) per frame and the expected cnt, derived by hand from the model:
/// inc counts up below 7, !inc counts down above 0, reset wins.
#[test]
fn counter_run_matches_hand_derivation() {
    let sys = ok(COUNTER);
    let (inc, reset) = (VarId(0), VarId(1));
    let stimulus = [
        (true, false),  // 0 → 1
        (true, false),  // 1 → 2
        (false, false), // 2 → 1
        (true, true),   // 1 → 0 (reset)
        (false, false), // 0 stays 0
        (true, false),
    ];
    let frames: Vec<Frame> = stimulus
        .iter()
        .map(|(i, r)| Frame {
            inputs: HashMap::from([(inc, Value::Bool(*i)), (reset, Value::Bool(*r))]),
            ..Frame::default()
        })
        .collect();
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let cnt: Vec<Value> = t.outputs.iter().map(|o| o[0].clone()).collect();
    assert_eq!(cnt, [0, 1, 2, 1, 0, 0].map(Value::Int));
    // parity toggles on every frame with inc & cnt < 7: frames 0, 1 and 3.
    let parity: Vec<Value> = t
        .states
        .iter()
        .map(|s| s[3].clone().unwrap_or(Value::Int(-1)))
        .collect();
    assert_eq!(
        parity,
        [false, true, false, false, true, true].map(Value::Bool)
    );
    // Saturation: eight increments reach 7 and stay; `full` holds from frame 7.
    let up = Frame {
        inputs: HashMap::from([(inc, Value::Bool(true)), (reset, Value::Bool(false))]),
        ..Frame::default()
    };
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &vec![up; 9])
        .unwrap_or_else(|e| panic!("{e}"));
    let cnt: Vec<Value> = t.outputs.iter().map(|o| o[0].clone()).collect();
    assert_eq!(cnt, [0, 1, 2, 3, 4, 5, 6, 7, 7].map(Value::Int));
    let full: Vec<Value> = t.outputs.iter().map(|o| o[1].clone()).collect();
    assert_eq!(
        full,
        [0, 1, 2, 3, 4, 5, 6, 7, 8].map(|k| Value::Bool(k >= 7))
    );
}

#[test]
fn default_partition() {
    let sys = ok("MODULE main\n\
         IVAR i : boolean;\n\
         VAR free : 0..3;        -- never assigned: an input\n\
             only_init : boolean; -- init only: state with a free next value\n\
             only_next : boolean; -- next only: state with a free initial value\n\
             by_trans : boolean;  -- read under next() in TRANS: state\n\
         FROZENVAR f : boolean;\n\
         ASSIGN init(only_init) := TRUE;\n\
                next(only_next) := !only_next;\n\
         TRANS next(by_trans) = !by_trans\n");
    assert_eq!(
        roles(&sys),
        [
            ("i", Role::Input),
            ("free", Role::Input),
            ("only_init", Role::State),
            ("only_next", Role::State),
            ("by_trans", Role::State),
            ("f", Role::Frozen)
        ]
    );
    assert_eq!(outputs(&sys), ["only_init", "only_next", "by_trans", "f"]);
    assert!(sys.vars[2].init.is_some() && sys.vars[2].next.is_none());
    assert!(sys.vars[3].init.is_none() && sys.vars[3].next.is_some());
    assert!(sys.vars[4].init.is_none() && sys.vars[4].next.is_none());
    assert_eq!(sys.vars[1].ty, hypermut_ir::Type::Int { lo: 0, hi: 3 });
}

#[test]
fn input_pragma_and_output_lists() {
    let sys = ok("-- @input x\n\
         MODULE main\n\
         VAR x : boolean; y : boolean;\n\
         DEFINE both := x & y;\n\
         ASSIGN next(y) := x;\n\
         -- @output both, y\n\
         --@output y\n");
    assert_eq!(roles(&sys), [("x", Role::Input), ("y", Role::State)]);
    assert_eq!(outputs(&sys), ["both", "y"]);
    assert_eq!(sys.source_text(sys.outputs[0].expr), Some("x & y"));
}

#[test]
fn pragma_errors_are_located_at_the_name() {
    let cases = [
        (
            "-- @output nope\nMODULE main\nVAR x : boolean;\n",
            "1:12",
            "unknown name `nope` in @output pragma",
        ),
        (
            "MODULE main\nVAR x : boolean;\n-- @input  zz\n",
            "3:12",
            "unknown name `zz` in @input pragma",
        ),
        (
            "MODULE main\nVAR x : boolean;\nASSIGN init(x) := TRUE;\n-- @input x\n",
            "4:11",
            "variable `x` is assigned and cannot be an input",
        ),
        (
            "MODULE main\nVAR x : boolean;\nDEFINE d := x;\n-- @input d\n",
            "4:11",
            "only variables can be inputs",
        ),
        (
            "MODULE main\nVAR x : boolean;\nTRANS next(x) = x\n-- @input x\n",
            "4:11",
            "read under next() and cannot be an input",
        ),
        (
            "MODULE main\nVAR x : boolean;\n-- @output\n",
            "3:4",
            "`@output` pragma without names",
        ),
    ];
    for (text, loc, phrase) in cases {
        let err = parse(text).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("t.smv:{loc}: error: ")),
            "{text}\n{err}"
        );
        assert!(err.contains(phrase), "{text}\n{err}");
    }
}

#[test]
fn output_define_with_next_is_rejected() {
    let err = parse("MODULE main\nVAR x : boolean;\nDEFINE d := next(x);\nASSIGN next(x) := !x;\n-- @output d\n")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("t.smv:3:13: error: unexpected 'next' operator"),
        "{err}"
    );
}

#[test]
fn observing_every_state_variable_by_default_is_warned_about() {
    use crate::{parse_smv_with, SmvOptions};
    use hypermut_ir::Severity;
    let model = "-- a comment\nMODULE main\nIVAR i : boolean;\nVAR a : boolean; b : 0..3;\n\
                 ASSIGN next(a) := i; next(b) := b;\nDEFINE d := a & i;\n";
    let warnings = |text: &str, options: &SmvOptions| -> Vec<String> {
        let l = parse_smv_with("t.smv", text, options).unwrap_or_else(|e| panic!("{e}"));
        l.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| d.headline())
            .collect()
    };
    // No pragma, no option: both state variables are the outputs, and the warning says so
    // at `MODULE main`.
    let sys = ok(model);
    assert_eq!(outputs(&sys), ["a", "b"]);
    let w = warnings(model, &SmvOptions::default());
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("t.smv:2:8: warning: no `-- @output` pragma")
            && w[0].contains("every state variable is observed")
            && w[0].ends_with("(2 variables)"),
        "{w:?}"
    );
    // Named outputs, by pragma or by option: no warning.
    assert!(warnings(&format!("{model}-- @output d\n"), &SmvOptions::default()).is_empty());
    let named = SmvOptions {
        outputs: Some(vec!["a".into()]),
        ..SmvOptions::default()
    };
    assert!(warnings(model, &named).is_empty());
    // Only inputs: no output at all, nothing is observed, and no warning here (the model
    // without outputs is reported by the caller).
    let only_inputs = "MODULE main\nIVAR i : boolean;\n";
    assert!(ok(only_inputs).outputs.is_empty());
    assert!(warnings(only_inputs, &SmvOptions::default()).is_empty());
}
