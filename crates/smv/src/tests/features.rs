//! The NuSMV language beyond one module: instances, arrays, processes, words, enumerations,
//! invariant assignments, properties, options. Behaviour is checked with the IR interpreter
//! against values derived by hand from NuSMV's semantics.

use std::collections::HashMap;

use hypermut_ir::{
    ConstraintKind, ExprKind, Frame, Interpreter, Role, Severity, System, Type, Value, VarId,
};

use super::{ok, parse};
use crate::{parse_smv_with, SmvError, SmvOptions};

fn var(sys: &System, name: &str) -> VarId {
    sys.var_by_name(name)
        .unwrap_or_else(|| panic!("no variable `{name}`"))
}

/// The smallest value of a type (booleans: FALSE, enumerations: the first value).
fn least(ty: Type) -> Value {
    match ty {
        Type::Bool => Value::Bool(false),
        Type::Int { lo, .. } => Value::Int(lo),
        Type::Enum(_) => Value::Enum(0),
        Type::BitVec { width, .. } => Value::bits(width, 0u32),
    }
}

/// Runs `frames` steps with every input at its least value and every choice site at its
/// first alternative, and returns the values of `name` per frame.
fn run_values(sys: &System, name: &str, frames: usize) -> Vec<Value> {
    let inputs: HashMap<VarId, Value> = sys
        .vars_with_role(Role::Input)
        .into_iter()
        .map(|v| (v, least(sys.var(v).ty)))
        .collect();
    let frame = Frame {
        inputs,
        choices: (0..sys.choices.len() as u32)
            .map(|c| (hypermut_ir::ChoiceId(c), 0))
            .collect(),
        ..Frame::default()
    };
    let t = Interpreter::new(sys)
        .run(&HashMap::new(), &vec![frame; frames])
        .unwrap_or_else(|e| panic!("{e}"));
    let v = var(sys, name);
    t.states
        .iter()
        .map(|s| s[v.0 as usize].clone().expect("a state value"))
        .collect()
}

/// The value of every property in the initial state (no inputs, no choices).
fn properties_at_start(sys: &System) -> Vec<(String, Value)> {
    let interp = Interpreter::new(sys);
    let state = interp
        .initial_state(&Frame::default(), &HashMap::new())
        .unwrap_or_else(|e| panic!("{e}"));
    sys.properties
        .iter()
        .map(|p| {
            let v = interp
                .eval(p.expr, &state, &Frame::default(), None)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            (p.name.clone(), v)
        })
        .collect()
}

#[test]
fn instances_flatten_with_hierarchical_names_and_parameters_by_reference() {
    let sys = ok("MODULE cell(inp, lim)\n\
         VAR v : 0..3;\n\
         ASSIGN init(v) := 0; next(v) := case inp & v < lim : v + 1; TRUE : v; esac;\n\
         DEFINE full := v = lim;\n\
         MODULE main\n\
         VAR go : boolean; a : cell(go, 2); b : cell(a.full, 3);\n\
         ASSIGN init(go) := TRUE; next(go) := go;\n");
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["go", "a.v", "b.v"]);
    // a counts to 2; b starts once a is full (a.full by reference), then counts to 3.
    let a: Vec<Value> = run_values(&sys, "a.v", 7);
    let b: Vec<Value> = run_values(&sys, "b.v", 7);
    assert_eq!(a, [0, 1, 2, 2, 2, 2, 2].map(Value::Int));
    assert_eq!(b, [0, 0, 0, 1, 2, 3, 3].map(Value::Int));
}

#[test]
fn self_out_parameters_and_defines_through_parameters() {
    // `above.tok := …` declares in the instance passed as `above` (syncarb5's idiom); a
    // DEFINE named like a parameter defines the caller's name (pci's "out parameters").
    let sys = ok("MODULE el(above, out)\n\
         VAR t : boolean;\n\
         ASSIGN init(t) := FALSE; next(t) := tok;\n\
         DEFINE above.tok := !t; out := t;\n\
         MODULE main\n\
         VAR e1 : el(e2, o1); e2 : el(self, o2);\n\
         DEFINE e1.tok := TRUE;\n");
    // e1 defines e2.tok := !e1.t; e2 defines main's tok := !e2.t; main defines e1.tok.
    let e1 = run_values(&sys, "e1.t", 3);
    let e2 = run_values(&sys, "e2.t", 3);
    let b = Value::Bool;
    assert_eq!(e1, [b(false), b(true), b(true)]); // next(e1.t) := e1.tok = TRUE
    assert_eq!(e2, [b(false), b(true), b(false)]); // next(e2.t) := e2.tok = !e1.t
    let sys = ok("MODULE m(o)\nDEFINE o := TRUE;\nMODULE main\nVAR s : m(flag);\nINVAR flag\n");
    assert_eq!(sys.constraints.len(), 1);
}

#[test]
fn arrays_constant_and_variable_indices() {
    let sys = ok("MODULE main\n\
         VAR a : array 1..3 of 0..7; i : 1..3; m : array 0..1 of array 0..1 of boolean;\n\
         ASSIGN init(a[1]) := 5; init(a[2]) := 6; init(a[3]) := 7;\n\
           next(a[1]) := a[1]; next(a[2]) := a[2]; next(a[3]) := a[3];\n\
           init(i) := 1; next(i) := case i < 3 : i + 1; TRUE : 1; esac;\n\
         DEFINE pick := a[i]; two := [10, 20];\n\
         INVARSPEC pick >= 5\nINVARSPEC two[1] = 20\nINVARSPEC m[1][0] | !m[1][0]\n");
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        ["a[1]", "a[2]", "a[3]", "i", "m[0][0]", "m[0][1]", "m[1][0]", "m[1][1]"]
    );
    // pick = a[i] follows i: 5, 6, 7, 5.
    let mut with_out = sys.clone();
    let pick = with_out.properties[0].expr;
    let ExprKind::Binary(_, lhs, _) = with_out.exprs.node(pick).kind else {
        panic!("not a comparison")
    };
    with_out.outputs = vec![hypermut_ir::Output {
        name: "pick".into(),
        expr: lhs,
    }];
    let frames = vec![
        Frame {
            inputs: (4..8).map(|k| (VarId(k), Value::Bool(false))).collect(),
            ..Frame::default()
        };
        4
    ];
    let t = Interpreter::new(&with_out)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let picks: Vec<Value> = t.outputs.iter().map(|o| o[0].clone()).collect();
    assert_eq!(picks, [5, 6, 7, 5].map(Value::Int));
    assert_eq!(sys.properties.len(), 3);
}

#[test]
fn arrays_of_instances_and_dynamic_member_access() {
    let sys = ok("MODULE node\nVAR on : boolean;\n\
         MODULE main\nVAR n : array 0..2 of node; k : 0..2;\n\
         ASSIGN init(n[0].on) := FALSE; init(n[1].on) := TRUE; init(n[2].on) := FALSE;\n\
           init(k) := 1; next(k) := k;\nINVARSPEC n[k].on\nINVARSPEC !n[k - 1].on\n");
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["n[0].on", "n[1].on", "n[2].on", "k"]);
    for (name, v) in properties_at_start(&sys) {
        assert_eq!(v, Value::Bool(true), "{name}");
    }
    let err = parse(
        "MODULE node\nVAR on : boolean;\nMODULE main\nVAR n : array 0..1 of node;\nINVAR n[0].x\n",
    )
    .unwrap_err();
    assert!(
        err.message()
            .contains("`x` is not declared in the instance `n[0]`"),
        "{err}"
    );
}

#[test]
fn processes_interleave_with_one_scheduler_choice() {
    let sys = ok("MODULE counter(en)\nVAR c : 0..3;\n\
         ASSIGN init(c) := 0; next(c) := (c + 1) mod 4;\nDEFINE r := running;\n\
         MODULE main\nVAR p : process counter(TRUE); q : process counter(TRUE); m : 0..3;\n\
         ASSIGN init(m) := 0; next(m) := 3;\n");
    // One choice site (the scheduler) over {main, p, q}.
    assert_eq!(sys.choices.len(), 1);
    assert_eq!(sys.choices[0].arity, 3);
    let sel = hypermut_ir::ChoiceId(0);
    let step = |k: u32| Frame {
        choices: HashMap::from([(sel, k)]),
        ..Frame::default()
    };
    // Schedule p, p, q, main: only the running process moves; main's assignment too.
    let frames = vec![step(1), step(1), step(2), step(0), step(0)];
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let col = |name: &str| -> Vec<Value> {
        let v = var(&sys, name);
        t.states
            .iter()
            .map(|s| s[v.0 as usize].clone().expect("value"))
            .collect()
    };
    assert_eq!(col("p.c"), [0, 1, 2, 2, 2].map(Value::Int));
    assert_eq!(col("q.c"), [0, 0, 0, 1, 1].map(Value::Int));
    assert_eq!(col("m"), [0, 0, 0, 0, 3].map(Value::Int));
    // Without processes there is no scheduler; `running` is then undefined.
    let err = parse("MODULE main\nVAR x : boolean;\nINVAR running\n").unwrap_err();
    assert!(err.message().contains("undefined identifier `running`"));
}

#[test]
fn shared_variables_assigned_by_several_processes() {
    // semaphore.smv's idiom: each process assigns the shared variable when it runs.
    let sys = ok("MODULE user(s, v)\nASSIGN next(s) := v;\n\
         MODULE main\nVAR s : 0..2; a : process user(s, 1); b : process user(s, 2);\n\
         ASSIGN init(s) := 0;\n");
    let sel = hypermut_ir::ChoiceId(0);
    let frames: Vec<Frame> = [2u32, 0, 1]
        .iter()
        .map(|k| Frame {
            choices: HashMap::from([(sel, *k)]),
            ..Frame::default()
        })
        .collect();
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let s: Vec<Value> = t.states.iter().map(|x| x[0].clone().expect("s")).collect();
    assert_eq!(s, [0, 2, 2].map(Value::Int));
}

#[test]
fn word_operators_follow_nusmv() {
    // Expected values from NuSMV 2.6's manual semantics (modulo 2^N, two's complement).
    let sys = ok("MODULE main\n\
        INVARSPEC uwconst(123, 8) * uwconst(3, 8) = uwconst(113, 8)\n\
        INVARSPEC swconst(123, 8) - swconst(-56, 8) = swconst(-77, 8)\n\
        INVARSPEC -uwconst(123, 8) = uwconst(133, 8)\n\
        INVARSPEC uwconst(123, 8) / uwconst(3, 8) = uwconst(41, 8)\n\
        INVARSPEC 0sb7_1011001[4:1] = 0ub4_1100\n\
        INVARSPEC (uwconst(123, 8) xnor uwconst(7, 8)) = uwconst(131, 8)\n\
        INVARSPEC (uwconst(123, 8) -> uwconst(7, 8)) = uwconst(135, 8)\n\
        INVARSPEC swconst(123, 8) :: uwconst(1, 8) = uwconst(31489, 16)\n\
        INVARSPEC extend(swconst(-1, 1), 7) = swconst(-1, 8)\n\
        INVARSPEC signed(uwconst(1, 1)) = swconst(-1, 1)\n\
        INVARSPEC uwconst(123, 8) << 2 = uwconst(236, 8)\n\
        INVARSPEC swconst(-128, 8) >> 1 = swconst(-64, 8)\n\
        INVARSPEC toint(swconst(-1, 8)) = -1\n\
        INVARSPEC word1(TRUE) = 0ub1_1 & bool(0ub1_1)\n\
        INVARSPEC resize(0sd8_100, 4) = 0sb4_0100 & resize(-0sd8_100, 4) = 0sb4_1100\n\
        INVARSPEC resize(0ud8_200, 4) = 0ud4_8 & resize(-0sd2_1, 6) = -0sd6_1\n\
        INVARSPEC sizeof(0ud12_0) = 12 & count(TRUE, FALSE, TRUE) = 2\n\
        INVARSPEC abs(-3) = 3 & max(2, 5) = 5 & min(2, 5) = 2\n\
        INVARSPEC 0ud8_5 < 0ud8_200 & 0sd8_5 > -0sd8_56\n");
    for (name, v) in properties_at_start(&sys) {
        assert_eq!(v, Value::Bool(true), "{name}");
    }
    assert_eq!(sys.properties.len(), 19);
}

#[test]
fn enumerations_integer_mixed_and_shared_constants() {
    let sys = ok("MODULE main\n\
         VAR g : {0, 2, 5}; m : {idle, 0, 1}; s : {a, b}; t : {b, c};\n\
         ASSIGN init(m) := idle; next(m) := case m = idle : 0; TRUE : idle; esac;\n\
         INVARSPEC s = t -> s = b\nINVARSPEC m != 1\n");
    assert_eq!(sys.vars[0].ty, Type::Int { lo: 0, hi: 5 });
    assert!(matches!(sys.vars[1].ty, Type::Enum(_)));
    // g can take any of its values: an invariant restricts it to {0, 2, 5}.
    let dom = sys
        .constraints
        .iter()
        .find(|c| c.kind == ConstraintKind::Invariant)
        .expect("domain constraint");
    let interp = Interpreter::new(&sys);
    for (g, holds) in [(0, true), (1, false), (2, true), (4, false), (5, true)] {
        let f = Frame {
            inputs: HashMap::from([
                (VarId(0), Value::Int(g)),
                (VarId(2), Value::Enum(0)),
                (VarId(3), Value::Enum(0)),
            ]),
            ..Frame::default()
        };
        let v = interp.eval(
            dom.expr,
            &[None, Some(Value::Enum(0)), None, None],
            &f,
            None,
        );
        assert_eq!(v, Ok(Value::Bool(holds)), "g = {g}");
    }
    let ms = run_values(&sys, "m", 3);
    let Type::Enum(e) = sys.vars[1].ty else {
        unreachable!()
    };
    let names: Vec<&str> = ms
        .iter()
        .map(|v| match v {
            Value::Enum(i) => sys.enums[e.0 as usize].values[*i as usize].as_str(),
            _ => "?",
        })
        .collect();
    assert_eq!(names, ["idle", "0", "idle"]);
}

#[test]
fn invariant_assignments_are_macros() {
    let sys = ok("MODULE main\nVAR x : 0..3; y : 0..4;\n\
         ASSIGN init(x) := 0; next(x) := (x + 1) mod 4; y := x + 1;\nINVARSPEC y > 0\n");
    // y is not a variable: it is x + 1 wherever it is read, and an output.
    assert!(sys.var_by_name("y").is_none());
    assert_eq!(
        sys.outputs
            .iter()
            .map(|o| o.name.as_str())
            .collect::<Vec<_>>(),
        ["x", "y"]
    );
    // Constants outside the range are rejected (values computed out of range are not).
    let err = parse(
        "MODULE main\nVAR x : 0..3; y : 0..3;\nASSIGN y := case x = 0 : 5; TRUE : x; esac;\n",
    )
    .unwrap_err();
    assert_eq!(err.message(), "cannot assign value 5 to variable y");
}

#[test]
fn next_on_the_right_of_next_assignments() {
    let sys = ok("MODULE main\nVAR x : 0..3; y : 0..3;\n\
         ASSIGN init(x) := 0; next(x) := (x + 1) mod 4; init(y) := 0; next(y) := next(x);\n");
    assert_eq!(run_values(&sys, "y", 4), [0, 1, 2, 3].map(Value::Int));
    // Reading a variable whose next value is free keeps the relation as a constraint.
    let sys = ok(
        "MODULE main\nVAR x : 0..3; y : 0..3;\nASSIGN next(y) := next(x);\nTRANS next(x) != x\n",
    );
    assert!(sys.vars[1].next.is_none());
    assert_eq!(
        sys.constraints
            .iter()
            .filter(|c| c.kind == ConstraintKind::Trans)
            .count(),
        2
    );
    let err = parse(
        "MODULE main\nVAR x : 0..3; y : 0..3;\nASSIGN next(x) := next(y); next(y) := next(x);\n",
    )
    .unwrap_err();
    assert!(err.message().contains("recursively defined"), "{err}");
}

#[test]
fn case_exhaustiveness_is_checked_in_context() {
    // Not exhaustive in isolation, but only read where the implication's premise holds.
    let sys = parse(
        "MODULE main\nVAR x : -1..2; y : boolean;\n\
         INVAR x != -1 -> (y = case x = 0 : TRUE; x = 1 : FALSE; x = 2 : TRUE; esac)\n",
    );
    assert!(sys.is_ok(), "{:?}", sys.err().map(|e| e.to_string()));
    let err = parse(
        "MODULE main\nVAR x : -1..2; y : boolean;\n\
         INVAR y = case x = 0 : TRUE; x = 1 : FALSE; x = 2 : TRUE; esac\n",
    )
    .unwrap_err();
    assert_eq!(err.message(), "case conditions are not exhaustive");
    // Exhaustive by structure over an arbitrary condition.
    ok("MODULE main\nVAR r : 0..1000; on : boolean;\n\
        ASSIGN next(on) := case r > 7 : FALSE; on & !(r > 7) : TRUE; !on & !(r > 7) : {FALSE, TRUE}; esac;\n");
}

#[test]
fn a_one_branch_case_in_context_is_checked_without_recursing_forever() {
    // A `case` with one branch elaborates to its value's node; the context check once
    // recursed into it forever (a mutant of pynusmv's dining-crypto.smv).
    let err = parse(
        "MODULE main\nVAR c : {h, t}; l : {h, t}; p : boolean;\nIVAR s : {eq, df};\n\
         TRANS s = case l = c : case !p : eq; esac; l != c : df; esac\n",
    )
    .unwrap_err();
    assert_eq!(err.message(), "case conditions are not exhaustive");
    // A one-branch outer `case` around an exhaustive inner one is still checked itself.
    let err = parse(
        "MODULE main\nVAR c : boolean; p : boolean;\nIVAR s : {eq, df};\n\
         TRANS s = case !c : case p : eq; !p : df; esac; esac\n",
    )
    .unwrap_err();
    assert_eq!(err.message(), "case conditions are not exhaustive");
    // Where the premise excludes the missing value, the same case is fine.
    ok(
        "MODULE main\nVAR c : {h, t}; l : {h, t}; p : boolean;\nIVAR s : {eq, df};\n\
        TRANS !p -> s = case l = c : case !p : eq; esac; l != c : df; esac\n",
    );
}

#[test]
fn properties_get_names_and_skipped_specifications_notes() {
    let loaded = parse_smv_with(
        "t.smv",
        "MODULE m\nVAR b : boolean;\nASSIGN init(b) := TRUE; next(b) := b;\nINVARSPEC b\n\
         MODULE main\nVAR x : boolean; s : m;\nASSIGN init(x) := FALSE; next(x) := !x;\n\
         INVARSPEC NAME safe := x | !x\nCTLSPEC AG (x -- a comment\n  | !x)\n\
         LTLSPEC G !(x & !x)\nCTLSPEC AG (x -> AF !x)\nLTLSPEC F x\nSPEC x\n",
        &SmvOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = loaded
        .system
        .properties
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["safe", "AG (x | !x)", "G !(x & !x)", "b IN s"]);
    assert_eq!(loaded.property_instances, ["", "", "", "s"]);
    let skipped: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("skipped"))
        .collect();
    assert_eq!(skipped.len(), 3, "{:?}", loaded.diagnostics);
    assert!(skipped.iter().all(|d| d.severity == Severity::Note));
    assert_eq!(
        skipped[0].headline(),
        "t.smv:12:1: note: CTLSPEC skipped: only INVARSPEC p, AG p and G p with a propositional \
         p are exported as safety properties"
    );
    assert_eq!(
        skipped[0].snippet.as_deref(),
        Some("   |\n12 | CTLSPEC AG (x -> AF !x)\n   | ^^^^^^^")
    );
}

#[test]
fn io_options_override_the_pragmas() {
    let text =
        "-- @output x\nMODULE main\nVAR x : boolean; a : array 0..1 of boolean; f : boolean;\n\
                ASSIGN init(x) := FALSE; next(x) := a[0];\nDEFINE d := !x;\n";
    let opts = SmvOptions {
        inputs: Some(vec!["f".into()]),
        outputs: Some(vec!["d".into(), "a".into()]),
        ..SmvOptions::default()
    };
    let l = parse_smv_with("t.smv", text, &opts).unwrap_or_else(|e| panic!("{e}"));
    let outs: Vec<&str> = l.system.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(outs, ["d", "a[0]", "a[1]"]);
    assert_eq!(l.system.var(var(&l.system, "f")).role, Role::Input);
    let bad = SmvOptions {
        outputs: Some(vec!["nope".into()]),
        ..SmvOptions::default()
    };
    let err = parse_smv_with("t.smv", text, &bad).unwrap_err();
    assert!(matches!(err, SmvError::Options { .. }));
    assert_eq!(err.to_string(), "--outputs: unknown name `nope`");
    let assigned = SmvOptions {
        inputs: Some(vec!["x".into()]),
        ..SmvOptions::default()
    };
    let err = parse_smv_with("t.smv", text, &assigned).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--inputs: variable `x` is assigned and cannot be an input"
    );
}

#[test]
fn lexical_corner_cases() {
    // Block comments, identifiers with `-`, `$`, `#`, cpp line markers, ISA.
    let sys = ok(
        "# 1 \"x.smv\"\nMODULE base\nVAR req-in : boolean; s$1 : boolean; h#2 : boolean;\n\
         /-- a block\n comment --/\nMODULE main\nISA base\nASSIGN init(req-in) := TRUE;\n",
    );
    let names: Vec<&str> = sys.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["req-in", "s$1", "h#2"]);
}

#[test]
fn old_nusmv_idioms_are_accepted_with_notes() {
    let l = parse_smv_with(
        "t.smv",
        "MODULE main\nVAR b : boolean; n : -1..2;\nASSIGN init(b) := 0; next(b) := case 1 : !b; esac;\n\
         INVAR !n = -1 | b = 1\n-- @output b\n",
        &SmvOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.diagnostics.len(), 2, "{:?}", l.diagnostics);
    let old = l.diagnostics.iter().find(|d| d.message.contains("-old"));
    assert_eq!(
        old.map(|d| (d.severity, d.headline().starts_with("t.smv:3:19: note: "))),
        Some((Severity::Note, true)),
        "{old:?}"
    );
    let prec = l
        .diagnostics
        .iter()
        .find(|d| d.message.contains("NuSMV 2.4"));
    assert_eq!(
        prec.map(|d| (d.severity, d.headline().starts_with("t.smv:4:7: warning: "))),
        Some((Severity::Warning, true)),
        "{prec:?}"
    );
    let b = run_values(&l.system, "b", 3);
    assert_eq!(b, [false, true, false].map(Value::Bool));
}

#[test]
fn sets_membership_union_and_ranges() {
    let sys = ok("MODULE main\nVAR x : 0..7; e : {a, b, c};\n\
         DEFINE small := {0, 1} union 2..3;\n\
         ASSIGN init(x) := 0; next(x) := case x in small : x + 1; TRUE : 0; esac;\n\
           init(e) := a; next(e) := case e in {a, b} : {b, c}; TRUE : a; esac;\n\
         INVARSPEC x in 0..4\n");
    assert_eq!(run_values(&sys, "x", 6), [0, 1, 2, 3, 4, 0].map(Value::Int));
    // Membership is not a choice; the set on the right of `next(e) :=` is one.
    assert_eq!(sys.choices.len(), 1);
    assert_eq!(sys.choices[0].arity, 2);
}

#[test]
fn every_source_node_spans_its_text() {
    // Relational operators and integer constants (the mutation sites) carry spans whose text
    // is the operator expression / the literal, through instances, arrays and DEFINEs.
    let sys = ok("MODULE cell(lim)\nVAR v : 0..7;\n\
         ASSIGN init(v) := 0; next(v) := case v < lim : v + 1; TRUE : 0; esac;\n\
         MODULE main\nVAR a : array 0..1 of 0..3; c : cell(5); i : 0..1;\n\
         DEFINE big := c.v >= 4;\n\
         ASSIGN next(a[0]) := a[i] mod 3; init(i) := 1;\nINVARSPEC !(big & a[1] = 2)\n");
    let mut rel = 0;
    let mut ints = 0;
    for id in sys.exprs.cone(sys.roots()) {
        let node = sys.exprs.node(id);
        let Some(text) = sys.source_text(id) else {
            continue;
        };
        match &node.kind {
            ExprKind::Binary(op, ..) if op.is_relational() => {
                assert!(text.contains(op.symbol()), "`{text}` for {op:?}");
                rel += 1;
            }
            ExprKind::Const(Value::Int(v)) => {
                assert_eq!(text, v.to_string());
                ints += 1;
            }
            _ => {}
        }
    }
    assert!(rel >= 3 && ints >= 6, "{rel} comparisons, {ints} constants");
}

#[test]
fn running_of_main_and_processes_in_submodules() {
    let sys = ok(
        "MODULE p\nVAR b : boolean;\nASSIGN init(b) := FALSE; next(b) := !b;\n\
         MODULE holder\nVAR inner : process p;\n\
         MODULE main\nVAR h : holder; q : process p; m : boolean;\n\
         ASSIGN init(m) := FALSE; next(m) := running;\n",
    );
    let sel = &sys.enums[sys.enums.len() - 1];
    assert_eq!(sel.name, "_process_selector_");
    assert_eq!(sel.values, ["main", "h.inner", "q"]);
    let frames: Vec<Frame> = [0u32, 1, 2]
        .iter()
        .map(|k| Frame {
            choices: HashMap::from([(hypermut_ir::ChoiceId(0), *k)]),
            ..Frame::default()
        })
        .collect();
    let t = Interpreter::new(&sys)
        .run(&HashMap::new(), &frames)
        .unwrap_or_else(|e| panic!("{e}"));
    let col = |name: &str| -> Vec<Value> {
        let v = var(&sys, name);
        t.states
            .iter()
            .map(|s| s[v.0 as usize].clone().expect("value"))
            .collect()
    };
    let b = Value::Bool;
    // main runs first (m := running = TRUE), then h.inner, then q.
    assert_eq!(col("m"), [b(false), b(true), b(true)]);
    assert_eq!(col("h.inner.b"), [b(false), b(false), b(true)]);
    assert_eq!(col("q.b"), [b(false), b(false), b(false)]);
}

#[test]
fn diagnostics_are_located_with_their_severity() {
    let l = parse_smv_with(
        "t.smv",
        "MODULE main\nVAR w : unsigned word[32]; b : boolean;\n\
         ASSIGN next(b) := case w = 0ud32_1 : TRUE; w != 0ud32_1 : FALSE; esac;\n\
         FAIRNESS b\nJUSTICE !b\n-- @output b\n",
        &SmvOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let shown: Vec<(Severity, String)> = l
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.headline()))
        .collect();
    assert_eq!(shown.len(), 3, "{shown:#?}");
    assert!(
        shown.contains(&(
            Severity::Note,
            "t.smv:4:1: note: FAIRNESS ignored (fairness does not affect safety properties)".into()
        )),
        "{shown:#?}"
    );
    assert!(
        shown.contains(&(
            Severity::Note,
            "t.smv:5:1: note: JUSTICE ignored (fairness does not affect safety properties)".into()
        )),
        "{shown:#?}"
    );
    assert!(
        shown.iter().any(|(s, h)| *s == Severity::Warning
            && h.starts_with("t.smv:3:19: warning: ")
            && h.contains("exhaustive")),
        "{shown:#?}"
    );
    let case = l
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning);
    assert!(
        case.is_some_and(|d| d.to_string().contains("\n3 | ASSIGN next(b) := case")),
        "{case:?}"
    );
}
