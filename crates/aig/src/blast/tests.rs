//! Tests of the bit-blaster: differential testing against the IR interpreter on random
//! systems, exhaustive operator tables, and unit tests of the encoding decisions.

use std::collections::HashMap;

use hypermut_ir::{
    BinOp, Constraint, ConstraintKind, ExprId, ExprKind, Frame, Interpreter, Output, Role, System,
    Type, UnOp, Value, VarId,
};
use proptest::prelude::*;

use super::interp_agreement::{
    compare_with_interpreter, eval_frame, initial_latches, lit_value, storage_bits,
};
use super::random_system::random_system;
use super::*;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("BLAST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000),
        max_global_rejects: 10_000,
        // No regression files: the crate directory is shared with other work.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random systems agree with the interpreter over several frames. `BLAST_CASES` and
    /// `BLAST_DEPTH` (expression depth, default 3) scale the search up for soak runs.
    #[test]
    fn blaster_agrees_with_interpreter(
        tape in proptest::collection::vec(any::<u32>(), 0..300),
        rand in proptest::collection::vec(any::<u64>(), 1..64),
    ) {
        let depth = std::env::var("BLAST_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
        let sys = random_system(tape, depth);
        match compare_with_interpreter(&sys, 4, &rand) {
            Ok(sound) => prop_assume!(sound),
            Err(e) => prop_assert!(false, "{e}\n{sys:#?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Exhaustive operator tables.

/// A system with inputs of the given types and one output `f(inputs)`.
fn one_output(
    tys: &[Type],
    f: impl FnOnce(&mut System, &[ExprId]) -> Result<ExprId, hypermut_ir::TypeError>,
) -> Option<System> {
    let mut s = System::new("op");
    let refs: Vec<ExprId> = tys
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let v = s.add_var(format!("x{i}"), *t, Role::Input, None);
            s.var_ref(v, None)
        })
        .collect();
    let e = f(&mut s, &refs).ok()?;
    s.outputs.push(Output {
        name: "y".into(),
        expr: e,
    });
    Some(s)
}

/// All values of a small type.
fn all_values(ty: Type) -> Vec<Value> {
    match ty {
        Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Type::BitVec { width, .. } => (0..1u32 << width).map(|v| Value::bits(width, v)).collect(),
        Type::Int { lo, hi } => (lo..=hi).map(Value::Int).collect(),
        Type::Enum(_) => vec![],
    }
}

/// Checks the single output of `sys` against the interpreter for every input combination.
fn exhaustive(sys: &System) {
    let b = blast(sys, &BlastOptions::default()).expect("blasts");
    let interp = Interpreter::new(sys);
    let domains: Vec<Vec<Value>> = b.inputs.iter().map(|vb| all_values(vb.ty)).collect();
    let mut idx = vec![0usize; domains.len()];
    loop {
        let frame = Frame {
            inputs: b
                .inputs
                .iter()
                .zip(&idx)
                .map(|(vb, i)| (vb.var, domains[vb.var.0 as usize][*i].clone()))
                .collect(),
            ..Frame::default()
        };
        let want = interp.outputs(&[], &frame).expect("interpreter evaluates")[0].clone();
        let mut ins = Vec::new();
        for vb in &b.inputs {
            ins.extend(storage_bits(&frame.inputs[&vb.var], vb.ty, vb.bits.len()));
        }
        let val = eval_frame(&b.aig, &[], &ins);
        let o = &b.outputs[0];
        let bits: Vec<bool> = o.bits.iter().map(|l| lit_value(&val, *l)).collect();
        assert_eq!(decode(o.ty, &bits, Repr::Expr), want, "{:?}", frame.inputs);
        // next combination
        let mut k = 0;
        loop {
            if k == idx.len() {
                return;
            }
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

fn operand_types() -> Vec<Type> {
    vec![
        Type::Bool,
        Type::ubv(3),
        Type::sbv(3),
        Type::ubv(1),
        Type::sbv(1),
        Type::Int { lo: -4, hi: 3 },
        Type::Int { lo: -3, hi: -1 },
        Type::Int { lo: 0, hi: 5 },
        Type::Int { lo: 2, hi: 2 },
    ]
}

/// Every binary operator on every pair of small operand types the IR accepts, over all
/// input values (includes division by zero, shifts by ≥ width and negative amounts,
/// mixed-range comparisons and concatenation).
#[test]
fn binary_operators_exhaustively() {
    use BinOp::*;
    let ops = [
        And, Or, Xor, Implies, Iff, Eq, Ne, Lt, Le, Gt, Ge, Add, Sub, Mul, Div, Mod, Shl, Shr,
        Concat,
    ];
    let mut checked = HashMap::new();
    for op in ops {
        for ta in operand_types() {
            for tb in operand_types() {
                let Some(sys) = one_output(&[ta, tb], |s, r| {
                    s.mk(ExprKind::Binary(op, r[0], r[1]), None)
                }) else {
                    continue;
                };
                exhaustive(&sys);
                *checked.entry(op.symbol()).or_insert(0) += 1;
            }
        }
    }
    // every operator was exercised on at least one type pair
    assert_eq!(checked.len(), ops.len(), "{checked:?}");
}

/// Unary operators, extraction and every kind of cast over all values of small types.
#[test]
fn unary_extract_and_casts_exhaustively() {
    let targets = [
        Type::Bool,
        Type::ubv(2),
        Type::sbv(2),
        Type::ubv(5),
        Type::sbv(5),
        Type::Int { lo: -8, hi: 8 },
        Type::Int { lo: -20, hi: 40 },
    ];
    let mut casts = 0;
    for ta in operand_types() {
        for op in [UnOp::Not, UnOp::Neg] {
            if let Some(sys) = one_output(&[ta], |s, r| s.mk(ExprKind::Unary(op, r[0]), None)) {
                exhaustive(&sys);
            }
        }
        for to in targets {
            // Casts to an integer range must not narrow below the operand's values.
            let narrowing = match (ta, to) {
                (Type::Int { lo, hi }, Type::Int { lo: l, hi: h }) => lo < l || hi > h,
                _ => false,
            };
            if narrowing {
                continue;
            }
            if let Some(sys) = one_output(&[ta], |s, r| s.mk(ExprKind::Cast(r[0], to), None)) {
                exhaustive(&sys);
                casts += 1;
            }
        }
        if let Type::BitVec { width, .. } = ta {
            for lo in 0..width {
                for hi in lo..width {
                    let sys = one_output(&[ta], |s, r| {
                        s.mk(ExprKind::Extract { arg: r[0], hi, lo }, None)
                    })
                    .expect("extract is well-typed");
                    exhaustive(&sys);
                }
            }
        }
    }
    assert!(casts > 30, "{casts}");
}

/// `ite` over integer branches of different ranges, and an enumeration comparison.
#[test]
fn ite_and_enums_exhaustively() {
    let sys = one_output(
        &[
            Type::Bool,
            Type::Int { lo: -3, hi: -1 },
            Type::Int { lo: 0, hi: 9 },
        ],
        |s, r| s.mk(ExprKind::Ite(r[0], r[1], r[2]), None),
    )
    .unwrap();
    exhaustive(&sys);
}

// ---------------------------------------------------------------------------------------
// Unit tests of the encoding.

fn latch<'a>(b: &'a Blasted, name: &str) -> &'a crate::graph::Latch {
    b.aig
        .latches
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no latch {name}"))
}

fn counter(init: Option<i64>) -> (System, VarId) {
    let mut s = System::new("c");
    let x = s.add_var("x", Type::Int { lo: -3, hi: 4 }, Role::State, None);
    let xr = s.var_ref(x, None);
    let one = s.int_const(1, None);
    let inc = s.mk(ExprKind::Binary(BinOp::Add, xr, one), None).unwrap();
    let lo = s.int_const(-3, None);
    let four = s.int_const(4, None);
    let wrap = s.mk(ExprKind::Binary(BinOp::Eq, xr, four), None).unwrap();
    let next = s.mk(ExprKind::Ite(wrap, lo, inc), None).unwrap();
    s.vars[0].next = Some(next);
    s.vars[0].init = init.map(|v| s.int_const(v, None));
    s.outputs.push(Output {
        name: "x".into(),
        expr: xr,
    });
    (s, x)
}

#[test]
fn constant_init_becomes_latch_resets() {
    let (s, _) = counter(Some(2));
    let b = blast(&s, &BlastOptions::default()).unwrap();
    // 2 - (-3) = 5 = 0b101 in three storage bits
    let resets: Vec<Reset> = (0..3)
        .map(|i| latch(&b, &format!("x[{i}]")).reset)
        .collect();
    assert_eq!(resets, vec![Reset::One, Reset::Zero, Reset::One]);
    assert_eq!(
        b.aig.latches.len(),
        3,
        "no started latch for a constant init"
    );
    assert!(b.started.is_none());
    assert!(b.aig.constraints.is_empty(), "-3..4 has no spare codes");
    // Output x is the two's complement of 2 in 4 bits; the counter then wraps 4 → -3.
    let mut latches = initial_latches(&b, &HashMap::new());
    let mut seen = Vec::new();
    for _ in 0..4 {
        let val = eval_frame(&b.aig, &latches, &[]);
        let bits: Vec<bool> = b.outputs[0]
            .bits
            .iter()
            .map(|l| lit_value(&val, *l))
            .collect();
        seen.push(decode(b.outputs[0].ty, &bits, Repr::Expr));
        latches = b
            .aig
            .latches
            .iter()
            .map(|l| lit_value(&val, l.next))
            .collect();
    }
    assert_eq!(b.outputs[0].bits.len(), 4);
    assert_eq!(
        seen,
        vec![Value::Int(2), Value::Int(3), Value::Int(4), Value::Int(-3)]
    );
}

#[test]
fn missing_init_gives_free_latches() {
    let (s, _) = counter(None);
    let b = blast(&s, &BlastOptions::default()).unwrap();
    assert!(b.aig.latches.iter().all(|l| l.reset == Reset::Free));
    assert_eq!(b.state[0].bits.len(), 3);
}

#[test]
fn init_out_of_range_is_an_error() {
    let mut s = System::new("c");
    let x = s.add_var("x", Type::Int { lo: 0, hi: 2 }, Role::State, None);
    let five = s.int_const(5, None);
    let xr = s.var_ref(x, None);
    s.vars[0].init = Some(five);
    s.vars[0].next = Some(xr);
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::InitOutOfRange { var, .. } if var == "x"),
        "{err}"
    );
    assert!(err.to_string().contains("`x`"));
}

/// `init(y) := i` reads an input: zero-reset latches behind a shared `started` latch.
#[test]
fn started_construction_for_input_dependent_init() {
    let mut s = System::new("s");
    let i = s.add_var("i", Type::ubv(3), Role::Input, None);
    let y = s.add_var("y", Type::ubv(3), Role::State, None);
    let f = s.add_var("f", Type::Bool, Role::Frozen, None);
    let ir = s.var_ref(i, None);
    let yr = s.var_ref(y, None);
    let fr = s.var_ref(f, None);
    let one = s.bv_const(Type::ubv(3), Value::bits(3, 1u32), None);
    let inc = s.mk(ExprKind::Binary(BinOp::Add, yr, one), None).unwrap();
    let bit0 = s.mk(ExprKind::Cast(ir, Type::Bool), None).unwrap();
    s.vars[y.0 as usize].init = Some(ir);
    s.vars[y.0 as usize].next = Some(inc);
    s.vars[f.0 as usize].init = Some(bit0);
    s.outputs.push(Output {
        name: "y".into(),
        expr: yr,
    });
    s.outputs.push(Output {
        name: "f".into(),
        expr: fr,
    });
    let b = blast(&s, &BlastOptions::default()).unwrap();
    let started = latch(&b, "started");
    assert_eq!(started.reset, Reset::Zero);
    assert_eq!(started.next, Lit::TRUE);
    assert_eq!(b.started, Some(started.lit));
    assert!((0..3).all(|k| latch(&b, &format!("y[{k}]")).reset == Reset::Zero));
    assert_eq!(latch(&b, "f").reset, Reset::Zero);
    assert_eq!(b.aig.latches.len(), 5);

    // Frame 0 reads the input; later frames count and ignore it; f stays frozen.
    let inputs = [5u32, 0, 7, 2];
    let mut latches = initial_latches(&b, &HashMap::new());
    let mut ys = Vec::new();
    let mut fs = Vec::new();
    for v in inputs {
        let ins: Vec<bool> = (0..3).map(|k| v >> k & 1 == 1).collect();
        let val = eval_frame(&b.aig, &latches, &ins);
        let out = |o: &OutputBits| {
            let bits: Vec<bool> = o.bits.iter().map(|l| lit_value(&val, *l)).collect();
            decode(o.ty, &bits, Repr::Expr)
        };
        ys.push(out(&b.outputs[0]));
        fs.push(out(&b.outputs[1]));
        latches = b
            .aig
            .latches
            .iter()
            .map(|l| lit_value(&val, l.next))
            .collect();
    }
    let bv = |v: u32| Value::bits(3, v);
    assert_eq!(ys, vec![bv(5), bv(6), bv(7), bv(0)]);
    assert_eq!(fs, vec![Value::Bool(true); 4]); // 5 ≠ 0, kept although inputs change
}

#[test]
fn names_follow_the_bit_convention() {
    let mut s = System::new("n");
    let a = s.add_var("a", Type::ubv(2), Role::Input, None);
    s.add_var("b", Type::Bool, Role::Input, None);
    s.add_var("e", Type::ubv(1), Role::Input, None);
    let st = s.add_var("started", Type::Bool, Role::State, None);
    let ar = s.var_ref(a, None);
    let sr = s.var_ref(st, None);
    s.vars[st.0 as usize].next = Some(sr);
    s.vars[st.0 as usize].init = Some(sr); // reads itself → must be rejected below
    s.outputs.push(Output {
        name: "o".into(),
        expr: ar,
    });
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::CyclicInit { var } if var == "started"),
        "{err}"
    );

    let a_in = s.var_ref(a, None);
    let bit = s
        .mk(
            ExprKind::Extract {
                arg: a_in,
                hi: 0,
                lo: 0,
            },
            None,
        )
        .unwrap();
    let init = s.mk(ExprKind::Cast(bit, Type::Bool), None).unwrap();
    s.vars[st.0 as usize].init = Some(init);
    let b = blast(&s, &BlastOptions::default()).unwrap();
    let names: Vec<&str> = b.aig.inputs.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["a[0]", "a[1]", "b", "e"]);
    let latches: Vec<&str> = b.aig.latches.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(latches, ["started", "started'"]);
    let outs: Vec<&str> = b.aig.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(outs, ["o[0]", "o[1]"]);
    assert_eq!(b.inputs.len(), 3);
    assert_eq!(
        b.inputs[0].bits,
        vec![b.aig.inputs[0].lit, b.aig.inputs[1].lit]
    );
}

/// Domain constraints appear exactly for Int/Enum inputs and free or input-initialised
/// state variables whose storage has spare codes.
#[test]
fn domain_constraints_exactly_when_codes_spare() {
    let mut s = System::new("d");
    let e3 = s.add_enum("E3", vec!["a".into(), "b".into(), "c".into()]);
    let e4 = s.add_enum("E4", ["a", "b", "c", "d"].map(String::from).to_vec());
    let vars = [
        ("i02", Type::Int { lo: 0, hi: 2 }, Role::Input, 0),
        ("i03", Type::Int { lo: 0, hi: 3 }, Role::Input, 0),
        ("ie3", Type::Enum(e3), Role::Input, 0),
        ("ie4", Type::Enum(e4), Role::Input, 0),
        ("ib", Type::ubv(3), Role::Input, 0),
        ("s_free", Type::Int { lo: -1, hi: 1 }, Role::State, 0),
        ("s_const", Type::Int { lo: -1, hi: 1 }, Role::State, 1),
        ("s_dyn", Type::Enum(e3), Role::State, 2),
        ("s_full", Type::Int { lo: 1, hi: 4 }, Role::Frozen, 0),
    ];
    for (name, ty, role, init) in vars {
        let v = s.add_var(name, ty, role, None);
        let r = s.var_ref(v, None);
        if role == Role::State {
            s.vars[v.0 as usize].next = Some(r);
        }
        s.vars[v.0 as usize].init = match init {
            1 => Some(s.int_const(0, None)),
            2 => Some(s.var_ref(VarId(2), None)),
            _ => None,
        };
    }
    let b = blast(&s, &BlastOptions::default()).unwrap();
    let names: Vec<&str> = b.aig.constraints.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["domain i02", "domain ie3", "domain s_free", "domain s_dyn"]
    );
    let none = blast(
        &s,
        &BlastOptions {
            domain_constraints: false,
        },
    )
    .unwrap();
    assert!(none.aig.constraints.is_empty());

    // The constraint on i02 holds exactly for codes 0..=2.
    let c = b.aig.constraints[0].lit;
    for code in 0..4u32 {
        let mut ins = vec![false; b.aig.inputs.len()];
        ins[0] = code & 1 == 1;
        ins[1] = code & 2 == 2;
        let latches = vec![false; b.aig.latches.len()];
        let val = eval_frame(&b.aig, &latches, &ins);
        assert_eq!(lit_value(&val, c), code < 3, "code {code}");
    }
}

#[test]
fn constraints_are_named_and_init_uses_started() {
    let (mut s, x) = counter(Some(0));
    let xr = s.var_ref(x, None);
    let nx = s.mk(ExprKind::Next(x), None).unwrap();
    let zero = s.int_const(0, None);
    let ne = s.mk(ExprKind::Binary(BinOp::Ne, nx, xr), None).unwrap();
    let pos = s.mk(ExprKind::Binary(BinOp::Ge, xr, zero), None).unwrap();
    for (kind, expr) in [
        (ConstraintKind::Trans, ne),
        (ConstraintKind::Init, pos),
        (ConstraintKind::Invariant, pos),
    ] {
        s.constraints.push(Constraint {
            kind,
            expr,
            span: None,
        });
    }
    let b = blast(&s, &BlastOptions::default()).unwrap();
    let names: Vec<&str> = b.aig.constraints.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["trans0", "init1", "invar2"]);
    let started = b.started.expect("init constraints need started");
    let (init, invar) = (b.aig.constraints[1].lit, b.aig.constraints[2].lit);
    let mut g = b.aig.clone();
    assert_eq!(init, g.or(started, invar));
    assert_eq!(g.num_ands(), b.aig.num_ands(), "started ∨ c already exists");
}

#[test]
fn errors_name_the_culprit() {
    // A choice site.
    let mut s = System::new("e");
    let x = s.add_var("x", Type::Bool, Role::State, None);
    let t = s.bool_const(true, None);
    let f = s.bool_const(false, None);
    let ch = s.choice(vec![t, f], None).unwrap();
    s.vars[0].next = Some(ch);
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::Choice { at, site: 0 } if at == "next(x)"),
        "{err}"
    );

    // A free next.
    s.vars[0].next = None;
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::FreeNext { var } if var == "x"),
        "{err}"
    );

    // next() in an output, and next() of an input in a transition constraint.
    let xr = s.var_ref(x, None);
    s.vars[0].next = Some(xr);
    let nx = s.mk(ExprKind::Next(x), None).unwrap();
    s.outputs.push(Output {
        name: "o".into(),
        expr: nx,
    });
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::NextOutsideTrans { at } if at == "output `o`"),
        "{err}"
    );
    // ... also when the same node was first translated in a transition constraint.
    s.outputs.clear();
    let not_nx = s.mk(ExprKind::Unary(UnOp::Not, nx), None).unwrap();
    for (kind, expr) in [
        (ConstraintKind::Trans, nx),
        (ConstraintKind::Invariant, not_nx),
    ] {
        s.constraints.push(Constraint {
            kind,
            expr,
            span: None,
        });
    }
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::NextOutsideTrans { at } if at == "constraint `invar1`"),
        "{err}"
    );
    s.constraints.truncate(1);
    assert!(blast(&s, &BlastOptions::default()).is_ok());
    s.constraints.clear();

    let i = s.add_var("i", Type::Bool, Role::Input, None);
    let ni = s.mk(ExprKind::Next(i), None).unwrap();
    s.constraints.push(Constraint {
        kind: ConstraintKind::Trans,
        expr: ni,
        span: None,
    });
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::NextUndefined { var, .. } if var == "i"),
        "{err}"
    );
    s.constraints.clear();

    // Unencodable types and constants outside their type.
    let w0 = s.add_var("w0", Type::ubv(0), Role::Input, None);
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(err.to_string().contains("w0"), "{err}");
    s.vars[w0.0 as usize].ty = Type::ubv(2);
    let bad = s.constant(Type::Int { lo: 0, hi: 2 }, Value::Int(7), None);
    s.outputs.push(Output {
        name: "bad".into(),
        expr: bad,
    });
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(&err, BlastError::Type { at, .. } if at == "output `bad`"),
        "{err}"
    );

    // Dangling references are errors, not panics.
    s.outputs[0].expr = ExprId(9999);
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(
        matches!(
            &err,
            BlastError::Dangling {
                what: "expression",
                index: 9999,
                ..
            }
        ),
        "{err}"
    );
    s.outputs.clear();
    s.vars[0].init = Some(ExprId(4242));
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert!(err.to_string().contains("4242"), "{err}");
}

/// Error locations quote the source text of the offending node.
#[test]
fn errors_quote_source_text() {
    let mut s = System::new("q");
    let file = s.sources.add("m.smv", "next(x) := {TRUE, FALSE};");
    let x = s.add_var("x", Type::Bool, Role::State, None);
    let t = s.bool_const(true, None);
    let f = s.bool_const(false, None);
    let ch = s
        .choice(vec![t, f], Some(hypermut_ir::Span::new(file, 11, 24)))
        .unwrap();
    s.vars[x.0 as usize].next = Some(ch);
    let err = blast(&s, &BlastOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "next(x) (at `{TRUE, FALSE}`): nondeterministic choice #0 must be turned into an \
         input before bit-blasting"
    );
}

/// A deterministic smoke test of `compare_with_interpreter` on the hand-written counter.
#[test]
fn differential_smoke() {
    let (s, _) = counter(Some(-3));
    assert_eq!(compare_with_interpreter(&s, 9, &[1, 2, 3]), Ok(true));
}

/// The random systems exercise every expression kind, operator and cast class, `next()`
/// in transition constraints, frozen variables and input-dependent initial values — so the
/// differential test above cannot silently lose coverage.
#[test]
fn generator_covers_every_construct() {
    let mut rng = hypermut_testkit::XorShift64::from_state(0x9e37_79b9_7f4a_7c15);
    let mut rnd = move || rng.next_u64();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..300 {
        let len = (rnd() % 300) as usize;
        let sys = random_system((0..len).map(|_| rnd() as u32).collect(), 3);
        for v in &sys.vars {
            seen.insert(format!("{:?}", v.role));
            if let Some(e) = v.init {
                if sys
                    .exprs
                    .cone([e])
                    .iter()
                    .any(|n| matches!(sys.exprs.node(*n).kind, ExprKind::Var(_)))
                {
                    seen.insert("dynamic init".into());
                }
            }
        }
        let class = |t: Type| match t {
            Type::Bool => "bool",
            Type::BitVec { signed: true, .. } => "sbv",
            Type::BitVec { .. } => "ubv",
            Type::Int { .. } => "int",
            Type::Enum(_) => "enum",
        };
        for id in sys.exprs.cone(sys.roots()) {
            let node = sys.exprs.node(id);
            seen.insert(match &node.kind {
                ExprKind::Binary(op, a, b) => {
                    format!("{op:?} {} {}", class(sys.ty(*a)), class(sys.ty(*b)))
                }
                ExprKind::Unary(op, a) => format!("{op:?} {}", class(sys.ty(*a))),
                ExprKind::Cast(a, t) => format!("cast {} {}", class(sys.ty(*a)), class(*t)),
                ExprKind::Const(_) => format!("const {}", class(node.ty)),
                k => format!("{k:?}")
                    .chars()
                    .take_while(|c| c.is_alphabetic())
                    .collect(),
            });
        }
    }
    let mut want: Vec<String> = [
        "State",
        "Frozen",
        "dynamic init",
        "Var",
        "Next",
        "Ite",
        "Extract",
    ]
    .map(String::from)
    .to_vec();
    for t in ["bool", "ubv", "sbv", "int", "enum"] {
        want.push(format!("const {t}"));
    }
    for (op, ts) in [
        ("And", &["bool", "ubv", "sbv"][..]),
        ("Or", &["bool", "ubv", "sbv"]),
        ("Xor", &["bool", "ubv", "sbv"]),
        ("Implies", &["bool"]),
        ("Iff", &["bool"]),
        ("Eq", &["bool", "ubv", "sbv", "int", "enum"]),
        ("Ne", &["bool", "ubv", "sbv", "int", "enum"]),
        ("Lt", &["ubv", "sbv", "int"]),
        ("Le", &["ubv", "sbv", "int"]),
        ("Gt", &["ubv", "sbv", "int"]),
        ("Ge", &["ubv", "sbv", "int"]),
        ("Add", &["ubv", "sbv", "int"]),
        ("Sub", &["ubv", "sbv", "int"]),
        ("Mul", &["ubv", "sbv", "int"]),
        ("Div", &["ubv", "sbv", "int"]),
        ("Mod", &["ubv", "sbv", "int"]),
    ] {
        for t in ts {
            want.push(format!("{op} {t} {t}"));
        }
    }
    for a in ["ubv", "sbv"] {
        for b in ["ubv", "sbv", "int"] {
            want.push(format!("Shl {a} {b}"));
            want.push(format!("Shr {a} {b}"));
        }
        want.push(format!("Concat {a} {a}"));
        want.push(format!("Neg {a}"));
        want.push(format!("Not {a}"));
    }
    want.extend(["Neg int", "Not bool"].map(String::from));
    for (from, to) in [
        ("bool", "bool"),
        ("ubv", "bool"),
        ("sbv", "bool"),
        ("bool", "ubv"),
        ("bool", "sbv"),
        ("ubv", "ubv"),
        ("ubv", "sbv"),
        ("sbv", "ubv"),
        ("sbv", "sbv"),
        ("ubv", "int"),
        ("sbv", "int"),
        ("int", "ubv"),
        ("int", "sbv"),
        ("bool", "int"),
        ("int", "int"),
        ("enum", "enum"),
    ] {
        want.push(format!("cast {from} {to}"));
    }
    let missing: Vec<&String> = want.iter().filter(|w| !seen.contains(*w)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// 64-bit offset binary storage: extreme values of extreme ranges read back exactly, also
/// through integer arithmetic whose type spans the whole `i64` range.
#[test]
fn extreme_integer_ranges() {
    let full = Type::Int {
        lo: i64::MIN,
        hi: i64::MAX,
    };
    let half = Type::Int {
        lo: i64::MIN / 2,
        hi: i64::MAX / 2,
    };
    let sys = one_output(&[full, half, half], |s, r| {
        let sum = s.mk(ExprKind::Binary(BinOp::Add, r[1], r[2]), None)?;
        let eq = s.mk(ExprKind::Binary(BinOp::Eq, r[0], sum), None)?;
        s.mk(ExprKind::Ite(eq, r[0], sum), None)
    })
    .unwrap();
    let b = blast(&sys, &BlastOptions::default()).unwrap();
    assert_eq!(b.inputs[0].bits.len(), 64);
    let interp = Interpreter::new(&sys);
    let vals = [i64::MIN, i64::MIN / 2, -1, 0, 1, i64::MAX / 2, i64::MAX];
    for x in vals {
        for y in vals.iter().filter(|v| half_contains(**v)) {
            for z in vals.iter().filter(|v| half_contains(**v)) {
                let frame = Frame {
                    inputs: [x, *y, *z]
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (VarId(i as u32), Value::Int(*v)))
                        .collect(),
                    ..Frame::default()
                };
                let want = interp.outputs(&[], &frame).unwrap()[0].clone();
                let mut ins = Vec::new();
                for vb in &b.inputs {
                    ins.extend(storage_bits(&frame.inputs[&vb.var], vb.ty, vb.bits.len()));
                }
                let val = eval_frame(&b.aig, &[], &ins);
                let bits: Vec<bool> = b.outputs[0]
                    .bits
                    .iter()
                    .map(|l| lit_value(&val, *l))
                    .collect();
                assert_eq!(
                    decode(b.outputs[0].ty, &bits, Repr::Expr),
                    want,
                    "{x} {y} {z}"
                );
            }
        }
    }
}

fn half_contains(v: i64) -> bool {
    (i64::MIN / 2..=i64::MAX / 2).contains(&v)
}

#[test]
fn properties_become_named_bad_states_reached_when_violated() {
    // x counts -3, -2, …; the property `x != 1` is violated first in frame 4.
    let (mut s, _) = counter(Some(-3));
    let xr = s.var_ref(VarId(0), None);
    let one = s.int_const(1, None);
    let ne = s.mk(ExprKind::Binary(BinOp::Ne, xr, one), None).unwrap();
    s.properties.push(hypermut_ir::Property {
        name: "x != 1".into(),
        expr: ne,
        span: None,
    });
    let b = blast(&s, &BlastOptions::default()).unwrap();
    assert_eq!(b.aig.bad.len(), 1);
    assert_eq!(b.aig.bad[0].name, "x != 1");
    let trace = crate::simulate(&b.aig, &[], &vec![vec![]; 6]);
    let bad: Vec<bool> = trace.frames.iter().map(|f| f.bad[0]).collect();
    assert_eq!(bad, [false, false, false, false, true, false]);
}
