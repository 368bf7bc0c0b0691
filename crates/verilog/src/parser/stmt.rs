//! Statements of `always`/`initial` blocks, functions and tasks.

use crate::ast::{CaseKind, ExprKind, Ident, Stmt};
use crate::error::{DResult, Diag};
use crate::lexer::Tok;

use super::{join, Parser};

/// Keywords that close a construct around a statement (a statement cannot start with them).
const CLOSERS: &[&str] = &[
    "endmodule",
    "endfunction",
    "endtask",
    "endgenerate",
    "endspecify",
    "join",
    "module",
];

impl Parser<'_> {
    /// One statement.
    pub(crate) fn stmt(&mut self) -> DResult<Stmt> {
        self.nested(|p| p.stmt_inner())
    }

    /// "expected `closer` for the `opener` at …" at the current token.
    fn unclosed(&self, closer: &str, opener: &str, open: hypermut_ir::Span) -> Diag {
        Diag::new(
            self.peek().span,
            format!(
                "expected {closer} for the {opener} at {}, found {}",
                self.sources.location(open),
                self.found()
            ),
        )
    }

    fn stmt_inner(&mut self) -> DResult<Stmt> {
        let t = self.peek();
        let start = t.span;
        if let Tok::Ident(w) = &t.tok {
            if matches!(w.as_str(), "end" | "endcase" | "else") || CLOSERS.contains(&w.as_str()) {
                return Err(self.unexpected("a statement"));
            }
        }
        match &t.tok {
            Tok::Sym(";") => {
                self.bump();
                return Ok(Stmt::Null(start));
            }
            Tok::Sym("#") => {
                // A delay before a statement is ignored.
                self.skip_delay()?;
                return self.stmt();
            }
            Tok::Sym("@") => {
                self.sensitivity()?;
                let inner = self.stmt()?;
                return Ok(Stmt::Unsupported {
                    what: "an event control inside a statement".into(),
                    span: join(start, inner.span()),
                });
            }
            Tok::Sym("->") => {
                self.bump();
                self.ident()?;
                let end = self.expect_sym(";")?;
                return Ok(Stmt::Unsupported {
                    what: "an event trigger `->`".into(),
                    span: join(start, end),
                });
            }
            Tok::System(name) => {
                self.bump();
                let mut args = Vec::new();
                if self.eat_sym("(").is_some() && self.eat_sym(")").is_none() {
                    loop {
                        if !self.peek().is_sym(",") {
                            args.push(self.expr()?);
                        }
                        if self.eat_sym(",").is_none() {
                            break;
                        }
                    }
                    self.expect_sym(")")?;
                }
                let end = self.expect_sym(";")?;
                return Ok(Stmt::SysTask {
                    name: Ident {
                        name: name.clone(),
                        span: start,
                    },
                    args,
                    span: join(start, end),
                });
            }
            Tok::Ident(w) => match w.as_str() {
                "begin" => return self.block(),
                "if" => return self.if_stmt(),
                "case" | "casez" | "casex" => return self.case_stmt(),
                "for" => return self.for_stmt(),
                "while" => {
                    self.bump();
                    self.expect_sym("(")?;
                    let cond = self.expr()?;
                    self.expect_sym(")")?;
                    let body = self.stmt()?;
                    let span = join(start, body.span());
                    return Ok(Stmt::While {
                        cond,
                        body: Box::new(body),
                        span,
                    });
                }
                "repeat" => {
                    self.bump();
                    self.expect_sym("(")?;
                    let count = self.expr()?;
                    self.expect_sym(")")?;
                    let body = self.stmt()?;
                    let span = join(start, body.span());
                    return Ok(Stmt::Repeat {
                        count,
                        body: Box::new(body),
                        span,
                    });
                }
                "assert" | "assume" | "cover"
                    if self.peek_at(1).is_sym("(") || self.peek_at(1).is_word("property") =>
                {
                    // An immediate (or procedural concurrent) assertion: parsed, then ignored.
                    let word = Ident {
                        name: w.clone(),
                        span: start,
                    };
                    self.bump();
                    self.eat_word("property");
                    self.expect_sym("(")?;
                    self.expr()?;
                    let mut end = self.expect_sym(")")?;
                    if let Some(semi) = self.eat_sym(";") {
                        end = semi;
                    } else {
                        if !self.at_word("else") {
                            end = self.stmt()?.span();
                        }
                        if self.eat_word("else").is_some() {
                            end = self.stmt()?.span();
                        }
                    }
                    return Ok(Stmt::SysTask {
                        name: word,
                        args: Vec::new(),
                        span: join(start, end),
                    });
                }
                "forever" => {
                    self.bump();
                    let body = self.stmt()?;
                    return Ok(Stmt::Unsupported {
                        what: "`forever`".into(),
                        span: join(start, body.span()),
                    });
                }
                "wait" => {
                    self.bump();
                    self.expect_sym("(")?;
                    self.expr()?;
                    self.expect_sym(")")?;
                    let body = self.stmt()?;
                    return Ok(Stmt::Unsupported {
                        what: "`wait`".into(),
                        span: join(start, body.span()),
                    });
                }
                "fork" => {
                    self.bump();
                    while !self.at_word("join") {
                        if self.peek().tok == Tok::Eof {
                            return Err(Diag::new(start, "`fork` without `join`"));
                        }
                        self.stmt()?;
                    }
                    let end = self.bump().span;
                    return Ok(Stmt::Unsupported {
                        what: "`fork … join`".into(),
                        span: join(start, end),
                    });
                }
                "disable" | "force" | "release" | "assign" | "deassign" => {
                    let word = w.clone();
                    self.bump();
                    while !self.peek().is_sym(";") {
                        if self.peek().tok == Tok::Eof {
                            return Err(self.unexpected("`;`"));
                        }
                        self.bump();
                    }
                    let end = self.bump().span;
                    return Ok(Stmt::Unsupported {
                        what: format!("`{word}`"),
                        span: join(start, end),
                    });
                }
                _ => {}
            },
            _ => {}
        }
        // An assignment or a task enable.
        let lhs = self.primary()?;
        if let Some(op) = self
            .eat_sym("=")
            .map(|_| false)
            .or_else(|| self.eat_sym("<=").map(|_| true))
        {
            self.skip_delay()?;
            if self.peek().is_sym("@") {
                return Err(Diag::new(
                    self.peek().span,
                    "intra-assignment event controls are not supported",
                ));
            }
            let rhs = self.expr()?;
            let end = self.expect_sym(";")?;
            return Ok(Stmt::Assign {
                nonblocking: op,
                lhs,
                rhs,
                span: join(start, end),
            });
        }
        let end = self
            .expect_sym(";")
            .map_err(|_| self.unexpected("`=`, `<=` or `;`"))?;
        match lhs.kind {
            ExprKind::Call(name, args) => Ok(Stmt::TaskCall {
                name,
                args,
                span: join(start, end),
            }),
            ExprKind::Ident(path) if path.len() == 1 => Ok(Stmt::TaskCall {
                name: path.into_iter().next().unwrap_or_else(|| Ident {
                    name: String::new(),
                    span: start,
                }),
                args: vec![],
                span: join(start, end),
            }),
            _ => Err(Diag::new(lhs.span, "expected a statement")),
        }
    }

    /// `begin [: label] decls stmts end`.
    fn block(&mut self) -> DResult<Stmt> {
        let start = self.bump().span;
        let label = if self.eat_sym(":").is_some() {
            Some(self.ident()?)
        } else {
            None
        };
        let mut decls = Vec::new();
        let mut params = Vec::new();
        let mut stmts = Vec::new();
        loop {
            let t = self.peek();
            match &t.tok {
                Tok::Eof => return Err(Diag::new(start, "`begin` without `end`")),
                Tok::Ident(w) if w == "end" => break,
                Tok::Ident(w) if CLOSERS.contains(&w.as_str()) => {
                    return Err(self.unclosed("`end`", "`begin`", start))
                }
                Tok::Ident(w) if matches!(w.as_str(), "reg" | "integer" | "time" | "logic") => {
                    let d = self.decl_head()?;
                    decls.push(self.declarators(d)?);
                }
                Tok::Ident(w) if w == "parameter" || w == "localparam" => {
                    params.push(self.param_decl()?)
                }
                _ => stmts.push(self.stmt()?),
            }
        }
        let end = self.bump().span;
        if self.eat_sym(":").is_some() {
            self.ident()?;
        }
        Ok(Stmt::Block {
            label,
            decls,
            params,
            stmts,
            span: join(start, end),
        })
    }

    fn if_stmt(&mut self) -> DResult<Stmt> {
        let start = self.bump().span;
        self.expect_sym("(")?;
        let cond = self.expr()?;
        self.expect_sym(")")?;
        let then = self.stmt()?;
        let els = if self.eat_word("else").is_some() {
            Some(Box::new(self.stmt()?))
        } else {
            None
        };
        let end = els
            .as_ref()
            .map(|s| s.span())
            .unwrap_or_else(|| then.span());
        Ok(Stmt::If {
            cond,
            then: Box::new(then),
            els,
            span: join(start, end),
        })
    }

    fn case_stmt(&mut self) -> DResult<Stmt> {
        let t = self.bump();
        let kind = if t.is_word("casez") {
            CaseKind::Casez
        } else if t.is_word("casex") {
            CaseKind::Casex
        } else {
            CaseKind::Case
        };
        let start = t.span;
        self.expect_sym("(")?;
        let expr = self.expr()?;
        self.expect_sym(")")?;
        let mut arms = Vec::new();
        let mut default = None;
        while !self.at_word("endcase") {
            if self.peek().tok == Tok::Eof {
                return Err(Diag::new(start, "`case` without `endcase`"));
            }
            if let Tok::Ident(w) = &self.peek().tok {
                if w == "end" || CLOSERS.contains(&w.as_str()) {
                    return Err(self.unclosed("`endcase`", "`case`", start));
                }
            }
            if let Some(dspan) = self.eat_word("default") {
                self.eat_sym(":");
                let s = self.stmt()?;
                if default.is_some() {
                    return Err(Diag::new(dspan, "more than one `default` in a case"));
                }
                default = Some(Box::new(s));
                continue;
            }
            let mut labels = Vec::new();
            loop {
                labels.push(self.expr()?);
                if self.eat_sym(",").is_none() {
                    break;
                }
            }
            self.expect_sym(":")?;
            arms.push((labels, self.stmt()?));
        }
        let end = self.bump().span;
        Ok(Stmt::Case {
            kind,
            expr,
            arms,
            default,
            span: join(start, end),
        })
    }

    /// `for (lhs = e; cond; lhs = e) body`.
    fn for_stmt(&mut self) -> DResult<Stmt> {
        let start = self.bump().span;
        self.expect_sym("(")?;
        let init = self.for_assign()?;
        self.expect_sym(";")?;
        let cond = self.expr()?;
        self.expect_sym(";")?;
        let step = self.for_assign()?;
        self.expect_sym(")")?;
        let body = self.stmt()?;
        let span = join(start, body.span());
        Ok(Stmt::For {
            init: Box::new(init),
            cond,
            step: Box::new(step),
            body: Box::new(body),
            span,
        })
    }

    fn for_assign(&mut self) -> DResult<Stmt> {
        if self.at_word("integer") || self.at_word("genvar") {
            return Err(Diag::new(
                self.peek().span,
                "declarations inside `for` headers are not supported",
            ));
        }
        let lhs = self.primary()?;
        if self.peek().is_sym("++") {
            return Err(Diag::new(self.peek().span, "`++` is not supported"));
        }
        self.expect_sym("=")?;
        let rhs = self.expr()?;
        let span = join(lhs.span, rhs.span);
        Ok(Stmt::Assign {
            nonblocking: false,
            lhs,
            rhs,
            span,
        })
    }
}
