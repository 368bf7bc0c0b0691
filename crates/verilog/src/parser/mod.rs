//! Recursive-descent parser from preprocessed tokens to the [`crate::ast`] tree.
//!
//! [`items`] parses module bodies, [`stmt`] statements and [`expr`] expressions. Constructs
//! that cannot be synthesised but are common in design files (`$display`, `forever`, `event`
//! declarations …) are parsed and kept as markers, so that elaboration can ignore them when
//! they are unreachable or report them where they matter.

mod expr;
mod items;
mod stmt;

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use hypermut_ir::{SourceMap, Span};

use crate::ast::{Design, Ident};
use crate::error::{DResult, Diag};
use crate::lexer::{Tok, Token};

/// Deepest allowed nesting of expressions and statements.
pub const MAX_NESTING: u32 = 1000;

/// Reserved words that cannot be identifiers.
const KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "automatic",
    "begin",
    "buf",
    "case",
    "casex",
    "casez",
    "deassign",
    "default",
    "defparam",
    "disable",
    "else",
    "end",
    "endcase",
    "endfunction",
    "endgenerate",
    "endmodule",
    "endspecify",
    "endtask",
    "event",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "if",
    "initial",
    "inout",
    "input",
    "integer",
    "join",
    "localparam",
    "macromodule",
    "module",
    "nand",
    "negedge",
    "nor",
    "not",
    "or",
    "output",
    "parameter",
    "posedge",
    "real",
    "realtime",
    "reg",
    "release",
    "repeat",
    "signed",
    "specify",
    "supply0",
    "supply1",
    "task",
    "time",
    "tri",
    "tri0",
    "tri1",
    "typedef",
    "unsigned",
    "wait",
    "wand",
    "while",
    "wire",
    "wor",
    "xnor",
    "xor",
    "enum",
];

/// Joins two spans into one covering both, when they lie in the same file in order;
/// otherwise the first span.
pub fn join(a: Span, b: Span) -> Span {
    if a.file == b.file && a.start <= b.end {
        Span {
            file: a.file,
            start: a.start,
            end: b.end.max(a.end),
        }
    } else {
        a
    }
}

/// Token cursor with error helpers.
pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    sources: &'a SourceMap,
    nesting: u32,
    /// Names declared by `typedef enum` so far.
    typedefs: HashSet<String>,
}

/// Parses a whole preprocessed design (tokens ending with `Eof`).
pub(crate) fn parse_design(toks: &[Token], sources: &SourceMap) -> DResult<Design> {
    let eof = Token {
        tok: Tok::Eof,
        span: Span {
            file: hypermut_ir::FileId(0),
            start: 0,
            end: 0,
        },
        nl_before: true,
        space_before: true,
    };
    let fallback = [eof];
    let toks = if toks.last().is_some_and(|t| t.tok == Tok::Eof) {
        toks
    } else {
        &fallback
    };
    // `` `default_nettype `` directives (outside modules, IEEE 1364 §19.2) are taken out of
    // the stream; `nettype_none[k]` says whether token `k` of the rest follows a `none`.
    let mut kept = Vec::with_capacity(toks.len());
    let mut nettype_none = Vec::with_capacity(toks.len());
    let mut none = false;
    for t in toks {
        match &t.tok {
            Tok::Directive(d) if d.starts_with("default_nettype") => {
                none = d.trim_start_matches("default_nettype").trim() == "none";
            }
            _ => {
                kept.push(t.clone());
                nettype_none.push(none);
            }
        }
    }
    let toks = &kept[..];
    let mut p = Parser {
        toks,
        pos: 0,
        sources,
        nesting: 0,
        typedefs: HashSet::new(),
    };
    let mut design = Design::default();
    loop {
        let t = p.peek();
        match &t.tok {
            Tok::Eof => break,
            Tok::Sym(";") => {
                p.bump();
            }
            Tok::Ident(w) if w == "module" || w == "macromodule" => {
                let none = nettype_none.get(p.pos).copied().unwrap_or(false);
                let mut m = p.module()?;
                m.implicit_nets = !none;
                design.modules.push(m);
            }
            Tok::Ident(w) if w == "typedef" => {
                let td = p.typedef()?;
                design.typedefs.push(td);
            }
            _ => return Err(p.unexpected("`module`")),
        }
    }
    Ok(design)
}

impl<'a> Parser<'a> {
    /// The current token (the final `Eof` once the input is exhausted).
    fn peek(&self) -> &'a Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[self.pos.min(last)]
    }

    /// The token `k` positions ahead.
    fn peek_at(&self, k: usize) -> &'a Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + k).min(last)]
    }

    /// Consumes and returns the current token (never moves past `Eof`).
    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    /// The span of the previous token.
    fn prev_span(&self) -> Span {
        self.toks
            .get(self.pos.saturating_sub(1))
            .map(|t| t.span)
            .unwrap_or_else(|| self.peek().span)
    }

    /// Consumes the symbol `s` if it is next.
    fn eat_sym(&mut self, s: &str) -> Option<Span> {
        self.peek().is_sym(s).then(|| self.bump().span)
    }

    /// Consumes the symbol `s` or reports what was found instead.
    fn expect_sym(&mut self, s: &str) -> DResult<Span> {
        self.eat_sym(s)
            .ok_or_else(|| self.unexpected(&format!("`{s}`")))
    }

    /// Consumes the keyword `w` if it is next.
    fn eat_word(&mut self, w: &str) -> Option<Span> {
        self.peek().is_word(w).then(|| self.bump().span)
    }

    /// Consumes the keyword `w` or reports what was found instead.
    fn expect_word(&mut self, w: &str) -> DResult<Span> {
        self.eat_word(w)
            .ok_or_else(|| self.unexpected(&format!("`{w}`")))
    }

    /// Whether the current token is the keyword `w`.
    fn at_word(&self, w: &str) -> bool {
        self.peek().is_word(w)
    }

    /// An identifier (plain, not a keyword, or escaped).
    fn ident(&mut self) -> DResult<Ident> {
        let t = self.peek();
        match &t.tok {
            Tok::Ident(n) if !KEYWORDS.contains(&n.as_str()) => {
                self.bump();
                Ok(Ident {
                    name: n.clone(),
                    span: t.span,
                })
            }
            Tok::Escaped(n) => {
                self.bump();
                Ok(Ident {
                    name: n.clone(),
                    span: t.span,
                })
            }
            _ => Err(self.unexpected("an identifier")),
        }
    }

    /// Whether the current token is an identifier (not a keyword).
    fn at_ident(&self) -> bool {
        match &self.peek().tok {
            Tok::Ident(n) => !KEYWORDS.contains(&n.as_str()),
            Tok::Escaped(_) => true,
            _ => false,
        }
    }

    /// How the current token is shown in messages.
    fn found(&self) -> String {
        let t = self.peek();
        match &t.tok {
            Tok::Eof => "end of input".to_string(),
            Tok::Bad(msg) => msg.clone(),
            _ => format!("`{}`", self.sources.snippet(t.span)),
        }
    }

    /// "expected X, found Y" at the current token (or the bad token's own message).
    fn unexpected(&self, what: &str) -> Diag {
        let t = self.peek();
        match &t.tok {
            Tok::Bad(msg) => Diag::new(t.span, msg.clone()),
            _ => Diag::new(t.span, format!("expected {what}, found {}", self.found())),
        }
    }

    /// Runs `f` one nesting level deeper, refusing absurdly deep nesting.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> DResult<T>) -> DResult<T> {
        if self.nesting >= MAX_NESTING {
            return Err(Diag::new(
                self.peek().span,
                format!("nested too deeply (more than {MAX_NESTING} levels)"),
            ));
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }
}
