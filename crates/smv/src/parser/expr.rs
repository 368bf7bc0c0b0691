//! Expressions, by NuSMV 2.5's grammar (loosest first):
//! `->` (right) · `<->` · `? :` · `| xor xnor` · `&` · LTL `U S V T` · temporal prefix
//! operators (`AG`, `G`, …) · `= != < > <= >=` · `in` · `union` · `a..b` · `<< >>` · `+ -` ·
//! `* / mod` · `::` · primary (`!`, unary `-`, `.`, `[i]`, `[h:l]`, literals, calls, `case`,
//! sets). As in NuSMV, `!` and unary `-` apply to a primary expression: `!a = b` is
//! `(!a) = b`. Temporal operators are only recognised inside CTL/LTL specifications.

use hypermut_ir::{Span, UnOp};

use crate::ast::{BinOp, CaseBranch, Expr, ExprKind, Ident, TempOp, BUILTINS, TEMPORAL_PREFIX};
use crate::error::{Diag, LINE};
use crate::lexer::Tok;

use super::decl::parse_int;
use super::{Parser, MAX_NESTING};

/// Operators of one precedence level: token text and operator.
type Level = &'static [(&'static str, BinOp)];

const IMPLIES: Level = &[("->", BinOp::Implies)];
const IFF: Level = &[("<->", BinOp::Iff)];
const OR: Level = &[("|", BinOp::Or), ("xor", BinOp::Xor), ("xnor", BinOp::Xnor)];
const AND: Level = &[("&", BinOp::And)];
const LTL_BINARY: Level = &[
    ("U", BinOp::Until),
    ("S", BinOp::Since),
    ("V", BinOp::Releases),
    ("T", BinOp::Triggered),
];
const REL: Level = &[
    ("=", BinOp::Eq),
    ("!=", BinOp::Ne),
    ("<", BinOp::Lt),
    ("<=", BinOp::Le),
    (">", BinOp::Gt),
    (">=", BinOp::Ge),
];
const IN: Level = &[("in", BinOp::In)];
const UNION: Level = &[("union", BinOp::Union)];
const SHIFT: Level = &[("<<", BinOp::Shl), (">>", BinOp::Shr)];
const ADD: Level = &[("+", BinOp::Add), ("-", BinOp::Sub)];
const MUL: Level = &[("*", BinOp::Mul), ("/", BinOp::Div), ("mod", BinOp::Mod)];
const CONCAT: Level = &[("::", BinOp::Concat)];

/// Bounded CTL operators, parsed (to be skipped) but not interpreted.
const BOUNDED_CTL: &[&str] = &["EBF", "ABF", "EBG", "ABG"];

impl Parser<'_> {
    /// A full expression.
    pub(crate) fn expr(&mut self) -> Result<Expr, Diag> {
        self.nested(|p| p.chain(IMPLIES, true, Parser::iff))
    }

    /// A range bound or other constant: an expression at the shift level (no `..`).
    pub(crate) fn bound_expr(&mut self) -> Result<Expr, Diag> {
        self.nested(|p| p.chain(SHIFT, false, Parser::add))
    }

    /// Runs `f` one nesting level deeper, refusing absurdly deep nesting.
    pub(super) fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, Diag>,
    ) -> Result<T, Diag> {
        if self.nesting >= MAX_NESTING {
            return Err(Diag::new(
                self.peek().span,
                format!("expression nested too deeply (more than {MAX_NESTING} levels)"),
            ));
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }

    /// Which operator of `level` the current token is. LTL letters count only in specs.
    fn level_op(&self, level: Level) -> Option<BinOp> {
        let t = self.peek();
        level
            .iter()
            .find(|(s, op)| {
                t.is_sym(s) || t.is_kw(s) || (op.is_temporal() && self.in_spec && t.is_ident(s))
            })
            .map(|(_, op)| *op)
    }

    /// `operand (op operand)*` for the operators of one level.
    fn chain(
        &mut self,
        level: Level,
        right_assoc: bool,
        operand: fn(&mut Self) -> Result<Expr, Diag>,
    ) -> Result<Expr, Diag> {
        let first = operand(self)?;
        let mut rest = Vec::new();
        while let Some(op) = self.level_op(level) {
            self.bump();
            rest.push((op, operand(self)?));
        }
        Ok(match rest.last() {
            None => first,
            Some((_, last)) => {
                let span = self.join(first.span, last.span);
                Expr {
                    kind: ExprKind::Chain {
                        first: Box::new(first),
                        rest,
                        right_assoc,
                    },
                    span,
                }
            }
        })
    }

    fn iff(&mut self) -> Result<Expr, Diag> {
        self.chain(IFF, false, Parser::ite)
    }

    /// `or ? expr : ite`.
    fn ite(&mut self) -> Result<Expr, Diag> {
        let c = self.chain(OR, false, Parser::and)?;
        if self.eat_sym("?").is_none() {
            return Ok(c);
        }
        self.nested(|p| {
            let a = p.expr()?;
            p.expect_sym(":")?;
            let b = p.ite()?;
            let span = p.join(c.span, b.span);
            Ok(Expr {
                kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
                span,
            })
        })
    }

    fn and(&mut self) -> Result<Expr, Diag> {
        self.chain(AND, false, Parser::ltl_binary)
    }

    fn ltl_binary(&mut self) -> Result<Expr, Diag> {
        self.chain(LTL_BINARY, false, Parser::temporal)
    }

    /// The temporal operator keyword at the cursor, in a specification.
    fn temporal_op(&self) -> Option<TempOp> {
        if !self.in_spec {
            return None;
        }
        let Tok::Ident(name) = &self.peek().tok else {
            return None;
        };
        if let Some((_, op)) = TEMPORAL_PREFIX.iter().find(|(k, _)| k == name) {
            return Some(*op);
        }
        if (name == "A" || name == "E") && self.peek2().is_sym("[") {
            return Some(if name == "A" { TempOp::Au } else { TempOp::Eu });
        }
        BOUNDED_CTL
            .contains(&name.as_str())
            .then_some(TempOp::Bounded)
    }

    /// A temporal prefix operator applied to a temporal-level operand, or a relation.
    fn temporal(&mut self) -> Result<Expr, Diag> {
        let Some(op) = self.temporal_op() else {
            return self.rel();
        };
        self.nested(|p| {
            let start = p.bump().span;
            let args = match op {
                TempOp::Au | TempOp::Eu => {
                    p.expect_sym("[")?;
                    let a = p.expr_until_temporal()?;
                    let bounded = p.peek().is_ident("BU");
                    if !p.peek().is_ident("U") && !bounded {
                        return Err(p.unexpected("`U` in `A[p U q]` / `E[p U q]`"));
                    }
                    p.bump();
                    if bounded {
                        p.range_literal()?;
                    }
                    let b = p.expr_until_temporal()?;
                    p.expect_sym("]")?;
                    vec![a, b]
                }
                TempOp::Bounded => {
                    p.range_literal()?;
                    vec![p.temporal()?]
                }
                _ => vec![p.temporal()?],
            };
            let last = args.last().map_or(start, |a| a.span);
            let end = if matches!(op, TempOp::Au | TempOp::Eu) {
                p.toks[p.pos.saturating_sub(1)].span
            } else {
                last
            };
            Ok(Expr {
                kind: ExprKind::Temporal(op, args),
                span: p.join(start, end),
            })
        })
    }

    /// An operand of `A[… U …]`: an expression in which `U` is not an LTL operator.
    fn expr_until_temporal(&mut self) -> Result<Expr, Diag> {
        let saved = self.in_spec;
        // CTL's propositional part: temporal prefixes stay available, `U` ends the operand.
        let e = self.nested(|p| p.chain(IMPLIES, true, Parser::ctl_iff));
        self.in_spec = saved;
        e
    }

    fn ctl_iff(&mut self) -> Result<Expr, Diag> {
        self.chain(IFF, false, Parser::ctl_or)
    }

    fn ctl_or(&mut self) -> Result<Expr, Diag> {
        self.chain(OR, false, Parser::ctl_and)
    }

    fn ctl_and(&mut self) -> Result<Expr, Diag> {
        self.chain(AND, false, Parser::temporal)
    }

    /// `n..m` with integer literals (bounded CTL operators).
    fn range_literal(&mut self) -> Result<(), Diag> {
        self.add()?;
        self.expect_sym("..")?;
        self.add()?;
        Ok(())
    }

    fn rel(&mut self) -> Result<Expr, Diag> {
        self.chain(REL, false, Parser::in_level)
    }

    fn in_level(&mut self) -> Result<Expr, Diag> {
        self.chain(IN, false, Parser::union)
    }

    fn union(&mut self) -> Result<Expr, Diag> {
        self.chain(UNION, false, Parser::range)
    }

    /// `shift [.. shift]`: an integer range used as a set.
    fn range(&mut self) -> Result<Expr, Diag> {
        let lo = self.chain(SHIFT, false, Parser::add)?;
        if self.eat_sym("..").is_none() {
            return Ok(lo);
        }
        let hi = self.chain(SHIFT, false, Parser::add)?;
        let span = self.join(lo.span, hi.span);
        Ok(Expr {
            kind: ExprKind::Range(Box::new(lo), Box::new(hi)),
            span,
        })
    }

    fn add(&mut self) -> Result<Expr, Diag> {
        self.chain(ADD, false, Parser::mul)
    }

    fn mul(&mut self) -> Result<Expr, Diag> {
        self.chain(MUL, false, Parser::concat)
    }

    fn concat(&mut self) -> Result<Expr, Diag> {
        self.chain(CONCAT, false, Parser::primary)
    }

    /// `!p`, `-p` (a literal directly after `-` becomes a negative literal), or a postfix
    /// term.
    fn primary(&mut self) -> Result<Expr, Diag> {
        let t = self.peek();
        let op = if t.is_sym("!") {
            UnOp::Not
        } else if t.is_sym("-") {
            UnOp::Neg
        } else {
            let e = self.atom()?;
            return self.postfix(e);
        };
        self.bump();
        if op == UnOp::Neg {
            if let Tok::Int(digits) = &self.peek().tok {
                if !self.peek2().is_sym("[") && !self.peek2().is_sym(".") {
                    let lit = self.bump().span;
                    let span = self.join(t.span, lit);
                    let v = parse_int(digits, true).ok_or_else(|| {
                        Diag::new(
                            span,
                            format!("integer constant `{}` is out of range", self.text_of(span)),
                        )
                    })?;
                    return Ok(Expr {
                        kind: ExprKind::Int(v),
                        span,
                    });
                }
            }
        }
        self.nested(|p| {
            // `! AG p`: negation of a temporal formula.
            let a = if op == UnOp::Not && p.temporal_op().is_some() {
                p.temporal()?
            } else {
                p.primary()?
            };
            let span = p.join(t.span, a.span);
            Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(a)),
                span,
            })
        })
    }

    /// `.name`, `[i]` and `[h:l]` after a term.
    fn postfix(&mut self, mut e: Expr) -> Result<Expr, Diag> {
        loop {
            if self.peek().is_sym(".") {
                self.bump();
                let t = self.peek();
                let f = match &t.tok {
                    Tok::Ident(n) => Ident {
                        name: n.clone(),
                        span: self.bump().span,
                    },
                    Tok::Int(n) => Ident {
                        name: n.clone(),
                        span: self.bump().span,
                    },
                    _ => return Err(self.unexpected("a member name after `.`")),
                };
                let span = self.join(e.span, f.span);
                e = Expr {
                    kind: ExprKind::Field(Box::new(e), f),
                    span,
                };
            } else if self.peek().is_sym("[") {
                self.bump();
                let i = self.expr()?;
                if self.eat_sym(":").is_some() {
                    let l = self.expr()?;
                    let close = self.expect_sym("]")?;
                    let span = self.join(e.span, close);
                    e = Expr {
                        kind: ExprKind::BitSelect(Box::new(e), Box::new(i), Box::new(l)),
                        span,
                    };
                } else {
                    let close = self.expect_sym("]")?;
                    let span = self.join(e.span, close);
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(i)),
                        span,
                    };
                }
            } else {
                return Ok(e);
            }
        }
    }

    /// Literals, names, calls, `next(…)`, parentheses, sets and `case`.
    fn atom(&mut self) -> Result<Expr, Diag> {
        let t = self.peek();
        let leaf = |kind| Expr { kind, span: t.span };
        match &t.tok {
            Tok::Int(digits) => {
                let v = parse_int(digits, false).ok_or_else(|| {
                    Diag::new(
                        t.span,
                        format!("integer constant `{digits}` is out of range"),
                    )
                })?;
                self.bump();
                Ok(leaf(ExprKind::Int(v)))
            }
            Tok::Word(w) => {
                self.bump();
                Ok(leaf(ExprKind::Word(w.clone())))
            }
            Tok::Kw("TRUE") | Tok::Kw("FALSE") => {
                self.bump();
                Ok(leaf(ExprKind::Bool(t.is_kw("TRUE"))))
            }
            Tok::Sym("+") if matches!(self.peek2().tok, Tok::Int(_)) => {
                self.bump();
                self.atom()
            }
            Tok::Ident(name) => {
                if self.peek2().is_sym("(") {
                    return self.call(name);
                }
                if self.in_spec && self.temporal_op().is_some() {
                    return self.temporal();
                }
                self.bump();
                Ok(leaf(ExprKind::Ident(name.clone())))
            }
            Tok::Kw("signed") | Tok::Kw("unsigned") if self.peek2().is_sym("(") => {
                let name = if t.is_kw("signed") {
                    "signed"
                } else {
                    "unsigned"
                };
                self.call(name)
            }
            Tok::Kw("self") => {
                self.bump();
                Ok(leaf(ExprKind::SelfRef))
            }
            Tok::Kw("next") => {
                self.bump();
                self.expect_sym("(")?;
                let a = self.expr()?;
                let close = self.expect_sym(")")?;
                Ok(Expr {
                    kind: ExprKind::Next(Box::new(a)),
                    span: self.join(t.span, close),
                })
            }
            Tok::Kw("init") => Err(Diag::new(
                t.span,
                "`init(…)` may only appear on the left-hand side of an assignment",
            )),
            Tok::Kw("case") => self.case(),
            Tok::Sym("(") => {
                self.bump();
                let inner = self.expr()?;
                let close = self.expect_sym(")")?;
                Ok(Expr {
                    kind: inner.kind,
                    span: self.join(t.span, close),
                })
            }
            Tok::Sym("{") => self.set(),
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// `name(args)` for a built-in function `name` (at the cursor).
    fn call(&mut self, name: &str) -> Result<Expr, Diag> {
        let name_span = self.bump().span;
        let Some((_, f, arity)) = BUILTINS.iter().find(|(n, _, _)| *n == name) else {
            return Err(Diag::new(name_span, format!("unknown function `{name}`")));
        };
        self.expect_sym("(")?;
        let mut args = Vec::new();
        let close = loop {
            args.push(self.expr()?);
            if self.eat_sym(",").is_some() {
                continue;
            }
            break self.expect_sym(")")?;
        };
        let span = self.join(name_span, close);
        if let Some(n) = arity {
            if args.len() != *n {
                return Err(Diag::new(
                    span,
                    format!(
                        "`{name}` takes {n} argument{}, found {}",
                        if *n == 1 { "" } else { "s" },
                        args.len()
                    ),
                ));
            }
        }
        Ok(Expr {
            kind: ExprKind::Call(
                *f,
                Ident {
                    name: name.to_string(),
                    span: name_span,
                },
                args,
            ),
            span,
        })
    }

    /// `{e1, e2, …}`.
    fn set(&mut self) -> Result<Expr, Diag> {
        let open = self.bump().span;
        if self.peek().is_sym("}") {
            return Err(Diag::new(self.peek().span, "empty set expression"));
        }
        let mut items = Vec::new();
        loop {
            items.push(self.expr()?);
            if self.eat_sym(",").is_some() {
                continue;
            }
            if let Some(close) = self.eat_sym("}") {
                return Ok(Expr {
                    kind: ExprKind::Set(items),
                    span: self.join(open, close),
                });
            }
            if matches!(self.peek().tok, Tok::Bad(_)) {
                return Err(self.unexpected(""));
            }
            return Err(Diag::new(
                self.peek().span,
                format!(
                    "unterminated set expression: expected `,` or `}}`, found {}",
                    self.found()
                ),
            ));
        }
    }

    /// `case c1 : e1; … esac`.
    fn case(&mut self) -> Result<Expr, Diag> {
        let open = self.bump().span;
        let missing = |at: Span| {
            Diag::new(
                at,
                format!("missing `esac`: the `case` on {LINE} is not closed"),
            )
            .with_line_of(open)
        };
        let mut branches = Vec::new();
        loop {
            let t = self.peek();
            if t.is_kw("esac") {
                let close = self.bump().span;
                if branches.is_empty() {
                    return Err(Diag::new(open, "`case` without branches"));
                }
                return Ok(Expr {
                    kind: ExprKind::Case(branches),
                    span: self.join(open, close),
                });
            }
            // A section keyword or `init(` (only legal on an assignment's left) cannot start
            // a branch: the `case` was left open.
            if t.is_section_start() || t.is_kw("init") {
                return Err(missing(t.span));
            }
            let cond = self.expr()?;
            if self.peek().is_sym(":=") {
                return Err(missing(cond.span));
            }
            self.expect_sym(":")?;
            let value = self.expr()?;
            self.expect_sym(";")?;
            branches.push(CaseBranch { cond, value });
        }
    }
}
