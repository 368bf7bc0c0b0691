use std::collections::HashMap;

use hypermut_ir::{BinOp, ChoiceId, ExprKind, Frame, Interpreter, Role, Type, Value, VarId};

use super::{node_with_text, ok, BEVERAGE};

#[test]
fn beverage_elaborates_with_one_input_one_output_one_choice() {
    let sys = ok(BEVERAGE);
    assert_eq!(sys.name, "main");
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["inp", "wtr", "out"]);
    let roles: Vec<Role> = sys.vars.iter().map(|v| v.role).collect();
    assert_eq!(roles, [Role::Input, Role::State, Role::State]);
    assert_eq!(sys.vars[1].ty, Type::Int { lo: 0, hi: 2 });
    let outs: Vec<&str> = sys.outputs.iter().map(|o| o.name.as_str()).collect();
    // The model's `-- @output out` pragma: the water level is internal.
    assert_eq!(outs, ["out"]);
    assert_eq!(sys.choices.len(), 1);
    assert_eq!(sys.choices[0].arity, 2);
    let site = sys.choices[0].span.expect("choice has a span");
    assert_eq!(sys.sources.snippet(site), "{coff, tea}");
    // Two distinct value lists, both containing `none`.
    assert_eq!(sys.enums.len(), 2);
    assert_eq!(sys.enums[0].values, ["none", "req", "fill"]);
    assert_eq!(sys.enums[1].values, ["none", "coff", "tea"]);
    assert!(sys.constraints.is_empty());
}

#[test]
fn beverage_nodes_carry_their_source_text() {
    let sys = ok(BEVERAGE);
    let gt = node_with_text(&sys, "wtr > 0");
    assert!(matches!(
        sys.exprs.node(gt).kind,
        ExprKind::Binary(BinOp::Gt, _, _)
    ));
    let and = node_with_text(&sys, "inp = req & wtr > 0");
    assert!(matches!(
        sys.exprs.node(and).kind,
        ExprKind::Binary(BinOp::And, _, _)
    ));
    let dec = node_with_text(&sys, "wtr - 1");
    assert!(matches!(
        sys.exprs.node(dec).kind,
        ExprKind::Binary(BinOp::Sub, _, _)
    ));
    // `none` resolves by context: the default branch of next(out) is out's `none`.
    let out_enum = sys.vars[2].ty;
    let next_out = sys.vars[2].next.expect("next(out)");
    let ExprKind::Ite(_, _, default) = sys.exprs.node(next_out).kind else {
        panic!("next(out) is not an ite")
    };
    assert_eq!(sys.ty(default), out_enum);
    assert_eq!(
        sys.exprs.node(default).kind,
        ExprKind::Const(Value::Enum(0))
    );
    assert_eq!(sys.source_text(default), Some("none"));
    // The whole case spans `case … esac`.
    let text = sys.source_text(next_out).unwrap_or("");
    assert!(text.starts_with("case") && text.ends_with("esac"), "{text}");
    // init(out) := none is also out's `none`.
    let init_out = sys.vars[2].init.expect("init(out)");
    assert_eq!(sys.ty(init_out), out_enum);
    // Every node reachable from init/next functions has a span.
    let roots: Vec<_> = sys
        .vars
        .iter()
        .flat_map(|v| v.init.into_iter().chain(v.next))
        .collect();
    for id in sys.exprs.cone(roots) {
        assert!(sys.exprs.node(id).span.is_some(), "node {id:?} has no span");
    }
}

/// Frames 0–4 with inputs req, req, fill, req, req and choice 0 (coffee), derived by hand:
/// s0 = (wtr 2, out none); req with water → (1, coff); req → (0, coff); fill with an empty
/// tank → (2, none); req → (1, coff).
#[test]
fn beverage_run_matches_hand_derivation() {
    let sys = ok(BEVERAGE);
    let inp = VarId(0);
    let (req, fill) = (Value::Enum(1), Value::Enum(2));
    let frames: Vec<Frame> = [&req, &req, &fill, &req, &req]
        .into_iter()
        .map(|i| Frame {
            inputs: HashMap::from([(inp, i.clone())]),
            choices: HashMap::from([(ChoiceId(0), 0)]),
            free_next: HashMap::new(),
        })
        .collect();
    let trace = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let (none, coff) = (Value::Enum(0), Value::Enum(1));
    let out: Vec<Value> = trace.outputs.iter().map(|o| o[0].clone()).collect();
    assert_eq!(out, [none.clone(), coff.clone(), coff.clone(), none, coff]);
    let wtr: Vec<Value> = trace
        .states
        .iter()
        .map(|s| s[1].clone().expect("wtr has a value"))
        .collect();
    assert_eq!(wtr, [2, 1, 0, 2, 1].map(Value::Int));
    assert!(trace.constraints_ok.iter().all(|ok| *ok));
}

#[test]
fn beverage_choice_index_selects_tea() {
    let sys = ok(BEVERAGE);
    let frames = vec![
        Frame {
            inputs: HashMap::from([(VarId(0), Value::Enum(1))]),
            choices: HashMap::from([(ChoiceId(0), 1)]),
            free_next: HashMap::new(),
        };
        2
    ];
    let trace = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(trace.outputs[1][0], Value::Enum(2), "tea is option 1");
}
