//! Elaboration semantics beyond the golden models.

use std::collections::HashMap;

use hypermut_ir::{
    BinOp, ConstraintKind, ExprKind, Frame, Interpreter, Role, Type, UnOp, Value, VarId,
};

use super::{node_with_text, ok, parse};

#[test]
fn identical_enumerations_share_one_ir_enum() {
    let sys = ok("MODULE main\nVAR a : {p, q}; b : {p, q}; c : {q, p};\nINVAR a = b\n");
    assert_eq!(sys.enums.len(), 2);
    assert_eq!(sys.vars[0].ty, sys.vars[1].ty);
    assert_ne!(sys.vars[0].ty, sys.vars[2].ty);
    assert_eq!(sys.enums[0].name, "a");
}

#[test]
fn ambiguous_constants_take_the_type_of_their_context() {
    let sys = ok("MODULE main\n\
         VAR a : {idle, run}; b : {stop, idle};\n\
         INVAR idle = b\n\
         INVAR a = idle\n\
         ASSIGN next(b) := case a = run : {stop, idle}; TRUE : idle; esac;\n\
                init(a) := case b = idle : idle; TRUE : run; esac;\n");
    let (ta, tb) = (sys.vars[0].ty, sys.vars[1].ty);
    let c0 = sys.constraints[0].expr;
    let ExprKind::Binary(BinOp::Eq, l, _) = sys.exprs.node(c0).kind else {
        panic!("not =")
    };
    assert_eq!(sys.ty(l), tb, "`idle = b` uses b's idle");
    let c1 = sys.constraints[1].expr;
    let ExprKind::Binary(BinOp::Eq, _, r) = sys.exprs.node(c1).kind else {
        panic!("not =")
    };
    assert_eq!(sys.ty(r), ta, "`a = idle` uses a's idle");
    assert_eq!(sys.vars[1].next.map(|e| sys.ty(e)), Some(tb));
    assert_eq!(sys.vars[0].init.map(|e| sys.ty(e)), Some(ta));
}

#[test]
fn case_is_nested_ite_with_the_last_branch_as_default() {
    let sys = ok(
        "MODULE main\nIVAR a : boolean; b : boolean;\nVAR x : 0..3;\n\
                  ASSIGN next(x) := case a : 1; !a : 2; esac;\n",
    );
    let next = sys.vars[2].next.expect("next(x)");
    let ExprKind::Ite(c, t, e) = sys.exprs.node(next).kind else {
        panic!("not an ite")
    };
    assert_eq!(sys.source_text(c), Some("a"));
    assert_eq!(sys.source_text(t), Some("1"));
    assert_eq!(
        sys.source_text(e),
        Some("2"),
        "the last branch is the default"
    );
    assert_eq!(sys.source_text(next), Some("case a : 1; !a : 2; esac"));
    assert_eq!(sys.ty(next), Type::Int { lo: 1, hi: 2 });
    // Three branches: the inner ite spans from the second guard to the last value.
    let sys = ok(
        "MODULE main\nIVAR a : boolean; b : boolean;\nVAR x : 0..3;\n\
                  ASSIGN next(x) := case a : 1; b : 2; TRUE : 3; esac;\n",
    );
    let next = sys.vars[2].next.expect("next(x)");
    let ExprKind::Ite(_, _, inner) = sys.exprs.node(next).kind else {
        panic!("not an ite")
    };
    assert_eq!(sys.source_text(inner), Some("b : 2; TRUE : 3"));
}

#[test]
fn every_set_occurrence_is_a_choice_site_and_defines_expand_per_use() {
    let sys = ok(
        "MODULE main\nVAR x : 0..3; y : 0..3;\nDEFINE pick := {1, 2};\n\
                  ASSIGN next(x) := {0, 3};\n next(y) := {0, 3};\n\
                  init(x) := pick; init(y) := pick;\n",
    );
    assert_eq!(sys.choices.len(), 4);
    let texts: Vec<&str> = sys
        .choices
        .iter()
        .map(|c| {
            sys.sources.snippet(c.span.unwrap_or(hypermut_ir::Span::new(
                hypermut_ir::FileId(0),
                0,
                0,
            )))
        })
        .collect();
    assert_eq!(texts, ["{0, 3}", "{0, 3}", "{1, 2}", "{1, 2}"]);
    assert_ne!(sys.vars[0].init, sys.vars[1].init);
    // A singleton set is its element; a DEFINE without sets is shared.
    let sys = ok(
        "MODULE main\nVAR x : 0..3; y : 0..3;\nDEFINE two := 1 + 1;\n\
                  ASSIGN init(x) := {two}; init(y) := two;\n",
    );
    assert!(sys.choices.is_empty());
    assert_eq!(sys.vars[0].init, sys.vars[1].init);
    assert_eq!(
        sys.vars[0].init.and_then(|e| sys.source_text(e)),
        Some("1 + 1")
    );
}

#[test]
fn constraints_and_next() {
    let sys = ok("MODULE main\nVAR x : -2..2; y : boolean;\n\
                  INIT x = -2;\nINVAR x <= 1;\nTRANS next(x) = x + 1 | next(y) = !y;\n\
                  LTLSPEC G (y -> F y)\nPSLSPEC {x[*]} |-> y @ ;\nFAIRNESS y\n");
    assert_eq!(sys.vars[0].ty, Type::Int { lo: -2, hi: 2 });
    let kinds: Vec<ConstraintKind> = sys.constraints.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            ConstraintKind::Init,
            ConstraintKind::Invariant,
            ConstraintKind::Trans
        ]
    );
    let nx = node_with_text(&sys, "next(x)");
    assert_eq!(sys.exprs.node(nx).kind, ExprKind::Next(VarId(0)));
    let minus2 = node_with_text(&sys, "-2");
    assert_eq!(sys.exprs.node(minus2).kind, ExprKind::Const(Value::Int(-2)));
    assert_eq!(roles(&sys), [Role::State, Role::State]);
    assert_eq!(
        sys.constraints[2].span.map(|s| sys.sources.snippet(s)),
        Some("next(x) = x + 1 | next(y) = !y")
    );
    let not = node_with_text(&sys, "!y");
    assert!(matches!(
        sys.exprs.node(not).kind,
        ExprKind::Unary(UnOp::Not, _)
    ));
}

fn roles(sys: &hypermut_ir::System) -> Vec<Role> {
    sys.vars.iter().map(|v| v.role).collect()
}

#[test]
fn next_of_an_expression_distributes_over_variables() {
    let sys = ok("MODULE main\nVAR x : 0..3; y : 0..3;\nDEFINE s := x + y;\nTRANS next(s) = 0\n");
    let sum = node_with_text(&sys, "x + y");
    let ExprKind::Binary(BinOp::Add, a, b) = sys.exprs.node(sum).kind else {
        panic!("not +")
    };
    assert_eq!(sys.exprs.node(a).kind, ExprKind::Next(VarId(0)));
    assert_eq!(sys.exprs.node(b).kind, ExprKind::Next(VarId(1)));
    assert_eq!(roles(&sys), [Role::State, Role::State]);
}

#[test]
fn operators_evaluate_like_nusmv() {
    // Each DEFINE is an output; the interpreter evaluates them in the initial state.
    let sys = ok("-- @output a, b, c, d, e, f, g, h, i\n\
         MODULE main\nVAR x : -7..7; p : boolean; q : boolean;\n\
         ASSIGN init(x) := -7; init(p) := TRUE; init(q) := FALSE;\n\
         DEFINE a := x / 2; b := x mod 3; c := -x * 2 - 1; d := p xor q;\n\
                e := p xnor q; f := q -> p -> q; g := p <-> !q; h := (x < 0 ? 1 : 2);\n\
                i := 7 - 2 - 1;\n");
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &[Frame::default()])
        .unwrap_or_else(|e| panic!("{e}"));
    let b = Value::Bool;
    assert_eq!(
        t.outputs[0],
        [
            Value::Int(-3), // truncating division
            Value::Int(-1), // remainder has the dividend's sign
            Value::Int(13), // (-x)*2 - 1
            b(true),
            b(false),
            b(true), // q -> (p -> q) with q false
            b(true),
            Value::Int(1),
            Value::Int(4), // left associative
        ]
    );
}

#[test]
fn frozen_variables_keep_their_value() {
    let sys = ok("MODULE main\nFROZENVAR f : 0..3;\nVAR x : 0..3;\n\
                  ASSIGN init(f) := 2; init(x) := 0; next(x) := f;\n");
    assert_eq!(roles(&sys), [Role::Frozen, Role::State]);
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &vec![Frame::default(); 3])
        .unwrap_or_else(|e| panic!("{e}"));
    let xs: Vec<Value> = t.outputs.iter().map(|o| o[1].clone()).collect();
    assert_eq!(xs, [0, 2, 2].map(Value::Int));
}

#[test]
fn range_bounds_may_name_constant_defines() {
    let sys = ok("MODULE main\nVAR c : lo..hi;\nDEFINE lo := -1; hi := 4;\n");
    assert_eq!(sys.vars[0].ty, Type::Int { lo: -1, hi: 4 });
    let sys = ok("MODULE main\nVAR c : 0..hi;\nDEFINE hi := 1 + 1;\n");
    assert_eq!(sys.vars[0].ty, Type::Int { lo: 0, hi: 2 });
    let err = parse("MODULE main\nVAR d : 0..3; c : 0..hi;\nDEFINE hi := d + 1;\n").unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a constant expression, found the variable `d`"),
        "{err}"
    );
}

#[test]
fn long_operator_chains_do_not_exhaust_the_stack() {
    let n = 50_000;
    let chain = vec!["x"; n].join(" & ");
    let sys = ok(&format!("MODULE main\nIVAR x : boolean;\nINVAR {chain}\n"));
    assert_eq!(sys.constraints.len(), 1);
    let sum = vec!["1"; 2000].join(" + ");
    let sys = ok(&format!("MODULE main\nVAR y : 0..3000;\nINIT y = {sum}\n"));
    assert_eq!(sys.constraints.len(), 1);
    // Deep DEFINE chains (as in ebmc's deep_define.smv) are fine too.
    let mut defs = String::from("d0 := x;\n");
    for k in 1..10_000 {
        defs.push_str(&format!("d{k} := !d{};\n", k - 1));
    }
    let sys = ok(&format!(
        "MODULE main\nIVAR x : boolean;\nDEFINE {defs}INVAR d9999\n"
    ));
    assert_eq!(sys.constraints.len(), 1);
}

#[test]
fn exponential_define_sharing_is_memoised() {
    // d_k uses d_{k-1} twice: without memoisation this would expand 2^40 times.
    let mut defs = String::from("d0 := x;\n");
    for k in 1..=40 {
        defs.push_str(&format!("d{k} := d{} & d{};\n", k - 1, k - 1));
    }
    let sys = ok(&format!(
        "MODULE main\nIVAR x : boolean;\nDEFINE {defs}INVAR d40\n"
    ));
    assert!(sys.exprs.len() < 200, "{} nodes", sys.exprs.len());
}

#[test]
fn absurdly_deep_define_chains_are_rejected_not_crashed() {
    let mut defs = String::from("d0 := x;\n");
    for k in 1..30_000 {
        defs.push_str(&format!("d{k} := !d{};\n", k - 1));
    }
    let err = parse(&format!(
        "MODULE main\nIVAR x : boolean;\nDEFINE {defs}INVAR d29999\n"
    ))
    .unwrap_err();
    assert!(
        err.message().contains("nested too deeply"),
        "{}",
        err.message()
    );
}
