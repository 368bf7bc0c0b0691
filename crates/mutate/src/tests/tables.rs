//! Expected mutant texts per operator, and invariants of the enumeration.
//!
//! The expectations follow from the operator definitions (README table) applied by hand to
//! the models in `super`; they are not copied from the program's output.

use std::collections::HashSet;

use hypermut_ir::{BinOp, ExprKind, Output, Role, Span, System, Type};

use super::{all, models, parse, SMV_MODEL, VERILOG_MODEL};
use crate::enumerate;
use crate::operators::{Mutant, Operator};
use crate::text::normalise;
use crate::MutateError;

/// (operator, original text, replacement text).
pub(super) type Row = (&'static str, &'static str, &'static str);

const SMV_PRESENT: &[Row] = &[
    ("ror", "k > 1", "k >= 1"),
    ("ror", "x < 4", "x <= 4"),
    ("ror", "w[2:1] = 0ud2_3", "w[2:1] != 0ud2_3"),
    ("aor", "x + 1", "x - 1"),
    ("aor", "(x + 1) mod 8", "(x + 1) / 8"),
    ("aor", "x + k", "x * k"),
    ("aor", "x + 6", "x - 6"),
    ("lor", "a | b", "a & b"),
    ("lor", "a | b", "a xor b"),
    ("lor", "a xnor b", "a xor b"),
    ("lor", "a xnor b", "a & b"),
    ("lor", "(a | b) & !a", "(a | b) | !a"),
    ("lor", "(w << 1) xor w[3:0]", "(w << 1) & w[3:0]"),
    ("sor", "w << 1", "w >> 1"),
    ("sor", "s >> 1", "s << 1"),
    ("enf", "(a | b) & !a", "!((a | b) & !a)"),
    ("enf", "a | b", "!(a | b)"),
    ("vnf", "!a", "a"),
    ("vnf", "!f", "f"),
    ("vnf", "a", "!a"),
    ("mcf", "(a | b) & !a", "!a"),
    ("mcf", "(a | b) & !a", "(a | b)"),
    ("mcf", "a | b", "a"),
    ("sa1", "k > 1 & x < 4", "TRUE"),
    ("sa0", "!f & (a -> b) | w[2:1] = 0ud2_3", "FALSE"),
    ("sa1", "!f & (a -> b) | w[2:1] = 0ud2_3", "TRUE"),
    ("asf", "x + k - 1 + 1", "(x + k) - (1 + 1)"),
    ("asf", "(a | b) & !a", "a | (b & (!a))"),
    (
        "asf",
        "!f & (a -> b) | w[2:1] = 0ud2_3",
        "(!f) & ((a -> b) | (w[2:1] = 0ud2_3))",
    ),
    ("const+1", "8", "9"),
    ("const-1", "6", "5"),
    ("constmax", "1", "7"),
    ("const+1", "0b4_1010", "0d4_11"),
    ("constmax", "0b4_1010", "0d4_15"),
    ("const0", "0ud2_3", "0ud2_0"),
    ("const-1", "0ud2_3", "0ud2_2"),
    ("const+1", "0sd4_2", "0sd4_3"),
    ("constmax", "0sd4_2", "0sd4_7"),
    ("constmax", "1", "3"),
    ("vrr", "a", "b"),
    ("vrr", "a", "f"),
    ("cbd", "d : (x + 1) mod 8;", ""),
    ("cbd", "k > 1 & x < 4 : x + k - 1 + 1;", ""),
    ("cbd", "a ? q : b ? r : e", "b ? r : e"),
    ("cbd", "b ? r : e", "e"),
    ("nad", "(w << 1) xor w[3:0] xnor 0b4_1010", "w"),
    ("nad", "s >> 1", "s"),
    ("nad", "a ? q : b ? r : e", "e"),
    ("rvc", "1", "0"),
    ("rvc", "1", "2"),
    ("rvc", "0ud4_3", "0ud4_2"),
    ("rvc", "0ud4_3", "0ud4_4"),
    ("rvc", "p", "q"),
    ("rvc", "p", "r"),
    ("rvc", "FALSE", "TRUE"),
    ("bio", "w[2:1]", "w[1:0]"),
    ("bio", "w[2:1]", "w[3:2]"),
];

const SMV_ABSENT: &[Row] = &[
    // `x / 1` computes what the kept `x * 1` computes.
    ("aor", "x + 1", "x / 1"),
    // (x + k) - 1 = x + (k - 1): no change of meaning.
    ("asf", "x + k - 1", "x + (k - 1)"),
    // A guard stuck at false is the deletion of its branch (`cbd`).
    ("sa0", "k > 1 & x < 4", "FALSE"),
    // Negating a relation is `ror`'s, negating xnor is `lor`'s.
    ("enf", "k > 1", "!(k > 1)"),
    ("enf", "a xnor b", "!(a xnor b)"),
    // Moving w[3:0] would leave the 4-bit vector.
    ("bio", "w[3:0]", "w[4:1]"),
];

const VERILOG_PRESENT: &[Row] = &[
    ("aor", "d + 1", "d - 1"),
    ("aor", "d + 1", "d % 1"),
    ("aor", "(d % 4'd3)", "(d / 4'd3)"),
    ("sor", "(d % 4'd3) >> 1", "(d % 4'd3) << 1"),
    ("ror", "(c < 3'd6)", "(c <= 3'd6)"),
    ("ror", "(d != 0)", "(d == 0)"),
    // `||` binds less tightly than `&&`, and the node is the left operand of a `||`.
    ("lor", "a && (d != 0)", "(a || (d != 0))"),
    ("lor", "a && (d != 0)", "a ^ (d != 0)"),
    ("lor", "d[0] & a", "d[0] | a"),
    ("lor", "q ^ d", "q & d"),
    ("enf", "a && (d != 0) || !a", "!(a && (d != 0) || !a)"),
    ("vnf", "!a", "a"),
    ("vnf", "~y", "y"),
    ("vnf", "a", "!a"),
    ("mcf", "a && (d != 0)", "(d != 0)"),
    ("mcf", "a && (d != 0)", "a"),
    ("sa0", "a && (d != 0) || !a", "1'b0"),
    ("sa1", "d[0] & a", "1'b1"),
    ("asf", "a && (d != 0) || !a", "a && ((d != 0) || (!a))"),
    ("const+1", "4'd3", "4'd4"),
    ("constmax", "4'd3", "4'd15"),
    ("const-1", "3'd6", "3'd5"),
    ("const+1", "2'd0", "2'd1"),
    ("const+1", "1", "2"),
    ("cbd", "2'd0: q <= d + 1;", ""),
    ("cbd", "2'd1: q <= d[3:1] - 4'd2;", ""),
    ("cbd", "d[0] & a", "1'b0"),
    ("cbd", "(c < 3'd6) ? c + 3'd1 : c - d[1:0]", "(c - d[1:0])"),
    ("nad", "d + 1", "q"),
    ("nad", "q ^ d", "q"),
    ("nad", "a && (d != 0) || !a", "y"),
    ("nad", "(c < 3'd6) ? c + 3'd1 : c - d[1:0]", "c"),
    ("rvc", "4'd0", "4'd1"),
    ("rvc", "1'b0", "1'b1"),
    ("rvc", "3'd1", "3'd0"),
    ("rvc", "3'd1", "3'd2"),
    ("bio", "d[3:1]", "d[2:0]"),
    ("bio", "d[1:0]", "d[2:1]"),
    ("bio", "d[0]", "d[1]"),
    ("vrr", "d", "q"),
];

const VERILOG_ABSENT: &[Row] = &[
    // `d / 1` computes what the kept `d * 1` computes.
    ("aor", "d + 1", "d / 1"),
    // Same text as `vnf` dropping the negation: one mutant, the first operator's.
    ("nad", "~y", "y"),
    // The select would leave the vector.
    ("bio", "d[3:1]", "d[4:2]"),
    // A guard stuck at false is `cbd`.
    ("sa0", "d[0] & a", "1'b0"),
];

fn find<'a>(ms: &'a [Mutant], row: &Row) -> Option<&'a Mutant> {
    ms.iter().find(|m| {
        m.operator.name() == row.0
            && normalise(&m.original) == normalise(row.1)
            && normalise(&m.replacement) == normalise(row.2)
    })
}

pub(super) fn check_table(name: &str, text: &str, present: &[Row], absent: &[Row]) {
    let sys = parse(name, text);
    let ms = all(&sys);
    let listing = || {
        ms.iter()
            .map(|m| {
                format!(
                    "{} {:?} -> {:?}",
                    m.operator.name(),
                    m.original,
                    m.replacement
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    for row in present {
        assert!(
            find(&ms, row).is_some(),
            "{name}: missing {row:?}\n{}",
            listing()
        );
    }
    for row in absent {
        assert!(find(&ms, row).is_none(), "{name}: unexpected {row:?}");
    }
}

#[test]
fn smv_operators_give_the_expected_texts() {
    check_table("m.smv", SMV_MODEL, SMV_PRESENT, SMV_ABSENT);
}

#[test]
fn verilog_operators_give_the_expected_texts() {
    check_table("t.v", VERILOG_MODEL, VERILOG_PRESENT, VERILOG_ABSENT);
}

#[test]
fn a_negation_under_a_prefix_operator_is_parenthesised() {
    let present = [("vnf", "s", "(!s)"), ("vnf", "o", "!o")];
    check_table(
        "r.v",
        super::ASYNC_RESET_MODEL,
        &present,
        &[("vnf", "s", "!s")],
    );
}

#[test]
fn directly_assigned_constants_stay_in_the_variable_range() {
    // `inp = fill & wtr = 0 : 2` assigns 2 to wtr : 0..2; 3 would be rejected by NuSMV.
    let text = super::bundled("smv/beverage.smv");
    let sys = parse("beverage.smv", &text);
    let refill = text.find("wtr = 0 : 2").expect("refill line") + "wtr = 0 : ".len();
    let ms = all(&sys);
    let texts: HashSet<&str> = ms
        .iter()
        .filter(|m| m.span.start as usize == refill)
        .map(|m| m.replacement.as_str())
        .collect();
    // `cwd` widens within the range too: `{1, 2}`, never `{2, 3}`.
    assert_eq!(texts, HashSet::from(["1", "0", "{1, 2}"]));
}

#[test]
fn every_operator_is_exercised_by_the_test_models() {
    let mut seen = HashSet::new();
    for (name, text) in models() {
        for m in all(&parse(name, &text)) {
            seen.insert(m.operator);
        }
    }
    for op in Operator::ALL {
        assert!(
            seen.contains(&op),
            "no {} mutant in the test models",
            op.name()
        );
    }
}

#[test]
fn ids_are_dense_ordered_and_texts_unique() {
    for (name, text) in models() {
        let sys = parse(name, &text);
        let ms = all(&sys);
        assert!(!ms.is_empty(), "{name}");
        let mut texts = HashSet::new();
        for (i, m) in ms.iter().enumerate() {
            assert_eq!(m.id, i, "{name}");
            assert_ne!(
                normalise(&m.original),
                normalise(&m.replacement),
                "{name}: unchanged text {m:?}"
            );
            assert_eq!(sys.sources.snippet(m.span), m.original, "{name}: {m:?}");
            assert!(
                texts.insert((m.span, normalise(&m.replacement))),
                "{name}: the same edit twice: {m:?}"
            );
        }
        let key = |m: &Mutant| {
            (
                m.span.file,
                m.span.start,
                m.span.end,
                m.operator,
                m.replacement.clone(),
            )
        };
        assert!(
            ms.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "{name}: not ordered by position, operator, replacement"
        );
        // Deterministic: a second enumeration is identical.
        assert_eq!(ms, all(&sys), "{name}");
    }
}

#[test]
fn declarations_and_initial_constants_are_handled_by_their_operators() {
    for (name, text) in models() {
        let sys = parse(name, &text);
        let decls: HashSet<Span> = sys.vars.iter().filter_map(|v| v.span).collect();
        let inits: HashSet<_> = sys
            .vars
            .iter()
            .filter_map(|v| v.init)
            .filter(|e| matches!(sys.exprs.node(*e).kind, ExprKind::Const(_)))
            .collect();
        for m in all(&sys) {
            assert!(
                !decls.contains(&m.span),
                "{name}: a declaration mutated: {m:?}"
            );
            if m.sites().any(|s| inits.contains(&s)) {
                // `rvc` changes a constant initial value, `cwd` widens it into a choice.
                assert!(
                    matches!(m.operator, Operator::Rvc | Operator::Cwd),
                    "{name}: {m:?}"
                );
            }
        }
    }
}

#[test]
fn a_subset_of_operators_gives_a_subset_of_mutants() {
    let sys = parse("m.smv", SMV_MODEL);
    let full = all(&sys);
    let chosen = Operator::parse_list("aor, ror").expect("known names");
    assert_eq!(chosen, vec![Operator::Ror, Operator::Aor]);
    let some = enumerate(&sys, &chosen);
    assert!(!some.is_empty());
    assert!(some.iter().all(|m| chosen.contains(&m.operator)));
    assert_eq!(
        some.iter().map(|m| m.id).collect::<Vec<_>>(),
        (0..some.len()).collect::<Vec<_>>()
    );
    let texts = |ms: &[Mutant]| -> HashSet<(Span, String)> {
        ms.iter()
            .filter(|m| chosen.contains(&m.operator))
            .map(|m| (m.span, m.replacement.clone()))
            .collect()
    };
    assert_eq!(texts(&some), texts(&full));
}

#[test]
fn operator_names_round_trip() {
    let names: Vec<&str> = Operator::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(
        names,
        [
            "ror", "const+1", "const-1", "aor", "lor", "sor", "enf", "vnf", "mcf", "sa0", "sa1",
            "asf", "const0", "constmax", "vrr", "cbd", "nad", "rvc", "bio", "cad", "cwd"
        ]
    );
    for op in Operator::ALL {
        assert_eq!(Operator::from_name(op.name()), Some(op));
        assert_eq!(Operator::from_name(&op.name().to_uppercase()), Some(op));
    }
    assert_eq!(Operator::from_name("xyz"), None);
    assert!(matches!(
        Operator::parse_list("ror,xyz"),
        Err(MutateError::UnknownOperator(n)) if n == "xyz"
    ));
    assert!(Operator::parse_list("").is_err());
    assert_eq!(
        Operator::parse_list("all").expect("all").len(),
        Operator::ALL.len()
    );
    assert_eq!(
        Operator::parse_list("sa1,sa0,sa1").expect("names"),
        vec![Operator::Sa0, Operator::Sa1]
    );
}

/// `x <= 2` over `x : 0..3`, built directly in the IR (file name chooses the language).
fn le_system(file: &str) -> System {
    let mut s = System::new("t");
    let f = s.sources.add(file, "x <= 2");
    let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::Input, None);
    let xr = s.var_ref(x, Some(Span::new(f, 0, 1)));
    let two = s.int_const(2, Some(Span::new(f, 5, 6)));
    let le = s
        .mk(
            ExprKind::Binary(BinOp::Le, xr, two),
            Some(Span::new(f, 0, 6)),
        )
        .expect("typed");
    s.outputs.push(Output {
        name: "o".into(),
        expr: le,
    });
    s
}

#[test]
fn ir_built_relation_gets_every_relational_and_constant_mutant() {
    let s = le_system("t.smv");
    let ms = enumerate(
        &s,
        &[
            Operator::Ror,
            Operator::ConstPlusOne,
            Operator::ConstMinusOne,
            Operator::Const0,
        ],
    );
    let texts: Vec<(Operator, &str)> = ms
        .iter()
        .map(|m| (m.operator, m.replacement.as_str()))
        .collect();
    assert_eq!(
        texts,
        vec![
            (Operator::Ror, "x != 2"),
            (Operator::Ror, "x < 2"),
            (Operator::Ror, "x = 2"),
            (Operator::Ror, "x > 2"),
            (Operator::Ror, "x >= 2"),
            (Operator::ConstPlusOne, "3"),
            (Operator::ConstMinusOne, "1"),
            (Operator::Const0, "0"),
        ]
    );
}

#[test]
fn relations_are_spelled_in_the_source_language() {
    // Verilog's `==` binds less tightly than `<=`: at the top of an expression (no context
    // here) the replacement needs no parentheses.
    for (file, eq) in [("m.smv", "x = 2"), ("d.v", "x == 2"), ("d.sv", "x == 2")] {
        let s = le_system(file);
        let texts: Vec<String> = enumerate(&s, &[Operator::Ror])
            .into_iter()
            .map(|m| m.replacement)
            .collect();
        assert!(texts.iter().any(|t| t == eq), "{file}: {texts:?}");
        assert!(texts.iter().any(|t| t == "x != 2"), "{file}: {texts:?}");
    }
}

#[test]
fn enumeration_comparisons_only_swap_equality() {
    let mut s = System::new("t");
    let f = s.sources.add("t.smv", "a = b");
    let e = s.add_enum("e", vec!["b".into(), "c".into()]);
    let a = s.add_var("a", Type::Enum(e), Role::Input, None);
    let ar = s.var_ref(a, Some(Span::new(f, 0, 1)));
    let b = s.enum_const(e, 0, Some(Span::new(f, 4, 5)));
    let eq = s
        .mk(ExprKind::Binary(BinOp::Eq, ar, b), Some(Span::new(f, 0, 5)))
        .expect("typed");
    s.outputs.push(Output {
        name: "o".into(),
        expr: eq,
    });
    let ms = enumerate(&s, &[Operator::Ror]);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].replacement, "a != b");
}
