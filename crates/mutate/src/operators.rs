//! Mutation operators on IR expressions that came from source.

use serde::{Deserialize, Serialize};

use hypermut_ir::{BinOp, ExprId, ExprKind, Span, System, Type, Value};

/// A mutation operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Operator {
    /// Relational operator replacement: one of `= != < <= > >=` by another.
    Ror,
    /// Integer constant replaced by itself plus one.
    ConstPlusOne,
    /// Integer constant replaced by itself minus one.
    ConstMinusOne,
}

impl Operator {
    /// Every operator, in the order mutants are numbered.
    pub const ALL: [Operator; 3] = [
        Operator::Ror,
        Operator::ConstPlusOne,
        Operator::ConstMinusOne,
    ];

    /// Short name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Operator::Ror => "ror",
            Operator::ConstPlusOne => "const+1",
            Operator::ConstMinusOne => "const-1",
        }
    }
}

/// How the mutated node is rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edit {
    /// Replace the binary operator.
    BinOp(BinOp),
    /// Replace the integer constant.
    IntConst(i64),
}

/// One first-order mutant: an edit of a single source expression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Stable id (0-based, ordered by source position, then operator, then replacement).
    pub id: usize,
    /// The operator that produced it.
    pub operator: Operator,
    /// The mutated expression node.
    pub site: ExprId,
    /// Source range of the mutated expression.
    pub span: Span,
    /// The original source text of the mutated expression.
    pub original: String,
    /// The replacement text (in the source language).
    pub replacement: String,
    /// The edit applied to the node.
    pub edit: Edit,
}

const RELATIONAL: [BinOp; 6] = [
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
];

/// The source language a mutated text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// NuSMV.
    Smv,
    /// Verilog.
    Verilog,
}

impl Syntax {
    /// The language of the file named `name`, by its extension (NuSMV unless Verilog's).
    pub fn of_file(name: &str) -> Syntax {
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        match ext {
            "v" | "sv" | "vh" | "vl" | "svh" => Syntax::Verilog,
            _ => Syntax::Smv,
        }
    }
}

/// Spelling of a relational operator in `syntax`.
fn rel_symbol(op: BinOp, syntax: Syntax) -> &'static str {
    match (op, syntax) {
        (BinOp::Eq, Syntax::Verilog) => "==",
        _ => op.symbol(),
    }
}

/// Replaces the operator token inside `text` (the text of `a OP b`), keeping operands.
fn replace_operator(text: &str, lhs_len: usize, rhs_start: usize, new: &str) -> String {
    let (head, rest) = text.split_at(lhs_len.min(text.len()));
    let tail = &rest[rhs_start.saturating_sub(lhs_len).min(rest.len())..];
    let op_region = &rest[..rest.len() - tail.len()];
    let lead = &op_region[..op_region.len() - op_region.trim_start().len()];
    let trail = &op_region[op_region.trim_end().len()..];
    format!("{head}{lead}{new}{trail}{tail}")
}

/// All mutants of a system, with stable ids. Only expressions with a source span are mutated,
/// and every mutant is type-correct and differs textually from the original.
pub fn enumerate(sys: &System, operators: &[Operator]) -> Vec<Mutant> {
    let mut out: Vec<Mutant> = Vec::new();
    for id in sys.exprs.cone(sys.roots()) {
        let node = sys.exprs.node(id);
        let Some(span) = node.span else { continue };
        let original = sys.sources.snippet(span).to_string();
        let syntax = sys
            .sources
            .file(span.file)
            .map_or(Syntax::Smv, |f| Syntax::of_file(&f.name));
        match &node.kind {
            ExprKind::Binary(op, a, b)
                if op.is_relational() && operators.contains(&Operator::Ror) =>
            {
                let (ta, tb) = (sys.ty(*a), sys.ty(*b));
                let ordered = matches!(
                    (ta, tb),
                    (Type::Int { .. }, Type::Int { .. })
                        | (Type::BitVec { .. }, Type::BitVec { .. })
                );
                let (Some(sa), Some(sb)) = (sys.exprs.node(*a).span, sys.exprs.node(*b).span)
                else {
                    continue;
                };
                for new in RELATIONAL {
                    if new == *op || (!ordered && !matches!(new, BinOp::Eq | BinOp::Ne)) {
                        continue;
                    }
                    // Operands inside the node's text (the usual case): splice the operator.
                    // Otherwise (e.g. an operand expanded from a macro defined elsewhere)
                    // spell the expression from the operands' texts.
                    let inside = sa.file == span.file
                        && sb.file == span.file
                        && span.start <= sa.end
                        && sa.end <= sb.start
                        && sb.start <= span.end;
                    let replacement = if inside {
                        replace_operator(
                            &original,
                            (sa.end - span.start) as usize,
                            (sb.start - span.start) as usize,
                            rel_symbol(new, syntax),
                        )
                    } else {
                        format!(
                            "{} {} {}",
                            sys.sources.snippet(sa),
                            rel_symbol(new, syntax),
                            sys.sources.snippet(sb)
                        )
                    };
                    out.push(Mutant {
                        id: 0,
                        operator: Operator::Ror,
                        site: id,
                        span,
                        original: original.clone(),
                        replacement,
                        edit: Edit::BinOp(new),
                    });
                }
            }
            ExprKind::Const(Value::Int(v)) => {
                for (op, delta) in [
                    (Operator::ConstPlusOne, 1i64),
                    (Operator::ConstMinusOne, -1),
                ] {
                    if !operators.contains(&op) {
                        continue;
                    }
                    let Some(n) = v.checked_add(delta) else {
                        continue;
                    };
                    out.push(Mutant {
                        id: 0,
                        operator: op,
                        site: id,
                        span,
                        original: original.clone(),
                        replacement: n.to_string(),
                        edit: Edit::IntConst(n),
                    });
                }
            }
            _ => {}
        }
    }
    out.sort_by(|x, y| {
        (
            x.span.file,
            x.span.start,
            x.span.end,
            x.operator,
            &x.replacement,
        )
            .cmp(&(
                y.span.file,
                y.span.start,
                y.span.end,
                y.operator,
                &y.replacement,
            ))
    });
    for (i, m) in out.iter_mut().enumerate() {
        m.id = i;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::Role;

    fn sample() -> (System, ExprId) {
        sample_in("t.smv")
    }

    fn sample_in(file: &str) -> (System, ExprId) {
        let mut s = System::new("t");
        let f = s.sources.add(file, "x <= 2");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::State, None);
        let xr = s.var_ref(x, Some(Span::new(f, 0, 1)));
        let two = s.int_const(2, Some(Span::new(f, 5, 6)));
        let le = s
            .mk(
                ExprKind::Binary(BinOp::Le, xr, two),
                Some(Span::new(f, 0, 6)),
            )
            .unwrap();
        s.outputs.push(hypermut_ir::Output {
            name: "o".into(),
            expr: le,
        });
        (s, le)
    }

    #[test]
    fn replacements_are_spelled_in_the_source_language() {
        for (file, eq) in [("m.smv", "x = 2"), ("d.v", "x == 2"), ("d.sv", "x == 2")] {
            let (s, _) = sample_in(file);
            let texts: Vec<String> = enumerate(&s, &[Operator::Ror])
                .into_iter()
                .map(|m| m.replacement)
                .collect();
            assert!(texts.iter().any(|t| t == eq), "{file}: {texts:?}");
            assert!(texts.iter().any(|t| t == "x != 2"), "{file}: {texts:?}");
        }
    }

    #[test]
    fn ror_and_constants_are_enumerated_with_text() {
        let (s, le) = sample();
        let ms = enumerate(&s, &Operator::ALL);
        let texts: Vec<_> = ms
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
            ]
        );
        assert!(ms[..5]
            .iter()
            .all(|m| m.site == le && m.original == "x <= 2"));
        assert_eq!(
            ms.iter().map(|m| m.id).collect::<Vec<_>>(),
            (0..7).collect::<Vec<_>>()
        );
    }

    #[test]
    fn enum_comparisons_only_swap_equality() {
        let mut s = System::new("t");
        let f = s.sources.add("t.smv", "a = b");
        let e = s.add_enum("e", vec!["b".into(), "c".into()]);
        let a = s.add_var("a", Type::Enum(e), Role::Input, None);
        let ar = s.var_ref(a, Some(Span::new(f, 0, 1)));
        let b = s.enum_const(e, 0, Some(Span::new(f, 4, 5)));
        let eq = s
            .mk(ExprKind::Binary(BinOp::Eq, ar, b), Some(Span::new(f, 0, 5)))
            .unwrap();
        s.outputs.push(hypermut_ir::Output {
            name: "o".into(),
            expr: eq,
        });
        let ms = enumerate(&s, &Operator::ALL);
        assert_eq!(ms.len(), 1);
        assert_eq!(ms[0].replacement, "a != b");
    }
}
