use hypermut_ir::{FileId, UnOp};

use super::*;
use crate::ast::{BinOp, ExprKind, Section, TypeKind};
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
        ExprKind::Word(w) => format!("w{}:{}", w.width, w.value),
        ExprKind::Ident(n) => n.clone(),
        ExprKind::SelfRef => "self".into(),
        ExprKind::Field(a, f) => format!("(. {} {})", sexp(a), f.name),
        ExprKind::Index(a, i) => format!("([] {} {})", sexp(a), sexp(i)),
        ExprKind::BitSelect(a, h, l) => format!("([:] {} {} {})", sexp(a), sexp(h), sexp(l)),
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
        ExprKind::Range(a, b) => format!("(.. {} {})", sexp(a), sexp(b)),
        ExprKind::Call(_, f, args) => {
            let parts: Vec<String> = args.iter().map(sexp).collect();
            format!("({} {})", f.name, parts.join(" "))
        }
        ExprKind::Temporal(op, args) => {
            let parts: Vec<String> = args.iter().map(sexp).collect();
            format!("({op:?} {})", parts.join(" "))
        }
    }
}

/// The formula of a lone specification section in `main`.
fn spec(kind: &str, e: &str) -> crate::ast::Spec {
    let text = format!("MODULE main\n{kind} {e}");
    let p = program(&text).unwrap_or_else(|d| panic!("{e}: {}", d.message));
    match &p.modules[0].sections[0] {
        Section::Spec(s) => s.clone(),
        s => panic!("unexpected section {s:?}"),
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
        ("a xor b xnor c", "(xnor (xor a b) c)"),
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
        ("x in {1, 2} union y", "(in x (union {1 2} y))"),
        ("a = b in c", "(= a (in b c))"),
        ("w << 1 + 2", "(<< w (+ 1 2))"),
        ("a :: b * c", "(* (:: a b) c)"),
        ("-a[1]", "(neg ([] a 1))"),
        ("!s.x = y", "(= (! (. s x)) y)"),
        ("x in 1..3", "(in x (.. 1 3))"),
        ("a.b[i + 1].c", "(. ([] (. a b) (+ i 1)) c)"),
        ("w[7:4] = 0ub4_0011", "(= ([:] w 7 4) w4:3)"),
        ("toint(a) + count(b, c)", "(+ (toint a) (count b c))"),
        ("self.x & signed(w) = w", "(& (. self x) (= (signed w) w))"),
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
fn temporal_operators_bind_like_nusmv() {
    let cases = [
        ("CTLSPEC", "AG p -> q", "(-> (Ag p) q)"),
        ("CTLSPEC", "AG (p -> q)", "(Ag (-> p q))"),
        ("CTLSPEC", "AG x = 1", "(Ag (= x 1))"),
        ("CTLSPEC", "AG !(a & b)", "(Ag (! (& a b)))"),
        ("CTLSPEC", "! EF p", "(! (Ef p))"),
        ("CTLSPEC", "A [ p U q & r ]", "(Au p (& q r))"),
        ("CTLSPEC", "AG (p -> AF q)", "(Ag (-> p (Af q)))"),
        ("LTLSPEC", "G F p", "(G (F p))"),
        ("LTLSPEC", "p U q & r", "(& (U p q) r)"),
        ("LTLSPEC", "G (x -> X y)", "(G (-> x (X y)))"),
        ("CTLSPEC", "EBF 0..3 p", "(Bounded p)"),
    ];
    for (kind, src, want) in cases {
        assert_eq!(sexp(&spec(kind, src).expr), want, "{kind} {src}");
    }
    // Outside specifications the letters are ordinary names.
    assert_eq!(sexp(&invar("G & F")), "(& G F)");
}

#[test]
fn types_and_sections() {
    let text = "MODULE main\nVAR a : -3..-1; b : {p, q, 2}; c : boolean; d : lo..5;\n\
                e : unsigned word[4]; f : signed word[N + 1]; g : array 0..2 of array 1..2 of boolean;\n\
                h : sub(a, b); i : process sub(self, 1);\n\
                SPEC NAME s1 := AG (a = -1) LTLSPEC G F b\nPSLSPEC @ ! -- junk is skipped\n\
                FROZENVAR f2 : boolean;\nCONSTANTS k1, k2;\nISA other\n\
                DEFINE arr := [1, [2, 3]]; p.q := 1;\nCOMPASSION (a, b)\nJUSTICE a\n\
                INVARSPEC x = 1;\nCOMPUTE MIN [a, b]";
    let p = program(text).unwrap_or_else(|d| panic!("{}", d.message));
    let m = &p.modules[0];
    let Section::Vars(_, decls) = &m.sections[0] else {
        panic!("no VAR")
    };
    assert!(matches!(&decls[0].ty.kind, TypeKind::Range(lo, hi)
        if sexp(lo) == "-3" && sexp(hi) == "-1"));
    assert!(matches!(&decls[1].ty.kind, TypeKind::Enum(v) if v.len() == 3));
    assert!(matches!(&decls[2].ty.kind, TypeKind::Boolean));
    assert!(matches!(&decls[3].ty.kind, TypeKind::Range(lo, _) if sexp(lo) == "lo"));
    assert!(matches!(
        &decls[4].ty.kind,
        TypeKind::Word { signed: false, .. }
    ));
    assert!(
        matches!(&decls[5].ty.kind, TypeKind::Word { signed: true, width } if sexp(width) == "(+ N 1)")
    );
    assert!(matches!(&decls[6].ty.kind, TypeKind::Array(_, _, inner)
        if matches!(inner.kind, TypeKind::Array(..))));
    assert!(
        matches!(&decls[7].ty.kind, TypeKind::Module { name, args, process: false }
        if name.name == "sub" && args.len() == 2)
    );
    assert!(
        matches!(&decls[8].ty.kind, TypeKind::Module { process: true, args, .. }
        if matches!(args[0].kind, ExprKind::SelfRef))
    );
    let kinds: Vec<String> = m.sections[1..]
        .iter()
        .map(|s| match s {
            Section::Spec(sp) => format!(
                "{:?}:{}",
                sp.kind,
                sp.name.as_ref().map_or("", |n| n.name.as_str())
            ),
            Section::Skipped(k) => k.name.clone(),
            Section::Vars(k, _) => k.keyword().to_string(),
            Section::Constants(c) => format!("CONSTANTS:{}", c.len()),
            Section::Isa(m) => format!("ISA:{}", m.name),
            Section::Defines(d) => format!("DEFINE:{}", d.len()),
            Section::Fairness(_, k, e) => format!("{}:{}", k.name, e.len()),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "Ctl:s1",
            "Ltl:",
            "PSLSPEC",
            "FROZENVAR",
            "CONSTANTS:2",
            "ISA:other",
            "DEFINE:2",
            "COMPASSION:2",
            "JUSTICE:1",
            "Invar:",
            "COMPUTE"
        ]
    );
    let Section::Defines(defs) = &m.sections[7] else {
        panic!("no DEFINE")
    };
    assert!(matches!(&defs[0].body, crate::ast::DefineBody::Array(items, _) if items.len() == 2));
    assert_eq!(defs[1].suffix, vec![crate::ast::Suffix::Field("q".into())]);
}

#[test]
fn every_module_is_parsed() {
    let text = "MODULE sub(a)\nVAR x : process foo(a[1]);\nMODULE main\nVAR y : boolean;";
    let p = program(text).unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(p.modules.len(), 2);
    assert_eq!(p.modules[0].name.name, "sub");
    assert_eq!(p.modules[0].params.len(), 1);
    assert_eq!(p.modules[0].sections.len(), 1);
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
fn syntax_errors_are_located() {
    let cases = [
        ("INVAR x in", "expected an expression, found end of file"),
        ("VAR w : signed wrd[4];", "expected `word`"),
        ("VAR w : array 0..2 boolean;", "expected `of`"),
        ("INVAR foo(1)", "unknown function `foo`"),
        ("INVAR toint(1, 2)", "`toint` takes 1 argument, found 2"),
        ("CTLSPEC A [ p & q ]", "expected `U`"),
        ("VAR x : {a, TRUE};", "TRUE and FALSE cannot be values"),
        ("DEFINE d := [1, 2;", "expected `]`"),
        ("SPEC AG p IN m", "`IN` context"),
        ("INVAR 0ud3_9 = x", "does not fit in 3 bits"),
    ];
    for (body, want) in cases {
        let err = program(&format!("MODULE main\n{body}")).unwrap_err();
        assert!(err.message.contains(want), "{body}: {}", err.message);
    }
}
