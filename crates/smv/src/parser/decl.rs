//! Declarations: variable sections, DEFINEs, assignments and types.

use crate::ast::{
    Assign, AssignKind, Bound, DefineDecl, EnumItem, Ident, Section, TypeKind, TypeSpec, VarDecl,
    VarKind,
};
use crate::error::Diag;
use crate::lexer::Tok;

use super::Parser;

/// Type keywords that are recognised but not supported yet, with the reason.
const UNSUPPORTED_TYPES: &[(&str, &str)] = &[
    ("integer", "infinite types (`integer`) are not supported"),
    ("real", "infinite types (`real`) are not supported"),
    ("word", "word types are not supported yet"),
    ("signed", "word types are not supported yet"),
    ("unsigned", "word types are not supported yet"),
    ("array", "arrays are not supported yet"),
    ("process", "process instances are not supported yet"),
];

impl Parser<'_> {
    /// `name : type;` declarations up to the next section keyword.
    pub(super) fn var_section(&mut self, kind: VarKind) -> Result<Section, Diag> {
        let mut decls = Vec::new();
        while !self.peek().is_section_start() {
            let name = self.ident(&format!(
                "a variable name in the {} section",
                kind.keyword()
            ))?;
            self.expect_sym(":")?;
            let ty = self.type_spec()?;
            self.expect_sym(";")?;
            decls.push(VarDecl { name, ty });
        }
        Ok(Section::Vars(kind, decls))
    }

    /// `name := expr;` declarations up to the next section keyword.
    pub(super) fn define_section(&mut self) -> Result<Section, Diag> {
        let mut decls = Vec::new();
        while !self.peek().is_section_start() {
            let name = self.ident("a DEFINE name")?;
            if self.peek().is_sym("[") {
                return Err(Diag::new(
                    self.peek().span,
                    "array DEFINEs are not supported yet",
                ));
            }
            self.expect_sym(":=")?;
            let body = self.expr()?;
            self.expect_sym(";")?;
            decls.push(DefineDecl { name, body });
        }
        Ok(Section::Defines(decls))
    }

    /// `init(x) := e;`, `next(x) := e;` and `x := e;` up to the next section keyword.
    pub(super) fn assign_section(&mut self) -> Result<Section, Diag> {
        let mut assigns = Vec::new();
        while !self.peek().is_section_start() {
            let start = self.peek().span;
            let kind = if self.peek().is_kw("init") {
                AssignKind::Init
            } else if self.peek().is_kw("next") {
                AssignKind::Next
            } else {
                AssignKind::Invariant
            };
            let target = if kind == AssignKind::Invariant {
                self.ident("`init(…)`, `next(…)` or a variable name")?
            } else {
                self.bump();
                self.expect_sym("(")?;
                let id = self.ident("a variable name")?;
                self.expect_sym(")")?;
                id
            };
            let lhs_span = self.join(start, self.toks[self.pos.saturating_sub(1)].span);
            if self.peek().is_sym(".") || self.peek().is_sym("[") {
                return Err(Diag::new(
                    self.peek().span,
                    "assignments to module instance members or array elements are not supported yet",
                ));
            }
            self.expect_sym(":=")?;
            let rhs = self.expr()?;
            self.expect_sym(";")?;
            assigns.push(Assign {
                kind,
                target,
                lhs_span,
                rhs,
            });
        }
        Ok(Section::Assigns(assigns))
    }

    /// A signed integer literal; returns the value and its span.
    fn signed_int(&mut self) -> Result<(i64, hypermut_ir::Span), Diag> {
        let start = self.peek().span;
        let neg = self.eat_sym("-").is_some();
        let t = self.peek();
        let Tok::Int(digits) = &t.tok else {
            return Err(self.unexpected("an integer"));
        };
        self.bump();
        let span = self.join(start, t.span);
        let v = parse_int(digits, neg).ok_or_else(|| {
            Diag::new(
                span,
                format!("integer constant `{}` is out of range", self.text_of(span)),
            )
        })?;
        Ok((v, span))
    }

    /// A range bound: a signed integer or a DEFINE name.
    fn bound(&mut self) -> Result<(Bound, hypermut_ir::Span), Diag> {
        if let Tok::Ident(name) = &self.peek().tok {
            let span = self.bump().span;
            return Ok((Bound::Name(name.clone()), span));
        }
        let (v, span) = self.signed_int()?;
        Ok((Bound::Int(v), span))
    }

    /// A type: `boolean`, `{v, …}`, `lo..hi` or a module name with optional arguments.
    pub(super) fn type_spec(&mut self) -> Result<TypeSpec, Diag> {
        let t = self.peek();
        let start = t.span;
        if t.is_kw("boolean") {
            self.bump();
            return Ok(TypeSpec {
                kind: TypeKind::Boolean,
                span: start,
            });
        }
        if let Tok::Kw(k) = t.tok {
            if let Some((_, msg)) = UNSUPPORTED_TYPES.iter().find(|(w, _)| *w == k) {
                return Err(Diag::new(t.span, *msg));
            }
        }
        if t.is_sym("{") {
            self.bump();
            let mut items = Vec::new();
            loop {
                let item = match &self.peek().tok {
                    Tok::Ident(name) => {
                        let span = self.bump().span;
                        (EnumItem::Symbol(name.clone()), span)
                    }
                    Tok::Int(_) => {
                        let (v, span) = self.signed_int()?;
                        (EnumItem::Int(v), span)
                    }
                    _ if self.peek().is_sym("-") => {
                        let (v, span) = self.signed_int()?;
                        (EnumItem::Int(v), span)
                    }
                    _ => return Err(self.unexpected("an enumeration value")),
                };
                items.push(item);
                if self.eat_sym(",").is_some() {
                    continue;
                }
                if self.peek().is_sym("}") {
                    break;
                }
                return Err(self.unexpected("`,` or `}` in the enumeration type"));
            }
            let end = self.bump().span;
            return Ok(TypeSpec {
                kind: TypeKind::Enum(items),
                span: self.join(start, end),
            });
        }
        let is_bound_start = matches!(t.tok, Tok::Int(_)) || t.is_sym("-");
        let named_range = matches!(t.tok, Tok::Ident(_)) && self.peek2().is_sym("..");
        if is_bound_start || named_range {
            let lo = self.bound()?;
            self.expect_sym("..")?;
            let hi = self.bound()?;
            let span = self.join(start, hi.1);
            return Ok(TypeSpec {
                kind: TypeKind::Range(lo, hi),
                span,
            });
        }
        if let Tok::Ident(name) = &t.tok {
            self.bump();
            let mut end = t.span;
            if self.peek().is_sym("(") {
                end = self.skip_balanced_parens()?;
            }
            return Ok(TypeSpec {
                kind: TypeKind::Named(Ident {
                    name: name.clone(),
                    span: t.span,
                }),
                span: self.join(start, end),
            });
        }
        Err(self.unexpected("a type"))
    }

    /// Skips `( … )` with nested parentheses; returns the span of the closing `)`.
    fn skip_balanced_parens(&mut self) -> Result<hypermut_ir::Span, Diag> {
        let open = self.bump().span;
        let mut depth = 1u32;
        loop {
            let t = self.peek();
            if t.tok == Tok::Eof || t.is_sym(";") {
                return Err(Diag::new(open, "unclosed `(` in module instance arguments"));
            }
            self.bump();
            if t.is_sym("(") {
                depth += 1;
            } else if t.is_sym(")") {
                depth -= 1;
                if depth == 0 {
                    return Ok(t.span);
                }
            }
        }
    }
}

/// The value of decimal `digits`, negated when `neg`, if it fits in an `i64`.
pub(super) fn parse_int(digits: &str, neg: bool) -> Option<i64> {
    let v: i128 = digits.parse().ok()?;
    i64::try_from(if neg { -v } else { v }).ok()
}
