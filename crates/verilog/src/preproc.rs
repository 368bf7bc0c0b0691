//! The preprocessor, working on tokens: `` `define `` (with parameters) and macro uses,
//! `` `undef ``, `` `include `` (searched in the including file's folder, the `-I` folders and
//! the folders of the design files), `` `ifdef `` / `` `ifndef `` / `` `elsif `` / `` `else `` /
//! `` `endif ``. `` `default_nettype `` is passed on to the parser as one directive token.
//! `` `timescale `` and the other directives that do not change synthesis semantics are
//! skipped up to the end of their line.
//!
//! Expanded tokens keep the spans of the macro body they were copied from.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hypermut_ir::{Diagnostic, SourceMap, Span};

use crate::error::{DResult, Diag};
use crate::lexer::{lex, Tok, Token};

/// Deepest nesting of `` `include `` files and of macro expansions.
const MAX_DEPTH: usize = 64;

/// Directives skipped together with the rest of their line.
const LINE_DIRECTIVES: &[&str] = &[
    "timescale",
    "resetall",
    "celldefine",
    "endcelldefine",
    "unconnected_drive",
    "nounconnected_drive",
    "line",
    "pragma",
    "begin_keywords",
    "end_keywords",
    "delay_mode_zero",
    "delay_mode_unit",
    "delay_mode_path",
    "delay_mode_distributed",
    "default_decay_time",
    "default_trireg_strength",
    "accelerate",
    "noaccelerate",
    "protect",
    "endprotect",
];

/// A macro definition.
#[derive(Clone, Debug)]
struct Macro {
    /// Parameter names of a function-like macro.
    params: Option<Vec<String>>,
    /// The replacement tokens.
    body: Vec<Token>,
}

/// One level of `` `ifdef `` nesting.
#[derive(Clone, Debug)]
struct Cond {
    /// Whether the enclosing region is active.
    parent_active: bool,
    /// Whether some branch of this conditional has been taken.
    taken: bool,
    /// Whether the current branch is active (including the parents).
    active: bool,
    /// Whether `` `else `` was seen.
    in_else: bool,
    /// Where the conditional started.
    span: Span,
}

/// Preprocessor state while reading one design.
pub(crate) struct Preprocessor<'a> {
    sources: &'a mut SourceMap,
    include_dirs: Vec<PathBuf>,
    macros: HashMap<String, Macro>,
    conds: Vec<Cond>,
    out: Vec<Token>,
    /// Warnings and notes about the preprocessing.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Preprocessor<'a> {
    /// A preprocessor adding files to `sources`, searching `include_dirs` for includes.
    pub fn new(sources: &'a mut SourceMap, include_dirs: Vec<PathBuf>) -> Self {
        Preprocessor {
            sources,
            include_dirs,
            macros: HashMap::new(),
            conds: Vec::new(),
            out: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Predefines `name` as `value` (as with `+define+name=value`).
    pub fn define(&mut self, name: &str, value: &str) {
        let file = self.sources.add(format!("<define {name}>"), value);
        let mut body = lex(file, value);
        body.retain(|t| t.tok != Tok::Eof);
        for t in &mut body {
            t.nl_before = false;
        }
        self.macros
            .insert(name.to_string(), Macro { params: None, body });
    }

    /// Preprocesses the file `name` with contents `text` (appending to the output).
    pub fn file(&mut self, name: &str, dir: Option<PathBuf>, text: &str) -> DResult<()> {
        let file = self.sources.add(name, text);
        let toks = lex(file, text);
        self.run(&toks, dir.as_deref(), 0)
    }

    /// Finishes: checks that every conditional is closed and returns the tokens (ending with
    /// `Eof`).
    pub fn finish(mut self) -> DResult<Vec<Token>> {
        if let Some(c) = self.conds.last() {
            return Err(Diag::new(
                c.span,
                "`ifdef/`ifndef without a matching `endif",
            ));
        }
        let eof_span = self
            .out
            .last()
            .map(|t| Span {
                file: t.span.file,
                start: t.span.end,
                end: t.span.end,
            })
            .unwrap_or(Span {
                file: hypermut_ir::FileId(0),
                start: 0,
                end: 0,
            });
        self.out.push(Token {
            tok: Tok::Eof,
            span: eof_span,
            nl_before: true,
            space_before: true,
        });
        Ok(self.out)
    }

    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// Processes a token list from one file (`dir` is its folder) or one macro expansion.
    fn run(&mut self, toks: &[Token], dir: Option<&Path>, depth: usize) -> DResult<()> {
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            i += 1;
            let name = match &t.tok {
                Tok::Eof => break,
                Tok::Directive(d) => d.as_str(),
                _ => {
                    if self.active() {
                        self.out.push(t.clone());
                    }
                    continue;
                }
            };
            match name {
                "ifdef" | "ifndef" | "elsif" => {
                    let (m, span) = macro_name(toks, &mut i, t)?;
                    let defined = self.macros.contains_key(&m);
                    let truth = if name == "ifndef" { !defined } else { defined };
                    if name == "elsif" {
                        let Some(c) = self.conds.last_mut() else {
                            return Err(Diag::new(t.span, "`elsif without `ifdef"));
                        };
                        if c.in_else {
                            return Err(Diag::new(t.span, "`elsif after `else"));
                        }
                        c.active = c.parent_active && !c.taken && truth;
                        c.taken |= truth;
                    } else {
                        let parent_active = self.active();
                        self.conds.push(Cond {
                            parent_active,
                            taken: truth,
                            active: parent_active && truth,
                            in_else: false,
                            span,
                        });
                    }
                }
                "else" => {
                    let Some(c) = self.conds.last_mut() else {
                        return Err(Diag::new(t.span, "`else without `ifdef"));
                    };
                    if c.in_else {
                        return Err(Diag::new(t.span, "second `else for one `ifdef"));
                    }
                    c.in_else = true;
                    c.active = c.parent_active && !c.taken;
                    c.taken = true;
                }
                "endif" => {
                    if self.conds.pop().is_none() {
                        return Err(Diag::new(t.span, "`endif without `ifdef"));
                    }
                }
                _ if !self.active() => {}
                "define" => self.define_directive(toks, &mut i, t)?,
                "undef" => {
                    let (m, _) = macro_name(toks, &mut i, t)?;
                    self.macros.remove(&m);
                }
                "include" => self.include(toks, &mut i, t, dir, depth)?,
                "__FILE__" | "__LINE__" => {
                    self.out.push(Token {
                        tok: Tok::Number("0".into()),
                        ..t.clone()
                    });
                }
                "default_nettype" => {
                    // Kept for the parser (it decides whether modules get implicit nets).
                    let arg = match toks.get(i) {
                        Some(a) if !a.nl_before => match &a.tok {
                            Tok::Ident(w) => w.clone(),
                            _ => String::new(),
                        },
                        _ => String::new(),
                    };
                    self.out.push(Token {
                        tok: Tok::Directive(format!("default_nettype {arg}")),
                        ..t.clone()
                    });
                    while i < toks.len() && !toks[i].nl_before && toks[i].tok != Tok::Eof {
                        i += 1;
                    }
                }
                d if LINE_DIRECTIVES.contains(&d) => {
                    while i < toks.len() && !toks[i].nl_before && toks[i].tok != Tok::Eof {
                        i += 1;
                    }
                }
                _ => self.expand(toks, &mut i, t, dir, depth)?,
            }
        }
        Ok(())
    }

    /// `` `define NAME[(params)] body `` (the directive token was just consumed).
    fn define_directive(&mut self, toks: &[Token], i: &mut usize, d: &Token) -> DResult<()> {
        let (name, _) = macro_name(toks, i, d)?;
        let mut params = None;
        if toks
            .get(*i)
            .is_some_and(|t| t.is_sym("(") && !t.space_before && !t.nl_before)
        {
            *i += 1;
            let mut ps = Vec::new();
            loop {
                let Some(t) = toks.get(*i) else {
                    return Err(Diag::new(d.span, "unterminated macro parameter list"));
                };
                *i += 1;
                match &t.tok {
                    Tok::Sym(")") if ps.is_empty() => break,
                    Tok::Ident(p) | Tok::Escaped(p) if !t.nl_before => {
                        ps.push(p.clone());
                        match toks.get(*i) {
                            Some(t2) if t2.is_sym(",") => *i += 1,
                            Some(t2) if t2.is_sym(")") => {
                                *i += 1;
                                break;
                            }
                            Some(t2) => {
                                return Err(Diag::new(
                                    t2.span,
                                    "expected `,` or `)` in the macro parameter list",
                                ))
                            }
                            None => {
                                return Err(Diag::new(t.span, "unterminated macro parameter list"))
                            }
                        }
                    }
                    _ => {
                        return Err(Diag::new(
                            t.span,
                            "expected a parameter name in the macro parameter list",
                        ))
                    }
                }
            }
            params = Some(ps);
        }
        let mut body = Vec::new();
        while let Some(t) = toks.get(*i) {
            if t.nl_before || t.tok == Tok::Eof {
                break;
            }
            body.push(t.clone());
            *i += 1;
        }
        self.macros.insert(name, Macro { params, body });
        Ok(())
    }

    /// `` `include "file" ``.
    fn include(
        &mut self,
        toks: &[Token],
        i: &mut usize,
        d: &Token,
        dir: Option<&Path>,
        depth: usize,
    ) -> DResult<()> {
        let (name, span) = match toks.get(*i) {
            Some(Token {
                tok: Tok::Str(s),
                span,
                ..
            }) => (s.clone(), *span),
            Some(t) => {
                return Err(Diag::new(
                    t.span,
                    "`include needs a file name in double quotes",
                ))
            }
            None => return Err(Diag::new(d.span, "`include needs a file name")),
        };
        *i += 1;
        if depth >= MAX_DEPTH {
            return Err(Diag::new(
                span,
                format!("`include nested more than {MAX_DEPTH} levels deep (recursive include?)"),
            ));
        }
        let rel = Path::new(&name);
        let mut candidates = Vec::new();
        if rel.is_absolute() {
            candidates.push(rel.to_path_buf());
        } else {
            if let Some(dir) = dir {
                candidates.push(dir.join(rel));
            }
            candidates.extend(self.include_dirs.iter().map(|d| d.join(rel)));
        }
        let Some(path) = candidates.into_iter().find(|p| p.is_file()) else {
            return Err(Diag::new(
                span,
                format!("cannot find include file `{name}` (searched the including file's folder, the -I folders and the design folders)"),
            ));
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Diag::new(
                span,
                format!("cannot read include file `{}`: {e}", path.display()),
            )
        })?;
        let file = self.sources.add(path.display().to_string(), text.as_str());
        let toks = lex(file, &text);
        let sub_dir = path.parent().map(Path::to_path_buf);
        self.run(&toks, sub_dir.as_deref(), depth + 1)
    }

    /// A macro use `` `NAME `` or `` `NAME(args) ``.
    fn expand(
        &mut self,
        toks: &[Token],
        i: &mut usize,
        d: &Token,
        dir: Option<&Path>,
        depth: usize,
    ) -> DResult<()> {
        let Tok::Directive(name) = &d.tok else {
            return Ok(());
        };
        let Some(mac) = self.macros.get(name).cloned() else {
            return Err(Diag::new(
                d.span,
                format!("undefined macro or unknown directive `{name}"),
            ));
        };
        if depth >= MAX_DEPTH {
            return Err(Diag::new(
                d.span,
                format!(
                    "macro expansion nested more than {MAX_DEPTH} levels deep (recursive macro?)"
                ),
            ));
        }
        let mut expansion: Vec<Token> = match &mac.params {
            None => mac.body.clone(),
            Some(params) => {
                let args = macro_args(toks, i, d)?;
                if args.len() != params.len()
                    && !(params.is_empty() && args.len() == 1 && args[0].is_empty())
                {
                    return Err(Diag::new(
                        d.span,
                        format!(
                            "macro `{name} takes {} argument(s), {} given",
                            params.len(),
                            args.len()
                        ),
                    ));
                }
                let mut out = Vec::new();
                for t in &mac.body {
                    let param = match &t.tok {
                        Tok::Ident(p) | Tok::Escaped(p) => params.iter().position(|x| x == p),
                        _ => None,
                    };
                    match param.and_then(|k| args.get(k)) {
                        Some(arg) => out.extend(arg.iter().cloned()),
                        None => out.push(t.clone()),
                    }
                }
                out
            }
        };
        if let Some(first) = expansion.first_mut() {
            first.nl_before = d.nl_before;
            first.space_before = d.space_before;
        }
        for t in expansion.iter_mut().skip(1) {
            t.nl_before = false;
        }
        self.run(&expansion, dir, depth + 1)
    }
}

/// The macro name after a directive (on the same line).
fn macro_name(toks: &[Token], i: &mut usize, d: &Token) -> DResult<(String, Span)> {
    match toks.get(*i) {
        Some(t) if !t.nl_before => match &t.tok {
            Tok::Ident(n) | Tok::Escaped(n) => {
                *i += 1;
                Ok((n.clone(), t.span))
            }
            _ => Err(Diag::new(t.span, "expected a macro name")),
        },
        _ => Err(Diag::new(
            d.span,
            "expected a macro name after the directive",
        )),
    }
}

/// The parenthesised, comma-separated arguments of a function-like macro use.
fn macro_args(toks: &[Token], i: &mut usize, d: &Token) -> DResult<Vec<Vec<Token>>> {
    match toks.get(*i) {
        Some(t) if t.is_sym("(") => *i += 1,
        _ => {
            return Err(Diag::new(
                d.span,
                "this macro takes arguments: expected `(`",
            ))
        }
    }
    let mut args = vec![Vec::new()];
    let mut nesting = 0usize;
    loop {
        let Some(t) = toks.get(*i) else {
            return Err(Diag::new(d.span, "unterminated macro argument list"));
        };
        *i += 1;
        match &t.tok {
            Tok::Eof => return Err(Diag::new(d.span, "unterminated macro argument list")),
            Tok::Sym("(" | "[" | "{") => nesting += 1,
            Tok::Sym(")") if nesting == 0 => break,
            Tok::Sym(")" | "]" | "}") => nesting = nesting.saturating_sub(1),
            Tok::Sym(",") if nesting == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(a) = args.last_mut() {
            a.push(t.clone());
        }
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pp(text: &str) -> Result<Vec<String>, String> {
        let mut sources = SourceMap::new();
        let mut p = Preprocessor::new(&mut sources, vec![]);
        p.file("t.v", None, text).map_err(|d| d.message.clone())?;
        let toks = p.finish().map_err(|d| d.message)?;
        Ok(toks
            .iter()
            .filter(|t| t.tok != Tok::Eof)
            .map(|t| match &t.tok {
                Tok::Ident(s) | Tok::Number(s) => s.clone(),
                Tok::Sym(s) => s.to_string(),
                other => format!("{other:?}"),
            })
            .collect())
    }

    #[test]
    fn object_and_function_macros_expand() {
        let t = pp("`define W 8\n`define MAX(a,b) ((a)>(b)?(a):(b))\nx `W `MAX(1, `W)").unwrap();
        assert_eq!(t.join(" "), "x 8 ( ( 1 ) > ( 8 ) ? ( 1 ) : ( 8 ) )");
    }

    #[test]
    fn conditionals_nest() {
        let t = pp("`define A\n`ifdef A a `ifdef B b `else c `endif `elsif C d `else e `endif f")
            .unwrap();
        assert_eq!(t.join(" "), "a c f");
        let t = pp("`ifndef A a `elsif B b `else c `endif").unwrap();
        assert_eq!(t.join(" "), "a");
    }

    #[test]
    fn line_directives_are_skipped() {
        let t = pp("`timescale 1ns / 1ps\nmodule").unwrap();
        assert_eq!(t, vec!["module"]);
    }

    #[test]
    fn errors_are_reported() {
        assert!(pp("`FOO").unwrap_err().contains("undefined macro"));
        assert!(pp("`ifdef A x").unwrap_err().contains("without a matching"));
        assert!(pp("`endif").unwrap_err().contains("without"));
        assert!(pp("`define M(a) a\n`M(1,2)")
            .unwrap_err()
            .contains("argument"));
        assert!(pp("`include \"nowhere.v\"")
            .unwrap_err()
            .contains("cannot find"));
        assert!(pp("`define R `R\n`R").unwrap_err().contains("nested"));
    }
}
