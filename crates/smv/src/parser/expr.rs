//! Expressions, by NuSMV precedence (lowest first):
//! `->` (right) · `<->` · `? :` · `| xor xnor` · `&` · `= != < > <= >=` · `in` · `union` ·
//! `<< >>` · `+ -` · `* / mod` · `! -` (unary). `in`, `union` and shifts are recognised and
//! reported as not supported yet.

use hypermut_ir::{BinOp, UnOp};

use crate::ast::{CaseBranch, Expr, ExprKind};
use crate::error::Diag;
use crate::lexer::Tok;

use super::decl::parse_int;
use super::{Parser, MAX_NESTING};

/// Operators of one precedence level: token text and IR operator.
type Level = &'static [(&'static str, BinOp)];

const IMPLIES: Level = &[("->", BinOp::Implies)];
const IFF: Level = &[("<->", BinOp::Iff)];
/// `xnor` is equivalence on booleans, so it maps to `Iff` (at the `|` precedence).
const OR: Level = &[("|", BinOp::Or), ("xor", BinOp::Xor), ("xnor", BinOp::Iff)];
const AND: Level = &[("&", BinOp::And)];
const REL: Level = &[
    ("=", BinOp::Eq),
    ("!=", BinOp::Ne),
    ("<", BinOp::Lt),
    ("<=", BinOp::Le),
    (">", BinOp::Gt),
    (">=", BinOp::Ge),
];
const ADD: Level = &[("+", BinOp::Add), ("-", BinOp::Sub)];
const MUL: Level = &[("*", BinOp::Mul), ("/", BinOp::Div), ("mod", BinOp::Mod)];

/// Operators between relational and additive precedence that are not supported yet.
const UNSUPPORTED_OPS: &[&str] = &["in", "union", "<<", ">>"];

impl Parser<'_> {
    /// A full expression.
    pub(crate) fn expr(&mut self) -> Result<Expr, Diag> {
        self.nested(|p| p.chain(IMPLIES, true, Parser::iff))
    }

    /// Runs `f` one nesting level deeper, refusing absurdly deep nesting.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Diag>) -> Result<T, Diag> {
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

    /// Which operator of `level` the current token is.
    fn level_op(&self, level: Level) -> Option<BinOp> {
        let t = self.peek();
        level
            .iter()
            .find(|(s, _)| t.is_sym(s) || t.is_kw(s))
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

    /// `or ? ite : ite`.
    fn ite(&mut self) -> Result<Expr, Diag> {
        let c = self.chain(OR, false, Parser::and)?;
        if self.eat_sym("?").is_none() {
            return Ok(c);
        }
        self.nested(|p| {
            let a = p.ite()?;
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
        self.chain(AND, false, Parser::rel)
    }

    fn rel(&mut self) -> Result<Expr, Diag> {
        self.chain(REL, false, Parser::unsupported_level)
    }

    /// The `in`, `union` and shift levels: parsed as additive, their operators rejected.
    fn unsupported_level(&mut self) -> Result<Expr, Diag> {
        let e = self.chain(ADD, false, Parser::mul)?;
        let t = self.peek();
        if let Some(op) = UNSUPPORTED_OPS.iter().find(|s| t.is_sym(s) || t.is_kw(s)) {
            return Err(Diag::new(
                t.span,
                format!("operator `{op}` is not supported yet"),
            ));
        }
        Ok(e)
    }

    fn mul(&mut self) -> Result<Expr, Diag> {
        self.chain(MUL, false, Parser::unary)
    }

    /// `!e`, `-e` (a literal directly after `-` becomes a negative literal), or a postfix term.
    fn unary(&mut self) -> Result<Expr, Diag> {
        let t = self.peek();
        let op = if t.is_sym("!") {
            UnOp::Not
        } else if t.is_sym("-") {
            UnOp::Neg
        } else {
            return self.postfix();
        };
        self.bump();
        if op == UnOp::Neg {
            if let Tok::Int(digits) = &self.peek().tok {
                let lit = self.bump().span;
                let span = self.join(t.span, lit);
                let v = parse_int(digits, true).ok_or_else(|| {
                    Diag::new(
                        span,
                        format!("integer constant `{}` is out of range", self.text_of(span)),
                    )
                })?;
                return self.postfix_check(Expr {
                    kind: ExprKind::Int(v),
                    span,
                });
            }
        }
        self.nested(|p| {
            let a = p.unary()?;
            let span = p.join(t.span, a.span);
            Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(a)),
                span,
            })
        })
    }

    fn postfix(&mut self) -> Result<Expr, Diag> {
        let e = self.primary()?;
        self.postfix_check(e)
    }

    /// Rejects the postfix forms that are not supported yet.
    fn postfix_check(&mut self, e: Expr) -> Result<Expr, Diag> {
        let t = self.peek();
        let msg = if t.is_sym("[") {
            "array indexing and bit selection are not supported yet"
        } else if t.is_sym(".") {
            "module instances (`a.b` names) are not supported yet"
        } else if t.is_sym("::") {
            "word concatenation `::` is not supported yet"
        } else {
            return Ok(e);
        };
        Err(Diag::new(t.span, msg))
    }

    /// Literals, names, `next(…)`, parentheses, sets and `case`.
    fn primary(&mut self) -> Result<Expr, Diag> {
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
            Tok::Kw("TRUE") | Tok::Kw("FALSE") => {
                self.bump();
                Ok(leaf(ExprKind::Bool(t.is_kw("TRUE"))))
            }
            Tok::Ident(name) => {
                self.bump();
                if self.peek().is_sym("(") {
                    return Err(Diag::new(
                        t.span,
                        format!("function `{name}(…)` is not supported yet"),
                    ));
                }
                Ok(leaf(ExprKind::Ident(name.clone())))
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
            Tok::Kw("self") => Err(Diag::new(t.span, "`self` is not supported yet")),
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
        let line = self.line_of(open.start as usize);
        let missing = || format!("missing `esac`: the `case` on line {line} is not closed");
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
                return Err(Diag::new(t.span, missing()));
            }
            let cond = self.expr()?;
            if self.peek().is_sym(":=") {
                return Err(Diag::new(cond.span, missing()));
            }
            self.expect_sym(":")?;
            let value = self.expr()?;
            self.expect_sym(";")?;
            branches.push(CaseBranch { cond, value });
        }
    }

    /// 1-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }
}
