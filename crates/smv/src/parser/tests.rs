use hypermut_ir::{BinOp, FileId, UnOp};

use super::*;
use crate::ast::{ExprKind, Section, TypeKind};
use crate::lexer::lex;

fn program(text: &str) -> Result<Program, Diag> {
    let l = lex(FileId(0), text);
    parse_program(FileId(0), text, &l.tokens)
}

/// The expression of a lone `INVAR` in `main`.
fn invar(e: &str) -> crate::ast::Expr {
    let text = format!("MODULE main\nINVAR {e}");
    let p = program(&text).unwrap_or_else(|d| panic!("{e}: {}", d.message));
    match &p.modules[0].sections[0] {
        Section::Constraint(_, x) => x.clone(),
        s => panic!("unexpected section {s:?}"),
    }
}

/// A compact rendering of the tree: `(op a b)`.
fn sexp(e: &crate::ast::Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Next(a) => format!("(next {})", sexp(a)),
        ExprKind::Unary(UnOp::Not, a) => format!("(! {})", sexp(a)),
        ExprKind::Unary(UnOp::Neg, a) => format!("(neg {})", sexp(a)),
        ExprKind::Chain {
            first,
            rest,
            right_assoc,
        } => {
            if *right_assoc {
                let mut ops: Vec<String> = vec![sexp(first)];
                ops.extend(rest.iter().map(|(_, e)| sexp(e)));
                let mut acc = ops.pop().unwrap_or_default();
                for (k, o) in ops.iter().enumerate().rev() {
                    acc = format!("({} {o} {acc})", rest[k].0.symbol());
                }
                acc
            } else {
                rest.iter().fold(sexp(first), |acc, (op, e)| {
                    format!("({} {acc} {})", op.symbol(), sexp(e))
                })
            }
        }
        ExprKind::Ite(c, a, b) => format!("(?: {} {} {})", sexp(c), sexp(a), sexp(b)),
        ExprKind::Case(bs) => {
            let parts: Vec<String> = bs
                .iter()
                .map(|b| format!("[{} {}]", sexp(&b.cond), sexp(&b.value)))
                .collect();
            format!("(case {})", parts.join(" "))
        }
        ExprKind::Set(items) => {
            let parts: Vec<String> = items.iter().map(sexp).collect();
            format!("{{{}}}", parts.join(" "))
        }
    }
}

#[test]
fn precedence_follows_nusmv() {
    let cases = [
        ("a | b & c", "(| a (& b c))"),
        ("a & b | c", "(| (& a b) c)"),
        ("a -> b -> c", "(-> a (-> b c))"),
        ("a <-> b <-> c", "(<-> (<-> a b) c)"),
        ("a -> b <-> c", "(-> a (<-> b c))"),
        ("x = 1 & y < 2", "(& (= x 1) (< y 2))"),
        ("x + 1 * 2 = 3", "(= (+ x (* 1 2)) 3)"),
        ("x - 1 - 2 >= 0", "(>= (- (- x 1) 2) 0)"),
        ("!a = b", "(= (! a) b)"),
        ("-x mod 3", "(mod (neg x) 3)"),
        ("-3 + x", "(+ -3 x)"),
        ("a xor b xnor c", "(<-> (xor a b) c)"),
        ("c ? 1 : 2", "(?: c 1 2)"),
        ("a | c ? 1 : 2", "(?: (| a c) 1 2)"),
        ("c ? 1 : d ? 2 : 3", "(?: c 1 (?: d 2 3))"),
        ("(a | b) & c", "(& (| a b) c)"),
        ("next(x) = {1, 2}", "(= (next x) {1 2})"),
        (
            "case a : 1; TRUE : x - 1; esac = 0",
            "(= (case [a 1] [true (- x 1)]) 0)",
        ),
        ("a-b = a - b", "(= a-b (- a b))"),
    ];
    for (src, want) in cases {
        assert_eq!(sexp(&invar(src)), want, "{src}");
    }
}

#[test]
fn spans_cover_source_text_including_parentheses() {
    let text = "MODULE main\nINVAR (wtr > 0) & b";
    let p = program(text).unwrap_or_else(|d| panic!("{}", d.message));
    let Section::Constraint(_, e) = &p.modules[0].sections[0] else {
        panic!("no constraint")
    };
    let at = |s: hypermut_ir::Span| &text[s.start as usize..s.end as usize];
    assert_eq!(at(e.span), "(wtr > 0) & b");
    let ExprKind::Chain { first, rest, .. } = &e.kind else {
        panic!("not a chain")
    };
    assert_eq!(at(first.span), "(wtr > 0)");
    assert_eq!(at(rest[0].1.span), "b");
    assert_eq!(rest[0].0, BinOp::And);
}

#[test]
fn types_and_sections() {
    let text = "MODULE main\nVAR a : -3..-1; b : {p, q}; c : boolean; d : lo..5;\n\
                SPEC AG (a = -1) LTLSPEC G F b @ ! -- junk is skipped\n\
                FROZENVAR f : boolean;";
    let p = program(text).unwrap_or_else(|d| panic!("{}", d.message));
    let m = &p.modules[0];
    let Section::Vars(_, decls) = &m.sections[0] else {
        panic!("no VAR")
    };
    assert!(matches!(
        &decls[0].ty.kind,
        TypeKind::Range(
            (crate::ast::Bound::Int(-3), _),
            (crate::ast::Bound::Int(-1), _)
        )
    ));
    assert!(matches!(&decls[1].ty.kind, TypeKind::Enum(v) if v.len() == 2));
    assert!(matches!(&decls[2].ty.kind, TypeKind::Boolean));
    assert!(
        matches!(&decls[3].ty.kind, TypeKind::Range((crate::ast::Bound::Name(n), _), _) if n == "lo")
    );
    assert!(matches!(&m.sections[1], Section::Skipped(k) if k.name == "SPEC"));
    assert!(matches!(&m.sections[2], Section::Skipped(k) if k.name == "LTLSPEC"));
    assert!(
        matches!(&m.sections[3], Section::Vars(crate::ast::VarKind::Frozen, d) if d.len() == 1)
    );
}

#[test]
fn other_modules_are_skipped_but_listed() {
    let text = "MODULE sub(a)\nVAR x : process foo(a[1]);\nMODULE main\nVAR y : boolean;";
    let p = program(text).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(p.modules.len(), 2);
    assert_eq!(p.modules[0].name.name, "sub");
    assert!(p.modules[0].sections.is_empty());
    assert_eq!(p.modules[1].sections.len(), 1);
}

#[test]
fn nesting_is_bounded() {
    // Through the public entry point, which parses on a thread with a large stack.
    let deep = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
    let err = crate::parse_smv("t.smv", &format!("MODULE main\nINVAR {deep}")).unwrap_err();
    assert!(err.message().contains("nested too deeply"), "{err}");
    let nots = format!("{}x", "!".repeat(5000));
    let err = crate::parse_smv("t.smv", &format!("MODULE main\nINVAR {nots}")).unwrap_err();
    assert!(err.message().contains("nested too deeply"), "{err}");
    // Just below the limit is accepted.
    let ok = format!(
        "{}x{}",
        "(".repeat(MAX_NESTING as usize - 2),
        ")".repeat(MAX_NESTING as usize - 2)
    );
    let sys = crate::parse_smv(
        "t.smv",
        &format!("MODULE main\nIVAR x : boolean;\nINVAR {ok}"),
    );
    assert!(sys.is_ok(), "{:?}", sys.err().map(|e| e.to_string()));
}

#[test]
fn unsupported_constructs_are_named() {
    let cases = [
        ("INVAR x in {1, 2}", "operator `in` is not supported yet"),
        ("INVAR a.b", "module instances"),
        ("INVAR a[1]", "array indexing"),
        ("INVAR toint(a) = 1", "function `toint(…)`"),
        ("INVAR 0ud8_5 = a", "word constants"),
        ("VAR w : unsigned word[4];", "word types"),
        ("VAR w : integer;", "infinite types"),
        (
            "CONSTANTS a, b;",
            "`CONSTANTS` sections are not supported yet",
        ),
    ];
    for (body, want) in cases {
        let err = program(&format!("MODULE main\n{body}")).unwrap_err();
        assert!(err.message.contains(want), "{body}: {}", err.message);
    }
}
