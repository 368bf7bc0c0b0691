//! Recursive-descent parser from tokens to the [`crate::ast`] tree.
//!
//! Every module is parsed. `PSLSPEC` and `COMPUTE` sections are skipped up to the next
//! section keyword; every other section, including CTL and LTL specifications, is parsed.

mod decl;
mod expr;
mod spec;

use hypermut_ir::{ConstraintKind, FileId, Span};

use crate::ast::{Ident, Module, Program, Section, SpecKind, VarKind};
use crate::error::Diag;
use crate::lexer::{Tok, Token};

/// Deepest allowed nesting of parentheses, sets, `case`s and unary operators.
pub const MAX_NESTING: u32 = 1000;

/// Sections whose contents are parsed over and ignored.
const SKIPPED_SECTIONS: &[&str] = &["PSLSPEC", "COMPUTE"];

/// Token cursor with error helpers.
pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    text: &'a str,
    file: FileId,
    nesting: u32,
    /// Whether temporal operators are recognised (inside specifications).
    in_spec: bool,
}

/// Parses a whole file from its tokens (which must end with `Eof`).
pub(crate) fn parse_program(file: FileId, text: &str, toks: &[Token]) -> Result<Program, Diag> {
    let eof_span = Span::new(file, text.len(), text.len());
    let eof = Token {
        tok: Tok::Eof,
        span: eof_span,
    };
    let fallback = [eof];
    let toks = if toks.last().is_some_and(|t| t.tok == Tok::Eof) {
        toks
    } else {
        &fallback
    };
    let mut p = Parser {
        toks,
        pos: 0,
        text,
        file,
        nesting: 0,
        in_spec: false,
    };
    let mut modules = Vec::new();
    while p.peek().tok != Tok::Eof {
        modules.push(p.module()?);
    }
    Ok(Program {
        modules,
        eof: eof_span,
    })
}

impl<'a> Parser<'a> {
    /// The current token (the final `Eof` once the input is exhausted).
    fn peek(&self) -> &'a Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[self.pos.min(last)]
    }

    /// The token after the current one.
    fn peek2(&self) -> &'a Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + 1).min(last)]
    }

    /// Consumes and returns the current token (never moves past `Eof`).
    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    /// Consumes the symbol `s` if it is next.
    fn eat_sym(&mut self, s: &str) -> Option<Span> {
        let t = self.peek();
        t.is_sym(s).then(|| self.bump().span)
    }

    /// Consumes the symbol `s` or reports what was found instead.
    fn expect_sym(&mut self, s: &str) -> Result<Span, Diag> {
        self.eat_sym(s)
            .ok_or_else(|| self.unexpected(&format!("`{s}`")))
    }

    /// How the current token is shown in messages.
    fn found(&self) -> String {
        let t = self.peek();
        match &t.tok {
            Tok::Eof => "end of file".to_string(),
            _ => format!("`{}`", self.text_of(t.span)),
        }
    }

    /// The source text of a span.
    fn text_of(&self, span: Span) -> &'a str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// "expected X, found Y" at the current token (or the lexer's message for a bad token).
    fn unexpected(&self, expected: &str) -> Diag {
        let t = self.peek();
        match &t.tok {
            Tok::Bad(msg) => Diag::new(t.span, msg.clone()),
            _ => Diag::new(
                t.span,
                format!("expected {expected}, found {}", self.found()),
            ),
        }
    }

    /// A span from the start of `a` to the end of `b`.
    fn join(&self, a: Span, b: Span) -> Span {
        Span::new(self.file, a.start as usize, (b.end.max(a.start)) as usize)
    }

    /// An identifier, or an error mentioning `what`.
    fn ident(&mut self, what: &str) -> Result<Ident, Diag> {
        match &self.peek().tok {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident {
                    name: name.clone(),
                    span,
                })
            }
            Tok::Kw(k) if !self.peek().is_section_start() => Err(Diag::new(
                self.peek().span,
                format!("expected {what}, found the reserved word `{k}`"),
            )),
            _ => Err(self.unexpected(what)),
        }
    }

    /// `MODULE name [(params)] section*`.
    fn module(&mut self) -> Result<Module, Diag> {
        if !self.peek().is_kw("MODULE") {
            return Err(self.unexpected("`MODULE`"));
        }
        self.bump();
        let name = self.ident("a module name")?;
        let mut params = Vec::new();
        if self.eat_sym("(").is_some() && self.eat_sym(")").is_none() {
            loop {
                params.push(self.ident("a parameter name")?);
                if self.eat_sym(")").is_some() {
                    break;
                }
                self.expect_sym(",")?;
            }
        }
        let mut sections = Vec::new();
        while !matches!(self.peek().tok, Tok::Eof) && !self.peek().is_kw("MODULE") {
            sections.push(self.section()?);
        }
        Ok(Module {
            name,
            params,
            sections,
        })
    }

    /// One section, starting at its keyword.
    fn section(&mut self) -> Result<Section, Diag> {
        let t = self.peek();
        let kw = match &t.tok {
            Tok::Kw(k) if t.is_section_start() => *k,
            Tok::Ident(name) => {
                return Err(Diag::new(
                    t.span,
                    format!("unknown section keyword `{name}`"),
                ))
            }
            _ => return Err(self.unexpected("a section keyword (VAR, IVAR, DEFINE, ASSIGN, …)")),
        };
        let kw_span = self.bump().span;
        match kw {
            "VAR" => self.var_section(VarKind::Var),
            "IVAR" => self.var_section(VarKind::IVar),
            "FROZENVAR" => self.var_section(VarKind::Frozen),
            "DEFINE" => self.define_section(),
            "ASSIGN" => self.assign_section(),
            "INIT" => self.constraint(ConstraintKind::Init),
            "INVAR" => self.constraint(ConstraintKind::Invariant),
            "TRANS" => self.constraint(ConstraintKind::Trans),
            "INVARSPEC" => self.spec(SpecKind::Invar, kw_span),
            "SPEC" | "CTLSPEC" => self.spec(SpecKind::Ctl, kw_span),
            "LTLSPEC" => self.spec(SpecKind::Ltl, kw_span),
            "FAIRNESS" | "JUSTICE" | "COMPASSION" => self.fairness(kw, kw_span),
            "CONSTANTS" => self.constants(),
            "ISA" => {
                let m = self.ident("a module name after ISA")?;
                Ok(Section::Isa(m))
            }
            "MDEFINE" => self.define_section(),
            k if SKIPPED_SECTIONS.contains(&k) => {
                while !self.peek().is_section_start() {
                    self.bump();
                }
                Ok(Section::Skipped(Ident {
                    name: k.to_string(),
                    span: kw_span,
                }))
            }
            k => Err(Diag::new(
                kw_span,
                format!("`{k}` sections are not supported yet"),
            )),
        }
    }

    /// `INIT` / `INVAR` / `TRANS` followed by an expression and an optional `;`.
    fn constraint(&mut self, kind: ConstraintKind) -> Result<Section, Diag> {
        let e = self.expr()?;
        self.end_of_section()?;
        Ok(Section::Constraint(kind, e))
    }
}

#[cfg(test)]
mod tests;
